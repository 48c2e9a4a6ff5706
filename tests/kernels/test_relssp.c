/* test_relssp — the relssp placement pass (kernels/passes/relssp.h; resource-sharing spec §8.2, §8.3):
 *  - the analysis on the spec's Fig. 3.7(b) CFG (BB1 -> {BB2, BB3}, BB2 -> BB4, BB3 -> BB4,
 *    BB4 -> Exit; the last shared access L2 in BB2): SafeIN(BB4) = T, SafeOUT(BB2) = T,
 *    SafeIN(BB2) = F, SafeIN(BB3) = SafeOUT(BB3) = T, SafeOUT(BB1) = F; insertion at OUT(BB2) and
 *    IN(BB3) only (not IN(BB4), not BB1);
 *  - the same CFG in PTX: relssp right after L2 and at the head of BB3 (the branch to BB3 reaches
 *    it); each of the two paths executes exactly one (walked instruction by instruction);
 *  - an if-then whose skipping edge is critical: it is split (a block with `bra`), the relssp goes
 *    into the new block and after the access; both paths execute one;
 *  - the PostDom variant on the first kernel: one relssp at the head of BB4;
 *  - a kernel without shared access gets none;
 *  - early exits (§8.3 assumes one exit): a guarded `ret` or `exit` in the middle of a block and an
 *    early `ret` in a branch, under OPT and PostDom: every path from the entry to the kernel's end
 *    (each guarded branch, ret or exit taken or not) executes exactly one relssp, and no scratchpad
 *    access after it; a kernel with one ret at its end is left as it was;
 *  - a loop whose back edge is critical: OPT splits it for the analysis, but the split block gets no
 *    relssp and is taken out again (the loop branches straight to its head: no extra branch per
 *    iteration); one relssp after the loop. */
#include <glib.h>
#include <string.h>

#include "kernels/analysis/cfg.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/passes/relssp.h"

static void test_fig_3_7b_analysis(void)
{
    enum { BB1, BB2, BB3, BB4, EXIT, N };
    static const unsigned s1[] = {BB2, BB3}, s2[] = {BB4}, s3[] = {BB4}, s4[] = {EXIT};
    const unsigned *const succ[N] = {s1, s2, s3, s4, NULL};
    const unsigned n_succ[N] = {2, 1, 1, 1, 0};
    const bool access[N] = {true, true, false, false, false}; /* L1 in BB1, L2 in BB2 */
    bool si[N], so[N], ii[N], io[N];
    relssp_cfg g = {N, EXIT, succ, n_succ, access};
    relssp_analyze(&g, si, so, ii, io);
    g_assert_true(si[BB4]);
    g_assert_true(so[BB2]);
    g_assert_false(si[BB2]);
    g_assert_true(si[BB3] && so[BB3]);
    g_assert_false(so[BB1]);
    for (unsigned b = 0; b < N; b++) {
        g_assert_cmpint(io[b], ==, b == BB2); /* pi5: right after L2 */
        g_assert_cmpint(ii[b], ==, b == BB3); /* pi7; not pi4 (IN(BB4)), not pi8 (BB1) */
    }
}

static const char head[] = ".version 7.0\n.target sm_70\n.address_size 64\n";

static ir_func *parse(const char *body, ir_module **m)
{
    GError *err = NULL;
    char *src = g_strconcat(head, body, NULL);
    *m = ptx_parse_string(src, -1, "t.ptx", &err);
    g_free(src);
    g_assert_no_error(err);
    return g_ptr_array_index((*m)->funcs, 0);
}

/* relssp executed along the path that takes (take = true) or skips each conditional branch, from the
 * entry to ret; every instruction at most 64 steps. */
static unsigned walk(const ir_func *f, bool take)
{
    unsigned count = 0;
    uint32_t pc = 0;
    for (unsigned steps = 0; steps < 64 && pc < ir_func_n_instrs(f); steps++) {
        const ir_instr *in = ir_func_instr(f, pc);
        if (in->op == IR_OP_RELSSP)
            count++;
        if (in->op == IR_OP_RET)
            return count;
        if (in->op == IR_OP_BRA && (in->guard == IR_NONE || take))
            pc = cfg_branch_target(in);
        else
            pc++;
    }
    g_error("the walk did not reach ret");
}

