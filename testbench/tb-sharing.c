/* tb-sharing — one SM (the `sm` machine of tb-sm) running a workload or a PTX kernel with resource
 * sharing (resource-sharing/GREENER spec §2-§5, docs/sharing.md): the lock_table block bound to the
 * issue block (check, issued, warp events, register values) and, with --policy owf, to every
 * arbiter's veto; the sharing-aware grant of cta_dispatch (U unshared CTAs and S pairs instead of the
 * baseline's F); with --share scratchpad the smem_share block (the shared region's lock check at
 * access, relssp). Options beside tb-sm's:
 *   --share none|registers|scratchpad   (scratchpad: the smem_share block beside the lock table)
 *   --threshold t | --sharing-percent P (default t = 0.1, 90 % sharing)
 *   --policy lrr|gto|oldest|owf         (owf: the arbiter orders oldest first and the lock table
 *                                        vetoes by class: owners, unshared, non-owners)
 *   --regorder                          (the regorder pass before register allocation)
 *   --relssp opt|postdom                (the relssp placement pass, with --share scratchpad)
 *   --smem-layout                       (the spvar_layout pass: the kernel's scratchpad variables
 *                                        laid out so the private region holds what the shared one
 *                                        need not; with --share scratchpad)
 *   --print-code FILE                   (the kernels' code as run, after the passes)
 *   --gpu                               (the whole GPU, tb-gpu's machine: a lock table per SM)
 *   --dwe                               (dynamic warp execution, dwe.h: SM 0 the reference)
 * Prints tb-sm's statistics and summary, then the sharing figures (baseline and sharing CTA counts,
 * lock statistics, stall and idle cycles as the spec defines them, IPC), checks the output, writes
 * waveforms/tb-sharing.vcd with its full view and waveforms/tb-sharing-locks.gtkw, a view of the
 * pairs, locks, owners and the issue order. Exit: 0 pass, 1 mismatch or run-time error, 2 bad input. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels/analysis/regalloc.h"
#include "kernels/passes/regorder.h"
#include "kernels/passes/relssp.h"
#include "kernels/passes/spvar_layout.h"
#include "models/sm/dwe.h"
#include "models/sm/lock_table.h"
#include "models/sm/smem_share.h"
#include "testbench/tb_common.h"

typedef struct {
    char *share, *threshold, *percent, *policy, *relssp, *code;
    gboolean regorder, gpu, dwe, layout;
} sh_opts;

static void add_opts(cli_run *run, sh_opts *s)
{
    memset(s, 0, sizeof *s);
    GOptionEntry entries[] = {
        {"share", 0, 0, G_OPTION_ARG_STRING, &s->share,
         "Resource sharing: none (default), registers or scratchpad", "WHAT"},
        {"threshold", 0, 0, G_OPTION_ARG_STRING, &s->threshold,
         "Sharing threshold t in (0, 1]: the private fraction of each CTA of a pair (default 0.1)", "t"},
        {"sharing-percent", 0, 0, G_OPTION_ARG_STRING, &s->percent,
         "Percent of sharing P in [0, 100): t = 1 - P/100", "P"},
        {"policy", 0, 0, G_OPTION_ARG_STRING, &s->policy,
         "Issue policy: lrr, gto, oldest or owf (owner warp first); default: the configuration's", "NAME"},
        {"gpu", 0, 0, G_OPTION_ARG_NONE, &s->gpu, "Run the whole GPU (tb-gpu's machine) instead of one SM",
         NULL},
        {"dwe", 0, 0, G_OPTION_ARG_NONE, &s->dwe,
         "Dynamic warp execution: throttle non-owner warps' memory instructions per SM against SM 0 "
         "(with --gpu; one SM is the reference alone)",
         NULL},
        {"relssp", 0, 0, G_OPTION_ARG_STRING, &s->relssp,
         "Place relssp (release the shared scratchpad early) in the kernels: opt or postdom (--share "
         "scratchpad)",
         "VARIANT"},
        {"smem-layout", 0, 0, G_OPTION_ARG_NONE, &s->layout,
         "Lay the kernels' scratchpad variables out for sharing (the spvar_layout pass): the variables "
         "outside the chosen shared set first, in the private region (--share scratchpad)",
         NULL},
        {"print-code", 0, 0, G_OPTION_ARG_FILENAME, &s->code,
         "Write the kernels' code as the SM runs it (after the passes) to FILE", "FILE"},
        {"regorder", 0, 0, G_OPTION_ARG_NONE, &s->regorder,
         "Renumber the kernels' registers by first use before allocation (the regorder pass)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *g =
        g_option_group_new("sharing", "Resource sharing options", "Show the sharing options", NULL, NULL);
    g_option_group_add_entries(g, entries);
    cli_add_group(run, g);
}

static bool relssp_on, layout_on;   /* --relssp, --smem-layout */
static relssp_variant relssp_which; /* --relssp */
static share_threshold layout_t;    /* the threshold, for --smem-layout and the gate */
static share_mode gate_mode;        /* the sharing the gate asks about */
static uint64_t layout_r_tb;        /* --smem-per-cta (0: the kernel's own), for --smem-layout */
static bool *pass_entries;          /* per function: a kernel that runs with scratchpad sharing active */

