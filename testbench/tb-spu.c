/* tb-spu — the SPU's 3-D stencil (SPU spec §11) on the spu_grid machine (models/machines/spu_grid.h)
 * or, with --machine gpu, on the GPU baseline: the same tile code with its faces through global
 * memory (kernels/spu/spu_stencil.cu). Checks the three outputs (bottom plane, east and south
 * faces) against a CPU reference, prints cycles, off-chip element accesses beside the spec's closed
 * forms, CB traffic; waveforms as every testbench (docs/spu.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/frontend/spu_isa.h"
#include "models/core/config.h"
#include "models/machines/spu_grid.h"
#include "models/spu/spu_iu_code.h"
#include "models/sm/issue.h"
#include "models/topo/sm.h"
#include "testbench/tb_common.h"

#ifndef GPUSC_SRC_SPU_DIR
#define GPUSC_SRC_SPU_DIR "kernels/spu"
#endif

static const blk_param_desc tb_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1429", "2", "1000000", NULL, "ps", "core clock period [S: 700 MHz]"},
};
static const blk_desc tb_spu_desc = {
    "tb_spu",
    "testbench: the SPU grid (or the GPU baseline) running the SPU's 3-D stencil",
    "SPU spec §11",
    NULL,
    0,
    tb_params,
    BLK_N(tb_params),
    NULL,
    0,
    NULL,
    0,
};

static char *opt_size, *opt_sync, *opt_machine, *opt_passes, *opt_ptx_dir, *opt_iu_path, *opt_iu, *opt_iu_ptx;
static char *opt_power_trace;
static gint64 opt_tile = 32, opt_cb = 4, opt_watchdog = 200000, opt_power_every = 500;
static gboolean opt_corrupt;

static GOptionEntry entries[] = {
    {"size", 0, 0, G_OPTION_ARG_STRING, &opt_size, "Iteration space N x N x K (default 128x128x128)",
     "NxNxK"},
    {"tile", 0, 0, G_OPTION_ARG_INT64, &opt_tile, "Tile size b (default 32)", "b"},
    {"cb", 0, 0, G_OPTION_ARG_INT64, &opt_cb, "CB size in KB: 4 or 16 (default 4)", "KB"},
    {"sync", 0, 0, G_OPTION_ARG_STRING, &opt_sync, "global (default) or local (producer-consumer)", "MODE"},
    {"passes", 0, 0, G_OPTION_ARG_STRING, &opt_passes,
     "multipass: overlapped (default: an SM takes its next pass's CTA when it is done) or plain (pass "
     "by pass)",
     "MODE"},
    {"iu-path", 0, 0, G_OPTION_ARG_STRING, &opt_iu_path,
     "ideal (default: a fixed latency, then one request per cycle) or icnt (the interface units' "
     "loads and stores through the interconnect, L2 slices and DRAM)",
     "PATH"},
    {"iu", 0, 0, G_OPTION_ARG_STRING, &opt_iu,
     "plan (default: the interface units move the faces the testbench plans) or code (truncated SMs "
     "executing the IU code of spu_iu.ptx, and its VIU code at pass borders)",
     "MODE"},
    {"iu-ptx", 0, 0, G_OPTION_ARG_FILENAME, &opt_iu_ptx, "The IU code with --iu code (default: spu_iu.ptx)",
     "FILE"},
    {"machine", 0, 0, G_OPTION_ARG_STRING, &opt_machine, "spu (default) or gpu (the GPU baseline)", "M"},
    {"ptx-dir", 0, 0, G_OPTION_ARG_FILENAME, &opt_ptx_dir, "Where spu_stencil.ptx is", "DIR"},
    {"watchdog", 0, 0, G_OPTION_ARG_INT64, &opt_watchdog,
     "Cycles without an issued instruction before the run "
     "is stopped with a dump (default 200000; 0: off)",
     "N"},
    {"power-trace", 0, 0, G_OPTION_ARG_FILENAME, &opt_power_trace,
     "Write the energy of every interval of --power-every cycles as CSV (the power trace)", "FILE"},
    {"power-every", 0, 0, G_OPTION_ARG_INT64, &opt_power_every,
     "Cycles per power-trace interval (default 500: the spec's sampling of the counters)", "N"},
    {"selftest-corrupt", 0, 0, G_OPTION_ARG_NONE, &opt_corrupt,
     "Break the CB ping-pong (no swap of the CBs on a release) to see the check fail", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

#define SPU_MAX_ARRAY_BYTES 4294967296.0 /* --size: the device arrays' bytes */

/* "NxNxK" of positive 32-bit numbers, nothing else. */
static bool parse_size(const char *text, unsigned *n, unsigned *n2, unsigned *k)
{
    char **p = g_strsplit(text, "x", -1);
    guint64 v[3];
    bool ok = g_strv_length(p) == 3;
    for (unsigned i = 0; ok && i < 3; i++)
        ok = g_ascii_string_to_unsigned(p[i], 10, 1, G_MAXUINT32, &v[i], NULL);
    g_strfreev(p);
    if (ok) {
        *n = (unsigned)v[0];
        *n2 = (unsigned)v[1];
        *k = (unsigned)v[2];
    }
    return ok && *n == *n2;
}

