/* fetch.c — see fetch.h. */
#include "models/sm/fetch.h"

#include "models/core/stats.h"
#include "models/sm/warp_exec.h"

static const char *const layout_methods[] = {
    "word(func, pc) -> its I-cache word", "flags(warp, func, pc, now) -> flag words fetched before it", NULL};
const blk_iface fetch_layout_iface = {
    "fetch_layout",
    "a code layout: instruction addresses, flag words fetched but not decoded",
    layout_methods,
    {"op", "func", "pc"}, /* traced calls: op 0 word, 1 flags */
    {1, 16, 32}};

static const blk_port_desc ports[] = {
    {"redirect", GSC_IN, &redirect_type, BLK_CHAN_FIFO, "redirect_depth",
     "from issue: a warp (re)starts at a PC with a new epoch, or stops (exited)"},
    {"credit", GSC_IN, &credit_type, BLK_CHAN_FIFO, "credit_depth", "from issue: I-buffer entries freed"},
    {"out", GSC_OUT, &decoded_type, BLK_CHAN_FIFO, NULL, "to issue: decoded instructions"},
    {"dec", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
     "the decoder: each instruction sent is decoded (same cycle)", &decode_iface},
    {"gate", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
     "gates that may stall a warp's decode (room before each instruction, decoded after)", &decode_gate_iface,
     BLK_PORT_MULTI},
    {"layout", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
     "a code layout (unbound: the instructions back to back, no flag words)", &fetch_layout_iface,
     BLK_PORT_OPTIONAL},
    {"gangs", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
     "an SM of lane slices: the gangs whose members one fetch serves (VWS's ganging unit; unbound: none)",
     &fetch_gangs_iface, BLK_PORT_OPTIONAL},
};

static const char *const gangs_methods[] = {"list(gangs) -> n: base warp << 8 | slice mask", NULL};
const blk_iface fetch_gangs_iface = {
    "fetch_gangs", "the gangs a gang fetch serves", gangs_methods, {NULL}, {0}};

static const char *const gate_methods[] = {"room(warp, epoch, cycle) -> bool", "decoded(decoded)", NULL};
/* Traced calls: op 0 room, 1 decoded, and the warp. */
const blk_iface decode_gate_iface = {
    "decode_gate", "a warp's decode may stall", gate_methods, {"op", "warp"}, {1, 16}};

static const blk_param_desc params[] = {
    {"ibuffer_entries", BLK_PARAM_UINT, "2", "1", "16", NULL, "entries",
     "I-buffer entries per warp (credits) [A: GPGPU-Sim's I-buffer holds 2]"},
    {"icache_sets", BLK_PARAM_UINT, "4", "1", "4096", NULL, "sets", "I-cache sets [S: GTX480 il1 4:128:4]"},
    {"icache_ways", BLK_PARAM_UINT, "4", "1", "64", NULL, "ways", "I-cache associativity [S]"},
    {"icache_line", BLK_PARAM_UINT, "128", "8", "1024", NULL, "bytes", "I-cache line [S]"},
    {"icache_miss_latency", BLK_PARAM_UINT, "20", "1", "10000", NULL, "cycles",
     "I-cache fill latency [A: docs/baseline-design.md §5.3]"},
    {"fetch_width", BLK_PARAM_UINT, "2", "1", "8", NULL, "instructions",
     "instructions of one warp decoded per fetch (up to its credits, stopping after a control instruction "
     "or at the line end) [A: GPGPU-Sim decodes 2 per fetch]"},
    {"instr_bytes", BLK_PARAM_UINT, "8", "1", "64", NULL, "bytes",
     "bytes of one instruction in the I-cache's address space (SASS: 8) [A]"},
    {"redirect_depth", BLK_PARAM_UINT, "64", "1", "1024", NULL, "items", "depth of the redirect FIFO"},
    {"credit_depth", BLK_PARAM_UINT, "64", "1", "1024", NULL, "items", "depth of the credit FIFO"},
    {"l1_ports", BLK_PARAM_UINT, "2", "1", "8", NULL, "fetches",
     "an SM of lane slices (sm.slicing=warp): I-cache accesses per cycle the fetch arbiter grants to the "
     "gang fetch and the slices' fetch schedulers [S: VWS 2]"},
    {"l0_bytes", BLK_PARAM_UINT, "256", "0", "4096", NULL, "bytes",
     "an SM of lane slices: each slice's L0 I-cache, probed first by its fetch scheduler (fully "
     "associative, LRU, lines of fetch_width instructions; 0: none) [S: VWS 256 B; A: organisation]"},
    {"e_icache_access", BLK_PARAM_DOUBLE, "2.34", "0", NULL, NULL, "pJ",
     "energy of an I-cache access, hit or miss [A: a 2 KB array, between the 1.14 pJ of a 1 KB and the "
     "4.68 pJ of a 4 KB CACTI 40 nm array of the register-renaming specification, by size]"},
    {"e_l0_access", BLK_PARAM_DOUBLE, "0.29", "0", NULL, NULL, "pJ",
     "an SM of lane slices: energy of an L0 I-cache probe [A: 1.14 pJ x 256 / 1024 bytes]"},
};

