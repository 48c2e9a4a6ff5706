/* Tests of the `icnt` block (models/mem/icnt_blk.h): delivery cycles in closed form.
 *
 * With latency L and S = ceil(ceil(bytes / flit) / flits_per_cycle), an item the driver puts on
 * sm_req<i> in cycle t is got by the block in t+1 and sent; it leaves the network at t+1+L+S and is
 * put on l2_req<p> then; the driver gets it in t + 2 + L + S. k back-to-back packets of one source
 * (or several sources into one destination) are got at t + 2 + L + (k+1)S. Settings: L = 8,
 * 32-byte flits, 1 flit per cycle, 8-byte header, 128-byte interleaving. */
#include "models/mem/icnt_blk.h"
#include "tests/mem/drv.h"

#include "kernels/frontend/ir.h"
#include "models/core/harness.h"

enum { N_SMS = 2, N_PARTS = 2 };

typedef struct {
    drv *d;
    icnt_blk *b;
    drv_chan *sm_req[N_SMS], *sm_resp[N_SMS], *l2_req[N_PARTS], *l2_resp[N_PARTS];
} rig;

static void rig_init(rig *r, const char *const *extra)
{
    const char *base[] = {"icnt.latency=8",
                          "icnt.flit_bytes=32",
                          "icnt.flits_per_cycle=1",
                          "icnt.header_bytes=8",
                          "icnt.interleave_bytes=128",
                          "icnt.inject_depth=4",
                          NULL,
                          NULL,
                          NULL};
    for (unsigned i = 0; extra && extra[i]; i++)
        base[6 + i] = extra[i];
    blk_registry_add(&icnt_blk_desc);
    r->d = drv_new(base);
    r->b = icnt_blk_new(drv_ctx(r->d), NULL, "icnt", N_SMS, N_PARTS);
    for (unsigned i = 0; i < N_SMS; i++) {
        r->sm_req[i] = drv_in(r->d, icnt_blk_sm_req(r->b, i), &mem_req_type, 4);
        r->sm_resp[i] = drv_out(r->d, icnt_blk_sm_resp(r->b, i), &mem_resp_type, icnt_blk_out_depth(r->b));
    }
    for (unsigned p = 0; p < N_PARTS; p++) {
        r->l2_req[p] = drv_out(r->d, icnt_blk_l2_req(r->b, p), &mem_req_type, icnt_blk_out_depth(r->b));
        r->l2_resp[p] = drv_in(r->d, icnt_blk_l2_resp(r->b, p), &mem_resp_type, 4);
    }
}

static mem_req_t read_req(uint64_t addr, unsigned sm, uint64_t id)
{
    mem_req_t q = {.addr = addr, .id = id, .bytes = 128, .src = (uint16_t)sm, .kind = MEM_READ};
    return q;
}

static mem_req_t write_req(uint64_t addr, unsigned sm, uint64_t id)
{
    mem_req_t q = read_req(addr, sm, id);
    q.kind = MEM_WRITE;
    q.mask_lo = q.mask_hi = UINT64_MAX; /* 8 + 128 bytes: S = 5 */
    return q;
}

static void test_lone_read(void)
{
    rig r;
    rig_init(&r, NULL);
    mem_req_t q = read_req(0x10000000, 0, 7), got;
    drv_push(r.sm_req[0], 5, &q);
    drv_run(r.d, 40);
    uint64_t c;
    g_assert_true(drv_pop(r.l2_req[0], &got, &c));
    g_assert_cmpuint(got.id, ==, 7);
    g_assert_cmpuint(c, ==, 5 + 2 + 8 + 1); /* S = 1: an 8-byte header */
    g_assert_cmpuint(drv_count(r.l2_req[1]), ==, 0);
    g_assert_cmpuint(blk_stat_get(r.b->inst, ICNT_STAT_REQ_PACKETS), ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, ICNT_STAT_REQ_FLITS), ==, 1);
    drv_free(r.d);
}

static void test_routing(void)
{
    rig r;
    rig_init(&r, NULL);
    /* line interleaving: 0x...000 -> part 0, +128 -> part 1, +256 -> part 0 */
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t q = read_req(0x10000000 + 128 * k, 1, k);
        drv_push(r.sm_req[1], 0, &q);
    }
    mem_resp_t a = {.addr = 0x10000000, .id = 1, .bytes = 128, .dst = 1, .kind = MEM_READ};
    drv_push(r.l2_resp[1], 0, &a);
    drv_run(r.d, 60);
    mem_req_t got;
    g_assert_cmpuint(drv_count(r.l2_req[0]), ==, 2);
    g_assert_cmpuint(drv_count(r.l2_req[1]), ==, 1);
    g_assert_true(drv_pop(r.l2_req[1], &got, NULL));
    g_assert_cmpuint(got.id, ==, 1);
    g_assert_cmpuint(got.src, ==, 1);
    mem_resp_t rg;
    uint64_t c;
    g_assert_cmpuint(drv_count(r.sm_resp[0]), ==, 0);
    g_assert_true(drv_pop(r.sm_resp[1], &rg, &c));
    g_assert_cmpuint(rg.id, ==, 1);
    g_assert_cmpuint(c, ==, 0 + 2 + 8 + 5); /* a read reply: 8 + 128 bytes, S = 5 */
    drv_free(r.d);
}

