/* cache.h — a set-associative tag array with LRU, per-line state and metadata, an eviction hook,
 * an MSHR table with merging, and the GPGPU-Sim L1D policy decisions. No data is stored here: the
 * block that wraps a tag array keeps values in the functional memory image or a side buffer.
 *
 * Behaviour follows GPGPU-Sim's tag_array / mshr_table / data_cache (as described in its manual
 * and configs; no code taken from it):
 *  - probe: HIT (VALID or MODIFIED line), HIT_RESERVED (line reserved, fill pending), MISS (a way can
 *    be given up: the first INVALID way, else the least recently used non-reserved way), or
 *    RESERVATION_FAIL (every way of the set is reserved);
 *  - access with allocation reserves the victim way for the missing line (evicting what was there)
 *    and writes the caller's metadata into it; fill turns the reserved line VALID;
 *  - the eviction hook is called with the evicted line's address, state and metadata whenever a
 *    VALID/MODIFIED line leaves the array (replacement or invalidation; the reason says which). The
 *    victim tag array of CCWS (CCWS/DAWS/VWS spec §5.2/§5.3) is built from it: L1D lines carry the
 *    reserving warp id as metadata, and the hook inserts the evicted tag into that warp's VTA,
 *    itself a cache_tags (tags only, 2 sets x 8 ways per warp, allocate-on-fill).
 * Addresses are byte addresses; the "line address" is addr / line_size.
 */
#ifndef GPUSC_MODELS_LIB_CACHE_H
#define GPUSC_MODELS_LIB_CACHE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
    CACHE_HIT,
    CACHE_HIT_RESERVED,
    CACHE_MISS,
    CACHE_RESERVATION_FAIL,
    CACHE_STATUS_COUNT
} cache_status;
const char *cache_status_name(cache_status s); /* "HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL" */

/* Why an access could not be accepted this cycle (a stall reason the block counts). */
typedef enum {
    CACHE_FAIL_NONE,
    CACHE_FAIL_NO_LINE,    /* every way of the set is reserved */
    CACHE_FAIL_MSHR_FULL,  /* no free MSHR entry for a new line */
    CACHE_FAIL_MERGE_FULL, /* the line's MSHR entry already holds max_merged requests */
    CACHE_FAIL_COUNT
} cache_fail;
const char *cache_fail_name(cache_fail f); /* "none", "no-line", "mshr-full", "merge-full" */

typedef enum {
    CACHE_LINE_INVALID,
    CACHE_LINE_VALID,
    CACHE_LINE_RESERVED, /* allocated on a miss, fill pending */
    CACHE_LINE_MODIFIED, /* valid and dirty (write-back data) */
} cache_line_state;

typedef struct {
    uint64_t line_addr; /* addr / line_size; meaningless when INVALID */
    cache_line_state state;
    uint64_t last_use; /* LRU stamp: larger = more recent */
    uint64_t meta;     /* user payload (e.g. the reserving warp id) */
} cache_line;

typedef enum {
    CACHE_INDEX_LINEAR, /* line_addr mod sets (GPGPU-Sim default 'L') */
    CACHE_INDEX_XOR,    /* line_addr XOR-folded in log2(sets)-bit chunks, mod sets (sets: power of 2) */
    CACHE_INDEX_CUSTOM, /* cache_tags_set_index_fn */
} cache_index_kind;

typedef struct {
    unsigned sets;
    unsigned ways;
    unsigned line_size; /* bytes, power of two */
    cache_index_kind index;
} cache_config;

typedef unsigned (*cache_index_fn)(uint64_t line_addr, unsigned sets, void *ctx);

typedef enum { CACHE_EVICT_REPLACE, CACHE_EVICT_INVALIDATE } cache_evict_reason;

typedef struct {
    uint64_t line_addr;
    cache_line_state state; /* VALID or MODIFIED (MODIFIED: the block must write it back) */
    uint64_t meta;
    unsigned set, way;
    cache_evict_reason reason;
} cache_eviction;

typedef void (*cache_evict_fn)(const cache_eviction *ev, void *ctx);

typedef struct cache_tags cache_tags;

/* Returns NULL and sets err for a malformed configuration (0 sets/ways, line size not a power of
 * two, XOR index with sets not a power of two). */
cache_tags *cache_tags_new(const cache_config *cfg, GError **err);
void cache_tags_free(cache_tags *t);
const cache_config *cache_tags_config(const cache_tags *t);

void cache_tags_set_index_fn(cache_tags *t, cache_index_fn fn, void *ctx); /* for CACHE_INDEX_CUSTOM */
void cache_tags_set_evict_hook(cache_tags *t, cache_evict_fn fn, void *ctx);

