/* policy.c — issue policy registry and the built-in classes (lrr, gto, oldest, two_level_active). */
#include "models/lib/policy.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(gpusc - policy - error - quark, policy_error)

/* ---- ordering helpers -------------------------------------------------------------------------- */

typedef int (*warp_cmp)(const policy_warp *a, const policy_warp *b);

/* Stable insertion sort of indices (lists are a few dozen warps). */
static void sort_indices(const policy_warp *w, unsigned *idx, unsigned n, warp_cmp cmp)
{
    for (unsigned i = 1; i < n; i++) {
        unsigned v = idx[i], j = i;
        for (; j > 0 && cmp(&w[v], &w[idx[j - 1]]) < 0; j--)
            idx[j] = idx[j - 1];
        idx[j] = v;
    }
}

static int cmp_oldest(const policy_warp *a, const policy_warp *b)
{
    if (a->age != b->age)
        return a->age < b->age ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_id(const policy_warp *a, const policy_warp *b)
{
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Index (among sel) of the most recently issued warp, or -1. Ties: the older warp. */
static int last_issued(const policy_warp *w, const unsigned *sel, unsigned n)
{
    int best = -1;
    for (unsigned i = 0; i < n; i++) {
        const policy_warp *x = &w[sel[i]];
        if (x->last_issue == POLICY_NEVER_ISSUED)
            continue;
        if (best < 0 || x->last_issue > w[sel[best]].last_issue ||
            (x->last_issue == w[sel[best]].last_issue && cmp_oldest(x, &w[sel[best]]) < 0))
            best = (int)i;
    }
    return best;
}

/* Keeps the ready entries of idx (order preserved); returns the new count. */
static unsigned keep_ready(const policy_warp *w, unsigned *idx, unsigned n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (w[idx[i]].ready)
            idx[k++] = idx[i];
    return k;
}

/* LRR over the warps sel[0..n): by id, starting after the last issued one. Writes ready ones to out. */
static unsigned order_lrr_sel(const policy_warp *w, unsigned *sel, unsigned n, unsigned *out)
{
    int last = last_issued(w, sel, n);
    unsigned last_id = last >= 0 ? w[sel[last]].id : 0;
    sort_indices(w, sel, n, cmp_id);
    unsigned start = 0;
    if (last >= 0)
        while (start < n && w[sel[start]].id <= last_id)
            start++;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        out[k++] = sel[(start + i) % n];
    return keep_ready(w, out, k);
}

/* GTO over sel[0..n): the last issued warp first, then oldest first. Only ready warps are written,
 * so only they are sorted (the order among them is the same as sorting all and keeping the ready). */
static unsigned order_gto_sel(const policy_warp *w, const unsigned *sel, unsigned n, unsigned *out)
{
    int last = last_issued(w, sel, n);
    unsigned k = 0, greedy = last >= 0 ? sel[last] : UINT_MAX;
    if (last >= 0 && w[greedy].ready)
        out[k++] = greedy;
    unsigned first = k;
    for (unsigned i = 0; i < n; i++)
        if (sel[i] != greedy && w[sel[i]].ready)
            out[k++] = sel[i];
    sort_indices(w, out + first, k - first, cmp_oldest);
    return k;
}

/* The indices 0..n-1 in `stack` (room for 64) or, for more, in a new heap array stored in *heap. */
static unsigned *all_indices(unsigned n, unsigned *stack, unsigned **heap)
{
    unsigned *sel = n > 64 ? (*heap = g_new(unsigned, n)) : stack;
    for (unsigned i = 0; i < n; i++)
        sel[i] = i;
    return sel;
}

/* ---- lrr, gto, oldest --------------------------------------------------------------------------- */

static void *create_noargs(const char *args, GError **err)
{
    if (args && *args) {
        g_set_error(err, POLICY_ERROR, 0, "this issue policy takes no arguments (got \"%s\")", args);
        return NULL;
    }
    return g_new0(char, 1); /* a non-NULL token */
}

static unsigned order_lrr(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)self, (void)cycle;
    unsigned stack[64];
    g_autofree unsigned *heap = NULL;
    return order_lrr_sel(w, all_indices(n, stack, &heap), n, out);
}

/* Whether a is older than b (cmp_oldest < 0), inline for the loops of order_gto. */
static inline bool older(const policy_warp *a, const policy_warp *b)
{
    return a->age != b->age ? a->age < b->age : a->id < b->id;
}

/* order_gto_sel over the whole list in one pass (an issue stage asks once per scheduler-cycle that
 * has a ready warp): the greedy warp found while the ready ones are gathered, then sorted. The same
 * order as order_gto_sel on the indices 0..n-1. */
static unsigned order_gto(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)self, (void)cycle;
    unsigned k = 0, greedy = UINT_MAX;
    int64_t greedy_issue = POLICY_NEVER_ISSUED;
    for (unsigned i = 0; i < n; i++) {
        const policy_warp *x = &w[i];
        if (x->last_issue != POLICY_NEVER_ISSUED &&
            (greedy == UINT_MAX || x->last_issue > greedy_issue ||
             (x->last_issue == greedy_issue && older(x, &w[greedy])))) {
            greedy = i;
            greedy_issue = x->last_issue;
        }
        if (x->ready)
            out[k++] = i;
    }
    unsigned first = 0;
    if (greedy != UINT_MAX && w[greedy].ready) { /* to the front, the others keep their list order */
        unsigned j = 0;
        while (out[j] != greedy)
            j++;
        for (; j > 0; j--)
            out[j] = out[j - 1];
        out[0] = greedy;
        first = 1;
    }
    for (unsigned i = first + 1; i < k; i++) { /* sort_indices by cmp_oldest, the comparison inline */
        unsigned v = out[i], j = i;
        for (; j > first && older(&w[v], &w[out[j - 1]]); j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
    return k;
}

/* order_gto's count and out[0]: the greedy warp if it is ready, else the oldest ready one (the greedy
 * warp found first, then the ready ones counted: two short loops). */
static unsigned first_gto(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *best)
{
    (void)self, (void)cycle;
    unsigned greedy = UINT_MAX, ready = 0;
    int64_t greedy_issue = POLICY_NEVER_ISSUED;
    for (unsigned i = 0; i < n; i++) {
        int64_t li = w[i].last_issue;
        ready += w[i].ready;
        if (li > greedy_issue) {
            greedy = i;
            greedy_issue = li;
        } else if (G_UNLIKELY(li == greedy_issue) && li != POLICY_NEVER_ISSUED && older(&w[i], &w[greedy])) {
            greedy = i;
        }
    }
    if (greedy != UINT_MAX && w[greedy].ready) {
        *best = greedy;
        return ready;
    }
    unsigned k = 0, oldest = UINT_MAX;
    for (unsigned i = 0; i < n; i++)
        if (w[i].ready && (!k++ || older(&w[i], &w[oldest])))
            oldest = i;
    if (k)
        *best = oldest;
    return k;
}

static unsigned order_oldest(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)self, (void)cycle;
    for (unsigned i = 0; i < n; i++)
        out[i] = i;
    sort_indices(w, out, n, cmp_oldest);
    return keep_ready(w, out, n);
}

/* ---- two_level_active ---------------------------------------------------------------------------- */

enum { TL_NEW = 0, TL_ACTIVE = 1, TL_PENDING = 2 };
enum { TL_INNER_LRR = 0, TL_INNER_GTO = 2, TL_OUTER_SRR = 1, TL_OUTER_OLDEST = 5 };

typedef struct {
    unsigned active_max;
    int inner, outer;
    uint64_t next_seq; /* pending-set entry order */
} two_level;

static unsigned tl_state(const policy_warp *w)
{
    return (unsigned)(w->policy_data & 3);
}

static uint64_t tl_seq(const policy_warp *w)
{
    return w->policy_data >> 2;
}

static void tl_make_pending(two_level *t, policy_warp *w)
{
    w->policy_data = (t->next_seq++ << 2) | TL_PENDING;
}

static int cmp_pending_seq(const policy_warp *a, const policy_warp *b)
{
    return tl_seq(a) < tl_seq(b) ? -1 : tl_seq(a) > tl_seq(b);
}

static bool parse_level(const char *s, bool inner, int *out)
{
    static const struct {
        const char *name;
        int code;
        bool inner;
    } names[] = {
        {"0", TL_INNER_LRR, true},     {"lrr", TL_INNER_LRR, true},        {"2", TL_INNER_GTO, true},
        {"gto", TL_INNER_GTO, true},   {"1", TL_OUTER_SRR, false},         {"srr", TL_OUTER_SRR, false},
        {"5", TL_OUTER_OLDEST, false}, {"oldest", TL_OUTER_OLDEST, false},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].inner == inner && strcmp(s, names[i].name) == 0) {
            *out = names[i].code;
            return true;
        }
    return false;
}

