/* Unit tests for kernels/daws_pass (docs/ccws.md, "DAWS"): the loop-marker side table on the spec's
 * Fig. 4.1 CSR row-sum loop and on a nested loop (begin/end, enclosing loops, the next loop in program
 * order, the loads inside loops), the repetition groups from the assembly (same base register,
 * displacements within one line), and the profiled classification on the spec's UT-7 loop (P1
 * diverged; P2, P3 converged repeats; P4 diverged and P5 converged in one group), loops without
 * locality left out, the table size limit, and the profile's text form. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/passes/daws_pass.h"
#include "kernels/frontend/ptx_parse.h"

/* Fig. 4.1: int i = C[tid]; while (i < C[tid+1]) { sum += A[i]; ++i; } */
static const char *csr_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                             ".visible .entry csr(.param .u64 pA, .param .u64 pC, .param .u64 pO)\n{\n"
                             ".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<12>;\n"
                             "ld.param.u64 %rd1, [pA];\n"     /* 0 */
                             "ld.param.u64 %rd2, [pC];\n"     /* 1 */
                             "mov.u32 %r1, %tid.x;\n"         /* 2 */
                             "mul.wide.u32 %rd3, %r1, 4;\n"   /* 3 */
                             "add.s64 %rd4, %rd2, %rd3;\n"    /* 4 */
                             "ld.global.u32 %r2, [%rd4];\n"   /* 5: C[tid] */
                             "ld.global.u32 %r3, [%rd4+4];\n" /* 6: C[tid+1] */
                             "mov.f32 %f1, 0f00000000;\n"     /* 7 */
                             "setp.ge.s32 %p1, %r2, %r3;\n"   /* 8 */
                             "@%p1 bra DONE;\n"               /* 9 */
                             "LOOP:\n"
                             "mul.wide.s32 %rd5, %r2, 4;\n" /* 10: loop begin */
                             "add.s64 %rd6, %rd1, %rd5;\n"  /* 11 */
                             "ld.global.f32 %f2, [%rd6];\n" /* 12: A[i] */
                             "add.f32 %f1, %f1, %f2;\n"     /* 13 */
                             "add.s32 %r2, %r2, 1;\n"       /* 14 */
                             "setp.lt.s32 %p2, %r2, %r3;\n" /* 15 */
                             "@%p2 bra LOOP;\n"             /* 16: loop end */
                             "DONE:\n"
                             "ret;\n" /* 17 */
                             "}\n";

/* The UT-7 loop nested in an outer loop: P1 [%rd1] (20); P2 [%rd2], P3 [%rd2+4] (21, 22); P4 [%rd3],
 * P5 [%rd3+8] (23, 24); a load [%rd2+128] (25) a line away from P2: a group of its own. */
static const char *nest_ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".visible .entry nest(.param .u64 pA)\n{\n"
                              ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n"
                              "ld.param.u64 %rd1, [pA];\n" /* 0 */
                              "mov.u64 %rd2, %rd1;\n"      /* 1 */
                              "mov.u64 %rd3, %rd1;\n"      /* 2 */
                              "mov.u32 %r1, 0;\n"          /* 3 */
                              "OUTER:\n"
                              "mov.u32 %r2, 0;\n" /* 4: outer begin */
                              "INNER:\n"
                              "ld.global.u32 %r3, [%rd1];\n"     /* 5: P1, inner begin */
                              "ld.global.u32 %r4, [%rd2];\n"     /* 6: P2 */
                              "ld.global.u32 %r5, [%rd2+4];\n"   /* 7: P3 */
                              "ld.global.u32 %r6, [%rd3];\n"     /* 8: P4 */
                              "ld.global.u32 %r7, [%rd3+8];\n"   /* 9: P5 */
                              "ld.global.u32 %r8, [%rd2+128];\n" /* 10 */
                              "add.s32 %r2, %r2, 1;\n"           /* 11 */
                              "setp.lt.s32 %p1, %r2, 4;\n"       /* 12 */
                              "@%p1 bra INNER;\n"                /* 13: inner end */
                              "ld.global.u32 %r9, [%rd1+256];\n" /* 14: in the outer loop only */
                              "add.s32 %r1, %r1, 1;\n"           /* 15 */
                              "setp.lt.s32 %p2, %r1, 4;\n"       /* 16 */
                              "@%p2 bra OUTER;\n"                /* 17: outer end */
                              "ret;\n"                           /* 18 */
                              "}\n";

