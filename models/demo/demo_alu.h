/* demo_alu.h — a pipelined ALU stage: result = value OP imm (32-bit wrap-around), `latency`
 * stages, one operation accepted per cycle.
 *
 * Timing: an item got from `in` in cycle N is put on `out` in cycle N + latency, or later if
 * `out` is full then (the ALU stalls: it stops accepting once `latency` items are in flight).
 * With FIFOs on both sides an item visible at `in` in cycle N is visible at `out` in cycle
 * N + latency + 1. Sleeps when empty (woken by a put on `in`) and while stalled (woken by a get
 * from `out`). Spec: none (framework demo). */
#ifndef GPUSC_MODELS_DEMO_DEMO_ALU_H
#define GPUSC_MODELS_DEMO_DEMO_ALU_H

#include "models/core/block.h"
#include "models/demo/demo_word.h"

extern const blk_desc demo_alu_desc;

enum { DEMO_ALU_IN, DEMO_ALU_OUT };
enum { DEMO_ALU_STAT_OPS, DEMO_ALU_STAT_STALLS, DEMO_ALU_STAT_STALL_CYCLES, DEMO_ALU_STAT_OPS_PER_CYCLE };
typedef enum { DEMO_ALU_ADD, DEMO_ALU_SUB, DEMO_ALU_MUL, DEMO_ALU_XOR } demo_alu_op;

typedef struct {
    demo_word item;
    uint64_t ready; /* cycle it may leave */
} demo_alu_slot;

typedef struct {
    blk_inst *inst;
    unsigned latency;
    demo_alu_op op;
    uint32_t imm;
    demo_alu_slot *ring; /* latency slots */
    unsigned head;
    uint8_t occupancy;    /* traced: items in flight */
    bool stalled;         /* traced: a result is waiting for room in `out` */
    uint32_t last_result; /* traced */
} demo_alu;

demo_alu *demo_alu_new(blk_ctx *ctx, gsc_module *parent, const char *name);
/* The operation itself (for reference models). */
uint32_t demo_alu_compute(demo_alu_op op, uint32_t imm, uint32_t value);

#endif /* GPUSC_MODELS_DEMO_DEMO_ALU_H */
