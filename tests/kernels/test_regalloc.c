/* test_regalloc.c — register allocation: exact counts on hand-made functions, pairs and predicates,
 * copy coalescing, the independent checker catching bad allocations, permutations, rematerialization,
 * and the bound against ptxas over every committed kernel (kernels/ptx/<name>.ptx + .resources). */
#include "kernels/analysis/dataflow.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "tests/kernels/test_cfg_build.h"

#include <stdio.h>

static uint32_t phys(ir_func *f, uint32_t r)
{
    return g_array_index(f->regs, ir_reg, r).phys;
}

/* Three 32-bit values live together need 3 registers; a 64-bit value and a 32-bit one need 3 with
 * the pair aligned; the predicate goes to its own file. */
static void test_counts(void)
{
    ir_func *f = tb_func();
    uint32_t a = tb_reg(f, IR_T_B32), b = tb_reg(f, IR_T_B32), c = tb_reg(f, IR_T_B32), s = tb_reg(f, IR_T_B32);
    tb_movi(f, a, 1);
    tb_movi(f, b, 2);
    tb_movi(f, c, 3);
    tb_op(f, IR_OP_ADD, IR_T_S32, s, a, b);
    tb_op(f, IR_OP_ADD, IR_T_S32, s, s, c);
    tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, s, s);
    tb_ret(f);
    regalloc_result *r = regalloc_func(f);
    g_assert_cmpuint(f->n_phys_regs, ==, 3);
    g_assert_cmpuint(f->n_phys_preds, ==, 0);
    g_assert_cmpuint(r->n_slots, ==, 3);
    g_assert_cmpuint(phys(f, a) == phys(f, b) || phys(f, b) == phys(f, c) || phys(f, a) == phys(f, c), ==, 0);
    g_assert_true(regalloc_check(f, NULL));
    regalloc_result_free(r);
    tb_free(f);

    f = tb_func();
    uint32_t x = tb_reg(f, IR_T_B32), d = tb_reg(f, IR_T_U64), e = tb_reg(f, IR_T_U64), p = tb_reg(f, IR_T_PRED);
    uint32_t q = tb_reg(f, IR_T_PRED);
    tb_movi(f, x, 1);                                      /* x live ...         */
    tb_movi(f, d, 2);                                      /* d live with x      */
    tb_op(f, IR_OP_SETP, IR_T_S32, p, x, x);
    tb_op(f, IR_OP_SETP, IR_T_S32, q, x, x);
    tb_op(f, IR_OP_ADD, IR_T_U64, e, d, d);                /* d dies, e born     */
    tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, e, x);
    tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, p, q);
    tb_ret(f);
    r = regalloc_func(f);
    g_assert_cmpuint(f->n_phys_regs, ==, 3);
    g_assert_cmpuint(f->n_phys_preds, ==, 2);
    g_assert_cmpuint(phys(f, d) % 2, ==, 0);
    g_assert_cmpuint(phys(f, e) % 2, ==, 0);
    g_assert_cmpuint(phys(f, p), !=, phys(f, q));
    g_assert_true(regalloc_check(f, NULL));
    regalloc_result_free(r);
    tb_free(f);
}

/* mov b, a with a dead afterwards: the copy is coalesced (same register). */
static void test_coalesce(void)
{
    ir_func *f = tb_func();
    uint32_t a = tb_reg(f, IR_T_B32), k = tb_reg(f, IR_T_B32), b = tb_reg(f, IR_T_B32), c = tb_reg(f, IR_T_B32);
    tb_movi(f, a, 1);
    tb_movi(f, k, 7);
    tb_op(f, IR_OP_MOV, IR_T_B32, b, a, IR_NONE);
    tb_op(f, IR_OP_ADD, IR_T_S32, c, b, k);
    tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, c, k);
    tb_ret(f);
    regalloc_result *r = regalloc_func(f);
    g_assert_cmpuint(r->n_moves, ==, 1);
    g_assert_cmpuint(r->n_moves_coalesced, ==, 1);
    g_assert_cmpuint(phys(f, a), ==, phys(f, b));
    g_assert_cmpuint(f->n_phys_regs, ==, 2);
    g_assert_true(regalloc_check(f, NULL));
    regalloc_result_free(r);
    tb_free(f);
}

