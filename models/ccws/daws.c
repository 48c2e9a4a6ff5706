/* daws.c — see daws.h. */
#include "models/ccws/daws.h"

#include "models/lib/policy.h"
#include "models/sm/arbiter.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"

static const blk_port_desc ports[] = {
    [DAWS_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "warp start/end (bind issue.warp_events): the resident warps and their age",
                     &warp_events_iface},
    [DAWS_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "instructions issued (bind issue.issued): loop markers, lanes, barriers, the profile",
                     &instr_issued_iface},
    [DAWS_VETO] = {"veto", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                   "the load filter (bind each arbiter<s>.veto): strikes loads of barred warps",
                   &issue_veto_iface},
    [DAWS_ACCESS] = {"access", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "L1D load accesses (bind ldst.l1_access): line warp ids, hits split, locality feedback",
                     &l1_access_iface},
    [DAWS_EVICT] = {"evict", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                    "L1D evictions (bind ldst.l1_evict): the lines' warp ids", &l1_evict_iface},
    [DAWS_VTA_HIT] = {"vta_hit", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                      "VTA hits (bind vta.hit, before access): lost intra-warp locality", &vta_hit_iface},
};

static const char *const mode_choices[] = {"profiled", "profile", "detected", NULL};
static const char *const reselect_choices[] = {"gt2", "ge2", NULL};
static const char *const ilrd_choices[] = {"first", "all", NULL};
static const char *const exit_choices[] = {"outermost", "any", NULL};
static const char *const cmp_choices[] = {"gt", "ge", NULL};
static const char *const gate_choices[] = {"loads", "stores", NULL};

static const blk_param_desc params[] = {
    {"mode", BLK_PARAM_ENUM, "profiled", NULL, NULL, mode_choices, "",
     "profiled: Profiled-DAWS (the SLCT loaded at launch); detected: Detected-DAWS (sampling warps); "
     "profile: no throttling, profile every load"},
    {"lines", BLK_PARAM_UINT, "0", "0", "1048576", NULL, "lines",
     "L1D lines (TotalNumLines); 0: the SM's L1D as the testbench binds it (256 in the harness) [S: 256]"},
    {"kassoc", BLK_PARAM_UINT, "600", "1", "1000", NULL, "1/1000", "kAssocFactor of Eq. 4.1 [S: 0.6]"},
    {"cmp", BLK_PARAM_ENUM, "gt", NULL, NULL, cmp_choices, "",
     "barred iff prefix > EffCacheSize (gt) or >= (ge) [X: spec §12 item 9, default <= eligible]"},
    {"exit", BLK_PARAM_ENUM, "outermost", NULL, NULL, exit_choices, "",
     "the FPT entry is cleared on leaving the outermost loop tracked, or any loop [X: §12 item 12]"},
    {"hold", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "a warp that issued a load in its loop is not barred until it leaves it or waits at a barrier [S: "
     "§6.1]"},
    {"cf", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "control-flow awareness: predictions use the active lanes (false: always 32) [S: ablation §6.6]"},
    {"gate", BLK_PARAM_ENUM, "loads", NULL, NULL, gate_choices, "",
     "what a barred warp may not issue: loads, or loads and stores/atomics [X: §12 item 6]"},
    {"slct", BLK_PARAM_UINT, "32", "1", "256", NULL, "entries",
     "static load classification table size [S: 32]"},
    {"swt", BLK_PARAM_UINT, "8", "1", "16", NULL, "loops", "detected: sampling warp table entries [S: >= 5]"},
    {"reselect", BLK_PARAM_ENUM, "gt2", NULL, NULL, reselect_choices, "",
     "detected: lanes a later sampling warp needs: > 2 (gt2) or >= 2 (ge2) [X: §12 item 10]"},
    {"ilrd", BLK_PARAM_ENUM, "first", NULL, NULL, ilrd_choices, "",
     "detected: the ILRD is probed with the load's first line or all its lines [X: §12 item 11]"},
    {"prof_lines", BLK_PARAM_UINT, "128", "1", "4096", NULL, "lines",
     "mode=profile: a line counts as reused when among the warp's last prof_lines lines [A]"},
};

