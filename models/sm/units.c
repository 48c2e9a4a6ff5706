/* units.c — see units.h. */
#include "models/sm/units.h"

#include <string.h>

static const char *const units_methods[] = {
    "pick(unit, now) -> pipe: a pipe of that unit that accepts this cycle, -1 if none",
    "accept(pipe, instruction, now): the instruction enters the pipe (its latency and interval)",
    "writeback(now, &results) -> n: up to wb_ports results complete by now leave the pipes",
    "next_completion() -> cycle: the next result's completion cycle (none: all ones)", NULL};
/* Traced calls: accept (op 0) and each result written back (op 1), with its unit and warp. */
const blk_iface units_iface = {
    "units", "the execution pipes and write-back", units_methods, {"op", "unit", "warp"}, {1, 3, 16}};

static const blk_port_desc ports[] = {
    [UNITS_PORT] = {"units", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                    "the pipes as the operand collector calls them", &units_iface},
};

static const blk_param_desc params[] = {
    {"sp_units", BLK_PARAM_UINT, "2", "1", "8", NULL, "pipes", "SP pipes [S: GTX480 OC_EX_SP 2]"},
    {"sfu_units", BLK_PARAM_UINT, "1", "1", "8", NULL, "pipes", "SFU pipes [S]"},
    {"int_units", BLK_PARAM_UINT, "1", "1", "8", NULL, "pipes", "INT pipes [A]"},
    {"dp_units", BLK_PARAM_UINT, "1", "1", "8", NULL, "pipes", "DP pipes [A: Fermi runs DP on the SFU path]"},
    {"sp_latency", BLK_PARAM_UINT, "4", "1", "1000", NULL, "cycles",
     "SP add/logic latency [S: fp/int ADD 4]"},
    {"sp_ii", BLK_PARAM_UINT, "1", "1", "1000", NULL, "cycles", "SP initiation interval [S]"},
    {"mad_latency", BLK_PARAM_UINT, "5", "1", "1000", NULL, "cycles", "mad/fma latency [S: MAD 5]"},
    {"int_latency", BLK_PARAM_UINT, "4", "1", "1000", NULL, "cycles",
     "INT (mul.wide/hi, popc ...) latency [S: int MUL 4]"},
    {"int_ii", BLK_PARAM_UINT, "2", "1", "1000", NULL, "cycles", "INT initiation interval [S: int MUL 2]"},
    {"div_latency", BLK_PARAM_UINT, "145", "1", "10000", NULL, "cycles",
     "integer div/rem latency [S: int DIV 145]"},
    {"div_ii", BLK_PARAM_UINT, "8", "1", "10000", NULL, "cycles", "integer div/rem interval [S: 8]"},
    {"sfu_latency", BLK_PARAM_UINT, "39", "1", "10000", NULL, "cycles",
     "SFU latency [A: the fp DIV row, 39]"},
    {"sfu_ii", BLK_PARAM_UINT, "4", "1", "10000", NULL, "cycles", "SFU initiation interval [A: 4]"},
    {"dp_latency", BLK_PARAM_UINT, "8", "1", "10000", NULL, "cycles", "DP latency [S: dp ADD 8]"},
    {"dp_ii", BLK_PARAM_UINT, "8", "1", "10000", NULL, "cycles", "DP initiation interval [S: 8]"},
    {"simd_width", BLK_PARAM_UINT, "32", "1", "32", NULL, "lanes",
     "lanes a pipe processes per cycle: a warp instruction passes through it ceil(32 / simd_width) times, "
     "occupying it that many initiation intervals, its last lanes done (passes - 1) x ii after the first's "
     "latency [A: 32, one pass; CCWS/DAWS/VWS spec §2.1-2.2: 8]"},
    {"wb_ports", BLK_PARAM_UINT, "2", "1", "16", NULL, "results",
     "results written back per cycle [S: EX_WB 2]"},
    {"e_sp_op", BLK_PARAM_DOUBLE, "64", "0", NULL, NULL, "pJ",
     "energy of a warp instruction on an SP pipe (single-precision float and integer add, logic, mad) [A: "
     "32 lanes x about 2 pJ, between a 32-bit float add (about 1 pJ) and multiply (about 4 pJ) at 40-45 nm]"},
    {"e_int_op", BLK_PARAM_DOUBLE, "100", "0", NULL, NULL, "pJ",
     "energy of a warp instruction on an INT pipe (mul.wide/hi, div, popc ...) [A: 32 lanes x about 3 pJ, "
     "a 32-bit integer multiply]"},
    {"e_sfu_op", BLK_PARAM_DOUBLE, "320", "0", NULL, NULL, "pJ",
     "energy of a warp instruction on an SFU pipe [A: 32 lanes x about 10 pJ, a transcendental of a few "
     "multiplies and a table read]"},
    {"e_dp_op", BLK_PARAM_DOUBLE, "640", "0", NULL, NULL, "pJ",
     "energy of a warp instruction on a DP pipe [A: 32 lanes x about 20 pJ, a 64-bit float multiply-add]"},
};

