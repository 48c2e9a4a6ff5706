/* test_decode — the `decode` block alone in the harness (models/core/harness.h), called through its
 * exported `dec` interface as fetch calls it, on a small PTX kernel (below): each instruction's
 * class, opcode, control bit, register slots (the function's virtual registers from its reg_base,
 * kernels/run/kload.h) and bank registers (the physical registers, a 64-bit value its aligned pair,
 * predicates none); the implicit ret past the end; the statistics (decoded per call, first_decodes
 * once per instruction and launch); the traced calls; two blocks of one machine sharing the decoded
 * lines, each with its own counts. */
#include <glib.h>
#include <string.h>

#include "kernels/run/kload.h"
#include "kernels/frontend/ptx_parse.h"
#include "models/sm/decode.h"
#include "tests/sm/block_test.h"

static const char kernel[] = ".version 7.0\n"
                             ".target sm_75\n"
                             ".address_size 64\n"
                             ".visible .entry dec(.param .u64 out)\n"
                             "{\n"
                             "\t.reg .b32 %r<4>;\n"
                             "\t.reg .b64 %rd<3>;\n"
                             "\t.reg .pred %p<2>;\n"
                             "\tld.param.u64 %rd1, [out];\n"  /* 0 */
                             "\tmov.u32 %r1, %tid.x;\n"       /* 1 */
                             "\tsetp.lt.u32 %p1, %r1, 8;\n"   /* 2 */
                             "\t@%p1 bra END;\n"              /* 3 */
                             "\tadd.s32 %r2, %r1, %r1;\n"     /* 4 */
                             "\tmul.wide.u32 %rd2, %r2, 4;\n" /* 5 */
                             "\tst.global.u32 [%rd1], %r2;\n" /* 6 */
                             "\tbar.sync 0;\n"                /* 7 */
                             "END:\n"
                             "}\n";
enum { N_INSTRS = 8 };

static sm_env *env_get(void)
{
    static sm_env env;
    if (env.mod)
        return &env;
    GError *err = NULL;
    ir_module *mod = ptx_parse_string(kernel, -1, "dec.ptx", &err);
    g_assert_no_error(err);
    block_env_init(&env, mod, "dec");
    return &env;
}

static void *make_dec(blk_ctx *c, gsc_module *p, const char *n)
{
    return decode_new(c, p, n, env_get());
}

/* The export as the block's client calls it. */
#define DEC(d) ((const decode_if *)(d).m)
#define FUNC   (env_get()->launch.entry)

static block_dut dut_new(const char *vcd)
{
    return block_dut_new(&decode_desc, make_dec, "dec", NULL, vcd, true);
}

static const ir_func *func(void)
{
    return g_ptr_array_index(env_get()->mod->funcs, env_get()->launch.entry);
}

/* The register slot of a named register (its function's reg_base + its virtual number). */
static uint16_t slot(const char *name)
{
    uint32_t v = ir_func_find_reg(func(), name);
    g_assert_cmpuint(v, !=, IR_NONE);
    return (uint16_t)(env_get()->k->funcs[env_get()->launch.entry].reg_base + v);
}

static void expect_regs(const uint16_t *got, unsigned n, const uint16_t *want, unsigned n_want)
{
    g_assert_cmpuint(n, ==, n_want);
    for (unsigned i = 0; i < n; i++)
        g_assert_cmpuint(got[i], ==, want[i]);
}

/* Class, opcode, control bit and register slots of every instruction. */
static void test_instructions(void)
{
    block_dut d = dut_new(NULL);
    g_assert_cmpuint(ir_func_n_instrs(func()), ==, N_INSTRS);
    uint16_t rd1 = slot("%rd1"), rd2 = slot("%rd2"), r1 = slot("%r1"), r2 = slot("%r2"), p1 = slot("%p1");
    g_assert_cmpuint(r1, !=, r2);
    static const struct {
        uint8_t cls, op, ctrl;
    } want[N_INSTRS] = {
        {IR_CLASS_MEM, IR_OP_LD, 0},   {IR_CLASS_ALU, IR_OP_MOV, 0},  {IR_CLASS_ALU, IR_OP_SETP, 0},
        {IR_CLASS_CTRL, IR_OP_BRA, 1}, {IR_CLASS_ALU, IR_OP_ADD, 0},  {IR_CLASS_INT, IR_OP_MUL, 0},
        {IR_CLASS_MEM, IR_OP_ST, 0},   {IR_CLASS_SYNC, IR_OP_BAR, 0},
    };
    /* sources, destinations: the guard first; a register read twice listed once; a store's address
     * register is a source; a parameter takes no register */
    const uint16_t src[N_INSTRS][2] = {{0}, {0}, {r1}, {p1}, {r1}, {r2}, {rd1, r2}, {0}};
    const unsigned n_src[N_INSTRS] = {0, 0, 1, 1, 1, 1, 2, 0};
    const uint16_t dst[N_INSTRS] = {rd1, r1, p1, 0, r2, rd2, 0, 0};
    const unsigned n_dst[N_INSTRS] = {1, 1, 1, 0, 1, 1, 0, 0};
    for (uint32_t pc = 0; pc < N_INSTRS; pc++) {
        const decoded_t *x = DEC(d)->decode(d.self, FUNC, pc);
        g_assert_cmpuint(x->func, ==, FUNC);
        g_assert_cmpuint(x->pc, ==, pc);
        g_assert_cmpuint(x->warp, ==, 0);
        g_assert_cmpuint(x->epoch, ==, 0);
        g_assert_cmpuint(x->cls, ==, want[pc].cls);
        g_assert_cmpuint(x->op, ==, want[pc].op);
        g_assert_cmpuint(x->ctrl, ==, want[pc].ctrl);
        expect_regs(x->src, x->n_src, src[pc], n_src[pc]);
        expect_regs(x->dst, x->n_dst, &dst[pc], n_dst[pc]);
    }
    harness_free(d.h);
}

