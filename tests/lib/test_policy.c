/* Unit tests for models/lib/policy: exact issue orders over scripted cycles. */
#include "models/lib/policy.h"

#include <string.h>

#define MAXW 8

/* A scripted scheduler: ready(w, c) and long_stall(w, c) come from callbacks; each cycle the first
 * candidate issues. Returns the issued warp ids as a string ("0 1 - 2": '-' = no issue). */
typedef bool (*script_fn)(unsigned w, unsigned c);

static bool always(unsigned w, unsigned c)
{
    (void)w, (void)c;
    return true;
}

static bool never(unsigned w, unsigned c)
{
    (void)w, (void)c;
    return false;
}

static char *run(policy *p, unsigned nwarps, const uint64_t *ages, unsigned cycles, script_fn ready,
                 script_fn long_stall, policy_warp *warps_out)
{
    policy_warp w[MAXW];
    for (unsigned i = 0; i < nwarps; i++)
        w[i] = (policy_warp){.id = i, .age = ages ? ages[i] : i, .last_issue = POLICY_NEVER_ISSUED};
    GString *s = g_string_new(NULL);
    for (unsigned c = 0; c < cycles; c++) {
        for (unsigned i = 0; i < nwarps; i++) {
            w[i].long_stall = long_stall(i, c);
            w[i].ready = ready(i, c) && !w[i].long_stall;
        }
        unsigned out[MAXW];
        unsigned k = policy_order(p, w, nwarps, c, out);
        for (unsigned i = 0; i < k; i++)
            g_assert_true(w[out[i]].ready);
        if (k) {
            w[out[0]].last_issue = c;
            g_string_append_printf(s, "%s%u", c ? " " : "", w[out[0]].id);
        } else {
            g_string_append_printf(s, "%s-", c ? " " : "");
        }
    }
    if (warps_out)
        memcpy(warps_out, w, sizeof(policy_warp) * nwarps);
    return g_string_free(s, FALSE);
}

static policy *must_new(const char *spec)
{
    GError *err = NULL;
    policy *p = policy_new(spec, &err);
    g_assert_no_error(err);
    return p;
}

static void check(const char *spec, unsigned n, const uint64_t *ages, unsigned cycles, script_fn ready,
                  script_fn long_stall, const char *expect)
{
    policy *p = must_new(spec);
    g_autofree char *got = run(p, n, ages, cycles, ready, long_stall, NULL);
    g_assert_cmpstr(got, ==, expect);
    policy_free(p);
}

static bool w2_stalls_2_3(unsigned w, unsigned c)
{
    return !(w == 2 && (c == 2 || c == 3));
}

static void test_lrr(void)
{
    check("lrr", 4, NULL, 9, always, never, "0 1 2 3 0 1 2 3 0");
    check("lrr", 4, NULL, 7, w2_stalls_2_3, never, "0 1 3 0 1 2 3");
    /* the order is by warp id, not by age */
    static const uint64_t rev[] = {3, 2, 1, 0};
    check("lrr", 4, rev, 5, always, never, "0 1 2 3 0");
}

/* age = 3 - id: warp 3 is the oldest. */
static const uint64_t rev_age[] = {3, 2, 1, 0};

static bool gto_script(unsigned w, unsigned c)
{
    if (w == 3 && c >= 2 && c <= 4)
        return false;
    if (w == 2 && c >= 6)
        return false;
    return true;
}

static void test_gto(void)
{
    check("gto", 4, rev_age, 8, gto_script, never, "3 3 2 2 2 2 3 3");
    /* same ages: the lower id is older */
    static const uint64_t same[] = {5, 5, 5, 5};
    check("gto", 4, same, 3, always, never, "0 0 0");
    check("oldest", 4, rev_age, 8, gto_script, never, "3 3 2 2 2 3 3 3");
}

