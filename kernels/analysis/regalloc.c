/* regalloc.c — interference-graph register allocation with greedy coloring in several orders. */
#include "kernels/analysis/regalloc.h"

#include "kernels/analysis/cfg.h"
#include "kernels/analysis/dataflow.h"

#include <string.h>

G_DEFINE_QUARK(gpusc-regalloc-error-quark, regalloc_error)

#define MAX_OPND_REGS 32

unsigned regalloc_units(ir_type t)
{
    switch (t) {
    case IR_T_PRED: return 0;
    case IR_T_B64: case IR_T_U64: case IR_T_S64: case IR_T_F64: return 2;
    case IR_T_B128: return 4;
    default: return 1;
    }
}

static unsigned reg_units(const ir_func *f, uint32_t r)
{
    return regalloc_units((ir_type)g_array_index(f->regs, ir_reg, r).type);
}

/* 0: 32-bit file, 1: predicate file */
static unsigned reg_file(const ir_func *f, uint32_t r)
{
    return reg_units(f, r) == 0;
}

/* A plain unguarded register copy `mov d, s` of one file and width: d may share s's register. */
static bool copy_source(const ir_func *f, const ir_instr *in, uint32_t *d, uint32_t *s)
{
    if (in->op != IR_OP_MOV || in->guard != IR_NONE || in->n_dst != 1 || in->n_src != 1)
        return false;
    if (in->dst[0].kind != IR_OPND_REG || in->src[0].kind != IR_OPND_REG || in->src[0].neg)
        return false;
    *d = in->dst[0].u.reg;
    *s = in->src[0].u.reg;
    return reg_units(f, *d) == reg_units(f, *s);
}

/* ---- interference graph ---------------------------------------------------------------------------- */

typedef struct {
    uint32_t n;
    df_bits **adj;
    bool *used;          /* referenced by some instruction */
    uint32_t *first_def; /* position of the first reference in reverse-postorder layout */
    GArray *moves;       /* uint32_t pairs (d, s) */
} igraph;

static void ig_edge(igraph *g, uint32_t a, uint32_t b)
{
    if (a == b)
        return;
    df_bits_set(g->adj[a], b);
    df_bits_set(g->adj[b], a);
}

static void ig_build(ir_func *f, igraph *g)
{
    uint32_t n = f->regs->len, ni = ir_func_n_instrs(f);
    g->n = n;
    g->adj = g_new(df_bits *, n + 1);
    for (uint32_t r = 0; r < n; r++)
        g->adj[r] = df_bits_new(n);
    g->used = g_new0(bool, n + 1);
    g->first_def = g_new(uint32_t, n + 1);
    for (uint32_t r = 0; r < n; r++)
        g->first_def[r] = IR_NONE;
    g->moves = g_array_new(FALSE, FALSE, sizeof(uint32_t));

    df_liveness *l = df_liveness_compute(f);
    df_bits **after = df_live_after_all(l);
    uint32_t regs[MAX_OPND_REGS], defs[MAX_OPND_REGS];
    for (uint32_t i = 0; i < ni; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        unsigned nu = ir_instr_uses(in, regs, MAX_OPND_REGS);
        unsigned nd = ir_instr_defs(in, defs, MAX_OPND_REGS);
        for (unsigned k = 0; k < nu; k++)
            g->used[regs[k]] = true;
        uint32_t cd = IR_NONE, cs = IR_NONE;
        if (copy_source(f, in, &cd, &cs)) {
            g_array_append_val(g->moves, cd);
            g_array_append_val(g->moves, cs);
        }
        for (unsigned k = 0; k < nd; k++) {
            uint32_t d = defs[k];
            g->used[d] = true;
            for (uint32_t r = df_bits_next(after[i], 0); r != IR_NONE; r = df_bits_next(after[i], r + 1))
                if (!(d == cd && r == cs) && reg_file(f, r) == reg_file(f, d))
                    ig_edge(g, d, r);
            for (unsigned k2 = k + 1; k2 < nd; k2++)
                if (reg_file(f, defs[k2]) == reg_file(f, d))
                    ig_edge(g, d, defs[k2]);
        }
    }
    /* Registers live at the entry (read before any write on some path) overlap there. */
    if (cfg_n_blocks(f) > 0) {
        const df_bits *li = df_live_in(l, 0);
        for (uint32_t a = df_bits_next(li, 0); a != IR_NONE; a = df_bits_next(li, a + 1))
            for (uint32_t b = df_bits_next(li, a + 1); b != IR_NONE; b = df_bits_next(li, b + 1))
                if (reg_file(f, a) == reg_file(f, b))
                    ig_edge(g, a, b);
    }
    /* First reference in reverse-postorder layout (the order a linear scan would meet them). */
    uint32_t n_rpo, pos = 0;
    const uint32_t *rpo = cfg_rpo(f, &n_rpo);
    for (uint32_t j = 0; j < n_rpo; j++) {
        const ir_block *bl = cfg_block(f, rpo[j]);
        for (uint32_t i = bl->first; i <= bl->last; i++, pos++) {
            const ir_instr *in = ir_func_instr(f, i);
            unsigned nu = ir_instr_uses(in, regs, MAX_OPND_REGS);
            unsigned nd = ir_instr_defs(in, regs + nu, MAX_OPND_REGS - nu);
            for (unsigned k = 0; k < nu + nd; k++)
                if (g->first_def[regs[k]] == IR_NONE)
                    g->first_def[regs[k]] = pos;
        }
    }
    for (uint32_t r = 0; r < n; r++)
        if (g->used[r] && g->first_def[r] == IR_NONE)
            g->first_def[r] = pos + r; /* only in unreachable code */
    df_live_after_all_free(l, after);
    df_liveness_free(l);
}

static void ig_free(igraph *g)
{
    for (uint32_t r = 0; r < g->n; r++)
        df_bits_free(g->adj[r]);
    g_free(g->adj);
    g_free(g->used);
    g_free(g->first_def);
    g_array_free(g->moves, TRUE);
}