static void regorder_pass(ir_module *m)
{
    regorder_module(m);
}

/* --smem-layout, then --relssp (which then counts only the accesses the layout left shared), in the
 * kernels the gate found active */
static void smem_passes(ir_module *m)
{
    if (layout_on)
        spvar_layout_apply_entries(m, layout_t.num, layout_t.den, layout_r_tb, pass_entries);
    if (relssp_on)
        relssp_place_entries(m, relssp_which, pass_entries);
}

/* Is sharing (gate_mode) active in launch l of module m on an SM `sm` of a machine of n_sms SMs: is
 * the shared resource the binding limit with a pair that fits (ShSM = 1), and does the grid have more
 * CTAs than the SMs' unshared ones (else every CTA starts unshared and no pair forms)? If not, why,
 * in `why`. */
static bool launch_shares(ir_module *m, const tb_opts *o, const occupancy_sm *sm, unsigned n_sms,
                          const tb_launch_rec *l, GString *why)
{
    ir_func *f = g_ptr_array_index(m->funcs, l->entry);
    unsigned regs = regalloc_entry_regs(m, f, NULL);
    occupancy_kernel k = {.regs_per_thread =
                              o->regs_per_thread > (gint64)regs ? (unsigned)o->regs_per_thread : regs,
                          .smem_static = o->smem_per_cta > (gint64)(l->smem_static + l->shared_dyn)
                                             ? (unsigned)o->smem_per_cta - l->shared_dyn
                                             : (unsigned)l->smem_static,
                          .smem_dynamic = l->shared_dyn,
                          .threads_per_cta = l->block[0] * l->block[1] * l->block[2]};
    sharing_result r;
    GError *err = NULL;
    if (!sharing_compute(sm, &k, gate_mode, layout_t, &r, &err)) {
        g_string_assign(why, err->message);
        g_error_free(err);
        return false;
    }
    if (!r.active) {
        g_string_assign(why, r.reason);
        return false;
    }
    uint64_t ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (ctas > (uint64_t)r.unshared * n_sms)
        return true;
    g_string_printf(why,
                    "no pair forms: the grid's %" G_GUINT64_FORMAT " CTAs run as the %u unshared CTAs per SM",
                    ctas, r.unshared);
    if (n_sms > 1)
        g_string_append_printf(why, " of %u SMs", n_sms);
    return false;
}

/* tb_kernel_pass_gate for --relssp and --smem-layout (scratchpad sharing) and --regorder (register
 * sharing): the kernel's launches (a functional run of the workload) decide which kernels run with
 * sharing active; only those get relssp and the layout (--regorder: the module is renumbered if one
 * does). A kernel that never does is said inactive, and why, and runs as written, cycle for cycle as
 * without sharing (the spec's §16 item 12). */
