/* test_link_port — the `link_port` block (models/sm/link_port.h), an SM's end of its SM-to-SM links,
 * alone in the harness, cycle by cycle: a client process calls its `send` export in a given cycle and
 * the message is on out_<k> for the links to get in the next cycle; can_send follows the room in
 * out_<k>; a message the links put on in_<k> in cycle t is handed to every listener bound to `recv`
 * (in binding order) in t+1, one per in FIFO per cycle; a message with no listener, and a send
 * without room, are model errors naming the block; the statistics; the arrays' sizes. */
#include <glib.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/sm/link_port.h"

static unsigned n_dirs = 2;

static void *make_lp(blk_ctx *c, gsc_module *p, const char *n)
{
    return link_port_new(c, p, n, n_dirs);
}

static link_msg_t msg(uint16_t src, uint32_t tag, uint32_t bytes)
{
    link_msg_t m;
    memset(&m, 0, sizeof m);
    m.src = src;
    m.dst = 9;
    m.kind = 3;
    m.tag = tag;
    m.bytes = bytes;
    m.data[0] = (uint8_t)tag;
    return m;
}

/* A client of the `send` export: in cycle `at` it sends `count` messages toward `dir` (while
 * can_send says yes), recording what can_send said. */
typedef struct {
    const link_send_if *m;
    void *self;
    uint64_t at;
    unsigned dir, count, sent, refused;
} client;

static void client_run(void *self)
{
    client *c = self;
    if (gsc_cycle() != c->at)
        return;
    for (unsigned i = 0; i < c->count; i++) {
        if (!c->m->can_send(c->self, c->dir)) {
            c->refused++;
            continue;
        }
        link_msg_t m = msg(0, 100 + i, 32 * (i + 1));
        c->m->send(c->self, c->dir, &m);
        c->sent++;
    }
}

static void client_attach(harness *h, client *c)
{
    blk_iref r = harness_export(h, "send");
    c->m = r.methods;
    c->self = r.self;
    gsc_module *mod = gsc_module_new(NULL, "client");
    gsc_process *p = gsc_process_new(mod, "run", client_run, c);
    gsc_sensitive_clock(p, blk_ctx_clock(harness_inst(h)->ctx));
}

/* A listener on `recv`: what it was told, with the cycle. */
#define MAX_GOT 16
typedef struct {
    unsigned n, id, order_mark;
    unsigned k[MAX_GOT];
    uint64_t cycle[MAX_GOT];
    link_msg_t m[MAX_GOT];
    unsigned *order; /* shared counter: the order listeners were called in */
    unsigned seq[MAX_GOT];
} listener;

static void listener_received(void *self, unsigned k, const link_msg_t *m)
{
    listener *l = self;
    g_assert_cmpuint(l->n, <, MAX_GOT);
    l->k[l->n] = k;
    l->cycle[l->n] = gsc_cycle();
    l->m[l->n] = *m;
    l->seq[l->n] = l->order ? (*l->order)++ : 0;
    l->n++;
}

static const link_recv_if listener_table = {listener_received};

/* send(1, m) in cycle 3 puts m on out_1 in cycle 3: the harness (the links' side) gets it in 4. */
static void test_send(void)
{
    harness *h = harness_new(&link_port_desc, make_lp, NULL, NULL);
    client c = {.at = 3, .dir = 1, .count = 1};
    client_attach(h, &c);
    listener l = {0};
    harness_stub(h, "recv", &listener_table, &l);
    harness_run(h, 8);
    g_assert_cmpuint(c.sent, ==, 1);
    link_msg_t got;
    uint64_t cyc;
    g_assert_true(harness_pop(h, "out_1", &got, &cyc));
    g_assert_cmpuint(cyc, ==, 4);
    g_assert_cmpuint(got.tag, ==, 100);
    g_assert_cmpuint(got.bytes, ==, 32);
    g_assert_cmpuint(got.kind, ==, 3);
    g_assert_cmpuint(got.data[0], ==, 100);
    g_assert_false(harness_pop(h, "out_0", &got, NULL));
    g_assert_false(harness_pop(h, "out_1", &got, NULL));
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(inst, LINK_PORT_STAT_SENT), ==, 1);
    g_assert_cmpuint(blk_stat_get(inst, LINK_PORT_STAT_SENT_BYTES), ==, 32);
    g_assert_cmpuint(blk_stat_get(inst, LINK_PORT_STAT_RECEIVED), ==, 0);
    harness_free(h);
}

/* The out FIFO (depth 2 in the harness: the links' send_depth in a GPU) not drained: two sends fit,
 * can_send then says no; once drained the two come out in order, in the cycle after the put. */
static void test_can_send(void)
{
    harness *h = harness_new(&link_port_desc, make_lp, NULL, NULL);
    harness_set_drain(h, "out_0", false);
    client c = {.at = 2, .dir = 0, .count = 4};
    client_attach(h, &c);
    listener l = {0};
    harness_stub(h, "recv", &listener_table, &l);
    harness_run(h, 5);
    g_assert_cmpuint(c.sent, ==, 2);
    g_assert_cmpuint(c.refused, ==, 2);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LINK_PORT_STAT_SENT), ==, 2);
    g_assert_cmpuint(blk_stat_get(harness_inst(h), LINK_PORT_STAT_SENT_BYTES), ==, 32 + 64);
    harness_set_drain(h, "out_0", true);
    uint64_t now = harness_step(h);
    link_msg_t got;
    uint64_t cyc;
    g_assert_true(harness_pop(h, "out_0", &got, &cyc));
    g_assert_cmpuint(got.tag, ==, 100);
    g_assert_cmpuint(cyc, ==, now);
    g_assert_true(harness_pop(h, "out_0", &got, &cyc));
    g_assert_cmpuint(got.tag, ==, 101);
    g_assert_false(harness_pop(h, "out_0", &got, NULL));
    harness_free(h);
}

