/* l1pc.h — the `l1pc` block: the L1D statistics of one SM per static load (per PC), as the CCWS/DAWS
 * spec's statistics list them (docs/ccws.md, "Per-load statistics"), and the offline replay of the
 * SM's L1D access stream under Belady's optimal replacement and under LRU.
 *
 * Passive: it counts inside ldst's and issue's activations and changes nothing.
 *  - `issued` (bind issue.issued): a load of global, local or generic memory counts one dynamic load
 *    of its PC and its active lanes;
 *  - `access` (bind ldst.l1_access, after the VTA): every L1D load transaction (a refusal, retried,
 *    is not counted) is a hit, a miss or a merge into a pending line of the PC ldst_current names. A
 *    hit is intra-warp when the line's warp-id metadata is the requester (the line came in on its own
 *    miss), else inter-warp; an intra-warp hit is intra-thread when one of the lanes it serves touched
 *    the line before (the lanes of the line's warp are kept per L1D line, from the miss that reserved
 *    it: statistics only), else inter-thread;
 *  - `vta_hit` (optional; bind vta.hit after the ccws block): a VTA hit (a miss that hit in the warp's
 *    victim tag array: lost intra-warp locality) counts for the PC of the miss, with the score points
 *    it added (ccws_last_raise, when a ccws block is given).
 *  - loop-trip reuse (when given the loop markers, l1pc_set_loops): each counted transaction of a load
 *    inside a loop is Accessed-This-Trip (another load of the same warp touched the line in the
 *    current trip of the load's innermost loop), Accessed-Last-Trip (the warp touched it in the trip
 *    before) or Other (outside every loop, or touched in an older trip, another loop or never). A
 *    warp's trip of a loop counts its issues of the loop's first instruction; a warp's history starts
 *    empty when it starts (bind `events`);
 *  - the lane-activity histogram: every issued instruction counts in the bin of its active lanes,
 *    W[0:4] (0 to 4 lanes), W[4:8] (5 to 8), ..., W[28:32] (29 to 32), and its lanes in the sum.
 * With `belady` on, every counted transaction's line and set are recorded; l1pc_replay runs the
 * stream through a tag array of the L1D's geometry under Belady's rule (evict the line used furthest
 * in the future) and under LRU: loads only (stores' invalidations and kernel-boundary flushes are not
 * replayed), a merge is an access like any other.
 */
#ifndef GPUSC_MODELS_CCWS_L1PC_H
#define GPUSC_MODELS_CCWS_L1PC_H

#include "kernels/passes/daws_pass.h"
#include "models/ccws/ccws.h"
#include "models/core/block.h"
#include "models/sm/ldst.h"

G_BEGIN_DECLS

enum { L1PC_ACCESS, L1PC_ISSUED, L1PC_VTA_HIT, L1PC_EVENTS };
enum {
    L1PC_STAT_LOADS,
    L1PC_STAT_HITS,
    L1PC_STAT_MISSES,
    L1PC_STAT_MERGED,
    L1PC_STAT_INTRA,
    L1PC_STAT_INTRA_THREAD,
    L1PC_STAT_INTER,
    L1PC_STAT_VTA_HITS,
    L1PC_STAT_UNATTRIBUTED,
    L1PC_STAT_TRIP_THIS,
    L1PC_STAT_TRIP_LAST,
    L1PC_STAT_TRIP_OTHER,
    L1PC_STAT_INSTS,
    L1PC_STAT_ACTIVE_LANES,
    L1PC_STAT_LANES_BIN, /* the first of L1PC_LANE_BINS: W[0:4], W[4:8], ... */
};
#define L1PC_LANE_BINS 8

/* One static load's counts. */
typedef struct {
    uint64_t loads;                /* dynamic loads issued (warp instructions) */
    uint64_t lanes;                /* their active threads, summed */
    uint64_t hits, misses, merged; /* L1D line transactions by outcome */
    uint64_t intra;                /* hits on a line the same warp's miss brought in */
    uint64_t intra_thread;         /* of those, a lane that touched the line before */
    uint64_t inter;                /* hits on a line another warp's miss brought in */
    uint64_t vta_hits;             /* misses found in the warp's VTA partition */
    uint64_t points;               /* the score points those VTA hits added (CCWS) */
    uint64_t this_trip, last_trip; /* transactions Accessed-This-Trip / -Last-Trip (the rest: Other) */
} l1pc_counts;

/* Where a warp last touched a line (loop-trip reuse). */
typedef struct {
    uint32_t func, loop, pc;
    uint64_t trip;
} l1pc_touch;

/* The replay's result. */
typedef struct {
    uint64_t accesses, opt_misses, lru_misses;
} l1pc_replay_result;

typedef struct {
    blk_inst *inst;
    ldst *ld;
    const ccws *cc;
    bool belady;
    GHashTable *pcs; /* (func << 32 | pc) -> l1pc_counts */
    uint64_t last_key;
    l1pc_counts *last;
    unsigned sets, ways;
    uint32_t *line_lanes;    /* per L1D line (set * ways + way): the lanes of its warp that touched it */
    GArray *stream;          /* belady: (line << 16 | set) per transaction */
    const daws_loops *loops; /* the loop markers (NULL: no loop-trip reuse) */
    GPtrArray *touched;      /* per warp: line -> l1pc_touch */
    GPtrArray *trips;        /* per warp: (func << 32 | loop) -> trip (uint64_t) */
    blk_call_probe *probe[L1PC_EVENTS + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} l1pc;

extern const blk_desc l1pc_desc;
l1pc *l1pc_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void l1pc_free(l1pc *p);
/* The SM's ldst (its current load and its L1D) and, optionally, the ccws block (score points). */
void l1pc_set_ldst(l1pc *p, ldst *ld);
void l1pc_set_ccws(l1pc *p, const ccws *c);
/* The loop markers of the module (kernels/passes/daws_pass.h): the loop-trip reuse classes. */
void l1pc_set_loops(l1pc *p, const daws_loops *l);
/* The L1D's geometry (the lanes kept per line; taken from ldst's L1D at the first access). */
void l1pc_set_geometry(l1pc *p, unsigned sets, unsigned ways);

/* The counts of (func, pc); NULL if nothing was counted there. */
const l1pc_counts *l1pc_get(const l1pc *p, uint32_t func, uint32_t pc);
/* Every counted PC, as (func << 32 | pc), sorted. */
GArray *l1pc_keys(const l1pc *p);

/* What the ports do, for the harness: one transaction of (func, pc) by warp with lanes, its outcome
 * (cache_status), the line's metadata warp and its slot (set * ways + way) in the L1D; a line and set
 * for the recorded stream. */
void l1pc_record(l1pc *p, uint32_t func, uint32_t pc, unsigned warp, uint32_t lanes, unsigned outcome,
                 unsigned owner, unsigned slot, uint64_t line, unsigned set);

/* For the harness: what issue.issued and the warp's start tell the block (an instruction of (func,
 * pc) issued by warp with the active lanes mask; warp starts, its loop-trip history cleared). */
void l1pc_issue(l1pc *p, uint32_t func, uint32_t pc, unsigned warp, uint32_t mask, bool load);
void l1pc_warp_start(l1pc *p, unsigned warp);

/* The recorded stream replayed in a `sets` x `ways` tag array (0: the L1D's geometry). */
l1pc_replay_result l1pc_replay(const l1pc *p, unsigned sets, unsigned ways);
/* The same for any stream of (line << 16 | set) entries. */
l1pc_replay_result l1pc_replay_stream(const uint64_t *stream, size_t n, unsigned sets, unsigned ways);

G_END_DECLS

#endif
