/* dram_blk.c — the `dram` block; see dram_blk.h. */
#include "models/mem/dram_blk.h"

#include <string.h>

#include "models/core/stats.h"

static const char *const sched_names[] = {"fcfs", "fcfs-banks", "frfcfs", NULL};

/* GDDR timing defaults: GPGPU-Sim's GTX480 gpgpu_dram_timing_opt (RRD=6 RCD=12 RAS=28 RP=12 RC=40 CL=12
 * CDLR=5 WR=12), which are also the resource-sharing spec's Table 2.3 values. */
static const blk_param_desc params[] = {
    {"scheduler", BLK_PARAM_ENUM, "fcfs", NULL, NULL, sched_names, "",
     "fcfs: the data bus and a fixed latency, oldest first; fcfs-banks: banks, row buffers and the t* "
     "timing, oldest first; frfcfs: the same, row hits first [A: fcfs]"},
    {"latency", BLK_PARAM_UINT, "100", "0", "100000", NULL, "cycles",
     "cycles from the end of the bus transfer to the reply [S: GTX480 dram_latency 100]"},
    {"bytes_per_cycle", BLK_PARAM_UINT, "42", "1", "4096", NULL, "bytes",
     "data bus bandwidth per core cycle [D: 2 chips x 4 B x QDR at 924 MHz / 700 MHz = 42.2]"},
    {"queue_depth", BLK_PARAM_UINT, "16", "1", "4096", NULL, "requests",
     "scheduler queue entries [S: gpgpu_frfcfs_dram_sched_queue_size 16]"},
    {"banks", BLK_PARAM_UINT, "16", "1", "256", NULL, "banks",
     "banks, for the address mapping (FR-FCFS later) [S: gpgpu_dram_timing_opt nbk=16]"},
    {"row_bytes", BLK_PARAM_UINT, "2048", "64", "1048576", NULL, "bytes",
     "bytes per row per bank, a power of two, for the address mapping [A]"},
    {"bank_bytes", BLK_PARAM_UINT, "0", "0", "1048576", NULL, "bytes",
     "consecutive bytes in one bank before the next (a power of two up to row_bytes; 0: row_bytes) [A]"},
    {"tCL", BLK_PARAM_UINT, "12", "1", "1000", NULL, "cycles", "column command to data [S: GTX480 CL=12]"},
    {"tRP", BLK_PARAM_UINT, "12", "1", "1000", NULL, "cycles", "precharge to activate [S: GTX480 RP=12]"},
    {"tRC", BLK_PARAM_UINT, "40", "1", "1000", NULL, "cycles",
     "activate to activate, same bank [S: GTX480 RC=40]"},
    {"tRAS", BLK_PARAM_UINT, "28", "1", "1000", NULL, "cycles", "activate to precharge [S: GTX480 RAS=28]"},
    {"tRCD", BLK_PARAM_UINT, "12", "1", "1000", NULL, "cycles",
     "activate to column command [S: GTX480 RCD=12]"},
    {"tRRD", BLK_PARAM_UINT, "6", "1", "1000", NULL, "cycles",
     "activate to activate, two banks [S: GTX480 RRD=6]"},
    {"tWR", BLK_PARAM_UINT, "12", "1", "1000", NULL, "cycles",
     "end of write data to precharge [S: GTX480 WR=12]"},
    {"tCDLR", BLK_PARAM_UINT, "5", "1", "1000", NULL, "cycles",
     "end of write data to a read command [S: GTX480 CDLR=5]"},
    {"in_depth", BLK_PARAM_UINT, "2", "1", "1024", NULL, "items", "depth of each req<k> FIFO"},
    {"resp_depth", BLK_PARAM_UINT, "4", "1", "1024", NULL, "items", "depth of each resp<k> FIFO"},
    {"e_access", BLK_PARAM_DOUBLE, "20480", "0", NULL, NULL, "pJ",
     "energy of a line read or write-back [A: the specs give none; about 20 pJ per bit of a 128-byte line]"},
    {"e_activate", BLK_PARAM_DOUBLE, "2000", "0", NULL, NULL, "pJ",
     "energy of a row activate and its precharge (banked schedulers only) [A: the specs give none; the "
     "order of a GDDR row cycle]"},
    {"e_mc_request", BLK_PARAM_DOUBLE, "50", "0", NULL, NULL, "pJ",
     "energy of the memory controller scheduling one read or write-back (queue, scheduler, command "
     "generation; the DRAM's own is e_access) [A: the order of an L2 access]"},
};

