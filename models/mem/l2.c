/* l2.c — the `l2` block; see l2.h. */
#include "models/mem/l2.h"

#include <string.h>

#include "models/core/stats.h"

static const blk_port_desc ports[] = {
    [L2_PORT_REQ] = {"req", GSC_IN, &mem_req_type, BLK_CHAN_FIFO, "in_depth",
                     "requests from the interconnect"},
    [L2_PORT_RESP] = {"resp", GSC_OUT, &mem_resp_type, BLK_CHAN_FIFO, "resp_depth",
                      "replies: read data, write acks, atomic old values"},
    [L2_PORT_DRAM_REQ] = {"dram_req", GSC_OUT, &mem_req_type, BLK_CHAN_FIFO, "dram_depth",
                          "line fills and dirty write-backs to the DRAM channel"},
    [L2_PORT_DRAM_RESP] = {"dram_resp", GSC_IN, &mem_resp_type, BLK_CHAN_FIFO, "dram_depth",
                           "fills from the DRAM channel"},
};

static const blk_param_desc params[] = {
    {"sets", BLK_PARAM_UINT, "64", "1", "1048576", NULL, "sets", "sets per slice [S: GTX480 dl2 N:64:128:8]"},
    {"ways", BLK_PARAM_UINT, "8", "1", "64", NULL, "ways", "associativity [S: GTX480 dl2 N:64:128:8]"},
    {"line_bytes", BLK_PARAM_UINT, "128", "32", "128", NULL, "bytes",
     "line size, a power of two [S: dl2 128]"},
    {"mshr_entries", BLK_PARAM_UINT, "32", "1", "4096", NULL, "entries", "MSHR entries [S: dl2 A:32:4]"},
    {"mshr_merge", BLK_PARAM_UINT, "4", "1", "1024", NULL, "requests",
     "requests merged per MSHR entry [S: dl2 A:32:4]"},
    {"latency", BLK_PARAM_UINT, "120", "1", "100000", NULL, "cycles",
     "cycles from arrival to the tag lookup (ROP queue) [S: GTX480 rop_latency 120]"},
    {"rop_depth", BLK_PARAM_UINT, "64", "1", "4096", NULL, "requests",
     "requests in the ROP queue before the slice stops taking from `req` [A]"},
    {"out_depth", BLK_PARAM_UINT, "8", "1", "4096", NULL, "replies",
     "replies produced but not yet put on `resp`; lookups stall beyond it [A]"},
    {"in_depth", BLK_PARAM_UINT, "8", "1", "1024", NULL, "items", "depth of the `req` FIFO"},
    {"resp_depth", BLK_PARAM_UINT, "8", "1", "1024", NULL, "items", "depth of the `resp` FIFO"},
    {"dram_depth", BLK_PARAM_UINT, "4", "1", "1024", NULL, "items",
     "depth of the dram_req/dram_resp FIFOs (harness)"},
    {"enabled", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "false: no cache (every read and atomic goes to DRAM after the ROP latency, every write is passed "
     "on and acknowledged; no tag, hit or fill statistics) [S: the SPU's caches are off, SPU spec §10]"},
    {"e_access", BLK_PARAM_DOUBLE, "50", "0", NULL, NULL, "pJ",
     "energy of a tag lookup with its data access (read, write, atomic) [A: the specs give none; an "
     "order of magnitude to set from CACTI for a study]"},
    {"e_fill", BLK_PARAM_DOUBLE, "50", "0", NULL, NULL, "pJ",
     "energy of a line fill from DRAM [A: as e_access]"},
};

static double l2_hit_rate(const blk_inst *inst)
{
    uint64_t h = blk_stat_get(inst, L2_STAT_HITS);
    return stats_ratio(h, h + blk_stat_get(inst, L2_STAT_MISSES) + blk_stat_get(inst, L2_STAT_MERGED));
}

