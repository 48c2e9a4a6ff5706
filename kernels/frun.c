/* frun.c — the functional runner (see frun.h). */
#include "kernels/frun.h"
#include "kernels/spu_isa.h"

#include "kernels/ir_exec.h"
#include "kernels/launch_cli.h"
#include "kernels/simt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define FULL_MASK  0xffffffffu
#define N_BARRIERS 16

/* ---- decoded instructions: what the hot loop dispatches on, computed once per module ---------- */
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

typedef struct {
    wl_device dev; /* first: the wl_device handed out */
    ir_module *mod;
    fmem *mem;
    kload_module *k;
    dfunc *df;
    frun_stats stats;
    uint64_t max_instr;
    uint32_t gridid;
    unsigned quantum;    /* warp instructions per turn */
    uint32_t sched_seed; /* 0: CTAs in order, warps round-robin; else shuffled (frun_device_set_schedule) */
    bool race_check;     /* frun_device_set_race_check */
    FILE *trace;         /* frun_device_set_trace */
    uint64_t max_shared; /* shared bytes per CTA (frun_device_set_max_shared) */
    uint32_t nwarpid;    /* what %nwarpid reads (frun_device_set_nwarpid) */
} frun_dev;

/* ---- per-launch state ---------------------------------------------------------------------- */
enum { W_READY, W_BAR, W_DONE };

typedef struct {
    uint32_t id;
    uint32_t valid; /* lanes that exist */
    uint8_t state;
    uint8_t bar_id, bar_kind;
    uint32_t bar_dst; /* bar.red destination register slot, IR_NONE */
    uint32_t bar_mask;
    uint32_t cc; /* carry flag per lane */
    simt_stack st;
    uint64_t *regs;
    uint8_t *local;  /* 32 lanes x local_bytes */
    uint8_t *cparam; /* 32 lanes x cparam_bytes */
} fwarp;

typedef struct {
    uint32_t warps, threads, expected;
    uint32_t popc;
    bool all, any;
} fbar;

typedef struct {
    frun_dev *d;
    const wl_launch *l;
    uint32_t entry;
    const ir_func *kf;
    uint8_t *kparam;
    uint64_t kparam_size;
    fmem_seg shared;
    uint64_t shared_static;
    uint32_t ctaid[3];
    uint32_t nthreads, nwarps, live;
    fwarp *warps;
    fbar bar[N_BARRIERS];
    uint64_t local_bytes, cparam_bytes;
    uint64_t executed, budget;
    GString *err;
    /* The last global region hit (no allocation happens during a launch, so it stays valid). Not an
     * fmem_cache: this hand-written form compiles to fewer instructions on the hot path (callgrind in
     * frun_launch, spmv at the default size: 977.4 M against 983.9 M), and it is the benchmark's floor. */
    uint64_t gbase, gsize;
    uint8_t *gdata;
    bool greadonly;
    GRand *rng; /* shuffled schedule, or NULL */
    /* The shared-memory race check: per 4-byte word of shared memory, who touched it in the current
     * barrier interval (epoch). */
    struct race_word *race;
    uint32_t epoch;
    uint32_t *order; /* warp visiting order of a pass */
} flaunch;

/* One word of shared memory in the race check. */
struct race_word {
    uint32_t epoch;   /* barrier interval of the records below */
    uint32_t readers; /* warps that read it in that interval */
    uint32_t wpc;     /* the writer's pc */
    uint16_t writer;  /* warp + 1 that wrote it in that interval, 0: none */
    uint16_t pad;
};

/* ---- decoding ------------------------------------------------------------------------------ */
static const ir_operand *find_opnd(const ir_instr *in, ir_opnd_kind kind)
{
    for (unsigned j = 0; j < in->n_src; j++)
        if (in->src[j].kind == kind)
            return &in->src[j];
    return NULL;
}

