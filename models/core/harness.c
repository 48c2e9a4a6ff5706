/* harness.c — one block alone in a simulation, driven cycle by cycle. */
#include "models/core/harness.h"

#include <string.h>

#include "models/core/config.h"

typedef struct {
    uint64_t cycle;
    unsigned char data[]; /* the item */
} harness_item;

typedef struct {
    const blk_port_desc *pd;
    gsc_latch *latch;
    gsc_fifo *fifo;
    GQueue pending;        /* inputs: g_memdup'd values not yet applied */
    unsigned char *sample; /* output latches: the value seen in the last cycle */
    bool fresh;
    GQueue drained; /* output FIFOs: harness_item * */
    bool drain;
} harness_port;

struct harness {
    const blk_desc *desc;
    cfg *config;
    blk_ctx *ctx;
    blk_inst *inst;
    void *block;
    gsc_module *mod;
    harness_port *ports; /* one per port element (blk_port_flat order) */
    unsigned n_ports;
    bool elaborated, tracing;
    uint64_t last_cycle;
};

static void drive_input(harness_port *p)
{
    if (p->latch) {
        void *v = g_queue_pop_head(&p->pending);
        if (v)
            gsc_latch_write(p->latch, v);
        g_free(v);
        return;
    }
    while (!g_queue_is_empty(&p->pending) && gsc_fifo_can_put(p->fifo)) {
        void *v = g_queue_pop_head(&p->pending);
        gsc_fifo_put(p->fifo, v);
        g_free(v);
    }
}

static void sample_output(harness_port *p, uint64_t cycle)
{
    size_t size = p->pd->type->size;
    if (p->latch) {
        memcpy(p->sample, gsc_latch_read(p->latch), size);
        p->fresh = gsc_latch_fresh(p->latch);
        return;
    }
    while (p->drain && gsc_fifo_can_get(p->fifo)) {
        harness_item *it = g_malloc(sizeof *it + size);
        it->cycle = cycle;
        gsc_fifo_get(p->fifo, it->data);
        g_queue_push_tail(&p->drained, it);
    }
}

static void harness_drive(void *ctx)
{
    harness *h = ctx;
    h->last_cycle = gsc_cycle();
    for (unsigned i = 0; i < h->n_ports; i++) {
        harness_port *p = &h->ports[i];
        if (!p->pd || p->pd->chan == BLK_CHAN_EXPORT || p->pd->chan == BLK_CHAN_IMPORT)
            continue;
        if (p->pd->dir == GSC_IN)
            drive_input(p);
        else
            sample_output(p, h->last_cycle);
    }
}

static cfg *settings_config(const blk_desc *desc, const char *const *settings)
{
    cfg *c = cfg_new();
    for (unsigned i = 0; settings && settings[i]; i++) {
        /* "key=value" is the block's; "type.key=value" another block's (one its constructor makes) */
        const char *eq = strchr(settings[i], '='), *dot = strchr(settings[i], '.');
        char *a = dot && (!eq || dot < eq) ? g_strdup(settings[i])
                                           : g_strdup_printf("%s.%s", desc->name, settings[i]);
        GError *err = NULL;
        if (!cfg_set(c, a, &err))
            g_error("harness setting: %s", err->message);
        g_free(a);
    }
    return c;
}

static void make_channels(harness *h)
{
    const blk_inst *inst = h->inst;
    h->n_ports = h->desc->n_ports;
    for (unsigned i = 0; i < h->desc->n_ports; i++)
        h->n_ports += blk_port_count(inst, i) > 1 ? blk_port_count(inst, i) - 1 : 0;
    h->ports = g_new0(harness_port, h->n_ports ? h->n_ports : 1);
    for (unsigned i = 0; i < h->desc->n_ports; i++) {
        for (unsigned k = 0; k < blk_port_count(inst, i); k++) {
            harness_port *p = &h->ports[blk_port_flat(inst, i, k)];
            p->pd = &h->desc->ports[i];
            p->drain = true;
            g_queue_init(&p->pending);
            g_queue_init(&p->drained);
            gsc_port *port = blk_port_at(inst, i, k);
            char *name = blk_port_element_name(inst, i, k);
            if (p->pd->chan == BLK_CHAN_LATCH) {
                p->latch = gsc_latch_new(h->mod, name, p->pd->type);
                gsc_port_bind_latch(port, p->latch);
                p->sample = g_malloc0(p->pd->type->size);
            } else if (p->pd->chan == BLK_CHAN_FIFO) {
                p->fifo = gsc_fifo_new(h->mod, name, p->pd->type, blk_port_fifo_depth(inst, i));
                gsc_port_bind_fifo(port, p->fifo);
            }
            g_free(name);
        }
    }
}

