/* spu_ctl.c — the `spu_ctl` block; see spu_ctl.h. */
#include "models/spu/spu_ctl.h"

#include <string.h>

#include "kernels/frontend/spu_isa.h"
#include "models/sm/issue.h"
#include "models/spu/spu_cb.h"

static const blk_port_desc ports[] = {
    [SPU_CTL_BS] = {"bs", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL, "arrivals at the global blocksync",
                    &blocksync_iface},
    [SPU_CTL_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL, "CTA starts and ends of every SM",
                        &warp_events_iface},
    [SPU_CTL_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                        "every SM's issued instructions (the access counters)", &instr_issued_iface},
    [SPU_CTL_RELEASE] = {"release", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                         "the units it releases, in unit order (SMs, then interface units)",
                         &blocksync_release_iface, BLK_PORT_MULTI},
    [SPU_CTL_CBS] = {"cbs", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "every CB pair (swapped on a release)",
                     &spu_cb_iface, BLK_PORT_MULTI},
};

static const blk_param_desc params[] = {
    {"latency", BLK_PARAM_UINT, "1", "1", "1000", NULL, "cycles",
     "from the last arrival to the release [A: SPU spec §6, §17 item 3]"},
    {"deadlock_cycles", BLK_PARAM_UINT, "10000", "1", "1000000000", NULL, "cycles",
     "the watchdog: a grid whose every unit has ended or waits at a blocksync that cannot complete, "
     "with no arrival, departure or CTA start for this long, is deadlocked (a blocksync count "
     "mismatch) and the run stops with an error [A: SPU spec §7]"},
    {"selftest_no_swap", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "break the mechanism: releases swap no CB (a test sees the stencil's check fail)"},
};

static const blk_stat_desc stats[] = {
    [SPU_CTL_STAT_ROUNDS] = {"rounds", BLK_STAT_COUNTER, "barriers", "global blocksync releases", NULL},
    [SPU_CTL_STAT_ARRIVALS] = {"arrivals", BLK_STAT_COUNTER, "arrivals",
                               "unit arrivals (CTAs and interface units)", NULL},
    [SPU_CTL_STAT_WAIT_CYCLES] = {"wait_cycles", BLK_STAT_COUNTER, "unit-cycles",
                                  "cycles units spent arrived and not yet released", NULL},
    [SPU_CTL_STAT_SM_LOADS] = {"sm_offchip_loads", BLK_STAT_COUNTER, "elements",
                               "4-byte elements the SMs loaded from global memory", NULL},
    [SPU_CTL_STAT_SM_STORES] = {"sm_offchip_stores", BLK_STAT_COUNTER, "elements",
                                "4-byte elements the SMs stored to global memory", NULL},
    [SPU_CTL_STAT_SM_CB_ACCESSES] = {"sm_cb_accesses", BLK_STAT_COUNTER, "elements",
                                     "4-byte elements the SMs read or wrote in CBs (ld.cb, st.cb)", NULL},
    [SPU_CTL_STAT_PAIR_SYNCS] = {"pair_syncs", BLK_STAT_COUNTER, "syncs",
                                 "producer-consumer blocksyncs completed (one per CB pair swap)", NULL},
    [SPU_CTL_STAT_ROLE_INSTRS] = {"role_instructions", BLK_STAT_COUNTER, "instructions",
                                  "warp instructions of IU code the SMs issued in interface-unit roles", NULL},
    [SPU_CTL_STAT_ROLE_LOADS] = {"role_offchip_loads", BLK_STAT_COUNTER, "elements",
                                 "4-byte elements the SMs' interface-unit roles loaded from global memory",
                                 NULL},
    [SPU_CTL_STAT_ROLE_STORES] = {"role_offchip_stores", BLK_STAT_COUNTER, "elements",
                                  "4-byte elements the SMs' interface-unit roles stored to global memory",
                                  NULL},
    [SPU_CTL_STAT_ROLE_CB] = {"role_cb_accesses", BLK_STAT_COUNTER, "elements",
                              "4-byte elements the SMs' interface-unit roles read or wrote in CBs", NULL},
    [SPU_CTL_STAT_ROLE_SYNCS] = {"role_blocksyncs", BLK_STAT_COUNTER, "arrivals",
                                 "blocksyncs the SMs' interface-unit roles arrived at (their rounds)", NULL},
};

