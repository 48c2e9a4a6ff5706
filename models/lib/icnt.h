/* icnt.h — timing core of the SM <-> memory-partition interconnect: per-port serialisation in flits,
 * a fixed traversal latency, bounded injection queues, per-destination delivery queues.
 *
 * A packet of `bytes` is F = max(1, ceil(bytes / flit_bytes)) flits and occupies a port for
 * S = ceil(F / flits_per_cycle) cycles. Sent at cycle t from src to dst:
 *   inject = max(t, src_free[src]);  src_free[src] = inject + S
 *   eject  = max(inject + latency, dst_free[dst]);  dst_free[dst] = eject + S
 *   delivered at eject + S
 * so a lone packet takes latency + S cycles, N back-to-back packets from one source to one destination
 * are delivered at t + latency + (k+1) * S, and two sources into one destination share its port.
 * Delivery order at a destination is the order of delivery cycles (ties: send order).
 * GPGPU-Sim's GTX480 network (config_fermi_islip.icnt) uses 32-byte flits; its router pipeline and
 * iSLIP allocation are not modelled: the crossbar is assumed contention-free except at the ports.
 * Room: SPU SM-to-SM links (SPU spec §2) are separate icnt instances with their own ports.
 */
#ifndef GPUSC_MODELS_LIB_ICNT_H
#define GPUSC_MODELS_LIB_ICNT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "models/lib/ring.h"

G_BEGIN_DECLS

typedef struct {
    unsigned ports;           /* nodes: SMs and memory sub-partitions */
    unsigned latency;         /* traversal cycles (head flit) */
    unsigned flit_bytes;      /* 32 */
    unsigned flits_per_cycle; /* per-port bandwidth */
    unsigned inject_depth;    /* packets waiting or being injected per source port; 0 = unbounded */
} icnt_config;

typedef struct {
    unsigned src, dst;
    uint64_t payload;
    uint64_t sent, delivered;
} icnt_packet;

/* The network's state. Its members are read and written only here and in icnt.c: the functions of
 * the hot path (a send and an ejection per packet, a look at a destination's next delivery in every
 * activation of the block that drives it) are inline, as gsc_fifo_can_get is. */
typedef struct icnt {
    icnt_config cfg;
    uint64_t *src_free, *dst_free;
    /* Per source, with a bounded injection queue: the injection-end cycles of its last inject_cap
     * packets (a power of two at least inject_depth), the k-th sent at k % inject_cap, and the
     * packets sent. The ends increase (a source injects one packet after the other), so the
     * packets still injecting at a cycle are the newest ones. */
    uint64_t *inject_end;
    uint64_t *sent;
    unsigned inject_cap;
    /* Per destination: its packets by delivery cycle, which increase (a packet's ejection starts
     * at or after the previous one's end), so it is a FIFO. */
    ring *deliver; /* icnt_packet */
    unsigned in_flight;
} icnt;

icnt *icnt_new(const icnt_config *c);
void icnt_free(icnt *n);

/* S: the cycles a packet of `bytes` occupies a port. */
static inline unsigned icnt_packet_cycles(const icnt_config *c, unsigned bytes)
{
    unsigned flits = (bytes + c->flit_bytes - 1) / c->flit_bytes;
    if (flits == 0)
        flits = 1;
    return (flits + c->flits_per_cycle - 1) / c->flits_per_cycle;
}

/* The first cycle at which icnt_can_send(n, src, cycle) holds, if nothing more is sent from src (0,
 * or a cycle already past, when it holds now): the queue has room when the source has sent fewer
 * than inject_depth packets or the inject_depth-th newest has ended. */
static inline uint64_t icnt_room_at(const icnt *n, unsigned src)
{
    uint64_t k = n->sent[src];
    if (n->cfg.inject_depth == 0 || k < n->cfg.inject_depth)
        return 0;
    return n->inject_end[(size_t)src * n->inject_cap + ((k - n->cfg.inject_depth) & (n->inject_cap - 1))];
}

static inline bool icnt_can_send(const icnt *n, unsigned src, uint64_t cycle)
{
    return icnt_room_at(n, src) <= cycle;
}

/* Sends a packet that occupies a port for s cycles (icnt_packet_cycles; icnt_can_send must hold);
 * returns its delivery cycle. Calls must come in cycle order. */
static inline __attribute__((always_inline)) uint64_t
icnt_send_cycles(icnt *n, uint64_t cycle, unsigned src, unsigned dst, unsigned s, uint64_t payload)
{
    uint64_t inject = MAX(cycle, n->src_free[src]);
    uint64_t end = inject + s;
    n->src_free[src] = end;
    if (n->cfg.inject_depth)
        n->inject_end[(size_t)src * n->inject_cap + (n->sent[src] & (n->inject_cap - 1))] = end;
    n->sent[src]++;
    /* (the deliveries of dst increase: eject is at least dst_free, the end of the previous one) */
    uint64_t eject = MAX(inject + n->cfg.latency, n->dst_free[dst]);
    n->dst_free[dst] = eject + s;
    ring *d = &n->deliver[dst];
    if (d->n == d->cap)
        ring_grow(d);
    icnt_packet *p = (icnt_packet *)(void *)d->buf + ((d->head + d->n++) & (d->cap - 1));
    *p = (icnt_packet){.src = src, .dst = dst, .payload = payload, .sent = cycle, .delivered = eject + s};
    n->in_flight++;
    return eject + s;
}

/* Sends a packet of `bytes` (g_assert(icnt_can_send)); returns its delivery cycle. Calls must come
 * in cycle order. */
uint64_t icnt_send(icnt *n, uint64_t cycle, unsigned src, unsigned dst, unsigned bytes, uint64_t payload);

/* The oldest packet bound for dst, delivered or not (NULL: none); valid until the next send to dst
 * or icnt_drop. */
static inline const icnt_packet *icnt_head(const icnt *n, unsigned dst)
{
    const ring *d = &n->deliver[dst];
    return d->n ? (const icnt_packet *)(const void *)d->buf + d->head : NULL;
}

/* Removes dst's oldest packet (there must be one). */
static inline void icnt_drop(icnt *n, unsigned dst)
{
    ring *d = &n->deliver[dst];
    d->head = (d->head + 1) & (d->cap - 1);
    d->n--;
    n->in_flight--;
}

/* The packets bound for dst (delivered or not, not yet taken). */
static inline unsigned icnt_queued(const icnt *n, unsigned dst)
{
    return n->deliver[dst].n;
}

/* Takes dst's oldest packet if it is delivered by `cycle`. */
bool icnt_pop(icnt *n, unsigned dst, uint64_t cycle, icnt_packet *out);

static inline uint64_t icnt_next_delivery(const icnt *n, unsigned dst) /* UINT64_MAX if none */
{
    const icnt_packet *p = icnt_head(n, dst);
    return p ? p->delivered : UINT64_MAX;
}

static inline unsigned icnt_in_flight(const icnt *n)
{
    return n->in_flight;
}

G_END_DECLS

#endif
