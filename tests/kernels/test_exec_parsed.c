/* test_exec_parsed.c — ir_exec on instructions produced by the PTX parser: checks that the operand
 * order, types and modifiers the front end records are the ones ir_exec interprets (setp p|q with
 * a negated c, set/slct/cvt types, bfi/bfe/prmt/shf operands, shfl/vote membermask positions,
 * immediates). Every source register gets a value from a small table; expected values by hand. */
#include "tests/kernels/test_exec_util.h"
#include "kernels/frontend/ptx_parse.h"

typedef struct {
    const char *reg;
    uint64_t v;
} rv;

typedef struct {
    uint64_t d[2];
    uint32_t written;
} result;

/* Parse one instruction inside a kernel, give every lane the same source values, run it on all 32
 * lanes and return lane 0's destinations. */
static result run_line(const char *line, const rv *vals, unsigned n_vals)
{
    char *text = g_strdup_printf(".version 8.0\n.target sm_80\n.address_size 64\n"
                                 ".visible .entry k()\n{\n"
                                 ".reg .pred %%p<8>;\n.reg .b16 %%rs<8>;\n.reg .b32 %%r<8>;\n"
                                 ".reg .b64 %%rd<8>;\n.reg .f32 %%f<8>;\n.reg .f64 %%fd<8>;\n"
                                 "%s\nret;\n}\n",
                                 line);
    GError *err = NULL;
    ir_module *m = ptx_parse_string(text, -1, "test.ptx", &err);
    if (!m)
        g_error("%s: %s", line, err->message);
    const ir_func *f = g_ptr_array_index(m->funcs, 0);
    const ir_instr *in = ir_func_instr(f, 0);
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = in;
    x.active = 0xffffffffu;
    for (unsigned s = 0; s < in->n_src; s++) {
        const ir_operand *o = &in->src[s];
        uint64_t v = 0;
        if (o->kind == IR_OPND_IMM) {
            v = o->u.imm;
        } else {
            g_assert_cmpint(o->kind, ==, IR_OPND_REG);
            const char *name = g_array_index(f->regs, ir_reg, o->u.reg).name;
            for (unsigned i = 0; i < n_vals; i++)
                if (strcmp(vals[i].reg, name) == 0)
                    v = vals[i].v;
        }
        for (unsigned l = 0; l < IR_WARP_SIZE; l++)
            x.src[s].v[l] = v;
    }
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    result r = { { x.dst[0].v[0], x.dst[1].v[0] }, x.dst_written };
    ir_module_free(m);
    g_free(text);
    return r;
}

#define RUN(line, ...) run_line((line), (const rv[]){ __VA_ARGS__ }, sizeof((const rv[]){ __VA_ARGS__ }) / sizeof(rv))

static void test_parsed_compare_select(void)
{
    result r = RUN("setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;", { "%r1", 1 }, { "%r2", 2 }, { "%p3", 0 });
    CHECK_HEX(r.written, 3);
    CHECK_HEX(r.d[0], 1);
    CHECK_HEX(r.d[1], 0);
    r = RUN("setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;", { "%r1", 1 }, { "%r2", 2 }, { "%p3", 1 });
    CHECK_HEX(r.d[0], 0);
    r = RUN("setp.gtu.f32 %p1, %f1, %f2;", { "%f1", 0x7fc00000 }, { "%f2", 0 });
    CHECK_HEX(r.d[0], 1);
    r = RUN("setp.ne.s32 %p1, %r1, -1;", { "%r1", 0xffffffff });
    CHECK_HEX(r.d[0], 0);
    r = RUN("selp.b32 %r1, %r2, %r3, %p1;", { "%r2", 11 }, { "%r3", 22 }, { "%p1", 0 });
    CHECK_HEX(r.d[0], 22);
    r = RUN("set.lt.u32.s32 %r1, %r2, %r3;", { "%r2", 0xffffffff }, { "%r3", 0 });
    CHECK_HEX(r.d[0], 0xffffffff);
    r = RUN("set.lt.f32.s32 %f1, %r2, %r3;", { "%r2", 0xffffffff }, { "%r3", 0 });
    CHECK_HEX(r.d[0], 0x3f800000);
    r = RUN("slct.f32.s32 %f1, %f2, %f3, %r1;", { "%f2", 0x3f800000 }, { "%f3", 0x40000000 }, { "%r1", 0xffffffff });
    CHECK_HEX(r.d[0], 0x40000000);
    r = RUN("or.pred %p1, %p2, %p3;", { "%p2", 0 }, { "%p3", 1 });
    CHECK_HEX(r.d[0], 1);
    r = RUN("testp.subnormal.f32 %p1, %f1;", { "%f1", 0x80000001 });
    CHECK_HEX(r.d[0], 1);
}

