/* test_exec_int.c — ir_exec semantics: mov and integer arithmetic (add/sub with .sat and carries,
 * mul/mad .lo/.hi/.wide, mul24/mad24, sad, div/rem, min/max, abs/neg). Expected values by hand. */
#include "tests/kernels/test_exec_util.h"

static void test_mov(void)
{
    ir_instr in = t_instr(IR_OP_MOV, IR_T_U16, 1);
    CHECK_HEX(T1(&in, 0x12345), 0x2345);
    in.type = IR_T_B64;
    CHECK_HEX(T1(&in, 0xfedcba9876543210ull), 0xfedcba9876543210ull);
    in.type = IR_T_PRED;
    CHECK_HEX(T1(&in, 1), 1);
    in.src[0].neg = 1;
    CHECK_HEX(T1(&in, 1), 0);
    /* vector packing helper: {lo, hi} -> b64 */
    uint64_t e[2] = { 0x11112222, 0x33334444 }, o[2];
    CHECK_HEX(ir_exec_vec_pack(e, 2, 32), 0x3333444411112222ull);
    ir_exec_vec_unpack(0xaaaabbbbccccddddull, 2, 32, o);
    CHECK_HEX(o[0], 0xccccdddd);
    CHECK_HEX(o[1], 0xaaaabbbb);
}

/* Only active lanes are written; inactive ones keep their previous contents. */
static void test_active_mask(void)
{
    ir_instr in = t_instr(IR_OP_ADD, IR_T_U32, 2);
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = &in;
    x.active = 0x80000005u;
    for (unsigned l = 0; l < 32; l++) {
        x.src[0].v[l] = l;
        x.src[1].v[l] = 100;
        x.dst[0].v[l] = 0xdead;
    }
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t want = (x.active >> l) & 1 ? 100 + l : 0xdead;
        CHECK_HEX(x.dst[0].v[l], want);
    }
}

static void test_add_sub(void)
{
    ir_instr in = t_instr(IR_OP_ADD, IR_T_U32, 2);
    CHECK_HEX(T2(&in, 0xffffffff, 2), 1);
    CHECK_HEX(T2(&in, 0x1ffffffffull, 0), 0xffffffff); /* high bits of a wider source ignored */
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x7fff, 1), 0x8000);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, ~0ull, 1), 0);
    in.type = IR_T_S32;
    in.flags = IR_F_SAT;
    CHECK_HEX(T2(&in, 0x7fffffff, 1), 0x7fffffff);
    CHECK_HEX(T2(&in, 0x80000000, 0xffffffff), 0x80000000);
    CHECK_HEX(T2(&in, 5, 0xfffffffd), 2);
    in.op = IR_OP_SUB;
    CHECK_HEX(T2(&in, 0x80000000, 1), 0x80000000);
    CHECK_HEX(T2(&in, 0x7fffffff, 0xffffffff), 0x7fffffff);
    CHECK_HEX(T2(&in, 0xfffffff6, 0xfffffffb), 0xfffffffb); /* -10 - -5 = -5 */
    in.flags = 0;
    CHECK_HEX(T2(&in, 0x80000000, 1), 0x7fffffff); /* wraps without .sat */
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 0, 1), 0xffffffff);
}

static ir_exec_ctx carry_ctx(const ir_instr *in, uint32_t cc_in)
{
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = in;
    x.active = 3;
    x.cc_in = cc_in;
    return x;
}

