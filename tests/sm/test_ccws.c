/* test_ccws — cache-conscious warp scheduling's blocks alone (docs/ccws.md), exact to the CCWS/DAWS/
 * VWS spec's unit tests:
 *  - UT-1: the toy cache (fully associative, 4 lines, LRU), 3 warps each issuing a 4-line load twice:
 *    round-robin order 24 accesses / 0 hits, cache-aware order 12 hits; the orders the lrr and gto
 *    policies produce give exactly those; with the victim tag array fed by the toy cache's
 *    evictions, round robin shows 12 VTA hits and the cache-aware order none;
 *  - UT-2: the Fig. 3.7 scoring walk-through (4 warps, T0..T4) through the ccws block's ports;
 *  - UT-3: the full-size arithmetic (32 warps: LLDS 256 bars 2 warps, throttling ends 156 cycles
 *    after the hit; ratio 1/8 bars 31, more bars all; a 10-bit score bars at most 10);
 *  - UT-4: the VTA geometry (2 sets per warp, 40-bit tags, 160 B of warp ids, 0.78 mm2 on 30 SMs)
 *    and its behaviour through its ports (insert on eviction into the owner's partition, a hit only
 *    for that warp);
 *  - the traced state (scores, cutoff, can_load) in a VCD, cycle by cycle. */
#include <glib.h>
#include <string.h>

#include "models/ccws/ccws.h"
#include "models/ccws/fetch_groups.h"
#include "models/ccws/l1pc.h"
#include "models/ccws/vta.h"
#include "models/lib/policy.h"
#include "models/sm/arbiter.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "tests/sm/block_test.h"

static void *make_vta(blk_ctx *c, gsc_module *p, const char *n)
{
    return vta_new(c, p, n);
}

static void *make_ccws(blk_ctx *c, gsc_module *p, const char *n)
{
    return ccws_new(c, p, n, NULL);
}

/* ---- UT-1 ------------------------------------------------------------------------------------ */

typedef struct {
    vta *v; /* NULL: no VTA */
} toy_ctx;

static void toy_evict(const cache_eviction *ev, void *ctx)
{
    toy_ctx *t = ctx;
    if (t->v)
        vta_insert(t->v, (unsigned)ev->meta, ev->line_addr);
}

/* Warp w's load touches lines 4w .. 4w+3 (A-D, E-H, I-L). Runs the order; returns the hits; VTA
 * probes on misses when v is given (*vta_hits). */
static unsigned toy_run(const unsigned *order, unsigned n, vta *v, unsigned *vta_hits)
{
    cache_config cc = {1, 4, 128, CACHE_INDEX_LINEAR};
    cache_tags *t = cache_tags_new(&cc, NULL);
    toy_ctx ctx = {v};
    cache_tags_set_evict_hook(t, toy_evict, &ctx);
    unsigned hits = 0, accesses = 0;
    *vta_hits = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned l = 0; l < 4; l++) {
            uint64_t addr = (order[i] * 4 + l) * 128ull;
            accesses++;
            cache_status st = cache_tags_access(t, addr, true, order[i], NULL);
            if (st == CACHE_HIT) {
                hits++;
            } else {
                g_assert_cmpint(st, ==, CACHE_MISS);
                cache_tags_fill(t, addr, order[i]);
                if (v && vta_probe(v, order[i], addr / 128))
                    (*vta_hits)++;
            }
        }
    g_assert_cmpuint(accesses, ==, 4 * n);
    cache_tags_free(t);
    return hits;
}

/* The issue order a policy gives 3 warps, each ready until it has issued twice. */
static void policy_issue_order(const char *spec, unsigned *order)
{
    policy *p = policy_new(spec, NULL);
    g_assert_nonnull(p);
    policy_warp w[3];
    memset(w, 0, sizeof w);
    unsigned left[3] = {2, 2, 2};
    for (unsigned i = 0; i < 3; i++) {
        w[i].id = i;
        w[i].age = i;
        w[i].last_issue = POLICY_NEVER_ISSUED;
    }
    for (unsigned c = 0; c < 6; c++) {
        for (unsigned i = 0; i < 3; i++)
            w[i].ready = left[i] > 0;
        unsigned out[3];
        g_assert_cmpuint(policy_order(p, w, 3, c, out), >, 0);
        order[c] = w[out[0]].id;
        w[out[0]].last_issue = c;
        left[out[0]]--;
    }
    policy_free(p);
}

