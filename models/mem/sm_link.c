/* sm_link.c — the `sm_link` block; see sm_link.h. */
#include "models/mem/sm_link.h"

#include "models/core/stats.h"

static const gsc_field link_msg_fields[] = {
    GSC_FIELD(link_msg_t, src, GSC_U16, 0),   GSC_FIELD(link_msg_t, dst, GSC_U16, 0),
    GSC_FIELD(link_msg_t, kind, GSC_U16, 0),  GSC_FIELD(link_msg_t, tag, GSC_U32, 0),
    GSC_FIELD(link_msg_t, bytes, GSC_U32, 0), GSC_FIELD(link_msg_t, data, GSC_OPAQUE, 0),
};
const gsc_type link_msg_type = GSC_TYPE(link_msg_t, link_msg_fields);

static const blk_param_desc params[] = {
    {"cols", BLK_PARAM_UINT, "0", "0", "4096", NULL, "nodes",
     "grid columns: node i at x = i mod cols, y = i / cols; 0 = the smallest c with c x c >= nodes "
     "[S: SPU spec §2 p x p grid; A: the arrangement of a GPU's SMs]"},
    {"bidirectional", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "links toward west and north too (the SPU moves data only W->E and N->S [S: SPU spec §2]) [A]"},
    {"latency", BLK_PARAM_UINT, "1", "0", "100000", NULL, "cycles",
     "wire delay after a message's transfer [A: SPU spec §6 item 6, 1 cycle]"},
    {"bytes_per_cycle", BLK_PARAM_UINT, "32", "1", "65536", NULL, "bytes",
     "bytes a link moves per cycle [A: one 32-byte icnt flit per cycle]"},
    {"send_depth", BLK_PARAM_UINT, "4", "1", "1024", NULL, "messages",
     "depth of the FIFOs bound to out_<d><i> (a node's messages waiting for its link) [A]"},
    {"e_byte", BLK_PARAM_DOUBLE, "0.8", "0", NULL, NULL, "pJ",
     "energy of moving one byte to the neighbouring SM [A: 8 bits x about 0.1 pJ per bit and mm x about "
     "1 mm, as the interconnect's e_flit over a neighbour's distance]"},
};

static double link_util(const blk_inst *inst)
{
    const sm_link *b = inst->self;
    if (!b)
        return 0;
    return stats_ratio(blk_stat_get(inst, SM_LINK_STAT_BUSY_CYCLES), gsc_cycle() * (uint64_t)b->n_links);
}

static const blk_stat_desc stats[] = {
    [SM_LINK_STAT_MESSAGES] = {"messages", BLK_STAT_COUNTER, "messages", "messages taken onto a link", NULL},
    [SM_LINK_STAT_BYTES] = {"bytes", BLK_STAT_COUNTER, "bytes", "bytes of those messages (their `bytes`)",
                            NULL},
    [SM_LINK_STAT_BUSY_CYCLES] = {"busy_cycles", BLK_STAT_COUNTER, "link-cycles",
                                  "cycles links spent transferring, summed over links", NULL},
    [SM_LINK_STAT_STALLS] = {"stalls", BLK_STAT_COUNTER, "messages",
                             "messages put on their in FIFO after their due cycle (it was full, or a "
                             "message ahead on the link waited)",
                             NULL},
    [SM_LINK_STAT_STALL_CYCLES] = {"stall_cycles", BLK_STAT_COUNTER, "cycles",
                                   "sum over stalled messages of cycles past their due cycle", NULL},
    [SM_LINK_STAT_UTIL] = {"utilisation", BLK_STAT_DERIVED, "fraction",
                           "busy_cycles / (cycles x links between two nodes)", link_util},
};

static const blk_energy_event energy_events[] = {{"byte", "bytes", "e_byte", BLK_COMP_NOCP}};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"in_flight", 16, "messages on the links (taken, not yet put on an in FIFO)"},
    {"waiting", 16, "links whose due message waits for room in its in FIFO"},
};

/* Port arrays of the nodes, one per direction: out_<d>%u (SM_LINK_PORT_OUT + d), in_<d>%u
 * (SM_LINK_PORT_IN + d); an array of a disabled direction has no element. */
