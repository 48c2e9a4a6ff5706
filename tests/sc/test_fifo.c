/* FIFO semantics: an item put in cycle N can be got from N+1, a slot freed by a get in cycle N can
 * be refilled from N+1, back-pressure when the producer is faster than the consumer, occupancy,
 * and a put on a full FIFO is fatal. Independent of the order the processes were registered in. */
#include "sc/gsc.h"

#include <glib.h>
#include <stddef.h>
#include <string.h>

#include "tests/sc/sc_test.h"

typedef struct {
    uint64_t put_cycle;
    uint32_t seq;
} item;
static const gsc_field item_fields[] = {
    GSC_FIELD(item, put_cycle, GSC_U64, 0),
    GSC_FIELD(item, seq, GSC_U32, 0),
};
static const gsc_type item_type = GSC_TYPE(item, item_fields);

#define NCYC 40

typedef struct {
    gsc_fifo *f;
    unsigned consume_every; /* the consumer gets in cycles that are multiples of this */
    uint32_t next_seq, expect_seq;
    unsigned puts, gets, refused;
    uint64_t put_at[NCYC], got_at[NCYC];
    unsigned occ[NCYC];
    bool can_get_before_put[NCYC];
} sys;

static void producer(void *ctx)
{
    sys *s = ctx;
    uint64_t c = gsc_cycle();
    if (!gsc_fifo_can_put(s->f)) {
        s->refused++;
        return;
    }
    item it = {c, s->next_seq++};
    gsc_fifo_put(s->f, &it);
    s->put_at[s->puts++] = c;
    g_assert_true(gsc_fifo_occupancy(s->f) <= gsc_fifo_depth(s->f));
}

static void consumer(void *ctx)
{
    sys *s = ctx;
    uint64_t c = gsc_cycle();
    s->occ[c] = gsc_fifo_occupancy(s->f);
    if (c % s->consume_every != 0 || !gsc_fifo_can_get(s->f))
        return;
    const item *head = gsc_fifo_peek(s->f);
    g_assert_nonnull(head);
    uint32_t head_seq = head->seq;
    item it;
    gsc_fifo_get(s->f, &it);
    g_assert_cmpuint(it.seq, ==, head_seq);
    g_assert_cmpuint(it.seq, ==, s->expect_seq++);
    /* never in the cycle it was put */
    g_assert_cmpuint(it.put_cycle, <, c);
    s->got_at[s->gets++] = c;
}

static sys *build(bool producer_first, unsigned depth, unsigned consume_every)
{
    static sys s;
    s.consume_every = consume_every;
    gsc_init("test_fifo");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    s.f = gsc_fifo_new(top, "q", &item_type, depth);
    g_assert_cmpstr(gsc_fifo_name(s.f), ==, "tb.q");
    g_assert_cmpuint(gsc_fifo_depth(s.f), ==, depth);
    gsc_process *p, *q;
    if (producer_first) {
        p = gsc_process_new(top, "producer", producer, &s);
        q = gsc_process_new(top, "consumer", consumer, &s);
    } else {
        q = gsc_process_new(top, "consumer", consumer, &s);
        p = gsc_process_new(top, "producer", producer, &s);
    }
    gsc_sensitive_clock(p, clk);
    gsc_sensitive_clock(q, clk);
    return &s;
}

/* Depth 1, consumer always ready: put at 0, got at 1 (the slot is free again only at 2), put at 2,
 * got at 3, ... one item every two cycles whatever the order. */
static void check_depth1(bool producer_first)
{
    sys *s = build(producer_first, 1, 1);
    gsc_run_cycles(NCYC);
    g_assert_cmpuint(s->puts, ==, NCYC / 2);
    g_assert_cmpuint(s->gets, ==, NCYC / 2);
    for (unsigned i = 0; i < s->puts; i++) {
        g_assert_cmpuint(s->put_at[i], ==, 2 * i);
        g_assert_cmpuint(s->got_at[i], ==, 2 * i + 1);
    }
    g_assert_cmpuint(s->refused, ==, NCYC / 2);
}

static void test_depth1_pf(void)
{
    SC_TEST_IN_SUBPROCESS(check_depth1(true));
}

static void test_depth1_cf(void)
{
    SC_TEST_IN_SUBPROCESS(check_depth1(false));
}

/* Depth 3, consumer every 4th cycle: the producer fills the FIFO (puts at 0,1,2), is held back, and
 * then refills exactly one cycle after each get. */
