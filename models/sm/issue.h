/* issue.h — the `issue` block of an SM: its warp schedulers' decision stage. Each cycle, per
 * scheduler, it asks for every warp the I-buffer (ibuffer block), the SIMT stack and the scoreboard
 * (scoreboard block) whether the head may issue, asks the scheduler's arbiter (arbiter block) for
 * the order of the ready warps, and issues the first: it executes the instruction functionally
 * (warp_exec.h, the GPGPU-Sim execution point), reserves its registers and sends it to its unit. It
 * reports barrier arrivals and exits to the barrier unit (barrier block), and runs warp and CTA
 * completion. Spec: docs/baseline-design.md §2.2 issue; CCWS/DAWS/VWS spec §2.1, §3.
 *
 * Ports (FIFOs a topology binds; interfaces it binds with blk_bind):
 *   cta_launch in    a CTA placed on this SM (its warps start: a redirect to fetch each)
 *   cta_done   out   a CTA whose warps all finished (every instruction completed)
 *   decoded    in    decoded instructions from fetch, into the warp's I-buffer (stale epochs dropped)
 *   redirect   out   to fetch: a warp starts, resolves a control instruction, reconverges, or exits
 *   credit     out   to fetch: an I-buffer entry was consumed
 *   to_exec_%u out   issued ALU/INT/SFU/DP/control instructions to partition p's collectors (one per
 *                    partition: the topology sizes the array)
 *   to_ldst    out   issued memory instructions to the ldst block
 *   release_%u in    completions from partition p (scoreboard release of the destinations)
 *   release_ldst in  completions from ldst
 *   sb, ib, bar      imports: the scoreboard, the I-buffers, the barrier unit
 *   arbiter_%u       imports: one arbiter per scheduler (`schedulers` of them)
 *   check            MULTI import: resource checks before issue (register locks, power-state wake-up)
 *   issued           MULTI import: listeners told of every issued instruction
 *   warp_events      MULTI import: listeners told of warp and CTA starts and ends
 *   value            MULTI import: the register value path's hooks (warp_exec's regval chain)
 *
 * Per cycle, per scheduler (warp w belongs to scheduler w mod schedulers): a warp is ready when its
 * I-buffer head is valid for the warp's current PC, the scoreboard shows no RAW/WAW hazard, it does
 * not wait at a barrier, the head's unit FIFO has room and every check allows it; the arbiter orders
 * the ready warps and the first one issues (one instruction per scheduler per cycle, GTX480's
 * max_insn_issue_per_warp 1). A cycle without issue is charged to one stall reason (issue_stall).
 * A barrier's waiting warps may issue from the cycle after its completion, and bar.red's result is
 * written into their destination at the completion. With source reservations (the scoreboard's
 * parameter) an instruction also reserves its sources; exec and ldst report when they have read
 * them (a release_t with `reads` set) and issue releases the read reservations then.
 */
#ifndef GPUSC_MODELS_SM_ISSUE_H
#define GPUSC_MODELS_SM_ISSUE_H

#include <stdio.h>

#include "models/core/block.h"
#include "models/lib/ring.h"
#include "models/lib/policy.h"
#include "models/lib/scoreboard.h"
#include "models/lib/wmask.h"
#include "models/sm/arbiter.h"
#include "models/sm/barrier.h"
#include "models/sm/blocksync.h"
#include "models/sm/ibuffer.h"
#include "models/sm/payloads.h"
#include "models/sm/scoreboard_block.h"
#include "models/sm/sm_env.h"
#include "models/sm/warp_exec.h"

G_BEGIN_DECLS

#define SM_MAX_PARTS      8 /* sub-core partitions (4) or VWS lane slices (8) */
#define ISSUE_MAX_SCHED   8

enum {
    ISSUE_CTA_LAUNCH,
    ISSUE_CTA_DONE,
    ISSUE_DECODED,
    ISSUE_REDIRECT,
    ISSUE_CREDIT,
    ISSUE_TO_EXEC, /* array: one per partition */
    ISSUE_TO_LDST,
    ISSUE_RELEASE, /* array: one per partition */
    ISSUE_RELEASE_LDST,
    ISSUE_SB,
    ISSUE_IB,
    ISSUE_BAR,
    ISSUE_ARB, /* array: one per scheduler */
    ISSUE_CHECK,
    ISSUE_ISSUED,
    ISSUE_WARP_EVENTS,
    ISSUE_VALUE,
    ISSUE_BLOCKSYNC,         /* the SPU's inter-SM barrier (optional import; blocksync.h) */
    ISSUE_BLOCKSYNC_RELEASE, /* its release (export) */
    ISSUE_N_PORTS
};

