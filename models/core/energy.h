/* energy.h — energy accounting from event counts (docs/energy.md).
 *
 * As GPUWattch and AccelWattch do, energy is computed from what the timing model counts: a block's
 * descriptor (blk_desc.energy) declares
 *   - its energy events: each is one of its counters (a bank read, a cache access, a DRAM access)
 *     and the parameter holding the energy of one event, in pJ; dynamic energy = count x energy;
 *   - its leakage per power state (ON, SLEEP, OFF): the parameter holding the leakage power of one
 *     unit in that state, in mW, and the counter of unit-cycles spent in the state (NULL: every unit
 *     is in that state for the whole run, the number of units being the parameter `units_param`,
 *     or 1); leakage energy = unit-cycles x period x power.
 * The energies and powers are ordinary parameters of the block (configurable, dumped with
 * --dump-config, their sources in their meanings); the built-in presets energy-40nm and energy-22nm
 * are tables of them per technology node. Nothing is counted on the hot path: the energies are
 * computed when the statistics are reported, as new figures beside the counters (stats.c).
 */
#ifndef GPUSC_MODELS_CORE_ENERGY_H
#define GPUSC_MODELS_CORE_ENERGY_H

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct blk_inst blk_inst;
typedef struct blk_ctx blk_ctx;

typedef enum { BLK_POWER_ON, BLK_POWER_SLEEP, BLK_POWER_OFF, BLK_POWER_N } blk_power_state;

typedef struct {
    const char *name;  /* "bank_read": the figure <instance>.energy.<name> */
    const char *stat;  /* the block's counter of these events ("bank_reads") */
    const char *param; /* the block's DOUBLE parameter: energy per event, pJ ("e_bank_read") */
} blk_energy_event;

typedef struct {
    blk_power_state state;
    const char *param; /* the block's DOUBLE parameter: leakage per unit in this state, mW */
    const char *stat;  /* the block's counter of unit-cycles in this state; NULL: all units, all cycles */
} blk_energy_leak;

typedef struct blk_energy_desc {
    const blk_energy_event *events;
    unsigned n_events;
    const blk_energy_leak *leak;
    unsigned n_leak;
    const char
        *units_param; /* UINT parameter: the leaking units (banks) for a leak without a stat; NULL: 1 */
} blk_energy_desc;

const char *blk_power_state_name(blk_power_state s); /* "on", "sleep", "off" */

/* Checks a descriptor's energy table against its counters and parameters (g_error naming the block
 * when one is missing or of the wrong type). blk_registry_add calls it. */
void blk_energy_desc_check(const char *block, const void *desc);

/* Energy of event e of an instance (count x energy), pJ. */
double blk_energy_event_pj(const blk_inst *inst, unsigned e);
/* Leakage energy of entry l of an instance over a run of `cycles` cycles of `period_ps`, pJ. */
double blk_energy_leak_pj(const blk_inst *inst, unsigned l, uint64_t cycles, uint64_t period_ps);

typedef struct {
    double dynamic_pj, leakage_pj;
} blk_energy;
/* One instance (zero for a block without an energy table), and every instance of a context; the
 * period is the context's clock's. */
blk_energy blk_inst_energy(const blk_inst *inst, uint64_t cycles);
blk_energy blk_ctx_energy(const blk_ctx *ctx, uint64_t cycles);
/* The run's totals count each part of the machine once. A block whose energy figures describe what
 * another block's figures already count is left out of them (blk_ctx_energy; the block's own figures
 * are still reported): a power-management mechanism that models the register file's leakage in its
 * own states takes the leakage over from the register banks (BLK_ENERGY_NO_LEAKAGE on the banks), and
 * the same mechanism switched off, which only observes what the baseline would do, is left out
 * entirely (BLK_ENERGY_NO_DYNAMIC | BLK_ENERGY_NO_LEAKAGE), so that its run's totals are the
 * baseline's. The flags accumulate. */
enum { BLK_ENERGY_NO_DYNAMIC = 1, BLK_ENERGY_NO_LEAKAGE = 2 };
void blk_energy_exclude(blk_inst *inst, unsigned what);
unsigned blk_energy_excluded(const blk_inst *inst);
/* True when some instance of the context declares energy. */
gboolean blk_ctx_has_energy(const blk_ctx *ctx);

G_END_DECLS

#endif