static void check_backpressure(bool producer_first)
{
    sys *s = build(producer_first, 3, 4);
    gsc_run_cycles(NCYC);
    g_assert_cmpuint(s->put_at[0], ==, 0);
    g_assert_cmpuint(s->put_at[1], ==, 1);
    g_assert_cmpuint(s->put_at[2], ==, 2);
    /* gets at 4, 8, 12, ...; each frees a slot refilled in the next cycle */
    for (unsigned i = 0; i < s->gets; i++) {
        g_assert_cmpuint(s->got_at[i], ==, 4 * (i + 1));
        if (3 + i < s->puts)
            g_assert_cmpuint(s->put_at[3 + i], ==, s->got_at[i] + 1);
    }
    g_assert_cmpuint(s->gets, ==, (NCYC - 1) / 4);
    g_assert_cmpuint(s->puts, ==, 3 + s->gets);
    g_assert_cmpuint(s->refused, ==, NCYC - s->puts);
    /* occupancy as seen by the consumer at the start of its cycle (the producer may already have
     * put in the same cycle, so it is 2 or 3 after the first fill, never more than the depth) */
    g_assert_cmpuint(gsc_fifo_occupancy(s->f), ==, 3);
    for (unsigned c = 4; c < NCYC; c++)
        g_assert_cmpuint(s->occ[c], >=, 2);
    g_assert_false(gsc_fifo_can_put(s->f));
}

static void test_backpressure_pf(void)
{
    SC_TEST_IN_SUBPROCESS(check_backpressure(true));
}

static void test_backpressure_cf(void)
{
    SC_TEST_IN_SUBPROCESS(check_backpressure(false));
}

/* Between runs (a harness): empty/full, occupancy, peek; a put is gettable in the next cycle. */
static void test_harness(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &item_type, 2);
        g_assert_false(gsc_fifo_can_get(f));
        g_assert_null(gsc_fifo_peek(f));
        g_assert_true(gsc_fifo_can_put(f));
        item a = {0, 1}, b = {0, 2}, out;
        gsc_fifo_put(f, &a);
        gsc_fifo_put(f, &b);
        g_assert_false(gsc_fifo_can_put(f));
        g_assert_cmpuint(gsc_fifo_occupancy(f), ==, 2);
        gsc_run_cycles(1);
        g_assert_true(gsc_fifo_can_get(f));
        g_assert_cmpuint(((const item *)gsc_fifo_peek(f))->seq, ==, 1);
        gsc_fifo_get(f, &out);
        g_assert_cmpuint(out.seq, ==, 1);
        gsc_fifo_get(f, NULL);
        g_assert_cmpuint(gsc_fifo_occupancy(f), ==, 0);
        g_assert_false(gsc_fifo_can_get(f));
        /* the slots freed now are free for the next cycle */
        g_assert_false(gsc_fifo_can_put(f));
        gsc_run_cycles(1);
        g_assert_true(gsc_fifo_can_put(f));
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* An emptied ring starts again at its first slot (a FIFO holding an item or two at a time reuses the
 * same lines instead of walking its whole ring): the item put after the FIFO emptied sits where the
 * first item did, whatever the depth. Room is unchanged: a slot freed by a get counts from the next
 * cycle even when the emptied ring is refilled in the same cycle, and the items keep their order. */
static void test_ring_restart(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &item_type, 3);
        item a = {0, 1}, b = {0, 2}, c = {0, 3}, d = {0, 4}, out;
        gsc_fifo_put(f, &a);
        gsc_run_cycles(1);
        const void *first = gsc_fifo_peek(f);
        gsc_fifo_get(f, &out); /* empty: the next put goes to the first slot */
        g_assert_cmpuint(out.seq, ==, 1);
        g_assert_true(gsc_fifo_can_put(f));
        gsc_fifo_put(f, &b); /* in the cycle of the get */
        gsc_fifo_put(f, &c); /* 1 freed now + 2 stored: full for this cycle */
        g_assert_false(gsc_fifo_can_put(f));
        g_assert_cmpuint(gsc_fifo_room(f), ==, 0);
        gsc_run_cycles(1);
        g_assert_true(gsc_fifo_peek(f) == first);
        gsc_fifo_get(f, &out);
        g_assert_cmpuint(out.seq, ==, 2);
        gsc_fifo_put(f, &d); /* not empty: the ring goes on (c in slot 1, d in slot 2) */
        gsc_run_cycles(1);
        gsc_fifo_get(f, &out);
        g_assert_cmpuint(out.seq, ==, 3);
        g_assert_true(gsc_fifo_peek(f) != first);
        gsc_fifo_get(f, &out);
        g_assert_cmpuint(out.seq, ==, 4);
        g_assert_cmpuint(gsc_fifo_occupancy(f), ==, 0);
        gsc_run_cycles(1);
        gsc_fifo_put(f, &a); /* emptied in an earlier cycle: the first slot again */
        gsc_run_cycles(1);
        g_assert_true(gsc_fifo_peek(f) == first);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* gsc_type.used: a FIFO copies an item's used prefix only, at put and at get. A `short` item uses its
 * header, a `long` one its payload too; a getter's bytes past the prefix are left as they were. */
