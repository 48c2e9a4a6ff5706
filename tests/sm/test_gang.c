/* test_gang — the VWS gang table (models/vws/gang.h) on the spec's UT-9 cases, exactly, and the
 * gang_unit block in the harness driven through its ports (check, issued, events) cycle by cycle,
 * its traced set-0 entries read back from the VCD. */
#include <string.h>

#include "models/vws/gang.h"
#include "models/vws/gang_unit.h"
#include "tests/sm/block_test.h"

enum { A = 100, B = 200, C = 300, D = 400, E = 500, F = 600, G = 700, H = 800 };

static gang_table fresh(unsigned set, uint8_t mask, uint64_t pc)
{
    gang_table t;
    gang_counts c = {0};
    gang_table_init(&t);
    g_assert_cmpint(gang_form(&t, set, mask, pc, 0, &c), ==, 0);
    g_assert_cmpuint(c.formed, ==, 1);
    return t;
}

static unsigned valid_entries(const gang_table *t, unsigned set)
{
    unsigned n = 0;
    for (unsigned k = 0; k < GANG_WAYS; k++)
        n += t->set[set].e[k].valid;
    return n;
}

/* UT-9: original gang g <-> set g; warp 0 of each slice is in set 0 (gangs 0-3), warp index k of a
 * slice in set k. */
static void test_mapping(void)
{
    gang_table t;
    gang_table_init(&t);
    for (unsigned s = 0; s < GANG_SLICES; s++) {
        g_assert_cmpuint(gang_set_of(&t, s), ==, 0);
        g_assert_cmpuint(gang_slice(&t, s), ==, s);
        g_assert_cmpuint(gang_set_of(&t, 8 * 5 + s), ==, 5);
    }
    /* the 8-wide design point: 4 slices of 8 lanes; warp w on slice w mod 4, original gang w / 4 */
    gang_table_init_slices(&t, 4);
    for (unsigned s = 0; s < 4; s++) {
        g_assert_cmpuint(gang_set_of(&t, s), ==, 0);
        g_assert_cmpuint(gang_slice(&t, 4 * 7 + s), ==, s);
        g_assert_cmpuint(gang_set_of(&t, 4 * 7 + s), ==, 7);
    }
    g_assert_cmpuint(GANG_SETS * GANG_WAYS, ==, 128);
}

/* UT-9: [A,A,A,B,B,C,A,B] -> gang {0,1,2,6} (0x47) at A, gang {3,4,7} (0x98) at B, slice 5 independent. */
static void test_cf_split(void)
{
    gang_table t = fresh(3, 0xff, A);
    gang_counts c = {0};
    const uint64_t pcs[8] = {A, A, A, B, B, C, A, B};
    g_assert_cmpuint(gang_split_pcs(&t, 3, 0, pcs, &c), ==, 2);
    g_assert_true(t.set[3].e[0].valid);
    g_assert_cmphex(t.set[3].e[0].mask, ==, 0x47);
    g_assert_cmpuint(t.set[3].e[0].pc, ==, A);
    g_assert_true(t.set[3].e[1].valid);
    g_assert_cmphex(t.set[3].e[1].mask, ==, 0x98);
    g_assert_cmpuint(t.set[3].e[1].pc, ==, B);
    g_assert_cmphex(t.set[3].indep, ==, 0x20);
    g_assert_cmpuint(c.cf_splits, ==, 1);
    g_assert_cmpuint(c.to_independent, ==, 1);
    g_assert_cmpint(gang_entry_of(&t, 3 * 8 + 5), ==, -1);
    g_assert_cmpint(gang_entry_of(&t, 3 * 8 + 6), ==, 0);
    g_assert_cmpint(gang_entry_of(&t, 3 * 8 + 7), ==, 1);
    /* the same PCs: no split, the gang's PC follows */
    const uint64_t same[8] = {C, C, C, C, C, C, C, C};
    gang_table u = fresh(0, 0xff, A);
    g_assert_cmpuint(gang_split_pcs(&u, 0, 0, same, &c), ==, 1);
    g_assert_cmphex(u.set[0].e[0].mask, ==, 0xff);
    g_assert_cmpuint(u.set[0].e[0].pc, ==, C);
    g_assert_cmpuint(c.cf_splits, ==, 1);
}

