/* test_renaming — the renaming block alone (models/sm/renaming.h) in a harness, driven through its
 * exports (value path, issue check, issued listener, access path) as issue and the register banks
 * call them, with the register-renaming spec's unit tests as exact checks: Figure 3(b) reuse (7),
 * r0 loaded in a loop holds no register while the load is outstanding (8), Figure 6(a) (10),
 * Figure 7 allocation under consolidation (11), divergence reuse (12), the RFC (15), Figure 5
 * sub-array gating (16), baseline gating (17), r12 in matrixMul (6), the long-lived r2 (9), Section 3's
 * formula (18); plus the poison of a released register, the other
 * policies, the exhaustion stall and its deadlock report, rename-table bank conflicts. Registers are
 * not allocated: %rN is architectural register N. */
#include "kernels/frontend/ptx_parse.h"
#include "models/core/harness.h"
#include "models/lib/policy.h"
#include "models/lib/regval.h"
#include "models/lib/rfaccess.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/regfile.h"
#include "models/sm/renaming.h"

#include <string.h>

/* pc: 0-4 write r3..r7, 5 writes r2, 6 reads r2 for the last time, 7 `add r0, r3, r4` (r3 dead,
 * r4 live: Figure 6(a)'s "001"), 8 reads r4 for the last time, then r5, r6, r7, r1 die, 13 ret;
 * r23 is written at 14 (never reached) so the kernel has 24 registers. */
static const char *kernel_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                                ".visible .entry k()\n{\n"
                                ".reg .b32 %r<24>;\n"
                                "mov.u32 %r3, 1;\nmov.u32 %r4, 2;\nmov.u32 %r5, 3;\nmov.u32 %r6, 4;\n"
                                "mov.u32 %r7, 5;\nmov.u32 %r2, %tid.x;\nadd.u32 %r1, %r2, 1;\n"
                                "add.u32 %r0, %r3, %r4;\nadd.u32 %r0, %r4, %r0;\nadd.u32 %r0, %r0, %r5;\n"
                                "add.u32 %r0, %r0, %r6;\nadd.u32 %r0, %r0, %r7;\nadd.u32 %r0, %r0, %r1;\n"
                                "ret;\nmov.u32 %r23, %r0;\nret;\n}\n";

/* A kernel calling a .func (function 0; the kernel is function 1): the kernel's r0 is live across
 * the call (read at pc 4); the callee writes its own r0 and r1 (pc 0, 1), reads r0 for the last time
 * at pc 2 (its pir bit) and never reads r1 (dead: released when the warp returns). Every function
 * numbers its registers from R0. */
static const char *call_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".func (.param .b32 ret0) f(.param .b32 a)\n{\n"
                              ".reg .b32 %r<2>;\n"
                              "ld.param.u32 %r0, [a];\n"    /* 0 */
                              "add.u32 %r1, %r0, 1;\n"      /* 1: r1 never read */
                              "st.param.u32 [ret0], %r0;\n" /* 2: r0's last read */
                              "ret;\n}\n"
                              ".visible .entry k()\n{\n"
                              ".reg .b32 %r<3>;\n"
                              "mov.u32 %r0, 7;\n" /* 0 */
                              "{\n.param .b32 p0;\n.param .b32 q0;\n"
                              "st.param.u32 [p0], %r0;\n"    /* 1 */
                              "call.uni (q0), f, (p0);\n"    /* 2 */
                              "ld.param.u32 %r1, [q0];\n}\n" /* 3 */
                              "add.u32 %r2, %r1, %r0;\n"     /* 4 */
                              "ret;\n}\n";

/* Three blocks (A: pcs 0-1, B: 2-3, C: 4-5): laid out as pir A (word 0), 0, 1, pir B (3), 2, 3,
 * pir C (6), 4, 5. */
static const char *three_blocks_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                                      ".visible .entry k()\n{\n"
                                      ".reg .b32 %r<4>;\n"
                                      "mov.u32 %r0, 1;\nbra L1;\n"
                                      "L1: add.u32 %r1, %r0, 1;\nbra L2;\n"
                                      "L2: add.u32 %r2, %r1, 1;\nret;\n}\n";
static const char *cur_ptx; /* the kernel of the next setup (NULL: kernel_ptx) */

static struct {
    ir_module *mod;
    kload_module k;
    kload_func kf[4];
    sm_env env;
    harness *h;
    renaming *r;
    uint64_t v[REGVAL_LANES];
} g;

static void *make(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    occupancy_sm occ;
    occupancy_sm_init_gtx480(&occ);
    /* the spec's banks: 8 clusters x 4 banks, 4 sub-arrays each, 1024 warp-wide registers */
    static const bankmap_geom geom = {32, 8, 4, 1024};
    g.r = renaming_new(ctx, parent, name, &g.env, 48, &occ, &geom);
    return g.r;
}

