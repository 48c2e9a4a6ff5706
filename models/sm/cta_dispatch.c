/* cta_dispatch.c — see cta_dispatch.h. */
#include "models/sm/cta_dispatch.h"

#include "models/core/stats.h"

static const blk_port_desc ports[] = {
    {"cta_launch", GSC_OUT, &cta_launch_type, BLK_CHAN_FIFO, NULL,
     "CTAs placed on SM 0 (cta_launch<s> for SM s)"},
    {"cta_done", GSC_IN, &cta_done_type, BLK_CHAN_FIFO, "done_depth",
     "CTAs finished on SM 0 (cta_done<s> for SM s)"},
};

static const blk_param_desc params[] = {
    {"done_depth", BLK_PARAM_UINT, "8", "1", "64", NULL, "items", "depth of each cta_done FIFO"},
};

static const blk_stat_desc stats[] = {
    [CTA_DISPATCH_STAT_CTAS] = {"ctas", BLK_STAT_COUNTER, "CTAs", "CTAs placed", NULL},
    [CTA_DISPATCH_STAT_GRIDS] = {"grids", BLK_STAT_COUNTER, "launches", "grids run", NULL},
    [CTA_DISPATCH_STAT_CTAS_PER_SM] = {"max_ctas_per_sm", BLK_STAT_COUNTER, "CTAs",
                                       "occupancy of the last grid: CTAs per SM", NULL},
};

static const blk_state_desc state[] = {
    {"next", 20, "next CTA to place"},
    {"completed", 20, "CTAs completed in this grid"},
};

const blk_desc cta_dispatch_desc = {
    "cta_dispatch",
    "places CTAs on SMs under the occupancy limits (pluggable SM choice)",
    "resource-sharing-and-greener.md §2.1; docs/baseline-design.md §2.2",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

static void place(cta_dispatch *d, unsigned s)
{
    const sm_launch *L = &d->env->launch;
    ctaslots_grant g;
    g_assert(ctaslots_place(d->slots[s], &d->k, &g));
    cta_launch_t c = {0};
    uint32_t i = d->next++;
    c.kernel = L->kernel_no;
    c.cta = i;
    c.ctaid[0] = i % L->grid[0];
    c.ctaid[1] = i / L->grid[0] % L->grid[1];
    c.ctaid[2] = i / (L->grid[0] * L->grid[1]);
    c.slot = (uint16_t)g.cta_slot;
    c.first_warp = (uint16_t)g.first_warp;
    c.warps = (uint16_t)g.warps;
    c.sm = (uint16_t)s;
    c.threads = d->k.threads_per_cta;
    c.smem_bytes = (uint32_t)g.smem_bytes;
    c.regs = (uint32_t)g.regs;
    gsc_fifo_put(gsc_port_fifo(d->launch[s]), &c);
    blk_stat_add(d->inst, CTA_DISPATCH_STAT_CTAS, 1);
}

static void cta_dispatch_run(void *self)
{
    cta_dispatch *d = self;
    cta_done_t dn;
    for (unsigned s = 0; s < d->n_sms; s++) {
        gsc_fifo *f = gsc_port_fifo(d->done[s]);
        while (gsc_fifo_can_get(f)) {
            gsc_fifo_get(f, &dn);
            ctaslots_release(d->slots[s], dn.slot);
            d->completed++;
        }
    }
    if (!d->running)
        return;
    if (d->completed == d->total) {
        d->running = false;
        gsc_stop();
        return;
    }
    bool placed = false;
    for (unsigned n = 0; n < d->n_sms && d->next < d->total; n++) {
        int s = d->pick(d->slots, d->n_sms, &d->k, d->last, d->pick_ctx);
        if (s < 0)
            break;
        if (!gsc_fifo_can_put(gsc_port_fifo(d->launch[s])))
            break;
        place(d, (unsigned)s);
        d->last = s;
        placed = true;
    }
    d->tr_next = d->next;
    d->tr_completed = d->completed;
    if (placed && d->next < d->total)
        gsc_next_trigger_cycles(1);
}

static void cta_dispatch_elaborate(void *self)
{
    cta_dispatch *d = self;
    gsc_process *p = gsc_process_new(d->inst->mod, "run", cta_dispatch_run, d);
    gsc_sensitive_event(p, d->start);
    for (unsigned s = 0; s < d->n_sms; s++) {
        gsc_sensitive_fifo_put(p, gsc_port_fifo(d->done[s]));
        gsc_sensitive_fifo_get(p, gsc_port_fifo(d->launch[s]));
    }
}

cta_dispatch *cta_dispatch_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env,
                               unsigned n_sms)
{
    cta_dispatch *d = g_new0(cta_dispatch, 1);
    d->inst = blk_inst_new(ctx, parent, name, &cta_dispatch_desc);
    d->env = env;
    d->n_sms = n_sms;
    d->launch = g_new0(gsc_port *, n_sms);
    d->done = g_new0(gsc_port *, n_sms);
    d->launch[0] = blk_port(d->inst, 0);
    d->done[0] = blk_port(d->inst, 1);
    for (unsigned s = 1; s < n_sms; s++) {
        char *a = g_strdup_printf("cta_launch%u", s), *b = g_strdup_printf("cta_done%u", s);
        d->launch[s] = gsc_port_new(d->inst->mod, a, GSC_OUT, &cta_launch_type);
        d->done[s] = gsc_port_new(d->inst->mod, b, GSC_IN, &cta_done_type);
        gsc_port_set_kind(d->launch[s], GSC_CHAN_FIFO);
        gsc_port_set_kind(d->done[s], GSC_CHAN_FIFO);
        g_free(a);
        g_free(b);
    }
    occupancy_sm_init_gtx480(&d->occ);
    d->slots = g_new0(ctaslots *, n_sms);
    d->pick = ctaslots_pick_round_robin;
    d->start = gsc_event_new(d->inst->mod, "start");
    blk_trace_state(d->inst, "next", GSC_U32, &d->tr_next);
    blk_trace_state(d->inst, "completed", GSC_U32, &d->tr_completed);
    blk_inst_on_elaborate(d->inst, cta_dispatch_elaborate, d);
    return d;
}

