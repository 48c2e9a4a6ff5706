/* test_exec_cvt.c — ir_exec semantics of cvt: integer widening/narrowing/saturation, float ->
 * integer (rounding, saturation, NaN), integer -> float and float -> float in every rounding mode,
 * round-to-integral, .ftz/.sat, f16. Correctly rounded expectations were computed with exact
 * rational arithmetic (Python fractions) and written here as constants. */
#include "tests/kernels/test_exec_util.h"

static const ir_round modes[4] = { IR_RND_RN, IR_RND_RZ, IR_RND_RM, IR_RND_RP };

static ir_instr cvt(ir_type dt, ir_type st, ir_round rnd, uint32_t flags)
{
    ir_instr in = t_instr(IR_OP_CVT, dt, 1);
    in.type2 = (uint8_t)st;
    in.rnd = (uint8_t)rnd;
    in.flags = flags;
    return in;
}

static void check_cvt_modes(ir_type dt, ir_type st, uint64_t v, const uint64_t want[4])
{
    for (unsigned m = 0; m < 4; m++) {
        ir_instr in = cvt(dt, st, modes[m], 0);
        CHECK_HEX(T1(&in, v), want[m]);
    }
}

static void test_int_int(void)
{
    ir_instr in = cvt(IR_T_S32, IR_T_S8, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0x80), 0xffffff80);
    CHECK_HEX(T1(&in, 0x17f), 0x7f);
    in = cvt(IR_T_U32, IR_T_U8, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0x180), 0x80);
    in = cvt(IR_T_U16, IR_T_U32, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0x12345), 0x2345);
    in = cvt(IR_T_S64, IR_T_S32, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0xffffffff), ~0ull);
    in = cvt(IR_T_U64, IR_T_S32, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0xffffffff), ~0ull);
    in = cvt(IR_T_S64, IR_T_U32, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0xffffffff), 0xffffffff);
    in = cvt(IR_T_S16, IR_T_S64, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0x123456789abcdefull), 0xcdef);
    in = cvt(IR_T_U32, IR_T_S32, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0xffffffff), 0xffffffff);

    in = cvt(IR_T_S8, IR_T_S32, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, 300), 0x7f);
    CHECK_HEX(T1(&in, (uint32_t)-300), 0x80);
    CHECK_HEX(T1(&in, (uint32_t)-5), 0xfb);
    in = cvt(IR_T_U8, IR_T_S32, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, (uint32_t)-5), 0);
    CHECK_HEX(T1(&in, 300), 0xff);
    in = cvt(IR_T_U32, IR_T_S32, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, 0xffffffff), 0);
    in = cvt(IR_T_S32, IR_T_U32, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, 0xffffffff), 0x7fffffff);
    in = cvt(IR_T_S32, IR_T_U64, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, 0x100000000ull), 0x7fffffff);
    in = cvt(IR_T_U64, IR_T_S64, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, ~0ull), 0);
    in = cvt(IR_T_S64, IR_T_U64, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, ~0ull), 0x7fffffffffffffffull);
    in = cvt(IR_T_S16, IR_T_S64, IR_RND_NONE, IR_F_SAT);
    CHECK_HEX(T1(&in, 0x8000000000000000ull), 0x8000);
}

