/* hooks.c — see hooks.h. */
#include "models/lib/hooks.h"

hooks *hooks_new(size_t stats_size)
{
    hooks *h = g_new0(hooks, 1);
    h->entries = g_array_new(FALSE, TRUE, sizeof(hooks_entry));
    h->stats_size = stats_size;
    return h;
}

void hooks_free(hooks *h)
{
    if (!h)
        return;
    for (unsigned i = 0; i < hooks_len(h); i++) {
        g_free(hooks_at(h, i)->name);
        g_free(hooks_at(h, i)->stats);
    }
    g_array_free(h->entries, TRUE);
    g_free(h);
}

unsigned hooks_add(hooks *h, const char *name, hooks_fn fn, void *ctx)
{
    hooks_entry e = {.name = g_strdup(name ? name : "hook"),
                     .fn = fn,
                     .ctx = ctx,
                     .stats = g_malloc0(h->stats_size ? h->stats_size : 1)};
    g_array_append_val(h->entries, e);
    return hooks_len(h) - 1;
}

hooks_entry *hooks_get(const hooks *h, unsigned i)
{
    g_return_val_if_fail(i < hooks_len(h), NULL);
    return hooks_at(h, i);
}
