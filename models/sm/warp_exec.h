/* warp_exec.h — the architectural state of the warps of one SM and the functional execution of
 * one warp instruction on it (pure C; owned by the `issue` block).
 *
 * Execution point: as in GPGPU-Sim (which executes an instruction functionally when the scheduler
 * issues it), an instruction changes the architectural state — registers, the SIMT stack, shared,
 * local and global memory — at issue; the blocks after issue (exec, ldst, mem_fixed) time it with
 * the data it produced (per-lane addresses, registers read and written). Per warp, instructions
 * issue in order and the scoreboard keeps a dependent instruction from issuing before its producer
 * has written back in the timing model, so every warp sees exactly the values the functional runner
 * computes: the instructions execute on the functional runner's own warp-step engine
 * (kernels/run/warp_step.h, ws_step), with the SM's parameters (ws_ops): global atomics are left to the
 * memory side (ws_info.atom_defer), global stores are written by the L1 when it performs them
 * (ws_info.store_defer: ldst), and global/local/const loads read the image when their data returns
 * (ws_info.load_defer, wexec_complete_load, called by issue at the load's release). Across warps,
 * memory is read and written in issue order, which is one legal interleaving; kernels whose result
 * depends on the interleaving (none of the workloads) may differ from frun's CTA-serial order.
 *
 * Register slots: a warp's registers are the per-thread slots of kload (function reg_base + virtual
 * register), 32 lanes of 64 bits each; the register numbers carried in payloads are these slots.
 *
 * Register values pass through a hook chain (models/lib/regval.h; docs/sm.md "Where data is read and
 * written": a mechanism that frees a register too early or puts a live register OFF must produce a
 * wrong kernel output). With hooks added (wexec_add_value_hook), every read and write of a register
 * by an executed instruction runs them: the reads before the instruction executes, one call per
 * distinct register of decode's list (wexec_instr_regs: guard, sources, address bases, vector
 * elements, a store's data), the writes after it, with the lanes written: an ALU instruction's
 * destinations, the lanes of a load or atomic performed at issue, and later, when the data returns,
 * the other lanes of a load (wexec_complete_load) and the values issue writes (wexec_write_slot:
 * an atomic's old values, bar.red's result). A CTA's start (registers zeroed) and end (poisoned)
 * run them once per warp. Without hooks, all this costs one test of a flag per instruction (and
 * one per returning load, issue write, CTA start and end).
 */
#ifndef GPUSC_MODELS_SM_WARP_EXEC_H
#define GPUSC_MODELS_SM_WARP_EXEC_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/run/simt.h"
#include "kernels/run/warp_step.h"
#include "models/lib/regval.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

/* What a freed register holds: every 32-bit half of every lane is 0xDEADBEEF (a register kept in a
 * narrow row, 32 bits wide or less, reads 0xDEADBEEF: kload.h, "Registers"). Registers are zeroed
 * when a CTA is placed on the warp slots and poisoned when it ends, so a mechanism that reads a
 * register after its CTA freed it (or a register of slots no CTA owns) reads this garbage, and the
 * kernel's output check catches it. */
#define WX_POISON REGVAL_POISON

typedef struct wexec wexec;

wexec *wexec_new(sm_env *env, unsigned sm_id, unsigned max_warps, unsigned max_ctas);
void wexec_free(wexec *x);

/* A CTA starts in slot c->slot with warps c->first_warp..: registers, local and call-parameter
 * memory and the shared segment are zeroed, the SIMT stacks start at the kernel's pc 0. `cycle`
 * (here and below): the SM cycle, for the value hooks. */
void wexec_cta_start(wexec *x, const cta_launch_t *c, uint64_t cycle);
/* The CTA in `slot` has ended (every warp finished, nothing in flight): its warps' registers are
 * freed, which overwrites them with WX_POISON. */
void wexec_cta_end(wexec *x, unsigned slot, uint64_t cycle);