static void decode_instr(const ir_module *m, const ir_instr *in, dinstr *di)
{
    memset(di, 0, sizeof *di);
    di->cls = (uint8_t)ir_instr_class(in);
    di->esize = (uint8_t)(ir_type_bits(in->type) / 8);
    if (spu_isa_use(in)) { /* blocksync, CB, SPU registers: only the spu_grid machine has them */
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
    case IR_OP_CALL: {
        const ir_operand *t = find_opnd(in, IR_OPND_FUNC);
        if (!t) {
            di->kind = D_BAD, di->why = "indirect call";
        } else if (t->u.func >= m->funcs->len) {
            di->kind = D_BAD, di->why = "call to an unknown function";
        } else {
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
        break;
    }
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

static void decode_module(frun_dev *d)
{
    const ir_module *m = d->mod;
    d->df = g_new0(dfunc, m->funcs->len ? m->funcs->len : 1);
    for (guint f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        dfunc *df = &d->df[f];
        df->f = fn;
        df->n = fn->instrs ? ir_func_n_instrs(fn) : 0;
        df->instrs = df->n ? ir_func_instr(fn, 0) : NULL;
        df->d = g_new0(dinstr, df->n ? df->n : 1);
        for (uint32_t i = 0; i < df->n; i++)
            decode_instr(m, &df->instrs[i], &df->d[i]);
        guint nr = fn->regs ? fn->regs->len : 0;
        df->reg_mask = g_new(uint64_t, nr ? nr : 1);
        for (guint r = 0; r < nr; r++)
            df->reg_mask[r] = type_mask(g_array_index(fn->regs, ir_reg, r).type);
    }
}

/* ---- error reporting ------------------------------------------------------------------------ */
static void thread_coords(const flaunch *L, uint32_t warp, uint32_t lane, uint32_t t[3])
{
    uint32_t lt = warp * IR_WARP_SIZE + lane;
    t[0] = lt % L->l->block[0];
    t[1] = lt / L->l->block[0] % L->l->block[1];
    t[2] = lt / (L->l->block[0] * L->l->block[1]);
}

/* "kernel K: FUNC pc N (FILE:LINE `instr`) block (x,y,z) thread (x,y,z): " then the message. */
static int G_GNUC_PRINTF(6, 7)
    fail(flaunch *L, const fwarp *w, uint32_t func, uint32_t pc, int lane, const char *fmt, ...)
{
    GString *e = L->err;
    const dfunc *df = &L->d->df[func];
    g_string_append_printf(e, "kernel %s: ", L->kf->name);
    if (func != L->entry)
        g_string_append_printf(e, "in .func %s: ", df->f->name);
    if (pc < df->n) {
        const ir_instr *in = &df->instrs[pc];
        g_string_append_printf(e, "pc %u (%s:%u `", pc, L->d->mod->filename ? L->d->mod->filename : "?",
                               in->line);
        ir_print_instr(e, L->d->mod, df->f, in);
        g_string_append(e, "`)");
    } else {
        g_string_append_printf(e, "pc %u (end of function)", pc);
    }
    g_string_append_printf(e, " block (%u,%u,%u)", L->ctaid[0], L->ctaid[1], L->ctaid[2]);
    if (w && lane >= 0) {
        uint32_t t[3];
        thread_coords(L, w->id, (uint32_t)lane, t);
        g_string_append_printf(e, " thread (%u,%u,%u)", t[0], t[1], t[2]);
    } else if (w) {
        g_string_append_printf(e, " warp %u", w->id);
    }
    g_string_append(e, ": ");
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(e, fmt, ap);
    va_end(ap);
    return 1;
}

static void dump_state(flaunch *L)
{
    static const char *const states[] = {"ready", "at barrier", "done"};
    g_string_append_printf(L->err, "\nstate of block (%u,%u,%u), %u warps:\n", L->ctaid[0], L->ctaid[1],
                           L->ctaid[2], L->nwarps);
    for (uint32_t i = 0; i < L->nwarps; i++) {
        const fwarp *w = &L->warps[i];
        g_string_append_printf(L->err, "  warp %u: %s", i, states[w->state]);
        if (w->state == W_BAR)
            g_string_append_printf(L->err, " %u", w->bar_id);
        g_string_append_printf(L->err, ", exited lanes 0x%08x", w->st.exited);
        if (!simt_done(&w->st)) {
            /* Where it stands: the instruction before the top entry's pc is what it last executed
             * (the barrier, for a blocked warp). */
            const simt_entry *t = simt_top(&w->st);
            const dfunc *df = &L->d->df[t->func];
            uint32_t at = w->state == W_BAR && t->pc > 0 ? t->pc - 1 : t->pc;
            if (at < df->n) {
                g_string_append_printf(L->err, ", at pc %u (line %u `", at, df->instrs[at].line);
                ir_print_instr(L->err, L->d->mod, df->f, &df->instrs[at]);
                g_string_append(L->err, "`)");
            }
        }
        g_string_append_c(L->err, '\n');
        simt_dump(&w->st, L->err, "    ");
    }
    for (unsigned b = 0; b < N_BARRIERS; b++)
        if (L->bar[b].warps)
            g_string_append_printf(
                L->err, "  barrier %u: %u warps (%u threads) arrived, %u warps not finished%s\n", b,
                L->bar[b].warps, L->bar[b].threads, L->live, L->bar[b].expected ? " (count given)" : "");
}

/* ---- operands ------------------------------------------------------------------------------- */
static inline uint64_t *reg_slot(const flaunch *L, const fwarp *w, uint32_t func, uint32_t reg)
{
    return &w->regs[((uint64_t)L->d->k->funcs[func].reg_base + reg) * IR_WARP_SIZE];
}

uint64_t frun_sreg_value(const frun_sreg_ctx *c, ir_sreg sreg, unsigned comp, uint32_t lane)
{
    unsigned k = comp < 3 ? comp : 0;
    switch (sreg) {
    case IR_SREG_TID: {
        uint32_t lt = c->warp * IR_WARP_SIZE + lane;
        uint32_t t[3] = {lt % c->block[0], lt / c->block[0] % c->block[1], lt / (c->block[0] * c->block[1])};
        return t[k];
    }
    case IR_SREG_NTID:
        return c->block[k];
    case IR_SREG_CTAID:
        return c->ctaid[k];
    case IR_SREG_NCTAID:
        return c->grid[k];
    case IR_SREG_LANEID:
        return lane;
    case IR_SREG_WARPID:
        return c->warp;
    case IR_SREG_NWARPID:
        return c->nwarpid ? c->nwarpid : FRUN_DEFAULT_NWARPID;
    case IR_SREG_SMID:
        return c->smid;
    case IR_SREG_NSMID:
        return c->nsmid;
    case IR_SREG_GRIDID:
        return c->gridid;
    case IR_SREG_CLOCK:
        return (uint32_t)c->clock;
    case IR_SREG_CLOCK64:
    case IR_SREG_GLOBALTIMER:
        return c->clock;
    case IR_SREG_LANEMASK_EQ:
        return UINT32_C(1) << lane;
    case IR_SREG_LANEMASK_LE:
        return (uint32_t)((UINT64_C(2) << lane) - 1);
    case IR_SREG_LANEMASK_LT:
        return (UINT32_C(1) << lane) - 1;
    case IR_SREG_LANEMASK_GE:
        return ~((UINT32_C(1) << lane) - 1);
    case IR_SREG_LANEMASK_GT:
        return (uint32_t) ~((UINT64_C(2) << lane) - 1);
    case IR_SREG_DYN_SMEM_SIZE:
        return c->dyn_smem;
    case IR_SREG_TOTAL_SMEM_SIZE:
        return c->total_smem;
    case IR_SREG_REGPASSX:
    case IR_SREG_REGPASSY:
    case IR_SREG_REGCPASSX:
    case IR_SREG_REGCPASSY:
    case IR_SREG_REGSPILLNB:
    case IR_SREG_REGCSPILLNB:
    case IR_SREG_REGVIU:
    case IR_SREG_REGIUDIR:
    case IR_SREG_REGIUID:
    case IR_SREG_REGLAST:
        return c->spu ? c->spu[sreg - IR_SREG_REGPASSX] : 0;
    case IR_SREG_COUNT:
        break;
    }
    return 0;
}

static frun_sreg_ctx sreg_ctx(const flaunch *L, const fwarp *w)
{
    frun_sreg_ctx c = {.warp = w->id,
                       .nwarps = L->nwarps,
                       .nwarpid = L->d->nwarpid,
                       .smid = 0,
                       .nsmid = 1,
                       .gridid = L->d->gridid,
                       .clock = L->executed,
                       .dyn_smem = L->l->shared_bytes,
                       .total_smem = L->shared.size};
    for (unsigned i = 0; i < 3; i++) {
        c.block[i] = L->l->block[i];
        c.grid[i] = L->l->grid[i];
        c.ctaid[i] = L->ctaid[i];
    }
    return c;
}

/* Address of a symbol in its own space. */
static inline uint64_t sym_addr(const flaunch *L, uint32_t sym)
{
    return kload_sym_address(L->d->k, L->entry, sym);
}

/* Fetch an operand's value for all 32 lanes. Returns false for an operand that has no value. */
static bool fetch(const flaunch *L, const fwarp *w, uint32_t func, const ir_operand *o, ir_lanes *out)
{
    switch ((ir_opnd_kind)o->kind) {
    case IR_OPND_REG:
        /* Raw values: ir_exec applies a predicate operand's `!` itself. */
        memcpy(out->v, reg_slot(L, w, func, o->u.reg), sizeof out->v);
        return true;
    case IR_OPND_IMM:
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = o->u.imm;
        return true;
    case IR_OPND_SREG: {
        frun_sreg_ctx c = sreg_ctx(L, w);
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = frun_sreg_value(&c, (ir_sreg)o->u.sreg, o->comp, i);
        return true;
    }
    case IR_OPND_ADDR: {
        uint64_t a =
            (o->u.mem.base_sym != IR_NONE ? sym_addr(L, o->u.mem.base_sym) : 0) + (uint64_t)o->u.mem.offset;
        for (unsigned i = 0; i < IR_WARP_SIZE; i++)
            out->v[i] = a;
        return true;
    }
    default:
        return false;
    }
}

static inline void write_lanes(uint64_t *slot, const uint64_t *v, uint32_t mask, uint64_t vmask)
{
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

static inline uint32_t pred_mask(const flaunch *L, const fwarp *w, uint32_t func, uint32_t reg, bool neg,
                                 uint32_t mask)
{
    const uint64_t *p = reg_slot(L, w, func, reg);
    uint32_t out = 0;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        if ((p[l] != 0) != neg)
            out |= UINT32_C(1) << l;
    }
    return out;
}

/* ---- memory --------------------------------------------------------------------------------- */
static const char *space_label(ir_space s)
{
    return s == IR_SPACE_NONE ? "generic" : ir_space_name(s);
}

/* The memory lane `lane` of warp `w` sees. */
static kload_spaces lane_spaces(const flaunch *L, const fwarp *w, uint32_t lane)
{
    return (kload_spaces){
        .global = L->d->mem,
        .shared = L->shared,
        .local = {.data = w->local + lane * L->local_bytes, .size = L->local_bytes},
        .cparam = {.data = w->cparam + lane * L->cparam_bytes, .size = L->cparam_bytes},
        .kparam = {.data = L->kparam, .size = L->kparam_size},
    };
}

/* Host pointer for `len` bytes at `addr` in `space` for a lane, or NULL (with the reason appended to
 * `why` unless it is NULL: the hot path passes NULL and asks again only to report a failure). */
static uint8_t *resolve(const flaunch *L, const fwarp *w, uint32_t lane, ir_space space, uint64_t addr,
                        uint64_t len, bool write, GString *why)
{
    kload_spaces sp = lane_spaces(L, w, lane);
    return kload_resolve(&sp, space, addr, len, write, why);
}

/* A MEM operand's per-lane addresses: base[lane] + off (base NULL: off alone). Computed once per
 * instruction. */
typedef struct {
    const uint64_t *base;
    uint64_t off;
} maddr;

static inline maddr mem_addr_of(const flaunch *L, const fwarp *w, uint32_t func, const ir_operand *m)
{
    maddr a = {.base = NULL, .off = (uint64_t)m->u.mem.offset};
    if (m->u.mem.base_reg != IR_NONE)
        a.base = reg_slot(L, w, func, m->u.mem.base_reg);
    else if (m->u.mem.base_sym != IR_NONE)
        a.off += sym_addr(L, m->u.mem.base_sym);
    return a;
}

static inline uint64_t maddr_lane(const maddr *a, uint32_t lane)
{
    return a->off + (a->base ? a->base[lane] : 0);
}

/* The hot path of resolve(): shared, local and the cached global region inline. NULL means "ask
 * resolve()", which also explains failures. */
static inline uint8_t *fast_ptr(flaunch *L, fwarp *w, uint32_t lane, ir_space space, uint64_t addr,
                                uint64_t len, bool write)
{
    if (space == IR_SPACE_NONE)
        space = kload_generic_resolve(addr, &addr);
    switch (space) {
    case IR_SPACE_SHARED: /* 32-bit windows: an address computed past 2^32 wraps (kload_resolve) */
        addr = (uint32_t)addr;
        return addr <= L->shared.size && len <= L->shared.size - addr ? L->shared.data + addr : NULL;
    case IR_SPACE_LOCAL:
        addr = (uint32_t)addr;
        return addr <= L->local_bytes && len <= L->local_bytes - addr
                   ? w->local + lane * L->local_bytes + addr
                   : NULL;
    case IR_SPACE_GLOBAL:
    case IR_SPACE_CONST:
        if (G_UNLIKELY(addr - L->gbase >= L->gsize)) {
            const fmem_region *r = fmem_find(L->d->mem, addr);
            if (!r)
                return NULL;
            L->gbase = r->base, L->gsize = r->size, L->gdata = r->data, L->greadonly = r->readonly;
        }
        if (len > L->gsize - (addr - L->gbase) || (write && L->greadonly))
            return NULL;
        return L->gdata + (addr - L->gbase);
    default:
        return resolve(L, w, lane, space, addr, len, write, NULL);
    }
}

static G_GNUC_NO_INLINE uint8_t *lane_access_fail(flaunch *L, fwarp *w, uint32_t func, uint32_t pc,
                                                  uint32_t lane, const ir_instr *in, uint64_t addr,
                                                  uint64_t len, bool write)
{
    if (len > 1 && (addr & (len - 1)) != 0) {
        fail(L, w, func, pc, (int)lane,
             "misaligned %s %s of %" G_GUINT64_FORMAT " bytes at address 0x%" G_GINT64_MODIFIER "x",
             space_label(in->space), ir_access_kind(in, write), len, addr);
        return NULL;
    }
    if (fmem_get_check(L->d->mem) == FMEM_CHECK_WARN) {
        kload_spaces sp = lane_spaces(L, w, lane);
        GString *where = g_string_new(NULL);
        uint8_t *p = kload_resolve_padding(&sp, (ir_space)in->space, addr, len, where);
        if (p && fmem_note_site(L->d->mem, (uint64_t)L->entry << 48 | (uint64_t)func << 32 | pc)) {
            GString *saved = L->err;
            L->err = g_string_new("gpusc: warning: ");
            fail(L, w, func, pc, (int)lane,
                 "out-of-bounds %s %s of %" G_GUINT64_FORMAT " bytes at 0x%" G_GINT64_MODIFIER
                 "x: %s (--memcheck warn: reported once per instruction)\n",
                 space_label(in->space), ir_access_kind(in, write), len, addr, where->str);
            fputs(L->err->str, stderr);
            g_string_free(L->err, TRUE);
            L->err = saved;
        }
        g_string_free(where, TRUE);
        if (p)
            return p;
    }
    GString *why = g_string_new(NULL);
    if (resolve(L, w, lane, in->space, addr, len, write, why))
        g_string_append(why, "(internal error: the fast path refused a valid access)");
    fail(L, w, func, pc, (int)lane, "invalid %s %s: %s", space_label(in->space), ir_access_kind(in, write),
         why->str);
    g_string_free(why, TRUE);
    return NULL;
}

/* Checks and translates one lane's access (len a power of two, aligned); reports a failure. */
static inline uint8_t *lane_access(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, uint32_t lane,
                                   const ir_instr *in, uint64_t addr, uint64_t len, bool write)
{
    uint8_t *p = NULL;
    if (G_LIKELY((addr & (len - 1)) == 0))
        p = fast_ptr(L, w, lane, (ir_space)in->space, addr, len, write);
    if (G_LIKELY(p != NULL))
        return p;
    return lane_access_fail(L, w, func, pc, lane, in, addr, len, write);
}

/* The race check: an access by warp w (not an atomic) to shared bytes [off, off+len). Two warps
 * touching one word in one barrier interval, at least one of them writing, is a race (accesses of
 * one warp are ordered; atomics are exempt). Returns nonzero after reporting it. */
static G_GNUC_NO_INLINE int race_note(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, uint32_t lane,
                                      uint64_t off, uint64_t len, bool write)
{
    for (uint64_t i = off / 4; i <= (off + len - 1) / 4; i++) {
        struct race_word *r = &L->race[i];
        if (r->epoch != L->epoch)
            *r = (struct race_word){.epoch = L->epoch};
        uint32_t me = UINT32_C(1) << w->id;
        if (r->writer && r->writer != w->id + 1)
            return fail(L, w, func, pc, (int)lane,
                        "shared-memory race: %s of shared address 0x%" G_GINT64_MODIFIER
                        "x, which warp %u wrote at pc %u with no barrier in between",
                        write ? "store" : "load", i * 4, r->writer - 1u, r->wpc);
        if (write && (r->readers & ~me))
            return fail(L, w, func, pc, (int)lane,
                        "shared-memory race: store to shared address 0x%" G_GINT64_MODIFIER
                        "x, which warp %u read with no barrier in between",
                        i * 4, (unsigned)__builtin_ctz(r->readers & ~me));
        if (write) {
            r->writer = (uint16_t)(w->id + 1);
            r->wpc = pc;
        } else {
            r->readers |= me;
        }
    }
    return 0;
}

/* The race check for a host pointer that may be in shared memory. */
static inline int race_check(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, uint32_t lane,
                             const uint8_t *p, uint64_t len, bool write)
{
    if (G_LIKELY(!L->race) || p < L->shared.data || p >= L->shared.data + L->shared.size)
        return 0;
    return race_note(L, w, func, pc, lane, (uint64_t)(p - L->shared.data), len, write);
}

static int exec_ld(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, const dinstr *di,
                   uint32_t active)
{
    const ir_operand *m = &in->src[0];
    const ir_operand *d = &in->dst[0];
    unsigned nv = d->kind == IR_OPND_VEC ? d->comp : 1;
    uint64_t es = di->esize;
    if (es == 0 || es > 8)
        return fail(L, w, func, pc, -1, "unsupported load type .%s", ir_type_name(in->type));
    const uint64_t *rmask = L->d->df[func].reg_mask;
    uint64_t *slots[4];
    uint64_t vm[4];
    for (unsigned e = 0; e < nv; e++) {
        uint32_t r = d->kind == IR_OPND_VEC ? d->u.vec_regs[e] : d->u.reg;
        slots[e] = r == IR_NONE ? NULL : reg_slot(L, w, func, r);
        vm[e] = r == IR_NONE ? 0 : rmask[r];
    }
    maddr ma = mem_addr_of(L, w, func, m);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        const uint8_t *p = lane_access(L, w, func, pc, l, in, maddr_lane(&ma, l), es * nv, false);
        if (!p || race_check(L, w, func, pc, l, p, es * nv, false))
            return 1;
        for (unsigned e = 0; e < nv; e++)
            if (slots[e])
                slots[e][l] = ir_exec_load_elem((ir_type)in->type, p + e * es) & vm[e];
    }
    return 0;
}

/* Value of a store's source element e for a lane. */
static inline uint64_t store_elem(const flaunch *L, const fwarp *w, uint32_t func, const ir_operand *v,
                                  unsigned e, uint32_t lane)
{
    if (v->kind == IR_OPND_VEC)
        return v->u.vec_regs[e] == IR_NONE ? 0 : reg_slot(L, w, func, v->u.vec_regs[e])[lane];
    if (v->kind == IR_OPND_REG)
        return reg_slot(L, w, func, v->u.reg)[lane];
    if (v->kind == IR_OPND_IMM)
        return v->u.imm;
    return 0;
}

static int exec_st(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, const dinstr *di,
                   uint32_t active)
{
    const ir_operand *m = di->mem_in_dst ? &in->dst[0] : &in->src[0];
    const ir_operand *v = di->mem_in_dst ? &in->src[0] : &in->src[1];
    unsigned nv = v->kind == IR_OPND_VEC ? v->comp : 1;
    uint64_t es = di->esize;
    if (es == 0 || es > 8)
        return fail(L, w, func, pc, -1, "unsupported store type .%s", ir_type_name(in->type));
    if (v->kind == IR_OPND_SREG || v->kind == IR_OPND_ADDR) {
        ir_lanes val;
        fetch(L, w, func, v, &val);
        maddr ma = mem_addr_of(L, w, func, m);
        uint32_t mask = active;
        while (mask) {
            unsigned l = (unsigned)__builtin_ctz(mask);
            mask &= mask - 1;
            uint8_t *p = lane_access(L, w, func, pc, l, in, maddr_lane(&ma, l), es, true);
            if (!p || race_check(L, w, func, pc, l, p, es, true))
                return 1;
            ir_exec_store_value((ir_type)in->type, val.v[l], p);
        }
        return 0;
    }
    maddr ma = mem_addr_of(L, w, func, m);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint8_t *p = lane_access(L, w, func, pc, l, in, maddr_lane(&ma, l), es * nv, true);
        if (!p || race_check(L, w, func, pc, l, p, es * nv, true))
            return 1;
        for (unsigned e = 0; e < nv; e++)
            ir_exec_store_value((ir_type)in->type, store_elem(L, w, func, v, e, l), p + e * es);
    }
    return 0;
}

/* atom (returns the old value) and red: lane by lane in lane order. */
static int exec_atom(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, const dinstr *di,
                     uint32_t active)
{
    bool is_red = di->kind == D_RED;
    const ir_operand *m = is_red && di->mem_in_dst ? &in->dst[0] : &in->src[0];
    const ir_operand *b = is_red && di->mem_in_dst ? &in->src[0] : &in->src[1];
    const ir_operand *c = NULL;
    if (!is_red && in->n_src >= 3)
        c = &in->src[2];
    else if (is_red && di->mem_in_dst && in->n_src >= 2)
        c = &in->src[1];
    uint64_t es = di->esize;
    if (es != 4 && es != 8)
        return fail(L, w, func, pc, -1, "unsupported atomic type .%s", ir_type_name(in->type));
    ir_lanes bv, cv;
    if (!fetch(L, w, func, b, &bv))
        return fail(L, w, func, pc, -1, "atomic operand is not a value");
    if (c && !fetch(L, w, func, c, &cv))
        return fail(L, w, func, pc, -1, "atomic operand is not a value");
    uint64_t *dslot = NULL;
    uint64_t dm = UINT64_MAX;
    if (!is_red && in->dst[0].kind == IR_OPND_REG) {
        dslot = reg_slot(L, w, func, in->dst[0].u.reg);
        dm = L->d->df[func].reg_mask[in->dst[0].u.reg];
    }
    maddr ma = mem_addr_of(L, w, func, m);
    uint32_t mask = active;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint8_t *p = lane_access(L, w, func, pc, l, in, maddr_lane(&ma, l), es, true);
        if (!p)
            return 1;
        uint64_t old = ir_exec_load_value((ir_type)in->type, p);
        uint64_t nw = ir_exec_atom(in, old, bv.v[l], c ? cv.v[l] : 0);
        ir_exec_store_value((ir_type)in->type, nw, p);
        if (dslot)
            dslot[l] = old & dm;
    }
    return 0;
}

