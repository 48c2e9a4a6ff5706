/* test_ptx_parse.c — the PTX front end on well-formed input: declarations, parameters, scopes,
 * calls, labels, initialisers, immediates, every instruction family, and print/parse round trips of
 * every committed PTX file; `!%p` on .pred sources through ir_exec and frun; operand type pairs ptxas
 * accepts. */
#include "kernels/run/frun.h"
#include "kernels/semantics/ir_exec.h"
#include "kernels/frontend/ptx_parse.h"

#include <string.h>

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

static ir_module *parse_ok(const char *text)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(text, -1, "test.ptx", &err);
    if (!m)
        g_test_message("parse error: %s\ninput:\n%s", err->message, text);
    g_assert_no_error(err);
    g_assert_nonnull(m);
    return m;
}

static char *print_module(const ir_module *m)
{
    GString *s = g_string_new(NULL);
    ir_print_module(s, m);
    return g_string_free(s, FALSE);
}

static const ir_sym *find_sym(const ir_module *m, const ir_func *f, const char *name)
{
    uint32_t fi = f ? ir_module_func_index(m, f->name) : IR_NONE;
    uint32_t i = ir_module_find_sym(m, fi, name);
    g_assert_cmpuint(i, !=, IR_NONE);
    return &g_array_index(m->syms, ir_sym, i);
}

/* ---- declarations ------------------------------------------------------------------------------ */
static void test_struct_param_offsets(void)
{
    ir_module *m = parse_ok(HEADER
                            ".visible .entry k(\n"
                            "\t.param .u64 k_param_0,\n"
                            "\t.param .u32 k_param_1,\n"
                            "\t.param .align 8 .b8 k_param_2[16],\n"
                            "\t.param .u8 k_param_3,\n"
                            "\t.param .align 4 .b8 k_param_4[6],\n"
                            "\t.param .f64 k_param_5,\n"
                            "\t.param .u64 .ptr .global .align 16 k_param_6,\n"
                            "\t.param .u64 .ptr.shared.align 8 k_param_7\n"
                            ")\n{\n\tret;\n}\n");
    ir_func *f = ir_module_find_func(m, "k");
    g_assert_nonnull(f);
    g_assert_true(f->is_entry);
    g_assert_true(f->is_visible);
    g_assert_cmpuint(f->params->len, ==, 8);
    static const uint64_t off[] = { 0, 8, 16, 32, 36, 48 }, size[] = { 8, 4, 16, 1, 6, 8 };
    static const uint32_t align[] = { 8, 4, 8, 1, 4, 8 };
    for (unsigned i = 0; i < 6; i++) {
        ir_param *p = &g_array_index(f->params, ir_param, i);
        g_assert_cmpuint(p->offset, ==, off[i]);
        g_assert_cmpuint(p->size, ==, size[i]);
        g_assert_cmpuint(p->align, ==, align[i]);
        g_assert_cmpuint(p->sym, !=, IR_NONE);
        const ir_sym *s = &g_array_index(m->syms, ir_sym, p->sym);
        g_assert_cmpstr(s->name, ==, p->name);
        g_assert_cmpuint(s->space, ==, IR_SPACE_PARAM);
        g_assert_cmpuint(s->offset, ==, off[i]);
    }
    g_assert_cmpuint(g_array_index(f->params, ir_param, 2).type, ==, IR_T_B8);
    g_assert_cmpuint(g_array_index(f->params, ir_param, 7).offset, ==, 64);
    g_assert_cmpuint(f->param_bytes, ==, 72);
    ir_module_free(m);
}

static void test_reg_vector_decl(void)
{
    ir_module *m = parse_ok(HEADER ".entry k()\n{\n\t.reg .b32 %r<32>;\n\t.reg .pred %p<3>;\n\t.reg .f64 %fd1, %x;\n"
                                   "\tmov.b32 %r31, %r0;\n\tret;\n}\n");
    ir_func *f = ir_module_find_func(m, "k");
    g_assert_cmpuint(f->regs->len, ==, 32 + 3 + 2);
    g_assert_cmpuint(ir_func_find_reg(f, "%r0"), ==, 0);
    g_assert_cmpuint(ir_func_find_reg(f, "%r31"), ==, 31);
    g_assert_cmpuint(ir_func_find_reg(f, "%r32"), ==, IR_NONE);
    g_assert_cmpuint(ir_func_find_reg(f, "%p2"), ==, 34);
    g_assert_cmpuint(g_array_index(f->regs, ir_reg, 34).type, ==, IR_T_PRED);
    g_assert_cmpuint(g_array_index(f->regs, ir_reg, 36).type, ==, IR_T_F64);
    g_assert_cmpuint(g_array_index(f->regs, ir_reg, 5).phys, ==, IR_NONE);
    ir_instr *in = ir_func_instr(f, 0);
    g_assert_cmpuint(in->dst[0].u.reg, ==, 31);
    g_assert_cmpuint(in->src[0].u.reg, ==, 0);
    ir_module_free(m);
}

static void test_labels(void)
{
    ir_module *m = parse_ok(HEADER ".entry k()\n{\n\t.reg .pred %p<2>;\n"
                                   "$L__BB0_1:\n"
                                   "\t@%p1 bra $L__BB0_3;\n"         /* 0 */
                                   "\tbra.uni $L__BB0_1;\n"          /* 1 */
                                   "$L__BB0_3:\n$L__alias:\n"
                                   "\t@!%p1 bra $L__end;\n"          /* 2 */
                                   "\tbra $L__alias;\n"              /* 3 */
                                   "$L__end:\n}\n");
    ir_func *f = ir_module_find_func(m, "k");
    g_assert_cmpuint(ir_func_n_instrs(f), ==, 4);
    g_assert_cmpuint(ir_func_instr(f, 0)->src[0].kind, ==, IR_OPND_LABEL);
    g_assert_cmpuint(ir_func_instr(f, 0)->src[0].u.target, ==, 2);
    g_assert_cmpuint(ir_func_instr(f, 0)->guard, ==, 1);
    g_assert_false(ir_func_instr(f, 0)->guard_neg);
    g_assert_cmpuint(ir_func_instr(f, 1)->src[0].u.target, ==, 0);
    g_assert_true(ir_func_instr(f, 1)->flags & IR_F_UNI);
    g_assert_cmpuint(ir_func_instr(f, 1)->guard, ==, IR_NONE);
    g_assert_cmpuint(ir_func_instr(f, 2)->src[0].u.target, ==, 4); /* end of function */
    g_assert_true(ir_func_instr(f, 2)->guard_neg);
    g_assert_cmpuint(ir_func_instr(f, 3)->src[0].u.target, ==, 2);
    g_assert_true(ir_instr_is_branch(ir_func_instr(f, 3)));
    g_assert_true(ir_instr_ends_block(ir_func_instr(f, 3)));
    ir_module_free(m);
}

/* Two call sequences declaring the same parameter names; a callee defined after its caller. */
static void test_calls_and_scopes(void)
{
    ir_module *m = parse_ok(HEADER
                            ".func (.param .b32 func_retval0) f2(.param .b32 f2_param_0, .param .b64 f2_param_1);\n"
                            ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
                            "\t{ // callseq 0, 0\n"
                            "\t.reg .b32 temp_param_reg;\n"
                            "\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r1;\n"
                            "\t.param .b64 param1;\n\tst.param.b64 [param1+0], %rd1;\n"
                            "\t.param .b32 retval0;\n"
                            "\tcall.uni (retval0), \n\tf2, \n\t(\n\tparam0, \n\tparam1\n\t);\n"
                            "\tld.param.b32 %r2, [retval0+0];\n"
                            "\t} // callseq 0\n"
                            "\t{ // callseq 1, 0\n"
                            "\t.reg .b32 temp_param_reg;\n"
                            "\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r2;\n"
                            "\tcall.uni g, (param0);\n"
                            "\t}\n"
                            "\tcall.uni h, ();\n"
                            "\tret;\n}\n"
                            ".func g(.param .b32 g_param_0)\n{\n\tret;\n}\n"
                            ".func h()\n{\n\tret;\n}\n"
                            ".func (.param .b32 func_retval0) f2(.param .b32 f2_param_0, .param .b64 f2_param_1)\n{\n"
                            "\t.reg .b32 %r<2>;\n\tld.param.u32 %r1, [f2_param_0];\n"
                            "\tst.param.b32 [func_retval0+0], %r1;\n\tret;\n}\n");
    ir_func *k = ir_module_find_func(m, "k");
    g_assert_cmpuint(ir_func_n_instrs(k), ==, 8);
    /* scopes */
    g_assert_cmpuint(k->scopes->len, ==, 3);
    ir_lexscope *s1 = &g_array_index(k->scopes, ir_lexscope, 1), *s2 = &g_array_index(k->scopes, ir_lexscope, 2);
    g_assert_cmpuint(s1->parent, ==, 0);
    g_assert_cmpuint(s1->first, ==, 0);
    g_assert_cmpuint(s1->end, ==, 4);
    g_assert_cmpuint(s2->first, ==, 4);
    g_assert_cmpuint(s2->end, ==, 6);
    uint32_t tp1 = ir_func_find_reg(k, "temp_param_reg");
    g_assert_cmpuint(g_array_index(k->regs, ir_reg, tp1).scope, ==, 1);
    g_assert_cmpuint(g_array_index(k->regs, ir_reg, tp1 + 1).scope, ==, 2);
    /* the first call */
    ir_instr *c1 = ir_func_instr(k, 2);
    g_assert_cmpuint(c1->op, ==, IR_OP_CALL);
    g_assert_true(c1->flags & IR_F_UNI);
    g_assert_cmpuint(c1->src[0].kind, ==, IR_OPND_FUNC);
    g_assert_cmpstr(((ir_func *)g_ptr_array_index(m->funcs, c1->src[0].u.func))->name, ==, "f2");
    g_assert_cmpuint(c1->call_n_ret, ==, 1);
    g_assert_cmpuint(c1->call_n_args, ==, 2);
    const ir_sym *p0 = &g_array_index(m->syms, ir_sym, c1->call_args[0]);
    g_assert_cmpstr(p0->name, ==, "param0");
    g_assert_cmpuint(p0->scope, ==, 1);
    g_assert_cmpuint(p0->space, ==, IR_SPACE_PARAM);
    g_assert_cmpstr(g_array_index(m->syms, ir_sym, c1->call_ret[0]).name, ==, "retval0");
    /* the st before it writes the same param0 */
    g_assert_cmpuint(ir_func_instr(k, 0)->src[0].u.mem.base_sym, ==, c1->call_args[0]);
    /* the second call's param0 is another symbol, in scope 2 */
    ir_instr *c2 = ir_func_instr(k, 5);
    g_assert_cmpuint(c2->call_n_args, ==, 1);
    g_assert_cmpuint(c2->call_n_ret, ==, 0);
    g_assert_cmpuint(c2->call_args[0], !=, c1->call_args[0]);
    g_assert_cmpuint(g_array_index(m->syms, ir_sym, c2->call_args[0]).scope, ==, 2);
    g_assert_cmpuint(ir_func_instr(k, 4)->src[0].u.mem.base_sym, ==, c2->call_args[0]);
    /* callees defined later */
    ir_instr *c3 = ir_func_instr(k, 6);
    g_assert_cmpuint(c3->call_n_args, ==, 0);
    ir_func *f2 = ir_module_find_func(m, "f2");
    g_assert_true(f2->is_defined);
    g_assert_false(f2->is_entry);
    g_assert_cmpuint(f2->rets->len, ==, 1);
    g_assert_cmpuint(f2->params->len, ==, 2);
    g_assert_cmpuint(g_array_index(f2->params, ir_param, 1).offset, ==, 8);
    g_assert_true(ir_module_find_func(m, "g")->is_defined);
    g_assert_true(ir_module_find_func(m, "h")->is_defined);
    ir_instr *st = ir_func_instr(f2, 1);
    g_assert_cmpstr(g_array_index(m->syms, ir_sym, st->src[0].u.mem.base_sym).name, ==, "func_retval0");
    g_assert_cmpuint(ir_instr_class(c1), ==, IR_CLASS_CTRL);
    g_assert_false(ir_instr_ends_block(c1));
    ir_module_free(m);
}