static const char fig37[] = ".visible .entry k(.param .u32 n)\n{\n"
                            "  .reg .pred %p;\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
                            "  ld.param.u32 %r1, [n];\n"
                            "  st.shared.u32 [s], %r1;\n" /* L1 (BB1) */
                            "  setp.eq.u32 %p, %r1, 0;\n"
                            "  @%p bra BB3;\n"
                            "  ld.shared.u32 %r2, [s+4];\n" /* L2 (BB2) */
                            "  add.u32 %r2, %r2, 1;\n"
                            "  bra BB4;\n"
                            "BB3:\n  add.u32 %r3, %r1, 1;\n"
                            "BB4:\n  ret;\n}\n";

static void test_fig_3_7b_ptx(void)
{
    ir_module *m;
    ir_func *f = parse(fig37, &m);
    uint32_t split = 99;
    g_assert_cmpuint(relssp_place_func(f, RELSSP_OPT, &split), ==, 2);
    g_assert_cmpuint(split, ==, 0);
    g_assert_cmpuint(ir_func_n_instrs(f), ==, 11);
    g_assert_cmpint(ir_func_instr(f, 4)->op, ==, IR_OP_LD);          /* L2 */
    g_assert_cmpint(ir_func_instr(f, 5)->op, ==, IR_OP_RELSSP);      /* OUT(BB2), just after L2 */
    g_assert_cmpint(ir_func_instr(f, 8)->op, ==, IR_OP_RELSSP);      /* IN(BB3) */
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 3)), ==, 8); /* the branch reaches it */
    g_assert_cmpuint(walk(f, true), ==, 1);
    g_assert_cmpuint(walk(f, false), ==, 1);
    ir_module_free(m);
}

static void test_critical_edge(void)
{
    ir_module *m;
    ir_func *f = parse(".visible .entry k(.param .u32 n)\n{\n"
                       "  .reg .pred %p;\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
                       "  ld.param.u32 %r1, [n];\n"
                       "  setp.eq.u32 %p, %r1, 0;\n"
                       "  @%p bra DONE;\n"
                       "  st.shared.u32 [s], %r1;\n"
                       "  add.u32 %r2, %r1, 1;\n"
                       "DONE:\n  ret;\n}\n",
                       &m);
    uint32_t split = 0;
    g_assert_cmpuint(relssp_place_func(f, RELSSP_OPT, &split), ==, 2);
    g_assert_cmpuint(split, ==, 1);
    g_assert_cmpint(ir_func_instr(f, 3)->op, ==, IR_OP_ST);
    g_assert_cmpint(ir_func_instr(f, 4)->op, ==, IR_OP_RELSSP);
    g_assert_cmpuint(walk(f, true), ==, 1);  /* through the split block */
    g_assert_cmpuint(walk(f, false), ==, 1); /* after the store */
    ir_module_free(m);
}

static void test_postdom(void)
{
    ir_module *m;
    ir_func *f = parse(fig37, &m);
    g_assert_cmpuint(relssp_place_func(f, RELSSP_POSTDOM, NULL), ==, 1);
    g_assert_cmpint(ir_func_instr(f, 8)->op, ==, IR_OP_RELSSP); /* the head of BB4 */
    g_assert_cmpint(ir_func_instr(f, 9)->op, ==, IR_OP_RET);
    g_assert_cmpuint(walk(f, true), ==, 1);
    g_assert_cmpuint(walk(f, false), ==, 1);
    ir_module_free(m);
}

static void test_no_shared(void)
{
    ir_module *m;
    ir_func *f = parse(".visible .entry k(.param .u64 p)\n{\n  .reg .u64 %a;\n  .reg .u32 %r;\n"
                       "  ld.param.u64 %a, [p];\n  ld.global.u32 %r, [%a];\n  st.global.u32 [%a], %r;\n"
                       "  ret;\n}\n",
                       &m);
    g_assert_cmpuint(relssp_place_func(f, RELSSP_OPT, NULL), ==, 0);
    g_assert_cmpuint(ir_func_n_instrs(f), ==, 4);
    ir_module_free(m);
}

/* Every path from pc (each guarded bra, ret or exit taken or not): *bad counts the paths that end
 * with other than one relssp or access the scratchpad after it; returns the paths walked. */
static unsigned paths(const ir_func *f, uint32_t pc, unsigned relssp, unsigned depth, unsigned *bad)
{
    g_assert_cmpuint(depth, <, 256);
    for (; pc < ir_func_n_instrs(f); pc++) {
        const ir_instr *in = ir_func_instr(f, pc);
        if (relssp && relssp_is_scratchpad_access(in))
            (*bad)++;
        relssp += in->op == IR_OP_RELSSP;
        bool leaves = in->op == IR_OP_RET || in->op == IR_OP_EXIT;
        if (!leaves && in->op != IR_OP_BRA)
            continue;
        unsigned k = in->guard != IR_NONE ? paths(f, pc + 1, relssp, depth + 1, bad) : 0; /* not taken */
        if (leaves) {
            *bad += relssp != 1;
            return k + 1;
        }
        return k + paths(f, cfg_branch_target(in), relssp, depth + 1, bad);
    }
    *bad += relssp != 1; /* falls off the end */
    return 1;
}

