/* test_greener — the greener power-state pass (kernels/passes/greener.h; docs/greener.md):
 *  - the source's Table 4.1 truth table;
 *  - the worked example 4.2.1 (scalarProdGPU, W = 7), written as the source shows it (PTXPlus
 *    registers as keys), every encoded state compared with the source's listing;
 *  - example 4.2.2: the compiler's max over successors gives SLEEP although one path uses the
 *    register 2 instructions later;
 *  - the saturation (W) boundary: next access W instructions away -> ON, W + 1 -> SLEEP / OFF;
 *  - on parsed and allocated PTX: the encoding fields, an unallocated-write OFF, and the warp-safe
 *    liveness (a register the other side of a divergent branch still needs never goes OFF).
 */
#include <string.h>

#include "kernels/analysis/annot.h"
#include "kernels/analysis/cfg.h"
#include "kernels/passes/greener.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"

enum { P2, O127, R0, R1, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R124, OFS1, NKEYS };
static const char *const key_names[] = {"p2", "o127", "r0",  "r1",  "r5",  "r6",  "r7",   "r8",
                                        "r9", "r10",  "r11", "r12", "r13", "r14", "r124", "ofs1"};

/* One line of the example: encoded destination (or -1), encoded sources (or -1), other registers
 * read (addresses), other registers written, successors, and the source's states. */
typedef struct {
    int dst, src0, src1, src2; /* src2: a third source (not encoded) */
    int addr;                  /* an address register (not encoded) */
    int dst2;                  /* a second destination (not encoded) */
    int succ0, succ1;          /* -1: fall through to the next line; -2: none */
    const char *expect;        /* the source's list: "ON SLEEP ON" (destination first) */
} ex_line;

/* Lines 1..24 of the source's Example 4.2.1 (node = line - 1), then an exit node 24. */
static const ex_line ex[] = {
    /* 1 B4: set.le p2/o127, r8, r0 */ {P2, R8, R0, -1, -1, O127, -1, -2, "ON SLEEP ON"},
    /* 2 ssy */ {-1, -1, -1, -1, -1, -1, -1, -2, ""},
    /* 3 mov r1, r0 */ {R1, R0, -1, -1, -1, -1, -1, -2, "SLEEP ON"},
    /* 4 @p2 bra B8 */ {-1, P2, -1, -1, -1, -1, 17, -1, ""},
    /* 5 B5: shl r10, r0 */ {R10, R0, -1, -1, -1, -1, -1, -2, "ON SLEEP"},
    /* 6 mov r12, r124 */ {R12, R124, -1, -1, -1, -1, -1, -2, "ON SLEEP"},
    /* 7 add r11, s[], r10 */ {R11, R10, -1, -1, -1, -1, -1, -2, "ON ON"},
    /* 8 add r10, s[], r10 */ {R10, R10, -1, -1, -1, -1, -1, -2, "ON ON"},
    /* 9 B6: ld r14, [r11] */ {R14, -1, -1, -1, R11, -1, -1, -2, "ON"},
    /* 10 ld r13, [r10] */ {R13, -1, -1, -1, R10, -1, -1, -2, "ON"},
    /* 11 mad r12, r14, r13, r12 */ {R12, R14, R13, R12, -1, -1, -1, -2, "SLEEP OFF OFF"},
    /* 12 add r1, r1 */ {R1, R1, -1, -1, -1, -1, -1, -2, "ON ON"},
    /* 13 set.gt p2/o127, r8, r1 */ {P2, R8, R1, -1, -1, O127, -1, -2, "ON SLEEP SLEEP"},
    /* 14 add r10, r10 */ {R10, R10, -1, -1, -1, -1, -1, -2, "SLEEP SLEEP"},
    /* 15 add r11, r11 */ {R11, R11, -1, -1, -1, -1, -1, -2, "SLEEP SLEEP"},
    /* 16 @p2 bra B6 */ {-1, P2, -1, -1, -1, -1, 8, -1, ""},
    /* 17 B7: bra B9 */ {-1, -1, -1, -1, -1, -1, 18, -2, ""},
    /* 18 B8: mov r12, r124 */ {R12, R124, -1, -1, -1, -1, -1, -2, "ON SLEEP"},
    /* 19 B9: add r0, r0, r5 */ {R0, R0, R5, -1, -1, -1, -1, -2, "ON ON SLEEP"},
    /* 20 shl ofs1, r9 */ {OFS1, R9, -1, -1, -1, -1, -1, -2, "ON ON"},
    /* 21 set.le p2/o127, r0, r6 */ {P2, R0, R6, -1, -1, O127, -1, -2, "ON SLEEP SLEEP"},
    /* 22 mov s[ofs1], r12 */ {-1, R12, -1, -1, OFS1, -1, -1, -2, "OFF"},
    /* 23 add r9, r9, r7 */ {R9, R9, R7, -1, -1, -1, -1, -2, "SLEEP SLEEP SLEEP"},
    /* 24 @p2 bra B4 */ {-1, P2, -1, -1, -1, -1, 0, -1, ""},
};
#define NEX ((uint32_t)G_N_ELEMENTS(ex))

