/* mem_fixed.c — see mem_fixed.h. */
#include "models/sm/mem_fixed.h"

#include <string.h>

typedef struct {
    uint64_t due;
    mem_resp_t r;
} mf_item;

static const blk_port_desc ports[] = {
    [MEM_FIXED_REQ] = {"req", GSC_IN, &mem_req_type, BLK_CHAN_FIFO, "req_depth", "requests from the SM"},
    [MEM_FIXED_RESP] = {"resp", GSC_OUT, &mem_resp_type, BLK_CHAN_FIFO, NULL, "responses to the SM"},
};

static const blk_param_desc params[] = {
    {"latency", BLK_PARAM_UINT, "200", "1", "100000", NULL, "cycles",
     "request to response [A: GTX480 L2 (120) + DRAM (100) round trip, rounded]"},
    {"bytes_per_cycle", BLK_PARAM_UINT, "32", "1", "4096", NULL, "bytes/cycle", "data path bandwidth [A]"},
    {"req_depth", BLK_PARAM_UINT, "8", "1", "1024", NULL, "items",
     "depth of the request FIFO, where requests wait for the data path (then the SM stalls)"},
    {"e_byte", BLK_PARAM_DOUBLE, "160", "0", NULL, NULL, "pJ",
     "energy per byte moved (the whole memory side behind the SM) [A: about 20 pJ per bit, as dram's "
     "e_access]"},
};

static const blk_stat_desc stats[] = {
    [MEM_FIXED_STAT_READS] = {"reads", BLK_STAT_COUNTER, "requests", "read requests", NULL},
    [MEM_FIXED_STAT_WRITES] = {"writes", BLK_STAT_COUNTER, "requests", "write requests", NULL},
    [MEM_FIXED_STAT_ATOMICS] = {"atomics", BLK_STAT_COUNTER, "requests", "atomic requests", NULL},
    [MEM_FIXED_STAT_BYTES] = {"bytes", BLK_STAT_COUNTER, "bytes", "bytes moved", NULL},
    [MEM_FIXED_STAT_BUSY] = {"busy_cycles", BLK_STAT_COUNTER, "cycles", "cycles the data path was busy",
                             NULL},
};