static void setup(const char *const *settings)
{
    memset(&g, 0, sizeof g);
    GError *err = NULL;
    g.mod = ptx_parse_string(cur_ptx ? cur_ptx : kernel_ptx, -1, "k.ptx", &err);
    g_assert_no_error(err);
    g.k.mod = g.mod;
    g.k.funcs = g.kf;
    for (guint f = 0, base = 0; f < g.mod->funcs->len && f < G_N_ELEMENTS(g.kf); f++) { /* kload's slots */
        const ir_func *fn = g_ptr_array_index(g.mod->funcs, f);
        g.kf[f].reg_base = base;
        base += fn->regs ? fn->regs->len : 0;
        if (fn->is_entry)
            g.env.launch.entry = f;
    }
    g.env.mod = g.mod;
    g.env.k = &g.k;
    g.env.n_sms = 1;
    g.env.launch.block[0] = 128;
    g.env.launch.block[1] = g.env.launch.block[2] = 1;
    g.env.launch.grid[0] = 100;
    g.env.launch.grid[1] = g.env.launch.grid[2] = 1;
    g.env.launch.regs_per_thread = 24;
    g.env.error = g_string_new(NULL);
    g.h = harness_new(&renaming_desc, make, settings, NULL);
    harness_step(g.h);
}

static void teardown(void)
{
    harness_free(g.h);
    renaming_free(g.r);
    ir_module_free(g.mod);
    g_string_free(g.env.error, TRUE);
}

static uint64_t stat(unsigned i)
{
    return blk_stat_get(renaming_inst(g.r), i);
}

static void ev(regval_kind kind, unsigned warp, uint32_t slot, uint32_t pc, uint32_t lanes, uint64_t cycle)
{
    blk_iref e = harness_export(g.h, "value");
    regval_access a = {kind, warp, slot, 0, pc, lanes, cycle, slot == REGVAL_NONE ? NULL : g.v};
    if (pc == REGVAL_NONE)
        a.func = REGVAL_NONE;
    ((const regval_if *)e.methods)->access(e.self, &a);
}
static void wr(unsigned warp, uint32_t reg, uint32_t pc, uint64_t cycle)
{
    ev(REGVAL_WRITE, warp, reg, pc, UINT32_MAX, cycle);
}
static void rd(unsigned warp, uint32_t reg, uint32_t pc, uint64_t cycle)
{
    ev(REGVAL_READ, warp, reg, pc, UINT32_MAX, cycle);
}
static void start(unsigned warp)
{
    ev(REGVAL_ALLOC, warp, REGVAL_NONE, REGVAL_NONE, UINT32_MAX, 1);
}

static void issued(unsigned warp, uint32_t pc, uint8_t cls, int dst, uint64_t cycle)
{
    blk_iref e = harness_export(g.h, "issued");
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)warp;
    it.pc = pc;
    it.cls = cls;
    it.mask = UINT32_MAX;
    it.issue_cycle = cycle;
    if (dst >= 0) {
        it.n_bank_dst = 1;
        it.bank_dst[0] = (uint16_t)dst;
    }
    ((const instr_issued_if *)e.methods)->issued(e.self, &it);
}

static bool allow(unsigned warp, uint32_t pc, int dst, uint64_t cycle)
{
    blk_iref e = harness_export(g.h, "check");
    decoded_t d;
    memset(&d, 0, sizeof d);
    d.pc = pc;
    if (dst >= 0) {
        d.n_bank_dst = 1;
        d.bank_dst[0] = (uint16_t)dst;
    }
    return ((const issue_check_if *)e.methods)->allow(e.self, warp, &d, cycle);
}

/* §14.7 Figure 3(b): warp1 writes r2 -> P5, its last read releases P5; warp3 writes r2 -> P5 again. */
static void test_fig3b_reuse(void)
{
    setup(NULL);
    start(0);
    for (unsigned a = 3; a <= 7; a++) /* P0..P4 held by warp 0's r3..r7 */
        wr(0, a, a - 3, 2);
    wr(1, 2, 5, 3);
    g_assert_cmpint(renaming_map(g.r, 1, 2), ==, 5);
    g_assert_true(renaming_occupied(g.r, 5));
    rd(1, 2, 6, 4); /* pc 6: r2's pir bit */
    g_assert_cmpint(renaming_map(g.r, 1, 2), ==, -1);
    g_assert_false(renaming_occupied(g.r, 5));
    wr(3, 2, 5, 5);
    g_assert_cmpint(renaming_map(g.r, 3, 2), ==, 5);
    g_assert_true(renaming_occupied(g.r, 5));
    rd(3, 2, 6, 6);
    g_assert_false(renaming_occupied(g.r, 5));
    g_assert_cmpuint(stat(RN_STAT_PEAK), ==, 6); /* r3..r7 and one r2 at a time */
    g_assert_cmpuint(stat(RN_STAT_REL_PIR), ==, 2);
    teardown();

    /* every warp writes r2 before any reads it: no reuse, one register per warp */
    setup(NULL);
    start(0);
    for (unsigned w = 0; w < 4; w++)
        wr(w, 2, 5, 2);
    for (unsigned w = 0; w < 4; w++)
        rd(w, 2, 6, 3);
    g_assert_cmpuint(stat(RN_STAT_PEAK), ==, 4);
    g_assert_cmpuint(stat(RN_STAT_DISTINCT), ==, 4);
    teardown();
}

/* §14.10 Figure 6(a): after `add r0, r3, r4` reads, r3 is unmapped, r4 keeps its mapping; a later
 * read of r3 is poisoned. */
