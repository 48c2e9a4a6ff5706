/* test_gpu_links — a mechanism attaching to the SM-to-SM links of the `gpu` topology through each
 * SM's `link_port` block (gpu_topo_link_port, models/topo/gpu.h; models/sm/link_port.h), while a
 * workload runs on the SMs.
 *
 * The GPU has 6 SMs as a 3 x 2 grid (sm_link.cols = 3), latency 2, 32 bytes per cycle. A test
 * "mechanism" (a process calling every SM's `send` export, and a listener bound to every SM's `recv`
 * import) sends, in cycle 5, one 64-byte message (S = 2) on every link that reaches a node, and is
 * told of every message that arrives. Each must reach the right side of the right neighbour, got in
 * 5 + 2 + S + L = 11 (sm_link.h), while vecadd still passes its CPU reference. With bidirectional
 * links the same holds for all 14 links. */
#include <glib.h>
#include <string.h>

#include "models/core/cli.h"
#include "models/topo/gpu.h"
#include "testbench/tb_common.h"

#define N_SMS   6
#define SEND_AT 5

static const blk_param_desc tb_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1429", "2", "1000000", NULL, "ps", "core clock period"},
};
static const blk_desc tb_desc = {
    "tb_gpu_links",
    "test: the gpu topology with a mechanism on its SM-to-SM links",
    "",
    NULL,
    0,
    tb_params,
    BLK_N(tb_params),
    NULL,
    0,
    NULL,
    0,
};

typedef struct mech mech;
typedef struct {
    mech *m;
    unsigned sm;
} mech_node;

struct mech {
    const link_send_if *send[N_SMS];
    void *send_self[N_SMS];
    unsigned dirs;
    mech_node node[N_SMS];
    sm_link *links;
    unsigned sent, got;
    unsigned got_at[SM_LINK_DIRS][N_SMS]; /* per receiving node and side: the cycle, 0 = none */
    unsigned tag[SM_LINK_DIRS][N_SMS];
    unsigned src[SM_LINK_DIRS][N_SMS];
    unsigned extra; /* messages on a side that already had one */
};

static void mech_run(void *self)
{
    mech *m = self;
    if (gsc_cycle() != SEND_AT)
        return;
    for (unsigned d = 0; d < m->dirs; d++)
        for (unsigned i = 0; i < N_SMS; i++) {
            if (sm_link_neighbour(m->links, i, d) == SM_LINK_NONE)
                continue;
            link_msg_t msg;
            memset(&msg, 0, sizeof msg);
            msg.tag = i * 4 + d;
            msg.bytes = 64;
            g_assert_true(m->send[i]->can_send(m->send_self[i], d));
            m->send[i]->send(m->send_self[i], d, &msg);
            m->sent++;
        }
}

/* The listener of SM n->sm: a message that travelled in direction k came in on side opposite(k). */
static void mech_received(void *self, unsigned k, const link_msg_t *msg)
{
    mech_node *n = self;
    mech *m = n->m;
    unsigned side = sm_link_opposite((sm_link_dir)k), i = n->sm;
    m->extra += m->got_at[side][i] != 0;
    m->got_at[side][i] = (unsigned)gsc_cycle();
    m->tag[side][i] = msg->tag;
    m->src[side][i] = msg->src;
    m->got++;
}

static const link_recv_if mech_recv = {mech_received};

