/* Tests of the `sm_link` block (models/mem/sm_link.h): arrival cycles in closed form, routing to
 * the right neighbour, back-pressure, the border error, statistics, sleeping.
 *
 * With latency L and S = max(1, ceil(bytes / bytes_per_cycle)), a message the driver puts on
 * out_<d><i> in cycle t is got by the block in t+1, put on the neighbour's in FIFO in t + 1 + S + L,
 * and got by the driver in t + 2 + S + L; k back-to-back messages put together in t are got by the
 * driver in t + 2 + (k+1)S + L. The grid is 3 x 2 (6 nodes; node i at x = i mod 3, y = i / 3):
 *     0 1 2
 *     3 4 5                                                                                          */
#include "models/mem/sm_link.h"
#include "tests/mem/drv.h"

#include <string.h>

#include "models/core/harness.h"

enum { N = 6, COLS = 3 };

typedef struct {
    drv *d;
    sm_link *b;
    unsigned n;
    drv_chan *out[SM_LINK_DIRS][N]; /* driver -> block: what node i sends toward d */
    drv_chan *in[SM_LINK_DIRS][N];  /* block -> driver: what node i receives from side d */
} rig;

/* The depth of the FIFOs on the in_* ports: their consumer's (an SM's link_port.recv_depth, here the
 * driver's); 4 unless a test sets "recv_depth=N" among the extra settings. */
static unsigned recv_depth(const char *const *extra)
{
    for (unsigned i = 0; extra && extra[i]; i++)
        if (g_str_has_prefix(extra[i], "recv_depth="))
            return (unsigned)g_ascii_strtoull(extra[i] + strlen("recv_depth="), NULL, 10);
    return 4;
}

/* extra: NULL-terminated further settings (after cols=3, latency=1, bytes_per_cycle=32), and
 * "recv_depth=N" for the driver's in FIFOs. */
static void rig_init_n(rig *r, unsigned n, const char *const *extra)
{
    const char *base[12] = {"sm_link.cols=3", "sm_link.latency=1", "sm_link.bytes_per_cycle=32"};
    unsigned k = 3;
    for (unsigned i = 0; extra && extra[i]; i++)
        if (!g_str_has_prefix(extra[i], "recv_depth="))
            base[k++] = extra[i];
    g_assert_cmpuint(k, <, G_N_ELEMENTS(base));
    blk_registry_add(&sm_link_desc);
    memset(r, 0, sizeof *r);
    r->n = n;
    r->d = drv_new(base);
    r->b = sm_link_new(drv_ctx(r->d), NULL, "links", n);
    for (unsigned d = 0; d < SM_LINK_DIRS; d++)
        for (unsigned i = 0; i < n; i++) {
            gsc_port *o = sm_link_out(r->b, i, (sm_link_dir)d), *in = sm_link_in(r->b, i, (sm_link_dir)d);
            if (o)
                r->out[d][i] = drv_in(r->d, o, &link_msg_type, sm_link_send_depth(r->b));
            if (in)
                r->in[d][i] = drv_out(r->d, in, &link_msg_type, recv_depth(extra));
        }
}

static void rig_init(rig *r, const char *const *extra)
{
    rig_init_n(r, N, extra);
}

static link_msg_t msg(uint32_t tag, uint32_t bytes)
{
    link_msg_t m;
    memset(&m, 0, sizeof m);
    m.src = m.dst = 999; /* the block overwrites both */
    m.kind = 7;
    m.tag = tag;
    m.bytes = bytes;
    for (unsigned k = 0; k < MEM_LINE_MAX; k++)
        m.data[k] = (uint8_t)(tag + k);
    return m;
}

static unsigned total_received(rig *r)
{
    unsigned c = 0;
    for (unsigned d = 0; d < SM_LINK_DIRS; d++)
        for (unsigned i = 0; i < r->n; i++)
            if (r->in[d][i])
                c += drv_count(r->in[d][i]);
    return c;
}

/* One message 0 -> 1 (east) for latency L and size bytes: got by the driver in t + 2 + S + L. */
static void lone(unsigned latency, uint32_t bytes, unsigned want_s)
{
    char lat[64];
    g_snprintf(lat, sizeof lat, "sm_link.latency=%u", latency);
    const char *extra[] = {lat, NULL};
    rig r;
    rig_init(&r, extra);
    g_assert_cmpuint(sm_link_transfer_cycles(r.b, bytes), ==, want_s);
    link_msg_t m = msg(42, bytes), got;
    drv_push(r.out[SM_LINK_E][0], 5, &m);
    drv_run(r.d, 20 + latency + want_s);
    uint64_t c;
    g_assert_true(drv_pop(r.in[SM_LINK_W][1], &got, &c));
    g_assert_cmpuint(c, ==, 5 + 2 + want_s + latency);
    g_assert_cmpuint(got.src, ==, 0);
    g_assert_cmpuint(got.dst, ==, 1);
    g_assert_cmpuint(got.kind, ==, 7);
    g_assert_cmpuint(got.tag, ==, 42);
    g_assert_cmpuint(got.bytes, ==, bytes);
    g_assert_cmpmem(got.data, MEM_LINE_MAX, m.data, MEM_LINE_MAX);
    g_assert_cmpuint(total_received(&r), ==, 0);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_MESSAGES), ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_BYTES), ==, bytes);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_BUSY_CYCLES), ==, want_s);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALLS), ==, 0);
    g_assert_cmpuint(r.b->in_flight, ==, 0);
    drv_free(r.d);
}