static const blk_stat_desc stats[] = {
    [DAWS_STAT_PREDICTIONS] = {"predictions", BLK_STAT_COUNTER, "updates",
                               "FPT predictions computed (a loop's first instruction issued)", NULL},
    [DAWS_STAT_INSTS] = {"insts", BLK_STAT_COUNTER, "instructions", "instructions seen issued", NULL},
    [DAWS_STAT_STRIKES] = {"strikes", BLK_STAT_COUNTER, "candidates",
                           "load candidates struck (a barred warp's load offered to the arbiter)", NULL},
    [DAWS_STAT_THROTTLE_CYCLES] = {"throttle_cycles", BLK_STAT_COUNTER, "cycles",
                                   "cycles a load was offered to the arbiter while a warp was barred", NULL},
    [DAWS_STAT_BARRED_WARP_CYCLES] = {"barred_warp_cycles", BLK_STAT_COUNTER, "warp-cycles",
                                      "barred warps summed over the throttle_cycles", NULL},
    [DAWS_STAT_OVERSIZE] = {"oversize_cycles", BLK_STAT_COUNTER, "cycles",
                            "cycles asked while one warp's prediction exceeded the L1D (no throttling)",
                            NULL},
    [DAWS_STAT_PEAK_PRED] = {"peak_pred", BLK_STAT_COUNTER, "lines", "largest prediction of one warp", NULL},
    [DAWS_STAT_PEAK_TOTAL] = {"peak_total", BLK_STAT_COUNTER, "lines", "largest sum of the predictions",
                              NULL},
    [DAWS_STAT_LOOP_EXITS] = {"loop_exits", BLK_STAT_COUNTER, "exits", "FPT entries cleared on a loop exit",
                              NULL},
    [DAWS_STAT_PROFILED] = {"profiled", BLK_STAT_COUNTER, "loads", "mode=profile: dynamic loads profiled",
                            NULL},
    [DAWS_STAT_INTRA_HITS] = {"intra_warp_hits", BLK_STAT_COUNTER, "accesses",
                              "L1D hits on a line the same warp's miss brought in (access/evict bound)",
                              NULL},
    [DAWS_STAT_INTER_HITS] = {"inter_warp_hits", BLK_STAT_COUNTER, "accesses",
                              "L1D hits on a line another warp's miss brought in (access/evict bound)", NULL},
    [DAWS_STAT_SAMPLED_LOADS] = {"sampled_loads", BLK_STAT_COUNTER, "loads",
                                 "detected: loads of sampling warps classified", NULL},
    [DAWS_STAT_SAMPLERS] = {"samplers", BLK_STAT_COUNTER, "warps", "detected: sampling warps chosen", NULL},
    [DAWS_STAT_LOCALITY_UP] = {"locality_up", BLK_STAT_COUNTER, "accesses",
                               "detected: sampling-warp accesses with intra-warp locality (captured or lost)",
                               NULL},
    [DAWS_STAT_LOCALITY_DOWN] = {"locality_down", BLK_STAT_COUNTER, "accesses",
                                 "detected: sampling-warp accesses without intra-warp locality", NULL},
    [DAWS_STAT_ILRD_HITS] = {"ilrd_hits", BLK_STAT_COUNTER, "probes", "detected: ILRD hits on another PC",
                             NULL},
    [DAWS_STAT_SLCT_UPDATES] = {"slct_updates", BLK_STAT_COUNTER, "updates",
                                "detected: classification table entries written or changed", NULL},
};
_Static_assert(sizeof stats / sizeof stats[0] == DAWS_STAT_SLCT_UPDATES + 1,
               "a statistic without a description");

#define PRED_STATE(w)                                                                                        \
    {                                                                                                        \
        "pred_" #w, 16, "predicted footprint (lines) of warp " #w                                            \
    }
static const blk_state_desc state[] = {
    {"eff", 32, "EffCacheSize: kAssocFactor x L1D lines (rounded down)"},
    {"total", 32, "sum of the warps' predictions"},
    {"can_load", 64, "bit w: warp w is resident and may issue loads"},
    {"barred", 64, "bit w: warp w is barred from loads"},
    {"in_loop", 64, "bit w: warp w has a footprint table entry (inside a loop)"},
    PRED_STATE(0),
    PRED_STATE(1),
    PRED_STATE(2),
    PRED_STATE(3),
    PRED_STATE(4),
    PRED_STATE(5),
    PRED_STATE(6),
    PRED_STATE(7),
    PRED_STATE(8),
    PRED_STATE(9),
    PRED_STATE(10),
    PRED_STATE(11),
    PRED_STATE(12),
    PRED_STATE(13),
    PRED_STATE(14),
    PRED_STATE(15),
    PRED_STATE(16),
    PRED_STATE(17),
    PRED_STATE(18),
    PRED_STATE(19),
    PRED_STATE(20),
    PRED_STATE(21),
    PRED_STATE(22),
    PRED_STATE(23),
    PRED_STATE(24),
    PRED_STATE(25),
    PRED_STATE(26),
    PRED_STATE(27),
    PRED_STATE(28),
    PRED_STATE(29),
    PRED_STATE(30),
    PRED_STATE(31),
};

