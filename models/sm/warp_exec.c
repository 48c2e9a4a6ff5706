/* warp_exec.c — see warp_exec.h. The instructions execute on the warp-step engine
 * (kernels/run/warp_step.h), the functional runner's own; this file holds the SM's side: warp slots and
 * CTAs, loads in flight, the register value hooks, and the registers decode and the banks see. */
#include "models/sm/warp_exec.h"

#include <string.h>

#include "kernels/analysis/regalloc.h"
#include "kernels/run/warp_step.h"

#define FULL_MASK 0xffffffffu

_Static_assert(WS_NO_REG == SM_NO_REG, "the engine's and the SM's `no register` agree");

typedef struct {
    ws_warp w;      /* first: the engine's warp (a ws_warp * is a wx_warp *) */
    bool live;      /* a CTA's warp that has not finished */
    bool present;   /* belongs to a resident CTA */
    uint16_t cta;   /* CTA slot */
    GArray *ploads; /* ws_load: loads in flight */
    bool quiet;     /* every value hook needs no more READ or WRITE until the next ALLOC (regval.h) */
    ws_launch *L;   /* its CTA's launch: the SM's, or the CTA's own (wx_cta.own) */
} wx_warp;

typedef struct {
    bool live;
    bool own;      /* a CTA outside the grid (cta_launch_t.own_entry): L is its launch */
    cta_launch_t c;
    ws_cta ws;
    ws_launch L;
} wx_cta;

/* Where a warp goes on: the top of its SIMT stack, kept beside the other warps' (8 bytes a warp)
 * because the issue stage asks for it at every readiness check, and a warp's own struct and stack are
 * cold by then in a machine of many SMs. func WX_NO_NEXT: not live or finished. Written wherever the
 * stack changes: a CTA's start and end, and each step. */
#define WX_NO_NEXT UINT32_MAX
typedef struct {
    uint32_t func, pc;
} wx_next;

struct wexec {
    sm_env *env;
    unsigned sm_id, max_warps, max_ctas;
    wx_warp *warps;
    wx_next *next; /* per warp */
    wx_cta *ctas;
    ws_prog *prog;        /* the decoded module: env->prog, shared by the SMs */
    ws_launch L;          /* the engine's view of the current launch */
    char where[32];       /* "on SM 3", in error messages */
    regval_chain *values; /* the register value path's hooks */
    bool hooked;          /* values has a hook: the only test the baseline pays */
    struct wx_view *view; /* the narrow row the running hooks see as 64-bit lanes, NULL: none */
    uint64_t *regs;       /* every warp's register array, one block (wexec_new) */
};

/* A narrow row (kload.h, "Registers") shown to the value hooks as 64-bit lanes (regval_access.v):
 * its lanes copied out, what the hooks change copied back; a hook's wexec_write_slot or
 * wexec_read_slot of the same register meanwhile goes through the copy, as if it were the row. */
typedef struct wx_view {
    unsigned warp;
    uint32_t at;
    uint64_t v[IR_WARP_SIZE], orig[IR_WARP_SIZE];
    struct wx_view *outer;
} wx_view;

static wx_view *view_of(const wexec *x, unsigned warp, uint32_t at)
{
    for (wx_view *v = x->view; v; v = v->outer)
        if (v->warp == warp && v->at == at)
            return v;
    return NULL;
}

static unsigned warp_index(const wexec *x, const ws_warp *w)
{
    return (unsigned)((const wx_warp *)w - x->warps);
}

/* The stack of warp i changed: its next (func, pc) again. */
static void next_update(wexec *x, unsigned i)
{
    const wx_warp *w = &x->warps[i];
    wx_next *n = &x->next[i];
    if (!w->live || simt_done(&w->w.st)) {
        n->func = WX_NO_NEXT;
        return;
    }
    const simt_entry *t = simt_top(&w->w.st);
    n->func = t->func;
    n->pc = t->pc;
}

/* ---- the engine's hooks ------------------------------------------------------------------------- */
static void load_deferred(void *ctx, ws_warp *w, const ws_load *pl)
{
    (void)ctx;
    g_array_append_vals(((wx_warp *)w)->ploads, pl, 1);
}

