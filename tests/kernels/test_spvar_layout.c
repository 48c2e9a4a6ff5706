/* test_spvar_layout — the shared-variable layout analysis (kernels/passes/spvar_layout.h; resource-sharing
 * spec §8.4):
 *  - the spec's Table 3.1 on its reconstructed CFG (Entry -> BB1 -> BB2 -> BB3, BB3 -> BB2,
 *    BB3 -> BB4 -> BB5 -> BB6 -> Exit; A accessed in BB1 and BB4, B in BB2, C in BB5 and BB6): every
 *    AccIN / AccOUT entry of {A}, {B}, {C}, {A,B}, {B,C}, {C,A}, exactly; {A,B} has 6 program points
 *    in its range, {B,C} 9, {C,A} 10, so with equal sizes {A,B} goes to the shared region (Example
 *    3.2.3);
 *  - the selection: sets below the needed bytes are never chosen, ties go to the least overshoot;
 *  - on a PTX kernel with three equal variables where one is used only in a short stretch (the
 *    others across a loop): that one is chosen when one third must be shared; a variable reached
 *    through a register (mov of its address, add) counts as accessed;
 *  - the layout applied (spvar_layout_apply): a kernel declaring a large variable before two small
 *    ones, the large one used briefly, the small ones across a loop: at t = 1/10 of its 2000 bytes
 *    (R_tb 0 or 7000) the small ones are placed first and the loader puts them below t x R_tb, the
 *    large one after them; their accesses are annotated private, so relssp goes right after the
 *    large one's last access instead of after the loop; without the pass the loader keeps the
 *    declaration order; a variable that does not fit the private region is not placed there. */
#include <glib.h>
#include <string.h>

#include "kernels/frontend/ptx_parse.h"
#include "kernels/passes/relssp.h"
#include "kernels/run/fmem.h"
#include "kernels/run/kload.h"
#include "kernels/passes/spvar_layout.h"

enum { ENTRY, BB1, BB2, BB3, BB4, BB5, BB6, EXIT, N };
enum { A = 1, B = 2, C = 4 };

static const unsigned s_entry[] = {BB1}, s1[] = {BB2}, s2[] = {BB3}, s3[] = {BB2, BB4}, s4[] = {BB5},
                      s5[] = {BB6}, s6[] = {EXIT};
static const unsigned *const succ[N] = {s_entry, s1, s2, s3, s4, s5, s6, NULL};
static const unsigned n_succ[N] = {1, 1, 1, 2, 1, 1, 1, 0};
static const uint32_t access[N] = {0, A, B, 0, A, C, C, 0};

/* Table 3.1, "t"/"f" per row: IN A B C | OUT A B C | IN AB BC CA | OUT AB BC CA */
static const char *const table[N] = {
    "fff fff fff fff", /* Entry */
    "fff tff fff tft", /* BB1 */
    "ttf ttf ttt ttt", /* BB2 */
    "ttf ttf ttt ttt", /* BB3 */
    "tff fff ttt ftt", /* BB4 */
    "fff fft ftt ftt", /* BB5 */
    "fft fff ftt fff", /* BB6 */
    "fff fff fff fff", /* Exit */
};

static void test_table_3_1(void)
{
    spvar_cfg g = {N, ENTRY, EXIT, succ, n_succ, access};
    uint32_t pi[N], po[N], qi[N], qo[N];
    spvar_flow fl = {pi, po, qi, qo};
    spvar_analyze(&g, &fl);
    static const uint32_t singles[3] = {A, B, C}, pairs[3] = {A | B, B | C, C | A};
    for (unsigned b = 0; b < N; b++) {
        const char *row = table[b];
        for (unsigned k = 0; k < 3; k++) {
            if (spvar_acc_in(&fl, singles[k], b) != (row[k] == 't'))
                g_error("block %u: AccIN of variable %u", b, k);
            if (spvar_acc_out(&fl, singles[k], b) != (row[4 + k] == 't'))
                g_error("block %u: AccOUT of variable %u", b, k);
            if (spvar_acc_in(&fl, pairs[k], b) != (row[8 + k] == 't'))
                g_error("block %u: AccIN of pair %u", b, k);
            if (spvar_acc_out(&fl, pairs[k], b) != (row[12 + k] == 't'))
                g_error("block %u: AccOUT of pair %u", b, k);
        }
    }
    g_assert_cmpuint(spvar_range_points(&g, &fl, A | B), ==, 6);
    g_assert_cmpuint(spvar_range_points(&g, &fl, B | C), ==, 9);
    g_assert_cmpuint(spvar_range_points(&g, &fl, C | A), ==, 10);
    /* equal sizes, two of three to share: {A, B} */
    uint64_t size[3] = {100, 100, 100}, cost[8];
    for (uint32_t s = 0; s < 8; s++)
        cost[s] = spvar_range_points(&g, &fl, s);
    g_assert_cmphex(spvar_select(3, size, cost, 200), ==, A | B);
}

