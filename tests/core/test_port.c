/* test_port — port arrays, FIFO connections sized by the consumer, interface exports and imports
 * (binding checks, optional and MULTI imports, harness stubs, traced calls), --describe of all of
 * them. Tests that expect an elaboration error run in a subprocess and check its message. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "models/core/cli.h"
#include "models/core/harness.h"
#include "models/core/vcd.h"
#include "models/demo/demo_word.h"

/* ---- an interface and two blocks: `acc` exports it, `user` imports it ---- */

typedef struct {
    uint32_t (*add)(void *self, uint32_t warp, uint32_t n); /* returns the new total */
} acc_if;

static const char *const acc_methods[] = {"add(warp, n) -> total", NULL};
static const blk_iface acc_iface = {"acc", "an accumulator", acc_methods, {"warp", "n"}, {6, 16}};
static const blk_iface other_iface = {"other", "another interface", NULL, {NULL}, {0}};

enum { ACC_IN };
static const blk_port_desc acc_ports[] = {
    {"in", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL, "adds to the total", &acc_iface},
};
static const blk_desc acc_desc = {
    "test_acc", "an accumulator (passive)", "", acc_ports, BLK_N(acc_ports), NULL, 0, NULL, 0, NULL, 0};

typedef struct {
    blk_inst *inst;
    uint32_t total;
    blk_call_probe *probe;
} acc;

static uint32_t acc_add(void *self, uint32_t warp, uint32_t n)
{
    acc *a = self;
    blk_call_note(a->probe, warp, n, 0);
    return a->total += n;
}
static const acc_if acc_methods_table = {acc_add};

static void *make_acc(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    acc *a = g_new0(acc, 1);
    a->inst = blk_inst_new(ctx, parent, name, &acc_desc);
    blk_export(a->inst, ACC_IN, 0, &acc_methods_table, a);
    a->probe = blk_export_probe(a->inst, ACC_IN, 0);
    return a;
}

enum { USER_ACC, USER_OPT, USER_LISTEN, USER_OUT, USER_IN };
static const blk_param_desc user_params[] = {
    {"outs", BLK_PARAM_UINT, "2", "0", "4", NULL, "", "outputs"},
    {"in_depth", BLK_PARAM_UINT, "3", "1", "8", NULL, "items", "input depth"},
};
static const blk_port_desc user_ports[] = {
    [USER_ACC] = {"acc", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "required", &acc_iface},
    [USER_OPT] = {"opt", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "optional", &acc_iface, BLK_PORT_OPTIONAL},
    [USER_LISTEN] = {"listen", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "listeners", &acc_iface, BLK_PORT_MULTI},
    [USER_OUT] = {"out_%u", GSC_OUT, &demo_word_type, BLK_CHAN_FIFO, NULL, "outputs", NULL, 0, 4, "outs"},
    [USER_IN] = {"in_%u", GSC_IN, &demo_word_type, BLK_CHAN_FIFO, "in_depth", "inputs", NULL, 0, 3, NULL},
};
static const blk_desc user_desc = {
    "test_user", "calls acc", "",   user_ports, BLK_N(user_ports), user_params, BLK_N(user_params),
    NULL,        0,           NULL, 0};

static blk_inst *make_user(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned ins)
{
    unsigned counts[BLK_N(user_ports)] = {[USER_IN] = ins};
    return blk_inst_new_arrays(ctx, parent, name, &user_desc, counts);
}

static blk_ctx *new_ctx(void)
{
    return blk_ctx_new(NULL, gsc_clock_new("clk", 1000));
}

static void test_arrays(void)
{
    blk_ctx *ctx = new_ctx();
    blk_inst *u = make_user(ctx, NULL, "u", 3);
    g_assert_cmpuint(blk_port_count(u, USER_OUT), ==, 2); /* from its parameter */
    g_assert_cmpuint(blk_port_count(u, USER_IN), ==, 3);  /* from the constructor */
    g_assert_cmpuint(blk_port_count(u, USER_ACC), ==, 1);
    unsigned i, k;
    g_assert_true(blk_port_lookup(u, "in_2", &i, &k));
    g_assert_cmpuint(i, ==, USER_IN);
    g_assert_cmpuint(k, ==, 2);
    g_assert_false(blk_port_lookup(u, "in_3", &i, &k));  /* past the count */
    g_assert_false(blk_port_lookup(u, "in_02", &i, &k)); /* not a canonical number */
    g_assert_false(blk_port_lookup(u, "in_", &i, &k));
    g_assert_false(blk_port_lookup(u, "in_%u", &i, &k));
    g_assert_true(blk_port_lookup(u, "out_1", &i, &k));
    g_assert_cmpstr(gsc_port_name(blk_port_at(u, USER_IN, 2)), ==, "u.in_2");
    g_assert_null(blk_port_at(u, USER_ACC, 0)); /* an interface has no channel port */
    char *n = blk_port_element_name(u, USER_OUT, 1);
    g_assert_cmpstr(n, ==, "out_1");
    g_free(n);
}

