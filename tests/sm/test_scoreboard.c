/* test_scoreboard — the `scoreboard` block alone in the harness (models/core/harness.h), called
 * through its exported `sb` interface as the issue block calls it: RAW and WAW hazards and their
 * release, long-latency marking, counted reservations, source reservations giving WAR hazards
 * (scoreboard.source_reservations), clearing a warp slot, the statistics, the traced pending count
 * and the traced calls. The instructions are decoded_t with hand-made register slot lists (the
 * scoreboard sees only those). */
#include <glib.h>
#include <string.h>

#include "models/sm/scoreboard_block.h"
#include "tests/sm/block_test.h"

enum { WARPS = 4, REGS = 16 };

static void *make_sb(blk_ctx *c, gsc_module *p, const char *n)
{
    return scoreboard_block_new(c, p, n, WARPS, REGS);
}

/* An instruction at pc with sources src[0..ns) and destinations dst[0..nd). */
static decoded_t instr(uint32_t pc, unsigned ns, const uint16_t *src, unsigned nd, const uint16_t *dst)
{
    decoded_t d;
    memset(&d, 0, sizeof d);
    d.pc = pc;
    d.n_src = (uint16_t)ns;
    d.n_dst = (uint16_t)nd;
    if (ns) /* (src and dst may be NULL when empty: memcpy's arguments must not be) */
        memcpy(d.src, src, ns * sizeof *src);
    if (nd)
        memcpy(d.dst, dst, nd * sizeof *dst);
    return d;
}

/* The export as the block's client calls it. */
#define SB(d) ((const scoreboard_if *)(d).m)

static block_dut dut_new(const char *const *settings, const char *vcd)
{
    return block_dut_new(&scoreboard_desc, make_sb, "sb", settings, vcd, true);
}

/* add r3 <- r1, r2 reserves r3: a reader of r3 has a RAW hazard, a writer of r3 a WAW hazard; other
 * registers and other warps are clear; without source reservations a writer of r1 is clear; the
 * release clears them. */
static void test_raw_waw_release(void)
{
    block_dut d = dut_new(NULL, NULL);
    static const uint16_t r12[] = {1, 2}, r3[] = {3}, r1[] = {1}, r4[] = {4}, r5[] = {5};
    decoded_t add = instr(0, 2, r12, 1, r3);
    decoded_t use3 = instr(1, 1, r3, 1, r4); /* reads r3 */
    decoded_t def3 = instr(2, 1, r5, 1, r3); /* writes r3 */
    decoded_t def1 = instr(3, 0, NULL, 1, r1);
    g_assert_false(SB(d)->source_reservations(d.self));
    g_assert_cmpuint(SB(d)->check(d.self, 1, &add), ==, SCOREBOARD_CLEAR);
    SB(d)->reserve(d.self, 1, &add, false);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 1, 3), ==, 1);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 1, 1), ==, 0);
    g_assert_cmpuint(SB(d)->pending_reads(d.self, 1, 1), ==, 0); /* sources not reserved */
    g_assert_cmpuint(SB(d)->check(d.self, 1, &use3), ==, SCOREBOARD_RAW);
    g_assert_cmpuint(SB(d)->check(d.self, 1, &def3), ==, SCOREBOARD_WAW);
    g_assert_cmpuint(SB(d)->check(d.self, 1, &def1), ==, SCOREBOARD_CLEAR); /* no WAR in the baseline */
    g_assert_cmpuint(SB(d)->check(d.self, 2, &use3), ==, SCOREBOARD_CLEAR); /* another warp's r3 */
    SB(d)->release_write(d.self, 1, 3, false);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 1, 3), ==, 0);
    g_assert_cmpuint(SB(d)->check(d.self, 1, &use3), ==, SCOREBOARD_CLEAR);
    g_assert_cmpuint(SB(d)->check(d.self, 1, &def3), ==, SCOREBOARD_CLEAR);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RESERVED), ==, 1);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RELEASED), ==, 1);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_READ_RELEASED), ==, 0);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_HAZARDS), ==, 2); /* the RAW and the WAW check */
    harness_free(d.h);
}

/* A long-latency reservation (a global load) adds LONG to the hazards it causes, until released as
 * long; a short reservation of another register does not. */
