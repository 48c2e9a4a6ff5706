/* Unit tests for models/lib/pipe: latency, initiation interval, capacity, completion order,
 * write-back ports; timings in closed form. */
#include "models/lib/pipe.h"

static gpusc_pipe *mk(unsigned lat, unsigned ii, unsigned cap, bool ooo)
{
    return pipe_new(&(pipe_config){.latency = lat, .ii = ii, .capacity = cap, .out_of_order = ooo});
}

/* N independent instructions offered every cycle: accepted at k * ii, done at k * ii + L. */
static void test_throughput_closed_form(void)
{
    static const unsigned shapes[][2] = {{4, 1}, {4, 2}, {21, 8}, {8, 8}, {1, 1}, {64, 64}};
    for (unsigned s = 0; s < G_N_ELEMENTS(shapes); s++) {
        unsigned L = shapes[s][0], ii = shapes[s][1], N = 10, accepted = 0;
        gpusc_pipe *p = mk(L, ii, 0, false);
        for (uint64_t c = 0; accepted < N; c++) {
            if (!pipe_can_accept(p, c))
                continue;
            g_assert_cmpuint(c, ==, (uint64_t)accepted * ii);
            g_assert_cmpuint(pipe_accept(p, c, accepted), ==, (uint64_t)accepted * ii + L);
            accepted++;
        }
        g_assert_cmpuint(pipe_in_flight(p), ==, N);
        g_assert_cmpuint(pipe_next_completion(p), ==, L);
        pipe_result r;
        g_assert_false(pipe_pop_done(p, L - 1, &r));
        for (unsigned k = 0; k < N; k++) {
            uint64_t when = (uint64_t)k * ii + L;
            g_assert_true(pipe_pop_done(p, when, &r));
            g_assert_cmpuint(r.payload, ==, k);
            g_assert_cmpuint(r.done_cycle, ==, when);
            g_assert_cmpuint(r.accept_cycle, ==, (uint64_t)k * ii);
        }
        g_assert_cmpuint(pipe_next_completion(p), ==, PIPE_NONE);
        pipe_free(p);
    }
}

/* A dependent chain of N instructions (each waits for the previous result): N * L cycles. */
static void test_dependent_chain(void)
{
    gpusc_pipe *p = mk(4, 1, 0, false);
    uint64_t t = 0;
    for (unsigned k = 0; k < 7; k++) {
        g_assert_true(pipe_can_accept(p, t));
        t = pipe_accept(p, t, k);
        pipe_result r;
        g_assert_true(pipe_pop_done(p, t, &r));
    }
    g_assert_cmpuint(t, ==, 7 * 4);
    pipe_free(p);
}

static void test_initiation_interval(void)
{
    gpusc_pipe *p = mk(21, 8, 0, false);
    g_assert_true(pipe_can_accept(p, 5));
    pipe_accept(p, 5, 0);
    for (uint64_t c = 5; c < 13; c++)
        g_assert_false(pipe_can_accept(p, c));
    g_assert_true(pipe_can_accept(p, 13));
    g_assert_cmpuint(pipe_next_accept(p, 6), ==, 13);
    g_assert_cmpuint(pipe_next_accept(p, 20), ==, 20);
    pipe_free(p);
}

static void test_capacity(void)
{
    gpusc_pipe *p = mk(10, 1, 2, false);
    pipe_accept(p, 0, 0);
    pipe_accept(p, 1, 1);
    g_assert_false(pipe_can_accept(p, 2));
    g_assert_false(pipe_can_accept(p, 50)); /* results not written back still occupy the unit */
    pipe_result r;
    g_assert_true(pipe_pop_done(p, 50, &r));
    g_assert_true(pipe_can_accept(p, 50));
    pipe_free(p);
}

