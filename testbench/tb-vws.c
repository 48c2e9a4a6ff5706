/* tb-vws — the variable warp sizing testbench (docs/vws.md): the vws preset's single SM (1024 threads)
 * running a workload at a chosen warp width, optionally with the warp ganging unit, its output
 * checked.
 *
 *   --warp-size 32|16|8|4   sm.warp_size, and 32 / W issue schedulers (one per slice of W lanes), so
 *                           every width can issue 32 thread-instructions per cycle (default 32)
 *   --vws off|i-vws|e-vws|i-vws-impatient|e-vws-impatient|i-vws-group
 *                           the ganging unit (4- or 8-thread warps): a `gang_unit` block bound to the
 *                           SM's issue block (check, issued, warp_events); reform and mem_split
 *                           follow the name (default off); e-vws-sync10|50|100: e-vws, and a warp
 *                           at a reconvergence sync point (kernels/passes/vws_sync.h) waits up to
 *                           10, 50 or 100 cycles there to re-gang; i-vws-lgto|lpc|lrr|gto: i-vws
 *                           with another gang issue scheduler (gang_unit.sched); gang-only,
 *                           e-vws-gang-only: no independent scheduling by the slices (gang_unit.mode);
 *                           slice-only: the unit forms no gangs
 *   --area                  also print the area VWS adds to the SM at this width (models/vws/area.h:
 *                           32 / W slices; Table 6.2 of the VWS source)
 *
 * Prints what tb-sm prints, then "vws: ..." lines: the warp size, IPC, thread instructions per
 * cycle, and with the unit the gang statistics (gang issues, splits by cause, reformations, slips,
 * the average gang size over time). */
#include <stdio.h>
#include <string.h>

#include "models/sm/fetch.h"
#include "models/sm/ldst.h"
#include "models/vws/area.h"
#include "models/vws/gang_unit.h"
#include "testbench/tb_common.h"

typedef struct {
    unsigned ws;
    const char *vws;
    bool area;
    gang_unit *u;   /* SM 0's, when on */
    vws_sync *sync; /* the kernel's sync points (e-vws-sync<XX>) */
} tb_vws;

static const char *const policies[][6] = {
    /* name, reform, mem_split, sync (E-VWS-Sync<XX>: cycles a warp waits at a sync point), the gang
     * scheduler, the mode */
    {"i-vws", "none", "none", "0", "bgto", "mixed"},
    {"e-vws", "opportunistic", "none", "0", "bgto", "mixed"},
    {"i-vws-impatient", "none", "impatient", "0", "bgto", "mixed"},
    {"e-vws-impatient", "opportunistic", "impatient", "0", "bgto", "mixed"},
    {"i-vws-group", "none", "group", "0", "bgto", "mixed"},
    {"e-vws-sync10", "opportunistic", "none", "10", "bgto", "mixed"},
    {"e-vws-sync50", "opportunistic", "none", "50", "bgto", "mixed"},
    {"e-vws-sync100", "opportunistic", "none", "100", "bgto", "mixed"},
    {"i-vws-lgto", "none", "none", "0", "lgto", "mixed"},
    {"i-vws-lpc", "none", "none", "0", "lpc", "mixed"},
    {"i-vws-lrr", "none", "none", "0", "lrr", "mixed"},
    {"i-vws-gto", "none", "none", "0", "gto", "mixed"},
    {"gang-only", "none", "none", "0", "bgto", "gang_only"},
    {"e-vws-gang-only", "opportunistic", "none", "0", "bgto", "gang_only"},
    {"slice-only", "none", "none", "0", "bgto", "slice_only"},
};

/* Takes --warp-size and --vws out of argv and puts "--set K=V" pairs right after argv[0] (so that a
 * --set on the command line overrides them). */
