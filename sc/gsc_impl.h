/* gsc_impl.h — internals shared by the C++ files of sc/ (never included by C code).
 *
 * The kernel state of the C API: one simulation per process (see gsc_reset in docs/sc-api.md).
 */
#ifndef GPUSC_SC_GSC_IMPL_H
#define GPUSC_SC_GSC_IMPL_H

#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <unordered_set>
#include <vector>

#include "sc/gsc.h"

/* A module is a real sc_module; the C handle is the object itself. */
struct gsc_module : public sc_core::sc_module {
    gsc_module *parent_;
    explicit gsc_module(const sc_core::sc_module_name &n, gsc_module *parent)
        : sc_core::sc_module(n), parent_(parent)
    {
    }
};

/* The core clock is not an sc_clock: the cycle is a number (time / period) and the rising edge an
 * event the wake-up calendar fires in every cycle while a clocked process exists (see below). */
struct gsc_clock {
    std::string name;
    uint64_t period_ps;
};

/* No timed notification pending (gsc_event.due). */
static const int64_t GSC_NO_CYCLE = INT64_MAX;

/* Every event of ours (gsc_event_new, the sensitivity events of latches and FIFOs, the private
 * wake-up event of each process) is a kernel event plus the cycle of its pending timed
 * notification, which lives in the wake-up calendar, not in the kernel's timed-event queue. */
struct gsc_proc_rt;
struct gsc_trace_marks;
struct alignas(32) gsc_event {
    /* (the calendar's fields first, the kernel event after: the ticker and the wake-ups read these
     * 32 bytes, on one cache line, the kernel event only when it is notified) */
    int64_t due = GSC_NO_CYCLE;
    /* The process whose static sensitivity holds this event and nothing else's: set for a
     * process's swake and timer events (gsc_calendar.direct), NULL otherwise. */
    gsc_proc_rt *owner = nullptr;
    /* A hook instead of a kernel notification (gsc_fifo_on_arrival): the calendar calls it. */
    gsc_process_fn hook = nullptr;
    void *hook_ctx = nullptr;
    sc_core::sc_event ev;
    /* The processes run on the lane (below) whose static sensitivity holds this event
     * (gsc_sensitive_event), NULL: none; read only when the event fires. */
    std::vector<gsc_proc_rt *> *lane = nullptr;
    /* A delta notification of it waits for the lane's delta runner (gsc_calendar.lane_deltas). */
    bool delta_pending = false;
    gsc_event() = default;
    explicit gsc_event(const char *name) : ev(name) {}
};

/* What the kernel's method process (or the lane) calls: the C callback and the process's wake-up events.
 * Lives as long as the simulation.
 *   - wake: the target of gsc_next_trigger_cycles (dynamic sensitivity);
 *   - swake: what its latch and FIFO sensitivities notify (the process is statically sensitive to
 *     it): several puts, gets and changes in a cycle that concern it are one calendar entry and one
 *     kernel trigger, not one per channel. */
struct alignas(64) gsc_proc_rt {
    /* What every activation and every wake-up reads or writes comes first, on one cache line with
     * the swake event's calendar fields (a wake-up reads `awake_at` and swake's `due`; the ticker
     * firing swake reads its owner's flags): the events' kernel parts are large and touched only when
     * notified. */
    gsc_process_fn fn;
    void *ctx;
    /* The last cycle a wake-up of the process (gsc_wake_one) has nothing to do for: the cycle it
     * waits for on the shared next-cycle event (gsc_next_trigger_cycles(1); its static events cannot
     * wake it then, the kernel would ignore the trigger), or the cycle a wake-up notified its swake
     * for (the notification stays pending until that cycle, whatever the process does before it).
     * Either way a later wake-up for that cycle would change nothing; once the cycle has started it
     * matches no wake-up (they are for later cycles). */
    int64_t awake_at = GSC_NO_CYCLE;
    bool swake_sensitive; /* swake is in the process's static sensitivity */
    bool dynamic = false; /* its last activation called next_trigger: static events cannot wake it */
    bool laned = false;   /* run by the lane, not by the kernel's scheduler (gsc_calendar, "lane") */
    bool sc_wait = false; /* laned: this activation gave the kernel a dynamic wait (next_trigger) */
    gsc_event swake;      /* (at byte 32) what its latch and FIFO sensitivities notify */
    /* The second line: the prefetching's successors (gsc.h: the process that ran right after this one
     * in the last even and odd cycle), the lane's marks, and the timer's calendar fields (each
     * activation clears its `due`). */
    alignas(64) gsc_proc_rt *succ[2] = {nullptr, nullptr};
    /* Laned: the kernel's evaluation phase (its change stamp) whose lane batch holds it, and the
     * cycle it waits for on the lane's next-cycle list (GSC_NO_CYCLE: none). */
    uint64_t lane_mark = UINT64_MAX;
    int64_t lane_next = INT64_MAX;
    gsc_event timer; /* (at byte 96) gsc_run_within: statically sensitive; each activation cancels it */
    gsc_event wake;
    gsc_module *m = nullptr; /* the module it belongs to */
    /* Traced: the traced variables its activation may change (gsc_trace.cc), NULL: none. */
    const gsc_trace_marks *tmarks = nullptr;
    sc_core::sc_process_b *kproc = nullptr; /* its kernel method process */
    /* Prefetching (gsc.h): the lines this one's activation starts with and those its last activation
     * named (three lines of the record, from `hot`). */
    alignas(64) const void *hot[GSC_HOT_LINES] = {};
    unsigned n_next = 0; /* the lines its last activation named for its next (gsc_prefetch_next) */
    const void *next[GSC_NEXT_LINES] = {};
};
static_assert(offsetof(gsc_proc_rt, swake) == 32 && offsetof(gsc_proc_rt, timer) % 64 == 32,
              "the swake's and the timer's calendar fields share a line with what reads them");

