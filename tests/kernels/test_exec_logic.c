/* test_exec_logic.c — ir_exec semantics: and/or/xor/not/cnot, shl/shr, shf, setp (with the
 * combining forms and two destinations), set, selp, slct, popc/clz/bfind/brev, bfe/bfi, prmt.
 * Expected values by hand. */
#include "tests/kernels/test_exec_util.h"

static void test_logic(void)
{
    ir_instr in = t_instr(IR_OP_AND, IR_T_B32, 2);
    CHECK_HEX(T2(&in, 0xf0f0f0f0, 0xff00ff00), 0xf000f000);
    in.op = IR_OP_OR;
    CHECK_HEX(T2(&in, 0xf0f0f0f0, 0xff00ff00), 0xfff0fff0);
    in.op = IR_OP_XOR;
    CHECK_HEX(T2(&in, 0xf0f0f0f0, 0xff00ff00), 0x0ff00ff0);
    in.type = IR_T_B64;
    CHECK_HEX(T2(&in, ~0ull, 1), 0xfffffffffffffffeull);
    in = t_instr(IR_OP_NOT, IR_T_B16, 1);
    CHECK_HEX(T1(&in, 0x00ff), 0xff00);
    in.type = IR_T_B64;
    CHECK_HEX(T1(&in, 0), ~0ull);
    in.op = IR_OP_CNOT;
    in.type = IR_T_B32;
    CHECK_HEX(T1(&in, 0), 1);
    CHECK_HEX(T1(&in, 5), 0);
    CHECK_HEX(T1(&in, 0x100000000ull), 1); /* only the type's 32 bits count */

    /* predicates, with `!` applied by ir_exec */
    in = t_instr(IR_OP_AND, IR_T_PRED, 2);
    CHECK_HEX(T2(&in, 1, 1), 1);
    in.src[1].neg = 1;
    CHECK_HEX(T2(&in, 1, 1), 0);
    CHECK_HEX(T2(&in, 1, 0), 1);
    in.op = IR_OP_OR;
    in.src[1].neg = 0;
    in.src[0].neg = 1;
    CHECK_HEX(T2(&in, 0, 0), 1);
    CHECK_HEX(T2(&in, 1, 0), 0);
    in.op = IR_OP_XOR;
    CHECK_HEX(T2(&in, 0, 1), 0);
    in = t_instr(IR_OP_NOT, IR_T_PRED, 1);
    CHECK_HEX(T1(&in, 1), 0);
    CHECK_HEX(T1(&in, 0), 1);
}

static void test_shifts(void)
{
    ir_instr in = t_instr(IR_OP_SHL, IR_T_B32, 2);
    CHECK_HEX(T2(&in, 1, 31), 0x80000000);
    CHECK_HEX(T2(&in, 1, 32), 0);
    CHECK_HEX(T2(&in, 1, 0xffffffff), 0);
    CHECK_HEX(T2(&in, 3, 0x100000001ull), 6); /* the amount is a u32 */
    in.type = IR_T_B16;
    CHECK_HEX(T2(&in, 0x8001, 1), 0x0002);
    CHECK_HEX(T2(&in, 1, 16), 0);
    in.type = IR_T_B64;
    CHECK_HEX(T2(&in, 1, 63), 0x8000000000000000ull);
    CHECK_HEX(T2(&in, 1, 64), 0);

    in.op = IR_OP_SHR;
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 0x80000000, 31), 1);
    CHECK_HEX(T2(&in, 0x80000000, 32), 0);
    in.type = IR_T_B32;
    CHECK_HEX(T2(&in, 0x80000000, 4), 0x08000000);
    in.type = IR_T_S32;
    CHECK_HEX(T2(&in, 0x80000000, 31), 0xffffffff);
    CHECK_HEX(T2(&in, 0x80000000, 100), 0xffffffff);
    CHECK_HEX(T2(&in, 0x40000000, 100), 0);
    CHECK_HEX(T2(&in, 0xfffffff0, 2), 0xfffffffc);
    in.type = IR_T_S16;
    CHECK_HEX(T2(&in, 0x8000, 15), 0xffff);
    CHECK_HEX(T2(&in, 0x8000, 16), 0xffff);
    in.type = IR_T_S64;
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 64), ~0ull);
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 60), 0xfffffffffffffff8ull);
    in.type = IR_T_U64;
    CHECK_HEX(T2(&in, 0x8000000000000000ull, 63), 1);
}

