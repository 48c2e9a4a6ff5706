/* Host memory (gsc_huge_*): a run start asks the host for 2 MiB pages as the mode says, and the run
 * computes the same thing whether it gets them or not. Prefetching the next activation
 * (gsc_prefetch_*): on as the mode says, it learns the order of the activations, and changes
 * nothing computed. Each case builds its system in a subprocess. */
#include "sc/gsc.h"
#include "tests/sc/sc_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t v;
} word;
static const gsc_field word_fields[] = {GSC_FIELD(word, v, GSC_U32, 0)};
static const gsc_type word_type = GSC_TYPE(word, word_fields);

/* A counter whose state lives in a large malloc'd block, touched every cycle at 4 KiB strides. */
typedef struct {
    gsc_latch *l;
    uint32_t *big;
    size_t words;
    uint64_t sum;
    gsc_module *top;
    gsc_clock *clk;
} sys;

static void step(void *ctx)
{
    sys *s = ctx;
    uint32_t v = ((const word *)gsc_latch_read(s->l))->v;
    for (size_t i = 0; i < s->words; i += 1024) {
        s->big[i] += v;
        s->sum += s->big[i];
    }
    word w = {v + 1};
    gsc_latch_write(s->l, &w);
}

static sys *build(size_t bytes)
{
    static sys s;
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    s.l = gsc_latch_new(top, "out", &word_type);
    s.words = bytes / 4;
    s.big = calloc(s.words, 4);
    g_assert_nonnull(s.big);
    for (size_t i = 0; i < s.words; i += 1024)
        s.big[i] = (uint32_t)i;
    s.sum = 0;
    gsc_process *p = gsc_process_new(top, "step", step, &s);
    gsc_sensitive_clock(p, clk);
    s.top = top;
    s.clk = clk;
    return &s;
}

/* Whether this host can give a process 2 MiB pages on request at all. */
static bool host_has_thp(void)
{
    gchar *text = NULL;
    bool ok = g_file_get_contents("/sys/kernel/mm/transparent_hugepage/enabled", &text, NULL, NULL) &&
              !strstr(text, "[never]");
    g_free(text);
    return ok;
}

static uint64_t run_sum(gsc_huge_mode mode, size_t bytes, gsc_huge_report *r)
{
    gsc_init("test_host");
    gsc_set_huge(mode);
    sys *s = build(bytes);
    g_assert_cmpuint(gsc_run_cycles(50), ==, 50);
    *r = gsc_huge_last();
    return s->sum;
}

/* "on": the 32 MiB block's memory is found and (on a host that has them) moved to 2 MiB pages. */
static void test_on(void)
{
    SC_TEST_IN_SUBPROCESS({
        gsc_huge_report r;
        run_sum(GSC_HUGE_ON, 32u << 20, &r);
        g_test_message("eligible %llu collapsed %llu err %d", (unsigned long long)r.eligible,
                       (unsigned long long)r.collapsed, r.err);
        if (r.err == ENOSYS) {
            g_test_message("malloc is a sanitizer's: nothing asked");
            g_assert_false(r.done);
            return;
        }
        g_assert_true(r.done);
        g_assert_cmpuint(r.eligible, >=, 30u << 20);
        if (!host_has_thp() || r.err == EINVAL) {
            g_test_message("the host has no transparent huge pages (or no MADV_COLLAPSE): not checked");
            return;
        }
        g_assert_cmpuint(r.collapsed, >=, 30u << 20);
    });
}

/* "off" asks nothing; "auto" asks only above GSC_HUGE_AUTO_MIN. */
static void test_off_and_auto(void)
{
    SC_TEST_IN_SUBPROCESS({
        gsc_huge_report r;
        run_sum(GSC_HUGE_OFF, 32u << 20, &r);
        g_assert_false(r.done);
        g_assert_cmpuint(r.collapsed, ==, 0);
        g_assert_cmpuint(r.eligible, ==, 0);
    });
    SC_TEST_IN_SUBPROCESS({
        gsc_huge_report r;
        run_sum(GSC_HUGE_AUTO, 64u << 10, &r);
        g_assert_cmpuint(r.eligible, <, GSC_HUGE_AUTO_MIN);
        g_assert_false(r.done);
        g_assert_cmpuint(r.collapsed, ==, 0);
    });
    SC_TEST_IN_SUBPROCESS({
        gsc_huge_report r;
        run_sum(GSC_HUGE_AUTO, 32u << 20, &r);
        g_assert_true(r.done || r.err == ENOSYS);
    });
}

