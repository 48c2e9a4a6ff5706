/* test_tb_pipeline — runs testbench/tb-pipeline as a user would: its VCD is accepted by vcd2fst
 * and read back with the expected transitions, the .gtkw names the traced signals, two runs give
 * byte-identical VCD and statistics, --trace and --trace-window are honoured, configuration
 * errors end the program with the message, --dump-config output loads back. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "models/core/vcd.h"

#define PERIOD_PS 1000
#define LATENCY   3
#define COUNT     40

/* Parameters every run pins down, so the expectations below follow from them. */
#define PIN_ARGS                                                                                             \
    "--set", "demo_alu.latency=3", "--set", "demo_source.count=40", "--set", "tb_pipeline.period_ps=1000"

typedef struct {
    int status;
    char *out, *err;
    char *dir; /* working directory (a fresh temporary one) */
} tb_result;

static char *tb_program(void)
{
    const char *top = g_getenv("top_builddir");
    if (top)
        return g_build_filename(top, "testbench", "tb-pipeline", NULL);
    return g_test_build_filename(G_TEST_BUILT, "..", "..", "testbench", "tb-pipeline", NULL);
}

/* Run tb-pipeline with args (NULL-terminated) in directory dir (taken). */
static tb_result run_tb_in(char *dir, const char *const *args)
{
    tb_result r = {0};
    r.dir = dir;
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, tb_program());
    for (unsigned i = 0; args[i]; i++)
        g_ptr_array_add(argv, g_strdup(args[i]));
    g_ptr_array_add(argv, NULL);
    GError *err = NULL;
    if (!g_spawn_sync(r.dir, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r.out, &r.err,
                      &r.status, &err))
        g_error("cannot run %s: %s", (char *)argv->pdata[0], err->message);
    g_ptr_array_free(argv, TRUE);
    return r;
}

/* Run tb-pipeline with args (NULL-terminated) in a new temporary directory. */
static tb_result run_tb(const char *const *args)
{
    return run_tb_in(g_dir_make_tmp("gpusc-tb-XXXXXX", NULL), args);
}

static bool exited_ok(const tb_result *r)
{
    return g_spawn_check_wait_status(r->status, NULL);
}

static char *in_dir(const tb_result *r, const char *rel)
{
    return g_build_filename(r->dir, rel, NULL);
}

static void rm_rf(const char *path)
{
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        GDir *d = g_dir_open(path, 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
            char *child = g_build_filename(path, name, NULL);
            rm_rf(child);
            g_free(child);
        }
        if (d)
            g_dir_close(d);
        g_rmdir(path);
    } else {
        g_remove(path);
    }
}

static void tb_result_clear(tb_result *r)
{
    rm_rf(r->dir);
    g_free(r->dir);
    g_free(r->out);
    g_free(r->err);
}

static vcd *load_vcd(const tb_result *r, const char *rel)
{
    char *path = in_dir(r, rel);
    GError *err = NULL;
    vcd *v = vcd_load(path, &err);
    g_assert_no_error(err);
    g_free(path);
    return v;
}

static unsigned vcd_signal(const vcd *v, const char *name)
{
    int s = vcd_find(v, name);
    if (s < 0)
        g_error("signal %s not in the VCD", name);
    return (unsigned)s;
}

/* A strict JSON syntax check (RFC 8259), enough to know the statistics file parses. */
static bool json_value(const char **p);

static void json_ws(const char **p)
{
    while (**p == ' ' || **p == '\n' || **p == '\t' || **p == '\r')
        (*p)++;
}

static bool json_string(const char **p)
{
    if (*(*p)++ != '"')
        return false;
    while (**p && **p != '"') {
        if ((unsigned char)**p < 0x20)
            return false;
        if (**p == '\\') {
            (*p)++;
            if (!strchr("\"\\/bfnrtu", **p) || !**p)
                return false;
        }
        (*p)++;
    }
    return *(*p)++ == '"';
}

static bool json_number(const char **p)
{
    const char *s = *p;
    if (**p == '-')
        (*p)++;
    if (!g_ascii_isdigit(**p))
        return false;
    if (**p == '0' && g_ascii_isdigit((*p)[1]))
        return false;
    while (g_ascii_isdigit(**p) || strchr(".eE+-", **p))
        (*p)++;
    char *end = NULL;
    g_ascii_strtod(s, &end);
    return end == *p;
}

