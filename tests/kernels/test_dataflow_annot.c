/* test_dataflow_annot.c — the annotation registry and accessors, and the two built-in passes built on
 * the analyses: lastuse (from liveness) and reconv (from post-dominators), on a hand-made function
 * with the expected bits worked out by hand. */
#include "kernels/analysis/annot.h"
#include "kernels/analysis/dataflow.h"
#include "tests/kernels/test_cfg_build.h"

static void test_registry(void)
{
    unsigned before = annot_count();
    const annot_field *a = annot_register("t", "a", ANNOT_INSTR, 3, "three bits");
    const annot_field *b = annot_register("t", "b", ANNOT_INSTR, 5, "five bits");
    const annot_field *c = annot_register("t", "c", ANNOT_OPERAND, 2, "two bits");
    g_assert_nonnull(a);
    g_assert_nonnull(b);
    g_assert_nonnull(c);
    g_assert_cmpuint(annot_count(), ==, before + 3);
    g_assert_true(annot_register("t", "a", ANNOT_INSTR, 3, NULL) == a);
    g_assert_true(annot_find("t", "b") == b);
    g_assert_null(annot_find("t", "zz"));
    g_assert_true(a->offset + a->width <= b->offset || b->offset + b->width <= a->offset);
    ir_instr in;
    memset(&in, 0, sizeof in);
    annot_set_instr(&in, a, 0xff); /* truncated to 3 bits */
    annot_set_instr(&in, b, 17);
    g_assert_cmpuint(annot_get_instr(&in, a), ==, 7);
    g_assert_cmpuint(annot_get_instr(&in, b), ==, 17);
    annot_set_instr(&in, a, 0);
    g_assert_cmpuint(annot_get_instr(&in, b), ==, 17);
    in.n_src = 2;
    annot_set_operand(&in.src[1], c, 2);
    g_assert_cmpuint(annot_get_operand(&in.src[1], c), ==, 2);
    g_assert_cmpuint(annot_get_operand(&in.src[0], c), ==, 0);
    GString *s = g_string_new(NULL);
    annot_print_instr(s, &in, "t");
    g_assert_cmpstr(s->str, ==, " {t.b=17, t.c[src1]=2}");
    g_string_truncate(s, 0);
    annot_print_instr(s, &in, "other");
    g_assert_cmpstr(s->str, ==, "");
    g_string_free(s, TRUE);
}

/* The loop-then-diamond function of test_dataflow.c:
 *   0: mov r0, 1            B0
 *   1: mov r1, 0
 *   2: add r1, r1, r0       B1  loop header
 *   3: setp p, r1, r0
 *   4: @p bra 2                 latch
 *   5: @p bra 7             B2
 *   6: mov r2, 5            B3
 *   7: add r2, r2, r1       B4
 *   8: st r2, r2
 *   9: ret
 */
static ir_func *make_func(void)
{
    ir_func *f = tb_func();
    uint32_t r0 = tb_reg(f, IR_T_B32), r1 = tb_reg(f, IR_T_B32), r2 = tb_reg(f, IR_T_B32), p = tb_reg(f, IR_T_PRED);
    tb_movi(f, r0, 1);
    tb_movi(f, r1, 0);
    tb_op(f, IR_OP_ADD, IR_T_S32, r1, r1, r0);
    tb_op(f, IR_OP_SETP, IR_T_S32, p, r1, r0);
    tb_bra(f, p, 2);
    tb_bra(f, p, 7);
    tb_movi(f, r2, 5);
    tb_op(f, IR_OP_ADD, IR_T_S32, r2, r2, r1);
    tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, r2, r2);
    tb_ret(f);
    return f;
}

static void test_lastuse(void)
{
    ir_func *f = make_func();
    annot_pass_lastuse(f);
    const annot_field *last = annot_find("lastuse", "last"), *guard = annot_find("lastuse", "guard");
    g_assert_nonnull(last);
    g_assert_nonnull(guard);
#define LAST(i, k) annot_get_operand(&ir_func_instr(f, i)->src[k], last)
    g_assert_cmpuint(LAST(2, 0), ==, 0); /* r1 rewritten by the instruction */
    g_assert_cmpuint(LAST(2, 1), ==, 0); /* r0 live around the loop */
    g_assert_cmpuint(LAST(3, 0), ==, 0);
    g_assert_cmpuint(LAST(3, 1), ==, 0);
    g_assert_cmpuint(LAST(7, 0), ==, 0); /* r2 rewritten */
    g_assert_cmpuint(LAST(7, 1), ==, 1); /* r1 dead after */
    g_assert_cmpuint(LAST(8, 0), ==, 1); /* both reads of r2 are the last */
    g_assert_cmpuint(LAST(8, 1), ==, 1);
#undef LAST
    g_assert_cmpuint(annot_get_instr(ir_func_instr(f, 4), guard), ==, 0); /* p read again at 5 */
    g_assert_cmpuint(annot_get_instr(ir_func_instr(f, 5), guard), ==, 1);
    /* Every marked read agrees with liveness, and rerunning the pass is idempotent. */
    uint64_t a8 = ir_func_instr(f, 8)->src[0].annot;
    annot_pass_lastuse(f);
    g_assert_cmpuint(ir_func_instr(f, 8)->src[0].annot, ==, a8);
    annot_clear_pass(f, "lastuse");
    g_assert_cmpuint(annot_get_operand(&ir_func_instr(f, 8)->src[0], last), ==, 0);
    tb_free(f);
}

static void test_reconv(void)
{
    ir_func *f = make_func();
    g_assert_true(annot_pass_run("reconv", f));
    g_assert_false(annot_pass_run("nosuch", f));
    const annot_field *div = annot_find("reconv", "div"), *pt = annot_find("reconv", "point");
    g_assert_nonnull(div);
    g_assert_nonnull(pt);
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        g_assert_cmpuint(annot_get_instr(in, div), ==, i == 4 || i == 5);
        g_assert_cmpuint(annot_get_instr(in, pt), ==, i == 5 || i == 7);
    }
    GString *s = g_string_new(NULL);
    annot_print_instr(s, ir_func_instr(f, 5), "reconv");
    g_assert_cmpstr(s->str, ==, " {reconv.div=1, reconv.point=1}");
    g_string_free(s, TRUE);
    tb_free(f);
}

/* Runs last: it fills the instruction-level bits. */
static void test_exhaustion(void)
{
    unsigned used = 0;
    for (unsigned k = 0; k < annot_count(); k++)
        if (annot_get(k)->level == ANNOT_INSTR)
            used += annot_get(k)->width;
    const annot_field *big = annot_register("t", "big", ANNOT_INSTR, ANNOT_INSTR_BITS - used, NULL);
    g_assert_nonnull(big);
    g_assert_cmpuint(big->offset + big->width, ==, ANNOT_INSTR_BITS);
    g_assert_null(annot_register("t", "more", ANNOT_INSTR, 1, NULL));
    ir_instr in;
    memset(&in, 0, sizeof in);
    annot_set_instr(&in, big, ~0ull);
    g_assert_cmpuint(in.annot >> big->offset, ==, ~0ull >> big->offset);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/annot/registry", test_registry);
    g_test_add_func("/annot/lastuse", test_lastuse);
    g_test_add_func("/annot/reconv", test_reconv);
    g_test_add_func("/annot/exhaustion", test_exhaustion);
    return g_test_run();
}
