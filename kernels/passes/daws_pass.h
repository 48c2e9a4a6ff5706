/* daws_pass.h — the compiler side of divergence-aware warp scheduling (DAWS; docs/ccws.md):
 *
 *  1. The loop-marker pass: a side table keyed by instruction index (the PC) giving, per function,
 *     every natural loop's first and last instruction (the lowest and highest instruction index of
 *     its blocks), its enclosing loop and its outermost enclosing loop. The scheduler looks an issued
 *     instruction's PC up in it to see a loop begin, and whether a warp has left a loop. The PTX is
 *     not changed. Loads (ld/ldu of global, local or generic memory) inside loops are listed with
 *     their innermost loop and their address operand (base register, displacement).
 *  2. The profiled classification pass: from an offline profile of every such load (dynamic
 *     executions with more than two lanes active, how many of them touched more than two cache lines,
 *     line accesses and how many of them the same warp had touched recently) and the assembly it
 *     builds the static load classification table: per load (PCLoopBegin, IsDiv, RepID, PCLoad),
 *     for the loads of the loops found to have intra-warp locality.
 *     - Repetition (assembly): loads of the same innermost loop with the same base register share a
 *       RepID when their displacements lie within one cache line: in displacement order, a load
 *       joins the group of the load before it unless it is a line or more past the group's first
 *       ([r-8], [r-4], [r], [r+4] are one group; [r] and [r+128] are two). RepIDs are numbered
 *       1, 2, ... per function in the order of their first load.
 *     - Divergence (profile): a load is diverged when more than div_permille / 1000 of its profiled
 *       executions (more than two lanes active) touched more than two lines (default 0: any one).
 *     - Locality (profile): a loop has locality when the reused line accesses of its loads (inner
 *       loops included) are at least loc_permille / 1000 of their line accesses (default 500).
 */
#ifndef GPUSC_KERNELS_DAWS_PASS_H
#define GPUSC_KERNELS_DAWS_PASS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

typedef struct {
    uint32_t begin, end; /* first and last instruction index */
    uint32_t parent;     /* enclosing loop (index in the function's table), IR_NONE if outermost */
    uint32_t outer;      /* outermost enclosing loop (itself when outermost) */
} daws_loop;

typedef struct {
    uint32_t pc;       /* the load's instruction index */
    uint32_t loop;     /* innermost loop */
    uint32_t base_reg; /* address base register, IR_NONE when none */
    int64_t offset;    /* displacement */
    uint32_t rep;      /* RepID (1, 2, ... per function): same base register, within one line */
} daws_load;

typedef struct {
    uint32_t n_instrs;
    GArray *loops;      /* daws_loop, ordered by begin (outer before inner at the same begin) */
    GArray *loads;      /* daws_load, by pc */
    uint32_t *begin_of; /* per pc: the loop beginning there (the innermost one), IR_NONE */
    uint32_t *loop_at;  /* per pc: innermost loop containing it, IR_NONE */
    uint32_t *next;     /* per pc: the next loop in program order (first begin > pc), IR_NONE */
} daws_func;

typedef struct {
    unsigned n_funcs;
    daws_func *f;
} daws_loops;

/* The loop-marker pass over every function of m; line: cache line bytes (repetition groups). */
daws_loops *daws_loops_build(ir_module *m, unsigned line);
void daws_loops_free(daws_loops *l);

/* Profile of one static load (summed over warps and SMs). */
typedef struct {
    uint64_t execs;     /* executions with more than two lanes active */
    uint64_t div_execs; /* of those, executions that touched more than two lines */
    uint64_t lines;     /* line accesses (distinct lines per execution, summed) */
    uint64_t reused;    /* line accesses to a line the same warp touched recently */
} daws_pc_prof;

/* Per function, per pc (n_instrs entries each), created zeroed. */
typedef struct {
    unsigned n_funcs;
    uint32_t *n_instrs;
    daws_pc_prof **pc;
} daws_profile;

daws_profile *daws_profile_new(const daws_loops *l);
void daws_profile_free(daws_profile *p);
/* Text form: "load FUNC PC EXECS DIV_EXECS LINES REUSED" per profiled load ('#' lines ignored).
 * Read returns false with err (line number) on a malformed line or a PC outside the program. */
void daws_profile_write(const daws_profile *p, FILE *out);
bool daws_profile_read(daws_profile *p, const char *text, GString *err);

/* One entry of the static load classification table. */
typedef struct {
    uint32_t func;
    uint32_t loop_begin; /* PCLoopBegin */
    bool is_div;
    uint32_t rep;     /* RepID */
    uint32_t pc_load; /* PCLoad */
} daws_slct_entry;

/* The classification pass: writes at most max entries (loads of loops with locality, in function and
 * pc order) into out; returns how many were written. *n_found gets how many there were (more than
 * max: the table is too small, the rest are dropped). */
unsigned daws_classify(const daws_loops *l, const daws_profile *p, unsigned div_permille,
                       unsigned loc_permille, daws_slct_entry *out, unsigned max, unsigned *n_found);

G_END_DECLS

#endif
