/* annot.h — annotations: bit fields that passes attach to an instruction (ir_instr.annot, 64 bits)
 * and to each of its operands (ir_operand.annot, 32 bits), for the hardware's decode stage to read.
 *
 * A registry of named fields: each has an owner pass, a name, a level (instruction or operand), a
 * width, and a bit offset allocated at registration (fields of one level never overlap). The printer
 * shows the nonzero fields after an instruction as {pass.field=value, pass.field[src1]=value}.
 *
 * Built-in passes (annot_pass_run):
 *  - lastuse: per source operand, `lastuse.last` (4 bits: bit e = the e-th register the operand reads
 *    — one for a register or a memory base, up to four for a vector — is read for the last time: the
 *    register is dead after the instruction and the instruction does not write it); per instruction,
 *    `lastuse.guard` (the guard predicate is read for the last time). Liveness is per thread: a
 *    mechanism that releases registers per warp must also consider divergence.
 *  - reconv: per instruction, `reconv.div` (a potentially divergent branch: guarded, not .uni) and
 *    `reconv.point` (the instruction is the reconvergence point of some divergent branch).
 *  - divergence: per instruction, `divergence.uniform` (a guarded branch the divergence analysis of
 *    dataflow.h proves uniform); per source operand, `divergence.divergent` (4 bits as for lastuse:
 *    the register may differ between the lanes of a warp).
 */
#ifndef GPUSC_KERNELS_ANNOT_H
#define GPUSC_KERNELS_ANNOT_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

#define ANNOT_INSTR_BITS 64
#define ANNOT_OPERAND_BITS 32

typedef enum { ANNOT_INSTR, ANNOT_OPERAND } annot_level;

typedef struct {
    char *pass;        /* owner pass: "lastuse" */
    char *name;        /* "last" */
    annot_level level;
    unsigned offset;   /* first bit in ir_instr.annot / ir_operand.annot */
    unsigned width;    /* bits */
    char *blurb;       /* one line of meaning */
} annot_field;

/* Register a field (or return the one already registered under pass.name, which must have the same
 * level and width). NULL when the level's bits are exhausted. Thread-safe. */
const annot_field *annot_register(const char *pass, const char *name, annot_level level, unsigned width,
                                  const char *blurb);
const annot_field *annot_find(const char *pass, const char *name); /* NULL if absent */
unsigned annot_count(void);
const annot_field *annot_get(unsigned i);

uint64_t annot_get_instr(const ir_instr *in, const annot_field *fl);
void annot_set_instr(ir_instr *in, const annot_field *fl, uint64_t v);   /* v truncated to the width */
uint32_t annot_get_operand(const ir_operand *o, const annot_field *fl);
void annot_set_operand(ir_operand *o, const annot_field *fl, uint32_t v);
/* Clear every field of `pass` on every instruction and operand of f. */
void annot_clear_pass(ir_func *f, const char *pass);

/* Append " {pass.field=v, ...}" for the nonzero fields (of `pass` only, or all when NULL); nothing
 * when there are none. Operand fields are shown as field[dstK] / field[srcK]. */
void annot_print_instr(GString *s, const ir_instr *in, const char *pass);

/* ---- passes ---- */
void annot_pass_lastuse(ir_func *f);
void annot_pass_reconv(ir_func *f);
void annot_pass_divergence(ir_func *f);
/* Run a built-in annotation pass by name; false if the name is unknown. */
bool annot_pass_run(const char *name, ir_func *f);
/* NULL-terminated list of the built-in annotation pass names. */
const char *const *annot_pass_names(void);

G_END_DECLS

#endif