static fmem_seg spu_cb(void *ctx, unsigned dir)
{
    wexec *x = ctx;
    fmem_seg s = {0};
    if (x->env->spu) /* none on a machine without SPU (the testbench refuses such a kernel first) */
        s.data = x->env->spu->cb(x->env->spu_self, x->sm_id, dir, &s.size);
    return s;
}

static const uint32_t *spu_sregs(void *ctx)
{
    wexec *x = ctx;
    return x->env->spu ? x->env->spu->sregs(x->env->spu_self, x->sm_id) : NULL;
}

static void hooked_before(void *ctx, ws_warp *w, uint32_t func, uint32_t pc, const ir_instr *in,
                          uint32_t mask);
static void hooked_after(void *ctx, ws_warp *w, const ir_instr *in, const ws_info *info);

static const ws_ops plain_ops = {.load_deferred = load_deferred, .cb = spu_cb, .spu_sregs = spu_sregs};
static const ws_ops hooked_ops = {.load_deferred = load_deferred,
                                  .before = hooked_before,
                                  .after = hooked_after,
                                  .cb = spu_cb,
                                  .spu_sregs = spu_sregs};

wexec *wexec_new(sm_env *env, unsigned sm_id, unsigned max_warps, unsigned max_ctas)
{
    g_assert(max_warps <= SM_MAX_WARPS && max_ctas <= SM_MAX_CTAS);
    wexec *x = g_new0(wexec, 1);
    x->env = env;
    x->sm_id = sm_id;
    x->max_warps = max_warps;
    x->max_ctas = max_ctas;
    x->warps = g_new0(wx_warp, max_warps);
    x->next = g_new(wx_next, max_warps);
    for (unsigned i = 0; i < max_warps; i++)
        x->next[i].func = WX_NO_NEXT;
    x->ctas = g_new0(wx_cta, max_ctas);
    const kload_module *k = env->k;
    /* The warps' register arrays in one block, each a whole number of cache lines from a line
     * boundary: a row (128 or 256 bytes, at a multiple of 128 in its array) is then two or four
     * lines, not three or five, and the lines an SM's warps use are together. */
    size_t line_words = 64 / sizeof(uint64_t);
    size_t warp_words = MAX((k->warp_words + line_words - 1) / line_words, 1) * line_words;
    x->regs = g_aligned_alloc0(max_warps, warp_words * sizeof(uint64_t), 64);
    for (unsigned i = 0; i < max_warps; i++) {
        x->warps[i].w.regs = x->regs + i * warp_words;
        x->warps[i].w.local = g_malloc0(IR_WARP_SIZE * k->local_bytes + 1);
        x->warps[i].w.cparam = g_malloc0(IR_WARP_SIZE * k->cparam_bytes + 1);
        x->warps[i].ploads = g_array_new(FALSE, FALSE, sizeof(ws_load));
    }
    if (!env->prog_users) {
        env->prog = ws_prog_new(env->mod, true);
        env->prog_mod = env->mod;
    }
    if (env->prog_mod == env->mod) {
        env->prog_users++;
        x->prog = env->prog;
    } else {
        x->prog = ws_prog_new(env->mod, true);
    }
    g_snprintf(x->where, sizeof x->where, "on SM %u", sm_id);
    x->L = (ws_launch){.prog = x->prog,
                       .mod = env->mod,
                       .k = k,
                       .where = x->where,
                       .ops = &plain_ops,
                       .ctx = x,
                       .blocksync_bar = SM_BLOCKSYNC_BAR};
    x->values = regval_chain_new();
    return x;
}

unsigned wexec_add_value_hook(wexec *x, const char *name, regval_fn fn, void *ctx)
{
    x->hooked = true;
    x->L.ops = &hooked_ops;
    return regval_chain_add(x->values, name, fn, ctx);
}

const regval_chain *wexec_value_hooks(const wexec *x)
{
    return x->values;
}

