/* Check modes (docs/sc-api.md, "Check modes"): GSC_CHECK_AWAKE runs every process in every cycle,
 * so a consumer that sleeps through an item it has finishes earlier there, and a correct one does
 * not move; GSC_CHECK_SHUFFLE changes the order of the activations of a cycle, with a seed, and
 * nothing else. Every system runs in its own subprocess. */
#include "sc/gsc.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/sc/sc_test.h"

/* ---- a producer puts N items in one cycle; a consumer takes them one per activation --------- */

#define N_ITEMS 4

typedef struct {
    uint32_t v;
} word_t;
static const gsc_field word_fields[] = {GSC_FIELD(word_t, v, GSC_U32, 0)};

typedef struct {
    gsc_fifo *f;
    bool sleeps_wrongly; /* takes one item per activation and asks for nothing more */
    unsigned got;
    uint64_t last_at;
} consumer_t;

static void producer(void *ctx)
{
    gsc_fifo *f = ctx;
    for (uint32_t i = 0; i < N_ITEMS; i++)
        gsc_fifo_put(f, &(word_t){i});
}

static void consumer(void *ctx)
{
    consumer_t *c = ctx;
    while (gsc_fifo_can_get(c->f)) {
        gsc_fifo_get(c->f, NULL);
        c->got++;
        c->last_at = gsc_cycle();
        if (c->sleeps_wrongly)
            return;        /* the rest waits for the next put, which never comes */
        gsc_run_within(1); /* (one item per cycle; the next cycle takes the next one) */
        return;
    }
}

/* The cycle the consumer took its last item in, or 0 if it never took them all. */
static uint64_t run_consumer(gsc_check_mode mode, bool wrong)
{
    gsc_init("test_check");
    gsc_set_check(mode, 3);
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    static const gsc_type word = GSC_TYPE(word_t, word_fields);
    static consumer_t c;
    c.f = gsc_fifo_new(top, "q", &word, N_ITEMS);
    c.sleeps_wrongly = wrong;
    gsc_process *p = gsc_process_new(top, "producer", producer, c.f);
    gsc_process_initialize(p);
    gsc_process *q = gsc_process_new(top, "consumer", consumer, &c);
    gsc_sensitive_fifo_put(q, c.f);
    gsc_run(100);
    return c.got == N_ITEMS ? c.last_at : 0;
}

static void body_consumer(gsc_check_mode mode, bool wrong, uint64_t want)
{
    g_assert_cmpuint(run_consumer(mode, wrong), ==, want);
}

static void test_awake_correct(void)
{
    /* items put in cycle 0 are taken in cycles 1..4, however often the consumer runs */
    SC_TEST_IN_SUBPROCESS(body_consumer(GSC_CHECK_OFF, false, N_ITEMS));
    SC_TEST_IN_SUBPROCESS(body_consumer(GSC_CHECK_AWAKE, false, N_ITEMS));
    SC_TEST_IN_SUBPROCESS(body_consumer(GSC_CHECK_SHUFFLE, false, N_ITEMS));
}

static void test_awake_catches_oversleep(void)
{
    /* normally the wrong consumer never takes items 2..4; awake, it takes them in cycles 2..4 */
    SC_TEST_IN_SUBPROCESS(body_consumer(GSC_CHECK_OFF, true, 0));
    SC_TEST_IN_SUBPROCESS(body_consumer(GSC_CHECK_AWAKE, true, N_ITEMS));
}

/* ---- a dynamic wait ends in every cycle too; the run ends where it would ----------------------- */

static uint64_t waits[16];
static unsigned n_waits;

static void waiter(void *ctx)
{
    (void)ctx;
    if (n_waits < G_N_ELEMENTS(waits))
        waits[n_waits++] = gsc_cycle();
    if (gsc_cycle() < 5)
        gsc_next_trigger_cycles(5 - gsc_cycle());
}

static void body_dynamic(gsc_check_mode mode)
{
    gsc_init("test_check");
    gsc_set_check(mode, 1);
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    gsc_process *p = gsc_process_new(top, "waiter", waiter, NULL);
    gsc_process_initialize(p);
    g_assert_cmpuint(gsc_run(0), ==, 6); /* starved after cycle 5 in both modes */
    if (mode == GSC_CHECK_AWAKE) {
        g_assert_cmpuint(n_waits, ==, 6); /* cycles 0..5 */
        for (unsigned i = 0; i < 6; i++)
            g_assert_cmpuint(waits[i], ==, i);
    } else {
        g_assert_cmpuint(n_waits, ==, 2);
        g_assert_cmpuint(waits[0], ==, 0);
        g_assert_cmpuint(waits[1], ==, 5);
    }
}

static void test_awake_dynamic(void)
{
    SC_TEST_IN_SUBPROCESS(body_dynamic(GSC_CHECK_OFF));
    SC_TEST_IN_SUBPROCESS(body_dynamic(GSC_CHECK_AWAKE));
}

/* ---- shuffle: the order of a cycle's activations, by seed -------------------------------------- */

