/* Unit tests for models/lib/cache: set mapping, LRU, hit/miss sequences, reservations, MSHR merging,
 * the read path, the L1D write policy and the eviction hook (a CCWS-style victim tag array). */
#include "models/lib/cache.h"

#define LINE 128u

static cache_tags *tags_new(unsigned sets, unsigned ways, cache_index_kind idx)
{
    GError *err = NULL;
    cache_tags *t =
        cache_tags_new(&(cache_config){.sets = sets, .ways = ways, .line_size = LINE, .index = idx}, &err);
    g_assert_no_error(err);
    return t;
}

/* Address of the n-th distinct line that maps to `set` under the linear index. */
static uint64_t addr_in_set(unsigned sets, unsigned set, unsigned n)
{
    return ((uint64_t)n * sets + set) * LINE;
}

typedef struct {
    GArray *evicted; /* cache_eviction */
} evict_log;

static void log_eviction(const cache_eviction *ev, void *ctx)
{
    evict_log *log = ctx;
    g_array_append_val(log->evicted, *ev);
}

static void test_config_errors(void)
{
    GError *err = NULL;
    g_assert_null(cache_tags_new(&(cache_config){.sets = 0, .ways = 4, .line_size = 128}, &err));
    g_assert_error(err, CACHE_ERROR, 0);
    g_clear_error(&err);
    g_assert_null(cache_tags_new(&(cache_config){.sets = 4, .ways = 4, .line_size = 100}, &err));
    g_assert_nonnull(strstr(err->message, "power of two"));
    g_clear_error(&err);
    g_assert_null(cache_tags_new(
        &(cache_config){.sets = 6, .ways = 4, .line_size = 128, .index = CACHE_INDEX_XOR}, &err));
    g_clear_error(&err);
    cache_tags *t = cache_tags_new(&(cache_config){.sets = 6, .ways = 4, .line_size = 128}, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(cache_tags_set_of(t, 7 * 128), ==, 1); /* linear works for any set count */
    cache_tags_free(t);
}

static unsigned index_top(uint64_t line_addr, unsigned sets, void *ctx)
{
    (void)ctx;
    return (unsigned)((line_addr >> 8) % sets);
}

static void test_set_mapping(void)
{
    cache_tags *t = tags_new(32, 4, CACHE_INDEX_LINEAR);
    g_assert_cmpuint(cache_tags_line_addr(t, 0x12345), ==, 0x12345 / 128);
    g_assert_cmpuint(cache_tags_set_of(t, 0), ==, 0);
    g_assert_cmpuint(cache_tags_set_of(t, 127), ==, 0);
    g_assert_cmpuint(cache_tags_set_of(t, 128), ==, 1);
    g_assert_cmpuint(cache_tags_set_of(t, 31 * 128), ==, 31);
    g_assert_cmpuint(cache_tags_set_of(t, 32 * 128), ==, 0);
    g_assert_cmpuint(cache_tags_set_of(t, 0x12345), ==, (0x12345 / 128) % 32);
    cache_tags_free(t);

    /* XOR fold with 32 sets: line 0x21 = 0b1_00001 -> 1 ^ 1 = 0; line 0x20 -> 0 ^ 1 = 1. */
    t = tags_new(32, 4, CACHE_INDEX_XOR);
    g_assert_cmpuint(cache_tags_set_of(t, 0x21 * 128), ==, 0);
    g_assert_cmpuint(cache_tags_set_of(t, 0x20 * 128), ==, 1);
    g_assert_cmpuint(cache_tags_set_of(t, 5 * 128), ==, 5);
    /* (3 << 10) | (2 << 5) | 7: 3 ^ 2 ^ 7 = 6 */
    g_assert_cmpuint(cache_tags_set_of(t, (uint64_t)((3 << 10) | (2 << 5) | 7) * 128), ==, 6);
    /* lines strided by 32 all fall in set 0 linearly but spread under XOR */
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (unsigned i = 0; i < 32; i++)
        g_hash_table_add(seen, GUINT_TO_POINTER(cache_tags_set_of(t, (uint64_t)i * 32 * 128)));
    g_assert_cmpuint(g_hash_table_size(seen), ==, 32);
    g_hash_table_destroy(seen);
    cache_tags_free(t);

    /* The fold against the definition (chunk by chunk) for every power-of-two set count up to 4096
     * and random lines of up to 57 bits (the largest a 128-byte line of a 64-bit address has). */
    GRand *r = g_rand_new_with_seed(7);
    for (unsigned bits = 1; bits <= 12; bits++) {
        t = tags_new(1u << bits, 1, CACHE_INDEX_XOR);
        for (unsigned k = 0; k < 2000; k++) {
            uint64_t line = ((uint64_t)g_rand_int(r) << 32 | g_rand_int(r)) >> g_rand_int_range(r, 7, 64);
            uint64_t want = 0;
            for (uint64_t a = line; a; a >>= bits)
                want ^= a & ((1u << bits) - 1);
            g_assert_cmpuint(cache_tags_set_of(t, line * 128), ==, want);
        }
        cache_tags_free(t);
    }
    g_rand_free(r);

    t = tags_new(4, 2, CACHE_INDEX_CUSTOM);
    cache_tags_set_index_fn(t, index_top, NULL);
    g_assert_cmpuint(cache_tags_set_of(t, (uint64_t)0x300 * 128), ==, 3);
    g_assert_cmpuint(cache_tags_set_of(t, (uint64_t)0x3ff * 128), ==, 3);
    cache_tags_free(t);
}

static void test_hit_miss_sequence(void)
{
    cache_tags *t = tags_new(4, 2, CACHE_INDEX_LINEAR);
    unsigned way = 99;
    g_assert_cmpint(cache_tags_probe(t, 0x1000, &way), ==, CACHE_MISS);
    g_assert_cmpuint(way, ==, 0);
    g_assert_cmpint(cache_tags_access(t, 0x1000, false, 0, NULL), ==, CACHE_MISS); /* no allocation */
    g_assert_cmpint(cache_tags_probe(t, 0x1000, NULL), ==, CACHE_MISS);
    g_assert_cmpint(cache_tags_access(t, 0x1000, true, 7, &way), ==, CACHE_MISS);
    g_assert_cmpuint(way, ==, 0);
    g_assert_cmpint(cache_tags_line(t, cache_tags_set_of(t, 0x1000), 0)->state, ==, CACHE_LINE_RESERVED);
    g_assert_cmpint(cache_tags_access(t, 0x1010, true, 8, NULL), ==, CACHE_HIT_RESERVED); /* same line */
    g_assert_true(cache_tags_fill(t, 0x1000, 0));
    g_assert_cmpint(cache_tags_access(t, 0x107f, true, 9, &way), ==, CACHE_HIT);
    g_assert_cmpuint(way, ==, 0);
    g_assert_cmpuint(cache_tags_find(t, 0x1000)->meta, ==, 7); /* written on reservation only */
    g_assert_cmpint(cache_tags_access(t, 0x1080, true, 0, NULL), ==, CACHE_MISS); /* next line, next set */
    g_assert_false(cache_tags_fill(t, 0x1000, 0));                                /* already valid */
    cache_tags_free(t);
}

/* 4-way set: fill A B C D, touch A then C; the next two misses evict B then D. */
static void test_lru_order(void)
{
    cache_tags *t = tags_new(8, 4, CACHE_INDEX_LINEAR);
    evict_log log = {g_array_new(FALSE, FALSE, sizeof(cache_eviction))};
    cache_tags_set_evict_hook(t, log_eviction, &log);
    uint64_t a[6];
    for (unsigned i = 0; i < 6; i++)
        a[i] = addr_in_set(8, 3, i);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_cmpint(cache_tags_access(t, a[i], true, 100 + i, NULL), ==, CACHE_MISS);
        g_assert_true(cache_tags_fill(t, a[i], 0));
    }
    g_assert_cmpuint(log.evicted->len, ==, 0); /* invalid ways were used first */
    g_assert_cmpint(cache_tags_access(t, a[0], true, 0, NULL), ==, CACHE_HIT);
    g_assert_cmpint(cache_tags_access(t, a[2], true, 0, NULL), ==, CACHE_HIT);
    unsigned way;
    g_assert_cmpint(cache_tags_probe(t, a[4], &way), ==, CACHE_MISS);
    g_assert_cmpuint(way, ==, 1); /* B */
    g_assert_cmpint(cache_tags_access(t, a[4], true, 104, NULL), ==, CACHE_MISS);
    g_assert_cmpuint(log.evicted->len, ==, 1);
    cache_eviction *ev = &g_array_index(log.evicted, cache_eviction, 0);
    g_assert_cmpuint(ev->line_addr, ==, a[1] / LINE);
    g_assert_cmpuint(ev->meta, ==, 101);
    g_assert_cmpint(ev->reason, ==, CACHE_EVICT_REPLACE);
    g_assert_cmpuint(ev->set, ==, 3);
    g_assert_true(cache_tags_fill(t, a[4], 0));
    g_assert_cmpint(cache_tags_access(t, a[5], true, 105, NULL), ==, CACHE_MISS);
    ev = &g_array_index(log.evicted, cache_eviction, 1);
    g_assert_cmpuint(ev->line_addr, ==, a[3] / LINE); /* D */
    g_assert_cmpuint(ev->meta, ==, 103);
    /* A, C, E remain; other sets untouched */
    g_assert_cmpint(cache_tags_probe(t, a[0], NULL), ==, CACHE_HIT);
    g_assert_cmpint(cache_tags_probe(t, a[2], NULL), ==, CACHE_HIT);
    g_assert_cmpint(cache_tags_probe(t, a[1], NULL), ==, CACHE_MISS);
    g_assert_cmpint(cache_tags_probe(t, addr_in_set(8, 2, 0), NULL), ==, CACHE_MISS);
    g_array_free(log.evicted, TRUE);
    cache_tags_free(t);
}

