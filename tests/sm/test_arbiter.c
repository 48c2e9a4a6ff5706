/* test_arbiter — the `arbiter` block alone in the harness (models/core/harness.h), called through its
 * exported `arb` interface as the issue block calls it, with its `veto` import stubbed: the order of
 * a given list of warps under arbiter.policy = gto, lrr and oldest (the rules of models/lib/policy.h),
 * vetoes striking candidates (in binding order), static warp limiting (arbiter.swl), stable(), the
 * statistics and the traced grant pulse and stall reason. */
#include <glib.h>
#include <string.h>

#include "models/sm/arbiter.h"
#include "tests/sm/block_test.h"

static void *make_arb(blk_ctx *c, gsc_module *p, const char *n)
{
    return arbiter_new(c, p, n);
}

/* The list the tests order (index: id, age, last issue, ready):
 *   0: warp 7, age 30, never issued
 *   1: warp 2, age 10, issued at 50 (the last one issued)
 *   2: warp 5, age 0,  issued at 40
 *   3: warp 1, age 20, never issued
 *   4: warp 3, age 5,  never issued, not ready */
enum { N = 5 };
static void warps_init(policy_warp *w)
{
    static const struct {
        unsigned id;
        uint64_t age;
        int64_t last;
        bool ready;
    } t[N] = {{7, 30, POLICY_NEVER_ISSUED, true},
              {2, 10, 50, true},
              {5, 0, 40, true},
              {1, 20, POLICY_NEVER_ISSUED, true},
              {3, 5, POLICY_NEVER_ISSUED, false}};
    memset(w, 0, N * sizeof *w);
    for (unsigned i = 0; i < N; i++) {
        w[i].id = t[i].id;
        w[i].age = t[i].age;
        w[i].last_issue = t[i].last;
        w[i].ready = t[i].ready;
    }
}

/* The harness with settings; the first step (elaboration, which asks the vetoes) is left to the
 * caller, after its stubs. */
/* The export as the block's client calls it. */
#define ARB(d) ((const arbiter_if *)(d).m)

static block_dut dut_new(const char *const *settings, const char *vcd)
{
    return block_dut_new(&arbiter_desc, make_arb, "arb", settings, vcd, false);
}

/* Orders the test's list (with `ready` of index `not_ready` cleared, if < N) and compares. */
/* The test's list, with `ready` of index `not_ready` cleared (if < N). */
static void warps_except(policy_warp *w, unsigned not_ready)
{
    warps_init(w);
    if (not_ready < N)
        w[not_ready].ready = false;
}

static void expect_order(const block_dut *d, unsigned not_ready, const unsigned *want, unsigned n_want)
{
    policy_warp w[N];
    warps_except(w, not_ready);
    unsigned out[N];
    unsigned k = ARB(*d)->order(d->self, w, N, 100, out);
    g_assert_cmpuint(k, ==, n_want);
    for (unsigned i = 0; i < k; i++)
        g_assert_cmpuint(out[i], ==, want[i]);
}

/* first() on the same list: order()'s count and first candidate. */
static void expect_first(const block_dut *d, unsigned not_ready, const unsigned *want, unsigned n_want)
{
    policy_warp w[N];
    warps_except(w, not_ready);
    unsigned best[N];
    g_assert_cmpuint(ARB(*d)->first(d->self, w, N, 100, best), ==, n_want);
    if (n_want)
        g_assert_cmpuint(best[0], ==, want[0]);
}

static void policy_orders(const char *policy, const unsigned *all, unsigned n_all, const unsigned *no1,
                          unsigned n_no1)
{
    const char *set[] = {policy, NULL};
    block_dut d = dut_new(set, NULL);
    harness_step(d.h);
    g_assert_true(ARB(d)->stable(d.self)); /* no veto, a stable class */
    expect_order(&d, N, all, n_all);
    expect_order(&d, 1, no1, n_no1); /* the last issued warp not ready */
    expect_first(&d, N, all, n_all);
    expect_first(&d, 1, no1, n_no1);
    harness_free(d.h);
}