/* UT-9: [A,A,B,B,C,C,D,D] -> 4 gangs of 2 (the set is full); [A..H] -> 8 independent, no entry. */
static void test_cf_split_full_and_none(void)
{
    gang_table t = fresh(0, 0xff, A);
    gang_counts c = {0};
    const uint64_t pairs[8] = {A, A, B, B, C, C, D, D};
    g_assert_cmpuint(gang_split_pcs(&t, 0, 0, pairs, &c), ==, 4);
    g_assert_cmpuint(valid_entries(&t, 0), ==, 4);
    for (unsigned k = 0; k < 4; k++)
        g_assert_cmphex(t.set[0].e[k].mask, ==, 0x3u << (2 * k));
    g_assert_cmphex(t.set[0].indep, ==, 0);
    gang_table u = fresh(0, 0xff, A);
    const uint64_t all[8] = {A, B, C, D, E, F, G, H};
    g_assert_cmpuint(gang_split_pcs(&u, 0, 0, all, &c), ==, 0);
    g_assert_cmpuint(valid_entries(&u, 0), ==, 0);
    g_assert_cmphex(u.set[0].indep, ==, 0xff);
}

/* UT-9: ready bits of slices {0,1,2} first, {3..7} later: impatient -> all 8 independent at once;
 * group -> gang {0,1,2} apart, gang {3..7} stays; a lone early warp becomes independent. */
static void test_mem_splits(void)
{
    gang_table t = fresh(0, 0xff, A);
    gang_counts c = {0};
    gang_split_all(&t, 0, 0, &c);
    g_assert_cmpuint(valid_entries(&t, 0), ==, 0);
    g_assert_cmphex(t.set[0].indep, ==, 0xff);
    g_assert_cmpuint(c.mem_splits, ==, 1);
    g_assert_cmpuint(c.to_independent, ==, 8);

    gang_table u = fresh(0, 0xff, A);
    gang_split_group(&u, 0, 0, 0x07, &c);
    g_assert_cmpuint(valid_entries(&u, 0), ==, 2);
    g_assert_cmphex(u.set[0].e[0].mask, ==, 0x07);
    g_assert_cmphex(u.set[0].e[1].mask, ==, 0xf8);
    g_assert_cmphex(u.set[0].indep, ==, 0);

    gang_table v = fresh(0, 0xff, A);
    gang_split_group(&v, 0, 0, 0x10, &c);
    g_assert_cmphex(v.set[0].e[0].mask, ==, 0xef);
    g_assert_cmphex(v.set[0].indep, ==, 0x10);
}

/* UT-9: opportunistic reformation, option (a): at most two entities merge per step; the set's
 * independent warps and gangs at one PC come back together over successive steps. */
static void test_reform(void)
{
    gang_table t = fresh(0, 0xff, A);
    gang_counts c = {0};
    const uint64_t all[8] = {A, B, C, D, E, F, G, H};
    gang_split_pcs(&t, 0, 0, all, &c); /* 8 independent */
    const uint64_t now[8] = {A, A, A, A, B, B, C, D};
    g_assert_true(gang_reform(&t, 0, now, &c));
    g_assert_cmpuint(valid_entries(&t, 0), ==, 1);
    g_assert_cmphex(t.set[0].e[0].mask, ==, 0x03);
    g_assert_cmphex(t.set[0].indep, ==, 0xfc);
    g_assert_true(gang_reform(&t, 0, now, &c)); /* the gang {0,1} takes slice 2 */
    g_assert_cmphex(t.set[0].e[0].mask, ==, 0x07);
    g_assert_true(gang_reform(&t, 0, now, &c));
    g_assert_cmphex(t.set[0].e[0].mask, ==, 0x0f);
    g_assert_true(gang_reform(&t, 0, now, &c)); /* {4,5} at B */
    g_assert_cmphex(t.set[0].e[1].mask, ==, 0x30);
    g_assert_false(gang_reform(&t, 0, now, &c)); /* C and D are alone */
    g_assert_cmpuint(c.reforms, ==, 4);
    g_assert_cmphex(t.set[0].indep, ==, 0xc0);
}