static void test_closed_form(void)
{
    /* two latencies x two sizes (32 bytes per cycle), and the empty message (one cycle) */
    lone(1, 8, 1);
    lone(1, 100, 4);
    lone(7, 8, 1);
    lone(7, 100, 4);
    lone(1, 0, 1);
    lone(0, 128, 4);
    lone(3, 4096, 128); /* larger than a line: timing only */
}

static void test_back_to_back(void)
{
    const char *extra[] = {"sm_link.latency=3", NULL};
    rig r;
    rig_init(&r, extra);
    for (unsigned k = 0; k < 3; k++) {
        link_msg_t m = msg(k, 100); /* S = 4 */
        drv_push(r.out[SM_LINK_S][1], 5, &m);
    }
    /* node 4 also receives from its west neighbour 3 at the same time: links are independent */
    link_msg_t w = msg(9, 100);
    drv_push(r.out[SM_LINK_E][3], 5, &w);
    drv_run(r.d, 60);
    for (unsigned k = 0; k < 3; k++) {
        link_msg_t got;
        uint64_t c;
        g_assert_true(drv_pop(r.in[SM_LINK_N][4], &got, &c));
        g_assert_cmpuint(got.tag, ==, k);
        g_assert_cmpuint(c, ==, 5 + 2 + (k + 1) * 4 + 3);
    }
    link_msg_t got;
    uint64_t c;
    g_assert_true(drv_pop(r.in[SM_LINK_W][4], &got, &c));
    g_assert_cmpuint(got.tag, ==, 9);
    g_assert_cmpuint(got.src, ==, 3);
    g_assert_cmpuint(c, ==, 5 + 2 + 4 + 3);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_MESSAGES), ==, 4);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_BYTES), ==, 400);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_BUSY_CYCLES), ==, 16);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALLS), ==, 0);
    drv_free(r.d);
}

/* Every node sends one message on every link it has; each arrives once, on the right side of the
 * right neighbour, and nowhere else. */
static void routing(bool bidir)
{
    const char *extra[] = {bidir ? "sm_link.bidirectional=true" : "sm_link.bidirectional=false", NULL};
    rig r;
    rig_init(&r, extra);
    /* the 3 x 2 grid's neighbours: E, S, W, N per node */
    static const unsigned nb[N][SM_LINK_DIRS] = {
        {1, 3, SM_LINK_NONE, SM_LINK_NONE}, {2, 4, 0, SM_LINK_NONE}, {SM_LINK_NONE, 5, 1, SM_LINK_NONE},
        {4, SM_LINK_NONE, SM_LINK_NONE, 0}, {5, SM_LINK_NONE, 3, 1}, {SM_LINK_NONE, SM_LINK_NONE, 4, 2},
    };
    unsigned links = 0, dirs = bidir ? 4 : 2;
    g_assert_cmpuint(sm_link_cols(r.b), ==, 3);
    g_assert_cmpuint(sm_link_rows(r.b), ==, 2);
    for (unsigned d = 0; d < SM_LINK_DIRS; d++) {
        g_assert_true(sm_link_has_dir(r.b, (sm_link_dir)d) == (d < dirs));
        for (unsigned i = 0; i < N; i++) {
            unsigned want = d < dirs ? nb[i][d] : SM_LINK_NONE;
            g_assert_cmpuint(sm_link_neighbour(r.b, i, (sm_link_dir)d), ==, want);
            /* ports: out toward every enabled direction, in from the side opposite to one */
            g_assert_true((r.out[d][i] != NULL) == (d < dirs));
            g_assert_true((r.in[sm_link_opposite((sm_link_dir)d)][i] != NULL) == (d < dirs));
            if (want == SM_LINK_NONE)
                continue;
            link_msg_t m = msg(i * 4 + d, 8);
            drv_push(r.out[d][i], 2, &m);
            links++;
        }
    }
    g_assert_cmpuint(links, ==, bidir ? 14 : 7);
    g_assert_cmpuint(r.b->n_links, ==, links);
    drv_run(r.d, 20);
    g_assert_cmpuint(total_received(&r), ==, links);
    for (unsigned d = 0; d < dirs; d++)
        for (unsigned i = 0; i < N; i++) {
            unsigned j = nb[i][d];
            if (j == SM_LINK_NONE)
                continue;
            link_msg_t got;
            uint64_t c;
            drv_chan *in = r.in[sm_link_opposite((sm_link_dir)d)][j];
            g_assert_nonnull(in);
            /* one message per side and node: pop it and check it is i's */
            g_assert_true(drv_pop(in, &got, &c));
            g_assert_cmpuint(got.tag, ==, i * 4 + d);
            g_assert_cmpuint(got.src, ==, i);
            g_assert_cmpuint(got.dst, ==, j);
            g_assert_cmpuint(c, ==, 2 + 2 + 1 + 1);
        }
    g_assert_cmpuint(total_received(&r), ==, 0);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_MESSAGES), ==, links);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_BUSY_CYCLES), ==, links);
    /* utilisation: busy link-cycles / (cycles run x links) */
    g_assert_cmpfloat_with_epsilon(blk_stat_value(r.b->inst, SM_LINK_STAT_UTIL),
                                   (double)links / (20.0 * links), 1e-12);
    drv_free(r.d);
}