static double dram_util(const blk_inst *inst)
{
    return stats_ratio(blk_stat_get(inst, DRAM_STAT_BUSY_CYCLES),
                       blk_domain_cycles(inst->domain, gsc_cycle()));
}
static double dram_avg_latency(const blk_inst *inst)
{
    return stats_ratio(blk_stat_get(inst, DRAM_STAT_LATENCY), blk_stat_get(inst, DRAM_STAT_READS));
}

static const blk_stat_desc stats[] = {
    [DRAM_STAT_READS] = {"reads", BLK_STAT_COUNTER, "requests", "line reads served", NULL},
    [DRAM_STAT_WRITES] = {"writes", BLK_STAT_COUNTER, "requests", "write-backs served", NULL},
    [DRAM_STAT_BUSY_CYCLES] = {"busy_cycles", BLK_STAT_COUNTER, "cycles", "cycles the data bus transferred",
                               NULL},
    [DRAM_STAT_QUEUE_FULL] = {"queue_full", BLK_STAT_COUNTER, "cycles",
                              "cycles a request waited in a req FIFO because the queue was full", NULL},
    [DRAM_STAT_LATENCY] = {"read_latency_sum", BLK_STAT_COUNTER, "cycles",
                           "sum over reads of cycles from entering the queue to the reply", NULL},
    [DRAM_STAT_UTIL] = {"utilisation", BLK_STAT_DERIVED, "fraction", "busy_cycles / cycles", dram_util},
    [DRAM_STAT_AVG_LATENCY] = {"avg_read_latency", BLK_STAT_DERIVED, "cycles", "read_latency_sum / reads",
                               dram_avg_latency},
    [DRAM_STAT_ROW_HITS] = {"row_hits", BLK_STAT_COUNTER, "requests",
                            "requests that found their row open (banked schedulers)", NULL},
    [DRAM_STAT_ROW_MISSES] = {"row_misses", BLK_STAT_COUNTER, "requests",
                              "requests that found their bank closed or another row open", NULL},
    [DRAM_STAT_ACTIVATES] = {"activates", BLK_STAT_COUNTER, "commands", "row activates", NULL},
    [DRAM_STAT_PRECHARGES] = {"precharges", BLK_STAT_COUNTER, "commands",
                              "precharges (a row closed for another)", NULL},
};

static const blk_energy_event energy_events[] = {
    {"read", "reads", "e_access", BLK_COMP_DRAMP},
    {"write", "writes", "e_access", BLK_COMP_DRAMP},
    {"activate", "activates", "e_activate", BLK_COMP_DRAMP},
    {"mc_read", "reads", "e_mc_request", BLK_COMP_MCP},
    {"mc_write", "writes", "e_mc_request", BLK_COMP_MCP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"queued", 16, "requests in the scheduler queue"},
    {"busy", 1, "the data bus is transferring"},
};

static const char *const sched_methods[] = {"pick(channel, queue, n, cycle) -> the request to serve", NULL};
const blk_iface dram_sched_iface = {"dram_sched", "a DRAM request scheduler", sched_methods, {NULL}, {0}};

static const blk_port_desc ports[] = {
    [DRAM_PORT_REQ] = {"req%u", GSC_IN, &mem_req_type, BLK_CHAN_FIFO, "in_depth",
                       "requests of sub-partition %u", NULL, 0, DRAM_MAX_PORTS},
    [DRAM_PORT_RESP] = {"resp%u", GSC_OUT, &mem_resp_type, BLK_CHAN_FIFO, "resp_depth",
                        "responses to sub-partition %u", NULL, 0, DRAM_MAX_PORTS},
    [DRAM_PORT_SCHED] = {"scheduler", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                         "the request scheduler (unbound: the `scheduler` parameter's)", &dram_sched_iface,
                         BLK_PORT_OPTIONAL},
};

