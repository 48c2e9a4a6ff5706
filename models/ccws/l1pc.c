/* l1pc.c — see l1pc.h. */
#include "models/ccws/l1pc.h"

#include "models/ccws/vta.h"
#include "models/sm/issue.h"

static const blk_port_desc ports[] = {
    [L1PC_ACCESS] = {"access", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "L1D load transactions (bind ldst.l1_access): hits, misses and merges per PC",
                     &l1_access_iface},
    [L1PC_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "instructions issued (bind issue.issued): dynamic loads and active lanes per PC",
                     &instr_issued_iface},
    [L1PC_VTA_HIT] = {"vta_hit", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                      "VTA hits (bind vta.hit, after ccws): lost locality per PC", &vta_hit_iface,
                      BLK_PORT_OPTIONAL},
    [L1PC_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "warp starts (bind issue.warp_events): a new warp's loop-trip history starts empty",
                     &warp_events_iface, BLK_PORT_OPTIONAL},
};

static const blk_param_desc params[] = {
    {"belady", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "record the L1D load stream for the offline Belady / LRU replay [S: BEL, misses only]"},
};

static const blk_stat_desc stats[] = {
    [L1PC_STAT_LOADS] = {"loads", BLK_STAT_COUNTER, "instructions",
                         "dynamic loads of global, local or generic memory issued", NULL},
    [L1PC_STAT_HITS] = {"hits", BLK_STAT_COUNTER, "transactions", "L1D hits attributed to a load PC", NULL},
    [L1PC_STAT_MISSES] = {"misses", BLK_STAT_COUNTER, "transactions", "L1D misses attributed to a load PC",
                          NULL},
    [L1PC_STAT_MERGED] = {"merged", BLK_STAT_COUNTER, "transactions",
                          "L1D merges into a pending line attributed to a load PC", NULL},
    [L1PC_STAT_INTRA] = {"intra_warp_hits", BLK_STAT_COUNTER, "hits",
                         "hits on a line the requesting warp's own miss brought in", NULL},
    [L1PC_STAT_INTRA_THREAD] = {"intra_thread_hits", BLK_STAT_COUNTER, "hits",
                                "intra-warp hits where a hitting lane touched the line before", NULL},
    [L1PC_STAT_INTER] = {"inter_warp_hits", BLK_STAT_COUNTER, "hits",
                         "hits on a line another warp's miss brought in", NULL},
    [L1PC_STAT_VTA_HITS] = {"vta_hits", BLK_STAT_COUNTER, "hits", "VTA hits attributed to a load PC", NULL},
    [L1PC_STAT_UNATTRIBUTED] = {"unattributed", BLK_STAT_COUNTER, "transactions",
                                "L1D transactions or VTA hits with no current load (0 when bound right)",
                                NULL},
    [L1PC_STAT_TRIP_THIS] = {"trip_this", BLK_STAT_COUNTER, "transactions",
                             "load transactions in a loop to a line another load of the warp touched in "
                             "this trip (Accessed-This-Trip)",
                             NULL},
    [L1PC_STAT_TRIP_LAST] = {"trip_last", BLK_STAT_COUNTER, "transactions",
                             "load transactions in a loop to a line the warp touched in the trip before "
                             "(Accessed-Last-Trip)",
                             NULL},
    [L1PC_STAT_TRIP_OTHER] = {"trip_other", BLK_STAT_COUNTER, "transactions",
                              "load transactions outside loops or to a line last touched in an older "
                              "trip, another loop or never (Other)",
                              NULL},
    [L1PC_STAT_INSTS] = {"insts", BLK_STAT_COUNTER, "instructions", "warp instructions issued", NULL},
    [L1PC_STAT_ACTIVE_LANES] = {"active_lanes", BLK_STAT_COUNTER, "threads",
                                "active lanes of the instructions issued, summed", NULL},
    [L1PC_STAT_LANES_BIN + 0] = {"lanes_0_4", BLK_STAT_COUNTER, "instructions",
                                 "instructions issued with 0 to 4 active lanes (W[0:4])", NULL},
    [L1PC_STAT_LANES_BIN + 1] = {"lanes_4_8", BLK_STAT_COUNTER, "instructions", "5 to 8 active lanes", NULL},
    [L1PC_STAT_LANES_BIN + 2] = {"lanes_8_12", BLK_STAT_COUNTER, "instructions", "9 to 12 active lanes",
                                 NULL},
    [L1PC_STAT_LANES_BIN + 3] = {"lanes_12_16", BLK_STAT_COUNTER, "instructions", "13 to 16 active lanes",
                                 NULL},
    [L1PC_STAT_LANES_BIN + 4] = {"lanes_16_20", BLK_STAT_COUNTER, "instructions", "17 to 20 active lanes",
                                 NULL},
    [L1PC_STAT_LANES_BIN + 5] = {"lanes_20_24", BLK_STAT_COUNTER, "instructions", "21 to 24 active lanes",
                                 NULL},
    [L1PC_STAT_LANES_BIN + 6] = {"lanes_24_28", BLK_STAT_COUNTER, "instructions", "25 to 28 active lanes",
                                 NULL},
    [L1PC_STAT_LANES_BIN + 7] = {"lanes_28_32", BLK_STAT_COUNTER, "instructions",
                                 "29 to 32 active lanes (W[28:32])", NULL},
};

