/* The lane (docs/sc-api.md, "The lane"): processes that are not clocked run from the kernel layer's
 * own runner instead of the kernel's scheduler. Every process must run in exactly the cycles it ran in
 * before, for every way of waking it: FIFO puts and gets, room, latches, events in its static
 * sensitivity (delayed, delta, cancelled), gsc_run_within (the next cycle, later, a direct cycle with
 * nothing else due), dynamic waits on the kernel (an event, n cycles, either), and the last of two
 * waits asked for in one activation. Each system runs with the lane and without it (gsc_reset in
 * between) and the two logs of (cycle, process) must be the same. */
#include "sc/gsc.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "tests/sc/sc_test.h"

typedef struct {
    uint32_t seq;
} tok;
static const gsc_field tok_fields[] = {GSC_FIELD(tok, seq, GSC_U32, 0)};
static const gsc_type tok_type = GSC_TYPE(tok, tok_fields);
static const gsc_field tok_latch_fields[] = {GSC_FIELD(tok, seq, GSC_U32, 0)};
static const gsc_type tok_latch_type = GSC_TYPE(tok, tok_latch_fields);

#define MAXLOG 20000
typedef struct {
    uint64_t cycle;
    unsigned who;
} entry;
static entry logbuf[MAXLOG];
static unsigned n_log;

static void note(unsigned who)
{
    g_assert_cmpuint(n_log, <, MAXLOG);
    logbuf[n_log].cycle = gsc_cycle();
    logbuf[n_log].who = who;
    n_log++;
}

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    return x->who < y->who ? -1 : x->who > y->who;
}

/* ---- the system -------------------------------------------------------------------------------- */

#define STAGES 4
enum { W_WATCH = 10, W_DYN = 11, W_NEVER = 12, W_SLEEP = 13, W_CLOCK = 14, W_SRC = 15, W_LATCH = 16 };

typedef struct {
    unsigned id;
    gsc_fifo *in, *out;
    gsc_event *ev, *ev2; /* the watched events */
    gsc_latch *latch;
    unsigned acts;
} stage;

static stage st[STAGES];
static gsc_event *ev, *ev2;
static gsc_fifo *src_out;
static unsigned src_sent, dyn_acts, sleep_acts;
static uint32_t latch_val;

/* A stage passes tokens on; what it asks for next depends on the token. */
static void stage_run(void *ctx)
{
    stage *s = ctx;
    note(s->id);
    s->acts++;
    if (!gsc_fifo_can_get(s->in) || !gsc_fifo_can_put(s->out))
        return; /* woken by a put or a room: static sensitivity */
    tok t;
    gsc_fifo_get(s->in, &t);
    switch ((t.seq + s->id) % 6) {
    case 0:
        gsc_run_within(3); /* a timer */
        break;
    case 1:
        gsc_run_within(1); /* the next cycle */
        break;
    case 2:
        gsc_event_notify(ev, 0); /* a delta notification to the watcher */
        break;
    case 3:
        gsc_event_notify(ev, 2);
        break;
    case 4:
        gsc_event_notify(ev2, 0); /* cancelled at once: its listener never runs */
        gsc_event_cancel(ev2);
        break;
    default:
        break;
    }
    tok v = {++latch_val}; /* every stage writes the latch: a change in each cycle a token moves */
    gsc_latch_write(s->latch, &v);
    gsc_fifo_put(s->out, &t);
}

static void source(void *ctx)
{
    (void)ctx;
    note(W_SRC);
    if (src_sent < 40 && gsc_fifo_can_put(src_out)) {
        tok t = {src_sent++ * 37};
        gsc_fifo_put(src_out, &t);
    }
    if (src_sent < 40)
        gsc_run_within(1 + src_sent % 3);
}

static void watcher(void *ctx)
{
    (void)ctx;
    note(W_WATCH);
}

static void never(void *ctx)
{
    (void)ctx;
    note(W_NEVER);
}

static void latch_reader(void *ctx)
{
    (void)ctx;
    note(W_LATCH);
}

/* Dynamic waits, and two waits in one activation (the last one counts); between them the latch's
 * changes (its static sensitivity) wake it only when it asked for none. */
static void dyn(void *ctx)
{
    (void)ctx;
    note(W_DYN);
    switch (dyn_acts++ % 7) {
    case 0:
        gsc_next_trigger_event(ev);
        break;
    case 1:
        gsc_next_trigger_cycles(1);
        gsc_next_trigger_event(ev); /* this one */
        break;
    case 2:
        gsc_next_trigger_event(ev);
        gsc_next_trigger_cycles(1); /* this one */
        break;
    case 3: /* static: the next latch change */
        break;
    case 4:
        gsc_next_trigger_event_or_cycles(ev, 7);
        break;
    case 5:
        gsc_next_trigger_cycles(4);
        break;
    default:
        gsc_run_within(1);
        break;
    }
}