static G_GNUC_NORETURN G_GNUC_PRINTF(1, 2) void usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(TB_EXIT_USAGE);
}

/* The GPU baseline's counter: 4-byte elements of global loads and stores by the SMs (atomics, the
 * synchronisation, are not counted [SPU spec §12]). */
typedef struct {
    uint64_t loads, stores;
} offchip_probe;

static void probe_issued(void *self, const issued_t *it)
{
    offchip_probe *pr = self;
    if (it->cls != IR_CLASS_MEM || it->kind > 1)
        return;
    uint64_t n = spu_global_elements(it);
    if (it->kind == 0)
        pr->loads += n;
    else
        pr->stores += n;
}
static const instr_issued_if probe_table = {probe_issued};

/* Whether unit idx of `side` (smiu: the SM standing in for it in partial passes) moves faces in pass
 * (px, py): a stand-in in the passes where its SM plays that role; a border unit in every pass, but
 * under producer-consumer sync or with partial passes only in those it serves. */
static bool unit_serves(const spu_grid *sg, spu_side side, unsigned idx, bool smiu, bool local, unsigned px,
                        unsigned py)
{
    bool vert = side == SPU_SIDE_N || side == SPU_SIDE_S;
    unsigned rr = spu_passes_span(&sg->ps, sg->ps.P - 1);
    if (smiu)
        return spu_passes_role(&sg->ps, vert ? idx : rr, vert ? rr : idx, px, py) ==
               (vert ? SPU_ROLE_IU_SOUTH : SPU_ROLE_IU_EAST);
    if (local || sg->global_B != 0)
        return spu_passes_border_serves(&sg->ps, vert, side >= SPU_SIDE_S, idx, px, py);
    return true;
}

/* The interface units' plan. Global sync (Alg. 1 with its prologue barrier): B = 1 + 2(G-1) + K/b
 * barriers per pass, the P x P passes one after the other (B rounds each, numbered on); round r of
 * a pass (before its barrier r) loads tile k = r - (i + j) of the adjacent SM's W/N face, (i, j)
 * the grid coordinates of that SM's CTA; a storer in round r stores tile k = r - 2 - (i + j) of its
 * SM's E/S face; between passes they spill and restore as below.
 * Producer-consumer sync: P x P passes in the runtime's row-wise order, K/b rounds in every pass
 * where the unit has a neighbour (a border unit: an SM of its row or column runs a CTA there and,
 * for a storer, the pass's edge is the grid's; an SM standing in as a unit: its role); in pass
 * (px, py) a west unit loads the input face C (px = 0) or, as a VIU, restores the face its pass's
 * west neighbour spilled (the faces array at the border, the spill region), after the guard; an east
 * unit stores the output face (px = P - 1) or spills; north and south alike along y. */
static void plan_unit(spu_grid *sg, spu_iu *u, spu_side side, unsigned idx, bool smiu, unsigned N, unsigned K,
                      unsigned b, uint64_t X, uint64_t Y, bool local, spu_iu_guard *guard, spu_iu_xfer *xs)
{
    unsigned p = sg->p, G = N / b, KT = K / b, P = sg->ps.P, n_pass = P * P;
    bool store = side >= SPU_SIDE_S, vert = side == SPU_SIDE_N || side == SPU_SIDE_S;
    bool roles = sg->global_B != 0; /* global sync with partial passes: a role per pass served */
    unsigned rr = spu_passes_span(&sg->ps, P - 1);
    /* the SM's other coordinate (global sync): a stand-in stores what the SM before it produced */
    unsigned other = store ? (smiu ? rr - 1 : p - 1) : 0;
    uint64_t face = vert ? Y : X;
    unsigned n = 0, r = 0, m = 0, B = 1 + 2 * (G - 1) + KT;
    for (unsigned q = 0; q < n_pass; q++) {
        unsigned px = q % P, py = q / P;
        unsigned along = vert ? px : py, across = vert ? py : px; /* pass coordinates */
        if (!unit_serves(sg, side, idx, smiu, local, px, py))
            continue;
        unsigned ft = MIN(store ? (across + 1) * p : across * p, G); /* the face at the border */
        bool viu = store ? across + 1 < P : across > 0;
        /* the border's guard counter: border (across -> across + 1) at this row of the pass */
        unsigned bq = vert ? (store ? py : py - 1) * P + px : py * P + (store ? px : px - 1);
        spu_iu_guard *ctr = viu ? guard + (vert ? n_pass * p : 0) + bq * p + idx : NULL;
        /* global sync: CTA (i, j) computes tile k at t = i + j + k of every pass's B rounds (i, j
         * the grid's coordinates); the unit's SM is at i + j = (along + across) p + idx + other */
        unsigned lag = (along + across) * p + idx + other + (store ? 2 : 0);
        for (unsigned t = 0; t <= (local ? KT - 1 : B); t++, r += local) {
            int kt = local ? (int)t : (int)t - (int)lag;
            if (kt < 0 || kt >= (int)KT || (!store && t == B))
                continue;
            xs[n++] = (spu_iu_xfer){
                .round = local ? r : roles ? m * (B + 1) + t : q * B + t,
                .gaddr = face + 4ull * (((uint64_t)ft * K + (uint64_t)kt * b) * N + (along * p + idx) * b),
                .row_stride = 4ull * N,
                .rows = b,
                .row_elems = b,
                .cb_off = 0,
                .viu = viu,
                .post = viu && store ? ctr : NULL,
                .wait = viu && !store ? ctr : NULL,
                .wait_min = (uint32_t)kt + 1};
        }
        m++;
    }
    static const unsigned dirs[] = {SPU_DIR_SOUTH, SPU_DIR_EAST, SPU_DIR_NORTH, SPU_DIR_WEST};
    spu_iu_set_plan(u, local ? r : roles ? m * (B + 1) : n_pass * B, xs, n, local ? dirs[side] : 0);
}

