/* Unit tests for models/lib/bankmap: bank mapping, arbitration rules, conflict timing. */
#include "models/lib/bankmap.h"

static void test_mapping(void)
{
    bankmap m = {.kind = BANKMAP_REG_PLUS_WARP, .banks = 16};
    g_assert_cmpuint(bankmap_bank(&m, 0, 0, 0), ==, 0);
    g_assert_cmpuint(bankmap_bank(&m, 5, 0, 0), ==, 5);
    g_assert_cmpuint(bankmap_bank(&m, 5, 3, 0), ==, 8);
    g_assert_cmpuint(bankmap_bank(&m, 15, 1, 0), ==, 0);
    g_assert_cmpuint(bankmap_bank(&m, 17, 0, 0), ==, 1);
    m.kind = BANKMAP_REG;
    g_assert_cmpuint(bankmap_bank(&m, 5, 3, 0), ==, 5);
    g_assert_cmpuint(bankmap_bank(&m, 21, 9, 0), ==, 5);
    /* sub-core SM: 8 banks in 4 groups of 2 (RF-cache (Malekeh) spec §3: (reg + wid) mod 2 + sub-core x 2) */
    m = (bankmap){.kind = BANKMAP_REG_PLUS_WARP, .banks = 8, .groups = 4};
    g_assert_cmpuint(bankmap_bank(&m, 3, 0, 0), ==, 1);
    g_assert_cmpuint(bankmap_bank(&m, 3, 1, 2), ==, 4);
    g_assert_cmpuint(bankmap_bank(&m, 3, 2, 3), ==, 7);
}

/* register-renaming spec §2 [A]: physical register k in bank k mod 4. */
static unsigned phys_bank(unsigned reg, unsigned warp, unsigned banks, void *ctx)
{
    const unsigned *rename = ctx;
    return rename[warp * 4 + reg] % banks;
}

static void test_custom_mapping(void)
{
    static const unsigned rename[8] = {9, 2, 7, 4, 0, 1, 2, 3};
    bankmap m = {.kind = BANKMAP_CUSTOM, .banks = 4, .fn = phys_bank, .ctx = (void *)rename};
    g_assert_cmpuint(bankmap_bank(&m, 0, 0, 0), ==, 1);
    g_assert_cmpuint(bankmap_bank(&m, 2, 0, 0), ==, 3);
    g_assert_cmpuint(bankmap_bank(&m, 3, 1, 0), ==, 3);
}

static const bankmap_arb_config one_port = {.banks = 16, .ports = 1};

static void test_arbitrate_basic(void)
{
    bankmap_req reads[3] = {{.bank = 1, .seq = 0}, {.bank = 2, .seq = 1}, {.bank = 3, .seq = 2}};
    bool rg[3], wg[2];
    bankmap_arb_result r;
    bankmap_arbitrate(&one_port, reads, 3, NULL, 0, rg, wg, &r);
    g_assert_true(rg[0] && rg[1] && rg[2]);
    g_assert_cmpuint(r.reads_granted, ==, 3);
    g_assert_cmpuint(r.bank_conflicts, ==, 0);

    /* three reads of bank 4: the oldest (seq 3, listed last) wins */
    bankmap_req same[3] = {{.bank = 4, .seq = 7}, {.bank = 4, .seq = 5}, {.bank = 4, .seq = 3}};
    bankmap_arbitrate(&one_port, same, 3, NULL, 0, rg, wg, &r);
    g_assert_true(!rg[0] && !rg[1] && rg[2]);
    g_assert_cmpuint(r.bank_conflicts, ==, 2);

    /* a write takes the bank first, even though the read is older */
    bankmap_req rd[2] = {{.bank = 4, .seq = 0}, {.bank = 5, .seq = 1}};
    bankmap_req wr[2] = {{.bank = 4, .seq = 9}, {.bank = 4, .seq = 8}};
    bankmap_arbitrate(&one_port, rd, 2, wr, 2, rg, wg, &r);
    g_assert_true(!wg[0] && wg[1]); /* older write first; the other waits */
    g_assert_true(!rg[0] && rg[1]);
    g_assert_cmpuint(r.writes_granted, ==, 1);
    g_assert_cmpuint(r.writes_waiting, ==, 1);
    g_assert_cmpuint(r.bank_conflicts, ==, 1);

    /* two ports: two of the three same-bank reads go */
    bankmap_arb_config two = {.banks = 16, .ports = 2};
    bankmap_arbitrate(&two, same, 3, NULL, 0, rg, wg, &r);
    g_assert_true(!rg[0] && rg[1] && rg[2]);
    g_assert_cmpuint(r.bank_conflicts, ==, 1);
}