/* The `check` import: may warp issue its head this cycle (issue_check_fn's contract). */
typedef struct {
    bool (*allow)(void *self, unsigned warp, const decoded_t *head, uint64_t cycle);
} issue_check_if;
extern const blk_iface issue_check_iface;

/* The `issued` import: an instruction issued (its header and, for memory, its addresses). */
typedef struct {
    void (*issued)(void *self, const issued_t *it);
} instr_issued_if;
extern const blk_iface instr_issued_iface;

/* The `warp_events` import: a warp or a CTA starts or ends (every instruction completed). */
typedef struct {
    void (*cta_start)(void *self, const cta_launch_t *c, uint64_t cycle);
    void (*cta_end)(void *self, const cta_launch_t *c, uint64_t cycle);
    void (*warp_start)(void *self, unsigned warp, unsigned cta_slot, uint64_t cycle);
    void (*warp_end)(void *self, unsigned warp, unsigned cta_slot, uint64_t cycle);
} warp_events_if;
extern const blk_iface warp_events_iface;

/* The `value` import: a hook of the register value path (regval.h). */
typedef struct {
    regval_fn access;
} regval_if;
extern const blk_iface regval_iface;

/* Why a scheduler did not issue in a cycle: over its warps, the first that applies in the order
 * idle, memory, scoreboard, pipeline, check, barrier, no_ready; vetoed when warps were ready and the
 * policy's vetoes removed them all. (The values are the VCD's `stall` codes; check and vetoed were
 * added last.) */
typedef enum {
    ISSUE_STALL_IDLE,       /* no resident warp on this scheduler */
    ISSUE_STALL_MEMORY,     /* a warp waits on a pending load result */
    ISSUE_STALL_SCOREBOARD, /* a warp waits on another pending result */
    ISSUE_STALL_PIPELINE,   /* a warp is ready but its unit's FIFO is full */
    ISSUE_STALL_BARRIER,    /* warps wait at a barrier */
    ISSUE_STALL_NO_READY,   /* no warp has a valid instruction (fetch, I-cache, control) */
    ISSUE_STALL_CHECK,      /* a warp is ready but a check bound to `check` refused it */
    ISSUE_STALL_VETOED,     /* ready warps, all vetoed by the policy (policy_add_veto) */
    ISSUE_STALL_COUNT
} issue_stall;

enum {
    ISSUE_STAT_WARP_INSTRS,
    ISSUE_STAT_THREAD_INSTRS,
    ISSUE_STAT_ISSUE_CYCLES, /* scheduler-cycles with an issue */
    ISSUE_STAT_STALL_IDLE,
    ISSUE_STAT_STALL_MEMORY,
    ISSUE_STAT_STALL_SCOREBOARD,
    ISSUE_STAT_STALL_PIPELINE,
    ISSUE_STAT_STALL_BARRIER,
    ISSUE_STAT_STALL_NO_READY,
    ISSUE_STAT_STALL_CHECK,
    ISSUE_STAT_STALL_VETOED,
    ISSUE_STAT_CTAS,
    ISSUE_STAT_CTA_CYCLES, /* sum over cycles of resident CTAs */
    ISSUE_STAT_BARRIERS,
    ISSUE_STAT_DIVERGENT,
    ISSUE_STAT_REDIRECTS,
    ISSUE_STAT_BY_CLASS0,
    ISSUE_STAT_IPC = ISSUE_STAT_BY_CLASS0 + IR_CLASS_COUNT,
    ISSUE_STAT_AVG_CTAS,
};

/* A resource check before issue (register locks, power-state wake-up ...): return false to keep the
 * warp from issuing this cycle. A refusal (or a veto of the policy that removes every ready warp)
 * keeps issue awake: it asks again the next cycle, so a check may refuse for any number of cycles;
 * those scheduler-cycles count as stall_check (stall_vetoed). */
typedef bool (*issue_check_fn)(void *ctx, unsigned warp, const decoded_t *head, uint64_t cycle);

/* One warp slot's state: 32 bytes, two to a cache line (issue_new aligns the array), the fields the
 * readiness checks and the releases read first. */