uint64_t cache_tags_line_addr(const cache_tags *t, uint64_t addr);
unsigned cache_tags_set_of(const cache_tags *t, uint64_t addr);

/* No side effects. *way_out: the hit way, or the victim way for MISS (unchanged on RESERVATION_FAIL). */
cache_status cache_tags_probe(const cache_tags *t, uint64_t addr, unsigned *way_out);

/* Probe, then: HIT / HIT_RESERVED update LRU; MISS with `allocate` evicts the victim (hook) and
 * reserves the way for this line with `meta`; MISS without `allocate` changes nothing. */
cache_status cache_tags_access(cache_tags *t, uint64_t addr, bool allocate, uint64_t meta, unsigned *way_out);

/* The fill of a pending line: a RESERVED line for addr becomes VALID (LRU updated, meta kept) and
 * true is returned. Without a reservation (allocate-on-fill, as the I-cache and the VTA use), the line
 * is allocated now with `meta` (evicting a victim) and true is returned; false if the line is already
 * present or every way is reserved. */
bool cache_tags_fill(cache_tags *t, uint64_t addr, uint64_t meta);
/* cache_tags_fill, and *set: the line's set (the one the fill may have changed). */
bool cache_tags_fill_in(cache_tags *t, uint64_t addr, uint64_t meta, unsigned *set);

/* Drops the line (VALID/MODIFIED: hook called with CACHE_EVICT_INVALIDATE; RESERVED lines are kept:
 * their fill is still in flight). Returns true if a VALID/MODIFIED line was dropped. */
bool cache_tags_invalidate(cache_tags *t, uint64_t addr);
void cache_tags_invalidate_all(cache_tags *t); /* kernel-boundary flush; hook per dropped line */

bool cache_tags_mark_modified(cache_tags *t, uint64_t addr); /* VALID -> MODIFIED; false if absent */
bool cache_tags_set_meta(cache_tags *t, uint64_t addr, uint64_t meta); /* false if absent */
const cache_line *cache_tags_line(const cache_tags *t, unsigned set, unsigned way);
const cache_line *cache_tags_find(const cache_tags *t, uint64_t addr); /* any non-INVALID line, or NULL */

/* ---- MSHR table ------------------------------------------------------------------------------ */
/* One entry per missing line address; each entry queues up to max_merged requests (opaque 64-bit ids
 * the block chooses). When the line's fill arrives, the entry is marked ready and its requests are
 * released one per call: entries in the order their fills arrived, requests in the order they merged;
 * the entry is freed with its last request. */
typedef struct cache_mshr cache_mshr;
/* The table's counts, at the start of its struct: read by the inline queries below (called once or
 * twice per activation of a cache block). Private otherwise. */
typedef struct {
    unsigned entries, max_merged;
    unsigned used;    /* entries in use (incl. ready ones) */
    unsigned ready_n; /* ready entries not yet drained */
} cache_mshr_hdr;

typedef enum {
    CACHE_MSHR_NEW,        /* a new entry was (or would be) allocated */
    CACHE_MSHR_MERGED,     /* merged into the existing entry */
    CACHE_MSHR_FULL,       /* no free entry for a new line */
    CACHE_MSHR_MERGE_FULL, /* the existing entry holds max_merged requests */
} cache_mshr_status;

cache_mshr *cache_mshr_new(unsigned entries, unsigned max_merged);
void cache_mshr_free(cache_mshr *m);
cache_mshr_status cache_mshr_check(const cache_mshr *m, uint64_t line_addr); /* no side effects */
cache_mshr_status cache_mshr_add(cache_mshr *m, uint64_t line_addr, uint64_t request);
bool cache_mshr_pending(const cache_mshr *m, uint64_t line_addr);    /* an entry (not yet ready) exists */
static inline unsigned cache_mshr_used(const cache_mshr *m) /* entries in use (incl. ready ones) */
{
    return ((const cache_mshr_hdr *)(const void *)m)->used;
}
unsigned cache_mshr_merged(const cache_mshr *m, uint64_t line_addr); /* requests queued for the line */
/* The fill for line_addr arrived; false if no pending entry exists for it. */
bool cache_mshr_mark_ready(cache_mshr *m, uint64_t line_addr);
static inline bool cache_mshr_has_ready(const cache_mshr *m)
{
    return ((const cache_mshr_hdr *)(const void *)m)->ready_n > 0;
}
/* Pops the next request of the oldest ready entry; false if none is ready. */
bool cache_mshr_next_ready(cache_mshr *m, uint64_t *request, uint64_t *line_addr);
/* The fill for line_addr arrived and its requests are released at once (a block that drains every
 * ready entry as soon as it is marked: no entry may be ready): the pending entry's requests into
 * requests[] (room for max_merged), in merge order, and the entry is freed. Returns their count; 0
 * (nothing changed) if no pending entry exists for the line. The same as cache_mshr_mark_ready and
 * cache_mshr_next_ready until none is ready, with one lookup. */
