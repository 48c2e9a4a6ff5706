/* ir_exec.c — functional semantics of single PTX instructions (see ir_exec.h, docs/semantics.md).
 *
 * One switch on the opcode per call, then a loop over the active lanes. Floating-point results
 * that are defined as IEEE operations (.rn/.rz/.rm/.rp) are computed with the host FPU in the
 * requested rounding mode (fesetround around the whole lane loop, only when the mode is not RN);
 * .approx operations use the host libm in double precision and round once to the result type.
 * Integer helpers use unsigned arithmetic (and __int128 for 64-bit products), so no C undefined
 * behaviour is ever reached whatever the operands.
 */
#include "kernels/semantics/ir_exec.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ---- private type and bit helpers (ir.c's ir_type_* belong to the parser's file) --------------- */

static inline unsigned type_bits(unsigned t)
{
    switch (t) {
    case IR_T_PRED: return 1;
    case IR_T_B8: case IR_T_U8: case IR_T_S8: return 8;
    case IR_T_B16: case IR_T_U16: case IR_T_S16: case IR_T_F16: return 16;
    case IR_T_B32: case IR_T_U32: case IR_T_S32: case IR_T_F32: return 32;
    case IR_T_B64: case IR_T_U64: case IR_T_S64: case IR_T_F64: return 64;
    case IR_T_B128: return 128;
    default: return 0;
    }
}

static inline bool type_signed(unsigned t)
{
    return t == IR_T_S8 || t == IR_T_S16 || t == IR_T_S32 || t == IR_T_S64;
}

static inline bool type_float(unsigned t)
{
    return t == IR_T_F16 || t == IR_T_F32 || t == IR_T_F64;
}

static inline uint64_t mask_n(unsigned n)
{
    return n >= 64 ? ~0ull : ((1ull << n) - 1);
}

/* The low n bits of v as a signed value (n in 1..64). */
static inline int64_t sext(uint64_t v, unsigned n)
{
    if (n >= 64 || n == 0)
        return (int64_t)v;
    uint64_t m = 1ull << (n - 1);
    v &= mask_n(n);
    return (int64_t)(v ^ m) - (int64_t)m;
}

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

#define F32_CANONICAL_NAN 0x7fffffffu
#define F64_CANONICAL_NAN 0x7fffffffffffffffull
#define F16_CANONICAL_NAN 0x7fffu

double ir_exec_f16_to_f64(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0x1f)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = ldexp((double)(m | 0x400), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Round a double to f16 bits in the given rounding mode (.rn/.rz/.rm/.rp; others act as .rn),
 * by integer arithmetic on the scaled significand (no double rounding: every step is exact). */
uint16_t ir_exec_f16_from_f64(double d, ir_round rnd)
{
    if (d != d)
        return F16_CANONICAL_NAN;
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    bool neg = sign != 0;
    uint16_t max_finite = sign | 0x7bff, inf = sign | 0x7c00;
    bool to_inf = rnd == IR_RND_RZ ? false : rnd == IR_RND_RM ? neg : rnd == IR_RND_RP ? !neg : true;
    if (isinf(a))
        return inf;
    if (a == 0.0)
        return sign;
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1): leading bit at 2^(e-1) */
    if (e - 1 > 15)
        return to_inf ? inf : max_finite;
    int ulp_exp = (e - 1 < -14 ? -14 : e - 1) - 10;
    double q = ldexp(a, -ulp_exp); /* exact: a power-of-two scaling, q < 2^11 */
    double fl = floor(q), frac = q - fl;
    uint32_t mant = (uint32_t)fl;
    bool up;
    switch (rnd) {
    case IR_RND_RZ: up = false; break;
    case IR_RND_RM: up = neg && frac > 0.0; break;
    case IR_RND_RP: up = !neg && frac > 0.0; break;
    default: up = frac > 0.5 || (frac == 0.5 && (mant & 1)); break;
    }
    mant += up;
    /* Subnormals and the lowest binade share ulp 2^-24 and encode as the plain count; above, the
     * exponent field is ulp_exp + 25 and a carry out of the significand bumps it naturally. */
    uint32_t bits = mant == 0 ? 0 : ((uint32_t)(ulp_exp + 25) << 10) + mant - 1024;
    if (ulp_exp == -24)
        bits = mant;
    if (bits >= 0x7c00)
        return to_inf ? inf : max_finite;
    return (uint16_t)(sign | bits);
}

static inline double f16_to_f64(uint16_t h)
{
    return ir_exec_f16_to_f64(h);
}

static inline uint64_t f64_to_f16(double d, unsigned rnd)
{
    return ir_exec_f16_from_f64(d, (ir_round)rnd);
}

/* An f16 operand as a double, its subnormals flushed under .ftz. */
static inline double f16_in(uint64_t v, bool ftz)
{
    uint16_t h = (uint16_t)v;
    if (ftz && (h & 0x7c00u) == 0)
        h &= 0x8000u;
    return f16_to_f64(h);
}

/* An f16 result from an exact double: rounded to nearest, flushed (.ftz), clamped (.sat). */
static inline uint64_t f16_out(double d, bool ftz, bool sat)
{
    if (d != d)
        return sat ? 0 : F16_CANONICAL_NAN;
    if (sat)
        d = d <= 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
    uint16_t h = (uint16_t)f64_to_f16(d, IR_RND_RN);
    if (ftz && (h & 0x7c00u) == 0)
        h &= 0x8000u;
    return h;
}

/* ---- lane values ------------------------------------------------------------------------------ */

#define FOR_LANES(l, mask) \
    for (uint32_t l##_m = (mask), l = 0; l##_m && ((l = (uint32_t)__builtin_ctz(l##_m)), 1); l##_m &= l##_m - 1)

static inline uint64_t src(const ir_exec_ctx *x, unsigned s, unsigned l)
{
    return x->src[s].v[l];
}

/* A predicate source: the raw value with the operand's `!` applied (ir_exec applies neg). */
static inline uint64_t src_pred(const ir_exec_ctx *x, unsigned s, unsigned l)
{
    return (x->src[s].v[l] & 1u) ^ (x->in->src[s].neg & 1u);
}

/* ---- float flushing, NaN canonicalisation, saturation ---------------------------------------- */

static inline float f32_flush(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7f800000u) == 0 && (u & 0x007fffffu) != 0)
        return bits_f32(u & 0x80000000u);
    return f;
}

static inline double f64_flush(double d)
{
    uint64_t u = f64_bits(d);
    if ((u & 0x7ff0000000000000ull) == 0 && (u & 0x000fffffffffffffull) != 0)
        return bits_f64(u & 0x8000000000000000ull);
    return d;
}

static inline float rd_f32(const ir_exec_ctx *x, unsigned s, unsigned l, bool ftz)
{
    float f = bits_f32((uint32_t)x->src[s].v[l]);
    return ftz ? f32_flush(f) : f;
}

static inline double rd_f64(const ir_exec_ctx *x, unsigned s, unsigned l, bool ftz)
{
    double d = bits_f64(x->src[s].v[l]);
    return ftz ? f64_flush(d) : d;
}

/* The register bits of an f32 result: flushed (.ftz), clamped to [0,1] (.sat, NaN -> +0), NaN made
 * canonical (0x7fffffff, as the hardware writes). */
static inline uint64_t wr_f32(float f, bool ftz, bool sat)
{
    if (!ftz && !sat && __builtin_expect(f == f, 1))
        return f32_bits(f);
    if (f != f)
        return sat ? 0 : F32_CANONICAL_NAN;
    if (ftz)
        f = f32_flush(f);
    if (sat) {
        if (f <= 0.0f)
            f = 0.0f;
        else if (f > 1.0f)
            f = 1.0f;
    }
    return f32_bits(f);
}

static inline uint64_t wr_f64(double d, bool ftz, bool sat)
{
    if (d != d)
        return sat ? 0 : F64_CANONICAL_NAN;
    if (ftz)
        d = f64_flush(d);
    if (sat) {
        if (d <= 0.0)
            d = 0.0;
        else if (d > 1.0)
            d = 1.0;
    }
    return f64_bits(d);
}

/* ---- rounding-mode scope ---------------------------------------------------------------------- */

/* Enter the FPU rounding mode for rnd; returns the mode to restore, or -1 when nothing changed
 * (round-to-nearest, the default and the common case, costs nothing). */
