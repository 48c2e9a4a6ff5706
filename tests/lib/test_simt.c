/* Unit tests for models/lib/simt: PDOM reconvergence on diamonds, nesting, loops and exits. */
#include "models/lib/simt.h"

#define FULL 0xffffffffu
#define LO 0x0000ffffu
#define HI 0xffff0000u

/* Runs the top entry's straight-line code, one instruction per step, until its pc is `until` or the
 * entry reconverges (is popped). */
static void run_to(simt_stack *s, uint32_t until)
{
    unsigned depth = simt_stack_depth(s);
    while (!simt_stack_done(s) && simt_stack_depth(s) == depth && simt_stack_pc(s) != until)
        simt_stack_step(s, simt_stack_pc(s) + 1);
}

/* 0: bra (lanes 0-15 taken) -> 10; 1..9 else path; 10..19 then path; 20 reconvergence. */
static void test_diamond(void)
{
    simt_stack *s = simt_stack_new(true);
    simt_stack_reset(s, 0, FULL);
    simt_stack_branch(s, LO, 10, 1, 20);
    g_assert_cmpuint(simt_stack_depth(s), ==, 3);
    g_assert_cmpuint(simt_stack_pc(s), ==, 10);
    g_assert_cmpuint(simt_stack_mask(s), ==, LO);
    g_assert_cmpuint(simt_stack_active(s), ==, 16);
    g_assert_cmpuint(simt_stack_entry(s, 0)->pc, ==, 20);
    run_to(s, 20);
    g_assert_cmpuint(simt_stack_pc(s), ==, 1); /* then-path reached 20 and popped */
    g_assert_cmpuint(simt_stack_mask(s), ==, HI);
    simt_stack_step(s, 20); /* else path jumps to the reconvergence point */
    g_assert_cmpuint(simt_stack_depth(s), ==, 1);
    g_assert_cmpuint(simt_stack_pc(s), ==, 20);
    g_assert_cmpuint(simt_stack_mask(s), ==, FULL);
    simt_stack_free(s);

    /* not-taken first */
    s = simt_stack_new(false);
    simt_stack_reset(s, 0, FULL);
    simt_stack_branch(s, LO, 10, 1, 20);
    g_assert_cmpuint(simt_stack_pc(s), ==, 1);
    g_assert_cmpuint(simt_stack_mask(s), ==, HI);
    simt_stack_free(s);
}

static void test_uniform(void)
{
    simt_stack *s = simt_stack_new(true);
    simt_stack_reset(s, 5, LO);
    simt_stack_branch(s, LO, 30, 6, 40);
    g_assert_cmpuint(simt_stack_depth(s), ==, 1);
    g_assert_cmpuint(simt_stack_pc(s), ==, 30);
    simt_stack_branch(s, 0, 50, 31, 40);
    g_assert_cmpuint(simt_stack_pc(s), ==, 31);
    g_assert_cmpuint(simt_stack_mask(s), ==, LO);
    simt_stack_free(s);
}

/* Nested: outer split at 0 (rpc 50); inside the taken path, a split at 10 (rpc 30). */
static void test_nested(void)
{
    simt_stack *s = simt_stack_new(true);
    simt_stack_reset(s, 0, FULL);
    simt_stack_branch(s, LO, 10, 1, 50);
    simt_stack_branch(s, 0x000000ffu, 20, 11, 30);
    g_assert_cmpuint(simt_stack_depth(s), ==, 5);
    g_assert_cmpuint(simt_stack_mask(s), ==, 0x000000ffu);
    run_to(s, 30);
    g_assert_cmpuint(simt_stack_pc(s), ==, 11);
    g_assert_cmpuint(simt_stack_mask(s), ==, 0x0000ff00u);
    run_to(s, 30);
    /* inner paths merged at 30 with the outer taken mask */
    g_assert_cmpuint(simt_stack_pc(s), ==, 30);
    g_assert_cmpuint(simt_stack_mask(s), ==, LO);
    g_assert_cmpuint(simt_stack_depth(s), ==, 3);
    run_to(s, 50);
    g_assert_cmpuint(simt_stack_pc(s), ==, 1);
    g_assert_cmpuint(simt_stack_mask(s), ==, HI);
    run_to(s, 50);
    g_assert_cmpuint(simt_stack_depth(s), ==, 1);
    g_assert_cmpuint(simt_stack_mask(s), ==, FULL);
    simt_stack_free(s);
}

/* A loop whose lanes leave at different iterations: 0..3 body, 4: bra 0 (taken = still looping),
 * reconvergence at 5. Lane i runs i + 1 iterations for lanes 0..3. */
static void test_loop(void)
{
    simt_stack *s = simt_stack_new(true);
    simt_stack_reset(s, 0, 0xfu);
    unsigned iterations = 0;
    for (;;) {
        run_to(s, 4);
        iterations++;
        uint32_t m = simt_stack_mask(s), taken = 0;
        for (unsigned lane = 0; lane < 4; lane++)
            if ((m >> lane & 1) && lane + 1 > iterations)
                taken |= 1u << lane;
        simt_stack_branch(s, taken, 0, 5, 5);
        if (simt_stack_pc(s) == 5)
            break;
        g_assert_cmpuint(simt_stack_mask(s), ==, taken);
    }
    g_assert_cmpuint(iterations, ==, 4);
    g_assert_cmpuint(simt_stack_mask(s), ==, 0xfu);
    g_assert_cmpuint(simt_stack_depth(s), ==, 1);
    simt_stack_free(s);
}

static void test_exit(void)
{
    simt_stack *s = simt_stack_new(true);
    simt_stack_reset(s, 0, FULL);
    simt_stack_branch(s, LO, 10, 1, 20);
    simt_stack_exit(s, LO); /* the taken path exits */
    g_assert_cmpuint(simt_stack_pc(s), ==, 1);
    g_assert_cmpuint(simt_stack_mask(s), ==, HI);
    run_to(s, 20);
    g_assert_cmpuint(simt_stack_depth(s), ==, 1);
    g_assert_cmpuint(simt_stack_mask(s), ==, HI);
    simt_stack_exit(s, HI);
    g_assert_true(simt_stack_done(s));
    g_assert_cmpuint(simt_stack_mask(s), ==, 0);
    simt_stack_free(s);

    /* a split with no reconvergence point: both paths run to their exits */
    s = simt_stack_new(true);
    simt_stack_reset(s, 0, FULL);
    simt_stack_branch(s, LO, 10, 1, SIMT_NO_RPC);
    g_assert_cmpuint(simt_stack_pc(s), ==, 10);
    simt_stack_exit(s, LO);
    g_assert_cmpuint(simt_stack_pc(s), ==, 1);
    g_assert_cmpuint(simt_stack_mask(s), ==, HI);
    simt_stack_exit(s, HI);
    g_assert_true(simt_stack_done(s));
    simt_stack_free(s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/simt/diamond", test_diamond);
    g_test_add_func("/simt/uniform", test_uniform);
    g_test_add_func("/simt/nested", test_nested);
    g_test_add_func("/simt/loop", test_loop);
    g_test_add_func("/simt/exit", test_exit);
    return g_test_run();
}
