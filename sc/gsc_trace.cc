/* gsc_trace.cc — VCD tracing: our own writer, driven by the kernel at the end of every time step.
 *
 * - Selection: at elaboration, every latch field (<latch>.<field>), every FIFO signal (<fifo>.put,
 *   <fifo>.<field>, <fifo>.get, <fifo>.full, <fifo>.occupancy, <fifo>.putN.<field>) and every
 *   gsc_trace_var and pulse whose full dotted name matches one of the glob patterns
 *   (g_pattern_match_simple), or has a dotted prefix that matches one, is traced; leading
 *   components may be left out of a pattern ("sm0.*" selects "gpu.sm0.issue.out.warp"). OPAQUE
 *   fields are never traced.
 * - Cost: a latch write, FIFO put or get, or pulse marks its record dirty (one list append per
 *   cycle and record); at the end of a cycle the writer compares only the dirty records' signals and
 *   the traced variables with what it last wrote, and writes the changes at cycle * period.
 * - A FIFO is lossless: <fifo>.put counts the items put in the cycle, and the k-th of them shows in
 *   <fifo>.<field> (k = 0) or <fifo>.put<k>.<field>; <fifo>.get counts the items got. Counts and
 *   pulses fall back to 0 half a cycle later, so back-to-back cycles show as separate pulses.
 * - Window: the file is created when the run reaches from_cycle (the run pauses there), with the
 *   state left before it as the dump at #(from * period), and closed once to_cycle has executed.
 * - The file is written once, in order (header, dump, changes), never patched: it can be a pipe.
 *   The $date is fixed, so two runs give byte-identical files.
 */
#include "sc/gsc_impl.h"

#include <glib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <unordered_set>

using namespace sc_core;

namespace
{
struct traced_signal {
    std::string name;
    std::string group; /* the block instance, latch or FIFO it belongs to */
    unsigned width;
    bool real;
    gsc_ctype ctype;
    const void *addr;
    const gsc_enum *en = nullptr;         /* shown by these names */
    bool counter = false;                 /* the cycle counter */
    const gsc_fifo_trace *fifo = nullptr; /* a field of a FIFO's second, third... item of a cycle: */
    unsigned slot = 0;                    /* ... its FIFO and slot (1, 2...) */
    const gsc_latch_trace *latch = nullptr; /* the latch or FIFO whose signal it is, if any */
    const gsc_fifo *chan = nullptr;
    std::string code;                     /* VCD identifier */
};

/* How a signal's value is written: one character (a 1-bit wire), "b<bits>", or "r<real>". */
enum : uint8_t { FORM_BIT, FORM_VEC, FORM_REAL };

/* How a signal's current value is known:
 *   - KIND_PLAIN: an unsigned variable; `val` holds its bytes when last looked at, which are what
 *     was written (or x, when they do not fit the width);
 *   - KIND_COUNT: a count written directly (put, get, pulse) or a strobe variable; `val` is the
 *     value last written (0 when x_shown);
 *   - KIND_TYPED: a signed or floating-point variable; `val` holds its bytes when last looked at,
 *     the value written is in trace_state::typed_shown. */
enum : uint8_t { KIND_PLAIN, KIND_COUNT, KIND_TYPED };

/* What the writer looks at when a signal may change: 32 bytes per signal, in an array of its own
 * (the names and the rest of traced_signal are only read at elaboration and by the .gtkw), so
 * that the records of a busy run's signals stay in the processor's caches. */
struct alignas(32) hot_signal {
    const void *addr = nullptr; /* the variable (NULL: a count written directly) */
    uint64_t val = 0;           /* see the kinds */
    char tail[8] = {};          /* what follows a value: "<code>\n" (a scalar), " <code>\n" */
    uint8_t tail_len = 0;       /* (put_value copies all 8 bytes, then keeps tail_len) */
    uint8_t nbytes = 0;         /* the variable's size (1, 2, 4 or 8; 0: no variable) */
    uint8_t form = FORM_VEC;
    uint8_t kind = KIND_PLAIN;
    uint8_t shift = 0; /* 64 - width: a value fits when shifting it up and back keeps it */
    uint8_t width = 0;
    uint8_t ctype = 0;    /* a gsc_ctype */
    bool x_shown = false; /* the last value written was x (did not fit the width) */
};
static_assert(sizeof(hot_signal) == 32, "a hot_signal is half a cache line");

static inline bool fits_width(const hot_signal &s, uint64_t v)
{
    return (v << s.shift) >> s.shift == v;
}

/* The writer: a trace file of the kernel's, so that the kernel calls cycle() at the end of every
 * time step; every other member is SystemC's sc_trace interface, which is never used. */
class gsc_vcd_writer : public sc_trace_file
{
  public:
#define GSC_TRACE_UNUSED_A(tp)                                                                               \
    void trace(const tp &, const std::string &) override {}
#define GSC_TRACE_UNUSED_B(tp)                                                                               \
    void trace(const tp &, const std::string &, int) override {}
    GSC_TRACE_UNUSED_A(sc_event)
    GSC_TRACE_UNUSED_A(sc_time)
    GSC_TRACE_UNUSED_A(bool)
    GSC_TRACE_UNUSED_A(sc_dt::sc_bit)
    GSC_TRACE_UNUSED_A(sc_dt::sc_logic)
    GSC_TRACE_UNUSED_B(unsigned char)
    GSC_TRACE_UNUSED_B(unsigned short)
    GSC_TRACE_UNUSED_B(unsigned int)
    GSC_TRACE_UNUSED_B(unsigned long)
    GSC_TRACE_UNUSED_B(char)
    GSC_TRACE_UNUSED_B(short)
    GSC_TRACE_UNUSED_B(int)
    GSC_TRACE_UNUSED_B(long)
    GSC_TRACE_UNUSED_B(sc_dt::int64)
    GSC_TRACE_UNUSED_B(sc_dt::uint64)
    GSC_TRACE_UNUSED_A(float)
    GSC_TRACE_UNUSED_A(double)
    GSC_TRACE_UNUSED_A(sc_dt::sc_int_base)
    GSC_TRACE_UNUSED_A(sc_dt::sc_uint_base)
    GSC_TRACE_UNUSED_A(sc_dt::sc_signed)
    GSC_TRACE_UNUSED_A(sc_dt::sc_unsigned)
    GSC_TRACE_UNUSED_A(sc_dt::sc_fxval)
    GSC_TRACE_UNUSED_A(sc_dt::sc_fxval_fast)
    GSC_TRACE_UNUSED_A(sc_dt::sc_fxnum)
    GSC_TRACE_UNUSED_A(sc_dt::sc_fxnum_fast)
    GSC_TRACE_UNUSED_A(sc_dt::sc_bv_base)
    GSC_TRACE_UNUSED_A(sc_dt::sc_lv_base)
#undef GSC_TRACE_UNUSED_A
#undef GSC_TRACE_UNUSED_B
    void trace(const unsigned int &, const std::string &, const char **) override {}
    void write_comment(const std::string &) override {}
    void set_time_unit(double, sc_time_unit) override {}

  protected:
    void cycle(bool delta_cycle) override;
};

/* A traced variable of a known size as the writer compares it: its address, its bytes when last
 * looked at, its signal. Its place in the order in which the changes of a cycle are written (rank)
 * is its size class (0: 1 byte ... 3: 8 bytes), then its signal. */
struct sized_var {
    const void *addr;
    uint64_t raw;
    unsigned sig;
};
/* A strobe variable as the writer compares it (rank: STROBE_RANK, then its signal). */
struct group_var {
    const void *addr;
    uint64_t raw; /* (a strobe: 0, the value it is set back to) */
    uint64_t rank;
    unsigned sig;
    uint8_t nbytes;
    bool strobe; /* gsc_trace_var_strobe: written as a count, then set to 0 */
};
/* The rank of the strobes: after every other variable, as they are written. */
static const uint64_t STROBE_RANK = (uint64_t)4 << 32;

/* The traced variables of one module (a block instance): compared only in a cycle the group was
 * marked in (an activation of a process that may change them, an arrival hook, a run's start). */
struct var_group {
    gsc_module *m;
    std::vector<sized_var> by_size[4]; /* the variables of 1, 2, 4 and 8 bytes (strobes aside) */
    std::vector<group_var> strobes;
    bool dirty = false;
};
} // namespace

/* What an activation marks: the groups of its module and of every module it may call into
 * (gsc_trace_calls), transitively. Marked once per cycle written: `epoch` is the writer's count of
 * cycles looked at when these groups were last marked (a second activation of the process, or of
 * another process of the same module, in that cycle has nothing more to mark). */