static int round_enter(unsigned rnd)
{
    int want;
    switch (rnd) {
    case IR_RND_RZ: want = FE_TOWARDZERO; break;
    case IR_RND_RM: want = FE_DOWNWARD; break;
    case IR_RND_RP: want = FE_UPWARD; break;
    default: return -1;
    }
    int old = fegetround();
    if (old == want)
        return -1;
    fesetround(want);
    __asm__ __volatile__("" ::: "memory");
    return old;
}

static void round_leave(int old)
{
    __asm__ __volatile__("" ::: "memory");
    if (old >= 0)
        fesetround(old);
}

/* ---- integer helpers --------------------------------------------------------------------------- */

static inline int64_t sext_src(const ir_exec_ctx *x, unsigned s, unsigned l, unsigned n)
{
    return sext(x->src[s].v[l], n);
}

/* Clamp a 128-bit value into the range of an n-bit integer (signed or not); returns raw bits. */
static inline uint64_t clamp_int(__int128 v, unsigned n, bool is_signed)
{
    __int128 lo, hi;
    if (is_signed) {
        hi = (((__int128)1) << (n - 1)) - 1;
        lo = -hi - 1;
    } else {
        lo = 0;
        hi = (((__int128)1) << n) - 1;
    }
    if (v < lo)
        v = lo;
    if (v > hi)
        v = hi;
    return (uint64_t)v & mask_n(n);
}

/* ---- families ------------------------------------------------------------------------------------ */

static ir_exec_status exec_mov(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    if (in->type == IR_T_PRED) {
        FOR_LANES(l, x->active) x->dst[0].v[l] = src_pred(x, 0, l);
    } else {
        uint64_t m = mask_n(type_bits(in->type));
        FOR_LANES(l, x->active) x->dst[0].v[l] = src(x, 0, l) & m;
    }
    return IR_EXEC_OK;
}

/* add/sub on integers, with .sat (s32) and the carry forms (add.cc, addc, sub.cc, subc). */
static ir_exec_status exec_addsub_int(ir_exec_ctx *x, bool sub, bool carry_in)
{
    const ir_instr *in = x->in;
    unsigned n = type_bits(in->type);
    uint64_t m = mask_n(n);
    bool cc = (in->flags & IR_F_CC) != 0;
    if (n > 64)
        return IR_EXEC_UNSUPPORTED;
    if ((in->flags & IR_F_SAT) && type_signed(in->type)) {
        FOR_LANES(l, x->active) {
            __int128 a = sext_src(x, 0, l, n), b = sext_src(x, 1, l, n);
            x->dst[0].v[l] = clamp_int(sub ? a - b : a + b, n, true);
        }
        return IR_EXEC_OK;
    }
    if (!cc && !carry_in) { /* the common case: plain wrap-around */
        if (sub) {
            FOR_LANES(l, x->active) x->dst[0].v[l] = (src(x, 0, l) - src(x, 1, l)) & m;
        } else {
            FOR_LANES(l, x->active) x->dst[0].v[l] = (src(x, 0, l) + src(x, 1, l)) & m;
        }
        return IR_EXEC_OK;
    }
    uint32_t cout = 0;
    FOR_LANES(l, x->active) {
        unsigned __int128 a = src(x, 0, l) & m, b = src(x, 1, l) & m;
        unsigned __int128 ci = carry_in ? (x->cc_in >> l) & 1u : 0;
        unsigned __int128 r;
        bool c;
        if (sub) {
            /* PTX: sub.cc/subc carry flag is the borrow: d = a - (b + CF). */
            r = a - (b + ci);
            c = a < b + ci;
        } else {
            r = a + b + ci;
            c = (r >> n) != 0;
        }
        x->dst[0].v[l] = (uint64_t)r & m;
        if (c)
            cout |= 1u << l;
    }
    if (cc)
        x->cc_out = (x->cc_out & ~x->active) | cout;
    return IR_EXEC_OK;
}

/* The product of a and b as a 128-bit value (signed or unsigned by type), operands of n bits. */
static inline unsigned __int128 int_product(uint64_t a, uint64_t b, unsigned n, bool is_signed)
{
    if (is_signed)
        return (unsigned __int128)((__int128)sext(a, n) * (__int128)sext(b, n));
    return (unsigned __int128)(a & mask_n(n)) * (unsigned __int128)(b & mask_n(n));
}

/* mul/mad (integer): .lo/.hi/.wide, mad.hi.sat.s32, mad.cc/madc. mul24/mad24 too. */
static ir_exec_status exec_mulmad_int(ir_exec_ctx *x, bool mad, bool carry_in, bool is24)
{
    const ir_instr *in = x->in;
    unsigned n = type_bits(in->type);
    bool sg = type_signed(in->type);
    uint32_t fl = in->flags;
    bool wide = (fl & IR_F_WIDE) != 0, hi = (fl & IR_F_HI) != 0;
    bool sat = (fl & IR_F_SAT) != 0, cc = (fl & IR_F_CC) != 0;
    if (n > 64 || (wide && n > 32) || (is24 && n != 32))
        return IR_EXEC_UNSUPPORTED;
    unsigned rn = wide ? 2 * n : n; /* result width */
    uint64_t rm = mask_n(rn);
    if (!is24 && !hi && !cc && !carry_in && !(sat && sg)) {
        /* the common cases in 64-bit arithmetic: .lo (same bits signed or not) and .wide of <= 32
         * bits (the product fits an int64) */
        bool two = mad;
        if (!wide) {
            FOR_LANES(l, x->active)
            x->dst[0].v[l] = (src(x, 0, l) * src(x, 1, l) + (two ? src(x, 2, l) : 0)) & rm;
        } else if (sg) {
            FOR_LANES(l, x->active)
            x->dst[0].v[l] = ((uint64_t)(sext_src(x, 0, l, n) * sext_src(x, 1, l, n)) + (two ? src(x, 2, l) : 0)) & rm;
        } else {
            uint64_t m = mask_n(n);
            FOR_LANES(l, x->active)
            x->dst[0].v[l] = ((src(x, 0, l) & m) * (src(x, 1, l) & m) + (two ? src(x, 2, l) : 0)) & rm;
        }
        return IR_EXEC_OK;
    }
    uint32_t cout = 0;
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l), b = src(x, 1, l);
        unsigned __int128 p;
        if (is24) {
            /* 24x24 -> 48-bit product; .hi returns bits 47..16. */
            p = int_product(a, b, 24, sg);
            p = hi ? (p >> 16) : p;
        } else {
            p = int_product(a, b, n, sg);
            if (hi)
                p >>= n;
        }
        if (!mad) {
            x->dst[0].v[l] = (uint64_t)p & rm;
            continue;
        }
        uint64_t c = src(x, 2, l) & rm;
        if (sat && sg) {
            /* mad.hi.sat.s32 / mad24.hi.sat.s32: the signed sum of the high part and c, clamped. */
            __int128 t = (__int128)sext((uint64_t)p, rn) + sext(c, rn);
            x->dst[0].v[l] = clamp_int(t, rn, true);
            continue;
        }
        unsigned __int128 ci = carry_in ? (x->cc_in >> l) & 1u : 0;
        unsigned __int128 t = (unsigned __int128)((uint64_t)p & rm) + c + ci;
        x->dst[0].v[l] = (uint64_t)t & rm;
        if ((t >> rn) != 0)
            cout |= 1u << l;
    }
    if (cc)
        x->cc_out = (x->cc_out & ~x->active) | cout;
    return IR_EXEC_OK;
}

static ir_exec_status exec_sad(ir_exec_ctx *x)
{
    unsigned n = type_bits(x->in->type);
    bool sg = type_signed(x->in->type);
    uint64_t m = mask_n(n);
    if (n > 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t d;
        if (sg) {
            int64_t a = sext_src(x, 0, l, n), b = sext_src(x, 1, l, n);
            d = a < b ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
        } else {
            uint64_t a = src(x, 0, l) & m, b = src(x, 1, l) & m;
            d = a < b ? b - a : a - b;
        }
        x->dst[0].v[l] = (src(x, 2, l) + d) & m;
    }
    return IR_EXEC_OK;
}

/* Integer division and remainder. PTX leaves x/0 unspecified: we return all ones for the quotient
 * and the dividend for the remainder (what the hardware's division sequence yields for unsigned
 * operands), for signed and unsigned alike. INT_MIN / -1 wraps to INT_MIN; INT_MIN % -1 is 0. */
