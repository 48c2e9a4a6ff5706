/* test_sm_blocks — each SM block alone in the harness (models/core/harness.h), driven cycle by cycle
 * through its ports. Timings are derived in the comments from the harness rule: an item the driver
 * puts in cycle N is seen by the block in N+1; an item the block puts in cycle M is got by the driver
 * in M+1. The kernel module is tests/sm/ptx/dep_chain.ptx (entry chain32). Also unit tests of
 * issue's register file (warp_exec.h: zeroed at a CTA's start, poisoned at its end; the value hooks
 * see every access and what they write is what the instructions read). */
#include <glib.h>
#include <string.h>

#include "kernels/run/kload.h"
#include "kernels/frontend/ptx_parse.h"
#include "models/core/harness.h"
#include "models/sm/cta_dispatch.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "models/sm/mem_fixed.h"
#include "tests/sm/block_test.h"

static sm_env *env_get(void)
{
    static sm_env env;
    if (env.mod)
        return &env;
    const char *top = g_getenv("top_srcdir");
    char *path = g_build_filename(top ? top : ".", "tests", "sm", "ptx", "dep_chain.ptx", NULL);
    GError *err = NULL;
    ir_module *mod = ptx_parse_file(path, &err);
    g_assert_no_error(err);
    block_env_init(&env, mod, "chain32");
    env.launch.grid[0] = env.launch.grid[1] = env.launch.grid[2] = 1;
    env.launch.block[0] = 32;
    env.launch.block[1] = env.launch.block[2] = 1;
    env.launch.regs_per_thread = 8;
    g_free(path);
    return &env;
}

static void *make_mem(blk_ctx *c, gsc_module *p, const char *n)
{
    return mem_fixed_new(c, p, n, env_get());
}
static void *make_ldst(blk_ctx *c, gsc_module *p, const char *n)
{
    return ldst_new(c, p, n, env_get(), 0);
}
static void *make_fetch(blk_ctx *c, gsc_module *p, const char *n)
{
    fetch *f = fetch_new(c, p, n, env_get(), 4);
    blk_bind(f->inst, "dec", decode_new(c, p, "decode", env_get())->inst, "dec");
    return f;
}
/* issue with the blocks it calls: the I-buffers, the scoreboard, the barrier unit, one arbiter per
 * scheduler (as the topology binds them). */
static void *make_issue(blk_ctx *c, gsc_module *p, const char *n)
{
    sm_env *env = env_get();
    issue *s = issue_new(c, p, n, env, 0, 4, 2, 1);
    blk_bind(s->inst, "ib", ibuffer_new(c, p, "ibuffer", 4)->inst, "ib");
    blk_bind(s->inst, "sb", scoreboard_block_new(c, p, "scoreboard", 4, env->k->total_regs + 1)->inst, "sb");
    blk_bind(s->inst, "bar", barrier_new(c, p, "barrier", 2)->inst, "bar");
    for (unsigned i = 0; i < s->n_sched; i++) {
        char *an = g_strdup_printf("arbiter%u", i), *port = g_strdup_printf("arbiter_%u", i);
        blk_bind(s->inst, port, arbiter_new(c, p, an)->inst, "arb");
        g_free(an);
        g_free(port);
    }
    return s;
}
static void *make_dispatch(blk_ctx *c, gsc_module *p, const char *n)
{
    return cta_dispatch_new(c, p, n, env_get(), 1);
}

/* ---- mem_fixed: latency and bandwidth ---- */
static void test_mem_fixed(void)
{
    const char *set[] = {"latency=50", "bytes_per_cycle=32", NULL};
    harness *h = harness_new(&mem_fixed_desc, make_mem, set, NULL);
    uint64_t a = fmem_alloc(env_get()->mem, 256);
    uint32_t word = 0xdeadbeef;
    fmem_write(env_get()->mem, a + 4, &word, 4);
    mem_req_t q = {.addr = a, .id = 7, .bytes = 128, .kind = MEM_READ};
    harness_push(h, "req", &q); /* put in cycle 0 */
    q.id = 8;
    q.addr = a + 128;
    harness_push(h, "req", &q); /* put in cycle 0 too (depth 8) */
    mem_resp_t r;
    /* seen at 1, start 1, due 51, put at 51, got at 52 */
    g_assert_cmpuint(harness_pop_within(h, "resp", &r, 100), ==, 52);
    g_assert_cmpuint(r.id, ==, 7);
    uint32_t got;
    memcpy(&got, r.data + 4, 4);
    g_assert_cmphex(got, ==, 0xdeadbeef); /* the line's bytes from the image */
    /* the second starts when 128 B / 32 B per cycle = 4 cycles of data path are over: 55 -> got 56 */
    g_assert_cmpuint(harness_pop_within(h, "resp", &r, 100), ==, 56);
    g_assert_cmpuint(r.id, ==, 8);
    harness_free(h);
}

