/* Tests of the `dram` block (models/mem/dram_blk.h): latency + bytes/bandwidth, serialisation,
 * write-backs, queue-full back-pressure, per-sub-partition routing, read data from the image.
 *
 * Settings: latency L = 100, 32 bytes per cycle, so a 128-byte line is B = 4 bus cycles. A request
 * the driver puts in cycle t is got and queued by the block in t+1, starts then if the bus is free,
 * and its reply is put in t + 1 + B + L, got by the driver in t + 2 + B + L. k requests put together
 * reply at t + 2 + (k+1)B + L. */
#include "models/mem/dram_blk.h"
#include "tests/mem/drv.h"

#include <string.h>

#include "models/core/harness.h"

enum { L = 100, B = 4 };

typedef struct {
    drv *d;
    dram_blk *b;
    fmem *mem;
    drv_chan *req[2], *resp[2];
} rig;

static void rig_init_with(rig *r, unsigned ports, const char *queue_depth, const char *extra)
{
    const char *s[] = {"dram.latency=100", "dram.bytes_per_cycle=32", queue_depth, extra, NULL};
    blk_registry_add(&dram_blk_desc);
    r->d = drv_new(s);
    r->mem = fmem_new();
    r->b = dram_blk_new(drv_ctx(r->d), NULL, "dram", r->mem, ports);
    for (unsigned k = 0; k < ports; k++) {
        r->req[k] = drv_in(r->d, dram_blk_req(r->b, k), &mem_req_type, dram_blk_in_depth(r->b));
        r->resp[k] = drv_out(r->d, dram_blk_resp(r->b, k), &mem_resp_type, dram_blk_resp_depth(r->b));
    }
}

static void rig_init(rig *r, unsigned ports, const char *queue_depth)
{
    rig_init_with(r, ports, queue_depth, NULL);
}

static void rig_free(rig *r)
{
    drv_free(r->d);
    fmem_free(r->mem);
}

static mem_req_t line(uint64_t addr, uint8_t kind, uint64_t id)
{
    mem_req_t q = {.addr = addr, .id = id, .bytes = 128, .kind = kind};
    return q;
}

static void test_lone_read_with_data(void)
{
    rig r;
    rig_init(&r, 1, "dram.queue_depth=16");
    uint64_t a = fmem_alloc(r.mem, 256);
    uint8_t bytes[128];
    for (unsigned i = 0; i < 128; i++)
        bytes[i] = (uint8_t)(i * 3 + 1);
    g_assert_true(fmem_write(r.mem, a + 128, bytes, 128));
    mem_req_t q = line(a + 128, MEM_READ, 9);
    drv_push(r.req[0], 3, &q);
    drv_run(r.d, 200);
    mem_resp_t got;
    uint64_t c;
    g_assert_true(drv_pop(r.resp[0], &got, &c));
    g_assert_cmpuint(c, ==, 3 + 2 + B + L);
    g_assert_cmpuint(got.id, ==, 9);
    g_assert_cmpuint(got.kind, ==, MEM_READ);
    g_assert_cmpmem(got.data, 128, bytes, 128);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_BUSY_CYCLES), ==, B);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_READS), ==, 1);
    rig_free(&r);
}

static void test_serialised(void)
{
    rig r;
    rig_init(&r, 1, "dram.queue_depth=16");
    for (unsigned k = 0; k < 2; k++) { /* in_depth 2: both are got in cycle 1 */
        mem_req_t q = line(0x10000000 + 128 * k, MEM_READ, k);
        drv_push(r.req[0], 0, &q);
    }
    drv_run(r.d, 300);
    for (unsigned k = 0; k < 2; k++) {
        mem_resp_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.resp[0], &got, &c));
        g_assert_cmpuint(got.id, ==, k);
        g_assert_cmpuint(c, ==, 0 + 2 + (k + 1) * B + L);
    }
    rig_free(&r);
}

