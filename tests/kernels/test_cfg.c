/* test_cfg.c — basic blocks, dominators, post-dominators, reconvergence, loops, critical edges, on
 * hand-made functions (with expected answers worked out by hand) and on random CFGs checked against
 * the definitions by brute force. */
#include "tests/kernels/test_cfg_build.h"

/* Straight line: one block, no dominator, exit post-dominates. */
static void test_straight(void)
{
    ir_func *f = tb_func();
    uint32_t r = tb_reg(f, IR_T_B32);
    tb_movi(f, r, 1);
    tb_op(f, IR_OP_ADD, IR_T_S32, r, r, r);
    tb_ret(f);
    cfg_build(f);
    g_assert_cmpuint(cfg_n_blocks(f), ==, 1);
    g_assert_cmpuint(cfg_block(f, 0)->first, ==, 0);
    g_assert_cmpuint(cfg_block(f, 0)->last, ==, 2);
    g_assert_cmpuint(cfg_idom(f, 0), ==, IR_NONE);
    g_assert_cmpuint(cfg_ipdom(f, 0), ==, cfg_exit(f));
    g_assert_true(cfg_block_exits(f, 0));
    g_assert_cmpuint(cfg_n_loops(f), ==, 0);
    tb_free(f);
}

/* if/else diamond:
 *   0: @p bra 3        B0
 *   1: nop             B1
 *   2: bra 4
 *   3: nop             B2
 *   4: ret             B3
 */
static ir_func *make_diamond(uint32_t *bra_out)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED);
    *bra_out = tb_bra(f, p, 3);
    tb_nop(f);
    tb_bra(f, IR_NONE, 4);
    tb_nop(f);
    tb_ret(f);
    return f;
}

static void test_diamond(void)
{
    uint32_t bra;
    ir_func *f = make_diamond(&bra);
    cfg_build(f);
    g_assert_cmpuint(cfg_n_blocks(f), ==, 4);
    g_assert_cmpuint(tb_blk(f, 0), ==, 0);
    g_assert_cmpuint(tb_blk(f, 2), ==, 1);
    g_assert_cmpuint(tb_blk(f, 3), ==, 2);
    g_assert_cmpuint(tb_blk(f, 4), ==, 3);
    g_assert_true(tb_has_succ(f, 0, 1) && tb_has_succ(f, 0, 2));
    g_assert_true(tb_has_succ(f, 1, 3) && tb_has_succ(f, 2, 3));
    g_assert_false(tb_has_succ(f, 1, 2));
    g_assert_cmpuint(cfg_block(f, 3)->pred->len, ==, 2);
    g_assert_cmpuint(cfg_idom(f, 1), ==, 0);
    g_assert_cmpuint(cfg_idom(f, 2), ==, 0);
    g_assert_cmpuint(cfg_idom(f, 3), ==, 0);
    g_assert_cmpuint(cfg_ipdom(f, 0), ==, 3);
    g_assert_cmpuint(cfg_ipdom(f, 1), ==, 3);
    g_assert_cmpuint(cfg_ipdom(f, 3), ==, 4);
    g_assert_true(cfg_postdominates(f, 3, 0));
    g_assert_false(cfg_postdominates(f, 1, 0));
    g_assert_true(cfg_dominates(f, 0, 3));
    g_assert_false(cfg_dominates(f, 1, 3));
    g_assert_true(cfg_branch_is_divergent(ir_func_instr(f, bra)));
    g_assert_false(cfg_branch_is_divergent(ir_func_instr(f, 2)));
    cfg_compute_reconvergence(f);
    g_assert_cmpuint(ir_func_instr(f, bra)->reconv, ==, 4);
    g_assert_cmpuint(ir_func_instr(f, 1)->reconv, ==, IR_NONE); /* not a branch */
    /* After ret: a branch whose ipdom is the exit. */
    uint32_t n;
    const uint32_t *rpo = cfg_rpo(f, &n);
    g_assert_cmpuint(n, ==, 4);
    g_assert_cmpuint(rpo[0], ==, 0);
    g_assert_cmpuint(rpo[3], ==, 3);
    /* .uni marks it non-divergent. */
    cfg_mark_uniform(f, bra);
    g_assert_false(cfg_branch_is_divergent(ir_func_instr(f, bra)));
    tb_free(f);
}

/* Early exit inside a branch: the branch reconverges only at the function exit.
 *   0: @p bra 2    B0
 *   1: ret         B1
 *   2: ret         B2
 */
