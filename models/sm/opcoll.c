/* opcoll.c — see opcoll.h. */
#include "models/sm/opcoll.h"

#include <string.h>

#include "models/sm/ccu.h"

/* 16 bytes, four collectors to a cache line (the allocation's scan reads these; dispatch visits the
 * collectors of o->disp_m). Collector c's instruction is o->its[c], in the block's own array (only its
 * header fields are used, no addresses), read on allocation and dispatch. */
struct opcoll_coll {
    uint8_t pool;      /* 0 SP/INT, 1 SFU/DP */
    uint8_t cls;       /* its instruction's ir_class (the unit it asks for) */
    unsigned pending;  /* operand reads not yet granted */
    uint64_t age;
};

static const blk_port_desc ports[] = {
    [OPCOLL_IN] = {"in", GSC_IN, &issued_type, BLK_CHAN_FIFO, "in_depth", "issued instructions (non-memory)"},
    [OPCOLL_RELEASE] = {"release", GSC_OUT, &release_type, BLK_CHAN_FIFO, NULL,
                        "completions and read reports to issue"},
    [OPCOLL_REGFILE] = {"regfile", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                        "the register banks: operand reads, result writes, arbitration", &regfile_iface},
    [OPCOLL_UNITS] = {"units", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the execution pipes and write-back",
                      &units_iface},
};

static const char *const collector_names[] = {"ocu", "ocu_random", "ccu", "ccu_lru", "ccu_pr",
                                              "bow", "rfc_2lev",   "rfc", "sw_rfc",  NULL};

static const blk_param_desc params[] = {
    {"collectors_sp", BLK_PARAM_UINT, "6", "1", "64", NULL, "units",
     "collector units for SP/INT [S: GTX480 6]"},
    {"collectors_sfu", BLK_PARAM_UINT, "8", "0", "64", NULL, "units",
     "collector units for SFU/DP [S: GTX480 8]; 0: one generic pool of collectors_sp for every class"},
    {"collector", BLK_PARAM_ENUM, "ocu", NULL, NULL, collector_names, "",
     "collector type: ocu (first free collector when the instruction arrives), or allocated at issue by "
     "a `ccu` block (sub-core SM): ocu_random (random free collector, issue only with one free), ccu "
     "(Malekeh's cached collectors), ccu_lru (LRU-cached ablation), ccu_pr (private CCUs), bow (BOW-like "
     "per-warp windows), rfc_2lev (two-level scheduler), rfc / sw_rfc (it with a register-file cache per "
     "active warp) [docs/rfcache.md]"},
    {"in_depth", BLK_PARAM_UINT, "4", "1", "64", NULL, "items",
     "depth of the input FIFO (4: two schedulers can put every cycle while the block drains it) [A]"},
    {"e_operand_fill", BLK_PARAM_DOUBLE, "1.14", "0", NULL, NULL, "pJ",
     "energy of writing an operand read from a bank into a collector [A: the specs give none; the "
     "register-renaming spec's 1 KB table access (Table 2, 40 nm) as a small array of that size]"},
    {"e_operand_read", BLK_PARAM_DOUBLE, "1.14", "0", NULL, NULL, "pJ",
     "energy of reading an operand out of a collector at dispatch [A: as e_operand_fill]"},
};

static const blk_stat_desc stats[] = {
    [OPCOLL_STAT_DISPATCHED] = {"dispatched", BLK_STAT_COUNTER, "instructions", "instructions sent to a pipe",
                                NULL},
    [OPCOLL_STAT_COLLECTOR_FULL] = {"collector_full", BLK_STAT_COUNTER, "cycles",
                                    "cycles an instruction waited for a collector", NULL},
    [OPCOLL_STAT_UNIT_BUSY] = {"unit_busy", BLK_STAT_COUNTER, "cycles",
                               "cycles a ready collector waited for its pipe", NULL},
    [OPCOLL_STAT_OPERAND_FILLS] = {"operand_fills", BLK_STAT_COUNTER, "operands",
                                   "operands written into a collector (one per granted bank read)", NULL},
    [OPCOLL_STAT_OPERAND_READS] = {"operand_reads", BLK_STAT_COUNTER, "operands",
                                   "operands read out of a collector at dispatch", NULL},
};