static void test_collector_ports(void)
{
    bankmap_arb_config c = {.banks = 4, .ports = 1, .collectors = 2, .collector_ports = 1};
    bool rg[4], wg[1];
    bankmap_arb_result r;
    /* two heads for collector 0 in one cycle: the older wins */
    bankmap_req a[2] = {{.bank = 2, .collector = 0, .seq = 4}, {.bank = 1, .collector = 0, .seq = 6}};
    bankmap_arbitrate(&c, a, 2, NULL, 0, rg, wg, &r);
    g_assert_true(rg[0] && !rg[1]);
    g_assert_cmpuint(r.collector_conflicts, ==, 1);
    /* same age: the lower bank wins */
    bankmap_req b[2] = {{.bank = 3, .collector = 1, .seq = 4}, {.bank = 0, .collector = 1, .seq = 4}};
    bankmap_arbitrate(&c, b, 2, NULL, 0, rg, wg, &r);
    g_assert_true(!rg[0] && rg[1]);
    /* a refused head blocks its queue: bank 1's next read (collector 1, free) waits too */
    bankmap_req d[3] = {{.bank = 2, .collector = 0, .seq = 1},
                        {.bank = 1, .collector = 0, .seq = 2},
                        {.bank = 1, .collector = 1, .seq = 3}};
    bankmap_arbitrate(&c, d, 3, NULL, 0, rg, wg, &r);
    g_assert_true(rg[0] && !rg[1] && !rg[2]);
    g_assert_cmpuint(r.collector_conflicts, ==, 2);
    g_assert_cmpuint(r.bank_conflicts, ==, 0);
    /* unlimited collector ports: both go */
    c.collector_ports = 0;
    bankmap_arbitrate(&c, a, 2, NULL, 0, rg, wg, &r);
    g_assert_true(rg[0] && rg[1]);
}

/* Drains the queues; returns cycles taken. */
static unsigned drain(bankmap_queues *q, bankmap_arb_result *tot)
{
    unsigned cycles = 0;
    while (bankmap_queues_pending(q)) {
        bankmap_queues_step(q, NULL, NULL, tot);
        cycles++;
        g_assert_cmpuint(cycles, <, 1000);
    }
    return cycles;
}

/* One instruction's source reads (16 banks, (reg + warp) mod 16): every read that shares a bank with
 * an earlier one costs exactly one more cycle. */
static void test_conflict_cost(void)
{
    bankmap m = {.kind = BANKMAP_REG_PLUS_WARP, .banks = 16};
    static const struct {
        unsigned regs[3];
        unsigned warp;
        unsigned cycles;
    } cases[] = {
        {{1, 2, 3}, 0, 1},   /* three banks */
        {{1, 17, 3}, 0, 2},  /* 1 and 17 share bank 1 */
        {{1, 17, 33}, 0, 3}, /* all in bank 1 */
        {{1, 17, 33}, 5, 3}, /* all in bank 6 */
        {{4, 20, 5}, 9, 2},
    };
    for (unsigned t = 0; t < G_N_ELEMENTS(cases); t++) {
        bankmap_queues *q = bankmap_queues_new(&one_port);
        for (unsigned i = 0; i < 3; i++)
            bankmap_queues_push_read(q, bankmap_bank(&m, cases[t].regs[i], cases[t].warp, 0), 0, i);
        bankmap_arb_result tot = {0};
        g_assert_cmpuint(drain(q, &tot), ==, cases[t].cycles);
        g_assert_cmpuint(tot.reads_granted, ==, 3);
        bankmap_queues_free(q);
    }
    /* k reads of one bank: k cycles, sum 0..k-1 waiting read-cycles */
    for (unsigned k = 1; k <= 8; k++) {
        bankmap_queues *q = bankmap_queues_new(&one_port);
        for (unsigned i = 0; i < k; i++)
            bankmap_queues_push_read(q, 7, 0, i);
        bankmap_arb_result tot = {0};
        g_assert_cmpuint(drain(q, &tot), ==, k);
        g_assert_cmpuint(tot.bank_conflicts, ==, k * (k - 1) / 2);
        bankmap_queues_free(q);
    }
}