/* ---- mem_fixed: a request that arrives while an earlier one is in flight starts on arrival ---- */
static void test_mem_fixed_overlap(void)
{
    const char *set[] = {"latency=50", "bytes_per_cycle=32", NULL};
    harness *h = harness_new(&mem_fixed_desc, make_mem, set, NULL);
    uint64_t a = fmem_alloc(env_get()->mem, 256);
    mem_req_t q = {.addr = a, .id = 7, .bytes = 128, .kind = MEM_READ};
    harness_push(h, "req", &q); /* put in cycle 0: seen at 1, due 51, got at 52 */
    for (unsigned i = 0; i < 10; i++)
        harness_step(h);
    q.id = 9;
    q.addr = a + 128;
    harness_push(h, "req", &q); /* put in cycle 10: seen at 11 (the data path is free since 5), due 61 */
    mem_resp_t r;
    g_assert_cmpuint(harness_pop_within(h, "resp", &r, 100), ==, 52);
    g_assert_cmpuint(r.id, ==, 7);
    g_assert_cmpuint(harness_pop_within(h, "resp", &r, 100), ==, 62);
    g_assert_cmpuint(r.id, ==, 9);
    harness_free(h);
}

/* ---- mem_fixed: a request larger than a line (a model bug) is a fatal error, not an overflow ---- */
static void test_mem_fixed_oversize(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_sm_blocks");
        harness *h = harness_new(&mem_fixed_desc, make_mem, NULL, NULL);
        mem_req_t q = {.addr = fmem_alloc(env_get()->mem, 256), .id = 1, .bytes = 256, .kind = MEM_READ};
        harness_push(h, "req", &q);
        harness_run(h, 5);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*request of 256 bytes (a line is at most 128)*");
}

/* ---- mem_fixed: an atomic with lanes is performed on arrival, old values in the response ---- */
static void test_mem_fixed_atomic(void)
{
    const char *set[] = {"latency=10", NULL};
    harness *h = harness_new(&mem_fixed_desc, make_mem, set, NULL);
    fmem *mem = env_get()->mem;
    uint64_t a = fmem_alloc(mem, 128);
    uint32_t init[2] = {5, 7};
    fmem_write(mem, a, init, sizeof init);
    mem_req_t *q = g_new0(mem_req_t, 1);
    q->addr = a;
    q->bytes = 128;
    q->kind = MEM_ATOMIC;
    q->atom = (mem_atom_t){.lanes = 0x3, .op = IR_ATOM_ADD, .type = IR_T_U32, .esize = 4};
    q->atom.offset[0] = 0;
    q->atom.offset[1] = 4;
    q->atom.b[0] = 10;
    q->atom.b[1] = 100;
    harness_push(h, "req", q);
    mem_resp_t *r = g_new0(mem_resp_t, 1);
    g_assert_cmpuint(harness_pop_within(h, "resp", r, 50), ==, 12); /* seen 1, due 11, got 12 */
    g_assert_cmpuint(r->atom_old[0], ==, 5);
    g_assert_cmpuint(r->atom_old[1], ==, 7);
    uint32_t now[2];
    fmem_read(mem, a, now, sizeof now);
    g_assert_cmpuint(now[0], ==, 15);
    g_assert_cmpuint(now[1], ==, 107);
    g_free(q);
    g_free(r);
    harness_free(h);
}

/* ---- ldst: miss -> request -> response -> release; a hit after the fill ---- */
static issued_t load(uint64_t addr)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.cls = IR_CLASS_MEM;
    it.op = IR_OP_LD;
    it.kind = 0;
    it.bytes = 4;
    it.mask = 0xffffffffu;
    it.n_dst = 1;
    it.dst[0] = 1;
    it.long_op = 1;
    for (unsigned l = 0; l < 32; l++) {
        it.lane_space[l] = IR_SPACE_GLOBAL;
        it.addr[l] = addr + 4 * l;
    }
    return it;
}

static void test_ldst_miss_then_hit(void)
{
    const char *set[] = {"l1_latency=3", NULL};
    harness *h = harness_new(&ldst_desc, make_ldst, set, NULL);
    uint64_t a = fmem_alloc(env_get()->mem, 256);
    issued_t it = load(a);
    harness_push(h, "in", &it); /* seen 1 (start), lookup at 2: miss, request put 2, got 3 */
    mem_req_t q;
    g_assert_cmpuint(harness_pop_within(h, "mem_req", &q, 20), ==, 3);
    g_assert_cmpuint(q.kind, ==, MEM_READ);
    g_assert_cmpuint(q.addr, ==, a);
    g_assert_cmpuint(q.bytes, ==, 128);
    release_t r;
    g_assert_false(harness_pop(h, "release", &r, NULL));
    mem_resp_t resp = {.addr = q.addr, .id = q.id, .bytes = 128, .kind = MEM_READ};
    uint64_t c = harness_step(h);
    harness_push(h, "mem_resp", &resp); /* put c+1, seen c+2, release put c+2, got c+3 */
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 20), ==, c + 3);
    g_assert_cmpuint(r.dst[0], ==, 1);
    c = harness_step(h);
    harness_push(h, "in", &it); /* put c+1, start c+2, hit at c+3, ready c+6, got c+7 */
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 20), ==, c + 7);
    g_assert_false(harness_pop(h, "mem_req", &q, NULL));
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LDST_STAT_L1_HITS), ==, 1);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LDST_STAT_L1_MISSES), ==, 1);
    harness_free(h);
}

/* ---- ldst with l1_enabled=false: the same load goes below each time (no hit), with the timing of
 * a miss; no L1D statistic counts ---- */
