/* bankmap.c — register -> bank functions and the bank arbiter; see bankmap.h. */
#include "models/lib/bankmap.h"

#include <string.h>

unsigned bankmap_bank(const bankmap *m, unsigned reg, unsigned warp, unsigned group)
{
    unsigned groups = m->groups > 1 ? m->groups : 1;
    unsigned per = m->banks / groups;
    g_assert(per > 0 && group < groups);
    unsigned b;
    switch (m->kind) {
    case BANKMAP_REG:
        b = reg % per;
        break;
    case BANKMAP_CUSTOM:
        g_assert(m->fn);
        b = m->fn(reg, warp, per, m->ctx);
        g_assert(b < per);
        break;
    case BANKMAP_REG_PLUS_WARP:
    default:
        b = (unsigned)(((uint64_t)reg + warp) % per);
        break;
    }
    return group * per + b;
}

static unsigned at_least_1(unsigned n)
{
    return n ? n : 1;
}

unsigned bankmap_geom_warp_banks(const bankmap_geom *g)
{
    return g->banks / at_least_1(g->clusters);
}

unsigned bankmap_geom_entry_bits(const bankmap_geom *g)
{
    return 32 * 32 / at_least_1(g->clusters);
}

unsigned bankmap_geom_rows(const bankmap_geom *g)
{
    return g->entries / bankmap_geom_warp_banks(g);
}

unsigned bankmap_geom_subarray_rows(const bankmap_geom *g)
{
    return bankmap_geom_rows(g) / at_least_1(g->subarrays);
}

unsigned bankmap_geom_group(const bankmap_geom *g)
{
    return bankmap_geom_warp_banks(g) * bankmap_geom_subarray_rows(g);
}

bankmap_place bankmap_geom_place(const bankmap_geom *g, unsigned k)
{
    unsigned wb = bankmap_geom_warp_banks(g), row = k / wb;
    return (bankmap_place){k % wb, row, row / bankmap_geom_subarray_rows(g)};
}

const char *bankmap_geom_error(const bankmap_geom *g)
{
    unsigned c = at_least_1(g->clusters), s = at_least_1(g->subarrays);
    if (!g->banks || g->banks % c)
        return "the banks must be a multiple of the clusters";
    if (32 % c)
        return "the clusters must divide the warp's 32 lanes";
    unsigned wb = g->banks / c;
    if (!g->entries || g->entries % wb)
        return "the warp-wide registers must fill the banks a warp sees evenly";
    if ((g->entries / wb) % s)
        return "a bank's entries must split evenly into its sub-arrays";
    return NULL;
}

enum { BANKMAP_SCRATCH = 256 };

/* Indices of reqs sorted by (seq, bank, index). */
static void sort_by_age(const bankmap_req *reqs, unsigned *idx, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        unsigned v = idx[i], j = i;
        for (; j > 0; j--) {
            const bankmap_req *a = &reqs[v], *b = &reqs[idx[j - 1]];
            if (a->seq > b->seq || (a->seq == b->seq && a->bank >= b->bank))
                break;
            idx[j] = idx[j - 1];
        }
        idx[j] = v;
    }
}

/* One cycle over requests taken oldest first: idx (ridx, widx) gives the order, NULL the order they
 * are stored in (a queue's arrival order). */
static void arbitrate_ordered(const bankmap_arb_config *c, const bankmap_req *reads, const unsigned *ridx,
                              unsigned nreads, const bankmap_req *writes, const unsigned *widx,
                              unsigned nwrites, bool *read_granted, bool *write_granted, bankmap_arb_result *res)
{
    g_assert(c->banks > 0 && c->ports > 0);
    bankmap_arb_result r = {0};
    /* Scratch on the stack for the usual sizes (this runs every cycle a bank is requested), on the
     * heap beyond them. */
    unsigned ports_s[BANKMAP_SCRATCH], taken_s[BANKMAP_SCRATCH];
    bool blocked_s[BANKMAP_SCRATCH];
    unsigned ncol = c->collectors ? c->collectors : 1;
    g_autofree unsigned *ports_h = c->banks > BANKMAP_SCRATCH ? g_new(unsigned, c->banks) : NULL;
    g_autofree unsigned *taken_h = ncol > BANKMAP_SCRATCH ? g_new(unsigned, ncol) : NULL;
    g_autofree bool *blocked_h = c->banks > BANKMAP_SCRATCH ? g_new(bool, c->banks) : NULL;
    unsigned *ports = ports_h ? ports_h : ports_s, *taken = taken_h ? taken_h : taken_s;
    bool *blocked = blocked_h ? blocked_h : blocked_s; /* queue stalled behind a refused head */
    memset(ports, 0, c->banks * sizeof *ports);
    memset(taken, 0, ncol * sizeof *taken);
    memset(blocked, 0, c->banks * sizeof *blocked);

    for (unsigned k = 0; k < nwrites; k++) {
        unsigned i = widx ? widx[k] : k, b = writes[i].bank;
        g_assert(b < c->banks);
        write_granted[i] = ports[b] < c->ports;
        if (write_granted[i]) {
            ports[b]++;
            r.writes_granted++;
        } else {
            r.writes_waiting++;
        }
    }

    for (unsigned i = 0; i < nreads; i++) {
        read_granted[i] = false;
        g_assert(reads[i].bank < c->banks);
        g_assert(c->collector_ports == 0 || reads[i].collector < c->collectors);
    }
    /* Reads oldest first: a read is its bank's head when every older read of that bank was granted. */
    for (unsigned k = 0; k < nreads; k++) {
        unsigned i = ridx ? ridx[k] : k, b = reads[i].bank, col = reads[i].collector;
        if (blocked[b]) {
            r.collector_conflicts++;
            continue;
        }
        if (ports[b] >= c->ports) {
            r.bank_conflicts++;
            continue;
        }
        if (c->collector_ports && taken[col] >= c->collector_ports) {
            blocked[b] = true;
            r.collector_conflicts++;
            continue;
        }
        read_granted[i] = true;
        ports[b]++;
        if (c->collector_ports)
            taken[col]++;
        r.reads_granted++;
    }
    if (res)
        *res = r;
}

