/* test_exec_float.c — ir_exec semantics of f32/f64 operations: add/sub/mul/fma/mad/div/rcp/sqrt in
 * every rounding mode, .ftz, .sat, NaN/inf, min/max, abs/neg, copysign, testp and the .approx
 * functions. Correctly rounded expectations were computed with exact rational arithmetic (Python
 * fractions) and written here as constants; approximations are checked against bounds. */
#include "tests/kernels/test_exec_util.h"

static const ir_round modes[4] = { IR_RND_RN, IR_RND_RZ, IR_RND_RM, IR_RND_RP };

/* For op with two operands (a, b) and (-a, b): expected results per mode [RN, RZ, RM, RP]. */
static void check_modes(ir_opcode op, ir_type t, uint64_t a, uint64_t na, uint64_t b, const uint64_t pos[4],
                        const uint64_t neg[4])
{
    ir_instr in = t_instr(op, t, 2);
    for (unsigned m = 0; m < 4; m++) {
        in.rnd = (uint8_t)modes[m];
        CHECK_HEX(T2(&in, a, b), pos[m]);
        CHECK_HEX(T2(&in, na, b), neg[m]);
    }
}

static void test_rounding_modes(void)
{
    /* f32: 1 + 0.75 ulp */
    check_modes(IR_OP_ADD, IR_T_F32, 0x3f800000, 0xbf800000, 0x33c00000 /* 3*2^-25 */,
                (const uint64_t[]){ 0x3f800001, 0x3f800000, 0x3f800000, 0x3f800001 },
                (const uint64_t[]){ 0xbf7ffffe, 0xbf7ffffe, 0xbf7fffff, 0xbf7ffffe });
    /* (-1) + 3*2^-25 falls in the binade below 1: a tie there */
    check_modes(IR_OP_SUB, IR_T_F32, 0x3f800000, 0xbf800000, 0xb3c00000,
                (const uint64_t[]){ 0x3f800001, 0x3f800000, 0x3f800000, 0x3f800001 },
                (const uint64_t[]){ 0xbf7ffffe, 0xbf7ffffe, 0xbf7fffff, 0xbf7ffffe });
    ir_instr in = t_instr(IR_OP_ADD, IR_T_F32, 2);
    const uint64_t addn[4] = { 0xbf800001, 0xbf800000, 0xbf800001, 0xbf800000 };
    for (unsigned m = 0; m < 4; m++) {
        in.rnd = (uint8_t)modes[m];
        CHECK_HEX(T2(&in, 0xbf800000, 0xb3c00000), addn[m]);
    }
    /* f32 mul: 1.5 * (1 + 2^-23) = a tie */
    check_modes(IR_OP_MUL, IR_T_F32, 0x3fc00000, 0xbfc00000, 0x3f800001,
                (const uint64_t[]){ 0x3fc00002, 0x3fc00001, 0x3fc00001, 0x3fc00002 },
                (const uint64_t[]){ 0xbfc00002, 0xbfc00001, 0xbfc00002, 0xbfc00001 });
    /* f32 div: 1/3 */
    check_modes(IR_OP_DIV, IR_T_F32, 0x3f800000, 0xbf800000, 0x40400000,
                (const uint64_t[]){ 0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab },
                (const uint64_t[]){ 0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa });
    /* f64 */
    check_modes(IR_OP_ADD, IR_T_F64, db(1.0), db(-1.0), 0x3ca8000000000000ull,
                (const uint64_t[]){ 0x3ff0000000000001ull, 0x3ff0000000000000ull, 0x3ff0000000000000ull,
                                    0x3ff0000000000001ull },
                (const uint64_t[]){ 0xbfeffffffffffffeull, 0xbfeffffffffffffeull, 0xbfefffffffffffffull,
                                    0xbfeffffffffffffeull });
    check_modes(IR_OP_MUL, IR_T_F64, 0x3ff8000000000000ull, 0xbff8000000000000ull, 0x3ff0000000000001ull,
                (const uint64_t[]){ 0x3ff8000000000002ull, 0x3ff8000000000001ull, 0x3ff8000000000001ull,
                                    0x3ff8000000000002ull },
                (const uint64_t[]){ 0xbff8000000000002ull, 0xbff8000000000001ull, 0xbff8000000000002ull,
                                    0xbff8000000000001ull });
    check_modes(IR_OP_DIV, IR_T_F64, db(1.0), db(-1.0), db(3.0),
                (const uint64_t[]){ 0x3fd5555555555555ull, 0x3fd5555555555555ull, 0x3fd5555555555555ull,
                                    0x3fd5555555555556ull },
                (const uint64_t[]){ 0xbfd5555555555555ull, 0xbfd5555555555555ull, 0xbfd5555555555556ull,
                                    0xbfd5555555555555ull });

    /* fma/mad: fused (a single rounding) and per mode */
    in = t_instr(IR_OP_FMA, IR_T_F32, 3);
    in.rnd = IR_RND_RN;
    CHECK_HEX(T3(&in, 0x3f800001, 0x3f7fffff, 0xbf800000), 0x337ffffe);
    in.op = IR_OP_MAD;
    CHECK_HEX(T3(&in, 0x3f800001, 0x3f7fffff, 0xbf800000), 0x337ffffe);
    in.op = IR_OP_FMA;
    const uint64_t fmap[4] = { 0x3fc00002, 0x3fc00001, 0x3fc00001, 0x3fc00002 };
    for (unsigned m = 0; m < 4; m++) {
        in.rnd = (uint8_t)modes[m];
        CHECK_HEX(T3(&in, 0x3fc00000, 0x3f800001, 0), fmap[m]);
    }
    in.type = IR_T_F64;
    in.rnd = IR_RND_RN;
    /* (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105 exactly representable */
    CHECK_HEX(T3(&in, 0x3ff0000000000001ull, 0x3fefffffffffffffull, db(-1.0)), 0x3c9ffffffffffffeull);

    /* sqrt.rn/rz/rm/rp, rcp.rn/... */
    in = t_instr(IR_OP_SQRT, IR_T_F32, 1);
    const uint64_t s5[4] = { 0x400f1bbd, 0x400f1bbc, 0x400f1bbc, 0x400f1bbd };
    const uint64_t s2d[4] = { 0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bccull, 0x3ff6a09e667f3bccull,
                              0x3ff6a09e667f3bcdull };
    for (unsigned m = 0; m < 4; m++) {
        in.rnd = (uint8_t)modes[m];
        in.type = IR_T_F32;
        CHECK_HEX(T1(&in, fb(5.0f)), s5[m]);
        in.type = IR_T_F64;
        CHECK_HEX(T1(&in, db(2.0)), s2d[m]);
    }
    in = t_instr(IR_OP_RCP, IR_T_F32, 1);
    const uint64_t r3[4] = { 0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab };
    for (unsigned m = 0; m < 4; m++) {
        in.rnd = (uint8_t)modes[m];
        CHECK_HEX(T1(&in, fb(3.0f)), r3[m]);
    }
    /* the FPU mode is restored */
    volatile float one = 1.0f, three = 3.0f;
    CHECK_HEX(fb(one / three), 0x3eaaaaab);
}

