/* cfg.h — control-flow graph of an ir_func: basic blocks, dominator and post-dominator trees,
 * natural loops and their nesting, critical-edge splitting, and reconvergence points (the immediate
 * post-dominator of every potentially divergent branch).
 */
#ifndef GPUSC_KERNELS_CFG_H
#define GPUSC_KERNELS_CFG_H

#include "kernels/ir.h"

G_BEGIN_DECLS

/* Build the basic blocks (f->blocks, instr->block) and edges. Idempotent (rebuilds). The entry
 * block is block 0. A virtual exit node has index f->blocks->len in post-dominator queries. */
void cfg_build(ir_func *f);

/* Dominators / post-dominators (computed lazily, cached in f->analysis; invalidated by cfg_build). */
uint32_t cfg_idom(ir_func *f, uint32_t block);    /* IR_NONE for the entry */
uint32_t cfg_ipdom(ir_func *f, uint32_t block);   /* f->blocks->len = the virtual exit */
bool cfg_dominates(ir_func *f, uint32_t a, uint32_t b);
bool cfg_postdominates(ir_func *f, uint32_t a, uint32_t b);

/* Reconvergence: sets instr->reconv for every bra of f (the first instruction of the immediate
 * post-dominator block of the branch's block; IR_NONE when that is the function exit). Calls
 * cfg_build if needed. */
void cfg_compute_reconvergence(ir_func *f);

G_END_DECLS

#endif
