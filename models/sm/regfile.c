/* regfile.c — see regfile.h. */
#include "models/sm/regfile.h"

#include <string.h>

typedef struct {
    unsigned coll, reg, warp;
    uint32_t func; /* the instruction (rfaccess_req.func, .seq) */
    uint64_t seq;
    uint64_t due; /* cycle from which it may go to its bank (delay), or 0: retry the chain */
} rf_deferred;

static const char *const regfile_methods[] = {
    "read(collector, warp, reg, func, seq, now): an operand read of instruction seq (of function func), "
    "through the access path to its bank's queue",
    "write(warp, reg, func, seq, now): a result's register to its bank's queue (translated by the access "
    "path)",
    "retry(now): the reads the access path deferred and that are due now go to their banks",
    "arbitrate(&granted) -> n: one cycle of bank arbitration (writes first); the granted reads' collectors",
    "pending() -> n: requests queued at a bank or deferred",
    NULL};
/* Traced calls: read and write (op 0 / 1), with the request's warp and register. */
const blk_iface regfile_iface = {"regfile",
                                 "the register banks: operand reads, result writes, arbitration",
                                 regfile_methods,
                                 {"op", "warp", "reg"},
                                 {1, 16, 16}};

static const char *const rfaccess_methods[] = {
    "access(request, &delay) -> ALLOW, DELAY (by *delay cycles) or RETRY; may rewrite request->phys", NULL};
const blk_iface rfaccess_iface = {
    "rfaccess", "a hook of the register access path (models/lib/rfaccess.h)", rfaccess_methods,
    {"write", "warp", "reg"}, {1, 16, 16}};

static const blk_port_desc ports[] = {
    [REGFILE_PORT] = {"regfile", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                      "the banks as the operand collector calls them", &regfile_iface},
    [REGFILE_ACCESS] = {"access", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                        "the register access chain: hooks run on every read and write, in binding order",
                        &rfaccess_iface, BLK_PORT_MULTI},
};

static const char *const bank_fns[] = {"reg_plus_warp", "reg", NULL};

static const blk_param_desc params[] = {
    {"banks", BLK_PARAM_UINT, "16", "1", "256", NULL, "banks", "register banks [S: GTX480 16]"},
    {"bank_fn", BLK_PARAM_ENUM, "reg_plus_warp", NULL, NULL, bank_fns, "",
     "bank of a register: (reg + warp) mod banks [S: GPGPU-Sim register_bank] or reg mod banks"},
    {"clusters", BLK_PARAM_UINT, "1", "1", "32", NULL, "clusters",
     "SIMT clusters the banks are split over: a warp-wide register is one entry of the same bank in every "
     "cluster, so a warp sees banks / clusters banks of 1024 / clusters-bit entries (models/lib/bankmap.h) "
     "[S: GTX480 1, whole-warp entries; register-renaming spec §2: 8]"},
    {"subarrays", BLK_PARAM_UINT, "1", "1", "64", NULL, "sub-arrays",
     "sub-arrays per bank (the unit of sub-array power gating) [A: 1; register-renaming spec §2: 4 x 1 KB]"},
    {"bank_ports", BLK_PARAM_UINT, "1", "1", "8", NULL, "accesses", "accesses per bank per cycle [A]"},
    {"collector_ports", BLK_PARAM_UINT, "0", "0", "8", NULL, "operands",
     "operands a collector accepts per cycle (its crossbar input ports; 0: unlimited) [S: RF-cache spec §3: "
     "1]"},
    {"traced_slots", BLK_PARAM_UINT, "0", "0", "4096", NULL, "slots",
     "register slots whose state is traced (slot_0 .. slot_N-1; 0: none)"},
    {"e_bank_read", BLK_PARAM_DOUBLE, "4.68", "0", NULL, NULL, "pJ",
     "energy of a bank read [S: register-renaming spec Table 2: 4 KB bank, 40 nm, CACTI 5.3]"},
    {"e_bank_write", BLK_PARAM_DOUBLE, "4.68", "0", NULL, NULL, "pJ",
     "energy of a bank write [S: as e_bank_read, the source gives one per-access energy]"},
    {"p_leak_bank", BLK_PARAM_DOUBLE, "2.8", "0", NULL, NULL, "mW",
     "leakage power of a bank, powered on [S: register-renaming spec Table 2: 4 KB bank, 40 nm]"},
};

static const blk_stat_desc stats[] = {
    [REGFILE_STAT_BANK_READS] = {"bank_reads", BLK_STAT_COUNTER, "accesses", "register bank reads", NULL},
    [REGFILE_STAT_BANK_WRITES] = {"bank_writes", BLK_STAT_COUNTER, "accesses", "register bank writes", NULL},
    [REGFILE_STAT_BANK_CONFLICTS] = {"bank_conflicts", BLK_STAT_COUNTER, "read-cycles",
                                     "cycles reads waited for their bank", NULL},
    [REGFILE_STAT_RF_DEFERRED] = {"rf_deferred", BLK_STAT_COUNTER, "reads",
                                  "reads the register access path delayed or refused", NULL},
};

