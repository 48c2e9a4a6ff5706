/* test_dataflow.c — the bit vectors, the generic solver (may and must, both directions), liveness
 * and reaching definitions, on hand-made CFGs with expected sets worked out by hand and on random
 * functions against a naive instruction-level fixed point. */
#include "kernels/analysis/dataflow.h"
#include "tests/kernels/test_cfg_build.h"

static df_bits *bits_of(uint32_t n, const uint32_t *v, unsigned k)
{
    df_bits *b = df_bits_new(n);
    for (unsigned i = 0; i < k; i++)
        df_bits_set(b, v[i]);
    return b;
}

static void assert_bits(const df_bits *got, const uint32_t *want, unsigned k)
{
    df_bits *w = bits_of(got->n, want, k);
    if (!df_bits_equal(got, w)) {
        GString *s = g_string_new("got {");
        for (uint32_t i = df_bits_next(got, 0); i != IR_NONE; i = df_bits_next(got, i + 1))
            g_string_append_printf(s, " %u", i);
        g_string_append(s, " }");
        g_test_message("%s", s->str);
        g_string_free(s, TRUE);
    }
    g_assert_true(df_bits_equal(got, w));
    df_bits_free(w);
}

static void test_bits(void)
{
    df_bits *a = df_bits_new(130), *b = df_bits_new(130);
    g_assert_cmpuint(df_bits_count(a), ==, 0);
    g_assert_cmpuint(df_bits_next(a, 0), ==, IR_NONE);
    df_bits_set_all(a);
    g_assert_cmpuint(df_bits_count(a), ==, 130);
    df_bits_set(b, 0);
    df_bits_set(b, 64);
    df_bits_set(b, 129);
    g_assert_cmpuint(df_bits_next(b, 1), ==, 64);
    g_assert_cmpuint(df_bits_next(b, 65), ==, 129);
    g_assert_false(df_bits_union(a, b));
    g_assert_true(df_bits_intersect(a, b));
    g_assert_true(df_bits_equal(a, b));
    df_bits_subtract(a, b);
    g_assert_cmpuint(df_bits_count(a), ==, 0);
    g_assert_true(df_bits_union(a, b));
    df_bits_clear(a, 64);
    g_assert_false(df_bits_test(a, 64));
    g_assert_true(df_bits_test(a, 129));
    df_bits_free(a);
    df_bits_free(b);
}

/* A loop then a diamond (see the numbers in the comments):
 *   0: mov r0, 1            B0
 *   1: mov r1, 0
 *   2: add r1, r1, r0       B1  loop header
 *   3: setp p, r1, r0
 *   4: @p bra 2                 latch
 *   5: @p bra 7             B2
 *   6: mov r2, 5            B3
 *   7: add r2, r2, r1       B4  (r2 undefined on the path B2 -> B4)
 *   8: ret
 */
typedef struct {
    ir_func *f;
    uint32_t r0, r1, r2, p;
} loopdiamond;

static loopdiamond make_loopdiamond(void)
{
    loopdiamond d;
    d.f = tb_func();
    ir_func *f = d.f;
    d.r0 = tb_reg(f, IR_T_B32);
    d.r1 = tb_reg(f, IR_T_B32);
    d.r2 = tb_reg(f, IR_T_B32);
    d.p = tb_reg(f, IR_T_PRED);
    tb_movi(f, d.r0, 1);
    tb_movi(f, d.r1, 0);
    tb_op(f, IR_OP_ADD, IR_T_S32, d.r1, d.r1, d.r0);
    tb_op(f, IR_OP_SETP, IR_T_S32, d.p, d.r1, d.r0);
    tb_bra(f, d.p, 2);
    tb_bra(f, d.p, 7);
    tb_movi(f, d.r2, 5);
    tb_op(f, IR_OP_ADD, IR_T_S32, d.r2, d.r2, d.r1);
    tb_ret(f);
    return d;
}

