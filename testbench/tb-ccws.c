/* tb-ccws — the cache-conscious warp scheduling testbench (docs/ccws.md): one SM (or, with --gpu,
 * the GPU) of the ccws preset running a workload under a chosen warp scheduler, its output checked.
 *
 *   --sched lrr | gto | oldest | 2lvl | 2lvl-lrr | swl:N | ccws | daws | daws-detected | daws-profile
 *   (default ccws)
 *
 * lrr, gto, oldest: the arbiter's policy; 2lvl-lrr: fetch_groups_lrr:8 (2LVL-LRR); 2lvl: fetch_groups:2
 * (2LVL-GTO: fetch groups of 2 warps, GTO inside and across; models/ccws/fetch_groups.h); swl:N: GTO with
 * static warp limiting (arbiter.swl = N); ccws: GTO with, in every SM, a `vta` block (victim tag array) bound
 * to ldst.l1_evict / ldst.l1_access and a `ccws` block (lost-locality scoring) bound to vta.hit,
 * issue.warp_events, issue.issued and every arbiter's veto. Prints what tb-sm prints, then the L1D and CCWS
 * figures: L1D hits / misses, VTA hits, loads struck, throttled cycles and each warp's peak score, VTA hits
 * and strikes (SM 0). daws: Profiled-DAWS: GTO with, in every SM, a `daws` block bound to issue.warp_events,
 * issue.issued and every arbiter's veto, its loop markers from the loop-marker pass over the kernel and its
 * static load classification table from the classification pass over a load profile: --daws-profile FILE, or,
 * without it, a profiling run of this program (--sched daws-profile) started first with the same workload
 * options. daws-profile: GTO with the daws block profiling every load; --daws-profile-out FILE writes the
 * profile. daws-detected: Detected-DAWS: the daws block classifies the loads at run time from sampling
 * warps, with a victim tag array for lost locality (no profile). --pc-stats: an l1pc block in every SM, the
 * per-load L1D statistics printed and in --stats-json; --belady: also the offline Belady / LRU replay of
 * the L1D load stream (docs/ccws.md, "Per-load statistics and the Belady replay"). */
#include <stddef.h>
#include <stdio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernels/frontend/hostfile.h"
#include "kernels/passes/daws_pass.h"
#include "models/ccws/ccws.h"
#include "models/ccws/daws.h"
#include "models/ccws/fetch_groups.h"
#include "models/ccws/l1pc.h"
#include "models/ccws/vta.h"
#include "testbench/tb_common.h"

typedef struct {
    vta *v;
    ccws *c;
    daws *d;
    l1pc *p; /* the per-load statistics (every scheduler) */
} ccws_sm;

enum { MECH_NONE, MECH_CCWS, MECH_DAWS, MECH_DAWS_PROFILE, MECH_DAWS_DETECTED };

/* --sched's value turned into --set assignments; NULL for a bad value. */
static char **sched_sets(const char *sched, int *mech)
{
    *mech = MECH_NONE;
    if (!strcmp(sched, "daws-detected")) {
        *mech = MECH_DAWS_DETECTED;
        return g_strsplit("arbiter.policy=gto\ndaws.mode=detected", "\n", -1);
    }
    if (!strcmp(sched, "daws") || !strcmp(sched, "daws-profile")) {
        *mech = sched[4] ? MECH_DAWS_PROFILE : MECH_DAWS;
        return g_strsplit(sched[4] ? "arbiter.policy=gto\ndaws.mode=profile" : "arbiter.policy=gto", "\n",
                          -1);
    }
    if (!strcmp(sched, "lrr") || !strcmp(sched, "gto") || !strcmp(sched, "oldest"))
        return g_strsplit(g_strdup_printf("arbiter.policy=%s", sched), "\n", -1);
    if (!strcmp(sched, "2lvl"))
        return g_strsplit("arbiter.policy=fetch_groups:2", "\n", -1);
    if (!strcmp(sched, "2lvl-lrr"))
        return g_strsplit("arbiter.policy=fetch_groups_lrr:8", "\n", -1);
    if (!strcmp(sched, "ccws")) {
        *mech = MECH_CCWS;
        return g_strsplit("arbiter.policy=gto", "\n", -1);
    }
    if (!strncmp(sched, "swl:", 4)) {
        char *end;
        guint64 n = g_ascii_strtoull(sched + 4, &end, 10);
        if (sched[4] && !*end && n >= 1 && n <= 128) {
            char *t = g_strdup_printf("arbiter.policy=gto\narbiter.swl=%" G_GUINT64_FORMAT, n);
            char **r = g_strsplit(t, "\n", -1);
            g_free(t);
            return r;
        }
    }
    return NULL;
}

