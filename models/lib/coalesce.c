/* coalesce.c — warp accesses into transactions and scratchpad bank cycles; see coalesce.h. */
#include "models/lib/coalesce.h"

#include <string.h>

static unsigned part_size(const coalesce_access *a, unsigned lanes_per_part)
{
    return lanes_per_part == 0 || lanes_per_part > a->lanes ? a->lanes : lanes_per_part;
}

/* Sets bits [lo, hi) of a transaction's byte mask. */
static void mask_range(coalesce_txn *t, unsigned lo, unsigned hi)
{
    while (lo < hi) {
        unsigned w = lo / 64, end = MIN(hi, (w + 1) * 64);
        uint64_t bits = end - lo == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << (end - lo)) - 1) << (lo % 64);
        t->byte_mask[w] |= bits;
        lo = end;
    }
}

/* A part's transactions are made in place in the output, in lane order, with an open-addressing
 * index from segment to transaction (a scattered warp makes up to 32 of them: a linear search per
 * lane was most of the cost), then sorted by address if they were not made in that order. Addresses
 * are distinct, so the result does not depend on the order of creation. */
enum { INDEX_BITS = 7, INDEX_SIZE = 1 << INDEX_BITS }; /* at least twice COALESCE_MAX_TXNS */
G_STATIC_ASSERT(COALESCE_MAX_TXNS < 256 && 2 * COALESCE_MAX_TXNS <= INDEX_SIZE);

typedef struct {
    coalesce_txn *t;           /* the part's transactions (in the output) */
    uint8_t index[INDEX_SIZE]; /* 0: empty; else 1 + the transaction's position in t */
    unsigned n;
    uint64_t top;  /* the address of the transaction made last (0 before the first) */
    bool unsorted; /* a transaction was made after one of a higher address */
} part_txns;

/* The part's transaction of segment `base`, made if there is none yet (its byte mask cleared if
 * `masks`). */
static inline __attribute__((always_inline)) coalesce_txn *txn_for(part_txns *pt, unsigned *budget, uint64_t base,
                                                                    unsigned shift, unsigned segment, const bool masks)
{
    unsigned h = (unsigned)(((base >> shift) * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - INDEX_BITS));
    for (; pt->index[h]; h = (h + 1) & (INDEX_SIZE - 1))
        if (pt->t[pt->index[h] - 1].addr == base)
            return &pt->t[pt->index[h] - 1];
    g_assert(*budget > 0);
    (*budget)--;
    pt->unsorted |= pt->top > base;
    pt->top = base;
    pt->index[h] = (uint8_t)(pt->n + 1);
    coalesce_txn *t = &pt->t[pt->n++];
    if (masks) {
        *t = (coalesce_txn){.addr = base, .size = segment};
    } else {
        t->addr = base;
        t->size = segment;
        t->lanes = 0;
    }
    return t;
}

/* Sorts pt's transactions by address: an insertion sort of keys (the address, and the position in
 * the low bits when the segment leaves them free), then the transactions moved once. */
static void sort_part(const part_txns *pt, unsigned shift)
{
    unsigned n = pt->n;
    coalesce_txn tmp[COALESCE_MAX_TXNS];
    memcpy(tmp, pt->t, n * sizeof *tmp);
    uint8_t at[COALESCE_MAX_TXNS];
    if (shift >= 6) { /* segments of 64 B or more: the position (< 64) fits under the address */
        G_STATIC_ASSERT(COALESCE_MAX_TXNS <= 64);
        uint64_t key[COALESCE_MAX_TXNS];
        for (unsigned i = 0; i < n; i++) {
            uint64_t k = tmp[i].addr | i;
            unsigned j = i;
            for (; j > 0 && key[j - 1] > k; j--)
                key[j] = key[j - 1];
            key[j] = k;
        }
        for (unsigned i = 0; i < n; i++)
            at[i] = (uint8_t)(key[i] & 63);
    } else {
        uint64_t key[COALESCE_MAX_TXNS];
        for (unsigned i = 0; i < n; i++) {
            uint64_t k = tmp[i].addr;
            unsigned j = i;
            for (; j > 0 && key[j - 1] > k; j--) {
                key[j] = key[j - 1];
                at[j] = at[j - 1];
            }
            key[j] = k;
            at[j] = (uint8_t)i;
        }
    }
    for (unsigned i = 0; i < n; i++)
        pt->t[i] = tmp[at[i]];
}

