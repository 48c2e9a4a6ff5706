/* test_daws — the `daws` block (divergence-aware warp scheduling; docs/ccws.md) alone in the harness,
 * driven through its ports (warp events, issued instructions, the arbiter's veto), exact to the
 * CCWS/DAWS/VWS spec's unit tests:
 *  - UT-5: the Fig. 4.1 toy (4-line cache, kAssocFactor 1): warp 0 enters with 4 lanes (4 lines),
 *    warp 1 with 3 is barred (4 + 3 > 4); when warp 0 is down to one lane (1 + 3 = 4) it proceeds;
 *    with cmp=ge it stays barred;
 *  - UT-6: the Fig. 4.5 threshold (EffCacheSize 56): 32 / 48 admitted, the third warp's 64 barred,
 *    then 16 / 32 / 48 all admitted;
 *  - UT-7: the footprint sums (P1 diverged; P2, P3 a converged group; P4 diverged + P5 converged:
 *    20 lanes 42 lines, 1 lane 3, 2 lanes 6); the baseline L1D's 153.6 lines admit 4 warps of one
 *    diverged 32-lane load (the 5th barred) and 25 of three converged groups (the 26th barred); a
 *    warp predicting more than the L1D turns throttling off;
 *  - the per-warp rules: inner loops keep the inner loop's PC when the outer loop iterates, the entry
 *    is cleared on leaving the outermost loop (exit=any: on leaving the inner one), a barrier clears
 *    the prediction, warps outside loops are predicted on the next loop in program order, hold keeps
 *    a warp admitted into its loop, cf=off assumes 32 lanes, mode=profile profiles and never vetoes;
 *  - the traced state (predictions, eff, total, can_load, barred) in a VCD, cycle by cycle. */
#include <glib.h>
#include <string.h>

#include "kernels/passes/daws_pass.h"
#include "kernels/frontend/ptx_parse.h"
#include "models/ccws/daws.h"
#include "models/ccws/l1pc.h"
#include "models/lib/policy.h"
#include "models/sm/arbiter.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "tests/sm/block_test.h"

/* Loop 0 (outer): pcs 4..17 (begin 4); loop 1 (inner): pcs 5..13 (begin 5); loads 5..10 in the inner
 * loop, 14 in the outer one; a second loop 2 at pcs 19..21 after them. */
static const char *ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                         ".visible .entry k(.param .u64 pA)\n{\n"
                         ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n"
                         "ld.param.u64 %rd1, [pA];\n" /* 0 */
                         "mov.u64 %rd2, %rd1;\n"      /* 1 */
                         "mov.u64 %rd3, %rd1;\n"      /* 2 */
                         "mov.u32 %r1, 0;\n"          /* 3 */
                         "OUTER:\n"
                         "mov.u32 %r2, 0;\n" /* 4 */
                         "INNER:\n"
                         "ld.global.u32 %r3, [%rd1];\n"     /* 5 */
                         "ld.global.u32 %r4, [%rd2];\n"     /* 6 */
                         "ld.global.u32 %r5, [%rd2+4];\n"   /* 7 */
                         "ld.global.u32 %r6, [%rd3];\n"     /* 8 */
                         "ld.global.u32 %r7, [%rd3+8];\n"   /* 9 */
                         "ld.global.u32 %r8, [%rd2+128];\n" /* 10 */
                         "add.s32 %r2, %r2, 1;\n"           /* 11 */
                         "setp.lt.s32 %p1, %r2, 4;\n"       /* 12 */
                         "@%p1 bra INNER;\n"                /* 13 */
                         "ld.global.u32 %r9, [%rd1+256];\n" /* 14 */
                         "add.s32 %r1, %r1, 1;\n"           /* 15 */
                         "setp.lt.s32 %p2, %r1, 4;\n"       /* 16 */
                         "@%p2 bra OUTER;\n"                /* 17 */
                         "mov.u32 %r1, 0;\n"                /* 18 */
                         "L2:\n"
                         "ld.global.u32 %r10, [%rd1+512];\n" /* 19 */
                         "add.s32 %r1, %r1, 1;\n"            /* 20 */
                         "setp.lt.s32 %p3, %r1, 4;\n"        /* 21 */
                         "@%p3 bra L2;\n"                    /* 22 */
                         "ret;\n"                            /* 23 */
                         "}\n";