static void test_ftz_sat_denormals(void)
{
    ir_instr in = t_instr(IR_OP_ADD, IR_T_F32, 2);
    CHECK_HEX(T2(&in, 0x00000001, 0), 0x00000001); /* denormals preserved without .ftz */
    in.flags = IR_F_FTZ;
    CHECK_HEX(T2(&in, 0x00000001, 0), 0);
    CHECK_HEX(T2(&in, 0x80000001, 0x80000000), 0x80000000);
    CHECK_HEX(T2(&in, 0x00800000, 0x80000001), 0x00800000); /* input flushed before the add */
    in = t_instr(IR_OP_MUL, IR_T_F32, 2);
    CHECK_HEX(T2(&in, fb(0x1p-70f), fb(0x1p-70f)), 0x00000200); /* 2^-140 */
    in.flags = IR_F_FTZ;
    CHECK_HEX(T2(&in, fb(0x1p-70f), fb(0x1p-70f)), 0);
    CHECK_HEX(T2(&in, fb(-0x1p-70f), fb(0x1p-70f)), 0x80000000);
    in = t_instr(IR_OP_FMA, IR_T_F32, 3);
    in.rnd = IR_RND_RN;
    CHECK_HEX(T3(&in, 0x00400000, fb(2.0f), 0), 0x00800000); /* subnormal input, normal result */
    in.flags = IR_F_FTZ;
    CHECK_HEX(T3(&in, 0x00400000, fb(2.0f), 0), 0);

    in = t_instr(IR_OP_ADD, IR_T_F32, 2);
    in.flags = IR_F_SAT;
    CHECK_HEX(T2(&in, fb(0.75f), fb(0.5f)), fb(1.0f));
    CHECK_HEX(T2(&in, fb(-0.5f), fb(0.25f)), 0);
    CHECK_HEX(T2(&in, fb(0.25f), fb(0.25f)), fb(0.5f));
    CHECK_HEX(T2(&in, fb(INFINITY), fb(-INFINITY)), 0); /* NaN -> +0 */
    CHECK_HEX(T2(&in, fb(-0.0f), fb(-0.0f)), 0);
    in = t_instr(IR_OP_FMA, IR_T_F32, 3);
    in.rnd = IR_RND_RN;
    in.flags = IR_F_SAT;
    CHECK_HEX(T3(&in, fb(2.0f), fb(2.0f), fb(-3.5f)), fb(0.5f));
    CHECK_HEX(T3(&in, fb(2.0f), fb(2.0f), fb(-1.0f)), fb(1.0f));
}

