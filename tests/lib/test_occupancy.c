/* Unit tests for models/lib/occupancy: each limiter, rounding, exact boundaries, errors. */
#include "models/lib/occupancy.h"

#include <limits.h>
#include <string.h>

static occupancy_result compute_ok(const occupancy_sm *sm, occupancy_kernel k)
{
    occupancy_result r;
    GError *err = NULL;
    gboolean ok = occupancy_compute(sm, &k, &r, &err);
    g_assert_no_error(err);
    g_assert_true(ok);
    return r;
}

static char *compute_fail(const occupancy_sm *sm, occupancy_kernel k, int code)
{
    occupancy_result r;
    GError *err = NULL;
    g_assert_false(occupancy_compute(sm, &k, &r, &err));
    g_assert_error(err, OCCUPANCY_ERROR, code);
    char *msg = g_strdup(err->message);
    g_error_free(err);
    return msg;
}

/* resource-sharing/GREENER spec §2.1 Ex. 2.1.1: hotspot, 36 regs x 256 threads, 32768 regs. */
static void test_spec_hotspot(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 36, .threads_per_cta = 256});
    g_assert_cmpuint(r.regs_per_cta, ==, 9216);
    g_assert_cmpuint(r.ctas, ==, 3);
    g_assert_cmpint(r.limiter, ==, OCCUPANCY_LIMIT_REGS);
    g_assert_cmpuint(r.regs_unused, ==, 5120);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_THREADS], ==, 6);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_CTAS], ==, 8);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_SMEM], ==, UINT_MAX);
}

/* Ex. 2.1.2: lavaMD, 7200 B per TB, 16384 B per SM -> 2 TBs, 1984 B wasted. */
static void test_spec_lavamd(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.smem_per_sm = 16384;
    occupancy_result r = compute_ok(
        &sm, (occupancy_kernel){.regs_per_thread = 20, .smem_static = 7200, .threads_per_cta = 128});
    g_assert_cmpuint(r.ctas, ==, 2);
    g_assert_cmpint(r.limiter, ==, OCCUPANCY_LIMIT_SMEM);
    g_assert_cmpuint(r.smem_unused, ==, 1984);
}

static void test_limit_threads(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    /* 512 threads, 8 regs: 1536/512 = 3 by threads; regs 32768/4096 = 8. */
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 8, .threads_per_cta = 512});
    g_assert_cmpuint(r.ctas, ==, 3);
    g_assert_cmpint(r.limiter, ==, OCCUPANCY_LIMIT_THREADS);
}

static void test_limit_warps(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.max_warps = 40; /* fewer warp slots than 1536/32 = 48 */
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 8, .threads_per_cta = 256});
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_THREADS], ==, 6);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_WARPS], ==, 5);
    g_assert_cmpuint(r.ctas, ==, 5);
    g_assert_cmpint(r.limiter, ==, OCCUPANCY_LIMIT_WARPS);
}

static void test_limit_ctas(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 4, .threads_per_cta = 64});
    g_assert_cmpuint(r.ctas, ==, 8);
    g_assert_cmpint(r.limiter, ==, OCCUPANCY_LIMIT_CTAS);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_THREADS], ==, 24);
}

/* Threads are padded to whole warps: 33 threads count as 64, for threads and for registers. */
static void test_round_threads_to_warps(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 32, .threads_per_cta = 33});
    g_assert_cmpuint(r.warps_per_cta, ==, 2);
    g_assert_cmpuint(r.padded_threads, ==, 64);
    g_assert_cmpuint(r.regs_per_cta, ==, 64 * 32);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_THREADS], ==, 24);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_REGS], ==, 16);
}

/* GPGPU-Sim rounds registers per thread up to a multiple of 4: 33 -> 36. */
static void test_round_regs_unit(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 33, .threads_per_cta = 256});
    g_assert_cmpuint(r.regs_per_cta, ==, 36 * 256);
    g_assert_cmpuint(r.ctas, ==, 3);
    sm.reg_unit = 1;
    r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 33, .threads_per_cta = 256});
    g_assert_cmpuint(r.regs_per_cta, ==, 33 * 256);
    g_assert_cmpuint(r.ctas, ==, 3); /* 32768 / 8448 = 3.88 */
    r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 32, .threads_per_cta = 256});
    g_assert_cmpuint(r.ctas, ==, 4);
}

/* CUDA-style per-warp granularity: 21 regs x 32 = 672 -> 768 per warp with granularity 256. */
static void test_round_regs_per_warp(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.reg_unit = 1;
    sm.reg_warp_granularity = 256;
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 21, .threads_per_cta = 128});
    g_assert_cmpuint(r.regs_per_cta, ==, 768 * 4);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_REGS], ==, 32768 / 3072);
}

static void test_round_smem_unit(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.smem_unit = 128;
    occupancy_result r = compute_ok(
        &sm, (occupancy_kernel){
                 .regs_per_thread = 8, .smem_static = 1000, .smem_dynamic = 24, .threads_per_cta = 32});
    g_assert_cmpuint(r.smem_per_cta, ==, 1024);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_SMEM], ==, 48);
    r = compute_ok(&sm,
                   (occupancy_kernel){
                       .regs_per_thread = 8, .smem_static = 1000, .smem_dynamic = 25, .threads_per_cta = 32});
    g_assert_cmpuint(r.smem_per_cta, ==, 1152);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_SMEM], ==, 42);
}