static void test_carry(void)
{
    /* add.cc.u32: lane 0 carries, lane 1 does not; cc_out bits outside active are preserved. */
    ir_instr in = t_instr(IR_OP_ADD, IR_T_U32, 2);
    in.flags = IR_F_CC;
    ir_exec_ctx x = carry_ctx(&in, 0);
    x.cc_out = 0x100;
    x.src[0].v[0] = 0xffffffff, x.src[1].v[0] = 1;
    x.src[0].v[1] = 1, x.src[1].v[1] = 1;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    CHECK_HEX(x.dst[0].v[0], 0);
    CHECK_HEX(x.dst[0].v[1], 2);
    CHECK_HEX(x.cc_out, 0x101);

    /* addc.u32 with carry-in on lane 0 only. */
    in.op = IR_OP_ADDC;
    in.flags = 0;
    x = carry_ctx(&in, 1);
    x.src[0].v[0] = 5, x.src[1].v[0] = 6;
    x.src[0].v[1] = 5, x.src[1].v[1] = 6;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    CHECK_HEX(x.dst[0].v[0], 12);
    CHECK_HEX(x.dst[0].v[1], 11);

    /* 128-bit add from two 64-bit halves: (2^64-1 + 2^64*1) + (1 + 2^64*2) = 2^64*4 */
    in = t_instr(IR_OP_ADD, IR_T_U64, 2);
    in.flags = IR_F_CC;
    x = carry_ctx(&in, 0);
    x.active = 1;
    x.src[0].v[0] = ~0ull, x.src[1].v[0] = 1;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 0);
    CHECK_HEX(x.cc_out, 1);
    in.op = IR_OP_ADDC;
    in.flags = IR_F_CC;
    x.cc_in = x.cc_out;
    x.src[0].v[0] = 1, x.src[1].v[0] = 2;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 4);
    CHECK_HEX(x.cc_out, 0);
    /* addc.cc carries out again */
    x.cc_in = 1;
    x.src[0].v[0] = ~0ull, x.src[1].v[0] = 0;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 0);
    CHECK_HEX(x.cc_out, 1);

    /* sub.cc/subc: borrow. (5*2^32 + 0) - (2*2^32 + 1) = 2*2^32 + 0xffffffff */
    in = t_instr(IR_OP_SUB, IR_T_U32, 2);
    in.flags = IR_F_CC;
    x = carry_ctx(&in, 0);
    x.active = 1;
    x.src[0].v[0] = 0, x.src[1].v[0] = 1;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 0xffffffff);
    CHECK_HEX(x.cc_out, 1);
    in.op = IR_OP_SUBC;
    in.flags = 0;
    x.cc_in = x.cc_out;
    x.src[0].v[0] = 5, x.src[1].v[0] = 2;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 2);
    x.cc_in = 0;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 3);

    /* mad.lo.cc.u32 then madc.hi.u32: the 64-bit sum 0xffffffff^2 + 0xffffffff split in halves:
     * 0xfffffffe00000001 + 0xffffffff = 0xffffffff00000000 */
    in = t_instr(IR_OP_MAD, IR_T_U32, 3);
    in.flags = IR_F_CC | IR_F_LO;
    x = carry_ctx(&in, 0);
    x.active = 1;
    x.src[0].v[0] = 0xffffffff, x.src[1].v[0] = 0xffffffff, x.src[2].v[0] = 0xffffffff;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 0);
    CHECK_HEX(x.cc_out, 1);
    in.op = IR_OP_MADC;
    in.flags = IR_F_HI;
    x.cc_in = 1;
    x.src[2].v[0] = 0;
    ir_exec(&x);
    CHECK_HEX(x.dst[0].v[0], 0xffffffff);
}

