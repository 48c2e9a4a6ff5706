/* gtkw.c — GTKWave save-file writer.
 *
 * Save-file syntax used: "[dumpfile]", "[savefile]", "[timestart]", "[*]" comment lines; a
 * "*<zoom> <marker> <named markers>" line sets the zoom (GTKWave shows 2^-zoom time units per 200
 * pixels) and the markers (-1: none); "@<flags>" sets the display flags of the traces that follow: 0x22 hex +
 * right-justified (vectors), 0x28 binary + right-justified (bits), 0x800200 group begin (open),
 * 0xc00200 group begin (closed), 0x1000200 group end; a "-name" line is a blank/comment trace
 * carrying the group's name. Checked by opening the files in GTKWave 3.3.118 (docs/framework.md).
 */
#include "models/core/gtkw.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sc/gsc.h"

#define GTKW_FLAGS_HEX          "@22"
#define GTKW_FLAGS_BIN          "@28"
#define GTKW_FLAGS_DEC          "@24"
#define GTKW_FLAGS_FILTER       "@2024" /* decimal through a translate filter file */
#define GTKW_FLAGS_GROUP_BEGIN  "@800200"
#define GTKW_FLAGS_GROUP_CLOSED "@c00200"
#define GTKW_FLAGS_GROUP_END    "@1000200"

/* Window geometry written to the file; the wave pane is what is left of the width after the
 * signal search tree, the signal names and GTKWave's borders (measured: 780 px of 1400). */
#define GTKW_WINDOW_WIDTH     1400
#define GTKW_WINDOW_HEIGHT    900
#define GTKW_SST_WIDTH        260
#define GTKW_SIGNALS_WIDTH    320
#define GTKW_WAVE_PIXELS      (GTKW_WINDOW_WIDTH - GTKW_SST_WIDTH - GTKW_SIGNALS_WIDTH - 40)
#define GTKW_PIXELS_PER_FRAME 200.0 /* GTKWave's unit of zoom */
/* The initial view shows this many cycles from the start of the dump (or the whole run if it is
 * shorter): enough to see a few hundred cycles of pipeline activity. */
#define GTKW_VIEW_CYCLES 256
/* Groups stay open while the rows shown so far fit on a screen; later groups start closed (a
 * full tb-gpu trace has hundreds of signals), and open with a click on their name. */
#define GTKW_OPEN_ROWS 32
/* GTKWave's named markers (A-Z), none placed. */
#define GTKW_NAMED_MARKERS 26

char *gtkw_group_of(const char *name)
{
    /* A block's state "tb.alu.occupancy" -> "tb.alu"; a latch field "tb.alu_out.value" -> the
     * latch "tb.alu_out"; a FIFO's "tb.src_alu.put" (and fields, occupancy) -> the FIFO. */
    const char *dot = strrchr(name, '.');
    return dot ? g_strndup(name, (gsize)(dot - name)) : g_strdup(name);
}

/* The name GTKWave shows for a traced signal. */
static char *gtkw_name(const gtkw_signal *s)
{
    return s->width > 1 && !s->real ? g_strdup_printf("%s[%u:0]", s->name, s->width - 1) : g_strdup(s->name);
}

char *gtkw_instance_of(const char *group)
{
    /* "tb.gpu.sm3.fetch" -> "tb.gpu.sm3": the name up to its first component that ends in a
     * number, when the group lies below that component. */
    for (const char *p = group, *dot; (dot = strchr(p, '.')); p = dot + 1)
        if (dot > p && g_ascii_isdigit(dot[-1]))
            return g_strndup(group, (gsize)(dot - group));
    return NULL;
}

