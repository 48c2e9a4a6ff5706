/* tb_monitor.c — see tb_monitor.h. */
#include "testbench/tb_monitor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/core/stats.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"

#define MON_SLICE_MIN     256
#define MON_SLICE_MAX     (1u << 20)
#define MON_SLICE_SECONDS 0.1     /* a slice of about this much wall time */
#define MON_AUTO_AFTER_US 1000000 /* unasked, the line appears after a second */
#define MON_REDRAW_US     200000
#define MON_LOG_US        2000000 /* a new line this often when the line cannot be redrawn in place */

/* The counters read at each sample, per SM in this order, then the DRAM's, then the asked ones. */
enum {
    SM_WARP_INSTRS,
    SM_SLOT0, /* ISSUE_STAT_ISSUE_CYCLES .. ISSUE_STAT_STALL_VETOED, in the issue block's order */
    SM_CTA_CYCLES = SM_SLOT0 + ISSUE_STAT_STALL_VETOED - ISSUE_STAT_ISSUE_CYCLES + 1,
    SM_L1_HITS,
    SM_L1_MISSES,
    SM_L1_MERGED,
    SM_N
};
#define N_SLOTS (SM_CTA_CYCLES - SM_SLOT0)

/* Column names of the scheduler-cycle kinds, in the issue block's stat order. */
static const char *const slot_names[N_SLOTS] = {
    [ISSUE_STAT_ISSUE_CYCLES - ISSUE_STAT_ISSUE_CYCLES] = "issue_slot_use",
    [ISSUE_STAT_STALL_IDLE - ISSUE_STAT_ISSUE_CYCLES] = "stall_idle",
    [ISSUE_STAT_STALL_MEMORY - ISSUE_STAT_ISSUE_CYCLES] = "stall_memory",
    [ISSUE_STAT_STALL_SCOREBOARD - ISSUE_STAT_ISSUE_CYCLES] = "stall_scoreboard",
    [ISSUE_STAT_STALL_PIPELINE - ISSUE_STAT_ISSUE_CYCLES] = "stall_pipeline_busy",
    [ISSUE_STAT_STALL_BARRIER - ISSUE_STAT_ISSUE_CYCLES] = "stall_barrier",
    [ISSUE_STAT_STALL_NO_READY - ISSUE_STAT_ISSUE_CYCLES] = "stall_no_ready_warp",
    [ISSUE_STAT_STALL_CHECK - ISSUE_STAT_ISSUE_CYCLES] = "stall_check",
    [ISSUE_STAT_STALL_VETOED - ISSUE_STAT_ISSUE_CYCLES] = "stall_vetoed",
};

typedef struct {
    const blk_inst *inst;
    unsigned idx;
} mon_counter;

struct tb_monitor {
    cli_run *run;
    cta_dispatch *d;
    sm_topo **sms;
    unsigned n_sms;

    /* the progress line */
    int progress; /* 1, 0, -1 (auto) */
    FILE *out;
    bool in_place, drawn;
    const char *kernel;
    unsigned launch;
    gint64 t_run, t_launch, t_drawn;
    uint64_t c_launch, slice;

    /* the time series */
    FILE *csv;
    char *csv_path;
    uint64_t every, last_sample;
    GArray *counters; /* mon_counter: n_sms * SM_N, then DRAM reads and writes, then --sample-stats */
    unsigned n_dram, n_extra;
    uint64_t *prev;
};

static int stat_index(const blk_inst *inst, const char *name)
{
    for (unsigned s = 0; s < inst->desc->n_stats; s++)
        if (strcmp(inst->desc->stats[s].name, name) == 0 && inst->desc->stats[s].kind == BLK_STAT_COUNTER)
            return (int)s;
    return -1;
}

static void add_counter(tb_monitor *mon, const blk_inst *inst, unsigned idx)
{
    mon_counter c = {inst, idx};
    g_array_append_val(mon->counters, c);
}