static ir_module *mod;
static daws_loops *loops;

static void *make_daws(blk_ctx *c, gsc_module *p, const char *n)
{
    return daws_new(c, p, n);
}

typedef struct {
    block_dut d;
    daws *b;
    const warp_events_if *ev;
    const instr_issued_if *iss;
} dut;

static dut dut_new(const char *const *set, unsigned warps, const daws_slct_entry *e, unsigned n,
                   const char *vcd)
{
    dut t;
    t.d = block_dut_new(&daws_desc, make_daws, "veto", set, vcd, true);
    t.b = harness_block(t.d.h);
    t.ev = harness_export(t.d.h, "events").methods;
    t.iss = harness_export(t.d.h, "issued").methods;
    daws_set_loops(t.b, loops);
    daws_load_slct(t.b, e, n);
    for (unsigned w = 0; w < warps; w++)
        t.ev->warp_start(t.d.self, w, 0, 0);
    return t;
}

static uint32_t lanes_mask(unsigned n)
{
    return n >= 32 ? UINT32_MAX : (1u << n) - 1;
}

/* warp w issues pc with n lanes (a load when load) */
static void put(const dut *t, unsigned w, uint32_t pc, unsigned n, bool load)
{
    static issued_t it;
    memset(&it, 0, offsetof(issued_t, lane_space));
    it.warp = (uint16_t)w;
    it.func = 0;
    it.pc = pc;
    it.mask = lanes_mask(n);
    it.cls = load ? IR_CLASS_MEM : IR_CLASS_ALU;
    it.op = load ? IR_OP_LD : IR_OP_ADD;
    it.space = IR_SPACE_GLOBAL;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        it.addr[l] = 4096ull * w + 128ull * l;
    t->iss->issued(t->d.self, &it);
}

static bool veto(const dut *t, unsigned w, uint32_t flags, uint64_t cycle)
{
    policy_warp pw;
    memset(&pw, 0, sizeof pw);
    pw.id = w;
    pw.ready = true;
    pw.flags = flags;
    return ((const issue_veto_if *)t->d.m)->veto(t->d.self, &pw, 1, 0, cycle);
}

#define LOAD (POLICY_F_MEM | POLICY_F_LOAD)

/* the outer loop's lone load: one diverged load at begin 4 (the outer loop) */
static const daws_slct_entry one_div[] = {{0, 4, true, 1, 14}};

static void test_ut5_toy(void)
{
    const char *set[] = {"dut.lines=4", "dut.kassoc=1000", NULL};
    dut t = dut_new(set, 2, one_div, 1, NULL);
    put(&t, 0, 4, 4, false); /* Time0: warp 0 enters with 4 lanes: 4 lines */
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 4);
    put(&t, 0, 14, 4, true);
    put(&t, 1, 4, 3, false); /* Time1: warp 1 with lanes 5, 6, 7: 3 lines, 4 + 3 > 4 */
    g_assert_cmpuint(daws_pred(t.b, 1), ==, 3);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0x2);
    g_assert_true(veto(&t, 1, LOAD, 1));
    g_assert_false(veto(&t, 1, 0, 1)); /* its other instructions issue */
    g_assert_false(veto(&t, 0, LOAD, 1));
    put(&t, 0, 4, 1, false); /* Time2: lane 0 alone: 1 + 3 = 4 <= 4 */
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 1);
    g_assert_cmphex(daws_barred(t.b, 2), ==, 0);
    g_assert_false(veto(&t, 1, LOAD, 2));
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_STRIKES), ==, 1);
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_PREDICTIONS), ==, 3);
    harness_free(t.d.h);
    /* cmp=ge: equality is barred */
    const char *ge[] = {"dut.lines=4", "dut.kassoc=1000", "dut.cmp=ge", NULL};
    t = dut_new(ge, 2, one_div, 1, NULL);
    put(&t, 0, 4, 1, false);
    put(&t, 1, 4, 3, false);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0x2);
    harness_free(t.d.h);
}

/* UT-5's replay: the toy's accesses (rows t0 64, t1-t3 32, t4 0, t5-t7 32 of float A, 32 per line;
 * lanes in lane order, one loop iteration per scheduling step, the warps taking turns) through a
 * 4-line fully associative LRU cache. The steps are scheduled by the block: a warp issues its loop's
 * first instruction with its lanes, then its load unless the block strikes it (then the other warp
 * takes the step). DAWS order: 256 accesses, 8 misses (the compulsory ones), warp 1's first load
 * right after warp 0's 33rd; naive alternation from the start: 225 misses, 31 hits. */
