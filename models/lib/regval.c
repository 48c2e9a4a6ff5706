/* regval.c — the register value hook chain; see regval.h. */
#include "models/lib/regval.h"

typedef struct {
    char *name;
    regval_fn fn;
    void *ctx;
    regval_stats stats;
} hook;

struct regval_chain {
    GArray *hooks; /* hook */
};

regval_chain *regval_chain_new(void)
{
    regval_chain *c = g_new0(regval_chain, 1);
    c->hooks = g_array_new(FALSE, TRUE, sizeof(hook));
    return c;
}

void regval_chain_free(regval_chain *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->hooks->len; i++)
        g_free(g_array_index(c->hooks, hook, i).name);
    g_array_free(c->hooks, TRUE);
    g_free(c);
}

unsigned regval_chain_add(regval_chain *c, const char *name, regval_fn fn, void *ctx)
{
    g_return_val_if_fail(fn, 0);
    hook h = {.name = g_strdup(name ? name : "hook"), .fn = fn, .ctx = ctx};
    g_array_append_val(c->hooks, h);
    return c->hooks->len - 1;
}

unsigned regval_chain_len(const regval_chain *c)
{
    return c->hooks->len;
}

const char *regval_chain_name(const regval_chain *c, unsigned i)
{
    g_return_val_if_fail(i < c->hooks->len, NULL);
    return g_array_index(c->hooks, hook, i).name;
}

const regval_stats *regval_chain_stats(const regval_chain *c, unsigned i)
{
    g_return_val_if_fail(i < c->hooks->len, NULL);
    return &g_array_index(c->hooks, hook, i).stats;
}

void regval_run(regval_chain *c, regval_access *a)
{
    g_assert(a->kind < REGVAL_N_KINDS);
    for (unsigned i = 0; i < c->hooks->len; i++) {
        hook *h = &g_array_index(c->hooks, hook, i);
        h->stats.calls[a->kind]++;
        h->fn(h->ctx, a);
    }
}

void regval_poison(uint64_t *v, uint32_t lanes)
{
    for (; lanes; lanes &= lanes - 1)
        v[__builtin_ctz(lanes)] = REGVAL_POISON;
}