void bankmap_arbitrate(const bankmap_arb_config *c, const bankmap_req *reads, unsigned nreads,
                       const bankmap_req *writes, unsigned nwrites, bool *read_granted, bool *write_granted,
                       bankmap_arb_result *res)
{
    unsigned idx_s[2 * BANKMAP_SCRATCH], nmax = MAX(nreads, nwrites);
    g_autofree unsigned *idx_h = nmax > BANKMAP_SCRATCH ? g_new(unsigned, 2 * nmax) : NULL;
    unsigned *widx = idx_h ? idx_h : idx_s, *ridx = widx + (idx_h ? nmax : BANKMAP_SCRATCH);
    for (unsigned i = 0; i < nwrites; i++)
        widx[i] = i;
    sort_by_age(writes, widx, nwrites);
    for (unsigned i = 0; i < nreads; i++)
        ridx[i] = i;
    sort_by_age(reads, ridx, nreads);
    arbitrate_ordered(c, reads, ridx, nreads, writes, widx, nwrites, read_granted, write_granted, res);
}

/* ---- queues ---------------------------------------------------------------------------------- */

/* A queue: plain arrays (a GLib call per push and per removal was most of the cost of a step). */
typedef struct {
    bankmap_req *r; /* arrival order */
    unsigned n, cap;
} req_queue;

struct bankmap_queues {
    bankmap_arb_config cfg;
    req_queue reads, writes;
    uint64_t next_seq;
    /* Single-ported banks, at most 64 of them, no collector ports (the baseline): a step arbitrates
     * by a mask of the banks used this cycle, in the queues' own (arrival) order. */
    bool by_mask;
    uint64_t *granted; /* bankmap_queues_step_reads: the tags of the last step's granted reads */
    unsigned granted_cap;
};

bankmap_queues *bankmap_queues_new(const bankmap_arb_config *c)
{
    g_assert(c->banks > 0 && c->ports > 0);
    bankmap_queues *q = g_new0(bankmap_queues, 1);
    q->cfg = *c;
    q->by_mask = c->ports == 1 && c->collector_ports == 0 && c->banks <= 64;
    return q;
}

void bankmap_queues_free(bankmap_queues *q)
{
    if (!q)
        return;
    g_free(q->reads.r);
    g_free(q->writes.r);
    g_free(q->granted);
    g_free(q);
}

static void queue_push(req_queue *q, bankmap_req r)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 16;
        q->r = g_renew(bankmap_req, q->r, q->cap);
    }
    q->r[q->n++] = r;
}

void bankmap_queues_push_read(bankmap_queues *q, unsigned bank, unsigned collector, uint64_t tag)
{
    g_assert(bank < q->cfg.banks);
    g_assert(q->cfg.collector_ports == 0 || collector < q->cfg.collectors);
    queue_push(&q->reads, (bankmap_req){.bank = bank, .collector = collector, .seq = q->next_seq++, .tag = tag});
}

void bankmap_queues_push_write(bankmap_queues *q, unsigned bank, uint64_t tag)
{
    g_assert(bank < q->cfg.banks);
    queue_push(&q->writes, (bankmap_req){.bank = bank, .seq = q->next_seq++, .tag = tag});
}

unsigned bankmap_queues_pending(const bankmap_queues *q)
{
    return q->reads.n + q->writes.n;
}

