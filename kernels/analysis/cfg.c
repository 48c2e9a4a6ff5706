/* cfg.c — basic blocks, dominators (Cooper-Harvey-Kennedy, iterative), post-dominators on the reverse
 * CFG with a virtual exit, natural loops, critical-edge splitting, reconvergence points. */
#include "kernels/analysis/cfg.h"

#include <string.h>

/* The cached analyses of one function (f->analysis). */
typedef struct {
    uint32_t n;         /* blocks */
    uint32_t *idom;     /* n entries; IR_NONE for the entry and unreachable blocks */
    uint32_t *ipdom;    /* n entries; n = virtual exit */
    uint32_t *rpo;      /* reachable blocks in reverse postorder */
    uint32_t n_rpo;
    bool *reachable;
    bool loops_done;
    GArray *loops;      /* cfg_loop */
    uint32_t *inner;    /* innermost loop per block */
} cfg_info;

/* ---- helpers on instructions ---------------------------------------------------------------------- */

uint32_t cfg_branch_target(const ir_instr *in)
{
    if (in->op != IR_OP_BRA)
        return IR_NONE;
    for (unsigned i = 0; i < in->n_src; i++)
        if (in->src[i].kind == IR_OPND_LABEL)
            return in->src[i].u.target;
    return IR_NONE;
}

static ir_operand *branch_label(ir_instr *in)
{
    for (unsigned i = 0; i < in->n_src; i++)
        if (in->src[i].kind == IR_OPND_LABEL)
            return &in->src[i];
    return NULL;
}

bool cfg_branch_is_divergent(const ir_instr *in)
{
    return in->op == IR_OP_BRA && in->guard != IR_NONE && !(in->flags & IR_F_UNI);
}

/* ret, exit and trap leave the function (trap abnormally): an edge to the virtual exit. */
static bool leaves(const ir_instr *in)
{
    return in->op == IR_OP_RET || in->op == IR_OP_EXIT || in->op == IR_OP_TRAP;
}

static bool is_terminator(const ir_instr *in)
{
    return in->op == IR_OP_BRA || leaves(in);
}

/* Whether control can continue to the next instruction after `in`. */
static bool falls_through(const ir_instr *in)
{
    if (leaves(in))
        return in->guard != IR_NONE; /* @%p ret: the other lanes go on */
    if (in->op == IR_OP_BRA)
        return in->guard != IR_NONE;
    return true;
}

/* ---- analysis cache -------------------------------------------------------------------------------- */

static void loops_free(cfg_info *ci)
{
    if (!ci->loops)
        return;
    for (guint i = 0; i < ci->loops->len; i++) {
        cfg_loop *l = &g_array_index(ci->loops, cfg_loop, i);
        g_array_free(l->blocks, TRUE);
        g_array_free(l->latches, TRUE);
        g_array_free(l->exits, TRUE);
    }
    g_array_free(ci->loops, TRUE);
    ci->loops = NULL;
    g_free(ci->inner);
    ci->inner = NULL;
    ci->loops_done = false;
}

static void info_free(cfg_info *ci)
{
    if (!ci)
        return;
    g_free(ci->idom);
    g_free(ci->ipdom);
    g_free(ci->rpo);
    g_free(ci->reachable);
    loops_free(ci);
    g_free(ci);
}

static void blocks_free_edges(ir_func *f)
{
    if (!f->blocks)
        return;
    for (guint b = 0; b < f->blocks->len; b++) {
        ir_block *bl = cfg_block(f, b);
        if (bl->succ)
            g_array_free(bl->succ, TRUE);
        if (bl->pred)
            g_array_free(bl->pred, TRUE);
        bl->succ = bl->pred = NULL;
    }
    g_array_set_size(f->blocks, 0);
}

void cfg_clear(ir_func *f)
{
    info_free(f->analysis);
    f->analysis = NULL;
    f->analysis_free = NULL;
    blocks_free_edges(f);
}

static cfg_info *info_get(ir_func *f)
{
    if (!f->blocks)
        cfg_build(f);
    g_assert(f->analysis);
    return f->analysis;
}

/* ---- building ------------------------------------------------------------------------------------ */