/* The processes statically sensitive to a channel's put, get or change: the first in the channel
 * itself (most channels have one listener, and a wake-up then reads no list), the others in `more`
 * (NULL: none). Empty: nobody listens. */
struct gsc_listeners {
    gsc_proc_rt *first = nullptr;
    std::vector<gsc_proc_rt *> *more = nullptr;
    explicit operator bool() const
    {
        return first != nullptr;
    }
};

struct gsc_process {
    std::string name;
    gsc_module *m;
    gsc_proc_rt *rt;
    bool initialize;
    bool clocked;
    std::vector<const sc_core::sc_event *> events;
    std::vector<gsc_event *> uevents; /* the events of gsc_sensitive_event (a laned process's) */
    std::vector<const void *> chans; /* the latches and FIFOs it listens to (prefetching) */
};

struct gsc_latch {
    std::string name; /* full dotted name */
    const gsc_type *type;
    size_t size;
    unsigned char *buf[2];      /* two slots: the latest write and the one before */
    int64_t stamp[2];           /* the cycle each slot was written in */
    unsigned w;                 /* index of the slot holding the latest write */
    struct gsc_latch_trace *tr; /* its trace record (gsc_trace.cc), NULL if no field is traced */
    gsc_listeners on_change;    /* woken in the cycle after a changing write */
    gsc_port *writer;           /* the out port bound to it, if any */
};

/* The trace side of a traced latch (gsc_trace.cc): a copy of its latest write, which the writer
 * compares with what it last wrote only in a cycle the latch was written in. */
struct gsc_latch_trace {
    unsigned char *mirror;
    bool dirty; /* written since the writer last looked */
    bool moved; /* a change of one of its fields was written after the dump */
    std::vector<unsigned> sigs;
};

/* The trace side of a traced FIFO (gsc_trace.cc): one copy per item put in the current cycle (a
 * cycle puts at most depth items: a slot freed by a get is refilled from the next cycle on), the
 * items put and got in it, and its signals. */
struct gsc_fifo_trace {
    unsigned char *slots; /* n_slots copies of an item (only bytes [lo, hi) are copied) */
    unsigned n_slots;     /* depth when a field is traced, else 0 */
    size_t lo, hi;
    unsigned puts, gets;                     /* in the cycle the writer has not written yet */
    unsigned max_puts;                       /* the most items put in one cycle written so far */
    uint32_t full;                           /* <fifo>.full: the occupancy is the depth */
    bool dirty;                              /* put or got since the writer last looked */
    unsigned dump_n;                         /* the occupancy in the dump */
    int put_sig, get_sig, full_sig, occ_sig; /* signal indices, -1 when not traced */
    unsigned n_fields;                       /* traced fields per slot */
    std::vector<unsigned> field_sigs;        /* slot-major: slot s, field k at s * n_fields + k */
};

/* The item in ring slot i (after its stamp). */
static inline unsigned char *gsc_fifo_item(const gsc_fifo_hdr *f, unsigned i)
{
    return f->ring + (size_t)i * f->stride + sizeof(int64_t);
}