static void test_shf(void)
{
    /* {b, a} = 0x01234567_89abcdef */
    ir_instr in = t_instr(IR_OP_SHF, IR_T_B32, 3);
    in.sub = IR_SHF_L_WRAP;
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 8), 0x23456789);
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 40), 0x23456789);
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 0), 0x01234567);
    in.sub = IR_SHF_L_CLAMP;
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 40), 0x89abcdef);
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 32), 0x89abcdef);
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 4), 0x12345678);
    in.sub = IR_SHF_R_WRAP;
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 8), 0x6789abcd);
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 33), 0xc4d5e6f7);
    in.sub = IR_SHF_R_CLAMP;
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 40), 0x01234567);
    CHECK_HEX(T3(&in, 0x89abcdef, 0x01234567, 0), 0x89abcdef);
}

/* setp on lane 0 with two destinations; returns p | q << 1. */
static unsigned setp2(const ir_instr *in, uint64_t a, uint64_t b, uint64_t c)
{
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = in;
    x.active = 1;
    x.src[0].v[0] = a;
    x.src[1].v[0] = b;
    x.src[2].v[0] = c;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    g_assert_cmphex(x.dst_written, ==, 3);
    return (unsigned)(x.dst[0].v[0] | x.dst[1].v[0] << 1);
}