static const blk_stat_desc stats[] = {
    [UNITS_STAT_BY_UNIT0 + SM_UNIT_SP] = {"sp_ops", BLK_STAT_COUNTER, "instructions",
                                          "instructions on SP pipes", NULL},
    [UNITS_STAT_BY_UNIT0 +
        SM_UNIT_SFU] = {"sfu_ops", BLK_STAT_COUNTER, "instructions", "instructions on SFU pipes", NULL},
    [UNITS_STAT_BY_UNIT0 +
        SM_UNIT_INT] = {"int_ops", BLK_STAT_COUNTER, "instructions", "instructions on INT pipes", NULL},
    [UNITS_STAT_BY_UNIT0 +
        SM_UNIT_DP] = {"dp_ops", BLK_STAT_COUNTER, "instructions", "instructions on DP pipes", NULL},
};

/* GPUWattch's execution-unit components: the SP cores (SPP) run the SP and INT pipes' work (the model
 * does not tell single-precision float from integer on the SP pipe), the SFUs (SFUP) the SFU pipe's,
 * the floating-point units (FPUP) the DP pipe's (docs/energy.md, "Power components"). */
static const blk_energy_event energy_events[] = {
    {"sp_op", "sp_ops", "e_sp_op", BLK_COMP_SPP},
    {"int_op", "int_ops", "e_int_op", BLK_COMP_SPP},
    {"sfu_op", "sfu_ops", "e_sfu_op", BLK_COMP_SFUP},
    {"dp_op", "dp_ops", "e_dp_op", BLK_COMP_FPUP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"in_flight", 8, "instructions in the pipes (incl. results waiting for a write-back port)"},
};

const blk_desc units_desc = {
    "units",
    "SP/SFU/INT/DP pipes (latency, initiation interval, lane groups) and write-back ports (passive)",
    "docs/baseline-design.md §2.2 units, writeback; §5.2",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
    &energy,
};

/* One pass of the warp's lanes through the pipe (a lane group of simd_width lanes). */
static void op_pass_timing(const units *u, uint8_t cls, uint8_t op, unsigned *lat, unsigned *ii)
{
    const unsigned *t = u->timing;
    switch ((ir_class)cls) {
    case IR_CLASS_SFU:
        *lat = t[UNITS_T_SFU_LAT], *ii = t[UNITS_T_SFU_II];
        return;
    case IR_CLASS_DP:
        *lat = t[UNITS_T_DP_LAT], *ii = t[UNITS_T_DP_II];
        return;
    case IR_CLASS_INT:
        if (op == IR_OP_DIV || op == IR_OP_REM)
            *lat = t[UNITS_T_DIV_LAT], *ii = t[UNITS_T_DIV_II];
        else
            *lat = t[UNITS_T_INT_LAT], *ii = t[UNITS_T_INT_II];
        return;
    default:
        *lat = op == IR_OP_MAD || op == IR_OP_FMA ? t[UNITS_T_MAD_LAT] : t[UNITS_T_SP_LAT];
        *ii = t[UNITS_T_SP_II];
        return;
    }
}

/* A warp instruction is `passes` lane groups entering the pipe one initiation interval apart: the
 * pipe is busy passes x ii, and the result is complete when the last group is, (passes - 1) x ii
 * after the first group's latency. passes = 1 (simd_width 32) is the pass's own timing. */
void units_op_timing(const units *u, uint8_t cls, uint8_t op, unsigned *lat, unsigned *ii)
{
    op_pass_timing(u, cls, op, lat, ii);
    *lat += (u->passes - 1) * *ii;
    *ii *= u->passes;
}

static int u_pick(void *self, unsigned unit, uint64_t now)
{
    units *u = self;
    for (unsigned p = 0; p < u->n_pipes; p++)
        if (u->pipe_unit[p] == unit && pipe_can_accept(u->pipes[p], now))
            return (int)p;
    return -1;
}

static void u_accept(void *self, int p, const issued_t *it, uint64_t now)
{
    units *u = self;
    g_assert(p >= 0 && (unsigned)p < u->n_pipes);
    sm_unit unit = u->pipe_unit[p];
    blk_call_note(u->probe, 0, unit, it->warp);
    unsigned lat, ii;
    units_op_timing(u, it->cls, it->op, &lat, &ii);
    uint32_t slot = mem_slots_take(&u->in_pipes);
    release_t *r = mem_slots_at(&u->in_pipes, slot);
    release_clear(r);
    r->seq = it->seq;
    r->func = it->func;
    r->warp = it->warp;
    r->n_dst = it->n_dst;
    memcpy(r->dst, it->dst, sizeof r->dst);
    r->n_bank_dst = it->n_bank_dst;
    memcpy(r->bank_dst, it->bank_dst, sizeof r->bank_dst);
    r->unit = (uint8_t)unit;
    r->exec_cycle = now;
    uint64_t done = pipe_accept_op(u->pipes[p], now, slot, lat, ii);
    u->head_done[p] = MIN(u->head_done[p], done); /* (the earlier of its old head and this) */
    u->next_done = MIN(u->next_done, done);
    blk_stat_add(u->inst, UNITS_STAT_BY_UNIT0 + unit, 1);
    u->tr_in_flight = u->in_pipes.used;
}

