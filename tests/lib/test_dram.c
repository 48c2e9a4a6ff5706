/* Unit tests for models/lib/dram: closed-form reply cycles, queue bound, scheduler hook. */
#include "models/lib/dram.h"

static const dram_config cfg = {
    .latency = 100, .bytes_per_cycle = 8, .queue_depth = 4, .banks = 4, .row_bytes = 2048};

/* Steps the channel every cycle until `cycle`, collecting replies. */
static void run_until(dram_channel *ch, uint64_t from, uint64_t to, GArray *done)
{
    for (uint64_t c = from; c <= to; c++) {
        dram_req r;
        while (dram_pop_done(ch, c, &r)) {
            g_assert_cmpuint(r.done, ==, c);
            g_array_append_val(done, r);
        }
        dram_step(ch, c);
    }
}

static void test_closed_form(void)
{
    dram_channel *ch = dram_new(&cfg);
    g_assert_cmpuint(dram_burst_cycles(&cfg, 128), ==, 16);
    g_assert_cmpuint(dram_burst_cycles(&cfg, 1), ==, 1);
    g_assert_cmpuint(dram_burst_cycles(&cfg, 33), ==, 5);
    for (unsigned k = 0; k < 4; k++)
        dram_push(ch, 0, 128 * k, 128, false, k);
    g_assert_false(dram_can_push(ch));
    GArray *done = g_array_new(FALSE, FALSE, sizeof(dram_req));
    run_until(ch, 0, 400, done);
    g_assert_cmpuint(done->len, ==, 4);
    for (unsigned k = 0; k < 4; k++) {
        dram_req *r = &g_array_index(done, dram_req, k);
        g_assert_cmpuint(r->tag, ==, k);
        g_assert_cmpuint(r->done, ==, (uint64_t)k * 16 + 16 + 100);
    }
    /* a lone request after idle: a + B + L */
    dram_push(ch, 1000, 0, 32, true, 9);
    g_assert_cmpuint(dram_next_event(ch), ==, 1000);
    g_array_set_size(done, 0);
    run_until(ch, 401, 2000, done);
    g_assert_cmpuint(done->len, ==, 1);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).done, ==, 1000 + 4 + 100);
    g_assert_true(g_array_index(done, dram_req, 0).write);
    g_assert_cmpuint(dram_next_event(ch), ==, UINT64_MAX);
    g_array_free(done, TRUE);
    dram_free(ch);
}

/* Requests arriving while the bus is busy start when it frees. */
static void test_arrivals(void)
{
    dram_channel *ch = dram_new(&(dram_config){.latency = 10, .bytes_per_cycle = 32});
    dram_push(ch, 0, 0, 128, false, 0); /* B = 4: bus 0..3, reply 14 */
    GArray *done = g_array_new(FALSE, FALSE, sizeof(dram_req));
    run_until(ch, 0, 1, done);
    dram_push(ch, 2, 0, 64, false, 1); /* waits until 4: B = 2, reply 16 */
    run_until(ch, 2, 6, done);
    dram_push(ch, 7, 0, 32, false, 2); /* bus free: starts at 7, reply 18 */
    g_assert_cmpuint(dram_in_service(ch), ==, 2);
    run_until(ch, 7, 30, done);
    g_assert_cmpuint(done->len, ==, 3);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).done, ==, 14);
    g_assert_cmpuint(g_array_index(done, dram_req, 1).done, ==, 16);
    g_assert_cmpuint(g_array_index(done, dram_req, 2).done, ==, 18);
    g_array_free(done, TRUE);
    dram_free(ch);
}

/* A scheduler hook sees the arrived requests; here: last-come-first (to prove the hook decides). */
static unsigned sched_newest(const dram_channel *ch, const dram_req *q, unsigned n, uint64_t cycle, void *ctx)
{
    (void)ch, (void)q, (void)cycle;
    (*(unsigned *)ctx)++;
    return n - 1;
}

static void test_scheduler_hook(void)
{
    dram_channel *ch = dram_new(&cfg);
    unsigned calls = 0;
    dram_set_scheduler(ch, sched_newest, &calls);
    for (unsigned k = 0; k < 3; k++)
        dram_push(ch, 0, 4096 * k, 8, false, k);
    dram_push(ch, 5, 0, 8, false, 3); /* not yet arrived at cycle 0 */
    GArray *done = g_array_new(FALSE, FALSE, sizeof(dram_req));
    run_until(ch, 0, 300, done);
    g_assert_cmpuint(done->len, ==, 4);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).tag, ==, 2);
    g_assert_cmpuint(g_array_index(done, dram_req, 0).done, ==, 101);
    g_assert_cmpuint(g_array_index(done, dram_req, 1).tag, ==, 1); /* cycle 1: only 0, 1 arrived */
    g_assert_cmpuint(g_array_index(done, dram_req, 2).tag, ==, 0);
    g_assert_cmpuint(g_array_index(done, dram_req, 3).tag, ==, 3);
    g_assert_cmpuint(calls, ==, 4);
    /* the mapping the scheduler sees: 2 KiB rows interleaved over 4 banks */
    unsigned bank;
    uint64_t row;
    dram_map_address(&cfg, 4096 * 5 + 7, &bank, &row);
    g_assert_cmpuint(bank, ==, 2);
    g_assert_cmpuint(row, ==, 2);
    g_array_free(done, TRUE);
    dram_free(ch);
}