static void test_setp(void)
{
    ir_instr in = t_instr(IR_OP_SETP, IR_T_S32, 2);
    in.cmp = IR_CMP_LT;
    CHECK_HEX(T2(&in, 0xffffffff, 1), 1);
    in.type = IR_T_U32;
    CHECK_HEX(T2(&in, 0xffffffff, 1), 0);
    in.type = IR_T_S32;
    in.cmp = IR_CMP_LO; /* unsigned whatever the type */
    CHECK_HEX(T2(&in, 0xffffffff, 1), 0);
    in.cmp = IR_CMP_HI;
    CHECK_HEX(T2(&in, 0xffffffff, 1), 1);
    in.cmp = IR_CMP_LS;
    CHECK_HEX(T2(&in, 1, 1), 1);
    in.cmp = IR_CMP_HS;
    CHECK_HEX(T2(&in, 0, 1), 0);
    in.type = IR_T_S64;
    in.cmp = IR_CMP_GT;
    CHECK_HEX(T2(&in, 0x7fffffffffffffffull, 0x8000000000000000ull), 1);
    in.type = IR_T_S16;
    in.cmp = IR_CMP_GE;
    CHECK_HEX(T2(&in, 0x8000, 0x7fff), 0);
    in.cmp = IR_CMP_NE;
    CHECK_HEX(T2(&in, 0x18000, 0x8000), 0);

    /* floats: ordered comparisons are false with a NaN, unordered ones true */
    const uint64_t nan = 0x7fc00000, one = 0x3f800000, pz = 0, nz = 0x80000000;
    in.type = IR_T_F32;
    static const struct { ir_cmp c; unsigned nan_one, one_one, pz_nz, one_nan; } fl[] = {
        { IR_CMP_EQ, 0, 1, 1, 0 },  { IR_CMP_NE, 0, 0, 0, 0 },  { IR_CMP_LT, 0, 0, 0, 0 },
        { IR_CMP_LE, 0, 1, 1, 0 },  { IR_CMP_GT, 0, 0, 0, 0 },  { IR_CMP_GE, 0, 1, 1, 0 },
        { IR_CMP_EQU, 1, 1, 1, 1 }, { IR_CMP_NEU, 1, 0, 0, 1 }, { IR_CMP_LTU, 1, 0, 0, 1 },
        { IR_CMP_LEU, 1, 1, 1, 1 }, { IR_CMP_GTU, 1, 0, 0, 1 }, { IR_CMP_GEU, 1, 1, 1, 1 },
        { IR_CMP_NUM, 0, 1, 1, 0 }, { IR_CMP_NAN, 1, 0, 0, 1 },
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(fl); i++) {
        in.cmp = fl[i].c;
        CHECK_HEX(T2(&in, nan, one), fl[i].nan_one);
        CHECK_HEX(T2(&in, one, one), fl[i].one_one);
        CHECK_HEX(T2(&in, pz, nz), fl[i].pz_nz);
        CHECK_HEX(T2(&in, one, nan), fl[i].one_nan);
    }
    in.cmp = IR_CMP_LT;
    CHECK_HEX(T2(&in, fb(-INFINITY), fb(-3.4e38f)), 1);
    /* .ftz: a subnormal compares as zero */
    in.cmp = IR_CMP_GT;
    CHECK_HEX(T2(&in, 1, 0), 1);
    in.flags = IR_F_FTZ;
    CHECK_HEX(T2(&in, 1, 0), 0);
    in.flags = 0;
    in.type = IR_T_F64;
    in.cmp = IR_CMP_LT;
    CHECK_HEX(T2(&in, db(1.0), db(1.0000000000000002)), 1);
    in.cmp = IR_CMP_NEU;
    CHECK_HEX(T2(&in, 0x7ff8000000000000ull, db(1.0)), 1);

    /* p|q and the combining forms with a (negated) c */
    in = t_instr(IR_OP_SETP, IR_T_S32, 3);
    in.n_dst = 2;
    in.cmp = IR_CMP_LT;
    in.boolop = IR_BOOL_AND;
    g_assert_cmpuint(setp2(&in, 1, 2, 1), ==, 1); /* p = 1&1, q = 0&1 */
    g_assert_cmpuint(setp2(&in, 3, 2, 1), ==, 2);
    g_assert_cmpuint(setp2(&in, 1, 2, 0), ==, 0);
    in.src[2].neg = 1;
    g_assert_cmpuint(setp2(&in, 1, 2, 0), ==, 1);
    g_assert_cmpuint(setp2(&in, 1, 2, 1), ==, 0);
    in.src[2].neg = 0;
    in.boolop = IR_BOOL_OR;
    in.cmp = IR_CMP_GE;
    in.type = IR_T_U32;
    g_assert_cmpuint(setp2(&in, 1, 2, 1), ==, 3);
    g_assert_cmpuint(setp2(&in, 1, 2, 0), ==, 2);
    in.boolop = IR_BOOL_XOR;
    in.cmp = IR_CMP_LT;
    g_assert_cmpuint(setp2(&in, 1, 2, 1), ==, 2);
    g_assert_cmpuint(setp2(&in, 1, 2, 0), ==, 1);
    in.boolop = IR_BOOL_NONE;
    in.n_src = 2;
    g_assert_cmpuint(setp2(&in, 1, 2, 0), ==, 1);
    g_assert_cmpuint(setp2(&in, 2, 1, 0), ==, 2);

    /* ir_exec_compare directly */
    g_assert_true(ir_exec_compare(IR_CMP_LT, IR_T_S8, 0x80, 0x7f, false));
    g_assert_false(ir_exec_compare(IR_CMP_LT, IR_T_U8, 0x80, 0x7f, false));
    g_assert_true(ir_exec_compare(IR_CMP_EQ, IR_T_F32, 0x80000001, 0, true));
    g_assert_false(ir_exec_compare(IR_CMP_EQ, IR_T_F32, 0x80000001, 0, false));
    g_assert_true(ir_exec_compare(IR_CMP_GT, IR_T_F16, 0x3c00, 0x3bff, false)); /* 1.0 > 0.99951 */
    g_assert_true(ir_exec_compare(IR_CMP_NAN, IR_T_F16, 0x7e00, 0, false));
}

