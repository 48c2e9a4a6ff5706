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

void bankmap_arbitrate(const bankmap_arb_config *c, const bankmap_req *reads, unsigned nreads,
                       const bankmap_req *writes, unsigned nwrites, bool *read_granted, bool *write_granted,
                       bankmap_arb_result *res)
{
    g_assert(c->banks > 0 && c->ports > 0);
    bankmap_arb_result r = {0};
    /* Scratch on the stack for the usual sizes (this runs every cycle a bank is requested), on the
     * heap beyond them. */
    unsigned ports_s[BANKMAP_SCRATCH], taken_s[BANKMAP_SCRATCH], idx_s[BANKMAP_SCRATCH];
    bool blocked_s[BANKMAP_SCRATCH];
    unsigned ncol = c->collectors ? c->collectors : 1, nmax = MAX(nreads, nwrites);
    g_autofree unsigned *ports_h = c->banks > BANKMAP_SCRATCH ? g_new(unsigned, c->banks) : NULL;
    g_autofree unsigned *taken_h = ncol > BANKMAP_SCRATCH ? g_new(unsigned, ncol) : NULL;
    g_autofree bool *blocked_h = c->banks > BANKMAP_SCRATCH ? g_new(bool, c->banks) : NULL;
    g_autofree unsigned *idx_h = nmax > BANKMAP_SCRATCH ? g_new(unsigned, nmax) : NULL;
    unsigned *ports = ports_h ? ports_h : ports_s, *taken = taken_h ? taken_h : taken_s;
    unsigned *idx = idx_h ? idx_h : idx_s;
    bool *blocked = blocked_h ? blocked_h : blocked_s; /* queue stalled behind a refused head */
    memset(ports, 0, c->banks * sizeof *ports);
    memset(taken, 0, ncol * sizeof *taken);
    memset(blocked, 0, c->banks * sizeof *blocked);

    for (unsigned i = 0; i < nwrites; i++)
        idx[i] = i;
    sort_by_age(writes, idx, nwrites);
    for (unsigned k = 0; k < nwrites; k++) {
        unsigned i = idx[k], b = writes[i].bank;
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
        idx[i] = i;
        read_granted[i] = false;
        g_assert(reads[i].bank < c->banks);
        g_assert(c->collector_ports == 0 || reads[i].collector < c->collectors);
    }
    sort_by_age(reads, idx, nreads);
    /* Reads oldest first: a read is its bank's head when every older read of that bank was granted. */
    for (unsigned k = 0; k < nreads; k++) {
        unsigned i = idx[k], b = reads[i].bank, col = reads[i].collector;
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
};

bankmap_queues *bankmap_queues_new(const bankmap_arb_config *c)
{
    bankmap_queues *q = g_new0(bankmap_queues, 1);
    q->cfg = *c;
    return q;
}

void bankmap_queues_free(bankmap_queues *q)
{
    if (!q)
        return;
    g_free(q->reads.r);
    g_free(q->writes.r);
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
    queue_push(&q->reads, (bankmap_req){.bank = bank, .collector = collector, .seq = q->next_seq++, .tag = tag});
}

void bankmap_queues_push_write(bankmap_queues *q, unsigned bank, uint64_t tag)
{
    queue_push(&q->writes, (bankmap_req){.bank = bank, .seq = q->next_seq++, .tag = tag});
}

unsigned bankmap_queues_pending(const bankmap_queues *q)
{
    return q->reads.n + q->writes.n;
}

/* Removes the n_granted granted entries (order kept), appending their tags to out (resized once). */
static void remove_granted(req_queue *q, const bool *granted, unsigned n_granted, GArray *out)
{
    if (n_granted == 0)
        return;
    uint64_t *tags = NULL;
    if (out) {
        guint at = out->len;
        g_array_set_size(out, at + n_granted);
        tags = &g_array_index(out, uint64_t, at);
    }
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

void bankmap_queues_step(bankmap_queues *q, GArray *granted_reads, GArray *granted_writes,
                         bankmap_arb_result *totals)
{
    if (q->reads.n == 0 && q->writes.n == 0)
        return; /* nothing to arbitrate: nothing granted, nothing waits, no conflict */
    bool rg_s[BANKMAP_SCRATCH], wg_s[BANKMAP_SCRATCH];
    g_autofree bool *rg_h = q->reads.n > BANKMAP_SCRATCH ? g_new0(bool, q->reads.n) : NULL;
    g_autofree bool *wg_h = q->writes.n > BANKMAP_SCRATCH ? g_new0(bool, q->writes.n) : NULL;
    bool *rg = rg_h ? rg_h : rg_s, *wg = wg_h ? wg_h : wg_s; /* set by bankmap_arbitrate */
    bankmap_arb_result r;
    bankmap_arbitrate(&q->cfg, q->reads.r, q->reads.n, q->writes.r, q->writes.n, rg, wg, &r);
    remove_granted(&q->reads, rg, r.reads_granted, granted_reads);
    remove_granted(&q->writes, wg, r.writes_granted, granted_writes);
    if (totals) {
        totals->reads_granted += r.reads_granted;
        totals->writes_granted += r.writes_granted;
        totals->writes_waiting += r.writes_waiting;
        totals->bank_conflicts += r.bank_conflicts;
        totals->collector_conflicts += r.collector_conflicts;
    }
}