static void test_liveness_hand(void)
{
    loopdiamond d = make_loopdiamond();
    ir_func *f = d.f;
    df_liveness *l = df_liveness_compute(f);
    g_assert_cmpuint(cfg_n_blocks(f), ==, 5);
    uint32_t b4[] = { d.r1, d.r2 }, b3[] = { d.r1 }, b2[] = { d.p, d.r1, d.r2 };
    uint32_t b1in[] = { d.r0, d.r1, d.r2 }, b1out[] = { d.r0, d.r1, d.r2, d.p }, b0[] = { d.r2 };
    assert_bits(df_live_in(l, 4), b4, 2);
    assert_bits(df_live_out(l, 4), NULL, 0);
    assert_bits(df_live_in(l, 3), b3, 1);
    assert_bits(df_live_in(l, 2), b2, 3);
    assert_bits(df_live_in(l, 1), b1in, 3);
    assert_bits(df_live_out(l, 1), b1out, 4);
    assert_bits(df_live_in(l, 0), b0, 1);
    df_bits *x = df_bits_new(f->regs->len);
    df_live_after(l, 3, x);
    assert_bits(x, b1out, 4);
    df_live_before(l, 3, x);
    assert_bits(x, b1in, 3);
    df_live_after(l, 7, x);
    assert_bits(x, NULL, 0);
    df_live_before(l, 7, x);
    assert_bits(x, b4, 2);
    uint32_t after0[] = { d.r0, d.r2 };
    df_live_after(l, 0, x);
    assert_bits(x, after0, 2);
    df_bits **all = df_live_after_all(l);
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        df_live_after(l, i, x);
        g_assert_true(df_bits_equal(all[i], x));
    }
    df_live_after_all_free(l, all);
    g_assert_cmpuint(l->r->iterations, >=, 2);
    df_bits_free(x);
    df_liveness_free(l);
    tb_free(f);
}

static void test_reaching_hand(void)
{
    loopdiamond d = make_loopdiamond();
    ir_func *f = d.f;
    df_reaching *rd = df_reaching_compute(f);
    /* sites: 0 = (0, r0), 1 = (1, r1), 2 = (2, r1), 3 = (3, p), 4 = (6, r2), 5 = (7, r2) */
    g_assert_cmpuint(rd->defs->len, ==, 6);
    g_assert_cmpuint(g_array_index(rd->defs, df_def, 4).instr, ==, 6);
    GArray *s = df_reaching_defs_of(rd, 7, d.r2);
    g_assert_cmpuint(s->len, ==, 1);
    g_assert_cmpuint(g_array_index(s, uint32_t, 0), ==, 4);
    g_array_unref(s);
    s = df_reaching_defs_of(rd, 2, d.r1);
    g_assert_cmpuint(s->len, ==, 2);
    g_array_unref(s);
    s = df_reaching_defs_of(rd, 5, d.r1);
    g_assert_cmpuint(s->len, ==, 1);
    g_assert_cmpuint(g_array_index(s, uint32_t, 0), ==, 2);
    g_array_unref(s);
    df_bits *x = df_bits_new(rd->defs->len);
    df_reaching_before(rd, 8, x);
    uint32_t want[] = { 0, 2, 3, 5 };
    assert_bits(x, want, 4);
    df_reaching_before(rd, 0, x);
    assert_bits(x, NULL, 0);
    df_bits_free(x);
    df_reaching_free(rd);
    tb_free(f);
}

/* A guarded definition does not kill: both definitions reach, and the register stays live above. */
static void test_guarded_def(void)
{
    ir_func *f = tb_func();
    uint32_t r = tb_reg(f, IR_T_B32), p = tb_reg(f, IR_T_PRED), s = tb_reg(f, IR_T_B32);
    tb_movi(f, r, 1);                                    /* 0 */
    uint32_t g = tb_movi(f, r, 2);                       /* 1: @p mov r, 2 */
    ir_func_instr(f, g)->guard = p;
    tb_op(f, IR_OP_ADD, IR_T_S32, s, r, r);              /* 2 */
    tb_ret(f);
    df_reaching *rd = df_reaching_compute(f);
    GArray *a = df_reaching_defs_of(rd, 2, r);
    g_assert_cmpuint(a->len, ==, 2);
    g_array_unref(a);
    df_reaching_free(rd);
    df_liveness *l = df_liveness_compute(f);
    df_bits *x = df_bits_new(f->regs->len);
    df_live_before(l, 1, x);
    uint32_t want[] = { r, p };
    assert_bits(x, want, 2);
    df_bits_free(x);
    df_liveness_free(l);
    tb_free(f);
}

/* A must problem: registers defined on every path ("definitely assigned"), forward intersection. */
static void def_transfer(void *ctx, ir_func *f, uint32_t instr, df_bits *gen, df_bits *kill)
{
    (void)ctx;
    (void)kill;
    uint32_t regs[8];
    unsigned n = ir_instr_defs(ir_func_instr(f, instr), regs, 8);
    for (unsigned k = 0; k < n; k++)
        df_bits_set(gen, regs[k]);
}