static inline uint64_t int_divrem(uint64_t ua, uint64_t ub, unsigned n, bool sg, bool rem)
{
    uint64_t m = mask_n(n);
    ua &= m;
    ub &= m;
    if (ub == 0)
        return rem ? ua : m;
    if (!sg)
        return (rem ? ua % ub : ua / ub);
    int64_t a = sext(ua, n), b = sext(ub, n);
    if (b == -1)
        return rem ? 0 : (0 - ua) & m;
    return (uint64_t)(rem ? a % b : a / b) & m;
}

static ir_exec_status exec_divrem_int(ir_exec_ctx *x, bool rem)
{
    unsigned n = type_bits(x->in->type);
    bool sg = type_signed(x->in->type);
    if (n > 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) x->dst[0].v[l] = int_divrem(src(x, 0, l), src(x, 1, l), n, sg, rem);
    return IR_EXEC_OK;
}

/* ---- floating point: binary/ternary IEEE operations --------------------------------------------- */

typedef enum { FOP_ADD, FOP_SUB, FOP_MUL, FOP_FMA, FOP_DIV, FOP_SQRT, FOP_RCP } fop;

/* The operation in the current FPU rounding mode. fmaf/fma are correctly rounded in every mode
 * (glibc); the others are single host instructions. */
static inline float fop_f32(fop o, float a, float b, float c)
{
    switch (o) {
    case FOP_ADD: return a + b;
    case FOP_SUB: return a - b;
    case FOP_MUL: return a * b;
    case FOP_FMA: return fmaf(a, b, c);
    case FOP_DIV: return a / b;
    case FOP_SQRT: return sqrtf(a);
    case FOP_RCP: return 1.0f / a;
    }
    return 0.0f;
}

static inline double fop_f64(fop o, double a, double b, double c)
{
    switch (o) {
    case FOP_ADD: return a + b;
    case FOP_SUB: return a - b;
    case FOP_MUL: return a * b;
    case FOP_FMA: return fma(a, b, c);
    case FOP_DIV: return a / b;
    case FOP_SQRT: return sqrt(a);
    case FOP_RCP: return 1.0 / a;
    }
    return 0.0;
}

/* f16 add/sub/mul/fma (PTX: .rn only), computed in double and rounded once to f16. That is exact:
 * f16 products have at most 22 significant bits, and whenever the result is within f16 range the
 * sum p + c spans fewer than 53 bits (|p| < 2^17, the lowest bit of c >= 2^-24); when |p| is
 * larger the result overflows f16 whatever double did. */
static ir_exec_status exec_fop_f16(ir_exec_ctx *x, fop o)
{
    const ir_instr *in = x->in;
    bool ftz = (in->flags & IR_F_FTZ) != 0, sat = (in->flags & IR_F_SAT) != 0;
    FOR_LANES(l, x->active) {
        double a = f16_in(src(x, 0, l), ftz), b = f16_in(src(x, 1, l), ftz), r;
        switch (o) {
        case FOP_ADD: r = a + b; break;
        case FOP_SUB: r = a - b; break;
        case FOP_MUL: r = a * b; break;
        default: r = a * b + f16_in(src(x, 2, l), ftz); break;
        }
        x->dst[0].v[l] = f16_out(r, ftz, sat);
    }
    return IR_EXEC_OK;
}

/* fma is the most frequent f32 operation in nvcc output. Without -mfma the compiler calls the libm
 * routine (correct but slow); on an x86-64 host with FMA we use the instruction (also correctly
 * rounded, in the FPU's current rounding mode). */
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FMA_DISPATCH 1
__attribute__((target("fma"))) static void fma_f32_hw(ir_exec_ctx *x, bool ftz, bool sat)
{
    FOR_LANES(l, x->active) {
        float r = __builtin_fmaf(rd_f32(x, 0, l, ftz), rd_f32(x, 1, l, ftz), rd_f32(x, 2, l, ftz));
        x->dst[0].v[l] = wr_f32(r, ftz, sat);
    }
}

__attribute__((target("fma"))) static void fma_f64_hw(ir_exec_ctx *x)
{
    FOR_LANES(l, x->active) {
        double r = __builtin_fma(rd_f64(x, 0, l, false), rd_f64(x, 1, l, false), rd_f64(x, 2, l, false));
        x->dst[0].v[l] = wr_f64(r, false, false);
    }
}

static inline bool host_has_fma(void)
{
    return __builtin_cpu_supports("fma");
}
#else
#define HAVE_FMA_DISPATCH 0
#endif

static ir_exec_status exec_fop(ir_exec_ctx *x, fop o)
{
    const ir_instr *in = x->in;
    bool ftz = (in->flags & IR_F_FTZ) != 0, sat = (in->flags & IR_F_SAT) != 0;
    unsigned ns = (o == FOP_SQRT || o == FOP_RCP) ? 1 : (o == FOP_FMA ? 3 : 2);
    int saved = round_enter(in->rnd);
    if (in->type == IR_T_F32) {
        /* one loop per operation (the op switch hoisted out of the lane loop) */
#define F32_LOOP(EXPR)                                                                      \
    FOR_LANES(l, x->active) {                                                               \
        float a = rd_f32(x, 0, l, ftz);                                                     \
        float b = ns > 1 ? rd_f32(x, 1, l, ftz) : 0.0f;                                     \
        float c = ns > 2 ? rd_f32(x, 2, l, ftz) : 0.0f;                                     \
        (void)b, (void)c;                                                                   \
        x->dst[0].v[l] = wr_f32((EXPR), ftz, sat);                                          \
    }
        switch (o) {
        case FOP_ADD: F32_LOOP(a + b); break;
        case FOP_SUB: F32_LOOP(a - b); break;
        case FOP_MUL: F32_LOOP(a * b); break;
        case FOP_FMA:
#if HAVE_FMA_DISPATCH
            if (host_has_fma()) {
                fma_f32_hw(x, ftz, sat);
                break;
            }
#endif
            F32_LOOP(fmaf(a, b, c));
            break;
        default: F32_LOOP(fop_f32(o, a, b, c)); break;
        }
#undef F32_LOOP
    } else if (in->type == IR_T_F64) {
        /* .ftz exists for f64 only on rcp.approx.ftz.f64 (handled separately). */
#if HAVE_FMA_DISPATCH
        if (o == FOP_FMA && !sat && host_has_fma()) {
            fma_f64_hw(x);
            round_leave(saved);
            return IR_EXEC_OK;
        }
#endif
        FOR_LANES(l, x->active) {
            double a = rd_f64(x, 0, l, false);
            double b = ns > 1 ? rd_f64(x, 1, l, false) : 0.0;
            double c = ns > 2 ? rd_f64(x, 2, l, false) : 0.0;
            x->dst[0].v[l] = wr_f64(fop_f64(o, a, b, c), false, sat);
        }
    } else if (in->type == IR_T_F16 && o <= FOP_FMA) {
        round_leave(saved);
        return exec_fop_f16(x, o);
    } else {
        round_leave(saved);
        return IR_EXEC_UNSUPPORTED;
    }
    round_leave(saved);
    return IR_EXEC_OK;
}

/* div.approx.f32: a * (1/b); for 2^126 < |b| < 2^128 the result is 0 (NaN if a is infinite), as
 * the PTX ISA states for the hardware's approximation. */
static ir_exec_status exec_div_approx_f32(ir_exec_ctx *x)
{
    bool ftz = (x->in->flags & IR_F_FTZ) != 0;
    FOR_LANES(l, x->active) {
        float a = rd_f32(x, 0, l, ftz), b = rd_f32(x, 1, l, ftz);
        float ab = fabsf(b), r;
        if (ab > 0x1p126f && ab < INFINITY)
            r = isinf(a) ? NAN : copysignf(0.0f, a) * copysignf(1.0f, b);
        else
            r = a * (1.0f / b);
        x->dst[0].v[l] = wr_f32(r, ftz, false);
    }
    return IR_EXEC_OK;
}

static ir_exec_status exec_div(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    if (!type_float(in->type))
        return exec_divrem_int(x, false);
    if (in->type == IR_T_F32 && (in->flags & IR_F_APPROX))
        return exec_div_approx_f32(x);
    /* div.full.f32 (<= 2 ulp) and div.rnd: computed correctly rounded. */
    return exec_fop(x, FOP_DIV);
}

