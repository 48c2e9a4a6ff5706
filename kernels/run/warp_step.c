/* warp_step.c — the warp-step engine (see warp_step.h).
 *
 * Every executor is written once, inlined into two instantiations selected by a constant `timed`:
 * ws_run (timed = false: everything performed at once, nothing recorded) and ws_step (timed = true:
 * per-lane spaces and addresses recorded, global/local/const loads, global stores and global atomics
 * left to the memory side). The constant folds away, so the functional runner pays nothing for the
 * timing model's needs. */
#include "kernels/run/warp_step.h"

#include <stdarg.h>
#include <string.h>

#include "kernels/semantics/ir_exec.h"
#include "kernels/frontend/spu_isa.h"

#define FULL_MASK 0xffffffffu
#define WS_INLINE static inline __attribute__((always_inline))

/* ---- decoded instructions --------------------------------------------------------------------- */
typedef enum {
    D_ALU,
    D_MOV_VEC, /* mov with a {a,b} vector operand: pack/unpack */
    D_LD,
    D_ST,
    D_ATOM,
    D_RED,
    D_CVTA,
    D_BRA,
    D_CALL,
    D_RET,
    D_EXIT,
    D_BAR,
    D_BLOCKSYNC, /* bar.blocksync (SPU programs) */
    D_NOP,
    D_TRAP,
    D_BAD /* cannot run: reason in why */
} dkind;

typedef struct {
    uint8_t kind;       /* dkind */
    uint8_t cls;        /* ir_class */
    uint8_t mem_in_dst; /* st/red: the address operand is dst[0] */
    uint8_t esize;      /* ld/st/atom element bytes */
    uint32_t target;    /* bra: target pc; call: callee */
    const char *why;    /* D_BAD */
} dinstr;

typedef struct {
    const ir_func *f;
    uint32_t n;
    const ir_instr *instrs;
    dinstr *d;
    uint64_t *reg_mask; /* value mask per register (by declared width) */
} dfunc;

struct ws_prog {
    const ir_module *mod;
    guint n_funcs;
    dfunc *df;
};

static const ir_operand *find_opnd(const ir_instr *in, ir_opnd_kind kind)
{
    for (unsigned j = 0; j < in->n_src; j++)
        if (in->src[j].kind == kind)
            return &in->src[j];
    return NULL;
}

static void decode_call(const ir_module *m, const ir_instr *in, dinstr *di)
{
    const ir_operand *t = find_opnd(in, IR_OPND_FUNC);
    if (!t) {
        di->kind = D_BAD, di->why = "indirect call";
        return;
    }
    if (t->u.func >= m->funcs->len) {
        di->kind = D_BAD, di->why = "call to an unknown function";
        return;
    }
    const ir_func *callee = g_ptr_array_index(m->funcs, t->u.func);
    di->kind = D_CALL;
    di->target = t->u.func;
    if (!callee->instrs || ir_func_n_instrs(callee) == 0)
        di->kind = D_BAD, di->why = "call to a function without a body";
    for (guint p = 0; callee->params && p < callee->params->len; p++)
        if (g_array_index(callee->params, ir_param, p).sym >= m->syms->len)
            di->kind = D_BAD, di->why = "callee parameter without a symbol";
    for (guint p = 0; callee->rets && p < callee->rets->len; p++)
        if (g_array_index(callee->rets, ir_param, p).sym >= m->syms->len)
            di->kind = D_BAD, di->why = "callee return value without a symbol";
    for (unsigned a = 0; a < in->call_n_args; a++)
        if (in->call_args[a] >= m->syms->len)
            di->kind = D_BAD, di->why = "call argument without a symbol";
    for (unsigned a = 0; a < in->call_n_ret; a++)
        if (in->call_ret[a] >= m->syms->len)
            di->kind = D_BAD, di->why = "call return variable without a symbol";
}

static void decode_instr(const ir_module *m, const ir_instr *in, bool spu, dinstr *di)
{
    memset(di, 0, sizeof *di);
    di->cls = (uint8_t)ir_instr_class(in);
    di->esize = (uint8_t)(ir_type_bits(in->type) / 8);
    if (!spu && spu_isa_use(in)) { /* blocksync, CB, SPU registers: only the spu_grid machine has them */
        di->kind = D_BAD;
        di->why = in->op == IR_OP_BLOCKSYNC ? "bar.blocksync needs the SPU machine (tb-spu)"
                  : in->cb                  ? "a communication-buffer access needs the SPU machine (tb-spu)"
                                            : "an SPU special register needs the SPU machine (tb-spu)";
        return;
    }
    switch ((ir_opcode)in->op) {
    case IR_OP_LD:
    case IR_OP_LDU:
        di->kind = D_LD;
        if (in->n_src < 1 || in->src[0].kind != IR_OPND_MEM || in->n_dst < 1 ||
            (in->dst[0].kind != IR_OPND_REG && in->dst[0].kind != IR_OPND_VEC))
            di->kind = D_BAD, di->why = "malformed ld";
        break;
    case IR_OP_ST:
    case IR_OP_RED:
        di->kind = in->op == IR_OP_ST ? D_ST : D_RED;
        if (in->n_dst > 0 && in->dst[0].kind == IR_OPND_MEM)
            di->mem_in_dst = 1;
        else if (!(in->n_src >= 2 && in->src[0].kind == IR_OPND_MEM))
            di->kind = D_BAD, di->why = "malformed st/red";
        break;
    case IR_OP_ATOM:
        di->kind = D_ATOM;
        if (in->n_src < 2 || in->src[0].kind != IR_OPND_MEM || in->n_dst < 1)
            di->kind = D_BAD, di->why = "malformed atom";
        break;
    case IR_OP_CVTA:
        di->kind = D_CVTA;
        break;
    case IR_OP_BRA: {
        const ir_operand *t = find_opnd(in, IR_OPND_LABEL);
        if (t) {
            di->kind = D_BRA;
            di->target = t->u.target;
        } else {
            di->kind = D_BAD, di->why = "indirect branch";
        }
        break;
    }
    case IR_OP_CALL:
        decode_call(m, in, di);
        break;
    case IR_OP_RET:
        di->kind = D_RET;
        break;
    case IR_OP_EXIT:
        di->kind = D_EXIT;
        break;
    case IR_OP_BAR:
    case IR_OP_BARRIER:
        di->kind = D_BAR;
        break;
    case IR_OP_BLOCKSYNC:
        di->kind = D_BLOCKSYNC;
        break;
    case IR_OP_MEMBAR:
    case IR_OP_FENCE:
    case IR_OP_PREFETCH:
    case IR_OP_NANOSLEEP:
    case IR_OP_RELSSP: /* the release is the SM's (smem_share.h): nothing to compute */
        di->kind = D_NOP;
        break;
    case IR_OP_TRAP:
    case IR_OP_BRKPT:
        di->kind = D_TRAP;
        break;
    case IR_OP_MOV:
        di->kind = (in->n_dst > 0 && in->dst[0].kind == IR_OPND_VEC) ||
                           (in->n_src > 0 && in->src[0].kind == IR_OPND_VEC)
                       ? D_MOV_VEC
                       : D_ALU;
        break;
    default:
        di->kind = D_ALU;
        break;
    }
}

