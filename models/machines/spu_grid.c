/* spu_grid.c — the `spu_grid` machine; see spu_grid.h. */
#include "models/machines/spu_grid.h"

#include <inttypes.h>

#include "kernels/frontend/spu_isa.h"
#include "models/sm/issue.h"
#include "models/topo/sm.h"

#define N_SREGS (IR_SREG_REGLAST - IR_SREG_REGPASSX + 1)

static const blk_param_desc params[] = {
    {"p", BLK_PARAM_UINT, "4", "1", "16", NULL, "SMs",
     "grid side: p x p SMs, 4p interface units [S: 4; A: parametric]"},
};

const blk_desc spu_grid_desc = {
    "spu_grid",
    "the SPU: p x p SMs with CB pairs between neighbours, border interface units, global blocksync",
    "SPU spec §2-6",
    NULL,
    0,
    params,
    BLK_N(params),
    NULL,
    0,
    NULL,
    0,
};

void spu_grid_register(void)
{
    blk_registry_add(&spu_grid_desc);
    blk_registry_add(&spu_cb_desc);
    blk_registry_add(&spu_iu_desc);
    blk_registry_add(&spu_ctl_desc);
}

spu_grid *spu_grid_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    spu_grid *s = g_new0(spu_grid, 1);
    s->inst = blk_inst_new(ctx, parent, name, &spu_grid_desc);
    s->inst->self = s;
    s->p = (unsigned)blk_param_uint(s->inst, "p");
    unsigned n = s->p * s->p;
    spu_passes_init(&s->ps, s->p, s->p);
    s->sm_next = g_new0(unsigned, n);
    s->sm_busy = g_new0(bool, n);
    s->sregs = g_new0(uint32_t, n * N_SREGS);
    for (unsigned sm = 0; sm < n; sm++)
        s->sregs[sm * N_SREGS] = s->sregs[sm * N_SREGS + 1] = 1; /* one pass */
    return s;
}

/* The SM side (sm_env.h): the CB an SM's ld.cb/st.cb reaches, the SPU registers of one pass. */
static uint8_t *hook_cb(void *self, unsigned sm, unsigned dir, uint64_t *bytes)
{
    spu_grid *s = self;
    unsigned p = s->p, x = sm % p, y = sm / p;
    switch (dir) {
    case SPU_DIR_WEST:
        return spu_cb_half(s->h[y * (p + 1) + x], false, 0, bytes);
    case SPU_DIR_EAST:
        return spu_cb_half(s->h[y * (p + 1) + x + 1], true, 0, bytes);
    case SPU_DIR_NORTH:
        return spu_cb_half(s->v[y * p + x], false, 0, bytes);
    case SPU_DIR_SOUTH:
        return spu_cb_half(s->v[(y + 1) * p + x], true, 0, bytes);
    default:
        *bytes = 0;
        return NULL;
    }
}

/* Per SM: regpassx, regpassy (passes in x and y), regcpassx, regcpassy (the SM's current pass, local
 * scope [S: §8]), regspillnb, regcspillnb, regviu, regiudir, regiuid, reglast (IU registers: 0 on an
 * SM). */
static const uint32_t *hook_sregs(void *self, unsigned sm)
{
    spu_grid *s = self;
    return s->sregs + sm * N_SREGS;
}

/* The dispatcher's CTA order (cta_dispatch_order): SM s takes CTA (px p + x, py p + y) of its next
 * pass (px, py) when it has no CTA; pass by pass, only when that pass is the current one. */
static int order_next(void *ctx, uint32_t *cta)
{
    spu_grid *s = ctx;
    unsigned p = s->p, n_pass = s->ps.P * s->ps.P;
    for (unsigned sm = 0; sm < p * p; sm++) {
        unsigned q = s->sm_next[sm];
        if (s->sm_busy[sm] || q >= n_pass || (!s->overlapped && q != s->cur_pass))
            continue;
        unsigned px, py;
        spu_passes_coord(&s->ps, q, &px, &py);
        *cta = (py * p + sm / p) * s->ps.G + px * p + sm % p;
        return (int)sm;
    }
    return -1;
}

