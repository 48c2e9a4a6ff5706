/* arbiter.h — the `arbiter` block: the issue arbiter of one warp scheduler. It orders the
 * scheduler's ready warps by its policy (models/lib/policy.h: lrr, gto, oldest, two_level_active)
 * and asks its vetoes; the issue block issues the first warp it lists. Spec: docs/baseline-design.md
 * §2.2 issue arbiter; CCWS/DAWS/VWS spec §2.1 (GTO), §3; register-renaming spec §12.1 (two-level).
 *
 * One per scheduler (the issue block's `arbiter_%u` imports). A passive block: the issue block calls
 * the exported `arbiter` interface inside its activation, in the cycle it decides. Extension points:
 * the `veto` import (MULTI: every bound veto may strike a candidate; owner-warp-first, CCWS's
 * load filter, Malekeh's postponing bind here) and the `swl` parameter (static warp limiting).
 * Traced: the scheduler's stall reason in every cycle it is evaluated (issue_stall, 8 = issued; by name
 * through the `decision` translate filter) and
 * a `grants` pulse with the warp issued.
 */
#ifndef GPUSC_MODELS_SM_ARBITER_H
#define GPUSC_MODELS_SM_ARBITER_H

#include "models/core/block.h"
#include "models/lib/policy.h"

G_BEGIN_DECLS

typedef struct {
    /* Candidates among warps[0..n) (ready ones only), best first, into out; returns how many. */
    unsigned (*order)(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out);
    /* The same list gives the same answer (no vetoes, a stable policy): the caller may skip asking. */
    bool (*stable)(void *self);
    /* The scheduler's decision in a cycle it was evaluated: warp issued (-1: none) and else the
     * stall reason code (the issue block's issue_stall). */
    void (*outcome)(void *self, int warp, unsigned stall);
    /* Vetoes that hold (docs/ccws.md, "Simulation speed"): settles() is true when the policy is
     * stable and every veto can say how long its answers hold (policy_settles) and nothing the
     * arbiter traces would miss a call. Then, after order() in `cycle`: holds_until() is the first
     * cycle its answer to the same list may differ (policy_holds_until); repeat() counts the
     * statistics of `count` cycles from `first` in which the answer was reused without asking;
     * watch() registers changed(ctx, from), which a veto calls when an input changes its answers
     * from cycle `from` on. */
    bool (*settles)(void *self);
    uint64_t (*holds_until)(void *self, const policy_warp *warps, unsigned n, uint64_t cycle);
    void (*repeat)(void *self, const policy_warp *warps, unsigned n, uint64_t first, uint64_t count);
    void (*watch)(void *self, void (*changed)(void *ctx, uint64_t from), void *ctx);
    /* order() for a caller that issues only the first candidate: the same count and out[0], the rest
     * of out (room for n) scratch (policy_first). */
    unsigned (*first)(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out);
} arbiter_if;
extern const blk_iface arbiter_iface;

/* A veto (the `veto` import): true strikes candidate i of warps[0..n) this cycle (a policy_veto_fn). */
typedef struct {
    bool (*veto)(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle);
    /* Optional, all three or none (a policy_veto_until_fn, a policy_veto_repeat_fn, and watch: keep
     * changed(ctx, from) and call it whenever an input changes the answers, from cycle `from` on). */
    policy_veto_until_fn until;
    policy_veto_repeat_fn repeat;
    void (*watch)(void *self, void (*changed)(void *ctx, uint64_t from), void *ctx);
} issue_veto_if;
extern const blk_iface issue_veto_iface;

enum { ARBITER_ARB, ARBITER_VETO };
enum { ARBITER_STAT_GRANTS, ARBITER_STAT_EMPTY };

typedef struct {
    blk_inst *inst;
    policy *pol;
    blk_call_probe *probe;
    gsc_pulse *grant_pulse;
    uint32_t tr_grant;  /* traced: the warp of the last grant */
    uint8_t tr_stall;   /* traced: the scheduler's stall in the last evaluated cycle (8: it issued) */
    bool last_empty;    /* the last order listed no candidate while a warp was ready */
    GPtrArray *watched; /* const blk_iref *: the bound vetoes that hold (settles) */
} arbiter;

extern const blk_desc arbiter_desc;
arbiter *arbiter_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void arbiter_free(arbiter *a);

G_END_DECLS

#endif