static uint64_t type_mask(ir_type t)
{
    unsigned b = ir_type_bits(t);
    if (b == 0 || b >= 64)
        return UINT64_MAX;
    return (UINT64_C(1) << b) - 1;
}

ws_prog *ws_prog_new(const ir_module *m, bool spu)
{
    ws_prog *p = g_new0(ws_prog, 1);
    p->mod = m;
    p->n_funcs = m->funcs->len;
    p->df = g_new0(dfunc, m->funcs->len ? m->funcs->len : 1);
    for (guint f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        dfunc *df = &p->df[f];
        df->f = fn;
        df->n = fn->instrs ? ir_func_n_instrs(fn) : 0;
        df->instrs = df->n ? ir_func_instr(fn, 0) : NULL;
        df->d = g_new0(dinstr, df->n ? df->n : 1);
        for (uint32_t i = 0; i < df->n; i++)
            decode_instr(m, &df->instrs[i], spu, &df->d[i]);
        guint nr = fn->regs ? fn->regs->len : 0;
        df->reg_mask = g_new(uint64_t, nr ? nr : 1);
        for (guint r = 0; r < nr; r++)
            df->reg_mask[r] = type_mask(g_array_index(fn->regs, ir_reg, r).type);
    }
    return p;
}

void ws_prog_free(ws_prog *p)
{
    if (!p)
        return;
    for (guint f = 0; f < p->n_funcs; f++) {
        g_free(p->df[f].d);
        g_free(p->df[f].reg_mask);
    }
    g_free(p->df);
    g_free(p);
}

uint64_t ws_prog_reg_mask(const ws_prog *p, uint32_t func, uint32_t reg)
{
    return p->df[func].reg_mask[reg];
}

/* ---- error reporting -------------------------------------------------------------------------- */
/* "kernel K: [in .func F: ]pc N (FILE:LINE `instr`) block (x,y,z) thread (x,y,z)[ WHERE]: " */
static void site_prefix(const ws_launch *L, const ws_warp *w, uint32_t func, uint32_t pc, int lane,
                        GString *e)
{
    const dfunc *df = &L->prog->df[func];
    g_string_append_printf(e, "kernel %s: ", L->prog->df[L->entry].f->name);
    if (func != L->entry)
        g_string_append_printf(e, "in .func %s: ", df->f->name);
    if (pc < df->n) {
        const ir_instr *in = &df->instrs[pc];
        g_string_append_printf(e, "pc %u (%s:%u `", pc, L->mod->filename ? L->mod->filename : "?", in->line);
        ir_print_instr(e, L->mod, df->f, in);
        g_string_append(e, "`)");
    } else {
        g_string_append_printf(e, "pc %u (end of function)", pc);
    }
    const uint32_t *c = w->cta->ctaid;
    g_string_append_printf(e, " block (%u,%u,%u)", c[0], c[1], c[2]);
    if (lane >= 0) {
        uint32_t lt = w->id * (L->sreg.warp_size ? L->sreg.warp_size : IR_WARP_SIZE) + (uint32_t)lane;
        g_string_append_printf(e, " thread (%u,%u,%u)", lt % L->block[0], lt / L->block[0] % L->block[1],
                               lt / (L->block[0] * L->block[1]));
    } else {
        g_string_append_printf(e, " warp %u", w->id);
    }
    if (L->where)
        g_string_append_printf(e, " %s", L->where);
    g_string_append(e, ": ");
}

int ws_fail(ws_launch *L, const ws_warp *w, uint32_t func, uint32_t pc, int lane, const char *fmt, ...)
{
    site_prefix(L, w, func, pc, lane, L->err);
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(L->err, fmt, ap);
    va_end(ap);
    return 1;
}

/* ---- one instruction's context ------------------------------------------------------------------ */
typedef struct {
    ws_launch *L;
    ws_warp *w;
    uint32_t func, pc;
    const ir_instr *in;
    const dinstr *di;
    ws_info *info;
    uint64_t seq;
} ws_run_t;

#define FAIL(r, lane, ...) ws_fail((r)->L, (r)->w, (r)->func, (r)->pc, (lane), __VA_ARGS__)

/* Where register `reg`'s row lives in the warp's array (kload.h, "Registers"). */
WS_INLINE uint32_t reg_at(const ws_run_t *r, uint32_t reg)
{
    return r->L->k->funcs[r->func].at[reg];
}

WS_INLINE uint64_t reg_mask(const ws_run_t *r, uint32_t reg)
{
    return r->L->prog->df[r->func].reg_mask[reg];
}

static G_GNUC_NO_INLINE void sreg_lanes(const ws_run_t *r, const ir_operand *o, ir_lanes *out)
{
    const ws_launch *L = r->L;
    const ws_cta *ct = r->w->cta;
    frun_sreg_ctx c = L->sreg;
    c.warp = r->w->id;
    c.nwarps = ct->nwarps;
    c.clock = L->clock;
    c.total_smem = (uint32_t)ct->shared.size;
    for (unsigned i = 0; i < 3; i++)
        c.ctaid[i] = ct->ctaid[i];
    if (o->u.sreg >= IR_SREG_REGPASSX && L->ops && L->ops->spu_sregs)
        c.spu = L->ops->spu_sregs(L->ctx);
    for (unsigned i = 0; i < IR_WARP_SIZE; i++)
        out->v[i] = frun_sreg_value(&c, (ir_sreg)o->u.sreg, o->comp, i);
}