/* ---- coloring ------------------------------------------------------------------------------------- */

/* Color registers in `order`; slot[r] receives the first slot. Returns the slots used in file 0 and,
 * via *n_pred, in file 1. */
static uint32_t color(const ir_func *f, const igraph *g, const uint32_t *order, uint32_t cnt, uint32_t *slot,
                      uint32_t *n_pred)
{
    uint32_t n = g->n, cap = 4 * n + 8, used0 = 0, used1 = 0;
    bool *busy = g_new(bool, cap);
    for (uint32_t r = 0; r < n; r++)
        slot[r] = IR_NONE;
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t r = order[k];
        unsigned w = reg_units(f, r), file = w == 0, width = w ? w : 1;
        memset(busy, 0, cap * sizeof *busy);
        for (uint32_t q = df_bits_next(g->adj[r], 0); q != IR_NONE; q = df_bits_next(g->adj[r], q + 1)) {
            if (slot[q] == IR_NONE || reg_file(f, q) != file)
                continue;
            unsigned wq = reg_units(f, q) ? reg_units(f, q) : 1;
            for (unsigned u = 0; u < wq; u++)
                busy[slot[q] + u] = true;
        }
        uint32_t pick = IR_NONE;
        /* Coalescing: a copy partner's slot, when free and aligned. */
        for (guint m = 0; m + 1 < g->moves->len && pick == IR_NONE; m += 2) {
            uint32_t d = g_array_index(g->moves, uint32_t, m), s = g_array_index(g->moves, uint32_t, m + 1);
            uint32_t other = d == r ? s : s == r ? d : IR_NONE;
            if (other == IR_NONE || slot[other] == IR_NONE)
                continue;
            bool ok = slot[other] % width == 0;
            for (unsigned u = 0; u < width && ok; u++)
                ok = !busy[slot[other] + u];
            if (ok)
                pick = slot[other];
        }
        for (uint32_t s = 0; pick == IR_NONE; s += width) {
            bool ok = true;
            for (unsigned u = 0; u < width && ok; u++)
                ok = !busy[s + u];
            if (ok)
                pick = s;
        }
        g_assert(pick + width <= cap);
        slot[r] = pick;
        if (file == 0)
            used0 = MAX(used0, pick + width);
        else
            used1 = MAX(used1, pick + 1);
    }
    g_free(busy);
    *n_pred = used1;
    return used0;
}

typedef struct {
    const igraph *g;
    const ir_func *f;
} order_ctx;

static int cmp_first_def(gconstpointer a, gconstpointer b, gpointer data)
{
    const order_ctx *c = data;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint32_t px = c->g->first_def[x], py = c->g->first_def[y];
    if (px != py)
        return px < py ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Wider registers first at equal positions helps keep pairs aligned without holes. */
static int cmp_wide_first(gconstpointer a, gconstpointer b, gpointer data)
{
    const order_ctx *c = data;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    unsigned wx = reg_units(c->f, x), wy = reg_units(c->f, y);
    if (wx != wy)
        return wx > wy ? -1 : 1;
    return cmp_first_def(a, b, data);
}

/* Chaitin-style: repeatedly remove the register with the fewest neighbour units; color in reverse. */
static void simplify_order(const ir_func *f, const igraph *g, uint32_t *order, uint32_t cnt)
{
    uint32_t *deg = g_new0(uint32_t, g->n + 1);
    bool *gone = g_new0(bool, g->n + 1);
    uint32_t *nodes = g_memdup2(order, cnt * sizeof *order);
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t r = nodes[k];
        for (uint32_t q = df_bits_next(g->adj[r], 0); q != IR_NONE; q = df_bits_next(g->adj[r], q + 1))
            deg[r] += MAX(reg_units(f, q), 1u);
    }
    for (uint32_t k = 0; k < cnt; k++) {
        uint32_t best = IR_NONE;
        for (uint32_t j = 0; j < cnt; j++) {
            uint32_t r = nodes[j];
            if (!gone[r] && (best == IR_NONE || deg[r] < deg[best]))
                best = r;
        }
        gone[best] = true;
        order[cnt - 1 - k] = best;
        for (uint32_t q = df_bits_next(g->adj[best], 0); q != IR_NONE; q = df_bits_next(g->adj[best], q + 1))
            deg[q] -= MIN(deg[q], MAX(reg_units(f, best), 1u));
    }
    g_free(deg);
    g_free(gone);
    g_free(nodes);
}

regalloc_result *regalloc_func(ir_func *f)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    igraph g;
    ig_build(f, &g);
    uint32_t n = g.n, cnt = 0;
    uint32_t *order = g_new(uint32_t, n + 1);
    for (uint32_t r = 0; r < n; r++)
        if (g.used[r])
            order[cnt++] = r;
    order_ctx oc = { .g = &g, .f = f };

    /* Candidate orders; keep the one with the fewest 32-bit registers (then predicates). */
    uint32_t *best = g_new(uint32_t, n + 1), *cur = g_new(uint32_t, n + 1);
    uint32_t best_regs = IR_NONE, best_preds = IR_NONE;
    for (int strategy = 0; strategy < 3; strategy++) {
        uint32_t *o = g_memdup2(order, (cnt + 1) * sizeof *order);
        if (strategy == 0)
            g_qsort_with_data(o, cnt, sizeof *o, cmp_first_def, &oc);
        else if (strategy == 1)
            g_qsort_with_data(o, cnt, sizeof *o, cmp_wide_first, &oc);
        else
            simplify_order(f, &g, o, cnt);
        uint32_t np, nr = color(f, &g, o, cnt, cur, &np);
        if (nr < best_regs || (nr == best_regs && np < best_preds)) {
            best_regs = nr;
            best_preds = np;
            memcpy(best, cur, n * sizeof *cur);
        }
        g_free(o);
    }
    if (cnt == 0)
        best_regs = best_preds = 0;

    regalloc_result *res = g_new0(regalloc_result, 1);
    res->n_vregs = n;
    res->slot = best;
    res->n_slots = best_regs;
    res->n_pred_slots = best_preds;
    res->order = g_new(uint32_t, best_regs + 1);
    res->pred_order = g_new(uint32_t, best_preds + 1);
    for (uint32_t s = 0; s < best_regs; s++)
        res->order[s] = s;
    for (uint32_t s = 0; s < best_preds; s++)
        res->pred_order[s] = s;
    for (guint m = 0; m + 1 < g.moves->len; m += 2) {
        uint32_t d = g_array_index(g.moves, uint32_t, m), s = g_array_index(g.moves, uint32_t, m + 1);
        res->n_moves++;
        res->n_moves_coalesced += best[d] == best[s];
    }
    for (uint32_t r = 0; r < n; r++) {
        ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
        if (best[r] == IR_NONE)
            rg->phys = IR_NONE;
        else
            rg->phys = reg_file(f, r) ? res->pred_order[best[r]] : res->order[best[r]];
    }
    f->n_phys_regs = best_regs;
    f->n_phys_preds = best_preds;
    g_free(cur);
    g_free(order);
    ig_free(&g);
    return res;
}