static void plan_ius(spu_grid *sg, unsigned N, unsigned K, unsigned b, uint64_t X, uint64_t Y, bool local,
                     spu_iu_guard *guard)
{
    unsigned p = sg->p, G = N / b, KT = K / b, P = sg->ps.P;
    spu_iu_xfer *xs = g_new0(spu_iu_xfer, MAX(P * P * KT, 2 * G + KT) + 1);
    for (unsigned side = 0; side < 4; side++)
        for (unsigned idx = 0; idx < p; idx++) {
            plan_unit(sg, spu_grid_iu(sg, (spu_side)side, idx), (spu_side)side, idx, false, N, K, b, X, Y,
                      local, guard, xs);
            spu_iu *u = side >= SPU_SIDE_S ? spu_grid_sm_iu(sg, (spu_side)side, idx) : NULL;
            if (u)
                plan_unit(sg, u, (spu_side)side, idx, true, N, K, b, X, Y, local, guard, xs);
        }
    g_free(xs);
}

/* --iu code: every border unit runs its entry of the IU code (spu_iu_<global|local>_<n|w|s|e>),
 * checked against the IU's instruction subset first, once per pass in the runtime's row-wise order.
 * At a pass border the runtime runs its VIU code instead (spu_viu_...: a south or east unit spills
 * when a pass follows across its border, a north or west unit restores when one precedes), with the
 * border's guard counter word (in `ctrs`: one per border and row, zeroed, in the plan's guard order). Its SPU
 * registers per pass: P, the pass, K/b spills per pass [S: §8], the VIU flag, its side (%regiudir:
 * spu_dir), its position along the CTA grid's border (%regiuid, assigned per pass) and whether the
 * pass is its last. */
static void code_ius(spu_grid *sg, const char *path, unsigned N, unsigned K, unsigned b, uint64_t X,
                     uint64_t Y, uint64_t ctrs, bool local, const ir_module *sm_mod)
{
    static const char side_c[] = "nwse";
    static const unsigned toward[] = {SPU_DIR_SOUTH, SPU_DIR_EAST, SPU_DIR_NORTH, SPU_DIR_WEST};
    unsigned p = sg->p, P = sg->ps.P, n_pass = P * P;
    GString *err = g_string_new(NULL);
    spu_iu_prog *prog = spu_iu_prog_load(path, spu_grid_iu(sg, SPU_SIDE_N, 0)->mem, err);
    if (!prog)
        usage("%s", err->str);
    for (unsigned k = 0; k < 6 * p; k++) {
        unsigned side = k < 4 * p ? k / p : k < 5 * p ? SPU_SIDE_S : SPU_SIDE_E, idx = k % p;
        bool smiu = k >= 4 * p; /* the SMs standing in as south and east units (partial passes) */
        spu_iu *u = smiu ? spu_grid_sm_iu(sg, (spu_side)side, idx) : spu_grid_iu(sg, (spu_side)side, idx);
        if (!u)
            continue;
        bool store = side >= SPU_SIDE_S, vert = side == SPU_SIDE_N || side == SPU_SIDE_S;
        unsigned sync = local ? toward[side] : 0, last = 0; /* the last pass it serves */
        for (unsigned q = 0; q < n_pass; q++)
            if (unit_serves(sg, (spu_side)side, idx, smiu, local, q % P, q / P))
                last = q;
        for (unsigned q = 0; q < n_pass; q++) {
            unsigned px = q % P, py = q / P, along = vert ? px : py, across = vert ? py : px;
            if (!unit_serves(sg, (spu_side)side, idx, smiu, local, px, py))
                continue;
            bool viu = store ? across + 1 < P : across > 0;
            unsigned bq = vert ? (store ? py : py - 1) * P + px : py * P + (store ? px : px - 1);
            uint64_t ctr = viu ? ctrs + 4ull * ((vert ? n_pass * p : 0) + bq * p + idx) : 0;
            wl_arg args[] = {WL_PTR(X),      WL_PTR(Y),      WL_S32((int)N), WL_S32((int)K),
                             WL_S32((int)b), WL_S32((int)p), WL_PTR(ctr)};
            char entry[32];
            g_snprintf(entry, sizeof entry, "spu_%s_%s_%c", viu ? "viu" : "iu", local ? "local" : "global",
                       side_c[side]);
            uint32_t sregs[10] = {P, P, px, py, K / b, 0, viu, side + 1, along * p + idx, q == last};
            if (spu_iu_prog_check(prog, entry, side + 1, sync, err) ||
                spu_iu_set_code(u, prog, entry, args,
                                G_N_ELEMENTS(args) - !viu /* the IU code has no guard */, sregs, side + 1,
                                sync, err))
                usage("%s", err->str);
        }
    }
    g_string_free(err, TRUE);
    /* partial passes: the stand-in SMs run their roles' IU code themselves (the kernel's module holds
     * the IU code after its own functions: tb_kernel_extra_ptx) */
    if (spu_grid_sm_iu(sg, SPU_SIDE_E, 0))
        spu_grid_sm_code(sg, sm_mod, sm_mod->funcs->len - spu_iu_prog_n_funcs(prog), path);
    /* the program stays loaded for the run (the units execute it); freed with the process */
}

