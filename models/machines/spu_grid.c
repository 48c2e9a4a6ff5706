/* spu_grid.c — the `spu_grid` machine; see spu_grid.h. */
#include "models/machines/spu_grid.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>

#include "kernels/frontend/spu_isa.h"
#include "models/sm/issue.h"
#include "models/spu/spu_iu_code.h"
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

/* Unit k of the 4p interface units, then the SMs standing in for them (partial passes). */
static unsigned all_ius(const spu_grid *s)
{
    return 4 * s->p + (s->smiu ? 2 * s->p : 0);
}

static spu_iu *iu_at(const spu_grid *s, unsigned k)
{
    return k < 4 * s->p ? s->iu[k] : s->smiu[k - 4 * s->p];
}

/* The SM a stand-in interface unit (smiu[k]) plays. */
static unsigned smiu_sm(const spu_grid *s, unsigned k)
{
    unsigned p = s->p, r = spu_passes_span(&s->ps, s->ps.P - 1);
    return k < p ? k * p + r : r * p + (k - p);
}

/* SM sm starts stand-in k's next role as a CTA of its IU code (spu_grid_sm_code), with the role's
 * SPU registers (restored to an SM's when it ends, sm_role_done). */
static void sm_role_start(spu_grid *s, unsigned sm, unsigned k)
{
    const char *entry;
    const uint8_t *kparam;
    uint32_t bytes;
    const uint32_t *sregs;
    if (!spu_iu_code_run_at(s->smiu[k], s->role_n[k]++, &entry, &kparam, &bytes, &sregs))
        gsc_fatal("%s: SM %u starts a role of %s, which has no IU code run for it", s->inst->path, sm,
                  s->smiu[k]->inst->path);
    uint32_t f = ir_module_func_index(s->mod, entry);
    if (f == IR_NONE)
        gsc_fatal("%s: the kernel's module has no function %s (the IU code the SMs run)", s->inst->path, entry);
    memcpy(&s->sregs[sm * N_SREGS], sregs, N_SREGS * sizeof *sregs);
    s->sm_role[sm] = true;
    spu_ctl_set_present(s->ctl, sm, true);
    cta_launch_t c = {.own_entry = f + 1,
                      .own_kparam = kparam,
                      .own_kparam_bytes = bytes,
                      .own_mod = s->role_mod,
                      .threads = IR_WARP_SIZE,
                      .ctaid = {sregs[IR_SREG_REGIUID - IR_SREG_REGPASSX], 0, 0}};
    cta_dispatch_extra(s->disp, sm, &c);
}

/* SM sm, free, moves to its next role: skips the passes where it idles, starts its interface-unit
 * role (busy until the role ends); returns SPU_ROLE_CTA when its next CTA may be placed now,
 * SPU_ROLE_NONE when it has nothing to do now. Pass by pass, only the current pass's role. */
static spu_role advance(spu_grid *s, unsigned sm)
{
    unsigned p = s->p, n_pass = s->ps.P * s->ps.P;
    while (!s->sm_busy[sm] && s->sm_next[sm] < n_pass && (s->overlapped || s->sm_next[sm] == s->cur_pass)) {
        unsigned px, py;
        spu_passes_coord(&s->ps, s->sm_next[sm], &px, &py);
        spu_role r = s->ps.partial ? spu_passes_role(&s->ps, sm % p, sm / p, px, py) : SPU_ROLE_CTA;
        if (r == SPU_ROLE_CTA)
            return r;
        if (r == SPU_ROLE_NONE) {
            s->sm_next[sm]++;
            continue;
        }
        unsigned k = r == SPU_ROLE_IU_EAST ? sm / p : p + sm % p;
        s->sm_busy[sm] = true;
        if (s->mod) {
            sm_role_start(s, sm, k);
            continue;
        }
        spu_ctl_set_present(s->ctl, s->smiu[k]->unit, true);
        spu_iu_start_role(s->smiu[k], s->role_rounds);
    }
    return SPU_ROLE_NONE;
}