/* Reserved lines are never victims; a set with every way reserved fails the reservation. */
static void test_reservation_fail(void)
{
    cache_tags *t = tags_new(2, 2, CACHE_INDEX_LINEAR);
    g_assert_cmpint(cache_tags_access(t, addr_in_set(2, 1, 0), true, 0, NULL), ==, CACHE_MISS);
    g_assert_cmpint(cache_tags_access(t, addr_in_set(2, 1, 1), true, 0, NULL), ==, CACHE_MISS);
    unsigned way = 77;
    g_assert_cmpint(cache_tags_probe(t, addr_in_set(2, 1, 2), &way), ==, CACHE_RESERVATION_FAIL);
    g_assert_cmpuint(way, ==, 77);
    g_assert_cmpint(cache_tags_access(t, addr_in_set(2, 1, 2), true, 0, NULL), ==, CACHE_RESERVATION_FAIL);
    g_assert_cmpint(cache_tags_probe(t, addr_in_set(2, 0, 2), NULL), ==, CACHE_MISS); /* other set */
    /* One fill frees a way: the valid line is now the only victim. */
    g_assert_true(cache_tags_fill(t, addr_in_set(2, 1, 1), 0));
    g_assert_cmpint(cache_tags_probe(t, addr_in_set(2, 1, 2), &way), ==, CACHE_MISS);
    g_assert_cmpuint(way, ==, 1);
    /* invalidate leaves a reserved line alone */
    g_assert_false(cache_tags_invalidate(t, addr_in_set(2, 1, 0)));
    g_assert_cmpint(cache_tags_probe(t, addr_in_set(2, 1, 0), NULL), ==, CACHE_HIT_RESERVED);
    /* allocate-on-fill into a full reserved set fails */
    g_assert_cmpint(cache_tags_access(t, addr_in_set(2, 1, 3), true, 0, NULL), ==, CACHE_MISS);
    g_assert_false(cache_tags_fill(t, addr_in_set(2, 1, 4), 0));
    cache_tags_free(t);
}