static int exec_cvta(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, uint32_t active)
{
    ir_lanes v;
    if (in->n_src < 1 || in->n_dst < 1 || in->dst[0].kind != IR_OPND_REG ||
        !fetch(L, w, func, &in->src[0], &v))
        return fail(L, w, func, pc, -1, "malformed cvta");
    uint64_t base;
    if (!kload_cvta_base((ir_space)in->space, &base))
        return fail(L, w, func, pc, -1, "cvta for .%s is not supported", ir_space_name(in->space));
    bool to = (in->flags & IR_F_TO) != 0;
    uint64_t tm = type_mask((ir_type)in->type);
    for (unsigned i = 0; i < IR_WARP_SIZE; i++)
        v.v[i] = (to ? v.v[i] - base : v.v[i] + base) & tm;
    write_lanes(reg_slot(L, w, func, in->dst[0].u.reg), v.v, active,
                L->d->df[func].reg_mask[in->dst[0].u.reg]);
    return 0;
}

/* mov with a vector: {a,b,..} -> wide register (pack) or wide register -> {a,b,..} (unpack). */
static int exec_mov_vec(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, uint32_t active)
{
    const ir_operand *d = &in->dst[0], *s = &in->src[0];
    unsigned bits = ir_type_bits((ir_type)in->type);
    if (d->kind == IR_OPND_VEC && s->kind == IR_OPND_VEC)
        return fail(L, w, func, pc, -1, "mov between two vectors is not supported");
    const ir_operand *vec = d->kind == IR_OPND_VEC ? d : s;
    unsigned n = vec->comp;
    if (n == 0 || bits % n || bits > 64)
        return fail(L, w, func, pc, -1, "malformed vector mov");
    unsigned eb = bits / n;
    uint64_t em = eb >= 64 ? UINT64_MAX : (UINT64_C(1) << eb) - 1;
    if (d->kind == IR_OPND_VEC) {
        ir_lanes v;
        if (!fetch(L, w, func, s, &v))
            return fail(L, w, func, pc, -1, "malformed vector mov");
        for (unsigned e = 0; e < n; e++) {
            if (d->u.vec_regs[e] == IR_NONE)
                continue;
            ir_lanes part;
            for (unsigned i = 0; i < IR_WARP_SIZE; i++)
                part.v[i] = (v.v[i] >> (e * eb)) & em;
            write_lanes(reg_slot(L, w, func, d->u.vec_regs[e]), part.v, active,
                        L->d->df[func].reg_mask[d->u.vec_regs[e]]);
        }
    } else {
        if (d->kind != IR_OPND_REG)
            return fail(L, w, func, pc, -1, "malformed vector mov");
        ir_lanes v = {{0}};
        for (unsigned e = 0; e < n; e++) {
            if (s->u.vec_regs[e] == IR_NONE)
                continue;
            const uint64_t *r = reg_slot(L, w, func, s->u.vec_regs[e]);
            for (unsigned i = 0; i < IR_WARP_SIZE; i++)
                v.v[i] |= (r[i] & em) << (e * eb);
        }
        write_lanes(reg_slot(L, w, func, d->u.reg), v.v, active, L->d->df[func].reg_mask[d->u.reg]);
    }
    return 0;
}