static void test_reconv_exit(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED);
    tb_bra(f, p, 2);
    tb_ret(f);
    tb_ret(f);
    cfg_compute_reconvergence(f); /* builds the CFG itself */
    g_assert_cmpuint(cfg_n_blocks(f), ==, 3);
    g_assert_cmpuint(cfg_ipdom(f, 0), ==, 3);
    g_assert_cmpuint(ir_func_instr(f, 0)->reconv, ==, IR_NONE);
    tb_free(f);
}

/* Nested loops:
 *   0: nop            B0
 *   1: nop            B1  outer header
 *   2: nop            B2  inner header
 *   3: @p bra 2       B2  inner latch (back edge B2->B2)
 *   4: @q bra 1       B3  outer latch
 *   5: @p bra 7       B4  (leaves via B4 -> B6)
 *   6: nop            B5
 *   7: ret            B6
 */
static void test_loops(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED), q = tb_reg(f, IR_T_PRED);
    tb_nop(f);
    tb_nop(f);
    tb_nop(f);
    tb_bra(f, p, 2);
    tb_bra(f, q, 1);
    tb_bra(f, p, 7);
    tb_nop(f);
    tb_ret(f);
    cfg_build(f);
    g_assert_cmpuint(cfg_n_blocks(f), ==, 7);
    g_assert_cmpuint(tb_blk(f, 1), ==, 1);
    g_assert_cmpuint(tb_blk(f, 3), ==, 2);
    g_assert_cmpuint(tb_blk(f, 4), ==, 3);
    g_assert_cmpuint(cfg_n_loops(f), ==, 2);
    const cfg_loop *outer = cfg_get_loop(f, 0), *inner = cfg_get_loop(f, 1);
    g_assert_cmpuint(outer->header, ==, 1);
    g_assert_cmpuint(outer->parent, ==, IR_NONE);
    g_assert_cmpuint(outer->depth, ==, 1);
    g_assert_cmpuint(outer->blocks->len, ==, 3);
    g_assert_cmpuint(g_array_index(outer->latches, uint32_t, 0), ==, 3);
    g_assert_cmpuint(outer->exits->len, ==, 2);
    g_assert_cmpuint(g_array_index(outer->exits, uint32_t, 0), ==, 3);
    g_assert_cmpuint(g_array_index(outer->exits, uint32_t, 1), ==, 4);
    g_assert_cmpuint(inner->header, ==, 2);
    g_assert_cmpuint(inner->parent, ==, 0);
    g_assert_cmpuint(inner->depth, ==, 2);
    g_assert_cmpuint(inner->blocks->len, ==, 1);
    g_assert_cmpuint(g_array_index(inner->latches, uint32_t, 0), ==, 2);
    g_assert_cmpuint(inner->exits->len, ==, 2); /* B2 -> B3 */
    g_assert_cmpuint(cfg_loop_depth(f, 0), ==, 0);
    g_assert_cmpuint(cfg_loop_depth(f, 1), ==, 1);
    g_assert_cmpuint(cfg_loop_depth(f, 2), ==, 2);
    g_assert_cmpuint(cfg_loop_depth(f, 3), ==, 1);
    g_assert_cmpuint(cfg_loop_depth(f, 4), ==, 0);
    g_assert_cmpuint(cfg_block_loop(f, 2), ==, 1);
    g_assert_true(cfg_is_back_edge(f, 2, 2));
    g_assert_true(cfg_is_back_edge(f, 3, 1));
    g_assert_false(cfg_is_back_edge(f, 1, 2));
    /* Reconvergence of the inner latch: the block after it (B3); of the outer latch: B4. */
    cfg_compute_reconvergence(f);
    g_assert_cmpuint(ir_func_instr(f, 3)->reconv, ==, 4);
    g_assert_cmpuint(ir_func_instr(f, 4)->reconv, ==, 5);
    g_assert_cmpuint(ir_func_instr(f, 5)->reconv, ==, 7);
    tb_free(f);
}

/* An infinite loop and an unreachable block:
 *   0: @p bra 3     B0
 *   1: ret          B1
 *   2: nop          B2 (unreachable) -> falls into B3
 *   3: nop          B3  infinite loop
 *   4: bra 3
 */
