/* gtkw.h — GTKWave save files (.gtkw) beside a run's VCD.
 *
 * The save file names the VCD ([dumpfile]) and itself ([savefile], so that GTKWave finds the VCD
 * relative to it when both were moved together), starts the view where the dump starts ([timestart]: 0,
 * or the first cycle of a --trace-window), zooms so that the first 256 cycles (or the whole dump if
 * shorter) fill the wave pane, places no marker, and lists the traced signals grouped by block: one
 * collapsible group per block instance (or per channel: a latch's fields, a FIFO's put strobe,
 * fields and occupancy), signals in trace order,
 * 1-bit signals in binary, vectors in hex. Groups are open while they fit on one screen (32 rows),
 * later ones start closed. Signal names are written as GTKWave names them: the full hierarchical
 * name found in the VCD (with its top scope) and, for vectors, the bit range
 * ("tb.alu.occupancy[7:0]").
 */
#ifndef GPUSC_MODELS_CORE_GTKW_H
#define GPUSC_MODELS_CORE_GTKW_H

#include <glib.h>
#include <stdbool.h>

#include <stdint.h>

G_BEGIN_DECLS

typedef struct {
    const char *name; /* full dotted name as traced ("tb.alu.occupancy") */
    unsigned width;
} gtkw_signal;

/* Write gtkw_path for the signals. If vcd_path can be read, names are mapped to the VCD's
 * hierarchical names; otherwise the traced names are used as they are. A signal is grouped under
 * its name minus the last component (its block instance, or its latch for a latch field). */
bool gtkw_write(const char *gtkw_path, const char *vcd_path, uint64_t period_ps, const gtkw_signal *sigs,
                unsigned n, GError **err);
/* The same for everything traced in the current simulation (gsc_trace_count/name/width). */
bool gtkw_write_traced(const char *gtkw_path, const char *vcd_path, uint64_t period_ps, GError **err);
/* GTKWave's zoom value that shows span_units time units across wave_pixels pixels (GTKWave draws
 * 2^-zoom units per 200 pixels). */
double gtkw_zoom_for_span(uint64_t span_units, unsigned wave_pixels);
/* The group (block instance or channel) a traced name belongs to; to g_free. */
char *gtkw_group_of(const char *name);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_GTKW_H */