/* add/sub/mul/mad and the 24-bit and carry forms: float or integer by the instruction type. */
static ir_exec_status exec_arith(ir_exec_ctx *x, ir_opcode op)
{
    const ir_instr *in = x->in;
    if (type_float(in->type)) {
        switch (op) {
        case IR_OP_ADD: return exec_fop(x, FOP_ADD);
        case IR_OP_SUB: return exec_fop(x, FOP_SUB);
        case IR_OP_MUL: return exec_fop(x, FOP_MUL);
        case IR_OP_MAD: return exec_fop(x, FOP_FMA); /* mad.f32/f64 is fused (sm_20+) */
        default: return IR_EXEC_UNSUPPORTED;
        }
    }
    switch (op) {
    case IR_OP_ADD: return exec_addsub_int(x, false, false);
    case IR_OP_SUB: return exec_addsub_int(x, true, false);
    case IR_OP_ADDC: return exec_addsub_int(x, false, true);
    case IR_OP_SUBC: return exec_addsub_int(x, true, true);
    case IR_OP_MUL: return exec_mulmad_int(x, false, false, false);
    case IR_OP_MAD: return exec_mulmad_int(x, true, false, false);
    case IR_OP_MADC: return exec_mulmad_int(x, true, true, false);
    case IR_OP_MUL24: return exec_mulmad_int(x, false, false, true);
    case IR_OP_MAD24: return exec_mulmad_int(x, true, false, true);
    default: return IR_EXEC_UNSUPPORTED;
    }
}

/* abs/neg: integers wrap (abs(INT_MIN) = INT_MIN); floats change the sign bit only (a NaN keeps its
 * payload), after flushing a subnormal input under .ftz. */
static ir_exec_status exec_absneg(ir_exec_ctx *x, bool neg)
{
    const ir_instr *in = x->in;
    bool ftz = (in->flags & IR_F_FTZ) != 0;
    switch (in->type) {
    case IR_T_F32:
        FOR_LANES(l, x->active) {
            uint32_t u = f32_bits(rd_f32(x, 0, l, ftz));
            x->dst[0].v[l] = neg ? u ^ 0x80000000u : u & 0x7fffffffu;
        }
        return IR_EXEC_OK;
    case IR_T_F64:
        FOR_LANES(l, x->active) {
            uint64_t u = f64_bits(rd_f64(x, 0, l, ftz));
            x->dst[0].v[l] = neg ? u ^ 0x8000000000000000ull : u & 0x7fffffffffffffffull;
        }
        return IR_EXEC_OK;
    case IR_T_F16:
        FOR_LANES(l, x->active) {
            uint64_t u = src(x, 0, l) & 0xffffu;
            if (ftz && (u & 0x7c00u) == 0)
                u &= 0x8000u;
            x->dst[0].v[l] = neg ? u ^ 0x8000u : u & 0x7fffu;
        }
        return IR_EXEC_OK;
    default: break;
    }
    unsigned n = type_bits(in->type);
    uint64_t m = mask_n(n);
    if (n > 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l) & m;
        if (neg || sext(a, n) < 0)
            a = 0 - a;
        x->dst[0].v[l] = a & m;
    }
    return IR_EXEC_OK;
}

/* min/max. Floats: a NaN operand yields the other operand, two NaNs the canonical NaN; -0 orders
 * below +0. */
static inline float fmin_ptx(float a, float b, bool is_max)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return (signbit(a) != 0) == !is_max ? a : b;
    return (a < b) != is_max ? a : b;
}

static inline double dmin_ptx(double a, double b, bool is_max)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return (signbit(a) != 0) == !is_max ? a : b;
    return (a < b) != is_max ? a : b;
}

static ir_exec_status exec_minmax(ir_exec_ctx *x, bool is_max)
{
    const ir_instr *in = x->in;
    bool ftz = (in->flags & IR_F_FTZ) != 0, nan = (in->flags & IR_F_NAN) != 0;
    if (in->type == IR_T_F32) {
        FOR_LANES(l, x->active) {
            float a = rd_f32(x, 0, l, ftz), b = rd_f32(x, 1, l, ftz);
            /* min.NaN/max.NaN: a NaN operand makes the result NaN */
            float r = nan && (a != a || b != b) ? NAN : fmin_ptx(a, b, is_max);
            x->dst[0].v[l] = wr_f32(r, ftz, false);
        }
        return IR_EXEC_OK;
    }
    if (in->type == IR_T_F64) {
        FOR_LANES(l, x->active) {
            double a = rd_f64(x, 0, l, false), b = rd_f64(x, 1, l, false);
            double r = nan && (a != a || b != b) ? NAN : dmin_ptx(a, b, is_max);
            x->dst[0].v[l] = wr_f64(r, false, false);
        }
        return IR_EXEC_OK;
    }
    if (in->type == IR_T_F16) {
        FOR_LANES(l, x->active) {
            double a = f16_in(src(x, 0, l), ftz), b = f16_in(src(x, 1, l), ftz);
            double r = nan && (a != a || b != b) ? NAN : dmin_ptx(a, b, is_max);
            x->dst[0].v[l] = f16_out(r, ftz, false);
        }
        return IR_EXEC_OK;
    }
    unsigned n = type_bits(in->type);
    uint64_t m = mask_n(n);
    if (n > 64 || type_float(in->type))
        return IR_EXEC_UNSUPPORTED;
    bool sg = type_signed(in->type);
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l) & m, b = src(x, 1, l) & m;
        bool lt = sg ? sext(a, n) < sext(b, n) : a < b;
        x->dst[0].v[l] = (lt != is_max) ? a : b;
    }
    return IR_EXEC_OK;
}

/* and/or/xor/not/cnot. Predicate operands get their `!` applied. */
static ir_exec_status exec_logic(ir_exec_ctx *x, ir_opcode op)
{
    const ir_instr *in = x->in;
    bool pred = in->type == IR_T_PRED;
    uint64_t m = pred ? 1 : mask_n(type_bits(in->type));
    FOR_LANES(l, x->active) {
        uint64_t a = pred ? src_pred(x, 0, l) : src(x, 0, l) & m;
        uint64_t b = 0, r;
        if (op == IR_OP_AND || op == IR_OP_OR || op == IR_OP_XOR)
            b = pred ? src_pred(x, 1, l) : src(x, 1, l) & m;
        switch (op) {
        case IR_OP_AND: r = a & b; break;
        case IR_OP_OR: r = a | b; break;
        case IR_OP_XOR: r = a ^ b; break;
        case IR_OP_NOT: r = ~a & m; break;
        default: r = a == 0; break; /* cnot */
        }
        x->dst[0].v[l] = r;
    }
    return IR_EXEC_OK;
}

/* shl/shr: the amount is an unsigned 32-bit value; amounts >= width give 0 (shl, shr.u/b) or the
 * sign fill (shr.s). */
static ir_exec_status exec_shift(ir_exec_ctx *x, bool left)
{
    const ir_instr *in = x->in;
    unsigned n = type_bits(in->type);
    uint64_t m = mask_n(n);
    bool sg = type_signed(in->type);
    if (n > 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l) & m;
        uint32_t s = (uint32_t)src(x, 1, l);
        uint64_t r;
        if (left)
            r = s >= n ? 0 : (a << s);
        else if (sg)
            r = (uint64_t)(sext(a, n) >> (s >= n ? n - 1 : s));
        else
            r = s >= n ? 0 : (a >> s);
        x->dst[0].v[l] = r & m;
    }
    return IR_EXEC_OK;
}

/* shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of the 64-bit {b:a}. */
static ir_exec_status exec_shf(ir_exec_ctx *x)
{
    unsigned mode = x->in->sub;
    bool clamp = mode == IR_SHF_L_CLAMP || mode == IR_SHF_R_CLAMP;
    bool left = mode == IR_SHF_L_CLAMP || mode == IR_SHF_L_WRAP;
    if (mode < IR_SHF_L_CLAMP || mode > IR_SHF_R_WRAP)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t v = ((src(x, 1, l) & 0xffffffffu) << 32) | (src(x, 0, l) & 0xffffffffu);
        uint32_t c = (uint32_t)src(x, 2, l);
        unsigned s = clamp ? (c > 32 ? 32 : c) : (c & 31);
        x->dst[0].v[l] = left ? (v << s) >> 32 : (v >> s) & 0xffffffffu;
    }
    return IR_EXEC_OK;
}

/* ---- comparisons, setp, set, selp, slct ---------------------------------------------------------- */

