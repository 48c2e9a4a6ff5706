/* ibuffer.c — see ibuffer.h. */
#include "models/sm/ibuffer.h"

static const char *const ib_methods[] = {
    "head(warp) -> the oldest decoded instruction, or none",
    "count(warp) -> entries held",
    "push(decoded instruction)",
    "pop(warp)    (the head issued)",
    "flush(warp)  (a redirect: the entries are stale)",
    NULL,
};
const blk_iface ibuffer_iface = {
    "ibuffer", "per-warp instruction buffers", ib_methods, {"warp", "op"}, {8, 2}};

static const blk_port_desc ports[] = {
    [IBUFFER_IB] = {"ib", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                    "the issue stage puts, reads and removes instructions (same cycle)", &ibuffer_iface},
};

static const blk_param_desc params[] = {
    {"entries", BLK_PARAM_UINT, "2", "1", "16", NULL, "entries",
     "I-buffer entries per warp [A: GPGPU-Sim 2]"},
    {"e_write", BLK_PARAM_DOUBLE, "1.14", "0", NULL, NULL, "pJ",
     "energy of writing a decoded instruction into the buffers [A: the 1 KB CACTI 40 nm table access of "
     "the register-renaming specification; the issue stage's e_ibuffer_read is the read]"},
};

static const blk_stat_desc stats[] = {
    [IBUFFER_STAT_PUSHED] = {"pushed", BLK_STAT_COUNTER, "instructions", "decoded instructions buffered",
                             NULL},
    [IBUFFER_STAT_FLUSHED] = {"flushed", BLK_STAT_COUNTER, "instructions",
                              "buffered instructions dropped by a redirect", NULL},
};

static const blk_energy_event energy_events[] = {{"write", "pushed", "e_write", BLK_COMP_IBP}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"valid", 64, "warps whose buffer holds an instruction (bit = warp slot)"},
};

const blk_desc ibuffer_desc = {
    "ibuffer",
    "per-warp instruction buffers between decode and issue",
    "docs/baseline-design.md §2.2 I-buffer; CCWS/DAWS/VWS spec §2.1",
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

enum { OP_PUSH, OP_POP, OP_FLUSH };

_Static_assert(sizeof(ibuffer) <= 64, "the I-buffers' record on one line");

static const decoded_t *ib_head(void *self, unsigned warp)
{
    ibuffer *b = self;
    const ibuffer_warp *w = &b->w[warp];
    return w->count ? &w->e[w->head].d : NULL;
}

static unsigned ib_count(void *self, unsigned warp)
{
    return ((ibuffer *)self)->w[warp].count;
}

static void ib_push(void *self, const decoded_t *d)
{
    ibuffer *b = self;
    ibuffer_warp *w = &b->w[d->warp];
    blk_call_note(b->probe, d->warp, OP_PUSH, 0);
    g_assert(w->count < b->entries);
    decoded_t *e = &w->e[(w->head + w->count) % b->entries].d;
    *e = *d;
    e->decode_cycle = gsc_cycle(); /* (the pipeline log's: the cycle it entered the I-buffer) */
    w->count++;
    if (d->warp < 64) /* the trace shows warp slots 0..63 */
        b->tr_valid |= UINT64_C(1) << d->warp;
    blk_stat_add(b->inst, IBUFFER_STAT_PUSHED, 1);
}

static void ib_pop(void *self, unsigned warp)
{
    ibuffer *b = self;
    ibuffer_warp *w = &b->w[warp];
    blk_call_note(b->probe, warp, OP_POP, 0);
    g_assert(w->count > 0);
    w->head = (w->head + 1) % b->entries;
    if (--w->count == 0)
        b->tr_valid &= warp < 64 ? ~(UINT64_C(1) << warp) : ~UINT64_C(0);
}

static void ib_flush(void *self, unsigned warp)
{
    ibuffer *b = self;
    ibuffer_warp *w = &b->w[warp];
    blk_call_note(b->probe, warp, OP_FLUSH, 0);
    blk_stat_add(b->inst, IBUFFER_STAT_FLUSHED, w->count);
    w->count = 0;
    b->tr_valid &= warp < 64 ? ~(UINT64_C(1) << warp) : ~UINT64_C(0);
}

static const ibuffer_if ib_table = {ib_head, ib_count, ib_push, ib_pop, ib_flush};

ibuffer *ibuffer_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps)
{
    g_assert(warps <= SM_MAX_WARPS);
    ibuffer *b = g_aligned_alloc0(1, sizeof(ibuffer), 64); /* (one line) */
    b->inst = blk_inst_new(ctx, parent, name, &ibuffer_desc);
    b->warps = warps;
    b->entries = (unsigned)blk_param_uint(b->inst, "entries");
    b->w = g_new0(ibuffer_warp, warps);
    for (unsigned i = 0; i < warps; i++)
        b->w[i].e = g_aligned_alloc0(b->entries, sizeof(decoded_line_t), 64);
    blk_export(b->inst, IBUFFER_IB, 0, &ib_table, b);
    b->probe = blk_export_probe(b->inst, IBUFFER_IB, 0);
    blk_trace_state(b->inst, "valid", GSC_U64, &b->tr_valid);
    return b;
}

void ibuffer_free(ibuffer *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->warps; i++)
        g_aligned_free(b->w[i].e);
    g_free(b->w);
    g_aligned_free(b);
}
