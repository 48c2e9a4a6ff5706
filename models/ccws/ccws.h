/* ccws.h — the `ccws` block: cache-conscious warp scheduling's locality scoring system of one SM
 * (docs/ccws.md; the CCWS/DAWS/VWS spec §5.4-§5.6). It keeps a lost-locality score (LLS) per
 * resident warp and strikes, through the arbiter's `veto` import, the load of every warp whose place
 * in the descending-score prefix sum lies above the cutoff; the arbiter's GTO order among the rest
 * is the intersection of §5.1.
 *
 *  - warp_start: LLS = base (100); the warp joins the active set (its age: start order). warp_end:
 *    it leaves. A new kernel launch (sm_env.launch.kernel_no) resets VTAHitsTotal/InstIssuedTotal.
 *  - issued (every instruction of the SM): InstIssuedTotal += 1.
 *  - vta_hit(w) in cycle t: VTAHitsTotal += 1; LLDS = VTAHitsTotal * kthrottle * cutoff /
 *    InstIssuedTotal (Eq. 3.1, integer arithmetic; InstIssuedTotal and cutoff = active warps * base
 *    as they were at the start of cycle t); LLS[w] = max(LLS[w], LLDS) (update=set: LLDS),
 *    saturating at lls_max (1023: 10 bits). The new score counts from cycle t + 1 (the scoring is a
 *    register the arbiter reads: the spec's latency 0 is one cycle here).
 *  - decay: every cycle a score above base loses 1 point, down to base (computed when asked: the
 *    score at cycle c is max(base, LLS - (c - cycle of the last change))).
 *  - in each cycle the arbiter asks: the active warps sorted by LLS descending (ties: older first, or
 *    lower warp id with tie=wid), inclusive prefix sum; a warp is barred from loads iff its sum >
 *    cutoff (cmp=ge: >=). veto(i) is true iff candidate i's next instruction is a load
 *    (policy_warp.flags POLICY_F_LOAD: ld/ldu of global, local or generic memory; gate=stores also
 *    POLICY_F_STORE) and it is barred. Other instructions of barred warps issue.
 * Score and cutoff updates take effect in the cycle they happen (update latency 0).
 * Traced (when selected for the VCD, refreshed every cycle a warp is resident): `cutoff`,
 * `can_load` (bit w: warp w may issue loads), `barred` (warps barred), `lls_<w>` for w < 32, and a
 * `strikes` pulse per load struck.
 */
#ifndef GPUSC_MODELS_CCWS_CCWS_H
#define GPUSC_MODELS_CCWS_CCWS_H

#include "models/ccws/vta.h"
#include "models/ccws/throttle.h"
#include "models/core/block.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

#define CCWS_MAX_WARPS    64
#define CCWS_TRACED_WARPS 32

enum { CCWS_VTA_HIT, CCWS_VETO, CCWS_EVENTS, CCWS_ISSUED };
enum {
    CCWS_STAT_VTA_HITS,
    CCWS_STAT_INSTS,
    CCWS_STAT_STRIKES,
    CCWS_STAT_THROTTLE_CYCLES,
    CCWS_STAT_BARRED_WARP_CYCLES,
    CCWS_STAT_PEAK_LLS,
    CCWS_STAT_PEAK_LLDS,
};
enum { CCWS_UPDATE_MAX, CCWS_UPDATE_SET };
enum { CCWS_CMP_GT, CCWS_CMP_GE };
enum { CCWS_TIE_AGE, CCWS_TIE_WID };
enum { CCWS_GATE_LOADS, CCWS_GATE_STORES };

typedef struct {
    blk_inst *inst;
    sm_env *env; /* may be NULL (harness): no kernel-launch reset then */
    unsigned base, kthrottle, lls_max, update, cmp, tie;
    uint32_t gate_flags;
    /* per warp slot */
    /* A score is (value, cycle it was set) and decays from then; a change made in cycle t applies
     * from t + 1 (lls_at), the one before it (old) until then: what the arbiter sees in a cycle does
     * not depend on whether ldst's activation ran before issue's in that cycle. */
    uint32_t lls[CCWS_MAX_WARPS];
    uint64_t lls_at[CCWS_MAX_WARPS];
    uint32_t lls_old[CCWS_MAX_WARPS];
    uint64_t lls_old_at[CCWS_MAX_WARPS];
    uint64_t age[CCWS_MAX_WARPS];     /* start order */
    uint32_t peak[CCWS_MAX_WARPS];    /* highest score reached */
    uint64_t strikes[CCWS_MAX_WARPS]; /* loads struck */
    uint64_t active;                  /* bit w: warp w resident */
    unsigned n_active;
    uint64_t seq;
    uint32_t kernel_no;
    bool kernel_seen;
    uint64_t vta_hits, insts; /* VTAHitsTotal, InstIssuedTotal (this kernel) */
    uint32_t last_raise;      /* the points the last VTA hit added to its warp's score */
    /* InstIssuedTotal and the active warps before the cycle they last changed in (Eq. 3.1 uses their
     * values at the start of the cycle of the hit) */
    uint64_t insts_prev, insts_cycle;
    unsigned n_active_prev;
    uint64_t active_cycle;
    /* the barred set of cycle table_at (valid unless dirty) */
    uint64_t barred;
    uint64_t table_at, table_until; /* it holds in [table_at, table_until) */
    bool table_valid;
    throttle_trace tt; /* throttled-cycle counting, the strikes pulse, the trace process */
    uint32_t tr_lls[CCWS_TRACED_WARPS];
    uint32_t tr_cutoff;
    uint64_t tr_can_load, tr_barred;
    blk_call_probe *probe[CCWS_ISSUED + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} ccws;

extern const blk_desc ccws_desc;
/* env: the SM's environment (kernel launches), or NULL. */
ccws *ccws_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env);
void ccws_free(ccws *c);

/* What the ports do, callable directly (tests, the testbench's summary). */
uint32_t ccws_score(const ccws *c, unsigned warp, uint64_t cycle); /* the LLS at cycle */
uint32_t ccws_cutoff(const ccws *c);                               /* active warps x base */
uint32_t ccws_llds(const ccws *c, uint64_t cycle);                 /* Eq. 3.1 for a hit in cycle */
uint64_t ccws_barred(ccws *c, uint64_t cycle);                     /* bit w: w may not issue loads */
/* The first cycle after `cycle` in which ccws_barred may differ, unless an input (a VTA hit, a warp
 * start or end) changes the scores (UINT64_MAX: not before). */
uint64_t ccws_next_change(const ccws *c, uint64_t cycle);
uint32_t ccws_peak(const ccws *c, unsigned warp);
/* The points the last VTA hit added to its warp's score (0: none; for the per-load statistics, asked
 * by a listener of vta.hit bound after this block). */
uint32_t ccws_last_raise(const ccws *c);
uint64_t ccws_warp_strikes(const ccws *c, unsigned warp);

G_END_DECLS

#endif
