/* dram.c — DRAM channel timing core; see dram.h. */
#include "models/lib/dram.h"

#include "models/lib/ring.h"

/* "Never" for the last-command times of the banked model: far enough below 0 that adding a timing
 * parameter stays below any cycle. */
#define DRAM_NEVER (-((int64_t)1 << 40))

typedef struct {
    bool open;
    uint64_t row;
    int64_t act;      /* last activate */
    int64_t wr_end;   /* end of the last write data */
    uint64_t free_at; /* first cycle a new request may leave the queue for this bank */
} dram_bank;

struct dram_channel {
    dram_config cfg;
    GArray *queue;     /* dram_req, arrival order */
    ring service;      /* dram_req, reply order */
    uint64_t bus_free; /* first cycle the data bus is free */
    dram_sched_fn sched;
    void *sched_ctx;
    /* banked model */
    dram_bank *banks;
    int64_t last_act;   /* the channel's last activate (tRRD) */
    int64_t wr_end;     /* the channel's last write data end (tCDLR) */
    uint64_t next_pick; /* one request leaves the queue per cycle */
    GArray *cand;       /* dram_req: the requests offered to the scheduler */
    GArray *cand_index; /* unsigned: their index in queue */
    dram_counts counts;
};

unsigned dram_sched_fcfs(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle, void *ctx)
{
    (void)ch, (void)queue, (void)n, (void)cycle, (void)ctx;
    return 0; /* the queue is in arrival order */
}

unsigned dram_sched_frfcfs(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle,
                           void *ctx)
{
    (void)cycle, (void)ctx;
    for (unsigned i = 0; i < n; i++) {
        uint64_t row;
        if (dram_open_row(ch, queue[i].bank, &row) && row == queue[i].row)
            return i;
    }
    return 0;
}

bool dram_open_row(const dram_channel *ch, unsigned bank, uint64_t *row)
{
    if (!ch->banks || bank >= ch->cfg.banks || !ch->banks[bank].open)
        return false;
    *row = ch->banks[bank].row;
    return true;
}

const dram_counts *dram_get_counts(const dram_channel *ch)
{
    return &ch->counts;
}

uint64_t dram_bus_free(const dram_channel *ch)
{
    return ch->bus_free;
}

dram_channel *dram_new(const dram_config *c)
{
    g_return_val_if_fail(c->bytes_per_cycle > 0, NULL);
    dram_channel *ch = g_new0(dram_channel, 1);
    ch->cfg = *c;
    if (ch->cfg.banks == 0)
        ch->cfg.banks = 1;
    if (ch->cfg.row_bytes == 0)
        ch->cfg.row_bytes = 2048;
    if (ch->cfg.bank_bytes == 0 || ch->cfg.bank_bytes > ch->cfg.row_bytes)
        ch->cfg.bank_bytes = ch->cfg.row_bytes;
    if (ch->cfg.banked) {
        ch->banks = g_new0(dram_bank, ch->cfg.banks);
        for (unsigned k = 0; k < ch->cfg.banks; k++)
            ch->banks[k].act = ch->banks[k].wr_end = DRAM_NEVER;
        ch->last_act = ch->wr_end = DRAM_NEVER;
        ch->cand = g_array_new(FALSE, FALSE, sizeof(dram_req));
        ch->cand_index = g_array_new(FALSE, FALSE, sizeof(unsigned));
    }
    ch->queue = g_array_new(FALSE, FALSE, sizeof(dram_req));
    ring_init(&ch->service, sizeof(dram_req));
    ch->sched = dram_sched_fcfs;
    return ch;
}

void dram_free(dram_channel *ch)
{
    if (!ch)
        return;
    g_array_free(ch->queue, TRUE);
    ring_clear(&ch->service);
    if (ch->banks) {
        g_free(ch->banks);
        g_array_free(ch->cand, TRUE);
        g_array_free(ch->cand_index, TRUE);
    }
    g_free(ch);
}

void dram_set_scheduler(dram_channel *ch, dram_sched_fn fn, void *ctx)
{
    ch->sched = fn ? fn : dram_sched_fcfs;
    ch->sched_ctx = ctx;
}

void dram_map_address(const dram_config *c, uint64_t addr, unsigned *bank, uint64_t *row)
{
    unsigned banks = c->banks ? c->banks : 1, rb = c->row_bytes ? c->row_bytes : 2048;
    unsigned bb = c->bank_bytes && c->bank_bytes <= rb ? c->bank_bytes : rb;
    *bank = (unsigned)(addr / bb % banks);
    *row = addr / ((uint64_t)rb * banks);
}

unsigned dram_burst_cycles(const dram_config *c, unsigned bytes)
{
    unsigned b = (bytes + c->bytes_per_cycle - 1) / c->bytes_per_cycle;
    return b ? b : 1;
}

bool dram_can_push(const dram_channel *ch)
{
    return ch->cfg.queue_depth == 0 || ch->queue->len < ch->cfg.queue_depth;
}

void dram_push(dram_channel *ch, uint64_t cycle, uint64_t addr, unsigned bytes, bool write, uint64_t tag)
{
    g_assert(dram_can_push(ch));
    dram_req r = {.addr = addr, .bytes = bytes, .write = write, .tag = tag, .arrival = cycle};
    dram_map_address(&ch->cfg, addr, &r.bank, &r.row);
    g_array_append_val(ch->queue, r);
}

