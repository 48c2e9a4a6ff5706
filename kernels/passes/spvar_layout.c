/* spvar_layout.c — see spvar_layout.h. */
#include "kernels/passes/spvar_layout.h"

#include <string.h>

#include "kernels/analysis/annot.h"
#include "kernels/analysis/cfg.h"
#include "kernels/passes/relssp.h"
#include "kernels/run/kload.h"

void spvar_analyze(const spvar_cfg *g, spvar_flow *fl)
{
    for (unsigned b = 0; b < g->n; b++)
        fl->pre_in[b] = fl->pre_out[b] = fl->post_in[b] = fl->post_out[b] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned b = 0; b < g->n; b++) {
            uint32_t pin = 0, pout = 0;
            for (unsigned p = 0; p < g->n && b != g->entry; p++)
                for (unsigned j = 0; j < g->n_succ[p]; j++)
                    if (g->succ[p][j] == b)
                        pin |= fl->pre_out[p];
            pout = g->access[b] | pin;
            uint32_t qout = 0;
            for (unsigned j = 0; j < g->n_succ[b] && b != g->exit; j++)
                qout |= fl->post_in[g->succ[b][j]];
            uint32_t qin = g->access[b] | qout;
            changed |= pin != fl->pre_in[b] || pout != fl->pre_out[b] || qin != fl->post_in[b] ||
                       qout != fl->post_out[b];
            fl->pre_in[b] = pin;
            fl->pre_out[b] = pout;
            fl->post_in[b] = qin;
            fl->post_out[b] = qout;
        }
    }
}

bool spvar_acc_in(const spvar_flow *fl, uint32_t set, unsigned b)
{
    return (fl->pre_in[b] & set) && (fl->post_in[b] & set);
}

bool spvar_acc_out(const spvar_flow *fl, uint32_t set, unsigned b)
{
    return (fl->pre_out[b] & set) && (fl->post_out[b] & set);
}

unsigned spvar_range_points(const spvar_cfg *g, const spvar_flow *fl, uint32_t set)
{
    unsigned k = 0;
    for (unsigned b = 0; b < g->n; b++)
        k += (unsigned)spvar_acc_in(fl, set, b) + (unsigned)spvar_acc_out(fl, set, b);
    return k;
}

uint32_t spvar_select(unsigned n, const uint64_t *size, const uint64_t *cost, uint64_t need)
{
    g_assert(n <= SPVAR_MAX_VARS);
    uint32_t best = 0;
    bool found = false;
    uint64_t best_cost = 0, best_over = 0;
    for (uint32_t s = 0; s < (UINT32_C(1) << n); s++) {
        uint64_t bytes = 0;
        for (unsigned v = 0; v < n; v++)
            if (s >> v & 1)
                bytes += size[v];
        if (bytes < need)
            continue;
        uint64_t over = bytes - need;
        if (!found || cost[s] < best_cost || (cost[s] == best_cost && over < best_over)) {
            best = s;
            best_cost = cost[s];
            best_over = over;
            found = true;
        }
    }
    return best;
}

/* ---- on a kernel ------------------------------------------------------------------------------ */

/* The variable (index in syms) of symbol sym, or -1. */
static int var_of(const uint32_t *syms, unsigned n, uint32_t sym)
{
    for (unsigned i = 0; i < n; i++)
        if (syms[i] == sym)
            return (int)i;
    return -1;
}

/* An access or a pointer whose variable is not among the candidates (bit 31; SPVAR_MAX_VARS < 31). */
#define VAR_UNKNOWN (UINT32_C(1) << 31)

/* The variables an operand's value may point into: an ADDR of a variable (another scratchpad
 * symbol: unknown), or a register in pts. */
static uint32_t opnd_vars(const ir_module *m, const ir_operand *o, const uint32_t *syms, unsigned n,
                          const uint32_t *pts)
{
    if (o->kind == IR_OPND_ADDR && o->u.mem.base_sym != IR_NONE) {
        int v = var_of(syms, n, o->u.mem.base_sym);
        if (v >= 0)
            return UINT32_C(1) << v;
        const ir_sym *sy = &g_array_index(m->syms, ir_sym, o->u.mem.base_sym);
        return sy->space == IR_SPACE_SHARED ? VAR_UNKNOWN : 0;
    }
    if (o->kind == IR_OPND_REG && o->u.reg != IR_NONE)
        return pts[o->u.reg];
    return 0;
}

/* The variables instruction in accesses (every one, with VAR_UNKNOWN, when unknown); 0: not a
 * scratchpad access. */