void cta_dispatch_free(cta_dispatch *d)
{
    if (!d)
        return;
    for (unsigned s = 0; s < d->n_sms; s++)
        ctaslots_free(d->slots[s]);
    g_free(d->slots);
    g_free(d->launch);
    g_free(d->done);
    g_free(d);
}

gsc_port *cta_dispatch_port_launch(const cta_dispatch *d, unsigned sm)
{
    g_assert(sm < d->n_sms);
    return d->launch[sm];
}

gsc_port *cta_dispatch_port_done(const cta_dispatch *d, unsigned sm)
{
    g_assert(sm < d->n_sms);
    return d->done[sm];
}

void cta_dispatch_set_limits(cta_dispatch *d, const occupancy_sm *occ)
{
    d->occ = *occ;
}

void cta_dispatch_set_pick(cta_dispatch *d, ctaslots_pick_fn fn, void *ctx)
{
    d->pick = fn;
    d->pick_ctx = ctx;
}

bool cta_dispatch_start(cta_dispatch *d, GString *err)
{
    const sm_launch *L = &d->env->launch;
    const kload_func *kf = &d->env->k->funcs[L->entry];
    const ir_func *f = g_ptr_array_index(d->env->mod->funcs, L->entry);
    d->k.regs_per_thread = L->regs_per_thread;
    d->k.smem_static = (unsigned)(L->shared_dyn ? kf->dyn_shared_offset : kf->shared_static);
    d->k.smem_dynamic = L->shared_dyn;
    d->k.threads_per_cta = L->block[0] * L->block[1] * L->block[2];
    GError *e = NULL;
    if (!occupancy_compute(&d->occ, &d->k, &d->res, &e)) {
        g_string_append_printf(err, "kernel %s: %s", f->name, e->message);
        g_error_free(e);
        return false;
    }
    for (unsigned s = 0; s < d->n_sms; s++) {
        ctaslots_free(d->slots[s]);
        d->slots[s] = ctaslots_new(&d->occ);
    }
    d->next = d->completed = 0;
    d->total = L->grid[0] * L->grid[1] * L->grid[2];
    d->last = -1;
    d->running = true;
    d->inst->stats[CTA_DISPATCH_STAT_CTAS_PER_SM] = d->res.ctas;
    blk_stat_add(d->inst, CTA_DISPATCH_STAT_GRIDS, 1);
    gsc_event_notify(d->start, 1);
    return true;
}

bool cta_dispatch_done(const cta_dispatch *d)
{
    return !d->running;
}

const occupancy_result *cta_dispatch_occupancy(const cta_dispatch *d)
{
    return &d->res;
}
