/* Tests of the `l2` block (models/mem/l2.h) in the harness; the test plays the DRAM channel.
 *
 * Settings: latency (ROP) R = 10. A request the harness puts in cycle c is got by the slice in
 * c+1 and looked up in c+1+R:
 *   hit:  reply put then, got by the harness in c + 2 + R;
 *   miss: fill request put then, got by the harness in c + 2 + R; a fill the harness puts in cycle f
 *         is got in f+1, the line becomes VALID and the merged requests reply one per cycle from
 *         f+1, got in f+2, f+3, ... */
#include "models/mem/l2.h"

#include <string.h>

#include "kernels/frontend/ir.h"
#include "models/core/harness.h"

enum { R = 10 };

static fmem *test_mem; /* the image the slice under test reads (set before harness_new) */

static void *make_l2(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    return l2_new(ctx, parent, name, test_mem, 1);
}

static harness *l2_harness(const char *const *extra)
{
    const char *s[8] = {"latency=10", "sets=4", "ways=2", "mshr_entries=4", "mshr_merge=2", NULL};
    unsigned n = 5;
    for (unsigned i = 0; extra && extra[i]; i++)
        s[n++] = extra[i];
    s[n] = NULL;
    test_mem = fmem_new();
    return harness_new(&l2_desc, make_l2, s, NULL);
}

static mem_req_t req(uint64_t addr, uint8_t kind, uint64_t id)
{
    mem_req_t q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.id = id;
    q.bytes = 128;
    q.kind = kind;
    q.src = 3;
    if (kind == MEM_WRITE)
        q.mask_lo = q.mask_hi = UINT64_MAX;
    return q;
}

/* Push a request and step: returns the cycle the harness put it. */
static uint64_t put(harness *h, const mem_req_t *q)
{
    harness_push(h, "req", q);
    return harness_step(h);
}

/* Answer a fill request got from dram_req: push the fill; returns the cycle it was put. */
static uint64_t fill(harness *h, const mem_req_t *fr)
{
    mem_resp_t f;
    memset(&f, 0, sizeof f);
    f.addr = fr->addr;
    f.id = fr->id;
    f.bytes = fr->bytes;
    f.kind = MEM_READ;
    harness_push(h, "dram_resp", &f);
    return harness_step(h);
}

static void test_miss_then_hit(void)
{
    harness *h = l2_harness(NULL);
    uint64_t a = fmem_alloc(test_mem, 4096);
    uint32_t v = 0xdeadbeef;
    fmem_write(test_mem, a + 4, &v, 4);
    mem_req_t q = req(a, MEM_READ, 1), fr;
    uint64_t c = put(h, &q);
    uint64_t got = harness_pop_within(h, "dram_req", &fr, 1000);
    g_assert_cmpuint(got, ==, c + 2 + R);
    g_assert_cmpuint(fr.kind, ==, MEM_READ);
    g_assert_cmpuint(fr.addr, ==, a);
    harness_run(h, 5);
    uint64_t f = fill(h, &fr);
    mem_resp_t r;
    got = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(got, ==, f + 2);
    g_assert_cmpuint(r.id, ==, 1);
    g_assert_cmpuint(r.dst, ==, 3);
    uint32_t rv;
    memcpy(&rv, r.data + 4, 4);
    g_assert_cmphex(rv, ==, 0xdeadbeef);
    /* now a hit */
    q.id = 2;
    c = put(h, &q);
    got = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(got, ==, c + 2 + R);
    g_assert_cmpuint(r.id, ==, 2);
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(inst, L2_STAT_HITS), ==, 1);
    g_assert_cmpuint(blk_stat_get(inst, L2_STAT_MISSES), ==, 1);
    g_assert_cmpfloat(blk_stat_value(inst, L2_STAT_HIT_RATE), ==, 0.5);
    g_assert_false(harness_pop(h, "dram_req", NULL, NULL));
    harness_free(h);
}

static void test_mshr_merge(void)
{
    harness *h = l2_harness(NULL);
    mem_req_t q1 = req(0x10000000, MEM_READ, 1), q2 = req(0x10000000, MEM_READ, 2),
              q3 = req(0x10000000, MEM_READ, 3);
    mem_req_t fr;
    put(h, &q1);
    put(h, &q2);
    put(h, &q3); /* merge limit 2: the third stalls until the fill frees the entry */
    harness_pop_within(h, "dram_req", &fr, 1000);
    harness_run(h, 20);
    g_assert_false(harness_pop(h, "dram_req", NULL, NULL)); /* one fill request for the line */
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_STALLS), >, 0);
    uint64_t f = fill(h, &fr);
    mem_resp_t r;
    uint64_t c1 = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 1);
    /* in f+1 the fill releases the first merged request and the stalled third, now a hit, replies
     * in the same cycle; the second merged request leaves one cycle later */
    uint64_t c3 = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 3);
    uint64_t c2 = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 2);
    g_assert_cmpuint(c1, ==, f + 2);
    g_assert_cmpuint(c3, ==, f + 2);
    g_assert_cmpuint(c2, ==, f + 3); /* one merged request per cycle */
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_MERGED), ==, 1);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_HITS), ==, 1);
    harness_free(h);
}