/* The checker is independent of the allocator: it catches a hand-made conflict, and a copy whose
 * source is redefined while the destination lives. */
static void test_check_catches(void)
{
    ir_func *f = tb_func();
    uint32_t a = tb_reg(f, IR_T_B32), b = tb_reg(f, IR_T_B32), c = tb_reg(f, IR_T_B32);
    tb_movi(f, a, 1);
    tb_op(f, IR_OP_MOV, IR_T_B32, b, a, IR_NONE);
    tb_op(f, IR_OP_ADD, IR_T_S32, a, a, a); /* a redefined while b (its copy) is live */
    tb_op(f, IR_OP_ADD, IR_T_S32, c, a, b);
    tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, c, c);
    tb_ret(f);
    regalloc_result *r = regalloc_func(f);
    g_assert_cmpuint(phys(f, a), !=, phys(f, b));
    g_assert_true(regalloc_check(f, NULL));
    g_array_index(f->regs, ir_reg, b).phys = phys(f, a);
    GError *err = NULL;
    g_assert_false(regalloc_check(f, &err));
    g_assert_error(err, REGALLOC_ERROR, REGALLOC_ERROR_INVALID);
    g_test_message("%s", err->message);
    g_clear_error(&err);
    /* misaligned pair */
    regalloc_result_free(r);
    tb_free(f);

    f = tb_func();
    uint32_t d = tb_reg(f, IR_T_B64);
    tb_movi(f, d, 1);
    tb_op(f, IR_OP_ST, IR_T_B64, IR_NONE, d, d);
    tb_ret(f);
    r = regalloc_func(f);
    g_assert_true(regalloc_check(f, NULL));
    g_array_index(f->regs, ir_reg, d).phys = 1;
    f->n_phys_regs = 3;
    g_assert_false(regalloc_check(f, &err));
    g_clear_error(&err);
    regalloc_result_free(r);
    tb_free(f);
}

/* Random functions (32-bit and 64-bit registers, predicates, copies, guarded definitions, random
 * branches): every allocation passes the independent checker, some copies are coalesced, and,
 * without copies (whose two sides may share a register while both live), the count is at least the
 * largest number of units live at once in reachable code. */
