/* test_rfpower — the `rfpower` block (models/sm/rfpower.h) alone in the harness, its exports called
 * cycle by cycle as issue, the operand collectors and the value path call them: allocation turns a
 * warp's registers from unallocated OFF to alloc_state; a head reading an OFF register issues 2
 * cycles after the wake-up signal (SLEEP: 1), another warp's head meanwhile; an OFF register's value
 * is lost (a read poisons it, a write gives it back); a source's state is applied at its bank read
 * unless another in-flight instruction (a different PC) uses it (the lookup table); the leakage
 * counters integrate every entry of the file. */
#include <glib.h>
#include <string.h>

#include "kernels/passes/greener.h"
#include "kernels/run/kload.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "models/lib/regval.h"
#include "models/sm/issue.h"
#include "models/sm/regfile.h"
#include "models/sm/rfpower.h"
#include "tests/sm/block_test.h"

static const char kernel[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out)\n{\n"
                             "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"
                             "\tld.param.u64 %rd1, [out];\n"  /* 0 */
                             "\tmov.u32 %r1, %tid.x;\n"       /* 1 */
                             "\tadd.s32 %r2, %r1, 1;\n"       /* 2: reads r1 (debug_off_pc=2: OFF after) */
                             "\tadd.s32 %r3, %r1, %r2;\n"     /* 3: reads r1 again */
                             "\tst.global.u32 [%rd1], %r3;\n" /* 4 */
                             "}\n";

enum { UNITS = 64, REGS = 8 };

static sm_env *env_get(void)
{
    static sm_env env;
    if (env.mod)
        return &env;
    GError *err = NULL;
    ir_module *mod = ptx_parse_string(kernel, -1, "k.ptx", &err);
    g_assert_no_error(err);
    regalloc_module(mod, NULL);
    block_env_init(&env, mod, "k");
    env.launch.regs_per_thread = REGS;
    return &env;
}

/* The physical register and the register slot of %rN. */
static void reg_of(const char *name, unsigned *phys, unsigned *slot)
{
    sm_env *e = env_get();
    const ir_func *f = g_ptr_array_index(e->mod->funcs, e->launch.entry);
    for (guint r = 0; r < f->regs->len; r++) {
        const ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
        if (strcmp(rg->name, name) == 0) {
            *phys = rg->phys;
            *slot = e->k->funcs[e->launch.entry].reg_base + r;
            return;
        }
    }
    g_assert_not_reached();
}

static void *make_rp(blk_ctx *c, gsc_module *p, const char *n)
{
    return rfpower_new(c, p, n, env_get(), 4, UNITS);
}

typedef struct {
    harness *h;
    rfpower *p;
    blk_inst *i;
    const issue_check_if *check;
    const instr_issued_if *issued;
    const rfaccess_hook_if *access;
    const regval_if *value;
} rig;

static rig start(const char *const *set)
{
    rig g;
    g.h = harness_new(&rfpower_desc, make_rp, set, NULL);
    g.p = harness_block(g.h);
    g.i = harness_inst(g.h);
    g.check = harness_export(g.h, "check").methods;
    g.issued = harness_export(g.h, "issued").methods;
    g.access = harness_export(g.h, "access").methods;
    g.value = harness_export(g.h, "value").methods;
    harness_step(g.h);
    return g;
}

static void alloc(rig *g, unsigned warp, uint64_t cycle)
{
    regval_access a = {REGVAL_ALLOC, warp, REGVAL_NONE, REGVAL_NONE, REGVAL_NONE, UINT32_MAX, cycle, NULL};
    g->value->access(g->p, &a);
}

/* A head reading phys. */
static decoded_t head_reading(unsigned phys, uint32_t pc)
{
    decoded_t h;
    memset(&h, 0, sizeof h);
    h.func = env_get()->launch.entry;
    h.pc = pc;
    h.n_bank_src = 1;
    h.bank_src[0] = (uint16_t)phys;
    return h;
}

static uint64_t st_get(rig *g, unsigned s)
{
    return blk_stat_get(g->i, s);
}

/* OFF -> ON: refused at c and c+1, allowed at c+2; SLEEP -> ON: allowed at c+1. Another warp whose
 * registers are ON issues meanwhile (its check allows). */
static void test_wakeup(void)
{
    const char *off[] = {"mode=greener", NULL};
    rig g = start(off);
    alloc(&g, 0, 5);
    alloc(&g, 1, 5);
    decoded_t h = head_reading(3, 1);
    g_assert_false(g.check->allow(g.p, 0, &h, 10)); /* the wake-up signal */
    g_assert_false(g.check->allow(g.p, 0, &h, 11));
    g_assert_true(g.check->allow(g.p, 0, &h, 12));
    g_assert_true(g.check->allow(g.p, 0, &h, 12)); /* ON now */
    decoded_t none = head_reading(3, 1);
    none.n_bank_src = 0;
    g_assert_true(g.check->allow(g.p, 1, &none, 10)); /* another warp meanwhile */
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_WAKEUPS), ==, 1);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_WAKEUP_STALLS), ==, 2);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_TRANS_OFF), ==, 1);
    harness_free(g.h);

    const char *sl[] = {"mode=greener", "alloc_state=sleep", NULL};
    g = start(sl);
    alloc(&g, 0, 5);
    g_assert_false(g.check->allow(g.p, 0, &h, 20));
    g_assert_true(g.check->allow(g.p, 0, &h, 21));
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_TRANS_SLEEP), ==, 1);
    harness_free(g.h);

    const char *x2[] = {"mode=greener", "wake_off_cycles=4", NULL};
    g = start(x2);
    alloc(&g, 0, 5);
    for (uint64_t c = 30; c < 34; c++)
        g_assert_false(g.check->allow(g.p, 0, &h, c));
    g_assert_true(g.check->allow(g.p, 0, &h, 34));
    harness_free(g.h);
}