const blk_desc daws_desc = {
    "daws",
    "DAWS: loop-begin footprint predictions per warp, oldest-first prefix sum against kAssocFactor x L1D "
    "lines",
    "docs/ccws.md; CCWS/DAWS/VWS spec §6",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

static void build_groups(daws *d);

double daws_eff(const daws *d)
{
    return (double)d->kassoc * d->lines / 1000.0;
}

uint32_t daws_footprint(const daws *d, uint32_t func, uint32_t loop, unsigned n)
{
    if (!d->div_groups || func >= d->loops->n_funcs || loop == IR_NONE)
        return 0;
    if (!d->cf)
        n = IR_WARP_SIZE;
    if (d->mode == DAWS_MODE_DETECTED &&
        !(daws_loop_counter(d, func, g_array_index(d->loops->f[func].loops, daws_loop, loop).begin) > 0))
        return 0; /* only loops with locality get predictions */
    uint32_t dv = d->div_groups[func][loop], cv = d->conv_groups[func][loop];
    if (n == 0)
        return 0;
    return n == 1 ? dv + cv : dv * n + 2 * cv;
}

uint32_t daws_pred(const daws *d, unsigned w)
{
    return w < DAWS_MAX_WARPS && d->fpt[w].loop != IR_NONE ? d->fpt[w].pred : 0;
}

uint32_t daws_peak(const daws *d, unsigned w)
{
    return w < DAWS_MAX_WARPS ? d->peak[w] : 0;
}

uint64_t daws_warp_strikes(const daws *d, unsigned w)
{
    return w < DAWS_MAX_WARPS ? d->strikes[w] : 0;
}

/* The prediction of w for its own loads: its entry's, or, outside loops while some warp predicts,
 * the next loop's in program order. */
static uint32_t own_pred(const daws *d, unsigned w, bool any)
{
    if (d->fpt[w].loop != IR_NONE)
        return d->fpt[w].pred;
    if (!any || d->last_func[w] >= d->loops->n_funcs)
        return 0;
    const daws_func *df = &d->loops->f[d->last_func[w]];
    uint32_t pc = d->last_pc[w];
    return daws_footprint(d, d->last_func[w], pc <= df->n_instrs ? df->next[pc] : IR_NONE, d->lanes[w]);
}

uint64_t daws_barred(daws *d, uint64_t cycle)
{
    if (d->table_valid && d->table_at == cycle)
        return d->barred;
    uint64_t barred = 0;
    uint32_t maxp = 0, total = 0;
    for (unsigned i = 0; i < d->n_active; i++) {
        uint32_t p = daws_pred(d, d->order[i]);
        maxp = MAX(maxp, p);
        total += p;
    }
    d->total = total;
    d->oversize = maxp > d->lines;
    if (!d->oversize) {
        uint64_t eff1000 = (uint64_t)d->kassoc * d->lines, prefix = 0;
        for (unsigned i = 0; i < d->n_active; i++) {
            unsigned w = d->order[i];
            uint64_t mine = (prefix + own_pred(d, w, total > 0)) * 1000;
            bool over = d->cmp_ge ? mine >= eff1000 : mine > eff1000;
            /* (prefix 0: no older warp predicts anything; barring it would stop every load for good) */
            if (own_pred(d, w, total > 0) > 0 && over && prefix > 0 && !(d->hold && (d->held >> w & 1)))
                barred |= 1ull << w;
            prefix += daws_pred(d, w);
        }
    }
    d->barred = barred;
    d->table_at = cycle;
    d->table_valid = true;
    return barred;
}

/* The table as the arbiter saw it in the cycles [from, end) not counted yet: the oversize cycles and
 * the peak total. Counted here, on the asked path only: the trace process computes the table every
 * cycle, and what it computes must not count (a traced run's statistics are the untraced run's). */
static void count_table(daws *d, uint64_t from, uint64_t end)
{
    from = MAX(from, d->table_counted);
    if (end <= from)
        return;
    d->table_counted = end;
    if (d->oversize)
        blk_stat_add(d->inst, DAWS_STAT_OVERSIZE, end - from);
    if (d->total > blk_stat_get(d->inst, DAWS_STAT_PEAK_TOTAL))
        d->inst->stats[DAWS_STAT_PEAK_TOTAL] = d->total;
}

static bool daws_veto(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    (void)n;
    daws *d = self;
    const policy_warp *pw = &warps[i];
    if (d->mode == DAWS_MODE_PROFILE || !(pw->flags & d->gate_flags) || pw->id >= DAWS_MAX_WARPS)
        return false;
    uint64_t barred = daws_barred(d, cycle);
    count_table(d, cycle, cycle + 1);
    throttle_count(&d->tt, d->inst, barred, cycle, DAWS_STAT_THROTTLE_CYCLES, DAWS_STAT_BARRED_WARP_CYCLES);
    if (!(barred >> pw->id & 1))
        return false;
    blk_stat_add(d->inst, DAWS_STAT_STRIKES, 1);
    d->strikes[pw->id]++;
    throttle_strike(&d->tt);
    return true;
}

static bool gated_asked(const daws *d, const policy_warp *warps, const unsigned *asked, unsigned n_asked)
{
    if (d->mode == DAWS_MODE_PROFILE)
        return false;
    for (unsigned k = 0; k < n_asked; k++)
        if ((warps[asked[k]].flags & d->gate_flags) && warps[asked[k]].id < DAWS_MAX_WARPS)
            return true;
    return false;
}

/* The table changes only with an instruction issued, a warp's start or end (all told through
 * watch) and, in detected mode, a sampling warp's L1D accesses (the locality counters): while a
 * warp samples, the answers hold for one cycle. The strikes pulse, when traced, wants every cycle. */
static uint64_t daws_until(void *self, const policy_warp *warps, unsigned n, const unsigned *asked,
                           unsigned n_asked, uint64_t cycle)
{
    (void)n;
    daws *d = self;
    if (!gated_asked(d, warps, asked, n_asked))
        return UINT64_MAX;
    if (d->tt.traced)
        return cycle + 1;
    for (unsigned k = 0; d->mode == DAWS_MODE_DETECTED && k < d->swt_max; k++)
        if (d->swt[k].used && d->swt[k].sampler >= 0)
            return cycle + 1;
    return UINT64_MAX;
}

/* What asking the same candidates in each of `count` cycles from `first` would have counted: the
 * table computed once in each cycle not yet computed, the throttled cycles, the strikes. */
static void daws_repeat(void *self, const policy_warp *warps, unsigned n, const unsigned *asked,
                        unsigned n_asked, uint64_t first, uint64_t count)
{
    (void)n;
    daws *d = self;
    if (!gated_asked(d, warps, asked, n_asked))
        return;
    uint64_t barred = daws_barred(d, first), end = first + count;
    count_table(d, first, end);
    if (end - 1 > d->table_at)
        d->table_at = end - 1;
    for (unsigned k = 0; k < n_asked; k++) {
        const policy_warp *pw = &warps[asked[k]];
        if (!(pw->flags & d->gate_flags) || pw->id >= DAWS_MAX_WARPS)
            continue;
        throttle_count_n(&d->tt, d->inst, barred, first, count, DAWS_STAT_THROTTLE_CYCLES,
                         DAWS_STAT_BARRED_WARP_CYCLES);
        if (barred >> pw->id & 1) {
            blk_stat_add(d->inst, DAWS_STAT_STRIKES, count);
            d->strikes[pw->id] += count;
        }
    }
}

static void daws_watch(void *self, void (*changed)(void *ctx, uint64_t from), void *ctx)
{
    throttle_watch(&((daws *)self)->tt, changed, ctx);
}

static void clear_entry(daws *d, unsigned w)
{
    d->fpt[w].loop = IR_NONE;
    d->fpt[w].pred = 0;
    d->held &= ~(1ull << w);
}

static bool is_profiled_load(const issued_t *it)
{
    if (it->cls != IR_CLASS_MEM || it->kind != 0)
        return false;
    return it->space == IR_SPACE_GLOBAL || it->space == IR_SPACE_LOCAL || it->space == IR_SPACE_NONE;
}

/* mode=profile: the load's distinct lines, divergence and reuse by the same warp. */
static void profile_load(daws *d, const issued_t *it)
{
    if (!d->prof || it->func >= d->prof->n_funcs || it->pc >= d->prof->n_instrs[it->func] || !it->mask)
        return;
    unsigned w = it->warp, nl = 0, lanes = (unsigned)__builtin_popcount(it->mask);
    uint64_t seen[IR_WARP_SIZE];
    for (unsigned l = 0; l < IR_WARP_SIZE; l++) {
        if (!(it->mask >> l & 1))
            continue;
        uint64_t line = it->addr[l] / 128 + 1;
        bool dup = false;
        for (unsigned k = 0; k < nl && !dup; k++)
            dup = seen[k] == line;
        if (!dup)
            seen[nl++] = line;
    }
    daws_pc_prof *q = &d->prof->pc[it->func][it->pc];
    if (lanes > 2) {
        q->execs++;
        q->div_execs += nl > 2;
    }
    if (!d->recent[w])
        d->recent[w] = g_new0(uint64_t, d->prof_lines);
    for (unsigned k = 0; k < nl; k++) {
        q->lines++;
        bool hit = false;
        for (unsigned j = 0; j < d->prof_lines && !hit; j++)
            hit = d->recent[w][j] == seen[k];
        q->reused += hit;
        if (!hit) {
            d->recent[w][d->recent_at[w]] = seen[k];
            d->recent_at[w] = (d->recent_at[w] + 1) % d->prof_lines;
        }
    }
    blk_stat_add(d->inst, DAWS_STAT_PROFILED, 1);
}

/* ---- Detected-DAWS ---------------------------------------------------------------------------- */

static int swt_find(const daws *d, uint32_t func, uint32_t loop)
{
    for (unsigned i = 0; i < d->swt_max; i++)
        if (d->swt[i].used && d->swt[i].func == func && d->swt[i].loop == loop)
            return (int)i;
    return -1;
}

int32_t daws_loop_counter(const daws *d, uint32_t func, uint32_t begin_pc)
{
    if (!d->loops || func >= d->loops->n_funcs || begin_pc >= d->loops->f[func].n_instrs)
        return INT32_MIN;
    int i = swt_find(d, func, d->loops->f[func].begin_of[begin_pc]);
    return i < 0 ? INT32_MIN : d->swt[i].counter;
}

int daws_sampler(const daws *d, uint32_t func, uint32_t begin_pc)
{
    if (!d->loops || func >= d->loops->n_funcs || begin_pc >= d->loops->f[func].n_instrs)
        return -1;
    int i = swt_find(d, func, d->loops->f[func].begin_of[begin_pc]);
    return i < 0 ? -1 : d->swt[i].sampler;
}

unsigned daws_divcount(const daws *d, uint32_t func, uint32_t pc)
{
    return d->divc && func < d->loops->n_funcs && pc < d->loops->f[func].n_instrs ? d->divc[func][pc] : 0;
}

uint32_t daws_rep(const daws *d, uint32_t func, uint32_t pc)
{
    return d->rep_of && func < d->loops->n_funcs && pc < d->loops->f[func].n_instrs ? d->rep_of[func][pc] : 0;
}

static void ilrd_clear_warp(daws *d, unsigned w)
{
    for (unsigned i = 0; i < DAWS_ILRD_SETS * DAWS_ILRD_WAYS; i++)
        if (d->ilrd[i].valid && d->ilrd[i].wid == w)
            d->ilrd[i].valid = false;
}

static void stop_sampling(daws *d, unsigned w)
{
    int s = d->samp_of[w];
    if (s < 0)
        return;
    d->swt[s].sampler = -1;
    d->samp_of[w] = -1;
    ilrd_clear_warp(d, w);
}

/* The two PCs share a RepID (the lower one's, every holder of the other relabelled). */
static void same_rep(daws *d, uint32_t func, uint32_t a, uint32_t b)
{
    uint32_t *r = d->rep_of[func];
    if (!r[a])
        r[a] = d->next_rep++;
    if (r[b] == r[a])
        return;
    uint32_t old = r[b];
    for (uint32_t pc = 0; old && pc < d->loops->f[func].n_instrs; pc++)
        if (r[pc] == old)
            r[pc] = r[a];
    r[b] = r[a];
}

static void ilrd_probe(daws *d, unsigned w, uint32_t func, uint32_t pc, uint64_t tag)
{
    daws_ilrd *set = &d->ilrd[(tag % DAWS_ILRD_SETS) * DAWS_ILRD_WAYS], *victim = &set[0];
    d->ilrd_clock++;
    for (unsigned k = 0; k < DAWS_ILRD_WAYS; k++) {
        daws_ilrd *e = &set[k];
        if (e->valid && e->tag == tag && e->wid == w && e->func == func) {
            if (e->pc != pc) {
                same_rep(d, func, e->pc, pc);
                blk_stat_add(d->inst, DAWS_STAT_ILRD_HITS, 1);
            }
            e->used = d->ilrd_clock;
            return;
        }
        if (!e->valid || (victim->valid && e->used < victim->used))
            victim = e;
    }
    *victim = (daws_ilrd){true, tag, func, pc, w, d->ilrd_clock};
}

/* The classification table entry of a sampled load of a loop with locality (written or updated). */
static void slct_upsert(daws *d, uint32_t func, uint32_t begin, uint32_t pc)
{
    if (!d->rep_of[func][pc])
        d->rep_of[func][pc] = d->next_rep++;
    daws_slct_entry e = {func, begin, d->divc[func][pc] > 1, d->rep_of[func][pc], pc};
    unsigned i = 0;
    while (i < d->n_slct && !(d->slct[i].func == func && d->slct[i].pc_load == pc))
        i++;
    const daws_slct_entry *o = &d->slct[i]; /* (field by field: the struct has padding) */
    if (i < d->n_slct && o->loop_begin == e.loop_begin && o->is_div == e.is_div && o->rep == e.rep)
        return;
    if (i == d->n_slct) {
        if (d->n_slct >= d->slct_max)
            return; /* full (the source spills to memory): not tracked */
        d->n_slct++;
    }
    d->slct[i] = e;
    /* RepIDs may have been relabelled: refresh the other entries of the function */
    for (unsigned k = 0; k < d->n_slct; k++)
        if (d->slct[k].func == func)
            d->slct[k].rep = d->rep_of[func][d->slct[k].pc_load];
    blk_stat_add(d->inst, DAWS_STAT_SLCT_UPDATES, 1);
    build_groups(d);
}

static void detect_issued(daws *d, const issued_t *it, const daws_func *df, uint32_t L)
{
    unsigned w = it->warp, lanes = (unsigned)__builtin_popcount(it->mask);
    int s = d->samp_of[w];
    if (s >= 0) { /* the sampling warp leaves its loop */
        const daws_loop *lp = &g_array_index(df->loops, daws_loop, d->swt[s].loop);
        if (d->swt[s].func != it->func || it->pc < lp->begin || it->pc > lp->end)
            stop_sampling(d, w), s = -1;
        else if (L == d->swt[s].loop)
            ilrd_clear_warp(d, w); /* it branched back to the loop's start */
    }
    if (L != IR_NONE && s < 0) {
        int i = swt_find(d, it->func, L);
        if (i < 0)
            for (unsigned k = 0; k < d->swt_max && i < 0; k++)
                if (!d->swt[k].used) {
                    d->swt[k] = (daws_swt){true, false, it->func, L, -1, 0};
                    i = (int)k;
                }
        unsigned need = d->swt[i >= 0 ? i : 0].had_sampler && d->reselect_ge2 ? 2 : 3;
        if (i >= 0 && d->swt[i].sampler < 0 && lanes >= need) {
            d->swt[i].sampler = (int)w;
            d->swt[i].had_sampler = true;
            d->samp_of[w] = i;
            s = i;
            blk_stat_add(d->inst, DAWS_STAT_SAMPLERS, 1);
        }
    }
    if (s < 0 || !is_profiled_load(it) || !it->mask)
        return;
    /* a load of the sampling warp: divergence, repetition, classification */
    uint64_t seen[IR_WARP_SIZE];
    unsigned nl = 0;
    for (unsigned l = 0; l < IR_WARP_SIZE; l++) {
        if (!(it->mask >> l & 1))
            continue;
        uint64_t line = it->addr[l] / 128;
        bool dup = false;
        for (unsigned k = 0; k < nl && !dup; k++)
            dup = seen[k] == line;
        if (!dup)
            seen[nl++] = line;
    }
    uint8_t *dc = &d->divc[it->func][it->pc];
    if (lanes > 2) {
        if (nl > 2 && *dc < 15)
            (*dc)++;
        else if (nl <= 2 && *dc > 0)
            (*dc)--;
    }
    for (unsigned k = 0; k < (d->ilrd_all ? nl : 1); k++)
        ilrd_probe(d, w, it->func, it->pc, seen[k]);
    blk_stat_add(d->inst, DAWS_STAT_SAMPLED_LOADS, 1);
    uint32_t inner = df->loop_at[it->pc];
    if (inner == d->swt[s].loop && d->swt[s].counter > 0)
        slct_upsert(d, it->func, g_array_index(df->loops, daws_loop, inner).begin, it->pc);
}

static void daws_vta_hit(void *self, unsigned w, uint64_t line, uint64_t cycle)
{
    (void)cycle;
    daws *d = self;
    blk_call_note(d->probe[DAWS_VTA_HIT], w, 0, 0);
    d->vta_hit_pending = true;
    d->vta_hit_warp = w;
    d->vta_hit_line = line;
}

static void daws_access(void *self, unsigned w, uint64_t addr, unsigned outcome)
{
    daws *d = self;
    if (!d->owner || w >= DAWS_MAX_WARPS)
        return;
    uint64_t line = addr / 128;
    gpointer key = GSIZE_TO_POINTER(line + 1);
    bool mine = false, lost = false;
    if (outcome == CACHE_HIT || outcome == CACHE_HIT_RESERVED) {
        unsigned o = GPOINTER_TO_UINT(g_hash_table_lookup(d->owner, key));
        mine = o == w + 1;
        if (outcome == CACHE_HIT)
            blk_stat_add(d->inst, mine ? DAWS_STAT_INTRA_HITS : DAWS_STAT_INTER_HITS, 1);
    } else if (outcome == CACHE_MISS) {
        g_hash_table_insert(d->owner, key, GUINT_TO_POINTER(w + 1));
        lost = d->vta_hit_pending && d->vta_hit_warp == w && d->vta_hit_line == line;
    } else {
        return;
    }
    d->vta_hit_pending = false;
    int s = d->mode == DAWS_MODE_DETECTED ? d->samp_of[w] : -1;
    if (s < 0)
        return;
    int32_t *c = &d->swt[s].counter;
    bool was = *c > 0;
    if (mine || lost) {
        *c = MIN(*c + 1, 127);
        blk_stat_add(d->inst, DAWS_STAT_LOCALITY_UP, 1);
    } else {
        *c = MAX(*c - 1, -128);
        blk_stat_add(d->inst, DAWS_STAT_LOCALITY_DOWN, 1);
    }
    if (was != (*c > 0)) {
        d->table_valid = false;
        throttle_changed(&d->tt, gsc_cycle());
    }
}

static void daws_evicted(void *self, const cache_eviction *ev)
{
    daws *d = self;
    blk_call_note(d->probe[DAWS_EVICT], (uint32_t)ev->line_addr, ev->reason, 0);
    if (d->owner)
        g_hash_table_remove(d->owner, GSIZE_TO_POINTER(ev->line_addr + 1));
}

static void daws_issued(void *self, const issued_t *it)
{
    daws *d = self;
    unsigned w = it->warp;
    blk_stat_add(d->inst, DAWS_STAT_INSTS, 1);
    if (w >= DAWS_MAX_WARPS || !d->loops)
        return;
    if (d->mode == DAWS_MODE_PROFILE) {
        if (is_profiled_load(it))
            profile_load(d, it);
        return;
    }
    throttle_changed(&d->tt, gsc_cycle()); /* (what the issuing warp did may change the table) */
    d->last_func[w] = it->func;
    d->last_pc[w] = it->pc;
    if (it->mask)
        d->lanes[w] = (uint8_t)__builtin_popcount(it->mask);
    if (it->func >= d->loops->n_funcs)
        return;
    const daws_func *df = &d->loops->f[it->func];
    if (it->pc >= df->n_instrs)
        return;
    daws_fpt *e = &d->fpt[w];
    uint32_t L = df->begin_of[it->pc];
    if (d->mode == DAWS_MODE_DETECTED)
        detect_issued(d, it, df, L);
    if (L != IR_NONE) {
        if (e->loop == IR_NONE || e->func != it->func || e->pc <= it->pc) {
            e->func = it->func;
            e->loop = L;
            e->pc = it->pc;
        }
        e->pred = daws_footprint(d, e->func, e->loop, d->lanes[w]);
        if (e->pred > d->peak[w])
            d->peak[w] = e->pred;
        if (e->pred > blk_stat_get(d->inst, DAWS_STAT_PEAK_PRED))
            d->inst->stats[DAWS_STAT_PEAK_PRED] = e->pred;
        blk_stat_add(d->inst, DAWS_STAT_PREDICTIONS, 1);
        d->table_valid = false;
        return;
    }
    if (it->op == IR_OP_BAR || it->op == IR_OP_BARRIER) { /* waits at a barrier: no prediction */
        if (e->loop != IR_NONE && (e->pred || d->held >> w & 1)) {
            e->pred = 0;
            d->held &= ~(1ull << w);
            d->table_valid = false;
        }
        return;
    }
    if (e->loop != IR_NONE) {
        const daws_loop *lp = &g_array_index(df->loops, daws_loop, e->loop);
        if (d->exit == DAWS_EXIT_OUTERMOST)
            lp = &g_array_index(df->loops, daws_loop, lp->outer);
        if (e->func != it->func || it->pc < lp->begin || it->pc > lp->end) {
            clear_entry(d, w);
            blk_stat_add(d->inst, DAWS_STAT_LOOP_EXITS, 1);
            d->table_valid = false;
        } else if (d->hold && (it->cls == IR_CLASS_MEM && it->kind == 0) && e->pred && !(d->held >> w & 1)) {
            d->held |= 1ull << w; /* admitted into its loop */
            d->table_valid = false;
        }
    }
}

static void ev_cta_start(void *self, const cta_launch_t *cta, uint64_t cycle)
{
    daws *d = self;
    (void)cycle;
    blk_call_note(d->probe[DAWS_EVENTS], 0, cta->cta, cta->slot);
}

static void ev_cta_end(void *self, const cta_launch_t *cta, uint64_t cycle)
{
    daws *d = self;
    (void)cycle;
    blk_call_note(d->probe[DAWS_EVENTS], 1, cta->cta, cta->slot);
}

static void ev_warp_start(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    (void)slot;
    daws *d = self;
    blk_call_note(d->probe[DAWS_EVENTS], 2, w, slot);
    if (w >= DAWS_MAX_WARPS)
        gsc_fatal("%s: warp slot %u: at most %u warps per SM", d->inst->path, w, DAWS_MAX_WARPS);
    if (d->active >> w & 1)
        return;
    d->active |= 1ull << w;
    d->age[w] = d->seq++;
    d->order[d->n_active++] = w; /* (the youngest) */
    clear_entry(d, w);
    d->last_func[w] = IR_NONE;
    d->lanes[w] = IR_WARP_SIZE;
    if (d->recent[w]) {
        memset(d->recent[w], 0, d->prof_lines * sizeof(uint64_t));
        d->recent_at[w] = 0;
    }
    d->table_valid = false;
    throttle_wake(&d->tt, d->n_active);
    throttle_changed(&d->tt, cycle);
}

static void ev_warp_end(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    (void)slot;
    daws *d = self;
    blk_call_note(d->probe[DAWS_EVENTS], 3, w, slot);
    if (w >= DAWS_MAX_WARPS || !(d->active >> w & 1))
        return;
    d->active &= ~(1ull << w);
    unsigned k = 0;
    for (unsigned i = 0; i < d->n_active; i++)
        if (d->order[i] != w)
            d->order[k++] = d->order[i];
    d->n_active = k;
    clear_entry(d, w);
    stop_sampling(d, w);
    d->table_valid = false;
    throttle_changed(&d->tt, cycle);
}

/* Called for every warp the arbiter considers, every L1D access and every instruction issued: the
 * notes are in tables of their own (blk_export_noted). */
static bool daws_veto_noted(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    blk_call_note(((daws *)self)->probe[DAWS_VETO], warps[i].id, 0, 0);
    return daws_veto(self, warps, n, i, cycle);
}

static void daws_access_noted(void *self, unsigned w, uint64_t addr, unsigned outcome)
{
    blk_call_note(((daws *)self)->probe[DAWS_ACCESS], w, (uint32_t)addr, outcome);
    daws_access(self, w, addr, outcome);
}

static void daws_issued_noted(void *self, const issued_t *it)
{
    blk_call_note(((daws *)self)->probe[DAWS_ISSUED], it->warp, it->pc, 0);
    daws_issued(self, it);
}

static const issue_veto_if veto_table = {daws_veto, daws_until, daws_repeat, daws_watch};
static const issue_veto_if veto_noted = {daws_veto_noted, daws_until, daws_repeat, daws_watch};
static const l1_access_if access_table = {daws_access};
static const l1_access_if access_noted = {daws_access_noted};
static const l1_evict_if evict_table = {daws_evicted};
static const vta_hit_if vta_table = {daws_vta_hit};
static const warp_events_if events_table = {ev_cta_start, ev_cta_end, ev_warp_start, ev_warp_end};
static const instr_issued_if issued_table = {daws_issued};
static const instr_issued_if issued_noted = {daws_issued_noted};

static void daws_trace_run(void *self)
{
    daws *d = self;
    if (!throttle_traced(&d->tt))
        return;
    uint64_t now = gsc_cycle();
    uint64_t b = d->mode != DAWS_MODE_PROFILE ? daws_barred(d, now) : 0;
    d->tr_barred = b;
    d->tr_can_load = d->active & ~b;
    d->tr_eff = (uint32_t)(d->kassoc * d->lines / 1000);
    d->tr_total = 0;
    d->tr_in_loop = 0;
    for (unsigned w = 0; w < DAWS_MAX_WARPS; w++) {
        uint32_t p = d->active >> w & 1 ? daws_pred(d, w) : 0;
        if (w < DAWS_TRACED_WARPS)
            d->tr_pred[w] = p;
        d->tr_total += p;
        if ((d->active >> w & 1) && d->fpt[w].loop != IR_NONE)
            d->tr_in_loop |= 1ull << w;
    }
    if (d->n_active)
        gsc_run_within(1);
}

static void daws_elaborate(void *self)
{
    daws *d = self;
    throttle_elaborate(&d->tt, d->inst->mod, daws_trace_run, d);
}

daws *daws_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    daws *d = g_new0(daws, 1);
    d->inst = blk_inst_new(ctx, parent, name, &daws_desc);
    d->mode = blk_param_enum(d->inst, "mode");
    d->lines_param = (unsigned)blk_param_uint(d->inst, "lines");
    d->lines = d->lines_param ? d->lines_param : 256;
    d->kassoc = (unsigned)blk_param_uint(d->inst, "kassoc");
    d->cmp_ge = blk_param_enum(d->inst, "cmp") == 1;
    d->exit = blk_param_enum(d->inst, "exit");
    d->hold = blk_param_bool(d->inst, "hold");
    d->cf = blk_param_bool(d->inst, "cf");
    d->gate_flags = blk_param_enum(d->inst, "gate") == 1 ? POLICY_F_LOAD | POLICY_F_STORE : POLICY_F_LOAD;
    d->slct_max = (unsigned)blk_param_uint(d->inst, "slct");
    d->prof_lines = (unsigned)blk_param_uint(d->inst, "prof_lines");
    for (unsigned w = 0; w < DAWS_MAX_WARPS; w++) {
        d->fpt[w].loop = IR_NONE;
        d->last_func[w] = IR_NONE;
        d->samp_of[w] = -1;
    }
    blk_export(d->inst, DAWS_EVENTS, 0, &events_table, d);
    blk_export_noted(d->inst, DAWS_ISSUED, 0, &issued_table, &issued_noted, d);
    blk_export_noted(d->inst, DAWS_VETO, 0, &veto_table, &veto_noted, d);
    blk_export_noted(d->inst, DAWS_ACCESS, 0, &access_table, &access_noted, d);
    blk_export(d->inst, DAWS_EVICT, 0, &evict_table, d);
    blk_export(d->inst, DAWS_VTA_HIT, 0, &vta_table, d);
    blk_export_probes(d->inst, d->probe, DAWS_VTA_HIT + 1);
    d->swt_max = (unsigned)blk_param_uint(d->inst, "swt");
    d->reselect_ge2 = blk_param_enum(d->inst, "reselect") == 1;
    d->ilrd_all = blk_param_enum(d->inst, "ilrd") == 1;
    d->owner = g_hash_table_new(g_direct_hash, g_direct_equal);
    d->next_rep = 1;
    blk_trace_state(d->inst, "eff", GSC_U32, &d->tr_eff);
    blk_trace_state(d->inst, "total", GSC_U32, &d->tr_total);
    blk_trace_state(d->inst, "can_load", GSC_U64, &d->tr_can_load);
    blk_trace_state(d->inst, "barred", GSC_U64, &d->tr_barred);
    blk_trace_state(d->inst, "in_loop", GSC_U64, &d->tr_in_loop);
    for (unsigned w = 0; w < DAWS_TRACED_WARPS; w++) {
        char n[16];
        g_snprintf(n, sizeof n, "pred_%u", w);
        blk_trace_state(d->inst, n, GSC_U32, &d->tr_pred[w]);
    }
    blk_inst_on_elaborate(d->inst, daws_elaborate, d);
    return d;
}