static void test_infinite_unreachable(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED);
    tb_bra(f, p, 3);
    tb_ret(f);
    tb_nop(f);
    tb_nop(f);
    tb_bra(f, IR_NONE, 3);
    cfg_build(f);
    g_assert_cmpuint(cfg_n_blocks(f), ==, 4);
    g_assert_false(cfg_reachable(f, 2));
    g_assert_true(cfg_reachable(f, 3));
    g_assert_cmpuint(cfg_idom(f, 2), ==, IR_NONE);
    g_assert_cmpuint(cfg_idom(f, 3), ==, 0);
    g_assert_false(cfg_dominates(f, 0, 2));
    g_assert_cmpuint(cfg_ipdom(f, 3), ==, cfg_exit(f));
    g_assert_cmpuint(cfg_ipdom(f, 2), ==, cfg_exit(f));
    g_assert_cmpuint(cfg_ipdom(f, 0), ==, 1); /* only the path through B1 finishes */
    g_assert_cmpuint(cfg_ipdom(f, 1), ==, cfg_exit(f));
    g_assert_false(cfg_block_exits(f, 3));
    g_assert_cmpuint(cfg_n_loops(f), ==, 1);
    g_assert_cmpuint(cfg_get_loop(f, 0)->exits->len, ==, 0);
    cfg_compute_reconvergence(f);
    g_assert_cmpuint(ir_func_instr(f, 0)->reconv, ==, 1);
    g_assert_cmpuint(ir_func_instr(f, 4)->reconv, ==, IR_NONE);
    tb_free(f);
}

/* ---- random CFGs against brute force ---------------------------------------------------------- */

/* Blocks reachable from `from` over successors, never entering `avoid`. */
static void reach_avoiding(ir_func *f, uint32_t from, uint32_t avoid, bool *seen)
{
    uint32_t n = cfg_n_blocks(f);
    memset(seen, 0, n * sizeof *seen);
    if (from == avoid)
        return;
    GArray *work = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    seen[from] = true;
    g_array_append_val(work, from);
    while (work->len) {
        uint32_t b = g_array_index(work, uint32_t, work->len - 1);
        g_array_set_size(work, work->len - 1);
        GArray *s = cfg_block(f, b)->succ;
        for (guint i = 0; i < s->len; i++) {
            uint32_t t = g_array_index(s, uint32_t, i);
            if (t != avoid && !seen[t]) {
                seen[t] = true;
                g_array_append_val(work, t);
            }
        }
    }
    g_array_free(work, TRUE);
}

static bool reaches_exit_avoiding(ir_func *f, uint32_t from, uint32_t avoid, bool *seen)
{
    reach_avoiding(f, from, avoid, seen);
    for (uint32_t b = 0; b < cfg_n_blocks(f); b++)
        if (seen[b] && cfg_block_exits(f, b))
            return true;
    return false;
}

static ir_func *make_random(GRand *rng, uint32_t n_instrs)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED);
    for (uint32_t i = 0; i < n_instrs; i++) {
        uint32_t t = g_rand_int_range(rng, 0, n_instrs + 1);
        switch (g_rand_int_range(rng, 0, 8)) {
        case 0: tb_ret(f); break;
        case 1: tb_bra(f, IR_NONE, t); break;
        case 2: case 3: tb_bra(f, p, t); break;
        default: tb_nop(f); break;
        }
        ir_func_instr(f, i)->annot = i + 1; /* identity of the original instruction */
    }
    return f;
}

static void check_doms(ir_func *f)
{
    uint32_t n = cfg_n_blocks(f);
    bool *seen = g_new0(bool, n), *reach = g_new0(bool, n);
    reach_avoiding(f, 0, IR_NONE, reach);
    for (uint32_t b = 0; b < n; b++)
        g_assert_cmpint(reach[b], ==, cfg_reachable(f, b));
    for (uint32_t a = 0; a < n; a++) {
        reach_avoiding(f, 0, a, seen);
        for (uint32_t b = 0; b < n; b++) {
            if (!reach[b]) {
                if (a != b)
                    g_assert_false(cfg_dominates(f, a, b));
                continue;
            }
            bool dom = reach[a] && (a == b || !seen[b]);
            g_assert_cmpint(cfg_dominates(f, a, b), ==, dom);
        }
    }
    for (uint32_t b = 0; b < n; b++) {
        bool to_exit = reaches_exit_avoiding(f, b, IR_NONE, seen);
        if (!to_exit) {
            g_assert_cmpuint(cfg_ipdom(f, b), ==, n);
            continue;
        }
        for (uint32_t a = 0; a < n; a++) {
            bool pdom = a == b || !reaches_exit_avoiding(f, b, a, seen);
            g_assert_cmpint(cfg_postdominates(f, a, b), ==, pdom);
        }
        /* ipdom: a strict post-dominator that every other strict one post-dominates */
        uint32_t ip = cfg_ipdom(f, b);
        g_assert_cmpuint(ip, !=, b);
        g_assert_true(cfg_postdominates(f, ip, b));
    }
    g_free(seen);
    g_free(reach);
}

