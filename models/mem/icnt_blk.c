/* icnt_blk.c — the `icnt` block; see icnt_blk.h. */
#include "models/mem/icnt_blk.h"

#include "kernels/frontend/ir.h"
#include "models/core/stats.h"

static const blk_param_desc params[] = {
    {"latency", BLK_PARAM_UINT, "8", "1", "100000", NULL, "cycles",
     "traversal latency of a packet's head flit [A: docs/baseline-design.md §5.3]"},
    {"flit_bytes", BLK_PARAM_UINT, "32", "1", "4096", NULL, "bytes",
     "flit size [S: GTX480 config_fermi_islip.icnt flit_size 32]"},
    {"flits_per_cycle", BLK_PARAM_UINT, "1", "1", "64", NULL, "flits", "flits a port moves per cycle [A]"},
    {"inject_depth", BLK_PARAM_UINT, "4", "0", "1024", NULL, "packets",
     "packets waiting or being injected per source port (0 = unbounded) [A]"},
    {"header_bytes", BLK_PARAM_UINT, "8", "0", "1024", NULL, "bytes",
     "packet header: a read request, a write ack [A]"},
    {"interleave_bytes", BLK_PARAM_UINT, "128", "1", "1048576", NULL, "bytes",
     "address interleaving granularity over sub-partitions: part = addr / this mod parts [A]"},
    {"out_depth", BLK_PARAM_UINT, "8", "1", "1024", NULL, "items", "depth of the FIFOs this block puts into"},
    {"e_flit", BLK_PARAM_DOUBLE, "128", "0", NULL, NULL, "pJ",
     "energy of moving one flit from its source to its destination port [A: 256 bits x about 0.1 pJ per "
     "bit and mm x about 5 mm of wire at 40 nm]"},
};

static double util(const blk_inst *inst, unsigned flits_stat, bool to_l2)
{
    const icnt_blk *b = inst->self;
    if (!b)
        return 0;
    double ports = to_l2 ? b->n_parts : b->n_sms;
    return stats_ratio(
        blk_stat_get(inst, flits_stat),
        (uint64_t)(blk_domain_cycles(inst->domain, gsc_cycle()) * ports * b->net_cfg.flits_per_cycle));
}
static double req_util(const blk_inst *inst)
{
    return util(inst, ICNT_STAT_REQ_FLITS, true);
}
static double resp_util(const blk_inst *inst)
{
    return util(inst, ICNT_STAT_RESP_FLITS, false);
}

static const blk_stat_desc stats[] = {
    [ICNT_STAT_REQ_PACKETS] = {"req_packets", BLK_STAT_COUNTER, "packets", "requests sent SM -> L2", NULL},
    [ICNT_STAT_REQ_FLITS] = {"req_flits", BLK_STAT_COUNTER, "flits", "flits of the requests", NULL},
    [ICNT_STAT_RESP_PACKETS] = {"resp_packets", BLK_STAT_COUNTER, "packets", "replies sent L2 -> SM", NULL},
    [ICNT_STAT_RESP_FLITS] = {"resp_flits", BLK_STAT_COUNTER, "flits", "flits of the replies", NULL},
    [ICNT_STAT_INJECT_STALLS] = {"inject_stalls", BLK_STAT_COUNTER, "cycles",
                                 "cycles an input had a packet but its injection queue was full (summed over "
                                 "inputs)",
                                 NULL},
    [ICNT_STAT_EJECT_STALLS] =
        {"eject_stalls", BLK_STAT_COUNTER, "cycles",
         "cycles a due packet waited for room in its output FIFO (summed over outputs)", NULL},
    [ICNT_STAT_REQ_LATENCY] = {"req_latency_sum", BLK_STAT_COUNTER, "cycles",
                               "sum over requests of cycles from send to leaving the network", NULL},
    [ICNT_STAT_RESP_LATENCY] = {"resp_latency_sum", BLK_STAT_COUNTER, "cycles",
                                "sum over replies of cycles from send to leaving the network", NULL},
    [ICNT_STAT_REQ_UTIL] = {"req_utilisation", BLK_STAT_DERIVED, "fraction",
                            "request flits / (cycles x L2 ports x flits_per_cycle)", req_util},
    [ICNT_STAT_RESP_UTIL] = {"resp_utilisation", BLK_STAT_DERIVED, "fraction",
                             "reply flits / (cycles x SM ports x flits_per_cycle)", resp_util},
};