/* blk_connect takes the depth from the consumer's descriptor (in_depth = 3), not the producer's. */
static void test_connect_depth(void)
{
    blk_ctx *ctx = new_ctx();
    blk_inst *a = make_user(ctx, NULL, "a", 1), *b = make_user(ctx, NULL, "b", 2);
    gsc_fifo *f = blk_connect(NULL, "a_b", a, "out_1", b, "in_1");
    g_assert_cmpuint(gsc_fifo_depth(f), ==, 3);
    g_assert_true(gsc_port_fifo(blk_port_at(a, USER_OUT, 1)) == f);
    g_assert_true(gsc_port_fifo(blk_port_at(b, USER_IN, 1)) == f);
}

static void test_connect_wrong_direction(void)
{
    if (g_test_subprocess()) {
        gsc_init("test");
        blk_ctx *ctx = new_ctx();
        blk_inst *a = make_user(ctx, NULL, "a", 1), *b = make_user(ctx, NULL, "b", 1);
        blk_connect(NULL, "x", a, "in_0", b, "out_0");
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*connecting a.in_0 to b.out_0: a.in_0 is not a FIFO output*");
}

static void test_bind_and_call(void)
{
    blk_ctx *ctx = new_ctx();
    acc *a = make_acc(ctx, NULL, "a");
    acc *l1 = make_acc(ctx, NULL, "l1"), *l2 = make_acc(ctx, NULL, "l2");
    blk_inst *u = make_user(ctx, NULL, "u", 0);
    blk_bind(u, "acc", a->inst, "in");
    blk_bind(u, "listen", l2->inst, "in");
    blk_bind(u, "listen", l1->inst, "in");
    blk_ctx_check_links(ctx); /* the optional import may stay unbound */
    blk_iref r = blk_import(u, USER_ACC, 0);
    const acc_if *m = r.methods;
    g_assert_cmpuint(m->add(r.self, 1, 5), ==, 5);
    g_assert_cmpuint(m->add(r.self, 1, 2), ==, 7);
    g_assert_cmpuint(a->total, ==, 7);
    g_assert_null(blk_import(u, USER_OPT, 0).methods);
    g_assert_cmpuint(blk_import_n(u, USER_LISTEN, 0), ==, 2);
    g_assert_true(blk_import_nth(u, USER_LISTEN, 0, 0).self == l2); /* binding order */
    g_assert_true(blk_import_nth(u, USER_LISTEN, 0, 1).self == l1);
    char *en = NULL;
    g_assert_true(blk_import_peer(u, USER_ACC, 0, &en) == a->inst);
    g_assert_cmpstr(en, ==, "in");
    g_free(en);
}

/* An error case in a subprocess: build, then bind (or elaborate) as `step` says; the message must
 * match `pattern`. */
static void bind_error(int step, const char *pattern)
{
    if (g_test_subprocess()) {
        gsc_init("test");
        blk_ctx *ctx = new_ctx();
        acc *a = make_acc(ctx, NULL, "a");
        blk_inst *u = make_user(ctx, NULL, "u", 1);
        switch (step) {
        case 0: /* required import left unbound */
            blk_ctx_elaborate(ctx);
            break;
        case 1: /* bound twice */
            blk_bind(u, "acc", a->inst, "in");
            blk_bind(u, "acc", a->inst, "in");
            break;
        case 2: /* a FIFO is no interface */
            blk_bind(u, "out_0", a->inst, "in");
            break;
        case 3: /* an import is no export */
            blk_bind(u, "acc", u, "opt");
            break;
        }
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(pattern);
}

static void test_unbound_import(void)
{
    bind_error(0, "*u.acc: the import of interface acc is not bound (exports of acc here: a.in)*");
}

static void test_bound_twice(void)
{
    bind_error(1, "*binding u.acc to a.in: the import is already bound to a.in*");
}

static void test_bind_not_interface(void)
{
    bind_error(2, "*binding u.out_0 to a.in: u.out_0 is not an interface import*");
}

static void test_bind_not_export(void)
{
    bind_error(3, "*binding u.acc to u.opt: u.opt is not an interface export*");
}

/* A second block type exporting another interface under the same port name: refused. */
static const blk_port_desc other_ports[] = {
    {"in", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL, "something else", &other_iface},
};
static const blk_desc other_desc = {"test_other",
                                    "exports another interface",
                                    "",
                                    other_ports,
                                    BLK_N(other_ports),
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0};

static void test_bind_wrong_interface(void)
{
    if (g_test_subprocess()) {
        gsc_init("test");
        blk_ctx *ctx = new_ctx();
        blk_inst *o = blk_inst_new(ctx, NULL, "o", &other_desc);
        static const acc_if dummy = {NULL};
        blk_export(o, 0, 0, &dummy, NULL);
        blk_inst *u = make_user(ctx, NULL, "u", 0);
        blk_bind(u, "acc", o, "in");
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(
        "*binding u.acc to o.in: the import expects interface acc, the export offers other*");
}

/* ---- the harness: a block that calls its import every cycle, stubbed; and a traced export ---- */

enum { CALLER_ACC, CALLER_OUT };
static const blk_port_desc caller_ports[] = {
    [CALLER_ACC] = {"acc", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "adds 1 per cycle (warp = cycle)",
                    &acc_iface},
    [CALLER_OUT] = {"out", GSC_OUT, &demo_word_type, BLK_CHAN_FIFO, NULL, "the totals"},
};
static const blk_desc caller_desc = {"test_caller",
                                     "calls its import each cycle",
                                     "",
                                     caller_ports,
                                     BLK_N(caller_ports),
                                     NULL,
                                     0,
                                     NULL,
                                     0,
                                     NULL,
                                     0};
typedef struct {
    blk_inst *inst;
    blk_iref acc;
} caller;

static void caller_run(void *self)
{
    caller *c = self;
    uint64_t now = gsc_cycle();
    if (now < 3 || now > 5 || now == 4)
        return; /* calls in cycles 3 and 5 only */
    const acc_if *m = c->acc.methods;
    demo_word w = {now, m->add(c->acc.self, (uint32_t)now, (uint32_t)now * 10)};
    gsc_fifo_put(blk_fifo(c->inst, CALLER_OUT), &w);
}

static void caller_elaborate(void *self)
{
    caller *c = self;
    c->acc = blk_import(c->inst, CALLER_ACC, 0);
    gsc_process *p = gsc_process_new(c->inst->mod, "run", caller_run, c);
    gsc_sensitive_clock(p, blk_ctx_clock(c->inst->ctx));
}

static void *make_caller(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    caller *c = g_new0(caller, 1);
    c->inst = blk_inst_new(ctx, parent, name, &caller_desc);
    blk_inst_on_elaborate(c->inst, caller_elaborate, c);
    return c;
}

static uint32_t stub_calls;
static uint32_t stub_add(void *self, uint32_t warp, uint32_t n)
{
    (void)warp;
    stub_calls++;
    return *(uint32_t *)self += n;
}
static const acc_if stub_table = {stub_add};

static void test_harness_stub(void)
{
    harness *h = harness_new(&caller_desc, make_caller, NULL, NULL);
    uint32_t total = 100;
    harness_stub(h, "acc", &stub_table, &total);
    harness_run(h, 8);
    demo_word w;
    uint64_t cyc;
    g_assert_true(harness_pop(h, "out", &w, &cyc));
    g_assert_cmpuint(w.value, ==, 130);
    g_assert_true(harness_pop(h, "out", &w, &cyc));
    g_assert_cmpuint(w.value, ==, 180);
    g_assert_false(harness_pop(h, "out", &w, &cyc));
    g_assert_cmpuint(stub_calls, ==, 2);
    harness_free(h);
}

static void test_harness_unstubbed(void)
{
    if (g_test_subprocess()) {
        gsc_init("test");
        harness *h = harness_new(&caller_desc, make_caller, NULL, NULL);
        harness_step(h);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*dut.acc: the import of interface acc is not bound*");
}

/* The harness calls an export directly; the traced probe shows calls in cycles 3 and 5 (a 1 that
 * falls back to 0 in cycle 4 and 6) and the last call's fields. */
static void *make_both(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    caller *c = make_caller(ctx, parent, name);
    acc *a = make_acc(ctx, parent, "acc0");
    blk_bind(c->inst, "acc", a->inst, "in");
    return c;
}

static void test_traced_calls(void)
{
    char *dir = g_dir_make_tmp("gpusc-port-XXXXXX", NULL);
    char *path = g_build_filename(dir, "t.vcd", NULL);
    harness *h = harness_new(&caller_desc, make_both, NULL, path);
    harness_run(h, 8);
    harness_free(h);
    GError *err = NULL;
    vcd *v = vcd_load(path, &err);
    g_assert_no_error(err);
    int calls = vcd_find(v, "acc0.in.calls"), warp = vcd_find(v, "acc0.in.warp"),
        n = vcd_find(v, "acc0.in.n");
    g_assert_cmpint(calls, >=, 0);
    g_assert_cmpint(warp, >=, 0);
    g_assert_cmpint(n, >=, 0);
    g_assert_cmpuint(vcd_signal_width(v, (unsigned)warp), ==, 6);
    uint64_t want[] = {0, 0, 0, 1, 0, 1, 0, 0};
    for (unsigned c = 0; c < G_N_ELEMENTS(want); c++) {
        uint64_t x = 99;
        g_assert_true(vcd_uint_at_cycle(v, (unsigned)calls, c, 1000, &x));
        g_assert_cmpuint(x, ==, want[c]);
    }
    uint64_t x = 0;
    g_assert_true(vcd_uint_at_cycle(v, (unsigned)warp, 5, 1000, &x));
    g_assert_cmpuint(x, ==, 5);
    g_assert_true(vcd_uint_at_cycle(v, (unsigned)n, 3, 1000, &x));
    g_assert_cmpuint(x, ==, 30);
    vcd_free(v);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

static void test_harness_export(void)
{
    harness *h = harness_new(&acc_desc, make_acc, NULL, NULL);
    blk_iref r = harness_export(h, "in");
    const acc_if *m = r.methods;
    harness_step(h);
    g_assert_cmpuint(m->add(r.self, 0, 4), ==, 4);
    g_assert_cmpuint(m->add(r.self, 0, 4), ==, 8);
    harness_free(h);
}

static void test_describe(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_describe(&user_desc, f);
    cli_describe(&acc_desc, f);
    fclose(f);
    g_assert_nonnull(strstr(buf, "Interface: imports acc (required: unbound is an elaboration error)"));
    g_assert_nonnull(strstr(buf, "Interface: imports acc (optional: may stay unbound)"));
    g_assert_nonnull(strstr(buf, "Interface: imports acc (any number of exports, called in binding order)"));
    g_assert_nonnull(strstr(buf, "Array: elements %u = 0 .. outs - 1 (at most 4)"));
    g_assert_nonnull(strstr(buf, "Array: elements %u = 0 .. N - 1, N set by the topology (at most 3)"));
    g_assert_nonnull(strstr(buf, "Interface: exports acc"));
    g_assert_nonnull(strstr(buf, "add(warp, n) -> total"));
    g_assert_nonnull(strstr(buf, "Traced calls: calls, warp, n"));
    free(buf);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/port/arrays", test_arrays);
    harness_test_add("/port/connect-depth", test_connect_depth);
    g_test_add_func("/port/connect-wrong-direction", test_connect_wrong_direction);
    harness_test_add("/port/bind-and-call", test_bind_and_call);
    g_test_add_func("/port/errors/unbound-import", test_unbound_import);
    g_test_add_func("/port/errors/bound-twice", test_bound_twice);
    g_test_add_func("/port/errors/not-interface", test_bind_not_interface);
    g_test_add_func("/port/errors/not-export", test_bind_not_export);
    g_test_add_func("/port/errors/wrong-interface", test_bind_wrong_interface);
    harness_test_add("/port/harness/stub", test_harness_stub);
    g_test_add_func("/port/harness/unstubbed", test_harness_unstubbed);
    harness_test_add("/port/harness/export", test_harness_export);
    harness_test_add("/port/traced-calls", test_traced_calls);
    harness_test_add("/port/describe", test_describe);
    return g_test_run();
}