static void test_select(void)
{
    uint64_t size[3] = {100, 300, 50};
    uint64_t cost[8] = {0, 1, 5, 6, 1, 2, 6, 7};
    /* need 120 bytes: {0} (100) and {2} (50) are too small despite their cost 1 */
    g_assert_cmphex(spvar_select(3, size, cost, 120), ==, 0x5); /* {0, 2}: 150 B, cost 2 */
    cost[0x5] = 6;
    g_assert_cmphex(spvar_select(3, size, cost, 120), ==, 0x2); /* {1}: cost 5 */
    cost[0x5] = 5;
    g_assert_cmphex(spvar_select(3, size, cost, 120), ==, 0x5); /* equal cost: the least overshoot */
    g_assert_cmphex(spvar_select(3, size, cost, 1000), ==, 0);  /* none reaches it */
}

static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                          ".visible .entry k(.param .u32 n)\n{\n"
                          "  .reg .pred %p;\n  .reg .u32 %r<8>;\n"
                          "  .shared .align 4 .b8 va[256];\n  .shared .align 4 .b8 vb[256];\n"
                          "  .shared .align 4 .b8 vc[256];\n"
                          "  ld.param.u32 %r1, [n];\n"
                          "  st.shared.u32 [va], %r1;\n"
                          "  mov.u32 %r5, vb;\n"
                          "  add.u32 %r6, %r5, 8;\n"
                          "  st.shared.u32 [%r6], %r1;\n"
                          "LOOP:\n"
                          "  ld.shared.u32 %r2, [va+4];\n"
                          "  ld.shared.u32 %r3, [%r6];\n"
                          "  add.u32 %r1, %r1, -1;\n"
                          "  setp.ne.u32 %p, %r1, 0;\n"
                          "  @%p bra LOOP;\n"
                          "  st.shared.u32 [vc], %r2;\n"
                          "  ld.shared.u32 %r4, [vc+4];\n"
                          "  add.u32 %r4, %r4, %r3;\n"
                          "  add.u32 %r4, %r4, 1;\n"
                          "  ret;\n}\n";

static void test_kernel(void)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(ptx, -1, "k.ptx", &err);
    g_assert_no_error(err);
    ir_func *f = g_ptr_array_index(m->funcs, 0);
    uint32_t syms[SPVAR_MAX_VARS];
    unsigned n = 0;
    uint32_t set = spvar_layout_func(m, f, 1, 3, syms, &n); /* one third shared */
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmpstr(g_array_index(m->syms, ir_sym, syms[2]).name, ==, "vc");
    g_assert_cmphex(set, ==, 0x4);                 /* vc: used in two instructions after the loop */
    set = spvar_layout_func(m, f, 2, 3, syms, &n); /* two thirds: vc and one of the loop's */
    g_assert_true(set & 0x4);
    g_assert_cmpuint(__builtin_popcount(set), ==, 2);
    ir_module_free(m);
}

static const char *const ptx3 = ".version 7.0\n.target sm_70\n.address_size 64\n"
                                ".visible .entry k(.param .u32 n)\n{\n"
                                "  .reg .pred %p;\n  .reg .b32 %r<8>;\n"
                                "  .shared .align 4 .b8 big[1800];\n"
                                "  .shared .align 4 .b8 sa[100];\n"
                                "  .shared .align 4 .b8 sb[100];\n"
                                "  ld.param.u32 %r1, [n];\n"
                                "  st.shared.u32 [big], %r1;\n"   /* 1 */
                                "  ld.shared.u32 %r4, [big+4];\n" /* 2: big's last access */
                                "  mov.u32 %r5, sa;\n"
                                "  st.shared.u32 [%r5], %r1;\n" /* 4 */
                                "  st.shared.u32 [sb], %r1;\n"
                                "LOOP:\n"
                                "  ld.shared.u32 %r2, [sa+4];\n"
                                "  ld.shared.u32 %r3, [sb+8];\n"
                                "  add.u32 %r1, %r1, -1;\n"
                                "  setp.ne.u32 %p, %r1, 0;\n"
                                "  @%p bra LOOP;\n"
                                "  add.u32 %r4, %r4, %r3;\n"
                                "  ret;\n}\n";

