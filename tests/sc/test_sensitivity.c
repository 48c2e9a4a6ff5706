/* Sensitivity: clocked processes, dynamic sensitivity (n cycles, an event), event delays and
 * cancellation, latch and FIFO sensitivity, the cost of an idle process, gsc_stop and starvation.
 * Every system runs in its own subprocess. */
#include "sc/gsc.h"

#include <glib.h>

#include "tests/sc/sc_test.h"

#define MAXLOG 64

typedef struct {
    uint64_t at[MAXLOG];
    unsigned n;
} log_t;

static void log_cycle(log_t *l)
{
    g_assert_cmpuint(l->n, <, MAXLOG);
    l->at[l->n++] = gsc_cycle();
}

static void assert_log(const log_t *l, const uint64_t *want, unsigned n)
{
    for (unsigned i = 0; i < n && i < l->n; i++)
        g_assert_cmpuint(l->at[i], ==, want[i]);
    g_assert_cmpuint(l->n, ==, n);
}

/* ---- next_trigger_cycles: wakes exactly n cycles later, numbered as the clocked processes are */

static log_t sleeper_log, clocked_log;
static uint64_t clocked_seen_sleeper_at[MAXLOG];

static void sleeper(void *ctx)
{
    (void)ctx;
    log_cycle(&sleeper_log);
    if (sleeper_log.n < 4)
        gsc_next_trigger_cycles(5);
    else
        gsc_next_trigger_cycles(1000); /* beyond the run */
}

static void clocked(void *ctx)
{
    (void)ctx;
    clocked_seen_sleeper_at[clocked_log.n] = sleeper_log.n;
    log_cycle(&clocked_log);
}

static void body_next_trigger_cycles(void)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    gsc_process *s = gsc_process_new(top, "sleeper", sleeper, NULL);
    gsc_process_initialize(s);
    gsc_process *c = gsc_process_new(top, "clocked", clocked, NULL);
    gsc_sensitive_clock(c, clk);
    g_assert_cmpuint(gsc_cycle(), ==, 0);
    gsc_run_cycles(20);
    static const uint64_t want[] = {0, 5, 10, 15};
    assert_log(&sleeper_log, want, 4);
    g_assert_cmpuint(clocked_log.n, ==, 20);
    for (unsigned i = 0; i < 20; i++)
        g_assert_cmpuint(clocked_log.at[i], ==, i);
    /* 20 clocked + 4 sleeper activations */
    g_assert_cmpuint(gsc_activations(), ==, 24);
}

static void test_next_trigger_cycles(void)
{
    SC_TEST_IN_SUBPROCESS(body_next_trigger_cycles());
}

/* ---- events: delay, delta notification, cancel, sleeping on an event */

static gsc_event *ev, *ev2;
static log_t ev_log, waiter_log, either_log;

static void driver(void *ctx)
{
    (void)ctx;
    switch (gsc_cycle()) {
    case 3:
        gsc_event_notify(ev, 4);
        break; /* fires at 7 */
    case 9:
        gsc_event_notify(ev, 0);
        break; /* fires in this cycle */
    case 12:
        gsc_event_notify(ev, 5);
        break;
    case 13:
        gsc_event_cancel(ev);
        break; /* nothing at 17 */
    case 20:
        gsc_event_notify(ev, 3); /* 23 */
        gsc_event_notify(ev, 1); /* the earlier one wins: 21 */
        break;
    case 30:
        gsc_event_notify(ev2, 2);
        break; /* 32 */
    default:
        break;
    }
}

static void on_event(void *ctx)
{
    (void)ctx;
    log_cycle(&ev_log);
}

/* initialised at 0, then sleeps on ev2 (dynamic); after waking, on ev2 or 6 cycles */
static void waiter(void *ctx)
{
    (void)ctx;
    log_cycle(&waiter_log);
    gsc_next_trigger_event(ev2);
}

static void either(void *ctx)
{
    (void)ctx;
    log_cycle(&either_log);
    gsc_next_trigger_event_or_cycles(ev2, 25);
}