/* Global sync with partial passes: whether interface unit k (all_ius order) takes part in pass q. */
static bool iu_in_pass(const spu_grid *s, unsigned k, unsigned q)
{
    unsigned p = s->p, px, py;
    if (q >= s->ps.P * s->ps.P)
        return false;
    spu_passes_coord(&s->ps, q, &px, &py);
    if (k < 4 * p) {
        spu_side side = (spu_side)(k / p);
        return spu_passes_border_serves(&s->ps, side == SPU_SIDE_N || side == SPU_SIDE_S, side >= SPU_SIDE_S,
                                        k % p, px, py);
    }
    if (s->mod) /* the SM itself takes part */
        return false;
    unsigned sm = smiu_sm(s, k - 4 * p);
    return spu_passes_role(&s->ps, sm % p, sm / p, px, py) ==
           (k - 4 * p < p ? SPU_ROLE_IU_EAST : SPU_ROLE_IU_SOUTH);
}

/* Global sync with partial passes: border unit k starts its role in the current pass if it serves
 * it and its previous role has ended (else its role_done starts it). */
static void global_border_start(spu_grid *s, unsigned k)
{
    spu_iu *u = s->iu[k];
    if (!iu_in_pass(s, k, s->cur_pass) || s->iu_pass[k] == s->cur_pass || u->state != SPU_IU_DONE ||
        u->round != u->role_end)
        return;
    s->iu_pass[k] = s->cur_pass;
    spu_iu_start_role(u, s->role_rounds);
}

/* Global sync with partial passes: pass q begins (every CTA of the previous one has ended, so its
 * last barrier has been released): its SMs with a CTA and its interface units take part in the
 * global barrier, no other; its border units start their roles (the stand-ins theirs through
 * advance). */
static void global_pass_begin(spu_grid *s, unsigned q)
{
    unsigned p = s->p, px, py;
    if (q >= s->ps.P * s->ps.P)
        return;
    spu_passes_coord(&s->ps, q, &px, &py);
    for (unsigned sm = 0; sm < p * p; sm++) {
        spu_role r = spu_passes_role(&s->ps, sm % p, sm / p, px, py);
        spu_ctl_set_present(s->ctl, sm, r == SPU_ROLE_CTA || (s->mod && r != SPU_ROLE_NONE));
    }
    for (unsigned k = 0; k < all_ius(s); k++)
        spu_ctl_set_present(s->ctl, iu_at(s, k)->unit, iu_in_pass(s, k, q));
    for (unsigned k = 0; k < 4 * p; k++)
        global_border_start(s, k);
}

/* An interface unit's role has ended. A stand-in's SM goes on (the dispatcher looks again when the
 * SM's next role is a CTA). Under global sync with partial passes a unit that does not take part in
 * the current pass leaves the barrier, a border unit that does starts its role there. */
static void role_done(void *ctx, spu_iu *u)
{
    spu_grid *s = ctx;
    unsigned k = 0;
    while (iu_at(s, k) != u)
        k++;
    if (k >= 4 * s->p) {
        unsigned sm = smiu_sm(s, k - 4 * s->p);
        s->sm_busy[sm] = false;
        s->sm_next[sm]++;
        if (advance(s, sm) == SPU_ROLE_CTA)
            cta_dispatch_wake(s->disp);
    }
    if (!s->global_B)
        return;
    if (!iu_in_pass(s, k, s->cur_pass))
        spu_ctl_set_present(s->ctl, u->unit, false);
    else if (k < 4 * s->p)
        global_border_start(s, k);
}

/* The dispatcher's CTA order (cta_dispatch_order): SM s takes CTA (px p + x, py p + y) of its next
 * pass (px, py) when it has no CTA (nor interface-unit role); pass by pass, only when that pass is
 * the current one. */
