/* warp_exec.c — see warp_exec.h. The instruction semantics mirror kernels/frun.c kind by kind; a
 * difference between the two is a bug here. */
#include "models/sm/warp_exec.h"

#include <string.h>

#include "kernels/frun.h"
#include "kernels/ir_exec.h"
#include "kernels/regalloc.h"

#define FULL_MASK 0xffffffffu

/* A load whose global/local/const lanes read the image when the data returns (wexec_complete_load). */
typedef struct {
    uint64_t seq;
    uint32_t mask;
    uint8_t type, nv, es;
    uint32_t slot[4]; /* destination register slot per element, IR_NONE for a sink */
    uint64_t vmask[4];
    const uint8_t *ptr[IR_WARP_SIZE];
} wx_pload;

typedef struct {
    bool live;    /* a CTA's warp that has not finished */
    bool present; /* belongs to a resident CTA */
    uint16_t cta; /* CTA slot */
    uint32_t in_cta;
    uint32_t cc; /* carry flag per lane */
    simt_stack st;
    uint64_t *regs;  /* total_regs x 32 lanes */
    uint8_t *local;  /* 32 lanes x local_bytes */
    uint8_t *cparam; /* 32 lanes x cparam_bytes */
    GArray *ploads;  /* wx_pload: loads in flight */
} wx_warp;

typedef struct {
    bool live;
    cta_launch_t c;
    fmem_seg shared;
} wx_cta;

struct wexec {
    sm_env *env;
    unsigned sm_id, max_warps, max_ctas;
    wx_warp *warps;
    wx_cta *ctas;
    uint64_t **reg_mask;  /* per function, per virtual register: value mask of its declared type */
    regval_chain *values; /* the register value path's hooks */
    bool hooked;          /* values has a hook: the only test the baseline pays */
};

static uint64_t type_mask(ir_type t)
{
    unsigned b = ir_type_bits(t);
    if (b == 0 || b >= 64)
        return UINT64_MAX;
    return (UINT64_C(1) << b) - 1;
}

wexec *wexec_new(sm_env *env, unsigned sm_id, unsigned max_warps, unsigned max_ctas)
{
    g_assert(max_warps <= SM_MAX_WARPS && max_ctas <= SM_MAX_CTAS);
    wexec *x = g_new0(wexec, 1);
    x->env = env;
    x->sm_id = sm_id;
    x->max_warps = max_warps;
    x->max_ctas = max_ctas;
    x->warps = g_new0(wx_warp, max_warps);
    x->ctas = g_new0(wx_cta, max_ctas);
    const kload_module *k = env->k;
    for (unsigned i = 0; i < max_warps; i++) {
        x->warps[i].regs = g_new0(uint64_t, (uint64_t)k->total_regs * IR_WARP_SIZE + 1);
        x->warps[i].local = g_malloc0(IR_WARP_SIZE * k->local_bytes + 1);
        x->warps[i].cparam = g_malloc0(IR_WARP_SIZE * k->cparam_bytes + 1);
        x->warps[i].ploads = g_array_new(FALSE, FALSE, sizeof(wx_pload));
    }
    const ir_module *m = env->mod;
    x->reg_mask = g_new0(uint64_t *, m->funcs->len + 1);
    for (guint f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        guint nr = fn->regs ? fn->regs->len : 0;
        x->reg_mask[f] = g_new(uint64_t, nr + 1);
        for (guint r = 0; r < nr; r++)
            x->reg_mask[f][r] = type_mask(g_array_index(fn->regs, ir_reg, r).type);
    }
    x->values = regval_chain_new();
    return x;
}

unsigned wexec_add_value_hook(wexec *x, const char *name, regval_fn fn, void *ctx)
{
    x->hooked = true;
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
    regval_access a = {.kind = kind,
                       .warp = warp,
                       .slot = slot,
                       .func = func,
                       .pc = pc,
                       .lanes = lanes,
                       .cycle = cycle,
                       .v = slot == REGVAL_NONE ? NULL : &x->warps[warp].regs[(uint64_t)slot * IR_WARP_SIZE]};
    regval_run(x->values, &a);
}

void wexec_free(wexec *x)
{
    if (!x)
        return;
    for (unsigned i = 0; i < x->max_warps; i++) {
        simt_release(&x->warps[i].st);
        g_free(x->warps[i].regs);
        g_free(x->warps[i].local);
        g_free(x->warps[i].cparam);
        g_array_free(x->warps[i].ploads, TRUE);
    }
    for (unsigned c = 0; c < x->max_ctas; c++)
        g_free(x->ctas[c].shared.data);
    for (guint f = 0; f < x->env->mod->funcs->len; f++)
        g_free(x->reg_mask[f]);
    g_free(x->reg_mask);
    regval_chain_free(x->values);
    g_free(x->warps);
    g_free(x->ctas);
    g_free(x);
}

void wexec_cta_start(wexec *x, const cta_launch_t *c, uint64_t cycle)
{
    g_assert(c->slot < x->max_ctas && c->first_warp + c->warps <= x->max_warps);
    const sm_launch *L = &x->env->launch;
    const kload_module *k = x->env->k;
    const kload_func *kf = &k->funcs[L->entry];
    wx_cta *ct = &x->ctas[c->slot];
    g_assert(!ct->live);
    ct->live = true;
    ct->c = *c;
    uint64_t shared = kf->shared_static;
    if (L->shared_dyn)
        shared = kf->dyn_shared_offset + L->shared_dyn;
    g_free(ct->shared.data);
    ct->shared = (fmem_seg){.data = g_malloc0(shared ? shared : 1), .size = shared};
    for (unsigned i = 0; i < c->warps; i++) {
        wx_warp *w = &x->warps[c->first_warp + i];
        g_assert(!w->present);
        w->present = w->live = true;
        w->cta = c->slot;
        w->in_cta = i;
        w->cc = 0;
        g_array_set_size(w->ploads, 0);
        memset(w->regs, 0, (uint64_t)k->total_regs * IR_WARP_SIZE * sizeof(uint64_t));
        memset(w->local, 0, IR_WARP_SIZE * k->local_bytes);
        memset(w->cparam, 0, IR_WARP_SIZE * k->cparam_bytes);
        uint32_t left = c->threads - i * IR_WARP_SIZE;
        uint32_t valid = left >= IR_WARP_SIZE ? FULL_MASK : (UINT32_C(1) << left) - 1;
        simt_init(&w->st, L->entry, 0, valid);
        if (G_UNLIKELY(x->hooked))
            value_access(x, REGVAL_ALLOC, c->first_warp + i, REGVAL_NONE, REGVAL_NONE, REGVAL_NONE, valid,
                         cycle);
    }
}