static void *create_two_level(const char *args, GError **err)
{
    g_auto(GStrv) f = g_strsplit(args ? args : "", ":", -1);
    guint nf = g_strv_length(f);
    guint64 n = 0;
    two_level t = {.inner = TL_INNER_LRR, .outer = TL_OUTER_SRR};
    if (nf < 1 || nf > 3 || !g_ascii_string_to_unsigned(f[0], 10, 1, 1024, &n, NULL)) {
        g_set_error(err, POLICY_ERROR, 0,
                    "two_level_active needs an active-set size 1..1024 and at most two more fields "
                    "(two_level_active:N[:inner[:outer]]), got \"%s\"",
                    args ? args : "");
        return NULL;
    }
    t.active_max = (unsigned)n;
    if ((nf >= 2 && !parse_level(f[1], true, &t.inner)) || (nf >= 3 && !parse_level(f[2], false, &t.outer))) {
        g_set_error(err, POLICY_ERROR, 0,
                    "two_level_active: inner must be 0/lrr or 2/gto and outer 1/srr or 5/oldest, got \"%s\"",
                    args);
        return NULL;
    }
    return g_memdup2(&t, sizeof t);
}

/* Demote long-stalled active warps, enrol new warps as pending, promote into free active slots. */
static void tl_update_sets(two_level *t, policy_warp *w, unsigned n)
{
    unsigned *fresh = g_new(unsigned, n ? n : 1), nfresh = 0, active = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned st = tl_state(&w[i]);
        if (st == TL_NEW)
            fresh[nfresh++] = i;
        else if (st == TL_ACTIVE && w[i].long_stall)
            tl_make_pending(t, &w[i]);
        else if (st == TL_ACTIVE)
            active++;
    }
    sort_indices(w, fresh, nfresh, cmp_oldest);
    for (unsigned i = 0; i < nfresh; i++)
        tl_make_pending(t, &w[fresh[i]]);
    g_free(fresh);

    unsigned *pend = g_new(unsigned, n ? n : 1), np = 0;
    for (unsigned i = 0; i < n; i++)
        if (tl_state(&w[i]) == TL_PENDING && w[i].ready && !w[i].long_stall)
            pend[np++] = i;
    sort_indices(w, pend, np, t->outer == TL_OUTER_OLDEST ? cmp_oldest : cmp_pending_seq);
    for (unsigned i = 0; i < np && active < t->active_max; i++, active++)
        w[pend[i]].policy_data = TL_ACTIVE;
    g_free(pend);
}

