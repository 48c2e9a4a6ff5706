/* icnt.c — interconnect timing core; see icnt.h (the functions of the hot path are inline there). */
#include "models/lib/icnt.h"

icnt *icnt_new(const icnt_config *c)
{
    g_return_val_if_fail(c->ports > 0 && c->flit_bytes > 0 && c->flits_per_cycle > 0, NULL);
    icnt *n = g_new0(icnt, 1);
    n->cfg = *c;
    n->src_free = g_new0(uint64_t, c->ports);
    n->dst_free = g_new0(uint64_t, c->ports);
    n->inject_cap = 1;
    while (n->inject_cap < c->inject_depth)
        n->inject_cap *= 2;
    n->inject_end = g_new0(uint64_t, (size_t)c->ports * n->inject_cap);
    n->sent = g_new0(uint64_t, c->ports);
    n->deliver = g_new(ring, c->ports);
    for (unsigned i = 0; i < c->ports; i++)
        ring_init(&n->deliver[i], sizeof(icnt_packet));
    return n;
}

void icnt_free(icnt *n)
{
    if (!n)
        return;
    for (unsigned i = 0; i < n->cfg.ports; i++)
        ring_clear(&n->deliver[i]);
    g_free(n->inject_end);
    g_free(n->sent);
    g_free(n->deliver);
    g_free(n->src_free);
    g_free(n->dst_free);
    g_free(n);
}

uint64_t icnt_send(icnt *n, uint64_t cycle, unsigned src, unsigned dst, unsigned bytes, uint64_t payload)
{
    g_assert(src < n->cfg.ports && dst < n->cfg.ports);
    g_assert(icnt_can_send(n, src, cycle));
    return icnt_send_cycles(n, cycle, src, dst, icnt_packet_cycles(&n->cfg, bytes), payload);
}

bool icnt_pop(icnt *n, unsigned dst, uint64_t cycle, icnt_packet *out)
{
    g_assert(dst < n->cfg.ports);
    const icnt_packet *p = icnt_head(n, dst);
    if (!p || p->delivered > cycle)
        return false;
    *out = *p;
    icnt_drop(n, dst);
    return true;
}