static const blk_energy_event energy_events[] = {
    {"req_flit", "req_flits", "e_flit", BLK_COMP_NOCP},
    {"resp_flit", "resp_flits", "e_flit", BLK_COMP_NOCP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"req_in_flight", 16, "requests inside the request network"},
    {"resp_in_flight", 16, "replies inside the reply network"},
};

static const blk_port_desc ports[] = {
    [ICNT_PORT_SM_REQ] = {"sm_req%u", GSC_IN, &mem_req_type, BLK_CHAN_FIFO, NULL, "requests of SM %u", NULL,
                          0, ICNT_MAX_NODES},
    [ICNT_PORT_SM_RESP] = {"sm_resp%u", GSC_OUT, &mem_resp_type, BLK_CHAN_FIFO, NULL, "replies to SM %u",
                           NULL, 0, ICNT_MAX_NODES},
    [ICNT_PORT_L2_REQ] = {"l2_req%u", GSC_OUT, &mem_req_type, BLK_CHAN_FIFO, NULL,
                          "requests to L2 sub-partition %u", NULL, 0, ICNT_MAX_NODES},
    [ICNT_PORT_L2_RESP] = {"l2_resp%u", GSC_IN, &mem_resp_type, BLK_CHAN_FIFO, NULL,
                           "replies of L2 sub-partition %u", NULL, 0, ICNT_MAX_NODES},
};