/* Grants come out oldest first per bank; a write costs its bank one cycle. */
static void test_queue_order_and_writes(void)
{
    bankmap_queues *q = bankmap_queues_new(&one_port);
    bankmap_queues_push_read(q, 3, 0, 100);
    bankmap_queues_push_read(q, 3, 0, 101);
    bankmap_queues_push_read(q, 4, 0, 102);
    bankmap_queues_push_write(q, 3, 200);
    GArray *gr = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GArray *gw = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    bankmap_queues_step(q, gr, gw, NULL); /* write to 3, read 102 */
    g_assert_cmpuint(gw->len, ==, 1);
    g_assert_cmpuint(g_array_index(gw, uint64_t, 0), ==, 200);
    g_assert_cmpuint(gr->len, ==, 1);
    g_assert_cmpuint(g_array_index(gr, uint64_t, 0), ==, 102);
    bankmap_queues_step(q, gr, gw, NULL);
    bankmap_queues_step(q, gr, gw, NULL);
    g_assert_cmpuint(gr->len, ==, 3);
    g_assert_cmpuint(g_array_index(gr, uint64_t, 1), ==, 100);
    g_assert_cmpuint(g_array_index(gr, uint64_t, 2), ==, 101);
    g_assert_cmpuint(bankmap_queues_pending(q), ==, 0);
    g_array_free(gr, TRUE);
    g_array_free(gw, TRUE);
    bankmap_queues_free(q);

    /* two writes to one bank: serialised, and the second still beats an older read */
    q = bankmap_queues_new(&one_port);
    bankmap_queues_push_read(q, 2, 0, 1);
    bankmap_queues_push_write(q, 2, 2);
    bankmap_queues_push_write(q, 2, 3);
    bankmap_arb_result tot = {0};
    g_assert_cmpuint(drain(q, &tot), ==, 3);
    g_assert_cmpuint(tot.writes_waiting, ==, 1);
    g_assert_cmpuint(tot.bank_conflicts, ==, 2);
    bankmap_queues_free(q);
}

/* The queues against bankmap_arbitrate on the same requests, cycle by cycle, for random arrivals: the
 * same grants (tags, oldest first) and counts, whether a step arbitrates by bank masks (one port, no
 * collector ports) or through the general rules; bankmap_queues_step_reads grants as step does. */
static void test_queues_as_arbitrate(void)
{
    static const bankmap_arb_config cfgs[] = {
        {16, 1, 4, 0}, /* by masks */
        {64, 1, 4, 0}, /* by masks, every bit of the mask */
        {16, 2, 4, 0},
        {8, 1, 4, 1},
        {80, 1, 4, 0},
    };
    for (unsigned k = 0; k < G_N_ELEMENTS(cfgs); k++) {
        const bankmap_arb_config *c = &cfgs[k];
        GRand *rng = g_rand_new_with_seed(17 + k);
        bankmap_queues *q = bankmap_queues_new(c), *q2 = bankmap_queues_new(c);
        bankmap_req rd[256], wr[256]; /* the model: the waiting requests, oldest first */
        unsigned nr = 0, nw = 0;
        uint64_t seq = 0, tag = 0;
        GArray *gr = g_array_new(FALSE, FALSE, sizeof(uint64_t));
        for (unsigned cycle = 0; cycle < 2000; cycle++) {
            for (unsigned n = g_rand_int_range(rng, 0, 4); n > 0 && nr < 200; n--, tag++) {
                unsigned b = g_rand_int_range(rng, 0, (gint32)c->banks), col = g_rand_int_range(rng, 0, 4);
                rd[nr++] = (bankmap_req){b, col, seq++, tag};
                bankmap_queues_push_read(q, b, col, tag);
                bankmap_queues_push_read(q2, b, col, tag);
            }
            for (unsigned n = g_rand_int_range(rng, 0, 2); n > 0 && nw < 200; n--, tag++) {
                unsigned b = g_rand_int_range(rng, 0, (gint32)c->banks);
                wr[nw++] = (bankmap_req){b, 0, seq++, tag};
                bankmap_queues_push_write(q, b, tag);
                bankmap_queues_push_write(q2, b, tag);
            }
            bool rg[256], wg[256];
            bankmap_arb_result want = {0}, got = {0}, got2 = {0};
            bankmap_arbitrate(c, rd, nr, wr, nw, rg, wg, &want);
            uint64_t want_r[256], want_w[256];
            unsigned n_r = 0, n_w = 0, kr = 0, kw = 0;
            for (unsigned i = 0; i < nr; i++)
                if (rg[i])
                    want_r[n_r++] = rd[i].tag;
                else
                    rd[kr++] = rd[i];
            for (unsigned i = 0; i < nw; i++)
                if (wg[i])
                    want_w[n_w++] = wr[i].tag;
                else
                    wr[kw++] = wr[i];
            nr = kr, nw = kw;
            GArray *gw = g_array_new(FALSE, FALSE, sizeof(uint64_t));
            g_array_set_size(gr, 0);
            bankmap_queues_step(q, gr, gw, &got);
            const uint64_t *granted;
            unsigned n2 = bankmap_queues_step_reads(q2, &granted, &got2);
            g_assert_cmpmem(&got, sizeof got, &want, sizeof want);
            g_assert_cmpmem(&got2, sizeof got2, &want, sizeof want);
            g_assert_cmpmem(gr->data, gr->len * sizeof(uint64_t), want_r, n_r * sizeof(uint64_t));
            g_assert_cmpmem(gw->data, gw->len * sizeof(uint64_t), want_w, n_w * sizeof(uint64_t));
            g_assert_cmpmem(granted, n2 * sizeof(uint64_t), want_r, n_r * sizeof(uint64_t));
            g_assert_cmpuint(bankmap_queues_pending(q), ==, nr + nw);
            g_assert_cmpuint(bankmap_queues_pending(q2), ==, nr + nw);
            g_array_free(gw, TRUE);
        }
        g_array_free(gr, TRUE);
        bankmap_queues_free(q);
        bankmap_queues_free(q2);
        g_rand_free(rng);
    }
}

