/* rfaccess.h — the register access path: a chain of checks between an operand request and its bank.
 *
 * Every register read or write the `regfile` block receives runs through the chain before it is
 * queued at a bank. Each hook sees the request (warp, architectural register, read/write, cycle) and
 * may:
 *  - ALLOW it (the next hook runs);
 *  - DELAY it by n cycles and let it continue (a power-state wake-up: GREENER SLEEP->ON 1 cycle,
 *    OFF->ON 2 cycles, resource-sharing/GREENER spec §10.6; renaming power gating, register-renaming
 *    §10);
 *  - RETRY: refuse it this cycle; the chain stops and the request is retried next cycle (a shared
 *    register whose pair lock is held by the partner warp, resource-sharing §3.5);
 *  - TRANSLATE by rewriting `phys` (register renaming: (warp, arch reg) -> physical register,
 *    register-renaming §3), after which later hooks and the bank map see the physical register.
 * Hooks run in the order they were added. The chain keeps per-hook counts of retries and delays.
 * With no hooks every request is allowed unchanged: the baseline.
 */
#ifndef GPUSC_MODELS_LIB_RFACCESS_H
#define GPUSC_MODELS_LIB_RFACCESS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum { RFACCESS_ALLOW, RFACCESS_DELAY, RFACCESS_RETRY } rfaccess_verdict;

typedef struct {
    unsigned warp; /* dynamic warp id */
    unsigned reg;  /* architectural register (of the instruction's function: every frame numbers its
                      registers from R0) */
    bool write;
    /* The instruction the access belongs to, when the caller knows it (has_instr): its function
     * (the frame whose register `reg` is) and its issue sequence number (issued_t.seq), so a hook
     * can tell two in-flight instructions of a warp that access the same register apart. */
    bool has_instr;
    uint32_t func;
    uint64_t seq;
    uint64_t cycle;
    unsigned phys;  /* the register the bank sees; starts as the caller sets it, hooks may rewrite */
    unsigned delay; /* extra cycles accumulated by DELAY verdicts */
    int refused_by; /* index of the hook that said RETRY, -1 otherwise */
} rfaccess_req;

/* A hook returns its verdict; for DELAY it sets *delay (>= 1). */
typedef rfaccess_verdict (*rfaccess_fn)(void *ctx, rfaccess_req *r, unsigned *delay);

typedef struct rfaccess_chain rfaccess_chain;

rfaccess_chain *rfaccess_chain_new(void);
void rfaccess_chain_free(rfaccess_chain *c);
/* Returns the hook's index. `name` is copied (for statistics: "lock", "rename", "wakeup"). */
unsigned rfaccess_chain_add(rfaccess_chain *c, const char *name, rfaccess_fn fn, void *ctx);
unsigned rfaccess_chain_len(const rfaccess_chain *c);
const char *rfaccess_chain_name(const rfaccess_chain *c, unsigned i);

/* Runs the chain: RETRY as soon as a hook refuses (r->refused_by set), else DELAY if any hook delayed
 * (r->delay = the sum), else ALLOW. */
rfaccess_verdict rfaccess_run(rfaccess_chain *c, rfaccess_req *r);

typedef struct {
    uint64_t calls, retries, delays, delay_cycles;
} rfaccess_stats;
const rfaccess_stats *rfaccess_chain_stats(const rfaccess_chain *c, unsigned i);

G_END_DECLS

#endif
