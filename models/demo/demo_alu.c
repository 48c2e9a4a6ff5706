/* demo_alu.c — see demo_alu.h. */
#include "models/demo/demo_alu.h"

#include "models/core/stats.h"

static const blk_port_desc ports[] = {
    {"in", GSC_IN, &demo_word_type, BLK_CHAN_FIFO, "in_depth", "operands"},
    {"out", GSC_OUT, &demo_word_type, BLK_CHAN_FIFO, NULL, "results, in the operands' order"},
};

static const char *const ops[] = {"add", "sub", "mul", "xor", NULL};

static const blk_param_desc params[] = {
    {"latency", BLK_PARAM_UINT, "3", "1", "64", NULL, "cycles",
     "cycles from taking an operand to putting its result"},
    {"op", BLK_PARAM_ENUM, "mul", NULL, NULL, ops, "", "operation: value OP imm"},
    {"imm", BLK_PARAM_UINT, "2654435761", "0", "4294967295", NULL, "", "the constant operand"},
    {"in_depth", BLK_PARAM_UINT, "2", "1", "64", NULL, "items", "depth of the input FIFO"},
};

static double ops_per_cycle(const blk_inst *inst)
{
    return stats_ratio(blk_stat_get(inst, DEMO_ALU_STAT_OPS), gsc_cycle());
}

static const blk_stat_desc stats[] = {
    [DEMO_ALU_STAT_OPS] = {"ops", BLK_STAT_COUNTER, "ops", "results put on the output", NULL},
    [DEMO_ALU_STAT_STALLS] = {"stalls", BLK_STAT_COUNTER, "events", "times a result found the output full",
                              NULL},
    [DEMO_ALU_STAT_STALL_CYCLES] = {"stall_cycles", BLK_STAT_COUNTER, "cycles",
                                    "cycles a result waited for room in the output", NULL},
    [DEMO_ALU_STAT_OPS_PER_CYCLE] = {"ops_per_cycle", BLK_STAT_DERIVED, "ops/cycle",
                                     "throughput over the run", ops_per_cycle},
};

static const blk_state_desc state[] = {
    {"occupancy", 8, "items in flight in the pipeline"},
    {"stalled", 1, "a result waits for room in the output FIFO"},
    {"last_result", 32, "the last result put on the output"},
};

const blk_desc demo_alu_desc = {
    "demo_alu",
    "demo: a pipelined ALU stage with a configurable latency",
    "",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

uint32_t demo_alu_compute(demo_alu_op op, uint32_t imm, uint32_t value)
{
    switch (op) {
    case DEMO_ALU_ADD:
        return value + imm;
    case DEMO_ALU_SUB:
        return value - imm;
    case DEMO_ALU_MUL:
        return value * imm;
    case DEMO_ALU_XOR:
        return value ^ imm;
    }
    g_assert_not_reached();
}

static void demo_alu_retire(demo_alu *a, gsc_fifo *out, uint64_t now, bool was_stalled)
{
    demo_alu_slot *head = &a->ring[a->head];
    if (a->occupancy == 0 || head->ready > now)
        return;
    if (!gsc_fifo_can_put(out)) {
        a->stalled = true;
        /* this cycle is a stall cycle, and so is every cycle slept until the next activation */
        blk_stat_add(a->inst, DEMO_ALU_STAT_STALL_CYCLES, 1);
        blk_sleep_charge(a->inst, DEMO_ALU_STAT_STALL_CYCLES, 1);
        if (!was_stalled) {
            blk_stat_add(a->inst, DEMO_ALU_STAT_STALLS, 1);
            blk_debug(a->inst, "%s: cycle %" G_GUINT64_FORMAT ": output full, stalling", a->inst->path, now);
        }
        return;
    }
    gsc_fifo_put(out, &head->item);
    a->last_result = head->item.value;
    a->head = (a->head + 1) % a->latency;
    a->occupancy--;
    blk_stat_add(a->inst, DEMO_ALU_STAT_OPS, 1);
}

static void demo_alu_accept(demo_alu *a, gsc_fifo *in, uint64_t now)
{
    if (a->occupancy == a->latency || !gsc_fifo_can_get(in))
        return;
    demo_alu_slot *tail = &a->ring[(a->head + a->occupancy) % a->latency];
    gsc_fifo_get(in, &tail->item);
    tail->item.value = demo_alu_compute(a->op, a->imm, tail->item.value);
    tail->ready = now + a->latency;
    a->occupancy++;
}

/* Retire first, so a full pipeline accepts in the cycle it retires (one op per cycle). */
static void demo_alu_run(void *self)
{
    demo_alu *a = self;
    gsc_fifo *in = blk_fifo(a->inst, DEMO_ALU_IN);
    gsc_fifo *out = blk_fifo(a->inst, DEMO_ALU_OUT);
    uint64_t now = gsc_cycle();
    blk_sleep_wake(a->inst, now); /* the stall cycles slept (framework.md, "Sleeping blocks") */
    bool was_stalled = a->stalled;
    a->stalled = false;
    demo_alu_retire(a, out, now, was_stalled);
    demo_alu_accept(a, in, now);
    if (a->occupancy == 0 && !gsc_fifo_can_get(in))
        return; /* idle: sleep until a put on `in` */
    if (a->stalled && (a->occupancy == a->latency || !gsc_fifo_can_get(in)))
        return; /* sleep until a get from `out` (or a put on `in`) */
    uint64_t head_ready = a->ring[a->head].ready;
    /* The SM blocks' idiom: at the latest then; a put or a get wakes it earlier, and an activation
     * with nothing to do changes nothing (the check modes of sc/ run it in every cycle). */
    if (a->occupancy == a->latency && head_ready > now)
        gsc_run_within(head_ready - now); /* full: nothing to do before the head is ready */
    else
        gsc_run_within(1);
}

static void demo_alu_elaborate(void *self)
{
    demo_alu *a = self;
    gsc_process *p = gsc_process_new(a->inst->mod, "run", demo_alu_run, a);
    gsc_sensitive_fifo_put(p, blk_fifo(a->inst, DEMO_ALU_IN));
    gsc_sensitive_fifo_get(p, blk_fifo(a->inst, DEMO_ALU_OUT));
}

demo_alu *demo_alu_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    demo_alu *a = g_new0(demo_alu, 1);
    a->inst = blk_inst_new(ctx, parent, name, &demo_alu_desc);
    a->latency = (unsigned)blk_param_uint(a->inst, "latency");
    a->op = (demo_alu_op)blk_param_enum(a->inst, "op");
    a->imm = (uint32_t)blk_param_uint(a->inst, "imm");
    a->ring = g_new0(demo_alu_slot, a->latency);
    blk_trace_state(a->inst, "occupancy", GSC_U8, &a->occupancy);
    blk_trace_state(a->inst, "stalled", GSC_BOOL, &a->stalled);
    blk_trace_state(a->inst, "last_result", GSC_U32, &a->last_result);
    blk_inst_on_elaborate(a->inst, demo_alu_elaborate, a);
    return a;
}
