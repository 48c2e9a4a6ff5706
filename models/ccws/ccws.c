/* ccws.c — see ccws.h. */
#include "models/ccws/ccws.h"

#include "models/lib/policy.h"
#include "models/sm/arbiter.h"
#include "models/sm/issue.h"

static const blk_port_desc ports[] = {
    [CCWS_VTA_HIT] = {"vta_hit", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                      "VTA hits (bind vta.hit): the warp's score rises to the LLDS", &vta_hit_iface},
    [CCWS_VETO] = {"veto", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                   "the load filter (bind each arbiter<s>.veto): strikes loads of barred warps",
                   &issue_veto_iface},
    [CCWS_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "warp start/end (bind issue.warp_events): the active set and the cutoff",
                     &warp_events_iface},
    [CCWS_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "instructions issued (bind issue.issued): InstIssuedTotal", &instr_issued_iface},
};

static const char *const update_choices[] = {"max", "set", NULL};
static const char *const cmp_choices[] = {"gt", "ge", NULL};
static const char *const tie_choices[] = {"age", "wid", NULL};
static const char *const gate_choices[] = {"loads", "stores", NULL};

static const blk_param_desc params[] = {
    {"base", BLK_PARAM_UINT, "100", "1", "100000", NULL, "points", "base locality score [S: 100]"},
    {"kthrottle", BLK_PARAM_UINT, "8", "0", "100000", NULL, "", "KTHROTTLE of Eq. 3.1 [S: 8]"},
    {"lls_max", BLK_PARAM_UINT, "1023", "1", "4294967295", NULL, "points",
     "a score saturates here [A: 10-bit scores, 1023]"},
    {"update", BLK_PARAM_ENUM, "max", NULL, NULL, update_choices, "",
     "on a VTA hit: max = max(LLS, LLDS); set = LLDS (at least base) [X: spec §12 item 1]"},
    {"cmp", BLK_PARAM_ENUM, "gt", NULL, NULL, cmp_choices, "",
     "barred iff prefix sum > cutoff (gt) or >= (ge) [D: Fig. 3.7 allows equality]"},
    {"tie", BLK_PARAM_ENUM, "age", NULL, NULL, tie_choices, "",
     "equal scores: older warp first (age) or lower warp id (wid) [A]"},
    {"gate", BLK_PARAM_ENUM, "loads", NULL, NULL, gate_choices, "",
     "what a barred warp may not issue: loads, or loads and stores/atomics (stores) [X: Ch. 3 loads]"},
};

static const blk_stat_desc stats[] = {
    [CCWS_STAT_VTA_HITS] = {"vta_hits", BLK_STAT_COUNTER, "hits", "VTA hits scored (all kernels)", NULL},
    [CCWS_STAT_INSTS] = {"insts", BLK_STAT_COUNTER, "instructions", "instructions issued (all kernels)",
                         NULL},
    [CCWS_STAT_STRIKES] = {"strikes", BLK_STAT_COUNTER, "candidates",
                           "load candidates struck (a barred warp's load offered to the arbiter)", NULL},
    [CCWS_STAT_THROTTLE_CYCLES] =
        {"throttle_cycles", BLK_STAT_COUNTER, "cycles",
         "cycles a load was offered to the arbiter while at least one warp was barred", NULL},
    [CCWS_STAT_BARRED_WARP_CYCLES] = {"barred_warp_cycles", BLK_STAT_COUNTER, "warp-cycles",
                                      "barred warps summed over the throttle_cycles", NULL},
    [CCWS_STAT_PEAK_LLS] = {"peak_lls", BLK_STAT_COUNTER, "points", "highest score any warp reached", NULL},
    [CCWS_STAT_PEAK_LLDS] = {"peak_llds", BLK_STAT_COUNTER, "points", "highest LLDS computed", NULL},
};

#define LLS_STATE(w)                                                                                         \
    {                                                                                                        \
        "lls_" #w, 16, "lost-locality score of warp " #w                                                     \
    }