static int exec_alu(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, uint32_t active)
{
    ir_exec_ctx x;
    x.in = in;
    x.active = active;
    x.cc_in = w->cc;
    x.cc_out = 0;
    x.dst_written = 0;
    for (unsigned j = 0; j < in->n_src; j++)
        if (!fetch(L, w, func, &in->src[j], &x.src[j]))
            return fail(L, w, func, pc, -1, "source operand %u has no value", j + 1);
    ir_exec_status st = ir_exec(&x);
    if (st == IR_EXEC_UNSUPPORTED)
        return fail(L, w, func, pc, -1, "unsupported instruction (type/modifier combination)");
    if (st != IR_EXEC_OK)
        return fail(L, w, func, pc, -1, "not an ALU instruction (internal error)");
    const uint64_t *rmask = L->d->df[func].reg_mask;
    for (unsigned j = 0; j < in->n_dst; j++)
        if ((x.dst_written >> j & 1) && in->dst[j].kind == IR_OPND_REG)
            write_lanes(reg_slot(L, w, func, in->dst[j].u.reg), x.dst[j].v, active, rmask[in->dst[j].u.reg]);
    if (in->flags & IR_F_CC)
        w->cc = (w->cc & ~active) | (x.cc_out & active);
    return 0;
}

/* ---- barriers ------------------------------------------------------------------------------- */
static void bar_release(flaunch *L, unsigned id)
{
    fbar *b = &L->bar[id];
    L->epoch++; /* a new barrier interval for the race check */
    for (uint32_t i = 0; i < L->nwarps; i++) {
        fwarp *w = &L->warps[i];
        if (w->state != W_BAR || w->bar_id != id)
            continue;
        w->state = W_READY;
        if (w->bar_dst != IR_NONE) {
            uint64_t r = w->bar_kind == IR_BAR_RED_POPC  ? b->popc
                         : w->bar_kind == IR_BAR_RED_AND ? b->all
                                                         : b->any;
            uint32_t m = w->bar_mask;
            while (m) {
                unsigned l = (unsigned)__builtin_ctz(m);
                m &= m - 1;
                w->regs[(uint64_t)w->bar_dst * IR_WARP_SIZE + l] = r;
            }
            w->bar_dst = IR_NONE;
        }
    }
    *b = (fbar){0};
}