/* Takes --sched X / --sched=X and --gpu out of argv and puts "--set K=V" pairs right after argv[0]
 * (so that a --set on the command line overrides them). */
/* Options that name an output file or a tracing choice: a profiling child run leaves them out. */
static bool is_output_option(const char *a, bool *takes_value)
{
    static const char *const opts[] = {"--vcd",         "--stats-json", "--trace", "--trace-window",
                                       "--wave-format", "--check",      NULL};
    for (unsigned i = 0; opts[i]; i++) {
        size_t n = strlen(opts[i]);
        if (!strncmp(a, opts[i], n) && (a[n] == '=' || !a[n])) {
            *takes_value = !a[n];
            return true;
        }
    }
    *takes_value = false;
    return !strcmp(a, "--no-trace");
}

static char **rewrite_args(int *argc, char **argv, int *mech, bool *gpu, bool *pc_stats, char **sched_out,
                           char **prof_in, char **prof_out, GPtrArray *child)
{
    const char *sched = "ccws";
    GPtrArray *rest = g_ptr_array_new();
    *gpu = false;
    g_ptr_array_add(child, argv[0]);
    for (int i = 1; i < *argc; i++) {
        bool val;
        if (!strcmp(argv[i], "--sched") && i + 1 < *argc)
            sched = argv[++i];
        else if (!strncmp(argv[i], "--sched=", 8))
            sched = argv[i] + 8;
        else if (!strcmp(argv[i], "--gpu"))
            *gpu = true;
        else if (!strcmp(argv[i], "--belady")) {
            *pc_stats = true;
            g_ptr_array_add(rest, "--set");
            g_ptr_array_add(rest, "l1pc.belady=true");
        } else if (!strcmp(argv[i], "--pc-stats"))
            *pc_stats = true;
        else if (!strcmp(argv[i], "--sched"))
            cli_die("--sched needs a value: lrr, gto, oldest, 2lvl, 2lvl-lrr, swl:N, ccws, daws, "
                    "daws-detected or daws-profile");
        else if ((!strcmp(argv[i], "--daws-profile") || !strcmp(argv[i], "--daws-profile-out")) &&
                 i + 1 < *argc)
            *(argv[i][14] ? prof_out : prof_in) = argv[i + 1], i++;
        else if (!strncmp(argv[i], "--daws-profile=", 15))
            *prof_in = argv[i] + 15;
        else if (!strncmp(argv[i], "--daws-profile-out=", 19))
            *prof_out = argv[i] + 19;
        else if (!strcmp(argv[i], "--daws-profile") || !strcmp(argv[i], "--daws-profile-out"))
            cli_die("%s needs a file name", argv[i]);
        else {
            g_ptr_array_add(rest, argv[i]);
            if (is_output_option(argv[i], &val)) {
                i += val && i + 1 < *argc;
                if (val && i < *argc)
                    g_ptr_array_add(rest, argv[i]);
            } else
                g_ptr_array_add(child, argv[i]);
        }
    }
    if (*gpu)
        g_ptr_array_add(child, "--gpu");
    char **sets = sched_sets(sched, mech);
    if (!sets)
        cli_die("unknown scheduler '%s' (--sched lrr, gto, oldest, 2lvl, 2lvl-lrr, swl:N with 1 <= N <= 128, "
                "ccws, daws or "
                "daws-profile)",
                sched);
    if (*prof_in && *mech != MECH_DAWS)
        cli_die("--daws-profile FILE goes with --sched daws");
    if (*prof_out && *mech != MECH_DAWS_PROFILE)
        cli_die("--daws-profile-out FILE goes with --sched daws-profile");
    GPtrArray *out = g_ptr_array_new();
    g_ptr_array_add(out, argv[0]);
    for (unsigned i = 0; sets[i]; i++) {
        g_ptr_array_add(out, "--set");
        g_ptr_array_add(out, sets[i]); /* (kept for the program's life) */
    }
    for (unsigned i = 0; i < rest->len; i++)
        g_ptr_array_add(out, rest->pdata[i]);
    g_ptr_array_free(rest, TRUE);
    *argc = (int)out->len;
    g_ptr_array_add(out, NULL);
    *sched_out = g_strdup(sched);
    return (char **)g_ptr_array_free(out, FALSE);
}

