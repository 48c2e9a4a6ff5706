/* test_spu_iu_exec — an `spu_iu` running IU code (models/spu/spu_iu_code.h) alone in the harness,
 * driven cycle by cycle, its `cb` and `bs` imports stubbed, its `release` export called by the test:
 * a west unit (a loader) runs a nine-instruction program: it loads 32 elements from global memory,
 * stores them into its CB, syncs toward its SM (east) and exits. Checks the timing rules cycle by
 * cycle (one instruction per cycle, the scoreboard holding the CB store until the load's data,
 * mem_latency after its last 32-byte request, four requests for 128 bytes), the data in the CB (the
 * scoreboard and the deferred load: a store of the register before the data returned would write
 * zeros), the blocksync arrival, the leave after the release, and the counters. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernels/frontend/spu_isa.h"
#include "models/core/harness.h"
#include "models/spu/spu_cb.h"
#include "models/spu/spu_iu_code.h"

static const char prog_text[] = ".version 7.0\n"
                                ".target sm_75\n"
                                ".address_size 64\n"
                                ".visible .entry t(.param .u64 t_a)\n"
                                "{\n"
                                "\t.reg .b32 %r<4>;\n"
                                "\t.reg .b64 %rd<4>;\n"
                                "\tld.param.u64 %rd1, [t_a];\n"
                                "\tmov.u32 %r1, %tid.x;\n"
                                "\tmul.wide.u32 %rd2, %r1, 4;\n"
                                "\tadd.s64 %rd3, %rd1, %rd2;\n"
                                "\tshl.b32 %r2, %r1, 2;\n"
                                "\tld.global.b32 %r3, [%rd3];\n"
                                "\tst.cb.east.b32 [%r2], %r3;\n"
                                "\tbar.blocksync.east;\n"
                                "\texit;\n"
                                "}\n";

static fmem *mem;

static void *make_iu(blk_ctx *c, gsc_module *p, const char *n)
{
    return spu_iu_new(c, p, n, mem, 3, false);
}

typedef struct {
    uint8_t buf[4096];
    uint64_t write_cycle[8];
    unsigned writes, words;
} cb_stub;
static uint8_t *stub_half(void *self, bool write, unsigned words, uint64_t *bytes)
{
    cb_stub *s = self;
    g_assert_true(write); /* a loader writes its CB */
    s->write_cycle[s->writes++ % 8] = gsc_cycle();
    s->words += words;
    *bytes = sizeof s->buf;
    return s->buf;
}
static uint8_t *stub_peek(void *self, bool write, uint64_t *bytes)
{
    g_assert_true(write);
    *bytes = sizeof((cb_stub *)self)->buf;
    return ((cb_stub *)self)->buf;
}
static void stub_swap(void *self)
{
    (void)self;
}
static const spu_cb_if cb_table = {stub_half, stub_swap, stub_peek};

typedef struct {
    uint64_t arrived, left;
    unsigned n_arrive, dir;
} bs_stub;
static void stub_arrive(void *self, unsigned sm, unsigned slot, unsigned dir)
{
    bs_stub *b = self;
    g_assert_cmpuint(sm, ==, 3);
    g_assert_cmpuint(slot, ==, 0);
    b->arrived = gsc_cycle();
    b->dir = dir;
    b->n_arrive++;
}
static void stub_leave(void *self, unsigned sm)
{
    bs_stub *b = self;
    g_assert_cmpuint(sm, ==, 3);
    b->left = gsc_cycle();
}
static const blocksync_if bs_table = {stub_arrive, stub_leave};