static void test_routing(void)
{
    routing(false);
}

static void test_routing_bidirectional(void)
{
    routing(true);
}

/* A full in FIFO: delivery waits for the consumer's get, the link stops taking messages, nothing
 * is lost, order is kept, stalls are counted. */
static void test_backpressure(void)
{
    const char *extra[] = {"recv_depth=1", "sm_link.send_depth=2", NULL};
    rig r;
    rig_init(&r, extra);
    drv_chan *in = r.in[SM_LINK_W][1];
    drv_set_drain(in, false);
    for (unsigned k = 0; k < 6; k++) {
        link_msg_t m = msg(k, 8); /* S = 1, L = 1 */
        drv_push(r.out[SM_LINK_E][0], 0, &m);
    }
    /* m0 got in 1, due 3 (put); m1 got in 2, due 4: the FIFO is full, it waits; m2 got in 3, due 5;
     * from 4 the link takes nothing more: m3, m4 stay in the out FIFO (depth 2), m5 in the driver. */
    drv_run(r.d, 20);
    g_assert_cmpuint(drv_count(in), ==, 0);
    g_assert_cmpuint(r.b->in_flight, ==, 2);
    g_assert_cmpuint(r.b->waiting, ==, 1);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_MESSAGES), ==, 3);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALLS), ==, 0); /* counted when put */
    drv_set_drain(in, true);
    drv_run(r.d, 40);
    /* the driver gets m0 in 20; m1 is put in 21 (17 late), got in 22; m2 put in 23 (18 late), got
     * in 24. Then the link takes m3 in 23 (due 25: put, got in 26) and m4 in 24 (due 26, but the get
     * of m3 frees the slot only from 27: put 1 late) and m5 in 25 (due 27, put 2 late in 29): one
     * message every two cycles through the FIFO of depth 1. */
    const uint64_t want[6] = {20, 22, 24, 26, 28, 30};
    for (unsigned k = 0; k < 6; k++) {
        link_msg_t got;
        uint64_t c;
        g_assert_true(drv_pop(in, &got, &c));
        g_assert_cmpuint(got.tag, ==, k);
        g_assert_cmpuint(c, ==, want[k]);
    }
    g_assert_cmpuint(total_received(&r), ==, 0);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_MESSAGES), ==, 6);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALLS), ==, 4);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALL_CYCLES), ==, 17 + 18 + 1 + 2);
    g_assert_cmpuint(r.b->in_flight, ==, 0);
    g_assert_cmpuint(r.b->waiting, ==, 0);
    drv_free(r.d);
}

/* The stall counters exactly: two messages delayed 17 and 18 cycles. */
static void test_stall_counts(void)
{
    const char *extra[] = {"recv_depth=1", NULL};
    rig r;
    rig_init(&r, extra);
    drv_chan *in = r.in[SM_LINK_N][3];
    drv_set_drain(in, false);
    for (unsigned k = 0; k < 3; k++) {
        link_msg_t m = msg(k, 8);
        drv_push(r.out[SM_LINK_S][0], 0, &m);
    }
    drv_run(r.d, 20);
    drv_set_drain(in, true);
    drv_run(r.d, 20);
    g_assert_cmpuint(drv_count(in), ==, 3);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALLS), ==, 2);
    g_assert_cmpuint(blk_stat_get(r.b->inst, SM_LINK_STAT_STALL_CYCLES), ==, (21 - 4) + (23 - 5));
    drv_free(r.d);
}

