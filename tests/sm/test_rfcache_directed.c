/* test_rfcache_directed — the RF-cache (Malekeh) spec's directed tests 8, 10 and 11 (§18.2), cycle by
 * cycle in the harness.
 * 11 (bank arbitration with a write): one sub-core's register banks as the malekeh preset builds them
 * (models/sm/regfile.h: 2 single-ported banks, bank = (reg + warp) mod 2, one operand per collector per
 * cycle): two reads queued for bank 0 targeting collectors 0 and 1 and a write to bank 0 in the same
 * cycle: no read is granted that cycle, the older read the next, the other one after it; a read of
 * bank 1 for collector 0 waits while collector 0 takes its bank-0 operand (the collector port).
 * 8 (port-D conflict) and 10 (dispatch readiness): the collectors (opcoll) of one sub-core with its
 * banks, pipes and Malekeh `ccu` block, and the register value path (warp_exec) running real PTX; the
 * test plays the issue stage (see "directed tests 8 and 10" below). */
#include <glib.h>
#include <string.h>

#include "kernels/frontend/ptx_parse.h"
#include "kernels/passes/reuse_profile.h"
#include "models/core/config.h"
#include "models/core/harness.h"
#include "models/sm/arbiter.h"
#include "models/sm/ccu.h"
#include "models/sm/opcoll.h"
#include "models/sm/regfile.h"
#include "models/sm/units.h"
#include "models/sm/warp_exec.h"
#include "tests/sm/block_test.h"

static void *make_rf(blk_ctx *c, gsc_module *p, const char *n)
{
    return regfile_new(c, p, n, 0, 1, 64, 4);
}

static char *arb(const regfile_if *m, regfile *r)
{
    const uint64_t *gr;
    unsigned n = m->arbitrate(r, &gr);
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i ? "," : "", gr[i]);
    return g_string_free(s, FALSE);
}

#define ARB_IS(want) /* the next cycle's grants */                                                           \
    do {                                                                                                     \
        harness_step(h);                                                                                     \
        char *got_ = arb(m, r);                                                                              \
        g_assert_cmpstr(got_, ==, (want));                                                                   \
        g_free(got_);                                                                                        \
    } while (0)

static void test_bank_arbitration(void)
{
    const char *set[] = {"banks=2", "bank_ports=1", "collector_ports=1", NULL};
    harness *h = harness_new(&regfile_desc, make_rf, set, NULL);
    regfile *r = harness_block(h);
    const regfile_if *m = harness_export(h, "regfile").methods;
    uint64_t now = harness_step(h);
    m->read(r, 0, 3, 1, 0, 0, now); /* CCU0: warp 3's r1, bank (1 + 3) mod 2 = 0 */
    m->read(r, 1, 3, 5, 0, 0, now); /* CCU1: warp 3's r5, bank 0 */
    m->write(r, 2, 0, 0, 0, now);   /* a write of warp 2's r0: bank 0 */
    char *got = arb(m, r);
    g_assert_cmpstr(got, ==, ""); /* the write has the bank */
    g_free(got);
    blk_inst *i = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(i, REGFILE_STAT_BANK_WRITES), ==, 1);
    g_assert_cmpuint(blk_stat_get(i, REGFILE_STAT_BANK_CONFLICTS), ==, 2);
    now = harness_step(h);
    m->read(r, 0, 3, 2, 0, 0, now); /* CCU0's next operand: bank (2 + 3) mod 2 = 1, free */
    got = arb(m, r);
    g_assert_cmpstr(got, ==, "0"); /* the older bank-0 read; CCU0 takes one operand: its bank-1 read waits */
    g_free(got);
    ARB_IS("1,0"); /* bank 0 to CCU1, bank 1 to CCU0 */
    ARB_IS("");
    g_assert_cmpuint(blk_stat_get(i, REGFILE_STAT_BANK_READS), ==, 3);
    harness_free(h);
}