static const mon_counter *counter(const tb_monitor *mon, unsigned i)
{
    return &g_array_index(mon->counters, mon_counter, i);
}

/* The counters of every sample, and the CSV's header. False with *problem on a bad option. */
static bool samples_open(tb_monitor *mon, const char *stats, char **problem)
{
    blk_ctx *ctx = mon->run->ctx;
    for (unsigned s = 0; s < mon->n_sms; s++) {
        const blk_inst *is = sm_topo_issue_inst(mon->sms[s]), *ld = sm_topo_ldst_inst(mon->sms[s]);
        add_counter(mon, is, ISSUE_STAT_WARP_INSTRS);
        for (unsigned k = 0; k < N_SLOTS; k++)
            add_counter(mon, is, ISSUE_STAT_ISSUE_CYCLES + k);
        add_counter(mon, is, ISSUE_STAT_CTA_CYCLES);
        add_counter(mon, ld, LDST_STAT_L1_HITS);
        add_counter(mon, ld, LDST_STAT_L1_MISSES);
        add_counter(mon, ld, LDST_STAT_L1_MERGED);
    }
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        int r = stat_index(inst, "reads"), w = stat_index(inst, "writes");
        if (strcmp(inst->desc->name, "dram") == 0 && r >= 0 && w >= 0) {
            add_counter(mon, inst, (unsigned)r);
            add_counter(mon, inst, (unsigned)w);
            mon->n_dram++;
        }
    }
    GString *extra_head = g_string_new(NULL);
    char **globs = g_strsplit(stats ? stats : "", ",", -1);
    for (unsigned g = 0; globs[g]; g++) {
        if (!*globs[g])
            continue;
        GPatternSpec *spec = g_pattern_spec_new(globs[g]);
        unsigned found = 0;
        for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
            const blk_inst *inst = blk_ctx_inst(ctx, i);
            for (unsigned s = 0; s < inst->desc->n_stats; s++) {
                if (inst->desc->stats[s].kind != BLK_STAT_COUNTER)
                    continue;
                char *name = g_strdup_printf("%s.%s", inst->path, inst->desc->stats[s].name);
                if (g_pattern_spec_match_string(spec, name)) {
                    add_counter(mon, inst, s);
                    g_string_append_printf(extra_head, ",%s", name);
                    mon->n_extra++;
                    found++;
                }
                g_free(name);
            }
        }
        g_pattern_spec_free(spec);
        if (!found) {
            *problem = g_strdup_printf("--sample-stats: '%s' matches no counter (instance.counter, e.g. "
                                       "'tb.sm0.ldst.l1_*'; --stats-json lists them)",
                                       globs[g]);
            break;
        }
    }
    g_strfreev(globs);
    if (*problem) {
        g_string_free(extra_head, TRUE);
        return false;
    }
    mon->prev = g_new0(uint64_t, mon->counters->len);

    mon->csv = fopen(mon->csv_path, "w");
    if (!mon->csv) {
        *problem = g_strdup_printf("--samples %s: %s", mon->csv_path, g_strerror(errno));
        g_string_free(extra_head, TRUE);
        return false;
    }
    fputs("cycle,ipc", mon->csv);
    for (unsigned k = 0; k < N_SLOTS; k++)
        fprintf(mon->csv, ",%s", slot_names[k]);
    fputs(",l1_hit_rate,resident_ctas_per_sm", mon->csv);
    if (mon->n_dram)
        fputs(",dram_requests_per_cycle", mon->csv);
    for (unsigned s = 0; s < mon->n_sms; s++)
        fprintf(mon->csv, ",sm%u.ipc,sm%u.l1_hit_rate,sm%u.resident_ctas", s, s, s);
    fprintf(mon->csv, "%s\n", extra_head->str);
    g_string_free(extra_head, TRUE);
    return true;
}

