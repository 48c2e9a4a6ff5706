/* renaming.h — the compiler side of register renaming (docs/renaming.md): the lifetime / release
 * pass, the packing of the release flags into pir and pbr flag instructions with the code re-laid
 * out around them, and the exemption ranking against the renaming table's budget (Eq. 1).
 *
 * Architectural registers are the 32-bit registers after register allocation (ir_reg.phys; a
 * 64-bit value is its pair phys, phys + 1); a function that was not allocated uses its virtual
 * register numbers (each register as many 32-bit units as its type). Predicates live in their own
 * file and are not renamed. At most REN_MAX_ARCH architectural registers (Fermi's 6-bit IDs).
 *
 * Release rules (liveness-based, the divergence and loop rules):
 *  - a source operand's pir bit is set when every register it reads is dead after the instruction
 *    (not live after it, not written by it) and releasing it at the warp level is safe: for every
 *    potentially divergent branch whose influence region holds the instruction, the register is
 *    live neither at the branch's successors (lanes waiting to run the other path, or the next
 *    iteration of a loop) nor at its reconvergence point (lanes that left the region early);
 *  - a dead register that is not safe there goes into a pbr at the reconvergence point (immediate
 *    post-dominator) of the outermost such branch, where the whole warp runs again; so does a
 *    register that dies on an edge without a last read (a value used inside a loop and not after
 *    it is released at the loop's exit);
 *  - a loop-carried register is live around the back edge, hence never dead inside the loop.
 * Only source operands 0-2 have a pir bit (3 bits per instruction); a register of a later operand
 * is released at warp exit.
 */
#ifndef GPUSC_KERNELS_RENAMING_H
#define GPUSC_KERNELS_RENAMING_H

#include "kernels/frontend/ir.h"

#include <stdio.h>

G_BEGIN_DECLS

#define REN_MAX_ARCH    64     /* architectural registers the masks hold (Fermi uses 63) */
#define REN_PIR_SLOTS   18     /* instructions a pir covers */
#define REN_PBR_SLOTS   9      /* register IDs per pbr */
#define REN_PBR_UNUSED  63     /* the unused pbr slot marker */
#define REN_INSTR_BYTES 8      /* every instruction, flag instructions included, is 64 bits */
#define REN_OPCODE_PIR  0x155u /* 10-bit opcodes [A]: the model's choice, split 4 (LSB) + 6 (MSB) */
#define REN_OPCODE_PBR  0x156u

typedef enum { REN_SLOT_INSTR, REN_SLOT_PIR, REN_SLOT_PBR } ren_slot_kind;

/* One 64-bit word of the laid-out code. */
typedef struct {
    uint8_t kind;   /* ren_slot_kind */
    uint32_t instr; /* REN_SLOT_INSTR: the instruction; flag instructions: the one they precede */
    uint32_t pc;    /* byte address in the laid-out code */
    uint64_t word;  /* flag instructions: the encoding; REN_SLOT_INSTR: the branch target's new pc
                       for a bra, else 0 */
} ren_slot;

typedef struct {
    uint32_t warps;       /* resident warps per SM (Eq. 1's #warps) */
    uint32_t budget_bits; /* renaming table budget (8192 = 1 KB) ; 0: no exemption */
    uint32_t id_bits;     /* log2(physical registers): 10 */
    bool le;              /* budget comparison "<=" instead of the default strict "<" */
} ren_opts;

typedef struct {
    uint32_t n_instrs;
    uint32_t n_arch;    /* Eq. 1's #regs: architectural registers of the function */
    uint64_t *use;      /* per instruction: registers read (guard excluded) */
    uint64_t *def;      /* per instruction: registers written */
    uint64_t *live_out; /* per instruction: registers live after it */
    uint8_t *pir;       /* per instruction: 3 release bits, bit j = source operand j */
    uint64_t *rel;      /* per instruction: the registers the pir bits release after the read */
    uint64_t *pbr;      /* per instruction: registers released before it (reconvergence heads) */
    uint64_t exempt;    /* exempt registers (never renamed) */
    uint32_t n_exempt;
    uint16_t exempt_rank[REN_MAX_ARCH];  /* e of an exempt register (its index among the exempt) */
    uint32_t lifetime[REN_MAX_ARCH];     /* longest value lifetime (instructions), 0: never written */
    uint32_t writes[REN_MAX_ARCH];       /* static writes */
    uint32_t exempt_order[REN_MAX_ARCH]; /* registers in exemption order (n_exempt first ones exempt) */
    uint64_t eq1_bits;                   /* Eq. 1 with every register renamed */
    uint64_t eq1_bits_after;             /* after exemption */
    /* layout */
    GArray *layout;    /* ren_slot in address order */
    uint32_t *pc;      /* per instruction: its byte address in the laid-out code */
    uint32_t *pir_pc;  /* per instruction: the address of the pir covering it */
    uint8_t *pir_slot; /* per instruction: its slot in that pir (0..17) */
    uint32_t n_pir, n_pbr;
} ren_info;

