/* issue.c — see issue.h. */
#include "models/sm/issue.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "models/core/outfile.h"
#include "models/core/stats.h"

static const char *const check_methods[] = {"allow(warp, head, cycle) -> may it issue now", NULL};
const blk_iface issue_check_iface = {
    "issue_check", "a resource check before issue", check_methods, {"warp", "pc"}, {16, 32}};
static const char *const issued_methods[] = {"issued(instruction)", NULL};
const blk_iface instr_issued_iface = {
    "instr_issued", "an instruction was issued", issued_methods, {"warp", "pc"}, {16, 32}};
static const char *const events_methods[] = {
    "cta_start(cta, cycle), cta_end(cta, cycle)",
    "warp_start(warp, cta slot, cycle), warp_end(warp, cta slot, cycle)", NULL};
/* Traced calls: op 0 cta_start, 1 cta_end (id: the CTA in the grid), 2 warp_start, 3 warp_end (id: the
 * warp); slot: the CTA slot. */
const blk_iface warp_events_iface = {
    "warp_events", "warp and CTA starts and ends", events_methods, {"op", "id", "slot"}, {2, 32, 8}};
static const char *const regval_methods[] = {"access(register value access)  (regval.h)", NULL};
/* Traced calls: the access's kind (regval_kind), warp and register slot. */
const blk_iface regval_iface = {
    "regval", "a hook on the register value path", regval_methods, {"kind", "warp", "slot"}, {2, 16, 32}};