static const blk_state_desc state[] = {{"arrived", 16, "units waiting at the global blocksync"},
                                       {"rounds", 32, "global blocksync releases so far"}};

const blk_desc spu_ctl_desc = {
    "spu_ctl",
    "the SPU grid's controller: global blocksync, CB swaps, SM access counters",
    "SPU spec §5-6, §12",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

#define WAIT_NONE 0xff

static unsigned opposite(unsigned dir)
{
    return dir == SPU_DIR_NORTH   ? SPU_DIR_SOUTH
           : dir == SPU_DIR_SOUTH ? SPU_DIR_NORTH
           : dir == SPU_DIR_WEST  ? SPU_DIR_EAST
                                  : SPU_DIR_WEST;
}

/* "SM 1 (x 1, y 0; CTA (1,0) of pass (0,0))" or the unit's name. */
static void unit_desc(const spu_ctl *c, unsigned u, GString *out)
{
    if (u < c->n_sms) {
        unsigned cx = c->cta[2 * u], cy = c->cta[2 * u + 1];
        g_string_append_printf(out, "SM %u (x %u, y %u; CTA (%u,%u) of pass (%u,%u))", u, u % c->p, u / c->p,
                               cx, cy, cx / c->p, cy / c->p);
    } else
        g_string_append(out, c->unit_name[u] ? c->unit_name[u] : "an interface unit");
}

/* Stops the run with the controller's error (the first one only). */
static void fail(spu_ctl *c, GString *msg)
{
    if (c->fault) {
        g_string_free(msg, TRUE);
        return;
    }
    c->fault = g_string_free(msg, FALSE);
    gsc_stop();
}

/* Global sync: unit `left` has left after `n_left` global blocksyncs while unit `other` arrived at
 * number `n` > n_left. */
static void global_mismatch(spu_ctl *c, unsigned left, unsigned other, uint32_t n)
{
    GString *m = g_string_new(NULL);
    g_string_append_printf(m, "%s: blocksync count mismatch at cycle %" G_GUINT64_FORMAT ": ", c->inst->path,
                           gsc_cycle());
    unit_desc(c, left, m);
    g_string_append_printf(m, " ended after %u global bar.blocksync, but ", c->n_syncs[left * 5]);
    unit_desc(c, other, m);
    g_string_append_printf(m,
                           " arrived at number %u (every CTA and interface unit must execute every global "
                           "blocksync)",
                           n);
    fail(c, m);
}

/* Global-sync passes (spu_ctl_set_global_pass): unit u made `n` global blocksyncs in its pass,
 * which has global_pass; `what`: "ended after" or "arrived at number". */
static void pass_mismatch(spu_ctl *c, unsigned u, const char *what, uint32_t n)
{
    GString *m = g_string_new(NULL);
    g_string_append_printf(m, "%s: blocksync count mismatch at cycle %" G_GUINT64_FORMAT ": ", c->inst->path,
                           gsc_cycle());
    unit_desc(c, u, m);
    g_string_append_printf(m,
                           " %s %u global bar.blocksync of its pass, which has %u (every CTA and "
                           "interface unit taking part in a pass must execute each of its global "
                           "blocksyncs)",
                           what, n, c->global_pass);
    fail(c, m);
}

/* An arrival of an SM running an interface-unit role counts as the role's round. */
static inline void role_arrival(spu_ctl *c, unsigned unit)
{
    if (G_UNLIKELY(c->role_on) && unit < c->n_sms && c->role_on[unit])
        blk_stat_add(c->inst, SPU_CTL_STAT_ROLE_SYNCS, 1);
}

/* A producer-consumer arrival: waits for the other side of its CB pair. */
static void pair_arrive(spu_ctl *c, unsigned unit, unsigned slot, unsigned dir)
{
    int ps = c->pair_of[unit * 5 + dir];
    if (ps < 0)
        gsc_fatal("%s: unit %u executed bar.blocksync.%s at cycle %" G_GUINT64_FORMAT
                  ", but it has no neighbour on that side",
                  c->inst->path, unit, spu_dir_name(dir), gsc_cycle());
    unsigned pair = (unsigned)ps / 2;
    if (c->pair_wait[ps])
        gsc_fatal("%s: unit %u arrived twice at the same side of CB pair %u", c->inst->path, unit, pair);
    c->pair_wait[ps] = unit + 1;
    c->pair_slot[ps] = slot;
    c->wait_dir[unit] = (uint8_t)dir;
    c->n_syncs[unit * 5 + dir]++;
    c->epoch++;
    blk_stat_add(c->inst, SPU_CTL_STAT_ARRIVALS, 1);
    role_arrival(c, unit);
    if (c->pair_wait[ps ^ 1]) {
        c->pair_due[pair] = gsc_cycle() + c->latency;
        c->n_due++;
    }
    gsc_event_notify(c->ev, c->latency); /* a release or a look by the watchdog */
}

static void pairs_release(spu_ctl *c, uint64_t now)
{
    for (unsigned pair = 0; pair < c->n_pairs && c->n_due; pair++) {
        if (c->pair_due[pair] > now)
            continue;
        c->pair_due[pair] = UINT64_MAX;
        c->n_due--;
        for (unsigned side = 0; side < 2; side++) {
            unsigned u = c->pair_wait[pair * 2 + side] - 1;
            blk_iref r = c->release[u];
            ((const blocksync_release_if *)r.methods)->release(r.self, c->pair_slot[pair * 2 + side]);
            c->pair_wait[pair * 2 + side] = 0;
            c->wait_dir[u] = WAIT_NONE;
        }
        if (!c->no_swap)
            ((const spu_cb_if *)c->cbs[pair].methods)->swap(c->cbs[pair].self);
        blk_stat_add(c->inst, SPU_CTL_STAT_PAIR_SYNCS, 1);
        c->epoch++;
    }
}

void spu_ctl_set_pair(spu_ctl *c, unsigned unit, unsigned dir, unsigned pair, unsigned side)
{
    g_assert(unit < c->n_units && dir >= 1 && dir <= 4 && side < 2 && pair < c->n_pairs);
    c->pair_of[unit * 5 + dir] = (int)(pair * 2 + side);
    c->pair_unit[pair * 2 + side] = unit;
}

void spu_ctl_set_unit_name(spu_ctl *c, unsigned unit, const char *name)
{
    g_assert(unit < c->n_units);
    g_free(c->unit_name[unit]);
    c->unit_name[unit] = g_strdup(name);
}

void spu_ctl_set_unit_blocked(spu_ctl *c, unsigned unit, const bool *flag)
{
    g_assert(unit < c->n_units);
    c->blocked[unit] = flag;
}

void spu_ctl_set_present(spu_ctl *c, unsigned unit, bool present)
{
    g_assert(unit < c->n_units);
    if (present && c->stint)
        c->stint[unit] = 0;
    if (c->left[unit] == !present)
        return;
    c->left[unit] = !present;
    if (present)
        c->n_left--;
    else
        c->n_left++;
    c->epoch++;
}

gsc_event *spu_ctl_event(const spu_ctl *c)
{
    return c->ev;
}

const char *spu_ctl_fault(const spu_ctl *c)
{
    return c->fault;
}

static void bs_arrive(void *self, unsigned unit, unsigned slot, unsigned dir)
{
    spu_ctl *c = self;
    blk_call_note(c->probe[SPU_CTL_BS], unit, slot, dir);
    if (dir) {
        pair_arrive(c, unit, slot, dir);
        return;
    }
    g_assert(unit < c->n_units && !c->arrived[unit]);
    if (c->left[unit])
        gsc_fatal("%s: unit %u arrived at a blocksync after leaving", c->inst->path, unit);
    uint32_t n = ++c->n_syncs[unit * 5];
    if (c->global_pass && ++c->stint[unit] > c->global_pass)
        pass_mismatch(c, unit, "arrived at number", c->stint[unit]);
    for (unsigned u = 0; u < c->n_units && !c->fault && !c->global_pass; u++)
        if (c->left[u] && c->n_syncs[u * 5] && c->n_syncs[u * 5] < n)
            global_mismatch(c, u, unit, n);
    if (n > c->max_global) {
        c->max_global = n;
        c->max_global_unit = unit;
    }
    c->wait_dir[unit] = 0;
    c->epoch++;
    c->arrived[unit] = true;
    c->slot[unit] = slot;
    c->arrive_at[unit] = gsc_cycle();
    c->n_arrived++;
    c->last_arrival = gsc_cycle();
    blk_stat_add(c->inst, SPU_CTL_STAT_ARRIVALS, 1);
    role_arrival(c, unit);
    gsc_event_notify(c->ev, c->latency);
}

static void bs_leave(void *self, unsigned unit)
{
    spu_ctl *c = self;
    blk_call_note(c->probe[SPU_CTL_BS], unit, 15, 7);
    g_assert(unit < c->n_units && !c->left[unit]);
    c->left[unit] = true;
    c->n_left++;
    c->epoch++;
    uint32_t n = c->n_syncs[unit * 5];
    if (c->global_pass) {
        if (c->stint[unit] != c->global_pass)
            pass_mismatch(c, unit, "ended after", c->stint[unit]);
    } else if (n && n < c->max_global)
        global_mismatch(c, unit, c->max_global_unit, c->max_global);
    gsc_event_notify(c->ev, c->latency);
}

static const blocksync_if bs_table = {bs_arrive, bs_leave};

static void ev_cta_start(void *self, const cta_launch_t *cl, uint64_t cycle)
{
    spu_ctl *c = self;
    blk_call_note(c->probe[SPU_CTL_EVENTS], 0, cl->cta, cl->slot);
    (void)cycle;
    unsigned sm = cl->sm;
    if (cl->own_entry) { /* an interface-unit role (the grid checked where it runs) */
        c->epoch++;
        c->role_on[sm] = true;
        if (c->left[sm]) {
            if (c->stint)
                c->stint[sm] = 0;
            c->left[sm] = false;
            c->n_left--;
        }
        return;
    }
    if (cl->ctaid[0] % c->p != sm % c->p || cl->ctaid[1] % c->p != sm / c->p || cl->ctaid[2] != 0)
        gsc_fatal("%s: CTA (%u, %u, %u) started on SM %u (x %u, y %u): the SPU maps CTA (i, j) to SM "
                  "(i mod %u, j mod %u)",
                  c->inst->path, cl->ctaid[0], cl->ctaid[1], cl->ctaid[2], sm, sm % c->p, sm / c->p, c->p,
                  c->p);
    c->cta[2 * sm] = cl->ctaid[0];
    c->cta[2 * sm + 1] = cl->ctaid[1];
    c->epoch++;
    if (c->left[sm]) { /* the SM's CTA of its next pass */
        if (c->stint)
            c->stint[sm] = 0;
        c->left[sm] = false;
        c->n_left--;
    }
}

static void ev_cta_end(void *self, const cta_launch_t *cl, uint64_t cycle)
{
    spu_ctl *c = self;
    blk_call_note(c->probe[SPU_CTL_EVENTS], 1, cl->cta, cl->slot);
    (void)cycle;
    if (cl->own_entry)
        c->role_on[cl->sm] = false;
    if (cl->own_entry && c->global_pass) {
        c->epoch++; /* a role: the grid sets whether the SM takes part in the current pass */
        return;
    }
    if (c->global_ctas && ++c->ctas_done[cl->sm] < c->global_ctas) {
        c->epoch++; /* between passes: its next CTA goes on with the SM's global blocksyncs */
        return;
    }
    bs_leave(self, cl->sm);
}

void spu_ctl_set_global_ctas(spu_ctl *c, unsigned n)
{
    c->global_ctas = n;
    g_free(c->ctas_done);
    c->ctas_done = g_new0(unsigned, c->n_sms);
}

void spu_ctl_set_role_code(spu_ctl *c, uint32_t first)
{
    c->role_func = first;
    g_free(c->role_on);
    c->role_on = g_new0(bool, c->n_sms);
}

void spu_ctl_set_global_pass(spu_ctl *c, unsigned n)
{
    c->global_pass = n;
    g_free(c->stint);
    c->stint = g_new0(uint32_t, c->n_units);
}

static void ev_warp_start(void *self, unsigned warp, unsigned slot, uint64_t cycle)
{
    spu_ctl *c = self;
    (void)cycle;
    blk_call_note(c->probe[SPU_CTL_EVENTS], 2, warp, slot);
}

static void ev_warp_end(void *self, unsigned warp, unsigned slot, uint64_t cycle)
{
    spu_ctl *c = self;
    (void)cycle;
    blk_call_note(c->probe[SPU_CTL_EVENTS], 3, warp, slot);
}

static const warp_events_if events_table = {ev_cta_start, ev_cta_end, ev_warp_start, ev_warp_end};

static void issued(void *self, const issued_t *it)
{
    spu_ctl *c = self;
    blk_call_note(c->probe[SPU_CTL_ISSUED], it->warp, it->pc, 0);
    bool role = it->func >= c->role_func;
    if (role)
        blk_stat_add(c->inst, SPU_CTL_STAT_ROLE_INSTRS, 1);
    if (it->cls != IR_CLASS_MEM)
        return;
    const ir_func *f = g_ptr_array_index(c->env->mod->funcs, it->func);
    const ir_instr *in = ir_func_instr(f, it->pc);
    if (in->cb) {
        blk_stat_add(c->inst, role ? SPU_CTL_STAT_ROLE_CB : SPU_CTL_STAT_SM_CB_ACCESSES,
                     (uint64_t)__builtin_popcount(it->mask) * ((it->bytes + 3u) / 4u));
        return;
    }
    uint64_t n = spu_global_elements(it);
    if (n && it->kind <= 1)
        blk_stat_add(c->inst,
                     role ? (it->kind == 0 ? SPU_CTL_STAT_ROLE_LOADS : SPU_CTL_STAT_ROLE_STORES)
                          : (it->kind == 0 ? SPU_CTL_STAT_SM_LOADS : SPU_CTL_STAT_SM_STORES),
                     n);
}

static const instr_issued_if issued_table = {issued};

/* Every unit has left or waits at a blocksync that cannot complete (none due, the global barrier
 * incomplete), one at least waiting. */
static bool stuck(const spu_ctl *c)
{
    if (c->n_due || (c->n_arrived && c->n_arrived + c->n_left == c->n_units) || c->n_left == c->n_units)
        return false;
    for (unsigned u = 0; u < c->n_units; u++)
        if (!c->left[u] && c->wait_dir[u] == WAIT_NONE && !(c->blocked[u] && *c->blocked[u]))
            return false;
    return true;
}

static void deadlock_report(spu_ctl *c, uint64_t now)
{
    GString *m = g_string_new(NULL);
    g_string_append_printf(
        m,
        "%s: blocksync deadlock at cycle %" G_GUINT64_FORMAT ": for %" G_GUINT64_FORMAT
        " cycles every unit of the grid has ended or waits at a blocksync that cannot "
        "complete (a blocksync count mismatch: a CTA executed fewer bar.blocksync than its "
        "partner)",
        c->inst->path, now, now - c->dl_since);
    unsigned shown = 0;
    for (unsigned u = 0; u < c->n_units; u++) {
        unsigned d = c->wait_dir[u];
        if (!c->left[u] && d == WAIT_NONE && c->blocked[u] && *c->blocked[u]) {
            g_string_append(m, "\n  ");
            unit_desc(c, u, m);
            g_string_append(m, " waits for a spill (the spill -> restore guard)");
            continue;
        }
        if (c->left[u] || d == WAIT_NONE)
            continue;
        if (++shown > 16) {
            g_string_append(m, "\n  ...");
            break;
        }
        g_string_append(m, "\n  ");
        unit_desc(c, u, m);
        if (d == 0) {
            g_string_append_printf(m, " waits at global bar.blocksync number %u", c->n_syncs[u * 5]);
            continue;
        }
        unsigned o = opposite(d), partner = c->pair_unit[c->pair_of[u * 5 + d] ^ 1];
        g_string_append_printf(m, " waits at bar.blocksync.%s number %u for ", spu_dir_name(d),
                               c->n_syncs[u * 5 + d]);
        unit_desc(c, partner, m);
        if (c->left[partner])
            g_string_append_printf(m, ", which has ended after %u bar.blocksync.%s",
                                   c->n_syncs[partner * 5 + o], spu_dir_name(o));
        else if (c->wait_dir[partner] == 0)
            g_string_append(m, ", which waits at a global bar.blocksync");
        else
            g_string_append_printf(
                m, ", which waits at bar.blocksync.%s number %u (after %u bar.blocksync.%s)",
                spu_dir_name(c->wait_dir[partner]), c->n_syncs[partner * 5 + c->wait_dir[partner]],
                c->n_syncs[partner * 5 + o], spu_dir_name(o));
    }
    fail(c, m);
}

/* The watchdog: stuck since dl_since with nothing changed (epoch) for deadlock_cycles: report. */
static void watch(spu_ctl *c, uint64_t now)
{
    if (c->fault || !stuck(c)) {
        c->dl_armed = false;
        return;
    }
    if (!c->dl_armed || c->epoch != c->dl_epoch) {
        c->dl_armed = true;
        c->dl_epoch = c->epoch;
        c->dl_since = now;
    }
    if (now - c->dl_since >= c->deadlock_cycles)
        deadlock_report(c, now);
    else
        gsc_run_within(c->deadlock_cycles - (now - c->dl_since));
}

static void spu_ctl_run(void *self)
{
    spu_ctl *c = self;
    uint64_t now = gsc_cycle();
    if (c->n_due)
        pairs_release(c, now);
    /* A release still to come: wake for it (a notification for it may have been dropped, an earlier
     * pending one winning) */
    uint64_t next = UINT64_MAX;
    for (unsigned pair = 0; pair < c->n_pairs && c->n_due; pair++)
        next = MIN(next, c->pair_due[pair]);
    bool complete = c->n_arrived && c->n_arrived + c->n_left == c->n_units;
    if (complete && now < c->last_arrival + c->latency)
        next = MIN(next, c->last_arrival + c->latency);
    if (next != UINT64_MAX)
        gsc_run_within(next - now);
    if (!complete || now < c->last_arrival + c->latency) {
        c->tr_arrived = c->n_arrived;
        watch(c, now);
        return;
    }
    uint64_t waited = 0;
    for (unsigned u = 0; u < c->n_units; u++) {
        if (!c->arrived[u])
            continue;
        c->arrived[u] = false;
        blk_iref r = c->release[u];
        ((const blocksync_release_if *)r.methods)->release(r.self, c->slot[u]);
        c->wait_dir[u] = WAIT_NONE;
        waited += now - c->arrive_at[u];
    }
    blk_stat_add(c->inst, SPU_CTL_STAT_WAIT_CYCLES, waited);
    for (unsigned i = 0; i < c->n_cbs && !c->no_swap; i++)
        ((const spu_cb_if *)c->cbs[i].methods)->swap(c->cbs[i].self);
    c->n_arrived = 0;
    c->epoch++;
    c->tr_arrived = 0;
    c->tr_rounds++;
    blk_stat_add(c->inst, SPU_CTL_STAT_ROUNDS, 1);
}

static void spu_ctl_elaborate(void *self)
{
    spu_ctl *c = self;
    c->release = blk_import_all(c->inst, SPU_CTL_RELEASE, 0, &c->n_release);
    c->cbs = blk_import_all(c->inst, SPU_CTL_CBS, 0, &c->n_cbs);
    if (c->n_release != c->n_units)
        gsc_fatal("%s: %u units but %u bindings of `release`", c->inst->path, c->n_units, c->n_release);
    gsc_process *p = gsc_process_new(c->inst->mod, "run", spu_ctl_run, c);
    gsc_sensitive_event(p, c->ev);
}

spu_ctl *spu_ctl_new(blk_ctx *ctx, gsc_module *parent, const char *name, const sm_env *env, unsigned p,
                     unsigned n_ius, unsigned n_pairs)
{
    spu_ctl *c = g_new0(spu_ctl, 1);
    c->inst = blk_inst_new(ctx, parent, name, &spu_ctl_desc);
    c->inst->self = c;
    c->env = env;
    c->p = p;
    c->n_sms = p * p;
    c->role_func = UINT32_MAX;
    c->n_units = c->n_sms + n_ius;
    c->latency = blk_param_uint(c->inst, "latency");
    c->no_swap = blk_param_bool(c->inst, "selftest_no_swap");
    c->deadlock_cycles = blk_param_uint(c->inst, "deadlock_cycles");
    c->wait_dir = g_new(uint8_t, c->n_units);
    memset(c->wait_dir, WAIT_NONE, c->n_units);
    c->n_syncs = g_new0(uint32_t, c->n_units * 5);
    c->cta = g_new0(uint32_t, 2 * c->n_sms);
    c->pair_unit = g_new0(unsigned, 2 * n_pairs);
    c->unit_name = g_new0(char *, c->n_units);
    c->blocked = g_new0(const bool *, c->n_units);
    c->arrived = g_new0(bool, c->n_units);
    c->left = g_new0(bool, c->n_units);
    c->slot = g_new0(unsigned, c->n_units);
    c->arrive_at = g_new0(uint64_t, c->n_units);
    c->n_pairs = n_pairs;
    c->pair_of = g_new(int, c->n_units * 5);
    for (unsigned i = 0; i < c->n_units * 5; i++)
        c->pair_of[i] = -1;
    c->pair_wait = g_new0(unsigned, 2 * n_pairs);
    c->pair_slot = g_new0(unsigned, 2 * n_pairs);
    c->pair_due = g_new(uint64_t, n_pairs);
    for (unsigned i = 0; i < n_pairs; i++)
        c->pair_due[i] = UINT64_MAX;
    c->ev = gsc_event_new(c->inst->mod, "rendezvous");
    blk_export(c->inst, SPU_CTL_BS, 0, &bs_table, c);
    blk_export(c->inst, SPU_CTL_EVENTS, 0, &events_table, c);
    blk_export(c->inst, SPU_CTL_ISSUED, 0, &issued_table, c);
    blk_export_probes(c->inst, c->probe, SPU_CTL_ISSUED + 1);
    blk_trace_state(c->inst, "arrived", GSC_U16, &c->tr_arrived);
    blk_trace_state(c->inst, "rounds", GSC_U32, &c->tr_rounds);
    blk_inst_on_elaborate(c->inst, spu_ctl_elaborate, c);
    return c;
}

void spu_ctl_free(spu_ctl *c)
{
    if (!c)
        return;
    g_free(c->arrived);
    g_free(c->left);
    g_free(c->role_on);
    g_free(c->ctas_done);
    g_free(c->stint);
    g_free(c->slot);
    g_free(c->arrive_at);
    g_free(c->pair_of);
    g_free(c->pair_wait);
    g_free(c->pair_slot);
    g_free(c->pair_due);
    g_free(c->wait_dir);
    g_free(c->n_syncs);
    g_free(c->cta);
    g_free(c->pair_unit);
    for (unsigned u = 0; u < c->n_units; u++)
        g_free(c->unit_name[u]);
    g_free(c->unit_name);
    g_free(c->blocked);
    g_free(c->fault);
    g_free(c->release);
    g_free(c->cbs);
    g_free(c);
}
