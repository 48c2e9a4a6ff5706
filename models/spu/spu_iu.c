/* spu_iu.c — the `spu_iu` block; see spu_iu.h. */
#include "models/spu/spu_iu.h"

#include <stddef.h>
#include <string.h>

#include "models/mem_types.h"
#include "models/spu/spu_cb.h"
#include "models/spu/spu_iu_code.h"

static const blk_port_desc ports[] = {
    [SPU_IU_CB] = {"cb", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "its border CB pair", &spu_cb_iface},
    [SPU_IU_BS] = {"bs", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL, "the grid's global blocksync",
                   &blocksync_iface},
    [SPU_IU_RELEASE] = {"release", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL, "the grid releases it",
                        &blocksync_release_iface},
    [SPU_IU_MEM_REQ] = {"mem_req_%u", GSC_OUT, &mem_req_type, BLK_CHAN_FIFO, NULL,
                        "requests to the interconnect (icnt_path = 1)", NULL, 0, 1, NULL},
    [SPU_IU_MEM_RESP] = {"mem_resp_%u", GSC_IN, &mem_resp_type, BLK_CHAN_FIFO, NULL,
                         "replies from the interconnect (icnt_path = 1)", NULL, 0, 1, NULL},
    [SPU_IU_SM_MEM] = {"sm_mem", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                       "an SM's role: the SM's memory port (its ldst's iu export; icnt_path = 1)", &ldst_iu_iface,
                       BLK_PORT_OPTIONAL},
    [SPU_IU_SM_REPLY] = {"sm_reply", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                         "an SM's role: the replies through the SM's memory port", &ldst_iu_reply_iface},
};

static const blk_param_desc params[] = {
    {"mem_latency", BLK_PARAM_UINT, "200", "0", "100000", NULL, "cycles",
     "from a load round's start to its first data [A: a DRAM round trip of the GTX480-class memory]"},
    {"e_request", BLK_PARAM_DOUBLE, "10", "0", NULL, NULL, "pJ",
     "energy of one 32-byte CB request [A: as spu_cb.e_access]"},
    {"e_offchip", BLK_PARAM_DOUBLE, "640", "0", NULL, NULL, "pJ",
     "energy of one 4-byte off-chip element access (load, store, spill, restore; the unit reaches "
     "memory directly; with icnt_path=1 the L2 and DRAM count it instead) [A: about 20 pJ/bit, as "
     "dram.e_access per bit]"},
    {"p_leak", BLK_PARAM_DOUBLE, "50", "0", NULL, NULL, "mW",
     "leakage of the unit [A: the IU leakage of SPU spec §13.2 has no value; a truncated SM's "
     "order of magnitude, to set for a study]"},
    {"icnt_path", BLK_PARAM_UINT, "0", "0", "1", NULL, "",
     "1: loads and stores go through the GPU's interconnect, L2 slices and DRAM (a mem_req/mem_resp "
     "port pair); 0: the idealised path (mem_latency, then one request per cycle) [A]"},
    {"max_outstanding", BLK_PARAM_UINT, "32", "1", "4096", NULL, "requests",
     "icnt_path: requests in flight at most [A: as an SM's miss queue]"},
    {"line_bytes", BLK_PARAM_UINT, "128", "4", "128", NULL, "bytes",
     "icnt_path: a request covers the part of a face row inside one line of this size [A: the L2 line]"},
    {"code_alu_latency", BLK_PARAM_UINT, "1", "1", "64", NULL, "cycles",
     "running IU code: from an ALU instruction's issue to its result [A: the IU's pipeline is not "
     "given]"},
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
    [SPU_IU_STAT_MEM_REQS] = {"mem_reqs", BLK_STAT_COUNTER, "requests",
                              "requests sent through the interconnect (icnt_path)", NULL},
    [SPU_IU_STAT_MEM_WAIT] = {"mem_wait_cycles", BLK_STAT_COUNTER, "cycles",
                              "cycles a round's requests were all sent but not all answered (icnt_path)",
                              NULL},
    [SPU_IU_STAT_INSTRS] = {"instructions", BLK_STAT_COUNTER, "warp instructions",
                            "IU code: warp instructions executed (0: the unit follows a plan)", NULL},
};