static bool pass_gate(tb_kernel *k, const tb_opts *o, const occupancy_sm *sm, unsigned n_sms)
{
    ir_module *m = tb_kernel_module(k);
    GArray *ls = g_array_new(FALSE, FALSE, sizeof(tb_launch_rec));
    GString *err = g_string_new(NULL);
    if (tb_kernel_launches(k, o, ls, err)) {
        fprintf(stderr, "gpusc: %s: the launches that decide where sharing is active: %s\n",
                tb_kernel_name(k), err->str);
        exit(TB_EXIT_RUN);
    }
    g_free(pass_entries);
    pass_entries = g_new0(bool, m->funcs->len);
    char **why = g_new0(char *, m->funcs->len); /* the first inactive launch's reason per kernel */
    bool any = false;
    for (guint i = 0; i < ls->len; i++) {
        const tb_launch_rec *l = &g_array_index(ls, tb_launch_rec, i);
        g_string_truncate(err, 0);
        if (launch_shares(m, o, sm, n_sms, l, err))
            any = pass_entries[l->entry] = true;
        else if (!why[l->entry])
            why[l->entry] = g_strdup(err->str);
    }
    for (guint f = 0; f < m->funcs->len; f++) {
        if (why[f] && !pass_entries[f])
            fprintf(stderr, "gpusc: sharing inactive: kernel %s: %s: %s\n",
                    ((const ir_func *)g_ptr_array_index(m->funcs, f))->name, why[f],
                    gate_mode == SHARE_REGS  ? "no regorder, the registers numbered as declared"
                    : relssp_on && layout_on ? "no relssp placed, the scratchpad laid out as declared"
                    : relssp_on              ? "no relssp placed"
                                             : "the scratchpad laid out as declared");
        g_free(why[f]);
    }
    g_free(why);
    g_string_free(err, TRUE);
    g_array_free(ls, TRUE);
    return any;
}

/* A bad option: the message, exit 2. */
static int G_GNUC_PRINTF(1, 2) usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return TB_EXIT_USAGE;
}

/* An issue statistic summed over the SMs. */
static uint64_t istat(sm_topo *const *sms, unsigned n, unsigned i)
{
    uint64_t v = 0;
    for (unsigned s = 0; s < n; s++)
        v += blk_stat_get(sm_topo_issue_inst(sms[s]), i);
    return v;
}

/* A lock table statistic summed over the SMs. */
static uint64_t lstat(lock_table *const *lt, unsigned n, unsigned i)
{
    uint64_t v = 0;
    for (unsigned s = 0; s < n; s++)
        v += blk_stat_get(lt[s]->inst, i);
    return v;
}

/* The signals of the curated view tb-sharing-locks.gtkw: the cycle, the lock table, the issue order
 * (issue's warp and stall, the arbiters' grants), the dispatcher (tb_write_view: values by name,
 * idle groups closed). */
static bool locks_keep(const char *name, void *ctx)
{
    (void)ctx;
    static const char *const keep[] = {".lock_table.", ".smem_share.", ".issue.warp",
                                       ".issue.pc",    ".issue.stall", ".issue.issued",
                                       ".grant",       "dispatch.",    NULL};
    bool take = strcmp(name, "tb.cycle") == 0;
    for (unsigned j = 0; keep[j] && !take; j++)
        take = strstr(name, keep[j]) != NULL && !strstr(name, ".calls");
    if (take && strstr(name, ".issue.warp") && !g_str_has_suffix(name, ".issue.warp"))
        take = false; /* issue's last warp, not the per-warp groups .issue.warpN */
    return take;
}

