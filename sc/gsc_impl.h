/* gsc_impl.h — internals shared by the C++ files of sc/ (never included by C code).
 *
 * The kernel state of the C API: one simulation per process (see gsc_reset in docs/sc-api.md).
 */
#ifndef GPUSC_SC_GSC_IMPL_H
#define GPUSC_SC_GSC_IMPL_H

#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <cstdint>
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

struct gsc_clock {
    sc_core::sc_clock *clk;
    uint64_t period_ps;
};

struct gsc_event {
    sc_core::sc_event ev;
    explicit gsc_event(const char *name) : ev(name) {}
};

struct gsc_process {
    std::string name;
    gsc_module *m;
    gsc_process_fn fn;
    void *ctx;
    bool initialize;
    bool clocked;
    std::vector<const sc_core::sc_event *> events;
};

struct gsc_latch {
    std::string name; /* full dotted name */
    const gsc_type *type;
    size_t size;
    unsigned char *buf[2];      /* two slots: the latest write and the one before */
    int64_t stamp[2];           /* the cycle each slot was written in */
    unsigned w;                 /* index of the slot holding the latest write */
    unsigned char *mirror;      /* traced copy of the latest write (NULL if not traced) */
    sc_core::sc_event *changed; /* notified for the cycle after a changing write (NULL: nobody listens) */
    gsc_port *writer;           /* the out port bound to it, if any */
};

/* The trace side of a traced FIFO (gsc_trace.cc); a FIFO nothing of which but its occupancy is
 * traced has none. */
struct gsc_fifo_trace {
    unsigned char *mirror; /* the last item put (only bytes [lo, hi) are copied: the traced fields) */
    size_t lo, hi;
    bool put;          /* the <fifo>.put strobe that sc_trace watches */
    bool pending;      /* in the list of strobes to lower (gsc_trace.cc) */
    int64_t put_shown; /* the cycle the strobe is high for */
};

struct gsc_fifo {
    std::string name;
    const gsc_type *type;
    size_t size, stride;
    unsigned depth;
    unsigned char *items; /* ring of depth items */
    int64_t *stamps;      /* put cycle of each ring slot */
    unsigned head, n;     /* n: the occupancy (traced directly as <fifo>.occupancy) */
    int64_t freed_at;     /* the cycle freed_n refers to */
    unsigned freed_n;     /* slots freed by gets in cycle freed_at */
    sc_core::sc_event *put_ev, *get_ev;
    gsc_fifo_trace *tr;            /* NULL unless a field or the put strobe is traced */
    gsc_port *producer, *consumer; /* the out and in ports bound to it, if any */
};

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
    std::string name; /* a variable: full name, */
    gsc_ctype ctype;
    const void *addr;
    unsigned width;
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
    uint64_t activations = 0;
    /* gsc_cycle cache: the time it was computed at and the result */
    uint64_t cache_t = 0, cache_c = 0;
    /* the kernel's context, cached: one simulation per process, it never changes */
    sc_core::sc_simcontext *simc = nullptr;
    sc_core::sc_event *stop_ev = nullptr;
    sc_core::sc_event *starve_ev = nullptr;
    std::vector<gsc_process *> procs;
    std::vector<gsc_port *> ports;
    std::vector<gsc_traceable> traceables;
    /* full names of the latches, FIFOs, ports and traced variables (kernel objects have their own) */
    std::unordered_set<std::string> names;
};

extern gsc_state gsc_g;

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
    int64_t c = (int64_t)gsc_now_cycle();
    return gsc_g.in_run ? c : c - 1;
}

/* The full dotted name of `name` under m (NULL: top level), checked to be new; `what` names the
 * call for error messages. */
std::string gsc_new_name(const char *what, gsc_module *m, const char *name);

/* Notify e so that it fires at the start of cycle `target` (delta-notify if that is now). */
void gsc_notify_at(sc_core::sc_event *e, int64_t target);

/* Trace side (gsc_trace.cc). */
void gsc_trace_elaborate(void);
/* Just after a put on a traced FIFO (f->tr set): mirror the item (the last one in the ring), raise
 * the put strobe for this cycle. */
void gsc_trace_fifo_put(gsc_fifo *f);
/* Cycle boundaries where the run must pause for the trace window (UINT64_MAX: none). */
uint64_t gsc_trace_next_boundary(uint64_t next_cycle);
void gsc_trace_at_boundary(uint64_t next_cycle);
void gsc_trace_atexit(void);
/* gsc_reset: close the trace file if open and forget the trace state. */
void gsc_trace_reset(void);

#endif /* GPUSC_SC_GSC_IMPL_H */
