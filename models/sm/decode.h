/* decode.h — the `decode` block: turns an instruction of the loaded kernel (function, PC) into what
 * the SM's later stages need: its class and opcode, whether it is a control instruction (fetch stops
 * behind it), its register slots (sources, destinations: the scoreboard's namespace), the physical
 * registers its bank accesses touch (the register banks' namespace, docs/sm.md "register
 * namespaces") and the compiler passes' annotation bits. Spec: docs/baseline-design.md §2.2 decode.
 *
 * A passive block with one client, fetch, which asks for each instruction it sends to the I-buffer
 * through the exported `decode` interface, in the cycle it fetches it (fetch and decode are one
 * pipeline stage, as GPGPU-Sim's). Decoding depends only on the instruction and the loaded kernel,
 * so each instruction is decoded once per launch and kept, in lines the decode blocks of a machine
 * share (sm_env.dec_lines: one copy in the host's caches, not one per SM); each block still counts
 * the instructions it decoded first itself. Traced: each call (function, PC, opcode).
 */
#ifndef GPUSC_MODELS_SM_DECODE_H
#define GPUSC_MODELS_SM_DECODE_H

#include "models/core/block.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

typedef struct {
    /* Instruction pc of function func (past the end: the implicit ret). warp and epoch are 0, pc is
     * the instruction's (the caller sets all three for the warp). Valid until the next call. */
    const decoded_t *(*decode)(void *self, uint32_t func, uint32_t pc);
} decode_if;
extern const blk_iface decode_iface;

enum { DECODE_DEC };
enum { DECODE_STAT_DECODED, DECODE_STAT_FIRST };

/* A launch's decoded instructions (decode.c), shared by the decode blocks of one sm_env. */
typedef struct decode_lines decode_lines;

typedef struct {
    blk_inst *inst;
    sm_env *env;
    decode_lines *lines; /* the shared decoded instructions */
    uint8_t **seen;      /* per function and PC: this block has decoded it in this launch */
    unsigned funcs;      /* functions `seen` has room for */
    uint32_t kernel_no;  /* the launch `seen` belongs to */
    blk_call_probe *probe;
} decode;

extern const blk_desc decode_desc;
decode *decode_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env);
void decode_free(decode *d);

G_END_DECLS

#endif