/* A register turned OFF loses its value: the next read gets REGVAL_POISON in every lane; a write
 * gives it a value again (lanes not written stay lost). */
static void test_poison(void)
{
    const char *set[] = {"mode=greener", "alloc_state=on", NULL};
    rig g = start(set);
    alloc(&g, 0, 0);
    unsigned phys, slot;
    reg_of("%r1", &phys, &slot);
    uint64_t v[REGVAL_LANES];
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        v[l] = l;
    regval_access rd = {REGVAL_READ, 0, slot, 0, 3, UINT32_MAX, 7, v};
    g.value->access(g.p, &rd);
    g_assert_cmpuint(v[5], ==, 5); /* ON: its value */
    rfpower_force_off(g.p, 0, phys, 8);
    g.value->access(g.p, &rd);
    g_assert_cmpuint(v[5], ==, REGVAL_POISON);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_POISONED_READS), ==, 1);
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        v[l] = l;
    regval_access wr = {REGVAL_WRITE, 0, slot, 0, 1, 0xffffu, 9, v};
    g.value->access(g.p, &wr);
    g_assert_cmpuint(v[5], ==, 5);              /* written */
    g_assert_cmpuint(v[20], ==, REGVAL_POISON); /* not written: its value was lost */
    for (unsigned l = 0; l < REGVAL_LANES; l++)
        v[l] = l;
    g.value->access(g.p, &rd);
    g_assert_cmpuint(v[20], ==, 20); /* a value again */
    harness_free(g.h);
}

static void issue_instr(rig *g, uint64_t seq, uint32_t pc, uint64_t cycle)
{
    issued_t it;
    memset(&it, 0, offsetof(issued_t, lane_space));
    it.seq = seq;
    it.pc = pc;
    it.func = env_get()->launch.entry;
    it.issue_cycle = cycle;
    it.cls = IR_CLASS_ALU;
    g->issued->issued(g->p, &it);
}

static uint64_t bank_read(rig *g, unsigned phys, uint64_t cycle)
{
    rfaccess_req q = {.warp = 0, .reg = phys, .write = false, .cycle = cycle, .phys = phys, .refused_by = -1};
    unsigned delay = 0;
    g->access->access(g->p, &q, &delay);
    return delay;
}

/* pc 2 reads r1, a wrong encoding turns it OFF after the read: without another user in flight it
 * goes OFF; with pc 3 (which reads r1 too) issued before the read, the lookup table keeps it ON. */
static void test_lookup_table(void)
{
    unsigned phys, slot;
    reg_of("%r1", &phys, &slot);
    for (int other = 0; other < 2; other++) {
        const char *set[] = {"mode=greener", "debug_off_pc=2", "alloc_state=on", NULL};
        rig g = start(set);
        alloc(&g, 0, 0);
        issue_instr(&g, 1, 2, 10);
        if (other)
            issue_instr(&g, 2, 3, 11);
        g_assert_cmpuint(bank_read(&g, phys, 12), ==, 0);
        decoded_t h = head_reading(phys, 4);
        g_assert_cmpint(g.check->allow(g.p, 0, &h, 13), ==, other ? TRUE : FALSE);
        g_assert_cmpuint(st_get(&g, RFPOWER_STAT_LUT_CANCELS), ==, (unsigned)other);
        g_assert_cmpuint(st_get(&g, RFPOWER_STAT_TRANS_OFF), ==, other ? 0 : 1);
        harness_free(g.h);
    }
}

/* Every entry of the file is in one state at every cycle: the register-cycles add up. */
static void test_leakage(void)
{
    const char *set[] = {"mode=greener", NULL};
    rig g = start(set);
    alloc(&g, 0, 10); /* 8 registers OFF -> OFF (alloc_state off) */
    decoded_t h = head_reading(2, 1);
    g.check->allow(g.p, 0, &h, 100); /* integrates to 100 at the wake-up */
    g.check->allow(g.p, 0, &h, 102);
    uint64_t on = st_get(&g, RFPOWER_STAT_CYCLES_ON), sl = st_get(&g, RFPOWER_STAT_CYCLES_SLEEP),
             off = st_get(&g, RFPOWER_STAT_CYCLES_OFF);
    g_assert_cmpuint(on + sl + off, ==, (uint64_t)UNITS * 102);
    g_assert_cmpuint(on, ==, 0);
    harness_free(g.h);
    const char *base[] = {"mode=baseline", NULL};
    g = start(base);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_CYCLES_OFF), ==, 0);
    harness_free(g.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/rfpower/wakeup", test_wakeup);
    harness_test_add("/rfpower/poison", test_poison);
    harness_test_add("/rfpower/lookup_table", test_lookup_table);
    harness_test_add("/rfpower/leakage", test_leakage);
    return g_test_run();
}
