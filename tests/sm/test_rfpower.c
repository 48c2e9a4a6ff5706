/* test_rfpower — the `rfpower` block (models/sm/rfpower.h) alone in the harness, its exports called
 * cycle by cycle as issue, the operand collectors and the value path call them: allocation turns a
 * warp's registers from unallocated OFF to alloc_state; a head reading an OFF register issues 2
 * cycles after the wake-up signal (SLEEP: 1), another warp's head meanwhile; an OFF register's value
 * is lost (a read poisons it, a write gives it back); a source's state is applied at its bank read
 * unless another in-flight instruction (a different PC) uses it (the lookup table); the leakage
 * counters integrate every entry of the file; the lookup table holds lut_entries instructions per warp
 * from decode to their last register access, decode stalling while it is full; a load's registers
 * take their states when ldst reads its address and writes back its data, not at issue. */
#include <glib.h>
#include <string.h>

#include "kernels/passes/greener.h"
#include "kernels/run/kload.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "models/lib/regval.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "models/sm/regfile.h"
#include "models/sm/rfpower.h"
#include "tests/sm/block_test.h"

/* The pcs are those of the allocated code (gpusc-ptx --greener): the parameter load comes after the
 * two adds there. Physical registers: r1 R0, r2 R1, r3 and r4 R2, rd1 R0:R1. */
static const char kernel[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                             ".visible .entry k(.param .u64 out)\n{\n"
                             "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"
                             "\tld.param.u64 %rd1, [out];\n" /* 3 */
                             "\tmov.u32 %r1, %tid.x;\n"      /* 0 */
                             "\tadd.s32 %r2, %r1, 1;\n"      /* 1: reads r1 */
                             "\tadd.s32 %r3, %r1, %r2;\n" /* 2: reads r1 again (debug_off_pc=2: OFF after) */
                             "\tst.global.u32 [%rd1], %r3;\n" /* 4 */
                             "\tld.global.u32 %r4, [%rd1];\n" /* 5: a load (rd1 read, r4 written back) */
                             "\tst.global.u32 [%rd1], %r4;\n" /* 6 */
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
    const decode_gate_if *decode;
    const ldst_regs_if *mem;
} rig;

static rig start_traced(const char *const *set, const char *vcd)
{
    rig g;
    g.h = harness_new(&rfpower_desc, make_rp, set, vcd);
    g.p = harness_block(g.h);
    g.i = harness_inst(g.h);
    g.check = harness_export(g.h, "check").methods;
    g.issued = harness_export(g.h, "issued").methods;
    g.access = harness_export(g.h, "access").methods;
    g.value = harness_export(g.h, "value").methods;
    g.decode = harness_export(g.h, "decode").methods;
    g.mem = harness_export(g.h, "mem").methods;
    harness_step(g.h);
    return g;
}

static rig start(const char *const *set)
{
    return start_traced(set, NULL);
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

/* §16 tests 11 and 13: OFF -> ON: refused at c and c+1, allowed at c+2; SLEEP -> ON: allowed at c+1.
 * Another warp whose registers are ON issues meanwhile (its check allows). The defaults are
 * conservative against Table 4.4's sub-cycle latencies. */
static void test_wakeup(void)
{
    const char *off[] = {"mode=greener", NULL};
    rig g = start(off);
    alloc(&g, 0, 5);
    alloc(&g, 1, 5);
    decoded_t h = head_reading(3, 1);
    g_assert_false(g.check->allow(g.p, 0, &h, 10)); /* the wake-up signal */
    g_assert_false(g.check->allow(g.p, 0, &h, 11));
    g_assert_true(g.check->allow(g.p, 0, &h, 12)); /* it may issue: ON at the end of the cycle */
    g_assert_true(g.check->allow(g.p, 0, &h, 12));
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_TRANS_OFF), ==, 0);
    g_assert_cmpuint(rfpower_state(g.p, 0, 3), ==, GREENER_ON);
    decoded_t none = head_reading(3, 1);
    none.n_bank_src = 0;
    g_assert_true(g.check->allow(g.p, 1, &none, 10)); /* another warp meanwhile */
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_WAKEUPS), ==, 1);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_WAKEUP_STALLS), ==, 2);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_TRANS_OFF), ==, 1);
    /* §16 test 13: Table 4.4's wake-up latencies (SLEEP->ON 0.005759 ns, OFF->ON 0.01749 ns) are below
     * one cycle of the 732 MHz clock (1.366 ns), so the defaults, 1 and 2 cycles, are conservative */
    double period_ns = 1e3 / 732.0;
    g_assert_cmpfloat(period_ns, >, 1.366);
    g_assert_cmpfloat(period_ns, <, 1.367);
    g_assert_cmpfloat(0.005759 / period_ns, <, 1.0);
    g_assert_cmpfloat(0.01749 / period_ns, <, 1.0);
    g_assert_cmpuint(blk_param_uint(g.i, "wake_sleep_cycles"), ==, 1);
    g_assert_cmpuint(blk_param_uint(g.i, "wake_off_cycles"), ==, 2);
    harness_free(g.h);

    const char *sl[] = {"mode=greener", "alloc_state=sleep", NULL};
    g = start(sl);
    alloc(&g, 0, 5);
    g_assert_false(g.check->allow(g.p, 0, &h, 20));
    g_assert_true(g.check->allow(g.p, 0, &h, 21));
    g_assert_cmpuint(rfpower_state(g.p, 0, 3), ==, GREENER_ON);
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