/* An operand's value for all 32 lanes; false for an operand that has no value. */
WS_INLINE bool fetch(const ws_run_t *r, const ir_operand *o, ir_lanes *out)
{
    switch ((ir_opnd_kind)o->kind) {
    case IR_OPND_REG:
        /* Raw values: ir_exec applies a predicate operand's `!` itself. */
        kload_reg_read_all(r->w->regs, reg_at(r, o->u.reg), out->v);
        return true;
    case IR_OPND_IMM:
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = o->u.imm;
        return true;
    case IR_OPND_SREG:
        sreg_lanes(r, o, out);
        return true;
    case IR_OPND_ADDR: {
        uint64_t a =
            (o->u.mem.base_sym != IR_NONE ? kload_sym_address(r->L->k, r->L->entry, o->u.mem.base_sym) : 0) +
            (uint64_t)o->u.mem.offset;
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = a;
        return true;
    }
    default:
        return false;
    }
}

/* Write the lanes `mask` of register `reg` (each value masked to its width, vmask). */
WS_INLINE void write_lanes(const ws_run_t *r, uint32_t reg, const uint64_t *v, uint32_t mask, uint64_t vmask)
{
    uint32_t at = reg_at(r, reg);
    uint64_t *slot = r->w->regs + (at >> 1);
    if (at & 1) { /* a narrow row: vmask keeps 32 bits or fewer */
        uint32_t *n = (uint32_t *)slot;
        if (mask == FULL_MASK) {
            kload_reg_write_all_narrow(r->w->regs, at, v, (uint32_t)vmask);
            return;
        }
        while (mask) {
            unsigned l = (unsigned)__builtin_ctz(mask);
            mask &= mask - 1;
            n[l] = (uint32_t)(v[l] & vmask);
        }
        return;
    }
    if (mask == FULL_MASK && vmask == UINT64_MAX) {
        memcpy(slot, v, IR_WARP_SIZE * sizeof *slot);
        return;
    }
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        slot[l] = v[l] & vmask;
    }
}

WS_INLINE uint32_t pred_mask(const ws_run_t *r, uint32_t reg, bool neg, uint32_t mask)
{
    uint64_t p[IR_WARP_SIZE];
    kload_reg_read_all(r->w->regs, reg_at(r, reg), p);
    uint32_t out = 0;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        if ((p[l] != 0) != neg)
            out |= UINT32_C(1) << l;
    }
    return out;
}

/* ---- memory ----------------------------------------------------------------------------------- */
/* A memory operand's lanes, built once per instruction: base[lane] + off (base NULL: off alone),
 * and the shared segment the instruction reaches (the CTA's, or for ld.cb/st.cb the SPU's
 * communication buffer). */
typedef struct {
    const uint64_t *base;   /* the base register's lanes in a wide row, or */
    const uint32_t *base32; /* in a narrow one (kload.h); both NULL: no base register */
    uint64_t off;
    fmem_seg shared;
} ws_mem;

static G_GNUC_NO_INLINE fmem_seg cb_seg(const ws_run_t *r)
{
    const ws_launch *L = r->L;
    return L->ops && L->ops->cb ? L->ops->cb(L->ctx, r->in->cb & 0xfu) : (fmem_seg){0};
}

WS_INLINE void mem_of(const ws_run_t *r, const ir_operand *m, ws_mem *a)
{
    a->base = NULL;
    a->base32 = NULL;
    a->off = (uint64_t)m->u.mem.offset;
    if (m->u.mem.base_reg != IR_NONE) {
        uint32_t at = reg_at(r, m->u.mem.base_reg);
        if (at & 1)
            a->base32 = (const uint32_t *)(r->w->regs + (at >> 1));
        else
            a->base = r->w->regs + (at >> 1);
    } else if (m->u.mem.base_sym != IR_NONE)
        a->off += kload_sym_address(r->L->k, r->L->entry, m->u.mem.base_sym);
    a->shared = G_UNLIKELY(r->in->cb) ? cb_seg(r) : r->w->cta->shared;
}

/* A memory operand's address in one lane (before its space is resolved). */
WS_INLINE uint64_t mem_addr(const ws_mem *a, uint32_t lane)
{
    return a->off + (a->base ? a->base[lane] : a->base32 ? a->base32[lane] : 0);
}

static const char *space_label(ir_space s)
{
    return s == IR_SPACE_NONE ? "generic" : ir_space_name(s);
}

/* The memory lane `lane` sees, for kload_resolve. */
static kload_spaces lane_spaces(const ws_run_t *r, const ws_mem *a, uint32_t lane)
{
    const ws_launch *L = r->L;
    uint64_t lb = L->k->local_bytes, cb = L->k->cparam_bytes;
    return (kload_spaces){
        .global = L->mem,
        .shared = a->shared,
        .local = {.data = r->w->local + lane * lb, .size = lb},
        .cparam = {.data = r->w->cparam + lane * cb, .size = cb},
        .kparam = L->kparam,
    };
}

/* The fast path of one lane's access to `len` bytes at `addr` in `space` (resolved: not generic):
 * shared, local and the cached global region inline, the rest through kload_resolve. NULL: refused
 * (lane_access_fail explains). */
WS_INLINE uint8_t *fast_ptr(const ws_run_t *r, const ws_mem *a, uint32_t lane, ir_space space, uint64_t addr,
                            uint64_t len, bool write)
{
    ws_launch *L = r->L;
    switch (space) {
    case IR_SPACE_SHARED: /* 32-bit windows: an address computed past 2^32 wraps (kload_resolve) */
        addr = (uint32_t)addr;
        return addr <= a->shared.size && len <= a->shared.size - addr ? a->shared.data + addr : NULL;
    case IR_SPACE_LOCAL: {
        uint64_t lb = L->k->local_bytes;
        addr = (uint32_t)addr;
        return addr <= lb && len <= lb - addr ? r->w->local + lane * lb + addr : NULL;
    }
    case IR_SPACE_GLOBAL:
    case IR_SPACE_CONST:
        if (G_UNLIKELY(addr - L->gbase >= L->gsize)) {
            const fmem_region *g = fmem_find(L->mem, addr);
            if (!g)
                return NULL;
            L->gbase = g->base, L->gsize = g->size, L->gdata = g->data, L->greadonly = g->readonly;
        }
        if (len > L->gsize - (addr - L->gbase) || (write && L->greadonly))
            return NULL;
        return L->gdata + (addr - L->gbase);
    default: {
        kload_spaces sp = lane_spaces(r, a, lane);
        return kload_resolve(&sp, space, addr, len, write, NULL);
    }
    }
}