static void test_mshr(void)
{
    cache_mshr *m = cache_mshr_new(2, 3);
    g_assert_cmpint(cache_mshr_check(m, 10), ==, CACHE_MSHR_NEW);
    g_assert_cmpint(cache_mshr_add(m, 10, 1), ==, CACHE_MSHR_NEW);
    g_assert_cmpint(cache_mshr_add(m, 10, 2), ==, CACHE_MSHR_MERGED);
    g_assert_cmpint(cache_mshr_add(m, 10, 3), ==, CACHE_MSHR_MERGED);
    g_assert_cmpint(cache_mshr_add(m, 10, 4), ==, CACHE_MSHR_MERGE_FULL);
    g_assert_cmpuint(cache_mshr_merged(m, 10), ==, 3);
    g_assert_cmpint(cache_mshr_add(m, 20, 5), ==, CACHE_MSHR_NEW);
    g_assert_cmpint(cache_mshr_add(m, 30, 6), ==, CACHE_MSHR_FULL);
    g_assert_cmpint(cache_mshr_add(m, 20, 7), ==, CACHE_MSHR_MERGED);
    g_assert_cmpuint(cache_mshr_used(m), ==, 2);
    g_assert_true(cache_mshr_pending(m, 20));
    g_assert_false(cache_mshr_has_ready(m));
    uint64_t req, line;
    g_assert_false(cache_mshr_next_ready(m, &req, &line));
    g_assert_false(cache_mshr_mark_ready(m, 30));
    /* line 20's fill arrives first: its requests come out first, in merge order */
    g_assert_true(cache_mshr_mark_ready(m, 20));
    g_assert_true(cache_mshr_mark_ready(m, 10));
    g_assert_false(cache_mshr_mark_ready(m, 10));
    g_assert_false(cache_mshr_pending(m, 20));
    g_assert_cmpint(cache_mshr_add(m, 20, 8), ==, CACHE_MSHR_FULL); /* draining entry: no merge */
    uint64_t expect[][2] = {{5, 20}, {7, 20}, {1, 10}, {2, 10}, {3, 10}};
    for (unsigned i = 0; i < G_N_ELEMENTS(expect); i++) {
        g_assert_true(cache_mshr_next_ready(m, &req, &line));
        g_assert_cmpuint(req, ==, expect[i][0]);
        g_assert_cmpuint(line, ==, expect[i][1]);
        if (i == 1)
            g_assert_cmpuint(cache_mshr_used(m), ==, 1); /* line 20 freed with its last request */
    }
    g_assert_false(cache_mshr_has_ready(m));
    g_assert_cmpuint(cache_mshr_used(m), ==, 0);
    g_assert_cmpint(cache_mshr_add(m, 30, 6), ==, CACHE_MSHR_NEW);
    cache_mshr_free(m);
}