static void run_links(bool bidir)
{
    const char *argv0[] = {"test_gpu_links",
                           "--no-trace",
                           "--workload",
                           "vecadd",
                           "--size",
                           "tiny",
                           "--set",
                           "gpu.sms=6",
                           "--set",
                           "gpu.sm_links=true",
                           "--set",
                           "sm_link.cols=3",
                           "--set",
                           "sm_link.latency=2",
                           "--set",
                           "sm_link.bytes_per_cycle=32",
                           "--set",
                           bidir ? "sm_link.bidirectional=true" : "sm_link.bidirectional=false",
                           NULL};
    int argc = (int)G_N_ELEMENTS(argv0) - 1;
    char **argv = g_memdup2(argv0, sizeof argv0);
    machine_register(MACHINE_GPU);
    cli_run *run = cli_new("test_gpu_links", "links", &tb_desc, "tb", "gtx480");
    tb_opts o;
    tb_opts_add(run, &o);
    cli_parse(run, &argc, &argv);
    gpu_topo *g = gpu_topo_new(run->ctx, run->top->mod, "gpu");
    bool subcore;
    char *sm_path = gpu_topo_sm_path(g, &subcore);
    tb_kernel *k = tb_kernel_load(&o, "vecadd", sm_path, subcore);
    g_free(sm_path);
    sm_env *env = tb_kernel_env(k, gpu_topo_n_sms(g));
    gpu_topo_build(g, env);
    tb_machine *tm = tb_machine_new(run, env, gpu_topo_dispatch(g), gpu_topo_sms(g), gpu_topo_n_sms(g));

    /* the mechanism: calls every SM's link_port and listens to it */
    mech m;
    memset(&m, 0, sizeof m);
    m.links = gpu_topo_links(g);
    g_assert_nonnull(m.links);
    m.dirs = bidir ? 4 : 2;
    for (unsigned i = 0; i < N_SMS; i++) {
        link_port *lp = gpu_topo_link_port(g, i);
        g_assert_nonnull(lp);
        g_assert_cmpuint(blk_port_count(lp->inst, LINK_PORT_OUT), ==, m.dirs);
        g_assert_cmpuint(blk_port_count(lp->inst, LINK_PORT_IN), ==, m.dirs);
        blk_iref r = blk_export_ref(lp->inst, LINK_PORT_SEND, 0);
        m.send[i] = r.methods;
        m.send_self[i] = r.self;
        m.node[i] = (mech_node){&m, i};
        blk_bind_stub(lp->inst, "recv", &mech_recv, &m.node[i]);
    }
    gsc_module *mod = gsc_module_new(run->top->mod, "mech");
    gsc_process *p = gsc_process_new(mod, "run", mech_run, &m);
    gsc_sensitive_clock(p, blk_ctx_clock(run->ctx));
    cli_elaborate(run);

    g_assert_cmpint(tb_machine_run(tm, k, &o), ==, TB_EXIT_OK);
    unsigned links = bidir ? 14 : 7;
    g_assert_cmpuint(m.sent, ==, links);
    g_assert_cmpuint(m.got, ==, links);
    g_assert_cmpuint(m.extra, ==, 0);
    for (unsigned d = 0; d < SM_LINK_DIRS; d++)
        for (unsigned i = 0; i < N_SMS; i++) {
            unsigned j = sm_link_neighbour(m.links, i, d);
            if (j == SM_LINK_NONE)
                continue;
            sm_link_dir side = sm_link_opposite(d);
            g_assert_cmpuint(m.got_at[side][j], ==, SEND_AT + 2 + 2 + 2);
            g_assert_cmpuint(m.tag[side][j], ==, i * 4 + d);
            g_assert_cmpuint(m.src[side][j], ==, i);
        }
    const blk_inst *li = m.links->inst;
    g_assert_cmpuint(blk_stat_get(li, SM_LINK_STAT_MESSAGES), ==, links);
    g_assert_cmpuint(blk_stat_get(li, SM_LINK_STAT_BYTES), ==, 64 * links);
    g_assert_cmpuint(blk_stat_get(li, SM_LINK_STAT_BUSY_CYCLES), ==, 2 * links);
    g_assert_cmpuint(blk_stat_get(li, SM_LINK_STAT_STALLS), ==, 0);
    unsigned sent = 0, received = 0;
    for (unsigned i = 0; i < N_SMS; i++) {
        const blk_inst *pi = gpu_topo_link_port(g, i)->inst;
        sent += (unsigned)blk_stat_get(pi, LINK_PORT_STAT_SENT);
        received += (unsigned)blk_stat_get(pi, LINK_PORT_STAT_RECEIVED);
    }
    g_assert_cmpuint(sent, ==, links);
    g_assert_cmpuint(received, ==, links);
}

static void run_unidirectional(void)
{
    run_links(false);
}

static void run_bidirectional(void)
{
    run_links(true);
}

static void in_subprocess(void (*fn)(void))
{
    if (g_test_subprocess()) {
        fn();
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
}

static void test_unidirectional(void)
{
    in_subprocess(run_unidirectional);
}

static void test_bidirectional(void)
{
    in_subprocess(run_bidirectional);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gpu/links/unidirectional", test_unidirectional);
    g_test_add_func("/gpu/links/bidirectional", test_bidirectional);
    return g_test_run();
}