static void bind_vetoes(blk_ctx *ctx, sm_topo *s, blk_inst *to)
{
    gsc_module *mod = sm_topo_module(s);
    for (unsigned k = 0; k < issue_schedulers(sm_topo_issue(s)); k++) {
        char *p = g_strdup_printf("%s.arbiter%u", gsc_module_name(mod), k);
        blk_inst *a = blk_ctx_find(ctx, p);
        g_assert(a != NULL);
        blk_bind(a, "veto", to, "veto");
        g_free(p);
    }
}

/* DAWS in SM s: the block under the SM's module, bound to issue's events, issued and the vetoes and to
 * the L1D's accesses and evictions; Detected-DAWS also gets a victim tag array whose hits it is told
 * (bound to the L1D before the daws block: a miss is probed in the VTA first). */
static void attach_daws(blk_ctx *ctx, sm_topo *s, const daws_loops *loops, ccws_sm *m, bool detected)
{
    blk_inst *is = sm_topo_issue_inst(s), *ld = sm_topo_ldst_inst(s);
    if (detected) {
        m->v = vta_new(ctx, sm_topo_module(s), "vta");
        occupancy_sm o;
        sm_topo_occupancy(s, &o);
        vta_set_warps(m->v, o.max_warps ? o.max_warps : o.max_threads / o.warp_size);
        blk_bind(ld, "l1_evict", m->v->inst, "evict");
        blk_bind(ld, "l1_access", m->v->inst, "access");
    }
    m->d = daws_new(ctx, sm_topo_module(s), "daws");
    if (detected)
        blk_bind(m->v->inst, "hit", m->d->inst, "vta_hit");
    blk_bind(ld, "l1_evict", m->d->inst, "evict");
    blk_bind(ld, "l1_access", m->d->inst, "access");
    blk_bind(is, "warp_events", m->d->inst, "events");
    blk_bind(is, "issued", m->d->inst, "issued");
    bind_vetoes(ctx, s, m->d->inst);
    daws_set_loops(m->d, loops);
    daws_set_l1_lines(m->d, (unsigned)(blk_param_uint(ld, "l1_sets") * blk_param_uint(ld, "l1_ways")));
}

/* The mechanism in SM s: the blocks under the SM's module, bound to its extension points. */
static void attach(blk_ctx *ctx, sm_topo *s, sm_env *env, ccws_sm *m)
{
    gsc_module *mod = sm_topo_module(s);
    m->v = vta_new(ctx, mod, "vta");
    m->c = ccws_new(ctx, mod, "ccws", env);
    occupancy_sm o;
    sm_topo_occupancy(s, &o);
    unsigned warps = o.max_warps ? o.max_warps : o.max_threads / o.warp_size;
    vta_set_warps(m->v, warps);
    if (warps > m->v->warps || warps > CCWS_MAX_WARPS)
        cli_die("the SM holds %u warps: set vta.warps to at least that (ccws handles up to %u)", warps,
                CCWS_MAX_WARPS);
    blk_inst *ld = sm_topo_ldst_inst(s), *is = sm_topo_issue_inst(s);
    blk_bind(ld, "l1_evict", m->v->inst, "evict");
    blk_bind(ld, "l1_access", m->v->inst, "access");
    blk_bind(m->v->inst, "hit", m->c->inst, "vta_hit");
    blk_bind(is, "warp_events", m->c->inst, "events");
    blk_bind(is, "issued", m->c->inst, "issued");
    bind_vetoes(ctx, s, m->c->inst);
}

typedef struct {
    int mech;
    char *sched;
    char *prof_in, *prof_out; /* --daws-profile, --daws-profile-out */
    GPtrArray *child;         /* the profiling run's arguments */
    daws_loops *loops;
    daws_profile *prof;
    daws_slct_entry slct[DAWS_MAX_SLCT];
    unsigned n_slct, n_found;
    ccws_sm *ms; /* one per SM */
    unsigned n_sms;
    bool pc_stats; /* --pc-stats (or --belady): an l1pc block in every SM */
    ir_module *mod;
    l1pc_replay_result *replay; /* --belady: per SM, computed once at the statistics dump */
    cli_run *run; /* (parsed) */
} tb_ccws;

static void parsed(cli_run *run, void *ctx)
{
    ((tb_ccws *)ctx)->run = run;
}

/* The profile (--daws-profile, or a profiling run of this program first), classified into the
 * static load classification table. */