static uint32_t access_vars(const ir_instr *in, const uint32_t *syms, unsigned n, const uint32_t *pts)
{
    if (!relssp_is_scratchpad_access(in))
        return 0;
    uint32_t all = (n ? (uint32_t)((UINT64_C(1) << n) - 1) : 0) | VAR_UNKNOWN;
    if (in->op == IR_OP_CALL)
        return all;
    const ir_operand *m = in->n_dst > 0 && in->dst[0].kind == IR_OPND_MEM ? &in->dst[0] : &in->src[0];
    uint32_t v = 0;
    if (m->u.mem.base_sym != IR_NONE) {
        int i = var_of(syms, n, m->u.mem.base_sym);
        v = i < 0 ? 0 : UINT32_C(1) << i;
        if (i < 0 && in->space == IR_SPACE_SHARED)
            v = all;
    } else if (m->u.mem.base_reg != IR_NONE) {
        v = pts[m->u.mem.base_reg];
        if (!v && in->space == IR_SPACE_SHARED)
            v = all; /* a shared address of unknown origin */
    } else if (in->space == IR_SPACE_SHARED) {
        v = all;
    }
    return v & VAR_UNKNOWN ? all : v;
}

/* The candidate variables of kernel f: its static .shared variables (own_only: declared in f, else
 * also the module's), at most SPVAR_MAX_VARS, in declaration order. */
static unsigned candidates(const ir_module *m, const ir_func *f, bool own_only, uint32_t *syms,
                           uint64_t *size)
{
    unsigned n = 0;
    for (guint s = 0; s < m->syms->len && n < SPVAR_MAX_VARS; s++) {
        const ir_sym *sy = &g_array_index(m->syms, ir_sym, s);
        if (sy->space != IR_SPACE_SHARED || sy->is_extern || sy->size == 0)
            continue;
        if (sy->func == IR_NONE ? own_only : g_ptr_array_index(m->funcs, sy->func) != f)
            continue;
        syms[n] = s;
        size[n++] = sy->size;
    }
    return n;
}

/* The variables each instruction of f accesses (access_vars; ni + 1 entries) and the cost of every
 * set of the n variables (2^n entries): the instructions in its access range, 1024 per enclosing
 * loop. */
static uint64_t *range_costs(const ir_module *m, ir_func *f, const uint32_t *syms, unsigned n,
                             uint32_t **ins_out)
{
    /* registers pointing into variables (flow-insensitive, to a fixed point) */
    uint32_t nr = f->regs ? f->regs->len : 0, ni = ir_func_n_instrs(f);
    uint32_t *pts = g_new0(uint32_t, nr + 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < ni; i++) {
            const ir_instr *in = ir_func_instr(f, i);
            if (in->n_dst < 1 || in->dst[0].kind != IR_OPND_REG || in->dst[0].u.reg >= nr)
                continue;
            if (in->op != IR_OP_MOV && in->op != IR_OP_CVTA && in->op != IR_OP_ADD && in->op != IR_OP_SUB &&
                in->op != IR_OP_MAD && in->op != IR_OP_CVT && in->op != IR_OP_SHL)
                continue;
            uint32_t v = 0;
            for (unsigned j = 0; j < in->n_src; j++)
                v |= opnd_vars(m, &in->src[j], syms, n, pts);
            uint32_t *d = &pts[in->dst[0].u.reg];
            if ((*d | v) != *d) {
                *d |= v;
                changed = true;
            }
        }
    }
    cfg_build(f);
    unsigned nb = cfg_n_blocks(f), exit = nb, entry = nb + 1, N = nb + 2;
    /* blocks 0..nb-1, the virtual exit, a virtual entry before block 0 */
    unsigned **succ = g_new0(unsigned *, N), *n_succ = g_new0(unsigned, N);
    uint32_t *acc = g_new0(uint32_t, N), *ins = g_new0(uint32_t, ni + 1);
    for (unsigned b = 0; b < nb; b++) {
        const ir_block *bl = cfg_block(f, b);
        succ[b] = g_new(unsigned, bl->succ->len + 1);
        for (guint j = 0; j < bl->succ->len; j++)
            succ[b][n_succ[b]++] = g_array_index(bl->succ, uint32_t, j);
        for (uint32_t i = bl->first; i <= bl->last; i++)
            acc[b] |= ins[i] = access_vars(ir_func_instr(f, i), syms, n, pts);
    }
    succ[entry] = g_new(unsigned, 1);
    succ[entry][n_succ[entry]++] = 0;
    spvar_cfg g = {N, entry, exit, (const unsigned *const *)succ, n_succ, acc};
    spvar_flow fl = {g_new(uint32_t, N), g_new(uint32_t, N), g_new(uint32_t, N), g_new(uint32_t, N)};
    spvar_analyze(&g, &fl);
    uint64_t *cost = g_new0(uint64_t, (gsize)1 << n);
    for (uint32_t s = 1; s < (UINT32_C(1) << n); s++)
        for (unsigned b = 0; b < nb; b++) {
            const ir_block *bl = cfg_block(f, b);
            uint64_t w = 1;
            for (uint32_t d = cfg_loop_depth(f, b); d > 0 && w < (UINT64_C(1) << 40); d--)
                w *= 1024;
            for (uint32_t i = bl->first; i <= bl->last; i++) {
                bool pre = (fl.pre_in[b] & s) != 0, post = (fl.post_out[b] & s) != 0;
                for (uint32_t j = bl->first; j <= i && !pre; j++)
                    pre = (ins[j] & s) != 0;
                for (uint32_t j = i; j <= bl->last && !post; j++)
                    post = (ins[j] & s) != 0;
                if (pre && post)
                    cost[s] += w;
            }
        }
    for (unsigned b = 0; b < N; b++)
        g_free(succ[b]);
    g_free(succ);
    g_free(n_succ);
    g_free(acc);
    g_free(fl.pre_in);
    g_free(fl.pre_out);
    g_free(fl.post_in);
    g_free(fl.post_out);
    g_free(pts);
    *ins_out = ins;
    return cost;
}