static void bar_try_release(flaunch *L, unsigned id)
{
    const fbar *b = &L->bar[id];
    if (b->warps == 0)
        return;
    if (b->expected ? b->threads >= b->expected : b->warps >= L->live)
        bar_release(L, id);
}

static int exec_bar(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, uint32_t active)
{
    unsigned kind = in->sub ? in->sub : IR_BAR_SYNC;
    simt_advance(&w->st, pc + 1);
    if (kind == IR_BAR_WARP_SYNC || active == 0)
        return 0;
    bool red = kind == IR_BAR_RED_POPC || kind == IR_BAR_RED_AND || kind == IR_BAR_RED_OR;
    unsigned n_plain = red ? in->n_src - 1 : in->n_src; /* barrier id, optional count */
    if (n_plain < 1 || (red && in->n_src < 2))
        return fail(L, w, func, pc, -1, "malformed barrier");
    unsigned first = (unsigned)__builtin_ctz(active);
    ir_lanes v;
    if (!fetch(L, w, func, &in->src[0], &v))
        return fail(L, w, func, pc, -1, "malformed barrier");
    uint64_t id = v.v[first];
    if (id >= N_BARRIERS)
        return fail(L, w, func, pc, (int)first, "barrier id %" G_GUINT64_FORMAT " is out of range (0..15)",
                    id);
    uint32_t count = 0;
    if (n_plain >= 2) {
        if (!fetch(L, w, func, &in->src[1], &v))
            return fail(L, w, func, pc, -1, "malformed barrier");
        count = (uint32_t)v.v[first];
        if (count == 0 || count % IR_WARP_SIZE)
            return fail(L, w, func, pc, (int)first,
                        "barrier thread count %u is not a positive multiple of 32", count);
    }
    fbar *b = &L->bar[id];
    if (b->warps == 0) {
        b->all = true;
        b->any = false;
    }
    if (red) {
        ir_lanes p;
        if (!fetch(L, w, func, &in->src[in->n_src - 1], &p))
            return fail(L, w, func, pc, -1, "malformed barrier");
        uint32_t m = active;
        while (m) {
            unsigned l = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            bool t = (p.v[l] != 0) != (in->src[in->n_src - 1].neg != 0);
            b->popc += t;
            b->all = b->all && t;
            b->any = b->any || t;
        }
    }
    b->warps++;
    b->threads += (uint32_t)__builtin_popcount(w->valid);
    if (count)
        b->expected = count;
    if (kind != IR_BAR_ARRIVE) {
        w->state = W_BAR;
        w->bar_id = (uint8_t)id;
        w->bar_kind = (uint8_t)kind;
        w->bar_mask = active;
        w->bar_dst = red && in->n_dst > 0 && in->dst[0].kind == IR_OPND_REG
                         ? L->d->k->funcs[func].reg_base + in->dst[0].u.reg
                         : IR_NONE;
    }
    bar_try_release(L, (unsigned)id);
    return 0;
}