static void test_completion_order(void)
{
    /* in order: an ADD (4) behind a MUL (8) completes with it */
    gpusc_pipe *p = mk(4, 1, 0, false);
    g_assert_cmpuint(pipe_accept_op(p, 0, 1, 8, 1), ==, 8);
    g_assert_cmpuint(pipe_accept(p, 1, 2), ==, 8);
    g_assert_cmpuint(pipe_accept(p, 2, 3), ==, 8);
    g_assert_cmpuint(pipe_accept(p, 9, 4), ==, 13);
    pipe_result r;
    for (unsigned k = 1; k <= 3; k++) {
        g_assert_true(pipe_pop_done(p, 8, &r));
        g_assert_cmpuint(r.payload, ==, k);
    }
    g_assert_false(pipe_pop_done(p, 12, &r));
    pipe_free(p);
    /* out of order: the ADD overtakes */
    p = mk(4, 1, 0, true);
    g_assert_cmpuint(pipe_accept_op(p, 0, 1, 8, 1), ==, 8);
    g_assert_cmpuint(pipe_accept(p, 1, 2), ==, 5);
    g_assert_true(pipe_pop_done(p, 5, &r));
    g_assert_cmpuint(r.payload, ==, 2);
    g_assert_false(pipe_pop_done(p, 7, &r));
    g_assert_true(pipe_pop_done(p, 8, &r));
    g_assert_cmpuint(r.payload, ==, 1);
    pipe_free(p);
    /* per-op initiation interval */
    p = mk(4, 1, 0, false);
    pipe_accept_op(p, 0, 0, 4, 3);
    g_assert_false(pipe_can_accept(p, 2));
    g_assert_true(pipe_can_accept(p, 3));
    pipe_free(p);
}

/* Three pipes finishing together, two write-back ports: the third result waits a cycle. */
static void test_writeback_ports(void)
{
    gpusc_pipe *pipes[3] = {mk(4, 1, 0, false), mk(4, 1, 0, false), mk(6, 1, 0, false)};
    pipe_accept(pipes[2], 0, 20); /* done 6 */
    pipe_accept(pipes[1], 2, 10); /* done 6 */
    pipe_accept(pipes[0], 2, 0);  /* done 6 */
    pipe_accept(pipes[0], 3, 1);  /* done 7 */
    pipe_result out[2];
    g_assert_cmpuint(pipe_writeback(pipes, 3, 5, 2, out), ==, 0);
    g_assert_cmpuint(pipe_writeback(pipes, 3, 6, 2, out), ==, 2);
    g_assert_cmpuint(out[0].pipe, ==, 0); /* ties: lower pipe index */
    g_assert_cmpuint(out[0].payload, ==, 0);
    g_assert_cmpuint(out[1].pipe, ==, 1);
    /* cycle 7: pipe 2's result (done 6) is older than pipe 0's second (done 7) */
    g_assert_cmpuint(pipe_writeback(pipes, 3, 7, 2, out), ==, 2);
    g_assert_cmpuint(out[0].payload, ==, 20);
    g_assert_cmpuint(out[1].payload, ==, 1);
    g_assert_cmpuint(pipe_writeback(pipes, 3, 8, 2, out), ==, 0);
    /* one port, 4 results done at once (cycle 17): written back at 17, 18, 19, 20 */
    for (unsigned k = 0; k < 4; k++)
        g_assert_cmpuint(pipe_accept_op(pipes[0], 10 + k, k, 7 - k, 1), ==, 17);
    for (uint64_t c = 17; c <= 20; c++) {
        g_assert_cmpuint(pipe_writeback(pipes, 3, c, 1, out), ==, 1);
        g_assert_cmpuint(out[0].payload, ==, c - 17);
    }
    g_assert_cmpuint(pipe_writeback(pipes, 3, 21, 1, out), ==, 0);
    for (unsigned i = 0; i < 3; i++)
        pipe_free(pipes[i]);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pipe/throughput", test_throughput_closed_form);
    g_test_add_func("/pipe/dependent-chain", test_dependent_chain);
    g_test_add_func("/pipe/initiation-interval", test_initiation_interval);
    g_test_add_func("/pipe/capacity", test_capacity);
    g_test_add_func("/pipe/completion-order", test_completion_order);
    g_test_add_func("/pipe/writeback-ports", test_writeback_ports);
    return g_test_run();
}