/* The run's state between the hooks of tb_main_ext. */
typedef struct {
    sh_opts so;
    cli_run *run;
    share_mode mode;
    share_threshold t;
    bool owf;
    int refuse; /* a usage error found after parsing (its message printed): the exit status */
    unsigned n;
    lock_table **lt;
    smem_share **ss;
    lock_table_grant *grant;
    dwe *ctl;
    const ir_module *mod; /* the kernel's module (a relssp without a shared scratchpad is logged) */
} tb_sharing;

static void add_opts_ext(cli_run *run, void *ctx)
{
    add_opts(run, &((tb_sharing *)ctx)->so);
}

/* After parsing: the options checked (a refusal is kept for `check`), the passes chosen. */
static void parsed(cli_run *run, void *ctx)
{
    tb_sharing *t = ctx;
    sh_opts *so = &t->so;
    t->run = run;
    t->t = (share_threshold){1, 10};
    GError *err = NULL;
    if ((so->share && !sharing_parse_mode(so->share, &t->mode, &err)) ||
        (so->threshold && !sharing_parse_threshold(so->threshold, &t->t, &err)) ||
        (so->percent && !sharing_parse_percent(so->percent, &t->t, &err))) {
        t->refuse = usage("%s", err->message);
        g_error_free(err);
        return;
    }
    t->owf = so->policy && strcmp(so->policy, "owf") == 0;
    if (so->threshold && so->percent)
        t->refuse = usage("--threshold and --sharing-percent say the same thing: give one");
    else if (so->policy && !t->owf && !policy_lookup(so->policy))
        t->refuse = usage("--policy '%s': expected lrr, gto, oldest or owf", so->policy);
    else if (so->regorder && t->mode == SHARE_SMEM)
        t->refuse = usage("--regorder renumbers registers for register sharing: it needs --share registers");
    else if (so->dwe && t->mode != SHARE_REGS)
        t->refuse = usage("--dwe throttles non-owner warps of register sharing: it needs --share registers");
    else if (so->relssp && strcmp(so->relssp, "opt") != 0 && strcmp(so->relssp, "postdom") != 0)
        t->refuse = usage("--relssp '%s': expected opt or postdom", so->relssp);
    else if (so->relssp && t->mode != SHARE_SMEM)
        t->refuse = usage("--relssp releases the shared scratchpad: it needs --share scratchpad");
    else if (so->layout && t->mode != SHARE_SMEM)
        t->refuse = usage("--smem-layout lays out the scratchpad for sharing: it needs --share scratchpad");
    if (t->refuse)
        return;
    if (so->relssp || so->layout) {
        relssp_on = so->relssp != NULL;
        relssp_which = relssp_on && strcmp(so->relssp, "opt") == 0 ? RELSSP_OPT : RELSSP_POSTDOM;
        layout_on = so->layout;
        layout_t = t->t;
        gate_mode = SHARE_SMEM;
        tb_kernel_pass = smem_passes;
        tb_kernel_pass_gate = pass_gate;
    }
    if (so->regorder)
        tb_kernel_pass = regorder_pass;
    if (so->regorder && t->mode == SHARE_REGS) { /* --share none: regorder alone, as asked */
        layout_t = t->t;
        gate_mode = SHARE_REGS;
        tb_kernel_pass_gate = pass_gate;
    }
}

static int check(machine *mach, tb_kernel *k, void *ctx)
{
    (void)k;
    tb_sharing *t = ctx;
    if (t->refuse)
        return t->refuse;
    bool subcore;
    g_free(machine_sm_path(mach, &subcore));
    if (subcore)
        return usage("register sharing is built for the monolithic SM: this configuration's GPU has sub-core "
                     "SMs ([gpu] sm_kind)");
    return 0;
}

/* The machine exists: a lock table per SM (and smem_share with --share scratchpad) bound to its
 * issue block, the arbiters' veto for owf or dwe, the sharing-aware grant. */
