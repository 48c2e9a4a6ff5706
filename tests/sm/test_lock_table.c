/* test_lock_table — the `lock_table` block alone in the harness, driven cycle by cycle through its
 * exports as the issue block and the arbiters call them (resource-sharing/GREENER spec §3, §5):
 *  - pairing at CTA start (U unshared CTAs first, then pairs; ShTB both ways, ShWarp), the access
 *    check (a private register always, a shared one while the pair's lock is free or held by the
 *    warp), acquisition at issue (Owner set for the whole CTA), a partner refused (`waits`), the
 *    deadlock rule (a warp of the other CTA refused while any warp of the owner CTA holds a lock,
 *    `deadlock_waits`; with deadlock_rule=false both CTAs hold locks: the cycle of Example 2.2.3),
 *    release at warp exit, hand-over of ownership at the owner CTA's end and the refill pairing the
 *    new CTA with the new owner;
 *  - the register value path: a value of a shared register that the partner holds is poisoned
 *    (0xDEADBEEF, `violations`), a held or private one untouched;
 *  - the traced state (shsm, shwarp, owner, locks, waiting, partner_<i>) in the VCD, by cycle;
 *  - §5.2's cycle-exact example (source Fig. 2.9): three warps U (unshared), O (owner) and N
 *    (non-owner) run I1 = mov R1, I2 = ld R2, I3 = add R3, R2, R1 (R1 private, R2 and R3 shared;
 *    mov/add 1 cycle, ld 5), one issue per cycle; the arbiter's `oldest` order with the block's veto
 *    gives U 7 / O 9 / N 15 under owf_order=unshared_first and O 7 / U 9 / N 13 under owner_first,
 *    the spec's issue traces cycle by cycle. */
#include <glib.h>
#include <string.h>

#include "models/lib/policy.h"
#include "models/lib/regval.h"
#include "models/sm/arbiter.h"
#include "models/sm/issue.h"
#include "models/sm/lock_table.h"
#include "tests/sm/block_test.h"

enum { WARPS = 8, CTAS = 4 };

static void *make_lt(blk_ctx *c, gsc_module *p, const char *n)
{
    return lock_table_new(c, p, n, WARPS, CTAS);
}

typedef struct {
    block_dut d;
    lock_table *lt;
    const issue_check_if *check;
    const instr_issued_if *issued;
    const warp_events_if *ev;
    const regval_if *value;
    const issue_veto_if *veto;
} rig;

static rig rig_new(const char *const *settings, const char *vcd)
{
    rig r;
    r.d = block_dut_new(&lock_table_desc, make_lt, "check", settings, vcd, true);
    r.lt = harness_block(r.d.h);
    r.check = r.d.m;
    r.issued = harness_export(r.d.h, "issued").methods;
    r.ev = harness_export(r.d.h, "events").methods;
    r.value = harness_export(r.d.h, "value").methods;
    r.veto = harness_export(r.d.h, "veto").methods;
    return r;
}

static void configure(rig *r, unsigned unshared, unsigned pairs, unsigned private_regs)
{
    sharing_result s = {.active = true, .pairs = pairs, .unshared = unshared};
    s.ctas = unshared + 2 * pairs;
    s.baseline = unshared + pairs;
    lock_table_configure(r->lt, &s, private_regs);
}

static void cta(rig *r, unsigned slot, unsigned first, unsigned warps, bool start)
{
    cta_launch_t c = {.slot = (uint16_t)slot, .first_warp = (uint16_t)first, .warps = (uint16_t)warps};
    if (start)
        r->ev->cta_start(r->lt, &c, gsc_cycle());
    else
        r->ev->cta_end(r->lt, &c, gsc_cycle());
}

/* An instruction reading src (SM_NO_REG: none) and writing dst. */
static decoded_t instr(unsigned src, unsigned dst)
{
    decoded_t h;
    memset(&h, 0, sizeof h);
    if (src != SM_NO_REG)
        h.src[h.n_src++] = (uint16_t)src;
    if (dst != SM_NO_REG)
        h.dst[h.n_dst++] = (uint16_t)dst;
    return h;
}