/* Bank registers: the physical registers (ir_reg.phys as the allocator sets them; here by hand): a
 * 32-bit register one, a 64-bit one its pair, a predicate none. */
static void test_bank_registers(void)
{
    ir_func *f = (ir_func *)func();
    g_array_index(f->regs, ir_reg, ir_func_find_reg(f, "%r1")).phys = 9;
    g_array_index(f->regs, ir_reg, ir_func_find_reg(f, "%r2")).phys = 3;
    g_array_index(f->regs, ir_reg, ir_func_find_reg(f, "%rd1")).phys = 10;
    g_array_index(f->regs, ir_reg, ir_func_find_reg(f, "%rd2")).phys = 4;
    block_dut d = dut_new(NULL);
    const decoded_t *x = DEC(d)->decode(d.self, FUNC, 5); /* mul.wide.u32 %rd2, %r2, 4 */
    static const uint16_t mul_src[] = {3}, mul_dst[] = {4, 5};
    expect_regs(x->bank_src, x->n_bank_src, mul_src, 1);
    expect_regs(x->bank_dst, x->n_bank_dst, mul_dst, 2);
    x = DEC(d)->decode(d.self, FUNC, 6); /* st.global.u32 [%rd1], %r2: the address pair and the data */
    static const uint16_t st_src[] = {10, 11, 3};
    expect_regs(x->bank_src, x->n_bank_src, st_src, 3);
    g_assert_cmpuint(x->n_bank_dst, ==, 0);
    x = DEC(d)->decode(d.self, FUNC, 4); /* add.s32 %r2, %r1, %r1: one read of R9 */
    static const uint16_t add_src[] = {9}, add_dst[] = {3};
    expect_regs(x->bank_src, x->n_bank_src, add_src, 1);
    expect_regs(x->bank_dst, x->n_bank_dst, add_dst, 1);
    x = DEC(d)->decode(d.self, FUNC, 2); /* setp.lt.u32 %p1, %r1, 8: the predicate takes no bank */
    expect_regs(x->bank_src, x->n_bank_src, add_src, 1);
    g_assert_cmpuint(x->n_bank_dst, ==, 0);
    x = DEC(d)->decode(d.self, FUNC, 3); /* @%p1 bra: a slot for the scoreboard, no bank read */
    g_assert_cmpuint(x->n_src, ==, 1);
    g_assert_cmpuint(x->n_bank_src, ==, 0);
    harness_free(d.h);
}

/* Past the last instruction is the implicit ret (control), at the first PC past the end, whatever
 * PC is asked. */
static void test_implicit_ret(void)
{
    block_dut d = dut_new(NULL);
    for (uint32_t pc = N_INSTRS; pc < N_INSTRS + 3; pc++) {
        const decoded_t *x = DEC(d)->decode(d.self, FUNC, pc);
        g_assert_cmpuint(x->cls, ==, IR_CLASS_CTRL);
        g_assert_cmpuint(x->op, ==, IR_OP_RET);
        g_assert_cmpuint(x->ctrl, ==, 1);
        g_assert_cmpuint(x->n_src, ==, 0);
        g_assert_cmpuint(x->n_dst, ==, 0);
        g_assert_cmpuint(x->pc, ==, N_INSTRS);
    }
    g_assert_cmpuint(block_stat(&d, DECODE_STAT_FIRST), ==, 1);
    harness_free(d.h);
}

/* `decoded` counts every call, `first_decodes` each instruction once per launch: a new launch
 * (launch.kernel_no) decodes again. */