static void test_random(void)
{
    GRand *rng = g_rand_new_with_seed(11);
    uint32_t coalesced = 0, moves = 0;
    for (int iter = 0; iter < 300; iter++) {
        ir_func *f = tb_func();
        uint32_t n_instrs = g_rand_int_range(rng, 1, 60), nr = g_rand_int_range(rng, 2, 24);
        for (uint32_t r = 0; r < nr; r++)
            tb_reg(f, g_rand_boolean(rng) ? IR_T_B32 : IR_T_U64);
        uint32_t p = tb_reg(f, IR_T_PRED), q = tb_reg(f, IR_T_PRED);
        bool copies = g_rand_boolean(rng);
        for (uint32_t i = 0; i < n_instrs; i++) {
            uint32_t a = g_rand_int_range(rng, 0, nr), b = g_rand_int_range(rng, 0, nr), d = g_rand_int_range(rng, 0, nr);
            ir_type td = (ir_type)g_array_index(f->regs, ir_reg, d).type;
            switch (g_rand_int_range(rng, 0, 12)) {
            case 0: tb_ret(f); break;
            case 1: tb_bra(f, IR_NONE, g_rand_int_range(rng, 0, n_instrs + 1)); break;
            case 2: tb_bra(f, g_rand_boolean(rng) ? p : q, g_rand_int_range(rng, 0, n_instrs + 1)); break;
            case 3: tb_op(f, IR_OP_SETP, IR_T_S32, g_rand_boolean(rng) ? p : q, a, b); break;
            case 4: tb_movi(f, d, i); break;
            case 5: {
                if (!copies) {
                    tb_op(f, IR_OP_SUB, td, d, a, b);
                    break;
                }
                /* a copy between registers of one width */
                uint32_t s = a;
                for (uint32_t k = 0; k < nr; k++)
                    if (g_array_index(f->regs, ir_reg, (a + k) % nr).type == td)
                        s = (a + k) % nr;
                tb_op(f, IR_OP_MOV, td, d, s, IR_NONE);
                break;
            }
            case 6: {
                uint32_t k = tb_op(f, IR_OP_ADD, td, d, a, IR_NONE);
                ir_func_instr(f, k)->guard = p;
                break;
            }
            default: tb_op(f, IR_OP_ADD, td, d, a, b); break;
            }
        }
        tb_op(f, IR_OP_ST, IR_T_B32, IR_NONE, 0, 1);
        tb_ret(f);
        regalloc_result *r = regalloc_func(f);
        GError *err = NULL;
        if (!regalloc_check(f, &err))
            g_test_message("iteration %d: %s", iter, err->message);
        g_assert_no_error(err);
        /* lower bound: units live after any instruction */
        df_liveness *l = df_liveness_compute(f);
        df_bits **after = df_live_after_all(l);
        uint32_t peak = 0;
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            if (!cfg_reachable(f, ir_func_instr(f, i)->block))
                continue; /* values live only in dead code may share */
            uint32_t units = 0;
            for (uint32_t v = df_bits_next(after[i], 0); v != IR_NONE; v = df_bits_next(after[i], v + 1))
                units += regalloc_units((ir_type)g_array_index(f->regs, ir_reg, v).type);
            peak = MAX(peak, units);
        }
        if (!copies)
            g_assert_cmpuint(f->n_phys_regs, >=, peak);
        df_live_after_all_free(l, after);
        df_liveness_free(l);
        moves += r->n_moves;
        coalesced += r->n_moves_coalesced;
        regalloc_result_free(r);
        tb_free(f);
    }
    g_test_message("%u of %u copies coalesced", coalesced, moves);
    g_assert_cmpuint(coalesced, >, 0); /* random copies mostly join interfering registers */
    g_rand_free(rng);
}

static ir_module *parse_kernel(const char *name)
{
    const char *src = g_getenv("top_srcdir");
    char *path = g_build_filename(src ? src : ".", "kernels", "ptx", name, NULL);
    GError *err = NULL;
    ir_module *m = ptx_parse_file(path, &err);
    g_assert_no_error(err);
    g_free(path);
    return m;
}

/* A permutation that moves aligned pairs as units and shuffles the rest keeps every allocation
 * valid; one that splits a pair is refused and changes nothing. */