static G_GNUC_NO_INLINE uint8_t *lane_access_fail(const ws_run_t *r, const ws_mem *a, uint32_t lane,
                                                  uint64_t addr, uint64_t len, bool write)
{
    const ir_instr *in = r->in;
    ws_launch *L = r->L;
    if (len > 1 && (addr & (len - 1)) != 0) {
        FAIL(r, (int)lane,
             "misaligned %s %s of %" G_GUINT64_FORMAT " bytes at address 0x%" G_GINT64_MODIFIER "x",
             space_label(in->space), ir_access_kind(in, write), len, addr);
        return NULL;
    }
    kload_spaces sp = lane_spaces(r, a, lane);
    GString *why = g_string_new(NULL);
    uint8_t *p = kload_resolve(&sp, (ir_space)in->space, addr, len, write, why);
    if (p) { /* only a 0-byte access at a nonzero address, which no instruction makes */
        g_string_free(why, TRUE);
        return p;
    }
    if (fmem_get_check(L->mem) == FMEM_CHECK_WARN) {
        GString *where = g_string_new(NULL);
        p = kload_resolve_padding(&sp, (ir_space)in->space, addr, len, where);
        if (p && fmem_note_site(L->mem, (uint64_t)L->entry << 48 | (uint64_t)r->func << 32 | r->pc)) {
            GString *e = g_string_new("gpusc: warning: ");
            site_prefix(L, r->w, r->func, r->pc, (int)lane, e);
            g_string_append_printf(e,
                                   "out-of-bounds %s %s of %" G_GUINT64_FORMAT
                                   " bytes at 0x%" G_GINT64_MODIFIER
                                   "x: %s (--memcheck warn: reported once per instruction)\n",
                                   space_label(in->space), ir_access_kind(in, write), len, addr, where->str);
            fputs(e->str, stderr);
            g_string_free(e, TRUE);
        }
        g_string_free(where, TRUE);
        if (p) {
            g_string_free(why, TRUE);
            return p;
        }
    }
    FAIL(r, (int)lane, "invalid %s %s: %s", space_label(in->space), ir_access_kind(in, write), why->str);
    g_string_free(why, TRUE);
    return NULL;
}

/* One lane's checked host pointer (alignment, bounds, writability; reported on failure). `timed`:
 * the lane's resolved space and address are recorded in info. *space_out: the resolved space. */
WS_INLINE uint8_t *lane_access(const ws_run_t *r, const ws_mem *a, uint32_t lane, uint64_t len, bool write,
                               const bool timed, ir_space *space_out)
{
    uint64_t addr = mem_addr(a, lane);
    ir_space space = (ir_space)r->in->space;
    uint64_t sa = addr;
    if (space == IR_SPACE_NONE)
        space = kload_generic_resolve(addr, &sa);
    if (timed) {
        r->info->lane_space[lane] = (uint8_t)space;
        r->info->addr[lane] = sa;
        *space_out = space;
    }
    uint8_t *p = NULL;
    if (G_LIKELY((addr & (len - 1)) == 0)) /* aligned (any address for len 1) */
        p = fast_ptr(r, a, lane, space, sa, len, write);
    if (G_LIKELY(p != NULL))
        return p;
    return lane_access_fail(r, a, lane, addr, len, write);
}

WS_INLINE int race(const ws_run_t *r, uint32_t lane, const uint8_t *p, uint64_t len, bool write,
                   const bool timed)
{
    if (timed || G_LIKELY(!r->L->race))
        return 0;
    return r->L->ops->race(r->L->ctx, r->w, r->func, r->pc, lane, p, len, write);
}

WS_INLINE int exec_ld(const ws_run_t *r, uint32_t active, const bool timed)
{
    const ir_instr *in = r->in;
    const ir_operand *m = &in->src[0], *d = &in->dst[0];
    unsigned nv = d->kind == IR_OPND_VEC ? d->comp : 1;
    uint64_t es = r->di->esize;
    if (es == 0 || es > 8)
        return FAIL(r, -1, "unsupported load type .%s", ir_type_name(in->type));
    uint32_t ats[4];
    uint64_t vm[4];
    ws_load pl;
    for (unsigned e = 0; e < nv; e++) {
        uint32_t reg = d->kind == IR_OPND_VEC ? d->u.vec_regs[e] : d->u.reg;
        ats[e] = reg == IR_NONE ? IR_NONE : reg_at(r, reg);
        vm[e] = reg == IR_NONE ? 0 : reg_mask(r, reg);
        if (timed) {
            pl.slot[e] = reg == IR_NONE ? IR_NONE : r->L->k->funcs[r->func].reg_base + reg;
            pl.at[e] = ats[e];
        }
    }
    if (timed)
        r->info->bytes = (uint8_t)(es * nv);
    ws_mem a;
    mem_of(r, m, &a);
    uint32_t mask = active, defer = 0;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        ir_space sp = IR_SPACE_NONE;
        const uint8_t *p = lane_access(r, &a, l, es * nv, false, timed, &sp);
        if (!p || race(r, l, p, es * nv, false, timed))
            return 1;
        if (timed && (sp == IR_SPACE_GLOBAL || sp == IR_SPACE_LOCAL || sp == IR_SPACE_CONST)) {
            defer |= UINT32_C(1) << l; /* read when the data returns */
            pl.ptr[l] = p;
            continue;
        }
        for (unsigned e = 0; e < nv; e++)
            if (ats[e] != IR_NONE)
                kload_reg_set(r->w->regs, ats[e], l, ir_exec_load_elem((ir_type)in->type, p + e * es) & vm[e]);
    }
    if (timed) {
        r->info->load_defer = defer;
        if (defer) {
            pl.seq = r->seq;
            pl.mask = defer;
            pl.type = in->type;
            pl.nv = (uint8_t)nv;
            pl.es = (uint8_t)es;
            for (unsigned e = 0; e < nv; e++)
                pl.vmask[e] = vm[e];
            r->L->ops->load_deferred(r->L->ctx, r->w, &pl);
        }
    }
    return 0;
}

void ws_load_apply(const ws_load *pl, uint64_t *regs)
{
    for (unsigned e = 0; e < pl->nv; e++) {
        uint32_t at = pl->at[e];
        if (at == IR_NONE)
            continue;
        uint64_t *row = regs + (at >> 1);
        if (at & 1)
            for (uint32_t m = pl->mask; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                ((uint32_t *)row)[l] =
                    (uint32_t)(ir_exec_load_elem((ir_type)pl->type, pl->ptr[l] + e * pl->es) & pl->vmask[e]);
            }
        else
            for (uint32_t m = pl->mask; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                row[l] = ir_exec_load_elem((ir_type)pl->type, pl->ptr[l] + e * pl->es) & pl->vmask[e];
            }
    }
}