static void test_ut1_toy_cache(void)
{
    static const unsigned rr[6] = {0, 1, 2, 0, 1, 2}, aware[6] = {0, 0, 1, 1, 2, 2};
    unsigned vh;
    g_assert_cmpuint(toy_run(rr, 6, NULL, &vh), ==, 0);
    g_assert_cmpuint(toy_run(aware, 6, NULL, &vh), ==, 12);
    unsigned o[6];
    policy_issue_order("lrr", o);
    g_assert_cmpmem(o, sizeof o, rr, sizeof rr);
    policy_issue_order("gto", o);
    g_assert_cmpmem(o, sizeof o, aware, sizeof aware);
    /* with the VTA: each warp's second load finds its 4 lines in its own partition */
    const char *set[] = {"warps=3", NULL};
    block_dut d = block_dut_new(&vta_desc, make_vta, "evict", set, NULL, true);
    vta *v = harness_block(d.h);
    g_assert_cmpuint(toy_run(rr, 6, v, &vh), ==, 0);
    g_assert_cmpuint(vh, ==, 12);
    for (unsigned w = 0; w < 3; w++)
        g_assert_cmpuint(vta_warp_hits(v, w), ==, 4);
    harness_free(d.h);
    d = block_dut_new(&vta_desc, make_vta, "evict", set, NULL, true);
    v = harness_block(d.h);
    g_assert_cmpuint(toy_run(aware, 6, v, &vh), ==, 12);
    g_assert_cmpuint(vh, ==, 0);
    harness_free(d.h);
}

/* Static warp limiting (spec §4): swl:1 lets only the oldest warp issue; while it waits at a barrier
 * the next oldest takes its place (else a CTA with a barrier never gets past it). */
static void test_swl_barrier(void)
{
    policy *p = policy_new("gto", NULL);
    policy_add_swl_except(p, 1, 6); /* stall 6: the caller's code for a barrier */
    policy_warp w[3];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < 3; i++) {
        w[i].id = i;
        w[i].age = i;
        w[i].ready = i > 0;
        w[i].last_issue = POLICY_NEVER_ISSUED;
    }
    unsigned out[3];
    g_assert_cmpuint(policy_order(p, w, 3, 1, out), ==, 0); /* the oldest is not ready: nobody */
    w[0].stall = 6;
    g_assert_cmpuint(policy_order(p, w, 3, 2, out), ==, 1);
    g_assert_cmpuint(out[0], ==, 1);
    w[1].stall = 6;
    w[1].ready = false;
    g_assert_cmpuint(policy_order(p, w, 3, 3, out), ==, 1);
    g_assert_cmpuint(out[0], ==, 2);
    policy_free(p);
}

/* 2LVL-GTO (fetch_groups:2): warps of ages 0..3 form the groups {0,1} and {2,3}; the group of the
 * warp issued last goes first (GTO inside), then the oldest group. */
static void test_fetch_groups(void)
{
    fetch_groups_register();
    fetch_groups_register(); /* idempotent */
    policy *p = policy_new("fetch_groups:2", NULL);
    g_assert_nonnull(p);
    g_assert_null(policy_new("fetch_groups:0", NULL));
    policy_warp w[4];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < 4; i++) {
        w[i].id = i;
        w[i].age = i;
        w[i].ready = true;
        w[i].last_issue = POLICY_NEVER_ISSUED;
    }
    w[2].last_issue = 10;
    w[0].last_issue = 5;
    unsigned out[4];
    static const unsigned all[] = {2, 3, 0, 1}, no2[] = {3, 0, 1}, grp0[] = {0, 1};
    g_assert_cmpuint(policy_order(p, w, 4, 11, out), ==, 4);
    g_assert_cmpmem(out, sizeof all, all, sizeof all);
    w[2].ready = false;
    g_assert_cmpuint(policy_order(p, w, 4, 11, out), ==, 3);
    g_assert_cmpmem(out, sizeof no2, no2, sizeof no2);
    w[3].ready = false; /* the current group all stalled: the oldest group */
    g_assert_cmpuint(policy_order(p, w, 4, 11, out), ==, 2);
    g_assert_cmpmem(out, sizeof grp0, grp0, sizeof grp0);
    policy_free(p);
}

/* 2LVL-LRR: groups of 2 over 6 warps; warp 2 (group 1) issued last: warp 3, then 2 (round robin
 * inside the group), then group 2 (4, 5), then group 0 (0, 1); with group 1 stalled, group 2 first. */
static void test_fetch_groups_lrr(void)
{
    fetch_groups_register();
    policy *p = policy_new("fetch_groups_lrr:2", NULL);
    g_assert_nonnull(p);
    g_assert_null(policy_new("fetch_groups_lrr:0", NULL));
    policy_warp w[6];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < 6; i++) {
        w[i].id = i;
        w[i].age = i;
        w[i].ready = true;
        w[i].last_issue = POLICY_NEVER_ISSUED;
    }
    w[2].last_issue = 10;
    w[4].last_issue = 5;
    unsigned out[6];
    static const unsigned all[] = {3, 2, 4, 5, 0, 1}, stalled[] = {4, 5, 0, 1};
    g_assert_cmpuint(policy_order(p, w, 6, 11, out), ==, 6);
    g_assert_cmpmem(out, sizeof all, all, sizeof all);
    w[2].ready = w[3].ready = false;
    g_assert_cmpuint(policy_order(p, w, 6, 11, out), ==, 4);
    g_assert_cmpmem(out, sizeof stalled, stalled, sizeof stalled);
    policy_free(p);
    p = policy_new("fetch_groups_lrr", NULL); /* default: groups of 8 */
    g_assert_nonnull(p);
    policy_free(p);
}

