/* test_exec_random.c — ir_exec against independent reference implementations on many random
 * operands (g_test's seeded random generator; rerun a failure with --seed).
 *
 *  - f32 results in every rounding mode: the reference rounds an exact double by picking between
 *    the two neighbouring floats (the FPU stays in round-to-nearest; ir_exec instead switches the
 *    FPU mode), for mul (24x24-bit products are exact in double), add of operands close in
 *    magnitude (exact in double), cvt.f32.f64 and cvt.f32.s32/u32.
 *    div/sqrt/rcp/fma f32 are checked against long double, mul/div/add/fma f64 against binary128
 *    (__float128): exact, or rounded to at least 2p+2 bits, which decides the final rounding.
 *  - f16 results in every mode: the reference searches the sorted table of all f16 values.
 *  - integers of every width: mul.hi/.wide, div/rem, shr, min/max, bfe against native C types. */
#include "tests/kernels/test_exec_util.h"

#include <float.h>

#define N_RANDOM 20000

static const ir_round modes[4] = { IR_RND_RN, IR_RND_RZ, IR_RND_RM, IR_RND_RP };

/* ---- references -------------------------------------------------------------------------------- */

/* d rounded to f32 per mode, by choosing among the neighbours of the round-to-nearest result. */
static uint32_t ref_f32(double d, ir_round m)
{
    if (d != d)
        return 0x7fffffff;
    float r = (float)d;
    if ((double)r == d || m == IR_RND_RN)
        return fb(r);
    float lo, hi;
    if ((double)r < d) {
        lo = r;
        hi = nextafterf(r, INFINITY);
    } else {
        hi = r;
        lo = nextafterf(r, -INFINITY);
    }
    switch (m) {
    case IR_RND_RZ: return fb(d > 0 ? lo : hi);
    case IR_RND_RM: return fb(lo);
    default: return fb(hi);
    }
}

/* The same in higher precision: v (long double, 64-bit significand) rounded to f32. Used for
 * results that are exact in long double (fma of close operands) or, for div and sqrt, rounded to
 * at least 2p + 2 = 50 bits, which never lands on an f32 value or midpoint unless exact. */
static uint32_t ref_f32_ld(long double v, ir_round m)
{
    if (v != v)
        return 0x7fffffff;
    float r = (float)v;
    if ((long double)r == v || m == IR_RND_RN)
        return fb(r);
    float lo, hi;
    if ((long double)r < v) {
        lo = r;
        hi = nextafterf(r, INFINITY);
    } else {
        hi = r;
        lo = nextafterf(r, -INFINITY);
    }
    switch (m) {
    case IR_RND_RZ: return fb(v > 0 ? lo : hi);
    case IR_RND_RM: return fb(lo);
    default: return fb(hi);
    }
}

/* v (binary128, 113-bit significand) rounded to f64 likewise: exact for f64 products, and for
 * quotients rounded to >= 2p + 2 = 108 bits. */
static uint64_t ref_f64_q(__float128 v, ir_round m)
{
    if (v != v)
        return 0x7fffffffffffffffull;
    double r = (double)v;
    if ((__float128)r == v || m == IR_RND_RN)
        return db(r);
    double lo, hi;
    if ((__float128)r < v) {
        lo = r;
        hi = nextafter(r, INFINITY);
    } else {
        hi = r;
        lo = nextafter(r, -INFINITY);
    }
    switch (m) {
    case IR_RND_RZ: return db(v > 0 ? lo : hi);
    case IR_RND_RM: return db(lo);
    default: return db(hi);
    }
}

/* A random finite f32 (any exponent, subnormals included), or with an exponent in [lo, hi]. */
static uint32_t rand_f32(int elo, int ehi)
{
    uint32_t sign = g_test_rand_bit() ? 0x80000000u : 0;
    uint32_t e = (uint32_t)g_test_rand_int_range(elo, ehi + 1);
    return sign | e << 23 | ((uint32_t)g_test_rand_int() & 0x7fffffu);
}

static double f16_value(uint16_t h)
{
    return ir_exec_f16_to_f64(h);
}

/* d rounded to f16 per mode: binary search among the 0x7c00 non-negative finite f16 values
 * (their encodings are in increasing order), then the choice between the two neighbours. */