/* The MSHR table against a plain model (a list of entries searched linearly), over random
 * operations on few line addresses (so entries collide in the index, are deleted from the middle of
 * probe runs, and come back): every status, every released request and the occupancy agree. Fills
 * release their requests one at a time (mark_ready, next_ready) or, with none ready, at once
 * (cache_mshr_take). */
typedef struct {
    uint64_t line;
    uint64_t req[8];
    unsigned n, next;
    bool ready, used;
    unsigned ready_seq;
} ref_entry;

static void test_mshr_random(void)
{
    enum { ENTRIES = 6, MERGE = 3, LINES = 24, STEPS = 200000 };
    cache_mshr *m = cache_mshr_new(ENTRIES, MERGE);
    ref_entry ref[ENTRIES] = {{0}};
    unsigned seq = 0, id = 0;
    GRand *r = g_rand_new_with_seed(7);
    for (unsigned step = 0; step < STEPS; step++) {
        uint64_t line = (uint64_t)g_rand_int_range(r, 0, LINES) * 4096; /* same low bits */
        ref_entry *e = NULL;
        unsigned used = 0;
        for (unsigned i = 0; i < ENTRIES; i++) {
            used += ref[i].used;
            if (ref[i].used && ref[i].line == line)
                e = &ref[i];
        }
        g_assert_cmpuint(cache_mshr_used(m), ==, used);
        g_assert_cmpint(cache_mshr_pending(m, line), ==, e && !e->ready);
        switch (g_rand_int_range(r, 0, 3)) {
        case 0: { /* a request for the line */
            cache_mshr_status want = e && !e->ready
                                         ? (e->n >= MERGE ? CACHE_MSHR_MERGE_FULL : CACHE_MSHR_MERGED)
                                     : e || used == ENTRIES ? CACHE_MSHR_FULL
                                                            : CACHE_MSHR_NEW;
            g_assert_cmpint(cache_mshr_check(m, line), ==, want);
            g_assert_cmpint(cache_mshr_add(m, line, id), ==, want);
            if (want == CACHE_MSHR_MERGED) {
                e->req[e->n++] = id;
            } else if (want == CACHE_MSHR_NEW) {
                for (e = ref; e->used; e++)
                    ;
                *e = (ref_entry){.line = line, .req = {id}, .n = 1, .used = true};
            }
            id++;
            break;
        }
        case 1: /* its fill */
            if (!cache_mshr_has_ready(m) && g_rand_boolean(r)) { /* released at once */
                uint64_t req[MERGE];
                unsigned n = cache_mshr_take(m, line, req);
                g_assert_cmpuint(n, ==, e && !e->ready ? e->n : 0);
                for (unsigned i = 0; i < n; i++)
                    g_assert_cmpuint(req[i], ==, e->req[i]);
                if (n)
                    e->used = false;
                break;
            }
            g_assert_cmpint(cache_mshr_mark_ready(m, line), ==, e && !e->ready);
            if (e && !e->ready) {
                e->ready = true;
                e->ready_seq = seq++;
            }
            break;
        default: { /* release one request of the oldest ready entry */
            ref_entry *o = NULL;
            for (unsigned i = 0; i < ENTRIES; i++)
                if (ref[i].used && ref[i].ready && (!o || ref[i].ready_seq < o->ready_seq))
                    o = &ref[i];
            uint64_t req, la;
            g_assert_cmpint(cache_mshr_has_ready(m), ==, o != NULL);
            g_assert_cmpint(cache_mshr_next_ready(m, &req, &la), ==, o != NULL);
            if (o) {
                g_assert_cmpuint(req, ==, o->req[o->next]);
                g_assert_cmpuint(la, ==, o->line);
                if (++o->next == o->n)
                    o->used = false;
            }
        }
        }
        if (e)
            g_assert_cmpuint(cache_mshr_merged(m, line), ==, e->used ? e->n - e->next : 0);
    }
    g_rand_free(r);
    cache_mshr_free(m);
}