const blk_desc l1pc_desc = {
    "l1pc",
    "per-static-load L1D statistics (hits intra-/inter-warp, intra-/inter-thread, misses, merges, VTA "
    "hits, loop-trip reuse), the lane-activity histogram and the offline Belady / LRU replay of the L1D "
    "load stream",
    "docs/ccws.md; CCWS/DAWS/VWS spec §10, §3 (BEL)",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    NULL,
    0,
};

static l1pc_counts *counts_of(l1pc *p, uint32_t func, uint32_t pc)
{
    uint64_t key = (uint64_t)func << 32 | pc;
    if (p->last && p->last_key == key)
        return p->last;
    l1pc_counts *c = g_hash_table_lookup(p->pcs, &key);
    if (!c) {
        uint64_t *k = g_new(uint64_t, 1);
        *k = key;
        c = g_new0(l1pc_counts, 1);
        g_hash_table_insert(p->pcs, k, c);
    }
    p->last_key = key;
    p->last = c;
    return c;
}

const l1pc_counts *l1pc_get(const l1pc *p, uint32_t func, uint32_t pc)
{
    uint64_t key = (uint64_t)func << 32 | pc;
    return g_hash_table_lookup(p->pcs, &key);
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

GArray *l1pc_keys(const l1pc *p)
{
    GArray *k = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, p->pcs);
    while (g_hash_table_iter_next(&it, &key, NULL))
        g_array_append_val(k, *(uint64_t *)key);
    g_array_sort(k, cmp_u64);
    return k;
}

void l1pc_set_geometry(l1pc *p, unsigned sets, unsigned ways)
{
    if (p->line_lanes && p->sets == sets && p->ways == ways)
        return;
    g_free(p->line_lanes);
    p->sets = sets;
    p->ways = ways;
    p->line_lanes = g_new0(uint32_t, (size_t)sets * ways);
}

/* The table of warp w in a (created on demand) per-warp array of hash tables. */
static GHashTable *warp_table(GPtrArray *a, unsigned w, GDestroyNotify value_free)
{
    while (a->len <= w)
        g_ptr_array_add(a, g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, value_free));
    return g_ptr_array_index(a, w);
}

static uint64_t *trip_of(l1pc *p, unsigned warp, uint32_t func, uint32_t loop)
{
    GHashTable *h = warp_table(p->trips, warp, g_free);
    uint64_t key = (uint64_t)func << 32 | loop;
    uint64_t *t = g_hash_table_lookup(h, &key);
    if (!t) {
        uint64_t *k = g_new(uint64_t, 1);
        *k = key;
        t = g_new0(uint64_t, 1);
        g_hash_table_insert(h, k, t);
    }
    return t;
}