unsigned cache_mshr_take(cache_mshr *m, uint64_t line_addr, uint64_t *requests);

/* ---- the read path of a read-allocate cache (GPGPU-Sim rd_miss_base) ------------------------- */
/* HIT: LRU updated. HIT_RESERVED: the request is merged into the line's MSHR entry (or fails with
 * MERGE_FULL). MISS: needs a free MSHR entry; then the line is reserved with `meta` and the entry is
 * created (the block sends one request below). A line that is absent but still has an MSHR entry (it
 * was invalidated while pending) merges and reports HIT_RESERVED. Failures change nothing and set *why. */
cache_status cache_read(cache_tags *t, cache_mshr *m, uint64_t addr, uint64_t request, uint64_t meta,
                        cache_fail *why);
/* What cache_read would answer now (and *why of a failure), changing nothing. */
cache_status cache_read_check(const cache_tags *t, const cache_mshr *m, uint64_t addr, cache_fail *why);

/* cache_read in its three steps, for a block that decides an access before making it (a full miss
 * queue) or retries a refused one: the tag array's answer for the line (cache_read_probe, valid
 * while the line's set is unchanged: a fill or access in another set, or a change of the MSHR table,
 * leaves it valid), the decision against the MSHR table as it is now (cache_read_decide: cache_read's
 * status and *why, changing nothing), and its effects (cache_read_apply, right after the decision,
 * with the status decided, not RESERVATION_FAIL; the probe is spent then). probe, decide and apply in a row are cache_read. */
typedef struct {
    uint64_t la;        /* the line address */
    unsigned set, way;  /* its set; the hit way, or the victim way of a miss */
    cache_status probe; /* the tag array's answer (cache_tags_probe) */
    bool allocate, add; /* decided: reserve the way; add the request to the MSHR table */
    unsigned bucket;    /* decided: where the MSHR table holds the line (private to cache.c) */
} cache_read_plan;
void cache_read_probe(const cache_tags *t, uint64_t addr, cache_read_plan *p);
cache_status cache_read_decide(const cache_mshr *m, cache_read_plan *p, cache_fail *why);
void cache_read_apply(cache_tags *t, cache_mshr *m, const cache_read_plan *p, cache_status st, uint64_t request,
                      uint64_t meta);

/* The fill of a line read through cache_read (or its three steps) whose requests are released at
 * once: cache_tags_fill_in(t, addr, meta, set), then cache_mshr_take(m, its line address,
 * requests), with the same results. The line reserved by the miss that made the entry is found
 * where the miss put it (no set index, no search of the set). */
unsigned cache_read_fill(cache_tags *t, cache_mshr *m, uint64_t addr, uint64_t meta, unsigned *set,
                         uint64_t *requests);

/* ---- GPGPU-Sim L1D write policy (configs "L:L:m:N": global write-through with write-evict, local
 * write-back on hit, allocate on read miss, no write-allocate) ------------------------------- */
typedef enum { CACHE_OP_LOAD, CACHE_OP_STORE } cache_op;
typedef enum { CACHE_DATA_GLOBAL, CACHE_DATA_LOCAL } cache_data_kind;

typedef struct {
    bool allocate;   /* reserve a line and an MSHR entry; the reply fills the line */
    bool invalidate; /* drop the line (write-evict) */
    bool dirty;      /* mark the line MODIFIED (write-back; no request below now) */
    bool to_memory;  /* a request goes below the L1 now (miss fetch or written-through store) */
} cache_l1d_action;

/* What the L1D does for (op, kind) given the probe status:
 *  load  HIT: nothing; HIT_RESERVED: merge (no request); MISS: allocate + fetch.
 *  store global HIT: invalidate + write through (write-evict); otherwise write through, no allocate.
 *  store local HIT: mark modified, no request (write-back); otherwise write through, no allocate
 *    (GPGPU-Sim's no-write-allocate applies to local data too: a local store miss does not allocate;
 *    a MODIFIED local line is written back when it is evicted).
 *  RESERVATION_FAIL for a load: nothing (retry). A store never needs a line, so it never fails here. */
cache_l1d_action cache_l1d_policy(cache_op op, cache_data_kind kind, cache_status st);

/* Applies cache_l1d_policy to a store: probes, invalidates or marks the line, and returns the probe
 * status; *action says whether a write goes below. */
cache_status cache_l1d_store(cache_tags *t, uint64_t addr, cache_data_kind kind, cache_l1d_action *action);

#define CACHE_ERROR (cache_error_quark())
GQuark cache_error_quark(void);

G_END_DECLS

#endif
