/* dataflow.c — bit vectors, the iterative solver, liveness and reaching definitions. */
#include "kernels/analysis/dataflow.h"

#include <string.h>

/* ---- bit vectors ---------------------------------------------------------------------------------- */

static uint32_t n_words(uint32_t n)
{
    return (n + 63) / 64;
}

df_bits *df_bits_new(uint32_t n)
{
    df_bits *b = g_new(df_bits, 1);
    b->n = n;
    b->w = g_new0(uint64_t, n_words(n) ? n_words(n) : 1);
    return b;
}

df_bits *df_bits_dup(const df_bits *b)
{
    df_bits *d = df_bits_new(b->n);
    df_bits_copy(d, b);
    return d;
}

void df_bits_free(df_bits *b)
{
    if (!b)
        return;
    g_free(b->w);
    g_free(b);
}

void df_bits_clear_all(df_bits *b)
{
    memset(b->w, 0, n_words(b->n) * sizeof(uint64_t));
}

void df_bits_set_all(df_bits *b)
{
    uint32_t nw = n_words(b->n);
    for (uint32_t i = 0; i < nw; i++)
        b->w[i] = ~0ull;
    if (b->n & 63)
        b->w[nw - 1] = (1ull << (b->n & 63)) - 1;
}

void df_bits_copy(df_bits *dst, const df_bits *src)
{
    g_assert(dst->n == src->n);
    memcpy(dst->w, src->w, n_words(src->n) * sizeof(uint64_t));
}

bool df_bits_union(df_bits *dst, const df_bits *src)
{
    g_assert(dst->n == src->n);
    uint64_t changed = 0;
    for (uint32_t i = 0; i < n_words(dst->n); i++) {
        uint64_t v = dst->w[i] | src->w[i];
        changed |= v ^ dst->w[i];
        dst->w[i] = v;
    }
    return changed != 0;
}

bool df_bits_intersect(df_bits *dst, const df_bits *src)
{
    g_assert(dst->n == src->n);
    uint64_t changed = 0;
    for (uint32_t i = 0; i < n_words(dst->n); i++) {
        uint64_t v = dst->w[i] & src->w[i];
        changed |= v ^ dst->w[i];
        dst->w[i] = v;
    }
    return changed != 0;
}

void df_bits_subtract(df_bits *dst, const df_bits *src)
{
    g_assert(dst->n == src->n);
    for (uint32_t i = 0; i < n_words(dst->n); i++)
        dst->w[i] &= ~src->w[i];
}

bool df_bits_equal(const df_bits *a, const df_bits *b)
{
    return a->n == b->n && memcmp(a->w, b->w, n_words(a->n) * sizeof(uint64_t)) == 0;
}

uint32_t df_bits_count(const df_bits *b)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < n_words(b->n); i++)
        c += (uint32_t)__builtin_popcountll(b->w[i]);
    return c;
}

uint32_t df_bits_next(const df_bits *b, uint32_t from)
{
    if (from >= b->n)
        return IR_NONE;
    uint32_t wi = from >> 6;
    uint64_t w = b->w[wi] & (~0ull << (from & 63));
    for (;;) {
        if (w)
            return wi * 64 + (uint32_t)__builtin_ctzll(w);
        if (++wi >= n_words(b->n))
            return IR_NONE;
        w = b->w[wi];
    }
}

/* ---- the solver ------------------------------------------------------------------------------------ */

/* x = gen | (x & ~kill) */
static void apply(df_bits *x, const df_bits *gen, const df_bits *kill)
{
    df_bits_subtract(x, kill);
    df_bits_union(x, gen);
}

/* Compose the instruction transfers of a block, in the problem's direction. */
static void block_transfer(df_result *r, uint32_t b, df_bits *g, df_bits *k)
{
    const ir_block *bl = cfg_block(r->f, b);
    df_bits *gi = df_bits_new(r->p.n_bits), *ki = df_bits_new(r->p.n_bits);
    uint32_t cnt = bl->last - bl->first + 1;
    for (uint32_t j = 0; j < cnt; j++) {
        uint32_t i = r->p.dir == DF_FORWARD ? bl->first + j : bl->last - j;
        df_bits_clear_all(gi);
        df_bits_clear_all(ki);
        r->p.transfer(r->p.ctx, r->f, i, gi, ki);
        /* f_i o f_prev: G = gi | (G & ~ki), K = K | ki */
        df_bits_subtract(g, ki);
        df_bits_union(g, gi);
        df_bits_union(k, ki);
    }
    df_bits_free(gi);
    df_bits_free(ki);
}

