/* Latch semantics: a value written in cycle N is visible from N+1, fresh only in N+1, the last of
 * two writes in a cycle wins, and none of it depends on the order in which the writer and the
 * reader were registered. Each case builds its system in a subprocess (one SystemC kernel per
 * process). */
#include "sc/gsc.h"

#include <glib.h>

#include "tests/sc/sc_test.h"

typedef struct {
    uint32_t v;
    bool flag;
} val;
static const gsc_field val_fields[] = {
    GSC_FIELD(val, v, GSC_U32, 0),
    GSC_FIELD(val, flag, GSC_BOOL, 1),
};
static const gsc_type val_type = GSC_TYPE(val, val_fields);

#define NCYC 12

typedef struct {
    gsc_latch *l;
    uint32_t seen[NCYC];
    bool fresh[NCYC];
    uint32_t own_read_after_write[NCYC];
} sys;

static void writer(void *ctx)
{
    sys *s = ctx;
    uint64_t c = gsc_cycle();
    val x = {0, false};
    if (c == 3) {
        x.v = 42;
        gsc_latch_write(s->l, &x);
        /* the writer itself still sees the old value in this cycle */
        s->own_read_after_write[c] = ((const val *)gsc_latch_read(s->l))->v;
    } else if (c == 6) {
        x.v = 7;
        gsc_latch_write(s->l, &x);
        x.v = 8;
        gsc_latch_write(s->l, &x);
        s->own_read_after_write[c] = ((const val *)gsc_latch_read(s->l))->v;
    }
}

static void reader(void *ctx)
{
    sys *s = ctx;
    uint64_t c = gsc_cycle();
    g_assert_cmpuint(c, <, NCYC);
    s->seen[c] = ((const val *)gsc_latch_read(s->l))->v;
    s->fresh[c] = gsc_latch_fresh(s->l);
}

static void run_system(bool writer_first)
{
    static sys s;
    gsc_init("test_latch");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    s.l = gsc_latch_new(top, "l", &val_type);
    g_assert_cmpstr(gsc_latch_name(s.l), ==, "tb.l");
    g_assert_true(gsc_latch_type(s.l) == &val_type);
    gsc_process *w, *r;
    if (writer_first) {
        w = gsc_process_new(top, "writer", writer, &s);
        r = gsc_process_new(top, "reader", reader, &s);
    } else {
        r = gsc_process_new(top, "reader", reader, &s);
        w = gsc_process_new(top, "writer", writer, &s);
    }
    gsc_sensitive_clock(w, clk);
    gsc_sensitive_clock(r, clk);
    g_assert_cmpuint(gsc_run_cycles(NCYC), ==, NCYC);
    g_assert_cmpuint(gsc_cycle(), ==, NCYC);
    for (unsigned c = 0; c < NCYC; c++) {
        uint32_t want = c <= 3 ? 0 : c <= 6 ? 42 : 8;
        g_assert_cmpuint(s.seen[c], ==, want);
        g_assert_cmpint(s.fresh[c], ==, c == 4 || c == 7);
    }
    g_assert_cmpuint(s.own_read_after_write[3], ==, 0);
    g_assert_cmpuint(s.own_read_after_write[6], ==, 42);
    /* 2 clocked processes x NCYC cycles */
    g_assert_cmpuint(gsc_activations(), ==, 2 * NCYC);
}

static void test_writer_first(void)
{
    SC_TEST_IN_SUBPROCESS(run_system(true));
}

static void test_reader_first(void)
{
    SC_TEST_IN_SUBPROCESS(run_system(false));
}

/* Writes between runs (a harness driving inputs) are seen by the next cycle that runs. */
static void test_harness_write(void)
{
    if (g_test_subprocess()) {
        static sys s;
        gsc_init("test_latch");
        gsc_clock *clk = gsc_clock_new("clk", 500);
        gsc_module *top = gsc_module_new(NULL, "tb");
        s.l = gsc_latch_new(top, "l", &val_type);
        gsc_process *r = gsc_process_new(top, "reader", reader, &s);
        gsc_sensitive_clock(r, clk);
        val x = {5, true};
        gsc_latch_write(s.l, &x); /* during elaboration: the value at cycle 0 */
        g_assert_cmpuint(gsc_run_cycles(2), ==, 2);
        x.v = 9;
        gsc_latch_write(s.l, &x); /* between runs: visible in cycle 2 */
        g_assert_cmpuint(((const val *)gsc_latch_read(s.l))->v, ==, 9);
        g_assert_cmpuint(gsc_run_cycles(2), ==, 4);
        g_assert_cmpuint(s.seen[0], ==, 5);
        g_assert_cmpuint(s.seen[1], ==, 5);
        g_assert_cmpuint(s.seen[2], ==, 9);
        g_assert_cmpuint(s.seen[3], ==, 9);
        g_assert_true(s.fresh[0] && !s.fresh[1] && s.fresh[2] && !s.fresh[3]);
        g_assert_cmpuint(gsc_time_ps(), ==, 4 * 500 - 1);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/latch/writer-first", test_writer_first);
    g_test_add_func("/sc/latch/reader-first", test_reader_first);
    g_test_add_func("/sc/latch/harness-write", test_harness_write);
    return g_test_run();
}
