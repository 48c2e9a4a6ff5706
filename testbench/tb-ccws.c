/* tb-ccws — the cache-conscious warp scheduling testbench (docs/ccws.md): one SM (or, with --gpu,
 * the GPU) of the ccws preset running a workload under a chosen warp scheduler, its output checked.
 *
 *   --sched lrr | gto | oldest | 2lvl | swl:N | ccws   (default ccws)
 *
 * lrr, gto, oldest: the arbiter's policy; 2lvl: fetch_groups:2 (2LVL-GTO: fetch groups of 2 warps,
 * GTO inside and across; models/ccws/fetch_groups.h); swl:N: GTO with static warp limiting (arbiter.swl = N);
 * ccws: GTO with, in every SM, a `vta` block (victim tag array) bound to ldst.l1_evict / ldst.l1_access and a
 * `ccws` block (lost-locality scoring) bound to vta.hit, issue.warp_events, issue.issued and every arbiter's
 * veto. Prints what tb-sm prints, then the L1D and CCWS figures: L1D hits / misses, VTA hits, loads struck,
 * throttled cycles and each warp's peak score, VTA hits and strikes (SM 0). */
#include <stdio.h>
#include <string.h>

#include "models/ccws/ccws.h"
#include "models/ccws/fetch_groups.h"
#include "models/ccws/vta.h"
#include "testbench/tb_common.h"

typedef struct {
    vta *v;
    ccws *c;
} ccws_sm;