static unsigned order_two_level(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)cycle;
    two_level *t = self;
    tl_update_sets(t, w, n);
    g_autofree unsigned *sel = g_new(unsigned, n ? n : 1);
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (tl_state(&w[i]) == TL_ACTIVE)
            sel[k++] = i;
    return t->inner == TL_INNER_GTO ? order_gto_sel(w, sel, k, out) : order_lrr_sel(w, sel, k, out);
}

/* ---- registry ------------------------------------------------------------------------------------ */

static const policy_class builtin_classes[] = {
    {"lrr", "loose round-robin: by warp id, starting after the last issued warp", create_noargs, g_free,
     order_lrr, true},
    {"gto", "greedy-then-oldest: the last issued warp while ready, else the oldest ready warp", create_noargs,
     g_free, order_gto, true, first_gto},
    {"oldest", "oldest first (dispatch order, then warp id)", create_noargs, g_free, order_oldest, true},
    {"two_level_active", "two-level: active set of N (inner lrr/gto), long-stalled warps demoted to pending",
     create_two_level, g_free, order_two_level, false},
};

static GPtrArray *registry(void)
{
    static GPtrArray *classes; /* the policy registry: the one mutable global */
    if (!classes) {
        classes = g_ptr_array_new();
        for (unsigned i = 0; i < G_N_ELEMENTS(builtin_classes); i++)
            g_ptr_array_add(classes, (gpointer)&builtin_classes[i]);
    }
    return classes;
}

