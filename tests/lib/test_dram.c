/* Unit tests for models/lib/dram: closed-form reply cycles, queue bound, scheduler hook. */
#include "models/lib/dram.h"

static const dram_config cfg = {
    .latency = 100, .bytes_per_cycle = 8, .queue_depth = 4, .banks = 4, .row_bytes = 2048};

/* Steps the channel every cycle until `cycle`, collecting replies. */
static void run_until(dram_channel *ch, uint64_t from, uint64_t to, GArray *done)
{
    for (uint64_t c = from; c <= to; c++) {
        dram_req r;
        while (dram_pop_done(ch, c, &r)) {
            g_assert_cmpuint(r.done, ==, c);
            g_array_append_val(done, r);
        }
        dram_step(ch, c);
    }
}

static void test_closed_form(void)
{
    dram_channel *ch = dram_new(&cfg);
    g_assert_cmpuint(dram_burst_cycles(&cfg, 128), ==, 16);
    g_assert_cmpuint(dram_burst_cycles(&cfg, 1), ==, 1);
    g_assert_cmpuint(dram_burst_cycles(&cfg, 33), ==, 5);
    for (unsigned k = 0; k < 4; k++)
        dram_push(ch, 0, 128 * k, 128, false, k);
    g_assert_false(dram_can_push(ch));
    GArray *done = g_array_new(FALSE, FALSE, sizeof(dram_req));
    run_until(ch, 0, 400, done);
    g_assert_cmpuint(done->len, ==, 4);
    for (unsigned k = 0; k < 4; k++) {
        dram_req *r = &g_array_index(done, dram_req, k);
        g_assert_cmpuint(r->tag, ==, k);
        g_assert_cmpuint(r->done, ==, (uint64_t)k * 16 + 16 + 100);
    }
    /* a lone request after idle: a + B + L */
    dram_push(ch, 1000, 0, 32, true, 9);
    g_assert_cmpuint(dram_next_event(ch), ==, 1000);
    g_array_set_size(done, 0);
    run_until(ch, 401, 2000, done);
    g_assert_cmpuint(done->len, ==, 1);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).done, ==, 1000 + 4 + 100);
    g_assert_true(g_array_index(done, dram_req, 0).write);
    g_assert_cmpuint(dram_next_event(ch), ==, UINT64_MAX);
    g_array_free(done, TRUE);
    dram_free(ch);
}

/* Requests arriving while the bus is busy start when it frees. */
static void test_arrivals(void)
{
    dram_channel *ch = dram_new(&(dram_config){.latency = 10, .bytes_per_cycle = 32});
    dram_push(ch, 0, 0, 128, false, 0); /* B = 4: bus 0..3, reply 14 */
    GArray *done = g_array_new(FALSE, FALSE, sizeof(dram_req));
    run_until(ch, 0, 1, done);
    dram_push(ch, 2, 0, 64, false, 1); /* waits until 4: B = 2, reply 16 */
    run_until(ch, 2, 6, done);
    dram_push(ch, 7, 0, 32, false, 2); /* bus free: starts at 7, reply 18 */
    g_assert_cmpuint(dram_in_service(ch), ==, 2);
    run_until(ch, 7, 30, done);
    g_assert_cmpuint(done->len, ==, 3);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).done, ==, 14);
    g_assert_cmpuint(g_array_index(done, dram_req, 1).done, ==, 16);
    g_assert_cmpuint(g_array_index(done, dram_req, 2).done, ==, 18);
    g_array_free(done, TRUE);
    dram_free(ch);
}

/* A scheduler hook sees the arrived requests; here: last-come-first (to prove the hook decides). */
static unsigned sched_newest(const dram_channel *ch, const dram_req *q, unsigned n, uint64_t cycle, void *ctx)
{
    (void)ch, (void)q, (void)cycle;
    (*(unsigned *)ctx)++;
    return n - 1;
}

static void test_scheduler_hook(void)
{
    dram_channel *ch = dram_new(&cfg);
    unsigned calls = 0;
    dram_set_scheduler(ch, sched_newest, &calls);
    for (unsigned k = 0; k < 3; k++)
        dram_push(ch, 0, 4096 * k, 8, false, k);
    dram_push(ch, 5, 0, 8, false, 3); /* not yet arrived at cycle 0 */
    GArray *done = g_array_new(FALSE, FALSE, sizeof(dram_req));
    run_until(ch, 0, 300, done);
    g_assert_cmpuint(done->len, ==, 4);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).tag, ==, 2);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).done, ==, 101);
    g_assert_cmpuint(g_array_index(done, dram_req, 1).tag, ==, 1); /* cycle 1: only 0, 1 arrived */
    g_assert_cmpuint(g_array_index(done, dram_req, 2).tag, ==, 0);
    g_assert_cmpuint(g_array_index(done, dram_req, 3).tag, ==, 3);
    g_assert_cmpuint(calls, ==, 4);
    /* the mapping the scheduler sees: 2 KiB rows interleaved over 4 banks */
    unsigned bank;
    uint64_t row;
    dram_map_address(&cfg, 4096 * 5 + 7, &bank, &row);
    g_assert_cmpuint(bank, ==, 2);
    g_assert_cmpuint(row, ==, 2);
    g_array_free(done, TRUE);
    dram_free(ch);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/dram/closed-form", test_closed_form);
    g_test_add_func("/dram/arrivals", test_arrivals);
    g_test_add_func("/dram/scheduler-hook", test_scheduler_hook);
    return g_test_run();
}