/* ---- directed tests 8 and 10: one sub-core's collectors, banks and pipes with the `ccu` block and the
 * register value path around them ----
 * The block under test is opcoll (2 generic collectors allocated at issue by a Malekeh `ccu` block, the
 * malekeh banks: 2 single-ported banks, one operand per collector per cycle; the pipes with their
 * write-back), built with warp_exec, whose value hooks the ccu block sees. The test is the issue
 * stage: each cycle it asks the ccu's veto for warp 3 (partition 3 of 4) when the warp's next
 * instruction has no pending source or destination, executes the instruction (the value path: hits
 * get the CT's copy) and puts it in opcoll's input (seen two cycles later: the harness's put rule).
 * Registers are not allocated: %rN is register slot and physical register N. Reuse hints come from
 * the profile pass over the kernel's straight-line stream. */
static const char *vp_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    /* test 8: the mad (pc 2) and the add (pc 3) write back in the same cycle; r3 is read again (near),
     * r4 in k8nn only (pc 4 reads both) */
    ".visible .entry k8nf()\n{\n.reg .b32 %r<8>;\n"
    "mov.u32 %r1, 7;\nmov.u32 %r2, 9;\nmad.lo.u32 %r3, %r1, %r2, %r1;\nadd.u32 %r4, %r1, %r2;\n"
    "add.u32 %r5, %r3, 1;\nret;\n}\n"
    ".visible .entry k8nn()\n{\n.reg .b32 %r<8>;\n"
    "mov.u32 %r1, 7;\nmov.u32 %r2, 9;\nmad.lo.u32 %r3, %r1, %r2, %r1;\nadd.u32 %r4, %r1, %r2;\n"
    "add.u32 %r5, %r3, %r4;\nret;\n}\n"
    /* test 10: pc 1 reads r1 (in the CT from pc 0's write) and r0 (never written: a miss); pc 2 reads
     * r2 and r6, two misses in one bank ((2 + 3) mod 2 = (6 + 3) mod 2) */
    ".visible .entry k10()\n{\n.reg .b32 %r<8>;\n"
    "mov.u32 %r1, 7;\nadd.u32 %r3, %r1, %r0;\nadd.u32 %r4, %r2, %r6;\nadd.u32 %r5, %r3, %r4;\nret;\n}\n"
    /* test 7: pc 0 writes r1 near (read at pc 1), pc 2 writes it again far (next read at pc 16, 14
     * instructions on), pcs 3-15 count in r3; pc 16 must read the new r1 */
    ".visible .entry k7()\n{\n.reg .b32 %r<8>;\n"
    "mov.u32 %r1, 7;\nadd.u32 %r2, %r1, 1;\nmov.u32 %r1, 9;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u32 %r4, %r1, %r2;\nret;\n}\n";

#define VP_WARP 3
#define VP_PCS  24 /* instructions per kernel, at most */

static struct {
    sm_env env;
    wexec *wx;
    ccu_blk *ccu;
    opcoll *oc;
    regfile *rf;
    rp_profile *prof;
    harness *h;
    uint64_t seq;
    GHashTable *pending;            /* slot -> in flight (written back not yet) */
    uint64_t issued_at[VP_PCS];     /* per pc */
    uint64_t released_at[VP_PCS];   /* per pc: the cycle its completion was got */
    uint64_t dispatched_at[VP_PCS]; /* per pc: the cycle opcoll's `dispatched` counted it */
    uint32_t seq_pc[64];            /* the pc of each issue sequence number */
    uint64_t ct_before[VP_PCS];     /* per pc: the registers (bit N: %rN) warp 3's CT held when it issued */
    uint32_t next_pc, func;
    ccu_mode mode;        /* the collector design */
    unsigned int_latency; /* the mad's latency, if not 8 */
    bool long_stall; /* the warp waits on a long-latency operation (the two-level scheduler demotes it) */
    bool keep_stale; /* ccu.stale_policy=keep: a CCU that is not invalidated on a write */
} vp;

