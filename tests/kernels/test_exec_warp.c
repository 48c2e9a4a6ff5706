/* test_exec_warp.c — ir_exec semantics across lanes (shfl.sync in every mode with the clamp /
 * segment-mask packing, vote.sync with partial masks, activemask) and the memory-side helpers
 * (atom/red values for every operation, load/store value conversion). Expected values by hand. */
#include "tests/kernels/test_exec_util.h"

static ir_exec_ctx warp_ctx(const ir_instr *in, uint32_t active)
{
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = in;
    x.active = active;
    for (unsigned l = 0; l < 32; l++) {
        x.dst[0].v[l] = 0xdead;
        x.dst[1].v[l] = 0xdead;
    }
    return x;
}

/* Run shfl on a full warp where lane l holds 1000 + l, with the same b and c on every lane. */
static ir_exec_ctx shfl_run(ir_shfl_mode mode, uint32_t b, uint32_t c, uint32_t active)
{
    static ir_instr in;
    in = t_instr(IR_OP_SHFL, IR_T_B32, 4);
    in.n_dst = 2;
    in.sub = (uint8_t)mode;
    in.flags = IR_F_SYNC;
    ir_exec_ctx x = warp_ctx(&in, active);
    for (unsigned l = 0; l < 32; l++) {
        x.src[0].v[l] = 1000 + l;
        x.src[1].v[l] = b;
        x.src[2].v[l] = c;
        x.src[3].v[l] = 0xffffffff;
    }
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    g_assert_cmphex(x.dst_written, ==, 3);
    return x;
}

#define SHFL_EXPECT(x, lane, src_lane, p) \
    do { \
        CHECK_HEX((x).dst[0].v[lane], 1000 + (src_lane)); \
        CHECK_HEX((x).dst[1].v[lane], (p)); \
    } while (0)

static void test_shfl(void)
{
    /* idx over the whole warp: c = 0x1f (clamp 31, no segments) */
    ir_exec_ctx x = shfl_run(IR_SHFL_IDX, 5, 0x1f, 0xffffffff);
    for (unsigned l = 0; l < 32; l++)
        SHFL_EXPECT(x, l, 5, 1);
    /* idx b >= 32 uses b[4:0] */
    x = shfl_run(IR_SHFL_IDX, 37, 0x1f, 0xffffffff);
    SHFL_EXPECT(x, 0, 5, 1);
    /* idx with width 8: c = ((32-8) << 8) | 0x1f */
    x = shfl_run(IR_SHFL_IDX, 3, 0x181f, 0xffffffff);
    SHFL_EXPECT(x, 13, 11, 1);
    SHFL_EXPECT(x, 0, 3, 1);
    SHFL_EXPECT(x, 31, 27, 1);
    /* idx with a clamp below the index: c = 2 (no segments) -> out of range, own value */
    x = shfl_run(IR_SHFL_IDX, 5, 0x2, 0xffffffff);
    SHFL_EXPECT(x, 9, 9, 0);
    x = shfl_run(IR_SHFL_IDX, 1, 0x2, 0xffffffff);
    SHFL_EXPECT(x, 9, 1, 1);

    /* up, width 32: c = 0 */
    x = shfl_run(IR_SHFL_UP, 1, 0, 0xffffffff);
    SHFL_EXPECT(x, 0, 0, 0);
    SHFL_EXPECT(x, 5, 4, 1);
    SHFL_EXPECT(x, 31, 30, 1);
    /* up, width 8: c = 24 << 8: segment boundaries at 8, 16, 24 */
    x = shfl_run(IR_SHFL_UP, 1, 0x1800, 0xffffffff);
    SHFL_EXPECT(x, 8, 8, 0);
    SHFL_EXPECT(x, 9, 8, 1);
    SHFL_EXPECT(x, 24, 24, 0);
    x = shfl_run(IR_SHFL_UP, 3, 0x1800, 0xffffffff);
    SHFL_EXPECT(x, 10, 10, 0);
    SHFL_EXPECT(x, 11, 8, 1);

    /* down, width 32: c = 0x1f */
    x = shfl_run(IR_SHFL_DOWN, 1, 0x1f, 0xffffffff);
    SHFL_EXPECT(x, 30, 31, 1);
    SHFL_EXPECT(x, 31, 31, 0);
    x = shfl_run(IR_SHFL_DOWN, 16, 0x1f, 0xffffffff);
    SHFL_EXPECT(x, 15, 31, 1);
    SHFL_EXPECT(x, 16, 16, 0);
    /* down, width 8 */
    x = shfl_run(IR_SHFL_DOWN, 1, 0x181f, 0xffffffff);
    SHFL_EXPECT(x, 6, 7, 1);
    SHFL_EXPECT(x, 7, 7, 0);
    SHFL_EXPECT(x, 15, 15, 0);
    SHFL_EXPECT(x, 16, 17, 1);

    /* bfly */
    x = shfl_run(IR_SHFL_BFLY, 1, 0x1f, 0xffffffff);
    SHFL_EXPECT(x, 4, 5, 1);
    SHFL_EXPECT(x, 5, 4, 1);
    x = shfl_run(IR_SHFL_BFLY, 4, 0x181f, 0xffffffff);
    SHFL_EXPECT(x, 3, 7, 1);
    SHFL_EXPECT(x, 12, 8, 1);
    x = shfl_run(IR_SHFL_BFLY, 16, 0x181f, 0xffffffff);
    SHFL_EXPECT(x, 3, 3, 0);

    /* inactive lanes are not written; reading one returns its register value as passed */
    x = shfl_run(IR_SHFL_IDX, 0, 0x1f, 0xfffffffe);
    CHECK_HEX(x.dst[0].v[0], 0xdead);
    SHFL_EXPECT(x, 1, 0, 1);

    /* one destination only (no p) */
    ir_instr in = t_instr(IR_OP_SHFL, IR_T_B32, 4);
    in.sub = IR_SHFL_BFLY;
    x = warp_ctx(&in, 3);
    x.src[0].v[0] = 7, x.src[0].v[1] = 9;
    x.src[1].v[0] = x.src[1].v[1] = 1;
    x.src[2].v[0] = x.src[2].v[1] = 0x1f;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    g_assert_cmphex(x.dst_written, ==, 1);
    CHECK_HEX(x.dst[0].v[0], 9);
    CHECK_HEX(x.dst[0].v[1], 7);
    CHECK_HEX(x.dst[1].v[0], 0xdead);
}