/* Messages pushed on in_0 and in_1 (the harness puts them in cycle 1) reach the listener in cycle 2,
 * in_0's first; a second message on in_0 waits for cycle 3. Both listeners hear every message, the
 * first bound first. */
static void test_receive(void)
{
    harness *h = harness_new(&link_port_desc, make_lp, NULL, NULL);
    unsigned order = 0;
    listener a = {.order = &order}, b = {.order = &order};
    harness_stub(h, "recv", &listener_table, &a);
    harness_stub(h, "recv", &listener_table, &b);
    link_msg_t m1 = msg(4, 7, 40), m2 = msg(1, 8, 8), m3 = msg(4, 9, 1);
    harness_push(h, "in_1", &m2);
    harness_push(h, "in_0", &m1);
    harness_push(h, "in_0", &m3);
    uint64_t first = harness_step(h); /* the harness puts m1 and m2 (in_0 has room for m3 too) */
    harness_run(h, 4);
    g_assert_cmpuint(a.n, ==, 3);
    g_assert_cmpuint(b.n, ==, 3);
    g_assert_cmpuint(a.k[0], ==, 0);
    g_assert_cmpuint(a.m[0].tag, ==, 7);
    g_assert_cmpuint(a.m[0].src, ==, 4);
    g_assert_cmpuint(a.cycle[0], ==, first + 1);
    g_assert_cmpuint(a.k[1], ==, 1);
    g_assert_cmpuint(a.m[1].tag, ==, 8);
    g_assert_cmpuint(a.cycle[1], ==, first + 1);
    g_assert_cmpuint(a.k[2], ==, 0);
    g_assert_cmpuint(a.m[2].tag, ==, 9);
    g_assert_cmpuint(a.cycle[2], ==, first + 2);
    for (unsigned i = 0; i < 3; i++) {
        g_assert_cmpuint(b.cycle[i], ==, a.cycle[i]);
        g_assert_cmpuint(b.m[i].tag, ==, a.m[i].tag);
        g_assert_cmpuint(a.seq[i], <, b.seq[i]); /* binding order */
    }
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_stat_get(inst, LINK_PORT_STAT_RECEIVED), ==, 3);
    g_assert_cmpuint(blk_stat_get(inst, LINK_PORT_STAT_RECEIVED_BYTES), ==, 49);
    g_assert_cmpuint(blk_stat_get(inst, LINK_PORT_STAT_SENT), ==, 0);
    harness_free(h);
}

/* Four directions: the arrays have four elements each, and in_3 (traffic toward north, from the
 * south neighbour) is delivered with k = 3. */
static void test_four_dirs(void)
{
    n_dirs = 4;
    harness *h = harness_new(&link_port_desc, make_lp, NULL, NULL);
    blk_inst *inst = harness_inst(h);
    g_assert_cmpuint(blk_port_count(inst, LINK_PORT_OUT), ==, 4);
    g_assert_cmpuint(blk_port_count(inst, LINK_PORT_IN), ==, 4);
    g_assert_nonnull(blk_port_by_name(inst, "out_3"));
    g_assert_nonnull(blk_port_by_name(inst, "in_3"));
    listener l = {0};
    harness_stub(h, "recv", &listener_table, &l);
    link_msg_t m = msg(2, 5, 4);
    harness_push(h, "in_3", &m);
    uint64_t first = harness_step(h);
    harness_run(h, 2);
    g_assert_cmpuint(l.n, ==, 1);
    g_assert_cmpuint(l.k[0], ==, 3);
    g_assert_cmpuint(l.cycle[0], ==, first + 1);
    harness_free(h);
    n_dirs = 2;
}

/* A message with no listener bound ends the run, naming the block, the port and the sender. */
static void test_no_listener(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_link_port");
        harness *h = harness_new(&link_port_desc, make_lp, NULL, NULL);
        link_msg_t m = msg(6, 1, 4);
        harness_push(h, "in_1", &m);
        harness_run(h, 4);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(
        "*dut: a message (kind 3, tag 1, 4 bytes) from node 6 arrived on in_1 at cycle *"
        "nothing is bound to the block's `recv` import*");
}

/* A send without room is a model error. */
static void test_send_full(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_link_port");
        harness *h = harness_new(&link_port_desc, make_lp, NULL, NULL);
        harness_set_drain(h, "out_0", false);
        blk_iref r = harness_export(h, "send");
        const link_send_if *s = r.methods;
        harness_step(h);
        link_msg_t m = msg(0, 1, 4);
        for (unsigned i = 0; i < 3; i++)
            s->send(r.self, 0, &m);
        return;
    }
    g_test_trap_subprocess(NULL, 0, 0);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*dut: send on out_0 at cycle * without room (ask can_send first)*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/link_port/send", test_send);
    harness_test_add("/link_port/can_send", test_can_send);
    harness_test_add("/link_port/receive", test_receive);
    harness_test_add("/link_port/four_dirs", test_four_dirs);
    g_test_add_func("/link_port/no_listener", test_no_listener);
    g_test_add_func("/link_port/send_full", test_send_full);
    return g_test_run();
}