static unsigned ut5_replay(bool daws_on, unsigned *w1_first)
{
    const char *set[] = {"dut.lines=4", "dut.kassoc=1000", NULL};
    dut t = dut_new(set, 2, one_div, 1, NULL);
    static const unsigned rows[8] = {64, 32, 32, 32, 0, 32, 32, 32};
    unsigned start[8], iter[2] = {0, 0}, turn = 0;
    for (unsigned l = 0, a = 0; l < 8; a += rows[l], l++)
        start[l] = a;
    bool entered[2] = {false, false};
    GArray *st = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    *w1_first = UINT32_MAX;
    for (uint64_t cycle = 1; iter[0] < 64 || iter[1] < 32; cycle++, turn ^= 1) {
        for (unsigned k = 0; k < 2; k++) {
            unsigned w = turn ^ k, lanes = 0;
            for (unsigned l = 4 * w; l < 4 * w + 4; l++)
                lanes += iter[w] < rows[l];
            if (!lanes)
                continue;
            if (!entered[w]) {
                put(&t, w, 4, lanes, false);
                entered[w] = true;
            }
            if (daws_on && veto(&t, w, LOAD, cycle))
                continue;
            put(&t, w, 14, lanes, true);
            if (w == 1 && *w1_first == UINT32_MAX)
                *w1_first = st->len;
            for (unsigned l = 4 * w; l < 4 * w + 4; l++)
                if (iter[w] < rows[l]) {
                    uint64_t e = (uint64_t)((start[l] + iter[w]) / 32) << 16; /* line; set 0 */
                    g_array_append_val(st, e);
                }
            iter[w]++;
            entered[w] = false;
            break;
        }
    }
    g_assert_cmpuint(st->len, ==, 256);
    l1pc_replay_result r = l1pc_replay_stream((const uint64_t *)(const void *)st->data, st->len, 1, 4);
    g_assert_cmpuint(r.accesses, ==, 256);
    g_array_free(st, TRUE);
    harness_free(t.d.h);
    return (unsigned)r.lru_misses;
}

static void test_ut5_replay(void)
{
    unsigned first;
    g_assert_cmpuint(ut5_replay(true, &first), ==, 8);    /* 248 hits */
    g_assert_cmpuint(first, ==, 32 * 4 + 1);              /* after warp 0's 33rd load (lane 0 alone) */
    g_assert_cmpuint(ut5_replay(false, &first), ==, 225); /* 31 hits */
    g_assert_cmpuint(first, ==, 4);
}

static void test_ut6_threshold(void)
{
    const char *set[] = {"dut.lines=56", "dut.kassoc=1000", NULL};
    dut t = dut_new(set, 3, one_div, 1, NULL);
    put(&t, 0, 4, 32, false);
    put(&t, 1, 4, 16, false);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0); /* 32 / 48 */
    put(&t, 2, 4, 16, false);
    g_assert_cmphex(daws_barred(t.b, 2), ==, 0x4); /* 32 / 48 / 64 */
    put(&t, 0, 4, 16, false);
    g_assert_cmphex(daws_barred(t.b, 3), ==, 0); /* 16 / 32 / 48 */
    g_assert_cmpuint(daws_eff(t.b), ==, 56);
    harness_free(t.d.h);
}

/* UT-7's loop is the inner loop (begin 5) */
static const daws_slct_entry ut7[] = {
    {0, 5, true, 1, 5}, {0, 5, false, 2, 6}, {0, 5, false, 2, 7}, {0, 5, true, 3, 8}, {0, 5, false, 3, 9},
};