/* The warp's next instruction (the SIMT top): false when the warp has finished. */
bool wexec_warp_next(const wexec *x, unsigned warp, uint32_t *func, uint32_t *pc);
bool wexec_warp_live(const wexec *x, unsigned warp);
/* The lanes of the warp's next instruction that will access the scratchpad (a shared-space or generic
 * ld/st/atom/red; active and guard true), each lane's byte offset in its CTA's segment in off[]: the
 * address the instruction would use if it issued now. No side effect (the scratchpad sharing check
 * asks it before issue). 0: none. */
uint32_t wexec_head_shared(const wexec *x, unsigned warp, uint64_t off[IR_WARP_SIZE]);
unsigned wexec_warp_cta(const wexec *x, unsigned warp);          /* CTA slot */
unsigned wexec_warp_in_cta(const wexec *x, unsigned warp);       /* index within the CTA */
const uint32_t *wexec_warp_ctaid(const wexec *x, unsigned warp); /* its CTA's %ctaid (x, y, z) */
uint32_t wexec_warp_active_lanes(const wexec *x, unsigned warp); /* the SIMT top's mask */

/* Execute the warp's next instruction. `clock` is what %clock reads (the SM cycle). Returns 0, or
 * nonzero with a message in env->error (env->failed set) on a kernel fault. */
int wexec_step(wexec *x, unsigned warp, uint64_t clock, uint64_t seq, ws_info *out);
/* The data of load `seq` (the issue sequence number given to wexec_step) has returned: its lanes in
 * global/local/const memory read the image now and write their registers (value hooks: a write per
 * destination register). False if that load has no such lanes (nothing was left for now). */
bool wexec_complete_load(wexec *x, unsigned warp, uint64_t seq, uint64_t cycle);

/* Write `vals` of the lanes in `mask` (masked by vmask) into register slot `slot` of a warp: the old
 * values of an atomic performed at the memory side, bar.red's result (value hooks: a write). */
void wexec_write_slot(wexec *x, unsigned warp, unsigned slot, uint32_t mask, const uint64_t *vals,
                      uint64_t vmask, uint64_t cycle);
/* The value of register slot `slot` in `lane` of a warp's register file (whether or not a CTA owns
 * the warp slot: a freed register reads WX_POISON, cut to 32 bits in a narrow row). An inspection, not an access: no value hook runs. */
uint64_t wexec_read_slot(const wexec *x, unsigned warp, unsigned slot, unsigned lane);
/* Name the first lines of register slot `slot` of a warp as read early by the calling process's next
 * activation (gsc_prefetch_next): issue's guess at the registers it will read next. */
void wexec_prefetch_slot(const wexec *x, unsigned warp, unsigned slot);

/* Add a hook to the register value path (see above and regval.h); returns its index. Add hooks
 * before the run. */
unsigned wexec_add_value_hook(wexec *x, const char *name, regval_fn fn, void *ctx);
/* The chain, for its per-hook counts (regval_chain_stats). */
const regval_chain *wexec_value_hooks(const wexec *x);

/* Registers an instruction of function `func` reads and writes (per-thread slots), as decode sees
 * them: guard, sources, address base, vector elements. Counts are capped at SM_MAX_OPERANDS and
 * IR_MAX_DST + 2. */
void wexec_instr_regs(const kload_module *k, uint32_t func, const ir_instr *in, uint16_t *src,
                      uint16_t *n_src, uint16_t *dst, uint16_t *n_dst);

/* The 32-bit physical registers (ir_reg.phys after regalloc) an instruction reads and writes, as the
 * register banks see them: a 64-bit register is its pair phys, phys+1; predicates take no bank access.
 * A register without an allocation (phys = IR_NONE: regalloc did not run) counts as its slot. */
void wexec_instr_bank_regs(const ir_module *m, const kload_module *k, uint32_t func, const ir_instr *in,
                           uint16_t *src, uint8_t *n_src, uint16_t *dst, uint8_t *n_dst);

/* "warp 3 (cta slot 0 warp 1): pc 12 `add.s32 ...`" plus its SIMT stack, for watchdog dumps. */
void wexec_dump_warp(const wexec *x, unsigned warp, GString *out);

G_END_DECLS

#endif /* GPUSC_MODELS_SM_WARP_EXEC_H */
