/* spu_isa.h — the Stencil Processing Unit's PTX extensions (docs/spu.md "Instructions"): the
 * inter-SM barrier `bar.blocksync` (global, or producer-consumer with a direction), the
 * communication-buffer loads and stores, and the SPU special registers.
 *
 * Syntax [A: the source gives no encodings; SPU spec §0.2, §5, §8]:
 *   bar.blocksync;                  global: every active CTA and interface unit of the grid
 *   bar.blocksync.north;            producer-consumer with the neighbour on that side (.west,
 *                                   .south, .east)
 *   ld.cb.west.f32  %f1, [%r1];     a load from the SM's west-in (or north-in) buffer, byte
 *   st.cb.east.f32  [%r1], %f1;     address within the buffer; stores go to east-out / south-out
 *   mov.u32 %r1, %regpassx;         the SPU special registers (spu_isa_sreg_name)
 *
 * In the IR a CB access is an ld/st of state space shared (it is timed as a shared-memory access,
 * the spec's default [A]) with `cb` = SPU_CB | direction; bar.blocksync is IR_OP_BLOCKSYNC with the
 * direction in `sub` (0: global).
 */
#ifndef GPUSC_KERNELS_SPU_ISA_H
#define GPUSC_KERNELS_SPU_ISA_H

#include <glib.h>

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

typedef enum { SPU_DIR_NONE = 0, SPU_DIR_NORTH, SPU_DIR_WEST, SPU_DIR_SOUTH, SPU_DIR_EAST } spu_dir;
#define SPU_CB 0x10u /* ir_instr.cb: a CB access; the low bits are its spu_dir */

const char *spu_dir_name(unsigned d); /* "north" ... ("" for none) */

/* Parser hook: applies modifier `mod` of an instruction if it is one of the SPU's (blocksync, its
 * direction, .cb and the CB's direction). */
bool spu_isa_mod(ir_instr *in, const char *mod);
/* After the modifiers: NULL if the SPU parts of `in` are complete, else what is wrong. */
const char *spu_isa_check(const ir_instr *in);
/* The CB space as printed ("cb.west"), or NULL when `in` is no CB access. */
const char *spu_isa_space_name(const ir_instr *in);

bool spu_isa_is_sreg(unsigned sreg);
/* Does the instruction use the SPU (blocksync, a CB access, an SPU special register)? What it is,
 * for messages ("bar.blocksync", "ld.cb", "%regpassx"), or NULL. */
const char *spu_isa_use(const ir_instr *in);
/* The first instruction of the module that uses the SPU, or NULL; *what as spu_isa_use. */
const ir_instr *spu_isa_first_use(const ir_module *m, const char **what);

G_END_DECLS

#endif