/* Runs the value hooks on one access of warp `warp`'s register `slot` (REGVAL_NONE: the warp). */
static void value_access(wexec *x, regval_kind kind, unsigned warp, uint32_t slot, uint32_t func, uint32_t pc,
                         uint32_t lanes, uint64_t cycle)
{
    uint64_t *regs = x->warps[warp].w.regs;
    uint32_t at = slot == REGVAL_NONE ? 0 : x->env->k->slot_at[slot];
    /* The hooks see (and may change) the register's lanes as 64-bit values: a narrow row through a
     * view (wx_view), its changes kept to 32 bits. */
    wx_view view, *seen = NULL;
    if (slot != REGVAL_NONE && (at & 1)) {
        seen = view_of(x, warp, at);
        if (!seen) {
            view.warp = warp;
            view.at = at;
            kload_reg_read_all(regs, at, view.v);
            memcpy(view.orig, view.v, sizeof view.v);
            view.outer = x->view;
            x->view = &view;
        }
    }
    regval_access a = {.kind = kind,
                       .warp = warp,
                       .slot = slot,
                       .func = func,
                       .pc = pc,
                       .lanes = lanes,
                       .cycle = cycle,
                       .v = slot == REGVAL_NONE ? NULL : (at & 1) ? (seen ? seen->v : view.v) : regs + (at >> 1)};
    regval_run(x->values, &a);
    if (slot != REGVAL_NONE && (at & 1) && !seen) {
        x->view = view.outer;
        for (unsigned l = 0; l < IR_WARP_SIZE; l++)
            if (view.v[l] != view.orig[l])
                kload_reg_set(regs, at, l, view.v[l]);
    }
    if (kind == REGVAL_READ || kind == REGVAL_WRITE || kind == REGVAL_ALLOC)
        x->warps[warp].quiet = kind != REGVAL_ALLOC && a.quiet;
}

void wexec_free(wexec *x)
{
    if (!x)
        return;
    for (unsigned i = 0; i < x->max_warps; i++) {
        simt_release(&x->warps[i].w.st);
        g_free(x->warps[i].w.local);
        g_free(x->warps[i].w.cparam);
        g_array_free(x->warps[i].ploads, TRUE);
    }
    g_aligned_free(x->regs);
    for (unsigned c = 0; c < x->max_ctas; c++)
        g_free(x->ctas[c].ws.shared.data);
    if (x->prog != x->env->prog) {
        ws_prog_free(x->prog);
    } else if (!--x->env->prog_users) {
        ws_prog_free(x->env->prog);
        x->env->prog = NULL;
    }
    regval_chain_free(x->values);
    g_free(x->warps);
    g_free(x->next);
    g_free(x->ctas);
    g_free(x);
}

/* The engine's view of the launch in env (the testbench sets it before a grid's CTAs start). */
static void launch_view(wexec *x)
{
    const sm_env *env = x->env;
    const sm_launch *l = &env->launch;
    ws_launch *L = &x->L;
    L->mem = env->mem;
    L->err = env->error;
    L->entry = l->entry;
    L->kparam = (fmem_seg){.data = l->kparam, .size = l->kparam_bytes};
    L->sreg = (frun_sreg_ctx){.nwarpid = x->max_warps, /* the SM's warp slots */
                              .warp_size = env->warp_size,
                              .smid = x->sm_id,
                              .nsmid = env->n_sms,
                              .gridid = l->kernel_no,
                              .dyn_smem = l->shared_dyn};
    for (unsigned i = 0; i < 3; i++) {
        L->block[i] = L->sreg.block[i] = l->block[i];
        L->sreg.grid[i] = l->grid[i];
    }
    ws_launch_reset_cache(L);
}