static void test_fig6a_and_poison(void)
{
    setup(NULL);
    start(5);
    wr(5, 3, 0, 2);
    wr(5, 4, 1, 2);
    int p4 = renaming_map(g.r, 5, 4);
    rd(5, 3, 7, 3);
    rd(5, 4, 7, 3);
    g_assert_cmpint(renaming_map(g.r, 5, 3), ==, -1);
    g_assert_cmpint(renaming_map(g.r, 5, 4), ==, p4);
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        g.v[l] = l;
    rd(5, 3, 9, 4); /* a (wrong) read of the released r3 */
    g_assert_cmpuint(g.v[0], ==, REGVAL_POISON);
    g_assert_cmpuint(g.v[31], ==, REGVAL_POISON);
    g_assert_cmpuint(stat(RN_STAT_POISON_READS), ==, 1);
    /* a never-written register reads as it is (0), counted */
    g.v[0] = 0;
    rd(5, 5, 9, 4);
    g_assert_cmpuint(g.v[0], ==, 0);
    g_assert_cmpuint(stat(RN_STAT_UNWRITTEN_READS), ==, 1);
    teardown();
}

/* §14.11 Figure 7: P2..P5 active in the sub-array group, P0 free: consolidation picks P0; r2 kept. */
static void test_fig7_consolidate(void)
{
    setup(NULL);
    start(5);
    for (unsigned a = 3; a <= 7; a++)
        wr(5, a, a - 3, 2); /* r3..r7 -> P0..P4 */
    wr(5, 2, 5, 2);         /* r2 -> P5 */
    rd(5, 3, 7, 3);         /* r3 released: P0 free */
    rd(5, 4, 8, 3);         /* r4 released: P1 free */
    g_assert_false(renaming_occupied(g.r, 0));
    g_assert_true(renaming_occupied(g.r, 2) && renaming_occupied(g.r, 5));
    rd(5, 2, 7, 4); /* pc 7 does not release r2 */
    wr(5, 0, 7, 4);
    g_assert_cmpint(renaming_map(g.r, 5, 0), ==, 0);
    g_assert_cmpint(renaming_map(g.r, 5, 2), ==, 5);
    teardown();
}

/* The other policies: lowest free ID, and wear-levelling a sub-array group (256 IDs) away. */
static void test_policies(void)
{
    const char *wear[] = {"policy=wear", NULL};
    setup(wear);
    start(0);
    wr(0, 3, 0, 2);
    wr(0, 4, 1, 2);
    int a = renaming_map(g.r, 0, 3), b = renaming_map(g.r, 0, 4);
    g_assert_cmpint((b - a + 1024) % 1024, ==, 256);
    teardown();

    const char *low[] = {"policy=lowest", NULL};
    setup(low);
    start(0);
    wr(0, 3, 0, 2);
    wr(0, 4, 1, 2);
    rd(0, 3, 7, 3); /* P0 free again */
    wr(1, 3, 0, 4);
    g_assert_cmpint(renaming_map(g.r, 1, 3), ==, 0);
    teardown();
}

/* §14.12: path A writes r0 (lanes 0-15, Px), path B of the same warp writes r0: no allocation. */
static void test_divergence_reuse(void)
{
    setup(NULL);
    start(2);
    ev(REGVAL_WRITE, 2, 0, 7, 0x0000ffffu, 2);
    int px = renaming_map(g.r, 2, 0);
    g_assert_cmpint(px, >=, 0);
    ev(REGVAL_WRITE, 2, 0, 7, 0xffff0000u, 3);
    g_assert_cmpint(renaming_map(g.r, 2, 0), ==, px);
    g_assert_cmpuint(stat(RN_STAT_ALLOCS), ==, 1);
    teardown();
}

/* §14.8: a load's destination gets its register when the data returns (allocation at write-back);
 * until then one free register is set aside, so the free count seen by the check drops. */
static void test_load_allocates_at_writeback(void)
{
    const char *few[] = {"phys_regs=8", NULL};
    setup(few);
    start(0);
    g_assert_true(allow(0, 5, 2, 2));
    issued(0, 5, IR_CLASS_MEM, 2, 2); /* ld r2: issued */
    g_assert_cmpint(renaming_map(g.r, 0, 2), ==, -1);
    g_assert_cmpuint(stat(RN_STAT_ALLOCS), ==, 0);
    for (unsigned a = 3; a <= 7; a++) /* 5 more registers: 6 of 8 used with the reservation */
        wr(0, a, a - 3, 3);
    wr(1, 3, 0, 3);
    wr(1, 5, 2, 3);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 1);
    g_assert_false(allow(1, 1, 4, 4)); /* 1 free, but set aside for the load */
    wr(0, 2, REGVAL_NONE, 400);        /* the data returns (no instruction) */
    g_assert_cmpint(renaming_map(g.r, 0, 2), >=, 0);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 0);
    g_assert_false(allow(1, 1, 4, 401));
    rd(0, 3, 7, 402); /* warp 0's r3 released */
    g_assert_true(allow(1, 1, 4, 403));
    teardown();
}