static void built(machine *mach, tb_kernel *k, void *ctx)
{
    tb_sharing *t = ctx;
    cli_run *run = t->run;
    sm_env *env = tb_kernel_env_of(k);
    unsigned n = t->n = machine_n_sms(mach);
    sm_topo **sms = machine_sms(mach);
    t->mod = env->mod;
    if (t->so.code) {
        GString *code = g_string_new(NULL);
        GError *err = NULL;
        ir_print_module(code, env->mod);
        if (!g_file_set_contents(t->so.code, code->str, (gssize)code->len, &err)) {
            fprintf(stderr, "gpusc: --print-code: %s\n", err->message);
            g_error_free(err);
        }
        g_string_free(code, TRUE);
    }
    t->lt = g_new0(lock_table *, n);
    t->ss = g_new0(smem_share *, n);
    if (t->mode == SHARE_NONE && !t->owf)
        return;
    blk_inst **issues = g_new(blk_inst *, n);
    for (unsigned s = 0; s < n; s++)
        issues[s] = sm_topo_issue_inst(sms[s]);
    if (t->so.dwe)
        t->ctl = dwe_new(issues, n, 0, 1000, 10, run->seed ? g_ascii_strtoull(run->seed, NULL, 10) : 1);
    g_free(issues);
    for (unsigned s = 0; s < n; s++) {
        issue *is = sm_topo_issue(sms[s]);
        lock_table *lt = t->lt[s] =
            lock_table_new(run->ctx, sm_topo_module(sms[s]), "lock_table", is->warps, is->ctas);
        lt->owf = t->owf;
        lt->dwe = t->ctl;
        lt->sm = s;
        blk_inst *lti = lt->inst;
        blk_bind(is->inst, "check", lti, "check");
        blk_bind(is->inst, "issued", lti, "issued");
        blk_bind(is->inst, "warp_events", lti, "events");
        blk_bind(is->inst, "value", lti, "value");
        if (t->mode == SHARE_SMEM) { /* bound after the lock table: it sees the lock released first */
            t->ss[s] = smem_share_new(run->ctx, sm_topo_module(sms[s]), "smem_share", lt,
                                      sm_topo_wexec(sms[s]), env, is->warps, is->ctas);
            blk_inst *ssi = t->ss[s]->inst;
            blk_bind(is->inst, "check", ssi, "check");
            blk_bind(is->inst, "issued", ssi, "issued");
            blk_bind(is->inst, "warp_events", ssi, "events");
            blk_bind(is->inst, "value", ssi, "value");
        }
        if (t->owf || t->ctl)
            for (unsigned a = 0; a < issue_schedulers(is); a++) {
                char *name = g_strdup_printf("%s.arbiter%u", gsc_module_name(sm_topo_module(sms[s])), a);
                blk_bind(blk_ctx_find(run->ctx, name), "veto", lti, "veto");
                g_free(name);
            }
    }
    t->grant = lock_table_grant_install(machine_dispatch(mach), t->lt, n,
                                        t->mode == SHARE_NONE ? SHARE_REGS : t->mode,
                                        t->mode == SHARE_NONE ? (share_threshold){1, 1} : t->t);
}

/* A kernel whose code holds `relssp` (written in the PTX, or placed by another tool) run without an
 * active scratchpad sharing: the relssp release nothing; say so and why. */
static void log_idle_relssp(const tb_sharing *t, const sharing_result *sr)
{
    if (!t->mod || (t->mode == SHARE_SMEM && sr && sr->active))
        return;
    for (guint f = 0; f < t->mod->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(t->mod->funcs, f);
        for (uint32_t i = 0; fn->is_defined && i < ir_func_n_instrs(fn); i++)
            if (ir_func_instr(fn, i)->op == IR_OP_RELSSP) {
                fprintf(stderr,
                        "gpusc: sharing inactive: %s %s executes relssp without a shared scratchpad (%s): it "
                        "releases nothing\n",
                        fn->is_entry ? "kernel" : "function", fn->name,
                        t->mode != SHARE_SMEM ? "--share is not scratchpad"
                                              : (sr && sr->reason[0] ? sr->reason : "no pair"));
                return;
            }
    }
}