/* The meet of the neighbours' values (predecessors' out, or successors' in) into x. */
static void meet_into(df_result *r, uint32_t b, df_bits *x)
{
    const ir_block *bl = cfg_block(r->f, b);
    bool fwd = r->p.dir == DF_FORWARD;
    GArray *nb = fwd ? bl->pred : bl->succ;
    bool at_boundary = fwd ? (b == 0 || nb->len == 0) : (cfg_block_exits(r->f, b) || nb->len == 0);
    bool first = true;
    if (at_boundary) {
        df_bits_copy(x, r->boundary);
        first = false;
    }
    for (guint j = 0; j < nb->len; j++) {
        uint32_t o = g_array_index(nb, uint32_t, j);
        const df_bits *v = fwd ? r->out[o] : r->in[o];
        if (first)
            df_bits_copy(x, v);
        else if (r->p.meet == DF_MAY)
            df_bits_union(x, v);
        else
            df_bits_intersect(x, v);
        first = false;
    }
}

df_result *df_solve(ir_func *f, const df_problem *p)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    df_result *r = g_new0(df_result, 1);
    r->f = f;
    r->p = *p;
    r->boundary = df_bits_new(p->n_bits);
    if (p->boundary)
        df_bits_copy(r->boundary, p->boundary);
    uint32_t nb = cfg_n_blocks(f);
    r->n_blocks = nb;
    r->gen = g_new(df_bits *, nb + 1);
    r->kill = g_new(df_bits *, nb + 1);
    r->in = g_new(df_bits *, nb + 1);
    r->out = g_new(df_bits *, nb + 1);
    for (uint32_t b = 0; b < nb; b++) {
        r->gen[b] = df_bits_new(p->n_bits);
        r->kill[b] = df_bits_new(p->n_bits);
        r->in[b] = df_bits_new(p->n_bits);
        r->out[b] = df_bits_new(p->n_bits);
        if (p->meet == DF_MUST) {
            df_bits_set_all(r->in[b]);
            df_bits_set_all(r->out[b]);
        }
        block_transfer(r, b, r->gen[b], r->kill[b]);
    }
    /* Order: reverse postorder of the reachable blocks, then the unreachable ones. */
    uint32_t n_rpo;
    const uint32_t *rpo = cfg_rpo(f, &n_rpo);
    uint32_t *order = g_new(uint32_t, nb + 1), k = 0;
    for (uint32_t i = 0; i < n_rpo; i++)
        order[k++] = rpo[i];
    for (uint32_t b = 0; b < nb; b++)
        if (!cfg_reachable(f, b))
            order[k++] = b;
    df_bits *x = df_bits_new(p->n_bits);
    bool changed = true;
    while (changed) {
        changed = false;
        r->iterations++;
        for (uint32_t j = 0; j < nb; j++) {
            uint32_t b = p->dir == DF_FORWARD ? order[j] : order[nb - 1 - j];
            df_bits *meet_side = p->dir == DF_FORWARD ? r->in[b] : r->out[b];
            df_bits *other = p->dir == DF_FORWARD ? r->out[b] : r->in[b];
            meet_into(r, b, x);
            df_bits_copy(meet_side, x);
            apply(x, r->gen[b], r->kill[b]);
            if (!df_bits_equal(x, other)) {
                df_bits_copy(other, x);
                changed = true;
            }
        }
    }
    df_bits_free(x);
    g_free(order);
    return r;
}

void df_result_free(df_result *r)
{
    if (!r)
        return;
    for (uint32_t b = 0; b < r->n_blocks; b++) {
        df_bits_free(r->gen[b]);
        df_bits_free(r->kill[b]);
        df_bits_free(r->in[b]);
        df_bits_free(r->out[b]);
    }
    g_free(r->gen);
    g_free(r->kill);
    g_free(r->in);
    g_free(r->out);
    df_bits_free(r->boundary);
    g_free(r);
}

/* Replay instruction transfers from the block boundary on the solver's side up to `instr`; `after`
 * selects the program point after (else before) it. */
