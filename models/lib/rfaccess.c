/* rfaccess.c — the register access hook chain; see rfaccess.h. */
#include "models/lib/rfaccess.h"

typedef struct {
    char *name;
    rfaccess_fn fn;
    void *ctx;
    rfaccess_stats stats;
} hook;

struct rfaccess_chain {
    GArray *hooks; /* hook */
};

rfaccess_chain *rfaccess_chain_new(void)
{
    rfaccess_chain *c = g_new0(rfaccess_chain, 1);
    c->hooks = g_array_new(FALSE, TRUE, sizeof(hook));
    return c;
}

void rfaccess_chain_free(rfaccess_chain *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->hooks->len; i++)
        g_free(g_array_index(c->hooks, hook, i).name);
    g_array_free(c->hooks, TRUE);
    g_free(c);
}

unsigned rfaccess_chain_add(rfaccess_chain *c, const char *name, rfaccess_fn fn, void *ctx)
{
    g_return_val_if_fail(fn, 0);
    hook h = {.name = g_strdup(name ? name : "hook"), .fn = fn, .ctx = ctx};
    g_array_append_val(c->hooks, h);
    return c->hooks->len - 1;
}

unsigned rfaccess_chain_len(const rfaccess_chain *c)
{
    return c->hooks->len;
}

const char *rfaccess_chain_name(const rfaccess_chain *c, unsigned i)
{
    g_return_val_if_fail(i < c->hooks->len, NULL);
    return g_array_index(c->hooks, hook, i).name;
}

const rfaccess_stats *rfaccess_chain_stats(const rfaccess_chain *c, unsigned i)
{
    g_return_val_if_fail(i < c->hooks->len, NULL);
    return &g_array_index(c->hooks, hook, i).stats;
}

rfaccess_verdict rfaccess_run(rfaccess_chain *c, rfaccess_req *r)
{
    r->delay = 0;
    r->refused_by = -1;
    for (unsigned i = 0; i < c->hooks->len; i++) {
        hook *h = &g_array_index(c->hooks, hook, i);
        unsigned d = 0;
        h->stats.calls++;
        rfaccess_verdict v = h->fn(h->ctx, r, &d);
        if (v == RFACCESS_RETRY) {
            h->stats.retries++;
            r->refused_by = (int)i;
            return RFACCESS_RETRY;
        }
        if (v == RFACCESS_DELAY) {
            g_assert(d >= 1);
            h->stats.delays++;
            h->stats.delay_cycles += d;
            r->delay += d;
        }
    }
    return r->delay ? RFACCESS_DELAY : RFACCESS_ALLOW;
}
