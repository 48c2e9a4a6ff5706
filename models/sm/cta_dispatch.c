/* cta_dispatch.c — see cta_dispatch.h. */
#include "models/sm/cta_dispatch.h"

#include "models/core/stats.h"

static const char *const pick_methods[] = {"pick(SMs' ledgers, n, kernel, last SM) -> SM or -1", NULL};
const blk_iface cta_pick_iface = {"cta_pick", "the SM a CTA goes to", pick_methods, {NULL}, {0}};
static const char *const grant_methods[] = {"fits(ledger, SM, kernel) -> can a CTA be placed now",
                                            "grant(ledger, SM, kernel) -> placed, with what it gets",
                                            "release(ledger, SM, finished CTA)", NULL};
const blk_iface cta_grant_iface = {"cta_grant", "per-CTA resource grant", grant_methods, {NULL}, {0}};

static const blk_port_desc ports[] = {
    [CTA_DISPATCH_LAUNCH] = {"cta_launch_%u", GSC_OUT, &cta_launch_type, BLK_CHAN_FIFO, NULL,
                             "CTAs placed on SM %u", NULL, 0, CTA_DISPATCH_MAX_SMS},
    [CTA_DISPATCH_DONE] = {"cta_done_%u", GSC_IN, &cta_done_type, BLK_CHAN_FIFO, "done_depth",
                           "CTAs finished on SM %u", NULL, 0, CTA_DISPATCH_MAX_SMS},
    [CTA_DISPATCH_PICK] = {"pick", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                           "the SM choice (unbound: round-robin over the SMs the grant says fit)",
                           &cta_pick_iface, BLK_PORT_OPTIONAL},
    [CTA_DISPATCH_GRANT] = {"grant", GSC_OUT, NULL, BLK_CHAN_IMPORT, NULL,
                            "the per-CTA grant (unbound: the ledger's occupancy rule)", &cta_grant_iface,
                            BLK_PORT_OPTIONAL},
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
    "places CTAs on SMs under the occupancy limits (pluggable SM choice and per-CTA grant)",
    "resource-sharing/GREENER spec §2.1; docs/baseline-design.md §2.2",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

bool cta_dispatch_ledger_fits(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k)
{
    (void)ctx, (void)sm;
    return ctaslots_fits(slots, k, NULL);
}

bool cta_dispatch_ledger_grant(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k,
                               ctaslots_grant *g)
{
    (void)ctx, (void)sm;
    return ctaslots_place(slots, k, g);
}

void cta_dispatch_ledger_release(void *ctx, ctaslots *slots, unsigned sm, const cta_done_t *done)
{
    (void)ctx, (void)sm;
    ctaslots_release(slots, done->slot);
}

static const cta_dispatch_alloc ledger_alloc = {cta_dispatch_ledger_fits, cta_dispatch_ledger_grant,
                                                cta_dispatch_ledger_release, NULL};

/* The SM for the next CTA, or -1: the pick, or round-robin after the SM served last over the SMs
 * the grant policy says fit (with the default grant: ctaslots_pick_round_robin). */
static int pick_sm(cta_dispatch *d)
{
    if (d->pick)
        return d->pick(d->slots, d->n_sms, &d->k, d->last, d->pick_ctx);
    for (unsigned i = 1; i <= d->n_sms; i++) {
        unsigned sm = (unsigned)(d->last + (int)i) % d->n_sms;
        if (d->alloc.fits(d->alloc.ctx, d->slots[sm], sm, &d->k))
            return (int)sm;
    }
    return -1;
}

/* Places the next CTA on SM s if the grant policy gives it resources. */
static bool place(cta_dispatch *d, unsigned s, uint32_t i)
{
    const sm_launch *L = &d->env->launch;
    ctaslots_grant g;
    if (!d->alloc.grant(d->alloc.ctx, d->slots[s], s, &d->k, &g))
        return false;
    cta_launch_t c = {0};
    d->next++;
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
    return true;
}

/* The CTAs outside the grid waiting for their SMs: placed when the grant gives room. */
static void place_extras(cta_dispatch *d)
{
    for (unsigned s = 0; s < d->n_sms && d->n_extra_wait; s++) {
        ctaslots_grant g;
        if (d->extra_state[s] != 1 || !gsc_fifo_can_put(gsc_port_fifo(d->launch[s])) ||
            !d->alloc.grant(d->alloc.ctx, d->slots[s], s, &d->k, &g))
            continue;
        cta_launch_t *c = &d->extra[s];
        c->kernel = d->env->launch.kernel_no;
        c->cta = UINT32_MAX;
        c->slot = (uint16_t)g.cta_slot;
        c->first_warp = (uint16_t)g.first_warp;
        c->warps = 1;
        c->sm = (uint16_t)s;
        c->smem_bytes = (uint32_t)g.smem_bytes;
        c->regs = (uint32_t)g.regs;
        gsc_fifo_put(gsc_port_fifo(d->launch[s]), c);
        d->extra_state[s] = 2;
        d->n_extra_wait--;
    }
}

static void cta_dispatch_run(void *self)
{
    cta_dispatch *d = self;
    cta_done_t dn;
    for (unsigned s = 0; s < d->n_sms; s++) {
        gsc_fifo *f = gsc_port_fifo(d->done[s]);
        while (gsc_fifo_can_get(f)) {
            gsc_fifo_get(f, &dn);
            d->alloc.release(d->alloc.ctx, d->slots[s], s, &dn);
            if (G_UNLIKELY(d->extra) && d->extra_state[s] == 2 && dn.slot == d->extra[s].slot) {
                d->extra_state[s] = 0;
                d->order->extra_done(d->order_ctx, s);
                continue;
            }
            d->completed++;
            if (d->order)
                d->order->done(d->order_ctx, s);
        }
    }
    if (!d->running || gsc_cycle() < d->start_at) /* (woken before the launch begins) */
        return;
    if (G_UNLIKELY(d->n_extra_wait))
        place_extras(d);
    if (d->completed == d->total) {
        d->running = false;
        gsc_stop();
        return;
    }
    bool placed = false;
    for (unsigned n = 0; n < d->n_sms && d->next < d->total; n++) {
        uint32_t cta = d->next;
        int s = d->order ? d->order->next(d->order_ctx, &cta) : pick_sm(d);
        if (s < 0)
            break;
        g_assert((unsigned)s < d->n_sms);
        if (!gsc_fifo_can_put(gsc_port_fifo(d->launch[s])) || !place(d, (unsigned)s, cta))
            break;
        if (d->order)
            d->order->placed(d->order_ctx, (unsigned)s, cta);
        d->last = s;
        placed = true;
    }
    d->tr_next = d->next;
    d->tr_completed = d->completed;
    if (placed && d->next < d->total)
        gsc_run_within(1);
}

static void cta_dispatch_elaborate(void *self)
{
    cta_dispatch *d = self;
    blk_iref r = blk_import(d->inst, CTA_DISPATCH_PICK, 0);
    if (r.methods)
        cta_dispatch_set_pick(d, ((const cta_pick_if *)r.methods)->pick, r.self);
    r = blk_import(d->inst, CTA_DISPATCH_GRANT, 0);
    if (r.methods) {
        const cta_grant_if *g = r.methods;
        cta_dispatch_alloc a = {g->fits, g->grant, g->release, r.self};
        cta_dispatch_set_alloc(d, &a);
    }
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
    if (n_sms < 1 || n_sms > CTA_DISPATCH_MAX_SMS)
        gsc_fatal("%s: %u SMs (1 to %u)", name, n_sms, CTA_DISPATCH_MAX_SMS);
    unsigned counts[BLK_N(ports)] = {[CTA_DISPATCH_LAUNCH] = n_sms, [CTA_DISPATCH_DONE] = n_sms};
    d->inst = blk_inst_new_arrays(ctx, parent, name, &cta_dispatch_desc, counts);
    d->env = env;
    d->n_sms = n_sms;
    d->launch = g_new0(gsc_port *, n_sms);
    d->done = g_new0(gsc_port *, n_sms);
    for (unsigned s = 0; s < n_sms; s++) {
        d->launch[s] = blk_port_at(d->inst, CTA_DISPATCH_LAUNCH, s);
        d->done[s] = blk_port_at(d->inst, CTA_DISPATCH_DONE, s);
    }
    occupancy_sm_init_gtx480(&d->occ);
    d->slots = g_new0(ctaslots *, n_sms);
    d->pick = NULL; /* round-robin over alloc.fits */
    d->alloc = ledger_alloc;
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
    g_free(d->extra);
    g_free(d->extra_state);
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

void cta_dispatch_extra(cta_dispatch *d, unsigned sm, const cta_launch_t *c)
{
    g_assert(sm < d->n_sms && d->order && d->order->extra_done && c->own_entry && c->threads <= IR_WARP_SIZE);
    if (!d->extra) {
        d->extra = g_new0(cta_launch_t, d->n_sms);
        d->extra_state = g_new0(uint8_t, d->n_sms);
    }
    g_assert(d->extra_state[sm] == 0);
    d->extra[sm] = *c;
    d->extra_state[sm] = 1;
    d->n_extra_wait++;
    cta_dispatch_wake(d);
}

void cta_dispatch_wake(cta_dispatch *d)
{
    gsc_event_notify(d->start, 1);
}

void cta_dispatch_set_order(cta_dispatch *d, const cta_dispatch_order *o, void *ctx)
{
    d->order = o;
    d->order_ctx = ctx;
}

void cta_dispatch_set_alloc(cta_dispatch *d, const cta_dispatch_alloc *a)
{
    d->alloc = a ? *a : ledger_alloc;
    g_assert(d->alloc.fits && d->alloc.grant && d->alloc.release);
}

bool cta_dispatch_start(cta_dispatch *d, GString *err)
{
    const sm_launch *L = &d->env->launch;
    const kload_func *kf = &d->env->k->funcs[L->entry];
    const ir_func *f = g_ptr_array_index(d->env->mod->funcs, L->entry);
    d->k.regs_per_thread = L->regs_per_thread;
    uint64_t smem_static = L->shared_dyn ? kf->dyn_shared_offset : kf->shared_static;
    if (smem_static > UINT32_MAX || smem_static + L->shared_dyn > UINT32_MAX) { /* never truncated below */
        g_string_append_printf(err,
                               "kernel %s: %" G_GUINT64_FORMAT
                               " bytes of shared memory per CTA is more than an SM "
                               "can hold",
                               f->name, smem_static + L->shared_dyn);
        return false;
    }
    if (L->smem_per_cta && L->smem_per_cta < smem_static + L->shared_dyn) {
        g_string_append_printf(err,
                               "kernel %s: --smem-per-cta %u is less than the %" G_GUINT64_FORMAT
                               " bytes of shared memory the kernel uses",
                               f->name, L->smem_per_cta, smem_static + L->shared_dyn);
        return false;
    }
    /* A declared scratchpad counts as the kernel's static part (the dynamic part stays at its
     * offset): the CTA is given the declared bytes, the kernel uses the first ones. */
    d->k.smem_static = L->smem_per_cta ? L->smem_per_cta - L->shared_dyn : (unsigned)smem_static;
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
    d->start_at = gsc_cycle() + 1;
    gsc_event_notify(d->start, 1);
    return true;
}

bool cta_dispatch_done(const cta_dispatch *d)
{
    return !d->running;
}

uint32_t cta_dispatch_completed(const cta_dispatch *d)
{
    return d->completed;
}

const occupancy_result *cta_dispatch_occupancy(const cta_dispatch *d)
{
    return &d->res;
}