/* Exhaustion: a write that needs a register waits (counted); the watchdog names warps and registers. */
static void test_exhaustion_deadlock(void)
{
    const char *few[] = {"phys_regs=8", "deadlock_cycles=100", NULL};
    setup(few);
    start(0);
    for (unsigned a = 0; a < 8; a++)
        wr(0, a, 0, 2);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 0);
    g_assert_false(allow(1, 1, 4, 10));
    g_assert_false(allow(1, 1, 4, 11));
    g_assert_cmpuint(stat(RN_STAT_ALLOC_STALLS), ==, 2);
    g_assert_false(g.env.failed);
    g_assert_false(allow(1, 1, 4, 200));
    g_assert_true(g.env.failed);
    g_assert_nonnull(strstr(g.env.error->str, "deadlock"));
    g_assert_nonnull(strstr(g.env.error->str, "warp 1"));
    g_assert_nonnull(strstr(g.env.error->str, "for R4"));
    g_assert_nonnull(strstr(g.env.error->str, "warp 0 holds 8"));
    teardown();
}

/* The split fetch's sched-info stage as fetch asks it (`layout`): the flag words warp `warp` fetches
 * before instruction pc (their words in `words`), or FETCH_LAYOUT_STALL. */
static unsigned flags(unsigned warp, uint32_t pc, uint64_t cycle, uint32_t *words)
{
    blk_iref e = harness_export(g.h, "layout");
    return ((const fetch_layout_if *)e.methods)->flags(e.self, warp, 0, pc, cycle, words);
}
static uint32_t word(uint32_t pc)
{
    blk_iref e = harness_export(g.h, "layout");
    return ((const fetch_layout_if *)e.methods)->word(e.self, 0, pc);
}

/* §14.15: two warps run the same block back to back: the first misses (the pir is fetched and
 * decoded: one flag word before the instruction), the second hits (no flag word: its fetch goes
 * straight to the instruction, the word after the pir); later instructions of the window fetch no
 * flag word and are not looked up again; both read the flags by pc (Figure 6(a)'s 001 at pc 7). */
static void test_rfc(void)
{
    uint32_t w[FETCH_MAX_FLAGS];
    setup(NULL);
    start(0);
    g_assert_cmpuint(word(0), ==, 1); /* the pir is word 0 */
    g_assert_cmpuint(flags(0, 0, 2, w), ==, 1);
    g_assert_cmpuint(w[0], ==, 0);
    g_assert_cmpuint(stat(RN_STAT_RFC_MISSES), ==, 1);
    issued(0, 0, IR_CLASS_ALU, 3, 3);
    g_assert_cmpuint(flags(1, 0, 3, w), ==, 0); /* hit: not fetched */
    g_assert_cmpuint(stat(RN_STAT_RFC_HITS), ==, 1);
    g_assert_cmpuint(stat(RN_STAT_RFC_MISSES), ==, 1);
    issued(1, 0, IR_CLASS_ALU, 3, 3);
    for (uint32_t pc = 1; pc <= 7; pc++) /* same window: no new lookup, no flag word */
        g_assert_cmpuint(flags(0, pc, 3 + pc, w), ==, 0);
    g_assert_cmpuint(stat(RN_STAT_RFC_HITS) + stat(RN_STAT_RFC_MISSES), ==, 2);
    g_assert_cmpuint(word(7), ==, 8);
    for (unsigned a = 3; a <= 7; a++)
        wr(0, a, a - 3, 10);
    rd(0, 3, 7, 11); /* 001: r3 released, r4 kept */
    g_assert_cmpint(renaming_map(g.r, 0, 3), ==, -1);
    g_assert_cmpint(renaming_map(g.r, 0, 4), >=, 0);
    teardown();
}

/* §7's replacement rule: a full RFC replaces only an entry more than 18 instructions behind every
 * instruction in the warps' I-buffers (here the least recently used of those), and when there is
 * none the warp's fetch stalls (counted) until an instruction issues. With LRU, warp 0's fetch of
 * block C would have replaced pir A at once. */
static void test_rfc_replacement(void)
{
    uint32_t w[FETCH_MAX_FLAGS];
    const char *two[] = {"rfc_entries=2", NULL};
    cur_ptx = three_blocks_ptx;
    setup(two);
    cur_ptx = NULL;
    start(0);
    start(1);
    g_assert_cmpuint(word(0), ==, 1);
    g_assert_cmpuint(word(2), ==, 4);
    g_assert_cmpuint(word(4), ==, 7);
    g_assert_cmpuint(flags(0, 0, 2, w), ==, 1); /* pir A in */
    g_assert_cmpuint(w[0], ==, 0);
    g_assert_cmpuint(flags(0, 1, 2, w), ==, 0);
    issued(0, 0, IR_CLASS_ALU, 0, 3);
    issued(0, 1, IR_CLASS_CTRL, -1, 4);
    g_assert_cmpuint(flags(1, 2, 5, w), ==, 1); /* pir B in; warp 1 holds pc 2 (word 4) */
    g_assert_cmpuint(w[0], ==, 3);
    /* warp 0 reaches block C: pir B is in use by pc 2, and so is pir A (word 0, 4 words behind pc 2) */
    g_assert_cmpuint(flags(0, 4, 6, w), ==, FETCH_LAYOUT_STALL);
    g_assert_cmpuint(flags(0, 4, 7, w), ==, FETCH_LAYOUT_STALL);
    g_assert_cmpuint(stat(RN_STAT_RFC_FULL_STALLS), ==, 2);
    g_assert_cmpuint(stat(RN_STAT_RFC_MISSES), ==, 2);
    issued(1, 2, IR_CLASS_ALU, 1, 8); /* warp 1's buffer empties: both entries may go */
    g_assert_cmpuint(flags(0, 4, 9, w), ==, 1);
    g_assert_cmpuint(w[0], ==, 6);
    g_assert_cmpuint(stat(RN_STAT_RFC_MISSES), ==, 3);
    /* pir A (least recently used) went, pir B stayed: warp 1 at pc 3 hits, warp 1 at block A misses */
    g_assert_cmpuint(flags(1, 3, 10, w), ==, 0);
    issued(1, 3, IR_CLASS_CTRL, -1, 11);
    issued(0, 4, IR_CLASS_ALU, 2, 11);
    g_assert_cmpuint(flags(1, 0, 12, w), ==, 1);
    g_assert_cmpuint(stat(RN_STAT_RFC_MISSES), ==, 4);
    teardown();
}