static void test_dirty_eviction(void)
{
    const char *extra[] = {"sets=1", NULL};
    harness *h = l2_harness(extra);
    /* one set of 2 ways: full-line writes to A and B allocate MODIFIED lines without a fill; a read
     * of C evicts A (LRU) as a write-back, then fetches C */
    uint64_t A = 0x10000000, Bl = 0x10000080, C = 0x10000100;
    mem_req_t wa = req(A, MEM_WRITE, 1), wb = req(Bl, MEM_WRITE, 2), rc = req(C, MEM_READ, 3), d;
    put(h, &wa);
    put(h, &wb);
    mem_resp_t r;
    harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 1);
    g_assert_cmpuint(r.kind, ==, MEM_WRITE);
    harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 2);
    g_assert_false(harness_pop(h, "dram_req", NULL, NULL));
    put(h, &rc);
    harness_pop_within(h, "dram_req", &d, 1000);
    g_assert_cmpuint(d.kind, ==, MEM_WRITEBACK);
    g_assert_cmpuint(d.addr, ==, A);
    g_assert_cmpuint(d.bytes, ==, 128);
    harness_pop_within(h, "dram_req", &d, 1000);
    g_assert_cmpuint(d.kind, ==, MEM_READ);
    g_assert_cmpuint(d.addr, ==, C);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_WRITEBACKS), ==, 1);
    harness_free(h);
}

static void test_partial_write_fetches(void)
{
    harness *h = l2_harness(NULL);
    mem_req_t w = req(0x10000000, MEM_WRITE, 5), fr;
    w.mask_hi = 0; /* half a line: fetch on write */
    uint64_t c = put(h, &w);
    uint64_t got = harness_pop_within(h, "dram_req", &fr, 1000);
    g_assert_cmpuint(got, ==, c + 2 + R);
    g_assert_cmpuint(fr.kind, ==, MEM_READ);
    uint64_t f = fill(h, &fr);
    mem_resp_t r;
    got = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(got, ==, f + 2);
    g_assert_cmpuint(r.kind, ==, MEM_WRITE);
    g_assert_cmpuint(r.id, ==, 5);
    harness_free(h);
}

static mem_req_t atom_add(uint64_t line, uint32_t lanes, uint32_t b, uint64_t id)
{
    mem_req_t q = req(line, MEM_ATOMIC, id);
    q.atom.lanes = lanes;
    q.atom.op = IR_ATOM_ADD;
    q.atom.type = IR_T_U32;
    q.atom.esize = 4;
    for (unsigned l = 0; l < MEM_ATOM_LANES; l++) {
        q.atom.offset[l] = 8; /* every lane on one word */
        q.atom.b[l] = b;
    }
    return q;
}

static void test_atomics_in_order(void)
{
    harness *h = l2_harness(NULL);
    uint64_t a = fmem_alloc(test_mem, 256);
    mem_req_t q1 = atom_add(a, 0xf, 1, 1), q2 = atom_add(a, 0x3, 10, 2), fr;
    q2.atom.offset[1] = 12; /* lane 1 of the second on the next word */
    put(h, &q1);
    put(h, &q2);
    /* a miss: the line is fetched; the atomics were performed already */
    harness_pop_within(h, "dram_req", &fr, 1000);
    uint32_t w[2];
    fmem_read(test_mem, a + 8, w, 8);
    g_assert_cmpuint(w[0], ==, 4 + 10);
    g_assert_cmpuint(w[1], ==, 10);
    fill(h, &fr);
    mem_resp_t r;
    harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 1);
    g_assert_cmpuint(r.kind, ==, MEM_ATOMIC);
    for (unsigned l = 0; l < 4; l++)
        g_assert_cmpuint(r.atom_old[l], ==, l); /* lanes in lane order */
    harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 2);
    g_assert_cmpuint(r.atom_old[0], ==, 4);
    g_assert_cmpuint(r.atom_old[1], ==, 0);
    /* a CAS that hits, on the modified line */
    mem_req_t cas = req(a, MEM_ATOMIC, 3);
    cas.atom.lanes = 0x3;
    cas.atom.op = IR_ATOM_CAS;
    cas.atom.type = IR_T_B32;
    cas.atom.esize = 4;
    cas.atom.offset[0] = cas.atom.offset[1] = 8;
    cas.atom.b[0] = cas.atom.b[1] = 14; /* lane 0 swaps 14 -> 99; lane 1 then sees 99 and fails */
    cas.atom.c[0] = cas.atom.c[1] = 99;
    put(h, &cas);
    harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.atom_old[0], ==, 14);
    g_assert_cmpuint(r.atom_old[1], ==, 99);
    fmem_read(test_mem, a + 8, w, 4);
    g_assert_cmpuint(w[0], ==, 99);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_ATOMICS), ==, 3);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_FAULTS), ==, 0);
    g_assert_true(l2_idle(harness_block(h)));
    harness_free(h);
}