/* ---- calls ---------------------------------------------------------------------------------- */
static uint64_t sym_size(const ir_module *m, uint32_t sym)
{
    return g_array_index(m->syms, ir_sym, sym).size;
}

/* Copy `bytes` of each active lane's call-parameter segment from one symbol to another. */
static void cparam_copy(flaunch *L, fwarp *w, uint32_t dst_sym, uint32_t src_sym, uint64_t bytes,
                        uint32_t active)
{
    const kload_sym *ds = &L->d->k->syms[dst_sym], *ss = &L->d->k->syms[src_sym];
    uint32_t m = active;
    while (m) {
        unsigned l = (unsigned)__builtin_ctz(m);
        m &= m - 1;
        uint8_t *seg = w->cparam + l * L->cparam_bytes;
        memmove(seg + ds->offset, seg + ss->offset, bytes);
    }
}

static int exec_call(flaunch *L, fwarp *w, uint32_t func, uint32_t pc, const ir_instr *in, const dinstr *di,
                     uint32_t active)
{
    if (active == 0) {
        simt_advance(&w->st, pc + 1);
        return 0;
    }
    const ir_func *callee = L->d->df[di->target].f;
    if (L->d->k->funcs[di->target].recursive)
        return fail(L, w, func, pc, -1, "recursive call of %s is not supported", callee->name);
    guint np = callee->params ? callee->params->len : 0;
    guint nr = callee->rets ? callee->rets->len : 0;
    if (in->call_n_args != np || in->call_n_ret > nr)
        return fail(L, w, func, pc, -1, "call passes %u argument%s and %u return value%s; %s takes %u and %u",
                    in->call_n_args, in->call_n_args == 1 ? "" : "s", in->call_n_ret,
                    in->call_n_ret == 1 ? "" : "s", callee->name, np, nr);
    for (guint i = 0; i < np; i++) {
        const ir_param *pa = &g_array_index(callee->params, ir_param, i);
        uint64_t n = MIN(pa->size, sym_size(L->d->mod, in->call_args[i]));
        cparam_copy(L, w, pa->sym, in->call_args[i], n, active);
    }
    simt_call(&w->st, pc, pc + 1, di->target, 0, active);
    return 0;
}

/* ret (or falling off the end) of lanes `active` in the current function. */
static void do_ret(flaunch *L, fwarp *w, uint32_t func, uint32_t next_pc, uint32_t active)
{
    const simt_entry *fr = simt_frame(&w->st);
    if (fr->call_pc != UINT32_MAX) {
        uint32_t fi = (uint32_t)(fr - w->st.e);
        uint32_t caller = w->st.e[fi - 1].func;
        const ir_instr *call = &L->d->df[caller].instrs[fr->call_pc];
        const ir_func *callee = L->d->df[func].f;
        for (unsigned j = 0; j < call->call_n_ret; j++) {
            const ir_param *pa = &g_array_index(callee->rets, ir_param, j);
            uint64_t n = MIN(pa->size, sym_size(L->d->mod, call->call_ret[j]));
            cparam_copy(L, w, call->call_ret[j], pa->sym, n, active);
        }
    }
    simt_advance(&w->st, next_pc);
    simt_ret(&w->st, active);
}

/* ---- the warp loop -------------------------------------------------------------------------- */
static void warp_finish(flaunch *L, fwarp *w)
{
    w->state = W_DONE;
    L->live--;
    for (unsigned b = 0; b < N_BARRIERS; b++)
        bar_try_release(L, b);
}

/* One line per executed warp instruction: block, warp, function, pc, SIMT mask, active lanes. */
static G_GNUC_NO_INLINE void trace_instr(const flaunch *L, const fwarp *w, uint32_t func, uint32_t pc,
                                         uint32_t mask, uint32_t active)
{
    const dfunc *df = &L->d->df[func];
    GString *g = g_string_new(NULL);
    g_string_printf(g, "%" G_GUINT64_FORMAT " block (%u,%u,%u) warp %u %s pc %u mask %08x active %08x  ",
                    L->executed, L->ctaid[0], L->ctaid[1], L->ctaid[2], w->id, df->f->name, pc, mask, active);
    if (pc < df->n)
        ir_print_instr(g, L->d->mod, df->f, &df->instrs[pc]);
    else
        g_string_append(g, "ret (implicit: the end of the function)");
    g_string_append_c(g, '\n');
    fputs(g->str, L->d->trace);
    g_string_free(g, TRUE);
}

/* Count one executed warp instruction (guarded-off ones too; thread instructions are the lanes whose
 * guard held), trace it, and enforce the instruction budget. Nonzero when the budget ran out. */
static int count_instr(flaunch *L, const fwarp *w, uint32_t func, uint32_t pc, uint32_t mask, uint32_t active,
                       unsigned cls)
{
    frun_stats *S = &L->d->stats;
    if (++L->executed > L->budget) {
        fail(L, w, func, pc, -1,
             "instruction limit of %" G_GUINT64_FORMAT " warp instructions reached (an infinite loop?)",
             L->budget);
        dump_state(L);
        return 1;
    }
    if (G_UNLIKELY(L->d->trace != NULL))
        trace_instr(L, w, func, pc, mask, active);
    S->warp_instrs++;
    S->thread_instrs += (uint64_t)__builtin_popcount(active);
    S->by_class[cls]++;
    return 0;
}