static void edge_add(ir_func *f, uint32_t from, uint32_t to)
{
    ir_block *b = cfg_block(f, from);
    for (guint i = 0; i < b->succ->len; i++)
        if (g_array_index(b->succ, uint32_t, i) == to)
            return;
    g_array_append_val(b->succ, to);
    g_array_append_val(cfg_block(f, to)->pred, from);
}

bool cfg_block_exits(const ir_func *f, uint32_t b)
{
    const ir_block *bl = cfg_block(f, b);
    const ir_instr *last = ir_func_instr(f, bl->last);
    if (leaves(last))
        return true;
    uint32_t n = ir_func_n_instrs(f);
    if (last->op == IR_OP_BRA && cfg_branch_target(last) >= n)
        return true; /* a label at the very end: falls off */
    return bl->last + 1 == n && falls_through(last);
}

void cfg_build(ir_func *f)
{
    uint32_t n = ir_func_n_instrs(f);
    info_free(f->analysis);
    f->analysis = NULL;
    if (!f->blocks)
        f->blocks = g_array_new(FALSE, TRUE, sizeof(ir_block));
    blocks_free_edges(f);

    bool *leader = g_new0(bool, n + 1);
    if (n > 0)
        leader[0] = true;
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (is_terminator(in))
            leader[i + 1] = true;
        uint32_t t = cfg_branch_target(in);
        if (t != IR_NONE && t < n)
            leader[t] = true;
    }
    uint32_t *block_of = g_new(uint32_t, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) {
            ir_block nb = { .first = i, .last = i, .succ = g_array_new(FALSE, FALSE, sizeof(uint32_t)),
                            .pred = g_array_new(FALSE, FALSE, sizeof(uint32_t)) };
            g_array_append_val(f->blocks, nb);
        }
        uint32_t b = f->blocks->len - 1;
        cfg_block(f, b)->last = i;
        block_of[i] = b;
        ir_func_instr(f, i)->block = b;
    }
    uint32_t nb = f->blocks->len;
    for (uint32_t b = 0; b < nb; b++) {
        const ir_instr *last = ir_func_instr(f, cfg_block(f, b)->last);
        uint32_t t = cfg_branch_target(last);
        if (t != IR_NONE && t < n)
            edge_add(f, b, block_of[t]);
        if (falls_through(last) && b + 1 < nb)
            edge_add(f, b, b + 1);
    }
    g_free(leader);
    g_free(block_of);

    cfg_info *ci = g_new0(cfg_info, 1);
    ci->n = nb;
    f->analysis = ci;
    f->analysis_free = (GDestroyNotify)info_free;
}

/* ---- dominators ------------------------------------------------------------------------------------
 * A graph given as adjacency lists (succ for the walk, pred for the meet), n nodes, root. */
typedef struct {
    uint32_t n;
    GArray **succ, **pred;
} graph;

static void graph_init(graph *g, uint32_t n)
{
    g->n = n;
    g->succ = g_new(GArray *, n);
    g->pred = g_new(GArray *, n);
    for (uint32_t i = 0; i < n; i++) {
        g->succ[i] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        g->pred[i] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    }
}

static void graph_edge(graph *g, uint32_t a, uint32_t b)
{
    g_array_append_val(g->succ[a], b);
    g_array_append_val(g->pred[b], a);
}

static void graph_free(graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        g_array_free(g->succ[i], TRUE);
        g_array_free(g->pred[i], TRUE);
    }
    g_free(g->succ);
    g_free(g->pred);
}

/* Postorder from root (iterative DFS). Returns the count; order[0..count-1]. */
static uint32_t graph_postorder(const graph *g, uint32_t root, uint32_t *order)
{
    bool *seen = g_new0(bool, g->n);
    uint32_t *stack = g_new(uint32_t, g->n), *next = g_new0(uint32_t, g->n);
    uint32_t sp = 0, cnt = 0;
    stack[sp++] = root;
    seen[root] = true;
    while (sp > 0) {
        uint32_t v = stack[sp - 1];
        if (next[v] < g->succ[v]->len) {
            uint32_t w = g_array_index(g->succ[v], uint32_t, next[v]++);
            if (!seen[w]) {
                seen[w] = true;
                stack[sp++] = w;
            }
        } else {
            order[cnt++] = v;
            sp--;
        }
    }
    g_free(seen);
    g_free(stack);
    g_free(next);
    return cnt;
}

/* Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm". idom[root] = IR_NONE; nodes not
 * reached from root get IR_NONE. */
static void graph_idoms(const graph *g, uint32_t root, uint32_t *idom)
{
    uint32_t *po = g_new(uint32_t, g->n);
    uint32_t cnt = graph_postorder(g, root, po);
    uint32_t *num = g_new(uint32_t, g->n); /* postorder number */
    for (uint32_t i = 0; i < g->n; i++) {
        num[i] = IR_NONE;
        idom[i] = IR_NONE;
    }
    for (uint32_t i = 0; i < cnt; i++)
        num[po[i]] = i;
    idom[root] = root;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t k = cnt - 1; k-- > 0;) { /* reverse postorder, root (last) skipped */
            uint32_t b = po[k], nd = IR_NONE;
            for (guint j = 0; j < g->pred[b]->len; j++) {
                uint32_t p = g_array_index(g->pred[b], uint32_t, j);
                if (idom[p] == IR_NONE)
                    continue; /* unprocessed or unreachable */
                if (nd == IR_NONE) {
                    nd = p;
                    continue;
                }
                uint32_t x = p, y = nd;
                while (x != y) {
                    while (num[x] < num[y])
                        x = idom[x];
                    while (num[y] < num[x])
                        y = idom[y];
                }
                nd = x;
            }
            if (idom[b] != nd) {
                idom[b] = nd;
                changed = true;
            }
        }
    }
    idom[root] = IR_NONE;
    g_free(po);
    g_free(num);
}

static void dom_compute(ir_func *f, cfg_info *ci)
{
    uint32_t n = ci->n;
    ci->idom = g_new(uint32_t, n ? n : 1);
    ci->reachable = g_new0(bool, n ? n : 1);
    ci->rpo = g_new(uint32_t, n ? n : 1);
    ci->n_rpo = 0;
    if (n == 0)
        return;
    graph g;
    graph_init(&g, n);
    for (uint32_t b = 0; b < n; b++) {
        GArray *s = cfg_block(f, b)->succ;
        for (guint j = 0; j < s->len; j++)
            graph_edge(&g, b, g_array_index(s, uint32_t, j));
    }
    graph_idoms(&g, 0, ci->idom);
    uint32_t *po = g_new(uint32_t, n);
    uint32_t cnt = graph_postorder(&g, 0, po);
    for (uint32_t i = 0; i < cnt; i++) {
        ci->rpo[i] = po[cnt - 1 - i];
        ci->reachable[po[i]] = true;
    }
    ci->n_rpo = cnt;
    g_free(po);
    graph_free(&g);
}

/* Post-dominators: dominators of the reverse CFG rooted at the virtual exit. */
static void pdom_compute(ir_func *f, cfg_info *ci)
{
    uint32_t n = ci->n, x = n;
    graph g;
    graph_init(&g, n + 1);
    for (uint32_t b = 0; b < n; b++) {
        GArray *s = cfg_block(f, b)->succ;
        for (guint j = 0; j < s->len; j++)
            graph_edge(&g, g_array_index(s, uint32_t, j), b);
        if (cfg_block_exits(f, b))
            graph_edge(&g, x, b);
    }
    /* Blocks that cannot reach the exit are not reached from x here: they get no idom from the
     * algorithm (x below), and paths into them do not count against the others' post-dominators. */
    uint32_t *ipd = g_new(uint32_t, n + 1);
    graph_idoms(&g, x, ipd);
    ci->ipdom = g_new(uint32_t, n ? n : 1);
    for (uint32_t b = 0; b < n; b++)
        ci->ipdom[b] = ipd[b] == IR_NONE ? x : ipd[b];
    g_free(ipd);
    graph_free(&g);
}

static cfg_info *dom_get(ir_func *f)
{
    cfg_info *ci = info_get(f);
    if (!ci->idom)
        dom_compute(f, ci);
    return ci;
}

static cfg_info *pdom_get(ir_func *f)
{
    cfg_info *ci = info_get(f);
    if (!ci->ipdom)
        pdom_compute(f, ci);
    return ci;
}

