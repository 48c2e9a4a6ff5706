/* Unit tests for models/lib/coalesce: transactions per warp access and scratchpad bank cycles. */
#include "models/lib/coalesce.h"

static coalesce_access strided(uint64_t base, uint64_t stride, unsigned size)
{
    coalesce_access a = {.lanes = 32, .active = 0xffffffffu, .size = size};
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = base + i * stride;
    return a;
}

static unsigned txns(const coalesce_access *a, unsigned segment, coalesce_txn *out)
{
    return coalesce_transactions(a, segment, 0, out);
}

static void test_unit_stride(void)
{
    coalesce_txn t[COALESCE_MAX_TXNS];
    coalesce_access a = strided(0x1000, 4, 4); /* 32 x 4 B = one 128 B line */
    g_assert_cmpuint(txns(&a, 128, t), ==, 1);
    g_assert_cmpuint(t[0].addr, ==, 0x1000);
    g_assert_cmpuint(t[0].lanes, ==, 0xffffffffu);
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]), ==, 128);
    /* misaligned base: two lines, lanes split 0..15 / 16..31 at 0x1080 */
    a = strided(0x1040, 4, 4);
    g_assert_cmpuint(txns(&a, 128, t), ==, 2);
    g_assert_cmpuint(t[0].addr, ==, 0x1000);
    g_assert_cmpuint(t[0].lanes, ==, 0x0000ffffu);
    g_assert_cmpuint(t[1].addr, ==, 0x1080);
    g_assert_cmpuint(t[1].lanes, ==, 0xffff0000u);
    g_assert_true(coalesce_txn_byte(&t[0], 0x40) && !coalesce_txn_byte(&t[0], 0x3f));
    g_assert_cmpuint(coalesce_txn_bytes(&t[1]), ==, 64);
    /* 32 B segments: 4 transactions */
    a = strided(0x1000, 4, 4);
    g_assert_cmpuint(txns(&a, 32, t), ==, 4);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmpuint(t[i].addr, ==, 0x1000 + 32 * i);
        g_assert_cmpuint(t[i].lanes, ==, 0xffu << (8 * i));
    }
}

static void test_strided(void)
{
    coalesce_txn t[COALESCE_MAX_TXNS];
    /* stride 8 B, 4 B each: 256 B -> 2 lines, half the bytes of each */
    coalesce_access a = strided(0, 8, 4);
    g_assert_cmpuint(txns(&a, 128, t), ==, 2);
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]), ==, 64);
    g_assert_true(coalesce_txn_byte(&t[0], 0) && !coalesce_txn_byte(&t[0], 4) && coalesce_txn_byte(&t[0], 8));
    /* stride 128 B: one line per lane */
    a = strided(0, 128, 4);
    g_assert_cmpuint(txns(&a, 128, t), ==, 32);
    for (unsigned i = 0; i < 32; i++) {
        g_assert_cmpuint(t[i].addr, ==, 128 * i);
        g_assert_cmpuint(t[i].lanes, ==, 1u << i);
        g_assert_cmpuint(coalesce_txn_bytes(&t[i]), ==, 4);
    }
    /* stride 64 B: two lanes per line */
    a = strided(0, 64, 4);
    g_assert_cmpuint(txns(&a, 128, t), ==, 16);
    g_assert_cmpuint(t[3].lanes, ==, 3u << 6);
}

