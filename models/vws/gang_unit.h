/* gang_unit.h — the `gang_unit` block: VWS's warp ganging unit of one SM of 4-thread warps
 * (docs/vws.md; CCWS/DAWS/VWS spec §7.3-§7.6). It holds the gang table (gang.h: 32 sets x 4 entries)
 * and decides, every cycle, which gangs issue in lock-step and which slices are left to their
 * independent warps. It is bound to the issue block of an SM with 8 schedulers (one per slice: warp w
 * on scheduler w mod 8):
 *
 *   check   (bind issue.check)        a warp may issue iff it is a member of a gang picked this cycle,
 *                                     or independent on a slice no picked gang uses; every call also
 *                                     records that the warp was ready (its ReadyMask bit)
 *   issued  (bind issue.issued)       which members issued; the gang's instruction class
 *   events  (bind issue.warp_events)  a CTA's warps form their original gangs; a finished warp leaves
 *
 * Per cycle t (evaluated at the first call of the cycle):
 *  1. the previous cycle is closed: a picked gang whose members did not all issue slipped (counted);
 *     a gang that issued (or slipped) compares its members' PCs (the top of each warp's SIMT stack)
 *     and splits on control divergence; with mem_split, a gang waiting on a load whose members became
 *     ready at different times splits (impatient: all independent; group: the early ones apart);
 *     with reform=opportunistic, one original gang (round robin) merges two of its entities that
 *     are at the same PC.
 *  2. the gang issue scheduler (sched: BGTO by default; LGTO, LPC, LRR, GTO) picks up to
 *     gangs_per_cycle gangs with disjoint masks among those whose every member may issue its head
 *     in this cycle as far as its slice decides (the ReadyMask of the cycle, issue_ready_head;
 *     ready=registered: every member was ready in the previous cycle and the gang did not issue
 *     then, a gang issuing at most every other cycle), and whose instruction's unit has room:
 *     ldst's FIFO (and an unsliced SM's to_exec_0) for one instruction per slice, or on an SM of
 *     lane slices each member's slice FIFO for its one.
 * mode=gang_only: the slices schedule nothing of their own; lone warps are entities of one in the
 * gang scheduler (and in the gang fetch). mode=slice_only: no gangs form; every warp is independent.
 * The slices are the issue block's schedulers: 8 (4-thread warps) or 4 (8-thread warps, original
 * gangs of 4).
 * The `gangs` export (bind fetch.gangs on an SM of lane slices) lists the gangs for the gang fetch.
 * A picked member whose I-buffer head is not at the gang's PC would execute the gang's instruction at
 * the wrong PC: the unit poisons the warp's registers (the workload's check fails) and counts it
 * (pc_mismatch; fault=nosplit disables the control-divergence split to show it).
 * Traced: gangs, independent (warp counts), issue_mask (slices picked gangs use), and set 0's entries
 * (set0_way0 .. set0_way3: GangMask, set0_indep).
 */
#ifndef GPUSC_MODELS_VWS_GANG_UNIT_H
#define GPUSC_MODELS_VWS_GANG_UNIT_H

#include "models/core/block.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/vws/gang.h"
#include "kernels/passes/vws_sync.h"

G_BEGIN_DECLS

#define GANG_MAX_WARPS (GANG_SETS * GANG_SLICES)

enum { GANG_UNIT_CHECK, GANG_UNIT_ISSUED, GANG_UNIT_EVENTS, GANG_UNIT_GANGS };
enum {
    GANG_STAT_GANG_ISSUES,
    GANG_STAT_GANG_WARP_ISSUES,
    GANG_STAT_INDEP_ISSUES,
    GANG_STAT_FORMED,
    GANG_STAT_CF_SPLITS,
    GANG_STAT_MEM_SPLITS,
    GANG_STAT_REFORMS,
    GANG_STAT_TO_INDEP,
    GANG_STAT_SLIPS,
    GANG_STAT_PC_MISMATCH,
    GANG_STAT_CYCLES,
    GANG_STAT_SIZE2, /* gang-cycles of gangs of 2 .. 8 warps */
    GANG_STAT_SIZE8 = GANG_STAT_SIZE2 + 6,
    GANG_STAT_INDEP_CYCLES, /* warp-cycles of independent warps */
    GANG_STAT_AVG_SIZE,
    GANG_STAT_SYNC_WAITS, /* warp-cycles held at a sync point (sync > 0) */
};
enum { GANG_REFORM_NONE, GANG_REFORM_OPPORTUNISTIC };
enum { GANG_MEM_NONE, GANG_MEM_IMPATIENT, GANG_MEM_GROUP };
enum { GANG_FAULT_NONE, GANG_FAULT_NOSPLIT };
enum { GANG_MODE_MIXED, GANG_MODE_GANG_ONLY, GANG_MODE_SLICE_ONLY };

