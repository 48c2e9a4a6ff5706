/* exec.c — see exec.h. */
#include "models/sm/exec.h"

#include <string.h>

#include "models/core/stats.h"

struct exec_coll {
    bool busy;
    bool dispatchable; /* every operand read (in an earlier cycle) */
    uint8_t pool;      /* 0 SP/INT, 1 SFU/DP */
    unsigned pending;  /* operand reads not yet granted */
    uint64_t age;
    issued_t it; /* only the header fields are used (no addresses) */
};

typedef struct {
    unsigned coll, reg, warp;
    uint64_t due; /* cycle from which it may go to its bank (delay), or 0: retry the chain */
} exec_deferred;

static const blk_port_desc ports[] = {
    [EXEC_IN] = {"in", GSC_IN, &issued_type, BLK_CHAN_FIFO, "in_depth", "issued instructions (non-memory)"},
    [EXEC_RELEASE] = {"release", GSC_OUT, &release_type, BLK_CHAN_FIFO, NULL, "completions to issue"},
};

static const char *const bank_fns[] = {"reg_plus_warp", "reg", NULL};

static const blk_param_desc params[] = {
    {"banks", BLK_PARAM_UINT, "16", "1", "256", NULL, "banks", "register banks (all groups) [S: GTX480 16]"},
    {"bank_fn", BLK_PARAM_ENUM, "reg_plus_warp", NULL, NULL, bank_fns, "",
     "bank of a register: (reg + warp) mod banks [S: GPGPU-Sim register_bank] or reg mod banks"},
    {"bank_ports", BLK_PARAM_UINT, "1", "1", "8", NULL, "accesses", "accesses per bank per cycle [A]"},
    {"collectors_sp", BLK_PARAM_UINT, "6", "1", "64", NULL, "units",
     "collector units for SP/INT [S: GTX480 6]"},
    {"collectors_sfu", BLK_PARAM_UINT, "8", "1", "64", NULL, "units",
     "collector units for SFU/DP [S: GTX480 8]"},
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
     "latency [A: 32, one pass; ccws-daws-vws.md §2.1-2.2: 8]"},
    {"wb_ports", BLK_PARAM_UINT, "2", "1", "16", NULL, "results",
     "results written back per cycle [S: EX_WB 2]"},
    {"in_depth", BLK_PARAM_UINT, "4", "1", "64", NULL, "items",
     "depth of the input FIFO (4: two schedulers can put every cycle while the block drains it) [A]"},
};

static const blk_stat_desc stats[] = {
    [EXEC_STAT_DISPATCHED] = {"dispatched", BLK_STAT_COUNTER, "instructions", "instructions sent to a pipe",
                              NULL},
    [EXEC_STAT_BANK_READS] = {"bank_reads", BLK_STAT_COUNTER, "accesses", "register bank reads", NULL},
    [EXEC_STAT_BANK_WRITES] = {"bank_writes", BLK_STAT_COUNTER, "accesses", "register bank writes", NULL},
    [EXEC_STAT_BANK_CONFLICTS] = {"bank_conflicts", BLK_STAT_COUNTER, "read-cycles",
                                  "cycles reads waited for their bank", NULL},
    [EXEC_STAT_COLLECTOR_FULL] = {"collector_full", BLK_STAT_COUNTER, "cycles",
                                  "cycles an instruction waited for a collector", NULL},
    [EXEC_STAT_UNIT_BUSY] = {"unit_busy", BLK_STAT_COUNTER, "cycles",
                             "cycles a ready collector waited for its pipe", NULL},
    [EXEC_STAT_RF_DEFERRED] = {"rf_deferred", BLK_STAT_COUNTER, "reads",
                               "reads the register access path delayed or refused", NULL},
    [EXEC_STAT_BY_UNIT0 +
        SM_UNIT_SP] = {"sp_ops", BLK_STAT_COUNTER, "instructions", "instructions on SP pipes", NULL},
    [EXEC_STAT_BY_UNIT0 +
        SM_UNIT_SFU] = {"sfu_ops", BLK_STAT_COUNTER, "instructions", "instructions on SFU pipes", NULL},
    [EXEC_STAT_BY_UNIT0 +
        SM_UNIT_INT] = {"int_ops", BLK_STAT_COUNTER, "instructions", "instructions on INT pipes", NULL},
    [EXEC_STAT_BY_UNIT0 +
        SM_UNIT_DP] = {"dp_ops", BLK_STAT_COUNTER, "instructions", "instructions on DP pipes", NULL},
};