typedef struct {
    uint32_t kind; /* 0: short, 1: long */
    uint32_t seq;
    uint8_t payload[64];
} pkt;
static const gsc_field pkt_fields[] = {
    GSC_FIELD(pkt, kind, GSC_U32, 1),
    GSC_FIELD(pkt, seq, GSC_U32, 0),
    GSC_FIELD(pkt, payload, GSC_OPAQUE, 0),
};
static size_t pkt_used(const void *item)
{
    return ((const pkt *)item)->kind ? sizeof(pkt) : offsetof(pkt, payload);
}
static const gsc_type pkt_type = GSC_TYPE_USED(pkt, pkt_fields, pkt_used);

static void test_used_prefix(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &pkt_type, 4);
        pkt in_long = {1, 7, {0}}, in_short = {0, 8, {0}}, out;
        memset(in_long.payload, 0xab, sizeof in_long.payload);
        memset(in_short.payload, 0xcd, sizeof in_short.payload); /* not copied */
        gsc_fifo_put(f, &in_long);
        gsc_fifo_put(f, &in_short);
        gsc_run_cycles(1);
        memset(&out, 0x11, sizeof out);
        gsc_fifo_get(f, &out);
        g_assert_cmpuint(out.seq, ==, 7);
        for (unsigned i = 0; i < sizeof out.payload; i++)
            g_assert_cmpuint(out.payload[i], ==, 0xab);
        memset(&out, 0x11, sizeof out);
        gsc_fifo_get(f, &out);
        g_assert_cmpuint(out.kind, ==, 0);
        g_assert_cmpuint(out.seq, ==, 8);
        for (unsigned i = 0; i < sizeof out.payload; i++)
            g_assert_cmpuint(out.payload[i], ==, 0x11); /* the getter's own bytes */
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* The same rule as a table keyed by one byte of the item (gsc_type.used_by_key); a key beyond the
 * table copies the whole item. */
typedef struct {
    uint8_t kind; /* 0: short, 1: long, 2: beyond the table */
    uint8_t pad[3];
    uint32_t seq;
    uint8_t payload[64];
} kpkt;
static const gsc_field kpkt_fields[] = {
    GSC_FIELD(kpkt, kind, GSC_U8, 2),
    GSC_FIELD(kpkt, seq, GSC_U32, 0),
    GSC_FIELD(kpkt, payload, GSC_OPAQUE, 0),
};
static const size_t kpkt_used[] = {offsetof(kpkt, payload), sizeof(kpkt)};
static const gsc_type kpkt_type = GSC_TYPE_USED_BY_KEY(kpkt, kpkt_fields, kind, kpkt_used);

static void test_used_by_key(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &kpkt_type, 4);
        kpkt in[3] = {{.kind = 1, .seq = 7}, {.kind = 0, .seq = 8}, {.kind = 2, .seq = 9}}, out;
        memset(in[0].payload, 0xab, sizeof in[0].payload);
        memset(in[1].payload, 0xcd, sizeof in[1].payload); /* not copied */
        memset(in[2].payload, 0xef, sizeof in[2].payload);
        for (unsigned i = 0; i < 3; i++)
            gsc_fifo_put(f, &in[i]);
        gsc_run_cycles(1);
        static const uint8_t want[3] = {0xab, 0x11, 0xef};
        for (unsigned i = 0; i < 3; i++) {
            memset(&out, 0x11, sizeof out);
            gsc_fifo_get(f, &out);
            g_assert_cmpuint(out.kind, ==, in[i].kind);
            g_assert_cmpuint(out.seq, ==, in[i].seq);
            for (unsigned j = 0; j < sizeof out.payload; j++)
                g_assert_cmpuint(out.payload[j], ==, want[i]); /* 0x11: the getter's own bytes */
        }
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* A table entry larger than the item is refused when the FIFO is made. */
static const size_t kpkt_bad[] = {offsetof(kpkt, payload), sizeof(kpkt) + 1};
static const gsc_type kpkt_bad_type = GSC_TYPE_USED_BY_KEY(kpkt, kpkt_fields, kind, kpkt_bad);

