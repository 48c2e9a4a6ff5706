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

/* A node's next delivery cycle `due` (> now), filed in the wheel's row of that cycle, or among the
 * far nodes when it is ICNT_WHEEL cycles away or more. The node is in no row and not far. */
static inline void icnt_blk_set_due(icnt_blk *b, unsigned node, uint64_t due, uint64_t now)
{
    uint64_t bit = UINT64_C(1) << (node % 64);
    if (due - now < ICNT_WHEEL) {
        unsigned row = (unsigned)(due % ICNT_WHEEL);
        b->wheel[row * b->words + node / 64] |= bit;
        b->wheel_used |= UINT64_C(1) << row;
    } else {
        b->node[node].due = due;
        b->far[node / 64] |= bit;
        b->n_far++;
    }
}

/* Send a packet of `bytes` from src to dst on net; a destination that had no packet on its way gets
 * its delivery cycle (a later packet never delivers before the oldest one). Returns the flits. */
static inline __attribute__((always_inline)) unsigned
icnt_blk_send(icnt_blk *b, icnt *net, uint64_t now, unsigned src, unsigned dst, unsigned bytes, uint32_t slot)
{
    unsigned s = icnt_packet_cycles(&b->net_cfg, bytes);
    uint64_t at = icnt_send_cycles(net, now, src, dst, s, slot);
    if (icnt_queued(net, dst) == 1)
        icnt_blk_set_due(b, dst, at, now);
    return s * b->net_cfg.flits_per_cycle;
}

/* A source with a packet in its input FIFO and no room in its injection queue: the stall began at
 * stall_since and is counted, in cycles, when the packet is taken. Returns false if the source is
 * still blocked (next: the cycle it gets room, if earlier). */
static inline bool icnt_blk_room(icnt_blk *b, icnt *net, icnt_blk_node *n, uint64_t now, uint64_t *next)
{
    if (n->stall_since == UINT64_MAX) {
        uint64_t room = icnt_room_at(net, n->id);
        if (room <= now)
            return true;
        n->stall_since = now;
        n->stall_room = room; /* a blocked source sends nothing: its room cycle stays */
    } else if (n->stall_room <= now) {
        blk_stat_add(b->inst, ICNT_STAT_INJECT_STALLS, now - n->stall_since);
        n->stall_since = UINT64_MAX;
        return true;
    }
    *next = MIN(*next, n->stall_room);
    return false;
}

/* Take what one source's input FIFO holds while its injection queue has room; false if it still
 * holds a packet (the source is blocked). */
static bool icnt_blk_inject_node(icnt_blk *b, unsigned node, uint64_t now, uint64_t *next)
{
    icnt_blk_node *n = &b->node[node];
    gsc_fifo *f = n->in;
    if (node < b->n_sms) {
        while (gsc_fifo_can_get(f)) {
            if (!icnt_blk_room(b, b->req_net, n, now, next))
                return false;
            uint32_t s = mem_slots_take(&b->reqs);
            mem_req_t *r = mem_slots_at(&b->reqs, s);
            gsc_fifo_get(f, r);
            unsigned bytes = r->kind == MEM_READ ? b->header_bytes : icnt_blk_req_bytes(b->header_bytes, r);
            unsigned dst = b->n_sms + icnt_blk_part_of(b, r->addr);
            blk_stat_add(b->inst, ICNT_STAT_REQ_PACKETS, 1);
            blk_stat_add(b->inst, ICNT_STAT_REQ_FLITS,
                         icnt_blk_send(b, b->req_net, now, node, dst, bytes, s));
        }
        return true;
    }
    while (gsc_fifo_can_get(f)) {
        if (!icnt_blk_room(b, b->resp_net, n, now, next))
            return false;
        uint32_t s = mem_slots_take(&b->resps);
        mem_resp_t *r = mem_slots_at(&b->resps, s);
        gsc_fifo_get(f, r);
        if (r->dst >= b->n_sms)
            gsc_fatal("%s: reply for SM %u, but the GPU has %u SMs", b->inst->path, r->dst, b->n_sms);
        unsigned bytes = icnt_blk_resp_bytes(b->header_bytes, r);
        blk_stat_add(b->inst, ICNT_STAT_RESP_PACKETS, 1);
        blk_stat_add(b->inst, ICNT_STAT_RESP_FLITS,
                     icnt_blk_send(b, b->resp_net, now, node, r->dst, bytes, s));
    }
    return true;
}