static double hit_rate(const blk_inst *inst)
{
    uint64_t h = blk_stat_get(inst, FETCH_STAT_ICACHE_HITS);
    return stats_ratio(h, h + blk_stat_get(inst, FETCH_STAT_ICACHE_MISSES));
}
static double words_fetched(const blk_inst *inst)
{
    return (double)(blk_stat_get(inst, FETCH_STAT_FETCHED) + blk_stat_get(inst, FETCH_STAT_FLAG_WORDS));
}

static const blk_stat_desc stats[] = {
    [FETCH_STAT_FETCHED] = {"fetched", BLK_STAT_COUNTER, "instructions", "instructions fetched and decoded",
                            NULL},
    [FETCH_STAT_ICACHE_HITS] = {"icache_hits", BLK_STAT_COUNTER, "accesses", "I-cache hits", NULL},
    [FETCH_STAT_ICACHE_MISSES] = {"icache_misses", BLK_STAT_COUNTER, "accesses", "I-cache misses (fills)",
                                  NULL},
    [FETCH_STAT_REDIRECTS] = {"redirects", BLK_STAT_COUNTER, "events", "redirects taken from issue", NULL},
    [FETCH_STAT_ICACHE_HIT_RATE] = {"icache_hit_rate", BLK_STAT_DERIVED, "ratio", "I-cache hits / accesses",
                                    hit_rate},
    [FETCH_STAT_FLAG_WORDS] = {"flag_words", BLK_STAT_COUNTER, "words",
                               "flag words fetched and not decoded (the `layout`'s, e.g. pir/pbr)", NULL},
    [FETCH_STAT_LAYOUT_STALLS] = {"layout_stalls", BLK_STAT_COUNTER, "warp-cycles",
                                  "a warp's fetch refused by the layout (e.g. a full release flag cache)",
                                  NULL},
    [FETCH_STAT_WORDS] = {"words", BLK_STAT_DERIVED, "words", "words fetched: instructions + flag words",
                          words_fetched},
    [FETCH_STAT_GANG_FETCHES] = {"gang_fetches", BLK_STAT_COUNTER, "accesses",
                                 "lane slices: I-cache hits of the gang fetch (each fills every member)",
                                 NULL},
    [FETCH_STAT_GANG_FILLS] = {"gang_fills", BLK_STAT_COUNTER, "instructions",
                               "lane slices: instructions a gang fetch put into its members' I-buffers",
                               NULL},
    [FETCH_STAT_L0_HITS] = {"l0_hits", BLK_STAT_COUNTER, "accesses", "lane slices: L0 I-cache hits", NULL},
    [FETCH_STAT_L0_MISSES] = {"l0_misses", BLK_STAT_COUNTER, "accesses", "lane slices: L0 I-cache misses",
                              NULL},
    [FETCH_STAT_PORT_STALLS] = {"port_stalls", BLK_STAT_COUNTER, "slice-cycles",
                                "lane slices: a slice's fetch found no free I-cache port", NULL},
};

