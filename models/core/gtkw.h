/* gtkw.h — GTKWave save files (.gtkw) beside a run's VCD.
 *
 * The save file names the VCD ([dumpfile]) and itself ([savefile], so that GTKWave finds the VCD
 * relative to it when both were moved together), starts the view where the dump starts ([timestart]: 0,
 * or the first cycle of a --trace-window), zooms so that the first 256 cycles (or the whole dump if
 * shorter) fill the wave pane, places no marker, and lists the traced signals grouped by block: one
 * collapsible group per block instance (or per channel: a latch's fields, a FIFO's put strobe,
 * fields and occupancy), nested in a group per numbered instance (an SM's blocks and channels in
 * "tb.gpu.sm3": see gtkw_instance_of), signals in trace order (blocks in pipeline order),
 * 1-bit signals in binary, vectors in hex. A group none of whose signals changed (every one
 * marked constant: a block that never acted, a channel nothing went through) starts closed and is
 * labelled "<name> (idle)", and so is an instance group all of whose groups are idle; the other
 * groups are open while they fit on one screen (32 rows), later ones start closed. Signal names are written as GTKWave names them: the full dotted name
 * and, for vectors, the bit range ("tb.alu.occupancy[7:0]"). Nothing is read back from the VCD.
 */
#ifndef GPUSC_MODELS_CORE_GTKW_H
#define GPUSC_MODELS_CORE_GTKW_H

#include <glib.h>
#include <stdbool.h>

#include <stdint.h>

#include "sc/gsc.h"

G_BEGIN_DECLS

typedef struct {
    const char *name; /* full dotted name as traced ("tb.alu.occupancy") */
    unsigned width;
    const char *group;  /* the group it is shown in; NULL: its name minus the last component */
    bool real;          /* a VCD real (no bit range) */
    const char *filter; /* a translate filter file showing its values by name (decimal), or NULL */
    bool decimal;       /* shown in decimal (the cycle counter) */
    bool constant;      /* it kept its start value through the dump (false: it changed, or unknown) */
} gtkw_signal;

/* What the view shows: the dump's first and last time (in its time units, timescale_fs each). */
typedef struct {
    uint64_t period_ps;
    uint64_t timescale_fs;
    uint64_t first, last;
} gtkw_view;

/* Write gtkw_path for the signals, named as they are given (GTKWave shows a vector with its bit
 * range). The VCD is not read: the names and the time range are what the tracer registered. */
bool gtkw_write(const char *gtkw_path, const char *vcd_path, const gtkw_view *view, const gtkw_signal *sigs,
                unsigned n, GError **err);
/* The same for everything traced in the current simulation (gsc_trace_count/name/width/group, the
 * dump's time range from gsc_trace_dump_range); a signal with an enumeration (gsc_trace_signal_enum)
 * is shown by name through the translate filter file <gtkw_path minus .gtkw>.<enum name>.filter,
 * written beside the view ("<value> <name>" per line, decimal values), the cycle counter in
 * decimal; a signal that kept its start value (gsc_trace_signal_changed false) is constant. */
bool gtkw_write_traced(const char *gtkw_path, const char *vcd_path, uint64_t period_ps, GError **err);
/* The same for the traced signals keep(name, ctx) accepts (every one: keep NULL), in trace order: a
 * mechanism testbench's focused view beside its waveform. The filter files are
 * <filter_base>.<enum name>.filter (gtkw_write_traced: the view's path minus .gtkw); the groups none
 * of whose chosen signals moved start closed, "(idle)", as in the full view. */
bool gtkw_write_traced_some(const char *gtkw_path, const char *vcd_path, uint64_t period_ps,
                            const char *filter_base, bool (*keep)(const char *name, void *ctx), void *ctx,
                            GError **err);
/* GTKWave's zoom value that shows span_units time units across wave_pixels pixels (GTKWave draws
 * 2^-zoom units per 200 pixels). */
double gtkw_zoom_for_span(uint64_t span_units, unsigned wave_pixels);
/* Write a translate filter file for e ("<value> <name>" for every value, decimal). */
bool gtkw_write_filter(const char *path, const gsc_enum *e, GError **err);
/* The group (block instance or channel) a traced name belongs to; to g_free. */
char *gtkw_group_of(const char *name);
/* The numbered instance (an SM, a sub-core) a group is nested in: the group's name up to its first
 * component that ends in a number, when the group lies below it ("tb.gpu.sm3.fetch" ->
 * "tb.gpu.sm3"); NULL when there is none ("tb.gpu.l2_0", "tb.alu"). To g_free. */
char *gtkw_instance_of(const char *group);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_GTKW_H */