void regalloc_result_free(regalloc_result *r)
{
    if (!r)
        return;
    g_free(r->slot);
    g_free(r->order);
    g_free(r->pred_order);
    g_free(r);
}

uint32_t regalloc_module(ir_module *m, uint32_t *max_preds)
{
    return regalloc_module_limit(m, 0, max_preds);
}

/* ---- registers with the functions a kernel calls -------------------------------------------------- */

/* Distinct physical registers of the live virtual registers: 32-bit units (pairs and quads count
 * each of their registers) and predicates. A copy may share its source's register: counted once. */
static void live_phys(const ir_func *f, const df_bits *live, uint32_t *regs, uint32_t *preds)
{
    bool *r = g_new0(bool, f->n_phys_regs + 1), *p = g_new0(bool, f->n_phys_preds + 1);
    *regs = *preds = 0;
    for (uint32_t v = df_bits_next(live, 0); v != IR_NONE; v = df_bits_next(live, v + 1)) {
        uint32_t phys = g_array_index(f->regs, ir_reg, v).phys;
        if (phys == IR_NONE)
            continue;
        if (reg_file(f, v)) {
            if (phys < f->n_phys_preds && !p[phys])
                p[phys] = true, (*preds)++;
            continue;
        }
        for (unsigned u = 0; u < reg_units(f, v); u++)
            if (phys + u < f->n_phys_regs && !r[phys + u])
                r[phys + u] = true, (*regs)++;
    }
    g_free(r);
    g_free(p);
}

static uint32_t call_chain_regs(const ir_module *m, ir_func *f, uint32_t *preds, unsigned depth)
{
    g_assert(f->n_phys_regs != IR_NONE); /* the caller allocates f and every function it calls */
    uint32_t regs = f->n_phys_regs;
    *preds = f->n_phys_preds;
    df_liveness *l = NULL;
    df_bits *live = NULL;
    for (uint32_t i = 0; f->instrs && i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (in->op != IR_OP_CALL)
            continue;
        for (unsigned k = 0; k < in->n_src; k++) {
            if (in->src[k].kind != IR_OPND_FUNC || in->src[k].u.func >= m->funcs->len)
                continue;
            ir_func *c = g_ptr_array_index(m->funcs, in->src[k].u.func);
            if (c == f || !c->is_defined || depth >= 16) /* no recursion (the loader refuses it) */
                continue;
            if (!l) {
                l = df_liveness_compute(f);
                live = df_bits_new(f->regs->len);
            }
            /* A call defines no register (results come back through .param), so what is live after
             * it is what the caller keeps across it. */
            df_live_after(l, i, live);
            uint32_t across_r, across_p, callee_p;
            live_phys(f, live, &across_r, &across_p);
            uint32_t callee_r = call_chain_regs(m, c, &callee_p, depth + 1);
            regs = MAX(regs, across_r + callee_r);
            *preds = MAX(*preds, across_p + callee_p);
        }
    }
    if (l) {
        df_bits_free(live);
        df_liveness_free(l);
    }
    return regs;
}

uint32_t regalloc_entry_regs(const ir_module *m, ir_func *f, uint32_t *preds)
{
    uint32_t p;
    uint32_t r = call_chain_regs(m, f, &p, 0);
    if (preds)
        *preds = p;
    return r;
}

/* ---- permutation ------------------------------------------------------------------------------------ */

bool regalloc_permute(ir_func *f, regalloc_result *r, const uint32_t *perm, GError **err)
{
    uint32_t n = f->n_phys_regs;
    bool *hit = g_new0(bool, n + 1);
    for (uint32_t p = 0; p < n; p++) {
        if (perm[p] >= n || hit[perm[p]]) {
            g_free(hit);
            g_set_error(err, REGALLOC_ERROR, REGALLOC_ERROR_PERMUTATION, "not a permutation of R0..R%u (at R%u)",
                        n ? n - 1 : 0, p);
            return false;
        }
        hit[perm[p]] = true;
    }
    g_free(hit);
    for (uint32_t v = 0; v < f->regs->len; v++) {
        const ir_reg *rg = &g_array_index(f->regs, ir_reg, v);
        unsigned w = regalloc_units((ir_type)rg->type);
        if (rg->phys == IR_NONE || w < 2)
            continue;
        uint32_t base = perm[rg->phys];
        bool ok = base % w == 0;
        for (unsigned u = 1; u < w && ok; u++)
            ok = perm[rg->phys + u] == base + u;
        if (!ok) {
            g_set_error(err, REGALLOC_ERROR, REGALLOC_ERROR_PERMUTATION,
                        "the permutation breaks the aligned %u-register group R%u of %s", w, rg->phys, rg->name);
            return false;
        }
    }
    for (uint32_t s = 0; s < r->n_slots; s++)
        r->order[s] = perm[r->order[s]];
    for (uint32_t v = 0; v < f->regs->len; v++) {
        ir_reg *rg = &g_array_index(f->regs, ir_reg, v);
        if (rg->phys != IR_NONE && regalloc_units((ir_type)rg->type) > 0)
            rg->phys = perm[rg->phys];
    }
    return true;
}