static void test_long_op(void)
{
    block_dut d = dut_new(NULL, NULL);
    static const uint16_t r6[] = {6}, r7[] = {7}, r67[] = {6, 7}, r8[] = {8};
    decoded_t ld = instr(0, 0, NULL, 1, r6), mov = instr(1, 0, NULL, 1, r7);
    decoded_t use67 = instr(2, 2, r67, 1, r8), use7 = instr(3, 1, r7, 1, r8), def6 = instr(4, 0, NULL, 1, r6);
    SB(d)->reserve(d.self, 0, &ld, true);
    SB(d)->reserve(d.self, 0, &mov, false);
    g_assert_cmpuint(SB(d)->check(d.self, 0, &use67), ==, SCOREBOARD_RAW | SCOREBOARD_LONG);
    g_assert_cmpuint(SB(d)->check(d.self, 0, &use7), ==, SCOREBOARD_RAW);
    g_assert_cmpuint(SB(d)->check(d.self, 0, &def6), ==, SCOREBOARD_WAW | SCOREBOARD_LONG);
    SB(d)->release_write(d.self, 0, 6, true);
    g_assert_cmpuint(SB(d)->check(d.self, 0, &use67), ==, SCOREBOARD_RAW); /* r7 still pending, short */
    SB(d)->release_write(d.self, 0, 7, false);
    g_assert_cmpuint(SB(d)->check(d.self, 0, &use67), ==, SCOREBOARD_CLEAR);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RESERVED), ==, 2);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RELEASED), ==, 2);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_HAZARDS), ==, 4);
    harness_free(d.h);
}

/* Reservations are counted: two writers of r5 in flight need two releases; an instruction with two
 * destinations reserves both. */
static void test_counted(void)
{
    block_dut d = dut_new(NULL, NULL);
    static const uint16_t r5[] = {5}, r9_10[] = {9, 10}, r5s[] = {5}, r10[] = {10}, r11[] = {11};
    decoded_t w5 = instr(0, 0, NULL, 1, r5), pair = instr(1, 0, NULL, 2, r9_10);
    decoded_t use5 = instr(2, 1, r5s, 1, r11), use10 = instr(3, 1, r10, 1, r11);
    SB(d)->reserve(d.self, 3, &w5, false);
    SB(d)->reserve(d.self, 3, &w5, false);
    SB(d)->reserve(d.self, 3, &pair, false);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 3, 5), ==, 2);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 3, 9), ==, 1);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 3, 10), ==, 1);
    SB(d)->release_write(d.self, 3, 5, false);
    g_assert_cmpuint(SB(d)->check(d.self, 3, &use5), ==, SCOREBOARD_RAW); /* one writer left */
    SB(d)->release_write(d.self, 3, 5, false);
    g_assert_cmpuint(SB(d)->check(d.self, 3, &use5), ==, SCOREBOARD_CLEAR);
    g_assert_cmpuint(SB(d)->check(d.self, 3, &use10), ==, SCOREBOARD_RAW);
    SB(d)->release_write(d.self, 3, 10, false);
    g_assert_cmpuint(SB(d)->check(d.self, 3, &use10), ==, SCOREBOARD_CLEAR);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RESERVED), ==, 3);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RELEASED), ==, 3);
    harness_free(d.h);
}

/* With source reservations, an issued instruction's sources stay reserved until the unit reports
 * the read: a later writer of a source has a WAR hazard (counted per reader), a reader does not. */
static void test_source_reservations(void)
{
    const char *set[] = {"source_reservations=true", NULL};
    block_dut d = dut_new(set, NULL);
    static const uint16_t r12[] = {1, 2}, r3[] = {3}, r1[] = {1}, r13[] = {13}, r14[] = {14}, r1s[] = {1};
    decoded_t add = instr(0, 2, r12, 1, r3), def1 = instr(1, 0, NULL, 1, r1), use1 = instr(2, 1, r1s, 1, r14);
    decoded_t read1 = instr(3, 1, r1s, 1, r13);
    g_assert_true(SB(d)->source_reservations(d.self));
    SB(d)->reserve(d.self, 2, &add, false);
    SB(d)->reserve(d.self, 2, &use1, false); /* a second reader of r1 */
    g_assert_cmpuint(SB(d)->pending_reads(d.self, 2, 1), ==, 2);
    g_assert_cmpuint(SB(d)->pending_reads(d.self, 2, 2), ==, 1);
    g_assert_cmpuint(SB(d)->check(d.self, 2, &def1), ==, SCOREBOARD_WAR);
    g_assert_cmpuint(SB(d)->check(d.self, 2, &read1), ==, SCOREBOARD_CLEAR); /* RAR is no hazard */
    g_assert_cmpuint(SB(d)->check(d.self, 1, &def1), ==, SCOREBOARD_CLEAR);  /* another warp */
    SB(d)->release_read(d.self, 2, 1);
    g_assert_cmpuint(SB(d)->check(d.self, 2, &def1), ==, SCOREBOARD_WAR); /* one reader left */
    SB(d)->release_read(d.self, 2, 1);
    g_assert_cmpuint(SB(d)->pending_reads(d.self, 2, 1), ==, 0);
    g_assert_cmpuint(SB(d)->check(d.self, 2, &def1), ==, SCOREBOARD_CLEAR);
    SB(d)->release_read(d.self, 2, 2);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_READ_RELEASED), ==, 3);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_RELEASED), ==, 0);
    g_assert_cmpuint(block_stat(&d, SCOREBOARD_STAT_HAZARDS), ==, 2);
    harness_free(d.h);
}