/* UT-9: BGTO over gangs of sizes {4 (old), 6 (young), 2}: order 6, 4, 2; a size tie goes to the one
 * that issued last, then the older; two gangs issue only with disjoint masks. */
static void test_bgto(void)
{
    gang_table t;
    gang_counts c = {0};
    gang_table_init(&t);
    gang_form(&t, 0, 0x0f, A, 0, &c); /* 4, old */
    gang_form(&t, 1, 0x3f, A, 1, &c); /* 6, young */
    gang_form(&t, 2, 0xc0, A, 2, &c); /* 2 */
    const unsigned cand[3] = {0 << 2, 1 << 2, 2 << 2};
    unsigned pick[3];
    /* 6 first; 4 overlaps it; 2 (slices 6, 7) is disjoint */
    g_assert_cmpuint(gang_bgto(&t, cand, 3, 2, pick), ==, 2);
    g_assert_cmpuint(pick[0], ==, 1 << 2);
    g_assert_cmpuint(pick[1], ==, 2 << 2);
    g_assert_cmpuint(gang_bgto(&t, cand, 3, 4, pick), ==, 2);
    g_assert_cmpuint(gang_bgto(&t, cand, 3, 1, pick), ==, 1);
    /* without the 6: 4 then 2, disjoint */
    const unsigned two[2] = {2 << 2, 0 << 2};
    g_assert_cmpuint(gang_bgto(&t, two, 2, 2, pick), ==, 2);
    g_assert_cmpuint(pick[0], ==, 0 << 2);
    g_assert_cmpuint(pick[1], ==, 2 << 2);
    /* ties: greedy (last issued) first, then older */
    gang_table u;
    gang_table_init(&u);
    gang_form(&u, 0, 0x03, A, 0, &c);
    gang_form(&u, 1, 0x0c, A, 1, &c);
    const unsigned tie[2] = {0 << 2, 1 << 2};
    gang_bgto(&u, tie, 2, 1, pick);
    g_assert_cmpuint(pick[0], ==, 0 << 2); /* older */
    u.set[1].e[0].last_issue = 50;
    gang_bgto(&u, tie, 2, 1, pick);
    g_assert_cmpuint(pick[0], ==, 1 << 2); /* issued last */
}

/* The gang schedulers the spec compares beside BGTO, each on a situation where its choice differs
 * from BGTO's: G1 = set 0 0x0f (4 warps, oldest, pc C, never issued), G2 = set 1 0x90 (2, pc B,
 * issued at 30), G3 = set 2 0x70 (3, youngest, pc A, issued at 20). G2 overlaps G3 (slice 4); G1
 * overlaps neither. */
static gang_table sched_table(void)
{
    gang_table t;
    gang_counts c = {0};
    gang_table_init(&t);
    gang_form(&t, 0, 0x0f, C, 0, &c);
    gang_form(&t, 1, 0x90, B, 1, &c);
    gang_form(&t, 2, 0x70, A, 2, &c);
    t.set[1].e[0].last_issue = 30;
    t.set[2].e[0].last_issue = 20;
    return t;
}

enum { G1 = 0 << 2, G2 = 1 << 2, G3 = 2 << 2 };

static void sched_expect(unsigned policy, unsigned tie, unsigned rr_from, unsigned p0, unsigned p1)
{
    gang_table t = sched_table();
    const unsigned cand[3] = {G1, G2, G3};
    const gang_sched s = {policy, tie, rr_from};
    unsigned pick[3];
    g_assert_cmpuint(gang_schedule(&t, NULL, &s, cand, 3, 2, pick), ==, 2);
    g_assert_cmpuint(pick[0], ==, p0);
    g_assert_cmpuint(pick[1], ==, p1);
}

