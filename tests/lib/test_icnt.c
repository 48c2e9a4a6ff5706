/* Unit tests for models/lib/icnt: delivery cycles in closed form. */
#include "models/lib/icnt.h"

static const icnt_config cfg = {.ports = 4, .latency = 5, .flit_bytes = 32, .flits_per_cycle = 1};

static void test_packet_cycles(void)
{
    g_assert_cmpuint(icnt_packet_cycles(&cfg, 0), ==, 1);
    g_assert_cmpuint(icnt_packet_cycles(&cfg, 8), ==, 1);
    g_assert_cmpuint(icnt_packet_cycles(&cfg, 32), ==, 1);
    g_assert_cmpuint(icnt_packet_cycles(&cfg, 33), ==, 2);
    g_assert_cmpuint(icnt_packet_cycles(&cfg, 136), ==, 5); /* 128 B data + 8 B header */
    icnt_config two = cfg;
    two.flits_per_cycle = 2;
    g_assert_cmpuint(icnt_packet_cycles(&two, 136), ==, 3);
}

static void test_single_and_stream(void)
{
    icnt *n = icnt_new(&cfg);
    g_assert_cmpuint(icnt_send(n, 10, 0, 3, 8, 1), ==, 10 + 5 + 1);
    icnt_packet p;
    g_assert_false(icnt_pop(n, 3, 15, &p));
    g_assert_true(icnt_pop(n, 3, 16, &p));
    g_assert_cmpuint(p.payload, ==, 1);
    g_assert_cmpuint(p.src, ==, 0);
    icnt_free(n);

    /* N packets of S = 4 cycles sent at once from 1 to 2: delivered at L + (k+1) S */
    n = icnt_new(&cfg);
    for (unsigned k = 0; k < 5; k++)
        g_assert_cmpuint(icnt_send(n, 0, 1, 2, 128, k), ==, 5 + (k + 1) * 4);
    g_assert_cmpuint(icnt_in_flight(n), ==, 5);
    g_assert_cmpuint(icnt_next_delivery(n, 2), ==, 9);
    for (unsigned k = 0; k < 5; k++) {
        g_assert_true(icnt_pop(n, 2, 100, &p));
        g_assert_cmpuint(p.payload, ==, k);
        g_assert_cmpuint(p.delivered, ==, 5 + (k + 1) * 4);
    }
    g_assert_cmpuint(icnt_next_delivery(n, 2), ==, UINT64_MAX);
    icnt_free(n);
}

/* Two sources into one destination share its port; two destinations from one source share the source. */
static void test_port_sharing(void)
{
    icnt *n = icnt_new(&cfg);
    g_assert_cmpuint(icnt_send(n, 0, 0, 3, 128, 0), ==, 9);  /* inject 0..3, eject 5..8 */
    g_assert_cmpuint(icnt_send(n, 0, 1, 3, 128, 1), ==, 13); /* eject waits for the port: 9..12 */
    g_assert_cmpuint(icnt_send(n, 0, 2, 1, 128, 2), ==, 9);  /* other destination: unaffected */
    icnt_free(n);
    n = icnt_new(&cfg);
    g_assert_cmpuint(icnt_send(n, 0, 0, 1, 128, 0), ==, 9);
    g_assert_cmpuint(icnt_send(n, 0, 0, 2, 128, 1), ==, 13); /* injection after the first: 4..7 */
    icnt_free(n);
}

static void test_inject_depth(void)
{
    icnt_config c = cfg;
    c.inject_depth = 2;
    icnt *n = icnt_new(&c);
    icnt_send(n, 0, 0, 1, 128, 0); /* injecting 0..3 */
    icnt_send(n, 0, 0, 1, 128, 1); /* 4..7 */
    g_assert_false(icnt_can_send(n, 0, 0));
    g_assert_true(icnt_can_send(n, 1, 0));
    g_assert_false(icnt_can_send(n, 0, 3));
    g_assert_true(icnt_can_send(n, 0, 4)); /* the first finished injecting */
    g_assert_cmpuint(icnt_room_at(n, 0), ==, 4);
    g_assert_cmpuint(icnt_room_at(n, 1), ==, 0);
    /* source busy until 8: inject 8, eject max(8 + 5, 13) = 13, delivered 17 */
    g_assert_cmpuint(icnt_send(n, 4, 0, 1, 128, 2), ==, 17);
    /* kept: 4..7 and 8..11 (0..3 retired at the send): room once 4..7 has ended */
    g_assert_cmpuint(icnt_room_at(n, 0), ==, 8);
    g_assert_false(icnt_can_send(n, 0, 7));
    g_assert_true(icnt_can_send(n, 0, 8));
    icnt_free(n);
}

/* A depth that is not a power of two (3, kept in 4 slots): the room cycle is the end of the third
 * newest injection, across the wrap of the slots and after every injection has ended. Writes of 128 B
 * (S = 4) each sent at the room cycle: the k-th injects at 4k..4k+3, so after it the room is 4(k-1). */
static void test_inject_depth_wrap(void)
{
    icnt_config c = cfg;
    c.inject_depth = 3;
    icnt *n = icnt_new(&c);
    for (unsigned k = 0; k < 3; k++)
        icnt_send(n, 0, 0, 1, 128, k);
    g_assert_cmpuint(icnt_room_at(n, 0), ==, 4);
    for (unsigned k = 3; k < 12; k++) {
        uint64_t at = icnt_room_at(n, 0);
        g_assert_true(icnt_can_send(n, 0, at));
        g_assert_false(icnt_can_send(n, 0, at - 1));
        icnt_send(n, at, 0, 1, 128, k);
        g_assert_cmpuint(icnt_room_at(n, 0), ==, 4 * (k - 1));
    }
    /* long after: room now, and the packet takes latency + S */
    g_assert_true(icnt_can_send(n, 0, 1000));
    g_assert_cmpuint(icnt_send(n, 1000, 0, 2, 128, 12), ==, 1000 + 5 + 4);
    icnt_free(n);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/icnt/packet-cycles", test_packet_cycles);
    g_test_add_func("/icnt/single-and-stream", test_single_and_stream);
    g_test_add_func("/icnt/port-sharing", test_port_sharing);
    g_test_add_func("/icnt/inject-depth", test_inject_depth);
    g_test_add_func("/icnt/inject-depth-wrap", test_inject_depth_wrap);
    return g_test_run();
}