static void test_initialisers(void)
{
    ir_module *m = parse_ok(HEADER
                            ".global .align 4 .u32 g1 = 5;\n"
                            ".const .align 4 .b8 tab[6] = {1, 2, 255, 0x10, -1};\n"
                            ".global .align 4 .f32 fv[3] = {0f3F800000, 2, -1.5};\n"
                            ".const .align 8 .f64 dv[2] = {0d4000000000000000, 0f3F800000};\n"
                            ".global .align 2 .s16 sv[2][2] = {{-2, 3}, {4, 5}};\n"
                            ".global .align 1 .b8 str[] = {104, 105, 0};\n"
                            ".global .align 8 .u64 big = 0xfedcba9876543210;\n"
                            ".shared .align 16 .b8 smem[100];\n"
                            ".extern .shared .align 16 .b8 dyn[];\n");
    const ir_sym *g1 = find_sym(m, NULL, "g1");
    g_assert_cmpuint(g1->size, ==, 4);
    g_assert_nonnull(g1->init);
    g_assert_cmpuint(g1->init[0], ==, 5);
    g_assert_cmpuint(g1->space, ==, IR_SPACE_GLOBAL);
    const ir_sym *tab = find_sym(m, NULL, "tab");
    static const uint8_t tab_want[6] = { 1, 2, 255, 16, 255, 0 };
    g_assert_cmpmem(tab->init, 6, tab_want, 6);
    g_assert_cmpuint(tab->space, ==, IR_SPACE_CONST);
    const ir_sym *fv = find_sym(m, NULL, "fv");
    float fw[3] = { 1.0f, 2.0f, -1.5f };
    g_assert_cmpmem(fv->init, 12, fw, 12);
    const ir_sym *dv = find_sym(m, NULL, "dv");
    double dw[2] = { 2.0, 1.0 };
    g_assert_cmpmem(dv->init, 16, dw, 16);
    const ir_sym *sv = find_sym(m, NULL, "sv");
    int16_t sw[4] = { -2, 3, 4, 5 };
    g_assert_cmpuint(sv->size, ==, 8);
    g_assert_cmpmem(sv->init, 8, sw, 8);
    const ir_sym *str = find_sym(m, NULL, "str");
    g_assert_cmpuint(str->size, ==, 3);
    g_assert_cmpmem(str->init, 3, "hi", 3);
    uint64_t bw = UINT64_C(0xfedcba9876543210);
    g_assert_cmpmem(find_sym(m, NULL, "big")->init, 8, &bw, 8);
    const ir_sym *dyn = find_sym(m, NULL, "dyn");
    g_assert_true(dyn->is_extern);
    g_assert_cmpuint(dyn->size, ==, 0);
    g_assert_cmpuint(dyn->align, ==, 16);
    g_assert_null(find_sym(m, NULL, "smem")->init);
    g_assert_cmpuint(m->shared_static_bytes, ==, 100);
    g_assert_cmpuint(m->const_bytes, ==, 24);
    g_assert_cmpuint(find_sym(m, NULL, "dv")->offset, ==, 8);
    /* round trip keeps the bytes */
    char *t1 = print_module(m);
    ir_module *m2 = parse_ok(t1);
    g_assert_cmpmem(find_sym(m2, NULL, "sv")->init, 8, sw, 8);
    g_assert_cmpmem(find_sym(m2, NULL, "fv")->init, 12, fw, 12);
    char *t2 = print_module(m2);
    g_assert_cmpstr(t1, ==, t2);
    g_free(t1);
    g_free(t2);
    ir_module_free(m2);
    ir_module_free(m);
}

/* Address initialisers: generic(sym), sym, +N / -N, in scalars and array elements (mixed with
 * literals), the mask form on bytes, a function-scope .global pointing at a module one; recorded in
 * init_addrs (the elements' bytes stay zero for the loader) and printed back as written. */
static void test_address_initialisers(void)
{
    ir_module *m =
        parse_ok(HEADER ".global .align 4 .u32 g[4] = {10, 20, 30, 40};\n"
                        ".const .align 4 .u32 c[2] = {1, 2};\n"
                        ".global .align 8 .u64 p = generic(g)+4;\n"
                        ".global .align 8 .u64 tab[4] = {generic(g), 5, c+8, generic(c)-4};\n"
                        ".global .align 4 .b32 p32 = g;\n"
                        ".global .align 8 .b8 rec[3] = {7, 0xFF(generic(g)+12), 0xFF00(generic(g)+12)};\n"
                        ".const .align 8 .u64 self = generic(self);\n"
                        ".visible .entry k()\n{\n\t.global .align 8 .u64 fp = generic(g)+8;\n\tret;\n}\n");
    uint32_t gi = ir_module_find_sym(m, IR_NONE, "g"), ci = ir_module_find_sym(m, IR_NONE, "c");
    const ir_sym *p = find_sym(m, NULL, "p");
    g_assert_nonnull(p->init_addrs);
    g_assert_cmpuint(p->init_addrs->len, ==, 1);
    const ir_init_addr *a = &g_array_index(p->init_addrs, ir_init_addr, 0);
    g_assert_cmpuint(a->elem, ==, 0);
    g_assert_cmpuint(a->sym, ==, gi);
    g_assert_true(a->generic);
    g_assert_cmpint(a->addend, ==, 4);
    g_assert_cmpuint(a->mask_byte, ==, 0);
    static const uint8_t zero[8];
    g_assert_cmpmem(p->init, 8, zero, 8);
    const ir_sym *tab = find_sym(m, NULL, "tab");
    g_assert_cmpuint(tab->size, ==, 32);
    g_assert_cmpuint(tab->init_addrs->len, ==, 3);
    const ir_init_addr *a0 = &g_array_index(tab->init_addrs, ir_init_addr, 0);
    const ir_init_addr *a2 = &g_array_index(tab->init_addrs, ir_init_addr, 1);
    const ir_init_addr *a3 = &g_array_index(tab->init_addrs, ir_init_addr, 2);
    g_assert_cmpuint(a0->elem, ==, 0);
    g_assert_cmpint(a0->addend, ==, 0);
    g_assert_cmpuint(a2->elem, ==, 2);
    g_assert_cmpuint(a2->sym, ==, ci);
    g_assert_false(a2->generic);
    g_assert_cmpint(a2->addend, ==, 8);
    g_assert_cmpuint(a3->elem, ==, 3);
    g_assert_true(a3->generic);
    g_assert_cmpint(a3->addend, ==, -4);
    uint64_t five = 5;
    g_assert_cmpmem(tab->init + 8, 8, &five, 8);
    const ir_sym *p32 = find_sym(m, NULL, "p32");
    g_assert_cmpuint(g_array_index(p32->init_addrs, ir_init_addr, 0).sym, ==, gi);
    g_assert_false(g_array_index(p32->init_addrs, ir_init_addr, 0).generic);
    const ir_sym *rec = find_sym(m, NULL, "rec");
    g_assert_cmpuint(rec->init[0], ==, 7);
    g_assert_cmpuint(rec->init_addrs->len, ==, 2);
    g_assert_cmpuint(g_array_index(rec->init_addrs, ir_init_addr, 0).elem, ==, 1);
    g_assert_cmpuint(g_array_index(rec->init_addrs, ir_init_addr, 0).mask_byte, ==, 1);
    g_assert_cmpuint(g_array_index(rec->init_addrs, ir_init_addr, 1).mask_byte, ==, 2);
    g_assert_cmpint(g_array_index(rec->init_addrs, ir_init_addr, 1).addend, ==, 12);
    const ir_sym *self = find_sym(m, NULL, "self");
    g_assert_cmpuint(g_array_index(self->init_addrs, ir_init_addr, 0).sym, ==,
                     ir_module_find_sym(m, IR_NONE, "self"));
    const ir_sym *fp = find_sym(m, ir_module_find_func(m, "k"), "fp");
    g_assert_cmpuint(g_array_index(fp->init_addrs, ir_init_addr, 0).sym, ==, gi);
    /* Printed as written; print -> parse -> print is a fixpoint. */
    char *t1 = print_module(m);
    g_assert_nonnull(strstr(t1, ".u64 p = generic(g)+4;"));
    g_assert_nonnull(strstr(t1, ".u64 tab[4] = {generic(g), 5, c+8, generic(c)-4};"));
    g_assert_nonnull(strstr(t1, ".b32 p32 = g;"));
    g_assert_nonnull(strstr(t1, ".b8 rec[3] = {7, 0xFF(generic(g)+12), 0xFF00(generic(g)+12)};"));
    g_assert_nonnull(strstr(t1, ".u64 fp = generic(g)+8;"));
    ir_module *m2 = parse_ok(t1);
    char *t2 = print_module(m2);
    g_assert_cmpstr(t1, ==, t2);
    g_free(t1);
    g_free(t2);
    ir_module_free(m2);
    ir_module_free(m);
}

static void test_function_data(void)
{
    ir_module *m = parse_ok(HEADER ".visible .entry k()\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n"
                                   "\t.local .align 4 .b8 __local_depot0[40];\n"
                                   "\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n\t.reg .b32 %r<3>;\n"
                                   "\t// demoted variable\n"
                                   "\t.shared .align 4 .b8 _ZZ1kE1s[1024];\n"
                                   "\t.shared .align 8 .b8 _ZZ1kE1t[8];\n"
                                   "\tmov.u64 %SPL, __local_depot0;\n"
                                   "\tcvta.local.u64 %SP, %SPL;\n"
                                   "\tmov.u32 %r1, _ZZ1kE1t+4;\n"
                                   "\tld.shared.u32 %r2, [_ZZ1kE1s+-8];\n"
                                   "\tst.local.u32 [%SPL+12], %r2;\n"
                                   "\t.pragma \"nounroll\";\n"
                                   "\t.loc 1 2 3\n"
                                   "\tret;\n}\n");
    ir_func *f = ir_module_find_func(m, "k");
    g_assert_cmpuint(f->maxntid[0], ==, 256);
    g_assert_cmpuint(f->maxntid[1], ==, 1);
    g_assert_cmpuint(f->minnctapersm, ==, 2);
    g_assert_cmpuint(f->local_bytes, ==, 40);
    g_assert_cmpuint(f->shared_bytes, ==, 1032);
    const ir_sym *t = find_sym(m, f, "_ZZ1kE1t");
    g_assert_cmpuint(t->offset, ==, 1024);
    g_assert_cmpuint(t->func, ==, 0);
    ir_instr *mv = ir_func_instr(f, 0);
    g_assert_cmpuint(mv->src[0].kind, ==, IR_OPND_ADDR);
    g_assert_cmpstr(g_array_index(m->syms, ir_sym, mv->src[0].u.mem.base_sym).name, ==, "__local_depot0");
    ir_instr *cv = ir_func_instr(f, 1);
    g_assert_cmpuint(cv->op, ==, IR_OP_CVTA);
    g_assert_cmpuint(cv->space, ==, IR_SPACE_LOCAL);
    g_assert_false(cv->flags & IR_F_TO);
    ir_instr *m2 = ir_func_instr(f, 2);
    g_assert_cmpint(m2->src[0].u.mem.offset, ==, 4);
    ir_instr *ld = ir_func_instr(f, 3);
    g_assert_cmpuint(ld->src[0].kind, ==, IR_OPND_MEM);
    g_assert_cmpuint(ld->src[0].u.mem.base_reg, ==, IR_NONE);
    g_assert_cmpint(ld->src[0].u.mem.offset, ==, -8);
    ir_instr *st = ir_func_instr(f, 4);
    g_assert_cmpuint(st->src[0].u.mem.base_reg, ==, ir_func_find_reg(f, "%SPL"));
    g_assert_cmpint(st->src[0].u.mem.offset, ==, 12);
    g_assert_cmpuint(st->n_dst, ==, 0);
    uint32_t uses[8];
    unsigned nu = ir_instr_uses(st, uses, 8);
    g_assert_cmpuint(nu, ==, 2);
    g_assert_cmpuint(uses[0], ==, ir_func_find_reg(f, "%SPL"));
    g_assert_cmpuint(uses[1], ==, ir_func_find_reg(f, "%r2"));
    g_assert_cmpuint(ir_instr_defs(st, uses, 8), ==, 0);
    ir_module_free(m);
}

