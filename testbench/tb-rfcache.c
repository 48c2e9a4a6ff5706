/* tb-rfcache — the register-file cache in the operand collectors (Malekeh; docs/rfcache.md) on the
 * `subcore` machine, preset malekeh by default: runs a workload (its output checked against the CPU
 * reference) under the collector design --collector (ocu, ocu_random: the spec's plain OCU, ccu:
 * Malekeh, ccu_lru: the LRU-cached ablation), with reuse hints from the profile pass (a functional
 * pre-run of the workload over the register-allocated code: the first --profile-warps warps of each
 * launch, majority per operand; --hints near|far: a constant instead), prints the statistics, then a
 * summary: CT hit ratio, bank reads and writes, crossbar transfers, flushes, stalls by cause, the STHLD
 * trace, IPC, register-file energy, the added storage; writes waveforms/tb-rfcache.vcd and .gtkw.
 * Exit: 0 pass, 1 mismatch or run-time error, 2 bad input. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kernels/passes/reuse_profile.h"
#include "models/core/energy.h"
#include "models/sm/ccu.h"
#include "models/sm/opcoll.h"
#include "models/sm/regfile.h"
#include "models/sm/reuse_trace.h"
#include "testbench/tb_common.h"

typedef struct {
    cli_run *run;
    char *collector, *hints, *sthld_mode;
    gint64 sthld, rthld, profile_warps, carveout;
    gboolean print_hints, monolithic;
    rp_profile *prof, *oracle;
    rp_trace *trace; /* the profile pass's input: the functional run's instruction trace */
    sm_topo **sms;
    unsigned n_sms;
} rfc_tb;

static void add_derived(rfc_tb *t, machine *mach);

static const char *const types[] = {"ocu", "ocu_random", "ccu", "ccu_lru", "ccu_pr",
                                    "bow", "rfc_2lev",   "rfc", "sw_rfc",  NULL};

static void die(const char *msg)
{
    fprintf(stderr, "gpusc: %s\n", msg);
    exit(TB_EXIT_USAGE);
}

