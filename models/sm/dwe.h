/* dwe.h — the dynamic warp execution controller of register sharing (resource-sharing/GREENER spec
 * §1.4, §6): it throttles the memory instructions of non-owner warps, SM by SM.
 *
 * SM `ref` (default 0) is the reference: it never issues a memory instruction of a non-owner warp
 * (P = 0). Every other SM i issues one with probability P_i (in tenths: 0..10, initially `init`),
 * one Bernoulli draw per issue attempt from a seeded per-SM generator; a refused warp is not ready
 * in that cycle. Every `period` cycles each P_i moves by one step: down when SM i had more stall
 * cycles than the reference in the window, up when fewer, unchanged when equal (§6 [A]); the counts
 * restart. A stall cycle is the spec's pipeline stall: issue's stall_pipeline (a ready warp whose
 * unit is busy), read from each SM's issue block at the window's end.
 *
 * A non-owner warp here is a warp of a paired CTA whose partner CTA owns the pair (lock_table.h):
 * before either CTA has acquired a lock neither is throttled, so no pair can wait on itself. The
 * lock table of each SM asks dwe_allow from its veto (bound to the arbiters); the windows are judged
 * when it asks: windows that ended without a question are judged together, on the stalls they
 * counted together, one step each in that comparison's direction (a stall count of an SM whose
 * issue block sleeps is charged when it wakes). Pure C, no process. docs/sharing.md. */
#ifndef GPUSC_MODELS_SM_DWE_H
#define GPUSC_MODELS_SM_DWE_H

#include "models/core/block.h"

G_BEGIN_DECLS

typedef struct dwe dwe;

/* n SMs whose issue blocks are issue[0..n) (their stall_pipeline counters are read). */
dwe *dwe_new(blk_inst *const *issue, unsigned n, unsigned ref, uint64_t period, unsigned init_tenths,
             uint64_t seed);
void dwe_free(dwe *d);
/* May SM sm issue a memory instruction of a non-owner warp now (one draw)? */
bool dwe_allow(dwe *d, unsigned sm, uint64_t cycle);
/* P of SM sm in tenths (0..10), the windows evaluated, the draws refused. */
unsigned dwe_p(const dwe *d, unsigned sm);
uint64_t dwe_windows(const dwe *d);
uint64_t dwe_refused(const dwe *d);
/* One window's adjustment from given stall counts (stalls[0..n)); dwe_allow calls it. */
void dwe_adjust(dwe *d, const uint64_t *stalls);

G_END_DECLS

#endif