static const blk_state_desc state[] = {
    {"cutoff", 16, "cumulative LLS cutoff: active warps x base"},
    {"can_load", 64, "bit w: warp w may issue loads (resident and not barred)"},
    {"barred", 64, "bit w: warp w is barred from loads"},
    LLS_STATE(0),
    LLS_STATE(1),
    LLS_STATE(2),
    LLS_STATE(3),
    LLS_STATE(4),
    LLS_STATE(5),
    LLS_STATE(6),
    LLS_STATE(7),
    LLS_STATE(8),
    LLS_STATE(9),
    LLS_STATE(10),
    LLS_STATE(11),
    LLS_STATE(12),
    LLS_STATE(13),
    LLS_STATE(14),
    LLS_STATE(15),
    LLS_STATE(16),
    LLS_STATE(17),
    LLS_STATE(18),
    LLS_STATE(19),
    LLS_STATE(20),
    LLS_STATE(21),
    LLS_STATE(22),
    LLS_STATE(23),
    LLS_STATE(24),
    LLS_STATE(25),
    LLS_STATE(26),
    LLS_STATE(27),
    LLS_STATE(28),
    LLS_STATE(29),
    LLS_STATE(30),
    LLS_STATE(31),
};

const blk_desc ccws_desc = {
    "ccws",
    "CCWS locality scoring: per-warp lost-locality scores, LLDS, cutoff, load filter on the arbiter",
    "docs/ccws.md; CCWS/DAWS/VWS spec §5.4-§5.6",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

static uint32_t decayed(const ccws *c, uint32_t s, uint64_t at, uint64_t cycle)
{
    if (s <= c->base)
        return s;
    uint64_t d = cycle > at ? cycle - at : 0;
    return d >= s - c->base ? c->base : s - (uint32_t)d;
}

uint32_t ccws_score(const ccws *c, unsigned w, uint64_t cycle)
{
    return cycle >= c->lls_at[w] ? decayed(c, c->lls[w], c->lls_at[w], cycle)
                                 : decayed(c, c->lls_old[w], c->lls_old_at[w], cycle);
}

uint32_t ccws_cutoff(const ccws *c)
{
    return c->n_active * c->base;
}

uint32_t ccws_llds(const ccws *c, uint64_t cycle)
{
    uint64_t insts = c->insts_cycle == cycle ? c->insts_prev : c->insts;
    uint64_t cutoff = (uint64_t)(c->active_cycle == cycle ? c->n_active_prev : c->n_active) * c->base;
    uint64_t v = c->vta_hits * c->kthrottle * cutoff / (insts ? insts : 1);
    return v > c->lls_max ? c->lls_max : (uint32_t)v;
}

uint32_t ccws_peak(const ccws *c, unsigned w)
{
    return w < CCWS_MAX_WARPS ? c->peak[w] : 0;
}

uint32_t ccws_last_raise(const ccws *c)
{
    return c->last_raise;
}

uint64_t ccws_warp_strikes(const ccws *c, unsigned w)
{
    return w < CCWS_MAX_WARPS ? c->strikes[w] : 0;
}

/* a before b in the sorted stack: larger score, then older (or lower id) */
static bool before(const ccws *c, unsigned a, uint32_t sa, unsigned b, uint32_t sb)
{
    if (sa != sb)
        return sa > sb;
    if (c->tie == CCWS_TIE_AGE && c->age[a] != c->age[b])
        return c->age[a] < c->age[b];
    return a < b;
}

/* The active warps sorted into the stack of `cycle` (order[0..n), their scores by warp in score);
 * false, with nothing sorted, when no score is above base and cmp=gt (nobody is barred then). */
static bool stack(const ccws *c, uint64_t cycle, unsigned *order, uint32_t *score, unsigned *np)
{
    bool elevated = false;
    for (uint64_t m = c->active; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        score[w] = ccws_score(c, w, cycle);
        elevated |= score[w] > c->base;
    }
    if (!elevated && c->cmp != CCWS_CMP_GE) /* (all at base sum to the cutoff: nobody is barred) */
        return false;
    unsigned n = 0;
    for (uint64_t m = c->active; m; m &= m - 1) { /* insertion into the sorted stack */
        unsigned w = (unsigned)__builtin_ctzll(m), i = n++;
        while (i > 0 && before(c, w, score[w], order[i - 1], score[order[i - 1]])) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = w;
    }
    *np = n;
    return true;
}

uint64_t ccws_barred(ccws *c, uint64_t cycle)
{
    if (c->table_valid && c->table_at <= cycle && cycle < c->table_until)
        return c->barred;
    unsigned order[CCWS_MAX_WARPS], n;
    uint32_t score[CCWS_MAX_WARPS];
    uint64_t barred = 0;
    if (stack(c, cycle, order, score, &n)) {
        uint64_t cutoff = ccws_cutoff(c), run = 0;
        for (unsigned i = 0; i < n; i++) {
            run += score[order[i]];
            if (c->cmp == CCWS_CMP_GT ? run > cutoff : run >= cutoff)
                barred |= 1ull << order[i];
        }
    }
    c->barred = barred;
    c->table_at = cycle;
    c->table_until = cycle + 1;
    c->table_valid = true;
    return barred;
}

/* Scores above base fall by one a cycle, together, so the stack's order holds until the first of
 * them reaches base, and until then each prefix sum falls by the number of raised scores in it: a
 * barred warp's place clears when its sum reaches the cutoff. The first cycle after `cycle` where
 * either happens, or a score change set for a later cycle applies, bounds the barred set's life. */
uint64_t ccws_next_change(const ccws *c, uint64_t cycle)
{
    uint64_t next = UINT64_MAX;
    for (uint64_t m = c->active; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        if (c->lls_at[w] > cycle)
            next = MIN(next, c->lls_at[w]);
    }
    unsigned order[CCWS_MAX_WARPS], n;
    uint32_t score[CCWS_MAX_WARPS];
    if (!stack(c, cycle, order, score, &n))
        return next;
    uint64_t cutoff = ccws_cutoff(c), run = 0, raised = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t sc = score[order[i]];
        run += sc;
        if (sc > c->base) {
            raised++;
            next = MIN(next, cycle + (sc - c->base));
        }
        bool barred = c->cmp == CCWS_CMP_GT ? run > cutoff : run >= cutoff;
        if (barred && raised) /* cleared after d cycles: run - raised * d <= cutoff (gt), < (ge) */
            next = MIN(next, cycle + (c->cmp == CCWS_CMP_GT ? (run - cutoff + raised - 1) / raised
                                                            : (run - cutoff) / raised + 1));
    }
    return next;
}

