/* rfcache.h — the register-file cache inside the operand collectors (Malekeh): the cached collector
 * unit's Cache Table (CT) and its replacement, the CCU allocator with its waiting mechanism, and the
 * dynamic STHLD controller, as pure C (no SystemC) so the rules are tested exactly. The SM block that
 * uses them is models/sm/ccu.h; docs/rfcache.md describes the design.
 *
 * A CCU (cached collector unit) holds the registers of one warp at a time (`warp`, kept after
 * dispatch) in `ct_entries` fully associative entries: tag (the 32-bit physical register), valid,
 * lock (a source of the instruction in the CCU, pending dispatch: never replaced), RD (near/far hint
 * of the value's next reuse), an LRU stamp and the data (32 lanes of 32 bits). An entry is allocated:
 *  - for a source at allocation (rfc_source: hit, or miss + replacement; locked, RD from the hint);
 *  - for a destination at write-back (rfc_dest: not locked), only for near writes (the write filter
 *    is the caller's).
 * Replacement (rfc_victim): an invalid entry first; locked entries never; a random far entry; else
 * the LRU entry (RFC_REPL_LRU: the LRU of the unlocked entries, the "traditional policy" ablation).
 *
 * Allocation (rfc_allocate) for the warp chosen by the issue stage:
 *  - the warp owns a CCU (its `warp` field): free -> that CCU (case 3); occupied -> none (case 4);
 *  - else a free CCU with no near value exists -> a random one of them, flushed (case 5);
 *  - else every CCU occupied -> none (case 6);
 *  - else (free CCUs all hold near values): counter < sthld -> none, counter + 1 (cases 7, 8);
 *    otherwise a random free CCU, flushed, counter = 0 (case 9).
 * The RNG is a per-instance xorshift seeded by the caller (reproducible per simulation). */
#ifndef GPUSC_MODELS_LIB_RFCACHE_H
#define GPUSC_MODELS_LIB_RFCACHE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define RFC_MAX_CT    16 /* CT entries per CCU (ct_entries: 8 [S]) */
#define RFC_MAX_OCT   8  /* OCT slots per CCU (6 [S]) */
#define RFC_LANES     32
#define RFC_NO_WARP   (-1)
#define RFC_MAX_STATE 6

typedef enum { RFC_REPL_MALEKEH, RFC_REPL_LRU } rfc_repl;

typedef struct {
    bool valid, lock, near;
    uint16_t tag;
    uint32_t owner; /* the caller's qualifier of the tag (the SM: the register slot holding the value) */
    uint64_t lru;   /* last use stamp: larger is more recent */
    uint32_t data[RFC_LANES];
} rfc_entry;

typedef struct {
    int warp;  /* the warp whose registers the CT holds (RFC_NO_WARP: none) */
    bool busy; /* holds an instruction awaiting dispatch */
    unsigned n_ct;
    uint64_t clock; /* LRU stamps */
    rfc_entry ct[RFC_MAX_CT];
} rfc_ccu;

typedef struct {
    uint64_t s;
} rfc_rng;
void rfc_rng_seed(rfc_rng *r, uint64_t seed);
unsigned rfc_rng_below(rfc_rng *r, unsigned n); /* uniform in [0, n), n > 0 */

void rfc_ccu_init(rfc_ccu *c, unsigned ct_entries);
void rfc_flush(rfc_ccu *c); /* every entry invalid (the warp id stays: the caller sets it) */
bool rfc_has_near(const rfc_ccu *c);
unsigned rfc_valid_count(const rfc_ccu *c);
int rfc_lookup(const rfc_ccu *c, unsigned tag); /* entry index or -1 */
/* The entry to replace, or -1 if every entry is locked. */
int rfc_victim(rfc_ccu *c, rfc_repl repl, rfc_rng *rng);
/* A source at allocation: returns the entry (hit: *hit true) or a replaced one (miss: tag set, data
 * left to the caller's fill), locked, RD = near, LRU updated; -1 if none could be replaced. */