static void free_groups(daws *d)
{
    if (!d->div_groups)
        return;
    for (unsigned f = 0; f < d->loops->n_funcs; f++) {
        g_free(d->div_groups[f]);
        g_free(d->conv_groups[f]);
    }
    g_free(d->div_groups);
    g_free(d->conv_groups);
    d->div_groups = d->conv_groups = NULL;
}

/* Per loop, the RepID groups of its SLCT entries: diverged (any load of the group is) or not. */
static void build_groups(daws *d)
{
    free_groups(d);
    if (!d->loops)
        return;
    d->div_groups = g_new0(uint16_t *, d->loops->n_funcs);
    d->conv_groups = g_new0(uint16_t *, d->loops->n_funcs);
    for (unsigned f = 0; f < d->loops->n_funcs; f++) {
        unsigned nl = d->loops->f[f].loops->len;
        d->div_groups[f] = g_new0(uint16_t, nl + 1);
        d->conv_groups[f] = g_new0(uint16_t, nl + 1);
    }
    for (unsigned i = 0; i < d->n_slct; i++) {
        const daws_slct_entry *e = &d->slct[i];
        bool first = true, div = false;
        for (unsigned j = 0; j < d->n_slct; j++) {
            const daws_slct_entry *o = &d->slct[j];
            if (o->func == e->func && o->loop_begin == e->loop_begin && o->rep == e->rep) {
                first &= j >= i;
                div |= o->is_div;
            }
        }
        if (!first || e->func >= d->loops->n_funcs || e->loop_begin >= d->loops->f[e->func].n_instrs)
            continue;
        uint32_t L = d->loops->f[e->func].begin_of[e->loop_begin];
        if (L == IR_NONE)
            continue;
        if (div)
            d->div_groups[e->func][L]++;
        else
            d->conv_groups[e->func][L]++;
    }
    d->table_valid = false;
}