static const blk_stat_desc stats[] = {
    [L2_STAT_READS] = {"reads", BLK_STAT_COUNTER, "requests", "read requests looked up", NULL},
    [L2_STAT_WRITES] = {"writes", BLK_STAT_COUNTER, "requests", "write and write-back requests looked up",
                        NULL},
    [L2_STAT_ATOMICS] = {"atomics", BLK_STAT_COUNTER, "requests", "atomic requests performed", NULL},
    [L2_STAT_HITS] = {"hits", BLK_STAT_COUNTER, "lookups", "lookups that hit a valid line", NULL},
    [L2_STAT_MISSES] = {"misses", BLK_STAT_COUNTER, "lookups", "lookups that allocated a line", NULL},
    [L2_STAT_MERGED] = {"merged", BLK_STAT_COUNTER, "lookups",
                        "lookups merged on a pending line (HIT_RESERVED)", NULL},
    [L2_STAT_STALLS] =
        {"stalls", BLK_STAT_COUNTER, "cycles",
         "cycles the head lookup could not be accepted (no line, MSHRs or merge slots full, replies full)",
         NULL},
    [L2_STAT_FILLS] = {"fills", BLK_STAT_COUNTER, "lines", "lines filled from DRAM", NULL},
    [L2_STAT_WRITEBACKS] = {"writebacks", BLK_STAT_COUNTER, "lines", "dirty lines written back to DRAM",
                            NULL},
    [L2_STAT_FAULTS] = {"atomic_faults", BLK_STAT_COUNTER, "requests",
                        "atomics on unmapped or read-only memory", NULL},
    [L2_STAT_HIT_RATE] = {"hit_rate", BLK_STAT_DERIVED, "fraction", "hits / (hits + misses + merged)",
                          l2_hit_rate},
};

static const blk_energy_event energy_events[] = {
    {"read", "reads", "e_access", BLK_COMP_L2CP},
    {"write", "writes", "e_access", BLK_COMP_L2CP},
    {"atomic", "atomics", "e_access", BLK_COMP_L2CP},
    {"fill", "fills", "e_fill", BLK_COMP_L2CP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"rop_occupancy", 8, "requests in the ROP queue"},
    {"mshr_used", 8, "MSHR entries in use"},
    {"out_queue", 8, "replies waiting for room in `resp`"},
};

const blk_desc l2_desc = {
    "l2",
    "one L2 slice (memory sub-partition): ROP latency, tags, MSHRs, write-back/write-allocate, atomics",
    "docs/baseline-design.md §2.3, §5.3; GPGPU-Sim GTX480 gpgpu_cache:dl2, rop_latency",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
    &energy,
};

/* A request held by the slice, from `req` to its reply. */
typedef struct {
    mem_req_t req;
    uint64_t ready; /* cycle it reaches the tag array */
    uint64_t old[MEM_ATOM_LANES];
} l2_slot;

static unsigned l2_set_index(uint64_t line_addr, unsigned sets, void *ctx)
{
    const l2_blk *b = ctx;
    return (unsigned)((line_addr / b->n_parts) % sets);
}

/* A line read or write-back to the channel. `last` says that no reply follows in this activation (a
 * miss's read): then it is made in its slot of `dram_req` when nothing waits before it in the slice
 * (what l2_drain would put at the end of the activation, after the queued replies, in the same order:
 * a trace lists a cycle's FIFOs in the order of their first put) and there is room; else it is
 * queued for l2_drain. Zeroed as far as its kind carries (mem_req_used: a read its header, a
 * write-back the line too). */
static void l2_to_dram(l2_blk *b, uint64_t addr, uint8_t kind, bool last)
{
    gsc_fifo *f = blk_fifo(b->inst, L2_PORT_DRAM_REQ);
    bool put_now = last && ring_empty(&b->to_dram) && ring_empty(&b->out) && gsc_fifo_can_put(f);
    mem_req_t *r = put_now ? gsc_fifo_put_slot(f) : ring_push_slot(&b->to_dram);
    memset(r, 0, kind == MEM_READ ? offsetof(mem_req_t, data) : offsetof(mem_req_t, atom));
    r->addr = addr;
    r->id = addr / b->line;
    r->bytes = b->line;
    r->kind = kind;
    r->mask_lo = UINT64_MAX;
    r->mask_hi = b->line > 64 ? UINT64_MAX : 0;
    if (put_now)
        gsc_fifo_put_commit(f);
}

static void l2_on_evict(const cache_eviction *ev, void *ctx)
{
    l2_blk *b = ctx;
    if (ev->state != CACHE_LINE_MODIFIED)
        return;
    blk_stat_add(b->inst, L2_STAT_WRITEBACKS, 1);
    l2_to_dram(b, ev->line_addr * b->line, MEM_WRITEBACK, false);
}

static bool l2_is_write(const mem_req_t *r)
{
    return r->kind != MEM_READ;
}