static void test_read_path(void)
{
    cache_tags *t = tags_new(2, 2, CACHE_INDEX_LINEAR);
    cache_mshr *m = cache_mshr_new(2, 2);
    cache_fail why;
    uint64_t a = addr_in_set(2, 0, 0), b = addr_in_set(2, 0, 1), c = addr_in_set(2, 0, 2),
             d = addr_in_set(2, 1, 0);
    g_assert_cmpint(cache_read(t, m, a, 1, 11, &why), ==, CACHE_MISS);
    g_assert_cmpint(why, ==, CACHE_FAIL_NONE);
    g_assert_cmpint(cache_read(t, m, a + 4, 2, 12, &why), ==, CACHE_HIT_RESERVED);
    g_assert_cmpint(cache_read(t, m, a + 8, 3, 13, &why), ==, CACHE_RESERVATION_FAIL);
    g_assert_cmpint(why, ==, CACHE_FAIL_MERGE_FULL);
    g_assert_cmpint(cache_read(t, m, b, 4, 14, &why), ==, CACHE_MISS);
    g_assert_cmpint(cache_read(t, m, d, 5, 15, &why), ==, CACHE_RESERVATION_FAIL);
    g_assert_cmpint(why, ==, CACHE_FAIL_MSHR_FULL);
    g_assert_cmpint(cache_tags_probe(t, d, NULL), ==, CACHE_MISS); /* failure changed nothing */
    g_assert_cmpint(cache_read(t, m, c, 6, 16, &why), ==, CACHE_RESERVATION_FAIL);
    g_assert_cmpint(why, ==, CACHE_FAIL_NO_LINE); /* set 0 fully reserved (checked before the MSHR) */
    /* fill a: tags then MSHR, then drain */
    g_assert_true(cache_tags_fill(t, a, 0));
    g_assert_true(cache_mshr_mark_ready(m, cache_tags_line_addr(t, a)));
    g_assert_cmpint(cache_read(t, m, a, 7, 17, &why), ==, CACHE_HIT);
    uint64_t req;
    g_assert_true(cache_mshr_next_ready(m, &req, NULL));
    g_assert_cmpuint(req, ==, 1);
    g_assert_true(cache_mshr_next_ready(m, &req, NULL));
    g_assert_cmpuint(req, ==, 2);
    g_assert_cmpuint(cache_tags_find(t, a)->meta, ==, 11);
    g_assert_cmpint(cache_read(t, m, d, 5, 15, &why), ==, CACHE_MISS);
    cache_mshr_free(m);
    cache_tags_free(t);
}

/* cache_read in its steps (probe, decide, apply) against cache_read, over random reads and fills on
 * two copies of a small cache: a refused read keeps its probe while only other sets change (as the
 * L1D's retries do), and deciding with it answers as a fresh read does; fills report their set
 * (cache_tags_fill_in) and release their requests at once (cache_mshr_take) as mark_ready and
 * next_ready do; the two caches stay line for line the same. */