/* The cache holding warp 3's registers: its CCU's CT (Malekeh), its own cache (rfc, sw_rfc); NULL: none. */
static rfc_ccu *vp_cache(void)
{
    unsigned n;
    rfc_ccu *wc = ccu_warp_caches(vp.ccu, &n);
    if (wc)
        return &wc[VP_WARP / 4];
    rfc_ccu *cc = ccu_units(vp.ccu, &n);
    for (unsigned k = 0; k < n; k++)
        if (cc[k].warp == VP_WARP)
            return &cc[k];
    return NULL;
}

static void *make_vp(blk_ctx *c, gsc_module *p, const char *n)
{
    const char *const set[] = {"opcoll.collectors_sp=2", "opcoll.collectors_sfu=0",
                               "opcoll.collector=ccu",   "regfile.banks=2",
                               "regfile.bank_ports=1",   "regfile.collector_ports=1",
                               "units.sp_latency=4",     "units.mad_latency=8",
                               "units.int_latency=8",    NULL};
    for (unsigned i = 0; set[i]; i++)
        g_assert_true(cfg_set((cfg *)blk_ctx_config(c), set[i], NULL));
    if (vp.int_latency) {
        char *l = g_strdup_printf("units.int_latency=%u", vp.int_latency);
        g_assert_true(cfg_set((cfg *)blk_ctx_config(c), l, NULL));
        g_free(l);
    }
    if (vp.keep_stale)
        g_assert_true(cfg_set((cfg *)blk_ctx_config(c), "ccu.stale_policy=keep", NULL));
    vp.oc = opcoll_new(c, p, n);
    vp.rf = regfile_new(c, p, "regfile", 0, 1, 1024, vp.oc->n_coll);
    units *u = units_new(c, p, "units");
    blk_bind(vp.oc->inst, "regfile", vp.rf->inst, "regfile");
    blk_bind(vp.oc->inst, "units", u->inst, "units");
    vp.ccu = ccu_new(c, p, "ccu3", &vp.env, vp.wx, 3, 4, vp.oc->n_coll, 4, vp.mode, NULL);
    opcoll_set_ccu(vp.oc, vp.ccu);
    return vp.oc;
}

/* The kernel `entry` on warp 3 (one CTA of 32 threads), its hints from the profile of its stream. */
static void vp_setup(const char *entry)
{
    GError *err = NULL;
    ir_module *mod = ptx_parse_string(vp_ptx, -1, "vp.ptx", &err);
    g_assert_no_error(err);
    block_env_init(&vp.env, mod, entry);
    vp.env.launch.grid[0] = vp.env.launch.grid[1] = vp.env.launch.grid[2] = 1;
    vp.env.launch.block[0] = 32;
    vp.env.launch.block[1] = vp.env.launch.block[2] = 1;
    vp.env.launch.regs_per_thread = 8;
    vp.func = vp.env.launch.entry;
    vp.wx = wexec_new(&vp.env, 0, 4, 1);
    vp.prof = rp_new(12);
    const ir_func *fn = g_ptr_array_index(mod->funcs, vp.func);
    for (uint32_t pc = 0; pc < ir_func_n_instrs(fn); pc++) {
        uint16_t src[SM_MAX_BANK_READS], dst[SM_MAX_BANK_WRITES];
        uint8_t ns, nd;
        wexec_instr_bank_regs(mod, vp.env.k, vp.func, ir_func_instr(fn, pc), src, &ns, dst, &nd);
        rp_instr(vp.prof, 0, vp.func, pc, src, ns, dst, nd);
    }
    rp_finish(vp.prof);
    vp.h = harness_new(&opcoll_desc, make_vp, NULL, NULL);
    ccu_set_profile(vp.ccu, vp.prof);
    vp.pending = g_hash_table_new(g_direct_hash, g_direct_equal);
    uint64_t c = harness_step(vp.h);
    cta_launch_t cta = {.slot = 0, .first_warp = VP_WARP, .warps = 1, .threads = 32};
    wexec_cta_start(vp.wx, &cta, c);
    vp.next_pc = 0;
    memset(vp.issued_at, 0, sizeof vp.issued_at);
    memset(vp.released_at, 0, sizeof vp.released_at);
    memset(vp.dispatched_at, 0, sizeof vp.dispatched_at);
    memset(vp.ct_before, 0, sizeof vp.ct_before);
}