static void replay(const df_result *r, uint32_t instr, bool after, df_bits *out)
{
    const ir_instr *in = ir_func_instr(r->f, instr);
    g_assert(in->block != IR_NONE && in->block < r->n_blocks);
    const ir_block *bl = cfg_block(r->f, in->block);
    df_bits *gi = df_bits_new(r->p.n_bits), *ki = df_bits_new(r->p.n_bits);
    if (r->p.dir == DF_FORWARD) {
        df_bits_copy(out, r->in[in->block]);
        uint32_t stop = after ? instr + 1 : instr;
        for (uint32_t i = bl->first; i < stop; i++) {
            df_bits_clear_all(gi);
            df_bits_clear_all(ki);
            r->p.transfer(r->p.ctx, r->f, i, gi, ki);
            apply(out, gi, ki);
        }
    } else {
        df_bits_copy(out, r->out[in->block]);
        uint32_t stop = after ? instr + 1 : instr; /* apply instructions last .. stop */
        for (uint32_t i = bl->last + 1; i-- > stop;) {
            df_bits_clear_all(gi);
            df_bits_clear_all(ki);
            r->p.transfer(r->p.ctx, r->f, i, gi, ki);
            apply(out, gi, ki);
        }
    }
    df_bits_free(gi);
    df_bits_free(ki);
}

void df_value_before(const df_result *r, uint32_t instr, df_bits *out)
{
    replay(r, instr, false, out);
}

void df_value_after(const df_result *r, uint32_t instr, df_bits *out)
{
    replay(r, instr, true, out);
}

/* ---- liveness ------------------------------------------------------------------------------------ */

#define MAX_REGS_PER_INSTR 32

static void live_transfer(void *ctx, ir_func *f, uint32_t instr, df_bits *gen, df_bits *kill)
{
    (void)ctx;
    const ir_instr *in = ir_func_instr(f, instr);
    uint32_t regs[MAX_REGS_PER_INSTR];
    if (in->guard == IR_NONE) {
        unsigned nd = ir_instr_defs(in, regs, MAX_REGS_PER_INSTR);
        for (unsigned k = 0; k < nd; k++)
            df_bits_set(kill, regs[k]);
    }
    unsigned nu = ir_instr_uses(in, regs, MAX_REGS_PER_INSTR);
    for (unsigned k = 0; k < nu; k++)
        df_bits_set(gen, regs[k]);
}

df_liveness *df_liveness_compute(ir_func *f)
{
    df_problem p = { .dir = DF_BACKWARD, .meet = DF_MAY, .n_bits = f->regs->len, .transfer = live_transfer };
    df_liveness *l = g_new(df_liveness, 1);
    l->r = df_solve(f, &p);
    return l;
}

void df_liveness_free(df_liveness *l)
{
    if (!l)
        return;
    df_result_free(l->r);
    g_free(l);
}

const df_bits *df_live_in(const df_liveness *l, uint32_t block)
{
    g_assert(block < l->r->n_blocks);
    return l->r->in[block];
}

const df_bits *df_live_out(const df_liveness *l, uint32_t block)
{
    g_assert(block < l->r->n_blocks);
    return l->r->out[block];
}

void df_live_before(const df_liveness *l, uint32_t instr, df_bits *out)
{
    df_value_before(l->r, instr, out);
}

void df_live_after(const df_liveness *l, uint32_t instr, df_bits *out)
{
    df_value_after(l->r, instr, out);
}

df_bits **df_live_after_all(const df_liveness *l)
{
    ir_func *f = l->r->f;
    uint32_t n = ir_func_n_instrs(f);
    df_bits **after = g_new0(df_bits *, n + 1);
    df_bits *x = df_bits_new(l->r->p.n_bits), *g = df_bits_new(l->r->p.n_bits), *k = df_bits_new(l->r->p.n_bits);
    for (uint32_t b = 0; b < l->r->n_blocks; b++) {
        const ir_block *bl = cfg_block(f, b);
        df_bits_copy(x, l->r->out[b]);
        for (uint32_t i = bl->last + 1; i-- > bl->first;) {
            after[i] = df_bits_dup(x);
            df_bits_clear_all(g);
            df_bits_clear_all(k);
            live_transfer(NULL, f, i, g, k);
            apply(x, g, k);
        }
    }
    df_bits_free(x);
    df_bits_free(g);
    df_bits_free(k);
    return after;
}

void df_live_after_all_free(const df_liveness *l, df_bits **after)
{
    if (!after)
        return;
    uint32_t n = ir_func_n_instrs(l->r->f);
    for (uint32_t i = 0; i < n; i++)
        df_bits_free(after[i]);
    g_free(after);
}

/* ---- reaching definitions -------------------------------------------------------------------------- */