void wexec_cta_start(wexec *x, const cta_launch_t *c, uint64_t cycle)
{
    g_assert(c->slot < x->max_ctas && c->first_warp + c->warps <= x->max_warps);
    const sm_launch *L = &x->env->launch;
    const kload_module *k = x->env->k;
    uint32_t entry = c->own_entry ? c->own_entry - 1 : L->entry;
    const kload_func *kf = &k->funcs[entry];
    wx_cta *ct = &x->ctas[c->slot];
    g_assert(!ct->live);
    launch_view(x);
    ct->live = true;
    ct->c = *c;
    ct->own = c->own_entry != 0;
    if (ct->own) { /* its own entry, parameters and shape (one dimension), in a grid of one */
        ct->L = x->L;
        ct->L.entry = entry;
        if (c->own_mod)
            ct->L.mod = c->own_mod;
        ct->L.kparam = (fmem_seg){.data = (uint8_t *)c->own_kparam, .size = c->own_kparam_bytes};
        for (unsigned i = 0; i < 3; i++) {
            ct->L.block[i] = ct->L.sreg.block[i] = i ? 1 : c->threads;
            ct->L.sreg.grid[i] = 1;
        }
        ct->L.sreg.dyn_smem = 0;
        ws_launch_reset_cache(&ct->L);
    }
    uint64_t shared = kf->shared_static;
    if (L->shared_dyn && !ct->own)
        shared = kf->dyn_shared_offset + L->shared_dyn;
    g_free(ct->ws.shared.data);
    ct->ws.shared = (fmem_seg){.data = g_malloc0(shared ? shared : 1), .size = shared};
    ct->ws.nwarps = c->warps;
    for (unsigned i = 0; i < 3; i++)
        ct->ws.ctaid[i] = c->ctaid[i];
    for (unsigned i = 0; i < c->warps; i++) {
        wx_warp *w = &x->warps[c->first_warp + i];
        g_assert(!w->present);
        w->present = w->live = true;
        w->cta = c->slot;
        w->L = ct->own ? &ct->L : &x->L;
        w->w.id = i;
        w->w.cta = &ct->ws;
        w->w.cc = 0;
        g_array_set_size(w->ploads, 0);
        memset(w->w.regs, 0, k->warp_words * sizeof(uint64_t));
        memset(w->w.local, 0, IR_WARP_SIZE * k->local_bytes);
        memset(w->w.cparam, 0, IR_WARP_SIZE * k->cparam_bytes);
        unsigned ws = sm_env_warp_size(x->env);
        uint32_t left = c->threads - i * ws;
        uint32_t n = MIN(left, ws);
        uint32_t valid = n >= IR_WARP_SIZE ? FULL_MASK : (UINT32_C(1) << n) - 1;
        simt_init(&w->w.st, entry, 0, valid);
        next_update(x, c->first_warp + i);
        if (G_UNLIKELY(x->hooked))
            value_access(x, REGVAL_ALLOC, c->first_warp + i, REGVAL_NONE, REGVAL_NONE, REGVAL_NONE, valid,
                         cycle);
    }
}

void wexec_cta_end(wexec *x, unsigned slot, uint64_t cycle)
{
    wx_cta *ct = &x->ctas[slot];
    g_assert(ct->live);
    uint64_t n = x->env->k->warp_words;
    for (unsigned i = 0; i < ct->c.warps; i++) {
        wx_warp *w = &x->warps[ct->c.first_warp + i];
        w->present = w->live = false;
        x->next[ct->c.first_warp + i].func = WX_NO_NEXT;
        const uint64_t poison = WX_POISON; /* the registers are freed: poisoned (WX_POISON) */
        for (uint64_t r = 0; r < n; r++) /* (byte copies: a narrow row's lanes read 0xDEADBEEF) */
            memcpy(&w->w.regs[r], &poison, sizeof poison);
        if (G_UNLIKELY(x->hooked))
            value_access(x, REGVAL_FREE, ct->c.first_warp + i, REGVAL_NONE, REGVAL_NONE, REGVAL_NONE,
                         FULL_MASK, cycle);
    }
    ct->live = false;
}

bool wexec_warp_next(const wexec *x, unsigned warp, uint32_t *func, uint32_t *pc)
{
    const wx_next *n = &x->next[warp];
    if (n->func == WX_NO_NEXT)
        return false;
    *func = n->func;
    *pc = n->pc;
    return true;
}

uint32_t wexec_head_shared(const wexec *x, unsigned warp, uint64_t off[IR_WARP_SIZE])
{
    wx_warp *w = &x->warps[warp];
    return w->live ? ws_head_shared(w->L, &w->w, off) : 0;
}

bool wexec_warp_live(const wexec *x, unsigned warp)
{
    return x->next[warp].func != WX_NO_NEXT;
}

unsigned wexec_warp_cta(const wexec *x, unsigned warp)
{
    return x->warps[warp].cta;
}

unsigned wexec_warp_in_cta(const wexec *x, unsigned warp)
{
    return x->warps[warp].w.id;
}

const uint32_t *wexec_warp_ctaid(const wexec *x, unsigned warp)
{
    return x->warps[warp].w.cta->ctaid;
}

uint32_t wexec_warp_active_lanes(const wexec *x, unsigned warp)
{
    const wx_warp *w = &x->warps[warp];
    return w->live && !simt_done(&w->w.st) ? simt_top(&w->w.st)->mask : 0;
}

