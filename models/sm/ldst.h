/* ldst.h — the `ldst` block: the SM's load/store unit. Address generation happened at issue (the
 * per-lane addresses come in issued_t); this block coalesces, accesses the scratchpad banks, the L1
 * data cache (tags, LRU, MSHRs with merging; GPGPU-Sim write-evict / no-write-allocate for global
 * stores) and sends misses, stores and global atomics below as mem_req_t. Spec: docs/baseline-
 * design.md §2.2 ldst; §5.3 (GTX480: L1D 32 sets x 128 B x 4 ways, 32 MSHRs x 8 merged; 32 banks).
 *
 * One instruction at a time, in order (GPGPU-Sim's single memory pipeline):
 *  - shared (and shared atomics): coalesce_smem_cycles(k) bank cycles; the unit is busy k cycles and
 *    the result is ready `smem_latency` + k - 1 cycles after the instruction starts;
 *  - kernel/call parameters: `param_latency` cycles, one cycle busy;
 *  - global/local loads: one transaction per touched L1 line, one per cycle (l1_enabled=false: each
 *    goes below as a MEM_READ of its bytes, completed by its reply; no L1D lookup); a hit is ready
 *    `l1_latency` cycles after its lookup, a miss allocates (MSHR, merge on a pending line) and sends
 *    a MEM_READ; the fill makes the merged requests ready;
 *  - const-space loads (ld.const): the same through the constant cache (GTX480: 64 sets x 64 B x 2
 *    ways, `const_*` parameters) with its own MSHRs: one transaction per touched 64-B line, a hit
 *    ready `const_latency` cycles after its lookup, a miss sends a line-sized MEM_READ with
 *    client = 2 whose response fills the constant cache only (the L1D is not touched). Generic
 *    loads never reach it: kernels/run/kload.h resolves a generic address in the const bank to the
 *    global space (cvta.const is the identity), so they go through the L1D as on Fermi;
 *  - global/local stores: the deferred global lanes write the image now (store_data, the point where
 *    the store is performed); write-through (a hit invalidates the line: write-evict), one MEM_WRITE per
 *    transaction with the byte mask; global atomics/reductions: one MEM_ATOMIC per transaction with
 *    its lanes' operands (performed below, the old values come back and go to issue in the release);
 *  - the instruction releases its destinations when every transaction is done (stores: acknowledged);
 *  - with source reservations (issued_t.report_reads) it reports its sources read (release_t.reads)
 *    the cycle it takes the instruction (address and store data are read then).
 * Data: global stores are written into the image here, global loads read it when this block releases
 * them (warp_exec.h); requests carry
 * the store bytes and responses the line bytes as the image holds them, for mechanisms that look.
 */
#ifndef GPUSC_MODELS_SM_LDST_H
#define GPUSC_MODELS_SM_LDST_H

#include "models/core/block.h"
#include "models/lib/ring.h"
#include "models/lib/cache.h"
#include "models/lib/coalesce.h"
#include "models/mem_types.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum { LDST_IN, LDST_RELEASE, LDST_MEM_REQ, LDST_MEM_RESP, LDST_L1_EVICT, LDST_L1_ACCESS, LDST_REGS, LDST_IU, LDST_IU_REPLY };

/* The `l1_evict` import (MULTI): an L1D line was replaced or invalidated (cache.h's cache_eviction,
 * its metadata the warp that reserved the line). The victim tag array binds here. */
typedef struct {
    void (*evicted)(void *self, const cache_eviction *ev);
} l1_evict_if;
extern const blk_iface l1_evict_iface;

/* The `l1_access` import (MULTI): a load transaction probed the L1D (outcome: cache_status, a
 * refusal included: it is retried). Lost-locality scoring binds here. */
typedef struct {
    void (*access)(void *self, unsigned warp, uint64_t addr, unsigned outcome);
} l1_access_if;
extern const blk_iface l1_access_iface;

/* The `regs` import (MULTI): the register accesses of a memory instruction as this unit makes them:
 * read(it) the cycle it takes the instruction (its address and data registers are read then),
 * written(it) the cycle it releases it (a load's destinations are written back then). GREENER's
 * register power states bind here (docs/greener.md). */
typedef struct {
    void (*read)(void *self, const issued_t *it, uint64_t cycle);
    void (*written)(void *self, const issued_t *it, uint64_t cycle);
} ldst_regs_if;
extern const blk_iface ldst_regs_iface;

/* The `iu` export: the SM playing an interface unit's role (the SPU's partial passes) sends that
 * role's global loads and stores through its own memory port. can_send: the miss queue has room;
 * send(q): q joins the miss queue (as client MEM_CLIENT_IU, from this SM's node) and leaves through
 * mem_req as the SM's own requests do. The replies (client MEM_CLIENT_IU) go to the `iu_reply`
 * import (MULTI) binding number (id >> 32), not to the L1. Unbound: never used. */