static void test_float_int(void)
{
    ir_instr in = cvt(IR_T_S32, IR_T_F32, IR_RND_RZI, 0);
    CHECK_HEX(T1(&in, fb(-2.7f)), 0xfffffffe);
    CHECK_HEX(T1(&in, fb(2.7f)), 2);
    CHECK_HEX(T1(&in, 0x7fc00000), 0);
    CHECK_HEX(T1(&in, 0xffc00000), 0);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0x7fffffff);
    CHECK_HEX(T1(&in, fb(-INFINITY)), 0x80000000);
    CHECK_HEX(T1(&in, fb(3e9f)), 0x7fffffff);
    CHECK_HEX(T1(&in, fb(-3e9f)), 0x80000000);
    CHECK_HEX(T1(&in, fb(-2147483648.0f)), 0x80000000);
    in.rnd = IR_RND_RNI;
    CHECK_HEX(T1(&in, fb(2.5f)), 2);
    CHECK_HEX(T1(&in, fb(3.5f)), 4);
    CHECK_HEX(T1(&in, fb(-2.5f)), 0xfffffffe);
    CHECK_HEX(T1(&in, fb(2.5000002f)), 3);
    in.rnd = IR_RND_RMI;
    CHECK_HEX(T1(&in, fb(-2.1f)), 0xfffffffd);
    CHECK_HEX(T1(&in, fb(2.9f)), 2);
    in.rnd = IR_RND_RPI;
    CHECK_HEX(T1(&in, fb(2.1f)), 3);
    CHECK_HEX(T1(&in, fb(-2.9f)), 0xfffffffe);
    CHECK_HEX(T1(&in, 0x00000001), 1); /* ceil of a positive subnormal */
    in.flags = IR_F_FTZ;
    CHECK_HEX(T1(&in, 0x00000001), 0);

    in = cvt(IR_T_U32, IR_T_F32, IR_RND_RZI, 0);
    CHECK_HEX(T1(&in, fb(-1.0f)), 0);
    CHECK_HEX(T1(&in, fb(-0.5f)), 0);
    CHECK_HEX(T1(&in, fb(5e9f)), 0xffffffff);
    CHECK_HEX(T1(&in, fb(4294967040.0f)), 0xffffff00);
    in = cvt(IR_T_S16, IR_T_F32, IR_RND_RNI, 0);
    CHECK_HEX(T1(&in, fb(40000.0f)), 0x7fff);
    CHECK_HEX(T1(&in, fb(-40000.0f)), 0x8000);
    CHECK_HEX(T1(&in, fb(-3.0f)), 0xfffd);
    in = cvt(IR_T_U8, IR_T_F32, IR_RND_RNI, 0);
    CHECK_HEX(T1(&in, fb(-3.0f)), 0);
    CHECK_HEX(T1(&in, fb(255.6f)), 0xff);
    CHECK_HEX(T1(&in, fb(254.4f)), 0xfe);

    in = cvt(IR_T_S64, IR_T_F64, IR_RND_RZI, 0);
    CHECK_HEX(T1(&in, db(1e19)), 0x7fffffffffffffffull);
    CHECK_HEX(T1(&in, db(-1e19)), 0x8000000000000000ull);
    CHECK_HEX(T1(&in, db(-9.2233720368547758e18)), 0x8000000000000000ull);
    CHECK_HEX(T1(&in, db(-123456789012.9)), (uint64_t)-123456789012ll);
    in = cvt(IR_T_U64, IR_T_F64, IR_RND_RZI, 0);
    CHECK_HEX(T1(&in, db(18446744073709551616.0)), ~0ull);
    CHECK_HEX(T1(&in, db(9223372036854775808.0)), 0x8000000000000000ull);
    CHECK_HEX(T1(&in, 0x7ff8000000000000ull), 0);
    in = cvt(IR_T_S32, IR_T_F64, IR_RND_RZI, 0);
    CHECK_HEX(T1(&in, db(-2147483648.9)), 0x80000000);
    CHECK_HEX(T1(&in, db(-2147483649.0)), 0x80000000);
    CHECK_HEX(T1(&in, db(2147483647.9)), 0x7fffffff);
    in = cvt(IR_T_S32, IR_T_F16, IR_RND_RZI, 0);
    CHECK_HEX(T1(&in, 0xc0a0), 0xfffffffe); /* -2.3125 */
    CHECK_HEX(T1(&in, 0x7c00), 0x7fffffff);
}