static void load_profile(tb_ccws *t)
{
    char *tmp = NULL, *text = NULL;
    GError *err = NULL;
    const char *path = t->prof_in;
    if (!path) {
        int fd = g_file_open_tmp("gpusc-daws-XXXXXX.prof", &tmp, &err);
        if (fd < 0)
            cli_die("the profiling run: %s", err->message);
        close(fd);
        g_ptr_array_add(t->child, "--sched");
        g_ptr_array_add(t->child, "daws-profile");
        g_ptr_array_add(t->child, "--no-trace");
        g_ptr_array_add(t->child, "--daws-profile-out");
        g_ptr_array_add(t->child, tmp);
        g_ptr_array_add(t->child, NULL);
        char *out = NULL;
        int status = 0;
        if (!g_spawn_sync(NULL, (char **)t->child->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                          &status, &err))
            cli_die("the profiling run: %s", err->message);
        if (!g_spawn_check_wait_status(status, NULL))
            cli_die("the profiling run (--sched daws-profile) failed:\n%s", out ? out : "");
        g_free(out);
        path = tmp;
    }
    if (!hostfile_read(path, HOSTFILE_TEXT, &text, NULL, &err))
        cli_die("--daws-profile: %s", err->message);
    GString *msg = g_string_new(NULL);
    if (!daws_profile_read(t->prof, text, msg))
        cli_die("%s: %s", path, msg->str);
    g_string_free(msg, TRUE);
    g_free(text);
    if (tmp) {
        g_unlink(tmp);
        g_free(tmp);
    }
    t->n_slct = daws_classify(t->loops, t->prof, 0, 500, t->slct, DAWS_MAX_SLCT, &t->n_found);
}

/* ---- the per-load statistics (l1pc) ---- */

static const struct {
    const char *name, *unit, *meaning;
    size_t off;
} pc_fields[] = {
    {"loads", "instructions", "dynamic loads issued", offsetof(l1pc_counts, loads)},
    {"lanes", "threads", "active threads of those loads", offsetof(l1pc_counts, lanes)},
    {"hits", "transactions", "L1D hits", offsetof(l1pc_counts, hits)},
    {"misses", "transactions", "L1D misses", offsetof(l1pc_counts, misses)},
    {"merged", "transactions", "L1D merges into a pending line", offsetof(l1pc_counts, merged)},
    {"intra_warp_hits", "hits", "hits on a line the warp's own miss brought in",
     offsetof(l1pc_counts, intra)},
    {"intra_thread_hits", "hits", "intra-warp hits where a hitting lane touched the line before",
     offsetof(l1pc_counts, intra_thread)},
    {"inter_warp_hits", "hits", "hits on a line another warp's miss brought in",
     offsetof(l1pc_counts, inter)},
    {"vta_hits", "hits", "misses found in the warp's VTA partition (lost locality)",
     offsetof(l1pc_counts, vta_hits)},
    {"score_points", "points", "CCWS score points those VTA hits added", offsetof(l1pc_counts, points)},
    {"this_trip", "transactions", "transactions to a line another load touched in this loop trip",
     offsetof(l1pc_counts, this_trip)},
    {"last_trip", "transactions", "transactions to a line the warp touched in the loop trip before",
     offsetof(l1pc_counts, last_trip)},
};

typedef struct {
    const tb_ccws *t;
    uint32_t func, pc;
    unsigned field;
} pc_stat;

static uint64_t pc_sum(const tb_ccws *t, uint32_t func, uint32_t pc, unsigned field)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < t->n_sms; i++) {
        const l1pc_counts *c = l1pc_get(t->ms[i].p, func, pc);
        if (c)
            v += *(const uint64_t *)(const void *)((const char *)c + pc_fields[field].off);
    }
    return v;
}

static double d_pc(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    const pc_stat *s = data;
    return (double)pc_sum(s->t, s->func, s->pc, s->field);
}

static bool is_l1_load(const ir_instr *in)
{
    return (in->op == IR_OP_LD || in->op == IR_OP_LDU) &&
           (in->space == IR_SPACE_GLOBAL || in->space == IR_SPACE_LOCAL || in->space == IR_SPACE_NONE);
}

static const l1pc_replay_result *replays(tb_ccws *t)
{
    if (!t->replay) {
        t->replay = g_new0(l1pc_replay_result, t->n_sms);
        for (unsigned i = 0; i < t->n_sms; i++)
            t->replay[i] = l1pc_replay(t->ms[i].p, 0, 0);
    }
    return t->replay;
}