static void vp_teardown(void)
{
    harness_free(vp.h);
    ccu_free(vp.ccu);
    opcoll_free(vp.oc);
    wexec_free(vp.wx);
    rp_free(vp.prof);
    g_hash_table_destroy(vp.pending);
}

/* One cycle of the test's issue stage (after the step of cycle c): the completions got, then warp 3's
 * next instruction if it has no pending register and the veto allows it. */
static void vp_cycle(void)
{
    uint64_t disp0 = blk_stat_get(vp.oc->inst, OPCOLL_STAT_DISPATCHED);
    uint64_t c = harness_step(vp.h);
    if (blk_stat_get(vp.oc->inst, OPCOLL_STAT_DISPATCHED) > disp0) /* one instruction in flight at a time */
        for (unsigned pc = 0; pc < VP_PCS; pc++)
            if (vp.issued_at[pc] && !vp.dispatched_at[pc]) {
                vp.dispatched_at[pc] = c;
                break;
            }
    release_t r;
    uint64_t got;
    while (harness_pop(vp.h, "release", &r, &got)) {
        for (unsigned j = 0; j < r.n_dst; j++)
            g_hash_table_remove(vp.pending, GUINT_TO_POINTER(r.dst[j] + 1u));
        vp.released_at[vp.seq_pc[r.seq]] = got;
    }
    uint32_t func, pc;
    if (!wexec_warp_next(vp.wx, VP_WARP, &func, &pc))
        return;
    const ir_func *fn = g_ptr_array_index(vp.env.mod->funcs, func);
    const ir_instr *in = ir_func_instr(fn, pc);
    if (ir_instr_class(in) == IR_CLASS_CTRL) { /* ret: no collector */
        ws_info x;
        g_assert_cmpint(wexec_step(vp.wx, VP_WARP, c, vp.seq++, &x), ==, 0);
        return;
    }
    issued_t it;
    memset(&it, 0, sizeof it);
    wexec_instr_regs(vp.env.k, func, in, it.src, &it.n_src, it.dst, &it.n_dst);
    for (unsigned j = 0; j < it.n_src; j++)
        if (g_hash_table_contains(vp.pending, GUINT_TO_POINTER(it.src[j] + 1u)))
            return;
    for (unsigned j = 0; j < it.n_dst; j++)
        if (g_hash_table_contains(vp.pending, GUINT_TO_POINTER(it.dst[j] + 1u)))
            return;
    policy_warp w = {.id = VP_WARP,
                     .age = 0,
                     .ready = true,
                     .last_issue = POLICY_NEVER_ISSUED,
                     .long_stall = vp.long_stall};
    blk_iref v = blk_export_ref(ccu_inst(vp.ccu), CCU_VETO, 0);
    if (((const issue_veto_if *)v.methods)->veto(v.self, &w, 1, 0, c))
        return;
    const rfc_ccu *cc = vp_cache();
    for (unsigned i = 0; cc && i < cc->n_ct; i++)
        if (cc->ct[i].valid)
            vp.ct_before[pc] |= UINT64_C(1) << (cc->ct[i].tag - vp.env.k->funcs[func].reg_base);
    ws_info x;
    g_assert_cmpint(wexec_step(vp.wx, VP_WARP, c, vp.seq, &x), ==, 0);
    it.seq = vp.seq++;
    it.issue_cycle = c;
    it.warp = VP_WARP;
    it.func = func;
    it.pc = pc;
    it.mask = x.active;
    it.cls = (uint8_t)ir_instr_class(in);
    it.op = x.op;
    wexec_instr_bank_regs(vp.env.mod, vp.env.k, func, in, it.bank_src, &it.n_bank_src, it.bank_dst,
                          &it.n_bank_dst);
    for (unsigned j = 0; j < it.n_dst; j++)
        g_hash_table_add(vp.pending, GUINT_TO_POINTER(it.dst[j] + 1u));
    harness_push(vp.h, "in", &it);
    vp.issued_at[pc] = c;
    vp.seq_pc[it.seq] = pc;
}