static void test_sched_policies(void)
{
    sched_expect(GANG_SCHED_BGTO, GANG_TIE_GTO, 0, G1, G3); /* 4, 3 (2 overlaps the 3) */
    sched_expect(GANG_SCHED_LGTO, GANG_TIE_GTO, 0, G2, G1); /* 2, then 4 (3 overlaps the 2) */
    sched_expect(GANG_SCHED_LPC, GANG_TIE_GTO, 0, G3, G1);  /* A, then C (B overlaps A) */
    sched_expect(GANG_SCHED_GTO, GANG_TIE_GTO, 0, G2, G1);  /* issued at 30, then 20 (overlaps), never */
    sched_expect(GANG_SCHED_LRR, GANG_TIE_GTO, G3, G3, G1); /* from set 2, wrapping to set 0 */
    sched_expect(GANG_SCHED_LRR, GANG_TIE_GTO, G1 + 1, G2, G1);
    /* BGTO with one gang a cycle, and the lone-warp entities of gang_only (ids past the table) */
    gang_table t = sched_table();
    gang_entry lone[GANG_MAX_WARPS];
    lone[5] = (gang_entry){.valid = true, .mask = 0x20, .pc = A - 1, .age = 0, .last_issue = 40};
    const unsigned cand[4] = {G1, G2, G3, GANG_SETS * GANG_WAYS + 5};
    unsigned pick[4];
    const gang_sched lgto = {GANG_SCHED_LGTO, GANG_TIE_GTO, 0}, lpc = {GANG_SCHED_LPC, GANG_TIE_GTO, 0};
    g_assert_cmpuint(gang_schedule(&t, lone, &lgto, cand, 4, 1, pick), ==, 1);
    g_assert_cmpuint(pick[0], ==, GANG_SETS * GANG_WAYS + 5); /* the lone warp is the littlest */
    g_assert_cmpuint(gang_schedule(&t, lone, &lpc, cand, 4, 4, pick), ==, 3);
    g_assert_cmpuint(pick[0], ==, GANG_SETS * GANG_WAYS + 5); /* lowest PC; then G3 overlaps it */
    g_assert_cmpuint(pick[1], ==, G2);
    g_assert_cmpuint(pick[2], ==, G1);
}

/* Ties (tie=gto / oldest): two gangs of 2 at one PC; the younger issued last. GTO order takes the
 * younger, `oldest` the older, under BGTO, LGTO and LPC alike. */
static void test_sched_ties(void)
{
    gang_table t;
    gang_counts c = {0};
    gang_table_init(&t);
    gang_form(&t, 0, 0x03, A, 0, &c);
    gang_form(&t, 1, 0x03, A, 1, &c);
    t.set[1].e[0].last_issue = 9;
    const unsigned cand[2] = {0 << 2, 1 << 2};
    unsigned pick[2];
    for (unsigned p = GANG_SCHED_BGTO; p <= GANG_SCHED_LPC; p++) {
        const gang_sched g = {p, GANG_TIE_GTO, 0}, o = {p, GANG_TIE_OLDEST, 0};
        g_assert_cmpuint(gang_schedule(&t, NULL, &g, cand, 2, 2, pick), ==, 1); /* (they overlap) */
        g_assert_cmpuint(pick[0], ==, 1 << 2);
        g_assert_cmpuint(gang_schedule(&t, NULL, &o, cand, 2, 2, pick), ==, 1);
        g_assert_cmpuint(pick[0], ==, 0 << 2);
    }
}

/* A warp leaving: a gang of two dissolves, its other member independent. */
static void test_leave(void)
{
    gang_table t = fresh(0, 0x03, A);
    gang_counts c = {0};
    gang_leave(&t, 1, &c);
    g_assert_cmpuint(valid_entries(&t, 0), ==, 0);
    g_assert_cmphex(t.set[0].indep, ==, 0x01);
    g_assert_cmphex(t.set[0].present, ==, 0x01);
    gang_table u;
    gang_table_init(&u);
    g_assert_cmpint(gang_form(&u, 0, 0x01, A, 0, &c), ==, -1); /* one warp is no gang */
    g_assert_cmphex(u.set[0].indep, ==, 0x01);
}

