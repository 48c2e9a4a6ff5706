/* VCD tracing: a traced run writes a VCD whose scopes are the dotted hierarchy; a latch field
 * changes at the cycle it was written, with its declared width; a FIFO shows a put strobe, the
 * fields of the item put and its occupancy at the right cycles; the trace window bounds the value
 * changes; glob patterns select what is traced; vcd2fst accepts the file; two runs are
 * byte-identical. The systems run in subprocesses; the parent parses what they wrote. */
#include "sc/gsc.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the traced system */

typedef struct {
    uint32_t pc;
    bool valid;
    uint8_t warp;
    float f;
    int16_t s;
    uint8_t lanes[16];
} pkt;
static const gsc_field pkt_fields[] = {
    GSC_FIELD(pkt, pc, GSC_U32, 12), GSC_FIELD(pkt, valid, GSC_BOOL, 1), GSC_FIELD(pkt, warp, GSC_U8, 6),
    GSC_FIELD(pkt, f, GSC_F32, 0),   GSC_FIELD(pkt, s, GSC_I16, 0),      GSC_FIELD(pkt, lanes, GSC_OPAQUE, 0),
};
static const gsc_type pkt_type = GSC_TYPE(pkt, pkt_fields);

static gsc_latch *out, *other;
static gsc_fifo *q;
static uint32_t state;

static void fetch(void *ctx)
{
    (void)ctx;
    uint64_t k = gsc_cycle();
    pkt p;
    memset(&p, 0, sizeof p);
    p.pc = (uint32_t)k * 4;
    p.valid = k & 1;
    p.warp = (uint8_t)(k % 64);
    p.f = (float)k / 2;
    p.s = (int16_t) - (int)k;
    gsc_latch_write(out, &p);
    gsc_latch_write(other, &p);
    state = (uint32_t)k * 3;
}

/* The FIFO tb.q (depth 4): one item put in cycles 1, 5 and 6, three in cycle 2 (item j of cycle k:
 * pc 100 + k + 50 j, warp k + j), one got per cycle from cycle 4 (before the put), so the
 * occupancy after each cycle is 0 1 4 4 3 3 3 2 1 0 (full in cycles 2 and 3). */
static void move(void *ctx)
{
    (void)ctx;
    uint64_t k = gsc_cycle();
    if (k >= 4 && gsc_fifo_can_get(q))
        gsc_fifo_get(q, NULL);
    unsigned n = k == 2 ? 3 : (k == 1 || k == 5 || k == 6);
    for (unsigned j = 0; j < n; j++) {
        pkt p;
        memset(&p, 0, sizeof p);
        p.pc = 100 + (uint32_t)k + 50 * j;
        p.warp = (uint8_t)(k + j);
        memset(p.lanes, (int)k, sizeof p.lanes);
        gsc_fifo_put(q, &p);
    }
}

/* Build and run the system; the trace path, patterns and window come from the environment. */
static void run_traced(void)
{
    const char *path = g_getenv("GSC_TEST_VCD");
    const char *patterns = g_getenv("GSC_TEST_PATTERNS");
    uint64_t from = g_ascii_strtoull(g_getenv("GSC_TEST_FROM"), NULL, 10);
    uint64_t to = g_ascii_strtoull(g_getenv("GSC_TEST_TO"), NULL, 10);
    gsc_init("test_vcd");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *tb = gsc_module_new(NULL, "tb");
    gsc_module *sm = gsc_module_new(tb, "sm0");
    gsc_module *f = gsc_module_new(sm, "fetch");
    out = gsc_latch_new(f, "out", &pkt_type);
    other = gsc_latch_new(tb, "other", &pkt_type);
    gsc_trace_var(f, "state", GSC_U32, &state, 10);
    q = gsc_fifo_new(tb, "q", &pkt_type, 4);
    gsc_process *p = gsc_process_new(f, "p", fetch, NULL);
    gsc_sensitive_clock(p, clk);
    gsc_process *m = gsc_process_new(tb, "mover", move, NULL);
    gsc_sensitive_clock(m, clk);
    gsc_trace_open(path, patterns, from, to);
    gsc_elaborate();
    /* the list for .gtkw writers, printed for the parent to compare with the VCD */
    for (unsigned i = 0; i < gsc_trace_count(); i++)
        g_print("signal %s %u %d\n", gsc_trace_signal_name(i), gsc_trace_signal_width(i),
                gsc_trace_signal_is_real(i));
    gsc_run_cycles(10);
    if (to) {
        /* closed once to_cycle has run: the header was already made reproducible */
        gchar *text = NULL;
        g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
        g_assert_nonnull(strstr(text, "Jan 01, 1970"));
        g_free(text);
    }
}

/* ---- a system where nothing runs after a put: no clocked process; one item put between runs
 * (shown at cycle 0) and one by a process woken at cycle 3 only. The put strobe must still fall in
 * the next cycle, and its wake-ups must not count as activity. */

static void put_once(void *ctx)
{
    (void)ctx;
    pkt p;
    memset(&p, 0, sizeof p);
    p.pc = 200 + (uint32_t)gsc_cycle();
    gsc_fifo_put(q, &p);
}

