/* spu_iu.c — the `spu_iu` block; see spu_iu.h. */
#include "models/spu/spu_iu.h"

#include "models/spu/spu_cb.h"

static const blk_port_desc ports[] = {
    [SPU_IU_CB] = {"cb", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "its border CB pair", &spu_cb_iface},
    [SPU_IU_BS] = {"bs", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the grid's global blocksync",
                   &blocksync_iface},
    [SPU_IU_RELEASE] = {"release", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL, "the grid releases it",
                        &blocksync_release_iface},
};

static const blk_param_desc params[] = {
    {"mem_latency", BLK_PARAM_UINT, "200", "0", "100000", NULL, "cycles",
     "from a load round's start to its first data [A: a DRAM round trip of the GTX480-class memory]"},
    {"e_request", BLK_PARAM_DOUBLE, "10", "0", NULL, NULL, "pJ",
     "energy of one 32-byte CB request [A: as spu_cb.e_access]"},
    {"e_offchip", BLK_PARAM_DOUBLE, "640", "0", NULL, NULL, "pJ",
     "energy of one 4-byte off-chip element access (load, store, spill, restore; the unit reaches "
     "memory directly) [A: about 20 pJ/bit, as dram.e_access per bit]"},
    {"p_leak", BLK_PARAM_DOUBLE, "50", "0", NULL, NULL, "mW",
     "leakage of the unit [A: the IU leakage of SPU spec §13.2 has no value; a truncated SM's "
     "order of magnitude, to set for a study]"},
    {"selftest_no_guard", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "break the mechanism: a restore does not wait for its spill (a test sees the check fail)"},
};

static const blk_stat_desc stats[] = {
    [SPU_IU_STAT_LOADS] = {"offchip_loads", BLK_STAT_COUNTER, "elements",
                           "4-byte elements loaded from global memory", NULL},
    [SPU_IU_STAT_STORES] = {"offchip_stores", BLK_STAT_COUNTER, "elements",
                            "4-byte elements stored to global memory", NULL},
    [SPU_IU_STAT_REQUESTS] = {"cb_requests", BLK_STAT_COUNTER, "requests", "32-byte CB requests", NULL},
    [SPU_IU_STAT_ROUNDS] = {"rounds", BLK_STAT_COUNTER, "rounds", "blocksync rounds taken part in", NULL},
    [SPU_IU_STAT_BUSY] = {"busy_cycles", BLK_STAT_COUNTER, "cycles", "cycles moving data (latency included)",
                          NULL},
    [SPU_IU_STAT_SPILLS] = {"spills", BLK_STAT_COUNTER, "elements",
                            "4-byte elements a VIU spilled to the spill region (global memory)", NULL},
    [SPU_IU_STAT_RESTORES] = {"restores", BLK_STAT_COUNTER, "elements",
                              "4-byte elements a VIU restored from the spill region", NULL},
    [SPU_IU_STAT_GUARD] = {"guard_stall_cycles", BLK_STAT_COUNTER, "cycles",
                           "cycles a restore waited for its spill (the ordering guard)", NULL},
};

static const blk_state_desc state[] = {{"round", 32, "the current round"},
                                       {"state", 2, "0 moving, 1 waiting at the barrier, 2 done"}};

static const blk_energy_event energy_events[] = {
    {"request", "cb_requests", "e_request"},  {"load", "offchip_loads", "e_offchip"},
    {"store", "offchip_stores", "e_offchip"}, {"spill", "spills", "e_offchip"},
    {"restore", "restores", "e_offchip"},
};
static const blk_energy_leak energy_leak[] = {{BLK_POWER_ON, "p_leak", NULL}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), energy_leak, BLK_N(energy_leak),
                                       NULL};