static const char *const early_exits[] = {
    /* a guarded ret in the middle of a block */
    ".visible .entry k(.param .u32 n)\n{\n  .reg .pred %p;\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
    "  ld.param.u32 %r1, [n];\n  st.shared.u32 [s], %r1;\n  setp.eq.u32 %p, %r1, 0;\n  @%p ret;\n"
    "  ld.shared.u32 %r2, [s+4];\n  add.u32 %r2, %r2, 1;\n  ret;\n}\n",
    /* the same with exit */
    ".visible .entry k(.param .u32 n)\n{\n  .reg .pred %p;\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
    "  ld.param.u32 %r1, [n];\n  st.shared.u32 [s], %r1;\n  setp.eq.u32 %p, %r1, 0;\n  @!%p exit;\n"
    "  ld.shared.u32 %r2, [s+4];\n  add.u32 %r2, %r2, 1;\n  exit;\n}\n",
    /* an early ret in a branch: the accesses' common post-dominator is the exit */
    ".visible .entry k(.param .u32 n)\n{\n  .reg .pred %p;\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
    "  ld.param.u32 %r1, [n];\n  st.shared.u32 [s], %r1;\n  setp.eq.u32 %p, %r1, 0;\n  @%p bra L2;\n"
    "  add.u32 %r2, %r1, 1;\n  ret;\n"
    "L2:\n  ld.shared.u32 %r2, [s+4];\n  @%p bra L3;\n  add.u32 %r2, %r2, 1;\n"
    "L3:\n  ret;\n}\n",
};

static void test_early_exit(void)
{
    for (unsigned k = 0; k < G_N_ELEMENTS(early_exits); k++)
        for (int v = RELSSP_OPT; v <= RELSSP_POSTDOM; v++) {
            ir_module *m;
            ir_func *f = parse(early_exits[k], &m);
            unsigned bad = 0;
            g_assert_cmpuint(paths(f, 0, 0, 0, &bad), >=, 2);
            g_assert_cmpuint(bad, >, 0); /* without relssp no path has one */
            g_assert_cmpuint(relssp_place_func(f, (relssp_variant)v, NULL), >=, 1);
            bad = 0;
            g_assert_cmpuint(paths(f, 0, 0, 0, &bad), >=, 2);
            if (bad)
                g_test_message("kernel %u variant %d: %u bad paths", k, v, bad);
            g_assert_cmpuint(bad, ==, 0);
            ir_module_free(m);
        }
    /* one ret at the end: not rewritten (fig37's placement above is exact) */
    ir_module *m;
    ir_func *f = parse(fig37, &m);
    g_assert_cmpuint(relssp_place_func(f, RELSSP_POSTDOM, NULL), ==, 1);
    g_assert_cmpuint(ir_func_n_instrs(f), ==, 10);
    ir_module_free(m);
}

static void test_split_loop(void)
{
    ir_module *m;
    ir_func *f =
        parse(".visible .entry k(.param .u32 n)\n{\n"
              "  .reg .pred %p;\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
              "  ld.param.u32 %r1, [n];\n"
              "LOOP:\n  ld.shared.u32 %r2, [s];\n  add.u32 %r1, %r1, -1;\n  setp.ne.u32 %p, %r1, 0;\n"
              "  @%p bra LOOP;\n"
              "  add.u32 %r3, %r2, 1;\n  ret;\n}\n",
              &m);
    uint32_t split = 99;
    g_assert_cmpuint(relssp_place_func(f, RELSSP_OPT, &split), ==, 1);
    g_assert_cmpuint(split, ==, 0);
    g_assert_cmpuint(ir_func_n_instrs(f), ==, 8);                    /* 7 + the relssp */
    g_assert_cmpuint(cfg_branch_target(ir_func_instr(f, 4)), ==, 1); /* straight to LOOP */
    g_assert_cmpint(ir_func_instr(f, 5)->op, ==, IR_OP_RELSSP);      /* after the loop */
    ir_module_free(m);
}

/* A .func that executes `exit` (a guarded one and one at the end of a path): a thread leaving there
 * never reaches its kernel's relssp (the call is a scratchpad access, so the relssp comes after it);
 * relssp_place_module puts one, guarded as the exit, before each exit of every function a kernel
 * with a relssp calls (directly or through another function), and leaves alone a function no such
 * kernel calls. */
