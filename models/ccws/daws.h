/* daws.h — the `daws` block: divergence-aware warp scheduling of one SM (DAWS; docs/ccws.md; the
 * CCWS/DAWS/VWS spec §6). It predicts each warp's cache footprint, in L1D lines, for one iteration
 * of the loop it is in, and strikes, through the arbiter's `veto` import, the loads of the warps
 * whose oldest-first prefix sum of predictions exceeds the effective cache size.
 *
 * Tables (per SM): the static load classification table (SLCT: `slct` entries of PCLoopBegin,
 * IsDiv, RepID, PCLoad; filled at launch from the classification pass, daws_load_slct) and the cache
 * footprint prediction table (FPT: one entry per warp slot, prediction and PCLoopBegin). The loop
 * markers are the loop-marker pass's side table (daws_set_loops).
 *
 *  - issued(w, pc): w issued the first instruction of loop L: if its FPT entry is empty or holds a
 *    PC <= L, it takes L (a new loop, the same loop, or an inner loop); otherwise (an outer loop's
 *    next iteration after an inner loop) it keeps the inner loop's PC. The prediction is recomputed
 *    from the entry's loop and the lanes that executed the instruction (footprint below).
 *  - issued(w, pc) outside the loop tracked: the entry is cleared (exit=outermost: only when pc lies
 *    outside the outermost loop around the entry's loop; exit=any: outside the entry's loop).
 *  - issued(w, bar/barrier): the prediction is cleared (the warp waits at the barrier) until w
 *    issues a loop's first instruction again.
 *  - footprint(L, n): over the SLCT entries with PCLoopBegin = L, grouped by RepID (a group is
 *    diverged when one of its loads is): n > 1: n lines per diverged group, 2 per converged one;
 *    n = 1: 1 line per group. With cf=off (no control-flow awareness) n is always 32.
 *  - the decision, per cycle: if one warp's prediction exceeds the L1D's `lines`, nobody is barred.
 *    Otherwise the resident warps in age order (oldest first): a warp's own prediction (outside any
 *    loop while some prediction is non-zero: the footprint of the next loop in program order, with
 *    its lanes) plus the FPT predictions of the older warps; it is barred iff that exceeds
 *    EffCacheSize = kassoc / 1000 x lines (cmp=ge: reaches it). A warp predicting 0 is never
 *    barred, nor is one whose older warps all predict 0 (its own prediction alone above
 *    EffCacheSize but within the L1D would otherwise bar it, and every warp behind it, for good).
 *    With hold=on (the default) a warp that issued a load inside its loop is not barred again until
 *    it leaves the loop or waits at a barrier (§6.1: not de-scheduled inside a loop).
 *  - veto(i): candidate i's next instruction is a load (policy_warp.flags POLICY_F_LOAD; gate=stores
 *    also POLICY_F_STORE) and its warp is barred.
 * mode=detected (Detected-DAWS, spec §6.8): no profile; the classification table is filled at run
 * time. Per loop a sampling warp table entry: the first warp that issues the loop's first
 * instruction with more than two lanes samples it (reselect=ge2: after the first sampler left, two
 * lanes are enough); it stops when it issues an instruction outside the loop. Its loads feed:
 *  - the memory divergence detector: per load PC a DivCount (4 bits, 0..15, from 0), counted only
 *    with more than two lanes: more than two lines +1, otherwise -1; diverged iff DivCount > 1;
 *  - the intra-loop repetition detector (ILRD: 8 sets x 8 ways, LRU, entries {tag, PC, warp}): probed
 *    with the load's first line (ilrd=all: every line); a miss inserts, a hit on another PC gives
 *    both PCs one RepID; the sampling warp's entries are cleared when it issues the loop's first
 *    instruction again;
 *  - the loop locality counter (HasLocality, 8 bits signed saturating, from 0): per L1D access of the
 *    sampling warp (the `access` port, bound to ldst.l1_access), +1 for a hit on a line its own miss
 *    brought in (the line's warp id, kept from the accesses and the `evict` port) or a VTA hit (the
 *    `vta_hit` port, bound to vta.hit, which reports before this block's access), -1 otherwise.
 *  The sampling warp's loads of a loop whose counter is positive are written into the table
 *  (PCLoopBegin of their innermost loop, IsDiv, RepID, PCLoad; an existing PCLoad is updated) and
 *  only loops with a positive counter get predictions. In every mode with `access` and `evict` bound
 *  the L1D hits are split into intra-warp and inter-warp (by the line's warp id).
 * mode=profile: no veto; every load of global/local/generic memory is profiled into the
 * daws_profile given by daws_set_profile (executions with > 2 lanes, those touching > 2 lines, line
 * accesses, and reuses: the line is among the last `prof_lines` lines the same warp touched).
 * Traced: `eff` (EffCacheSize, lines, rounded down), `total` (sum of predictions), `can_load`,
 * `barred`, `in_loop` (bit w: w has an FPT entry), `pred_<w>` for w < 32, the `strikes` pulse.
 */