static void test_ldst_l1_disabled(void)
{
    const char *set[] = {"l1_latency=3", "l1_enabled=false", NULL};
    harness *h = harness_new(&ldst_desc, make_ldst, set, NULL);
    uint64_t a = fmem_alloc(env_get()->mem, 256);
    issued_t it = load(a);
    for (unsigned i = 0; i < 2; i++) {
        uint64_t c = i ? harness_step(h) : 0;
        harness_push(h, "in", &it); /* as the miss above: the request is got 3 cycles on */
        mem_req_t q;
        g_assert_cmpuint(harness_pop_within(h, "mem_req", &q, 20), ==, c + (i ? 4 : 3));
        g_assert_cmpuint(q.kind, ==, MEM_READ);
        g_assert_cmpuint(q.addr, ==, a);
        release_t r;
        g_assert_false(harness_pop(h, "release", &r, NULL));
        mem_resp_t resp = {.addr = q.addr, .id = q.id, .bytes = 128, .kind = MEM_READ};
        c = harness_step(h);
        harness_push(h, "mem_resp", &resp);
        g_assert_cmpuint(harness_pop_within(h, "release", &r, 20), ==, c + 3);
        g_assert_cmpuint(r.dst[0], ==, 1);
    }
    for (unsigned st = LDST_STAT_L1_HITS; st <= LDST_STAT_L1_RES_FAIL; st++)
        g_assert_cmpuint(blk_stat_get(harness_inst(h), st), ==, 0);
    harness_free(h);
}

/* ---- ldst: with one MSHR, a load of two lines waits for the first line's fill; the refusals are
 * counted per cycle while the block sleeps (it foresees the refusal of the next cycle) ---- */
static void test_ldst_mshr_full(void)
{
    const char *set[] = {"mshrs=1", NULL};
    harness *h = harness_new(&ldst_desc, make_ldst, set, NULL);
    uint64_t a = fmem_alloc(env_get()->mem, 512);
    a = (a + 127) & ~(uint64_t)127;
    issued_t it = load(a);
    for (unsigned l = 0; l < 32; l++)
        it.addr[l] = a + 8 * l; /* two lines */
    uint64_t c0 = harness_step(h), act = gsc_activations();
    harness_push(h, "in", &it); /* put c0+1, start c0+2, first line missed c0+3, request got c0+4 */
    mem_req_t q;
    g_assert_cmpuint(harness_pop_within(h, "mem_req", &q, 20), ==, c0 + 4);
    g_assert_cmpuint(q.addr, ==, a);
    /* the second line is refused from cycle c0+4 on, foreseen in c0+3: the block does not run again
     * until the response (the driver runs in every cycle) */
    uint64_t c = harness_run(h, 30);
    g_assert_cmpuint(gsc_activations() - act - (c - c0), ==, 2);
    g_assert_false(harness_pop(h, "mem_req", NULL, NULL));
    mem_resp_t resp = {.addr = q.addr, .id = q.id, .bytes = 128, .kind = MEM_READ};
    harness_push(h, "mem_resp", &resp); /* put c+1, seen c+2: the MSHR is free, the retry goes */
    g_assert_cmpuint(harness_pop_within(h, "mem_req", &q, 20), ==, c + 3);
    g_assert_cmpuint(q.addr, ==, a + 128);
    /* refused in cycles c0+4 .. c+1 */
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LDST_STAT_L1_RES_FAIL), ==, c + 1 - (c0 + 4) + 1);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LDST_STAT_L1_MISSES), ==, 2);
    harness_free(h);
}

/* ---- ldst: a global atomic goes below with its lanes and operands; the old values come back in
 * the release for the destination register ---- */
static void test_ldst_atomic(void)
{
    harness *h = harness_new(&ldst_desc, make_ldst, NULL, NULL);
    uint64_t a = fmem_alloc(env_get()->mem, 256);
    issued_t *it = g_new0(issued_t, 1);
    *it = load(a);
    it->op = IR_OP_ATOM;
    it->kind = 2;
    it->mask = 0x5; /* lanes 0 and 2 */
    it->atom_lanes = 0x5;
    it->atom_op = IR_ATOM_ADD;
    it->atom_type = IR_T_U32;
    it->atom_dst = 9;
    it->atom_vmask = 0xffffffffu;
    it->atom_b[0] = 3;
    it->atom_b[2] = 4;
    harness_push(h, "in", it);
    mem_req_t *q = g_new0(mem_req_t, 1);
    harness_pop_within(h, "mem_req", q, 20);
    g_assert_cmpuint(q->kind, ==, MEM_ATOMIC);
    g_assert_cmphex(q->atom.lanes, ==, 0x5);
    g_assert_cmpuint(q->atom.offset[2], ==, 8);
    g_assert_cmpuint(q->atom.b[2], ==, 4);
    g_assert_cmpuint(q->atom.op, ==, IR_ATOM_ADD);
    mem_resp_t *r = g_new0(mem_resp_t, 1);
    r->addr = q->addr;
    r->id = q->id;
    r->kind = MEM_ATOMIC;
    r->atom_old[0] = 11;
    r->atom_old[2] = 22;
    harness_push(h, "mem_resp", r);
    release_t rel;
    harness_pop_within(h, "release", &rel, 20);
    g_assert_true(rel.atomic);
    g_assert_cmpuint(rel.val_reg, ==, 9);
    g_assert_cmphex(rel.val_mask, ==, 0x5);
    g_assert_cmpuint(rel.vals[0], ==, 11);
    g_assert_cmpuint(rel.vals[2], ==, 22);
    g_free(it);
    g_free(q);
    g_free(r);
    harness_free(h);
}