/* Value of a store's source element e for a lane. */
WS_INLINE uint64_t store_elem(const ws_run_t *r, const ir_operand *v, unsigned e, uint32_t lane)
{
    if (v->kind == IR_OPND_VEC)
        return v->u.vec_regs[e] == IR_NONE ? 0 : kload_reg_get(r->w->regs, reg_at(r, v->u.vec_regs[e]), lane);
    if (v->kind == IR_OPND_REG)
        return kload_reg_get(r->w->regs, reg_at(r, v->u.reg), lane);
    if (v->kind == IR_OPND_IMM)
        return v->u.imm;
    return 0;
}

WS_INLINE int exec_st(const ws_run_t *r, uint32_t active, const bool timed)
{
    const ir_instr *in = r->in;
    bool mid = r->di->mem_in_dst;
    const ir_operand *m = mid ? &in->dst[0] : &in->src[0];
    const ir_operand *v = mid ? &in->src[0] : &in->src[1];
    unsigned nv = v->kind == IR_OPND_VEC ? v->comp : 1;
    uint64_t es = r->di->esize;
    if (es == 0 || es > 8)
        return FAIL(r, -1, "unsupported store type .%s", ir_type_name(in->type));
    ir_lanes sv;
    bool special = v->kind == IR_OPND_SREG || v->kind == IR_OPND_ADDR;
    if (special) {
        fetch(r, v, &sv);
        nv = 1;
    }
    if (timed)
        r->info->bytes = (uint8_t)(es * nv);
    ws_mem a;
    mem_of(r, m, &a);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        ir_space sp = IR_SPACE_NONE;
        uint8_t *p = lane_access(r, &a, l, es * nv, true, timed, &sp);
        if (!p || race(r, l, p, es * nv, true, timed))
            return 1;
        if (timed && sp == IR_SPACE_GLOBAL && es * nv <= WS_STORE_MAX) {
            p = r->info->store_data[l]; /* the L1 writes it when it performs the store */
            r->info->store_defer |= UINT32_C(1) << l;
        }
        for (unsigned e = 0; e < nv; e++)
            ir_exec_store_elem((ir_type)in->type, special ? sv.v[l] : store_elem(r, v, e, l), p + e * es);
    }
    return 0;
}

/* atom (returns the old value) and red: lane by lane in lane order. */
WS_INLINE int exec_atom(const ws_run_t *r, uint32_t active, const bool timed)
{
    const ir_instr *in = r->in;
    bool is_red = r->di->kind == D_RED, mid = r->di->mem_in_dst;
    const ir_operand *m = is_red && mid ? &in->dst[0] : &in->src[0];
    const ir_operand *b = is_red && mid ? &in->src[0] : &in->src[1];
    const ir_operand *c = NULL;
    if (!is_red && in->n_src >= 3)
        c = &in->src[2];
    else if (is_red && mid && in->n_src >= 2)
        c = &in->src[1];
    uint64_t es = r->di->esize;
    if (es != 4 && es != 8)
        return FAIL(r, -1, "unsupported atomic type .%s", ir_type_name(in->type));
    ir_lanes bv, cv;
    if (!fetch(r, b, &bv) || (c && !fetch(r, c, &cv)))
        return FAIL(r, -1, "atomic operand is not a value");
    uint32_t dat = IR_NONE;
    uint64_t dm = UINT64_MAX;
    ws_info *info = r->info;
    if (timed) {
        info->bytes = (uint8_t)es;
        info->atom_dst = WS_NO_REG;
    }
    if (!is_red && in->dst[0].kind == IR_OPND_REG) {
        dat = reg_at(r, in->dst[0].u.reg);
        dm = reg_mask(r, in->dst[0].u.reg);
        if (timed)
            info->atom_dst = (uint16_t)(r->L->k->funcs[r->func].reg_base + in->dst[0].u.reg);
    }
    if (timed) {
        info->atom_op = in->atom;
        info->atom_type = in->type;
        info->atom_flags = in->flags;
        info->atom_vmask = dm;
    }
    ws_mem a;
    mem_of(r, m, &a);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        ir_space sp = IR_SPACE_NONE;
        uint8_t *p = lane_access(r, &a, l, es, true, timed, &sp);
        if (!p)
            return 1;
        if (timed && sp == IR_SPACE_GLOBAL) { /* performed at the memory side */
            info->atom_defer |= UINT32_C(1) << l;
            info->atom_b[l] = bv.v[l];
            info->atom_c[l] = c ? cv.v[l] : 0;
            continue;
        }
        uint64_t old = ir_exec_load_value((ir_type)in->type, p);
        ir_exec_store_value((ir_type)in->type, ir_exec_atom(in, old, bv.v[l], c ? cv.v[l] : 0), p);
        if (dat != IR_NONE)
            kload_reg_set(r->w->regs, dat, l, old & dm);
    }
    return 0;
}

/* ---- ALU-class instructions the engine does itself ------------------------------------------------ */
WS_INLINE int exec_cvta(const ws_run_t *r, uint32_t active)
{
    const ir_instr *in = r->in;
    ir_lanes v;
    if (in->n_src < 1 || in->n_dst < 1 || in->dst[0].kind != IR_OPND_REG || !fetch(r, &in->src[0], &v))
        return FAIL(r, -1, "malformed cvta");
    uint64_t base;
    if (!kload_cvta_base((ir_space)in->space, &base))
        return FAIL(r, -1, "cvta for .%s is not supported", ir_space_name(in->space));
    bool to = (in->flags & IR_F_TO) != 0;
    uint64_t tm = type_mask((ir_type)in->type);
    for (unsigned i = 0; i < IR_WARP_SIZE; i++)
        v.v[i] = (to ? v.v[i] - base : v.v[i] + base) & tm;
    write_lanes(r, in->dst[0].u.reg, v.v, active, reg_mask(r, in->dst[0].u.reg));
    return 0;
}

