/* spu_iu.h — the `spu_iu` block: an interface unit on the border of the SPU grid (SPU spec §4.1,
 * §11.5; docs/spu.md), in its simplest form: a unit that moves planned b x b faces between global
 * memory and its border CB pair, one transfer list per global-blocksync round.
 *
 * A north or west unit loads (global memory -> the write half of its CB, which the adjacent SM reads
 * after the next release); a south or east unit stores (the read half, which the adjacent SM wrote
 * before the last release -> global memory) [S: §2, N/W load, S/E store]. Round t: the unit does
 * round t's transfers, then arrives at the global blocksync (`bs`), waits for the release, and goes
 * on with round t+1; after `rounds` barriers it does the transfers of round `rounds` (the stores of
 * the last tiles) and leaves the barrier [A: SPU spec §17 item 14, as many blocksyncs as the CTAs].
 *
 * Timing [A: the IU's pipeline is not given], `path`:
 *   ideal  one 32-byte CB request per cycle (8 elements); a load round starts with `mem_latency`
 *          cycles for its first data; stores are posted; the data moves in the memory image;
 *   icnt   the unit is a memory client of the GPU's interconnect (gpu_topo_set_clients): one request
 *          per cycle for the part of a face row inside one `line_bytes` line (a read, or a write
 *          with its byte mask and data), at most `max_outstanding` in flight, through the icnt, L2
 *          slices and DRAM as the SMs' requests; a load's data is the reply's, written into the CB
 *          when it arrives; a store's data goes into the memory image when it is sent; a round ends
 *          when every request of it is answered (a spill's guard counts then). An SM's role
 *          (spu_iu_new_sm) sends them through that SM's memory port instead of a node of its own.
 * This is the unit without instruction fetch (the "DMA-engine" form of §4.4 in its behaviour); the
 * truncated SM running IU code is spu_iu_code.h (`tb-spu --iu code`).
 *
 * As a virtual IU (multipass, SPU spec §4.2): a storer's transfer marked `viu` spills the face to
 * the spill region instead of storing an output, a loader's restores it; a restore waits until its
 * spill is done (the guard, `guard_stall_cycles`; spu_iu.selftest_no_guard breaks it).
 *
 * Statistics: global elements loaded and stored (off-chip accesses), spilled and restored, CB
 * requests, rounds, busy cycles, guard stalls. Traced: `round`, `state` (0 moving, 1 waiting at the barrier,
 * 2 done).
 */
#ifndef GPUSC_MODELS_SPU_SPU_IU_H
#define GPUSC_MODELS_SPU_SPU_IU_H

#include "kernels/run/fmem.h"
#include "models/core/block.h"
#include "models/sm/blocksync.h"
#include "models/sm/ldst.h"

G_BEGIN_DECLS

struct spu_iu;
/* The spill -> restore ordering guard of one pass border and row (multipass): the tiles spilled so
 * far, and the restoring unit asleep on it (woken by the spill that lets it go on). Zeroed before
 * the run. */
typedef struct {
    uint32_t spilled;
    struct spu_iu *waiter;
} spu_iu_guard;

/* `rows` rows of `row_elems` 4-byte elements: global row r at gaddr + r * row_stride, CB bytes
 * cb_off + 4 * (r * row_elems + e). */
typedef struct {
    uint32_t round;
    uint64_t gaddr, row_stride;
    uint32_t rows, row_elems, cb_off;
    /* multipass (docs/spu.md): a VIU transfer (a spill by a storer, a restore by a loader: counted
     * apart); post: a guard whose count the transfer increments when it is done (a spill); wait: a
     * restore starts only when wait->spilled >= wait_min (the spill -> restore ordering guard) */
    bool viu;
    spu_iu_guard *post, *wait;
    uint32_t wait_min;
} spu_iu_xfer;

/* MEM_REQ, MEM_RESP: port arrays of one element with path=icnt, none with path=ideal nor for an
 * SM's role (spu_iu_new_sm: SM_MEM, SM_REPLY reach the SM's memory port instead) */
enum { SPU_IU_CB, SPU_IU_BS, SPU_IU_RELEASE, SPU_IU_MEM_REQ, SPU_IU_MEM_RESP, SPU_IU_SM_MEM, SPU_IU_SM_REPLY,
       SPU_IU_N_PORTS };
enum {
    SPU_IU_STAT_LOADS,
    SPU_IU_STAT_STORES,
    SPU_IU_STAT_REQUESTS,
    SPU_IU_STAT_ROUNDS,
    SPU_IU_STAT_BUSY,
    SPU_IU_STAT_SPILLS,
    SPU_IU_STAT_RESTORES,
    SPU_IU_STAT_GUARD,
    SPU_IU_STAT_MEM_REQS,
    SPU_IU_STAT_MEM_WAIT,
    SPU_IU_STAT_INSTRS,
    SPU_IU_N_STATS
};
enum { SPU_IU_MOVING, SPU_IU_WAITING, SPU_IU_DONE };

