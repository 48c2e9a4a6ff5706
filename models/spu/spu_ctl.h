/* spu_ctl.h — the `spu_ctl` block: the SPU grid's controller (SPU spec §5-6, §12, §16;
 * docs/spu.md). Passive towards the SMs, with one process of its own for the rendezvous.
 *
 * Global blocksync: every unit of the grid (the p x p SMs' CTAs and the 4p interface units) must
 * arrive (the `bs` export: issue's bar.blocksync, an interface unit's round end) before any goes
 * on; a unit that has left (a CTA that ended, told through issue's warp_events; an interface unit
 * that finished, `leave`) no longer counts. `latency` cycles after the last arrival [A: SPU spec §6,
 * default 1] the controller releases every arrived unit (the `release` import, one binding per unit
 * in unit order: SMs 0..p²-1, then the interface units) and swaps every CB pair (the `cbs` import):
 * the runtime's ping-pong switch [S].
 * The producer-consumer blocksync (a direction): unit A's bar.blocksync.east meets its east
 * neighbour's bar.blocksync.west (the n-th with the n-th), .south meets .north; interface units
 * take the border sides. When both sides of a CB pair have arrived, `latency` cycles later the two
 * are released and only that pair swaps [S: §7].
 *
 * The watchdog (SPU spec §7 [A], UT-8): a grid in which every unit has either left or waits at a
 * blocksync that cannot complete (no pair due, the global barrier not complete), and nothing has
 * arrived, left or started for `deadlock_cycles`, is deadlocked: a blocksync count mismatch (a CTA
 * that executed fewer syncs than its partner). Under global sync a mismatch shows at once: a unit
 * arrives at its n-th global blocksync while a unit that took part in global blocksyncs has left
 * after fewer than n (or leaves so). Either stops the run (gsc_stop) with spu_ctl_fault set: every
 * waiting unit, what it waits for and its partner, SMs named with their coordinates, CTA and pass.
 * Counters (the `issued` export, bound to every SM's issue): the SMs' global element accesses
 * (4-byte elements of global loads and stores, by active lane) and their CB element accesses.
 * Traced: `arrived` (units waiting at the barrier), `rounds` (releases so far).
 */
#ifndef GPUSC_MODELS_SPU_SPU_CTL_H
#define GPUSC_MODELS_SPU_SPU_CTL_H

#include "models/core/block.h"
#include "models/sm/blocksync.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum { SPU_CTL_BS, SPU_CTL_EVENTS, SPU_CTL_ISSUED, SPU_CTL_RELEASE, SPU_CTL_CBS, SPU_CTL_N_PORTS };
enum {
    SPU_CTL_STAT_ROUNDS,
    SPU_CTL_STAT_ARRIVALS,
    SPU_CTL_STAT_WAIT_CYCLES,
    SPU_CTL_STAT_SM_LOADS,
    SPU_CTL_STAT_SM_STORES,
    SPU_CTL_STAT_SM_CB_ACCESSES,
    SPU_CTL_STAT_PAIR_SYNCS,
    SPU_CTL_STAT_ROLE_INSTRS,
    SPU_CTL_STAT_ROLE_LOADS,
    SPU_CTL_STAT_ROLE_STORES,
    SPU_CTL_STAT_ROLE_CB,
    SPU_CTL_STAT_ROLE_SYNCS,
    SPU_CTL_N_STATS
};