int rfc_source(rfc_ccu *c, unsigned tag, bool near, rfc_repl repl, rfc_rng *rng, bool *hit);
/* A destination write-back: the entry of tag, or a replaced one; not locked; RD, LRU updated. */
int rfc_dest(rfc_ccu *c, unsigned tag, bool near, rfc_repl repl, rfc_rng *rng);
bool rfc_invalidate(rfc_ccu *c, unsigned tag); /* true if it was present */
void rfc_unlock_all(rfc_ccu *c);
/* BOW's window (the caller keeps an entry's lru = the number of the warp's last instruction that used
 * it): as instruction `num` arrives, unlocked entries last used by instruction num - window or older
 * leave the window (invalid). Returns how many. */
unsigned rfc_window_expire(rfc_ccu *c, uint64_t num, unsigned window);

typedef enum {
    RFC_ALLOC_OWN = 3,      /* the warp's own free CCU (no flush) */
    RFC_ALLOC_OWN_BUSY = 4, /* its own CCU is occupied: no allocation */
    RFC_ALLOC_FAR = 5,      /* a free CCU with no near value, flushed */
    RFC_ALLOC_ALL_BUSY = 6, /* every CCU occupied */
    RFC_ALLOC_WAIT = 7,     /* postponed (counter < STHLD; counter incremented: 8) */
    RFC_ALLOC_FORCED = 9,   /* counter reached STHLD: a random free CCU, flushed; counter reset */
    RFC_ALLOC_RANDOM = 10,  /* the baseline allocator: a random free CCU (flushed if another warp's) */
} rfc_alloc_case;

/* Malekeh's allocator over n CCUs for `warp`; *ccu: the chosen CCU (cases 3, 5, 9), else -1. The
 * chosen CCU is not marked (the caller flushes it when its warp differs and sets busy). */
rfc_alloc_case rfc_allocate(const rfc_ccu *c, unsigned n, int warp, unsigned *counter, unsigned sthld,
                            rfc_rng *rng, int *ccu);
/* The baseline (random free collector) with the single-owner rule kept (case 4). */
rfc_alloc_case rfc_allocate_random(const rfc_ccu *c, unsigned n, int warp, rfc_rng *rng, int *ccu);

/* ---- dynamic STHLD: table-driven FSM next[state][S|L] -> (state', delta) ------------------------ */
typedef struct {
    uint8_t next;
    int8_t delta;
} rfc_edge;
typedef struct {
    rfc_edge edge[RFC_MAX_STATE][2]; /* [state 0..5 = source states 1..6][0: S, 1: L] */
    double threshold;                /* 0.02 [S]; equal counts as L [A] */
    unsigned state;                  /* 0-based */
    int sthld, sthld_max;            /* clamped to [0, sthld_max] (sthld_max < 0: no upper clamp) */
    double prev_ipc;                 /* < 0: no previous interval */
} rfc_sthld_ctrl;
/* The spec's placeholder table with delta d, state 1, STHLD `initial`. */
void rfc_sthld_init(rfc_sthld_ctrl *f, int d, int initial, int sthld_max);
/* One interval's IPC: returns the transition taken (0 S, 1 L, -1 the first interval: none). */
int rfc_sthld_step(rfc_sthld_ctrl *f, double ipc);

/* ---- storage (spec §14.2) ------------------------------------------------------------------------ */
typedef struct {
    unsigned subcores, ccus, ct_entries, oct_slots, reg_bytes, max_regs;
} rfc_geometry;
unsigned rfc_bits_for(unsigned n);                        /* ceil(log2 n) */
uint64_t rfc_added_bytes(const rfc_geometry *g);          /* data entries beyond the OCU's slots */
uint64_t rfc_ct_bytes_per_subcore(const rfc_geometry *g); /* CT data */
unsigned rfc_ct_control_bits(const rfc_geometry *g);      /* per CCU: tag + lock + RD + LRU + valid */

G_END_DECLS

#endif