static bool allow(rig *r, unsigned w, unsigned src, unsigned dst)
{
    decoded_t h = instr(src, dst);
    return r->check->allow(r->lt, w, &h, gsc_cycle());
}

static void issue_it(rig *r, unsigned w, unsigned src, unsigned dst)
{
    decoded_t h = instr(src, dst);
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = (uint16_t)w;
    it.n_src = h.n_src;
    it.n_dst = h.n_dst;
    memcpy(it.src, h.src, sizeof h.src);
    memcpy(it.dst, h.dst, sizeof it.dst);
    r->issued->issued(r->lt, &it);
}

static uint64_t lt_stat(const rig *r, unsigned i)
{
    return block_stat(&r->d, i);
}

/* One unshared CTA (warps 0-1) and a pair (warps 2-3, 4-5); 2 private registers per thread. */
static void test_pairing_and_locks(void)
{
    char *path = block_vcd_path();
    rig r = rig_new(NULL, path);
    configure(&r, 1, 1, 2);
    uint64_t c0 = harness_step(r.d.h);
    cta(&r, 0, 0, 2, true);
    cta(&r, 1, 2, 2, true);
    cta(&r, 2, 4, 2, true);
    g_assert_cmpuint(r.lt->shtb[0], ==, LOCK_TABLE_NONE);
    g_assert_cmpuint(r.lt->shtb[1], ==, 2);
    g_assert_cmpuint(r.lt->shtb[2], ==, 1);
    g_assert_cmphex(r.lt->tr_shwarp, ==, 0x3c);
    g_assert_cmpint(lock_table_partner_warp(r.lt, 3), ==, 5);
    g_assert_cmpint(lock_table_partner_warp(r.lt, 0), ==, -1);
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_PAIRED), ==, 2);
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_UNSHARED), ==, 1);
    /* an unshared warp and private registers pass; register slot 2 (#3) is shared */
    g_assert_true(allow(&r, 0, 7, 6));
    g_assert_true(allow(&r, 4, 0, 1));
    g_assert_true(allow(&r, 2, 2, SM_NO_REG));
    harness_step(r.d.h); /* c0 + 1 */
    issue_it(&r, 2, 2, SM_NO_REG);
    g_assert_cmpint(lock_table_holder(r.lt, 4), ==, 2);
    g_assert_cmphex(r.lt->tr_owner, ==, 0x0c); /* the whole CTA owns */
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_ACQUIRES), ==, 1);
    harness_step(r.d.h);                        /* c0 + 2 */
    g_assert_false(allow(&r, 4, SM_NO_REG, 3)); /* its partner holds the pair's lock */
    g_assert_false(allow(&r, 5, 5, SM_NO_REG)); /* free lock, but the deadlock rule */
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_WAITS), ==, 2);
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_DEADLOCK_WAITS), ==, 1);
    g_assert_true(allow(&r, 3, 5, SM_NO_REG)); /* the owner CTA's other warp may */
    issue_it(&r, 3, 5, SM_NO_REG);
    harness_step(r.d.h); /* c0 + 3 */
    r.ev->warp_end(r.lt, 2, 1, gsc_cycle());
    g_assert_cmpint(lock_table_holder(r.lt, 4), ==, -1);
    g_assert_false(allow(&r, 4, 3, SM_NO_REG)); /* warp 3 still holds a lock: the rule */
    r.ev->warp_end(r.lt, 3, 1, gsc_cycle());
    g_assert_true(allow(&r, 4, 3, SM_NO_REG));
    harness_step(r.d.h); /* c0 + 4 */
    /* the owner CTA ends: its partner becomes the owner; a new CTA in slot 1 joins it */
    cta(&r, 1, 2, 2, false);
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_HANDOVERS), ==, 1);
    g_assert_cmphex(r.lt->tr_owner, ==, 0x30);
    g_assert_cmpuint(r.lt->shtb[2], ==, LOCK_TABLE_NONE);
    harness_step(r.d.h); /* c0 + 5 */
    cta(&r, 1, 2, 2, true);
    g_assert_cmpuint(r.lt->shtb[2], ==, 1);
    g_assert_cmpuint(r.lt->shtb[1], ==, 2);
    g_assert_cmpuint(lock_table_class(r.lt, 4), ==, LOCK_CLASS_OWNER);
    g_assert_cmpuint(lock_table_class(r.lt, 2), ==, LOCK_CLASS_NONOWNER);
    g_assert_cmpuint(lock_table_class(r.lt, 0), ==, LOCK_CLASS_UNSHARED);
    issue_it(&r, 4, 3, SM_NO_REG);
    harness_step(r.d.h); /* c0 + 6 */
    g_assert_false(allow(&r, 2, 3, SM_NO_REG));
    harness_run(r.d.h, 2);
    harness_free(r.d.h);

    vcd *v = block_vcd_load(path);
    /* what the calls between two steps change shows from the next cycle (block_vcd_at) */
    static const uint64_t locks[] = {0, 0x4, 0xc, 0, 0, 0x10, 0x10, 0x10};
    static const uint64_t owner[] = {0, 0xc, 0xc, 0xc, 0x30, 0x30, 0x30, 0x30};
    static const uint64_t waiting[] = {0, 0, 0x30, 0x20, 0x20, 0x20, 0x24, 0x24};
    static const uint64_t partner2[] = {1, 1, 1, 1, 255, 1, 1, 1};
    for (unsigned i = 0; i < G_N_ELEMENTS(locks); i++) {
        g_assert_cmphex(block_vcd_at(v, "dut.locks", c0 + 1 + i), ==, locks[i]);
        g_assert_cmphex(block_vcd_at(v, "dut.owner", c0 + 1 + i), ==, owner[i]);
        g_assert_cmphex(block_vcd_at(v, "dut.waiting", c0 + 1 + i), ==, waiting[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.partner_2", c0 + 1 + i), ==, partner2[i]);
    }
    g_assert_cmpuint(block_vcd_at(v, "dut.shsm", c0 + 1), ==, 1);
    g_assert_cmphex(block_vcd_at(v, "dut.shwarp", c0 + 1), ==, 0x3c);
    vcd_free(v);
}

/* Example 2.2.3's hazard: without the rule, warp 2 (CTA 1) and warp 5 (CTA 2) both take a lock,
 * each CTA then waits on the other's; with it, the second is refused. */
static void test_deadlock_rule_off(void)
{
    static const char *const off[] = {"deadlock_rule=false", NULL};
    rig r = rig_new(off, NULL);
    configure(&r, 0, 1, 0);
    harness_step(r.d.h);
    cta(&r, 0, 0, 2, true);
    cta(&r, 1, 2, 2, true);
    issue_it(&r, 0, 1, SM_NO_REG);
    g_assert_true(allow(&r, 3, 1, SM_NO_REG));
    issue_it(&r, 3, 1, SM_NO_REG);
    g_assert_cmphex(r.lt->tr_locks, ==, 0x9);   /* W1 holds (W1,W3), W4 holds (W2,W4) */
    g_assert_false(allow(&r, 1, 1, SM_NO_REG)); /* W2 waits on W4 ... */
    g_assert_false(allow(&r, 2, 1, SM_NO_REG)); /* ... and W3 on W1: with a barrier, a cycle */
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_DEADLOCK_WAITS), ==, 0);
    harness_free(r.d.h);
    rig s = rig_new(NULL, NULL);
    configure(&s, 0, 1, 0);
    harness_step(s.d.h);
    cta(&s, 0, 0, 2, true);
    cta(&s, 1, 2, 2, true);
    issue_it(&s, 0, 1, SM_NO_REG);
    g_assert_false(allow(&s, 3, 1, SM_NO_REG)); /* the rule: CTA 0 holds a lock */
    harness_free(s.d.h);
}

