/* tb-greener — register power states (docs/greener.md): the `sm` machine (default preset greener,
 * the K20X-like SM of the GREENER configuration) with an `rfpower` block on its register banks.
 *
 *   tb-greener --workload NAME [--size S] [--power baseline|sleep-reg|greener] [--greener-w W]
 *              [--preset greener-45nm|greener-32nm|greener-22nm] [tb-sm's options]
 *
 * --power baseline: every register ON (no mechanism bound: the run is tb-sm's); sleep-reg: the
 * Sleep-Reg baseline (unallocated OFF, SLEEP after every access); greener (default): the greener
 * pass (kernels/passes/greener.h, threshold W, default 3) annotates the allocated code, and the hardware
 * applies its states with the run-time lookup table. Both power-managed modes reserve source
 * registers in the scoreboard. The output is checked against the workload's CPU reference; the
 * summary adds the time fraction in each state, the register file's leakage and dynamic energy and
 * the wake-up stalls. Writes waveforms/tb-greener.vcd (rfpower.trace_regs selects registers).
 * Exit: 0 pass, 1 mismatch or run-time error, 2 bad input. */
#include <string.h>

#include "kernels/passes/greener.h"
#include "models/core/config.h"
#include "models/core/energy.h"
#include "models/sm/issue.h"
#include "models/sm/regfile.h"
#include "models/sm/rfpower.h"
#include "testbench/tb_common.h"

typedef struct {
    char *power, *machine;
    gint w;
    unsigned mode;
    unsigned n_sms;
    rfpower **rp; /* one per SM */
    cli_run *run;
} tb_greener;

/* Per-node tables (the source gives the 22 nm transition energies, Table 4.4; per-state leakage and
 * the other nodes are assumptions: a warp-register's share of a bank's leakage, scaled). */
// clang-format off
static const char node_22nm[] =
    "[rfpower]\n"
    "p_leak_on=0.0875\n"   /* [D] 2.8 mW / 32 per 128 B entry (a 4 KB bank) */
    "p_leak_sleep=0.0306\n" /* [A] 0.35 x ON */
    "p_leak_off=0.0044\n"  /* [A] 0.05 x ON */
    "e_sleep_on=37.3\n"    /* [S] Table 4.4 */
    "e_off_on=117.74\n";   /* [S] Table 4.4 */
static const char node_32nm[] =
    "[rfpower]\n"
    "p_leak_on=0.0700\n"   /* [A] leakage per entry x 0.8 of 22 nm's (less subthreshold leakage) */
    "p_leak_sleep=0.0245\n"
    "p_leak_off=0.0035\n"
    "e_sleep_on=54.3\n"    /* [A] 22 nm's x 32/22 (switched capacitance with the feature size) */
    "e_off_on=171.3\n";
static const char node_45nm[] =
    "[rfpower]\n"
    "p_leak_on=0.0560\n"   /* [A] x 0.64 of 22 nm's */
    "p_leak_sleep=0.0196\n"
    "p_leak_off=0.0028\n"
    "e_sleep_on=76.3\n"    /* [A] 22 nm's x 45/22 */
    "e_off_on=240.8\n";
// clang-format on