static void test_writeback_takes_the_bus(void)
{
    rig r;
    rig_init(&r, 1, "dram.queue_depth=16");
    mem_req_t w = line(0x10000000, MEM_WRITEBACK, 1), q = line(0x10000080, MEM_READ, 2);
    drv_push(r.req[0], 0, &w);
    drv_push(r.req[0], 0, &q);
    drv_run(r.d, 300);
    mem_resp_t got;
    uint64_t c;
    g_assert_true(drv_pop(r.resp[0], &got, &c));
    g_assert_cmpuint(got.id, ==, 2); /* the write-back gets no reply */
    g_assert_cmpuint(c, ==, 0 + 2 + 2 * B + L);
    g_assert_false(drv_pop(r.resp[0], NULL, NULL));
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_WRITES), ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_BUSY_CYCLES), ==, 2 * B);
    rig_free(&r);
}

static void test_queue_full(void)
{
    rig r;
    rig_init(&r, 1, "dram.queue_depth=1");
    enum { N = 6 };
    for (unsigned k = 0; k < N; k++) {
        mem_req_t q = line(0x10000000 + 128 * k, MEM_READ, k);
        drv_push(r.req[0], 0, &q);
    }
    drv_run(r.d, 3);
    /* cycle 1: the first starts, the second waits in the queue (depth 1); the in FIFO (depth 2) is
     * full behind it, so the driver still holds N - 4 */
    g_assert_cmpuint(r.b->queued, ==, 1);
    drv_run(r.d, 400);
    /* Waits, in cycles: the queue frees a place when a request starts (cycles 1, 1+B, 1+2B, ...).
     * The driver refills the in FIFO a cycle after each get, so request 2 is there from cycle 3 and
     * waits until 1+B; requests 3, 4, 5 are there before the previous one is queued and wait a
     * burst each: 2 + 3B. */
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_QUEUE_FULL), ==, 2 + 3 * B);
    for (unsigned k = 0; k < N; k++) {
        mem_resp_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.resp[0], &got, &c));
        g_assert_cmpuint(got.id, ==, k);
        /* the bus never idles: back-pressure delays entry to the queue, not service */
        g_assert_cmpuint(c, ==, 0 + 2 + (k + 1) * B + L);
    }
    rig_free(&r);
}

static void test_two_ports(void)
{
    rig r;
    rig_init(&r, 2, "dram.queue_depth=16");
    mem_req_t q0 = line(0x10000000, MEM_READ, 10), q1 = line(0x10000080, MEM_READ, 11);
    drv_push(r.req[0], 0, &q0);
    drv_push(r.req[1], 0, &q1);
    drv_run(r.d, 300);
    mem_resp_t g0, g1;
    uint64_t c0, c1;
    g_assert_true(drv_pop(r.resp[0], &g0, &c0));
    g_assert_true(drv_pop(r.resp[1], &g1, &c1));
    g_assert_cmpuint(g0.id, ==, 10);
    g_assert_cmpuint(g1.id, ==, 11);
    g_assert_cmpuint(MIN(c0, c1), ==, 2 + B + L); /* one bus: they serialise */
    g_assert_cmpuint(MAX(c0, c1), ==, 2 + 2 * B + L);
    rig_free(&r);
}

/* A scheduler bound to the `scheduler` port: the newest queued request first (LIFO). Two reads
 * queued in the same cycle are served newest first, one burst apart. */
static unsigned lifo_calls;
static unsigned lifo_pick(void *self, const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle)
{
    (void)self, (void)ch, (void)queue, (void)cycle;
    lifo_calls++;
    return n - 1;
}

static void test_bound_scheduler(void)
{
    rig r;
    rig_init(&r, 1, "dram.queue_depth=16");
    static const dram_sched_if lifo = {lifo_pick};
    blk_bind_stub(r.b->inst, "scheduler", &lifo, NULL);
    for (unsigned k = 0; k < 2; k++) {
        mem_req_t q = line(0x10000000 + 128 * k, MEM_READ, k);
        drv_push(r.req[0], 0, &q);
    }
    drv_run(r.d, 300);
    for (unsigned k = 0; k < 2; k++) {
        mem_resp_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.resp[0], &got, &c));
        g_assert_cmpuint(got.id, ==, 1 - k);
        g_assert_cmpuint(c, ==, 0 + 2 + (k + 1) * B + L);
    }
    g_assert_cmpuint(lifo_calls, ==, 2);
    rig_free(&r);
}