/* vote on lanes 0..7 active, predicate true on lanes in `pred`, every lane with membermask mm. */
static ir_exec_ctx vote_run(ir_vote_mode mode, uint32_t active, uint32_t pred, uint32_t mm, bool neg)
{
    static ir_instr in;
    in = t_instr(IR_OP_VOTE, mode == IR_VOTE_BALLOT ? IR_T_B32 : IR_T_PRED, 2);
    in.sub = (uint8_t)mode;
    in.flags = IR_F_SYNC;
    in.src[0].neg = neg;
    ir_exec_ctx x = warp_ctx(&in, active);
    for (unsigned l = 0; l < 32; l++) {
        x.src[0].v[l] = (pred >> l) & 1;
        x.src[1].v[l] = mm;
    }
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    return x;
}

static void test_vote(void)
{
    ir_exec_ctx x = vote_run(IR_VOTE_BALLOT, 0xff, 0x0f, 0xffffffff, false);
    CHECK_HEX(x.dst[0].v[0], 0x0f);
    CHECK_HEX(x.dst[0].v[7], 0x0f);
    CHECK_HEX(x.dst[0].v[8], 0xdead);
    x = vote_run(IR_VOTE_BALLOT, 0xff, 0x0f, 0xffffffff, true);
    CHECK_HEX(x.dst[0].v[0], 0xf0);
    x = vote_run(IR_VOTE_BALLOT, 0xff, 0xffffffff, 0xffffffff, false); /* inactive lanes don't vote */
    CHECK_HEX(x.dst[0].v[3], 0xff);
    x = vote_run(IR_VOTE_BALLOT, 0xff, 0x0f, 0x3c, false);
    CHECK_HEX(x.dst[0].v[2], 0x0c);

    x = vote_run(IR_VOTE_ANY, 0xff, 0x0f, 0xffffffff, false);
    CHECK_HEX(x.dst[0].v[5], 1);
    x = vote_run(IR_VOTE_ANY, 0xff, 0x0f, 0xf0, false);
    CHECK_HEX(x.dst[0].v[5], 0);
    x = vote_run(IR_VOTE_ALL, 0xff, 0x0f, 0xffffffff, false);
    CHECK_HEX(x.dst[0].v[5], 0);
    x = vote_run(IR_VOTE_ALL, 0xff, 0x0f, 0x0f, false);
    CHECK_HEX(x.dst[0].v[1], 1);
    x = vote_run(IR_VOTE_ALL, 0x0f, 0xffffffff, 0xffffffff, false);
    CHECK_HEX(x.dst[0].v[1], 1);
    x = vote_run(IR_VOTE_ALL, 0xff, 0xf0, 0xffffffff, true);
    CHECK_HEX(x.dst[0].v[0], 0);
    x = vote_run(IR_VOTE_ALL, 0xff, 0x00, 0xffffffff, true);
    CHECK_HEX(x.dst[0].v[0], 1);
    x = vote_run(IR_VOTE_UNI, 0xff, 0x0f, 0xffffffff, false);
    CHECK_HEX(x.dst[0].v[0], 0);
    x = vote_run(IR_VOTE_UNI, 0xff, 0x0f, 0x0f, false);
    CHECK_HEX(x.dst[0].v[0], 1);
    x = vote_run(IR_VOTE_UNI, 0xff, 0x0f, 0xf0, false);
    CHECK_HEX(x.dst[0].v[0], 1);
    x = vote_run(IR_VOTE_UNI, 0xff, 0x18, 0x18, false);
    CHECK_HEX(x.dst[0].v[3], 1);

    /* without .sync (no membermask operand): all active lanes */
    ir_instr in = t_instr(IR_OP_VOTE, IR_T_PRED, 1);
    in.sub = IR_VOTE_ANY;
    x = warp_ctx(&in, 0x3);
    x.src[0].v[1] = 1;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    CHECK_HEX(x.dst[0].v[0], 1);
}