/* The physical registers instruction pc reads and writes (as decode's bank lists). */
static void bank_lists(uint32_t pc, uint16_t *src, uint8_t *n_src, uint16_t *dst, uint8_t *n_dst)
{
    sm_env *e = env_get();
    const ir_func *f = g_ptr_array_index(e->mod->funcs, e->launch.entry);
    greener_reg r[20];
    unsigned n = greener_instr_regs(f, ir_func_instr(f, pc), false, r, 20);
    *n_src = *n_dst = 0;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].after_read != GREENER_NONE)
            src[(*n_src)++] = (uint16_t)r[i].phys;
        if (r[i].after_write != GREENER_NONE)
            dst[(*n_dst)++] = (uint16_t)r[i].phys;
    }
}

static issued_t instr_at(uint64_t seq, uint32_t pc, uint64_t cycle)
{
    issued_t it;
    memset(&it, 0, offsetof(issued_t, lane_space));
    it.seq = seq;
    it.pc = pc;
    it.func = env_get()->launch.entry;
    it.issue_cycle = cycle;
    it.cls = pc >= 3 ? IR_CLASS_MEM : IR_CLASS_ALU;
    bank_lists(pc, it.bank_src, &it.n_bank_src, it.bank_dst, &it.n_bank_dst);
    return it;
}

static void issue_instr(rig *g, uint64_t seq, uint32_t pc, uint64_t cycle)
{
    issued_t it = instr_at(seq, pc, cycle);
    g->issued->issued(g->p, &it);
}

/* decode of instruction pc of warp 0 in fetch epoch `epoch`: asks the gate for room (false: the
 * decode stalls), then shows it the instruction. */
static bool decode_at(rig *g, uint32_t pc, uint16_t epoch, uint64_t cycle)
{
    if (!g->decode->room(g->p, 0, epoch, cycle))
        return false;
    decoded_t d;
    memset(&d, 0, sizeof d);
    d.func = env_get()->launch.entry;
    d.pc = pc;
    d.epoch = epoch;
    bank_lists(pc, d.bank_src, &d.n_bank_src, d.bank_dst, &d.n_bank_dst);
    g->decode->decoded(g->p, &d);
    return true;
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
            issue_instr(&g, 2, 4, 11); /* st [R0:R1], R2: reads R0 at ldst */
        g_assert_cmpuint(bank_read(&g, phys, 12), ==, 0);
        decoded_t h = head_reading(phys, 4);
        g_assert_cmpint(g.check->allow(g.p, 0, &h, 13), ==, other ? TRUE : FALSE);
        g_assert_cmpuint(st_get(&g, RFPOWER_STAT_LUT_CANCELS), ==, (unsigned)other);
        g_assert_cmpuint(st_get(&g, RFPOWER_STAT_TRANS_OFF), ==, other ? 0 : 1);
        harness_free(g.h);
    }
}

/* A bank access of instruction `seq` (the request names it, as the register banks' requests do). */
static uint64_t access_of(rig *g, uint64_t seq, unsigned phys, bool write, uint64_t cycle)
{
    rfaccess_req q = {.warp = 0,
                      .reg = phys,
                      .write = write,
                      .has_instr = true,
                      .func = env_get()->launch.entry,
                      .seq = seq,
                      .cycle = cycle,
                      .phys = phys,
                      .refused_by = -1};
    unsigned delay = 0;
    g->access->access(g->p, &q, &delay);
    return delay;
}

