/* gsc_trace.cc — VCD tracing through SystemC's own VCD writer (sc_create_vcd_trace_file, sc_trace).
 *
 * - Selection: at elaboration, every latch field (<latch>.<field>), every FIFO signal (<fifo>.put,
 *   <fifo>.<field>, <fifo>.occupancy) and every gsc_trace_var whose full dotted name matches one of
 *   the glob patterns (g_pattern_match_simple), or has a dotted prefix that matches one, is traced;
 *   leading components may be left out of a pattern ("sm0.*" selects "gpu.sm0.issue.out.warp").
 *   OPAQUE fields are never traced.
 * - A latch is traced through a mirror of its latest write, so a value written in cycle N shows at
 *   time N * period.
 * - A FIFO shows what is put into it: <fifo>.put, a 1-bit strobe high in the cycles an item was put;
 *   <fifo>.<field>, the fields of the last item put (a mirror, as for latches); <fifo>.occupancy,
 *   the items stored (its counter, watched in place). The strobe is lowered by an internal method
 *   process woken for the cycle after a put (see lower_strobes).
 * - Window: the file is created when the run reaches from_cycle (the run pauses there) and closed
 *   once to_cycle has executed, so no value change is recorded outside [from, to]. The initial
 *   values are stamped #(from * period) at close (see fixup_window_start).
 * - Timescale 1 ps: cycle k is at #(k * period_ps).
 * - The writer's header is patched in place at close: the $date is replaced by a fixed date (runs
 *   are byte-identical) and the writer's root scope "SystemC" is blanked out (turned into an empty
 *   $comment of the same length), so the scopes are exactly our dotted names.
 */
#include "sc/gsc_impl.h"

#include <glib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

using namespace sc_core;