static void test_back_to_back(void)
{
    rig r;
    rig_init(&r, NULL);
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t q = write_req(0x10000000, 0, k);
        drv_push(r.sm_req[0], 5, &q);
    }
    drv_run(r.d, 60);
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.l2_req[0], &got, &c));
        g_assert_cmpuint(got.id, ==, k);
        g_assert_cmpuint(c, ==, 5 + 2 + 8 + (k + 1) * 5);
    }
    g_assert_cmpuint(blk_stat_get(r.b->inst, ICNT_STAT_REQ_FLITS), ==, 15);
    drv_free(r.d);
}

static void test_two_sources_one_port(void)
{
    rig r;
    rig_init(&r, NULL);
    mem_req_t q0 = write_req(0x10000000, 0, 0), q1 = write_req(0x10000100, 1, 1);
    drv_push(r.sm_req[0], 5, &q0);
    drv_push(r.sm_req[1], 5, &q1);
    drv_run(r.d, 60);
    uint64_t c0, c1;
    mem_req_t g0, g1;
    g_assert_true(drv_pop(r.l2_req[0], &g0, &c0));
    g_assert_true(drv_pop(r.l2_req[0], &g1, &c1));
    /* both injected in cycle 6 on their own ports; they share part 0's ejection port */
    g_assert_cmpuint(c0, ==, 5 + 2 + 8 + 5);
    g_assert_cmpuint(c1, ==, 5 + 2 + 8 + 10);
    g_assert_cmpuint(g0.src + g1.src, ==, 1);
    drv_free(r.d);
}

static void test_backpressure(void)
{
    const char *extra[] = {"icnt.out_depth=1", NULL};
    rig r;
    rig_init(&r, extra);
    drv_set_drain(r.l2_req[0], false);
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t q = read_req(0x10000000, 0, k);
        drv_push(r.sm_req[0], 0, &q);
    }
    drv_run(r.d, 50);
    g_assert_cmpuint(drv_count(r.l2_req[0]), ==, 0);
    g_assert_cmpuint(blk_stat_get(r.b->inst, ICNT_STAT_REQ_PACKETS), ==, 3);
    g_assert_cmpuint(r.b->req_in_flight, ==, 2); /* one sits in the full FIFO */
    drv_set_drain(r.l2_req[0], true);
    drv_run(r.d, 10);
    g_assert_cmpuint(drv_count(r.l2_req[0]), ==, 3);
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t got;
        g_assert_true(drv_pop(r.l2_req[0], &got, NULL));
        g_assert_cmpuint(got.id, ==, k);
    }
    /* Stalls in cycles: delivered at 10, 11, 12 (S = 1, latency 8, got in 1). The first fills the
     * FIFO; the second waits from 11 until the driver's get in 50 leaves room in 51; the third, due
     * since 12, then finds the FIFO full again (the second was just put) and waits from 51 to 53.
     * 40 + 2 cycles, however often the block runs meanwhile. */
    g_assert_cmpuint(blk_stat_get(r.b->inst, ICNT_STAT_EJECT_STALLS), ==, 42);
    drv_free(r.d);
}

/* A source whose injection queue is full sleeps until the queue has room, and its stall is counted
 * in cycles. inject_depth 1 and three writes (S = 5) put in cycle 0: got in 1 (injecting 1..5),
 * 6 (6..10) and 11 (11..15); stalled 1..5 and 6..10: 10 cycles. Delivered at eject + S with
 * eject = max(inject + 8, the port's last end): 14, 19, 24; the driver gets them a cycle later. */
static void test_inject_stall(void)
{
    const char *extra[] = {"icnt.inject_depth=1", NULL};
    rig r;
    rig_init(&r, extra);
    /* The driver's own activations in three idle cycles (0..2 are start-up, 3..5 idle). */
    drv_run(r.d, 3);
    uint64_t a0 = gsc_activations();
    drv_run(r.d, 3);
    uint64_t idle = gsc_activations() - a0;
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t q = write_req(0x10000000 + 0x100 * k, 0, k);
        drv_push(r.sm_req[0], 10, &q); /* everything below is 10 cycles later than said above */
    }
    drv_run(r.d, 6); /* 6..11 */
    uint64_t a1 = gsc_activations();
    drv_run(r.d, 3); /* 12..14: nothing is due and source 0 has no room: the block sleeps */
    g_assert_cmpuint(gsc_activations() - a1, ==, idle);
    drv_run(r.d, 30);
    static const uint64_t want[] = {25, 30, 35};
    for (unsigned k = 0; k < 3; k++) {
        mem_req_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.l2_req[0], &got, &c));
        g_assert_cmpuint(got.id, ==, k);
        g_assert_cmpuint(c, ==, want[k]);
    }
    g_assert_cmpuint(blk_stat_get(r.b->inst, ICNT_STAT_INJECT_STALLS), ==, 10);
    drv_free(r.d);
}