static void test_permute(void)
{
    ir_module *m = parse_kernel("bfs.ptx");
    GRand *rng = g_rand_new_with_seed(3);
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        ir_func *f = g_ptr_array_index(m->funcs, fi);
        regalloc_result *r = regalloc_func(f);
        g_assert_true(regalloc_check(f, NULL));
        uint32_t n = f->n_phys_regs, npairs = n / 2;
        for (int iter = 0; iter < 50; iter++) {
            uint32_t *pp = g_new(uint32_t, npairs + 1), *perm = g_new(uint32_t, n + 1);
            for (uint32_t i = 0; i < npairs; i++)
                pp[i] = i;
            for (uint32_t i = npairs; i > 1; i--) {
                uint32_t j = g_rand_int_range(rng, 0, i), t = pp[i - 1];
                pp[i - 1] = pp[j];
                pp[j] = t;
            }
            for (uint32_t p = 0; p < 2 * npairs; p++)
                perm[p] = 2 * pp[p / 2] + p % 2;
            if (n % 2)
                perm[n - 1] = n - 1;
            GError *err = NULL;
            g_assert_true(regalloc_permute(f, r, perm, &err));
            g_assert_no_error(err);
            g_assert_true(regalloc_check(f, NULL));
            g_free(pp);
            g_free(perm);
        }
        /* slot -> physical mapping follows the permutations */
        for (uint32_t v = 0; v < f->regs->len; v++) {
            const ir_reg *rg = &g_array_index(f->regs, ir_reg, v);
            if (rg->phys != IR_NONE && regalloc_units((ir_type)rg->type) > 0)
                g_assert_cmpuint(rg->phys, ==, r->order[r->slot[v]]);
        }
        /* a rotation by one breaks pairs if any 64-bit register exists */
        bool has_pair = false;
        for (uint32_t v = 0; v < f->regs->len; v++) {
            const ir_reg *rg = &g_array_index(f->regs, ir_reg, v);
            has_pair |= rg->phys != IR_NONE && regalloc_units((ir_type)rg->type) == 2;
        }
        g_assert_true(has_pair);
        uint32_t *rot = g_new(uint32_t, n + 1), *before = g_new(uint32_t, f->regs->len + 1);
        for (uint32_t p = 0; p < n; p++)
            rot[p] = (p + 1) % n;
        for (uint32_t v = 0; v < f->regs->len; v++)
            before[v] = g_array_index(f->regs, ir_reg, v).phys;
        GError *err = NULL;
        g_assert_false(regalloc_permute(f, r, rot, &err));
        g_assert_error(err, REGALLOC_ERROR, REGALLOC_ERROR_PERMUTATION);
        g_clear_error(&err);
        for (uint32_t v = 0; v < f->regs->len; v++)
            g_assert_cmpuint(before[v], ==, g_array_index(f->regs, ir_reg, v).phys);
        rot[0] = rot[1];
        g_assert_false(regalloc_permute(f, r, rot, &err)); /* not a bijection */
        g_clear_error(&err);
        g_free(rot);
        g_free(before);
        regalloc_result_free(r);
    }
    g_rand_free(rng);
    ir_module_free(m);
}

/* Rematerialization: after it, no ld.param result is live across a block boundary, the register
 * count does not grow, and the allocation checks. */
static void test_remat(void)
{
    ir_module *m = parse_kernel("srad.ptx");
    for (guint fi = 0; fi < m->funcs->len; fi++) {
        ir_func *f = g_ptr_array_index(m->funcs, fi);
        regalloc_result_free(regalloc_func(f));
        uint32_t plain = f->n_phys_regs;
        uint32_t n_before = ir_func_n_instrs(f);
        uint32_t ins = regalloc_remat(f);
        g_assert_cmpuint(ins, >, 0);
        g_assert_cmpuint(ir_func_n_instrs(f), <=, n_before + ins);
        df_liveness *l = df_liveness_compute(f);
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            const ir_instr *in = ir_func_instr(f, i);
            if (in->op != IR_OP_LD || in->space != IR_SPACE_PARAM)
                continue;
            uint32_t d = in->dst[0].u.reg;
            for (uint32_t b = 0; b < cfg_n_blocks(f); b++)
                g_assert_false(df_bits_test(df_live_in(l, b), d));
        }
        df_liveness_free(l);
        regalloc_result_free(regalloc_func(f));
        g_assert_true(regalloc_check(f, NULL));
        g_test_message("%s: %u registers plain, %u after rematerialization", f->name, plain, f->n_phys_regs);
        g_assert_cmpuint(f->n_phys_regs, <, plain);
        /* Branch targets still land on block leaders, and reconvergence points were recomputed. */
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            const ir_instr *in = ir_func_instr(f, i);
            uint32_t t = cfg_branch_target(in);
            if (t != IR_NONE && t < ir_func_n_instrs(f))
                g_assert_cmpuint(cfg_block(f, ir_func_instr(f, t)->block)->first, ==, t);
            if (in->op == IR_OP_BRA && in->reconv != IR_NONE)
                g_assert_cmpuint(cfg_block(f, cfg_ipdom(f, in->block))->first, ==, in->reconv);
        }
    }
    ir_module_free(m);
}

/* Only kernel parameters are constants: the value a call returns through a call-sequence .param is
 * not rematerialized (its ld.param stays right after the call). */