/* The ring's state (the ring, head, n, depth, freed_n, freed_at, stride) is the C-visible base
 * gsc_fifo_hdr (sc/gsc.h), at offset 0, read by the inline queries; n is traced directly as
 * <fifo>.occupancy. */
/* What a put or a get reads is on the record's first cache line (it is 64-byte aligned): the ring's
 * state, the bytes to copy (`copy`, or the type's `used` function), whether there is more to do
 * than wake one listener (`rare`), and the first listener of each direction. The rest (the type,
 * further listeners, the arrival hook, the trace) is read only when `rare` or `copy` says so. */
enum {
    GSC_FIFO_RARE_PUT = 1, /* a put also traces, lists an arrival hook or wakes more than put_first */
    GSC_FIFO_RARE_GET = 2, /* a get also traces or wakes more than get_first */
};
struct alignas(64) gsc_fifo : gsc_fifo_hdr {
    size_t (*used)(const void *item); /* the type's used function when `copy` is 0 (NULL: ask the type) */
    gsc_proc_rt *put_first;           /* the first process woken in the cycle after a put (NULL: none) */
    gsc_proc_rt *get_first;           /* the first process woken in the cycle after a get (NULL: none) */
    /* (the second line) */
    const gsc_type *type;
    unsigned open_slot; /* 1 + the slot gsc_fifo_put_slot handed out, 0: none open */
    std::vector<gsc_proc_rt *> *put_more, *get_more; /* the other listeners (NULL: none) */
    gsc_listeners on_room;         /* woken when room appears after a refused can_put */
    gsc_event *arrival;            /* its hook event (gsc_fifo_on_arrival), NULL: none */
    gsc_fifo_trace *tr;            /* NULL unless one of its signals is traced */
    size_t size;
    gsc_port *producer, *consumer; /* the out and in ports bound to it, if any */
    std::string name;
};
/* Recompute f->rare from its trace, arrival hook and listeners (after any of them changes: they are
 * set during elaboration only). */
void gsc_fifo_note_rare(gsc_fifo *f);

/* The bytes of item that a put or get copies (gsc_type.used, used_by_key): f->copy unless the type
 * has a used prefix (or is 64 KB or more), which only then is looked up. */
static inline size_t gsc_fifo_used_bytes(const gsc_fifo *f, const void *item)
{
    if (__builtin_expect(f->copy != 0, 1))
        return f->copy;
    if (f->used)
        return f->used(item);
    const gsc_type *t = f->type;
    if (t->used_by_key) {
        unsigned k = ((const unsigned char *)item)[t->used_key];
        return k < t->n_used_by_key ? t->used_by_key[k] : f->size;
    }
    return f->size;
}

struct gsc_port {
    std::string name;
    gsc_module *m;
    gsc_dir dir;
    gsc_chan_kind kind; /* what it may be bound to */
    const gsc_type *type;
    gsc_latch *latch;
    gsc_fifo *fifo;
};

/* Something that may be traced, in declaration order. */
struct gsc_traceable {
    gsc_latch *latch; /* a latch (all its fields), or */
    gsc_fifo *fifo;   /* a FIFO (its put strobe, fields and occupancy), or */
    gsc_pulse *pulse; /* a pulse (traced as its count), or */
    bool counter;     /* the cycle counter, or */
    std::string name; /* a variable: full name, */
    gsc_ctype ctype;
    const void *addr;
    unsigned width;
    const gsc_enum *en; /* a variable's enumeration (gsc_trace_var_enum) */
    bool strobe;        /* a variable that means "this cycle" (gsc_trace_var_strobe) */
    bool detail;        /* the pattern "*" alone does not select it (gsc_trace_var_detail) */
    bool *traced_flag;  /* set at elaboration to whether it is traced (gsc_trace_var_flag), or NULL */
    gsc_module *owner;  /* a variable's module: the block whose activations change it */
};

