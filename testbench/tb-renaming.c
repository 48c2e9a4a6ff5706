/* tb-renaming — register renaming on the `sm` machine (docs/renaming.md): tb-sm's SM with a
 * `renaming` block beside its register banks, bound to issue's value path, check and issued
 * listener and to the banks' access path. Runs a workload (its output checked) or a PTX kernel,
 * prints the statistics and a renaming summary (live physical registers, allocations, releases,
 * exemptions, allocation stalls, RFC hit rate, gated entries and sub-arrays, register-file energy),
 * writes waveforms/tb-renaming.vcd (curated view: waveforms/renaming.gtkw written beside it).
 *
 *   --renaming on|off|observe   rename (default on); off: the baseline machine, no renaming block
 *                       (tb-sm's machine and code); observe: the block only observes the baseline's
 *                       power gating (its base_* statistics; the timing is the baseline's)
 *   --alloc-policy P    consolidate (default), wear, lowest
 *   --budget BITS       the renaming table budget of Eq. 1 (default 8192; 0: no exemption)
 *   --gating G          entry (default) or subarray: the scheme charged in the energy
 * (shorthands for --set renaming.enable=true|false, .policy=, .budget_bits=, .gating=; with
 * --renaming off there is no renaming block to set). Default preset: renaming. Exit: 0 pass,
 * 1 mismatch or run-time error, 2 bad input. */
#include "models/core/energy.h"
#include "models/sm/fetch.h"
#include "models/sm/regfile.h"
#include "models/sm/renaming.h"
#include "testbench/tb_common.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *opt, *key;
} shorthands[] = {{"--renaming", "renaming.enable"},
                  {"--alloc-policy", "renaming.policy"},
                  {"--budget", "renaming.budget_bits"},
                  {"--gating", "renaming.gating"}};

/* Rewrite the shorthands into --set SECTION.KEY=VALUE, put right after argv[0] so that a --set on
 * the command line overrides them (a new argv; the strings are leaked). `--renaming off` sets
 * *off and no key: the program then builds no renaming block. */
static char **rewrite_args(int *argc, char **argv, bool *off)
{
    const char *val[G_N_ELEMENTS(shorthands)] = {NULL};
    GPtrArray *rest = g_ptr_array_new();
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        bool done = false;
        for (size_t s = 0; s < G_N_ELEMENTS(shorthands) && !done; s++) {
            size_t n = strlen(shorthands[s].opt);
            if (strncmp(a, shorthands[s].opt, n) != 0 || (a[n] != '\0' && a[n] != '='))
                continue;
            val[s] = a[n] == '=' ? a + n + 1 : i + 1 < *argc ? argv[++i] : NULL;
            if (!val[s]) {
                fprintf(stderr, "gpusc: %s needs a value\n", shorthands[s].opt);
                exit(2);
            }
            done = true;
        }
        if (!done)
            g_ptr_array_add(rest, argv[i]);
    }
    *off = false;
    if (val[0]) {
        if (!strcmp(val[0], "off"))
            *off = true;
        else if (!strcmp(val[0], "on") || !strcmp(val[0], "observe"))
            val[0] = !strcmp(val[0], "on") ? "true" : "false";
        else {
            fprintf(stderr, "gpusc: --renaming %s: on, off or observe\n", val[0]);
            exit(2);
        }
    }
    GPtrArray *out = g_ptr_array_new();
    g_ptr_array_add(out, argv[0]);
    for (size_t s = *off ? 1 : 0; s < G_N_ELEMENTS(shorthands); s++) {
        if (!val[s])
            continue;
        if (*off) {
            fprintf(stderr,
                    "gpusc: %s %s: --renaming off builds no renaming block (the baseline machine); "
                    "use --renaming on or observe\n",
                    shorthands[s].opt, val[s]);
            exit(2);
        }
        g_ptr_array_add(out, g_strdup("--set"));
        g_ptr_array_add(out, g_strdup_printf("%s=%s", shorthands[s].key, val[s]));
    }
    for (unsigned i = 0; i < rest->len; i++)
        g_ptr_array_add(out, rest->pdata[i]);
    g_ptr_array_free(rest, TRUE);
    *argc = (int)out->len;
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

typedef struct {
    renaming **r;
    unsigned n;
} rn_all;

