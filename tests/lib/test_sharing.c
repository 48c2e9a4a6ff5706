/* test_sharing — the sharing computation of models/lib/sharing.h against the resource-sharing spec's
 * worked examples (§2.1, §2.2, §16 items 1 and 2) and its workload tables' baseline counts: Ex. 2.1.1
 * (hotspot: 3 CTAs, 5120 registers wasted), Ex. 2.1.2 (lavaMD: 2 CTAs, 1984 B wasted), Ex. 2.2.1
 * (35K / 10K at t = 0.5: 4 CTAs = 2 unshared + 1 pair), Ex. 2.2.4 (36 / 10 at t = 0.8: 3, no pair),
 * the baseline column of Tables 2.1, 2.2 and 3.3 (rows whose sizes the spec gives), U >= 0 and the
 * thread / CTA-slot caps, exact boundaries (no floating point), the threshold and percentage parsing
 * and its refusals, the private register / scratchpad split. */
#include <glib.h>
#include <string.h>

#include "models/lib/sharing.h"
#include "models/lib/wmask.h"

static share_threshold th(const char *s)
{
    share_threshold t;
    GError *err = NULL;
    g_assert_true(sharing_parse_threshold(s, &t, &err));
    g_assert_no_error(err);
    return t;
}

/* The Table 2.3 SM (32768 registers, 1536 threads, 8 CTAs) with `smem` bytes of scratchpad. */
static occupancy_sm table23(unsigned smem)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.smem_per_sm = smem;
    return sm;
}

/* The Table 3.2 SM (65536 registers, 16 KB, 3072 threads = 96 warps, 16 CTAs). */
static occupancy_sm table32(void)
{
    occupancy_sm sm;
    occupancy_sm_init_gtx480(&sm);
    sm.regs_per_sm = 65536;
    sm.smem_per_sm = 16384;
    sm.max_threads = 3072;
    sm.max_warps = 96;
    sm.max_ctas = 16;
    return sm;
}