/* Removes the granted entries (order kept), writing their tags to tags (if not NULL). */
static void remove_granted(req_queue *q, const bool *granted, uint64_t *tags)
{
    unsigned k = 0;
    for (unsigned i = 0; i < q->n; i++) {
        if (granted[i]) {
            if (tags)
                *tags++ = q->r[i].tag;
        } else {
            q->r[k++] = q->r[i];
        }
    }
    q->n = k;
}

/* One queue's requests in arrival order against the banks' mask `used` (by_mask): the first request
 * of a bank not yet used this cycle is granted (its tag to tags, if not NULL), the others stay. */
static unsigned step_by_mask(req_queue *q, uint64_t *used, uint64_t *tags)
{
    unsigned k = 0, n = q->n;
    uint64_t u = *used;
    for (unsigned i = 0; i < n; i++) {
        uint64_t bit = UINT64_C(1) << q->r[i].bank;
        if (u & bit) {
            q->r[k++] = q->r[i];
            continue;
        }
        u |= bit;
        if (tags)
            *tags++ = q->r[i].tag;
    }
    *used = u;
    q->n = k;
    return n - k;
}

static void add_totals(bankmap_arb_result *totals, const bankmap_arb_result *r)
{
    if (!totals)
        return;
    totals->reads_granted += r->reads_granted;
    totals->writes_granted += r->writes_granted;
    totals->writes_waiting += r->writes_waiting;
    totals->bank_conflicts += r->bank_conflicts;
    totals->collector_conflicts += r->collector_conflicts;
}

/* One cycle: the granted requests leave their queues, their tags to rtags / wtags (room for every
 * request queued, or NULL); returns the cycle's counts. */
static bankmap_arb_result queues_step(bankmap_queues *q, uint64_t *rtags, uint64_t *wtags)
{
    bankmap_arb_result r = {0};
    if (q->by_mask) { /* (bankmap_arbitrate's answer: the queues are oldest first, one port per bank) */
        uint64_t used = 0;
        unsigned nw = q->writes.n, nr = q->reads.n;
        r.writes_granted = step_by_mask(&q->writes, &used, wtags);
        r.writes_waiting = nw - r.writes_granted;
        r.reads_granted = step_by_mask(&q->reads, &used, rtags);
        r.bank_conflicts = nr - r.reads_granted;
    } else {
        bool rg_s[BANKMAP_SCRATCH], wg_s[BANKMAP_SCRATCH];
        g_autofree bool *rg_h = q->reads.n > BANKMAP_SCRATCH ? g_new0(bool, q->reads.n) : NULL;
        g_autofree bool *wg_h = q->writes.n > BANKMAP_SCRATCH ? g_new0(bool, q->writes.n) : NULL;
        bool *rg = rg_h ? rg_h : rg_s, *wg = wg_h ? wg_h : wg_s; /* set by arbitrate_ordered */
        arbitrate_ordered(&q->cfg, q->reads.r, NULL, q->reads.n, q->writes.r, NULL, q->writes.n, rg, wg, &r);
        remove_granted(&q->reads, rg, rtags);
        remove_granted(&q->writes, wg, wtags);
    }
    return r;
}

/* Room for n more tags at the end of out (its length grows by n); the caller sets the final length. */
static uint64_t *tags_room(GArray *out, unsigned n)
{
    if (!out)
        return NULL;
    guint at = out->len;
    g_array_set_size(out, at + n);
    return &g_array_index(out, uint64_t, at);
}

void bankmap_queues_step(bankmap_queues *q, GArray *granted_reads, GArray *granted_writes,
                         bankmap_arb_result *totals)
{
    if (q->reads.n == 0 && q->writes.n == 0)
        return; /* nothing to arbitrate: nothing granted, nothing waits, no conflict */
    guint r0 = granted_reads ? granted_reads->len : 0, w0 = granted_writes ? granted_writes->len : 0;
    bankmap_arb_result r = queues_step(q, tags_room(granted_reads, q->reads.n), tags_room(granted_writes, q->writes.n));
    if (granted_reads)
        g_array_set_size(granted_reads, r0 + r.reads_granted);
    if (granted_writes)
        g_array_set_size(granted_writes, w0 + r.writes_granted);
    add_totals(totals, &r);
}

unsigned bankmap_queues_step_reads(bankmap_queues *q, const uint64_t **granted, bankmap_arb_result *totals)
{
    *granted = q->granted;
    if (q->reads.n == 0 && q->writes.n == 0)
        return 0;
    if (q->reads.n > q->granted_cap) {
        q->granted_cap = MAX(q->reads.n, 2 * q->granted_cap);
        q->granted = g_renew(uint64_t, q->granted, q->granted_cap);
        *granted = q->granted;
    }
    bankmap_arb_result r = queues_step(q, q->granted, NULL);
    add_totals(totals, &r);
    return r.reads_granted;
}