/* ---- ldst: a 4-way scratchpad bank conflict costs 4 bank cycles ---- */
static void test_ldst_smem_conflict(void)
{
    harness *h = harness_new(&ldst_desc, make_ldst, NULL, NULL);
    issued_t it = load(0);
    for (unsigned l = 0; l < 32; l++) {
        it.lane_space[l] = IR_SPACE_SHARED;
        it.addr[l] = 16 * l; /* word 4l: bank (4l mod 32): 8 banks, 4 words each */
    }
    harness_push(h, "in", &it); /* seen 1, ready 1 + smem_latency(1) + 4 - 1 = 5, got 6 */
    release_t r;
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 20), ==, 6);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LDST_STAT_SMEM_CONFLICT_CYCLES), ==, 3);
    harness_free(h);
}

/* ---- ldst: a scratchpad access completes on time while a later one's bank conflicts keep the unit
 * busy and a third instruction waits for it (the unit sleeps until the earlier of the two) ---- */
static issued_t smem_load(unsigned stride, unsigned seq)
{
    issued_t it = load(0);
    it.seq = seq;
    for (unsigned l = 0; l < 32; l++) {
        it.lane_space[l] = IR_SPACE_SHARED;
        it.addr[l] = stride * l; /* stride 4: no conflict; 32 (word 8l): 4 banks, 8 words each */
    }
    return it;
}

static void test_ldst_smem_busy(void)
{
    const char *set[] = {"smem_latency=3", NULL};
    harness *h = harness_new(&ldst_desc, make_ldst, set, NULL);
    issued_t a = smem_load(4, 1), b = smem_load(32, 2), c = smem_load(4, 3);
    harness_push(h, "in", &a);
    harness_push(h, "in", &b);
    harness_push(h, "in", &c);
    /* a starts at 1 (ready 1 + 3 + 1 - 1 = 4), b at 2 (8 bank cycles: the unit busy until 10, ready
     * 2 + 3 + 8 - 1 = 12), c waits until 10 (ready 13); each got the cycle after its release. a
     * used to wait for the unit to be free (released at 10). */
    release_t r;
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 30), ==, 5);
    g_assert_cmpuint(r.seq, ==, 1);
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 30), ==, 13);
    g_assert_cmpuint(r.seq, ==, 2);
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 30), ==, 14);
    g_assert_cmpuint(r.seq, ==, 3);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LDST_STAT_SMEM_CONFLICT_CYCLES), ==, 7);
    harness_free(h);
}

/* ---- fetch: a redirect starts a warp; credits bound what it fetches ---- */
static void test_fetch_credits(void)
{
    const char *set[] = {"icache_miss_latency=5", NULL};
    harness *h = harness_new(&fetch_desc, make_fetch, set, NULL);
    redirect_t rd = {.warp = 2, .epoch = 1, .func = env_get()->launch.entry, .pc = 0};
    harness_push(h, "redirect", &rd);
    decoded_t d;
    /* seen 1: miss, fill until 6; fetch at 6 decodes 2 (fetch_width) instructions, got at 7 */
    g_assert_cmpuint(harness_pop_within(h, "out", &d, 30), ==, 7);
    g_assert_cmpuint(d.warp, ==, 2);
    g_assert_cmpuint(d.pc, ==, 0);
    g_assert_cmpuint(d.n_dst, ==, 1); /* mov.u32 %r1, 0 */
    g_assert_true(harness_pop(h, "out", &d, NULL));
    g_assert_cmpuint(d.pc, ==, 1);
    g_assert_cmpuint(d.n_src, ==, 1); /* add %r1, %r1, 1 reads %r1 */
    harness_run(h, 10);
    g_assert_false(harness_pop(h, "out", &d, NULL)); /* no credit left */
    credit_t cr = {.warp = 2, .epoch = 1, .count = 1};
    harness_push(h, "credit", &cr);
    uint64_t c = harness_pop_within(h, "out", &d, 10);
    g_assert_cmpuint(d.pc, ==, 2);
    g_assert_false(harness_pop(h, "out", &d, NULL));
    (void)c;
    cr.epoch = 0; /* a stale credit is ignored */
    harness_push(h, "credit", &cr);
    harness_run(h, 5);
    g_assert_false(harness_pop(h, "out", &d, NULL));
    harness_free(h);
}

/* ---- issue ---- */
/* Launches a one-warp CTA (put 0, seen 1, redirect put 1, got 2) and returns the warp's redirect. */
static redirect_t issue_start_warp(harness *h)
{
    cta_launch_t c = {.slot = 0, .first_warp = 0, .warps = 1, .threads = 32};
    harness_push(h, "cta_launch", &c);
    redirect_t rd;
    g_assert_cmpuint(harness_pop_within(h, "redirect", &rd, 10), ==, 2);
    return rd;
}

/* A decoded ALU instruction of the redirected warp at pc with the test's register lists (the
 * scoreboard sees only these; the functional execution runs the kernel's instruction at pc). */