static void test_mul(void)
{
    ir_instr in = t_instr(IR_OP_MUL, IR_T_U32, 2);
    in.flags = IR_F_LO;
    CHECK_HEX(T2(&in, 0x10000, 0x10000), 0);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xfffffffd, 7), 0xffffffeb);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, 0x100000001ull, 0x100000001ull), 0x200000001ull);
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x100, 0x100), 0);

    in.flags = IR_F_HI;
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 0xffffffff, 0xffffffff), 0xfffffffe);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xffffffff, 0xffffffff), 0);
    CHECK_HEX(T2(&in, 0x80000000, 0x80000000), 0x40000000);
    CHECK_HEX(T2(&in, 0xfffffffe, 3), 0xffffffff);
    in.type = IR_T_U16;
    CHECK_HEX(T2(&in, 0xffff, 0xffff), 0xfffe);
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x8000, 0x8000), 0x4000);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, ~0ull, ~0ull), 0xfffffffffffffffeull);
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 4), 2);
    in.type = IR_T_S64;
    CHECK_HEX(T2(&in, ~0ull, ~0ull), 0);
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 2), ~0ull);
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 0x8000000000000000ull), 0x4000000000000000ull);

    in.flags = IR_F_WIDE;
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 0xffffffff, 0xffffffff), 0xfffffffe00000001ull);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xffffffff, 5), 0xfffffffffffffffbull);
    CHECK_HEX(T2(&in, 0x80000000, 0x80000000), 0x4000000000000000ull);
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x8000, 0x8000), 0x40000000);
    CHECK_HEX(T2(&in, 0xffff, 2), 0xfffffffe);
    in.type = IR_T_U16;
    CHECK_HEX(T2(&in, 0xffff, 0xffff), 0xfffe0001);

    /* mul24 */
    in = t_instr(IR_OP_MUL24, IR_T_U32, 2);
    in.flags = IR_F_LO;
    CHECK_HEX(T2(&in, 0x1000001, 2), 2);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xffffff, 3), 0xfffffffd);
    in.type = IR_T_U32;
    in.flags = IR_F_HI;
    CHECK_HEX(T2(&in, 0xffffff, 0xffffff), 0xfffffe00);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xffffff, 2), 0xffffffff);     /* -1 * 2 = -2: bits 47..16 all ones */
    CHECK_HEX(T2(&in, 0x800000, 0x800000), 0x40000000); /* (-2^23)^2 = 2^46 */
    in = t_instr(IR_OP_MAD24, IR_T_S32, 3);
    in.flags = IR_F_HI | IR_F_SAT;
    CHECK_HEX(T3(&in, 0x800000, 0x800000, 0x7fffffff), 0x7fffffff);
    in.flags = IR_F_HI;
    CHECK_HEX(T3(&in, 0x800000, 0x800000, 0x7fffffff), 0xbfffffff);
}

static void test_mad(void)
{
    ir_instr in = t_instr(IR_OP_MAD, IR_T_S32, 3);
    in.flags = IR_F_LO;
    CHECK_HEX(T3(&in, 3, 4, 0xffffffec), 0xfffffff8);
    in.type = IR_T_U32;
    in.flags = IR_F_HI;
    CHECK_HEX(T3(&in, 0x80000000, 4, 5), 7);
    in.flags = IR_F_WIDE;
    CHECK_HEX(T3(&in, 0xffffffff, 0xffffffff, 0x1ffffffffull), 0);
    CHECK_HEX(T3(&in, 2, 3, 0xffffffff00000000ull), 0xffffffff00000006ull);
    in.type = IR_T_S16;
    CHECK_HEX(T3(&in, 0xfffe, 3, 0x10), 10);
    in.type = IR_T_S32;
    in.flags = IR_F_HI | IR_F_SAT;
    CHECK_HEX(T3(&in, 0x7fffffff, 0x7fffffff, 0x7fffffff), 0x7fffffff);
    CHECK_HEX(T3(&in, 0x80000000, 0x7fffffff, 0x80000000), 0x80000000);
    in.flags = IR_F_HI;
    CHECK_HEX(T3(&in, 0x7fffffff, 0x7fffffff, 0x7fffffff), 0xbffffffe);
    in.type = IR_T_U64;
    in.flags = IR_F_HI;
    CHECK_HEX(T3(&in, ~0ull, ~0ull, 2), 0);

    in = t_instr(IR_OP_MAD24, IR_T_U32, 3);
    in.flags = IR_F_LO;
    CHECK_HEX(T3(&in, 0xff000002, 3, 1), 7);

    in = t_instr(IR_OP_SAD, IR_T_U32, 3);
    CHECK_HEX(T3(&in, 3, 10, 100), 107);
    in.type = IR_T_S32;
    CHECK_HEX(T3(&in, 0xfffffffb, 5, 1), 11);
    in.type = IR_T_U16;
    CHECK_HEX(T3(&in, 0, 0xffff, 1), 0);
}