/* The wake-up calendar. Every notification for a later cycle (an event's, a FIFO's or latch's
 * sensitivity event, a process's gsc_next_trigger_cycles) is an entry here instead of a timed
 * notification in the kernel's queue; one kernel method process, the ticker, runs at the first
 * cycle that has entries (one timed kernel event per active cycle, none in idle cycles) and fires
 * that cycle's events with immediate notifications, so the processes they wake run in the same
 * evaluation phase, at the start of the cycle, as a timed notification would have woken them.
 *   - entries less than GSC_WHEEL cycles ahead go into a wheel of buckets (one per cycle, modulo
 *     GSC_WHEEL, with a bitmap of the non-empty ones); later ones into a min-heap, moved into the
 *     wheel when they come within reach;
 *   - an entry is stale when its event's `due` is no longer its cycle (the event was re-targeted,
 *     cancelled, or notified earlier); the ticker skips it. */
enum { GSC_WHEEL = 1024, GSC_BUCKET_RESERVE = 16 };
typedef std::pair<int64_t, gsc_event *> gsc_cal_entry;
struct gsc_calendar {
    std::vector<gsc_event *> bucket[GSC_WHEEL];
    uint64_t bits[GSC_WHEEL / 64] = {};
    unsigned n_buckets = 0; /* non-empty buckets */
    std::priority_queue<gsc_cal_entry, std::vector<gsc_cal_entry>, std::greater<gsc_cal_entry>> far;
    int64_t tick_due = GSC_NO_CYCLE; /* the cycle the ticker's kernel event is pending for */
    /* Inside a run the ticker is armed once per delta cycle, in the update phase, for the earliest
     * cycle anything asked for during the evaluation (`want`): arming at each insertion meant either
     * guessing the next cycle (a tick with nothing to do when the guess was wrong) or moving the
     * kernel's timed notification earlier again and again. */
    int64_t want = GSC_NO_CYCLE;
    struct gsc_cal_chan *chan = nullptr; /* the primitive channel whose update() arms it */
    /* A cycle whose only entry is one event of a process (its swake or timer, the process not in a
     * dynamic wait) needs no ticker: the event gets the kernel's timed notification itself
     * (`direct`, for `direct_at`). The process's activation then clears it and asks the update
     * phase to look for the next entry (`rescan`); an entry for that cycle or an earlier one, or the
     * process running before it, undoes it (the event goes back into its bucket, the ticker is
     * armed). Saves the ticker's activation and an immediate notification per such cycle. */
    gsc_event *direct = nullptr;
    int64_t direct_at = GSC_NO_CYCLE;
    bool rescan = false;
    sc_core::sc_event *tick_ev = nullptr;
    sc_core::sc_event *edge_ev = nullptr; /* the rising edge: what clocked processes are sensitive to */
    /* gsc_next_trigger_cycles(1): the processes that wait for the next cycle all wait on next_ev,
     * which the ticker fires at cycle next_due (they all called in the cycle before it). */
    sc_core::sc_event *next_ev = nullptr;
    int64_t next_due = GSC_NO_CYCLE;
    sc_core::sc_time one_cycle;            /* the period as an sc_time: the usual delay of cal_arm */
    std::vector<gsc_event *> hooks;        /* the ticker's arrival hooks of its cycle: one per FIFO at most */
    /* The arrival hooks of every FIFO are one calendar entry per cycle: a put lists its FIFO's
     * arrival event (once per cycle: its `due` is the cycle it is listed for) in `arriving` and
     * notifies `arrivals`, whose hook (gsc_run_arrivals) runs the listed ones in the order they were
     * listed, a calendar insertion per cycle instead of one per FIFO. */
    gsc_event *arrivals = nullptr;
    std::vector<gsc_event *> arriving;
    std::vector<gsc_event *> arrived; /* gsc_run_arrivals: those it runs in its cycle */
    std::vector<sc_core::sc_event *> fire; /* GSC_CHECK_SHUFFLE: the cycle's events, to shuffle */
    /* The lane. The kernel's cost of an activation (its event's trigger of the process, the runnable
     * queue, the dispatch, next_trigger's sensitivity lists: about 190 instructions and a dozen
     * cache lines of kernel objects per activation) is paid once per batch instead: a laned
     * process (every process that is not clocked, when no check mode is on) has no static
     * sensitivity in the kernel; the ticker puts the laned processes its events wake, and those
     * waiting for this cycle on `next_lane`, into the batch `lane` and notifies `lane_ev`, whose
     * method process (the lane runner) runs them one after the other, as the kernel would have
     * in the same evaluation phase. A direct cycle's laned owner is woken through `lane_direct_ev`,
     * a delta notification of an event with laned listeners through `lane_deltas` and
     * `lane_delta_ev` (the next delta cycle, as the kernel would). A laned process may still wait
     * on the kernel (gsc_next_trigger_event, cycles > 1): the kernel then runs it (trampoline). */
    std::vector<gsc_proc_rt *> next_lane;  /* laned processes waiting for next_due (lane_next) */
    bool next_sc = false;                  /* a process not laned waits on next_ev */
    std::vector<gsc_proc_rt *> lane;       /* the batch the lane runner will run */
    std::vector<gsc_proc_rt *> lane_run;   /* the batch it is running */
    std::vector<gsc_event *> lane_deltas, lane_deltas_run;
    sc_core::sc_event *lane_ev = nullptr, *lane_direct_ev = nullptr, *lane_delta_ev = nullptr;
};