static void test_used_by_key_bad(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo_new(NULL, "q", &kpkt_bad_type, 4);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*gpusc: fifo 'q': type 'kpkt': used_by_key[1] = 73 must hold the key and fit the "
                              "item (72 bytes)*");
}

static void overfill(void *ctx)
{
    gsc_fifo *f = ctx;
    item it = {gsc_cycle(), 0};
    gsc_fifo_put(f, &it); /* no can_put check: the second cycle overflows depth 1 */
}

static void test_put_on_full(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock *clk = gsc_clock_new("clk", 1000);
        gsc_module *top = gsc_module_new(NULL, "tb");
        gsc_fifo *f = gsc_fifo_new(top, "q", &item_type, 1);
        gsc_process *p = gsc_process_new(top, "p", overfill, f);
        gsc_sensitive_clock(p, clk);
        gsc_run_cycles(5);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*gpusc: fifo 'tb.q': put on a full FIFO at cycle 1*");
}

/* Every copy size a put and a get make (the used prefix of a 100-byte item, 1..100 bytes): the
 * prefix arrives whole, nothing past it is written, and nothing past it is read (the item given to
 * the put ends where its prefix does: the sanitizer tree sees a read beyond). gsc_fifo_take's slot
 * holds the same prefix. */
typedef struct {
    uint8_t used; /* the prefix length, 1..100 */
    uint8_t bytes[99];
} sized;
static const gsc_field sized_fields[] = {
    GSC_FIELD(sized, used, GSC_U8, 0),
    GSC_FIELD(sized, bytes, GSC_OPAQUE, 0),
};
static size_t sized_used(const void *item)
{
    return ((const sized *)item)->used;
}
static const gsc_type sized_type = GSC_TYPE_USED(sized, sized_fields, sized_used);

static void test_copy_sizes(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &sized_type, 2);
        for (unsigned n = 1; n <= sizeof(sized); n++) {
            uint8_t *in = g_malloc(n); /* exactly the prefix */
            in[0] = (uint8_t)n;
            for (unsigned i = 1; i < n; i++)
                in[i] = (uint8_t)(n * 7 + i);
            gsc_fifo_put(f, in);
            gsc_fifo_put(f, in);
            g_free(in);
            gsc_run_cycles(1);
            uint8_t out[sizeof(sized)];
            memset(out, 0xee, sizeof out);
            gsc_fifo_get(f, out);
            g_assert_cmpuint(out[0], ==, n);
            for (unsigned i = 1; i < n; i++)
                g_assert_cmpuint(out[i], ==, (uint8_t)(n * 7 + i));
            for (unsigned i = n; i < sizeof out; i++)
                g_assert_cmpuint(out[i], ==, 0xee);
            const uint8_t *slot = gsc_fifo_take(f);
            g_assert_true(memcmp(slot, out, n) == 0);
            gsc_run_cycles(1);
        }
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* Items of 64 KB or more (with no used prefix) are copied whole: a FIFO looks their size up in the
 * type instead of keeping it beside the ring's state. */
typedef struct {
    uint32_t tag;
    uint8_t bytes[70000];
} big;
static const gsc_field big_fields[] = {GSC_FIELD(big, tag, GSC_U32, 0)};
static const gsc_type big_type = GSC_TYPE(big, big_fields);

static void fill_big(big *b, uint32_t tag)
{
    b->tag = tag;
    for (size_t i = 0; i < sizeof b->bytes; i++)
        b->bytes[i] = (uint8_t)(tag * 31 + i * 7 + (i >> 9));
}

