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
    unsigned bytes;
    uint64_t payload;
    uint64_t sent, delivered;
} icnt_packet;

typedef struct icnt icnt;

icnt *icnt_new(const icnt_config *c);
void icnt_free(icnt *n);
unsigned icnt_packet_cycles(const icnt_config *c, unsigned bytes); /* S */
bool icnt_can_send(const icnt *n, unsigned src, uint64_t cycle);
/* The first cycle at which icnt_can_send(n, src, cycle) holds, if nothing more is sent from src
 * (0: it holds now). */
uint64_t icnt_room_at(const icnt *n, unsigned src);
/* Sends (g_assert(icnt_can_send)); returns the delivery cycle. Calls must come in cycle order. */
uint64_t icnt_send(icnt *n, uint64_t cycle, unsigned src, unsigned dst, unsigned bytes, uint64_t payload);
bool icnt_pop(icnt *n, unsigned dst, uint64_t cycle, icnt_packet *out);
uint64_t icnt_next_delivery(const icnt *n, unsigned dst); /* UINT64_MAX if none */
unsigned icnt_in_flight(const icnt *n);

G_END_DECLS

#endif
