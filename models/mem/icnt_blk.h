/* icnt_blk.h — the `icnt` block: the interconnect between the SMs and the L2 sub-partitions
 * (docs/baseline-design.md §2.3; docs/memory.md). Two networks, as GPGPU-Sim's GTX480 configuration
 * has (config_fermi_islip.icnt: 2 subnets, 32-byte flits): requests SM -> sub-partition and replies
 * sub-partition -> SM, each a models/lib/icnt.h timing core over n_sms + n_parts nodes.
 *
 * Ports (created per node, so the descriptor lists none; names under the instance):
 *   sm_req<i>   in  F mem_req_t   requests from SM i            (bound to the SM's mem_req FIFO)
 *   sm_resp<i>  out F mem_resp_t  replies to SM i               (bound to the SM's mem_resp FIFO)
 *   l2_req<p>   out F mem_req_t   requests to sub-partition p   (the l2 slice's `req`)
 *   l2_resp<p>  in  F mem_resp_t  replies from sub-partition p  (the l2 slice's `resp`)
 *
 * Routing: a request goes to sub-partition (addr / interleave_bytes) mod n_parts [A: GPGPU-Sim uses
 * a configurable bit mapping]; a reply to SM resp.dst.
 * Packet sizes [A]: header_bytes for a read request or a write acknowledgement; a write carries its
 * masked bytes, an atomic its operands (lanes x esize, x2 for cas); a read or atomic reply the line
 * (an atomic reply's old values are at most a line).
 * Timing (models/lib/icnt.h, S = ceil(ceil(bytes / flit_bytes) / flits_per_cycle)): an item put on
 * sm_req<i> in cycle t is got by this block in t+1, sent then, and put on l2_req<p> in
 * t + 1 + latency + S (later if a port is busy or the output FIFO is full), so the L2 gets it in
 * t + 2 + latency + S. Back-to-back packets of one source serialise at S cycles each; packets of
 * several sources to one destination share its ejection port.
 * Sleeps until an input FIFO is put, an output FIFO is got, the next delivery is due, or a blocked
 * source's injection queue has room.
 */
#ifndef GPUSC_MODELS_MEM_ICNT_BLK_H
#define GPUSC_MODELS_MEM_ICNT_BLK_H

#include "models/core/block.h"
#include "models/lib/icnt.h"
#include "models/lib/slots.h"
#include "models/mem_types.h"

G_BEGIN_DECLS

enum { ICNT_PORT_SM_REQ, ICNT_PORT_SM_RESP, ICNT_PORT_L2_REQ, ICNT_PORT_L2_RESP };
#define ICNT_MAX_NODES 4096
#define ICNT_WHEEL     64 /* rows of the ejection's wheel (cycles) */

extern const blk_desc icnt_blk_desc;

enum {
    ICNT_STAT_REQ_PACKETS,
    ICNT_STAT_REQ_FLITS,
    ICNT_STAT_RESP_PACKETS,
    ICNT_STAT_RESP_FLITS,
    ICNT_STAT_INJECT_STALLS,
    ICNT_STAT_EJECT_STALLS,
    ICNT_STAT_REQ_LATENCY,
    ICNT_STAT_RESP_LATENCY,
    ICNT_STAT_REQ_UTIL,
    ICNT_STAT_RESP_UTIL,
    ICNT_STAT_COUNT
};

typedef struct icnt_blk icnt_blk;

/* A node (SM i: node i; sub-partition p: node n_sms + p), what the per-packet work reads of it
 * together. */
typedef struct {
    icnt_blk *b; /* (the input's arrival hook gets the node) */
    unsigned id;
    unsigned lat_stat;   /* the latency statistic of the packets leaving here */
    gsc_fifo *in;        /* SM i: sm_req<i>; sub-partition p: l2_resp<p> */
    gsc_fifo *out;       /* SM i: sm_resp<i>; sub-partition p: l2_req<p> */
    icnt *out_net;       /* the network whose packets leave here (SM: the reply network) */
    mem_slots *out_pool; /* their records */
    /* as a source: the cycle its input's head packet found the injection queue full (UINT64_MAX:
     * not blocked) and the cycle the queue has room (icnt_room_at): the block sleeps until then
     * instead of retrying */
    uint64_t stall_since, stall_room;
    /* the cycle its due packet found the output FIFO full (UINT64_MAX: not blocked) */
    uint64_t blocked_since;
    uint64_t due; /* in `far`: its delivery cycle */
} icnt_blk_node;

struct icnt_blk {
    blk_inst *inst;
    unsigned n_sms, n_parts;
    icnt_config net_cfg;
    unsigned header_bytes, interleave_bytes, out_depth;
    icnt *req_net, *resp_net;
    gsc_port **sm_req, **sm_resp, **l2_req, **l2_resp;
    mem_slots reqs;  /* mem_req_t in the request network */
    mem_slots resps; /* mem_resp_t in the reply network */
    icnt_blk_node *node;
    /* Ejection. A node with a packet on its way is filed by the delivery cycle of its oldest packet
     * in a wheel of ICNT_WHEEL rows (row c % ICNT_WHEEL: a bitmap of the nodes due at cycle c, for
     * the cycles wheel_at+1 .. wheel_at+ICNT_WHEEL), or, due later than that when filed, in `far`
     * with its cycle in its node's `due`. `blocked` (a bitmap) holds the nodes whose due packet found its
     * output FIFO full, tried again at every activation until there is room (a get on the FIFO
     * wakes the block). Per activation: the due nodes are a row or two, the next delivery the
     * first non-empty row after now (`wheel_used`: a bit per non-empty row). */
    unsigned words;  /* 64-bit words of a node bitmap */
    uint64_t *wheel; /* ICNT_WHEEL x words */
    uint64_t wheel_used;
    uint64_t wheel_at; /* the cycle the rows were last taken for */
    uint64_t *far;
    unsigned n_far; /* nodes in `far` */
    uint64_t *blocked;
    uint64_t *ready; /* the nodes due in this activation (empty between activations) */
    /* bitmap: the nodes whose input FIFO may hold a packet (set by the FIFO's arrival hook, cleared
     * when the injection finds it empty): the injection visits only those */
    uint64_t *arrived;
    gsc_event *wake;
    uint16_t req_in_flight, resp_in_flight; /* traced */
};

/* An interconnect between n_sms SMs and n_parts L2 sub-partitions. */
icnt_blk *icnt_blk_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned n_sms, unsigned n_parts);
void icnt_blk_free(icnt_blk *b);
gsc_port *icnt_blk_sm_req(const icnt_blk *b, unsigned sm);
gsc_port *icnt_blk_sm_resp(const icnt_blk *b, unsigned sm);
gsc_port *icnt_blk_l2_req(const icnt_blk *b, unsigned part);
gsc_port *icnt_blk_l2_resp(const icnt_blk *b, unsigned part);
/* Depth for the FIFOs this block puts into (sm_resp, l2_req): the out_depth parameter. */
unsigned icnt_blk_out_depth(const icnt_blk *b);

/* The sub-partition owning an address. */
unsigned icnt_blk_part_of(const icnt_blk *b, uint64_t addr);
/* Packet bytes of a request / a reply on the network (header_bytes + payload, see above). */
unsigned icnt_blk_req_bytes(unsigned header_bytes, const mem_req_t *r);
unsigned icnt_blk_resp_bytes(unsigned header_bytes, const mem_resp_t *r);

G_END_DECLS

#endif /* GPUSC_MODELS_MEM_ICNT_BLK_H */