/* mov with a vector: {a,b,..} -> wide register (pack) or wide register -> {a,b,..} (unpack). */
static int exec_mov_vec(const ws_run_t *r, uint32_t active)
{
    const ir_instr *in = r->in;
    const ir_operand *d = &in->dst[0], *s = &in->src[0];
    unsigned bits = ir_type_bits((ir_type)in->type);
    if (d->kind == IR_OPND_VEC && s->kind == IR_OPND_VEC)
        return FAIL(r, -1, "mov between two vectors is not supported");
    const ir_operand *vec = d->kind == IR_OPND_VEC ? d : s;
    unsigned n = vec->comp;
    if (n == 0 || bits % n || bits > 64)
        return FAIL(r, -1, "malformed vector mov");
    unsigned eb = bits / n;
    uint64_t em = eb >= 64 ? UINT64_MAX : (UINT64_C(1) << eb) - 1;
    if (d->kind == IR_OPND_VEC) {
        ir_lanes v;
        if (!fetch(r, s, &v))
            return FAIL(r, -1, "malformed vector mov");
        for (unsigned e = 0; e < n; e++) {
            if (d->u.vec_regs[e] == IR_NONE)
                continue;
            ir_lanes part;
            for (unsigned i = 0; i < IR_WARP_SIZE; i++)
                part.v[i] = (v.v[i] >> (e * eb)) & em;
            write_lanes(r, d->u.vec_regs[e], part.v, active, reg_mask(r, d->u.vec_regs[e]));
        }
        return 0;
    }
    if (d->kind != IR_OPND_REG)
        return FAIL(r, -1, "malformed vector mov");
    ir_lanes v = {{0}};
    for (unsigned e = 0; e < n; e++) {
        if (s->u.vec_regs[e] == IR_NONE)
            continue;
        uint32_t at = reg_at(r, s->u.vec_regs[e]);
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            v.v[i] |= (kload_reg_get(r->w->regs, at, i) & em) << (e * eb);
    }
    write_lanes(r, d->u.reg, v.v, active, reg_mask(r, d->u.reg));
    return 0;
}

WS_INLINE int exec_alu(const ws_run_t *r, uint32_t active)
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
            return FAIL(r, -1, "source operand %u has no value", j + 1);
    ir_exec_status st = ir_exec(&x);
    if (st == IR_EXEC_UNSUPPORTED)
        return FAIL(r, -1, "unsupported instruction (type/modifier combination)");
    if (st != IR_EXEC_OK)
        return FAIL(r, -1, "not an ALU instruction (internal error)");
    for (unsigned j = 0; j < in->n_dst; j++)
        if ((x.dst_written >> j & 1) && in->dst[j].kind == IR_OPND_REG)
            write_lanes(r, in->dst[j].u.reg, x.dst[j].v, active, reg_mask(r, in->dst[j].u.reg));
    if (in->flags & IR_F_CC)
        r->w->cc = (r->w->cc & ~active) | (x.cc_out & active);
    return 0;
}

/* ---- barriers, calls, returns ------------------------------------------------------------------- */
/* A barrier instruction: the id, the optional thread count (a positive multiple of 32), for bar.red
 * the lanes whose predicate holds and the result register; the driver does the bookkeeping and the
 * release. */