typedef struct {
    uint16_t epoch;
    bool resident; /* belongs to a resident CTA and has not finished (completion included) */
    bool at_barrier;
    bool exited; /* functionally finished; waits for its in-flight instructions */
    /* The head passed the SIMT-stack and scoreboard checks. A release only removes hazards and only
     * the warp's own issue adds them, so this holds until the head changes (issue, redirect, CTA
     * start) and only the unit, the checks and the policy remain to be asked. */
    bool sb_clear;
    /* The stall the scoreboard gave the I-buffer head (ISSUE_STALL_MEMORY or _SCOREBOARD), or
     * ISSUE_STALL_COUNT: none known (an issue_stall). It holds until the head changes (issue,
     * redirect) or the warp's scoreboard does (a completion, a read report, its own issue, a CTA
     * start), so a warp waiting on a load is not checked again every cycle. */
    uint8_t sb_stall;
    uint8_t bar_id; /* the barrier it waits at */
    uint32_t inflight;
    uint32_t atomics_pending; /* atomics with lanes performed at the memory side, not yet returned */
    uint32_t loads_pending;   /* loads whose global/local/const lanes read the image on return */
    uint32_t pos;             /* its position in its scheduler's list (while listed) */
    uint8_t bar_kind;  /* bar.red: which reduction (ir_bar_kind) */
    uint16_t bar_dst;  /* bar.red: the result's register slot, SM_NO_REG if none */
    uint32_t bar_mask; /* bar.red: the lanes that receive the result */
} issue_warp;

/* A scheduler's state. The first cache line (issue_new aligns the array) holds what a cycle that
 * repeats its last answer reads: the dirty warps, the units' room, the last stall, veto_until. */
typedef struct {
    /* Incremental evaluation (with a stable policy and no checks): pw[] keeps each warp's readiness
     * from the last time it was checked; `dirty` (bit = warp slot) marks the warps that changed since
     * (a release or read report, a decoded instruction, a redirect, a CTA start, a barrier release,
     * its own issue), `room` the units' room then (bit 0: ldst, bit 1: exec; a change re-checks
     * every warp). Only dirty warps are checked again; with none and the same room the scheduler
     * repeats its last stall. */
    _Alignas(64) wmask dirty;
    /* Vetoes that hold (arbiter settles(), no checks): evaluated incrementally as a stable policy;
     * an answer that asked the arbiter and issued nothing (`asked`) is reused, its statistics
     * counted by the arbiter's repeat(), before cycle veto_until (holds_until(), lowered by a veto's
     * changed() call), and the issue stage may sleep until then. */
    uint64_t veto_until;
    gsc_fifo *exec; /* its partition's to_exec FIFO (looked up at elaboration) */
    unsigned room;
    uint8_t last_stall; /* an issue_stall */
    bool stable; /* the arbiter is stable and there are no checks (looked up at elaboration) */
    bool settles, asked;
    bool incremental; /* stable or settles */
    unsigned n;
    /* What the last checks found, kept so that only dirty warps are visited: the warps listed (bit =
     * warp slot), how many have each stall (ISSUE_STALL_COUNT: ready), and the warps a unit's room
     * decides for (ready or stalled on PIPELINE, head bound for ldst / for exec). */
    wmask members, asks_mem, asks_alu;
    policy_warp *pw; /* the listed warps (pw[i].id: the warp slot), in list order */
    const arbiter_if *arb; /* its arbiter */
    void *arb_self;
    unsigned n_stall[ISSUE_STALL_COUNT + 1];
    unsigned order[SM_MAX_WARPS]; /* the arbiter's answer (order[0] beside n_stall) */
} issue_sched;

/* The traced state of one warp slot (<issue>.warp<N>.*; issue_new): what the slot holds at the end
 * of the cycle. stall: an issue_stall, or ISSUE_WARP_READY (ready, another warp was chosen), or
 * ISSUE_WARP_ISSUED (it issued in this cycle); a slot without a warp shows idle. */
enum { ISSUE_WARP_READY = ISSUE_STALL_COUNT, ISSUE_WARP_ISSUED, ISSUE_WARP_STATES };
typedef struct {
    uint32_t pc;      /* the next instruction (its index in the function) */
    uint32_t mask;    /* the SIMT stack's active lanes */
    uint16_t pending; /* the scoreboard's reservations (registers waited on) */
    uint8_t ibuf;     /* valid I-buffer entries */
    uint8_t at_barrier;
    uint8_t stall;
} issue_warp_trace;

