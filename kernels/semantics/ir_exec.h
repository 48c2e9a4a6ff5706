/* ir_exec.h — functional semantics of single instructions, exactly as the PTX ISA defines them.
 *
 * Given an instruction, per-lane source values and an active mask, compute the per-lane results:
 * integer wrap-around, shift counts >= width, division by zero, signed overflow cases, NaN/inf,
 * rounding modes, .ftz, .sat, denormals. Used by the functional runner and by the timing model's
 * execution units alike, so both compute the same bits.
 *
 * Values are raw bits in uint64_t as described in ir.h (predicates 0/1, f32 in the low 32 bits).
 * Source values are what the operands hold: a register's value, an immediate's bits, a special
 * register's value — the caller fetches them; the callee interprets them by the instruction's
 * type(s). Lanes outside `active` are neither read nor written.
 */
#ifndef GPUSC_KERNELS_IR_EXEC_H
#define GPUSC_KERNELS_IR_EXEC_H

#include "kernels/frontend/ir.h"

#include <string.h>

G_BEGIN_DECLS

typedef struct {
    uint64_t v[IR_WARP_SIZE];
} ir_lanes;

typedef struct {
    const ir_instr *in;
    uint32_t active;              /* lanes to compute */
    ir_lanes src[IR_MAX_SRC];     /* in: values of in->src[0..n_src-1] */
    ir_lanes dst[IR_MAX_DST];     /* out: values for in->dst[0..n_dst-1] */
    uint32_t cc_in;               /* carry flag per lane (bit i = lane i), read by addc/subc/madc */
    uint32_t cc_out;              /* carry flag written by .cc forms */
    uint32_t dst_written;         /* out: bit j set when dst[j] was written (setp with one dst, ...) */
} ir_exec_ctx;

typedef enum {
    IR_EXEC_OK = 0,
    IR_EXEC_NOT_ALU,      /* memory, control, barrier instruction: the caller executes it */
    IR_EXEC_UNSUPPORTED   /* a combination of type/modifiers that is not implemented */
} ir_exec_status;

/* Execute an ALU/SFU/INT/DP/WARP-class instruction (everything except ld/st/atom/red/bra/call/
 * ret/exit/bar/membar/fence/prefetch). shfl/vote/activemask read all lanes of src and write dst of
 * the active lanes. */
ir_exec_status ir_exec(ir_exec_ctx *x);

/* Atomics: the value an atom/red stores, given the old memory value and operands b (and c for
 * cas), for the instruction's type. The value returned to the register is `old`. */
uint64_t ir_exec_atom(const ir_instr *in, uint64_t old, uint64_t b, uint64_t c);

/* Memory: the register value of a loaded element of type t from bytes (sign/zero extension per
 * the ld type rules), and the bytes to store from a register value. */
uint64_t ir_exec_load_value(ir_type t, const void *bytes);
void ir_exec_store_value(ir_type t, uint64_t value, void *bytes);

/* The same two, inline for the runners' per-lane loops: where the value is the bytes as they are
 * (4- and 8-byte types, but s32 for a load, which is sign-extended) the switch copies them without
 * the call; the other types take it. */
static inline uint64_t ir_exec_load_elem(ir_type t, const void *bytes)
{
    switch (t) {
    case IR_T_U32:
    case IR_T_B32:
    case IR_T_F32: {
        uint32_t v;
        memcpy(&v, bytes, 4);
        return v;
    }
    case IR_T_U64:
    case IR_T_B64:
    case IR_T_S64:
    case IR_T_F64: {
        uint64_t v;
        memcpy(&v, bytes, 8);
        return v;
    }
    default:
        return ir_exec_load_value(t, bytes);
    }
}

static inline void ir_exec_store_elem(ir_type t, uint64_t value, void *bytes)
{
    switch (t) {
    case IR_T_U32:
    case IR_T_S32:
    case IR_T_B32:
    case IR_T_F32: {
        uint32_t v = (uint32_t)value;
        memcpy(bytes, &v, 4);
        return;
    }
    case IR_T_U64:
    case IR_T_B64:
    case IR_T_S64:
    case IR_T_F64:
        memcpy(bytes, &value, 8);
        return;
    default:
        ir_exec_store_value(t, value, bytes);
    }
}

/* Evaluate a comparison (setp/set/slct) on two values of type t. */
bool ir_exec_compare(ir_cmp cmp, ir_type t, uint64_t a, uint64_t b, bool ftz);

/* ---- conventions of this implementation (docs/semantics.md)
 *
 *  - Predicate negation: the caller passes the RAW value of a predicate source register (0/1);
 *    ir_exec applies the operand's `neg` (`!%p`) itself for predicate-typed sources: setp/set's c,
 *    selp's c, and/or/xor/not/mov on .pred, vote's a. (The guard predicate is the caller's.)
 *  - Results: integer and bXX results are zero-extended in their type's width (add.s16 -1 ->
 *    0xffff; mul.wide.s32 -> 64 bits); predicates 0/1; f32 in the low 32 bits. Sources are read in
 *    the instruction's type width (high bits beyond it are ignored).
 *  - Operand order follows the PTX text: src[0] = a, src[1] = b, ... e.g. setp: a, b[, c];
 *    selp: a, b, c; mad/fma: a, b, c; bfe: a, pos, len; bfi: a, b, pos, len; prmt: a, b, c;
 *    shf: a, b, c; shfl: a, b, c[, membermask] with dst[0] = d and dst[1] = p when n_dst == 2;
 *    vote: a[, membermask]; setp with n_dst == 2 writes dst[1] = q (dst_written bit 1).
 *  - shfl reads src[0] of the source lane even when that lane is not in `active` (PTX: undefined
 *    value): pass all 32 lanes' register values. Every other instruction reads active lanes only.
 *  - The host FPU rounding mode is changed only inside a call (for .rz/.rm/.rp) and restored.
 *  - dst_written: ir_exec ORs bits into it; clear it before the call.
 *  - Carry (add.cc/sub.cc/mad.cc/addc/subc/madc): cc_out keeps its bits outside `active`. sub.cc
 *    and subc use the PTX borrow convention: CF = borrow, subc: d = a - (b + CF).
 *  - Types: cvt: type = destination, type2 = source. set: type = comparison type, type2 = dst
 *    type. slct: type = dst type, type2 = c's type (s32 or f32).
 *  - Load values: ir_exec_load_value sign-extends signed types to 64 bits (ld.s8 into a .b32
 *    register: keep the low 32 bits); unsigned, bXX and float types are zero-extended.
 *  - Vector operands ({%r1, %r2} in mov.b64 %rd1, {%r1, %r2}; and the unpacking form): the value
 *    of a VEC operand is its elements concatenated, element 0 in the low bits. Use the helpers
 *    below; mov then copies the packed value. */

/* Pack n elements of elem_bits each (element 0 lowest) / unpack into elems[0..n-1]. */
uint64_t ir_exec_vec_pack(const uint64_t *elems, unsigned n, unsigned elem_bits);
void ir_exec_vec_unpack(uint64_t v, unsigned n, unsigned elem_bits, uint64_t *elems);

/* IEEE half precision: exact widening, and rounding to f16 per rnd (.rn/.rz/.rm/.rp). */
double ir_exec_f16_to_f64(uint16_t h);
uint16_t ir_exec_f16_from_f64(double d, ir_round rnd);

G_END_DECLS

#endif
