/* test_barrier — the `barrier` block alone in the harness (models/core/harness.h), called through
 * its exported `bar` interface as the issue block calls it when a warp issues bar.sync, bar.arrive or
 * bar.red, or exits: a barrier of the whole CTA completes on the last live warp's arrival; counted
 * barriers (bar.sync id, count) on the count of threads; bar.arrive counts without waiting; bar.red's
 * popc/and/or over the arriving lanes; a warp's exit completes a barrier waiting for the whole CTA;
 * named barriers and CTA slots are independent; a barrier is reusable; the statistics and the traced
 * `waiting` mask (by warp slot). */
#include <glib.h>
#include <string.h>

#include "models/sm/barrier.h"
#include "tests/sm/block_test.h"

enum { CTAS = 2 };

static void *make_bar(blk_ctx *c, gsc_module *p, const char *n)
{
    return barrier_new(c, p, n, CTAS);
}

/* The export as the block's client calls it. */
#define BAR(d) ((const barrier_if *)(d).m)

static block_dut dut_new(const char *vcd)
{
    return block_dut_new(&barrier_desc, make_bar, "bar", NULL, vcd, true);
}

/* bar.sync id[, count] by a full warp (32 threads, all active). */
static barrier_arrival sync_at(unsigned id, unsigned count)
{
    return (barrier_arrival){.id = id, .count = count, .threads = 32, .wait = true, .active = 0xffffffffu};
}

static unsigned arrive(const block_dut *d, unsigned slot, unsigned in_cta, barrier_arrival a,
                       barrier_release *rel)
{
    memset(rel, 0xa5, sizeof *rel);
    return BAR(*d)->arrive(d->self, slot, in_cta, &a, rel);
}

static uint64_t waiting_mask(const block_dut *d)
{
    return ((barrier_unit *)harness_block(d->h))->tr_waiting;
}

/* bar.sync 0 by each of the 3 warps of a CTA in warp slots 4..6: nothing completes until the last
 * arrives, which releases all three (whatever the arrival order); then the barrier is reusable. */
static void test_sync_whole_cta(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel;
    BAR(d)->cta_start(d.self, 1, 4, 3);
    g_assert_cmpuint(arrive(&d, 1, 2, sync_at(0, 0), &rel), ==, 0);
    g_assert_cmphex(waiting_mask(&d), ==, 0x40);
    g_assert_cmpuint(arrive(&d, 1, 0, sync_at(0, 0), &rel), ==, 0);
    g_assert_cmphex(waiting_mask(&d), ==, 0x50);
    g_assert_cmpuint(arrive(&d, 1, 1, sync_at(0, 0), &rel), ==, 1);
    g_assert_cmpuint(rel.id, ==, 0);
    g_assert_cmphex(rel.waiting, ==, 0x7); /* bit = warp in the CTA */
    g_assert_cmphex(waiting_mask(&d), ==, 0);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_ARRIVALS), ==, 3);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASES), ==, 1);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASED_WARPS), ==, 3);
    /* the next phase: again all three */
    g_assert_cmpuint(arrive(&d, 1, 0, sync_at(0, 0), &rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 1, 1, sync_at(0, 0), &rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 1, 2, sync_at(0, 0), &rel), ==, 1);
    g_assert_cmphex(rel.waiting, ==, 0x7);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASES), ==, 2);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASED_WARPS), ==, 6);
    harness_free(d.h);
}

/* A one-warp CTA passes its barrier at once. */
static void test_single_warp(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel;
    BAR(d)->cta_start(d.self, 0, 0, 1);
    g_assert_cmpuint(arrive(&d, 0, 0, sync_at(0, 0), &rel), ==, 1);
    g_assert_cmphex(rel.waiting, ==, 0x1);
    harness_free(d.h);
}

/* bar.sync 1, 64 in a 4-warp CTA completes when two warps (64 threads) arrived; a warp with 16
 * existing threads counts 16; the other warps never arrive. */