/* --power-trace: the energy framework's figures (docs/energy.md) sampled every `every` cycles, as the
 * spec's power model takes the activity counters about every 500 cycles [S: §13.1]: one CSV row
 * per interval (the last one ends with the run): its cycles, its total, dynamic and leakage energy
 * (pJ), its average power (mW; pJ / ps = W), on the SPU the CB accesses' (CBP) and the interface
 * units' dynamic energy, then its average dynamic power and that power by component (GPUWattch's
 * 18 and CBP, every one: a component no block feeds is a column of zeros), mW. The intervals'
 * energies sum to the run's totals. A process that wakes once per interval; nothing else changes. */
typedef struct {
    FILE *f;
    const char *path;
    const blk_ctx *ctx;
    const spu_grid *sg;
    uint64_t every, last, period_ps;
    blk_energy prev, prev_cb, prev_iu;
    double prev_comp[BLK_COMP_N];
} power_trace;

static void power_row(power_trace *pt, uint64_t now)
{
    blk_energy e = blk_ctx_energy(pt->ctx, now), cb = {0, 0}, iu = {0, 0};
    if (pt->sg)
        spu_grid_energy(pt->sg, now, &cb, &iu);
    double dyn = e.dynamic_pj - pt->prev.dynamic_pj, leak = e.leakage_pj - pt->prev.leakage_pj;
    double mw_per_pj = 1e3 / ((double)(now - pt->last) * (double)pt->period_ps);
    fprintf(pt->f, "%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.3f,%.6f", pt->last, now, dyn + leak, dyn, leak,
            (dyn + leak) * mw_per_pj);
    if (pt->sg)
        fprintf(pt->f, ",%.3f,%.3f", cb.dynamic_pj - pt->prev_cb.dynamic_pj,
                iu.dynamic_pj - pt->prev_iu.dynamic_pj);
    double comp[BLK_COMP_N];
    blk_ctx_energy_components(pt->ctx, comp);
    fprintf(pt->f, ",%.6f", dyn * mw_per_pj);
    for (unsigned c = BLK_COMP_FIRST; c < BLK_COMP_N; c++)
        fprintf(pt->f, ",%.6f", (comp[c] - pt->prev_comp[c]) * mw_per_pj);
    fputc('\n', pt->f);
    pt->prev = e, pt->prev_cb = cb, pt->prev_iu = iu;
    memcpy(pt->prev_comp, comp, sizeof comp);
    pt->last = now;
}

static void power_run(void *self)
{
    power_trace *pt = self;
    uint64_t now = gsc_cycle();
    if (now > pt->last)
        power_row(pt, now);
    gsc_next_trigger_cycles(pt->every);
}

static power_trace *power_trace_new(cli_run *run, const spu_grid *sg)
{
    if (opt_power_every < 1)
        usage("--power-every %" G_GINT64_FORMAT ": at least 1 cycle", opt_power_every);
    power_trace *pt = g_new0(power_trace, 1);
    pt->f = fopen(opt_power_trace, "w");
    if (!pt->f)
        usage("--power-trace %s: %s", opt_power_trace, g_strerror(errno));
    pt->path = opt_power_trace;
    pt->ctx = run->ctx;
    pt->sg = sg;
    pt->every = (uint64_t)opt_power_every;
    pt->period_ps = gsc_clock_period_ps(blk_ctx_clock(run->ctx));
    fputs("cycle_from,cycle_to,energy_pj,dynamic_pj,leakage_pj,power_mw", pt->f);
    fputs(sg ? ",cb_dynamic_pj,iu_dynamic_pj,dynamic_mw" : ",dynamic_mw", pt->f);
    for (unsigned c = BLK_COMP_FIRST; c < BLK_COMP_N; c++)
        fprintf(pt->f, ",%s_mw", blk_power_comp_name(c));
    fputc('\n', pt->f);
    gsc_process *p = gsc_process_new(run->top->mod, "power_trace", power_run, pt);
    gsc_process_initialize(p);
    return pt;
}