/* scheduler=frfcfs with the default GDDR timing (tRCD = tCL = 12): a read to a closed bank replies
 * tRCD + tCL later than the bus-only channel would, a later read of the same row tCL later; the row
 * statistics count them. */
static void test_frfcfs_rows(void)
{
    rig r;
    rig_init_with(&r, 1, "dram.queue_depth=16", "dram.scheduler=frfcfs");
    mem_req_t q = line(4096, MEM_READ, 1), q2 = line(4096 + 128, MEM_READ, 2);
    drv_push(r.req[0], 3, &q);
    drv_push(r.req[0], 300, &q2);
    drv_run(r.d, 600);
    mem_resp_t got;
    uint64_t c;
    g_assert_true(drv_pop(r.resp[0], &got, &c));
    g_assert_cmpuint(c, ==, 3 + 2 + 12 + 12 + B + L);
    g_assert_true(drv_pop(r.resp[0], &got, &c));
    g_assert_cmpuint(c, ==, 300 + 2 + 12 + B + L);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_ROW_HITS), ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_ROW_MISSES), ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_ACTIVATES), ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_PRECHARGES), ==, 0);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_BUSY_CYCLES), ==, 2 * B);
    rig_free(&r);
}

/* A channel in a clock domain of its own (the driver's core clock is 1000 ps): its latency and bus
 * cycles are its own, its edges taken at the core edges at or after them. A read put in core cycle 3 is
 * there from core cycle 4; the channel takes it at its first edge from then on (domain cycle a, core
 * cycle ceil(a P / 1000)), replies at domain cycle a + B + L (core cycle ceil((a + B + L) P / 1000)) and
 * the driver gets the reply one core cycle later. */
static void one_read_in_domain(uint64_t period_ps, uint64_t expect)
{
    rig r;
    rig_init(&r, 1, "dram.queue_depth=16");
    blk_domain dom;
    blk_inst_set_domain(r.b->inst, blk_domain_init(&dom, period_ps, true, "test"));
    mem_req_t q = line(4096, MEM_READ, 1);
    drv_push(r.req[0], 3, &q);
    drv_run(r.d, 400);
    mem_resp_t got;
    uint64_t c;
    g_assert_true(drv_pop(r.resp[0], &got, &c));
    g_assert_cmpuint(c, ==, expect);
    g_assert_cmpuint(blk_stat_get(r.b->inst, DRAM_STAT_LATENCY), ==, B + L); /* in its own cycles */
    rig_free(&r);
}

static void test_clock_domains(void)
{
    one_read_in_domain(1000, 3 + 2 + B + L);       /* the core clock's domain */
    one_read_in_domain(2000, (2 + B + L) * 2 + 1); /* half speed: edge 2 at core 4 */
    /* edge 3 at core 4.5 -> 5 */
    one_read_in_domain(1500, (3 * 1500 + 4 * 1500 + 100 * 1500 + 999) / 1000 + 1);
    one_read_in_domain(1250, (107 * 1250 + 999) / 1000 + 1); /* edge 3 at core 3.75 -> 4 */
    one_read_in_domain(500, (8 + B + L) / 2 + 1);            /* twice as fast: edge 8 at core 4 */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/dram/lone-read-data", test_lone_read_with_data);
    harness_test_add("/dram/frfcfs-rows", test_frfcfs_rows);
    harness_test_add("/dram/clock-domains", test_clock_domains);
    harness_test_add("/dram/serialised", test_serialised);
    harness_test_add("/dram/writeback", test_writeback_takes_the_bus);
    harness_test_add("/dram/queue-full", test_queue_full);
    harness_test_add("/dram/two-ports", test_two_ports);
    harness_test_add("/dram/bound-scheduler", test_bound_scheduler);
    return g_test_run();
}