/* Scattered lanes come out in ascending line order, whatever the lane order. */
static void test_scattered(void)
{
    coalesce_txn t[COALESCE_MAX_TXNS];
    coalesce_access a = {.lanes = 32, .active = 0, .size = 4};
    static const uint64_t addrs[] = {0x5000, 0x100, 0x5004, 0x9ffc, 0x104, 0x100};
    for (unsigned i = 0; i < G_N_ELEMENTS(addrs); i++) {
        a.addr[i * 5] = addrs[i];
        a.active |= 1u << (i * 5);
    }
    g_assert_cmpuint(txns(&a, 128, t), ==, 3);
    g_assert_cmpuint(t[0].addr, ==, 0x100);
    g_assert_cmpuint(t[0].lanes, ==, (1u << 5) | (1u << 20) | (1u << 25));
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]), ==, 8);
    g_assert_cmpuint(t[1].addr, ==, 0x5000);
    g_assert_cmpuint(t[1].lanes, ==, 1u | (1u << 10));
    g_assert_cmpuint(t[2].addr, ==, 0x9f80);
    g_assert_true(coalesce_txn_byte(&t[2], 0x7f) && coalesce_txn_byte(&t[2], 0x7c));
    /* inactive lanes are ignored even with wild addresses */
    a.addr[1] = 0xdead0000;
    g_assert_cmpuint(txns(&a, 128, t), ==, 3);
    a.active = 0;
    g_assert_cmpuint(txns(&a, 128, t), ==, 0);
}

static void test_same_address(void)
{
    coalesce_txn t[COALESCE_MAX_TXNS];
    coalesce_access a = strided(0x2468, 0, 4);
    g_assert_cmpuint(txns(&a, 128, t), ==, 1);
    g_assert_cmpuint(t[0].addr, ==, 0x2400);
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]), ==, 4);
    g_assert_cmpuint(t[0].lanes, ==, 0xffffffffu);
}

static void test_wide_accesses(void)
{
    coalesce_txn t[COALESCE_MAX_TXNS];
    coalesce_access a = strided(0, 8, 8); /* 64-bit: 256 B */
    g_assert_cmpuint(txns(&a, 128, t), ==, 2);
    g_assert_cmpuint(t[0].lanes, ==, 0x0000ffffu);
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]), ==, 128);
    a = strided(0, 16, 16); /* 128-bit: 512 B */
    g_assert_cmpuint(txns(&a, 128, t), ==, 4);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmpuint(t[i].addr, ==, 128 * i);
        g_assert_cmpuint(t[i].lanes, ==, 0xffu << (8 * i));
    }
    /* a misaligned 8-byte lane access straddles two lines: both serve it */
    a = (coalesce_access){.lanes = 32, .active = 1, .size = 8, .addr = {124}};
    g_assert_cmpuint(txns(&a, 128, t), ==, 2);
    g_assert_cmpuint(t[0].lanes & t[1].lanes, ==, 1);
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]) + coalesce_txn_bytes(&t[1]), ==, 8);
}

/* Warp parts: each half-warp is coalesced alone, so a line both halves touch gives two transactions. */
static void test_parts(void)
{
    coalesce_txn t[COALESCE_MAX_TXNS];
    coalesce_access a = strided(0, 4, 4);
    g_assert_cmpuint(coalesce_transactions(&a, 128, 16, t), ==, 2);
    g_assert_cmpuint(t[0].addr, ==, 0);
    g_assert_cmpuint(t[1].addr, ==, 0);
    g_assert_cmpuint(t[0].lanes, ==, 0xffffu);
    g_assert_cmpuint(t[1].lanes, ==, 0xffff0000u);
    /* a narrow (8-lane) warp */
    a.lanes = 8;
    a.active = 0xff;
    g_assert_cmpuint(coalesce_transactions(&a, 128, 0, t), ==, 1);
    g_assert_cmpuint(coalesce_txn_bytes(&t[0]), ==, 32);
}

static unsigned smem(const coalesce_access *a, bool broadcast, unsigned *worst)
{
    coalesce_smem_config c;
    coalesce_smem_config_init(&c);
    c.broadcast = broadcast;
    return coalesce_smem_cycles(a, &c, worst);
}

