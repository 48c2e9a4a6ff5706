/* scoreboard_block.h — the `scoreboard` block: per-warp register reservations for in-order issue
 * (models/lib/scoreboard.h is its storage). Spec: docs/baseline-design.md §2.2 scoreboard;
 * CCWS/DAWS/VWS spec §2.1 "in-order scoreboard"; GREENER's source reservations
 * (resource-sharing/GREENER spec §10.4) behind `source_reservations`.
 *
 * A passive block: it has no process. Its one client, the issue block, checks and reserves an
 * instruction's registers through the exported `scoreboard` interface in the cycle it decides to
 * issue, and releases them as completions and read reports arrive (docs/framework.md, the rule for
 * same-cycle interfaces). Traced: the pending register writes of all warps, and each call of the
 * interface (warp, register or PC) when `<sm>.scoreboard.sb.calls` is selected.
 *
 * Registers: the instructions and the release paths name register slots (payloads.h); built with
 * scoreboard_block_new_phys, the block reserves the physical registers of the register-allocated
 * code they are allocated to (docs/sm.md "Register namespaces"): R0.. first (a 64-bit value both
 * registers of its pair, a b128 value its quad), then the predicate file P0.. after them, then, for
 * a register the allocator left without one (regalloc did not run), its slot after both. Two
 * registers allocated to one physical register are then one scoreboard entry, as in hardware.
 */
#ifndef GPUSC_MODELS_SM_SCOREBOARD_BLOCK_H
#define GPUSC_MODELS_SM_SCOREBOARD_BLOCK_H

#include "kernels/run/kload.h"
#include "models/core/block.h"
#include "models/lib/scoreboard.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

/* The interface the scoreboard exports (hazard bits: scoreboard_hazard_bits). */
typedef struct {
    /* Hazards of instruction h for warp (its sources and destinations). */
    unsigned (*check)(void *self, unsigned warp, const decoded_t *h);
    /* Reserve h's destinations (and sources, with source reservations); long_op: a long-latency load. */
    void (*reserve)(void *self, unsigned warp, const decoded_t *h, bool long_op);
    void (*release_write)(void *self, unsigned warp, unsigned reg, bool long_op);
    void (*release_read)(void *self, unsigned warp, unsigned reg);
    void (*clear_warp)(void *self, unsigned warp); /* a new warp in the slot */
    unsigned (*pending_writes)(void *self, unsigned warp, unsigned reg);
    unsigned (*pending_reads)(void *self, unsigned warp, unsigned reg);
    bool (*source_reservations)(void *self);
    /* The warp's pending reservations (scoreboard registers it waits on being written, or read) */
    unsigned (*reserved)(void *self, unsigned warp);
} scoreboard_if;
extern const blk_iface scoreboard_iface;

enum { SCOREBOARD_SB };
enum {
    SCOREBOARD_STAT_RESERVED,
    SCOREBOARD_STAT_RELEASED,
    SCOREBOARD_STAT_READ_RELEASED,
    SCOREBOARD_STAT_HAZARDS,
};

/* A static instruction's scoreboard registers: pool[off .. off + n_src) its sources, then its n_dst
 * destinations. */
typedef struct {
    uint32_t off;
    uint16_t n_src, n_dst;
} scoreboard_static;

/* A function's static instructions: instruction pc is ins[base + pc], pc = n_instrs the implicit
 * ret past the end. */
typedef struct {
    uint32_t base, n_instrs;
} scoreboard_func;

/* What new_phys maps once for a module: the slot map, the three files' sizes and every static
 * instruction's registers (the checks and reservations of every cycle look them up). Read-only once
 * made, so the SMs of a machine share one (sm_env.sb_tables): their lines stay in the host's caches
 * from one SM's cycle to the next. */
typedef struct scoreboard_tables {
    uint32_t *map; /* slot -> scoreboard registers: map[slot] = first << 3 | count (count 1, 2 or 4) */
    unsigned n_slots, regs;
    unsigned n_gen, n_pred; /* the general and predicate files' sizes */
    scoreboard_func *funcs;
    unsigned n_funcs;
    scoreboard_static *ins;
    unsigned *pool;
    const ir_module *mod; /* the module they map */
    unsigned users;       /* the scoreboards sharing them (freed by the last) */
} scoreboard_tables;

typedef struct {
    /* what a check, a reservation or a release reads, on the record's first line */
    scoreboard *sb;
    blk_inst *inst;
    blk_call_probe *probe;
    /* slot -> scoreboard registers (the tables' map, or the block alone's identity) */
    const uint32_t *map;
    /* new_phys: the tables' funcs, ins and pool; NULL (the block alone): the slots are mapped at
     * each call */
    const scoreboard_func *funcs;
    const scoreboard_static *ins;
    const unsigned *pool;
    unsigned n_funcs;
    uint32_t tr_pending; /* traced: pending register writes, all warps */
    unsigned regs;       /* scoreboard registers per warp */
    unsigned n_slots;
    unsigned n_gen, n_pred; /* the general and predicate files' sizes (new_phys) */
    scoreboard_tables *tables; /* new_phys: the tables (shared or its own), else NULL */
    uint32_t *own_map;         /* the block alone: its identity map */
    sm_env *env;               /* new_phys: the environment whose tables it may share */
} scoreboard_block;

extern const blk_desc scoreboard_desc;
/* warps: warp slots; regs: registers per warp, the slots naming them directly (the block alone). */
scoreboard_block *scoreboard_block_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps,
                                       unsigned regs);
/* The SM's scoreboard: the slots of the env's loaded module (env->k of env->mod) name the physical
 * registers they are allocated to (see above); the tables are the env's (made by the first). */
scoreboard_block *scoreboard_block_new_phys(blk_ctx *ctx, gsc_module *parent, const char *name,
                                            unsigned warps, sm_env *env);
void scoreboard_block_free(scoreboard_block *b);

G_END_DECLS

#endif
