/* test_spu_cb — the `spu_cb` block (models/spu/spu_cb.h), one ping-pong pair of SPU communication
 * buffers, alone in the harness and driven cycle by cycle through its `cb` export by a producer, a
 * consumer and a swap at given cycles (SPU spec §15 UT-3): the producer writes one half while the
 * consumer reads the other; a swap called in cycle t takes effect in t+1 (a read in t, even after
 * the call, still sees the old half); a value written before barrier n is read after barrier n and
 * never before; halves start poisoned; the statistics; the traced phase in the VCD. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/core/vcd.h"
#include "models/spu/spu_cb.h"

static void *make_cb(blk_ctx *c, gsc_module *p, const char *n)
{
    return spu_cb_new(c, p, n);
}

/* The script, one action list per cycle: write (value at word 0 of the write half), read (word 0
 * of the read half, recorded), swap. */
#define CYCLES 8
typedef struct {
    const spu_cb_if *m;
    void *self;
    float write[CYCLES]; /* 0: none */
    bool swap[CYCLES], read_after_swap[CYCLES];
    uint32_t read[CYCLES]; /* bits read in the cycle (before a swap call and after, same value) */
    uint32_t read2[CYCLES];
    uint8_t *wr_half[CYCLES], *rd_half[CYCLES];
} script;

static uint32_t read_word(script *s, unsigned cyc)
{
    uint64_t bytes;
    uint8_t *h = s->m->half(s->self, false, 1, &bytes);
    g_assert_cmpuint(bytes, ==, 4096);
    s->rd_half[cyc] = h;
    uint32_t v;
    memcpy(&v, h, 4);
    return v;
}

static void script_run(void *self)
{
    script *s = self;
    unsigned c = (unsigned)gsc_cycle();
    if (c >= CYCLES)
        return;
    s->read[c] = read_word(s, c);
    if (s->write[c] != 0) {
        uint64_t bytes;
        uint8_t *h = s->m->half(s->self, true, 1, &bytes);
        s->wr_half[c] = h;
        memcpy(h, &s->write[c], 4);
    }
    if (s->swap[c]) {
        s->m->swap(s->self);
        s->read2[c] = read_word(s, c);
    }
}

static uint32_t bits(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return v;
}

static void test_ping_pong(void)
{
    char *vcd_path = g_build_filename(g_get_tmp_dir(), "test_spu_cb.vcd", NULL);
    harness *h = harness_new(&spu_cb_desc, make_cb, NULL, vcd_path);
    blk_iref r = harness_export(h, "cb");
    script s = {.m = r.methods, .self = r.self};
    s.write[1] = 42.0f; /* before barrier 1 */
    s.swap[2] = true;   /* barrier 1 released in cycle 2 */
    s.write[3] = 7.0f;  /* before barrier 2 */
    s.swap[4] = true;
    gsc_module *mod = gsc_module_new(NULL, "script");
    gsc_process *p = gsc_process_new(mod, "run", script_run, &s);
    gsc_sensitive_clock(p, blk_ctx_clock(harness_inst(h)->ctx));
    harness_run(h, CYCLES);
    /* before barrier 1: the consumer sees the poison, never the 42 */
    g_assert_cmphex(s.read[1], ==, 0xffffffffu);
    g_assert_cmphex(s.read[2], ==, 0xffffffffu);
    g_assert_cmphex(s.read2[2], ==, 0xffffffffu); /* the swap's own cycle */
    /* after barrier 1: 42; the producer writes the half the consumer read before */
    g_assert_cmphex(s.read[3], ==, bits(42.0f));
    g_assert_true(s.wr_half[3] == s.rd_half[1]);
    g_assert_true(s.wr_half[1] == s.rd_half[3]);
    g_assert_cmphex(s.read[4], ==, bits(42.0f)); /* 7 is not visible before barrier 2 */
    g_assert_cmphex(s.read[5], ==, bits(7.0f));
    g_assert_true(s.rd_half[5] == s.wr_half[3]);
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(inst, SPU_CB_STAT_SWAPS), ==, 2);
    g_assert_cmpuint(blk_stat_get(inst, SPU_CB_STAT_WRITES), ==, 2);
    g_assert_cmpuint(blk_stat_get(inst, SPU_CB_STAT_READS), ==,
                     CYCLES + 2); /* one per cycle 0..7, one after each swap */
    g_assert_cmpuint(blk_stat_get(inst, SPU_CB_STAT_IU_WORDS), ==, 2 + CYCLES + 2);
    harness_free(h);
    /* the traced phase flips in the cycles the swaps take effect: 3 and 5 */
    GError *err = NULL;
    vcd *v = vcd_load(vcd_path, &err);
    g_assert_no_error(err);
    int ph = vcd_find(v, "dut.phase");
    g_assert_cmpint(ph, >=, 0);
    for (unsigned c = 1; c < CYCLES; c++) {
        uint64_t val;
        g_assert_true(vcd_uint_at_cycle(v, (unsigned)ph, c, 1000, &val));
        g_assert_cmpuint(val, ==, c < 3 ? 0 : c < 5 ? 1 : 0);
    }
    vcd_free(v);
    g_remove(vcd_path);
    g_free(vcd_path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/spu_cb/ping_pong", test_ping_pong);
    return g_test_run();
}