harness *harness_new(const blk_desc *desc, harness_ctor make, const char *const *settings,
                     const char *vcd_path)
{
    harness *h = g_new0(harness, 1);
    h->desc = desc;
    blk_registry_add(desc);
    h->config = settings_config(desc, settings);
    if (vcd_path) {
        gsc_trace_open(vcd_path, "*", 0, 0);
        h->tracing = true;
    }
    gsc_clock *clock = gsc_clock_new("clk", HARNESS_PERIOD_PS);
    h->ctx = blk_ctx_new(h->config, clock);
    h->block = make(h->ctx, NULL, "dut");
    for (unsigned i = 0; i < blk_ctx_n_insts(h->ctx); i++)
        if (blk_ctx_inst(h->ctx, i)->desc == desc && strcmp(blk_ctx_inst(h->ctx, i)->path, "dut") == 0)
            h->inst = blk_ctx_inst(h->ctx, i);
    g_assert(h->inst);
    h->mod = gsc_module_new(NULL, "harness");
    make_channels(h);
    gsc_process *drv = gsc_process_new(h->mod, "drive", harness_drive, h);
    gsc_sensitive_clock(drv, clock);
    return h;
}

void *harness_block(const harness *h)
{
    return h->block;
}

blk_inst *harness_inst(const harness *h)
{
    return h->inst;
}

static harness_port *port_of(const harness *h, const char *name, gsc_dir dir)
{
    unsigned i, k;
    if (!blk_port_lookup(h->inst, name, &i, &k))
        g_error("harness: block %s has no port %s", h->desc->name, name);
    harness_port *p = &h->ports[blk_port_flat(h->inst, i, k)];
    if (p->pd->chan == BLK_CHAN_EXPORT || p->pd->chan == BLK_CHAN_IMPORT)
        g_error("harness: port %s of %s is an interface (harness_stub, harness_export)", name, h->desc->name);
    if (p->pd->dir != dir)
        g_error("harness: port %s of %s is an %s port", name, h->desc->name,
                p->pd->dir == GSC_IN ? "input" : "output");
    return p;
}

void harness_push(harness *h, const char *port, const void *value)
{
    harness_port *p = port_of(h, port, GSC_IN);
    g_queue_push_tail(&p->pending, g_memdup2(value, p->pd->type->size));
}

unsigned harness_pending(const harness *h, const char *port)
{
    return g_queue_get_length(&port_of(h, port, GSC_IN)->pending);
}

const void *harness_read(const harness *h, const char *port)
{
    harness_port *p = port_of(h, port, GSC_OUT);
    g_assert(p->latch);
    return p->sample;
}

bool harness_fresh(const harness *h, const char *port)
{
    harness_port *p = port_of(h, port, GSC_OUT);
    g_assert(p->latch);
    return p->fresh;
}

bool harness_pop(harness *h, const char *port, void *item, uint64_t *cycle)
{
    harness_port *p = port_of(h, port, GSC_OUT);
    g_assert(p->fifo);
    harness_item *it = g_queue_pop_head(&p->drained);
    if (!it)
        return false;
    memcpy(item, it->data, p->pd->type->size);
    if (cycle)
        *cycle = it->cycle;
    g_free(it);
    return true;
}

void harness_set_drain(harness *h, const char *port, bool drain)
{
    harness_port *p = port_of(h, port, GSC_OUT);
    g_assert(p->fifo);
    p->drain = drain;
}

void harness_stub(harness *h, const char *import, const void *methods, void *self)
{
    blk_bind_stub(h->inst, import, methods, self);
}

blk_iref harness_export(const harness *h, const char *export)
{
    unsigned i, k;
    if (!blk_port_lookup(h->inst, export, &i, &k) || h->desc->ports[i].chan != BLK_CHAN_EXPORT)
        g_error("harness: block %s has no export %s", h->desc->name, export);
    return blk_export_ref(h->inst, i, k);
}

uint64_t harness_step(harness *h)
{
    if (!h->elaborated) {
        blk_ctx_elaborate(h->ctx);
        gsc_elaborate();
        h->elaborated = true;
    }
    gsc_run_cycles(1);
    return h->last_cycle;
}

uint64_t harness_run(harness *h, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        harness_step(h);
    return h->last_cycle;
}

uint64_t harness_pop_within(harness *h, const char *port, void *item, unsigned max_steps)
{
    uint64_t cycle;
    for (unsigned i = 0; i < max_steps; i++) {
        if (harness_pop(h, port, item, &cycle))
            return cycle;
        harness_step(h);
    }
    g_error("harness: nothing got on %s within %u steps (cycle %" G_GUINT64_FORMAT ")", port, max_steps,
            h->last_cycle);
}

void harness_free(harness *h)
{
    if (!h)
        return;
    if (h->tracing)
        gsc_trace_close();
    for (unsigned i = 0; i < h->n_ports; i++) {
        g_queue_clear_full(&h->ports[i].pending, g_free);
        g_queue_clear_full(&h->ports[i].drained, g_free);
        g_free(h->ports[i].sample);
    }
    g_free(h->ports);
    blk_ctx_free(h->ctx);
    cfg_free(h->config);
    g_free(h);
    /* A fresh kernel for the next harness in this process (the block structs made by the
     * constructor belong to the old simulation and are not freed). */
    gsc_reset();
}

/* ---- subprocess tests ---- */

typedef struct {
    void (*fn)(void);
} harness_test;

static void harness_test_run(gconstpointer data)
{
    const harness_test *t = data;
    if (g_test_subprocess()) {
        gsc_init("harness");
        t->fn();
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
}

void harness_test_add(const char *path, void (*fn)(void))
{
    harness_test *t = g_new0(harness_test, 1);
    t->fn = fn;
    g_test_add_data_func_full(path, t, harness_test_run, g_free);
}
