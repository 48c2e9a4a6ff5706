/* icnt.c — interconnect timing core; see icnt.h. */
#include "models/lib/icnt.h"

#include "models/lib/ring.h"

struct icnt {
    icnt_config cfg;
    uint64_t *src_free, *dst_free;
    /* Per source: the injection-end cycles of its packets, oldest first (increasing: a source
     * injects one packet after the other). Per destination: its packets by delivery cycle, which
     * increase too (a packet's ejection starts at or after the previous one's end), so both are
     * FIFOs. */
    ring *inject;  /* uint64_t */
    ring *deliver; /* icnt_packet */
    unsigned in_flight;
};

icnt *icnt_new(const icnt_config *c)
{
    g_return_val_if_fail(c->ports > 0 && c->flit_bytes > 0 && c->flits_per_cycle > 0, NULL);
    icnt *n = g_new0(icnt, 1);
    n->cfg = *c;
    n->src_free = g_new0(uint64_t, c->ports);
    n->dst_free = g_new0(uint64_t, c->ports);
    n->inject = g_new(ring, c->ports);
    n->deliver = g_new(ring, c->ports);
    for (unsigned i = 0; i < c->ports; i++) {
        ring_init(&n->inject[i], sizeof(uint64_t));
        ring_init(&n->deliver[i], sizeof(icnt_packet));
    }
    return n;
}

void icnt_free(icnt *n)
{
    if (!n)
        return;
    for (unsigned i = 0; i < n->cfg.ports; i++) {
        ring_clear(&n->inject[i]);
        ring_clear(&n->deliver[i]);
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

/* The records still injecting at `cycle` are the newest ones (the ends increase): the queue has
 * room when fewer than inject_depth records are kept, or the inject_depth-th newest has ended. */
uint64_t icnt_room_at(const icnt *n, unsigned src)
{
    g_assert(src < n->cfg.ports);
    const ring *q = &n->inject[src];
    unsigned len = ring_len(q);
    if (n->cfg.inject_depth == 0 || len < n->cfg.inject_depth)
        return 0;
    return *(const uint64_t *)ring_at(q, len - n->cfg.inject_depth);
}

bool icnt_can_send(const icnt *n, unsigned src, uint64_t cycle)
{
    return icnt_room_at(n, src) <= cycle;
}

uint64_t icnt_send(icnt *n, uint64_t cycle, unsigned src, unsigned dst, unsigned bytes, uint64_t payload)
{
    g_assert(src < n->cfg.ports && dst < n->cfg.ports);
    /* drop the injection records that finished by now: the rest are busy (icnt_can_send) */
    ring *q = &n->inject[src];
    while (!ring_empty(q) && *(const uint64_t *)ring_peek(q) <= cycle)
        ring_pop(q, NULL);
    g_assert(n->cfg.inject_depth == 0 || ring_len(q) < n->cfg.inject_depth);
    unsigned s = icnt_packet_cycles(&n->cfg, bytes);
    uint64_t inject = MAX(cycle, n->src_free[src]);
    uint64_t end = inject + s;
    n->src_free[src] = end;
    *(uint64_t *)ring_push_slot(q) = end;
    uint64_t eject = MAX(inject + n->cfg.latency, n->dst_free[dst]);
    n->dst_free[dst] = eject + s;
    ring *d = &n->deliver[dst];
    g_assert(ring_empty(d) || ((const icnt_packet *)ring_at(d, ring_len(d) - 1))->delivered < eject + s);
    icnt_packet *p = ring_push_slot(d);
    *p = (icnt_packet){
        .src = src, .dst = dst, .bytes = bytes, .payload = payload, .sent = cycle, .delivered = eject + s};
    n->in_flight++;
    return eject + s;
}

bool icnt_pop(icnt *n, unsigned dst, uint64_t cycle, icnt_packet *out)
{
    g_assert(dst < n->cfg.ports);
    ring *d = &n->deliver[dst];
    const icnt_packet *p = ring_peek(d);
    if (!p || p->delivered > cycle)
        return false;
    *out = *p;
    ring_pop(d, NULL);
    n->in_flight--;
    return true;
}

uint64_t icnt_next_delivery(const icnt *n, unsigned dst)
{
    g_assert(dst < n->cfg.ports);
    const ring *d = &n->deliver[dst];
    return ring_empty(d) ? UINT64_MAX : ((const icnt_packet *)ring_peek(d))->delivered;
}

unsigned icnt_in_flight(const icnt *n)
{
    return n->in_flight;
}
