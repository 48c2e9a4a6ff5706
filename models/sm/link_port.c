/* link_port.c — the `link_port` block; see link_port.h. */
#include "models/sm/link_port.h"

static const char *const send_methods[] = {
    "can_send(k) -> whether out_k has room this cycle",
    "send(k, message): put the message on out_k (toward direction k) in this cycle", NULL};
const blk_iface link_send_iface = {"link_send",
                                   "an SM sends a message to its neighbour over a link",
                                   send_methods,
                                   {"dir", "kind", "tag"},
                                   {2, 16, 32}};

static const char *const recv_methods[] = {
    "received(k, message): a message that travelled in direction k arrived (got from in_k)", NULL};
const blk_iface link_recv_iface = {
    "link_recv", "a message from a neighbouring SM arrived", recv_methods, {NULL}, {0}};

static const blk_port_desc ports[] = {
    [LINK_PORT_OUT] = {"out_%u", GSC_OUT, &link_msg_type, BLK_CHAN_FIFO, NULL,
                       "messages toward direction %u (0 east, 1 south, 2 west, 3 north), to the links", NULL,
                       0, SM_LINK_DIRS},
    [LINK_PORT_IN] = {"in_%u", GSC_IN, &link_msg_type, BLK_CHAN_FIFO, "recv_depth",
                      "messages that travelled in direction %u into this SM, from the links", NULL, 0,
                      SM_LINK_DIRS},
    [LINK_PORT_SEND] = {"send", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                        "a mechanism of the SM sends toward a neighbour (same cycle)", &link_send_iface},
    [LINK_PORT_RECV] = {"recv", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                        "the mechanism's listeners, told of every message that arrives", &link_recv_iface,
                        BLK_PORT_MULTI},
};

static const blk_param_desc params[] = {
    {"recv_depth", BLK_PARAM_UINT, "4", "1", "1024", NULL, "messages",
     "depth of the FIFOs on in_%u, which the links put into [A]"},
};

static const blk_stat_desc stats[] = {
    [LINK_PORT_STAT_SENT] = {"sent", BLK_STAT_COUNTER, "messages", "messages sent (send)", NULL},
    [LINK_PORT_STAT_SENT_BYTES] = {"sent_bytes", BLK_STAT_COUNTER, "bytes", "their `bytes`", NULL},
    [LINK_PORT_STAT_RECEIVED] = {"received", BLK_STAT_COUNTER, "messages",
                                 "messages got from the links and handed to the listeners", NULL},
    [LINK_PORT_STAT_RECEIVED_BYTES] = {"received_bytes", BLK_STAT_COUNTER, "bytes", "their `bytes`", NULL},
};

const blk_desc link_port_desc = {
    "link_port",
    "an SM's end of its SM-to-SM links: a mechanism sends through the `send` export and is told of "
    "arrivals through the `recv` import",
    "docs/gpu.md (SM-to-SM links); docs/baseline-design.md §7 (the SPU's communication buffers)",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    NULL,
    0,
};

static bool lp_can_send(void *self, unsigned k)
{
    link_port *p = self;
    g_assert(k < p->n_dirs);
    return gsc_fifo_can_put(blk_fifo_at(p->inst, LINK_PORT_OUT, k));
}

static void lp_send(void *self, unsigned k, const link_msg_t *m)
{
    link_port *p = self;
    if (k >= p->n_dirs)
        gsc_fatal("%s: send toward direction %u, but the links have %u directions", p->inst->path, k,
                  p->n_dirs);
    gsc_fifo *f = blk_fifo_at(p->inst, LINK_PORT_OUT, k);
    if (!gsc_fifo_can_put(f))
        gsc_fatal("%s: send on out_%u at cycle %" G_GUINT64_FORMAT " without room (ask can_send first)",
                  p->inst->path, k, gsc_cycle());
    blk_call_note(p->probe, k, m->kind, m->tag);
    gsc_fifo_put(f, m);
    blk_stat_add(p->inst, LINK_PORT_STAT_SENT, 1);
    blk_stat_add(p->inst, LINK_PORT_STAT_SENT_BYTES, m->bytes);
}

static const link_send_if send_table = {lp_can_send, lp_send};

/* One message per in FIFO per cycle, handed to every listener in binding order. */
static void link_port_run(void *self)
{
    link_port *p = self;
    bool more = false;
    for (unsigned k = 0; k < p->n_dirs; k++) {
        gsc_fifo *f = blk_fifo_at(p->inst, LINK_PORT_IN, k);
        if (!gsc_fifo_can_get(f))
            continue;
        link_msg_t m;
        gsc_fifo_get(f, &m);
        if (!p->n_recv)
            gsc_fatal("%s: a message (kind %u, tag %u, %u bytes) from node %u arrived on in_%u at cycle "
                      "%" G_GUINT64_FORMAT ", but nothing is bound to the block's `recv` import",
                      p->inst->path, m.kind, m.tag, m.bytes, m.src, k, gsc_cycle());
        blk_stat_add(p->inst, LINK_PORT_STAT_RECEIVED, 1);
        blk_stat_add(p->inst, LINK_PORT_STAT_RECEIVED_BYTES, m.bytes);
        for (unsigned i = 0; i < p->n_recv; i++)
            ((const link_recv_if *)p->recv[i].methods)->received(p->recv[i].self, k, &m);
        more |= gsc_fifo_can_get(f);
    }
    if (more)
        gsc_run_within(1);
}

static void link_port_elaborate(void *self)
{
    link_port *p = self;
    p->recv = blk_import_all(p->inst, LINK_PORT_RECV, 0, &p->n_recv);
    gsc_process *proc = gsc_process_new(p->inst->mod, "run", link_port_run, p);
    for (unsigned k = 0; k < p->n_dirs; k++)
        gsc_sensitive_fifo_put(proc, blk_fifo_at(p->inst, LINK_PORT_IN, k));
}

link_port *link_port_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned n_dirs)
{
    g_assert(n_dirs >= 1 && n_dirs <= SM_LINK_DIRS);
    link_port *p = g_new0(link_port, 1);
    unsigned counts[LINK_PORT_N_PORTS] = {[LINK_PORT_OUT] = n_dirs, [LINK_PORT_IN] = n_dirs};
    p->inst = blk_inst_new_arrays(ctx, parent, name, &link_port_desc, counts);
    p->inst->self = p;
    p->n_dirs = n_dirs;
    blk_export(p->inst, LINK_PORT_SEND, 0, &send_table, p);
    p->probe = blk_export_probe(p->inst, LINK_PORT_SEND, 0);
    blk_inst_on_elaborate(p->inst, link_port_elaborate, p);
    return p;
}

void link_port_free(link_port *p)
{
    if (!p)
        return;
    g_free(p->recv);
    g_free(p);
}