/* The score of w from cycle `from` on (the one in effect before stays until then). */
static void set_score(ccws *c, unsigned w, uint32_t s, uint64_t from)
{
    if (s > c->lls_max)
        s = c->lls_max;
    if (from > c->lls_at[w]) { /* (a second change for the same cycle keeps the old one) */
        c->lls_old[w] = c->lls[w];
        c->lls_old_at[w] = c->lls_at[w];
    }
    c->lls[w] = s;
    c->lls_at[w] = from;
    if (s > c->peak[w])
        c->peak[w] = s;
    if (s > blk_stat_get(c->inst, CCWS_STAT_PEAK_LLS))
        c->inst->stats[CCWS_STAT_PEAK_LLS] = s;
    c->table_valid = false;
}

static void ccws_vta_hit(void *self, unsigned w, uint64_t line_addr, uint64_t cycle)
{
    (void)line_addr;
    ccws *c = self;
    blk_call_note(c->probe[CCWS_VTA_HIT], w, 0, 0);
    c->last_raise = 0;
    if (w >= CCWS_MAX_WARPS || !(c->active >> w & 1))
        return;
    c->vta_hits++;
    blk_stat_add(c->inst, CCWS_STAT_VTA_HITS, 1);
    uint32_t llds = ccws_llds(c, cycle);
    if (llds > blk_stat_get(c->inst, CCWS_STAT_PEAK_LLDS))
        c->inst->stats[CCWS_STAT_PEAK_LLDS] = llds;
    uint32_t cur = ccws_score(c, w, cycle + 1);
    uint32_t s = c->update == CCWS_UPDATE_SET ? MAX(llds, c->base) : MAX(cur, llds);
    throttle_changed(&c->tt, cycle + 1); /* (before the change: the cycles slept are counted first) */
    set_score(c, w, s, cycle + 1);
    c->last_raise = c->lls[w] > cur ? c->lls[w] - cur : 0;
}

static bool ccws_veto(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    (void)n;
    ccws *c = self;
    const policy_warp *pw = &warps[i];
    if (!(pw->flags & c->gate_flags) || pw->id >= CCWS_MAX_WARPS)
        return false;
    uint64_t barred = ccws_barred(c, cycle);
    throttle_count(&c->tt, c->inst, barred, cycle, CCWS_STAT_THROTTLE_CYCLES, CCWS_STAT_BARRED_WARP_CYCLES);
    if (!(barred >> pw->id & 1))
        return false;
    blk_stat_add(c->inst, CCWS_STAT_STRIKES, 1);
    c->strikes[pw->id]++;
    throttle_strike(&c->tt);
    return true;
}