static int order_next(void *ctx, uint32_t *cta)
{
    spu_grid *s = ctx;
    unsigned p = s->p;
    int found = -1;
    if (s->global_B && !s->global_begun) {
        s->global_begun = true;
        global_pass_begin(s, 0);
    }
    for (unsigned sm = 0; sm < p * p; sm++) { /* every SM: a partial pass's roles start here too */
        if (s->sm_busy[sm] || advance(s, sm) != SPU_ROLE_CTA || found >= 0)
            continue;
        unsigned px, py;
        spu_passes_coord(&s->ps, s->sm_next[sm], &px, &py);
        *cta = (py * p + sm / p) * s->ps.G + px * p + sm % p;
        found = (int)sm;
        if (!s->ps.partial)
            break;
    }
    return found;
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
    unsigned q = s->sm_next[sm] - 1, px, py;
    s->sm_busy[sm] = false;
    s->pass_end[q] = gsc_cycle();
    spu_passes_coord(&s->ps, q, &px, &py);
    if (++s->pass_done[q] == spu_passes_occupancy(&s->ps, px, py) && !s->overlapped) {
        s->cur_pass = q + 1;
        if (s->global_B)
            global_pass_begin(s, q + 1);
        for (unsigned i = 0; s->ps.partial && i < s->p * s->p; i++)
            advance(s, i); /* the new pass's interface-unit roles */
    }
    if (s->ps.partial)
        advance(s, sm);
}

/* An SM's role (a CTA of its IU code) has ended: its SPU registers are an SM's again, and it goes on
 * as after a stand-in block's role; under global passes it stays in the barrier only if it takes
 * part in the current pass. */
static void sm_role_done(void *ctx, unsigned sm)
{
    spu_grid *s = ctx;
    unsigned p = s->p, px, py;
    g_assert(s->sm_role[sm]);
    s->sm_role[sm] = false;
    for (unsigned i = 4; i < N_SREGS; i++) /* the IU registers read 0 on an SM */
        s->sregs[sm * N_SREGS + i] = 0;
    s->sm_busy[sm] = false;
    s->sm_next[sm]++;
    if (s->global_B && s->cur_pass < s->ps.P * s->ps.P) {
        spu_passes_coord(&s->ps, s->cur_pass, &px, &py);
        if (spu_passes_role(&s->ps, sm % p, sm / p, px, py) == SPU_ROLE_NONE)
            spu_ctl_set_present(s->ctl, sm, false);
    } else if (s->global_B)
        spu_ctl_set_present(s->ctl, sm, false);
    if (advance(s, sm) == SPU_ROLE_CTA)
        cta_dispatch_wake(s->disp);
}

static const cta_dispatch_order order = {order_next, order_placed, order_done, sm_role_done};