uint32_t spvar_layout_func(const ir_module *m, ir_func *f, uint64_t num, uint64_t den, uint32_t *syms,
                           unsigned *n_out)
{
    uint64_t size[SPVAR_MAX_VARS], total = 0;
    unsigned n = *n_out = candidates(m, f, false, syms, size);
    if (n == 0)
        return 0;
    for (unsigned v = 0; v < n; v++)
        total += size[v];
    uint32_t *ins;
    uint64_t *cost = range_costs(m, f, syms, n, &ins);
    uint64_t need = (uint64_t)(((unsigned __int128)total * num + den - 1) / den);
    uint32_t best = spvar_select(n, size, cost, need);
    g_free(ins);
    g_free(cost);
    return best;
}

/* ---- applying the layout ---------------------------------------------------------------------- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

static const annot_field *spvar_private_field(void)
{
    static const annot_field *fl;
    if (!fl)
        fl = annot_register("spvar_layout", "private", ANNOT_INSTR, 1,
                            "a scratchpad access that reaches only variables the layout placed in the "
                            "private region");
    return fl;
}

bool spvar_access_is_private(const ir_instr *in)
{
    static const annot_field *fl;
    if (!fl)
        fl = annot_find("spvar_layout", "private");
    return fl && annot_get_instr(in, fl) != 0;
}

/* Where the loader starts kernel fi's own static .shared variables (after the module's: *start) and
 * where they end in declaration order (returned). */
static uint64_t kernel_span(const ir_module *m, uint32_t fi, uint64_t *start)
{
    uint64_t end = 0;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = &g_array_index(m->syms, ir_sym, s);
        if (sy->space == IR_SPACE_SHARED && !sy->is_extern && sy->func == IR_NONE)
            end = align_up(end, kload_sym_align(sy)) + sy->size;
    }
    *start = end;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = &g_array_index(m->syms, ir_sym, s);
        if (sy->space == IR_SPACE_SHARED && !sy->is_extern && sy->func == fi)
            end = align_up(end, kload_sym_align(sy)) + sy->size;
    }
    return end;
}

/* The end of kernel fi's private region, ceil(t x R_tb) bytes (offsets below t x R_tb), R_tb being
 * *r_tb or, when that is less, what the kernel declares (*r_tb is set to the R_tb used). */
static uint64_t private_end(const ir_module *m, uint32_t fi, uint64_t num, uint64_t den, uint64_t *r_tb,
                            uint64_t *start)
{
    *r_tb = MAX(*r_tb, kernel_span(m, fi, start));
    return (uint64_t)(((unsigned __int128)*r_tb * num + den - 1) / den);
}

