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

/* The dynamic-power components of GPUWattch's power model (docs/energy.md, "Components"), plus the
 * SPU's communication buffers (CBP). Every energy event feeds exactly one; BLK_COMP_NONE (an event
 * left unmapped) is refused at registration. */
typedef enum {
    BLK_COMP_NONE,
    BLK_COMP_IBP,            /* instruction buffer */
    BLK_COMP_ICP,            /* instruction cache */
    BLK_COMP_DCP,            /* L1 data cache */
    BLK_COMP_TCP,            /* texture cache */
    BLK_COMP_CCP,            /* constant cache */
    BLK_COMP_SHRDP,          /* shared memory */
    BLK_COMP_RFP,            /* register file (banks, operand collectors, their caches and tables) */
    BLK_COMP_SPP,            /* SP execution units */
    BLK_COMP_SFUP,           /* special-function units */
    BLK_COMP_FPUP,           /* floating-point units */
    BLK_COMP_SCHEDP,         /* warp schedulers */
    BLK_COMP_L2CP,           /* L2 cache */
    BLK_COMP_MCP,            /* memory controllers */
    BLK_COMP_NOCP,           /* interconnect */
    BLK_COMP_DRAMP,          /* DRAM */
    BLK_COMP_PIPEP,          /* pipeline */
    BLK_COMP_IDLE_COREP,     /* cores idle for lack of work */
    BLK_COMP_CONST_DYNAMICP, /* constant dynamic power */
    BLK_COMP_CBP,            /* SPU communication buffers */
    BLK_COMP_N
} blk_power_comp;
#define BLK_COMP_FIRST BLK_COMP_IBP

/* "IBP" ... "CBP"; NULL for BLK_COMP_NONE or out of range. */
const char *blk_power_comp_name(blk_power_comp c);

typedef struct {
    const char *name;         /* "bank_read": the figure <instance>.energy.<name> */
    const char *stat;         /* the block's counter of these events ("bank_reads") */
    const char *param;        /* the block's DOUBLE parameter: energy per event, pJ ("e_bank_read") */
    blk_power_comp component; /* the power component the event's energy belongs to */
    /* NULL, or the block's UINT parameter that, when nonzero, sends these events through other
     * blocks that count their energy (an interface unit's off-chip accesses through the
     * interconnect, L2 and DRAM): the event then counts zero energy, so nothing is counted twice. */
    const char *elsewhere;
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
/* The dynamic energy of every instance of a context counted in the run's totals (not excluded with
 * BLK_ENERGY_NO_DYNAMIC), by component: pj[c] for c in BLK_COMP_FIRST .. BLK_COMP_N - 1 (pj[0] is
 * zero). The components sum to blk_ctx_energy's dynamic_pj. Returns the components some counted
 * event feeds (bit c: component c), zero or not: the others have no block in the machine. */
unsigned blk_ctx_energy_components(const blk_ctx *ctx, double pj[BLK_COMP_N]);
/* True when some instance of the context declares energy. */
gboolean blk_ctx_has_energy(const blk_ctx *ctx);

G_END_DECLS

#endif