struct gsc_trace_marks {
    std::vector<var_group *> groups;
    mutable uint64_t epoch = UINT64_MAX;
};

namespace
{
/* A character buffer written in place through a pointer: a writer puts at most OUT_LINE bytes at p
 * (a value change, a timestamp), then moves p; once p is past lim the buffer grows, so that a
 * cycle's changes, which may be taken back (a timestamp with nothing after it), are never split by
 * a write to the file (that happens between cycles, by the mebibyte). */
enum { OUT_LINE = 128 };
struct out_buf {
    char *buf = nullptr;
    char *p = nullptr;
    char *lim = nullptr; /* buf + capacity - OUT_LINE */
    size_t cap = 0;
    out_buf() = default;
    out_buf(const out_buf &) = delete;
    out_buf &operator=(out_buf &&o) noexcept /* (gsc_trace_reset: the old buffer goes with o) */
    {
        std::swap(buf, o.buf);
        std::swap(p, o.p);
        std::swap(lim, o.lim);
        std::swap(cap, o.cap);
        return *this;
    }
    ~out_buf()
    {
        g_free(buf);
    }
    size_t size() const
    {
        return (size_t)(p - buf);
    }
    void clear()
    {
        p = buf;
    }
    void truncate(size_t n)
    {
        p = buf + n;
    }
    __attribute__((noinline)) void grow()
    {
        size_t n = size();
        cap = cap ? 2 * cap : (size_t)2 << 20;
        buf = (char *)g_realloc(buf, cap);
        p = buf + n;
        lim = buf + cap - OUT_LINE;
    }
    /* the end of what was put at p: grow if it went past lim */
    void commit(char *q)
    {
        p = q;
        if (__builtin_expect(q > lim, 0))
            grow();
    }
    void append(const char *s, size_t k) /* k <= OUT_LINE */
    {
        memcpy(p, s, k);
        commit(p + k);
    }
};

struct trace_state {
    bool requested = false;
    bool open = false;
    bool closed = false;
    std::string path; /* without ".vcd" (".fst") */
    std::string fst;  /* the converter, when writing FST */
    GPid child = 0;   /* the converter's process */
    std::vector<std::string> patterns;
    std::vector<bool> pattern_used; /* a pattern selected at least one signal */
    bool written = false;           /* the file was created (the window was reached) */
    std::string write_error;        /* why writing the file failed (a full disk, EFBIG), or "" */
    int write_errno = 0;            /* errno of the first buffer write that failed, or 0 */
    uint64_t from = 0, to = 0;
    FILE *fp = nullptr;
    gsc_vcd_writer *writer = nullptr;
    std::vector<traced_signal> sigs;
    std::vector<std::unique_ptr<var_group>> owned_groups;
    std::vector<std::unique_ptr<gsc_trace_marks>> owned_marks;
    std::vector<std::unique_ptr<struct traced_hook>> owned_hooks;
    std::unordered_map<gsc_module *, const gsc_trace_marks *> module_marks; /* for gsc_trace_touch */
    std::vector<var_group *> groups;                          /* every module's traced variables */
    std::vector<var_group *> dirty_groups;                    /* marked since the writer last looked */
    std::vector<std::pair<gsc_module *, gsc_module *>> calls; /* (caller, callee): gsc_trace_calls */
    std::vector<uint64_t> changed; /* room for the ranks of a cycle's changed variables (signal below) */
    uint64_t epoch = 0;            /* the marks made since the writer last looked (gsc_trace_marks) */
    bool check = false;            /* gsc_trace_check */
    /* The strobes looked at in the cycle being written (group, signal), and the groups to mark for
     * the next one: a strobe whose signal is not back to 0 then (it showed x, or it kept the value of
     * the dump) is looked at again. */
    std::vector<std::pair<var_group *, unsigned>> strobes_seen;
    std::vector<var_group *> strobes_again;
    std::vector<gsc_latch_trace *> dirty_latches;
    std::vector<gsc_fifo *> dirty_fifos;
    std::vector<gsc_pulse *> dirty_pulses;
    std::vector<unsigned> pulse_sig; /* per pulse (index in pulses): its signal */
    std::vector<gsc_pulse *> pulses;
    std::vector<unsigned> falls; /* strobes and counts written nonzero this cycle: the first n_falls */
    size_t n_falls = 0;          /* (room for every signal: a signal is written once per cycle) */
    out_buf out; /* what goes to the file next (timestamps and value changes), in 1 MiB chunks */
    std::vector<hot_signal> hot;       /* per signal, what the writer compares and writes */
    std::vector<uint64_t> typed_shown; /* per signal: a KIND_TYPED signal's value last written */
    /* Which signals moved after the dump, for the views (which close the groups that never did),
     * beside the hot records, not in them: per signal, a byte set when a variable's bytes, a
     * strobe or a pulse changed (a store per change); a latch's signals share its record's flag (a
     * store per cycle it wrote a change in); a FIFO moved when a cycle put an item in it or its
     * occupancy is not the dump's (gsc_trace_signal_changed: nothing more while running), the
     * cycle counter when the dump lasts more than a cycle. */
    std::vector<uint8_t> moved;
    bool any_written = false;          /* a timestamp has been written */
    uint64_t last_time = 0;            /* the last timestamp written */
    sc_event *nudge_ev = nullptr;      /* makes the next cycle's time step exist */
    int cycle_sig = -1;                /* the cycle counter's signal */
    uint64_t cycle_value = 0;          /* its value */
    uint64_t cycle_next = 0;           /* the first cycle whose counter is not written yet */
    bool nudge_armed = false;
};
trace_state T;
} // namespace

static void mark_all(void);

static unsigned full_width(gsc_ctype t)
{
    switch (t) {
    case GSC_BOOL:
        return 1;
    case GSC_U8:
    case GSC_I8:
        return 8;
    case GSC_U16:
    case GSC_I16:
        return 16;
    case GSC_U32:
    case GSC_I32:
    case GSC_F32:
        return 32;
    case GSC_U64:
    case GSC_I64:
    case GSC_F64:
        return 64;
    default:
        return 0;
    }
}

/* The pattern against the name and every dotted prefix of it (the pattern may name an ancestor). */
static bool matches_from_top(const std::string &pat, const std::string &name)
{
    if (g_pattern_match_simple(pat.c_str(), name.c_str()))
        return true;
    for (size_t i = name.find('.'); i != std::string::npos; i = name.find('.', i + 1))
        if (g_pattern_match_simple(pat.c_str(), name.substr(0, i).c_str()))
            return true;
    return false;
}

/* The pattern may also leave out leading components: "sm0.*" selects "gpu.sm0.issue.out.warp" as
 * "tb.sm0" selects "tb.sm0.fetch.out.pc". So try the name from each component on. */
static bool pattern_matches(const std::string &pat, const std::string &name)
{
    if (matches_from_top(pat, name))
        return true;
    for (size_t i = name.find('.'); i != std::string::npos; i = name.find('.', i + 1))
        if (matches_from_top(pat, name.substr(i + 1)))
            return true;
    return false;
}

/* Whether name is selected; marks the patterns that select it (a pattern already known to select
 * something is not tried again once another one has matched). */
static bool selected(const std::string &name, bool detail = false)
{
    bool any = false;
    for (size_t i = 0; i < T.patterns.size(); i++) {
        if ((any && T.pattern_used[i]) || (detail && T.patterns[i] == "*"))
            continue;
        if (pattern_matches(T.patterns[i], name)) {
            T.pattern_used[i] = true;
            any = true;
        }
    }
    return any;
}

extern "C" void gsc_trace_open(const char *path, const char *patterns, uint64_t from_cycle, uint64_t to_cycle)
{
    if (!gsc_g.inited)
        gsc_fatal("gsc_trace_open called before gsc_init");
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_open('%s'): only allowed during elaboration", path);
    if (T.requested)
        gsc_fatal("gsc_trace_open('%s'): a trace file is already open ('%s.vcd')", path, T.path.c_str());
    if (!path || !*path)
        gsc_fatal("gsc_trace_open: no path");
    if (to_cycle && to_cycle < from_cycle)
        gsc_fatal("gsc_trace_open('%s'): to_cycle %" G_GUINT64_FORMAT
                  " is before from_cycle %" G_GUINT64_FORMAT,
                  path, to_cycle, from_cycle);
    T.requested = true;
    T.path = path;
    if (g_str_has_suffix(path, ".vcd") || (!T.fst.empty() && g_str_has_suffix(path, ".fst")))
        T.path.resize(T.path.size() - 4);
    if (!patterns || !*patterns)
        patterns = "*";
    gchar **v = g_strsplit(patterns, ",", -1);
    for (gchar **p = v; *p; p++) {
        g_strstrip(*p);
        if (**p)
            T.patterns.push_back(*p);
    }
    g_strfreev(v);
    T.pattern_used.assign(T.patterns.size(), false);
    T.from = from_cycle;
    T.to = to_cycle;
}