/* The loop-trip reuse class of a counted transaction of (func, pc) by warp on line (l1pc.h). */
static void classify_trip(l1pc *p, l1pc_counts *c, uint32_t func, uint32_t pc, unsigned warp, uint64_t line)
{
    if (!p->loops)
        return;
    uint32_t loop = IR_NONE;
    if (func < p->loops->n_funcs && pc < p->loops->f[func].n_instrs)
        loop = p->loops->f[func].loop_at[pc];
    GHashTable *h = warp_table(p->touched, warp, g_free);
    l1pc_touch *t = g_hash_table_lookup(h, &line);
    if (loop == IR_NONE) {
        blk_stat_add(p->inst, L1PC_STAT_TRIP_OTHER, 1);
        if (t)
            g_hash_table_remove(h, &line); /* touched outside the loops: no trip */
        return;
    }
    uint64_t trip = *trip_of(p, warp, func, loop);
    bool same = t && t->func == func && t->loop == loop;
    if (same && t->trip == trip && t->pc != pc) {
        c->this_trip++;
        blk_stat_add(p->inst, L1PC_STAT_TRIP_THIS, 1);
    } else if (same && t->trip + 1 == trip) {
        c->last_trip++;
        blk_stat_add(p->inst, L1PC_STAT_TRIP_LAST, 1);
    } else
        blk_stat_add(p->inst, L1PC_STAT_TRIP_OTHER, 1);
    if (!t) {
        uint64_t *k = g_new(uint64_t, 1);
        *k = line;
        t = g_new(l1pc_touch, 1);
        g_hash_table_insert(h, k, t);
    }
    *t = (l1pc_touch){func, loop, pc, trip};
}

void l1pc_issue(l1pc *p, uint32_t func, uint32_t pc, unsigned warp, uint32_t mask, bool load)
{
    unsigned lanes = (unsigned)__builtin_popcount(mask);
    unsigned bin = lanes ? (lanes - 1) / 4 : 0;
    blk_stat_add(p->inst, L1PC_STAT_INSTS, 1);
    blk_stat_add(p->inst, L1PC_STAT_ACTIVE_LANES, lanes);
    blk_stat_add(p->inst, L1PC_STAT_LANES_BIN + (bin < L1PC_LANE_BINS ? bin : L1PC_LANE_BINS - 1), 1);
    if (p->loops && func < p->loops->n_funcs && pc < p->loops->f[func].n_instrs) {
        uint32_t l = p->loops->f[func].begin_of[pc];
        if (l != IR_NONE)
            ++*trip_of(p, warp, func, l);
    }
    if (!load)
        return;
    l1pc_counts *c = counts_of(p, func, pc);
    c->loads++;
    c->lanes += lanes;
    blk_stat_add(p->inst, L1PC_STAT_LOADS, 1);
}

void l1pc_warp_start(l1pc *p, unsigned warp)
{
    if (warp < p->touched->len)
        g_hash_table_remove_all(g_ptr_array_index(p->touched, warp));
    if (warp < p->trips->len)
        g_hash_table_remove_all(g_ptr_array_index(p->trips, warp));
}

void l1pc_record(l1pc *p, uint32_t func, uint32_t pc, unsigned warp, uint32_t lanes, unsigned outcome,
                 unsigned owner, unsigned slot, uint64_t line, unsigned set)
{
    l1pc_counts *c = counts_of(p, func, pc);
    uint32_t *ll = slot < p->sets * p->ways ? &p->line_lanes[slot] : NULL;
    switch (outcome) {
    case CACHE_HIT:
        c->hits++;
        blk_stat_add(p->inst, L1PC_STAT_HITS, 1);
        if (owner == warp) {
            c->intra++;
            blk_stat_add(p->inst, L1PC_STAT_INTRA, 1);
            if (ll && (*ll & lanes)) {
                c->intra_thread++;
                blk_stat_add(p->inst, L1PC_STAT_INTRA_THREAD, 1);
            }
            if (ll)
                *ll |= lanes;
        } else {
            c->inter++;
            blk_stat_add(p->inst, L1PC_STAT_INTER, 1);
        }
        break;
    case CACHE_HIT_RESERVED:
        c->merged++;
        blk_stat_add(p->inst, L1PC_STAT_MERGED, 1);
        if (ll && owner == warp)
            *ll |= lanes;
        break;
    case CACHE_MISS:
        c->misses++;
        blk_stat_add(p->inst, L1PC_STAT_MISSES, 1);
        if (ll)
            *ll = lanes; /* the line reserved for this warp */
        break;
    default:
        return; /* a refusal: retried, counted when it succeeds */
    }
    classify_trip(p, c, func, pc, warp, line);
    if (p->belady) {
        uint64_t e = line << 16 | set;
        g_array_append_val(p->stream, e);
    }
}

