/* Unit tests for kernels/passes/reuse_profile: distances, near/far at RTHLD, redefinition and dead values,
 * the per-operand majority with ties far, and the oracle bits, on a worked example (docs/rfcache.md
 * "The reuse-profile pass"). */
#include "kernels/passes/reuse_profile.h"

#define R(...) (const uint16_t[]){__VA_ARGS__}, sizeof((const uint16_t[]){__VA_ARGS__}) / sizeof(uint16_t)
#define NONE   NULL, 0

/* The worked example: pc 0..5 of function 0.
 *  0: ld   r1, [r0]        src r0        dst r1
 *  1: add  r2, r1, r0      src r1 r0     dst r2
 *  2: mul  r1, r1, 2       src r1        dst r1
 *  3: add  r3, r2, r1      src r2 r1     dst r3
 *  4: bra                  (nothing)
 *  5: st   [r0], r3        src r3 r0 */
static void example(rp_profile *p, unsigned warp)
{
    rp_instr(p, warp, 0, 0, R(0), R(1));
    rp_instr(p, warp, 0, 1, R(1, 0), R(2));
    rp_instr(p, warp, 0, 2, R(1), R(1));
    rp_instr(p, warp, 0, 3, R(2, 1), R(3));
    rp_instr(p, warp, 0, 4, NONE, NONE);
    rp_instr(p, warp, 0, 5, R(3, 0), NONE);
}

static void hints(const rp_profile *p, uint32_t pc, uint32_t want_src, uint32_t want_dst)
{
    uint32_t s, d;
    g_assert_true(rp_hints(p, 0, pc, &s, &d));
    g_assert_cmphex(s, ==, want_src);
    g_assert_cmphex(d, ==, want_dst);
}

static void test_distances(void)
{
    /* RTHLD 2: r0 read at 1 is next read at 5 (distance 4): far; r2 written at 1 is read at 3
     * (distance 2 = RTHLD): near; r1 read at 2 is redefined by the same instruction: far; last uses
     * are far. */
    rp_profile *p = rp_new(2);
    example(p, 0);
    rp_finish(p);
    hints(p, 0, 0x1, 0x1);
    hints(p, 1, 0x1, 0x1); /* r1 near (read at 2), r0 far (4 > 2) */
    hints(p, 2, 0x0, 0x1);
    hints(p, 3, 0x0, 0x1);
    hints(p, 5, 0x0, 0x0);
    uint64_t near, far;
    rp_votes(p, &near, &far);
    g_assert_cmpuint(near, ==, 6);
    g_assert_cmpuint(far, ==, 6);
    g_assert_cmpuint(rp_static_count(p), ==, 6);
    uint32_t s, d;
    g_assert_false(rp_hints(p, 0, 9, &s, &d));
    rp_free(p);
    /* RTHLD 12 [S]: r0 at pc 1 is near too */
    p = rp_new(12);
    example(p, 0);
    rp_finish(p);
    hints(p, 1, 0x3, 0x1);
    rp_free(p);
}

/* Majority over warps: warp 1 re-reads r0 right after pc 1, warp 0 does not (RTHLD 2): 1 near : 1 far
 * is a tie, far; with a third warp like warp 1, near. The oracle keeps each instance's bits. */
static void test_majority_and_oracle(void)
{
    rp_profile *p = rp_new(2);
    example(p, 0);
    rp_instr(p, 1, 0, 1, R(1, 0), R(2));
    rp_instr(p, 1, 0, 6, R(0), NONE);
    rp_finish(p);
    hints(p, 1, 0x0, 0x0); /* r1, r0 and r2 each near 1 : far 1: ties are far */
    rp_instr(p, 2, 0, 1, R(1, 0), R(2));
    rp_instr(p, 2, 0, 6, R(0), NONE);
    rp_finish(p);
    hints(p, 1, 0x2, 0x0); /* r0 near 2 : far 1; r1 near 1 : far 2 */
    uint32_t s, d;
    g_assert_true(rp_oracle(p, 0, 1, &s, &d));
    g_assert_cmphex(s, ==, 0x1);
    g_assert_cmphex(d, ==, 0x1);
    g_assert_true(rp_oracle(p, 2, 0, &s, &d));
    g_assert_cmphex(s, ==, 0x2);
    g_assert_false(rp_oracle(p, 2, 2, &s, &d));
    rp_free(p);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/reuse_profile/distances", test_distances);
    g_test_add_func("/reuse_profile/majority_and_oracle", test_majority_and_oracle);
    return g_test_run();
}