/* ---- UT-4 ------------------------------------------------------------------------------------ */

typedef struct {
    unsigned n, warp;
    uint64_t line;
} hit_rec;

static void rec_hit(void *self, unsigned warp, uint64_t line, uint64_t cycle)
{
    (void)cycle;
    hit_rec *r = self;
    r->n++;
    r->warp = warp;
    r->line = line;
}

/* vta.warps = 0 (the default): the partitions follow the SM's warp slots the testbench gives; a
 * warps setting is kept. */
static void test_vta_warps(void)
{
    block_dut d = block_dut_new(&vta_desc, make_vta, "evict", NULL, NULL, true);
    vta *v = harness_block(d.h);
    g_assert_cmpuint(v->warps, ==, 48);
    vta_set_warps(v, 32);
    g_assert_cmpuint(v->warps, ==, 32);
    vta_insert(v, 40, 7); /* no partition 40 any more: a foreign eviction */
    g_assert_cmpuint(block_stat(&d, VTA_STAT_FOREIGN), ==, 1);
    harness_free(d.h);
    const char *set[] = {"warps=3", NULL};
    d = block_dut_new(&vta_desc, make_vta, "evict", set, NULL, true);
    v = harness_block(d.h);
    vta_set_warps(v, 32);
    g_assert_cmpuint(v->warps, ==, 3);
    harness_free(d.h);
}

static void test_ut4_vta(void)
{
    g_assert_cmpuint(vta_tag_bits(48, 128, 2), ==, 40);
    g_assert_cmpuint(vta_wid_bits(32), ==, 5);
    g_assert_cmpuint(vta_wid_bytes(32, 256), ==, 160);
    const char *set[] = {"warps=32", NULL};
    block_dut d = block_dut_new(&vta_desc, make_vta, "evict", set, NULL, false);
    hit_rec r = {0};
    static const vta_hit_if stub = {rec_hit};
    harness_stub(d.h, "hit", &stub, &r);
    harness_step(d.h);
    vta *v = harness_block(d.h);
    g_assert_cmpuint(cache_tags_config(v->part[0])->sets, ==, 2); /* 16 EPW / 8 ways */
    g_assert_cmpuint(v->warps * v->epw, ==, 512);
    g_assert_cmpfloat_with_epsilon(vta_area_mm2(v, 1), 0.026, 1e-12);
    g_assert_cmpfloat_with_epsilon(vta_area_mm2(v, 30), 0.78, 1e-12);
    const l1_evict_if *ev = d.m;
    const l1_access_if *ac = harness_export(d.h, "access").methods;
    cache_eviction e = {.line_addr = 0x1234, .state = CACHE_LINE_VALID, .meta = 7};
    ev->evicted(d.self, &e);
    ac->access(d.self, 9, 0x1234 * 128, CACHE_MISS); /* another warp: no hit */
    g_assert_cmpuint(r.n, ==, 0);
    ac->access(d.self, 7, 0x1234 * 128 + 64, CACHE_HIT); /* a hit in the L1 is not probed */
    g_assert_cmpuint(r.n, ==, 0);
    ac->access(d.self, 7, 0x1234 * 128 + 64, CACHE_MISS);
    g_assert_cmpuint(r.n, ==, 1);
    g_assert_cmpuint(r.warp, ==, 7);
    g_assert_cmpuint(r.line, ==, 0x1234);
    ac->access(d.self, 7, 0x1234 * 128, CACHE_MISS); /* kept: hits again */
    g_assert_cmpuint(r.n, ==, 2);
    /* LRU within a set: 8 more even lines of warp 7 (set 0) push 0x1234 out */
    for (unsigned i = 1; i <= 8; i++) {
        e.line_addr = 0x1234 + 2 * i;
        ev->evicted(d.self, &e);
    }
    ac->access(d.self, 7, 0x1234 * 128, CACHE_MISS);
    g_assert_cmpuint(r.n, ==, 2);
    ac->access(d.self, 7, (0x1234 + 2) * 128, CACHE_MISS);
    g_assert_cmpuint(r.n, ==, 3);
    g_assert_cmpuint(block_stat(&d, VTA_STAT_HITS), ==, 3);
    g_assert_cmpuint(block_stat(&d, VTA_STAT_INSERTS), ==, 9);
    g_assert_cmpuint(block_stat(&d, VTA_STAT_PROBES), ==, 5);
    harness_free(d.h);
    /* invalidate_on_hit: the second miss finds nothing */
    const char *set2[] = {"invalidate_on_hit=true", NULL};
    d = block_dut_new(&vta_desc, make_vta, "evict", set2, NULL, true);
    v = harness_block(d.h);
    vta_insert(v, 3, 99);
    g_assert_true(vta_probe(v, 3, 99));
    g_assert_false(vta_probe(v, 3, 99));
    harness_free(d.h);
}

