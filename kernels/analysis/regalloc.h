/* regalloc.h — register allocation: PTX virtual registers to physical registers.
 *
 * Files: 32-bit registers R0..R(n-1) hold b8/b16/b32/u32/s32/f16/f32 values (a narrow value takes a
 * full register), 64-bit values take an aligned even/odd pair (R2k:R2k+1), b128 an aligned quad;
 * predicates live in their own file P0..P(m-1) and are counted separately. Kernel parameters stay in
 * param space and take no register. A `.func` has its own frame: every function is allocated
 * separately (its count is f->n_phys_regs); what a thread running a kernel needs, with the functions
 * it calls, is regalloc_entry_regs.
 *
 * Method: liveness (dataflow.h), an interference graph (a definition interferes with everything live
 * after it, except the source of a plain unguarded register copy; the registers live at the entry
 * interfere with each other), then greedy coloring in several orders (first definition in reverse
 * postorder, and Chaitin-style simplification order), keeping the smallest result; copies are
 * coalesced by preferring the partner's register when it is free.
 *
 * Declaration order: the coloring assigns every virtual register a slot (0..n-1 in its file); the
 * physical register of a slot is order[slot] (identity after allocation). A later pass may permute
 * physical registers (e.g. to change bank assignment) with regalloc_permute, which keeps the
 * allocation valid as long as pairs stay aligned pairs.
 */
#ifndef GPUSC_KERNELS_REGALLOC_H
#define GPUSC_KERNELS_REGALLOC_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

#define REGALLOC_ERROR (regalloc_error_quark())
GQuark regalloc_error_quark(void);
typedef enum { REGALLOC_ERROR_PERMUTATION, REGALLOC_ERROR_INVALID } regalloc_error_code;

/* 32-bit units a register of this type takes (PRED: 0, it is in the predicate file). */
unsigned regalloc_units(ir_type t);

typedef struct {
    uint32_t n_vregs;
    uint32_t *slot;        /* per virtual register: first slot in its file, IR_NONE if never referenced */
    uint32_t n_slots;      /* 32-bit slots used */
    uint32_t n_pred_slots; /* predicate slots used */
    uint32_t *order;       /* n_slots entries: physical register of each slot */
    uint32_t *pred_order;  /* n_pred_slots entries */
    uint32_t n_moves;           /* register copies seen */
    uint32_t n_moves_coalesced; /* copies whose two sides got the same register */
} regalloc_result;

/* Allocate f: sets ir_reg.phys for every referenced register (IR_NONE otherwise), f->n_phys_regs,
 * f->n_phys_preds. Builds the CFG if needed. Returns the result (free with regalloc_result_free). */
regalloc_result *regalloc_func(ir_func *f);
void regalloc_result_free(regalloc_result *r);

/* Rematerialization (a rewrite of f, before allocation): a register with a single unguarded
 * definition that only depends on constants — ld.param of a kernel parameter, immediates, special
 * registers fixed for the thread (%tid, %ntid, %ctaid, ...), symbol addresses — through a chain of at
 * most 3 pure operations (mov, cvt, cvta, add, sub, mul, shl, shr, and, or, neg) is recomputed right
 * before its first use in every block that uses it (one fresh register `%rematN` per block), and the
 * original definition is removed. ptxas reaches the same effect by reading parameters from the
 * constant bank. Instructions are renumbered (branch targets, scopes), the CFG rebuilt and reconv
 * recomputed. Returns the number of instructions inserted. */
uint32_t regalloc_remat(ir_func *f);

/* The toolchain's allocation pipeline for one function: rematerialization as regalloc_remat does it
 * when that lowers the register count (otherwise f is left as it was), minus, greedily, every
 * recomputation the count does not need — first those that would land inside a loop their
 * definition is outside of (they cost instructions at every iteration), then the others whose
 * removal does not make the function longer; then regalloc_func. */
regalloc_result *regalloc_func_remat(ir_func *f);

/* The same pipeline (regalloc_func_remat) for every defined function of m: rematerialization when it
 * lowers the function's register count (otherwise f is left as it was), then allocation. Returns the maximum 32-bit register count over them (and
 * the maximum predicate count in *max_preds if non-NULL). */
uint32_t regalloc_module(ir_module *m, uint32_t *max_preds);

/* regalloc_module with a maximum of max_regs 32-bit registers per thread (0: none): a function the
 * pipeline leaves above it is given to regalloc_spill, and a kernel whose figure with the functions
 * it calls (regalloc_entry_regs) is still above it spills more of its own registers. Returns the
 * maximum count over the functions. */
uint32_t regalloc_module_limit(ir_module *m, uint32_t max_regs, uint32_t *max_preds);

/* Spilling, for an allocated function f of m above max_regs registers per thread: until the count
 * fits, the register chosen is one live where the most registers are live, the cheapest by its
 * references (each weighted by 8^loop depth); it moves to an 8-byte slot of a .local array
 * `__spill_<function>` (created in m, function scope), each instruction reading it gets an
 * ld.local into a fresh register right before (also one writing it under a guard), each writing it
 * an st.local right after; then f is allocated again. Only 32- and 64-bit registers are spilled
 * (predicates have their own file). Returns the registers spilled; f->n_phys_regs may stay above
 * max_regs when nothing spillable is left (the caller reports it). */
uint32_t regalloc_spill(ir_module *m, ir_func *f, uint32_t max_regs);

/* The registers a thread running f needs with the functions it calls, after allocation of f and its
 * callees: the maximum of f's own count and, at every call, the registers f keeps live across the
 * call (distinct physical registers of the values live after it) plus the callee's own figure,
 * recursively (the call chain, at most 16 deep; recursion is refused by the loader). So the callee's
 * frame sits on top of the values the caller keeps, and may reuse the caller's registers that are
 * dead at the call (ptxas's ABI works that way: callee-saved registers survive the call, the others
 * are the callee's). Not the maximum of the two counts: the caller's live values stay taken while the
 * callee runs. (The runners keep every function in separate storage, which costs host memory, not
 * this figure.) The same for predicates in *preds (if non-NULL). */
uint32_t regalloc_entry_regs(const ir_module *m, ir_func *f, uint32_t *preds);

/* Apply a permutation of the 32-bit physical registers: perm[p] = new number of register p, for
 * p < f->n_phys_regs (a bijection on [0, n_phys_regs)). Rewrites r->order and ir_reg.phys. Fails,
 * changing nothing, when perm is not a bijection or would break an aligned pair / quad. */
bool regalloc_permute(ir_func *f, regalloc_result *r, const uint32_t *perm, GError **err);

/* Verify an allocation independently of the allocator: no two registers live at the same time
 * (one defined while the other is live, or both live at the entry) share a physical register unless
 * the definition is a plain copy of the other; pairs aligned; predicates in the predicate file; every
 * referenced register allocated and below the counts. */
bool regalloc_check(ir_func *f, GError **err);

G_END_DECLS

#endif