static void test_int_float(void)
{
    check_cvt_modes(IR_T_F32, IR_T_S32, 0x7fffffff, (const uint64_t[]){ 0x4f000000, 0x4effffff, 0x4effffff, 0x4f000000 });
    check_cvt_modes(IR_T_F32, IR_T_S32, 16777217, (const uint64_t[]){ 0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001 });
    check_cvt_modes(IR_T_F32, IR_T_S32, (uint32_t)-16777219,
                    (const uint64_t[]){ 0xcb800002, 0xcb800001, 0xcb800002, 0xcb800001 });
    check_cvt_modes(IR_T_F32, IR_T_U64, ~0ull, (const uint64_t[]){ 0x5f800000, 0x5f7fffff, 0x5f7fffff, 0x5f800000 });
    check_cvt_modes(IR_T_F64, IR_T_U64, ~0ull,
                    (const uint64_t[]){ 0x43f0000000000000ull, 0x43efffffffffffffull, 0x43efffffffffffffull,
                                        0x43f0000000000000ull });
    check_cvt_modes(IR_T_F64, IR_T_S64, (1ull << 53) + 1,
                    (const uint64_t[]){ 0x4340000000000000ull, 0x4340000000000000ull, 0x4340000000000000ull,
                                        0x4340000000000001ull });
    ir_instr in = cvt(IR_T_F32, IR_T_S8, IR_RND_RN, 0);
    CHECK_HEX(T1(&in, 0xff), fb(-1.0f));
    in = cvt(IR_T_F64, IR_T_U16, IR_RND_RN, 0);
    CHECK_HEX(T1(&in, 0xffff), db(65535.0));
    in = cvt(IR_T_F32, IR_T_U32, IR_RND_RN, IR_F_SAT);
    CHECK_HEX(T1(&in, 7), fb(1.0f));
    CHECK_HEX(T1(&in, 0), 0);
    /* integer -> f16 */
    in = cvt(IR_T_F16, IR_T_S32, IR_RND_RN, 0);
    CHECK_HEX(T1(&in, 100000), 0x7c00);
    CHECK_HEX(T1(&in, (uint32_t)-3), 0xc200);
    CHECK_HEX(T1(&in, 65535), 0x7c00);
    in.rnd = IR_RND_RZ;
    CHECK_HEX(T1(&in, 65535), 0x7bff);
    CHECK_HEX(T1(&in, 2049), 0x6800); /* 2048: ulp 2 there */
    in.rnd = IR_RND_RP;
    CHECK_HEX(T1(&in, 2049), 0x6801);
}

static void test_float_float(void)
{
    check_cvt_modes(IR_T_F32, IR_T_F64, db(0.1), (const uint64_t[]){ 0x3dcccccd, 0x3dcccccc, 0x3dcccccc, 0x3dcccccd });
    check_cvt_modes(IR_T_F32, IR_T_F64, db(-0.1), (const uint64_t[]){ 0xbdcccccd, 0xbdcccccc, 0xbdcccccd, 0xbdcccccc });
    check_cvt_modes(IR_T_F32, IR_T_F64, db(1e300), (const uint64_t[]){ 0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000 });
    check_cvt_modes(IR_T_F32, IR_T_F64, db(1e-50), (const uint64_t[]){ 0, 0, 0, 1 });
    check_cvt_modes(IR_T_F32, IR_T_F64, 0x7ff8000000000001ull,
                    (const uint64_t[]){ 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff });
    ir_instr in = cvt(IR_T_F32, IR_T_F64, IR_RND_RN, 0);
    CHECK_HEX(T1(&in, db(0x1p-140)), 0x200);
    in.flags = IR_F_FTZ;
    CHECK_HEX(T1(&in, db(0x1p-140)), 0);

    in = cvt(IR_T_F64, IR_T_F32, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0x3dcccccd), 0x3fb99999a0000000ull);
    CHECK_HEX(T1(&in, 0x00000001), 0x36a0000000000000ull);
    CHECK_HEX(T1(&in, 0x7fc00000), 0x7fffffffffffffffull);
    CHECK_HEX(T1(&in, 0xff800000), 0xfff0000000000000ull);
    in.flags = IR_F_FTZ;
    CHECK_HEX(T1(&in, 0x80000001), 0x8000000000000000ull);

    /* round to integral in the same type */
    in = cvt(IR_T_F32, IR_T_F32, IR_RND_RNI, 0);
    CHECK_HEX(T1(&in, fb(2.5f)), fb(2.0f));
    CHECK_HEX(T1(&in, fb(-2.5f)), fb(-2.0f));
    CHECK_HEX(T1(&in, fb(-0.4f)), 0x80000000);
    CHECK_HEX(T1(&in, fb(INFINITY)), 0x7f800000);
    CHECK_HEX(T1(&in, 0xffc00000), 0x7fffffff);
    CHECK_HEX(T1(&in, fb(8388609.0f)), fb(8388609.0f));
    in.rnd = IR_RND_RZI;
    CHECK_HEX(T1(&in, fb(-2.7f)), fb(-2.0f));
    in.rnd = IR_RND_RMI;
    CHECK_HEX(T1(&in, fb(-2.1f)), fb(-3.0f));
    in.rnd = IR_RND_RPI;
    CHECK_HEX(T1(&in, fb(2.1f)), fb(3.0f));
    CHECK_HEX(T1(&in, fb(-0.5f)), 0x80000000);
    in = cvt(IR_T_F64, IR_T_F64, IR_RND_RNI, 0);
    CHECK_HEX(T1(&in, db(2.5)), db(2.0));
    CHECK_HEX(T1(&in, db(4503599627370495.5)), db(4503599627370496.0));
    CHECK_HEX(T1(&in, db(-1.5)), db(-2.0));
    in.rnd = IR_RND_RZI;
    CHECK_HEX(T1(&in, db(-1.5)), db(-1.0));
    in = cvt(IR_T_F32, IR_T_F32, IR_RND_NONE, IR_F_FTZ);
    CHECK_HEX(T1(&in, 0x00000005), 0);
    CHECK_HEX(T1(&in, fb(1.5f)), fb(1.5f));
    in.flags = IR_F_SAT;
    CHECK_HEX(T1(&in, fb(2.0f)), fb(1.0f));
    CHECK_HEX(T1(&in, fb(-1.0f)), 0);
    CHECK_HEX(T1(&in, 0x7fc00000), 0);
    CHECK_HEX(T1(&in, fb(0.25f)), fb(0.25f));
}