/* Long sleeps alone: cycles with nothing else due (the kernel notifies its timer directly). */
static void sleeper(void *ctx)
{
    (void)ctx;
    note(W_SLEEP);
    if (++sleep_acts < 12)
        gsc_run_within(sleep_acts % 2 ? 90 : 1);
}

static void clocked(void *ctx)
{
    (void)ctx;
    note(W_CLOCK);
}

static void build(bool with_clocked)
{
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "tb");
    ev = gsc_event_new(top, "ev");
    ev2 = gsc_event_new(top, "ev2");
    gsc_latch *l = gsc_latch_new(top, "l", &tok_latch_type);
    gsc_fifo *f[STAGES + 1];
    for (unsigned i = 0; i <= STAGES; i++) {
        char name[16];
        g_snprintf(name, sizeof name, "f%u", i);
        f[i] = gsc_fifo_new(top, name, &tok_type, 2);
    }
    src_out = f[0];
    gsc_process *src = gsc_process_new(top, "source", source, NULL);
    gsc_process_initialize(src);
    gsc_sensitive_fifo_room(src, f[0]);
    for (unsigned i = 0; i < STAGES; i++) {
        st[i].id = i;
        st[i].in = f[i];
        st[i].out = f[i + 1];
        st[i].latch = l;
        char name[16];
        g_snprintf(name, sizeof name, "stage%u", i);
        gsc_process *p = gsc_process_new(top, name, stage_run, &st[i]);
        gsc_sensitive_fifo_put(p, f[i]);
        gsc_sensitive_fifo_room(p, f[i + 1]);
        if (i == STAGES - 1)
            gsc_sensitive_fifo_get(p, f[i + 1]); /* the harness's gets between runs wake it */
    }
    gsc_process *w = gsc_process_new(top, "watcher", watcher, NULL);
    gsc_sensitive_event(w, ev);
    gsc_process *nv = gsc_process_new(top, "never", never, NULL);
    gsc_sensitive_event(nv, ev2);
    gsc_process *lr = gsc_process_new(top, "latch_reader", latch_reader, NULL);
    gsc_sensitive_latch(lr, l);
    gsc_process *d = gsc_process_new(top, "dyn", dyn, NULL);
    gsc_process_initialize(d);
    gsc_sensitive_latch(d, l);
    gsc_process *sl = gsc_process_new(top, "sleeper", sleeper, NULL);
    gsc_process_initialize(sl);
    if (with_clocked) {
        gsc_process *c = gsc_process_new(top, "clocked", clocked, NULL);
        gsc_sensitive_clock(c, clk);
    }
}

static void drain_end(void)
{
    /* between runs, as a harness would: the last FIFO emptied so the ring keeps moving */
    gsc_fifo *end = st[STAGES - 1].out;
    while (gsc_fifo_can_get(end))
        gsc_fifo_get(end, NULL);
}

/* One run of the system; its log sorted by (cycle, process) into `out` (n entries). */
static unsigned run_once(bool lane, bool with_clocked, entry *out, uint64_t *lane_acts, uint64_t *acts)
{
    n_log = 0;
    src_sent = dyn_acts = sleep_acts = 0;
    latch_val = 0;
    memset(st, 0, sizeof st);
    gsc_set_lane(lane);
    build(with_clocked);
    /* before the first run (elaboration): a delta notification for cycle 0 and a put whose
     * listener runs at cycle 0 */
    gsc_event_notify(ev, 0);
    tok first = {1000};
    gsc_fifo_put(st[1].in, &first);
    for (unsigned k = 0; k < 30; k++) {
        gsc_run_cycles(40);
        drain_end();
    }
    g_assert_cmpuint(gsc_lane_active(), ==, lane);
    *lane_acts = gsc_lane_activations();
    *acts = gsc_activations();
    g_assert_cmpuint(*acts, ==, n_log);
    memcpy(out, logbuf, n_log * sizeof *out);
    qsort(out, n_log, sizeof *out, entry_cmp);
    return n_log;
}

static entry log_on[MAXLOG], log_off[MAXLOG];