extern "C" void gsc_trace_fst(const char *program)
{
    if (T.requested)
        gsc_fatal("gsc_trace_fst: only before gsc_trace_open");
    T.fst = program && *program ? program : "vcd2fst";
}

bool gsc_trace_requested(void)
{
    return T.requested;
}

extern "C" void gsc_trace_calls(gsc_module *caller, gsc_module *callee)
{
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_calls: only allowed during elaboration");
    if (caller != callee)
        T.calls.push_back({caller, callee});
}

extern "C" void gsc_trace_touch(gsc_module *m)
{
    if (T.groups.empty())
        return;
    auto it = T.module_marks.find(m);
    if (it != T.module_marks.end())
        gsc_trace_mark(it->second);
}

extern "C" void gsc_trace_check(bool on)
{
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_check: only allowed during elaboration");
    T.check = on;
}

void gsc_trace_run_starts(void)
{
    mark_all();
}

extern "C" void gsc_trace_var(gsc_module *m, const char *name, gsc_ctype ctype, const void *addr,
                              unsigned width)
{
    std::string full = gsc_new_name("gsc_trace_var", m, name);
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_var('%s'): only allowed during elaboration", full.c_str());
    if (!addr)
        gsc_fatal("gsc_trace_var('%s'): NULL address", full.c_str());
    if (ctype != GSC_OPAQUE && ctype != GSC_F32 && ctype != GSC_F64 && width > full_width(ctype))
        gsc_fatal("gsc_trace_var('%s'): width %u is wider than the variable (%u bits)", full.c_str(), width,
                  full_width(ctype));
    gsc_traceable t{};
    t.latch = nullptr;
    t.name = full;
    t.ctype = ctype;
    t.addr = addr;
    t.width = width;
    t.owner = m;
    gsc_g.traceables.push_back(t);
}

extern "C" void gsc_trace_var_enum(gsc_module *m, const char *name, const gsc_enum *e)
{
    std::string full = std::string(gsc_module_name(m)) + "." + name;
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_var_enum('%s'): only allowed during elaboration", full.c_str());
    for (auto it = gsc_g.traceables.rbegin(); it != gsc_g.traceables.rend(); ++it) /* usually the last */
        if (!it->latch && !it->fifo && !it->pulse && !it->counter && it->name == full) {
            it->en = e;
            return;
        }
    gsc_fatal("gsc_trace_var_enum('%s'): no traced variable of that name", full.c_str());
}

extern "C" void gsc_trace_var_strobe(gsc_module *m, const char *name)
{
    std::string full = std::string(gsc_module_name(m)) + "." + name;
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_var_strobe('%s'): only allowed during elaboration", full.c_str());
    for (gsc_traceable &t : gsc_g.traceables)
        if (!t.latch && !t.fifo && !t.pulse && !t.counter && t.name == full) {
            if (t.ctype != GSC_U8 && t.ctype != GSC_U16 && t.ctype != GSC_U32 && t.ctype != GSC_U64)
                gsc_fatal("gsc_trace_var_strobe('%s'): only an unsigned integer can be a strobe",
                          full.c_str());
            t.strobe = true;
            return;
        }
    gsc_fatal("gsc_trace_var_strobe('%s'): no traced variable of that name", full.c_str());
}

/* The variable <m>.<name> made by gsc_trace_var (fatal if none), for the elaboration-time setters. */
static gsc_traceable &traced_var(const char *what, gsc_module *m, const char *name)
{
    std::string full = std::string(gsc_module_name(m)) + "." + name;
    if (gsc_g.elaborated)
        gsc_fatal("%s('%s'): only allowed during elaboration", what, full.c_str());
    for (auto it = gsc_g.traceables.rbegin(); it != gsc_g.traceables.rend(); ++it) /* usually the last */
        if (!it->latch && !it->fifo && !it->pulse && !it->counter && it->name == full)
            return *it;
    gsc_fatal("%s('%s'): no traced variable of that name", what, full.c_str());
}

extern "C" void gsc_trace_var_detail(gsc_module *m, const char *name)
{
    traced_var("gsc_trace_var_detail", m, name).detail = true;
}

extern "C" void gsc_trace_var_flag(gsc_module *m, const char *name, bool *traced)
{
    traced_var("gsc_trace_var_flag", m, name).traced_flag = traced;
}

extern "C" void gsc_trace_cycle_counter(gsc_module *m, const char *name)
{
    std::string full = gsc_new_name("gsc_trace_cycle_counter", m, name);
    if (gsc_g.elaborated)
        gsc_fatal("gsc_trace_cycle_counter('%s'): only allowed during elaboration", full.c_str());
    gsc_traceable t{};
    t.counter = true;
    t.name = full;
    t.ctype = GSC_U64;
    t.width = 64;
    gsc_g.traceables.push_back(t);
}

extern "C" gsc_pulse *gsc_pulse_new(gsc_module *m, const char *name, unsigned width)
{
    std::string full = gsc_new_name("gsc_pulse_new", m, name);
    if (gsc_g.elaborated)
        gsc_fatal("gsc_pulse_new('%s'): only allowed during elaboration", full.c_str());
    if (width < 1 || width > 32)
        gsc_fatal("gsc_pulse_new('%s'): width %u is not in 1..32", full.c_str(), width);
    gsc_pulse *p = g_new0(gsc_pulse, 1);
    p->sig = -1;
    p->traceable = (uint32_t)gsc_g.traceables.size();
    gsc_traceable t{};
    t.pulse = p;
    t.name = full;
    t.ctype = GSC_U32;
    t.addr = &p->count;
    t.width = width;
    gsc_g.traceables.push_back(t);
    return p;
}

extern "C" bool gsc_pulse_will_trace(gsc_pulse *p)
{
    if (gsc_g.elaborated)
        return p->traced;
    bool yes = T.requested && selected(gsc_g.traceables[p->traceable].name);
    p->promised = yes ? 1 : -1;
    return yes;
}