/* The ccu block applies what opcoll changed (port D, releases) at its next call: ask its veto once
 * with no ready warp. */
static void vp_sync(void)
{
    uint64_t c = harness_step(vp.h);
    policy_warp w = {
        .id = VP_WARP, .ready = false, .last_issue = POLICY_NEVER_ISSUED, .long_stall = vp.long_stall};
    blk_iref v = blk_export_ref(ccu_inst(vp.ccu), CCU_VETO, 0);
    ((const issue_veto_if *)v.methods)->veto(v.self, &w, 1, 0, c);
}

static void vp_run(unsigned cycles)
{
    for (unsigned i = 0; i < cycles; i++)
        vp_cycle();
}

static uint64_t vp_stat(unsigned idx)
{
    return blk_stat_get(ccu_inst(vp.ccu), idx);
}

static int vp_entry(unsigned reg) /* the entry of warp 3's cache holding %r<reg> (-1: none) */
{
    const rfc_ccu *cc = vp_cache();
    return cc ? rfc_lookup(cc, vp.env.k->funcs[vp.func].reg_base + reg) : -1;
}

static void vp_print(void)
{
    for (unsigned pc = 0; pc < VP_PCS; pc++)
        if (vp.issued_at[pc])
            g_test_message("pc %u: issued %" G_GUINT64_FORMAT " dispatched %" G_GUINT64_FORMAT
                           " released %" G_GUINT64_FORMAT,
                           pc, vp.issued_at[pc], vp.dispatched_at[pc], vp.released_at[pc]);
}

/* Directed test 8: two results of warp 3 reach port D in the same cycle (the mad issued 4 cycles
 * before the add, its latency 4 more). One near (r3, read again) and one far (r4): the near one is
 * cached, the far one squashed. Two near: one port D, the older instruction's result (the mad's r3) is
 * cached and a conflict counted. Every source of the later instructions is a CT hit. */
static void directed8(const char *entry, bool both_near)
{
    vp.mode = CCU_MODE_MALEKEH;
    vp_setup(entry);
    vp_run(60);
    vp_sync();
    vp_print();
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP));
    g_assert_cmpuint(vp.issued_at[3] - vp.issued_at[2], ==, 4);
    g_assert_cmpuint(vp.released_at[2], ==, vp.released_at[3]); /* one write-back cycle */
    g_assert_cmpuint(vp.released_at[2], >, 0);
    g_assert_cmphex(vp.ct_before[4], ==, 1u << 1 | 1u << 2 | 1u << 3);     /* r1, r2 and the mad's r3 */
    g_assert_cmpuint(vp_stat(CCU_STAT_WRITES_D), ==, 3);                   /* r1, r2, r3 */
    g_assert_cmpuint(vp_stat(CCU_STAT_D_SQUASHED), ==, both_near ? 1 : 2); /* k8nf: r4, r5; k8nn: r5 */
    g_assert_cmpuint(vp_stat(CCU_STAT_D_CONFLICTS), ==, both_near ? 1 : 0);
    g_assert_cmpuint(vp_stat(CCU_STAT_HITS), ==, 5);                   /* r1, r2 twice, r3 */
    g_assert_cmpuint(vp_stat(CCU_STAT_MISSES), ==, both_near ? 1 : 0); /* k8nn's pc 4 reads r4 */
    g_assert_cmpuint(vp_stat(CCU_STAT_STALE_HITS), ==, 0);
    vp_teardown();
}

