/* test_ccu — the `ccu` block (models/sm/ccu.h) in the harness, through its export `veto` and opcoll's
 * calls, cycle by cycle, without a value path: Malekeh's warp priority (greedy, then warps with data in
 * a CCU by age, then the rest), the allocator's cases through the port (3, 4, 5, 6, 7-9 with STHLD 2),
 * a collector released at dispatch free only from the next cycle, an LD/ST instruction needing none,
 * and the plain OCU (ocu_random) choosing a free collector at random with issue only when one is free;
 * the baselines: Malekeh_PR's private CCUs (ccu_pr: the warp's own CCU only, never a flush), BOW's
 * per-warp window (bow: operands of instructions that slid out of the last 3 leave the CT), the
 * two-level scheduler (rfc_2lev: 2 active warps, the penalty cycle, demotion and promotion).
 * The RF-cache (Malekeh) spec's directed tests 3 and 5 (§18.2) as port-level tests. */
#include <glib.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/sm/arbiter.h"
#include "models/sm/ccu.h"

static ccu_blk *dut;
static ccu_mode mode;
static unsigned n_coll = 2;

static void *make(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    dut = ccu_new(ctx, parent, name, NULL, NULL, 0, 4, n_coll, 32, mode, NULL);
    return dut;
}

static policy_warp w_(unsigned id, uint64_t age, bool ready, int64_t last, bool mem)
{
    return (policy_warp){
        .id = id, .age = age, .ready = ready, .last_issue = last, .flags = mem ? POLICY_F_MEM : 0};
}

/* One cycle: every ready candidate asked; the one allowed (-1: none). */
static int ask(harness *h, policy_warp *w, unsigned n, uint64_t *cycle)
{
    uint64_t c = harness_step(h);
    blk_iref v = harness_export(h, "veto");
    const issue_veto_if *vi = v.methods;
    int allowed = -1;
    for (unsigned i = 0; i < n; i++)
        if (w[i].ready && !vi->veto(v.self, w, n, i, c)) {
            g_assert_cmpint(allowed, ==, -1);
            allowed = (int)i;
        }
    if (cycle)
        *cycle = c;
    return allowed;
}

static unsigned take(unsigned warp)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)warp;
    it.cls = IR_CLASS_ALU;
    uint16_t reads[SM_MAX_BANK_READS];
    unsigned n;
    return ccu_take(dut, &it, reads, &n);
}

static uint64_t st(harness *h, unsigned idx)
{
    return blk_stat_get(harness_inst(h), idx);
}

static void test_priority_and_cases(void)
{
    mode = CCU_MODE_MALEKEH;
    harness *h = harness_new(&ccu_desc, make, NULL, NULL);
    policy_warp w[3] = {w_(0, 0, true, -1, false), w_(4, 1, true, -1, false), w_(8, 2, true, -1, false)};
    uint64_t c;
    /* case 5: no warp issued yet, the oldest; empty CCUs count as far */
    g_assert_cmpint(ask(h, w, 3, &c), ==, 0);
    unsigned k0 = take(0);
    w[0].last_issue = (int64_t)c;
    /* case 4: the greedy warp's CCU is occupied: nobody issues (no fall-through) */
    g_assert_cmpint(ask(h, w, 3, &c), ==, -1);
    g_assert_cmpuint(st(h, CCU_STAT_STALL_OWN_BUSY), ==, 1);
    ccu_dispatched(dut, k0, c);
    /* released at dispatch in cycle c: free from c + 1; case 3 (own CCU, no flush) */
    g_assert_cmpint(ask(h, w, 3, &c), ==, 0);
    g_assert_cmpuint(st(h, CCU_STAT_ALLOC_OWN), ==, 1);
    g_assert_cmpuint(take(0), ==, k0);
    /* warp 8 takes the other CCU (greedy warp 0 not ready; 4 and 8 own none: the older, 4 ... */
    w[0].ready = false;
    g_assert_cmpint(ask(h, w, 3, &c), ==, 1);
    unsigned k1 = take(4);
    g_assert_cmpuint(k1, !=, k0);
    ccu_dispatched(dut, k1, c);
    ccu_dispatched(dut, k0, c);
    /* ... then with warp 4 not ready, warp 8 (case 5, the far CCU of warp 0 or 4) */
    w[1].ready = false;
    w[1].last_issue = (int64_t)c;
    g_assert_cmpint(ask(h, w, 3, &c), ==, 2);
    unsigned k2 = take(8);
    ccu_dispatched(dut, k2, c);
    /* warp 4 owns a CCU again only if its CCU was not the one warp 8 took; make warp 0 the only owner:
     * warps 4 (no CCU, older) and 8 (owner) ready, greedy not ready: the owner first */
    unsigned n;
    rfc_ccu *cc = ccu_units(dut, &n);
    g_assert_cmpuint(n, ==, 2);
    cc[0].warp = 8, cc[1].warp = 0;
    w[1].ready = w[2].ready = true;
    w[1].last_issue = w[2].last_issue = -1;
    w[0].last_issue = (int64_t)c; /* greedy warp 0 is not ready */
    g_assert_cmpint(ask(h, w, 3, &c), ==, 2);
    /* LD/ST instruction: allowed with every CCU occupied */
    cc[1].busy = true;
    policy_warp m[1] = {w_(12, 3, true, -1, true)};
    g_assert_cmpint(ask(h, m, 1, &c), ==, 0);
    /* case 6: every CCU occupied */
    policy_warp a[1] = {w_(12, 3, true, -1, false)};
    g_assert_cmpint(ask(h, a, 1, &c), ==, -1);
    g_assert_cmpuint(st(h, CCU_STAT_STALL_ALL_BUSY), ==, 1);
    harness_free(h);
}

