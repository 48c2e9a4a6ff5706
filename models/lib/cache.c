/* cache.c — tag array, MSHR table and L1D policy decisions; see cache.h. */
#include "models/lib/cache.h"

G_DEFINE_QUARK(gpusc - cache - error - quark, cache_error)

struct cache_tags {
    cache_config cfg;
    unsigned line_shift;
    unsigned set_bits; /* log2(sets) when sets is a power of two */
    cache_line *lines; /* sets * ways, set-major */
    uint64_t tick;     /* LRU clock: one step per touch */
    cache_index_fn index_fn;
    void *index_ctx;
    cache_evict_fn evict_fn;
    void *evict_ctx;
};

static const char *const status_names[CACHE_STATUS_COUNT] = {
    "HIT",
    "HIT_RESERVED",
    "MISS",
    "RESERVATION_FAIL",
};
static const char *const fail_names[CACHE_FAIL_COUNT] = {"none", "no-line", "mshr-full", "merge-full"};

const char *cache_status_name(cache_status s)
{
    g_return_val_if_fail(s < CACHE_STATUS_COUNT, "?");
    return status_names[s];
}

const char *cache_fail_name(cache_fail f)
{
    g_return_val_if_fail(f < CACHE_FAIL_COUNT, "?");
    return fail_names[f];
}

/* ---- tag array ------------------------------------------------------------------------------- */

static inline __attribute__((always_inline)) unsigned index_xor(uint64_t line_addr, unsigned set_bits)
{
    /* The XOR of the address's set_bits-wide chunks, by doubling: after the shifts by b, 2b, 4b, ...
     * chunk 0 holds the XOR of chunks 0..2^k-1, all of them once 2^k b reaches 64 (4 steps for 32
     * sets instead of a step per chunk). */
    uint64_t h = line_addr;
    if (set_bits >= 4 && set_bits <= 7) { /* 16 to 128 sets, the usual: exactly 4 steps, unrolled */
        h ^= h >> set_bits;
        h ^= h >> (2 * set_bits);
        h ^= h >> (4 * set_bits);
        h ^= h >> (8 * set_bits);
    } else {
        for (unsigned s = set_bits; s < 64; s <<= 1)
            h ^= h >> s;
    }
    return (unsigned)(h & (((uint64_t)1 << set_bits) - 1));
}

cache_tags *cache_tags_new(const cache_config *cfg, GError **err)
{
    const char *bad = NULL;
    if (cfg->sets == 0 || cfg->ways == 0)
        bad = "sets and ways must be at least 1";
    else if (cfg->line_size == 0 || (cfg->line_size & (cfg->line_size - 1)))
        bad = "line size must be a power of two";
    else if (cfg->index == CACHE_INDEX_XOR && (cfg->sets & (cfg->sets - 1)))
        bad = "the XOR set index needs a power-of-two number of sets";
    if (bad) {
        g_set_error(err, CACHE_ERROR, 0, "cache: %s (sets %u, ways %u, line %u)", bad, cfg->sets, cfg->ways,
                    cfg->line_size);
        return NULL;
    }
    /* A legal but huge cache must be an error the user can act on, not GLib's abort. */
    cache_line *lines = g_try_new0(cache_line, (gsize)cfg->sets * cfg->ways);
    if (!lines) {
        g_set_error(err, CACHE_ERROR, 0,
                    "cannot allocate %" G_GUINT64_FORMAT
                    " MiB of host memory for the tags of sets %u x ways %u",
                    ((guint64)cfg->sets * cfg->ways * sizeof(cache_line) + (1u << 20) - 1) >> 20, cfg->sets,
                    cfg->ways);
        return NULL;
    }
    cache_tags *t = g_new0(cache_tags, 1);
    t->cfg = *cfg;
    t->line_shift = (unsigned)g_bit_nth_lsf(cfg->line_size, -1);
    t->set_bits = (cfg->sets & (cfg->sets - 1)) ? 0 : (unsigned)g_bit_nth_lsf(cfg->sets, -1);
    t->lines = lines;
    return t;
}

void cache_tags_free(cache_tags *t)
{
    if (!t)
        return;
    g_free(t->lines);
    g_free(t);
}