namespace
{
struct traced_signal {
    std::string name;
    unsigned width;
    bool real;
    gsc_ctype ctype;
    const void *addr;
};

struct trace_state {
    bool requested = false;
    bool open = false;
    bool closed = false;
    std::string path; /* without ".vcd" */
    std::vector<std::string> patterns;
    std::vector<bool> pattern_used; /* a pattern selected at least one signal */
    bool written = false;           /* the file was created (the window was reached) */
    uint64_t from = 0, to = 0;
    sc_trace_file *tf = nullptr;
    std::vector<traced_signal> sigs;
    sc_event *strobe_ev = nullptr;         /* wakes lower_strobes (never counts as activity) */
    bool strobe_armed = false;             /* strobe_ev is notified and lower_strobes has not run yet */
    std::vector<gsc_fifo_trace *> strobes; /* raised put strobes, to lower */
    std::vector<gsc_pulse *> pulses;       /* fired pulses, to lower */
};
trace_state T;
} // namespace

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
static bool selected(const std::string &name)
{
    bool any = false;
    for (size_t i = 0; i < T.patterns.size(); i++) {
        if (any && T.pattern_used[i])
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
    if (g_str_has_suffix(path, ".vcd"))
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
    p->shown = -1;
    gsc_traceable t{};
    t.pulse = p;
    t.name = full;
    t.ctype = GSC_U32;
    t.addr = &p->count;
    t.width = width;
    gsc_g.traceables.push_back(t);
    return p;
}

static void add_signal(const std::string &name, gsc_ctype ctype, const void *addr, unsigned width)
{
    if (ctype == GSC_OPAQUE)
        return;
    traced_signal s;
    s.name = name;
    s.real = ctype == GSC_F32 || ctype == GSC_F64;
    s.width = (s.real || width == 0) ? full_width(ctype) : width;
    s.ctype = ctype;
    s.addr = addr;
    T.sigs.push_back(s);
}

static void trace_signal(const traced_signal &s)
{
    const int w = (int)s.width;
    switch (s.ctype) {
    case GSC_BOOL:
        sc_trace(T.tf, *(const bool *)s.addr, s.name);
        break;
    case GSC_U8:
        sc_trace(T.tf, *(const unsigned char *)s.addr, s.name, w);
        break;
    case GSC_U16:
        sc_trace(T.tf, *(const unsigned short *)s.addr, s.name, w);
        break;
    case GSC_U32:
        sc_trace(T.tf, *(const unsigned int *)s.addr, s.name, w);
        break;
    case GSC_U64:
        sc_trace(T.tf, *(const sc_dt::uint64 *)s.addr, s.name, w);
        break;
    case GSC_I8:
        sc_trace(T.tf, *(const char *)s.addr, s.name, w);
        break;
    case GSC_I16:
        sc_trace(T.tf, *(const short *)s.addr, s.name, w);
        break;
    case GSC_I32:
        sc_trace(T.tf, *(const int *)s.addr, s.name, w);
        break;
    case GSC_I64:
        sc_trace(T.tf, *(const sc_dt::int64 *)s.addr, s.name, w);
        break;
    case GSC_F32:
        sc_trace(T.tf, *(const float *)s.addr, s.name);
        break;
    case GSC_F64:
        sc_trace(T.tf, *(const double *)s.addr, s.name);
        break;
    default:
        break;
    }
}

static void open_file(void)
{
    /* SystemC's writer reports a file it cannot create as a fatal error from inside its kernel and
     * leaves a half-made trace file that crashes at exit: find out first, and say so plainly. */
    std::string file = T.path + ".vcd";
    FILE *probe = fopen(file.c_str(), "w");
    if (!probe) {
        int e = errno;
        T.closed = true;
        gsc_fatal("cannot create %s: %s", file.c_str(), g_strerror(e));
    }
    fclose(probe);
    T.tf = sc_create_vcd_trace_file(T.path.c_str());
    T.tf->set_time_unit(1, SC_PS);
    for (const traced_signal &s : T.sigs)
        trace_signal(s);
    T.open = true;
    T.written = true;
}

/* The strobe of a put in cycle N must be high when the writer samples cycle N and low at N+1,
 * whatever else happens then. The writer samples the watched addresses at the end of each time step
 * that exists, so a flag set by the put would stay high for good: a process woken by a timed
 * notification for N+1 (which makes that time step exist even if nothing else is scheduled then)
 * lowers it; it keeps the strobes raised for N+1 itself (a put of N+1 that ran before it). The
 * wake-up is a raw kernel notification, not gsc_notify_at: it is not activity, so a traced run lasts
 * exactly as long as an untraced one (gsc_run's starvation horizon and gsc_activations() ignore it). */
namespace
{
struct lower_strobes {
    void operator()() const
    {
        int64_t now = (int64_t)gsc_now_cycle();
        T.strobe_armed = false;
        size_t keep = 0;
        for (gsc_fifo_trace *tr : T.strobes) {
            if (tr->put_shown >= now) {
                T.strobes[keep++] = tr;
            } else {
                tr->put = false;
                tr->pending = false;
            }
        }
        T.strobes.resize(keep);
        keep = 0;
        for (gsc_pulse *p : T.pulses) {
            if (p->shown >= now) {
                T.pulses[keep++] = p;
            } else {
                p->count = 0;
                p->pending = false;
            }
        }
        T.pulses.resize(keep);
        /* What stays raised was raised for this cycle while this wake-up was pending (lower_after
         * left it alone): wake up again in the next cycle to lower it. */
        if (!T.strobes.empty() || !T.pulses.empty()) {
            T.strobe_armed = true;
            T.strobe_ev->notify(sc_time::from_value((uint64_t)(now + 1) * gsc_g.period - gsc_now_ps()));
        }
    }
};
} // namespace

/* Wake lower_strobes for the cycle after `show`. When a wake-up is already pending (for that cycle,
 * or for `show` itself: a strobe raised between runs, or in a cycle before lower_strobes ran), it is
 * left alone: the kernel would keep the earlier notification and drop this one, and lower_strobes
 * wakes itself again for the next cycle while it keeps a strobe raised. */
static void lower_after(int64_t show)
{
    if (!T.strobe_armed) {
        T.strobe_armed = true;
        uint64_t now = gsc_now_ps();
        T.strobe_ev->notify(sc_time::from_value((uint64_t)(show + 1) * gsc_g.period - now));
    }
}

extern "C" void gsc_pulse_fire(gsc_pulse *p)
{
    if (!p->traced)
        return;
    int64_t show = (int64_t)gsc_now_cycle();
    p->count = p->shown == show ? p->count + 1 : 1;
    p->shown = show;
    if (!p->pending) {
        p->pending = true;
        T.pulses.push_back(p);
    }
    lower_after(show);
}

void gsc_trace_fifo_put(gsc_fifo *f)
{
    gsc_fifo_trace *tr = f->tr;
    if (tr->hi > tr->lo) {
        const unsigned char *item = f->items + (size_t)((f->head + f->n - 1) % f->depth) * f->stride;
        memcpy(tr->mirror + tr->lo, item + tr->lo, tr->hi - tr->lo);
    }
    /* the cycle it shows at: this one in a run; between runs the next one (as for a latch write) */
    int64_t show = (int64_t)gsc_now_cycle();
    tr->put = true;
    tr->put_shown = show;
    if (!tr->pending) {
        tr->pending = true;
        T.strobes.push_back(tr);
    }
    lower_after(show);
}

static gsc_fifo_trace *fifo_trace(gsc_fifo *f)
{
    if (!f->tr) {
        f->tr = new gsc_fifo_trace{};
        f->tr->mirror = (unsigned char *)g_malloc0(f->size);
        f->tr->lo = f->size;
        f->tr->hi = 0;
        f->tr->put_shown = -1;
    }
    return f->tr;
}

/* The fields <chan>.<field> of a channel's type that the patterns select (OPAQUE never), watched
 * in the mirror mirror_for(field) returns (it makes the mirror on first use). */
template <typename F> static void select_fields(const std::string &chan, const gsc_type *ty, F mirror_for)
{
    for (unsigned i = 0; i < ty->n_fields; i++) {
        const gsc_field *fd = &ty->fields[i];
        std::string name = chan + "." + fd->name;
        if (fd->ctype == GSC_OPAQUE || !selected(name))
            continue;
        add_signal(name, fd->ctype, mirror_for(fd) + fd->offset, fd->width);
    }
}

static void select_latch(gsc_latch *l)
{
    select_fields(l->name, l->type, [l](const gsc_field *) {
        if (!l->mirror) {
            l->mirror = (unsigned char *)g_malloc0(l->size);
            memcpy(l->mirror, l->buf[l->w], l->size);
        }
        return l->mirror;
    });
}

/* A FIFO's signals, in this order: put, the fields (OPAQUE excepted), occupancy. */
static void select_fifo(gsc_fifo *f)
{
    std::string put = f->name + ".put";
    if (selected(put))
        add_signal(put, GSC_BOOL, &fifo_trace(f)->put, 1);
    select_fields(f->name, f->type, [f](const gsc_field *fd) {
        gsc_fifo_trace *tr = fifo_trace(f);
        tr->lo = std::min(tr->lo, fd->offset);
        tr->hi = std::max(tr->hi, fd->offset + fd->size);
        return tr->mirror;
    });
    std::string occ = f->name + ".occupancy";
    if (selected(occ))
        add_signal(occ, GSC_U32, &f->n, g_bit_storage(f->depth));
}

/* Called at the end of gsc_elaborate: choose what is traced, and open the file if the window
 * starts at cycle 0. */
void gsc_trace_elaborate(void)
{
    if (!T.requested)
        return;
    bool strobes = false;
    for (const gsc_traceable &t : gsc_g.traceables) {
        if (t.fifo) {
            select_fifo(t.fifo);
            strobes = strobes || t.fifo->tr;
        } else if (t.latch) {
            select_latch(t.latch);
        } else if (t.pulse) {
            if (selected(t.name)) {
                t.pulse->traced = true;
                strobes = true;
                add_signal(t.name, t.ctype, t.addr, t.width);
            }
        } else if (selected(t.name)) {
            add_signal(t.name, t.ctype, t.addr, t.width);
        }
    }
    if (strobes) {
        T.strobe_ev = new sc_event("gsc_trace_strobe_event");
        sc_spawn_options o;
        o.spawn_method();
        o.set_sensitivity(T.strobe_ev);
        o.dont_initialize();
        sc_spawn(lower_strobes(), "gsc_trace_lower_strobes", &o);
    }
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

/* The most of the file read back looking for the end of the header (its definitions). */
#define TRACE_HEADER_MAX ((size_t)256 << 20)

/* Replace `len` bytes at `off` with `repl` padded with spaces. */
static void patch(FILE *fp, long off, size_t len, const char *repl)
{
    std::string s(repl);
    if (s.size() > len)
        s.resize(len);
    s.append(len - s.size(), ' ');
    fseek(fp, off, SEEK_SET);
    fwrite(s.data(), 1, len, fp);
}

/* Make the header reproducible and drop the writer's "SystemC" root scope (see the top comment). */
static void fixup_header(const char *file)
{
    FILE *fp = fopen(file, "r+b");
    if (!fp)
        return;
    std::string head;
    char buf[65536];
    size_t n;
    while (head.size() < TRACE_HEADER_MAX && (n = fread(buf, 1, sizeof buf, fp)) > 0) {
        head.append(buf, n);
        if (head.find("$enddefinitions") != std::string::npos)
            break;
    }
    size_t end = head.find("$enddefinitions");
    if (end != std::string::npos) {
        head.resize(end);
        size_t d = head.find("$date");
        if (d != std::string::npos) {
            size_t s = d + 5, e = head.find("$end", s);
            if (e != std::string::npos && e - s >= 2) {
                /* keep the leading newline and the one before $end */
                patch(fp, (long)s + 1, e - s - 2, "     Jan 01, 1970       00:00:00");
            }
        }
        const char *root = "$scope module SystemC $end";
        size_t r = head.find(root);
        size_t u = head.rfind("$upscope $end");
        if (r != std::string::npos && u != std::string::npos && u > r) {
            patch(fp, (long)r, strlen(root), "$comment");
            patch(fp, (long)(r + strlen(root) - 4), 4, "$end");
            patch(fp, (long)u, strlen("$upscope $end"), "$comment $end");
        }
    }
    fclose(fp);
}

/* Read up to `max` bytes from `off`. */
static std::string read_at(FILE *fp, long off, size_t max)
{
    std::string s(max, '\0');
    fseek(fp, off, SEEK_SET);
    s.resize(fread(&s[0], 1, max, fp));
    return s;
}

/* A window that starts after cycle 0: SystemC writes the initial values ($dumpvars, taken just
 * before the window) with no timestamp in front, so a reader would place them at time 0. Give them
 * the window's start time: the writer's "All initial values are dumped below..." $comment, which
 * sits between $enddefinitions and $dumpvars, becomes "#<from * period>" followed by a shorter
 * comment of the same total length. If the first timestamp after the dump is that same time, it is
 * blanked (whitespace), so the file has one monotonic time line. */
static void fixup_window_start(FILE *fp, uint64_t t)
{
    std::string head = read_at(fp, 0, 1 << 20);
    size_t defs = head.find("$enddefinitions");
    size_t dump = head.find("$dumpvars", defs == std::string::npos ? 0 : defs);
    if (defs == std::string::npos || dump == std::string::npos)
        return;
    size_t c = head.find("$comment", defs);
    size_t ce = c == std::string::npos ? c : head.find("$end", c + 8);
    if (c == std::string::npos || ce == std::string::npos || ce > dump)
        return;
    char stamp[96];
    snprintf(stamp, sizeof stamp, "#%" PRIu64 "\n$comment window start", t);
    size_t len = ce - c; /* the comment up to (not including) its $end */
    if (strlen(stamp) > len)
        return;
    patch(fp, (long)c, len, stamp);
    /* The end of the $dumpvars block, then the first timestamp after it. */
    const long chunk = 1 << 16;
    long off = (long)dump;
    bool in_dump = true;
    std::string carry;
    for (;;) {
        std::string s = read_at(fp, off, chunk);
        if (s.empty())
            return;
        std::string buf = carry + s;
        long base = off - (long)carry.size();
        if (in_dump) {
            size_t e = buf.find("\n$end");
            if (e == std::string::npos) {
                carry = buf.substr(buf.size() > 8 ? buf.size() - 8 : 0);
                off += (long)s.size();
                continue;
            }
            in_dump = false;
            buf.erase(0, e + 5);
            base += (long)(e + 5);
        }
        size_t h = buf.find_first_not_of(" \t\r\n");
        if (h == std::string::npos) {
            carry.clear();
            off += (long)s.size();
            continue;
        }
        size_t he = buf.find_first_of(" \t\r\n", h);
        if (he == std::string::npos)
            return; /* the file ends in the token; nothing to blank */
        std::string tok = buf.substr(h, he - h);
        if (tok == "#" + std::to_string(t))
            patch(fp, base + (long)h, tok.size(), "");
        return;
    }
}

static void close_file(void)
{
    if (!T.open)
        return;
    sc_close_vcd_trace_file(T.tf);
    T.tf = nullptr;
    T.open = false;
    T.closed = true;
    std::string file = T.path + ".vcd";
    /* Only a regular file is read back and patched: a device or a pipe would be read forever (or
     * give back something else than what was written). */
    struct stat st;
    if (stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return;
    fixup_header(file.c_str());
    if (T.from > 0) {
        FILE *fp = fopen(file.c_str(), "r+b");
        if (fp) {
            fixup_window_start(fp, T.from * gsc_g.period);
            fclose(fp);
        }
    }
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
