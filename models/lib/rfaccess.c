/* rfaccess.c — the register access hook chain; see rfaccess.h. */
#include "models/lib/rfaccess.h"
#include "models/lib/hooks.h"

struct rfaccess_chain {
    hooks *hooks; /* rfaccess_fn callbacks with a rfaccess_stats each */
};

rfaccess_chain *rfaccess_chain_new(void)
{
    rfaccess_chain *c = g_new0(rfaccess_chain, 1);
    c->hooks = hooks_new(sizeof(rfaccess_stats));
    return c;
}

void rfaccess_chain_free(rfaccess_chain *c)
{
    if (!c)
        return;
    hooks_free(c->hooks);
    g_free(c);
}

unsigned rfaccess_chain_add(rfaccess_chain *c, const char *name, rfaccess_fn fn, void *ctx)
{
    g_return_val_if_fail(fn, 0);
    return hooks_add(c->hooks, name, (hooks_fn)fn, ctx);
}

unsigned rfaccess_chain_len(const rfaccess_chain *c)
{
    return hooks_len(c->hooks);
}

const char *rfaccess_chain_name(const rfaccess_chain *c, unsigned i)
{
    hooks_entry *e = hooks_get(c->hooks, i);
    return e ? e->name : NULL;
}

const rfaccess_stats *rfaccess_chain_stats(const rfaccess_chain *c, unsigned i)
{
    hooks_entry *e = hooks_get(c->hooks, i);
    return e ? e->stats : NULL;
}

rfaccess_verdict rfaccess_run(rfaccess_chain *c, rfaccess_req *r)
{
    r->delay = 0;
    r->refused_by = -1;
    for (unsigned i = 0; i < hooks_len(c->hooks); i++) {
        hooks_entry *h = hooks_at(c->hooks, i);
        rfaccess_stats *st = h->stats;
        unsigned d = 0;
        st->calls++;
        rfaccess_verdict v = ((rfaccess_fn)h->fn)(h->ctx, r, &d);
        if (v == RFACCESS_RETRY) {
            st->retries++;
            r->refused_by = (int)i;
            return RFACCESS_RETRY;
        }
        if (v == RFACCESS_DELAY) {
            g_assert(d >= 1);
            st->delays++;
            st->delay_cycles += d;
            r->delay += d;
        }
    }
    return r->delay ? RFACCESS_DELAY : RFACCESS_ALLOW;
}