static void test_must(void)
{
    loopdiamond d = make_loopdiamond();
    ir_func *f = d.f;
    df_problem p = { .dir = DF_FORWARD, .meet = DF_MUST, .n_bits = f->regs->len, .transfer = def_transfer };
    df_result *r = df_solve(f, &p);
    uint32_t at4[] = { d.r0, d.r1, d.p }, at3[] = { d.r0, d.r1, d.p };
    assert_bits(r->in[4], at4, 3); /* r2 is not defined on B2 -> B4 */
    assert_bits(r->out[3], (uint32_t[]){ d.r0, d.r1, d.p, d.r2 }, 4);
    assert_bits(r->in[3], at3, 3);
    assert_bits(r->in[0], NULL, 0);
    uint32_t at1[] = { d.r0, d.r1 };
    assert_bits(r->in[1], at1, 2); /* loop: B0's out meets B1's out */
    df_bits *x = df_bits_new(f->regs->len);
    df_value_after(r, 7, x);
    uint32_t after7[] = { d.r0, d.r1, d.p, d.r2 };
    assert_bits(x, after7, 4);
    df_bits_free(x);
    df_result_free(r);
    /* The same problem as "may": r2 reaches B4 on some path. */
    p.meet = DF_MAY;
    r = df_solve(f, &p);
    assert_bits(r->in[4], after7, 4);
    df_result_free(r);
    tb_free(f);
}

/* ---- random functions against a naive instruction-level fixed point ------------------------------- */

static ir_func *make_random(GRand *rng, uint32_t n_instrs, uint32_t n_regs)
{
    ir_func *f = tb_func();
    for (uint32_t r = 0; r < n_regs; r++)
        tb_reg(f, IR_T_B32);
    uint32_t p = tb_reg(f, IR_T_PRED);
    for (uint32_t i = 0; i < n_instrs; i++) {
        uint32_t t = g_rand_int_range(rng, 0, n_instrs + 1);
        uint32_t a = g_rand_int_range(rng, 0, n_regs), b = g_rand_int_range(rng, 0, n_regs);
        uint32_t dst = g_rand_int_range(rng, 0, n_regs);
        switch (g_rand_int_range(rng, 0, 10)) {
        case 0: tb_ret(f); break;
        case 1: tb_bra(f, IR_NONE, t); break;
        case 2: tb_bra(f, p, t); break;
        case 3: tb_op(f, IR_OP_SETP, IR_T_S32, p, a, b); break;
        case 4: tb_movi(f, dst, i); break;
        case 5: {
            uint32_t k = tb_op(f, IR_OP_ADD, IR_T_S32, dst, a, IR_NONE);
            ir_func_instr(f, k)->guard = p;
            break;
        }
        default: tb_op(f, IR_OP_ADD, IR_T_S32, dst, a, b); break;
        }
    }
    return f;
}

/* Instruction successors, straight from the instruction semantics. */
static unsigned instr_succs(ir_func *f, uint32_t i, uint32_t *out)
{
    const ir_instr *in = ir_func_instr(f, i);
    uint32_t n = ir_func_n_instrs(f);
    unsigned k = 0;
    bool falls = true;
    if (in->op == IR_OP_RET)
        falls = in->guard != IR_NONE;
    if (in->op == IR_OP_BRA) {
        falls = in->guard != IR_NONE;
        if (cfg_branch_target(in) < n)
            out[k++] = cfg_branch_target(in);
    }
    if (falls && i + 1 < n)
        out[k++] = i + 1;
    return k;
}

static void check_liveness(ir_func *f)
{
    uint32_t n = ir_func_n_instrs(f), nr = f->regs->len;
    df_bits **lin = g_new(df_bits *, n), **lout = g_new(df_bits *, n);
    for (uint32_t i = 0; i < n; i++) {
        lin[i] = df_bits_new(nr);
        lout[i] = df_bits_new(nr);
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = n; i-- > 0;) {
            uint32_t s[2], regs[8];
            unsigned ns = instr_succs(f, i, s);
            for (unsigned k = 0; k < ns; k++)
                changed |= df_bits_union(lout[i], lin[s[k]]);
            df_bits *x = df_bits_dup(lout[i]);
            const ir_instr *in = ir_func_instr(f, i);
            if (in->guard == IR_NONE) {
                unsigned nd = ir_instr_defs(in, regs, 8);
                for (unsigned k = 0; k < nd; k++)
                    df_bits_clear(x, regs[k]);
            }
            unsigned nu = ir_instr_uses(in, regs, 8);
            for (unsigned k = 0; k < nu; k++)
                df_bits_set(x, regs[k]);
            changed |= df_bits_union(lin[i], x);
            df_bits_free(x);
        }
    }
    df_liveness *l = df_liveness_compute(f);
    df_bits *x = df_bits_new(nr);
    for (uint32_t i = 0; i < n; i++) {
        df_live_after(l, i, x);
        g_assert_true(df_bits_equal(x, lout[i]));
        df_live_before(l, i, x);
        g_assert_true(df_bits_equal(x, lin[i]));
    }
    df_bits_free(x);
    df_liveness_free(l);
    for (uint32_t i = 0; i < n; i++) {
        df_bits_free(lin[i]);
        df_bits_free(lout[i]);
    }
    g_free(lin);
    g_free(lout);
}