const blk_desc dram_blk_desc = {
    "dram",
    "one DRAM channel: request queue, scheduler (FCFS or FR-FCFS, or the bound `scheduler`), banks with row "
    "buffers and GDDR timing (banked schedulers), bus bandwidth, latency",
    "docs/baseline-design.md §2.3, §5.3; GPGPU-Sim GTX480 dram_* keys",
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

typedef struct {
    mem_req_t req;
    unsigned port;
    uint64_t got;
} dram_blk_slot;

/* Take requests round-robin over the req<k> FIFOs while the scheduler queue has room. */
static void dram_blk_accept(dram_blk *b, uint64_t now)
{
    bool took = true;
    while (took) {
        took = false;
        for (unsigned n = 0; n < b->n_ports; n++) {
            unsigned k = b->rr + n < b->n_ports ? b->rr + n : b->rr + n - b->n_ports;
            gsc_fifo *f = b->req_fifo[k];
            if (!gsc_fifo_can_get(f))
                continue;
            if (!dram_can_push(b->core)) {
                if (b->full_since == UINT64_MAX)
                    b->full_since = now;
                return;
            }
            if (b->full_since != UINT64_MAX) { /* counted when the wait ends */
                blk_stat_add(b->inst, DRAM_STAT_QUEUE_FULL, now - b->full_since);
                b->full_since = UINT64_MAX;
            }
            uint32_t s = mem_slots_take(&b->reqs);
            dram_blk_slot *sl = mem_slots_at(&b->reqs, s);
            gsc_fifo_get(f, &sl->req);
            sl->port = k;
            sl->got = now;
            dram_push(b->core, now, sl->req.addr, sl->req.bytes, sl->req.kind != MEM_READ, s);
            b->rr = k + 1 < b->n_ports ? k + 1 : 0;
            took = true;
            break;
        }
    }
}

static void dram_blk_reply(dram_blk *b, uint64_t now)
{
    dram_req r;
    while (dram_pop_done(b->core, now, &r)) {
        dram_blk_slot *sl = mem_slots_at(&b->reqs, (uint32_t)r.tag);
        if (r.write) {
            blk_stat_add(b->inst, DRAM_STAT_WRITES, 1);
            mem_slots_put_back(&b->reqs, (uint32_t)r.tag);
            continue;
        }
        blk_stat_add(b->inst, DRAM_STAT_READS, 1);
        blk_stat_add(b->inst, DRAM_STAT_LATENCY, now - sl->got);
        if (b->done.length == b->done.cap) {
            b->done.cap = b->done.cap ? 2 * b->done.cap : 16;
            b->done.slot = g_renew(uint32_t, b->done.slot, b->done.cap);
        }
        b->done.slot[b->done.length++] = (uint32_t)r.tag;
    }
    /* Replies leave in completion order per port; a full resp FIFO holds back only its own port
     * (those kept close up, in their order). */
    unsigned kept = 0;
    for (unsigned i = 0; i < b->done.length; i++) {
        uint32_t s = b->done.slot[i];
        dram_blk_slot *sl = mem_slots_at(&b->reqs, s);
        gsc_fifo *f = b->resp_fifo[sl->port];
        if (gsc_fifo_can_put(f)) {
            /* made in its slot of the FIFO: a read's reply carries the header and the line (mem_resp_used) */
            mem_resp_t *resp = gsc_fifo_put_slot(f);
            memset(resp, 0, offsetof(mem_resp_t, data));
            resp->addr = sl->req.addr;
            resp->id = sl->req.id;
            resp->bytes = sl->req.bytes;
            resp->dst = sl->req.src;
            resp->warp = sl->req.warp;
            resp->kind = MEM_READ;
            resp->client = sl->req.client;
            mem_line_fill(b->mem, sl->req.addr, MIN(sl->req.bytes, (unsigned)MEM_LINE_MAX), resp->data);
            gsc_fifo_put_commit(f);
            mem_slots_put_back(&b->reqs, s);
        } else {
            b->done.slot[kept++] = s;
        }
    }
    b->done.length = kept;
}

/* The core's row counters since the last call, into the statistics. */
static void dram_blk_count_rows(dram_blk *b)
{
    const dram_counts *c = dram_get_counts(b->core);
    blk_stat_add(b->inst, DRAM_STAT_ROW_HITS, c->row_hits - b->counted.row_hits);
    blk_stat_add(b->inst, DRAM_STAT_ROW_MISSES, c->row_misses - b->counted.row_misses);
    blk_stat_add(b->inst, DRAM_STAT_ACTIVATES, c->activates - b->counted.activates);
    blk_stat_add(b->inst, DRAM_STAT_PRECHARGES, c->precharges - b->counted.precharges);
    b->counted = *c;
}

static void dram_blk_run(void *self)
{
    dram_blk *b = self;
    const blk_domain *d = b->inst->domain;
    uint64_t core = gsc_cycle(), now;
    if (!blk_domain_at_edge(d, b->wake, core, &now))
        return;
    dram_blk_accept(b, now);
    /* The starts due by now: one in the core clock's domain; in a faster domain, one per edge of
     * its own taken in this core cycle at most. */
    uint64_t start;
    while ((start = dram_next_start(b->core)) <= now && dram_step(b->core, start)) {
        b->bus_until = dram_bus_free(b->core);
        if (b->cfg.banked)
            dram_blk_count_rows(b);
        if (b->full_since != UINT64_MAX) /* a request found the queue full: the start made room */
            dram_blk_accept(b, now);
    }
    dram_blk_reply(b, now);
    b->queued = (uint16_t)dram_queued(b->core);
    b->busy = now < b->bus_until;
    uint64_t next = dram_next_event(b->core);
    if (b->busy_traced && b->bus_until > now)
        next = MIN(next, b->bus_until); /* to drop the traced busy flag on time */
    bool inputs = false;
    for (unsigned k = 0; k < b->n_ports; k++)
        inputs |= gsc_fifo_can_get(b->req_fifo[k]);
    if (inputs && dram_can_push(b->core))
        next = MIN(next, now + 1);
    if (next != UINT64_MAX)
        blk_domain_notify(d, b->wake, core, MAX(next, now + 1));
}

static void dram_blk_elaborate(void *self)
{
    dram_blk *b = self;
    blk_iref r = blk_import(b->inst, DRAM_PORT_SCHED, 0);
    b->sched = r.methods, b->sched_self = r.self;
    gsc_process *p = gsc_process_new(b->inst->mod, "run", dram_blk_run, b);
    for (unsigned k = 0; k < b->n_ports; k++) {
        b->req_fifo[k] = gsc_port_fifo(b->req[k]);
        b->resp_fifo[k] = gsc_port_fifo(b->resp[k]);
        gsc_sensitive_fifo_put(p, b->req_fifo[k]);
        gsc_sensitive_fifo_room(p, b->resp_fifo[k]);
    }
    gsc_sensitive_event(p, b->wake);
}

/* The scheduler hook: the bound `scheduler`, else the `scheduler` parameter's choice; counts each
 * started burst for the utilisation statistic. */
static unsigned dram_blk_sched(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                               void *ctx)
{
    dram_blk *b = ctx;
    unsigned pick =
        b->sched ? b->sched->pick(b->sched_self, ch, queue, n, cycle) : b->pick(ch, queue, n, cycle, NULL);
    g_assert(pick < n);
    blk_stat_add(b->inst, DRAM_STAT_BUSY_CYCLES, dram_burst_cycles(&b->cfg, queue[pick].bytes));
    return pick;
}

dram_blk *dram_blk_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned n_ports)
{
    g_assert(n_ports > 0 && n_ports <= DRAM_MAX_PORTS);
    dram_blk *b = g_new0(dram_blk, 1);
    unsigned counts[BLK_N(ports)] = {[DRAM_PORT_REQ] = n_ports, [DRAM_PORT_RESP] = n_ports};
    b->inst = blk_inst_new_arrays(ctx, parent, name, &dram_blk_desc, counts);
    b->inst->self = b;
    b->full_since = UINT64_MAX;
    b->mem = mem;
    b->n_ports = n_ports;
    b->cfg = (dram_config){
        .latency = (unsigned)blk_param_uint(b->inst, "latency"),
        .bytes_per_cycle = (unsigned)blk_param_uint(b->inst, "bytes_per_cycle"),
        .queue_depth = (unsigned)blk_param_uint(b->inst, "queue_depth"),
        .banks = (unsigned)blk_param_uint(b->inst, "banks"),
        .row_bytes = (unsigned)blk_param_uint(b->inst, "row_bytes"),
        .bank_bytes = (unsigned)blk_param_uint(b->inst, "bank_bytes"),
        .banked = blk_param_enum(b->inst, "scheduler") != DRAM_SCHED_FCFS,
        .timing = {.tCL = (unsigned)blk_param_uint(b->inst, "tCL"),
                   .tRP = (unsigned)blk_param_uint(b->inst, "tRP"),
                   .tRC = (unsigned)blk_param_uint(b->inst, "tRC"),
                   .tRAS = (unsigned)blk_param_uint(b->inst, "tRAS"),
                   .tRCD = (unsigned)blk_param_uint(b->inst, "tRCD"),
                   .tRRD = (unsigned)blk_param_uint(b->inst, "tRRD"),
                   .tWR = (unsigned)blk_param_uint(b->inst, "tWR"),
                   .tCDLR = (unsigned)blk_param_uint(b->inst, "tCDLR")},
    };
    b->pick = blk_param_enum(b->inst, "scheduler") == DRAM_SCHED_FRFCFS ? dram_sched_frfcfs : dram_sched_fcfs;
    if (b->cfg.row_bytes & (b->cfg.row_bytes - 1))
        gsc_fatal("%s: row_bytes %u is not a power of two", b->inst->path, b->cfg.row_bytes);
    if (b->cfg.bank_bytes & (b->cfg.bank_bytes - 1) || b->cfg.bank_bytes > b->cfg.row_bytes)
        gsc_fatal("%s: bank_bytes %u is not a power of two up to row_bytes (%u)", b->inst->path,
                  b->cfg.bank_bytes, b->cfg.row_bytes);
    b->core = dram_new(&b->cfg);
    dram_set_scheduler(b->core, dram_blk_sched, b);
    b->req = g_new(gsc_port *, n_ports);
    b->resp = g_new(gsc_port *, n_ports);
    b->req_fifo = g_new0(gsc_fifo *, n_ports);
    b->resp_fifo = g_new0(gsc_fifo *, n_ports);
    for (unsigned k = 0; k < n_ports; k++) {
        b->req[k] = blk_port_at(b->inst, DRAM_PORT_REQ, k);
        b->resp[k] = blk_port_at(b->inst, DRAM_PORT_RESP, k);
    }
    mem_slots_init(&b->reqs, sizeof(dram_blk_slot));
    b->wake = gsc_event_new(b->inst->mod, "wake");
    blk_trace_state(b->inst, "queued", GSC_U16, &b->queued);
    blk_trace_state(b->inst, "busy", GSC_U8, &b->busy);
    gsc_trace_var_flag(b->inst->mod, "busy", &b->busy_traced);
    blk_inst_on_elaborate(b->inst, dram_blk_elaborate, b);
    return b;
}

void dram_blk_free(dram_blk *b)
{
    if (!b)
        return;
    dram_free(b->core);
    g_free(b->req);
    g_free(b->resp);
    g_free(b->req_fifo);
    g_free(b->resp_fifo);
    mem_slots_clear(&b->reqs);
    g_free(b->done.slot);
    g_free(b);
}

gsc_port *dram_blk_req(const dram_blk *b, unsigned k)
{
    g_assert(k < b->n_ports);
    return b->req[k];
}
gsc_port *dram_blk_resp(const dram_blk *b, unsigned k)
{
    g_assert(k < b->n_ports);
    return b->resp[k];
}
unsigned dram_blk_in_depth(const dram_blk *b)
{
    return (unsigned)blk_param_uint(b->inst, "in_depth");
}
unsigned dram_blk_resp_depth(const dram_blk *b)
{
    return (unsigned)blk_param_uint(b->inst, "resp_depth");
}
