/* gsc_reset: several independent systems, one after the other, in one process (no subprocess):
 * names can be reused, cycles, time and activations start again from 0, a new period applies, and
 * an open trace file is closed. */
#include "sc/gsc.h"

#include <glib.h>
#include <glib/gstdio.h>

typedef struct {
    uint32_t v;
} word;
static const gsc_field word_fields[] = {GSC_FIELD(word, v, GSC_U32, 0)};
static const gsc_type word_type = GSC_TYPE(word, word_fields);

typedef struct {
    gsc_latch *l;
    unsigned runs;
    uint32_t last_seen;
} sys;

static void step(void *ctx)
{
    sys *s = ctx;
    s->runs++;
    s->last_seen = ((const word *)gsc_latch_read(s->l))->v;
    word w = {(uint32_t)gsc_cycle() + 100};
    gsc_latch_write(s->l, &w);
}

static sys *build(uint64_t period)
{
    static sys s;
    s.runs = 0;
    s.last_seen = 0;
    gsc_clock *clk = gsc_clock_new("clk", period);
    gsc_module *top = gsc_module_new(NULL, "tb");
    g_assert_cmpstr(gsc_module_name(top), ==, "tb");
    gsc_module *sub = gsc_module_new(top, "blk");
    g_assert_cmpstr(gsc_module_name(sub), ==, "tb.blk");
    s.l = gsc_latch_new(sub, "out", &word_type);
    gsc_process *p = gsc_process_new(sub, "step", step, &s);
    gsc_sensitive_clock(p, clk);
    return &s;
}

static void test_three_systems(void)
{
    gsc_init("test_reset");
    sys *s = build(1000);
    g_assert_cmpuint(gsc_run_cycles(10), ==, 10);
    g_assert_cmpuint(s->runs, ==, 10);
    g_assert_cmpuint(s->last_seen, ==, 108);
    g_assert_cmpuint(gsc_time_ps(), ==, 9999);

    gsc_reset();
    g_assert_cmpuint(gsc_cycle(), ==, 0);
    g_assert_cmpuint(gsc_time_ps(), ==, 0);
    g_assert_cmpuint(gsc_activations(), ==, 0);
    s = build(500);
    gchar *dir = g_dir_make_tmp("gsc-reset-XXXXXX", NULL);
    gchar *vcd = g_build_filename(dir, "second.vcd", NULL);
    gsc_trace_open(vcd, "*", 0, 0);
    g_assert_cmpuint(gsc_run_cycles(5), ==, 5);
    g_assert_cmpuint(s->runs, ==, 5);
    g_assert_cmpuint(s->last_seen, ==, 103);
    g_assert_cmpuint(gsc_time_ps(), ==, 5 * 500 - 1);
    g_assert_cmpuint(gsc_activations(), ==, 5);
    g_assert_cmpuint(gsc_trace_count(), ==, 1);
    g_assert_cmpstr(gsc_trace_signal_name(0), ==, "tb.blk.out.v");

    /* the reset closes the trace file of the second system */
    gsc_reset();
    gchar *text = NULL;
    g_assert_true(g_file_get_contents(vcd, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, "Jan 01, 1970"));
    g_assert_nonnull(strstr(text, "#2000\n"));
    g_free(text);
    g_assert_cmpuint(gsc_trace_count(), ==, 0);

    s = build(2000);
    g_assert_cmpuint(gsc_run(3), ==, 3);
    g_assert_cmpuint(s->runs, ==, 3);
    g_assert_cmpuint(gsc_time_ps(), ==, 3 * 2000 - 1);

    g_unlink(vcd);
    g_rmdir(dir);
    g_free(vcd);
    g_free(dir);
}

static void resetter(void *ctx)
{
    (void)ctx;
    gsc_reset();
}

static void test_reset_in_run(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_reset");
        gsc_clock *clk = gsc_clock_new("clk", 1000);
        gsc_process *p = gsc_process_new(NULL, "p", resetter, NULL);
        gsc_sensitive_clock(p, clk);
        gsc_run_cycles(2);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: gsc_reset: not allowed inside a run*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/reset/in-run", test_reset_in_run);
    g_test_add_func("/sc/reset/three-systems", test_three_systems);
    return g_test_run();
}