/* §14.6 r12 in matrixMul: used before the loop, then dead. 40 warps (1280 threads) each write r2
 * (pc 5) and read it for the last time (pc 6): the dead copies take 40 x 32 lanes x 4 B = 5 KB, more
 * than a 4 KB bank (4 sub-arrays of 1 KB). The conventional allocation keeps all 40 entries on
 * (baseline gating: on at the first access, never off); renaming frees each after its last read and
 * switches its entries off. */
static void test_r12_matrixmul(void)
{
    setup(NULL);
    for (unsigned w = 0; w < 40; w++) {
        start(w);
        wr(w, 2, 5, 2);
        rd(w, 2, 6, 3);
    }
    g_assert_cmpuint(40 * 32 * 4, ==, 5120);
    g_assert_cmpuint(40 * 32 * 4, >, 4 * 1024);
    g_assert_cmpuint(stat(RN_STAT_ALLOCS), ==, 40);
    g_assert_cmpuint(stat(RN_STAT_REL_PIR), ==, 40);
    /* §14.2: 128 KB / (32 lanes x 4 B) = 1024 physical registers, 10-bit IDs */
    g_assert_cmpuint(renaming_free_count(g.r), ==, 128 * 1024 / (32 * 4));
    renaming_finish(g.r, 3);
    uint64_t base = stat(RN_STAT_BASE_ENTRY_ON), on = stat(RN_STAT_ENTRY_ON);
    renaming_finish(g.r, 103); /* 100 cycles with every r2 dead */
    g_assert_cmpuint(stat(RN_STAT_BASE_ENTRY_ON) - base, ==, 100 * 40 * 8); /* 40 entries x 8 clusters */
    g_assert_cmpuint(stat(RN_STAT_ENTRY_ON) - on, ==, 0);
    teardown();
}

/* pc 0 writes r2, which the last instruction reads (long-lived); r0, r1 live between. */
static const char *long_lived_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                                    ".visible .entry k()\n{\n.reg .b32 %r<4>;\n"
                                    "mov.u32 %r2, %tid.x;\nmov.u32 %r0, 1;\nadd.u32 %r1, %r0, %r0;\n"
                                    "add.u32 %r3, %r1, %r2;\nret;\n}\n";

static void run_long_lived(unsigned w, uint64_t c)
{
    start(w);
    wr(w, 2, 0, c);
    wr(w, 0, 1, c + 1);
    rd(w, 0, 2, c + 2);
    wr(w, 1, 2, c + 2);
    g_assert_cmpint(renaming_map(g.r, w, 2), >=, 0); /* held while the warp runs */
    rd(w, 1, 3, c + 3);
    rd(w, 2, 3, c + 3);
    g_assert_cmpint(renaming_map(g.r, w, 2), ==, -1); /* released at its last read */
    wr(w, 3, 3, c + 3);
    ev(REGVAL_FREE, w, REGVAL_NONE, REGVAL_NONE, UINT32_MAX, c + 4);
}

/* §14.9 r2 long-lived: held for the warp's lifetime, released at its last read; a trailing CTA that
 * does not overlap the first reuses every physical register, r2's included. */
static void test_long_lived_r2(void)
{
    cur_ptx = long_lived_ptx;
    setup(NULL);
    cur_ptx = NULL;
    run_long_lived(0, 2);
    g_assert_cmpuint(stat(RN_STAT_REL_EXIT), ==, 1); /* r3: written, never read */
    uint64_t distinct = stat(RN_STAT_DISTINCT);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 1024);
    run_long_lived(8, 10); /* the next CTA's warp */
    g_assert_cmpuint(stat(RN_STAT_DISTINCT), ==, distinct);
    g_assert_cmpuint(stat(RN_STAT_ALLOCS), ==, 8);
    g_assert_cmpuint(stat(RN_STAT_RELEASES), ==, 8);
    teardown();
}

/* 14 registers per thread, each written once. */
static const char *regs14_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                                ".visible .entry k()\n{\n.reg .b32 %r<14>;\n"
                                "mov.u32 %r0, 0;\nmov.u32 %r1, 1;\nmov.u32 %r2, 2;\nmov.u32 %r3, 3;\n"
                                "mov.u32 %r4, 4;\nmov.u32 %r5, 5;\nmov.u32 %r6, 6;\nmov.u32 %r7, 7;\n"
                                "mov.u32 %r8, 8;\nmov.u32 %r9, 9;\nmov.u32 %r10, 10;\nmov.u32 %r11, 11;\n"
                                "mov.u32 %r12, 12;\nmov.u32 %r13, 13;\nret;\n}\n";

