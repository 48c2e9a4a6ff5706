/* test_vws_sync — the VWS reconvergence-sync insertion pass (kernels/passes/vws_sync.h): sync points
 * at the immediate post-dominator of every potentially divergent branch, exactly. */
#include <glib.h>

#include "kernels/frontend/ptx_parse.h"
#include "kernels/passes/vws_sync.h"

/* An if/else diamond, then a guarded skip, then a loop whose exit reconverges at the function end,
 * and a uniform branch (bra.uni: no sync point). */
static const char *ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                         ".visible .entry k(.param .u64 pA)\n{\n"
                         ".reg .pred %p<5>;\n.reg .b32 %r<10>;\n"
                         "mov.u32 %r1, %tid.x;\n"      /* 0 */
                         "setp.lt.u32 %p1, %r1, 16;\n" /* 1 */
                         "@%p1 bra ELSE;\n"            /* 2: divergent: if / else */
                         "add.s32 %r2, %r1, 1;\n"      /* 3 */
                         "bra JOIN;\n"                 /* 4 */
                         "ELSE:\n"
                         "sub.s32 %r2, %r1, 1;\n" /* 5 */
                         "JOIN:\n"
                         "mul.lo.s32 %r3, %r2, 3;\n"  /* 6: reconvergence of 2 */
                         "setp.eq.u32 %p2, %r3, 0;\n" /* 7 */
                         "@%p2 bra SKIP;\n"           /* 8: divergent: a guarded skip */
                         "add.s32 %r3, %r3, 7;\n"     /* 9 */
                         "SKIP:\n"
                         "mov.u32 %r4, 0;\n"            /* 10: reconvergence of 8 */
                         "setp.eq.u32 %p4, %r1, %r1;\n" /* 11 */
                         "@%p4 bra.uni LOOP;\n"         /* 12: uniform: none */
                         "LOOP:\n"
                         "add.s32 %r4, %r4, 1;\n"       /* 13 */
                         "setp.lt.u32 %p3, %r4, %r1;\n" /* 14 */
                         "@%p3 bra LOOP;\n"             /* 15: divergent: the loop's exit */
                         "add.s32 %r5, %r4, 1;\n"       /* 16: reconvergence of 15 */
                         "ret;\n"                       /* 17 */
                         "}\n";

static void test_points(void)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(ptx, -1, "sync.ptx", &err);
    g_assert_no_error(err);
    vws_sync *s = vws_sync_build(m);
    g_assert_cmpuint(s->n_funcs, ==, 1);
    g_assert_cmpuint(s->n_instrs[0], ==, 18);
    g_assert_cmpuint(s->n_points, ==, 3);
    for (uint32_t pc = 0; pc < 18; pc++)
        g_assert_cmpint(vws_sync_at(s, 0, pc), ==, pc == 6 || pc == 10 || pc == 16);
    g_assert_false(vws_sync_at(s, 0, 18)); /* out of range */
    g_assert_false(vws_sync_at(s, 1, 6));
    vws_sync_free(s);
    ir_module_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/vws/sync-points", test_points);
    return g_test_run();
}