/* ---- independent check --------------------------------------------------------------------------------- */

static bool overlap(const ir_func *f, uint32_t a, uint32_t b)
{
    const ir_reg *ra = &g_array_index(f->regs, ir_reg, a), *rb = &g_array_index(f->regs, ir_reg, b);
    unsigned wa = regalloc_units((ir_type)ra->type), wb = regalloc_units((ir_type)rb->type);
    if ((wa == 0) != (wb == 0))
        return false;
    wa = MAX(wa, 1u);
    wb = MAX(wb, 1u);
    return ra->phys < rb->phys + wb && rb->phys < ra->phys + wa;
}

static bool check_fail(GError **err, const ir_func *f, uint32_t a, uint32_t b, const char *where, uint32_t at)
{
    const ir_reg *ra = &g_array_index(f->regs, ir_reg, a), *rb = &g_array_index(f->regs, ir_reg, b);
    g_set_error(err, REGALLOC_ERROR, REGALLOC_ERROR_INVALID, "%s: %s and %s share a register (%s %u)", f->name,
                ra->name, rb->name, where, at);
    return false;
}

bool regalloc_check(ir_func *f, GError **err)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    uint32_t regs[MAX_OPND_REGS], ni = ir_func_n_instrs(f);
    /* Allocation and alignment. */
    for (uint32_t i = 0; i < ni; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        unsigned k = ir_instr_uses(in, regs, MAX_OPND_REGS);
        k += ir_instr_defs(in, regs + k, MAX_OPND_REGS - k);
        for (unsigned j = 0; j < k; j++) {
            const ir_reg *rg = &g_array_index(f->regs, ir_reg, regs[j]);
            unsigned w = regalloc_units((ir_type)rg->type);
            uint32_t limit = w ? f->n_phys_regs : f->n_phys_preds;
            if (rg->phys == IR_NONE || rg->phys + MAX(w, 1u) > limit || (w > 1 && rg->phys % w)) {
                g_set_error(err, REGALLOC_ERROR, REGALLOC_ERROR_INVALID, "%s: %s badly allocated (%u) at instruction %u",
                            f->name, rg->name, rg->phys, i);
                return false;
            }
        }
    }
    df_liveness *l = df_liveness_compute(f);
    df_bits **after = df_live_after_all(l);
    bool ok = true;
    for (uint32_t i = 0; i < ni && ok; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        uint32_t cd = IR_NONE, cs = IR_NONE;
        copy_source(f, in, &cd, &cs);
        unsigned nd = ir_instr_defs(in, regs, MAX_OPND_REGS);
        for (unsigned k = 0; k < nd && ok; k++) {
            for (uint32_t r = df_bits_next(after[i], 0); r != IR_NONE && ok; r = df_bits_next(after[i], r + 1))
                if (r != regs[k] && !(regs[k] == cd && r == cs) && overlap(f, regs[k], r))
                    ok = check_fail(err, f, regs[k], r, "defined while live at instruction", i);
            for (unsigned k2 = k + 1; k2 < nd && ok; k2++)
                if (regs[k2] != regs[k] && overlap(f, regs[k], regs[k2]))
                    ok = check_fail(err, f, regs[k], regs[k2], "both defined by instruction", i);
        }
    }
    if (ok && cfg_n_blocks(f) > 0) {
        const df_bits *li = df_live_in(l, 0);
        for (uint32_t a = df_bits_next(li, 0); a != IR_NONE && ok; a = df_bits_next(li, a + 1))
            for (uint32_t b = df_bits_next(li, a + 1); b != IR_NONE && ok; b = df_bits_next(li, b + 1))
                if (overlap(f, a, b))
                    ok = check_fail(err, f, a, b, "live at the entry, block", 0);
    }
    df_live_after_all_free(l, after);
    df_liveness_free(l);
    return ok;
}

/* ---- rematerialization ----------------------------------------------------------------------------------
 * A value that can be recomputed anywhere from constants (a kernel parameter, an immediate, a special
 * register that is fixed for the thread, a symbol's address) or from such values by a short chain of
 * pure operations is recomputed right before its first use in every block that uses it, instead of
 * occupying a register from its definition to its last use. This is what ptxas achieves by reading
 * parameters straight from the constant bank. */

#define REMAT_MAX_CHAIN 3

static bool sreg_is_fixed(uint32_t s)
{
    switch ((ir_sreg)s) {
    case IR_SREG_TID: case IR_SREG_NTID: case IR_SREG_CTAID: case IR_SREG_NCTAID: case IR_SREG_LANEID:
    case IR_SREG_NWARPID: case IR_SREG_NSMID: case IR_SREG_GRIDID: case IR_SREG_LANEMASK_EQ:
    case IR_SREG_LANEMASK_LE: case IR_SREG_LANEMASK_LT: case IR_SREG_LANEMASK_GE: case IR_SREG_LANEMASK_GT:
    case IR_SREG_DYN_SMEM_SIZE: case IR_SREG_TOTAL_SMEM_SIZE:
        return true;
    default:
        return false; /* clocks, timers, %warpid and %smid may change during a thread's life */
    }
}

static bool op_is_pure_arith(ir_opcode op)
{
    switch (op) {
    case IR_OP_MOV: case IR_OP_CVT: case IR_OP_CVTA: case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL:
    case IR_OP_SHL: case IR_OP_SHR: case IR_OP_AND: case IR_OP_OR: case IR_OP_NEG:
        return true;
    default:
        return false;
    }
}

