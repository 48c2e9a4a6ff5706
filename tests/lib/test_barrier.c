/* Unit tests for models/lib/barrier: release on the last arrival, exits, several barrier ids. */
#include "models/lib/barrier.h"

static void test_release_on_last_arrival(void)
{
    barrier_table *t = barrier_table_new(8);
    barrier_cta_start(t, 3, 4);
    g_assert_cmpuint(barrier_arrive(t, 3, 2, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 3, 0, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 3, 3, 0), ==, 0);
    g_assert_cmpuint(barrier_waiting(t, 3, 0), ==, 0xd);
    g_assert_cmpuint(barrier_arrive(t, 3, 1, 0), ==, 0xf);
    g_assert_cmpuint(barrier_waiting(t, 3, 0), ==, 0);
    /* reusable: the next round works the same */
    for (unsigned w = 0; w < 3; w++)
        g_assert_cmpuint(barrier_arrive(t, 3, w, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 3, 3, 0), ==, 0xf);
    barrier_table_free(t);
}

/* CTAs in different slots are independent; ids are independent. */
static void test_slots_and_ids(void)
{
    barrier_table *t = barrier_table_new(2);
    barrier_cta_start(t, 0, 2);
    barrier_cta_start(t, 1, 2);
    g_assert_cmpuint(barrier_arrive(t, 0, 0, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 1, 1, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 0, 1, 5), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 1, 0, 0), ==, 0x3);
    g_assert_cmpuint(barrier_arrive(t, 0, 1, 0), ==, 0x3);
    g_assert_cmpuint(barrier_waiting(t, 0, 5), ==, 0x2);
    barrier_table_free(t);
}

/* A warp that exits while the others wait completes the barrier. */
static void test_exit_completes(void)
{
    barrier_table *t = barrier_table_new(1);
    barrier_cta_start(t, 0, 3);
    g_assert_cmpuint(barrier_arrive(t, 0, 0, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 0, 1, 0), ==, 0);
    g_assert_cmpuint(barrier_exit(t, 0, 2), ==, 0x3);
    g_assert_false(barrier_cta_done(t, 0));
    /* with warp 2 gone, two arrivals suffice */
    g_assert_cmpuint(barrier_arrive(t, 0, 1, 0), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 0, 0, 0), ==, 0x3);
    g_assert_cmpuint(barrier_exit(t, 0, 0), ==, 0);
    g_assert_cmpuint(barrier_exit(t, 0, 1), ==, 0);
    g_assert_true(barrier_cta_done(t, 0));
    barrier_cta_end(t, 0);
    barrier_cta_start(t, 0, 64); /* the slot is reused, full 64-warp mask */
    for (unsigned w = 0; w < 63; w++)
        g_assert_cmpuint(barrier_arrive(t, 0, w, 1), ==, 0);
    g_assert_cmpuint(barrier_arrive(t, 0, 63, 1), ==, UINT64_MAX);
    barrier_table_free(t);
}

static void test_double_arrival_aborts(void)
{
    if (g_test_subprocess()) {
        barrier_table *t = barrier_table_new(1);
        barrier_cta_start(t, 0, 2);
        barrier_arrive(t, 0, 0, 0);
        barrier_arrive(t, 0, 0, 0);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/barrier/last-arrival", test_release_on_last_arrival);
    g_test_add_func("/barrier/slots-and-ids", test_slots_and_ids);
    g_test_add_func("/barrier/exit", test_exit_completes);
    g_test_add_func("/barrier/double-arrival", test_double_arrival_aborts);
    return g_test_run();
}