static void test_immediates(void)
{
    ir_module *m = parse_ok(HEADER ".entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<4>;\n"
                                   "\t.reg .b64 %rd<3>;\n"
                                   "\tmov.u32 %r1, -1;\n"                 /* 0 */
                                   "\tmov.u32 %r1, 0xffffffff;\n"         /* 1 */
                                   "\tmov.f32 %f1, 0f3F800000;\n"         /* 2 */
                                   "\tmov.f64 %fd1, 0f3F800000;\n"        /* 3 */
                                   "\tmov.f64 %fd1, 0d3FF0000000000000;\n" /* 4 */
                                   "\tadd.f32 %f1, %f2, 2;\n"             /* 5 */
                                   "\tmov.b32 %r1, 0f40000000;\n"         /* 6 */
                                   "\tadd.s64 %rd1, %rd2, -9223372036854775808;\n" /* 7 */
                                   "\tmov.f32 %f1, 0d4000000000000000;\n" /* 8 */
                                   "\tmov.u32 %r1, 017;\n"                /* 9 */
                                   "\tmov.f64 %fd1, 0.5;\n"               /* 10 */
                                   "\tmov.u32 %r1, 10U;\n"                /* 11 */
                                   "\tret;\n}\n");
    ir_func *f = ir_module_find_func(m, "k");
    g_assert_cmpuint(ir_func_instr(f, 0)->src[0].u.imm, ==, UINT64_MAX);
    g_assert_cmpuint(ir_func_instr(f, 1)->src[0].u.imm, ==, 0xffffffffu);
    g_assert_cmpuint(ir_func_instr(f, 2)->src[0].u.imm, ==, 0x3f800000u);
    g_assert_cmpuint(ir_func_instr(f, 3)->src[0].u.imm, ==, UINT64_C(0x3ff0000000000000));
    g_assert_cmpuint(ir_func_instr(f, 4)->src[0].u.imm, ==, UINT64_C(0x3ff0000000000000));
    g_assert_cmpuint(ir_func_instr(f, 5)->src[1].u.imm, ==, 0x40000000u);
    g_assert_cmpuint(ir_func_instr(f, 6)->src[0].u.imm, ==, 0x40000000u);
    g_assert_cmpuint(ir_func_instr(f, 7)->src[1].u.imm, ==, UINT64_C(0x8000000000000000));
    g_assert_cmpuint(ir_func_instr(f, 8)->src[0].u.imm, ==, 0x40000000u);
    g_assert_cmpuint(ir_func_instr(f, 9)->src[0].u.imm, ==, 15);
    g_assert_cmpuint(ir_func_instr(f, 10)->src[0].u.imm, ==, UINT64_C(0x3fe0000000000000));
    g_assert_cmpuint(ir_func_instr(f, 11)->src[0].u.imm, ==, 10);
    g_assert_cmpuint(ir_func_instr(f, 0)->src[0].kind, ==, IR_OPND_IMM);
    ir_module_free(m);
}

/* ---- every instruction family: one line each inside a minimal kernel ------------------------------- */
typedef struct {
    const char *text;  /* the instruction, as the printer writes it (or NULL: see printed) */
    ir_opcode op;
    ir_type type, type2;
    unsigned n_dst, n_src;
    const char *printed; /* canonical form when it differs from text */
} instr_case;

#define KERNEL_HEAD HEADER ".global .align 4 .b8 gbuf[64]; .const .align 4 .b8 cbuf[16];\n" \
    ".func (.param .b32 func_retval0) callee(.param .b32 callee_param_0)\n{\n\tret;\n}\n" \
    ".visible .entry t(.param .u64 t_param_0, .param .align 8 .b8 t_param_1[16])\n{\n" \
    "\t.reg .pred %p<4>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n" \
    "\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<8>;\n\t.shared .align 4 .b8 sbuf[64];\n\t.local .align 4 .b8 lbuf[16];\n"