static void acc(greener_node *nd, int key, bool write)
{
    if (key >= 0)
        nd->acc[nd->n_acc++] = (greener_acc){(uint32_t)key, write, write};
}

static greener_node *example_nodes(void)
{
    greener_node *nodes = g_new0(greener_node, NEX + 1);
    for (uint32_t i = 0; i < NEX; i++) {
        greener_node *nd = &nodes[i];
        acc(nd, ex[i].dst, true);
        acc(nd, ex[i].dst2, true);
        acc(nd, ex[i].src0, false);
        acc(nd, ex[i].src1, false);
        acc(nd, ex[i].src2, false);
        acc(nd, ex[i].addr, false);
        if (ex[i].succ0 >= 0)
            nd->succ[nd->n_succ++] = (uint32_t)ex[i].succ0;
        if (ex[i].succ0 == -1 || ex[i].succ1 == -1)
            nd->succ[nd->n_succ++] = i + 1;
        nd->reconv = IR_NONE;
    }
    nodes[NEX].exit = true; /* the code after B9 (not shown in the source): the exit here */
    nodes[NEX].reconv = IR_NONE;
    return nodes;
}

/* The encoded states of line i as "ON SLEEP OFF". */
static char *line_states(const greener_result *r, const greener_node *nodes, uint32_t i)
{
    GString *s = g_string_new(NULL);
    int enc[3] = {ex[i].dst, ex[i].src0, ex[i].src1};
    if (ex[i].succ1 == -1 || ex[i].succ0 == 17 || ex[i].succ0 == 18)
        enc[1] = -1; /* branches: the source lists no state for the guard */
    for (unsigned k = 0; k < 3; k++)
        if (enc[k] >= 0)
            g_string_append_printf(s, "%s%s", s->len ? " " : "",
                                   greener_state_name(greener_power(r, nodes, i, (uint32_t)enc[k])));
    return g_string_free(s, FALSE);
}

static void test_table41(void)
{
    g_assert_cmpint(greener_table(true, true), ==, GREENER_SLEEP);
    g_assert_cmpint(greener_table(true, false), ==, GREENER_ON);
    g_assert_cmpint(greener_table(false, true), ==, GREENER_OFF);
    g_assert_cmpint(greener_table(false, false), ==, GREENER_ON);
}

/* Every encoded state of the 24 lines equals the source's listing, and the §16 figures. */
static void test_example_421(void)
{
    greener_node *nodes = example_nodes();
    greener_result *r = greener_analyze(nodes, NEX + 1, NKEYS, 7);
    for (uint32_t i = 0; i < NEX; i++) {
        char *got = line_states(r, nodes, i);
        if (strcmp(got, ex[i].expect) != 0)
            g_test_message("line %u: got '%s', source '%s'", i + 1, got, ex[i].expect);
        g_assert_cmpstr(got, ==, ex[i].expect);
        g_free(got);
    }
    /* §16.10: r0 ON, p2 ON, r8 SLEEP at line 1; r13 OFF at line 11 */
    g_assert_cmpint(greener_power(r, nodes, 0, R0), ==, GREENER_ON);
    g_assert_cmpint(greener_power(r, nodes, 0, P2), ==, GREENER_ON);
    g_assert_cmpint(greener_power(r, nodes, 0, R8), ==, GREENER_SLEEP);
    g_assert_cmpint(greener_power(r, nodes, 10, R13), ==, GREENER_OFF);
    g_assert_true(greener_live_out(r, 0, R8));
    g_assert_true(greener_dist_inf(r, 0, R8));
    g_assert_false(greener_dist_inf(r, 0, R0));
    greener_result_free(r);
    g_free(nodes);
}

/* Example 4.2.2: S0 writes r0; S0 -> S10 -> S11 reads r0 (distance 2); S0 -> S1 .. S9 reads r0 in
 * S9 (> W). Max over the successors: SLEEP. */
