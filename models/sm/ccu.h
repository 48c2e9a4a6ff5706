/* ccu.h — the `ccu` block: the collector units of one sub-core of a sub-core SM when they are
 * allocated at issue (the RF-cache (Malekeh) spec's design and its baselines; docs/rfcache.md).
 *
 * Built by the SM topology, one per partition, when [opcoll] collector is not `ocu`: on the sub-core
 * SM, or on an SM of one partition with one scheduler for all its warps (tb-rfcache --monolithic):
 *  - ocu_random: the spec's plain OCU (§4): GTO, a random free collector chosen at issue, issue only
 *    when a collector is free; no caching;
 *  - ccu: Malekeh: each collector is a CCU with a Cache Table (models/lib/rfcache.h) holding one warp's
 *    registers; the reuse-aware priority (greedy, then warps with data in a CCU by age, then the rest
 *    by age), the allocator's cases 3-9 with the STHLD waiting counter, random-far/LRU replacement,
 *    the near-only write filter at port D;
 *  - ccu_lru: the "traditional policies" ablation (§15.2): GTO, plain LRU, every write of the owning
 *    warp cached, random free CCU (the warp's own CCU if it has one), no waiting;
 *  - ccu_pr: Malekeh_PR (§15.4): one private CCU per warp (warp w of the sub-core: CCU w / parts),
 *    Malekeh's CT, replacement, write filter and priority; no flush, no waiting;
 *  - bow: BOW-like (§15.3): one private collector per warp whose CT holds the operands of the warp's
 *    last `bow_window` issued instructions (entries whose last user slid out are dropped), every
 *    result written to it while its producer is in the window, one write per sub-core per cycle; GTO;
 *  - rfc_2lev: the RFC / SW-RFC scheduler (§15.5): plain OCUs (random free) under a two-level
 *    scheduler of `active_warps` active warps per sub-core (long-latency waiters demoted, the oldest
 *    ready pending warp promoted; GTO among the active ones);
 *  - rfc: RFC (§15.5, the cache the source leaves out): rfc_2lev's scheduler and collectors, and beside
 *    the collectors a register-file cache of `rfc_entries` per active warp: every result of an active
 *    warp written into it at write-back (FIFO replacement, one write per cache per cycle), a source
 *    found there is not read from a bank, no fill on a miss; a warp's cache is emptied when the warp
 *    is demoted (the banks are always written, so nothing is lost);
 *  - sw_rfc: SW-RFC: the same structure managed by the compiler: only results whose reuse hint is near
 *    (the reuse-profile pass) are placed in the cache.
 *
 * Ports: export `veto` (issue_veto), bound to its partition's arbiter: on the first call of a cycle
 * it picks the warp by its priority and runs the allocator for it; every other candidate is struck
 * (no fall-through: a refusal stalls the scheduler, counted by cause). The register value path
 * (issue's wexec, regval.h) is its second connection: at the execution point a source that hits
 * gets the CT's copy of the value (so a stale copy corrupts the result), a miss fills the entry with
 * the register's value (what the bank read delivers), a write invalidates the register in the
 * warp's CCU, a thread block's start or end flushes it. opcoll calls ccu_take / ccu_dispatched /
 * ccu_writeback from its own activation (the misses to read from the banks, the release at dispatch,
 * port D); what opcoll changes in cycle t is queued and lands in cycle t + 1 (the block's process
 * `apply`, or a call of that cycle that comes first), so the outcome does not depend on the order the
 * two processes run in a cycle, and a write lands whether or not issue calls the block again.
 */
#ifndef GPUSC_MODELS_SM_CCU_H
#define GPUSC_MODELS_SM_CCU_H

#include "kernels/passes/reuse_profile.h"
#include "models/core/block.h"
#include "models/lib/rfcache.h"
#include "models/sm/payloads.h"
#include "models/sm/reuse_trace.h"
#include "models/sm/sm_env.h"
#include "models/sm/warp_exec.h"

G_BEGIN_DECLS

typedef enum {
    CCU_MODE_OCU_RANDOM,
    CCU_MODE_MALEKEH,
    CCU_MODE_LRU,
    CCU_MODE_PR,        /* Malekeh_PR: one private CCU per warp */
    CCU_MODE_BOW,       /* BOW-like: a private per-warp window of the last instructions' operands */
    CCU_MODE_TWO_LEVEL, /* RFC / SW-RFC's scheduler alone: plain OCUs, a two-level scheduler */
    CCU_MODE_RFC,       /* RFC: the two-level scheduler and a register-file cache per active warp */
    CCU_MODE_SWRFC      /* SW-RFC: the same, holding only the results the compiler's hint places there */
} ccu_mode;