static bool is_kernel_param(const ir_func *f, uint32_t sym)
{
    for (guint k = 0; sym != IR_NONE && f->params && k < f->params->len; k++)
        if (g_array_index(f->params, ir_param, k).sym == sym)
            return true;
    return false;
}

/* Chain cost of recomputing register r (IR_NONE: not rematerializable). def[r] = its only def. */
static uint32_t remat_cost(const ir_func *f, const uint32_t *def, uint32_t *memo, uint32_t r, unsigned depth)
{
    if (memo[r] != IR_NONE - 1)
        return memo[r];
    memo[r] = IR_NONE;
    if (def[r] == IR_NONE || depth > REMAT_MAX_CHAIN || reg_units(f, r) == 0)
        return IR_NONE;
    const ir_instr *in = ir_func_instr(f, def[r]);
    if (in->guard != IR_NONE || in->n_dst != 1 || (in->flags & IR_F_CC))
        return IR_NONE;
    uint32_t cost = 1;
    if (in->op == IR_OP_LD) {
        const ir_operand *s = &in->src[0];
        if (!f->is_entry || in->space != IR_SPACE_PARAM || in->vec != 1 || in->n_src != 1 ||
            s->kind != IR_OPND_MEM || s->u.mem.base_reg != IR_NONE || !is_kernel_param(f, s->u.mem.base_sym))
            return IR_NONE; /* a call's return value (ld.param [retval]) is not a constant */
    } else if (op_is_pure_arith((ir_opcode)in->op)) {
        for (unsigned k = 0; k < in->n_src; k++) {
            const ir_operand *s = &in->src[k];
            if (s->kind == IR_OPND_IMM || s->kind == IR_OPND_ADDR)
                continue;
            if (s->kind == IR_OPND_SREG && sreg_is_fixed(s->u.sreg))
                continue;
            if (s->kind != IR_OPND_REG || s->neg)
                return IR_NONE;
            uint32_t c = remat_cost(f, def, memo, s->u.reg, depth + 1);
            if (c == IR_NONE)
                return IR_NONE;
            cost += c;
        }
    } else {
        return IR_NONE;
    }
    if (cost > REMAT_MAX_CHAIN)
        return IR_NONE;
    memo[r] = cost;
    return cost;
}

/* Append to `out` the instructions recomputing r into a fresh register; returns that register. */
static uint32_t remat_emit(ir_func *f, const uint32_t *def, uint32_t r, GArray *out, const ir_instr *at)
{
    ir_instr c = *ir_func_instr(f, def[r]);
    for (unsigned k = 0; k < c.n_src; k++)
        if (c.src[k].kind == IR_OPND_REG)
            c.src[k].u.reg = remat_emit(f, def, c.src[k].u.reg, out, at);
    const ir_reg *orig = &g_array_index(f->regs, ir_reg, r);
    ir_reg nr = { .type = orig->type, .phys = IR_NONE, .scope = orig->scope };
    nr.name = g_strdup_printf("%%remat%u", f->regs->len);
    g_array_append_val(f->regs, nr);
    c.dst[0].u.reg = f->regs->len - 1;
    c.line = at->line;
    c.col = at->col;
    c.annot = 0;
    c.block = IR_NONE;
    c.reconv = IR_NONE;
    for (unsigned k = 0; k < c.n_src; k++)
        c.src[k].annot = 0;
    c.dst[0].annot = 0;
    g_array_append_val(out, c);
    return f->regs->len - 1;
}

static void replace_use(ir_instr *in, uint32_t from, uint32_t to)
{
    if (in->guard == from)
        in->guard = to;
    for (unsigned k = 0; k < in->n_src; k++) {
        ir_operand *o = &in->src[k];
        if (o->kind == IR_OPND_REG && o->u.reg == from)
            o->u.reg = to;
        else if (o->kind == IR_OPND_MEM && o->u.mem.base_reg == from)
            o->u.mem.base_reg = to;
        else if (o->kind == IR_OPND_VEC)
            for (unsigned e = 0; e < o->comp && e < 4; e++)
                if (o->u.vec_regs[e] == from)
                    o->u.vec_regs[e] = to;
    }
}

/* The rematerializable registers of f: cand[r] (and def[r], the single definition of every register
 * defined once, IR_NONE otherwise). Arrays of f->regs->len entries, freed by the caller. */
static void remat_find(ir_func *f, uint32_t **def_out, bool **cand_out)
{
    uint32_t n = ir_func_n_instrs(f), nr = f->regs->len;
    uint32_t *def = g_new(uint32_t, nr + 1), *ndefs = g_new0(uint32_t, nr + 1), *memo = g_new(uint32_t, nr + 1);
    uint32_t regs[MAX_OPND_REGS];
    for (uint32_t r = 0; r < nr; r++) {
        def[r] = IR_NONE;
        memo[r] = IR_NONE - 1; /* not computed */
    }
    bool *used = g_new0(bool, nr + 1);
    for (uint32_t i = 0; i < n; i++) {
        unsigned nd = ir_instr_defs(ir_func_instr(f, i), regs, MAX_OPND_REGS);
        for (unsigned k = 0; k < nd; k++) {
            ndefs[regs[k]]++;
            def[regs[k]] = i;
        }
        unsigned nu = ir_instr_uses(ir_func_instr(f, i), regs, MAX_OPND_REGS);
        for (unsigned k = 0; k < nu; k++)
            used[regs[k]] = true;
    }
    for (uint32_t r = 0; r < nr; r++)
        if (ndefs[r] != 1)
            def[r] = IR_NONE;
    /* A value nothing reads is left where it is: rematerialization lowers register pressure, it does
     * not remove code (a microbenchmark's independent instructions stay). */
    bool *cand = g_new0(bool, nr + 1);
    for (uint32_t r = 0; r < nr; r++)
        cand[r] = used[r] && remat_cost(f, def, memo, r, 0) != IR_NONE;
    g_free(used);
    g_free(ndefs);
    g_free(memo);
    *def_out = def;
    *cand_out = cand;
}