static void test_example_422(void)
{
    enum { N = 13 };
    greener_node nodes[N];
    memset(nodes, 0, sizeof nodes);
    for (uint32_t i = 0; i < N; i++)
        nodes[i].reconv = IR_NONE;
    nodes[0].acc[nodes[0].n_acc++] = (greener_acc){0, true, true};
    nodes[0].succ[0] = 10;
    nodes[0].succ[1] = 1;
    nodes[0].n_succ = 2;
    for (uint32_t i = 1; i <= 8; i++)
        nodes[i].succ[nodes[i].n_succ++] = i + 1;
    nodes[9].acc[nodes[9].n_acc++] = (greener_acc){0, false, false};
    nodes[9].succ[nodes[9].n_succ++] = 12;
    nodes[10].succ[nodes[10].n_succ++] = 11;
    nodes[11].acc[nodes[11].n_acc++] = (greener_acc){0, false, false};
    nodes[11].succ[nodes[11].n_succ++] = 12;
    nodes[12].exit = true;
    greener_result *r = greener_analyze(nodes, N, 1, 3);
    g_assert_cmpint(greener_power(r, nodes, 0, 0), ==, GREENER_SLEEP);
    g_assert_cmpint(greener_power(r, nodes, 10, 0), ==, GREENER_ON); /* the short path's own view */
    greener_result_free(r);
}

/* A chain: write at node 0, the next access at node d (distance d from OUT(0)); W = 3. */
static greener_state chain_state(uint32_t d, bool next_is_read, unsigned W)
{
    greener_node nodes[16];
    memset(nodes, 0, sizeof nodes);
    for (uint32_t i = 0; i < 16; i++) {
        nodes[i].reconv = IR_NONE;
        if (i + 1 < 16)
            nodes[i].succ[nodes[i].n_succ++] = i + 1;
        else
            nodes[i].exit = true;
    }
    nodes[0].acc[nodes[0].n_acc++] = (greener_acc){0, true, true};
    nodes[d].acc[nodes[d].n_acc++] = (greener_acc){0, !next_is_read, !next_is_read};
    if (!next_is_read) /* read later so the second write's value is used */
        nodes[15].acc[nodes[15].n_acc++] = (greener_acc){0, false, false};
    greener_result *r = greener_analyze(nodes, 16, 1, W);
    greener_state s = greener_power(r, nodes, 0, 0);
    greener_result_free(r);
    return s;
}

static void test_threshold(void)
{
    g_assert_cmpint(chain_state(3, true, 3), ==, GREENER_ON);    /* distance W */
    g_assert_cmpint(chain_state(4, true, 3), ==, GREENER_SLEEP); /* W + 1, a read */
    g_assert_cmpint(chain_state(4, false, 3), ==, GREENER_OFF);  /* W + 1, a write */
    g_assert_cmpint(chain_state(1, false, 3), ==, GREENER_ON);   /* dead but near */
    g_assert_cmpint(chain_state(7, true, 7), ==, GREENER_ON);
    g_assert_cmpint(chain_state(8, true, 7), ==, GREENER_SLEEP);
}

/* A loop without an exit never reaches a fixed point above the bottom: read as inf. A loop whose
 * body does not touch R: Dist saturates (inf), not a wrong small value. */
static void test_loop(void)
{
    greener_node nodes[6];
    memset(nodes, 0, sizeof nodes);
    for (uint32_t i = 0; i < 6; i++)
        nodes[i].reconv = IR_NONE;
    nodes[0].acc[nodes[0].n_acc++] = (greener_acc){0, true, true}; /* write R */
    nodes[0].succ[nodes[0].n_succ++] = 1;
    nodes[1].succ[nodes[1].n_succ++] = 2;
    nodes[2].succ[nodes[2].n_succ++] = 1; /* loop 1..2 without R */
    nodes[2].succ[nodes[2].n_succ++] = 3;
    nodes[3].acc[nodes[3].n_acc++] = (greener_acc){0, false, false}; /* read R */
    nodes[3].succ[nodes[3].n_succ++] = 4;
    nodes[4].exit = true;
    greener_result *r = greener_analyze(nodes, 5, 1, 3);
    /* via the loop the next read is arbitrarily far: inf, live -> SLEEP */
    g_assert_cmpint(greener_power(r, nodes, 0, 0), ==, GREENER_SLEEP);
    g_assert_cmpint(greener_power(r, nodes, 3, 0), ==, GREENER_OFF);
    greener_result_free(r);
}