static void test_set_selp_slct(void)
{
    ir_instr in = t_instr(IR_OP_SET, IR_T_S32, 2);
    in.type2 = IR_T_U32;
    in.cmp = IR_CMP_LT;
    CHECK_HEX(T2(&in, 0xffffffff, 0), 0xffffffff);
    CHECK_HEX(T2(&in, 0, 0), 0);
    in.type2 = IR_T_F32;
    CHECK_HEX(T2(&in, 0xffffffff, 0), 0x3f800000);
    in.type = IR_T_F32;
    in.cmp = IR_CMP_EQU;
    CHECK_HEX(T2(&in, 0x7fc00000, 0), 0x3f800000);
    in.n_src = 3;
    in.boolop = IR_BOOL_AND;
    in.src[2].neg = 1;
    CHECK_HEX(T3(&in, 0x7fc00000, 0, 1), 0);
    CHECK_HEX(T3(&in, 0x7fc00000, 0, 0), 0x3f800000);

    in = t_instr(IR_OP_SELP, IR_T_B32, 3);
    CHECK_HEX(T3(&in, 0x11, 0x22, 1), 0x11);
    CHECK_HEX(T3(&in, 0x11, 0x22, 0), 0x22);
    in.src[2].neg = 1;
    CHECK_HEX(T3(&in, 0x11, 0x22, 1), 0x22);
    in.type = IR_T_F64;
    in.src[2].neg = 0;
    CHECK_HEX(T3(&in, db(1.5), db(2.5), 1), db(1.5));
    in.type = IR_T_U16;
    CHECK_HEX(T3(&in, 0x12345, 0, 1), 0x2345);

    in = t_instr(IR_OP_SLCT, IR_T_U32, 3);
    in.type2 = IR_T_S32;
    CHECK_HEX(T3(&in, 0x11, 0x22, 0), 0x11);
    CHECK_HEX(T3(&in, 0x11, 0x22, 0x7fffffff), 0x11);
    CHECK_HEX(T3(&in, 0x11, 0x22, 0xffffffff), 0x22);
    in.type2 = IR_T_F32;
    CHECK_HEX(T3(&in, 0x11, 0x22, 0x80000000), 0x11); /* -0 >= 0 */
    CHECK_HEX(T3(&in, 0x11, 0x22, 0x7fc00000), 0x22); /* NaN selects b */
    CHECK_HEX(T3(&in, 0x11, 0x22, 0x80000001), 0x22); /* -subnormal < 0 */
    in.flags = IR_F_FTZ;
    CHECK_HEX(T3(&in, 0x11, 0x22, 0x80000001), 0x11); /* flushed to -0 */
}