void spu_grid_passes(spu_grid *s, cta_dispatch *d, unsigned G, unsigned tiles, bool overlapped)
{
    unsigned p = s->p;
    g_assert(!s->h); /* before spu_grid_build */
    spu_passes_init(&s->ps, p, G);
    s->overlapped = overlapped;
    s->role_rounds = tiles;
    s->disp = d;
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

void spu_grid_set_global(spu_grid *s)
{
    g_assert(!s->h && !s->overlapped); /* after spu_grid_passes, before spu_grid_build */
    s->global = true;
    if (!s->ps.partial)
        return;
    s->global_B = 1 + 2 * (s->ps.G - 1) + s->role_rounds;
    s->role_rounds = s->global_B + 1; /* a role: B rounds with a blocksync each, then the last stores */
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
    unsigned n_smiu = s->ps.partial ? 2 * p : 0;
    s->ctl = spu_ctl_new(ctx, mod, "ctl", env, p, 4 * p + n_smiu, 2 * p * (p + 1));
    /* partial passes: SM (r, k) stands in as the east unit of row k (the consumer side of its
     * west-in CB pair, syncing west), SM (k, r) as the south unit of column k (north-in, north);
     * they take part only during their roles. Their pairs first: the watchdog names the SM there. */
    s->smiu = n_smiu ? g_new0(spu_iu *, n_smiu) : NULL;
    sm_topo **sms = gpu_topo_sms(g);
    unsigned *slots = g_new0(unsigned, n);
    for (unsigned k = 0; k < n_smiu; k++) {
        unsigned r = spu_passes_span(&s->ps, s->ps.P - 1), unit = n + 4 * p + k, sm = smiu_sm(s, k);
        bool east = k < p;
        char *nm = g_strdup_printf("smiu_%s%u", east ? "e" : "s", k % p);
        /* the role's off-chip requests leave through the SM's own memory port (icnt_path) */
        spu_iu *u = spu_iu_new_sm(ctx, mod, nm, env->mem, unit, slots[sm]);
        g_free(nm);
        if (u->icnt) {
            slots[sm]++;
            blk_bind(u->inst, "sm_mem", sm_topo_ldst_inst(sms[sm]), "iu");
            blk_bind(sm_topo_ldst_inst(sms[sm]), "iu_reply", u->inst, "sm_reply");
        }
        s->smiu[k] = u;
        spu_iu_set_roles(u, role_done, s);
        spu_ctl_set_unit_name(s->ctl, unit, u->inst->path);
        spu_ctl_set_unit_blocked(s->ctl, unit, &u->guard_waiting);
        spu_ctl_set_present(s->ctl, unit, false);
        u->on_block = spu_ctl_event(s->ctl);
        unsigned cb = east ? 2 * (k * (p + 1) + r) : 2 * (r * p + k % p) + 1;
        spu_ctl_set_pair(s->ctl, unit, east ? SPU_DIR_WEST : SPU_DIR_NORTH, cb, 1);
        blk_bind(u->inst, "cb", east ? s->h[k * (p + 1) + r]->inst : s->v[r * p + k % p]->inst, "cb");
        blk_bind(u->inst, "bs", s->ctl->inst, "bs");
    }
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
            if (s->global_B)
                spu_iu_set_roles(u, role_done, s);
        }
    if (s->global_B) {
        spu_ctl_set_global_pass(s->ctl, s->global_B);
        s->iu_pass = g_new(unsigned, 4 * p);
        for (unsigned k = 0; k < 4 * p; k++)
            s->iu_pass[k] = UINT_MAX;
    } else if (s->global && s->ps.P > 1) /* pass by pass, the same SMs in every pass */
        spu_ctl_set_global_ctas(s->ctl, s->ps.P * s->ps.P);
    g_free(slots);
    for (unsigned i = 0; i < n; i++) { /* release bindings in unit order: SMs, then the IUs */
        issue *is = sm_topo_issue(sms[i]);
        blk_bind(is->inst, "blocksync", s->ctl->inst, "bs");
        blk_bind(s->ctl->inst, "release", is->inst, "blocksync_release");
        blk_bind(is->inst, "warp_events", s->ctl->inst, "events");
        blk_bind(is->inst, "issued", s->ctl->inst, "issued");
    }
    for (unsigned k = 0; k < 4 * p; k++)
        blk_bind(s->ctl->inst, "release", s->iu[k]->inst, "release");
    for (unsigned k = 0; k < n_smiu; k++)
        blk_bind(s->ctl->inst, "release", s->smiu[k]->inst, "release");
    /* icnt_path: every border interface unit is a memory client of the interconnect, node p² + k (the
     * testbench asks the GPU for them: spu_grid_mem_clients); the SMs' roles use the SMs' nodes */
    for (unsigned k = 0; k < 4 * p; k++) {
        spu_iu *u = iu_at(s, k);
        if (!u->icnt)
            continue;
        if (k >= gpu_topo_n_clients(g))
            gsc_fatal("%s: spu_iu.icnt_path=1 needs %u memory clients on the interconnect, the GPU has %u "
                      "(tb-spu --iu-path icnt)",
                      u->inst->path, 4 * p, gpu_topo_n_clients(g));
        gpu_topo_bind_client(
            g, k, blk_port_at(u->inst, SPU_IU_MEM_REQ, 0), blk_port_fifo_depth(u->inst, SPU_IU_MEM_REQ),
            blk_port_at(u->inst, SPU_IU_MEM_RESP, 0), blk_port_fifo_depth(u->inst, SPU_IU_MEM_RESP));
        spu_iu_set_node(u, n + k);
    }
    for (unsigned i = 0; i < p * (p + 1); i++) {
        blk_bind(s->ctl->inst, "cbs", s->h[i]->inst, "cb");
        blk_bind(s->ctl->inst, "cbs", s->v[i]->inst, "cb");
    }
    env->spu = &hooks;
    env->spu_self = s;
}