static const blk_energy_event energy_events[] = {
    {"icache_hit", "icache_hits", "e_icache_access", BLK_COMP_ICP},
    {"icache_miss", "icache_misses", "e_icache_access", BLK_COMP_ICP},
    {"l0_hit", "l0_hits", "e_l0_access", BLK_COMP_ICP},
    {"l0_miss", "l0_misses", "e_l0_access", BLK_COMP_ICP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"fetched", 1, "an instruction was fetched this cycle"},
    {"warp", 8, "warp of the last fetch"},
    {"pc", 16, "PC of the last fetch"},
};

const blk_desc fetch_desc = {
    "fetch",
    "fetch: per-warp PCs, LRR warp fetch, I-cache, per-warp I-buffer credits (decode through its import)",
    "docs/baseline-design.md §2.2 fetch; CCWS/DAWS/VWS spec §2.1",
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

/* Recomputes warp wi's bits of f->eligible and f->missing from its state. */
static void fetch_update(fetch *f, unsigned wi)
{
    const fetch_warp *w = &f->w[wi];
    wmask_put(&f->eligible, wi, w->active && !w->stopped && w->credits > 0);
    wmask_put(&f->missing, wi, w->miss_until != 0);
}

static inline __attribute__((always_inline)) void fetch_take_inputs(fetch *f)
{
    gsc_fifo *rd = blk_fifo(f->inst, FETCH_REDIRECT);
    gsc_fifo *cr = blk_fifo(f->inst, FETCH_CREDIT);
    /* (read in their FIFO slots: nothing is put to these while fetch runs) */
    while (gsc_fifo_can_get(rd)) {
        const redirect_t *r = gsc_fifo_take(rd);
        g_assert(r->warp < f->warps);
        fetch_warp *w = &f->w[r->warp];
        w->active = !r->done;
        w->stopped = false;
        w->epoch = r->epoch;
        w->func = r->func;
        w->pc = r->pc;
        w->credits = f->entries;
        w->flag_pc = 0;
        fetch_update(f, r->warp);
        blk_stat_add(f->inst, FETCH_STAT_REDIRECTS, 1);
    }
    while (gsc_fifo_can_get(cr)) {
        const credit_t *c = gsc_fifo_take(cr);
        fetch_warp *w = &f->w[c->warp];
        if (c->epoch == w->epoch)
            w->credits += c->count;
        g_assert(w->credits <= f->entries);
        fetch_update(f, c->warp);
    }
}

/* Every gate has room for one more instruction of warp wi (no gate: true). */
static bool fetch_gate_room(fetch *f, unsigned wi, uint64_t now)
{
    for (unsigned i = 0; i < f->n_gate; i++)
        if (!((const decode_gate_if *)f->gate[i].methods)->room(f->gate[i].self, wi, f->w[wi].epoch, now)) {
            f->gated = true;
            return false;
        }
    return true;
}

/* The I-cache address of an instruction: functions laid out one after another in 64 KiB slots. */
static uint64_t fetch_addr(const fetch *f, uint32_t func, uint32_t pc)
{
    return ((uint64_t)func << 16 | pc) * f->instr_bytes;
}

/* With a layout: the address of warp w's next word (a flag word before its PC, or the instruction). */
static uint64_t fetch_lay_addr(const fetch *f, const fetch_warp *w)
{
    uint32_t word =
        w->flag_i < w->flag_n ? w->flag_word[w->flag_i] : f->lay->word(f->lay_self, w->func, w->pc);
    return ((uint64_t)w->func << 16 | word) * f->instr_bytes;
}

/* The address of warp w's next word. */
static inline uint64_t fetch_next_addr(const fetch *f, const fetch_warp *w)
{
    return f->lay ? fetch_lay_addr(f, w) : fetch_addr(f, w->func, w->pc);
}

/* With a layout: asks it for the flag words before warp wi's PC once; false when the warp cannot
 * fetch this cycle. */
static bool fetch_lay_flags(fetch *f, unsigned wi, uint64_t now)
{
    fetch_warp *w = &f->w[wi];
    if (w->flag_pc == w->pc + 1)
        return true;
    unsigned n = f->lay->flags(f->lay_self, wi, w->func, w->pc, now, w->flag_word);
    if (n == FETCH_LAYOUT_STALL) {
        blk_stat_add(f->inst, FETCH_STAT_LAYOUT_STALLS, 1);
        return false;
    }
    g_assert(n <= FETCH_MAX_FLAGS);
    w->flag_pc = w->pc + 1;
    w->flag_n = (uint8_t)n;
    w->flag_i = 0;
    return true;
}

/* The decoded instruction at warp wi's PC (the decode block), for the warp. */
static inline __attribute__((always_inline)) void fetch_decode(fetch *f, unsigned wi, decoded_t *d)
{
    fetch_warp *w = &f->w[wi];
    *d = *f->dec->decode(f->dec_self, w->func, w->pc);
    d->warp = (uint16_t)wi;
    d->epoch = w->epoch;
    d->pc = w->pc;
    d->fetch_cycle = gsc_cycle();
}

static bool fetch_can(const fetch_warp *w, uint64_t now)
{
    return w->active && !w->stopped && w->credits > 0 && (w->miss_until == 0 || w->miss_until <= now);
}

/* Warp wi's fetch hit a line (`line`, its address in the cache `tags`): up to fetch_width instructions of
 * it into the decoded FIFO. Returns the instructions decoded. */
static inline __attribute__((always_inline)) unsigned
fetch_deliver(fetch *f, unsigned wi, uint64_t now, gsc_fifo *out, const cache_tags *tags, uint64_t line)
{
    fetch_warp *w = &f->w[wi];
    unsigned sent = 0;
    for (unsigned n = 0; n < f->width && w->credits > 0 && !w->stopped && gsc_fifo_can_put(out); n++) {
        /* the next word is in another line: next fetch */
        if (n > 0 && cache_tags_line_addr(tags, fetch_next_addr(f, w)) != line)
            break;
        if (f->lay && w->flag_i < w->flag_n) { /* a flag word: a slot of the fetch, not decoded */
            w->flag_i++;
            blk_stat_add(f->inst, FETCH_STAT_FLAG_WORDS, 1);
            continue;
        }
        if (G_UNLIKELY(f->n_gate) && n > 0 && !fetch_gate_room(f, wi, now))
            break;
        decoded_t d;
        fetch_decode(f, wi, &d);
        for (unsigned i = 0; i < f->n_gate; i++)
            ((const decode_gate_if *)f->gate[i].methods)->decoded(f->gate[i].self, &d);
        gsc_fifo_put(out, &d);
        blk_stat_add(f->inst, FETCH_STAT_FETCHED, 1);
        sent++;
        w->credits--;
        w->pc++;
        if (d.ctrl)
            w->stopped = true;
        f->last_pc = d.pc;
        if (f->lay && !w->stopped && !fetch_lay_flags(f, wi, now))
            break;
    }
    fetch_update(f, wi);
    f->rr = wi;
    f->fetched = 1;
    f->last_warp = wi;
    return sent;
}

/* Warp wi, which can fetch, probes the I-cache: on a hit it sends up to fetch_width instructions of
 * the line and true is returned (it was the warp of this cycle); a miss starts a fill (false: the
 * scheduler goes on to the next warp). */
/* One I-cache access by warp wi for address a (its fill, if one arrived, first): true on a hit. */
static inline bool fetch_l1(fetch *f, unsigned wi, uint64_t a, uint64_t now, uint64_t *next_fill)
{
    fetch_warp *w = &f->w[wi];
    if (w->miss_until != 0) { /* the fill arrived */
        cache_tags_fill(f->icache, a, wi);
        w->miss_until = 0;
        fetch_update(f, wi);
    }
    if (cache_tags_access(f->icache, a, false, wi, NULL) != CACHE_HIT) {
        blk_stat_add(f->inst, FETCH_STAT_ICACHE_MISSES, 1);
        w->miss_until = now + f->miss_latency;
        fetch_update(f, wi);
        *next_fill = MIN(*next_fill, w->miss_until);
        return false;
    }
    blk_stat_add(f->inst, FETCH_STAT_ICACHE_HITS, 1);
    return true;
}

static bool fetch_warp_once(fetch *f, unsigned wi, uint64_t now, gsc_fifo *out, uint64_t *next_fill)
{
    fetch_warp *w = &f->w[wi];
    if (G_UNLIKELY(f->n_gate) && !fetch_gate_room(f, wi, now))
        return false; /* its decode stalls: another warp may fetch */
    if (f->lay && !fetch_lay_flags(f, wi, now))
        return false;
    uint64_t a = fetch_next_addr(f, w);
    if (!fetch_l1(f, wi, a, now, next_fill))
        return false; /* the fetch slot of this cycle was spent on the miss */
    fetch_deliver(f, wi, now, out, f->icache, cache_tags_line_addr(f->icache, a));
    return true;
}

/* Tries the warps of `bits` (warp lo + bit) in order until one fetches; true if one did. */
static inline bool fetch_scan(fetch *f, uint64_t bits, unsigned lo, uint64_t now, gsc_fifo *out,
                              uint64_t *next_fill)
{
    for (uint64_t m = bits; m; m &= m - 1) {
        unsigned wi = lo + (unsigned)__builtin_ctzll(m);
        fetch_warp *w = &f->w[wi];
        if (!fetch_can(w, now)) {
            if (w->active && w->miss_until > now)
                *next_fill = MIN(*next_fill, w->miss_until);
            continue;
        }
        if (fetch_warp_once(f, wi, now, out, next_fill))
            return true;
    }
    return false;
}

/* Sleep unless some warp can fetch next cycle (inputs wake us through static sensitivity). */
static inline void fetch_sleep(fetch *f, uint64_t now, uint64_t next_fill)
{
    bool any = false;
    for (unsigned k = 0; k < f->words && !any; k++) {
        any = (f->eligible.w[k] & ~f->missing.w[k]) != 0;
        for (uint64_t m = f->eligible.w[k] & f->missing.w[k]; m && !any; m &= m - 1)
            any = f->w[64 * k + (unsigned)__builtin_ctzll(m)].miss_until <= now + 1;
    }
    if (any || f->gated)
        gsc_run_within(1);
    else if (next_fill != UINT64_MAX)
        gsc_run_within(next_fill - now);
}

static void fetch_run(void *self)
{
    fetch *f = self;
    uint64_t now = gsc_cycle();
    fetch_take_inputs(f);
    gsc_fifo *out = blk_fifo(f->inst, FETCH_OUT);
    f->fetched = 0;
    f->gated = false;
    uint64_t next_fill = UINT64_MAX;
    /* The warp fetch scheduler: round robin from the warp after the last one fetched, over the warps
     * that are eligible or have a fill pending (no other warp can fetch or has a fill to wait for).
     * Only the chosen warp puts, and the loop ends with it: the room is checked once. */
    bool room = gsc_fifo_can_put(out), chosen = false;
    wmask cand; /* the candidates as they were before this cycle's fetch */
    for (unsigned k = 0; k < f->words; k++)
        cand.w[k] = f->eligible.w[k] | f->missing.w[k];
    /* warps start.., then ..start-1: from bit start of word ks up, then the words below and the bits
     * below start of word ks */
    unsigned start = (f->rr + 1) % f->warps, ks = start >> 6;
    uint64_t from_start = ~UINT64_C(0) << (start & 63);
    for (unsigned k = ks; room && !chosen && k < f->words; k++)
        chosen =
            fetch_scan(f, cand.w[k] & (k == ks ? from_start : ~UINT64_C(0)), 64 * k, now, out, &next_fill);
    for (unsigned k = 0; room && !chosen && k <= ks; k++)
        chosen =
            fetch_scan(f, cand.w[k] & (k == ks ? ~from_start : ~UINT64_C(0)), 64 * k, now, out, &next_fill);
    fetch_sleep(f, now, next_fill);
}

/* ---- an SM of lane slices (fetch_set_slices; docs/vws.md "Lane slices") --------------------------
 * Per cycle the fetch arbiter grants l1_ports I-cache accesses: first to the gang fetch (one gang
 * per cycle, round robin over the gangs whose members are all at one PC: one access fills every
 * member's I-buffer), then to the slices' fetch schedulers, from a slice that rotates every cycle
 * (each slice gets fair access). A slice's scheduler picks its next warp (LRR over the warps w with
 * w mod slices = s) that no gang holds, and probes its L0 first: an L0 hit needs no port. */

/* The gangs: those whose members are all live and at one PC are held from their slices' schedulers
 * (bits of *held); the first of them in round-robin order whose members all can fetch takes a port. */
static void fetch_gangs(fetch *f, uint64_t now, gsc_fifo *out, wmask *held, unsigned *ports,
                        uint64_t *next_fill)
{
    uint32_t list[FETCH_MAX_GANGS];
    unsigned n = f->gangs->list(f->gangs_self, list);
    g_assert(n <= FETCH_MAX_GANGS);
    bool done = false;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (f->gang_rr + 1 + i) % n, base = list[k] >> 8;
        uint8_t mask = (uint8_t)list[k];
        const fetch_warp *lead = &f->w[base + (unsigned)__builtin_ctz(mask)];
        bool aligned = true, can = true;
        for (uint8_t m = mask; m && aligned; m &= (uint8_t)(m - 1)) {
            const fetch_warp *w = &f->w[base + (unsigned)__builtin_ctz(m)];
            aligned = w->active && !w->stopped && w->func == lead->func && w->pc == lead->pc;
            can = can && fetch_can(w, now);
            if (w->miss_until > now) /* (a fill to wait for: wake for it) */
                *next_fill = MIN(*next_fill, w->miss_until);
        }
        if (!aligned)
            continue; /* its members fetch on their own slices */
        for (uint8_t m = mask; m; m &= (uint8_t)(m - 1))
            wmask_set(held, base + (unsigned)__builtin_ctz(m));
        if (done || !can || !*ports || !gsc_fifo_can_put(out))
            continue;
        done = true;
        f->gang_rr = k;
        (*ports)--;
        unsigned lw = base + (unsigned)__builtin_ctz(mask);
        uint64_t a = fetch_addr(f, lead->func, lead->pc);
        bool hit = fetch_l1(f, lw, a, now, next_fill);
        for (uint8_t m = mask; m; m &= (uint8_t)(m - 1)) { /* every member: the leader's fill */
            unsigned wi = base + (unsigned)__builtin_ctz(m);
            if (wi != lw) {
                f->w[wi].miss_until = f->w[lw].miss_until;
                fetch_update(f, wi);
            }
        }
        if (!hit)
            continue;
        blk_stat_add(f->inst, FETCH_STAT_GANG_FETCHES, 1);
        uint64_t line = cache_tags_line_addr(f->icache, a);
        for (uint8_t m = mask; m; m &= (uint8_t)(m - 1))
            blk_stat_add(f->inst, FETCH_STAT_GANG_FILLS,
                         fetch_deliver(f, base + (unsigned)__builtin_ctz(m), now, out, f->icache, line));
    }
}