static const blk_state_desc state[] = {{"round", 32, "the current round"},
                                       {"state", 2, "0 moving, 1 waiting at the barrier, 2 done"}};

static const blk_energy_event energy_events[] = {
    {"request", "cb_requests", "e_request", BLK_COMP_PIPEP},
    {"load", "offchip_loads", "e_offchip", BLK_COMP_DRAMP, "icnt_path"},
    {"store", "offchip_stores", "e_offchip", BLK_COMP_DRAMP, "icnt_path"},
    {"spill", "spills", "e_offchip", BLK_COMP_DRAMP, "icnt_path"},
    {"restore", "restores", "e_offchip", BLK_COMP_DRAMP, "icnt_path"},
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
    blk_call_note(u->probe[SPU_IU_RELEASE], slot, 0, 0);
    (void)slot;
    if (u->code) {
        spu_iu_code_release(u);
        return;
    }
    g_assert(u->state == SPU_IU_WAITING);
    u->state = SPU_IU_MOVING;
    u->resume_at = gsc_cycle() + 1;   /* the release's swap takes effect next cycle */
    if (!(u->sync_dir && u->store)) { /* a storer under producer-consumer sync moves after its sync */
        u->round++;
        u->round_started = false;
    }
    gsc_event_notify(u->ev, 1);
}

static const blocksync_release_if release_table = {iu_release};

/* A spill is done: its guard counts it and wakes the restore waiting on it (this cycle). */
static void iu_post(const spu_iu_xfer *x)
{
    if (!x->post)
        return;
    x->post->spilled++;
    if (x->post->waiter) {
        gsc_event_notify(x->post->waiter->ev, 0);
        x->post->waiter = NULL;
    }
}

/* n more elements of transfer x moved: on to its next row, or the next transfer (true). */
static bool iu_advance(spu_iu *u, const spu_iu_xfer *x, unsigned n)
{
    u->elem += n;
    if (u->elem < x->row_elems)
        return false;
    u->elem = 0;
    if (++u->row < x->rows)
        return false;
    u->row = 0;
    u->xi++;
    return true;
}

/* icnt_path: the CB half a request's n elements move through, as ceil(n / 8) 32-byte CB accesses
 * (the ideal path's count); fatal past the CB's end. */
static uint8_t *iu_cb_access(spu_iu *u, bool write, uint32_t cb, unsigned n, unsigned round)
{
    uint64_t bytes = 0;
    uint8_t *half = NULL;
    for (unsigned done = 0; done < n; done += 8)
        half = ((const spu_cb_if *)u->cb_m)->half(u->cb_self, write, MIN(8u, n - done), &bytes);
    if (cb + 4ull * n > bytes)
        gsc_fatal("%s: transfer of round %u reaches byte %" G_GUINT64_FORMAT " of a %" G_GUINT64_FORMAT
                  "-byte CB",
                  u->inst->path, round, (uint64_t)cb + 4u * n, bytes);
    return half;
}

/* icnt_path: one request of the current transfer, the part of its row inside one line; false when
 * the unit cannot send now (its in-flight limit or the interconnect's FIFO: it sleeps until a reply
 * or room; an SM's full miss queue: it looks again next cycle). */