/* Each bank access takes its own instruction's state. A (seq 1, pc 1) and B (seq 2, pc 2, whose
 * reads turn OFF: debug_off_pc=2) both read r1. A's read finds r1 OFF and is delayed by the wake-up;
 * the register banks run the access path again for it when the delay is served: that second run
 * must not credit B's read of r1, which has not happened (matching by register, the oldest issued
 * instruction with a read of r1 to come, credited it: B's OFF was cancelled then, A being in the
 * table, and B's real read later changed nothing, leaving r1 ON after its last read). Here B's own
 * read turns r1 OFF. */
static void test_access_own_instr(void)
{
    unsigned r1, r2, r3, slot;
    reg_of("%r1", &r1, &slot);
    reg_of("%r2", &r2, &slot);
    reg_of("%r3", &r3, &slot);
    const char *set[] = {"mode=greener", "alloc_state=on", "debug_off_pc=2", NULL};
    rig g = start(set);
    alloc(&g, 0, 0);
    issue_instr(&g, 1, 1, 10); /* A: add r2, r1, 1 */
    issue_instr(&g, 2, 2, 11); /* B: add r3, r1, r2 */
    rfpower_force_off(g.p, 0, r1, 11);
    g_assert_cmpuint(access_of(&g, 1, r1, false, 12), ==, 2); /* A's read: woken, delayed */
    g_assert_cmpuint(access_of(&g, 1, r1, false, 14), ==, 0); /* the chain again for A's read */
    g_assert_cmpuint(rfpower_state(g.p, 0, r1), ==, GREENER_ON);
    access_of(&g, 1, r2, true, 15); /* A's write-back: A leaves the table */
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 1);
    access_of(&g, 2, r1, false, 16); /* B's read of r1: its OFF, nobody else in flight uses r1 */
    g_assert_cmpuint(rfpower_state(g.p, 0, r1), ==, GREENER_OFF);
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_LUT_CANCELS), ==, 0);
    access_of(&g, 2, r2, false, 16);
    access_of(&g, 2, r3, true, 17);
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 0);
    harness_free(g.h);
}

/* lut_entries=2 (the default): two decoded instructions fill warp 0's table and its decode stalls
 * (decode_stalls counts each refusal); the first issuing keeps its entry until its last register
 * access (its bank read, then its write-back); then decode resumes. A flushed entry (an older epoch,
 * never issued) leaves at the next decode. lut_entries=0: no stall. */
/* Traced, decode.calls counts every call of the decode gate, room (op 0) as well as decoded (op 1):
 * rfpower exports the table that notes room's calls when the trace selects them. The calls are made
 * between steps, so they count in the next cycle. */
static void test_decode_calls_traced(void)
{
    const char *set[] = {"mode=greener", "alloc_state=on", NULL};
    char *path = block_vcd_path();
    rig g = start_traced(set, path);
    alloc(&g, 0, 0);
    uint64_t c0 = gsc_cycle();
    g_assert_true(decode_at(&g, 1, 0, c0));
    g_assert_true(decode_at(&g, 2, 0, c0));
    g_assert_false(decode_at(&g, 4, 0, c0)); /* full: room says no, nothing decoded */
    harness_run(g.h, 2);
    g_assert_true(decode_at(&g, 0, 1, c0 + 2)); /* a redirect: room, then decoded */
    harness_run(g.h, 1);
    harness_free(g.h);
    vcd *v = block_vcd_load(path);
    g_assert_cmpuint(block_vcd_at(v, "dut.decode.calls", c0), ==, 5);
    g_assert_cmpuint(block_vcd_at(v, "dut.decode.op", c0), ==, 0);
    g_assert_cmpuint(block_vcd_at(v, "dut.decode.calls", c0 + 1), ==, 0);
    g_assert_cmpuint(block_vcd_at(v, "dut.decode.calls", c0 + 2), ==, 2);
    g_assert_cmpuint(block_vcd_at(v, "dut.decode.op", c0 + 2), ==, 1);
    vcd_free(v);
}

