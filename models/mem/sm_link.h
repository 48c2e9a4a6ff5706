/* sm_link.h — the `sm_link` block: point-to-point links between neighbouring SMs of a grid, beside
 * the memory interconnect (docs/baseline-design.md §7 "SM-to-SM links"; SPU spec §2 grid topology and W->E /
 * N->S data movement, §3 communication buffers, §6 item 6 wire delay; docs/gpu.md "SM-to-SM links").
 * It only carries messages: what they mean (a communication buffer's tile, a blocksync token) is the
 * mechanism's that attaches to its ports; the baseline SM does not use them.
 *
 * Grid: n nodes (the SMs of the GPU) as `cols` columns: node i sits at x = i mod cols, y = i / cols
 * (cols = 0: the smallest c with c x c >= n, so 15 SMs are 4 x 4 with a last row of 3). The last
 * row may be partial. Each node has a directed link toward each neighbour: east (x+1) and south
 * (y+1) always, as the SPU's W->E and N->S data movement [S: SPU spec §2]; west and north too when
 * `bidirectional` is true [A].
 *
 * Ports (declared port arrays, one element per node; <d> is e, s, w or n, named from the SM's side):
 *   out_<d>%u  in  F link_msg_t  what node i sends toward <d> (from its SM's link_port out_<k>);
 *                                 depth send_depth
 *   in_<d>%u   out F link_msg_t  what node i receives from its neighbour on side <d> (to its SM's
 *                                 link_port in_<k>, whose recv_depth is that FIFO's depth)
 * A message put on out_e<i> arrives on in_w<j> of the node j east of i; out_s<i> -> in_n<j> of the
 * node south of i (bidirectional: out_w -> in_e, out_n -> in_s). Without `bidirectional` the arrays
 * out_e, out_s, in_w, in_n have one element per node and the others none. Every node has every port
 * of the enabled directions, also on the grid's border, so the SM side binds the same set on every
 * SM (the `link_port` block, models/sm/link_port.h; the `gpu` topology connects them).
 *
 * Border [A]: a link toward a node that does not exist (past the grid's edge, or past the last node
 * of a partial last row) is a model error: a message put on such an out_<d><i> ends the run
 * (gsc_fatal naming the instance, the node, its (x, y), the direction and the grid) in the cycle the
 * block sees it. Border in_<d><i> ports never receive. Use sm_link_neighbour() to know which links
 * exist. (The SPU's interface units on the border are not modelled here: see docs/gpu.md.)
 *
 * Payload: link_msg_t. The block writes src (the sender) and dst (the neighbour) when it takes a
 * message; kind and tag are the mechanism's; bytes is the message's size on the link (it sets the
 * transfer time; it may exceed MEM_LINE_MAX for a message that carries no data, as a whole tile);
 * data carries up to MEM_LINE_MAX bytes, never traced.
 *
 * Timing (L = latency, S = max(1, ceil(bytes / bytes_per_cycle))): each link moves one message at a
 * time. A message put on out_<d><i> in cycle t is got by the block in t+1 if the link is free (else
 * when it becomes free: it waits in the out FIFO, in order), occupies the link for S cycles from the
 * cycle g it is got, and is put on the neighbour's in FIFO in g + S + L (the neighbour gets it in
 * g + S + L + 1). So a lone message is put on the in FIFO in t + 1 + S + L, and k back-to-back
 * messages of S cycles each put together in t (k = 0, 1, ...) in t + 1 + (k+1)S + L. Links are
 * independent: messages on different links (also toward the same node from two sides) never wait
 * for each other.
 * Back-pressure: a message due when its in FIFO is full waits at the link's end and is put in the
 * cycle after the consumer gets from that FIFO; messages behind it on the same link wait behind it
 * (order kept, nothing lost), and the link starts no new transfer while its head waits, so the
 * sender's out FIFO fills. A message put later than its due cycle counts as a stall (`stalls`) and
 * its delay in `stall_cycles`.
 *
 * Sleeps until an out FIFO is put, an in FIFO is got, or the next delivery / link-free cycle:
 * links without traffic cost nothing.
 */
#ifndef GPUSC_MODELS_MEM_SM_LINK_H
#define GPUSC_MODELS_MEM_SM_LINK_H

#include "models/core/block.h"
#include "models/lib/slots.h"
#include "models/mem_types.h"

G_BEGIN_DECLS

/* Directions, as a node sees them. The first two exist always; W and N only when bidirectional. */
typedef enum { SM_LINK_E = 0, SM_LINK_S = 1, SM_LINK_W = 2, SM_LINK_N = 3, SM_LINK_DIRS = 4 } sm_link_dir;