/* gto: the last issued warp (index 1) while ready, then the ready ones oldest first (age 0, 20, 30). */
static void test_gto(void)
{
    static const unsigned all[] = {1, 2, 3, 0}, no1[] = {2, 3, 0};
    policy_orders("policy=gto", all, 4, no1, 3);
}

/* lrr: by warp id starting after the last issued warp (id 2): ids 3 (not ready), 5, 7, 1, 2; without
 * index 1 ready the start is the same (the last issued warp is listed, ready or not). */
static void test_lrr(void)
{
    static const unsigned all[] = {2, 0, 3, 1}, no1[] = {2, 0, 3};
    policy_orders("policy=lrr", all, 4, no1, 3);
}

/* oldest: by age (0, 10, 20, 30; age 5 is not ready), whatever was issued last. */
static void test_oldest(void)
{
    static const unsigned all[] = {2, 1, 3, 0}, no1[] = {2, 3, 0};
    policy_orders("policy=oldest", all, 4, no1, 3);
}

/* The default is gto; no ready warp lists nothing. */
static void test_default_and_none_ready(void)
{
    block_dut d = dut_new(NULL, NULL);
    harness_step(d.h);
    static const unsigned all[] = {1, 2, 3, 0};
    expect_order(&d, N, all, 4);
    policy_warp w[N];
    warps_init(w);
    for (unsigned i = 0; i < N; i++)
        w[i].ready = false;
    unsigned out[N];
    g_assert_cmpuint(ARB(d)->order(d.self, w, N, 100, out), ==, 0);
    harness_free(d.h);
}

/* A stub veto striking the warp with a given id; it counts the candidates it is asked about and
 * records the cycle it was given. */
typedef struct {
    unsigned strike_id, asked;
    uint64_t cycle;
} striker;

static bool strike(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    striker *s = self;
    g_assert_cmpuint(n, ==, N);
    s->asked++;
    s->cycle = cycle;
    return warps[i].id == s->strike_id;
}

/* Two vetoes on the `veto` import (MULTI), asked in binding order for each candidate the policy
 * lists: the first strikes warp 5 (index 2), the second warp 7 (index 0); the second is not asked
 * about a candidate the first struck. A veto makes the order unstable. Striking every candidate
 * lists none: an empty order, counted in empty_orders; a list without a ready warp is not. */
static void test_vetoes(void)
{
    block_dut d = dut_new(NULL, NULL);
    static const issue_veto_if table = {.veto = strike};
    striker s1 = {.strike_id = 5}, s2 = {.strike_id = 7};
    harness_stub(d.h, "veto", &table, &s1);
    harness_stub(d.h, "veto", &table, &s2);
    harness_step(d.h);
    g_assert_false(ARB(d)->stable(d.self));
    static const unsigned want[] = {1, 3};
    expect_order(&d, N, want, 2);
    g_assert_cmpuint(s1.asked, ==, 4); /* gto listed 1, 2, 3, 0 */
    g_assert_cmpuint(s2.asked, ==, 3); /* not about index 2 */
    g_assert_cmpuint(s1.cycle, ==, 100);
    g_assert_cmpuint(block_stat(&d, ARBITER_STAT_EMPTY), ==, 0);
    /* only warps 5 and 7 ready: both struck */
    policy_warp w[N];
    warps_init(w);
    w[1].ready = w[3].ready = false;
    unsigned out[N];
    g_assert_cmpuint(ARB(d)->order(d.self, w, N, 101, out), ==, 0);
    g_assert_cmpuint(block_stat(&d, ARBITER_STAT_EMPTY), ==, 1);
    /* no warp ready (an unstable arbiter is asked then too): an empty order, but no refusal */
    w[0].ready = w[2].ready = false;
    g_assert_cmpuint(ARB(d)->order(d.self, w, N, 102, out), ==, 0);
    g_assert_cmpuint(block_stat(&d, ARBITER_STAT_EMPTY), ==, 1);
    harness_free(d.h);
}