static void test_nan_inf(void)
{
    ir_instr in = t_instr(IR_OP_ADD, IR_T_F32, 2);
    CHECK_HEX(T2(&in, fb(INFINITY), fb(-INFINITY)), 0x7fffffff);
    CHECK_HEX(T2(&in, 0xffc00001, fb(1.0f)), 0x7fffffff);
    CHECK_HEX(T2(&in, fb(INFINITY), fb(1.0f)), 0x7f800000);
    CHECK_HEX(T2(&in, fb(3.0e38f), fb(3.0e38f)), 0x7f800000);
    in.rnd = IR_RND_RZ;
    CHECK_HEX(T2(&in, fb(3.0e38f), fb(3.0e38f)), 0x7f7fffff); /* overflow in RZ: max finite */
    in.rnd = IR_RND_NONE;
    in.op = IR_OP_MUL;
    CHECK_HEX(T2(&in, fb(0.0f), fb(INFINITY)), 0x7fffffff);
    CHECK_HEX(T2(&in, fb(-0.0f), fb(5.0f)), 0x80000000);
    in.op = IR_OP_DIV;
    in.rnd = IR_RND_RN;
    CHECK_HEX(T2(&in, fb(1.0f), 0), 0x7f800000);
    CHECK_HEX(T2(&in, fb(-1.0f), 0), 0xff800000);
    CHECK_HEX(T2(&in, 0, 0), 0x7fffffff);
    in.type = IR_T_F64;
    CHECK_HEX(T2(&in, 0, 0), 0x7fffffffffffffffull);
    in.op = IR_OP_SUB;
    CHECK_HEX(T2(&in, db(INFINITY), db(INFINITY)), 0x7fffffffffffffffull);
    CHECK_HEX(T2(&in, db(1.0), db(1.0)), 0);
    in.rnd = IR_RND_RM;
    CHECK_HEX(T2(&in, db(1.0), db(1.0)), 0x8000000000000000ull); /* x - x = -0 rounding down */
}

static void test_div_variants(void)
{
    ir_instr in = t_instr(IR_OP_DIV, IR_T_F32, 2);
    in.flags = IR_F_FULL;
    CHECK_HEX(T2(&in, fb(1.0f), fb(3.0f)), 0x3eaaaaab);
    in.flags = IR_F_APPROX;
    uint32_t r = (uint32_t)T2(&in, fb(1.0f), fb(3.0f));
    g_assert_cmpint(llabs((long long)r - 0x3eaaaaab), <=, 2);
    CHECK_HEX(T2(&in, fb(1.0f), 0x7f000000), 0);          /* |b| in (2^126, 2^128): 0 */
    CHECK_HEX(T2(&in, fb(-1.0f), 0x7f000000), 0x80000000);
    CHECK_HEX(T2(&in, fb(INFINITY), 0x7f000000), 0x7fffffff); /* ... NaN for an infinite a */
    CHECK_HEX(T2(&in, fb(6.0f), fb(2.0f)), fb(3.0f));
    CHECK_HEX(T2(&in, fb(1.0f), 0), 0x7f800000);
    in.flags = IR_F_APPROX | IR_F_FTZ;
    CHECK_HEX(T2(&in, 0x00000001, fb(1.0f)), 0);
}