static sharing_result run(const occupancy_sm *sm, unsigned threads, unsigned regs, unsigned smem,
                          share_mode m, const char *t)
{
    occupancy_kernel k = {.regs_per_thread = regs, .smem_static = smem, .threads_per_cta = threads};
    sharing_result r;
    GError *err = NULL;
    g_assert_true(sharing_compute(sm, &k, m, th(t), &r, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(r.unshared + 2 * r.pairs, ==, r.ctas);
    g_assert_cmpuint(r.unshared + r.pairs, ==, r.baseline); /* eq. 2.1: the progress guarantee */
    return r;
}

static void test_ex_2_1(void)
{
    occupancy_sm sm = table23(49152);
    occupancy_kernel hotspot = {.regs_per_thread = 36, .threads_per_cta = 256};
    occupancy_result o;
    g_assert_true(occupancy_compute(&sm, &hotspot, &o, NULL));
    g_assert_cmpuint(o.regs_per_cta, ==, 9216);
    g_assert_cmpuint(o.ctas, ==, 3);
    g_assert_cmpuint(o.regs_unused, ==, 5120);
    sm = table23(16384);
    occupancy_kernel lavamd = {.regs_per_thread = 8, .smem_static = 7200, .threads_per_cta = 128};
    g_assert_true(occupancy_compute(&sm, &lavamd, &o, NULL));
    g_assert_cmpuint(o.ctas, ==, 2);
    g_assert_cmpuint(o.limiter, ==, OCCUPANCY_LIMIT_SMEM);
    g_assert_cmpuint(o.smem_unused, ==, 1984);
}

/* Ex. 2.2.1 and 2.2.4 in the spec's own units, then as an SM. */
static void test_ex_2_2(void)
{
    unsigned f, s;
    sharing_count(35000, 10000, th("0.5"), &f, &s);
    g_assert_cmpuint(f, ==, 3);
    g_assert_cmpuint(s, ==, 1); /* (3.5 - 3) / 0.5 */
    sharing_count(36, 10, th("0.8"), &f, &s);
    g_assert_cmpuint(f, ==, 3);
    g_assert_cmpuint(s, ==, 0); /* floor(0.6 / 0.8): the naive 2 pairs x 18 would launch 4 */
    /* exact boundary: (R - F R_tb) = t R_tb exactly, 0.1 as 1/10 (a double 0.1 is above 1/10) */
    sharing_count(31000, 10000, th("0.1"), &f, &s); /* (3.1 - 3) / 0.1 in doubles is 0.99999... */
    g_assert_cmpuint(s, ==, 1);
    sharing_count(30300, 10000, th("0.03"), &f, &s);
    g_assert_cmpuint(s, ==, 1);

    /* 10-warp CTAs of 10240 registers on 35840: M = 4, U = 2, S = 1 */
    occupancy_sm sm = table23(49152);
    sm.regs_per_sm = 35840;
    sharing_result r = run(&sm, 320, 32, 0, SHARE_REGS, "0.5");
    g_assert_true(r.active);
    g_assert_cmpuint(r.baseline, ==, 3);
    g_assert_cmpuint(r.ctas, ==, 4);
    g_assert_cmpuint(r.pairs, ==, 1);
    g_assert_cmpuint(r.unshared, ==, 2);
    /* Ex. 2.2.2: a warp pair of R_w = 1K at t = 0.5 gets 1.5K: 0.5K private each (32 regs x 32 lanes) */
    g_assert_cmpuint(sharing_private_regs(32, th("0.5")) * 32, ==, 512);
    /* Ex. 2.2.4 as an SM: 1-warp CTAs of 320 registers (10 x 32) on 1152 (36 x 32) at t = 0.8 */
    sm.regs_per_sm = 1152;
    r = run(&sm, 32, 10, 0, SHARE_REGS, "0.8");
    g_assert_false(r.active);
    g_assert_cmpuint(r.ctas, ==, 3);
}

/* hotspot (Ex. 2.1.1) with sharing: 5120 unused = 0.555 CTA; t = 0.1: 5 pairs, capped at F = 3 and
 * the 6 CTAs 1536 threads allow: M = 6, S = 3, U = 0; t = 0.5: 1 pair; t = 1: none. */
static void test_hotspot_sharing(void)
{
    occupancy_sm sm = table23(49152);
    sharing_result r = run(&sm, 256, 36, 0, SHARE_REGS, "0.1");
    g_assert_true(r.active);
    g_assert_cmpuint(r.ctas, ==, 6);
    g_assert_cmpuint(r.pairs, ==, 3);
    g_assert_cmpuint(r.unshared, ==, 0);
    r = run(&sm, 256, 36, 0, SHARE_REGS, "0.5");
    g_assert_cmpuint(r.ctas, ==, 4);
    g_assert_cmpuint(r.pairs, ==, 1);
    r = run(&sm, 256, 36, 0, SHARE_REGS, "1");
    g_assert_false(r.active);
    g_assert_cmpuint(r.ctas, ==, 3);
    g_assert_cmpuint(r.pairs, ==, 0);
    /* the CTA-slot cap: 64-thread CTAs of 36 registers: 14 by registers, 8 slots bind: inactive */
    r = run(&sm, 64, 36, 0, SHARE_REGS, "0.1");
    g_assert_false(r.active);
    g_assert_cmpuint(r.ctas, ==, 8);
    g_assert_nonnull(strstr(r.reason, "the baseline is limited by CTA slots"));
    /* scratchpad sharing of a kernel that uses none */
    r = run(&sm, 256, 36, 0, SHARE_SMEM, "0.1");
    g_assert_false(r.active);
    g_assert_nonnull(strstr(r.reason, "uses no shared memory"));
}

/* The baseline columns: Table 2.1 (Table 2.3 SM, 48 KB) and 2.2 (16 KB) and 3.3 (Table 3.2 SM). */
static void test_tables(void)
{
    static const struct {
        const char *name;
        unsigned threads, regs, want;
    } t21[] = {
        {"backprop", 256, 24, 5}, {"b+tree", 508, 24, 2}, {"hotspot", 256, 36, 3}, {"LIB", 192, 36, 4},
        {"MUM", 256, 28, 4},      {"mri-q", 256, 24, 5},  {"sgemm", 128, 48, 5},   {"stencil", 512, 28, 2},
    };
    occupancy_sm sm = table23(49152);
    for (unsigned i = 0; i < G_N_ELEMENTS(t21); i++) {
        sharing_result r = run(&sm, t21[i].threads, t21[i].regs, 0, SHARE_REGS, "0.1");
        if (r.baseline != t21[i].want)
            g_error("Table 2.1 %s: baseline %u, want %u", t21[i].name, r.baseline, t21[i].want);
        g_assert_true(r.active); /* every one is register-limited */
        g_assert_cmpuint(r.ctas, >, r.baseline);
    }
    static const struct {
        const char *name;
        unsigned threads, smem, want;
    } t22[] = {
        {"CONV1", 64, 2560, 6}, {"CONV2", 128, 5184, 3}, {"lavaMD", 128, 7200, 2}, {"NW1", 16, 2180, 7},
        {"NW2", 16, 2180, 7},   {"SRAD1", 256, 6144, 2}, {"SRAD2", 256, 5120, 3},
    };
    sm = table23(16384);
    for (unsigned i = 0; i < G_N_ELEMENTS(t22); i++) {
        sharing_result r = run(&sm, t22[i].threads, 8, t22[i].smem, SHARE_SMEM, "0.1");
        if (r.baseline != t22[i].want)
            g_error("Table 2.2 %s: baseline %u, want %u", t22[i].name, r.baseline, t22[i].want);
    }
    /* Table 3.3: DCT1 / DCT2, 2112 B per CTA (the rows whose scratchpad size the spec gives) */
    sm = table32();
    sharing_result r = run(&sm, 64, 16, 2112, SHARE_SMEM, "0.1");
    g_assert_cmpuint(r.baseline, ==, 7);
    g_assert_true(r.active);
    g_assert_cmpuint(r.ctas, ==, 14); /* 16384 - 7 x 2112 = 1600 = 7.6 x 211.2: 7 pairs */
    g_assert_cmpuint(r.pairs, ==, 7);
    g_assert_cmpuint(r.unshared, ==, 0);
}

static void test_parse(void)
{
    share_threshold t;
    GError *err = NULL;
    g_assert_true(sharing_parse_percent("90", &t, NULL));
    g_assert_cmpuint(t.num * 10, ==, t.den);
    g_assert_true(sharing_parse_percent("0", &t, NULL));
    g_assert_cmpuint(t.num, ==, t.den);
    g_assert_true(sharing_parse_percent("12.5", &t, NULL));
    g_assert_cmpuint(t.num * 1000, ==, 875 * t.den);
    g_assert_true(sharing_parse_threshold(".25", &t, NULL));
    g_assert_cmpuint(t.num * 4, ==, t.den);
    static const char *const bad_t[] = {"0", "1.5", "-0.1", "abc", "", ".", "0.1x", "1e-1"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad_t); i++) {
        g_assert_false(sharing_parse_threshold(bad_t[i], &t, &err));
        g_assert_nonnull(err);
        g_assert_nonnull(strstr(err->message, "threshold"));
        g_clear_error(&err);
    }
    static const char *const bad_p[] = {"100", "150", "-5", "x"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad_p); i++) {
        g_assert_false(sharing_parse_percent(bad_p[i], &t, &err));
        g_assert_nonnull(strstr(err->message, "sharing percentage"));
        g_clear_error(&err);
    }
    share_mode m;
    g_assert_false(sharing_parse_mode("regs", &m, &err));
    g_assert_nonnull(strstr(err->message, "none, registers or scratchpad"));
    g_clear_error(&err);
}