static bool iu_mem_request(spu_iu *u, const spu_iu_xfer *x)
{
    if (!u->n_free)
        return false;
    if (u->sm_role ? !u->sm_port->can_send(u->sm_port_self) : !gsc_fifo_can_put(u->req_f)) {
        if (u->sm_role)
            gsc_run_within(1);
        return false;
    }
    uint64_t ga = x->gaddr + u->row * x->row_stride + 4ull * u->elem;
    uint64_t line = ga - ga % u->line_bytes;
    unsigned off = (unsigned)(ga - line), n = MIN(x->row_elems - u->elem, (u->line_bytes - off) / 4);
    uint32_t cb = x->cb_off + 4 * (u->row * x->row_elems + u->elem);
    mem_req_t q;
    memset(&q, 0, offsetof(mem_req_t, data));
    q.addr = line;
    q.bytes = u->line_bytes;
    q.src = (uint16_t)u->node;
    q.kind = u->store ? MEM_WRITE : MEM_READ;
    if (u->store) { /* the CB's data: into the request and the memory image */
        const uint8_t *half = iu_cb_access(u, false, cb, n, x->round);
        memcpy(q.data + off, half + cb, 4ull * n);
        mem_req_mask_bytes(&q, off, 4 * n);
        if (!fmem_write(u->mem, ga, half + cb, 4ull * n))
            gsc_fatal("%s: round %u: invalid global store of %u elements at 0x%" G_GINT64_MODIFIER "x",
                      u->inst->path, x->round, n, ga);
        blk_stat_add(u->inst, x->viu ? SPU_IU_STAT_SPILLS : SPU_IU_STAT_STORES, n);
    }
    u->pend[spu_iu_send(u, &q)] = (struct spu_iu_pend){cb, n, off};
    if (u->store)
        blk_stat_add(u->inst, SPU_IU_STAT_REQUESTS, (n + 7) / 8);
    iu_advance(u, x, n);
    return true;
}

/* icnt_path: one reply; a load's data goes into the CB's write half. */
static void iu_mem_reply(spu_iu *u, const mem_resp_t *r)
{
    /* (the id is free again for the next request, its pend entry still read here) */
    const struct spu_iu_pend *pd = &u->pend[spu_iu_reply_id(u, r)];
    if (!u->store) {
        const spu_iu_xfer *x = &u->xfers[u->round_xi];
        memcpy(iu_cb_access(u, true, pd->cb, pd->n, x->round) + pd->cb, r->data + pd->off, 4ull * pd->n);
        blk_stat_add(u->inst, x->viu ? SPU_IU_STAT_RESTORES : SPU_IU_STAT_LOADS, pd->n);
        blk_stat_add(u->inst, SPU_IU_STAT_REQUESTS, (pd->n + 7) / 8);
    }
}

unsigned spu_iu_send(spu_iu *u, mem_req_t *q)
{
    g_assert(u->n_free);
    unsigned id = u->free_ids[--u->n_free];
    q->id = (uint64_t)u->sm_slot << 32 | id;
    if (u->sm_role)
        u->sm_port->send(u->sm_port_self, q);
    else
        gsc_fifo_put(u->req_f, q);
    u->outstanding++;
    blk_stat_add(u->inst, SPU_IU_STAT_MEM_REQS, 1);
    return id;
}

unsigned spu_iu_reply_id(spu_iu *u, const mem_resp_t *r)
{
    unsigned id = (unsigned)(r->id & 0xffffffffu);
    g_assert(id < u->max_out && u->outstanding);
    u->free_ids[u->n_free++] = id;
    u->outstanding--;
    return id;
}

static void iu_mem_replies(spu_iu *u)
{
    mem_resp_t r;
    while (gsc_fifo_can_get(u->resp_f)) {
        gsc_fifo_get(u->resp_f, &r);
        iu_mem_reply(u, &r);
    }
}

/* An SM's role: a reply through the SM's port (in the SM's ldst activation); the unit looks next. */
static void iu_sm_reply(void *self, const mem_resp_t *r)
{
    spu_iu *u = self;
    blk_call_note(u->probe[SPU_IU_SM_REPLY], (uint32_t)r->id, (uint32_t)r->addr, 0);
    if (u->code)
        spu_iu_code_reply(u, r);
    else
        iu_mem_reply(u, r);
    gsc_event_notify(u->ev, 0);
}