/* The candidate list itself, not only its head. */
static void test_candidate_lists(void)
{
    policy *p = must_new("gto");
    policy_warp w[4];
    for (unsigned i = 0; i < 4; i++)
        w[i] =
            (policy_warp){.id = 10 + i, .age = rev_age[i], .ready = true, .last_issue = POLICY_NEVER_ISSUED};
    w[1].last_issue = 7;
    w[2].ready = false;
    unsigned out[4];
    g_assert_cmpuint(policy_order(p, w, 4, 8, out), ==, 3);
    g_assert_cmpuint(out[0], ==, 1); /* greedy */
    g_assert_cmpuint(out[1], ==, 3); /* then oldest: 3, (2 not ready), 0 */
    g_assert_cmpuint(out[2], ==, 0);
    policy_free(p);

    p = must_new("lrr");
    w[2].ready = true;
    w[1].last_issue = POLICY_NEVER_ISSUED;
    w[2].last_issue = 3;
    g_assert_cmpuint(policy_order(p, w, 4, 8, out), ==, 4);
    g_assert_cmpuint(out[0], ==, 3); /* after id 12: 13, 10, 11, 12 */
    g_assert_cmpuint(out[1], ==, 0);
    g_assert_cmpuint(out[2], ==, 1);
    g_assert_cmpuint(out[3], ==, 2);
    policy_free(p);
}

/* Two-level, 6 warps, active set 2. Warp 0 long-stalls at cycles 2..4, warp 1 from cycle 7. */
static bool tl_long(unsigned w, unsigned c)
{
    return (w == 0 && c >= 2 && c <= 4) || (w == 1 && c >= 7);
}

static void test_two_level(void)
{
    /* c0: pending 0..5, promote 0,1 -> 0. c1: 1. c2: 0 demoted, 2 promoted -> 2. c3: 1. c4: 2. c5, c6: 1 2
     * (0 no longer stalled but the set is full). c7: 1 demoted; srr promotes 3 (pending longest) -> 3. */
    check("two_level_active:2", 6, NULL, 9, always, tl_long, "0 1 2 1 2 1 2 3 2");
    check("two_level_active:2:0:1", 6, NULL, 9, always, tl_long, "0 1 2 1 2 1 2 3 2");
    /* outer oldest: at c7 warp 0 (age 0) is promoted instead of 3; LRR after 2 wraps to 0 */
    check("two_level_active:2:lrr:oldest", 6, NULL, 9, always, tl_long, "0 1 2 1 2 1 2 0 2");
    /* inner gto: greedy on 0; after 0's demotion no active warp has issued, so the oldest active one
     * (1) goes and stays greedy; at c7 1 is demoted, 3 promoted, and the oldest active (2) goes */
    check("two_level_active:2:gto", 6, NULL, 9, always, tl_long, "0 0 1 1 1 1 1 2 2");
}

/* Membership is visible in policy_data; a short stall keeps a warp active. */
static bool tl_short(unsigned w, unsigned c)
{
    return !(w == 0 && c == 1);
}

static void test_two_level_sets(void)
{
    policy *p = must_new("two_level_active:2");
    policy_warp w[MAXW];
    g_autofree char *got = run(p, 4, NULL, 3, tl_short, never, w);
    /* c0: 0; c1: 0 not ready (short) -> 1; c2: LRR after 1 -> 0. Warps 2, 3 never become active. */
    g_assert_cmpstr(got, ==, "0 1 0");
    g_assert_cmpuint(w[0].policy_data & 3, ==, 1);
    g_assert_cmpuint(w[1].policy_data & 3, ==, 1);
    g_assert_cmpuint(w[2].policy_data & 3, ==, 2);
    g_assert_cmpuint(w[3].policy_data & 3, ==, 2);
    policy_free(p);

    /* a warp leaving the list frees its active slot */
    p = must_new("two_level_active:1");
    policy_warp v[3];
    for (unsigned i = 0; i < 3; i++)
        v[i] = (policy_warp){.id = i, .age = i, .ready = true, .last_issue = POLICY_NEVER_ISSUED};
    unsigned out[3];
    g_assert_cmpuint(policy_order(p, v, 3, 0, out), ==, 1);
    g_assert_cmpuint(out[0], ==, 0);
    v[0] = v[2]; /* warp 0 finished: the caller compacts its list */
    g_assert_cmpuint(policy_order(p, v, 2, 1, out), ==, 1);
    g_assert_cmpuint(v[out[0]].id, ==, 1);
    policy_free(p);
}