static void test_div_rem(void)
{
    ir_instr in = t_instr(IR_OP_DIV, IR_T_U32, 2);
    CHECK_HEX(T2(&in, 7, 2), 3);
    CHECK_HEX(T2(&in, 7, 0), 0xffffffff);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xfffffff9, 2), 0xfffffffd);
    CHECK_HEX(T2(&in, 7, 0xfffffffe), 0xfffffffd);
    CHECK_HEX(T2(&in, 0x80000000, 0xffffffff), 0x80000000);
    CHECK_HEX(T2(&in, 5, 0), 0xffffffff);
    CHECK_HEX(T2(&in, 0xfffffffb, 0), 0xffffffff);
    in.type = IR_T_S64;
    CHECK_HEX(T2(&in, 0x8000000000000000ull, ~0ull), 0x8000000000000000ull);
    CHECK_HEX(T2(&in, 0xfffffffffffffff9ull, 2), 0xfffffffffffffffdull);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, 12345, 0), ~0ull);
    CHECK_HEX(T2(&in, ~0ull, 0x100000000ull), 0xffffffff);
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x8000, 0xffff), 0x8000);
    CHECK_HEX(T2(&in, 0xff9c, 10), 0xfff6); /* -100 / 10 */

    in.op = IR_OP_REM;
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 7, 0), 7);
    CHECK_HEX(T2(&in, 7, 3), 1);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0xfffffff9, 2), 0xffffffff);
    CHECK_HEX(T2(&in, 7, 0xfffffffe), 1);
    CHECK_HEX(T2(&in, 0x80000000, 0xffffffff), 0);
    CHECK_HEX(T2(&in, 0xfffffff9, 0), 0xfffffff9);
    in.type = IR_T_S64;
    CHECK_HEX(T2(&in, 0x8000000000000000ull, ~0ull), 0);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, ~0ull, 10), 5);
}

static void test_min_max_abs_neg(void)
{
    ir_instr in = t_instr(IR_OP_MIN, IR_T_S32, 2);
    CHECK_HEX(T2(&in, 0xffffffff, 1), 0xffffffff);
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 0xffffffff, 1), 1);
    in.type = IR_T_S64;
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 0x7fffffffffffffffull), 0x8000000000000000ull);
    in.op = IR_OP_MAX;
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x8000, 0x7fff), 0x7fff);
    in.type = IR_T_U16;
    CHECK_HEX(T2(&in, 0x8000, 0x7fff), 0x8000);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 1), 0x8000000000000000ull);

    in = t_instr(IR_OP_ABS, IR_T_S32, 1);
    CHECK_HEX(T1(&in, 0xfffffffb), 5);
    CHECK_HEX(T1(&in, 5), 5);
    CHECK_HEX(T1(&in, 0x80000000), 0x80000000);
    in.type = IR_T_S16;
    CHECK_HEX(T1(&in, 0x8001), 0x7fff);
    in.type = IR_T_S64;
    CHECK_HEX(T1(&in, ~0ull), 1);
    in.op = IR_OP_NEG;
    in.type = IR_T_S32;
    CHECK_HEX(T1(&in, 5), 0xfffffffb);
    CHECK_HEX(T1(&in, 0x80000000), 0x80000000);
    CHECK_HEX(T1(&in, 0), 0);
    in.type = IR_T_S64;
    CHECK_HEX(T1(&in, 1), ~0ull);
}

static void test_not_alu(void)
{
    ir_instr in = t_instr(IR_OP_LD, IR_T_U32, 1);
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = &in;
    x.active = 1;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_NOT_ALU);
    in.op = IR_OP_BRA;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_NOT_ALU);
    in.op = IR_OP_ATOM;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_NOT_ALU);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/int/mov", test_mov);
    g_test_add_func("/exec/int/active-mask", test_active_mask);
    g_test_add_func("/exec/int/add-sub", test_add_sub);
    g_test_add_func("/exec/int/carry", test_carry);
    g_test_add_func("/exec/int/mul", test_mul);
    g_test_add_func("/exec/int/mad", test_mad);
    g_test_add_func("/exec/int/div-rem", test_div_rem);
    g_test_add_func("/exec/int/min-max-abs-neg", test_min_max_abs_neg);
    g_test_add_func("/exec/int/not-alu", test_not_alu);
    return g_test_run();
}