static bool same_string(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static char *signal_group(const gtkw_signal *s)
{
    return s->group ? g_strdup(s->group) : gtkw_group_of(s->name);
}

static bool same_group(const gtkw_signal *s, const char *group)
{
    char *g = signal_group(s);
    bool same = strcmp(g, group) == 0;
    g_free(g);
    return same;
}

/* Whether every signal from i on that lies in instance (up to the first that does not) is constant:
 * nothing in that SM (or other numbered instance) changed. */
static bool instance_constant(const gtkw_signal *sigs, unsigned n, unsigned i, const char *instance)
{
    for (; i < n; i++) {
        char *group = signal_group(&sigs[i]);
        char *inst = gtkw_instance_of(group);
        bool inside = same_string(inst, instance);
        g_free(inst);
        g_free(group);
        if (!inside)
            break;
        if (!sigs[i].constant)
            return false;
    }
    return true;
}

/* A group's first or last line: its flags, then its name (marked idle when nothing in it changed). */
static void group_line(FILE *f, const char *flags, const char *name, bool idle)
{
    fprintf(f, "%s\n-%s%s\n", flags, name, idle ? " (idle)" : "");
}

double gtkw_zoom_for_span(uint64_t span_units, unsigned wave_pixels)
{
    /* GTKWave draws 2^-zoom units per 200 pixels; pick the zoom that fits span in the pane. */
    double span = span_units ? (double)span_units : 1.0;
    return -log2(span * GTKW_PIXELS_PER_FRAME / (double)wave_pixels);
}

/* "[timestart]" and the zoom line: the view starts where the dump starts (the trace window's
 * first cycle) and spans GTKW_VIEW_CYCLES cycles or the whole dump, whichever is shorter. */
static void write_view(FILE *f, const gtkw_view *v)
{
    uint64_t unit_fs = v->timescale_fs ? v->timescale_fs : 1000;
    uint64_t period_units = v->period_ps * 1000 / unit_fs;
    uint64_t first = v->first, last = v->last;
    uint64_t span = GTKW_VIEW_CYCLES * (period_units ? period_units : 1);
    if (last > first && last - first < span)
        span = last - first + (period_units ? period_units : 1);
    fprintf(f, "[timestart] %" G_GUINT64_FORMAT "\n", first);
    fprintf(f, "*%.6f -1", gtkw_zoom_for_span(span, GTKW_WAVE_PIXELS));
    for (int i = 0; i < GTKW_NAMED_MARKERS; i++)
        fprintf(f, " -1");
    fprintf(f, "\n");
}

static void write_body(FILE *f, const char *vcd_abs, const char *gtkw_abs, const gtkw_view *v,
                       const gtkw_signal *sigs, unsigned n)
{
    fprintf(f, "[*] GTKWave save file written by gpusc\n");
    fprintf(f, "[*] timescale %" G_GUINT64_FORMAT " fs, clock period %" G_GUINT64_FORMAT " ps\n",
            v->timescale_fs ? v->timescale_fs : 1000, v->period_ps);
    fprintf(f, "[dumpfile] \"%s\"\n", vcd_abs);
    /* With its own path recorded, GTKWave finds the VCD relative to the save file when the pair
     * has been moved or copied elsewhere (without it, it exits: "Could not initialize"). */
    fprintf(f, "[savefile] \"%s\"\n", gtkw_abs);
    write_view(f, v);
    fprintf(f, "[size] %d %d\n", GTKW_WINDOW_WIDTH, GTKW_WINDOW_HEIGHT);
    fprintf(f, "[sst_width] %d\n", GTKW_SST_WIDTH);
    fprintf(f, "[signals_width] %d\n", GTKW_SIGNALS_WIDTH);
    GPtrArray *filters = g_ptr_array_new();
    char *open_group = NULL;
    char *open_instance = NULL; /* the SM (or other numbered instance) whose group is open */
    bool group_idle = false, instance_idle = false; /* nothing in them changed: closed, "(idle)" */
    unsigned rows = 0; /* rows shown so far: a group's two brace rows and, if open, its signals */
    bool closed = false;
    bool hidden = false; /* inside a closed instance group: its block groups take no rows */
    for (unsigned i = 0; i < n; i++) {
        char *group = signal_group(&sigs[i]);
        if (!open_group || strcmp(open_group, group) != 0) {
            if (open_group)
                group_line(f, GTKW_FLAGS_GROUP_END, open_group, group_idle);
            char *instance = gtkw_instance_of(group);
            if (!same_string(instance, open_instance)) {
                if (open_instance)
                    group_line(f, GTKW_FLAGS_GROUP_END, open_instance, instance_idle);
                hidden = false;
                instance_idle = instance && instance_constant(sigs, n, i, instance);
                if (instance) {
                    if (!instance_idle)
                        closed = closed || (rows > 0 && rows + 2 > GTKW_OPEN_ROWS);
                    rows += 2;
                    hidden = closed || instance_idle;
                    group_line(f, hidden ? GTKW_FLAGS_GROUP_CLOSED : GTKW_FLAGS_GROUP_BEGIN, instance,
                               instance_idle);
                }
                g_free(open_instance);
                open_instance = instance;
            } else {
                g_free(instance);
            }
            unsigned members = 1;
            group_idle = sigs[i].constant;
            for (; i + members < n && same_group(&sigs[i + members], group); members++)
                group_idle = group_idle && sigs[i + members].constant;
            if (!group_idle)
                closed = closed || (rows > 0 && rows + 2 + members > GTKW_OPEN_ROWS);
            if (!hidden)
                rows += closed || group_idle ? 2 : 2 + members;
            group_line(f, closed || group_idle ? GTKW_FLAGS_GROUP_CLOSED : GTKW_FLAGS_GROUP_BEGIN, group,
                       group_idle);
            g_free(open_group);
            open_group = group;
        } else {
            g_free(group);
        }
        char *name = gtkw_name(&sigs[i]);
        if (sigs[i].filter) {
            /* GTKWave numbers the filter files of a save file from 1 */
            unsigned k = 0;
            while (k < filters->len && strcmp(g_ptr_array_index(filters, k), sigs[i].filter) != 0)
                k++;
            if (k == filters->len)
                g_ptr_array_add(filters, (gpointer)sigs[i].filter);
            fprintf(f, "%s\n^%u %s\n%s\n", GTKW_FLAGS_FILTER, k + 1, sigs[i].filter, name);
        } else {
            fprintf(f, "%s\n%s\n",
                    sigs[i].decimal     ? GTKW_FLAGS_DEC
                    : sigs[i].width > 1 ? GTKW_FLAGS_HEX
                                        : GTKW_FLAGS_BIN,
                    name);
        }
        g_free(name);
    }
    if (open_group)
        group_line(f, GTKW_FLAGS_GROUP_END, open_group, group_idle);
    if (open_instance)
        group_line(f, GTKW_FLAGS_GROUP_END, open_instance, instance_idle);
    g_free(open_group);
    g_free(open_instance);
    g_ptr_array_free(filters, TRUE);
    fprintf(f, "[pattern_trace] 1\n[pattern_trace] 0\n");
}

bool gtkw_write(const char *gtkw_path, const char *vcd_path, const gtkw_view *v, const gtkw_signal *sigs,
                unsigned n, GError **err)
{
    FILE *f = fopen(gtkw_path, "w");
    if (!f) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", gtkw_path, g_strerror(e));
        return false;
    }
    char *vcd_abs = g_canonicalize_filename(vcd_path, NULL);
    char *gtkw_abs = g_canonicalize_filename(gtkw_path, NULL);
    write_body(f, vcd_abs, gtkw_abs, v, sigs, n);
    g_free(gtkw_abs);
    g_free(vcd_abs);
    if (fclose(f) != 0) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", gtkw_path, g_strerror(e));
        return false;
    }
    return true;
}