static const blk_port_desc ports[] = {
    [ISSUE_CTA_LAUNCH] = {"cta_launch", GSC_IN, &cta_launch_type, BLK_CHAN_FIFO, "cta_depth",
                          "CTAs placed on this SM"},
    [ISSUE_CTA_DONE] = {"cta_done", GSC_OUT, &cta_done_type, BLK_CHAN_FIFO, NULL, "CTAs finished"},
    [ISSUE_DECODED] = {"decoded", GSC_IN, &decoded_type, BLK_CHAN_FIFO, "decoded_depth", "from fetch/decode"},
    [ISSUE_REDIRECT] = {"redirect", GSC_OUT, &redirect_type, BLK_CHAN_FIFO, NULL, "to fetch: new PC / stop"},
    [ISSUE_CREDIT] = {"credit", GSC_OUT, &credit_type, BLK_CHAN_FIFO, NULL,
                      "to fetch: I-buffer entries freed"},
    [ISSUE_TO_EXEC] = {"to_exec_%u", GSC_OUT, &issued_type, BLK_CHAN_FIFO, NULL,
                       "issued to the collectors of partition %u", NULL, 0, SM_MAX_PARTS},
    [ISSUE_TO_LDST] = {"to_ldst", GSC_OUT, &issued_type, BLK_CHAN_FIFO, NULL, "issued memory instructions"},
    [ISSUE_RELEASE] = {"release_%u", GSC_IN, &release_type, BLK_CHAN_FIFO, "release_depth",
                       "completions of partition %u", NULL, 0, SM_MAX_PARTS},
    [ISSUE_RELEASE_LDST] = {"release_ldst", GSC_IN, &release_type, BLK_CHAN_FIFO, "release_depth",
                            "completions of ldst"},
    [ISSUE_SB] = {"sb", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the scoreboard: hazards, reservations",
                  &scoreboard_iface},
    [ISSUE_IB] = {"ib", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the warps' I-buffers", &ibuffer_iface},
    [ISSUE_BAR] = {"bar", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the barrier unit", &barrier_iface},
    [ISSUE_ARB] = {"arbiter_%u", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the issue arbiter of scheduler %u",
                   &arbiter_iface, 0, ISSUE_MAX_SCHED, "schedulers"},
    [ISSUE_CHECK] = {"check", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                     "resource checks asked before a ready warp issues (a refusal: stall_check)",
                     &issue_check_iface, BLK_PORT_MULTI},
    [ISSUE_ISSUED] = {"issued", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "told of every issued instruction",
                      &instr_issued_iface, BLK_PORT_MULTI},
    [ISSUE_WARP_EVENTS] = {"warp_events", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                           "told of warp and CTA starts and ends", &warp_events_iface, BLK_PORT_MULTI},
    [ISSUE_VALUE] = {"value", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                     "hooks of the register value path (reads, writes of the warp engine)", &regval_iface,
                     BLK_PORT_MULTI},
    [ISSUE_BLOCKSYNC] = {"blocksync", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                         "the SPU grid's inter-SM barrier (bar.blocksync); unbound: no SPU", &blocksync_iface,
                         BLK_PORT_OPTIONAL},
    [ISSUE_BLOCKSYNC_RELEASE] = {"blocksync_release", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                                 "the grid releases a CTA from bar.blocksync", &blocksync_release_iface},
};

static const blk_param_desc params[] = {
    {"schedulers", BLK_PARAM_UINT, "2", "1", "8", NULL, "",
     "warp schedulers (issue slots per cycle), each with its arbiter [S: GTX480 2]"},
    {"log", BLK_PARAM_STRING, "", NULL, NULL, NULL, "",
     "write one line per issued instruction to this file: cycle, warp, pc, opcode, active lanes (\"\": off)"},
    {"pipeview", BLK_PARAM_STRING, "", NULL, NULL, NULL, "",
     "write the pipeline log to this file (gem5's O3PipeView text, for Konata): per instruction its "
     "fetch, I-buffer, issue, execute and completion cycles (\"\": off)"},
    {"cta_depth", BLK_PARAM_UINT, "2", "1", "64", NULL, "items", "depth of the cta_launch FIFO"},
    {"decoded_depth", BLK_PARAM_UINT, "4", "1", "64", NULL, "items", "depth of the decoded FIFO"},
    {"release_depth", BLK_PARAM_UINT, "16", "1", "256", NULL, "items", "depth of each release FIFO"},
    {"e_ibuffer_read", BLK_PARAM_DOUBLE, "1.14", "0", NULL, NULL, "pJ",
     "energy of reading an issued instruction out of the I-buffer (one per warp instruction issued) [A: as "
     "the I-buffer's e_write]"},
};

static double ipc(const blk_inst *inst)
{
    return stats_ratio(blk_stat_get(inst, ISSUE_STAT_WARP_INSTRS), gsc_cycle());
}

static double avg_ctas(const blk_inst *inst)
{
    return stats_ratio(blk_stat_get(inst, ISSUE_STAT_CTA_CYCLES), gsc_cycle());
}

#define CLASS_STAT(c, n)                                                                                     \
    [ISSUE_STAT_BY_CLASS0 +                                                                                  \
        c] = {"instrs_" n, BLK_STAT_COUNTER, "instructions", "warp instructions of class " n, NULL}
static const blk_stat_desc stats[] = {
    [ISSUE_STAT_WARP_INSTRS] = {"warp_instrs", BLK_STAT_COUNTER, "instructions", "warp instructions issued",
                                NULL},
    [ISSUE_STAT_THREAD_INSTRS] = {"thread_instrs", BLK_STAT_COUNTER, "instructions",
                                  "active lanes of issued instructions", NULL},
    [ISSUE_STAT_ISSUE_CYCLES] = {"issue_slots_used", BLK_STAT_COUNTER, "slots",
                                 "scheduler-cycles with an issue", NULL},
    [ISSUE_STAT_STALL_IDLE] = {"stall_idle", BLK_STAT_COUNTER, "slots",
                               "scheduler-cycles with no resident warp", NULL},
    [ISSUE_STAT_STALL_MEMORY] = {"stall_memory", BLK_STAT_COUNTER, "slots",
                                 "scheduler-cycles stalled on a pending load", NULL},
    [ISSUE_STAT_STALL_SCOREBOARD] = {"stall_scoreboard", BLK_STAT_COUNTER, "slots",
                                     "scheduler-cycles stalled on another pending result", NULL},
    [ISSUE_STAT_STALL_PIPELINE] = {"stall_pipeline", BLK_STAT_COUNTER, "slots",
                                   "scheduler-cycles with a ready warp whose unit is busy", NULL},
    [ISSUE_STAT_STALL_BARRIER] = {"stall_barrier", BLK_STAT_COUNTER, "slots",
                                  "scheduler-cycles with warps waiting at a barrier", NULL},
    [ISSUE_STAT_STALL_NO_READY] = {"stall_no_ready", BLK_STAT_COUNTER, "slots",
                                   "scheduler-cycles with no valid instruction", NULL},
    [ISSUE_STAT_STALL_CHECK] = {"stall_check", BLK_STAT_COUNTER, "slots",
                                "scheduler-cycles with a ready warp refused by a resource check", NULL},
    [ISSUE_STAT_STALL_VETOED] = {"stall_vetoed", BLK_STAT_COUNTER, "slots",
                                 "scheduler-cycles whose ready warps were all vetoed by the policy", NULL},
    [ISSUE_STAT_CTAS] = {"ctas", BLK_STAT_COUNTER, "CTAs", "CTAs run", NULL},
    [ISSUE_STAT_CTA_CYCLES] = {"cta_cycles", BLK_STAT_COUNTER, "CTA-cycles",
                               "sum over cycles of resident CTAs", NULL},
    [ISSUE_STAT_BARRIERS] = {"barriers", BLK_STAT_COUNTER, "events", "barrier completions", NULL},
    [ISSUE_STAT_DIVERGENT] = {"divergent_branches", BLK_STAT_COUNTER, "branches",
                              "branches that split a warp", NULL},
    [ISSUE_STAT_REDIRECTS] = {"redirects", BLK_STAT_COUNTER, "events",
                              "fetch redirects (control, reconvergence, start)", NULL},
    CLASS_STAT(IR_CLASS_ALU, "alu"),
    CLASS_STAT(IR_CLASS_INT, "int"),
    CLASS_STAT(IR_CLASS_SFU, "sfu"),
    CLASS_STAT(IR_CLASS_DP, "dp"),
    CLASS_STAT(IR_CLASS_MEM, "mem"),
    CLASS_STAT(IR_CLASS_CTRL, "ctrl"),
    CLASS_STAT(IR_CLASS_SYNC, "sync"),
    CLASS_STAT(IR_CLASS_WARP, "warp"),
    [ISSUE_STAT_IPC] = {"ipc", BLK_STAT_DERIVED, "instructions/cycle", "warp instructions per cycle", ipc},
    [ISSUE_STAT_AVG_CTAS] = {"resident_ctas", BLK_STAT_DERIVED, "CTAs", "average resident CTAs", avg_ctas},
};

static const blk_energy_event energy_events[] = {
    {"ibuffer_read", "warp_instrs", "e_ibuffer_read", BLK_COMP_IBP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"issued", 4, "instructions issued this cycle (all schedulers)"},
    {"warp", 8, "warp of the last issue"},
    {"pc", 16, "PC of the last issue"},
    {"stall", 4, "scheduler 0's decision: a stall reason (issue_stall), 8 (issued) in a cycle it issued"},
};

const blk_desc issue_desc = {
    "issue",
    "warp schedulers' decision stage: readiness, the arbiters' order, functional execution at issue",
    "docs/baseline-design.md §2.2 issue; CCWS/DAWS/VWS spec §2.1, §3",
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

const char *issue_stall_name(issue_stall s)
{
    static const char *const n[] = {"idle",    "memory",        "scoreboard",     "pipeline",
                                    "barrier", "no ready warp", "resource check", "vetoed"};
    return s < ISSUE_STALL_COUNT ? n[s] : "?";
}

/* The traced `stall` by name: a stall reason, or "issued" (ISSUE_STALL_COUNT). */
static const char *stall_name(unsigned v)
{
    return v == ISSUE_STALL_COUNT ? "issued" : issue_stall_name((issue_stall)v);
}
const gsc_enum issue_stall_enum = {"stall", ISSUE_STALL_COUNT + 1, stall_name};

static const char *warp_stall_name(unsigned v)
{
    return v == ISSUE_WARP_READY ? "ready" : v == ISSUE_WARP_ISSUED ? "issued" : stall_name(v);
}
const gsc_enum issue_warp_stall_enum = {"warp_stall", ISSUE_WARP_STATES, warp_stall_name};

_Static_assert(sizeof(((issued_t *)0)->store_data) == sizeof(((ws_info *)0)->store_data),
               "a deferred store's bytes fit issued_t");
/* The cache lines an activation reads (issue.h: issue, issue_sched, issue_warp). */
_Static_assert(offsetof(issue, ib) == 64 && offsetof(issue, cta_launch) == 128 && offsetof(issue, release0) < 192 &&
                   offsetof(issue, release) == 192 && offsetof(issue, seq) == 256 &&
                   offsetof(issue, report_reads) < 320,
               "what an activation reads on the struct's first five lines");
_Static_assert(offsetof(issue_sched, n) + sizeof(unsigned) <= 64, "a repeated answer reads one line");
_Static_assert(sizeof(issue_warp) == 32, "two warp slots to a line");

static gsc_fifo *port_fifo(const issue *s, unsigned p)
{
    return blk_fifo(s->inst, p);
}

/* Something of warp wi changed (its I-buffer, scoreboard, barrier or residency): its scheduler must
 * evaluate its warps again. */
static inline void sched_dirty(issue *s, unsigned wi)
{
    wmask_set(&s->sched[wi % s->n_sched].dirty, wi);
}

/* Warp wi's I-buffer head changed (its issue, a redirect, a CTA start): what was known of the old
 * head (the scoreboard's verdict, "clear") no longer holds. */
static inline const decoded_t *ib_head(const issue *s, unsigned wi)
{
    return s->ib->head(s->ib_self, wi);
}

static inline void warp_head_changed(issue *s, unsigned wi)
{
    s->w[wi].sb_stall = ISSUE_STALL_COUNT;
    s->w[wi].sb_clear = false;
    sched_dirty(s, wi);
}

/* ---- outputs through small queues (a FIFO may be full this cycle) ---------------------------- */
static void queue_redirect(issue *s, unsigned wi, bool done)
{
    issue_warp *w = &s->w[wi];
    w->epoch++;
    s->ib->flush(s->ib_self, wi);
    warp_head_changed(s, wi);
    redirect_t *r = ring_push_slot(&s->redirects);
    s->queued = true;
    memset(r, 0, sizeof *r);
    r->warp = (uint16_t)wi;
    r->epoch = w->epoch;
    r->done = done;
    if (!done) {
        bool live = wexec_warp_next(s->wx, wi, &r->func, &r->pc); /* not inside g_assert: it must run */
        g_assert(live);
    }
    blk_stat_add(s->inst, ISSUE_STAT_REDIRECTS, 1);
}

static void flush_outputs(issue *s)
{
    if (!s->queued)
        return;
    gsc_fifo *rd = port_fifo(s, ISSUE_REDIRECT), *cr = port_fifo(s, ISSUE_CREDIT),
             *dn = port_fifo(s, ISSUE_CTA_DONE);
    ring *q[] = {&s->redirects, &s->credits, &s->done};
    gsc_fifo *f[] = {rd, cr, dn};
    for (unsigned i = 0; i < G_N_ELEMENTS(q); i++)
        while (!ring_empty(q[i]) && gsc_fifo_can_put(f[i])) {
            gsc_fifo_put(f[i], ring_peek(q[i]));
            ring_pop(q[i], NULL);
        }
    s->queued = !ring_empty(&s->redirects) || !ring_empty(&s->credits) || !ring_empty(&s->done);
}

/* ---- CTAs and warps -------------------------------------------------------------------------- */
static void cta_start(issue *s, const cta_launch_t *c)
{
    g_assert(c->slot < s->ctas && !s->cta_live[c->slot]);
    s->cta_live[c->slot] = true;
    s->cta[c->slot] = *c;
    s->cta_live_warps[c->slot] = c->warps;
    s->n_ctas++;
    wexec_cta_start(s->wx, c, gsc_cycle());
    s->bar->cta_start(s->bar_self, c->slot, c->first_warp, c->warps);
    for (unsigned i = 0; i < s->n_events; i++)
        ((const warp_events_if *)s->events[i].methods)->cta_start(s->events[i].self, c, gsc_cycle());
    for (unsigned i = 0; i < c->warps; i++) {
        unsigned wi = c->first_warp + i;
        issue_warp *w = &s->w[wi];
        g_assert(!w->resident);
        w->resident = true;
        w->at_barrier = w->exited = false;
        w->inflight = w->atomics_pending = w->loads_pending = 0;
        uint64_t age = s->age++;
        warp_head_changed(s, wi);
        s->sb->clear_warp(s->sb_self, wi);
        for (unsigned e = 0; e < s->n_events; e++)
            ((const warp_events_if *)s->events[e].methods)
                ->warp_start(s->events[e].self, wi, c->slot, gsc_cycle());
        issue_sched *sc = &s->sched[wi % s->n_sched];
        w->pos = sc->n;
        sc->pw[sc->n] = (policy_warp){.id = wi, .age = age, .last_issue = POLICY_NEVER_ISSUED};
        sc->n++;
        wmask_set(&sc->members, wi);
        sc->n_stall[ISSUE_STALL_COUNT]++; /* (stall 0; it is dirty: checked before it counts) */
        queue_redirect(s, wi, false);
    }
    blk_stat_add(s->inst, ISSUE_STAT_CTAS, 1);
}

/* The stall a listed warp was last found with (ISSUE_STALL_COUNT: ready). */
static inline issue_stall pw_stall(const policy_warp *pw)
{
    return pw->stall ? (issue_stall)(pw->stall - 1) : ISSUE_STALL_COUNT;
}

static void sched_remove(issue *s, unsigned wi)
{
    issue_sched *sc = &s->sched[wi % s->n_sched];
    unsigned i = s->w[wi].pos;
    g_assert(i < sc->n && sc->pw[i].id == wi);
    wmask_clear(&sc->members, wi);
    wmask_clear(&sc->asks_mem, wi);
    wmask_clear(&sc->asks_alu, wi);
    sc->n_stall[pw_stall(&sc->pw[i])]--;
    memmove(&sc->pw[i], &sc->pw[i + 1], (sc->n - i - 1) * sizeof *sc->pw);
    sc->n--;
    for (; i < sc->n; i++)
        s->w[sc->pw[i].id].pos = i;
    if (sc->settles)
        sc->veto_until = 0; /* (a veto may answer differently for the shorter list: SWL's oldest N) */
}

/* A warp that has exited and has nothing in flight leaves; the last one of its CTA ends the CTA. */
static void warp_try_finish(issue *s, unsigned wi)
{
    issue_warp *w = &s->w[wi];
    if (!w->resident || !w->exited || w->inflight > 0)
        return;
    w->resident = false;
    sched_remove(s, wi);
    unsigned slot = wexec_warp_cta(s->wx, wi);
    for (unsigned e = 0; e < s->n_events; e++)
        ((const warp_events_if *)s->events[e].methods)->warp_end(s->events[e].self, wi, slot, gsc_cycle());
    if (--s->cta_live_warps[slot] > 0)
        return;
    const cta_launch_t *c = &s->cta[slot];
    cta_done_t *d = ring_push_slot(&s->done);
    s->queued = true;
    memset(d, 0, sizeof *d);
    d->cta = c->cta;
    d->slot = c->slot;
    d->sm = (uint16_t)s->sm_id;
    d->warps = c->warps;
    d->regs = c->regs;
    d->smem_bytes = c->smem_bytes;
    wexec_cta_end(s->wx, slot, gsc_cycle());
    for (unsigned e = 0; e < s->n_events; e++)
        ((const warp_events_if *)s->events[e].methods)->cta_end(s->events[e].self, c, gsc_cycle());
    s->cta_live[slot] = false;
    s->n_ctas--;
}

/* A barrier of the CTA in `slot` completed (the barrier unit said so): its waiting warps leave it
 * next cycle; bar.red's result is written into each participating warp's destination now (the warps
 * are stopped until then). */
static void bar_apply(issue *s, unsigned slot, const barrier_release *r)
{
    blk_stat_add(s->inst, ISSUE_STAT_BARRIERS, 1);
    if (G_UNLIKELY(r->id == SM_BLOCKSYNC_BAR && s->bs)) { /* the CTA has arrived: the grid decides */
        s->bs_held[slot] = r->waiting;
        s->bs->arrive(s->bs_self, s->sm_id, slot, s->bs_dir[slot]);
        return;
    }
    const cta_launch_t *c = &s->cta[slot];
    for (unsigned i = 0; i < c->warps; i++) {
        if (!(r->waiting >> i & 1))
            continue;
        unsigned wi = c->first_warp + i;
        issue_warp *w = &s->w[wi];
        wmask_set(&s->pending_release, wi);
        if (w->bar_dst != SM_NO_REG) {
            uint64_t v = w->bar_kind == IR_BAR_RED_POPC  ? r->popc
                         : w->bar_kind == IR_BAR_RED_AND ? r->all
                                                         : r->any;
            uint64_t vals[IR_WARP_SIZE];
            for (unsigned l = 0; l < IR_WARP_SIZE; l++)
                vals[l] = v;
            wexec_write_slot(s->wx, wi, w->bar_dst, w->bar_mask, vals, UINT64_MAX, gsc_cycle());
            w->bar_dst = SM_NO_REG;
        }
    }
}

/* Warp `wi` arrives at a barrier (kernels/run/frun.c exec_bar); it counts its existing threads. */
static void bar_arrive(issue *s, unsigned slot, unsigned wi, const ws_info *x)
{
    const cta_launch_t *c = &s->cta[slot];
    unsigned in_cta = wexec_warp_in_cta(s->wx, wi);
    barrier_arrival a = {
        .id = x->bar_id,
        .count = x->bar_count,
        .threads = MIN(s->warp_size, c->threads - in_cta * s->warp_size),
        .wait = x->bar_wait,
        .reduce =
            x->bar_kind == IR_BAR_RED_POPC || x->bar_kind == IR_BAR_RED_AND || x->bar_kind == IR_BAR_RED_OR,
        .pred = x->bar_pred,
        .active = x->active,
    };
    s->bs_dir[slot] = (uint8_t)(x->blocksync ? x->blocksync - 1 : 0);
    if (x->bar_wait) {
        issue_warp *w = &s->w[wi];
        w->at_barrier = true;
        w->bar_id = (uint8_t)x->bar_id;
        w->bar_kind = x->bar_kind;
        w->bar_dst = x->bar_dst;
        w->bar_mask = x->active;
    }
    barrier_release r;
    if (s->bar->arrive(s->bar_self, slot, in_cta, &a, &r))
        bar_apply(s, slot, &r);
}

/* A warp exited: barriers waiting for the whole CTA may now be complete. */
static void bar_exit(issue *s, unsigned slot, unsigned wi)
{
    barrier_release r[BARRIER_IDS];
    unsigned n = s->bar->warp_exit(s->bar_self, slot, wexec_warp_in_cta(s->wx, wi), r);
    for (unsigned i = 0; i < n; i++)
        bar_apply(s, slot, &r[i]);
}

/* ---- the pipeline log (pipeview) -------------------------------------------------------------- */
/* An issued instruction waiting for its completion: the stamps so far. */
typedef struct {
    uint64_t fetch, decode, issue;
    uint32_t func, pc;
    uint16_t warp;
    uint8_t op, ret;
} issue_pv;

static void pv_issued(issue *s, const issued_t *it, const decoded_t *h, bool ret)
{
    issue_pv *p = g_new(issue_pv, 1);
    *p = (issue_pv){.fetch = h->fetch_cycle, .decode = h->decode_cycle, .issue = it->issue_cycle};
    p->func = it->func, p->pc = it->pc, p->warp = it->warp, p->op = it->op, p->ret = ret;
    uint64_t *key = g_new(uint64_t, 1);
    *key = it->seq;
    g_hash_table_insert(s->pv_open, key, p);
}

/* The instruction `seq` completed (its result taken now): its record, in gem5's O3PipeView text (times
 * in ps): fetch, decode = into the I-buffer, rename and dispatch = issue, issue = its unit accepted it
 * (operands read), complete and retire = the result taken by the scoreboard. Its sequence number is
 * the SM's times the SMs plus the SM, unique in a file every SM writes to. */
static void pv_complete(issue *s, const release_t *r)
{
    issue_pv *p = g_hash_table_lookup(s->pv_open, &r->seq);
    if (!p)
        return;
    uint64_t T = gsc_core_period_ps(), now = gsc_cycle();
    uint64_t exec = r->exec_cycle ? r->exec_cycle : p->issue;
    fprintf(s->pv,
            "O3PipeView:fetch:%" G_GUINT64_FORMAT ":0x%08" G_GINT64_MODIFIER "x:0:%" G_GUINT64_FORMAT
            ":sm%u w%u %s\n",
            p->fetch * T, (uint64_t)p->func << 16 | p->pc, r->seq * s->env->n_sms + s->sm_id, s->sm_id,
            (unsigned)p->warp, p->ret ? "ret" : ir_op_name((ir_opcode)p->op));
    fprintf(s->pv,
            "O3PipeView:decode:%" G_GUINT64_FORMAT "\nO3PipeView:rename:%" G_GUINT64_FORMAT
            "\nO3PipeView:dispatch:%" G_GUINT64_FORMAT "\nO3PipeView:issue:%" G_GUINT64_FORMAT
            "\nO3PipeView:complete:%" G_GUINT64_FORMAT "\nO3PipeView:retire:%" G_GUINT64_FORMAT ":store:0\n",
            p->decode * T, p->issue * T, p->issue * T, exec * T, now * T, now * T);
    g_hash_table_remove(s->pv_open, &r->seq);
}

/* ---- inputs ----------------------------------------------------------------------------------- */
static void take_release(issue *s, gsc_fifo *f)
{
    while (gsc_fifo_can_get(f)) {
        const release_t *r = gsc_fifo_take(f); /* (in its slot: nothing is put to f while issue runs) */
        if (!s->w[r->warp].sb_clear) { /* its scoreboard changes (a head found clear stays so) */
            s->w[r->warp].sb_stall = ISSUE_STALL_COUNT;
            sched_dirty(s, r->warp);
        }
        if (r->reads) { /* a read report (source reservations): the instruction has read its sources */
            for (unsigned j = 0; j < r->n_src; j++)
                s->sb->release_read(s->sb_self, r->warp, r->src[j]);
            continue;
        }
        issue_warp *w = &s->w[r->warp];
        if (r->val_mask && r->val_reg != SM_NO_REG) /* an atomic's old values, from the memory side */
            wexec_write_slot(s->wx, r->warp, r->val_reg, r->val_mask, r->vals, r->val_vmask, gsc_cycle());
        if (r->atomic) {
            g_assert(w->atomics_pending > 0);
            w->atomics_pending--;
        }
        if (w->loads_pending &&
            wexec_complete_load(s->wx, r->warp, r->seq, gsc_cycle())) /* the data has returned */
            w->loads_pending--;
        for (unsigned j = 0; j < r->n_dst; j++)
            s->sb->release_write(s->sb_self, r->warp, r->dst[j], r->long_op);
        if (s->pv)
            pv_complete(s, r);
        g_assert(w->inflight > 0);
        w->inflight--;
        warp_try_finish(s, r->warp);
    }
}

static void take_inputs(issue *s)
{
    take_release(s, s->release0);
    for (unsigned p = 1; p < s->parts; p++)
        take_release(s, s->release[p]);
    take_release(s, s->release_ldst);
    gsc_fifo *cl = s->cta_launch;
    cta_launch_t c;
    while (gsc_fifo_can_get(cl)) {
        gsc_fifo_get(cl, &c);
        cta_start(s, &c);
    }
    gsc_fifo *dec = s->decoded;
    while (gsc_fifo_can_get(dec)) {
        const decoded_t *d = gsc_fifo_take(dec); /* (in its slot, copied by the I-buffer) */
        issue_warp *w = &s->w[d->warp];
        if (d->epoch != w->epoch || !w->resident)
            continue; /* fetched before a redirect: dropped (its credit was reset by the redirect) */
        bool was_empty = s->ib->count(s->ib_self, d->warp) == 0;
        s->ib->push(s->ib_self, d); /* (which stamps its decode_cycle) */
        if (was_empty) /* (behind a head its readiness does not change) */
            sched_dirty(s, d->warp);
    }
}

/* ---- readiness ------------------------------------------------------------------------------- */
static inline __attribute__((always_inline)) gsc_fifo *unit_fifo(const issue *s, unsigned sched, uint8_t cls)
{
    return cls == IR_CLASS_MEM ? s->ldst_fifo : s->sched[sched].exec;
}

/* The units' room as sched_cycle sees it (bit 0: ldst, bit 1: the scheduler's exec). */
static inline __attribute__((always_inline)) unsigned unit_room(const issue *s, unsigned si)
{
    return (unsigned)gsc_fifo_can_put(unit_fifo(s, si, IR_CLASS_MEM)) |
           (unsigned)gsc_fifo_can_put(unit_fifo(s, si, IR_CLASS_ALU)) << 1;
}

/* Ready as far as the warp itself and its unit decide (the checks bound to `check` not asked), or
 * the reason it is not (ISSUE_STALL_*); h: its I-buffer head (NULL: empty); room: unit_room of its
 * scheduler now. */
static inline __attribute__((always_inline)) issue_stall warp_check_own(issue *s, unsigned wi,
                                                                        const decoded_t *h, unsigned room)
{
    issue_warp *w = &s->w[wi];
    if (w->exited)
        return ISSUE_STALL_NO_READY;
    if (w->at_barrier)
        return ISSUE_STALL_BARRIER;
    if (!h)
        return ISSUE_STALL_NO_READY;
    /* Memory ordering of a warp: while its atomics are being performed at the memory side, its later
     * memory accesses and barriers / fences wait (they must see the atomics' effects). */
    if (w->atomics_pending && (h->cls == IR_CLASS_MEM || h->cls == IR_CLASS_SYNC))
        return ISSUE_STALL_MEMORY;
    /* Loads read the image when their data returns: a later store or atomic of the warp, and its
     * barriers / fences, wait for them (write-after-read through memory). */
    if (w->loads_pending && (h->cls == IR_CLASS_SYNC || (h->cls == IR_CLASS_MEM && h->op != IR_OP_LD &&
                                                         h->op != IR_OP_LDU && h->op != IR_OP_PREFETCH)))
        return ISSUE_STALL_MEMORY;
    if (w->sb_stall != ISSUE_STALL_COUNT)
        return w->sb_stall; /* still waiting on the same registers */
    if (!w->sb_clear) {
        uint32_t func, pc;
        if (!wexec_warp_next(s->wx, wi, &func, &pc) || func != h->func || pc != h->pc) {
            queue_redirect(s, wi, false); /* the SIMT stack went elsewhere (reconvergence) */
            return ISSUE_STALL_NO_READY;
        }
        unsigned hz = s->sb->check(s->sb_self, wi, h);
        if (hz != SCOREBOARD_CLEAR)
            return w->sb_stall = hz & SCOREBOARD_LONG ? ISSUE_STALL_MEMORY : ISSUE_STALL_SCOREBOARD;
        w->sb_clear = true;
    }
    if (!(room >> (h->cls == IR_CLASS_MEM ? 0 : 1) & 1))
        return ISSUE_STALL_PIPELINE;
    return ISSUE_STALL_COUNT;
}

/* Ready, or the reason it is not (ISSUE_STALL_*); h: its I-buffer head (NULL: empty); room:
 * unit_room of its scheduler now. */
static issue_stall warp_check(issue *s, unsigned wi, const decoded_t *h, unsigned room, uint64_t now)
{
    issue_stall r = warp_check_own(s, wi, h, room);
    if (r != ISSUE_STALL_COUNT)
        return r;
    for (unsigned i = 0; s->any_checks && i < s->n_checks; i++)
        if (!((const issue_check_if *)s->checks[i].methods)->allow(s->checks[i].self, wi, h, now))
            return ISSUE_STALL_CHECK;
    return ISSUE_STALL_COUNT; /* ready */
}

static bool is_long(const ws_info *x)
{
    if (x->kind != WS_MEM || x->mem_kind == WS_MEM_STORE || x->mem_kind == WS_MEM_RED)
        return false;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        if ((x->active >> l & 1) &&
            (x->lane_space[l] == IR_SPACE_GLOBAL || x->lane_space[l] == IR_SPACE_LOCAL ||
             x->lane_space[l] == IR_SPACE_CONST))
            return true;
    return false;
}

/* Issue the head of warp wi: execute it, reserve, dispatch. False on a kernel fault. */
static bool warp_issue(issue *s, unsigned sched, unsigned wi, uint64_t now)
{
    issue_warp *w = &s->w[wi];
    decoded_t h = *ib_head(s, wi);
    s->ib->pop(s->ib_self, wi);
    warp_head_changed(s, wi);
    credit_t *cr = ring_push_slot(&s->credits);
    s->queued = true;
    memset(cr, 0, sizeof *cr);
    cr->warp = (uint16_t)wi;
    cr->epoch = w->epoch;
    cr->count = 1;

    ws_info x;
    if (wexec_step(s->wx, wi, now, s->seq, &x) != 0)
        return false;
    issued_t it;
    memset(&it, 0, offsetof(issued_t, lane_space));
    it.seq = s->seq++;
    it.issue_cycle = now;
    it.warp = (uint16_t)wi;
    it.sched = (uint16_t)sched;
    it.pc = h.pc;
    it.func = h.func;
    it.mask = x.active;
    it.cls = h.cls;
    it.op = x.op;
    it.n_src = h.n_src;
    it.n_dst = h.n_dst;
    it.report_reads = s->report_reads;
    memcpy(it.src, h.src, sizeof it.src);
    memcpy(it.dst, h.dst, sizeof it.dst);
    it.annot = h.annot;
    it.n_bank_src = h.n_bank_src;
    it.n_bank_dst = h.n_bank_dst;
    memcpy(it.bank_src, h.bank_src, sizeof it.bank_src);
    memcpy(it.bank_dst, h.bank_dst, sizeof it.bank_dst);
    if (x.kind == WS_MEM) {
        it.space = x.space;
        it.kind = x.mem_kind;
        it.bytes = x.bytes;
        memcpy(it.lane_space, x.lane_space, sizeof it.lane_space);
        memcpy(it.addr, x.addr, sizeof it.addr);
        it.long_op = is_long(&x);
        if (x.load_defer)
            w->loads_pending++;
        if (x.store_defer) {
            it.store_lanes = x.store_defer;
            memcpy(it.store_data, x.store_data, sizeof it.store_data);
        }
        if (x.atom_defer) {
            it.atom_lanes = x.atom_defer;
            it.atom_flags = x.atom_flags;
            it.atom_op = x.atom_op;
            it.atom_type = x.atom_type;
            it.atom_dst = x.atom_dst;
            it.atom_vmask = x.atom_vmask;
            memcpy(it.atom_b, x.atom_b, sizeof it.atom_b);
            memcpy(it.atom_c, x.atom_c, sizeof it.atom_c);
            w->atomics_pending++;
        }
    }
    s->sb->reserve(s->sb_self, wi, &h, it.long_op);
    gsc_fifo_put(unit_fifo(s, sched, h.cls), &it);
    for (unsigned i = 0; i < s->n_listeners; i++)
        ((const instr_issued_if *)s->listeners[i].methods)->issued(s->listeners[i].self, &it);
    w->inflight++;

    blk_stat_add(s->inst, ISSUE_STAT_WARP_INSTRS, 1);
    blk_stat_add(s->inst, ISSUE_STAT_THREAD_INSTRS, (uint64_t)__builtin_popcount(x.active));
    blk_stat_add(s->inst, ISSUE_STAT_BY_CLASS0 + h.cls, 1);
    if (x.diverged)
        blk_stat_add(s->inst, ISSUE_STAT_DIVERGENT, 1);
    s->tr_issued++;
    if (s->log)
        fprintf(s->log, "%" G_GUINT64_FORMAT " issue sm %u warp %u pc %u %s mask 0x%08x\n", now, s->sm_id, wi,
                h.pc, x.kind == WS_RET && x.op == 0 ? "ret" : ir_op_name((ir_opcode)x.op), x.active);
    s->tr_warp = wi;
    s->tr_pc = h.pc;
    if (s->pv)
        pv_issued(s, &it, &h, x.kind == WS_RET && x.op == 0);
    if (s->tw_on)
        s->tw_issued[s->n_tw_issued++] = wi;

    unsigned slot = wexec_warp_cta(s->wx, wi);
    if (x.kind == WS_BAR && x.bar_arrive)
        bar_arrive(s, slot, wi, &x);
    if (!wexec_warp_live(s->wx, wi)) { /* exited */
        w->exited = true;
        queue_redirect(s, wi, true);
        bar_exit(s, slot, wi);
        return true;
    }
    uint32_t func, pc;
    wexec_warp_next(s->wx, wi, &func, &pc);
    if (h.ctrl || func != h.func || pc != h.pc + 1)
        queue_redirect(s, wi, false); /* control resolved at issue, or the stack reconverged elsewhere */
    return true;
}

/* The stall reasons in the order a scheduler reports them: the first one a listed warp has (see
 * issue_stall). */
static const issue_stall by_rank[] = {ISSUE_STALL_IDLE,     ISSUE_STALL_MEMORY, ISSUE_STALL_SCOREBOARD,
                                      ISSUE_STALL_PIPELINE, ISSUE_STALL_CHECK,  ISSUE_STALL_BARRIER,
                                      ISSUE_STALL_NO_READY, ISSUE_STALL_VETOED};
_Static_assert(G_N_ELEMENTS(by_rank) == ISSUE_STALL_COUNT, "every stall reason ranked");

/* Check warp i of scheduler sc's list again: its readiness, its stall, whether a unit's room decides
 * for it. */
static inline void sched_check(issue *s, issue_sched *sc, unsigned i, unsigned room, uint64_t now)
{
    policy_warp *pw = &sc->pw[i];
    unsigned wi = pw->id;
    const decoded_t *h = ib_head(s, wi);
    issue_stall r = warp_check(s, wi, h, room, now);
    sc->n_stall[pw_stall(pw)]--;
    sc->n_stall[r]++;
    pw->ready = r == ISSUE_STALL_COUNT;
    pw->long_stall = r == ISSUE_STALL_MEMORY || r == ISSUE_STALL_BARRIER;
    pw->stall = r == ISSUE_STALL_COUNT ? 0 : (unsigned)r + 1;
    if (r == ISSUE_STALL_NO_READY && h) /* the check may have redirected it (the buffer emptied) */
        h = ib_head(s, wi);
    pw->flags = h ? h->pflags : 0; /* (memory instructions only: POLICY_F_MEM and what it is) */
    bool asks = r == ISSUE_STALL_COUNT || r == ISSUE_STALL_PIPELINE;
    wmask_put(&sc->asks_mem, wi, asks && (pw->flags & POLICY_F_MEM));
    wmask_put(&sc->asks_alu, wi, asks && !(pw->flags & POLICY_F_MEM));
}

/* A unit's room changed to `room` (incremental evaluation): the warps that asked for it and did not
 * change since (`asks`, not dirty) passed every other test, so they go from ready to stalled on the
 * pipeline or back without being checked again (what sched_check would find). True if there were any. */
static bool sched_flip(const issue *s, issue_sched *sc, const wmask *asks, bool room)
{
    issue_stall r = room ? ISSUE_STALL_COUNT : ISSUE_STALL_PIPELINE;
    bool any = false;
    for (unsigned k = 0; k < s->words; k++)
        for (uint64_t m = asks->w[k] & ~sc->dirty.w[k]; m; m &= m - 1) {
            policy_warp *pw = &sc->pw[s->w[64 * k + (unsigned)__builtin_ctzll(m)].pos];
            sc->n_stall[pw_stall(pw)]--;
            sc->n_stall[r]++;
            pw->ready = room;
            pw->stall = room ? 0 : (unsigned)r + 1;
            any = true;
        }
    return any;
}

/* Prefetching (gsc_prefetch_next): the arbiter's second choice this cycle is the likeliest warp to
 * issue in the next (the first just issued, and in a dependent chain waits); its next instruction's
 * source registers are named for the next activation. */
static void prefetch_runner_up(const issue *s, unsigned wi)
{
    const decoded_t *h = ib_head(s, wi);
    if (!h)
        return;
    for (unsigned k = 0; k < h->n_src && k < 3; k++)
        wexec_prefetch_slot(s->wx, wi, h->src[k]);
}

static void sched_cycle(issue *s, unsigned si, uint64_t now)
{
    issue_sched *sc = &s->sched[si];
    unsigned room = unit_room(s, si);
    bool stable = sc->incremental;
    bool all = !stable; /* check every warp */
    bool flipped = false;
    if (!all && room != sc->room) {
        /* A unit's room decides only for the warps whose head goes to it and that got as far as
         * asking: those that were ready or stalled on it (the others stopped at an earlier test). */
        unsigned changed = room ^ sc->room;
        if (changed & 1u)
            flipped |= sched_flip(s, sc, &sc->asks_mem, room & 1u);
        if (changed & 2u)
            flipped |= sched_flip(s, sc, &sc->asks_alu, room >> 1 & 1u);
        sc->room = room;
    }
    if (!all && !flipped && !wmask_any(&sc->dirty) && now < sc->veto_until) {
        /* Its warps and its units' room are as the last evaluation, which issued nothing (an issue
         * marks the warp), saw them; a stable policy answers the same: the same stall (vetoes that
         * hold answer the same until veto_until: what asking them would count is counted). */
        blk_stat_add(s->inst, ISSUE_STAT_STALL_IDLE + sc->last_stall, 1);
        if (sc->asked)
            sc->arb->repeat(sc->arb_self, sc->pw, sc->n, now, 1);
        if (si == 0)
            s->tr_stall = (uint8_t)sc->last_stall;
        return;
    }
    /* The warps to check, as a mask of list positions (checked in list order, as a redirect queues
     * in that order): every warp, or the dirty ones (a dirty warp no longer listed is ignored). */
    if (s->words == 1) { /* up to 64 warps: the positions fit one word (the common case, kept cheap) */
        uint64_t todo = 0;
        if (all)
            todo = sc->n >= 64 ? UINT64_MAX : (UINT64_C(1) << sc->n) - 1;
        else
            for (uint64_t m = sc->dirty.w[0] & sc->members.w[0]; m; m &= m - 1)
                todo |= UINT64_C(1) << s->w[__builtin_ctzll(m)].pos;
        wmask_zero(&sc->dirty); /* a warp that changes during the evaluation is marked again */
        sc->room = room;
        for (; todo; todo &= todo - 1)
            sched_check(s, sc, (unsigned)__builtin_ctzll(todo), room, now);
    } else {
        wmask todo;
        if (all) {
            wmask_first(&todo, sc->n);
        } else {
            wmask_zero(&todo);
            for (unsigned k = 0; k < s->words; k++)
                for (uint64_t m = sc->dirty.w[k] & sc->members.w[k]; m; m &= m - 1)
                    wmask_set(&todo, s->w[64 * k + (unsigned)__builtin_ctzll(m)].pos);
        }
        wmask_zero(&sc->dirty);
        sc->room = room;
        for (unsigned k = 0; k < s->words; k++)
            for (uint64_t t = todo.w[k]; t; t &= t - 1)
                sched_check(s, sc, 64 * k + (unsigned)__builtin_ctzll(t), room, now);
    }
    /* The scheduler's stall: the first in by_rank that a listed warp has, if ranked before the default. */
    issue_stall worst = sc->n ? ISSUE_STALL_NO_READY : ISSUE_STALL_IDLE;
    for (unsigned k = 0; by_rank[k] != worst; k++)
        if (sc->n_stall[by_rank[k]]) {
            worst = by_rank[k];
            break;
        }
    unsigned ready = sc->n_stall[ISSUE_STALL_COUNT];
    if (sc->n_stall[ISSUE_STALL_CHECK])
        s->refused = true;
    /* a stable policy lists only ready warps: with none there is nothing to ask */
    unsigned n = ready || !stable ? sc->arb->first(sc->arb_self, sc->pw, sc->n, now, sc->order) : 0;
    if (n == 0 && ready > 0) { /* every ready warp was vetoed */
        worst = ISSUE_STALL_VETOED;
        if (sc->settles) { /* the answer is reused while it holds; the vetoes wake the stage */
            sc->asked = true;
            sc->veto_until = sc->arb->holds_until(sc->arb_self, sc->pw, sc->n, now);
        } else {
            s->refused = true;
        }
    } else {
        sc->asked = false;
        sc->veto_until = UINT64_MAX; /* (nothing asked, or an issue: its warp is dirty) */
    }
    if (n > 0) {
        unsigned i = sc->order[0];
        unsigned wi = sc->pw[i].id;
        if (!warp_issue(s, si, wi, now)) {
            gsc_stop();
            return;
        }
        sc->arb->outcome(sc->arb_self, (int)wi, ISSUE_STALL_COUNT);
        sc->pw[i].last_issue = (int64_t)now; /* the warp stays listed until its completion */
        if (gsc_hot.prefetch && n > 1)
            prefetch_runner_up(s, sc->pw[sc->order[1]].id);
        blk_stat_add(s->inst, ISSUE_STAT_ISSUE_CYCLES, 1);
        sc->last_stall = ISSUE_STALL_COUNT;
        if (si == 0)
            s->tr_stall = (uint8_t)ISSUE_STALL_COUNT; /* "issued": not a stall reason */
        return;
    }
    blk_stat_add(s->inst, ISSUE_STAT_STALL_IDLE + worst, 1);
    sc->last_stall = worst;
    sc->arb->outcome(sc->arb_self, -1, worst);
    if (si == 0)
        s->tr_stall = (uint8_t)worst;
}

/* Cycles slept until the next activation count as stalls of the reason seen now (blk_sleep_charge). */
static void charge_sleep(issue *s)
{
    for (unsigned si = 0; si < s->n_sched; si++) {
        issue_stall r = s->sched[si].last_stall;
        if (r == ISSUE_STALL_COUNT)
            r = s->sched[si].n ? ISSUE_STALL_NO_READY : ISSUE_STALL_IDLE;
        blk_sleep_charge(s->inst, ISSUE_STAT_STALL_IDLE + r, 1);
    }
    blk_sleep_charge(s->inst, ISSUE_STAT_CTA_CYCLES, s->n_ctas);
}

/* The cycles [first, first + count) were slept through (or were the rest of the run): every
 * scheduler whose last answer was reused counts what asking would have. */
static void repeat_slept(issue *s, uint64_t first, uint64_t count)
{
    for (unsigned si = 0; si < s->n_sched && count; si++) {
        issue_sched *sc = &s->sched[si];
        if (sc->settles && sc->asked)
            sc->arb->repeat(sc->arb_self, sc->pw, sc->n, first, count);
    }
}

/* A veto's answers changed from cycle `from` on (arbiter watch(); called before the veto changes
 * its state): answers held from before are not reused from then, the cycles slept until now are
 * counted with the answers they had, and a sleeping stage wakes (in the next cycle at the earliest:
 * a change made in this cycle after the stage ran counts from the next one). */
static void veto_changed(void *ctx, uint64_t from)
{
    issue *s = ctx;
    for (unsigned si = 0; si < s->n_sched; si++)
        if (s->sched[si].settles)
            s->sched[si].veto_until = MIN(s->sched[si].veto_until, from);
    uint64_t now = gsc_cycle();
    if (now > s->charged_to) { /* the cycles slept so far, with the answers they had */
        repeat_slept(s, s->charged_to, now - s->charged_to);
        s->charged_to = now;
    }
    gsc_event_notify(s->veto_event, from > now ? from - now : 1);
}

/* Sleeping: wake when the first reused answer may change. */
static void wake_for_vetoes(issue *s, uint64_t now)
{
    uint64_t wake = UINT64_MAX;
    for (unsigned si = 0; si < s->n_sched; si++)
        if (s->sched[si].asked)
            wake = MIN(wake, s->sched[si].veto_until);
    if (wake != UINT64_MAX)
        gsc_run_within(wake > now ? wake - now : 1);
}

static void issue_finish(void *self, uint64_t cycles)
{
    issue *s = self;
    if (s->any_settles && cycles > s->charged_to)
        repeat_slept(s, s->charged_to, cycles - s->charged_to);
    s->charged_to = cycles; /* (counted once) */
}

/* The grid released a CTA from bar.blocksync (in the grid's activation): its warps go on from the
 * next cycle (bs_take_releases). */
static void bs_release(void *self, unsigned slot)
{
    issue *s = self;
    blk_call_note(s->probe[ISSUE_BLOCKSYNC_RELEASE], slot, 0, 0);
    g_assert(slot < s->ctas && s->bs_release_at[slot] == UINT64_MAX);
    s->bs_release_at[slot] = gsc_cycle();
    s->bs_releases++;
    gsc_event_notify(s->bs_event, 1);
}
static const blocksync_release_if bs_release_table = {bs_release};

static void bs_take_releases(issue *s, uint64_t now)
{
    for (unsigned slot = 0; slot < s->ctas; slot++) {
        if (s->bs_release_at[slot] >= now) /* none, or called in this cycle */
            continue;
        s->bs_release_at[slot] = UINT64_MAX;
        s->bs_releases--;
        const cta_launch_t *c = &s->cta[slot];
        for (unsigned i = 0; i < c->warps; i++)
            if (s->bs_held[slot] >> i & 1) {
                s->w[c->first_warp + i].at_barrier = false;
                sched_dirty(s, c->first_warp + i);
            }
        s->bs_held[slot] = 0;
    }
    if (s->bs_releases)
        gsc_run_within(1);
}

/* The per-warp traced state at the end of the activation (only while traced: every warp slot's
 * state changes only in issue's activations, so it holds while issue sleeps). */
static void trace_warps(issue *s)
{
    for (unsigned wi = 0; wi < s->warps; wi++) {
        issue_warp_trace *t = &s->tw[wi];
        const issue_warp *w = &s->w[wi];
        if (!w->resident) {
            memset(t, 0, sizeof *t); /* (stall 0: idle) */
            continue;
        }
        uint32_t func, pc = 0;
        if (!wexec_warp_next(s->wx, wi, &func, &pc))
            pc = 0;
        t->pc = pc;
        t->mask = wexec_warp_active_lanes(s->wx, wi);
        t->pending = (uint16_t)MIN(s->sb->reserved(s->sb_self, wi), UINT16_MAX);
        t->ibuf = (uint8_t)MIN(s->ib->count(s->ib_self, wi), UINT8_MAX);
        t->at_barrier = w->at_barrier;
        const issue_sched *sc = &s->sched[wi % s->n_sched];
        t->stall = (uint8_t)pw_stall(&sc->pw[w->pos]); /* ISSUE_STALL_COUNT: ready */
    }
    for (unsigned i = 0; i < s->n_tw_issued; i++)
        s->tw[s->tw_issued[i]].stall = ISSUE_WARP_ISSUED;
    s->n_tw_issued = 0;
}

static void issue_run(void *self)
{
    issue *s = self;
    uint64_t now = gsc_cycle();
    if (s->env->failed)
        return;
    if (__builtin_expect(!s->started, 0)) { /* every block has elaborated (the arbiters' vetoes) */
        for (unsigned i = 0; i < s->n_sched; i++) {
            issue_sched *sc = &s->sched[i];
            sc->stable = s->n_checks == 0 && sc->arb->stable(sc->arb_self);
            sc->settles =
                !sc->stable && s->n_checks == 0 && sc->arb->settles && sc->arb->settles(sc->arb_self);
            sc->incremental = sc->stable || sc->settles;
            if (sc->settles) {
                s->any_settles = true;
                sc->arb->watch(sc->arb_self, veto_changed, s);
            }
        }
        s->started = true;
        s->charged_to = now;
    }
    blk_sleep_wake(s->inst, now);
    if (G_UNLIKELY(s->any_settles)) {
        if (now > s->charged_to)
            repeat_slept(s, s->charged_to, now - s->charged_to);
        s->charged_to = now + 1;
    }
    unsigned ctas_before = s->n_ctas;
    if (G_UNLIKELY(s->bs_releases))
        bs_take_releases(s, now);
    /* Barrier releases of the previous cycle take effect now. */
    for (unsigned k = 0; wmask_any(&s->pending_release) && k < s->words; k++)
        for (uint64_t m = s->pending_release.w[k]; m; m &= m - 1) {
            unsigned wi = 64 * k + (unsigned)__builtin_ctzll(m);
            s->w[wi].at_barrier = false;
            sched_dirty(s, wi);
        }
    wmask_zero(&s->pending_release);
    take_inputs(s);
    s->tr_issued = 0;
    s->refused = false;
    uint64_t issued_before = blk_stat_get(s->inst, ISSUE_STAT_WARP_INSTRS);
    for (unsigned si = 0; si < s->n_sched && !s->env->failed; si++)
        sched_cycle(s, si, now);
    flush_outputs(s);
    if (s->tw_on)
        trace_warps(s);
    blk_stat_add(s->inst, ISSUE_STAT_CTA_CYCLES, MAX(ctas_before, s->n_ctas));
    bool issued = blk_stat_get(s->inst, ISSUE_STAT_WARP_INSTRS) != issued_before;
    bool pending = wmask_any(&s->pending_release) || s->queued;
    if (issued || pending || s->refused) {
        gsc_run_within(1);
    } else {
        charge_sleep(s); /* (running in the next cycle, it sleeps through none) */
        if (G_UNLIKELY(s->any_settles))
            wake_for_vetoes(s, now);
    }
    /* else: sleep until an input is put or a unit FIFO is got from (static sensitivity); a check or
     * a veto that refused a ready warp may allow it next cycle without any input: no sleep then */
}

/* The log and the pipeline view are opened at elaboration, not when the block is made: a run that
 * only prints its configuration (--dump-config) creates no file. */
static void open_outputs(issue *s)
{
    const char *log = blk_param_string(s->inst, "log");
    if (log && *log) {
        s->log = outfile_open(log); /* shared by every instance given this path */
        if (!s->log)
            gsc_fatal("%s.log: cannot open '%s' for writing: %s", s->inst->path, log, g_strerror(errno));
    }
    const char *pv = blk_param_string(s->inst, "pipeview");
    if (pv && *pv) {
        s->pv = outfile_open(pv);
        if (!s->pv)
            gsc_fatal("%s.pipeview: cannot open '%s' for writing: %s", s->inst->path, pv, g_strerror(errno));
        s->pv_open = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    }
}

static void issue_elaborate(void *self)
{
    issue *s = self;
    open_outputs(s);
    blk_iref r = blk_import(s->inst, ISSUE_SB, 0);
    s->sb = r.methods, s->sb_self = r.self;
    r = blk_import(s->inst, ISSUE_IB, 0);
    s->ib = r.methods, s->ib_self = r.self;
    r = blk_import(s->inst, ISSUE_BAR, 0);
    s->bar = r.methods, s->bar_self = r.self;
    r = blk_import(s->inst, ISSUE_BLOCKSYNC, 0);
    s->bs = r.methods, s->bs_self = r.self;
    s->report_reads = s->sb->source_reservations(s->sb_self);
    s->checks = blk_import_all(s->inst, ISSUE_CHECK, 0, &s->n_checks);
    s->any_checks = s->n_checks > 0;
    s->listeners = blk_import_all(s->inst, ISSUE_ISSUED, 0, &s->n_listeners);
    s->events = blk_import_all(s->inst, ISSUE_WARP_EVENTS, 0, &s->n_events);
    for (unsigned i = 0; i < blk_import_n(s->inst, ISSUE_VALUE, 0); i++) {
        blk_iref v = blk_import_nth(s->inst, ISSUE_VALUE, 0, i);
        char *name = g_strdup_printf("value%u", i);
        wexec_add_value_hook(s->wx, name, ((const regval_if *)v.methods)->access, v.self);
        g_free(name);
    }
    /* (arbiters elaborate their vetoes in their own hook: stability is asked at the first cycle) */
    for (unsigned i = 0; i < s->n_sched; i++) {
        r = blk_import(s->inst, ISSUE_ARB, i);
        s->sched[i].arb = r.methods, s->sched[i].arb_self = r.self;
        s->sched[i].exec = blk_fifo_at(s->inst, ISSUE_TO_EXEC, s->parts > 1 ? i % s->parts : 0);
    }
    s->ldst_fifo = port_fifo(s, ISSUE_TO_LDST);
    for (unsigned q = 0; q < s->parts; q++)
        s->release[q] = blk_fifo_at(s->inst, ISSUE_RELEASE, q);
    s->release0 = s->release[0];
    s->release_ldst = port_fifo(s, ISSUE_RELEASE_LDST);
    s->decoded = port_fifo(s, ISSUE_DECODED);
    s->cta_launch = port_fifo(s, ISSUE_CTA_LAUNCH);
    gsc_process *p = gsc_process_new(s->inst->mod, "run", issue_run, s);
    /* Its outputs wake it only when it waits for room (a put it was refused: a unit's FIFO full
     * for a warp that asks for it, a redirect, credit or CTA end still queued): a get it was not
     * waiting for changes none of its warps' readiness. With resource checks bound, after every get
     * (a check may answer by when it is asked: register power states wake up on the first ask). */
    void (*out_sensitive)(gsc_process *, gsc_fifo *) = s->n_checks ? gsc_sensitive_fifo_get : gsc_sensitive_fifo_room;
    gsc_sensitive_fifo_put(p, port_fifo(s, ISSUE_CTA_LAUNCH));
    gsc_sensitive_fifo_put(p, port_fifo(s, ISSUE_DECODED));
    for (unsigned q = 0; q < s->parts; q++) {
        gsc_sensitive_fifo_put(p, blk_fifo_at(s->inst, ISSUE_RELEASE, q));
        out_sensitive(p, blk_fifo_at(s->inst, ISSUE_TO_EXEC, q));
    }
    gsc_sensitive_fifo_put(p, port_fifo(s, ISSUE_RELEASE_LDST));
    out_sensitive(p, port_fifo(s, ISSUE_TO_LDST));
    out_sensitive(p, port_fifo(s, ISSUE_REDIRECT));
    out_sensitive(p, port_fifo(s, ISSUE_CREDIT));
    out_sensitive(p, port_fifo(s, ISSUE_CTA_DONE));
    if (s->bs) {
        s->bs_event = gsc_event_new(s->inst->mod, "blocksync_release");
        gsc_sensitive_event(p, s->bs_event);
    }
    s->veto_event = gsc_event_new(s->inst->mod, "veto_changed");
    gsc_sensitive_event(p, s->veto_event);
}

/* Per warp slot N, <issue>.warpN.{pc, mask, ibuf, pending, at_barrier, stall}: one group per warp
 * in the views. On a machine of several SMs they are details (the pattern "*" alone leaves them out:
 * --trace='*,*.warp*' or 'sm0.issue.warp3.*' selects them). */
static void trace_warp_state(issue *s)
{
    static const struct {
        const char *name;
        gsc_ctype ctype;
        size_t off;
        unsigned width;
    } f[] = {
        {"pc", GSC_U32, offsetof(issue_warp_trace, pc), 32},
        {"mask", GSC_U32, offsetof(issue_warp_trace, mask), 32},
        {"ibuf", GSC_U8, offsetof(issue_warp_trace, ibuf), 8},
        {"pending", GSC_U16, offsetof(issue_warp_trace, pending), 16},
        {"at_barrier", GSC_U8, offsetof(issue_warp_trace, at_barrier), 1},
        {"stall", GSC_U8, offsetof(issue_warp_trace, stall), 4},
    };
    s->tw = g_new0(issue_warp_trace, s->warps);
    for (unsigned wi = 0; wi < s->warps; wi++)
        for (unsigned k = 0; k < G_N_ELEMENTS(f); k++) {
            char name[32];
            snprintf(name, sizeof name, "warp%u.%s", wi, f[k].name);
            gsc_trace_var(s->inst->mod, name, f[k].ctype, (const char *)&s->tw[wi] + f[k].off, f[k].width);
            if (s->env->n_sms > 1)
                gsc_trace_var_detail(s->inst->mod, name);
            gsc_trace_var_flag(s->inst->mod, name, &s->tw_on);
            if (k == G_N_ELEMENTS(f) - 1)
                gsc_trace_var_enum(s->inst->mod, name, &issue_warp_stall_enum);
        }
}

issue *issue_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned sm_id,
                 unsigned warps, unsigned ctas, unsigned parts)
{
    g_assert(parts >= 1 && parts <= SM_MAX_PARTS && warps <= SM_MAX_WARPS && SM_MAX_WARPS <= WMASK_BITS);
    issue *s = g_aligned_alloc0(1, sizeof(issue), 64);
    unsigned counts[ISSUE_N_PORTS] = {[ISSUE_TO_EXEC] = parts, [ISSUE_RELEASE] = parts};
    s->inst = blk_inst_new_arrays(ctx, parent, name, &issue_desc, counts);
    s->env = env;
    s->sm_id = sm_id;
    s->warp_size = sm_env_warp_size(env);
    s->warps = warps;
    s->words = wmask_words(warps);
    s->ctas = ctas;
    s->parts = parts;
    s->n_sched = (unsigned)blk_param_uint(s->inst, "schedulers");
    s->wx = wexec_new(env, sm_id, warps, ctas);
    s->w = g_aligned_alloc0(warps, sizeof(issue_warp), 64);
    for (unsigned i = 0; i < warps; i++)
        s->w[i].sb_stall = ISSUE_STALL_COUNT;
    s->sched = g_aligned_alloc0(s->n_sched, sizeof(issue_sched), 64);
    for (unsigned i = 0; i < s->n_sched; i++) {
        issue_sched *sc = &s->sched[i];
        sc->pw = g_aligned_alloc0(warps, sizeof(policy_warp), 64);
        sc->last_stall = ISSUE_STALL_IDLE;
        sc->veto_until = UINT64_MAX; /* (only schedulers whose vetoes hold lower it) */
    }
    for (unsigned i = 0; i < SM_MAX_CTAS; i++)
        s->bs_release_at[i] = UINT64_MAX;
    blk_export(s->inst, ISSUE_BLOCKSYNC_RELEASE, 0, &bs_release_table, s);
    blk_export_probes(s->inst, s->probe, ISSUE_BLOCKSYNC_RELEASE + 1);
    ring_init(&s->redirects, sizeof(redirect_t));
    ring_init(&s->credits, sizeof(credit_t));
    ring_init(&s->done, sizeof(cta_done_t));
    charge_sleep(s); /* idle from cycle 0 */
    blk_trace_state(s->inst, "issued", GSC_U32, &s->tr_issued);
    gsc_trace_var_strobe(s->inst->mod, "issued");
    blk_trace_state(s->inst, "warp", GSC_U32, &s->tr_warp);
    blk_trace_state(s->inst, "pc", GSC_U32, &s->tr_pc);
    blk_trace_state(s->inst, "stall", GSC_U8, &s->tr_stall);
    gsc_trace_var_enum(s->inst->mod, "stall", &issue_stall_enum);
    trace_warp_state(s);
    blk_inst_on_elaborate(s->inst, issue_elaborate, s);
    blk_inst_on_finish(s->inst, issue_finish, s);
    return s;
}

void issue_free(issue *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->n_sched; i++) {
        g_aligned_free(s->sched[i].pw);
    }
    ring_clear(&s->redirects);
    ring_clear(&s->credits);
    ring_clear(&s->done);
    g_free(s->checks);
    g_free(s->listeners);
    g_free(s->events);
    s->log = s->pv = NULL; /* closed by outfile_close_all */
    if (s->pv_open)
        g_hash_table_destroy(s->pv_open);
    g_aligned_free(s->sched);
    g_aligned_free(s->w);
    g_free(s->tw);
    wexec_free(s->wx);
    g_aligned_free(s);
}

const decoded_t *issue_ready_head(issue *s, unsigned wi)
{
    if (wi >= s->warps || !s->w[wi].resident)
        return NULL;
    const decoded_t *h = ib_head(s, wi);
    unsigned room = unit_room(s, wi % s->n_sched);
    return warp_check_own(s, wi, h, room) == ISSUE_STALL_COUNT ? h : NULL;
}

unsigned issue_schedulers(const issue *s)
{
    return s->n_sched;
}

bool issue_busy(const issue *s)
{
    return s->n_ctas > 0;
}

void issue_dump(const issue *s, GString *out)
{
    for (unsigned wi = 0; wi < s->warps; wi++) {
        const issue_warp *w = &s->w[wi];
        if (!w->resident)
            continue;
        g_string_append_printf(out, "  %s: ", s->inst->path);
        wexec_dump_warp(s->wx, wi, out);
        g_string_append(out, "    waits on:");
        if (w->at_barrier)
            g_string_append_printf(out, " barrier %u of its block;", w->bar_id);
        if (w->exited)
            g_string_append(out, " completion of its last instructions;");
        if (w->loads_pending || w->atomics_pending)
            g_string_append_printf(out, " %u loads and %u atomics in flight (memory order);",
                                   w->loads_pending, w->atomics_pending);
        const decoded_t *h = ib_head(s, wi);
        if (!h && !w->at_barrier && !w->exited)
            g_string_append(out, " its next instruction (fetch / I-cache);");
        g_string_append_printf(out, " I-buffer %u entries; %u instructions in flight",
                               s->ib->count(s->ib_self, wi), w->inflight);
        if (h) {
            for (unsigned i = 0; i < h->n_src; i++)
                if (s->sb->pending_writes(s->sb_self, wi, h->src[i]))
                    g_string_append_printf(
                        out, "; scoreboard: register slot %u (its physical register) pending", h->src[i]);
            for (unsigned i = 0; i < h->n_dst; i++) {
                unsigned wr = s->sb->pending_writes(s->sb_self, wi, h->dst[i]);
                unsigned rd = s->sb->pending_reads(s->sb_self, wi, h->dst[i]);
                if (wr)
                    g_string_append_printf(
                        out, "; scoreboard: destination slot %u has %u pending writes (WAW)", h->dst[i], wr);
                if (rd)
                    g_string_append_printf(out,
                                           "; scoreboard: destination slot %u has %u pending reads (WAR: "
                                           "source reservations, released when a unit has read it)",
                                           h->dst[i], rd);
            }
        }
        g_string_append_c(out, '\n');
    }
}
