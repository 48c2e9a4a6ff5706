/* arbiter.c — see arbiter.h. */
#include "models/sm/arbiter.h"

#include "models/sm/issue.h"

static const char *const arb_methods[] = {
    "order(warps, n, cycle) -> candidates, best first (the policy, then the vetoes)",
    "stable() -> the same list gives the same answer",
    "outcome(warp issued or -1, stall reason)",
    "first(warps, n, cycle) -> as order, only the best candidate written",
    NULL,
};
/* n (traced): up to SM_MAX_WARPS candidates */
const blk_iface arbiter_iface = {"arbiter", "a warp scheduler's issue arbiter", arb_methods, {"n"}, {9}};

static const char *const veto_methods[] = {
    "veto(warps, n, i, cycle) -> true: candidate i may not issue this cycle", NULL};
/* Traced calls: the candidate's warp. */
const blk_iface issue_veto_iface = {"issue_veto", "a veto on an issue candidate", veto_methods, {"warp"}, {16}};

static const blk_port_desc ports[] = {
    [ARBITER_ARB] = {"arb", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "the issue stage asks for the order of its scheduler's ready warps (same cycle)",
                     &arbiter_iface},
    [ARBITER_VETO] = {"veto", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                      "vetoes asked for each candidate, in binding order (none in the baseline)",
                      &issue_veto_iface, BLK_PORT_MULTI},
};

static const blk_param_desc params[] = {
    {"policy", BLK_PARAM_STRING, "gto", NULL, NULL, NULL, "",
     "issue policy spec (lrr, gto, oldest, two_level_active:N[:inner[:outer]]) [S: GTX480 gto]"},
    {"swl", BLK_PARAM_UINT, "0", "0", "128", NULL, "warps",
     "static warp limiting: only the N oldest listed warps may issue (0: off) [CCWS/DAWS/VWS spec §5.3]"},
    {"e_grant", BLK_PARAM_DOUBLE, "2", "0", NULL, NULL, "pJ",
     "energy of scheduling one warp instruction (the ordering and selection over the warp slots) [A: about "
     "two 1 KB CACTI 40 nm table accesses of the register-renaming specification]"},
};

static const blk_stat_desc stats[] = {
    [ARBITER_STAT_GRANTS] = {"grants", BLK_STAT_COUNTER, "instructions", "warps chosen to issue", NULL},
    [ARBITER_STAT_EMPTY] =
        {"empty_orders", BLK_STAT_COUNTER, "cycles",
         "orders that listed no candidate while a warp was ready (vetoed, or outside a two-level active set)",
         NULL},
};

static const blk_energy_event energy_events[] = {{"grant", "grants", "e_grant", BLK_COMP_SCHEDP}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"grant", 8, "warp of the last grant"},
    {"stall", 4, "the scheduler's stall reason in its last evaluated cycle (8: it issued)"},
};