static void test_parsed_arith(void)
{
    result r = RUN("mad.wide.s32 %rd1, %r1, %r2, %rd2;", { "%r1", 0xfffffffe }, { "%r2", 3 }, { "%rd2", 16 });
    CHECK_HEX(r.d[0], 10);
    r = RUN("mul.hi.u64 %rd1, %rd2, %rd3;", { "%rd2", ~0ull }, { "%rd3", ~0ull });
    CHECK_HEX(r.d[0], 0xfffffffffffffffeull);
    r = RUN("add.f32 %f1, %f2, 0f3F800000;", { "%f2", 0x40000000 });
    CHECK_HEX(r.d[0], 0x40400000);
    r = RUN("add.s32 %r1, %r2, -1;", { "%r2", 0 });
    CHECK_HEX(r.d[0], 0xffffffff);
    r = RUN("fma.rn.f64 %fd1, %fd2, %fd3, %fd4;", { "%fd2", db(2.0) }, { "%fd3", db(3.0) }, { "%fd4", db(-1.0) });
    CHECK_HEX(r.d[0], db(5.0));
    r = RUN("div.rn.f32 %f1, %f2, %f3;", { "%f2", fb(1.0f) }, { "%f3", fb(3.0f) });
    CHECK_HEX(r.d[0], 0x3eaaaaab);
    r = RUN("div.rz.f32 %f1, %f2, %f3;", { "%f2", fb(1.0f) }, { "%f3", fb(3.0f) });
    CHECK_HEX(r.d[0], 0x3eaaaaaa);
    r = RUN("div.s32 %r1, %r2, %r3;", { "%r2", 0x80000000 }, { "%r3", 0xffffffff });
    CHECK_HEX(r.d[0], 0x80000000);
    r = RUN("rcp.approx.ftz.f64 %fd1, %fd2;", { "%fd2", db(4.0) });
    CHECK_HEX(r.d[0], db(0.25));
    r = RUN("ex2.approx.ftz.f32 %f1, %f2;", { "%f2", fb(-2.0f) });
    CHECK_HEX(r.d[0], fb(0.25f));
    r = RUN("copysign.f32 %f1, %f2, %f3;", { "%f2", fb(-1.0f) }, { "%f3", fb(5.0f) });
    CHECK_HEX(r.d[0], fb(-5.0f));
}