static char **rewrite_args(int *argc, char **argv, tb_vws *t)
{
    const char *ws = "32";
    t->vws = "off";
    GPtrArray *rest = g_ptr_array_new();
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--warp-size") && i + 1 < *argc)
            ws = argv[++i];
        else if (!strncmp(argv[i], "--warp-size=", 12))
            ws = argv[i] + 12;
        else if (!strcmp(argv[i], "--vws") && i + 1 < *argc)
            t->vws = argv[++i];
        else if (!strncmp(argv[i], "--vws=", 6))
            t->vws = argv[i] + 6;
        else if (!strcmp(argv[i], "--area"))
            t->area = true;
        else if (!strcmp(argv[i], "--warp-size") || !strcmp(argv[i], "--vws"))
            cli_die("%s needs a value", argv[i]);
        else
            g_ptr_array_add(rest, argv[i]);
    }
    if (strcmp(ws, "32") && strcmp(ws, "16") && strcmp(ws, "8") && strcmp(ws, "4"))
        cli_die("--warp-size %s: 32, 16, 8 or 4", ws);
    t->ws = (unsigned)atoi(ws);
    int pol = -1;
    for (unsigned i = 0; i < G_N_ELEMENTS(policies); i++)
        if (!strcmp(t->vws, policies[i][0]))
            pol = (int)i;
    if (pol < 0 && strcmp(t->vws, "off"))
        cli_die("--vws %s: off, i-vws, e-vws, i-vws-impatient, e-vws-impatient, i-vws-group, e-vws-sync10, "
                "e-vws-sync50, e-vws-sync100, i-vws-lgto, i-vws-lpc, i-vws-lrr, i-vws-gto, gang-only, "
                "e-vws-gang-only or slice-only",
                t->vws);
    if (pol >= 0 && t->ws != 4 && t->ws != 8)
        cli_die("--vws %s gangs 4- or 8-thread warps: add --warp-size 4 or --warp-size 8", t->vws);
    GPtrArray *out = g_ptr_array_new();
    g_ptr_array_add(out, argv[0]);
    /* the units' input FIFOs hold one instruction of every scheduler of two cycles */
    /* (and the decoded FIFO every slice's fetch and the gang fetch of a cycle: 2 fetch widths each) */
    char *sets[10] = {g_strdup_printf("sm.warp_size=%u", t->ws),
                      g_strdup_printf("issue.schedulers=%u", 32 / t->ws),
                      g_strdup_printf("opcoll.in_depth=%u", MAX(4u, 2 * 32 / t->ws)),
                      g_strdup_printf("ldst.in_depth=%u", MAX(4u, 2 * 32 / t->ws)),
                      g_strdup_printf("issue.decoded_depth=%u", MAX(4u, 8 * 32 / t->ws)),
                      pol >= 0 ? g_strdup_printf("gang_unit.reform=%s", policies[pol][1]) : NULL,
                      pol >= 0 ? g_strdup_printf("gang_unit.mem_split=%s", policies[pol][2]) : NULL,
                      pol >= 0 ? g_strdup_printf("gang_unit.sync=%s", policies[pol][3]) : NULL,
                      pol >= 0 ? g_strdup_printf("gang_unit.sched=%s", policies[pol][4]) : NULL,
                      pol >= 0 ? g_strdup_printf("gang_unit.mode=%s", policies[pol][5]) : NULL};
    for (unsigned i = 0; i < G_N_ELEMENTS(sets); i++)
        if (sets[i]) {
            g_ptr_array_add(out, "--set");
            g_ptr_array_add(out, sets[i]); /* (kept for the program's life) */
        }
    for (unsigned i = 0; i < rest->len; i++)
        g_ptr_array_add(out, rest->pdata[i]);
    g_ptr_array_free(rest, TRUE);
    *argc = (int)out->len;
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

typedef struct {
    tb_vws *t;
    cli_run *run;
} tb_ctx;

static void parsed(cli_run *run, void *ctx)
{
    ((tb_ctx *)ctx)->run = run;
}

static void built(machine *mach, tb_kernel *k, void *ctx)
{
    tb_ctx *c = ctx;
    if (!strcmp(c->t->vws, "off"))
        return;
    sm_topo *s = machine_sms(mach)[0];
    issue *is = sm_topo_issue(s);
    if (issue_schedulers(is) != 32 / c->t->ws)
        cli_die("the ganging unit needs one scheduler per slice: issue.schedulers = %u (it is %u)",
                32 / c->t->ws, issue_schedulers(is));
    c->t->u = gang_unit_new(c->run->ctx, sm_topo_module(s), "gang_unit", tb_kernel_env_of(k), is);
    gang_unit_attach(c->t->u, sm_topo_issue_inst(s));
    if (sm_topo_parts(s) > 1) /* lane slices: the gang fetch serves the gangs */
        gang_unit_attach_fetch(c->t->u, sm_topo_fetch(s)->inst);
    if (c->t->u->sync) { /* E-VWS-Sync<XX>: the sync insertion pass over the kernel's module */
        c->t->sync = vws_sync_build(tb_kernel_env_of(k)->mod);
        gang_unit_set_sync(c->t->u, c->t->sync);
    }
}

/* The area VWS adds to an SM of 32 / ws slices. */
static void print_area(unsigned ws)
{
    vws_area_params p = vws_area_default(32 / ws);
    vws_area a = vws_area_compute(&p);
    printf("vws: area added to the SM with %u slices of %u lanes (40 nm, Table 6.2 of the VWS source):\n",
           p.slices, ws);
    for (unsigned i = 0; i < VWS_AREA_N; i++)
        printf("vws: area   %-24s %.4f mm² each, %.4f mm² in the SM\n", vws_area_names[i], a.component_mm2[i],
               a.sm_add_mm2[i]);
    printf(
        "vws: area total %.3f mm² (%.1f %% of a %.0f mm² SM); GPU of %u SMs %.1f mm² (%.1f %% of %.0f mm²)\n",
        a.sm_total_mm2, a.sm_pct, p.sm_mm2, p.gpu_sms, a.gpu_total_mm2, a.gpu_pct, p.gpu_mm2);
}