/* The banked model (dram.h): CCWS/DAWS/VWS spec §2.2's GDDR3 timing, 4 banks of 2 KiB rows, B = 4 for a
 * 128-byte line, latency 7. */
static const dram_config banked = {
    .latency = 7,
    .bytes_per_cycle = 32,
    .queue_depth = 8,
    .banks = 4,
    .row_bytes = 2048,
    .banked = true,
    .timing = {.tCL = 10, .tRP = 10, .tRC = 35, .tRAS = 25, .tRCD = 12, .tRRD = 8, .tWR = 12, .tCDLR = 5}};

static uint64_t addr_of(unsigned bank, unsigned row)
{
    return ((uint64_t)row * 4 + bank) * 2048;
}

/* Runs the channel both ways (stepping every cycle, and sleeping until dram_next_event) and checks they
 * agree; returns the reply cycles in tag order. */
typedef struct {
    uint64_t at;
    unsigned bank, row;
    bool write;
} banked_req;

static void run_banked(const dram_config *c, dram_sched_fn fn, const banked_req *reqs, unsigned n,
                       uint64_t *done, dram_counts *counts)
{
    for (int mode = 0; mode < 2; mode++) {
        dram_channel *ch = dram_new(c);
        dram_set_scheduler(ch, fn, NULL);
        unsigned pushed = 0, got = 0;
        uint64_t cyc = 0;
        while (got < n) {
            g_assert_cmpuint(cyc, <, 100000);
            while (pushed < n && reqs[pushed].at <= cyc) {
                dram_push(ch, cyc, addr_of(reqs[pushed].bank, reqs[pushed].row), 128, reqs[pushed].write,
                          pushed);
                pushed++;
            }
            dram_req r;
            while (dram_pop_done(ch, cyc, &r)) {
                g_assert_cmpuint(r.done, ==, cyc);
                if (mode == 0)
                    done[r.tag] = r.done;
                else
                    g_assert_cmpuint(done[r.tag], ==, r.done);
                got++;
            }
            dram_step(ch, cyc);
            if (mode == 0) {
                cyc++;
                continue;
            }
            uint64_t next = dram_next_event(ch); /* sleep until the channel or the next arrival */
            if (pushed < n)
                next = MIN(next, reqs[pushed].at);
            cyc = MAX(cyc + 1, next == UINT64_MAX ? cyc + 1 : next);
        }
        g_assert_cmpuint(dram_queued(ch) + dram_in_service(ch), ==, 0);
        if (mode == 0 && counts)
            *counts = *dram_get_counts(ch);
        dram_free(ch);
    }
}

/* Lone requests: hit tCL + B + L, closed bank tRCD + tCL + B + L, other row open tRP + tRCD + tCL + B + L. */
static void test_banked_hit_miss(void)
{
    const banked_req reqs[] = {{0, 0, 0, false}, {100, 0, 0, false}, {200, 0, 1, false}, {300, 1, 0, false}};
    uint64_t done[4];
    dram_counts n;
    run_banked(&banked, dram_sched_frfcfs, reqs, 4, done, &n);
    g_assert_cmpuint(done[0], ==, 0 + 12 + 10 + 4 + 7);        /* closed: ACT 0, column 12 */
    g_assert_cmpuint(done[1], ==, 100 + 10 + 4 + 7);           /* row hit */
    g_assert_cmpuint(done[2], ==, 200 + 10 + 12 + 10 + 4 + 7); /* conflict: PRE 200, ACT 210 */
    g_assert_cmpuint(done[3], ==, 300 + 12 + 10 + 4 + 7);      /* another bank, closed */
    g_assert_cmpuint(n.row_hits, ==, 1);
    g_assert_cmpuint(n.row_misses, ==, 3);
    g_assert_cmpuint(n.activates, ==, 3);
    g_assert_cmpuint(n.precharges, ==, 1);
}

/* Two rows of one bank at cycle 0 serialise through tRAS/tRP (PRE 25, ACT 35); two banks overlap, the
 * second activate tRRD after the first. */
static void test_banked_conflict(void)
{
    const banked_req same[] = {{0, 0, 0, false}, {0, 0, 1, false}};
    const banked_req two[] = {{0, 0, 0, false}, {0, 1, 0, false}};
    uint64_t done[2];
    run_banked(&banked, dram_sched_frfcfs, same, 2, done, NULL);
    g_assert_cmpuint(done[0], ==, 33);
    g_assert_cmpuint(done[1], ==, 35 + 12 + 10 + 4 + 7); /* PRE max(13, tRAS 25), ACT 25 + tRP */
    run_banked(&banked, dram_sched_frfcfs, two, 2, done, NULL);
    g_assert_cmpuint(done[0], ==, 33);
    g_assert_cmpuint(done[1], ==, 8 + 12 + 10 + 4 + 7); /* ACT at tRRD */
}