static void test_parsed_cvt(void)
{
    result r = RUN("cvt.rn.f32.s32 %f1, %r1;", { "%r1", (uint32_t)-16777219 });
    CHECK_HEX(r.d[0], 0xcb800002);
    r = RUN("cvt.rm.f32.s32 %f1, %r1;", { "%r1", 0x7fffffff });
    CHECK_HEX(r.d[0], 0x4effffff);
    r = RUN("cvt.rzi.s32.f32 %r1, %f1;", { "%f1", fb(-2.7f) });
    CHECK_HEX(r.d[0], 0xfffffffe);
    r = RUN("cvt.u32.u16 %r1, %rs1;", { "%rs1", 0xfffe });
    CHECK_HEX(r.d[0], 0xfffe);
    r = RUN("cvt.s32.s16 %r1, %rs1;", { "%rs1", 0xfffe });
    CHECK_HEX(r.d[0], 0xfffffffe);
    r = RUN("cvt.u64.u32 %rd1, %r1;", { "%r1", 0xffffffff });
    CHECK_HEX(r.d[0], 0xffffffff);
    r = RUN("cvt.f64.f32 %fd1, %f1;", { "%f1", 0x3dcccccd });
    CHECK_HEX(r.d[0], 0x3fb99999a0000000ull);
    r = RUN("cvt.rn.f32.f64 %f1, %fd1;", { "%fd1", db(0.1) });
    CHECK_HEX(r.d[0], 0x3dcccccd);
}

static void test_parsed_bits_warp(void)
{
    result r = RUN("bfi.b32 %r1, %r2, %r3, 8, 4;", { "%r2", 0xff }, { "%r3", 0x12345678 });
    CHECK_HEX(r.d[0], 0x12345f78);
    r = RUN("bfe.s32 %r1, %r2, 4, 8;", { "%r2", 0x8f0 });
    CHECK_HEX(r.d[0], 0xffffff8f);
    r = RUN("prmt.b32.f4e %r1, %r2, %r3, 1;", { "%r2", 0x33221100 }, { "%r3", 0x77665544 });
    CHECK_HEX(r.d[0], 0x44332211);
    r = RUN("prmt.b32 %r1, %r2, %r3, 0x0123;", { "%r2", 0x33221100 }, { "%r3", 0x77665544 });
    CHECK_HEX(r.d[0], 0x00112233);
    r = RUN("shf.r.wrap.b32 %r1, %r2, %r3, 8;", { "%r2", 0x89abcdef }, { "%r3", 0x01234567 });
    CHECK_HEX(r.d[0], 0x6789abcd);
    r = RUN("shf.l.clamp.b32 %r1, %r2, %r3, 40;", { "%r2", 0x89abcdef }, { "%r3", 0x01234567 });
    CHECK_HEX(r.d[0], 0x89abcdef);
    r = RUN("shr.s32 %r1, %r2, 40;", { "%r2", 0x80000000 });
    CHECK_HEX(r.d[0], 0xffffffff);
    r = RUN("bfind.shiftamt.u32 %r1, %r2;", { "%r2", 1 });
    CHECK_HEX(r.d[0], 31);
    /* every lane holds the same value: lane 0 reading lane 1 sees it, with p = 1 */
    r = RUN("shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;", { "%r2", 77 });
    CHECK_HEX(r.written, 3);
    CHECK_HEX(r.d[0], 77);
    CHECK_HEX(r.d[1], 1);
    r = RUN("shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;", { "%r2", 77 });
    CHECK_HEX(r.d[1], 0); /* lane 0 has no lane below it */
    r = RUN("vote.sync.ballot.b32 %r1, %p1, -1;", { "%p1", 1 });
    CHECK_HEX(r.d[0], 0xffffffff);
    r = RUN("vote.sync.ballot.b32 %r1, %p1, 0x0000ffff;", { "%p1", 1 });
    CHECK_HEX(r.d[0], 0x0000ffff);
    r = RUN("vote.sync.all.pred %p2, !%p1, -1;", { "%p1", 0 });
    CHECK_HEX(r.d[0], 1);
    r = RUN("activemask.b32 %r1;", { "%r9", 0 });
    CHECK_HEX(r.d[0], 0xffffffff);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/parsed/compare-select", test_parsed_compare_select);
    g_test_add_func("/exec/parsed/arith", test_parsed_arith);
    g_test_add_func("/exec/parsed/cvt", test_parsed_cvt);
    g_test_add_func("/exec/parsed/bits-warp", test_parsed_bits_warp);
    return g_test_run();
}