static void dump_all(void *ctx, GString *out)
{
    rn_all *a = ctx;
    for (unsigned i = 0; i < a->n; i++)
        renaming_dump(a->r[i], out);
}

/* The signals of the curated view renaming.gtkw: the renaming block's own state (the free list, the
 * mapping events, the powered sub-arrays; not its call probes), issue's issued warp, pc and stall,
 * the banks' reads and conflicts, on SM 0 (tb_write_view: values by name, idle groups closed). */
static bool view_keep(const char *name, void *ctx)
{
    (void)ctx;
    static const char *const keep[] = {
        "tb.cycle",           "tb.sm0.issue.issued",  "tb.sm0.issue.warp",        "tb.sm0.issue.pc",
        "tb.sm0.issue.stall", "tb.sm0.regfile.reads", "tb.sm0.regfile.conflicts", NULL};
    const char *rn = "tb.sm0.renaming.";
    if (g_str_has_prefix(name, rn))
        return strchr(name + strlen(rn), '.') == NULL;
    for (unsigned j = 0; keep[j]; j++)
        if (strcmp(name, keep[j]) == 0)
            return true;
    return false;
}

int tb_renaming_main(int argc, char **argv)
{
    bool off;
    argv = rewrite_args(&argc, argv, &off);
    machine_register(MACHINE_SM);
    blk_registry_add(&renaming_desc);
    renaming_register_policies();
    const machine_info *mi = machine_info_get(MACHINE_SM);
    cli_run *run =
        cli_new("tb-renaming", "register renaming on one SM (docs/renaming.md)", mi->top, "tb", "renaming");
    machine_cli(run, MACHINE_SM);
    tb_opts o;
    tb_opts_add(run, &o);
    cli_parse(run, &argc, &argv);
    machine *mach = machine_new(MACHINE_SM, run->ctx, run->top->mod);
    bool subcore;
    char *sm_path = machine_sm_path(mach, &subcore);
    tb_kernel *k = tb_kernel_load(&o, "vecadd", sm_path, subcore);
    g_free(sm_path);
    sm_env *env = tb_kernel_env(k, machine_n_sms(mach));
    if (tb_kernel_refuse_spu(k, "tb-renaming"))
        return TB_EXIT_USAGE;
    machine_build(mach, env);
    unsigned n = machine_n_sms(mach);
    sm_topo **sms = machine_sms(mach);
    rn_all all = {g_new0(renaming *, n), off ? 0 : n}; /* off: tb-sm's machine, nothing added */
    for (unsigned s = 0; s < all.n; s++) {
        occupancy_sm occ;
        sm_topo_occupancy(sms[s], &occ);
        unsigned warps = occ.max_warps ? occ.max_warps : occ.max_threads / occ.warp_size;
        all.r[s] = renaming_new(run->ctx, sm_topo_module(sms[s]), "renaming", env, warps, &occ,
                                &sm_topo_regfile(sms[s], 0)->geom);
        renaming_bind(all.r[s], sm_topo_issue_inst(sms[s]), sm_topo_regfile_inst(sms[s], 0),
                      sm_topo_fetch(sms[s])->inst);
    }
    tb_machine *m = tb_machine_new(run, env, machine_dispatch(mach), sms, n);
    tb_machine_watchdog(m, run->top->mod, o.watchdog > 0 ? (uint64_t)o.watchdog : 0);
    if (all.n)
        tb_machine_set_dump(m, dump_all, &all);
    cli_elaborate(run);

    int rc = tb_machine_run(m, k, &o);
    const char *fault = machine_fault(mach);
    if (fault && rc == 0) {
        fprintf(stderr, "gpusc: %s\n", fault);
        rc = TB_EXIT_RUN;
    }
    uint64_t cycles = gsc_cycle();
    for (unsigned s = 0; s < all.n; s++)
        renaming_finish(all.r[s], cycles);
    cli_finish(run, cycles);
    tb_machine_summary(m, stdout);
    machine_summary(mach, stdout);
    uint64_t period = blk_param_uint(blk_ctx_find(run->ctx, "tb"), "period_ps");
    if (off)
        printf("renaming: off: the baseline machine, no renaming block (--renaming observe reports the "
               "baseline's register-file gating)\n");
    for (unsigned s = 0; s < all.n; s++) {
        blk_inst *ri = renaming_inst(all.r[s]);
        const char *rp = ri->path;
        uint64_t c = cycles ? cycles : 1;
        double rf_dyn = 0;
        blk_inst *rf = sm_topo_regfile_inst(sms[s], 0);
        for (unsigned e = 0; e < rf->desc->energy->n_events; e++)
            rf_dyn += blk_energy_event_pj(rf, e);
        double gated = blk_energy_leak_pj(ri, 0, cycles, period),
               table = blk_energy_leak_pj(ri, 1, cycles, period);
        for (unsigned e = 0; e < renaming_desc.energy->n_events; e++)
            table += blk_energy_event_pj(ri, e);
        double ungated = blk_energy_leak_pj(rf, 0, cycles, period);
        printf("renaming: %s: %s, policy %s: live physical registers avg %.1f peak %" G_GUINT64_FORMAT
               " against %.1f reserved by the compiler (resident warps x registers); %" G_GUINT64_FORMAT
               " distinct; %" G_GUINT64_FORMAT " allocations, %" G_GUINT64_FORMAT
               " releases (pir %" G_GUINT64_FORMAT ", pbr %" G_GUINT64_FORMAT ", exit %" G_GUINT64_FORMAT
               "); %" G_GUINT64_FORMAT " exempt (Eq. 1 %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
               " bits); %" G_GUINT64_FORMAT
               " stall warp-cycles for a free register; RFC hit rate %.3f; gated: "
               "entries on avg %.1f (baseline %.1f) of 8192, sub-arrays on avg %.2f (baseline %.2f) of 128; "
               "register-file "
               "energy %.3f nJ (bank accesses %.3f, gated leakage %.3f, renaming table %.3f; ungated leakage "
               "would be %.3f)\n",
               rp, blk_param_bool(ri, "enable") ? "on" : "off", blk_param_string(ri, "policy"),
               blk_stat_value(ri, RN_STAT_AVG_LIVE), blk_stat_get(ri, RN_STAT_PEAK),
               blk_stat_value(ri, RN_STAT_ARCH_AVG), blk_stat_get(ri, RN_STAT_DISTINCT),
               blk_stat_get(ri, RN_STAT_ALLOCS), blk_stat_get(ri, RN_STAT_RELEASES),
               blk_stat_get(ri, RN_STAT_REL_PIR), blk_stat_get(ri, RN_STAT_REL_PBR),
               blk_stat_get(ri, RN_STAT_REL_EXIT), blk_stat_get(ri, RN_STAT_EXEMPT),
               blk_stat_get(ri, RN_STAT_EQ1), blk_stat_get(ri, RN_STAT_EQ1_AFTER),
               blk_stat_get(ri, RN_STAT_ALLOC_STALLS), blk_stat_value(ri, RN_STAT_RFC_HIT_RATE),
               (double)blk_stat_get(ri, RN_STAT_ENTRY_ON) / (double)c,
               (double)blk_stat_get(ri, RN_STAT_BASE_ENTRY_ON) / (double)c,
               (double)blk_stat_get(ri, RN_STAT_SUB_ON) / (double)c,
               (double)blk_stat_get(ri, RN_STAT_BASE_SUB_ON) / (double)c, (rf_dyn + gated + table) / 1e3,
               rf_dyn / 1e3, gated / 1e3, table / 1e3, ungated / 1e3);
        if (blk_stat_get(ri, RN_STAT_OVERFLOW) && rc == 0) {
            fprintf(stderr, "gpusc: renaming: %" G_GUINT64_FORMAT " writes found no free physical register\n",
                    blk_stat_get(ri, RN_STAT_OVERFLOW));
            rc = TB_EXIT_RUN;
        }
    }
    if (all.n)
        tb_write_view(run, "renaming.gtkw", false, view_keep, NULL);
    printf("tb-renaming: %s: %s\n", tb_kernel_name(k),
           tb_exit_status(rc) != rc ? "INTERRUPTED"
           : rc == 0                ? "PASS"
                                    : "FAIL");
    for (unsigned s = 0; s < all.n; s++)
        renaming_free(all.r[s]);
    g_free(all.r);
    return tb_exit_status(rc);
}
