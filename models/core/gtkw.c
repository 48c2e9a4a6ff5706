/* gtkw.c — GTKWave save-file writer.
 *
 * Save-file syntax used: "[dumpfile]", "[timestart]", "[*]" comment lines; "@<flags>" sets the
 * display flags of the traces that follow: 0x22 hex + right-justified (vectors), 0x28 binary +
 * right-justified (bits), 0x800200 group begin, 0x1000200 group end; a "-name" line is a
 * blank/comment trace carrying the group's name.
 */
#include "models/core/gtkw.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "models/core/vcd.h"
#include "sc/gsc.h"

#define GTKW_FLAGS_HEX         "@22"
#define GTKW_FLAGS_BIN         "@28"
#define GTKW_FLAGS_GROUP_BEGIN "@800200"
#define GTKW_FLAGS_GROUP_END   "@1000200"

char *gtkw_group_of(const char *name)
{
    /* A block's state "tb.alu.occupancy" -> "tb.alu"; a latch field "tb.alu_out.value" -> the
     * latch "tb.alu_out". */
    const char *dot = strrchr(name, '.');
    return dot ? g_strndup(name, (gsize)(dot - name)) : g_strdup(name);
}

/* The name GTKWave shows for a traced signal. */
static char *gtkw_name(const vcd *v, const char *name, unsigned width)
{
    int sig = v ? vcd_find(v, name) : -1;
    if (sig >= 0) {
        const char *full = vcd_signal_name(v, (unsigned)sig);
        const char *range = vcd_signal_range(v, (unsigned)sig);
        unsigned w = vcd_signal_width(v, (unsigned)sig);
        if (range)
            return g_strconcat(full, range, NULL);
        if (w > 1 && !vcd_signal_is_real(v, (unsigned)sig))
            return g_strdup_printf("%s[%u:0]", full, w - 1);
        return g_strdup(full);
    }
    return width > 1 ? g_strdup_printf("%s[%u:0]", name, width - 1) : g_strdup(name);
}

static void write_body(FILE *f, const char *vcd_abs, uint64_t period_ps, const vcd *v,
                       const gtkw_signal *sigs, unsigned n)
{
    fprintf(f, "[*] GTKWave save file written by gpusc\n");
    fprintf(f, "[*] timescale 1 ps, clock period %" G_GUINT64_FORMAT " ps\n", period_ps);
    fprintf(f, "[dumpfile] \"%s\"\n", vcd_abs);
    fprintf(f, "[timestart] 0\n");
    fprintf(f, "[size] 1400 900\n");
    fprintf(f, "[sst_width] 260\n");
    fprintf(f, "[signals_width] 320\n");
    char *open_group = NULL;
    for (unsigned i = 0; i < n; i++) {
        char *group = gtkw_group_of(sigs[i].name);
        if (!open_group || strcmp(open_group, group) != 0) {
            if (open_group)
                fprintf(f, "%s\n-%s\n", GTKW_FLAGS_GROUP_END, open_group);
            fprintf(f, "%s\n-%s\n", GTKW_FLAGS_GROUP_BEGIN, group);
            g_free(open_group);
            open_group = group;
        } else {
            g_free(group);
        }
        char *name = gtkw_name(v, sigs[i].name, sigs[i].width);
        fprintf(f, "%s\n%s\n", sigs[i].width > 1 ? GTKW_FLAGS_HEX : GTKW_FLAGS_BIN, name);
        g_free(name);
    }
    if (open_group)
        fprintf(f, "%s\n-%s\n", GTKW_FLAGS_GROUP_END, open_group);
    g_free(open_group);
    fprintf(f, "[pattern_trace] 1\n[pattern_trace] 0\n");
}

bool gtkw_write(const char *gtkw_path, const char *vcd_path, uint64_t period_ps, const gtkw_signal *sigs,
                unsigned n, GError **err)
{
    vcd *v = vcd_load(vcd_path, NULL); /* best effort: only for the names */
    FILE *f = fopen(gtkw_path, "w");
    if (!f) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", gtkw_path, g_strerror(e));
        vcd_free(v);
        return false;
    }
    char *vcd_abs = g_canonicalize_filename(vcd_path, NULL);
    write_body(f, vcd_abs, period_ps, v, sigs, n);
    g_free(vcd_abs);
    vcd_free(v);
    if (fclose(f) != 0) {
        int e = errno;
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s: %s", gtkw_path, g_strerror(e));
        return false;
    }
    return true;
}

bool gtkw_write_traced(const char *gtkw_path, const char *vcd_path, uint64_t period_ps, GError **err)
{
    unsigned n = gsc_trace_count();
    gtkw_signal *sigs = g_new0(gtkw_signal, n ? n : 1);
    for (unsigned i = 0; i < n; i++)
        sigs[i] = (gtkw_signal){gsc_trace_signal_name(i), gsc_trace_signal_width(i)};
    bool ok = gtkw_write(gtkw_path, vcd_path, period_ps, sigs, n, err);
    g_free(sigs);
    return ok;
}