static uint16_t ref_f16(double d, ir_round m)
{
    if (d != d)
        return 0x7fff;
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    bool neg = sign != 0;
    if (a > 65504.0) {
        /* above the largest finite value: the neighbours are max and inf */
        double mid = 65520.0; /* halfway to the next (virtual) value 65536 */
        bool up;
        switch (m) {
        case IR_RND_RZ: up = false; break;
        case IR_RND_RM: up = neg; break;
        case IR_RND_RP: up = !neg; break;
        default: up = a >= mid; break;
        }
        return sign | (up ? 0x7c00 : 0x7bff);
    }
    unsigned lo = 0, hi = 0x7bff; /* largest h with value(h) <= a */
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (f16_value((uint16_t)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint16_t below = (uint16_t)lo;
    if (f16_value(below) == a)
        return sign | below;
    uint16_t above = (uint16_t)(below + 1);
    double mid = (f16_value(below) + f16_value(above)) / 2; /* exact in double */
    bool up;
    switch (m) {
    case IR_RND_RZ: up = false; break;
    case IR_RND_RM: up = neg; break;
    case IR_RND_RP: up = !neg; break;
    default: up = a > mid || (a == mid && (above & 1) == 0); break;
    }
    return sign | (up ? above : below);
}

/* ---- float tests ------------------------------------------------------------------------------- */

static void test_random_f32_mul_add(void)
{
    ir_instr mul = t_instr(IR_OP_MUL, IR_T_F32, 2), add = t_instr(IR_OP_ADD, IR_T_F32, 2);
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint32_t a = rand_f32(0, 254), b = rand_f32(0, 254);
        /* operands of the add within 2^20 of each other: the sum is exact in double */
        int ea = g_test_rand_int_range(1, 254);
        int delta = g_test_rand_int_range(-20, 21); /* CLAMP evaluates its argument more than once */
        int eb = CLAMP(ea + delta, 1, 254);
        uint32_t c = rand_f32(ea, ea), e = rand_f32(eb, eb);
        for (unsigned m = 0; m < 4; m++) {
            mul.rnd = add.rnd = (uint8_t)modes[m];
            double p = (double)bits_to_f32(a) * (double)bits_to_f32(b);
            CHECK_HEX(T2(&mul, a, b), ref_f32(p, modes[m]));
            double s = (double)bits_to_f32(c) + (double)bits_to_f32(e);
            uint32_t want = ref_f32(s, modes[m]);
            if (s == 0.0) /* an exact zero sum is +0, or -0 rounding down */
                want = modes[m] == IR_RND_RM ? 0x80000000u : 0;
            if (T2(&add, c, e) != want)
                g_error("add.f32 mode %u: %08x + %08x = %08" G_GINT64_MODIFIER "x, want %08x", modes[m], c, e, T2(&add, c, e), want);
        }
    }
}

static void test_random_f32_div_sqrt_fma(void)
{
    ir_instr div = t_instr(IR_OP_DIV, IR_T_F32, 2), sq = t_instr(IR_OP_SQRT, IR_T_F32, 1);
    ir_instr fma = t_instr(IR_OP_FMA, IR_T_F32, 3), rcp = t_instr(IR_OP_RCP, IR_T_F32, 1);
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint32_t a = rand_f32(0, 254), b = rand_f32(0, 254);
        /* fma: c within 2^8 of a*b, so a*b + c is exact in long double */
        int ea = g_test_rand_int_range(64, 190), eb = g_test_rand_int_range(64, 190);
        int delta = g_test_rand_int_range(-8, 9);
        int ec = CLAMP(ea + eb - 127 + delta, 1, 254);
        uint32_t fa = rand_f32(ea, ea), fbv = rand_f32(eb, eb), fc = rand_f32(ec, ec);
        for (unsigned m = 0; m < 4; m++) {
            div.rnd = sq.rnd = fma.rnd = rcp.rnd = (uint8_t)modes[m];
            long double q = (long double)bits_to_f32(a) / (long double)bits_to_f32(b);
            CHECK_HEX(T2(&div, a, b), ref_f32_ld(q, modes[m]));
            uint32_t pa = a & 0x7fffffffu;
            CHECK_HEX(T1(&sq, pa), ref_f32_ld(sqrtl((long double)bits_to_f32(pa)), modes[m]));
            CHECK_HEX(T1(&rcp, b), ref_f32_ld(1.0L / (long double)bits_to_f32(b), modes[m]));
            long double f = (long double)bits_to_f32(fa) * (long double)bits_to_f32(fbv) + (long double)bits_to_f32(fc);
            uint32_t want = ref_f32_ld(f, modes[m]);
            if (f == 0.0L)
                want = modes[m] == IR_RND_RM ? 0x80000000u : 0;
            CHECK_HEX(T3(&fma, fa, fbv, fc), want);
        }
    }
}