const cache_config *cache_tags_config(const cache_tags *t)
{
    return &t->cfg;
}

void cache_tags_set_index_fn(cache_tags *t, cache_index_fn fn, void *ctx)
{
    t->index_fn = fn;
    t->index_ctx = ctx;
}

void cache_tags_set_evict_hook(cache_tags *t, cache_evict_fn fn, void *ctx)
{
    t->evict_fn = fn;
    t->evict_ctx = ctx;
}

uint64_t cache_tags_line_addr(const cache_tags *t, uint64_t addr)
{
    return addr >> t->line_shift;
}

/* Inlined into every probe: it runs once per access of every cache. */
static inline __attribute__((always_inline)) unsigned set_of_line(const cache_tags *t, uint64_t line_addr)
{
    switch (t->cfg.index) {
    case CACHE_INDEX_XOR:
        return t->set_bits ? index_xor(line_addr, t->set_bits) : 0;
    case CACHE_INDEX_CUSTOM: {
        g_assert(t->index_fn);
        unsigned s = t->index_fn(line_addr, t->cfg.sets, t->index_ctx);
        g_assert(s < t->cfg.sets);
        return s;
    }
    case CACHE_INDEX_LINEAR:
    default:
        return (unsigned)(line_addr % t->cfg.sets);
    }
}

unsigned cache_tags_set_of(const cache_tags *t, uint64_t addr)
{
    return set_of_line(t, cache_tags_line_addr(t, addr));
}

static cache_line *line_at(const cache_tags *t, unsigned set, unsigned way)
{
    return &t->lines[(gsize)set * t->cfg.ways + way];
}

const cache_line *cache_tags_line(const cache_tags *t, unsigned set, unsigned way)
{
    g_return_val_if_fail(set < t->cfg.sets && way < t->cfg.ways, NULL);
    return line_at(t, set, way);
}

/* The way holding line_addr in `set` (any non-INVALID state), or -1. */
static int find_way(const cache_tags *t, unsigned set, uint64_t line_addr)
{
    for (unsigned w = 0; w < t->cfg.ways; w++) {
        const cache_line *l = line_at(t, set, w);
        if (l->state != CACHE_LINE_INVALID && l->line_addr == line_addr)
            return (int)w;
    }
    return -1;
}

/* cache_tags_probe on a known line address and set: find_way and find_victim in one pass over the
 * set (most probes of a streaming workload miss, and would walk it twice). */
static inline __attribute__((always_inline)) cache_status probe_set(const cache_tags *t, uint64_t la, unsigned set,
                                                                    unsigned *way_out)
{
    const cache_line *row = line_at(t, set, 0);
    int invalid = -1, lru = -1;
    uint64_t lru_use = 0; /* row[lru].last_use, kept in a register */
    for (unsigned w = 0, ways = t->cfg.ways; w < ways; w++) {
        const cache_line *l = &row[w];
        cache_line_state st = l->state;
        if (st == CACHE_LINE_INVALID) {
            if (invalid < 0)
                invalid = (int)w;
            continue;
        }
        if (l->line_addr == la) {
            *way_out = w;
            return st == CACHE_LINE_RESERVED ? CACHE_HIT_RESERVED : CACHE_HIT;
        }
        if (st != CACHE_LINE_RESERVED && (lru < 0 || l->last_use < lru_use)) {
            lru = (int)w;
            lru_use = l->last_use;
        }
    }
    /* the victim: the first INVALID way, else the LRU way among VALID/MODIFIED ones */
    int w = invalid >= 0 ? invalid : lru;
    if (w < 0)
        return CACHE_RESERVATION_FAIL;
    *way_out = (unsigned)w;
    return CACHE_MISS;
}

cache_status cache_tags_probe(const cache_tags *t, uint64_t addr, unsigned *way_out)
{
    uint64_t la = cache_tags_line_addr(t, addr);
    unsigned way = 0;
    cache_status st = probe_set(t, la, set_of_line(t, la), &way);
    if (way_out && st != CACHE_RESERVATION_FAIL)
        *way_out = way;
    return st;
}