static ir_module *parse(const char *text)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(text, -1, "test.ptx", &err);
    g_assert_no_error(err);
    return m;
}

static void test_csr_markers(void)
{
    ir_module *m = parse(csr_ptx);
    daws_loops *l = daws_loops_build(m, 128);
    g_assert_cmpuint(l->n_funcs, ==, 1);
    const daws_func *f = &l->f[0];
    g_assert_cmpuint(f->loops->len, ==, 1);
    const daws_loop *lp = &g_array_index(f->loops, daws_loop, 0);
    g_assert_cmpuint(lp->begin, ==, 10);
    g_assert_cmpuint(lp->end, ==, 16);
    g_assert_cmpuint(lp->parent, ==, IR_NONE);
    g_assert_cmpuint(lp->outer, ==, 0);
    g_assert_cmpuint(f->begin_of[10], ==, 0);
    g_assert_cmpuint(f->begin_of[11], ==, IR_NONE);
    for (uint32_t pc = 0; pc <= 17; pc++) {
        g_assert_cmpuint(f->loop_at[pc], ==, pc >= 10 && pc <= 16 ? 0 : IR_NONE);
        g_assert_cmpuint(f->next[pc], ==, pc < 10 ? 0 : IR_NONE); /* the next loop in program order */
    }
    /* C[tid], C[tid+1] are outside the loop: only A[i] is listed */
    g_assert_cmpuint(f->loads->len, ==, 1);
    g_assert_cmpuint(g_array_index(f->loads, daws_load, 0).pc, ==, 12);
    g_assert_cmpuint(g_array_index(f->loads, daws_load, 0).rep, ==, 1);
    daws_loops_free(l);
    ir_module_free(m);
}

static void test_nested_markers(void)
{
    ir_module *m = parse(nest_ptx);
    daws_loops *l = daws_loops_build(m, 128);
    const daws_func *f = &l->f[0];
    g_assert_cmpuint(f->loops->len, ==, 2);
    const daws_loop *outer = &g_array_index(f->loops, daws_loop, 0),
                    *inner = &g_array_index(f->loops, daws_loop, 1);
    g_assert_cmpuint(outer->begin, ==, 4);
    g_assert_cmpuint(outer->end, ==, 17);
    g_assert_cmpuint(inner->begin, ==, 5);
    g_assert_cmpuint(inner->end, ==, 13);
    g_assert_cmpuint(inner->parent, ==, 0);
    g_assert_cmpuint(inner->outer, ==, 0);
    g_assert_cmpuint(f->begin_of[4], ==, 0);
    g_assert_cmpuint(f->begin_of[5], ==, 1);
    g_assert_cmpuint(f->loop_at[14], ==, 0);
    g_assert_cmpuint(f->loop_at[9], ==, 1);
    g_assert_cmpuint(f->next[3], ==, 0);
    g_assert_cmpuint(f->next[4], ==, 1);
    /* repetition groups: P1 | P2 P3 | P4 P5 | [%rd2+128] | the outer loop's load */
    static const uint32_t pcs[] = {5, 6, 7, 8, 9, 10, 14}, reps[] = {1, 2, 2, 3, 3, 4, 5};
    g_assert_cmpuint(f->loads->len, ==, G_N_ELEMENTS(pcs));
    for (unsigned i = 0; i < G_N_ELEMENTS(pcs); i++) {
        const daws_load *ld = &g_array_index(f->loads, daws_load, i);
        g_assert_cmpuint(ld->pc, ==, pcs[i]);
        g_assert_cmpuint(ld->rep, ==, reps[i]);
        g_assert_cmpuint(ld->loop, ==, pcs[i] == 14 ? 0 : 1);
    }
    daws_loops_free(l);
    ir_module_free(m);
}

static void set_prof(daws_profile *p, uint32_t pc, uint64_t execs, uint64_t div, uint64_t lines,
                     uint64_t reused)
{
    daws_pc_prof *q = &p->pc[0][pc];
    q->execs = execs, q->div_execs = div, q->lines = lines, q->reused = reused;
}