static uint64_t rand_f64(int elo, int ehi)
{
    uint64_t sign = g_test_rand_bit() ? 0x8000000000000000ull : 0;
    uint64_t e = (uint64_t)g_test_rand_int_range(elo, ehi + 1);
    uint64_t mant = (((uint64_t)g_test_rand_int() << 32) | (uint32_t)g_test_rand_int()) & 0xfffffffffffffull;
    return sign | e << 52 | mant;
}

static double bits_to_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static void test_random_f64(void)
{
    ir_instr mul = t_instr(IR_OP_MUL, IR_T_F64, 2), div = t_instr(IR_OP_DIV, IR_T_F64, 2);
    ir_instr add = t_instr(IR_OP_ADD, IR_T_F64, 2), fma = t_instr(IR_OP_FMA, IR_T_F64, 3);
    for (unsigned i = 0; i < N_RANDOM / 4; i++) {
        uint64_t a = rand_f64(0, 2046), b = rand_f64(0, 2046);
        int ea = g_test_rand_int_range(1, 2047);
        int delta = g_test_rand_int_range(-50, 51);
        uint64_t c = rand_f64(ea, ea), e = rand_f64(CLAMP(ea + delta, 1, 2046), CLAMP(ea + delta, 1, 2046));
        /* fma: c within 2^4 of a*b: exact in binary128 */
        int fa_e = g_test_rand_int_range(600, 1400), fb_e = g_test_rand_int_range(600, 1400);
        int fdelta = g_test_rand_int_range(-4, 5);
        int fc_e = CLAMP(fa_e + fb_e - 1023 + fdelta, 1, 2046);
        uint64_t fa = rand_f64(fa_e, fa_e), fbv = rand_f64(fb_e, fb_e), fc = rand_f64(fc_e, fc_e);
        for (unsigned m = 0; m < 4; m++) {
            mul.rnd = div.rnd = add.rnd = fma.rnd = (uint8_t)modes[m];
            __float128 qa = bits_to_f64(a), qb = bits_to_f64(b);
            CHECK_HEX(T2(&mul, a, b), ref_f64_q(qa * qb, modes[m]));
            CHECK_HEX(T2(&div, a, b), ref_f64_q(qa / qb, modes[m]));
            __float128 s = (__float128)bits_to_f64(c) + (__float128)bits_to_f64(e);
            uint64_t want = ref_f64_q(s, modes[m]);
            if (s == 0)
                want = modes[m] == IR_RND_RM ? 0x8000000000000000ull : 0;
            CHECK_HEX(T2(&add, c, e), want);
            __float128 f = (__float128)bits_to_f64(fa) * (__float128)bits_to_f64(fbv) + (__float128)bits_to_f64(fc);
            want = ref_f64_q(f, modes[m]);
            if (f == 0)
                want = modes[m] == IR_RND_RM ? 0x8000000000000000ull : 0;
            CHECK_HEX(T3(&fma, fa, fbv, fc), want);
        }
    }
}

static void test_random_f32_cvt(void)
{
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint64_t d = ((uint64_t)g_test_rand_int() << 32) | (uint32_t)g_test_rand_int();
        if (((d >> 52) & 0x7ff) == 0x7ff)
            continue;
        /* bias the exponent towards the f32 range half of the time */
        if (g_test_rand_bit())
            d = (d & 0x800fffffffffffffull) | (uint64_t)g_test_rand_int_range(1023 - 160, 1023 + 130) << 52;
        uint32_t s32 = (uint32_t)g_test_rand_int();
        for (unsigned m = 0; m < 4; m++) {
            ir_instr in = t_instr(IR_OP_CVT, IR_T_F32, 1);
            in.type2 = IR_T_F64;
            in.rnd = (uint8_t)modes[m];
            double v;
            memcpy(&v, &d, 8);
            CHECK_HEX(T1(&in, d), ref_f32(v, modes[m]));
            in.type2 = IR_T_S32;
            CHECK_HEX(T1(&in, s32), ref_f32((double)(int32_t)s32, modes[m]));
            in.type2 = IR_T_U32;
            CHECK_HEX(T1(&in, s32), ref_f32((double)s32, modes[m]));
        }
    }
}