static void test_directed8_near_far(void)
{
    directed8("k8nf", false);
}

static void test_directed8_two_near(void)
{
    directed8("k8nn", true);
}

/* Directed test 10: pc 1 = one hit (r1) and one miss (r0): its read is granted the cycle opcoll takes
 * it (issue + 2) and it dispatches the next cycle (issue + 3); pc 2 = two misses in one bank: the second
 * read waits a cycle, dispatch at issue + 4. A hit costs no cycle: it is ready at allocation, while
 * two reads for one collector take two cycles (one operand per collector port per cycle). The CT
 * entries of a collected instruction stay locked until its dispatch; the CCU is allocated again (and
 * the locks are clear) the cycle after. */
static void test_directed10(void)
{
    vp.mode = CCU_MODE_MALEKEH;
    vp_setup("k10");
    unsigned n;
    rfc_ccu *cc = ccu_units(vp.ccu, &n);
    while (!vp.dispatched_at[1])
        vp_cycle();
    vp_print();
    g_assert_cmpuint(vp.dispatched_at[1] - vp.issued_at[1], ==, 3);
    g_assert_cmpuint(vp_stat(CCU_STAT_HITS), ==, 1);
    g_assert_cmpuint(vp_stat(CCU_STAT_MISSES), ==, 1);
    int k = -1;
    for (unsigned i = 0; i < n; i++)
        if (cc[i].warp == VP_WARP)
            k = (int)i;
    g_assert_cmpint(k, >=, 0);
    int e1 = vp_entry(1), e0 = vp_entry(0);
    g_assert_cmpint(e1, >=, 0);
    g_assert_cmpint(e0, >=, 0);
    g_assert_true(cc[k].busy); /* dispatched this cycle: still busy and locked for the allocator */
    g_assert_true(cc[k].ct[e1].lock && cc[k].ct[e0].lock);
    g_assert_cmpuint(vp.issued_at[2], ==, 0); /* refused this cycle: its own CCU is occupied (case 4) */
    vp_cycle();
    g_assert_cmpuint(vp.issued_at[2], ==, vp.dispatched_at[1] + 1);
    g_assert_false(cc[k].ct[e1].lock || cc[k].ct[e0].lock);
    g_assert_true(cc[k].ct[vp_entry(2)].lock && cc[k].ct[vp_entry(6)].lock);
    uint64_t reads0 = blk_stat_get(vp.rf->inst, REGFILE_STAT_BANK_READS);
    while (!vp.dispatched_at[2])
        vp_cycle();
    vp_print();
    g_assert_cmpuint(vp.dispatched_at[2] - vp.issued_at[2], ==, 4);
    g_assert_cmpuint(blk_stat_get(vp.rf->inst, REGFILE_STAT_BANK_READS) - reads0, ==, 2);
    g_assert_cmpuint(vp_stat(CCU_STAT_MISSES), ==, 3);
    g_assert_cmpuint(vp_stat(CCU_STAT_STALL_OWN_BUSY), >=, 1);
    vp_run(40);
    vp_sync();
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP));
    g_assert_cmpuint(vp_stat(CCU_STAT_STALE_HITS), ==, 0);
    vp_teardown();
}

/* RFC and SW-RFC (§15.5, the caches beside the collectors, one per active warp of the two-level
 * scheduler), on test 8's kernel k8nf: rfc writes every result into the warp's cache (one per cycle:
 * the add's r4, written back with the older mad's r3, is a port conflict), sw_rfc only the near ones
 * (r4 and r5 squashed); every later source hits (5). On k10, a miss does not fill the cache (r0 read
 * by pc 1 is not there afterwards; Malekeh's CT keeps it). Demoting the warp (waiting on a long-latency
 * operation) empties its cache. */