/* f's instructions become `out`, the rewrite of its n old ones: new_index[i] is where old instruction i
 * went (i >= n: the end); branch targets and lexical scopes follow, then the CFG is rebuilt. */
static void replace_instrs(ir_func *f, GArray *out, const uint32_t *new_index, uint32_t n)
{
    for (guint i = 0; i < out->len; i++) {
        ir_instr *in = &g_array_index(out, ir_instr, i);
        for (unsigned k = 0; k < in->n_src; k++)
            if (in->src[k].kind == IR_OPND_LABEL)
                in->src[k].u.target = in->src[k].u.target >= n ? out->len : new_index[in->src[k].u.target];
    }
    if (f->scopes)
        for (guint s = 0; s < f->scopes->len; s++) {
            ir_lexscope *sc = &g_array_index(f->scopes, ir_lexscope, s);
            sc->first = sc->first >= n ? out->len : new_index[sc->first];
            sc->end = sc->end >= n ? out->len : new_index[sc->end];
        }
    g_array_free(f->instrs, TRUE);
    f->instrs = out;
    cfg_build(f);
    cfg_compute_reconvergence(f);
}

/* Rematerialize the registers r with cand[r]. */
static uint32_t remat_apply(ir_func *f, const uint32_t *def, const bool *cand)
{
    uint32_t n = ir_func_n_instrs(f), nr = f->regs->len;
    uint32_t regs[MAX_OPND_REGS];
    bool *is_cand_def = g_new0(bool, n + 1);
    for (uint32_t r = 0; r < nr; r++)
        if (cand[r])
            is_cand_def[def[r]] = true;
    /* New layout: per block and candidate, the recomputation goes right before the first use. */
    GArray *out = g_array_sized_new(FALSE, TRUE, sizeof(ir_instr), n);
    uint32_t *new_index = g_new(uint32_t, n + 1);
    GHashTable *local = g_hash_table_new(g_direct_hash, g_direct_equal); /* candidate -> copy in this block */
    uint32_t inserted = 0, cur_block = IR_NONE;
    for (uint32_t i = 0; i < n; i++) {
        new_index[i] = out->len;
        ir_instr in = *ir_func_instr(f, i);
        if (in.block != cur_block) {
            g_hash_table_remove_all(local);
            cur_block = in.block;
        }
        if (is_cand_def[i])
            continue; /* every use gets its own recomputation */
        unsigned nu = ir_instr_uses(&in, regs, MAX_OPND_REGS);
        for (unsigned k = 0; k < nu; k++) {
            uint32_t r = regs[k];
            if (!cand[r])
                continue;
            gpointer copy;
            if (!g_hash_table_lookup_extended(local, GUINT_TO_POINTER(r), NULL, &copy)) {
                guint before = out->len;
                copy = GUINT_TO_POINTER(remat_emit(f, def, r, out, &in));
                inserted += out->len - before;
                g_hash_table_insert(local, GUINT_TO_POINTER(r), copy);
            }
            replace_use(&in, r, GPOINTER_TO_UINT(copy));
        }
        g_array_append_val(out, in);
    }
    new_index[n] = out->len;
    g_hash_table_destroy(local);
    bool changed = inserted > 0;
    for (uint32_t i = 0; i < n; i++)
        changed |= is_cand_def[i];
    if (changed) {
        replace_instrs(f, out, new_index, n);
    } else {
        g_array_free(out, TRUE);
    }
    g_free(new_index);
    g_free(is_cand_def);
    return inserted;
}

uint32_t regalloc_remat(ir_func *f)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    uint32_t *def;
    bool *cand;
    remat_find(f, &def, &cand);
    uint32_t k = remat_apply(f, def, cand);
    g_free(def);
    g_free(cand);
    return k;
}

/* ---- the pipeline ---------------------------------------------------------------------------------- */

/* The function as it was before a rewrite. */
typedef struct {
    GArray *instrs, *scopes;
    uint32_t n_regs;
} func_snapshot;

static func_snapshot snapshot_take(const ir_func *f)
{
    func_snapshot s = { g_array_copy(f->instrs), f->scopes ? g_array_copy(f->scopes) : NULL, f->regs->len };
    return s;
}

static void snapshot_restore(ir_func *f, const func_snapshot *s)
{
    g_array_free(f->instrs, TRUE);
    f->instrs = g_array_copy(s->instrs);
    if (f->scopes)
        g_array_free(f->scopes, TRUE);
    f->scopes = s->scopes ? g_array_copy(s->scopes) : NULL;
    for (guint r = s->n_regs; r < f->regs->len; r++)
        g_free(g_array_index(f->regs, ir_reg, r).name);
    g_array_set_size(f->regs, s->n_regs);
    cfg_build(f);
    cfg_compute_reconvergence(f);
}

static void snapshot_free(func_snapshot *s)
{
    g_array_free(s->instrs, TRUE);
    if (s->scopes)
        g_array_free(s->scopes, TRUE);
}

/* Registers with the candidates `cand` rematerialized; *n_instrs receives the instruction count. */
static uint32_t count_with(ir_func *f, const func_snapshot *orig, const uint32_t *def, const bool *cand,
                           uint32_t *n_instrs)
{
    snapshot_restore(f, orig);
    remat_apply(f, def, cand);
    regalloc_result_free(regalloc_func(f));
    *n_instrs = ir_func_n_instrs(f);
    return f->n_phys_regs;
}

/* Whether recomputing r would put instructions inside a loop that its definition is outside of
 * (they would run at every iteration). */
static bool remat_enters_loop(ir_func *f, const uint32_t *def, uint32_t r)
{
    uint32_t regs[MAX_OPND_REGS], d = cfg_loop_depth(f, ir_func_instr(f, def[r])->block);
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        unsigned nu = ir_instr_uses(in, regs, MAX_OPND_REGS);
        for (unsigned k = 0; k < nu; k++)
            if (regs[k] == r && cfg_loop_depth(f, in->block) > d)
                return true;
    }
    return false;
}

