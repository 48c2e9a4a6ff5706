/* drv.c — see drv.h. */
#include "tests/mem/drv.h"

#include <string.h>

#include "models/core/config.h"

typedef struct {
    uint64_t cycle;
    uint8_t data[];
} drv_item;

struct drv_chan {
    gsc_fifo *fifo;
    size_t size;
    bool in, drain;
    GQueue q; /* in: pending items; out: got items */
};

struct drv {
    cfg *config;
    blk_ctx *ctx;
    gsc_module *mod;
    GPtrArray *chans;
    bool elaborated;
    uint64_t last;
};

static void drv_drive(void *self)
{
    drv *d = self;
    uint64_t now = gsc_cycle();
    d->last = now;
    for (unsigned i = 0; i < d->chans->len; i++) {
        drv_chan *c = g_ptr_array_index(d->chans, i);
        if (c->in) {
            while (!g_queue_is_empty(&c->q) && ((drv_item *)g_queue_peek_head(&c->q))->cycle <= now &&
                   gsc_fifo_can_put(c->fifo)) {
                drv_item *it = g_queue_pop_head(&c->q);
                gsc_fifo_put(c->fifo, it->data);
                g_free(it);
            }
        } else {
            while (c->drain && gsc_fifo_can_get(c->fifo)) {
                drv_item *it = g_malloc(sizeof *it + c->size);
                it->cycle = now;
                gsc_fifo_get(c->fifo, it->data);
                g_queue_push_tail(&c->q, it);
            }
        }
    }
}

drv *drv_new(const char *const *settings)
{
    drv *d = g_new0(drv, 1);
    d->config = cfg_new();
    for (unsigned i = 0; settings && settings[i]; i++) {
        GError *err = NULL;
        if (!cfg_set(d->config, settings[i], &err))
            g_error("drv setting: %s", err->message);
    }
    gsc_clock *clock = gsc_clock_new("clk", 1000);
    d->ctx = blk_ctx_new(d->config, clock);
    d->mod = gsc_module_new(NULL, "tb");
    d->chans = g_ptr_array_new();
    gsc_process *p = gsc_process_new(d->mod, "drive", drv_drive, d);
    gsc_sensitive_clock(p, clock);
    return d;
}

blk_ctx *drv_ctx(drv *d)
{
    return d->ctx;
}
gsc_module *drv_mod(drv *d)
{
    return d->mod;
}

static drv_chan *drv_chan_new(drv *d, gsc_port *port, unsigned depth, bool in, const gsc_type *t)
{
    drv_chan *c = g_new0(drv_chan, 1);
    char *name = g_strdup_printf("c%u", d->chans->len);
    c->fifo = gsc_fifo_new(d->mod, name, t, depth);
    g_free(name);
    c->size = t->size;
    c->in = in;
    c->drain = true;
    g_queue_init(&c->q);
    gsc_port_bind_fifo(port, c->fifo);
    g_ptr_array_add(d->chans, c);
    return c;
}

drv_chan *drv_in(drv *d, gsc_port *port, const gsc_type *t, unsigned depth)
{
    return drv_chan_new(d, port, depth, true, t);
}

drv_chan *drv_out(drv *d, gsc_port *port, const gsc_type *t, unsigned depth)
{
    return drv_chan_new(d, port, depth, false, t);
}

void drv_push(drv_chan *c, uint64_t at, const void *item)
{
    g_assert(c->in);
    drv_item *it = g_malloc(sizeof *it + c->size);
    it->cycle = at;
    memcpy(it->data, item, c->size);
    g_queue_push_tail(&c->q, it);
}

bool drv_pop(drv_chan *c, void *item, uint64_t *cycle)
{
    g_assert(!c->in);
    drv_item *it = g_queue_pop_head(&c->q);
    if (!it)
        return false;
    if (item)
        memcpy(item, it->data, c->size);
    if (cycle)
        *cycle = it->cycle;
    g_free(it);
    return true;
}

unsigned drv_count(drv_chan *c)
{
    return c->q.length;
}

void drv_set_drain(drv_chan *c, bool drain)
{
    c->drain = drain;
}

void drv_run(drv *d, unsigned cycles)
{
    if (!d->elaborated) {
        blk_ctx_elaborate(d->ctx);
        gsc_elaborate();
        d->elaborated = true;
    }
    gsc_run_cycles(cycles);
}

uint64_t drv_cycle(drv *d)
{
    return d->last;
}

void drv_free(drv *d)
{
    for (unsigned i = 0; i < d->chans->len; i++) {
        drv_chan *c = g_ptr_array_index(d->chans, i);
        g_queue_clear_full(&c->q, g_free);
        g_free(c);
    }
    g_ptr_array_free(d->chans, TRUE);
    blk_ctx_free(d->ctx);
    cfg_free(d->config);
    g_free(d);
    gsc_reset();
}