static void test_min_max(void)
{
    ir_instr in = t_instr(IR_OP_MIN, IR_T_F32, 2);
    CHECK_HEX(T2(&in, 0x7fc00000, fb(1.0f)), fb(1.0f));
    CHECK_HEX(T2(&in, fb(1.0f), 0xffc00000), fb(1.0f));
    CHECK_HEX(T2(&in, 0x7fc00000, 0xffc00001), 0x7fffffff);
    CHECK_HEX(T2(&in, 0, 0x80000000), 0x80000000);
    CHECK_HEX(T2(&in, 0x80000000, 0), 0x80000000);
    CHECK_HEX(T2(&in, fb(-INFINITY), fb(3.0f)), fb(-INFINITY));
    CHECK_HEX(T2(&in, fb(2.0f), fb(3.0f)), fb(2.0f));
    CHECK_HEX(T2(&in, 0x00000001, 0x00000002), 0x00000001);
    in.flags = IR_F_FTZ;
    CHECK_HEX(T2(&in, 0x80000001, 0), 0x80000000);
    CHECK_HEX(T2(&in, 0x00000001, 0x00000002), 0);
    in.flags = 0;
    in.op = IR_OP_MAX;
    CHECK_HEX(T2(&in, 0x7fc00000, fb(-1.0f)), fb(-1.0f));
    CHECK_HEX(T2(&in, 0, 0x80000000), 0);
    CHECK_HEX(T2(&in, 0x80000000, 0), 0);
    CHECK_HEX(T2(&in, fb(2.0f), fb(3.0f)), fb(3.0f));
    in.type = IR_T_F64;
    CHECK_HEX(T2(&in, 0x7ff8000000000000ull, db(-2.0)), db(-2.0));
    CHECK_HEX(T2(&in, 0x7ff8000000000000ull, 0xfff8000000000000ull), 0x7fffffffffffffffull);
    CHECK_HEX(T2(&in, db(1.0), db(1.5)), db(1.5));
    in.op = IR_OP_MIN;
    CHECK_HEX(T2(&in, db(1.0), db(1.5)), db(1.0));
    CHECK_HEX(T2(&in, 0, 0x8000000000000000ull), 0x8000000000000000ull);
    /* min.NaN / max.NaN propagate a NaN */
    in.flags = IR_F_NAN;
    CHECK_HEX(T2(&in, 0x7ff8000000000000ull, db(-2.0)), 0x7fffffffffffffffull);
    CHECK_HEX(T2(&in, db(1.0), db(1.5)), db(1.0));
    in.type = IR_T_F32;
    CHECK_HEX(T2(&in, fb(1.0f), 0x7fc00000), 0x7fffffff);
    in.op = IR_OP_MAX;
    CHECK_HEX(T2(&in, 0xffc00000, fb(1.0f)), 0x7fffffff);
    CHECK_HEX(T2(&in, fb(1.0f), fb(-1.0f)), fb(1.0f));
}