void wexec_cta_end(wexec *x, unsigned slot, uint64_t cycle)
{
    wx_cta *ct = &x->ctas[slot];
    g_assert(ct->live);
    uint64_t n = (uint64_t)x->env->k->total_regs * IR_WARP_SIZE;
    for (unsigned i = 0; i < ct->c.warps; i++) {
        wx_warp *w = &x->warps[ct->c.first_warp + i];
        w->present = w->live = false;
        for (uint64_t r = 0; r < n; r++) /* the registers are freed: poisoned (WX_POISON) */
            w->regs[r] = WX_POISON;
        if (G_UNLIKELY(x->hooked))
            value_access(x, REGVAL_FREE, ct->c.first_warp + i, REGVAL_NONE, REGVAL_NONE, REGVAL_NONE,
                         FULL_MASK, cycle);
    }
    ct->live = false;
}

bool wexec_warp_next(const wexec *x, unsigned warp, uint32_t *func, uint32_t *pc)
{
    const wx_warp *w = &x->warps[warp];
    if (!w->live || simt_done(&w->st))
        return false;
    const simt_entry *t = simt_top(&w->st);
    *func = t->func;
    *pc = t->pc;
    return true;
}

bool wexec_warp_live(const wexec *x, unsigned warp)
{
    return x->warps[warp].live && !simt_done(&x->warps[warp].st);
}

unsigned wexec_warp_cta(const wexec *x, unsigned warp)
{
    return x->warps[warp].cta;
}

unsigned wexec_warp_in_cta(const wexec *x, unsigned warp)
{
    return x->warps[warp].in_cta;
}

uint32_t wexec_warp_active_lanes(const wexec *x, unsigned warp)
{
    const wx_warp *w = &x->warps[warp];
    return w->live && !simt_done(&w->st) ? simt_top(&w->st)->mask : 0;
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

/* ---- execution ------------------------------------------------------------------------------ */
typedef struct {
    wexec *x;
    wx_warp *w;
    unsigned wid;
    uint32_t func, pc;
    const ir_func *f;
    const ir_instr *in;
    uint64_t clock, seq;
} wx_run;

/* "kernel K: pc N (FILE:LINE `instr`) block (x,y,z) thread (x,y,z) on SM S: " for fail and warnings. */
static void site_prefix(wx_run *r, int lane, GString *e)
{
    sm_env *env = r->x->env;
    const ir_func *kf = g_ptr_array_index(env->mod->funcs, env->launch.entry);
    const cta_launch_t *c = &r->x->ctas[r->w->cta].c;
    g_string_append_printf(e, "kernel %s: ", kf->name);
    if (r->func != env->launch.entry)
        g_string_append_printf(e, "in .func %s: ", r->f->name);
    if (r->in) {
        g_string_append_printf(e, "pc %u (%s:%u `", r->pc, env->mod->filename ? env->mod->filename : "?",
                               r->in->line);
        ir_print_instr(e, env->mod, r->f, r->in);
        g_string_append(e, "`)");
    } else {
        g_string_append_printf(e, "pc %u (end of function)", r->pc);
    }
    g_string_append_printf(e, " block (%u,%u,%u)", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    if (lane >= 0) {
        const sm_launch *L = &env->launch;
        uint32_t lt = r->w->in_cta * IR_WARP_SIZE + (uint32_t)lane;
        g_string_append_printf(e, " thread (%u,%u,%u)", lt % L->block[0], lt / L->block[0] % L->block[1],
                               lt / (L->block[0] * L->block[1]));
    } else {
        g_string_append_printf(e, " warp %u", r->w->in_cta);
    }
    g_string_append_printf(e, " on SM %u: ", r->x->sm_id);
}

static int G_GNUC_PRINTF(3, 4) fail(wx_run *r, int lane, const char *fmt, ...)
{
    sm_env *env = r->x->env;
    GString *e = env->error;
    site_prefix(r, lane, e);
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(e, fmt, ap);
    va_end(ap);
    env->failed = true;
    return 1;
}

static inline uint64_t *reg_slot(const wx_run *r, uint32_t reg)
{
    return &r->w->regs[((uint64_t)r->x->env->k->funcs[r->func].reg_base + reg) * IR_WARP_SIZE];
}

static inline uint64_t reg_mask(const wx_run *r, uint32_t reg)
{
    return r->x->reg_mask[r->func][reg];
}

static uint64_t sreg(const wx_run *r, const ir_operand *o, uint32_t lane)
{
    const sm_env *env = r->x->env;
    const sm_launch *L = &env->launch;
    const cta_launch_t *c = &r->x->ctas[r->w->cta].c;
    frun_sreg_ctx s = {.warp = r->w->in_cta,
                       .nwarps = c->warps,
                       .nwarpid = r->x->max_warps, /* the SM's warp slots */
                       .smid = r->x->sm_id,
                       .nsmid = env->n_sms,
                       .gridid = L->kernel_no,
                       .clock = r->clock,
                       .dyn_smem = L->shared_dyn,
                       .total_smem = (uint32_t)r->x->ctas[r->w->cta].shared.size,
                       .spu = env->spu ? env->spu->sregs(env->spu_self, r->x->sm_id) : NULL};
    for (unsigned i = 0; i < 3; i++) {
        s.block[i] = L->block[i];
        s.grid[i] = L->grid[i];
        s.ctaid[i] = c->ctaid[i];
    }
    return frun_sreg_value(&s, (ir_sreg)o->u.sreg, o->comp < 3 ? o->comp : 0, lane);
}

static bool fetch(const wx_run *r, const ir_operand *o, ir_lanes *out)
{
    switch ((ir_opnd_kind)o->kind) {
    case IR_OPND_REG:
        memcpy(out->v, reg_slot(r, o->u.reg), sizeof out->v);
        return true;
    case IR_OPND_IMM:
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = o->u.imm;
        return true;
    case IR_OPND_SREG:
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = sreg(r, o, i);
        return true;
    case IR_OPND_ADDR: {
        uint64_t a = (o->u.mem.base_sym != IR_NONE
                          ? kload_sym_address(r->x->env->k, r->x->env->launch.entry, o->u.mem.base_sym)
                          : 0) +
                     (uint64_t)o->u.mem.offset;
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = a;
        return true;
    }
    default:
        return false;
    }
}

static void write_lanes(uint64_t *slot, const uint64_t *v, uint32_t mask, uint64_t vmask)
{
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        slot[l] = v[l] & vmask;
    }
}

static uint32_t pred_mask(const wx_run *r, uint32_t reg, bool neg, uint32_t mask)
{
    const uint64_t *p = reg_slot(r, reg);
    uint32_t out = 0;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        if ((p[l] != 0) != neg)
            out |= UINT32_C(1) << l;
    }
    return out;
}