static void put_ratio(FILE *f, uint64_t a, uint64_t b)
{
    fprintf(f, ",%.6g", stats_ratio(a, b));
}

/* One row: the interval that ends before cycle `now`. */
static void sample(tb_monitor *mon, uint64_t now)
{
    unsigned n = mon->counters->len;
    uint64_t *d = g_newa(uint64_t, n);
    for (unsigned i = 0; i < n; i++) {
        const mon_counter *c = counter(mon, i);
        uint64_t v = blk_stat_get(c->inst, c->idx);
        d[i] = v - mon->prev[i];
        mon->prev[i] = v;
    }
    uint64_t dt = now - mon->last_sample;
    mon->last_sample = now;
    uint64_t tot[SM_N] = {0}, slots = 0;
    for (unsigned s = 0; s < mon->n_sms; s++)
        for (unsigned k = 0; k < SM_N; k++)
            tot[k] += d[s * SM_N + k];
    for (unsigned k = 0; k < N_SLOTS; k++)
        slots += tot[SM_SLOT0 + k];
    fprintf(mon->csv, "%" G_GUINT64_FORMAT, now);
    put_ratio(mon->csv, tot[SM_WARP_INSTRS], dt);
    for (unsigned k = 0; k < N_SLOTS; k++)
        put_ratio(mon->csv, tot[SM_SLOT0 + k], slots);
    put_ratio(mon->csv, tot[SM_L1_HITS], tot[SM_L1_HITS] + tot[SM_L1_MISSES] + tot[SM_L1_MERGED]);
    put_ratio(mon->csv, tot[SM_CTA_CYCLES], dt * mon->n_sms);
    unsigned base = mon->n_sms * SM_N;
    if (mon->n_dram) {
        uint64_t req = 0;
        for (unsigned i = 0; i < 2 * mon->n_dram; i++)
            req += d[base + i];
        put_ratio(mon->csv, req, dt);
    }
    for (unsigned s = 0; s < mon->n_sms; s++) {
        const uint64_t *v = &d[s * SM_N];
        put_ratio(mon->csv, v[SM_WARP_INSTRS], dt);
        put_ratio(mon->csv, v[SM_L1_HITS], v[SM_L1_HITS] + v[SM_L1_MISSES] + v[SM_L1_MERGED]);
        put_ratio(mon->csv, v[SM_CTA_CYCLES], dt);
    }
    for (unsigned i = 0; i < mon->n_extra; i++)
        fprintf(mon->csv, ",%" G_GUINT64_FORMAT, d[base + 2 * mon->n_dram + i]);
    fputc('\n', mon->csv);
}

tb_monitor *tb_monitor_new(cli_run *run, cta_dispatch *d, sm_topo **sms, unsigned n_sms, int progress,
                           const char *samples, uint64_t every, const char *stats, char **problem)
{
    *problem = NULL;
    if (every == 0 && (samples || stats)) {
        *problem = g_strdup("--samples and --sample-stats need --sample-every N");
        return NULL;
    }
    bool tty = isatty(STDOUT_FILENO);
    if (!every && (progress == 0 || (progress < 0 && !tty)))
        return NULL;
    tb_monitor *mon = g_new0(tb_monitor, 1);
    mon->run = run;
    mon->d = d;
    mon->sms = sms;
    mon->n_sms = n_sms;
    mon->progress = progress < 0 ? (tty ? -1 : 0) : progress;
    mon->out = tty ? stdout : stderr;
    mon->in_place = isatty(fileno(mon->out));
    mon->slice = 4096;
    mon->t_run = g_get_monotonic_time();
    mon->counters = g_array_new(FALSE, FALSE, sizeof(mon_counter));
    mon->every = every;
    if (every) {
        mon->csv_path = g_strdup(samples ? samples : "samples.csv");
        if (!samples_open(mon, stats, problem)) {
            tb_monitor_free(mon, NULL);
            return NULL;
        }
    }
    return mon;
}