static const ldst_iu_reply_if sm_reply_table = {iu_sm_reply};

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
    if (iu_advance(u, x, n))
        iu_post(x);
}

static void spu_iu_run(void *self)
{
    spu_iu *u = self;
    if (u->code) {
        spu_iu_code_run(u);
        return;
    }
    uint64_t now = gsc_cycle();
    if (u->icnt && !u->sm_role)
        iu_mem_replies(u);
    if (u->state != SPU_IU_MOVING || now < u->resume_at) /* awake mode runs it in the release cycle too */
        return;
    if (u->sync_dir && u->store && !u->synced) { /* producer-consumer storer: sync first */
        if (u->round >= (u->roles ? u->role_end : u->rounds)) {
            u->state = SPU_IU_DONE;
            u->bs->leave(u->bs_self, u->unit);
            if (u->roles)
                u->role_done(u->role_ctx, u);
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
        u->ready_at = now + (has && !u->store && !u->icnt ? u->mem_latency : 0);
        u->round_xi = u->xi;
    }
    if (has) {
        if (now < u->ready_at) { /* the first data: sleep until then, its cycles busy */
            if (!u->latency_counted)
                blk_stat_add(u->inst, SPU_IU_STAT_BUSY, u->ready_at - now);
            u->latency_counted = true;
            gsc_run_within(u->ready_at - now);
            return;
        }
        if (u->icnt && !iu_mem_request(u, &u->xfers[u->xi]))
            return; /* a reply or room in the interconnect's FIFO wakes it */
        blk_stat_add(u->inst, SPU_IU_STAT_BUSY, 1);
        if (!u->icnt)
            iu_request(u, &u->xfers[u->xi]);
        if (u->xi < u->n_xfers && u->xfers[u->xi].round == u->round) {
            gsc_run_within(1);
            return;
        }
    }
    if (u->icnt) { /* the round ends when every request is answered; then its spills count */
        if (u->outstanding) {
            if (u->mem_wait_since == UINT64_MAX)
                u->mem_wait_since = now;
            return; /* the last reply wakes it */
        }
        if (u->mem_wait_since != UINT64_MAX) {
            blk_stat_add(u->inst, SPU_IU_STAT_MEM_WAIT, now - u->mem_wait_since);
            u->mem_wait_since = UINT64_MAX;
        }
        for (; u->round_xi < u->xi; u->round_xi++)
            iu_post(&u->xfers[u->round_xi]);
    }
    if (u->sync_dir && u->store) { /* the round's stores are done: the next round syncs first */
        u->round++;
        u->round_started = false;
        u->synced = false;
        gsc_run_within(1);
    } else if (u->roles && u->round + 1 >= u->role_end) { /* a global-sync role's last round */
        u->round++;
        u->round_started = false;
        u->state = SPU_IU_DONE;
        u->role_done(u->role_ctx, u);
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
    if (u->icnt && u->sm_role) {
        r = blk_import(u->inst, SPU_IU_SM_MEM, 0);
        if (!r.methods)
            gsc_fatal("%s: icnt_path=1: an SM's role needs its SM's memory port (sm_mem unbound)", u->inst->path);
        u->sm_port = r.methods, u->sm_port_self = r.self;
    } else if (u->icnt) {
        u->req_f = gsc_port_fifo(blk_port_at(u->inst, SPU_IU_MEM_REQ, 0));
        u->resp_f = gsc_port_fifo(blk_port_at(u->inst, SPU_IU_MEM_RESP, 0));
        gsc_sensitive_fifo_put(p, u->resp_f);
        gsc_sensitive_fifo_room(p, u->req_f);
    }
    gsc_process_initialize(p); /* round 0 starts at cycle 0 */
}

/* mem_req, mem_resp: one each with icnt_path=1 for a unit of its own node, none otherwise */
static void iu_counts(const blk_inst *inst, unsigned *counts, void *data)
{
    const bool *sm_role = data;
    counts[SPU_IU_MEM_REQ] = counts[SPU_IU_MEM_RESP] = blk_param_uint(inst, "icnt_path") != 0 && !*sm_role;
}

static spu_iu *iu_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned unit, bool store,
                      bool sm_role)
{
    spu_iu *u = g_new0(spu_iu, 1);
    u->inst = blk_inst_new_counted(ctx, parent, name, &spu_iu_desc, iu_counts, &sm_role);
    u->sm_role = sm_role;
    u->inst->self = u;
    u->mem = mem;
    u->unit = unit;
    u->store = store;
    u->mem_latency = blk_param_uint(u->inst, "mem_latency");
    u->no_guard = blk_param_bool(u->inst, "selftest_no_guard");
    u->icnt = blk_param_uint(u->inst, "icnt_path") != 0;
    u->mem_wait_since = UINT64_MAX;
    if (u->icnt) {
        u->max_out = (unsigned)blk_param_uint(u->inst, "max_outstanding");
        u->line_bytes = (unsigned)blk_param_uint(u->inst, "line_bytes");
        if (u->line_bytes % 4)
            gsc_fatal("%s: line_bytes=%u is not a multiple of 4", u->inst->path, u->line_bytes);
        u->pend = g_new0(struct spu_iu_pend, u->max_out);
        u->free_ids = g_new(unsigned, u->max_out);
        for (unsigned i = 0; i < u->max_out; i++)
            u->free_ids[u->n_free++] = u->max_out - 1 - i;
    }
    u->ev = gsc_event_new(u->inst->mod, "released");
    blk_export(u->inst, SPU_IU_RELEASE, 0, &release_table, u);
    blk_export(u->inst, SPU_IU_SM_REPLY, 0, &sm_reply_table, u);
    blk_export_probes(u->inst, u->probe, SPU_IU_SM_REPLY + 1);
    blk_trace_state(u->inst, "round", GSC_U32, &u->round);
    blk_trace_state(u->inst, "state", GSC_U8, &u->state);
    blk_inst_on_elaborate(u->inst, spu_iu_elaborate, u);
    return u;
}

spu_iu *spu_iu_new(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned unit, bool store)
{
    return iu_new(ctx, parent, name, mem, unit, store, false);
}

spu_iu *spu_iu_new_sm(blk_ctx *ctx, gsc_module *parent, const char *name, fmem *mem, unsigned unit,
                      unsigned slot)
{
    spu_iu *u = iu_new(ctx, parent, name, mem, unit, true, true);
    u->sm_slot = slot;
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

void spu_iu_set_roles(spu_iu *u, void (*done)(void *ctx, spu_iu *u), void *ctx)
{
    u->roles = true;
    u->role_done = done;
    u->role_ctx = ctx;
    u->state = SPU_IU_DONE;
    u->role_end = 0;
}

void spu_iu_start_role(spu_iu *u, unsigned rounds)
{
    g_assert(u->roles && rounds && u->state == SPU_IU_DONE && u->round == u->role_end &&
             u->role_end + rounds <= u->rounds);
    u->role_end += rounds;
    u->state = SPU_IU_MOVING;
    u->synced = false;
    u->round_started = false;
    u->resume_at = gsc_cycle() + 1;
    if (u->code)
        spu_iu_code_start_role(u);
    gsc_event_notify(u->ev, 1);
    /* (the grid's runtime calls this outside the unit's activations, with no binding declaring it:
     * the traced state shows `moving` from this cycle, not from the unit's next activation) */
    gsc_trace_touch(u->inst->mod);
}

void spu_iu_set_node(spu_iu *u, unsigned node)
{
    g_assert(u->icnt);
    u->node = node;
}

void spu_iu_free(spu_iu *u)
{
    if (!u)
        return;
    spu_iu_code_free(u);
    g_free(u->pend);
    g_free(u->free_ids);
    g_free(u->xfers);
    g_free(u);
}