static void test_ut7_footprint(void)
{
    dut t = dut_new(NULL, 1, ut7, G_N_ELEMENTS(ut7), NULL);
    g_assert_cmpuint(daws_footprint(t.b, 0, 1, 20), ==, 42);
    g_assert_cmpuint(daws_footprint(t.b, 0, 1, 1), ==, 3);
    g_assert_cmpuint(daws_footprint(t.b, 0, 1, 2), ==, 6);
    g_assert_cmpuint(daws_footprint(t.b, 0, 0, 20), ==, 0); /* the outer loop has no entries */
    g_assert_cmpfloat(daws_eff(t.b), ==, 153.6);
    harness_free(t.d.h);
    /* one diverged 32-lane load per warp: 32, 64, 96, 128 admitted, 160 barred */
    t = dut_new(NULL, 6, one_div, 1, NULL);
    for (unsigned w = 0; w < 6; w++)
        put(&t, w, 4, 32, false);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0x30);
    harness_free(t.d.h);
    /* three converged groups (6 lines per warp): 25 warps admitted (150), the 26th (156) barred */
    static const daws_slct_entry conv3[] = {{0, 4, false, 1, 14}, {0, 4, false, 2, 15}, {0, 4, false, 3, 16}};
    t = dut_new(NULL, 27, conv3, 3, NULL);
    for (unsigned w = 0; w < 27; w++)
        put(&t, w, 4, 32, false);
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 6);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0x3ull << 25);
    harness_free(t.d.h);
    /* a warp predicting more than the L1D (42 > 40 lines): nobody is barred */
    const char *small[] = {"dut.lines=40", NULL};
    t = dut_new(small, 2, ut7, G_N_ELEMENTS(ut7), NULL);
    put(&t, 0, 4, 20, false);
    put(&t, 0, 5, 20, false);
    put(&t, 1, 4, 20, false);
    put(&t, 1, 5, 20, false);
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 42);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0);
    /* counted in the cycles a load is asked about, once each (not where the table is computed: the
     * trace process computes it every cycle) */
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_OVERSIZE), ==, 0);
    g_assert_false(veto(&t, 1, LOAD, 1));
    g_assert_false(veto(&t, 0, LOAD, 1));
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_OVERSIZE), ==, 1);
    g_assert_false(veto(&t, 1, LOAD, 2));
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_OVERSIZE), ==, 2);
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_PEAK_TOTAL), ==, 84);
    harness_free(t.d.h);
}

static void test_rules(void)
{
    /* inner loop 1: 1 diverged group; outer loop 0: a converged and a diverged group (n + 2) */
    static const daws_slct_entry e[] = {{0, 5, true, 1, 5}, {0, 4, false, 2, 14}, {0, 4, true, 3, 14}};
    const char *set[] = {"dut.lines=64", "dut.kassoc=1000", NULL};
    dut t = dut_new(set, 3, e, G_N_ELEMENTS(e), NULL);
    put(&t, 0, 4, 8, false); /* the outer loop, 8 lanes: 8 + 2 */
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 10);
    put(&t, 0, 5, 8, false); /* the inner loop (PC 5 > 4): 8 */
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 8);
    put(&t, 0, 14, 8, true); /* out of the inner loop, still in the outer one: kept */
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 8);
    put(&t, 0, 4, 6, false); /* the outer loop iterates: the inner loop's PC kept, 6 lanes */
    g_assert_cmpuint(t.b->fpt[0].pc, ==, 5);
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 6);
    /* warp 1 outside loops (last at pc 1), 32 lanes: predicted on the next loop in program order
     * (the outer loop: 34) for its own loads; warp 0 at 32: 32 + 34 > 64, barred; warp 2 at 30:
     * 32 + 0 + 30 (warp 1's own prediction does not count for the others) */
    put(&t, 1, 1, 32, false);
    g_assert_cmpuint(daws_pred(t.b, 1), ==, 0);
    put(&t, 0, 5, 32, false);
    put(&t, 2, 5, 30, false);
    g_assert_cmphex(daws_barred(t.b, 1), ==, 0x2);
    g_assert_true(veto(&t, 1, LOAD, 1));
    /* a barrier clears warp 0's prediction */
    static issued_t bar;
    memset(&bar, 0, offsetof(issued_t, lane_space));
    bar.warp = 0, bar.pc = 15, bar.cls = IR_CLASS_WARP, bar.op = IR_OP_BAR, bar.mask = UINT32_MAX;
    t.iss->issued(t.d.self, &bar);
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 0);
    /* leaving the outermost loop clears the entry */
    put(&t, 2, 18, 31, false);
    g_assert_cmpuint(daws_pred(t.b, 2), ==, 0);
    g_assert_cmpuint(t.b->fpt[2].loop, ==, IR_NONE);
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_LOOP_EXITS), ==, 1);
    /* no prediction left: a warp outside loops predicts nothing and is never barred */
    g_assert_cmphex(daws_barred(t.b, 2), ==, 0);
    harness_free(t.d.h);
    /* exit=any: leaving the inner loop clears the entry */
    const char *any[] = {"dut.exit=any", NULL};
    t = dut_new(any, 1, e, G_N_ELEMENTS(e), NULL);
    put(&t, 0, 5, 8, false);
    put(&t, 0, 14, 8, true);
    g_assert_cmpuint(t.b->fpt[0].loop, ==, IR_NONE);
    harness_free(t.d.h);
    /* cf=off: 32 lanes whatever the mask */
    const char *cf[] = {"dut.cf=false", NULL};
    t = dut_new(cf, 1, e, G_N_ELEMENTS(e), NULL);
    put(&t, 0, 5, 3, false);
    g_assert_cmpuint(daws_pred(t.b, 0), ==, 32);
    harness_free(t.d.h);
}