/* Sites of one instruction are consecutive, from rd->first_site[instr]. */
static void reach_transfer(void *ctx, ir_func *f, uint32_t instr, df_bits *gen, df_bits *kill)
{
    const df_reaching *rd = ctx;
    const ir_instr *in = ir_func_instr(f, instr);
    uint32_t regs[MAX_REGS_PER_INSTR];
    unsigned nd = ir_instr_defs(in, regs, MAX_REGS_PER_INSTR);
    if (in->guard == IR_NONE)
        for (unsigned k = 0; k < nd; k++) {
            GArray *all = rd->reg_defs[regs[k]];
            for (guint j = 0; j < all->len; j++)
                df_bits_set(kill, g_array_index(all, uint32_t, j));
        }
    for (unsigned k = 0; k < nd; k++) {
        df_bits_clear(kill, rd->first_site[instr] + k);
        df_bits_set(gen, rd->first_site[instr] + k);
    }
}

df_reaching *df_reaching_compute(ir_func *f)
{
    df_reaching *rd = g_new0(df_reaching, 1);
    uint32_t n = ir_func_n_instrs(f);
    rd->n_regs = f->regs->len;
    rd->defs = g_array_new(FALSE, FALSE, sizeof(df_def));
    rd->reg_defs = g_new(GArray *, rd->n_regs + 1);
    rd->first_site = g_new(uint32_t, n + 1);
    for (uint32_t r = 0; r < rd->n_regs; r++)
        rd->reg_defs[r] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t regs[MAX_REGS_PER_INSTR];
    for (uint32_t i = 0; i < n; i++) {
        rd->first_site[i] = rd->defs->len;
        unsigned nd = ir_instr_defs(ir_func_instr(f, i), regs, MAX_REGS_PER_INSTR);
        for (unsigned k = 0; k < nd; k++) {
            df_def d = { .instr = i, .reg = regs[k] };
            uint32_t id = rd->defs->len;
            g_array_append_val(rd->defs, d);
            g_array_append_val(rd->reg_defs[regs[k]], id);
        }
    }
    df_problem p = { .dir = DF_FORWARD, .meet = DF_MAY, .n_bits = rd->defs->len, .transfer = reach_transfer, .ctx = rd };
    rd->r = df_solve(f, &p);
    return rd;
}

void df_reaching_free(df_reaching *rd)
{
    if (!rd)
        return;
    df_result_free(rd->r);
    for (uint32_t r = 0; r < rd->n_regs; r++)
        g_array_free(rd->reg_defs[r], TRUE);
    g_free(rd->reg_defs);
    g_free(rd->first_site);
    g_array_free(rd->defs, TRUE);
    g_free(rd);
}

void df_reaching_before(const df_reaching *rd, uint32_t instr, df_bits *out)
{
    df_value_before(rd->r, instr, out);
}

GArray *df_reaching_defs_of(const df_reaching *rd, uint32_t instr, uint32_t reg)
{
    g_assert(reg < rd->n_regs);
    df_bits *x = df_bits_new(rd->defs->len);
    df_reaching_before(rd, instr, x);
    GArray *out = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GArray *all = rd->reg_defs[reg];
    for (guint j = 0; j < all->len; j++) {
        uint32_t s = g_array_index(all, uint32_t, j);
        if (df_bits_test(x, s))
            g_array_append_val(out, s);
    }
    df_bits_free(x);
    return out;
}

/* ---- divergence ------------------------------------------------------------------------------------ */

static bool sreg_divergent(uint32_t s)
{
    switch ((ir_sreg)s) {
    case IR_SREG_TID: case IR_SREG_LANEID: case IR_SREG_LANEMASK_EQ: case IR_SREG_LANEMASK_LE:
    case IR_SREG_LANEMASK_LT: case IR_SREG_LANEMASK_GE: case IR_SREG_LANEMASK_GT: case IR_SREG_CLOCK:
    case IR_SREG_CLOCK64: case IR_SREG_GLOBALTIMER:
        return true;
    default:
        return false;
    }
}

/* A kernel parameter of f: the same for every thread. (A .func's parameters come from its callers'
 * lanes; a call's return value comes back through a call-sequence .param.) */
static bool is_kernel_param(const ir_func *f, uint32_t sym)
{
    for (guint k = 0; f->is_entry && sym != IR_NONE && f->params && k < f->params->len; k++)
        if (g_array_index(f->params, ir_param, k).sym == sym)
            return true;
    return false;
}