/* What the lanes of one memory instruction see, built once per instruction (mem_lanes): the
 * address operand (base register row, or none, and the constant part), the thread's spaces, whose
 * local and cparam segments (the only per-lane ones) mem_lane_segs points at a lane's, and the
 * global region the last lane hit. */
typedef struct {
    const uint64_t *base; /* the address's base register, NULL: none */
    uint64_t off;         /* its offset, plus the base symbol's address */
    kload_spaces s;
    uint8_t *local0, *cparam0; /* lane 0's local and cparam segments */
    fmem_cache gc;
} wx_mem;

/* The communication buffer an ld.cb/st.cb reaches now (sm_env.h); none on a machine without SPU
 * (the testbench refuses such a kernel before it runs: this is a guard). */
static G_GNUC_NO_INLINE fmem_seg spu_cb_seg(const wx_run *r)
{
    const sm_env *env = r->x->env;
    fmem_seg s = {0};
    if (env->spu)
        s.data = env->spu->cb(env->spu_self, r->x->sm_id, r->in->cb & 0xfu, &s.size);
    return s;
}

static void mem_lanes(const wx_run *r, const ir_operand *m, wx_mem *wm)
{
    const sm_env *env = r->x->env;
    wm->base = NULL;
    wm->off = (uint64_t)m->u.mem.offset;
    if (m->u.mem.base_reg != IR_NONE)
        wm->base = reg_slot(r, m->u.mem.base_reg);
    else if (m->u.mem.base_sym != IR_NONE)
        wm->off += kload_sym_address(env->k, env->launch.entry, m->u.mem.base_sym);
    wm->local0 = r->w->local;
    wm->cparam0 = r->w->cparam;
    wm->s = (kload_spaces){
        .global = env->mem,
        .shared = r->x->ctas[r->w->cta].shared,
        .local = {.data = wm->local0, .size = env->k->local_bytes},
        .cparam = {.data = wm->cparam0, .size = env->k->cparam_bytes},
        .kparam = {.data = env->launch.kparam, .size = env->launch.kparam_bytes},
    };
    wm->gc = (fmem_cache){0};
    if (G_UNLIKELY(r->in->cb)) /* ld.cb/st.cb: the CB half of this phase, timed as shared memory */
        wm->s.shared = spu_cb_seg(r);
}

static inline void mem_lane_segs(wx_mem *wm, uint32_t lane)
{
    wm->s.local.data = wm->local0 + lane * wm->s.local.size;
    wm->s.cparam.data = wm->cparam0 + lane * wm->s.cparam.size;
}

/* What lane_access's fast path refused, checked as ever: a misaligned access, else kload_resolve
 * with the reason, reported. Its answer is NULL but for a 0-byte access (which no instruction makes)
 * at a nonzero address, which the fast path's alignment test sends here too. */
static G_GNUC_NO_INLINE uint8_t *lane_access_slow(wx_run *r, wx_mem *wm, uint32_t lane, uint64_t addr,
                                                  uint64_t len, bool write)
{
    ir_space space = (ir_space)r->in->space;
    const char *label = space == IR_SPACE_NONE ? "generic" : ir_space_name(space);
    if (len > 1 && (addr & (len - 1)) != 0) {
        fail(r, (int)lane,
             "misaligned %s %s of %" G_GUINT64_FORMAT " bytes at address 0x%" G_GINT64_MODIFIER "x", label,
             ir_access_kind(r->in, write), len, addr);
        return NULL;
    }
    mem_lane_segs(wm, lane);
    GString *why = g_string_new(NULL);
    uint8_t *p = kload_resolve(&wm->s, space, addr, len, write, why);
    if (!p && fmem_get_check(wm->s.global) == FMEM_CHECK_WARN) {
        GString *where = g_string_new(NULL);
        p = kload_resolve_padding(&wm->s, space, addr, len, where);
        sm_env *env = r->x->env;
        if (p &&
            fmem_note_site(env->mem, (uint64_t)env->launch.entry << 48 | (uint64_t)r->func << 32 | r->pc)) {
            GString *w = g_string_new("gpusc: warning: ");
            site_prefix(r, (int)lane, w);
            g_string_append_printf(w,
                                   "out-of-bounds %s %s of %" G_GUINT64_FORMAT
                                   " bytes at 0x%" G_GINT64_MODIFIER
                                   "x: %s (--memcheck warn: reported once per instruction)\n",
                                   label, ir_access_kind(r->in, write), len, addr, where->str);
            fputs(w->str, stderr);
            g_string_free(w, TRUE);
        }
        g_string_free(where, TRUE);
    }
    if (!p)
        fail(r, (int)lane, "invalid %s %s: %s", label, ir_access_kind(r->in, write), why->str);
    g_string_free(why, TRUE);
    return p;
}

/* One lane's host pointer (checked: alignment, bounds, writability); records the lane's resolved
 * space and address for the timing model. The fast path is kload_resolve_cached on the space
 * already resolved; anything it refuses goes the slow way, which reports the failure. Inlined into
 * the lane loops of ld, st and atom: the call cost as much as the fast path. */
static inline __attribute__((always_inline)) uint8_t *lane_access(wx_run *r, wx_mem *wm, wx_info *info,
                                                                  uint32_t lane, uint64_t len, bool write)
{
    uint64_t addr = wm->off + (wm->base ? wm->base[lane] : 0);
    ir_space space = (ir_space)r->in->space;
    uint64_t sa = addr;
    ir_space rs = space == IR_SPACE_NONE ? kload_generic_resolve(addr, &sa) : space;
    info->lane_space[lane] = (uint8_t)rs;
    info->addr[lane] = sa;
    uint8_t *p = NULL;
    if (G_LIKELY((addr & (len - 1)) == 0)) { /* aligned (any address for len 1) */
        if (rs == IR_SPACE_LOCAL || rs == IR_SPACE_PARAM)
            mem_lane_segs(wm, lane);
        p = kload_resolve_cached(&wm->s, &wm->gc, rs, sa, len, write);
    }
    if (G_LIKELY(p != NULL))
        return p;
    return lane_access_slow(r, wm, lane, addr, len, write);
}