/* Comparisons as a set of outcomes: bit 0 = less, bit 1 = equal, bit 2 = greater, bit 3 =
 * unordered. A comparison is true when its mask holds the outcome, so the per-lane work is
 * branch-free. lo/ls/hi/hs are the unsigned forms. */
enum { CO_LT = 1, CO_EQ = 2, CO_GT = 4, CO_UN = 8 };

static inline unsigned cmp_mask(ir_cmp cmp)
{
    switch (cmp) {
    case IR_CMP_EQ: return CO_EQ;
    case IR_CMP_NE: return CO_LT | CO_GT;
    case IR_CMP_LT: case IR_CMP_LO: return CO_LT;
    case IR_CMP_LE: case IR_CMP_LS: return CO_LT | CO_EQ;
    case IR_CMP_GT: case IR_CMP_HI: return CO_GT;
    case IR_CMP_GE: case IR_CMP_HS: return CO_GT | CO_EQ;
    case IR_CMP_EQU: return CO_EQ | CO_UN;
    case IR_CMP_NEU: return CO_LT | CO_GT | CO_UN;
    case IR_CMP_LTU: return CO_LT | CO_UN;
    case IR_CMP_LEU: return CO_LT | CO_EQ | CO_UN;
    case IR_CMP_GTU: return CO_GT | CO_UN;
    case IR_CMP_GEU: return CO_GT | CO_EQ | CO_UN;
    case IR_CMP_NUM: return CO_LT | CO_EQ | CO_GT;
    case IR_CMP_NAN: return CO_UN;
    default: return 0;
    }
}

static inline bool cmp_is_unsigned(ir_cmp cmp)
{
    return cmp == IR_CMP_LO || cmp == IR_CMP_LS || cmp == IR_CMP_HI || cmp == IR_CMP_HS;
}

/* outcome index: 0 less, 1 equal, 2 greater, 3 unordered */
static inline unsigned outcome_float(double a, double b)
{
    unsigned un = (a != a) | (b != b);
    return un * 3u + (unsigned)(a > b) * 2u + (unsigned)(a == b);
}

static inline unsigned outcome_int(uint64_t a, uint64_t b, unsigned n, bool sg)
{
    if (sg) {
        int64_t sa = sext(a, n), sb = sext(b, n);
        return (unsigned)(sa > sb) * 2u + (unsigned)(sa == sb);
    }
    a &= mask_n(n);
    b &= mask_n(n);
    return (unsigned)(a > b) * 2u + (unsigned)(a == b);
}

static inline bool cmp_float(ir_cmp cmp, double a, double b)
{
    return (cmp_mask(cmp) >> outcome_float(a, b)) & 1u;
}

static inline bool cmp_int(ir_cmp cmp, uint64_t a, uint64_t b, unsigned n, bool sg)
{
    return (cmp_mask(cmp) >> outcome_int(a, b, n, sg && !cmp_is_unsigned(cmp))) & 1u;
}

/* A float operand of type t (f16/f32/f64 bits) as a double, flushed under ftz (f32 only). */
static inline double float_value(ir_type t, uint64_t v, bool ftz)
{
    switch (t) {
    case IR_T_F32: {
        float f = bits_f32((uint32_t)v);
        return ftz ? f32_flush(f) : f;
    }
    case IR_T_F64: return bits_f64(v);
    case IR_T_F16: return f16_to_f64((uint16_t)v);
    default: return 0.0;
    }
}

bool ir_exec_compare(ir_cmp cmp, ir_type t, uint64_t a, uint64_t b, bool ftz)
{
    if (type_float(t))
        return cmp_float(cmp, float_value(t, a, ftz), float_value(t, b, ftz));
    if (t == IR_T_PRED)
        return cmp_int(cmp, a & 1, b & 1, 1, false);
    return cmp_int(cmp, a, b, type_bits(t) > 64 ? 64 : type_bits(t), type_signed(t));
}

static inline bool boolop_apply(unsigned op, bool t, bool c)
{
    switch (op) {
    case IR_BOOL_AND: return t && c;
    case IR_BOOL_OR: return t || c;
    case IR_BOOL_XOR: return t != c;
    default: return t;
    }
}

/* The comparison of lane l's a and b as a bit of `mask` (cmp_mask); sg already accounts for the
 * unsigned comparison forms. */
static inline bool lane_compare(const ir_exec_ctx *x, unsigned l, unsigned mask, ir_type t, unsigned n, bool sg,
                                bool ftz)
{
    unsigned o;
    if (t == IR_T_F32)
        o = outcome_float(rd_f32(x, 0, l, ftz), rd_f32(x, 1, l, ftz));
    else if (t == IR_T_F64)
        o = outcome_float(bits_f64(src(x, 0, l)), bits_f64(src(x, 1, l)));
    else if (t == IR_T_F16)
        o = outcome_float(f16_to_f64((uint16_t)src(x, 0, l)), f16_to_f64((uint16_t)src(x, 1, l)));
    else
        o = outcome_int(src(x, 0, l), src(x, 1, l), n, sg);
    return (mask >> o) & 1u;
}

/* setp.cmp[.bop].type p[|q], a, b[, {!}c]: p = (a cmp b) bop c, q = !(a cmp b) bop c. */
static ir_exec_status exec_setp(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    ir_type t = in->type;
    ir_cmp cmp = (ir_cmp)in->cmp;
    unsigned mask = cmp_mask(cmp);
    unsigned n = t == IR_T_PRED ? 1 : type_bits(t) > 64 ? 64 : type_bits(t);
    bool sg = type_signed(t) && !cmp_is_unsigned(cmp);
    bool ftz = (in->flags & IR_F_FTZ) != 0, two = in->n_dst >= 2, bop = in->boolop != IR_BOOL_NONE;
    if (!two && !bop) { /* the common case */
        if (t == IR_T_F32 && !ftz) {
            FOR_LANES(l, x->active)
            x->dst[0].v[l] = (mask >> outcome_float(bits_f32((uint32_t)src(x, 0, l)), bits_f32((uint32_t)src(x, 1, l)))) & 1u;
        } else if (n == 32 && !type_float(t)) {
            FOR_LANES(l, x->active)
            x->dst[0].v[l] = (mask >> outcome_int(src(x, 0, l), src(x, 1, l), 32, sg)) & 1u;
        } else {
            FOR_LANES(l, x->active) x->dst[0].v[l] = lane_compare(x, l, mask, t, n, sg, ftz);
        }
        x->dst_written |= 1u;
        return IR_EXEC_OK;
    }
    FOR_LANES(l, x->active) {
        bool r = lane_compare(x, l, mask, t, n, sg, ftz);
        bool c = bop ? src_pred(x, 2, l) != 0 : false;
        x->dst[0].v[l] = boolop_apply(in->boolop, r, c);
        if (two)
            x->dst[1].v[l] = boolop_apply(in->boolop, !r, c);
    }
    x->dst_written |= two ? 3u : 1u;
    return IR_EXEC_OK;
}

/* set.cmp[.bop].dtype.stype d, a, b[, {!}c]: d = all ones (integer dtype) or 1.0f (f32) when true. */
static ir_exec_status exec_set(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    bool ftz = (in->flags & IR_F_FTZ) != 0, bop = in->boolop != IR_BOOL_NONE;
    uint64_t yes = in->type2 == IR_T_F32 ? 0x3f800000u : mask_n(type_bits(in->type2));
    FOR_LANES(l, x->active) {
        bool r = ir_exec_compare(in->cmp, in->type, src(x, 0, l), src(x, 1, l), ftz);
        bool c = bop ? src_pred(x, 2, l) != 0 : false;
        x->dst[0].v[l] = boolop_apply(in->boolop, r, c) ? yes : 0;
    }
    return IR_EXEC_OK;
}

static ir_exec_status exec_selp(ir_exec_ctx *x)
{
    uint64_t m = x->in->type == IR_T_PRED ? 1 : mask_n(type_bits(x->in->type));
    FOR_LANES(l, x->active) x->dst[0].v[l] = (src_pred(x, 2, l) ? src(x, 0, l) : src(x, 1, l)) & m;
    return IR_EXEC_OK;
}

