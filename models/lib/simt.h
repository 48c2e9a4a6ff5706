/* simt.h — per-warp SIMT reconvergence stack (post-dominator reconvergence, PDOM; ccws-daws-vws.md
 * §2.1 "SIMT stack with PDOM reconvergence"; GPGPU-Sim simd_model 1).
 *
 * Entries are {pc, reconvergence pc, active mask}; the top entry executes.
 *  - A non-branch instruction advances the top's pc (simt_stack_step).
 *  - A branch (simt_stack_branch) with taken mask T of the top's mask M: T == M goes to the target,
 *    T == 0 falls through; otherwise the top becomes the reconvergence entry (its pc := the branch's
 *    reconvergence pc, the immediate post-dominator from kernels' CFG) and two entries are pushed,
 *    each with that reconvergence pc: the not-taken path (fall-through, M & ~T) and the taken path
 *    (target, T). Which runs first is a parameter: the taken path by default [A].
 *  - Whenever the top's pc equals its reconvergence pc the entry is popped (repeatedly), so the
 *    paths merge at the reconvergence point.
 *  - Exiting lanes (simt_stack_exit) leave every entry; entries left with no lane are dropped.
 * The stack belongs to the `fetch` block (it supplies the PC); branch outcomes arrive from the unit
 * that evaluated the predicate. The active-lane count of the top feeds DAWS (ccws §0.1).
 */
#ifndef GPUSC_MODELS_LIB_SIMT_H
#define GPUSC_MODELS_LIB_SIMT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define SIMT_NO_RPC UINT32_MAX /* the entry never reconverges (the bottom entry, or no post-dominator) */

typedef struct {
    uint32_t pc;
    uint32_t rpc;
    uint32_t mask;
} simt_entry;

typedef struct simt_stack simt_stack;

simt_stack *simt_stack_new(bool taken_first);
void simt_stack_free(simt_stack *s);
void simt_stack_reset(simt_stack *s, uint32_t pc, uint32_t mask); /* a new warp */

bool simt_stack_done(const simt_stack *s); /* every lane exited */
uint32_t simt_stack_pc(const simt_stack *s);
uint32_t simt_stack_mask(const simt_stack *s);
unsigned simt_stack_active(const simt_stack *s); /* popcount of the top mask */
unsigned simt_stack_depth(const simt_stack *s);
const simt_entry *simt_stack_entry(const simt_stack *s, unsigned i); /* 0 = bottom */

void simt_stack_step(simt_stack *s, uint32_t next_pc);
void simt_stack_branch(simt_stack *s, uint32_t taken_mask, uint32_t target, uint32_t fallthrough, uint32_t rpc);
void simt_stack_exit(simt_stack *s, uint32_t lanes);

G_END_DECLS

#endif