/* §14.18 Section 3's formula: matrixMul, N = 14 registers, 4 CTAs x 8 warps (Table 3's 32 warps):
 * 14 x 4 x 8 x 32 = 14336 registers reserved, against T = 32768 32-bit registers. */
static void test_section3_formula(void)
{
    cur_ptx = regs14_ptx;
    setup(NULL);
    cur_ptx = NULL;
    g.env.launch.regs_per_thread = 14;
    g.env.launch.block[0] = 256; /* 8 warps */
    g.env.launch.grid[0] = 4;    /* 4 CTAs on the one SM */
    start(0);
    g_assert_cmpuint(stat(RN_STAT_ARCH_ALLOCATED), ==, 32 * 14);
    g_assert_cmpuint(stat(RN_STAT_ARCH_ALLOCATED) * 32, ==, 14336);
    g_assert_cmpuint(stat(RN_STAT_ARCH_ALLOCATED) * 32, <=, 32768);
    g_assert_cmpuint(stat(RN_STAT_EQ1), ==, 32 * 14 * 10);
    teardown();
}

/* §14.16/17 Figure 5: with consolidation the live registers of warps 0, 11, 22, 40 sit in sub-array
 * 0 of the 4 banks; without renaming (warp-major placement, 24 registers) bank 0 keeps all 4 of
 * its sub-arrays on, and every entry stays on after its warp ended (baseline gating). */
static void test_subarray_gating(void)
{
    static const unsigned warps[] = {0, 11, 22, 40};
    setup(NULL);
    for (unsigned i = 0; i < 4; i++) {
        start(warps[i]);
        wr(warps[i], 0, 7, 2);
    }
    g_assert_cmpuint(renaming_subarrays_on(g.r), ==, 4);
    for (unsigned i = 0; i < 4; i++)
        g_assert_cmpint(renaming_map(g.r, warps[i], 0), <, 256);
    renaming_finish(g.r, 12);
    /* 10 cycles x 4 sub-arrays x 8 clusters; baseline: 10 x 4 (bank 0, groups 0-3) x 8 */
    g_assert_cmpuint(stat(RN_STAT_SUB_ON), ==, 10 * 4 * 8);
    g_assert_cmpuint(stat(RN_STAT_BASE_SUB_ON), ==, 10 * 4 * 8);
    g_assert_cmpuint(stat(RN_STAT_ENTRY_ON), ==, 10 * 4 * 8);
    teardown();

    const char *off[] = {"enable=false", NULL};
    setup(off);
    for (unsigned i = 0; i < 4; i++) {
        start(warps[i]);
        wr(warps[i], 0, 7, 2);
    }
    rd(0, 0, 8, 3);
    for (unsigned i = 0; i < 4; i++)
        ev(REGVAL_FREE, warps[i], REGVAL_NONE, REGVAL_NONE, UINT32_MAX, 4);
    g_assert_cmpint(renaming_map(g.r, 0, 0), ==, -1); /* nothing renamed */
    renaming_finish(g.r, 102);
    g_assert_cmpuint(stat(RN_STAT_BASE_ENTRY_ON), ==, 100 * 4 * 8); /* on after the warps ended */
    g_assert_cmpuint(stat(RN_STAT_BASE_SUB_ON), ==, 100 * 4 * 8);
    g_assert_cmpuint(stat(RN_STAT_LEAK_ENTRY), ==, 100 * 4 * 8); /* charged: the baseline's */
    g_assert_cmpuint(stat(RN_STAT_TABLE_BANK_CYCLES), ==, 0);
    teardown();
}

/* Warp exit releases what is left; rename-table bank conflicts serialise lookups (+1 cycle each). */
static void test_exit_and_lookups(void)
{
    setup(NULL);
    start(0);
    wr(0, 0, 7, 2);
    wr(0, 4, 1, 2);
    ev(REGVAL_FREE, 0, REGVAL_NONE, REGVAL_NONE, UINT32_MAX, 3);
    g_assert_cmpuint(stat(RN_STAT_REL_EXIT), ==, 2);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 1024);
    /* a warp that exited (nothing in flight) releases at once, before its CTA ends */
    start(2);
    wr(2, 0, 7, 4);
    blk_iref we = harness_export(g.h, "warp_events");
    ((const warp_events_if *)we.methods)->warp_end(we.self, 2, 0, 5);
    g_assert_cmpint(renaming_map(g.r, 2, 0), ==, -1);
    g_assert_cmpuint(stat(RN_STAT_REL_EXIT), ==, 3);
    ev(REGVAL_FREE, 2, REGVAL_NONE, REGVAL_NONE, UINT32_MAX, 6);
    g_assert_cmpuint(stat(RN_STAT_RELEASES), ==, 3);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 1024);

    /* §14.4: a lookup takes 0.22 ns of the 1.25 ns cycle (17.6 %), so it is done in the operand
     * collector stage: a lookup alone in its table bank adds no cycle, a second one in the same bank
     * the same cycle waits one */
    g_assert_cmpint((int)(0.22 / 1.25 * 1000 + 0.5), ==, 176);
    blk_iref e = harness_export(g.h, "access");
    const rfaccess_hook_if *hk = e.methods;
    unsigned delay = 0;
    rfaccess_req q = {.warp = 1, .reg = 4, .cycle = 10, .phys = 4, .refused_by = -1};
    g_assert_cmpint(hk->access(e.self, &q, &delay), ==, RFACCESS_ALLOW);
    g_assert_cmpuint(delay, ==, 0);
    q.reg = 8; /* the same table bank (8 mod 4 = 4 mod 4) */
    g_assert_cmpint(hk->access(e.self, &q, &delay), ==, RFACCESS_DELAY);
    g_assert_cmpuint(delay, ==, 1);
    q.reg = 5; /* another bank */
    g_assert_cmpint(hk->access(e.self, &q, &delay), ==, RFACCESS_ALLOW);
    g_assert_cmpuint(stat(RN_STAT_LOOKUP_CONFLICTS), ==, 1);
    teardown();
}