/* ---- registers an instruction reads and writes ---------------------------------------------- */
static void add_reg(uint16_t *v, uint16_t *n, unsigned cap, uint32_t slot)
{
    for (unsigned i = 0; i < *n; i++)
        if (v[i] == slot)
            return;
    if (*n < cap) {
        g_assert(slot < SM_NO_REG);
        v[(*n)++] = (uint16_t)slot;
    }
}

static void opnd_regs(uint32_t base, const ir_operand *o, uint16_t *v, uint16_t *n, unsigned cap)
{
    switch ((ir_opnd_kind)o->kind) {
    case IR_OPND_REG:
        add_reg(v, n, cap, base + o->u.reg);
        break;
    case IR_OPND_MEM:
        if (o->u.mem.base_reg != IR_NONE)
            add_reg(v, n, cap, base + o->u.mem.base_reg);
        break;
    case IR_OPND_VEC:
        for (unsigned e = 0; e < o->comp && e < 4; e++)
            if (o->u.vec_regs[e] != IR_NONE)
                add_reg(v, n, cap, base + o->u.vec_regs[e]);
        break;
    default:
        break;
    }
}

/* The guard, when there is one, is src[0]. */
static void instr_regs(const kload_module *k, uint32_t func, const ir_instr *in, uint16_t *src,
                       uint16_t *n_src, unsigned src_cap, uint16_t *dst, uint16_t *n_dst, unsigned dst_cap)
{
    uint32_t base = k->funcs[func].reg_base;
    *n_src = *n_dst = 0;
    if (in->guard != IR_NONE)
        add_reg(src, n_src, src_cap, base + in->guard);
    for (unsigned j = 0; j < in->n_src; j++)
        opnd_regs(base, &in->src[j], src, n_src, src_cap);
    for (unsigned j = 0; j < in->n_dst; j++) {
        if (in->dst[j].kind == IR_OPND_MEM) /* st/red [addr]: the address register is read */
            opnd_regs(base, &in->dst[j], src, n_src, src_cap);
        else
            opnd_regs(base, &in->dst[j], dst, n_dst, dst_cap);
    }
}

void wexec_instr_regs(const kload_module *k, uint32_t func, const ir_instr *in, uint16_t *src,
                      uint16_t *n_src, uint16_t *dst, uint16_t *n_dst)
{
    instr_regs(k, func, in, src, n_src, SM_MAX_OPERANDS, dst, n_dst, IR_MAX_DST + 2);
}

static void bank_add(uint16_t *v, uint8_t *n, unsigned cap, uint32_t r)
{
    for (unsigned i = 0; i < *n; i++)
        if (v[i] == r)
            return;
    if (*n < cap)
        v[(*n)++] = (uint16_t)r;
}

static void bank_reg(const ir_func *f, uint32_t base, uint32_t reg, uint16_t *v, uint8_t *n, unsigned cap)
{
    if (reg == IR_NONE || !f->regs || reg >= f->regs->len)
        return;
    const ir_reg *r = &g_array_index(f->regs, ir_reg, reg);
    unsigned units = regalloc_units((ir_type)r->type);
    if (units == 0)
        return; /* a predicate: its own file */
    if (r->phys == IR_NONE) {
        bank_add(v, n, cap, base + reg);
        return;
    }
    for (unsigned u = 0; u < units; u++)
        bank_add(v, n, cap, r->phys + u);
}

static void bank_opnd(const ir_func *f, uint32_t base, const ir_operand *o, uint16_t *v, uint8_t *n,
                      unsigned cap)
{
    switch ((ir_opnd_kind)o->kind) {
    case IR_OPND_REG:
        bank_reg(f, base, o->u.reg, v, n, cap);
        break;
    case IR_OPND_MEM:
        bank_reg(f, base, o->u.mem.base_reg, v, n, cap);
        break;
    case IR_OPND_VEC:
        for (unsigned e = 0; e < o->comp && e < 4; e++)
            bank_reg(f, base, o->u.vec_regs[e], v, n, cap);
        break;
    default:
        break;
    }
}