static const blk_state_desc state[] = {
    {"busy_collectors", 6, "collector units holding an instruction"},
    {"dispatched", 3, "instructions sent to pipes this cycle"},
    {"conflicts", 6, "reads that waited for their bank this cycle"},
};

const blk_desc exec_desc = {
    "exec",
    "operand collectors over banked registers, SP/SFU/INT/DP pipes, write-back",
    "docs/baseline-design.md §2.2 opcoll, regfile, units, writeback; §5.1-5.2",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

rfaccess_chain *exec_rf_chain(exec_blk *e)
{
    return e->rf;
}

/* One pass of the warp's lanes through the pipe (a lane group of simd_width lanes). */
static void op_pass_timing(const exec_blk *e, uint8_t cls, uint8_t op, unsigned *lat, unsigned *ii)
{
    const unsigned *t = e->timing;
    switch ((ir_class)cls) {
    case IR_CLASS_SFU:
        *lat = t[EXEC_T_SFU_LAT], *ii = t[EXEC_T_SFU_II];
        return;
    case IR_CLASS_DP:
        *lat = t[EXEC_T_DP_LAT], *ii = t[EXEC_T_DP_II];
        return;
    case IR_CLASS_INT:
        if (op == IR_OP_DIV || op == IR_OP_REM)
            *lat = t[EXEC_T_DIV_LAT], *ii = t[EXEC_T_DIV_II];
        else
            *lat = t[EXEC_T_INT_LAT], *ii = t[EXEC_T_INT_II];
        return;
    default:
        *lat = op == IR_OP_MAD || op == IR_OP_FMA ? t[EXEC_T_MAD_LAT] : t[EXEC_T_SP_LAT];
        *ii = t[EXEC_T_SP_II];
        return;
    }
}

/* A warp instruction is `passes` lane groups entering the pipe one initiation interval apart: the
 * pipe is busy passes x ii, and the result is complete when the last group is, (passes - 1) x ii
 * after the first group's latency. passes = 1 (simd_width 32) is the pass's own timing. */
void exec_op_timing(const exec_blk *e, uint8_t cls, uint8_t op, unsigned *lat, unsigned *ii)
{
    op_pass_timing(e, cls, op, lat, ii);
    *lat += (e->passes - 1) * *ii;
    *ii *= e->passes;
}

static unsigned pool_of(uint8_t cls)
{
    return cls == IR_CLASS_SFU || cls == IR_CLASS_DP ? 1 : 0;
}

/* A write runs the chain for its translation only: the result must be written (delays and refusals
 * of writes are a mechanism's business: it holds the result back before write-back). */
static unsigned exec_write_phys(exec_blk *e, unsigned warp, unsigned reg, uint64_t now)
{
    if (rfaccess_chain_len(e->rf) == 0)
        return reg;
    rfaccess_req r = {.warp = warp, .reg = reg, .write = true, .cycle = now, .phys = reg, .refused_by = -1};
    rfaccess_run(e->rf, &r);
    return r.phys;
}

static void exec_writeback(exec_blk *e, uint64_t now)
{
    pipe_result res[16];
    unsigned n = pipe_writeback(e->pipes, e->n_pipes, now, e->wb_ports, res);
    for (unsigned i = 0; i < n; i++) {
        uint32_t slot = (uint32_t)res[i].payload;
        release_t *r = ring_push_slot(&e->releases);
        *r = *(const release_t *)mem_slots_at(&e->in_pipes, slot);
        mem_slots_put_back(&e->in_pipes, slot);
        for (unsigned j = 0; j < r->n_bank_dst; j++)
            bankmap_queues_push_write(
                e->banks, bankmap_bank(&e->map, exec_write_phys(e, r->warp, r->bank_dst[j], now), r->warp, 0),
                r->bank_dst[j]);
    }
}

/* Completions and read reports go to issue in the order they were made (a FIFO may be full). */
static void exec_flush_releases(exec_blk *e)
{
    gsc_fifo *out = blk_fifo(e->inst, EXEC_RELEASE);
    while (!ring_empty(&e->releases) && gsc_fifo_can_put(out)) {
        gsc_fifo_put(out, ring_peek(&e->releases));
        ring_pop(&e->releases, NULL);
    }
}

/* Source reservations: the collector has read every operand (its last bank read was granted this
 * cycle, or it had none): tell issue, which releases the sources' read reservations. */
static void exec_report_reads(exec_blk *e, const exec_coll *co)
{
    if (co->it.report_reads)
        release_init_reads(ring_push_slot(&e->releases), &co->it, sm_unit_of_class((ir_class)co->it.cls));
}

/* One operand read through the register access path, then to its bank's queue. */
static void exec_read(exec_blk *e, unsigned coll, unsigned reg, unsigned warp, uint64_t now)
{
    unsigned phys = reg;
    if (rfaccess_chain_len(e->rf) > 0) {
        rfaccess_req r = {
            .warp = warp, .reg = reg, .write = false, .cycle = now, .phys = reg, .refused_by = -1};
        rfaccess_verdict v = rfaccess_run(e->rf, &r);
        if (v != RFACCESS_ALLOW) {
            exec_deferred d = {coll, reg, warp, v == RFACCESS_DELAY ? now + r.delay : 0};
            g_array_append_val(e->deferred, d);
            blk_stat_add(e->inst, EXEC_STAT_RF_DEFERRED, 1);
            return;
        }
        phys = r.phys;
    }
    bankmap_queues_push_read(e->banks, bankmap_bank(&e->map, phys, warp, 0), coll, coll);
}

/* Reads the chain delayed (due now) or refused (run it again). */
static void exec_deferred_reads(exec_blk *e, uint64_t now)
{
    guint n = e->deferred->len;
    exec_deferred *d = g_memdup2(e->deferred->data, n * sizeof *d);
    g_array_set_size(e->deferred, 0);
    for (guint i = 0; i < n; i++) {
        if (d[i].due > now) {
            g_array_append_val(e->deferred, d[i]);
        } else if (d[i].due) { /* a delay has been served: the access goes on (translation kept) */
            rfaccess_req r = {
                .warp = d[i].warp, .reg = d[i].reg, .cycle = now, .phys = d[i].reg, .refused_by = -1};
            rfaccess_run(e->rf, &r);
            bankmap_queues_push_read(e->banks, bankmap_bank(&e->map, r.phys, d[i].warp, 0), d[i].coll,
                                     d[i].coll);
        } else {
            exec_read(e, d[i].coll, d[i].reg, d[i].warp, now);
        }
    }
    g_free(d);
}

static void exec_allocate(exec_blk *e)
{
    gsc_fifo *in = blk_fifo(e->inst, EXEC_IN);
    while (gsc_fifo_can_get(in)) {
        const issued_t *it = gsc_fifo_peek(in);
        unsigned pool = pool_of(it->cls), c;
        for (c = 0; c < e->n_coll; c++)
            if (!e->coll[c].busy && e->coll[c].pool == pool)
                break;
        if (c == e->n_coll) {
            blk_stat_add(e->inst, EXEC_STAT_COLLECTOR_FULL, 1);
            return; /* in-order: the head waits for a collector */
        }
        exec_coll *co = &e->coll[c];
        gsc_fifo_get(in, &co->it);
        co->busy = true;
        co->dispatchable = false;
        co->age = e->seq++;
        co->pending = co->it.n_bank_src;
        for (unsigned j = 0; j < co->it.n_bank_src; j++)
            exec_read(e, c, co->it.bank_src[j], co->it.warp, gsc_cycle());
        if (co->pending == 0)
            exec_report_reads(e, co); /* no register read (immediates, predicates only) */
    }
}

static void exec_arbitrate(exec_blk *e)
{
    if (e->granted_reads->len) /* (a GLib call: not when empty) */
        g_array_set_size(e->granted_reads, 0);
    if (e->granted_writes->len)
        g_array_set_size(e->granted_writes, 0);
    bankmap_arb_result r = {0};
    bankmap_queues_step(e->banks, e->granted_reads, e->granted_writes, &r);
    blk_stat_add(e->inst, EXEC_STAT_BANK_READS, r.reads_granted);
    blk_stat_add(e->inst, EXEC_STAT_BANK_WRITES, r.writes_granted);
    blk_stat_add(e->inst, EXEC_STAT_BANK_CONFLICTS, r.bank_conflicts + r.collector_conflicts);
    e->tr_conflicts = r.bank_conflicts + r.collector_conflicts;
    for (guint i = 0; i < e->granted_reads->len; i++) {
        exec_coll *co = &e->coll[g_array_index(e->granted_reads, uint64_t, i)];
        g_assert(co->busy && co->pending > 0);
        if (--co->pending == 0)
            exec_report_reads(e, co);
    }
}

enum { EXEC_MAX_COLL = 2 * 64 }; /* collectors_sp + collectors_sfu, each at most 64 */

/* Collectors complete in an earlier cycle go to a pipe, oldest first; one that finds no free pipe
 * of its unit waits for the next cycle. */
static void exec_dispatch(exec_blk *e, uint64_t now)
{
    e->tr_dispatched = 0;
    /* the candidates, by age (an insertion sort: a few per cycle) */
    unsigned cand[EXEC_MAX_COLL], nc = 0;
    for (unsigned c = 0; c < e->n_coll; c++) {
        const exec_coll *co = &e->coll[c];
        if (!co->busy || !co->dispatchable)
            continue;
        unsigned j = nc++;
        for (; j > 0 && e->coll[cand[j - 1]].age > co->age; j--)
            cand[j] = cand[j - 1];
        cand[j] = c;
    }
    for (unsigned k = 0; k < nc; k++) {
        exec_coll *best = &e->coll[cand[k]];
        sm_unit u = sm_unit_of_class((ir_class)best->it.cls);
        unsigned p;
        for (p = 0; p < e->n_pipes; p++)
            if (e->pipe_unit[p] == u && pipe_can_accept(e->pipes[p], now))
                break;
        if (p == e->n_pipes) {
            blk_stat_add(e->inst, EXEC_STAT_UNIT_BUSY, 1);
            best->dispatchable = false; /* retried next cycle (re-marked below) */
            continue;
        }
        unsigned lat, ii;
        exec_op_timing(e, best->it.cls, best->it.op, &lat, &ii);
        uint32_t slot = mem_slots_take(&e->in_pipes);
        release_t *r = mem_slots_at(&e->in_pipes, slot);
        memset(r, 0, sizeof *r);
        r->seq = best->it.seq;
        r->warp = best->it.warp;
        r->n_dst = best->it.n_dst;
        memcpy(r->dst, best->it.dst, sizeof r->dst);
        r->n_bank_dst = best->it.n_bank_dst;
        memcpy(r->bank_dst, best->it.bank_dst, sizeof r->bank_dst);
        r->unit = (uint8_t)u;
        pipe_accept_op(e->pipes[p], now, slot, lat, ii);
        blk_stat_add(e->inst, EXEC_STAT_DISPATCHED, 1);
        blk_stat_add(e->inst, EXEC_STAT_BY_UNIT0 + u, 1);
        e->tr_dispatched++;
        best->busy = false;
    }
    /* Operands read this cycle (or waiting for a pipe) make their collector dispatchable next cycle. */
    e->tr_busy_coll = 0;
    for (unsigned c = 0; c < e->n_coll; c++) {
        exec_coll *co = &e->coll[c];
        if (co->busy) {
            e->tr_busy_coll++;
            if (co->pending == 0)
                co->dispatchable = true;
        }
    }
}

static void exec_run(void *self)
{
    exec_blk *e = self;
    uint64_t now = gsc_cycle();
    exec_writeback(e, now);
    if (e->deferred->len)
        exec_deferred_reads(e, now);
    exec_allocate(e);
    exec_arbitrate(e);
    exec_dispatch(e, now);
    exec_flush_releases(e);
    /* (an input refused for want of a collector is taken once dispatch has freed one) */
    bool busy = e->tr_busy_coll > 0 || e->deferred->len > 0 || !ring_empty(&e->releases) ||
                bankmap_queues_pending(e->banks) > 0 || gsc_fifo_can_get(blk_fifo(e->inst, EXEC_IN));
    if (busy) {
        gsc_run_within(1);
        return;
    }
    uint64_t next = PIPE_NONE;
    for (unsigned p = 0; p < e->n_pipes; p++) {
        uint64_t done = pipe_next_completion(e->pipes[p]); /* (not inside MIN: called twice) */
        next = MIN(next, done);
    }
    if (next != PIPE_NONE)
        gsc_run_within(next > now ? next - now : 1);
}

static void exec_elaborate(void *self)
{
    exec_blk *e = self;
    gsc_process *p = gsc_process_new(e->inst->mod, "run", exec_run, e);
    gsc_sensitive_fifo_put(p, blk_fifo(e->inst, EXEC_IN));
    gsc_sensitive_fifo_get(p, blk_fifo(e->inst, EXEC_RELEASE));
}

static void add_pipes(exec_blk *e, sm_unit u, const char *count, const char *lat, const char *ii)
{
    unsigned n = (unsigned)blk_param_uint(e->inst, count);
    for (unsigned i = 0; i < n; i++) {
        g_assert(e->n_pipes < G_N_ELEMENTS(e->pipes));
        pipe_config pc = {(unsigned)blk_param_uint(e->inst, lat), (unsigned)blk_param_uint(e->inst, ii), 0,
                          false};
        e->pipe_unit[e->n_pipes] = u;
        e->pipes[e->n_pipes++] = pipe_new(&pc);
    }
}

exec_blk *exec_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned group, unsigned groups)
{
    exec_blk *e = g_new0(exec_blk, 1);
    e->inst = blk_inst_new(ctx, parent, name, &exec_desc);
    e->group = group;
    e->groups = groups;
    unsigned banks = (unsigned)blk_param_uint(e->inst, "banks");
    e->map = (bankmap){blk_param_enum(e->inst, "bank_fn") == 0 ? BANKMAP_REG_PLUS_WARP : BANKMAP_REG, banks,
                       1, NULL, NULL};
    unsigned nsp = (unsigned)blk_param_uint(e->inst, "collectors_sp");
    unsigned nsfu = (unsigned)blk_param_uint(e->inst, "collectors_sfu");
    e->n_coll = nsp + nsfu;
    g_assert(e->n_coll <= EXEC_MAX_COLL);
    e->coll = g_new0(exec_coll, e->n_coll);
    for (unsigned c = nsp; c < e->n_coll; c++)
        e->coll[c].pool = 1;
    bankmap_arb_config ac = {banks, (unsigned)blk_param_uint(e->inst, "bank_ports"), e->n_coll, 0};
    e->banks = bankmap_queues_new(&ac);
    add_pipes(e, SM_UNIT_SP, "sp_units", "sp_latency", "sp_ii");
    add_pipes(e, SM_UNIT_SFU, "sfu_units", "sfu_latency", "sfu_ii");
    add_pipes(e, SM_UNIT_INT, "int_units", "int_latency", "int_ii");
    add_pipes(e, SM_UNIT_DP, "dp_units", "dp_latency", "dp_ii");
    e->wb_ports = (unsigned)blk_param_uint(e->inst, "wb_ports");
    unsigned simd = (unsigned)blk_param_uint(e->inst, "simd_width");
    e->passes = (IR_WARP_SIZE + simd - 1) / simd;
    static const char *const tnames[EXEC_T_COUNT] = {
        "sp_latency", "sp_ii",       "mad_latency", "int_latency", "int_ii", "div_latency",
        "div_ii",     "sfu_latency", "sfu_ii",      "dp_latency",  "dp_ii"};
    for (unsigned i = 0; i < EXEC_T_COUNT; i++) /* looked up once: not on the dispatch path */
        e->timing[i] = (unsigned)blk_param_uint(e->inst, tnames[i]);
    g_assert(e->wb_ports <= 16);
    ring_init(&e->releases, sizeof(release_t));
    mem_slots_init(&e->in_pipes, sizeof(release_t));
    e->granted_reads = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    e->granted_writes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    e->rf = rfaccess_chain_new();
    e->deferred = g_array_new(FALSE, FALSE, sizeof(exec_deferred));
    blk_trace_state(e->inst, "busy_collectors", GSC_U32, &e->tr_busy_coll);
    blk_trace_state(e->inst, "dispatched", GSC_U32, &e->tr_dispatched);
    blk_trace_state(e->inst, "conflicts", GSC_U32, &e->tr_conflicts);
    blk_inst_on_elaborate(e->inst, exec_elaborate, e);
    return e;
}

void exec_free(exec_blk *e)
{
    if (!e)
        return;
    for (unsigned p = 0; p < e->n_pipes; p++)
        pipe_free(e->pipes[p]); /* payloads are indices into in_pipes */
    ring_clear(&e->releases);
    mem_slots_clear(&e->in_pipes);
    bankmap_queues_free(e->banks);
    g_array_free(e->granted_reads, TRUE);
    g_array_free(e->granted_writes, TRUE);
    g_array_free(e->deferred, TRUE);
    rfaccess_chain_free(e->rf);
    g_free(e->coll);
    g_free(e);
}