/* ---- the scoring (UT-2, UT-3) ---------------------------------------------------------------- */

typedef struct {
    block_dut d;
    ccws *c;
    const vta_hit_if *hit;
    const warp_events_if *ev;
    const instr_issued_if *iss;
} lss;

static lss lss_new(const char *const *set, unsigned warps, const char *vcd)
{
    lss l;
    l.d = block_dut_new(&ccws_desc, make_ccws, "veto", set, vcd, true);
    l.c = harness_block(l.d.h);
    l.hit = harness_export(l.d.h, "vta_hit").methods;
    l.ev = harness_export(l.d.h, "events").methods;
    l.iss = harness_export(l.d.h, "issued").methods;
    for (unsigned w = 0; w < warps; w++)
        l.ev->warp_start(l.d.self, w, 0, 0);
    return l;
}

static void issue_n(const lss *l, unsigned n)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    for (unsigned i = 0; i < n; i++)
        l->iss->issued(l->d.self, &it);
}

static uint64_t mask(const unsigned *ws, unsigned n)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < n; i++)
        m |= 1ull << ws[i];
    return m;
}

/* veto() for warp w with the given flags at cycle */
static bool veto(const lss *l, unsigned w, uint32_t flags, uint64_t cycle)
{
    policy_warp pw;
    memset(&pw, 0, sizeof pw);
    pw.id = w;
    pw.ready = true;
    pw.flags = flags;
    return ((const issue_veto_if *)l->d.m)->veto(l->d.self, &pw, 1, 0, cycle);
}

static void test_ut2_walkthrough(void)
{
    lss l = lss_new(NULL, 4, NULL);
    ccws *c = l.c;
    /* T0: all at base: 100/200/300/400, nobody barred (equality allowed) */
    g_assert_cmpuint(ccws_cutoff(c), ==, 400);
    g_assert_cmphex(ccws_barred(c, 10), ==, 0);
    /* T1: hits/insts = 1/16 -> LLDS 200 to W2 (a hit in cycle 20 counts from cycle 21): W2,W0,W1,W3
     * -> 200/300/400/500: W3 barred */
    issue_n(&l, 16);
    l.hit->hit(l.d.self, 2, 0, 20);
    g_assert_cmpuint(ccws_score(c, 2, 20), ==, 100);
    g_assert_cmphex(ccws_barred(c, 20), ==, 0);
    g_assert_cmpuint(ccws_score(c, 2, 21), ==, 200);
    g_assert_cmphex(ccws_barred(c, 21), ==, mask((unsigned[]){3}, 1));
    g_assert_true(veto(&l, 3, POLICY_F_MEM | POLICY_F_LOAD, 21));
    g_assert_false(veto(&l, 0, POLICY_F_MEM | POLICY_F_LOAD, 21));
    g_assert_false(veto(&l, 3, 0, 21));                             /* its ALU instruction issues */
    g_assert_false(veto(&l, 3, POLICY_F_MEM | POLICY_F_STORE, 21)); /* and its stores (gate=loads) */
    /* T2: 2/32 -> LLDS 200 to W0 while W2 is at 190: W0,W2,W1,W3 -> 200/390/490/590: W1, W3 */
    issue_n(&l, 16);
    l.hit->hit(l.d.self, 0, 0, 30);
    g_assert_cmpuint(ccws_score(c, 2, 31), ==, 190);
    g_assert_cmphex(ccws_barred(c, 31), ==, mask((unsigned[]){1, 3}, 2));
    /* decay: W0 back at base 100 cycles after its rise (W2 10 cycles before): T3 */
    g_assert_cmphex(ccws_barred(c, 130), ==, mask((unsigned[]){3}, 1));
    g_assert_cmpuint(ccws_score(c, 0, 131), ==, 100);
    g_assert_cmpuint(ccws_score(c, 2, 131), ==, 100);
    g_assert_cmphex(ccws_barred(c, 131), ==, 0);
    /* T4: W2 finishes: cutoff 300; 3/48 -> LLDS 150 to W0: 150/250/350: W3 barred */
    l.ev->warp_end(l.d.self, 2, 0, 199);
    g_assert_cmpuint(ccws_cutoff(c), ==, 300);
    issue_n(&l, 16);
    l.hit->hit(l.d.self, 0, 0, 200);
    g_assert_cmpuint(ccws_llds(c, 201), ==, 150);
    g_assert_cmpuint(ccws_score(c, 0, 201), ==, 150);
    g_assert_cmphex(ccws_barred(c, 201), ==, mask((unsigned[]){3}, 1));
    g_assert_cmpuint(block_stat(&l.d, CCWS_STAT_VTA_HITS), ==, 3);
    g_assert_cmpuint(block_stat(&l.d, CCWS_STAT_STRIKES), ==, 1);
    harness_free(l.d.h);
}

