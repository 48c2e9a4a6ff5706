/* hooks.h — an ordered list of named callbacks, each with its context and a statistics record whose
 * layout its owner defines. The register access chain (rfaccess.h) and the register value chain
 * (regval.h) are each one list: they differ in their callback's type, what they count and how they
 * combine the answers, not in how hooks are kept.
 *
 * A callback is stored as a generic function pointer (hooks_fn); the owner casts it back to its own
 * type before calling it (C allows the round trip between function pointer types). Statistics
 * records are zeroed when a hook is added. Hooks run in the order they were added.
 */
#ifndef GPUSC_MODELS_LIB_HOOKS_H
#define GPUSC_MODELS_LIB_HOOKS_H

#include <glib.h>
#include <stddef.h>

G_BEGIN_DECLS

typedef void (*hooks_fn)(void);

typedef struct {
    char *name;
    hooks_fn fn;
    void *ctx;
    void *stats; /* the owner's statistics record (stats_size bytes) */
} hooks_entry;

typedef struct {
    GArray *entries; /* hooks_entry */
    size_t stats_size;
} hooks;

hooks *hooks_new(size_t stats_size);
void hooks_free(hooks *h);
/* Appends a hook (name NULL: "hook"); returns its index. */
unsigned hooks_add(hooks *h, const char *name, hooks_fn fn, void *ctx);

static inline unsigned hooks_len(const hooks *h)
{
    return h->entries->len;
}

/* The i-th hook (i < hooks_len). */
static inline hooks_entry *hooks_at(const hooks *h, unsigned i)
{
    return &g_array_index(h->entries, hooks_entry, i);
}

/* The i-th hook, or NULL (with a GLib critical) when there is none: for the public getters. */
hooks_entry *hooks_get(const hooks *h, unsigned i);

G_END_DECLS

#endif