static int exec_ld(wx_run *r, wx_info *info, uint32_t active)
{
    const ir_instr *in = r->in;
    const ir_operand *m = &in->src[0], *d = &in->dst[0];
    unsigned nv = d->kind == IR_OPND_VEC ? d->comp : 1;
    uint64_t es = ir_type_bits((ir_type)in->type) / 8;
    if (es == 0 || es > 8)
        return fail(r, -1, "unsupported load type .%s", ir_type_name(in->type));
    info->bytes = (uint8_t)(es * nv);
    /* The pending load is filled in place at the end of the warp's list (no copy of it, and of ptr[]
     * only the lanes of mask are written) and dropped again if no lane is left for later. */
    GArray *pls = r->w->ploads;
    guint n_pls = pls->len;
    g_array_set_size(pls, n_pls + 1);
    wx_pload *pl = &g_array_index(pls, wx_pload, n_pls);
    pl->seq = r->seq;
    pl->type = in->type;
    pl->nv = (uint8_t)nv;
    pl->es = (uint8_t)es;
    for (unsigned e = 0; e < nv; e++) {
        uint32_t reg = d->kind == IR_OPND_VEC ? d->u.vec_regs[e] : d->u.reg;
        pl->slot[e] = reg == IR_NONE ? IR_NONE : r->x->env->k->funcs[r->func].reg_base + reg;
        pl->vmask[e] = reg == IR_NONE ? 0 : reg_mask(r, reg);
    }
    wx_mem wm;
    mem_lanes(r, m, &wm);
    uint32_t mask = active, defer = 0;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        const uint8_t *p = lane_access(r, &wm, info, l, es * nv, false);
        if (!p) {
            g_array_set_size(pls, n_pls);
            return 1;
        }
        uint8_t sp = info->lane_space[l];
        if (sp == IR_SPACE_GLOBAL || sp == IR_SPACE_LOCAL || sp == IR_SPACE_CONST) {
            defer |= UINT32_C(1) << l; /* read when the data returns */
            pl->ptr[l] = p;
            continue;
        }
        for (unsigned e = 0; e < nv; e++) {
            uint32_t reg = d->kind == IR_OPND_VEC ? d->u.vec_regs[e] : d->u.reg;
            if (reg != IR_NONE)
                reg_slot(r, reg)[l] = ir_exec_load_elem((ir_type)in->type, p + e * es) & reg_mask(r, reg);
        }
    }
    pl->mask = info->load_defer = defer;
    if (!defer)
        g_array_set_size(pls, n_pls);
    return 0;
}

/* The writes of a load's data that returned: one per distinct destination register. */
static void complete_load_hooks(wexec *x, unsigned warp, const wx_pload *pl, uint64_t cycle)
{
    for (unsigned e = 0; e < pl->nv; e++) {
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
        const wx_pload *pl = &g_array_index(w->ploads, wx_pload, i);
        if (pl->seq != seq)
            continue;
        for (unsigned e = 0; e < pl->nv; e++) {
            if (pl->slot[e] == IR_NONE)
                continue;
            uint64_t *row = &w->regs[(uint64_t)pl->slot[e] * IR_WARP_SIZE];
            for (uint32_t m = pl->mask; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                row[l] = ir_exec_load_elem((ir_type)pl->type, pl->ptr[l] + e * pl->es) & pl->vmask[e];
            }
        }
        if (G_UNLIKELY(x->hooked))
            complete_load_hooks(x, warp, pl, cycle);
        g_array_remove_index_fast(w->ploads, i); /* the list's order does not matter: seq is unique */
        return true;
    }
    return false;
}

static uint64_t store_elem(const wx_run *r, const ir_operand *v, unsigned e, uint32_t lane)
{
    if (v->kind == IR_OPND_VEC)
        return v->u.vec_regs[e] == IR_NONE ? 0 : reg_slot(r, v->u.vec_regs[e])[lane];
    if (v->kind == IR_OPND_REG)
        return reg_slot(r, v->u.reg)[lane];
    if (v->kind == IR_OPND_IMM)
        return v->u.imm;
    return 0;
}

static int exec_st(wx_run *r, wx_info *info, uint32_t active, bool mem_in_dst)
{
    const ir_instr *in = r->in;
    const ir_operand *m = mem_in_dst ? &in->dst[0] : &in->src[0];
    const ir_operand *v = mem_in_dst ? &in->src[0] : &in->src[1];
    unsigned nv = v->kind == IR_OPND_VEC ? v->comp : 1;
    uint64_t es = ir_type_bits((ir_type)in->type) / 8;
    if (es == 0 || es > 8)
        return fail(r, -1, "unsupported store type .%s", ir_type_name(in->type));
    ir_lanes sv;
    bool special = v->kind == IR_OPND_SREG || v->kind == IR_OPND_ADDR;
    if (special) {
        fetch(r, v, &sv);
        nv = 1;
    }
    info->bytes = (uint8_t)(es * nv);
    wx_mem wm;
    mem_lanes(r, m, &wm);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint8_t *p = lane_access(r, &wm, info, l, es * nv, true);
        if (!p)
            return 1;
        if (info->lane_space[l] == IR_SPACE_GLOBAL && es * nv <= WX_STORE_MAX) {
            p = info->store_data[l]; /* the L1 writes it when it performs the store */
            info->store_defer |= UINT32_C(1) << l;
        }
        for (unsigned e = 0; e < nv; e++)
            ir_exec_store_elem((ir_type)in->type, special ? sv.v[l] : store_elem(r, v, e, l), p + e * es);
    }
    return 0;
}