#ifndef GPUSC_MODELS_CCWS_DAWS_H
#define GPUSC_MODELS_CCWS_DAWS_H

#include "kernels/passes/daws_pass.h"
#include "models/ccws/vta.h"
#include "models/ccws/throttle.h"
#include "models/core/block.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

#define DAWS_MAX_WARPS    64
#define DAWS_TRACED_WARPS 32
#define DAWS_MAX_SLCT     256
#define DAWS_MAX_SWT      16
#define DAWS_ILRD_SETS    8
#define DAWS_ILRD_WAYS    8

enum { DAWS_EVENTS, DAWS_ISSUED, DAWS_VETO, DAWS_ACCESS, DAWS_EVICT, DAWS_VTA_HIT };
enum {
    DAWS_STAT_PREDICTIONS,
    DAWS_STAT_INSTS,
    DAWS_STAT_STRIKES,
    DAWS_STAT_THROTTLE_CYCLES,
    DAWS_STAT_BARRED_WARP_CYCLES,
    DAWS_STAT_OVERSIZE,
    DAWS_STAT_PEAK_PRED,
    DAWS_STAT_PEAK_TOTAL,
    DAWS_STAT_LOOP_EXITS,
    DAWS_STAT_PROFILED,
    DAWS_STAT_INTRA_HITS,
    DAWS_STAT_INTER_HITS,
    DAWS_STAT_SAMPLED_LOADS,
    DAWS_STAT_SAMPLERS,
    DAWS_STAT_LOCALITY_UP,
    DAWS_STAT_LOCALITY_DOWN,
    DAWS_STAT_ILRD_HITS,
    DAWS_STAT_SLCT_UPDATES,
};
enum { DAWS_MODE_PROFILED, DAWS_MODE_PROFILE, DAWS_MODE_DETECTED };

/* Detected-DAWS: a sampling warp table entry (one loop) and an ILRD entry. */
typedef struct {
    bool used, had_sampler;
    uint32_t func, loop;
    int sampler;     /* warp slot, -1: none */
    int32_t counter; /* HasLocality: saturating, 8 bits signed */
} daws_swt;

typedef struct {
    bool valid;
    uint64_t tag;
    uint32_t func, pc;
    unsigned wid;
    uint64_t used;
} daws_ilrd;
enum { DAWS_EXIT_OUTERMOST, DAWS_EXIT_ANY };

typedef struct {
    uint32_t func, loop; /* loop: index in the function's loop table; IR_NONE: no entry */
    uint32_t pc;         /* PCLoopBegin */
    uint32_t pred;       /* lines */
} daws_fpt;