static void test_abs_neg_copysign(void)
{
    ir_instr in = t_instr(IR_OP_ABS, IR_T_F32, 1);
    CHECK_HEX(T1(&in, 0x80000000), 0);
    CHECK_HEX(T1(&in, fb(-2.5f)), fb(2.5f));
    CHECK_HEX(T1(&in, 0xffc00001), 0x7fc00001);
    CHECK_HEX(T1(&in, 0x80000001), 0x00000001);
    in.flags = IR_F_FTZ;
    CHECK_HEX(T1(&in, 0x80000001), 0);
    in.flags = 0;
    in.op = IR_OP_NEG;
    CHECK_HEX(T1(&in, 0), 0x80000000);
    CHECK_HEX(T1(&in, fb(1.0f)), fb(-1.0f));
    CHECK_HEX(T1(&in, 0x00000001), 0x80000001);
    in.flags = IR_F_FTZ;
    CHECK_HEX(T1(&in, 0x00000001), 0x80000000);
    in.flags = 0;
    in.type = IR_T_F64;
    CHECK_HEX(T1(&in, db(2.0)), db(-2.0));
    in.op = IR_OP_ABS;
    CHECK_HEX(T1(&in, db(-INFINITY)), db(INFINITY));

    in = t_instr(IR_OP_COPYSIGN, IR_T_F32, 2);
    CHECK_HEX(T2(&in, fb(-1.0f), fb(2.0f)), fb(-2.0f));
    CHECK_HEX(T2(&in, fb(1.0f), fb(-2.0f)), fb(2.0f));
    CHECK_HEX(T2(&in, 0, fb(-INFINITY)), fb(INFINITY));
    CHECK_HEX(T2(&in, 0x80000000, 0x7fc00001), 0xffc00001);
    in.type = IR_T_F64;
    CHECK_HEX(T2(&in, db(-0.0), db(3.0)), db(-3.0));
    CHECK_HEX(T2(&in, db(5.0), db(-3.0)), db(3.0));
}

static void test_testp(void)
{
    /* values: 1.0, +0, min subnormal, -inf, NaN */
    static const uint32_t v32[5] = { 0x3f800000, 0, 0x00000001, 0xff800000, 0x7fc00000 };
    static const uint64_t v64[5] = { 0x3ff0000000000000ull, 0, 1, 0xfff0000000000000ull, 0x7ff8000000000000ull };
    static const struct { ir_testp_kind k; unsigned want[5]; } t[] = {
        { IR_TESTP_FINITE, { 1, 1, 1, 0, 0 } },  { IR_TESTP_INFINITE, { 0, 0, 0, 1, 0 } },
        { IR_TESTP_NUMBER, { 1, 1, 1, 1, 0 } },  { IR_TESTP_NOTANUMBER, { 0, 0, 0, 0, 1 } },
        { IR_TESTP_NORMAL, { 1, 0, 0, 0, 0 } },  { IR_TESTP_SUBNORMAL, { 0, 0, 1, 0, 0 } },
    };
    ir_instr in = t_instr(IR_OP_TESTP, IR_T_F32, 1);
    for (unsigned i = 0; i < G_N_ELEMENTS(t); i++) {
        in.sub = (uint8_t)t[i].k;
        for (unsigned j = 0; j < 5; j++) {
            in.type = IR_T_F32;
            CHECK_HEX(T1(&in, v32[j]), t[i].want[j]);
            in.type = IR_T_F64;
            CHECK_HEX(T1(&in, v64[j]), t[i].want[j]);
        }
    }
}

/* |got - want| in ulps of f32 (same sign, finite). */
static unsigned ulp_diff(uint64_t got, float want)
{
    long long d = (long long)(uint32_t)got - (long long)fb(want);
    return (unsigned)llabs(d);
}