static bool json_members(const char **p, char close, bool keyed)
{
    (*p)++;
    json_ws(p);
    if (**p == close) {
        (*p)++;
        return true;
    }
    for (;;) {
        json_ws(p);
        if (keyed) {
            if (!json_string(p))
                return false;
            json_ws(p);
            if (*(*p)++ != ':')
                return false;
        }
        if (!json_value(p))
            return false;
        json_ws(p);
        char c = *(*p)++;
        if (c == close)
            return true;
        if (c != ',')
            return false;
    }
}

static bool json_value(const char **p)
{
    json_ws(p);
    switch (**p) {
    case '{':
        return json_members(p, '}', true);
    case '[':
        return json_members(p, ']', false);
    case '"':
        return json_string(p);
    case 't':
        return strncmp(*p, "true", 4) == 0 && (*p += 4);
    case 'f':
        return strncmp(*p, "false", 5) == 0 && (*p += 5);
    case 'n':
        return strncmp(*p, "null", 4) == 0 && (*p += 4);
    default:
        return json_number(p);
    }
}

static bool json_valid(const char *text)
{
    const char *p = text;
    if (!json_value(&p))
        return false;
    json_ws(&p);
    return *p == '\0';
}

/* The sink takes its first result in cycle LATENCY + 2 (source puts in 0, ALU gets in 1 and puts
 * in 1 + LATENCY, sink gets in 2 + LATENCY), then one per cycle. */
static uint64_t expected_received(uint64_t cycle)
{
    if (cycle < LATENCY + 2)
        return 0;
    return MIN(cycle - (LATENCY + 1), (uint64_t)COUNT);
}