static void run_idle(void)
{
    gsc_init("test_vcd");
    gsc_clock_new("clk", 1000);
    gsc_module *tb = gsc_module_new(NULL, "tb");
    q = gsc_fifo_new(tb, "q", &pkt_type, 4);
    gsc_event *wake = gsc_event_new(tb, "wake");
    gsc_process *p = gsc_process_new(tb, "putter", put_once, NULL);
    gsc_sensitive_event(p, wake);
    gsc_trace_open(g_getenv("GSC_TEST_VCD"), g_getenv("GSC_TEST_PATTERNS"), 0, 0);
    gsc_elaborate();
    pkt first;
    memset(&first, 0, sizeof first);
    first.pc = 7;
    gsc_fifo_put(q, &first);
    gsc_event_notify(wake, 3);
    /* as untraced: the run starves after cycle 3, with one activation */
    g_assert_cmpuint(gsc_run(0), ==, 4);
    g_assert_cmpuint(gsc_activations(), ==, 1);
    g_assert_cmpuint(gsc_run_cycles(4), ==, 8);
}

/* ---- a FIFO of a type with a used prefix (gsc_type.used), depth 1: a long item (its `tail` in its
 * prefix) put in cycle 0 and got in 1, then a short one (`tail` beyond its prefix) put in cycle 2 in
 * the same ring slot, which still holds the long item's tail. */

typedef struct {
    uint8_t kind; /* 1: long (tail used), 0: short */
    uint32_t a;
    uint32_t tail;
} ppkt;
static const gsc_field ppkt_fields[] = {
    GSC_FIELD(ppkt, kind, GSC_U8, 1),
    GSC_FIELD(ppkt, a, GSC_U32, 8),
    GSC_FIELD(ppkt, tail, GSC_U32, 8),
};
static size_t ppkt_used(const void *item)
{
    return ((const ppkt *)item)->kind ? sizeof(ppkt) : offsetof(ppkt, tail);
}
static const gsc_type ppkt_type = GSC_TYPE_USED(ppkt, ppkt_fields, ppkt_used);

static void prefix_step(void *ctx)
{
    gsc_fifo *f = ctx;
    uint64_t c = gsc_cycle();
    if (c == 0 || c == 2) {
        ppkt p = {.kind = c == 0, .a = 10 + (uint32_t)c, .tail = c == 0 ? 7 : 9};
        gsc_fifo_put(f, &p);
    } else if (c == 1) {
        gsc_fifo_get(f, NULL);
    }
}

static void run_prefix(void)
{
    gsc_init("test_vcd");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *tb = gsc_module_new(NULL, "tb");
    gsc_fifo *f = gsc_fifo_new(tb, "p", &ppkt_type, 1);
    gsc_process *p = gsc_process_new(tb, "step", prefix_step, f);
    gsc_sensitive_clock(p, clk);
    gsc_trace_open(g_getenv("GSC_TEST_VCD"), g_getenv("GSC_TEST_PATTERNS"), 0, 0);
    gsc_elaborate();
    gsc_run_cycles(4);
}

/* ---- a pulse fired between runs (as a harness test calls a block between steps), twice before
 * cycle 2 and once before cycle 3: each shows its count in its cycle and falls back to 0 after. */

static void run_pulse(void)
{
    gsc_init("test_vcd");
    gsc_clock_new("clk", 1000);
    gsc_module *tb = gsc_module_new(NULL, "tb");
    gsc_pulse *hits = gsc_pulse_new(tb, "hits", 4);
    gsc_trace_open(g_getenv("GSC_TEST_VCD"), g_getenv("GSC_TEST_PATTERNS"), 0, 0);
    gsc_elaborate();
    g_assert_true(gsc_pulse_traced(hits));
    gsc_run_cycles(2);
    gsc_pulse_fire(hits);
    gsc_pulse_fire(hits);
    gsc_run_cycles(1);
    gsc_pulse_fire(hits);
    gsc_run_cycles(3);
}

/* ---- calls noted outside a run (as a unit test calls a block's export by hand) while the block's
 * own process notes calls too (in cycles 2, 3 and 4; it stops the run in cycle 3): before the first
 * cycle, between runs (after a run that ran out its cycles, and after a gsc_stop) and after the last
 * run. Each shows in the next cycle to execute, added to that cycle's own calls: tb.calls and
 * tb.last (the value of the cycle's last call). */

static gsc_pulse *notes;
static uint32_t last_note;

static void note(uint32_t v)
{
    gsc_pulse_fire(notes);
    last_note = v;
}

static void note_own(void *ctx)
{
    (void)ctx;
    uint64_t k = gsc_cycle();
    if (k >= 2 && k <= 4)
        note(100 + (uint32_t)k);
    if (k == 3)
        gsc_stop();
}

static void run_notes(void)
{
    gsc_init("test_vcd");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *tb = gsc_module_new(NULL, "tb");
    notes = gsc_pulse_new(tb, "calls", 8);
    gsc_trace_var(tb, "last", GSC_U32, &last_note, 32);
    gsc_process *p = gsc_process_new(tb, "p", note_own, NULL);
    gsc_sensitive_clock(p, clk);
    gsc_trace_open(g_getenv("GSC_TEST_VCD"), g_getenv("GSC_TEST_PATTERNS"), 0, 0);
    gsc_elaborate();
    note(1); /* before cycle 0 */
    note(2);
    g_assert_cmpuint(gsc_run_cycles(2), ==, 2);
    note(3); /* before cycle 2, which notes its own */
    note(4);
    note(5);
    g_assert_cmpuint(gsc_run(0), ==, 4); /* stopped in cycle 3 */
    note(6);                             /* before cycle 4, which notes its own */
    g_assert_cmpuint(gsc_run_cycles(1), ==, 5);
    note(7); /* after the last run: shown at cycle 5 when the file is closed (at exit) */
}