static void test_loader(void)
{
    mem = fmem_new();
    uint64_t a = fmem_alloc(mem, 128);
    uint32_t data[32];
    for (unsigned i = 0; i < 32; i++)
        data[i] = 0x40000000u + 7 * i;
    g_assert_true(fmem_write(mem, a, data, sizeof data));
    char *path = NULL;
    int fd = g_file_open_tmp("spu-iu-XXXXXX.ptx", &path, NULL);
    g_assert_cmpint(fd, >=, 0);
    g_assert_true(g_file_set_contents(path, prog_text, -1, NULL));
    close(fd);
    GString *err = g_string_new(NULL);
    spu_iu_prog *prog = spu_iu_prog_load(path, mem, err);
    g_assert_nonnull(prog);

    harness *h = harness_new(&spu_iu_desc, make_iu, (const char *const[]){"mem_latency=10", NULL}, NULL);
    cb_stub cb = {.writes = 0};
    bs_stub bs = {.n_arrive = 0};
    harness_stub(h, "cb", &cb_table, &cb);
    harness_stub(h, "bs", &bs_table, &bs);
    spu_iu *u = harness_inst(h)->self;
    g_assert_cmpint(spu_iu_prog_check(prog, "t", SPU_DIR_WEST, SPU_DIR_EAST, err), ==, 0);
    /* the same code on a north unit (its CB is south of it) is refused */
    g_assert_cmpint(spu_iu_prog_check(prog, "t", SPU_DIR_NORTH, SPU_DIR_SOUTH, err), !=, 0);
    g_assert_nonnull(strstr(err->str, "only the CB toward its SM"));
    wl_arg args[] = {WL_PTR(a)};
    uint32_t sregs[10] = {0};
    g_assert_cmpint(spu_iu_set_code(u, prog, "t", args, 1, sregs, SPU_DIR_WEST, SPU_DIR_EAST, err), ==, 0);

    const uint64_t c0 = 0; /* the unit starts in cycle 0 */
    while (harness_step(h) < c0 + 40 && !bs.n_arrive)
        ;
    /* c0..c0+4: ld.param, mov, mul.wide, add, shl, each on its producer's next cycle; c0+5:
     * ld.global, 4 requests (c0+5..c0+8), data at c0+8+10; the CB store then; the sync next */
    g_assert_cmpuint(cb.writes, ==, 4);
    g_assert_cmpuint(cb.words, ==, 32);
    for (unsigned i = 0; i < 4; i++)
        g_assert_cmpuint(cb.write_cycle[i], ==, c0 + 18);
    g_assert_cmpuint(bs.n_arrive, ==, 1);
    g_assert_cmpuint(bs.arrived, ==, c0 + 19);
    g_assert_cmpuint(bs.dir, ==, SPU_DIR_EAST);
    g_assert_cmpmem(cb.buf, sizeof data, data, sizeof data);
    g_assert_cmpuint(u->state, ==, SPU_IU_WAITING);
    /* waits until released; then exits, and leaves the cycle after */
    for (unsigned i = 0; i < 5; i++)
        harness_step(h);
    g_assert_cmpuint(bs.left, ==, 0);
    blk_iref rel = harness_export(h, "release");
    uint64_t r = gsc_cycle();
    ((const blocksync_release_if *)rel.methods)->release(rel.self, 0);
    while (harness_step(h) < r + 5)
        ;
    g_assert_cmpuint(bs.left, ==, r + 2);
    g_assert_cmpuint(u->state, ==, SPU_IU_DONE);
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(inst, SPU_IU_STAT_INSTRS), ==, 9);
    g_assert_cmpuint(blk_stat_get(inst, SPU_IU_STAT_LOADS), ==, 32);
    g_assert_cmpuint(blk_stat_get(inst, SPU_IU_STAT_STORES), ==, 0);
    g_assert_cmpuint(blk_stat_get(inst, SPU_IU_STAT_REQUESTS), ==, 4);
    g_assert_cmpuint(blk_stat_get(inst, SPU_IU_STAT_ROUNDS), ==, 1);
    harness_free(h);
    spu_iu_prog_free(prog);
    g_string_free(err, TRUE);
    g_unlink(path);
    g_free(path);
    fmem_free(mem);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/spu_iu/code/loader", test_loader);
    return g_test_run();
}