static uint64_t warp_instrs(const tb_monitor *mon)
{
    uint64_t v = 0;
    for (unsigned s = 0; s < mon->n_sms; s++)
        v += blk_stat_get(sm_topo_issue_inst(mon->sms[s]), ISSUE_STAT_WARP_INSTRS);
    return v;
}

static void format_eta(char *buf, size_t n, double s)
{
    if (s < 0 || s > 1e7)
        snprintf(buf, n, "?");
    else if (s >= 3600)
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    else if (s >= 60)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%.0fs", s);
}

static void draw(tb_monitor *mon, bool force)
{
    gint64 now = g_get_monotonic_time();
    if (!mon->progress)
        return;
    if (mon->progress < 0 && now - mon->t_run < MON_AUTO_AFTER_US)
        return;
    if (!force && mon->drawn && now - mon->t_drawn < (mon->in_place ? MON_REDRAW_US : MON_LOG_US))
        return;
    double secs = (double)(now - mon->t_launch) / 1e6;
    uint64_t cycles = gsc_cycle();
    double speed = secs > 0 ? (double)(cycles - mon->c_launch) / secs : 0;
    uint32_t done = mon->d->completed, total = mon->d->total;
    char eta[32] = "?";
    if (done && total >= done)
        format_eta(eta, sizeof eta, secs * (double)(total - done) / done);
    fprintf(mon->out,
            "%s%s: %s (launch %u): cycle %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
            " warp instructions, CTAs %u/%u, %.0f cycles/s, ETA %s%s",
            mon->in_place ? "\r" : "", mon->run->program, mon->kernel, mon->launch, cycles, warp_instrs(mon),
            done, total, speed, eta, mon->in_place ? "\033[K" : "\n");
    fflush(mon->out);
    mon->drawn = true;
    mon->t_drawn = now;
}

void tb_monitor_run(tb_monitor *mon, const char *kernel, uint64_t limit)
{
    mon->kernel = kernel;
    mon->launch++;
    mon->t_launch = g_get_monotonic_time();
    mon->c_launch = gsc_cycle();
    for (;;) {
        uint64_t now = gsc_cycle(), step = mon->slice;
        if (mon->every)
            step = MIN(step, (now / mon->every + 1) * mon->every - now);
        if (limit) {
            if (now >= limit)
                break;
            step = MIN(step, limit - now);
        }
        gint64 t0 = g_get_monotonic_time();
        uint64_t reached = gsc_run(step);
        /* slices of about MON_SLICE_SECONDS of wall time */
        gint64 us = g_get_monotonic_time() - t0;
        if (reached - now == step && step == mon->slice) {
            if (us < MON_SLICE_SECONDS * 5e5 && mon->slice < MON_SLICE_MAX)
                mon->slice *= 2;
            else if (us > MON_SLICE_SECONDS * 2e6 && mon->slice > MON_SLICE_MIN)
                mon->slice /= 2;
        }
        if (mon->every && reached % mon->every == 0 && reached > mon->last_sample)
            sample(mon, reached);
        draw(mon, false);
        if (gsc_stopped() || reached < now + step)
            break;
    }
    if (mon->every && gsc_cycle() > mon->last_sample)
        sample(mon, gsc_cycle());
    if (mon->drawn && mon->in_place) {
        fputs("\r\033[K", mon->out);
        fflush(mon->out);
        mon->drawn = false;
    }
}

bool tb_monitor_free(tb_monitor *mon, char **problem)
{
    if (!mon)
        return true;
    bool ok = true;
    if (mon->csv && fclose(mon->csv) != 0 && problem) {
        *problem = g_strdup_printf("--samples %s: %s", mon->csv_path, g_strerror(errno));
        ok = false;
    }
    g_array_free(mon->counters, TRUE);
    g_free(mon->prev);
    g_free(mon->csv_path);
    g_free(mon);
    return ok;
}
