/* wmask.h — a set of warp slots (or CTA slots) of one SM, as a fixed bitset of WMASK_BITS bits.
 *
 * The SM's masks (issue's dirty/member sets, fetch's eligible warps, barrier releases) were one
 * uint64_t while an SM had at most 64 warp slots; the resource-sharing spec's Table 3.2 machine has
 * 96 (3072 threads), and an SM of 4-wide warps 256 (1024 threads). Four words hold 256: iteration visits set
 * bits in increasing order, word by word (for k < WMASK_WORDS, for b = m.w[k]; b; b &= b - 1: bit 64k +
 * ctz(b)), so an SM of up to 64 warps costs one more (empty) word test per loop. Beside them clog2, the
 * width in bits of an ID that names one of x things (storage counts). Pure C, header only.
 */
#ifndef GPUSC_MODELS_LIB_WMASK_H
#define GPUSC_MODELS_LIB_WMASK_H

#include <stdbool.h>
#include <stdint.h>

#define WMASK_WORDS 4
#define WMASK_BITS  (64 * WMASK_WORDS)

typedef struct {
    uint64_t w[WMASK_WORDS];
} wmask;

static inline void wmask_zero(wmask *m)
{
    for (unsigned k = 0; k < WMASK_WORDS; k++)
        m->w[k] = 0;
}

/* The words that hold bits 0 .. n-1: a loop over the set bits of the first wmask_words(n) words
 * sees every bit of a set of n slots (one word up to 64, so an SM of up to 64 warps visits one). */
static inline unsigned wmask_words(unsigned n)
{
    return n ? (n + 63) / 64 : 1;
}

static inline void wmask_set(wmask *m, unsigned i)
{
    m->w[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline void wmask_clear(wmask *m, unsigned i)
{
    m->w[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

static inline void wmask_put(wmask *m, unsigned i, bool v)
{
    uint64_t *w = &m->w[i >> 6], bit = UINT64_C(1) << (i & 63);
    *w = v ? *w | bit : *w & ~bit;
}

static inline bool wmask_test(const wmask *m, unsigned i)
{
    return (m->w[i >> 6] >> (i & 63)) & 1u;
}

static inline bool wmask_any(const wmask *m)
{
    uint64_t x = 0;
    for (unsigned k = 0; k < WMASK_WORDS; k++)
        x |= m->w[k];
    return x != 0;
}

static inline void wmask_or(wmask *d, const wmask *s)
{
    for (unsigned k = 0; k < WMASK_WORDS; k++)
        d->w[k] |= s->w[k];
}

/* Bits 0 .. n-1 set (n <= WMASK_BITS). */
static inline void wmask_first(wmask *m, unsigned n)
{
    for (unsigned k = 0; k < WMASK_WORDS; k++) {
        unsigned lo = 64 * k;
        m->w[k] = n >= lo + 64 ? ~UINT64_C(0) : n > lo ? (UINT64_C(1) << (n - lo)) - 1 : 0;
    }
}

/* The lowest set bit at or above `from`, or WMASK_BITS when there is none. */
static inline unsigned wmask_next(const wmask *m, unsigned from)
{
    for (unsigned k = from >> 6; k < WMASK_WORDS; k++) {
        uint64_t b = m->w[k];
        if (k == from >> 6)
            b &= ~UINT64_C(0) << (from & 63);
        if (b)
            return 64 * k + (unsigned)__builtin_ctzll(b);
    }
    return WMASK_BITS;
}

/* ceil(log2(x)), 0 for x <= 1: the bits that name one of x things (an ID's width in a storage count). */
static inline unsigned clog2(unsigned x)
{
    return x <= 1 ? 0 : 32u - (unsigned)__builtin_clz(x - 1);
}

#endif
