/* gsc.cc — the C face of SystemC: simulation control, modules, clock, processes, events, errors.
 *
 * Everything here drives the real Accellera kernel: modules are sc_module objects, processes are
 * spawned method processes (sc_spawn with spawn_method), the core clock is an sc_clock, events are
 * sc_events and dynamic sensitivity is next_trigger. What this file adds is the cycle view of time
 * (cycle = ceil(time / period)) and the channel semantics (latches, FIFOs) that make a cycle's
 * result independent of the order of activations inside it. See docs/sc-api.md.
 */
#include "sc/gsc_impl.h"

#include <glib.h>
#include <sysc/tracing/sc_tracing_ids.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

using namespace sc_core;

gsc_state gsc_g;

/* libsystemc references sc_main; our programs have their own main() and call gsc_init. */
int sc_main(int, char **)
{
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Errors and reports
 * ------------------------------------------------------------------------------------------- */

extern "C" void gsc_fatal(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("gpusc: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    exit(1);
}

static const char *severity_name(sc_severity s)
{
    switch (s) {
    case SC_INFO:
        return "info";
    case SC_WARNING:
        return "warning";
    case SC_ERROR:
        return "error";
    default:
        return "fatal error";
    }
}

/* SystemC reports: infos and warnings to GLib logging (domain "systemc"), errors end the run. */
static void report_handler(const sc_report &rep, const sc_actions &actions)
{
    std::string text = std::string(rep.get_msg_type());
    if (rep.get_msg() && *rep.get_msg())
        text += std::string(": ") + rep.get_msg();
    if (rep.get_process_name() && *rep.get_process_name())
        text += std::string(" (in process ") + rep.get_process_name() + ")";

    switch (rep.get_severity()) {
    case SC_INFO:
        if (actions & (SC_DISPLAY | SC_LOG))
            g_log("systemc", G_LOG_LEVEL_MESSAGE, "%s", text.c_str());
        break;
    case SC_WARNING:
        if (actions & (SC_DISPLAY | SC_LOG)) {
            /* g_test_init makes warnings fatal; a SystemC warning must never be. */
            GLogLevelFlags old = g_log_set_always_fatal((GLogLevelFlags)G_LOG_FATAL_MASK);
            g_log("systemc", G_LOG_LEVEL_WARNING, "%s", text.c_str());
            g_log_set_always_fatal(old);
        }
        break;
    default:
        if (actions == SC_DO_NOTHING)
            break;
        gsc_fatal("SystemC %s: %s", severity_name(rep.get_severity()), text.c_str());
    }
}

static void at_exit(void)
{
    gsc_trace_atexit();
}

/* ---- check modes ------------------------------------------------------------------------------ */

extern "C" bool gsc_check_parse(const char *text, gsc_check_mode *mode, uint64_t *seed)
{
    if (!text)
        return false;
    if (!strcmp(text, "off") || !strcmp(text, "awake")) {
        *mode = text[0] == 'o' ? GSC_CHECK_OFF : GSC_CHECK_AWAKE;
        *seed = 1;
        return true;
    }
    if (strncmp(text, "shuffle", 7) != 0)
        return false;
    uint64_t s = 1;
    if (text[7] == ':') {
        char *end;
        errno = 0;
        s = strtoull(text + 8, &end, 10);
        if (!isdigit((unsigned char)text[8]) || *end || errno)
            return false;
    } else if (text[7]) {
        return false;
    }
    *mode = GSC_CHECK_SHUFFLE;
    *seed = s;
    return true;
}

extern "C" void gsc_set_check(gsc_check_mode mode, uint64_t seed)
{
    if (!gsc_g.inited)
        gsc_fatal("gsc_set_check called before gsc_init");
    if (gsc_g.elaborated)
        gsc_fatal("gsc_set_check: only allowed during elaboration (before gsc_elaborate / the first run)");
    gsc_g.check = mode;
    /* xorshift needs a nonzero state; mix the seed so that 1, 2, 3 start far apart */
    gsc_g.rng = (seed + 1) * UINT64_C(0x9E3779B97F4A7C15) | 1;
}

extern "C" gsc_check_mode gsc_check(void)
{
    return gsc_g.check;
}

static void check_from_env(void)
{
    const char *v = getenv("GPUSC_CHECK");
    gsc_check_mode m;
    uint64_t seed;
    if (!v || !*v)
        return;
    if (!gsc_check_parse(v, &m, &seed))
        gsc_fatal("GPUSC_CHECK=%s: expected off, awake, shuffle or shuffle:SEED", v);
    gsc_set_check(m, seed);
}

extern "C" void gsc_init(const char *program_name)
{
    if (gsc_g.inited)
        gsc_fatal("gsc_init called twice");
    gsc_g.inited = true;
    gsc_g.program = program_name ? program_name : "gpusc";
    /* The kernel prints its banner at the first elaboration unless told not to. */
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    sc_report_handler::set_handler(report_handler);
    /* We set the trace timescale on purpose: do not tell about it. */
    sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
    sc_report_handler::set_actions(SC_ID_TRACING_TIMESCALE_UNIT_, SC_INFO, SC_DO_NOTHING);
    sc_report_handler::set_actions(SC_ID_TRACING_TIMESCALE_DEFAULT_, SC_INFO, SC_DO_NOTHING);
    /* A trace window that was never reached leaves an empty file; that is expected. */
    sc_report_handler::set_actions(SC_ID_TRACING_CLOSE_EMPTY_FILE_, SC_WARNING, SC_DO_NOTHING);
    sc_set_time_resolution(1, SC_PS);
    gsc_g.simc = sc_get_curr_simcontext();
    check_from_env();
    gsc_huge_from_env();
    gsc_prefetch_from_env();
    gsc_lane_from_env();
    atexit(at_exit);
}

static void need_init(const char *what)
{
    if (!gsc_g.inited)
        gsc_fatal("%s called before gsc_init", what);
}

static void need_name(const char *what, const char *name)
{
    if (!name || !*name)
        gsc_fatal("%s: a name is needed", what);
}

static void need_elaboration(const char *what)
{
    need_init(what);
    if (gsc_g.elaborated)
        gsc_fatal("%s: only allowed during elaboration (before gsc_elaborate / the first run)", what);
}

/* SystemC 2.3 has no reset: the kernel lives in one global simulation context. We replace it with
 * a fresh context (the kernel's own sc_curr_simcontext / sc_default_global_context pointers) and
 * forget ours. The old context and every object in it are leaked on purpose: 2.3 cannot destroy a
 * context safely (its objects point at each other and at it). Meant for tests that build several
 * systems in one process; the report handler and its actions are global and stay installed. */
/* A gsc_process only describes a process until gsc_elaborate spawns it (the spawned method keeps
 * its own copy of fn and ctx); every call that takes one is elaboration-only and checks that before
 * touching it. So the descriptors are freed once spawned (or when a reset forgets them). */
static void procs_free(void)
{
    for (gsc_process *p : gsc_g.procs)
        delete p;
    gsc_g.procs.clear();
}

extern "C" void gsc_reset(void)
{
    need_init("gsc_reset");
    if (gsc_g.in_run)
        gsc_fatal("gsc_reset: not allowed inside a run (from a process)");
    gsc_trace_reset();
    procs_free();
    sc_curr_simcontext = new sc_simcontext();
    sc_default_global_context = sc_curr_simcontext;
    std::string program = gsc_g.program;
    gsc_g = gsc_state();
    gsc_hot.pulses_traced = false;
    gsc_hot.prefetch = false;
    gsc_g.inited = true;
    gsc_g.program = program;
    sc_set_time_resolution(1, SC_PS);
    gsc_g.simc = sc_get_curr_simcontext();
    check_from_env();
    gsc_huge_from_env();
    gsc_prefetch_from_env();
    gsc_lane_from_env();
}

/* ---------------------------------------------------------------------------------------------
 * Time
 * ------------------------------------------------------------------------------------------- */

gsc_hot_state gsc_hot;

extern "C" uint64_t gsc_cycle_slow(void)
{
    return gsc_now_cycle();
}

extern "C" uint64_t gsc_time_ps(void)
{
    return gsc_now_ps(); /* resolution is 1 ps (gsc_init) */
}

extern "C" uint64_t gsc_activations(void)
{
    return gsc_g.activations;
}

/* ---- the wake-up calendar (gsc_impl.h) ---------------------------------------------------------- */

/* A kernel timed notification of ev for the start of cycle t (later than now). */
static inline void notify_at_cycle(sc_event &ev, int64_t t)
{
    uint64_t delay = (uint64_t)t * gsc_g.period - gsc_now_ps();
    ev.notify(delay == gsc_g.period ? gsc_g.cal.one_cycle : sc_time::from_value(delay));
}

/* Arm the ticker for cycle t unless it is already armed for t or earlier. */
static inline void cal_arm(int64_t t)
{
    gsc_calendar &c = gsc_g.cal;
    if (t >= c.tick_due)
        return;
    c.tick_due = t;
    notify_at_cycle(*c.tick_ev, t);
}

static void cal_flush(void);
static inline void wheel_put(gsc_event *e, int64_t t);
static inline void wheel_empty(unsigned b);
static inline int64_t cal_next(int64_t after);

/* The calendar's primitive channel: its update phase arms the ticker (cal_want). */
struct gsc_cal_chan : public sc_prim_channel {
    gsc_cal_chan() : sc_prim_channel(sc_gen_unique_name("gsc_calendar")) {}
    void poke()
    {
        request_update();
    }
    void update() override
    {
        cal_flush();
    }
};

/* The kernel event a direct cycle of e is notified on: its own, or for a laned owner the lane
 * runner's (the owner has no kernel sensitivity). */
static inline sc_event &direct_kernel_event(gsc_event *e)
{
    return e->owner->laned ? *gsc_g.cal.lane_direct_ev : e->ev;
}

static inline void direct_clear(void)
{
    gsc_g.cal.direct = nullptr;
    gsc_g.cal.direct_at = GSC_NO_CYCLE;
}

/* The direct cycle will not be served directly after all: the kernel notification is cancelled and
 * the event (if still due then) goes back into its bucket, with the ticker armed for it. */
static void direct_undo(void)
{
    gsc_calendar &c = gsc_g.cal;
    gsc_event *e = c.direct;
    int64_t d = c.direct_at;
    direct_clear();
    direct_kernel_event(e).cancel();
    if (e->due != d)
        return;
    wheel_put(e, d);
    cal_arm(d);
}

/* t's bucket holds exactly one live entry, an event of a process that its static sensitivity will
 * wake (and nothing else is due at t: no clocked process, no next-cycle waiter, no far entry): the
 * kernel notifies it directly. The caller made sure nothing is due before t. */
static bool try_direct(int64_t t)
{
    gsc_calendar &c = gsc_g.cal;
    if (gsc_g.tick_every || c.next_due == t || c.direct || (!c.far.empty() && c.far.top().first <= t))
        return false;
    unsigned b = (unsigned)t & (GSC_WHEEL - 1);
    std::vector<gsc_event *> &q = c.bucket[b];
    gsc_event *one = nullptr;
    for (gsc_event *e : q) {
        if (e->due != t)
            continue;
        if (one && one != e)
            return false;
        one = e;
    }
    if (!one || !one->owner || one->owner->dynamic)
        return false;
    wheel_empty(b);
    c.direct = one;
    c.direct_at = t;
    notify_at_cycle(direct_kernel_event(one), t);
    return true;
}

/* Have this delta cycle's update phase run cal_flush (once: it is requested already when a cycle is
 * wanted or a rescan is due). */
static inline void cal_poke(void)
{
    gsc_calendar &c = gsc_g.cal;
    if (c.want == GSC_NO_CYCLE && !c.rescan)
        c.chan->poke();
}

/* A cycle the ticker must run at: armed now outside a run (elaboration, a harness between runs);
 * inside one, remembered and armed in this delta cycle's update phase (gsc_cal_chan::update). */
static inline void cal_want(int64_t t)
{
    gsc_calendar &c = gsc_g.cal;
    if (!gsc_g.in_run) {
        if (c.direct && t <= c.direct_at)
            direct_undo();
        cal_arm(t);
        return;
    }
    if (t >= c.want || (t >= c.tick_due && !(c.direct && t <= c.direct_at)))
        return;
    cal_poke();
    c.want = t;
}

static void cal_flush(void)
{
    gsc_calendar &c = gsc_g.cal;
    int64_t t = c.want;
    c.want = GSC_NO_CYCLE;
    if (c.rescan) { /* after a direct cycle: the entries already made were armed by nobody */
        c.rescan = false;
        int64_t n = cal_next((int64_t)gsc_now_cycle());
        t = MIN(t, n);
    }
    if (t == GSC_NO_CYCLE)
        return;
    if (c.direct) {
        if (t > c.direct_at)
            return; /* in the wheel: found by the rescan after the direct cycle */
        direct_undo();
    }
    if (t >= c.tick_due)
        return;
    if (gsc_g.in_run && try_direct(t))
        return;
    cal_arm(t);
}

/* From a process's activation: the direct cycle's event fired (this is its cycle) or its owner runs
 * before it. */
static void direct_seen(gsc_proc_rt *rt, int64_t now)
{
    gsc_calendar &c = gsc_g.cal;
    if (c.direct_at <= now) { /* (earlier cannot happen: its owner runs when it fires) */
        if (c.direct->due == c.direct_at)
            c.direct->due = GSC_NO_CYCLE; /* fired, as the ticker would have marked it */
        direct_clear();
        cal_poke();
        c.rescan = true;
    } else if (c.direct->owner == rt) {
        direct_undo();
    }
}

static inline void wheel_put(gsc_event *e, int64_t t)
{
    gsc_calendar &c = gsc_g.cal;
    unsigned b = (unsigned)t & (GSC_WHEEL - 1);
    if (c.bucket[b].empty()) {
        c.bits[b / 64] |= UINT64_C(1) << (b % 64);
        c.n_buckets++;
    }
    c.bucket[b].push_back(e);
}

/* Bucket b's entries are done with (fired, or moved to a direct notification). */
static inline void wheel_empty(unsigned b)
{
    gsc_calendar &c = gsc_g.cal;
    c.bucket[b].clear();
    c.bits[b / 64] &= ~(UINT64_C(1) << (b % 64));
    c.n_buckets--;
}

/* An entry for e at cycle t, which is later than the current time (t * period > now). The caller
 * has extended the horizon to t. Inlined into its callers, a wake-up of every put among them: the
 * compiler would otherwise keep it out of line, a call and its register saves per insertion. */
__attribute__((always_inline)) static inline void cal_insert(gsc_event *e, int64_t t)
{
    /* the last cycle that started (or -1 between runs before cycle 0): entries are < base + WHEEL */
    int64_t base = gsc_hot.in_process ? (int64_t)gsc_hot.cycle : (int64_t)(gsc_now_ps() / gsc_g.period);
    if (t - base < GSC_WHEEL)
        wheel_put(e, t);
    else
        gsc_g.cal.far.push(gsc_cal_entry(t, e));
    cal_want(t);
}

/* The first cycle after `after` with a non-empty bucket, or GSC_NO_CYCLE. The wheel holds cycles
 * after..after+WHEEL-1 only, so a bucket's distance from `after` is its cycle's. */
static int64_t wheel_next(int64_t after)
{
    const gsc_calendar &c = gsc_g.cal;
    if (c.n_buckets == 0)
        return GSC_NO_CYCLE;
    unsigned start = (unsigned)(after + 1) & (GSC_WHEEL - 1);
    unsigned w = start / 64;
    uint64_t word = c.bits[w] & (~UINT64_C(0) << (start % 64));
    for (unsigned i = 0; i <= GSC_WHEEL / 64; i++) {
        if (word) {
            unsigned b = (w * 64 + (unsigned)__builtin_ctzll(word));
            return after + 1 + (int64_t)((b - start) & (GSC_WHEEL - 1));
        }
        w = (w + 1) % (GSC_WHEEL / 64);
        word = c.bits[w];
    }
    return GSC_NO_CYCLE;
}

/* The first cycle after `after` with an entry, in the wheel or the far heap, or GSC_NO_CYCLE. */
static inline int64_t cal_next(int64_t after)
{
    const gsc_calendar &c = gsc_g.cal;
    int64_t next = wheel_next(after);
    if (!c.far.empty() && c.far.top().first < next)
        next = c.far.top().first;
    return next;
}

/* Into the lane's batch of this evaluation phase (once). */
static inline void lane_push(gsc_proc_rt *rt)
{
    uint64_t stamp = gsc_g.simc->change_stamp();
    if (rt->lane_mark == stamp)
        return;
    rt->lane_mark = stamp;
    gsc_g.cal.lane.push_back(rt);
}

/* A static event of the laned rt fired: it runs unless in a dynamic wait (the kernel's rule). */
static inline void lane_static(gsc_proc_rt *rt)
{
    if (!rt->dynamic)
        lane_push(rt);
}

/* e's owner is laned (its swake or timer: nothing else listens to it). */
static inline bool laned_owner(const gsc_event *e)
{
    return e->owner && e->owner->laned;
}

/* e fired for the lane: its laned owner or its laned listeners join the batch. */
static inline void lane_fire(const gsc_event *e)
{
    if (laned_owner(e))
        lane_static(e->owner);
    else if (__builtin_expect(e->lane != nullptr, 0))
        for (gsc_proc_rt *rt : *e->lane)
            lane_static(rt);
}

/* Event e, which is not an arrival hook, fires now: the kernel's event is notified for the processes
 * the lane does not run, and the lane's listeners join the batch. */
static inline void fire_event(gsc_event *e)
{
    if (!laned_owner(e))
        e->ev.notify(); /* immediate: its processes run in this evaluation phase */
    lane_fire(e);
}

/* GSC_CHECK_SHUFFLE's generator (xorshift64*): the same seed, the same orders. */
static uint64_t check_random(void)
{
    uint64_t x = gsc_g.rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    gsc_g.rng = x;
    return x * UINT64_C(2685821657736338717);
}

template <typename T> static void check_shuffle(T *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(check_random() % i);
        T t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* The ticker's work in GSC_CHECK_SHUFFLE: the same events fire, in a random order (the kernel runs
 * the processes they wake in the order they were woken), and the hooks run in one. */
static void cal_fire_shuffled(int64_t now, std::vector<gsc_event *> &q, unsigned b)
{
    gsc_calendar &c = gsc_g.cal;
    c.fire.clear();
    unsigned n_hooks = 0;
    if (!q.empty()) {
        for (gsc_event *e : q) {
            if (e->due != now)
                continue;
            e->due = GSC_NO_CYCLE;
            if (e->hook)
                c.hooks[n_hooks++] = e;
            else
                c.fire.push_back(&e->ev);
        }
        wheel_empty(b);
    }
    if (gsc_g.tick_every)
        c.fire.push_back(c.edge_ev);
    if (c.next_due == now) {
        c.next_due = GSC_NO_CYCLE;
        c.fire.push_back(c.next_ev);
    }
    check_shuffle(c.fire.data(), c.fire.size());
    check_shuffle(c.hooks.data(), n_hooks);
    for (sc_event *e : c.fire)
        e->notify();
    for (unsigned i = 0; i < n_hooks; i++)
        c.hooks[i]->hook(c.hooks[i]->hook_ctx);
}

/* The arrival hooks listed for this cycle, in the order their FIFOs were first put to (shuffled in
 * GSC_CHECK_SHUFFLE, as the ticker's hooks are); one listed for a later cycle stays listed. As in
 * the ticker, every one of them is marked run before the first runs (a put of a hook lists its
 * FIFO for the next cycle). */
void gsc_run_arrivals(void *ctx)
{
    (void)ctx;
    gsc_calendar &c = gsc_g.cal;
    int64_t now = (int64_t)gsc_now_cycle();
    std::vector<gsc_event *> &a = c.arriving, &run = c.arrived;
    run.clear();
    size_t kept = 0;
    for (gsc_event *e : a) {
        if (e->due == now) {
            e->due = GSC_NO_CYCLE;
            run.push_back(e);
        } else if (e->due > now && e->due != GSC_NO_CYCLE) {
            a[kept++] = e;
        }
    }
    a.resize(kept);
    if (__builtin_expect(gsc_g.check == GSC_CHECK_SHUFFLE, 0))
        check_shuffle(run.data(), run.size());
    for (gsc_event *e : run)
        e->hook(e->hook_ctx);
}

/* The ticker: runs at the start of every cycle that has calendar entries (or every cycle while a
 * clocked process exists, or in GSC_CHECK_AWAKE) and fires the cycle's events. */
static void cal_tick(void)
{
    gsc_calendar &c = gsc_g.cal;
    int64_t now = (int64_t)gsc_now_cycle();
    c.tick_due = GSC_NO_CYCLE;
    while (!c.far.empty() && c.far.top().first < now + GSC_WHEEL) {
        wheel_put(c.far.top().second, c.far.top().first);
        c.far.pop();
    }
    unsigned b = (unsigned)now & (GSC_WHEEL - 1);
    std::vector<gsc_event *> &q = c.bucket[b];
    if (__builtin_expect(gsc_g.check == GSC_CHECK_SHUFFLE, 0)) {
        cal_fire_shuffled(now, q, b); /* the edge and next-cycle events too */
        goto arm;
    }
    if (!q.empty()) {
        unsigned n_hooks = 0;
        for (gsc_event *e : q) {
            if (e->due != now)
                continue; /* stale: re-targeted, cancelled or fired earlier */
            e->due = GSC_NO_CYCLE;
            if (e->hook)
                c.hooks[n_hooks++] = e;
            else
                fire_event(e);
        }
        wheel_empty(b);
        /* Arrival hooks (gsc_fifo_on_arrival) run after every event of the cycle is marked fired:
         * a wake-up they ask for (a get wakes its listeners in the next cycle) must not be taken
         * for one still pending in this cycle. The processes run after the ticker. */
        for (unsigned i = 0; i < n_hooks; i++)
            c.hooks[i]->hook(c.hooks[i]->hook_ctx);
    }
    if (gsc_g.tick_every)
        c.edge_ev->notify();
    if (c.next_due == now) {
        c.next_due = GSC_NO_CYCLE;
        for (gsc_proc_rt *rt : c.next_lane)
            if (rt->lane_next == now) { /* (else it chose another wait after asking) */
                rt->lane_next = GSC_NO_CYCLE;
                lane_push(rt);
            }
        c.next_lane.clear();
        if (c.next_sc) {
            c.next_sc = false;
            c.next_ev->notify();
        }
    }
    if (!c.lane.empty())
        c.lane_ev->notify(); /* the lane runner runs in this evaluation phase */
arm:
    /* The next entry already known. If it is the next cycle, nothing can come earlier: arm now
     * (the processes' own requests for it then cost a comparison). Otherwise what the processes of
     * this cycle add is merged in the update phase (cal_want), where the ticker is armed once. */
    int64_t next = gsc_g.tick_every ? now + 1 : cal_next(now);
    if (next == now + 1)
        cal_arm(next);
    else if (next != GSC_NO_CYCLE)
        cal_want(next);
}

/* gsc_notify_at (gsc_impl.h) has extended the horizon and found no earlier pending notification. */
void gsc_notify_at_slow(gsc_event *e, int64_t target)
{
    bool past;
    if (gsc_hot.in_process) /* the time is exactly the cycle's */
        past = target <= (int64_t)gsc_hot.cycle;
    else
        past = (target > 0 ? (uint64_t)target * gsc_g.period : 0) <= gsc_now_ps();
    if (past) {
        e->due = GSC_NO_CYCLE; /* a delta notification overrides a pending timed one, as in SystemC */
        e->ev.notify(SC_ZERO_TIME);
        /* (before elaboration whether its listeners will be laned is not known yet: listed, and
         * looked at by the delta runner if they are) */
        if (!gsc_g.elaborated || laned_owner(e) || e->lane) {
            if (!e->delta_pending) {
                e->delta_pending = true;
                gsc_g.cal.lane_deltas.push_back(e);
            }
            if (gsc_g.elaborated)
                gsc_g.cal.lane_delta_ev->notify(SC_ZERO_TIME);
        }
        return;
    }
    e->due = target;
    cal_insert(e, target);
}

/* ---------------------------------------------------------------------------------------------
 * Modules and the clock
 * ------------------------------------------------------------------------------------------- */

namespace
{
/* Objects created while this lives are children of m (NULL: top level) in the kernel's hierarchy. */
struct in_module {
    gsc_module *m;
    explicit in_module(gsc_module *m_) : m(m_)
    {
        if (m)
            sc_get_curr_simcontext()->hierarchy_push(m);
    }
    ~in_module()
    {
        if (m)
            sc_get_curr_simcontext()->hierarchy_pop();
    }
    in_module(const in_module &) = delete;
    in_module &operator=(const in_module &) = delete;
};
} // namespace

extern "C" gsc_module *gsc_module_new(gsc_module *parent, const char *name)
{
    need_init("gsc_module_new");
    need_name("gsc_module_new", name);
    in_module under(parent);
    return new gsc_module(sc_module_name(name), parent);
}

extern "C" const char *gsc_module_name(const gsc_module *m)
{
    return m->name();
}

extern "C" const char *gsc_module_basename(const gsc_module *m)
{
    return m->basename();
}

extern "C" gsc_module *gsc_module_parent(const gsc_module *m)
{
    return m->parent_;
}

extern "C" gsc_clock *gsc_clock_new(const char *name, uint64_t period_ps)
{
    need_elaboration("gsc_clock_new");
    need_name("gsc_clock_new", name);
    if (gsc_g.clock)
        gsc_fatal("clock '%s': there is already a core clock ('%s'); exactly one is allowed", name,
                  gsc_g.clock->name.c_str());
    if (period_ps < 2)
        gsc_fatal("clock '%s': period %" PRIu64 " ps is too short (at least 2 ps)", name, period_ps);
    /* Rising edges at k * period, the first at time 0. No sc_clock: its two edge processes and
     * signal update would cost every cycle, busy or idle. The rising edge is the calendar's
     * edge event, fired by the ticker in every cycle while a process is clocked. */
    gsc_clock *c = new gsc_clock;
    c->name = name;
    c->period_ps = period_ps;
    gsc_g.clock = c;
    gsc_g.period = period_ps;
    gsc_g.cal.tick_ev = new sc_event();
    gsc_g.cal.edge_ev = new sc_event();
    gsc_g.cal.next_ev = new sc_event();
    gsc_g.cal.one_cycle = sc_time::from_value(period_ps);
    gsc_g.cal.chan = new gsc_cal_chan();
    /* Room in every bucket of the wheel for the entries of a busy cycle: grown from empty one
     * doubling at a time, the buckets cost about 4 reallocations each in the first GSC_WHEEL cycles,
     * 1.4 % of a short run (tb-gpu spmv at the tiny size). */
    for (std::vector<gsc_event *> &b : gsc_g.cal.bucket)
        b.reserve(GSC_BUCKET_RESERVE);
    return c;
}

extern "C" uint64_t gsc_clock_period_ps(const gsc_clock *c)
{
    return c->period_ps;
}

extern "C" uint64_t gsc_core_period_ps(void)
{
    return gsc_g.clock ? gsc_g.period : 0;
}

/* ---------------------------------------------------------------------------------------------
 * Processes
 * ------------------------------------------------------------------------------------------- */

/* Prefetching (gsc.h): rt starts in `cycle` after gsc_g.cur. The process that ran after gsc_g.cur
 * in the last cycle of this parity is noted; the lines of the one learned to follow rt are
 * prefetched (the lines of its record they are listed in were, as this one started), and the
 * record of the one after (its first line, its second, and the three of its prefetch lists). */
[[gnu::always_inline]] static inline void prefetch_next(gsc_proc_rt *rt, uint64_t cycle)
{
    unsigned par = cycle & 1;
    if (gsc_proc_rt *prev = gsc_g.cur) {
        gsc_g.prefetch_hits += prev->succ[par] == rt;
        prev->succ[par] = rt;
    }
    if (const gsc_proc_rt *s = rt->succ[par]) {
#pragma GCC unroll 12
        for (unsigned i = 0; i < GSC_HOT_LINES; i++)
            __builtin_prefetch(s->hot[i]);
        for (unsigned i = 0; i < s->n_next; i++)
            __builtin_prefetch(s->next[i]);
        if (const gsc_proc_rt *t = s->succ[par]) {
            __builtin_prefetch(t);
            __builtin_prefetch(&t->succ);
            __builtin_prefetch(&t->hot[0]);
            __builtin_prefetch(&t->hot[GSC_HOT_LINES - 1]);
            __builtin_prefetch(&t->next[GSC_NEXT_LINES - 1]);
        }
    }
    rt->n_next = 0;
}

extern "C" void gsc_prefetch_next_slow(const void *addr)
{
    gsc_proc_rt *rt = gsc_g.cur;
    if (gsc_hot.in_process && rt->n_next < GSC_NEXT_LINES)
        rt->next[rt->n_next++] = addr;
}

/* An activation of rt in `cycle`, from the kernel (the trampoline) or the lane. */
[[gnu::always_inline]] static inline void activate(gsc_proc_rt *rt, uint64_t cycle)
{
    gsc_g.activations++;
    if (gsc_hot.prefetch)
        prefetch_next(rt, cycle);
    gsc_g.cur = rt;
    gsc_hot.cycle = cycle;
    if (__builtin_expect(gsc_g.cal.direct != nullptr, 0))
        direct_seen(rt, (int64_t)gsc_hot.cycle);
    rt->dynamic = false;
    rt->sc_wait = false;          /* (the kernel's trigger of a wait ended it; a laned run had none) */
    rt->timer.due = GSC_NO_CYCLE; /* a pending gsc_run_within entry is stale: this is the run */
    /* (awake_at stays: a cycle before this one, or the next with its swake still pending) */
    gsc_hot.in_process = true;
    rt->fn(rt->ctx);
    gsc_hot.in_process = false;
}

/* The lane runner's work: the batch, each process as the kernel would run it (traced variables
 * marked first when a trace file is open). */
static void lane_run(void)
{
    gsc_calendar &c = gsc_g.cal;
    if (c.lane.empty())
        return;
    c.lane_run.swap(c.lane);
    uint64_t cycle = gsc_now_cycle();
    gsc_g.lane_activations += c.lane_run.size();
    gsc_g.in_lane = true;
    if (__builtin_expect(gsc_g.traced_procs, 0)) {
        for (gsc_proc_rt *rt : c.lane_run) {
            gsc_trace_mark(rt->tmarks);
            activate(rt, cycle);
        }
    } else {
        for (gsc_proc_rt *rt : c.lane_run)
            activate(rt, cycle);
    }
    gsc_g.in_lane = false;
    c.lane_run.clear();
}

/* The lane runner at the start of a cycle: the ticker's batch, or a direct cycle's owner (its event
 * fires now, as the kernel's notification of it would). */
static void lane_main(void)
{
    gsc_calendar &c = gsc_g.cal;
    if (c.direct && c.direct_at == (int64_t)gsc_now_cycle()) {
        gsc_proc_rt *o = c.direct->owner;
        if (c.direct->due == c.direct_at && !o->dynamic)
            lane_push(o); /* (its activation clears the direct cycle) */
        else
            direct_seen(o, c.direct_at);
    }
    lane_run();
}

/* The lane's delta runner: the events notified for the current time in the last delta cycle. */
static void lane_delta(void)
{
    gsc_calendar &c = gsc_g.cal;
    c.lane_deltas_run.swap(c.lane_deltas);
    for (gsc_event *e : c.lane_deltas_run) {
        if (!e->delta_pending)
            continue; /* cancelled, or listed twice */
        e->delta_pending = false;
        lane_fire(e);
    }
    c.lane_deltas_run.clear();
    lane_run();
}

/* While a lane runner runs a laned process, the kernel takes the runner for the running process:
 * a next_trigger of the process is made with the kernel's record of the current process pointing
 * at the process's own method for its duration. */
namespace
{
struct as_current {
    sc_curr_proc_info *ci = nullptr;
    sc_curr_proc_info saved;
    explicit as_current(const gsc_proc_rt *rt)
    {
        if (!gsc_g.in_lane)
            return;
        ci = const_cast<sc_curr_proc_info *>(gsc_g.simc->get_curr_proc_info());
        saved = *ci;
        ci->process_handle = rt->kproc;
        ci->kind = SC_METHOD_PROC_;
    }
    ~as_current()
    {
        if (ci)
            *ci = saved;
    }
    as_current(const as_current &) = delete;
    as_current &operator=(const as_current &) = delete;
};
} // namespace

namespace
{
/* The body of every C method process. */
struct trampoline {
    gsc_proc_rt *rt;
    void operator()() const
    {
        activate(rt, gsc_now_cycle());
    }
};
/* The same, when a trace file is open: the traced variables the activation may change are marked
 * first (a separate body, so that an untraced run does not pay for the test). */
struct trampoline_traced {
    gsc_proc_rt *rt;
    void operator()() const
    {
        gsc_trace_mark(rt->tmarks);
        trampoline{rt}();
    }
};
/* The calendar's ticker. */
struct ticker {
    void operator()() const
    {
        cal_tick();
    }
};
/* The lane's runners. */
struct lane_runner {
    void operator()() const
    {
        lane_main();
    }
};
struct lane_delta_runner {
    void operator()() const
    {
        lane_delta();
    }
};
} // namespace

/* The lines an activation of p starts with (prefetching, gsc.h): the first two of its context (the
 * block) and of its kernel process object `kobj` (a laned process: the context's fifth to eighth lines),
 * the records of up to four channels it listens to, then the next two of each; what is left over
 * repeats the context's first line. */
static void hot_lines(gsc_process *p, const void *kobj)
{
    const char *ctx = p->rt->ctx ? (const char *)p->rt->ctx : (const char *)kobj, *ko = (const char *)kobj;
    if (p->rt->laned) /* the lane never touches its kernel object: the context's next lines instead */
        ko = ctx + 256;
    const void **h = p->rt->hot;
    unsigned n = 0;
    auto add = [&](const void *a) {
        if (n < GSC_HOT_LINES)
            h[n++] = a;
    };
    add(ctx);
    add(ctx + 64);
    add(ko);
    add(ko + 64);
    for (size_t i = 0; i < p->chans.size() && i < 4; i++)
        add(p->chans[i]);
    add(ctx + 128);
    add(ctx + 192);
    add(ko + 128);
    add(ko + 192);
    while (n < GSC_HOT_LINES)
        h[n++] = ctx;
}

extern "C" gsc_process *gsc_process_new(gsc_module *m, const char *name, gsc_process_fn fn, void *ctx)
{
    need_elaboration("gsc_process_new");
    need_name("gsc_process_new", name);
    if (!fn)
        gsc_fatal("process '%s': no callback", name);
    gsc_process *p = new gsc_process;
    p->name = name;
    p->m = m;
    p->rt = new gsc_proc_rt;
    gsc_g.rts.push_back(p->rt);
    p->rt->m = m;
    p->rt->fn = fn;
    p->rt->ctx = ctx;
    p->rt->swake_sensitive = false;
    p->rt->swake.owner = p->rt->timer.owner = p->rt;
    p->events.push_back(&p->rt->timer.ev);
    p->initialize = false;
    p->clocked = false;
    gsc_g.procs.push_back(p);
    return p;
}

extern "C" void gsc_process_initialize(gsc_process *p)
{
    need_elaboration("gsc_process_initialize");
    p->initialize = true;
}

extern "C" void gsc_sensitive_clock(gsc_process *p, gsc_clock *c)
{
    need_elaboration("gsc_sensitive_clock");
    if (!p->clocked)
        gsc_g.n_clocked++;
    (void)c; /* the one core clock */
    p->clocked = true;
    p->events.push_back(gsc_g.cal.edge_ev);
}

extern "C" void gsc_sensitive_event(gsc_process *p, gsc_event *e)
{
    need_elaboration("gsc_sensitive_event");
    p->events.push_back(&e->ev);
    p->uevents.push_back(e);
}

/* p listens to a channel through its swake event: the first listener in *first, the others in
 * *more. */
static void listen(gsc_process *p, gsc_proc_rt **first, std::vector<gsc_proc_rt *> **more, const void *chan)
{
    if (chan && std::find(p->chans.begin(), p->chans.end(), chan) == p->chans.end())
        p->chans.push_back(chan);
    if (*first == p->rt)
        return;
    if (*more)
        for (gsc_proc_rt *q : **more)
            if (q == p->rt)
                return;
    if (!*first) {
        *first = p->rt;
    } else {
        if (!*more)
            *more = new std::vector<gsc_proc_rt *>;
        (*more)->push_back(p->rt);
    }
    if (!p->rt->swake_sensitive) {
        p->rt->swake_sensitive = true;
        p->events.push_back(&p->rt->swake.ev);
    }
}

extern "C" void gsc_sensitive_latch(gsc_process *p, gsc_latch *l)
{
    need_elaboration("gsc_sensitive_latch");
    listen(p, &l->on_change.first, &l->on_change.more, l);
}

extern "C" void gsc_sensitive_fifo_put(gsc_process *p, gsc_fifo *f)
{
    need_elaboration("gsc_sensitive_fifo_put");
    listen(p, &f->put_first, &f->put_more, f);
    gsc_fifo_note_rare(f);
}

extern "C" void gsc_sensitive_fifo_get(gsc_process *p, gsc_fifo *f)
{
    need_elaboration("gsc_sensitive_fifo_get");
    listen(p, &f->get_first, &f->get_more, f);
    gsc_fifo_note_rare(f);
}

extern "C" void gsc_sensitive_fifo_room(gsc_process *p, gsc_fifo *f)
{
    need_elaboration("gsc_sensitive_fifo_room");
    listen(p, &f->on_room.first, &f->on_room.more, nullptr);
}

/* (SystemC itself reports next_trigger outside a method process as an error.) Inside a run but
 * outside a C process, in an arrival hook, it would act on the process that ran last. */
static void need_process(const char *what)
{
    if (!gsc_g.in_run || !gsc_hot.in_process)
        gsc_fatal("%s: only allowed inside a running process", what);
}

/* next_trigger on ev; in GSC_CHECK_AWAKE, on ev or the next rising edge (a dynamic wait too ends in
 * every cycle there). */
static void wait_on(const sc_event &ev)
{
    gsc_proc_rt *rt = gsc_g.cur;
    rt->lane_next = GSC_NO_CYCLE; /* (the last wait asked for is the one) */
    rt->sc_wait = true;
    as_current as(rt);
    if (__builtin_expect(gsc_g.check == GSC_CHECK_AWAKE, 0))
        next_trigger(ev | *gsc_g.cal.edge_ev);
    else
        next_trigger(ev);
}

extern "C" void gsc_next_trigger_event(gsc_event *e)
{
    need_process("gsc_next_trigger_event");
    gsc_g.cur->dynamic = true;
    wait_on(e->ev);
}

/* Re-target the running process's wake-up event to n cycles from now (any earlier entry of it in
 * the calendar becomes stale). */
static gsc_event *wake_in(uint64_t n, const char *what)
{
    if (n == 0)
        gsc_fatal("%s: n must be at least 1", what);
    gsc_event *w = &gsc_g.cur->wake;
    int64_t target = (int64_t)gsc_now_cycle() + (int64_t)n;
    gsc_extend_horizon(target);
    w->due = target;
    cal_insert(w, target);
    return w;
}

/* The next cycle, on the shared next-cycle event (a laned process: the lane's next-cycle list), from a
 * running process (the caller checked), not in GSC_CHECK_SHUFFLE. Every process calls this in the
 * cycle before next_due (it runs after the ticker of its cycle; at cycle 0 an initialised process may
 * run before it, and next_due is then 1 too). */
[[gnu::always_inline]] static inline void wait_next_cycle(void)
{
    gsc_calendar &c = gsc_g.cal;
    int64_t target = (int64_t)gsc_hot.cycle + 1; /* (the current cycle, inside a process) */
    gsc_extend_horizon(target);
    c.next_due = target;
    cal_want(target);
    gsc_proc_rt *rt = gsc_g.cur;
    rt->awake_at = target;
    rt->dynamic = true;
    if (rt->laned) {
        if (rt->lane_next != target) {
            rt->lane_next = target;
            c.next_lane.push_back(rt);
        }
        if (__builtin_expect(rt->sc_wait, 0)) { /* the last wait asked for is the one */
            rt->sc_wait = false;
            as_current as(rt);
            next_trigger();
        }
        return;
    }
    c.next_sc = true;
    next_trigger(*c.next_ev);
}

extern "C" void gsc_next_trigger_cycles(uint64_t n)
{
    need_process("gsc_next_trigger_cycles");
    /* (GSC_CHECK_SHUFFLE: each process waits on its own event, which the ticker shuffles) */
    if (n == 1 && gsc_g.check != GSC_CHECK_SHUFFLE) {
        wait_next_cycle();
        return;
    }
    gsc_g.cur->dynamic = true;
    wait_on(wake_in(n, "gsc_next_trigger_cycles")->ev);
}

extern "C" void gsc_run_within(uint64_t n)
{
    need_process("gsc_run_within");
    if (n == 0)
        gsc_fatal("gsc_run_within: n must be at least 1");
    if (n == 1) { /* the shared next-cycle event (see gsc.h) */
        if (gsc_g.check != GSC_CHECK_SHUFFLE)
            wait_next_cycle();
        else
            gsc_next_trigger_cycles(1);
        return;
    }
    gsc_proc_rt *rt = gsc_g.cur;
    int64_t target = (int64_t)gsc_now_cycle() + (int64_t)n;
    gsc_extend_horizon(target);
    rt->timer.due = target;
    cal_insert(&rt->timer, target);
}

extern "C" uint64_t gsc_next_scheduled(void)
{
    need_process("gsc_next_scheduled");
    gsc_calendar &c = gsc_g.cal;
    const gsc_proc_rt *me = gsc_g.cur;
    int64_t now = (int64_t)gsc_now_cycle(), best = GSC_NO_CYCLE;
    auto consider = [&](const gsc_event *e) {
        if (e && e != &me->wake && e != &me->swake && e != &me->timer && e->due != GSC_NO_CYCLE &&
            e->due > now && e->due < best)
            best = e->due;
    };
    for (unsigned b = 0; b < GSC_WHEEL; b++)
        for (const gsc_event *e : c.bucket[b])
            consider(e);
    auto far = c.far; /* a copy: the heap has no iteration */
    for (; !far.empty(); far.pop())
        consider(far.top().second);
    consider(c.direct);
    /* the other processes waiting on the shared next-cycle event */
    if (c.next_due != GSC_NO_CYCLE && c.next_due > now && c.next_due < best)
        for (const gsc_proc_rt *rt : gsc_g.rts)
            if (rt != me && rt->awake_at == c.next_due) { /* (or its swake is pending for it: as good) */
                best = c.next_due;
                break;
            }
    return best == GSC_NO_CYCLE ? UINT64_MAX : (uint64_t)best;
}

extern "C" void gsc_next_trigger_event_or_cycles(gsc_event *e, uint64_t n)
{
    need_process("gsc_next_trigger_event_or_cycles");
    gsc_proc_rt *rt = gsc_g.cur;
    rt->dynamic = true;
    gsc_event *w = wake_in(n, "gsc_next_trigger_event_or_cycles");
    /* (as wait_on, with the or-list made in the call: the kernel keeps the list it is given) */
    rt->lane_next = GSC_NO_CYCLE;
    rt->sc_wait = true;
    as_current as(rt);
    if (__builtin_expect(gsc_g.check == GSC_CHECK_AWAKE, 0))
        next_trigger(w->ev | e->ev | *gsc_g.cal.edge_ev);
    else
        next_trigger(w->ev | e->ev);
}

/* ---------------------------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------------------------- */

extern "C" gsc_event *gsc_event_new(gsc_module *m, const char *name)
{
    need_elaboration("gsc_event_new");
    need_name("gsc_event_new", name);
    in_module under(m);
    return new gsc_event(name);
}

extern "C" void gsc_event_notify(gsc_event *e, uint64_t cycles)
{
    /* Inside a run "now" is the current cycle; between runs it is the next cycle to execute. */
    gsc_notify_at(e, (int64_t)gsc_now_cycle() + (int64_t)cycles);
}

extern "C" void gsc_event_cancel(gsc_event *e)
{
    e->due = GSC_NO_CYCLE; /* its calendar entry is stale */
    e->delta_pending = false;
    e->ev.cancel();
}

/* ---------------------------------------------------------------------------------------------
 * Elaboration and running
 * ------------------------------------------------------------------------------------------- */

/* Fire the starvation watcher 1 ps before cycle horizon+1: after every activation of the last
 * cycle anything is scheduled for. */
static void arm_starvation_watch(void)
{
    gsc_g.starve_ev->cancel();
    gsc_g.starve_ev->notify(
        sc_time::from_value((uint64_t)(gsc_g.horizon + 1) * gsc_g.period - 1 - gsc_now_ps()));
}

namespace
{
struct stopper {
    void operator()() const
    {
        sc_pause();
    }
};
/* Fires just before a cycle that nothing is scheduled for: ends a gsc_run for lack of activity. */
struct starvation_watch {
    void operator()() const
    {
        if (!gsc_g.watch_starvation)
            return;
        int64_t c = (int64_t)gsc_now_cycle(); /* the cycle about to start */
        if (gsc_g.horizon < c) {
            gsc_g.starved = true;
            sc_pause();
        } else {
            arm_starvation_watch();
        }
    }
};
} // namespace

static void check_ports(void)
{
    std::string unbound;
    unsigned n = 0;
    for (gsc_port *p : gsc_g.ports) {
        if (p->latch || p->fifo)
            continue;
        if (n++)
            unbound += ", ";
        unbound += "'" + p->name + "'";
    }
    if (n == 1)
        gsc_fatal("port %s is not bound", unbound.c_str());
    if (n > 1)
        gsc_fatal("%u ports are not bound: %s", n, unbound.c_str());
}

extern "C" void gsc_elaborate(void)
{
    need_init("gsc_elaborate");
    if (gsc_g.elaborated)
        return;
    if (!gsc_g.clock)
        gsc_fatal("no core clock: call gsc_clock_new during elaboration");
    check_ports();
    if (gsc_g.check == GSC_CHECK_SHUFFLE) /* processes woken by one event run in spawn order */
        check_shuffle(gsc_g.procs.data(), gsc_g.procs.size());
    gsc_g.tick_every = gsc_g.n_clocked || gsc_g.check == GSC_CHECK_AWAKE;
    /* The lane (gsc_impl.h): every process not clocked, unless a check mode is on (they check the
     * model's sleep and order through the kernel's own scheduling) or GPUSC_LANE=off. */
    gsc_g.lane_on = gsc_g.check == GSC_CHECK_OFF && !gsc_g.lane_off;
    gsc_g.traced_procs = gsc_trace_requested();
    gsc_g.cal.lane_ev = new sc_event();
    gsc_g.cal.lane_direct_ev = new sc_event();
    gsc_g.cal.lane_delta_ev = new sc_event();
    /* A laned process is statically sensitive, for the kernel, to this event only, which is never
     * notified (a method process without static sensitivity would be orphaned). */
    sc_event *park = new sc_event();

    for (gsc_process *p : gsc_g.procs) {
        if (gsc_g.check == GSC_CHECK_AWAKE && !p->clocked)
            p->events.push_back(gsc_g.cal.edge_ev);
        sc_spawn_options o;
        o.spawn_method();
        p->rt->laned = gsc_g.lane_on && !p->clocked;
        if (p->rt->laned) { /* static sensitivity kept by the calendar and the events */
            for (gsc_event *e : p->uevents) {
                if (!e->lane)
                    e->lane = new std::vector<gsc_proc_rt *>;
                if (std::find(e->lane->begin(), e->lane->end(), p->rt) == e->lane->end())
                    e->lane->push_back(p->rt);
            }
            o.set_sensitivity(park);
        } else {
            for (const sc_event *e : p->events)
                o.set_sensitivity(e);
        }
        if (p->initialize && !p->clocked) {
            gsc_extend_horizon(0);
        } else {
            /* a clocked process runs at cycle 0 through the first rising edge */
            o.dont_initialize();
        }
        in_module under(p->m);
        sc_process_handle h = gsc_g.traced_procs ? sc_spawn(trampoline_traced{p->rt}, p->name.c_str(), &o)
                                                  : sc_spawn(trampoline{p->rt}, p->name.c_str(), &o);
        p->rt->kproc = (sc_process_b *)h;
        hot_lines(p, h.get_process_object());
    }
    procs_free();
    {
        sc_spawn_options o;
        o.spawn_method();
        o.set_sensitivity(gsc_g.cal.tick_ev);
        o.dont_initialize();
        sc_spawn(ticker(), "gsc_ticker", &o);
    }
    if (gsc_g.lane_on) {
        sc_spawn_options o;
        o.spawn_method();
        o.set_sensitivity(gsc_g.cal.lane_ev);
        o.set_sensitivity(gsc_g.cal.lane_direct_ev);
        o.dont_initialize();
        sc_spawn(lane_runner(), "gsc_lane", &o);
        sc_spawn_options d;
        d.spawn_method();
        d.set_sensitivity(gsc_g.cal.lane_delta_ev);
        d.dont_initialize();
        sc_spawn(lane_delta_runner(), "gsc_lane_delta", &d);
        if (!gsc_g.cal.lane_deltas.empty()) /* delta notifications made during elaboration */
            gsc_g.cal.lane_delta_ev->notify(SC_ZERO_TIME);
    } else {
        for (gsc_event *e : gsc_g.cal.lane_deltas)
            e->delta_pending = false;
        gsc_g.cal.lane_deltas.clear();
    }
    /* Clocked processes (in GSC_CHECK_AWAKE, every process) run at every rising edge from cycle 0 on. */
    if (gsc_g.tick_every)
        cal_arm(0); /* a delta notification: the ticker runs at time 0 */

    gsc_g.stop_ev = new sc_event("gsc_stop_event");
    gsc_g.starve_ev = new sc_event("gsc_starvation_event");
    {
        sc_spawn_options o;
        o.spawn_method();
        o.set_sensitivity(gsc_g.stop_ev);
        o.dont_initialize();
        sc_spawn(stopper(), "gsc_stopper", &o);
    }
    {
        sc_spawn_options o;
        o.spawn_method();
        o.set_sensitivity(gsc_g.starve_ev);
        o.dont_initialize();
        sc_spawn(starvation_watch(), "gsc_starvation_watch", &o);
    }
    gsc_g.elaborated = true;
    gsc_trace_elaborate();
    for (const gsc_traceable &t : gsc_g.traceables) /* the trace records it made */
        if (t.fifo)
            gsc_fifo_note_rare(t.fifo);
}

extern "C" void gsc_stop(void)
{
    if (!gsc_g.in_run)
        gsc_fatal("gsc_stop: only allowed inside a running process");
    if (gsc_g.stopped)
        return;
    gsc_g.stopped = true;
    /* Pause 1 ps after the cycle's time: after every activation (and delta) of this cycle. */
    gsc_g.stop_ev->notify(sc_time::from_value(1));
}

extern "C" bool gsc_stopped(void)
{
    return gsc_g.stopped;
}

/* Run the kernel until just before cycle `target` (all of cycle target-1 executed), or a pause. */
static void run_until(uint64_t target)
{
    uint64_t now = gsc_now_ps();
    if (target == 0 || target * gsc_g.period - 1 <= now)
        return;
    uint64_t end = target * gsc_g.period - 1;
    gsc_g.in_run = true;
    try {
        sc_start(sc_time::from_value(end - now));
    } catch (const std::exception &e) {
        gsc_fatal("SystemC: %s", e.what());
    } catch (...) {
        gsc_fatal("SystemC: unknown C++ exception escaped the kernel");
    }
    gsc_g.in_run = false;
    cal_flush(); /* (every evaluation phase ends with an update phase: normally nothing is left) */
}

/* Run cycles up to `target` (exclusive), pausing at trace window boundaries; stops early on
 * gsc_stop or starvation. */
static void run_to(uint64_t target)
{
    for (;;) {
        uint64_t next = gsc_now_cycle();
        if (next >= target || gsc_g.stopped || gsc_g.starved)
            break;
        uint64_t seg = target;
        uint64_t b = gsc_trace_next_boundary(next);
        if (b > next && b < seg)
            seg = b;
        run_until(seg);
        gsc_trace_at_boundary(gsc_now_cycle());
    }
}

static void begin_run(void)
{
    need_init("gsc_run");
    gsc_elaborate();
    gsc_huge_run_starts();
    gsc_prefetch_run_starts();
    gsc_g.stopped = false;
    gsc_g.starved = false;
    gsc_trace_run_starts();
    gsc_trace_at_boundary(gsc_now_cycle());
}

extern "C" uint64_t gsc_run_cycles(uint64_t n)
{
    begin_run();
    uint64_t next = gsc_now_cycle(), cap = UINT64_MAX / 2 / gsc_g.period;
    run_to(n < cap - next ? next + n : cap);
    return gsc_now_cycle();
}

extern "C" uint64_t gsc_run(uint64_t max_cycles)
{
    begin_run();
    uint64_t next = gsc_now_cycle();
    /* The last cycle whose time fits SystemC's clock (in ps): a larger limit is no limit. */
    uint64_t cap = UINT64_MAX / 2 / gsc_g.period;
    uint64_t limit = max_cycles && max_cycles < cap - next ? next + max_cycles : cap;
    if (gsc_g.n_clocked == 0) {
        /* Only events can wake processes: watch for the moment nothing is scheduled any more. */
        if (gsc_g.horizon < (int64_t)next)
            return next;
        gsc_g.watch_starvation = true;
        arm_starvation_watch();
    }
    run_to(limit);
    gsc_g.watch_starvation = false;
    gsc_g.starve_ev->cancel();
    return gsc_now_cycle();
}