static decoded_t issue_decoded(const redirect_t *rd, uint32_t pc, int src, int dst)
{
    decoded_t d = {.warp = rd->warp, .epoch = rd->epoch, .func = rd->func, .pc = pc, .cls = IR_CLASS_ALU};
    if (src >= 0) {
        d.n_src = 1;
        d.src[0] = (uint16_t)src;
    }
    if (dst >= 0) {
        d.n_dst = 1;
        d.dst[0] = (uint16_t)dst;
    }
    return d;
}

/* Pushes the kernel's first two instructions (pc 0 and 1) after one step; returns that step's cycle
 * t: they are put at t+1, seen at t+2, where pc 0 may issue (got from to_exec0 at t+3). */
static uint64_t issue_push_two(harness *h, const decoded_t *d0, const decoded_t *d1)
{
    uint64_t t = harness_step(h);
    harness_push(h, "decoded", d0);
    harness_push(h, "decoded", d1);
    return t;
}

/* A CTA starts its warps; an instruction issues to exec; its release frees the scoreboard. */
static void test_issue_cta(void)
{
    harness *h = harness_new(&issue_desc, make_issue, NULL, NULL);
    sm_env *env = env_get();
    redirect_t rd = issue_start_warp(h);
    g_assert_cmpuint(rd.warp, ==, 0);
    g_assert_cmpuint(rd.pc, ==, 0);
    g_assert_cmpuint(rd.func, ==, env->launch.entry);
    g_assert_false(rd.done);
    /* pc 0: mov.u32 %r1, 0 (writes slot 1); pc 1: add %r1, %r1, 1 (reads and writes slot 1) */
    decoded_t d0 = issue_decoded(&rd, 0, -1, 1), d1 = issue_decoded(&rd, 1, 1, 1);
    uint64_t t = issue_push_two(h, &d0, &d1);
    issued_t it;
    /* put t+1, issued t+2, got t+3 */
    g_assert_cmpuint(harness_pop_within(h, "to_exec_0", &it, 10), ==, t + 3);
    g_assert_cmpuint(it.pc, ==, 0);
    g_assert_false(it.report_reads);
    harness_run(h, 5);
    g_assert_false(harness_pop(h, "to_exec_0", &it, NULL)); /* pc 1 waits on the scoreboard */
    release_t r = {.warp = 0, .n_dst = 1, .seq = it.seq};
    r.dst[0] = 1;
    t = harness_step(h);
    harness_push(h, "release_0", &r);
    g_assert_cmpuint(harness_pop_within(h, "to_exec_0", &it, 10), ==, t + 3); /* released and issued at t+2 */
    g_assert_cmpuint(it.pc, ==, 1);
    g_assert_cmpuint(it.mask, ==, 0xffffffffu);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), ISSUE_STAT_WARP_INSTRS), ==, 2);
    harness_free(h);
}

/* cta_cycles counts the resident CTAs in every cycle, the cycles the block sleeps through too. Two
 * CTAs arrive in cycle 1 (the driver puts them in 0); the block then sleeps until a decoded
 * instruction the driver puts in cycle 21 wakes it in 22: 2 CTAs x cycles 1..22. (The slept cycles
 * were counted through a bool: as 1 CTA.) */
static void test_issue_cta_cycles(void)
{
    harness *h = harness_new(&issue_desc, make_issue, NULL, NULL);
    cta_launch_t c0 = {.slot = 0, .first_warp = 0, .warps = 1, .threads = 32};
    cta_launch_t c1 = {.slot = 1, .first_warp = 1, .warps = 1, .threads = 32};
    harness_push(h, "cta_launch", &c0);
    harness_push(h, "cta_launch", &c1);
    redirect_t rd;
    g_assert_cmpuint(harness_pop_within(h, "redirect", &rd, 10), ==, 2);
    while (harness_step(h) < 20)
        ;
    decoded_t d0 = issue_decoded(&rd, 0, -1, 1);
    harness_push(h, "decoded", &d0);
    g_assert_cmpuint(harness_run(h, 2), ==, 22);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), ISSUE_STAT_CTA_CYCLES), ==, 2 * 22);
    harness_free(h);
}

/* Source reservations hold a write to a register until its reader reports the read; the watchdog's
 * dump names the pending read. */
static void test_issue_source_reservations(void)
{
    const char *set[] = {"scoreboard.source_reservations=true", NULL};
    harness *h = harness_new(&issue_desc, make_issue, set, NULL);
    issue *s = harness_block(h);
    redirect_t rd = issue_start_warp(h);
    /* pc 0 reads slot 1 and writes slot 2; pc 1 writes slot 1 (a WAR hazard on pc 0's source) */
    decoded_t d0 = issue_decoded(&rd, 0, 1, 2), d1 = issue_decoded(&rd, 1, -1, 1);
    uint64_t t = issue_push_two(h, &d0, &d1);
    issued_t it;
    g_assert_cmpuint(harness_pop_within(h, "to_exec_0", &it, 10), ==, t + 3);
    g_assert_cmpuint(it.pc, ==, 0);
    g_assert_true(it.report_reads);
    harness_run(h, 10);
    g_assert_false(harness_pop(h, "to_exec_0", &it, NULL)); /* pc 1 waits for pc 0's read */
    GString *dump = g_string_new(NULL);
    issue_dump(s, dump);
    g_assert_nonnull(strstr(dump->str, "destination slot 1 has 1 pending reads (WAR"));
    g_string_free(dump, TRUE);
    release_t r = {.warp = 0, .seq = it.seq, .reads = 1, .n_src = 1};
    r.src[0] = 1;
    t = harness_step(h);
    harness_push(h, "release_0", &r);
    g_assert_cmpuint(harness_pop_within(h, "to_exec_0", &it, 10), ==, t + 3); /* seen and issued at t+2 */
    g_assert_cmpuint(it.pc, ==, 1);
    harness_free(h);
}