void spu_grid_sm_code(spu_grid *s, const ir_module *mod, uint32_t first, const char *iu_path)
{
    g_assert(s->smiu && s->disp && !s->mod);
    s->mod = mod;
    s->role_mod = g_new(ir_module, 1);
    *s->role_mod = *mod; /* shares its functions and symbols */
    s->role_mod->filename = g_strdup(iu_path);
    s->role_n = g_new0(unsigned, 2 * s->p);
    s->sm_role = g_new0(bool, s->p * s->p);
    spu_ctl_set_role_code(s->ctl, first);
}

spu_iu *spu_grid_iu(const spu_grid *s, spu_side side, unsigned index)
{
    g_assert(index < s->p);
    return s->iu[side * s->p + index];
}

unsigned spu_grid_mem_clients(const spu_grid *s, unsigned G)
{
    (void)G; /* the SMs' interface-unit roles in partial passes go through the SMs' own ports */
    return 4 * s->p;
}

spu_iu *spu_grid_sm_iu(const spu_grid *s, spu_side side, unsigned index)
{
    g_assert(index < s->p && (side == SPU_SIDE_E || side == SPU_SIDE_S));
    return s->smiu ? s->smiu[(side == SPU_SIDE_S) * s->p + index] : NULL;
}

/* Every interface unit and stand-in has finished, every role done. */
bool spu_grid_ius_done(const spu_grid *s)
{
    for (unsigned k = 0; s->mod && k < 2 * s->p; k++) {
        const char *e;
        const uint8_t *kp;
        uint32_t nb;
        const uint32_t *sr;
        if (s->sm_role[smiu_sm(s, k)] || spu_iu_code_run_at(s->smiu[k], s->role_n[k], &e, &kp, &nb, &sr))
            return false;
    }
    for (unsigned k = 0; k < (s->mod ? 4 * s->p : all_ius(s)); k++) {
        const spu_iu *u = iu_at(s, k);
        if (u->state != SPU_IU_DONE || (u->roles && u->role_end < u->rounds))
            return false;
    }
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
                 blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_STORES) +
                 blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_LOADS) +
                 blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_STORES);
    for (unsigned k = 0; k < all_ius(s); k++) {
        const blk_inst *u = iu_at(s, k)->inst;
        n += blk_stat_get(u, SPU_IU_STAT_LOADS) + blk_stat_get(u, SPU_IU_STAT_STORES) +
             blk_stat_get(u, SPU_IU_STAT_SPILLS) + blk_stat_get(u, SPU_IU_STAT_RESTORES);
    }
    return n;
}

uint64_t spu_grid_cb_accesses(const spu_grid *s)
{
    uint64_t n = blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_CB_ACCESSES) +
                 blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_CB);
    for (unsigned i = 0; i < s->p * (s->p + 1); i++)
        n += blk_stat_get(s->h[i]->inst, SPU_CB_STAT_IU_WORDS) +
             blk_stat_get(s->v[i]->inst, SPU_CB_STAT_IU_WORDS);
    return n;
}

void spu_grid_energy(const spu_grid *s, uint64_t cycles, blk_energy *cb, blk_energy *iu)
{
    *cb = *iu = (blk_energy){0, 0};
    for (unsigned i = 0; i < s->p * (s->p + 1); i++) {
        blk_energy h = blk_inst_energy(s->h[i]->inst, cycles), v = blk_inst_energy(s->v[i]->inst, cycles);
        cb->dynamic_pj += h.dynamic_pj + v.dynamic_pj;
        cb->leakage_pj += h.leakage_pj + v.leakage_pj;
    }
    for (unsigned k = 0; k < all_ius(s); k++) {
        blk_energy e = blk_inst_energy(iu_at(s, k)->inst, cycles);
        iu->dynamic_pj += e.dynamic_pj;
        iu->leakage_pj += e.leakage_pj;
    }
}