/* ---- dirty marking: tb.a's process changes tb.b's traced variable (a direct call into another
 * block, which has no process of its own) in every cycle: b_state = cycle + 1. With the call
 * declared (gsc_trace_calls) every change shows; undeclared, the check mode (gsc_trace_check) stops
 * the run naming the variable. */

static uint32_t b_state;

static void call_b(void *ctx)
{
    (void)ctx;
    b_state = (uint32_t)gsc_cycle() + 1;
}

static void run_marks(void)
{
    gsc_init("test_vcd");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *tb = gsc_module_new(NULL, "tb");
    gsc_module *a = gsc_module_new(tb, "a"), *b = gsc_module_new(tb, "b");
    gsc_trace_var(b, "state", GSC_U32, &b_state, 10);
    gsc_process *p = gsc_process_new(a, "p", call_b, NULL);
    gsc_sensitive_clock(p, clk);
    if (g_getenv("GSC_TEST_DECLARE"))
        gsc_trace_calls(a, b);
    gsc_trace_check(true);
    gsc_trace_open(g_getenv("GSC_TEST_VCD"), g_getenv("GSC_TEST_PATTERNS"), 0, 0);
    gsc_elaborate();
    gsc_run_cycles(4);
}

/* ---- a small VCD reader */

typedef struct {
    char *name; /* dotted: scopes + reference */
    int width;
    bool real;
    GPtrArray *times;  /* guint64* per change */
    GPtrArray *values; /* char* per change */
} vcd_var;

typedef struct {
    GHashTable *by_id;   /* id -> vcd_var */
    GHashTable *by_name; /* name -> vcd_var */
    char *timescale;
    guint64 first_change, last_change;
    guint n_changes_after_dump;
    bool saw_systemc_scope;
} vcd;

static void var_free(gpointer p)
{
    vcd_var *v = p;
    g_free(v->name);
    g_ptr_array_free(v->times, TRUE);
    g_ptr_array_free(v->values, TRUE);
    g_free(v);
}

static void record(vcd *d, const char *id, const char *value, guint64 t, bool in_dump)
{
    vcd_var *v = g_hash_table_lookup(d->by_id, id);
    g_assert_nonnull(v);
    guint64 *tp = g_new(guint64, 1);
    *tp = t;
    g_ptr_array_add(v->times, tp);
    g_ptr_array_add(v->values, g_strdup(value));
    if (!in_dump) {
        if (d->n_changes_after_dump++ == 0)
            d->first_change = t;
        d->last_change = t;
    }
}

static vcd *vcd_parse(const char *path)
{
    gchar *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    vcd *d = g_new0(vcd, 1);
    d->by_id = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    d->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, var_free);
    gchar **tok = g_strsplit_set(text, " \t\n", -1);
    GPtrArray *scope = g_ptr_array_new();
    guint64 t = 0;
    bool defs = true, in_dump = false, seen_time = false;
    for (gchar **p = tok; *p; p++) {
        const char *w = *p;
        if (!*w)
            continue;
        if (defs) {
            if (!strcmp(w, "$scope")) {
                /* $scope module NAME $end, with any number of blanks */
                gchar **q = p + 1;
                while (!**q)
                    q++;
                q++;
                while (!**q)
                    q++;
                const char *name = *q;
                if (!strcmp(name, "SystemC"))
                    d->saw_systemc_scope = true;
                g_ptr_array_add(scope, (gpointer)name);
                p = q;
            } else if (!strcmp(w, "$upscope")) {
                g_assert_cmpuint(scope->len, >, 0);
                g_ptr_array_remove_index(scope, scope->len - 1);
            } else if (!strcmp(w, "$timescale")) {
                GString *ts = g_string_new(NULL);
                for (p++; strcmp(*p, "$end"); p++)
                    if (**p)
                        g_string_append(ts, *p);
                d->timescale = g_string_free(ts, FALSE);
            } else if (!strcmp(w, "$var")) {
                gchar *f[4];
                int n = 0;
                gchar **q = p + 1;
                for (; n < 4; q++)
                    if (**q)
                        f[n++] = *q;
                vcd_var *v = g_new0(vcd_var, 1);
                GString *name = g_string_new(NULL);
                for (guint i = 0; i < scope->len; i++)
                    g_string_append_printf(name, "%s.", (char *)scope->pdata[i]);
                g_string_append(name, f[3]);
                v->name = g_string_free(name, FALSE);
                v->real = !strcmp(f[0], "real");
                v->width = atoi(f[1]);
                v->times = g_ptr_array_new_with_free_func(g_free);
                v->values = g_ptr_array_new_with_free_func(g_free);
                g_hash_table_insert(d->by_id, g_strdup(f[2]), v);
                g_hash_table_insert(d->by_name, v->name, v);
                while (strcmp(*q, "$end"))
                    q++;
                p = q;
            } else if (!strcmp(w, "$enddefinitions")) {
                defs = false;
                g_assert_cmpuint(scope->len, ==, 0);
            }
            continue;
        }
        if (!strcmp(w, "$comment")) {
            while (strcmp(*p, "$end"))
                p++;
        } else if (!strcmp(w, "$dumpvars")) {
            in_dump = true;
        } else if (!strcmp(w, "$end")) {
            in_dump = false;
        } else if (w[0] == '#') {
            guint64 next = g_ascii_strtoull(w + 1, NULL, 10);
            if (seen_time && next <= t)
                g_error("%s: time #%" G_GUINT64_FORMAT " after #%" G_GUINT64_FORMAT " (each must be later)",
                        path, next, t);
            t = next;
            seen_time = true;
        } else if (w[0] == 'b' || w[0] == 'r') {
            gchar **q = p + 1;
            while (!**q)
                q++;
            record(d, *q, w + 1, t, in_dump);
            p = q;
        } else {
            record(d, w + 1, (char[]){w[0], 0}, t, in_dump);
        }
    }
    g_ptr_array_free(scope, TRUE);
    g_strfreev(tok);
    g_free(text);
    return d;
}