/* A refusal for the first 5 cycles the warp is ready (a check or a veto that allows from cycle
 * `from`); it records the cycles it was asked in. */
typedef struct {
    uint64_t from;
    unsigned asked;
} refuse5;

static bool check_refuse5(void *ctx, unsigned warp, const decoded_t *head, uint64_t cycle)
{
    (void)warp, (void)head;
    refuse5 *r = ctx;
    r->asked++;
    return cycle >= r->from;
}

static bool veto_refuse5(void *ctx, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    (void)warps, (void)n, (void)i;
    refuse5 *r = ctx;
    r->asked++;
    return cycle < r->from;
}

/* The first instruction can issue at t+2 (issue_push_two); the refusal holds it 5 cycles: issue at
 * t+7 exactly (got at t+8), 5 scheduler-cycles of the stall reason. Issue must not fall asleep on
 * the first refusal: no input arrives meanwhile. */
static void issue_refused_5(bool veto)
{
    harness *h = harness_new(&issue_desc, make_issue, NULL, NULL);
    refuse5 r = {0};
    static const issue_veto_if veto_table = {veto_refuse5};
    static const issue_check_if check_table = {check_refuse5};
    if (veto)
        blk_bind_stub(blk_ctx_find(harness_inst(h)->ctx, "arbiter0"), "veto", &veto_table, &r);
    else
        harness_stub(h, "check", &check_table, &r);
    redirect_t rd = issue_start_warp(h);
    decoded_t d0 = issue_decoded(&rd, 0, -1, 1), d1 = issue_decoded(&rd, 1, 1, 1);
    uint64_t t = issue_push_two(h, &d0, &d1);
    r.from = t + 2 + 5;
    issued_t it;
    g_assert_cmpuint(harness_pop_within(h, "to_exec_0", &it, 20), ==, t + 2 + 5 + 1);
    g_assert_cmpuint(it.pc, ==, 0);
    g_assert_cmpuint(r.asked, ==, 6); /* t+2 .. t+7 */
    blk_inst *in = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(in, veto ? ISSUE_STAT_STALL_VETOED : ISSUE_STAT_STALL_CHECK), ==, 5);
    g_assert_cmpuint(blk_stat_get(in, veto ? ISSUE_STAT_STALL_CHECK : ISSUE_STAT_STALL_VETOED), ==, 0);
    harness_free(h);
}

static void test_issue_check_refuses(void)
{
    issue_refused_5(false);
}

static void test_issue_veto_refuses(void)
{
    issue_refused_5(true);
}

/* ---- warp_exec (issue's register file): registers are zeroed when a CTA starts on the warp slots and
 * poisoned when it ends, so a read of a freed register returns garbage ---- */
static void test_regs_poisoned_at_cta_end(void)
{
    sm_env *env = env_get();
    unsigned regs = env->k->total_regs;
    wexec *x = wexec_new(env, 0, 4, 2);
    cta_launch_t c = {.slot = 1, .first_warp = 2, .warps = 2, .threads = 64};
    wexec_cta_start(x, &c, 0);
    uint64_t vals[IR_WARP_SIZE];
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        vals[l] = 100 + l;
    for (unsigned w = 2; w < 4; w++)
        for (unsigned r = 0; r < regs; r++) {
            g_assert_cmphex(wexec_read_slot(x, w, r, 0), ==, 0); /* zeroed at launch */
            wexec_write_slot(x, w, r, 0xffffffffu, vals, UINT64_MAX, 0);
        }
    g_assert_cmphex(wexec_read_slot(x, 3, regs - 1, 31), ==, 131);
    wexec_cta_end(x, 1, 0);
    unsigned narrow = 0;
    for (unsigned w = 2; w < 4; w++) /* freed: every lane of every register is the poison pattern */
        for (unsigned r = 0; r < regs; r++) {
            bool n = env->k->slot_at[r] & 1; /* a narrow row keeps 32 bits (kload.h) */
            narrow += n;
            for (unsigned l = 0; l < IR_WARP_SIZE; l++)
                g_assert_cmphex(wexec_read_slot(x, w, r, l), ==, n ? (uint32_t)WX_POISON : WX_POISON);
        }
    g_assert_cmpuint(narrow, >, 0);
    g_assert_cmphex((uint32_t)WX_POISON, ==, 0xdeadbeefu);
    wexec_cta_start(x, &c, 0); /* a new CTA on the same slots starts from zero again */
    for (unsigned r = 0; r < regs; r++)
        g_assert_cmphex(wexec_read_slot(x, 2, r, 5), ==, 0);
    wexec_free(x);
}

/* ---- warp_exec's value hooks (regval.h) on chain32: mov %r1, 0; 32 x add %r1, %r1, 1; ret ---- */
typedef struct {
    uint64_t calls[REGVAL_N_KINDS];
    uint32_t slot;       /* %r1's slot */
    uint64_t seen_at_11; /* the value the add at pc 11 reads */
    uint64_t last_cycle;
} chain_watch;

