/* ring.h: FIFO order, growth while wrapped around, peek/at, clear, the restart of an emptied ring. */
#include "models/lib/ring.h"

#include <glib.h>
#include <stdint.h>

typedef struct {
    uint64_t seq;
    char pad[20]; /* an odd record size */
} rec;

static void test_fifo_growth(void)
{
    ring r;
    ring_init(&r, sizeof(rec));
    g_assert_true(ring_empty(&r));
    g_assert_null(ring_peek(&r));
    uint64_t in = 0, out = 0;
    /* push and pop at varying rates so the head wraps before every growth */
    for (unsigned round = 0; round < 200; round++) {
        unsigned pushes = 3 + round % 7, pops = round % 5;
        for (unsigned i = 0; i < pushes; i++) {
            rec x = {.seq = in++};
            if (i % 2)
                ring_push(&r, &x);
            else
                *(rec *)ring_push_slot(&r) = x;
        }
        g_assert_cmpuint(ring_len(&r), ==, in - out);
        for (unsigned i = 0; i < ring_len(&r); i++)
            g_assert_cmpuint(((rec *)ring_at(&r, i))->seq, ==, out + i);
        for (unsigned i = 0; i < pops && !ring_empty(&r); i++) {
            g_assert_cmpuint(((rec *)ring_peek(&r))->seq, ==, out);
            rec y;
            ring_pop(&r, i % 2 ? &y : NULL);
            if (i % 2)
                g_assert_cmpuint(y.seq, ==, out);
            out++;
        }
    }
    g_assert_cmpuint(r.cap & (r.cap - 1), ==, 0);
    while (!ring_empty(&r)) {
        rec y;
        ring_pop(&r, &y);
        g_assert_cmpuint(y.seq, ==, out++);
    }
    g_assert_cmpuint(out, ==, in);
    ring_clear(&r);
    g_assert_true(ring_empty(&r));
    rec z = {.seq = 42};
    ring_push(&r, &z); /* usable after clear */
    g_assert_cmpuint(((rec *)ring_peek(&r))->seq, ==, 42);
    ring_clear(&r);
}

/* A ring that empties starts again at its first record: pushes and pops in step stay on the same
 * record instead of walking the buffer (and the order is kept when it does not empty). */
static void test_restart_when_empty(void)
{
    ring r;
    ring_init(&r, sizeof(rec));
    for (uint64_t i = 0; i < 40; i++) {
        rec *x = ring_push_slot(&r);
        g_assert_true((unsigned char *)x == r.buf); /* the first record, every time */
        x->seq = i;
        rec y;
        ring_pop(&r, &y);
        g_assert_cmpuint(y.seq, ==, i);
        g_assert_cmpuint(r.head, ==, 0);
    }
    /* two pushed, one popped: the head moves on while the ring holds a record */
    ring_push(&r, &(rec){.seq = 1});
    ring_push(&r, &(rec){.seq = 2});
    ring_pop(&r, NULL);
    g_assert_cmpuint(r.head, ==, 1);
    g_assert_cmpuint(((rec *)ring_peek(&r))->seq, ==, 2);
    ring_pop(&r, NULL);
    g_assert_cmpuint(r.head, ==, 0);
    ring_clear(&r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ring/fifo-growth", test_fifo_growth);
    g_test_add_func("/ring/restart-when-empty", test_restart_when_empty);
    return g_test_run();
}