/* One kernel: see spvar_layout_apply. */
static unsigned apply_func(ir_module *m, ir_func *f, uint32_t fi, uint64_t num, uint64_t den, uint64_t r_tb)
{
    uint32_t syms[SPVAR_MAX_VARS];
    uint64_t size[SPVAR_MAX_VARS];
    unsigned n = candidates(m, f, true, syms, size);
    if (n == 0)
        return 0;
    uint64_t start, cap = private_end(m, fi, num, den, &r_tb, &start);
    uint64_t total = 0;
    for (unsigned v = 0; v < n; v++)
        total += size[v];
    uint64_t room = cap > start ? cap - start : 0;
    uint32_t *ins;
    uint64_t *cost = range_costs(m, f, syms, n, &ins);
    uint32_t shared = spvar_select(n, size, cost, total > room ? total - room : 0);
    /* the others from the start of the region, in declaration order, as far as they fit */
    uint32_t priv = 0;
    uint64_t off = start;
    for (unsigned v = 0; v < n; v++) {
        ir_sym *sy = &g_array_index(m->syms, ir_sym, syms[v]);
        uint64_t at = align_up(off, kload_sym_align(sy));
        sy->smem_late = true;
        if (!(shared >> v & 1) && at + sy->size <= cap) {
            sy->smem_late = false;
            priv |= UINT32_C(1) << v;
            off = at + sy->size;
        }
    }
    /* the declared variables beyond the candidates keep their place after the others */
    for (guint s = 0; s < m->syms->len; s++) {
        ir_sym *sy = &g_array_index(m->syms, ir_sym, s);
        if (sy->space == IR_SPACE_SHARED && !sy->is_extern && sy->func == fi && var_of(syms, n, s) < 0)
            sy->smem_late = true;
    }
    const annot_field *fl = spvar_private_field();
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++)
        if (ins[i] && !(ins[i] & ~priv))
            annot_set_instr(ir_func_instr(f, i), fl, 1);
    g_free(ins);
    g_free(cost);
    return (unsigned)__builtin_popcount(priv);
}

unsigned spvar_layout_apply(ir_module *m, uint64_t num, uint64_t den, uint64_t r_tb)
{
    return spvar_layout_apply_entries(m, num, den, r_tb, NULL);
}

unsigned spvar_layout_apply_entries(ir_module *m, uint64_t num, uint64_t den, uint64_t r_tb, const bool *only)
{
    unsigned k = 0;
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (f->is_entry && f->is_defined && (!only || only[i]))
            k += apply_func(m, f, i, num, den, r_tb);
    }
    return k;
}

/* A static .shared variable of kernel fi (or of the module) and where the loader put it. */
typedef struct {
    uint32_t sym;
    uint64_t offset;
} placed_var;

static gint by_offset(gconstpointer a, gconstpointer b)
{
    const placed_var *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset ? 1 : x->sym < y->sym ? -1 : x->sym > y->sym;
}

bool spvar_layout_report(GString *out, ir_module *m, const char *entry, uint64_t num, uint64_t den,
                         uint64_t r_tb, GString *err)
{
    spvar_layout_apply(m, num, den, r_tb);
    fmem *mem = fmem_new();
    kload_module *k = kload_module_new(m, mem, err);
    if (!k) {
        fmem_free(mem);
        return false;
    }
    GArray *vars = g_array_new(FALSE, FALSE, sizeof(placed_var));
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        ir_func *f = g_ptr_array_index(m->funcs, fi);
        if (!f->is_entry || !f->is_defined || (entry && strcmp(f->name, entry) != 0))
            continue;
        uint64_t start, rtb = r_tb, cap = private_end(m, fi, num, den, &rtb, &start);
        g_array_set_size(vars, 0);
        for (guint s = 0; s < m->syms->len; s++) {
            const ir_sym *sy = &g_array_index(m->syms, ir_sym, s);
            if (sy->space == IR_SPACE_SHARED && !sy->is_extern && (sy->func == IR_NONE || sy->func == fi))
                g_array_append_val(vars, ((placed_var){s, kload_sym_address(k, fi, s)}));
        }
        g_array_sort(vars, by_offset);
        unsigned acc = 0, priv = 0;
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            const ir_instr *in = ir_func_instr(f, i);
            acc += relssp_is_scratchpad_access(in);
            priv += spvar_access_is_private(in);
        }
        g_string_append_printf(out,
                               "%s: scratchpad %" G_GUINT64_FORMAT " bytes, R_tb %" G_GUINT64_FORMAT
                               ", t %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                               ": private offsets below %" G_GUINT64_FORMAT ", accesses %u private %u\n",
                               f->name, k->funcs[fi].shared_static, rtb, num, den, cap, acc, priv);
        for (guint v = 0; v < vars->len; v++) {
            const placed_var *pv = &g_array_index(vars, placed_var, v);
            const ir_sym *sy = &g_array_index(m->syms, ir_sym, pv->sym);
            const char *region = pv->offset + sy->size <= cap ? "private"
                                 : pv->offset >= cap          ? "shared"
                                                              : "private+shared";
            g_string_append_printf(
                out, "  %-16s offset %6" G_GUINT64_FORMAT " size %6" G_GUINT64_FORMAT " %s%s\n", sy->name,
                pv->offset, sy->size, region, sy->func == IR_NONE ? " (module)" : "");
        }
    }
    g_array_free(vars, TRUE);
    kload_module_free(k);
    fmem_free(mem);
    return true;
}