static const instr_case instr_cases[] = {
    /* mov, ld, st, cvta */
    { "mov.u32 %r1, %r2;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.pred %p1, %p2;", IR_OP_MOV, IR_T_PRED, 0, 1, 1, NULL },
    { "mov.b16 %rs1, 7;", IR_OP_MOV, IR_T_B16, 0, 1, 1, NULL },
    { "mov.u32 %r1, %tid.y;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, sbuf;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u64 %rd1, gbuf+16;", IR_OP_MOV, IR_T_U64, 0, 1, 1, NULL },
    { "mov.b64 {%r1, %r2}, %fd1;", IR_OP_MOV, IR_T_B64, 0, 1, 1, NULL },
    { "mov.b64 %fd1, {%r1, %r2};", IR_OP_MOV, IR_T_B64, 0, 1, 1, NULL },
    { "mov.b32 {%rs1, %rs2}, %r1;", IR_OP_MOV, IR_T_B32, 0, 1, 1, NULL },
    { "ld.param.u64 %rd1, [t_param_0];", IR_OP_LD, IR_T_U64, 0, 1, 1, NULL },
    { "ld.param.f64 %fd1, [t_param_1+8];", IR_OP_LD, IR_T_F64, 0, 1, 1, NULL },
    { "ld.global.u32 %r1, [%rd1+-4];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ld.global.nc.f32 %f1, [%rd1];", IR_OP_LD, IR_T_F32, 0, 1, 1, NULL },
    { "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];", IR_OP_LD, IR_T_F32, 0, 1, 1, NULL },
    { "ld.global.v2.u32 {%r1, _}, [%rd1];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ld.shared.u32 %r1, [%r2];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ld.shared.f32 %f1, [sbuf+8];", IR_OP_LD, IR_T_F32, 0, 1, 1, NULL },
    { "ld.volatile.shared.u32 %r1, [%rd1];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ld.local.u32 %r1, [lbuf+4];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ld.const.f32 %f1, [cbuf];", IR_OP_LD, IR_T_F32, 0, 1, 1, NULL },
    { "ld.u8 %rs1, [%rd1];", IR_OP_LD, IR_T_U8, 0, 1, 1, NULL },
    { "ld.global.s8 %r1, [%rd1];", IR_OP_LD, IR_T_S8, 0, 1, 1, NULL },
    { "ld.global.cg.u32 %r1, [%rd1];", IR_OP_LD, IR_T_U32, 0, 1, 1, "ld.global.u32 %r1, [%rd1];" },
    { "ld.relaxed.gpu.global.u32 %r1, [%rd1];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ld.acquire.sys.global.u32 %r1, [%rd1];", IR_OP_LD, IR_T_U32, 0, 1, 1, NULL },
    { "ldu.global.f32 %f1, [%rd1];", IR_OP_LDU, IR_T_F32, 0, 1, 1, NULL },
    { "st.global.f32 [%rd1+4], %f1;", IR_OP_ST, IR_T_F32, 0, 0, 2, NULL },
    { "st.shared.v2.u32 [%r1], {%r2, %r3};", IR_OP_ST, IR_T_U32, 0, 0, 2, NULL },
    { "st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};", IR_OP_ST, IR_T_F32, 0, 0, 2, NULL },
    { "st.local.u8 [%rd1], %rs1;", IR_OP_ST, IR_T_U8, 0, 0, 2, NULL },
    { "st.global.u32 [%rd1], 5;", IR_OP_ST, IR_T_U32, 0, 0, 2, NULL },
    { "st.volatile.shared.u32 [%rd1], %r1;", IR_OP_ST, IR_T_U32, 0, 0, 2, NULL },
    { "st.global.wb.u32 [%rd1], %r1;", IR_OP_ST, IR_T_U32, 0, 0, 2, "st.global.u32 [%rd1], %r1;" },
    { "cvta.to.global.u64 %rd1, %rd2;", IR_OP_CVTA, IR_T_U64, 0, 1, 1, NULL },
    { "cvta.shared.u64 %rd1, sbuf;", IR_OP_CVTA, IR_T_U64, 0, 1, 1, NULL },
    { "cvta.global.u64 %rd1, gbuf;", IR_OP_CVTA, IR_T_U64, 0, 1, 1, NULL },
    { "cvta.to.shared.u32 %r1, %r2;", IR_OP_CVTA, IR_T_U32, 0, 1, 1, NULL },
    /* cvt */
    { "cvt.rn.f32.s32 %f1, %r1;", IR_OP_CVT, IR_T_F32, IR_T_S32, 1, 1, NULL },
    { "cvt.rzi.s32.f32 %r1, %f1;", IR_OP_CVT, IR_T_S32, IR_T_F32, 1, 1, NULL },
    { "cvt.rni.f32.f32 %f1, %f2;", IR_OP_CVT, IR_T_F32, IR_T_F32, 1, 1, NULL },
    { "cvt.rmi.f64.f64 %fd1, %fd2;", IR_OP_CVT, IR_T_F64, IR_T_F64, 1, 1, NULL },
    { "cvt.rpi.f32.f32 %f1, %f2;", IR_OP_CVT, IR_T_F32, IR_T_F32, 1, 1, NULL },
    { "cvt.rz.ftz.f32.f64 %f1, %fd1;", IR_OP_CVT, IR_T_F32, IR_T_F64, 1, 1, NULL },
    { "cvt.rm.f32.u64 %f1, %rd1;", IR_OP_CVT, IR_T_F32, IR_T_U64, 1, 1, NULL },
    { "cvt.rp.f64.s64 %fd1, %rd1;", IR_OP_CVT, IR_T_F64, IR_T_S64, 1, 1, NULL },
    { "cvt.sat.u8.s32 %rs1, %r1;", IR_OP_CVT, IR_T_U8, IR_T_S32, 1, 1, NULL },
    { "cvt.ftz.sat.f32.f32 %f1, %f2;", IR_OP_CVT, IR_T_F32, IR_T_F32, 1, 1, NULL },
    { "cvt.f64.f32 %fd1, %f1;", IR_OP_CVT, IR_T_F64, IR_T_F32, 1, 1, NULL },
    { "cvt.u32.u64 %r1, %rd1;", IR_OP_CVT, IR_T_U32, IR_T_U64, 1, 1, NULL },
    { "cvt.s64.s32 %rd1, %r1;", IR_OP_CVT, IR_T_S64, IR_T_S32, 1, 1, NULL },
    { "cvt.u16.u32 %rs1, %r1;", IR_OP_CVT, IR_T_U16, IR_T_U32, 1, 1, NULL },
    { "cvt.rn.f16.f32 %rs1, %f1;", IR_OP_CVT, IR_T_F16, IR_T_F32, 1, 1, NULL },
    { "cvt.f32.f16 %f1, %rs1;", IR_OP_CVT, IR_T_F32, IR_T_F16, 1, 1, NULL },
    /* arithmetic */
    { "add.s32 %r1, %r2, %r3;", IR_OP_ADD, IR_T_S32, 0, 1, 2, NULL },
    { "add.sat.s32 %r1, %r2, 5;", IR_OP_ADD, IR_T_S32, 0, 1, 2, NULL },
    { "add.rn.ftz.f32 %f1, %f2, 0f3F800000;", IR_OP_ADD, IR_T_F32, 0, 1, 2, NULL },
    { "add.f64 %fd1, %fd2, 0d3FF0000000000000;", IR_OP_ADD, IR_T_F64, 0, 1, 2, NULL },
    { "add.cc.u32 %r1, %r2, %r3;", IR_OP_ADD, IR_T_U32, 0, 1, 2, NULL },
    { "addc.cc.u32 %r1, %r2, %r3;", IR_OP_ADDC, IR_T_U32, 0, 1, 2, NULL },
    { "addc.u32 %r1, %r2, 0;", IR_OP_ADDC, IR_T_U32, 0, 1, 2, NULL },
    { "sub.cc.u32 %r1, %r2, %r3;", IR_OP_SUB, IR_T_U32, 0, 1, 2, NULL },
    { "subc.u32 %r1, %r2, %r3;", IR_OP_SUBC, IR_T_U32, 0, 1, 2, NULL },
    { "sub.s64 %rd1, %rd2, %rd3;", IR_OP_SUB, IR_T_S64, 0, 1, 2, NULL },
    { "sub.f32 %f1, %f2, %f3;", IR_OP_SUB, IR_T_F32, 0, 1, 2, NULL },
    { "mul.lo.s32 %r1, %r2, %r3;", IR_OP_MUL, IR_T_S32, 0, 1, 2, NULL },
    { "mul.hi.u32 %r1, %r2, %r3;", IR_OP_MUL, IR_T_U32, 0, 1, 2, NULL },
    { "mul.hi.u64 %rd1, %rd2, %rd3;", IR_OP_MUL, IR_T_U64, 0, 1, 2, NULL },
    { "mul.wide.s32 %rd1, %r2, 4;", IR_OP_MUL, IR_T_S32, 0, 1, 2, NULL },
    { "mul.wide.u16 %r1, %rs1, %rs2;", IR_OP_MUL, IR_T_U16, 0, 1, 2, NULL },
    { "mul.rn.f32 %f1, %f2, %f3;", IR_OP_MUL, IR_T_F32, 0, 1, 2, NULL },
    { "mul24.lo.s32 %r1, %r2, %r3;", IR_OP_MUL24, IR_T_S32, 0, 1, 2, NULL },
    { "mad.lo.s32 %r1, %r2, %r3, %r4;", IR_OP_MAD, IR_T_S32, 0, 1, 3, NULL },
    { "mad.hi.sat.s32 %r1, %r2, %r3, %r4;", IR_OP_MAD, IR_T_S32, 0, 1, 3, NULL },
    { "mad.wide.u32 %rd1, %r2, %r3, %rd4;", IR_OP_MAD, IR_T_U32, 0, 1, 3, NULL },
    { "mad.lo.cc.u32 %r1, %r2, %r3, %r4;", IR_OP_MAD, IR_T_U32, 0, 1, 3, NULL },
    { "madc.hi.u32 %r1, %r2, %r3, %r4;", IR_OP_MADC, IR_T_U32, 0, 1, 3, NULL },
    { "mad.rn.f64 %fd1, %fd2, %fd3, %fd4;", IR_OP_MAD, IR_T_F64, 0, 1, 3, NULL },
    { "mad24.lo.u32 %r1, %r2, %r3, %r4;", IR_OP_MAD24, IR_T_U32, 0, 1, 3, NULL },
    { "sad.u32 %r1, %r2, %r3, %r4;", IR_OP_SAD, IR_T_U32, 0, 1, 3, NULL },
    { "div.s32 %r1, %r2, %r3;", IR_OP_DIV, IR_T_S32, 0, 1, 2, NULL },
    { "div.u64 %rd1, %rd2, %rd3;", IR_OP_DIV, IR_T_U64, 0, 1, 2, NULL },
    { "div.rn.f32 %f1, %f2, %f3;", IR_OP_DIV, IR_T_F32, 0, 1, 2, NULL },
    { "div.approx.ftz.f32 %f1, %f2, %f3;", IR_OP_DIV, IR_T_F32, 0, 1, 2, NULL },
    { "div.full.f32 %f1, %f2, %f3;", IR_OP_DIV, IR_T_F32, 0, 1, 2, NULL },
    { "div.rn.f64 %fd1, %fd2, %fd3;", IR_OP_DIV, IR_T_F64, 0, 1, 2, NULL },
    { "rem.s32 %r1, %r2, %r3;", IR_OP_REM, IR_T_S32, 0, 1, 2, NULL },
    { "rem.u64 %rd1, %rd2, 7;", IR_OP_REM, IR_T_U64, 0, 1, 2, NULL },
    { "min.s32 %r1, %r2, %r3;", IR_OP_MIN, IR_T_S32, 0, 1, 2, NULL },
    { "max.u32 %r1, %r2, %r3;", IR_OP_MAX, IR_T_U32, 0, 1, 2, NULL },
    { "min.ftz.f32 %f1, %f2, %f3;", IR_OP_MIN, IR_T_F32, 0, 1, 2, NULL },
    { "max.NaN.f32 %f1, %f2, %f3;", IR_OP_MAX, IR_T_F32, 0, 1, 2, NULL },
    { "max.f64 %fd1, %fd2, %fd3;", IR_OP_MAX, IR_T_F64, 0, 1, 2, NULL },
    { "abs.s32 %r1, %r2;", IR_OP_ABS, IR_T_S32, 0, 1, 1, NULL },
    { "abs.ftz.f32 %f1, %f2;", IR_OP_ABS, IR_T_F32, 0, 1, 1, NULL },
    { "neg.s64 %rd1, %rd2;", IR_OP_NEG, IR_T_S64, 0, 1, 1, NULL },
    { "neg.f64 %fd1, %fd2;", IR_OP_NEG, IR_T_F64, 0, 1, 1, NULL },
    /* logic and shifts */
    { "and.b32 %r1, %r2, 255;", IR_OP_AND, IR_T_B32, 0, 1, 2, NULL },
    { "and.pred %p1, %p2, %p3;", IR_OP_AND, IR_T_PRED, 0, 1, 2, NULL },
    { "or.b64 %rd1, %rd2, %rd3;", IR_OP_OR, IR_T_B64, 0, 1, 2, NULL },
    { "or.pred %p1, %p2, %p3;", IR_OP_OR, IR_T_PRED, 0, 1, 2, NULL },
    { "xor.b32 %r1, %r2, 4;", IR_OP_XOR, IR_T_B32, 0, 1, 2, NULL },
    { "xor.pred %p1, %p2, 1;", IR_OP_XOR, IR_T_PRED, 0, 1, 2, NULL },
    { "not.b32 %r1, %r2;", IR_OP_NOT, IR_T_B32, 0, 1, 1, NULL },
    { "not.pred %p1, %p2;", IR_OP_NOT, IR_T_PRED, 0, 1, 1, NULL },
    { "cnot.b32 %r1, %r2;", IR_OP_CNOT, IR_T_B32, 0, 1, 1, NULL },
    { "shl.b32 %r1, %r2, 2;", IR_OP_SHL, IR_T_B32, 0, 1, 2, NULL },
    { "shl.b64 %rd1, %rd2, %r3;", IR_OP_SHL, IR_T_B64, 0, 1, 2, NULL },
    { "shr.s32 %r1, %r2, 31;", IR_OP_SHR, IR_T_S32, 0, 1, 2, NULL },
    { "shr.u64 %rd1, %rd2, 3;", IR_OP_SHR, IR_T_U64, 0, 1, 2, NULL },
    { "shr.b16 %rs1, %rs2, 1;", IR_OP_SHR, IR_T_B16, 0, 1, 2, NULL },
    { "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", IR_OP_SHF, IR_T_B32, 0, 1, 3, NULL },
    { "shf.r.clamp.b32 %r1, %r2, %r3, 5;", IR_OP_SHF, IR_T_B32, 0, 1, 3, NULL },
    /* comparisons and selection */
    { "setp.ge.s32 %p1, %r1, %r2;", IR_OP_SETP, IR_T_S32, 0, 1, 2, NULL },
    { "setp.lt.u32 %p1, %r1, 5;", IR_OP_SETP, IR_T_U32, 0, 1, 2, NULL },
    { "setp.ne.b32 %p1|%p2, %r1, %r2;", IR_OP_SETP, IR_T_B32, 0, 2, 2, NULL },
    { "setp.lo.u64 %p1, %rd1, %rd2;", IR_OP_SETP, IR_T_U64, 0, 1, 2, NULL },
    { "setp.ls.u32 %p1, %r1, %r2;", IR_OP_SETP, IR_T_U32, 0, 1, 2, NULL },
    { "setp.hi.u32 %p1, %r1, %r2;", IR_OP_SETP, IR_T_U32, 0, 1, 2, NULL },
    { "setp.hs.u32 %p1, %r1, %r2;", IR_OP_SETP, IR_T_U32, 0, 1, 2, NULL },
    { "setp.gtu.f32 %p1, %f1, %f2;", IR_OP_SETP, IR_T_F32, 0, 1, 2, NULL },
    { "setp.equ.ftz.f32 %p1, %f1, 0f00000000;", IR_OP_SETP, IR_T_F32, 0, 1, 2, NULL },
    { "setp.neu.f64 %p1, %fd1, %fd2;", IR_OP_SETP, IR_T_F64, 0, 1, 2, NULL },
    { "setp.ltu.f32 %p1, %f1, %f2;", IR_OP_SETP, IR_T_F32, 0, 1, 2, NULL },
    { "setp.leu.f32 %p1, %f1, %f2;", IR_OP_SETP, IR_T_F32, 0, 1, 2, NULL },
    { "setp.geu.f64 %p1, %fd1, %fd2;", IR_OP_SETP, IR_T_F64, 0, 1, 2, NULL },
    { "setp.num.f32 %p1, %f1, %f1;", IR_OP_SETP, IR_T_F32, 0, 1, 2, NULL },
    { "setp.nan.f64 %p1, %fd1, %fd1;", IR_OP_SETP, IR_T_F64, 0, 1, 2, NULL },
    { "setp.le.f32 %p1, %f1, %f2;", IR_OP_SETP, IR_T_F32, 0, 1, 2, NULL },
    { "setp.gt.s64 %p1, %rd1, 0;", IR_OP_SETP, IR_T_S64, 0, 1, 2, NULL },
    { "setp.eq.s16 %p1, %rs1, 3;", IR_OP_SETP, IR_T_S16, 0, 1, 2, NULL },
    { "setp.lt.and.s32 %p1, %r1, %r2, %p3;", IR_OP_SETP, IR_T_S32, 0, 1, 3, NULL },
    { "setp.ne.or.f32 %p1|%p2, %f1, %f2, !%p3;", IR_OP_SETP, IR_T_F32, 0, 2, 3, NULL },
    { "setp.eq.xor.u32 %p1, %r1, 0, %p3;", IR_OP_SETP, IR_T_U32, 0, 1, 3, NULL },
    { "set.lt.u32.f32 %r1, %f1, %f2;", IR_OP_SET, IR_T_F32, IR_T_U32, 1, 2, NULL },
    { "set.eq.and.f32.s32 %f1, %r1, %r2, %p1;", IR_OP_SET, IR_T_S32, IR_T_F32, 1, 3, NULL },
    { "selp.b32 %r1, %r2, %r3, %p1;", IR_OP_SELP, IR_T_B32, 0, 1, 3, NULL },
    { "selp.f64 %fd1, %fd2, 0d0000000000000000, %p1;", IR_OP_SELP, IR_T_F64, 0, 1, 3, NULL },
    { "selp.u32 %r1, 1, 0, !%p1;", IR_OP_SELP, IR_T_U32, 0, 1, 3, NULL },
    { "slct.f32.s32 %f1, %f2, %f3, %r1;", IR_OP_SLCT, IR_T_F32, IR_T_S32, 1, 3, NULL },
    { "slct.u32.f32 %r1, %r2, %r3, %f1;", IR_OP_SLCT, IR_T_U32, IR_T_F32, 1, 3, NULL },
    /* control */
    { "ret;", IR_OP_RET, 0, 0, 0, 0, NULL },
    { "exit;", IR_OP_EXIT, 0, 0, 0, 0, NULL },
    { "trap;", IR_OP_TRAP, 0, 0, 0, 0, NULL },
    { "brkpt;", IR_OP_BRKPT, 0, 0, 0, 0, NULL },
    { "ret.uni;", IR_OP_RET, 0, 0, 0, 0, NULL },
    /* synchronisation */
    { "bar.sync 0;", IR_OP_BAR, 0, 0, 0, 1, NULL },
    { "bar.sync 1, 64;", IR_OP_BAR, 0, 0, 0, 2, NULL },
    { "bar.arrive 1, 64;", IR_OP_BAR, 0, 0, 0, 2, NULL },
    { "barrier.sync 0;", IR_OP_BARRIER, 0, 0, 0, 1, NULL },
    { "barrier.sync.aligned 0;", IR_OP_BARRIER, 0, 0, 0, 1, NULL },
    { "bar.red.popc.u32 %r1, 0, %p1;", IR_OP_BAR, IR_T_U32, 0, 1, 2, NULL },
    { "bar.red.and.pred %p1, 0, %p2;", IR_OP_BAR, IR_T_PRED, 0, 1, 2, NULL },
    { "bar.red.or.pred %p1, 0, !%p2;", IR_OP_BAR, IR_T_PRED, 0, 1, 2, NULL },
    { "bar.warp.sync -1;", IR_OP_BAR, 0, 0, 0, 1, NULL },
    { "bar.warp.sync %r1;", IR_OP_BAR, 0, 0, 0, 1, NULL },
    { "membar.gl;", IR_OP_MEMBAR, 0, 0, 0, 0, NULL },
    { "membar.cta;", IR_OP_MEMBAR, 0, 0, 0, 0, NULL },
    { "membar.sys;", IR_OP_MEMBAR, 0, 0, 0, 0, NULL },
    { "fence.acq_rel.gpu;", IR_OP_FENCE, 0, 0, 0, 0, NULL },
    { "fence.sc.cta;", IR_OP_FENCE, 0, 0, 0, 0, NULL },
    { "fence.acq_rel.sys;", IR_OP_FENCE, 0, 0, 0, 0, NULL },
    /* atomics */
    { "atom.global.add.u32 %r1, [%rd1], 1;", IR_OP_ATOM, IR_T_U32, 0, 1, 2, NULL },
    { "atom.global.add.f32 %f1, [%rd1], 0f3F800000;", IR_OP_ATOM, IR_T_F32, 0, 1, 2, NULL },
    { "atom.global.add.f64 %fd1, [%rd1], %fd2;", IR_OP_ATOM, IR_T_F64, 0, 1, 2, NULL },
    { "atom.global.add.u64 %rd1, [%rd2], 5;", IR_OP_ATOM, IR_T_U64, 0, 1, 2, NULL },
    { "atom.shared.add.u32 %r1, [%r2], %r3;", IR_OP_ATOM, IR_T_U32, 0, 1, 2, NULL },
    { "atom.global.min.s32 %r1, [%rd1], %r2;", IR_OP_ATOM, IR_T_S32, 0, 1, 2, NULL },
    { "atom.global.max.u64 %rd1, [%rd2], %rd3;", IR_OP_ATOM, IR_T_U64, 0, 1, 2, NULL },
    { "atom.global.inc.u32 %r1, [%rd1], 17;", IR_OP_ATOM, IR_T_U32, 0, 1, 2, NULL },
    { "atom.global.dec.u32 %r1, [%rd1], 17;", IR_OP_ATOM, IR_T_U32, 0, 1, 2, NULL },
    { "atom.global.and.b32 %r1, [%rd1], %r2;", IR_OP_ATOM, IR_T_B32, 0, 1, 2, NULL },
    { "atom.global.or.b32 %r1, [%rd1], %r2;", IR_OP_ATOM, IR_T_B32, 0, 1, 2, NULL },
    { "atom.global.xor.b32 %r1, [%rd1], %r2;", IR_OP_ATOM, IR_T_B32, 0, 1, 2, NULL },
    { "atom.global.exch.b32 %r1, [%rd1], %r2;", IR_OP_ATOM, IR_T_B32, 0, 1, 2, NULL },
    { "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", IR_OP_ATOM, IR_T_B32, 0, 1, 3, NULL },
    { "atom.shared.cas.b32 %r1, [sbuf+4], 0, 1;", IR_OP_ATOM, IR_T_B32, 0, 1, 3, NULL },
    { "atom.global.cas.b64 %rd1, [%rd2], %rd3, %rd4;", IR_OP_ATOM, IR_T_B64, 0, 1, 3, NULL },
    { "atom.add.u32 %r1, [%rd1], 1;", IR_OP_ATOM, IR_T_U32, 0, 1, 2, NULL },
    { "atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1;", IR_OP_ATOM, IR_T_U32, 0, 1, 2, NULL },
    { "atom.acq_rel.sys.shared.exch.b32 %r1, [%r2], 1;", IR_OP_ATOM, IR_T_B32, 0, 1, 2, NULL },
    { "red.global.add.u32 [%rd1], 1;", IR_OP_RED, IR_T_U32, 0, 0, 2, NULL },
    { "red.shared.max.s32 [%r1], %r2;", IR_OP_RED, IR_T_S32, 0, 0, 2, NULL },
    { "red.global.add.f32 [%rd1], %f1;", IR_OP_RED, IR_T_F32, 0, 0, 2, NULL },
    { "red.global.or.b64 [%rd1], %rd2;", IR_OP_RED, IR_T_B64, 0, 0, 2, NULL },
    /* floating point */
    { "fma.rn.f32 %f1, %f2, %f3, 0f3F800000;", IR_OP_FMA, IR_T_F32, 0, 1, 3, NULL },
    { "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;", IR_OP_FMA, IR_T_F32, 0, 1, 3, NULL },
    { "fma.rz.f64 %fd1, %fd2, %fd3, %fd4;", IR_OP_FMA, IR_T_F64, 0, 1, 3, NULL },
    { "rcp.rn.f32 %f1, %f2;", IR_OP_RCP, IR_T_F32, 0, 1, 1, NULL },
    { "rcp.approx.ftz.f64 %fd1, %fd2;", IR_OP_RCP, IR_T_F64, 0, 1, 1, NULL },
    { "rcp.rn.f64 %fd1, %fd2;", IR_OP_RCP, IR_T_F64, 0, 1, 1, NULL },
    { "sqrt.rn.f32 %f1, %f2;", IR_OP_SQRT, IR_T_F32, 0, 1, 1, NULL },
    { "sqrt.approx.ftz.f32 %f1, %f2;", IR_OP_SQRT, IR_T_F32, 0, 1, 1, NULL },
    { "sqrt.rn.f64 %fd1, %fd2;", IR_OP_SQRT, IR_T_F64, 0, 1, 1, NULL },
    { "rsqrt.approx.f32 %f1, %f2;", IR_OP_RSQRT, IR_T_F32, 0, 1, 1, NULL },
    { "rsqrt.approx.ftz.f64 %fd1, %fd2;", IR_OP_RSQRT, IR_T_F64, 0, 1, 1, NULL },
    { "ex2.approx.ftz.f32 %f1, %f2;", IR_OP_EX2, IR_T_F32, 0, 1, 1, NULL },
    { "ex2.approx.f32 %f1, %f2;", IR_OP_EX2, IR_T_F32, 0, 1, 1, NULL },
    { "lg2.approx.ftz.f32 %f1, %f2;", IR_OP_LG2, IR_T_F32, 0, 1, 1, NULL },
    { "sin.approx.f32 %f1, %f2;", IR_OP_SIN, IR_T_F32, 0, 1, 1, NULL },
    { "cos.approx.ftz.f32 %f1, %f2;", IR_OP_COS, IR_T_F32, 0, 1, 1, NULL },
    { "tanh.approx.f32 %f1, %f2;", IR_OP_TANH, IR_T_F32, 0, 1, 1, NULL },
    { "copysign.f32 %f1, %f2, %f3;", IR_OP_COPYSIGN, IR_T_F32, 0, 1, 2, NULL },
    { "copysign.f64 %fd1, %fd2, %fd3;", IR_OP_COPYSIGN, IR_T_F64, 0, 1, 2, NULL },
    { "testp.finite.f32 %p1, %f1;", IR_OP_TESTP, IR_T_F32, 0, 1, 1, NULL },
    { "testp.infinite.f64 %p1, %fd1;", IR_OP_TESTP, IR_T_F64, 0, 1, 1, NULL },
    { "testp.number.f32 %p1, %f1;", IR_OP_TESTP, IR_T_F32, 0, 1, 1, NULL },
    { "testp.notanumber.f32 %p1, %f1;", IR_OP_TESTP, IR_T_F32, 0, 1, 1, NULL },
    { "testp.normal.f64 %p1, %fd1;", IR_OP_TESTP, IR_T_F64, 0, 1, 1, NULL },
    { "testp.subnormal.f32 %p1, %f1;", IR_OP_TESTP, IR_T_F32, 0, 1, 1, NULL },
    /* bit manipulation */
    { "popc.b32 %r1, %r2;", IR_OP_POPC, IR_T_B32, 0, 1, 1, NULL },
    { "popc.b64 %r1, %rd2;", IR_OP_POPC, IR_T_B64, 0, 1, 1, NULL },
    { "clz.b32 %r1, %r2;", IR_OP_CLZ, IR_T_B32, 0, 1, 1, NULL },
    { "clz.b64 %r1, %rd1;", IR_OP_CLZ, IR_T_B64, 0, 1, 1, NULL },
    { "bfind.u32 %r1, %r2;", IR_OP_BFIND, IR_T_U32, 0, 1, 1, NULL },
    { "bfind.shiftamt.u32 %r1, %r2;", IR_OP_BFIND, IR_T_U32, 0, 1, 1, NULL },
    { "bfind.s64 %r1, %rd1;", IR_OP_BFIND, IR_T_S64, 0, 1, 1, NULL },
    { "brev.b32 %r1, %r2;", IR_OP_BREV, IR_T_B32, 0, 1, 1, NULL },
    { "brev.b64 %rd1, %rd2;", IR_OP_BREV, IR_T_B64, 0, 1, 1, NULL },
    { "bfe.u32 %r1, %r2, 8, 4;", IR_OP_BFE, IR_T_U32, 0, 1, 3, NULL },
    { "bfe.s64 %rd1, %rd2, %r1, %r2;", IR_OP_BFE, IR_T_S64, 0, 1, 3, NULL },
    { "bfi.b32 %r1, %r2, %r3, 8, 4;", IR_OP_BFI, IR_T_B32, 0, 1, 4, NULL },
    { "bfi.b64 %rd1, %rd2, %rd3, %r1, %r2;", IR_OP_BFI, IR_T_B64, 0, 1, 4, NULL },
    { "prmt.b32 %r1, %r2, %r3, 12816;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, NULL },
    { "prmt.b32.f4e %r1, %r2, %r3, %r4;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, "prmt.f4e.b32 %r1, %r2, %r3, %r4;" },
    { "prmt.b4e.b32 %r1, %r2, %r3, %r4;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, NULL },
    { "prmt.rc8.b32 %r1, %r2, %r3, %r4;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, NULL },
    { "prmt.ecl.b32 %r1, %r2, %r3, %r4;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, NULL },
    { "prmt.ecr.b32 %r1, %r2, %r3, %r4;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, NULL },
    { "prmt.rc16.b32 %r1, %r2, %r3, %r4;", IR_OP_PRMT, IR_T_B32, 0, 1, 3, NULL },
    /* warp-level */
    { "shfl.sync.down.b32 %r3|%p1, %r1, %r2, 31, -1;", IR_OP_SHFL, IR_T_B32, 0, 2, 4, NULL },
    { "shfl.sync.up.b32 %r3, %r1, 1, 0, %r4;", IR_OP_SHFL, IR_T_B32, 0, 1, 4, NULL },
    { "shfl.sync.bfly.b32 %r3|%p1, %r1, 4, 31, -1;", IR_OP_SHFL, IR_T_B32, 0, 2, 4, NULL },
    { "shfl.sync.idx.b32 %r3, %r1, %r2, 6175, -1;", IR_OP_SHFL, IR_T_B32, 0, 1, 4, NULL },
    { "vote.sync.ballot.b32 %r1, %p1, -1;", IR_OP_VOTE, IR_T_B32, 0, 1, 2, NULL },
    { "vote.sync.any.pred %p1, %p2, %r1;", IR_OP_VOTE, IR_T_PRED, 0, 1, 2, NULL },
    { "vote.sync.all.pred %p1, !%p2, -1;", IR_OP_VOTE, IR_T_PRED, 0, 1, 2, NULL },
    { "vote.sync.uni.pred %p1, %p2, -1;", IR_OP_VOTE, IR_T_PRED, 0, 1, 2, NULL },
    { "vote.ballot.b32 %r1, %p1;", IR_OP_VOTE, IR_T_B32, 0, 1, 1, NULL },
    { "activemask.b32 %r1;", IR_OP_ACTIVEMASK, IR_T_B32, 0, 1, 0, NULL },
    /* special registers */
    { "mov.u32 %r1, %tid.x;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %ntid.z;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %ctaid.y;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %nctaid.x;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %laneid;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %warpid;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %nwarpid;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %smid;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %gridid;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %clock;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u64 %rd1, %clock64;", IR_OP_MOV, IR_T_U64, 0, 1, 1, NULL },
    { "mov.u32 %r1, %lanemask_eq;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %lanemask_le;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %lanemask_lt;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %lanemask_ge;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %lanemask_gt;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    { "mov.u32 %r1, %dynamic_smem_size;", IR_OP_MOV, IR_T_U32, 0, 1, 1, NULL },
    /* misc */
    { "prefetch.global.L2 [%rd1];", IR_OP_PREFETCH, 0, 0, 0, 1, "prefetch.global [%rd1];" },
    { "nanosleep.u32 100;", IR_OP_NANOSLEEP, IR_T_U32, 0, 0, 1, NULL },
    { "@%p1 add.s32 %r1, %r2, 1;", IR_OP_ADD, IR_T_S32, 0, 1, 2, NULL },
    { "@!%p2 st.global.u32 [%rd1], %r1;", IR_OP_ST, IR_T_U32, 0, 0, 2, NULL },
};

static void test_instruction_table(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(instr_cases); i++) {
        const instr_case *c = &instr_cases[i];
        char *text = g_strconcat(KERNEL_HEAD "\t", c->text, "\n\tret;\n}\n", NULL);
        ir_module *m = parse_ok(text);
        ir_func *f = ir_module_find_func(m, "t");
        g_assert_cmpuint(ir_func_n_instrs(f), ==, 2);
        ir_instr *in = ir_func_instr(f, 0);
        GString *s = g_string_new(NULL);
        ir_print_instr(s, m, f, in);
        g_test_message("%s -> %s", c->text, s->str);
        g_assert_cmpstr(s->str, ==, c->printed ? c->printed : c->text);
        g_assert_cmpuint(in->op, ==, c->op);
        g_assert_cmpuint(in->type, ==, c->type);
        g_assert_cmpuint(in->type2, ==, c->type2);
        g_assert_cmpuint(in->n_dst, ==, c->n_dst);
        g_assert_cmpuint(in->n_src, ==, c->n_src);
        g_assert_cmpuint(in->line, ==, 19);
        g_assert_cmpuint(in->col, ==, c->text[0] == '@' ? (unsigned)(strchr(c->text, ' ') - c->text) + 3 : 2);
        g_assert_cmpuint(ir_instr_class(in), <, IR_CLASS_COUNT);
        /* uses/defs agree with the operands */
        uint32_t regs[16];
        unsigned nd = ir_instr_defs(in, regs, 16);
        for (unsigned k = 0; k < nd; k++)
            g_assert_cmpuint(regs[k], <, f->regs->len);
        unsigned nu = ir_instr_uses(in, regs, 16);
        for (unsigned k = 0; k < nu; k++)
            g_assert_cmpuint(regs[k], <, f->regs->len);
        g_string_free(s, TRUE);
        ir_module_free(m);
        g_free(text);
    }
}

/* Field-level checks the printed text can not show by itself. */
static void test_instruction_fields_real(void)
{
    ir_module *m = parse_ok(KERNEL_HEAD
                            "\tsetp.lt.and.s32 %p1, %r1, %r2, !%p3;\n"              /* 0 */
                            "\tshfl.sync.down.b32 %r3|%p1, %r1, %r2, 31, -1;\n"     /* 1 */
                            "\tld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+16];\n" /* 2 */
                            "\tatom.shared.cas.b32 %r1, [sbuf+4], %r2, %r3;\n"     /* 3 */
                            "\tmul.wide.u16 %r1, %rs1, %rs2;\n"                     /* 4 */
                            "\tbar.red.popc.u32 %r1, 0, %p1;\n"                     /* 5 */
                            "\tcvt.rni.sat.f32.f32 %f1, %f2;\n"                     /* 6 */
                            "\tfence.acq_rel.gpu;\n"                                /* 7 */
                            "\tshf.r.wrap.b32 %r1, %r2, %r3, %r4;\n"                /* 8 */
                            "\tvote.sync.uni.pred %p1, %p2, -1;\n"                  /* 9 */
                            "\tset.gtu.u32.f64 %r1, %fd1, %fd2;\n"                  /* 10 */
                            "\tret;\n}\n");
    ir_func *f = ir_module_find_func(m, "t");
    ir_instr *in = ir_func_instr(f, 0);
    g_assert_cmpuint(in->cmp, ==, IR_CMP_LT);
    g_assert_cmpuint(in->boolop, ==, IR_BOOL_AND);
    g_assert_cmpuint(in->src[2].kind, ==, IR_OPND_REG);
    g_assert_true(in->src[2].neg);
    g_assert_cmpuint(in->src[2].u.reg, ==, ir_func_find_reg(f, "%p3"));
    g_assert_cmpuint(ir_instr_src_type(in, 2), ==, IR_T_PRED);
    g_assert_cmpuint(ir_instr_dst_type(in, 0), ==, IR_T_PRED);

    in = ir_func_instr(f, 1);
    g_assert_cmpuint(in->sub, ==, IR_SHFL_DOWN);
    g_assert_true(in->flags & IR_F_SYNC);
    g_assert_cmpuint(in->dst[1].u.reg, ==, ir_func_find_reg(f, "%p1"));
    g_assert_cmpuint(in->src[3].u.imm, ==, UINT64_MAX);
    g_assert_cmpuint(ir_instr_dst_type(in, 1), ==, IR_T_PRED);
    uint32_t regs[8];
    g_assert_cmpuint(ir_instr_defs(in, regs, 8), ==, 2);
    g_assert_cmpuint(ir_instr_class(in), ==, IR_CLASS_WARP);

    in = ir_func_instr(f, 2);
    g_assert_cmpuint(in->vec, ==, 4);
    g_assert_true(in->flags & IR_F_NC);
    g_assert_cmpuint(in->space, ==, IR_SPACE_GLOBAL);
    g_assert_cmpuint(in->dst[0].kind, ==, IR_OPND_VEC);
    g_assert_cmpuint(in->dst[0].comp, ==, 4);
    g_assert_cmpuint(in->dst[0].u.vec_regs[2], ==, IR_NONE);
    g_assert_cmpuint(ir_instr_defs(in, regs, 8), ==, 3);
    g_assert_cmpuint(ir_instr_class(in), ==, IR_CLASS_MEM);

    in = ir_func_instr(f, 3);
    g_assert_cmpuint(in->atom, ==, IR_ATOM_CAS);
    g_assert_cmpuint(in->space, ==, IR_SPACE_SHARED);
    g_assert_cmpstr(g_array_index(m->syms, ir_sym, in->src[0].u.mem.base_sym).name, ==, "sbuf");
    g_assert_cmpint(in->src[0].u.mem.offset, ==, 4);
    g_assert_cmpuint(ir_instr_uses(in, regs, 8), ==, 2);

    in = ir_func_instr(f, 4);
    g_assert_true(in->flags & IR_F_WIDE);
    g_assert_cmpuint(ir_instr_dst_type(in, 0), ==, IR_T_U32);
    g_assert_cmpuint(ir_instr_class(in), ==, IR_CLASS_INT);

    in = ir_func_instr(f, 5);
    g_assert_cmpuint(in->sub, ==, IR_BAR_RED_POPC);
    g_assert_cmpuint(ir_instr_src_type(in, 1), ==, IR_T_PRED);
    g_assert_cmpuint(ir_instr_class(in), ==, IR_CLASS_SYNC);

    in = ir_func_instr(f, 6);
    g_assert_cmpuint(in->rnd, ==, IR_RND_RNI);
    g_assert_true(in->flags & IR_F_SAT);

    in = ir_func_instr(f, 7);
    g_assert_cmpuint(in->sub, ==, IR_SCOPE_GPU);
    g_assert_true(in->flags & IR_F_ACQ_REL);

    in = ir_func_instr(f, 8);
    g_assert_cmpuint(in->sub, ==, IR_SHF_R_WRAP);

    in = ir_func_instr(f, 9);
    g_assert_cmpuint(in->sub, ==, IR_VOTE_UNI);
    g_assert_cmpuint(ir_instr_dst_type(in, 0), ==, IR_T_PRED);

    in = ir_func_instr(f, 10);
    g_assert_cmpuint(in->type, ==, IR_T_F64);
    g_assert_cmpuint(in->type2, ==, IR_T_U32);
    g_assert_cmpuint(in->cmp, ==, IR_CMP_GTU);
    g_assert_cmpuint(ir_instr_class(in), ==, IR_CLASS_DP);
    ir_module_free(m);
}

static void test_comments_and_directives(void)
{
    ir_module *m = parse_ok("//\n// Generated by NVIDIA NVVM Compiler\n/* block\n comment */\n"
                            ".version 9.0\n.target sm_75, debug\n.address_size 64\n"
                            ".file 1 \"/tmp/x.cu\"\n"
                            ".pragma \"nounroll\";\n"
                            ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, "
                            ".param .b64 vprintf_param_1);\n"
                            ".weak .func w() .noreturn;\n"
                            ".common .global .align 4 .u32 cm;\n"
                            ".visible .entry k() .reqntid 128, 2\n.maxnreg 32\n{ /* c */ .reg .b32 %r<2>; // x\n"
                            "\t.loc 1 5 7\n\tret;\n}\n"
                            ".section .debug_info\n{\n.b32 12\n.b8 1,2\n}\n");
    g_assert_cmpstr(m->version, ==, "9.0");
    g_assert_cmpstr(m->target, ==, "sm_75");
    g_assert_cmpuint(m->address_size, ==, 64);
    ir_func *vp = ir_module_find_func(m, "vprintf");
    g_assert_nonnull(vp);
    g_assert_true(vp->is_extern);
    g_assert_false(vp->is_defined);
    g_assert_cmpuint(vp->params->len, ==, 2);
    ir_func *k = ir_module_find_func(m, "k");
    g_assert_cmpuint(k->reqntid[0], ==, 128);
    g_assert_cmpuint(k->reqntid[1], ==, 2);
    g_assert_cmpuint(k->reqntid[2], ==, 1);
    g_assert_cmpuint(k->maxnreg, ==, 32);
    g_assert_cmpuint(ir_func_n_instrs(k), ==, 1);
    ir_module_free(m);

    /* An empty file is an empty module; comments only, too. */
    m = parse_ok("");
    g_assert_cmpuint(m->funcs->len, ==, 0);
    ir_module_free(m);
    m = parse_ok("// nothing\n/* at all */\n");
    g_assert_cmpuint(m->syms->len, ==, 0);
    ir_module_free(m);
}

/* ---- round trips ------------------------------------------------------------------------------ */
static void roundtrip_file(const char *path)
{
    GError *err = NULL;
    ir_module *m1 = ptx_parse_file(path, &err);
    g_assert_no_error(err);
    char *t1 = print_module(m1);
    ir_module *m2 = ptx_parse_string(t1, -1, "printed.ptx", &err);
    if (!m2)
        g_test_message("%s: reparse: %s", path, err->message);
    g_assert_no_error(err);
    char *t2 = print_module(m2);
    g_assert_cmpstr(t1, ==, t2);
    /* Same shape: functions, instruction counts, registers, symbols. */
    g_assert_cmpuint(m1->funcs->len, ==, m2->funcs->len);
    g_assert_cmpuint(m1->syms->len, ==, m2->syms->len);
    for (guint i = 0; i < m1->funcs->len; i++) {
        /* the printer may reorder functions (prototypes, then bodies): match them by name */
        ir_func *a = g_ptr_array_index(m1->funcs, i), *b = ir_module_find_func(m2, a->name);
        g_assert_nonnull(b);
        g_assert_cmpint(a->is_entry, ==, b->is_entry);
        g_assert_cmpuint(a->params->len, ==, b->params->len);
        g_assert_cmpuint(ir_func_n_instrs(a), ==, ir_func_n_instrs(b));
        g_assert_cmpuint(a->regs->len, ==, b->regs->len);
        g_assert_cmpuint(a->param_bytes, ==, b->param_bytes);
        g_assert_cmpuint(a->shared_bytes, ==, b->shared_bytes);
        g_assert_cmpuint(a->local_bytes, ==, b->local_bytes);
    }
    g_free(t1);
    g_free(t2);
    ir_module_free(m1);
    ir_module_free(m2);
}

static unsigned roundtrip_dir(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return 0;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".ptx"))
            g_ptr_array_add(names, g_build_filename(dir, n, NULL));
    g_dir_close(d);
    for (guint i = 0; i < names->len; i++) {
        g_test_message("round trip %s", (char *)names->pdata[i]);
        roundtrip_file(names->pdata[i]);
    }
    unsigned count = names->len;
    g_ptr_array_free(names, TRUE);
    return count;
}

static void test_roundtrip_files(void)
{
    const char *top = g_getenv("top_srcdir");
    if (!top)
        top = ".";
    char *ptx = g_build_filename(top, "kernels", "ptx", NULL);
    char *corpus = g_build_filename(top, "kernels", "fuzz", "corpus", NULL);
    unsigned n = roundtrip_dir(ptx) + roundtrip_dir(corpus);
    g_assert_cmpuint(n, >, 0); /* at least the corpus' sample */
    g_free(ptx);
    g_free(corpus);
}

/* atom and red accept exactly the operation x type pairs of the PTX ISA: every operation with every
 * scalar type, against a table written here independently of the parser's. */
static void test_atom_types(void)
{
    static const char *const types[] = { "b16", "b32", "b64", "u32", "s32", "u64", "s64", "f32", "f64",
                                         "f16" };
    static const struct { const char *op, *ok; } table[] = {
        { "and", "b32 b64" }, { "or", "b32 b64" }, { "xor", "b32 b64" }, { "exch", "b32 b64" },
        { "cas", "b16 b32 b64" }, { "add", "u32 s32 u64 f32 f64 f16" }, { "inc", "u32" }, { "dec", "u32" },
        { "min", "u32 s32 u64 s64" }, { "max", "u32 s32 u64 s64" },
    };
    unsigned accepted = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(table); i++) {
        for (size_t j = 0; j < G_N_ELEMENTS(types); j++) {
            const char *t = types[j];
            const char *reg = t[1] == '1'   ? "%rs1"
                              : t[1] == '3' ? (t[0] == 'f' ? "%f1" : "%r1")
                                            : (t[0] == 'f' ? "%fd1" : "%rd1");
            bool want = strstr(table[i].ok, t) != NULL;
            bool cas = strcmp(table[i].op, "cas") == 0;
            const char *noftz = strcmp(t, "f16") == 0 ? ".noftz" : "";
            for (int red = 0; red < 2; red++) {
                if (red && (cas || strcmp(table[i].op, "exch") == 0))
                    continue; /* red has neither */
                char *line =
                    red ? g_strdup_printf("\tred.global.%s%s.%s [%%rd2], %s;\n", table[i].op, noftz, t, reg)
                        : g_strdup_printf("\tatom.global.%s%s.%s %s, [%%rd2], %s%s%s;\n", table[i].op, noftz,
                                          t, reg, reg, cas ? ", " : "", cas ? reg : "");
                char *text = g_strconcat(KERNEL_HEAD, line, "\tret;\n}\n", NULL);
                g_free(line);
                GError *err = NULL;
                ir_module *m = ptx_parse_string(text, -1, "atom.ptx", &err);
                if ((m != NULL) != want)
                    g_error("%s.%s.%s: %s, want %s", red ? "red" : "atom", table[i].op, t,
                            m ? "accepted" : err->message, want ? "accepted" : "an error");
                if (!m) {
                    unsigned lineno = 1;
                    for (const char *c = KERNEL_HEAD; *c; c++)
                        lineno += *c == '\n';
                    char *where = g_strdup_printf("atom.ptx:%u:2: bad type .%s for %s.%s (it takes ", lineno,
                                                  t, red ? "red" : "atom", table[i].op);
                    if (!g_str_has_prefix(err->message, where))
                        g_error("%s: want %s...", err->message, where);
                    g_free(where);
                }
                accepted += m != NULL;
                ir_module_free(m);
                g_clear_error(&err);
                g_free(text);
            }
        }
    }
    /* 27 pairs for atom, 22 for red (no exch, no cas). */
    g_assert_cmpuint(accepted, ==, 27 + 22);
}

static void test_roundtrip_instructions(void)
{
    GString *all = g_string_new(KERNEL_HEAD);
    for (size_t i = 0; i < G_N_ELEMENTS(instr_cases); i++)
        g_string_append_printf(all, "\t%s\n", instr_cases[i].text);
    g_string_append(all, "\tret;\n}\n");
    ir_module *m1 = parse_ok(all->str);
    char *t1 = print_module(m1);
    ir_module *m2 = parse_ok(t1);
    char *t2 = print_module(m2);
    g_assert_cmpstr(t1, ==, t2);
    g_free(t1);
    g_free(t2);
    ir_module_free(m1);
    ir_module_free(m2);
    g_string_free(all, TRUE);
}

static void test_instruction_classes(void)
{
    static const struct { const char *text; ir_class c; } cases[] = {
        { "add.s32 %r1, %r2, %r3;", IR_CLASS_ALU }, { "add.f32 %f1, %f2, %f3;", IR_CLASS_ALU },
        { "mul.wide.s32 %rd1, %r2, 4;", IR_CLASS_INT }, { "mul.hi.u32 %r1, %r2, %r3;", IR_CLASS_INT },
        { "div.s32 %r1, %r2, %r3;", IR_CLASS_INT }, { "popc.b32 %r1, %r2;", IR_CLASS_INT },
        { "div.rn.f32 %f1, %f2, %f3;", IR_CLASS_SFU }, { "rcp.rn.f32 %f1, %f2;", IR_CLASS_SFU },
        { "ex2.approx.f32 %f1, %f2;", IR_CLASS_SFU }, { "add.f64 %fd1, %fd2, %fd3;", IR_CLASS_DP },
        { "cvt.rn.f32.f64 %f1, %fd1;", IR_CLASS_DP }, { "cvt.f64.f32 %fd1, %f1;", IR_CLASS_DP },
        { "rcp.rn.f64 %fd1, %fd2;", IR_CLASS_DP }, { "ld.global.u32 %r1, [%rd1];", IR_CLASS_MEM },
        { "st.shared.u32 [%r1], %r2;", IR_CLASS_MEM }, { "atom.global.add.u32 %r1, [%rd1], 1;", IR_CLASS_MEM },
        { "red.global.add.u32 [%rd1], 1;", IR_CLASS_MEM }, { "ret;", IR_CLASS_CTRL }, { "exit;", IR_CLASS_CTRL },
        { "bar.sync 0;", IR_CLASS_SYNC }, { "membar.gl;", IR_CLASS_SYNC }, { "fence.acq_rel.gpu;", IR_CLASS_SYNC },
        { "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", IR_CLASS_WARP }, { "vote.sync.any.pred %p1, %p2, -1;", IR_CLASS_WARP },
        { "activemask.b32 %r1;", IR_CLASS_WARP }, { "setp.lt.s32 %p1, %r1, %r2;", IR_CLASS_ALU },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *text = g_strconcat(KERNEL_HEAD "\t", cases[i].text, "\n\tret;\n}\n", NULL);
        ir_module *m = parse_ok(text);
        ir_instr *in = ir_func_instr(ir_module_find_func(m, "t"), 0);
        g_test_message("%s -> %s", cases[i].text, ir_class_name(ir_instr_class(in)));
        g_assert_cmpstr(ir_class_name(ir_instr_class(in)), ==, ir_class_name(cases[i].c));
        ir_module_free(m);
        g_free(text);
    }
}

/* Prototypes first, a definition calling a function defined after it, an entry between them: the
 * printed order must parse back to the same order (print is a fixpoint). */
static void test_roundtrip_function_order(void)
{
    ir_module *m1 = parse_ok(HEADER
                             ".func (.param .b32 func_retval0) g(.param .b32 g_param_0);\n"
                             ".func f()\n{\n\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
                             "\tcall.uni (retval0), h, (param0);\n\t}\n\tret;\n}\n"
                             ".visible .entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n"
                             ".func (.param .b32 func_retval0) h(.param .b32 h_param_0)\n{\n\t{\n"
                             "\t.param .b32 param0;\n\t.param .b32 retval0;\n"
                             "\tcall.uni (retval0), g, (param0);\n\t}\n\tret;\n}\n"
                             ".func (.param .b32 func_retval0) g(.param .b32 g_param_0)\n{\n\tret;\n}\n");
    g_assert_cmpstr(((ir_func *)g_ptr_array_index(m1->funcs, 0))->name, ==, "g");
    g_assert_cmpstr(((ir_func *)g_ptr_array_index(m1->funcs, 2))->name, ==, "h");
    char *t1 = print_module(m1);
    ir_module *m2 = parse_ok(t1);
    char *t2 = print_module(m2);
    g_assert_cmpstr(t1, ==, t2);
    /* every call still names the same callee */
    ir_func *k = ir_module_find_func(m2, "k"), *h = ir_module_find_func(m2, "h");
    g_assert_cmpstr(((ir_func *)g_ptr_array_index(m2->funcs, ir_func_instr(k, 0)->src[0].u.func))->name, ==, "f");
    g_assert_cmpstr(((ir_func *)g_ptr_array_index(m2->funcs, ir_func_instr(h, 0)->src[0].u.func))->name, ==, "g");
    g_free(t1);
    g_free(t2);
    ir_module_free(m1);
    ir_module_free(m2);
}

/* ---- names and lookups -------------------------------------------------------------------------- */
/* `!%p` on the .pred sources of and/or/xor/not/mov (shape 'a', type .pred), selp's c and setp's c:
 * the parser keeps the neg and ir_exec applies it exactly once (raw register values go in). */
typedef struct {
    const char *text;
    uint64_t p2, p3; /* raw values of %p2 and %p3 */
    uint64_t want;   /* dst[0] lane 0 */
} neg_case;

static void test_pred_negation_exec(void)
{
    static const neg_case cases[] = {
        { "and.pred %p1, %p2, !%p3;", 1, 1, 0 }, { "and.pred %p1, %p2, !%p3;", 1, 0, 1 },
        { "or.pred %p1, !%p2, %p3;", 1, 0, 0 },  { "or.pred %p1, !%p2, %p3;", 0, 0, 1 },
        { "xor.pred %p1, %p2, !%p3;", 1, 1, 1 }, { "xor.pred %p1, !%p2, !%p3;", 1, 0, 1 },
        { "not.pred %p1, !%p2;", 1, 0, 1 },      { "not.pred %p1, !%p2;", 0, 0, 0 },
        { "mov.pred %p1, !%p2;", 1, 0, 0 },      { "mov.pred %p1, !%p2;", 0, 0, 1 },
        { "selp.b32 %r1, 7, 9, !%p2;", 1, 0, 9 }, { "selp.b32 %r1, 7, 9, !%p2;", 0, 0, 7 },
        { "setp.eq.and.u32 %p1, 5, 5, !%p2;", 1, 0, 0 },
        { "setp.eq.and.u32 %p1, 5, 5, !%p2;", 0, 0, 1 },
    };
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        char *text = g_strdup_printf(HEADER ".visible .entry k()\n{\n.reg .pred %%p<4>;\n.reg .b32 %%r<4>;\n"
                                            ".reg .f32 %%f<4>;\n.reg .b64 %%rd<4>;\n%s\nret;\n}\n",
                                     cases[c].text);
        ir_module *m = parse_ok(text);
        const ir_func *f = g_ptr_array_index(m->funcs, 0);
        const ir_instr *in = ir_func_instr(f, 0);
        char *printed = print_module(m);
        g_assert_nonnull(strstr(printed, "!%p"));
        ir_exec_ctx x;
        memset(&x, 0, sizeof x);
        x.in = in;
        x.active = 0xffffffffu;
        for (unsigned s = 0; s < in->n_src; s++) {
            const ir_operand *o = &in->src[s];
            uint64_t v = o->kind == IR_OPND_IMM ? o->u.imm : 0;
            if (o->kind == IR_OPND_REG) {
                const char *name = g_array_index(f->regs, ir_reg, o->u.reg).name;
                v = strcmp(name, "%p2") == 0 ? cases[c].p2 : strcmp(name, "%p3") == 0 ? cases[c].p3 : 0;
            }
            for (unsigned l = 0; l < IR_WARP_SIZE; l++)
                x.src[s].v[l] = v;
        }
        g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
        if (x.dst[0].v[0] != cases[c].want)
            g_test_message("%s with p2=%u p3=%u", cases[c].text, (unsigned)cases[c].p2, (unsigned)cases[c].p3);
        g_assert_cmpuint(x.dst[0].v[0], ==, cases[c].want);
        g_free(printed);
        ir_module_free(m);
        g_free(text);
    }
}

/* Register/instruction type pairs ptxas accepts (checked with ptxas 13, sm_75): bit-size registers
 * with any type of their size, u/s interchangeably, wider registers for ld/st/cvt, mov packing. */
static void test_operand_types_accepted(void)
{
    static const char *const lines[] = {
        "add.f32 %r1, %r2, %r2;", "add.u32 %s1, %s1, %s1;", "add.s32 %u1, %u1, %u1;",
        "mov.b32 %f1, %r1;", "mov.f32 %r1, %f1;", "and.b32 %f1, %f1, %f1;", "shl.b32 %f1, %f1, %r1;",
        "ld.global.u32 %rd1, [%rd1];", "ld.global.u8 %r1, [%rd1];", "ld.global.f32 %r1, [%rd1];",
        "ld.global.s32 %u1, [%rd1];", "ld.global.u16 %rs1, [%rd1];", "st.global.u8 [%rd1], %rd1;",
        "st.global.u16 [%rd1], %r1;", "cvt.u32.u64 %rd1, %rd1;", "cvt.u64.u32 %rd1, %rd1;",
        "cvt.u32.u16 %r1, %r1;", "cvt.rn.f32.f64 %f1, %rd1;", "mul.wide.u32 %rd1, %r1, %r1;",
        "mov.b64 %rd1, {%r1, %r2};", "mov.b32 {%rs1, %rs2}, %r1;", "st.global.v2.f32 [%rd1], {%r1, %r2};",
        "popc.b64 %r1, %rd1;", "cvt.rn.f16.f32 %rs1, %f1;", "set.eq.u32.f32 %r1, %f1, %f1;",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
        char *text = g_strdup_printf(HEADER ".visible .entry k()\n{\n.reg .pred %%p<4>;\n.reg .b32 %%r<4>;\n"
                                            ".reg .f32 %%f<4>;\n.reg .b64 %%rd<4>;\n.reg .u32 %%u<4>;\n"
                                            ".reg .s32 %%s<4>;\n.reg .b16 %%rs<4>;\n%s\nret;\n}\n",
                                     lines[i]);
        ir_module *m = parse_ok(text);
        ir_module_free(m);
        g_free(text);
    }
}

/* The same negations through the functional runner on a whole kernel: thread t has p2 = t&1 and
 * p3 = t&2; each result is stored as a word, out[8t + k]. */
static void test_pred_negation_frun(void)
{
    static const char text[] =
        HEADER ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<4>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 32;\n"
        "\tadd.s64 %rd1, %rd1, %rd2;\n\tand.b32 %r2, %r1, 1;\n\tsetp.ne.u32 %p2, %r2, 0;\n"
        "\tand.b32 %r2, %r1, 2;\n\tsetp.ne.u32 %p3, %r2, 0;\n"
        "\tand.pred %p1, %p2, !%p3;\n\tselp.u32 %r3, 1, 0, %p1;\n\tst.global.u32 [%rd1], %r3;\n"
        "\tor.pred %p1, !%p2, %p3;\n\tselp.u32 %r3, 1, 0, %p1;\n\tst.global.u32 [%rd1+4], %r3;\n"
        "\txor.pred %p1, !%p2, %p3;\n\tselp.u32 %r3, 1, 0, %p1;\n\tst.global.u32 [%rd1+8], %r3;\n"
        "\tnot.pred %p1, !%p2;\n\tselp.u32 %r3, 1, 0, %p1;\n\tst.global.u32 [%rd1+12], %r3;\n"
        "\tmov.pred %p1, !%p3;\n\tselp.u32 %r3, 1, 0, %p1;\n\tst.global.u32 [%rd1+16], %r3;\n"
        "\tselp.u32 %r3, 1, 0, !%p2;\n\tst.global.u32 [%rd1+20], %r3;\n"
        "\tsetp.eq.and.u32 %p1, %r1, %r1, !%p3;\n\tselp.u32 %r3, 1, 0, %p1;\n\tst.global.u32 [%rd1+24], %r3;\n"
        "\tret;\n}\n";
    ir_module *m = parse_ok(text);
    GString *err = g_string_new(NULL);
    wl_device *dev = frun_device_new(m, err);
    if (!dev)
        g_error("frun_device_new: %s", err->str);
    enum { N = 32 };
    uint64_t out = dev->ops->alloc(dev, N * 32);
    g_assert_cmpuint(out, !=, 0);
    wl_arg args[] = { WL_PTR(out) };
    wl_launch l = { .entry = "k", .grid = { 1, 1, 1 }, .block = { N, 1, 1 }, .args = args, .n_args = 1 };
    if (dev->ops->launch(dev, &l, err))
        g_error("launch: %s", err->str);
    uint32_t got[N * 8];
    g_assert_cmpint(dev->ops->read(dev, out, got, sizeof got, err), ==, 0);
    for (unsigned t = 0; t < N; t++) {
        bool p2 = t & 1, p3 = (t >> 1) & 1;
        uint32_t want[7] = { p2 && !p3, !p2 || p3, !p2 != p3, p2, !p3, !p2, !p3 };
        for (unsigned k = 0; k < 7; k++) {
            if (got[8 * t + k] != want[k])
                g_test_message("thread %u result %u", t, k);
            g_assert_cmpuint(got[8 * t + k], ==, want[k]);
        }
    }
    frun_device_free(dev);
    g_string_free(err, TRUE);
    ir_module_free(m);
}

static void test_names(void)
{
    g_assert_cmpstr(ir_type_name(IR_T_S32), ==, "s32");
    g_assert_cmpuint(ir_type_from_name("f64"), ==, IR_T_F64);
    g_assert_cmpuint(ir_type_from_name("x"), ==, IR_T_NONE);
    g_assert_cmpuint(ir_type_bits(IR_T_PRED), ==, 1);
    g_assert_cmpuint(ir_type_bits(IR_T_B128), ==, 128);
    g_assert_true(ir_type_is_signed(IR_T_S8));
    g_assert_false(ir_type_is_signed(IR_T_U64));
    g_assert_true(ir_type_is_float(IR_T_F16));
    g_assert_cmpstr(ir_op_name(IR_OP_ACTIVEMASK), ==, "activemask");
    g_assert_cmpstr(ir_space_name(IR_SPACE_SHARED), ==, "shared");
    g_assert_cmpstr(ir_space_name(IR_SPACE_NONE), ==, "");
    g_assert_cmpstr(ir_sreg_name(IR_SREG_LANEMASK_GT), ==, "lanemask_gt");
    g_assert_cmpstr(ir_class_name(IR_CLASS_SFU), ==, "sfu");
    for (unsigned t = 1; t < IR_T_COUNT; t++)
        g_assert_cmpuint(ir_type_from_name(ir_type_name((ir_type)t)), ==, t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ptx/names", test_names);
    g_test_add_func("/ptx/pred-negation-exec", test_pred_negation_exec);
    g_test_add_func("/ptx/pred-negation-frun", test_pred_negation_frun);
    g_test_add_func("/ptx/operand-types-accepted", test_operand_types_accepted);
    g_test_add_func("/ptx/struct-param-offsets", test_struct_param_offsets);
    g_test_add_func("/ptx/reg-vector-decl", test_reg_vector_decl);
    g_test_add_func("/ptx/labels", test_labels);
    g_test_add_func("/ptx/calls-and-scopes", test_calls_and_scopes);
    g_test_add_func("/ptx/initialisers", test_initialisers);
    g_test_add_func("/ptx/address-initialisers", test_address_initialisers);
    g_test_add_func("/ptx/atom-types", test_atom_types);
    g_test_add_func("/ptx/function-data", test_function_data);
    g_test_add_func("/ptx/immediates", test_immediates);
    g_test_add_func("/ptx/instruction-table", test_instruction_table);
    g_test_add_func("/ptx/instruction-fields", test_instruction_fields_real);
    g_test_add_func("/ptx/instruction-classes", test_instruction_classes);
    g_test_add_func("/ptx/comments-and-directives", test_comments_and_directives);
    g_test_add_func("/ptx/roundtrip-instructions", test_roundtrip_instructions);
    g_test_add_func("/ptx/roundtrip-files", test_roundtrip_files);
    g_test_add_func("/ptx/roundtrip-function-order", test_roundtrip_function_order);
    return g_test_run();
}