/* Directed test 5 through the port: STHLD 2, both CCUs free with near values, warp 7 owns none. */
static void test_waiting(void)
{
    mode = CCU_MODE_MALEKEH;
    const char *const set[] = {"sthld=2", NULL};
    harness *h = harness_new(&ccu_desc, make, set, NULL);
    unsigned n;
    rfc_ccu *cc = ccu_units(dut, &n);
    rfc_rng r;
    rfc_rng_seed(&r, 1);
    cc[0].warp = 1, cc[1].warp = 2;
    rfc_dest(&cc[0], 10, true, RFC_REPL_MALEKEH, &r);
    rfc_dest(&cc[1], 11, true, RFC_REPL_MALEKEH, &r);
    policy_warp w[1] = {w_(7, 0, true, -1, false)};
    uint64_t c;
    g_assert_cmpint(ask(h, w, 1, &c), ==, -1);
    g_assert_cmpint(ask(h, w, 1, &c), ==, -1);
    g_assert_cmpuint(st(h, CCU_STAT_STALL_WAIT), ==, 2);
    g_assert_cmpint(ask(h, w, 1, &c), ==, 0);
    g_assert_cmpuint(st(h, CCU_STAT_ALLOC_FORCED), ==, 1);
    g_assert_cmpuint(st(h, CCU_STAT_FLUSHES_FORCED), ==, 1);
    unsigned k = take(7);
    g_assert_cmpint(cc[k].warp, ==, 7);
    g_assert_cmpuint(rfc_valid_count(&cc[k]), ==, 0); /* flushed */
    harness_free(h);
}

/* The plain OCU: a random free collector, none free no issue; the same warp may hold both. */
static void test_ocu_random(void)
{
    mode = CCU_MODE_OCU_RANDOM;
    harness *h = harness_new(&ccu_desc, make, NULL, NULL);
    policy_warp w[1] = {w_(3, 0, true, -1, false)};
    uint64_t c;
    g_assert_cmpint(ask(h, w, 1, &c), ==, 0);
    unsigned a = take(3);
    w[0].last_issue = (int64_t)c;
    g_assert_cmpint(ask(h, w, 1, &c), ==, 0); /* no owner rule: the other collector */
    unsigned b = take(3);
    g_assert_cmpuint(a, !=, b);
    g_assert_cmpint(ask(h, w, 1, &c), ==, -1);
    ccu_dispatched(dut, a, c);
    g_assert_cmpint(ask(h, w, 1, &c), ==, 0);
    g_assert_cmpuint(take(3), ==, a);
    g_assert_cmpuint(st(h, CCU_STAT_ALLOC_RANDOM), ==, 3);
    g_assert_cmpuint(st(h, CCU_STAT_STALL_ALL_BUSY), ==, 1);
    harness_free(h);
}

/* Malekeh_PR: 8 private CCUs (one per warp of the sub-core: warp w -> CCU w / 4). */
static void test_private(void)
{
    mode = CCU_MODE_PR;
    n_coll = 8;
    harness *h = harness_new(&ccu_desc, make, NULL, NULL);
    n_coll = 2;
    policy_warp w[2] = {w_(0, 0, true, -1, false), w_(4, 1, true, -1, false)};
    uint64_t c;
    g_assert_cmpint(ask(h, w, 2, &c), ==, 0);
    g_assert_cmpuint(take(0), ==, 0);
    w[0].last_issue = (int64_t)c;
    /* the greedy warp's own CCU is occupied: no other CCU for it, and no fall-through (case 4) */
    g_assert_cmpint(ask(h, w, 2, &c), ==, -1);
    g_assert_cmpuint(st(h, CCU_STAT_STALL_OWN_BUSY), ==, 1);
    ccu_dispatched(dut, 0, c);
    w[0].ready = false;
    g_assert_cmpint(ask(h, w, 2, &c), ==, 1);
    g_assert_cmpuint(take(4), ==, 1);
    ccu_dispatched(dut, 1, c);
    w[0].ready = true;
    w[1].last_issue = (int64_t)c;
    w[1].ready = false;
    g_assert_cmpint(ask(h, w, 2, &c), ==, 0);
    g_assert_cmpuint(take(0), ==, 0);
    unsigned n;
    rfc_ccu *cc = ccu_units(dut, &n);
    g_assert_cmpuint(n, ==, 8);
    g_assert_cmpint(cc[0].warp, ==, 0);
    g_assert_cmpint(cc[1].warp, ==, 4);
    g_assert_cmpuint(st(h, CCU_STAT_ALLOC_OWN), ==, 3);
    g_assert_cmpuint(
        st(h, CCU_STAT_FLUSHES_FAR) + st(h, CCU_STAT_FLUSHES_FORCED) + st(h, CCU_STAT_FLUSHES_RANDOM), ==, 0);
    harness_free(h);
}