static inline uint64_t max_u(uint64_t a, int64_t b)
{
    return b > 0 && (uint64_t)b > a ? (uint64_t)b : a;
}

/* Banked: starts the request r (taken from the queue at `cycle`) on its bank; see dram.h. */
static void dram_start_banked(dram_channel *ch, dram_req *r, uint64_t cycle)
{
    const dram_timing *t = &ch->cfg.timing;
    dram_bank *b = &ch->banks[r->bank];
    uint64_t col;
    if (b->open && b->row == r->row) {
        ch->counts.row_hits++;
        col = max_u(cycle, b->act + t->tRCD);
    } else {
        ch->counts.row_misses++;
        uint64_t act = cycle;
        if (b->open) { /* precharge the other row first */
            ch->counts.precharges++;
            uint64_t pre = max_u(max_u(cycle, b->act + t->tRAS), b->wr_end + t->tWR);
            act = pre + t->tRP;
        }
        act = max_u(max_u(act, b->act + t->tRC), ch->last_act + t->tRRD);
        ch->counts.activates++;
        b->act = ch->last_act = (int64_t)act;
        b->open = true;
        b->row = r->row;
        col = act + t->tRCD;
    }
    if (!r->write)
        col = max_u(col, ch->wr_end + t->tCDLR);
    col = max_u(col, (int64_t)ch->bus_free - t->tCL); /* the data finds the bus free */
    uint64_t data = col + t->tCL;
    unsigned burst = dram_burst_cycles(&ch->cfg, r->bytes);
    ch->bus_free = data + burst;
    if (r->write)
        b->wr_end = ch->wr_end = (int64_t)(data + burst);
    b->free_at = col + 1;
    r->done = data + burst + ch->cfg.latency;
}

static bool dram_step_banked(dram_channel *ch, uint64_t cycle)
{
    if (cycle < ch->next_pick)
        return false;
    g_array_set_size(ch->cand, 0);
    g_array_set_size(ch->cand_index, 0);
    for (unsigned i = 0; i < ch->queue->len; i++) {
        const dram_req *q = &g_array_index(ch->queue, dram_req, i);
        if (q->arrival > cycle)
            break;
        if (ch->banks[q->bank].free_at <= cycle) {
            g_array_append_val(ch->cand, *q);
            g_array_append_val(ch->cand_index, i);
        }
    }
    if (!ch->cand->len)
        return false;
    unsigned pick =
        ch->sched(ch, (const dram_req *)(void *)ch->cand->data, ch->cand->len, cycle, ch->sched_ctx);
    g_assert(pick < ch->cand->len);
    unsigned qi = g_array_index(ch->cand_index, unsigned, pick);
    dram_req r = g_array_index(ch->queue, dram_req, qi);
    g_array_remove_index(ch->queue, qi);
    dram_start_banked(ch, &r, cycle);
    ch->next_pick = cycle + 1;
    /* the bus serves in pick order, so replies are ready in pick order */
    *(dram_req *)ring_push_slot(&ch->service) = r;
    return true;
}

bool dram_step(dram_channel *ch, uint64_t cycle)
{
    if (ch->banks)
        return dram_step_banked(ch, cycle);
    if (cycle < ch->bus_free)
        return false;
    unsigned n = 0; /* requests that have arrived: a prefix, the queue being in arrival order */
    while (n < ch->queue->len && g_array_index(ch->queue, dram_req, n).arrival <= cycle)
        n++;
    if (n == 0)
        return false;
    unsigned pick = ch->sched(ch, (const dram_req *)(void *)ch->queue->data, n, cycle, ch->sched_ctx);
    g_assert(pick < n);
    dram_req r = g_array_index(ch->queue, dram_req, pick);
    g_array_remove_index(ch->queue, pick);
    unsigned burst = dram_burst_cycles(&ch->cfg, r.bytes);
    ch->bus_free = cycle + burst;
    r.done = cycle + burst + ch->cfg.latency;
    /* fixed latency: replies leave in service order */
    *(dram_req *)ring_push_slot(&ch->service) = r;
    return true;
}

uint64_t dram_next_event(const dram_channel *ch)
{
    uint64_t next = dram_next_start(ch);
    if (!ring_empty(&ch->service))
        next = MIN(next, ((const dram_req *)ring_peek(&ch->service))->done);
    return next;
}

uint64_t dram_next_start(const dram_channel *ch)
{
    uint64_t next = UINT64_MAX;
    if (ch->banks) {
        for (unsigned i = 0; i < ch->queue->len; i++) {
            const dram_req *q = &g_array_index(ch->queue, dram_req, i);
            next = MIN(next, MAX(MAX(q->arrival, ch->banks[q->bank].free_at), ch->next_pick));
        }
    } else if (ch->queue->len)
        next = MIN(next, MAX(ch->bus_free, g_array_index(ch->queue, dram_req, 0).arrival));
    return next;
}

bool dram_pop_done(dram_channel *ch, uint64_t cycle, dram_req *out)
{
    const dram_req *head = ring_peek(&ch->service);
    if (!head || head->done > cycle)
        return false;
    if (out)
        *out = *head;
    ring_pop(&ch->service, NULL);
    return true;
}

unsigned dram_queued(const dram_channel *ch)
{
    return ch->queue->len;
}

unsigned dram_in_service(const dram_channel *ch)
{
    return ring_len(&ch->service);
}