bool gtkw_write_filter(const char *path, const gsc_enum *e, GError **err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        int errsv = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errsv), "%s: %s", path, g_strerror(errsv));
        return false;
    }
    fprintf(f, "# GTKWave translate filter: the values of '%s' by name (written by gpusc)\n", e->name);
    for (unsigned v = 0; v < e->count; v++) {
        const char *n = e->name_of(v);
        fprintf(f, "%u %s\n", v, n && *n ? n : "-");
    }
    if (fclose(f) != 0) {
        int errsv = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errsv), "%s: %s", path, g_strerror(errsv));
        return false;
    }
    return true;
}

bool gtkw_write_traced_some(const char *gtkw_path, const char *vcd_path, uint64_t period_ps,
                            const char *filter_base, bool (*keep)(const char *name, void *ctx), void *ctx,
                            GError **err)
{
    unsigned n = gsc_trace_count();
    gtkw_signal *sigs = g_new0(gtkw_signal, n ? n : 1);
    /* one filter file per enumeration, <filter_base>.<enum>.filter */
    GHashTable *files = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    bool ok = true;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (gsc_trace_signal_unused(i))
            continue; /* a FIFO's k-th item of a cycle, when no cycle put k + 1 items */
        const char *name = gsc_trace_signal_name(i);
        if (keep && !keep(name, ctx))
            continue;
        const gsc_enum *e = gsc_trace_signal_enum(i);
        char *file = NULL;
        if (e && !(file = g_hash_table_lookup(files, e))) {
            char *rel = g_strdup_printf("%s.%s.filter", filter_base, e->name);
            file = g_canonicalize_filename(rel, NULL);
            g_free(rel);
            g_hash_table_insert(files, (gpointer)e, file);
            if (ok && !gtkw_write_filter(file, e, err))
                ok = false;
        }
        sigs[k++] = (gtkw_signal){
            name, gsc_trace_signal_width(i),      gsc_trace_signal_group(i),   gsc_trace_signal_is_real(i),
            file, gsc_trace_signal_is_counter(i), !gsc_trace_signal_changed(i)};
    }
    gtkw_view view = {period_ps, 1000, 0, 0};
    gsc_trace_dump_range(&view.first, &view.last);
    ok = ok && gtkw_write(gtkw_path, vcd_path, &view, sigs, k, err);
    g_hash_table_destroy(files);
    g_free(sigs);
    return ok;
}

bool gtkw_write_traced(const char *gtkw_path, const char *vcd_path, uint64_t period_ps, GError **err)
{
    size_t base_len = g_str_has_suffix(gtkw_path, ".gtkw") ? strlen(gtkw_path) - 5 : strlen(gtkw_path);
    char *base = g_strndup(gtkw_path, base_len);
    bool ok = gtkw_write_traced_some(gtkw_path, vcd_path, period_ps, base, NULL, NULL, err);
    g_free(base);
    return ok;
}