/* Whether the definitions of `in` are divergent given the divergent registers so far. */
static bool instr_divergent(const ir_func *f, const ir_instr *in, const df_bits *div)
{
    switch ((ir_opcode)in->op) {
    case IR_OP_ATOM: case IR_OP_RED: case IR_OP_SHFL: case IR_OP_CALL:
        return true;
    case IR_OP_LD: case IR_OP_LDU:
        if (in->space == IR_SPACE_LOCAL)
            return true;
        if (in->space == IR_SPACE_PARAM &&
            !(in->src[0].kind == IR_OPND_MEM && is_kernel_param(f, in->src[0].u.mem.base_sym)))
            return true;
        break;
    case IR_OP_VOTE: case IR_OP_ACTIVEMASK:
        /* Same result in every active lane; only a divergent guard can make it partial. */
        return in->guard != IR_NONE && df_bits_test(div, in->guard);
    default:
        break;
    }
    if (in->guard != IR_NONE && df_bits_test(div, in->guard))
        return true;
    for (unsigned k = 0; k < in->n_src && k < IR_MAX_SRC; k++) {
        const ir_operand *o = &in->src[k];
        if (o->kind == IR_OPND_SREG && sreg_divergent(o->u.sreg))
            return true;
    }
    uint32_t regs[MAX_REGS_PER_INSTR];
    unsigned nu = ir_instr_uses(in, regs, MAX_REGS_PER_INSTR);
    for (unsigned k = 0; k < nu; k++)
        if (df_bits_test(div, regs[k]))
            return true;
    return false;
}

/* Blocks reached from the successors of b before reaching stop (b itself when a loop brings it back). */
static void influence_region(ir_func *f, uint32_t b, uint32_t stop, bool *in)
{
    uint32_t n = cfg_n_blocks(f);
    memset(in, 0, n * sizeof *in);
    GArray *work = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GArray *s0 = cfg_block(f, b)->succ;
    for (guint j = 0; j < s0->len; j++) {
        uint32_t t = g_array_index(s0, uint32_t, j);
        if (t != stop && !in[t]) {
            in[t] = true;
            g_array_append_val(work, t);
        }
    }
    while (work->len) {
        uint32_t x = g_array_index(work, uint32_t, work->len - 1);
        g_array_set_size(work, work->len - 1);
        GArray *s = cfg_block(f, x)->succ;
        for (guint j = 0; j < s->len; j++) {
            uint32_t t = g_array_index(s, uint32_t, j);
            if (t != stop && !in[t]) {
                in[t] = true;
                g_array_append_val(work, t);
            }
        }
    }
    g_array_free(work, TRUE);
}

df_divergence *df_divergence_compute(ir_func *f)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    uint32_t n = ir_func_n_instrs(f), nb = cfg_n_blocks(f);
    df_divergence *d = g_new0(df_divergence, 1);
    d->regs = df_bits_new(f->regs->len);
    d->branch = g_new0(bool, n + 1);
    d->n_instrs = n;
    bool *region = g_new0(bool, nb + 1), *in_div_region = g_new0(bool, nb + 1), *done = g_new0(bool, n + 1);
    uint32_t regs[MAX_REGS_PER_INSTR];
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 0; i < n; i++) {
            const ir_instr *in = ir_func_instr(f, i);
            if (in_div_region[in->block] || instr_divergent(f, in, d->regs)) {
                unsigned nd = ir_instr_defs(in, regs, MAX_REGS_PER_INSTR);
                for (unsigned k = 0; k < nd; k++)
                    if (!df_bits_test(d->regs, regs[k])) {
                        df_bits_set(d->regs, regs[k]);
                        changed = true;
                    }
            }
            if (in->op == IR_OP_BRA && in->guard != IR_NONE && !(in->flags & IR_F_UNI) &&
                df_bits_test(d->regs, in->guard) && !done[i]) {
                done[i] = true;
                d->branch[i] = true;
                influence_region(f, in->block, cfg_ipdom(f, in->block), region);
                for (uint32_t b = 0; b < nb; b++)
                    if (region[b] && !in_div_region[b]) {
                        in_div_region[b] = true;
                        changed = true;
                    }
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (in->op == IR_OP_BRA && in->guard != IR_NONE) {
            d->n_guarded_branches++;
            d->n_uniform_branches += !d->branch[i];
        }
    }
    g_free(region);
    g_free(in_div_region);
    g_free(done);
    return d;
}

void df_divergence_free(df_divergence *d)
{
    if (!d)
        return;
    df_bits_free(d->regs);
    g_free(d->branch);
    g_free(d);
}

uint32_t df_mark_uniform_branches(ir_func *f)
{
    df_divergence *d = df_divergence_compute(f);
    uint32_t marked = 0;
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (cfg_branch_is_divergent(in) && !d->branch[i]) {
            cfg_mark_uniform(f, i);
            marked++;
        }
    }
    df_divergence_free(d);
    return marked;
}