typedef struct {
    blk_inst *inst;
    const sm_env *env;
    unsigned p, n_sms, n_units;
    uint64_t latency;
    bool no_swap; /* selftest_no_swap */
    bool *arrived, *left;
    unsigned *slot;
    uint64_t *arrive_at;
    unsigned n_arrived, n_left;
    uint64_t last_arrival;
    gsc_event *ev;
    /* producer-consumer: per unit and direction the CB pair (index in `cbs`) and side (0 producer,
     * 1 consumer), -1: none; per pair and side the waiting unit + 1 and its slot; pairs due */
    int *pair_of;                    /* [unit * 5 + dir] = pair * 2 + side */
    unsigned *pair_wait, *pair_slot; /* [pair * 2 + side] */
    uint64_t *pair_due;              /* [pair]: release cycle, UINT64_MAX none */
    unsigned n_pairs, n_due;
    /* the watchdog: per unit what it waits at (WAIT_NONE, 0 global, else the spu_dir), syncs executed
     * per direction ([unit * 5 + dir]), the CTA an SM runs or ran last; per pair side its unit; the
     * highest global sync number arrived at; a change counter and since when nothing changed */
    uint8_t *wait_dir;
    uint32_t *n_syncs, *cta;
    unsigned *pair_unit;
    uint32_t max_global;
    unsigned max_global_unit;
    uint64_t deadlock_cycles, epoch, dl_epoch, dl_since;
    bool dl_armed;
    char **unit_name;     /* interface units (SMs are named by their coordinates) */
    const bool **blocked; /* per unit, NULL or a flag: it waits on something else than a blocksync
                           * that only the grid's progress ends (an interface unit's guard) */
    char *fault;
    blk_iref *release, *cbs;
    unsigned n_release, n_cbs;
    /* traced */
    uint32_t tr_arrived, tr_rounds;
    /* global-sync multipass: CTAs each SM runs (0: any number, an SM leaves at each CTA's end); the
     * CTAs ended per SM */
    unsigned global_ctas;
    unsigned *ctas_done;
    /* global-sync passes with changing participants (spu_ctl_set_global_pass): blocksyncs per pass,
     * per unit those it made since it last became present */
    unsigned global_pass;
    uint32_t *stint;
    /* the SMs' interface-unit roles (spu_ctl_set_role_code): the first function of the IU code in
     * the kernel's module (UINT32_MAX: none); per SM whether it runs a role now */
    uint32_t role_func;
    bool *role_on;
    blk_call_probe *probe[SPU_CTL_ISSUED + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} spu_ctl;

/* The 4-byte global-memory elements an issued memory instruction accesses (its active lanes whose
 * address is global; atomics included: the caller decides by it->kind). */
static inline uint64_t spu_global_elements(const issued_t *it)
{
    uint64_t n = 0;
    for (uint32_t m = it->mask; m; m &= m - 1)
        n += it->lane_space[__builtin_ctz(m)] == IR_SPACE_GLOBAL;
    return n * ((it->bytes + 3u) / 4u);
}

extern const blk_desc spu_ctl_desc;
/* p: grid side (p² SMs, unit i = SM i at x = i mod p, y = i / p); n_ius interface units. */
spu_ctl *spu_ctl_new(blk_ctx *ctx, gsc_module *parent, const char *name, const sm_env *env, unsigned p,
                     unsigned n_ius, unsigned n_pairs);
/* Producer-consumer blocksync: unit `unit`'s bar.blocksync toward `dir` (spu_dir) meets the CB pair
 * `pair` (its index among the `cbs` bindings) on side `side` (0: the producer, west/north of the
 * pair; 1: the consumer). Before the run. */
void spu_ctl_set_pair(spu_ctl *c, unsigned unit, unsigned dir, unsigned pair, unsigned side);
/* The name the watchdog gives a unit that is not an SM (an interface unit's instance path). */
void spu_ctl_set_unit_name(spu_ctl *c, unsigned unit, const char *name);
/* `*flag` true: unit `unit` is blocked until another unit makes progress (the watchdog counts it as
 * waiting; it must notify the controller's `rendezvous` event, spu_ctl_event, when it blocks). */
void spu_ctl_set_unit_blocked(spu_ctl *c, unsigned unit, const bool *flag);
gsc_event *spu_ctl_event(const spu_ctl *c);
/* Unit `unit` takes part (again) or not: an SM standing in as an interface unit takes part only
 * during its roles (it leaves at a role's end, through `bs`). */
void spu_ctl_set_present(spu_ctl *c, unsigned unit, bool present);
/* Global-sync multipass (pass by pass): every SM runs `n` CTAs, one per pass, and takes part in the
 * global blocksync from its first CTA's start to its n-th CTA's end: between passes it does not
 * leave, so the global blocksyncs of the next pass wait for its next CTA. Before the run. */
void spu_ctl_set_global_ctas(spu_ctl *c, unsigned n);
/* Global-sync passes whose participants change from pass to pass (partial passes): every unit taking
 * part in a pass executes `n` global blocksyncs in it; the grid makes the pass's units present
 * (spu_ctl_set_present) and the others absent when the pass starts, and an SM leaves at each CTA's
 * end. A unit that leaves after fewer, or arrives at more, is a count mismatch. Before the run. */
void spu_ctl_set_global_pass(spu_ctl *c, unsigned n);
/* The SMs run interface-unit roles as CTAs of the IU code (cta_launch_t.own_entry): the functions
 * from `first` on in the kernel's module are IU code. Their warp instructions, global elements and CB
 * words count as the roles' (role_*), not the SMs' (sm_*); under global passes a role CTA's end does
 * not leave the barrier (the grid sets who takes part, as for an interface unit). Before the run. */
void spu_ctl_set_role_code(spu_ctl *c, uint32_t first);
/* Why the controller stopped the run (a blocksync deadlock or count mismatch), or NULL. */
const char *spu_ctl_fault(const spu_ctl *c);
void spu_ctl_free(spu_ctl *c);

G_END_DECLS

#endif