static void order_placed(void *ctx, unsigned sm, uint32_t cta)
{
    spu_grid *s = ctx;
    (void)cta;
    unsigned q = s->sm_next[sm]++, px, py;
    spu_passes_coord(&s->ps, q, &px, &py);
    s->sm_busy[sm] = true;
    s->sregs[sm * N_SREGS + 2] = px;
    s->sregs[sm * N_SREGS + 3] = py;
    if (s->pass_start[q] == UINT64_MAX)
        s->pass_start[q] = gsc_cycle();
}

static void order_done(void *ctx, unsigned sm)
{
    spu_grid *s = ctx;
    unsigned q = s->sm_next[sm] - 1;
    s->sm_busy[sm] = false;
    s->pass_end[q] = gsc_cycle();
    if (++s->pass_done[q] == s->p * s->p && !s->overlapped)
        s->cur_pass = q + 1;
}

static const cta_dispatch_order order = {order_next, order_placed, order_done};

void spu_grid_passes(spu_grid *s, cta_dispatch *d, unsigned G, bool overlapped)
{
    unsigned p = s->p;
    spu_passes_init(&s->ps, p, G);
    g_assert(!s->ps.partial);
    s->overlapped = overlapped;
    unsigned n_pass = s->ps.P * s->ps.P;
    for (unsigned sm = 0; sm < p * p; sm++)
        s->sregs[sm * N_SREGS] = s->sregs[sm * N_SREGS + 1] = s->ps.P;
    g_free(s->pass_start);
    g_free(s->pass_end);
    g_free(s->pass_done);
    s->pass_start = g_new(uint64_t, n_pass);
    s->pass_end = g_new0(uint64_t, n_pass);
    s->pass_done = g_new0(unsigned, n_pass);
    for (unsigned q = 0; q < n_pass; q++)
        s->pass_start[q] = UINT64_MAX;
    cta_dispatch_set_order(d, &order, s);
}

static const sm_spu_hooks hooks = {hook_cb, hook_sregs};

void spu_grid_build(spu_grid *s, gpu_topo *g, sm_env *env)
{
    unsigned p = s->p, n = p * p;
    if (gpu_topo_n_sms(g) != n)
        gsc_fatal("%s: p = %u needs %u SMs, the GPU has %u", s->inst->path, p, n, gpu_topo_n_sms(g));
    blk_ctx *ctx = s->inst->ctx;
    gsc_module *mod = s->inst->mod;
    s->h = g_new0(spu_cb *, p * (p + 1));
    s->v = g_new0(spu_cb *, p * (p + 1));
    for (unsigned y = 0; y < p; y++)
        for (unsigned x = 0; x <= p; x++) {
            char *nm = g_strdup_printf("cb_h%u_%u", x, y);
            s->h[y * (p + 1) + x] = spu_cb_new(ctx, mod, nm);
            g_free(nm);
        }
    for (unsigned y = 0; y <= p; y++)
        for (unsigned x = 0; x < p; x++) {
            char *nm = g_strdup_printf("cb_v%u_%u", x, y);
            s->v[y * p + x] = spu_cb_new(ctx, mod, nm);
            g_free(nm);
        }
    s->ctl = spu_ctl_new(ctx, mod, "ctl", env, p, 4 * p, 2 * p * (p + 1));
    /* producer-consumer pairs: cbs binding 2i is cb_h (index i), 2i + 1 cb_v (index i) */
    for (unsigned y = 0; y < p; y++)
        for (unsigned x = 0; x < p; x++) {
            unsigned u = y * p + x;
            spu_ctl_set_pair(s->ctl, u, SPU_DIR_EAST, 2 * (y * (p + 1) + x + 1), 0);
            spu_ctl_set_pair(s->ctl, u, SPU_DIR_WEST, 2 * (y * (p + 1) + x), 1);
            spu_ctl_set_pair(s->ctl, u, SPU_DIR_SOUTH, 2 * ((y + 1) * p + x) + 1, 0);
            spu_ctl_set_pair(s->ctl, u, SPU_DIR_NORTH, 2 * (y * p + x) + 1, 1);
        }
    for (unsigned k = 0; k < p; k++) {
        spu_ctl_set_pair(s->ctl, n + SPU_SIDE_N * p + k, SPU_DIR_SOUTH, 2 * k + 1, 0);
        spu_ctl_set_pair(s->ctl, n + SPU_SIDE_W * p + k, SPU_DIR_EAST, 2 * (k * (p + 1)), 0);
        spu_ctl_set_pair(s->ctl, n + SPU_SIDE_S * p + k, SPU_DIR_NORTH, 2 * (p * p + k) + 1, 1);
        spu_ctl_set_pair(s->ctl, n + SPU_SIDE_E * p + k, SPU_DIR_WEST, 2 * (k * (p + 1) + p), 1);
    }
    static const char *const side_name[] = {"n", "w", "s", "e"};
    s->iu = g_new0(spu_iu *, 4 * p);
    for (unsigned side = 0; side < 4; side++)
        for (unsigned k = 0; k < p; k++) {
            char *nm = g_strdup_printf("iu_%s%u", side_name[side], k);
            spu_iu *u = spu_iu_new(ctx, mod, nm, env->mem, n + side * p + k, side >= SPU_SIDE_S);
            g_free(nm);
            s->iu[side * p + k] = u;
            spu_ctl_set_unit_name(s->ctl, n + side * p + k, u->inst->path);
            spu_ctl_set_unit_blocked(s->ctl, n + side * p + k, &u->guard_waiting);
            u->on_block = spu_ctl_event(s->ctl);
            spu_cb *cb = side == SPU_SIDE_N   ? s->v[k]
                         : side == SPU_SIDE_W ? s->h[k * (p + 1)]
                         : side == SPU_SIDE_S ? s->v[p * p + k]
                                              : s->h[k * (p + 1) + p];
            blk_bind(u->inst, "cb", cb->inst, "cb");
            blk_bind(u->inst, "bs", s->ctl->inst, "bs");
        }
    sm_topo **sms = gpu_topo_sms(g);
    for (unsigned i = 0; i < n; i++) { /* release bindings in unit order: SMs, then the IUs */
        issue *is = sm_topo_issue(sms[i]);
        blk_bind(is->inst, "blocksync", s->ctl->inst, "bs");
        blk_bind(s->ctl->inst, "release", is->inst, "blocksync_release");
        blk_bind(is->inst, "warp_events", s->ctl->inst, "events");
        blk_bind(is->inst, "issued", s->ctl->inst, "issued");
    }
    for (unsigned k = 0; k < 4 * p; k++)
        blk_bind(s->ctl->inst, "release", s->iu[k]->inst, "release");
    for (unsigned i = 0; i < p * (p + 1); i++) {
        blk_bind(s->ctl->inst, "cbs", s->h[i]->inst, "cb");
        blk_bind(s->ctl->inst, "cbs", s->v[i]->inst, "cb");
    }
    env->spu = &hooks;
    env->spu_self = s;
}