/* The value path: the partner's shared register is poisoned; the holder's and private ones are not. */
static void test_value_poison(void)
{
    static const char *const broken[] = {"enforce=false", NULL};
    rig r = rig_new(broken, NULL);
    configure(&r, 0, 1, 1);
    harness_step(r.d.h);
    cta(&r, 0, 0, 1, true);
    cta(&r, 1, 1, 1, true);
    g_assert_true(allow(&r, 1, 4, SM_NO_REG)); /* broken: never refuses */
    issue_it(&r, 0, 4, SM_NO_REG);
    issue_it(&r, 1, 4, SM_NO_REG); /* lets the partner through: no acquisition */
    uint64_t v[REGVAL_LANES];
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        v[l] = l;
    regval_access a = {.kind = REGVAL_READ, .warp = 0, .slot = 4, .lanes = 0xffffffffu, .v = v};
    r.value->access(r.lt, &a); /* the holder */
    a.warp = 1;
    a.slot = 0;
    r.value->access(r.lt, &a); /* a private register */
    g_assert_cmphex(v[3], ==, 3);
    a.slot = 4;
    a.kind = REGVAL_WRITE;
    r.value->access(r.lt, &a); /* the loser */
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        g_assert_cmphex(v[l], ==, REGVAL_POISON);
    g_assert_cmpuint(lt_stat(&r, LOCK_TABLE_STAT_VIOLATIONS), ==, 1);
    harness_free(r.d.h);
}