static void options(cli_run *run, void *ctx)
{
    rfc_tb *t = ctx;
    t->run = run;
    GOptionEntry e[] = {
        {"collector", 0, 0, G_OPTION_ARG_STRING, &t->collector,
         "Collector design: ocu, ocu_random (the spec's plain OCU), ccu (Malekeh), ccu_lru, ccu_pr, bow, "
         "rfc_2lev, rfc, sw_rfc (default: the preset's [opcoll] collector)",
         "TYPE"},
        {"hints", 0, 0, G_OPTION_ARG_STRING, &t->hints,
         "Reuse hints: profile (the profile pass, the default), oracle (each dynamic instance's exact "
         "bit from the same functional run, every warp; the profile where the timing run's stream differs), "
         "near or far (every operand)",
         "MODE"},
        {"rthld", 0, 0, G_OPTION_ARG_INT64, &t->rthld, "Near/far threshold of the profile pass (default 12)",
         "N"},
        {"profile-warps", 0, 0, G_OPTION_ARG_INT64, &t->profile_warps,
         "Warps profiled per kernel launch (default 1: about 0.01% of the warps, at least 1)", "N"},
        {"sthld", 0, 0, G_OPTION_ARG_INT64, &t->sthld, "STHLD (fixed mode; the start in dynamic mode)", "N"},
        {"sthld-mode", 0, 0, G_OPTION_ARG_STRING, &t->sthld_mode, "fixed or dynamic", "MODE"},
        {"print-hints", 0, 0, G_OPTION_ARG_NONE, &t->print_hints, "Print the profile's hints per instruction",
         NULL},
        {"monolithic", 0, 0, G_OPTION_ARG_NONE, &t->monolithic,
         "One partition with one scheduler for all 32 warps (the RFC spec's monolithic SM, Tesla-like): the "
         "4 sub-cores' banks, collectors and pipes pooled (8 banks, 8 collectors, 4 pipes of each unit; 32 "
         "private collectors for ccu_pr and bow), 8 active warps for the two-level scheduler",
         NULL},
        {"carveout", 0, 0, G_OPTION_ARG_INT64, &t->carveout,
         "Shared memory in KB of the SM's 64 KB of L1 and shared memory, the rest the L1 (4 ways of 128 B): "
         "0, 32 (the preset's), 48 or 56",
         "KB"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *g = g_option_group_new("rfcache", "Register-file cache options",
                                         "Show the register-file cache options", NULL, NULL);
    g_option_group_add_entries(g, e);
    cli_add_group(run, g);
}

static void set(cli_run *run, const char *fmt, const char *v)
{
    char *a = g_strdup_printf(fmt, v);
    GError *err = NULL;
    if (!cfg_set_from(run->config, a, "tb-rfcache", &err))
        die(err->message);
    g_free(a);
}

static void parsed(cli_run *run, void *ctx)
{
    rfc_tb *t = ctx;
    if (t->collector && !g_strv_contains(types, t->collector))
        die("--collector: ocu, ocu_random, ccu, ccu_lru, ccu_pr, bow, rfc_2lev, rfc or sw_rfc");
    static const char *const modes[] = {"profile", "oracle", "near", "far", NULL};
    if (t->hints && !g_strv_contains(modes, t->hints))
        die("--hints: profile, oracle, near or far");
    if (t->sthld_mode && strcmp(t->sthld_mode, "fixed") && strcmp(t->sthld_mode, "dynamic"))
        die("--sthld-mode: fixed or dynamic");
    if (t->sthld < 0 || t->sthld > 1000)
        die("--sthld: 0 to 1000");
    if (t->rthld < 0 || t->rthld > 1000000 || t->profile_warps < 1 || t->profile_warps > 4096)
        die("--rthld 0 to 1000000, --profile-warps 1 to 4096");
    if (t->carveout >= 0) { /* the L1/shared split of the 64 KB (Turing's unified L1) */
        if (t->carveout != 0 && t->carveout != 32 && t->carveout != 48 && t->carveout != 56)
            die("--carveout: 0, 32, 48 or 56 (KB of shared memory of 64 KB)");
        char v[32];
        g_snprintf(v, sizeof v, "%" G_GINT64_FORMAT, t->carveout * 1024);
        set(run, "subcore_sm.smem_bytes=%s", v);
        g_snprintf(v, sizeof v, "%" G_GINT64_FORMAT, (64 - t->carveout) * 1024 / (4 * 128));
        set(run, "ldst.l1_sets=%s", v);
        set(run, "ldst.l1_ways=%s", "4");
    }
    if (t->collector)
        set(run, "opcoll.collector=%s", t->collector);
    bool private_ccus = t->collector && (!strcmp(t->collector, "ccu_pr") || !strcmp(t->collector, "bow"));
    if (private_ccus) /* one per warp of the preset's sub-core (of the SM: --monolithic) */
        set(run, "opcoll.collectors_sp=%s", t->monolithic ? "32" : "8");
    if (t->monolithic) { /* the preset's 4 sub-cores as one partition under one scheduler */
        static const char *const mono[] = {"subcore_sm.partitions=1", "issue.schedulers=1",
                                           "regfile.banks=8",         "units.sp_units=4",
                                           "units.sfu_units=4",       "units.int_units=4",
                                           "units.dp_units=4",        "units.wb_ports=8",
                                           "ccu.active_warps=8",      NULL};
        for (unsigned i = 0; mono[i]; i++)
            set(run, "%s", mono[i]);
        if (!private_ccus)
            set(run, "opcoll.collectors_sp=%s", "8");
    }
    if (t->hints && strcmp(t->hints, "profile") && strcmp(t->hints, "oracle"))
        set(run, "ccu.hints=%s", t->hints);
    if (t->sthld) {
        char v[32];
        g_snprintf(v, sizeof v, "%" G_GINT64_FORMAT, t->sthld);
        set(run, "ccu.sthld=%s", v);
    }
    if (t->sthld_mode)
        set(run, "ccu.sthld_mode=%s", t->sthld_mode);
}

/* The collector type of SM 0 (its partition 0's opcoll: opcoll0, or opcoll on one partition). */
static unsigned collector_type(const rfc_tb *t)
{
    blk_inst *oc = blk_ctx_find(t->run->ctx, "tb.sm0.opcoll0");
    return blk_param_enum(oc ? oc : blk_ctx_find(t->run->ctx, "tb.sm0.opcoll"), "collector");
}

static void built(machine *mach, tb_kernel *k, void *ctx)
{
    rfc_tb *t = ctx;
    sm_topo **sms = machine_sms(mach);
    add_derived(t, mach);
    bool oracle = t->hints && !strcmp(t->hints, "oracle");
    unsigned type = collector_type(t);
    if (!sm_topo_ccu(sms[0], 0) || (t->hints && strcmp(t->hints, "profile") && !oracle) || type < 2 ||
        type == 6 || type == 7)
        return; /* no CT (ocu, ocu_random, rfc_2lev), no hints used (rfc), or constant hints */
    if (blk_param_enum(ccu_inst(sm_topo_ccu(sms[0], 0)), "hints") != 0 && !t->hints)
        return; /* hints set by the configuration */
    sm_env *env = tb_kernel_env_of(k);
    t->prof = rp_new((unsigned)t->rthld);
    if (oracle)
        t->oracle = rp_new((unsigned)t->rthld);
    t->trace = rp_trace_new(env->mod, env->k, t->prof, (unsigned)t->profile_warps, t->oracle);
    FILE *tr = rp_trace_file(t->trace);
    GString *err = g_string_new(NULL);
    int rc = tb_kernel_run_functional(k, tr, err);
    fclose(tr);
    if (rc != 0) {
        fprintf(stderr, "gpusc: the profile pass's functional run: %s\n", err->str);
        exit(TB_EXIT_RUN);
    }
    g_string_free(err, TRUE);
    rp_finish(t->prof);
    if (oracle)
        rp_finish(t->oracle);
    uint64_t near, far;
    rp_votes(t->prof, &near, &far);
    printf("reuse profile: %u static instructions, %" G_GUINT64_FORMAT " near and %" G_GUINT64_FORMAT
           " far dynamic operands (RTHLD %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT " warp(s) per launch)\n",
           rp_static_count(t->prof), near, far, t->rthld, t->profile_warps);
    if (t->print_hints)
        rp_print(t->prof, stdout, rp_trace_func_name, t->trace);
    for (unsigned s = 0; s < machine_n_sms(mach); s++)
        for (unsigned p = 0; sm_topo_ccu(sms[s], p); p++) {
            ccu_set_profile(sm_topo_ccu(sms[s], p), t->prof);
            if (oracle)
                ccu_set_oracle(sm_topo_ccu(sms[s], p), t->trace, t->oracle);
        }
}

/* ---- the summary ------------------------------------------------------------------------------------- */
static uint64_t stat(const blk_inst *inst, const char *name)
{
    for (unsigned i = 0; i < inst->desc->n_stats; i++)
        if (!strcmp(inst->desc->stats[i].name, name))
            return blk_stat_get(inst, i);
    return 0;
}

typedef struct {
    uint64_t v[CCU_STAT_COUNT], reads, writes, xfers, instrs, conflicts, added, data, cycles, parts;
    double e_rf, e_oc, e_ccu;
} rfc_totals;

/* Every SM and partition of the machine, now. */
static void totals(const rfc_tb *t, rfc_totals *r)
{
    memset(r, 0, sizeof *r);
    r->cycles = gsc_cycle();
    const blk_ctx *bc = t->run->ctx;
    for (unsigned s = 0; s < t->n_sms; s++) {
        r->instrs += stat(sm_topo_issue_inst(t->sms[s]), "warp_instrs");
        for (unsigned p = 0; sm_topo_regfile_inst(t->sms[s], p); p++) {
            blk_inst *rf = sm_topo_regfile_inst(t->sms[s], p);
            r->parts++;
            r->reads += stat(rf, "bank_reads");
            r->writes += stat(rf, "bank_writes");
            r->conflicts += stat(rf, "bank_conflicts");
            r->e_rf += blk_inst_energy(rf, r->cycles).dynamic_pj;
            const char *at = strstr(rf->path, "regfile");
            GString *op = g_string_new_len(rf->path, at - rf->path);
            g_string_append_printf(op, "opcoll%s", at + strlen("regfile"));
            blk_inst *oc = blk_ctx_find(bc, op->str);
            if (oc) {
                r->xfers += stat(oc, "operand_fills");
                r->e_oc += blk_inst_energy(oc, r->cycles).dynamic_pj;
            }
            g_string_free(op, TRUE);
            ccu_blk *cb = sm_topo_ccu(t->sms[s], p);
            if (cb) {
                for (unsigned i = 0; i < CCU_STAT_COUNT; i++)
                    r->v[i] += blk_stat_get(ccu_inst(cb), i);
                r->e_ccu += blk_inst_energy(ccu_inst(cb), r->cycles).dynamic_pj;
                if (s == 0 && p == 0) {
                    r->added = ccu_added_bytes(cb);
                    r->data = ccu_data_bytes(cb);
                }
            }
        }
    }
}

static double d_hit_ratio(const blk_ctx *c, void *data)
{
    (void)c;
    rfc_totals r;
    totals(data, &r);
    uint64_t n = r.v[CCU_STAT_HITS] + r.v[CCU_STAT_MISSES];
    return n ? (double)r.v[CCU_STAT_HITS] / n : 0.0;
}
#define RFC_DERIVED(NAME, EXPR)                                                                              \
    static double NAME(const blk_ctx *c, void *data)                                                         \
    {                                                                                                        \
        (void)c;                                                                                             \
        rfc_totals r;                                                                                        \
        totals(data, &r);                                                                                    \
        return (double)(EXPR);                                                                               \
    }
RFC_DERIVED(d_reads, r.reads)
RFC_DERIVED(d_writes, r.writes)
RFC_DERIVED(d_energy, r.e_rf + r.e_oc + r.e_ccu)
RFC_DERIVED(d_flushes,
            r.v[CCU_STAT_FLUSHES_FAR] + r.v[CCU_STAT_FLUSHES_FORCED] + r.v[CCU_STAT_FLUSHES_RANDOM])
RFC_DERIVED(d_stall_ccu,
            r.v[CCU_STAT_STALL_OWN_BUSY] + r.v[CCU_STAT_STALL_ALL_BUSY] + r.v[CCU_STAT_STALL_WAIT])

/* The run's figures as derived statistics (rfcache.*: the text and JSON statistics, the sweeps). */
static void add_derived(rfc_tb *t, machine *mach)
{
    t->sms = machine_sms(mach);
    t->n_sms = machine_n_sms(mach);
    blk_ctx *c = t->run->ctx;
    blk_ctx_add_derived(c, "rfcache.hit_ratio", "ratio", "CT source hits / source registers, all SMs",
                        d_hit_ratio, t);
    blk_ctx_add_derived(c, "rfcache.bank_reads", "accesses", "register bank reads, all SMs", d_reads, t);
    blk_ctx_add_derived(c, "rfcache.bank_writes", "accesses", "register bank writes, all SMs", d_writes, t);
    blk_ctx_add_derived(c, "rfcache.rf_energy", "pJ",
                        "register-file dynamic energy: banks, collectors, CT port D and tags", d_energy, t);
    blk_ctx_add_derived(c, "rfcache.flushes", "flushes", "CT flushes (cases 5, 9, random)", d_flushes, t);
    blk_ctx_add_derived(c, "rfcache.stall_ccu", "cycles", "allocation refusals (cases 4, 6, 7)", d_stall_ccu,
                        t);
}

static void finished(machine *mach, int rc, void *ctx)
{
    (void)rc;
    rfc_tb *t = ctx;
    rfc_totals r;
    totals(t, &r);
    const uint64_t *v = r.v;
    ccu_blk *c0 = sm_topo_ccu(machine_sms(mach)[0], 0);
    const char *type = types[collector_type(t)];
    uint64_t lookups = v[CCU_STAT_HITS] + v[CCU_STAT_MISSES];
    printf("rfcache: collector %s\n", type);
    printf("rfcache: CT hit ratio %.4f (%" G_GUINT64_FORMAT " hits, %" G_GUINT64_FORMAT " misses)\n",
           lookups ? (double)v[CCU_STAT_HITS] / lookups : 0.0, v[CCU_STAT_HITS], v[CCU_STAT_MISSES]);
    printf("rfcache: bank reads %" G_GUINT64_FORMAT ", bank writes %" G_GUINT64_FORMAT
           ", crossbar transfers %" G_GUINT64_FORMAT ", bank conflicts %" G_GUINT64_FORMAT "\n",
           r.reads, r.writes, r.xfers, r.conflicts);
    printf("rfcache: port D writes %" G_GUINT64_FORMAT ", squashed (far) %" G_GUINT64_FORMAT
           ", conflicts %" G_GUINT64_FORMAT ", no CCU %" G_GUINT64_FORMAT ", invalidations %" G_GUINT64_FORMAT
           "\n",
           v[CCU_STAT_WRITES_D], v[CCU_STAT_D_SQUASHED], v[CCU_STAT_D_CONFLICTS], v[CCU_STAT_D_NO_CCU],
           v[CCU_STAT_INVALIDATIONS]);
    printf("rfcache: flushes %" G_GUINT64_FORMAT " (far CCU, case 5) %" G_GUINT64_FORMAT
           " (STHLD reached, case 9) %" G_GUINT64_FORMAT " (random)\n",
           v[CCU_STAT_FLUSHES_FAR], v[CCU_STAT_FLUSHES_FORCED], v[CCU_STAT_FLUSHES_RANDOM]);
    printf("rfcache: stalls own CCU busy (4) %" G_GUINT64_FORMAT ", all busy (6) %" G_GUINT64_FORMAT
           ", waiting (7) %" G_GUINT64_FORMAT "\n",
           v[CCU_STAT_STALL_OWN_BUSY], v[CCU_STAT_STALL_ALL_BUSY], v[CCU_STAT_STALL_WAIT]);
    if (!strcmp(type, "rfc_2lev") || !strcmp(type, "rfc") || !strcmp(type, "sw_rfc")) {
        uint64_t sched = r.cycles * r.parts,
                 other = sched - MIN(sched, r.instrs + v[CCU_STAT_TL_PENDING_READY]);
        printf("rfcache: two-level scheduler-cycles %" G_GUINT64_FORMAT ": issued %" G_GUINT64_FORMAT
               ", a pending warp ready but none active (penalty) %" G_GUINT64_FORMAT
               ", otherwise idle %" G_GUINT64_FORMAT "; promotions %" G_GUINT64_FORMAT
               ", demotions %" G_GUINT64_FORMAT "\n",
               sched, r.instrs, v[CCU_STAT_TL_PENDING_READY], other, v[CCU_STAT_TL_PROMOTIONS],
               v[CCU_STAT_TL_DEMOTIONS]);
    }
    if (t->oracle)
        printf("rfcache: oracle hints: %" G_GUINT64_FORMAT
               " instructions not in their warp's functional stream\n",
               v[CCU_STAT_ORACLE_LOST]);
    if (c0 && ccu_sthld_trace(c0)->len) {
        const GArray *tr = ccu_sthld_trace(c0);
        printf("rfcache: STHLD per interval (SM 0):");
        for (guint i = 0; i < tr->len; i++)
            printf(" %d", g_array_index(tr, int, i));
        printf("\n");
    }
    printf("rfcache: IPC %.4f (%" G_GUINT64_FORMAT " warp instructions, %" G_GUINT64_FORMAT " cycles)\n",
           r.cycles ? (double)r.instrs / r.cycles : 0.0, r.instrs, r.cycles);
    printf("rfcache: RF dynamic energy %.1f pJ (banks %.1f, collectors %.1f, CT port D and tags %.1f)\n",
           r.e_rf + r.e_oc + r.e_ccu, r.e_rf, r.e_oc, r.e_ccu);
    printf("rfcache: added storage per SM %" G_GUINT64_FORMAT " B (%.5f%% of the register file)\n", r.added,
           100.0 * (double)r.added /
               (4.0 * (double)blk_param_uint(blk_ctx_find(t->run->ctx, "tb.sm0"), "registers")));
    printf("rfcache: cache data per sub-core %" G_GUINT64_FORMAT " B\n", r.data);
}

int main(int argc, char **argv)
{
    rfc_tb t = {.rthld = 12, .profile_warps = 1, .carveout = -1};
    tb_ext ext = {.program = "tb-rfcache",
                  .summary = "a sub-core SM with the register-file cache (Malekeh) in its collectors",
                  .default_preset = "malekeh",
                  .options = options,
                  .parsed = parsed,
                  .built = built,
                  .finished = finished,
                  .ctx = &t};
    int rc = tb_main_ext(MACHINE_SUBCORE, argc, argv, &ext);
    rp_trace_free(t.trace);
    rp_free(t.prof);
    rp_free(t.oracle);
    return rc;
}