spu_iu *spu_grid_iu(const spu_grid *s, spu_side side, unsigned index)
{
    g_assert(index < s->p);
    return s->iu[side * s->p + index];
}

bool spu_grid_ius_done(const spu_grid *s)
{
    for (unsigned k = 0; k < 4 * s->p; k++)
        if (s->iu[k]->state != SPU_IU_DONE)
            return false;
    return true;
}

unsigned spu_grid_n_cbs(const spu_grid *s)
{
    return 4 * s->p * (s->p + 1); /* 2p(p+1) pairs */
}

uint64_t spu_grid_cb_bytes(const spu_grid *s)
{
    return (uint64_t)spu_grid_n_cbs(s) * s->h[0]->bytes;
}

uint64_t spu_grid_offchip(const spu_grid *s)
{
    uint64_t n = blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_LOADS) +
                 blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_STORES);
    for (unsigned k = 0; k < 4 * s->p; k++)
        n += blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_LOADS) +
             blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_STORES) +
             blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_SPILLS) +
             blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_RESTORES);
    return n;
}

uint64_t spu_grid_cb_accesses(const spu_grid *s)
{
    uint64_t n = blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_CB_ACCESSES);
    for (unsigned i = 0; i < s->p * (s->p + 1); i++)
        n += blk_stat_get(s->h[i]->inst, SPU_CB_STAT_IU_WORDS) +
             blk_stat_get(s->v[i]->inst, SPU_CB_STAT_IU_WORDS);
    return n;
}