static void check_reaching(ir_func *f)
{
    uint32_t n = ir_func_n_instrs(f);
    df_reaching *rd = df_reaching_compute(f);
    uint32_t ns_ = rd->defs->len;
    df_bits **rin = g_new(df_bits *, n);
    for (uint32_t i = 0; i < n; i++)
        rin[i] = df_bits_new(ns_);
    /* Naive: in[i] = union over instruction predecessors of their out; out computed on the fly. */
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 0; i < n; i++) {
            df_bits *x = df_bits_dup(rin[i]);
            const ir_instr *in = ir_func_instr(f, i);
            for (guint s = 0; s < rd->defs->len; s++) {
                const df_def *d = &g_array_index(rd->defs, df_def, s);
                bool mine = d->instr == i;
                bool same_reg = false;
                uint32_t regs[8];
                unsigned nd = ir_instr_defs(in, regs, 8);
                for (unsigned k = 0; k < nd; k++)
                    same_reg |= regs[k] == d->reg;
                if (mine)
                    df_bits_set(x, s);
                else if (same_reg && in->guard == IR_NONE)
                    df_bits_clear(x, s);
            }
            uint32_t succ[2];
            unsigned k = instr_succs(f, i, succ);
            for (unsigned j = 0; j < k; j++)
                changed |= df_bits_union(rin[succ[j]], x);
            df_bits_free(x);
        }
    }
    df_bits *x = df_bits_new(ns_);
    for (uint32_t i = 0; i < n; i++) {
        df_reaching_before(rd, i, x);
        g_assert_true(df_bits_equal(x, rin[i]));
    }
    df_bits_free(x);
    for (uint32_t i = 0; i < n; i++)
        df_bits_free(rin[i]);
    g_free(rin);
    df_reaching_free(rd);
}

static void test_random(void)
{
    GRand *rng = g_rand_new_with_seed(7);
    for (int iter = 0; iter < 300; iter++) {
        ir_func *f = make_random(rng, g_rand_int_range(rng, 1, 40), g_rand_int_range(rng, 1, 70));
        check_liveness(f);
        check_reaching(f);
        tb_free(f);
    }
    g_rand_free(rng);
}

/* ---- divergence ---- */

static uint32_t tb_sreg(ir_func *f, uint32_t dst, ir_sreg sr)
{
    ir_instr in = tb_blank(IR_OP_MOV, IR_T_U32);
    in.dst[0].kind = IR_OPND_REG;
    in.dst[0].u.reg = dst;
    in.n_dst = 1;
    in.src[0].kind = IR_OPND_SREG;
    in.src[0].u.sreg = sr;
    in.n_src = 1;
    g_array_append_val(f->instrs, in);
    return f->instrs->len - 1;
}

/*   0: mov t, %tid.x       3: setp q, u, u      6: @p bra 9 (divergent)   9: setp s, b, u    12: setp w, a, u
 *   1: mov u, %ctaid.x     4: @q bra 6          7: mov b, 1               10: @s bra 12      13: @w bra 15
 *   2: setp p, t, u        5: add a, u, u       8: mov c, 2               11: nop            14: nop   15: ret */