typedef struct {
    blk_inst *inst;
    unsigned mode, exit, lines, lines_param, kassoc, prof_lines, swt_max;
    bool reselect_ge2, ilrd_all;
    bool cmp_ge, hold, cf;
    uint32_t gate_flags;
    const daws_loops *loops; /* not owned */
    daws_profile *prof;      /* not owned (mode=profile) */
    daws_slct_entry slct[DAWS_MAX_SLCT];
    unsigned n_slct, slct_max;
    /* per function, per loop: the footprint's groups (diverged, converged) */
    uint16_t **div_groups, **conv_groups;
    /* per warp slot */
    daws_fpt fpt[DAWS_MAX_WARPS];
    uint64_t age[DAWS_MAX_WARPS];
    uint32_t last_func[DAWS_MAX_WARPS], last_pc[DAWS_MAX_WARPS];
    uint8_t lanes[DAWS_MAX_WARPS];
    uint64_t strikes[DAWS_MAX_WARPS];
    uint32_t peak[DAWS_MAX_WARPS];
    uint64_t *recent[DAWS_MAX_WARPS]; /* mode=profile: the warp's last prof_lines lines (+1; 0 empty) */
    unsigned recent_at[DAWS_MAX_WARPS];
    unsigned order[DAWS_MAX_WARPS]; /* resident warps, oldest first */
    unsigned n_active;
    uint64_t active, held, seq;
    uint64_t barred;
    uint64_t table_at;
    bool table_valid, oversize; /* oversize: the table's largest prediction exceeds the L1D */
    uint32_t total;             /* the table's sum of the predictions */
    uint64_t table_counted;     /* the cycles before this one are counted (count_table) */
    /* Detected-DAWS */
    daws_swt swt[DAWS_MAX_SWT];
    int samp_of[DAWS_MAX_WARPS]; /* the table entry warp w samples, -1 */
    uint8_t **divc;              /* per function, per pc: DivCount (4 bits, saturating) */
    uint32_t **rep_of;           /* per function, per pc: the RepID the ILRD gave (0: none yet) */
    uint32_t next_rep;
    daws_ilrd ilrd[DAWS_ILRD_SETS * DAWS_ILRD_WAYS];
    uint64_t ilrd_clock;
    GHashTable *owner; /* L1D line -> the warp whose miss reserved it, + 1 (the lines' warp ids) */
    bool vta_hit_pending;
    unsigned vta_hit_warp;
    uint64_t vta_hit_line;
    throttle_trace tt; /* throttled-cycle counting, the strikes pulse, the trace process */
    uint32_t tr_pred[DAWS_TRACED_WARPS];
    uint32_t tr_eff, tr_total;
    uint64_t tr_can_load, tr_barred, tr_in_loop;
    blk_call_probe *probe[DAWS_VTA_HIT + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} daws;

extern const blk_desc daws_desc;
daws *daws_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void daws_free(daws *d);

/* Before the run: the loop-marker side table (needed in every mode), the profile to fill
 * (mode=profile), the classification table image (mode=profiled; more than `slct` entries is a
 * user error). */
void daws_set_loops(daws *d, const daws_loops *l);
void daws_set_profile(daws *d, daws_profile *p);
/* The L1D's lines, used when the `lines` parameter is 0. */
void daws_set_l1_lines(daws *d, unsigned lines);
void daws_load_slct(daws *d, const daws_slct_entry *e, unsigned n);

/* What the ports do, callable directly (tests, the testbench's summary). */
uint32_t daws_footprint(const daws *d, uint32_t func, uint32_t loop, unsigned lanes);
uint64_t daws_barred(daws *d, uint64_t cycle); /* bit w: w may not issue loads */
uint32_t daws_pred(const daws *d, unsigned warp);
uint32_t daws_peak(const daws *d, unsigned warp);
uint64_t daws_warp_strikes(const daws *d, unsigned warp);
double daws_eff(const daws *d); /* EffCacheSize in lines */
/* Detected-DAWS's classifiers (what the ports feed; for tests): DivCount of a load, whether it is
 * diverged (DivCount > 1), its ILRD RepID (0: none), the HasLocality counter of the loop beginning
 * at pc (INT32_MIN: not in the sampling warp table) and its sampling warp (-1: none). */
unsigned daws_divcount(const daws *d, uint32_t func, uint32_t pc);
uint32_t daws_rep(const daws *d, uint32_t func, uint32_t pc);
int32_t daws_loop_counter(const daws *d, uint32_t func, uint32_t begin_pc);
int daws_sampler(const daws *d, uint32_t func, uint32_t begin_pc);

G_END_DECLS

#endif