static void test_random_f16_cvt(void)
{
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint32_t f = rand_f32(127 - 30, 127 + 17); /* around the f16 range, subnormals included */
        for (unsigned m = 0; m < 4; m++) {
            ir_instr in = t_instr(IR_OP_CVT, IR_T_F16, 1);
            in.type2 = IR_T_F32;
            in.rnd = (uint8_t)modes[m];
            CHECK_HEX(T1(&in, f), ref_f16((double)bits_to_f32(f), modes[m]));
        }
        /* f16 -> f32 -> f16 is the identity for every finite f16 */
        uint16_t h = (uint16_t)g_test_rand_int_range(0, 0x10000);
        if ((h & 0x7c00) != 0x7c00) {
            ir_instr up = t_instr(IR_OP_CVT, IR_T_F32, 1), down = t_instr(IR_OP_CVT, IR_T_F16, 1);
            up.type2 = IR_T_F16;
            down.type2 = IR_T_F32;
            down.rnd = IR_RND_RN;
            CHECK_HEX(T1(&down, T1(&up, h)), h);
        }
    }
}

/* ---- integer tests ------------------------------------------------------------------------------ */

static uint64_t rand_u64(void)
{
    uint64_t v = ((uint64_t)g_test_rand_int() << 32) | (uint32_t)g_test_rand_int();
    switch (g_test_rand_int_range(0, 4)) { /* small, negative-small and extreme values often */
    case 0: return v & 0xff;
    case 1: return (uint64_t)-(int64_t)(v & 0xff);
    case 2: return g_test_rand_bit() ? 0x8000000000000000ull >> (v & 63) : ~0ull >> (v & 63);
    default: return v;
    }
}

/* the reference of one integer operation on native C types of width n */
static uint64_t ref_int(ir_opcode op, uint32_t flags, unsigned n, bool sg, uint64_t a, uint64_t b)
{
#define SIGNED_OPS(T, UT, WT, UWT)                                                                  \
    {                                                                                               \
        T x = (T)a, y = (T)b;                                                                       \
        UT ux = (UT)a, uy = (UT)b;                                                                  \
        switch (op) {                                                                               \
        case IR_OP_MUL:                                                                             \
            if (flags & IR_F_WIDE)                                                                  \
                return sg ? (uint64_t)(UWT)((WT)x * (WT)y) : (uint64_t)((UWT)ux * (UWT)uy);           \
            if (flags & IR_F_HI)                                                                    \
                return sg ? (uint64_t)(UT)(((WT)x * (WT)y) >> n) : (uint64_t)(UT)(((UWT)ux * (UWT)uy) >> n); \
            return (uint64_t)(UT)((UWT)ux * (UWT)uy);                                                         \
        case IR_OP_DIV:                                                                             \
            if (uy == 0)                                                                            \
                return (UT)~(UT)0;                                                                  \
            if (sg && y == -1)                                                                      \
                return (uint64_t)(UT)(0 - ux);                                                      \
            return sg ? (uint64_t)(UT)(x / y) : (uint64_t)(UT)(ux / uy);                              \
        case IR_OP_REM:                                                                             \
            if (uy == 0)                                                                            \
                return (uint64_t)ux;                                                                \
            if (sg && y == -1)                                                                      \
                return 0;                                                                           \
            return sg ? (uint64_t)(UT)(x % y) : (uint64_t)(UT)(ux % uy);                              \
        case IR_OP_MIN: return sg ? (uint64_t)(UT)(x < y ? x : y) : (uint64_t)(ux < uy ? ux : uy);  \
        case IR_OP_MAX: return sg ? (uint64_t)(UT)(x > y ? x : y) : (uint64_t)(ux > uy ? ux : uy);  \
        case IR_OP_SHR: {                                                                           \
            uint32_t s = (uint32_t)b;                                                               \
            if (sg)                                                                                 \
                return (uint64_t)(UT)(x >> (s >= n ? n - 1 : s));                                   \
            return s >= n ? 0 : (uint64_t)(UT)(ux >> s);                                            \
        }                                                                                           \
        default: g_assert_not_reached();                                                            \
        }                                                                                           \
    }
    switch (n) {
    case 16: SIGNED_OPS(int16_t, uint16_t, int32_t, uint32_t)
    case 32: SIGNED_OPS(int32_t, uint32_t, int64_t, uint64_t)
    default: SIGNED_OPS(int64_t, uint64_t, __int128, unsigned __int128)
    }
#undef SIGNED_OPS
}