static void test_ut3_full_size(void)
{
    /* ratio 0.01: LLDS 256; prefixes 256, 356 .. 3156 (30 warps) <= 3200: the 2 youngest barred */
    lss l = lss_new(NULL, 32, NULL);
    g_assert_cmpuint(ccws_cutoff(l.c), ==, 3200);
    issue_n(&l, 100);
    l.hit->hit(l.d.self, 5, 0, 1000);
    g_assert_cmpuint(ccws_score(l.c, 5, 1001), ==, 256);
    g_assert_cmphex(ccws_barred(l.c, 1001), ==, mask((unsigned[]){30, 31}, 2));
    g_assert_cmphex(ccws_barred(l.c, 1056), ==, mask((unsigned[]){30, 31}, 2));
    g_assert_cmphex(ccws_barred(l.c, 1057), ==, mask((unsigned[]){31}, 1));
    g_assert_cmphex(ccws_barred(l.c, 1156), ==, mask((unsigned[]){31}, 1));
    g_assert_cmphex(ccws_barred(l.c, 1157), ==, 0); /* 156 cycles after the score rose */
    harness_free(l.d.h);
    /* ratio 1/8: LLDS 3200: only that warp may issue loads (scores unbounded) */
    const char *wide[] = {"lls_max=100000", NULL};
    l = lss_new(wide, 32, NULL);
    issue_n(&l, 8);
    l.hit->hit(l.d.self, 5, 0, 10);
    g_assert_cmpuint(ccws_score(l.c, 5, 11), ==, 3200);
    g_assert_cmphex(ccws_barred(l.c, 11), ==, 0xffffffffull & ~(1ull << 5));
    /* ratio > 1/8 (2/8): its own prefix exceeds the cutoff: all 32 barred */
    l.hit->hit(l.d.self, 5, 0, 10);
    g_assert_cmpuint(ccws_score(l.c, 5, 11), ==, 6400);
    g_assert_cmphex(ccws_barred(l.c, 11), ==, 0xffffffffull);
    harness_free(l.d.h);
    /* a 10-bit score (1023) bars at most 31 - floor((3200 - 1023) / 100) = 10 warps */
    l = lss_new(NULL, 32, NULL);
    issue_n(&l, 8);
    l.hit->hit(l.d.self, 0, 0, 10);
    g_assert_cmpuint(ccws_score(l.c, 0, 11), ==, 1023);
    g_assert_cmpuint(__builtin_popcountll(ccws_barred(l.c, 11)), ==, 10);
    g_assert_cmphex(ccws_barred(l.c, 11), ==, 0xffc00000ull); /* warps 22 .. 31 */
    harness_free(l.d.h);
}

/* General rule of UT-3: one warp at S, the others at base, N warps: barred = N - 1 - floor((N·BASE -
 * S) / BASE) for BASE < S <= N·BASE; swept over N and S through the scoring (LLDS = S exactly:
 * hits * 8 * N * 100 / insts with insts chosen). */
static void test_ut3_general(void)
{
    const char *wide[] = {"lls_max=100000", NULL};
    for (unsigned n = 2; n <= 32; n += 6)
        for (unsigned s = 150; s <= n * 100; s += 250) {
            lss l = lss_new(wide, n, NULL);
            /* insts so that 8 * n * 100 / insts = s: insts = 800 n / s when it divides */
            if ((800u * n) % s) {
                harness_free(l.d.h);
                continue;
            }
            issue_n(&l, 800u * n / s);
            l.hit->hit(l.d.self, 0, 0, 5);
            g_assert_cmpuint(ccws_score(l.c, 0, 6), ==, s);
            unsigned want = n - 1 - (n * 100 - s) / 100;
            g_assert_cmpuint(__builtin_popcountll(ccws_barred(l.c, 6)), ==, want);
            harness_free(l.d.h);
        }
}

/* Options: ties by warp id, cmp=ge, update=set. */
static void test_options(void)
{
    /* ge: at base the sum reaches the cutoff with the last warp: it is barred */
    const char *ge[] = {"cmp=ge", NULL};
    lss l = lss_new(ge, 4, NULL);
    g_assert_cmphex(ccws_barred(l.c, 5), ==, mask((unsigned[]){3}, 1));
    harness_free(l.d.h);
    /* tie=wid vs age: warps started in the order 3, 2, 1, 0 (3 oldest); W1 elevated to 200: the last
     * in the stack is the youngest (0) by age, the highest id (3) by wid */
    const char *wid[] = {"tie=wid", NULL};
    for (unsigned k = 0; k < 2; k++) {
        l = lss_new(k ? wid : NULL, 0, NULL);
        for (int w = 3; w >= 0; w--)
            l.ev->warp_start(l.d.self, (unsigned)w, 0, 0);
        issue_n(&l, 16);
        l.hit->hit(l.d.self, 1, 0, 10);
        g_assert_cmphex(ccws_barred(l.c, 11), ==, mask((unsigned[]){k ? 3u : 0u}, 1));
        harness_free(l.d.h);
    }
    /* update=set: a second hit with a lower LLDS lowers the score (max keeps it) */
    const char *set[] = {"update=set", NULL};
    for (unsigned k = 0; k < 2; k++) {
        l = lss_new(k ? set : NULL, 4, NULL);
        issue_n(&l, 8);
        l.hit->hit(l.d.self, 1, 0, 10); /* 1/8 * 8 * 400 = 400 */
        issue_n(&l, 24);
        l.hit->hit(l.d.self, 1, 0, 10); /* 2/32 * 8 * 400 = 200 */
        g_assert_cmpuint(ccws_score(l.c, 1, 11), ==, k ? 200 : 400);
        harness_free(l.d.h);
    }
    /* gate=stores: a barred warp's store is struck too */
    const char *st[] = {"gate=stores", NULL};
    l = lss_new(st, 4, NULL);
    issue_n(&l, 16);
    l.hit->hit(l.d.self, 2, 0, 20);
    g_assert_true(veto(&l, 3, POLICY_F_MEM | POLICY_F_STORE, 21));
    harness_free(l.d.h);
}

