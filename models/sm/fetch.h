/* fetch.h — the `fetch` block: per-warp fetch PCs and the instruction cache; each instruction it
 * sends is decoded in the same cycle by the decode block (its `dec` import: fetch and decode are one
 * pipeline stage, docs/baseline-design.md §8), and goes to the warp's I-buffer through `issue`. Spec: the baseline front end (CCWS/DAWS/VWS spec §2.1 "fetch LRR";
 * GPGPU-Sim's fetch/decode with a 2-entry I-buffer per warp).
 *
 * Per cycle: pick the next warp round-robin (the warp fetch scheduler) that is fetching, has an
 * I-buffer credit, is not stopped behind a control instruction and has no I-cache miss pending; probe
 * the I-cache for its PC's line: hit -> decode, put `decoded_t`, take a credit, advance the PC;
 * up to `fetch_width` consecutive instructions of the line go to the I-buffer at once;
 * miss -> start a fill of `icache_miss_latency` cycles (allocate on fill) and try another warp next
 * cycle. After a control instruction (bra, call, ret, exit) the warp stops until `issue` redirects
 * it (no speculative fetch). A redirect (a new CTA's warp, a taken branch, a reconvergence the
 * sequential PC missed) sets the PC, a new epoch and full credits.
 * Sleeps when no warp can fetch, until a redirect or credit arrives or the next fill completes.
 *
 * The optional `layout` import (a mechanism's code layout, e.g. register renaming's pir/pbr flag
 * words) places the instructions in the I-cache's address space and inserts words that are fetched
 * but never decoded: before a warp fetches an instruction, the layout names the flag words it fetches
 * first; each takes a slot of the fetch width and its I-cache line like an instruction, and needs no
 * I-buffer credit. Unbound: instruction pc of function func is at word (func << 16 | pc).
 */
#ifndef GPUSC_MODELS_SM_FETCH_H
#define GPUSC_MODELS_SM_FETCH_H

#include "models/core/block.h"
#include "models/lib/cache.h"
#include "models/lib/wmask.h"
#include "models/sm/decode.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum { FETCH_REDIRECT, FETCH_CREDIT, FETCH_OUT, FETCH_DEC, FETCH_GATE, FETCH_LAYOUT, FETCH_GANGS };

#define FETCH_MAX_SLICES 8
#define FETCH_MAX_GANGS  384

/* The `gangs` import (optional; an SM of lane slices): the gangs a gang fetch serves, each as
 * base warp << 8 | slice mask (its members are warps base + s for the bits s of the mask), at most
 * FETCH_MAX_GANGS. VWS's ganging unit exports it. */
typedef struct {
    unsigned (*list)(void *self, uint32_t *gangs);
} fetch_gangs_if;
extern const blk_iface fetch_gangs_iface;

/* The `gate` import (MULTI, optional): a mechanism that holds a warp's decode. Before each
 * instruction of warp `warp` (fetch epoch `epoch`) is decoded every gate is asked room(); one
 * refusal stalls that warp's decode this cycle (fetch tries another warp and asks again the next
 * cycle). Each instruction decoded is then shown to every gate (decoded). GREENER's run-time lookup
 * table binds here (docs/greener.md). Unbound: no call at all. */
typedef struct {
    bool (*room)(void *self, unsigned warp, uint16_t epoch, uint64_t cycle);
    void (*decoded)(void *self, const decoded_t *d);
} decode_gate_if;
extern const blk_iface decode_gate_iface;

#define FETCH_MAX_FLAGS    8          /* flag words a layout may put before one instruction */
#define FETCH_LAYOUT_STALL UINT32_MAX /* the layout's answer: the warp cannot fetch this cycle */

/* The `layout` interface. Word addresses count instr_bytes-sized words from the function's base
 * (func << 16 words). */
typedef struct {
    /* The word of instruction pc of func. */
    uint32_t (*word)(void *self, uint32_t func, uint32_t pc);
    /* Warp `warp`'s fetch reached instruction pc of func (once per instruction and redirect): the
     * flag words fetched before it, in order (at most FETCH_MAX_FLAGS, into `words`), or
     * FETCH_LAYOUT_STALL (asked again next time the warp may fetch). */
    unsigned (*flags)(void *self, unsigned warp, uint32_t func, uint32_t pc, uint64_t now, uint32_t *words);
} fetch_layout_if;
extern const blk_iface fetch_layout_iface;
enum {
    FETCH_STAT_FETCHED,
    FETCH_STAT_ICACHE_HITS,
    FETCH_STAT_ICACHE_MISSES,
    FETCH_STAT_REDIRECTS,
    FETCH_STAT_ICACHE_HIT_RATE,
    FETCH_STAT_FLAG_WORDS,
    FETCH_STAT_LAYOUT_STALLS,
    FETCH_STAT_WORDS,
    FETCH_STAT_GANG_FETCHES,
    FETCH_STAT_GANG_FILLS,
    FETCH_STAT_L0_HITS,
    FETCH_STAT_L0_MISSES,
    FETCH_STAT_PORT_STALLS,
};

typedef struct {
    bool active;  /* fetching for a live warp */
    bool stopped; /* behind a control instruction, waiting for a redirect */
    uint16_t epoch;
    uint32_t func, pc;
    unsigned credits;
    uint64_t miss_until; /* 0: no fill pending */
    /* the layout's flag words before instruction flag_pc - 1 (0: not asked yet), flag_i fetched */
    uint32_t flag_pc;
    uint8_t flag_n, flag_i;
    uint32_t flag_word[FETCH_MAX_FLAGS];
} fetch_warp;

typedef struct {
    blk_inst *inst;
    sm_env *env;
    unsigned warps, entries, miss_latency, width, instr_bytes;
    fetch_warp *w;
    cache_tags *icache;
    unsigned rr; /* last warp fetched */
    /* Bit i: warp i is active, not stopped and has a credit (it fetches unless a fill is pending);
     * bit i of `missing`: warp i has a fill pending (miss_until != 0). Kept by fetch_update. */
    wmask eligible, missing;
    unsigned words;       /* the words of those sets that hold the warps (wmask_words(warps)) */
    const decode_if *dec; /* the decode block (import `dec`) */
    void *dec_self;
    blk_iref *gate; /* the gates bound to `gate` (n_gate 0: none) */
    unsigned n_gate;
    bool gated;                  /* a gate refused this cycle: ask again next cycle */
    const fetch_layout_if *lay; /* the optional `layout` import (NULL: unbound) */
    void *lay_self;
    uint32_t last_warp, last_pc; /* traced */
    uint8_t fetched;             /* traced: fetched this cycle */
    /* An SM of lane slices (fetch_set_slices; 0 or 1: none): per slice its fetch scheduler's last
     * warp (srr, an index among the slice's warps) and L0 I-cache (l0, NULL: none); the gangs'
     * import and round-robin pointer. (The arbiter serves slice cycle mod slices first.) */
    unsigned slices, l1_ports, gang_rr;
    unsigned srr[FETCH_MAX_SLICES];
    cache_tags **l0;
    const fetch_gangs_if *gangs;
    void *gangs_self;
} fetch;

extern const blk_desc fetch_desc;
fetch *fetch_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned warps);
void fetch_free(fetch *f);
/* An SM of `slices` lane slices (the sm topology's `slicing`): a fetch scheduler and an L0 I-cache
 * (l0_bytes) per slice, l1_ports I-cache accesses per cycle, the gang fetch first (the `gangs`
 * import). Before elaboration. */
void fetch_set_slices(fetch *f, unsigned slices);

G_END_DECLS

#endif
