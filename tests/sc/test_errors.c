/* Elaboration and run-time errors: each ends the program with "gpusc: ..." on stderr and exit
 * status 1 (checked in a subprocess). */
#include "sc/gsc.h"

#include <glib.h>
#include <string.h>

typedef struct {
    uint32_t pc;
    uint8_t warp;
} issue_packet;
static const gsc_field issue_fields[] = {
    GSC_FIELD(issue_packet, pc, GSC_U32, 0),
    GSC_FIELD(issue_packet, warp, GSC_U8, 6),
};
static const gsc_type issue_type = GSC_TYPE(issue_packet, issue_fields);
/* the same description, declared twice (as two translation units would) */
static const gsc_type issue_type_copy = GSC_TYPE(issue_packet, issue_fields);

typedef struct {
    uint64_t addr;
} mem_req;
static const gsc_field mem_fields[] = {GSC_FIELD(mem_req, addr, GSC_U64, 48)};
static const gsc_type mem_type = GSC_TYPE(mem_req, mem_fields);

#define EXPECT_FATAL(pattern)                                                                                \
    do {                                                                                                     \
        g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);                                          \
        g_test_trap_assert_failed();                                                                         \
        g_test_trap_assert_stderr(pattern);                                                                  \
    } while (0)

static void test_type_mismatch(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *sm = gsc_module_new(NULL, "sm0");
        gsc_module *issue = gsc_module_new(sm, "issue");
        gsc_latch *l = gsc_latch_new(sm, "mem_req", &mem_type);
        gsc_port *in = gsc_port_new(issue, "in", GSC_IN, &issue_type);
        gsc_port_bind_latch(in, l);
        return;
    }
    EXPECT_FATAL(
        "gpusc: type mismatch binding port 'sm0.issue.in' (type 'issue_packet') to latch 'sm0.mem_req' "
        "(type 'mem_req')\n");
}

static void test_type_mismatch_fifo(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "l2");
        gsc_fifo *f = gsc_fifo_new(m, "q", &issue_type, 4);
        gsc_port *p = gsc_port_new(m, "req", GSC_OUT, &mem_type);
        gsc_port_bind_fifo(p, f);
        return;
    }
    EXPECT_FATAL(
        "gpusc: type mismatch binding port 'l2.req' (type 'mem_req') to fifo 'l2.q' (type 'issue_packet')\n");
}

static void test_same_type_other_pointer(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "m");
        gsc_latch *l = gsc_latch_new(m, "l", &issue_type);
        gsc_port *p = gsc_port_new(m, "p", GSC_IN, &issue_type_copy);
        gsc_port *w = gsc_port_new(m, "w", GSC_OUT, &issue_type);
        gsc_port *r = gsc_port_new(m, "r", GSC_IN, &issue_type); /* a latch has any number of readers */
        gsc_port_bind_latch(p, l);
        gsc_port_bind_latch(w, l);
        gsc_port_bind_latch(r, l);
        g_assert_true(gsc_port_bound(p));
        g_assert_true(gsc_port_latch(p) == l);
        g_assert_cmpstr(gsc_port_name(p), ==, "m.p");
        g_assert_cmpint(gsc_port_dir(p), ==, GSC_IN);
        g_assert_cmpint(gsc_port_dir(w), ==, GSC_OUT);
        gsc_elaborate();
        issue_packet v = {0x40, 3};
        gsc_out_write(w, &v); /* seen by cycle 0, fresh there only */
        g_assert_true(gsc_in_fresh(p));
        gsc_run_cycles(1);
        g_assert_cmpuint(((const issue_packet *)gsc_in_read(p))->pc, ==, 0x40);
        g_assert_false(gsc_in_fresh(p));
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* A port whose kind is declared (as block ports are, from their descriptor) takes only that kind
 * of channel; the message names the port, the channel and the kind expected. */
static void test_kind_mismatch_latch(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *alu = gsc_module_new(NULL, "alu");
        gsc_latch *l = gsc_latch_new(NULL, "l", &issue_type);
        gsc_port *in = gsc_port_new(alu, "in", GSC_IN, &issue_type);
        gsc_port_set_kind(in, GSC_CHAN_FIFO);
        gsc_port_bind_latch(in, l);
        return;
    }
    EXPECT_FATAL("gpusc: kind mismatch binding port 'alu.in' (declared for a FIFO) to latch 'l'\n");
}

static void test_kind_mismatch_fifo(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_fifo *q = gsc_fifo_new(NULL, "q", &issue_type, 2);
        gsc_port *out = gsc_port_new(NULL, "out", GSC_OUT, &issue_type);
        gsc_port_set_kind(out, GSC_CHAN_LATCH);
        gsc_port_bind_fifo(out, q);
        return;
    }
    EXPECT_FATAL("gpusc: kind mismatch binding port 'out' (declared for a latch) to fifo 'q'\n");
}