static double d_replay(const blk_ctx *ctx, void *data, size_t off)
{
    (void)ctx;
    tb_ccws *t = data;
    const l1pc_replay_result *r = replays(t);
    uint64_t v = 0;
    for (unsigned i = 0; i < t->n_sms; i++)
        v += *(const uint64_t *)(const void *)((const char *)&r[i] + off);
    return (double)v;
}

static double d_replay_n(const blk_ctx *c, void *d)
{
    return d_replay(c, d, offsetof(l1pc_replay_result, accesses));
}

static double d_replay_opt(const blk_ctx *c, void *d)
{
    return d_replay(c, d, offsetof(l1pc_replay_result, opt_misses));
}

static double d_replay_lru(const blk_ctx *c, void *d)
{
    return d_replay(c, d, offsetof(l1pc_replay_result, lru_misses));
}

/* An l1pc block in every SM (after the mechanism's blocks: a VTA hit reaches it after ccws) and the
 * per-load figures (l1pc.FUNC.PC.FIELD, all SMs) for every static load of the module. */
static void attach_l1pc(tb_ccws *t, blk_ctx *ctx, machine *mach)
{
    if (!t->pc_stats)
        return;
    if (!t->loops)
        t->loops = daws_loops_build(t->mod, 128); /* the loop markers: loop-trip reuse */
    for (unsigned i = 0; i < t->n_sms; i++) {
        sm_topo *s = machine_sms(mach)[i];
        ccws_sm *m = &t->ms[i];
        m->p = l1pc_new(ctx, sm_topo_module(s), "l1pc");
        l1pc_set_ldst(m->p, sm_topo_ldst(s));
        l1pc_set_loops(m->p, t->loops);
        blk_bind(sm_topo_ldst_inst(s), "l1_access", m->p->inst, "access");
        blk_bind(sm_topo_issue_inst(s), "issued", m->p->inst, "issued");
        blk_bind(sm_topo_issue_inst(s), "warp_events", m->p->inst, "events");
        if (m->v)
            blk_bind(m->v->inst, "hit", m->p->inst, "vta_hit");
        if (m->c)
            l1pc_set_ccws(m->p, m->c);
    }
    for (unsigned f = 0; f < t->mod->funcs->len; f++) {
        ir_func *fn = g_ptr_array_index(t->mod->funcs, f);
        for (uint32_t pc = 0; fn->is_defined && pc < fn->instrs->len; pc++) {
            if (!is_l1_load(&g_array_index(fn->instrs, ir_instr, pc)))
                continue;
            for (unsigned k = 0; k < G_N_ELEMENTS(pc_fields); k++) {
                pc_stat *ps = g_new(pc_stat, 1); /* (kept for the program's life) */
                *ps = (pc_stat){t, f, pc, k};
                char *name = g_strdup_printf("l1pc.%s.%u.%s", fn->name, pc, pc_fields[k].name);
                blk_ctx_add_derived(ctx, name, pc_fields[k].unit, pc_fields[k].meaning, d_pc, ps);
                g_free(name);
            }
        }
    }
    if (t->n_sms && t->ms[0].p->belady) {
        blk_ctx_add_derived(ctx, "l1pc.replay_accesses", "transactions",
                            "L1D load transactions replayed offline (all SMs)", d_replay_n, t);
        blk_ctx_add_derived(ctx, "l1pc.belady_misses", "misses",
                            "misses of the replay under Belady's optimal replacement", d_replay_opt, t);
        blk_ctx_add_derived(ctx, "l1pc.lru_misses", "misses", "misses of the same replay under LRU",
                            d_replay_lru, t);
    }
}

static void built(machine *mach, tb_kernel *k, void *ctx)
{
    tb_ccws *t = ctx;
    cli_run *run = t->run;
    sm_env *env = tb_kernel_env_of(k);
    unsigned n = machine_n_sms(mach);
    t->n_sms = n;
    t->mod = env->mod;
    t->ms = g_new0(ccws_sm, n);
    if (!t->mech) {
        attach_l1pc(t, run->ctx, mach);
        return;
    }
    if (t->mech == MECH_CCWS) {
        for (unsigned i = 0; i < n; i++)
            attach(run->ctx, machine_sms(mach)[i], env, &t->ms[i]);
        attach_l1pc(t, run->ctx, mach);
        return;
    }
    t->loops = daws_loops_build(env->mod, 128);
    t->prof = daws_profile_new(t->loops);
    if (t->mech == MECH_DAWS)
        load_profile(t);
    for (unsigned i = 0; i < n; i++) {
        ccws_sm *m = &t->ms[i];
        attach_daws(run->ctx, machine_sms(mach)[i], t->loops, m, t->mech == MECH_DAWS_DETECTED);
        if (t->mech == MECH_DAWS_PROFILE)
            daws_set_profile(m->d, t->prof);
        else if (t->mech == MECH_DAWS)
            daws_load_slct(m->d, t->slct, t->n_slct);
    }
    attach_l1pc(t, run->ctx, mach);
}