static void test_swl_veto(void)
{
    policy *p = must_new("gto");
    policy_add_swl(p, 2);
    policy_warp w[4];
    for (unsigned i = 0; i < 4; i++)
        w[i] = (policy_warp){.id = i, .age = i, .ready = true, .last_issue = POLICY_NEVER_ISSUED};
    unsigned out[4];
    g_assert_cmpuint(policy_order(p, w, 4, 0, out), ==, 2);
    g_assert_cmpuint(out[0], ==, 0);
    g_assert_cmpuint(out[1], ==, 1);
    w[0].ready = w[1].ready = false;
    g_assert_cmpuint(policy_order(p, w, 4, 1, out), ==, 0); /* 2 and 3 are ready but limited */
    policy_free(p);
}

/* A mechanism veto: warps whose next instruction is a memory op are held (a CCWS-like throttle). */
static bool veto_mem(void *ctx, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    (void)n, (void)cycle;
    unsigned *calls = ctx;
    (*calls)++;
    return (w[i].flags & POLICY_F_MEM) != 0;
}

static void test_custom_veto(void)
{
    policy *p = must_new("lrr");
    unsigned calls = 0;
    policy_add_veto(p, veto_mem, &calls);
    policy_warp w[3];
    for (unsigned i = 0; i < 3; i++)
        w[i] = (policy_warp){.id = i, .age = i, .ready = true, .last_issue = POLICY_NEVER_ISSUED};
    w[0].flags = POLICY_F_MEM;
    unsigned out[3];
    g_assert_cmpuint(policy_order(p, w, 3, 0, out), ==, 2);
    g_assert_cmpuint(out[0], ==, 1);
    g_assert_cmpuint(out[1], ==, 2);
    g_assert_cmpuint(calls, ==, 3);
    policy_free(p);
}