static void warp_cache(ccu_mode mode)
{
    vp.mode = mode;
    vp.int_latency = 5; /* the add issues 1 cycle after the mad (the collectors are not the warp's) */
    vp_setup("k8nf");
    vp_run(60);
    vp_sync();
    vp_print();
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP));
    g_assert_cmpuint(vp.released_at[2], ==, vp.released_at[3]);
    g_assert_cmphex(vp.ct_before[4], ==, 1u << 1 | 1u << 2 | 1u << 3);
    bool rfc = mode == CCU_MODE_RFC;
    g_assert_cmpuint(vp_stat(CCU_STAT_WRITES_D), ==, rfc ? 4 : 3); /* r1, r2, r3 (and r5) */
    g_assert_cmpuint(vp_stat(CCU_STAT_D_CONFLICTS), ==, rfc ? 1 : 0);
    g_assert_cmpuint(vp_stat(CCU_STAT_D_SQUASHED), ==, rfc ? 0 : 2);
    g_assert_cmpuint(vp_stat(CCU_STAT_HITS), ==, 5);
    g_assert_cmpuint(vp_stat(CCU_STAT_MISSES), ==, 0);
    g_assert_cmpint(vp_entry(5) >= 0, ==, rfc);
    unsigned n;
    rfc_ccu *cc = ccu_units(vp.ccu, &n);
    for (unsigned k = 0; k < n; k++) /* the collectors hold no warp's registers */
        g_assert_cmpint(cc[k].warp, ==, RFC_NO_WARP);
    g_assert_cmpuint(rfc_valid_count(vp_cache()), ==, rfc ? 4 : 3);
    vp.long_stall = true;
    vp_sync();
    g_assert_cmpuint(rfc_valid_count(vp_cache()), ==, 0);
    g_assert_cmpuint(vp_stat(CCU_STAT_TL_DEMOTIONS), ==, 1);
    g_assert_cmpuint(vp_stat(CCU_STAT_FLUSHES_RANDOM), ==, 1);
    vp_teardown();
    vp.long_stall = false;
    vp_setup("k10");
    vp_run(60);
    vp_sync();
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP));
    g_assert_cmpuint(vp_stat(CCU_STAT_HITS), ==, 3); /* pc 1's r1; pc 3's r3, r4 */
    g_assert_cmpuint(vp_stat(CCU_STAT_MISSES), ==, 3);
    g_assert_cmpint(vp_entry(0), <, 0);
    g_assert_cmpint(vp_entry(2), <, 0);
    vp_teardown();
}

static void test_rfc(void)
{
    warp_cache(CCU_MODE_RFC);
}

static void test_sw_rfc(void)
{
    warp_cache(CCU_MODE_SWRFC);
}

/* Directed test 7, the RF-only cases on warp 3's own CCU: a far write of r1 (pc 2) invalidates the
 * copy pc 0's near write left in the CT (at pc 2's issue, before any read can see it) and goes to the
 * RF only (squashed at port D); pc 16's read of r1 misses and gets the new value: r4 = 9 + 8 = 17 in
 * every lane. With the invalidation broken (stale_policy=keep) pc 16 hits the stale 7: r4 = 15, one
 * stale hit. */
static void directed7(bool keep)
{
    vp.mode = CCU_MODE_MALEKEH;
    vp.keep_stale = keep;
    vp_setup("k7");
    while (!vp.issued_at[2])
        vp_cycle();
    g_assert_true(vp.ct_before[2] & 1u << 1); /* pc 0's near r1, cached at port D */
    g_assert_cmpint(vp_entry(1) >= 0, ==, keep);
    vp_run(400);
    vp_print();
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP));
    g_assert_cmpuint(vp.issued_at[16], >, 0);
    g_assert_cmpint((vp.ct_before[16] >> 1 & 1) != 0, ==, keep);
    unsigned slot = vp.env.k->funcs[vp.func].reg_base + 4;
    for (unsigned l = 0; l < 32; l++)
        g_assert_cmpuint((uint32_t)wexec_read_slot(vp.wx, VP_WARP, slot, l), ==, keep ? 15 : 17);
    g_assert_cmpuint(vp_stat(CCU_STAT_STALE_HITS), ==, keep ? 1 : 0);
    g_assert_cmpuint(vp_stat(CCU_STAT_D_SQUASHED), >=, 2); /* pc 2's r1 and pc 16's r4 are far */
    vp_teardown();
    vp.keep_stale = false;
}