static bool ccws_veto_noted(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    blk_call_note(((ccws *)self)->probe[CCWS_VETO], warps[i].id, 0, 0);
    return ccws_veto(self, warps, n, i, cycle);
}

/* The answers hold until the barred set may change (ccws_next_change), for good when no candidate
 * asked is gated; the strikes pulse, when traced, wants every cycle asked. */
static uint64_t ccws_until(void *self, const policy_warp *warps, unsigned n, const unsigned *asked,
                           unsigned n_asked, uint64_t cycle)
{
    (void)n;
    ccws *c = self;
    bool gated = false;
    for (unsigned k = 0; k < n_asked && !gated; k++)
        gated = (warps[asked[k]].flags & c->gate_flags) && warps[asked[k]].id < CCWS_MAX_WARPS;
    if (!gated)
        return UINT64_MAX;
    if (c->tt.traced)
        return cycle + 1;
    ccws_barred(c, cycle);
    c->table_until = MAX(c->table_until, ccws_next_change(c, cycle));
    return c->table_until;
}

/* What asking the same candidates in each of `count` cycles from `first` would have counted. */
static void ccws_repeat(void *self, const policy_warp *warps, unsigned n, const unsigned *asked,
                        unsigned n_asked, uint64_t first, uint64_t count)
{
    (void)n;
    ccws *c = self;
    for (unsigned k = 0; k < n_asked; k++) {
        const policy_warp *pw = &warps[asked[k]];
        if (!(pw->flags & c->gate_flags) || pw->id >= CCWS_MAX_WARPS)
            continue;
        uint64_t barred = ccws_barred(c, first);
        throttle_count_n(&c->tt, c->inst, barred, first, count, CCWS_STAT_THROTTLE_CYCLES,
                         CCWS_STAT_BARRED_WARP_CYCLES);
        if (barred >> pw->id & 1) {
            blk_stat_add(c->inst, CCWS_STAT_STRIKES, count);
            c->strikes[pw->id] += count;
        }
    }
}

static void ccws_watch(void *self, void (*changed)(void *ctx, uint64_t from), void *ctx)
{
    throttle_watch(&((ccws *)self)->tt, changed, ctx);
}

static void ev_cta_start(void *self, const cta_launch_t *cta, uint64_t cycle)
{
    ccws *c = self;
    (void)cycle;
    blk_call_note(c->probe[CCWS_EVENTS], 0, cta->cta, cta->slot);
}

static void ev_cta_end(void *self, const cta_launch_t *cta, uint64_t cycle)
{
    ccws *c = self;
    (void)cycle;
    blk_call_note(c->probe[CCWS_EVENTS], 1, cta->cta, cta->slot);
}

/* The active count is about to change in cycle `cycle`: keep the one the cycle started with. */
static void note_active(ccws *c, uint64_t cycle)
{
    if (c->active_cycle != cycle) {
        c->active_cycle = cycle;
        c->n_active_prev = c->n_active;
    }
}

static void ev_warp_start(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    (void)slot;
    ccws *c = self;
    blk_call_note(c->probe[CCWS_EVENTS], 2, w, slot);
    if (w >= CCWS_MAX_WARPS)
        gsc_fatal("%s: warp slot %u: at most %u warps per SM", c->inst->path, w, CCWS_MAX_WARPS);
    if (c->env && (!c->kernel_seen || c->env->launch.kernel_no != c->kernel_no)) {
        c->kernel_seen = true; /* counters reset per kernel launch [A] */
        c->kernel_no = c->env->launch.kernel_no;
        c->vta_hits = c->insts = c->insts_prev = 0;
    }
    note_active(c, cycle);
    c->active |= 1ull << w;
    c->n_active++;
    c->age[w] = c->seq++;
    c->lls[w] = c->lls_old[w] = c->base; /* at once: the warp is new to the arbiter too */
    c->lls_at[w] = c->lls_old_at[w] = 0;
    set_score(c, w, c->base, 0);
    throttle_wake(&c->tt, c->n_active);
    throttle_changed(&c->tt, cycle);
}

static void ev_warp_end(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    (void)slot;
    ccws *c = self;
    blk_call_note(c->probe[CCWS_EVENTS], 3, w, slot);
    if (w >= CCWS_MAX_WARPS || !(c->active >> w & 1))
        return;
    note_active(c, cycle);
    c->active &= ~(1ull << w);
    c->n_active--;
    c->table_valid = false;
    throttle_changed(&c->tt, cycle);
}