static void body_events(void)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    ev = gsc_event_new(top, "ev");
    ev2 = gsc_event_new(top, "ev2");
    gsc_process *d = gsc_process_new(top, "driver", driver, NULL);
    gsc_sensitive_clock(d, clk);
    gsc_process *o = gsc_process_new(top, "on_event", on_event, NULL);
    gsc_sensitive_event(o, ev);
    gsc_process *w = gsc_process_new(top, "waiter", waiter, NULL);
    gsc_process_initialize(w);
    gsc_process *e = gsc_process_new(top, "either", either, NULL);
    gsc_process_initialize(e);
    gsc_run_cycles(40);
    static const uint64_t want_ev[] = {7, 9, 21};
    assert_log(&ev_log, want_ev, 3);
    static const uint64_t want_waiter[] = {0, 32};
    assert_log(&waiter_log, want_waiter, 2);
    static const uint64_t want_either[] = {0, 25, 32};
    assert_log(&either_log, want_either, 3);
}

static void test_events(void)
{
    SC_TEST_IN_SUBPROCESS(body_events());
}

/* ---- an idle process asleep on an event costs no activation */

static log_t idle_log;
static unsigned ticks;

static void tick(void *ctx)
{
    (void)ctx;
    ticks++;
}

static void idle(void *ctx)
{
    (void)ctx;
    log_cycle(&idle_log);
    gsc_next_trigger_event(ev);
}

static void body_idle(void)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    ev = gsc_event_new(NULL, "never");
    gsc_process *p = gsc_process_new(NULL, "idle", idle, NULL);
    gsc_process_initialize(p);
    gsc_process *c = gsc_process_new(NULL, "tick", tick, NULL);
    gsc_sensitive_clock(c, clk);
    gsc_run_cycles(1000);
    g_assert_cmpuint(ticks, ==, 1000);
    g_assert_cmpuint(idle_log.n, ==, 1);
    g_assert_cmpuint(gsc_activations(), ==, 1 + 1000);
}

static void test_idle(void)
{
    SC_TEST_IN_SUBPROCESS(body_idle());
}

/* ---- latch and FIFO sensitivity: the reader runs in the cycle after the write / put / get */

typedef struct {
    uint32_t v;
} word;
static const gsc_field word_fields[] = {GSC_FIELD(word, v, GSC_U32, 0)};
static const gsc_type word_type = GSC_TYPE(word, word_fields);

static gsc_latch *lat;
static gsc_fifo *fifo;
static log_t latch_log, put_log, get_log;
static uint32_t latch_seen[MAXLOG];

static void chan_driver(void *ctx)
{
    (void)ctx;
    word w;
    switch (gsc_cycle()) {
    case 2:
        w.v = 1;
        gsc_latch_write(lat, &w);
        break; /* reader at 3 */
    case 5:
        w.v = 1;
        gsc_latch_write(lat, &w);
        break; /* same value: no wake-up */
    case 8:
        w.v = 2;
        gsc_latch_write(lat, &w);
        w.v = 3;
        gsc_latch_write(lat, &w);
        break; /* at 9 */
    case 11:
        w.v = 4;
        gsc_fifo_put(fifo, &w);
        break; /* put reader at 12 */
    case 14:
        gsc_fifo_get(fifo, NULL);
        break; /* get reader at 15 */
    default:
        break;
    }
}

static void latch_reader(void *ctx)
{
    (void)ctx;
    latch_seen[latch_log.n] = ((const word *)gsc_latch_read(lat))->v;
    g_assert_true(gsc_latch_fresh(lat));
    log_cycle(&latch_log);
}

static void put_reader(void *ctx)
{
    (void)ctx;
    g_assert_true(gsc_fifo_can_get(fifo));
    log_cycle(&put_log);
}

static void get_reader(void *ctx)
{
    (void)ctx;
    log_cycle(&get_log);
}

