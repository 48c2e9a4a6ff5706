/* relssp.h — placement of `relssp` (release shared scratchpad) for scratchpad sharing
 * (resource-sharing/GREENER spec §1.6, §8.2, §8.3; docs/sharing.md).
 *
 * A CTA that holds its pair's shared scratchpad region keeps it until it exits; `relssp` lets it go
 * earlier: when every active thread of the CTA has executed one, the lock is released (the SM's
 * smem_share block). The pass puts `relssp` at the earliest points after which no path reaches a
 * shared-scratchpad access, so that each thread executes exactly one on every path (OPT), or at the
 * post-dominator of the accesses (PostDom, safe but maybe later).
 *
 * OPT, on a CFG without critical edges (the pass splits them first: a block holding `bra`), with a
 * greatest fixed point from true:
 *   SafeIN(B)  = false if B holds a shared access, else SafeOUT(B)
 *   SafeOUT(B) = true if B is the exit, else AND over the successors of SafeIN
 *   INS_OUT(B) = SafeOUT(B) and not SafeIN(B)      -> just after B's last shared access
 *   INS_IN(B)  = not (AND over the predecessors of SafeOUT) and SafeIN(B)   (empty AND: true)
 * A function without shared access gets none.
 *
 * A shared-scratchpad access is an ld/st/atom/red in the shared space, or a generic one (it may
 * reach the scratchpad): without a layout every scratchpad access counts (§8.3's default); after
 * spvar_layout_apply, an access it proved to reach only private-region variables does not. */
#ifndef GPUSC_KERNELS_RELSSP_H
#define GPUSC_KERNELS_RELSSP_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

/* The analysis on an abstract CFG: blocks 0..n-1, the exit a block too (`exit`, no successors);
 * succ[b] lists b's successors (n_succ[b] of them); access[b]: b holds a shared access. Fills
 * safe_in, safe_out, ins_in, ins_out (n entries each). */
typedef struct {
    unsigned n, exit;
    const unsigned *const *succ;
    const unsigned *n_succ;
    const bool *access;
} relssp_cfg;

void relssp_analyze(const relssp_cfg *g, bool *safe_in, bool *safe_out, bool *ins_in, bool *ins_out);

typedef enum { RELSSP_OPT, RELSSP_POSTDOM } relssp_variant;

/* Is instruction in a scratchpad access (an ld/st/atom/red in the shared or the generic space, a
 * call)? A shared-scratchpad access: one, unless spvar_layout_apply placed every variable it
 * reaches in the private region. */
bool relssp_is_scratchpad_access(const ir_instr *in);
bool relssp_is_shared_access(const ir_instr *in);

/* Places relssp in f (a kernel with several or guarded exits given one exit block first; for OPT,
 * critical edges split, and afterwards the split blocks that received no relssp taken out again, so
 * that only a path through a relssp pays a branch for it). Returns the relssp instructions inserted;
 * *split (may be NULL) receives the split edges kept (their block holds a relssp). */
uint32_t relssp_place_func(ir_func *f, relssp_variant v, uint32_t *split);
/* In a function that is not a kernel: `relssp` just before every `exit` (guarded as the exit is),
 * so that a thread leaving inside a function its kernel calls releases too (a call counts as a
 * scratchpad access, so the kernel's own relssp comes after it and that thread never reaches it).
 * Returns the relssp inserted. */
uint32_t relssp_place_func_exits(ir_func *f);
/* relssp_place_func on every function of m with a body and relssp_place_func_exits on every
 * function called, directly or not, by a kernel that received a relssp; the number inserted. */
uint32_t relssp_place_module(ir_module *m, relssp_variant v);
/* relssp_place_module restricted to the kernels k with only[k] (only: one flag per function of m; NULL:
 * every kernel), and the functions they call: tb-sharing places relssp only in the kernels that run
 * with scratchpad sharing active. */
uint32_t relssp_place_entries(ir_module *m, relssp_variant v, const bool *only);

G_END_DECLS

#endif