/* UT-7: P1 diverged RepID 1; P2, P3 converged RepID 2; P4 diverged + P5 converged RepID 3. */
static void test_ut7_classify(void)
{
    ir_module *m = parse(nest_ptx);
    daws_loops *l = daws_loops_build(m, 128);
    daws_profile *p = daws_profile_new(l);
    set_prof(p, 5, 100, 100, 3200, 3000); /* diverged: every execution touched > 2 lines */
    set_prof(p, 6, 100, 0, 100, 90);
    set_prof(p, 7, 100, 0, 100, 100);
    set_prof(p, 8, 100, 1, 120, 100); /* one divergent execution: not consistently converged */
    set_prof(p, 9, 100, 0, 100, 100);
    set_prof(p, 10, 0, 0, 0, 0);   /* never profiled: converged */
    set_prof(p, 14, 50, 0, 50, 0); /* the outer loop alone: 0 reuse, but the inner loop's count */
    daws_slct_entry e[16];
    unsigned found;
    unsigned n = daws_classify(l, p, 0, 500, e, 16, &found);
    g_assert_cmpuint(n, ==, 7);
    g_assert_cmpuint(found, ==, 7);
    static const uint32_t pcs[] = {5, 6, 7, 8, 9, 10, 14}, reps[] = {1, 2, 2, 3, 3, 4, 5},
                          begins[] = {5, 5, 5, 5, 5, 5, 4};
    static const bool div[] = {true, false, false, true, false, false, false};
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmpuint(e[i].pc_load, ==, pcs[i]);
        g_assert_cmpuint(e[i].rep, ==, reps[i]);
        g_assert_cmpuint(e[i].loop_begin, ==, begins[i]);
        g_assert_cmpint(e[i].is_div, ==, div[i]);
    }
    /* a threshold: P4's 1 in 100 is not diverged when more than 1 % is asked for */
    n = daws_classify(l, p, 10, 500, e, 16, &found);
    g_assert_false(e[3].is_div);
    g_assert_true(e[0].is_div);
    /* the table is finite: the first entries kept, the count reported */
    n = daws_classify(l, p, 0, 500, e, 3, &found);
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmpuint(found, ==, 7);
    /* without reuse no loop has locality: no entries */
    for (uint32_t pc = 5; pc <= 14; pc++)
        p->pc[0][pc].reused = 0;
    n = daws_classify(l, p, 0, 500, e, 16, &found);
    g_assert_cmpuint(n, ==, 0);
    daws_profile_free(p);
    daws_loops_free(l);
    ir_module_free(m);
}

static void test_profile_text(void)
{
    ir_module *m = parse(csr_ptx);
    daws_loops *l = daws_loops_build(m, 128);
    daws_profile *p = daws_profile_new(l);
    set_prof(p, 12, 7, 3, 40, 20);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    daws_profile_write(p, f);
    fclose(f);
    g_assert_nonnull(strstr(buf, "load 0 12 7 3 40 20\n"));
    daws_profile *q = daws_profile_new(l);
    GString *err = g_string_new(NULL);
    g_assert_true(daws_profile_read(q, buf, err));
    g_assert_cmpuint(q->pc[0][12].execs, ==, 7);
    g_assert_cmpuint(q->pc[0][12].div_execs, ==, 3);
    g_assert_cmpuint(q->pc[0][12].lines, ==, 40);
    g_assert_cmpuint(q->pc[0][12].reused, ==, 20);
    g_assert_false(daws_profile_read(q, "load 0 99 1 0 1 0\n", err)); /* no pc 99 */
    g_assert_nonnull(strstr(err->str, "line 1"));
    g_assert_false(daws_profile_read(q, "# c\nload 0 12 x\n", err));
    g_assert_nonnull(strstr(err->str, "line 2"));
    g_assert_false(daws_profile_read(q, "load 0 12 1 2 1 0\n", err)); /* more divergent than executed */
    g_string_free(err, TRUE);
    free(buf);
    daws_profile_free(p);
    daws_profile_free(q);
    daws_loops_free(l);
    ir_module_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/daws-pass/csr-markers", test_csr_markers);
    g_test_add_func("/daws-pass/nested-markers", test_nested_markers);
    g_test_add_func("/daws-pass/ut7-classify", test_ut7_classify);
    g_test_add_func("/daws-pass/profile-text", test_profile_text);
    return g_test_run();
}