static const blk_energy_event energy_events[] = {
    {"operand_fill", "operand_fills", "e_operand_fill", BLK_COMP_RFP},
    {"operand_read", "operand_reads", "e_operand_read", BLK_COMP_RFP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"busy_collectors", 6, "collector units holding an instruction"},
    {"dispatched", 3, "instructions sent to pipes this cycle"},
    {"occupied", 64, "collectors holding an instruction, bit c = collector c (the first 64)"},
    {"ready", 64, "collectors whose operands are all read (dispatchable), bit c = collector c"},
};

const blk_desc opcoll_desc = {
    "opcoll",
    "operand collectors: allocation, operand reads through regfile, dispatch to units, write-back",
    "docs/baseline-design.md §2.2 opcoll; §5.1-5.2",
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

static unsigned pool_of(uint8_t cls)
{
    return cls == IR_CLASS_SFU || cls == IR_CLASS_DP ? 1 : 0;
}

void opcoll_set_ccu(opcoll *o, struct ccu_blk *c)
{
    o->ccu = c;
}

/* The results complete by now: their bank writes; they go to issue in the order they were made
 * (opcoll_flush_releases). When nothing waits before them and the FIFO has room for all of them,
 * they are put from their units' slots without the copy into the queue: *direct holds them, for
 * opcoll_put_direct before this activation's next accept (which may reuse a slot). */
static unsigned opcoll_writeback(opcoll *o, uint64_t now, const release_t **direct)
{
    const release_t *res[UNITS_MAX_WB];
    unsigned n = o->un->writeback(o->un_self, now, res);
    if (n == 0)
        return 0;
    bool put = ring_empty(&o->releases) && gsc_fifo_room(blk_fifo(o->inst, OPCOLL_RELEASE)) >= n;
    for (unsigned i = 0; i < n; i++) {
        const release_t *r = res[i];
        if (put)
            direct[i] = r;
        else
            memcpy(ring_push_slot(&o->releases), r, release_bytes(r));
        for (unsigned j = 0; j < r->n_bank_dst; j++)
            o->rf->write(o->rf_self, r->warp, r->bank_dst[j], r->func, r->seq, now);
        if (o->ccu)
            ccu_writeback(o->ccu, r, now);
    }
    return put ? n : 0;
}

/* Puts the results opcoll_writeback left in their slots (after allocation's gets, where the queue's
 * flush put them: a traced cycle lists the FIFOs' events in the same order). */
static void opcoll_put_direct(opcoll *o, const release_t *const *direct, unsigned n)
{
    gsc_fifo *out = blk_fifo(o->inst, OPCOLL_RELEASE);
    for (unsigned i = 0; i < n; i++)
        gsc_fifo_put(out, direct[i]);
}

/* Completions and read reports go to issue in the order they were made (a FIFO may be full). */
static void opcoll_flush_releases(opcoll *o)
{
    gsc_fifo *out = blk_fifo(o->inst, OPCOLL_RELEASE);
    while (!ring_empty(&o->releases) && gsc_fifo_can_put(out)) {
        gsc_fifo_put(out, ring_peek(&o->releases));
        ring_pop(&o->releases, NULL);
    }
}

/* Collector c has read every operand (its last bank read was granted this cycle, or it had none): it
 * may dispatch from the next cycle on; with source reservations, issue is told (it releases the
 * sources' read reservations). */
static void opcoll_report_reads(opcoll *o, unsigned c)
{
    wmask_set(&o->read_m, c);
    const issued_t *it = &o->its[c];
    if (it->report_reads)
        release_init_reads(ring_push_slot(&o->releases), it, sm_unit_of_class((ir_class)it->cls));
}

/* A collector allocated at issue by the ccu block: it reads only the sources it misses. */
static void opcoll_take_ccu(opcoll *o, uint64_t now)
{
    gsc_fifo *in = blk_fifo(o->inst, OPCOLL_IN);
    uint16_t reads[SM_MAX_BANK_READS];
    unsigned n;
    unsigned c = ccu_take(o->ccu, gsc_fifo_peek(in), reads, &n);
    opcoll_coll *co = &o->coll[c];
    g_assert(!wmask_test(&o->busy_m, c));
    const issued_t *ci = &o->its[c];
    gsc_fifo_get(in, &o->its[c]);
    wmask_set(&o->busy_m, c);
    o->tr_busy_coll++;
    co->cls = ci->cls;
    co->age = o->seq++;
    co->pending = n;
    for (unsigned j = 0; j < n; j++)
        o->rf->read(o->rf_self, c, ci->warp, reads[j], ci->func, ci->seq, now);
    if (n == 0)
        opcoll_report_reads(o, c);
}

static void opcoll_allocate(opcoll *o, uint64_t now)
{
    gsc_fifo *in = blk_fifo(o->inst, OPCOLL_IN);
    while (gsc_fifo_can_get(in)) {
        const issued_t *it = gsc_fifo_peek(in);
        if (o->ccu) {
            opcoll_take_ccu(o, now);
            continue;
        }
        const wmask *pm = &o->pool_m[o->generic ? 0 : pool_of(it->cls)];
        unsigned c = o->n_coll; /* the first free collector of its pool */
        for (unsigned k = 0; k < wmask_words(o->n_coll); k++) {
            uint64_t free = pm->w[k] & ~o->busy_m.w[k];
            if (free) {
                c = 64 * k + (unsigned)__builtin_ctzll(free);
                break;
            }
        }
        if (c == o->n_coll) {
            blk_stat_add(o->inst, OPCOLL_STAT_COLLECTOR_FULL, 1);
            return; /* in-order: the head waits for a collector */
        }
        opcoll_coll *co = &o->coll[c];
        const issued_t *ci = &o->its[c]; /* (in a local: the reads below are calls) */
        gsc_fifo_get(in, &o->its[c]);
        wmask_set(&o->busy_m, c);
        o->tr_busy_coll++;
        co->cls = ci->cls;
        co->age = o->seq++;
        co->pending = ci->n_bank_src;
        for (unsigned j = 0; j < ci->n_bank_src; j++)
            o->rf->read(o->rf_self, c, ci->warp, ci->bank_src[j], ci->func, ci->seq, now);
        if (co->pending == 0)
            opcoll_report_reads(o, c); /* no register read (immediates, predicates only) */
    }
}

static void opcoll_arbitrate(opcoll *o)
{
    const uint64_t *granted;
    unsigned n = o->rf->arbitrate(o->rf_self, &granted);
    for (unsigned i = 0; i < n; i++) {
        opcoll_coll *co = &o->coll[granted[i]];
        g_assert(wmask_test(&o->busy_m, (unsigned)granted[i]) && co->pending > 0);
        blk_stat_add(o->inst, OPCOLL_STAT_OPERAND_FILLS, 1);
        if (--co->pending == 0)
            opcoll_report_reads(o, (unsigned)granted[i]);
    }
}

enum { OPCOLL_MAX_COLL = 2 * 64 }; /* collectors_sp + collectors_sfu, each at most 64 */
G_STATIC_ASSERT(OPCOLL_MAX_COLL <= WMASK_BITS); /* the collector masks (opcoll.h) */

/* Collectors complete in an earlier cycle go to a pipe, oldest first; one that finds no free pipe
 * of its unit waits for the next cycle. */
static void opcoll_dispatch(opcoll *o, uint64_t now)
{
    o->tr_dispatched = 0;
    /* the candidates, by age (an insertion sort of the dispatchable ones: a few per cycle) */
    unsigned cand[OPCOLL_MAX_COLL], nc = 0;
    for (unsigned k = 0; k < wmask_words(o->n_coll); k++)
        for (uint64_t m = o->disp_m.w[k]; m; m &= m - 1) {
            unsigned c = 64 * k + (unsigned)__builtin_ctzll(m);
            uint64_t age = o->coll[c].age;
            unsigned j = nc++;
            for (; j > 0 && o->coll[cand[j - 1]].age > age; j--)
                cand[j] = cand[j - 1];
            cand[j] = c;
        }
    for (unsigned k = 0; k < nc; k++) {
        opcoll_coll *best = &o->coll[cand[k]];
        const issued_t *bit = &o->its[cand[k]];
        int p = o->un->pick(o->un_self, sm_unit_of_class((ir_class)best->cls), now);
        if (p < 0) {
            blk_stat_add(o->inst, OPCOLL_STAT_UNIT_BUSY, 1);
            continue; /* retried next cycle */
        }
        o->un->accept(o->un_self, p, bit, now);
        blk_stat_add(o->inst, OPCOLL_STAT_DISPATCHED, 1);
        blk_stat_add(o->inst, OPCOLL_STAT_OPERAND_READS, bit->n_bank_src);
        o->tr_dispatched++;
        wmask_clear(&o->busy_m, cand[k]);
        o->tr_busy_coll--;
        wmask_clear(&o->read_m, cand[k]);
        if (o->ccu)
            ccu_dispatched(o->ccu, (unsigned)(best - o->coll), now);
    }
    /* Operands read this cycle (or waiting for a pipe) make their collector dispatchable next cycle. */
    o->disp_m = o->read_m;
    if (o->tr_slots) { /* the slots' occupancy, only while traced */
        uint64_t occ = 0, rdy = 0;
        for (unsigned c = 0; c < MIN(o->n_coll, 64u); c++) {
            bool busy = wmask_test(&o->busy_m, c);
            occ |= (uint64_t)busy << c;
            rdy |= (uint64_t)(busy && o->coll[c].pending == 0) << c;
        }
        o->tr_occupied = occ, o->tr_ready = rdy;
    }
}

static void opcoll_run(void *self)
{
    opcoll *o = self;
    uint64_t now = gsc_cycle();
    const release_t *direct[UNITS_MAX_WB];
    unsigned n_direct = opcoll_writeback(o, now, direct);
    o->rf->retry(o->rf_self, now);
    opcoll_allocate(o, now);
    opcoll_put_direct(o, direct, n_direct);
    opcoll_arbitrate(o);
    opcoll_dispatch(o, now);
    opcoll_flush_releases(o);
    /* (an input refused for want of a collector is taken once dispatch has freed one) */
    if (o->tr_busy_coll > 0 || !ring_empty(&o->releases) || o->rf->pending(o->rf_self) > 0 ||
        gsc_fifo_can_get(blk_fifo(o->inst, OPCOLL_IN))) {
        gsc_run_within(1);
        return;
    }
    uint64_t next = o->un->next_completion(o->un_self);
    if (next != PIPE_NONE)
        gsc_run_within(next > now ? next - now : 1);
}

static void opcoll_elaborate(void *self)
{
    opcoll *o = self;
    blk_iref r = blk_import(o->inst, OPCOLL_REGFILE, 0), u = blk_import(o->inst, OPCOLL_UNITS, 0);
    o->rf = r.methods;
    o->rf_self = r.self;
    o->un = u.methods;
    o->un_self = u.self;
    gsc_process *p = gsc_process_new(o->inst->mod, "run", opcoll_run, o);
    gsc_sensitive_fifo_put(p, blk_fifo(o->inst, OPCOLL_IN));
    gsc_sensitive_fifo_get(p, blk_fifo(o->inst, OPCOLL_RELEASE));
}

opcoll *opcoll_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    opcoll *o = g_new0(opcoll, 1);
    o->inst = blk_inst_new(ctx, parent, name, &opcoll_desc);
    unsigned nsp = (unsigned)blk_param_uint(o->inst, "collectors_sp");
    unsigned nsfu = (unsigned)blk_param_uint(o->inst, "collectors_sfu");
    o->n_coll = nsp + nsfu;
    g_assert(o->n_coll <= OPCOLL_MAX_COLL);
    _Static_assert(sizeof(opcoll_coll) == 16, "four collectors to a cache line");
    o->coll = g_new0(opcoll_coll, o->n_coll);
    o->its = g_new0(issued_t, o->n_coll);
    for (unsigned c = nsp; c < o->n_coll; c++)
        o->coll[c].pool = 1;
    if (nsfu == 0) /* one generic pool: every class takes any collector */
        o->generic = true;
    for (unsigned c = 0; c < o->n_coll; c++)
        wmask_set(&o->pool_m[o->coll[c].pool], c);
    ring_init(&o->releases, sizeof(release_t));
    blk_trace_state(o->inst, "busy_collectors", GSC_U32, &o->tr_busy_coll);
    blk_trace_state(o->inst, "dispatched", GSC_U32, &o->tr_dispatched);
    gsc_trace_var_strobe(o->inst->mod, "dispatched");
    unsigned w = MIN(o->n_coll, 64u); /* (blk_trace_state would give the described 64 bits) */
    gsc_trace_var(o->inst->mod, "occupied", GSC_U64, &o->tr_occupied, w);
    gsc_trace_var(o->inst->mod, "ready", GSC_U64, &o->tr_ready, w);
    gsc_trace_var_flag(o->inst->mod, "occupied", &o->tr_slots);
    gsc_trace_var_flag(o->inst->mod, "ready", &o->tr_slots);
    blk_inst_on_elaborate(o->inst, opcoll_elaborate, o);
    return o;
}

void opcoll_free(opcoll *o)
{
    if (!o)
        return;
    ring_clear(&o->releases);
    g_free(o->coll);
    g_free(o->its);
    g_free(o);
}