/* atom (returns the old value) and red: lane by lane in lane order, as frun. */
static int exec_atom(wx_run *r, wx_info *info, uint32_t active, bool is_red, bool mem_in_dst)
{
    const ir_instr *in = r->in;
    const ir_operand *m = is_red && mem_in_dst ? &in->dst[0] : &in->src[0];
    const ir_operand *b = is_red && mem_in_dst ? &in->src[0] : &in->src[1];
    const ir_operand *c = NULL;
    if (!is_red && in->n_src >= 3)
        c = &in->src[2];
    else if (is_red && mem_in_dst && in->n_src >= 2)
        c = &in->src[1];
    uint64_t es = ir_type_bits((ir_type)in->type) / 8;
    if (es != 4 && es != 8)
        return fail(r, -1, "unsupported atomic type .%s", ir_type_name(in->type));
    info->bytes = (uint8_t)es;
    ir_lanes bv, cv;
    if (!fetch(r, b, &bv) || (c && !fetch(r, c, &cv)))
        return fail(r, -1, "atomic operand is not a value");
    uint64_t *dslot = NULL;
    uint64_t dm = UINT64_MAX;
    info->atom_dst = SM_NO_REG;
    if (!is_red && in->dst[0].kind == IR_OPND_REG) {
        dslot = reg_slot(r, in->dst[0].u.reg);
        dm = reg_mask(r, in->dst[0].u.reg);
        info->atom_dst = (uint16_t)(r->x->env->k->funcs[r->func].reg_base + in->dst[0].u.reg);
    }
    info->atom_op = in->atom;
    info->atom_type = in->type;
    info->atom_flags = in->flags;
    info->atom_vmask = dm;
    wx_mem wm;
    mem_lanes(r, m, &wm);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint8_t *p = lane_access(r, &wm, info, l, es, true);
        if (!p)
            return 1;
        if (info->lane_space[l] == IR_SPACE_GLOBAL) { /* performed at the memory side */
            info->atom_defer |= UINT32_C(1) << l;
            info->atom_b[l] = bv.v[l];
            info->atom_c[l] = c ? cv.v[l] : 0;
            continue;
        }
        uint64_t old = ir_exec_load_value((ir_type)in->type, p);
        ir_exec_store_value((ir_type)in->type, ir_exec_atom(in, old, bv.v[l], c ? cv.v[l] : 0), p);
        if (dslot)
            dslot[l] = old & dm;
    }
    return 0;
}

static int exec_cvta(wx_run *r, uint32_t active)
{
    const ir_instr *in = r->in;
    ir_lanes v;
    if (in->n_src < 1 || in->n_dst < 1 || in->dst[0].kind != IR_OPND_REG || !fetch(r, &in->src[0], &v))
        return fail(r, -1, "malformed cvta");
    uint64_t base;
    if (!kload_cvta_base((ir_space)in->space, &base))
        return fail(r, -1, "cvta for .%s is not supported", ir_space_name(in->space));
    bool to = (in->flags & IR_F_TO) != 0;
    uint64_t tm = type_mask((ir_type)in->type);
    for (unsigned i = 0; i < IR_WARP_SIZE; i++)
        v.v[i] = (to ? v.v[i] - base : v.v[i] + base) & tm;
    write_lanes(reg_slot(r, in->dst[0].u.reg), v.v, active, reg_mask(r, in->dst[0].u.reg));
    return 0;
}

static int exec_mov_vec(wx_run *r, uint32_t active)
{
    const ir_instr *in = r->in;
    const ir_operand *d = &in->dst[0], *s = &in->src[0];
    unsigned bits = ir_type_bits((ir_type)in->type);
    if (d->kind == IR_OPND_VEC && s->kind == IR_OPND_VEC)
        return fail(r, -1, "mov between two vectors is not supported");
    const ir_operand *vec = d->kind == IR_OPND_VEC ? d : s;
    unsigned n = vec->comp;
    if (n == 0 || bits % n || bits > 64)
        return fail(r, -1, "malformed vector mov");
    unsigned eb = bits / n;
    uint64_t em = eb >= 64 ? UINT64_MAX : (UINT64_C(1) << eb) - 1;
    if (d->kind == IR_OPND_VEC) {
        ir_lanes v;
        if (!fetch(r, s, &v))
            return fail(r, -1, "malformed vector mov");
        for (unsigned e = 0; e < n; e++) {
            if (d->u.vec_regs[e] == IR_NONE)
                continue;
            ir_lanes part;
            for (unsigned i = 0; i < IR_WARP_SIZE; i++)
                part.v[i] = (v.v[i] >> (e * eb)) & em;
            write_lanes(reg_slot(r, d->u.vec_regs[e]), part.v, active, reg_mask(r, d->u.vec_regs[e]));
        }
        return 0;
    }
    if (d->kind != IR_OPND_REG)
        return fail(r, -1, "malformed vector mov");
    ir_lanes v = {{0}};
    for (unsigned e = 0; e < n; e++) {
        if (s->u.vec_regs[e] == IR_NONE)
            continue;
        const uint64_t *rs = reg_slot(r, s->u.vec_regs[e]);
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            v.v[i] |= (rs[i] & em) << (e * eb);
    }
    write_lanes(reg_slot(r, d->u.reg), v.v, active, reg_mask(r, d->u.reg));
    return 0;
}

static int exec_alu(wx_run *r, uint32_t active)
{
    const ir_instr *in = r->in;
    ir_exec_ctx x;
    x.in = in;
    x.active = active;
    x.cc_in = r->w->cc;
    x.cc_out = 0;
    x.dst_written = 0;
    for (unsigned j = 0; j < in->n_src; j++)
        if (!fetch(r, &in->src[j], &x.src[j]))
            return fail(r, -1, "source operand %u has no value", j + 1);
    ir_exec_status st = ir_exec(&x);
    if (st == IR_EXEC_UNSUPPORTED)
        return fail(r, -1, "unsupported instruction (type/modifier combination)");
    if (st != IR_EXEC_OK)
        return fail(r, -1, "not an ALU instruction (internal error)");
    for (unsigned j = 0; j < in->n_dst; j++)
        if ((x.dst_written >> j & 1) && in->dst[j].kind == IR_OPND_REG)
            write_lanes(reg_slot(r, in->dst[j].u.reg), x.dst[j].v, active, reg_mask(r, in->dst[j].u.reg));
    if (in->flags & IR_F_CC)
        r->w->cc = (r->w->cc & ~active) | (x.cc_out & active);
    return 0;
}

/* The barrier arrival of a warp (kernels/frun.c exec_bar): the id, the optional thread count (a
 * positive multiple of 32), and for bar.red the lanes whose predicate holds; the bookkeeping and the
 * release (with bar.red's result written to every participating warp) are issue's. */
