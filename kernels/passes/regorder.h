/* regorder.h — the `regorder` pass of register sharing (resource-sharing/GREENER spec §1.3, §7):
 * renumber a function's virtual registers in the order of their first use.
 *
 * Under register sharing a register is private when its sequence number (its place in declaration
 * order, the register slot the SM uses) is at most t x registers per thread (§3.5). A kernel whose
 * first instructions touch late-declared registers makes its non-owner warps wait at once; after
 * this pass the registers used first are the low-numbered, private ones. The front end already
 * expands a vector declaration `.reg .b32 %r<27>` into 27 registers (step 1 of §7). Step 2 scans the
 * instructions in textual order: in each, the guard, then the destinations, then the sources, as
 * written (an address's base register, a vector's elements in order). Step 3 gives the used
 * registers numbers 0, 1, ... in that order and the unused ones the numbers after, in their old
 * order. Every operand is renumbered; the program's meaning is unchanged.
 *
 * Run it after parsing and before any analysis, allocation or loading (they cache register
 * numbers). docs/sharing.md. */
#ifndef GPUSC_KERNELS_REGORDER_H
#define GPUSC_KERNELS_REGORDER_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

/* Renumbers f's registers by first use. If map is not NULL it receives, for every old register
 * number r (f->regs->len of them), its new number map[r]. Returns how many registers moved. */
uint32_t regorder_func(ir_func *f, uint32_t *map);
/* regorder_func on every function of m with a body; returns the registers moved. */
uint32_t regorder_module(ir_module *m);

G_END_DECLS

#endif
