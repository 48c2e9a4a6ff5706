/* l2.h — the `l2` block: one L2 cache slice (a memory sub-partition) (docs/baseline-design.md §2.3,
 * §5.3; docs/memory.md). Tags and MSHRs are models/lib/cache.h objects; the data lives in the
 * functional memory image (read replies are filled from it when produced).
 *
 * Ports:
 *   req       in  F mem_req_t   requests from the interconnect
 *   resp      out F mem_resp_t  replies to the interconnect (read data, write acks, atomic old values)
 *   dram_req  out F mem_req_t   line fills (MEM_READ) and dirty write-backs (MEM_WRITEBACK) to the channel
 *   dram_resp in  F mem_resp_t  fills from the channel
 *
 * Policy (GPGPU-Sim GTX480 `L:B:m:W:L` [S]): LRU, write-back, allocate on miss, write-allocate. A
 * write miss covering the whole line allocates it MODIFIED with no fill; a partial write miss fetches
 * the line first (fetch-on-write [A]); an atomic is a write. Set index: (line / sub_partitions) mod
 * sets, so the interleaving over sub-partitions does not leave sets unused [A].
 *
 * Timing: a request got from `req` in cycle t waits `latency` cycles (the ROP queue: rop_latency
 * [S]) and reaches the tag array in t + latency (one lookup per cycle, in arrival order). A HIT puts
 * its reply on `resp` in that cycle (the icnt gets it one cycle later), so FIFO to FIFO a hit takes
 * latency + 1 cycles. A MISS reserves a line and an MSHR entry and puts a fill request on `dram_req`
 * in that cycle; when the fill is got from `dram_resp` (cycle f) the line becomes VALID and the
 * requests merged on it reply one per cycle from f. A lookup that cannot be accepted (all ways
 * reserved, MSHRs full, the entry's merge limit) stalls the queue and retries next cycle. A MODIFIED
 * victim becomes a MEM_WRITEBACK of the whole line on `dram_req`.
 *
 * enabled=false (the SPU's caches off): the same ROP latency, then a write goes on to `dram_req` as a
 * MEM_WRITEBACK of its line and is acknowledged at once; a read or atomic always fetches its line
 * (reads of one line in flight at the same time share the fetch: the MSHR is the request table), the
 * line is dropped when it arrives; the cache statistics (reads, writes, hits, misses, fills,
 * atomics) stay 0, so its energy events do too.
 *
 * Atomics are performed on the functional image (mem_atomic_perform) when their lookup is accepted,
 * in arrival order at this slice; the old values go back in the reply (after the hit or the fill).
 * Sleeps until a put on req/dram_resp, a get on resp/dram_req, or the ROP queue's next ready cycle.
 */
#ifndef GPUSC_MODELS_MEM_L2_H
#define GPUSC_MODELS_MEM_L2_H

#include "kernels/run/fmem.h"
#include "models/core/block.h"
#include "models/lib/cache.h"
#include "models/lib/ring.h"
#include "models/lib/slots.h"
#include "models/mem_types.h"

G_BEGIN_DECLS

extern const blk_desc l2_desc;

enum { L2_PORT_REQ, L2_PORT_RESP, L2_PORT_DRAM_REQ, L2_PORT_DRAM_RESP };

enum {
    L2_STAT_READS,
    L2_STAT_WRITES,
    L2_STAT_ATOMICS,
    L2_STAT_HITS,
    L2_STAT_MISSES,
    L2_STAT_MERGED,
    L2_STAT_STALLS,
    L2_STAT_FILLS,
    L2_STAT_WRITEBACKS,
    L2_STAT_FAULTS,
    L2_STAT_HIT_RATE,
    L2_STAT_COUNT
};

/* Regions of the functional image a slice keeps at hand for its read replies (a workload reads a
 * few arrays at a time). */
#define L2_REGIONS 4

typedef struct {
    blk_inst *inst;
    fmem *mem; /* not owned; NULL: replies carry zeros, atomics fault */
    unsigned n_parts;
    unsigned latency, rop_depth, out_depth, line;
    bool off; /* enabled=false: no cache */
    cache_tags *tags;
    cache_mshr *mshr;
    mem_slots reqs; /* l2 slots: a request held by this slice (see l2.c) */
    ring rop;       /* uint32_t slot indices in arrival order */
    ring out;       /* mem_resp_t waiting for room in `resp` */
    ring to_dram;   /* mem_req_t waiting for room in `dram_req` */
    gsc_event *wake;
    unsigned line_shift;               /* log2(line) */
    fmem_cache regions[L2_REGIONS];    /* the image's regions read replies came from, most recent first */
    uint8_t rop_occupancy, mshr_used, out_queue; /* traced */
    GString *fault;                              /* the first atomic fault, for the testbench */
} l2_blk;

/* One slice of an L2 interleaved over n_parts sub-partitions (set index: line / n_parts). */
l2_blk *l2_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned n_parts);
void l2_free(l2_blk *b);
/* Whether the slice holds nothing in flight (ROP queue, MSHRs, output queues). */
bool l2_idle(const l2_blk *b);
/* Appends "; oldest: KIND 0xADDR from SM s, ready at cycle c" for the ROP queue's head (nothing if empty). */
void l2_describe_head(const l2_blk *b, GString *out);
/* The first atomic fault's message, or NULL. */
const char *l2_fault(const l2_blk *b);

G_END_DECLS

#endif /* GPUSC_MODELS_MEM_L2_H */