/* ---- §5.2: the cycle-exact OWF example ---- */
static bool veto_fn(void *ctx, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    rig *r = ctx;
    return r->veto->veto(r->lt, w, n, i, cycle);
}

/* Runs U (warp 0, unshared CTA 0), O (warp 1, CTA 1) and N (warp 2, CTA 2, O's partner); returns the
 * trace "c:W-In ..." and the finish cycles. */
static char *run_fig29(const char *order, unsigned finish[3])
{
    char setting[64];
    snprintf(setting, sizeof setting, "owf_order=%s", order);
    const char *const settings[] = {setting, NULL};
    rig r = rig_new(settings, NULL);
    configure(&r, 1, 1, 1); /* R1 = slot 0 private; R2 = slot 1, R3 = slot 2 shared */
    harness_step(r.d.h);
    cta(&r, 0, 0, 1, true);
    cta(&r, 1, 1, 1, true);
    cta(&r, 2, 2, 1, true);
    issue_it(&r, 1, SM_NO_REG, 1); /* O holds R2/R3 from cycle 1 */
    static const unsigned src[3][2] = {{SM_NO_REG, SM_NO_REG}, {SM_NO_REG, SM_NO_REG}, {1, 0}};
    static const unsigned dst[3] = {0, 1, 2}, lat[3] = {1, 5, 1};
    static const char names[3] = {'U', 'O', 'N'};
    unsigned pc[3] = {0, 0, 0};
    uint64_t ready_at[3][3] = {{0}}; /* [warp][register slot]: the first cycle a reader may issue */
    policy *pol = policy_new("oldest", NULL);
    policy_add_veto(pol, veto_fn, &r);
    GString *trace = g_string_new(NULL);
    for (uint64_t c = 1; c <= 30 && (pc[0] < 3 || pc[1] < 3 || pc[2] < 3); c++) {
        policy_warp pw[3];
        for (unsigned w = 0; w < 3; w++) {
            pw[w] = (policy_warp){.id = w, .age = w, .last_issue = POLICY_NEVER_ISSUED};
            if (pc[w] >= 3)
                continue;
            unsigned i = pc[w];
            bool sb = true;
            for (unsigned k = 0; k < 2; k++)
                if (src[i][k] != SM_NO_REG && ready_at[w][src[i][k]] > c)
                    sb = false;
            decoded_t h = instr(src[i][0], dst[i]);
            if (src[i][1] != SM_NO_REG)
                h.src[h.n_src++] = (uint16_t)src[i][1];
            pw[w].ready = sb && r.check->allow(r.lt, w, &h, c);
        }
        unsigned out[3];
        if (policy_order(pol, pw, 3, c, out) == 0)
            continue;
        unsigned w = out[0], i = pc[w];
        g_string_append_printf(trace, "%s%" G_GUINT64_FORMAT ":%c-I%u", trace->len ? " " : "", c, names[w],
                               i + 1);
        issue_it(&r, w, src[i][0], dst[i]);
        ready_at[w][dst[i]] = c + lat[i];
        if (++pc[w] == 3) { /* finishes when its last instruction issues: its locks go */
            finish[w] = (unsigned)c;
            r.ev->warp_end(r.lt, w, w, c);
        }
    }
    policy_free(pol);
    harness_free(r.d.h);
    return g_string_free(trace, FALSE);
}

