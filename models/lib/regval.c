/* regval.c — the register value hook chain; see regval.h. */
#include "models/lib/regval.h"
#include "models/lib/hooks.h"

struct regval_chain {
    hooks *hooks; /* regval_fn callbacks with a regval_stats each */
};

regval_chain *regval_chain_new(void)
{
    regval_chain *c = g_new0(regval_chain, 1);
    c->hooks = hooks_new(sizeof(regval_stats));
    return c;
}

void regval_chain_free(regval_chain *c)
{
    if (!c)
        return;
    hooks_free(c->hooks);
    g_free(c);
}

unsigned regval_chain_add(regval_chain *c, const char *name, regval_fn fn, void *ctx)
{
    g_return_val_if_fail(fn, 0);
    return hooks_add(c->hooks, name, (hooks_fn)fn, ctx);
}

unsigned regval_chain_len(const regval_chain *c)
{
    return hooks_len(c->hooks);
}

const char *regval_chain_name(const regval_chain *c, unsigned i)
{
    hooks_entry *e = hooks_get(c->hooks, i);
    return e ? e->name : NULL;
}

const regval_stats *regval_chain_stats(const regval_chain *c, unsigned i)
{
    hooks_entry *e = hooks_get(c->hooks, i);
    return e ? e->stats : NULL;
}

void regval_run(regval_chain *c, regval_access *a)
{
    g_assert(a->kind < REGVAL_N_KINDS);
    bool quiet = hooks_len(c->hooks) > 0;
    for (unsigned i = 0; i < hooks_len(c->hooks); i++) {
        hooks_entry *h = hooks_at(c->hooks, i);
        ((regval_stats *)h->stats)->calls[a->kind]++;
        a->quiet = false;
        ((regval_fn)h->fn)(h->ctx, a);
        quiet &= a->quiet;
    }
    a->quiet = quiet;
}

void regval_poison(uint64_t *v, uint32_t lanes)
{
    for (; lanes; lanes &= lanes - 1)
        v[__builtin_ctz(lanes)] = REGVAL_POISON;
}