/* After the summaries: the locks view, the sharing figures. */
static void finished(machine *mach, int rc, void *ctx)
{
    (void)rc;
    tb_sharing *t = ctx;
    cli_run *run = t->run;
    unsigned n = t->n;
    sm_topo **sms = machine_sms(mach);
    lock_table **lt = t->lt;
    tb_write_view(run, "tb-sharing-locks.gtkw", false, locks_keep, NULL);
    const occupancy_result *occ = cta_dispatch_occupancy(machine_dispatch(mach));
    const sharing_result *sr = t->grant ? lock_table_grant_result(t->grant) : NULL;
    char *arb = g_strdup_printf("%s.arbiter0", gsc_module_name(sm_topo_module(sms[0])));
    bool active = sr && sr->active;
    log_idle_relssp(t, sr);
    printf("sharing: %s t %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
           " policy %s: ctas %u baseline %u pairs %u "
           "unshared %u%s%s\n",
           sharing_mode_name(t->mode), t->t.num, t->t.den,
           t->so.policy ? t->so.policy : blk_param_string(blk_ctx_find(run->ctx, arb), "policy"),
           active ? sr->ctas : occ->ctas, occ->ctas, active ? sr->pairs : 0,
           active ? sr->unshared : occ->ctas, sr && !active && t->mode != SHARE_NONE ? ": inactive: " : "",
           sr && !active && t->mode != SHARE_NONE ? sr->reason : "");
    g_free(arb);
    if (t->mode != SHARE_NONE) {
        occupancy_sm o;
        sm_topo_occupancy(sms[0], &o);
        printf("sharing: added storage per SM %" G_GUINT64_FORMAT " bits (%u CTA slots, %u warp slots)\n",
               sharing_storage_bits(t->mode, o.max_ctas, o.max_warps), o.max_ctas, o.max_warps);
    }
    if (t->grant)
        printf("locks: acquires %" G_GUINT64_FORMAT " waits %" G_GUINT64_FORMAT
               " deadlock_waits %" G_GUINT64_FORMAT " handovers %" G_GUINT64_FORMAT
               " violations %" G_GUINT64_FORMAT "\n",
               lstat(lt, n, LOCK_TABLE_STAT_ACQUIRES), lstat(lt, n, LOCK_TABLE_STAT_WAITS),
               lstat(lt, n, LOCK_TABLE_STAT_DEADLOCK_WAITS), lstat(lt, n, LOCK_TABLE_STAT_HANDOVERS),
               lstat(lt, n, LOCK_TABLE_STAT_VIOLATIONS));
    if (t->mode == SHARE_SMEM) {
        uint64_t v[SMEM_SHARE_STAT_EXIT_RELEASES + 1] = {0};
        for (unsigned s = 0; s < n; s++)
            for (unsigned i = 0; i <= SMEM_SHARE_STAT_EXIT_RELEASES; i++)
                v[i] += blk_stat_get(t->ss[s]->inst, i);
        printf("scratchpad: accesses %" G_GUINT64_FORMAT " acquires %" G_GUINT64_FORMAT
               " waits %" G_GUINT64_FORMAT " relssp %" G_GUINT64_FORMAT " releases %" G_GUINT64_FORMAT
               " violations %" G_GUINT64_FORMAT "\n",
               v[SMEM_SHARE_STAT_ACCESSES], v[SMEM_SHARE_STAT_ACQUIRES], v[SMEM_SHARE_STAT_WAITS],
               v[SMEM_SHARE_STAT_RELSSP], v[SMEM_SHARE_STAT_RELEASES], v[SMEM_SHARE_STAT_VIOLATIONS]);
        uint64_t acq = v[SMEM_SHARE_STAT_ACQUIRES];
        printf("scratchpad-hold: held %" G_GUINT64_FORMAT " cycles mean %.1f exit_releases %" G_GUINT64_FORMAT
               "\n",
               v[SMEM_SHARE_STAT_HELD], acq ? (double)v[SMEM_SHARE_STAT_HELD] / (double)acq : 0.0,
               v[SMEM_SHARE_STAT_EXIT_RELEASES]);
    }
    if (t->ctl) {
        printf("dwe: windows %" G_GUINT64_FORMAT " refused %" G_GUINT64_FORMAT " p", dwe_windows(t->ctl),
               dwe_refused(t->ctl));
        for (unsigned s = 0; s < n; s++)
            printf(" %u.%u", dwe_p(t->ctl, s) / 10, dwe_p(t->ctl, s) % 10);
        printf("\n");
    }
    /* §15: a stall cycle: ready but the units are busy; an idle cycle: no warp ready */
    uint64_t issued = istat(sms, n, ISSUE_STAT_ISSUE_CYCLES),
             stall = istat(sms, n, ISSUE_STAT_STALL_PIPELINE);
    uint64_t idle = 0;
    double ipc = 0;
    for (unsigned i = ISSUE_STAT_STALL_IDLE; i <= ISSUE_STAT_STALL_CHECK; i++)
        if (i != ISSUE_STAT_STALL_PIPELINE)
            idle += istat(sms, n, i);
    for (unsigned s = 0; s < n; s++)
        ipc += blk_stat_value(sm_topo_issue_inst(sms[s]), ISSUE_STAT_IPC);
    printf("cycles %" G_GUINT64_FORMAT " scheduler-cycles: issued %" G_GUINT64_FORMAT
           " stall %" G_GUINT64_FORMAT " idle %" G_GUINT64_FORMAT " ipc %.4f\n",
           gsc_cycle(), issued, stall, idle, ipc);
    lock_table_grant_free(t->grant);
    dwe_free(t->ctl);
    for (unsigned s = 0; s < n; s++)
        smem_share_free(t->ss[s]);
    g_free(t->ss);
    g_free(t->lt);
}