void wexec_instr_bank_regs(const ir_module *m, const kload_module *k, uint32_t func, const ir_instr *in,
                           uint16_t *src, uint8_t *n_src, uint16_t *dst, uint8_t *n_dst)
{
    const ir_func *f = g_ptr_array_index(m->funcs, func);
    uint32_t base = k->funcs[func].reg_base;
    *n_src = *n_dst = 0;
    for (unsigned j = 0; j < in->n_src; j++)
        bank_opnd(f, base, &in->src[j], src, n_src, SM_MAX_BANK_READS);
    for (unsigned j = 0; j < in->n_dst; j++) {
        if (in->dst[j].kind == IR_OPND_MEM)
            bank_opnd(f, base, &in->dst[j], src, n_src, SM_MAX_BANK_READS);
        else
            bank_opnd(f, base, &in->dst[j], dst, n_dst, SM_MAX_BANK_WRITES);
    }
}

/* ---- the register value path with hooks (regval.h) ------------------------------------------ */
#define WX_MAX_READS  (1 + (IR_MAX_SRC + IR_MAX_DST) * 4) /* the guard and every operand a 4-vector */
#define WX_MAX_WRITES (IR_MAX_DST * 4)

/* Before the instruction executes, its reads: decode's list (instr_regs), the guard for the lanes of
 * the SIMT mask, the others for the lanes whose guard (as the hooks left it) holds. */
static void hooked_before(void *ctx, ws_warp *w, uint32_t func, uint32_t pc, const ir_instr *in,
                          uint32_t mask)
{
    wexec *x = ctx;
    if (((const wx_warp *)w)->quiet)
        return;
    unsigned wid = warp_index(x, w);
    uint64_t clock = x->L.clock;
    uint16_t src[WX_MAX_READS], dst[WX_MAX_WRITES], n_src, n_dst;
    instr_regs(x->env->k, func, in, src, &n_src, WX_MAX_READS, dst, &n_dst, WX_MAX_WRITES);
    uint32_t active = mask;
    unsigned i = 0;
    if (in->guard != IR_NONE) {
        value_access(x, REGVAL_READ, wid, src[0], func, pc, mask, clock);
        uint64_t p[IR_WARP_SIZE];
        kload_reg_read_all(w->regs, x->env->k->slot_at[src[0]], p);
        active = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if ((p[l] != 0) != (in->guard_neg != 0))
                active |= UINT32_C(1) << l;
        }
        i = 1;
    }
    for (; i < n_src && !x->warps[wid].quiet; i++)
        value_access(x, REGVAL_READ, wid, src[i], func, pc, active, clock);
}

/* After the instruction executed, the writes the engine made at once: an ALU instruction's register
 * destinations (a vector's elements for mov) in the active lanes; a load's destinations and an
 * atomic's in the lanes not left for later (wexec_complete_load, wexec_write_slot). */
static void hooked_after(void *ctx, ws_warp *w, const ir_instr *in, const ws_info *info)
{
    wexec *x = ctx;
    if (((const wx_warp *)w)->quiet)
        return;
    uint32_t base = x->env->k->funcs[info->func].reg_base;
    uint16_t v[WX_MAX_WRITES], n = 0;
    uint32_t lanes = 0;
    if (info->kind == WS_ALU) {
        lanes = info->active;
        for (unsigned j = 0; j < in->n_dst; j++)
            if (in->dst[j].kind == IR_OPND_REG || (in->dst[j].kind == IR_OPND_VEC && in->op == IR_OP_MOV))
                opnd_regs(base, &in->dst[j], v, &n, WX_MAX_WRITES);
    } else if (info->kind == WS_MEM && info->mem_kind == WS_MEM_LOAD) {
        lanes = info->active & ~info->load_defer;
        opnd_regs(base, &in->dst[0], v, &n, WX_MAX_WRITES);
    } else if (info->kind == WS_MEM && info->mem_kind == WS_MEM_ATOM && info->active) {
        lanes = info->active & ~info->atom_defer;
        if (info->atom_dst != SM_NO_REG)
            v[n++] = info->atom_dst;
    }
    if (lanes == 0)
        return;
    for (unsigned i = 0; i < n && !((const wx_warp *)w)->quiet; i++)
        value_access(x, REGVAL_WRITE, warp_index(x, w), v[i], info->func, info->pc, lanes, x->L.clock);
}

int wexec_step(wexec *x, unsigned warp, uint64_t clock, uint64_t seq, ws_info *info)
{
    wx_warp *w = &x->warps[warp];
    g_assert(w->live && !simt_done(&w->w.st));
    ws_launch *L = w->L;
    L->clock = x->L.clock = clock; /* (the value hooks read the SM's) */
    int failed = ws_step(L, &w->w, seq, info);
    if (failed)
        x->env->failed = true;
    else if (simt_done(&w->w.st))
        w->live = false;
    next_update(x, warp);
    return failed;
}

