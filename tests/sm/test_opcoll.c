/* test_opcoll — the operand collector block (models/sm/opcoll.h) in the harness: alone, its `regfile`
 * and `units` imports stubbed (the calls it makes each cycle, in order); then with a real regfile and
 * units bound to it (bank conflicts, read reports, the register access path delaying a read). Timings
 * follow the harness rule: an item the driver puts in cycle N is seen by the block in N+1; an item the
 * block puts in cycle M is got by the driver in M+1. */
#include <glib.h>
#include <string.h>

#include "models/core/config.h"
#include "models/core/harness.h"
#include "models/sm/opcoll.h"

static issued_t alu(unsigned warp, unsigned n_src, const uint16_t *src, uint16_t dst)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)warp;
    it.cls = IR_CLASS_ALU;
    it.op = IR_OP_ADD;
    it.n_src = (uint16_t)n_src;
    it.n_bank_src = (uint8_t)n_src; /* the test's register numbers are the physical ones too */
    for (unsigned i = 0; i < n_src; i++)
        it.src[i] = it.bank_src[i] = src[i];
    it.n_dst = it.n_bank_dst = 1;
    it.dst[0] = it.bank_dst[0] = dst;
    return it;
}

/* ---- opcoll alone: stubs that log every call ("c5 W r3" = cycle 5, a write of r3) ---- */

typedef struct {
    GString *log;
    uint64_t grant_at;   /* the cycle the stub regfile grants every pending read */
    unsigned pending;    /* reads queued */
    uint64_t granted[8]; /* their collectors */
    bool pipe_free;      /* pick answers pipe 0 (else -1) */
    release_t done;      /* a result the stub units write back at done_at */
    uint64_t done_at;
} stubs;

static void s_read(void *self, unsigned coll, unsigned warp, unsigned reg, uint32_t func, uint64_t seq,
                   uint64_t now)
{
    stubs *s = self;
    (void)func, (void)seq;
    g_string_append_printf(s->log, "c%" G_GUINT64_FORMAT " R%u w%u r%u;", now, coll, warp, reg);
    s->granted[s->pending++] = coll;
}
static void s_write(void *self, unsigned warp, unsigned reg, uint32_t func, uint64_t seq, uint64_t now)
{
    stubs *s = self;
    (void)func, (void)seq;
    g_string_append_printf(s->log, "c%" G_GUINT64_FORMAT " W w%u r%u;", now, warp, reg);
}
static void s_retry(void *self, uint64_t now)
{
    (void)self, (void)now;
}
static unsigned s_arbitrate(void *self, const uint64_t **granted)
{
    stubs *s = self;
    *granted = s->granted;
    if (gsc_cycle() < s->grant_at || !s->pending)
        return 0;
    unsigned n = s->pending;
    s->pending = 0;
    g_string_append_printf(s->log, "c%" G_GUINT64_FORMAT " G%u;", gsc_cycle(), n);
    return n;
}
static unsigned s_pending(void *self)
{
    return ((stubs *)self)->pending;
}
static const regfile_if stub_rf = {s_read, s_write, s_retry, s_arbitrate, s_pending};

static int s_pick(void *self, unsigned unit, uint64_t now)
{
    stubs *s = self;
    g_string_append_printf(s->log, "c%" G_GUINT64_FORMAT " P%u;", now, unit);
    return s->pipe_free ? 0 : -1;
}
static void s_accept(void *self, int pipe, const issued_t *it, uint64_t now)
{
    stubs *s = self;
    g_string_append_printf(s->log, "c%" G_GUINT64_FORMAT " A%d w%u;", now, pipe, it->warp);
    memset(&s->done, 0, sizeof s->done);
    s->done.warp = it->warp;
    s->done.seq = it->seq;
    s->done.n_dst = s->done.n_bank_dst = 1;
    s->done.dst[0] = s->done.bank_dst[0] = it->dst[0];
    s->done_at = now + 3;
}
static unsigned s_writeback(void *self, uint64_t now, const release_t **out)
{
    stubs *s = self;
    if (!s->done_at || now < s->done_at)
        return 0;
    s->done_at = 0;
    out[0] = &s->done;
    return 1;
}
static uint64_t s_next(void *self)
{
    stubs *s = self;
    return s->done_at ? s->done_at : PIPE_NONE;
}
static const units_if stub_units = {s_pick, s_accept, s_writeback, s_next};

static void *make_opcoll(blk_ctx *c, gsc_module *p, const char *n)
{
    return opcoll_new(c, p, n);
}

/* A read granted in cycle g makes the collector dispatchable in g+1; a busy pipe keeps it waiting
 * (unit_busy); the result's write goes to regfile and its release to issue. */