/* Up to wb_ports results complete by now leave the pipes, earliest completion first, ties to the
 * lower pipe (pipe_writeback's order), found from head_done without looking into the pipes. */
static unsigned u_writeback(void *self, uint64_t now, const release_t **out)
{
    units *u = self;
    if (u->next_done > now)
        return 0; /* nothing due: every pipe's head completes later */
    unsigned n = 0;
    while (n < u->wb_ports) {
        int best = -1;
        for (unsigned p = 0; p < u->n_pipes; p++)
            if (u->head_done[p] <= now && (best < 0 || u->head_done[p] < u->head_done[best]))
                best = (int)p;
        if (best < 0)
            break;
        pipe_result r;
        bool popped = pipe_pop_done(u->pipes[best], now, &r);
        g_assert(popped); /* its head is done by now (head_done): r is written */
        u->head_done[best] = pipe_next_completion(u->pipes[best]);
        uint32_t slot = (uint32_t)r.payload;
        out[n] = mem_slots_at(&u->in_pipes, slot);
        mem_slots_put_back(&u->in_pipes, slot); /* the data stays until the next take (accept) */
        blk_call_note(u->probe, 1, out[n]->unit, out[n]->warp);
        n++;
    }
    uint64_t next = PIPE_NONE;
    for (unsigned p = 0; p < u->n_pipes; p++)
        next = MIN(next, u->head_done[p]);
    u->next_done = next;
    u->tr_in_flight = u->in_pipes.used;
    return n;
}

static uint64_t u_next_completion(void *self)
{
    return ((const units *)self)->next_done;
}

static const units_if methods = {u_pick, u_accept, u_writeback, u_next_completion};

static void add_pipes(units *u, sm_unit unit, const char *count, const char *lat, const char *ii)
{
    unsigned n = (unsigned)blk_param_uint(u->inst, count);
    for (unsigned i = 0; i < n; i++) {
        g_assert(u->n_pipes < UNITS_MAX_PIPES);
        pipe_config pc = {(unsigned)blk_param_uint(u->inst, lat), (unsigned)blk_param_uint(u->inst, ii), 0,
                          false};
        u->pipe_unit[u->n_pipes] = unit;
        u->head_done[u->n_pipes] = PIPE_NONE;
        u->pipes[u->n_pipes++] = pipe_new(&pc);
    }
}

void units_set_warp_size(units *u, unsigned ws)
{
    unsigned simd = (unsigned)blk_param_uint(u->inst, "simd_width");
    u->passes = (ws + simd - 1) / simd;
}

units *units_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    units *u = g_new0(units, 1);
    u->inst = blk_inst_new(ctx, parent, name, &units_desc);
    add_pipes(u, SM_UNIT_SP, "sp_units", "sp_latency", "sp_ii");
    add_pipes(u, SM_UNIT_SFU, "sfu_units", "sfu_latency", "sfu_ii");
    add_pipes(u, SM_UNIT_INT, "int_units", "int_latency", "int_ii");
    add_pipes(u, SM_UNIT_DP, "dp_units", "dp_latency", "dp_ii");
    u->next_done = PIPE_NONE;
    u->wb_ports = (unsigned)blk_param_uint(u->inst, "wb_ports");
    g_assert(u->wb_ports <= UNITS_MAX_WB);
    units_set_warp_size(u, IR_WARP_SIZE);
    static const char *const tnames[UNITS_T_COUNT] = {
        "sp_latency", "sp_ii",       "mad_latency", "int_latency", "int_ii", "div_latency",
        "div_ii",     "sfu_latency", "sfu_ii",      "dp_latency",  "dp_ii"};
    for (unsigned i = 0; i < UNITS_T_COUNT; i++) /* looked up once: not on the dispatch path */
        u->timing[i] = (unsigned)blk_param_uint(u->inst, tnames[i]);
    mem_slots_init(&u->in_pipes, sizeof(release_t));
    blk_export(u->inst, UNITS_PORT, 0, &methods, u);
    u->probe = blk_export_probe(u->inst, UNITS_PORT, 0);
    blk_trace_state(u->inst, "in_flight", GSC_U32, &u->tr_in_flight);
    return u;
}

void units_free(units *u)
{
    if (!u)
        return;
    for (unsigned p = 0; p < u->n_pipes; p++)
        pipe_free(u->pipes[p]); /* payloads are indices into in_pipes */
    mem_slots_clear(&u->in_pipes);
    g_free(u);
}
