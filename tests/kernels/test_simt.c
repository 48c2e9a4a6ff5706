/* test_simt — the PDOM SIMT stack on hand-made divergence patterns: if/else, nested if, loops with a
 * different trip count per lane, early exit of some lanes, reconvergence at the function exit,
 * calls with divergent returns. A tiny interpreter drives the stack where a pattern has a loop. */
#include "kernels/run/simt.h"

#define ALL  0xffffffffu
#define EVEN 0x55555555u
#define ODD  0xaaaaaaaau

static void check_top(simt_stack *s, uint32_t pc, uint32_t mask)
{
    g_assert_false(simt_done(s));
    g_assert_cmpuint(simt_top(s)->pc, ==, pc);
    g_assert_cmphex(simt_top(s)->mask, ==, mask);
}

/* 0: @even bra 3 (reconv 5); 1: ...; 2: bra 5; 3: ...; 4: ...; 5: join */
static void test_if_else(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    g_assert_true(simt_branch(&s, EVEN, 3, 1, 5));
    check_top(&s, 1, ODD); /* fall-through first */
    simt_advance(&s, 2);
    g_assert_false(simt_branch(&s, ODD, 5, 3, 7)); /* uniform within the path: jumps to the join */
    check_top(&s, 3, EVEN);                        /* popped: the taken path runs */
    simt_advance(&s, 4);
    simt_advance(&s, 5);
    check_top(&s, 5, ALL);
    g_assert_cmpuint(s.n, ==, 1);
    g_assert_cmpuint(s.max_depth, ==, 3);
    simt_release(&s);
}

/* if without else: the taken target is the reconvergence point, so only one path is pushed. */
static void test_if_then(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    g_assert_true(simt_branch(&s, 0xffff0000u, 4, 1, 4));
    check_top(&s, 1, 0x0000ffffu);
    g_assert_cmpuint(s.n, ==, 2);
    simt_advance(&s, 2);
    simt_advance(&s, 3);
    simt_advance(&s, 4);
    check_top(&s, 4, ALL);
    g_assert_cmpuint(s.n, ==, 1);
    simt_release(&s);
}

/* 0: @A bra 6 (reconv 6); 1: @B bra 4 (reconv 4); 2,3: inner; 4,5: outer; 6: join */
static void test_nested(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    g_assert_true(simt_branch(&s, 0xff000000u, 6, 1, 6));
    check_top(&s, 1, 0x00ffffffu);
    g_assert_true(simt_branch(&s, 0x00ff0000u, 4, 2, 4));
    check_top(&s, 2, 0x0000ffffu);
    g_assert_cmpuint(s.n, ==, 3);
    simt_advance(&s, 3);
    simt_advance(&s, 4);
    check_top(&s, 4, 0x00ffffffu);
    simt_advance(&s, 5);
    simt_advance(&s, 6);
    check_top(&s, 6, ALL);
    g_assert_cmpuint(s.n, ==, 1);
    simt_release(&s);
}

/* 0: body (count per lane); 1: @(count < trip[lane]) bra 0 (reconv 2); 2: after the loop. */
static void test_loop_trip_counts(void)
{
    unsigned trip[32], count[32] = {0};
    for (unsigned l = 0; l < 32; l++)
        trip[l] = 1 + (l * 7) % 11;
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    unsigned steps = 0;
    while (simt_top(&s)->pc != 2 || s.n != 1) {
        g_assert_cmpuint(++steps, <, 1000);
        simt_entry *t = simt_top(&s);
        if (t->pc == 0) {
            for (unsigned l = 0; l < 32; l++)
                if (t->mask >> l & 1)
                    count[l]++;
            simt_advance(&s, 1);
        } else if (t->pc == 1) {
            uint32_t taken = 0;
            for (unsigned l = 0; l < 32; l++)
                if ((t->mask >> l & 1) && count[l] < trip[l])
                    taken |= 1u << l;
            simt_branch(&s, taken, 0, 2, 2);
        } else {
            g_assert_not_reached();
        }
    }
    check_top(&s, 2, ALL);
    for (unsigned l = 0; l < 32; l++)
        g_assert_cmpuint(count[l], ==, trip[l]);
    g_assert_cmpuint(s.max_depth, ==, 2);
    simt_release(&s);
}