static void test_remat_call(void)
{
    const char *text =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".func (.param .b32 rv) twice(.param .b32 a)\n{\n\t.reg .b32 %r<3>;\n"
        "\tld.param.b32 %r1, [a];\n\tadd.s32 %r2, %r1, %r1;\n\tst.param.b32 [rv], %r2;\n\tret;\n}\n"
        ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<3>;\n"
        "\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [n];\n"
        "\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n\t.param .b32 r0;\n"
        "\tcall.uni (r0), twice, (p0);\n\tld.param.b32 %r2, [r0];\n\t}\n"
        "\tadd.s32 %r3, %r2, %r1;\n\tcvta.to.global.u64 %rd2, %rd1;\n\tst.global.u32 [%rd2], %r3;\n\tret;\n}\n";
    GError *err = NULL;
    ir_module *m = ptx_parse_string(text, -1, "call.ptx", &err);
    g_assert_no_error(err);
    ir_func *f = ir_module_find_func(m, "k");
    g_assert_nonnull(f);
    g_assert_cmpuint(regalloc_remat(f), >, 0);
    bool seen_call = false;
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (in->op == IR_OP_CALL) {
            seen_call = true;
            const ir_instr *next = ir_func_instr(f, i + 1);
            g_assert_cmpuint(next->op, ==, IR_OP_LD);
            g_assert_cmpuint(next->space, ==, IR_SPACE_PARAM);
            g_assert_cmpstr(g_array_index(f->regs, ir_reg, next->dst[0].u.reg).name, ==, "%r2");
        }
    }
    g_assert_true(seen_call);
    regalloc_result_free(regalloc_func(f));
    g_assert_true(regalloc_check(f, NULL));
    ir_module_free(m);
}

/* A kernel's registers with the functions it calls: at each call, what the caller keeps live across
 * it plus the callee's figure, down the call chain (k -> mid -> inner); not the maximum of the counts. */
static void test_entry_regs(void)
{
    const char *text =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".func (.param .b32 rv) inner(.param .b32 a)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n"
        "\tld.param.b32 %r1, [a];\n\tadd.s32 %r2, %r1, 1;\n\tsetp.gt.s32 %p1, %r1, 3;\n\tadd.s32 %r3, %r1, "
        "2;\n"
        "\tselp.b32 %r4, %r2, %r3, %p1;\n\tst.param.b32 [rv], %r4;\n\tret;\n}\n"
        ".func (.param .b32 rv) mid(.param .b32 a)\n{\n\t.reg .b32 %r<4>;\n\tld.param.b32 %r1, [a];\n"
        "\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n\t.param .b32 r0;\n"
        "\tcall.uni (r0), inner, (p0);\n\tld.param.b32 %r2, [r0];\n\t}\n"
        "\tadd.s32 %r3, %r2, %r1;\n\tst.param.b32 [rv], %r3;\n\tret;\n}\n"
        ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n"
        "\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [n];\n\tsetp.gt.u32 %p1, %r1, "
        "5;\n"
        "\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n\t.param .b32 r0;\n"
        "\tcall.uni (r0), mid, (p0);\n\tld.param.b32 %r2, [r0];\n\t}\n"
        "\tadd.s32 %r3, %r2, %r1;\n\t@%p1 add.s32 %r3, %r3, 1;\n\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tst.global.u32 [%rd2], %r3;\n\tret;\n}\n";
    GError *err = NULL;
    ir_module *m = ptx_parse_string(text, -1, "calls.ptx", &err);
    g_assert_no_error(err);
    ir_func *inner = ir_module_find_func(m, "inner"), *mid = ir_module_find_func(m, "mid");
    ir_func *k = ir_module_find_func(m, "k");
    for (guint i = 0; i < m->funcs->len; i++) {
        regalloc_result_free(regalloc_func(g_ptr_array_index(m->funcs, i)));
        g_assert_true(regalloc_check(g_ptr_array_index(m->funcs, i), NULL));
    }
    /* A function that calls nothing: its own count. */
    uint32_t preds;
    g_assert_cmpuint(regalloc_entry_regs(m, inner, &preds), ==, inner->n_phys_regs);
    g_assert_cmpuint(preds, ==, 1);
    /* mid keeps %r1 across its call; k keeps %rd1 (a pair), %r1 and %p1 across its call. */
    uint32_t mid_regs = regalloc_entry_regs(m, mid, &preds);
    g_assert_cmpuint(mid_regs, ==, MAX(mid->n_phys_regs, 1 + inner->n_phys_regs));
    g_assert_cmpuint(preds, ==, 1);
    uint32_t k_regs = regalloc_entry_regs(m, k, &preds);
    g_test_message("own counts: k %u, mid %u, inner %u; k with its calls %u", k->n_phys_regs,
                   mid->n_phys_regs, inner->n_phys_regs, k_regs);
    g_assert_cmpuint(k_regs, ==, MAX(k->n_phys_regs, 3 + mid_regs));
    g_assert_cmpuint(preds, ==, 2);
    g_assert_cmpuint(k_regs, >, MAX(k->n_phys_regs, MAX(mid->n_phys_regs, inner->n_phys_regs)));
    ir_module_free(m);
}

