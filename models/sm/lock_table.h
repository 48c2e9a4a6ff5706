/* lock_table.h — the `lock_table` block of an SM: register sharing between paired thread blocks
 * (resource-sharing/GREENER spec §3, §3.11, §5). It holds
 *  - ShSM (1 bit): the SM runs paired CTAs (set per grid from the sharing computation, sharing.h);
 *  - ShTB: the partner CTA slot of each resident CTA slot (`none` for unshared CTAs);
 *  - ShWarp and Owner (1 bit per warp): the warp's CTA is in a pair; the warp's CTA owns the pair's
 *    shared registers (set when the CTA first acquires a pair lock, or, with owner_bit=wait, when the
 *    partner first waits; passed to the partner when the owner CTA ends: a hand-over);
 *  - one register pair lock per warp pair (warp k of CTA i with warp k of its partner), held by one
 *    of the two warps from its first shared-register access until it exits.
 * A register is a per-thread register slot (the number payloads carry, in declaration order); it is
 * private when slot + 1 <= floor(t x regs_per_thread) (§3.5's `RegNo <= t x regs/thread`), else
 * shared. The deadlock rule (§3.7): a warp may acquire a pair lock only while no warp of the partner
 * CTA holds one.
 *
 * A passive block; its exports are bound to the issue block and the arbiters:
 *   check   (issue.check)       a warp whose head touches a shared register it may not take is not
 *                               ready: it stalls and retries every cycle (stall_check);
 *   issued  (issue.issued)      the issued instruction's shared registers: acquire the pair lock;
 *   events  (issue.warp_events) CTA start (pairing), warp end (lock release), CTA end (hand-over);
 *   value   (issue.value)       every register value an instruction reads or writes: a warp using a
 *                               shared register whose lock its partner holds (a mechanism bug: the
 *                               check let it through) gets the poison pattern, so the output check
 *                               fails (`violations` counts it);
 *   veto    (arbiter<s>.veto)   Owner Warp First's classes: a ready warp is struck while a ready warp
 *                               of a better class exists (owner > unshared > non-owner; with the
 *                               arbiter's `oldest` order, dynamic warp id within a class); with a
 *                               dynamic warp execution controller (dwe.h), a memory instruction of
 *                               a warp whose partner CTA owns the pair issues only when it allows.
 * The grant (lock_table_grant_install) places up to M CTAs per SM instead of the baseline's F, U of
 * them unshared and S pairs (sharing.h), by wrapping cta_dispatch's ledger with the registers left
 * out. Statistics: acquires, waits, deadlock_waits, handovers, violations, paired_ctas,
 * unshared_ctas. Traced: shsm, shwarp, owner, locks, waiting (warp masks, slots 0..63; their _hi
 * signals: slots 64..127), partner_0..7
 * (ShTB of CTA slots 0..7; 255: none). docs/sharing.md. */
#ifndef GPUSC_MODELS_SM_LOCK_TABLE_H
#define GPUSC_MODELS_SM_LOCK_TABLE_H

#include "models/core/block.h"
#include "models/lib/sharing.h"
#include "models/sm/cta_dispatch.h"
#include "models/sm/payloads.h"

G_BEGIN_DECLS

enum { LOCK_TABLE_CHECK, LOCK_TABLE_ISSUED, LOCK_TABLE_EVENTS, LOCK_TABLE_VALUE, LOCK_TABLE_VETO };
enum {
    LOCK_TABLE_STAT_ACQUIRES,
    LOCK_TABLE_STAT_WAITS,
    LOCK_TABLE_STAT_DEADLOCK_WAITS,
    LOCK_TABLE_STAT_HANDOVERS,
    LOCK_TABLE_STAT_VIOLATIONS,
    LOCK_TABLE_STAT_PAIRED,
    LOCK_TABLE_STAT_UNSHARED,
};
#define LOCK_TABLE_NONE   0xffu /* ShTB: no partner */
#define LOCK_TABLE_TRACED 8     /* partner_<i> traced for CTA slots 0..7 */

/* OWF's issue classes (lower first under owf_order=owner_first). */
typedef enum { LOCK_CLASS_OWNER, LOCK_CLASS_UNSHARED, LOCK_CLASS_NONOWNER } lock_class;