enum { CCU_VETO };
enum {
    CCU_STAT_HITS,
    CCU_STAT_MISSES,
    CCU_STAT_TAG_LOOKUPS,
    CCU_STAT_UNCACHED,
    CCU_STAT_FILLS_S,
    CCU_STAT_WRITES_D,
    CCU_STAT_D_SQUASHED,
    CCU_STAT_D_CONFLICTS,
    CCU_STAT_D_NO_CCU,
    CCU_STAT_CT_READS,
    CCU_STAT_STALE_HITS,
    CCU_STAT_INVALIDATIONS,
    CCU_STAT_ALLOC_OWN,
    CCU_STAT_ALLOC_FAR,
    CCU_STAT_ALLOC_FORCED,
    CCU_STAT_ALLOC_RANDOM,
    CCU_STAT_FLUSHES_FAR,
    CCU_STAT_FLUSHES_FORCED,
    CCU_STAT_FLUSHES_RANDOM,
    CCU_STAT_STALL_OWN_BUSY,
    CCU_STAT_STALL_ALL_BUSY,
    CCU_STAT_STALL_WAIT,
    CCU_STAT_INTERVALS,
    CCU_STAT_STHLD,
    CCU_STAT_TL_PENDING_READY,
    CCU_STAT_TL_PROMOTIONS,
    CCU_STAT_TL_DEMOTIONS,
    CCU_STAT_ORACLE_LOST,
    CCU_STAT_COUNT
};

typedef struct ccu_sm ccu_sm; /* what the partitions of one SM share: the STHLD counter, controller */
typedef struct ccu_blk ccu_blk;

extern const blk_desc ccu_desc;
/* part of parts: the partition; n: its collectors; warps: the SM's warp slots; shared: partition 0's
 * block (NULL for partition 0 itself). wx NULL: no value path (a harness test of the allocation alone). */
ccu_blk *ccu_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, wexec *wx, unsigned part,
                 unsigned parts, unsigned n, unsigned warps, ccu_mode mode, ccu_blk *shared);
void ccu_free(ccu_blk *b);
blk_inst *ccu_inst(ccu_blk *b);

/* Reuse hints from the profile pass (not owned; NULL: the `hints` parameter's constant). */
void ccu_set_profile(ccu_blk *b, const rp_profile *p);
/* Oracle hints (Malekeh only): each dynamic instruction's exact bits from the functional run's
 * streams (reuse_trace.h; not owned), found by the warp's CTA and its position in the stream; an
 * instruction not found there (the timing run's stream differs) gets the profile's. */
void ccu_set_oracle(ccu_blk *b, rp_trace *t, const rp_profile *oracle);

/* opcoll's side (its activation, cycle now): the collector reserved at issue for instruction it; the
 * physical registers to read from the banks (the misses) in reads[], their count in *n. */
unsigned ccu_take(ccu_blk *b, const issued_t *it, uint16_t *reads, unsigned *n);
void ccu_dispatched(ccu_blk *b, unsigned k, uint64_t now);
void ccu_writeback(ccu_blk *b, const release_t *r, uint64_t now);

/* The partition's CCUs (n of them), for tests and inspection. */
rfc_ccu *ccu_units(ccu_blk *b, unsigned *n);
/* rfc, sw_rfc: the partition's per-warp caches (warp w of the SM: cache w / parts); NULL otherwise. */
rfc_ccu *ccu_warp_caches(ccu_blk *b, unsigned *n);
/* For the testbench: the STHLD value of each elapsed interval (dynamic mode), partition 0's SM. */
const GArray *ccu_sthld_trace(const ccu_blk *b); /* of int */
/* Added storage per SM in bytes: CT entries beyond the collector's operand slots (spec §14.2). */
uint64_t ccu_added_bytes(const ccu_blk *b);
/* The cache's data storage per sub-core in bytes (CT entries x 128 B; bow: the spec's window of
 * bow_window instructions of oct_slots + 2 operands per collector); 0 without a cache. */
uint64_t ccu_data_bytes(const ccu_blk *b);

G_END_DECLS

#endif