/* The last interval (to the run's end); false when the file could not be written. */
static bool power_trace_close(power_trace *pt, uint64_t cycles)
{
    if (cycles > pt->last)
        power_row(pt, cycles);
    bool ok = !ferror(pt->f);
    ok = fclose(pt->f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "gpusc: --power-trace %s: could not be written\n", pt->path);
    g_free(pt);
    return ok;
}

/* The CPU reference (Eq. 3.1, Mean as a multiply by 1/3 [A: spec §17 item 19]), plane by plane. */
static void reference(unsigned N, unsigned K, const float *A, const float *B, const float *C, float *Hb,
                      float *E, float *S)
{
    float *prev = g_new(float, (size_t)N *N), *cur = g_new(float, (size_t)N *N);
    const float third = 1.0f / 3.0f;
    for (unsigned k = 0; k < K; k++) {
        for (unsigned j = 0; j < N; j++)
            for (unsigned i = 0; i < N; i++) {
                float w = i == 0 ? C[(size_t)k * N + j] : cur[(size_t)j * N + i - 1];
                float n = j == 0 ? B[(size_t)k * N + i] : cur[(size_t)(j - 1) * N + i];
                float up = k == 0 ? A[(size_t)j * N + i] : prev[(size_t)j * N + i];
                cur[(size_t)j * N + i] = (w + n + up) * third;
            }
        for (unsigned t = 0; t < N; t++) {
            E[(size_t)k * N + t] = cur[(size_t)t * N + N - 1];
            S[(size_t)k * N + t] = cur[(size_t)(N - 1) * N + t];
        }
        float *sw = prev;
        prev = cur;
        cur = sw;
    }
    memcpy(Hb, prev, sizeof(float) * N * N);
    g_free(prev);
    g_free(cur);
}

static uint64_t compare(const char *what, const float *got, const float *want, size_t n)
{
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(got[i] == want[i])) {
            if (!bad)
                fprintf(stderr, "gpusc: tb-spu: %s[%zu] = %.9g, expected %.9g\n", what, i, got[i], want[i]);
            bad++;
        }
    return bad;
}

