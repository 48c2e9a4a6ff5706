/* relssp.c — see relssp.h. */
#include "kernels/passes/relssp.h"

#include <string.h>

#include "kernels/analysis/annot.h"
#include "kernels/analysis/cfg.h"
#include "kernels/passes/spvar_layout.h"

void relssp_analyze(const relssp_cfg *g, bool *safe_in, bool *safe_out, bool *ins_in, bool *ins_out)
{
    for (unsigned b = 0; b < g->n; b++)
        safe_in[b] = safe_out[b] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned b = g->n; b-- > 0;) {
            bool out = true;
            if (b != g->exit)
                for (unsigned j = 0; j < g->n_succ[b]; j++)
                    out = out && safe_in[g->succ[b][j]];
            bool in = !g->access[b] && out;
            changed |= out != safe_out[b] || in != safe_in[b];
            safe_out[b] = out;
            safe_in[b] = in;
        }
    }
    for (unsigned b = 0; b < g->n; b++) {
        bool all_pred = true; /* AND over the predecessors of SafeOUT (empty: true) */
        for (unsigned p = 0; p < g->n; p++)
            for (unsigned j = 0; j < g->n_succ[p]; j++)
                if (g->succ[p][j] == b && p != g->exit)
                    all_pred = all_pred && safe_out[p];
        ins_out[b] = safe_out[b] && !safe_in[b];
        ins_in[b] = !all_pred && safe_in[b];
    }
}

bool relssp_is_scratchpad_access(const ir_instr *in)
{
    if (in->op == IR_OP_CALL) /* a callee may touch the scratchpad */
        return true;
    if (ir_instr_class(in) != IR_CLASS_MEM || in->op == IR_OP_PREFETCH)
        return false;
    return in->space == IR_SPACE_SHARED || in->space == IR_SPACE_NONE;
}

bool relssp_is_shared_access(const ir_instr *in)
{
    return relssp_is_scratchpad_access(in) && !spvar_access_is_private(in);
}

static ir_instr make_relssp(const ir_instr *like)
{
    ir_instr r;
    memset(&r, 0, sizeof r);
    r.op = IR_OP_RELSSP;
    r.vec = 1;
    r.guard = IR_NONE;
    r.line = like->line;
    r.col = like->col;
    r.block = IR_NONE;
    r.reconv = IR_NONE;
    return r;
}

static ir_operand *label_of(ir_instr *in)
{
    for (unsigned i = 0; i < in->n_src; i++)
        if (in->src[i].kind == IR_OPND_LABEL)
            return &in->src[i];
    return NULL;
}

/* Inserts relssp before instruction i where before[i] (branches to i reach it) and after i where
 * after[i] (branches to i + 1 do not). */
static void insert(ir_func *f, const bool *before, const bool *after)
{
    uint32_t n = ir_func_n_instrs(f);
    uint32_t *at = g_new(uint32_t, n + 1); /* new index of what a branch to old i reaches */
    GArray *out = g_array_sized_new(FALSE, TRUE, sizeof(ir_instr), n + 8);
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        at[i] = out->len;
        if (before[i]) {
            ir_instr r = make_relssp(in);
            if (in->op == IR_OP_EXIT) { /* guarded as the exit it comes with (a function's exit) */
                r.guard = in->guard;
                r.guard_neg = in->guard_neg;
            }
            g_array_append_val(out, r);
        }
        g_array_append_val(out, *in);
        if (after[i]) {
            ir_instr r = make_relssp(in);
            g_array_append_val(out, r);
        }
    }
    at[n] = out->len;
    for (guint i = 0; i < out->len; i++) {
        ir_operand *lab = label_of(&g_array_index(out, ir_instr, i));
        if (lab)
            lab->u.target = lab->u.target >= n ? out->len : at[lab->u.target];
    }
    for (guint s = 0; f->scopes && s < f->scopes->len; s++) {
        ir_lexscope *sc = &g_array_index(f->scopes, ir_lexscope, s);
        sc->first = sc->first >= n ? out->len : at[sc->first];
        sc->end = sc->end >= n ? out->len : at[sc->end];
    }
    g_array_free(f->instrs, TRUE);
    f->instrs = out;
    g_free(at);
    cfg_build(f);
    cfg_compute_reconvergence(f);
}

/* The analysis assumes one exit (§8.3). A kernel that leaves by several ret/exit, by a guarded one,
 * or by a ret/exit beside falling off its end gets one exit block at the end (`ret`): every ret and
 * exit becomes a branch to it (guarded as it was), in place, so that the edges into the exit are
 * edges like others (split when critical) and the paths through an early exit get their relssp.
 * Returns true when rewritten. */