static void test_atomic_fault(void)
{
    harness *h = l2_harness(NULL);
    mem_req_t q = atom_add(0x20000000, 1, 1, 1); /* unmapped */
    put(h, &q);
    harness_run(h, R + 5);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_FAULTS), ==, 1);
    g_assert_nonnull(l2_fault(harness_block(h)));
    harness_free(h);
}

/* A stalled head stalls in every cycle until something ends the stall, and the slice sleeps
 * meanwhile: the cycles it sleeps through are counted as stalls when it wakes. Two causes, each in
 * closed form: a full MSHR merge list (ended by the fill) and a full reply queue (ended by room in
 * `resp`). */
static void test_stall_sleeps(void)
{
    harness *h = l2_harness(NULL);
    mem_req_t q1 = req(0x10000000, MEM_READ, 1), q2 = req(0x10000000, MEM_READ, 2),
              q3 = req(0x10000000, MEM_READ, 3), fr;
    put(h, &q1);
    put(h, &q2);
    uint64_t p3 = put(h, &q3); /* merge limit 2: stalls from its lookup in p3+1+R */
    harness_pop_within(h, "dram_req", &fr, 1000);
    uint64_t act = gsc_activations();
    harness_run(h, 40);
    /* the driver runs in each of the 40 cycles; the slice once, for the third's first lookup */
    g_assert_cmpuint(gsc_activations() - act, ==, 40 + 1);
    uint64_t f = fill(h, &fr); /* got in f+1, when the third is looked up again and hits */
    mem_resp_t r;
    harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_STALLS), ==, f + 1 - (p3 + 1 + R));
    harness_free(h);

    /* Full replies: one reply slot, a one-deep `resp` the harness does not drain. Three hits put in
     * p, p+1, p+2: the first reply goes into `resp`, the second waits in the reply queue, the third's
     * lookup stalls from p+3+R until room appears: the driver gets the first reply in g, the room
     * shows in g+1 (a stall still: the second reply leaves then), the third is looked up in g+2. */
    const char *one[] = {"out_depth=1", "resp_depth=1", NULL};
    h = l2_harness(one);
    mem_req_t m = req(0x10000000, MEM_READ, 1);
    put(h, &m);
    harness_pop_within(h, "dram_req", &fr, 1000);
    fill(h, &fr);
    harness_pop_within(h, "resp", &r, 1000); /* the line is valid now */
    harness_set_drain(h, "resp", false);
    uint64_t p = 0;
    for (unsigned i = 0; i < 3; i++) {
        mem_req_t hq = req(0x10000000, MEM_READ, 10 + i);
        uint64_t c = put(h, &hq);
        if (i == 0)
            p = c;
    }
    act = gsc_activations();
    harness_run(h, R + 40);
    /* the slice ran for the three lookups (and the second reply's refused put) and then slept */
    g_assert_cmpuint(gsc_activations() - act, <=, R + 40 + 4);
    harness_set_drain(h, "resp", true);
    uint64_t g = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 10);
    uint64_t g2 = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 11);
    uint64_t g3 = harness_pop_within(h, "resp", &r, 1000);
    g_assert_cmpuint(r.id, ==, 12);
    g_assert_cmpuint(g2, ==, g + 2);
    g_assert_cmpuint(g3, ==, g + 4);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), L2_STAT_STALLS), ==, (g + 1) - (p + 3 + R) + 1);
    harness_free(h);
}

/* enabled=false: every read goes to DRAM after the ROP latency (a second read of the same line
 * too), a write is passed on and acknowledged; no cache statistic counts. */
