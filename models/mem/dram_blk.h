/* dram_blk.h — the `dram` block: one DRAM channel (docs/baseline-design.md §2.3, §5.3; docs/memory.md)
 * wrapping the models/lib/dram.h timing core (a bounded request queue, a scheduler — the `scheduler`
 * parameter's FCFS or FR-FCFS, or a bound `scheduler` import —, a data bus of bytes_per_cycle and a
 * fixed latency; with `scheduler` fcfs-banks or frfcfs also banks, row buffers and GDDR timing).
 *
 * Ports (one pair per memory sub-partition served by the channel, created by the constructor; GTX480:
 * 2 per channel [S: gpgpu_n_sub_partition_per_mchannel 2]):
 *   req<k>   in  F mem_req_t   line reads (MEM_READ) and dirty write-backs (MEM_WRITEBACK) from L2 slice k
 *   resp<k>  out F mem_resp_t  read replies (data from the functional image) to L2 slice k; write-backs
 *                              get no reply
 * Timing with scheduler=fcfs (B = ceil(bytes / bytes_per_cycle)): a request put on req<k> in cycle t is got
 * and queued in t+1; if the bus is free it starts then and its reply is put on resp<k> in t + 1 + B + latency
 * (the L2 gets it one cycle later). Requests queued together are served in order: the k-th (from 0) replies
 * at t + 1 + (k+1)B + latency. When queue_depth requests wait, the block stops taking from the req FIFOs
 * (back-pressure to the L2). The req<k> inputs are taken round-robin. With the banked schedulers the
 * core's bank timing (dram.h) decides when a queued request starts and when its reply is ready.
 * Sleeps until a req FIFO is put, a resp FIFO is got, or dram_next_event (and, while the `busy` flag is
 * traced, the end of the bus transfer, to drop it then).
 */
#ifndef GPUSC_MODELS_MEM_DRAM_BLK_H
#define GPUSC_MODELS_MEM_DRAM_BLK_H

#include "kernels/run/fmem.h"
#include "models/core/block.h"
#include "models/lib/dram.h"
#include "models/lib/slots.h"
#include "models/mem_types.h"

G_BEGIN_DECLS

extern const blk_desc dram_blk_desc;

enum { DRAM_PORT_REQ, DRAM_PORT_RESP, DRAM_PORT_SCHED };
enum { DRAM_SCHED_FCFS, DRAM_SCHED_FCFS_BANKS, DRAM_SCHED_FRFCFS }; /* the `scheduler` parameter */
#define DRAM_MAX_PORTS 64

/* The `scheduler` import (optional): which queued request the channel serves next (dram.h's
 * dram_sched_fn, its context first). FR-FCFS binds here. */
typedef struct {
    unsigned (*pick)(void *self, const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle);
} dram_sched_if;
extern const blk_iface dram_sched_iface;

enum {
    DRAM_STAT_READS,
    DRAM_STAT_WRITES,
    DRAM_STAT_BUSY_CYCLES,
    DRAM_STAT_QUEUE_FULL,
    DRAM_STAT_LATENCY,
    DRAM_STAT_UTIL,
    DRAM_STAT_AVG_LATENCY,
    DRAM_STAT_ROW_HITS,
    DRAM_STAT_ROW_MISSES,
    DRAM_STAT_ACTIVATES,
    DRAM_STAT_PRECHARGES,
    DRAM_STAT_COUNT
};

typedef struct {
    uint32_t slot;
    uint64_t got; /* cycle it entered the queue */
} dram_blk_tag;

typedef struct {
    blk_inst *inst;
    fmem *mem; /* not owned; NULL: replies carry zeros */
    unsigned n_ports;
    dram_config cfg;
    dram_channel *core;
    const dram_sched_if *sched; /* the bound scheduler (NULL: `pick`) */
    void *sched_self;
    dram_sched_fn pick;  /* the `scheduler` parameter's */
    dram_counts counted; /* the core's row counters already in the statistics */
    gsc_port **req, **resp;
    gsc_fifo **req_fifo, **resp_fifo; /* the FIFOs bound to req<k> and resp<k> (at elaboration) */
    unsigned rr;    /* next req port to look at first */
    mem_slots reqs; /* mem_req_t plus its port (see dram_blk.c) */
    struct {
        uint32_t *slot; /* finished reads (slot indices) waiting for room in their resp FIFO, in
                           completion order */
        unsigned length, cap;
    } done;
    gsc_event *wake;
    uint16_t queued; /* traced */
    uint8_t busy;    /* traced: the data bus is transferring */
    bool busy_traced; /* `busy` is in the trace: wake when the transfer ends to drop it */
    uint64_t bus_until;
    uint64_t full_since; /* the cycle a request found the queue full (UINT64_MAX: none waits) */
} dram_blk;

dram_blk *dram_blk_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned n_ports);
void dram_blk_free(dram_blk *b);
gsc_port *dram_blk_req(const dram_blk *b, unsigned k);
gsc_port *dram_blk_resp(const dram_blk *b, unsigned k);
/* Depths for the channels the topology creates: req<k> (in_depth) and resp<k> (resp_depth). */
unsigned dram_blk_in_depth(const dram_blk *b);
unsigned dram_blk_resp_depth(const dram_blk *b);

G_END_DECLS

#endif /* GPUSC_MODELS_MEM_DRAM_BLK_H */