static void test_read_steps(void)
{
    enum { SETS = 4, WAYS = 2, LINES = 16, STEPS = 100000 };
    cache_tags *ta = tags_new(SETS, WAYS, CACHE_INDEX_LINEAR), *tb = tags_new(SETS, WAYS, CACHE_INDEX_LINEAR);
    cache_mshr *ma = cache_mshr_new(3, 2), *mb = cache_mshr_new(3, 2);
    /* a third copy read with cache_read and filled with cache_read_fill */
    cache_tags *tc = tags_new(SETS, WAYS, CACHE_INDEX_LINEAR);
    cache_mshr *mc = cache_mshr_new(3, 2);
    cache_read_plan keep = {0};
    bool kept = false;
    uint64_t kept_addr = 0;
    unsigned reused = 0;
    GRand *r = g_rand_new_with_seed(11);
    for (unsigned step = 0; step < STEPS; step++) {
        uint64_t addr = (uint64_t)g_rand_int_range(r, 0, LINES) * LINE + (uint64_t)g_rand_int_range(r, 0, LINE);
        if (g_rand_int_range(r, 0, 3)) { /* a read */
            if (kept && g_rand_boolean(r))
                addr = kept_addr;
            cache_fail wa, wb;
            cache_status sa = cache_read(ta, ma, addr, step, step, &wa);
            cache_fail wc;
            g_assert_cmpint(cache_read(tc, mc, addr, step, step, &wc), ==, sa);
            g_assert_cmpint(wc, ==, wa);
            cache_read_plan p;
            if (kept && addr == kept_addr) {
                p = keep;
                reused++;
            } else {
                cache_read_probe(tb, addr, &p);
            }
            cache_status sb = cache_read_decide(mb, &p, &wb);
            g_assert_cmpint(sb, ==, sa);
            g_assert_cmpint(wb, ==, wa);
            if (sb == CACHE_RESERVATION_FAIL) { /* kept for the retry */
                keep = p;
                kept = true;
                kept_addr = addr;
            } else {
                cache_read_apply(tb, mb, &p, sb, step, step);
                if (kept && p.set == keep.set)
                    kept = false;
            }
        } else if (!g_rand_int_range(r, 0, 8)) { /* a store's invalidation (a reserved line stays) */
            bool dropped = cache_tags_invalidate(ta, addr);
            g_assert_cmpint(cache_tags_invalidate(tb, addr), ==, dropped);
            g_assert_cmpint(cache_tags_invalidate(tc, addr), ==, dropped);
            if (dropped && kept && cache_tags_set_of(ta, addr) == keep.set)
                kept = false;
        } else { /* a fill (of a pending line, or allocated on the fill) */
            unsigned set = SETS, set_c = SETS;
            g_assert_cmpint(cache_tags_fill_in(tb, addr, 0, &set), ==, cache_tags_fill(ta, addr, 0));
            g_assert_cmpuint(set, ==, cache_tags_set_of(ta, addr));
            if (kept && set == keep.set)
                kept = false;
            uint64_t la = cache_tags_line_addr(ta, addr), req[2], q;
            unsigned n = cache_mshr_take(mb, la, req), i = 0;
            uint64_t req_c[2];
            g_assert_cmpuint(cache_read_fill(tc, mc, addr, 0, &set_c, req_c), ==, n);
            g_assert_cmpuint(set_c, ==, set);
            for (unsigned k = 0; k < n; k++)
                g_assert_cmpuint(req_c[k], ==, req[k]);
            if (cache_mshr_mark_ready(ma, la))
                while (cache_mshr_next_ready(ma, &q, NULL)) {
                    g_assert_cmpuint(i, <, n);
                    g_assert_cmpuint(q, ==, req[i++]);
                }
            g_assert_cmpuint(i, ==, n);
        }
        g_assert_cmpuint(cache_mshr_used(mb), ==, cache_mshr_used(ma));
        g_assert_cmpuint(cache_mshr_used(mc), ==, cache_mshr_used(ma));
        for (unsigned s = 0; s < SETS; s++)
            for (unsigned w = 0; w < WAYS; w++) {
                const cache_line *a = cache_tags_line(ta, s, w);
                for (unsigned c = 0; c < 2; c++) {
                    const cache_line *b = cache_tags_line(c ? tc : tb, s, w);
                    g_assert_cmpint(b->state, ==, a->state);
                    if (a->state != CACHE_LINE_INVALID) {
                        g_assert_cmpuint(b->line_addr, ==, a->line_addr);
                        g_assert_cmpuint(b->meta, ==, a->meta);
                        g_assert_cmpuint(b->last_use, ==, a->last_use);
                    }
                }
            }
    }
    g_assert_cmpuint(reused, >, STEPS / 20); /* the kept probes were put to use */
    g_rand_free(r);
    cache_mshr_free(ma);
    cache_mshr_free(mb);
    cache_mshr_free(mc);
    cache_tags_free(ta);
    cache_tags_free(tb);
    cache_tags_free(tc);
}