static void test_disabled(void)
{
    const char *off[] = {"enabled=false", NULL};
    harness *h = l2_harness(off);
    uint64_t a = fmem_alloc(test_mem, 4096);
    uint32_t v = 0xfeedf00d;
    fmem_write(test_mem, a + 8, &v, 4);
    for (unsigned i = 0; i < 2; i++) {
        mem_req_t q = req(a, MEM_READ, 1 + i), fr;
        uint64_t c = put(h, &q);
        uint64_t got = harness_pop_within(h, "dram_req", &fr, 1000);
        g_assert_cmpuint(got, ==, c + 2 + R);
        g_assert_cmpuint(fr.kind, ==, MEM_READ);
        uint64_t f = fill(h, &fr);
        mem_resp_t r;
        got = harness_pop_within(h, "resp", &r, 1000);
        g_assert_cmpuint(got, ==, f + 2);
        g_assert_cmpuint(r.id, ==, 1 + i);
        uint32_t rv;
        memcpy(&rv, r.data + 8, 4);
        g_assert_cmphex(rv, ==, 0xfeedf00d);
    }
    mem_req_t w = req(a + 128, MEM_WRITE, 7), d;
    uint64_t c = put(h, &w);
    mem_resp_t r;
    g_assert_cmpuint(harness_pop_within(h, "resp", &r, 1000), ==, c + 2 + R);
    g_assert_cmpuint(r.id, ==, 7);
    harness_pop_within(h, "dram_req", &d, 1000);
    g_assert_cmpuint(d.kind, ==, MEM_WRITEBACK);
    g_assert_cmpuint(d.addr, ==, a + 128);
    blk_inst *inst = harness_inst(h);
    for (unsigned st = L2_STAT_READS; st <= L2_STAT_WRITEBACKS; st++)
        if (st != L2_STAT_STALLS)
            g_assert_cmpuint(blk_stat_get(inst, st), ==, 0);
    g_assert_false(harness_pop(h, "dram_req", NULL, NULL));
    harness_free(h);
}

/* One read of the line at `addr` through the slice (a miss is filled at once); the reply. */
static mem_resp_t read_line(harness *h, uint64_t addr, uint64_t id)
{
    mem_req_t q = req(addr, MEM_READ, id), fr;
    put(h, &q);
    mem_resp_t r;
    for (unsigned n = 0; n < 1000; n++) {
        if (harness_pop(h, "dram_req", &fr, NULL))
            fill(h, &fr);
        if (harness_pop(h, "resp", &r, NULL))
            return r;
        harness_step(h);
    }
    g_assert_not_reached();
}

/* Read replies carry the image's bytes whatever region the line lies in: lines of more regions than
 * the slice keeps at hand (L2_REGIONS), in turns, with the image written between the turns; a line
 * over two adjacent regions; a line whose second half is unmapped (zeros). */
static void test_read_regions(void)
{
    harness *h = l2_harness(NULL);
    enum { N = L2_REGIONS + 2 };
    uint64_t base[N];
    for (unsigned k = 0; k < N; k++)
        base[k] = fmem_alloc(test_mem, 1024);
    uint64_t two = 0x7000000, half = 0x7100000; /* fixed mappings away from the allocations */
    g_assert_true(fmem_map(test_mem, two, 192, false, "lo"));
    g_assert_true(fmem_map(test_mem, two + 192, 192, false, "hi"));
    g_assert_true(fmem_map(test_mem, half, 64, false, "half"));
    uint64_t id = 1;
    for (unsigned turn = 0; turn < 3; turn++) {
        for (unsigned k = 0; k < N + 2; k++) {
            /* (in turn 2 the lines go backwards, so a line's region is found at another place) */
            unsigned j = turn == 2 ? N + 1 - k : k;
            uint64_t a = j < N ? base[j] + 128 * ((turn + j) % 8) : j == N ? two + 128 : half;
            uint8_t want[MEM_LINE_MAX] = {0};
            for (unsigned i = 0; i < MEM_LINE_MAX; i++)
                want[i] = (uint8_t)(17 * turn + 5 * j + i + 1);
            unsigned mapped = a == half ? 64 : MEM_LINE_MAX;
            for (unsigned o = 0; o < mapped; o += 64) /* (fmem_write stays inside one region) */
                g_assert_true(fmem_write(test_mem, a + o, want + o, MIN(64u, mapped - o)));
            memset(want + mapped, 0, MEM_LINE_MAX - mapped);
            mem_resp_t r = read_line(h, a, id);
            g_assert_cmpuint(r.id, ==, id);
            id++;
            g_assert_cmpmem(r.data, MEM_LINE_MAX, want, MEM_LINE_MAX);
        }
    }
    harness_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/l2/miss-then-hit", test_miss_then_hit);
    harness_test_add("/l2/mshr-merge", test_mshr_merge);
    harness_test_add("/l2/stall-sleeps", test_stall_sleeps);
    harness_test_add("/l2/dirty-eviction", test_dirty_eviction);
    harness_test_add("/l2/partial-write-fetches", test_partial_write_fetches);
    harness_test_add("/l2/atomics-in-order", test_atomics_in_order);
    harness_test_add("/l2/atomic-fault", test_atomic_fault);
    harness_test_add("/l2/disabled", test_disabled);
    harness_test_add("/l2/read-regions", test_read_regions);
    return g_test_run();
}