/* The same computation in either case. */
static void test_same_result(void)
{
    SC_TEST_IN_SUBPROCESS({
        gsc_huge_report r;
        uint64_t with = run_sum(GSC_HUGE_ON, 16u << 20, &r);
        gsc_reset();
        gsc_set_huge(GSC_HUGE_OFF);
        sys *s = build(16u << 20);
        g_assert_cmpuint(gsc_run_cycles(50), ==, 50);
        g_assert_cmpuint(s->sum, ==, with);
        g_assert_false(gsc_huge_last().done);
    });
}

static void test_parse(void)
{
    gsc_huge_mode m = GSC_HUGE_OFF;
    g_assert_true(gsc_huge_parse("auto", &m));
    g_assert_cmpint(m, ==, GSC_HUGE_AUTO);
    g_assert_true(gsc_huge_parse("on", &m));
    g_assert_cmpint(m, ==, GSC_HUGE_ON);
    g_assert_true(gsc_huge_parse("off", &m));
    g_assert_cmpint(m, ==, GSC_HUGE_OFF);
    g_assert_false(gsc_huge_parse("yes", &m));
    g_assert_false(gsc_huge_parse("", &m));
    g_assert_false(gsc_huge_parse(NULL, &m));
    g_assert_cmpint(m, ==, GSC_HUGE_OFF);
}