static void l1pc_access(void *self, unsigned warp, uint64_t addr, unsigned outcome)
{
    l1pc *p = self;
    blk_call_note(p->probe[L1PC_ACCESS], warp, (uint32_t)addr, outcome);
    if (outcome == CACHE_RESERVATION_FAIL)
        return;
    uint32_t lanes = 0;
    const issued_t *it = p->ld ? ldst_current(p->ld, &lanes) : NULL;
    if (!it || it->warp != warp) {
        blk_stat_add(p->inst, L1PC_STAT_UNATTRIBUTED, 1);
        return;
    }
    cache_tags *t = ldst_l1_tags(p->ld);
    const cache_config *cfg = cache_tags_config(t);
    l1pc_set_geometry(p, cfg->sets, cfg->ways);
    unsigned way = 0, set = cache_tags_set_of(t, addr);
    unsigned owner = UINT32_MAX, slot = UINT32_MAX;
    if (cache_tags_probe(t, addr, &way) != CACHE_MISS) {
        owner = (unsigned)cache_tags_line(t, set, way)->meta;
        slot = set * cfg->ways + way;
    }
    l1pc_record(p, it->func, it->pc, warp, lanes, outcome, owner, slot, cache_tags_line_addr(t, addr), set);
}

static void l1pc_issued(void *self, const issued_t *it)
{
    l1pc *p = self;
    blk_call_note(p->probe[L1PC_ISSUED], it->warp, it->pc, 0);
    l1pc_issue(
        p, it->func, it->pc, it->warp, it->mask,
        it->cls == IR_CLASS_MEM && it->kind == 0 &&
            (it->space == IR_SPACE_GLOBAL || it->space == IR_SPACE_LOCAL || it->space == IR_SPACE_NONE));
}

static void ev_cta_start(void *self, const cta_launch_t *c, uint64_t cycle)
{
    l1pc *p = self;
    (void)cycle;
    blk_call_note(p->probe[L1PC_EVENTS], 0, c->cta, c->slot);
}

static void ev_cta_end(void *self, const cta_launch_t *c, uint64_t cycle)
{
    l1pc *p = self;
    (void)cycle;
    blk_call_note(p->probe[L1PC_EVENTS], 1, c->cta, c->slot);
}

static void ev_warp_start(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    l1pc *p = self;
    (void)cycle;
    blk_call_note(p->probe[L1PC_EVENTS], 2, w, slot);
    l1pc_warp_start(p, w);
}

static void ev_warp_end(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    l1pc *p = self;
    (void)cycle;
    blk_call_note(p->probe[L1PC_EVENTS], 3, w, slot);
}

static void l1pc_vta_hit(void *self, unsigned warp, uint64_t line_addr, uint64_t cycle)
{
    (void)line_addr, (void)cycle;
    l1pc *p = self;
    blk_call_note(p->probe[L1PC_VTA_HIT], warp, 0, 0);
    const issued_t *it = p->ld ? ldst_current(p->ld, NULL) : NULL;
    if (!it || it->warp != warp) {
        blk_stat_add(p->inst, L1PC_STAT_UNATTRIBUTED, 1);
        return;
    }
    l1pc_counts *c = counts_of(p, it->func, it->pc);
    c->vta_hits++;
    c->points += p->cc ? ccws_last_raise(p->cc) : 0;
    blk_stat_add(p->inst, L1PC_STAT_VTA_HITS, 1);
}

static const l1_access_if access_table = {l1pc_access};
static const instr_issued_if issued_table = {l1pc_issued};
static const vta_hit_if vta_table = {l1pc_vta_hit};
static const warp_events_if events_table = {ev_cta_start, ev_cta_end, ev_warp_start, ev_warp_end};

l1pc *l1pc_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    l1pc *p = g_new0(l1pc, 1);
    p->inst = blk_inst_new(ctx, parent, name, &l1pc_desc);
    p->belady = blk_param_bool(p->inst, "belady");
    p->pcs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    p->stream = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    blk_export(p->inst, L1PC_ACCESS, 0, &access_table, p);
    blk_export(p->inst, L1PC_ISSUED, 0, &issued_table, p);
    blk_export(p->inst, L1PC_VTA_HIT, 0, &vta_table, p);
    blk_export(p->inst, L1PC_EVENTS, 0, &events_table, p);
    blk_export_probes(p->inst, p->probe, L1PC_EVENTS + 1);
    p->touched = g_ptr_array_new_with_free_func((GDestroyNotify)g_hash_table_destroy);
    p->trips = g_ptr_array_new_with_free_func((GDestroyNotify)g_hash_table_destroy);
    return p;
}