static void test_l1d_policy(void)
{
    cache_l1d_action x;
    x = cache_l1d_policy(CACHE_OP_LOAD, CACHE_DATA_GLOBAL, CACHE_MISS);
    g_assert_true(x.allocate && x.to_memory && !x.invalidate && !x.dirty);
    x = cache_l1d_policy(CACHE_OP_LOAD, CACHE_DATA_GLOBAL, CACHE_HIT);
    g_assert_true(!x.allocate && !x.to_memory);
    x = cache_l1d_policy(CACHE_OP_LOAD, CACHE_DATA_LOCAL, CACHE_HIT_RESERVED);
    g_assert_true(!x.allocate && !x.to_memory);
    x = cache_l1d_policy(CACHE_OP_STORE, CACHE_DATA_GLOBAL, CACHE_HIT);
    g_assert_true(x.invalidate && x.to_memory && !x.allocate && !x.dirty);
    x = cache_l1d_policy(CACHE_OP_STORE, CACHE_DATA_GLOBAL, CACHE_MISS);
    g_assert_true(!x.invalidate && x.to_memory && !x.allocate);
    x = cache_l1d_policy(CACHE_OP_STORE, CACHE_DATA_LOCAL, CACHE_HIT);
    g_assert_true(x.dirty && !x.to_memory && !x.invalidate);
    x = cache_l1d_policy(CACHE_OP_STORE, CACHE_DATA_LOCAL, CACHE_MISS);
    g_assert_true(!x.dirty && x.to_memory && !x.allocate);
    x = cache_l1d_policy(CACHE_OP_STORE, CACHE_DATA_GLOBAL, CACHE_HIT_RESERVED);
    g_assert_true(x.to_memory && !x.invalidate);

    cache_tags *t = tags_new(1, 2, CACHE_INDEX_LINEAR);
    evict_log log = {g_array_new(FALSE, FALSE, sizeof(cache_eviction))};
    cache_tags_set_evict_hook(t, log_eviction, &log);
    g_assert_true(cache_tags_fill(t, 0, 3));
    g_assert_true(cache_tags_fill(t, 128, 4));
    g_assert_cmpint(cache_l1d_store(t, 4, CACHE_DATA_GLOBAL, &x), ==, CACHE_HIT);
    g_assert_true(x.invalidate && x.to_memory);
    g_assert_cmpint(cache_tags_probe(t, 0, NULL), ==, CACHE_MISS);
    g_assert_cmpuint(log.evicted->len, ==, 1);
    g_assert_cmpint(g_array_index(log.evicted, cache_eviction, 0).reason, ==, CACHE_EVICT_INVALIDATE);
    g_assert_cmpuint(g_array_index(log.evicted, cache_eviction, 0).meta, ==, 3);
    g_assert_cmpint(cache_l1d_store(t, 130, CACHE_DATA_LOCAL, &x), ==, CACHE_HIT);
    g_assert_true(x.dirty && !x.to_memory);
    g_assert_cmpint(cache_tags_find(t, 128)->state, ==, CACHE_LINE_MODIFIED);
    g_assert_cmpint(cache_l1d_store(t, 1024, CACHE_DATA_LOCAL, &x), ==, CACHE_MISS);
    g_assert_true(x.to_memory && !x.allocate);
    g_assert_cmpint(cache_tags_probe(t, 1024, NULL), ==, CACHE_MISS); /* no write allocate */
    /* evicting the dirty local line reports MODIFIED (the block writes it back) */
    g_assert_true(cache_tags_fill(t, 256, 0));
    g_assert_true(cache_tags_fill(t, 384, 0));
    g_assert_cmpuint(log.evicted->len, ==, 2);
    g_assert_cmpint(g_array_index(log.evicted, cache_eviction, 1).state, ==, CACHE_LINE_MODIFIED);
    g_assert_cmpuint(g_array_index(log.evicted, cache_eviction, 1).line_addr, ==, 1);
    cache_tags_invalidate_all(t);
    g_assert_cmpuint(log.evicted->len, ==, 4);
    g_assert_cmpint(cache_tags_probe(t, 256, NULL), ==, CACHE_MISS);
    g_array_free(log.evicted, TRUE);
    cache_tags_free(t);
}