static inline __attribute__((always_inline)) void drop_line(cache_tags *t, unsigned set, unsigned way,
                                                            cache_evict_reason reason)
{
    cache_line *l = line_at(t, set, way);
    if ((l->state == CACHE_LINE_VALID || l->state == CACHE_LINE_MODIFIED) && t->evict_fn) {
        cache_eviction ev = {.line_addr = l->line_addr,
                             .state = l->state,
                             .meta = l->meta,
                             .set = set,
                             .way = way,
                             .reason = reason};
        t->evict_fn(&ev, t->evict_ctx);
    }
    l->state = CACHE_LINE_INVALID;
}

static void install(cache_tags *t, unsigned set, unsigned way, uint64_t la, cache_line_state st,
                    uint64_t meta)
{
    drop_line(t, set, way, CACHE_EVICT_REPLACE);
    cache_line *l = line_at(t, set, way);
    *l = (cache_line){.line_addr = la, .state = st, .last_use = ++t->tick, .meta = meta};
}

/* cache_tags_access after probe_set gave st and way for line la of `set`. */
static void access_at(cache_tags *t, uint64_t la, unsigned set, unsigned way, cache_status st, bool allocate,
                      uint64_t meta)
{
    if (st == CACHE_HIT || st == CACHE_HIT_RESERVED)
        line_at(t, set, way)->last_use = ++t->tick;
    else if (st == CACHE_MISS && allocate)
        install(t, set, way, la, CACHE_LINE_RESERVED, meta);
}

cache_status cache_tags_access(cache_tags *t, uint64_t addr, bool allocate, uint64_t meta, unsigned *way_out)
{
    uint64_t la = cache_tags_line_addr(t, addr);
    unsigned set = set_of_line(t, la), way = 0;
    cache_status st = probe_set(t, la, set, &way);
    access_at(t, la, set, way, st, allocate, meta);
    if (way_out && st != CACHE_RESERVATION_FAIL)
        *way_out = way;
    return st;
}

static inline __attribute__((always_inline)) bool fill_line(cache_tags *t, uint64_t la, unsigned set,
                                                            uint64_t meta)
{
    /* the line is usually there, reserved by its miss: found without the victim search of a probe
     * (the way a probe would hit: the first non-INVALID one holding the line) */
    cache_line *row = line_at(t, set, 0);
    for (unsigned w = 0, ways = t->cfg.ways; w < ways; w++) {
        cache_line *l = &row[w];
        if (l->state == CACHE_LINE_INVALID || l->line_addr != la)
            continue;
        if (l->state != CACHE_LINE_RESERVED)
            return false;
        l->state = CACHE_LINE_VALID;
        l->last_use = ++t->tick;
        return true;
    }
    unsigned way = 0;
    if (probe_set(t, la, set, &way) != CACHE_MISS)
        return false;
    install(t, set, way, la, CACHE_LINE_VALID, meta);
    return true;
}

bool cache_tags_fill(cache_tags *t, uint64_t addr, uint64_t meta)
{
    uint64_t la = cache_tags_line_addr(t, addr);
    return fill_line(t, la, set_of_line(t, la), meta);
}

bool cache_tags_fill_in(cache_tags *t, uint64_t addr, uint64_t meta, unsigned *set)
{
    uint64_t la = cache_tags_line_addr(t, addr);
    *set = set_of_line(t, la);
    return fill_line(t, la, *set, meta);
}

bool cache_tags_invalidate(cache_tags *t, uint64_t addr)
{
    uint64_t la = cache_tags_line_addr(t, addr);
    unsigned set = set_of_line(t, la);
    int w = find_way(t, set, la);
    if (w < 0 || line_at(t, set, (unsigned)w)->state == CACHE_LINE_RESERVED)
        return false;
    drop_line(t, set, (unsigned)w, CACHE_EVICT_INVALIDATE);
    return true;
}

void cache_tags_invalidate_all(cache_tags *t)
{
    for (unsigned s = 0; s < t->cfg.sets; s++)
        for (unsigned w = 0; w < t->cfg.ways; w++)
            if (line_at(t, s, w)->state != CACHE_LINE_RESERVED)
                drop_line(t, s, w, CACHE_EVICT_INVALIDATE);
}