/* The add at pc 10 reads 1000 instead of 9: the register is overwritten before the read. */
static void hook_overwrite_pc10(void *ctx, regval_access *a)
{
    (void)ctx;
    if (a->kind == REGVAL_READ && a->pc == 10)
        for (unsigned l = 0; l < IR_WARP_SIZE; l++)
            a->v[l] = 1000;
}

static void hook_watch(void *ctx, regval_access *a)
{
    chain_watch *w = ctx;
    w->calls[a->kind]++;
    w->last_cycle = a->cycle;
    g_assert_cmpuint(a->warp, ==, 1);
    if (a->kind == REGVAL_ALLOC || a->kind == REGVAL_FREE) {
        g_assert_null(a->v);
        g_assert_cmpuint(a->slot, ==, REGVAL_NONE);
        return;
    }
    if (a->pc == REGVAL_NONE) { /* wexec_write_slot */
        g_assert_cmpuint(a->kind, ==, REGVAL_WRITE);
        g_assert_cmpuint(a->lanes, ==, 0x1);
        return;
    }
    g_assert_cmpuint(a->func, ==, env_get()->launch.entry);
    g_assert_cmpuint(a->lanes, ==, 0xffffffffu);
    w->slot = a->slot;
    if (a->kind == REGVAL_READ && a->pc == 11)
        w->seen_at_11 = a->v[7];
    if (a->kind == REGVAL_WRITE) /* the add at pc k wrote k, or 1000 + k - 9 from pc 10 on */
        g_assert_cmpuint(a->v[7], ==, a->pc < 10 ? a->pc : 1000 + a->pc - 9);
}

static void test_value_hooks(void)
{
    sm_env *env = env_get();
    wexec *x = wexec_new(env, 0, 2, 1);
    chain_watch w = {.slot = REGVAL_NONE};
    g_assert_cmpuint(wexec_add_value_hook(x, "overwrite", hook_overwrite_pc10, NULL), ==, 0);
    g_assert_cmpuint(wexec_add_value_hook(x, "watch", hook_watch, &w), ==, 1);
    cta_launch_t c = {.slot = 0, .first_warp = 1, .warps = 1, .threads = 32};
    wexec_cta_start(x, &c, 99);
    uint32_t func, pc;
    ws_info info;
    for (uint64_t cyc = 100; wexec_warp_next(x, 1, &func, &pc); cyc++)
        g_assert_cmpint(wexec_step(x, 1, cyc, cyc, &info), ==, 0);
    g_assert_cmpuint(w.last_cycle, ==, 100 + 32); /* the add at pc 32 issued at cycle 132 */
    g_assert_cmpuint(w.seen_at_11, ==, 1001);
    for (unsigned l = 0; l < IR_WARP_SIZE; l++) /* 1000 + the 23 adds from pc 10 to 32 */
        g_assert_cmpuint(wexec_read_slot(x, 1, w.slot, l), ==, 1023);
    /* a write by issue (an atomic's old values) runs the hooks too */
    uint64_t vals[IR_WARP_SIZE] = {0};
    wexec_write_slot(x, 1, w.slot, 0x1, vals, UINT64_MAX, 140);
    g_assert_cmpuint(w.last_cycle, ==, 140);
    wexec_cta_end(x, 0, 150);
    g_assert_cmpuint(w.last_cycle, ==, 150);
    g_assert_cmpuint(w.calls[REGVAL_READ], ==, 32);
    g_assert_cmpuint(w.calls[REGVAL_WRITE], ==, 33 + 1);
    g_assert_cmpuint(w.calls[REGVAL_ALLOC], ==, 1);
    g_assert_cmpuint(w.calls[REGVAL_FREE], ==, 1);
    const regval_stats *st = regval_chain_stats(wexec_value_hooks(x), 0);
    g_assert_cmpuint(st->calls[REGVAL_READ], ==, 32);
    g_assert_cmpuint(regval_chain_len(wexec_value_hooks(x)), ==, 2);
    wexec_free(x);
}

/* ---- cta_dispatch: occupancy bounds the CTAs in flight; completions free room ---- */
static void test_dispatch(void)
{
    harness *h = harness_new(&cta_dispatch_desc, make_dispatch, NULL, NULL);
    cta_dispatch *d = harness_block(h);
    sm_env *env = env_get();
    env->launch.grid[0] = 3;
    env->launch.block[0] = 1024; /* 32 warps: one CTA per 48-warp SM */
    harness_step(h);
    GString *err = g_string_new(NULL);
    g_assert_true(cta_dispatch_start(d, err));
    g_assert_cmpuint(cta_dispatch_occupancy(d)->ctas, ==, 1);
    cta_launch_t c;
    harness_pop_within(h, "cta_launch_0", &c, 10);
    g_assert_cmpuint(c.cta, ==, 0);
    g_assert_cmpuint(c.warps, ==, 32);
    harness_run(h, 5);
    g_assert_false(harness_pop(h, "cta_launch_0", &c, NULL));
    for (unsigned i = 1; i < 3; i++) {
        cta_done_t dn = {.cta = i - 1, .slot = c.slot, .warps = c.warps, .regs = c.regs};
        harness_push(h, "cta_done_0", &dn);
        harness_pop_within(h, "cta_launch_0", &c, 10);
        g_assert_cmpuint(c.cta, ==, i);
        g_assert_cmpuint(c.ctaid[0], ==, i);
    }
    g_assert_false(cta_dispatch_done(d));
    cta_done_t dn = {.cta = 2, .slot = c.slot};
    harness_push(h, "cta_done_0", &dn);
    harness_run(h, 3);
    g_assert_true(cta_dispatch_done(d));
    /* a CTA that does not fit is refused with the occupancy message */
    env->launch.regs_per_thread = 64; /* 64 x 1024 > 32768 registers */
    g_string_truncate(err, 0);
    g_assert_false(cta_dispatch_start(d, err));
    g_assert_nonnull(strstr(err->str, "registers"));
    env->launch.regs_per_thread = 8;
    g_string_free(err, TRUE);
    harness_free(h);
}