static void body_channels(bool driver_first)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    lat = gsc_latch_new(top, "lat", &word_type);
    fifo = gsc_fifo_new(top, "fifo", &word_type, 2);
    gsc_process *d = NULL;
    if (driver_first)
        d = gsc_process_new(top, "driver", chan_driver, NULL);
    gsc_process *lr = gsc_process_new(top, "latch_reader", latch_reader, NULL);
    gsc_sensitive_latch(lr, lat);
    gsc_process *pr = gsc_process_new(top, "put_reader", put_reader, NULL);
    gsc_sensitive_fifo_put(pr, fifo);
    gsc_process *gr = gsc_process_new(top, "get_reader", get_reader, NULL);
    gsc_sensitive_fifo_get(gr, fifo);
    if (!driver_first)
        d = gsc_process_new(top, "driver", chan_driver, NULL);
    gsc_sensitive_clock(d, clk);
    gsc_run_cycles(20);
    static const uint64_t want_latch[] = {3, 9};
    assert_log(&latch_log, want_latch, 2);
    g_assert_cmpuint(latch_seen[0], ==, 1);
    g_assert_cmpuint(latch_seen[1], ==, 3);
    static const uint64_t want_put[] = {12};
    assert_log(&put_log, want_put, 1);
    static const uint64_t want_get[] = {15};
    assert_log(&get_log, want_get, 1);
}

static void test_channels_driver_first(void)
{
    SC_TEST_IN_SUBPROCESS(body_channels(true));
}

static void test_channels_driver_last(void)
{
    SC_TEST_IN_SUBPROCESS(body_channels(false));
}

/* ---- several listeners of one FIFO: a channel keeps its first listener in itself and the others in
 * a list; a put wakes all three put listeners (one of them registered twice), a get both get
 * listeners, each exactly in the cycle after. The driver puts at 2 and gets at 5. */

static gsc_fifo *sev_fifo;
static log_t sev_log[5];

static void sev_driver(void *ctx)
{
    (void)ctx;
    word w = {.v = 7};
    if (gsc_cycle() == 2)
        gsc_fifo_put(sev_fifo, &w);
    if (gsc_cycle() == 5)
        gsc_fifo_get(sev_fifo, NULL);
}

static void sev_listener(void *ctx)
{
    log_cycle(&sev_log[GPOINTER_TO_UINT(ctx)]);
}

static void body_several_listeners(void)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    sev_fifo = gsc_fifo_new(top, "fifo", &word_type, 2);
    gsc_process *d = gsc_process_new(top, "driver", sev_driver, NULL);
    gsc_sensitive_clock(d, clk);
    static const char *names[] = {"put0", "put1", "put2", "get0", "get1"};
    for (unsigned i = 0; i < 5; i++) {
        gsc_process *p = gsc_process_new(top, names[i], sev_listener, GUINT_TO_POINTER(i));
        if (i < 3)
            gsc_sensitive_fifo_put(p, sev_fifo);
        else
            gsc_sensitive_fifo_get(p, sev_fifo);
        if (i == 1)
            gsc_sensitive_fifo_put(p, sev_fifo); /* twice: still one wake-up */
    }
    gsc_run_cycles(10);
    static const uint64_t want_put[] = {3}, want_get[] = {6};
    for (unsigned i = 0; i < 5; i++)
        assert_log(&sev_log[i], i < 3 ? want_put : want_get, 1);
    g_assert_cmpuint(gsc_activations(), ==, 10 + 5);
}

static void test_several_listeners(void)
{
    SC_TEST_IN_SUBPROCESS(body_several_listeners());
}

/* ---- a wake-up after the listener's own activation in the same cycle: the listener L of a FIFO's puts
 * is also woken by an event; in cycle 3 the driver (clocked) notifies that event for later in the
 * cycle, L runs, and then a second driver, woken by L, puts. With `put_before`, the first driver has
 * put before L ran as well (its wake-up is still pending when L runs). Either way L runs again in
 * cycle 4, once. */

static gsc_fifo *wa_fifo;
static gsc_event *wa_poke, *wa_go;
static bool wa_put_before;
static log_t wa_log;

static void wa_driver(void *ctx)
{
    (void)ctx;
    word w = {.v = 1};
    if (gsc_cycle() != 3)
        return;
    if (wa_put_before)
        gsc_fifo_put(wa_fifo, &w);
    gsc_event_notify(wa_poke, 0);
}

static void wa_listener(void *ctx)
{
    (void)ctx;
    log_cycle(&wa_log);
    if (gsc_cycle() == 3)
        gsc_event_notify(wa_go, 0);
}

static void wa_late_putter(void *ctx)
{
    (void)ctx;
    word w = {.v = 2};
    gsc_fifo_put(wa_fifo, &w);
}

