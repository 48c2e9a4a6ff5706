/* fetch.h — the `fetch` block: per-warp fetch PCs, the instruction cache, and decode (folded into
 * fetch, docs/baseline-design.md §8: one stage, the decoded instruction goes straight to the
 * warp's I-buffer in `issue`). Spec: the baseline front end (ccws-daws-vws.md §2.1 "fetch LRR";
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
 */
#ifndef GPUSC_MODELS_SM_FETCH_H
#define GPUSC_MODELS_SM_FETCH_H

#include "models/core/block.h"
#include "models/lib/cache.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum { FETCH_REDIRECT, FETCH_CREDIT, FETCH_OUT };
enum {
    FETCH_STAT_FETCHED,
    FETCH_STAT_ICACHE_HITS,
    FETCH_STAT_ICACHE_MISSES,
    FETCH_STAT_REDIRECTS,
    FETCH_STAT_ICACHE_HIT_RATE,
};

typedef struct {
    bool active;  /* fetching for a live warp */
    bool stopped; /* behind a control instruction, waiting for a redirect */
    uint16_t epoch;
    uint32_t func, pc;
    unsigned credits;
    uint64_t miss_until; /* 0: no fill pending */
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
    uint64_t eligible, missing;
    /* Decoded instructions by function and PC, filled at first fetch (decoding depends only on the
     * instruction and the loaded kernel, not on the warp); dropped at every launch. */
    decoded_t **decode_cache;    /* per function: its instructions (NULL until one is fetched) */
    uint8_t **decode_valid;      /* per function and PC: the entry is filled */
    unsigned decode_funcs;       /* functions the cache has room for */
    uint32_t decode_kernel_no;   /* the launch the cache belongs to */
    uint32_t last_warp, last_pc; /* traced */
    uint8_t fetched;             /* traced: fetched this cycle */
} fetch;

extern const blk_desc fetch_desc;
fetch *fetch_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned warps);
void fetch_free(fetch *f);

G_END_DECLS

#endif