static const char func_exit[] =
    ".func g(.param .b32 v)\n{\n  .reg .pred %p;\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [v];\n"
    "  setp.eq.u32 %p, %r1, 3;\n  @%p exit;\n  ret;\n}\n"
    ".func f(.param .b32 v)\n{\n  .reg .pred %p;\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [v];\n"
    "  setp.eq.u32 %p, %r1, 1;\n  @%p bra L;\n  {\n  .param .b32 q;\n  st.param.b32 [q], %r1;\n"
    "  call.uni g, (q);\n  }\n  ret;\nL:\n  exit;\n}\n"
    ".func unused()\n{\n  exit;\n}\n"
    ".visible .entry k(.param .u32 n)\n{\n  .reg .u32 %r<4>;\n  .shared .u32 s[64];\n"
    "  ld.param.u32 %r1, [n];\n  st.shared.u32 [s], %r1;\n  {\n  .param .b32 a;\n  st.param.b32 [a], %r1;\n"
    "  call.uni f, (a);\n  }\n  ld.shared.u32 %r2, [s+4];\n  ret;\n}\n";

static const ir_func *func_named(const ir_module *m, const char *name)
{
    for (guint i = 0; i < m->funcs->len; i++) {
        const ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!strcmp(f->name, name))
            return f;
    }
    g_error("no function %s", name);
}

static void test_func_exit(void)
{
    for (int v = RELSSP_OPT; v <= RELSSP_POSTDOM; v++) {
        ir_module *m;
        parse(func_exit, &m);
        uint32_t n_g = ir_func_n_instrs(func_named(m, "g")), n_f = ir_func_n_instrs(func_named(m, "f"));
        /* the kernel's one relssp, f's exit, g's guarded exit */
        g_assert_cmpuint(relssp_place_module(m, (relssp_variant)v), ==, 3);
        const ir_func *g = func_named(m, "g"), *f = func_named(m, "f"), *u = func_named(m, "unused");
        g_assert_cmpuint(ir_func_n_instrs(g), ==, n_g + 1);
        g_assert_cmpuint(ir_func_n_instrs(f), ==, n_f + 1);
        g_assert_cmpuint(ir_func_n_instrs(u), ==, 1);
        for (unsigned k = 0; k < 2; k++) {
            const ir_func *h = k ? f : g;
            unsigned exits = 0;
            for (uint32_t i = 0; i < ir_func_n_instrs(h); i++) {
                const ir_instr *in = ir_func_instr(h, i);
                if (in->op != IR_OP_EXIT)
                    continue;
                exits++;
                const ir_instr *r = ir_func_instr(h, i - 1);
                g_assert_cmpint(r->op, ==, IR_OP_RELSSP);
                g_assert_cmpuint(r->guard, ==, in->guard);
                g_assert_cmpuint(r->guard_neg, ==, in->guard_neg);
            }
            g_assert_cmpuint(exits, ==, 1);
        }
        /* f's branch to L reaches the relssp before its exit, not the exit alone */
        const ir_instr *br = NULL;
        for (uint32_t i = 0; i < ir_func_n_instrs(f) && !br; i++)
            if (ir_func_instr(f, i)->op == IR_OP_BRA)
                br = ir_func_instr(f, i);
        g_assert_nonnull(br);
        g_assert_cmpint(ir_func_instr(f, cfg_branch_target(br))->op, ==, IR_OP_RELSSP);
        /* the kernel: one relssp, after its last access */
        unsigned bad = 0;
        paths(func_named(m, "k"), 0, 0, 0, &bad);
        g_assert_cmpuint(bad, ==, 0);
        /* placed again: nothing more (an exit that has its relssp is left alone) */
        g_assert_cmpuint(relssp_place_func_exits((ir_func *)g), ==, 0);
        ir_module_free(m);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/relssp/fig3.7b-analysis", test_fig_3_7b_analysis);
    g_test_add_func("/relssp/early-exit", test_early_exit);
    g_test_add_func("/relssp/func-exit", test_func_exit);
    g_test_add_func("/relssp/split-loop", test_split_loop);
    g_test_add_func("/relssp/fig3.7b-ptx", test_fig_3_7b_ptx);
    g_test_add_func("/relssp/critical-edge", test_critical_edge);
    g_test_add_func("/relssp/postdom", test_postdom);
    g_test_add_func("/relssp/no-shared", test_no_shared);
    return g_test_run();
}
