/* test_warp_step — the warp-step engine (kernels/run/warp_step.h) alone, driven as each of its two users
 * drives it: ws_step with a stub ws_ops (as the SM: a global load's lanes go to the load_deferred
 * hook and read the image only when ws_load_apply runs, a global store's bytes travel in
 * ws_info.store_data and leave memory untouched, per-lane spaces and addresses recorded, the value
 * hooks run around each instruction) and ws_run on the same program (as the functional runner:
 * everything performed at once, no hook called, instructions counted). */
#include "kernels/run/kload.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/run/warp_step.h"

#include <string.h>

static const char *ptx = ".version 7.0\n"
                         ".target sm_70\n"
                         ".address_size 64\n"
                         ".visible .entry k(.param .u64 p)\n"
                         "{\n"
                         "  .reg .u32 %r<4>;\n"
                         "  .reg .u64 %rd<4>;\n"
                         "  ld.param.u64 %rd1, [p];\n"
                         "  mov.u32 %r1, %tid.x;\n"
                         "  mul.wide.u32 %rd2, %r1, 4;\n"
                         "  add.u64 %rd3, %rd1, %rd2;\n"
                         "  ld.global.u32 %r2, [%rd3];\n"
                         "  add.u32 %r3, %r2, 100;\n"
                         "  st.global.u32 [%rd3], %r3;\n"
                         "  ret;\n"
                         "}\n";

/* The stub driver: what the hooks saw. */
typedef struct {
    unsigned deferred, before, after;
    ws_load load;
} stub;

static void stub_load_deferred(void *ctx, ws_warp *w, const ws_load *pl)
{
    (void)w;
    stub *s = ctx;
    s->deferred++;
    s->load = *pl;
}

static void stub_before(void *ctx, ws_warp *w, uint32_t func, uint32_t pc, const ir_instr *in, uint32_t mask)
{
    (void)w, (void)func, (void)pc, (void)in, (void)mask;
    ((stub *)ctx)->before++;
}

static void stub_after(void *ctx, ws_warp *w, const ir_instr *in, const ws_info *info)
{
    (void)w, (void)in, (void)info;
    ((stub *)ctx)->after++;
}

static const ws_ops stub_ops = {
    .load_deferred = stub_load_deferred, .before = stub_before, .after = stub_after};

typedef struct {
    ir_module *m;
    fmem *mem;
    kload_module *k;
    ws_prog *prog;
    uint64_t data;
    uint8_t kparam[8];
    uint64_t *regs;
    ws_cta cta;
    ws_warp w;
    ws_launch L;
    frun_stats stats;
    GString *err;
    stub s;
} rig;

static void rig_init(rig *r)
{
    memset(r, 0, sizeof *r);
    GError *gerr = NULL;
    r->m = ptx_parse_string(ptx, -1, "step.ptx", &gerr);
    g_assert_no_error(gerr);
    r->mem = fmem_new();
    r->err = g_string_new(NULL);
    r->k = kload_module_new(r->m, r->mem, r->err);
    g_assert_nonnull(r->k);
    r->prog = ws_prog_new(r->m, false);
    uint32_t vals[32];
    for (unsigned i = 0; i < 32; i++)
        vals[i] = 7 * i;
    r->data = fmem_alloc(r->mem, sizeof vals);
    g_assert_true(fmem_write(r->mem, r->data, vals, sizeof vals));
    memcpy(r->kparam, &r->data, 8);
    uint32_t entry = kload_find_entry(r->k, "k");
    g_assert_cmpuint(entry, !=, IR_NONE);
    r->regs = g_new0(uint64_t, (uint64_t)r->k->total_regs * IR_WARP_SIZE + 1);
    r->w = (ws_warp){.regs = r->regs, .id = 0, .cta = &r->cta};
    r->w.local = g_malloc0(IR_WARP_SIZE * r->k->local_bytes + 1);
    r->w.cparam = g_malloc0(IR_WARP_SIZE * r->k->cparam_bytes + 1);
    r->cta.nwarps = 1;
    simt_init(&r->w.st, entry, 0, 0xffffffffu);
    r->L = (ws_launch){.prog = r->prog,
                       .mod = r->m,
                       .k = r->k,
                       .mem = r->mem,
                       .entry = entry,
                       .kparam = {.data = r->kparam, .size = sizeof r->kparam},
                       .block = {32, 1, 1},
                       .sreg = {.block = {32, 1, 1}, .grid = {1, 1, 1}},
                       .err = r->err,
                       .ops = &stub_ops,
                       .ctx = &r->s,
                       .stats = &r->stats,
                       .budget = 1000};
}

static void rig_free(rig *r)
{
    simt_release(&r->w.st);
    g_free(r->regs);
    g_free(r->w.local);
    g_free(r->w.cparam);
    ws_prog_free(r->prog);
    kload_module_free(r->k);
    fmem_free(r->mem);
    ir_module_free(r->m);
    g_string_free(r->err, TRUE);
}

static uint64_t reg(const rig *r, const char *name, unsigned lane)
{
    const ir_func *f = g_ptr_array_index(r->m->funcs, r->L.entry);
    for (guint i = 0; i < f->regs->len; i++)
        if (strcmp(g_array_index(f->regs, ir_reg, i).name, name) == 0)
            return kload_reg_get(r->regs, r->k->funcs[r->L.entry].at[i], lane);
    g_error("no register %s", name);
}