static const blk_energy_event energy_events[] = {{"bytes", "bytes", "e_byte", BLK_COMP_DRAMP}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {{"pending", 8, "requests in flight"}};

const blk_desc mem_fixed_desc = {
    "mem_fixed",
    "fixed-latency, fixed-bandwidth memory answering mem_req_t (tb-sm's memory side)",
    "docs/sm.md mem_fixed",
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

static unsigned mask_bytes(const mem_req_t *q)
{
    return (unsigned)(__builtin_popcountll(q->mask_lo) + __builtin_popcountll(q->mask_hi));
}

static void mem_fixed_run(void *self)
{
    mem_fixed *m = self;
    uint64_t now = gsc_cycle();
    gsc_fifo *in = blk_fifo(m->inst, MEM_FIXED_REQ);
    gsc_fifo *out = blk_fifo(m->inst, MEM_FIXED_RESP);
    /* A request is taken when the data path is free for it: the others wait in the request FIFO
     * (req_depth), which back-pressures the SM when full. */
    while (m->free_at <= now && gsc_fifo_can_get(in)) {
        /* read in place, in its ring slot (valid until the SM's next put, in a later activation) */
        const mem_req_t *q = gsc_fifo_take(in);
        if (q->bytes == 0 || q->bytes > MEM_LINE_MAX)
            gsc_fatal("%s: request of %u bytes (a line is at most %u)", m->inst->path, q->bytes,
                      (unsigned)MEM_LINE_MAX);
        unsigned bytes = q->kind == MEM_READ ? q->bytes : mask_bytes(q);
        uint64_t start = now;
        uint64_t busy = (bytes + m->bpc - 1) / m->bpc;
        m->free_at = start + (busy ? busy : 1);
        blk_stat_add(m->inst, MEM_FIXED_STAT_BUSY, busy);
        blk_stat_add(m->inst, MEM_FIXED_STAT_BYTES, bytes);
        blk_stat_add(m->inst,
                     q->kind == MEM_READ    ? MEM_FIXED_STAT_READS
                     : q->kind == MEM_WRITE ? MEM_FIXED_STAT_WRITES
                                           : MEM_FIXED_STAT_ATOMICS,
                     1);
        mf_item *it = ring_push_slot(&m->pending); /* due cycles never decrease: start is monotonic */
        /* Only what the response carries needs a value (mem_resp_used): its header; a read's line
         * (filled when it is sent); an atomic's line and old values. */
        memset(it, 0, offsetof(mf_item, r) + offsetof(mem_resp_t, data));
        if (q->kind == MEM_ATOMIC)
            memset(it->r.data, 0, sizeof it->r - offsetof(mem_resp_t, data));
        /* A MEM_ATOMIC with lanes is performed now, in arrival order (the SM of tb-sm performs its
         * atomics at issue and sends atom.lanes = 0: timing only). */
        if (q->kind == MEM_ATOMIC && q->atom.lanes &&
            !mem_atomic_perform(m->env->mem, q, it->r.atom_old, m->env->error)) {
            m->env->failed = true;
            gsc_stop();
        }
        it->due = start + m->latency;
        it->r.addr = q->addr;
        it->r.id = q->id;
        it->r.bytes = q->bytes;
        it->r.dst = q->src;
        it->r.warp = q->warp;
        it->r.kind = q->kind;
        it->r.client = q->client;
    }
    while (!ring_empty(&m->pending) && gsc_fifo_can_put(out)) {
        mf_item *it = ring_peek(&m->pending);
        if (it->due > now)
            break;
        /* made in its slot of `resp`: the header from the queue (an atomic's line and old values
         * too), a read's line from the image as it holds it now */
        mem_resp_t *r = gsc_fifo_put_slot(out);
        memcpy(r, &it->r, it->r.kind == MEM_ATOMIC ? sizeof *r : offsetof(mem_resp_t, data));
        if (r->kind == MEM_READ)
            mem_line_fill(m->env->mem, r->addr, r->bytes, r->data);
        gsc_fifo_put_commit(out);
        ring_pop(&m->pending, NULL);
    }
    m->tr_pending = ring_len(&m->pending);
    uint64_t next = UINT64_MAX;
    if (!ring_empty(&m->pending)) {
        mf_item *it = ring_peek(&m->pending);
        next = MAX(it->due, now + 1);
    }
    if (gsc_fifo_can_get(in)) /* the next request starts when the data path is free */
        next = MIN(next, MAX(m->free_at, now + 1));
    if (next != UINT64_MAX)
        gsc_run_within(next - now);
}

static void mem_fixed_elaborate(void *self)
{
    mem_fixed *m = self;
    gsc_process *p = gsc_process_new(m->inst->mod, "run", mem_fixed_run, m);
    gsc_sensitive_fifo_put(p, blk_fifo(m->inst, MEM_FIXED_REQ));
    gsc_sensitive_fifo_room(p, blk_fifo(m->inst, MEM_FIXED_RESP));
}

mem_fixed *mem_fixed_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env)
{
    mem_fixed *m = g_new0(mem_fixed, 1);
    m->inst = blk_inst_new(ctx, parent, name, &mem_fixed_desc);
    m->env = env;
    m->latency = (unsigned)blk_param_uint(m->inst, "latency");
    m->bpc = (unsigned)blk_param_uint(m->inst, "bytes_per_cycle");
    ring_init(&m->pending, sizeof(mf_item));
    blk_trace_state(m->inst, "pending", GSC_U32, &m->tr_pending);
    blk_inst_on_elaborate(m->inst, mem_fixed_elaborate, m);
    return m;
}

void mem_fixed_free(mem_fixed *m)
{
    if (!m)
        return;
    ring_clear(&m->pending);
    g_free(m);
}