#define OUT_PORT(d, letter)                                                                                  \
    [SM_LINK_PORT_OUT + (d)] = {"out_" letter "%u",                                                          \
                                GSC_IN,                                                                      \
                                &link_msg_type,                                                              \
                                BLK_CHAN_FIFO,                                                               \
                                "send_depth",                                                                \
                                "what node %u sends toward " letter " (from its SM's link_port)",            \
                                NULL,                                                                        \
                                0,                                                                           \
                                SM_LINK_MAX_NODES}
#define IN_PORT(d, letter)                                                                                   \
    [SM_LINK_PORT_IN + (d)] = {"in_" letter "%u",                                                            \
                               GSC_OUT,                                                                      \
                               &link_msg_type,                                                               \
                               BLK_CHAN_FIFO,                                                                \
                               NULL,                                                                         \
                               "what node %u receives from its neighbour on side " letter " (to its SM's "   \
                               "link_port)",                                                                 \
                               NULL,                                                                         \
                               0,                                                                            \
                               SM_LINK_MAX_NODES}
static const blk_port_desc ports[] = {
    OUT_PORT(SM_LINK_E, "e"), OUT_PORT(SM_LINK_S, "s"), OUT_PORT(SM_LINK_W, "w"), OUT_PORT(SM_LINK_N, "n"),
    IN_PORT(SM_LINK_E, "e"),  IN_PORT(SM_LINK_S, "s"),  IN_PORT(SM_LINK_W, "w"),  IN_PORT(SM_LINK_N, "n"),
};