static void test_lut_stall(void)
{
    unsigned r1, r2, slot;
    reg_of("%r1", &r1, &slot);
    reg_of("%r2", &r2, &slot);
    const char *set[] = {"mode=greener", "alloc_state=on", NULL};
    rig g = start(set);
    alloc(&g, 0, 0);
    g_assert_true(decode_at(&g, 1, 0, 10)); /* add r2, r1, 1 */
    g_assert_true(decode_at(&g, 2, 0, 10)); /* add r3, r1, r2 */
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 2);
    g_assert_false(decode_at(&g, 4, 0, 11)); /* full: decode stalls */
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_DECODE_STALLS), ==, 1);
    issue_instr(&g, 1, 1, 12);
    g_assert_false(decode_at(&g, 4, 0, 12)); /* issued, not done with its registers */
    g_assert_cmpuint(bank_read(&g, r1, 13), ==, 0);
    g_assert_false(decode_at(&g, 4, 0, 13)); /* read its source, its write-back to come */
    rfaccess_req wb = {.warp = 0, .reg = r2, .write = true, .cycle = 14, .phys = r2, .refused_by = -1};
    unsigned delay = 0;
    g.access->access(g.p, &wb, &delay);
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 1);
    g_assert_true(decode_at(&g, 4, 0, 15)); /* an entry freed: decode resumes */
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_DECODE_STALLS), ==, 3);
    g_assert_false(decode_at(&g, 5, 0, 16));
    g_assert_true(decode_at(&g, 0, 1, 17)); /* a redirect (epoch 1): the two never issued are flushed */
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 1);
    harness_free(g.h);

    const char *three[] = {"mode=greener", "alloc_state=on", "lut_entries=3", NULL};
    g = start(three);
    alloc(&g, 0, 0);
    for (uint32_t pc = 0; pc < 3; pc++)
        g_assert_true(decode_at(&g, pc, 0, 10));
    g_assert_false(decode_at(&g, 4, 0, 10));
    harness_free(g.h);

    const char *none[] = {"mode=greener", "alloc_state=on", "lut_entries=0", NULL};
    g = start(none);
    alloc(&g, 0, 0);
    for (uint32_t pc = 0; pc < 7; pc++)
        g_assert_true(decode_at(&g, pc, 0, 10));
    g_assert_cmpuint(st_get(&g, RFPOWER_STAT_DECODE_STALLS), ==, 0);
    harness_free(g.h);
}

/* Sleep-Reg (every access leaves SLEEP): the load at pc 5 reads rd1 and writes r4. At issue nothing
 * changes; when ldst takes it rd1 goes to SLEEP; r4 stays ON until ldst writes it back, then SLEEP. */
static void test_load_at_access(void)
{
    const char *set[] = {"mode=sleep_reg", NULL};
    rig g = start(set);
    alloc(&g, 0, 0);
    decoded_t h;
    memset(&h, 0, sizeof h);
    h.func = env_get()->launch.entry;
    h.pc = 5;
    bank_lists(5, h.bank_src, &h.n_bank_src, h.bank_dst, &h.n_bank_dst);
    g_assert_cmpuint(h.n_bank_src, ==, 2); /* the address: a 64-bit pair */
    g_assert_cmpuint(h.n_bank_dst, ==, 1);
    unsigned rd1 = h.bank_src[0], r4 = h.bank_dst[0];
    g_assert_false(g.check->allow(g.p, 0, &h, 20)); /* SLEEP: woken */
    g_assert_true(g.check->allow(g.p, 0, &h, 21));
    issued_t it = instr_at(7, 5, 21);
    g.issued->issued(g.p, &it);
    g_assert_cmpuint(rfpower_state(g.p, 0, rd1), ==, GREENER_ON); /* not read yet */
    g_assert_cmpuint(rfpower_state(g.p, 0, r4), ==, GREENER_ON);
    g.mem->read(g.p, &it, 23);
    g_assert_cmpuint(rfpower_state(g.p, 0, rd1), ==, GREENER_SLEEP);
    g_assert_cmpuint(rfpower_state(g.p, 0, h.bank_src[1]), ==, GREENER_SLEEP);
    g_assert_cmpuint(rfpower_state(g.p, 0, r4), ==, GREENER_ON); /* its data still to come */
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 1);
    g.mem->written(g.p, &it, 90);
    g_assert_cmpuint(rfpower_state(g.p, 0, r4), ==, GREENER_SLEEP);
    g_assert_cmpuint(rfpower_lut_count(g.p, 0), ==, 0);
    /* ON from the wake-up at 21 to the write-back at 90 */
    harness_free(g.h);
}