static void test_random_int(void)
{
    static const ir_type types[] = { IR_T_U16, IR_T_S16, IR_T_U32, IR_T_S32, IR_T_U64, IR_T_S64 };
    static const struct { ir_opcode op; uint32_t flags; } ops[] = {
        { IR_OP_MUL, IR_F_LO }, { IR_OP_MUL, IR_F_HI }, { IR_OP_MUL, IR_F_WIDE }, { IR_OP_DIV, 0 },
        { IR_OP_REM, 0 },       { IR_OP_MIN, 0 },       { IR_OP_MAX, 0 },         { IR_OP_SHR, 0 },
    };
    for (unsigned i = 0; i < N_RANDOM / 4; i++) {
        uint64_t a = rand_u64(), b = rand_u64();
        for (unsigned t = 0; t < G_N_ELEMENTS(types); t++) {
            unsigned n = (t / 2 == 0) ? 16 : (t / 2 == 1) ? 32 : 64;
            bool sg = t & 1;
            for (unsigned o = 0; o < G_N_ELEMENTS(ops); o++) {
                if ((ops[o].flags & IR_F_WIDE) && n == 64)
                    continue;
                ir_instr in = t_instr(ops[o].op, types[t], 2);
                in.flags = ops[o].flags;
                uint64_t bb = ops[o].op == IR_OP_SHR ? b & 0x7f : b;
                uint64_t want = ref_int(ops[o].op, ops[o].flags, n, sg, a, bb);
                uint64_t got = T2(&in, a, bb);
                if (got != want)
                    g_error("%s type %u flags %x a=%" G_GINT64_MODIFIER "x b=%" G_GINT64_MODIFIER "x: got %" G_GINT64_MODIFIER
                            "x want %" G_GINT64_MODIFIER "x",
                            ir_op_name(ops[o].op), types[t], ops[o].flags, a, bb, got, want);
            }
        }
    }
}

/* bfe against a bit-by-bit reading of the PTX definition */
static void test_random_bfe(void)
{
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint64_t a = rand_u64();
        unsigned pos = (unsigned)g_test_rand_int_range(0, 80), len = (unsigned)g_test_rand_int_range(0, 80);
        for (unsigned t = 0; t < 4; t++) {
            static const ir_type ty[4] = { IR_T_U32, IR_T_S32, IR_T_U64, IR_T_S64 };
            unsigned msb = t < 2 ? 31 : 63;
            bool sg = t & 1;
            uint64_t av = t < 2 ? a & 0xffffffffu : a;
            unsigned sb = pos + len - 1 < msb ? pos + len - 1 : msb;
            unsigned sbit = (sg && len != 0) ? (unsigned)((av >> sb) & 1) : 0;
            uint64_t want = 0;
            for (unsigned k = 0; k <= msb; k++) {
                unsigned bit = (k < len && pos + k <= msb) ? (unsigned)((av >> (pos + k)) & 1) : sbit;
                want |= (uint64_t)bit << k;
            }
            ir_instr in = t_instr(IR_OP_BFE, ty[t], 3);
            CHECK_HEX(T3(&in, a, pos, len), want);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/random/f32-mul-add", test_random_f32_mul_add);
    g_test_add_func("/exec/random/f32-div-sqrt-rcp-fma", test_random_f32_div_sqrt_fma);
    g_test_add_func("/exec/random/f64-mul-div-add-fma", test_random_f64);
    g_test_add_func("/exec/random/f32-cvt", test_random_f32_cvt);
    g_test_add_func("/exec/random/f16-cvt", test_random_f16_cvt);
    g_test_add_func("/exec/random/int", test_random_int);
    g_test_add_func("/exec/random/bfe", test_random_bfe);
    return g_test_run();
}