/* The original successor relation, by original instruction identity (annot). */
static GHashTable *edge_set(ir_func *f, bool through_new)
{
    GHashTable *h = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (uint32_t b = 0; b < cfg_n_blocks(f); b++) {
        uint64_t from = ir_func_instr(f, cfg_block(f, b)->first)->annot;
        if (from == 0)
            continue; /* a new block */
        if (ir_func_instr(f, cfg_block(f, b)->last)->op == IR_OP_BRA &&
            cfg_branch_target(ir_func_instr(f, cfg_block(f, b)->last)) >= ir_func_n_instrs(f))
            g_hash_table_add(h, GSIZE_TO_POINTER(from * 100000 + 99999));
        GArray *s = cfg_block(f, b)->succ;
        for (guint i = 0; i < s->len; i++) {
            uint32_t t = g_array_index(s, uint32_t, i);
            uint64_t to = 0;
            for (int hops = 0; hops < 3; hops++) {
                const ir_instr *tf = ir_func_instr(f, cfg_block(f, t)->first);
                to = tf->annot;
                if (to != 0)
                    break;
                if (tf->op == IR_OP_RET) {
                    to = 99999; /* the `ret` added at the end stands for falling off the end */
                    break;
                }
                g_assert_true(through_new);
                g_assert_cmpuint(cfg_block(f, t)->succ->len, ==, 1);
                g_assert_cmpuint(cfg_block(f, t)->pred->len, ==, 1);
                g_assert_cmpuint(cfg_block(f, t)->first, ==, cfg_block(f, t)->last);
                t = g_array_index(cfg_block(f, t)->succ, uint32_t, 0);
            }
            g_assert_cmpuint(to, !=, 0);
            g_hash_table_add(h, GSIZE_TO_POINTER(from * 100000 + to));
        }
        if (cfg_block_exits(f, b))
            g_hash_table_add(h, GSIZE_TO_POINTER(from * 100000 + 99999));
    }
    return h;
}

static void check_split(ir_func *f)
{
    GHashTable *before = edge_set(f, false);
    uint32_t nb = cfg_n_blocks(f);
    uint32_t split = cfg_split_critical_edges(f);
    uint32_t added = 0;
    for (uint32_t b = 0; b < cfg_n_blocks(f); b++) {
        const ir_instr *first = ir_func_instr(f, cfg_block(f, b)->first);
        added += first->annot == 0 && first->op == IR_OP_BRA;
    }
    g_assert_cmpuint(added, ==, split);
    g_assert_cmpuint(cfg_n_blocks(f), >=, nb + split);
    for (uint32_t b = 0; b < cfg_n_blocks(f); b++) {
        GArray *s = cfg_block(f, b)->succ;
        if (s->len < 2)
            continue;
        for (guint i = 0; i < s->len; i++)
            g_assert_cmpuint(cfg_block(f, g_array_index(s, uint32_t, i))->pred->len, ==, 1);
    }
    GHashTable *after = edge_set(f, true);
    g_assert_cmpuint(g_hash_table_size(before), ==, g_hash_table_size(after));
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, before);
    while (g_hash_table_iter_next(&it, &k, NULL))
        g_assert_true(g_hash_table_contains(after, k));
    g_hash_table_destroy(before);
    g_hash_table_destroy(after);
    g_assert_cmpuint(cfg_split_critical_edges(f), ==, 0);
}

/* Natural loops against their definition: for every header h (a target of an edge from a block it
 * dominates), the body is h plus the reachable blocks that reach a latch without passing h; a
 * block's depth is the number of bodies holding it; a loop's parent is the smallest other body
 * holding its header. */