static void report_daws(const tb_ccws *t, FILE *out, uint64_t strikes, uint64_t thr)
{
    const daws *d = t->ms[0].d;
    if (t->mech == MECH_DAWS_PROFILE) {
        if (t->prof_out) {
            FILE *f = fopen(t->prof_out, "w");
            if (!f)
                cli_die("--daws-profile-out %s: cannot write", t->prof_out);
            daws_profile_write(t->prof, f);
            fclose(f);
        }
        fprintf(out, "daws: profiled %" G_GUINT64_FORMAT " loads (sm0)\n",
                blk_stat_get(d->inst, DAWS_STAT_PROFILED));
        return;
    }
    unsigned loops = 0;
    for (unsigned f = 0; f < t->loops->n_funcs; f++)
        loops += t->loops->f[f].loops->len;
    bool det = t->mech == MECH_DAWS_DETECTED;
    const daws_slct_entry *e = det ? d->slct : t->slct;
    unsigned ne = det ? d->n_slct : t->n_slct;
    fprintf(out, "daws: %u loops, %u static loads classified (of %u found)", loops, ne,
            det ? ne : t->n_found);
    for (unsigned i = 0; i < ne; i++)
        fprintf(out, " %u@%u:%s/%u", e[i].pc_load, e[i].loop_begin, e[i].is_div ? "div" : "conv", e[i].rep);
    fprintf(out, "\n");
    fprintf(out,
            "daws: EffCacheSize %.1f lines, predictions %" G_GUINT64_FORMAT
            ", loads struck %" G_GUINT64_FORMAT ", throttled cycles %" G_GUINT64_FORMAT
            ", peak total %" G_GUINT64_FORMAT "\n",
            daws_eff(d), blk_stat_get(d->inst, DAWS_STAT_PREDICTIONS), strikes, thr,
            blk_stat_get(d->inst, DAWS_STAT_PEAK_TOTAL));
    fprintf(out, "daws: sm0 per warp (warp: peak prediction / loads struck):");
    for (unsigned w = 0; w < DAWS_MAX_WARPS; w++)
        if (daws_peak(d, w) || daws_warp_strikes(d, w))
            fprintf(out, " %u:%u/%" G_GUINT64_FORMAT, w, daws_peak(d, w), daws_warp_strikes(d, w));
    fprintf(out, "\n");
}