/* swl=N: only the N oldest listed warps (ready or not) may issue. The two oldest are indices 2 (age
 * 0) and 4 (age 5, not ready): only index 2 is a candidate; with swl=3 index 1 (age 10) too, first
 * as the last issued (gto). */
static void test_swl(void)
{
    const char *set2[] = {"swl=2", NULL}, *set3[] = {"swl=3", "policy=gto", NULL};
    block_dut d = dut_new(set2, NULL);
    harness_step(d.h);
    g_assert_false(ARB(d)->stable(d.self));
    static const unsigned want2[] = {2};
    expect_order(&d, N, want2, 1);
    harness_free(d.h);
    d = dut_new(set3, NULL);
    harness_step(d.h);
    static const unsigned want3[] = {1, 2};
    expect_order(&d, N, want3, 2);
    harness_free(d.h);
}

/* two_level_active keeps state between orders: not stable. */
static void test_two_level_unstable(void)
{
    const char *set[] = {"policy=two_level_active:2", NULL};
    block_dut d = dut_new(set, NULL);
    harness_step(d.h);
    g_assert_false(ARB(d)->stable(d.self));
    harness_free(d.h);
}

/* outcome: a grant counts in `grants` and shows as a 1 on the `grants` pulse in its cycle (0 in the
 * next) with the warp on `grant`; a cycle without issue shows its stall reason on `stall`, 8 when
 * it issued. */
static void test_outcome_traced(void)
{
    char *path = block_vcd_path();
    block_dut d = dut_new(NULL, path);
    uint64_t c0 = harness_step(d.h);
    ARB(d)->outcome(d.self, 5, 8); /* seen in c0 + 1 (see at()) */
    harness_step(d.h);
    ARB(d)->outcome(d.self, -1, 2);
    harness_step(d.h);
    ARB(d)->outcome(d.self, 3, 8);
    harness_step(d.h);
    ARB(d)->outcome(d.self, 4, 8);
    harness_run(d.h, 3);
    g_assert_cmpuint(block_stat(&d, ARBITER_STAT_GRANTS), ==, 3);
    harness_free(d.h);
    vcd *v = block_vcd_load(path);
    int g = vcd_find(v, "dut.grants");
    g_assert_cmpint(g, >=, 0);
    g_assert_cmpuint(vcd_signal_width(v, (unsigned)g), ==, 1);
    static const uint64_t grants[] = {0, 1, 0, 1, 1, 0}, grant[] = {0, 5, 5, 3, 4, 4},
                          stall[] = {0, 8, 2, 8, 8, 8};
    for (unsigned i = 0; i < G_N_ELEMENTS(grants); i++) {
        g_assert_cmpuint(block_vcd_at(v, "dut.grants", c0 + i), ==, grants[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.grant", c0 + i), ==, grant[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.stall", c0 + i), ==, stall[i]);
    }
    vcd_free(v);
}

/* An unknown policy is a user error naming the parameter. */
static void test_bad_policy(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_arbiter");
        const char *set[] = {"policy=fastest", NULL};
        block_dut d = dut_new(set, NULL);
        harness_step(d.h);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*dut.policy: unknown issue policy \"fastest\"*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/arbiter/gto", test_gto);
    harness_test_add("/sm/arbiter/lrr", test_lrr);
    harness_test_add("/sm/arbiter/oldest", test_oldest);
    harness_test_add("/sm/arbiter/default_and_none_ready", test_default_and_none_ready);
    harness_test_add("/sm/arbiter/vetoes", test_vetoes);
    harness_test_add("/sm/arbiter/swl", test_swl);
    harness_test_add("/sm/arbiter/two_level_unstable", test_two_level_unstable);
    harness_test_add("/sm/arbiter/outcome_traced", test_outcome_traced);
    g_test_add_func("/sm/arbiter/bad_policy", test_bad_policy);
    return g_test_run();
}