/* The barred set's life (ccws_next_change): random VTA hits, then from cycles at or after the last
 * hit, the barred set of every cycle before the bound equals the first one's (checked cycle by
 * cycle); the bound is tight where the decay alone changes the set (within the window checked, the
 * set differs at the bound or a score reaches base there). Every option that orders the stack. */
static void test_next_change(void)
{
    const char *const opts[][3] = {
        {NULL}, {"cmp=ge", NULL}, {"tie=wid", NULL}, {"update=set", NULL}, {"cmp=ge", "tie=wid", NULL}};
    GRand *r = g_rand_new_with_seed(18);
    unsigned checked = 0, tight = 0;
    for (unsigned o = 0; o < G_N_ELEMENTS(opts); o++)
        for (unsigned k = 0; k < 12; k++) {
            unsigned n = (unsigned)g_rand_int_range(r, 2, 17);
            lss l = lss_new(opts[o], n, NULL);
            issue_n(&l, (unsigned)g_rand_int_range(r, 8, 120));
            uint64_t cycle = 10;
            for (unsigned h = (unsigned)g_rand_int_range(r, 1, 7); h; h--) {
                cycle += (uint64_t)g_rand_int_range(r, 0, 120);
                l.hit->hit(l.d.self, (unsigned)g_rand_int_range(r, 0, (int)n), 0, cycle);
                if (g_rand_int_range(r, 0, 4) == 0)
                    issue_n(&l, (unsigned)g_rand_int_range(r, 1, 40));
            }
            for (unsigned q = 0; q < 8; q++) {
                uint64_t t = cycle + (q ? (uint64_t)g_rand_int_range(r, 0, 900) : 0);
                uint64_t b = ccws_barred(l.c, t), nc = ccws_next_change(l.c, t);
                g_assert_cmpuint(nc, >, t);
                uint64_t end = MIN(nc, t + 1200);
                for (uint64_t u = t + 1; u < end; u++)
                    g_assert_cmphex(ccws_barred(l.c, u), ==, b);
                checked++;
                if (nc < t + 1200) {
                    bool at_base = false;
                    for (unsigned w = 0; w < n; w++)
                        at_base |= ccws_score(l.c, w, nc) == 100 && ccws_score(l.c, w, nc - 1) > 100;
                    g_assert_true(ccws_barred(l.c, nc) != b || at_base || nc == cycle + 1);
                    tight++;
                }
            }
            harness_free(l.d.h);
        }
    g_assert_cmpuint(checked, ==, 5 * 12 * 8);
    g_assert_cmpuint(tight, >, 100); /* (the windows saw bounds, not only "never") */
    g_rand_free(r);
}

/* A held answer: after asking the veto about candidates in a cycle, until() bounds the answers'
 * life and repeat() counts for skipped cycles exactly what asking in each of them counts (the same
 * block state twice: asked every cycle, then asked once per held answer and repeated). */
static void hold_run(bool hold, uint64_t *stats, uint64_t *per_warp)
{
    lss l = lss_new(NULL, 8, NULL);
    const issue_veto_if *v = l.d.m;
    issue_n(&l, 16);
    l.hit->hit(l.d.self, 2, 0, 20);
    issue_n(&l, 16);
    l.hit->hit(l.d.self, 5, 0, 60);
    policy_warp pw[8];
    memset(pw, 0, sizeof pw);
    for (unsigned w = 0; w < 8; w++)
        pw[w] = (policy_warp){.id = w, .ready = true, .flags = w % 3 ? POLICY_F_MEM | POLICY_F_LOAD : 0};
    unsigned asked[8] = {0, 1, 2, 3, 4, 5, 6, 7}, alu[] = {0, 3, 6};
    g_assert_cmpuint(v->until(l.d.self, pw, 8, alu, 3, 61), ==, UINT64_MAX); /* no load asked */
    unsigned spans = 0;
    for (uint64_t t = 61; t < 400;) {
        for (unsigned i = 0; i < 8; i++)
            v->veto(l.d.self, pw, 8, i, t);
        uint64_t u = hold ? MIN(v->until(l.d.self, pw, 8, asked, 8, t), 400) : t + 1;
        g_assert_cmpuint(u, >, t);
        if (u > t + 1)
            v->repeat(l.d.self, pw, 8, asked, 8, t + 1, u - t - 1);
        t = u;
        spans++;
    }
    if (hold) /* the scores decay until cycle 60 + LLDS - 100: a few spans, then one to the end */
        g_assert_cmpuint(spans, <, 100);
    for (unsigned st = CCWS_STAT_STRIKES; st <= CCWS_STAT_BARRED_WARP_CYCLES; st++)
        stats[st] = block_stat(&l.d, st);
    for (unsigned w = 0; w < 8; w++)
        per_warp[w] = ccws_warp_strikes(l.c, w);
    harness_free(l.d.h);
}

