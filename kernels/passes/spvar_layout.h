/* spvar_layout.h — the shared-variable layout analysis of scratchpad sharing (resource-sharing/
 * GREENER spec §1.5, §8.4; docs/sharing.md): which `__shared__` variables of a kernel should live in
 * the shared (high-offset) part of its CTA's scratchpad.
 *
 * A program point is in the access range of a set S of variables when an access of a variable of S
 * lies on some path from the entry to it and an access of a variable of S on some path from it to
 * the exit. Per variable v and block B (may-analyses, least fixed point from false):
 *   PreOUT(v,B)  = true if B accesses v, else PreIN(v,B)
 *   PreIN(v,B)   = false at the entry, else OR over the predecessors of PreOUT
 *   PostIN(v,B)  = true if B accesses v, else PostOUT(v,B)
 *   PostOUT(v,B) = false at the exit, else OR over the successors of PostIN
 *   AccIN(S,B)   = OR_{v in S} PreIN(v,B) and OR_{v in S} PostIN(v,B)    (AccOUT likewise)
 * The set chosen for the shared region is, among the sets whose bytes reach f = 1 - t of the CTA's
 * scratchpad, the one whose access range holds the fewest instructions, then the least overshoot:
 * while the CTA runs outside that range it holds no shared location. */
#ifndef GPUSC_KERNELS_SPVAR_LAYOUT_H
#define GPUSC_KERNELS_SPVAR_LAYOUT_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

#define SPVAR_MAX_VARS 16 /* variables considered (sets are bit masks; 2^n subsets) */

/* A CFG: blocks 0..n-1, `entry` and `exit` among them; succ[b] (n_succ[b]); access[b]: the variables
 * (bit v) block b accesses. */
typedef struct {
    unsigned n, entry, exit;
    const unsigned *const *succ;
    const unsigned *n_succ;
    const uint32_t *access;
} spvar_cfg;

/* The per-variable Pre/Post solutions: bit v of pre_in[b] is PreIN(v, b), etc. (n entries each). */
typedef struct {
    uint32_t *pre_in, *pre_out, *post_in, *post_out;
} spvar_flow;

void spvar_analyze(const spvar_cfg *g, spvar_flow *out);
/* AccIN / AccOUT of the set `set` (a bit mask) at block b. */
bool spvar_acc_in(const spvar_flow *fl, uint32_t set, unsigned b);
bool spvar_acc_out(const spvar_flow *fl, uint32_t set, unsigned b);
/* The program points (IN and OUT of every block) in the access range of set. */
unsigned spvar_range_points(const spvar_cfg *g, const spvar_flow *fl, uint32_t set);

/* The choice among n variables of sizes size[]: the set of cost[set] minimal among the sets whose
 * size is at least need bytes, ties to the least overshoot, then the lower mask. 0 if none reaches
 * need (need 0: the empty set). */
uint32_t spvar_select(unsigned n, const uint64_t *size, const uint64_t *cost, uint64_t need);

/* The analysis of kernel f (its static .shared variables, at most SPVAR_MAX_VARS): a variable is
 * accessed by an instruction whose address is the variable's symbol or a register derived from it
 * (mov/cvta of the symbol, add/sub/mad/cvt/shl of such a register; flow-insensitive); an access
 * whose variable is unknown counts for every variable. The cost of a set is the instructions in its
 * access range, each weighted 1024 per enclosing loop (the spec's bound for a trip count it cannot
 * read). shared_fraction = num/den of the CTA's scratchpad (1 - t). Fills syms[] (the variables'
 * symbols, *n of them) and returns the chosen set (bit i: syms[i] goes to the shared region). */
uint32_t spvar_layout_func(const ir_module *m, ir_func *f, uint64_t num, uint64_t den, uint32_t *syms,
                           unsigned *n);

/* Applies the layout to every kernel of m for scratchpad sharing at threshold t = num/den with R_tb
 * bytes of scratchpad per CTA (as occupancy charges it: --smem-per-cta; 0 or less than the kernel
 * declares: what it declares). Per kernel, of its own static .shared variables: the set for the
 * shared region is chosen as above so that the others fit in the private region (offsets below
 * t x R_tb, after the module's .shared variables): its bytes reach the kernel's minus the private
 * region's; the others take the private region from its start in declaration order as far as each
 * fits, the rest (the chosen set, and any that does not fit) are marked ir_sym.smem_late, which the
 * loader places after them. Every scratchpad access that reaches only variables placed in the
 * private region gets the annotation `spvar_layout.private`, which relssp's placement honours (the
 * access needs no lock). Returns the variables placed in the private region. */
unsigned spvar_layout_apply(ir_module *m, uint64_t num, uint64_t den, uint64_t r_tb);
/* spvar_layout_apply on the kernels k with only[k] (one flag per function of m; NULL: every kernel). */
unsigned spvar_layout_apply_entries(ir_module *m, uint64_t num, uint64_t den, uint64_t r_tb,
                                    const bool *only);
/* Did spvar_layout_apply find instruction in's scratchpad access private? */
bool spvar_access_is_private(const ir_instr *in);

/* Applies the layout (spvar_layout_apply) and prints, per kernel (only `entry` when not NULL), where
 * the loader then places its static .shared variables (and the module's): a line "NAME: scratchpad
 * B bytes, R_tb R, t NUM/DEN: private offsets below P, accesses A private N" (A scratchpad accesses, N
 * of them annotated private), then one line per variable in offset order, "VAR offset O size S
 * private|shared|private+shared" (the last: it straddles the boundary; "(module)" for a module-scope
 * variable). False with the loader's message in err. */
bool spvar_layout_report(GString *out, ir_module *m, const char *entry, uint64_t num, uint64_t den,
                         uint64_t r_tb, GString *err);

G_END_DECLS

#endif