/* Slice s's fetch scheduler: its next warp after the last one it served that can fetch and no gang
 * holds, or -1. */
static int fetch_slice_pick(fetch *f, unsigned s, uint64_t now, const wmask *held, uint64_t *next_fill)
{
    unsigned S = f->slices, n = (f->warps - s + S - 1) / S;
    for (unsigned i = 1; i <= n; i++) {
        unsigned k = (f->srr[s] + i) % n, wi = s + k * S;
        const fetch_warp *w = &f->w[wi];
        if (wmask_test(held, wi))
            continue;
        if (!fetch_can(w, now)) {
            if (w->active && w->miss_until > now)
                *next_fill = MIN(*next_fill, w->miss_until);
            continue;
        }
        f->srr[s] = k;
        return (int)wi;
    }
    return -1;
}

static void fetch_run_sliced(void *self)
{
    fetch *f = self;
    uint64_t now = gsc_cycle();
    fetch_take_inputs(f);
    gsc_fifo *out = blk_fifo(f->inst, FETCH_OUT);
    f->fetched = 0;
    uint64_t next_fill = UINT64_MAX;
    unsigned ports = f->l1_ports;
    wmask held;
    wmask_zero(&held);
    if (f->gangs)
        fetch_gangs(f, now, out, &held, &ports, &next_fill);
    for (unsigned i = 0; i < f->slices && gsc_fifo_can_put(out); i++) {
        unsigned s = (unsigned)((now + i) % f->slices); /* (by the cycle: the same when it slept) */
        int wi = fetch_slice_pick(f, s, now, &held, &next_fill);
        if (wi < 0)
            continue;
        fetch_warp *w = &f->w[wi];
        uint64_t a = fetch_addr(f, w->func, w->pc);
        cache_tags *l0 = f->l0 ? f->l0[s] : NULL;
        if (l0 && w->miss_until == 0 && cache_tags_probe(l0, a, NULL) == CACHE_HIT) {
            cache_tags_access(l0, a, false, (unsigned)wi, NULL);
            blk_stat_add(f->inst, FETCH_STAT_L0_HITS, 1);
            fetch_deliver(f, (unsigned)wi, now, out, l0, cache_tags_line_addr(l0, a));
            continue;
        }
        if (!ports) {
            blk_stat_add(f->inst, FETCH_STAT_PORT_STALLS, 1);
            continue;
        }
        ports--;
        if (l0)
            blk_stat_add(f->inst, FETCH_STAT_L0_MISSES, 1);
        if (!fetch_l1(f, (unsigned)wi, a, now, &next_fill))
            continue;
        if (l0)
            cache_tags_fill(l0, a, (unsigned)wi);
        fetch_deliver(f, (unsigned)wi, now, out, l0 ? l0 : f->icache,
                      cache_tags_line_addr(l0 ? l0 : f->icache, a));
    }
    fetch_sleep(f, now, next_fill);
}