/* A port of either kind bound to a FIFO: the latch accessors say so instead of crashing. */
static void test_latch_access_on_fifo(void)
{
    if (g_test_subprocess()) {
        const char *call = g_getenv("GSC_TEST_CALL");
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_fifo *q = gsc_fifo_new(NULL, "q", &issue_type, 2);
        gsc_port *in = gsc_port_new(NULL, "in", GSC_IN, &issue_type);
        gsc_port *out = gsc_port_new(NULL, "out", GSC_OUT, &issue_type);
        gsc_port_bind_fifo(in, q);
        gsc_port_bind_fifo(out, q);
        g_assert_true(gsc_port_fifo(in) == q);
        gsc_elaborate();
        issue_packet v = {1, 2};
        if (!strcmp(call, "read"))
            gsc_in_read(in);
        else if (!strcmp(call, "fresh"))
            gsc_in_fresh(in);
        else if (!strcmp(call, "write"))
            gsc_out_write(out, &v);
        else
            gsc_port_latch(in);
        return;
    }
    static const char *const calls[][2] = {
        {"read", "gpusc: gsc_in_read: port 'in' is bound to fifo 'q', not to a latch (use gsc_port_fifo)\n"},
        {"fresh",
         "gpusc: gsc_in_fresh: port 'in' is bound to fifo 'q', not to a latch (use gsc_port_fifo)\n"},
        {"write",
         "gpusc: gsc_out_write: port 'out' is bound to fifo 'q', not to a latch (use gsc_port_fifo)\n"},
        {"latch", "gpusc: gsc_port_latch: port 'in' is bound to fifo 'q', not to a latch\n"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(calls); i++) {
        g_setenv("GSC_TEST_CALL", calls[i][0], TRUE);
        EXPECT_FATAL(calls[i][1]);
    }
}

static void test_fifo_access_on_latch(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_latch *l = gsc_latch_new(NULL, "l", &issue_type);
        gsc_port *in = gsc_port_new(NULL, "in", GSC_IN, &issue_type);
        gsc_port_bind_latch(in, l);
        gsc_fifo_can_get(gsc_port_fifo(in));
        return;
    }
    EXPECT_FATAL("gpusc: gsc_port_fifo: port 'in' is bound to latch 'l', not to a FIFO\n");
}

/* Direction: a block writes through its out ports and reads through its in ports. */
static void test_wrong_direction(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "m");
        gsc_latch *l = gsc_latch_new(m, "l", &issue_type);
        gsc_port *in = gsc_port_new(m, "in", GSC_IN, &issue_type);
        gsc_port *out = gsc_port_new(m, "out", GSC_OUT, &issue_type);
        gsc_port_bind_latch(in, l);
        gsc_port_bind_latch(out, l);
        gsc_elaborate();
        issue_packet v = {1, 2};
        if (!strcmp(g_getenv("GSC_TEST_CALL"), "write"))
            gsc_out_write(in, &v);
        else if (!strcmp(g_getenv("GSC_TEST_CALL"), "read"))
            gsc_in_read(out);
        else
            gsc_in_fresh(out);
        return;
    }
    g_setenv("GSC_TEST_CALL", "write", TRUE);
    EXPECT_FATAL("gpusc: gsc_out_write: port 'm.in' is an in port\n");
    g_setenv("GSC_TEST_CALL", "read", TRUE);
    EXPECT_FATAL("gpusc: gsc_in_read: port 'm.out' is an out port\n");
    g_setenv("GSC_TEST_CALL", "fresh", TRUE);
    EXPECT_FATAL("gpusc: gsc_in_fresh: port 'm.out' is an out port\n");
}

static void test_unbound_access(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_port *in = gsc_port_new(NULL, "in", GSC_IN, &issue_type);
        gsc_in_read(in);
        return;
    }
    EXPECT_FATAL("gpusc: gsc_in_read: port 'in' is not bound\n");
}