static bool unify_exits(ir_func *f)
{
    uint32_t n = ir_func_n_instrs(f), exits = 0;
    bool guarded = false;
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (in->op == IR_OP_RET || in->op == IR_OP_EXIT) {
            exits++;
            guarded |= in->guard != IR_NONE;
        }
    }
    const ir_instr *last = ir_func_instr(f, n - 1);
    bool ends = last->guard == IR_NONE && (last->op == IR_OP_RET || last->op == IR_OP_EXIT ||
                                           last->op == IR_OP_BRA || last->op == IR_OP_TRAP);
    if (!ends)
        exits++; /* falling off the end */
    if (exits <= 1 && !guarded)
        return false;
    ir_instr r;
    memset(&r, 0, sizeof r);
    r.op = IR_OP_RET;
    r.vec = 1;
    r.guard = IR_NONE;
    r.line = last->line;
    r.col = last->col;
    r.block = IR_NONE;
    r.reconv = IR_NONE;
    for (uint32_t i = 0; i < n; i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (in->op != IR_OP_RET && in->op != IR_OP_EXIT)
            continue;
        in->op = IR_OP_BRA;
        in->flags = 0;
        in->n_src = 1;
        memset(&in->src[0], 0, sizeof in->src[0]);
        in->src[0].kind = IR_OPND_LABEL;
        in->src[0].u.target = n;
    }
    g_array_append_val(f->instrs, r);
    for (guint s = 0; f->scopes && s < f->scopes->len; s++) {
        ir_lexscope *sc = &g_array_index(f->scopes, ir_lexscope, s);
        if (sc->end >= n)
            sc->end = n + 1;
    }
    cfg_build(f);
    cfg_compute_reconvergence(f);
    return true;
}

/* After OPT's placement: the blocks that splitting added (a lone unconditional `bra`, not marked
 * `orig`) and that received no relssp are taken out again (their edge branches straight to the
 * target, or falls through), so that a thread pays the extra branch only where it executes a
 * relssp (a split loop back edge would cost one per iteration). Returns the split blocks kept. */
static uint32_t drop_unused_splits(ir_func *f, const annot_field *orig)
{
    uint32_t n = ir_func_n_instrs(f), kept = 0, len = 0;
    bool *drop = g_new0(bool, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (annot_get_instr(in, orig) || in->op != IR_OP_BRA || in->guard != IR_NONE)
            continue;
        if (i > 0 && ir_func_instr(f, i - 1)->op == IR_OP_RELSSP) /* a relssp at the block's head */
            kept++;
        else
            drop[i] = true;
    }
    uint32_t *at = g_new(uint32_t, n + 1); /* new index of old i (dropped: of the next one kept) */
    for (uint32_t i = 0; i < n; i++) {
        at[i] = len;
        len += !drop[i];
    }
    at[n] = len;
    GArray *out = g_array_sized_new(FALSE, TRUE, sizeof(ir_instr), len + 1);
    for (uint32_t i = 0; i < n; i++) {
        if (drop[i])
            continue;
        ir_instr in = *ir_func_instr(f, i);
        ir_operand *lab = label_of(&in);
        if (lab) {
            uint32_t t = lab->u.target;
            for (unsigned hops = 0; t < n && drop[t] && hops < n; hops++) /* through dropped blocks */
                t = label_of(ir_func_instr(f, t))->u.target;
            lab->u.target = t >= n ? len : at[t];
        }
        g_array_append_val(out, in);
    }
    for (guint sc_i = 0; f->scopes && sc_i < f->scopes->len; sc_i++) {
        ir_lexscope *sc = &g_array_index(f->scopes, ir_lexscope, sc_i);
        sc->first = sc->first >= n ? len : at[sc->first];
        sc->end = sc->end >= n ? len : at[sc->end];
    }
    g_array_free(f->instrs, TRUE);
    f->instrs = out;
    g_free(at);
    g_free(drop);
    cfg_build(f);
    cfg_compute_reconvergence(f);
    return kept;
}