static void body_wake_after_activation(bool put_before)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    wa_fifo = gsc_fifo_new(top, "fifo", &word_type, 4);
    wa_poke = gsc_event_new(top, "poke");
    wa_go = gsc_event_new(top, "go");
    wa_put_before = put_before;
    gsc_process *d = gsc_process_new(top, "driver", wa_driver, NULL);
    gsc_sensitive_clock(d, clk);
    gsc_process *l = gsc_process_new(top, "listener", wa_listener, NULL);
    gsc_sensitive_fifo_put(l, wa_fifo);
    gsc_sensitive_event(l, wa_poke);
    gsc_process *p = gsc_process_new(top, "late", wa_late_putter, NULL);
    gsc_sensitive_event(p, wa_go);
    gsc_run_cycles(8);
    static const uint64_t want[] = {3, 4};
    assert_log(&wa_log, want, 2);
    g_assert_cmpuint(gsc_fifo_occupancy(wa_fifo), ==, put_before ? 2 : 1);
}

static void test_wake_after_activation(void)
{
    SC_TEST_IN_SUBPROCESS(body_wake_after_activation(false));
}

static void test_wake_after_activation_put_before(void)
{
    SC_TEST_IN_SUBPROCESS(body_wake_after_activation(true));
}

/* ---- room sensitivity: a producer runs when room appears after a refused can_put, not at every
 * get. FIFO of depth 1; the producer puts while it wants to and can (3 items from cycle 0, one more
 * asked for at 11 with a kick for 12); the consumer gets at 4, 6, 12 and 16. */

static gsc_fifo *rfifo;
static gsc_event *kick;
static unsigned want;
static log_t room_log;

static void room_producer(void *ctx)
{
    (void)ctx;
    log_cycle(&room_log);
    word w = {.v = (uint32_t)gsc_cycle()};
    while (want && gsc_fifo_can_put(rfifo)) {
        gsc_fifo_put(rfifo, &w);
        want--;
    }
}

static void room_consumer(void *ctx)
{
    (void)ctx;
    switch (gsc_cycle()) {
    case 4:  /* A (put at 0; the producer was refused then): room at 5 */
    case 6:  /* B (put at 5, refused again): room at 7, where C is put without a refusal */
    case 16: /* D (put at 13 without a refusal): nobody waits for this room */
        g_assert_true(gsc_fifo_can_get(rfifo));
        gsc_fifo_get(rfifo, NULL);
        break;
    case 11:
        want++;
        gsc_event_notify(kick, 1);
        break;
    case 12: /* C; the kicked producer is refused in this cycle, before or after this get: room at 13 */
        gsc_fifo_get(rfifo, NULL);
        break;
    default:
        break;
    }
}

static void body_room(bool consumer_first)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    rfifo = gsc_fifo_new(top, "fifo", &word_type, 1);
    kick = gsc_event_new(top, "kick");
    want = 3;
    gsc_process *c = NULL;
    if (consumer_first)
        c = gsc_process_new(top, "consumer", room_consumer, NULL);
    gsc_process *p = gsc_process_new(top, "producer", room_producer, NULL);
    gsc_process_initialize(p);
    gsc_sensitive_fifo_room(p, rfifo);
    gsc_sensitive_event(p, kick);
    if (!consumer_first)
        c = gsc_process_new(top, "consumer", room_consumer, NULL);
    gsc_sensitive_clock(c, clk);
    gsc_run_cycles(25);
    static const uint64_t want_room[] = {0, 5, 7, 12, 13};
    assert_log(&room_log, want_room, 5);
    g_assert_cmpuint(want, ==, 0);
    g_assert_cmpuint(gsc_fifo_occupancy(rfifo), ==, 0);
}

static void test_room_consumer_first(void)
{
    SC_TEST_IN_SUBPROCESS(body_room(true));
}

static void test_room_consumer_last(void)
{
    SC_TEST_IN_SUBPROCESS(body_room(false));
}

/* ---- gsc_run_within: the latest cycle, with the static sensitivity kept; cycles whose only wake-up
 * is one process's are served without the ticker (gsc_calendar.direct), which must not change when
 * anything runs. A sleeps 10 cycles at a time and also listens to a FIFO; B wakes at 25, puts into
 * the FIFO (A runs at 26 instead of 30, and its wake-up for 30 is void: A does not run at 30) and
 * sleeps until 30. */