/* One writer per latch; one producer and one consumer per FIFO. */
static void test_second_writer(void)
{
    if (g_test_subprocess()) {
        const char *which = g_getenv("GSC_TEST_CALL");
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *a = gsc_module_new(NULL, "a"), *b = gsc_module_new(NULL, "b");
        gsc_latch *l = gsc_latch_new(NULL, "l", &issue_type);
        gsc_fifo *q = gsc_fifo_new(NULL, "q", &issue_type, 2);
        gsc_dir dir = !strcmp(which, "fifo-in") ? GSC_IN : GSC_OUT;
        gsc_port *pa = gsc_port_new(a, "p", dir, &issue_type);
        gsc_port *pb = gsc_port_new(b, "p", dir, &issue_type);
        if (!strcmp(which, "latch")) {
            gsc_port_bind_latch(pa, l);
            gsc_port_bind_latch(pb, l);
        } else {
            gsc_port_bind_fifo(pa, q);
            gsc_port_bind_fifo(pb, q);
        }
        return;
    }
    g_setenv("GSC_TEST_CALL", "latch", TRUE);
    EXPECT_FATAL("gpusc: port 'b.p' cannot be bound to latch 'l' as an out port: 'a.p' already is (a latch "
                 "has one writer)\n");
    g_setenv("GSC_TEST_CALL", "fifo-out", TRUE);
    EXPECT_FATAL(
        "gpusc: port 'b.p' cannot be bound to fifo 'q' as an out port: 'a.p' already is (a FIFO has one "
        "producer and one consumer)\n");
    g_setenv("GSC_TEST_CALL", "fifo-in", TRUE);
    EXPECT_FATAL(
        "gpusc: port 'b.p' cannot be bound to fifo 'q' as an in port: 'a.p' already is (a FIFO has one "
        "producer and one consumer)\n");
}

static void test_unbound_port(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *gpu = gsc_module_new(NULL, "gpu");
        gsc_module *fetch = gsc_module_new(gpu, "fetch");
        gsc_latch *l = gsc_latch_new(gpu, "l", &issue_type);
        gsc_port *out = gsc_port_new(fetch, "out", GSC_OUT, &issue_type);
        gsc_port_bind_latch(out, l);
        gsc_port_new(fetch, "in", GSC_IN, &issue_type);
        gsc_elaborate();
        return;
    }
    EXPECT_FATAL("gpusc: port 'gpu.fetch.in' is not bound\n");
}

static void test_unbound_ports_at_run(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "m");
        gsc_port_new(m, "a", GSC_IN, &issue_type);
        gsc_port_new(m, "b", GSC_OUT, &mem_type);
        gsc_run_cycles(3); /* elaborates implicitly */
        return;
    }
    EXPECT_FATAL("gpusc: 2 ports are not bound: 'm.a', 'm.b'\n");
}

static void test_double_bind(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_latch *a = gsc_latch_new(NULL, "a", &issue_type);
        gsc_latch *b = gsc_latch_new(NULL, "b", &issue_type);
        gsc_port *p = gsc_port_new(NULL, "p", GSC_IN, &issue_type);
        gsc_port_bind_latch(p, a);
        gsc_port_bind_latch(p, b);
        return;
    }
    EXPECT_FATAL("gpusc: port 'p' is already bound (to 'a'); cannot bind it to latch 'b'\n");
}

static void test_duplicate_name(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "sm0");
        gsc_latch_new(m, "out", &issue_type);
        gsc_fifo_new(m, "out", &issue_type, 2);
        return;
    }
    EXPECT_FATAL("gpusc: gsc_fifo_new: the name 'sm0.out' is already used\n");
}

/* A FIFO's trace shows <fifo>.put and <fifo>.occupancy beside <fifo>.<field>: a field may not take
 * those names (whether the FIFO is traced or not, so a program does not fail only when traced). */
typedef struct {
    uint32_t put;
} strobe_pkt;
static const gsc_field strobe_fields[] = {GSC_FIELD(strobe_pkt, put, GSC_U32, 0)};
static const gsc_type strobe_type = GSC_TYPE(strobe_pkt, strobe_fields);

static void test_fifo_reserved_field(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "m");
        gsc_latch_new(m, "l", &strobe_type); /* a latch has no such signals: fine */
        gsc_fifo_new(m, "q", &strobe_type, 2);
        return;
    }
    EXPECT_FATAL("gpusc: fifo 'm.q': type 'strobe_pkt' has a field named 'put', a name the FIFO's trace uses "
                 "for itself\n");
}

static void test_name_of_a_module(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *m = gsc_module_new(NULL, "sm0");
        gsc_module_new(m, "fetch");
        gsc_port_new(m, "fetch", GSC_IN, &issue_type);
        return;
    }
    EXPECT_FATAL("gpusc: gsc_port_new: the name 'sm0.fetch' is already used\n");
}

static void test_no_clock(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_run_cycles(1);
        return;
    }
    EXPECT_FATAL("gpusc: no core clock*");
}

/* A real SystemC error report (creating a module while the simulation runs) ends the run. */
static void late_module(void *ctx)
{
    (void)ctx;
    if (gsc_cycle() == 2)
        gsc_module_new(NULL, "late");
}

