/* test_spu_ctl — the `spu_ctl` block (models/spu/spu_ctl.h), the SPU grid's controller, alone in the
 * harness and driven cycle by cycle through its `bs` export, its `release` and `cbs` imports
 * stubbed (SPU spec §15 UT-3, producer-consumer sync): 2 x 2 SMs, CB pair 0 between SM 0 (east)
 * and SM 1 (west), pair 1 between SM 0 (south) and SM 2 (north). A pair completes when both sides
 * have arrived, whatever their order; `latency` cycles after the second arrival both are released
 * and only that pair swaps, the other pair (one side waiting) neither swaps nor releases; the n-th
 * east sync meets the n-th west sync; the counters. */
#include <glib.h>

#include "kernels/frontend/spu_isa.h"
#include "models/core/harness.h"
#include "models/spu/spu_cb.h"
#include "models/spu/spu_ctl.h"

static void *make_ctl(blk_ctx *c, gsc_module *p, const char *n)
{
    spu_ctl *ctl = spu_ctl_new(c, p, n, NULL, 2, 0, 2);
    spu_ctl_set_pair(ctl, 0, SPU_DIR_EAST, 0, 0);
    spu_ctl_set_pair(ctl, 1, SPU_DIR_WEST, 0, 1);
    spu_ctl_set_pair(ctl, 0, SPU_DIR_SOUTH, 1, 0);
    spu_ctl_set_pair(ctl, 2, SPU_DIR_NORTH, 1, 1);
    return ctl;
}

/* the release cycle of each unit's releases, in order; swaps per pair and their cycles */
typedef struct {
    unsigned unit;
    uint64_t released[8];
    unsigned n;
} unit_stub;
typedef struct {
    uint64_t swapped[8];
    unsigned n;
} pair_stub;

static void stub_release(void *self, unsigned slot)
{
    unit_stub *u = self;
    g_assert_cmpuint(slot, ==, 7 + u->unit);
    u->released[u->n++] = gsc_cycle();
}
static const blocksync_release_if release_table = {stub_release};

static uint8_t *stub_half(void *self, bool write, unsigned words, uint64_t *bytes)
{
    (void)self, (void)write, (void)words;
    *bytes = 0;
    return NULL;
}
static void stub_swap(void *self)
{
    pair_stub *p = self;
    p->swapped[p->n++] = gsc_cycle();
}
static const spu_cb_if cb_table = {stub_half, stub_swap, NULL};

static void test_pair_sync(void)
{
    harness *h = harness_new(&spu_ctl_desc, make_ctl, (const char *const[]){"latency=2", NULL}, NULL);
    unit_stub u[4] = {{.unit = 0}, {.unit = 1}, {.unit = 2}, {.unit = 3}};
    pair_stub pr[2] = {{.n = 0}};
    for (unsigned i = 0; i < 4; i++)
        harness_stub(h, "release", &release_table, &u[i]);
    for (unsigned i = 0; i < 2; i++)
        harness_stub(h, "cbs", &cb_table, &pr[i]);
    blk_iref bs = harness_export(h, "bs");
    const blocksync_if *b = bs.methods;
    /* cycle 2: SM 0 east; cycle 5: SM 1 west (the pair completes); SM 0 south in 3, SM 2 north
     * only in 12: pair 1 waits meanwhile */
    uint64_t c;
    while ((c = harness_step(h)) < 2)
        ;
    b->arrive(bs.self, 0, 7, SPU_DIR_EAST);
    while ((c = harness_step(h)) < 5)
        ;
    uint64_t t1 = gsc_cycle(); /* the cycle of the second arrival */
    b->arrive(bs.self, 1, 8, SPU_DIR_WEST);
    while ((c = harness_step(h)) < 10)
        ;
    /* released latency = 2 cycles after the second arrival, only pair 0 swapped */
    g_assert_cmpuint(u[0].n, ==, 1);
    g_assert_cmpuint(u[1].n, ==, 1);
    g_assert_cmpuint(u[0].released[0], ==, t1 + 2);
    g_assert_cmpuint(u[1].released[0], ==, t1 + 2);
    g_assert_cmpuint(pr[0].n, ==, 1);
    g_assert_cmpuint(pr[0].swapped[0], ==, t1 + 2);
    g_assert_cmpuint(pr[1].n, ==, 0);
    /* pair 1: the consumer first this time (SM 2 north in 10), the producer (SM 0 south) in 12 */
    b->arrive(bs.self, 2, 9, SPU_DIR_NORTH);
    while ((c = harness_step(h)) < 12)
        ;
    g_assert_cmpuint(pr[1].n, ==, 0);
    g_assert_cmpuint(u[2].n, ==, 0);
    uint64_t t2 = gsc_cycle();
    b->arrive(bs.self, 0, 7, SPU_DIR_SOUTH);
    while ((c = harness_step(h)) < 20)
        ;
    g_assert_cmpuint(pr[1].n, ==, 1);
    g_assert_cmpuint(pr[1].swapped[0], ==, t2 + 2);
    g_assert_cmpuint(u[2].n, ==, 1);
    g_assert_cmpuint(u[2].released[0], ==, t2 + 2);
    g_assert_cmpuint(u[0].n, ==, 2);
    g_assert_cmpuint(u[0].released[1], ==, t2 + 2);
    g_assert_cmpuint(pr[0].n, ==, 1); /* pair 0 untouched by pair 1's sync */
    g_assert_cmpuint(u[3].n, ==, 0);
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(inst, SPU_CTL_STAT_PAIR_SYNCS), ==, 2);
    g_assert_cmpuint(blk_stat_get(inst, SPU_CTL_STAT_ARRIVALS), ==, 4);
    g_assert_cmpuint(blk_stat_get(inst, SPU_CTL_STAT_ROUNDS), ==, 0);
    harness_free(h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/spu_ctl/pair_sync", test_pair_sync);
    return g_test_run();
}