/* A value event of function func's register v (its slot: the function's reg_base + v). */
static void evf(regval_kind kind, unsigned warp, uint32_t func, uint32_t v, uint32_t pc, uint64_t cycle)
{
    blk_iref e = harness_export(g.h, "value");
    regval_access a = {kind, warp, g.kf[func].reg_base + v, func, pc, UINT32_MAX, cycle, g.v};
    ((const regval_if *)e.methods)->access(e.self, &a);
}
static void issued_f(unsigned warp, uint32_t func, uint32_t pc, uint8_t op, uint64_t cycle)
{
    blk_iref e = harness_export(g.h, "issued");
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)warp;
    it.func = func;
    it.pc = pc;
    it.op = op;
    it.cls = IR_CLASS_ALU;
    it.mask = UINT32_MAX;
    it.issue_cycle = cycle;
    ((const instr_issued_if *)e.methods)->issued(e.self, &it);
}

/* A called function's registers are renamed in a frame of their own, (warp, function, register):
 * the callee's r0 gets a physical register of its own while the caller's r0 (live across the call)
 * keeps its; the callee's r0 is released at its last read (pir), its dead r1 when the warp is back
 * in the caller after the ret; the banks see each frame's physical register; a second call starts
 * with a fresh frame. */
static void test_callee_frames(void)
{
    cur_ptx = call_ptx;
    setup(NULL);
    cur_ptx = NULL;
    enum { F = 0, K = 1 };
    g_assert_cmpuint(g.env.launch.entry, ==, K);
    start(0);
    evf(REGVAL_WRITE, 0, K, 0, 0, 2); /* mov r0, 7 */
    evf(REGVAL_READ, 0, K, 0, 1, 3);  /* st.param [p0], r0: r0 live after */
    issued_f(0, K, 2, IR_OP_CALL, 4);
    evf(REGVAL_WRITE, 0, F, 0, 0, 5); /* the callee's ld.param r0 */
    int kr0 = renaming_map_frame(g.r, 0, K, 0), fr0 = renaming_map_frame(g.r, 0, F, 0);
    g_assert_cmpint(kr0, >=, 0);
    g_assert_cmpint(fr0, >=, 0);
    g_assert_cmpint(kr0, !=, fr0);
    g_assert_cmpint(renaming_map(g.r, 0, 0), ==, kr0); /* the entry's frame */
    evf(REGVAL_READ, 0, F, 0, 1, 6);
    evf(REGVAL_WRITE, 0, F, 1, 1, 6); /* add r1, r0, 1 */
    int fr1 = renaming_map_frame(g.r, 0, F, 1);
    g_assert_cmpint(fr1, >=, 0);
    g_assert_cmpuint(stat(RN_STAT_CALLEE_ALLOCS), ==, 2);
    /* the banks: the request's function picks the frame */
    blk_iref e = harness_export(g.h, "access");
    const rfaccess_hook_if *hk = e.methods;
    unsigned delay = 0;
    rfaccess_req q = {
        .warp = 0, .reg = 0, .has_instr = true, .func = F, .cycle = 7, .phys = 0, .refused_by = -1};
    hk->access(e.self, &q, &delay);
    g_assert_cmpuint(q.phys, ==, (unsigned)fr0);
    q = (rfaccess_req){
        .warp = 0, .reg = 0, .has_instr = true, .func = K, .cycle = 8, .phys = 0, .refused_by = -1};
    hk->access(e.self, &q, &delay);
    g_assert_cmpuint(q.phys, ==, (unsigned)kr0);
    evf(REGVAL_READ, 0, F, 0, 2, 9); /* st.param [ret0], r0: r0's last read */
    g_assert_cmpint(renaming_map_frame(g.r, 0, F, 0), ==, -1);
    g_assert_cmpuint(stat(RN_STAT_REL_PIR), ==, 1);
    issued_f(0, F, 3, IR_OP_RET, 10);
    g_assert_cmpint(renaming_map_frame(g.r, 0, F, 1), ==, fr1); /* until the warp is back in k */
    issued_f(0, K, 3, IR_OP_LD, 11);
    g_assert_cmpint(renaming_map_frame(g.r, 0, F, 1), ==, -1);
    g_assert_cmpuint(stat(RN_STAT_REL_RET), ==, 1);
    g_assert_cmpint(renaming_map(g.r, 0, 0), ==, kr0); /* the caller's value kept */
    /* a second call: the callee's registers are unwritten again (a read is not a poisoned one) */
    evf(REGVAL_READ, 0, F, 1, 1, 12);
    g_assert_cmpuint(stat(RN_STAT_POISON_READS), ==, 0);
    g_assert_cmpuint(stat(RN_STAT_UNWRITTEN_READS), ==, 1);
    ev(REGVAL_FREE, 0, REGVAL_NONE, REGVAL_NONE, UINT32_MAX, 13);
    g_assert_cmpuint(stat(RN_STAT_RELEASES), ==, stat(RN_STAT_ALLOCS));
    teardown();
}