/* ---- the block in the harness ----------------------------------------------------------------- */

static uint64_t dut_pcs[GANG_MAX_WARPS];
static uint32_t dut_ready; /* ready=same_cycle: the warps whose head may issue this cycle */
static decoded_t dut_head;

static const decoded_t *harness_ready(void *ctx, unsigned w)
{
    (void)ctx;
    if (!(dut_ready >> w & 1))
        return NULL;
    memset(&dut_head, 0, sizeof dut_head);
    dut_head.warp = (uint16_t)w;
    dut_head.func = (uint32_t)(dut_pcs[w] >> 32);
    dut_head.pc = (uint32_t)dut_pcs[w];
    dut_head.cls = IR_CLASS_ALU;
    return &dut_head;
}

static bool harness_pc(void *ctx, unsigned w, uint64_t *pc)
{
    (void)ctx;
    *pc = dut_pcs[w];
    return true;
}

static void *make_unit(blk_ctx *c, gsc_module *p, const char *n)
{
    gang_unit *u = gang_unit_new(c, p, n, NULL, NULL);
    u->pc_fn = harness_pc;
    u->ready_fn = harness_ready;
    return u;
}

typedef struct {
    block_dut d;
    gang_unit *u;
    const issue_check_if *chk;
    const instr_issued_if *iss;
    const warp_events_if *ev;
} unit_dut;

static unit_dut unit_new(const char *const *set, const char *vcd)
{
    unit_dut x;
    x.d = block_dut_new(&gang_unit_desc, make_unit, "check", set, vcd, true);
    x.u = harness_block(x.d.h);
    x.chk = x.d.m;
    x.iss = harness_export(x.d.h, "issued").methods;
    x.ev = harness_export(x.d.h, "events").methods;
    return x;
}

/* A CTA of 32 threads (warps 0-7, original gang 0) starts, every warp at pc 0. */
static void cta8(unit_dut *x)
{
    cta_launch_t cl;
    memset(&cl, 0, sizeof cl);
    cl.warps = 8;
    cl.threads = 32;
    memset(dut_pcs, 0, sizeof dut_pcs);
    x->ev->cta_start(x->d.self, &cl, gsc_cycle());
}

/* One cycle of an 8-scheduler issue stage: warps ws[0..n) are ready at their PC (allow asked),
 * those allowed issue (issued told) and move to next[w]; returns the mask of warps allowed. */
static uint32_t cycle(unit_dut *x, const unsigned *ws, unsigned n, const uint64_t *next)
{
    uint64_t now = gsc_cycle();
    uint32_t allowed = 0;
    dut_ready = 0;
    for (unsigned i = 0; i < n; i++)
        dut_ready |= 1u << ws[i];
    for (unsigned i = 0; i < n; i++) {
        decoded_t h;
        memset(&h, 0, sizeof h);
        h.warp = (uint16_t)ws[i];
        h.func = (uint32_t)(dut_pcs[ws[i]] >> 32);
        h.pc = (uint32_t)dut_pcs[ws[i]];
        h.cls = IR_CLASS_ALU;
        if (x->chk->allow(x->d.self, ws[i], &h, now))
            allowed |= 1u << ws[i];
    }
    for (unsigned i = 0; i < n; i++)
        if (allowed >> ws[i] & 1) {
            issued_t it;
            memset(&it, 0, sizeof it);
            it.warp = (uint16_t)ws[i];
            it.pc = (uint32_t)dut_pcs[ws[i]];
            it.cls = IR_CLASS_ALU;
            x->iss->issued(x->d.self, &it);
            dut_pcs[ws[i]] = next[ws[i]];
        }
    harness_step(x->d.h);
    return allowed;
}

static const char *const registered[] = {"dut.ready=registered", NULL};