/* A wrong auto/on/off variable is a user error at gsc_init that names the variable and the value. */
static void env_error(const char *var, const char *value)
{
    if (g_test_subprocess()) {
        setenv(var, value, 1);
        gsc_init("test_host");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    char *want = g_strdup_printf("*%s=%s: expected auto, on or off*", var, value);
    g_test_trap_assert_stderr(want);
    g_free(want);
}

static void test_env_error(void)
{
    env_error("GPUSC_HUGEPAGES", "always");
}

/* Three more clocked processes beside build()'s, each adding the latch's value to its own sum. */
static uint64_t side_sum[3];
static void side(void *ctx)
{
    const sys *s = ctx;
    side_sum[0] += ((const word *)gsc_latch_read(s->l))->v;
}
static void side2(void *ctx)
{
    const sys *s = ctx;
    side_sum[1] += 2u * ((const word *)gsc_latch_read(s->l))->v;
}
static void side3(void *ctx)
{
    const sys *s = ctx;
    side_sum[2] += 3u * ((const word *)gsc_latch_read(s->l))->v;
}

static void add_sides(sys *s)
{
    gsc_process_fn fns[] = {side, side2, side3};
    const char *names[] = {"side", "side2", "side3"};
    for (unsigned i = 0; i < 3; i++) {
        side_sum[i] = 0;
        gsc_sensitive_clock(gsc_process_new(s->top, names[i], fns[i], s), s->clk);
    }
}

static uint64_t run_prefetch(gsc_prefetch_mode mode, size_t bytes, unsigned cycles)
{
    gsc_init("test_host");
    gsc_set_huge(GSC_HUGE_OFF);
    gsc_set_prefetch(mode);
    sys *s = build(bytes);
    add_sides(s);
    g_assert_cmpuint(gsc_run_cycles(cycles), ==, cycles);
    return s->sum + side_sum[0] + side_sum[1] + side_sum[2];
}

/* "on": every activation after the first two cycles runs after the process learned to come before
 * it (four processes in the same order every cycle); "off": nothing learned; "auto": on only from
 * GSC_PREFETCH_AUTO_PROCESSES processes, whatever the memory. */
static void test_prefetch_modes(void)
{
    SC_TEST_IN_SUBPROCESS({
        run_prefetch(GSC_PREFETCH_ON, 64u << 10, 100);
        g_assert_true(gsc_prefetch_active());
        g_assert_cmpuint(gsc_activations(), >=, 400);
        g_assert_cmpuint(gsc_prefetch_hits(), >=, gsc_activations() - 12);
    });
    SC_TEST_IN_SUBPROCESS({
        run_prefetch(GSC_PREFETCH_OFF, 64u << 10, 100);
        g_assert_false(gsc_prefetch_active());
        g_assert_cmpuint(gsc_prefetch_hits(), ==, 0);
    });
    SC_TEST_IN_SUBPROCESS({
        run_prefetch(GSC_PREFETCH_AUTO, 32u << 20, 10); /* four processes, 32 MiB */
        g_assert_false(gsc_prefetch_active());
    });
    SC_TEST_IN_SUBPROCESS({
        gsc_init("test_host");
        gsc_set_huge(GSC_HUGE_OFF);
        sys *s = build(64u << 10);
        for (unsigned i = 1; i < GSC_PREFETCH_AUTO_PROCESSES; i++) {
            char name[32];
            g_snprintf(name, sizeof name, "side%u", i);
            gsc_sensitive_clock(gsc_process_new(s->top, name, side, s), s->clk);
        }
        g_assert_cmpuint(gsc_run_cycles(10), ==, 10);
        g_assert_true(gsc_prefetch_active()); /* GSC_PREFETCH_AUTO_PROCESSES processes */
        g_assert_cmpuint(gsc_prefetch_hits(), >, 0);
    });
}

/* The same computation either way. */
static void test_prefetch_same_result(void)
{
    SC_TEST_IN_SUBPROCESS({
        uint64_t with = run_prefetch(GSC_PREFETCH_ON, 1u << 20, 60);
        gsc_reset();
        gsc_set_huge(GSC_HUGE_OFF);
        gsc_set_prefetch(GSC_PREFETCH_OFF);
        g_assert_cmpuint(gsc_prefetch(), ==, GSC_PREFETCH_OFF);
        sys *s = build(1u << 20);
        add_sides(s);
        g_assert_cmpuint(gsc_run_cycles(60), ==, 60);
        g_assert_cmpuint(s->sum + side_sum[0] + side_sum[1] + side_sum[2], ==, with);
        g_assert_false(gsc_prefetch_active());
    });
}

static void test_prefetch_parse(void)
{
    gsc_prefetch_mode m = GSC_PREFETCH_OFF;
    g_assert_true(gsc_prefetch_parse("auto", &m));
    g_assert_cmpint(m, ==, GSC_PREFETCH_AUTO);
    g_assert_true(gsc_prefetch_parse("on", &m));
    g_assert_cmpint(m, ==, GSC_PREFETCH_ON);
    g_assert_true(gsc_prefetch_parse("off", &m));
    g_assert_cmpint(m, ==, GSC_PREFETCH_OFF);
    g_assert_false(gsc_prefetch_parse("1", &m));
    g_assert_false(gsc_prefetch_parse(NULL, &m));
    g_assert_cmpint(m, ==, GSC_PREFETCH_OFF);
}

static void test_prefetch_env_error(void)
{
    env_error("GPUSC_PREFETCH", "yes");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/host/huge-on", test_on);
    g_test_add_func("/sc/host/huge-off-and-auto", test_off_and_auto);
    g_test_add_func("/sc/host/huge-same-result", test_same_result);
    g_test_add_func("/sc/host/huge-parse", test_parse);
    g_test_add_func("/sc/host/huge-env-error", test_env_error);
    g_test_add_func("/sc/host/prefetch-modes", test_prefetch_modes);
    g_test_add_func("/sc/host/prefetch-same-result", test_prefetch_same_result);
    g_test_add_func("/sc/host/prefetch-parse", test_prefetch_parse);
    g_test_add_func("/sc/host/prefetch-env-error", test_prefetch_env_error);
    return g_test_run();
}