/* The per-load table (all SMs) and, with --belady, the replay's misses. */
static void report_pcs(tb_ccws *t, FILE *out, uint64_t insts, uint64_t misses)
{
    double ki = insts ? (double)insts / 1000.0 : 1.0;
    fprintf(out, "l1pc: per load (all SMs; PKI: per 1000 warp instructions):\n");
    for (unsigned f = 0; f < t->mod->funcs->len; f++) {
        ir_func *fn = g_ptr_array_index(t->mod->funcs, f);
        for (uint32_t pc = 0; fn->is_defined && pc < fn->instrs->len; pc++) {
            uint64_t v[G_N_ELEMENTS(pc_fields)];
            for (unsigned k = 0; k < G_N_ELEMENTS(pc_fields); k++)
                v[k] = pc_sum(t, f, pc, k);
            if (!v[0] && !v[2] && !v[3] && !v[4])
                continue;
            double n = v[0] ? (double)v[0] : 1.0;
            fprintf(out,
                    "l1pc: %s %u: loads %" G_GUINT64_FORMAT
                    " lanes/load %.2f lines/load %.2f hits %" G_GUINT64_FORMAT
                    " intra-warp %" G_GUINT64_FORMAT " intra-thread %" G_GUINT64_FORMAT
                    " inter-warp %" G_GUINT64_FORMAT " misses %" G_GUINT64_FORMAT " merged %" G_GUINT64_FORMAT
                    " vta %" G_GUINT64_FORMAT " points %" G_GUINT64_FORMAT
                    " PKI misses %.2f inter %.2f intra %.2f vta %.2f this-trip %" G_GUINT64_FORMAT
                    " last-trip %" G_GUINT64_FORMAT "\n",
                    fn->name, pc, v[0], (double)v[1] / n, (double)(v[2] + v[3] + v[4]) / n, v[2], v[5], v[6],
                    v[7], v[3], v[4], v[8], v[9], (double)v[3] / ki, (double)v[7] / ki, (double)v[5] / ki,
                    (double)v[8] / ki, v[10], v[11]);
        }
    }
    uint64_t tr[3] = {0}, lanes = 0, n_in = 0, bins[L1PC_LANE_BINS] = {0};
    for (unsigned i = 0; i < t->n_sms; i++) {
        const blk_inst *b = t->ms[i].p->inst;
        for (unsigned k = 0; k < 3; k++)
            tr[k] += blk_stat_get(b, L1PC_STAT_TRIP_THIS + k);
        lanes += blk_stat_get(b, L1PC_STAT_ACTIVE_LANES);
        n_in += blk_stat_get(b, L1PC_STAT_INSTS);
        for (unsigned k = 0; k < L1PC_LANE_BINS; k++)
            bins[k] += blk_stat_get(b, L1PC_STAT_LANES_BIN + k);
    }
    uint64_t all = tr[0] + tr[1] + tr[2];
    double da = all ? (double)all : 1.0, dn = n_in ? (double)n_in : 1.0;
    fprintf(out,
            "l1pc: loop-trip reuse of %" G_GUINT64_FORMAT " load transactions: this trip %" G_GUINT64_FORMAT
            " (%.4f), last trip %" G_GUINT64_FORMAT " (%.4f), other %" G_GUINT64_FORMAT " (%.4f)\n",
            all, tr[0], (double)tr[0] / da, tr[1], (double)tr[1] / da, tr[2], (double)tr[2] / da);
    fprintf(out, "l1pc: lane activity of %" G_GUINT64_FORMAT " instructions: %.2f active lanes;", n_in,
            (double)lanes / dn);
    for (unsigned k = 0; k < L1PC_LANE_BINS; k++)
        fprintf(out, " W[%u:%u] %" G_GUINT64_FORMAT, 4 * k, 4 * k + 4, bins[k]);
    fprintf(out, "\n");
    if (!t->ms[0].p->belady)
        return;
    const l1pc_replay_result *r = replays(t);
    uint64_t n = 0, opt = 0, lru = 0;
    for (unsigned i = 0; i < t->n_sms; i++)
        n += r[i].accesses, opt += r[i].opt_misses, lru += r[i].lru_misses;
    double d = n ? (double)n : 1.0;
    fprintf(out,
            "l1pc: offline replay (%u sets x %u ways, loads only): %" G_GUINT64_FORMAT
            " accesses, Belady %" G_GUINT64_FORMAT " misses (%.4f), LRU %" G_GUINT64_FORMAT
            " misses (%.4f); the timing model %" G_GUINT64_FORMAT " misses (%.4f)\n",
            t->ms[0].p->sets, t->ms[0].p->ways, n, opt, (double)opt / d, lru, (double)lru / d, misses,
            (double)misses / d);
}

static void report_mech(machine *mach, const tb_ccws *t, FILE *out);

static void report(machine *mach, int rc, void *ctx)
{
    (void)rc;
    tb_ccws *t = ctx;
    report_mech(mach, t, stdout);
    if (!t->pc_stats)
        return;
    uint64_t insts = 0, misses = 0;
    for (unsigned i = 0; i < t->n_sms; i++) {
        insts += blk_stat_get(sm_topo_issue_inst(machine_sms(mach)[i]), ISSUE_STAT_WARP_INSTRS);
        misses += blk_stat_get(sm_topo_ldst_inst(machine_sms(mach)[i]), LDST_STAT_L1_MISSES);
    }
    report_pcs(t, stdout, insts, misses);
}