typedef struct spu_iu {
    blk_inst *inst;
    fmem *mem;
    unsigned unit;
    bool store; /* south/east: CB -> memory */
    uint64_t mem_latency;
    bool no_guard;    /* selftest_no_guard */
    const void *cb_m; /* spu_cb_if */
    void *cb_self;
    const blocksync_if *bs;
    void *bs_self;
    gsc_event *ev;
    spu_iu_xfer *xfers;
    unsigned n_xfers, rounds;
    unsigned sync_dir; /* 0: global blocksync; else producer-consumer toward this spu_dir */
    bool synced;       /* a storer under producer-consumer sync: this round's sync is done */
    /* progress: the transfer, its row and element; the cycle the round's data starts */
    unsigned xi, row, elem;
    uint64_t ready_at;
    uint64_t resume_at; /* released by a blocksync: moves from this cycle on (the CB swap is seen) */
    bool round_started;
    /* asleep (no activation per cycle): the busy cycles up to ready_at are counted; a restore waits
     * on its guard since guard_since */
    bool latency_counted, guard_waiting;
    uint64_t guard_since;
    /* roles (an SM standing in as an interface unit in partial passes; every unit under global sync
     * with partial passes): the unit moves only between spu_iu_start_role and the end of the role's
     * rounds (role_end), then calls role_done (under producer-consumer sync it leaves the barrier
     * first); idle (SPU_IU_DONE) before and between roles */
    bool roles;
    unsigned role_end;
    void (*role_done)(void *ctx, struct spu_iu *u);
    void *role_ctx;
    gsc_event *on_block; /* notified when a restore starts waiting on its guard (the controller's
                          * watchdog reads guard_waiting); NULL: none */
    /* path=icnt: requests through the interconnect as memory client `node`; per request id (a slot
     * of `pend`) the CB byte offset, the element count and the byte offset in the line; in flight;
     * the first transfer of the current round (its guards are posted when the round's requests are
     * all answered); the cycle the unit started waiting for answers */
    bool icnt;
    unsigned node, max_out, line_bytes, outstanding;
    struct spu_iu_pend {
        uint32_t cb, n, off;
    } * pend;
    unsigned *free_ids, n_free;
    unsigned round_xi;
    uint64_t mem_wait_since;
    gsc_fifo *req_f, *resp_f;
    /* an SM's role (spu_iu_new_sm): with path=icnt the requests go through the SM's memory port (its
     * ldst's `iu` export), as its binding number `sm_slot` of the ldst's `iu_reply` */
    bool sm_role;
    unsigned sm_slot;
    const ldst_iu_if *sm_port;
    void *sm_port_self;
    /* running IU code instead of a plan (spu_iu_code.h), NULL: the plan */
    struct spu_iu_code *code;
    /* traced */
    uint32_t round;
    uint8_t state;
    blk_call_probe *probe[SPU_IU_SM_REPLY + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} spu_iu;

extern const blk_desc spu_iu_desc;
/* unit: its index among the barrier's units; store: a south/east unit. */
spu_iu *spu_iu_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned unit, bool store);
/* The interface unit's role an SM plays in partial passes (a storer in role mode): the same unit,
 * but with path=icnt its requests leave through that SM's memory port, bound by the machine: its
 * `sm_mem` import to the SM's ldst `iu` export, the ldst's `iu_reply` import (binding number
 * `slot`) to its `sm_reply` export; no interconnect node of its own. */
spu_iu *spu_iu_new_sm(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned unit,
                      unsigned slot);
/* The plan: `rounds` barriers, the transfers (sorted by round, round <= rounds). Before the run. */
/* sync_dir 0: global blocksync, `rounds` barriers (see above); else producer-consumer toward sync_dir
 * (a loader: round r's transfers then its sync; a storer: its sync then round r's transfers;
 * `rounds` rounds, then it leaves). */
void spu_iu_set_plan(spu_iu *u, unsigned rounds, const spu_iu_xfer *xfers, unsigned n, unsigned sync_dir);
/* Role mode (before the run): the unit idles until spu_iu_start_role; done(ctx, u) is called when a
 * role's last round has ended. Under producer-consumer sync (a storer) the unit leaves the barrier
 * at a role's end; under global sync it does not (the grid says who takes part in a pass:
 * spu_ctl_set_present), and a role of `rounds` rounds makes rounds - 1 blocksyncs: round r's
 * transfers, then the barrier, but after the last round (a storer's stores of the last faces). */
void spu_iu_set_roles(spu_iu *u, void (*done)(void *ctx, spu_iu *u), void *ctx);
/* Starts a role of `rounds` rounds (the plan's next ones) from the next cycle. */
void spu_iu_start_role(spu_iu *u, unsigned rounds);
/* icnt_path, the planned and the IU-code units alike: send q (its id set here) under a free id,
 * through the SM's memory port for an SM's role, else the unit's req FIFO; the caller has checked
 * that an id is free and that there is room. Returns the id. */
unsigned spu_iu_send(spu_iu *u, mem_req_t *q);
/* icnt_path: the reply r's id, freed for the next request. */
unsigned spu_iu_reply_id(spu_iu *u, const mem_resp_t *r);
/* path=icnt: the unit's interconnect node (its requests' src). Before the run. */
void spu_iu_set_node(spu_iu *u, unsigned node);
void spu_iu_free(spu_iu *u);

G_END_DECLS

#endif
