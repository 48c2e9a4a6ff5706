/* greener.h — the `greener` compiler pass: the register power state to apply after each access
 * (docs/greener.md).
 *
 * For every instruction S and every register R it accesses, the pass computes the state R takes
 * after S accessed it (a source after its read, a destination after its write-back):
 *  - Dist(IN(S),R) = 1 if S reads or writes R, else INC(Dist(OUT(S),R)); Dist(OUT(S),R) = inf at an
 *    exit, else the maximum over S's successors; INC saturates at W (W + 1 and beyond are "inf").
 *    The values rise from the bottom (no information) to the least fixed point.
 *  - isLive(OUT(S),R): liveness, made warp-safe: a register some lanes of a warp still need while
 *    the warp runs the other side of a divergent branch (or the lanes still looping) is live in
 *    that whole region, since the register is one per warp.
 *  - Power(OUT(S),R) (the source's Table 4.1): live and far -> SLEEP, live and near -> ON, dead
 *    and far (or never accessed again) -> OFF, dead and near -> ON.
 * A register of a `.func` (not an entry) never gets OFF: its physical registers are the caller's
 * too, whose values must survive the call (SLEEP keeps them).
 * The encoding: 2 bits per encoded operand, for the first register destination and the first two
 * register sources (operand order; 00 OFF, 01 SLEEP, 10 ON, 11 no such operand): three
 * instruction annotation fields greener.dst, greener.src0, greener.src1 (annot.h) and greener.on
 * (the pass ran). Registers not encoded (a third source, a memory operand's address, vector
 * elements, a second destination) take SLEEP after their access.
 *
 * The pass works on allocated code (regalloc.h): its registers are the physical 32-bit registers
 * (a 64-bit operand is a pair, whose state is the more awake of the two halves' states) and the
 * predicate file. The analysis core (greener_analyze) works on any graph of nodes, for tests of the
 * source's worked examples written as they are.
 */
#ifndef GPUSC_KERNELS_GREENER_H
#define GPUSC_KERNELS_GREENER_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

typedef enum { GREENER_OFF = 0, GREENER_SLEEP = 1, GREENER_ON = 2, GREENER_NONE = 3 } greener_state;

#define GREENER_W_DEFAULT 3 /* the source's experiment setting */
#define GREENER_MAX_W     250
#define GREENER_MAX_ACC   40 /* register accesses of one node */

const char *greener_state_name(greener_state s); /* "OFF", "SLEEP", "ON", "-" */

/* ---- the analysis core ---- */
typedef struct {
    uint32_t key;  /* the register */
    uint8_t write; /* written (else read) */
    uint8_t kill;  /* a write that kills (unguarded): liveness */
} greener_acc;

typedef struct {
    uint32_t n_succ, succ[2]; /* successors (node indices) */
    bool exit;                /* an edge to the exit (also: a guarded ret with a successor) */
    uint32_t n_acc;
    greener_acc acc[GREENER_MAX_ACC];
    /* A potentially divergent branch: the node where its lanes reconverge (IR_NONE: at the exit).
     * divergent = false for other nodes. */
    bool divergent;
    uint32_t reconv;
    bool no_off; /* never OFF (a .func's registers) */
} greener_node;

typedef struct {
    uint32_t n, n_keys, W;
    uint8_t *dist_out;  /* n x n_keys: Dist(OUT(S),R) in 1..W, W+1 = inf (0: bottom, read as inf) */
    uint64_t *live_out; /* n x words: isLive(OUT(S),R), warp-safe */
    unsigned words;
} greener_result;

/* Runs the analysis on n nodes with registers 0..n_keys-1 and threshold W (1..GREENER_MAX_W). */
greener_result *greener_analyze(const greener_node *nodes, uint32_t n, uint32_t n_keys, unsigned W);
void greener_result_free(greener_result *r);
bool greener_dist_inf(const greener_result *r, uint32_t node, uint32_t key);
bool greener_live_out(const greener_result *r, uint32_t node, uint32_t key);
/* Power(OUT(node), key): Table 4.1 (no_off: OFF becomes SLEEP). */
greener_state greener_power(const greener_result *r, const greener_node *nodes, uint32_t node, uint32_t key);
/* Table 4.1 itself. */
greener_state greener_table(bool live, bool sleep_off);

/* ---- the pass on allocated IR ---- */
/* Annotate every instruction of f (allocated: ir_reg.phys set) with its encoded states at threshold
 * W. Builds the CFG if needed. */
void greener_pass(ir_func *f, unsigned W);
/* The encoded states of an instruction (GREENER_NONE where there is no such operand); false when the
 * pass did not annotate it. */
bool greener_encoded(const ir_instr *in, greener_state *dst, greener_state *src0, greener_state *src1);
/* Append "  // power ON, SLEEP, OFF" (the encoded states in operand order: destination, then
 * sources; nothing for an instruction without encoded operands or not annotated). */
void greener_print_states(GString *s, const ir_instr *in);

/* What the hardware does with an instruction's 32-bit physical registers (the register banks'
 * ones: no predicates): for each, the state it takes after the instruction read it (GREENER_NONE:
 * not read) and after it wrote it (GREENER_NONE: not written). From the encoding and the defaults
 * (SLEEP for a register not encoded); `all_sleep`: Sleep-Reg's rule, every access leaves SLEEP.
 * Returns the number of registers (at most cap). */
typedef struct {
    uint32_t phys;
    uint8_t after_read, after_write; /* greener_state */
} greener_reg;
unsigned greener_instr_regs(const ir_func *f, const ir_instr *in, bool all_sleep, greener_reg *out,
                            unsigned cap);

G_END_DECLS

#endif