static const char ptx_div[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out)\n{\n"
                              "  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<4>;\n"
                              "  ld.param.u64 %rd1, [out];\n"
                              "  mov.u32 %r1, %tid.x;\n"
                              "  ld.global.u32 %r2, [%rd1];\n"
                              "  setp.lt.u32 %p1, %r1, 16;\n"
                              "  @%p1 bra THEN;\n"
                              "  add.u32 %r3, %r2, 1;\n" /* else side: last use of r2 per thread */
                              "  bra.uni JOIN;\n"
                              "THEN:\n"
                              "  add.u32 %r3, %r2, 2;\n" /* then side: also reads r2 */
                              "JOIN:\n"
                              "  mul.wide.u32 %rd2, %r1, 4;\n"
                              "  add.u64 %rd3, %rd1, %rd2;\n"
                              "  st.global.u32 [%rd3], %r3;\n"
                              "  ret;\n}\n";

/* On real PTX: the encoding fields and the warp-safe rule. r2 is read once on each side of the
 * divergent branch: per thread it dies at either read, but the warp runs the other side after, so
 * the side run first must not turn it OFF. */
static void test_ptx(void)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(ptx_div, -1, "div.ptx", &err);
    g_assert_no_error(err);
    regalloc_module(m, NULL);
    ir_func *f = g_ptr_array_index(m->funcs, 0);
    cfg_build(f);
    cfg_compute_reconvergence(f);
    greener_pass(f, 3);
    unsigned else_add = IR_NONE, then_add = IR_NONE, store = IR_NONE;
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (in->op == IR_OP_ADD && in->type == IR_T_U32)
            else_add == IR_NONE ? (else_add = i) : (then_add = i);
        if (in->op == IR_OP_ST)
            store = i;
    }
    g_assert_cmpuint(then_add, !=, IR_NONE);
    g_assert_cmpuint(store, !=, IR_NONE);
    greener_state d, s0, s1;
    g_assert_true(greener_encoded(ir_func_instr(f, else_add), &d, &s0, &s1));
    g_assert_cmpint(s0, !=, GREENER_OFF);  /* the else side runs while THEN's lanes still need r2 */
    g_assert_cmpint(s1, ==, GREENER_NONE); /* an immediate: no second register source */
    g_assert_true(greener_encoded(ir_func_instr(f, then_add), &d, &s0, &s1));
    g_assert_cmpint(s0, !=, GREENER_OFF);
    /* the store: its data (the first register source) is never read again -> OFF; the address is
     * not encoded (SLEEP in the hardware's list) */
    g_assert_true(greener_encoded(ir_func_instr(f, store), &d, &s0, &s1));
    g_assert_cmpint(d, ==, GREENER_NONE);
    g_assert_cmpint(s0, ==, GREENER_OFF);
    greener_reg regs[16];
    unsigned n = greener_instr_regs(f, ir_func_instr(f, store), false, regs, 16);
    g_assert_cmpuint(n, ==, 3); /* the 64-bit address pair and the data */
    unsigned n_off = 0, n_sleep = 0;
    for (unsigned i = 0; i < n; i++) {
        g_assert_cmpint(regs[i].after_write, ==, GREENER_NONE);
        n_off += regs[i].after_read == GREENER_OFF;
        n_sleep += regs[i].after_read == GREENER_SLEEP;
    }
    g_assert_cmpuint(n_off, ==, 1);
    g_assert_cmpuint(n_sleep, ==, 2);
    /* Sleep-Reg: every access -> SLEEP */
    n = greener_instr_regs(f, ir_func_instr(f, store), true, regs, 16);
    for (unsigned i = 0; i < n; i++)
        g_assert_cmpint(regs[i].after_read, ==, GREENER_SLEEP);
    /* the printer */
    GString *s = g_string_new(NULL);
    greener_print_states(s, ir_func_instr(f, store));
    g_assert_cmpstr(s->str, ==, "  // power OFF");
    g_string_free(s, TRUE);
    ir_module_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    (void)key_names;
    g_test_add_func("/greener/table41", test_table41);
    g_test_add_func("/greener/example421", test_example_421);
    g_test_add_func("/greener/example422", test_example_422);
    g_test_add_func("/greener/threshold", test_threshold);
    g_test_add_func("/greener/loop", test_loop);
    g_test_add_func("/greener/ptx", test_ptx);
    return g_test_run();
}