static cache_line *find_line(const cache_tags *t, uint64_t addr)
{
    uint64_t la = cache_tags_line_addr(t, addr);
    unsigned set = set_of_line(t, la);
    int w = find_way(t, set, la);
    return w < 0 ? NULL : line_at(t, set, (unsigned)w);
}

const cache_line *cache_tags_find(const cache_tags *t, uint64_t addr)
{
    return find_line(t, addr);
}

bool cache_tags_mark_modified(cache_tags *t, uint64_t addr)
{
    cache_line *l = find_line(t, addr);
    if (!l || l->state == CACHE_LINE_RESERVED)
        return false;
    l->state = CACHE_LINE_MODIFIED;
    return true;
}

bool cache_tags_set_meta(cache_tags *t, uint64_t addr, uint64_t meta)
{
    cache_line *l = find_line(t, addr);
    if (!l)
        return false;
    l->meta = meta;
    return true;
}

/* ---- MSHR table ------------------------------------------------------------------------------ */
/* Fixed storage, no allocation after cache_mshr_new (an L1D handles an MSHR operation per memory
 * transaction): `entries` slots, each with room for max_merged request ids; an open-addressing index
 * (linear probing, at most a quarter full, backward-shift deletion) from line address to slot; the ready
 * entries in fill order in a ring of slot numbers. */

typedef struct {
    uint64_t line_addr;
    uint64_t *requests; /* max_merged ids, in merge order */
    unsigned n;         /* requests merged */
    unsigned next;      /* next request to release once ready */
    bool ready;
    /* an entry made by a read miss (read_apply): where its line is reserved in the tag array, for
     * the fill (cache_read_fill); way MSHR_NO_WAY: unknown (an entry made by cache_mshr_add) */
    unsigned set, way;
} mshr_entry;
enum { MSHR_NO_WAY = ~0u };

struct cache_mshr {
    cache_mshr_hdr h;    /* entries, max_merged, used (slots in use), ready_n: read inline (cache.h) */
    mshr_entry *slot;    /* entries */
    uint64_t *requests;  /* entries * max_merged */
    unsigned *free_slot; /* stack of free slot numbers */
    unsigned n_free;
    int32_t *index; /* index_mask + 1 buckets: slot number or -1 */
    unsigned index_mask;
    unsigned *ready; /* ring of `entries` slot numbers, in fill order */
    unsigned ready_head;
};
G_STATIC_ASSERT(offsetof(struct cache_mshr, h) == 0);

