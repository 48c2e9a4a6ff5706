/* test_ibuffer — the `ibuffer` block alone in the harness (models/core/harness.h), called through its
 * exported `ib` interface as the issue block calls it: per-warp FIFO order of push/head/pop, the
 * ring wrapping around at `entries`, flush (a redirect), the statistics, a push into a full buffer
 * (a model bug), the traced `valid` mask and calls. */
#include <glib.h>
#include <string.h>

#include "models/sm/ibuffer.h"
#include "tests/sm/block_test.h"

enum { WARPS = 6 };

static void *make_ib(blk_ctx *c, gsc_module *p, const char *n)
{
    return ibuffer_new(c, p, n, WARPS);
}

/* The export as the block's client calls it. */
#define IB(d) ((const ibuffer_if *)(d).m)

static block_dut dut_new(const char *const *settings, const char *vcd)
{
    return block_dut_new(&ibuffer_desc, make_ib, "ib", settings, vcd, true);
}

static void push(const block_dut *d, unsigned warp, uint32_t pc)
{
    decoded_t x;
    memset(&x, 0, sizeof x);
    x.warp = (uint16_t)warp;
    x.pc = pc;
    x.epoch = (uint16_t)(pc + 100); /* the whole entry is kept, not only the PC */
    IB(*d)->push(d->self, &x);
}

static uint32_t head_pc(const block_dut *d, unsigned warp)
{
    const decoded_t *x = IB(*d)->head(d->self, warp);
    g_assert_nonnull(x);
    g_assert_cmpuint(x->warp, ==, warp);
    g_assert_cmpuint(x->epoch, ==, x->pc + 100);
    return x->pc;
}

/* entries=3: each warp's buffer is a FIFO of 3; the ring's slots are reused past the end (pushes
 * after pops land at index 0 again) and the order holds across the wrap. */
static void test_order_and_wrap(void)
{
    const char *set[] = {"entries=3", NULL};
    block_dut d = dut_new(set, NULL);
    g_assert_null(IB(d)->head(d.self, 1));
    g_assert_cmpuint(IB(d)->count(d.self, 1), ==, 0);
    push(&d, 1, 10);
    push(&d, 1, 11);
    push(&d, 4, 50);
    push(&d, 1, 12);
    g_assert_cmpuint(IB(d)->count(d.self, 1), ==, 3);
    g_assert_cmpuint(IB(d)->count(d.self, 4), ==, 1);
    g_assert_cmpuint(head_pc(&d, 1), ==, 10);
    g_assert_cmpuint(head_pc(&d, 4), ==, 50);
    IB(d)->pop(d.self, 1);
    g_assert_cmpuint(head_pc(&d, 1), ==, 11);
    push(&d, 1, 13); /* into slot 0 again */
    IB(d)->pop(d.self, 1);
    push(&d, 1, 14); /* slot 1 */
    g_assert_cmpuint(IB(d)->count(d.self, 1), ==, 3);
    static const uint32_t want[] = {12, 13, 14};
    for (unsigned i = 0; i < 3; i++) {
        g_assert_cmpuint(head_pc(&d, 1), ==, want[i]);
        IB(d)->pop(d.self, 1);
    }
    g_assert_null(IB(d)->head(d.self, 1));
    g_assert_cmpuint(IB(d)->count(d.self, 1), ==, 0);
    /* many rounds through a 3-entry ring, one or two entries at a time */
    uint32_t next_in = 100, next_out = 100;
    for (unsigned round = 0; round < 20; round++) {
        unsigned n = 1 + round % 2;
        for (unsigned i = 0; i < n; i++)
            push(&d, 5, next_in++);
        for (unsigned i = 0; i < n; i++) {
            g_assert_cmpuint(head_pc(&d, 5), ==, next_out++);
            IB(d)->pop(d.self, 5);
        }
    }
    g_assert_cmpuint(next_out, ==, 130);
    g_assert_cmpuint(head_pc(&d, 4), ==, 50); /* untouched by the other warps */
    g_assert_cmpuint(block_stat(&d, IBUFFER_STAT_PUSHED), ==, 6 + 30);
    g_assert_cmpuint(block_stat(&d, IBUFFER_STAT_FLUSHED), ==, 0);
    harness_free(d.h);
}