static int warp_run(flaunch *L, fwarp *w, unsigned quantum)
{
    frun_stats *S = &L->d->stats;
    while (quantum-- > 0) {
        if (simt_done(&w->st)) {
            warp_finish(L, w);
            return 0;
        }
        const simt_entry *t = simt_top(&w->st);
        uint32_t func = t->func, pc = t->pc, mask = t->mask;
        const dfunc *df = &L->d->df[func];
        if (pc >= df->n) {
            if (pc == SIMT_PC_EXIT)
                return fail(
                    L, w, func, pc, -1,
                    "lanes 0x%08x are waiting at the function exit without having returned (internal error)",
                    mask);
            /* Falling off the end is ret, and counts as one: the timing model issues it (a warp
             * instruction of class ctrl over the SIMT mask), as hardware runs the EXIT ptxas adds. */
            if (count_instr(L, w, func, pc, mask, mask, IR_CLASS_CTRL))
                return 1;
            do_ret(L, w, func, pc, mask);
            continue;
        }
        const ir_instr *in = &df->instrs[pc];
        const dinstr *di = &df->d[pc];
        uint32_t active = mask;
        if (in->guard != IR_NONE)
            active = pred_mask(L, w, func, in->guard, in->guard_neg != 0, mask);
        if (count_instr(L, w, func, pc, mask, active, di->cls))
            return 1;
        int rc = 0;
        switch ((dkind)di->kind) {
        case D_ALU:
            if (active)
                rc = exec_alu(L, w, func, pc, in, active);
            simt_advance(&w->st, pc + 1);
            break;
        case D_MOV_VEC:
            if (active)
                rc = exec_mov_vec(L, w, func, pc, in, active);
            simt_advance(&w->st, pc + 1);
            break;
        case D_LD:
            if (active)
                rc = exec_ld(L, w, func, pc, in, di, active);
            simt_advance(&w->st, pc + 1);
            break;
        case D_ST:
            if (active)
                rc = exec_st(L, w, func, pc, in, di, active);
            simt_advance(&w->st, pc + 1);
            break;
        case D_ATOM:
        case D_RED:
            if (active)
                rc = exec_atom(L, w, func, pc, in, di, active);
            simt_advance(&w->st, pc + 1);
            break;
        case D_CVTA:
            if (active)
                rc = exec_cvta(L, w, func, pc, in, active);
            simt_advance(&w->st, pc + 1);
            break;
        case D_BRA:
            if (simt_branch(&w->st, active, di->target, pc + 1, in->reconv))
                S->divergent_branches++;
            break;
        case D_CALL:
            rc = exec_call(L, w, func, pc, in, di, active);
            break;
        case D_RET:
            if (active)
                do_ret(L, w, func, pc + 1, active);
            else
                simt_advance(&w->st, pc + 1);
            break;
        case D_EXIT:
            simt_advance(&w->st, pc + 1);
            simt_exit(&w->st, active);
            break;
        case D_BAR:
            rc = exec_bar(L, w, func, pc, in, active);
            if (rc == 0 && w->state == W_BAR)
                return 0;
            break;
        case D_NOP:
            simt_advance(&w->st, pc + 1);
            break;
        case D_TRAP:
            if (active)
                return fail(L, w, func, pc, (int)__builtin_ctz(active), "%s executed",
                            ir_op_name((ir_opcode)in->op));
            simt_advance(&w->st, pc + 1);
            break;
        case D_BAD:
            return fail(L, w, func, pc, -1, "cannot execute: %s", di->why);
        }
        if (rc)
            return rc;
    }
    return 0;
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run one CTA to completion. */
static int cta_run(flaunch *L)
{
    const kload_module *k = L->d->k;
    uint64_t regs_per_warp = (uint64_t)k->total_regs * IR_WARP_SIZE;
    memset(L->warps[0].regs, 0, L->nwarps * regs_per_warp * sizeof(uint64_t));
    if (L->local_bytes)
        memset(L->warps[0].local, 0, L->nwarps * IR_WARP_SIZE * L->local_bytes);
    if (L->cparam_bytes)
        memset(L->warps[0].cparam, 0, L->nwarps * IR_WARP_SIZE * L->cparam_bytes);
    if (L->shared.size)
        memset(L->shared.data, 0, L->shared.size);
    memset(L->bar, 0, sizeof L->bar);
    if (L->race) {
        memset(L->race, 0, (L->shared.size + 3) / 4 * sizeof *L->race);
        L->epoch = 1;
    }
    for (uint32_t i = 0; i < L->nwarps; i++) {
        fwarp *w = &L->warps[i];
        uint32_t left = L->nthreads - i * IR_WARP_SIZE;
        w->valid = left >= IR_WARP_SIZE ? FULL_MASK : (UINT32_C(1) << left) - 1;
        w->state = W_READY;
        w->cc = 0;
        w->bar_dst = IR_NONE;
        simt_init(&w->st, L->entry, 0, w->valid);
    }
    L->live = L->nwarps;
    unsigned quantum = L->d->quantum;
    for (uint32_t i = 0; i < L->nwarps; i++)
        L->order[i] = i;
    for (;;) {
        bool progress = false;
        if (L->rng) /* a random visiting order and turn length for every pass */
            for (uint32_t i = L->nwarps; i > 1; i--) {
                uint32_t j = (uint32_t)g_rand_int_range(L->rng, 0, (gint32)i), t = L->order[i - 1];
                L->order[i - 1] = L->order[j], L->order[j] = t;
            }
        for (uint32_t i = 0; i < L->nwarps; i++) {
            fwarp *w = &L->warps[L->order[i]];
            if (w->state != W_READY)
                continue;
            progress = true;
            unsigned q = L->rng ? (unsigned)g_rand_int_range(L->rng, 1, (gint32)quantum + 1) : quantum;
            if (warp_run(L, w, q))
                return 1;
        }
        if (L->live == 0)
            return 0;
        if (!progress) {
            g_string_append_printf(L->err,
                                   "kernel %s: barrier deadlock in block (%u,%u,%u): every unfinished warp "
                                   "waits at a barrier that cannot complete",
                                   L->kf->name, L->ctaid[0], L->ctaid[1], L->ctaid[2]);
            dump_state(L);
            return 1;
        }
    }
}

/* Zeroed per-launch storage (at least one byte), or NULL with a message in L->err. */
static void *launch_alloc(flaunch *L, uint64_t bytes, const char *what)
{
    void *p = bytes < G_MAXSIZE ? g_try_malloc0(bytes ? bytes : 1) : NULL;
    if (!p)
        g_string_append_printf(L->err, "%s: kernel %s: cannot allocate %" G_GUINT64_FORMAT " bytes of %s",
                               L->d->mod->filename, L->kf->name, bytes, what);
    return p;
}

int frun_launch(wl_device *dev, const wl_launch *l, GString *err)
{
    frun_dev *d = (frun_dev *)dev;
    uint32_t entry;
    if (launch_cli_check(d->k, d->mod, l, &entry, err))
        return 1;
    const kload_module *k = d->k;
    const kload_func *kf = &k->funcs[entry];
    uint64_t shared = launch_cli_shared_bytes(k, entry, l->shared_bytes);
    if (shared > d->max_shared) {
        g_string_append_printf(
            err,
            "%s: kernel %s: a CTA needs %" G_GUINT64_FORMAT " bytes of shared memory (%" G_GUINT64_FORMAT
            " static + %u dynamic) but the functional runner allows %" G_GUINT64_FORMAT
            " per CTA (gpusc-run --max-shared)",
            d->mod->filename, l->entry, shared, kf->shared_static, l->shared_bytes, d->max_shared);
        return 1;
    }
    flaunch L = {.d = d, .l = l, .entry = entry, .kf = d->df[entry].f, .err = err};
    L.kparam_size = kf->kparam_bytes;
    L.kparam = g_malloc0(L.kparam_size ? L.kparam_size : 1);
    GString *perr = g_string_new(NULL);
    if (kload_pack_params(k, entry, l->args, l->n_args, L.kparam, perr)) {
        if (g_str_has_prefix(perr->str, "kernel "))
            g_string_append(err, perr->str);
        else
            g_string_append_printf(err, "kernel %s: %s", l->entry, perr->str);
        g_string_free(perr, TRUE);
        g_free(L.kparam);
        return 1;
    }
    g_string_free(perr, TRUE);
    L.nthreads = l->block[0] * l->block[1] * l->block[2];
    L.nwarps = (L.nthreads + IR_WARP_SIZE - 1) / IR_WARP_SIZE;
    L.local_bytes = k->local_bytes;
    L.cparam_bytes = k->cparam_bytes;
    L.warps = g_new0(fwarp, L.nwarps);
    uint64_t regs_per_warp = (uint64_t)k->total_regs * IR_WARP_SIZE;
    /* The sizes are bounded (launch_cli_check, the shared limit above, at most 1024 threads) but may
     * still be more than the host can give: a clear error then, not an abort. */
    uint64_t *regs = NULL;
    uint8_t *local = NULL, *cparam = NULL;
    L.shared = (fmem_seg){.data = launch_alloc(&L, shared, "shared memory for a CTA"), .size = shared};
    if (L.shared.data)
        regs = launch_alloc(&L, L.nwarps * regs_per_warp * sizeof(uint64_t), "registers for a CTA");
    if (regs)
        local = launch_alloc(&L, L.nwarps * IR_WARP_SIZE * L.local_bytes, "local memory for a CTA");
    if (local)
        cparam =
            launch_alloc(&L, L.nwarps * IR_WARP_SIZE * L.cparam_bytes, "call-parameter memory for a CTA");
    if (!cparam) {
        g_free(L.shared.data);
        g_free(regs);
        g_free(local);
        g_free(cparam);
        g_free(L.warps);
        g_free(L.kparam);
        return 1;
    }
    for (uint32_t i = 0; i < L.nwarps; i++) {
        L.warps[i].id = i;
        L.warps[i].regs = regs + i * regs_per_warp;
        L.warps[i].local = local + i * IR_WARP_SIZE * L.local_bytes;
        L.warps[i].cparam = cparam + i * IR_WARP_SIZE * L.cparam_bytes;
    }
    L.budget = d->max_instr;
    gint64 t0 = g_get_monotonic_time();
    double c0 = thread_cpu_seconds();
    int rc = 0;
    uint64_t n_ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t *perm = NULL;
    L.order = g_new(uint32_t, L.nwarps);
    if (d->race_check && L.shared.size)
        L.race = g_new0(struct race_word, (L.shared.size + 3) / 4);
    if (d->sched_seed) {
        /* Reproducible per (seed, launch number); CTAs in a random order too. */
        L.rng = g_rand_new_with_seed(d->sched_seed + 0x9e3779b9u * (uint32_t)d->stats.launches);
        perm = g_new(uint64_t, n_ctas);
        for (uint64_t i = 0; i < n_ctas; i++)
            perm[i] = i;
        for (uint64_t i = n_ctas; i > 1; i--) {
            uint64_t j = (uint64_t)(g_rand_double(L.rng) * (double)i), t = perm[i - 1];
            j = j < i ? j : i - 1;
            perm[i - 1] = perm[j], perm[j] = t;
        }
    }
    for (uint64_t c = 0; c < n_ctas && !rc; c++) {
        uint64_t lin = perm ? perm[c] : c;
        L.ctaid[0] = (uint32_t)(lin % l->grid[0]);
        L.ctaid[1] = (uint32_t)(lin / l->grid[0] % l->grid[1]);
        L.ctaid[2] = (uint32_t)(lin / ((uint64_t)l->grid[0] * l->grid[1]));
        rc = cta_run(&L);
        d->stats.ctas++;
    }
    g_free(perm);
    g_free(L.order);
    g_free(L.race);
    if (L.rng)
        g_rand_free(L.rng);
    d->stats.seconds += (double)(g_get_monotonic_time() - t0) / 1e6;
    d->stats.cpu_seconds += thread_cpu_seconds() - c0;
    d->stats.launches++;
    d->gridid++;
    for (uint32_t i = 0; i < L.nwarps; i++)
        simt_release(&L.warps[i].st);
    g_free(L.warps);
    g_free(regs);
    g_free(local);
    g_free(cparam);
    g_free(L.shared.data);
    g_free(L.kparam);
    return rc;
}

/* ---- the wl_device -------------------------------------------------------------------------- */
static uint64_t dev_alloc(wl_device *dev, size_t bytes)
{
    return fmem_alloc(((frun_dev *)dev)->mem, bytes);
}

static int dev_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err)
{
    frun_dev *d = (frun_dev *)dev;
    if (fmem_write(d->mem, addr, src, bytes))
        return 0;
    g_string_append_printf(err, "device write of %zu bytes: ", bytes);
    fmem_describe_fault(d->mem, addr, bytes, false, err);
    return 1;
}