regalloc_result *regalloc_func_remat(ir_func *f)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    regalloc_result_free(regalloc_func(f));
    uint32_t plain = f->n_phys_regs, nr = f->regs->len;
    uint32_t *def;
    bool *cand;
    remat_find(f, &def, &cand);
    bool any = false;
    for (uint32_t r = 0; r < nr; r++)
        any |= cand[r];
    func_snapshot orig = snapshot_take(f);
    uint32_t size = 0, best = any ? count_with(f, &orig, def, cand, &size) : plain;
    if (best >= plain) {
        memset(cand, 0, (nr + 1) * sizeof *cand);
        best = plain;
    } else {
        /* Recomputations cost instructions, inside loops at every iteration. Drop, greedily, each
         * one the count does not need: first those that enter loops, then the others when that
         * does not make the function longer. */
        snapshot_restore(f, &orig);
        bool *in_loop = g_new0(bool, nr + 1);
        for (uint32_t r = 0; r < nr; r++)
            in_loop[r] = cand[r] && remat_enters_loop(f, def, r);
        for (int round = 0; round < 2; round++)
            for (uint32_t r = 0; r < nr; r++) {
                if (!cand[r] || in_loop[r] != (round == 0))
                    continue;
                cand[r] = false;
                uint32_t sz, c = count_with(f, &orig, def, cand, &sz);
                if (c <= best && (round == 0 || sz <= size)) {
                    best = c;
                    size = sz;
                } else {
                    cand[r] = true;
                }
            }
        g_free(in_loop);
    }
    snapshot_restore(f, &orig);
    remat_apply(f, def, cand);
    regalloc_result *res = regalloc_func(f);
    g_assert(f->n_phys_regs == best);
    snapshot_free(&orig);
    g_free(def);
    g_free(cand);
    return res;
}

/* ---- spilling to local memory ---------------------------------------------------------------------- */

/* A register the spiller may move to local memory: a 32- or 64-bit value (loaded and stored with its
 * own type). Predicates have their own file; narrower and 128-bit values are left alone. */
static bool spillable_type(ir_type t)
{
    switch (t) {
    case IR_T_B32:
    case IR_T_U32:
    case IR_T_S32:
    case IR_T_F32:
    case IR_T_B64:
    case IR_T_U64:
    case IR_T_S64:
    case IR_T_F64:
        return true;
    default:
        return false;
    }
}

static void replace_def(ir_instr *in, uint32_t from, uint32_t to)
{
    for (unsigned k = 0; k < in->n_dst && k < IR_MAX_DST; k++) {
        ir_operand *o = &in->dst[k];
        if (o->kind == IR_OPND_REG && o->u.reg == from)
            o->u.reg = to;
        else if (o->kind == IR_OPND_VEC)
            for (unsigned e = 0; e < o->comp && e < 4; e++)
                if (o->u.vec_regs[e] == from)
                    o->u.vec_regs[e] = to;
    }
}

static bool refs_reg(const uint32_t *regs, unsigned n, uint32_t r)
{
    for (unsigned k = 0; k < n; k++)
        if (regs[k] == r)
            return true;
    return false;
}

/* ld.local.T / st.local.T between register r and [sym + offset], at the source position of `at`. */
static ir_instr spill_access(const ir_func *f, bool store, uint32_t r, uint32_t sym, uint64_t offset,
                             const ir_instr *at)
{
    ir_instr in = {0};
    in.op = store ? IR_OP_ST : IR_OP_LD;
    in.type = g_array_index(f->regs, ir_reg, r).type;
    in.space = IR_SPACE_LOCAL;
    in.vec = 1;
    in.guard = IR_NONE;
    in.line = at->line;
    in.col = at->col;
    in.block = IR_NONE;
    in.reconv = IR_NONE;
    ir_operand mem = {.kind = IR_OPND_MEM};
    mem.u.mem.base_reg = IR_NONE;
    mem.u.mem.base_sym = sym;
    mem.u.mem.offset = (int64_t)offset;
    ir_operand reg = {.kind = IR_OPND_REG};
    reg.u.reg = r;
    in.src[0] = mem;
    if (store) {
        in.n_src = 2;
        in.src[1] = reg;
    } else {
        in.n_src = 1;
        in.n_dst = 1;
        in.dst[0] = reg;
    }
    return in;
}

/* Rewrite f so that v lives in local memory at [sym + offset]: every instruction reading v (or
 * writing it under a guard, which keeps the old value in the other lanes) loads it into a fresh
 * register right before, every instruction writing v stores that register right after. */
static void spill_reg(ir_func *f, uint32_t v, uint32_t sym, uint64_t offset)
{
    uint32_t n = ir_func_n_instrs(f);
    GArray *out = g_array_sized_new(FALSE, TRUE, sizeof(ir_instr), n + 16);
    uint32_t *new_index = g_new(uint32_t, n + 1);
    uint32_t uses[MAX_OPND_REGS], defs[MAX_OPND_REGS];
    const ir_reg *orig = &g_array_index(f->regs, ir_reg, v);
    ir_type type = (ir_type)orig->type;
    uint32_t scope = orig->scope;
    for (uint32_t i = 0; i < n; i++) {
        new_index[i] = out->len;
        ir_instr in = *ir_func_instr(f, i);
        unsigned nu = ir_instr_uses(&in, uses, MAX_OPND_REGS), nd = ir_instr_defs(&in, defs, MAX_OPND_REGS);
        bool use = refs_reg(uses, nu, v), def = refs_reg(defs, nd, v);
        if (!use && !def) {
            g_array_append_val(out, in);
            continue;
        }
        ir_reg nr = {.type = (uint8_t)type, .phys = IR_NONE, .scope = scope};
        nr.name = g_strdup_printf("%%spill%u", f->regs->len);
        g_array_append_val(f->regs, nr);
        uint32_t tmp = f->regs->len - 1;
        if (use || in.guard != IR_NONE) {
            ir_instr ld = spill_access(f, false, tmp, sym, offset, &in);
            g_array_append_val(out, ld);
        }
        replace_use(&in, v, tmp);
        replace_def(&in, v, tmp);
        g_array_append_val(out, in);
        if (def) {
            ir_instr st = spill_access(f, true, tmp, sym, offset, &in);
            g_array_append_val(out, st);
        }
    }
    new_index[n] = out->len;
    replace_instrs(f, out, new_index, n);
    g_free(new_index);
}