/* A flush (redirect) drops the warp's entries, counted in `flushed`; the buffer is then empty and
 * refills from its new head. The default is 2 entries (GPGPU-Sim). */
static void test_flush(void)
{
    block_dut d = dut_new(NULL, NULL);
    g_assert_cmpuint(((ibuffer *)harness_block(d.h))->entries, ==, 2);
    push(&d, 0, 1);
    push(&d, 0, 2);
    push(&d, 3, 7);
    IB(d)->flush(d.self, 0);
    g_assert_null(IB(d)->head(d.self, 0));
    g_assert_cmpuint(IB(d)->count(d.self, 0), ==, 0);
    g_assert_cmpuint(head_pc(&d, 3), ==, 7);
    IB(d)->flush(d.self, 2); /* an empty buffer: nothing dropped */
    push(&d, 0, 20);
    push(&d, 0, 21);
    g_assert_cmpuint(head_pc(&d, 0), ==, 20);
    IB(d)->pop(d.self, 0);
    IB(d)->flush(d.self, 0);
    g_assert_cmpuint(block_stat(&d, IBUFFER_STAT_PUSHED), ==, 5);
    g_assert_cmpuint(block_stat(&d, IBUFFER_STAT_FLUSHED), ==, 3);
    harness_free(d.h);
}

/* fetch sends only as many instructions as it has credits: a push into a full buffer is a bug. */
static void test_push_full(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_ibuffer");
        block_dut d = dut_new(NULL, NULL);
        push(&d, 2, 0);
        push(&d, 2, 1);
        push(&d, 2, 2);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*count < b->entries*");
}

/* `valid` has a bit per warp whose buffer holds an instruction: set by a push, cleared when the last
 * entry is popped or flushed; `ib.calls` counts the push/pop/flush calls of a cycle (see at()). */
static void test_valid_traced(void)
{
    char *path = block_vcd_path();
    block_dut d = dut_new(NULL, path);
    uint64_t c0 = harness_step(d.h);
    push(&d, 1, 0);
    push(&d, 3, 0);
    push(&d, 3, 1);
    push(&d, 5, 0);
    harness_step(d.h); /* c0 + 1: warps 1, 3, 5 */
    IB(d)->pop(d.self, 3);
    IB(d)->pop(d.self, 1);
    harness_step(d.h); /* c0 + 2: warp 3 still holds one, 1 is empty */
    IB(d)->flush(d.self, 5);
    IB(d)->head(d.self, 3); /* a query is not a traced call */
    harness_step(d.h);      /* c0 + 3 */
    IB(d)->pop(d.self, 3);
    harness_run(d.h, 3); /* c0 + 4 .. */
    harness_free(d.h);
    vcd *v = block_vcd_load(path);
    int s = vcd_find(v, "dut.valid");
    g_assert_cmpint(s, >=, 0);
    g_assert_cmpuint(vcd_signal_width(v, (unsigned)s), ==, 64);
    static const uint64_t valid[] = {0, 0x2a, 0x28, 0x08, 0, 0};
    static const uint64_t calls[] = {0, 4, 2, 1, 1, 0};
    for (unsigned i = 0; i < G_N_ELEMENTS(valid); i++) {
        g_assert_cmphex(block_vcd_at(v, "dut.valid", c0 + i), ==, valid[i]);
        g_assert_cmpuint(block_vcd_at(v, "dut.ib.calls", c0 + i), ==, calls[i]);
    }
    vcd_free(v);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm/ibuffer/order_and_wrap", test_order_and_wrap);
    harness_test_add("/sm/ibuffer/flush", test_flush);
    g_test_add_func("/sm/ibuffer/push_full", test_push_full);
    harness_test_add("/sm/ibuffer/valid_traced", test_valid_traced);
    return g_test_run();
}