static void test_owf_fig29(void)
{
    unsigned f[3] = {0};
    char *t = run_fig29("unshared_first", f);
    g_assert_cmpstr(t, ==, "1:U-I1 2:U-I2 3:O-I1 4:O-I2 5:N-I1 7:U-I3 9:O-I3 10:N-I2 15:N-I3");
    g_assert_cmpuint(f[0], ==, 7);
    g_assert_cmpuint(f[1], ==, 9);
    g_assert_cmpuint(f[2], ==, 15);
    g_free(t);
    t = run_fig29("owner_first", f);
    g_assert_cmpstr(t, ==, "1:O-I1 2:O-I2 3:U-I1 4:U-I2 5:N-I1 7:O-I3 8:N-I2 9:U-I3 13:N-I3");
    g_assert_cmpuint(f[1], ==, 7);
    g_assert_cmpuint(f[0], ==, 9);
    g_assert_cmpuint(f[2], ==, 13);
    g_free(t);
}

static void *make_lt96(blk_ctx *c, gsc_module *p, const char *n)
{
    return lock_table_new(c, p, n, 96, CTAS);
}

/* On 96 warp slots (the 96-slot SM tb-sharing runs), the warps above 63 are traced in the
 * _hi masks: a pair on warps 64-65 and 94-95, the lock taken by warp 95. */
static void test_trace_hi(void)
{
    char *path = block_vcd_path();
    block_dut d = block_dut_new(&lock_table_desc, make_lt96, "check", NULL, path, true);
    lock_table *lt = harness_block(d.h);
    const warp_events_if *ev = harness_export(d.h, "events").methods;
    const instr_issued_if *issued = harness_export(d.h, "issued").methods;
    sharing_result s = {.active = true, .pairs = 1, .unshared = 0, .ctas = 2, .baseline = 1};
    lock_table_configure(lt, &s, 1);
    uint64_t c0 = harness_step(d.h);
    cta_launch_t a = {.slot = 0, .first_warp = 64, .warps = 2}, b = {.slot = 1, .first_warp = 94, .warps = 2};
    ev->cta_start(lt, &a, gsc_cycle());
    ev->cta_start(lt, &b, gsc_cycle());
    issued_t it;
    memset(&it, 0, sizeof it);
    it.warp = 95;
    it.n_src = 1;
    it.src[0] = 5; /* shared */
    issued->issued(lt, &it);
    g_assert_cmphex(lt->tr_shwarp, ==, 0);
    harness_step(d.h);
    harness_free(d.h);
    vcd *v = block_vcd_load(path);
    g_assert_cmphex(block_vcd_at(v, "dut.shwarp_hi", c0 + 1), ==, 0xc0000003ull);
    g_assert_cmphex(block_vcd_at(v, "dut.locks_hi", c0 + 1), ==, 0x80000000ull);
    g_assert_cmphex(block_vcd_at(v, "dut.owner_hi", c0 + 1), ==, 0xc0000000ull);
    vcd_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/lock_table/pairing_and_locks", test_pairing_and_locks);
    harness_test_add("/sm/lock_table/deadlock_rule_off", test_deadlock_rule_off);
    harness_test_add("/sm/lock_table/value_poison", test_value_poison);
    harness_test_add("/sm/lock_table/owf_fig29", test_owf_fig29);
    harness_test_add("/sm/lock_table/trace_hi", test_trace_hi);
    return g_test_run();
}