static const blk_state_desc state[] = {
    {"reads", 6, "bank reads granted this cycle"},
    {"writes", 6, "bank writes granted this cycle"},
    {"conflicts", 6, "reads that waited for their bank this cycle"},
    {"pending", 8, "requests queued at a bank or deferred, after this cycle's arbitration"},
    {"slot_%u", 2, "state of register slot %u: 2 ON, 1 SLEEP, 0 OFF (the first traced_slots slots)"},
};

static const blk_energy_event energy_events[] = {
    {"bank_read", "bank_reads", "e_bank_read", BLK_COMP_RFP},
    {"bank_write", "bank_writes", "e_bank_write", BLK_COMP_RFP},
};
static const blk_energy_leak energy_leak[] = {{BLK_POWER_ON, "p_leak_bank", NULL}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), energy_leak, BLK_N(energy_leak),
                                       "banks"};

const blk_desc regfile_desc = {
    "regfile",
    "banked register file: bank map, bank ports, arbitration (writes first), per-slot state (passive)",
    "docs/baseline-design.md §2.2 regfile; §5.1",
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

static inline void push_read(regfile *r, unsigned coll, unsigned phys, unsigned warp)
{
    bankmap_queues_push_read(r->banks, bankmap_bank(&r->map, phys, warp, 0), coll, coll);
}

/* A register-access request of an instruction (its function and issue sequence number). */
static rfaccess_req rf_req(unsigned warp, unsigned reg, bool write, uint32_t func, uint64_t seq, uint64_t now)
{
    return (rfaccess_req){.warp = warp,
                          .reg = reg,
                          .write = write,
                          .has_instr = true,
                          .func = func,
                          .seq = seq,
                          .cycle = now,
                          .phys = reg,
                          .refused_by = -1};
}

/* One operand read through the register access path, then to its bank's queue. */
static void rf_read_chain(regfile *r, unsigned coll, unsigned warp, unsigned reg, uint32_t func, uint64_t seq,
                          uint64_t now)
{
    unsigned phys = reg;
    if (rfaccess_chain_len(r->rf) > 0) {
        rfaccess_req q = rf_req(warp, reg, false, func, seq, now);
        rfaccess_verdict v = rfaccess_run(r->rf, &q);
        if (v != RFACCESS_ALLOW) {
            rf_deferred d = {coll, reg, warp, func, seq, v == RFACCESS_DELAY ? now + q.delay : 0};
            g_array_append_val(r->deferred, d);
            blk_stat_add(r->inst, REGFILE_STAT_RF_DEFERRED, 1);
            return;
        }
        phys = q.phys;
    }
    push_read(r, coll, phys, warp);
}

static void rf_read(void *self, unsigned coll, unsigned warp, unsigned reg, uint32_t func, uint64_t seq,
                    uint64_t now)
{
    regfile *r = self;
    blk_call_note(r->probe, 0, warp, reg);
    if (rfaccess_chain_len(r->rf) == 0) { /* the baseline: straight to the bank */
        push_read(r, coll, reg, warp);
        return;
    }
    rf_read_chain(r, coll, warp, reg, func, seq, now);
}

/* A write runs the chain for its translation only: the result must be written (delays and refusals
 * of writes are a mechanism's business: it holds the result back before write-back). */
static void rf_write(void *self, unsigned warp, unsigned reg, uint32_t func, uint64_t seq, uint64_t now)
{
    regfile *r = self;
    blk_call_note(r->probe, 1, warp, reg);
    unsigned phys = reg;
    if (rfaccess_chain_len(r->rf) > 0) {
        rfaccess_req q = rf_req(warp, reg, true, func, seq, now);
        rfaccess_run(r->rf, &q);
        phys = q.phys;
    }
    bankmap_queues_push_write(r->banks, bankmap_bank(&r->map, phys, warp, 0), reg);
}

/* Reads the chain delayed (due now) or refused (run it again). */
static void rf_retry(void *self, uint64_t now)
{
    regfile *r = self;
    guint n = r->deferred->len;
    if (!n)
        return;
    rf_deferred *d = g_memdup2(r->deferred->data, n * sizeof *d);
    g_array_set_size(r->deferred, 0);
    for (guint i = 0; i < n; i++) {
        if (d[i].due > now) {
            g_array_append_val(r->deferred, d[i]);
        } else if (d[i].due) { /* a delay has been served: the access goes on (translation kept) */
            rfaccess_req q = {.warp = d[i].warp,
                              .reg = d[i].reg,
                              .has_instr = true,
                              .func = d[i].func,
                              .seq = d[i].seq,
                              .cycle = now,
                              .phys = d[i].reg,
                              .refused_by = -1};
            rfaccess_run(r->rf, &q);
            push_read(r, d[i].coll, q.phys, d[i].warp);
        } else {
            rf_read_chain(r, d[i].coll, d[i].warp, d[i].reg, d[i].func, d[i].seq, now);
        }
    }
    g_free(d);
}

static unsigned rf_arbitrate(void *self, const uint64_t **granted)
{
    regfile *r = self;
    bankmap_arb_result a = {0};
    unsigned n = bankmap_queues_step_reads(r->banks, granted, &a);
    blk_stat_add(r->inst, REGFILE_STAT_BANK_READS, a.reads_granted);
    blk_stat_add(r->inst, REGFILE_STAT_BANK_WRITES, a.writes_granted);
    blk_stat_add(r->inst, REGFILE_STAT_BANK_CONFLICTS, a.bank_conflicts + a.collector_conflicts);
    r->tr_reads = a.reads_granted;
    r->tr_writes = a.writes_granted;
    r->tr_conflicts = a.bank_conflicts + a.collector_conflicts;
    r->tr_pending = bankmap_queues_pending(r->banks) + r->deferred->len;
    return n;
}

static unsigned rf_pending(void *self)
{
    regfile *r = self;
    return bankmap_queues_pending(r->banks) + r->deferred->len;
}

static const regfile_if methods = {rf_read, rf_write, rf_retry, rf_arbitrate, rf_pending};

/* The access chain from the hooks bound to `access` (a mechanism binds them before elaboration). */
static void regfile_elaborate(void *self)
{
    regfile *r = self;
    for (unsigned i = 0; i < blk_import_n(r->inst, REGFILE_ACCESS, 0); i++) {
        blk_iref h = blk_import_nth(r->inst, REGFILE_ACCESS, 0, i);
        const rfaccess_hook_if *m = h.methods;
        rfaccess_chain_add(r->rf, m->name ? m->name : "hook", m->access, h.self);
    }
}

regfile *regfile_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned group, unsigned groups,
                     unsigned slots, unsigned collectors)
{
    regfile *r = g_new0(regfile, 1);
    r->inst = blk_inst_new(ctx, parent, name, &regfile_desc);
    r->group = group;
    r->groups = groups;
    r->geom = (bankmap_geom){(unsigned)blk_param_uint(r->inst, "banks"),
                             (unsigned)blk_param_uint(r->inst, "clusters"),
                             (unsigned)blk_param_uint(r->inst, "subarrays"), slots};
    const char *bad = bankmap_geom_error(&r->geom);
    if (bad)
        gsc_fatal("%s: %s (banks %u, clusters %u, sub-arrays %u, %u warp-wide registers)", r->inst->path, bad,
                  r->geom.banks, r->geom.clusters, r->geom.subarrays, slots);
    unsigned banks = bankmap_geom_warp_banks(&r->geom); /* the banks a warp sees: what the arbiter serves */
    r->map = (bankmap){blk_param_enum(r->inst, "bank_fn") == 0 ? BANKMAP_REG_PLUS_WARP : BANKMAP_REG, banks,
                       1, NULL, NULL};
    bankmap_arb_config ac = {banks, (unsigned)blk_param_uint(r->inst, "bank_ports"), collectors,
                             (unsigned)blk_param_uint(r->inst, "collector_ports")};
    r->banks = bankmap_queues_new(&ac);
    r->rf = rfaccess_chain_new();
    r->deferred = g_array_new(FALSE, FALSE, sizeof(rf_deferred));
    r->n_slots = slots;
    r->slot_state = g_malloc(slots ? slots : 1);
    memset(r->slot_state, REGFILE_SLOT_ON, slots);
    blk_export(r->inst, REGFILE_PORT, 0, &methods, r);
    r->probe = blk_export_probe(r->inst, REGFILE_PORT, 0);
    blk_trace_state(r->inst, "reads", GSC_U32, &r->tr_reads);
    blk_trace_state(r->inst, "writes", GSC_U32, &r->tr_writes);
    blk_trace_state(r->inst, "conflicts", GSC_U32, &r->tr_conflicts);
    gsc_trace_var_strobe(r->inst->mod, "reads");
    gsc_trace_var_strobe(r->inst->mod, "writes");
    gsc_trace_var_strobe(r->inst->mod, "conflicts");
    blk_trace_state(r->inst, "pending", GSC_U32, &r->tr_pending);
    unsigned traced = MIN((unsigned)blk_param_uint(r->inst, "traced_slots"), slots);
    for (unsigned i = 0; i < traced; i++) {
        char *n = g_strdup_printf("slot_%u", i);
        gsc_trace_var(r->inst->mod, n, GSC_U8, &r->slot_state[i], 2);
        g_free(n);
    }
    blk_inst_on_elaborate(r->inst, regfile_elaborate, r);
    return r;
}

uint8_t *regfile_slot_state(regfile *r)
{
    return r->slot_state;
}

const rfaccess_chain *regfile_access_chain(const regfile *r)
{
    return r->rf;
}

void regfile_free(regfile *r)
{
    if (!r)
        return;
    bankmap_queues_free(r->banks);
    g_array_free(r->deferred, TRUE);
    rfaccess_chain_free(r->rf);
    g_free(r->slot_state);
    g_free(r);
}