typedef struct {
    blk_inst *inst;
    sm_env *env;
    issue *is; /* the SM's issue block: its warps' SIMT stacks (may be NULL: harness, see pc_fn) */
    /* the PC at the top of warp w's SIMT stack (func << 32 | pc), false if it has none */
    bool (*pc_fn)(void *ctx, unsigned w, uint64_t *pc);
    /* warp w's I-buffer head if it may issue this cycle (issue_ready_head), else NULL (harness) */
    const decoded_t *(*ready_fn)(void *ctx, unsigned w);
    void *pc_ctx;   /* (pc_fn's and ready_fn's) */
    bool ready_reg; /* ready=registered */
    /* the gangs at the start of cycle snap_cycle - 1 (gu_list: the gang fetch's view) */
    uint64_t snap_cycle;
    unsigned n_snap;
    uint32_t snap[FETCH_MAX_GANGS];
    unsigned per_cycle, reform, mem_split, fault;
    unsigned mode;                  /* GANG_MODE_* */
    gang_sched sched;               /* the gang issue scheduler (sched, tie; LRR's pointer) */
    uint64_t set_age[GANG_SETS];    /* formation order of the set's original gang (lone warps' age) */
    uint8_t picked_lone[GANG_SETS]; /* gang_only: per slice bit, a lone warp picked in `cycle` */
    gang_table t;
    gang_counts c, c_seen;
    uint64_t next;                      /* the next cycle to evaluate (those before are) */
    uint64_t quiet_from;                /* cycles from this one on had no pick (picked_set, issued_set) */
    uint64_t ready_at[GANG_MAX_WARPS];  /* last cycle the warp was seen ready (+1; 0: never) */
    uint64_t issued_at[GANG_MAX_WARPS]; /* last cycle the warp issued (+1) */
    bool head_mem[GANG_MAX_WARPS];      /* its head, when last seen ready, goes to ldst */
    uint8_t waits_mem[GANG_SETS];       /* per way bit: the gang's last issue was a long-latency load */
    uint8_t picked_set[GANG_SETS];      /* per way bit: picked in `cycle` */
    uint8_t issued_set[GANG_SETS];      /* per way bit: a member issued in `cycle` */
    uint8_t busy_slices;                /* slices the gangs picked in `cycle` use */
    uint64_t age_seq;
    unsigned sync;                       /* E-VWS-Sync<XX>: XX (0: off) */
    const vws_sync *sync_tab;            /* the sync points (gang_unit_set_sync; not owned) */
    uint64_t sync_pc[GANG_MAX_WARPS];    /* the sync point the warp waits at (+1; 0: none) */
    uint64_t sync_since[GANG_MAX_WARPS]; /* the cycle it was first seen ready there */
    /* traced */
    uint32_t tr_gangs, tr_indep;
    uint8_t tr_issue_mask, tr_set0[GANG_WAYS], tr_set0_indep;
    blk_call_probe *probe[GANG_UNIT_GANGS + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} gang_unit;

extern const blk_desc gang_unit_desc;
/* `is` gives the warps' PCs (wexec_warp_next); NULL for a harness, which sets pc_fn. */
gang_unit *gang_unit_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, issue *is);
void gang_unit_free(gang_unit *u);
/* Bind the unit to the SM's issue block (check, issued, warp_events). */
void gang_unit_attach(gang_unit *u, blk_inst *issue_inst);
/* Bind the SM's fetch block (an SM of lane slices) to the unit's gangs: the gang fetch. */
void gang_unit_attach_fetch(gang_unit *u, blk_inst *fetch_inst);
/* The kernel's sync points (vws_sync_build), for gang_unit.sync > 0 (E-VWS-Sync<XX>): a gang or
 * independent warp whose next instruction is at one, and that is not its whole original gang,
 * waits there up to `sync` cycles (from the first cycle it could issue there) to re-gang. */
void gang_unit_set_sync(gang_unit *u, const vws_sync *s);

G_END_DECLS

#endif