static void report(machine *mach, int rc, void *ctx)
{
    (void)rc;
    const tb_vws *t = ((tb_ctx *)ctx)->t;
    if (t->area)
        print_area(t->ws);
    blk_inst *ii = sm_topo_issue_inst(machine_sms(mach)[0]);
    uint64_t cycles = gsc_cycle();
    uint64_t wi = blk_stat_get(ii, ISSUE_STAT_WARP_INSTRS), ti = blk_stat_get(ii, ISSUE_STAT_THREAD_INSTRS);
    printf("vws: warp size %u, %s, IPC %.4f warp instructions/cycle, %.3f thread instructions/cycle\n", t->ws,
           t->vws, cycles ? (double)wi / (double)cycles : 0.0, cycles ? (double)ti / (double)cycles : 0.0);
    sm_topo *s0 = machine_sms(mach)[0];
    blk_inst *fi = sm_topo_fetch(s0)->inst;
    printf("vws: %u lane slice(s); fetch: %" G_GUINT64_FORMAT " instructions fetched, %" G_GUINT64_FORMAT
           " I-cache accesses (%" G_GUINT64_FORMAT " misses), %" G_GUINT64_FORMAT
           " gang fetches filling %" G_GUINT64_FORMAT " instructions, L0 %" G_GUINT64_FORMAT
           " hits / %" G_GUINT64_FORMAT " misses, %" G_GUINT64_FORMAT " port stalls; ldst: %" G_GUINT64_FORMAT
           " accesses, %" G_GUINT64_FORMAT " instructions merged across slices\n",
           sm_topo_parts(s0), blk_stat_get(fi, FETCH_STAT_FETCHED),
           blk_stat_get(fi, FETCH_STAT_ICACHE_HITS) + blk_stat_get(fi, FETCH_STAT_ICACHE_MISSES),
           blk_stat_get(fi, FETCH_STAT_ICACHE_MISSES), blk_stat_get(fi, FETCH_STAT_GANG_FETCHES),
           blk_stat_get(fi, FETCH_STAT_GANG_FILLS), blk_stat_get(fi, FETCH_STAT_L0_HITS),
           blk_stat_get(fi, FETCH_STAT_L0_MISSES), blk_stat_get(fi, FETCH_STAT_PORT_STALLS),
           blk_stat_get(sm_topo_ldst_inst(s0), LDST_STAT_INSTRS),
           blk_stat_get(sm_topo_ldst_inst(s0), LDST_STAT_SLICE_MERGED));
    if (!t->u)
        return;
    blk_inst *g = t->u->inst;
    printf("vws: gang issues %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
           " warp instructions), independent %" G_GUINT64_FORMAT "\n",
           blk_stat_get(g, GANG_STAT_GANG_ISSUES), blk_stat_get(g, GANG_STAT_GANG_WARP_ISSUES),
           blk_stat_get(g, GANG_STAT_INDEP_ISSUES));
    printf("vws: gangs formed %" G_GUINT64_FORMAT ", control splits %" G_GUINT64_FORMAT
           ", memory splits %" G_GUINT64_FORMAT ", reformations %" G_GUINT64_FORMAT
           ", warps made independent %" G_GUINT64_FORMAT ", slips %" G_GUINT64_FORMAT
           ", pc mismatches %" G_GUINT64_FORMAT "\n",
           blk_stat_get(g, GANG_STAT_FORMED), blk_stat_get(g, GANG_STAT_CF_SPLITS),
           blk_stat_get(g, GANG_STAT_MEM_SPLITS), blk_stat_get(g, GANG_STAT_REFORMS),
           blk_stat_get(g, GANG_STAT_TO_INDEP), blk_stat_get(g, GANG_STAT_SLIPS),
           blk_stat_get(g, GANG_STAT_PC_MISMATCH));
    if (t->sync)
        printf("vws: sync points %u, warp-cycles held at them %" G_GUINT64_FORMAT "\n", t->sync->n_points,
               blk_stat_get(g, GANG_STAT_SYNC_WAITS));
    printf("vws: gang-cycles by size 2..8:");
    for (unsigned s = 0; s < 7; s++)
        printf(" %" G_GUINT64_FORMAT, blk_stat_get(g, GANG_STAT_SIZE2 + s));
    printf(", independent warp-cycles %" G_GUINT64_FORMAT "\n", blk_stat_get(g, GANG_STAT_INDEP_CYCLES));
}

int tb_vws_main(int argc, char **argv)
{
    tb_vws t = {0};
    char **args = rewrite_args(&argc, argv, &t);
    blk_registry_add(&gang_unit_desc);
    blk_registry_mark_built(&gang_unit_desc);
    tb_ctx c = {.t = &t};
    const tb_ext ext = {
        .program = "tb-vws",
        .summary = "Variable warp sizing testbench: --warp-size 32|16|8|4, --vws off|i-vws|e-vws|"
                   "i-vws-impatient|e-vws-impatient|i-vws-group|e-vws-sync10|50|100|i-vws-lgto|lpc|lrr|gto|"
                   "gang-only|e-vws-gang-only|slice-only (4- or 8-thread warps)",
        .default_preset = "vws",
        .parsed = parsed,
        .built = built,
        .finished = report,
        .ctx = &c};
    int rc = tb_main_ext(MACHINE_SM, argc, args, &ext);
    vws_sync_free(t.sync);
    return rc;
}