static void test_bit_counts(void)
{
    ir_instr in = t_instr(IR_OP_POPC, IR_T_B32, 1);
    CHECK_HEX(T1(&in, 0xf0f0f0f1), 17);
    CHECK_HEX(T1(&in, 0xffffffff00000000ull), 0);
    in.type = IR_T_B64;
    CHECK_HEX(T1(&in, ~0ull), 64);

    in.op = IR_OP_CLZ;
    in.type = IR_T_B32;
    CHECK_HEX(T1(&in, 0), 32);
    CHECK_HEX(T1(&in, 1), 31);
    CHECK_HEX(T1(&in, 0x80000000), 0);
    in.type = IR_T_B64;
    CHECK_HEX(T1(&in, 1), 63);
    CHECK_HEX(T1(&in, 0), 64);

    in.op = IR_OP_BFIND;
    in.type = IR_T_U32;
    CHECK_HEX(T1(&in, 0), 0xffffffff);
    CHECK_HEX(T1(&in, 1), 0);
    CHECK_HEX(T1(&in, 0x80000000), 31);
    CHECK_HEX(T1(&in, 0x00012345), 16);
    in.type = IR_T_S32;
    CHECK_HEX(T1(&in, 0xffffffff), 0xffffffff);
    CHECK_HEX(T1(&in, 0xfffffffe), 0);
    CHECK_HEX(T1(&in, 0x80000000), 30);
    CHECK_HEX(T1(&in, 5), 2);
    CHECK_HEX(T1(&in, 0), 0xffffffff);
    in.type = IR_T_U64;
    CHECK_HEX(T1(&in, 0x8000000000000000ull), 63);
    in.type = IR_T_S64;
    CHECK_HEX(T1(&in, 0), 0xffffffff);
    CHECK_HEX(T1(&in, 0xfffffffff0000000ull), 27);
    in.flags = IR_F_SHIFTAMT;
    CHECK_HEX(T1(&in, 0xfffffffff0000000ull), 36);
    CHECK_HEX(T1(&in, ~0ull), 0xffffffff);
    in.type = IR_T_U32;
    CHECK_HEX(T1(&in, 1), 31);
    CHECK_HEX(T1(&in, 0x80000000), 0);
    CHECK_HEX(T1(&in, 0), 0xffffffff);

    in = t_instr(IR_OP_BREV, IR_T_B32, 1);
    CHECK_HEX(T1(&in, 1), 0x80000000);
    CHECK_HEX(T1(&in, 0x12345678), 0x1e6a2c48);
    in.type = IR_T_B64;
    CHECK_HEX(T1(&in, 1), 0x8000000000000000ull);
    CHECK_HEX(T1(&in, 0x12345678), 0x1e6a2c4800000000ull);
    CHECK_HEX(T1(&in, 0x0123456789abcdefull), 0xf7b3d591e6a2c480ull);
    in.type = IR_T_B32;
    CHECK_HEX(T1(&in, 0xf0000000), 0x0000000f);
    CHECK_HEX(T1(&in, 0x1f0000000ull), 0x0000000f); /* bits above 32 ignored */
}

static void test_bfe_bfi(void)
{
    ir_instr in = t_instr(IR_OP_BFE, IR_T_U32, 3);
    CHECK_HEX(T3(&in, 0x12345678, 4, 8), 0x67);
    CHECK_HEX(T3(&in, 0x12345678, 28, 8), 0x1);
    CHECK_HEX(T3(&in, 0x12345678, 0x104, 0x108), 0x67); /* only the low 8 bits of pos/len */
    CHECK_HEX(T3(&in, 0x12345678, 4, 0), 0);
    CHECK_HEX(T3(&in, 0x12345678, 40, 4), 0);
    CHECK_HEX(T3(&in, 0x82345678, 0, 32), 0x82345678);
    in.type = IR_T_S32;
    CHECK_HEX(T3(&in, 0x000008f0, 4, 8), 0xffffff8f);
    CHECK_HEX(T3(&in, 0x000007f0, 4, 8), 0x7f);
    CHECK_HEX(T3(&in, 0x80000000, 28, 8), 0xfffffff8);
    CHECK_HEX(T3(&in, 0x80000000, 40, 4), 0xffffffff);
    CHECK_HEX(T3(&in, 0x80000000, 4, 0), 0);
    CHECK_HEX(T3(&in, 0x00000010, 4, 1), 0xffffffff);
    in.type = IR_T_U64;
    CHECK_HEX(T3(&in, 0xfedcba9876543210ull, 60, 8), 0xf);
    CHECK_HEX(T3(&in, 0xfedcba9876543210ull, 32, 16), 0xba98);
    in.type = IR_T_S64;
    CHECK_HEX(T3(&in, 0xfedcba9876543210ull, 60, 8), ~0ull);
    CHECK_HEX(T3(&in, 0xfedcba9876543210ull, 32, 16), 0xffffffffffffba98ull);

    in = t_instr(IR_OP_BFI, IR_T_B32, 4);
    CHECK_HEX(t_run(&in, 0xff, 0x12345678, 8, 4), 0x12345f78);
    CHECK_HEX(t_run(&in, 0xff, 0x12345678, 28, 8), 0xf2345678);
    CHECK_HEX(t_run(&in, 0xff, 0x12345678, 8, 0), 0x12345678);
    CHECK_HEX(t_run(&in, 0xff, 0x12345678, 32, 8), 0x12345678);
    CHECK_HEX(t_run(&in, 0, 0xffffffff, 0, 32), 0);
    CHECK_HEX(t_run(&in, 0xff, 0x12345678, 0x108, 0x104), 0x12345f78);
    in.type = IR_T_B64;
    CHECK_HEX(t_run(&in, 0xabc, 0, 60, 12), 0xc000000000000000ull);
    CHECK_HEX(t_run(&in, 0xabc, ~0ull, 32, 12), 0xfffffabcffffffffull);
}