/* The register to spill next, or IR_NONE: among the registers of the original function (index <
 * n_orig) live where the most 32-bit registers are live (with `calls`: live across a call), the one
 * with the fewest references, each weighted by 8^(loop depth) so that a value used inside a loop is
 * kept in a register. */
static uint32_t spill_choose(ir_func *f, uint32_t n_orig, bool calls)
{
    uint32_t n = ir_func_n_instrs(f), best = IR_NONE;
    df_liveness *l = df_liveness_compute(f);
    df_bits **after = df_live_after_all(l);
    uint32_t peak = IR_NONE, peak_units = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t units = 0;
        if (calls && ir_func_instr(f, i)->op != IR_OP_CALL)
            continue;
        for (uint32_t r = df_bits_next(after[i], 0); r != IR_NONE; r = df_bits_next(after[i], r + 1))
            units += reg_units(f, r);
        if (peak == IR_NONE || units > peak_units) {
            peak = i;
            peak_units = units;
        }
    }
    if (peak != IR_NONE) {
        uint64_t *cost = g_new0(uint64_t, f->regs->len + 1);
        uint32_t regs[MAX_OPND_REGS];
        for (uint32_t i = 0; i < n; i++) {
            const ir_instr *in = ir_func_instr(f, i);
            unsigned nr = ir_instr_uses(in, regs, MAX_OPND_REGS);
            nr += ir_instr_defs(in, regs + nr, MAX_OPND_REGS - nr);
            uint64_t w = 1;
            for (uint32_t d = MIN(cfg_loop_depth(f, in->block), 6u); d > 0; d--)
                w *= 8;
            for (unsigned k = 0; k < nr; k++)
                cost[regs[k]] += w;
        }
        for (uint32_t i = calls ? 0 : peak; i < (calls ? n : peak + 1); i++) {
            if (calls && ir_func_instr(f, i)->op != IR_OP_CALL)
                continue;
            for (uint32_t r = df_bits_next(after[i], 0); r != IR_NONE; r = df_bits_next(after[i], r + 1))
                if (r < n_orig && spillable_type((ir_type)g_array_index(f->regs, ir_reg, r).type) &&
                    (best == IR_NONE || cost[r] < cost[best]))
                    best = r;
        }
        g_free(cost);
    }
    df_live_after_all_free(l, after);
    df_liveness_free(l);
    return best;
}

/* Registers f needs: its own count, or with `calls` its figure with the functions it calls. */
static uint32_t spill_need(ir_module *m, ir_func *f, bool calls)
{
    return calls ? regalloc_entry_regs(m, f, NULL) : f->n_phys_regs;
}

static uint32_t spill_until(ir_module *m, ir_func *f, uint32_t max_regs, bool calls)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    if (f->n_phys_regs == IR_NONE)
        regalloc_result_free(regalloc_func(f));
    if (max_regs == 0 || spill_need(m, f, calls) <= max_regs)
        return 0;
    uint32_t n_orig = f->regs->len, spilled = 0, sym = IR_NONE, fi = IR_NONE;
    for (guint i = 0; i < m->funcs->len; i++)
        if (g_ptr_array_index(m->funcs, i) == f)
            fi = i;
    g_return_val_if_fail(fi != IR_NONE, 0);
    char *name = g_strdup_printf("__spill_%s", f->name);
    sym = ir_module_find_sym(m, fi, name);
    if (sym != IR_NONE && g_array_index(m->syms, ir_sym, sym).func != fi)
        sym = IR_NONE; /* a module-scope symbol of that name */
    while (spill_need(m, f, calls) > max_regs) {
        uint32_t v = spill_choose(f, n_orig, calls);
        if (v == IR_NONE)
            break;
        if (sym == IR_NONE) {
            ir_sym s = {0};
            s.name = g_strdup(name);
            s.space = IR_SPACE_LOCAL;
            s.type = IR_T_B8;
            s.align = 8;
            s.func = fi;
            s.scope = 0;
            g_array_append_val(m->syms, s);
            sym = m->syms->len - 1;
        }
        ir_sym *s = &g_array_index(m->syms, ir_sym, sym);
        uint64_t offset = s->size;
        s->size += 8;
        f->local_bytes += 8;
        spill_reg(f, v, sym, offset);
        spilled++;
        regalloc_result_free(regalloc_func(f));
    }
    g_free(name);
    return spilled;
}

uint32_t regalloc_spill(ir_module *m, ir_func *f, uint32_t max_regs)
{
    return spill_until(m, f, max_regs, false);
}

uint32_t regalloc_module_limit(ir_module *m, uint32_t max_regs, uint32_t *max_preds)
{
    uint32_t mr = 0, mp = 0;
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined)
            continue;
        regalloc_result_free(regalloc_func_remat(f));
        regalloc_spill(m, f, max_regs);
    }
    /* A kernel's figure includes the functions it calls on top of what it keeps live across the
     * calls: spill more of the kernel's own registers until that fits too. */
    for (guint i = 0; max_regs && i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (f->is_defined && f->is_entry)
            spill_until(m, f, max_regs, true);
    }
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined)
            continue;
        mr = MAX(mr, f->n_phys_regs);
        mp = MAX(mp, f->n_phys_preds);
    }
    if (max_preds)
        *max_preds = mp;
    return mr;
}
