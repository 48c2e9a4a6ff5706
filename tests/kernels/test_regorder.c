/* test_regorder — the `regorder` pass (kernels/passes/regorder.h) on the spec's example (resource-sharing
 * spec §7, source Fig. 2.10, written in PTX): with the declarations `%r<27>`, `%ofs<3>`, `%p<4>`,
 * `%x124`, `%o127`, the first instructions `setp %p0|%o127, %x124, 15` and five movs from %x124 give
 * the order %p0, %o127, %x124, %r16, %r17, %r9, %r18, %r10, then the unused registers in their old
 * order: %p0 goes from #31 to #1 and %x124 from #35 to #3; every operand follows (the movs' sources
 * are all register #3); a kernel already in first-use order does not change. (Every workload passing
 * its output check on tb-sharing --regorder is tests/sm/test_tb_sharing.sh.) */
#include <glib.h>
#include <string.h>

#include "kernels/frontend/ptx_parse.h"
#include "kernels/passes/regorder.h"

static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                          ".visible .entry k()\n{\n"
                          "  .reg .b32 %r<27>;\n  .reg .b32 %ofs<3>;\n  .reg .pred %p<4>;\n"
                          "  .reg .b32 %x124;\n  .reg .pred %o127;\n"
                          "  setp.le.s32 %p0|%o127, %x124, 15;\n"
                          "  mov.u32 %r16, %x124;\n  mov.u32 %r17, %x124;\n  mov.u32 %r9, %x124;\n"
                          "  mov.u32 %r18, %x124;\n  mov.u32 %r10, %x124;\n"
                          "  @%p0 add.s32 %r0, %r16, %ofs1;\n"
                          "  ret;\n}\n";

/* The 1-based sequence number (RegNo) of the register named `name`. */
static unsigned regno(const ir_func *f, const char *name)
{
    for (unsigned i = 0; i < f->regs->len; i++)
        if (strcmp(g_array_index(f->regs, ir_reg, i).name, name) == 0)
            return i + 1;
    g_error("no register %s", name);
}

static void test_fig_2_10(void)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(ptx, -1, "fig2.10.ptx", &err);
    g_assert_no_error(err);
    ir_func *f = g_ptr_array_index(m->funcs, 0);
    g_assert_cmpuint(f->regs->len, ==, 36);
    g_assert_cmpuint(regno(f, "%p0"), ==, 31);
    g_assert_cmpuint(regno(f, "%x124"), ==, 35);
    uint32_t map[36];
    g_assert_cmpuint(regorder_func(f, map), >, 0);
    static const char *const order[] = {"%p0", "%o127", "%x124", "%r16", "%r17",
                                        "%r9", "%r18",  "%r10",  "%r0",  "%ofs1"};
    for (unsigned i = 0; i < G_N_ELEMENTS(order); i++)
        if (regno(f, order[i]) != i + 1)
            g_error("%s is #%u, want #%u", order[i], regno(f, order[i]), i + 1);
    g_assert_cmpuint(map[30], ==, 0);          /* %p0 */
    g_assert_cmpuint(map[34], ==, 2);          /* %x124 */
    g_assert_cmpuint(regno(f, "%r1"), ==, 11); /* unused: after, in the old order */
    g_assert_cmpuint(regno(f, "%r2"), ==, 12);
    g_assert_cmpuint(regno(f, "%p3"), ==, 36);
    /* the operands follow the registers */
    const ir_instr *setp = &g_array_index(f->instrs, ir_instr, 0);
    g_assert_cmpuint(setp->dst[0].u.reg, ==, 0);
    g_assert_cmpuint(setp->src[0].u.reg, ==, 2);
    for (unsigned i = 1; i <= 5; i++) {
        const ir_instr *mv = &g_array_index(f->instrs, ir_instr, i);
        g_assert_cmpuint(mv->src[0].u.reg, ==, 2);
        g_assert_cmpuint(mv->dst[0].u.reg, ==, i + 2);
    }
    const ir_instr *add = &g_array_index(f->instrs, ir_instr, 6);
    g_assert_cmpuint(add->guard, ==, 0);
    g_assert_cmpuint(add->dst[0].u.reg, ==, 8);
    g_assert_cmpuint(add->src[0].u.reg, ==, 3);
    g_assert_cmpuint(add->src[1].u.reg, ==, 9);
    /* again: already in first-use order */
    g_assert_cmpuint(regorder_func(f, NULL), ==, 0);
    ir_module_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/regorder/fig-2.10", test_fig_2_10);
    return g_test_run();
}