static void test_counted(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel;
    BAR(d)->cta_start(d.self, 0, 0, 4);
    g_assert_cmpuint(arrive(&d, 0, 3, sync_at(1, 64), &rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 0, 1, sync_at(1, 64), &rel), ==, 1);
    g_assert_cmpuint(rel.id, ==, 1);
    g_assert_cmphex(rel.waiting, ==, 0xa);
    /* 32 + 16 threads < 64: waits; + 16 more: done */
    barrier_arrival partial = sync_at(1, 64);
    partial.threads = 16;
    g_assert_cmpuint(arrive(&d, 0, 0, sync_at(1, 64), &rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 0, 2, partial, &rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 0, 3, partial, &rel), ==, 1);
    g_assert_cmphex(rel.waiting, ==, 0xd);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASES), ==, 2);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASED_WARPS), ==, 5);
    harness_free(d.h);
}

/* Producer/consumer: bar.arrive 2, 64 by warp 0 counts its threads without waiting; bar.sync 2, 64 by
 * warp 1 completes the barrier and releases warp 1 only. */
static void test_arrive_does_not_wait(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel;
    BAR(d)->cta_start(d.self, 0, 8, 2);
    barrier_arrival a = sync_at(2, 64);
    a.wait = false;
    g_assert_cmpuint(arrive(&d, 0, 0, a, &rel), ==, 0);
    g_assert_cmphex(waiting_mask(&d), ==, 0); /* warp 0 goes on */
    g_assert_cmpuint(arrive(&d, 0, 1, sync_at(2, 64), &rel), ==, 1);
    g_assert_cmpuint(rel.id, ==, 2);
    g_assert_cmphex(rel.waiting, ==, 0x2);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_ARRIVALS), ==, 2);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASED_WARPS), ==, 1);
    harness_free(d.h);
}

/* bar.red over the arriving warps' predicates: popc counts true lanes, and = every active lane of
 * every warp true, or = any lane true. */
static void test_reduction(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel;
    BAR(d)->cta_start(d.self, 0, 0, 3);
    barrier_arrival r = sync_at(0, 0);
    r.reduce = true;
    r.pred = 0x0000ffffu;
    g_assert_cmpuint(arrive(&d, 0, 0, r, &rel), ==, 0);
    r.pred = 0xffffffffu;
    g_assert_cmpuint(arrive(&d, 0, 1, r, &rel), ==, 0);
    r.pred = 0x7;
    g_assert_cmpuint(arrive(&d, 0, 2, r, &rel), ==, 1);
    g_assert_cmpuint(rel.popc, ==, 16 + 32 + 3);
    g_assert_false(rel.all);
    g_assert_true(rel.any);
    /* the same barrier again, every predicate false: popc 0, or false */
    r.pred = 0;
    for (unsigned w = 0; w < 3; w++)
        arrive(&d, 0, w, r, &rel);
    g_assert_cmpuint(rel.popc, ==, 0);
    g_assert_false(rel.all);
    g_assert_false(rel.any);
    /* and: true when every active lane is true, inactive lanes do not count */
    r.active = 0xff;
    r.pred = 0xff;
    r.threads = 8;
    for (unsigned w = 0; w < 3; w++)
        arrive(&d, 0, w, r, &rel);
    g_assert_cmpuint(rel.popc, ==, 24);
    g_assert_true(rel.all);
    g_assert_true(rel.any);
    harness_free(d.h);
}

/* Warps 0 and 1 of a 3-warp CTA wait at barrier 0 (the whole CTA); warp 2 exits: barrier 0 now has
 * every live warp and completes. In another CTA, a counted barrier (bar.sync 3, 96) is not completed
 * by an exit: it counts threads, not live warps. A warp that exited before the others arrive is not
 * waited for. */
static void test_exit_completes(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel[BARRIER_IDS], one;
    BAR(d)->cta_start(d.self, 0, 0, 3);
    BAR(d)->cta_start(d.self, 1, 3, 3);
    g_assert_cmpuint(arrive(&d, 0, 0, sync_at(0, 0), &one), ==, 0);
    g_assert_cmpuint(arrive(&d, 0, 1, sync_at(0, 0), &one), ==, 0);
    g_assert_cmpuint(arrive(&d, 1, 0, sync_at(3, 96), &one), ==, 0);
    g_assert_cmpuint(arrive(&d, 1, 1, sync_at(3, 96), &one), ==, 0);
    g_assert_cmpuint(BAR(d)->warp_exit(d.self, 0, 2, rel), ==, 1);
    g_assert_cmpuint(rel[0].id, ==, 0);
    g_assert_cmphex(rel[0].waiting, ==, 0x3);
    g_assert_cmpuint(BAR(d)->warp_exit(d.self, 1, 2, rel), ==, 0);
    g_assert_cmphex(waiting_mask(&d), ==, 0x18); /* CTA 1's warps 0 and 1 (slots 3, 4) still wait */
    g_assert_cmpuint(BAR(d)->warp_exit(d.self, 0, 1, rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 0, 0, sync_at(5, 0), &one), ==, 1); /* warp 0 is the only live one */
    g_assert_cmpuint(one.id, ==, 5);
    g_assert_cmphex(one.waiting, ==, 0x1);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASES), ==, 2);
    harness_free(d.h);
}