/* 0: @lo16 bra 3 (reconv 4); 1: exit (the other lanes leave); 3: work; 4: join with only lo16. */
static void test_early_exit(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    simt_branch(&s, 0x0000ffffu, 3, 1, 4);
    check_top(&s, 1, 0xffff0000u);
    simt_advance(&s, 2);
    simt_exit(&s, 0xffff0000u);
    check_top(&s, 3, 0x0000ffffu);
    simt_advance(&s, 4);
    check_top(&s, 4, 0x0000ffffu);
    g_assert_cmpuint(s.n, ==, 1);
    g_assert_cmphex(s.exited, ==, 0xffff0000u);
    /* A guarded exit of some lanes on the converged path. */
    simt_advance(&s, 5);
    simt_exit(&s, 0x000000ffu);
    check_top(&s, 5, 0x0000ff00u);
    simt_exit(&s, 0x0000ff00u);
    g_assert_true(simt_done(&s));
    simt_release(&s);
}

/* Reconvergence at the function exit: both paths end in their own ret/exit. The entry waiting at
 * the exit must not run again. */
static void test_reconverge_at_exit(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    simt_branch(&s, EVEN, 5, 1, SIMT_PC_EXIT);
    check_top(&s, 1, ODD);
    simt_advance(&s, 2);
    simt_ret(&s, ODD); /* ret in the kernel frame: exit */
    check_top(&s, 5, EVEN);
    simt_advance(&s, 6);
    g_assert_true(simt_ret(&s, EVEN));
    g_assert_true(simt_done(&s));
    g_assert_cmphex(s.exited, ==, ALL);
    simt_release(&s);
}

/* Caller func 0: 0: call f1 (lanes 0xffff guarded), ret pc 1; f1: 0: @even bra 3 (reconv exit);
 * 1: ret (odd lanes); 3: ret (even lanes). Caller resumes at 1 with every lane. */
static void test_call_divergent_ret(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    simt_call(&s, 0, 1, 1, 0, 0x0000ffffu);
    check_top(&s, 0, 0x0000ffffu);
    g_assert_cmpuint(simt_top(&s)->func, ==, 1);
    g_assert_cmpuint(simt_frame(&s)->call_pc, ==, 0);
    simt_branch(&s, EVEN, 3, 1, SIMT_PC_EXIT);
    check_top(&s, 1, ODD & 0xffffu);
    simt_advance(&s, 2);
    g_assert_false(simt_ret(&s, ODD & 0xffffu));
    check_top(&s, 3, EVEN & 0xffffu);
    g_assert_cmpuint(simt_top(&s)->func, ==, 1);
    simt_advance(&s, 4);
    g_assert_true(simt_ret(&s, EVEN & 0xffffu));
    check_top(&s, 1, ALL);
    g_assert_cmpuint(simt_top(&s)->func, ==, 0);
    g_assert_cmpuint(s.n, ==, 1);
    g_assert_cmphex(s.exited, ==, 0);
    simt_release(&s);
}

/* A lane exiting inside a callee leaves the caller's entries too. */
static void test_exit_in_callee(void)
{
    simt_stack s = {0};
    simt_init(&s, 0, 0, ALL);
    simt_branch(&s, 0x0000ffffu, 10, 1, 20);
    check_top(&s, 1, 0xffff0000u);
    simt_call(&s, 1, 2, 1, 0, 0xffff0000u);
    simt_advance(&s, 1);
    simt_exit(&s, 0x0f000000u);
    check_top(&s, 1, 0xf0ff0000u);
    g_assert_true(simt_ret(&s, 0xf0ff0000u));
    check_top(&s, 2, 0xf0ff0000u);
    simt_advance(&s, 20);
    check_top(&s, 10, 0x0000ffffu);
    simt_advance(&s, 20);
    check_top(&s, 20, 0xf0ffffffu);
    simt_release(&s);
}

static void test_dump(void)
{
    simt_stack s = {0};
    simt_init(&s, 2, 0, ALL);
    simt_branch(&s, EVEN, 3, 1, SIMT_PC_EXIT);
    GString *g = g_string_new(NULL);
    simt_dump(&s, g, "  ");
    g_assert_nonnull(strstr(g->str, "pc exit rpc exit mask 0xffffffff func 2 frame"));
    g_assert_nonnull(strstr(g->str, "pc 1 rpc exit mask 0xaaaaaaaa func 2 path"));
    g_string_free(g, TRUE);
    simt_release(&s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/simt/if-else", test_if_else);
    g_test_add_func("/simt/if-then", test_if_then);
    g_test_add_func("/simt/nested", test_nested);
    g_test_add_func("/simt/loop-trip-counts", test_loop_trip_counts);
    g_test_add_func("/simt/early-exit", test_early_exit);
    g_test_add_func("/simt/reconverge-at-exit", test_reconverge_at_exit);
    g_test_add_func("/simt/call-divergent-ret", test_call_divergent_ret);
    g_test_add_func("/simt/exit-in-callee", test_exit_in_callee);
    g_test_add_func("/simt/dump", test_dump);
    return g_test_run();
}