/* slct.dtype.ctype d, a, b, c: d = c >= 0 ? a : b (ctype s32 or f32; a NaN c selects b; -0 >= 0). */
static ir_exec_status exec_slct(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    uint64_t m = mask_n(type_bits(in->type));
    bool ftz = (in->flags & IR_F_FTZ) != 0;
    FOR_LANES(l, x->active) {
        bool ge;
        if (in->type2 == IR_T_F32)
            ge = rd_f32(x, 2, l, ftz) >= 0.0f;
        else
            ge = sext_src(x, 2, l, 32) >= 0;
        x->dst[0].v[l] = (ge ? src(x, 0, l) : src(x, 1, l)) & m;
    }
    return IR_EXEC_OK;
}

/* ---- cvt ------------------------------------------------------------------------------------------ */

/* Round a double to an integral value per an integer rounding mode (the rounding modes that
 * cvt float->int and cvt.rXi.fXX.fXX take; .rn/.rz/.rm/.rp are accepted as their .rXi twins). */
static inline double round_integral(double d, unsigned rnd)
{
    switch (rnd) {
    case IR_RND_RZI: case IR_RND_RZ: return trunc(d);
    case IR_RND_RMI: case IR_RND_RM: return floor(d);
    case IR_RND_RPI: case IR_RND_RP: return ceil(d);
    default: return nearbyint(d); /* ties to even (the FPU is in RN here) */
    }
}

static inline bool rnd_is_integral(unsigned rnd)
{
    return rnd >= IR_RND_RNI && rnd <= IR_RND_RPI;
}

/* float -> integer: round, then saturate to the destination range; NaN -> 0. */
static inline uint64_t cvt_f_to_i(double d, unsigned rnd, unsigned n, bool sg)
{
    if (d != d)
        return 0;
    d = round_integral(d, rnd);
    if (sg) {
        double lim = ldexp(1.0, (int)n - 1);
        if (d >= lim)
            return mask_n(n) >> 1;
        if (d < -lim)
            return (mask_n(n) >> 1) + 1;
        return (uint64_t)(int64_t)d & mask_n(n);
    }
    if (d <= 0.0)
        return 0;
    if (d >= ldexp(1.0, (int)n))
        return mask_n(n);
    return (uint64_t)d;
}

/* cvt.type.type2: integer <-> integer (extend, chop or .sat clamp), float -> integer (always
 * saturating), integer -> float and float -> float per the rounding modifier. */
static ir_exec_status exec_cvt(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    ir_type dt = in->type, st = in->type2;
    unsigned dn = type_bits(dt), sn = type_bits(st);
    bool ftz = (in->flags & IR_F_FTZ) != 0, sat = (in->flags & IR_F_SAT) != 0;
    bool dfl = type_float(dt), sfl = type_float(st);
    if (st == IR_T_NONE)
        st = dt, sn = dn, sfl = dfl;
    if (dn > 64 || sn > 64 || dt == IR_T_PRED || st == IR_T_PRED)
        return IR_EXEC_UNSUPPORTED;

    if (!dfl && !sfl) { /* integer -> integer: extend per the source, chop or clamp to the dest */
        bool ss = type_signed(st), ds = type_signed(dt);
        if (!sat) { /* the common case (address arithmetic: cvt.u64.u32, cvt.s64.s32) */
            uint64_t dm = mask_n(dn), sm = mask_n(sn);
            if (ss) {
                FOR_LANES(l, x->active) x->dst[0].v[l] = (uint64_t)sext(src(x, 0, l), sn) & dm;
            } else {
                FOR_LANES(l, x->active) x->dst[0].v[l] = src(x, 0, l) & sm & dm;
            }
            return IR_EXEC_OK;
        }
        FOR_LANES(l, x->active) {
            uint64_t v = src(x, 0, l);
            __int128 w = ss ? (__int128)sext(v, sn) : (__int128)(v & mask_n(sn));
            x->dst[0].v[l] = sat ? clamp_int(w, dn, ds) : (uint64_t)w & mask_n(dn);
        }
        return IR_EXEC_OK;
    }
    if (!dfl) { /* float -> integer: always saturating */
        bool ds = type_signed(dt);
        FOR_LANES(l, x->active)
        x->dst[0].v[l] = cvt_f_to_i(float_value(st, src(x, 0, l), ftz), in->rnd, dn, ds);
        return IR_EXEC_OK;
    }
    if (!sfl) { /* integer -> float, rounded per .rn/.rz/.rm/.rp */
        bool ss = type_signed(st);
        int saved = dt == IR_T_F16 ? -1 : round_enter(in->rnd);
        FOR_LANES(l, x->active) {
            uint64_t v = src(x, 0, l);
            uint64_t r;
            if (dt == IR_T_F32) {
                float f = ss ? (float)sext(v, sn) : (float)(v & mask_n(sn));
                r = wr_f32(f, ftz, sat);
            } else if (dt == IR_T_F64) {
                double d = ss ? (double)sext(v, sn) : (double)(v & mask_n(sn));
                r = wr_f64(d, false, sat);
            } else {
                /* Integers above 2^53 overflow f16 whatever the double rounding did. */
                double d = ss ? (double)sext(v, sn) : (double)(v & mask_n(sn));
                r = f64_to_f16(sat ? fmin(fmax(d, 0.0), 1.0) : d, in->rnd);
            }
            x->dst[0].v[l] = r;
        }
        round_leave(saved);
        return IR_EXEC_OK;
    }
    /* float -> float */
    bool integral = rnd_is_integral(in->rnd);
    if (dt == IR_T_F16) {
        FOR_LANES(l, x->active) {
            double d = float_value(st, src(x, 0, l), ftz);
            if (integral)
                d = round_integral(d, in->rnd);
            if (sat && d == d)
                d = fmin(fmax(d, 0.0), 1.0);
            x->dst[0].v[l] = f64_to_f16(d, integral ? IR_RND_RN : in->rnd);
        }
        return IR_EXEC_OK;
    }
    int saved = integral ? -1 : round_enter(in->rnd);
    FOR_LANES(l, x->active) {
        double d = float_value(st, src(x, 0, l), ftz);
        if (integral)
            d = round_integral(d, in->rnd);
        x->dst[0].v[l] = dt == IR_T_F32 ? wr_f32((float)d, ftz, sat) : wr_f64(d, false, sat);
    }
    round_leave(saved);
    return IR_EXEC_OK;
}

/* ---- special functions ------------------------------------------------------------------------ */

typedef enum { SF_RCP, SF_SQRT, SF_RSQRT, SF_EX2, SF_LG2, SF_SIN, SF_COS, SF_TANH } sfun;

/* Approximations: the host libm in double, rounded once. Exact at the special points the PTX ISA
 * lists (0, inf, NaN, negative inputs). */
static inline double sf_eval(sfun f, double a)
{
    switch (f) {
    case SF_RCP: return 1.0 / a;
    case SF_SQRT: return sqrt(a);
    case SF_RSQRT: return 1.0 / sqrt(a);
    case SF_EX2: return exp2(a);
    case SF_LG2: return log2(a);
    case SF_SIN: return sin(a);
    case SF_COS: return cos(a);
    case SF_TANH: return tanh(a);
    }
    return 0.0;
}

static ir_exec_status exec_sfu(ir_exec_ctx *x, sfun f)
{
    const ir_instr *in = x->in;
    bool ftz = (in->flags & IR_F_FTZ) != 0, approx = (in->flags & IR_F_APPROX) != 0;
    if ((f == SF_RCP || f == SF_SQRT) && !approx)
        return exec_fop(x, f == SF_RCP ? FOP_RCP : FOP_SQRT); /* IEEE .rn/.rz/.rm/.rp */
    if (in->type == IR_T_F32) {
        FOR_LANES(l, x->active) {
            float a = rd_f32(x, 0, l, ftz);
            float r = f == SF_RCP ? 1.0f / a : f == SF_SQRT ? sqrtf(a) : (float)sf_eval(f, a);
            x->dst[0].v[l] = wr_f32(r, ftz, false);
        }
        return IR_EXEC_OK;
    }
    if (in->type == IR_T_F64) {
        /* rcp.approx.ftz.f64 / rsqrt.approx(.ftz).f64 / sqrt.approx... .ftz flushes f64 too. */
        FOR_LANES(l, x->active) {
            double a = rd_f64(x, 0, l, ftz);
            x->dst[0].v[l] = wr_f64(sf_eval(f, a), ftz, false);
        }
        return IR_EXEC_OK;
    }
    if (in->type == IR_T_F16 && (f == SF_EX2 || f == SF_TANH)) { /* ex2.approx.f16, tanh.approx.f16 */
        FOR_LANES(l, x->active) x->dst[0].v[l] = f16_out(sf_eval(f, f16_in(src(x, 0, l), ftz)), ftz, false);
        return IR_EXEC_OK;
    }
    return IR_EXEC_UNSUPPORTED;
}