/* A write whose mask covers the whole line needs no fill. */
static bool l2_full_line_write(const l2_blk *b, const mem_req_t *r)
{
    if (r->kind != MEM_WRITE && r->kind != MEM_WRITEBACK)
        return false;
    uint64_t lo = b->line >= 64 ? UINT64_MAX : (1ull << b->line) - 1;
    uint64_t hi = b->line > 64 ? (b->line >= 128 ? UINT64_MAX : (1ull << (b->line - 64)) - 1) : 0;
    return (r->mask_lo & lo) == lo && (r->mask_hi & hi) == hi && (r->addr % b->line) == 0;
}

/* The line [addr, addr + bytes) of the image into dst, its bytes past `bytes` zeroed (mem_line_fill):
 * copied at once when it lies inside one region, the slice's last few regions tried first. */
static void l2_line_fill(l2_blk *b, uint64_t addr, unsigned bytes, uint8_t dst[MEM_LINE_MAX])
{
    const uint8_t *src = NULL;
    unsigned i = 0;
    while (i < L2_REGIONS && addr - b->regions[i].base >= b->regions[i].size)
        i++;
    if (i == L2_REGIONS) { /* not among them: the least recently used one is replaced */
        i = L2_REGIONS - 1;
        if (b->mem)
            src = fmem_translate_cached(b->mem, &b->regions[i], addr, bytes, false);
    } else if (bytes <= b->regions[i].size - (addr - b->regions[i].base)) {
        src = b->regions[i].data + (addr - b->regions[i].base);
    }
    if (!src) { /* unmapped bytes, a line over two regions, or no image */
        mem_line_fill(b->mem, addr, bytes, dst);
        return;
    }
    if (i > 0) { /* most recently used first */
        fmem_cache c = b->regions[i];
        memmove(&b->regions[1], &b->regions[0], i * sizeof c);
        b->regions[0] = c;
    }
    memcpy(dst, src, bytes);
    if (bytes < MEM_LINE_MAX)
        memset(dst + bytes, 0, MEM_LINE_MAX - bytes);
}

/* The reply of slot s (the line is VALID now); frees the slot. A write-back from an SM gets none. */
static void l2_reply(l2_blk *b, uint32_t s)
{
    l2_slot *sl = mem_slots_at(&b->reqs, s);
    const mem_req_t *r = &sl->req;
    if (l2_is_write(r))
        cache_tags_mark_modified(b->tags, r->addr);
    if (r->kind != MEM_WRITEBACK) {
        /* Put at once, made in its slot of `resp`, when no reply waits before it and `resp` has room
         * (what l2_drain would do at the end of the activation, in the same order), else queued for
         * l2_drain. */
        gsc_fifo *f = blk_fifo(b->inst, L2_PORT_RESP);
        bool put_now = ring_empty(&b->out) && gsc_fifo_can_put(f);
        mem_resp_t *o = put_now ? gsc_fifo_put_slot(f) : ring_push_slot(&b->out);
        memset(o, 0, offsetof(mem_resp_t, data));
        o->addr = r->addr;
        o->id = r->id;
        o->bytes = r->bytes;
        o->dst = r->src;
        o->warp = r->warp;
        o->kind = r->kind;
        o->client = r->client;
        /* Only what the reply carries needs a value (mem_resp_used): a write's acknowledgement is
         * its header, a read's reply the line too, an atomic's the old values as well. */
        if (r->kind == MEM_READ) {
            l2_line_fill(b, r->addr, MIN(r->bytes, (unsigned)MEM_LINE_MAX), o->data);
        } else if (r->kind == MEM_ATOMIC) {
            memset(o->data, 0, sizeof o->data);
            memcpy(o->atom_old, sl->old, sizeof o->atom_old);
        }
        if (put_now)
            gsc_fifo_put_commit(f);
    }
    mem_slots_put_back(&b->reqs, s);
}

static void l2_perform_atomic(l2_blk *b, l2_slot *sl)
{
    if (!b->off)
        blk_stat_add(b->inst, L2_STAT_ATOMICS, 1);
    GString *err = g_string_new(NULL);
    if (!mem_atomic_perform(b->mem, &sl->req, sl->old, err)) {
        blk_stat_add(b->inst, L2_STAT_FAULTS, 1);
        if (!b->fault)
            b->fault = g_string_new(err->str);
    }
    g_string_free(err, TRUE);
}