/* Without traffic the block never runs: only the driver's clocked process is activated. */
static void test_sleeps(void)
{
    rig r;
    rig_init(&r, NULL);
    drv_run(r.d, 10);
    uint64_t a0 = gsc_activations();
    drv_run(r.d, 100);
    g_assert_cmpuint(gsc_activations() - a0, ==, 100);
    link_msg_t m = msg(1, 8);
    drv_push(r.out[SM_LINK_E][4], 110, &m);
    drv_run(r.d, 20);
    g_assert_cmpuint(drv_count(r.in[SM_LINK_W][5]), ==, 1);
    a0 = gsc_activations();
    drv_run(r.d, 100);
    g_assert_cmpuint(gsc_activations() - a0, ==, 100);
    drv_free(r.d);
}

static void test_grid_shapes(void)
{
    /* default cols: the smallest square holding the nodes; a partial last row */
    rig r;
    const char *auto_cols[] = {"sm_link.cols=0", NULL};
    rig_init_n(&r, 5, auto_cols);
    g_assert_cmpuint(sm_link_cols(r.b), ==, 3);
    g_assert_cmpuint(sm_link_rows(r.b), ==, 2);
    g_assert_cmpuint(sm_link_neighbour(r.b, 4, SM_LINK_E), ==, SM_LINK_NONE); /* last node */
    g_assert_cmpuint(sm_link_neighbour(r.b, 2, SM_LINK_S), ==, SM_LINK_NONE); /* nothing below */
    g_assert_cmpuint(sm_link_neighbour(r.b, 1, SM_LINK_S), ==, 4);
    g_assert_cmpuint(r.b->n_links, ==, 3 + 2); /* E: 0-1, 1-2, 3-4; S: 0-3, 1-4 */
    drv_free(r.d);
    rig_init_n(&r, 1, auto_cols);
    g_assert_cmpuint(sm_link_cols(r.b), ==, 1);
    g_assert_cmpuint(r.b->n_links, ==, 0);
    g_assert_cmpfloat(blk_stat_value(r.b->inst, SM_LINK_STAT_UTIL), ==, 0);
    drv_free(r.d);
}

/* A message past the border is a model error naming the node, its place, the direction and the grid
 * (in the cycle the block sees it: put in 3, seen in 4). */
typedef struct {
    unsigned n, node;
    sm_link_dir d;
    const char *setting; /* NULL or one more setting */
    const char *want;    /* stderr pattern */
} border_case;

static const border_case border_cases[] = {
    {N, 2, SM_LINK_E, NULL,
     "*gpusc: links: node 2 (x 2, y 0) sent a message east on out_e2 at cycle 4, but the 3 x 2 grid of 6 "
     "nodes has no node east of it (border)*"},
    {5, 2, SM_LINK_S, NULL,
     "*node 2 (x 2, y 0) sent a message south on out_s2*grid of 5 nodes has no node south*"},
    {5, 4, SM_LINK_E, NULL, "*node 4 (x 1, y 1) sent a message east on out_e4*"}, /* the last node */
    {N, 3, SM_LINK_W, "sm_link.bidirectional=true", "*node 3 (x 0, y 1) sent a message west on out_w3*"},
    {N, 1, SM_LINK_N, "sm_link.bidirectional=true", "*node 1 (x 1, y 0) sent a message north on out_n1*"},
};

static void test_border(gconstpointer data)
{
    const border_case *bc = data;
    if (g_test_subprocess()) {
        gsc_init("test_sm_link");
        const char *extra[] = {bc->setting, NULL};
        rig r;
        rig_init_n(&r, bc->n, extra);
        link_msg_t m = msg(1, 8);
        drv_push(r.out[bc->d][bc->node], 3, &m);
        drv_run(r.d, 20);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(bc->want);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/sm_link/closed-form", test_closed_form);
    harness_test_add("/sm_link/back-to-back", test_back_to_back);
    harness_test_add("/sm_link/routing", test_routing);
    harness_test_add("/sm_link/routing-bidirectional", test_routing_bidirectional);
    harness_test_add("/sm_link/backpressure", test_backpressure);
    harness_test_add("/sm_link/stall-counts", test_stall_counts);
    harness_test_add("/sm_link/sleeps", test_sleeps);
    harness_test_add("/sm_link/grid-shapes", test_grid_shapes);
    for (unsigned k = 0; k < G_N_ELEMENTS(border_cases); k++) {
        char *path = g_strdup_printf("/sm_link/border/%u-%s%u", border_cases[k].n,
                                     sm_link_dir_letter(border_cases[k].d), border_cases[k].node);
        g_test_add_data_func(path, &border_cases[k], test_border);
        g_free(path);
    }
    return g_test_run();
}