/* §14.5 at launch: 24 registers x 32 resident warps (4 warps per CTA, 8 CTAs) x 10 = 7680 bits; a
 * 4096-bit budget renames 12 (3840 bits), the 12 others are exempt: 32 x 12 IDs reserved from the
 * top at launch, an exempt register's write allocates nothing and its reads look nothing up. */
static void test_exempt_at_launch(void)
{
    const char *small[] = {"budget_bits=4096", NULL};
    setup(small);
    start(0);
    g_assert_cmpuint(stat(RN_STAT_EQ1), ==, 7680);
    g_assert_cmpuint(stat(RN_STAT_EXEMPT), ==, 12);
    g_assert_cmpuint(stat(RN_STAT_EQ1_AFTER), ==, 3840);
    g_assert_cmpuint(renaming_free_count(g.r), ==, 1024 - 32 * 12);
    g_assert_true(renaming_occupied(g.r, 1023) && renaming_occupied(g.r, 1024 - 32 * 12));
    g_assert_false(renaming_occupied(g.r, 1024 - 32 * 12 - 1));
    unsigned allocs = 0, exempt = 0;
    for (unsigned a = 0; a < 24; a++) {
        uint64_t before = stat(RN_STAT_ALLOCS);
        wr(0, a, 0, 2);
        allocs += stat(RN_STAT_ALLOCS) > before;
        blk_iref e = harness_export(g.h, "access");
        unsigned delay = 0;
        rfaccess_req q = {.warp = 0, .reg = a, .write = true, .cycle = 3, .phys = a, .refused_by = -1};
        ((const rfaccess_hook_if *)e.methods)->access(e.self, &q, &delay);
        exempt += q.phys >= 1024 - 12; /* warp 0 is resident warp 0: IDs 1023 .. 1012 */
    }
    g_assert_cmpuint(allocs, ==, 12);
    g_assert_cmpuint(exempt, ==, 12);
    teardown();
}

/* greedy-then-round-robin: the last issued warp while ready, then by id after it, wrapping. */
static void test_gtrr(void)
{
    renaming_register_policies();
    renaming_register_policies(); /* idempotent */
    GError *err = NULL;
    policy *p = policy_new("gtrr", &err);
    g_assert_no_error(err);
    policy_warp w[5];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < 5; i++) {
        w[i].id = i;
        w[i].age = 4 - i;
        w[i].ready = true;
        w[i].last_issue = POLICY_NEVER_ISSUED;
    }
    w[2].last_issue = 10;
    w[4].last_issue = 7;
    unsigned out[5];
    g_assert_cmpuint(policy_order(p, w, 5, 11, out), ==, 5);
    g_assert_cmpuint(out[0], ==, 2);
    g_assert_cmpuint(out[1], ==, 3);
    g_assert_cmpuint(out[2], ==, 4);
    g_assert_cmpuint(out[3], ==, 0);
    g_assert_cmpuint(out[4], ==, 1);
    w[2].ready = w[4].ready = false; /* not greedy any more: round-robin after warp 2 */
    g_assert_cmpuint(policy_order(p, w, 5, 12, out), ==, 3);
    g_assert_cmpuint(out[0], ==, 3);
    g_assert_cmpuint(out[1], ==, 0);
    g_assert_cmpuint(out[2], ==, 1);
    policy_free(p);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/renaming/fig3b_reuse", test_fig3b_reuse);
    harness_test_add("/renaming/fig6a_poison", test_fig6a_and_poison);
    harness_test_add("/renaming/fig7_consolidate", test_fig7_consolidate);
    harness_test_add("/renaming/policies", test_policies);
    harness_test_add("/renaming/divergence_reuse", test_divergence_reuse);
    harness_test_add("/renaming/load_at_writeback", test_load_allocates_at_writeback);
    harness_test_add("/renaming/exhaustion_deadlock", test_exhaustion_deadlock);
    harness_test_add("/renaming/rfc", test_rfc);
    harness_test_add("/renaming/rfc_replacement", test_rfc_replacement);
    harness_test_add("/renaming/subarray_gating", test_subarray_gating);
    harness_test_add("/renaming/exit_and_lookups", test_exit_and_lookups);
    harness_test_add("/renaming/exempt_at_launch", test_exempt_at_launch);
    harness_test_add("/renaming/callee_frames", test_callee_frames);
    harness_test_add("/renaming/r12_matrixmul", test_r12_matrixmul);
    harness_test_add("/renaming/long_lived_r2", test_long_lived_r2);
    harness_test_add("/renaming/section3_formula", test_section3_formula);
    g_test_add_func("/renaming/gtrr", test_gtrr);
    return g_test_run();
}