/* The loader's offset of variable name in m. */
static uint64_t offset_of(ir_module *m, const char *name)
{
    fmem *mem = fmem_new();
    GString *err = g_string_new(NULL);
    kload_module *k = kload_module_new(m, mem, err);
    g_assert_nonnull(k);
    uint64_t off = UINT64_MAX;
    for (guint s = 0; s < m->syms->len; s++)
        if (strcmp(g_array_index(m->syms, ir_sym, s).name, name) == 0)
            off = g_array_index(m->syms, ir_sym, s).offset;
    kload_module_free(k);
    g_string_free(err, TRUE);
    fmem_free(mem);
    g_assert_cmpuint(off, !=, UINT64_MAX);
    return off;
}

/* After relssp's OPT pass (one relssp): the scratchpad accesses that precede it in the code. */
static unsigned accesses_before_relssp(ir_module *m)
{
    ir_func *f = g_ptr_array_index(m->funcs, 0);
    g_assert_cmpuint(relssp_place_func(f, RELSSP_OPT, NULL), ==, 1);
    unsigned k = 0;
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        if (ir_func_instr(f, i)->op == IR_OP_RELSSP)
            return k;
        k += relssp_is_scratchpad_access(ir_func_instr(f, i));
    }
    g_assert_not_reached();
}

static void test_apply(void)
{
    GError *err = NULL;
    /* without the pass: declaration order, every access shared, relssp after the loop */
    ir_module *m = ptx_parse_string(ptx3, -1, "k.ptx", &err);
    g_assert_no_error(err);
    g_assert_cmpuint(offset_of(m, "big"), ==, 0);
    g_assert_cmpuint(offset_of(m, "sa"), ==, 1800);
    g_assert_cmpuint(offset_of(m, "sb"), ==, 1900);
    ir_func *f = g_ptr_array_index(m->funcs, 0);
    g_assert_true(relssp_is_shared_access(ir_func_instr(f, 7)));
    g_assert_cmpuint(accesses_before_relssp(m), ==, 6); /* after the loop */
    ir_module_free(m);
    static const uint64_t r_tb[] = {0, 7000};
    for (unsigned r = 0; r < G_N_ELEMENTS(r_tb); r++) {
        m = ptx_parse_string(ptx3, -1, "k.ptx", &err);
        g_assert_no_error(err);
        g_assert_cmpuint(spvar_layout_apply(m, 1, 10, r_tb[r]), ==, 2);
        /* t x R_tb = 200 (700): sa and sb below it, big after them */
        g_assert_cmpuint(offset_of(m, "sa"), ==, 0);
        g_assert_cmpuint(offset_of(m, "sb"), ==, 100);
        g_assert_cmpuint(offset_of(m, "sb") + 100, <=, 200);
        g_assert_cmpuint(offset_of(m, "big"), ==, 200);
        f = g_ptr_array_index(m->funcs, 0);
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            const ir_instr *in = ir_func_instr(f, i);
            bool scratch = relssp_is_scratchpad_access(in);
            g_assert_true(scratch == (i == 1 || i == 2 || i == 4 || i == 5 || i == 6 || i == 7));
            g_assert_true(relssp_is_shared_access(in) == (i == 1 || i == 2)); /* big's only */
        }
        g_assert_cmpuint(accesses_before_relssp(m), ==, 2); /* right after big's last access */
        ir_module_free(m);
    }
    /* t = 1/20 of 2000: 100 private bytes: big and one small variable shared, the other private */
    m = ptx_parse_string(ptx3, -1, "k.ptx", &err);
    g_assert_no_error(err);
    g_assert_cmpuint(spvar_layout_apply(m, 1, 20, 0), ==, 1);
    uint64_t a = offset_of(m, "sa"), b = offset_of(m, "sb");
    g_assert_true(MIN(a, b) == 0 && MAX(a, b) >= 100);
    g_assert_cmpuint(offset_of(m, "big"), >=, 100);
    ir_module_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/spvar_layout/table3.1", test_table_3_1);
    g_test_add_func("/spvar_layout/select", test_select);
    g_test_add_func("/spvar_layout/kernel", test_kernel);
    g_test_add_func("/spvar_layout/apply", test_apply);
    return g_test_run();
}