/* ---- against ptxas ---- */

static int cmp_str(gconstpointer a, gconstpointer b)
{
    return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

static void test_vs_ptxas(void)
{
    const char *src = g_getenv("top_srcdir");
    char *dir = g_build_filename(src ? src : ".", "kernels", "ptx", NULL);
    GDir *d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    const char *name;
    unsigned n_entries = 0, worst_pct = 0;
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    while ((name = g_dir_read_name(d)))
        if (g_str_has_suffix(name, ".ptx"))
            g_ptr_array_add(files, g_strdup(name));
    g_dir_close(d);
    g_ptr_array_sort(files, cmp_str);
    for (guint fi = 0; fi < files->len; fi++) {
        const char *ptx = g_ptr_array_index(files, fi);
        char *base = g_strndup(ptx, strlen(ptx) - 4);
        char *res_path = g_strdup_printf("%s/%s.resources", dir, base);
        char *text = NULL;
        if (!g_file_get_contents(res_path, &text, NULL, NULL)) {
            g_test_message("%s: no .resources, skipped", ptx);
            g_free(base);
            g_free(res_path);
            continue;
        }
        ir_module *m = parse_kernel(ptx);
        regalloc_module(m, NULL);
        char **lines = g_strsplit(text, "\n", -1);
        for (char **ln = lines; *ln; ln++) {
            char entry[256];
            unsigned regs;
            if (sscanf(*ln, "entry=%255s registers=%u", entry, &regs) != 2)
                continue;
            ir_func *f = ir_module_find_func(m, entry);
            g_assert_nonnull(f);
            g_assert_true(regalloc_check(f, NULL));
            uint32_t ours = regalloc_entry_regs(m, f, NULL);
            unsigned pct = regs ? ours * 100 / regs : 0;
            worst_pct = MAX(worst_pct, pct);
            g_test_message("%-12s %-18s ours %3u ptxas %3u (%u%%)", base, entry, ours, regs, pct);
            /* ours <= 1.25 * ptxas */
            if (ours * 4 > regs * 5)
                g_test_message("  over the bound");
            g_assert_cmpuint(ours * 4, <=, regs * 5);
            n_entries++;
        }
        g_strfreev(lines);
        g_free(text);
        ir_module_free(m);
        g_free(base);
        g_free(res_path);
    }
    g_test_message("%u entries, worst ratio %u%% of ptxas", n_entries, worst_pct);
    /* Every entry of every committed workload's .resources (17 workloads): a missing file or entry
     * would otherwise shrink the comparison silently. */
    g_assert_cmpuint(n_entries, ==, 26);
    g_ptr_array_free(files, TRUE);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/regalloc/counts", test_counts);
    g_test_add_func("/regalloc/coalesce", test_coalesce);
    g_test_add_func("/regalloc/check-catches", test_check_catches);
    g_test_add_func("/regalloc/random", test_random);
    g_test_add_func("/regalloc/permute", test_permute);
    g_test_add_func("/regalloc/remat", test_remat);
    g_test_add_func("/regalloc/remat-call", test_remat_call);
    g_test_add_func("/regalloc/entry-regs", test_entry_regs);
    g_test_add_func("/regalloc/vs-ptxas", test_vs_ptxas);
    return g_test_run();
}