#define SM_LINK_NONE      UINT16_MAX /* no node: a link past the grid's border */
#define SM_LINK_MAX_NODES 4096       /* nodes of one links block (its port arrays' bound) */

/* Descriptor port indices: the out_<d>%u array of direction d is SM_LINK_PORT_OUT + d, the in_<d>%u
 * array of side d SM_LINK_PORT_IN + d. */
enum { SM_LINK_PORT_OUT = 0, SM_LINK_PORT_IN = 4, SM_LINK_N_PORTS = 8 };

/* One message on a link. */
typedef struct {
    uint16_t src;   /* sending node (written by the block) */
    uint16_t dst;   /* receiving node (written by the block) */
    uint16_t kind;  /* the mechanism's message kind (e.g. CB data, blocksync token) */
    uint32_t tag;   /* the mechanism's tag (e.g. a CB offset, a sequence number) */
    uint32_t bytes; /* size on the link: the transfer takes max(1, ceil(bytes / bytes_per_cycle)) cycles */
    uint8_t data[MEM_LINE_MAX]; /* up to a line of payload, not traced */
} link_msg_t;

extern const gsc_type link_msg_type;
extern const blk_desc sm_link_desc;

enum {
    SM_LINK_STAT_MESSAGES,
    SM_LINK_STAT_BYTES,
    SM_LINK_STAT_BUSY_CYCLES,
    SM_LINK_STAT_STALLS,
    SM_LINK_STAT_STALL_CYCLES,
    SM_LINK_STAT_UTIL,
    SM_LINK_STAT_COUNT
};

/* One directed link: node src toward dir. */
typedef struct {
    uint16_t src, dst; /* dst = SM_LINK_NONE on the border */
    uint8_t dir;
    bool waiting;     /* its head is due and its in FIFO was full (woken by the consumer's get) */
    gsc_fifo *from;   /* out_<dir><src> */
    gsc_fifo *to;     /* in_<opposite dir><dst>; NULL on the border */
    uint64_t free_at; /* first cycle the link may take its next message */
    GQueue fly;       /* slots (mem_slots indices) of the messages on the link, oldest first */
} sm_link_wire;

typedef struct {
    blk_inst *inst;
    unsigned n, cols, rows, n_dirs;
    unsigned latency, bytes_per_cycle, send_depth;
    sm_link_wire *wires; /* n_dirs x n: wire d * n + i is node i toward d */
    unsigned n_links;    /* wires that reach a node (not border) */
    mem_slots msgs;      /* link_msg_t + due cycle of the messages on the links */
    gsc_event *wake;
    uint16_t in_flight, waiting; /* traced */
} sm_link;

/* The links of n nodes (1 <= n <= SM_LINK_MAX_NODES), as the block's parameters say (cols, bidirectional,
 * ...). */
sm_link *sm_link_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned n);
void sm_link_free(sm_link *b);

unsigned sm_link_cols(const sm_link *b);
unsigned sm_link_rows(const sm_link *b);
/* True when the direction has ports (E and S always; W and N when bidirectional). */
bool sm_link_has_dir(const sm_link *b, sm_link_dir d);
/* The node next to `node` toward d, or SM_LINK_NONE past the border (or the direction disabled). */
unsigned sm_link_neighbour(const sm_link *b, unsigned node, sm_link_dir d);
/* out_<d><node> (an in port of the block: what node sends toward d) and in_<d><node> (an out port:
 * what node receives from side d); NULL when the block has no such ports (out: d disabled; in: the
 * opposite of d disabled, so without bidirectional in_e and in_s are NULL). */
gsc_port *sm_link_out(const sm_link *b, unsigned node, sm_link_dir d);
gsc_port *sm_link_in(const sm_link *b, unsigned node, sm_link_dir d);
/* The port element's name ("out_e3", "in_w3"), as blk_connect takes it (to g_free). */
char *sm_link_port_name(const sm_link *b, bool out, unsigned node, sm_link_dir d);
/* Depth for the FIFOs bound to out_* (send_depth; the in_* FIFOs' depth is their consumer's). */
unsigned sm_link_send_depth(const sm_link *b);
/* "e", "s", "w", "n" and "east", ... */
const char *sm_link_dir_letter(sm_link_dir d);
const char *sm_link_dir_name(sm_link_dir d);
/* The direction opposite d (E <-> W, S <-> N): a message sent toward d arrives on side opposite(d). */
sm_link_dir sm_link_opposite(sm_link_dir d);
/* Cycles a message of `bytes` occupies a link: max(1, ceil(bytes / bytes_per_cycle)). */
unsigned sm_link_transfer_cycles(const sm_link *b, uint32_t bytes);

G_END_DECLS

#endif /* GPUSC_MODELS_MEM_SM_LINK_H */