/* Take what the input FIFOs hold while the sources' injection queues have room, in node order (SMs,
 * then sub-partitions), visiting only the inputs marked in `arrived`; returns the first cycle a
 * blocked source gets room (UINT64_MAX: none is blocked). */
static uint64_t icnt_blk_inject(icnt_blk *b, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (unsigned w = 0, words = b->words; w < words; w++)
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
    const icnt_blk_node *n = ctx;
    n->b->arrived[n->id / 64] |= UINT64_C(1) << (n->id % 64);
}

/* Put the packets due at one node on its output FIFO. Afterwards the node is blocked (a packet
 * found the FIFO full: the block is room-sensitive to its outputs, so the get that makes room wakes
 * it; gets of an output that never refused a put wake nobody), filed at its next delivery, or idle
 * (no packet on its way: in no row). */
static inline __attribute__((always_inline)) void icnt_blk_eject_node(icnt_blk *b, unsigned node,
                                                                      uint64_t now)
{
    icnt_blk_node *n = &b->node[node];
    icnt *net = n->out_net;
    const icnt_packet *pk;
    while ((pk = icnt_head(net, node)) && pk->delivered <= now) {
        /* blocked: blocked_since set and the node's bit in `blocked`, cleared together */
        if (!gsc_fifo_can_put(n->out)) {
            if (n->blocked_since == UINT64_MAX) {
                n->blocked_since = now;
                b->blocked[node / 64] |= UINT64_C(1) << (node % 64);
            }
            return;
        }
        if (n->blocked_since != UINT64_MAX) {
            blk_stat_add(b->inst, ICNT_STAT_EJECT_STALLS, now - n->blocked_since);
            n->blocked_since = UINT64_MAX;
            b->blocked[node / 64] &= ~(UINT64_C(1) << (node % 64));
        }
        uint32_t slot = (uint32_t)pk->payload;
        blk_stat_add(b->inst, n->lat_stat, now - pk->sent);
        icnt_drop(net, node);
        gsc_fifo_put(n->out, mem_slots_at(n->out_pool, slot));
        mem_slots_put_back(n->out_pool, slot);
    }
    if (pk)
        icnt_blk_set_due(b, node, pk->delivered, now);
}

/* The nodes due by `now` into b->ready (a bitmap, empty before): the wheel's rows of the cycles
 * after the last call up to now, emptied, and the far nodes due by now; the far nodes due within
 * ICNT_WHEEL cycles are filed in the wheel (whose rows then hold the cycles now+1 .. now+ICNT_WHEEL). */
static void icnt_blk_take_due(icnt_blk *b, uint64_t now)
{
    unsigned words = b->words;
    uint64_t span = now - b->wheel_at, rows = span >= ICNT_WHEEL ? UINT64_MAX : (UINT64_C(1) << span) - 1;
    unsigned first = (unsigned)((b->wheel_at + 1) % ICNT_WHEEL);
    b->wheel_at = now;
    /* the span's rows, from the row of the cycle after the last call */
    uint64_t due = b->wheel_used & ((rows << first) | (rows >> ((ICNT_WHEEL - first) % ICNT_WHEEL)));
    b->wheel_used &= ~due;
    for (; due; due &= due - 1) {
        uint64_t *row = &b->wheel[(unsigned)__builtin_ctzll(due) * words];
        for (unsigned w = 0; w < words; w++) {
            b->ready[w] |= row[w];
            row[w] = 0;
        }
    }
    if (!b->n_far)
        return;
    for (unsigned w = 0; w < words; w++)
        for (uint64_t bits = b->far[w]; bits; bits &= bits - 1) {
            unsigned node = w * 64 + (unsigned)__builtin_ctzll(bits);
            uint64_t at = b->node[node].due;
            if (at > now && at - now >= ICNT_WHEEL)
                continue;
            b->far[w] &= ~(UINT64_C(1) << (node % 64));
            b->n_far--;
            if (at > now)
                icnt_blk_set_due(b, node, at, now);
            else
                b->ready[w] |= UINT64_C(1) << (node % 64);
        }
}

