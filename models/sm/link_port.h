/* link_port.h — the `link_port` block: an SM's end of its SM-to-SM links (the `sm_link` block,
 * models/mem/sm_link.h; docs/gpu.md "SM-to-SM links"). It is where a mechanism of the SM that moves
 * data to its neighbours (the SPU's communication buffers: each SM writes its east-out and south-out
 * buffers and reads its west-in and north-in ones; docs/baseline-design.md §7) attaches: the mechanism calls
 * the `send` export to put a message toward a direction, and is called through its `recv` import for each
 * message that arrives. The baseline SM neither sends nor receives; the `gpu` topology builds one
 * link_port per SM (`<sm>.link_port`) when `gpu.sm_links` is on.
 *
 * Element k of the port arrays is traffic direction k (sm_link_dir: 0 east, 1 south, 2 west,
 * 3 north; the first two, or all four with `sm_link.bidirectional`):
 *   out_%u  out F link_msg_t  what this SM sends toward direction k (to the links' out_<d><i>)
 *   in_%u   in  F link_msg_t  what travelled in direction k into this SM, i.e. what its neighbour on
 *                             the opposite side sent (from the links' in_<opposite d><i>): in_0 is
 *                             the west-in, in_1 the north-in; depth `recv_depth`
 *   send    export link_send  can_send(k), send(k, message): a put on out_k in the caller's cycle
 *   recv    import link_recv, MULTI (optional): received(k, message), called in this block's
 *                             activation for each message got from in_k
 * The number of directions is the constructor's (blk_inst_new_arrays): the links' directions.
 *
 * Timing: a message put on in_k in cycle t is got in t+1 and handed to the `recv` listeners in that
 * activation, one message per in FIFO per cycle (the others wait in their FIFO, in order, and the
 * block runs again in the next cycle). send(k, m) in cycle t puts on out_k in t (the links get it in
 * t+1); a send without room (can_send false) is a model error. A message that arrives while no
 * listener is bound is a model error too (gsc_fatal naming the port, the sender and the message):
 * the links carry no traffic nobody receives.
 *
 * Sleeps until an in FIFO is put: without traffic it costs nothing.
 */
#ifndef GPUSC_MODELS_SM_LINK_PORT_H
#define GPUSC_MODELS_SM_LINK_PORT_H

#include "models/core/block.h"
#include "models/mem/sm_link.h"

G_BEGIN_DECLS

/* The export a mechanism calls (k: the traffic direction, an sm_link_dir below the block's count). */
typedef struct {
    bool (*can_send)(void *self, unsigned k);                  /* out_k has room this cycle */
    void (*send)(void *self, unsigned k, const link_msg_t *m); /* put m on out_k (it must have room) */
} link_send_if;
extern const blk_iface link_send_iface;

/* The listener the block calls for each message it gets. */
typedef struct {
    void (*received)(void *self, unsigned k, const link_msg_t *m);
} link_recv_if;
extern const blk_iface link_recv_iface;

enum { LINK_PORT_OUT, LINK_PORT_IN, LINK_PORT_SEND, LINK_PORT_RECV, LINK_PORT_N_PORTS };

enum {
    LINK_PORT_STAT_SENT,
    LINK_PORT_STAT_SENT_BYTES,
    LINK_PORT_STAT_RECEIVED,
    LINK_PORT_STAT_RECEIVED_BYTES,
    LINK_PORT_STAT_COUNT
};

extern const blk_desc link_port_desc;

typedef struct {
    blk_inst *inst;
    unsigned n_dirs;
    blk_iref *recv; /* the bound listeners, in binding order (looked up at elaboration) */
    unsigned n_recv;
    blk_call_probe *probe;
} link_port;

/* The SM end of n_dirs (2 or 4) link directions. */
link_port *link_port_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned n_dirs);
void link_port_free(link_port *p);

G_END_DECLS

#endif /* GPUSC_MODELS_SM_LINK_PORT_H */