static void test_hold(void)
{
    for (unsigned hold = 0; hold < 2; hold++) {
        const char *set[] = {"dut.lines=56", "dut.kassoc=1000", hold ? "dut.hold=true" : "dut.hold=false",
                             NULL};
        dut t = dut_new(set, 3, one_div, 1, NULL);
        put(&t, 1, 4, 16, false);
        put(&t, 1, 14, 16, true); /* admitted: it loads inside its loop */
        put(&t, 2, 4, 16, false);
        put(&t, 2, 14, 16, true);
        g_assert_cmphex(daws_barred(t.b, 1), ==, 0);
        put(&t, 0, 4, 32, false); /* the oldest enters: 32 / 48 / 64 */
        g_assert_cmphex(daws_barred(t.b, 2), ==, hold ? 0 : 0x4);
        /* a barrier ends the hold */
        static issued_t bar;
        memset(&bar, 0, offsetof(issued_t, lane_space));
        bar.warp = 2, bar.pc = 15, bar.cls = IR_CLASS_WARP, bar.op = IR_OP_BAR, bar.mask = UINT32_MAX;
        t.iss->issued(t.d.self, &bar);
        put(&t, 2, 4, 16, false);
        g_assert_cmphex(daws_barred(t.b, 3), ==, 0x4);
        harness_free(t.d.h);
    }
}

static void test_profile_mode(void)
{
    const char *set[] = {"dut.mode=profile", "dut.prof_lines=4", NULL};
    dut t = dut_new(set, 1, one_div, 1, NULL);
    daws_profile *p = daws_profile_new(loops);
    daws_set_profile(t.b, p);
    put(&t, 0, 14, 32, true); /* 32 lines (one per lane), none seen before */
    put(&t, 0, 14, 2, true);  /* 2 lanes: not an execution counted for divergence; 2 lines, both recent? */
    g_assert_cmpuint(p->pc[0][14].execs, ==, 1);
    g_assert_cmpuint(p->pc[0][14].div_execs, ==, 1);
    g_assert_cmpuint(p->pc[0][14].lines, ==, 34);
    /* the last 4 lines remembered are lanes 28..31's: lanes 0, 1 are not among them */
    g_assert_cmpuint(p->pc[0][14].reused, ==, 0);
    put(&t, 0, 14, 2, true); /* now lanes 0, 1 are recent */
    g_assert_cmpuint(p->pc[0][14].reused, ==, 2);
    put(&t, 0, 4, 32, false);
    g_assert_false(veto(&t, 0, LOAD, 1));
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_PROFILED), ==, 3);
    harness_free(t.d.h);
    daws_profile_free(p);
}

/* a load of warp w at pc: n lanes over `lines` distinct lines from base */
static void put_load(const dut *t, unsigned w, uint32_t pc, unsigned n, unsigned lines, uint64_t base)
{
    static issued_t it;
    memset(&it, 0, offsetof(issued_t, lane_space));
    it.warp = (uint16_t)w, it.pc = pc, it.mask = lanes_mask(n);
    it.cls = IR_CLASS_MEM, it.op = IR_OP_LD, it.space = IR_SPACE_GLOBAL;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        it.addr[l] = base + 128ull * (l % lines);
    t->iss->issued(t->d.self, &it);
}

static void access(const dut *t, unsigned w, uint64_t line, unsigned outcome)
{
    const l1_access_if *a = harness_export(t->d.h, "access").methods;
    a->access(t->d.self, w, line * 128, outcome);
}