/* --sched's value turned into --set assignments; NULL for a bad value. */
static char **sched_sets(const char *sched, bool *mech)
{
    *mech = false;
    if (!strcmp(sched, "lrr") || !strcmp(sched, "gto") || !strcmp(sched, "oldest"))
        return g_strsplit(g_strdup_printf("arbiter.policy=%s", sched), "\n", -1);
    if (!strcmp(sched, "2lvl"))
        return g_strsplit("arbiter.policy=fetch_groups:2", "\n", -1);
    if (!strcmp(sched, "ccws")) {
        *mech = true;
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
static char **rewrite_args(int *argc, char **argv, bool *mech, bool *gpu, char **sched_out)
{
    const char *sched = "ccws";
    GPtrArray *rest = g_ptr_array_new();
    *gpu = false;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--sched") && i + 1 < *argc)
            sched = argv[++i];
        else if (!strncmp(argv[i], "--sched=", 8))
            sched = argv[i] + 8;
        else if (!strcmp(argv[i], "--gpu"))
            *gpu = true;
        else if (!strcmp(argv[i], "--sched"))
            cli_die("--sched needs a value: lrr, gto, oldest, 2lvl, swl:N or ccws");
        else
            g_ptr_array_add(rest, argv[i]);
    }
    char **sets = sched_sets(sched, mech);
    if (!sets)
        cli_die("unknown scheduler '%s' (--sched lrr, gto, oldest, 2lvl, swl:N with 1 <= N <= 128, or ccws)",
                sched);
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

/* The mechanism in SM s: the blocks under the SM's module, bound to its extension points. */
static void attach(blk_ctx *ctx, sm_topo *s, sm_env *env, ccws_sm *m)
{
    gsc_module *mod = sm_topo_module(s);
    m->v = vta_new(ctx, mod, "vta");
    m->c = ccws_new(ctx, mod, "ccws", env);
    occupancy_sm o;
    sm_topo_occupancy(s, &o);
    unsigned warps = o.max_warps ? o.max_warps : o.max_threads / o.warp_size;
    if (warps > m->v->warps || warps > CCWS_MAX_WARPS)
        cli_die("the SM holds %u warps: set vta.warps to at least that (ccws handles up to %u)", warps,
                CCWS_MAX_WARPS);
    blk_inst *ld = sm_topo_ldst_inst(s), *is = sm_topo_issue_inst(s);
    blk_bind(ld, "l1_evict", m->v->inst, "evict");
    blk_bind(ld, "l1_access", m->v->inst, "access");
    blk_bind(m->v->inst, "hit", m->c->inst, "vta_hit");
    blk_bind(is, "warp_events", m->c->inst, "events");
    blk_bind(is, "issued", m->c->inst, "issued");
    for (unsigned k = 0; k < issue_schedulers(sm_topo_issue(s)); k++) {
        char *p = g_strdup_printf("%s.arbiter%u", gsc_module_name(mod), k);
        blk_inst *a = blk_ctx_find(ctx, p);
        g_assert(a != NULL);
        blk_bind(a, "veto", m->c->inst, "veto");
        g_free(p);
    }
}

typedef struct {
    bool mech;
    char *sched;
    ccws_sm *ms;  /* one per SM when mech */
    cli_run *run; /* (parsed) */
} tb_ccws;

static void parsed(cli_run *run, void *ctx)
{
    ((tb_ccws *)ctx)->run = run;
}

static void built(machine *mach, tb_kernel *k, void *ctx)
{
    tb_ccws *t = ctx;
    cli_run *run = t->run;
    sm_env *env = tb_kernel_env_of(k);
    if (!t->mech)
        return;
    unsigned n = machine_n_sms(mach);
    t->ms = g_new0(ccws_sm, n);
    for (unsigned i = 0; i < n; i++)
        attach(run->ctx, machine_sms(mach)[i], env, &t->ms[i]);
}

static void report(machine *mach, int rc, void *ctx)
{
    (void)rc;
    FILE *out = stdout;
    const tb_ccws *t = ctx;
    const ccws_sm *ms = t->ms;
    unsigned n = machine_n_sms(mach);
    sm_topo **sms = machine_sms(mach);
    uint64_t hits = 0, misses = 0, merged = 0, vh = 0, strikes = 0, thr = 0;
    for (unsigned i = 0; i < n; i++) {
        blk_inst *l = sm_topo_ldst_inst(sms[i]);
        hits += blk_stat_get(l, LDST_STAT_L1_HITS);
        misses += blk_stat_get(l, LDST_STAT_L1_MISSES);
        merged += blk_stat_get(l, LDST_STAT_L1_MERGED);
        if (ms) {
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
    if (!ms)
        return;
    fprintf(out,
            "ccws: VTA hits %" G_GUINT64_FORMAT ", loads struck %" G_GUINT64_FORMAT
            ", throttled cycles %" G_GUINT64_FORMAT "\n",
            vh, strikes, thr);
    fprintf(out, "ccws: sm0 per warp (warp: peak score / VTA hits / loads struck):");
    for (unsigned w = 0; w < ms[0].v->warps && w < CCWS_MAX_WARPS; w++) {
        uint32_t pk = ccws_peak(ms[0].c, w);
        if (pk)
            fprintf(out, " %u:%u/%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, w, pk, vta_warp_hits(ms[0].v, w),
                    ccws_warp_strikes(ms[0].c, w));
    }
    fprintf(out, "\n");
}

int main(int argc, char **argv)
{
    tb_ccws t = {0};
    bool gpu;
    char **args = rewrite_args(&argc, argv, &t.mech, &gpu, &t.sched);
    fetch_groups_register();
    blk_registry_add(&vta_desc);
    blk_registry_add(&ccws_desc);
    blk_registry_mark_built(&vta_desc);
    blk_registry_mark_built(&ccws_desc);
    const tb_ext ext = {.program = "tb-ccws",
                        .summary = "Cache-conscious warp scheduling testbench: --sched lrr|gto|oldest|2lvl|swl:N|ccws "
                                   "(default ccws), --gpu for the whole GPU",
                        .default_preset = "ccws",
                        .parsed = parsed,
                        .built = built,
                        .finished = report,
                        .ctx = &t};
    return tb_main_ext(gpu ? MACHINE_GPU : MACHINE_SM, argc, args, &ext);
}