uint32_t relssp_place_func(ir_func *f, relssp_variant v, uint32_t *split)
{
    if (split)
        *split = 0;
    uint32_t n = f->is_defined ? ir_func_n_instrs(f) : 0;
    bool any = false;
    for (uint32_t i = 0; i < n && !any; i++)
        any = relssp_is_shared_access(ir_func_instr(f, i));
    if (!any || !f->is_entry)
        return 0;
    unify_exits(f);
    const annot_field *orig = NULL;
    if (v == RELSSP_OPT) {
        orig = annot_register("relssp", "orig", ANNOT_INSTR, 1,
                              "the instruction was there before relssp's critical-edge splitting (during the "
                              "pass only)");
        for (uint32_t i = 0; orig && i < ir_func_n_instrs(f); i++)
            annot_set_instr(ir_func_instr(f, i), orig, 1);
        cfg_split_critical_edges(f);
    }
    cfg_build(f);
    n = ir_func_n_instrs(f);
    unsigned nb = cfg_n_blocks(f), exit = nb;
    unsigned **succ = g_new0(unsigned *, nb + 1), *n_succ = g_new0(unsigned, nb + 1);
    bool *access = g_new0(bool, nb + 1);
    uint32_t *last = g_new(uint32_t, nb + 1); /* the block's last shared access */
    for (unsigned b = 0; b < nb; b++) {
        const ir_block *bl = cfg_block(f, b);
        succ[b] = g_new(unsigned, bl->succ->len + 1);
        for (guint j = 0; j < bl->succ->len; j++)
            succ[b][n_succ[b]++] = g_array_index(bl->succ, uint32_t, j);
        for (uint32_t i = bl->first; i <= bl->last; i++)
            if (relssp_is_shared_access(ir_func_instr(f, i))) {
                access[b] = true;
                last[b] = i;
            }
    }
    bool *si = g_new(bool, nb + 1), *so = g_new(bool, nb + 1), *ii = g_new(bool, nb + 1),
         *io = g_new(bool, nb + 1);
    relssp_cfg g = {nb + 1, exit, (const unsigned *const *)succ, n_succ, access};
    relssp_analyze(&g, si, so, ii, io);
    bool *before = g_new0(bool, n + 1), *after = g_new0(bool, n + 1);
    uint32_t count = 0;
    if (v == RELSSP_OPT) {
        for (unsigned b = 0; b < nb; b++) {
            if (!cfg_reachable(f, b))
                continue;
            if (io[b]) {
                after[last[b]] = true;
                count++;
            }
            if (ii[b]) {
                before[cfg_block(f, b)->first] = true;
                count++;
            }
        }
    } else {
        /* PostDom: the common post-dominator of the access blocks, up the tree until no access
         * follows the point (a post-dominator inside a loop would release too early) */
        uint32_t p = IR_NONE;
        for (unsigned b = 0; b < nb; b++)
            if (access[b] && cfg_reachable(f, b)) {
                if (p == IR_NONE)
                    p = b;
                while (p != exit && !cfg_postdominates(f, p, b))
                    p = cfg_ipdom(f, p);
            }
        while (p != IR_NONE && p != exit && !(access[p] ? so[p] : si[p]))
            p = cfg_ipdom(f, p);
        if (p != IR_NONE && p != exit) {
            if (access[p])
                after[last[p]] = true;
            else
                before[cfg_block(f, p)->first] = true;
            count = 1;
        }
    }
    if (count)
        insert(f, before, after);
    if (orig) {
        uint32_t k = drop_unused_splits(f, orig);
        if (split)
            *split = k;
        annot_clear_pass(f, "relssp");
    }
    for (unsigned b = 0; b <= nb; b++)
        g_free(succ[b]);
    g_free(succ);
    g_free(n_succ);
    g_free(access);
    g_free(last);
    g_free(si);
    g_free(so);
    g_free(ii);
    g_free(io);
    g_free(before);
    g_free(after);
    return count;
}

/* Marks f and every function it calls, directly or not (reach[i] set). */
static void mark_callees(const ir_module *m, guint f, bool *reach)
{
    if (reach[f])
        return;
    reach[f] = true;
    const ir_func *fn = g_ptr_array_index(m->funcs, f);
    for (uint32_t i = 0; fn->is_defined && i < ir_func_n_instrs(fn); i++) {
        const ir_instr *in = ir_func_instr(fn, i);
        for (unsigned j = 0; in->op == IR_OP_CALL && j < in->n_src; j++)
            if (in->src[j].kind == IR_OPND_FUNC && in->src[j].u.func < m->funcs->len)
                mark_callees(m, in->src[j].u.func, reach);
    }
}

uint32_t relssp_place_func_exits(ir_func *f)
{
    uint32_t n = f->is_defined && !f->is_entry ? ir_func_n_instrs(f) : 0, count = 0;
    bool *before = g_new0(bool, n + 1), *after = g_new0(bool, n + 1);
    for (uint32_t i = 0; i < n; i++)
        if (ir_func_instr(f, i)->op == IR_OP_EXIT &&
            !(i > 0 && ir_func_instr(f, i - 1)->op == IR_OP_RELSSP)) {
            before[i] = true;
            count++;
        }
    if (count)
        insert(f, before, after);
    g_free(before);
    g_free(after);
    return count;
}

uint32_t relssp_place_module(ir_module *m, relssp_variant v)
{
    return relssp_place_entries(m, v, NULL);
}

uint32_t relssp_place_entries(ir_module *m, relssp_variant v, const bool *only)
{
    uint32_t total = 0;
    bool *reach = g_new0(bool, m->funcs->len + 1);
    for (guint i = 0; i < m->funcs->len; i++) {
        if (only && !only[i])
            continue;
        uint32_t k = relssp_place_func(g_ptr_array_index(m->funcs, i), v, NULL);
        total += k;
        if (k)
            mark_callees(m, i, reach);
    }
    /* a thread that leaves by an `exit` inside a function its kernel calls (a call is a scratchpad
     * access, so its kernel's relssp comes after the call and is never reached) releases there */
    for (guint i = 0; i < m->funcs->len; i++)
        if (reach[i])
            total += relssp_place_func_exits(g_ptr_array_index(m->funcs, i));
    g_free(reach);
    return total;
}