static void report_mech(machine *mach, const tb_ccws *t, FILE *out)
{
    const ccws_sm *ms = t->ms;
    unsigned n = machine_n_sms(mach);
    sm_topo **sms = machine_sms(mach);
    uint64_t hits = 0, misses = 0, merged = 0, vh = 0, strikes = 0, thr = 0, intra = 0, inter = 0;
    for (unsigned i = 0; i < n; i++) {
        blk_inst *l = sm_topo_ldst_inst(sms[i]);
        hits += blk_stat_get(l, LDST_STAT_L1_HITS);
        misses += blk_stat_get(l, LDST_STAT_L1_MISSES);
        merged += blk_stat_get(l, LDST_STAT_L1_MERGED);
        if (ms && ms[i].d) {
            vh += ms[i].v ? blk_stat_get(ms[i].v->inst, VTA_STAT_HITS) : 0;
            intra += blk_stat_get(ms[i].d->inst, DAWS_STAT_INTRA_HITS);
            inter += blk_stat_get(ms[i].d->inst, DAWS_STAT_INTER_HITS);
            strikes += blk_stat_get(ms[i].d->inst, DAWS_STAT_STRIKES);
            thr += blk_stat_get(ms[i].d->inst, DAWS_STAT_THROTTLE_CYCLES);
        } else if (ms && ms[i].c) {
            vh += blk_stat_get(ms[i].v->inst, VTA_STAT_HITS);
            strikes += blk_stat_get(ms[i].c->inst, CCWS_STAT_STRIKES);
            thr += blk_stat_get(ms[i].c->inst, CCWS_STAT_THROTTLE_CYCLES);
        }
    }
    uint64_t reads = hits + misses + merged;
    fprintf(out, "ccws: scheduler %s\n", t->sched);
    fprintf(out,
            "ccws: L1D hits %" G_GUINT64_FORMAT ", misses %" G_GUINT64_FORMAT ", merged %" G_GUINT64_FORMAT
            ", hit rate %.4f\n",
            hits, misses, merged, reads ? (double)hits / (double)reads : 0.0);
    if (ms && ms[0].d) {
        fprintf(out, "daws: L1D hits intra-warp %" G_GUINT64_FORMAT ", inter-warp %" G_GUINT64_FORMAT "\n",
                intra, inter);
        if (t->mech == MECH_DAWS_DETECTED)
            fprintf(out, "daws: VTA hits %" G_GUINT64_FORMAT "\n", vh);
        report_daws(t, out, strikes, thr);
        return;
    }
    if (t->mech != MECH_CCWS)
        return;
    fprintf(out,
            "ccws: VTA hits %" G_GUINT64_FORMAT ", loads struck %" G_GUINT64_FORMAT
            ", throttled cycles %" G_GUINT64_FORMAT "\n",
            vh, strikes, thr);
    fprintf(out, "ccws: VTA area %.3f mm2 per SM (vta.area_mm2, not simulated), %.3f mm2 on %u SMs\n",
            vta_area_mm2(ms[0].v, 1), vta_area_mm2(ms[0].v, n), n);
    fprintf(out, "ccws: sm0 per warp (warp: peak score / VTA hits / loads struck):");
    for (unsigned w = 0; w < ms[0].v->warps && w < CCWS_MAX_WARPS; w++) {
        uint32_t pk = ccws_peak(ms[0].c, w);
        if (pk)
            fprintf(out, " %u:%u/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, w, pk, vta_warp_hits(ms[0].v, w),
                    ccws_warp_strikes(ms[0].c, w));
    }
    fprintf(out, "\n");
}

int tb_ccws_main(int argc, char **argv)
{
    tb_ccws t = {0};
    bool gpu;
    t.child = g_ptr_array_new();
    char **args =
        rewrite_args(&argc, argv, &t.mech, &gpu, &t.pc_stats, &t.sched, &t.prof_in, &t.prof_out, t.child);
    fetch_groups_register();
    blk_registry_add(&vta_desc);
    blk_registry_add(&ccws_desc);
    blk_registry_add(&daws_desc);
    blk_registry_mark_built(&daws_desc);
    blk_registry_mark_built(&vta_desc);
    blk_registry_mark_built(&ccws_desc);
    blk_registry_add(&l1pc_desc);
    blk_registry_mark_built(&l1pc_desc);
    const tb_ext ext = {.program = "tb-ccws",
                        .summary = "Cache-conscious warp scheduling testbench: --sched "
                                   "lrr|gto|oldest|2lvl|2lvl-lrr|swl:N|ccws|daws|daws-detected|daws-profile "
                                   "(default ccws), --gpu for the whole GPU, --daws-profile FILE, "
                                   "--daws-profile-out FILE, --pc-stats (per-load L1D statistics), --belady",
                        .default_preset = "ccws",
                        .parsed = parsed,
                        .built = built,
                        .finished = report,
                        .ctx = &t};
    return tb_main_ext(gpu ? MACHINE_GPU : MACHINE_SM, argc, args, &ext);
}