const blk_desc icnt_blk_desc = {
    "icnt",
    "interconnect SMs <-> L2 sub-partitions: request and reply networks, flits, per-port serialisation, "
    "latency",
    "docs/baseline-design.md §2.3; GPGPU-Sim GTX480 config_fermi_islip.icnt",
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

unsigned icnt_blk_part_of(const icnt_blk *b, uint64_t addr)
{
    return (unsigned)((addr / b->interleave_bytes) % b->n_parts);
}

static unsigned popcount64(uint64_t x)
{
    return (unsigned)__builtin_popcountll(x);
}

unsigned icnt_blk_req_bytes(unsigned header_bytes, const mem_req_t *r)
{
    switch (r->kind) {
    case MEM_WRITE:
    case MEM_WRITEBACK:
        return header_bytes + popcount64(r->mask_lo) + popcount64(r->mask_hi);
    case MEM_ATOMIC: {
        if (r->atom.lanes == 0) /* performed at issue by the SM: the request carries masked bytes */
            return header_bytes + popcount64(r->mask_lo) + popcount64(r->mask_hi);
        unsigned ops = r->atom.op == IR_ATOM_CAS ? 2 : 1;
        return header_bytes + popcount64(r->atom.lanes) * r->atom.esize * ops;
    }
    default:
        return header_bytes;
    }
}

unsigned icnt_blk_resp_bytes(unsigned header_bytes, const mem_resp_t *r)
{
    return r->kind == MEM_READ || r->kind == MEM_ATOMIC ? header_bytes + r->bytes : header_bytes;
}

static icnt *node_net(const icnt_blk *b, unsigned node)
{
    return node < b->n_sms ? b->resp_net : b->req_net;
}

/* A node's delivery cycle (UINT64_MAX: none), and its bit in `waiting`. */
static inline void icnt_blk_set_due(icnt_blk *b, unsigned node, uint64_t due)
{
    uint64_t bit = UINT64_C(1) << (node % 64);
    b->due[node] = due;
    if (due == UINT64_MAX)
        b->waiting[node / 64] &= ~bit;
    else
        b->waiting[node / 64] |= bit;
}

/* A packet was sent to node: a node that had none gets its delivery cycle (a later packet never
 * delivers before the oldest one). */
static inline void icnt_blk_pending_inc(icnt_blk *b, unsigned node)
{
    if (b->pending[node]++ == 0)
        icnt_blk_set_due(b, node, icnt_next_delivery(node_net(b, node), node));
}

/* A source with a packet in its input FIFO and no room in its injection queue: the stall began at
 * stall_since[src] and is counted, in cycles, when the packet is taken. Returns false if the source
 * is still blocked (next: the cycle it gets room, if earlier). */
static inline bool icnt_blk_room(icnt_blk *b, icnt *net, unsigned src, uint64_t now, uint64_t *next)
{
    /* a blocked source sends nothing, so its room cycle is the one found when it blocked */
    uint64_t room = b->stall_since[src] == UINT64_MAX ? icnt_room_at(net, src) : b->stall_room[src];
    if (room > now) {
        if (b->stall_since[src] == UINT64_MAX) {
            b->stall_since[src] = now;
            b->stall_room[src] = room;
        }
        *next = MIN(*next, room);
        return false;
    }
    if (b->stall_since[src] != UINT64_MAX) {
        blk_stat_add(b->inst, ICNT_STAT_INJECT_STALLS, now - b->stall_since[src]);
        b->stall_since[src] = UINT64_MAX;
    }
    return true;
}

/* Take what one source's input FIFO holds while its injection queue has room; false if it still
 * holds a packet (the source is blocked). */
static bool icnt_blk_inject_node(icnt_blk *b, unsigned node, uint64_t now, uint64_t *next)
{
    gsc_fifo *f = b->in_f[node];
    if (node < b->n_sms) {
        while (gsc_fifo_can_get(f)) {
            if (!icnt_blk_room(b, b->req_net, node, now, next))
                return false;
            uint32_t s = mem_slots_take(&b->reqs);
            mem_req_t *r = mem_slots_at(&b->reqs, s);
            gsc_fifo_get(f, r);
            unsigned bytes = icnt_blk_req_bytes(b->header_bytes, r);
            unsigned dst = b->n_sms + icnt_blk_part_of(b, r->addr);
            icnt_send(b->req_net, now, node, dst, bytes, s);
            icnt_blk_pending_inc(b, dst);
            blk_stat_add(b->inst, ICNT_STAT_REQ_PACKETS, 1);
            blk_stat_add(b->inst, ICNT_STAT_REQ_FLITS,
                         icnt_packet_cycles(&b->net_cfg, bytes) * b->net_cfg.flits_per_cycle);
        }
        return true;
    }
    while (gsc_fifo_can_get(f)) {
        if (!icnt_blk_room(b, b->resp_net, node, now, next))
            return false;
        uint32_t s = mem_slots_take(&b->resps);
        mem_resp_t *r = mem_slots_at(&b->resps, s);
        gsc_fifo_get(f, r);
        if (r->dst >= b->n_sms)
            gsc_fatal("%s: reply for SM %u, but the GPU has %u SMs", b->inst->path, r->dst, b->n_sms);
        unsigned bytes = icnt_blk_resp_bytes(b->header_bytes, r);
        icnt_send(b->resp_net, now, node, r->dst, bytes, s);
        icnt_blk_pending_inc(b, r->dst);
        blk_stat_add(b->inst, ICNT_STAT_RESP_PACKETS, 1);
        blk_stat_add(b->inst, ICNT_STAT_RESP_FLITS,
                     icnt_packet_cycles(&b->net_cfg, bytes) * b->net_cfg.flits_per_cycle);
    }
    return true;
}

/* Take what the input FIFOs hold while the sources' injection queues have room, in node order (SMs,
 * then sub-partitions), visiting only the inputs marked in `arrived`; returns the first cycle a
 * blocked source gets room (UINT64_MAX: none is blocked). */
static uint64_t icnt_blk_inject(icnt_blk *b, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    unsigned words = (b->n_sms + b->n_parts + 63) / 64;
    for (unsigned w = 0; w < words; w++)
        for (uint64_t bits = b->arrived[w]; bits; bits &= bits - 1) {
            unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            if (icnt_blk_inject_node(b, node, now, &next))
                b->arrived[w] &= ~(UINT64_C(1) << (node % 64));
        }
    return next;
}

/* The arrival hook of an input FIFO (gsc_fifo_on_arrival): its node is visited at the next
 * injection (the put also wakes the block's process). */
static void icnt_blk_on_arrival(void *ctx)
{
    const struct icnt_blk_input *in = ctx;
    in->b->arrived[in->node / 64] |= UINT64_C(1) << (in->node % 64);
}

/* Put the packets due at one node on its output FIFO; false if one of them found the FIFO full
 * (the node is blocked: the block is room-sensitive to its outputs, so the get that makes room
 * wakes it; gets of an output that never refused a put wake nobody). *next: the node's next delivery cycle.
 */
static bool icnt_blk_eject(icnt_blk *b, unsigned node, uint64_t now, uint64_t *next)
{
    bool to_sm = node < b->n_sms;
    icnt *net = node_net(b, node);
    mem_slots *pool = to_sm ? &b->resps : &b->reqs;
    gsc_fifo *f = b->out_f[node];
    icnt_packet pk;
    while ((*next = icnt_next_delivery(net, node)) <= now) {
        if (!gsc_fifo_can_put(f)) {
            if (b->blocked_since[node] == UINT64_MAX)
                b->blocked_since[node] = now;
            return false;
        }
        if (b->blocked_since[node] != UINT64_MAX) {
            blk_stat_add(b->inst, ICNT_STAT_EJECT_STALLS, now - b->blocked_since[node]);
            b->blocked_since[node] = UINT64_MAX;
        }
        bool popped = icnt_pop(net, node, now, &pk);
        g_assert(popped); /* due (icnt_next_delivery): pk is written */
        b->pending[node]--;
        gsc_fifo_put(f, mem_slots_at(pool, (uint32_t)pk.payload));
        mem_slots_put_back(pool, (uint32_t)pk.payload);
        blk_stat_add(b->inst, to_sm ? ICNT_STAT_RESP_LATENCY : ICNT_STAT_REQ_LATENCY, now - pk.sent);
    }
    return true;
}

/* Ejection at a node: afterwards it is blocked (no due cycle: a get wakes the block), due at its
 * next delivery, or idle (no packet pending: UINT64_MAX). */
static void icnt_blk_eject_node(icnt_blk *b, unsigned node, uint64_t now)
{
    uint64_t next;
    bool ok = icnt_blk_eject(b, node, now, &next);
    uint64_t bit = UINT64_C(1) << (node % 64);
    if (!ok) {
        icnt_blk_set_due(b, node, UINT64_MAX);
        b->blocked[node / 64] |= bit;
        return;
    }
    b->blocked[node / 64] &= ~bit;
    icnt_blk_set_due(b, node, next);
}

/* Ejection at the blocked nodes and the nodes with a packet due; returns the next delivery cycle of
 * the nodes still waiting (UINT64_MAX: none; blocked nodes wait for a get). A scan of the due cycles
 * of the nodes with a packet on its way (`waiting`, in node order): a comparison per such node and
 * activation costs less than a heap operation per packet, and an idle node costs nothing. */
static uint64_t icnt_blk_eject_due(icnt_blk *b, uint64_t now)
{
    unsigned n = b->n_sms + b->n_parts, words = (n + 63) / 64;
    for (unsigned w = 0; w < words; w++)
        for (uint64_t bits = b->blocked[w]; bits; bits &= bits - 1) {
            unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            icnt_blk_eject_node(b, node, now);
        }
    uint64_t next = UINT64_MAX;
    for (unsigned w = 0; w < words; w++)
        for (uint64_t bits = b->waiting[w]; bits; bits &= bits - 1) { /* (a node changes only its bit) */
            unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            if (b->due[node] <= now) /* requeued later than now */
                icnt_blk_eject_node(b, node, now);
            next = MIN(next, b->due[node]);
        }
    return next;
}

static void icnt_blk_run(void *self)
{
    icnt_blk *b = self;
    const blk_domain *d = b->inst->domain;
    uint64_t core = gsc_cycle(), now;
    if (!blk_domain_at_edge(d, b->wake, core, &now))
        return;
    uint64_t room = icnt_blk_inject(b, now);    /* a blocked source is retried when it has room */
    uint64_t next = icnt_blk_eject_due(b, now); /* (not inside MIN: it would run twice) */
    if (room < next)
        next = room;
    b->req_in_flight = (uint16_t)icnt_in_flight(b->req_net);
    b->resp_in_flight = (uint16_t)icnt_in_flight(b->resp_net);
    if (next != UINT64_MAX)
        blk_domain_notify(d, b->wake, core, next);
}

static void icnt_blk_elaborate(void *self)
{
    icnt_blk *b = self;
    gsc_process *p = gsc_process_new(b->inst->mod, "run", icnt_blk_run, b);
    for (unsigned i = 0; i < b->n_sms; i++) {
        b->in_f[i] = gsc_port_fifo(b->sm_req[i]);
        b->out_f[i] = gsc_port_fifo(b->sm_resp[i]);
    }
    for (unsigned q = 0; q < b->n_parts; q++) {
        b->in_f[b->n_sms + q] = gsc_port_fifo(b->l2_resp[q]);
        b->out_f[b->n_sms + q] = gsc_port_fifo(b->l2_req[q]);
    }
    for (unsigned i = 0; i < b->n_sms + b->n_parts; i++) {
        b->input[i] = (struct icnt_blk_input){b, i};
        gsc_fifo_on_arrival(b->in_f[i], icnt_blk_on_arrival, &b->input[i]);
    }
    for (unsigned i = 0; i < b->n_sms; i++) {
        gsc_sensitive_fifo_put(p, gsc_port_fifo(b->sm_req[i]));
        gsc_sensitive_fifo_room(p, gsc_port_fifo(b->sm_resp[i]));
    }
    for (unsigned q = 0; q < b->n_parts; q++) {
        gsc_sensitive_fifo_put(p, gsc_port_fifo(b->l2_resp[q]));
        gsc_sensitive_fifo_room(p, gsc_port_fifo(b->l2_req[q]));
    }
    gsc_sensitive_event(p, b->wake);
}

/* The elements of port array idx (n of them). */
static gsc_port **icnt_blk_ports(icnt_blk *b, unsigned idx, unsigned n)
{
    gsc_port **p = g_new(gsc_port *, n);
    for (unsigned i = 0; i < n; i++)
        p[i] = blk_port_at(b->inst, idx, i);
    return p;
}

/* The end of the run: the stalls still going on count up to its last cycle (and go on from there). */
static void icnt_blk_finish(void *self, uint64_t cycles)
{
    icnt_blk *b = self;
    for (unsigned i = 0; i < b->n_sms + b->n_parts; i++) {
        if (b->stall_since[i] != UINT64_MAX && b->stall_since[i] < cycles) {
            blk_stat_add(b->inst, ICNT_STAT_INJECT_STALLS, cycles - b->stall_since[i]);
            b->stall_since[i] = cycles;
        }
        if (b->blocked_since[i] != UINT64_MAX && b->blocked_since[i] < cycles) {
            blk_stat_add(b->inst, ICNT_STAT_EJECT_STALLS, cycles - b->blocked_since[i]);
            b->blocked_since[i] = cycles;
        }
    }
}

icnt_blk *icnt_blk_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned n_sms, unsigned n_parts)
{
    g_assert(n_sms > 0 && n_parts > 0 && n_sms + n_parts <= UINT16_MAX);
    icnt_blk *b = g_new0(icnt_blk, 1);
    if (n_sms > ICNT_MAX_NODES || n_parts > ICNT_MAX_NODES)
        gsc_fatal("%s: %u SMs and %u sub-partitions (at most %u each)", name, n_sms, n_parts, ICNT_MAX_NODES);
    unsigned counts[BLK_N(ports)] = {[ICNT_PORT_SM_REQ] = n_sms,
                                     [ICNT_PORT_SM_RESP] = n_sms,
                                     [ICNT_PORT_L2_REQ] = n_parts,
                                     [ICNT_PORT_L2_RESP] = n_parts};
    b->inst = blk_inst_new_arrays(ctx, parent, name, &icnt_blk_desc, counts);
    b->inst->self = b;
    b->n_sms = n_sms;
    b->n_parts = n_parts;
    b->net_cfg = (icnt_config){
        .ports = n_sms + n_parts,
        .latency = (unsigned)blk_param_uint(b->inst, "latency"),
        .flit_bytes = (unsigned)blk_param_uint(b->inst, "flit_bytes"),
        .flits_per_cycle = (unsigned)blk_param_uint(b->inst, "flits_per_cycle"),
        .inject_depth = (unsigned)blk_param_uint(b->inst, "inject_depth"),
    };
    b->header_bytes = (unsigned)blk_param_uint(b->inst, "header_bytes");
    b->interleave_bytes = (unsigned)blk_param_uint(b->inst, "interleave_bytes");
    b->out_depth = (unsigned)blk_param_uint(b->inst, "out_depth");
    b->req_net = icnt_new(&b->net_cfg);
    b->resp_net = icnt_new(&b->net_cfg);
    b->sm_req = icnt_blk_ports(b, ICNT_PORT_SM_REQ, n_sms);
    b->sm_resp = icnt_blk_ports(b, ICNT_PORT_SM_RESP, n_sms);
    b->l2_req = icnt_blk_ports(b, ICNT_PORT_L2_REQ, n_parts);
    b->l2_resp = icnt_blk_ports(b, ICNT_PORT_L2_RESP, n_parts);
    b->pending = g_new0(uint32_t, n_sms + n_parts);
    b->stall_since = g_new(uint64_t, n_sms + n_parts);
    b->stall_room = g_new0(uint64_t, n_sms + n_parts);
    b->blocked_since = g_new(uint64_t, n_sms + n_parts);
    for (unsigned i = 0; i < n_sms + n_parts; i++)
        b->stall_since[i] = b->blocked_since[i] = UINT64_MAX;
    b->due = g_new(uint64_t, n_sms + n_parts);
    for (unsigned i = 0; i < n_sms + n_parts; i++)
        b->due[i] = UINT64_MAX;
    b->blocked = g_new0(uint64_t, (n_sms + n_parts + 63) / 64);
    b->waiting = g_new0(uint64_t, (n_sms + n_parts + 63) / 64);
    b->arrived = g_new0(uint64_t, (n_sms + n_parts + 63) / 64);
    b->input = g_new0(struct icnt_blk_input, n_sms + n_parts);
    b->in_f = g_new0(gsc_fifo *, n_sms + n_parts);
    b->out_f = g_new0(gsc_fifo *, n_sms + n_parts);
    mem_slots_init(&b->reqs, sizeof(mem_req_t));
    mem_slots_init(&b->resps, sizeof(mem_resp_t));
    b->wake = gsc_event_new(b->inst->mod, "wake");
    blk_trace_state(b->inst, "req_in_flight", GSC_U16, &b->req_in_flight);
    blk_trace_state(b->inst, "resp_in_flight", GSC_U16, &b->resp_in_flight);
    blk_inst_on_elaborate(b->inst, icnt_blk_elaborate, b);
    blk_inst_on_finish(b->inst, icnt_blk_finish, b);
    return b;
}