static void test_stats(void)
{
    block_dut d = dut_new(NULL);
    blk_inst *in = harness_inst(d.h);
    for (unsigned round = 0; round < 3; round++)
        for (uint32_t pc = 0; pc < 4; pc++)
            DEC(d)->decode(d.self, FUNC, pc);
    DEC(d)->decode(d.self, FUNC, 7);
    g_assert_cmpuint(blk_stat_get(in, DECODE_STAT_DECODED), ==, 13);
    g_assert_cmpuint(blk_stat_get(in, DECODE_STAT_FIRST), ==, 5);
    env_get()->launch.kernel_no++;
    DEC(d)->decode(d.self, FUNC, 0);
    DEC(d)->decode(d.self, FUNC, 0);
    g_assert_cmpuint(blk_stat_get(in, DECODE_STAT_DECODED), ==, 15);
    g_assert_cmpuint(blk_stat_get(in, DECODE_STAT_FIRST), ==, 6);
    env_get()->launch.kernel_no--;
    harness_free(d.h);
}

/* Two decode blocks of one machine (one sm_env): the same line for an instruction, decoded once,
 * each block counting its own first decodes; a new launch starts both counts and the lines again. */
static decode *second;

static void *make_two(blk_ctx *c, gsc_module *p, const char *n)
{
    second = decode_new(c, p, "dec2", env_get());
    return decode_new(c, p, n, env_get());
}

static void test_shared_lines(void)
{
    block_dut d = block_dut_new(&decode_desc, make_two, "dec", NULL, NULL, true);
    decode *a = d.self, *b = second;
    g_assert_true(a->lines == b->lines && a->lines == env_get()->dec_lines);
    const decoded_t *pa[8], *pb[8];
    for (uint32_t pc = 0; pc < 4; pc++)
        pa[pc] = DEC(d)->decode(a, FUNC, pc);
    for (uint32_t pc = 2; pc < 6; pc++)
        pb[pc] = DEC(d)->decode(b, FUNC, pc);
    g_assert_true(pa[2] == pb[2] && pa[3] == pb[3]); /* one line per instruction */
    g_assert_cmpuint(pb[4]->op, ==, IR_OP_ADD);
    g_assert_true(DEC(d)->decode(a, FUNC, 4) == pb[4]);
    g_assert_cmpuint(blk_stat_get(a->inst, DECODE_STAT_FIRST), ==, 5);
    g_assert_cmpuint(blk_stat_get(b->inst, DECODE_STAT_FIRST), ==, 4);
    g_assert_cmpuint(blk_stat_get(a->inst, DECODE_STAT_DECODED), ==, 5);
    env_get()->launch.kernel_no++;
    DEC(d)->decode(b, FUNC, 5);
    g_assert_cmpuint(DEC(d)->decode(a, FUNC, 5)->op, ==, IR_OP_MUL);
    g_assert_cmpuint(blk_stat_get(a->inst, DECODE_STAT_FIRST), ==, 6);
    g_assert_cmpuint(blk_stat_get(b->inst, DECODE_STAT_FIRST), ==, 5);
    env_get()->launch.kernel_no--;
    harness_free(d.h);
    decode_free(b);
    second = NULL;
}

/* `dec.calls` shows the calls of each cycle, `dec.pc` and `dec.op` the last one's. */
static void test_traced(void)
{
    char *path = block_vcd_path();
    block_dut d = dut_new(path);
    uint64_t c0 = harness_step(d.h);
    DEC(d)->decode(d.self, FUNC, 1); /* seen in c0 + 1 (see at()) */
    DEC(d)->decode(d.self, FUNC, 4);
    harness_step(d.h);
    harness_step(d.h);
    DEC(d)->decode(d.self, FUNC, 3); /* c0 + 3 */
    harness_run(d.h, 3);
    harness_free(d.h);
    vcd *v = block_vcd_load(path);
    static const uint64_t want_calls[] = {0, 2, 0, 1, 0}, want_pc[] = {0, 4, 4, 3, 3},
                          want_op[] = {0, IR_OP_ADD, IR_OP_ADD, IR_OP_BRA, IR_OP_BRA};
    for (unsigned i = 0; i < G_N_ELEMENTS(want_calls); i++) {
        g_assert_cmpuint(block_vcd_at(v, "dut.dec.calls", c0 + i), ==, want_calls[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.dec.pc", c0 + i), ==, want_pc[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.dec.op", c0 + i), ==, want_op[i]);
    }
    g_assert_cmpuint(block_vcd_at(v, "dut.dec.func", c0 + 1), ==, env_get()->launch.entry);
    vcd_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/decode/instructions", test_instructions);
    harness_test_add("/sm/decode/bank_registers", test_bank_registers);
    harness_test_add("/sm/decode/implicit_ret", test_implicit_ret);
    harness_test_add("/sm/decode/stats", test_stats);
    harness_test_add("/sm/decode/traced", test_traced);
    harness_test_add("/sm/decode/shared_lines", test_shared_lines);
    return g_test_run();
}
