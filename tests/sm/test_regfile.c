/* test_regfile — the register file block (models/sm/regfile.h) alone in the harness: the test calls
 * its exported `regfile` interface as the operand collector would (bank map, writes first, bank
 * ports, conflicts, pending requests), binds hooks to its register access chain (`access`: a refusal
 * retried, a translation that moves a read to another bank), and reads its per-slot state and its
 * traced signals back from the VCD. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/core/vcd.h"
#include "models/sm/regfile.h"

static void *make_rf(blk_ctx *c, gsc_module *p, const char *n)
{
    return regfile_new(c, p, n, 0, 1, 64, 4);
}

typedef struct {
    harness *h;
    regfile *r;
    const regfile_if *m;
} rig;

static rig start(const char *const *set, const char *vcd)
{
    rig g;
    g.h = harness_new(&regfile_desc, make_rf, set, vcd);
    g.r = harness_block(g.h);
    g.m = harness_export(g.h, "regfile").methods;
    return g;
}

/* Arbitrate once; the granted collectors as a string ("0,2"). */
static char *arb(rig *g)
{
    const uint64_t *gr;
    unsigned n = g->m->arbitrate(g->r, &gr);
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i ? "," : "", gr[i]);
    return g_string_free(s, FALSE);
}

#define ARB_IS(g, want)                                                                                      \
    do {                                                                                                     \
        char *got_ = arb(g);                                                                                 \
        g_assert_cmpstr(got_, ==, (want));                                                                   \
        g_free(got_);                                                                                        \
    } while (0)

/* bank = (reg + warp) mod banks: r1 of warp 0 and r0 of warp 1 share a bank; a write to that bank
 * in the same cycle goes first; each waiting read counts one conflict per cycle. */
static void test_map_writes_first(void)
{
    const char *set[] = {"banks=4", NULL};
    rig g = start(set, NULL);
    harness_step(g.h);
    g.m->read(g.r, 0, 0, 1, 0, 0, 10); /* bank 1 */
    g.m->read(g.r, 1, 1, 0, 0, 0, 10); /* bank 1 */
    g.m->read(g.r, 2, 0, 2, 0, 0, 10); /* bank 2 */
    g.m->write(g.r, 3, 2, 0, 0, 10);   /* bank (2 + 3) mod 4 = 1 */
    g_assert_cmpuint(g.m->pending(g.r), ==, 4);
    ARB_IS(&g, "2"); /* the write takes bank 1 */
    g_assert_cmpuint(g.m->pending(g.r), ==, 2);
    ARB_IS(&g, "0");
    ARB_IS(&g, "1");
    ARB_IS(&g, "");
    g_assert_cmpuint(g.m->pending(g.r), ==, 0);
    blk_inst *i = harness_inst(g.h);
    g_assert_cmpuint(blk_stat_get(i, REGFILE_STAT_BANK_READS), ==, 3);
    g_assert_cmpuint(blk_stat_get(i, REGFILE_STAT_BANK_WRITES), ==, 1);
    g_assert_cmpuint(blk_stat_get(i, REGFILE_STAT_BANK_CONFLICTS), ==, 3); /* 2 + 1 read-cycles */
    harness_free(g.h);
}

/* bank_fn=reg ignores the warp; bank_ports=2 grants two reads of one bank per cycle. */
static void test_fn_and_ports(void)
{
    const char *set[] = {"banks=4", "bank_fn=reg", "bank_ports=2", NULL};
    rig g = start(set, NULL);
    harness_step(g.h);
    for (unsigned c = 0; c < 3; c++)
        g.m->read(g.r, c, c, 4 * c, 0, 0, 0); /* all bank 0 */
    ARB_IS(&g, "0,1");
    ARB_IS(&g, "2");
    g_assert_cmpuint(blk_stat_get(harness_inst(g.h), REGFILE_STAT_BANK_CONFLICTS), ==, 1);
    harness_free(g.h);
}

/* The access chain: a lock that refuses r5 until cycle 12, then a renaming that moves r6 to r7's
 * bank (the bank sees the translated register). Every request, retries included, names its
 * instruction (function 2, sequence number 77 for r5). */
static rfaccess_verdict lock_r5(void *ctx, rfaccess_req *r, unsigned *delay)
{
    (void)ctx, (void)delay;
    g_assert_true(r->has_instr);
    if (r->reg == 5) {
        g_assert_cmpuint(r->func, ==, 2);
        g_assert_cmpuint(r->seq, ==, 77);
    }
    return r->reg == 5 && r->cycle < 12 ? RFACCESS_RETRY : RFACCESS_ALLOW;
}
static rfaccess_verdict rename_r6(void *ctx, rfaccess_req *r, unsigned *delay)
{
    (void)delay;
    (*(unsigned *)ctx)++;
    if (r->reg == 6)
        r->phys = 7;
    return RFACCESS_ALLOW;
}
static const rfaccess_hook_if lock_hook = {"lock", lock_r5}, rename_hook = {"rename", rename_r6};