void l1pc_set_ldst(l1pc *p, ldst *ld)
{
    p->ld = ld;
}

void l1pc_set_ccws(l1pc *p, const ccws *c)
{
    p->cc = c;
}

void l1pc_set_loops(l1pc *p, const daws_loops *l)
{
    p->loops = l;
}

void l1pc_free(l1pc *p)
{
    if (!p)
        return;
    g_hash_table_destroy(p->pcs);
    g_array_free(p->stream, TRUE);
    g_ptr_array_free(p->touched, TRUE);
    g_ptr_array_free(p->trips, TRUE);
    g_free(p->line_lanes);
    g_free(p);
}

/* ---- the offline replay -------------------------------------------------------------------------- */

l1pc_replay_result l1pc_replay_stream(const uint64_t *s, size_t n, unsigned sets, unsigned ways)
{
    l1pc_replay_result r = {n, 0, 0};
    if (!n || !sets || !ways)
        return r;
    /* next[i]: the index of the next access to the same line (n: none) */
    size_t *next = g_new(size_t, n);
    GHashTable *seen = g_hash_table_new(g_int64_hash, g_int64_equal);
    uint64_t *keys = g_new(uint64_t, n);
    size_t *at = g_new(size_t, n);
    for (size_t i = n; i-- > 0;) {
        keys[i] = s[i] >> 16;
        size_t *j = g_hash_table_lookup(seen, &keys[i]);
        next[i] = j ? *j : n;
        at[i] = i;
        g_hash_table_insert(seen, &keys[i], &at[i]);
    }
    g_hash_table_destroy(seen);
    size_t cap = (size_t)sets * ways;
    uint64_t *opt_line = g_new(uint64_t, cap), *lru_line = g_new(uint64_t, cap);
    size_t *opt_next = g_new(size_t, cap);
    uint64_t *lru_used = g_new(uint64_t, cap);
    unsigned *opt_n = g_new0(unsigned, sets), *lru_n = g_new0(unsigned, sets);
    for (size_t i = 0; i < n; i++) {
        uint64_t line = s[i] >> 16;
        unsigned set = (unsigned)(s[i] & 0xffff) % sets;
        size_t b = (size_t)set * ways;
        /* Belady: a hit updates the line's next use; a miss fills a free way or evicts the line whose
         * next use is furthest (never used again first) */
        unsigned k = 0;
        while (k < opt_n[set] && opt_line[b + k] != line)
            k++;
        if (k == opt_n[set]) {
            r.opt_misses++;
            if (opt_n[set] < ways)
                opt_n[set]++;
            else {
                unsigned v = 0;
                for (unsigned j = 1; j < ways; j++)
                    if (opt_next[b + j] > opt_next[b + v])
                        v = j;
                k = v;
            }
            opt_line[b + k] = line;
        }
        opt_next[b + k] = next[i];
        /* LRU */
        k = 0;
        while (k < lru_n[set] && lru_line[b + k] != line)
            k++;
        if (k == lru_n[set]) {
            r.lru_misses++;
            if (lru_n[set] < ways)
                lru_n[set]++;
            else {
                unsigned v = 0;
                for (unsigned j = 1; j < ways; j++)
                    if (lru_used[b + j] < lru_used[b + v])
                        v = j;
                k = v;
            }
            lru_line[b + k] = line;
        }
        lru_used[b + k] = i;
    }
    g_free(next);
    g_free(keys);
    g_free(at);
    g_free(opt_line);
    g_free(lru_line);
    g_free(opt_next);
    g_free(lru_used);
    g_free(opt_n);
    g_free(lru_n);
    return r;
}

l1pc_replay_result l1pc_replay(const l1pc *p, unsigned sets, unsigned ways)
{
    if (!sets || !ways) {
        sets = p->sets;
        ways = p->ways;
    }
    return l1pc_replay_stream((const uint64_t *)(const void *)p->stream->data, p->stream->len, sets, ways);
}