uint32_t cfg_idom(ir_func *f, uint32_t block)
{
    cfg_info *ci = dom_get(f);
    g_assert(block < ci->n);
    return ci->idom[block];
}

uint32_t cfg_ipdom(ir_func *f, uint32_t block)
{
    cfg_info *ci = pdom_get(f);
    g_assert(block < ci->n);
    return ci->ipdom[block];
}

bool cfg_dominates(ir_func *f, uint32_t a, uint32_t b)
{
    cfg_info *ci = dom_get(f);
    g_assert(a < ci->n && b < ci->n);
    for (uint32_t x = b; x != IR_NONE; x = ci->idom[x])
        if (x == a)
            return true;
    return false;
}

bool cfg_postdominates(ir_func *f, uint32_t a, uint32_t b)
{
    cfg_info *ci = pdom_get(f);
    g_assert(a <= ci->n && b <= ci->n);
    if (a == ci->n)
        return true; /* the virtual exit post-dominates everything */
    for (uint32_t x = b; x != ci->n; x = ci->ipdom[x])
        if (x == a)
            return true;
    return false;
}

const uint32_t *cfg_rpo(ir_func *f, uint32_t *n)
{
    cfg_info *ci = dom_get(f);
    *n = ci->n_rpo;
    return ci->rpo;
}

bool cfg_reachable(ir_func *f, uint32_t block)
{
    cfg_info *ci = dom_get(f);
    g_assert(block < ci->n);
    return ci->reachable[block];
}

/* ---- reconvergence ------------------------------------------------------------------------------- */

void cfg_compute_reconvergence(ir_func *f)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    uint32_t n = ir_func_n_instrs(f), nb = cfg_n_blocks(f);
    for (uint32_t i = 0; i < n; i++) {
        ir_instr *in = ir_func_instr(f, i);
        in->reconv = IR_NONE;
        if (in->op != IR_OP_BRA)
            continue;
        uint32_t p = cfg_ipdom(f, in->block);
        in->reconv = p == nb ? IR_NONE : cfg_block(f, p)->first;
    }
}

void cfg_mark_uniform(ir_func *f, uint32_t instr)
{
    g_assert(instr < ir_func_n_instrs(f));
    ir_instr *in = ir_func_instr(f, instr);
    g_assert(in->op == IR_OP_BRA);
    in->flags |= IR_F_UNI;
}

/* ---- natural loops ------------------------------------------------------------------------------- */