static gsc_fifo *wfifo;
static log_t within_a, within_b;

static void within_a_fn(void *ctx)
{
    (void)ctx;
    log_cycle(&within_a);
    while (gsc_fifo_can_get(wfifo))
        gsc_fifo_get(wfifo, NULL);
    if (gsc_cycle() < 60)
        gsc_run_within(10);
}

static void within_b_fn(void *ctx)
{
    (void)ctx;
    log_cycle(&within_b);
    word w = {.v = 1};
    if (gsc_cycle() == 0) {
        gsc_run_within(25);
    } else if (gsc_cycle() == 25) {
        gsc_fifo_put(wfifo, &w);
        gsc_run_within(5);
    }
}

static void body_run_within(void)
{
    gsc_init("test_sensitivity");
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    wfifo = gsc_fifo_new(top, "fifo", &word_type, 2);
    gsc_process *a = gsc_process_new(top, "a", within_a_fn, NULL);
    gsc_process_initialize(a);
    gsc_sensitive_fifo_put(a, wfifo);
    gsc_process *b = gsc_process_new(top, "b", within_b_fn, NULL);
    gsc_process_initialize(b);
    g_assert_cmpuint(gsc_run(0), ==, 67); /* nothing is scheduled after A's run at 66 */
    static const uint64_t want_a[] = {0, 10, 20, 26, 36, 46, 56, 66};
    assert_log(&within_a, want_a, G_N_ELEMENTS(want_a));
    static const uint64_t want_b[] = {0, 25, 30};
    assert_log(&within_b, want_b, G_N_ELEMENTS(want_b));
    g_assert_cmpuint(gsc_activations(), ==, G_N_ELEMENTS(want_a) + G_N_ELEMENTS(want_b));
}

static void test_run_within(void)
{
    SC_TEST_IN_SUBPROCESS(body_run_within());
}

/* ---- arrival hooks: the consumer's hook takes each item at the start of the cycle it becomes
 * gettable, without a process activation, and its gets wake get-listeners as a process's would.
 * FIFO of depth 1. P (get-sensitive, and put-sensitive on a second FIFO) puts A at 0; the hook
 * gets A at 1, so P runs at 2, puts B and then pokes itself through its second FIFO: P is due at
 * 3, the cycle the hook gets B, with the hook's calendar entry first. The hook's wake-up of P for 4
 * must not be taken for the one still pending at 3 (P is refused at 3, the slot freed then): P puts
 * C at 4, which the hook gets at 5. */

static gsc_fifo *hfifo, *pfifo;
static log_t hook_log, hp_log;
static unsigned hp_items;

static void hook_fn(void *ctx)
{
    g_assert_true(ctx == &hook_log);
    log_cycle(&hook_log);
    g_assert_true(gsc_fifo_can_get(hfifo));
    gsc_fifo_get(hfifo, NULL);
    g_assert_false(gsc_fifo_can_get(hfifo));
}

static void hook_producer(void *ctx)
{
    (void)ctx;
    log_cycle(&hp_log);
    while (gsc_fifo_can_get(pfifo))
        gsc_fifo_get(pfifo, NULL);
    word w = {.v = hp_items};
    if (hp_items < 3 && gsc_fifo_can_put(hfifo)) {
        gsc_fifo_put(hfifo, &w);
        hp_items++;
    }
    if (gsc_cycle() == 2)
        gsc_fifo_put(pfifo, &w);
}

static void body_arrival_hook(void)
{
    gsc_init("test_sensitivity");
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    hfifo = gsc_fifo_new(top, "hfifo", &word_type, 1);
    pfifo = gsc_fifo_new(top, "pfifo", &word_type, 2);
    gsc_fifo_on_arrival(hfifo, hook_fn, &hook_log);
    gsc_process *p = gsc_process_new(top, "producer", hook_producer, NULL);
    gsc_process_initialize(p);
    gsc_sensitive_fifo_get(p, hfifo);
    gsc_sensitive_fifo_put(p, pfifo);
    gsc_run_cycles(20);
    static const uint64_t want_hook[] = {1, 3, 5}, want_p[] = {0, 2, 3, 4, 6};
    assert_log(&hook_log, want_hook, G_N_ELEMENTS(want_hook));
    assert_log(&hp_log, want_p, G_N_ELEMENTS(want_p));
    g_assert_cmpuint(hp_items, ==, 3);
    g_assert_cmpuint(gsc_fifo_occupancy(hfifo), ==, 0);
    /* the hook's three runs are no activations */
    g_assert_cmpuint(gsc_activations(), ==, G_N_ELEMENTS(want_p));
}