static int exec_bar(wx_run *r, wx_info *info, uint32_t active)
{
    const ir_instr *in = r->in;
    unsigned kind = in->sub ? in->sub : IR_BAR_SYNC;
    simt_advance(&r->w->st, r->pc + 1);
    info->bar_dst = SM_NO_REG;
    if (kind == IR_BAR_WARP_SYNC || active == 0)
        return 0;
    bool red = kind == IR_BAR_RED_POPC || kind == IR_BAR_RED_AND || kind == IR_BAR_RED_OR;
    unsigned n_plain = red ? in->n_src - 1u : in->n_src; /* barrier id, optional count */
    if (n_plain < 1 || (red && in->n_src < 2))
        return fail(r, -1, "malformed barrier");
    unsigned first = (unsigned)__builtin_ctz(active);
    ir_lanes v;
    if (!fetch(r, &in->src[0], &v))
        return fail(r, -1, "malformed barrier");
    if (v.v[first] >= 16)
        return fail(r, (int)first, "barrier id %" G_GUINT64_FORMAT " is out of range (0..15)", v.v[first]);
    info->bar_id = (uint32_t)v.v[first];
    if (n_plain >= 2) {
        ir_lanes cnt;
        if (!fetch(r, &in->src[1], &cnt))
            return fail(r, -1, "malformed barrier");
        uint32_t count = (uint32_t)cnt.v[first];
        if (count == 0 || count % IR_WARP_SIZE)
            return fail(r, (int)first, "barrier thread count %u is not a positive multiple of 32", count);
        info->bar_count = count;
    }
    if (red) {
        const ir_operand *po = &in->src[in->n_src - 1];
        ir_lanes p;
        if (!fetch(r, po, &p))
            return fail(r, -1, "malformed barrier");
        for (uint32_t m = active; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if ((p.v[l] != 0) != (po->neg != 0))
                info->bar_pred |= 1u << l;
        }
        if (in->n_dst > 0 && in->dst[0].kind == IR_OPND_REG)
            info->bar_dst = (uint16_t)(r->x->env->k->funcs[r->func].reg_base + in->dst[0].u.reg);
    }
    info->bar_kind = (uint8_t)kind;
    info->bar_arrive = true;
    info->bar_wait = kind != IR_BAR_ARRIVE;
    return 0;
}

static uint64_t sym_size(const ir_module *m, uint32_t sym)
{
    return g_array_index(m->syms, ir_sym, sym).size;
}

static void cparam_copy(wx_run *r, uint32_t dst_sym, uint32_t src_sym, uint64_t bytes, uint32_t active)
{
    const kload_module *k = r->x->env->k;
    const kload_sym *ds = &k->syms[dst_sym], *ss = &k->syms[src_sym];
    while (active) {
        unsigned l = (unsigned)__builtin_ctz(active);
        active &= active - 1;
        uint8_t *seg = r->w->cparam + l * k->cparam_bytes;
        memmove(seg + ds->offset, seg + ss->offset, bytes);
    }
}

static const ir_operand *find_opnd(const ir_instr *in, ir_opnd_kind kind)
{
    for (unsigned j = 0; j < in->n_src; j++)
        if (in->src[j].kind == kind)
            return &in->src[j];
    return NULL;
}

static int exec_call(wx_run *r, uint32_t active)
{
    const ir_instr *in = r->in;
    if (active == 0) {
        simt_advance(&r->w->st, r->pc + 1);
        return 0;
    }
    const ir_module *m = r->x->env->mod;
    const ir_operand *t = find_opnd(in, IR_OPND_FUNC);
    if (!t || t->u.func >= m->funcs->len)
        return fail(r, -1, "indirect or unknown call");
    const ir_func *callee = g_ptr_array_index(m->funcs, t->u.func);
    if (!callee->instrs || ir_func_n_instrs(callee) == 0)
        return fail(r, -1, "call to a function without a body");
    if (r->x->env->k->funcs[t->u.func].recursive)
        return fail(r, -1, "recursive call of %s is not supported", callee->name);
    guint np = callee->params ? callee->params->len : 0;
    guint nr = callee->rets ? callee->rets->len : 0;
    if (in->call_n_args != np || in->call_n_ret > nr)
        return fail(r, -1, "call passes %u arguments and %u return values; %s takes %u and %u",
                    in->call_n_args, in->call_n_ret, callee->name, np, nr);
    for (guint i = 0; i < np; i++) {
        const ir_param *pa = &g_array_index(callee->params, ir_param, i);
        cparam_copy(r, pa->sym, in->call_args[i], MIN(pa->size, sym_size(m, in->call_args[i])), active);
    }
    simt_call(&r->w->st, r->pc, r->pc + 1, t->u.func, 0, active);
    return 0;
}

static void do_ret(wx_run *r, uint32_t next_pc, uint32_t active)
{
    simt_stack *st = &r->w->st;
    const simt_entry *fr = simt_frame(st);
    if (fr->call_pc != UINT32_MAX) {
        uint32_t fi = (uint32_t)(fr - st->e);
        uint32_t caller = st->e[fi - 1].func;
        const ir_func *cf = g_ptr_array_index(r->x->env->mod->funcs, caller);
        const ir_instr *call = ir_func_instr(cf, fr->call_pc);
        for (unsigned j = 0; j < call->call_n_ret; j++) {
            const ir_param *pa = &g_array_index(r->f->rets, ir_param, j);
            cparam_copy(r, call->call_ret[j], pa->sym,
                        MIN(pa->size, sym_size(r->x->env->mod, call->call_ret[j])), active);
        }
    }
    simt_advance(st, next_pc);
    simt_ret(st, active);
}

/* Executes the instruction. Inlined into both callers (wexec_step and step_hooked), so the path
 * without value hooks is the same code as before they existed, plus one test. */