/* §3.5: 48 registers per thread at t = 0.1: #1..#4 private; §3.6: t x R_tb bytes private. */
static void test_private(void)
{
    g_assert_cmpuint(sharing_private_regs(48, th("0.1")), ==, 4);
    g_assert_cmpuint(sharing_private_regs(36, th("0.5")), ==, 18);
    g_assert_cmpuint(sharing_private_smem(7200, th("0.1")), ==, 720);
    /* `off < t x R_tb` exactly: 211.2 -> offsets 0..211 private, 212 bytes */
    g_assert_cmpuint(sharing_private_smem(2112, th("0.1")), ==, 212);
    g_assert_cmpuint(sharing_private_smem(1000, th("0.1")), ==, 100);
    g_assert_cmpuint(sharing_private_smem(1001, th("0.1")), ==, 101);
    g_assert_cmpuint(sharing_private_smem(7, th("0.5")), ==, 4);
    /* the count is the number of offsets passing the exact comparison smem_share makes */
    static const char *const ts[] = {"0.1", "0.25", "0.3", "0.5", "0.7", "1"};
    for (unsigned i = 0; i < G_N_ELEMENTS(ts); i++) {
        share_threshold t = th(ts[i]);
        for (uint64_t r = 1; r <= 700; r++) {
            uint64_t n = 0;
            for (uint64_t off = 0; off < r; off++)
                n += off * t.den < r * t.num;
            g_assert_cmpuint(sharing_private_smem(r, t), ==, n);
        }
    }
}