static void test_sfu(void)
{
    ir_instr in = t_instr(IR_OP_RCP, IR_T_F32, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, fb(2.0f)), fb(0.5f));
    CHECK_HEX(T1(&in, 0), 0x7f800000);
    CHECK_HEX(T1(&in, 0x80000000), 0xff800000);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0);
    in.rnd = IR_RND_RN;
    in.flags = 0;
    CHECK_HEX(T1(&in, 0x80000000), 0xff800000);
    in.type = IR_T_F64;
    CHECK_HEX(T1(&in, db(3.0)), 0x3fd5555555555555ull);
    in.rnd = IR_RND_NONE;
    in.flags = IR_F_APPROX | IR_F_FTZ; /* rcp.approx.ftz.f64 */
    CHECK_HEX(T1(&in, 1), 0x7ff0000000000000ull);
    CHECK_HEX(T1(&in, db(0x1.8p1023)), 0);
    CHECK_HEX(T1(&in, db(4.0)), db(0.25));

    in = t_instr(IR_OP_SQRT, IR_T_F32, 1);
    in.rnd = IR_RND_RN;
    CHECK_HEX(T1(&in, fb(-1.0f)), 0x7fffffff);
    CHECK_HEX(T1(&in, 0x80000000), 0x80000000);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0x7f800000);
    in.rnd = IR_RND_NONE;
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, fb(4.0f)), fb(2.0f));
    g_assert_cmpuint(ulp_diff(T1(&in, fb(2.0f)), 1.41421356f), <=, 1);
    in.flags = IR_F_APPROX | IR_F_FTZ;
    CHECK_HEX(T1(&in, 0x00000004), 0);

    in = t_instr(IR_OP_RSQRT, IR_T_F32, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, fb(4.0f)), fb(0.5f));
    CHECK_HEX(T1(&in, 0), 0x7f800000);
    CHECK_HEX(T1(&in, 0x80000000), 0xff800000);
    CHECK_HEX(T1(&in, fb(-1.0f)), 0x7fffffff);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0);
    in.type = IR_T_F64;
    CHECK_HEX(T1(&in, db(0.25)), db(2.0));

    in = t_instr(IR_OP_EX2, IR_T_F32, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, fb(3.0f)), fb(8.0f));
    CHECK_HEX(T1(&in, fb(-INFINITY)), 0);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0x7f800000);
    CHECK_HEX(T1(&in, 0x7fc00000), 0x7fffffff);
    CHECK_HEX(T1(&in, fb(-149.0f)), 0x00000001);
    CHECK_HEX(T1(&in, fb(128.0f)), 0x7f800000);
    g_assert_cmpuint(ulp_diff(T1(&in, fb(0.5f)), 1.41421356f), <=, 2);
    in.flags = IR_F_APPROX | IR_F_FTZ;
    CHECK_HEX(T1(&in, fb(-149.0f)), 0);
    CHECK_HEX(T1(&in, 0x80000001), fb(1.0f));

    in = t_instr(IR_OP_LG2, IR_T_F32, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, fb(8.0f)), fb(3.0f));
    CHECK_HEX(T1(&in, 0), 0xff800000);
    CHECK_HEX(T1(&in, fb(-1.0f)), 0x7fffffff);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0x7f800000);
    CHECK_HEX(T1(&in, 0x00000001), fb(-149.0f));
    in.flags = IR_F_APPROX | IR_F_FTZ;
    CHECK_HEX(T1(&in, 0x00000001), 0xff800000);

    in = t_instr(IR_OP_SIN, IR_T_F32, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, 0), 0);
    CHECK_HEX(T1(&in, 0x80000000), 0x80000000);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0x7fffffff);
    float s = 0;
    uint32_t sb = (uint32_t)T1(&in, fb(0.52359878f)); /* pi/6 */
    memcpy(&s, &sb, 4);
    g_assert_cmpfloat(fabsf(s - 0.5f), <, 1e-6f);
    in.op = IR_OP_COS;
    CHECK_HEX(T1(&in, 0), fb(1.0f));
    CHECK_HEX(T1(&in, fb(-INFINITY)), 0x7fffffff);
    sb = (uint32_t)T1(&in, fb(1.04719755f)); /* pi/3 */
    memcpy(&s, &sb, 4);
    g_assert_cmpfloat(fabsf(s - 0.5f), <, 1e-6f);

    in = t_instr(IR_OP_TANH, IR_T_F32, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, 0), 0);
    CHECK_HEX(T1(&in, fb(20.0f)), fb(1.0f));
    CHECK_HEX(T1(&in, fb(-INFINITY)), fb(-1.0f));
    g_assert_cmpuint(ulp_diff(T1(&in, fb(0.5f)), 0.46211716f), <=, 2);
}

