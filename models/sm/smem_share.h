/* smem_share.h — the `smem_share` block of an SM: scratchpad sharing between paired thread blocks
 * (resource-sharing/GREENER spec §1.1, §3.6, §3.8, §8.1). The pairing, ShTB, Owner and the
 * scratchpad pair lock (one per CTA pair) are the lock table's (lock_table.h); this block is the
 * scratchpad beside ldst that
 *  - classifies each access of a paired CTA by its CTA-relative byte offset: private when
 *    offset < t x R_tb (R_tb: the CTA's scratchpad as occupancy charges it), else shared;
 *  - checks the lock at the access, with the run-time addresses (§3.8 option (i)): a warp whose next
 *    instruction reaches the shared region while the partner CTA holds the lock is not ready (it
 *    stalls and is asked again every cycle); a free lock is taken when the instruction issues;
 *  - keeps the per-thread A_i (active: the thread exists, padded lanes do not) and R_i (executed
 *    `relssp`) bits: when every active thread of a CTA has executed `relssp`, the CTA's lock is
 *    released (no effect if it does not hold it; R_i are cleared); otherwise at CTA exit.
 * A passive block bound to the issue block:
 *   check   (issue.check)       the lock check before issue (addresses from wexec_head_shared);
 *   issued  (issue.issued)      acquisition (the lanes' resolved offsets), relssp's R_i bits;
 *   events  (issue.warp_events) CTA start (A_i, R_i cleared), CTA end;
 *   value   (issue.value)       a value the lock should have blocked is poisoned: a load's lanes that
 *                               read the shared region while the partner held the lock, or a store's
 *                               data, get REGVAL_POISON (`violations`), so the output check fails.
 * Parameter `enforce` (true; false breaks the check on purpose, for tests). Statistics: accesses
 * (instructions reaching the shared region), acquires, waits, relssp (instructions), releases (by
 * relssp), violations, held (cycles from each acquisition to its release, summed: held / acquires is
 * the mean time a CTA keeps its pair's shared region), exit_releases (locks a CTA still held when it
 * ended). Traced: `locked` (CTA slots holding their pair's lock), `released` (CTA slots
 * that released by relssp), `waiting` / `waiting_hi` (warps 0..63 / 64..127 refused at their last
 * check). docs/sharing.md. */
#ifndef GPUSC_MODELS_SM_SMEM_SHARE_H
#define GPUSC_MODELS_SM_SMEM_SHARE_H

#include "models/core/block.h"
#include "models/lib/sharing.h"
#include "models/sm/lock_table.h"
#include "models/sm/sm_env.h"
#include "models/sm/warp_exec.h"

G_BEGIN_DECLS

enum { SMEM_SHARE_CHECK, SMEM_SHARE_ISSUED, SMEM_SHARE_EVENTS, SMEM_SHARE_VALUE };
enum {
    SMEM_SHARE_STAT_ACCESSES,
    SMEM_SHARE_STAT_ACQUIRES,
    SMEM_SHARE_STAT_WAITS,
    SMEM_SHARE_STAT_RELSSP,
    SMEM_SHARE_STAT_RELEASES,
    SMEM_SHARE_STAT_VIOLATIONS,
    SMEM_SHARE_STAT_HELD,
    SMEM_SHARE_STAT_EXIT_RELEASES,
};

/* The scratchpad lanes of a warp's next instruction and their CTA-relative offsets (as
 * wexec_head_shared; a harness gives its own). */
typedef uint32_t (*smem_share_peek_fn)(const void *ctx, unsigned warp, uint64_t off[IR_WARP_SIZE]);

typedef struct {
    blk_inst *inst;
    lock_table *lt;          /* the SM's lock table: pairing and the scratchpad pair locks */
    smem_share_peek_fn peek; /* the addresses of a warp's next instruction (wexec_head_shared) */
    const void *peek_ctx;
    const sm_env *env; /* the kernel: a store's data registers (NULL: every poisoned value a load's) */
    unsigned warps, ctas;
    bool enforce;
    /* per CTA slot */
    unsigned *first_warp, *n_warps, *threads;
    /* per warp: R_i of its lanes; the lanes of its head that would violate the lock (the check's
     * finding, for the value path) and the head it was found for */
    uint32_t *rbits, *viol;
    uint32_t *viol_func, *viol_pc;
    uint64_t *acquired; /* per CTA slot: the cycle it took its pair's lock (UINT64_MAX: holds none) */
    /* traced */
    uint32_t tr_locked, tr_released;
    uint64_t tr_waiting, tr_waiting_hi;
    blk_call_probe *probe[SMEM_SHARE_VALUE + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} smem_share;

extern const blk_desc smem_share_desc;
/* wx and env: the SM's (a harness passes NULL and sets peek). */
smem_share *smem_share_new(blk_ctx *ctx, gsc_module *parent, const char *name, lock_table *lt,
                           const wexec *wx, const sm_env *env, unsigned warps, unsigned ctas);
void smem_share_free(smem_share *s);
/* Is CTA-relative offset off in the shared region (off >= t x R_tb; t and R_tb: the grid's, from the
 * lock table's configuration)? */
bool smem_share_is_shared(const smem_share *s, uint64_t off);

G_END_DECLS

#endif