/* coalesce_lanes, made once with the byte masks and once without. */
static inline __attribute__((always_inline)) unsigned lanes_txns(unsigned lanes, uint32_t active, unsigned size,
                                                                  const uint64_t *addr, unsigned segment,
                                                                  unsigned lanes_per_part, const bool masks,
                                                                  coalesce_txn *out)
{
    g_assert(lanes <= COALESCE_MAX_LANES);
    g_assert(segment >= 4 && segment <= COALESCE_MAX_SEGMENT && !(segment & (segment - 1)));
    g_assert(size >= 1 && size <= 16);
    unsigned n = 0, budget = COALESCE_MAX_TXNS;
    unsigned part = lanes_per_part == 0 || lanes_per_part > lanes ? lanes : lanes_per_part;
    unsigned shift = (unsigned)__builtin_ctz(segment);
    uint64_t seg_mask = ~(uint64_t)(segment - 1), size_bits = (UINT64_C(1) << size) - 1;
    part_txns pt;
    for (unsigned p0 = 0; p0 < lanes; p0 += part) {
        pt.t = out + n;
        pt.n = 0;
        pt.top = 0;
        pt.unsorted = false;
        memset(pt.index, 0, sizeof pt.index);
        unsigned width = MIN(p0 + part, lanes) - p0; /* the part's lanes, active ones in lane order */
        uint32_t m = active >> p0 & (width < 32 ? (UINT32_C(1) << width) - 1 : ~UINT32_C(0));
        uint64_t last = 1; /* the segment of the previous lane (none: not a multiple of 4) */
        coalesce_txn *t = NULL;
        for (; m; m &= m - 1) {
            unsigned lane = p0 + (unsigned)__builtin_ctz(m);
            /* the lane's bytes [lo, hi), segment by segment */
            uint64_t lo = addr[lane], hi = lo + size, base = lo & seg_mask;
            if (hi <= base + segment) { /* the usual: one segment, one mask word */
                unsigned off = (unsigned)(lo - base);
                if (base != last) { /* (consecutive lanes in one segment: found without a lookup) */
                    t = txn_for(&pt, &budget, base, shift, segment, masks);
                    last = base;
                }
                if (!masks)
                    ;
                else if (off % 64 + size <= 64)
                    t->byte_mask[off / 64] |= size_bits << (off % 64);
                else
                    mask_range(t, off, off + size);
                t->lanes |= (uint32_t)1 << lane;
                continue;
            }
            for (; base < hi; base += segment) {
                t = txn_for(&pt, &budget, base, shift, segment, masks);
                last = base;
                if (masks)
                    mask_range(t, (unsigned)(MAX(lo, base) - base), (unsigned)(MIN(hi, base + segment) - base));
                t->lanes |= (uint32_t)1 << lane;
            }
        }
        if (pt.unsorted)
            sort_part(&pt, shift);
        n += pt.n;
    }
    return n;
}

unsigned coalesce_lanes(unsigned lanes, uint32_t active, unsigned size, const uint64_t *addr, unsigned segment,
                        unsigned lanes_per_part, bool masks, coalesce_txn *out)
{
    return masks ? lanes_txns(lanes, active, size, addr, segment, lanes_per_part, true, out)
                 : lanes_txns(lanes, active, size, addr, segment, lanes_per_part, false, out);
}

unsigned coalesce_transactions(const coalesce_access *a, unsigned segment, unsigned lanes_per_part,
                               coalesce_txn *out)
{
    return coalesce_lanes(a->lanes, a->active, a->size, a->addr, segment, lanes_per_part, true, out);
}

unsigned coalesce_txn_bytes(const coalesce_txn *t)
{
    unsigned n = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(t->byte_mask); i++)
        n += (unsigned)__builtin_popcountll(t->byte_mask[i]);
    return n;
}

bool coalesce_txn_byte(const coalesce_txn *t, unsigned offset)
{
    return offset < t->size && (t->byte_mask[offset / 64] >> (offset % 64) & 1);
}

void coalesce_smem_config_init(coalesce_smem_config *c)
{
    *c = (coalesce_smem_config){.banks = 32, .bank_width = 4, .broadcast = true, .lanes_per_part = 0};
}

/* Cost of one part: max over banks of distinct (or, without broadcast, all) words requested. */
static unsigned smem_part_cycles(const coalesce_access *a, const coalesce_smem_config *c, unsigned lo,
                                 unsigned hi, unsigned *worst)
{
    uint64_t words[COALESCE_MAX_LANES * 16];
    unsigned nwords = 0;
    for (unsigned lane = lo; lane < hi; lane++) {
        if (!(a->active >> lane & 1))
            continue;
        uint64_t w0 = a->addr[lane] / c->bank_width, w1 = (a->addr[lane] + a->size - 1) / c->bank_width;
        for (uint64_t w = w0; w <= w1; w++) {
            bool dup = false;
            for (unsigned i = 0; c->broadcast && i < nwords && !dup; i++)
                dup = words[i] == w;
            if (!dup)
                words[nwords++] = w;
        }
    }
    /* One pass over the words (not banks x words divisions); the lowest bank wins a tie, as before. */
    unsigned count_s[64];
    g_autofree unsigned *count_h = c->banks > G_N_ELEMENTS(count_s) ? g_new0(unsigned, c->banks) : NULL;
    unsigned *count = count_h ? count_h : count_s;
    if (!count_h)
        memset(count_s, 0, c->banks * sizeof *count_s);
    for (unsigned i = 0; i < nwords; i++)
        count[words[i] % c->banks]++;
    unsigned best = 0;
    for (unsigned bank = 0; bank < c->banks; bank++)
        if (count[bank] > best) {
            best = count[bank];
            *worst = bank;
        }
    return best;
}

unsigned coalesce_smem_cycles(const coalesce_access *a, const coalesce_smem_config *c, unsigned *worst_bank)
{
    g_assert(a->lanes <= COALESCE_MAX_LANES && c->banks > 0 && c->bank_width > 0);
    g_assert(a->size >= 1 && a->size <= 16);
    unsigned part = part_size(a, c->lanes_per_part), total = 0, worst_cost = 0, worst = 0;
    for (unsigned p0 = 0; p0 < a->lanes; p0 += part) {
        unsigned bank = 0, hi = MIN(p0 + part, a->lanes);
        unsigned cost = smem_part_cycles(a, c, p0, hi, &bank);
        total += cost;
        if (cost > worst_cost) {
            worst_cost = cost;
            worst = bank;
        }
    }
    if (worst_bank)
        *worst_bank = worst;
    return total;
}