static void test_divergence_branches(void)
{
    ir_func *f = tb_func();
    uint32_t t = tb_reg(f, IR_T_U32), u = tb_reg(f, IR_T_U32), a = tb_reg(f, IR_T_U32), b = tb_reg(f, IR_T_U32);
    uint32_t c = tb_reg(f, IR_T_U32), p = tb_reg(f, IR_T_PRED), q = tb_reg(f, IR_T_PRED), s = tb_reg(f, IR_T_PRED);
    uint32_t w = tb_reg(f, IR_T_PRED);
    tb_sreg(f, t, IR_SREG_TID);
    tb_sreg(f, u, IR_SREG_CTAID);
    tb_op(f, IR_OP_SETP, IR_T_U32, p, t, u);
    tb_op(f, IR_OP_SETP, IR_T_U32, q, u, u);
    tb_bra(f, q, 6);
    tb_op(f, IR_OP_ADD, IR_T_U32, a, u, u);
    tb_bra(f, p, 9);
    tb_movi(f, b, 1);
    tb_movi(f, c, 2);
    tb_op(f, IR_OP_SETP, IR_T_U32, s, b, u);
    tb_bra(f, s, 12);
    tb_nop(f);
    tb_op(f, IR_OP_SETP, IR_T_U32, w, a, u);
    tb_bra(f, w, 15);
    tb_nop(f);
    tb_ret(f);
    df_divergence *d = df_divergence_compute(f);
    g_assert_true(df_bits_test(d->regs, t));
    g_assert_false(df_bits_test(d->regs, u));
    g_assert_true(df_bits_test(d->regs, p));
    g_assert_false(df_bits_test(d->regs, q));
    g_assert_false(df_bits_test(d->regs, a));
    g_assert_true(df_bits_test(d->regs, b)); /* defined under the divergent branch */
    g_assert_true(df_bits_test(d->regs, c));
    g_assert_true(df_bits_test(d->regs, s));
    g_assert_false(df_bits_test(d->regs, w));
    g_assert_false(d->branch[4]);
    g_assert_true(d->branch[6]);
    g_assert_true(d->branch[10]);
    g_assert_false(d->branch[13]);
    g_assert_cmpuint(d->n_guarded_branches, ==, 4);
    g_assert_cmpuint(d->n_uniform_branches, ==, 2);
    df_divergence_free(d);
    g_assert_cmpuint(df_mark_uniform_branches(f), ==, 2);
    g_assert_false(cfg_branch_is_divergent(ir_func_instr(f, 4)));
    g_assert_true(cfg_branch_is_divergent(ir_func_instr(f, 6)));
    g_assert_false(cfg_branch_is_divergent(ir_func_instr(f, 13)));
    g_assert_cmpuint(df_mark_uniform_branches(f), ==, 0);
    tb_free(f);
}

/* A loop whose exit depends on %tid: the counter differs between lanes after it (lanes leave at
 * different iterations), so a branch on it is divergent; with a uniform bound it is uniform.
 *   0: mov i, 0   1: mov t, %tid.x (or %ntid.x)   2: add i, i, k   3: setp p, i, t   4: @p bra 2
 *   5: setp q, i, t   6: @q bra 8   7: nop   8: ret
 * (k is 1; q compares i with t again, so only i's divergence matters when t is uniform.) */
static void test_divergence_loop(void)
{
    for (int uniform_bound = 0; uniform_bound < 2; uniform_bound++) {
        ir_func *f = tb_func();
        uint32_t i = tb_reg(f, IR_T_U32), t = tb_reg(f, IR_T_U32), k = tb_reg(f, IR_T_U32);
        uint32_t p = tb_reg(f, IR_T_PRED), q = tb_reg(f, IR_T_PRED), x = tb_reg(f, IR_T_U32);
        tb_movi(f, i, 0);
        tb_sreg(f, t, uniform_bound ? IR_SREG_NTID : IR_SREG_TID);
        tb_op(f, IR_OP_ADD, IR_T_U32, i, i, k);
        tb_op(f, IR_OP_SETP, IR_T_U32, p, i, t);
        tb_bra(f, p, 2);
        tb_op(f, IR_OP_SETP, IR_T_U32, q, i, i);
        tb_bra(f, q, 8);
        tb_nop(f);
        tb_ret(f);
        uint32_t g = tb_movi(f, x, 3); /* unreachable, guarded by p: divergent with p */
        ir_func_instr(f, g)->guard = p;
        tb_ret(f);
        df_divergence *d = df_divergence_compute(f);
        g_assert_cmpint(d->branch[4], ==, !uniform_bound);
        g_assert_cmpint(df_bits_test(d->regs, i), ==, !uniform_bound);
        g_assert_cmpint(d->branch[6], ==, !uniform_bound);
        g_assert_cmpint(df_bits_test(d->regs, x), ==, !uniform_bound);
        df_divergence_free(d);
        tb_free(f);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/dataflow/bits", test_bits);
    g_test_add_func("/dataflow/liveness-hand", test_liveness_hand);
    g_test_add_func("/dataflow/reaching-hand", test_reaching_hand);
    g_test_add_func("/dataflow/guarded-def", test_guarded_def);
    g_test_add_func("/dataflow/must", test_must);
    g_test_add_func("/dataflow/random", test_random);
    g_test_add_func("/dataflow/divergence-branches", test_divergence_branches);
    g_test_add_func("/dataflow/divergence-loop", test_divergence_loop);
    return g_test_run();
}