static void options(cli_run *run, void *data)
{
    tb_greener *g = data;
    GOptionEntry e[] = {
        {"power", 0, 0, G_OPTION_ARG_STRING, &g->power,
         "Register power management: baseline (all ON), sleep-reg or greener (default)", "MODE"},
        {"greener-w", 0, 0, G_OPTION_ARG_INT, &g->w, "The greener pass's threshold W (default 3)", "W"},
        {"machine", 0, 0, G_OPTION_ARG_STRING, &g->machine,
         "sm (one monolithic SM, default), subcore (one sub-core SM, per sub-core banks) or gpu (every SM "
         "of the GPU)",
         "KIND"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionGroup *grp =
        g_option_group_new("greener", "Register power states", "Register power states", NULL, NULL);
    g_option_group_add_entries(grp, e);
    cli_add_group(run, grp);
}

static void configure(cli_run *run, void *data)
{
    tb_greener *g = data;
    g->run = run;
    const char *p = g->power ? g->power : "greener";
    if (strcmp(p, "baseline") == 0)
        g->mode = RFPOWER_MODE_BASELINE;
    else if (strcmp(p, "sleep-reg") == 0)
        g->mode = RFPOWER_MODE_SLEEP_REG;
    else if (strcmp(p, "greener") == 0)
        g->mode = RFPOWER_MODE_GREENER;
    else
        cli_die("--power: unknown mode '%s' (baseline, sleep-reg, greener)", p);
    if (g->w < 1 || g->w > GREENER_MAX_W)
        cli_die("--greener-w: W must be 1..%d, not %d", GREENER_MAX_W, g->w);
    static const char *const names[] = {"baseline", "sleep_reg", "greener"};
    char *set = g_strdup_printf("rfpower.mode=%s", names[g->mode]);
    GError *err = NULL;
    if (!cfg_set_from(run->config, set, "--power", &err) ||
        (g->mode != RFPOWER_MODE_BASELINE &&
         !cfg_set_from(run->config, "scoreboard.source_reservations=true", "--power", &err)))
        cli_die("%s", err->message);
    g_free(set);
}

/* Binds one SM's rfpower to its extension points: issue's check, issued and value; every
 * partition's register banks (a sub-core SM has one register file per sub-core); fetch's decode
 * gate (the lookup table); ldst's register accesses (memory instructions). */
static rfpower *bind_sm(tb_greener *g, sm_topo *s, sm_env *env)
{
    issue *is = sm_topo_issue(s);
    occupancy_sm o;
    sm_topo_occupancy(s, &o);
    rfpower *rp = rfpower_new(g->run->ctx, sm_topo_module(s), "rfpower", env, is->warps, o.regs_per_sm / 32);
    blk_inst *r = rfpower_inst(rp);
    if (g->mode == RFPOWER_MODE_BASELINE) { /* every register ON: the banks' leakage is the run's */
        blk_energy_exclude(r, BLK_ENERGY_NO_DYNAMIC | BLK_ENERGY_NO_LEAKAGE);
        return rp;
    }
    for (unsigned p = 0; p < sm_topo_parts(s); p++) /* the registers' states replace the banks' leakage */
        blk_energy_exclude(sm_topo_regfile(s, p)->inst, BLK_ENERGY_NO_LEAKAGE);
    blk_bind(is->inst, "check", r, "check");
    blk_bind(is->inst, "issued", r, "issued");
    blk_bind(is->inst, "value", r, "value");
    for (unsigned p = 0; p < sm_topo_parts(s); p++)
        blk_bind(sm_topo_regfile(s, p)->inst, "access", r, "access");
    blk_bind(sm_topo_fetch(s)->inst, "gate", r, "decode");
    blk_bind(sm_topo_ldst_inst(s), "regs", r, "mem");
    return rp;
}

static void build(machine *mach, tb_kernel *k, void *data)
{
    tb_greener *g = data;
    sm_env *env = tb_kernel_env_of(k);
    if (g->mode == RFPOWER_MODE_GREENER)
        for (guint i = 0; i < env->mod->funcs->len; i++) {
            ir_func *f = g_ptr_array_index(env->mod->funcs, i);
            if (f->is_defined)
                greener_pass(f, (unsigned)g->w);
        }
    g->n_sms = machine_n_sms(mach);
    g->rp = g_new0(rfpower *, g->n_sms);
    for (unsigned i = 0; i < g->n_sms; i++)
        g->rp[i] = bind_sm(g, machine_sms(mach)[i], env);
}

/* The signals of the curated view <vcd minus .vcd>-power.gtkw: the cycle, what issue issued (warp,
 * pc) and why it stalled, the register bank accesses (warp, register, read or write), and the
 * registers rfpower traces (trace_regs), so each state change sits under the instruction and access
 * that made it (tb_write_view: values by name, idle groups closed). */
static bool power_keep(const char *name, void *ctx)
{
    (void)ctx;
    static const char *const keep[] = {"tb.cycle",
                                       "*sm0.issue.issued",
                                       "*sm0.issue.warp",
                                       "*sm0.issue.pc",
                                       "*sm0.issue.stall",
                                       "*sm0.arbiter0.stall",
                                       "*sm0.regfile*.regfile.*",
                                       "*sm0.rfpower.*",
                                       NULL};
    for (unsigned j = 0; keep[j]; j++)
        if (g_pattern_match_simple(keep[j], name))
            return true;
    return false;
}

static void summary(machine *mach, int rc, void *data)
{
    (void)rc;
    tb_greener *g = data;
    FILE *out = stdout;
    uint64_t cycles = gsc_cycle();
    if (g->run)
        tb_write_view(g->run, "-power.gtkw", true, power_keep, NULL);
    /* summed over the SMs (and over each SM's register files) */
    uint64_t st[RFPOWER_STAT_COUNT] = {0};
    blk_energy erp = {0}, erf = {0};
    for (unsigned i = 0; i < g->n_sms; i++) {
        blk_inst *rp = rfpower_inst(g->rp[i]);
        for (unsigned k = 0; k < RFPOWER_STAT_COUNT; k++)
            st[k] += blk_stat_get(rp, k);
        blk_energy e = blk_inst_energy(rp, cycles);
        erp.leakage_pj += e.leakage_pj;
        erp.dynamic_pj += e.dynamic_pj;
        sm_topo *s = machine_sms(mach)[i];
        for (unsigned p = 0; p < sm_topo_parts(s); p++)
            erf.dynamic_pj += blk_inst_energy(sm_topo_regfile(s, p)->inst, cycles).dynamic_pj;
    }
    uint64_t on = st[RFPOWER_STAT_CYCLES_ON], sl = st[RFPOWER_STAT_CYCLES_SLEEP],
             off = st[RFPOWER_STAT_CYCLES_OFF];
    double all = (double)(on + sl + off);
    if (all == 0)
        all = 1;
    static const char *const names[] = {"baseline", "sleep-reg", "greener"};
    fprintf(
        out,
        "tb-greener: power %s: %" G_GUINT64_FORMAT " cycles; registers ON %.4f SLEEP %.4f OFF %.4f of the "
        "time; RF leakage %.1f nJ, RF dynamic %.1f nJ (banks %.1f, transitions %.1f); wake-ups "
        "%" G_GUINT64_FORMAT ", wake-up stalls %" G_GUINT64_FORMAT
        " warp-cycles, lookup-table cancels %" G_GUINT64_FORMAT ", decode stalls %" G_GUINT64_FORMAT
        ", poisoned reads %" G_GUINT64_FORMAT "; %u SM%s\n",
        names[g->mode], cycles, on / all, sl / all, off / all, erp.leakage_pj / 1000.0,
        (erf.dynamic_pj + erp.dynamic_pj) / 1000.0, erf.dynamic_pj / 1000.0, erp.dynamic_pj / 1000.0,
        st[RFPOWER_STAT_WAKEUPS], st[RFPOWER_STAT_WAKEUP_STALLS], st[RFPOWER_STAT_LUT_CANCELS],
        st[RFPOWER_STAT_DECODE_STALLS], st[RFPOWER_STAT_POISONED_READS], g->n_sms, g->n_sms == 1 ? "" : "s");
    if (g->mode == RFPOWER_MODE_GREENER) { /* a 32-bit PC, 4 source and 4 destination numbers per entry */
        uint64_t lut, sb;
        rfpower_storage_bits(g->rp[0], 32, 8, &lut, &sb);
        fprintf(out,
                "tb-greener: added storage per SM: lookup table %" G_GUINT64_FORMAT " B, register-number "
                "scoreboard %" G_GUINT64_FORMAT " B\n",
                (lut + 7) / 8, (sb + 7) / 8);
    }
}

int tb_greener_main(int argc, char **argv)
{
    blk_registry_add(&rfpower_desc);
    cfg_preset_register("greener-22nm", "rfpower table, 22 nm (load beside a machine preset)", node_22nm);
    cfg_preset_register("greener-32nm", "rfpower table, 32 nm (load beside a machine preset)", node_32nm);
    cfg_preset_register("greener-45nm", "rfpower table, 45 nm (load beside a machine preset)", node_45nm);
    /* --machine picks the machine before the command line is parsed (tb_main_ext needs it) */
    machine_kind kind = MACHINE_SM;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--machine") == 0 && i + 1 < argc)
            v = argv[i + 1];
        else if (g_str_has_prefix(argv[i], "--machine="))
            v = argv[i] + 10;
        if (!v)
            continue;
        if (strcmp(v, "sm") == 0)
            kind = MACHINE_SM;
        else if (strcmp(v, "subcore") == 0)
            kind = MACHINE_SUBCORE;
        else if (strcmp(v, "gpu") == 0)
            kind = MACHINE_GPU;
        else {
            fprintf(stderr, "gpusc: --machine: unknown machine '%s' (sm, subcore, gpu)\n", v);
            return TB_EXIT_USAGE;
        }
    }
    tb_greener g = {.w = GREENER_W_DEFAULT};
    tb_ext ext = {.program = "tb-greener",
                  .summary = "Runs a workload on one SM with register power states (GREENER, Sleep-Reg)",
                  .default_preset = kind == MACHINE_SUBCORE ? "subcore" : "greener",
                  .options = options,
                  .parsed = configure,
                  .built = build,
                  .finished = summary,
                  .ctx = &g};
    int rc = tb_main_ext(kind, argc, argv, &ext);
    for (unsigned i = 0; i < g.n_sms; i++)
        rfpower_free(g.rp[i]);
    g_free(g.rp);
    g_free(g.power);
    g_free(g.machine);
    return rc;
}