/* The tag lookup of the ROP queue's head; false if it could not be accepted this cycle. */
static bool l2_lookup(l2_blk *b, uint32_t s)
{
    l2_slot *sl = mem_slots_at(&b->reqs, s);
    uint64_t addr = sl->req.addr;
    uint64_t line_addr = addr >> b->line_shift;
    cache_status st;
    if (b->off && l2_is_write(&sl->req) && sl->req.kind != MEM_ATOMIC) { /* passed on, acknowledged */
        l2_to_dram(b, line_addr * b->line, MEM_WRITEBACK, false);
        l2_reply(b, s);
        return true;
    }
    if (!b->off && l2_full_line_write(b, &sl->req) && cache_tags_probe(b->tags, addr, NULL) == CACHE_MISS &&
        !cache_mshr_pending(b->mshr, line_addr)) {
        cache_tags_access(b->tags, addr, true, 0, NULL); /* evicts the victim (write-back hook) */
        cache_tags_fill(b->tags, addr, 0);
        blk_stat_add(b->inst, L2_STAT_MISSES, 1);
        blk_stat_add(b->inst, L2_STAT_WRITES, 1);
        l2_reply(b, s);
        return true;
    }
    cache_fail why;
    st = cache_read(b->tags, b->mshr, addr, s, 0, &why);
    if (st == CACHE_RESERVATION_FAIL)
        return false;
    if (sl->req.kind == MEM_ATOMIC)
        l2_perform_atomic(b, sl); /* in arrival order, whatever the line's state */
    if (b->off) { /* the line is dropped at its fill: only reads in flight share a DRAM read */
        if (st == CACHE_MISS)
            l2_to_dram(b, line_addr * b->line, MEM_READ, true);
        return true;
    }
    blk_stat_add(b->inst, l2_is_write(&sl->req) ? L2_STAT_WRITES : L2_STAT_READS, 1);
    switch (st) {
    case CACHE_HIT:
        blk_stat_add(b->inst, L2_STAT_HITS, 1);
        l2_reply(b, s);
        break;
    case CACHE_HIT_RESERVED:
        blk_stat_add(b->inst, L2_STAT_MERGED, 1);
        break;
    case CACHE_MISS:
        blk_stat_add(b->inst, L2_STAT_MISSES, 1);
        l2_to_dram(b, line_addr * b->line, MEM_READ, true);
        break;
    default:
        g_assert_not_reached();
    }
    return true;
}

static inline __attribute__((always_inline)) void l2_accept(l2_blk *b, uint64_t now)
{
    gsc_fifo *in = blk_fifo(b->inst, L2_PORT_REQ);
    while (gsc_fifo_can_get(in) && ring_len(&b->rop) < b->rop_depth) {
        uint32_t s = mem_slots_take(&b->reqs);
        l2_slot *sl = mem_slots_at(&b->reqs, s);
        gsc_fifo_get(in, &sl->req);
        if (sl->req.bytes == 0 || sl->req.bytes > b->line)
            gsc_fatal("%s: request of %u bytes for a %u-byte line", b->inst->path, sl->req.bytes, b->line);
        sl->ready = now + b->latency;
        *(uint32_t *)ring_push_slot(&b->rop) = s;
    }
}

/* The arrival hook of `req` (gsc_fifo_on_arrival): arrivals go into the ROP queue at the start of
 * their cycle without waking the process, which runs when the head is ready (a request that finds
 * the queue full waits in `req` until a lookup makes room; l2_run takes it then). */
static void l2_on_arrival(void *self)
{
    l2_blk *b = self;
    bool was_empty = ring_empty(&b->rop);
    const blk_domain *d = b->inst->domain;
    uint64_t core = gsc_cycle();
    /* taken at the slice's first edge from this core cycle on */
    uint64_t now = blk_domain_cycle(d, core) + !blk_domain_edge(d, core);
    l2_accept(b, now);
    b->rop_occupancy = (uint8_t)MIN(255u, ring_len(&b->rop));
    if (was_empty && !ring_empty(&b->rop)) /* the new head's lookup */
        blk_domain_notify(d, b->wake, core, now + b->latency);
}