int tb_sharing_main(int argc, char **argv)
{
    bool on_gpu = false;
    for (int i = 1; i < argc; i++)
        on_gpu |= strcmp(argv[i], "--gpu") == 0;
    blk_registry_add(&lock_table_desc);
    blk_registry_mark_built(&lock_table_desc);
    blk_registry_add(&smem_share_desc);
    blk_registry_mark_built(&smem_share_desc);
    /* --policy owf: the arbiters order oldest first (the lock table's veto adds the classes) */
    char **args = g_new0(char *, (gsize)argc + 3);
    int n_args = argc;
    for (int i = 0; i < argc; i++)
        args[i] = argv[i];
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--policy") == 0 && i + 1 < argc)
            v = argv[i + 1];
        else if (g_str_has_prefix(argv[i], "--policy="))
            v = argv[i] + 9;
        if (strcmp(argv[i], "--smem-per-cta") == 0 && i + 1 < argc) /* for --smem-layout's R_tb */
            layout_r_tb = g_ascii_strtoull(argv[i + 1], NULL, 10);
        else if (g_str_has_prefix(argv[i], "--smem-per-cta="))
            layout_r_tb = g_ascii_strtoull(argv[i] + 15, NULL, 10);
        if (v) {
            args[n_args++] = "--set";
            args[n_args++] = g_strdup_printf("arbiter.policy=%s", strcmp(v, "owf") == 0 ? "oldest" : v);
        }
    }
    static tb_sharing t;
    const tb_ext ext = {.program = "tb-sharing",
                        .summary =
                            "register and scratchpad sharing (lock table, sharing-aware dispatch, OWF, "
                            "relssp) on one SM or the GPU",
                        .options = add_opts_ext,
                        .parsed = parsed,
                        .check = check,
                        .built = built,
                        .finished = finished,
                        .ctx = &t};
    return tb_main_ext(on_gpu ? MACHINE_GPU : MACHINE_SM, n_args, args, &ext);
}