/* Every entry of the file is in one state at every cycle: the register-cycles add up. */
static void test_leakage(void)
{
    const char *set[] = {"mode=greener", NULL};
    rig g = start(set);
    alloc(&g, 0, 10); /* 8 registers OFF -> OFF (alloc_state off) */
    decoded_t h = head_reading(2, 1);
    g.check->allow(g.p, 0, &h, 100);
    g.check->allow(g.p, 0, &h, 102); /* ON at the end of 102: integrated to 102 */
    g_assert_cmpuint(rfpower_state(g.p, 0, 2), ==, GREENER_ON);
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

/* What a cycle's accesses change takes effect at the end of the cycle, whichever of the callers
 * (fetch's decode, issue's check, the banks) runs first in it: an entry freed by a write-back in
 * cycle 14 is room for decode from 15, and a register a read turns OFF in cycle 12 is still ON for
 * issue's check in 12 (OFF, so a wake-up, from 13). Both orders of each cycle give the same answers. */
static void test_same_cycle(void)
{
    unsigned r1, r2, slot;
    reg_of("%r1", &r1, &slot);
    reg_of("%r2", &r2, &slot);
    for (int access_first = 0; access_first < 2; access_first++) {
        const char *set[] = {"mode=greener", "alloc_state=on", NULL};
        rig g = start(set);
        alloc(&g, 0, 0);
        g_assert_true(decode_at(&g, 1, 0, 10)); /* add r2, r1, 1 */
        g_assert_true(decode_at(&g, 2, 0, 10));
        issue_instr(&g, 1, 1, 12);
        g_assert_cmpuint(bank_read(&g, r1, 13), ==, 0);
        rfaccess_req wb = {.warp = 0, .reg = r2, .write = true, .cycle = 14, .phys = r2, .refused_by = -1};
        unsigned delay = 0;
        if (access_first)
            g.access->access(g.p, &wb, &delay);
        g_assert_false(decode_at(&g, 4, 0, 14)); /* the entry leaves at the end of 14 */
        if (!access_first)
            g.access->access(g.p, &wb, &delay);
        g_assert_true(decode_at(&g, 4, 0, 15));
        g_assert_cmpuint(st_get(&g, RFPOWER_STAT_DECODE_STALLS), ==, 1);
        harness_free(g.h);

        const char *off[] = {"mode=greener", "debug_off_pc=2", "alloc_state=on", NULL};
        g = start(off);
        alloc(&g, 0, 0);
        issue_instr(&g, 1, 2, 10); /* reads r1, OFF after its read (the wrong encoding) */
        decoded_t h = head_reading(r1, 5);
        if (access_first)
            g_assert_cmpuint(bank_read(&g, r1, 12), ==, 0);
        g_assert_true(g.check->allow(g.p, 0, &h, 12)); /* ON until the end of 12 */
        if (!access_first)
            g_assert_cmpuint(bank_read(&g, r1, 12), ==, 0);
        g_assert_false(g.check->allow(g.p, 0, &h, 13)); /* OFF: the wake-up */
        g_assert_cmpuint(st_get(&g, RFPOWER_STAT_WAKEUPS), ==, 1);
        harness_free(g.h);
    }
}

/* §16 test 3: the storage GREENER adds (64 warps, 64 registers per thread) */
static void test_storage(void)
{
    g_assert_cmpuint(greener_lut_bits(64, 2, 32, 8, 64), ==, 10240); /* 1280 bytes at w = 2 */
    g_assert_cmpuint(greener_sb_bits(64, 64), ==, 1536);             /* 192 bytes */
    /* 63 registers still take 6-bit numbers; 65 take 7 */
    g_assert_cmpuint(greener_sb_bits(64, 63), ==, 1536);
    g_assert_cmpuint(greener_sb_bits(48, 65), ==, 4 * 48 * 7);
    g_assert_cmpuint(greener_lut_bits(48, 3, 32, 8, 63), ==, 48 * 3 * (32 + 8 * 6));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/rfpower/wakeup", test_wakeup);
    harness_test_add("/rfpower/poison", test_poison);
    harness_test_add("/rfpower/lookup_table", test_lookup_table);
    harness_test_add("/rfpower/leakage", test_leakage);
    harness_test_add("/rfpower/lut_stall", test_lut_stall);
    harness_test_add("/rfpower/decode-calls-traced", test_decode_calls_traced);
    harness_test_add("/rfpower/load_at_access", test_load_at_access);
    g_test_add_func("/rfpower/storage", test_storage);
    harness_test_add("/rfpower/access-own-instruction", test_access_own_instr);
    harness_test_add("/rfpower/same-cycle", test_same_cycle);
    return g_test_run();
}