const policy_class *policy_lookup(const char *name)
{
    GPtrArray *r = registry();
    for (unsigned i = 0; i < r->len; i++) {
        const policy_class *c = g_ptr_array_index(r, i);
        if (strcmp(c->name, name) == 0)
            return c;
    }
    return NULL;
}

void policy_register(const policy_class *c)
{
    g_return_if_fail(c && c->name && c->create && c->order);
    if (policy_lookup(c->name))
        g_error("issue policy \"%s\" registered twice", c->name);
    g_ptr_array_add(registry(), (gpointer)c);
}

unsigned policy_count(void)
{
    return registry()->len;
}

const policy_class *policy_nth(unsigned i)
{
    GPtrArray *r = registry();
    return i < r->len ? g_ptr_array_index(r, i) : NULL;
}

/* ---- instances ------------------------------------------------------------------------------------ */

typedef struct {
    policy_veto_fn fn;
    void *ctx;
    policy_veto_until_fn until; /* NULL: may change every cycle */
    policy_veto_repeat_fn repeat;
    GArray *asked; /* unsigned: the candidates asked in the last policy_order (vetoes that hold) */
} veto;

struct policy {
    /* policy_first's call, read first: the class's `first` while no veto is added, else NULL (the
     * whole order, then the vetoes); with self on the record's first line, a cycle's choice reads no
     * other line of the policy (the class and the vetoes' array are elsewhere). */
    unsigned (*first)(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *best);
    void *self;
    const policy_class *cls;
    GArray *vetoes; /* veto */
    bool holding;   /* some veto records what it was asked (policy_add_veto_holding) */
};

policy *policy_new(const char *spec, GError **err)
{
    g_return_val_if_fail(spec, NULL);
    const char *colon = strchr(spec, ':');
    g_autofree char *name = colon ? g_strndup(spec, (gsize)(colon - spec)) : g_strdup(spec);
    const policy_class *c = policy_lookup(name);
    if (!c) {
        GString *known = g_string_new(NULL);
        for (unsigned i = 0; i < policy_count(); i++)
            g_string_append_printf(known, "%s%s", i ? ", " : "", policy_nth(i)->name);
        g_set_error(err, POLICY_ERROR, 0, "unknown issue policy \"%s\" (known: %s)", name, known->str);
        g_string_free(known, TRUE);
        return NULL;
    }
    void *self = c->create(colon ? colon + 1 : NULL, err);
    if (!self)
        return NULL;
    policy *p = g_new0(policy, 1);
    p->cls = c;
    p->self = self;
    p->first = c->first;
    p->vetoes = g_array_new(FALSE, FALSE, sizeof(veto));
    return p;
}

void policy_free(policy *p)
{
    if (!p)
        return;
    if (p->cls->destroy)
        p->cls->destroy(p->self);
    for (unsigned v = 0; v < p->vetoes->len; v++)
        if (g_array_index(p->vetoes, veto, v).asked)
            g_array_free(g_array_index(p->vetoes, veto, v).asked, TRUE);
    g_array_free(p->vetoes, TRUE);
    g_free(p);
}

const policy_class *policy_get_class(const policy *p)
{
    return p->cls;
}

void policy_add_veto(policy *p, policy_veto_fn fn, void *ctx)
{
    veto v = {fn, ctx, NULL, NULL, NULL};
    g_array_append_val(p->vetoes, v);
    p->first = NULL;
}

void policy_add_veto_holding(policy *p, policy_veto_fn fn, policy_veto_until_fn until,
                             policy_veto_repeat_fn repeat, void *ctx)
{
    g_assert(until && repeat);
    veto v = {fn, ctx, until, repeat, g_array_new(FALSE, FALSE, sizeof(unsigned))};
    g_array_append_val(p->vetoes, v);
    p->holding = true;
    p->first = NULL;
}

/* SWL: only the `limit` oldest warps of the list may issue. */
static bool veto_swl(void *ctx, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    (void)cycle;
    /* ctx: the limit, and in the high 16 bits the stall code + 1 of warps left out of the count */
    unsigned limit = GPOINTER_TO_UINT(ctx) & 0xffffu, except = GPOINTER_TO_UINT(ctx) >> 16, older = 0;
    for (unsigned j = 0; j < n; j++)
        older += cmp_oldest(&w[j], &w[i]) < 0 && w[j].stall + 1 != except;
    return older >= limit;
}

