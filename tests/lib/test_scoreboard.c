/* Unit tests for models/lib/scoreboard: RAW/WAW, optional WAR via source reservations, long ops. */
#include "models/lib/scoreboard.h"

static void test_destination_reservations(void)
{
    scoreboard *sb = scoreboard_new(4, 16, false);
    g_assert_false(scoreboard_source_reservations(sb));
    unsigned d1[] = {1}, s23[] = {2, 3}, s13[] = {1, 3}, d3[] = {3};
    /* add r1, r2, r3 */
    g_assert_cmpuint(scoreboard_check(sb, 0, s23, 2, d1, 1), ==, SCOREBOARD_CLEAR);
    scoreboard_reserve(sb, 0, s23, 2, d1, 1, false);
    g_assert_false(scoreboard_warp_idle(sb, 0));
    /* add r3, r1, r3: RAW on r1 */
    g_assert_cmpuint(scoreboard_check(sb, 0, s13, 2, d3, 1), ==, SCOREBOARD_RAW);
    /* mov r1, r2: WAW on r1 */
    g_assert_cmpuint(scoreboard_check(sb, 0, s23, 1, d1, 1), ==, SCOREBOARD_WAW);
    /* another warp is independent */
    g_assert_cmpuint(scoreboard_check(sb, 1, s13, 2, d1, 1), ==, SCOREBOARD_CLEAR);
    /* writing a register that is only being read is fine without source reservations */
    g_assert_cmpuint(scoreboard_check(sb, 0, d1, 0, s23, 1), ==, SCOREBOARD_CLEAR);
    scoreboard_release_write(sb, 0, 1, false);
    g_assert_cmpuint(scoreboard_check(sb, 0, s13, 2, d3, 1), ==, SCOREBOARD_CLEAR);
    g_assert_true(scoreboard_warp_idle(sb, 0));
    scoreboard_free(sb);
}

static void test_source_reservations(void)
{
    scoreboard *sb = scoreboard_new(2, 8, true);
    unsigned s23[] = {2, 3}, d1[] = {1}, d2[] = {2};
    scoreboard_reserve(sb, 0, s23, 2, d1, 1, false);
    g_assert_cmpuint(scoreboard_pending_reads(sb, 0, 2), ==, 1);
    /* mov r2, ...: WAR on r2 until it has been read */
    g_assert_cmpuint(scoreboard_check(sb, 0, NULL, 0, d2, 1), ==, SCOREBOARD_WAR);
    scoreboard_reserve(sb, 0, s23, 1, NULL, 0, false); /* a second reader of r2 */
    g_assert_cmpuint(scoreboard_pending_reads(sb, 0, 2), ==, 2);
    scoreboard_release_read(sb, 0, 2);
    g_assert_cmpuint(scoreboard_check(sb, 0, NULL, 0, d2, 1), ==, SCOREBOARD_WAR);
    scoreboard_release_read(sb, 0, 2);
    g_assert_cmpuint(scoreboard_check(sb, 0, NULL, 0, d2, 1), ==, SCOREBOARD_CLEAR);
    scoreboard_release_read(sb, 0, 3);
    scoreboard_release_write(sb, 0, 1, false);
    g_assert_true(scoreboard_warp_idle(sb, 0));
    scoreboard_free(sb);
}

static void test_long_ops(void)
{
    scoreboard *sb = scoreboard_new(2, 8, false);
    unsigned d4[] = {4}, d5[] = {5}, s4[] = {4}, s5[] = {5}, s45[] = {4, 5};
    scoreboard_reserve(sb, 1, NULL, 0, d4, 1, true);  /* ld r4 */
    scoreboard_reserve(sb, 1, NULL, 0, d5, 1, false); /* add r5 */
    g_assert_cmpuint(scoreboard_check(sb, 1, s4, 1, NULL, 0), ==, SCOREBOARD_RAW | SCOREBOARD_LONG);
    g_assert_cmpuint(scoreboard_check(sb, 1, s5, 1, NULL, 0), ==, SCOREBOARD_RAW);
    g_assert_cmpuint(scoreboard_check(sb, 1, s45, 2, NULL, 0), ==, SCOREBOARD_RAW | SCOREBOARD_LONG);
    g_assert_cmpuint(scoreboard_check(sb, 1, NULL, 0, d4, 1), ==, SCOREBOARD_WAW | SCOREBOARD_LONG);
    scoreboard_release_write(sb, 1, 4, true);
    g_assert_cmpuint(scoreboard_check(sb, 1, s45, 2, NULL, 0), ==, SCOREBOARD_RAW);
    scoreboard_clear_warp(sb, 1);
    g_assert_true(scoreboard_warp_idle(sb, 1));
    g_assert_cmpuint(scoreboard_pending_writes(sb, 1, 5), ==, 0);
    scoreboard_free(sb);
}

static void test_release_unreserved_aborts(void)
{
    if (g_test_subprocess()) {
        scoreboard *sb = scoreboard_new(1, 4, false);
        scoreboard_release_write(sb, 0, 2, false);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/scoreboard/destinations", test_destination_reservations);
    g_test_add_func("/scoreboard/sources", test_source_reservations);
    g_test_add_func("/scoreboard/long-ops", test_long_ops);
    g_test_add_func("/scoreboard/release-unreserved", test_release_unreserved_aborts);
    return g_test_run();
}