static uint32_t mem_word(rig *r, unsigned i)
{
    uint32_t v;
    g_assert_true(fmem_read(r->mem, r->data + 4 * i, &v, 4));
    return v;
}

/* ws_step, as the SM: the global load is deferred through the hook, the store carried in info. */
static void test_step_defers(void)
{
    rig r;
    rig_init(&r);
    ws_info info;
    for (unsigned i = 0; i < 4; i++) /* ld.param, mov, mul.wide, add: all performed at once */
        g_assert_cmpint(ws_step(&r.L, &r.w, i, &info), ==, 0);
    g_assert_cmpuint(r.s.deferred, ==, 0);
    g_assert_cmpuint(reg(&r, "%rd3", 5), ==, r.data + 20);

    g_assert_cmpint(ws_step(&r.L, &r.w, 42, &info), ==, 0); /* ld.global */
    g_assert_cmpuint(info.kind, ==, WS_MEM);
    g_assert_cmpuint(info.mem_kind, ==, WS_MEM_LOAD);
    g_assert_cmpuint(info.bytes, ==, 4);
    g_assert_cmphex(info.load_defer, ==, 0xffffffffu);
    g_assert_cmpuint(info.lane_space[3], ==, IR_SPACE_GLOBAL);
    g_assert_cmpuint(info.addr[3], ==, r.data + 12);
    g_assert_cmpuint(r.s.deferred, ==, 1); /* through the hook ... */
    g_assert_cmphex(r.s.load.mask, ==, 0xffffffffu);
    g_assert_cmpuint(r.s.load.seq, ==, 42);
    g_assert_cmpuint(reg(&r, "%r2", 3), ==, 0); /* ... and not read yet */
    g_assert_true(fmem_write(r.mem, r.data + 12, &(uint32_t){1000}, 4));
    ws_load_apply(&r.s.load, r.regs); /* the data returns: it reads the image now */
    g_assert_cmpuint(reg(&r, "%r2", 3), ==, 1000);
    g_assert_cmpuint(reg(&r, "%r2", 4), ==, 28);

    g_assert_cmpint(ws_step(&r.L, &r.w, 43, &info), ==, 0); /* add */
    g_assert_cmpuint(info.kind, ==, WS_ALU);
    g_assert_cmpint(ws_step(&r.L, &r.w, 44, &info), ==, 0); /* st.global */
    g_assert_cmpuint(info.mem_kind, ==, WS_MEM_STORE);
    g_assert_cmphex(info.store_defer, ==, 0xffffffffu);
    uint32_t v;
    memcpy(&v, info.store_data[3], 4);
    g_assert_cmpuint(v, ==, 1100);
    g_assert_cmpuint(mem_word(&r, 4), ==, 28); /* memory untouched: the L1 writes it */
    g_assert_cmpuint(r.s.before, ==, 7);
    g_assert_cmpuint(r.s.after, ==, 7);

    g_assert_cmpint(ws_step(&r.L, &r.w, 45, &info), ==, 0); /* ret */
    g_assert_cmpuint(info.kind, ==, WS_RET);
    g_assert_true(simt_done(&r.w.st));
    rig_free(&r);
}

/* ws_run, as the functional runner: the same program performed at once, no hook called. */
static void test_run_at_once(void)
{
    rig r;
    rig_init(&r);
    ws_info info;
    unsigned q = 100;
    g_assert_cmpint(ws_run(&r.L, &r.w, &q, &info), ==, WS_STOP_DONE);
    g_assert_cmpuint(r.s.deferred + r.s.before + r.s.after, ==, 0);
    for (unsigned i = 0; i < 32; i++)
        g_assert_cmpuint(mem_word(&r, i), ==, 7 * i + 100);
    g_assert_cmpuint(r.stats.warp_instrs, ==, 8);
    g_assert_cmpuint(r.stats.thread_instrs, ==, 8 * 32);
    g_assert_cmpuint(q, ==, 100 - 9); /* 8 instructions and the finished warp's turn */
    rig_free(&r);
}

/* An error names the site, with the driver's `where`. */
static void test_error_site(void)
{
    rig r;
    rig_init(&r);
    memset(r.kparam, 0, sizeof r.kparam); /* a null pointer */
    r.L.where = "on SM 9";
    ws_info info;
    for (unsigned i = 0; i < 4; i++)
        g_assert_cmpint(ws_step(&r.L, &r.w, i, &info), ==, 0);
    g_assert_cmpint(ws_step(&r.L, &r.w, 4, &info), !=, 0);
    g_assert_nonnull(strstr(r.err->str, "kernel k: pc 4 (step.ptx:12 `ld.global.u32"));
    g_assert_nonnull(strstr(r.err->str, "block (0,0,0) thread (0,0,0) on SM 9: invalid global load"));
    g_assert_cmpuint(r.s.deferred, ==, 0);
    rig_free(&r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/warp_step/step_defers", test_step_defers);
    g_test_add_func("/warp_step/run_at_once", test_run_at_once);
    g_test_add_func("/warp_step/error_site", test_error_site);
    return g_test_run();
}