/* UT-8: Detected-DAWS's classifiers through the ports. */
static void test_ut8_detected(void)
{
    const char *set[] = {"dut.mode=detected", NULL};
    dut t = dut_new(set, 4, NULL, 0, NULL);
    /* sampling warp: a 2-lane warp does not become the first sampler; a 3-lane one does */
    put(&t, 0, 4, 2, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 4), ==, -1);
    put(&t, 1, 4, 3, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 4), ==, 1);
    g_assert_cmpint(daws_loop_counter(t.b, 0, 4), ==, 0);
    /* divergence counter of pc 14 (active, accesses): (32,20) 1; (3,3) 2: diverged; (2,2) ignored;
     * (16,2) 1: converged; (16,1) 0 */
    put_load(&t, 1, 14, 32, 20, 0);
    g_assert_cmpuint(daws_divcount(t.b, 0, 14), ==, 1);
    put_load(&t, 1, 14, 3, 3, 0);
    g_assert_cmpuint(daws_divcount(t.b, 0, 14), ==, 2);
    put_load(&t, 1, 14, 2, 2, 0);
    g_assert_cmpuint(daws_divcount(t.b, 0, 14), ==, 2);
    put_load(&t, 1, 14, 16, 2, 0);
    g_assert_cmpuint(daws_divcount(t.b, 0, 14), ==, 1);
    put_load(&t, 1, 14, 16, 1, 0);
    g_assert_cmpuint(daws_divcount(t.b, 0, 14), ==, 0);
    put_load(&t, 0, 14, 32, 32, 0); /* warp 0 does not sample: not counted */
    g_assert_cmpuint(daws_divcount(t.b, 0, 14), ==, 0);
    /* loop locality counter: a miss -1; a hit on its own line +1; a VTA hit on a miss +1; a hit on a
     * line warp 2 brought in -1; other warps' accesses do not count */
    access(&t, 1, 100, CACHE_MISS);
    g_assert_cmpint(daws_loop_counter(t.b, 0, 4), ==, -1);
    access(&t, 1, 100, CACHE_HIT);
    g_assert_cmpint(daws_loop_counter(t.b, 0, 4), ==, 0);
    const vta_hit_if *vh = harness_export(t.d.h, "vta_hit").methods;
    vh->hit(t.d.self, 1, 200, 0);
    access(&t, 1, 200, CACHE_MISS);
    g_assert_cmpint(daws_loop_counter(t.b, 0, 4), ==, 1);
    access(&t, 2, 300, CACHE_MISS);
    g_assert_cmpint(daws_loop_counter(t.b, 0, 4), ==, 1);
    access(&t, 2, 100, CACHE_HIT); /* warp 2 hits warp 1's line: inter-warp */
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_INTRA_HITS), ==, 1);
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_INTER_HITS), ==, 1);
    /* a positive counter: the sampler's loads of the loop are classified, the loop is predicted */
    put_load(&t, 1, 14, 32, 32, 0);
    g_assert_cmpuint(t.b->n_slct, ==, 1);
    g_assert_cmpuint(t.b->slct[0].pc_load, ==, 14);
    g_assert_cmpuint(t.b->slct[0].loop_begin, ==, 4);
    g_assert_false(t.b->slct[0].is_div); /* DivCount 1 */
    put(&t, 3, 4, 32, false);
    g_assert_cmpuint(daws_pred(t.b, 3), ==, 2); /* one converged group */
    access(&t, 1, 300, CACHE_HIT);              /* warp 2's line: -1, the loop loses its predictions */
    g_assert_cmpint(daws_loop_counter(t.b, 0, 4), ==, 0);
    put(&t, 3, 4, 32, false);
    g_assert_cmpuint(daws_pred(t.b, 3), ==, 0);
    /* ILRD: sampler of the inner loop (warp 2): PC 6 tag X, PC 7 tag X (same RepID), PC 8 tag Y;
     * back at the loop start its entries are cleared: PC 9 tag X starts a RepID of its own */
    put(&t, 2, 5, 8, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 5), ==, 2);
    put_load(&t, 2, 6, 1, 1, 128 * 7);
    put_load(&t, 2, 7, 1, 1, 128 * 7);
    put_load(&t, 2, 8, 1, 1, 128 * 9);
    g_assert_cmpuint(daws_rep(t.b, 0, 6), !=, 0);
    g_assert_cmpuint(daws_rep(t.b, 0, 6), ==, daws_rep(t.b, 0, 7));
    g_assert_cmpuint(daws_rep(t.b, 0, 8), ==, 0); /* a miss: no RepID yet */
    put(&t, 2, 5, 8, false);
    put_load(&t, 2, 9, 1, 1, 128 * 7);
    g_assert_cmpuint(daws_rep(t.b, 0, 9), ==, 0);
    g_assert_cmpuint(block_stat(&t.d, DAWS_STAT_ILRD_HITS), ==, 1);
    /* the sampler leaves: a later 2-lane warp does not sample (reselect=gt2) */
    put(&t, 2, 18, 8, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 5), ==, -1);
    put(&t, 0, 5, 2, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 5), ==, -1);
    harness_free(t.d.h);
    const char *ge2[] = {"dut.mode=detected", "dut.reselect=ge2", NULL};
    t = dut_new(ge2, 2, NULL, 0, NULL);
    put(&t, 0, 5, 2, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 5), ==, -1); /* not the first one */
    put(&t, 1, 5, 3, false);
    put(&t, 1, 18, 3, false);
    put(&t, 0, 5, 2, false);
    g_assert_cmpint(daws_sampler(t.b, 0, 5), ==, 0); /* two lanes re-select */
    harness_free(t.d.h);
}