/* Deliveries filed by cycle (icnt_blk.h: the wheel of ICNT_WHEEL rows, the far nodes beyond it) in
 * closed form. Latency 60: a write (S = 5) sent in cycle 6 is due in 71, 65 cycles ahead (far); a
 * read (S = 1) in 67, 61 ahead (the wheel). 20 back-to-back writes of SM 0 to part 0 span 100
 * cycles (the rows wrap); a reply to SM 1 (far) and a request of SM 1 to part 1 (the wheel) go
 * meanwhile. Latency 200: everything is far. */
static void test_wheel(void)
{
    const char *extra[] = {"icnt.latency=60", NULL};
    rig r;
    rig_init(&r, extra);
    enum { N = 20 };
    for (unsigned k = 0; k < N; k++) {
        mem_req_t q = write_req(0x10000000 + 0x100 * k, 0, k);
        drv_push(r.sm_req[0], 5, &q);
    }
    mem_req_t q1 = read_req(0x10000080, 1, 99);
    drv_push(r.sm_req[1], 5, &q1);
    mem_resp_t a = {.addr = 0x10000000, .id = 42, .bytes = 128, .dst = 1, .kind = MEM_READ};
    drv_push(r.l2_resp[1], 5, &a);
    drv_run(r.d, 200);
    for (unsigned k = 0; k < N; k++) {
        mem_req_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.l2_req[0], &got, &c));
        g_assert_cmpuint(got.id, ==, k);
        g_assert_cmpuint(c, ==, 5 + 2 + 60 + (k + 1) * 5);
    }
    mem_req_t got;
    uint64_t c;
    g_assert_true(drv_pop(r.l2_req[1], &got, &c));
    g_assert_cmpuint(got.id, ==, 99);
    g_assert_cmpuint(c, ==, 5 + 2 + 60 + 1);
    mem_resp_t rg;
    g_assert_true(drv_pop(r.sm_resp[1], &rg, &c));
    g_assert_cmpuint(rg.id, ==, 42);
    g_assert_cmpuint(c, ==, 5 + 2 + 60 + 5);
    g_assert_cmpuint(r.b->req_in_flight + r.b->resp_in_flight, ==, 0);
    drv_free(r.d);

    const char *far[] = {"icnt.latency=200", NULL};
    rig_init(&r, far);
    mem_req_t q = read_req(0x10000000, 0, 7);
    drv_push(r.sm_req[0], 5, &q);
    drv_push(r.l2_resp[1], 100, &a);
    drv_run(r.d, 400);
    g_assert_true(drv_pop(r.l2_req[0], &got, &c));
    g_assert_cmpuint(c, ==, 5 + 2 + 200 + 1);
    g_assert_true(drv_pop(r.sm_resp[1], &rg, &c));
    g_assert_cmpuint(c, ==, 100 + 2 + 200 + 5);
    drv_free(r.d);
}

static void test_packet_sizes(void)
{
    mem_req_t q = {.kind = MEM_WRITE, .mask_lo = 0xff};
    g_assert_cmpuint(icnt_blk_req_bytes(8, &q), ==, 16);
    q.kind = MEM_ATOMIC;
    q.atom.lanes = 0xf;
    q.atom.esize = 4;
    q.atom.op = IR_ATOM_ADD;
    g_assert_cmpuint(icnt_blk_req_bytes(8, &q), ==, 8 + 16);
    q.atom.op = IR_ATOM_CAS;
    g_assert_cmpuint(icnt_blk_req_bytes(8, &q), ==, 8 + 32);
    mem_resp_t a = {.kind = MEM_WRITE, .bytes = 128};
    g_assert_cmpuint(icnt_blk_resp_bytes(8, &a), ==, 8);
    a.kind = MEM_READ;
    g_assert_cmpuint(icnt_blk_resp_bytes(8, &a), ==, 136);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/icnt/lone-read", test_lone_read);
    harness_test_add("/icnt/routing", test_routing);
    harness_test_add("/icnt/back-to-back", test_back_to_back);
    harness_test_add("/icnt/two-sources-one-port", test_two_sources_one_port);
    harness_test_add("/icnt/backpressure", test_backpressure);
    harness_test_add("/icnt/inject-stall", test_inject_stall);
    harness_test_add("/icnt/wheel", test_wheel);
    g_test_add_func("/icnt/packet-sizes", test_packet_sizes);
    return g_test_run();
}