int main(int argc, char **argv)
{
    machine_register(MACHINE_GPU);
    spu_grid_register();
    blk_registry_mark_built(&spu_grid_desc);
    blk_registry_mark_built(&spu_cb_desc);
    blk_registry_mark_built(&spu_iu_desc);
    blk_registry_mark_built(&spu_ctl_desc);
    /* the default preset: spu (caches off) on the SPU grid, gtx480 with --machine gpu */
    const char *def = "spu";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--machine=gpu") ||
            (!strcmp(argv[i], "--machine") && i + 1 < argc && !strcmp(argv[i + 1], "gpu")))
            def = "gtx480";
    cli_run *run = cli_new("tb-spu", "The SPU's 3-D stencil on the SPU grid (or the GPU baseline), checked.",
                           &tb_spu_desc, "tb", def);
    machine_cli(run, MACHINE_GPU);
    GOptionGroup *grp =
        g_option_group_new("spu", "SPU stencil options", "The stencil and the machine", NULL, NULL);
    g_option_group_add_entries(grp, entries);
    cli_add_group(run, grp);
    cli_parse(run, &argc, &argv);

    unsigned N = 128, N2 = 128, K = 128;
    if (opt_size && !parse_size(opt_size, &N, &N2, &K))
        usage("--size '%s': expected NxNxK (two equal sides), e.g. 128x128x128", opt_size);
    if (opt_watchdog < 0)
        usage("--watchdog %" G_GINT64_FORMAT ": must not be negative (0: off)", opt_watchdog);
    guint64 seed = 1;
    if (run->seed && !g_ascii_string_to_unsigned(run->seed, 10, 0, G_MAXUINT32, &seed, NULL))
        usage("--seed '%s': not a number from 0 to 4294967295", run->seed);
    unsigned b = (unsigned)opt_tile;
    if (opt_tile < 4 || opt_tile > 64 || b % 4)
        usage("--tile %" G_GINT64_FORMAT
              ": b must be a multiple of 4 from 4 to 64 (threads per CTA: b/4 x b/4)",
              opt_tile);
    if (N % b || K % b)
        usage("--size %ux%ux%u: N and K must be multiples of the tile %u", N, N, K, b);
    if (opt_cb != 4 && opt_cb != 16)
        usage("--cb %" G_GINT64_FORMAT ": 4 or 16 (KB)", opt_cb);
    if ((uint64_t)b * b * 4 > (uint64_t)opt_cb * 1024)
        usage("--tile %u: a %ux%u face of 4-byte values does not fit a %" G_GINT64_FORMAT " KB CB", b, b, b,
              opt_cb);
    bool local = opt_sync && !strcmp(opt_sync, "local");
    if (opt_sync && !local && strcmp(opt_sync, "global") != 0)
        usage("--sync %s: global (Algorithm 1) or local (producer-consumer, Algorithm 3)", opt_sync);
    bool gpu = opt_machine && !strcmp(opt_machine, "gpu");
    if (opt_machine && !gpu && strcmp(opt_machine, "spu") != 0)
        usage("--machine %s: spu or gpu", opt_machine);
    unsigned G = N / b, T = b / 4, KT = K / b;
    /* the device's arrays (A, Hb, the G + 1 faces of X and Y) and about as much on the host: a run
     * that large would not end, and the host could not hold it */
    double array_bytes = 4.0 * ((double)N * N * 2 + 2.0 * (G + 1) * (double)N * K);
    if (array_bytes > SPU_MAX_ARRAY_BYTES)
        usage("--size %ux%ux%u: its arrays take %.0f bytes on the device (at most %.0f)", N, N, K, array_bytes,
              SPU_MAX_ARRAY_BYTES);

    GError *gerr = NULL;
    spu_grid *sg = NULL;
    if (!gpu) {
        sg = spu_grid_new(run->ctx, run->top->mod, "spu");
        if (G != sg->p && !local && opt_passes && !strcmp(opt_passes, "overlapped"))
            usage("--passes overlapped needs --sync local: under the global blocksync every CTA of a pass "
                  "executes all %u blocksyncs of Algorithm 1's loop (1 + 2(G - 1) + K/b) and ends at the "
                  "pass's last one with the others, so no SM is free to start its next pass early; the "
                  "passes run one after the other (--passes plain)",
                  1 + 2 * (G - 1) + KT);
        if (opt_iu && strcmp(opt_iu, "plan") && strcmp(opt_iu, "code"))
            usage("--iu %s: plan or code", opt_iu);
        if (opt_passes && strcmp(opt_passes, "plain") && strcmp(opt_passes, "overlapped"))
            usage("--passes %s: plain or overlapped", opt_passes);
        char *set = g_strdup_printf("gpu.sms=%u", sg->p * sg->p);
        char *cbs = g_strdup_printf("spu_cb.bytes=%" G_GINT64_FORMAT, opt_cb * 1024);
        if (!cfg_set(run->config, set, &gerr) || !cfg_set(run->config, cbs, &gerr))
            usage("%s", gerr->message);
        g_free(set);
        g_free(cbs);
        if (opt_corrupt && !cfg_set(run->config, "spu_ctl.selftest_no_swap=true", &gerr))
            usage("%s", gerr->message);
        if (opt_iu_path && strcmp(opt_iu_path, "ideal") && strcmp(opt_iu_path, "icnt"))
            usage("--iu-path %s: ideal or icnt", opt_iu_path);
        if (opt_iu_path && !strcmp(opt_iu_path, "icnt") && !cfg_set(run->config, "spu_iu.icnt_path=1", &gerr))
            usage("%s", gerr->message);
        /* an SM standing in as an interface unit (partial passes) leaks as the SM it is */
        for (unsigned k = 0; G % sg->p && k < 2 * sg->p; k++) {
            char *leak =
                g_strdup_printf("%s.smiu_%s%u.p_leak=0", sg->inst->path, k < sg->p ? "e" : "s", k % sg->p);
            if (!cfg_set_from(run->config, leak, "tb-spu", &gerr))
                usage("%s", gerr->message);
            g_free(leak);
        }
    }
    machine *mach = machine_new(MACHINE_GPU, run->ctx, run->top->mod);
    if (sg && opt_iu_path && !strcmp(opt_iu_path, "icnt"))
        gpu_topo_set_clients(machine_gpu(mach), spu_grid_mem_clients(sg, G));
    bool subcore;
    char *sm_path = machine_sm_path(mach, &subcore);
    tb_opts o = {0};
    char grid[32], block[32];
    snprintf(grid, sizeof grid, "%u,%u", G, G);
    snprintf(block, sizeof block, "%u,%u", T, T);
    o.ptx = g_build_filename(opt_ptx_dir ? opt_ptx_dir : GPUSC_SRC_SPU_DIR, "spu_stencil.ptx", NULL);
    o.entry = gpu ? "gpu_stencil" : local ? "spu_stencil_local" : "spu_stencil_global";
    o.grid = grid;
    o.block = block;
    o.run = NULL;
    const char *iu_ptx = opt_iu_ptx ? opt_iu_ptx : GPUSC_SRC_SPU_DIR "/spu_iu.ptx";
    if (sg && opt_iu && !strcmp(opt_iu, "code") && G % sg->p) /* partial passes: the SMs run IU code too */
        tb_kernel_extra_ptx = iu_ptx;
    tb_kernel *k = tb_kernel_load(&o, NULL, sm_path, subcore);
    g_free(sm_path);
    sm_env *env = tb_kernel_env(k, machine_n_sms(mach));
    machine_build(mach, env);
    offchip_probe probe = {0};
    if (sg) {
        spu_grid_passes(sg, machine_dispatch(mach), G, KT,
                        local && (!opt_passes || !strcmp(opt_passes, "overlapped")));
        if (!local)
            spu_grid_set_global(sg);
        spu_grid_build(sg, machine_gpu(mach), env);
    } else {
        sm_topo **sms = machine_sms(mach);
        for (unsigned i = 0; i < machine_n_sms(mach); i++)
            blk_bind_stub(sm_topo_issue(sms[i])->inst, "issued", &probe_table, &probe);
    }
    tb_machine *m = tb_machine_new(run, env, machine_dispatch(mach), machine_sms(mach), machine_n_sms(mach));
    tb_machine_watchdog(m, run->top->mod, opt_watchdog > 0 ? (uint64_t)opt_watchdog : 0);
    tb_machine_set_dump(m, machine_dump_state, mach);

    /* inputs (seeded), device arrays */
    size_t nn = (size_t)N * N, nk = (size_t)N * K;
    float *A = g_new(float, nn), *Bf = g_new(float, nk), *Cf = g_new(float, nk);
    GRand *rnd = g_rand_new_with_seed((guint32)seed);
    for (size_t i = 0; i < nn; i++)
        A[i] = (float)g_rand_double(rnd);
    for (size_t i = 0; i < nk; i++) {
        Bf[i] = (float)g_rand_double(rnd);
        Cf[i] = (float)g_rand_double(rnd);
    }
    g_rand_free(rnd);
    wl_device *dev = tb_machine_device(m);
    uint64_t dA = dev->ops->alloc(dev, nn * 4), dHb = dev->ops->alloc(dev, nn * 4);
    uint64_t dX = dev->ops->alloc(dev, (G + 1) * nk * 4), dY = dev->ops->alloc(dev, (G + 1) * nk * 4);
    uint64_t dDone = dev->ops->alloc(dev, (size_t)G * G * 4);
    GString *err = g_string_new(NULL);
    if (dev->ops->write(dev, dA, A, nn * 4, err) || dev->ops->write(dev, dX, Cf, nk * 4, err) ||
        dev->ops->write(dev, dY, Bf, nk * 4, err))
        usage("%s", err->str);
    spu_iu_guard *guard = NULL;
    if (sg) { /* the faces between passes are the spill region: poisoned (NaN) until spilled */
        float *nan = g_new(float, nk);
        for (size_t i = 0; i < nk; i++)
            nan[i] = NAN;
        for (unsigned ft = 1; ft < G; ft++)
            if (dev->ops->write(dev, dX + (uint64_t)ft * nk * 4, nan, nk * 4, err) ||
                dev->ops->write(dev, dY + (uint64_t)ft * nk * 4, nan, nk * 4, err))
                usage("%s", err->str);
        g_free(nan);
        guard = g_new0(spu_iu_guard, 2 * sg->ps.P * sg->ps.P * sg->p);
        plan_ius(sg, N, K, b, dX, dY, local, guard);
        if (opt_iu && !strcmp(opt_iu, "code")) { /* the guard counters of the VIU code: zero */
            size_t n_ctr = 2 * (size_t)sg->ps.P * sg->ps.P * sg->p;
            uint32_t *zero = g_new0(uint32_t, n_ctr);
            uint64_t dG = dev->ops->alloc(dev, n_ctr * 4);
            if (dev->ops->write(dev, dG, zero, n_ctr * 4, err))
                usage("%s", err->str);
            g_free(zero);
            code_ius(sg, iu_ptx, N, K, b, dX, dY, dG, local, env->mod);
        }
    }
    power_trace *pt = opt_power_trace ? power_trace_new(run, sg) : NULL;
    cli_elaborate(run);

    wl_arg args_spu[] = {WL_PTR(dA), WL_PTR(dHb), WL_S32((int)N), WL_S32((int)K), WL_S32((int)b)};
    wl_arg args_gpu[] = {WL_PTR(dA),    WL_PTR(dHb),    WL_PTR(dX),     WL_PTR(dY),
                         WL_PTR(dDone), WL_S32((int)N), WL_S32((int)K), WL_S32((int)b)};
    wl_launch L = {.entry = o.entry,
                   .grid = {G, G, 1},
                   .block = {T, T, 1},
                   .args = gpu ? args_gpu : args_spu,
                   .n_args = gpu ? G_N_ELEMENTS(args_gpu) : G_N_ELEMENTS(args_spu)};
    int rc = dev->ops->launch(dev, &L, err) ? TB_EXIT_RUN : TB_EXIT_OK;
    /* the controller's watchdog (a blocksync deadlock or count mismatch) says why the run stopped */
    const char *bs_fault = sg ? spu_ctl_fault(sg->ctl) : NULL;
    if (bs_fault)
        rc = TB_EXIT_RUN;
    else if (rc)
        fprintf(stderr, "gpusc: %s\n", err->str);
    /* The kernel ends when the interface units have stored the last faces too (the CTAs end first). */
    for (uint64_t waited = 0; rc == 0 && sg && !spu_grid_ius_done(sg); waited++) {
        if ((bs_fault = spu_ctl_fault(sg->ctl)) != NULL) {
            rc = TB_EXIT_RUN;
            break;
        }
        if (waited == (uint64_t)opt_watchdog && opt_watchdog > 0) {
            fprintf(stderr,
                    "gpusc: tb-spu: the interface units did not finish %" PRIu64 " cycles after the CTAs\n",
                    waited);
            rc = TB_EXIT_RUN;
            break;
        }
        gsc_run(1);
    }
    if (bs_fault)
        fprintf(stderr, "gpusc: %s\n", bs_fault);
    const char *fault = machine_fault(mach);
    if (fault && rc == 0) {
        fprintf(stderr, "gpusc: %s\n", fault);
        rc = TB_EXIT_RUN;
    }
    uint64_t cycles = gsc_cycle();
    if (pt && !power_trace_close(pt, cycles) && rc == 0)
        rc = TB_EXIT_RUN;
    uint64_t bad = 0;
    if (rc == 0) {
        float *Hb = g_new(float, nn), *E = g_new(float, nk), *S = g_new(float, nk);
        float *rHb = g_new(float, nn), *rE = g_new(float, nk), *rS = g_new(float, nk);
        if (dev->ops->read(dev, dHb, Hb, nn * 4, err) ||
            dev->ops->read(dev, dX + (uint64_t)G * nk * 4, E, nk * 4, err) ||
            dev->ops->read(dev, dY + (uint64_t)G * nk * 4, S, nk * 4, err))
            usage("%s", err->str);
        reference(N, K, A, Bf, Cf, rHb, rE, rS);
        bad = compare("H[.,.,K-1]", Hb, rHb, nn) + compare("H[N-1,.,.] (east face)", E, rE, nk) +
              compare("H[.,N-1,.] (south face)", S, rS, nk);
        if (bad) {
            fprintf(stderr, "gpusc: tb-spu: %" PRIu64 " wrong output values\n", bad);
            rc = TB_EXIT_RUN;
        }
        g_free(Hb), g_free(E), g_free(S), g_free(rHb), g_free(rE), g_free(rS);
    }
    cli_finish(run, cycles);
    tb_machine_summary(m, stdout);
    machine_summary(mach, stdout);
    double n = N, kk = K, bb = b;
    uint64_t offchip;
    if (sg) {
        spu_grid_summary(sg, stdout);
        if (opt_iu && !strcmp(opt_iu, "code")) {
            uint64_t ins = 0;
            for (unsigned side = 0; side < 4; side++)
                for (unsigned idx = 0; idx < sg->p; idx++)
                    ins += blk_stat_get(spu_grid_iu(sg, (spu_side)side, idx)->inst, SPU_IU_STAT_INSTRS);
            printf("spu: interface units ran IU code: %" PRIu64 " warp instructions\n", ins);
        }
        offchip = spu_grid_offchip(sg);
        unsigned P = sg->ps.P;
        printf("offchip_accesses %" PRIu64
               "  (closed form 4PNK + 2N^2 = %.0f, P = %u; lower bound 4NK + 2N^2 = %.0f; "
               "GPU bound 4N^2K/b + 2N^2 = %.0f)\n",
               offchip, 4.0 * P * n * kk + 2 * n * n, P, 4 * n * kk + 2 * n * n,
               4 * n * n * kk / bb + 2 * n * n);
        printf("cb_accesses %" PRIu64 "  (elements; CB_ACC)\n", spu_grid_cb_accesses(sg));
    } else {
        offchip = probe.loads + probe.stores;
        printf("offchip_accesses %" PRIu64 "  (SM loads %" PRIu64 ", stores %" PRIu64
               "; GPU bound 4N^2K/b + 2N^2 = %.0f; lower bound 4NK + 2N^2 = %.0f)\n",
               offchip, probe.loads, probe.stores, 4 * n * n * kk / bb + 2 * n * n, 4 * n * kk + 2 * n * n);
    }
    printf("tb-spu: %s %ux%ux%u b %u: cycles %" PRIu64 " tiles %u: %s\n", gpu ? "gpu" : "spu", N, N, K, b,
           cycles, G * G * KT, rc == 0 ? "PASS" : "FAIL");
    g_free(guard);
    return tb_exit_status(rc);
}
