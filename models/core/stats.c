/* stats.c — text and JSON dumps of statistics. */
#include "models/core/stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

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

static GArray *collect_rows(const blk_ctx *ctx)
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
    }
    for (unsigned i = 0; i < blk_ctx_n_derived(ctx); i++) {
        const char *name, *unit, *meaning;
        double v;
        blk_ctx_derived(ctx, i, &name, &unit, &meaning, &v);
        rows_add(rows, g_strdup(name), format_derived(v), unit, meaning);
    }
    return rows;
}

void stats_dump_text(const blk_ctx *ctx, uint64_t cycles, FILE *out)
{
    GArray *rows = collect_rows(ctx);
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
        for (unsigned s = 0; s < inst->desc->n_stats; s++) {
            const blk_stat_desc *sd = &inst->desc->stats[s];
            bool is_int = sd->kind == BLK_STAT_COUNTER;
            json_stat(out, sd->name, sd->unit, sd->meaning, is_int, inst->stats[s],
                      is_int ? 0.0 : blk_stat_value(inst, s), s + 1 == inst->desc->n_stats);
        }
        fputs("      }}", out);
    }
    fputs(n ? "\n  ],\n  \"derived\": {\n" : "],\n  \"derived\": {\n", out);
    unsigned nd = blk_ctx_n_derived(ctx), last = nd;
    for (unsigned i = 0; i < nd; i++)
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