static void test_prmt(void)
{
    const uint64_t a = 0x33221100, b = 0x77665544;
    ir_instr in = t_instr(IR_OP_PRMT, IR_T_B32, 3);
    CHECK_HEX(T3(&in, a, b, 0x3210), 0x33221100);
    CHECK_HEX(T3(&in, a, b, 0x7654), 0x77665544);
    CHECK_HEX(T3(&in, a, b, 0x0123), 0x00112233);
    CHECK_HEX(T3(&in, a, b, 0x4444), 0x44444444);
    CHECK_HEX(T3(&in, 0x7f80ff01, 0, 0xba98), 0x00ffff00); /* sign replication */
    CHECK_HEX(T3(&in, a, b, 0xffff0000 | 0x3210), 0x33221100); /* c[31:16] ignored */
    static const struct { ir_prmt_mode m; unsigned c; uint32_t d; } t[] = {
        { IR_PRMT_F4E, 0, 0x33221100 },  { IR_PRMT_F4E, 1, 0x44332211 },  { IR_PRMT_F4E, 3, 0x66554433 },
        { IR_PRMT_B4E, 0, 0x55667700 },  { IR_PRMT_B4E, 1, 0x66770011 },  { IR_PRMT_B4E, 3, 0x00112233 },
        { IR_PRMT_RC8, 2, 0x22222222 },  { IR_PRMT_RC8, 3, 0x33333333 },  { IR_PRMT_ECL, 0, 0x33221100 },
        { IR_PRMT_ECL, 1, 0x33221111 },  { IR_PRMT_ECL, 3, 0x33333333 },  { IR_PRMT_ECR, 0, 0x00000000 },
        { IR_PRMT_ECR, 2, 0x22221100 },  { IR_PRMT_ECR, 3, 0x33221100 },  { IR_PRMT_RC16, 0, 0x11001100 },
        { IR_PRMT_RC16, 1, 0x33223322 }, { IR_PRMT_RC16, 6, 0x11001100 },
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(t); i++) {
        in.sub = (uint8_t)t[i].m;
        CHECK_HEX(T3(&in, a, b, t[i].c), t[i].d);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/logic/and-or-xor-not-cnot", test_logic);
    g_test_add_func("/exec/logic/shl-shr", test_shifts);
    g_test_add_func("/exec/logic/shf", test_shf);
    g_test_add_func("/exec/logic/setp", test_setp);
    g_test_add_func("/exec/logic/set-selp-slct", test_set_selp_slct);
    g_test_add_func("/exec/logic/popc-clz-bfind-brev", test_bit_counts);
    g_test_add_func("/exec/logic/bfe-bfi", test_bfe_bfi);
    g_test_add_func("/exec/logic/prmt", test_prmt);
    return g_test_run();
}