/* A 2 MiB-aligned range of anonymous memory (gsc_host.cc). */
struct gsc_huge_extent {
    uintptr_t lo, hi;
};

struct gsc_state {
    bool inited = false;
    bool elaborated = false;
    bool in_run = false;  /* inside sc_start */
    bool stopped = false; /* gsc_stop was called in the current (or last) run */
    bool starved = false; /* the last gsc_run ended for lack of activity */
    bool watch_starvation = false;
    std::string program;
    gsc_clock *clock = nullptr;
    uint64_t period = 0;  /* in kernel time units (1 ps) */
    int64_t horizon = -1; /* latest cycle any notification of ours targets */
    unsigned n_clocked = 0;
    /* The ticker runs in every cycle: a clocked process exists, or GSC_CHECK_AWAKE (every process is
     * then sensitive to the edge event too). */
    bool tick_every = false;
    gsc_check_mode check = GSC_CHECK_OFF;
    gsc_huge_mode huge = GSC_HUGE_AUTO; /* host memory (gsc_host.cc) */
    gsc_huge_report huge_last = {};
    gsc_prefetch_mode prefetch_mode = GSC_PREFETCH_AUTO;
    bool lane_off = false; /* GPUSC_LANE=off: every process on the kernel's scheduler */
    bool lane_on = false;  /* this elaboration made laned processes */
    bool in_lane = false;  /* a lane runner is running a laned process (the kernel's current
                            * process is the runner) */
    bool traced_procs = false; /* processes mark their traced variables (a trace file was asked for) */
    gsc_huge_extent huge_extents[64]; /* what the last run start advised */
    unsigned n_huge_extents = 0;
    uint64_t rng = 0; /* GSC_CHECK_SHUFFLE: the state of its generator */
    uint64_t activations = 0;
    uint64_t lane_activations = 0; /* gsc_lane_activations */
    uint64_t prefetch_hits = 0; /* gsc_prefetch_hits */
    /* gsc_cycle cache: the time it was computed at and the result */
    uint64_t cache_t = 0, cache_c = 0;
    /* the kernel's context, cached: one simulation per process, it never changes */
    sc_core::sc_simcontext *simc = nullptr;
    sc_core::sc_event *stop_ev = nullptr;
    sc_core::sc_event *starve_ev = nullptr;
    gsc_proc_rt *cur = nullptr; /* the process running now */
    gsc_calendar cal;
    std::vector<gsc_process *> procs;
    std::vector<gsc_proc_rt *> rts; /* every process's run-time part (kept after elaboration) */
    std::vector<gsc_port *> ports;
    std::vector<gsc_traceable> traceables;
    /* full names of the latches, FIFOs, ports and traced variables (kernel objects have their own) */
    std::unordered_set<std::string> names;
};

extern gsc_state gsc_g;

/* The kernel's current time in ps (the inline accessor of the cached context: sc_time_stamp() is a
 * library call). */
static inline uint64_t gsc_now_ps()
{
    return gsc_g.simc->time_stamp().value();
}

/* The current cycle: ceil(time / period). During a cycle's activations the time is exactly
 * cycle * period; between runs it is just below the next cycle to execute. */
static inline uint64_t gsc_now_cycle()
{
    uint64_t t = gsc_g.simc->time_stamp().value();
    if (__builtin_expect(t != gsc_g.cache_t, 0)) {
        gsc_g.cache_t = t;
        gsc_g.cache_c = gsc_g.period ? (t + gsc_g.period - 1) / gsc_g.period : 0;
    }
    return gsc_g.cache_c;
}

/* The cycle a write/put/get made now is stamped with: the current cycle inside a run; between
 * runs (elaboration, a harness poking channels), the last executed cycle, so that the next cycle
 * to run sees it. */