/* copysign.type d, a, b: the magnitude of b with the sign of a. */
static ir_exec_status exec_copysign(ir_exec_ctx *x)
{
    if (x->in->type == IR_T_F32) {
        FOR_LANES(l, x->active)
        x->dst[0].v[l] = (src(x, 1, l) & 0x7fffffffu) | (src(x, 0, l) & 0x80000000u);
    } else if (x->in->type == IR_T_F64) {
        FOR_LANES(l, x->active)
        x->dst[0].v[l] = (src(x, 1, l) & 0x7fffffffffffffffull) | (src(x, 0, l) & 0x8000000000000000ull);
    } else {
        return IR_EXEC_UNSUPPORTED;
    }
    return IR_EXEC_OK;
}

static ir_exec_status exec_testp(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    if (in->type != IR_T_F32 && in->type != IR_T_F64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        double d = float_value(in->type, src(x, 0, l), false);
        int c = fpclassify(d);
        if (in->type == IR_T_F32) /* classify in single precision */
            c = fpclassify(bits_f32((uint32_t)src(x, 0, l)));
        bool r;
        switch (in->sub) {
        case IR_TESTP_FINITE: r = c != FP_INFINITE && c != FP_NAN; break;
        case IR_TESTP_INFINITE: r = c == FP_INFINITE; break;
        case IR_TESTP_NUMBER: r = c != FP_NAN; break;
        case IR_TESTP_NOTANUMBER: r = c == FP_NAN; break;
        case IR_TESTP_NORMAL: r = c == FP_NORMAL; break;
        case IR_TESTP_SUBNORMAL: r = c == FP_SUBNORMAL; break;
        default: return IR_EXEC_UNSUPPORTED;
        }
        x->dst[0].v[l] = r;
    }
    return IR_EXEC_OK;
}

/* ---- bit manipulation -------------------------------------------------------------------------- */

/* Bit reversal of 64 bits: swap adjacent bits, pairs, nibbles, then the bytes. */
static inline uint64_t brev64(uint64_t v)
{
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(v);
}

static ir_exec_status exec_bits(ir_exec_ctx *x, ir_opcode op)
{
    const ir_instr *in = x->in;
    unsigned n = type_bits(in->type);
    uint64_t m = mask_n(n);
    bool sg = type_signed(in->type);
    if (n != 32 && n != 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l) & m, r = 0;
        switch (op) {
        case IR_OP_POPC: r = (uint64_t)__builtin_popcountll(a); break;
        case IR_OP_CLZ: r = a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)n)) : n; break;
        case IR_OP_BREV: r = brev64(a) >> (64 - n); break;
        default: { /* bfind: most significant non-sign bit */
            uint64_t v = (sg && sext(a, n) < 0) ? ~a & m : a;
            if (v == 0) {
                r = 0xffffffffu;
            } else {
                unsigned pos = 63u - (unsigned)__builtin_clzll(v);
                r = (in->flags & IR_F_SHIFTAMT) ? n - 1 - pos : pos;
            }
            break;
        }
        }
        x->dst[0].v[l] = r;
    }
    return IR_EXEC_OK;
}

/* bfe.type d, a, b(pos), c(len): pos and len are the low 8 bits; bits past the msb read as the
 * sign bit (signed) or 0; the field is sign-extended from its last extracted bit. */
static ir_exec_status exec_bfe(ir_exec_ctx *x)
{
    unsigned n = type_bits(x->in->type);
    bool sg = type_signed(x->in->type);
    uint64_t m = mask_n(n);
    if (n != 32 && n != 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l) & m;
        unsigned pos = (unsigned)(src(x, 1, l) & 0xff), len = (unsigned)(src(x, 2, l) & 0xff);
        unsigned avail = pos < n ? n - pos : 0;
        unsigned take = len < avail ? len : avail;
        uint64_t field = pos < n ? (a >> pos) & mask_n(take) : 0;
        bool sbit = false;
        if (sg && len != 0) {
            unsigned sb = pos + len - 1 < n - 1 ? pos + len - 1 : n - 1;
            sbit = (a >> sb) & 1;
        }
        x->dst[0].v[l] = (sbit ? field | ~mask_n(take) : field) & m;
    }
    return IR_EXEC_OK;
}

/* bfi.type f, a, b, c(pos), d(len): b with len bits of a inserted at pos (clipped at the msb). */
static ir_exec_status exec_bfi(ir_exec_ctx *x)
{
    unsigned n = type_bits(x->in->type);
    uint64_t m = mask_n(n);
    if (n != 32 && n != 64)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t a = src(x, 0, l) & m, b = src(x, 1, l) & m;
        unsigned pos = (unsigned)(src(x, 2, l) & 0xff), len = (unsigned)(src(x, 3, l) & 0xff);
        unsigned avail = pos < n ? n - pos : 0;
        unsigned take = len < avail ? len : avail;
        uint64_t fm = take ? mask_n(take) << pos : 0;
        x->dst[0].v[l] = take ? ((b & ~fm) | ((a << pos) & fm)) & m : b;
    }
    return IR_EXEC_OK;
}

