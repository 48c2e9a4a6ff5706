/* fetch_groups.c — see fetch_groups.h. */
#include "models/ccws/fetch_groups.h"

#include <stdlib.h>

#include "models/lib/policy.h"

static void *fg_create(const char *args, GError **err)
{
    unsigned *g = g_new(unsigned, 1);
    *g = 2;
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

static unsigned fg_order(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)cycle;
    unsigned g = *(const unsigned *)self;
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
    uint64_t cur = last ? last->age / g : UINT64_MAX;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!w[i].ready)
            continue;
        unsigned j = k++;
        while (j > 0 && fg_before(&w[i], &w[out[j - 1]], g, cur, last)) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = i;
    }
    return k;
}

static const policy_class fetch_groups_class = {
    "fetch_groups",
    "2LVL-GTO: fetch groups of G warps by age, GTO inside the current group, then the oldest group",
    fg_create,
    g_free,
    fg_order,
    true,
};

void fetch_groups_register(void)
{
    if (!policy_lookup("fetch_groups"))
        policy_register(&fetch_groups_class);
}