static void check_loops(ir_func *f)
{
    uint32_t n = cfg_n_blocks(f), n_headers = 0;
    bool *seen = g_new0(bool, n);
    uint32_t *depth = g_new0(uint32_t, n);
    for (uint32_t h = 0; h < n; h++) {
        if (!cfg_reachable(f, h))
            continue;
        bool *body = g_new0(bool, n);
        bool header = false;
        GArray *p = cfg_block(f, h)->pred;
        for (guint j = 0; j < p->len; j++) {
            uint32_t s = g_array_index(p, uint32_t, j);
            if (!cfg_reachable(f, s) || !cfg_dominates(f, h, s))
                continue;
            header = true;
            for (uint32_t b = 0; b < n; b++) {
                if (!cfg_reachable(f, b) || b == h)
                    continue;
                reach_avoiding(f, b, h, seen);
                if (seen[s])
                    body[b] = true;
            }
        }
        if (header) {
            body[h] = true;
            n_headers++;
            uint32_t li = cfg_block_loop(f, h);
            g_assert_cmpuint(li, !=, IR_NONE);
            const cfg_loop *l = cfg_get_loop(f, li);
            g_assert_cmpuint(l->header, ==, h);
            uint32_t cnt = 0;
            for (uint32_t b = 0; b < n; b++) {
                cnt += body[b];
                depth[b] += body[b];
            }
            g_assert_cmpuint(l->blocks->len, ==, cnt);
            for (guint j = 0; j < l->blocks->len; j++)
                g_assert_true(body[g_array_index(l->blocks, uint32_t, j)]);
            for (guint j = 0; j < l->latches->len; j++)
                g_assert_true(cfg_is_back_edge(f, g_array_index(l->latches, uint32_t, j), h));
            if (l->parent != IR_NONE) {
                const cfg_loop *pl = cfg_get_loop(f, l->parent);
                g_assert_cmpuint(pl->blocks->len, >, l->blocks->len);
                g_assert_cmpuint(l->depth, ==, pl->depth + 1);
            } else {
                g_assert_cmpuint(l->depth, ==, 1);
            }
        }
        g_free(body);
    }
    g_assert_cmpuint(cfg_n_loops(f), ==, n_headers);
    for (uint32_t b = 0; b < n; b++)
        g_assert_cmpuint(cfg_loop_depth(f, b), ==, depth[b]);
    g_free(seen);
    g_free(depth);
}

static void test_random(void)
{
    GRand *rng = g_rand_new_with_seed(42);
    for (int iter = 0; iter < 300; iter++) {
        ir_func *f = make_random(rng, g_rand_int_range(rng, 1, 40));
        cfg_build(f);
        check_doms(f);
        check_loops(f);
        check_split(f);
        check_doms(f);
        tb_free(f);
    }
    g_rand_free(rng);
}

/* Splitting by hand: both kinds of critical edge.
 *   0: @p bra 3     B0 -> B2 (taken, critical), B1
 *   1: nop          B1
 *   2: @q bra 4     B1 -> B3 (taken, critical), B2 (fall-through, critical)
 *   3: nop          B2 -> B3
 *   4: ret          B3
 */
static void test_split_hand(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED), q = tb_reg(f, IR_T_PRED);
    tb_bra(f, p, 3);
    tb_nop(f);
    tb_bra(f, q, 4);
    tb_nop(f);
    tb_ret(f);
    g_assert_cmpuint(cfg_split_critical_edges(f), ==, 3);
    /* 0: @p bra 6; 1: nop; 2: @q bra 7; 3: bra 4; 4: nop; 5: ret; 6: bra 4; 7: bra 5 */
    g_assert_cmpuint(ir_func_n_instrs(f), ==, 8);
    g_assert_cmpuint(ir_func_instr(f, 3)->op, ==, IR_OP_BRA); /* the fall-through split */
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 3)), ==, 4);
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 0)), ==, 6);
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 6)), ==, 4);
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 2)), ==, 7);
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 7)), ==, 5);
    g_assert_cmpuint(ir_func_instr(f, 5)->op, ==, IR_OP_RET);
    g_assert_cmpuint(ir_func_instr(f, 0)->reconv, ==, 5); /* B0 -> B1 -> 7 -> ret bypasses the nop */
    g_assert_cmpuint(ir_func_instr(f, 2)->reconv, ==, 5);
    tb_free(f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cfg/straight", test_straight);
    g_test_add_func("/cfg/diamond", test_diamond);
    g_test_add_func("/cfg/reconv-exit", test_reconv_exit);
    g_test_add_func("/cfg/loops", test_loops);
    g_test_add_func("/cfg/infinite-unreachable", test_infinite_unreachable);
    g_test_add_func("/cfg/split-hand", test_split_hand);
    g_test_add_func("/cfg/random", test_random);
    return g_test_run();
}