/* The traced state cycle by cycle: UT-6 in time. */
static void test_traced(void)
{
    char *path = block_vcd_path();
    const char *set[] = {"dut.lines=56", "dut.kassoc=1000", NULL};
    dut t = dut_new(set, 3, one_div, 1, path);
    put(&t, 0, 4, 32, false);
    put(&t, 1, 4, 16, false);
    harness_run(t.d.h, 3);
    uint64_t c0 = gsc_cycle();
    put(&t, 2, 4, 16, false);
    harness_run(t.d.h, 3);
    uint64_t c1 = gsc_cycle();
    put(&t, 0, 4, 16, false);
    harness_run(t.d.h, 3);
    harness_free(t.d.h);
    vcd *v = block_vcd_load(path);
    g_assert_cmpuint(block_vcd_at(v, "dut.eff", c0), ==, 56);
    g_assert_cmpuint(block_vcd_at(v, "dut.pred_0", c0 - 1), ==, 32);
    g_assert_cmpuint(block_vcd_at(v, "dut.pred_1", c0 - 1), ==, 16);
    g_assert_cmpuint(block_vcd_at(v, "dut.can_load", c0 - 1), ==, 0x7);
    g_assert_cmpuint(block_vcd_at(v, "dut.total", c0 + 1), ==, 64);
    g_assert_cmpuint(block_vcd_at(v, "dut.barred", c0 + 1), ==, 0x4);
    g_assert_cmpuint(block_vcd_at(v, "dut.can_load", c0 + 1), ==, 0x3);
    g_assert_cmpuint(block_vcd_at(v, "dut.in_loop", c0 + 1), ==, 0x7);
    g_assert_cmpuint(block_vcd_at(v, "dut.pred_0", c1 + 1), ==, 16);
    g_assert_cmpuint(block_vcd_at(v, "dut.can_load", c1 + 1), ==, 0x7);
    vcd_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    GError *err = NULL;
    mod = ptx_parse_string(ptx, -1, "k.ptx", &err);
    g_assert_no_error(err);
    loops = daws_loops_build(mod, 128);
    g_assert_cmpuint(loops->f[0].loops->len, ==, 3);
    harness_test_add("/daws/ut5-toy", test_ut5_toy);
    harness_test_add("/daws/ut5-replay", test_ut5_replay);
    harness_test_add("/daws/ut6-threshold", test_ut6_threshold);
    harness_test_add("/daws/ut7-footprint", test_ut7_footprint);
    harness_test_add("/daws/rules", test_rules);
    harness_test_add("/daws/hold", test_hold);
    harness_test_add("/daws/profile-mode", test_profile_mode);
    harness_test_add("/daws/traced", test_traced);
    harness_test_add("/daws/ut8-detected", test_ut8_detected);
    int rc = g_test_run();
    daws_loops_free(loops);
    ir_module_free(mod);
    return rc;
}