/* Lane i reads word i * k (k a power of two): 32 banks give a k-way conflict, k cycles. */
static void test_smem_conflicts(void)
{
    unsigned worst;
    for (unsigned k = 1; k <= 32; k *= 2) {
        coalesce_access a = strided(0, 4 * k, 4);
        g_assert_cmpuint(smem(&a, true, &worst), ==, k);
        g_assert_cmpuint(worst, ==, 0);
    }
    /* odd strides are conflict-free */
    coalesce_access a = strided(0, 4 * 3, 4);
    g_assert_cmpuint(smem(&a, true, NULL), ==, 1);
    /* an exact k-way conflict for every k: lanes 0..k-1 hit bank 5 at k different words; the other
     * lanes read one word of bank 7 (a broadcast, cost 1) */
    for (unsigned k = 1; k <= 32; k++) {
        a = strided(0, 4, 4);
        for (unsigned i = 0; i < 32; i++)
            a.addr[i] = i < k ? (5 + 32 * (uint64_t)(i + 1)) * 4 : 7 * 4;
        worst = 99;
        g_assert_cmpuint(smem(&a, true, &worst), ==, k);
        g_assert_cmpuint(worst, ==, 5); /* k = 1 ties with bank 7: the lower bank is reported */
    }
    /* inactive lanes do not count */
    a = strided(0, 128, 4);
    a.active = 0x0000000f;
    g_assert_cmpuint(smem(&a, true, NULL), ==, 4);
    a.active = 0;
    g_assert_cmpuint(smem(&a, true, NULL), ==, 0);
}

static void test_smem_broadcast(void)
{
    coalesce_access a = strided(0x40, 0, 4); /* all lanes, one word */
    g_assert_cmpuint(smem(&a, true, NULL), ==, 1);
    g_assert_cmpuint(smem(&a, false, NULL), ==, 32);
    /* half the lanes on word 0, half on word 32 (same bank 0): 2 distinct words */
    a = strided(0, 0, 4);
    for (unsigned i = 16; i < 32; i++)
        a.addr[i] = 32 * 4;
    unsigned worst = 99;
    g_assert_cmpuint(smem(&a, true, &worst), ==, 2);
    g_assert_cmpuint(worst, ==, 0);
    /* byte accesses to the same word broadcast */
    a = strided(0, 1, 1);
    g_assert_cmpuint(smem(&a, true, NULL), ==, 1); /* 32 bytes = 8 words in 8 banks */
}

static void test_smem_wide(void)
{
    /* 64-bit unit stride: 64 words over 32 banks = 2 per bank */
    coalesce_access a = strided(0, 8, 8);
    g_assert_cmpuint(smem(&a, true, NULL), ==, 2);
    /* 128-bit unit stride: 4 per bank */
    a = strided(0, 16, 16);
    g_assert_cmpuint(smem(&a, true, NULL), ==, 4);
    /* half-warp parts: 64-bit in two parts of 16 lanes -> 1 + 1 */
    coalesce_smem_config c;
    coalesce_smem_config_init(&c);
    c.lanes_per_part = 16;
    a = strided(0, 8, 8);
    g_assert_cmpuint(coalesce_smem_cycles(&a, &c, NULL), ==, 2);
    /* 16 banks of 8 bytes */
    coalesce_smem_config_init(&c);
    c.banks = 16;
    c.bank_width = 8;
    a = strided(0, 4, 4); /* 128 B = 16 words of 8 B */
    g_assert_cmpuint(coalesce_smem_cycles(&a, &c, NULL), ==, 1);
}

/* Transactions against the definition, byte by byte: every byte a lane touches is in the
 * transaction of its segment (within the lane's part), which serves that lane; a part's
 * transactions are sorted by address. Random accesses: unaligned, all sizes, segment sizes from 4
 * to the maximum (a lane may span two segments), whole warp and parts. */