static void test_f16(void)
{
    check_cvt_modes(IR_T_F16, IR_T_F32, 0x3eaaaaab, (const uint64_t[]){ 0x3555, 0x3555, 0x3555, 0x3556 });
    check_cvt_modes(IR_T_F16, IR_T_F32, fb(65520.0f), (const uint64_t[]){ 0x7c00, 0x7bff, 0x7bff, 0x7c00 });
    check_cvt_modes(IR_T_F16, IR_T_F32, fb(-70000.0f), (const uint64_t[]){ 0xfc00, 0xfbff, 0xfc00, 0xfbff });
    check_cvt_modes(IR_T_F16, IR_T_F32, fb(0x1p-25f), (const uint64_t[]){ 0, 0, 0, 1 });
    check_cvt_modes(IR_T_F16, IR_T_F32, fb(0x3p-26f), (const uint64_t[]){ 1, 0, 0, 1 });
    check_cvt_modes(IR_T_F16, IR_T_F32, fb(-0x3p-26f), (const uint64_t[]){ 0x8001, 0x8000, 0x8001, 0x8000 });
    check_cvt_modes(IR_T_F16, IR_T_F32, 0x3dcccccd, (const uint64_t[]){ 0x2e66, 0x2e66, 0x2e66, 0x2e67 });
    check_cvt_modes(IR_T_F16, IR_T_F64, db(65504.0), (const uint64_t[]){ 0x7bff, 0x7bff, 0x7bff, 0x7bff });
    check_cvt_modes(IR_T_F16, IR_T_F64, db(0x1.ffcp-15), /* largest subnormal + rounding to min normal */
                    (const uint64_t[]){ 0x0400, 0x03ff, 0x03ff, 0x0400 });
    ir_instr in = cvt(IR_T_F16, IR_T_F32, IR_RND_RN, 0);
    CHECK_HEX(T1(&in, 0x7fc00000), 0x7fff);
    CHECK_HEX(T1(&in, fb(-INFINITY)), 0xfc00);
    CHECK_HEX(T1(&in, 0x80000000), 0x8000);
    CHECK_HEX(T1(&in, fb(1.0f)), 0x3c00);

    in = cvt(IR_T_F32, IR_T_F16, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0x3c00), fb(1.0f));
    CHECK_HEX(T1(&in, 0x0001), 0x33800000);
    CHECK_HEX(T1(&in, 0xfc00), 0xff800000);
    CHECK_HEX(T1(&in, 0x7bff), 0x477fe000);
    CHECK_HEX(T1(&in, 0x7e00), 0x7fffffff);
    CHECK_HEX(T1(&in, 0x8000), 0x80000000);
    in = cvt(IR_T_F64, IR_T_F16, IR_RND_NONE, 0);
    CHECK_HEX(T1(&in, 0xc0a0), db(-2.3125));

    /* the public helpers */
    CHECK_HEX(ir_exec_f16_from_f64(1.0 / 3.0, IR_RND_RP), 0x3556);
    g_assert_cmpfloat(ir_exec_f16_to_f64(0x3555), ==, 0.333251953125);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/cvt/int-int", test_int_int);
    g_test_add_func("/exec/cvt/float-int", test_float_int);
    g_test_add_func("/exec/cvt/int-float", test_int_float);
    g_test_add_func("/exec/cvt/float-float", test_float_float);
    g_test_add_func("/exec/cvt/f16", test_f16);
    return g_test_run();
}
