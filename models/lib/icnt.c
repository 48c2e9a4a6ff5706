/* icnt.c — interconnect timing core; see icnt.h. */
#include "models/lib/icnt.h"

struct icnt {
    icnt_config cfg;
    uint64_t *src_free, *dst_free;
    GArray **inject;  /* per source: uint64_t inject-end cycles of packets not yet fully injected */
    GArray **deliver; /* per destination: icnt_packet sorted by delivery */
    unsigned in_flight;
};

icnt *icnt_new(const icnt_config *c)
{
    g_return_val_if_fail(c->ports > 0 && c->flit_bytes > 0 && c->flits_per_cycle > 0, NULL);
    icnt *n = g_new0(icnt, 1);
    n->cfg = *c;
    n->src_free = g_new0(uint64_t, c->ports);
    n->dst_free = g_new0(uint64_t, c->ports);
    n->inject = g_new(GArray *, c->ports);
    n->deliver = g_new(GArray *, c->ports);
    for (unsigned i = 0; i < c->ports; i++) {
        n->inject[i] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
        n->deliver[i] = g_array_new(FALSE, FALSE, sizeof(icnt_packet));
    }
    return n;
}

void icnt_free(icnt *n)
{
    if (!n)
        return;
    for (unsigned i = 0; i < n->cfg.ports; i++) {
        g_array_free(n->inject[i], TRUE);
        g_array_free(n->deliver[i], TRUE);
    }
    g_free(n->inject);
    g_free(n->deliver);
    g_free(n->src_free);
    g_free(n->dst_free);
    g_free(n);
}

unsigned icnt_packet_cycles(const icnt_config *c, unsigned bytes)
{
    unsigned flits = (bytes + c->flit_bytes - 1) / c->flit_bytes;
    if (flits == 0)
        flits = 1;
    return (flits + c->flits_per_cycle - 1) / c->flits_per_cycle;
}

/* Drops injection records that finished by `cycle`. */
static void retire_injected(GArray *q, uint64_t cycle)
{
    unsigned k = 0;
    while (k < q->len && g_array_index(q, uint64_t, k) <= cycle)
        k++;
    if (k)
        g_array_remove_range(q, 0, k);
}

bool icnt_can_send(const icnt *n, unsigned src, uint64_t cycle)
{
    g_assert(src < n->cfg.ports);
    if (n->cfg.inject_depth == 0)
        return true;
    unsigned busy = 0;
    GArray *q = n->inject[src];
    for (unsigned i = 0; i < q->len; i++)
        busy += g_array_index(q, uint64_t, i) > cycle;
    return busy < n->cfg.inject_depth;
}

uint64_t icnt_send(icnt *n, uint64_t cycle, unsigned src, unsigned dst, unsigned bytes, uint64_t payload)
{
    g_assert(src < n->cfg.ports && dst < n->cfg.ports);
    g_assert(icnt_can_send(n, src, cycle));
    retire_injected(n->inject[src], cycle);
    unsigned s = icnt_packet_cycles(&n->cfg, bytes);
    uint64_t inject = MAX(cycle, n->src_free[src]);
    n->src_free[src] = inject + s;
    uint64_t end = inject + s;
    g_array_append_val(n->inject[src], end);
    uint64_t eject = MAX(inject + n->cfg.latency, n->dst_free[dst]);
    n->dst_free[dst] = eject + s;
    icnt_packet p = {
        .src = src, .dst = dst, .bytes = bytes, .payload = payload, .sent = cycle, .delivered = eject + s};
    GArray *d = n->deliver[dst];
    unsigned pos = d->len;
    while (pos > 0 && g_array_index(d, icnt_packet, pos - 1).delivered > p.delivered)
        pos--;
    g_array_insert_val(d, pos, p);
    n->in_flight++;
    return p.delivered;
}

bool icnt_pop(icnt *n, unsigned dst, uint64_t cycle, icnt_packet *out)
{
    g_assert(dst < n->cfg.ports);
    GArray *d = n->deliver[dst];
    if (!d->len || g_array_index(d, icnt_packet, 0).delivered > cycle)
        return false;
    if (out)
        *out = g_array_index(d, icnt_packet, 0);
    g_array_remove_index(d, 0);
    n->in_flight--;
    return true;
}

uint64_t icnt_next_delivery(const icnt *n, unsigned dst)
{
    g_assert(dst < n->cfg.ports);
    GArray *d = n->deliver[dst];
    return d->len ? g_array_index(d, icnt_packet, 0).delivered : UINT64_MAX;
}

unsigned icnt_in_flight(const icnt *n)
{
    return n->in_flight;
}
