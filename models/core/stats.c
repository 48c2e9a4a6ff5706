/* stats.c — text and JSON dumps of statistics. */
#include "models/core/stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "models/core/energy.h"

typedef struct {
    char *name, *value;
    const char *unit, *meaning;
} stat_row;

static char *format_derived(double v)
{
    if (!isfinite(v))
        return g_strdup("nan");
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.4f", v));
}

static void rows_add(GArray *rows, char *name, char *value, const char *unit, const char *meaning)
{
    stat_row r = {name, value, unit ? unit : "", meaning ? meaning : ""};
    g_array_append_val(rows, r);
}

/* The energy figures of an instance (energy.h), after its counters: one per event, one per leakage
 * state, and its dynamic and leakage totals; all pJ. */
typedef struct {
    char *name; /* relative to the instance */
    const char *meaning;
    double pj;
} energy_fig;

static GArray *energy_figs(const blk_inst *inst, uint64_t cycles)
{
    GArray *a = g_array_new(FALSE, TRUE, sizeof(energy_fig));
    const blk_energy_desc *e = inst->desc->energy;
    if (!e)
        return a;
    uint64_t period = gsc_clock_period_ps(blk_ctx_clock(inst->ctx));
    for (unsigned i = 0; i < e->n_events; i++) {
        energy_fig f = {g_strdup_printf("energy.%s", e->events[i].name),
                        "dynamic energy: events x energy per event", blk_energy_event_pj(inst, i)};
        g_array_append_val(a, f);
    }
    for (unsigned i = 0; i < e->n_leak; i++) {
        /* a second entry in the same state is named after its parameter too (leak_on_table) */
        bool again = false;
        for (unsigned j = 0; j < i; j++)
            again |= e->leak[j].state == e->leak[i].state;
        const char *p = e->leak[i].param;
        energy_fig f = {again ? g_strdup_printf("energy.leak_%s_%s", blk_power_state_name(e->leak[i].state),
                                                g_str_has_prefix(p, "p_leak_") ? p + 7 : p)
                              : g_strdup_printf("energy.leak_%s", blk_power_state_name(e->leak[i].state)),
                        "leakage energy in this power state: unit-cycles x period x leakage power",
                        blk_energy_leak_pj(inst, i, cycles, period)};
        g_array_append_val(a, f);
    }
    blk_energy t = blk_inst_energy(inst, cycles);
    energy_fig d = {g_strdup("energy_dynamic"), "dynamic energy of the block", t.dynamic_pj};
    energy_fig l = {g_strdup("energy_leakage"), "leakage energy of the block", t.leakage_pj};
    g_array_append_val(a, d);
    g_array_append_val(a, l);
    return a;
}

static void energy_figs_free(GArray *a)
{
    for (unsigned i = 0; i < a->len; i++)
        g_free(g_array_index(a, energy_fig, i).name);
    g_array_free(a, TRUE);
}

/* The run's energy totals (when some block declares energy): name, meaning, pJ; then the dynamic
 * energy of each power component some block's events feed (energy.h), named energy_dynamic.<comp>
 * in `keys`. */
enum { ENERGY_ROWS = 3 + BLK_COMP_N };
typedef char energy_key[32];
static unsigned energy_totals(const blk_ctx *ctx, uint64_t cycles, const char *names[ENERGY_ROWS],
                              const char *meanings[ENERGY_ROWS], double v[ENERGY_ROWS],
                              energy_key keys[BLK_COMP_N])
{
    if (!blk_ctx_has_energy(ctx))
        return 0;
    blk_energy t = blk_ctx_energy(ctx, cycles);
    names[0] = "energy_dynamic", meanings[0] = "dynamic energy, all blocks", v[0] = t.dynamic_pj;
    names[1] = "energy_leakage", meanings[1] = "leakage energy, all blocks", v[1] = t.leakage_pj;
    names[2] = "energy_total", meanings[2] = "dynamic + leakage energy, all blocks",
    v[2] = t.dynamic_pj + t.leakage_pj;
    double pj[BLK_COMP_N];
    unsigned fed = blk_ctx_energy_components(ctx, pj), n = 3;
    for (unsigned c = BLK_COMP_FIRST; c < BLK_COMP_N; c++)
        if (fed & (1u << c)) {
            g_snprintf(keys[c], sizeof keys[c], "energy_dynamic.%s", blk_power_comp_name(c));
            names[n] = keys[c], meanings[n] = "dynamic energy of the power component, all blocks",
            v[n++] = pj[c];
        }
    return n;
}

static GArray *collect_rows(const blk_ctx *ctx, uint64_t cycles)
{
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(stat_row));
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        for (unsigned s = 0; s < inst->desc->n_stats; s++) {
            const blk_stat_desc *sd = &inst->desc->stats[s];
            char *value = sd->kind == BLK_STAT_COUNTER ? g_strdup_printf("%" G_GUINT64_FORMAT, inst->stats[s])
                                                       : format_derived(blk_stat_value(inst, s));
            rows_add(rows, g_strdup_printf("%s.%s", inst->path, sd->name), value, sd->unit, sd->meaning);
        }
        GArray *ef = energy_figs(inst, cycles);
        for (unsigned f = 0; f < ef->len; f++) {
            const energy_fig *x = &g_array_index(ef, energy_fig, f);
            rows_add(rows, g_strdup_printf("%s.%s", inst->path, x->name), format_derived(x->pj), "pJ",
                     x->meaning);
        }
        energy_figs_free(ef);
    }
    for (unsigned i = 0; i < blk_ctx_n_derived(ctx); i++) {
        const char *name, *unit, *meaning;
        double v;
        blk_ctx_derived(ctx, i, &name, &unit, &meaning, &v);
        rows_add(rows, g_strdup(name), format_derived(v), unit, meaning);
    }
    const char *en[ENERGY_ROWS], *em[ENERGY_ROWS];
    double ev[ENERGY_ROWS];
    energy_key keys[BLK_COMP_N];
    for (unsigned i = 0, n = energy_totals(ctx, cycles, en, em, ev, keys); i < n; i++)
        rows_add(rows, g_strdup(en[i]), format_derived(ev[i]), "pJ", em[i]);
    return rows;
}

