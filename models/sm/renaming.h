/* renaming.h — the register renaming block (docs/renaming.md): the renaming table ((warp, arch
 * register) -> physical register, 4 banks), the physical register free list with its allocation
 * policies, the allocation / release engine (allocate on a write to an unmapped register, release
 * after a pir-flagged read or at a pbr, warp-exit cleanup, exhaustion stalls and their watchdog),
 * the exemption of long-lived registers, the release flag cache of the split fetch, and the power
 * gating of register entries and sub-arrays with their leakage and table energy.
 *
 * It sits beside the register banks and is bound to the SM's declared extension points:
 *  - `value`  (regval) -> issue.value: the data: allocation, release, poison of a released register;
 *  - `check`  (issue_check) -> issue.check: the split fetch's sched-info stage (the release flag
 *    cache; a fetched flag word holds the warp's next instruction back), and an instruction that
 *    needs a physical register waits;
 *  - `issued` (instr_issued) -> issue.issued: pbrs of instructions without registers,
 *    reservations of loads' destinations;
 *  - `warp_events` -> issue.warp_events: a warp that exited releases what it still holds;
 *  - `access` (rfaccess) -> regfile.access: the banks see the physical register of the request's
 *    function's frame; rename-table bank conflicts serialise lookups (+1 cycle each);
 *  - `layout` (fetch_layout) -> fetch.layout: the split fetch's sched-info stage: the kernel's
 *    laid-out addresses (flag words included) in the I-cache, the pbrs and the pirs missing the
 *    release flag cache fetched as words of their own, the RFC's replacement rule and its stall.
 * The table maps (warp, function, register): the kernel and every .func it calls are renamed, each
 * function's registers in a frame of their own; a callee's frame is released when the warp returns
 * from it.
 * With enable=false only `value` is bound, as an observer of the baseline's power gating (a register
 * turns on at its first access and stays on): the timing is the baseline's (tb-renaming --renaming
 * observe; --renaming off builds no block at all, the baseline machine).
 */
#ifndef GPUSC_MODELS_SM_RENAMING_H
#define GPUSC_MODELS_SM_RENAMING_H

#include "models/core/block.h"
#include "models/lib/bankmap.h"
#include "models/lib/occupancy.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum {
    RENAMING_PORT_VALUE,
    RENAMING_PORT_CHECK,
    RENAMING_PORT_ISSUED,
    RENAMING_PORT_EVENTS,
    RENAMING_PORT_ACCESS,
    RENAMING_PORT_LAYOUT,
    RENAMING_N_PORTS
};

enum {
    RN_STAT_ALLOCS,
    RN_STAT_RELEASES,
    RN_STAT_REL_PIR,
    RN_STAT_REL_PBR,
    RN_STAT_REL_EXIT,
    RN_STAT_PBRS,
    RN_STAT_DISTINCT,
    RN_STAT_PEAK,
    RN_STAT_MAPPED_CYCLES,
    RN_STAT_CYCLES,
    RN_STAT_AVG_LIVE,
    RN_STAT_ARCH_ALLOCATED,
    RN_STAT_EXEMPT,
    RN_STAT_EQ1,
    RN_STAT_EQ1_AFTER,
    RN_STAT_LOOKUPS,
    RN_STAT_LOOKUP_CONFLICTS,
    RN_STAT_ALLOC_STALLS,
    RN_STAT_OVERFLOW,
    RN_STAT_POISON_READS,
    RN_STAT_UNWRITTEN_READS,
    RN_STAT_RFC_HITS,
    RN_STAT_RFC_MISSES,
    RN_STAT_RFC_HIT_RATE,
    RN_STAT_FLAG_WORDS,
    RN_STAT_WAKEUPS,
    RN_STAT_ENTRY_ON,
    RN_STAT_SUB_ON,
    RN_STAT_BASE_ENTRY_ON,
    RN_STAT_BASE_SUB_ON,
    RN_STAT_LEAK_ENTRY,
    RN_STAT_TABLE_BANK_CYCLES,
    RN_STAT_SUB_PEAK,
    RN_STAT_ARCH_CYCLES,
    RN_STAT_ARCH_AVG,
    RN_STAT_PBR_FETCHED,
    RN_STAT_RFC_FULL_STALLS,
    RN_STAT_REL_RET,
    RN_STAT_CALLEE_ALLOCS,
    RN_N_STATS
};

typedef struct renaming renaming;

extern const blk_desc renaming_desc;

/* `sm_occ`: the SM's occupancy limits (Eq. 1's resident warps at each launch). `geom`: the register
 * banks' geometry (the regfile's `geom`: clusters, banks, sub-arrays), which places physical IDs in
 * banks and sub-arrays for power gating. */
renaming *renaming_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned max_warps,
                       const occupancy_sm *sm_occ, const bankmap_geom *geom);
blk_inst *renaming_inst(const renaming *r);
bool renaming_enabled(const renaming *r);
/* Bind the exports to the SM's issue, regfile and fetch (before elaboration; fetch only with
 * flag_fetch=true; regfile, fetch may be NULL). */
void renaming_bind(renaming *r, blk_inst *issue, blk_inst *regfile, blk_inst *fetch);
/* Close the time integrals at `cycle` (before the statistics are printed). */
void renaming_finish(renaming *r, uint64_t cycle);
/* Free list, blocked warps and their registers, each warp's mappings (the watchdog's dump). */
void renaming_dump(void *r, GString *out);
void renaming_free(renaming *r);

/* Registers the issue policy "gtrr" (greedy-then-round-robin), one of the three schedulers the
 * renaming study compares with two_level_active and lrr (idempotent; before the arbiters are built). */
void renaming_register_policies(void);

/* For the harness tests: the free list and the table. */
int renaming_map(const renaming *r, unsigned warp, unsigned arch); /* physical ID or -1 */
/* The same for register `arch` of function `func`'s frame (a called .func's registers). */
int renaming_map_frame(const renaming *r, unsigned warp, uint32_t func, unsigned arch);
bool renaming_occupied(const renaming *r, unsigned phys);
unsigned renaming_free_count(const renaming *r);
unsigned renaming_subarrays_on(const renaming *r); /* sub-arrays of one cluster powered on */

G_END_DECLS

#endif
