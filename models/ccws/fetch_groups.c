/* fetch_groups.c — see fetch_groups.h. */
#include "models/ccws/fetch_groups.h"

#include <stdlib.h>

#include "models/lib/policy.h"

static void *fg_create_size(const char *args, unsigned dflt, GError **err)
{
    unsigned *g = g_new(unsigned, 1);
    *g = dflt;
    if (args && *args) {
        char *end;
        guint64 v = g_ascii_strtoull(args, &end, 10);
        if (*end || v < 1 || v > 1024) {
            g_set_error(err, POLICY_ERROR, 0, "fetch_groups: the group size must be 1..1024 (got \"%s\")",
                        args);
            g_free(g);
            return NULL;
        }
        *g = (unsigned)v;
    }
    return g;
}

static void *fg_create(const char *args, GError **err)
{
    return fg_create_size(args, 2, err);
}

static void *fg_rr_create(const char *args, GError **err)
{
    return fg_create_size(args, 8, err);
}

/* a before b: in the current group, then by group (oldest first); inside a group the last issued
 * warp, then by age and id */
static bool fg_before(const policy_warp *a, const policy_warp *b, unsigned g, uint64_t cur,
                      const policy_warp *last)
{
    uint64_t ga = a->age / g, gb = b->age / g;
    if ((ga == cur) != (gb == cur))
        return ga == cur;
    if (ga != gb)
        return ga < gb;
    if ((a == last) != (b == last))
        return a == last;
    if (a->age != b->age)
        return a->age < b->age;
    return a->id < b->id;
}

/* The warp issued last (latest last_issue; ties: older), or NULL. */
static const policy_warp *last_issued(const policy_warp *w, unsigned n)
{
    const policy_warp *last = NULL;
    for (unsigned i = 0; i < n; i++) {
        const policy_warp *x = &w[i];
        if (x->last_issue == POLICY_NEVER_ISSUED)
            continue;
        if (!last || x->last_issue > last->last_issue ||
            (x->last_issue == last->last_issue &&
             (x->age < last->age || (x->age == last->age && x->id < last->id))))
            last = x;
    }
    return last;
}

/* 2LVL-LRR's a before b: the current group, then the younger groups in order, then the older ones
 * (round robin over groups); inside a group, the warps after the last issued one by age, then the
 * rest (round robin inside the group: the last issued warp comes last). */
static bool fg_rr_before(const policy_warp *a, const policy_warp *b, unsigned g, uint64_t cur,
                         const policy_warp *last)
{
    uint64_t ga = a->age / g, gb = b->age / g;
    unsigned ra = ga == cur ? 0 : ga > cur ? 1 : 2, rb = gb == cur ? 0 : gb > cur ? 1 : 2;
    if (ra != rb)
        return ra < rb;
    if (ga != gb)
        return ga < gb;
    if (last && ga == last->age / g) {
        bool pa = a->age > last->age || (a->age == last->age && a->id > last->id);
        bool pb = b->age > last->age || (b->age == last->age && b->id > last->id);
        if (pa != pb)
            return pa;
    }
    if (a->age != b->age)
        return a->age < b->age;
    return a->id < b->id;
}

static unsigned sort_ready(policy_warp *w, unsigned n, unsigned g, unsigned *out,
                           bool (*before)(const policy_warp *, const policy_warp *, unsigned, uint64_t,
                                          const policy_warp *))
{
    const policy_warp *last = last_issued(w, n);
    uint64_t cur = last ? last->age / g : UINT64_MAX;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!w[i].ready)
            continue;
        unsigned j = k++;
        while (j > 0 && before(&w[i], &w[out[j - 1]], g, cur, last)) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = i;
    }
    return k;
}

static unsigned fg_order(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)cycle;
    return sort_ready(w, n, *(const unsigned *)self, out, fg_before);
}

static unsigned fg_rr_order(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)cycle;
    return sort_ready(w, n, *(const unsigned *)self, out, fg_rr_before);
}

static const policy_class fetch_groups_class = {
    "fetch_groups",
    "2LVL-GTO: fetch groups of G warps by age, GTO inside the current group, then the oldest group",
    fg_create,
    g_free,
    fg_order,
    true,
};

static const policy_class fetch_groups_lrr_class = {
    "fetch_groups_lrr",
    "2LVL-LRR: fetch groups of G warps (8) by age, round robin inside the current group and across groups",
    fg_rr_create,
    g_free,
    fg_rr_order,
    true,
};

void fetch_groups_register(void)
{
    if (!policy_lookup("fetch_groups"))
        policy_register(&fetch_groups_class);
    if (!policy_lookup("fetch_groups_lrr"))
        policy_register(&fetch_groups_lrr_class);
}