/* The group of a variable "tb.sm0.issue.stall": its block instance "tb.sm0.issue". */
static std::string parent_of(const std::string &name)
{
    size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

static unsigned add_signal(const std::string &name, const std::string &group, gsc_ctype ctype,
                           const void *addr, unsigned width, const gsc_enum *en = nullptr)
{
    traced_signal s;
    s.en = en;
    s.name = name;
    s.group = group;
    s.real = ctype == GSC_F32 || ctype == GSC_F64;
    s.width = (s.real || width == 0) ? full_width(ctype) : width;
    s.ctype = ctype;
    s.addr = addr;
    hot_signal h;
    h.addr = addr;
    h.nbytes = (uint8_t)(!addr ? 0 : full_width(ctype) <= 8 ? 1 : full_width(ctype) / 8);
    h.shift = (uint8_t)(64 - std::min(s.width, 64u));
    bool plain =
        ctype == GSC_BOOL || ctype == GSC_U8 || ctype == GSC_U16 || ctype == GSC_U32 || ctype == GSC_U64;
    h.kind = !addr ? KIND_COUNT : plain ? KIND_PLAIN : KIND_TYPED;
    h.form = s.real ? FORM_REAL : s.width == 1 ? FORM_BIT : FORM_VEC;
    h.width = (uint8_t)s.width;
    h.ctype = (uint8_t)ctype;
    T.sigs.push_back(s);
    T.hot.push_back(h);
    return (unsigned)T.sigs.size() - 1;
}

/* ---------------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------------- */

/* The bits of a variable of this type shown in this width; false when it does not fit the width
 * (shown as x). */
static bool read_typed(gsc_ctype ctype, unsigned width, const void *addr, uint64_t *out)
{
    uint64_t u = 0;
    int64_t i = 0;
    bool is_signed = false;
    switch (ctype) {
    case GSC_BOOL:
        u = *(const bool *)addr;
        break;
    case GSC_U8:
        u = *(const uint8_t *)addr;
        break;
    case GSC_U16:
        u = *(const uint16_t *)addr;
        break;
    case GSC_U32:
        u = *(const uint32_t *)addr;
        break;
    case GSC_U64:
        u = *(const uint64_t *)addr;
        break;
    case GSC_I8:
        i = *(const int8_t *)addr, is_signed = true;
        break;
    case GSC_I16:
        i = *(const int16_t *)addr, is_signed = true;
        break;
    case GSC_I32:
        i = *(const int32_t *)addr, is_signed = true;
        break;
    case GSC_I64:
        i = *(const int64_t *)addr, is_signed = true;
        break;
    case GSC_F32: {
        double d = *(const float *)addr;
        memcpy(out, &d, sizeof d);
        return true;
    }
    case GSC_F64:
        memcpy(out, addr, sizeof(double));
        return true;
    default:
        *out = 0;
        return true;
    }
    if (width >= 64) {
        *out = is_signed ? (uint64_t)i : u;
        return true;
    }
    uint64_t mask = ((uint64_t)1 << width) - 1;
    if (is_signed) {
        int64_t lo = -((int64_t)1 << (width - 1)), hi = ((int64_t)1 << (width - 1)) - 1;
        if (i < lo || i > hi)
            return false;
        *out = (uint64_t)i & mask;
        return true;
    }
    if (u > mask)
        return false;
    *out = u;
    return true;
}

/* "00000000" .. "11111111": the bits of a byte as characters. */
namespace
{
struct byte_bits {
    char c[256][8];
    byte_bits()
    {
        for (unsigned b = 0; b < 256; b++)
            for (unsigned k = 0; k < 8; k++)
                c[b][k] = (char)('0' + ((b >> (7 - k)) & 1));
    }
};
const byte_bits BITS;

/* "b0" .. "b1111": the most frequent values (counts, flags, small fields) as they are written. */
struct small_values {
    char c[16][8];
    uint8_t len[16];
    small_values()
    {
        for (unsigned v = 0; v < 16; v++) {
            unsigned digits = v >= 8 ? 4 : v >= 4 ? 3 : v >= 2 ? 2 : 1;
            memset(c[v], 0, 8);
            c[v][0] = 'b';
            for (unsigned k = 0; k < digits; k++)
                c[v][1 + k] = (char)('0' + ((v >> (digits - 1 - k)) & 1));
            len[v] = (uint8_t)(1 + digits);
        }
    }
};
const small_values SMALL;
} // namespace

/* Append "<value><code>\n" (a scalar), "b<bits> <code>\n" or "r<real> <code>\n" to the file's
 * buffer, written in place. The bits: the top byte's significant digits (its eight characters
 * shifted down, no branch per bit), then eight characters per lower byte. */
static inline __attribute__((always_inline)) void put_value(const hot_signal &s, uint64_t v, bool fits)
{
    char *q = T.out.p;
    if (s.form == FORM_BIT) {
        *q++ = fits ? (char)('0' + (v & 1)) : 'x';
    } else if (__builtin_expect(s.form == FORM_REAL, 0)) {
        double d;
        memcpy(&d, &v, sizeof d);
        q += snprintf(q, 40, "r%.16g", d);
    } else if (!fits) {
        memcpy(q, "bx", 2);
        q += 2;
    } else if (v < 16) {
        memcpy(q, SMALL.c[v], 8);
        q += SMALL.len[v];
    } else {
        *q++ = 'b';
        unsigned digits = 64 - (unsigned)__builtin_clzll(v); /* down from the highest 1 */
        unsigned top = (digits - 1) >> 3;                    /* the byte holding it */
        unsigned sig = digits - 8 * top;                     /* its digits that are shown: 1..8 */
        uint64_t c;
        memcpy(&c, BITS.c[(v >> (8 * top)) & 255], 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        c >>= 8 * (8 - sig); /* the first character is the lowest byte */
#else
        c <<= 8 * (8 - sig);
#endif
        memcpy(q, &c, 8);
        q += sig;
        for (unsigned i = top; i-- > 0;) {
            memcpy(q, BITS.c[(v >> (8 * i)) & 255], 8);
            q += 8;
        }
    }
    memcpy(q, s.tail, sizeof s.tail);
    T.out.commit(q + s.tail_len);
}

/* The variable's bytes as they are now (a cheap first look: most values do not change). */
static inline uint64_t load_raw(const void *addr, unsigned nbytes)
{
    switch (nbytes) {
    case 1:
        return *(const uint8_t *)addr;
    case 2:
        return *(const uint16_t *)addr;
    case 4:
        return *(const uint32_t *)addr;
    default:
        return *(const uint64_t *)addr;
    }
}

/* The bits of a signal's current value; false when it does not fit the width (shown as x). */
static bool read_value(const hot_signal &s, uint64_t *out)
{
    if (s.kind != KIND_TYPED) {
        *out = load_raw(s.addr, s.nbytes);
        return fits_width(s, *out);
    }
    return read_typed((gsc_ctype)s.ctype, s.width, s.addr, out);
}

/* The variable's bytes changed: write its value if what is shown changes. */
static __attribute__((noinline)) void changed_value(hot_signal &s, uint64_t raw)
{
    if (__builtin_expect(s.kind == KIND_PLAIN, 1)) {
        /* what was shown is the old bytes, or x if they did not fit: a change shows, but x stays x */
        bool was_x = !fits_width(s, s.val);
        s.val = raw;
        if (fits_width(s, raw))
            put_value(s, raw, true);
        else if (!was_x)
            put_value(s, 0, false);
        return;
    }
    s.val = raw;
    uint64_t v = raw;
    bool fits = read_typed((gsc_ctype)s.ctype, s.width, s.addr, &v);
    uint64_t &shown = T.typed_shown[(size_t)(&s - T.hot.data())];
    if (fits ? (!s.x_shown && v == shown) : s.x_shown)
        return;
    shown = fits ? v : 0;
    s.x_shown = !fits;
    put_value(s, v, fits);
}

/* Write the signal's value if it changed since the last one written. */
static inline void update(unsigned i)
{
    hot_signal &s = T.hot[i];
    uint64_t raw = load_raw(s.addr, s.nbytes);
    if (raw != s.val)
        changed_value(s, raw);
}

/* A count (put, get, pulse) written directly: it has no variable of its own. */
static __attribute__((noinline)) void changed_count(unsigned i, uint64_t v)
{
    hot_signal &s = T.hot[i];
    bool fits = fits_width(s, v);
    if (!fits && s.x_shown)
        return;
    s.val = fits ? v : 0;
    s.x_shown = !fits;
    put_value(s, v, fits);
    if (v)
        T.falls[T.n_falls++] = i;
}

static inline void update_count(unsigned i, uint64_t v)
{
    const hot_signal &s = T.hot[i];
    if (v != s.val || s.x_shown)
        changed_count(i, v);
}

/* "00" .. "99" */
namespace
{
struct two_digits {
    char c[100][2];
    two_digits()
    {
        for (unsigned i = 0; i < 100; i++)
            c[i][0] = (char)('0' + i / 10), c[i][1] = (char)('0' + i % 10);
    }
};
const two_digits DIGITS;
} // namespace

/* "#<t>\n" into the file's buffer, unless t is the last time written. */
static void write_time(uint64_t t)
{
    if (!T.any_written || t != T.last_time) {
        char tmp[24], *e = tmp + sizeof tmp, *q = e; /* two digits per division */
        uint64_t x = t;
        *--q = '\n';
        for (; x >= 100; x /= 100) {
            q -= 2;
            memcpy(q, DIGITS.c[x % 100], 2);
        }
        if (x >= 10) {
            q -= 2;
            memcpy(q, DIGITS.c[x], 2);
        } else {
            *--q = (char)('0' + x);
        }
        *--q = '#';
        T.out.append(q, (size_t)(e - q));
    }
    T.any_written = true;
    T.last_time = t;
}

/* The file's buffer into the file (by 1 MiB or more, and before the file is closed). */
static void flush_out(void)
{
    if (T.out.size() && fwrite(T.out.buf, 1, T.out.size(), T.fp) != T.out.size() && !T.write_errno)
        T.write_errno = errno ? errno : EIO;
    T.out.clear();
}

/* ---------------------------------------------------------------------------------------------
 * The cycle: what changed in it, at cycle * period; the strobes and counts back to 0 half a cycle
 * later, so that back-to-back puts show as separate pulses.
 * ------------------------------------------------------------------------------------------- */

static void forget_dirty(void)
{
    for (gsc_latch_trace *lt : T.dirty_latches)
        lt->dirty = false;
    for (gsc_fifo *f : T.dirty_fifos) {
        f->tr->dirty = false;
        f->tr->puts = f->tr->gets = 0;
    }
    for (gsc_pulse *p : T.dirty_pulses) {
        p->pending = false;
        p->count = 0;
    }
    for (var_group *g : T.dirty_groups)
        g->dirty = false;
    T.dirty_latches.clear();
    T.dirty_fifos.clear();
    T.dirty_pulses.clear();
    T.dirty_groups.clear();
    T.strobes_again.clear();
    T.epoch++;
}

/* The cycle counter: the cycles before `cycle` in which nothing ran (so no time step was written)
 * get their own value, then `cycle`'s goes with the cycle's other changes. */
static void count_cycles(uint64_t cycle)
{
    for (; T.cycle_next < cycle; T.cycle_next++) {
        T.cycle_value = T.cycle_next;
        write_time(T.cycle_next * gsc_g.period);
        update((unsigned)T.cycle_sig);
    }
    T.cycle_value = cycle;
    T.cycle_next = cycle + 1;
}

static inline void mark_group(var_group *g)
{
    if (!g->dirty) {
        g->dirty = true;
        T.dirty_groups.push_back(g);
    }
}

void gsc_trace_mark(const gsc_trace_marks *m)
{
    if (m && m->epoch != T.epoch) {
        m->epoch = T.epoch;
        for (var_group *g : m->groups)
            mark_group(g);
    }
}

static void mark_all(void)
{
    for (var_group *g : T.groups)
        mark_group(g);
}

/* The check mode: a variable of a group nobody marked must not have changed. */
static void unmarked_change(uint64_t cycle, const var_group *g, unsigned sig)
{
    gsc_fatal("trace check: cycle %" G_GUINT64_FORMAT
              ": %s changed, but no activation, arrival hook or gsc_trace_touch marked %s "
              "(declare the call with gsc_trace_calls, or mark it with gsc_trace_touch)",
              cycle, T.sigs[sig].name.c_str(), gsc_module_name(g->m));
}

static void check_unmarked(uint64_t cycle)
{
    for (var_group *g : T.groups) {
        if (g->dirty)
            continue;
        for (unsigned k = 0; k < 4; k++)
            for (const sized_var &v : g->by_size[k])
                if (load_raw(v.addr, 1u << k) != v.raw)
                    unmarked_change(cycle, g, v.sig);
        for (const group_var &v : g->strobes)
            if (load_raw(v.addr, v.nbytes) != v.raw || T.hot[v.sig].val || T.hot[v.sig].x_shown)
                unmarked_change(cycle, g, v.sig);
    }
}

/* The variables of one size of a marked group: a load and a compare each, no branch on the size. */
template <typename U>
static inline uint64_t *compare_sized(std::vector<sized_var> &vars, uint64_t size_class, uint64_t *out)
{
    for (sized_var &v : vars) {
        uint64_t raw = *(const U *)v.addr;
        if (__builtin_expect(raw != v.raw, 0)) {
            v.raw = raw;
            *out++ = size_class << 32 | v.sig;
        }
    }
    return out;
}

/* The marked groups' variables: those that changed are written in the order of their rank (the
 * order of the signals by variable size, then declaration), whatever the order of the marks. */
static void compare_marked(uint64_t cycle)
{
    /* (a group is marked at most once per cycle, so the cycle's changes fit: one per variable) */
    uint64_t *const changed = T.changed.data(), *end = changed;
    for (var_group *g : T.dirty_groups) {
        end = compare_sized<uint8_t>(g->by_size[0], 0, end);
        end = compare_sized<uint16_t>(g->by_size[1], 1, end);
        end = compare_sized<uint32_t>(g->by_size[2], 2, end);
        end = compare_sized<uint64_t>(g->by_size[3], 3, end);
        for (group_var &v : g->strobes) {
            /* (a strobe's raw is 0, the value it is set back to) */
            if (load_raw(v.addr, v.nbytes) != 0 || T.hot[v.sig].val || T.hot[v.sig].x_shown)
                *end++ = v.rank;
            T.strobes_seen.push_back({g, v.sig});
        }
    }
    if (T.check)
        check_unmarked(cycle);
    for (var_group *g : T.dirty_groups)
        g->dirty = false;
    T.dirty_groups.clear();
    T.epoch++;
    if (end - changed > 1)
        std::sort(changed, end);
    uint8_t *moved = T.moved.data();
    for (const uint64_t *p = changed; p != end; p++) {
        uint64_t c = *p;
        unsigned sig = (unsigned)c;
        moved[sig] = 1;
        if (c < STROBE_RANK) {
            update(sig);
            continue;
        }
        /* a count of this cycle: shown as a pulse, then cleared */
        hot_signal &sg = T.hot[sig];
        uint64_t v = load_raw(sg.addr, sg.nbytes);
        update_count(sig, v);
        if (v)
            memset(const_cast<void *>(sg.addr), 0, sg.nbytes);
    }
}

/* One of a traced FIFO's, latch's or pulse's own signals: the order they are written in within a
 * cycle, so that a cycle's VCD does not depend on the order its activations ran in. */
static int64_t trace_key(const gsc_fifo *f)
{
    const gsc_fifo_trace *tr = f->tr;
    for (int s : {tr->put_sig, tr->get_sig, tr->full_sig, tr->occ_sig})
        if (s >= 0)
            return s;
    return tr->field_sigs.empty() ? -1 : (int64_t)tr->field_sigs[0];
}
static int64_t trace_key(const gsc_latch_trace *lt)
{
    return lt->sigs.empty() ? -1 : (int64_t)lt->sigs[0];
}
static int64_t trace_key(const gsc_pulse *p)
{
    return p->sig;
}
template <typename T> static void sort_by_signal(std::vector<T *> &v)
{
    if (v.size() > 1)
        std::sort(v.begin(), v.end(), [](const T *a, const T *b) { return trace_key(a) < trace_key(b); });
}

static void write_cycle(uint64_t cycle)
{
    if (!T.open) {
        forget_dirty();
        return;
    }
    if (T.cycle_sig >= 0)
        count_cycles(cycle);
    /* the cycle's timestamp, taken back if nothing changed in it */
    uint64_t t = cycle * gsc_g.period;
    size_t before = T.out.size();
    bool any_before = T.any_written;
    uint64_t last_before = T.last_time;
    write_time(t);
    size_t changes = T.out.size();
    T.n_falls = 0;
    for (var_group *g : T.strobes_again)
        mark_group(g);
    T.strobes_again.clear();
    T.strobes_seen.clear();
    sort_by_signal(T.dirty_fifos);
    sort_by_signal(T.dirty_latches);
    sort_by_signal(T.dirty_pulses);
    for (gsc_fifo *f : T.dirty_fifos) {
        gsc_fifo_trace *tr = f->tr;
        if (tr->put_sig >= 0)
            update_count((unsigned)tr->put_sig, tr->puts);
        tr->max_puts = std::max(tr->max_puts, tr->puts);
        unsigned shown = std::min(tr->puts, tr->n_slots);
        for (unsigned k = 0; k < shown * tr->n_fields; k++)
            update(tr->field_sigs[k]);
        if (tr->get_sig >= 0)
            update_count((unsigned)tr->get_sig, tr->gets);
        tr->full = f->n == f->depth;
        if (tr->full_sig >= 0)
            update((unsigned)tr->full_sig);
        if (tr->occ_sig >= 0)
            update((unsigned)tr->occ_sig);
        tr->puts = tr->gets = 0;
        tr->dirty = false;
    }
    T.dirty_fifos.clear();
    for (gsc_latch_trace *lt : T.dirty_latches) {
        char *was = T.out.p; /* (if the buffer moved, it grew: something was written) */
        for (unsigned i : lt->sigs)
            update(i);
        lt->dirty = false;
        if (T.out.p != was)
            lt->moved = true;
    }
    T.dirty_latches.clear();
    uint8_t *moved = T.moved.data();
    for (gsc_pulse *p : T.dirty_pulses) {
        moved[p->sig] = 1;
        update_count((unsigned)p->sig, p->count);
        p->count = 0;
        p->pending = false;
    }
    T.dirty_pulses.clear();
    compare_marked(cycle);
    if (T.cycle_sig >= 0)
        update((unsigned)T.cycle_sig);
    if (T.out.size() == changes) {
        T.out.truncate(before);
        T.any_written = any_before;
        T.last_time = last_before;
    }
    if (T.n_falls) {
        write_time(t + gsc_g.period / 2);
        for (size_t k = 0; k < T.n_falls; k++) {
            unsigned i = T.falls[k];
            T.hot[i].val = 0;
            put_value(T.hot[i], 0, true);
        }
    }
    if (T.out.size() >= ((size_t)1 << 20))
        flush_out();
    for (const auto &st : T.strobes_seen)
        if (T.hot[st.second].val || T.hot[st.second].x_shown)
            T.strobes_again.push_back(st.first);
}

/* The end of a time step. Only a cycle's own time step (cycle * period) is written: the kernel also
 * ends time steps between two cycles (a run that goes on from a pause just below cycle k evaluates
 * there first; gsc_stop's pause 1 ps after its cycle; the starvation watch). What changed before
 * such a step (a harness's call, latch write or put between runs) waits for cycle k's own step and
 * is written with cycle k's changes, once: written at the early step, cycle k's timestamp would
 * come twice, the second time after its pulses' fall (time going backwards). */
void gsc_vcd_writer::cycle(bool delta_cycle)
{
    if (delta_cycle)
        return;
    uint64_t cycle = gsc_now_cycle();
    if (gsc_now_ps() == cycle * gsc_g.period)
        write_cycle(cycle);
}

/* Something traced changed outside a run (a harness between steps): it shows in the next cycle,
 * whose time step is made to exist by a raw kernel notification of an internal method process that
 * does nothing. That wake-up is not activity: a traced run lasts exactly as long as an untraced one
 * (gsc_run's starvation horizon and gsc_activations() ignore it). */
static void nudge(void)
{
    if (gsc_g.in_run || T.nudge_armed || !T.nudge_ev)
        return;
    T.nudge_armed = true;
    uint64_t now = gsc_now_ps();
    T.nudge_ev->notify(sc_time::from_value(gsc_now_cycle() * gsc_g.period - now));
}

namespace
{
struct nudged {
    void operator()() const
    {
        T.nudge_armed = false;
    }
};
} // namespace

extern "C" void gsc_pulse_fire(gsc_pulse *p)
{
    if (!p->traced)
        return;
    p->count++;
    if (!p->pending) {
        p->pending = true;
        T.dirty_pulses.push_back(p);
    }
    nudge();
}

static inline void fifo_dirty(gsc_fifo *f)
{
    if (!f->tr->dirty) {
        f->tr->dirty = true;
        T.dirty_fifos.push_back(f);
    }
    nudge();
}

void gsc_trace_fifo_put(gsc_fifo *f)
{
    gsc_fifo_trace *tr = f->tr;
    if (tr->n_slots && tr->hi > tr->lo) {
        unsigned slot = std::min(tr->puts, tr->n_slots - 1);
        const unsigned char *item = gsc_fifo_item(f, (f->head + f->n - 1) % f->depth);
        /* a traced field beyond the item's used prefix shows 0: the ring holds an older item's bytes there */
        unsigned char *to = tr->slots + (size_t)slot * f->size;
        size_t used = std::max(tr->lo, std::min(tr->hi, gsc_fifo_used_bytes(f, item)));
        memcpy(to + tr->lo, item + tr->lo, used - tr->lo);
        memset(to + used, 0, tr->hi - used);
    }
    tr->puts++;
    fifo_dirty(f);
}

void gsc_trace_fifo_get(gsc_fifo *f)
{
    f->tr->gets++;
    fifo_dirty(f);
}

void gsc_trace_latch_write(gsc_latch *l, const void *value)
{
    gsc_latch_trace *lt = l->tr;
    memcpy(lt->mirror, value, l->size);
    if (!lt->dirty) {
        lt->dirty = true;
        T.dirty_latches.push_back(lt);
    }
    nudge();
}

/* ---------------------------------------------------------------------------------------------
 * Selection
 * ------------------------------------------------------------------------------------------- */

/* The signals from `first` on belong to this latch or FIFO. */
static void belong_to(size_t first, const gsc_latch_trace *latch, const gsc_fifo *chan)
{
    for (size_t k = first; k < T.sigs.size(); k++) {
        T.sigs[k].latch = latch;
        T.sigs[k].chan = chan;
    }
}

static void select_latch(gsc_latch *l)
{
    size_t first = T.sigs.size();
    const gsc_type *ty = l->type;
    for (unsigned i = 0; i < ty->n_fields; i++) {
        const gsc_field *fd = &ty->fields[i];
        std::string name = l->name + "." + fd->name;
        if (fd->ctype == GSC_OPAQUE || !selected(name))
            continue;
        if (!l->tr) {
            l->tr = new gsc_latch_trace{};
            l->tr->mirror = (unsigned char *)g_malloc0(l->size);
            memcpy(l->tr->mirror, l->buf[l->w], l->size);
        }
        l->tr->sigs.push_back(
            add_signal(name, l->name, fd->ctype, l->tr->mirror + fd->offset, fd->width, fd->enumeration));
    }
    if (l->tr)
        belong_to(first, l->tr, nullptr);
}

static gsc_fifo_trace *fifo_trace(gsc_fifo *f)
{
    if (!f->tr) {
        f->tr = new gsc_fifo_trace{};
        f->tr->lo = f->size;
        f->tr->hi = 0;
        f->tr->put_sig = f->tr->get_sig = f->tr->full_sig = f->tr->occ_sig = -1;
    }
    return f->tr;
}

/* A FIFO's signals, in this order: put (the number of items put in the cycle), the fields of the
 * first item put in it (OPAQUE excepted), get (items got), full, occupancy, then the fields of
 * the second, third... item put in the same cycle, as <fifo>.put1.<field>, <fifo>.put2.<field>... */
static void select_fifo(gsc_fifo *f)
{
    size_t first = T.sigs.size();
    const gsc_type *ty = f->type;
    unsigned count_width = g_bit_storage(f->depth);
    std::string put = f->name + ".put";
    if (selected(put))
        fifo_trace(f)->put_sig = (int)add_signal(put, f->name, GSC_U32, nullptr, count_width);
    std::vector<const gsc_field *> fields;
    for (unsigned i = 0; i < ty->n_fields; i++) {
        const gsc_field *fd = &ty->fields[i];
        if (fd->ctype != GSC_OPAQUE && selected(f->name + "." + fd->name))
            fields.push_back(fd);
    }
    if (!fields.empty()) {
        gsc_fifo_trace *tr = fifo_trace(f);
        tr->n_slots = f->depth;
        tr->n_fields = (unsigned)fields.size();
        tr->slots = (unsigned char *)g_malloc0((size_t)f->depth * f->size);
        for (const gsc_field *fd : fields) {
            tr->lo = std::min(tr->lo, fd->offset);
            tr->hi = std::max(tr->hi, fd->offset + fd->size);
        }
    }
    for (const gsc_field *fd : fields)
        f->tr->field_sigs.push_back(add_signal(f->name + "." + fd->name, f->name, fd->ctype,
                                               f->tr->slots + fd->offset, fd->width, fd->enumeration));
    std::string get = f->name + ".get";
    if (selected(get))
        fifo_trace(f)->get_sig = (int)add_signal(get, f->name, GSC_U32, nullptr, count_width);
    std::string full = f->name + ".full";
    if (selected(full)) {
        gsc_fifo_trace *tr = fifo_trace(f);
        tr->full_sig = (int)add_signal(full, f->name, GSC_U32, &tr->full, 1);
    }
    std::string occ = f->name + ".occupancy";
    if (selected(occ))
        fifo_trace(f)->occ_sig = (int)add_signal(occ, f->name, GSC_U32, &f->n, count_width);
    for (unsigned s = 1; s < (fields.empty() ? 0 : f->depth); s++) {
        std::string slot = f->name + ".put" + std::to_string(s);
        for (const gsc_field *fd : fields) {
            unsigned i =
                add_signal(slot + "." + fd->name, slot, fd->ctype,
                           f->tr->slots + (size_t)s * f->size + fd->offset, fd->width, fd->enumeration);
            f->tr->field_sigs.push_back(i);
            T.sigs[i].fifo = f->tr;
            T.sigs[i].slot = s;
        }
    }
    if (f->tr)
        belong_to(first, nullptr, f);
}

/* ---------------------------------------------------------------------------------------------
 * The file
 * ------------------------------------------------------------------------------------------- */

/* VCD identifier of the i-th signal: base 94 over the printable characters '!'..'~'. */
static std::string vcd_code(unsigned i)
{
    std::string c;
    do {
        c += (char)('!' + i % 94);
        i /= 94;
    } while (i);
    return c;
}

namespace
{
/* The scope tree of the header: children in order of first appearance. */
struct scope_node {
    std::vector<std::pair<std::string, scope_node *>> kids;
    std::vector<unsigned> vars;
    scope_node *kid(const std::string &n)
    {
        for (auto &k : kids)
            if (k.first == n)
                return k.second;
        kids.emplace_back(n, new scope_node);
        return kids.back().second;
    }
    ~scope_node()
    {
        for (auto &k : kids)
            delete k.second;
    }
};
} // namespace

static void write_scope(FILE *fp, const scope_node *n)
{
    for (unsigned i : n->vars) {
        const traced_signal &s = T.sigs[i];
        std::string leaf = s.name.substr(s.name.rfind('.') + 1);
        if (s.real)
            fprintf(fp, "$var real 64 %s %s $end\n", s.code.c_str(), leaf.c_str());
        else if (s.width == 1)
            fprintf(fp, "$var wire 1 %s %s $end\n", s.code.c_str(), leaf.c_str());
        else
            fprintf(fp, "$var wire %u %s %s [%u:0] $end\n", s.width, s.code.c_str(), leaf.c_str(),
                    s.width - 1);
    }
    for (const auto &k : n->kids) {
        fprintf(fp, "$scope module %s $end\n", k.first.c_str());
        write_scope(fp, k.second);
        fprintf(fp, "$upscope $end\n");
    }
}

/* The header (a fixed date, so that two runs give the same bytes; the scopes are the dotted
 * components of the names), then the values at the start of the window. Written once, in order:
 * the file can be a pipe. */
static void write_header(void)
{
    FILE *fp = T.fp;
    fprintf(fp, "$date\n    Jan 01, 1970 00:00:00\n$end\n");
    fprintf(fp, "$version\n    gpusc on SystemC %s\n$end\n", sc_release());
    fprintf(fp, "$timescale\n    1 ps\n$end\n");
    scope_node root;
    for (unsigned i = 0; i < T.sigs.size(); i++) {
        T.sigs[i].code = vcd_code(i);
        if (T.sigs[i].code.size() > 6)
            gsc_fatal("trace: too many signals (%u)", (unsigned)T.sigs.size());
        traced_signal &sg = T.sigs[i];
        std::string tail = (sg.width == 1 && !sg.real ? "" : " ") + sg.code + "\n";
        memcpy(T.hot[i].tail, tail.data(), tail.size());
        T.hot[i].tail_len = (uint8_t)tail.size();
        scope_node *n = &root;
        const std::string &name = T.sigs[i].name;
        size_t a = 0;
        for (size_t d = name.find('.'); d != std::string::npos; a = d + 1, d = name.find('.', a))
            n = n->kid(name.substr(a, d - a));
        n->vars.push_back(i);
    }
    write_scope(fp, &root);
    fprintf(fp, "$enddefinitions $end\n");
    write_time(T.from * gsc_g.period);
    T.out.append("$dumpvars\n", 10);
    T.typed_shown.assign(T.sigs.size(), 0);
    for (unsigned i = 0; i < T.sigs.size(); i++) {
        hot_signal &s = T.hot[i];
        uint64_t v = 0;
        bool fits = s.addr ? read_value(s, &v) : true;
        s.x_shown = !fits;
        if (s.kind == KIND_COUNT)
            s.val = fits ? v : 0;
        else
            s.val = load_raw(s.addr, s.nbytes);
        if (s.kind == KIND_TYPED)
            T.typed_shown[i] = fits ? v : 0;
        put_value(s, v, fits);
    }
    T.out.append("$end\n", 5);
    flush_out();
    T.moved.assign(T.sigs.size(), 0);
    T.falls.assign(T.sigs.size(), 0);
    for (const traced_signal &sg : T.sigs)
        if (sg.chan)
            sg.chan->tr->dump_n = sg.chan->n;
    for (var_group *g : T.groups)
        for (auto &vars : g->by_size)
            for (sized_var &v : vars)
                v.raw = T.hot[v.sig].val;
}

/* FST: the VCD goes into vcd2fst's standard input. */
static void open_fst(const std::string &file)
{
    /* the converter does not say when it cannot create its output: find out first */
    FILE *probe = fopen(file.c_str(), "w");
    if (!probe) {
        int e = errno;
        T.closed = true;
        gsc_fatal("cannot create %s: %s", file.c_str(), g_strerror(e));
    }
    fclose(probe);
    const char *argv[] = {T.fst.c_str(), "-v", "-", "-f", file.c_str(), nullptr};
    int in = -1;
    GError *err = nullptr;
    if (!g_spawn_async_with_pipes(nullptr, (gchar **)argv, nullptr,
                                  (GSpawnFlags)(G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD), nullptr,
                                  nullptr, &T.child, &in, nullptr, nullptr, &err)) {
        T.closed = true;
        std::string msg = err->message;
        g_error_free(err);
        gsc_fatal("--wave-format fst: cannot run %s (GTKWave's converter, Debian package gtkwave): %s",
                  T.fst.c_str(), msg.c_str());
    }
    T.fp = fdopen(in, "w");
}

/* Wait for the converter; a fatal error if it failed. */
static void close_fst(void)
{
    int status = 0;
    pid_t pid = (pid_t)T.child;
    T.child = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        gsc_fatal("%s failed writing %s.fst (status %d)", T.fst.c_str(), T.path.c_str(), status);
}

static void open_file(void)
{
    std::string file = T.path + (T.fst.empty() ? ".vcd" : ".fst");
    if (!T.fst.empty()) {
        open_fst(file);
    } else if (!(T.fp = fopen(file.c_str(), "w"))) {
        int e = errno;
        T.closed = true;
        gsc_fatal("cannot create %s: %s", file.c_str(), g_strerror(e));
    }
    setvbuf(T.fp, nullptr, _IOFBF, (size_t)1 << 20);
    if (!T.out.buf)
        T.out.grow();
    /* what happened before the window is not shown: the dump holds the state it left */
    forget_dirty();
    T.cycle_value = T.from;
    T.cycle_next = T.from + 1;
    write_header();
    mark_all(); /* the first cycle looks at everything (a strobe may hold a value from before) */
    T.writer = new gsc_vcd_writer();
    gsc_g.simc->add_trace_file(T.writer);
    T.open = true;
    T.written = true;
}

/* The groups an activation of a process of module m marks: m's and those of every module m calls
 * into (gsc_trace_calls), transitively; NULL when there are none. One set per module. */
static const gsc_trace_marks *
marks_of(gsc_module *m, const std::unordered_map<gsc_module *, var_group *> &groups,
         const std::unordered_map<gsc_module *, std::vector<gsc_module *>> &callees,
         std::unordered_map<gsc_module *, const gsc_trace_marks *> &memo)
{
    auto it = memo.find(m);
    if (it != memo.end())
        return it->second;
    std::unique_ptr<gsc_trace_marks> mk(new gsc_trace_marks);
    std::vector<gsc_module *> todo{m};
    std::unordered_set<gsc_module *> seen{m};
    while (!todo.empty()) {
        gsc_module *x = todo.back();
        todo.pop_back();
        auto g = groups.find(x);
        if (g != groups.end())
            mk->groups.push_back(g->second);
        auto c = callees.find(x);
        if (c != callees.end())
            for (gsc_module *y : c->second)
                if (seen.insert(y).second)
                    todo.push_back(y);
    }
    const gsc_trace_marks *r = nullptr;
    if (!mk->groups.empty()) {
        r = mk.get();
        T.owned_marks.push_back(std::move(mk));
    }
    memo[m] = r;
    return r;
}

namespace
{
/* An arrival hook while tracing: marks the groups of its FIFO's consumer, then runs the hook. */
struct traced_hook {
    gsc_process_fn fn;
    void *ctx;
    const gsc_trace_marks *marks; /* NULL: the FIFO has no consumer port, so every group */
    static void run(void *p)
    {
        traced_hook *h = (traced_hook *)p;
        if (h->marks)
            gsc_trace_mark(h->marks);
        else
            mark_all();
        h->fn(h->ctx);
    }
};
} // namespace

/* Which groups each process's activation and each arrival hook marks. */
static void make_marks(const std::unordered_map<gsc_module *, var_group *> &groups)
{
    std::unordered_map<gsc_module *, std::vector<gsc_module *>> callees;
    for (const auto &c : T.calls)
        callees[c.first].push_back(c.second);
    std::unordered_map<gsc_module *, const gsc_trace_marks *> memo;
    for (gsc_proc_rt *rt : gsc_g.rts)
        rt->tmarks = marks_of(rt->m, groups, callees, memo);
    for (const gsc_traceable &t : gsc_g.traceables) {
        gsc_event *e = t.fifo ? t.fifo->arrival : nullptr;
        if (!e || e->hook == traced_hook::run)
            continue;
        gsc_module *m = t.fifo->consumer ? t.fifo->consumer->m : nullptr;
        T.owned_hooks.emplace_back(new traced_hook{e->hook, e->hook_ctx, nullptr});
        traced_hook *h = T.owned_hooks.back().get();
        if (m) {
            h->marks = marks_of(m, groups, callees, memo);
            if (!h->marks) { /* nothing traced there: the hook needs no wrapper */
                T.owned_hooks.pop_back();
                continue;
            }
        }
        e->hook = traced_hook::run;
        e->hook_ctx = h;
    }
    for (const auto &m : memo)
        if (m.second)
            T.module_marks[m.first] = m.second;
    for (const auto &g : groups)
        if (!T.module_marks.count(g.first))
            T.module_marks[g.first] = marks_of(g.first, groups, callees, memo);
}

/* Called at the end of gsc_elaborate: choose what is traced, and open the file if the window
 * starts at cycle 0. */
void gsc_trace_elaborate(void)
{
    if (!T.requested)
        return;
    std::unordered_map<gsc_module *, var_group *> by_module;
    for (const gsc_traceable &t : gsc_g.traceables) {
        if (t.fifo) {
            select_fifo(t.fifo);
        } else if (t.latch) {
            select_latch(t.latch);
        } else if (t.pulse) {
            if (selected(t.name)) {
                if (t.pulse->promised < 0)
                    gsc_fatal("%s is traced, but gsc_pulse_will_trace answered no before gsc_trace_open: "
                              "open the trace first",
                              t.name.c_str());
                t.pulse->traced = true;
                gsc_hot.pulses_traced = true;
                t.pulse->sig = add_signal(t.name, parent_of(t.name), t.ctype, nullptr, t.width);
            }
        } else if (t.counter) {
            if (selected(t.name)) {
                T.cycle_sig = (int)add_signal(t.name, parent_of(t.name), GSC_U64, &T.cycle_value, 64);
                T.sigs.back().counter = true;
            }
        } else if (t.ctype != GSC_OPAQUE && selected(t.name, t.detail)) {
            unsigned i = add_signal(t.name, parent_of(t.name), t.ctype, t.addr, t.width, t.en);
            if (t.traced_flag)
                *t.traced_flag = true;
            unsigned nb = T.hot[i].nbytes;
            if (t.strobe)
                T.hot[i].kind = KIND_COUNT; /* written as a count, then set back to 0 */
            uint64_t rank = t.strobe ? STROBE_RANK | i
                                     : (uint64_t)(nb == 1   ? 0
                                                  : nb == 2 ? 1
                                                  : nb == 4 ? 2
                                                            : 3)
                                               << 32 |
                                           i;
            var_group *&g = by_module[t.owner];
            if (!g) {
                T.owned_groups.emplace_back(new var_group);
                g = T.owned_groups.back().get();
                g->m = t.owner;
                T.groups.push_back(g);
            }
            if (t.strobe)
                g->strobes.push_back({t.addr, 0, rank, i, (uint8_t)nb, true});
            else
                g->by_size[rank >> 32].push_back({t.addr, 0, i});
            T.changed.push_back(0); /* room for its change */
        }
    }
    make_marks(by_module);
    const char *chk = g_getenv("GPUSC_TRACE_CHECK");
    if (chk && *chk && strcmp(chk, "0") != 0)
        T.check = true;
    T.nudge_ev = new sc_event("gsc_trace_nudge_event");
    sc_spawn_options o;
    o.spawn_method();
    o.set_sensitivity(T.nudge_ev);
    o.dont_initialize();
    sc_spawn(nudged(), "gsc_trace_nudge", &o);
    if (T.from == 0)
        open_file();
}

uint64_t gsc_trace_next_boundary(uint64_t next_cycle)
{
    (void)next_cycle;
    if (!T.requested || T.closed)
        return UINT64_MAX;
    if (!T.open)
        return T.from;
    if (T.to)
        return T.to + 1;
    return UINT64_MAX;
}

static void close_file(void)
{
    if (!T.open)
        return;
    /* what changed between runs after the last cycle written shows in the next cycle */
    if (!T.dirty_fifos.empty() || !T.dirty_latches.empty() || !T.dirty_pulses.empty()) {
        mark_all(); /* (it may also be a change made after the run, by whatever code) */
        write_cycle(gsc_now_cycle());
    }
    /* the counter up to the last cycle run */
    if (T.cycle_sig >= 0 && gsc_now_cycle() > T.cycle_next) {
        count_cycles(gsc_now_cycle() - 1);
        write_time((gsc_now_cycle() - 1) * gsc_g.period);
        update((unsigned)T.cycle_sig);
    }
    /* the end of the dump: just below the next cycle */
    uint64_t end = gsc_now_cycle() * gsc_g.period;
    if (end > 0 && (!T.any_written || end - 1 > T.last_time))
        write_time(end - 1);
    flush_out();
    gsc_g.simc->remove_trace_file(T.writer);
    delete T.writer;
    T.writer = nullptr;
    errno = 0;
    bool bad = fflush(T.fp) != 0 || ferror(T.fp);
    int e = T.write_errno ? T.write_errno : errno;
    if (fclose(T.fp) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (bad)
        T.write_error = "cannot write " + T.path + (T.fst.empty() ? ".vcd" : ".fst") + ": " +
                        (e ? g_strerror(e) : "write error");
    T.fp = nullptr;
    T.open = false;
    T.closed = true;
    if (T.child)
        close_fst();
}

void gsc_trace_at_boundary(uint64_t next_cycle)
{
    if (!T.requested || T.closed)
        return;
    if (!T.open && next_cycle >= T.from)
        open_file();
    if (T.open && T.to && next_cycle > T.to)
        close_file();
}

extern "C" void gsc_trace_close(void)
{
    close_file();
    if (T.requested)
        T.closed = true;
}

void gsc_trace_atexit(void)
{
    gsc_trace_close();
}

void gsc_trace_reset(void)
{
    gsc_trace_close();
    T = trace_state();
}

extern "C" bool gsc_trace_written(void)
{
    return T.written;
}

extern "C" const char *gsc_trace_write_error(void)
{
    return T.write_error.empty() ? nullptr : T.write_error.c_str();
}

extern "C" const char *gsc_trace_unmatched_pattern(unsigned i)
{
    if (!gsc_g.elaborated)
        return nullptr;
    for (size_t k = 0; k < T.patterns.size(); k++)
        if (!T.pattern_used[k] && i-- == 0)
            return T.patterns[k].c_str();
    return nullptr;
}

extern "C" unsigned gsc_trace_count(void)
{
    return (unsigned)T.sigs.size();
}

extern "C" const char *gsc_trace_signal_name(unsigned i)
{
    return i < T.sigs.size() ? T.sigs[i].name.c_str() : nullptr;
}

extern "C" unsigned gsc_trace_signal_width(unsigned i)
{
    return i < T.sigs.size() ? T.sigs[i].width : 0;
}

extern "C" bool gsc_trace_signal_is_real(unsigned i)
{
    return i < T.sigs.size() && T.sigs[i].real;
}

extern "C" const char *gsc_trace_signal_group(unsigned i)
{
    return i < T.sigs.size() ? T.sigs[i].group.c_str() : nullptr;
}

extern "C" void gsc_trace_dump_range(uint64_t *first_ps, uint64_t *last_ps)
{
    *first_ps = T.written ? T.from * gsc_g.period : 0;
    *last_ps = T.any_written ? T.last_time : 0;
}

extern "C" const gsc_enum *gsc_trace_signal_enum(unsigned i)
{
    return i < T.sigs.size() ? T.sigs[i].en : nullptr;
}

extern "C" bool gsc_trace_signal_is_counter(unsigned i)
{
    return i < T.sigs.size() && T.sigs[i].counter;
}

extern "C" bool gsc_trace_signal_changed(unsigned i)
{
    if (i >= T.moved.size())
        return false;
    const traced_signal &s = T.sigs[i];
    if (s.chan)
        return s.chan->tr->max_puts > 0 || s.chan->n != s.chan->tr->dump_n;
    if (s.latch)
        return s.latch->moved;
    if (s.counter)
        return T.cycle_next > T.from + 1;
    return T.moved[i];
}

extern "C" bool gsc_trace_signal_unused(unsigned i)
{
    return i < T.sigs.size() && T.sigs[i].fifo && T.sigs[i].slot >= T.sigs[i].fifo->max_puts;
}