/* The registered ReadyMask (ready=registered): a CTA of 8 warps forms gang 0 (0xff); its members are
 * held until the cycle after all were ready, then issue together; divergent next PCs
 * [A,A,A,B,B,C,A,B] split it (0x47, 0x98, slice 5 independent), the two gangs then issue in one
 * cycle (disjoint) while the independent warp waits for a free slice; traced state read back from
 * the VCD at each cycle. */
static void test_unit_ports(void)
{
    char *path = block_vcd_path();
    unit_dut x = unit_new(registered, path);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint64_t next[8] = {A, A, A, B, B, C, A, B};
    uint64_t c0 = gsc_cycle();
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0x00); /* ready, not yet in the ReadyMask */
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0xff); /* lock-step issue */
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_GANG_WARP_ISSUES), ==, 8);
    /* c0+2: closes c0+1: split by PC; the gangs were not ready in c0+1 (they issued): nothing picked,
     * slice 5's independent warp is free to go */
    uint64_t n2[8] = {A + 1, A + 1, A + 1, B + 1, B + 1, C + 1, A + 1, B + 1};
    g_assert_cmphex(cycle(&x, all, 8, n2), ==, 0x20);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_CF_SPLITS), ==, 1);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_GANG_ISSUES), ==, 1);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_INDEP_ISSUES), ==, 1);
    /* c0+3: both gangs ready in c0+2, disjoint: both issue; slice 5 is free: its warp goes too */
    g_assert_cmphex(cycle(&x, all, 8, n2), ==, 0xff);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_GANG_ISSUES), ==, 1); /* counted when closed */
    harness_step(x.d.h);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_SLIPS), ==, 0);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_PC_MISMATCH), ==, 0);
    harness_free(x.d.h);
    vcd *v = block_vcd_load(path);
    g_assert_cmphex(block_vcd_at(v, "dut.set0_way0", c0), ==, 0xff);
    g_assert_cmphex(block_vcd_at(v, "dut.issue_mask", c0 + 1), ==, 0xff);
    g_assert_cmphex(block_vcd_at(v, "dut.set0_way0", c0 + 2), ==, 0x47);
    g_assert_cmphex(block_vcd_at(v, "dut.set0_way1", c0 + 2), ==, 0x98);
    g_assert_cmphex(block_vcd_at(v, "dut.set0_indep", c0 + 2), ==, 0x20);
    g_assert_cmphex(block_vcd_at(v, "dut.issue_mask", c0 + 2), ==, 0x00);
    g_assert_cmphex(block_vcd_at(v, "dut.issue_mask", c0 + 3), ==, 0xdf);
    g_assert_cmpuint(block_vcd_at(v, "dut.gangs", c0 + 3), ==, 2);
    g_assert_cmpuint(block_vcd_at(v, "dut.independent", c0 + 3), ==, 1);
    vcd_free(v);
}

/* With fault=nosplit the divergent members stay in the gang: issued for at the gang's PC, they are
 * counted as PC mismatches (in tb-vws their registers are poisoned). */
static void test_unit_fault(void)
{
    static const char *const set[] = {"dut.fault=nosplit", "dut.ready=registered", NULL};
    unit_dut x = unit_new(set, NULL);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint64_t next[8] = {A, A, A, B, B, C, A, B};
    cycle(&x, all, 8, next);
    cycle(&x, all, 8, next);
    cycle(&x, all, 8, next);
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0xff);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_CF_SPLITS), ==, 0);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_PC_MISMATCH), >=, 4);
    harness_free(x.d.h);
}

/* Opportunistic reformation in the block: the 8 independent warps of a fully split gang at one PC
 * merge two entities per cycle. */