/* Exact boundaries: a resource holding exactly n CTAs gives n; one unit more gives n - 1. */
static void test_exact_boundaries(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    occupancy_result r = compute_ok(
        &sm, (occupancy_kernel){.regs_per_thread = 8, .smem_static = 12288, .threads_per_cta = 32});
    g_assert_cmpuint(r.ctas, ==, 4);
    g_assert_cmpuint(r.smem_unused, ==, 0);
    r = compute_ok(&sm,
                   (occupancy_kernel){.regs_per_thread = 8, .smem_static = 12289, .threads_per_cta = 32});
    g_assert_cmpuint(r.ctas, ==, 3);
    /* 1536 threads: exactly one CTA; the whole SM. */
    r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 20, .threads_per_cta = 1536});
    g_assert_cmpuint(r.ctas, ==, 1);
    g_assert_cmpuint(r.regs_per_cta, ==, 30720);
    g_assert_cmpint(r.limiter, ==, OCCUPANCY_LIMIT_REGS); /* tie with threads: registers reported */
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_THREADS], ==, 1);
    /* registers: 32768 = 2 x 16384 exactly */
    r = compute_ok(&sm, (occupancy_kernel){.regs_per_thread = 32, .threads_per_cta = 512});
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_REGS], ==, 2);
    g_assert_cmpuint(r.regs_unused, ==, 0);
}

static void test_zero_use_unlimited(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    occupancy_result r = compute_ok(&sm, (occupancy_kernel){.threads_per_cta = 32});
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_REGS], ==, UINT_MAX);
    g_assert_cmpuint(r.by_resource[OCCUPANCY_LIMIT_SMEM], ==, UINT_MAX);
    g_assert_cmpuint(r.ctas, ==, 8);
}

static void test_errors(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    /* above the 63 registers a Fermi thread may have */
    char *m = compute_fail(&sm, (occupancy_kernel){.regs_per_thread = 64, .threads_per_cta = 32},
                           OCCUPANCY_ERROR_DOES_NOT_FIT);
    g_assert_nonnull(strstr(m, "64 registers per thread is more than the SM allows (63)"));
    g_free(m);
    sm.max_regs_per_thread = 0; /* no per-thread limit: the register file is */
    m = compute_fail(&sm, (occupancy_kernel){.regs_per_thread = 64, .threads_per_cta = 1024},
                     OCCUPANCY_ERROR_DOES_NOT_FIT);
    g_assert_nonnull(strstr(m, "65536 registers"));
    g_assert_nonnull(strstr(m, "32768"));
    g_free(m);
    m = compute_fail(&sm,
                     (occupancy_kernel){.smem_static = 40000, .smem_dynamic = 10000, .threads_per_cta = 32},
                     OCCUPANCY_ERROR_DOES_NOT_FIT);
    g_assert_nonnull(strstr(m, "50000 bytes of shared memory"));
    g_assert_nonnull(strstr(m, "49152"));
    g_free(m);
    m = compute_fail(&sm, (occupancy_kernel){.threads_per_cta = 1537}, OCCUPANCY_ERROR_DOES_NOT_FIT);
    g_assert_nonnull(strstr(m, "1568 threads"));
    g_assert_nonnull(strstr(m, "1536"));
    g_free(m);
    sm.max_warps = 4;
    m = compute_fail(&sm, (occupancy_kernel){.threads_per_cta = 160}, OCCUPANCY_ERROR_DOES_NOT_FIT);
    g_assert_nonnull(strstr(m, "5 warps but the SM has 4"));
    g_free(m);
    sm.max_warps = 0;
    sm.max_ctas = 0;
    m = compute_fail(&sm, (occupancy_kernel){.threads_per_cta = 32}, OCCUPANCY_ERROR_DOES_NOT_FIT);
    g_assert_nonnull(strstr(m, "CTA slot"));
    g_free(m);
    m = compute_fail(&sm, (occupancy_kernel){.threads_per_cta = 0}, OCCUPANCY_ERROR_INVALID);
    g_free(m);
    g_assert_cmpstr(occupancy_limit_name(OCCUPANCY_LIMIT_SMEM), ==, "shared memory");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/occupancy/spec-hotspot", test_spec_hotspot);
    g_test_add_func("/occupancy/spec-lavamd", test_spec_lavamd);
    g_test_add_func("/occupancy/limit-threads", test_limit_threads);
    g_test_add_func("/occupancy/limit-warps", test_limit_warps);
    g_test_add_func("/occupancy/limit-ctas", test_limit_ctas);
    g_test_add_func("/occupancy/round-threads", test_round_threads_to_warps);
    g_test_add_func("/occupancy/round-regs", test_round_regs_unit);
    g_test_add_func("/occupancy/round-regs-per-warp", test_round_regs_per_warp);
    g_test_add_func("/occupancy/round-smem", test_round_smem_unit);
    g_test_add_func("/occupancy/boundaries", test_exact_boundaries);
    g_test_add_func("/occupancy/zero-use", test_zero_use_unlimited);
    g_test_add_func("/occupancy/errors", test_errors);
    return g_test_run();
}