static inline __attribute__((always_inline)) int step_instr(wx_run *r, wx_info *info, uint32_t mask)
{
    const ir_instr *in = r->in;
    uint32_t active = mask;
    if (in->guard != IR_NONE)
        active = pred_mask(r, in->guard, in->guard_neg != 0, mask);
    info->active = active;
    simt_stack *st = &r->w->st;
    int rc = 0;
    bool mem_in_dst = in->n_dst > 0 && in->dst[0].kind == IR_OPND_MEM;
    switch ((ir_opcode)in->op) {
    case IR_OP_LD:
    case IR_OP_LDU:
        info->kind = WX_MEM, info->mem_kind = WX_MEM_LOAD;
        if (in->n_src < 1 || in->src[0].kind != IR_OPND_MEM || in->n_dst < 1)
            return fail(r, -1, "malformed ld");
        if (active)
            rc = exec_ld(r, info, active);
        simt_advance(st, r->pc + 1);
        break;
    case IR_OP_ST:
        info->kind = WX_MEM, info->mem_kind = WX_MEM_STORE;
        if (!mem_in_dst && !(in->n_src >= 2 && in->src[0].kind == IR_OPND_MEM))
            return fail(r, -1, "malformed st");
        if (active)
            rc = exec_st(r, info, active, mem_in_dst);
        simt_advance(st, r->pc + 1);
        break;
    case IR_OP_ATOM:
    case IR_OP_RED: {
        bool red = in->op == IR_OP_RED;
        info->kind = WX_MEM, info->mem_kind = red ? WX_MEM_RED : WX_MEM_ATOM;
        if (red ? !mem_in_dst && !(in->n_src >= 2 && in->src[0].kind == IR_OPND_MEM)
                : in->n_src < 2 || in->src[0].kind != IR_OPND_MEM || in->n_dst < 1)
            return fail(r, -1, "malformed %s", red ? "red" : "atom");
        if (active)
            rc = exec_atom(r, info, active, red, mem_in_dst);
        simt_advance(st, r->pc + 1);
        break;
    }
    case IR_OP_CVTA:
        info->kind = WX_ALU;
        if (active)
            rc = exec_cvta(r, active);
        simt_advance(st, r->pc + 1);
        break;
    case IR_OP_BRA: {
        const ir_operand *t = find_opnd(in, IR_OPND_LABEL);
        if (!t)
            return fail(r, -1, "indirect branch");
        info->kind = WX_BRA;
        info->diverged = simt_branch(st, active, t->u.target, r->pc + 1, in->reconv);
        break;
    }
    case IR_OP_CALL:
        info->kind = WX_CALL;
        rc = exec_call(r, active);
        break;
    case IR_OP_RET:
        info->kind = WX_RET;
        if (active)
            do_ret(r, r->pc + 1, active);
        else
            simt_advance(st, r->pc + 1);
        break;
    case IR_OP_EXIT:
        info->kind = WX_EXIT;
        simt_advance(st, r->pc + 1);
        simt_exit(st, active);
        break;
    case IR_OP_BAR:
    case IR_OP_BARRIER:
        info->kind = WX_BAR;
        rc = exec_bar(r, info, active);
        break;
    case IR_OP_BLOCKSYNC: /* the CTA waits at SM_BLOCKSYNC_BAR, then for the grid (issue.c) */
        info->kind = WX_BAR;
        simt_advance(st, r->pc + 1);
        info->bar_dst = SM_NO_REG;
        if (active) {
            info->bar_id = SM_BLOCKSYNC_BAR;
            info->bar_kind = IR_BAR_SYNC;
            info->bar_arrive = info->bar_wait = true;
            info->blocksync = (uint8_t)(1 + in->sub);
        }
        break;
    case IR_OP_MEMBAR:
    case IR_OP_FENCE:
    case IR_OP_PREFETCH:
    case IR_OP_NANOSLEEP:
    case IR_OP_RELSSP: /* smem_share.h sees it issued: the release */
        info->kind = WX_NOP;
        simt_advance(st, r->pc + 1);
        break;
    case IR_OP_TRAP:
    case IR_OP_BRKPT:
        if (active)
            return fail(r, (int)__builtin_ctz(active), "%s executed", ir_op_name((ir_opcode)in->op));
        info->kind = WX_NOP;
        simt_advance(st, r->pc + 1);
        break;
    case IR_OP_MOV:
        info->kind = WX_ALU;
        if (active)
            rc = (in->n_dst > 0 && in->dst[0].kind == IR_OPND_VEC) ||
                         (in->n_src > 0 && in->src[0].kind == IR_OPND_VEC)
                     ? exec_mov_vec(r, active)
                     : exec_alu(r, active);
        simt_advance(st, r->pc + 1);
        break;
    default:
        info->kind = WX_ALU;
        if (active)
            rc = exec_alu(r, active);
        simt_advance(st, r->pc + 1);
        break;
    }
    return rc;
}

/* ---- the register value path with hooks (regval.h) ------------------------------------------ */
#define WX_MAX_READS  (1 + (IR_MAX_SRC + IR_MAX_DST) * 4) /* the guard and every operand a 4-vector */
#define WX_MAX_WRITES (IR_MAX_DST * 4)

/* Before the instruction executes, its reads: decode's list (instr_regs), the guard for the lanes of
 * the SIMT mask, the others for the lanes whose guard (as the hooks left it) holds. */
static void hooked_reads(wx_run *r, uint32_t mask)
{
    const ir_instr *in = r->in;
    uint16_t src[WX_MAX_READS], dst[WX_MAX_WRITES], n_src, n_dst;
    instr_regs(r->x->env->k, r->func, in, src, &n_src, WX_MAX_READS, dst, &n_dst, WX_MAX_WRITES);
    uint32_t active = mask;
    unsigned i = 0;
    if (in->guard != IR_NONE) {
        value_access(r->x, REGVAL_READ, r->wid, src[0], r->func, r->pc, mask, r->clock);
        active = pred_mask(r, in->guard, in->guard_neg != 0, mask);
        i = 1;
    }
    for (; i < n_src; i++)
        value_access(r->x, REGVAL_READ, r->wid, src[i], r->func, r->pc, active, r->clock);
}

/* After the instruction executed, the writes it made at issue (as exec_alu, exec_mov_vec, exec_cvta,
 * exec_ld and exec_atom made them): an ALU instruction's register destinations (a vector's elements
 * for mov) in the active lanes; a load's destinations and an atomic's in the lanes not left for later
 * (wexec_complete_load, wexec_write_slot). */