const blk_desc spu_iu_desc = {
    "spu_iu",
    "an SPU border interface unit: N/W load faces into its CB, S/E store them",
    "SPU spec §4.1, §11.5",
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

static void iu_release(void *self, unsigned slot)
{
    spu_iu *u = self;
    (void)slot;
    g_assert(u->state == SPU_IU_WAITING);
    u->state = SPU_IU_MOVING;
    u->resume_at = gsc_cycle() + 1; /* the release's swap takes effect next cycle */
    if (!(u->sync_dir && u->store)) { /* a storer under producer-consumer sync moves after its sync */
        u->round++;
        u->round_started = false;
    }
    gsc_event_notify(u->ev, 1);
}

static const blocksync_release_if release_table = {iu_release};

/* One CB request of the current transfer (up to 8 elements of its row). */
static void iu_request(spu_iu *u, const spu_iu_xfer *x)
{
    unsigned n = MIN(8u, x->row_elems - u->elem);
    uint64_t bytes;
    uint8_t *half = ((const spu_cb_if *)u->cb_m)->half(u->cb_self, !u->store, n, &bytes);
    uint64_t cb = x->cb_off + 4 * ((uint64_t)u->row * x->row_elems + u->elem);
    uint64_t ga = x->gaddr + u->row * x->row_stride + 4ull * u->elem;
    if (cb + 4u * n > bytes)
        gsc_fatal("%s: transfer of round %u reaches byte %" G_GUINT64_FORMAT " of a %" G_GUINT64_FORMAT
                  "-byte CB",
                  u->inst->path, x->round, cb + 4u * n, bytes);
    bool ok =
        u->store ? fmem_write(u->mem, ga, half + cb, 4ull * n) : fmem_read(u->mem, ga, half + cb, 4ull * n);
    if (!ok)
        gsc_fatal("%s: round %u: invalid global %s of %u elements at 0x%" G_GINT64_MODIFIER "x",
                  u->inst->path, x->round, u->store ? "store" : "load", n, ga);
    blk_stat_add(u->inst,
                 x->viu ? (u->store ? SPU_IU_STAT_SPILLS : SPU_IU_STAT_RESTORES)
                        : (u->store ? SPU_IU_STAT_STORES : SPU_IU_STAT_LOADS),
                 n);
    blk_stat_add(u->inst, SPU_IU_STAT_REQUESTS, 1);
    u->elem += n;
    if (u->elem == x->row_elems) {
        u->elem = 0;
        if (++u->row == x->rows) {
            u->row = 0;
            u->xi++;
            if (x->post) {
                x->post->spilled++;
                if (x->post->waiter) { /* wake the restore waiting on it (this cycle) */
                    gsc_event_notify(x->post->waiter->ev, 0);
                    x->post->waiter = NULL;
                }
            }
        }
    }
}

static void spu_iu_run(void *self)
{
    spu_iu *u = self;
    uint64_t now = gsc_cycle();
    if (u->state != SPU_IU_MOVING || now < u->resume_at) /* awake mode runs it in the release cycle too */
        return;
    if (u->sync_dir && u->store && !u->synced) { /* producer-consumer storer: sync first */
        if (u->round >= u->rounds) {
            u->state = SPU_IU_DONE;
            u->bs->leave(u->bs_self, u->unit);
            return;
        }
        u->synced = true;
        u->state = SPU_IU_WAITING;
        blk_stat_add(u->inst, SPU_IU_STAT_ROUNDS, 1);
        u->bs->arrive(u->bs_self, u->unit, 0, u->sync_dir);
        return;
    }
    bool has = u->xi < u->n_xfers && u->xfers[u->xi].round == u->round;
    spu_iu_guard *g = has && !u->round_started && !u->no_guard ? u->xfers[u->xi].wait : NULL;
    if (g && g->spilled < u->xfers[u->xi].wait_min) { /* the restore sleeps until its spill is done */
        if (!u->guard_waiting) {
            u->guard_since = now;
            if (u->on_block)
                gsc_event_notify(u->on_block, 1);
        }
        u->guard_waiting = true;
        g->waiter = u;
        return;
    }
    if (u->guard_waiting) { /* every cycle from the first look to this one stalled */
        blk_stat_add(u->inst, SPU_IU_STAT_GUARD, now - u->guard_since);
        u->guard_waiting = false;
    }
    if (!u->round_started) {
        u->round_started = true;
        u->latency_counted = false;
        u->ready_at = now + (has && !u->store ? u->mem_latency : 0);
    }
    if (has) {
        if (now < u->ready_at) { /* the first data: sleep until then, its cycles busy */
            if (!u->latency_counted)
                blk_stat_add(u->inst, SPU_IU_STAT_BUSY, u->ready_at - now);
            u->latency_counted = true;
            gsc_run_within(u->ready_at - now);
            return;
        }
        blk_stat_add(u->inst, SPU_IU_STAT_BUSY, 1);
        iu_request(u, &u->xfers[u->xi]);
        if (u->xi < u->n_xfers && u->xfers[u->xi].round == u->round) {
            gsc_run_within(1);
            return;
        }
    }
    if (u->sync_dir && u->store) { /* the round's stores are done: the next round syncs first */
        u->round++;
        u->round_started = false;
        u->synced = false;
        gsc_run_within(1);
    } else if (u->round < u->rounds) {
        u->state = SPU_IU_WAITING;
        blk_stat_add(u->inst, SPU_IU_STAT_ROUNDS, 1);
        u->bs->arrive(u->bs_self, u->unit, 0, u->sync_dir);
    } else {
        u->state = SPU_IU_DONE;
        u->bs->leave(u->bs_self, u->unit);
    }
}

static void spu_iu_elaborate(void *self)
{
    spu_iu *u = self;
    blk_iref r = blk_import(u->inst, SPU_IU_CB, 0);
    u->cb_m = r.methods, u->cb_self = r.self;
    r = blk_import(u->inst, SPU_IU_BS, 0);
    u->bs = r.methods, u->bs_self = r.self;
    gsc_process *p = gsc_process_new(u->inst->mod, "run", spu_iu_run, u);
    gsc_sensitive_event(p, u->ev);
    gsc_process_initialize(p); /* round 0 starts at cycle 0 */
}

spu_iu *spu_iu_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned unit, bool store)
{
    spu_iu *u = g_new0(spu_iu, 1);
    u->inst = blk_inst_new(ctx, parent, name, &spu_iu_desc);
    u->inst->self = u;
    u->mem = mem;
    u->unit = unit;
    u->store = store;
    u->mem_latency = blk_param_uint(u->inst, "mem_latency");
    u->no_guard = blk_param_bool(u->inst, "selftest_no_guard");
    u->ev = gsc_event_new(u->inst->mod, "released");
    blk_export(u->inst, SPU_IU_RELEASE, 0, &release_table, u);
    blk_trace_state(u->inst, "round", GSC_U32, &u->round);
    blk_trace_state(u->inst, "state", GSC_U8, &u->state);
    blk_inst_on_elaborate(u->inst, spu_iu_elaborate, u);
    return u;
}

void spu_iu_set_plan(spu_iu *u, unsigned rounds, const spu_iu_xfer *xfers, unsigned n, unsigned sync_dir)
{
    u->sync_dir = sync_dir;
    g_free(u->xfers);
    u->xfers = g_memdup2(xfers, sizeof *xfers * n);
    u->n_xfers = n;
    u->rounds = rounds;
    for (unsigned i = 0; i < n; i++)
        g_assert(xfers[i].round <= rounds && (i == 0 || xfers[i].round >= xfers[i - 1].round) &&
                 xfers[i].rows && xfers[i].row_elems);
}

void spu_iu_free(spu_iu *u)
{
    if (!u)
        return;
    g_free(u->xfers);
    g_free(u);
}