void stats_dump_text(const blk_ctx *ctx, uint64_t cycles, FILE *out)
{
    GArray *rows = collect_rows(ctx, cycles);
    int wn = 0, wv = 0, wu = 0;
    for (unsigned i = 0; i < rows->len; i++) {
        const stat_row *r = &g_array_index(rows, stat_row, i);
        wn = MAX(wn, (int)strlen(r->name));
        wv = MAX(wv, (int)strlen(r->value));
        wu = MAX(wu, (int)strlen(r->unit));
    }
    fprintf(out, "# statistics after %" G_GUINT64_FORMAT " cycles\n", cycles);
    if (blk_ctx_partial(ctx))
        fprintf(out, "# partial: %s\n", blk_ctx_partial(ctx));
    for (unsigned i = 0; i < rows->len; i++) {
        stat_row *r = &g_array_index(rows, stat_row, i);
        fprintf(out, "%-*s  %*s  %-*s  # %s\n", wn, r->name, wv, r->value, wu, r->unit, r->meaning);
        g_free(r->name);
        g_free(r->value);
    }
    g_array_free(rows, TRUE);
}

/* ---- JSON by hand: strings escaped per RFC 8259 ---- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    fputs(g_ascii_formatd(buf, sizeof buf, "%.17g", v), out);
}

static void json_stat(FILE *out, const char *name, const char *unit, const char *meaning, bool is_int,
                      uint64_t ival, double dval, bool last)
{
    fputs("        ", out);
    json_string(out, name);
    fputs(": {\"value\": ", out);
    if (is_int)
        fprintf(out, "%" G_GUINT64_FORMAT, ival);
    else
        json_number(out, dval);
    fputs(", \"unit\": ", out);
    json_string(out, unit ? unit : "");
    fputs(", \"meaning\": ", out);
    json_string(out, meaning ? meaning : "");
    fprintf(out, "}%s\n", last ? "" : ",");
}

void stats_dump_json(const blk_ctx *ctx, const char *program, uint64_t cycles, FILE *out)
{
    fputs("{\n  \"program\": ", out);
    json_string(out, program);
    fprintf(out, ",\n  \"cycles\": %" G_GUINT64_FORMAT ",\n", cycles);
    if (blk_ctx_partial(ctx)) {
        fputs("  \"partial\": ", out);
        json_string(out, blk_ctx_partial(ctx));
        fputs(",\n", out);
    }
    fputs("  \"instances\": [", out);
    unsigned n = blk_ctx_n_insts(ctx);
    for (unsigned i = 0; i < n; i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        fputs(i ? ",\n    {\"path\": " : "\n    {\"path\": ", out);
        json_string(out, inst->path);
        fputs(", \"type\": ", out);
        json_string(out, inst->desc->name);
        fputs(", \"stats\": {\n", out);
        GArray *ef = energy_figs(inst, cycles);
        for (unsigned s = 0; s < inst->desc->n_stats; s++) {
            const blk_stat_desc *sd = &inst->desc->stats[s];
            bool is_int = sd->kind == BLK_STAT_COUNTER;
            json_stat(out, sd->name, sd->unit, sd->meaning, is_int, inst->stats[s],
                      is_int ? 0.0 : blk_stat_value(inst, s), s + 1 == inst->desc->n_stats && ef->len == 0);
        }
        for (unsigned f = 0; f < ef->len; f++) {
            const energy_fig *x = &g_array_index(ef, energy_fig, f);
            json_stat(out, x->name, "pJ", x->meaning, false, 0, x->pj, f + 1 == ef->len);
        }
        energy_figs_free(ef);
        fputs("      }}", out);
    }
    fputs(n ? "\n  ],\n  \"derived\": {\n" : "],\n  \"derived\": {\n", out);
    const char *en[ENERGY_ROWS], *em[ENERGY_ROWS];
    double ev[ENERGY_ROWS];
    energy_key keys[BLK_COMP_N];
    unsigned ne = energy_totals(ctx, cycles, en, em, ev, keys);
    unsigned nd = blk_ctx_n_derived(ctx), last = nd;
    for (unsigned i = 0; i < nd && ne == 0; i++)
        if (!blk_ctx_derived_is_wallclock(ctx, i))
            last = i;
    for (unsigned i = 0; i < nd; i++) {
        const char *name, *unit, *meaning;
        double v;
        if (blk_ctx_derived_is_wallclock(ctx, i))
            continue; /* not deterministic */
        blk_ctx_derived(ctx, i, &name, &unit, &meaning, &v);
        json_stat(out, name, unit, meaning, false, 0, v, i == last);
    }
    for (unsigned i = 0; i < ne; i++)
        json_stat(out, en[i], "pJ", em[i], false, 0, ev[i], i + 1 == ne);
    fputs("  }\n}\n", out);
}

bool stats_write_json(const blk_ctx *ctx, const char *program, uint64_t cycles, const char *path,
                      GError **err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
        return false;
    }
    stats_dump_json(ctx, program, cycles, f);
    if (fclose(f) != 0) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", path, g_strerror(e));
        return false;
    }
    return true;
}