static void vcd_free(vcd *d)
{
    g_hash_table_destroy(d->by_id);
    g_hash_table_destroy(d->by_name);
    g_free(d->timescale);
    g_free(d);
}

/* The value of a var at time t (the last change at or before t), as a number. */
static guint64 value_at(vcd_var *v, guint64 t)
{
    const char *val = NULL;
    for (guint i = 0; i < v->times->len; i++)
        if (*(guint64 *)v->times->pdata[i] <= t)
            val = v->values->pdata[i];
    g_assert_nonnull(val);
    return v->real ? (guint64)(g_ascii_strtod(val, NULL) * 2) : g_ascii_strtoull(val, NULL, 2);
}

/* ---- running a traced system in a subprocess */

static gchar *tmpdir;

/* Run `system` ("main": run_traced, "idle": run_idle, "pulse": run_pulse, "notes": run_notes, "marks":
 * run_marks, "prefix": run_prefix) traced into tmpdir/name, in a
 * subprocess that re-runs the calling test (g_test_trap_subprocess(NULL)): there, the first traced_run_system
 * call builds and runs the system the parent put in the environment, and ends the child. So the child's body
 * is no test of its own (no TAP result that could not fail). */
static gchar *traced_run_system(const char *system, const char *name, const char *patterns, unsigned from,
                                unsigned to)
{
    if (g_test_subprocess()) {
        if (!g_strcmp0(g_getenv("GSC_TEST_SYSTEM"), "idle"))
            run_idle();
        else if (!g_strcmp0(g_getenv("GSC_TEST_SYSTEM"), "pulse"))
            run_pulse();
        else if (!g_strcmp0(g_getenv("GSC_TEST_SYSTEM"), "notes"))
            run_notes();
        else if (!g_strcmp0(g_getenv("GSC_TEST_SYSTEM"), "marks"))
            run_marks();
        else if (!g_strcmp0(g_getenv("GSC_TEST_SYSTEM"), "prefix"))
            run_prefix();
        else
            run_traced();
        exit(0); /* the trace file is closed at exit (gsc_init's atexit) */
    }
    gchar *path = g_build_filename(tmpdir, name, NULL);
    gchar *f = g_strdup_printf("%u", from), *t = g_strdup_printf("%u", to);
    g_setenv("GSC_TEST_SYSTEM", system, TRUE);
    g_setenv("GSC_TEST_VCD", path, TRUE);
    g_setenv("GSC_TEST_PATTERNS", patterns, TRUE);
    g_setenv("GSC_TEST_FROM", f, TRUE);
    g_setenv("GSC_TEST_TO", t, TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_free(f);
    g_free(t);
    return path;
}

static gchar *traced_run(const char *name, const char *patterns, unsigned from, unsigned to)
{
    return traced_run_system("main", name, patterns, from, to);
}

/* A var that must be in the file. */
static vcd_var *var(vcd *d, const char *name)
{
    vcd_var *v = g_hash_table_lookup(d->by_name, name);
    if (!v)
        g_error("%s is not in the VCD", name);
    return v;
}

/* The changes of v as "time:value" words (the $dumpvars one included). */
static gchar *changes(vcd_var *v)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < v->times->len; i++)
        g_string_append_printf(s, "%s%" G_GUINT64_FORMAT ":%s", i ? " " : "", *(guint64 *)v->times->pdata[i],
                               (char *)v->values->pdata[i]);
    return g_string_free(s, FALSE);
}