typedef struct {
    /* First, on five cache lines (issue_new aligns the struct), what an activation reads: a cycle of
     * a many-SM machine evicts the SM's state between two activations, so each line the activation
     * touches is a miss. The first three lines: every activation; the fourth: the release FIFOs of
     * partitions 1..; the fifth: an issue. */
    sm_env *env;
    blk_inst *inst;
    issue_sched *sched;
    issue_warp *w;
    unsigned n_sched, parts;
    unsigned words; /* the words of a warp set that hold its warps (wmask_words(warps)) */
    unsigned n_ctas;
    unsigned bs_releases; /* blocksync releases not yet applied */
    uint32_t tr_issued;   /* traced */
    bool started;      /* the first activation has looked up what depends on every block's elaboration */
    bool any_settles;  /* some scheduler's vetoes hold (issue_sched.settles) */
    bool refused; /* a check or a veto refused a ready warp this cycle: run again next cycle */
    bool tw_on;   /* the per-warp state is traced (its stall stands for all of it) */
    bool queued;  /* redirects, credits or CTA ends may wait in their rings */
    uint8_t tr_stall; /* traced */
    bool any_checks;  /* checks are bound to `check` (n_checks > 0) */
    /* the blocks it calls (imports, looked up at elaboration) and its FIFOs */
    const ibuffer_if *ib;
    void *ib_self;
    const scoreboard_if *sb;
    void *sb_self;
    wexec *wx;
    gsc_fifo *ldst_fifo; /* to_ldst */
    gsc_fifo *release_ldst, *decoded;
    gsc_fifo *cta_launch;
    uint64_t charged_to;  /* the first cycle not yet run nor counted by repeat_slept */
    wmask pending_release; /* warps released by a barrier this cycle (slot-wide masks applied next cycle) */
    /* the `pipeview` parameter's file, or NULL; its issued instructions not yet complete (seq ->
     * issue_pv) */
    FILE *pv;
    gsc_fifo *release0; /* release_0 (release[0]) */
    gsc_fifo *release[SM_MAX_PARTS]; /* release_%u */
    uint64_t seq;
    FILE *log; /* the `log` parameter's file, or NULL */
    blk_iref *checks, *listeners; /* the MULTI imports' bindings */
    unsigned n_checks, n_listeners;
    uint32_t tr_warp, tr_pc; /* traced */
    unsigned n_tw_issued;
    bool report_reads; /* the scoreboard reserves sources */
    unsigned tw_issued[ISSUE_MAX_SCHED]; /* the warps that issued this cycle */
    uint64_t age;
    unsigned sm_id, warps, ctas;
    unsigned warp_size; /* threads per warp (the env's, fixed when the SM is built) */
    const barrier_if *bar;
    void *bar_self;
    blk_iref *events;
    unsigned n_events;
    ring redirects, credits, done; /* outputs waiting for FIFO room (redirect_t, credit_t, cta_done_t) */
    GHashTable *pv_open;
    /* bar.blocksync (the SPU grid; blocksync.h): the grid's barrier, NULL when unbound; per CTA slot
     * (bs_dir, bs_held, bs_release_at, at the end), the direction of its pending blocksync, the warps
     * held until the grid releases them and the cycle the release was called in (it takes effect in
     * a later cycle) */
    const blocksync_if *bs;
    void *bs_self;
    gsc_event *bs_event;
    gsc_event *veto_event; /* a veto's answers changed (its changed() call) */
    issue_warp_trace *tw; /* per warp slot (traced) */
    /* Last, the per-CTA-slot arrays (about 2.5 KB), read and written when a CTA starts or ends, at a
     * barrier or a blocksync release: the fields above, which every activation reads, stay on a few
     * cache lines of their own (a cycle of a many-SM machine evicts them between activations). */
    unsigned cta_live_warps[SM_MAX_CTAS];
    cta_launch_t cta[SM_MAX_CTAS];
    bool cta_live[SM_MAX_CTAS];
    uint8_t bs_dir[SM_MAX_CTAS];                                /* (blocksync, above) */
    uint64_t bs_held[SM_MAX_CTAS], bs_release_at[SM_MAX_CTAS]; /* (blocksync, above) */
    blk_call_probe *probe[ISSUE_BLOCKSYNC_RELEASE + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} issue;

extern const blk_desc issue_desc;
/* parts: partitions whose exec blocks receive instructions (1 for the monolithic SM): the size of the
 * to_exec_%u and release_%u arrays. The topology binds sb, ib, bar and arbiter_0 .. (schedulers). */
issue *issue_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned sm_id,
                 unsigned warps, unsigned ctas, unsigned parts);
void issue_free(issue *s);
unsigned issue_schedulers(const issue *s);
/* Warp wi's I-buffer head if it may issue this cycle as far as the warp and its unit decide (the
 * SIMT stack, the scoreboard, barriers, memory order, the unit's room; the checks bound to `check`
 * are not asked), else NULL. For a check that decides for several warps at once (VWS's ganging
 * unit: a gang's ReadyMask of this cycle). */
const decoded_t *issue_ready_head(issue *s, unsigned wi);
bool issue_busy(const issue *s);
void issue_dump(const issue *s, GString *out);
const char *issue_stall_name(issue_stall s);
/* The stall reasons by name in the waveform views. */
extern const gsc_enum issue_stall_enum;
/* A warp slot's traced stall by name: the stall reasons, then "ready" and "issued". */
extern const gsc_enum issue_warp_stall_enum;

G_END_DECLS

#endif