static int cmp_u32(gconstpointer a, gconstpointer b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_loop_size_desc(gconstpointer a, gconstpointer b)
{
    const cfg_loop *x = a, *y = b;
    if (x->blocks->len != y->blocks->len)
        return x->blocks->len > y->blocks->len ? -1 : 1;
    return cmp_u32(&x->header, &y->header);
}

static bool sorted_contains(const GArray *a, uint32_t v)
{
    guint lo = 0, hi = a->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        uint32_t m = g_array_index(a, uint32_t, mid);
        if (m == v)
            return true;
        if (m < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The natural loop of header h with the given latches: walk predecessors back from the latches. */
static GArray *loop_body(ir_func *f, uint32_t h, const GArray *latches)
{
    uint32_t n = cfg_n_blocks(f);
    bool *in = g_new0(bool, n);
    GArray *work = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    in[h] = true;
    for (guint i = 0; i < latches->len; i++) {
        uint32_t s = g_array_index(latches, uint32_t, i);
        if (!in[s]) {
            in[s] = true;
            g_array_append_val(work, s);
        }
    }
    while (work->len > 0) {
        uint32_t b = g_array_index(work, uint32_t, work->len - 1);
        g_array_set_size(work, work->len - 1);
        GArray *p = cfg_block(f, b)->pred;
        for (guint j = 0; j < p->len; j++) {
            uint32_t q = g_array_index(p, uint32_t, j);
            if (!in[q] && cfg_reachable(f, q)) {
                in[q] = true;
                g_array_append_val(work, q);
            }
        }
    }
    GArray *body = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t b = 0; b < n; b++)
        if (in[b])
            g_array_append_val(body, b);
    g_free(in);
    g_array_free(work, TRUE);
    return body;
}

static void loops_compute(ir_func *f, cfg_info *ci)
{
    uint32_t n = ci->n;
    ci->loops = g_array_new(FALSE, TRUE, sizeof(cfg_loop));
    ci->inner = g_new(uint32_t, n ? n : 1);
    for (uint32_t h = 0; h < n; h++) {
        if (!cfg_reachable(f, h))
            continue;
        GArray *latches = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        GArray *p = cfg_block(f, h)->pred;
        for (guint j = 0; j < p->len; j++) {
            uint32_t s = g_array_index(p, uint32_t, j);
            if (cfg_reachable(f, s) && cfg_dominates(f, h, s))
                g_array_append_val(latches, s);
        }
        if (latches->len == 0) {
            g_array_free(latches, TRUE);
            continue;
        }
        g_array_sort(latches, cmp_u32);
        cfg_loop l = { .header = h, .parent = IR_NONE, .depth = 1, .latches = latches };
        l.blocks = loop_body(f, h, latches);
        l.exits = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        for (guint i = 0; i < l.blocks->len; i++) {
            uint32_t b = g_array_index(l.blocks, uint32_t, i);
            GArray *s = cfg_block(f, b)->succ;
            for (guint j = 0; j < s->len; j++) {
                uint32_t t = g_array_index(s, uint32_t, j);
                if (!sorted_contains(l.blocks, t)) {
                    g_array_append_val(l.exits, b);
                    g_array_append_val(l.exits, t);
                }
            }
            if (cfg_block_exits(f, b)) {
                g_array_append_val(l.exits, b);
                g_array_append_val(l.exits, n);
            }
        }
        g_array_append_val(ci->loops, l);
    }
    /* Outer before inner: a loop containing another has strictly more blocks (headers differ). */
    g_array_sort(ci->loops, cmp_loop_size_desc);
    for (uint32_t b = 0; b < n; b++)
        ci->inner[b] = IR_NONE;
    for (guint i = 0; i < ci->loops->len; i++) {
        cfg_loop *l = &g_array_index(ci->loops, cfg_loop, i);
        l->parent = ci->inner[l->header]; /* the smallest loop seen so far holding the header */
        l->depth = l->parent == IR_NONE ? 1 : g_array_index(ci->loops, cfg_loop, l->parent).depth + 1;
        for (guint j = 0; j < l->blocks->len; j++)
            ci->inner[g_array_index(l->blocks, uint32_t, j)] = i;
    }
    ci->loops_done = true;
}

static cfg_info *loops_get(ir_func *f)
{
    cfg_info *ci = dom_get(f);
    if (!ci->loops_done)
        loops_compute(f, ci);
    return ci;
}

uint32_t cfg_n_loops(ir_func *f)
{
    return loops_get(f)->loops->len;
}

const cfg_loop *cfg_get_loop(ir_func *f, uint32_t loop)
{
    cfg_info *ci = loops_get(f);
    g_assert(loop < ci->loops->len);
    return &g_array_index(ci->loops, cfg_loop, loop);
}

uint32_t cfg_block_loop(ir_func *f, uint32_t block)
{
    cfg_info *ci = loops_get(f);
    g_assert(block < ci->n);
    return ci->inner[block];
}

uint32_t cfg_loop_depth(ir_func *f, uint32_t block)
{
    uint32_t l = cfg_block_loop(f, block);
    return l == IR_NONE ? 0 : cfg_get_loop(f, l)->depth;
}

bool cfg_is_back_edge(ir_func *f, uint32_t from, uint32_t to)
{
    GArray *s = cfg_block(f, from)->succ;
    for (guint j = 0; j < s->len; j++)
        if (g_array_index(s, uint32_t, j) == to)
            return cfg_reachable(f, from) && cfg_dominates(f, to, from);
    return false;
}

/* ---- critical-edge splitting --------------------------------------------------------------------- */

static ir_instr make_bra(const ir_instr *like, uint32_t target)
{
    ir_instr b;
    memset(&b, 0, sizeof b);
    b.op = IR_OP_BRA;
    b.vec = 1;
    b.n_src = 1;
    b.guard = IR_NONE;
    b.src[0].kind = IR_OPND_LABEL;
    b.src[0].u.target = target;
    b.line = like->line;
    b.col = like->col;
    b.block = IR_NONE;
    b.reconv = IR_NONE;
    return b;
}

static uint32_t split_round(ir_func *f);

uint32_t cfg_split_critical_edges(ir_func *f)
{
    /* A second round is needed only when the first appended a `ret` that several blocks reach. */
    uint32_t total = 0, k;
    while ((k = split_round(f)) > 0)
        total += k;
    return total;
}

static uint32_t split_round(ir_func *f)
{
    if (!f->blocks || !f->analysis)
        cfg_build(f);
    uint32_t n = ir_func_n_instrs(f), nb = cfg_n_blocks(f);
    /* Per block: whether its fall-through edge and its taken edge are critical. */
    bool *split_fall = g_new0(bool, nb ? nb : 1), *split_taken = g_new0(bool, nb ? nb : 1);
    uint32_t count = 0;
    for (uint32_t b = 0; b < nb; b++) {
        ir_block *bl = cfg_block(f, b);
        if (bl->succ->len < 2)
            continue;
        const ir_instr *last = ir_func_instr(f, bl->last);
        uint32_t t = cfg_branch_target(last);
        uint32_t tb = t != IR_NONE && t < n ? ir_func_instr(f, t)->block : IR_NONE;
        if (tb != IR_NONE && cfg_block(f, tb)->pred->len > 1) {
            split_taken[b] = true;
            count++;
        }
        if (b + 1 < nb && b + 1 != tb && cfg_block(f, b + 1)->pred->len > 1) {
            split_fall[b] = true;
            count++;
        }
    }
    if (count == 0) {
        g_free(split_fall);
        g_free(split_taken);
        return 0;
    }
    /* New layout: old instructions in order, a `bra next` after each block whose fall-through is
     * split; then, at the end, one `bra target` per split taken edge. */
    uint32_t *new_index = g_new(uint32_t, n + 1);
    GArray *out = g_array_sized_new(FALSE, TRUE, sizeof(ir_instr), n + count + 1);
    for (uint32_t i = 0; i < n; i++) {
        ir_instr *in = ir_func_instr(f, i);
        new_index[i] = out->len;
        g_array_append_val(out, *in);
        if (i == cfg_block(f, in->block)->last && split_fall[in->block]) {
            ir_instr br = make_bra(in, i + 1); /* old index, remapped below */
            g_array_append_val(out, br);
        }
    }
    new_index[n] = out->len;
    bool any_taken = false, to_end = false;
    for (uint32_t b = 0; b < nb; b++)
        any_taken |= split_taken[b];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = cfg_branch_target(ir_func_instr(f, i));
        to_end |= t != IR_NONE && t >= n;
    }
    const ir_instr *last_old = ir_func_instr(f, n - 1);
    if (any_taken && (falls_through(last_old) || to_end)) {
        /* Falling off the end (or branching to it) must still mean "return" once blocks follow. */
        ir_instr r = make_bra(last_old, 0);
        r.op = IR_OP_RET;
        r.n_src = 0;
        memset(&r.src[0], 0, sizeof r.src[0]);
        g_array_append_val(out, r);
    }
    uint32_t n_body = out->len;
    /* Remap the targets of everything emitted so far (old indices -> new). */
    for (uint32_t i = 0; i < n_body; i++) {
        ir_operand *lab = branch_label(&g_array_index(out, ir_instr, i));
        if (lab)
            lab->u.target = lab->u.target > n ? n_body : new_index[lab->u.target];
    }
    for (uint32_t b = 0; b < nb; b++) {
        if (!split_taken[b])
            continue;
        ir_instr *last = &g_array_index(out, ir_instr, new_index[cfg_block(f, b)->last]);
        ir_operand *lab = branch_label(last);
        ir_instr br = make_bra(last, lab->u.target);
        lab->u.target = out->len;
        g_array_append_val(out, br);
    }
    g_array_free(f->instrs, TRUE);
    f->instrs = out;
    g_free(new_index);
    g_free(split_fall);
    g_free(split_taken);
    cfg_build(f);
    cfg_compute_reconvergence(f);
    return count;
}