static void body_same(bool with_clocked)
{
    gsc_init("test_lane");
    uint64_t lane_on, acts_on, lane_off, acts_off;
    unsigned n_on = run_once(true, with_clocked, log_on, &lane_on, &acts_on);
    gsc_reset();
    unsigned n_off = run_once(false, with_clocked, log_off, &lane_off, &acts_off);
    g_assert_cmpuint(n_on, ==, n_off);
    for (unsigned i = 0; i < n_on; i++) {
        g_assert_cmpuint(log_on[i].cycle, ==, log_off[i].cycle);
        g_assert_cmpuint(log_on[i].who, ==, log_off[i].who);
    }
    /* the system did what it is for: tokens moved, every kind of process ran, the cancelled event
     * woke nobody */
    unsigned seen[W_LATCH + 1] = {0};
    for (unsigned i = 0; i < n_on; i++)
        seen[log_on[i].who]++;
    for (unsigned w = 0; w <= W_LATCH; w++) {
        if (w >= STAGES && w < W_WATCH)
            continue;
        if (w == W_NEVER)
            g_assert_cmpuint(seen[w], ==, 0);
        else if (w == W_CLOCK && !with_clocked)
            g_assert_cmpuint(seen[w], ==, 0);
        else
            g_assert_cmpuint(seen[w], >, 2);
    }
    g_assert_cmpuint(seen[W_SLEEP], ==, 12);
    g_assert_cmpuint(log_on[0].cycle, ==, 0); /* the watcher and stage 1 at cycle 0 */
    bool watch0 = false, stage0 = false;
    for (unsigned i = 0; i < n_on && log_on[i].cycle == 0; i++) {
        watch0 |= log_on[i].who == W_WATCH;
        stage0 |= log_on[i].who == 1;
    }
    g_assert_true(watch0);
    g_assert_true(stage0);
    /* with the lane, the kernel ran only the clocked process and the dynamic waits' wake-ups */
    g_assert_cmpuint(lane_off, ==, 0);
    g_assert_cmpuint(lane_on, >, 0);
    g_assert_cmpuint(acts_on - lane_on, <=, seen[W_DYN] + seen[W_CLOCK] + 3);
}

static void test_same(void)
{
    SC_TEST_IN_SUBPROCESS(body_same(false));
}

static void test_same_clocked(void)
{
    SC_TEST_IN_SUBPROCESS(body_same(true));
}

/* ---- which processes are laned ---------------------------------------------------------------- */

static void nop(void *ctx)
{
    (void)ctx;
    gsc_run_within(1);
}

static void body_modes(void)
{
    gsc_init("test_lane");
    gsc_clock_new("clk", 1000);
    gsc_process_initialize(gsc_process_new(NULL, "p", nop, NULL));
    gsc_run_cycles(10);
    g_assert_true(gsc_lane_active());
    g_assert_cmpuint(gsc_activations(), ==, 10);
    g_assert_cmpuint(gsc_lane_activations(), ==, 9); /* (the first: the kernel's initialisation) */

    gsc_reset();
    gsc_set_check(GSC_CHECK_AWAKE, 1); /* the check modes run every process on the kernel */
    gsc_clock_new("clk", 1000);
    gsc_process_initialize(gsc_process_new(NULL, "p", nop, NULL));
    gsc_run_cycles(10);
    g_assert_false(gsc_lane_active());
    g_assert_cmpuint(gsc_lane_activations(), ==, 0);

    gsc_reset();
    g_setenv("GPUSC_LANE", "off", TRUE);
    gsc_reset(); /* (read by gsc_reset, as by gsc_init) */
    gsc_clock_new("clk", 1000);
    gsc_process_initialize(gsc_process_new(NULL, "p", nop, NULL));
    gsc_run_cycles(10);
    g_assert_false(gsc_lane_active());
}

static void test_modes(void)
{
    SC_TEST_IN_SUBPROCESS(body_modes());
}

static void test_env_bad(void)
{
    if (g_test_subprocess()) {
        g_setenv("GPUSC_LANE", "sometimes", TRUE);
        gsc_init("test_lane");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: GPUSC_LANE=sometimes: expected auto, on or off*");
}

static void test_set_after_elaboration(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_lane");
        gsc_clock_new("clk", 1000);
        gsc_elaborate();
        gsc_set_lane(false);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: gsc_set_lane: only allowed during elaboration*");
}

int main(int argc, char **argv)
{
    g_unsetenv("GPUSC_LANE");
    g_unsetenv("GPUSC_CHECK");
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sc/lane/same-cycles", test_same);
    g_test_add_func("/sc/lane/same-cycles-clocked", test_same_clocked);
    g_test_add_func("/sc/lane/modes", test_modes);
    g_test_add_func("/sc/lane/env-bad", test_env_bad);
    g_test_add_func("/sc/lane/set-after-elaboration", test_set_after_elaboration);
    return g_test_run();
}