typedef struct {
    blk_inst *inst;
    unsigned warps, ctas;
    /* parameters */
    bool enforce, deadlock_rule, owner_on_wait, unshared_first;
    /* set by whoever binds the veto: OWF's classes (true by default), the dynamic warp execution
     * controller (dwe.h, NULL: none) and this SM's index in it */
    bool owf;
    struct dwe *dwe;
    unsigned sm;
    /* the grid's configuration (lock_table_configure) */
    bool shsm;
    unsigned unshared_max, pairs, private_regs;
    uint64_t r_tb;     /* units of the shared resource per CTA (scratchpad: bytes) */
    share_threshold t; /* the grid's threshold (set by the grant) */
    unsigned n_unshared; /* resident CTAs in unshared roles */
    /* per CTA slot */
    uint8_t *shtb, *shared, *resident;
    uint8_t *pair_of; /* the pair position of a shared CTA */
    unsigned *first_warp, *n_warps, *holders;
    uint8_t *members; /* [ctas][2]: the CTA slots in pair position p (LOCK_TABLE_NONE: empty) */
    uint8_t *smem_lock; /* [pair position]: the CTA slot holding the pair's scratchpad lock (NONE: free) */
    uint8_t *released;  /* [CTA slot]: it released the scratchpad by relssp (OWF: the unshared class) */
    /* per warp */
    uint8_t *shwarp, *owner, *held;
    uint16_t *cta_of;
    /* traced */
    uint64_t tr_shwarp, tr_owner, tr_locks, tr_waiting; /* warp slots 0..63 */
    uint64_t tr_hi[4];                                  /* the same four for warp slots 64..127 */
    uint8_t tr_shsm, tr_partner[LOCK_TABLE_TRACED];
    blk_call_probe *probe[LOCK_TABLE_VETO + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} lock_table;

extern const blk_desc lock_table_desc;
/* warps / ctas: the SM's warp and CTA slots. */
lock_table *lock_table_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps, unsigned ctas);
void lock_table_free(lock_table *lt);
/* The grid's sharing (between grids, before its first CTA starts): r from sharing_compute; private_regs
 * from sharing_private_regs. An inactive r clears ShSM: every CTA unshared, nothing refused. */
void lock_table_configure(lock_table *lt, const sharing_result *r, unsigned private_regs);
/* The warp's OWF class now. */
lock_class lock_table_class(const lock_table *lt, unsigned warp);
/* The warp's CTA is paired and its partner CTA owns the pair (the throttled warps of dwe.h). */
bool lock_table_waits_on_owner(const lock_table *lt, unsigned warp);
/* The warp holding the lock of warp's pair (-1: free or not paired). */
int lock_table_holder(const lock_table *lt, unsigned warp);
/* The partner warp of warp (-1: unshared or no partner resident). */
int lock_table_partner_warp(const lock_table *lt, unsigned warp);

/* Scratchpad sharing (smem_share.h uses these): the CTA slot holding the scratchpad lock of slot's
 * pair (-1: free, or slot unshared); acquire it for slot (free; the CTA's warps become owners unless
 * owner_bit=wait); slot was refused it (owner_bit=wait: the holder becomes owner); release it if slot
 * holds it (relssp; its warps stop being owners and, holding nothing and never waiting again, are in
 * OWF's unshared class until the CTA ends): false if it did not. It is released at CTA exit. */
int lock_table_smem_holder(const lock_table *lt, unsigned slot);
void lock_table_smem_acquire(lock_table *lt, unsigned slot);
void lock_table_smem_waits(lock_table *lt, unsigned slot);
bool lock_table_smem_release(lock_table *lt, unsigned slot);

/* The sharing-aware grant of cta_dispatch for n SMs whose lock tables are lt[0..n): per SM at most
 * M CTAs (sharing_compute on each grid's kernel: the first grant of a grid configures every lock
 * table), the ledger's other resources (warp slots, scratchpad, CTA slots) as the baseline. The
 * grant keeps a copy of lt[]; *out receives the computation of the last grid. */
typedef struct lock_table_grant lock_table_grant;
lock_table_grant *lock_table_grant_install(cta_dispatch *d, lock_table *const *lt, unsigned n,
                                           share_mode mode, share_threshold t);
const sharing_result *lock_table_grant_result(const lock_table_grant *g);
void lock_table_grant_free(lock_table_grant *g);

G_END_DECLS

#endif