static void l2_take_fills(l2_blk *b)
{
    gsc_fifo *in = blk_fifo(b->inst, L2_PORT_DRAM_RESP);
    while (gsc_fifo_can_get(in)) {
        uint64_t addr = ((const mem_resp_t *)gsc_fifo_take(in))->addr; /* only the address is needed */
        cache_tags_fill(b->tags, addr, 0);
        if (!cache_mshr_mark_ready(b->mshr, addr >> b->line_shift))
            gsc_fatal("%s: fill for line 0x%" G_GINT64_MODIFIER "x that no MSHR waits for", b->inst->path,
                      addr);
        if (b->off) {
            cache_tags_invalidate(b->tags, addr);
            continue;
        }
        blk_stat_add(b->inst, L2_STAT_FILLS, 1);
    }
}

static void l2_drain(l2_blk *b)
{
    gsc_fifo *out = blk_fifo(b->inst, L2_PORT_RESP);
    while (!ring_empty(&b->out) && gsc_fifo_can_put(out)) {
        gsc_fifo_put(out, ring_peek(&b->out));
        ring_pop(&b->out, NULL);
    }
    gsc_fifo *dq = blk_fifo(b->inst, L2_PORT_DRAM_REQ);
    while (!ring_empty(&b->to_dram) && gsc_fifo_can_put(dq)) {
        gsc_fifo_put(dq, ring_peek(&b->to_dram));
        ring_pop(&b->to_dram, NULL);
    }
}

static void l2_run(void *self)
{
    l2_blk *b = self;
    const blk_domain *d = b->inst->domain;
    uint64_t core = gsc_cycle(), now;
    if (!blk_domain_at_edge(d, b->wake, core, &now))
        return;
    blk_sleep_wake(b->inst, now);
    if (ring_len(&b->rop) < b->rop_depth && gsc_fifo_can_get(blk_fifo(b->inst, L2_PORT_REQ)))
        l2_accept(b, now); /* what waited for room in the ROP queue (the arrival hook took the rest) */
    l2_take_fills(b);
    uint64_t req_id, line_addr;
    /* one merged request leaves per cycle once its line is filled */
    if (cache_mshr_has_ready(b->mshr) && ring_len(&b->out) < b->out_depth &&
        cache_mshr_next_ready(b->mshr, &req_id, &line_addr))
        l2_reply(b, (uint32_t)req_id);
    bool stalled = false, out_full = false;
    if (!ring_empty(&b->rop)) {
        uint32_t s = *(const uint32_t *)ring_peek(&b->rop);
        const l2_slot *sl = mem_slots_at(&b->reqs, s);
        if (sl->ready <= now) {
            out_full = ring_len(&b->out) >= b->out_depth;
            if (!out_full && l2_lookup(b, s)) {
                ring_pop(&b->rop, NULL);
            } else {
                blk_stat_add(b->inst, L2_STAT_STALLS, 1);
                stalled = true;
            }
        }
    }
    l2_drain(b);
    b->rop_occupancy = (uint8_t)MIN(255u, ring_len(&b->rop));
    unsigned mshr_used = cache_mshr_used(b->mshr); /* (not inside MIN, which would call it twice) */
    b->mshr_used = (uint8_t)MIN(255u, mshr_used);
    b->out_queue = (uint8_t)MIN(255u, ring_len(&b->out));
    uint64_t next = UINT64_MAX;
    /* A stalled head stalls again until the replies get room (the room of `resp` wakes the process;
     * l2_drain has run) or the tags and MSHRs change: by a fill (the put on `dram_resp` wakes it) or
     * by a reply of a filled line (has_ready, below). Until then it sleeps. */
    if (stalled && (!out_full || ring_len(&b->out) >= b->out_depth)) {
        blk_sleep_charge(b->inst, L2_STAT_STALLS, 1); /* each cycle slept in the stall is one */
    } else if (!ring_empty(&b->rop)) {
        const l2_slot *sl = mem_slots_at(&b->reqs, *(const uint32_t *)ring_peek(&b->rop));
        next = MAX(sl->ready, now + 1);
    }
    if (cache_mshr_has_ready(b->mshr))
        next = now + 1;
    /* A request that waited for room in the ROP queue (l2_accept ran before this cycle's lookup
     * made room) is taken in the next cycle: its put woke this block long ago. */
    if (ring_len(&b->rop) < b->rop_depth && gsc_fifo_can_get(blk_fifo(b->inst, L2_PORT_REQ)))
        next = now + 1;
    if (next != UINT64_MAX)
        blk_domain_notify(d, b->wake, core, next);
}