/* tRRD spaces the activates of four banks (0, 8, 16, 24); tRC, when longer than tRAS + tRP, spaces two
 * activates of one bank. */
static void test_banked_rrd_rc(void)
{
    const banked_req four[] = {{0, 0, 0, false}, {0, 1, 0, false}, {0, 2, 0, false}, {0, 3, 0, false}};
    uint64_t done[4];
    run_banked(&banked, dram_sched_fcfs, four, 4, done, NULL);
    for (unsigned k = 0; k < 4; k++)
        g_assert_cmpuint(done[k], ==, 8 * k + 12 + 10 + 4 + 7);
    dram_config c = banked;
    c.timing.tRC = 60;
    const banked_req same[] = {{0, 0, 0, false}, {0, 0, 1, false}};
    run_banked(&c, dram_sched_frfcfs, same, 2, done, NULL);
    g_assert_cmpuint(done[1], ==, 60 + 12 + 10 + 4 + 7);
}

/* FR-FCFS serves a younger row hit before an older row miss of the same bank; FCFS does not. */
static void test_banked_frfcfs_reorders(void)
{
    const banked_req reqs[] = {{0, 0, 0, false}, {1, 0, 1, false}, {2, 0, 0, false}};
    uint64_t done[3];
    dram_counts n;
    run_banked(&banked, dram_sched_frfcfs, reqs, 3, done, &n);
    g_assert_cmpuint(done[0], ==, 33);
    g_assert_cmpuint(done[2], ==, 16 + 10 + 4 + 7);      /* picked at 13, column when the bus frees */
    g_assert_cmpuint(done[1], ==, 35 + 12 + 10 + 4 + 7); /* PRE 25, ACT 35 */
    g_assert_cmpuint(n.row_hits, ==, 1);
    g_assert_cmpuint(n.row_misses, ==, 2);
    run_banked(&banked, dram_sched_fcfs, reqs, 3, done, &n);
    g_assert_cmpuint(done[1], ==, 68);
    g_assert_cmpuint(done[2], ==, 70 + 12 + 10 + 4 + 7); /* PRE max(48, 35 + tRAS), ACT 70 */
    g_assert_cmpuint(n.row_hits, ==, 0);
    g_assert_cmpuint(n.row_misses, ==, 3);
}

/* After a write (data 22..26): a precharge of its bank waits tWR, a read command tCDLR. */
static void test_banked_write_recovery(void)
{
    const banked_req reqs[] = {{0, 0, 0, true}, {0, 0, 1, false}, {0, 1, 0, false}};
    uint64_t done[3];
    run_banked(&banked, dram_sched_fcfs, reqs, 3, done, NULL);
    g_assert_cmpuint(done[0], ==, 33);
    /* tag 2 (bank 1) leaves at 1 (bank 0 is busy until 13): ACT 8, column max(20, 26 + tCDLR) */
    g_assert_cmpuint(done[2], ==, 31 + 10 + 4 + 7);
    /* tag 1 at 13: PRE max(tRAS 25, 26 + tWR) = 38, ACT 48, column 60 */
    g_assert_cmpuint(done[1], ==, 60 + 10 + 4 + 7);
}

/* bank_bytes: consecutive 256-byte chunks of a 2 KiB row go to consecutive banks. */
static void test_bank_bytes_mapping(void)
{
    dram_config c = banked;
    c.bank_bytes = 256;
    unsigned bank;
    uint64_t row;
    dram_map_address(&c, 256 * 5 + 3, &bank, &row);
    g_assert_cmpuint(bank, ==, 1);
    g_assert_cmpuint(row, ==, 0);
    dram_map_address(&c, 8192 * 3 + 256 * 2, &bank, &row);
    g_assert_cmpuint(bank, ==, 2);
    g_assert_cmpuint(row, ==, 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/dram/closed-form", test_closed_form);
    g_test_add_func("/dram/arrivals", test_arrivals);
    g_test_add_func("/dram/scheduler-hook", test_scheduler_hook);
    g_test_add_func("/dram/banked/hit-miss", test_banked_hit_miss);
    g_test_add_func("/dram/banked/conflict", test_banked_conflict);
    g_test_add_func("/dram/banked/rrd-rc", test_banked_rrd_rc);
    g_test_add_func("/dram/banked/frfcfs-reorders", test_banked_frfcfs_reorders);
    g_test_add_func("/dram/banked/write-recovery", test_banked_write_recovery);
    g_test_add_func("/dram/banked/bank-bytes", test_bank_bytes_mapping);
    return g_test_run();
}