static void test_directed7(void)
{
    directed7(false);
}

static void test_directed7_broken(void)
{
    directed7(true);
}

/* Port D and the release at dispatch are hardware: what opcoll queues in cycle t lands in cycle t + 1
 * although nothing calls the block after the warp's last instruction (the test calls no veto once
 * only `ret` is left). rfc on k8nf: the last result (pc 4's r5) is in the warp's cache in the cycle
 * the harness gets its completion (put at write-back, got the cycle after), not before. Malekeh on
 * k10: the CCU of the last instruction is free and unlocked the cycle after its dispatch; pc 3's far
 * r5 is squashed the cycle after its write-back. */
static void test_port_d_lands_alone(void)
{
    vp.mode = CCU_MODE_RFC;
    vp.int_latency = 5;
    vp_setup("k8nf");
    while (!vp.released_at[4]) {
        g_assert_cmpint(vp_entry(5), <, 0);
        vp_cycle();
    }
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP));
    g_assert_cmpuint(vp.released_at[4], >, vp.issued_at[4] + 2);
    g_assert_cmpint(vp_entry(5), >=, 0);
    g_assert_cmpuint(vp_stat(CCU_STAT_WRITES_D), ==, 4);
    vp_teardown();
    vp.int_latency = 0;

    vp.mode = CCU_MODE_MALEKEH;
    vp_setup("k10");
    while (!vp.dispatched_at[3])
        vp_cycle();
    unsigned n;
    rfc_ccu *cc = ccu_units(vp.ccu, &n);
    int k = -1;
    for (unsigned i = 0; i < n; i++)
        if (cc[i].warp == VP_WARP)
            k = (int)i;
    g_assert_cmpint(k, >=, 0);
    g_assert_true(cc[k].busy && cc[k].ct[vp_entry(3)].lock);
    g_assert_false(wexec_warp_live(vp.wx, VP_WARP)); /* only the release and write-back are left */
    vp_cycle();
    g_assert_false(cc[k].busy);
    g_assert_false(cc[k].ct[vp_entry(3)].lock || cc[k].ct[vp_entry(4)].lock);
    uint64_t squashed = vp_stat(CCU_STAT_D_SQUASHED);
    while (!vp.released_at[3]) {
        g_assert_cmpuint(vp_stat(CCU_STAT_D_SQUASHED), ==, squashed);
        vp_cycle();
    }
    g_assert_cmpuint(vp_stat(CCU_STAT_D_SQUASHED), ==, squashed + 1); /* r5: never read, far */
    vp_teardown();
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/rfcache/directed7_write_filter", test_directed7);
    harness_test_add("/rfcache/directed7_broken_invalidation_fails", test_directed7_broken);
    harness_test_add("/rfcache/directed8_port_d_near_far", test_directed8_near_far);
    harness_test_add("/rfcache/directed8_port_d_two_near", test_directed8_two_near);
    harness_test_add("/rfcache/directed10_dispatch_readiness", test_directed10);
    harness_test_add("/rfcache/directed11_bank_arbitration", test_bank_arbitration);
    harness_test_add("/rfcache/rfc", test_rfc);
    harness_test_add("/rfcache/sw_rfc", test_sw_rfc);
    harness_test_add("/rfcache/port_d_lands_alone", test_port_d_lands_alone);
    return g_test_run();
}