/* clear_warp (a new warp in the slot) drops the slot's reservations, not another slot's; the traced
 * count of pending writes (all warps) loses the dropped ones. */
static void test_clear_warp(void)
{
    const char *set[] = {"source_reservations=true", NULL};
    block_dut d = dut_new(set, NULL);
    static const uint16_t r1[] = {1}, r2[] = {2};
    decoded_t mov = instr(0, 1, r1, 1, r2);
    SB(d)->reserve(d.self, 0, &mov, false);
    SB(d)->reserve(d.self, 1, &mov, false);
    SB(d)->reserve(d.self, 0, &mov, false);
    const scoreboard_block *b = harness_block(d.h);
    g_assert_cmpuint(b->tr_pending, ==, 3);
    SB(d)->clear_warp(d.self, 0);
    g_assert_cmpuint(b->tr_pending, ==, 1);
    SB(d)->clear_warp(d.self, 2); /* an idle slot */
    g_assert_cmpuint(b->tr_pending, ==, 1);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 0, 2), ==, 0);
    g_assert_cmpuint(SB(d)->pending_reads(d.self, 0, 1), ==, 0);
    g_assert_cmpuint(SB(d)->check(d.self, 0, &mov), ==, SCOREBOARD_CLEAR);
    g_assert_cmpuint(SB(d)->pending_writes(d.self, 1, 2), ==, 1);
    g_assert_cmpuint(SB(d)->check(d.self, 1, &mov), ==, SCOREBOARD_WAW);
    harness_free(d.h);
}

/* Releasing a register with no pending write is a model bug: a fatal assertion, not a wrap. */
static void test_release_unreserved(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_scoreboard");
        block_dut d = dut_new(NULL, NULL);
        SB(d)->release_write(d.self, 0, 4, false);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*writes > 0*");
}

/* The VCD: `pending` counts the pending writes of all warps; `sb.calls` shows how many calls each
 * cycle made (back to 0 in the next), `sb.warp` and `sb.reg` the last call's warp and PC/register.
 * The test's calls after the step that ran cycle c count in cycle c + 1 (see at()). */
static void test_traced(void)
{
    char *path = block_vcd_path();
    block_dut d = dut_new(NULL, path);
    static const uint16_t r12[] = {1, 2}, r3[] = {3};
    decoded_t two = instr(7, 0, NULL, 2, r12), one = instr(9, 0, NULL, 1, r3);
    uint64_t c0 = harness_step(d.h);
    SB(d)->check(d.self, 1, &two);
    SB(d)->reserve(d.self, 1, &two, false);
    SB(d)->reserve(d.self, 2, &one, false);
    uint64_t c1 = harness_step(d.h);
    harness_step(d.h);
    SB(d)->release_write(d.self, 1, 2, false);
    uint64_t c3 = harness_step(d.h);
    harness_run(d.h, 2);
    harness_free(d.h);
    g_assert_cmpuint(c1, ==, c0 + 1);
    g_assert_cmpuint(c3, ==, c0 + 3);
    vcd *v = block_vcd_load(path);
    g_assert_cmpuint(block_vcd_at(v, "dut.pending", c0), ==, 0);
    g_assert_cmpuint(block_vcd_at(v, "dut.pending", c1), ==, 3);
    g_assert_cmpuint(block_vcd_at(v, "dut.pending", c1 + 1), ==, 3);
    g_assert_cmpuint(block_vcd_at(v, "dut.pending", c3), ==, 2);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.calls", c0), ==, 0);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.calls", c1), ==, 3);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.calls", c1 + 1), ==, 0);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.calls", c3), ==, 1);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.calls", c3 + 1), ==, 0);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.warp", c1), ==, 2); /* the last call: reserve for warp 2, pc 9 */
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.reg", c1), ==, 9);
    g_assert_cmpuint(block_vcd_at(v, "dut.sb.reg", c3), ==, 2); /* release_write of register 2 */
    vcd_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/scoreboard/raw_waw_release", test_raw_waw_release);
    harness_test_add("/sm/scoreboard/long_op", test_long_op);
    harness_test_add("/sm/scoreboard/counted", test_counted);
    harness_test_add("/sm/scoreboard/source_reservations", test_source_reservations);
    harness_test_add("/sm/scoreboard/clear_warp", test_clear_warp);
    g_test_add_func("/sm/scoreboard/release_unreserved", test_release_unreserved);
    harness_test_add("/sm/scoreboard/traced", test_traced);
    return g_test_run();
}
