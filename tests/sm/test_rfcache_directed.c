/* test_rfcache_directed — the RF-cache (Malekeh) spec's directed test 11 (bank arbitration with a write,
 * §18.2) on one sub-core's register banks as the malekeh preset builds them (models/sm/regfile.h: 2
 * single-ported banks, bank = (reg + warp) mod 2, one operand per collector per cycle), in the harness,
 * cycle by cycle: two reads queued for bank 0 targeting collectors 0 and 1 and a write to bank 0 in the
 * same cycle: no read is granted that cycle, the older read the next, the other one after it; a read of
 * bank 1 for collector 0 waits while collector 0 takes its bank-0 operand (the collector port). */
#include <glib.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/sm/regfile.h"

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/rfcache/directed11_bank_arbitration", test_bank_arbitration);
    return g_test_run();
}