static void test_arrival_hook(void)
{
    SC_TEST_IN_SUBPROCESS(body_arrival_hook());
}

/* ---- several FIFOs' arrival hooks in one cycle: each runs once, at the start of the cycle after
 * the put, in the order the FIFOs were first put to in the cycle before (whatever the number of
 * puts), and a hook that puts to a FIFO whose hook runs later in the same cycle has that one run
 * again in the next cycle (every hook of a cycle is marked run before the first runs). P puts to
 * the FIFOs 2, 0, 0 and 1 at cycle 0 and to 0 and 1 at cycle 1; the hook of FIFO 0 puts to FIFO 1
 * on its second run. Each hook takes what is there; the log holds 10 * cycle + FIFO. */

static gsc_fifo *mfifo[3];
static log_t multi_log;

static void multi_hook(void *ctx)
{
    unsigned i = (unsigned)(uintptr_t)ctx;
    g_assert_cmpuint(multi_log.n, <, MAXLOG);
    multi_log.at[multi_log.n++] = 10 * gsc_cycle() + i;
    g_assert_true(gsc_fifo_can_get(mfifo[i]));
    while (gsc_fifo_can_get(mfifo[i]))
        gsc_fifo_get(mfifo[i], NULL);
    if (i == 0 && gsc_cycle() == 2) {
        word w = {.v = 7};
        gsc_fifo_put(mfifo[1], &w);
    }
}

static void multi_producer(void *ctx)
{
    (void)ctx;
    word w = {.v = 1};
    static const unsigned at0[] = {2, 0, 0, 1}, at1[] = {0, 1};
    uint64_t now = gsc_cycle();
    const unsigned *order = now == 0 ? at0 : at1;
    unsigned n = now == 0 ? G_N_ELEMENTS(at0) : now == 1 ? G_N_ELEMENTS(at1) : 0;
    for (unsigned k = 0; k < n; k++)
        gsc_fifo_put(mfifo[order[k]], &w);
    if (now == 0)
        gsc_run_within(1);
}

static void body_arrival_hooks_several(void)
{
    gsc_init("test_sensitivity");
    gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    static const char *names[] = {"m0", "m1", "m2"};
    for (unsigned i = 0; i < 3; i++) {
        mfifo[i] = gsc_fifo_new(top, names[i], &word_type, 4);
        gsc_fifo_on_arrival(mfifo[i], multi_hook, (void *)(uintptr_t)i);
    }
    gsc_process *p = gsc_process_new(top, "producer", multi_producer, NULL);
    gsc_process_initialize(p);
    gsc_run_cycles(10);
    static const uint64_t want[] = {12, 10, 11, 20, 21, 31}, want_sorted[] = {10, 11, 12, 20, 21, 31};
    if (gsc_check() == GSC_CHECK_SHUFFLE) { /* (GPUSC_CHECK=shuffle) the same runs, a cycle's in any order */
        for (unsigned i = 1; i < multi_log.n; i++)
            for (unsigned j = i; j > 0 && multi_log.at[j - 1] > multi_log.at[j]; j--) {
                uint64_t t = multi_log.at[j];
                multi_log.at[j] = multi_log.at[j - 1];
                multi_log.at[j - 1] = t;
            }
        assert_log(&multi_log, want_sorted, G_N_ELEMENTS(want_sorted));
    } else {
        assert_log(&multi_log, want, G_N_ELEMENTS(want));
    }
    for (unsigned i = 0; i < 3; i++)
        g_assert_cmpuint(gsc_fifo_occupancy(mfifo[i]), ==, 0);
}

static void test_arrival_hooks_several(void)
{
    SC_TEST_IN_SUBPROCESS(body_arrival_hooks_several());
}

/* ---- gsc_stop ends the run after all of the stop cycle's activations */

static log_t counter_log;

