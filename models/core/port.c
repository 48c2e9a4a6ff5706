/* port.c — port arrays, FIFO connections with the consumer's depth, interface exports and imports,
 * their binding checks and traced calls (block.h, "channels and interfaces between blocks").
 *
 * An interface port holds no SystemC channel: an export records its method table and `self`, an
 * import the exports bound to it. A client looks its imports up once (blk_import) and then calls
 * through the table: the call runs in the client's activation, in the same cycle, at the cost of an
 * indirect call. The rule that keeps results independent of the order of activations in a cycle
 * (docs/framework.md, "Interfaces"): a passive block, changed only by its one client's calls inside
 * the client's activation, may be queried in the same cycle; a block with a process of its own
 * publishes what others query as next-cycle state. */
#include "models/core/port.h"

#include <string.h>

void blk_link_init(struct blk_link *l, blk_inst *inst, unsigned idx, unsigned k)
{
    memset(l, 0, sizeof *l);
    l->inst = inst;
    l->idx = idx;
    l->k = k;
}

void blk_link_clear(struct blk_link *l)
{
    if (l->bound)
        g_ptr_array_free(l->bound, TRUE);
    if (l->stubs)
        g_ptr_array_free(l->stubs, TRUE);
    l->bound = l->stubs = NULL;
}

/* Never traced: the pulse of a stub's probe (a stub is no block: nothing to show). */
static gsc_pulse stub_pulse;

char *blk_port_element_name(const blk_inst *inst, unsigned idx, unsigned k)
{
    const char *name = inst->desc->ports[idx].name;
    const char *pc = strstr(name, "%u");
    if (!pc)
        return g_strdup(name);
    return g_strdup_printf("%.*s%u%s", (int)(pc - name), name, k, pc + 2);
}

bool blk_port_lookup(const blk_inst *inst, const char *name, unsigned *idx, unsigned *k)
{
    const blk_desc *d = inst->desc;
    for (unsigned i = 0; i < d->n_ports; i++) {
        const char *pn = d->ports[i].name, *pc = strstr(pn, "%u");
        if (!pc) {
            if (strcmp(pn, name) == 0) {
                *idx = i, *k = 0;
                return true;
            }
            continue;
        }
        size_t pre = (size_t)(pc - pn), post = strlen(pc + 2), len = strlen(name);
        if (len <= pre + post || strncmp(name, pn, pre) != 0 || strcmp(name + len - post, pc + 2) != 0)
            continue;
        unsigned v = 0;
        const char *p = name + pre, *end = name + len - post;
        bool digits = p < end && (p[0] != '0' || p + 1 == end);
        for (; digits && p < end; p++) {
            if (*p < '0' || *p > '9' || v > 100000)
                digits = false;
            else
                v = v * 10 + (unsigned)(*p - '0');
        }
        if (digits && v < inst->port_count[i]) {
            *idx = i, *k = v;
            return true;
        }
    }
    return false;
}

static struct blk_link *link_of(const blk_inst *inst, unsigned idx, unsigned k)
{
    g_assert(idx < inst->desc->n_ports && k < inst->port_count[idx]);
    return &inst->links[blk_port_flat(inst, idx, k)];
}

/* The port element `name` of inst, or a fatal error naming what the caller was doing. */
static void lookup_or_die(const blk_inst *inst, const char *name, const char *doing, unsigned *idx,
                          unsigned *k)
{
    if (!blk_port_lookup(inst, name, idx, k))
        gsc_fatal("%s: %s has no port %s (see --describe %s)", doing, inst->path, name, inst->desc->name);
}

gsc_fifo *blk_connect(gsc_module *parent, const char *name, blk_inst *producer, const char *out,
                      blk_inst *consumer, const char *in)
{
    char *doing = g_strdup_printf("connecting %s.%s to %s.%s", producer->path, out, consumer->path, in);
    unsigned oi, ok, ii, ik;
    lookup_or_die(producer, out, doing, &oi, &ok);
    lookup_or_die(consumer, in, doing, &ii, &ik);
    const blk_port_desc *po = &producer->desc->ports[oi], *pi = &consumer->desc->ports[ii];
    if (po->chan != BLK_CHAN_FIFO || po->dir != GSC_OUT)
        gsc_fatal("%s: %s.%s is not a FIFO output", doing, producer->path, out);
    if (pi->chan != BLK_CHAN_FIFO || pi->dir != GSC_IN)
        gsc_fatal("%s: %s.%s is not a FIFO input", doing, consumer->path, in);
    if (po->type != pi->type)
        gsc_fatal("%s: the producer puts %s, the consumer takes %s", doing, po->type->name, pi->type->name);
    g_free(doing);
    gsc_fifo *f = gsc_fifo_new(parent, name, pi->type, blk_port_fifo_depth(consumer, ii));
    gsc_port_bind_fifo(blk_port_at(producer, oi, ok), f);
    gsc_port_bind_fifo(blk_port_at(consumer, ii, ik), f);
    return f;
}