/* Eq. 1: warps x regs x id_bits. */
static inline uint64_t ren_eq1_bits(uint32_t warps, uint32_t regs, uint32_t id_bits)
{
    return (uint64_t)warps * regs * id_bits;
}
/* Registers that stay renamed under the budget: the largest R with warps x R x id_bits < budget
 * (<= with le). */
uint32_t ren_renamed_fit(uint32_t warps, uint32_t id_bits, uint32_t budget_bits, bool le);

/* The architectural registers (mask) of register `reg` of f; 0 for a predicate. */
uint64_t ren_reg_mask(const ir_func *f, uint32_t reg);

/* Run the passes on f (builds the CFG if needed). NULL with *err set when f uses more than
 * REN_MAX_ARCH architectural registers. */
ren_info *ren_analyze(ir_func *f, const ren_opts *o, GError **err);
void ren_info_free(ren_info *r);

/* Encodings (64 bits): opcode 4 bits at the LSB end and 6 at the MSB end, the 54-bit payload in
 * bits 4..57. pir: slot i = payload bits [3i+2:3i], operand j = bit 3i+j. pbr: 9 six-bit IDs, slot
 * i = payload bits [6i+5:6i], REN_PBR_UNUSED when unused. */
uint64_t ren_encode(uint32_t opcode, uint64_t payload);
uint32_t ren_opcode(uint64_t word);
uint64_t ren_payload(uint64_t word);

/* Ranking (exposed for the tests): orders `n` registers by lifetime (longest first), ties by
 * writes (more first), then by register number; writes the order into `order`. */
void ren_rank(const uint32_t *reg, uint32_t n, const uint32_t *lifetime, const uint32_t *writes,
              uint32_t *order);

/* Marks in called[] (m->funcs->len entries) every function `func` calls, directly or not (FUNC
 * operands of its call instructions). */
void ren_callees(const ir_module *m, uint32_t func, bool *called);

/* The frames of a launch: the entry and every function it calls, directly or not (a warp has one
 * frame per function; functions do not recurse). The renaming table holds at once the frames of one
 * call chain, so Eq. 1's #regs is the most registers a chain from the entry holds (`table_regs`: the
 * sum of its functions' registers, the heaviest chain of the call graph). Exemption (§8) runs over
 * every frame: the registers of all of them ranked together (lifetime, then writes, then the entry
 * before its callees, then register number); the highest-ranked register of a function on a
 * heaviest chain is exempt, Eq. 1 recomputed, until it fits the budget. Exempt indices e run over
 * every exempt register (the entry's first, then each function's in function order, in register
 * order), so a warp reserves E = n_exempt physical registers. */
typedef struct {
    uint32_t n_funcs, entry;
    ren_info **info;           /* per function: the passes' result; NULL when the entry does not reach it */
    uint32_t table_regs;       /* Eq. 1's #regs: the heaviest chain of frames */
    uint32_t table_regs_after; /* the same without the exempt registers */
    uint64_t eq1_bits, eq1_bits_after;
    uint32_t n_exempt; /* E: exempt registers over every frame */
    GArray *chain;     /* uint32_t: the functions of a heaviest chain, the entry first */
} ren_frames;

/* Runs the passes on `entry` and the functions it calls, with Eq. 1 and the exemption over the
 * frames. NULL with *err set when a function cannot be analysed. */
ren_frames *ren_analyze_frames(ir_module *m, uint32_t entry, const ren_opts *o, GError **err);
void ren_frames_free(ren_frames *fr);

/* "pir 0x..: [i] 001 ..." lines, the pbrs, the exempt registers and, for an entry (`fr` its frames),
 * the Eq. 1 figures over its frames; a called function (fr NULL) prints its frame's size. */
void ren_print(GString *out, const ir_module *m, ir_func *f, const ren_info *r, const ren_opts *o,
               const ren_frames *fr);

/* ren_print for every defined entry of m (only `entry` if not NULL) to `out`, each followed by every
 * function it calls (ren_analyze_frames). False with *err set when a function
 * cannot be analysed. */
bool ren_report_module(FILE *out, ir_module *m, const char *entry, const ren_opts *o, GError **err);

G_END_DECLS

#endif
