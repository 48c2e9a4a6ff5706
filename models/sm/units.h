/* units.h — the `units` block: the execution pipes (SP, SFU, INT, DP) and result write-back of one SM
 * (or of one sub-core partition). Spec: docs/sm.md "units"; docs/baseline-design.md §2.2 units,
 * writeback; §5.2 (GPGPU-Sim's pipelined SIMD units with GTX480 latencies).
 *
 * A passive block: it has no process. Its one client, the operand collector (`opcoll`), calls its
 * exported interface `units` inside its own activation:
 *  - writeback(now): up to `wb_ports` results complete by now leave the pipes (earliest completion
 *    first, ties by lower pipe index: models/lib/pipe.h); each is the release_t of its instruction;
 *  - pick(unit, now): a pipe of that unit that can accept an instruction this cycle (-1: none);
 *  - accept(pipe, instruction, now): the instruction enters the pipe with its operation's latency and
 *    initiation interval (units_op_timing);
 *  - next_completion(): the cycle of the next result (the client sleeps until then).
 * Warp width and lane groups: a pipe processes `simd_width` lanes per cycle; a 32-thread warp
 * instruction takes P = ceil(32 / simd_width) passes, so it occupies the pipe P x ii and completes
 * (P - 1) x ii after the latency. */
#ifndef GPUSC_MODELS_SM_UNITS_H
#define GPUSC_MODELS_SM_UNITS_H

#include "models/core/block.h"
#include "models/lib/pipe.h"
#include "models/lib/slots.h"
#include "models/sm/payloads.h"

G_BEGIN_DECLS

enum { UNITS_PORT }; /* export "units" */
enum {
    UNITS_STAT_BY_UNIT0, /* per sm_unit except LDST: sp_ops, sfu_ops, int_ops, dp_ops */
    UNITS_STAT_COUNT = UNITS_STAT_BY_UNIT0 + SM_UNIT_LDST
};

/* The exported interface `units` (methods take the units block as self). */
typedef struct {
    int (*pick)(void *self, unsigned unit, uint64_t now);
    void (*accept)(void *self, int pipe, const issued_t *it, uint64_t now);
    /* The results written back this cycle (at most wb_ports): pointers valid until the next accept. */
    unsigned (*writeback)(void *self, uint64_t now, const release_t **out);
    uint64_t (*next_completion)(void *self); /* PIPE_NONE: the pipes are empty */
} units_if;
extern const blk_iface units_iface;

enum {
    UNITS_T_SP_LAT,
    UNITS_T_SP_II,
    UNITS_T_MAD_LAT,
    UNITS_T_INT_LAT,
    UNITS_T_INT_II,
    UNITS_T_DIV_LAT,
    UNITS_T_DIV_II,
    UNITS_T_SFU_LAT,
    UNITS_T_SFU_II,
    UNITS_T_DP_LAT,
    UNITS_T_DP_II,
    UNITS_T_COUNT
};

#define UNITS_MAX_PIPES 16
#define UNITS_MAX_WB    16

typedef struct {
    blk_inst *inst;
    /* Each pipe's head completion (PIPE_NONE: empty) and the earliest of them, kept here so that the
     * write-back's look each cycle reads this struct alone, and a pipe only when it gives a result. */
    uint64_t next_done;
    uint64_t head_done[UNITS_MAX_PIPES];
    gpusc_pipe *pipes[UNITS_MAX_PIPES];
    sm_unit pipe_unit[UNITS_MAX_PIPES];
    unsigned n_pipes;
    unsigned wb_ports;
    unsigned passes;                /* lane groups per warp instruction: ceil(32 / simd_width) */
    unsigned timing[UNITS_T_COUNT]; /* latencies and intervals (UNITS_T_*) */
    mem_slots in_pipes;             /* release_t of the instructions in the pipes (index = pipe payload) */
    blk_call_probe *probe;
    /* traced */
    uint32_t tr_in_flight;
} units;

extern const blk_desc units_desc;
units *units_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void units_free(units *u);
/* Warps of ws threads: an instruction passes ceil(ws / simd_width) times (32 unless set). */
void units_set_warp_size(units *u, unsigned ws);
/* Latency and initiation interval of a warp instruction (opcode op of class cls) on its unit under this
 * configuration, simd_width included: with P = ceil(32 / simd_width) lane groups, latency + (P - 1) x
 * ii and P x ii. */
void units_op_timing(const units *u, uint8_t cls, uint8_t op, unsigned *latency, unsigned *ii);

G_END_DECLS

#endif