void blk_export(blk_inst *inst, unsigned idx, unsigned k, const void *methods, void *self)
{
    const blk_port_desc *pd = &inst->desc->ports[idx];
    g_assert(pd->chan == BLK_CHAN_EXPORT && methods);
    struct blk_link *l = link_of(inst, idx, k);
    g_assert(!l->methods);
    l->methods = methods;
    l->self = self;
    char *name = blk_port_element_name(inst, idx, k);
    char *calls = g_strdup_printf("%s.calls", name);
    l->probe.pulse = gsc_pulse_new(inst->mod, calls, 8);
    for (unsigned f = 0; f < BLK_CALL_FIELDS && pd->iface->fields[f]; f++) {
        char *fn = g_strdup_printf("%s.%s", name, pd->iface->fields[f]);
        unsigned w = pd->iface->field_width[f] ? pd->iface->field_width[f] : 32;
        gsc_trace_var(inst->mod, fn, GSC_U32, &l->probe.vals[f], w);
        g_free(fn);
    }
    g_free(calls);
    g_free(name);
}

void blk_export_noted(blk_inst *inst, unsigned idx, unsigned k, const void *plain, const void *noted,
                      void *self)
{
    g_assert(noted);
    blk_export(inst, idx, k, plain, self);
    struct blk_link *l = link_of(inst, idx, k);
    if (gsc_pulse_will_trace(l->probe.pulse))
        l->methods = noted;
}

blk_call_probe *blk_export_probe(blk_inst *inst, unsigned idx, unsigned k)
{
    struct blk_link *l = link_of(inst, idx, k);
    g_assert(l->methods);
    return &l->probe;
}

void blk_export_probes(blk_inst *inst, blk_call_probe **probes, unsigned n)
{
    g_assert(n <= inst->desc->n_ports);
    for (unsigned i = 0; i < n; i++)
        probes[i] = inst->desc->ports[i].chan == BLK_CHAN_EXPORT ? blk_export_probe(inst, i, 0) : NULL;
}

void blk_call_note_slow(blk_call_probe *p, uint32_t a, uint32_t b, uint32_t c)
{
    p->vals[0] = a;
    p->vals[1] = b;
    p->vals[2] = c;
    gsc_pulse_fire(p->pulse);
}

void blk_bind(blk_inst *client, const char *import, blk_inst *server, const char *export)
{
    char *doing = g_strdup_printf("binding %s.%s to %s.%s", client->path, import, server->path, export);
    unsigned ci, ck, si, sk;
    lookup_or_die(client, import, doing, &ci, &ck);
    lookup_or_die(server, export, doing, &si, &sk);
    const blk_port_desc *pc = &client->desc->ports[ci], *ps = &server->desc->ports[si];
    if (pc->chan != BLK_CHAN_IMPORT)
        gsc_fatal("%s: %s.%s is not an interface import", doing, client->path, import);
    if (ps->chan != BLK_CHAN_EXPORT)
        gsc_fatal("%s: %s.%s is not an interface export", doing, server->path, export);
    if (pc->iface != ps->iface && strcmp(pc->iface->name, ps->iface->name) != 0)
        gsc_fatal("%s: the import expects interface %s, the export offers %s", doing, pc->iface->name,
                  ps->iface->name);
    struct blk_link *cl = link_of(client, ci, ck), *sl = link_of(server, si, sk);
    if (!sl->methods)
        gsc_fatal("%s: the export has no implementation (its constructor did not call blk_export)", doing);
    if (!cl->bound)
        cl->bound = g_ptr_array_new();
    if (cl->bound->len && !(pc->flags & BLK_PORT_MULTI)) {
        const struct blk_link *old = g_ptr_array_index(cl->bound, 0);
        char *on = old->inst ? blk_port_element_name(old->inst, old->idx, old->k) : g_strdup("a stub");
        gsc_fatal("%s: the import is already bound to %s%s%s (only a MULTI import takes several)", doing,
                  old->inst ? old->inst->path : "", old->inst ? "." : "", on);
    }
    g_ptr_array_add(cl->bound, sl);
    gsc_trace_calls(client->mod, server->mod); /* the client's calls change the server's traced state */
    g_free(doing);
}

static blk_iref iref_of(const struct blk_link *l)
{
    return (blk_iref){l->methods, l->self, l};
}

blk_iref blk_export_ref(const blk_inst *inst, unsigned idx, unsigned k)
{
    const struct blk_link *l = link_of(inst, idx, k);
    g_assert(inst->desc->ports[idx].chan == BLK_CHAN_EXPORT && l->methods);
    return iref_of(l);
}