/* A CCWS victim tag array (CCWS/DAWS/VWS spec §5.2/§5.3) on the eviction hook: L1D lines carry the
 * reserving warp id; evicted tags go to that warp's VTA (2 sets x 8 ways per warp); a later miss of
 * the same warp on that line hits in its VTA, a miss of another warp does not. */
typedef struct {
    cache_tags *vta[4];
} vta_set;

static void vta_insert(const cache_eviction *ev, void *ctx)
{
    vta_set *v = ctx;
    cache_tags *part = v->vta[ev->meta];
    cache_tags_fill(part, ev->line_addr * LINE, ev->meta);
}

static void test_victim_tag_array(void)
{
    vta_set v;
    for (unsigned w = 0; w < 4; w++)
        v.vta[w] = tags_new(2, 8, CACHE_INDEX_LINEAR);
    cache_tags *l1 = tags_new(1, 2, CACHE_INDEX_LINEAR);
    cache_mshr *m = cache_mshr_new(4, 4);
    cache_tags_set_evict_hook(l1, vta_insert, &v);
    cache_fail why;
    uint64_t x = 0x1000, y = 0x2000, z = 0x3000;
    /* warp 1 brings x, warp 2 brings y, warp 3 brings z: x (LRU) is evicted into warp 1's VTA */
    uint64_t lines[3] = {x, y, z};
    for (unsigned i = 0; i < 3; i++) {
        g_assert_cmpint(cache_read(l1, m, lines[i], i, 1 + i, &why), ==, CACHE_MISS);
        g_assert_true(cache_tags_fill(l1, lines[i], 0));
        g_assert_true(cache_mshr_mark_ready(m, lines[i] / LINE));
        g_assert_true(cache_mshr_next_ready(m, NULL, NULL));
    }
    g_assert_cmpint(cache_tags_probe(v.vta[1], x, NULL), ==, CACHE_HIT);
    g_assert_cmpint(cache_tags_probe(v.vta[2], x, NULL), ==, CACHE_MISS);
    g_assert_cmpint(cache_tags_probe(v.vta[1], y, NULL), ==, CACHE_MISS);
    g_assert_cmpuint(cache_tags_find(v.vta[1], x)->meta, ==, 1);
    g_assert_cmpuint(cache_tags_find(l1, z)->meta, ==, 3);
    cache_mshr_free(m);
    cache_tags_free(l1);
    for (unsigned w = 0; w < 4; w++)
        cache_tags_free(v.vta[w]);
}

static void test_names(void)
{
    g_assert_cmpstr(cache_status_name(CACHE_HIT_RESERVED), ==, "HIT_RESERVED");
    g_assert_cmpstr(cache_status_name(CACHE_RESERVATION_FAIL), ==, "RESERVATION_FAIL");
    g_assert_cmpstr(cache_fail_name(CACHE_FAIL_MERGE_FULL), ==, "merge-full");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cache/config-errors", test_config_errors);
    g_test_add_func("/cache/set-mapping", test_set_mapping);
    g_test_add_func("/cache/hit-miss", test_hit_miss_sequence);
    g_test_add_func("/cache/lru", test_lru_order);
    g_test_add_func("/cache/reservation-fail", test_reservation_fail);
    g_test_add_func("/cache/mshr", test_mshr);
    g_test_add_func("/cache/mshr-random", test_mshr_random);
    g_test_add_func("/cache/read-path", test_read_path);
    g_test_add_func("/cache/read-steps", test_read_steps);
    g_test_add_func("/cache/l1d-policy", test_l1d_policy);
    g_test_add_func("/cache/victim-tag-array", test_victim_tag_array);
    g_test_add_func("/cache/names", test_names);
    return g_test_run();
}