/* Ejection at the blocked nodes, then at the nodes due by now (icnt_blk_take_due), each in node
 * order; returns the next delivery cycle of the nodes still waiting (UINT64_MAX: none; blocked
 * nodes wait for a get). The wheel finds it from the bitmap of its non-empty rows; only the far
 * nodes (none with the defaults) are compared one by one. */
static uint64_t icnt_blk_eject_due(icnt_blk *b, uint64_t now)
{
    unsigned words = b->words;
    for (unsigned w = 0; w < words; w++)
        for (uint64_t bits = b->blocked[w]; bits; bits &= bits - 1)
            icnt_blk_eject_node(b, w * 64 + (unsigned)__builtin_ctzll(bits), now);
    for (unsigned w = 0; w < words; w++) {
        uint64_t bits = b->ready[w];
        b->ready[w] = 0;
        for (; bits; bits &= bits - 1)
            icnt_blk_eject_node(b, w * 64 + (unsigned)__builtin_ctzll(bits), now);
    }
    uint64_t next = UINT64_MAX;
    if (b->wheel_used) {
        unsigned first = (unsigned)((now + 1) % ICNT_WHEEL);
        uint64_t used = (b->wheel_used >> first) | (b->wheel_used << ((ICNT_WHEEL - first) % ICNT_WHEEL));
        next = now + 1 + (unsigned)__builtin_ctzll(used);
    }
    if (b->n_far)
        for (unsigned w = 0; w < words; w++)
            for (uint64_t bits = b->far[w]; bits; bits &= bits - 1)
                next = MIN(next, b->node[w * 64 + (unsigned)__builtin_ctzll(bits)].due);
    return next;
}

static void icnt_blk_run(void *self)
{
    icnt_blk *b = self;
    const blk_domain *d = b->inst->domain;
    uint64_t core = gsc_cycle(), now;
    if (!blk_domain_at_edge(d, b->wake, core, &now))
        return;
    icnt_blk_take_due(b, now);                  /* first: the injection files new nodes relative to now */
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
        b->node[i].in = gsc_port_fifo(b->sm_req[i]);
        b->node[i].out = gsc_port_fifo(b->sm_resp[i]);
    }
    for (unsigned q = 0; q < b->n_parts; q++) {
        b->node[b->n_sms + q].in = gsc_port_fifo(b->l2_resp[q]);
        b->node[b->n_sms + q].out = gsc_port_fifo(b->l2_req[q]);
    }
    for (unsigned i = 0; i < b->n_sms + b->n_parts; i++)
        gsc_fifo_on_arrival(b->node[i].in, icnt_blk_on_arrival, &b->node[i]);
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
        icnt_blk_node *n = &b->node[i];
        if (n->stall_since != UINT64_MAX && n->stall_since < cycles) {
            blk_stat_add(b->inst, ICNT_STAT_INJECT_STALLS, cycles - n->stall_since);
            n->stall_since = cycles;
        }
        if (n->blocked_since != UINT64_MAX && n->blocked_since < cycles) {
            blk_stat_add(b->inst, ICNT_STAT_EJECT_STALLS, cycles - n->blocked_since);
            n->blocked_since = cycles;
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
    b->node = g_new0(icnt_blk_node, n_sms + n_parts);
    for (unsigned i = 0; i < n_sms + n_parts; i++) {
        bool sm = i < n_sms;
        b->node[i] = (icnt_blk_node){
            .b = b,
            .id = i,
            .out_net = sm ? b->resp_net : b->req_net,
            .out_pool = sm ? &b->resps : &b->reqs,
            .lat_stat = sm ? ICNT_STAT_RESP_LATENCY : ICNT_STAT_REQ_LATENCY,
            .stall_since = UINT64_MAX,
            .blocked_since = UINT64_MAX,
        };
    }
    b->words = (n_sms + n_parts + 63) / 64;
    b->blocked = g_new0(uint64_t, b->words);
    b->wheel = g_new0(uint64_t, (size_t)ICNT_WHEEL * b->words);
    b->far = g_new0(uint64_t, b->words);
    b->ready = g_new0(uint64_t, b->words);
    b->arrived = g_new0(uint64_t, b->words);
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
    g_free(b->node);
    g_free(b->blocked);
    g_free(b->wheel);
    g_free(b->far);
    g_free(b->ready);
    g_free(b->arrived);
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