const blk_desc arbiter_desc = {
    "arbiter",
    "a warp scheduler's issue arbiter: the policy's order of the ready warps, vetoes, warp limiting",
    "docs/baseline-design.md §2.2 issue arbiter; CCWS/DAWS/VWS spec §2.1, §3, §5.3",
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

_Static_assert(sizeof(arbiter) <= 64, "an arbiter on one line");

/* The calls' note and the empty-order count after the policy answered k. */
static inline unsigned arb_answered(arbiter *a, const policy_warp *warps, unsigned n, unsigned k)
{
    blk_call_note(a->probe, k, 0, 0);
    a->last_empty = false;
    if (k == 0) /* a policy that is not stable is asked with no warp ready too: that is no refusal */
        for (unsigned i = 0; i < n; i++)
            if (warps[i].ready) {
                blk_stat_add(a->inst, ARBITER_STAT_EMPTY, 1);
                a->last_empty = true;
                break;
            }
    return k;
}

static unsigned arb_order(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out)
{
    arbiter *a = self;
    return arb_answered(a, warps, n, policy_order(a->pol, warps, n, cycle, out));
}

static unsigned arb_first(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out)
{
    arbiter *a = self;
    return arb_answered(a, warps, n, policy_first(a->pol, warps, n, cycle, out));
}

static bool arb_settles(void *self)
{
    arbiter *a = self;
    return policy_settles(a->pol) && !gsc_pulse_traced(a->probe->pulse);
}

static uint64_t arb_holds_until(void *self, const policy_warp *warps, unsigned n, uint64_t cycle)
{
    return policy_holds_until(((arbiter *)self)->pol, warps, n, cycle);
}

static void arb_repeat(void *self, const policy_warp *warps, unsigned n, uint64_t first, uint64_t count)
{
    arbiter *a = self;
    policy_repeat(a->pol, warps, n, first, count);
    if (a->last_empty)
        blk_stat_add(a->inst, ARBITER_STAT_EMPTY, count);
}

static void arb_watch(void *self, void (*changed)(void *ctx, uint64_t from), void *ctx)
{
    arbiter *a = self;
    for (unsigned i = 0; i < a->watched->len; i++) {
        const blk_iref *r = g_ptr_array_index(a->watched, i);
        ((const issue_veto_if *)r->methods)->watch(r->self, changed, ctx);
    }
}

static bool arb_stable(void *self)
{
    return policy_stable(((arbiter *)self)->pol);
}

static void arb_outcome(void *self, int warp, unsigned stall)
{
    arbiter *a = self;
    if (warp >= 0) {
        a->tr_stall = (uint8_t)ISSUE_STALL_COUNT; /* "issued" */
        a->tr_grant = (uint32_t)warp;
        blk_stat_add(a->inst, ARBITER_STAT_GRANTS, 1);
        if (gsc_pulse_traced(a->grant_pulse))
            gsc_pulse_fire(a->grant_pulse);
    } else {
        a->tr_stall = (uint8_t)stall;
    }
}

static const arbiter_if arb_table = {arb_order,       arb_stable, arb_outcome, arb_settles,
                                     arb_holds_until, arb_repeat, arb_watch,   arb_first};

/* The vetoes bound to `veto` join the policy's (policy_add_veto): the policy asks them. */
static void arbiter_elaborate(void *self)
{
    arbiter *a = self;
    for (unsigned i = 0; i < blk_import_n(a->inst, ARBITER_VETO, 0); i++) {
        blk_iref r = blk_import_nth(a->inst, ARBITER_VETO, 0, i);
        const issue_veto_if *v = r.methods;
        if (v->until && v->repeat && v->watch) {
            policy_add_veto_holding(a->pol, v->veto, v->until, v->repeat, r.self);
            g_ptr_array_add(a->watched, g_memdup2(&r, sizeof r));
        } else {
            policy_add_veto(a->pol, v->veto, r.self);
        }
    }
}

/* The traced `stall` by name: a stall reason (issue_stall) or, one past them, "issued". */
static const char *decision_name(unsigned v)
{
    return v == ISSUE_STALL_COUNT ? "issued" : issue_stall_name((issue_stall)v);
}
static const gsc_enum decision_enum = {"decision", ISSUE_STALL_COUNT + 1, decision_name};

arbiter *arbiter_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    arbiter *a = g_aligned_alloc0(1, sizeof(arbiter), 64); /* (one line: a choice reads and writes it) */
    a->inst = blk_inst_new(ctx, parent, name, &arbiter_desc);
    GError *err = NULL;
    a->pol = policy_new(blk_param_string(a->inst, "policy"), &err);
    if (!a->pol)
        gsc_fatal("%s.policy: %s", a->inst->path, err->message);
    unsigned swl = (unsigned)blk_param_uint(a->inst, "swl");
    if (swl)
        policy_add_swl_except(a->pol, swl, ISSUE_STALL_BARRIER + 1); /* (issue's policy_warp.stall) */
    a->watched = g_ptr_array_new_with_free_func(g_free);
    blk_export(a->inst, ARBITER_ARB, 0, &arb_table, a);
    a->probe = blk_export_probe(a->inst, ARBITER_ARB, 0);
    a->grant_pulse = gsc_pulse_new(a->inst->mod, "grants", 1);
    a->tr_stall = 0;
    blk_trace_state(a->inst, "grant", GSC_U32, &a->tr_grant);
    blk_trace_state(a->inst, "stall", GSC_U8, &a->tr_stall);
    gsc_trace_var_enum(a->inst->mod, "stall", &decision_enum);
    blk_inst_on_elaborate(a->inst, arbiter_elaborate, a);
    return a;
}

void arbiter_free(arbiter *a)
{
    if (!a)
        return;
    policy_free(a->pol);
    g_ptr_array_free(a->watched, TRUE);
    g_aligned_free(a);
}