static void test_fields(void)
{
    gchar *path = traced_run("fields.vcd", "tb.sm0", 0, 0);
    /* the list for .gtkw writers: full dotted names, declared widths, OPAQUE left out */
    g_test_trap_assert_stdout("signal tb.sm0.fetch.out.pc 12 0\n"
                              "signal tb.sm0.fetch.out.valid 1 0\n"
                              "signal tb.sm0.fetch.out.warp 6 0\n"
                              "signal tb.sm0.fetch.out.f 32 1\n"
                              "signal tb.sm0.fetch.out.s 16 0\n"
                              "signal tb.sm0.fetch.state 10 0\n");
    vcd *d = vcd_parse(path);
    g_assert_cmpstr(d->timescale, ==, "1ps");
    g_assert_false(d->saw_systemc_scope);
    g_assert_cmpuint(g_hash_table_size(d->by_name), ==, 6);
    vcd_var *pc = g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.pc");
    g_assert_nonnull(pc);
    g_assert_cmpint(pc->width, ==, 12);
    vcd_var *valid = g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.valid");
    g_assert_nonnull(valid);
    g_assert_cmpint(valid->width, ==, 1);
    vcd_var *f = g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.f");
    g_assert_nonnull(f);
    g_assert_true(f->real);
    vcd_var *s = g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.s");
    g_assert_nonnull(s);
    g_assert_cmpint(s->width, ==, 16);
    vcd_var *st = g_hash_table_lookup(d->by_name, "tb.sm0.fetch.state");
    g_assert_nonnull(st);
    g_assert_cmpint(st->width, ==, 10);
    g_assert_null(g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.lanes"));
    g_assert_null(g_hash_table_lookup(d->by_name, "tb.other.pc"));
    /* a value written in cycle k shows at time k * period */
    for (guint64 k = 0; k < 10; k++) {
        g_assert_cmpuint(value_at(pc, k * 1000), ==, k * 4);
        g_assert_cmpuint(value_at(pc, k * 1000 + 999), ==, k * 4);
        g_assert_cmpuint(value_at(valid, k * 1000), ==, k & 1);
        g_assert_cmpuint(value_at(f, k * 1000), ==, k);
        g_assert_cmpuint(value_at(s, k * 1000), ==, (guint64)(uint16_t)(int16_t) - (int)k);
        g_assert_cmpuint(value_at(st, k * 1000), ==, k * 3);
    }
    /* pc changes every cycle: one change per cycle, at the cycle's time */
    g_assert_cmpuint(pc->times->len, ==, 10);
    for (guint i = 0; i < pc->times->len; i++)
        g_assert_cmpuint(*(guint64 *)pc->times->pdata[i], ==, i * 1000);
    vcd_free(d);
    g_free(path);
}

/* A traced FIFO is lossless: tb.q.put counts the items put in a cycle and the k-th of them shows in
 * tb.q.<field> (k = 0) or tb.q.put<k>.<field> from that cycle (OPAQUE left out); tb.q.get counts the
 * items got; both fall back to 0 half a cycle later, so back-to-back puts are separate pulses;
 * tb.q.full is high while the occupancy is the depth, tb.q.occupancy the items stored after the
 * cycle. */
static void test_fifo(void)
{
    gchar *path = traced_run("fifo.vcd", "tb.q", 0, 0);
    GString *want = g_string_new("signal tb.q.put 3 0\n"
                                 "signal tb.q.pc 12 0\n"
                                 "signal tb.q.valid 1 0\n"
                                 "signal tb.q.warp 6 0\n"
                                 "signal tb.q.f 32 1\n"
                                 "signal tb.q.s 16 0\n"
                                 "signal tb.q.get 3 0\n"
                                 "signal tb.q.full 1 0\n"
                                 "signal tb.q.occupancy 3 0\n");
    for (unsigned k = 1; k < 4; k++)
        g_string_append_printf(
            want,
            "signal tb.q.put%u.pc 12 0\nsignal tb.q.put%u.valid 1 0\nsignal tb.q.put%u.warp 6 0\n"
            "signal tb.q.put%u.f 32 1\nsignal tb.q.put%u.s 16 0\n",
            k, k, k, k, k);
    g_test_trap_assert_stdout(want->str);
    g_string_free(want, TRUE);
    vcd *d = vcd_parse(path);
    g_assert_cmpuint(g_hash_table_size(d->by_name), ==, 9 + 3 * 5);
    g_assert_null(g_hash_table_lookup(d->by_name, "tb.q.lanes"));
    vcd_var *put = var(d, "tb.q.put"), *pc = var(d, "tb.q.pc"), *warp = var(d, "tb.q.warp");
    vcd_var *get = var(d, "tb.q.get"), *full = var(d, "tb.q.full"), *occ = var(d, "tb.q.occupancy");
    vcd_var *pc1 = var(d, "tb.q.put1.pc"), *pc2 = var(d, "tb.q.put2.pc"), *warp2 = var(d, "tb.q.put2.warp");
    g_assert_cmpint(put->width, ==, 3);
    g_assert_cmpint(pc->width, ==, 12);
    g_assert_cmpint(occ->width, ==, 3);
    g_assert_cmpint(full->width, ==, 1);
    static const unsigned puts[10] = {0, 1, 3, 0, 0, 1, 1, 0, 0, 0};
    static const unsigned gets[10] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
    static const unsigned pcs[10] = {0, 101, 102, 102, 102, 105, 106, 106, 106, 106};
    static const unsigned occs[10] = {0, 1, 4, 4, 3, 3, 3, 2, 1, 0};
    for (guint64 k = 0; k < 10; k++) {
        g_assert_cmpuint(value_at(put, k * 1000), ==, puts[k]);
        g_assert_cmpuint(value_at(put, k * 1000 + 999), ==, 0);
        g_assert_cmpuint(value_at(get, k * 1000), ==, gets[k]);
        g_assert_cmpuint(value_at(get, k * 1000 + 999), ==, 0);
        g_assert_cmpuint(value_at(pc, k * 1000), ==, pcs[k]);
        g_assert_cmpuint(value_at(warp, k * 1000), ==, pcs[k] ? pcs[k] - 100 : 0);
        g_assert_cmpuint(value_at(occ, k * 1000), ==, occs[k]);
        g_assert_cmpuint(value_at(full, k * 1000), ==, occs[k] == 4);
    }
    /* every item of cycle 2 is there, each in its slot */
    g_assert_cmpuint(value_at(pc1, 2000), ==, 152);
    g_assert_cmpuint(value_at(pc2, 2000), ==, 202);
    g_assert_cmpuint(value_at(warp2, 2000), ==, 4);
    /* a pulse per cycle with puts, back to 0 in between (also across back-to-back cycles 5, 6) */
    gchar *c = changes(put);
    g_assert_cmpstr(c, ==, "0:0 1000:1 1500:0 2000:11 2500:0 5000:1 5500:0 6000:1 6500:0");
    g_free(c);
    c = changes(occ);
    g_assert_cmpstr(c, ==, "0:0 1000:1 2000:100 4000:11 7000:10 8000:1 9000:0");
    g_free(c);
    vcd_free(d);
    g_free(path);
}

/* The strobe falls in the cycle after a put even when nothing else runs then (no clocked process),
 * and a put between runs shows at the next cycle, as a latch write does. */
static void test_fifo_idle(void)
{
    gchar *path = traced_run_system("idle", "idle.vcd", "*", 0, 0);
    vcd *d = vcd_parse(path);
    /* the dump (0 at time 0) then the put between runs, shown in cycle 0 */
    gchar *c = changes(var(d, "tb.q.put"));
    g_assert_cmpstr(c, ==, "0:0 0:1 500:0 3000:1 3500:0");
    g_free(c);
    c = changes(var(d, "tb.q.pc"));
    g_assert_cmpstr(c, ==, "0:0 0:111 3000:11001011");
    g_free(c);
    c = changes(var(d, "tb.q.occupancy"));
    g_assert_cmpstr(c, ==, "0:0 0:1 3000:10");
    g_free(c);
    vcd_free(d);
    g_free(path);
}

/* A traced field beyond an item's used prefix shows 0 for that item, not the bytes an earlier item
 * left in its ring slot (nor the producer's value, which the FIFO does not copy). */
static void test_fifo_used_prefix(void)
{
    gchar *path = traced_run_system("prefix", "prefix.vcd", "*", 0, 0);
    vcd *d = vcd_parse(path);
    gchar *c = changes(var(d, "tb.p.put"));
    g_assert_cmpstr(c, ==, "0:0 0:1 500:0 2000:1 2500:0");
    g_free(c);
    vcd_var *a = var(d, "tb.p.a"), *tail = var(d, "tb.p.tail"), *kind = var(d, "tb.p.kind");
    /* the long item (cycle 0) shows its tail; the short one (cycle 2) its a and a tail of 0 */
    c = changes(tail);
    g_assert_cmpstr(c, ==, "0:0 0:111 2000:0");
    g_free(c);
    g_assert_cmpuint(value_at(a, 1000), ==, 10);
    g_assert_cmpuint(value_at(kind, 1000), ==, 1);
    g_assert_cmpuint(value_at(tail, 1000), ==, 7);
    g_assert_cmpuint(value_at(a, 3000), ==, 12);
    g_assert_cmpuint(value_at(kind, 3000), ==, 0);
    g_assert_cmpuint(value_at(tail, 3000), ==, 0);
    vcd_free(d);
    g_free(path);
}

/* Pulses fired between runs in two consecutive cycles: 2 in cycle 2, 1 in cycle 3 (each shown in
 * the cycle that follows, as a latch write between runs), back to 0 half a cycle after each. */
static void test_pulse_between_runs(void)
{
    gchar *path = traced_run_system("pulse", "pulse.vcd", "*", 0, 0);
    vcd *d = vcd_parse(path);
    gchar *c = changes(var(d, "tb.hits"));
    g_assert_cmpstr(c, ==, "0:0 2000:10 2500:0 3000:1 3500:0");
    g_free(c);
    vcd_free(d);
    g_free(path);
}

/* Calls noted outside a run: each in the next cycle to execute, with that cycle's own calls, in a
 * file whose time never goes backwards (vcd_parse checks it). */
static void test_notes_outside_run(void)
{
    gchar *path = traced_run_system("notes", "notes.vcd", "*", 0, 0);
    vcd *d = vcd_parse(path);
    gchar *c = changes(var(d, "tb.calls"));
    g_assert_cmpstr(c, ==, "0:0 0:10 500:0 2000:100 2500:0 3000:1 3500:0 4000:10 4500:0 5000:1 5500:0");
    g_free(c);
    c = changes(var(d, "tb.last"));
    g_assert_cmpstr(c, ==, "0:0 0:10 2000:1100110 3000:1100111 4000:1101000 5000:111");
    g_free(c);
    vcd_free(d);
    g_free(path);
}

/* gsc_pulse_will_trace answers, during elaboration, what gsc_elaborate then does; asked before the
 * trace is open, it answered no, and a trace that selects the pulse is refused. */
static void test_pulse_will_trace(void)
{
    if (g_test_subprocess()) {
        const char *path = g_getenv("GSC_TEST_VCD");
        gsc_init("test_vcd");
        gsc_clock_new("clk", 1000);
        gsc_module *tb = gsc_module_new(NULL, "tb");
        gsc_pulse *a = gsc_pulse_new(tb, "a", 4), *b = gsc_pulse_new(tb, "b", 4);
        if (g_getenv("GSC_TEST_EARLY")) {
            g_assert_false(gsc_pulse_will_trace(a));
            gsc_trace_open(path, "*", 0, 0);
            gsc_elaborate(); /* fatal: tb.a would be traced */
            return;
        }
        gsc_trace_open(path, "tb.a", 0, 0);
        g_assert_true(gsc_pulse_will_trace(a));
        g_assert_false(gsc_pulse_will_trace(b));
        gsc_elaborate();
        g_assert_true(gsc_pulse_traced(a));
        g_assert_false(gsc_pulse_traced(b));
        g_assert_true(gsc_pulse_will_trace(a));
        g_assert_false(gsc_pulse_will_trace(b));
        return;
    }
    gchar *path = g_build_filename(tmpdir, "will.vcd", NULL);
    g_setenv("GSC_TEST_VCD", path, TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_setenv("GSC_TEST_EARLY", "1", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_unsetenv("GSC_TEST_EARLY");
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*tb.a is traced, but gsc_pulse_will_trace answered no before gsc_trace_open*");
    g_free(path);
}

static void test_marks_declared(void)
{
    g_setenv("GSC_TEST_DECLARE", "1", TRUE);
    gchar *path = traced_run_system("marks", "marks.vcd", "*", 0, 0);
    g_unsetenv("GSC_TEST_DECLARE");
    vcd *d = vcd_parse(path);
    gchar *c = changes(var(d, "tb.b.state"));
    g_assert_cmpstr(c, ==, "0:0 0:1 1000:10 2000:11 3000:100");
    g_free(c);
    vcd_free(d);
    g_free(path);
}

/* Undeclared, the change made in cycle 1 is not looked for (cycle 0 looks at everything, as the
 * start of a run): the check mode says so. */
static void test_marks_check(void)
{
    if (g_test_subprocess()) {
        run_marks();
        exit(0);
    }
    gchar *path = g_build_filename(tmpdir, "marks-check.vcd", NULL);
    g_setenv("GSC_TEST_VCD", path, TRUE);
    g_setenv("GSC_TEST_PATTERNS", "*", TRUE);
    g_unsetenv("GSC_TEST_DECLARE");
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*trace check: cycle 1: tb.b.state changed*");
    g_free(path);
}

static void test_window(void)
{
    gchar *path = traced_run("window.vcd", "*", 3, 6);
    vcd *d = vcd_parse(path);
    g_assert_cmpuint(d->n_changes_after_dump, >, 0);
    g_assert_cmpuint(d->first_change, ==, 3000);
    /* the last: the put strobe of cycle 6 falling half a cycle later, still inside cycle 6 */
    g_assert_cmpuint(d->last_change, ==, 6500);
    vcd_var *pc = g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.pc");
    g_assert_nonnull(pc);
    /* the dump holds the state before the window (written in cycle 2), stamped at the window's
     * start (#3000, not time 0), then cycles 3..6 */
    g_assert_cmpuint(pc->times->len, ==, 5);
    for (guint i = 0; i < pc->times->len; i++)
        g_assert_cmpuint(*(guint64 *)pc->times->pdata[i], ==, i ? 2000 + i * 1000 : 3000);
    g_assert_cmpstr(pc->values->pdata[0], ==, "1000");
    /* nothing of any signal lies before the window */
    GHashTableIter it;
    gpointer key, val;
    g_hash_table_iter_init(&it, d->by_name);
    while (g_hash_table_iter_next(&it, &key, &val)) {
        vcd_var *v = val;
        g_assert_cmpuint(v->times->len, >, 0);
        if (*(guint64 *)v->times->pdata[0] != 3000)
            g_error("%s starts at %" G_GUINT64_FORMAT ", not at the window", v->name,
                    *(guint64 *)v->times->pdata[0]);
    }
    g_assert_cmpuint(value_at(pc, 3000), ==, 12);
    g_assert_cmpuint(value_at(pc, 6000), ==, 24);
    g_assert_cmpuint(value_at(pc, 9000), ==, 24);
    /* the FIFO too: the dump holds no put (those of cycle 2 are before the window), then the puts
     * of cycles 5 and 6, each a pulse */
    vcd_var *put = var(d, "tb.q.put");
    gchar *c = changes(put);
    g_assert_cmpstr(c, ==, "3000:0 5000:1 5500:0 6000:1 6500:0");
    g_free(c);
    g_assert_cmpuint(value_at(var(d, "tb.q.occupancy"), 3000), ==, 4);
    g_assert_cmpuint(value_at(var(d, "tb.q.occupancy"), 6000), ==, 3);
    /* "*" traces the other latch too */
    g_assert_nonnull(g_hash_table_lookup(d->by_name, "tb.other.pc"));
    vcd_free(d);
    g_free(path);
}

static void test_glob(void)
{
    gchar *path = traced_run("glob.vcd", "tb.sm0.fetch.out.p*, tb.other.*", 0, 0);
    g_test_trap_assert_stdout("signal tb.sm0.fetch.out.pc 12 0\n"
                              "signal tb.other.pc 12 0\n"
                              "signal tb.other.valid 1 0\n*");
    vcd *d = vcd_parse(path);
    g_assert_nonnull(g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.pc"));
    g_assert_null(g_hash_table_lookup(d->by_name, "tb.sm0.fetch.out.valid"));
    g_assert_null(g_hash_table_lookup(d->by_name, "tb.sm0.fetch.state"));
    g_assert_nonnull(g_hash_table_lookup(d->by_name, "tb.other.valid"));
    g_assert_cmpuint(g_hash_table_size(d->by_name), ==, 1 + 5);
    vcd_free(d);
    g_free(path);
}

/* A pattern may leave out the leading components: "sm0.*" selects tb.sm0.*, and "out.p*" the
 * fetch latch's pc, but neither selects the latch outside sm0. */
static void test_glob_relative(void)
{
    gchar *path = traced_run("rel.vcd", "sm0.*", 0, 0);
    g_test_trap_assert_stdout("signal tb.sm0.fetch.out.pc 12 0\n"
                              "signal tb.sm0.fetch.out.valid 1 0\n"
                              "signal tb.sm0.fetch.out.warp 6 0\n"
                              "signal tb.sm0.fetch.out.f 32 1\n"
                              "signal tb.sm0.fetch.out.s 16 0\n"
                              "signal tb.sm0.fetch.state 10 0\n");
    vcd *d = vcd_parse(path);
    g_assert_cmpuint(g_hash_table_size(d->by_name), ==, 6);
    g_assert_null(g_hash_table_lookup(d->by_name, "tb.other.pc"));
    vcd_free(d);
    g_free(path);
    path = traced_run("rel2.vcd", "out.p*", 0, 0);
    g_test_trap_assert_stdout("signal tb.sm0.fetch.out.pc 12 0\n");
    g_free(path);
    /* a FIFO's signals are selected one by one, as latch fields are */
    path = traced_run("rel4.vcd", "q.put, q.occ*", 0, 0);
    g_test_trap_assert_stdout("signal tb.q.put 3 0\n"
                              "signal tb.q.occupancy 3 0\n");
    g_free(path);
    /* no component of any name is "m0" */
    path = traced_run("rel3.vcd", "m0", 0, 0);
    g_test_trap_assert_stdout("");
    g_free(path);
}

static void test_reproducible(void)
{
    gchar *a = traced_run("a.vcd", "*", 0, 0);
    g_usleep(1100 * 1000);                 /* a different wall-clock second */
    gchar *b = traced_run("b", "*", 0, 0); /* ".vcd" is added */
    gchar *ta = NULL, *tb = NULL;
    gsize la, lb;
    gchar *bpath = g_strconcat(b, ".vcd", NULL);
    g_assert_true(g_file_get_contents(a, &ta, &la, NULL));
    g_assert_true(g_file_get_contents(bpath, &tb, &lb, NULL));
    g_assert_cmpuint(la, ==, lb);
    g_assert_true(memcmp(ta, tb, la) == 0);
    g_free(ta);
    g_free(tb);
    g_free(a);
    g_free(b);
    g_free(bpath);
}

/* vcd2fst exits 0 even on garbage: read the FST back with fst2vcd (beside vcd2fst, or on PATH) and
 * check that our scopes and a field made it through. */
static void check_fst(const char *vcd2fst, const char *fst)
{
    gchar *dir = g_path_get_dirname(vcd2fst);
    gchar *tool = g_build_filename(dir, "fst2vcd", NULL);
    if (!g_file_test(tool, G_FILE_TEST_IS_EXECUTABLE)) {
        g_free(tool);
        tool = g_find_program_in_path("fst2vcd");
    }
    g_free(dir);
    if (!tool) {
        /* vcd2fst's exit status alone proves nothing; both come with GTKWave, a dependency */
        g_test_fail_printf("fst2vcd not found (beside %s or on PATH): cannot read the FST back", vcd2fst);
        return;
    }
    const gchar *argv[] = {tool, fst, NULL};
    gchar *out = NULL;
    gint status = -1;
    g_assert_true(g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, NULL));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
    g_assert_nonnull(strstr(out, "$scope module sm0 $end"));
    g_assert_nonnull(strstr(out, " pc [11:0] $end"));
    g_assert_null(strstr(out, "SystemC $end"));
    g_free(out);
    g_free(tool);
}

static void test_vcd2fst(void)
{
    const char *tool = g_getenv("VCD2FST");
    gchar *found = NULL;
    if (!tool || !*tool)
        tool = found = g_find_program_in_path("vcd2fst");
    if (!tool) {
        g_test_skip("vcd2fst not found (set VCD2FST or install gtkwave)");
        return;
    }
    /* and the FST must be read back: a missing fst2vcd fails in check_fst */
    /* a whole run, and a window (its $dumpvars is not at time 0) */
    for (int w = 0; w < 2; w++) {
        gchar *path = w ? traced_run("tofst-window.vcd", "*", 3, 6) : traced_run("tofst.vcd", "*", 0, 0);
        gchar *fst = g_strconcat(path, ".fst", NULL);
        const gchar *argv[] = {tool, path, fst, NULL};
        gint status = -1;
        gchar *err = NULL;
        g_assert_true(g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                                   &err, &status, NULL));
        if (!g_spawn_check_wait_status(status, NULL))
            g_test_message("vcd2fst %s: %s", path, err);
        g_assert_true(g_spawn_check_wait_status(status, NULL));
        g_assert_true(g_file_test(fst, G_FILE_TEST_IS_REGULAR));
        check_fst(tool, fst);
        g_free(err);
        g_free(fst);
        g_free(path);
    }
    g_free(found);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!g_test_subprocess()) {
        tmpdir = g_dir_make_tmp("gsc-vcd-XXXXXX", NULL);
        g_assert_nonnull(tmpdir);
    }
    g_test_add_func("/sc/vcd/fields", test_fields);
    g_test_add_func("/sc/vcd/fifo", test_fifo);
    g_test_add_func("/sc/vcd/fifo-idle", test_fifo_idle);
    g_test_add_func("/sc/vcd/fifo-used-prefix", test_fifo_used_prefix);
    g_test_add_func("/sc/vcd/pulse-between-runs", test_pulse_between_runs);
    g_test_add_func("/sc/vcd/notes-outside-run", test_notes_outside_run);
    g_test_add_func("/sc/vcd/pulse-will-trace", test_pulse_will_trace);
    g_test_add_func("/sc/vcd/window", test_window);
    g_test_add_func("/sc/vcd/marks-declared", test_marks_declared);
    g_test_add_func("/sc/vcd/marks-check", test_marks_check);
    g_test_add_func("/sc/vcd/glob", test_glob);
    g_test_add_func("/sc/vcd/glob-relative", test_glob_relative);
    g_test_add_func("/sc/vcd/reproducible", test_reproducible);
    g_test_add_func("/sc/vcd/vcd2fst", test_vcd2fst);
    int rc = g_test_run();
    if (tmpdir) {
        GDir *dir = g_dir_open(tmpdir, 0, NULL);
        const gchar *n;
        while (dir && (n = g_dir_read_name(dir))) {
            gchar *p = g_build_filename(tmpdir, n, NULL);
            g_unlink(p);
            g_free(p);
        }
        if (dir)
            g_dir_close(dir);
        g_rmdir(tmpdir);
        g_free(tmpdir);
    }
    return rc;
}