static void free_detect(daws *d)
{
    for (unsigned f = 0; d->divc && f < d->loops->n_funcs; f++) {
        g_free(d->divc[f]);
        g_free(d->rep_of[f]);
    }
    g_free(d->divc);
    g_free(d->rep_of);
    d->divc = NULL;
    d->rep_of = NULL;
}

void daws_set_loops(daws *d, const daws_loops *l)
{
    free_groups(d);
    free_detect(d);
    d->loops = l;
    build_groups(d);
    d->divc = g_new0(uint8_t *, l->n_funcs);
    d->rep_of = g_new0(uint32_t *, l->n_funcs);
    for (unsigned f = 0; f < l->n_funcs; f++) {
        d->divc[f] = g_new0(uint8_t, l->f[f].n_instrs + 1);
        d->rep_of[f] = g_new0(uint32_t, l->f[f].n_instrs + 1);
    }
}

void daws_set_l1_lines(daws *d, unsigned lines)
{
    if (!d->lines_param && lines)
        d->lines = lines;
    d->table_valid = false;
}

void daws_set_profile(daws *d, daws_profile *p)
{
    d->prof = p;
}

void daws_load_slct(daws *d, const daws_slct_entry *e, unsigned n)
{
    if (n > d->slct_max)
        gsc_fatal(
            "%s: %u static loads in loops with locality: the classification table holds %u (set %s.slct)",
            d->inst->path, n, d->slct_max, d->inst->path);
    if (n)
        memcpy(d->slct, e, n * sizeof *e);
    d->n_slct = n;
    build_groups(d);
}

void daws_free(daws *d)
{
    if (!d)
        return;
    free_groups(d);
    free_detect(d);
    if (d->owner)
        g_hash_table_destroy(d->owner);
    for (unsigned w = 0; w < DAWS_MAX_WARPS; w++)
        g_free(d->recent[w]);
    g_free(d);
}