static int dev_read(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err)
{
    frun_dev *d = (frun_dev *)dev;
    if (fmem_read(d->mem, addr, dst, bytes))
        return 0;
    g_string_append_printf(err, "device read of %zu bytes: ", bytes);
    fmem_describe_fault(d->mem, addr, bytes, false, err);
    return 1;
}

static const wl_device_ops frun_ops = {
    .alloc = dev_alloc,
    .write = dev_write,
    .read = dev_read,
    .launch = frun_launch,
};

wl_device *frun_device_new(ir_module *m, GString *err)
{
    frun_dev *d = g_new0(frun_dev, 1);
    d->dev.ops = &frun_ops;
    d->dev.impl = d;
    d->mod = m;
    d->mem = fmem_new();
    d->max_instr = FRUN_DEFAULT_MAX_INSTRUCTIONS;
    d->quantum = FRUN_QUANTUM;
    d->max_shared = FRUN_DEFAULT_MAX_SHARED;
    d->nwarpid = FRUN_DEFAULT_NWARPID;
    d->k = kload_module_new(m, d->mem, err);
    if (!d->k) {
        fmem_free(d->mem);
        g_free(d);
        return NULL;
    }
    decode_module(d);
    return &d->dev;
}

void frun_device_free(wl_device *dev)
{
    frun_dev *d = (frun_dev *)dev;
    if (!d)
        return;
    for (guint f = 0; f < d->mod->funcs->len; f++) {
        g_free(d->df[f].d);
        g_free(d->df[f].reg_mask);
    }
    g_free(d->df);
    kload_module_free(d->k);
    fmem_free(d->mem);
    g_free(d);
}

void frun_device_set_max_instructions(wl_device *dev, uint64_t max)
{
    ((frun_dev *)dev)->max_instr = max ? max : FRUN_DEFAULT_MAX_INSTRUCTIONS;
}

void frun_device_set_schedule(wl_device *dev, unsigned quantum, uint32_t seed)
{
    frun_dev *d = (frun_dev *)dev;
    d->quantum = quantum ? quantum : FRUN_QUANTUM;
    d->sched_seed = seed;
}

void frun_device_set_trace(wl_device *dev, FILE *out)
{
    ((frun_dev *)dev)->trace = out;
}

void frun_device_set_max_shared(wl_device *dev, uint64_t bytes)
{
    ((frun_dev *)dev)->max_shared =
        bytes ? MIN(bytes, (uint64_t)LAUNCH_MAX_SHARED_PER_CTA) : FRUN_DEFAULT_MAX_SHARED;
}

void frun_device_set_nwarpid(wl_device *dev, uint32_t n)
{
    ((frun_dev *)dev)->nwarpid = n ? MAX(n, 1024u / IR_WARP_SIZE) : FRUN_DEFAULT_NWARPID;
}

void frun_device_set_race_check(wl_device *dev, bool on)
{
    ((frun_dev *)dev)->race_check = on;
}

const frun_stats *frun_device_stats(const wl_device *dev)
{
    return &((const frun_dev *)dev)->stats;
}

fmem *frun_device_mem(wl_device *dev)
{
    return ((frun_dev *)dev)->mem;
}

const kload_module *frun_device_module(const wl_device *dev)
{
    return ((const frun_dev *)dev)->k;
}