void blk_bind_stub(blk_inst *client, const char *import, const void *methods, void *self)
{
    unsigned ci, ck;
    lookup_or_die(client, import, "binding a stub", &ci, &ck);
    const blk_port_desc *pc = &client->desc->ports[ci];
    if (pc->chan != BLK_CHAN_IMPORT)
        gsc_fatal("binding a stub: %s.%s is not an interface import", client->path, import);
    struct blk_link *cl = link_of(client, ci, ck);
    if (!cl->bound)
        cl->bound = g_ptr_array_new();
    if (cl->bound->len && !(pc->flags & BLK_PORT_MULTI))
        gsc_fatal("binding a stub: %s.%s is already bound", client->path, import);
    /* the stub's link lives as long as the instance: kept in a list freed with the import's */
    struct blk_link *stub = g_new0(struct blk_link, 1);
    blk_link_init(stub, NULL, 0, 0);
    stub->methods = methods;
    stub->self = self;
    stub->probe.pulse = &stub_pulse;
    g_ptr_array_add(cl->bound, stub);
    if (!cl->stubs)
        cl->stubs = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(cl->stubs, stub);
}

blk_iref blk_import(const blk_inst *inst, unsigned idx, unsigned k)
{
    const struct blk_link *l = link_of(inst, idx, k);
    g_assert(inst->desc->ports[idx].chan == BLK_CHAN_IMPORT);
    if (!l->bound || !l->bound->len)
        return (blk_iref){NULL, NULL, NULL};
    return iref_of(g_ptr_array_index(l->bound, 0));
}

unsigned blk_import_n(const blk_inst *inst, unsigned idx, unsigned k)
{
    const struct blk_link *l = link_of(inst, idx, k);
    return l->bound ? l->bound->len : 0;
}

blk_iref blk_import_nth(const blk_inst *inst, unsigned idx, unsigned k, unsigned i)
{
    const struct blk_link *l = link_of(inst, idx, k);
    g_assert(l->bound && i < l->bound->len);
    return iref_of(g_ptr_array_index(l->bound, i));
}

blk_iref *blk_import_all(const blk_inst *inst, unsigned idx, unsigned k, unsigned *n)
{
    *n = blk_import_n(inst, idx, k);
    blk_iref *r = *n ? g_new0(blk_iref, *n) : NULL;
    for (unsigned i = 0; i < *n; i++)
        r[i] = blk_import_nth(inst, idx, k, i);
    return r;
}

blk_inst *blk_import_peer(const blk_inst *inst, unsigned idx, unsigned k, char **export_name)
{
    const struct blk_link *l = link_of(inst, idx, k);
    if (!l->bound || !l->bound->len)
        return NULL;
    const struct blk_link *e = g_ptr_array_index(l->bound, 0);
    if (!e->inst)
        return NULL; /* a stub */
    if (export_name)
        *export_name = blk_port_element_name(e->inst, e->idx, e->k);
    return e->inst;
}

/* "a.b.export, c.d.export" (to g_free): the exports of interface `iface` in ctx, or "none". */
static char *exporters(const blk_ctx *ctx, const blk_iface *iface)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        for (unsigned p = 0; p < inst->desc->n_ports; p++) {
            const blk_port_desc *pd = &inst->desc->ports[p];
            if (pd->chan != BLK_CHAN_EXPORT || strcmp(pd->iface->name, iface->name) != 0)
                continue;
            for (unsigned k = 0; k < inst->port_count[p]; k++) {
                char *n = blk_port_element_name(inst, p, k);
                g_string_append_printf(s, "%s%s.%s", s->len ? ", " : "", inst->path, n);
                g_free(n);
            }
        }
    }
    if (!s->len)
        g_string_append(s, "none");
    return g_string_free(s, FALSE);
}

void blk_ctx_check_links(const blk_ctx *ctx)
{
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        for (unsigned p = 0; p < inst->desc->n_ports; p++) {
            const blk_port_desc *pd = &inst->desc->ports[p];
            for (unsigned k = 0; k < inst->port_count[p]; k++) {
                const struct blk_link *l = link_of(inst, p, k);
                char *n = blk_port_element_name(inst, p, k);
                if (pd->chan == BLK_CHAN_EXPORT && !l->methods)
                    gsc_fatal("%s.%s: the export of interface %s has no implementation (blk_export)",
                              inst->path, n, pd->iface->name);
                if (pd->chan == BLK_CHAN_IMPORT && !(pd->flags & (BLK_PORT_OPTIONAL | BLK_PORT_MULTI)) &&
                    !(l->bound && l->bound->len)) {
                    char *ex = exporters(ctx, pd->iface);
                    gsc_fatal("%s.%s: the import of interface %s is not bound (exports of %s here: %s)",
                              inst->path, n, pd->iface->name, pd->iface->name, ex);
                }
                g_free(n);
            }
        }
    }
}
