/* exec.h — the `exec` block: operand collection over banked register files, the execution pipes
 * (SP, SFU, INT, DP) and result write-back of one SM (or of one sub-core partition). Spec:
 * docs/baseline-design.md §2.2 opcoll/regfile/units/writeback (folded into one block here: the
 * bank arbiter and the collectors decide in the same cycle, principle 3 of the design), GPGPU-Sim's
 * operand collector with GTX480 numbers (§5.1-5.2).
 *
 * Per cycle, in this order:
 *  1. write-back: up to `wb_ports` completed results leave the pipes (earliest first); each
 *     destination register is a write request to its bank; a release_t goes to issue;
 *  2. collector allocation: an issued instruction taken from `in` gets a free collector of its pool
 *     (SP/INT: `collectors_sp`, SFU/DP: `collectors_sfu`); one read request per distinct source
 *     register goes to the register's bank queue (bank = (reg + warp) mod banks, or reg mod banks);
 *     Each read and write first runs the register access path (models/lib/rfaccess.h, exec_rf_chain):
 *     hooks may delay a read, refuse it this cycle (retried every cycle), or translate the register
 *     the bank sees (renaming); the baseline chain is empty;
 *  3. bank arbitration (models/lib/bankmap.h): writes first, then one read per bank port, oldest
 *     first; a read that waits is a bank conflict (one extra cycle per conflicting read). With
 *     source reservations (issued_t.report_reads), the cycle a collector's last read is granted (or
 *     its allocation, if it reads no bank) it sends issue a read report (release_t.reads, the source
 *     slots), in the release FIFO before the instruction's completion;
 *  4. dispatch: a collector whose operands were all read in earlier cycles goes to a pipe of its
 *     unit that can accept (oldest collector first); pipes (models/lib/pipe.h) have latency and
 *     initiation interval per operation class. Warp width and lane groups: a pipe processes
 *     `simd_width` lanes per cycle (default 32); a 32-thread warp instruction takes P =
 *     ceil(32 / simd_width) passes, so it occupies the pipe P x ii and completes (P - 1) x ii after
 *     the latency (ccws-daws-vws.md §2.1: SIMD width 8, 4 pipeline cycles per warp instruction).
 * So an instruction issued in cycle c with operands in distinct banks enters its pipe at c+2 and
 * releases its destinations to issue at c+2+latency (visible to issue at c+3+latency).
 * Sleeps when no collector is busy, nothing is in the pipes and no release waits for room; wakes on
 * a put to `in` (or at the next pipe completion).
 */
#ifndef GPUSC_MODELS_SM_EXEC_H
#define GPUSC_MODELS_SM_EXEC_H

#include "models/core/block.h"
#include "models/lib/ring.h"
#include "models/lib/slots.h"
#include "models/lib/bankmap.h"
#include "models/lib/pipe.h"
#include "models/lib/rfaccess.h"
#include "models/sm/payloads.h"

G_BEGIN_DECLS

enum { EXEC_IN, EXEC_RELEASE };
enum {
    EXEC_STAT_DISPATCHED,
    EXEC_STAT_BANK_READS,
    EXEC_STAT_BANK_WRITES,
    EXEC_STAT_BANK_CONFLICTS,
    EXEC_STAT_COLLECTOR_FULL,
    EXEC_STAT_UNIT_BUSY,
    EXEC_STAT_RF_DEFERRED,
    EXEC_STAT_BY_UNIT0, /* per sm_unit except LDST */
    EXEC_STAT_COUNT = EXEC_STAT_BY_UNIT0 + SM_UNIT_LDST
};

typedef struct exec_coll exec_coll;

enum {
    EXEC_T_SP_LAT,
    EXEC_T_SP_II,
    EXEC_T_MAD_LAT,
    EXEC_T_INT_LAT,
    EXEC_T_INT_II,
    EXEC_T_DIV_LAT,
    EXEC_T_DIV_II,
    EXEC_T_SFU_LAT,
    EXEC_T_SFU_II,
    EXEC_T_DP_LAT,
    EXEC_T_DP_II,
    EXEC_T_COUNT
};

typedef struct {
    blk_inst *inst;
    unsigned group; /* bank group (sub-core partition) */
    unsigned groups;
    bankmap map;
    bankmap_queues *banks;
    unsigned n_coll;
    exec_coll *coll;
    gpusc_pipe *pipes[16];
    sm_unit pipe_unit[16];
    unsigned n_pipes;
    unsigned wb_ports;
    unsigned passes;               /* lane groups per warp instruction: ceil(32 / simd_width) */
    unsigned timing[EXEC_T_COUNT]; /* latencies and intervals (EXEC_T_*) */
    ring releases;                 /* release_t waiting for room */
    mem_slots in_pipes;            /* release_t of the instructions in the pipes (index = pipe payload) */
    GArray *granted_reads, *granted_writes;
    rfaccess_chain *rf; /* the register access path (extension point; empty in the baseline) */
    GArray *deferred;   /* reads delayed or refused by the chain (exec_deferred) */
    uint64_t seq;
    /* traced */
    uint32_t tr_busy_coll, tr_dispatched, tr_conflicts;
} exec_blk;

extern const blk_desc exec_desc;
/* group/groups: this block's bank group of `groups` (sub-core partitions share the bank index space). */
exec_blk *exec_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned group, unsigned groups);
void exec_free(exec_blk *e);
/* The register access path of this block, for mechanisms to add hooks to (rfaccess_chain_add). */
rfaccess_chain *exec_rf_chain(exec_blk *e);
/* Latency and initiation interval of a warp instruction (opcode op of class cls) on its unit under this
 * configuration, simd_width included: with P = ceil(32 / simd_width) lane groups, latency + (P - 1) x
 * ii and P x ii. */
void exec_op_timing(const exec_blk *e, uint8_t cls, uint8_t op, unsigned *latency, unsigned *ii);

G_END_DECLS

#endif