static void test_alone(void)
{
    harness *h = harness_new(&opcoll_desc, make_opcoll, NULL, NULL);
    stubs s = {.log = g_string_new(NULL), .grant_at = 3, .pipe_free = false};
    harness_stub(h, "regfile", &stub_rf, &s);
    harness_stub(h, "units", &stub_units, &s);
    uint16_t src[] = {7};
    issued_t it = alu(2, 1, src, 9);
    it.seq = 42;
    harness_push(h, "in", &it); /* put 0, seen 1: read at 1, granted at 3, dispatchable 4 */
    harness_run(h, 5);          /* cycles 0..4: pick refused at 4 */
    s.pipe_free = true;         /* accepted at 5, written back at 8, release got at 9 */
    release_t r;
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 20), ==, 9);
    g_assert_cmpuint(r.seq, ==, 42);
    g_assert_cmpuint(r.dst[0], ==, 9);
    g_assert_cmpstr(s.log->str, ==, "c1 R0 w2 r7;c3 G1;c4 P0;c5 P0;c5 A0 w2;c8 W w2 r9;");
    g_assert_cmpuint(blk_stat_get(harness_inst(h), OPCOLL_STAT_UNIT_BUSY), ==, 1);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), OPCOLL_STAT_DISPATCHED), ==, 1);
    harness_free(h);
    g_string_free(s.log, TRUE);
}

/* ---- opcoll with a regfile and units bound to it ---- */

static const char *const *cluster_set; /* "section.key=value" settings of the regfile and units */
static regfile *cluster_rf;

static void *make_cluster(blk_ctx *c, gsc_module *p, const char *n)
{
    for (unsigned i = 0; cluster_set && cluster_set[i]; i++)
        g_assert_true(cfg_set((cfg *)blk_ctx_config(c), cluster_set[i], NULL));
    opcoll *o = opcoll_new(c, p, n);
    cluster_rf = regfile_new(c, p, "regfile", 0, 1, 1024, o->n_coll);
    units *u = units_new(c, p, "units");
    blk_bind(o->inst, "regfile", cluster_rf->inst, "regfile");
    blk_bind(o->inst, "units", u->inst, "units");
    return o;
}

static harness *cluster(const char *const *set)
{
    cluster_set = set;
    return harness_new(&opcoll_desc, make_cluster, NULL, NULL);
}

static const char *const two_banks[] = {"units.sp_latency=4", "regfile.banks=2", "regfile.bank_fn=reg", NULL};

static void test_latency_and_conflict(void)
{
    harness *h = cluster(two_banks);
    uint16_t one[] = {3}, same[] = {2, 4}, diff[] = {2, 3};
    issued_t it = alu(0, 1, one, 5);
    harness_push(h, "in", &it); /* put 0; seen 1 (collector, read), pipe 2, done 6, got 7 */
    release_t r;
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50), ==, 7);
    g_assert_cmpuint(r.n_dst, ==, 1);
    g_assert_cmpuint(r.dst[0], ==, 5);
    uint64_t t0 = harness_step(h);
    it = alu(0, 2, diff, 6);
    harness_push(h, "in", &it);
    uint64_t d = harness_pop_within(h, "release", &r, 50) - t0;
    t0 = harness_step(h);
    it = alu(0, 2, same, 6);
    harness_push(h, "in", &it);
    uint64_t s = harness_pop_within(h, "release", &r, 50) - t0;
    g_assert_cmpuint(s, ==, d + 1); /* two reads of one single-ported bank: one more cycle */
    g_assert_cmpuint(blk_stat_get(cluster_rf->inst, REGFILE_STAT_BANK_CONFLICTS), ==, 1);
    g_assert_cmpuint(blk_stat_get(cluster_rf->inst, REGFILE_STAT_BANK_READS), ==, 5);
    g_assert_cmpuint(blk_stat_get(cluster_rf->inst, REGFILE_STAT_BANK_WRITES), ==, 3);
    harness_free(h);
}

/* Read reports for source reservations: the cycle the last operand read is granted. */
static void test_read_report(void)
{
    harness *h = cluster(two_banks);
    uint16_t diff[] = {2, 3}, same[] = {2, 4};
    issued_t it = alu(1, 2, diff, 6);
    it.report_reads = 1;
    it.seq = 11;
    harness_push(h, "in", &it); /* put 0; seen 1: both banks grant at 1, report put 1, got 2 */
    release_t r;
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50), ==, 2);
    g_assert_true(r.reads);
    g_assert_cmpuint(r.seq, ==, 11);
    g_assert_cmpuint(r.warp, ==, 1);
    g_assert_cmpuint(r.n_src, ==, 2);
    g_assert_cmpuint(r.src[0], ==, 2);
    g_assert_cmpuint(r.src[1], ==, 3);
    /* the completion, as without the report */
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50), ==, 7);
    g_assert_false(r.reads);
    g_assert_cmpuint(r.dst[0], ==, 6);
    uint64_t t0 = harness_step(h);
    it = alu(1, 2, same, 6);
    it.report_reads = 1;
    harness_push(h, "in", &it); /* seen t0+2: one read granted, the other (same bank) at t0+3 */
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50) - t0, ==, 4);
    g_assert_true(r.reads);
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50) - t0, ==, 9);
    g_assert_false(r.reads);
    t0 = harness_step(h);
    it = alu(1, 0, NULL, 6); /* no register source: reported when the collector is allocated */
    it.report_reads = 1;
    harness_push(h, "in", &it);
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50) - t0, ==, 3);
    g_assert_true(r.reads);
    g_assert_cmpuint(r.n_src, ==, 0);
    harness_free(h);
}

