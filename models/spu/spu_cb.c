/* spu_cb.c — the `spu_cb` block; see spu_cb.h. */
#include "models/spu/spu_cb.h"

#include <string.h>

static const char *const cb_methods[] = {"half(write) -> the half an SM's ld.cb / st.cb reaches now",
                                         "swap(): exchange the halves from the next cycle", NULL};
/* Traced calls: op 0 half, 1 swap, 2 peek, and the half's direction (1: write). */
const blk_iface spu_cb_iface = {"spu_cb", "a communication-buffer pair", cb_methods, {"op", "write"}, {2, 1}};

static const blk_port_desc ports[] = {
    [SPU_CB_CB] = {"cb", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                   "accesses (SMs' load/store path, interface units) and the swap", &spu_cb_iface},
};

static const blk_param_desc params[] = {
    {"bytes", BLK_PARAM_UINT, "4096", "64", "1048576", NULL, "bytes",
     "size of one CB (each half of the pair) [S: 4 KB; 16 KB in the larger-tile study]"},
    {"e_access", BLK_PARAM_DOUBLE, "10", "0", NULL, NULL, "pJ",
     "energy of one CB access (a warp instruction's ld.cb/st.cb, an interface unit's request): the "
     "CBP component driven by CB_ACC [S: SPU spec §13.2; the value A: as ldst.e_smem_access, the CB "
     "is modelled as shared memory]"},
    {"p_leak_byte", BLK_PARAM_DOUBLE, "0.001367", "0", NULL, NULL, "mW",
     "leakage of the pair per byte of one CB (both halves: two bytes of RAM) [A: 2.8 mW per 4 KB "
     "bank (register-renaming spec Table 2, 40 nm) x 2 / 4096; the CB leakage of SPU spec §13.2]"},
};

static const blk_stat_desc stats[] = {
    [SPU_CB_STAT_WRITES] = {"writes", BLK_STAT_COUNTER, "accesses",
                            "write accesses (warp instructions, IU requests)", NULL},
    [SPU_CB_STAT_READS] = {"reads", BLK_STAT_COUNTER, "accesses", "read accesses", NULL},
    [SPU_CB_STAT_IU_WORDS] = {"iu_words", BLK_STAT_COUNTER, "words", "words the interface units moved", NULL},
    [SPU_CB_STAT_SWAPS] = {"swaps", BLK_STAT_COUNTER, "swaps", "ping-pong swaps (blocksync releases)", NULL},
};

static const blk_state_desc state[] = {{"phase", 1, "the half the producer writes (0 or 1)"}};

static const blk_energy_event energy_events[] = {{"read", "reads", "e_access", BLK_COMP_CBP},
                                                 {"write", "writes", "e_access", BLK_COMP_CBP}};
static const blk_energy_leak energy_leak[] = {{BLK_POWER_ON, "p_leak_byte", NULL}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), energy_leak, BLK_N(energy_leak),
                                       "bytes"};

const blk_desc spu_cb_desc = {
    "spu_cb",      "a ping-pong pair of SPU communication buffers between two neighbours",
    "SPU spec §3", ports,
    BLK_N(ports),  params,
    BLK_N(params), stats,
    BLK_N(stats),  state,
    BLK_N(state),  &energy,
};

unsigned spu_cb_phase(spu_cb *c)
{
    if (c->swap_pending && gsc_cycle() > c->swap_at) {
        c->phase ^= 1;
        c->swap_pending = false;
    }
    return c->phase;
}

static uint8_t *cb_half(void *self, bool write, unsigned words, uint64_t *bytes)
{
    spu_cb *c = self;
    blk_call_note(c->probe[SPU_CB_CB], 0, write, 0);
    return spu_cb_half(c, write, words, bytes);
}

uint8_t *spu_cb_half(spu_cb *c, bool write, unsigned words, uint64_t *bytes)
{
    unsigned ph = spu_cb_phase(c);
    blk_stat_add(c->inst, write ? SPU_CB_STAT_WRITES : SPU_CB_STAT_READS, 1);
    blk_stat_add(c->inst, SPU_CB_STAT_IU_WORDS, words);
    *bytes = c->bytes;
    return c->buf[write ? ph : ph ^ 1];
}

static void cb_swap(void *self)
{
    spu_cb *c = self;
    blk_call_note(c->probe[SPU_CB_CB], 1, 0, 0);
    spu_cb_phase(c); /* an older swap first */
    if (c->swap_pending)
        gsc_fatal("%s: two swaps in cycle %" G_GUINT64_FORMAT, c->inst->path, gsc_cycle());
    c->swap_pending = true;
    c->swap_at = gsc_cycle();
    gsc_event_notify(c->swapped, 1);
    blk_stat_add(c->inst, SPU_CB_STAT_SWAPS, 1);
}

static uint8_t *cb_peek(void *self, bool write, uint64_t *bytes)
{
    spu_cb *c = self;
    blk_call_note(c->probe[SPU_CB_CB], 2, write, 0);
    unsigned ph = spu_cb_phase(c);
    *bytes = c->bytes;
    return c->buf[write ? ph : ph ^ 1];
}

static const spu_cb_if cb_table = {cb_half, cb_swap, cb_peek};

/* Woken the cycle a swap takes effect: applies it, so the traced phase changes in that cycle. */
static void spu_cb_run(void *self)
{
    spu_cb_phase(self);
}

static void spu_cb_elaborate(void *self)
{
    spu_cb *c = self;
    gsc_process *p = gsc_process_new(c->inst->mod, "run", spu_cb_run, c);
    gsc_sensitive_event(p, c->swapped);
}

spu_cb *spu_cb_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    spu_cb *c = g_new0(spu_cb, 1);
    c->inst = blk_inst_new(ctx, parent, name, &spu_cb_desc);
    c->inst->self = c;
    c->bytes = blk_param_uint(c->inst, "bytes");
    /* poison: a read of a half nobody wrote gives a NaN pattern, so a protocol error fails the check */
    for (unsigned h = 0; h < 2; h++) {
        c->buf[h] = g_malloc(c->bytes);
        memset(c->buf[h], 0xff, c->bytes);
    }
    c->swapped = gsc_event_new(c->inst->mod, "swapped");
    blk_export(c->inst, SPU_CB_CB, 0, &cb_table, c);
    blk_export_probes(c->inst, c->probe, SPU_CB_CB + 1);
    blk_trace_state(c->inst, "phase", GSC_U8, &c->phase);
    blk_inst_on_elaborate(c->inst, spu_cb_elaborate, c);
    return c;
}

void spu_cb_free(spu_cb *c)
{
    if (!c)
        return;
    g_free(c->buf[0]);
    g_free(c->buf[1]);
    g_free(c);
}