void spu_grid_summary(const spu_grid *s, FILE *out)
{
    uint64_t iu_l = 0, iu_s = 0, swaps = 0, sp = 0, rs = 0, guard = 0;
    for (unsigned k = 0; k < 4 * s->p; k++) {
        iu_l += blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_LOADS);
        iu_s += blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_STORES);
        sp += blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_SPILLS);
        rs += blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_RESTORES);
        guard += blk_stat_get(s->iu[k]->inst, SPU_IU_STAT_GUARD);
    }
    for (unsigned i = 0; i < s->p * (s->p + 1); i++)
        swaps +=
            blk_stat_get(s->h[i]->inst, SPU_CB_STAT_SWAPS) + blk_stat_get(s->v[i]->inst, SPU_CB_STAT_SWAPS);
    fprintf(out,
            "spu: %u x %u SMs, %u interface units, %u CBs (%" PRIu64 " KB); %" PRIu64
            " global blocksyncs, %" PRIu64 " CB swaps\n",
            s->p, s->p, 4 * s->p, spu_grid_n_cbs(s), spu_grid_cb_bytes(s) / 1024,
            blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROUNDS), swaps);
    if (blk_stat_get(s->ctl->inst, SPU_CTL_STAT_PAIR_SYNCS))
        fprintf(out, "spu: %" PRIu64 " producer-consumer syncs (each swapped one CB pair)\n",
                blk_stat_get(s->ctl->inst, SPU_CTL_STAT_PAIR_SYNCS));
    fprintf(out,
            "spu: off-chip elements: SM loads %" PRIu64 ", SM stores %" PRIu64 ", IU loads %" PRIu64
            ", IU stores %" PRIu64 "; CB element accesses %" PRIu64 "\n",
            blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_LOADS),
            blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_STORES), iu_l, iu_s, spu_grid_cb_accesses(s));
    unsigned n_pass = s->ps.P * s->ps.P;
    uint64_t cycles = gsc_cycle();
    blk_energy cb = {0}, iu = {0}, all = blk_ctx_energy(s->inst->ctx, cycles);
    for (unsigned i = 0; i < s->p * (s->p + 1); i++) {
        blk_energy h = blk_inst_energy(s->h[i]->inst, cycles), v = blk_inst_energy(s->v[i]->inst, cycles);
        cb.dynamic_pj += h.dynamic_pj + v.dynamic_pj;
        cb.leakage_pj += h.leakage_pj + v.leakage_pj;
    }
    for (unsigned k = 0; k < 4 * s->p; k++) {
        blk_energy e = blk_inst_energy(s->iu[k]->inst, cycles);
        iu.dynamic_pj += e.dynamic_pj;
        iu.leakage_pj += e.leakage_pj;
    }
    fprintf(out,
            "spu: energy: total %.3f nJ (static %.3f, dynamic %.3f); CBP (CB accesses) %.3f nJ, CB leakage "
            "%.3f nJ; IUs dynamic %.3f nJ, leakage %.3f nJ\n",
            (all.dynamic_pj + all.leakage_pj) / 1e3, all.leakage_pj / 1e3, all.dynamic_pj / 1e3,
            cb.dynamic_pj / 1e3, cb.leakage_pj / 1e3, iu.dynamic_pj / 1e3, iu.leakage_pj / 1e3);
    if (!s->pass_start)
        return;
    fprintf(out,
            "spu: %u x %u passes (%s); VIU spills %" PRIu64 ", restores %" PRIu64
            " elements; guard stall cycles %" PRIu64 "\n",
            s->ps.P, s->ps.P, s->overlapped ? "overlapped" : "pass by pass", sp, rs, guard);
    for (unsigned q = 0; q < n_pass; q++) {
        unsigned px, py;
        spu_passes_coord(&s->ps, q, &px, &py);
        fprintf(out, "spu: pass (%u,%u): cycles %" PRIu64 " .. %" PRIu64 "\n", px, py, s->pass_start[q],
                s->pass_end[q]);
    }
}

void spu_grid_free(spu_grid *s)
{
    if (!s)
        return;
    for (unsigned i = 0; s->h && i < s->p * (s->p + 1); i++) {
        spu_cb_free(s->h[i]);
        spu_cb_free(s->v[i]);
    }
    for (unsigned k = 0; s->iu && k < 4 * s->p; k++)
        spu_iu_free(s->iu[k]);
    spu_ctl_free(s->ctl);
    g_free(s->sm_next);
    g_free(s->sm_busy);
    g_free(s->sregs);
    g_free(s->pass_start);
    g_free(s->pass_end);
    g_free(s->pass_done);
    g_free(s->h);
    g_free(s->v);
    g_free(s->iu);
    g_free(s);
}
