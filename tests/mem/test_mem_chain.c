/* The memory side assembled as the gpu topology wires it (icnt + 2 L2 slices + 1 DRAM channel with
 * 2 sub-partition ports), driven from the SM ports: absolute round trips in closed form
 * (docs/memory.md). From the put on sm_req in cycle t to the put of the reply on sm_resp:
 *   L2 hit:  3 + 2L + S_req + S_resp + R
 *   L2 miss: 5 + 2L + S_req + S_resp + R + B + Ld
 * and the driver gets the reply one cycle after that put. GTX480 defaults: L = 8, S_req = 1 (8-byte
 * request), S_resp = 5 (8 + 128 bytes), R = 120, B = ceil(128/42) = 4, Ld = 100: 145 and 251. */
#include <string.h>

#include "models/core/harness.h"
#include "models/mem/dram_blk.h"
#include "models/mem/icnt_blk.h"
#include "models/mem/l2.h"
#include "tests/mem/drv.h"

enum { PARTS = 2 };

typedef struct {
    drv *d;
    fmem *mem;
    icnt_blk *ic;
    l2_blk *l2[PARTS];
    dram_blk *dr;
    drv_chan *req, *resp;
} chain;

static void bind(drv *d, const char *name, const gsc_type *t, unsigned depth, gsc_port *out, gsc_port *in)
{
    gsc_fifo *f = gsc_fifo_new(drv_mod(d), name, t, depth);
    gsc_port_bind_fifo(out, f);
    gsc_port_bind_fifo(in, f);
}

static void chain_init(chain *c, const char *const *settings)
{
    blk_registry_add(&icnt_blk_desc);
    blk_registry_add(&l2_desc);
    blk_registry_add(&dram_blk_desc);
    c->d = drv_new(settings);
    c->mem = fmem_new();
    blk_ctx *ctx = drv_ctx(c->d);
    c->ic = icnt_blk_new(ctx, NULL, "icnt", 1, PARTS);
    c->dr = dram_blk_new(ctx, NULL, "dram0", c->mem, PARTS);
    c->req = drv_in(c->d, icnt_blk_sm_req(c->ic, 0), &mem_req_type, 4);
    c->resp = drv_out(c->d, icnt_blk_sm_resp(c->ic, 0), &mem_resp_type, 8);
    for (unsigned p = 0; p < PARTS; p++) {
        char *name = g_strdup_printf("l2_%u", p);
        c->l2[p] = l2_new(ctx, NULL, name, c->mem, PARTS);
        g_free(name);
        blk_inst *li = c->l2[p]->inst;
        char n1[32], n2[32], n3[32], n4[32];
        g_snprintf(n1, sizeof n1, "l2_req%u", p);
        g_snprintf(n2, sizeof n2, "l2_resp%u", p);
        g_snprintf(n3, sizeof n3, "dram_req%u", p);
        g_snprintf(n4, sizeof n4, "dram_resp%u", p);
        bind(c->d, n1, &mem_req_type, 8, icnt_blk_l2_req(c->ic, p), blk_port(li, L2_PORT_REQ));
        bind(c->d, n2, &mem_resp_type, 8, blk_port(li, L2_PORT_RESP), icnt_blk_l2_resp(c->ic, p));
        bind(c->d, n3, &mem_req_type, 2, blk_port(li, L2_PORT_DRAM_REQ), dram_blk_req(c->dr, p));
        bind(c->d, n4, &mem_resp_type, 4, dram_blk_resp(c->dr, p), blk_port(li, L2_PORT_DRAM_RESP));
    }
}

static mem_req_t read_req(uint64_t addr, uint64_t id)
{
    mem_req_t q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.id = id;
    q.bytes = 128;
    q.kind = MEM_READ;
    return q;
}

/* Put a read in cycle `at`, run until its reply; returns put-to-put cycles (got - 1 - at). */
static uint64_t round_trip(chain *c, uint64_t addr, uint64_t at, uint64_t id, mem_resp_t *r)
{
    mem_req_t q = read_req(addr, id);
    drv_push(c->req, at, &q);
    uint64_t got;
    for (unsigned i = 0; i < 2000; i++) {
        drv_run(c->d, 1);
        if (drv_pop(c->resp, r, &got)) {
            g_assert_cmpuint(r->id, ==, id);
            return got - 1 - at;
        }
    }
    g_assert_not_reached();
}

static void test_defaults(void)
{
    chain c;
    chain_init(&c, NULL);
    uint64_t a = fmem_alloc(c.mem, 1024);
    uint32_t v = 0x1234abcd;
    fmem_write(c.mem, a + 128 + 12, &v, 4);
    drv_run(c.d, 3);
    mem_resp_t r;
    /* a cold line: L2 miss; then the same line: L2 hit */
    g_assert_cmpuint(round_trip(&c, a + 128, 10, 1, &r), ==, 251);
    uint32_t got;
    memcpy(&got, r.data + 12, 4);
    g_assert_cmphex(got, ==, 0x1234abcd);
    g_assert_cmpuint(round_trip(&c, a + 128, drv_cycle(c.d) + 5, 2, &r), ==, 145);
    /* line a + 128 went to sub-partition 1, a (line 0 of an aligned allocation) goes to 0 */
    g_assert_cmpuint(blk_stat_get(c.l2[1]->inst, L2_STAT_HITS), ==, 1);
    g_assert_cmpuint(round_trip(&c, a, drv_cycle(c.d) + 5, 3, &r), ==, 251);
    g_assert_cmpuint(blk_stat_get(c.l2[0]->inst, L2_STAT_MISSES), ==, 1);
    g_assert_cmpuint(blk_stat_get(c.dr->inst, DRAM_STAT_READS), ==, 2);
    drv_free(c.d);
    fmem_free(c.mem);
}

static void test_other_numbers(void)
{
    /* L = 3, 16-byte flits (S_req 1, S_resp 9), R = 20, 64 B/cycle (B = 2), Ld = 30:
     * hit 3 + 6 + 1 + 9 + 20 = 39, miss 39 + 2 + 2 + 30 = 73 */
    const char *s[] = {"icnt.latency=3",          "icnt.flit_bytes=16", "l2.latency=20",
                       "dram.bytes_per_cycle=64", "dram.latency=30",    NULL};
    chain c;
    chain_init(&c, s);
    mem_resp_t r;
    g_assert_cmpuint(round_trip(&c, 0x10000000, 4, 1, &r), ==, 73);
    g_assert_cmpuint(round_trip(&c, 0x10000000, drv_cycle(c.d) + 3, 2, &r), ==, 39);
    drv_free(c.d);
    fmem_free(c.mem);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/mem-chain/gtx480", test_defaults);
    harness_test_add("/mem-chain/other-numbers", test_other_numbers);
    return g_test_run();
}
