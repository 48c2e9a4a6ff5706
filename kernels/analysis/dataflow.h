/* dataflow.h — one generic dataflow solver over bit vectors, and the analyses built on it: liveness
 * (backward, may, over virtual registers) and reaching definitions (forward, may, over definition
 * sites).
 *
 * A problem gives a direction, a meet (union = may, intersection = must), the number of bits, a
 * boundary value (at the entry for forward problems, at the virtual exit for backward ones) and a
 * per-instruction transfer as gen/kill sets: out = gen | (in & ~kill) in the problem's direction. The
 * solver composes the instruction transfers into one per block, iterates over the blocks in reverse
 * postorder (forward) or postorder (backward) until nothing changes, and keeps the value at each
 * block's boundaries; the value at any instruction is found by replaying its block.
 */
#ifndef GPUSC_KERNELS_DATAFLOW_H
#define GPUSC_KERNELS_DATAFLOW_H

#include "kernels/analysis/cfg.h"

G_BEGIN_DECLS

/* ---- bit vectors ---- */
typedef struct {
    uint32_t n;     /* bits */
    uint64_t *w;    /* (n + 63) / 64 words; bits past n are always 0 */
} df_bits;

df_bits *df_bits_new(uint32_t n);                 /* all clear */
df_bits *df_bits_dup(const df_bits *b);
void df_bits_free(df_bits *b);
void df_bits_clear_all(df_bits *b);
void df_bits_set_all(df_bits *b);
static inline void df_bits_set(df_bits *b, uint32_t i) { b->w[i >> 6] |= 1ull << (i & 63); }
static inline void df_bits_clear(df_bits *b, uint32_t i) { b->w[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool df_bits_test(const df_bits *b, uint32_t i) { return (b->w[i >> 6] >> (i & 63)) & 1; }
void df_bits_copy(df_bits *dst, const df_bits *src);       /* same n */
bool df_bits_union(df_bits *dst, const df_bits *src);      /* dst |= src; true if dst changed */
bool df_bits_intersect(df_bits *dst, const df_bits *src);  /* dst &= src; true if dst changed */
void df_bits_subtract(df_bits *dst, const df_bits *src);   /* dst &= ~src */
bool df_bits_equal(const df_bits *a, const df_bits *b);
uint32_t df_bits_count(const df_bits *b);
/* The first set bit >= from, or IR_NONE: for (i = df_bits_next(b, 0); i != IR_NONE; i = df_bits_next(b, i + 1)) */
uint32_t df_bits_next(const df_bits *b, uint32_t from);

/* ---- the solver ---- */
typedef enum { DF_FORWARD, DF_BACKWARD } df_direction;
typedef enum { DF_MAY, DF_MUST } df_meet; /* union / intersection */

/* gen and kill arrive cleared; set the bits of instruction `instr`. */
typedef void (*df_transfer_fn)(void *ctx, ir_func *f, uint32_t instr, df_bits *gen, df_bits *kill);

typedef struct {
    df_direction dir;
    df_meet meet;
    uint32_t n_bits;
    df_transfer_fn transfer;
    void *ctx;
    const df_bits *boundary; /* at the entry (forward) / at the virtual exit (backward); NULL = empty */
} df_problem;

typedef struct {
    ir_func *f;
    df_problem p;   /* copied; boundary copied into `boundary` */
    df_bits *boundary;
    uint32_t n_blocks;
    df_bits **gen, **kill;   /* per block, composed in the problem's direction */
    df_bits **in, **out;     /* per block, in program order: in = at the first instruction, out = after the last */
    uint32_t iterations;     /* passes over the blocks until the fixed point (the last one changed nothing) */
} df_result;

/* Solve (builds the CFG if needed). Blocks with no predecessors (forward) meet to the boundary, as
 * does, for backward problems, the virtual exit; a must problem starts its interior at all-ones. */
df_result *df_solve(ir_func *f, const df_problem *p);
void df_result_free(df_result *r);
/* The value just before / just after instruction `instr` (program order), replaying its block. */
void df_value_before(const df_result *r, uint32_t instr, df_bits *out);
void df_value_after(const df_result *r, uint32_t instr, df_bits *out);

/* ---- liveness (backward may over f->regs) ----
 * Uses: every register read (guard, sources, memory bases, vector elements). Defs: the destination
 * registers; a guarded definition does not kill (the lanes whose guard is false keep the old value). */
typedef struct {
    df_result *r;
} df_liveness;

df_liveness *df_liveness_compute(ir_func *f);
void df_liveness_free(df_liveness *l);
const df_bits *df_live_in(const df_liveness *l, uint32_t block);
const df_bits *df_live_out(const df_liveness *l, uint32_t block);
void df_live_before(const df_liveness *l, uint32_t instr, df_bits *out);
void df_live_after(const df_liveness *l, uint32_t instr, df_bits *out);
/* Live sets after every instruction at once (one replay per block): after[i] for i in [0, n_instrs).
 * Free with df_live_after_all_free. */
df_bits **df_live_after_all(const df_liveness *l);
void df_live_after_all_free(const df_liveness *l, df_bits **after);

/* ---- reaching definitions (forward may over definition sites) ----
 * A definition site is one (instruction, destination register) pair. An unguarded definition kills
 * every other definition of its register; a guarded one kills none. */
typedef struct {
    uint32_t instr, reg;
} df_def;

typedef struct {
    df_result *r;
    GArray *defs;        /* df_def, by site id (instruction order) */
    GArray **reg_defs;   /* per register: uint32_t site ids */
    uint32_t n_regs;
    uint32_t *first_site; /* per instruction: its first site id (an instruction's sites are consecutive) */
} df_reaching;

df_reaching *df_reaching_compute(ir_func *f);
void df_reaching_free(df_reaching *rd);
/* Definition sites reaching the point just before `instr` (all registers). */
void df_reaching_before(const df_reaching *rd, uint32_t instr, df_bits *out);
/* The sites of register `reg` that reach the point just before `instr` (uint32_t site ids; caller
 * frees with g_array_unref). */
GArray *df_reaching_defs_of(const df_reaching *rd, uint32_t instr, uint32_t reg);


/* ---- divergence (which registers may differ between the lanes of a warp) ----
 * Sources of divergence: %tid, %laneid, the lane masks, clocks and timers; loads from .local and
 * from a divergent address; ld.param of anything but a kernel parameter (a .func's parameters, a
 * call's return value); atom and red results; shfl. Uniform: immediates, kernel parameters, the
 * other special registers, symbol addresses, loads from a uniform address in other spaces, vote and
 * activemask results. A register is divergent when a source of its definition is
 * (the guard included: a divergent guard writes only some lanes), or when it is defined inside the
 * influence region of a divergent branch (the blocks reached from the branch before its immediate
 * post-dominator: lanes that took different paths, or left a loop at different iterations, meet
 * there). A guarded bra is divergent when its guard is (and not .uni). Iterated to a fixed point;
 * conservative (a branch found uniform is uniform). */
typedef struct {
    df_bits *regs;        /* divergent registers */
    bool *branch;         /* per instruction: a divergent branch */
    uint32_t n_instrs;
    uint32_t n_guarded_branches, n_uniform_branches;
} df_divergence;

df_divergence *df_divergence_compute(ir_func *f);
void df_divergence_free(df_divergence *d);
/* Run the analysis and mark every guarded bra it proves uniform with IR_F_UNI (cfg_mark_uniform).
 * Returns the number of branches marked. Not part of the default pipeline: a runner that trusts
 * .uni relies on it. */
uint32_t df_mark_uniform_branches(ir_func *f);

G_END_DECLS

#endif
