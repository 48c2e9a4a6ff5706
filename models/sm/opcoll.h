/* opcoll.h — the `opcoll` block: the operand collectors of one SM (or of one sub-core partition), the
 * process that drives the register file (`regfile`) and the execution units (`units`) through their
 * interfaces. Spec: docs/sm.md "opcoll"; docs/baseline-design.md §2.2 opcoll (GPGPU-Sim's operand
 * collector with GTX480 numbers, §5.1-5.2).
 *
 * The collectors, the bank arbiter and the pipes decide in the same cycle (principle 3 of the design):
 * regfile and units are passive blocks that only opcoll calls, inside its activation, through its
 * imports `regfile` and `units` (one indirect call each). Per cycle, in this order:
 *  1. write-back: units.writeback gives up to `wb_ports` completed results; each destination register
 *     is a regfile.write; a release_t goes to issue;
 *  2. deferred reads: regfile.retry (reads the register access path delayed or refused);
 *  3. collector allocation: an issued instruction taken from `in` gets a free collector of its pool
 *     (SP/INT: `collectors_sp`, SFU/DP: `collectors_sfu`); one regfile.read per distinct source
 *     register;
 *  4. bank arbitration: regfile.arbitrate grants reads (writes first); with source reservations
 *     (issued_t.report_reads), the cycle a collector's last read is granted (or its allocation, if it
 *     reads no bank) it sends issue a read report (release_t.reads, the source slots), in the release
 *     FIFO before the instruction's completion;
 *  5. dispatch: a collector whose operands were all read in earlier cycles goes to a pipe of its unit
 *     that can accept (units.pick, units.accept; oldest collector first);
 *  6. the completions and read reports waiting for room in `release` are put.
 * So an instruction issued in cycle c with operands in distinct banks enters its pipe at c+2 and
 * releases its destinations to issue at c+2+latency (visible to issue at c+3+latency).
 * Sleeps when no collector is busy, no register request waits and no release waits for room; wakes on
 * a put to `in` (or at the units' next completion).
 */
#ifndef GPUSC_MODELS_SM_OPCOLL_H
#define GPUSC_MODELS_SM_OPCOLL_H

#include "models/core/block.h"
#include "models/lib/ring.h"
#include "models/lib/wmask.h"
#include "models/sm/payloads.h"
#include "models/sm/regfile.h"
#include "models/sm/units.h"

G_BEGIN_DECLS

enum { OPCOLL_IN, OPCOLL_RELEASE, OPCOLL_REGFILE, OPCOLL_UNITS };
enum {
    OPCOLL_STAT_DISPATCHED,
    OPCOLL_STAT_COLLECTOR_FULL,
    OPCOLL_STAT_UNIT_BUSY,
    OPCOLL_STAT_OPERAND_FILLS,
    OPCOLL_STAT_OPERAND_READS,
    OPCOLL_STAT_COUNT
};

typedef struct opcoll_coll opcoll_coll;
struct ccu_blk;

typedef struct {
    blk_inst *inst;
    unsigned n_coll;
    opcoll_coll *coll;
    issued_t *its; /* each collector's instruction (cold: read on allocation and dispatch) */
    ring releases; /* release_t waiting for room */
    uint64_t seq;
    /* Collectors by bit: busy, every operand read, and dispatchable (every operand read in an
     * earlier cycle: those read when the last dispatch ended) */
    wmask busy_m, read_m, disp_m;
    wmask pool_m[2]; /* the collectors of each pool (opcoll_coll.pool) */
    bool generic;        /* collectors_sfu = 0: one pool */
    struct ccu_blk *ccu; /* collectors allocated at issue (collector != ocu); NULL: ocu */
    /* the imports, looked up at elaboration */
    const regfile_if *rf;
    void *rf_self;
    const units_if *un;
    void *un_self;
    /* traced (tr_busy_coll: the bits of busy_m, counted as they are set and cleared) */
    uint32_t tr_busy_coll, tr_dispatched;
    uint64_t tr_occupied, tr_ready; /* per collector (bit c), computed only when traced */
    bool tr_slots;
} opcoll;

extern const blk_desc opcoll_desc;
opcoll *opcoll_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void opcoll_free(opcoll *o);
/* Collectors allocated at issue by a `ccu` block (models/sm/ccu.h): the topology sets it before the
 * run when [opcoll] collector is not ocu. */
void opcoll_set_ccu(opcoll *o, struct ccu_blk *c);

G_END_DECLS

#endif