static void ccws_issued(void *self, const issued_t *it)
{
    (void)it;
    ccws *c = self;
    uint64_t now = gsc_cycle();
    if (c->insts_cycle != now) {
        c->insts_cycle = now;
        c->insts_prev = c->insts;
    }
    c->insts++;
    blk_stat_add(c->inst, CCWS_STAT_INSTS, 1);
}

/* Called for every instruction issued and every warp the arbiter considers: the notes are in tables of
 * their own (blk_export_noted). */
static void ccws_issued_noted(void *self, const issued_t *it)
{
    blk_call_note(((ccws *)self)->probe[CCWS_ISSUED], it->warp, it->pc, 0);
    ccws_issued(self, it);
}

static const vta_hit_if hit_table = {ccws_vta_hit};
static const issue_veto_if veto_table = {ccws_veto, ccws_until, ccws_repeat, ccws_watch};
static const issue_veto_if veto_noted = {ccws_veto_noted, ccws_until, ccws_repeat, ccws_watch};
static const warp_events_if events_table = {ev_cta_start, ev_cta_end, ev_warp_start, ev_warp_end};
static const instr_issued_if issued_table = {ccws_issued};
static const instr_issued_if issued_noted = {ccws_issued_noted};

/* Refreshes the traced state every cycle a warp is resident, only when the VCD selects it (known at
 * the first activation, cycle 0: untraced, the process is never woken again). */
static void ccws_trace_run(void *self)
{
    ccws *c = self;
    if (!throttle_traced(&c->tt))
        return;
    uint64_t now = gsc_cycle();
    uint64_t b = ccws_barred(c, now);
    c->tr_barred = b;
    c->tr_can_load = c->active & ~b;
    c->tr_cutoff = ccws_cutoff(c);
    for (unsigned w = 0; w < CCWS_TRACED_WARPS; w++)
        c->tr_lls[w] = c->active >> w & 1 ? ccws_score(c, w, now) : 0;
    if (c->n_active)
        gsc_run_within(1);
}

static void ccws_elaborate(void *self)
{
    ccws *c = self;
    throttle_elaborate(&c->tt, c->inst->mod, ccws_trace_run, c);
}

ccws *ccws_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env)
{
    ccws *c = g_new0(ccws, 1);
    c->inst = blk_inst_new(ctx, parent, name, &ccws_desc);
    c->env = env;
    c->base = (unsigned)blk_param_uint(c->inst, "base");
    c->kthrottle = (unsigned)blk_param_uint(c->inst, "kthrottle");
    uint64_t mx = blk_param_uint(c->inst, "lls_max");
    c->lls_max = mx > UINT32_MAX ? UINT32_MAX : (unsigned)mx;
    if (c->lls_max < c->base)
        gsc_fatal("%s: lls_max (%u) is below base (%u)", c->inst->path, c->lls_max, c->base);
    c->update = blk_param_enum(c->inst, "update");
    c->cmp = blk_param_enum(c->inst, "cmp");
    c->tie = blk_param_enum(c->inst, "tie");
    c->gate_flags =
        blk_param_enum(c->inst, "gate") == CCWS_GATE_STORES ? POLICY_F_LOAD | POLICY_F_STORE : POLICY_F_LOAD;
    blk_export(c->inst, CCWS_VTA_HIT, 0, &hit_table, c);
    blk_export_noted(c->inst, CCWS_VETO, 0, &veto_table, &veto_noted, c);
    blk_export(c->inst, CCWS_EVENTS, 0, &events_table, c);
    blk_export_noted(c->inst, CCWS_ISSUED, 0, &issued_table, &issued_noted, c);
    blk_export_probes(c->inst, c->probe, CCWS_ISSUED + 1);
    blk_trace_state(c->inst, "cutoff", GSC_U32, &c->tr_cutoff);
    blk_trace_state(c->inst, "can_load", GSC_U64, &c->tr_can_load);
    blk_trace_state(c->inst, "barred", GSC_U64, &c->tr_barred);
    for (unsigned w = 0; w < CCWS_TRACED_WARPS; w++) {
        char n[16];
        g_snprintf(n, sizeof n, "lls_%u", w);
        blk_trace_state(c->inst, n, GSC_U32, &c->tr_lls[w]);
    }
    blk_inst_on_elaborate(c->inst, ccws_elaborate, c);
    return c;
}

void ccws_free(ccws *c)
{
    g_free(c);
}