static void test_large_items(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &big_type, 2);
        big *in = g_new(big, 1), *want = g_new(big, 1), *out = g_new(big, 1);
        for (uint32_t tag = 1; tag <= 2; tag++) {
            fill_big(in, tag);
            gsc_fifo_put(f, in);
        }
        memset(in, 0, sizeof *in); /* the FIFO holds copies */
        gsc_run_cycles(1);
        fill_big(want, 1);
        memset(out, 0xee, sizeof *out);
        gsc_fifo_get(f, out);
        g_assert_true(memcmp(out, want, sizeof *out) == 0);
        fill_big(want, 2);
        g_assert_true(memcmp(gsc_fifo_take(f), want, sizeof *want) == 0);
        g_free(in);
        g_free(want);
        g_free(out);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* gsc_fifo_take: a get that answers the head's slot instead of copying it out; the FIFO moves on as
 * after gsc_fifo_get (occupancy, the freed slot counted from the next cycle, the get listeners woken
 * in the next cycle), and the slot keeps the item until the next put. On an empty FIFO: fatal. */
typedef struct {
    gsc_fifo *f;
    unsigned woken;
} take_sys;

static void take_listener(void *ctx)
{
    take_sys *t = ctx;
    t->woken++;
}

/* A system of one FIFO tb.q of `depth` items and a process that counts its wake-ups by the FIFO's
 * puts (on_put) or gets. */
static gsc_fifo *listened_fifo(take_sys *t, unsigned depth, bool on_put)
{
    gsc_init("test_fifo");
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    t->f = gsc_fifo_new(top, "q", &item_type, depth);
    gsc_process *p = gsc_process_new(top, "listener", take_listener, t);
    if (on_put)
        gsc_sensitive_fifo_put(p, t->f);
    else
        gsc_sensitive_fifo_get(p, t->f);
    return t->f;
}