static void stopper(void *ctx)
{
    (void)ctx;
    if (gsc_cycle() == 7)
        gsc_stop();
}

static void counter(void *ctx)
{
    (void)ctx;
    log_cycle(&counter_log);
}

static void body_stop(bool stopper_first)
{
    gsc_init("test_sensitivity");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_process *s = NULL, *c;
    if (stopper_first)
        s = gsc_process_new(NULL, "stopper", stopper, NULL);
    c = gsc_process_new(NULL, "counter", counter, NULL);
    if (!stopper_first)
        s = gsc_process_new(NULL, "stopper", stopper, NULL);
    gsc_sensitive_clock(s, clk);
    gsc_sensitive_clock(c, clk);
    g_assert_false(gsc_stopped());
    g_assert_cmpuint(gsc_run(100), ==, 8);
    g_assert_true(gsc_stopped());
    g_assert_cmpuint(counter_log.n, ==, 8);
    g_assert_cmpuint(counter_log.at[7], ==, 7);
    g_assert_cmpuint(gsc_cycle(), ==, 8);
    /* the simulation can go on afterwards */
    g_assert_cmpuint(gsc_run_cycles(2), ==, 10);
    g_assert_false(gsc_stopped());
    g_assert_cmpuint(counter_log.n, ==, 10);
    g_assert_cmpuint(counter_log.at[8], ==, 8);
    /* max_cycles bounds gsc_run */
    g_assert_cmpuint(gsc_run(5), ==, 15);
    g_assert_false(gsc_stopped());
}

static void test_stop_first(void)
{
    SC_TEST_IN_SUBPROCESS(body_stop(true));
}

static void test_stop_last(void)
{
    SC_TEST_IN_SUBPROCESS(body_stop(false));
}

/* ---- gsc_run ends when no activity remains (no clocked process) */

static log_t burst_log;

static void burst(void *ctx)
{
    (void)ctx;
    log_cycle(&burst_log);
    if (burst_log.n < 3)
        gsc_next_trigger_cycles(5);
    else
        gsc_next_trigger_event(ev); /* never notified */
}

static void body_starvation(void)
{
    gsc_init("test_sensitivity");
    gsc_clock_new("clk", 1000);
    ev = gsc_event_new(NULL, "never");
    gsc_process *p = gsc_process_new(NULL, "burst", burst, NULL);
    gsc_process_initialize(p);
    /* activity at 0, 5, 10: nothing after cycle 10 */
    g_assert_cmpuint(gsc_run(0), ==, 11);
    g_assert_false(gsc_stopped());
    static const uint64_t want[] = {0, 5, 10};
    assert_log(&burst_log, want, 3);
    g_assert_cmpuint(gsc_run(0), ==, 11);
}

static void test_starvation(void)
{
    SC_TEST_IN_SUBPROCESS(body_starvation());
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/sensitivity/next-trigger-cycles", test_next_trigger_cycles);
    g_test_add_func("/sc/sensitivity/events", test_events);
    g_test_add_func("/sc/sensitivity/idle-costs-nothing", test_idle);
    g_test_add_func("/sc/sensitivity/channels/driver-first", test_channels_driver_first);
    g_test_add_func("/sc/sensitivity/channels/driver-last", test_channels_driver_last);
    g_test_add_func("/sc/sensitivity/channels/several-listeners", test_several_listeners);
    g_test_add_func("/sc/sensitivity/channels/wake-after-activation/alone", test_wake_after_activation);
    g_test_add_func("/sc/sensitivity/channels/wake-after-activation/put-before",
                    test_wake_after_activation_put_before);
    g_test_add_func("/sc/sensitivity/room/consumer-first", test_room_consumer_first);
    g_test_add_func("/sc/sensitivity/room/consumer-last", test_room_consumer_last);
    g_test_add_func("/sc/sensitivity/run-within", test_run_within);
    g_test_add_func("/sc/sensitivity/arrival-hook", test_arrival_hook);
    g_test_add_func("/sc/sensitivity/arrival-hooks/several", test_arrival_hooks_several);
    g_test_add_func("/sc/run/stop/stopper-first", test_stop_first);
    g_test_add_func("/sc/run/stop/stopper-last", test_stop_last);
    g_test_add_func("/sc/run/starvation", test_starvation);
    return g_test_run();
}