static void test_activemask(void)
{
    ir_instr in = t_instr(IR_OP_ACTIVEMASK, IR_T_B32, 0);
    ir_exec_ctx x = warp_ctx(&in, 0x00ff00f1);
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    CHECK_HEX(x.dst[0].v[0], 0x00ff00f1);
    CHECK_HEX(x.dst[0].v[23], 0x00ff00f1);
    CHECK_HEX(x.dst[0].v[1], 0xdead);
}

static uint64_t atom(ir_atom_op op, ir_type t, uint64_t old, uint64_t b, uint64_t c)
{
    ir_instr in = t_instr(IR_OP_ATOM, t, 2);
    in.atom = (uint8_t)op;
    in.space = IR_SPACE_GLOBAL;
    return ir_exec_atom(&in, old, b, c);
}

static void test_atom(void)
{
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_U32, 0xffffffff, 2, 0), 1);
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_S32, 0xfffffffe, 1, 0), 0xffffffff);
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_U64, 0xffffffff, 1, 0), 0x100000000ull);
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_F32, fb(1.5f), fb(2.25f), 0), fb(3.75f));
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_F32, 0x00000001, 0, 0), 0); /* .ftz */
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_F32, fb(1.0f), 0x33c00000, 0), 0x3f800001); /* RN */
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_F64, db(0.1), db(0.2), 0), 0x3fd3333333333334ull);
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_F16, 0x3c00, 0x1200, 0), 0x3c01);
    CHECK_HEX(atom(IR_ATOM_ADD, IR_T_F16, 0x0001, 0x0001, 0), 0x0002); /* .noftz */
    CHECK_HEX(atom(IR_ATOM_MAX, IR_T_F16, 0xbc00, 0x3c00, 0), 0x3c00);

    CHECK_HEX(atom(IR_ATOM_MIN, IR_T_S32, 0xffffffff, 1, 0), 0xffffffff);
    CHECK_HEX(atom(IR_ATOM_MIN, IR_T_U32, 0xffffffff, 1, 0), 1);
    CHECK_HEX(atom(IR_ATOM_MAX, IR_T_S32, 0xffffffff, 1, 0), 1);
    CHECK_HEX(atom(IR_ATOM_MAX, IR_T_U32, 0xffffffff, 1, 0), 0xffffffff);
    CHECK_HEX(atom(IR_ATOM_MIN, IR_T_S64, 0x8000000000000000ull, 0, 0), 0x8000000000000000ull);
    CHECK_HEX(atom(IR_ATOM_MAX, IR_T_U64, 0x8000000000000000ull, 0, 0), 0x8000000000000000ull);
    CHECK_HEX(atom(IR_ATOM_MIN, IR_T_F32, 0x7fc00000, fb(2.0f), 0), fb(2.0f));
    CHECK_HEX(atom(IR_ATOM_MAX, IR_T_F32, fb(-1.0f), fb(2.0f), 0), fb(2.0f));

    CHECK_HEX(atom(IR_ATOM_INC, IR_T_U32, 5, 10, 0), 6);
    CHECK_HEX(atom(IR_ATOM_INC, IR_T_U32, 10, 10, 0), 0);
    CHECK_HEX(atom(IR_ATOM_INC, IR_T_U32, 11, 10, 0), 0);
    CHECK_HEX(atom(IR_ATOM_INC, IR_T_U32, 0xfffffffe, 0xffffffff, 0), 0xffffffff);
    CHECK_HEX(atom(IR_ATOM_INC, IR_T_U32, 0xffffffff, 0xffffffff, 0), 0);
    CHECK_HEX(atom(IR_ATOM_DEC, IR_T_U32, 5, 10, 0), 4);
    CHECK_HEX(atom(IR_ATOM_DEC, IR_T_U32, 0, 10, 0), 10);
    CHECK_HEX(atom(IR_ATOM_DEC, IR_T_U32, 11, 10, 0), 10);
    CHECK_HEX(atom(IR_ATOM_DEC, IR_T_U32, 10, 10, 0), 9);

    CHECK_HEX(atom(IR_ATOM_AND, IR_T_B32, 0xf0f0, 0xff00, 0), 0xf000);
    CHECK_HEX(atom(IR_ATOM_OR, IR_T_B32, 0xf0f0, 0xff00, 0), 0xfff0);
    CHECK_HEX(atom(IR_ATOM_XOR, IR_T_B32, 0xf0f0, 0xff00, 0), 0x0ff0);
    CHECK_HEX(atom(IR_ATOM_XOR, IR_T_B64, ~0ull, 1, 0), 0xfffffffffffffffeull);
    CHECK_HEX(atom(IR_ATOM_EXCH, IR_T_B32, 5, 9, 0), 9);
    CHECK_HEX(atom(IR_ATOM_EXCH, IR_T_B64, 5, 0x123456789ull, 0), 0x123456789ull);
    CHECK_HEX(atom(IR_ATOM_CAS, IR_T_B32, 5, 5, 9), 9);
    CHECK_HEX(atom(IR_ATOM_CAS, IR_T_B32, 5, 6, 9), 5);
    CHECK_HEX(atom(IR_ATOM_CAS, IR_T_B64, 0x100000005ull, 5, 9), 0x100000005ull);
    CHECK_HEX(atom(IR_ATOM_CAS, IR_T_B64, 0x100000005ull, 0x100000005ull, 9), 9);

    /* red computes the same new value; .noftz keeps f32 subnormals */
    ir_instr in = t_instr(IR_OP_RED, IR_T_U32, 2);
    in.atom = IR_ATOM_INC;
    CHECK_HEX(ir_exec_atom(&in, 3, 3, 0), 0);
    in.atom = IR_ATOM_ADD;
    in.type = IR_T_F32;
    CHECK_HEX(ir_exec_atom(&in, 0x00000001, 0x00000001, 0), 0);
    in.flags = IR_F_NOFTZ;
    CHECK_HEX(ir_exec_atom(&in, 0x00000001, 0x00000001, 0), 0x00000002);
}

