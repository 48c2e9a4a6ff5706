/* dram.c — DRAM channel timing core; see dram.h. */
#include "models/lib/dram.h"

struct dram_channel {
    dram_config cfg;
    GArray *queue;     /* dram_req, arrival order */
    GArray *service;   /* dram_req, reply order */
    uint64_t bus_free; /* first cycle the data bus is free */
    dram_sched_fn sched;
    void *sched_ctx;
};

unsigned dram_sched_fcfs(const dram_channel *ch, const dram_req *queue, unsigned n, uint64_t cycle, void *ctx)
{
    (void)ch, (void)queue, (void)n, (void)cycle, (void)ctx;
    return 0; /* the queue is in arrival order */
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
    ch->queue = g_array_new(FALSE, FALSE, sizeof(dram_req));
    ch->service = g_array_new(FALSE, FALSE, sizeof(dram_req));
    ch->sched = dram_sched_fcfs;
    return ch;
}

void dram_free(dram_channel *ch)
{
    if (!ch)
        return;
    g_array_free(ch->queue, TRUE);
    g_array_free(ch->service, TRUE);
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
    uint64_t chunk = addr / rb;
    *bank = (unsigned)(chunk % banks);
    *row = chunk / banks;
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

bool dram_step(dram_channel *ch, uint64_t cycle)
{
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
    g_array_append_val(ch->service, r);
    return true;
}

uint64_t dram_next_event(const dram_channel *ch)
{
    uint64_t next = UINT64_MAX;
    if (ch->service->len)
        next = g_array_index(ch->service, dram_req, 0).done;
    if (ch->queue->len)
        next = MIN(next, MAX(ch->bus_free, g_array_index(ch->queue, dram_req, 0).arrival));
    return next;
}

bool dram_pop_done(dram_channel *ch, uint64_t cycle, dram_req *out)
{
    if (!ch->service->len || g_array_index(ch->service, dram_req, 0).done > cycle)
        return false;
    if (out)
        *out = g_array_index(ch->service, dram_req, 0);
    g_array_remove_index(ch->service, 0);
    return true;
}

unsigned dram_queued(const dram_channel *ch)
{
    return ch->queue->len;
}

unsigned dram_in_service(const dram_channel *ch)
{
    return ch->service->len;
}