typedef struct {
    bool (*can_send)(void *self);
    void (*send)(void *self, const mem_req_t *q);
} ldst_iu_if;
extern const blk_iface ldst_iu_iface;
typedef struct {
    void (*reply)(void *self, const mem_resp_t *r);
} ldst_iu_reply_if;
extern const blk_iface ldst_iu_reply_iface;
enum {
    LDST_STAT_INSTRS,
    LDST_STAT_SHARED,
    LDST_STAT_SMEM_CYCLES,
    LDST_STAT_SMEM_CONFLICT_CYCLES,
    LDST_STAT_L1_HITS,
    LDST_STAT_L1_MISSES,
    LDST_STAT_L1_MERGED,
    LDST_STAT_L1_RES_FAIL,
    LDST_STAT_STORES_TXN,
    LDST_STAT_ATOMIC_TXN,
    LDST_STAT_MEM_REQS,
    LDST_STAT_L1_HIT_RATE,
    LDST_STAT_CONST_HITS,
    LDST_STAT_CONST_MISSES,
    LDST_STAT_CONST_MERGED,
    LDST_STAT_MISS_QUEUE_PEAK,
    LDST_STAT_MISS_QUEUE_STALLS,
    LDST_STAT_RELEASE_QUEUE_PEAK,
    LDST_STAT_RELEASE_WAITS,
    LDST_STAT_SLICE_MERGED,
    LDST_STAT_IU_REQS,
};

typedef struct ldst_op ldst_op;

typedef struct {
    blk_inst *inst;
    sm_env *env;
    unsigned sm_id;
    cache_tags *l1;
    cache_mshr *mshr;
    cache_tags *cc; /* the constant cache (read-only; its own MSHRs) */
    cache_mshr *cc_mshr;
    coalesce_smem_config smem;
    unsigned line, l1_latency, smem_latency, param_latency;
    bool l1_off; /* l1_enabled=false: global loads bypass the L1D */
    unsigned mshr_entries;
    unsigned const_line, const_latency;
    ldst_op *cur;        /* the instruction being processed */
    GPtrArray *ops;      /* in-flight ops indexed by id (NULL = free) */
    unsigned n_ops;      /* in-flight ops (non-NULL entries of ops) */
    ldst_op *free_ops;   /* finished ops kept for reuse, a list through their next_free */
    /* cur's next load was refused by the L1 (refusals up to this cycle are counted, each cycle
     * slept one more); or, foreseen (foresee_refusal), it will be from the next cycle on */
    bool blocked;
    /* While blocked, the L1 and its MSHRs change only by fills: a refusal for want of an MSHR can
     * end after any fill, one for want of a line (or of room in the line's MSHR entry) only after a
     * fill in its set. A retry that cannot succeed is counted as a refusal without probing again. */
    cache_fail blocked_why;
    unsigned blocked_set;
    bool blocked_may_pass; /* a fill that can change the answer arrived since the refusal */
    /* cur's next transaction, an L1D load, as the tag array answered it (plan.probe), while plan_ok:
     * kept until that set changes (a fill in it, or the transaction made), so that a load decided
     * before it is made (a full miss queue, a foreseen refusal) or retried after a fill elsewhere is
     * probed once */
    cache_read_plan plan;
    bool plan_ok;
    blk_outq reqs;         /* the miss queue: mem_req_t waiting for room in mem_req (miss_queue deep) */
    blk_outq releases;     /* the release queue: release_t waiting for room in release (release_queue) */
    GPtrArray *rel_wait;   /* finished ops waiting, in order, for room in the release queue */
    /* completions scheduled (op id, ready cycle), by cycle; among equal cycles the latest first */
    struct ldst_ready *ready;
    unsigned n_ready, cap_ready;
    uint64_t busy_until;
    uint64_t next_id;
    blk_iref *evict, *access, *regs; /* the listeners bound to l1_evict, l1_access and regs */
    unsigned n_evict, n_access, n_regs;
    blk_iref *iu_reply; /* an interface unit's role played by the SM: its replies (iu_reply) */
    unsigned n_iu_reply;
    gsc_event *iu_ev;   /* a request of that role joined the miss queue */
    /* traced */
    uint32_t tr_inflight;
    uint32_t tr_warp;
    uint8_t tr_hit;
    uint8_t tr_const_hit;
    uint16_t tr_mshr_used;
    uint8_t tr_coalesced; /* strobe: line requests of the instruction started this cycle */
    uint8_t tr_iu_inflight; /* requests of an interface unit's role the SM plays, in flight */
    /* An SM of lane slices (ldst_set_slices): slices of slice_lanes lanes; 0: none */
    unsigned slices, slice_lanes;
    blk_call_probe *probe[LDST_IU + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} ldst;

extern const blk_desc ldst_desc;
ldst *ldst_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned sm_id);
/* The SM has `slices` lane slices of `lanes` lanes (VWS; the sm topology's `slicing`): the memory
 * instructions the slices issue in the same cycle, of the same kind, become one access (the
 * cross-slice memory unit: one coalescing of their lanes, each instruction released when the access
 * completes). Before elaboration. */
void ldst_set_slices(ldst *l, unsigned slices, unsigned lanes);
void ldst_free(ldst *l);
bool ldst_busy(const ldst *l);
/* The L1D tag array (lines carry the reserving warp id as metadata; cache_tags_set_meta can change
 * it) and its eviction hook: fn is called for every VALID/MODIFIED line leaving the L1D, replaced by
 * a fill or invalidated by a store (write-evict), with its line address, metadata, set and way (the
 * CCWS victim tag array, DAWS's hit classification). One hook: a later call replaces it. */
cache_tags *ldst_l1_tags(ldst *l);
/* Inside an l1_access listener: the load whose line transaction probed the L1D, and (lanes, if not
 * NULL) the lanes that transaction serves; NULL when no transaction is being made. */
const issued_t *ldst_current(const ldst *l, uint32_t *lanes);

G_END_DECLS

#endif