static int exec_bar(const ws_run_t *r, uint32_t active)
{
    const ir_instr *in = r->in;
    ws_info *info = r->info;
    unsigned kind = in->sub ? in->sub : IR_BAR_SYNC;
    simt_advance(&r->w->st, r->pc + 1);
    info->active = active;
    info->bar_dst = WS_NO_REG;
    info->bar_count = info->bar_pred = 0;
    info->bar_arrive = info->bar_wait = false;
    info->blocksync = 0;
    if (kind == IR_BAR_WARP_SYNC || active == 0)
        return 0;
    bool red = kind == IR_BAR_RED_POPC || kind == IR_BAR_RED_AND || kind == IR_BAR_RED_OR;
    unsigned n_plain = red ? in->n_src - 1u : in->n_src; /* barrier id, optional count */
    if (n_plain < 1 || (red && in->n_src < 2))
        return FAIL(r, -1, "malformed barrier");
    unsigned first = (unsigned)__builtin_ctz(active);
    ir_lanes v;
    if (!fetch(r, &in->src[0], &v))
        return FAIL(r, -1, "malformed barrier");
    if (v.v[first] >= WS_N_BARRIERS)
        return FAIL(r, (int)first, "barrier id %" G_GUINT64_FORMAT " is out of range (0..15)", v.v[first]);
    info->bar_id = (uint32_t)v.v[first];
    if (n_plain >= 2) {
        if (!fetch(r, &in->src[1], &v))
            return FAIL(r, -1, "malformed barrier");
        uint32_t count = (uint32_t)v.v[first];
        if (count == 0 || count % IR_WARP_SIZE)
            return FAIL(r, (int)first, "barrier thread count %u is not a positive multiple of 32", count);
        info->bar_count = count;
    }
    if (red) {
        const ir_operand *po = &in->src[in->n_src - 1];
        if (!fetch(r, po, &v))
            return FAIL(r, -1, "malformed barrier");
        for (uint32_t m = active; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if ((v.v[l] != 0) != (po->neg != 0))
                info->bar_pred |= 1u << l;
        }
        if (in->n_dst > 0 && in->dst[0].kind == IR_OPND_REG)
            info->bar_dst = (uint16_t)(r->L->k->funcs[r->func].reg_base + in->dst[0].u.reg);
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

/* Copy `bytes` of each active lane's call-parameter segment from one symbol to another. */
static void cparam_copy(const ws_run_t *r, uint32_t dst_sym, uint32_t src_sym, uint64_t bytes,
                        uint32_t active)
{
    const kload_module *k = r->L->k;
    const kload_sym *ds = &k->syms[dst_sym], *ss = &k->syms[src_sym];
    while (active) {
        unsigned l = (unsigned)__builtin_ctz(active);
        active &= active - 1;
        uint8_t *seg = r->w->cparam + l * k->cparam_bytes;
        memmove(seg + ds->offset, seg + ss->offset, bytes);
    }
}

static int exec_call(const ws_run_t *r, uint32_t active)
{
    const ir_instr *in = r->in;
    if (active == 0) {
        simt_advance(&r->w->st, r->pc + 1);
        return 0;
    }
    uint32_t target = r->di->target;
    const ir_func *callee = r->L->prog->df[target].f;
    if (r->L->k->funcs[target].recursive)
        return FAIL(r, -1, "recursive call of %s is not supported", callee->name);
    guint np = callee->params ? callee->params->len : 0;
    guint nr = callee->rets ? callee->rets->len : 0;
    if (in->call_n_args != np || in->call_n_ret > nr)
        return FAIL(r, -1, "call passes %u argument%s and %u return value%s; %s takes %u and %u",
                    in->call_n_args, in->call_n_args == 1 ? "" : "s", in->call_n_ret,
                    in->call_n_ret == 1 ? "" : "s", callee->name, np, nr);
    for (guint i = 0; i < np; i++) {
        const ir_param *pa = &g_array_index(callee->params, ir_param, i);
        cparam_copy(r, pa->sym, in->call_args[i], MIN(pa->size, sym_size(r->L->mod, in->call_args[i])),
                    active);
    }
    simt_call(&r->w->st, r->pc, r->pc + 1, target, 0, active);
    return 0;
}

/* ret (or falling off the end) of lanes `active` in the current function. */
static void do_ret(const ws_run_t *r, uint32_t next_pc, uint32_t active)
{
    simt_stack *st = &r->w->st;
    const simt_entry *fr = simt_frame(st);
    if (fr->call_pc != UINT32_MAX) {
        uint32_t fi = (uint32_t)(fr - st->e);
        uint32_t caller = st->e[fi - 1].func;
        const ir_instr *call = &r->L->prog->df[caller].instrs[fr->call_pc];
        const ir_func *callee = r->L->prog->df[r->func].f;
        for (unsigned j = 0; j < call->call_n_ret; j++) {
            const ir_param *pa = &g_array_index(callee->rets, ir_param, j);
            cparam_copy(r, call->call_ret[j], pa->sym, MIN(pa->size, sym_size(r->L->mod, call->call_ret[j])),
                        active);
        }
    }
    simt_advance(st, next_pc);
    simt_ret(st, active);
}

/* ---- one instruction ------------------------------------------------------------------------------ */
/* Executes r->in (guard applied: `active`) and moves the SIMT stack on. In ws_step (timed) it also
 * fills info's kind and memory fields; a barrier fills info's bar_ fields in both. */
/* What the timing model is told an instruction of each decoded kind is (ws_info.kind, mem_kind). */
static const uint8_t ws_kind_of[] = {
    [D_ALU] = WS_ALU,       [D_MOV_VEC] = WS_ALU, [D_LD] = WS_MEM,    [D_ST] = WS_MEM,
    [D_ATOM] = WS_MEM,      [D_RED] = WS_MEM,     [D_CVTA] = WS_ALU,  [D_BRA] = WS_BRA,
    [D_CALL] = WS_CALL,     [D_RET] = WS_RET,     [D_EXIT] = WS_EXIT, [D_BAR] = WS_BAR,
    [D_BLOCKSYNC] = WS_BAR, [D_NOP] = WS_NOP,     [D_TRAP] = WS_NOP,  [D_BAD] = WS_NOP,
};
static const uint8_t ws_mem_kind_of[] = {
    [D_LD] = WS_MEM_LOAD, [D_ST] = WS_MEM_STORE, [D_ATOM] = WS_MEM_ATOM, [D_RED] = WS_MEM_RED, [D_BAD] = 0,
};

WS_INLINE int exec_instr(ws_run_t *r, uint32_t active, const bool timed)
{
    const ir_instr *in = r->in;
    ws_info *info = r->info;
    simt_stack *st = &r->w->st;
    uint32_t next = r->pc + 1;
    int rc = 0;
    if (timed) {
        info->kind = ws_kind_of[r->di->kind];
        info->mem_kind = ws_mem_kind_of[r->di->kind];
    }
    switch ((dkind)r->di->kind) {
    case D_ALU:
        if (active)
            rc = exec_alu(r, active);
        simt_advance(st, next);
        break;
    case D_MOV_VEC:
        if (active)
            rc = exec_mov_vec(r, active);
        simt_advance(st, next);
        break;
    case D_LD:
        if (active)
            rc = exec_ld(r, active, timed);
        simt_advance(st, next);
        break;
    case D_ST:
        if (active)
            rc = exec_st(r, active, timed);
        simt_advance(st, next);
        break;
    case D_ATOM:
    case D_RED:
        if (active)
            rc = exec_atom(r, active, timed);
        simt_advance(st, next);
        break;
    case D_CVTA:
        if (active)
            rc = exec_cvta(r, active);
        simt_advance(st, next);
        break;
    case D_BRA:
        info->diverged = simt_branch(st, active, r->di->target, next, in->reconv);
        break;
    case D_CALL:
        rc = exec_call(r, active);
        break;
    case D_RET:
        if (active)
            do_ret(r, next, active);
        else
            simt_advance(st, next);
        break;
    case D_EXIT:
        simt_advance(st, next);
        simt_exit(st, active);
        break;
    case D_BAR:
        rc = exec_bar(r, active);
        break;
    case D_BLOCKSYNC: /* the CTA waits at the launch's blocksync barrier, then for the grid */
        simt_advance(st, next);
        info->bar_dst = WS_NO_REG;
        info->bar_count = info->bar_pred = 0;
        info->bar_arrive = info->bar_wait = false;
        info->blocksync = 0;
        if (active) {
            info->bar_id = r->L->blocksync_bar;
            info->bar_kind = IR_BAR_SYNC;
            info->bar_arrive = info->bar_wait = true;
            info->blocksync = (uint8_t)(1 + in->sub);
        }
        break;
    case D_NOP:
        simt_advance(st, next);
        break;
    case D_TRAP:
        if (active)
            return FAIL(r, (int)__builtin_ctz(active), "%s executed", ir_op_name((ir_opcode)in->op));
        simt_advance(st, next);
        break;
    case D_BAD:
        return FAIL(r, -1, "cannot execute: %s", r->di->why);
    }
    return rc;
}

/* ---- ws_run: the functional runner's turn --------------------------------------------------------- */
/* One line per executed warp instruction: block, warp, function, pc, SIMT mask, active lanes. */
static G_GNUC_NO_INLINE void trace_instr(const ws_launch *L, const ws_warp *w, uint32_t func, uint32_t pc,
                                         uint32_t mask, uint32_t active)
{
    const dfunc *df = &L->prog->df[func];
    const uint32_t *c = w->cta->ctaid;
    GString *g = g_string_new(NULL);
    g_string_printf(g, "%" G_GUINT64_FORMAT " block (%u,%u,%u) warp %u %s pc %u mask %08x active %08x  ",
                    L->executed, c[0], c[1], c[2], w->id, df->f->name, pc, mask, active);
    if (pc < df->n)
        ir_print_instr(g, L->mod, df->f, &df->instrs[pc]);
    else
        g_string_append(g, "ret (implicit: the end of the function)");
    g_string_append_c(g, '\n');
    fputs(g->str, L->trace);
    g_string_free(g, TRUE);
}

/* Count one executed warp instruction (guarded-off ones too; thread instructions are the lanes whose
 * guard held), trace it, and enforce the instruction budget. Nonzero when the budget ran out. */
WS_INLINE int count_instr(ws_launch *L, const ws_warp *w, uint32_t func, uint32_t pc, uint32_t mask,
                          uint32_t active, unsigned cls)
{
    frun_stats *S = L->stats;
    if (++L->executed > L->budget) {
        ws_fail(L, w, func, pc, -1,
                "instruction limit of %" G_GUINT64_FORMAT " warp instructions reached (an infinite loop?)",
                L->budget);
        return 1;
    }
    L->clock = L->executed;
    if (G_UNLIKELY(L->trace != NULL))
        trace_instr(L, w, func, pc, mask, active);
    S->warp_instrs++;
    S->thread_instrs += (uint64_t)__builtin_popcount(active);
    S->by_class[cls]++;
    return 0;
}

ws_stop ws_run(ws_launch *L, ws_warp *w, unsigned *quantum, ws_info *info)
{
    ws_run_t r = {.L = L, .w = w, .info = info};
    while (*quantum > 0) {
        --*quantum;
        if (simt_done(&w->st))
            return WS_STOP_DONE;
        const simt_entry *t = simt_top(&w->st);
        uint32_t func = t->func, pc = t->pc, mask = t->mask;
        const dfunc *df = &L->prog->df[func];
        r.func = func;
        r.pc = pc;
        if (pc >= df->n) {
            r.in = NULL;
            if (pc == SIMT_PC_EXIT) {
                ws_fail(
                    L, w, func, pc, -1,
                    "lanes 0x%08x are waiting at the function exit without having returned (internal error)",
                    mask);
                return WS_STOP_ERROR;
            }
            /* Falling off the end is ret, and counts as one: the timing model issues it (a warp
             * instruction of class ctrl over the SIMT mask), as hardware runs the EXIT ptxas adds. */
            if (count_instr(L, w, func, pc, mask, mask, IR_CLASS_CTRL))
                return WS_STOP_LIMIT;
            do_ret(&r, pc, mask);
            continue;
        }
        r.in = &df->instrs[pc];
        r.di = &df->d[pc];
        uint32_t active = mask;
        if (r.in->guard != IR_NONE)
            active = pred_mask(&r, r.in->guard, r.in->guard_neg != 0, mask);
        if (count_instr(L, w, func, pc, mask, active, r.di->cls))
            return WS_STOP_LIMIT;
        if (exec_instr(&r, active, false))
            return WS_STOP_ERROR;
        if (r.di->kind == D_BRA && info->diverged)
            L->stats->divergent_branches++;
        else if (r.di->kind == D_BAR && info->bar_arrive)
            return WS_STOP_BAR;
    }
    return WS_STOP_TURN;
}

/* ---- ws_step: the timing model's instruction ------------------------------------------------------ */
int ws_step(ws_launch *L, ws_warp *w, uint64_t seq, ws_info *info)
{
    g_assert(!simt_done(&w->st));
    const simt_entry *t = simt_top(&w->st);
    ws_run_t r = {.L = L, .w = w, .func = t->func, .pc = t->pc, .info = info, .seq = seq};
    const dfunc *df = &L->prog->df[r.func];
    uint32_t mask = t->mask;
    memset(info, 0, offsetof(ws_info, addr)); /* addr: only active lanes are written and read */
    info->func = r.func;
    info->pc = r.pc;
    if (r.pc >= df->n) {
        if (r.pc == SIMT_PC_EXIT)
            return ws_fail(L, w, r.func, r.pc, -1,
                           "lanes 0x%08x wait at the function exit without having returned (internal error)",
                           mask);
        info->kind = WS_RET; /* falling off the end is ret */
        info->cls = IR_CLASS_CTRL;
        info->active = mask;
        do_ret(&r, r.pc, mask);
        return 0;
    }
    r.in = &df->instrs[r.pc];
    r.di = &df->d[r.pc];
    info->cls = r.di->cls;
    info->op = (uint8_t)r.in->op;
    info->space = r.in->space;
    const ws_ops *ops = L->ops;
    if (G_UNLIKELY(ops && ops->before))
        ops->before(L->ctx, w, r.func, r.pc, r.in, mask);
    uint32_t active = mask;
    if (r.in->guard != IR_NONE)
        active = pred_mask(&r, r.in->guard, r.in->guard_neg != 0, mask);
    info->active = active;
    if (exec_instr(&r, active, true))
        return 1;
    if (G_UNLIKELY(ops && ops->after))
        ops->after(L->ctx, w, r.in, info);
    return 0;
}

uint32_t ws_head_shared(ws_launch *L, ws_warp *w, uint64_t off[IR_WARP_SIZE])
{
    if (simt_done(&w->st))
        return 0;
    const simt_entry *t = simt_top(&w->st);
    const dfunc *df = &L->prog->df[t->func];
    if (t->pc >= df->n)
        return 0;
    const ir_instr *in = &df->instrs[t->pc];
    if (ir_instr_class(in) != IR_CLASS_MEM || in->op == IR_OP_PREFETCH || in->cb ||
        (in->space != IR_SPACE_NONE && in->space != IR_SPACE_SHARED))
        return 0;
    const ir_operand *m = in->n_dst > 0 && in->dst[0].kind == IR_OPND_MEM ? &in->dst[0] : &in->src[0];
    if (m->kind != IR_OPND_MEM)
        return 0;
    ws_run_t r = {.L = L, .w = w, .func = t->func, .pc = t->pc, .in = in, .di = &df->d[t->pc]};
    uint32_t mask = in->guard != IR_NONE ? pred_mask(&r, in->guard, in->guard_neg != 0, t->mask) : t->mask;
    ws_mem a;
    mem_of(&r, m, &a);
    uint32_t out = 0;
    for (uint32_t k = mask; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        uint64_t addr = mem_addr(&a, l), sa = addr;
        if (in->space == IR_SPACE_SHARED || kload_generic_resolve(addr, &sa) == IR_SPACE_SHARED) {
            off[l] = sa;
            out |= UINT32_C(1) << l;
        }
    }
    return out;
}