void fetch_set_slices(fetch *f, unsigned slices)
{
    g_assert(slices >= 1 && slices <= FETCH_MAX_SLICES);
    f->slices = slices;
    f->l1_ports = (unsigned)blk_param_uint(f->inst, "l1_ports");
    unsigned l0 = (unsigned)blk_param_uint(f->inst, "l0_bytes");
    if (!l0)
        return;
    unsigned line = 1;
    while (line < f->width * f->instr_bytes) /* a fetch's words, rounded up to a power of two */
        line <<= 1;
    if (l0 < line)
        gsc_fatal("%s.l0_bytes = %u: an L0 I-cache holds at least one line of %u bytes (fetch_width x "
                  "instr_bytes)",
                  f->inst->path, l0, line);
    f->l0 = g_new0(cache_tags *, slices);
    for (unsigned s = 0; s < slices; s++) {
        cache_config cc = {1, l0 / line, line, CACHE_INDEX_LINEAR};
        GError *err = NULL;
        f->l0[s] = cache_tags_new(&cc, &err);
        if (!f->l0[s])
            gsc_fatal("%s: L0 I-cache: %s", f->inst->path, err->message);
    }
}

static void fetch_elaborate(void *self)
{
    fetch *f = self;
    blk_iref r = blk_import(f->inst, FETCH_DEC, 0);
    f->dec = r.methods, f->dec_self = r.self;
    f->gate = blk_import_all(f->inst, FETCH_GATE, 0, &f->n_gate);
    r = blk_import(f->inst, FETCH_LAYOUT, 0);
    f->lay = r.methods, f->lay_self = r.self;
    r = blk_import(f->inst, FETCH_GANGS, 0);
    f->gangs = r.methods, f->gangs_self = r.self;
    if (f->slices > 1 && (f->n_gate || f->lay))
        gsc_fatal("%s: an SM of lane slices fetches without decode gates or a code layout", f->inst->path);
    if (f->gangs && f->slices <= 1)
        gsc_fatal("%s.gangs: a gang fetch needs an SM of lane slices (sm.slicing=warp)", f->inst->path);
    gsc_process *p = gsc_process_new(f->inst->mod, "run", f->slices > 1 ? fetch_run_sliced : fetch_run, f);
    gsc_sensitive_fifo_put(p, blk_fifo(f->inst, FETCH_REDIRECT));
    gsc_sensitive_fifo_put(p, blk_fifo(f->inst, FETCH_CREDIT));
    gsc_sensitive_fifo_get(p, blk_fifo(f->inst, FETCH_OUT));
}