/* The register-renaming spec's file (§2): 32 banks = 8 clusters x 4, 128-bit entries, 4 x 1 KB
 * sub-arrays per 4 KB bank, 1024 warp-wide registers: 256 rows per bank, 64 per sub-array, 256 IDs
 * per sub-array group; P0..P3 are row 0 of banks 0..3; P255 is row 63 (sub-array 0), P256 row 64
 * (sub-array 1). GTX480 (1 cluster, 16 banks): whole-warp 1024-bit entries. */
static void test_geometry(void)
{
    bankmap_geom g = {32, 8, 4, 1024};
    g_assert_null(bankmap_geom_error(&g));
    g_assert_cmpuint(bankmap_geom_warp_banks(&g), ==, 4);
    g_assert_cmpuint(bankmap_geom_entry_bits(&g), ==, 128);
    g_assert_cmpuint(bankmap_geom_rows(&g), ==, 256);
    g_assert_cmpuint(bankmap_geom_subarray_rows(&g), ==, 64);
    g_assert_cmpuint(bankmap_geom_group(&g), ==, 256);
    for (unsigned k = 0; k < 4; k++) {
        bankmap_place p = bankmap_geom_place(&g, k);
        g_assert_cmpuint(p.bank, ==, k);
        g_assert_cmpuint(p.row, ==, 0);
        g_assert_cmpuint(p.subarray, ==, 0);
    }
    bankmap_place p = bankmap_geom_place(&g, 255);
    g_assert_cmpuint(p.bank, ==, 3);
    g_assert_cmpuint(p.row, ==, 63);
    g_assert_cmpuint(p.subarray, ==, 0);
    p = bankmap_geom_place(&g, 256);
    g_assert_cmpuint(p.bank, ==, 0);
    g_assert_cmpuint(p.row, ==, 64);
    g_assert_cmpuint(p.subarray, ==, 1);
    bankmap_geom fermi = {16, 1, 1, 1024};
    g_assert_null(bankmap_geom_error(&fermi));
    g_assert_cmpuint(bankmap_geom_warp_banks(&fermi), ==, 16);
    g_assert_cmpuint(bankmap_geom_entry_bits(&fermi), ==, 1024);
    bankmap_geom bad = {30, 8, 4, 1024};
    g_assert_nonnull(bankmap_geom_error(&bad));
    bad = (bankmap_geom){32, 8, 3, 1024};
    g_assert_nonnull(bankmap_geom_error(&bad));
    bad = (bankmap_geom){24, 3, 1, 1024};
    g_assert_nonnull(bankmap_geom_error(&bad));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bankmap/mapping", test_mapping);
    g_test_add_func("/bankmap/geometry", test_geometry);
    g_test_add_func("/bankmap/custom-mapping", test_custom_mapping);
    g_test_add_func("/bankmap/arbitrate", test_arbitrate_basic);
    g_test_add_func("/bankmap/collector-ports", test_collector_ports);
    g_test_add_func("/bankmap/conflict-cost", test_conflict_cost);
    g_test_add_func("/bankmap/queues", test_queue_order_and_writes);
    g_test_add_func("/bankmap/queues-as-arbitrate", test_queues_as_arbitrate);
    return g_test_run();
}