static unsigned mshr_hash(const cache_mshr *m, uint64_t line_addr)
{
    return (unsigned)((line_addr * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & m->index_mask;
}

cache_mshr *cache_mshr_new(unsigned entries, unsigned max_merged)
{
    g_return_val_if_fail(entries > 0 && max_merged > 0, NULL);
    cache_mshr *m = g_new0(cache_mshr, 1);
    m->h.entries = entries;
    m->h.max_merged = max_merged;
    m->slot = g_new0(mshr_entry, entries);
    m->requests = g_new0(uint64_t, (gsize)entries * max_merged);
    m->free_slot = g_new(unsigned, entries);
    for (unsigned i = 0; i < entries; i++) {
        m->slot[i].requests = m->requests + (gsize)i * max_merged;
        m->free_slot[i] = entries - 1 - i; /* slot 0 is used first */
    }
    m->n_free = entries;
    unsigned buckets = 8; /* at most a quarter full: short probe runs to search and to close up */
    while (buckets < 4 * entries)
        buckets *= 2;
    m->index_mask = buckets - 1;
    m->index = g_new(int32_t, buckets);
    for (unsigned i = 0; i < buckets; i++)
        m->index[i] = -1;
    m->ready = g_new(unsigned, entries);
    return m;
}

void cache_mshr_free(cache_mshr *m)
{
    if (!m)
        return;
    g_free(m->slot);
    g_free(m->requests);
    g_free(m->free_slot);
    g_free(m->index);
    g_free(m->ready);
    g_free(m);
}

/* The index bucket holding line_addr's slot, or the empty bucket where it would go. */
static unsigned mshr_bucket(const cache_mshr *m, uint64_t line_addr)
{
    unsigned b = mshr_hash(m, line_addr);
    while (m->index[b] >= 0 && m->slot[m->index[b]].line_addr != line_addr)
        b = (b + 1) & m->index_mask;
    return b;
}

static mshr_entry *mshr_lookup(const cache_mshr *m, uint64_t line_addr)
{
    int32_t s = m->index[mshr_bucket(m, line_addr)];
    return s < 0 ? NULL : &m->slot[s];
}

/* Removes bucket b from the index, moving later entries of its probe run back (no tombstones). */
static inline __attribute__((always_inline)) void mshr_unindex(cache_mshr *m, unsigned b)
{
    unsigned hole = b;
    m->index[hole] = -1;
    for (unsigned i = (hole + 1) & m->index_mask; m->index[i] >= 0; i = (i + 1) & m->index_mask) {
        unsigned home = mshr_hash(m, m->slot[m->index[i]].line_addr);
        /* the entry at i may move to the hole unless its home lies cyclically in (hole, i] */
        if (((i - home) & m->index_mask) >= ((i - hole) & m->index_mask)) {
            m->index[hole] = m->index[i];
            m->index[i] = -1;
            hole = i;
        }
    }
}

/* cache_mshr_check; *bucket: the line's index bucket (cache_mshr_add's, until the table changes). */
static inline __attribute__((always_inline)) cache_mshr_status mshr_check_at(const cache_mshr *m,
                                                                            uint64_t line_addr, unsigned *bucket)
{
    unsigned b = *bucket = mshr_bucket(m, line_addr);
    const mshr_entry *e = m->index[b] < 0 ? NULL : &m->slot[m->index[b]];
    if (e && !e->ready)
        return e->n >= m->h.max_merged ? CACHE_MSHR_MERGE_FULL : CACHE_MSHR_MERGED;
    /* A ready entry still draining is not merged into: the new request starts a new fetch, but the
     * line address is busy in the table until it drains, so it cannot get a second entry either. */
    if (e)
        return CACHE_MSHR_FULL;
    return m->h.used >= m->h.entries ? CACHE_MSHR_FULL : CACHE_MSHR_NEW;
}

cache_mshr_status cache_mshr_check(const cache_mshr *m, uint64_t line_addr)
{
    unsigned b;
    return mshr_check_at(m, line_addr, &b);
}

/* cache_mshr_add with the line's index bucket b known. */
static inline __attribute__((always_inline)) cache_mshr_status mshr_add_at(cache_mshr *m, unsigned b,
                                                                          uint64_t line_addr, uint64_t request)
{
    mshr_entry *e = m->index[b] < 0 ? NULL : &m->slot[m->index[b]];
    if (e && !e->ready) {
        if (e->n >= m->h.max_merged)
            return CACHE_MSHR_MERGE_FULL;
        e->requests[e->n++] = request;
        return CACHE_MSHR_MERGED;
    }
    if (e || m->h.used >= m->h.entries)
        return CACHE_MSHR_FULL;
    unsigned s = m->free_slot[--m->n_free];
    m->h.used++;
    e = &m->slot[s];
    e->line_addr = line_addr;
    e->n = 1;
    e->next = 0;
    e->ready = false;
    e->way = MSHR_NO_WAY;
    e->requests[0] = request;
    m->index[b] = (int32_t)s;
    return CACHE_MSHR_NEW;
}

cache_mshr_status cache_mshr_add(cache_mshr *m, uint64_t line_addr, uint64_t request)
{
    return mshr_add_at(m, mshr_bucket(m, line_addr), line_addr, request);
}

bool cache_mshr_pending(const cache_mshr *m, uint64_t line_addr)
{
    mshr_entry *e = mshr_lookup(m, line_addr);
    return e && !e->ready;
}

unsigned cache_mshr_merged(const cache_mshr *m, uint64_t line_addr)
{
    mshr_entry *e = mshr_lookup(m, line_addr);
    return e ? e->n - e->next : 0;
}

bool cache_mshr_mark_ready(cache_mshr *m, uint64_t line_addr)
{
    mshr_entry *e = mshr_lookup(m, line_addr);
    if (!e || e->ready)
        return false;
    e->ready = true;
    m->ready[(m->ready_head + m->h.ready_n++) % m->h.entries] = (unsigned)(e - m->slot);
    return true;
}

bool cache_mshr_next_ready(cache_mshr *m, uint64_t *request, uint64_t *line_addr)
{
    if (m->h.ready_n == 0)
        return false;
    unsigned s = m->ready[m->ready_head];
    mshr_entry *e = &m->slot[s];
    if (request)
        *request = e->requests[e->next];
    if (line_addr)
        *line_addr = e->line_addr;
    if (++e->next == e->n) {
        m->ready_head = (m->ready_head + 1) % m->h.entries;
        m->h.ready_n--;
        mshr_unindex(m, mshr_bucket(m, e->line_addr));
        m->free_slot[m->n_free++] = s;
        m->h.used--;
    }
    return true;
}

/* Releases the requests of the entry in index bucket b (which holds one) into requests[] and frees
 * the entry; returns their count. */
static inline __attribute__((always_inline)) unsigned mshr_take_at(cache_mshr *m, unsigned b, uint64_t *requests)
{
    unsigned s = (unsigned)m->index[b];
    const mshr_entry *e = &m->slot[s];
    unsigned n = e->n - e->next;
    for (unsigned i = 0; i < n; i++) /* (usually one or two: no call to memcpy) */
        requests[i] = e->requests[e->next + i];
    mshr_unindex(m, b);
    m->free_slot[m->n_free++] = s;
    m->h.used--;
    return n;
}

unsigned cache_mshr_take(cache_mshr *m, uint64_t line_addr, uint64_t *requests)
{
    g_assert(m->h.ready_n == 0);
    unsigned b = mshr_bucket(m, line_addr);
    if (m->index[b] < 0)
        return 0;
    return mshr_take_at(m, b, requests);
}

/* ---- read path and L1D policy ---------------------------------------------------------------- */

static cache_status fail(cache_fail reason, cache_fail *why)
{
    if (why)
        *why = reason;
    return CACHE_RESERVATION_FAIL;
}

/* The tag array's part of cache_read for addr: the line, its set, and the probe's answer and way. */
static inline __attribute__((always_inline)) void read_probe(const cache_tags *t, uint64_t addr,
                                                             cache_read_plan *p)
{
    p->la = cache_tags_line_addr(t, addr);
    p->set = set_of_line(t, p->la);
    p->way = 0;
    p->probe = probe_set(t, p->la, p->set, &p->way);
}

/* What cache_read does after the probe p, decided without changing anything: the status (and *why of
 * a failure), and whether the way is reserved and an MSHR entry added. */
static inline __attribute__((always_inline)) cache_status read_decide(const cache_mshr *m, cache_read_plan *p,
                                                                      cache_fail *why)
{
    if (why)
        *why = CACHE_FAIL_NONE;
    p->allocate = p->add = false;
    cache_status st = p->probe;
    if (st == CACHE_HIT)
        return CACHE_HIT;
    cache_mshr_status ms = mshr_check_at(m, p->la, &p->bucket);
    if (st == CACHE_HIT_RESERVED || ms == CACHE_MSHR_MERGED || ms == CACHE_MSHR_MERGE_FULL) {
        if (ms == CACHE_MSHR_MERGE_FULL)
            return fail(CACHE_FAIL_MERGE_FULL, why);
        if (ms == CACHE_MSHR_FULL) /* the line's entry is draining (fill being delivered): retry */
            return fail(CACHE_FAIL_MSHR_FULL, why);
        p->add = true;
        return CACHE_HIT_RESERVED;
    }
    if (st == CACHE_RESERVATION_FAIL)
        return fail(CACHE_FAIL_NO_LINE, why);
    if (ms != CACHE_MSHR_NEW)
        return fail(CACHE_FAIL_MSHR_FULL, why);
    p->allocate = p->add = true;
    return CACHE_MISS;
}

static inline __attribute__((always_inline)) void read_apply(cache_tags *t, cache_mshr *m,
                                                             const cache_read_plan *p, cache_status st,
                                                             uint64_t request, uint64_t meta)
{
    access_at(t, p->la, p->set, p->way, st, p->allocate, meta);
    if (p->add && mshr_add_at(m, p->bucket, p->la, request) == CACHE_MSHR_NEW && p->allocate) {
        mshr_entry *e = &m->slot[m->index[p->bucket]]; /* its line: reserved at (set, way) just now */
        e->set = p->set;
        e->way = p->way;
    }
}

cache_status cache_read(cache_tags *t, cache_mshr *m, uint64_t addr, uint64_t request, uint64_t meta,
                        cache_fail *why)
{
    cache_read_plan p;
    read_probe(t, addr, &p);
    cache_status st = read_decide(m, &p, why);
    if (st == CACHE_RESERVATION_FAIL)
        return st;
    read_apply(t, m, &p, st, request, meta);
    return st;
}

cache_status cache_read_check(const cache_tags *t, const cache_mshr *m, uint64_t addr, cache_fail *why)
{
    cache_read_plan p;
    read_probe(t, addr, &p);
    return read_decide(m, &p, why);
}

void cache_read_probe(const cache_tags *t, uint64_t addr, cache_read_plan *p)
{
    read_probe(t, addr, p);
}

cache_status cache_read_decide(const cache_mshr *m, cache_read_plan *p, cache_fail *why)
{
    return read_decide(m, p, why);
}

void cache_read_apply(cache_tags *t, cache_mshr *m, const cache_read_plan *p, cache_status st, uint64_t request,
                      uint64_t meta)
{
    g_assert(st != CACHE_RESERVATION_FAIL);
    read_apply(t, m, p, st, request, meta);
}

unsigned cache_read_fill(cache_tags *t, cache_mshr *m, uint64_t addr, uint64_t meta, unsigned *set,
                         uint64_t *requests)
{
    g_assert(m->h.ready_n == 0);
    uint64_t la = cache_tags_line_addr(t, addr);
    unsigned b = mshr_bucket(m, la);
    if (G_UNLIKELY(m->index[b] < 0)) { /* no entry: the fill alone */
        *set = set_of_line(t, la);
        fill_line(t, la, *set, meta);
        return 0;
    }
    const mshr_entry *e = &m->slot[m->index[b]];
    /* A reserved line stays where its miss put it until its fill (no victim search, invalidation or
     * other fill moves it), and a line is held by one way of its set at most: found there, it is the
     * line fill_line would find. */
    cache_line *l;
    if (G_LIKELY(e->way != MSHR_NO_WAY && e->set < t->cfg.sets && e->way < t->cfg.ways &&
                 (l = line_at(t, e->set, e->way))->state == CACHE_LINE_RESERVED && l->line_addr == la)) {
        *set = e->set;
        l->state = CACHE_LINE_VALID;
        l->last_use = ++t->tick;
    } else {
        *set = set_of_line(t, la);
        fill_line(t, la, *set, meta);
    }
    return mshr_take_at(m, b, requests);
}

cache_l1d_action cache_l1d_policy(cache_op op, cache_data_kind kind, cache_status st)
{
    cache_l1d_action a = {0};
    if (op == CACHE_OP_LOAD) {
        a.allocate = a.to_memory = (st == CACHE_MISS);
        return a;
    }
    if (st == CACHE_HIT && kind == CACHE_DATA_LOCAL) {
        a.dirty = true;
        return a;
    }
    a.invalidate = (st == CACHE_HIT); /* global write-evict */
    a.to_memory = true;
    return a;
}

cache_status cache_l1d_store(cache_tags *t, uint64_t addr, cache_data_kind kind, cache_l1d_action *action)
{
    cache_status st = cache_tags_probe(t, addr, NULL);
    cache_l1d_action a = cache_l1d_policy(CACHE_OP_STORE, kind, st);
    if (a.invalidate)
        cache_tags_invalidate(t, addr);
    if (a.dirty) {
        cache_tags_access(t, addr, false, 0, NULL); /* a write hit is a use */
        cache_tags_mark_modified(t, addr);
    }
    if (action)
        *action = a;
    return st;
}
