/* regfile.h — the `regfile` block: the banked register file of one SM (or of one sub-core partition).
 * Spec: docs/sm.md "regfile"; docs/baseline-design.md §2.2 regfile, §5.1 (GPGPU-Sim's register
 * banks with GTX480 numbers).
 *
 * A passive block: it has no process. Its one client, the operand collector (`opcoll`), calls its
 * exported interface `regfile` inside its own activation, in this order each cycle:
 *  - write(warp, reg, func, seq): a result's register, queued at its bank (write-back comes first in
 *    the cycle);
 *  - retry(): the reads the register access path deferred and that are due now go to their banks;
 *  - read(collector, warp, reg, func, seq): one operand read for a collector, through the register
 *    access path,
 *    then queued at its bank (bank = (reg + warp) mod banks, or reg mod banks: models/lib/bankmap.h);
 *  - arbitrate(): one cycle of bank arbitration, writes first, then one read per bank port, oldest
 *    first; returns the collectors of the granted reads (a read that waits is a bank conflict);
 *  - pending(): requests waiting (queued at a bank or deferred by the access path).
 * The register access path (models/lib/rfaccess.h) is the MULTI import `access` (interface
 * `rfaccess`): every hook bound to it runs, in binding order, on each read and write before the bank
 * sees it; it may delay a read, refuse it this cycle (retried every cycle) or translate the register
 * the bank sees (renaming). Each request names its instruction (function and issue sequence number:
 * rfaccess_req.func, .seq). The baseline binds none.
 * A per-slot state array (one byte per register slot of the banks: ON, SLEEP or OFF; ON at start)
 * is kept for the power-state mechanisms; the baseline never changes it. */
#ifndef GPUSC_MODELS_SM_REGFILE_H
#define GPUSC_MODELS_SM_REGFILE_H

#include "models/core/block.h"
#include "models/lib/bankmap.h"
#include "models/lib/rfaccess.h"

G_BEGIN_DECLS

enum { REGFILE_PORT, REGFILE_ACCESS }; /* export "regfile", import "access" */
enum {
    REGFILE_STAT_BANK_READS,
    REGFILE_STAT_BANK_WRITES,
    REGFILE_STAT_BANK_CONFLICTS,
    REGFILE_STAT_RF_DEFERRED,
    REGFILE_STAT_COUNT
};

/* The exported interface `regfile` (methods take the regfile as self; now = the caller's cycle). */
typedef struct {
    /* func, seq: the instruction (issued_t.func, .seq; release_t.func, .seq for a write-back). */
    void (*read)(void *self, unsigned collector, unsigned warp, unsigned reg, uint32_t func, uint64_t seq,
                 uint64_t now);
    void (*write)(void *self, unsigned warp, unsigned reg, uint32_t func, uint64_t seq, uint64_t now);
    void (*retry)(void *self, uint64_t now);
    /* The granted reads' collectors, in grant order; valid until the next call. */
    unsigned (*arbitrate)(void *self, const uint64_t **granted);
    unsigned (*pending)(void *self);
} regfile_if;
extern const blk_iface regfile_iface;

/* The imported interface `rfaccess`: a hook of the register access path (models/lib/rfaccess.h).
 * A mechanism exports it (name: for the chain's per-hook statistics) and is bound to `access`. */
typedef struct {
    const char *name;
    rfaccess_fn access; /* (self, request, &delay) -> verdict */
} rfaccess_hook_if;
extern const blk_iface rfaccess_iface;

/* Register slot states (regfile_slot_state). */
enum { REGFILE_SLOT_OFF, REGFILE_SLOT_SLEEP, REGFILE_SLOT_ON };

typedef struct {
    blk_inst *inst;
    unsigned group, groups; /* this block's bank group (sub-core partition) of `groups` */
    bankmap_geom geom;      /* banks, clusters, sub-arrays: a mechanism placing registers reads it */
    bankmap map;
    bankmap_queues *banks;
    rfaccess_chain *rf; /* built at elaboration from the hooks bound to `access` */
    GArray *deferred;   /* reads delayed or refused by the chain */
    unsigned n_slots;
    uint8_t *slot_state; /* REGFILE_SLOT_*, per register slot */
    blk_call_probe *probe;
    /* traced */
    uint32_t tr_reads, tr_writes, tr_conflicts, tr_pending;
} regfile;

extern const blk_desc regfile_desc;
/* group/groups: the bank group of `groups` (sub-core partitions); slots: warp-register slots of these
 * banks (the per-slot state); collectors: the client's collector units (the arbiter's collector
 * ports). */
regfile *regfile_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned group, unsigned groups,
                     unsigned slots, unsigned collectors);
void regfile_free(regfile *r);
/* The per-slot state array (n = r->n_slots), for the power-state mechanisms. */
uint8_t *regfile_slot_state(regfile *r);
/* The register access path as built from the bound hooks (after elaboration; per-hook statistics). */
const rfaccess_chain *regfile_access_chain(const regfile *r);

G_END_DECLS

#endif
