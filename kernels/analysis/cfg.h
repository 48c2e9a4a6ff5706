/* cfg.h — control-flow graph of an ir_func: basic blocks, dominator and post-dominator trees,
 * natural loops and their nesting, critical-edge splitting, and reconvergence points (the immediate
 * post-dominator of every potentially divergent branch).
 */
#ifndef GPUSC_KERNELS_CFG_H
#define GPUSC_KERNELS_CFG_H

#include "kernels/frontend/ir.h"

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

/* ---- additions (append-only below) ---------------------------------------------------------------
 *
 * Blocks. Leaders are: the first instruction, every branch target, and the instruction after a
 * bra/ret/exit/trap. A guarded bra (with or without .uni) has two successors (target, fall-through;
 * one if they coincide), an unguarded bra one; ret, exit and trap have an edge to the virtual exit
 * (plus the fall-through when guarded), as has a last block that falls off the end of the function
 * and a bra to a label at the very end. `call` does not end a block.
 * cfg_build sets f->analysis_free, so ir_module_free releases the cached analyses.
 *
 * Unreachable blocks (from the entry): cfg_idom gives IR_NONE, cfg_dominates(a, b) is false for
 * a != b. Blocks that cannot reach the exit (infinite loops): cfg_ipdom gives the virtual exit for
 * each of them, so every block has an answer; for the blocks that do reach the exit, post-dominance
 * considers only the paths that reach it (a lane that never leaves an infinite loop never reconverges
 * anyway, and the lanes that do finish meet at the post-dominator computed over finishing paths).
 */

/* Free the edges and the cached analyses (f->blocks stays, emptied; f->analysis = NULL). */
void cfg_clear(ir_func *f);

static inline uint32_t cfg_n_blocks(const ir_func *f)
{
    return f->blocks ? f->blocks->len : 0;
}
static inline ir_block *cfg_block(const ir_func *f, uint32_t b)
{
    return &g_array_index(f->blocks, ir_block, b);
}
static inline uint32_t cfg_exit(const ir_func *f)
{
    return cfg_n_blocks(f);
}

/* The label operand (branch target instruction index) of a bra, or IR_NONE. */
uint32_t cfg_branch_target(const ir_instr *in);
/* A potentially divergent branch: a guarded bra not marked .uni (IR_F_UNI). */
bool cfg_branch_is_divergent(const ir_instr *in);
/* Whether block b ends with an edge to the virtual exit (ret, exit, or falling off the end). */
bool cfg_block_exits(const ir_func *f, uint32_t b);

/* Reverse postorder of the blocks reachable from the entry (cached; *n receives the count). */
const uint32_t *cfg_rpo(ir_func *f, uint32_t *n);
bool cfg_reachable(ir_func *f, uint32_t block);

/* ---- natural loops ----
 * A back edge is an edge s -> h where h dominates s. The natural loop of h is h plus every block
 * that reaches a latch s without passing through h; the loops of back edges sharing a header are
 * merged into one loop. Retreating edges of irreducible regions are not back edges (no loop). */
typedef struct {
    uint32_t header;
    uint32_t parent;  /* enclosing loop index, or IR_NONE for an outermost loop */
    uint32_t depth;   /* 1 for an outermost loop */
    GArray *blocks;   /* uint32_t, sorted, header included */
    GArray *latches;  /* uint32_t: sources of the back edges */
    GArray *exits;    /* uint32_t pairs (from, to): edges leaving the loop (to may be the virtual exit) */
} cfg_loop;

uint32_t cfg_n_loops(ir_func *f);
const cfg_loop *cfg_get_loop(ir_func *f, uint32_t loop); /* loops are ordered outer before inner */
uint32_t cfg_block_loop(ir_func *f, uint32_t block);     /* innermost loop index, or IR_NONE */
uint32_t cfg_loop_depth(ir_func *f, uint32_t block);     /* 0 outside loops */
bool cfg_is_back_edge(ir_func *f, uint32_t from, uint32_t to);

/* ---- critical edges ----
 * An edge s -> t is critical when s has several successors and t several predecessors. Splitting
 * puts a new block holding one unconditional `bra t` on it: after s when the edge is s's
 * fall-through, at the end of the function when it is s's taken edge (the branch is retargeted).
 * Instructions are renumbered, branch targets rewritten, the CFG rebuilt and, for every bra, reconv
 * recomputed. Returns the number of edges split. */
uint32_t cfg_split_critical_edges(ir_func *f);

/* Mark a guarded branch as uniform (all lanes of a warp agree): sets IR_F_UNI, which is what
 * `bra.uni` means, so it is no longer potentially divergent. For a divergence analysis. */
void cfg_mark_uniform(ir_func *f, uint32_t instr);

G_END_DECLS

#endif