static void test_run(void)
{
    const char *args[] = {PIN_ARGS, "--stats-json", "stats.json", NULL};
    tb_result r = run_tb(args);
    if (!exited_ok(&r))
        g_error("tb-pipeline failed:\n%s", r.err);
    g_assert_nonnull(strstr(r.out, "tb-pipeline: PASS: 40 results checked"));
    g_assert_nonnull(strstr(r.out, "tb.sink.received"));

    vcd *v = load_vcd(&r, "waveforms/tb-pipeline.vcd");
    unsigned received = vcd_signal(v, "tb.sink.received");
    unsigned produced = vcd_signal(v, "tb.src.produced");
    g_assert_cmpuint(vcd_signal_width(v, received), ==, 32);
    for (uint64_t c = 0; c < COUNT + 10; c++) {
        uint64_t x;
        g_assert_true(vcd_uint_at_cycle(v, received, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, expected_received(c));
        g_assert_true(vcd_uint_at_cycle(v, produced, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, MIN(c + 1, (uint64_t)COUNT));
    }
    /* The transitions themselves: the initial 0, then +1 per cycle from cycle LATENCY + 2. */
    g_assert_cmpuint(vcd_n_changes(v, received), ==, COUNT + 1);
    for (unsigned k = 1; k <= COUNT; k++) {
        vcd_change ch = vcd_change_nth(v, received, k);
        g_assert_cmpuint(vcd_time_to_cycle(v, ch.time, PERIOD_PS), ==, LATENCY + 1 + k);
    }
    /* The FIFOs between the blocks: the source puts item c in cycle c, the ALU puts item k in cycle
     * LATENCY + 1 + k; the sink gets one per cycle, so alu_sink never holds more than one. */
    unsigned src_put = vcd_signal(v, "tb.src_alu.put"), src_seq = vcd_signal(v, "tb.src_alu.seq");
    unsigned alu_put = vcd_signal(v, "tb.alu_sink.put"), alu_seq = vcd_signal(v, "tb.alu_sink.seq");
    unsigned alu_occ = vcd_signal(v, "tb.alu_sink.occupancy");
    /* the put count: up to the depth (2) items in a cycle */
    g_assert_cmpuint(vcd_signal_width(v, src_put), ==, 2);
    g_assert_cmpuint(vcd_signal_width(v, alu_seq), ==, 32);
    /* the second item of a cycle has its slot in the waveform (no cycle here puts two) */
    g_assert_cmpint(vcd_find(v, "tb.src_alu.put1.seq"), >=, 0);
    for (uint64_t c = 0; c < COUNT + 10; c++) {
        uint64_t x;
        g_assert_true(vcd_uint_at_cycle(v, src_put, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, c < COUNT);
        g_assert_true(vcd_uint_at_cycle(v, src_seq, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, MIN(c, (uint64_t)COUNT - 1));
        bool alu_puts = c >= LATENCY + 1 && c < LATENCY + 1 + COUNT;
        g_assert_true(vcd_uint_at_cycle(v, alu_put, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, alu_puts);
        g_assert_true(vcd_uint_at_cycle(v, alu_occ, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, alu_puts);
        if (alu_puts) {
            g_assert_true(vcd_uint_at_cycle(v, alu_seq, c, PERIOD_PS, &x));
            g_assert_cmpuint(x, ==, c - (LATENCY + 1));
        }
    }
    vcd_free(v);

    /* The .gtkw beside it opens those signals, grouped by block. */
    char *gtkw = in_dir(&r, "waveforms/tb-pipeline.gtkw");
    char *text = NULL;
    g_assert_true(g_file_get_contents(gtkw, &text, NULL, NULL));
    char *vcd_abs = in_dir(&r, "waveforms/tb-pipeline.vcd");
    char *dumpfile = g_strdup_printf("[dumpfile] \"%s\"", vcd_abs);
    g_assert_nonnull(strstr(text, dumpfile));
    g_assert_nonnull(strstr(text, "@800200\n-tb.sink\n@22\ntb.sink.received[31:0]\n"));
    g_assert_nonnull(strstr(text, "@800200\n-tb.src\n@22\ntb.src.produced[31:0]\n@28\ntb.src.blocked\n"));
    g_assert_nonnull(strstr(text, "\ntb.alu.occupancy[7:0]\n"));
    /* a FIFO is a group of its own: the put count, the fields of the first item put, the get
     * count, full, the occupancy; the second item of a cycle is in a group after it */
    g_assert_nonnull(strstr(text,
                            "@800200\n-tb.src_alu\n@22\ntb.src_alu.put[1:0]\n@22\ntb.src_alu.seq[31:0]\n@22\n"
                            "tb.src_alu.value[31:0]\n@22\ntb.src_alu.get[1:0]\n@28\ntb.src_alu.full\n@22\n"
                            "tb.src_alu.occupancy[1:0]\n@1000200\n-tb.src_alu\n"));
    /* ... but no cycle put two items in src_alu, so the view leaves its put1 slot out */
    g_assert_null(strstr(text, "tb.src_alu.put1"));
    g_free(dumpfile);
    g_free(vcd_abs);
    g_free(text);
    g_free(gtkw);

    char *json = in_dir(&r, "stats.json");
    g_assert_true(g_file_get_contents(json, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, "\"received\": {\"value\": 40, \"unit\": \"items\""));
    g_assert_nonnull(strstr(text, "\"mismatches\": {\"value\": 0,"));
    g_assert_true(json_valid(text));
    /* The checker does reject broken JSON. */
    g_assert_false(json_valid("{\"a\": 1,}"));
    g_assert_false(json_valid("{\"a\": [1, 2}"));
    g_assert_false(json_valid("{\"a\": nan}"));
    g_assert_true(json_valid("{\"a\": [1, -2.5e3, \"x\\\"y\", null, true]}"));
    g_free(text);
    g_free(json);
    tb_result_clear(&r);
}

/* vcd2fst exits 0 even on input it does not understand: convert the FST back with fst2vcd (from the
 * same GTKWave) and check that the reader finds the same transitions as in our VCD. */
static void check_fst_readback(const char *vcd2fst, const char *fst_path, const char *vcd_path)
{
    char *dir = g_path_get_dirname(vcd2fst);
    char *tool = g_build_filename(dir, "fst2vcd", NULL);
    g_free(dir);
    if (!g_file_test(tool, G_FILE_TEST_IS_EXECUTABLE)) {
        g_free(tool);
        tool = g_find_program_in_path("fst2vcd");
    }
    if (!tool)
        g_error("fst2vcd (GTKWave, beside vcd2fst) not found: cannot read the FST back");
    const char *argv[] = {tool, fst_path, NULL};
    char *out = NULL;
    int status;
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, NULL));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
    GError *e = NULL;
    vcd *back = vcd_parse("fst2vcd output", out, strlen(out), &e);
    g_assert_no_error(e);
    vcd *orig = vcd_load(vcd_path, &e);
    g_assert_no_error(e);
    static const char *const names[] = {"tb.sink.received", "tb.src.produced", "tb.src.blocked",
                                        "tb.alu.occupancy"};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        unsigned a = vcd_signal(orig, names[i]), b = vcd_signal(back, names[i]);
        g_assert_cmpuint(vcd_signal_width(back, b), ==, vcd_signal_width(orig, a));
        g_assert_cmpuint(vcd_n_changes(back, b), ==, vcd_n_changes(orig, a));
        for (unsigned k = 0; k < vcd_n_changes(orig, a); k++) {
            vcd_change ca = vcd_change_nth(orig, a, k), cb = vcd_change_nth(back, b, k);
            g_assert_cmpuint(cb.time, ==, ca.time);
            g_assert_cmpstr(cb.value, ==, ca.value);
        }
    }
    /* and the FST carries the transitions the test expects, not only the same file */
    unsigned received = vcd_signal(back, "tb.sink.received");
    g_assert_cmpuint(vcd_n_changes(back, received), ==, COUNT + 1);
    g_assert_cmpuint(vcd_change_nth(back, received, 1).time, ==, (LATENCY + 2) * PERIOD_PS);
    vcd_free(back);
    vcd_free(orig);
    g_free(out);
    g_free(tool);
}

static void test_vcd2fst(void)
{
    const char *tool = g_getenv("VCD2FST");
    char *found = NULL;
    if (!tool || !*tool)
        tool = found = g_find_program_in_path("vcd2fst");
    if (!tool) {
        g_test_skip("vcd2fst (GTKWave) not found");
        return;
    }
    const char *args[] = {PIN_ARGS, NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    char *vcd_path = in_dir(&r, "waveforms/tb-pipeline.vcd");
    char *fst_path = in_dir(&r, "tb-pipeline.fst");
    const char *argv[] = {tool, vcd_path, fst_path, NULL};
    int status;
    char *out = NULL, *err = NULL;
    g_assert_true(
        g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
    if (!g_spawn_check_wait_status(status, NULL))
        g_error("vcd2fst rejected the VCD:\n%s%s", out, err);
    GStatBuf st;
    g_assert_cmpint(g_stat(fst_path, &st), ==, 0);
    g_assert_cmpint(st.st_size, >, 0);
    g_free(out);
    g_free(err);
    check_fst_readback(tool, fst_path, vcd_path);
    g_free(vcd_path);
    g_free(fst_path);
    g_free(found);
    tb_result_clear(&r);
}

static char *slurp(const tb_result *r, const char *rel)
{
    char *path = in_dir(r, rel);
    char *text = NULL;
    gsize len;
    g_assert_true(g_file_get_contents(path, &text, &len, NULL));
    g_free(path);
    return text;
}

static void test_deterministic(void)
{
    const char *args[] = {"--preset",     "demo-backpressure", "--set", "demo_source.rate=70",
                          "--stats-json", "stats.json",        NULL};
    tb_result a = run_tb(args), b = run_tb(args);
    g_assert_true(exited_ok(&a));
    g_assert_true(exited_ok(&b));
    static const char *const files[] = {"waveforms/tb-pipeline.vcd", "stats.json"};
    for (unsigned i = 0; i < G_N_ELEMENTS(files); i++) {
        char *ta = slurp(&a, files[i]), *tb = slurp(&b, files[i]);
        g_assert_cmpuint(strlen(ta), >, 100);
        if (strcmp(ta, tb) != 0)
            g_error("%s differs between two runs", files[i]);
        g_free(ta);
        g_free(tb);
    }
    g_assert_cmpstr(a.out, ==, b.out);
    /* The back-pressure preset makes the ALU stall and the sink pause. */
    char *json = slurp(&a, "stats.json");
    g_assert_null(strstr(json, "\"stalls\": {\"value\": 0,"));
    g_assert_nonnull(
        strstr(json, "\"pause_cycles\": {\"value\": 42,")); /* 7 pauses of 6 (64 items, burst 8) */
    g_free(json);
    tb_result_clear(&a);
    tb_result_clear(&b);
}

static void test_trace_window(void)
{
    const char *args[] = {PIN_ARGS, "--trace-window=20:30", "--vcd", "w/win.vcd", NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    vcd *v = load_vcd(&r, "w/win.vcd");
    g_assert_cmpuint(vcd_n_signals(v), >, 0);
    /* The initial values ($dumpvars) are stamped at the window's start (#20000), so every signal's
     * first value is at cycle 20 and nothing is known before; every later change lies inside the
     * window. */
    for (unsigned s = 0; s < vcd_n_signals(v); s++) {
        g_assert_cmpuint(vcd_n_changes(v, s), >, 0);
        for (unsigned i = 0; i < vcd_n_changes(v, s); i++) {
            uint64_t t = vcd_change_nth(v, s, i).time;
            if (i == 0 ? t != 20 * PERIOD_PS : (t <= 20 * PERIOD_PS || t >= 31 * PERIOD_PS))
                g_error("%s changes at %" G_GUINT64_FORMAT ", outside the window", vcd_signal_name(v, s), t);
        }
        g_assert_null(vcd_value_at_time(v, s, 20 * PERIOD_PS - 1));
    }
    unsigned received = vcd_signal(v, "tb.sink.received");
    uint64_t x0;
    g_assert_false(vcd_uint_at_cycle(v, received, 19, PERIOD_PS, &x0));
    for (uint64_t c = 20; c <= 30; c++) {
        uint64_t x;
        g_assert_true(vcd_uint_at_cycle(v, received, c, PERIOD_PS, &x));
        g_assert_cmpuint(x, ==, expected_received(c));
    }
    vcd_free(v);
    char *gtkw = in_dir(&r, "w/win.gtkw");
    g_assert_true(g_file_test(gtkw, G_FILE_TEST_EXISTS));
    g_free(gtkw);
    tb_result_clear(&r);
}

static void test_trace_glob(void)
{
    const char *args[] = {PIN_ARGS, "--trace=tb.alu*", NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    vcd *v = load_vcd(&r, "waveforms/tb-pipeline.vcd");
    g_assert_cmpint(vcd_find(v, "tb.alu.occupancy"), >=, 0);
    g_assert_cmpint(vcd_find(v, "tb.sink.received"), ==, -1);
    g_assert_cmpint(vcd_find(v, "tb.src.produced"), ==, -1);
    vcd_free(v);
    char *gtkw = slurp(&r, "waveforms/tb-pipeline.gtkw");
    g_assert_nonnull(strstr(gtkw, "-tb.alu\n"));
    g_assert_null(strstr(gtkw, "tb.sink"));
    g_free(gtkw);
    tb_result_clear(&r);

    /* an instance glob without the top scope, as in --trace='sm0.*' */
    const char *args2[] = {PIN_ARGS, "--trace=sink.*", NULL};
    r = run_tb(args2);
    g_assert_true(exited_ok(&r));
    v = load_vcd(&r, "waveforms/tb-pipeline.vcd");
    g_assert_cmpint(vcd_find(v, "tb.sink.received"), >=, 0);
    g_assert_cmpint(vcd_find(v, "tb.alu.occupancy"), ==, -1);
    g_assert_cmpint(vcd_find(v, "tb.src.produced"), ==, -1);
    vcd_free(v);
    tb_result_clear(&r);
}

static void test_no_trace(void)
{
    const char *args[] = {PIN_ARGS, "--no-trace", NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    char *w = in_dir(&r, "waveforms");
    g_assert_false(g_file_test(w, G_FILE_TEST_EXISTS));
    g_free(w);
    tb_result_clear(&r);
}

static void test_config_error(void)
{
    const char *args[] = {"--set", "demo_alu.latency=0", NULL};
    tb_result r = run_tb(args);
    g_assert_false(exited_ok(&r));
    g_assert_cmpstr(r.err, ==,
                    "gpusc: --set demo_alu.latency=0: [demo_alu] latency: 0 is out of range [1, 64]\n");
    tb_result_clear(&r);

    const char *args2[] = {"--max-cycles", "abc", NULL};
    r = run_tb(args2);
    g_assert_false(exited_ok(&r));
    g_assert_true(g_str_has_prefix(r.err, "gpusc: "));
    tb_result_clear(&r);

    /* the clock needs at least 2 ps: the range error of the key, not the clock's own */
    const char *args3[] = {"--set", "tb_pipeline.period_ps=1", NULL};
    r = run_tb(args3);
    g_assert_false(exited_ok(&r));
    g_assert_cmpstr(
        r.err, ==,
        "gpusc: --set tb_pipeline.period_ps=1: [tb_pipeline] period_ps: 1 is out of range [2, 1000000]\n");
    tb_result_clear(&r);
}

/* --trace-window=F:F traces cycle F alone (the window is inclusive). */
static void test_trace_window_one_cycle(void)
{
    const char *args[] = {PIN_ARGS, "--trace-window=10:10", "--vcd", "w/one.vcd", NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    vcd *v = load_vcd(&r, "w/one.vcd");
    unsigned received = vcd_signal(v, "tb.sink.received");
    uint64_t x;
    g_assert_false(vcd_uint_at_cycle(v, received, 9, PERIOD_PS, &x));
    g_assert_true(vcd_uint_at_cycle(v, received, 10, PERIOD_PS, &x));
    g_assert_cmpuint(x, ==, expected_received(10));
    /* every change is in cycle 10: at its start, or a count falling half a cycle later */
    for (unsigned s = 0; s < vcd_n_signals(v); s++)
        for (unsigned i = 0; i < vcd_n_changes(v, s); i++) {
            uint64_t t = vcd_change_nth(v, s, i).time;
            if (t != 10 * PERIOD_PS)
                g_assert_cmpuint(t, ==, 10 * PERIOD_PS + PERIOD_PS / 2);
        }
    vcd_free(v);
    tb_result_clear(&r);
}

/* A window that starts after the run ends: no VCD, so no .gtkw pointing at one, and a warning; an
 * older pair at those paths is removed (it would pass for this run's). */
static void test_trace_window_late(void)
{
    const char *args[] = {PIN_ARGS, "--trace-window=500:600", "--vcd", "w/late.vcd", NULL};
    tb_result r = run_tb(args);
    char *vcd_path = in_dir(&r, "w/late.vcd"), *gtkw_path = in_dir(&r, "w/late.gtkw");
    g_assert_true(exited_ok(&r));
    g_assert_true(g_str_has_prefix(r.err, "gpusc: warning: the run ended after "));
    g_assert_true(g_str_has_suffix(r.err,
                                   " cycles, before the trace window starts (cycle 500): no w/late.vcd and "
                                   "no .gtkw written\n"));
    g_assert_false(g_file_test(vcd_path, G_FILE_TEST_EXISTS));
    g_assert_false(g_file_test(gtkw_path, G_FILE_TEST_EXISTS));
    /* again, in the same directory, over a stale pair */
    g_assert_true(g_file_set_contents(vcd_path, "stale", -1, NULL));
    g_assert_true(g_file_set_contents(gtkw_path, "stale", -1, NULL));
    tb_result r2 = run_tb_in(g_strdup(r.dir), args);
    g_assert_true(exited_ok(&r2));
    g_assert_true(g_str_has_suffix(r2.err, "no w/late.vcd and no .gtkw written (older ones removed)\n"));
    g_assert_false(g_file_test(vcd_path, G_FILE_TEST_EXISTS));
    g_assert_false(g_file_test(gtkw_path, G_FILE_TEST_EXISTS));
    g_free(vcd_path);
    g_free(gtkw_path);
    g_free(r2.dir);
    g_free(r2.out);
    g_free(r2.err);
    tb_result_clear(&r);
}

/* A --trace pattern that selects nothing is worth a warning (a typo gives an empty VCD otherwise). */
static void test_trace_unmatched(void)
{
    const char *args[] = {PIN_ARGS, "--trace=tb.alu,tb.nothing*", NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    g_assert_cmpstr(r.err, ==, "gpusc: warning: --trace pattern 'tb.nothing*' matches no traced signal\n");
    vcd *v = load_vcd(&r, "waveforms/tb-pipeline.vcd");
    g_assert_cmpint(vcd_find(v, "tb.alu.occupancy"), >=, 0);
    vcd_free(v);
    tb_result_clear(&r);
    const char *args2[] = {PIN_ARGS, "--trace=alu.occupancy", NULL};
    r = run_tb(args2);
    g_assert_true(exited_ok(&r));
    g_assert_cmpstr(r.err, ==, "");
    tb_result_clear(&r);
}

/* The testbench's period_ps sets the core clock: the same cycles at other times. */
static void test_period(void)
{
    const char *args[] = {"--set", "demo_alu.latency=3", "--set", "demo_source.count=40",
                          "--set", "tb.period_ps=2500",  NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    vcd *v = load_vcd(&r, "waveforms/tb-pipeline.vcd");
    unsigned received = vcd_signal(v, "tb.sink.received");
    g_assert_cmpuint(vcd_n_changes(v, received), ==, COUNT + 1);
    for (unsigned k = 1; k <= COUNT; k++)
        g_assert_cmpuint(vcd_change_nth(v, received, k).time, ==, (LATENCY + 1 + k) * 2500);
    vcd_free(v);
    tb_result_clear(&r);
}

/* A wrong result is caught: the reference of item 5 is corrupted on purpose. */
static void test_mismatch(void)
{
    const char *args[] = {PIN_ARGS, "--no-trace", "--set", "tb.selftest_corrupt=5", NULL};
    tb_result r = run_tb(args);
    g_assert_false(exited_ok(&r));
    g_assert_nonnull(strstr(r.err, "tb.sink: cycle 10: item 5: got seq 5 value "));
    g_assert_nonnull(strstr(r.err, "gpusc: tb-pipeline: 1 of 40 results are wrong\n"));
    g_assert_null(strstr(r.out, "PASS"));
    tb_result_clear(&r);
}

/* A run cut short is a failure too. */
static void test_incomplete(void)
{
    const char *args[] = {PIN_ARGS, "--no-trace", "--max-cycles", "20", NULL};
    tb_result r = run_tb(args);
    g_assert_false(exited_ok(&r));
    g_assert_nonnull(strstr(r.err, "gpusc: tb-pipeline: the sink received 15 of 40 items in 20 cycles\n"));
    tb_result_clear(&r);
}

/* --dump-config prints INI that loads back as a --config file and gives the same configuration. */
static void test_dump_roundtrip(void)
{
    const char *args[] = {"--preset",         "demo-backpressure", "--set",
                          "tb.alu.latency=5", "--dump-config",     NULL};
    tb_result r = run_tb(args);
    g_assert_true(exited_ok(&r));
    g_assert_nonnull(strstr(r.out, "[tb.alu]\n"));
    g_assert_nonnull(strstr(r.out, "# --set\nlatency=5\n"));
    char *path = g_build_filename(g_get_tmp_dir(), "gpusc-dump-XXXXXX.ini", NULL);
    int fd = g_mkstemp(path);
    g_assert_cmpint(fd, >=, 0);
    close(fd);
    g_assert_true(g_file_set_contents(path, r.out, -1, NULL));
    const char *args2[] = {"--config", path, "--dump-config", NULL};
    tb_result r2 = run_tb(args2);
    if (!exited_ok(&r2))
        g_error("the dumped configuration does not load back:\n%s", r2.err);
    g_assert_nonnull(strstr(r2.out, "latency=5\n"));
    g_assert_nonnull(strstr(r2.out, "burst=8\n"));
    g_remove(path);
    g_free(path);
    tb_result_clear(&r);
    tb_result_clear(&r2);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tb-pipeline/run", test_run);
    g_test_add_func("/tb-pipeline/vcd2fst", test_vcd2fst);
    g_test_add_func("/tb-pipeline/deterministic", test_deterministic);
    g_test_add_func("/tb-pipeline/trace-window", test_trace_window);
    g_test_add_func("/tb-pipeline/trace-window-one-cycle", test_trace_window_one_cycle);
    g_test_add_func("/tb-pipeline/trace-window-late", test_trace_window_late);
    g_test_add_func("/tb-pipeline/trace-unmatched", test_trace_unmatched);
    g_test_add_func("/tb-pipeline/trace-glob", test_trace_glob);
    g_test_add_func("/tb-pipeline/no-trace", test_no_trace);
    g_test_add_func("/tb-pipeline/config-error", test_config_error);
    g_test_add_func("/tb-pipeline/dump-roundtrip", test_dump_roundtrip);
    g_test_add_func("/tb-pipeline/period", test_period);
    g_test_add_func("/tb-pipeline/mismatch", test_mismatch);
    g_test_add_func("/tb-pipeline/incomplete", test_incomplete);
    return g_test_run();
}