/* prmt.b32{.mode} d, a, b, c: byte permute of {b, a} (bytes 0..3 from a, 4..7 from b). */
static const uint8_t prmt_tables[6][4][4] = {
    /* per mode, per c[1:0]: source byte for d.b0..d.b3 */
    [IR_PRMT_F4E - 1] = { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
    [IR_PRMT_B4E - 1] = { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
    [IR_PRMT_RC8 - 1] = { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
    [IR_PRMT_ECL - 1] = { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
    [IR_PRMT_ECR - 1] = { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
    [IR_PRMT_RC16 - 1] = { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
};

static ir_exec_status exec_prmt(ir_exec_ctx *x)
{
    unsigned mode = x->in->sub;
    if (mode > IR_PRMT_RC16)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        uint64_t ab = ((src(x, 1, l) & 0xffffffffu) << 32) | (src(x, 0, l) & 0xffffffffu);
        uint32_t c = (uint32_t)src(x, 2, l), d = 0;
        for (unsigned i = 0; i < 4; i++) {
            uint32_t byte;
            if (mode == IR_PRMT_DEFAULT) {
                unsigned sel = (c >> (4 * i)) & 0xf;
                byte = (uint32_t)(ab >> (8 * (sel & 7))) & 0xff;
                if (sel & 8) /* replicate the byte's sign bit */
                    byte = (byte & 0x80) ? 0xff : 0;
            } else {
                byte = (uint32_t)(ab >> (8 * prmt_tables[mode - 1][c & 3][i])) & 0xff;
            }
            d |= byte << (8 * i);
        }
        x->dst[0].v[l] = d;
    }
    return IR_EXEC_OK;
}

/* ---- warp-level: shfl, vote, activemask ---------------------------------------------------------- */

/* shfl[.sync].mode.b32 d[|p], a, b, c[, membermask]. c packs the clamp value (c[4:0]) and the
 * segment mask (c[12:8]). Reading a lane that is inactive or outside membermask is undefined in
 * PTX; we return that lane's src[0] value as passed by the caller. */
static ir_exec_status exec_shfl(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    unsigned mode = in->sub;
    bool two = in->n_dst >= 2;
    if (mode < IR_SHFL_UP || mode > IR_SHFL_IDX)
        return IR_EXEC_UNSUPPORTED;
    FOR_LANES(l, x->active) {
        int lane = (int)l;
        int b = (int)(src(x, 1, l) & 31);
        uint32_t c = (uint32_t)src(x, 2, l);
        int cval = (int)(c & 31), seg = (int)((c >> 8) & 31);
        int max_lane = (lane & seg) | (cval & ~seg);
        int min_lane = lane & seg;
        int j;
        bool p;
        switch (mode) {
        case IR_SHFL_UP: j = lane - b; p = j >= max_lane; break;
        case IR_SHFL_DOWN: j = lane + b; p = j <= max_lane; break;
        case IR_SHFL_BFLY: j = lane ^ b; p = j <= max_lane; break;
        default: j = min_lane | (b & ~seg); p = j <= max_lane; break;
        }
        if (!p)
            j = lane;
        x->dst[0].v[l] = src(x, 0, (unsigned)j) & 0xffffffffu;
        if (two)
            x->dst[1].v[l] = p;
    }
    x->dst_written |= two ? 3u : 1u;
    return IR_EXEC_OK;
}

/* vote[.sync].mode d, {!}a[, membermask]: over the active lanes in membermask (each lane uses its
 * own membermask value; without .sync, all active lanes). */
static ir_exec_status exec_vote(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    bool has_mask = in->n_src >= 2;
    uint32_t ballot = 0;
    FOR_LANES(l, x->active)
    if (src_pred(x, 0, l))
        ballot |= 1u << l;
    FOR_LANES(l, x->active) {
        uint32_t set = x->active & (has_mask ? (uint32_t)src(x, 1, l) : 0xffffffffu);
        uint32_t b = ballot & set;
        uint64_t r;
        switch (in->sub) {
        case IR_VOTE_ALL: r = b == set; break;
        case IR_VOTE_ANY: r = b != 0; break;
        case IR_VOTE_UNI: r = b == 0 || b == set; break;
        case IR_VOTE_BALLOT: r = b; break;
        default: return IR_EXEC_UNSUPPORTED;
        }
        x->dst[0].v[l] = r;
    }
    return IR_EXEC_OK;
}

/* ---- entry points -------------------------------------------------------------------------------- */

ir_exec_status ir_exec(ir_exec_ctx *x)
{
    const ir_instr *in = x->in;
    ir_opcode op = (ir_opcode)in->op;
    ir_exec_status st;
    switch (op) {
    case IR_OP_MOV: st = exec_mov(x); break;
    case IR_OP_CVT: st = exec_cvt(x); break;
    case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_MAD: case IR_OP_MUL24:
    case IR_OP_MAD24: case IR_OP_ADDC: case IR_OP_SUBC: case IR_OP_MADC:
        st = exec_arith(x, op);
        break;
    case IR_OP_SAD: st = exec_sad(x); break;
    case IR_OP_DIV: st = exec_div(x); break;
    case IR_OP_REM: st = type_float(in->type) ? IR_EXEC_UNSUPPORTED : exec_divrem_int(x, true); break;
    case IR_OP_ABS: st = exec_absneg(x, false); break;
    case IR_OP_NEG: st = exec_absneg(x, true); break;
    case IR_OP_MIN: st = exec_minmax(x, false); break;
    case IR_OP_MAX: st = exec_minmax(x, true); break;
    case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR: case IR_OP_NOT: case IR_OP_CNOT:
        st = exec_logic(x, op);
        break;
    case IR_OP_SHL: st = exec_shift(x, true); break;
    case IR_OP_SHR: st = exec_shift(x, false); break;
    case IR_OP_SHF: st = exec_shf(x); break;
    case IR_OP_SETP: return exec_setp(x);
    case IR_OP_SET: st = exec_set(x); break;
    case IR_OP_SELP: st = exec_selp(x); break;
    case IR_OP_SLCT: st = exec_slct(x); break;
    case IR_OP_FMA: st = exec_fop(x, FOP_FMA); break;
    case IR_OP_RCP: st = exec_sfu(x, SF_RCP); break;
    case IR_OP_SQRT: st = exec_sfu(x, SF_SQRT); break;
    case IR_OP_RSQRT: st = exec_sfu(x, SF_RSQRT); break;
    case IR_OP_EX2: st = exec_sfu(x, SF_EX2); break;
    case IR_OP_LG2: st = exec_sfu(x, SF_LG2); break;
    case IR_OP_SIN: st = exec_sfu(x, SF_SIN); break;
    case IR_OP_COS: st = exec_sfu(x, SF_COS); break;
    case IR_OP_TANH: st = exec_sfu(x, SF_TANH); break;
    case IR_OP_COPYSIGN: st = exec_copysign(x); break;
    case IR_OP_TESTP: st = exec_testp(x); break;
    case IR_OP_POPC: case IR_OP_CLZ: case IR_OP_BFIND: case IR_OP_BREV: st = exec_bits(x, op); break;
    case IR_OP_BFE: st = exec_bfe(x); break;
    case IR_OP_BFI: st = exec_bfi(x); break;
    case IR_OP_PRMT: st = exec_prmt(x); break;
    case IR_OP_SHFL: return exec_shfl(x);
    case IR_OP_VOTE: st = exec_vote(x); break;
    case IR_OP_ACTIVEMASK:
        FOR_LANES(l, x->active) x->dst[0].v[l] = x->active;
        st = IR_EXEC_OK;
        break;
    default: return IR_EXEC_NOT_ALU;
    }
    if (st == IR_EXEC_OK)
        x->dst_written |= 1u;
    return st;
}

/* atom/red: the new memory value. inc/dec wrap as the PTX ISA defines; f32 add rounds to nearest
 * and flushes subnormals (PTX: atom.add.f32 is .ftz); f64 add rounds to nearest. */
uint64_t ir_exec_atom(const ir_instr *in, uint64_t old, uint64_t b, uint64_t c)
{
    ir_type t = (ir_type)in->type;
    unsigned n = type_bits(t);
    if (n > 64)
        n = 64;
    uint64_t m = mask_n(n);
    bool sg = type_signed(t);
    old &= m;
    b &= m;
    switch (in->atom) {
    case IR_ATOM_ADD:
        if (t == IR_T_F32) {
            bool ftz = !(in->flags & IR_F_NOFTZ);
            float fo = bits_f32((uint32_t)old), fb = bits_f32((uint32_t)b);
            return wr_f32((ftz ? f32_flush(fo) : fo) + (ftz ? f32_flush(fb) : fb), ftz, false);
        }
        if (t == IR_T_F64)
            return wr_f64(bits_f64(old) + bits_f64(b), false, false);
        if (t == IR_T_F16) /* atom.add.noftz.f16: round to nearest, subnormals kept */
            return f16_out(f16_in(old, false) + f16_in(b, false), false, false);
        return (old + b) & m;
    case IR_ATOM_MIN:
    case IR_ATOM_MAX: {
        bool is_max = in->atom == IR_ATOM_MAX;
        if (t == IR_T_F32)
            return wr_f32(fmin_ptx(bits_f32((uint32_t)old), bits_f32((uint32_t)b), is_max), false, false);
        if (t == IR_T_F64)
            return wr_f64(dmin_ptx(bits_f64(old), bits_f64(b), is_max), false, false);
        if (t == IR_T_F16)
            return f16_out(dmin_ptx(f16_in(old, false), f16_in(b, false), is_max), false, false);
        bool lt = sg ? sext(old, n) < sext(b, n) : old < b;
        return (lt != is_max) ? old : b;
    }
    case IR_ATOM_INC: return old >= b ? 0 : (old + 1) & m;
    case IR_ATOM_DEC: return (old == 0 || old > b) ? b : old - 1;
    case IR_ATOM_AND: return old & b;
    case IR_ATOM_OR: return old | b;
    case IR_ATOM_XOR: return old ^ b;
    case IR_ATOM_EXCH: return b;
    case IR_ATOM_CAS: return old == b ? c & m : old;
    default: return old;
    }
}

uint64_t ir_exec_load_value(ir_type t, const void *bytes)
{
    unsigned n = type_bits(t);
    if (n > 64)
        n = 64;
    if (n < 8)
        n = 8; /* a predicate is never loaded; treat it as a byte */
    uint64_t v = 0;
    memcpy(&v, bytes, n / 8); /* little-endian host, as the simulated GPU */
    return type_signed(t) ? (uint64_t)sext(v, n) : v;
}

void ir_exec_store_value(ir_type t, uint64_t value, void *bytes)
{
    unsigned n = type_bits(t);
    if (n > 64)
        n = 64;
    if (n < 8)
        n = 8;
    memcpy(bytes, &value, n / 8);
}

uint64_t ir_exec_vec_pack(const uint64_t *elems, unsigned n, unsigned elem_bits)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n && i * elem_bits < 64; i++)
        v |= (elems[i] & mask_n(elem_bits)) << (i * elem_bits);
    return v;
}

void ir_exec_vec_unpack(uint64_t v, unsigned n, unsigned elem_bits, uint64_t *elems)
{
    for (unsigned i = 0; i < n; i++)
        elems[i] = i * elem_bits < 64 ? (v >> (i * elem_bits)) & mask_n(elem_bits) : 0;
}
