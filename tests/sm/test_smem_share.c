/* test_smem_share — the `smem_share` block (scratchpad sharing, resource-sharing spec §3.6, §3.8,
 * §8.1) in the harness beside a lock table, driven cycle by cycle through its exports as the issue
 * block calls them, the addresses of each warp's next instruction given by the test:
 *  - the classification at t = 1/10 of a 1000-byte CTA: offset 99 private, 100 shared (`<` as the
 *    spec writes it); an unpaired CTA is never checked;
 *  - a private access takes no lock; the first shared access at issue takes the pair's lock (the
 *    CTA's warps become owners); the partner is refused a shared offset (`waits`, `waiting`) but not
 *    a private one;
 *  - relssp (§16.9): the lock is released exactly when the last active thread sets R_i, padded
 *    lanes ignored (a CTA of 40 threads: warp 1 has 8); relssp by a CTA that does not hold the lock
 *    has no effect; after the release the partner acquires;
 *  - release at CTA exit;
 *  - with enforce=false the partner is let through and the lanes that reached the shared region
 *    read REGVAL_POISON (`violations`), the others are untouched;
 *  - the traced state (locked, released, waiting) in the VCD. */
#include <glib.h>
#include <string.h>

#include "models/lib/regval.h"
#include "models/sm/issue.h"
#include "models/sm/smem_share.h"
#include "tests/sm/block_test.h"

enum { WARPS = 8, CTAS = 4 };

/* what each warp's next instruction addresses: lanes and offsets */
static uint32_t head_lanes[WARPS];
static uint64_t head_off[WARPS];

static uint32_t peek(const void *ctx, unsigned warp, uint64_t off[IR_WARP_SIZE])
{
    (void)ctx;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        off[l] = head_off[warp];
    return head_lanes[warp];
}

static void *make_ss(blk_ctx *c, gsc_module *p, const char *n)
{
    lock_table *lt = lock_table_new(c, p, "lock_table", WARPS, CTAS);
    smem_share *s = smem_share_new(c, p, n, lt, NULL, NULL, WARPS, CTAS);
    s->peek = peek;
    return s;
}

typedef struct {
    block_dut d;
    smem_share *s;
    const issue_check_if *check;
    const instr_issued_if *issued;
    const warp_events_if *ev;
    const regval_if *value;
} rig;

static rig rig_new(const char *const *settings, const char *vcd)
{
    rig r;
    r.d = block_dut_new(&smem_share_desc, make_ss, "check", settings, vcd, true);
    r.s = harness_block(r.d.h);
    r.check = r.d.m;
    r.issued = harness_export(r.d.h, "issued").methods;
    r.ev = harness_export(r.d.h, "events").methods;
    r.value = harness_export(r.d.h, "value").methods;
    /* one unshared CTA slot, one pair; 1000 bytes per CTA at t = 1/10 */
    sharing_result res = {.active = true, .pairs = 1, .unshared = 1, .ctas = 3, .baseline = 2, .r_tb = 1000};
    lock_table_configure(r.s->lt, &res, UINT32_MAX);
    r.s->lt->t = (share_threshold){1, 10};
    return r;
}

/* CTA slot `slot` of `threads` threads on warps first.. (start or end): the lock table first, as
 * the binding order has it. */
static void cta(rig *r, unsigned slot, unsigned first, unsigned threads, bool start)
{
    cta_launch_t c = {.slot = (uint16_t)slot,
                      .first_warp = (uint16_t)first,
                      .warps = (uint16_t)((threads + 31) / 32),
                      .threads = threads};
    const warp_events_if *lev = blk_export_ref(r->s->lt->inst, LOCK_TABLE_EVENTS, 0).methods;
    if (start) {
        lev->cta_start(r->s->lt, &c, gsc_cycle());
        r->ev->cta_start(r->s, &c, gsc_cycle());
    } else {
        lev->cta_end(r->s->lt, &c, gsc_cycle());
        r->ev->cta_end(r->s, &c, gsc_cycle());
    }
}

static bool allow(rig *r, unsigned w, uint32_t lanes, uint64_t off)
{
    decoded_t h;
    memset(&h, 0, sizeof h);
    h.cls = IR_CLASS_MEM;
    h.op = IR_OP_LD;
    h.pc = 7;
    head_lanes[w] = lanes;
    head_off[w] = off;
    return r->check->allow(r->s, w, &h, gsc_cycle());
}

static void issue_mem(rig *r, unsigned w, uint32_t lanes, uint64_t off)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)w;
    it.cls = IR_CLASS_MEM;
    it.op = IR_OP_LD;
    it.pc = 7;
    it.mask = lanes;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++) {
        it.lane_space[l] = IR_SPACE_SHARED;
        it.addr[l] = off;
    }
    r->issued->issued(r->s, &it);
}

static void relssp(rig *r, unsigned w, uint32_t lanes)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)w;
    it.cls = IR_CLASS_SYNC;
    it.op = IR_OP_RELSSP;
    it.mask = lanes;
    r->issued->issued(r->s, &it);
}

static uint64_t sstat(const rig *r, unsigned i)
{
    return block_stat(&r->d, i);
}