void icnt_blk_free(icnt_blk *b)
{
    if (!b)
        return;
    icnt_free(b->req_net);
    icnt_free(b->resp_net);
    g_free(b->sm_req);
    g_free(b->sm_resp);
    g_free(b->l2_req);
    g_free(b->l2_resp);
    g_free(b->pending);
    g_free(b->stall_since);
    g_free(b->stall_room);
    g_free(b->blocked_since);
    g_free(b->due);
    g_free(b->blocked);
    g_free(b->waiting);
    g_free(b->arrived);
    g_free(b->input);
    g_free(b->in_f);
    g_free(b->out_f);
    mem_slots_clear(&b->reqs);
    mem_slots_clear(&b->resps);
    g_free(b);
}

gsc_port *icnt_blk_sm_req(const icnt_blk *b, unsigned sm)
{
    g_assert(sm < b->n_sms);
    return b->sm_req[sm];
}
gsc_port *icnt_blk_sm_resp(const icnt_blk *b, unsigned sm)
{
    g_assert(sm < b->n_sms);
    return b->sm_resp[sm];
}
gsc_port *icnt_blk_l2_req(const icnt_blk *b, unsigned part)
{
    g_assert(part < b->n_parts);
    return b->l2_req[part];
}
gsc_port *icnt_blk_l2_resp(const icnt_blk *b, unsigned part)
{
    g_assert(part < b->n_parts);
    return b->l2_resp[part];
}
unsigned icnt_blk_out_depth(const icnt_blk *b)
{
    return b->out_depth;
}