/* A mechanism registers its own class: here "youngest" (ordered by key, largest first). */
static unsigned order_by_key(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)self, (void)cycle;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (w[i].ready)
            out[k++] = i;
    for (unsigned i = 1; i < k; i++)
        for (unsigned j = i; j > 0 && w[out[j]].key > w[out[j - 1]].key; j--) {
            unsigned t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

/* policy_first gives policy_order's count and first candidate, on random lists of every built-in
 * class, with and without a veto (ties of age and of last issue included: ages and cycles from small
 * ranges). */
static void test_first(void)
{
    static const char *const specs[] = {"gto", "lrr", "oldest", "two_level_active:3"};
    GRand *r = g_rand_new_with_seed(7);
    for (unsigned s = 0; s < G_N_ELEMENTS(specs) * 2; s++) {
        policy *a = must_new(specs[s / 2]), *b = must_new(specs[s / 2]);
        if (s & 1) {
            policy_add_swl(a, 2);
            policy_add_swl(b, 2);
        }
        policy_warp w[MAXW], v[MAXW];
        unsigned n = MAXW;
        for (unsigned i = 0; i < n; i++)
            w[i] = (policy_warp){.id = i, .age = (uint64_t)g_rand_int_range(r, 0, 4),
                                 .last_issue = POLICY_NEVER_ISSUED};
        for (unsigned c = 0; c < 500; c++) {
            for (unsigned i = 0; i < n; i++) {
                w[i].ready = g_rand_int_range(r, 0, 3) != 0;
                w[i].long_stall = !w[i].ready && g_rand_boolean(r);
                if (g_rand_int_range(r, 0, 4) == 0)
                    w[i].last_issue = g_rand_int_range(r, -1, 3) + (int64_t)c / 8;
            }
            memcpy(v, w, sizeof w);
            unsigned oa[MAXW], ob[MAXW];
            unsigned ka = policy_order(a, w, n, c, oa), kb = policy_first(b, v, n, c, ob);
            g_assert_cmpuint(ka, ==, kb);
            if (ka)
                g_assert_cmpuint(oa[0], ==, ob[0]);
            g_assert_cmpmem(w, sizeof w, v, sizeof v); /* the same effects (two-level's sets) */
        }
        policy_free(a);
        policy_free(b);
    }
    g_rand_free(r);
}

/* A veto added after the policy was made (policy_add_veto, policy_add_swl) is asked by policy_first
 * as by policy_order: the class's shortcut is not taken any more. */
static bool veto_warp0(void *ctx, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    (void)ctx, (void)n, (void)cycle;
    return w[i].id == 0;
}

static void test_first_veto(void)
{
    for (unsigned k = 0; k < 2; k++) {
        policy *p = must_new("gto");
        policy_warp w[3];
        for (unsigned i = 0; i < 3; i++)
            w[i] = (policy_warp){.id = i, .age = i, .ready = true, .last_issue = POLICY_NEVER_ISSUED};
        unsigned out[3];
        g_assert_cmpuint(policy_first(p, w, 3, 0, out), ==, 3);
        g_assert_cmpuint(out[0], ==, 0); /* the oldest */
        if (k == 0)
            policy_add_veto(p, veto_warp0, NULL);
        else
            policy_add_swl(p, 1); /* only the oldest may issue */
        unsigned n = policy_first(p, w, 3, 1, out);
        g_assert_cmpuint(n, ==, k == 0 ? 2 : 1);
        g_assert_cmpuint(out[0], ==, k == 0 ? 1 : 0);
        policy_free(p);
    }
}

static void *create_key(const char *args, GError **err)
{
    (void)args, (void)err;
    return g_new0(int, 1);
}

static const policy_class key_class = {"test_by_key", "by caller key", create_key,
                                       g_free,        order_by_key,    false};

static void test_registry(void)
{
    unsigned before = policy_count();
    g_assert_cmpuint(before, >=, 4);
    g_assert_nonnull(policy_lookup("gto"));
    g_assert_nonnull(policy_lookup("two_level_active"));
    g_assert_null(policy_lookup("test_by_key"));
    policy_register(&key_class);
    g_assert_cmpuint(policy_count(), ==, before + 1);
    g_assert_true(policy_nth(before) == &key_class);
    policy *p = must_new("test_by_key");
    g_assert_true(policy_get_class(p) == &key_class);
    policy_warp w[3];
    for (unsigned i = 0; i < 3; i++)
        w[i] = (policy_warp){.id = i, .ready = true, .key = (int64_t)(i * 7 % 3)};
    unsigned out[3];
    g_assert_cmpuint(policy_order(p, w, 3, 0, out), ==, 3);
    g_assert_cmpuint(out[0], ==, 2); /* keys 0, 1, 2 */
    policy_free(p);

    GError *err = NULL;
    g_assert_null(policy_new("fifo", &err));
    g_assert_error(err, POLICY_ERROR, 0);
    g_assert_nonnull(strstr(err->message, "\"fifo\""));
    g_assert_nonnull(strstr(err->message, "gto"));
    g_clear_error(&err);
    g_assert_null(policy_new("two_level_active", &err));
    g_clear_error(&err);
    g_assert_null(policy_new("two_level_active:0", &err));
    g_clear_error(&err);
    g_assert_null(policy_new("two_level_active:4:7", &err));
    g_clear_error(&err);
    g_assert_null(policy_new("gto:3", &err));
    g_clear_error(&err);
}

static void test_registry_duplicate(void)
{
    if (g_test_subprocess()) {
        static const policy_class dup = {"gto", "again", create_key, g_free, order_by_key, false};
        policy_register(&dup);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*registered twice*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/policy/lrr", test_lrr);
    g_test_add_func("/policy/gto", test_gto);
    g_test_add_func("/policy/candidate-lists", test_candidate_lists);
    g_test_add_func("/policy/first", test_first);
    g_test_add_func("/policy/first-veto", test_first_veto);
    g_test_add_func("/policy/two-level", test_two_level);
    g_test_add_func("/policy/two-level-sets", test_two_level_sets);
    g_test_add_func("/policy/swl-veto", test_swl_veto);
    g_test_add_func("/policy/custom-veto", test_custom_veto);
    g_test_add_func("/policy/registry", test_registry);
    g_test_add_func("/policy/registry-duplicate", test_registry_duplicate);
    return g_test_run();
}