static void test_hold_repeat(void)
{
    uint64_t s1[CCWS_STAT_BARRED_WARP_CYCLES + 1] = {0}, s2[CCWS_STAT_BARRED_WARP_CYCLES + 1] = {0}, w1[8],
                                               w2[8];
    hold_run(false, s1, w1);
    hold_run(true, s2, w2);
    g_assert_cmpuint(s1[CCWS_STAT_STRIKES], >, 0);
    for (unsigned st = CCWS_STAT_STRIKES; st <= CCWS_STAT_BARRED_WARP_CYCLES; st++)
        g_assert_cmpuint(s1[st], ==, s2[st]);
    for (unsigned w = 0; w < 8; w++)
        g_assert_cmpuint(w1[w], ==, w2[w]);
}

/* The traced state, cycle by cycle: the score of W2 rises the cycle after its hit and decays by 1 per
 * cycle; the cutoff; can_load loses W3 while W2 is above 100. */
static void test_traced(void)
{
    char *path = block_vcd_path();
    lss l = lss_new(NULL, 4, path);
    issue_n(&l, 16);
    harness_run(l.d.h, 5);
    uint64_t c0 = gsc_cycle();
    l.hit->hit(l.d.self, 2, 0, c0);
    harness_run(l.d.h, 106);
    harness_free(l.d.h);
    vcd *v = block_vcd_load(path);
    g_assert_cmpuint(block_vcd_at(v, "dut.cutoff", c0), ==, 400);
    g_assert_cmpuint(block_vcd_at(v, "dut.lls_2", c0), ==, 100); /* the hit counts from c0 + 1 */
    for (unsigned d = 0; d <= 100; d += 25) {
        g_assert_cmpuint(block_vcd_at(v, "dut.lls_2", c0 + 1 + d), ==, 200 - d);
        g_assert_cmpuint(block_vcd_at(v, "dut.lls_0", c0 + 1 + d), ==, 100);
        g_assert_cmphex(block_vcd_at(v, "dut.can_load", c0 + 1 + d), ==, d < 100 ? 0x7 : 0xf);
    }
    vcd_free(v);
}

/* ---- l1pc: the per-load counts and the offline Belady / LRU replay ---------------------------- */

static void *make_l1pc(blk_ctx *c, gsc_module *p, const char *n)
{
    return l1pc_new(c, p, n);
}

/* UT-1's streams replayed: fully associative, 4 lines (1 set x 4 ways). Round robin (A-D, E-H, I-L,
 * then again) under LRU misses all 24; Belady keeps A, B and C through the first pass (their next use
 * is the soonest) and rotates the fourth way, which holds L at the end; the second pass hits A, B, C
 * and, evicting only lines never used again, L: 12 + 8 = 20 misses. The cache-aware order (each
 * warp's lines twice in a row) misses 12 under both. */
static void test_belady_ut1(void)
{
    uint64_t rr[24], aware[24];
    for (unsigned i = 0; i < 24; i++) {
        unsigned w = i % 12 / 4, k = i % 4; /* round robin: W0 W1 W2 W0 W1 W2 */
        rr[i] = (uint64_t)(10 + w * 4 + k) << 16;
        w = i / 8, k = i % 4; /* cache-aware: W0 W0 W1 W1 W2 W2 */
        aware[i] = (uint64_t)(10 + w * 4 + k) << 16;
    }
    l1pc_replay_result r = l1pc_replay_stream(rr, 24, 1, 4);
    g_assert_cmpuint(r.accesses, ==, 24);
    g_assert_cmpuint(r.lru_misses, ==, 24);
    g_assert_cmpuint(r.opt_misses, ==, 20);
    r = l1pc_replay_stream(aware, 24, 1, 4);
    g_assert_cmpuint(r.lru_misses, ==, 12);
    g_assert_cmpuint(r.opt_misses, ==, 12);
    /* two sets: lines of set 0 and set 1 do not evict each other (2 ways each: A B A B fit) */
    uint64_t two[8] = {1u << 16 | 0, 2u << 16 | 1, 3u << 16 | 0, 4u << 16 | 1,
                       1u << 16 | 0, 2u << 16 | 1, 3u << 16 | 0, 4u << 16 | 1};
    r = l1pc_replay_stream(two, 8, 2, 2);
    g_assert_cmpuint(r.lru_misses, ==, 4);
    g_assert_cmpuint(r.opt_misses, ==, 4);
    r = l1pc_replay_stream(two, 8, 2, 1); /* one way per set: every access misses under both */
    g_assert_cmpuint(r.lru_misses, ==, 8);
    g_assert_cmpuint(r.opt_misses, ==, 8);
}