/* §16 test 3, §3.9: the storage sharing adds, T = 8 CTA slots and W = 48 warps (Table 2.3) */
static void test_storage(void)
{
    g_assert_cmpuint(sharing_storage_bits(SHARE_REGS, 8, 48), ==, 273); /* 1 + 32 + 96 + 144 */
    g_assert_cmpuint(sharing_storage_bits(SHARE_SMEM, 8, 48), ==, 93);  /* 1 + 32 + 48 + 12 */
    g_assert_cmpuint(sharing_storage_bits(SHARE_NONE, 8, 48), ==, 0);
    /* the terms one by one: T = 7 (ceil(log2 8) = 3), W = 33 (floor 16, ceil(log2 33) = 6) */
    g_assert_cmpuint(sharing_storage_bits(SHARE_REGS, 7, 33), ==, 1 + 7 * 3 + 66 + 16 * 6);
    g_assert_cmpuint(sharing_storage_bits(SHARE_SMEM, 7, 33), ==, 1 + 7 * 3 + 33 + 3 * 3);
}

/* clog2 (wmask.h), the ID widths of the storage counts here and of GREENER's tables */
static void test_clog2(void)
{
    static const unsigned x[] = {0, 1, 2, 3, 4, 5, 8, 9, 48, 64, 65, 1u << 31, (1u << 31) + 1, UINT32_MAX};
    static const unsigned want[] = {0, 0, 1, 2, 2, 3, 3, 4, 6, 6, 7, 31, 32, 32};
    for (unsigned i = 0; i < G_N_ELEMENTS(x); i++)
        g_assert_cmpuint(clog2(x[i]), ==, want[i]);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sharing/ex-2.1", test_ex_2_1);
    g_test_add_func("/sharing/ex-2.2", test_ex_2_2);
    g_test_add_func("/sharing/hotspot", test_hotspot_sharing);
    g_test_add_func("/sharing/tables", test_tables);
    g_test_add_func("/sharing/parse", test_parse);
    g_test_add_func("/sharing/private", test_private);
    g_test_add_func("/sharing/storage", test_storage);
    g_test_add_func("/sharing/clog2", test_clog2);
    return g_test_run();
}
