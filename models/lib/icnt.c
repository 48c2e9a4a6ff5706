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

/* A source's injection-end records (uint64_t) and a destination's packets, typed: the generic
 * ring_at multiplies by the record size, a cost on every packet of the hot path. */
static inline uint64_t *inject_at(const ring *q, unsigned i)
{
    return (uint64_t *)(void *)q->buf + ((q->head + i) & (q->cap - 1));
}
static inline icnt_packet *deliver_head(const ring *d)
{
    return (icnt_packet *)(void *)d->buf + d->head;
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
    return *inject_at(q, len - n->cfg.inject_depth);
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
    while (q->n && *inject_at(q, 0) <= cycle) {
        q->head = (q->head + 1) & (q->cap - 1);
        q->n--;
    }
    g_assert(n->cfg.inject_depth == 0 || ring_len(q) < n->cfg.inject_depth);
    unsigned s = icnt_packet_cycles(&n->cfg, bytes);
    uint64_t inject = MAX(cycle, n->src_free[src]);
    uint64_t end = inject + s;
    n->src_free[src] = end;
    if (q->n == q->cap)
        ring_grow(q);
    *inject_at(q, q->n++) = end;
    /* (the deliveries of dst increase: eject is at least dst_free, the end of the previous one) */
    uint64_t eject = MAX(inject + n->cfg.latency, n->dst_free[dst]);
    n->dst_free[dst] = eject + s;
    icnt_packet *p = ring_push_slot(&n->deliver[dst]);
    *p = (icnt_packet){
        .src = src, .dst = dst, .bytes = bytes, .payload = payload, .sent = cycle, .delivered = eject + s};
    n->in_flight++;
    return eject + s;
}

bool icnt_pop(icnt *n, unsigned dst, uint64_t cycle, icnt_packet *out)
{
    g_assert(dst < n->cfg.ports);
    ring *d = &n->deliver[dst];
    if (!d->n)
        return false;
    const icnt_packet *p = deliver_head(d);
    if (p->delivered > cycle)
        return false;
    *out = *p;
    d->head = (d->head + 1) & (d->cap - 1);
    d->n--;
    n->in_flight--;
    return true;
}

uint64_t icnt_next_delivery(const icnt *n, unsigned dst)
{
    g_assert(dst < n->cfg.ports);
    const ring *d = &n->deliver[dst];
    return d->n ? deliver_head(d)->delivered : UINT64_MAX;
}

unsigned icnt_in_flight(const icnt *n)
{
    return n->in_flight;
}