static void test_unit_reform(void)
{
    static const char *const set[] = {"dut.reform=opportunistic", "dut.ready=registered", NULL};
    unit_dut x = unit_new(set, NULL);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint64_t next[8] = {A, B, C, D, E, F, G, H};
    cycle(&x, all, 8, next);
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0xff); /* issue, to 8 different PCs */
    uint64_t stay[8];
    for (unsigned w = 0; w < 8; w++)
        stay[w] = H;
    cycle(&x, all, 1, stay); /* closes the issue: 8 independent warps; warp 0 goes to H */
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_CF_SPLITS), ==, 1);
    g_assert_cmphex(x.u->t.set[0].indep, ==, 0xff);
    for (unsigned w = 0; w < 8; w++)
        dut_pcs[w] = H; /* they all reach H */
    for (unsigned i = 0; i < 3; i++)
        cycle(&x, all, 1, stay); /* one merge a cycle */
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_REFORMS), ==, 3);
    g_assert_cmphex(x.u->t.set[0].e[0].mask, ==, 0x0f);
    g_assert_cmphex(x.u->t.set[0].indep, ==, 0xf0);
    harness_free(x.d.h);
}

/* The ReadyMask of the cycle (ready=same_cycle, the default): the gang issues in the cycle its
 * members are ready, and again in the next; a member not ready holds the whole gang (the others are
 * not allowed: lock-step), and the gang goes in the cycle it is ready again. */
static void test_unit_same_cycle(void)
{
    unit_dut x = unit_new(NULL, NULL);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint64_t n1[8], n2[8];
    for (unsigned w = 0; w < 8; w++)
        n1[w] = A, n2[w] = A + 1;
    g_assert_cmphex(cycle(&x, all, 8, n1), ==, 0xff); /* ready now: issues now */
    g_assert_cmphex(cycle(&x, all, 8, n2), ==, 0xff); /* and again the next cycle */
    g_assert_cmphex(cycle(&x, all, 7, n2), ==, 0x00); /* warp 7 not ready: nobody goes */
    g_assert_cmphex(cycle(&x, all, 8, n2), ==, 0xff);
    harness_step(x.d.h);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_GANG_ISSUES), ==,
                     2); /* (the last one is counted when closed) */
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_GANG_WARP_ISSUES), ==, 24);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_SLIPS), ==, 0);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_CF_SPLITS), ==, 0);
    harness_free(x.d.h);
}

/* The gang schedulers in the block, one gang a cycle: the CTA's gang 0xff issues and splits into
 * 0x3f (way 0, at B) and 0xc0 (way 1, at A < B). Then 4 cycles, all ready except in the third, where
 * 0x3f is not. Each policy's sequence of allowed warps differs from BGTO's. */
static void sched_run(const char *sched, const uint32_t expect[5])
{
    char *p = g_strdup_printf("dut.sched=%s", sched);
    const char *set[] = {p, "dut.gangs_per_cycle=1", NULL};
    unit_dut x = unit_new(set, NULL);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7}, small[2] = {6, 7};
    uint64_t next[8] = {B, B, B, B, B, B, A, A};
    g_assert_cmphex(cycle(&x, all, 8, next), ==, expect[0]);
    for (unsigned i = 1; i < 5; i++) {
        for (unsigned w = 0; w < 8; w++)
            next[w] = dut_pcs[w] + 1; /* (no further split) */
        uint32_t got = i == 3 ? cycle(&x, small, 2, next) : cycle(&x, all, 8, next);
        if (got != expect[i])
            g_error("sched=%s cycle %u: allowed 0x%x, expected 0x%x", sched, i, got, expect[i]);
    }
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_CF_SPLITS), ==, 1);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_PC_MISMATCH), ==, 0);
    harness_free(x.d.h);
    g_free(p);
}

static void test_unit_sched(void)
{
    static const uint32_t bgto[5] = {0xff, 0x3f, 0x3f, 0xc0, 0x3f}; /* biggest first */
    static const uint32_t lgto[5] = {0xff, 0xc0, 0xc0, 0xc0, 0xc0}; /* littlest first */
    static const uint32_t lpc[5] = {0xff, 0xc0, 0xc0, 0xc0, 0xc0};  /* A + i < B */
    static const uint32_t gto[5] = {0xff, 0x3f, 0x3f, 0xc0, 0xc0};  /* the one that issued last */
    static const uint32_t lrr[5] = {0xff, 0xc0, 0x3f, 0xc0, 0x3f};  /* after the last one picked */
    sched_run("bgto", bgto);
    sched_run("lgto", lgto);
    sched_run("lpc", lpc);
    sched_run("gto", gto);
    sched_run("lrr", lrr);
}