/* BOW: warp 0's private collector holds r10 (last used by its instruction 1) and r11 (instruction 2);
 * with a window of 3 instructions, r10 leaves when instruction 4 arrives, r11 with instruction 5. */
static void test_bow_window(void)
{
    mode = CCU_MODE_BOW;
    n_coll = 8;
    harness *h = harness_new(&ccu_desc, make, NULL, NULL);
    n_coll = 2;
    unsigned n;
    rfc_ccu *cc = ccu_units(dut, &n);
    g_assert_cmpuint(cc[0].n_ct, ==, 16); /* 3 x (6 + 2) operands, at most 16 entries */
    rfc_rng r;
    rfc_rng_seed(&r, 1);
    cc[0].warp = 0;
    cc[0].ct[rfc_dest(&cc[0], 10, true, RFC_REPL_LRU, &r)].lru = 1;
    cc[0].ct[rfc_dest(&cc[0], 11, true, RFC_REPL_LRU, &r)].lru = 2;
    policy_warp w[1] = {w_(0, 0, true, -1, false)};
    uint64_t c;
    for (unsigned i = 1; i <= 5; i++) {
        g_assert_cmpint(ask(h, w, 1, &c), ==, 0);
        g_assert_cmpuint(take(0), ==, 0);
        bool want10 = i < 4, want11 = i < 5;
        g_assert_cmpint(rfc_lookup(&cc[0], 10) >= 0, ==, want10);
        g_assert_cmpint(rfc_lookup(&cc[0], 11) >= 0, ==, want11);
        g_assert_cmpint(cc[0].warp, ==, 0);
        w[0].last_issue = (int64_t)c;
        g_assert_cmpint(ask(h, w, 1, &c), ==, -1); /* its collector holds instruction i */
        ccu_dispatched(dut, 0, c);
    }
    g_assert_cmpuint(st(h, CCU_STAT_STALL_OWN_BUSY), ==, 5);
    harness_free(h);
}

/* The two-level scheduler: 2 active warps of 3; a ready pending warp with no active one ready is the
 * penalty; a long-latency waiter is demoted and the ready pending warp promoted. */
static void test_two_level(void)
{
    mode = CCU_MODE_TWO_LEVEL;
    harness *h = harness_new(&ccu_desc, make, NULL, NULL);
    policy_warp w[3] = {w_(0, 0, true, -1, false), w_(4, 1, true, -1, false), w_(8, 2, true, -1, false)};
    uint64_t c;
    g_assert_cmpint(ask(h, w, 3, &c), ==, 0); /* 0 and 4 promoted; the oldest */
    unsigned k = take(0);
    g_assert_cmpuint(st(h, CCU_STAT_TL_PROMOTIONS), ==, 2);
    w[0].last_issue = (int64_t)c;
    w[0].ready = w[1].ready = false;
    g_assert_cmpint(ask(h, w, 3, &c), ==, -1); /* warp 8 is ready but pending */
    g_assert_cmpuint(st(h, CCU_STAT_TL_PENDING_READY), ==, 1);
    ccu_dispatched(dut, k, c);
    w[0].long_stall = true;
    g_assert_cmpint(ask(h, w, 3, &c), ==, 2); /* 0 demoted, 8 promoted */
    g_assert_cmpuint(st(h, CCU_STAT_TL_DEMOTIONS), ==, 1);
    g_assert_cmpuint(st(h, CCU_STAT_TL_PROMOTIONS), ==, 3);
    unsigned n;
    rfc_ccu *cc = ccu_units(dut, &n);
    g_assert_cmpint(cc[take(8)].warp, ==, RFC_NO_WARP); /* plain OCUs: no owner */
    harness_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/ccu/priority_and_cases", test_priority_and_cases);
    harness_test_add("/ccu/waiting", test_waiting);
    harness_test_add("/ccu/ocu_random", test_ocu_random);
    harness_test_add("/ccu/private", test_private);
    harness_test_add("/ccu/bow_window", test_bow_window);
    harness_test_add("/ccu/two_level", test_two_level);
    return g_test_run();
}