static void test_load_store(void)
{
    const uint8_t mem[8] = { 0x80, 0x01, 0x80, 0xff, 0x11, 0x22, 0x33, 0x44 };
    CHECK_HEX(ir_exec_load_value(IR_T_S8, mem), 0xffffffffffffff80ull);
    CHECK_HEX(ir_exec_load_value(IR_T_U8, mem), 0x80);
    CHECK_HEX(ir_exec_load_value(IR_T_B8, mem + 1), 0x01);
    CHECK_HEX(ir_exec_load_value(IR_T_S16, mem + 1), 0xffffffffffff8001ull);
    CHECK_HEX(ir_exec_load_value(IR_T_U16, mem + 1), 0x8001);
    CHECK_HEX(ir_exec_load_value(IR_T_S32, mem), 0xffffffffff800180ull);
    CHECK_HEX(ir_exec_load_value(IR_T_U32, mem), 0xff800180);
    CHECK_HEX(ir_exec_load_value(IR_T_F32, mem + 4), 0x44332211);
    CHECK_HEX(ir_exec_load_value(IR_T_B64, mem), 0x44332211ff800180ull);
    CHECK_HEX(ir_exec_load_value(IR_T_F64, mem), 0x44332211ff800180ull);
    CHECK_HEX(ir_exec_load_value(IR_T_F16, mem + 2), 0xff80);

    uint8_t out[8];
    memset(out, 0xaa, sizeof out);
    ir_exec_store_value(IR_T_U8, 0x1234, out);
    CHECK_HEX(out[0], 0x34);
    CHECK_HEX(out[1], 0xaa);
    ir_exec_store_value(IR_T_S16, 0xffffffffffff8001ull, out + 2);
    CHECK_HEX(out[2], 0x01);
    CHECK_HEX(out[3], 0x80);
    CHECK_HEX(out[4], 0xaa);
    memset(out, 0xaa, sizeof out);
    ir_exec_store_value(IR_T_F32, fb(1.0f), out);
    CHECK_HEX(out[3], 0x3f);
    CHECK_HEX(out[4], 0xaa);
    ir_exec_store_value(IR_T_F64, db(1.0), out);
    CHECK_HEX(out[7], 0x3f);
    CHECK_HEX(out[0], 0x00);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/warp/shfl", test_shfl);
    g_test_add_func("/exec/warp/vote", test_vote);
    g_test_add_func("/exec/warp/activemask", test_activemask);
    g_test_add_func("/exec/mem/atom", test_atom);
    g_test_add_func("/exec/mem/load-store", test_load_store);
    return g_test_run();
}
