/* vcd.h — a small VCD reader for tests and tools.
 *
 * Reads the header (timescale, nested scopes, $var declarations with widths, identifier codes
 * shared by several vars) and the value changes (scalars 0/1/x/z, vectors "b0101 id", reals
 * "r1.5 id", $dumpvars/$dumpall/$dumpon/$dumpoff blocks). Malformed input is rejected with an
 * error naming the line; the reader never crashes on bad input.
 *
 * Names: a signal's full name is its scopes and reference joined by '.', without the bit range
 * ("SystemC.tb.alu.out.value"). vcd_find also accepts the name without its top scope, so
 * "tb.alu.out.value" finds it.
 *
 * Values are strings: "0"/"1"/"x"/"z" for 1-bit signals, the bits MSB first (extended to the
 * declared width as the VCD rules say) for vectors, the number's text for reals.
 */
#ifndef GPUSC_MODELS_CORE_VCD_H
#define GPUSC_MODELS_CORE_VCD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define VCD_ERROR (vcd_error_quark())
GQuark vcd_error_quark(void);

typedef struct vcd vcd;

typedef struct {
    uint64_t time;     /* in timescale units */
    const char *value; /* owned by the vcd */
} vcd_change;

vcd *vcd_load(const char *path, GError **err);
/* `origin` names the text in messages. */
vcd *vcd_parse(const char *origin, const char *text, size_t len, GError **err);
void vcd_free(vcd *v);

/* The timescale in femtoseconds per unit (1 ps -> 1000). */
uint64_t vcd_timescale_fs(const vcd *v);
unsigned vcd_n_signals(const vcd *v);
const char *vcd_signal_name(const vcd *v, unsigned sig);
unsigned vcd_signal_width(const vcd *v, unsigned sig);
/* The bit range as declared ("[5:0]"), or NULL if the declaration had none. */
const char *vcd_signal_range(const vcd *v, unsigned sig);
bool vcd_signal_is_real(const vcd *v, unsigned sig);
/* Index of the signal with that full name (or that name without the top scope), or -1. */
int vcd_find(const vcd *v, const char *name);

/* Changes of a signal in time order (several vars sharing an identifier share their changes). */
unsigned vcd_n_changes(const vcd *v, unsigned sig);
vcd_change vcd_change_nth(const vcd *v, unsigned sig, unsigned i);
/* The value at time t (the last change at or before t), or NULL before the first change. */
const char *vcd_value_at_time(const vcd *v, unsigned sig, uint64_t t);
/* The value shown for clock cycle `cycle` (period in ps): the last change at or before
 * cycle * period (the writer puts a cycle's changes at its start; put/get counts and pulses fall
 * back to 0 half a cycle later, which this does not see). */
const char *vcd_value_at_cycle(const vcd *v, unsigned sig, uint64_t cycle, uint64_t period_ps);
/* The same as an integer; false if no value yet, or the value has x/z bits or is a real. */
bool vcd_uint_at_cycle(const vcd *v, unsigned sig, uint64_t cycle, uint64_t period_ps, uint64_t *out);
/* The cycle a time falls in. */
uint64_t vcd_time_to_cycle(const vcd *v, uint64_t t, uint64_t period_ps);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_VCD_H */