const blk_desc sm_link_desc = {
    "sm_link",
    "SM-to-SM links on a cols x rows grid: E and S (W and N if bidirectional), per-link serialisation, "
    "latency, back-pressure",
    "SPU spec §2, §3, §6; docs/baseline-design.md §7 (extension point SM-to-SM links)",
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

/* A message on a link, in the slot pool. */
typedef struct {
    link_msg_t msg;
    uint64_t due; /* the cycle it is put on its in FIFO unless that is full */
} sm_link_fly;

static const char *const dir_letters[SM_LINK_DIRS] = {"e", "s", "w", "n"};
static const char *const dir_names[SM_LINK_DIRS] = {"east", "south", "west", "north"};

const char *sm_link_dir_letter(sm_link_dir d)
{
    g_assert(d < SM_LINK_DIRS);
    return dir_letters[d];
}
const char *sm_link_dir_name(sm_link_dir d)
{
    g_assert(d < SM_LINK_DIRS);
    return dir_names[d];
}
sm_link_dir sm_link_opposite(sm_link_dir d)
{
    g_assert(d < SM_LINK_DIRS);
    return (sm_link_dir)((d + 2) % SM_LINK_DIRS);
}

unsigned sm_link_transfer_cycles(const sm_link *b, uint32_t bytes)
{
    unsigned s = (unsigned)(((uint64_t)bytes + b->bytes_per_cycle - 1) / b->bytes_per_cycle);
    return s ? s : 1;
}

bool sm_link_has_dir(const sm_link *b, sm_link_dir d)
{
    return d < b->n_dirs;
}

unsigned sm_link_neighbour(const sm_link *b, unsigned node, sm_link_dir d)
{
    g_assert(node < b->n);
    if (!sm_link_has_dir(b, d))
        return SM_LINK_NONE;
    unsigned x = node % b->cols, y = node / b->cols;
    switch (d) {
    case SM_LINK_E:
        return x + 1 < b->cols && node + 1 < b->n ? node + 1 : SM_LINK_NONE;
    case SM_LINK_W:
        return x > 0 ? node - 1 : SM_LINK_NONE;
    case SM_LINK_S:
        return node + b->cols < b->n ? node + b->cols : SM_LINK_NONE;
    case SM_LINK_N:
        return y > 0 ? node - b->cols : SM_LINK_NONE;
    default:
        g_assert_not_reached();
    }
}

static void sm_link_border_error(const sm_link *b, const sm_link_wire *w)
{
    gsc_fatal("%s: node %u (x %u, y %u) sent a message %s on out_%s%u at cycle %" G_GUINT64_FORMAT
              ", but the %u x %u grid of %u nodes has no node %s of it (border)",
              b->inst->path, w->src, w->src % b->cols, w->src / b->cols, dir_names[w->dir],
              dir_letters[w->dir], w->src, gsc_cycle(), b->cols, b->rows, b->n, dir_names[w->dir]);
}

/* Put the link's due messages on its in FIFO, oldest first, while it has room. */
static void sm_link_deliver(sm_link *b, sm_link_wire *w, uint64_t now)
{
    w->waiting = false;
    while (w->fly.length) {
        uint32_t s = GPOINTER_TO_UINT(w->fly.head->data);
        sm_link_fly *f = mem_slots_at(&b->msgs, s);
        if (f->due > now)
            return;
        if (!gsc_fifo_can_put(w->to)) {
            w->waiting = true;
            return;
        }
        if (now > f->due) {
            blk_stat_add(b->inst, SM_LINK_STAT_STALLS, 1);
            blk_stat_add(b->inst, SM_LINK_STAT_STALL_CYCLES, now - f->due);
        }
        gsc_fifo_put(w->to, &f->msg);
        g_queue_pop_head(&w->fly);
        mem_slots_put_back(&b->msgs, s);
    }
}

/* Take the next message of the link's out FIFO if the link is free and its head is not waiting. */
static void sm_link_take(sm_link *b, sm_link_wire *w, uint64_t now)
{
    if (w->waiting || w->free_at > now || !gsc_fifo_can_get(w->from))
        return;
    if (w->dst == SM_LINK_NONE)
        sm_link_border_error(b, w);
    uint32_t s = mem_slots_take(&b->msgs);
    sm_link_fly *f = mem_slots_at(&b->msgs, s);
    gsc_fifo_get(w->from, &f->msg);
    f->msg.src = w->src;
    f->msg.dst = w->dst;
    unsigned cycles = sm_link_transfer_cycles(b, f->msg.bytes);
    w->free_at = now + cycles;
    f->due = now + cycles + b->latency;
    g_queue_push_tail(&w->fly, GUINT_TO_POINTER(s));
    blk_stat_add(b->inst, SM_LINK_STAT_MESSAGES, 1);
    blk_stat_add(b->inst, SM_LINK_STAT_BYTES, f->msg.bytes);
    blk_stat_add(b->inst, SM_LINK_STAT_BUSY_CYCLES, cycles);
}

/* The next cycle the link needs the block (UINT64_MAX: none, or only the consumer's get can help). */
static uint64_t sm_link_next(const sm_link *b, const sm_link_wire *w)
{
    if (w->waiting)
        return UINT64_MAX;
    uint64_t next = UINT64_MAX;
    if (w->fly.length) {
        const sm_link_fly *f = mem_slots_at(&b->msgs, GPOINTER_TO_UINT(w->fly.head->data));
        next = f->due;
    }
    if (gsc_fifo_can_get(w->from))
        next = MIN(next, w->free_at);
    return next;
}

static void sm_link_run(void *self)
{
    sm_link *b = self;
    uint64_t now = gsc_cycle(), next = UINT64_MAX;
    unsigned waiting = 0;
    for (unsigned k = 0; k < b->n_dirs * b->n; k++) {
        sm_link_wire *w = &b->wires[k];
        if (w->fly.length)
            sm_link_deliver(b, w, now);
        sm_link_take(b, w, now);
        uint64_t due = sm_link_next(b, w); /* (not inside MIN, which would call it twice) */
        next = MIN(next, due);
        waiting += w->waiting;
    }
    b->in_flight = (uint16_t)MIN(b->msgs.used, UINT16_MAX);
    b->waiting = (uint16_t)waiting;
    if (next != UINT64_MAX) {
        g_assert(next > now);
        gsc_event_notify(b->wake, next - now);
    }
}

static void sm_link_elaborate(void *self)
{
    sm_link *b = self;
    gsc_process *p = gsc_process_new(b->inst->mod, "run", sm_link_run, b);
    for (unsigned k = 0; k < b->n_dirs * b->n; k++) {
        sm_link_wire *w = &b->wires[k];
        w->from = gsc_port_fifo(sm_link_out(b, w->src, (sm_link_dir)w->dir));
        gsc_sensitive_fifo_put(p, w->from);
        if (w->dst != SM_LINK_NONE) {
            w->to = gsc_port_fifo(sm_link_in(b, w->dst, sm_link_opposite((sm_link_dir)w->dir)));
            gsc_sensitive_fifo_get(p, w->to);
        }
    }
    gsc_sensitive_event(p, b->wake);
}

/* Every node has the ports of the enabled directions (E and S; W and N too when bidirectional). */
static void sm_link_counts(const blk_inst *inst, unsigned *counts, void *data)
{
    unsigned n = *(const unsigned *)data, dirs = blk_param_bool(inst, "bidirectional") ? 4 : 2;
    for (unsigned d = 0; d < dirs; d++) {
        counts[SM_LINK_PORT_OUT + d] = n;
        counts[SM_LINK_PORT_IN + sm_link_opposite((sm_link_dir)d)] = n;
    }
}

sm_link *sm_link_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned n)
{
    g_assert(n > 0 && n <= SM_LINK_MAX_NODES);
    sm_link *b = g_new0(sm_link, 1);
    b->inst = blk_inst_new_counted(ctx, parent, name, &sm_link_desc, sm_link_counts, &n);
    b->inst->self = b;
    b->n = n;
    b->cols = (unsigned)blk_param_uint(b->inst, "cols");
    if (b->cols == 0)
        while (b->cols * b->cols < n)
            b->cols++;
    b->rows = (n + b->cols - 1) / b->cols;
    b->n_dirs = blk_param_bool(b->inst, "bidirectional") ? 4 : 2;
    b->latency = (unsigned)blk_param_uint(b->inst, "latency");
    b->bytes_per_cycle = (unsigned)blk_param_uint(b->inst, "bytes_per_cycle");
    b->send_depth = (unsigned)blk_param_uint(b->inst, "send_depth");
    b->wires = g_new0(sm_link_wire, b->n_dirs * n);
    for (unsigned d = 0; d < b->n_dirs; d++)
        for (unsigned i = 0; i < n; i++) {
            sm_link_wire *w = &b->wires[d * n + i];
            w->src = (uint16_t)i;
            w->dir = (uint8_t)d;
            w->dst = (uint16_t)sm_link_neighbour(b, i, (sm_link_dir)d);
            g_queue_init(&w->fly);
            b->n_links += w->dst != SM_LINK_NONE;
        }
    mem_slots_init(&b->msgs, sizeof(sm_link_fly));
    b->wake = gsc_event_new(b->inst->mod, "wake");
    blk_trace_state(b->inst, "in_flight", GSC_U16, &b->in_flight);
    blk_trace_state(b->inst, "waiting", GSC_U16, &b->waiting);
    blk_inst_on_elaborate(b->inst, sm_link_elaborate, b);
    return b;
}