#define N_PROCS  8
#define N_CYCLES 6

static char order[N_CYCLES * N_PROCS + 1];
static unsigned n_order;

static void member(void *ctx)
{
    if (n_order < N_CYCLES * N_PROCS)
        order[n_order++] = (char)('a' + (int)(uintptr_t)ctx);
    if (gsc_cycle() + 1 < N_CYCLES)
        gsc_run_within(gsc_cycle() % 2 ? 1 : 2 - (uintptr_t)ctx % 2); /* shared and own events */
}

/* The order in which N_PROCS processes ran, cycle after cycle, as letters. */
static char *order_run(gsc_check_mode mode, uint64_t seed, bool reset)
{
    if (reset)
        gsc_reset();
    else
        gsc_init("test_check");
    gsc_set_check(mode, seed);
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    for (uintptr_t i = 0; i < N_PROCS; i++) {
        char name[8] = {'p', (char)('0' + i), 0};
        gsc_process_initialize(gsc_process_new(top, name, member, (void *)i));
    }
    n_order = 0;
    gsc_run(0);
    order[n_order] = 0;
    return g_strdup(order);
}

/* The same letters in every cycle, whatever the order. */
static void assert_same_cycles(const char *a, const char *b)
{
    g_assert_cmpuint(strlen(a), ==, strlen(b));
    unsigned ca[N_PROCS] = {0}, cb[N_PROCS] = {0};
    for (size_t i = 0; a[i]; i++) {
        ca[a[i] - 'a']++;
        cb[b[i] - 'a']++;
    }
    for (unsigned i = 0; i < N_PROCS; i++)
        g_assert_cmpuint(ca[i], ==, cb[i]);
}

static void body_shuffle(void)
{
    char *normal = order_run(GSC_CHECK_OFF, 1, false);
    char *again = order_run(GSC_CHECK_SHUFFLE, 7, true);
    char *same = order_run(GSC_CHECK_SHUFFLE, 7, true);
    g_assert_cmpstr(again, ==, same); /* a seed gives one order */
    unsigned differ = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        char *o = order_run(GSC_CHECK_SHUFFLE, seed, true);
        assert_same_cycles(normal, o);
        differ += strcmp(o, normal) != 0;
        g_free(o);
    }
    g_assert_cmpuint(differ, >=, 3); /* 8 processes in a cycle: another order nearly always */
    g_free(normal);
    g_free(again);
    g_free(same);
}

static void test_shuffle_order(void)
{
    SC_TEST_IN_SUBPROCESS(body_shuffle());
}

/* ---- the spellings of GPUSC_CHECK and --check ---------------------------------------------------- */

static void test_parse(void)
{
    gsc_check_mode m = GSC_CHECK_OFF;
    uint64_t seed = 0;
    g_assert_true(gsc_check_parse("awake", &m, &seed));
    g_assert_cmpint(m, ==, GSC_CHECK_AWAKE);
    g_assert_true(gsc_check_parse("shuffle", &m, &seed));
    g_assert_cmpint(m, ==, GSC_CHECK_SHUFFLE);
    g_assert_cmpuint(seed, ==, 1);
    g_assert_true(gsc_check_parse("shuffle:42", &m, &seed));
    g_assert_cmpuint(seed, ==, 42);
    g_assert_true(gsc_check_parse("off", &m, &seed));
    g_assert_cmpint(m, ==, GSC_CHECK_OFF);
    const char *bad[] = {"", "Awake", "shuffle:", "shuffle:x", "shuffle:1x", "shuffle1", "shuffle:-1", NULL};
    for (unsigned i = 0; bad[i]; i++)
        g_assert_false(gsc_check_parse(bad[i], &m, &seed));
}

static void test_env_bad(void)
{
    if (g_test_subprocess()) {
        g_setenv("GPUSC_CHECK", "sometimes", TRUE);
        gsc_init("test_check");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: GPUSC_CHECK=sometimes: expected off, awake, shuffle or shuffle:SEED*");
}

static void body_env_awake(void)
{
    g_setenv("GPUSC_CHECK", "awake", TRUE);
    gsc_init("test_check");
    g_assert_cmpint(gsc_check(), ==, GSC_CHECK_AWAKE);
    gsc_reset(); /* read again */
    g_assert_cmpint(gsc_check(), ==, GSC_CHECK_AWAKE);
}

static void test_env_awake(void)
{
    SC_TEST_IN_SUBPROCESS(body_env_awake());
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/check/awake-correct", test_awake_correct);
    g_test_add_func("/sc/check/awake-catches-oversleep", test_awake_catches_oversleep);
    g_test_add_func("/sc/check/awake-dynamic", test_awake_dynamic);
    g_test_add_func("/sc/check/shuffle-order", test_shuffle_order);
    g_test_add_func("/sc/check/parse", test_parse);
    g_test_add_func("/sc/check/env-bad", test_env_bad);
    g_test_add_func("/sc/check/env-awake", test_env_awake);
    return g_test_run();
}