void spu_grid_summary(const spu_grid *s, FILE *out)
{
    uint64_t iu_l = 0, iu_s = 0, swaps = 0, sp = 0, rs = 0, guard = 0, sm_s = 0, sm_r = 0, sm_q = 0;
    for (unsigned k = 0; k < all_ius(s); k++) {
        const blk_inst *u = iu_at(s, k)->inst;
        iu_l += blk_stat_get(u, SPU_IU_STAT_LOADS);
        iu_s += blk_stat_get(u, SPU_IU_STAT_STORES);
        sp += blk_stat_get(u, SPU_IU_STAT_SPILLS);
        rs += blk_stat_get(u, SPU_IU_STAT_RESTORES);
        guard += blk_stat_get(u, SPU_IU_STAT_GUARD);
        if (k >= 4 * s->p) {
            sm_s += blk_stat_get(u, SPU_IU_STAT_STORES);
            sm_r += blk_stat_get(u, SPU_IU_STAT_ROUNDS);
            sm_q += blk_stat_get(u, SPU_IU_STAT_MEM_REQS);
        }
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
            ", IU stores %" PRIu64 " (the SMs' interface-unit roles included); CB element accesses %" PRIu64
            "\n",
            blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_LOADS),
            blk_stat_get(s->ctl->inst, SPU_CTL_STAT_SM_STORES),
            iu_l + blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_LOADS),
            iu_s + blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_STORES), spu_grid_cb_accesses(s));
    unsigned n_pass = s->ps.P * s->ps.P;
    uint64_t cycles = gsc_cycle();
    blk_energy cb, iu, all = blk_ctx_energy(s->inst->ctx, cycles);
    spu_grid_energy(s, cycles, &cb, &iu);
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
    if (s->smiu && s->mod)
        fprintf(out,
                "spu: partial passes (%u + %u CTAs per dimension): SMs acting as interface units stored "
                "%" PRIu64 " elements in %" PRIu64 " rounds, running the IU code on their own pipelines (%" PRIu64
                " warp instructions, %" PRIu64 " CB element accesses)\n",
                (s->ps.P - 1) * s->p, spu_passes_span(&s->ps, s->ps.P - 1),
                blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_STORES),
                blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_SYNCS),
                blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_INSTRS),
                blk_stat_get(s->ctl->inst, SPU_CTL_STAT_ROLE_CB));
    else if (s->smiu) {
        fprintf(out,
                "spu: partial passes (%u + %u CTAs per dimension): SMs acting as interface units stored "
                "%" PRIu64 " elements in %" PRIu64 " rounds",
                (s->ps.P - 1) * s->p, spu_passes_span(&s->ps, s->ps.P - 1), sm_s, sm_r);
        if (s->smiu[0]->icnt)
            fprintf(out, ", %" PRIu64 " requests through their own memory ports", sm_q);
        fputc('\n', out);
    }
    for (unsigned q = 0; q < n_pass; q++) {
        unsigned px, py;
        spu_passes_coord(&s->ps, q, &px, &py);
        fprintf(out, "spu: pass (%u,%u): cycles %" PRIu64 " .. %" PRIu64, px, py, s->pass_start[q],
                s->pass_end[q]);
        if (s->smiu)
            fprintf(out, ", %u CTAs", spu_passes_occupancy(&s->ps, px, py));
        fputc('\n', out);
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
    for (unsigned k = 0; s->iu && k < all_ius(s); k++)
        spu_iu_free(iu_at(s, k));
    g_free(s->smiu);
    if (s->role_mod)
        g_free(s->role_mod->filename);
    g_free(s->role_mod);
    g_free(s->role_n);
    g_free(s->sm_role);
    g_free(s->iu_pass);
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