static void test_f16_arith(void)
{
    ir_instr in = t_instr(IR_OP_ADD, IR_T_F16, 2);
    CHECK_HEX(T2(&in, 0x3c00, 0x3c00), 0x4000);
    CHECK_HEX(T2(&in, 0x3c00, 0x1000), 0x3c00); /* 1 + 2^-11: a tie, to even */
    CHECK_HEX(T2(&in, 0x3c00, 0x1200), 0x3c01); /* 1 + 0.75 ulp */
    CHECK_HEX(T2(&in, 0x7bff, 0x7bff), 0x7c00);
    CHECK_HEX(T2(&in, 0x7c00, 0xfc00), 0x7fff);
    CHECK_HEX(T2(&in, 0x0001, 0x0000), 0x0001);
    CHECK_HEX(T2(&in, 0x12345, 0x0000), 0x2345); /* only 16 bits */
    in.flags = IR_F_FTZ;
    CHECK_HEX(T2(&in, 0x0001, 0x0000), 0x0000);
    CHECK_HEX(T2(&in, 0x8001, 0x8000), 0x8000);
    in.flags = IR_F_SAT;
    CHECK_HEX(T2(&in, 0x3c00, 0x3c00), 0x3c00);
    CHECK_HEX(T2(&in, 0xbc00, 0x3800), 0x0000);
    in.flags = 0;
    in.op = IR_OP_SUB;
    CHECK_HEX(T2(&in, 0x3c00, 0x3c00), 0x0000);
    CHECK_HEX(T2(&in, 0x3c00, 0x4000), 0xbc00);
    in.op = IR_OP_MUL;
    CHECK_HEX(T2(&in, 0x3c01, 0x3c01), 0x3c02); /* (1+2^-10)^2 = 1 + 2^-9 + 2^-20 */
    CHECK_HEX(T2(&in, 0x0200, 0x0200), 0x0000); /* 2^-15 * 2^-15 underflows */
    CHECK_HEX(T2(&in, 0x0000, 0x7c00), 0x7fff);
    in = t_instr(IR_OP_FMA, IR_T_F16, 3);
    in.rnd = IR_RND_RN;
    /* 48 * 683 = 32784 = 2^15 + 16, a tie in f16; -2^-24 tips it down */
    CHECK_HEX(T3(&in, 0x5200, 0x6156, 0x8001), 0x7800);
    CHECK_HEX(T3(&in, 0x5200, 0x6156, 0x0001), 0x7801);
    CHECK_HEX(T3(&in, 0x5200, 0x6156, 0x0000), 0x7800);
    in = t_instr(IR_OP_MIN, IR_T_F16, 2);
    CHECK_HEX(T2(&in, 0x7e00, 0x3c00), 0x3c00);
    CHECK_HEX(T2(&in, 0xbc00, 0x3c00), 0xbc00);
    in.op = IR_OP_MAX;
    CHECK_HEX(T2(&in, 0xbc00, 0x3c00), 0x3c00);
    CHECK_HEX(T2(&in, 0x8000, 0x0000), 0x0000);
    in.flags = IR_F_NAN;
    CHECK_HEX(T2(&in, 0x7e00, 0x3c00), 0x7fff);

    in = t_instr(IR_OP_EX2, IR_T_F16, 1);
    in.flags = IR_F_APPROX;
    CHECK_HEX(T1(&in, 0x4200), 0x4800); /* 2^3 = 8 */
    CHECK_HEX(T1(&in, 0xce00), 0x0001); /* 2^-24: subnormal kept */
    CHECK_HEX(T1(&in, 0x7c00), 0x7c00);
    in.op = IR_OP_TANH;
    CHECK_HEX(T1(&in, 0x0000), 0x0000);
    CHECK_HEX(T1(&in, 0xc900), 0xbc00); /* tanh(-10) = -1 */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/float/rounding-modes", test_rounding_modes);
    g_test_add_func("/exec/float/ftz-sat-denormals", test_ftz_sat_denormals);
    g_test_add_func("/exec/float/nan-inf", test_nan_inf);
    g_test_add_func("/exec/float/div-variants", test_div_variants);
    g_test_add_func("/exec/float/min-max", test_min_max);
    g_test_add_func("/exec/float/abs-neg-copysign", test_abs_neg_copysign);
    g_test_add_func("/exec/float/testp", test_testp);
    g_test_add_func("/exec/float/sfu", test_sfu);
    g_test_add_func("/exec/float/f16-arith", test_f16_arith);
    return g_test_run();
}