/* The SMs of a machine share the scoreboard's static tables (sm_env.sb_tables): the first
 * scoreboard made for the env's module makes them, the others use them and the last one freed frees
 * them; each keeps its own reservations. */
static scoreboard_block *second_sb;
static void *make_sb_pair(blk_ctx *c, gsc_module *p, const char *n)
{
    scoreboard_block *a = scoreboard_block_new_phys(c, p, n, 4, env_get());
    second_sb = scoreboard_block_new_phys(c, p, "scoreboard_b", 4, env_get());
    return a;
}

static void test_scoreboard_shared_tables(void)
{
    sm_env *env = env_get();
    g_assert_null(env->sb_tables);
    harness *h = harness_new(&scoreboard_desc, make_sb_pair, NULL, NULL);
    scoreboard_block *a = harness_block(h), *b = second_sb;
    g_assert_nonnull(a->tables);
    g_assert_true(b->tables == a->tables && env->sb_tables == a->tables);
    g_assert_cmpuint(a->tables->users, ==, 2);
    g_assert_true(a->map == b->map && a->ins == b->ins && a->pool == b->pool && a->funcs == b->funcs);
    /* an instruction with a destination, reserved through a's interface: a hazard in a only */
    decoded_t d;
    memset(&d, 0, sizeof d);
    while (d.pc < a->funcs[0].n_instrs && a->ins[a->funcs[0].base + d.pc].n_dst == 0)
        d.pc++;
    g_assert_cmpuint(d.pc, <, a->funcs[0].n_instrs);
    blk_iref e = harness_export(h, "sb");
    const scoreboard_if *sb = e.methods;
    g_assert_cmpuint(sb->check(e.self, 1, &d), ==, SCOREBOARD_CLEAR);
    sb->reserve(e.self, 1, &d, false);
    g_assert_cmpuint(sb->check(e.self, 1, &d) & SCOREBOARD_WAW, !=, 0);
    g_assert_cmpuint(scoreboard_reserved(a->sb, 1), >, 0);
    g_assert_cmpuint(scoreboard_reserved(b->sb, 1), ==, 0);
    scoreboard_block_free(b);
    g_assert_true(env->sb_tables == a->tables);
    g_assert_cmpuint(a->tables->users, ==, 1);
    g_assert_cmpuint(sb->check(e.self, 1, &d) & SCOREBOARD_WAW, !=, 0); /* (the tables still a's) */
    scoreboard_block_free(a);
    g_assert_null(env->sb_tables);
    harness_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/mem_fixed/latency_bandwidth", test_mem_fixed);
    harness_test_add("/sm/mem_fixed/atomic", test_mem_fixed_atomic);
    harness_test_add("/sm/mem_fixed/overlap", test_mem_fixed_overlap);
    g_test_add_func("/sm/mem_fixed/oversize", test_mem_fixed_oversize);
    harness_test_add("/sm/ldst/miss_then_hit", test_ldst_miss_then_hit);
    harness_test_add("/sm/ldst/mshr_full", test_ldst_mshr_full);
    harness_test_add("/sm/ldst/l1_disabled", test_ldst_l1_disabled);
    harness_test_add("/sm/ldst/atomic", test_ldst_atomic);
    harness_test_add("/sm/ldst/smem_conflict", test_ldst_smem_conflict);
    harness_test_add("/sm/ldst/smem_busy", test_ldst_smem_busy);
    harness_test_add("/sm/fetch/credits", test_fetch_credits);
    harness_test_add("/sm/issue/cta_and_scoreboard", test_issue_cta);
    harness_test_add("/sm/issue/source_reservations", test_issue_source_reservations);
    harness_test_add("/sm/issue/cta_cycles", test_issue_cta_cycles);
    harness_test_add("/sm/issue/check_refuses_5_cycles", test_issue_check_refuses);
    harness_test_add("/sm/issue/veto_refuses_5_cycles", test_issue_veto_refuses);
    harness_test_add("/sm/cta_dispatch/occupancy", test_dispatch);
    g_test_add_func("/sm/warp_exec/regs_poisoned_at_cta_end", test_regs_poisoned_at_cta_end);
    g_test_add_func("/sm/warp_exec/value_hooks", test_value_hooks);
    harness_test_add("/sm/scoreboard/shared_tables", test_scoreboard_shared_tables);
    return g_test_run();
}