/* The per-load classification (l1pc_record, what the access export does with ldst's current load):
 * a miss reserves the line for the warp with the lanes it serves; a hit by the same warp is
 * intra-warp, intra-thread when it shares a lane with the lanes kept; another warp's hit is
 * inter-warp and adds no lanes; a merge is neither; a refusal is not counted. */
static void test_l1pc_record(void)
{
    block_dut d = block_dut_new(&l1pc_desc, make_l1pc, "access", NULL, NULL, true);
    l1pc *p = harness_block(d.h);
    l1pc_set_geometry(p, 4, 2);
    l1pc_record(p, 0, 10, 3, 0x0000ffff, CACHE_MISS, 3, 5, 100, 1);
    l1pc_record(p, 0, 11, 3, 0x00000001, CACHE_HIT, 3, 5, 100, 1); /* lane 0 again: intra-thread */
    l1pc_record(p, 0, 11, 3, 0xffff0000, CACHE_HIT, 3, 5, 100, 1); /* other lanes: inter-thread */
    l1pc_record(p, 0, 11, 3, 0x00010000, CACHE_HIT, 3, 5, 100, 1); /* lane 16 kept since: intra-thread */
    l1pc_record(p, 0, 12, 4, 0x00000001, CACHE_HIT, 3, 5, 100, 1); /* warp 4 on warp 3's line */
    l1pc_record(p, 0, 12, 4, 0x00000001, CACHE_HIT_RESERVED, 3, 5, 100, 1);
    l1pc_record(p, 0, 12, 4, 0x00000001, CACHE_RESERVATION_FAIL, 3, 5, 100, 1);
    const l1pc_counts *a = l1pc_get(p, 0, 10), *b = l1pc_get(p, 0, 11), *c = l1pc_get(p, 0, 12);
    g_assert_nonnull(a);
    g_assert_nonnull(b);
    g_assert_nonnull(c);
    g_assert_cmpuint(a->misses, ==, 1);
    g_assert_cmpuint(b->hits, ==, 3);
    g_assert_cmpuint(b->intra, ==, 3);
    g_assert_cmpuint(b->intra_thread, ==, 2);
    g_assert_cmpuint(c->hits, ==, 1);
    g_assert_cmpuint(c->inter, ==, 1);
    g_assert_cmpuint(c->intra, ==, 0);
    g_assert_cmpuint(c->merged, ==, 1);
    g_assert_null(l1pc_get(p, 0, 13));
    g_assert_cmpuint(block_stat(&d, L1PC_STAT_HITS), ==, 4);
    g_assert_cmpuint(block_stat(&d, L1PC_STAT_MISSES), ==, 1);
    g_assert_cmpuint(block_stat(&d, L1PC_STAT_MERGED), ==, 1);
    GArray *k = l1pc_keys(p);
    g_assert_cmpuint(k->len, ==, 3);
    g_assert_cmpuint(g_array_index(k, uint64_t, 0), ==, 10);
    g_array_free(k, TRUE);
    /* no ldst bound: an access is counted as unattributed, not guessed */
    ((const l1_access_if *)d.m)->access(d.self, 3, 100 * 128, CACHE_HIT);
    g_assert_cmpuint(block_stat(&d, L1PC_STAT_UNATTRIBUTED), ==, 1);
    g_assert_cmpuint(block_stat(&d, L1PC_STAT_HITS), ==, 4);
    harness_free(d.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/ccws/ut1-toy-cache", test_ut1_toy_cache);
    g_test_add_func("/ccws/swl-barrier", test_swl_barrier);
    g_test_add_func("/ccws/belady-ut1", test_belady_ut1);
    harness_test_add("/ccws/l1pc-record", test_l1pc_record);
    g_test_add_func("/ccws/fetch-groups", test_fetch_groups);
    g_test_add_func("/ccws/fetch-groups-lrr", test_fetch_groups_lrr);
    harness_test_add("/ccws/ut2-walkthrough", test_ut2_walkthrough);
    harness_test_add("/ccws/ut3-full-size", test_ut3_full_size);
    harness_test_add("/ccws/ut3-general", test_ut3_general);
    harness_test_add("/ccws/ut4-vta", test_ut4_vta);
    harness_test_add("/ccws/next-change", test_next_change);
    harness_test_add("/ccws/hold-repeat", test_hold_repeat);
    harness_test_add("/ccws/vta-warps", test_vta_warps);
    harness_test_add("/ccws/options", test_options);
    harness_test_add("/ccws/traced", test_traced);
    return g_test_run();
}
