/* regval.h — the register value path: a chain of hooks that see, and may change, the values of a
 * warp's registers as the executed instructions read and write them.
 *
 * Why (docs/sm.md, "Where data is read and written"): the model carries real values, so a mechanism that
 * frees a register too early, puts a live register OFF or lets two thread blocks share registers
 * without their lock must produce a wrong kernel output, which the testbench's CPU-reference check
 * catches; "a register turned OFF loses its value (it is overwritten with a poison pattern)". The
 * register access path of the timing model (rfaccess.h) only decides when a bank is accessed; this
 * chain is where a mechanism acts on the data: GREENER's OFF state poisons a register before it is
 * read (resource-sharing/GREENER spec §10), register renaming and its power gating lose the value
 * of a released register (register-renaming spec §5, §10), a lock check for shared registers records
 * or validates who touches them (resource-sharing §3.5).
 *
 * The owner of the register storage (models/sm/warp_exec.c) calls regval_run for:
 *  - REGVAL_READ: before an instruction reads a register (each distinct register it reads, once);
 *    `v` is the register's storage, so a hook that overwrites lanes changes what the instruction
 *    reads and what the register holds from then on;
 *  - REGVAL_WRITE: after values were written into a register (`lanes`: the lanes written); a hook sees
 *    the new values and may overwrite them;
 *  - REGVAL_ALLOC: a thread block was placed on the warp: every register of the warp is zeroed;
 *  - REGVAL_FREE: the warp's thread block ended: every register holds REGVAL_POISON.
 * Hooks run in the order they were added; each sees what the previous ones left. The chain counts
 * the calls of each hook by kind. With no hook the owner skips the chain entirely: the baseline.
 *
 * Time: the SM executes an instruction functionally when it issues it (docs/sm.md "Where data is
 * read and written"), so its reads, and its writes of values known then, happen at the issue cycle;
 * the register bank accesses the timing model makes for them come a few cycles later (rfaccess.h),
 * and the writes of loads and atomics come when their data returns. A mechanism that times its
 * decisions at the banks relates the two through the instruction it sees here.
 */
#ifndef GPUSC_MODELS_LIB_REGVAL_H
#define GPUSC_MODELS_LIB_REGVAL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

/* What a lost register value reads as: every 32-bit half of every lane is 0xDEADBEEF. */
#define REGVAL_POISON UINT64_C(0xDEADBEEFDEADBEEF)
#define REGVAL_LANES  32         /* lanes of a warp register (IR_WARP_SIZE) */
#define REGVAL_NONE   UINT32_MAX /* no slot (ALLOC, FREE) / no instruction */

typedef enum { REGVAL_READ, REGVAL_WRITE, REGVAL_ALLOC, REGVAL_FREE, REGVAL_N_KINDS } regval_kind;

typedef struct {
    regval_kind kind;
    unsigned warp; /* the SM's warp slot */
    uint32_t slot; /* the register: a per-thread register slot (the number payloads carry);
                      REGVAL_NONE for ALLOC and FREE, which concern every register of the warp */
    /* The instruction (function index, pc) of an access at issue. REGVAL_NONE for ALLOC, FREE and a
     * write when data returns: a load's data, an atomic's old values, bar.red's result. */
    uint32_t func, pc;
    uint32_t lanes; /* READ: the lanes whose values the instruction uses (the guard: the SIMT mask;
                       the others: the lanes whose guard holds, 0 for a guarded-off instruction, whose
                       operands are still read; shfl reads its source in other lanes too); WRITE:
                       the lanes written; ALLOC: the warp's threads; FREE: every lane */
    uint64_t cycle; /* the SM cycle */
    uint64_t *v;    /* the register's REGVAL_LANES lanes (writable); NULL for ALLOC and FREE */
    /* Out, READ and WRITE: a hook that needs no more READ or WRITE of this warp until its next ALLOC
     * sets it (renaming switched off, once the warp has accessed every register); when every hook
     * of the chain set it, the owner may skip the warp's accesses until then (ALLOC, FREE still
     * come). */
    bool quiet;
} regval_access;

typedef void (*regval_fn)(void *ctx, regval_access *a);

typedef struct regval_chain regval_chain;

regval_chain *regval_chain_new(void);
void regval_chain_free(regval_chain *c);
/* Returns the hook's index. `name` is copied ("greener", "rename", "lock"). */
unsigned regval_chain_add(regval_chain *c, const char *name, regval_fn fn, void *ctx);
unsigned regval_chain_len(const regval_chain *c);
const char *regval_chain_name(const regval_chain *c, unsigned i);

/* Runs every hook on `a`, in order. */
void regval_run(regval_chain *c, regval_access *a);

typedef struct {
    uint64_t calls[REGVAL_N_KINDS]; /* by regval_kind */
} regval_stats;
const regval_stats *regval_chain_stats(const regval_chain *c, unsigned i);

/* Overwrite the lanes `lanes` of a register with REGVAL_POISON (a register turned OFF). */
void regval_poison(uint64_t *v, uint32_t lanes);

G_END_DECLS

#endif