static void test_take(void)
{
    if (g_test_subprocess()) {
        static take_sys t;
        gsc_fifo *f = listened_fifo(&t, 2, false);
        item a = {0, 1}, b = {0, 2}, c = {0, 3};
        gsc_fifo_put(f, &a);
        gsc_fifo_put(f, &b);
        gsc_run_cycles(1);
        g_assert_cmpuint(t.woken, ==, 0);
        const item *head = gsc_fifo_peek(f);
        const item *got = gsc_fifo_take(f);
        g_assert_true(got == head);
        g_assert_cmpuint(got->seq, ==, 1);
        g_assert_cmpuint(gsc_fifo_occupancy(f), ==, 1);
        g_assert_false(gsc_fifo_can_put(f)); /* the slot is free from the next cycle */
        g_assert_cmpuint(((const item *)gsc_fifo_peek(f))->seq, ==, 2);
        gsc_run_cycles(1);
        g_assert_cmpuint(t.woken, ==, 1);
        g_assert_cmpuint(got->seq, ==, 1); /* no put since */
        got = gsc_fifo_take(f);
        g_assert_cmpuint(got->seq, ==, 2);
        g_assert_cmpuint(gsc_fifo_occupancy(f), ==, 0);
        g_assert_false(gsc_fifo_can_get(f));
        gsc_run_cycles(1);
        g_assert_cmpuint(t.woken, ==, 2);
        gsc_fifo_put(f, &c);
        gsc_run_cycles(1);
        g_assert_cmpuint(((const item *)gsc_fifo_take(f))->seq, ==, 3);
        gsc_fifo_take(f); /* empty */
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*gpusc: fifo 'tb.q': get on an empty FIFO at cycle 4*");
}

/* gsc_fifo_put_slot / gsc_fifo_put_commit: an item written in the slot is put as gsc_fifo_put puts it
 * (in order with ordinary puts, the put listeners woken in the next cycle), and the slot is the one the next put fills, across the ring's wrap and its restart at
 * slot 0 once emptied. */
static void put_by_slot(gsc_fifo *f, uint32_t seq)
{
    item *slot = gsc_fifo_put_slot(f);
    g_assert_nonnull(slot);
    slot->put_cycle = gsc_cycle();
    slot->seq = seq;
    gsc_fifo_put_commit(f);
}

static void test_put_slot(void)
{
    if (g_test_subprocess()) {
        static take_sys t;
        gsc_fifo *f = listened_fifo(&t, 3, true);
        uint32_t seq = 1, want = 1;
        for (unsigned round = 0; round < 7; round++) {
            /* one, two or three items, alternately by slot and by put, then all of them got */
            unsigned n = 1 + round % 3;
            for (unsigned i = 0; i < n; i++) {
                if ((round + i) % 2) {
                    put_by_slot(f, seq++);
                } else {
                    item it = {gsc_cycle(), seq++};
                    gsc_fifo_put(f, &it);
                }
            }
            g_assert_cmpuint(gsc_fifo_occupancy(f), ==, n);
            unsigned woken = t.woken;
            gsc_run_cycles(1);
            g_assert_cmpuint(t.woken, ==, woken + 1);
            for (unsigned i = 0; i < n; i++) {
                g_assert_true(gsc_fifo_can_get(f));
                item it;
                gsc_fifo_get(f, &it);
                g_assert_cmpuint(it.seq, ==, want++);
            }
            g_assert_false(gsc_fifo_can_get(f));
            gsc_run_cycles(1);
            /* a ring left part full: the next round's slot follows its last item */
            if (round == 3) {
                put_by_slot(f, seq++);
                put_by_slot(f, seq++);
                gsc_run_cycles(1);
                item it;
                gsc_fifo_get(f, &it);
                g_assert_cmpuint(it.seq, ==, want++);
                gsc_run_cycles(1);
                put_by_slot(f, seq++);
                gsc_run_cycles(1);
                for (unsigned i = 0; i < 2; i++) {
                    gsc_fifo_get(f, &it);
                    g_assert_cmpuint(it.seq, ==, want++);
                }
                gsc_run_cycles(1);
            }
        }
        g_assert_cmpuint(want, ==, seq);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* A commit without its slot: none handed out, or a put in between (which filled that slot). */
static void test_put_slot_bad(void)
{
    for (unsigned c = 0; c < 3; c++) {
        if (g_test_subprocess()) {
            gsc_init("test_fifo");
            gsc_clock_new("clk", 1000);
            gsc_module *top = gsc_module_new(NULL, "tb");
            gsc_fifo *f = gsc_fifo_new(top, "q", &item_type, 2);
            item it = {0, 1};
            gsc_run_cycles(1); /* what is done now counts as done in cycle 0 */
            const char *which = g_getenv("PUT_SLOT_CASE");
            if (!strcmp(which, "0")) {
                gsc_fifo_put_commit(f);
            } else if (!strcmp(which, "1")) {
                gsc_fifo_put_slot(f);
                gsc_fifo_put(f, &it);
                gsc_fifo_put_commit(f);
            } else {
                gsc_fifo_put(f, &it);
                gsc_fifo_put(f, &it);
                gsc_fifo_put_slot(f); /* full */
            }
            return;
        }
        char v[2] = {(char)('0' + c), 0};
        g_setenv("PUT_SLOT_CASE", v, TRUE);
        g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
        g_test_trap_assert_failed();
        if (c < 2)
            g_test_trap_assert_stderr("*gpusc: fifo 'tb.q': gsc_fifo_put_commit at cycle 0 without the slot of a "
                                      "gsc_fifo_put_slot*");
        else
            g_test_trap_assert_stderr("*gpusc: fifo 'tb.q': put on a full FIFO at cycle 0*");
    }
}

static void test_get_on_empty(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_fifo");
        gsc_clock_new("clk", 1000);
        gsc_fifo *f = gsc_fifo_new(NULL, "q", &item_type, 1);
        gsc_fifo_get(f, NULL);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*gpusc: fifo 'q': get on an empty FIFO*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/fifo/depth1/producer-first", test_depth1_pf);
    g_test_add_func("/sc/fifo/depth1/consumer-first", test_depth1_cf);
    g_test_add_func("/sc/fifo/backpressure/producer-first", test_backpressure_pf);
    g_test_add_func("/sc/fifo/backpressure/consumer-first", test_backpressure_cf);
    g_test_add_func("/sc/fifo/harness", test_harness);
    g_test_add_func("/sc/fifo/ring-restart", test_ring_restart);
    g_test_add_func("/sc/fifo/used-prefix", test_used_prefix);
    g_test_add_func("/sc/fifo/used-by-key", test_used_by_key);
    g_test_add_func("/sc/fifo/used-by-key-bad", test_used_by_key_bad);
    g_test_add_func("/sc/fifo/put-on-full", test_put_on_full);
    g_test_add_func("/sc/fifo/get-on-empty", test_get_on_empty);
    g_test_add_func("/sc/fifo/copy-sizes", test_copy_sizes);
    g_test_add_func("/sc/fifo/large-items", test_large_items);
    g_test_add_func("/sc/fifo/take", test_take);
    g_test_add_func("/sc/fifo/put-slot", test_put_slot);
    g_test_add_func("/sc/fifo/put-slot-bad", test_put_slot_bad);
    return g_test_run();
}