/* mode=gang_only: the gang 0xff splits into 0x7f and a lone warp 7. In mixed mode warp 7 issues on
 * the slice the gang leaves free; in gang_only only when the gang scheduler picks it (an entity of
 * one: not with one gang a cycle while the 0x7f goes, yes with two, or when alone ready). */
static uint32_t gang_only_run(const char *mode, const char *per_cycle, bool alone)
{
    const char *set[] = {mode, per_cycle, NULL};
    unit_dut x = unit_new(set, NULL);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7}, w7[1] = {7};
    uint64_t next[8] = {A, A, A, A, A, A, A, B};
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0xff);
    for (unsigned w = 0; w < 8; w++)
        next[w] = dut_pcs[w] + 1;
    uint32_t got = alone ? cycle(&x, w7, 1, next) : cycle(&x, all, 8, next);
    g_assert_cmphex(x.u->t.set[0].indep, ==, 0x80);
    harness_free(x.d.h);
    return got;
}

static void test_unit_gang_only(void)
{
    g_assert_cmphex(gang_only_run("dut.mode=mixed", "dut.gangs_per_cycle=1", false), ==, 0xff);
    g_assert_cmphex(gang_only_run("dut.mode=gang_only", "dut.gangs_per_cycle=1", false), ==, 0x7f);
    g_assert_cmphex(gang_only_run("dut.mode=gang_only", "dut.gangs_per_cycle=2", false), ==, 0xff);
    g_assert_cmphex(gang_only_run("dut.mode=gang_only", "dut.gangs_per_cycle=1", true), ==, 0x80);
}

/* mode=slice_only: a CTA forms no gang; every warp is independent and issues on its own slice. */
static void test_unit_slice_only(void)
{
    static const char *const set[] = {"dut.mode=slice_only", "dut.reform=opportunistic", NULL};
    unit_dut x = unit_new(set, NULL);
    cta8(&x);
    const unsigned all[8] = {0, 1, 2, 3, 4, 5, 6, 7}, some[3] = {1, 4, 6};
    uint64_t next[8] = {A, A, A, A, A, A, A, A};
    g_assert_cmphex(x.u->t.set[0].indep, ==, 0xff);
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0xff);
    g_assert_cmphex(cycle(&x, some, 3, next), ==, 0x52);
    g_assert_cmphex(cycle(&x, all, 8, next), ==, 0xff); /* all at A: no reformation either */
    harness_step(x.d.h);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_FORMED), ==, 0);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_REFORMS), ==, 0);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_GANG_ISSUES), ==, 0);
    g_assert_cmpuint(block_stat(&x.d, GANG_STAT_INDEP_ISSUES), ==, 19);
    harness_free(x.d.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gang/ut9-mapping", test_mapping);
    g_test_add_func("/gang/ut9-cf-split", test_cf_split);
    g_test_add_func("/gang/ut9-cf-split-full-none", test_cf_split_full_and_none);
    g_test_add_func("/gang/ut9-mem-splits", test_mem_splits);
    g_test_add_func("/gang/ut9-reform", test_reform);
    g_test_add_func("/gang/ut9-bgto", test_bgto);
    g_test_add_func("/gang/leave", test_leave);
    g_test_add_func("/gang/sched-policies", test_sched_policies);
    g_test_add_func("/gang/sched-ties", test_sched_ties);
    harness_test_add("/gang/unit-ports", test_unit_ports);
    harness_test_add("/gang/unit-fault", test_unit_fault);
    harness_test_add("/gang/unit-reform", test_unit_reform);
    harness_test_add("/gang/unit-same-cycle", test_unit_same_cycle);
    harness_test_add("/gang/unit-sched", test_unit_sched);
    harness_test_add("/gang/unit-gang-only", test_unit_gang_only);
    harness_test_add("/gang/unit-slice-only", test_unit_slice_only);
    return g_test_run();
}
