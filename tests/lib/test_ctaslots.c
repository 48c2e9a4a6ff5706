/* Unit tests for models/lib/ctaslots: placing and releasing CTAs, resource exhaustion and
 * fragmentation, round-robin SM choice. */
#include "models/lib/ctaslots.h"

static ctaslots *gtx480(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    return ctaslots_new(&sm);
}

/* The ledger agrees with the static calculator: hotspot places exactly 3 CTAs. */
static void test_agrees_with_occupancy(void)
{
    ctaslots *s = gtx480();
    occupancy_kernel k = {.regs_per_thread = 36, .threads_per_cta = 256};
    ctaslots_grant g;
    for (unsigned i = 0; i < 3; i++) {
        g_assert_true(ctaslots_place(s, &k, &g));
        g_assert_cmpuint(g.cta_slot, ==, i);
        g_assert_cmpuint(g.first_warp, ==, 8 * i);
        g_assert_cmpuint(g.warps, ==, 8);
        g_assert_cmpuint(g.regs, ==, 9216);
    }
    occupancy_limit why;
    g_assert_false(ctaslots_fits(s, &k, &why));
    g_assert_cmpint(why, ==, OCCUPANCY_LIMIT_REGS);
    g_assert_false(ctaslots_place(s, &k, &g));
    g_assert_cmpuint(ctaslots_resident(s), ==, 3);
    g_assert_cmpuint(ctaslots_free_regs(s), ==, 5120);
    g_assert_cmpuint(ctaslots_free_warps(s), ==, 48 - 24);
    /* releasing the middle CTA lets the next one take its warps and CTA slot */
    ctaslots_release(s, 1);
    g_assert_true(ctaslots_place(s, &k, &g));
    g_assert_cmpuint(g.cta_slot, ==, 1);
    g_assert_cmpuint(g.first_warp, ==, 8);
    ctaslots_free(s);
}

static void test_limits(void)
{
    ctaslots *s = gtx480();
    occupancy_limit why;
    ctaslots_grant g;
    /* CTA slots: 8 small CTAs */
    occupancy_kernel small = {.regs_per_thread = 4, .threads_per_cta = 32};
    for (unsigned i = 0; i < 8; i++)
        g_assert_true(ctaslots_place(s, &small, &g));
    g_assert_false(ctaslots_fits(s, &small, &why));
    g_assert_cmpint(why, ==, OCCUPANCY_LIMIT_CTAS);
    ctaslots_free(s);
    /* threads: 3 x 512 */
    s = gtx480();
    occupancy_kernel big = {.regs_per_thread = 8, .threads_per_cta = 512};
    for (unsigned i = 0; i < 3; i++)
        g_assert_true(ctaslots_place(s, &big, &g));
    g_assert_false(ctaslots_fits(s, &big, &why));
    g_assert_cmpint(why, ==, OCCUPANCY_LIMIT_THREADS);
    g_assert_false(ctaslots_fits(s, &small, &why)); /* even one warp: no thread left */
    ctaslots_free(s);
}

/* Shared memory is a byte range: first fit, and a freed hole is reused only if large enough. */
static void test_smem_ranges(void)
{
    ctaslots *s = gtx480();
    occupancy_kernel k16 = {.regs_per_thread = 8, .smem_static = 16384, .threads_per_cta = 64};
    ctaslots_grant g[3];
    for (unsigned i = 0; i < 3; i++) {
        g_assert_true(ctaslots_place(s, &k16, &g[i]));
        g_assert_cmpuint(g[i].smem_base, ==, 16384 * i);
        g_assert_cmpuint(g[i].smem_bytes, ==, 16384);
    }
    occupancy_limit why;
    g_assert_false(ctaslots_fits(s, &k16, &why));
    g_assert_cmpint(why, ==, OCCUPANCY_LIMIT_SMEM);
    ctaslots_release(s, 0);
    ctaslots_release(s, 2);
    g_assert_cmpuint(ctaslots_free_smem(s), ==, 32768);
    /* 24 KiB does not fit either 16 KiB hole although 32 KiB are free */
    occupancy_kernel k24 = {.regs_per_thread = 8, .smem_static = 24576, .threads_per_cta = 64};
    g_assert_false(ctaslots_fits(s, &k24, &why));
    g_assert_cmpint(why, ==, OCCUPANCY_LIMIT_SMEM);
    ctaslots_grant x;
    occupancy_kernel k8 = {.regs_per_thread = 8, .smem_static = 8192, .threads_per_cta = 64};
    g_assert_true(ctaslots_place(s, &k8, &x));
    g_assert_cmpuint(x.smem_base, ==, 0);
    g_assert_true(ctaslots_place(s, &k8, &x));
    g_assert_cmpuint(x.smem_base, ==, 8192);
    g_assert_true(ctaslots_place(s, &k8, &x));
    g_assert_cmpuint(x.smem_base, ==, 32768);
    ctaslots_free(s);
}

/* Warp slots are contiguous: a freed run too short for a CTA is skipped. */
static void test_warp_fragmentation(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.max_threads = 256; /* 8 warps */
    ctaslots *s = ctaslots_new(&sm);
    occupancy_kernel w2 = {.threads_per_cta = 64}, w3 = {.threads_per_cta = 96};
    ctaslots_grant g;
    for (unsigned i = 0; i < 4; i++)
        g_assert_true(ctaslots_place(s, &w2, &g)); /* warps 0-1, 2-3, 4-5, 6-7 */
    ctaslots_release(s, 0);
    ctaslots_release(s, 2);
    g_assert_cmpuint(ctaslots_free_warps(s), ==, 4);
    occupancy_limit why;
    g_assert_false(ctaslots_fits(s, &w3, &why));     /* 4 free warps, no run of 3 */
    g_assert_cmpint(why, ==, OCCUPANCY_LIMIT_WARPS); /* 128 threads are free: the run is what is missing */
    ctaslots_free(s);
}

static void test_round_robin(void)
{
    ctaslots *sms[3] = {gtx480(), gtx480(), gtx480()};
    occupancy_kernel k = {.regs_per_thread = 36, .threads_per_cta = 256}; /* 3 per SM */
    int last = -1;
    GString *order = g_string_new(NULL);
    for (;;) {
        int sm = ctaslots_pick_round_robin(sms, 3, &k, last, NULL);
        if (sm < 0)
            break;
        g_assert_true(ctaslots_place(sms[sm], &k, NULL));
        g_string_append_printf(order, "%d", sm);
        last = sm;
    }
    g_assert_cmpstr(order->str, ==, "012012012");
    /* SM 1 frees a CTA: it is the only choice, whatever `last` is */
    ctaslots_release(sms[1], 0);
    g_assert_cmpint(ctaslots_pick_round_robin(sms, 3, &k, 1, NULL), ==, 1);
    g_assert_cmpint(ctaslots_pick_round_robin(sms, 3, &k, 2, NULL), ==, 1);
    g_string_free(order, TRUE);
    for (unsigned i = 0; i < 3; i++)
        ctaslots_free(sms[i]);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ctaslots/agrees-with-occupancy", test_agrees_with_occupancy);
    g_test_add_func("/ctaslots/limits", test_limits);
    g_test_add_func("/ctaslots/smem-ranges", test_smem_ranges);
    g_test_add_func("/ctaslots/warp-fragmentation", test_warp_fragmentation);
    g_test_add_func("/ctaslots/round-robin", test_round_robin);
    return g_test_run();
}