static void test_access_chain(void)
{
    const char *set[] = {"banks=4", "bank_fn=reg", NULL};
    rig g = start(set, NULL);
    unsigned seen = 0;
    harness_stub(g.h, "access", &lock_hook, NULL);
    harness_stub(g.h, "access", &rename_hook, &seen);
    harness_step(g.h);                  /* elaboration builds the chain */
    g.m->read(g.r, 0, 0, 5, 2, 77, 10); /* refused */
    g.m->read(g.r, 1, 0, 6, 0, 0, 10);  /* renamed to r7: bank 3 */
    g.m->read(g.r, 2, 0, 3, 0, 0, 10);  /* bank 3 */
    g_assert_cmpuint(g.m->pending(g.r), ==, 3);
    ARB_IS(&g, "1"); /* r6 as r7 and r3 share bank 3: the older goes first */
    ARB_IS(&g, "2");
    g.m->retry(g.r, 11); /* still refused */
    ARB_IS(&g, "");
    g.m->retry(g.r, 12);
    ARB_IS(&g, "0");
    g_assert_cmpuint(g.m->pending(g.r), ==, 0);
    g_assert_cmpuint(blk_stat_get(harness_inst(g.h), REGFILE_STAT_RF_DEFERRED), ==, 2);
    g_assert_cmpuint(seen, ==, 3); /* the rename hook runs after the lock allowed */
    const rfaccess_chain *ch = regfile_access_chain(g.r);
    g_assert_cmpuint(rfaccess_chain_len(ch), ==, 2);
    g_assert_cmpuint(rfaccess_chain_stats(ch, 0)->retries, ==, 2);
    harness_free(g.h);
}

/* The per-slot state: every slot ON; traced_slots slots are in the VCD with the traced calls. */
static void test_state_and_trace(void)
{
    char *dir = g_dir_make_tmp("gpusc-regfile-XXXXXX", NULL);
    char *path = g_build_filename(dir, "t.vcd", NULL);
    const char *set[] = {"traced_slots=2", NULL};
    rig g = start(set, path);
    g_assert_cmpuint(g.r->n_slots, ==, 64);
    for (unsigned i = 0; i < g.r->n_slots; i++)
        g_assert_cmpuint(regfile_slot_state(g.r)[i], ==, REGFILE_SLOT_ON);
    harness_run(g.h, 3);
    harness_free(g.h);
    GError *err = NULL;
    vcd *v = vcd_load(path, &err);
    g_assert_no_error(err);
    int s0 = vcd_find(v, "dut.slot_0");
    g_assert_cmpint(s0, >=, 0);
    g_assert_cmpint(vcd_find(v, "dut.slot_1"), >=, 0);
    g_assert_cmpint(vcd_find(v, "dut.slot_2"), <, 0);
    uint64_t x = 0;
    g_assert_true(vcd_uint_at_cycle(v, (unsigned)s0, 1, 1000, &x));
    g_assert_cmpuint(x, ==, REGFILE_SLOT_ON);
    g_assert_cmpint(vcd_find(v, "dut.regfile.calls"), >=, 0);
    g_assert_cmpint(vcd_find(v, "dut.regfile.reg"), >=, 0);
    g_assert_cmpint(vcd_find(v, "dut.conflicts"), >=, 0);
    vcd_free(v);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

/* 32 banks in 8 clusters (the register-renaming spec's file): a warp-wide register is one entry of
 * the same bank in every cluster, so the arbiter serves 4 banks: registers 0 and 4 (bank_fn=reg) share
 * bank 0 and their reads are serialised; as 32 independent banks they are not. The geometry (64
 * warp-wide registers here) places them: bank k mod 4, row k div 4, 2 sub-arrays of 8 rows. */
static void test_clusters(void)
{
    const char *flat[] = {"banks=32", "bank_fn=reg", NULL};
    rig g = start(flat, NULL);
    harness_step(g.h);
    g.m->read(g.r, 0, 0, 0, 0, 0, 10);
    g.m->read(g.r, 1, 0, 4, 0, 0, 10);
    ARB_IS(&g, "0,1");
    harness_free(g.h);
    const char *clustered[] = {"banks=32", "clusters=8", "subarrays=2", "bank_fn=reg", NULL};
    g = start(clustered, NULL);
    harness_step(g.h);
    g_assert_cmpuint(bankmap_geom_warp_banks(&g.r->geom), ==, 4);
    g_assert_cmpuint(bankmap_geom_entry_bits(&g.r->geom), ==, 128);
    g_assert_cmpuint(bankmap_geom_rows(&g.r->geom), ==, 16);
    bankmap_place p = bankmap_geom_place(&g.r->geom, 45);
    g_assert_cmpuint(p.bank, ==, 1);
    g_assert_cmpuint(p.row, ==, 11);
    g_assert_cmpuint(p.subarray, ==, 1);
    g.m->read(g.r, 0, 0, 0, 0, 0, 10);
    g.m->read(g.r, 1, 0, 4, 0, 0, 10);
    ARB_IS(&g, "0");
    ARB_IS(&g, "1");
    g_assert_cmpuint(blk_stat_get(harness_inst(g.h), REGFILE_STAT_BANK_CONFLICTS), ==, 1);
    harness_free(g.h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/regfile/map_writes_first", test_map_writes_first);
    harness_test_add("/regfile/bank_fn_and_ports", test_fn_and_ports);
    harness_test_add("/regfile/access_chain", test_access_chain);
    harness_test_add("/regfile/state_and_trace", test_state_and_trace);
    harness_test_add("/regfile/clusters", test_clusters);
    return g_test_run();
}