/* The writes of a load's data that returned: one per distinct destination register. */
static void complete_load_hooks(wexec *x, unsigned warp, const ws_load *pl, uint64_t cycle)
{
    for (unsigned e = 0; e < pl->nv && !x->warps[warp].quiet; e++) {
        bool seen = pl->slot[e] == IR_NONE;
        for (unsigned f = 0; f < e && !seen; f++)
            seen = pl->slot[f] == pl->slot[e];
        if (!seen)
            value_access(x, REGVAL_WRITE, warp, pl->slot[e], REGVAL_NONE, REGVAL_NONE, pl->mask, cycle);
    }
}

bool wexec_complete_load(wexec *x, unsigned warp, uint64_t seq, uint64_t cycle)
{
    wx_warp *w = &x->warps[warp];
    for (guint i = 0; i < w->ploads->len; i++) {
        const ws_load *pl = &g_array_index(w->ploads, ws_load, i);
        if (pl->seq != seq)
            continue;
        ws_load_apply(pl, w->w.regs);
        if (G_UNLIKELY(x->hooked) && !w->quiet)
            complete_load_hooks(x, warp, pl, cycle);
        g_array_remove_index_fast(w->ploads, i); /* the list's order does not matter: seq is unique */
        return true;
    }
    return false;
}

void wexec_write_slot(wexec *x, unsigned warp, unsigned slot, uint32_t mask, const uint64_t *vals,
                      uint64_t vmask, uint64_t cycle)
{
    wx_warp *w = &x->warps[warp];
    g_assert(slot < x->env->k->total_regs);
    uint32_t at = x->env->k->slot_at[slot];
    wx_view *v = G_UNLIKELY(x->view) ? view_of(x, warp, at) : NULL;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        kload_reg_set(w->w.regs, at, l, vals[l] & vmask);
        if (v) /* a hook running on this register sees the write */
            v->v[l] = v->orig[l] = kload_reg_get(w->w.regs, at, l);
    }
    if (G_UNLIKELY(x->hooked) && mask && !w->quiet)
        value_access(x, REGVAL_WRITE, warp, slot, REGVAL_NONE, REGVAL_NONE, mask, cycle);
}

void wexec_prefetch_slot(const wexec *x, unsigned warp, unsigned slot)
{
    if (warp >= x->max_warps || slot >= x->env->k->total_regs)
        return;
    uint32_t at = x->env->k->slot_at[slot];
    const uint64_t *row = x->warps[warp].w.regs + (at >> 1);
    gsc_prefetch_next(row);
    gsc_prefetch_next(row + 8); /* (a row is two lines, or four when wide: its first lanes) */
}

uint64_t wexec_read_slot(const wexec *x, unsigned warp, unsigned slot, unsigned lane)
{
    g_assert(warp < x->max_warps && slot < x->env->k->total_regs && lane < IR_WARP_SIZE);
    uint32_t at = x->env->k->slot_at[slot];
    const wx_view *v = G_UNLIKELY(x->view) ? view_of(x, warp, at) : NULL;
    return v ? (uint32_t)v->v[lane] : kload_reg_get(x->warps[warp].w.regs, at, lane);
}

void wexec_dump_warp(const wexec *x, unsigned warp, GString *out)
{
    const wx_warp *w = &x->warps[warp];
    g_string_append_printf(out, "warp %u (cta slot %u, warp %u of its block)", warp, w->cta, w->w.id);
    if (!w->live || simt_done(&w->w.st)) {
        g_string_append(out, ": finished\n");
        return;
    }
    const simt_entry *t = simt_top(&w->w.st);
    const ir_func *f = g_ptr_array_index(x->env->mod->funcs, t->func);
    g_string_append_printf(out, ": pc %u", t->pc);
    if (t->pc < ir_func_n_instrs(f)) {
        g_string_append_printf(out, " (line %u `", ir_func_instr(f, t->pc)->line);
        ir_print_instr(out, x->env->mod, f, ir_func_instr(f, t->pc));
        g_string_append(out, "`)");
    }
    g_string_append_c(out, '\n');
    simt_dump(&w->w.st, out, "      ");
}