static void test_random_vs_bytes(void)
{
    GRand *r = g_rand_new_with_seed(11);
    const unsigned sizes[] = {1, 2, 4, 8, 16};
    for (unsigned iter = 0; iter < 20000; iter++) {
        coalesce_access a = {.lanes = 32, .active = g_rand_int(r), .size = sizes[g_rand_int_range(r, 0, 5)]};
        /* segment >= size: a lane spans at most two segments, so at most COALESCE_MAX_TXNS */
        unsigned segment = 4u << g_rand_int_range(r, 0, 7); /* 4 .. 256 */
        while (segment < a.size)
            segment *= 2;
        unsigned lpp = (unsigned[]){0, 8, 16}[g_rand_int_range(r, 0, 3)];
        uint64_t base = (uint64_t)g_rand_int_range(r, 0, 1 << 20);
        unsigned spread = (unsigned[]){4, 64, 4096}[g_rand_int_range(r, 0, 3)];
        for (unsigned l = 0; l < 32; l++)
            a.addr[l] = base + (uint64_t)g_rand_int_range(r, 0, (gint32)spread);
        coalesce_txn out[COALESCE_MAX_TXNS], want[COALESCE_MAX_TXNS];
        unsigned n = coalesce_transactions(&a, segment, lpp, out);
        /* the reference */
        unsigned m = 0, part = lpp ? lpp : 32;
        for (unsigned p0 = 0; p0 < 32; p0 += part) {
            unsigned first = m;
            for (unsigned l = p0; l < p0 + part; l++) {
                if (!(a.active >> l & 1))
                    continue;
                for (unsigned b = 0; b < a.size; b++) {
                    uint64_t byte = a.addr[l] + b, sb = byte & ~(uint64_t)(segment - 1);
                    unsigned i = first;
                    while (i < m && want[i].addr != sb)
                        i++;
                    if (i == m) {
                        memset(&want[m], 0, sizeof want[m]);
                        want[m].addr = sb;
                        want[m].size = segment;
                        m++;
                    }
                    unsigned off = (unsigned)(byte - sb);
                    want[i].byte_mask[off / 64] |= UINT64_C(1) << (off % 64);
                    want[i].lanes |= 1u << l;
                }
            }
            for (unsigned i = first + 1; i < m; i++) /* sort the part by address */
                for (unsigned j = i; j > first && want[j - 1].addr > want[j].addr; j--) {
                    coalesce_txn t = want[j];
                    want[j] = want[j - 1];
                    want[j - 1] = t;
                }
        }
        g_assert_cmpuint(n, ==, m);
        /* without byte masks (a load's): the same transactions, masks unset (filled to show it) */
        coalesce_txn bare[COALESCE_MAX_TXNS];
        memset(bare, 0xa5, sizeof bare);
        g_assert_cmpuint(coalesce_lanes(a.lanes, a.active, a.size, a.addr, segment, lpp, false, bare), ==, n);
        for (unsigned i = 0; i < n; i++) {
            g_assert_cmpuint(out[i].addr, ==, want[i].addr);
            g_assert_cmpuint(out[i].size, ==, want[i].size);
            g_assert_cmpuint(out[i].lanes, ==, want[i].lanes);
            for (unsigned w = 0; w < G_N_ELEMENTS(out[i].byte_mask); w++)
                g_assert_cmpuint(out[i].byte_mask[w], ==, want[i].byte_mask[w]);
            g_assert_cmpuint(bare[i].addr, ==, want[i].addr);
            g_assert_cmpuint(bare[i].size, ==, want[i].size);
            g_assert_cmpuint(bare[i].lanes, ==, want[i].lanes);
        }
    }
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/coalesce/unit-stride", test_unit_stride);
    g_test_add_func("/coalesce/strided", test_strided);
    g_test_add_func("/coalesce/scattered", test_scattered);
    g_test_add_func("/coalesce/same-address", test_same_address);
    g_test_add_func("/coalesce/wide", test_wide_accesses);
    g_test_add_func("/coalesce/parts", test_parts);
    g_test_add_func("/coalesce/random-vs-bytes", test_random_vs_bytes);
    g_test_add_func("/coalesce/smem-conflicts", test_smem_conflicts);
    g_test_add_func("/coalesce/smem-broadcast", test_smem_broadcast);
    g_test_add_func("/coalesce/smem-wide", test_smem_wide);
    return g_test_run();
}