/* Slot 0 unshared (warps 0-1), slots 1 and 2 a pair (warps 2-3 and 4-5), 40 threads each. */
static void test_lock_and_relssp(void)
{
    char *path = block_vcd_path();
    rig r = rig_new(NULL, path);
    uint64_t c0 = harness_step(r.d.h);
    cta(&r, 0, 0, 40, true);
    cta(&r, 1, 2, 40, true);
    cta(&r, 2, 4, 40, true);
    g_assert_false(smem_share_is_shared(r.s, 99));
    g_assert_true(smem_share_is_shared(r.s, 100));
    /* private: no lock */
    g_assert_true(allow(&r, 2, 0xff, 99));
    issue_mem(&r, 2, 0xff, 99);
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_ACQUIRES), ==, 0);
    /* the first shared access takes the lock; the CTA owns */
    g_assert_true(allow(&r, 2, 0xff, 500));
    issue_mem(&r, 2, 0xff, 500);
    g_assert_cmpint(lock_table_smem_holder(r.s->lt, 1), ==, 1);
    g_assert_cmpint(lock_table_smem_holder(r.s->lt, 2), ==, 1);
    g_assert_cmphex(r.s->lt->tr_owner, ==, 0x0c);
    g_assert_cmphex(r.s->tr_locked, ==, 0x2);
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_ACQUIRES), ==, 1);
    harness_step(r.d.h); /* c0 + 1 */
    /* the partner: refused shared, allowed private; the unshared CTA is never checked */
    g_assert_false(allow(&r, 4, 0x1, 100));
    g_assert_true(allow(&r, 5, 0x1, 99));
    g_assert_true(allow(&r, 0, 0x1, 900));
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_WAITS), ==, 1);
    g_assert_cmphex(r.s->tr_waiting, ==, 0x10);
    harness_step(r.d.h); /* c0 + 2 */
    /* relssp: warp 2 all lanes, warp 3 (8 active lanes) in two halves */
    relssp(&r, 2, UINT32_MAX);
    relssp(&r, 3, 0x0f);
    g_assert_cmpint(lock_table_smem_holder(r.s->lt, 1), ==, 1);
    harness_step(r.d.h); /* c0 + 3 */
    relssp(&r, 3, 0xf0); /* the last active thread; lanes 8-31 are padding */
    g_assert_cmpint(lock_table_smem_holder(r.s->lt, 1), ==, -1);
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_RELEASES), ==, 1);
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_RELSSP), ==, 3);
    g_assert_cmphex(r.s->tr_released, ==, 0x2);
    g_assert_cmphex(r.s->tr_locked, ==, 0);
    g_assert_cmphex(r.s->lt->tr_owner, ==, 0);
    g_assert_cmpint(lock_table_class(r.s->lt, 3), ==, LOCK_CLASS_UNSHARED); /* holds nothing now */
    g_assert_cmpint(lock_table_class(r.s->lt, 4), ==, LOCK_CLASS_NONOWNER);
    /* relssp by a non-holder: no effect */
    relssp(&r, 4, UINT32_MAX);
    relssp(&r, 5, 0xff);
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_RELEASES), ==, 1);
    harness_step(r.d.h); /* c0 + 4 */
    /* the partner now acquires; at its CTA's exit the lock goes */
    g_assert_true(allow(&r, 4, 0x1, 100));
    issue_mem(&r, 4, 0x1, 100);
    g_assert_cmpint(lock_table_smem_holder(r.s->lt, 1), ==, 2);
    g_assert_cmphex(r.s->tr_waiting, ==, 0);
    harness_step(r.d.h); /* c0 + 5 */
    cta(&r, 2, 4, 40, false);
    g_assert_cmpint(lock_table_smem_holder(r.s->lt, 1), ==, -1);
    g_assert_cmphex(r.s->tr_locked, ==, 0);
    harness_step(r.d.h); /* c0 + 6 */
    harness_free(r.d.h);
    vcd *v = block_vcd_load(path);
    g_assert_cmpuint(block_vcd_at(v, "dut.locked", c0 + 1), ==, 0x2);
    g_assert_cmpuint(block_vcd_at(v, "dut.waiting", c0 + 2), ==, 0x10);
    g_assert_cmpuint(block_vcd_at(v, "dut.released", c0 + 4), ==, 0x2);
    g_assert_cmpuint(block_vcd_at(v, "dut.locked", c0 + 5), ==, 0x4);
    g_assert_cmpuint(block_vcd_at(v, "dut.locked", c0 + 6), ==, 0);
    vcd_free(v);
}

/* enforce=false: the partner goes through; the lanes that reached the shared region are poisoned. */
static void test_broken_lock_poisons(void)
{
    static const char *const broken[] = {"enforce=false", NULL};
    rig r = rig_new(broken, NULL);
    harness_step(r.d.h);
    cta(&r, 0, 0, 40, true);
    cta(&r, 1, 2, 40, true);
    cta(&r, 2, 4, 40, true);
    issue_mem(&r, 2, 0x1, 500); /* CTA 1 holds */
    g_assert_true(allow(&r, 4, 0x0f, 300));
    uint64_t v[REGVAL_LANES];
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        v[l] = l;
    regval_access a = {.kind = REGVAL_WRITE, .warp = 4, .slot = 3, .func = 0, .pc = 7, .lanes = 0xff, .v = v};
    r.value->access(r.s, &a);
    for (unsigned l = 0; l < 8; l++)
        g_assert_cmphex(v[l], ==, l < 4 ? REGVAL_POISON : l);
    g_assert_cmpuint(sstat(&r, SMEM_SHARE_STAT_VIOLATIONS), ==, 4);
    /* another instruction of the warp is untouched */
    a.pc = 8;
    v[0] = 0;
    r.value->access(r.s, &a);
    g_assert_cmphex(v[0], ==, 0);
    harness_free(r.d.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/smem_share/lock-and-relssp", test_lock_and_relssp);
    harness_test_add("/smem_share/broken-lock-poisons", test_broken_lock_poisons);
    return g_test_run();
}
