/* test_units — the execution units block (models/sm/units.h) alone in the harness: the test calls its
 * exported `units` interface as the operand collector would: pipes per unit and their initiation
 * interval (pick), latencies per operation class, lane groups (simd_width), write-back ports and the
 * next completion; per-unit statistics. */
#include <glib.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/sm/units.h"

static void *make_units(blk_ctx *c, gsc_module *p, const char *n)
{
    return units_new(c, p, n);
}

typedef struct {
    harness *h;
    units *u;
    const units_if *m;
} rig;

static rig start(const char *const *set)
{
    rig g;
    g.h = harness_new(&units_desc, make_units, set, NULL);
    g.u = harness_block(g.h);
    g.m = harness_export(g.h, "units").methods;
    harness_step(g.h);
    return g;
}

static issued_t op(uint8_t cls, uint8_t opc, unsigned warp, uint16_t dst)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.cls = cls;
    it.op = opc;
    it.warp = (uint16_t)warp;
    it.seq = warp;
    it.n_dst = it.n_bank_dst = 1;
    it.dst[0] = it.bank_dst[0] = dst;
    return it;
}

/* Two SP pipes (sp_units 2, ii 1): two accepts per cycle, a third waits; latency 4, mad 5. */
static void test_pipes_and_latency(void)
{
    rig g = start(NULL);
    issued_t a = op(IR_CLASS_ALU, IR_OP_ADD, 1, 10), b = op(IR_CLASS_ALU, IR_OP_MAD, 2, 11);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SP, 100), ==, 0);
    g.m->accept(g.u, 0, &a, 100);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SP, 100), ==, 1);
    g.m->accept(g.u, 1, &b, 100);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SP, 100), ==, -1);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SP, 101), ==, 0);
    g_assert_cmpuint(g.m->next_completion(g.u), ==, 104);
    const release_t *out[UNITS_MAX_WB];
    g_assert_cmpuint(g.m->writeback(g.u, 103, out), ==, 0);
    g_assert_cmpuint(g.m->writeback(g.u, 104, out), ==, 1);
    g_assert_cmpuint(out[0]->warp, ==, 1);
    g_assert_cmpuint(out[0]->dst[0], ==, 10);
    g_assert_cmpuint(out[0]->bank_dst[0], ==, 10);
    g_assert_cmpuint(out[0]->unit, ==, SM_UNIT_SP);
    g_assert_cmpuint(g.m->next_completion(g.u), ==, 105);
    g_assert_cmpuint(g.m->writeback(g.u, 105, out), ==, 1);
    g_assert_cmpuint(out[0]->warp, ==, 2);
    g_assert_cmpuint(g.m->next_completion(g.u), ==, PIPE_NONE);
    g_assert_cmpuint(blk_stat_get(harness_inst(g.h), UNITS_STAT_BY_UNIT0 + SM_UNIT_SP), ==, 2);
    harness_free(g.h);
}

/* One SFU pipe with ii 4; INT div 145 / interval 8; DP and the per-unit counts. */
static void test_units_and_intervals(void)
{
    rig g = start(NULL);
    issued_t s = op(IR_CLASS_SFU, IR_OP_SQRT, 1, 1), d = op(IR_CLASS_INT, IR_OP_DIV, 2, 2);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SFU, 0), ==, 2); /* pipes: SP 0-1, SFU 2, INT 3, DP 4 */
    g.m->accept(g.u, 2, &s, 0);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SFU, 3), ==, -1);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SFU, 4), ==, 2);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_INT, 0), ==, 3);
    g.m->accept(g.u, 3, &d, 0);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_INT, 7), ==, -1);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_DP, 0), ==, 4);
    unsigned lat, ii;
    units_op_timing(g.u, IR_CLASS_INT, IR_OP_DIV, &lat, &ii);
    g_assert_cmpuint(lat, ==, 145);
    g_assert_cmpuint(ii, ==, 8);
    g_assert_cmpuint(g.m->next_completion(g.u), ==, 39); /* the SFU's */
    blk_inst *i = harness_inst(g.h);
    g_assert_cmpuint(blk_stat_get(i, UNITS_STAT_BY_UNIT0 + SM_UNIT_SFU), ==, 1);
    g_assert_cmpuint(blk_stat_get(i, UNITS_STAT_BY_UNIT0 + SM_UNIT_INT), ==, 1);
    g_assert_cmpuint(blk_stat_get(i, UNITS_STAT_BY_UNIT0 + SM_UNIT_SP), ==, 0);
    harness_free(g.h);
}

/* simd_width 8: 4 lane groups, so latency 4 + 3 x 1 and the pipe busy 4 cycles. */
static void test_lane_groups(void)
{
    const char *set[] = {"simd_width=8", "sp_units=1", NULL};
    rig g = start(set);
    issued_t a = op(IR_CLASS_ALU, IR_OP_ADD, 1, 1);
    g.m->accept(g.u, 0, &a, 10);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SP, 13), ==, -1);
    g_assert_cmpint(g.m->pick(g.u, SM_UNIT_SP, 14), ==, 0);
    g_assert_cmpuint(g.m->next_completion(g.u), ==, 17);
    harness_free(g.h);
}

/* wb_ports 2: three results complete in one cycle, two leave, the third the cycle after. */
static void test_wb_ports(void)
{
    const char *set[] = {"sp_units=3", NULL};
    rig g = start(set);
    for (unsigned p = 0; p < 3; p++) {
        issued_t a = op(IR_CLASS_ALU, IR_OP_ADD, p, (uint16_t)p);
        g.m->accept(g.u, (int)p, &a, 0);
    }
    const release_t *out[UNITS_MAX_WB];
    g_assert_cmpuint(g.m->writeback(g.u, 4, out), ==, 2);
    g_assert_cmpuint(out[0]->warp, ==, 0);
    g_assert_cmpuint(out[1]->warp, ==, 1);
    g_assert_cmpuint(g.m->writeback(g.u, 5, out), ==, 1);
    g_assert_cmpuint(out[0]->warp, ==, 2);
    harness_free(g.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/units/pipes_and_latency", test_pipes_and_latency);
    harness_test_add("/units/units_and_intervals", test_units_and_intervals);
    harness_test_add("/units/lane_groups", test_lane_groups);
    harness_test_add("/units/wb_ports", test_wb_ports);
    return g_test_run();
}