static void l2_elaborate(void *self)
{
    l2_blk *b = self;
    gsc_process *p = gsc_process_new(b->inst->mod, "run", l2_run, b);
    gsc_fifo_on_arrival(blk_fifo(b->inst, L2_PORT_REQ), l2_on_arrival, b);
    gsc_sensitive_fifo_put(p, blk_fifo(b->inst, L2_PORT_DRAM_RESP));
    gsc_sensitive_fifo_room(p, blk_fifo(b->inst, L2_PORT_RESP));
    gsc_sensitive_fifo_room(p, blk_fifo(b->inst, L2_PORT_DRAM_REQ));
    gsc_sensitive_event(p, b->wake);
}

l2_blk *l2_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned n_parts)
{
    g_assert(n_parts > 0);
    l2_blk *b = g_new0(l2_blk, 1);
    b->inst = blk_inst_new(ctx, parent, name, &l2_desc);
    b->inst->self = b;
    b->mem = mem;
    b->n_parts = n_parts;
    b->latency = (unsigned)blk_param_uint(b->inst, "latency");
    b->rop_depth = (unsigned)blk_param_uint(b->inst, "rop_depth");
    b->out_depth = (unsigned)blk_param_uint(b->inst, "out_depth");
    b->line = (unsigned)blk_param_uint(b->inst, "line_bytes");
    b->off = !blk_param_bool(b->inst, "enabled");
    cache_config cc = {.sets = (unsigned)blk_param_uint(b->inst, "sets"),
                       .ways = (unsigned)blk_param_uint(b->inst, "ways"),
                       .line_size = b->line,
                       .index = CACHE_INDEX_CUSTOM};
    GError *err = NULL;
    b->tags = cache_tags_new(&cc, &err);
    if (!b->tags)
        gsc_fatal("%s: %s", b->inst->path, err->message);
    b->line_shift = (unsigned)g_bit_nth_lsf(b->line, -1);
    cache_tags_set_index_fn(b->tags, l2_set_index, b);
    cache_tags_set_evict_hook(b->tags, l2_on_evict, b);
    b->mshr = cache_mshr_new((unsigned)blk_param_uint(b->inst, "mshr_entries"),
                             (unsigned)blk_param_uint(b->inst, "mshr_merge"));
    mem_slots_init(&b->reqs, sizeof(l2_slot));
    ring_init(&b->rop, sizeof(uint32_t));
    ring_init(&b->out, sizeof(mem_resp_t));
    ring_init(&b->to_dram, sizeof(mem_req_t));
    b->wake = gsc_event_new(b->inst->mod, "wake");
    blk_trace_state(b->inst, "rop_occupancy", GSC_U8, &b->rop_occupancy);
    blk_trace_state(b->inst, "mshr_used", GSC_U8, &b->mshr_used);
    blk_trace_state(b->inst, "out_queue", GSC_U8, &b->out_queue);
    blk_inst_on_elaborate(b->inst, l2_elaborate, b);
    return b;
}

void l2_free(l2_blk *b)
{
    if (!b)
        return;
    cache_tags_free(b->tags);
    cache_mshr_free(b->mshr);
    mem_slots_clear(&b->reqs);
    ring_clear(&b->rop);
    ring_clear(&b->out);
    ring_clear(&b->to_dram);
    if (b->fault)
        g_string_free(b->fault, TRUE);
    g_free(b);
}

bool l2_idle(const l2_blk *b)
{
    return ring_empty(&b->rop) && cache_mshr_used(b->mshr) == 0 && ring_empty(&b->out) &&
           ring_empty(&b->to_dram);
}

const char *l2_fault(const l2_blk *b)
{
    return b->fault ? b->fault->str : NULL;
}

void l2_describe_head(const l2_blk *b, GString *out)
{
    static const char *const kinds[] = {"read", "write", "atomic", "write-back"};
    if (ring_empty(&b->rop))
        return;
    const l2_slot *sl = mem_slots_at(&b->reqs, *(const uint32_t *)ring_peek(&b->rop));
    g_string_append_printf(
        out, "; oldest: %s 0x%" G_GINT64_MODIFIER "x from SM %u, ready at cycle %" G_GUINT64_FORMAT,
        sl->req.kind < 4 ? kinds[sl->req.kind] : "?", sl->req.addr, sl->req.src, sl->ready);
}