static inline int64_t gsc_write_cycle()
{
    if (gsc_hot.in_process) /* the trampoline's copy of the current cycle */
        return (int64_t)gsc_hot.cycle;
    int64_t c = (int64_t)gsc_now_cycle();
    return gsc_g.in_run ? c : c - 1;
}

/* The full dotted name of `name` under m (NULL: top level), checked to be new; `what` names the
 * call for error messages. */
std::string gsc_new_name(const char *what, gsc_module *m, const char *name);

/* Notify e so that it fires at the start of cycle `target` (delta-notify if that is now). An
 * earlier pending notification wins. */
void gsc_notify_at_slow(gsc_event *e, int64_t target);
/* Every notification of ours extends the horizon: the starvation watcher needs the latest target. */
static inline void gsc_extend_horizon(int64_t target)
{
    if (target > gsc_g.horizon)
        gsc_g.horizon = target;
}

static inline void gsc_notify_at(gsc_event *e, int64_t target)
{
    gsc_extend_horizon(target);
    /* The common case (several puts and gets in a cycle wake the same listener for the next one):
     * an earlier or equal notification is pending. A pending one is always for a cycle that has
     * not started, so target is later than now and nothing else applies. */
    if (e->due <= target)
        return;
    gsc_notify_at_slow(e, target);
}

/* The arrival hook of a FIFO's put (its event e) runs at the start of cycle `target`. */
static inline void gsc_arrival(gsc_event *e, int64_t target)
{
    if (e->due == target)
        return; /* listed already */
    e->due = target;
    gsc_g.cal.arriving.push_back(e);
    gsc_notify_at(gsc_g.cal.arrivals, target);
}
/* The hook of gsc_calendar.arrivals. */
void gsc_run_arrivals(void *ctx);

/* Wake a listener (its swake event) at the start of cycle `target`. */
static inline void gsc_wake_one(gsc_proc_rt *p, int64_t target)
{
    if (p->awake_at != target) {
        p->awake_at = target;
        gsc_notify_at(&p->swake, target);
    }
}

/* Wake each of the listeners `more` (NULL: none) at the start of cycle `target`. */
static inline void gsc_wake_more(const std::vector<gsc_proc_rt *> *more, int64_t target)
{
    if (__builtin_expect(more != nullptr, 0))
        for (gsc_proc_rt *p : *more)
            gsc_wake_one(p, target);
}

/* Wake every listener at the start of cycle `target` (none: nothing). */
static inline void gsc_wake(const gsc_listeners &l, int64_t target)
{
    if (!l.first)
        return;
    gsc_wake_one(l.first, target);
    gsc_wake_more(l.more, target);
}

/* Trace side (gsc_trace.cc). */
void gsc_trace_elaborate(void);
/* Whether a trace file was asked for (gsc_elaborate then spawns the processes with a trampoline that
 * marks their traced variables). */
bool gsc_trace_requested(void);
/* An activation of a process (or an arrival hook) with these marks is about to run: its traced
 * variables are compared at the end of the cycle. */
void gsc_trace_mark(const gsc_trace_marks *m);
/* A run starts: what changed between runs is looked for in the next cycle written. */
void gsc_trace_run_starts(void);
/* Just after a put on a traced FIFO (f->tr set): copy the item (the last one in the ring) into the
 * cycle's next slot and count it. */
void gsc_trace_fifo_put(gsc_fifo *f);
/* Just after a get on a traced FIFO (f->tr set): count it. */
void gsc_trace_fifo_get(gsc_fifo *f);
/* A write to a traced latch (l->tr set): copy it, mark the latch for the writer. */
void gsc_trace_latch_write(gsc_latch *l, const void *value);
/* Cycle boundaries where the run must pause for the trace window (UINT64_MAX: none). */
uint64_t gsc_trace_next_boundary(uint64_t next_cycle);
void gsc_trace_at_boundary(uint64_t next_cycle);
void gsc_trace_atexit(void);
/* gsc_reset: close the trace file if open and forget the trace state. */
void gsc_trace_reset(void);

/* Host memory (gsc_host.cc): read GPUSC_HUGEPAGES (gsc_init, gsc_reset); ask the host for 2 MiB pages
 * as the mode says (every run start). */
void gsc_huge_from_env(void);
void gsc_huge_run_starts(void);
void gsc_prefetch_from_env(void);
void gsc_lane_from_env(void);
void gsc_prefetch_run_starts(void);

#endif /* GPUSC_SC_GSC_IMPL_H */