/* Completions and read reports reach issue in the order they were made, whether the release FIFO
 * takes them at once (a completion put from its unit's slot) or they wait in the collector's queue
 * (the FIFO full: issue stops getting until cycle `resume`, for every resume from 0 to 14). */
static void test_release_order(void)
{
    for (unsigned resume = 0; resume <= 14; resume++) {
        harness *h = cluster(two_banks);
        harness_set_drain(h, "release", false);
        uint16_t srcs[3][2] = {{2, 3}, {4, 5}, {6, 7}};
        for (unsigned i = 0; i < 3; i++) {
            issued_t it = alu(i, 2, srcs[i], (uint16_t)(10 + i));
            it.report_reads = 1;
            it.seq = i + 1;
            harness_push(h, "in", &it);
            harness_step(h);
        }
        while (harness_step(h) < resume)
            ;
        harness_set_drain(h, "release", true);
        /* made in this order: the three reports (reads granted at 1..3), then the completions */
        static const struct {
            uint64_t seq;
            bool reads;
        } want[] = {{1, true}, {2, true}, {3, true}, {1, false}, {2, false}, {3, false}};
        for (unsigned k = 0; k < G_N_ELEMENTS(want); k++) {
            release_t r;
            harness_pop_within(h, "release", &r, 50);
            g_assert_cmpuint(r.seq, ==, want[k].seq);
            g_assert_cmpuint(r.reads, ==, want[k].reads);
            if (!r.reads)
                g_assert_cmpuint(r.dst[0], ==, 9 + r.seq);
        }
        harness_free(h);
    }
}

/* The register access path (regfile's `access` import) delays a read: a power-state wake-up. */
static rfaccess_verdict wake_reg3(void *ctx, rfaccess_req *r, unsigned *delay)
{
    (void)ctx;
    if (r->reg == 3 && !r->write) {
        *delay = 2;
        return RFACCESS_DELAY;
    }
    return RFACCESS_ALLOW;
}
static const rfaccess_hook_if wake_hook = {"wakeup", wake_reg3};

static void test_rfaccess_delay(void)
{
    harness *h = cluster(NULL);
    blk_bind_stub(cluster_rf->inst, "access", &wake_hook, NULL);
    uint16_t r2[] = {2}, r3[] = {3};
    issued_t it = alu(0, 1, r2, 5);
    harness_push(h, "in", &it); /* no hook applies: released at sp_latency + 3 = 7 */
    release_t r;
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50), ==, 7);
    uint64_t t0 = harness_step(h);
    it = alu(0, 1, r3, 5);
    harness_push(h, "in", &it); /* put at t0+1 (one cycle later than above): 8 after t0, plus the wait */
    g_assert_cmpuint(harness_pop_within(h, "release", &r, 50) - t0, ==, 8 + 2);
    g_assert_cmpuint(blk_stat_get(cluster_rf->inst, REGFILE_STAT_RF_DEFERRED), ==, 1);
    const rfaccess_chain *ch = regfile_access_chain(cluster_rf);
    g_assert_cmpuint(rfaccess_chain_len(ch), ==, 1);
    g_assert_cmpstr(rfaccess_chain_name(ch, 0), ==, "wakeup");
    /* the chain runs again when the delay is served (for its translation): the hook sees it twice */
    g_assert_cmpuint(rfaccess_chain_stats(ch, 0)->calls, ==, 5); /* reads r2, r3, r3 again; 2 writes of r5 */
    g_assert_cmpuint(rfaccess_chain_stats(ch, 0)->delays, ==, 2);
    harness_free(h);
}

/* An unbound units import is an elaboration error naming the interface. */
static void test_unbound(void)
{
    if (g_test_subprocess()) {
        gsc_init("test");
        harness *h = harness_new(&opcoll_desc, make_opcoll, NULL, NULL);
        stubs s = {.log = g_string_new(NULL)};
        harness_stub(h, "regfile", &stub_rf, &s);
        harness_step(h);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*dut.units: the import of interface units is not bound*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/opcoll/alone", test_alone);
    harness_test_add("/opcoll/latency_and_bank_conflict", test_latency_and_conflict);
    harness_test_add("/opcoll/read_report", test_read_report);
    harness_test_add("/opcoll/rfaccess_delay", test_rfaccess_delay);
    g_test_add_func("/opcoll/unbound_units", test_unbound);
    harness_test_add("/opcoll/release_order", test_release_order);
    return g_test_run();
}