static void test_systemc_error(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock *clk = gsc_clock_new("clk", 1000);
        gsc_process *p = gsc_process_new(NULL, "p", late_module, NULL);
        gsc_sensitive_clock(p, clk);
        gsc_run_cycles(5);
        g_print("not reached\n");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stdout_unmatched("*not reached*");
    g_test_trap_assert_stderr("gpusc: SystemC error: *");
}

/* A SystemC warning goes to GLib logging and is not fatal, even under g_test. */
static void test_systemc_warning(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module_new(NULL, "twin");
        gsc_module_new(NULL, "twin"); /* duplicate name: a SystemC warning */
        gsc_run_cycles(1);
        g_print("survived\n");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_test_trap_assert_stdout("*survived*");
    g_test_trap_assert_stderr("*systemc-WARNING*twin*");
}

static void test_fatal(void)
{
    if (g_test_subprocess()) {
        gsc_fatal("%s:%d: bad thing", "k.ptx", 12);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: k.ptx:12: bad thing\n");
}

static void test_after_elaboration(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_elaborate();
        gsc_latch_new(NULL, "late", &issue_type);
        return;
    }
    EXPECT_FATAL("gpusc: gsc_latch_new 'late': only allowed during elaboration\n");
}

/* An arrival hook is no process: what only a process may call is refused there; one hook per FIFO. */
static void hook_sleeps(void *ctx)
{
    (void)ctx;
    gsc_run_within(1);
}

static void hook_putter(void *ctx)
{
    issue_packet p = {0};
    gsc_fifo_put(ctx, &p);
}

static void test_arrival_hook_misuse(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_module *top = gsc_module_new(NULL, "tb");
        gsc_fifo *q = gsc_fifo_new(top, "q", &issue_type, 2);
        gsc_fifo_on_arrival(q, hook_sleeps, NULL);
        gsc_process *p = gsc_process_new(top, "p", hook_putter, q);
        gsc_process_initialize(p);
        gsc_run_cycles(3);
        return;
    }
    EXPECT_FATAL("gpusc: gsc_run_within: only allowed inside a running process\n");
}

static void test_arrival_hook_twice(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_errors");
        gsc_clock_new("clk", 1000);
        gsc_fifo *q = gsc_fifo_new(NULL, "q", &issue_type, 2);
        gsc_fifo_on_arrival(q, hook_sleeps, NULL);
        gsc_fifo_on_arrival(q, hook_sleeps, NULL);
        return;
    }
    EXPECT_FATAL("gpusc: fifo 'q': it has an arrival hook already\n");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/errors/type-mismatch/latch", test_type_mismatch);
    g_test_add_func("/sc/errors/type-mismatch/fifo", test_type_mismatch_fifo);
    g_test_add_func("/sc/errors/same-type-other-pointer", test_same_type_other_pointer);
    g_test_add_func("/sc/errors/kind-mismatch/latch", test_kind_mismatch_latch);
    g_test_add_func("/sc/errors/kind-mismatch/fifo", test_kind_mismatch_fifo);
    g_test_add_func("/sc/errors/latch-access-on-fifo", test_latch_access_on_fifo);
    g_test_add_func("/sc/errors/fifo-access-on-latch", test_fifo_access_on_latch);
    g_test_add_func("/sc/errors/wrong-direction", test_wrong_direction);
    g_test_add_func("/sc/errors/unbound-access", test_unbound_access);
    g_test_add_func("/sc/errors/second-writer", test_second_writer);
    g_test_add_func("/sc/errors/unbound-port", test_unbound_port);
    g_test_add_func("/sc/errors/unbound-ports-at-run", test_unbound_ports_at_run);
    g_test_add_func("/sc/errors/double-bind", test_double_bind);
    g_test_add_func("/sc/errors/duplicate-name", test_duplicate_name);
    g_test_add_func("/sc/errors/fifo-reserved-field", test_fifo_reserved_field);
    g_test_add_func("/sc/errors/name-of-a-module", test_name_of_a_module);
    g_test_add_func("/sc/errors/no-clock", test_no_clock);
    g_test_add_func("/sc/errors/systemc-error", test_systemc_error);
    g_test_add_func("/sc/errors/systemc-warning", test_systemc_warning);
    g_test_add_func("/sc/errors/fatal", test_fatal);
    g_test_add_func("/sc/errors/after-elaboration", test_after_elaboration);
    g_test_add_func("/sc/errors/arrival-hook-misuse", test_arrival_hook_misuse);
    g_test_add_func("/sc/errors/arrival-hook-twice", test_arrival_hook_twice);
    return g_test_run();
}