void sm_link_free(sm_link *b)
{
    if (!b)
        return;
    for (unsigned k = 0; k < b->n_dirs * b->n; k++)
        g_queue_clear(&b->wires[k].fly);
    g_free(b->wires);
    mem_slots_clear(&b->msgs);
    g_free(b);
}

unsigned sm_link_cols(const sm_link *b)
{
    return b->cols;
}
unsigned sm_link_rows(const sm_link *b)
{
    return b->rows;
}
gsc_port *sm_link_out(const sm_link *b, unsigned node, sm_link_dir d)
{
    g_assert(node < b->n && d < SM_LINK_DIRS);
    return sm_link_has_dir(b, d) ? blk_port_at(b->inst, SM_LINK_PORT_OUT + d, node) : NULL;
}
gsc_port *sm_link_in(const sm_link *b, unsigned node, sm_link_dir d)
{
    g_assert(node < b->n && d < SM_LINK_DIRS);
    return sm_link_has_dir(b, sm_link_opposite(d)) ? blk_port_at(b->inst, SM_LINK_PORT_IN + d, node) : NULL;
}
char *sm_link_port_name(const sm_link *b, bool out, unsigned node, sm_link_dir d)
{
    g_assert(node < b->n && d < SM_LINK_DIRS);
    return g_strdup_printf("%s_%s%u", out ? "out" : "in", dir_letters[d], node);
}
unsigned sm_link_send_depth(const sm_link *b)
{
    return b->send_depth;
}