/* SWL's answers are a function of the list alone: they hold until it changes, and count nothing. */
static uint64_t swl_until(void *ctx, const policy_warp *w, unsigned n, const unsigned *asked,
                          unsigned n_asked, uint64_t cycle)
{
    (void)ctx, (void)w, (void)n, (void)asked, (void)n_asked, (void)cycle;
    return UINT64_MAX;
}

static void swl_repeat(void *ctx, const policy_warp *w, unsigned n, const unsigned *asked, unsigned n_asked,
                       uint64_t first, uint64_t count)
{
    (void)ctx, (void)w, (void)n, (void)asked, (void)n_asked, (void)first, (void)count;
}

void policy_add_swl(policy *p, unsigned limit)
{
    g_assert(limit < 65536);
    policy_add_veto_holding(p, veto_swl, swl_until, swl_repeat, GUINT_TO_POINTER(limit));
}

void policy_add_swl_except(policy *p, unsigned limit, unsigned barrier_stall)
{
    g_assert(limit < 65536 && barrier_stall < 65535);
    policy_add_veto_holding(p, veto_swl, swl_until, swl_repeat,
                            GUINT_TO_POINTER(limit | (barrier_stall + 1) << 16));
}

bool policy_stable(const policy *p)
{
    return p->cls->stable && p->vetoes->len == 0;
}

bool policy_settles(const policy *p)
{
    for (unsigned v = 0; v < p->vetoes->len; v++)
        if (!g_array_index(p->vetoes, veto, v).until)
            return false;
    return p->cls->stable;
}

uint64_t policy_holds_until(const policy *p, const policy_warp *warps, unsigned n, uint64_t cycle)
{
    uint64_t until = UINT64_MAX;
    for (unsigned v = 0; v < p->vetoes->len; v++) {
        const veto *x = &g_array_index(p->vetoes, veto, v);
        if (!x->until)
            return cycle + 1;
        uint64_t u =
            x->until(x->ctx, warps, n, (const unsigned *)(void *)x->asked->data, x->asked->len, cycle);
        until = MIN(until, u);
    }
    return until;
}

void policy_repeat(const policy *p, const policy_warp *warps, unsigned n, uint64_t first, uint64_t count)
{
    for (unsigned v = 0; v < p->vetoes->len; v++) {
        const veto *x = &g_array_index(p->vetoes, veto, v);
        if (x->repeat && x->asked->len)
            x->repeat(x->ctx, warps, n, (const unsigned *)(void *)x->asked->data, x->asked->len, first,
                      count);
    }
}

unsigned policy_order(policy *p, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out)
{
    unsigned k = p->cls->order(p->self, warps, n, cycle, out), kept = 0;
    if (p->holding)
        for (unsigned v = 0; v < p->vetoes->len; v++)
            if (g_array_index(p->vetoes, veto, v).asked)
                g_array_set_size(g_array_index(p->vetoes, veto, v).asked, 0);
    if (p->vetoes->len == 0) { /* nothing to remove: the class's order as it is */
        for (unsigned i = 0; i < k; i++)
            g_assert(out[i] < n && warps[out[i]].ready);
        return k;
    }
    for (unsigned i = 0; i < k; i++) {
        g_assert(out[i] < n && warps[out[i]].ready);
        bool vetoed = false;
        for (unsigned v = 0; v < p->vetoes->len && !vetoed; v++) {
            veto *x = &g_array_index(p->vetoes, veto, v);
            if (x->asked)
                g_array_append_val(x->asked, out[i]);
            vetoed = x->fn(x->ctx, warps, n, out[i], cycle);
        }
        if (!vetoed)
            out[kept++] = out[i];
    }
    return kept;
}

unsigned policy_first(policy *p, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out)
{
    if (!p->first) /* (no `first`, or vetoes) */
        return policy_order(p, warps, n, cycle, out);
    unsigned k = p->first(p->self, warps, n, cycle, out);
    g_assert(k == 0 || (out[0] < n && warps[out[0]].ready));
    return k;
}
