/* test_dwe — the dynamic warp execution controller (models/sm/dwe.h, resource-sharing spec §6) alone:
 * the reference SM 0 never allows (P = 0), the others start at 1.0 and always allow; a window in
 * which SM i stalled more than SM 0 lowers P_i by 0.1, fewer raises it (saturating at 1.0), equal
 * leaves it; at P = 0.5 about half the draws are refused, reproducibly for one seed; at 0 none is
 * allowed, and the controller never goes below 0. */
#include <glib.h>

#include "models/core/harness.h"
#include "models/sm/dwe.h"

static void test_rule(void)
{
    dwe *d = dwe_new(NULL, 3, 0, 1000, 10, 7);
    g_assert_cmpuint(dwe_p(d, 0), ==, 0);
    g_assert_cmpuint(dwe_p(d, 1), ==, 10);
    g_assert_false(dwe_allow(d, 0, 5));
    for (unsigned i = 0; i < 100; i++)
        g_assert_true(dwe_allow(d, 1, 5));
    static const uint64_t more[] = {10, 20, 10}, fewer[] = {10, 5, 10};
    dwe_adjust(d, more);
    g_assert_cmpuint(dwe_p(d, 1), ==, 9);  /* more stalls than SM 0: down */
    g_assert_cmpuint(dwe_p(d, 2), ==, 10); /* equal: unchanged */
    dwe_adjust(d, fewer);
    dwe_adjust(d, fewer);
    g_assert_cmpuint(dwe_p(d, 1), ==, 10); /* up, saturating */
    for (unsigned i = 0; i < 5; i++)
        dwe_adjust(d, more);
    g_assert_cmpuint(dwe_p(d, 1), ==, 5);
    unsigned allowed = 0;
    for (unsigned i = 0; i < 1000; i++)
        allowed += dwe_allow(d, 1, 5);
    g_assert_cmpuint(allowed, >, 400);
    g_assert_cmpuint(allowed, <, 600);
    g_assert_cmpuint(dwe_refused(d), ==, 1 + 1000 - allowed);
    for (unsigned i = 0; i < 20; i++)
        dwe_adjust(d, more);
    g_assert_cmpuint(dwe_p(d, 1), ==, 0);
    for (unsigned i = 0; i < 100; i++)
        g_assert_false(dwe_allow(d, 1, 5));
    g_assert_cmpuint(dwe_windows(d), ==, 28);
    dwe_free(d);
    /* the same seed, the same draws */
    dwe *a = dwe_new(NULL, 2, 0, 1000, 5, 3), *b = dwe_new(NULL, 2, 0, 1000, 5, 3);
    for (unsigned i = 0; i < 200; i++)
        g_assert_cmpint(dwe_allow(a, 1, 0), ==, dwe_allow(b, 1, 0));
    dwe_free(a);
    dwe_free(b);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/dwe/rule", test_rule); /* (links the SystemC kernel as the other SM tests) */
    return g_test_run();
}