fetch *fetch_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned warps)
{
    g_assert(warps >= 1 && warps <= WMASK_BITS); /* the warp bitmaps */
    fetch *f = g_new0(fetch, 1);
    f->inst = blk_inst_new(ctx, parent, name, &fetch_desc);
    f->env = env;
    f->warps = warps;
    f->words = wmask_words(warps);
    f->entries = (unsigned)blk_param_uint(f->inst, "ibuffer_entries");
    f->miss_latency = (unsigned)blk_param_uint(f->inst, "icache_miss_latency");
    f->width = (unsigned)blk_param_uint(f->inst, "fetch_width");
    f->instr_bytes = (unsigned)blk_param_uint(f->inst, "instr_bytes");
    f->w = g_new0(fetch_warp, warps);
    f->rr = warps - 1;
    cache_config cc = {(unsigned)blk_param_uint(f->inst, "icache_sets"),
                       (unsigned)blk_param_uint(f->inst, "icache_ways"),
                       (unsigned)blk_param_uint(f->inst, "icache_line"), CACHE_INDEX_LINEAR};
    GError *err = NULL;
    f->icache = cache_tags_new(&cc, &err);
    if (!f->icache)
        gsc_fatal("%s: %s", f->inst->path, err->message);
    if (f->instr_bytes > cc.line_size) /* an instruction would straddle lines: one miss would not bring it */
        gsc_fatal("%s: instr_bytes=%u is larger than icache_line=%u", f->inst->path, f->instr_bytes,
                  cc.line_size);
    blk_trace_state(f->inst, "fetched", GSC_U8, &f->fetched);
    gsc_trace_var_strobe(f->inst->mod, "fetched");
    blk_trace_state(f->inst, "warp", GSC_U32, &f->last_warp);
    blk_trace_state(f->inst, "pc", GSC_U32, &f->last_pc);
    blk_inst_on_elaborate(f->inst, fetch_elaborate, f);
    return f;
}

void fetch_free(fetch *f)
{
    if (!f)
        return;
    cache_tags_free(f->icache);
    for (unsigned s = 0; f->l0 && s < f->slices; s++)
        cache_tags_free(f->l0[s]);
    g_free(f->l0);
    g_free(f->gate);
    g_free(f->w);
    g_free(f);
}