/* Named barriers do not count each other's arrivals, nor do two CTA slots; cta_start clears what a
 * slot's barriers held. */
static void test_independent(void)
{
    block_dut d = dut_new(NULL);
    barrier_release rel;
    BAR(d)->cta_start(d.self, 0, 0, 2);
    BAR(d)->cta_start(d.self, 1, 2, 2);
    g_assert_cmpuint(arrive(&d, 0, 0, sync_at(1, 0), &rel), ==, 0);
    g_assert_cmpuint(arrive(&d, 0, 1, sync_at(2, 0), &rel), ==, 0); /* another barrier */
    g_assert_cmpuint(arrive(&d, 1, 1, sync_at(1, 0), &rel), ==, 0); /* another CTA */
    g_assert_cmphex(waiting_mask(&d), ==, 0xb);                     /* slots 0, 1 and 3 */
    g_assert_cmpuint(arrive(&d, 1, 0, sync_at(1, 0), &rel), ==, 1);
    g_assert_cmpuint(rel.id, ==, 1);
    g_assert_cmphex(rel.waiting, ==, 0x3);
    g_assert_cmphex(waiting_mask(&d), ==, 0x3);
    /* a new CTA in slot 1 starts with clear barriers: one arrival of two does not complete */
    BAR(d)->cta_start(d.self, 1, 2, 2);
    g_assert_cmpuint(arrive(&d, 1, 0, sync_at(1, 0), &rel), ==, 0);
    g_assert_cmpuint(block_stat(&d, BARRIER_STAT_RELEASES), ==, 1);
    harness_free(d.h);
}

/* The traced `waiting` mask by warp slot (a CTA in slots 2..3), and `bar.calls`. */
static void test_traced(void)
{
    char *path = block_vcd_path();
    block_dut d = dut_new(path);
    barrier_release rel;
    uint64_t c0 = harness_step(d.h);
    BAR(d)->cta_start(d.self, 1, 2, 2);
    arrive(&d, 1, 1, sync_at(0, 0), &rel); /* seen in c0 + 1 (see at()) */
    harness_step(d.h);
    harness_step(d.h);
    arrive(&d, 1, 0, sync_at(0, 0), &rel); /* c0 + 3 */
    harness_run(d.h, 3);
    harness_free(d.h);
    vcd *v = block_vcd_load(path);
    static const uint64_t waiting[] = {0, 0x8, 0x8, 0, 0}, calls[] = {0, 2, 0, 1, 0};
    for (unsigned i = 0; i < G_N_ELEMENTS(waiting); i++) {
        g_assert_cmphex(block_vcd_at(v, "dut.waiting", c0 + i), ==, waiting[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.bar.calls", c0 + i), ==, calls[i]);
    }
    g_assert_cmpuint(block_vcd_at(v, "dut.bar.slot", c0 + 3), ==, 1);
    g_assert_cmpuint(block_vcd_at(v, "dut.bar.warp", c0 + 3), ==, 0);
    vcd_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/barrier/sync_whole_cta", test_sync_whole_cta);
    harness_test_add("/sm/barrier/single_warp", test_single_warp);
    harness_test_add("/sm/barrier/counted", test_counted);
    harness_test_add("/sm/barrier/arrive_does_not_wait", test_arrive_does_not_wait);
    harness_test_add("/sm/barrier/reduction", test_reduction);
    harness_test_add("/sm/barrier/exit_completes", test_exit_completes);
    harness_test_add("/sm/barrier/independent", test_independent);
    harness_test_add("/sm/barrier/traced", test_traced);
    return g_test_run();
}