static void hooked_writes(wx_run *r, const wx_info *info)
{
    const ir_instr *in = r->in;
    uint32_t base = r->x->env->k->funcs[r->func].reg_base;
    uint16_t v[WX_MAX_WRITES], n = 0;
    uint32_t lanes = 0;
    if (info->kind == WX_ALU) {
        lanes = info->active;
        for (unsigned j = 0; j < in->n_dst; j++)
            if (in->dst[j].kind == IR_OPND_REG || (in->dst[j].kind == IR_OPND_VEC && in->op == IR_OP_MOV))
                opnd_regs(base, &in->dst[j], v, &n, WX_MAX_WRITES);
    } else if (info->kind == WX_MEM && info->mem_kind == WX_MEM_LOAD) {
        lanes = info->active & ~info->load_defer;
        opnd_regs(base, &in->dst[0], v, &n, WX_MAX_WRITES);
    } else if (info->kind == WX_MEM && info->mem_kind == WX_MEM_ATOM && info->active) {
        lanes = info->active & ~info->atom_defer;
        if (info->atom_dst != SM_NO_REG)
            v[n++] = info->atom_dst;
    }
    if (lanes == 0)
        return;
    for (unsigned i = 0; i < n; i++)
        value_access(r->x, REGVAL_WRITE, r->wid, v[i], r->func, r->pc, lanes, r->clock);
}

/* step_instr between the hooks of its reads and of its writes (out of line: only with hooks). */
static G_GNUC_NO_INLINE int step_hooked(wx_run *r, wx_info *info, uint32_t mask)
{
    hooked_reads(r, mask);
    if (step_instr(r, info, mask))
        return 1;
    hooked_writes(r, info);
    return 0;
}

int wexec_step(wexec *x, unsigned warp, uint64_t clock, uint64_t seq, wx_info *info)
{
    wx_warp *w = &x->warps[warp];
    g_assert(w->live && !simt_done(&w->st));
    const simt_entry *t = simt_top(&w->st);
    wx_run r = {.x = x, .w = w, .wid = warp, .func = t->func, .pc = t->pc, .clock = clock, .seq = seq};
    r.f = g_ptr_array_index(x->env->mod->funcs, t->func);
    uint32_t mask = t->mask;
    memset(info, 0, offsetof(wx_info, addr)); /* addr: only active lanes are written and read */
    info->func = r.func;
    info->pc = r.pc;
    if (r.pc >= ir_func_n_instrs(r.f)) {
        if (r.pc == SIMT_PC_EXIT)
            return fail(&r, -1,
                        "lanes 0x%08x wait at the function exit without having returned (internal error)",
                        mask);
        info->kind = WX_RET; /* falling off the end is ret */
        info->cls = IR_CLASS_CTRL;
        info->active = mask;
        do_ret(&r, r.pc, mask);
    } else {
        r.in = ir_func_instr(r.f, r.pc);
        info->cls = (uint8_t)ir_instr_class(r.in);
        info->op = (uint8_t)r.in->op;
        info->space = r.in->space;
        if (G_UNLIKELY(x->hooked) ? step_hooked(&r, info, mask) : step_instr(&r, info, mask))
            return 1;
    }
    if (simt_done(&w->st))
        w->live = false;
    return 0;
}

uint32_t wexec_head_shared(const wexec *x, unsigned warp, uint64_t off[IR_WARP_SIZE])
{
    wx_warp *w = &x->warps[warp];
    if (!w->live || simt_done(&w->st))
        return 0;
    const simt_entry *t = simt_top(&w->st);
    const ir_func *f = g_ptr_array_index(x->env->mod->funcs, t->func);
    if (t->pc >= ir_func_n_instrs(f))
        return 0;
    const ir_instr *in = ir_func_instr(f, t->pc);
    if (ir_instr_class(in) != IR_CLASS_MEM || in->op == IR_OP_PREFETCH || in->cb ||
        (in->space != IR_SPACE_NONE && in->space != IR_SPACE_SHARED))
        return 0;
    const ir_operand *m = in->n_dst > 0 && in->dst[0].kind == IR_OPND_MEM ? &in->dst[0] : &in->src[0];
    if (m->kind != IR_OPND_MEM)
        return 0;
    wx_run r = {.x = (wexec *)x, .w = w, .wid = warp, .func = t->func, .pc = t->pc, .f = f, .in = in};
    uint32_t mask = in->guard != IR_NONE ? pred_mask(&r, in->guard, in->guard_neg != 0, t->mask) : t->mask;
    wx_mem wm;
    mem_lanes(&r, m, &wm);
    uint32_t out = 0;
    for (uint32_t k = mask; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        uint64_t a = wm.off + (wm.base ? wm.base[l] : 0), sa = a;
        if (in->space == IR_SPACE_SHARED || kload_generic_resolve(a, &sa) == IR_SPACE_SHARED) {
            off[l] = sa;
            out |= UINT32_C(1) << l;
        }
    }
    return out;
}

void wexec_write_slot(wexec *x, unsigned warp, unsigned slot, uint32_t mask, const uint64_t *vals,
                      uint64_t vmask, uint64_t cycle)
{
    wx_warp *w = &x->warps[warp];
    g_assert(slot < x->env->k->total_regs);
    write_lanes(&w->regs[(uint64_t)slot * IR_WARP_SIZE], vals, mask, vmask);
    if (G_UNLIKELY(x->hooked) && mask)
        value_access(x, REGVAL_WRITE, warp, slot, REGVAL_NONE, REGVAL_NONE, mask, cycle);
}

uint64_t wexec_read_slot(const wexec *x, unsigned warp, unsigned slot, unsigned lane)
{
    g_assert(warp < x->max_warps && slot < x->env->k->total_regs && lane < IR_WARP_SIZE);
    return x->warps[warp].regs[(uint64_t)slot * IR_WARP_SIZE + lane];
}

void wexec_dump_warp(const wexec *x, unsigned warp, GString *out)
{
    const wx_warp *w = &x->warps[warp];
    g_string_append_printf(out, "warp %u (cta slot %u, warp %u of its block)", warp, w->cta, w->in_cta);
    if (!w->live || simt_done(&w->st)) {
        g_string_append(out, ": finished\n");
        return;
    }
    const simt_entry *t = simt_top(&w->st);
    const ir_func *f = g_ptr_array_index(x->env->mod->funcs, t->func);
    g_string_append_printf(out, ": pc %u", t->pc);
    if (t->pc < ir_func_n_instrs(f)) {
        g_string_append_printf(out, " (line %u `", ir_func_instr(f, t->pc)->line);
        ir_print_instr(out, x->env->mod, f, ir_func_instr(f, t->pc));
        g_string_append(out, "`)");
    }
    g_string_append_c(out, '\n');
    simt_dump(&w->st, out, "      ");
}
