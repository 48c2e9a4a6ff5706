/* test_vcd — the VCD reader on a handwritten VCD, malformed inputs, a small fuzz loop, and the
 * .gtkw writer. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "models/core/gtkw.h"
#include "models/core/vcd.h"

/* Timescale 10 ns; a clock period of 20 ns is 2 units per cycle. */
static const char good_vcd[] = "$date today $end\n"
                               "$version handwritten $end\n"
                               "$timescale 10 ns $end\n"
                               "$scope module top $end\n"
                               "$scope module alu $end\n"
                               "$var wire 4 ! occ [3:0] $end\n"
                               "$var wire 1 \" busy $end\n"
                               "$var real 64 # temp $end\n"
                               "$upscope $end\n"
                               "$scope module sink $end\n"
                               "$var wire 8 $ count $end\n"
                               "$var wire 1 \" busy_alias $end\n"
                               "$upscope $end\n"
                               "$upscope $end\n"
                               "$enddefinitions $end\n"
                               "$comment initial values $end\n"
                               "$dumpvars\n"
                               "b0 !\n"
                               "0\"\n"
                               "r0.5 #\n"
                               "bx $\n"
                               "$end\n"
                               "#2\n"
                               "b11 !\n"
                               "1\"\n"
                               "b1 $\n"
                               "#4\n"
                               "b101 !\n"
                               "r1.25 #\n"
                               "b10 $\n"
                               "#5\n"
                               "0\"\n"
                               "#8\n"
                               "b1111 !\n"
                               "b00000011 $\n";

#define PERIOD_PS 20000 /* 20 ns */

static vcd *load_good(void)
{
    GError *err = NULL;
    vcd *v = vcd_parse("good.vcd", good_vcd, strlen(good_vcd), &err);
    g_assert_no_error(err);
    g_assert_nonnull(v);
    return v;
}

static void test_header(void)
{
    vcd *v = load_good();
    g_assert_cmpuint(vcd_timescale_fs(v), ==, 10000000);
    g_assert_cmpuint(vcd_n_signals(v), ==, 5);
    int occ = vcd_find(v, "top.alu.occ");
    g_assert_cmpint(occ, >=, 0);
    g_assert_cmpint(vcd_find(v, "alu.occ"), ==, occ); /* without the top scope */
    g_assert_cmpint(vcd_find(v, "top.alu.nothing"), ==, -1);
    g_assert_cmpuint(vcd_signal_width(v, (unsigned)occ), ==, 4);
    g_assert_cmpstr(vcd_signal_range(v, (unsigned)occ), ==, "[3:0]");
    int count = vcd_find(v, "top.sink.count");
    g_assert_null(vcd_signal_range(v, (unsigned)count));
    g_assert_true(vcd_signal_is_real(v, (unsigned)vcd_find(v, "top.alu.temp")));
    g_assert_false(vcd_signal_is_real(v, (unsigned)occ));
    vcd_free(v);
}

static void test_values(void)
{
    vcd *v = load_good();
    unsigned occ = (unsigned)vcd_find(v, "top.alu.occ");
    /* Vectors are extended to the declared width. */
    g_assert_cmpstr(vcd_value_at_time(v, occ, 0), ==, "0000");
    g_assert_cmpstr(vcd_value_at_time(v, occ, 3), ==, "0011");
    g_assert_cmpstr(vcd_value_at_time(v, occ, 4), ==, "0101");
    /* Cycle c ends at (c+1)*2 units: the value at the end of cycle 0 is the one before time 2. */
    uint64_t x;
    g_assert_true(vcd_uint_at_cycle(v, occ, 0, PERIOD_PS, &x));
    g_assert_cmpuint(x, ==, 0);
    g_assert_true(vcd_uint_at_cycle(v, occ, 1, PERIOD_PS, &x));
    g_assert_cmpuint(x, ==, 3);
    g_assert_true(vcd_uint_at_cycle(v, occ, 2, PERIOD_PS, &x));
    g_assert_cmpuint(x, ==, 5);
    g_assert_true(vcd_uint_at_cycle(v, occ, 100, PERIOD_PS, &x));
    g_assert_cmpuint(x, ==, 15);
    /* x values: extended with x, not an integer. */
    unsigned count = (unsigned)vcd_find(v, "top.sink.count");
    g_assert_cmpstr(vcd_value_at_time(v, count, 0), ==, "xxxxxxxx");
    g_assert_false(vcd_uint_at_cycle(v, count, 0, PERIOD_PS, &x));
    g_assert_true(vcd_uint_at_cycle(v, count, 4, PERIOD_PS, &x));
    g_assert_cmpuint(x, ==, 3);
    /* Reals. */
    unsigned temp = (unsigned)vcd_find(v, "top.alu.temp");
    g_assert_cmpstr(vcd_value_at_cycle(v, temp, 2, PERIOD_PS), ==, "1.25");
    g_assert_false(vcd_uint_at_cycle(v, temp, 2, PERIOD_PS, &x));
    vcd_free(v);
}

static void test_transitions(void)
{
    vcd *v = load_good();
    unsigned busy = (unsigned)vcd_find(v, "top.alu.busy");
    unsigned alias = (unsigned)vcd_find(v, "top.sink.busy_alias");
    static const struct {
        uint64_t time;
        const char *value;
    } want[] = {{0, "0"}, {2, "1"}, {5, "0"}};
    g_assert_cmpuint(vcd_n_changes(v, busy), ==, G_N_ELEMENTS(want));
    g_assert_cmpuint(vcd_n_changes(v, alias), ==, G_N_ELEMENTS(want)); /* shares the identifier */
    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++) {
        vcd_change c = vcd_change_nth(v, busy, i);
        g_assert_cmpuint(c.time, ==, want[i].time);
        g_assert_cmpstr(c.value, ==, want[i].value);
    }
    /* Time 5 is in cycle 2 (units 4..5). */
    g_assert_cmpuint(vcd_time_to_cycle(v, vcd_change_nth(v, busy, 2).time, PERIOD_PS), ==, 2);
    vcd_free(v);
}

static void test_malformed(void)
{
    static const struct {
        const char *text;
        const char *message; /* a glob on the error */
    } bad[] = {
        {"$scope module a $end\n$var wire 1 ! x $end\n", "*before $enddefinitions*"},
        {"$timescale 3 ps $end\n$enddefinitions $end\n", "bad.vcd:1: bad $timescale*"},
        {"$var wire 0 ! x $end\n$enddefinitions $end\n", "*bad width*"},
        {"$var wire 1 ! $end\n$enddefinitions $end\n", "*needs type, width*"},
        {"$scope module a $end\n$enddefinitions $end\n", "*not closed*"},
        {"$upscope $end\n", "*without $scope*"},
        {"$var wire 1 ! x $end\n$enddefinitions $end\n#1\n1?\n", "bad.vcd:4: *undeclared identifier*"},
        {"$var wire 2 ! x $end\n$enddefinitions $end\nb101 !\n", "bad.vcd:3: *does not fit*"},
        {"$var wire 2 ! x $end\n$enddefinitions $end\nb12 !\n", "*bad bit*"},
        {"$var wire 2 ! x $end\n$enddefinitions $end\n#5\n#4\n", "bad.vcd:4: time goes backwards*"},
        {"$var wire 2 ! x $end\n$enddefinitions $end\n#abc\n", "*bad time*"},
        {"$var wire 2 ! x $end\n$enddefinitions $end\nb10\n", "*without an identifier*"},
        {"$var wire 2 ! x $end\n$enddefinitions $end\nr1.0 !\n", "*real value for non-real*"},
        {"$var real 64 ! x $end\n$enddefinitions $end\nrabc !\n", "*bad real value*"},
        {"$var wire 1 ! x $end\n$var wire 2 ! y $end\n", "*another width*"},
        {"$comment never ends\n", "*without $end*"},
        {"hello\n", "bad.vcd:1: unexpected 'hello'*"},
        {"$enddefinitions $end\nhello\n", "*unexpected 'hello'*"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *err = NULL;
        vcd *v = vcd_parse("bad.vcd", bad[i].text, strlen(bad[i].text), &err);
        g_assert_null(v);
        g_assert_nonnull(err);
        if (!g_pattern_match_simple(bad[i].message, err->message))
            g_error("case %u: error '%s' does not match '%s'", i, err->message, bad[i].message);
        g_error_free(err);
    }
    GError *err = NULL;
    g_assert_null(vcd_parse("nul.vcd", "$end\0x", 6, &err));
    g_assert_nonnull(err);
    g_clear_error(&err);
    g_assert_null(vcd_load("/nonexistent/x.vcd", &err));
    g_assert_nonnull(err);
    g_error_free(err);
}

/* Truncations and random byte mutations: the reader must return a vcd or an error, never crash
 * (run it under the sanitizer build). */
static void test_fuzz(void)
{
    size_t n = strlen(good_vcd);
    unsigned ok = 0, failed = 0;
    for (size_t len = 0; len <= n; len++) {
        GError *err = NULL;
        vcd *v = vcd_parse("trunc.vcd", good_vcd, len, &err);
        g_assert_true((v == NULL) == (err != NULL));
        v ? ok++ : failed++;
        vcd_free(v);
        g_clear_error(&err);
    }
    GRand *r = g_rand_new_with_seed(1234);
    static const char alphabet[] = "01xzbr#$ \n!\"end[]:.-9";
    char *buf = g_malloc(n);
    for (unsigned iter = 0; iter < 3000; iter++) {
        memcpy(buf, good_vcd, n);
        unsigned k = (unsigned)g_rand_int_range(r, 1, 6);
        for (unsigned j = 0; j < k; j++) {
            size_t at = (size_t)g_rand_int_range(r, 0, (gint32)n);
            buf[at] = (iter % 7 == 0) ? (char)g_rand_int_range(r, 1, 256)
                                      : alphabet[g_rand_int_range(r, 0, (gint32)sizeof alphabet - 1)];
        }
        GError *err = NULL;
        vcd *v = vcd_parse("mut.vcd", buf, n, &err);
        g_assert_true((v == NULL) == (err != NULL));
        if (v) {
            /* Exercise the queries on whatever was accepted. */
            for (unsigned s = 0; s < vcd_n_signals(v); s++) {
                uint64_t x;
                vcd_uint_at_cycle(v, s, 3, PERIOD_PS, &x);
                g_assert_nonnull(vcd_signal_name(v, s));
            }
        }
        v ? ok++ : failed++;
        vcd_free(v);
        g_clear_error(&err);
    }
    g_free(buf);
    g_rand_free(r);
    /* Both outcomes happened: the loop did exercise the error paths and the accepting path. */
    g_assert_cmpuint(ok, >, 0);
    g_assert_cmpuint(failed, >, 0);
}

static void test_gtkw(void)
{
    char *dir = g_dir_make_tmp("gpusc-gtkw-XXXXXX", NULL);
    char *vcd_path = g_build_filename(dir, "run.vcd", NULL);
    char *gtkw_path = g_build_filename(dir, "run.gtkw", NULL);
    g_assert_true(g_file_set_contents(vcd_path, good_vcd, -1, NULL));
    /* Traced names as gsc reports them: without the VCD's top scope. */
    static const gtkw_signal sigs[] = {
        {"alu.occ", 4, NULL, false, NULL, false},     {"alu.busy", 1, NULL, false, NULL, false},
        {"sink.count", 8, NULL, false, NULL, false},  {"other.thing", 3, "other", false, NULL, false},
        {"sink.temp", 64, "sink", true, NULL, false},
    };
    GError *err = NULL;
    const gtkw_view view = {PERIOD_PS, 10000000, 0, 8};
    g_assert_true(gtkw_write(gtkw_path, vcd_path, &view, sigs, G_N_ELEMENTS(sigs), &err));
    g_assert_no_error(err);
    char *text = NULL;
    g_assert_true(g_file_get_contents(gtkw_path, &text, NULL, NULL));
    char *dumpfile = g_strdup_printf("[dumpfile] \"%s\"\n[savefile] \"%s\"\n", vcd_path, gtkw_path);
    g_assert_nonnull(strstr(text, dumpfile));
    /* Groups per block (or as given), signals in order and named as registered (the VCD is not
     * read), vectors hex (@22) with ranges, bits binary (@28), reals without a range. */
    const char *expected = "@800200\n-alu\n@22\nalu.occ[3:0]\n@28\nalu.busy\n@1000200\n-alu\n"
                           "@800200\n-sink\n@22\nsink.count[7:0]\n@1000200\n-sink\n"
                           "@800200\n-other\n@22\nother.thing[2:0]\n@1000200\n-other\n"
                           "@800200\n-sink\n@22\nsink.temp\n@1000200\n-sink\n";
    g_assert_nonnull(strstr(text, expected));
    g_free(dumpfile);
    g_free(text);
    g_remove(gtkw_path);
    g_remove(vcd_path);
    g_rmdir(dir);
    g_free(gtkw_path);
    g_free(vcd_path);
    g_free(dir);
    char *group = gtkw_group_of("tb.alu.occupancy");
    g_assert_cmpstr(group, ==, "tb.alu");
    g_free(group);
}

/* Write vcd_text to a temporary VCD, a .gtkw for sigs beside it, and return the .gtkw text. */
static char *gtkw_text_for(const char *vcd_text, const gtkw_view *view, const gtkw_signal *sigs, unsigned n)
{
    char *dir = g_dir_make_tmp("gpusc-gtkw-XXXXXX", NULL);
    char *vcd_path = g_build_filename(dir, "run.vcd", NULL);
    char *gtkw_path = g_build_filename(dir, "run.gtkw", NULL);
    g_assert_true(g_file_set_contents(vcd_path, vcd_text, -1, NULL));
    GError *err = NULL;
    g_assert_true(gtkw_write(gtkw_path, vcd_path, view, sigs, n, &err));
    g_assert_no_error(err);
    char *text = NULL;
    g_assert_true(g_file_get_contents(gtkw_path, &text, NULL, NULL));
    g_remove(gtkw_path);
    g_remove(vcd_path);
    g_rmdir(dir);
    g_free(gtkw_path);
    g_free(vcd_path);
    g_free(dir);
    return text;
}

/* The zoom on the "*" line, which must carry no marker (-1) and 26 unset named markers. */
static double gtkw_zoom_of(const char *text)
{
    const char *line = strstr(text, "\n*");
    g_assert_nonnull(line);
    char *end = NULL;
    double zoom = g_ascii_strtod(line + 2, &end);
    g_assert_true(end != line + 2);
    char *eol = strchr(end, '\n');
    char *rest = g_strndup(end, (gsize)(eol - end));
    char **fields = g_strsplit(g_strstrip(rest), " ", -1);
    g_assert_cmpuint(g_strv_length(fields), ==, 27);
    for (unsigned i = 0; fields[i]; i++)
        g_assert_cmpstr(fields[i], ==, "-1");
    g_strfreev(fields);
    g_free(rest);
    return zoom;
}

/* GTKWave opened these files at 0-4 ps (zoom 0 on a 1 ps timescale): the view must start where
 * the dump starts and span the run, or 256 cycles of a long one. */
static void test_gtkw_view(void)
{
    /* GTKWave shows 2^-zoom units per 200 px: 4096 units across 800 px is zoom -10. */
    g_assert_cmpfloat(gtkw_zoom_for_span(4096, 800), ==, -10.0);
    g_assert_cmpfloat(gtkw_zoom_for_span(100, 200), <, gtkw_zoom_for_span(50, 200));

    static const gtkw_signal sigs[] = {{"alu.occ", 4, NULL, false, NULL, false}};
    const gtkw_view whole = {PERIOD_PS, 10000000, 0, 8}, late = {PERIOD_PS, 10000000, 600, 5000};
    /* good_vcd: 10 ns units, 2 per cycle, changes from 0 to 8: the whole dump plus one cycle
     * (10 units) across the 780 px wave pane. */
    char *text = gtkw_text_for(good_vcd, &whole, sigs, 1);
    g_assert_nonnull(strstr(text, "\n[timestart] 0\n"));
    g_assert_nonnull(strstr(text, "[*] timescale 10000000 fs, clock period 20000 ps\n"));
    g_assert_cmpfloat_with_epsilon(gtkw_zoom_of(text), -log2(10.0 * 200 / 780), 1e-5);
    g_free(text);

    /* A --trace-window dump starts late and runs long: start at its first time, show 256 cycles. */
    static const char windowed[] = "$timescale 10 ns $end\n"
                                   "$scope module top $end\n$scope module alu $end\n"
                                   "$var wire 4 ! occ [3:0] $end\n"
                                   "$upscope $end\n$upscope $end\n$enddefinitions $end\n"
                                   "#600\n$dumpvars\nb1 !\n$end\n#602\nb10 !\n#5000\nb11 !\n";
    text = gtkw_text_for(windowed, &late, sigs, 1);
    g_assert_nonnull(strstr(text, "\n[timestart] 600\n"));
    g_assert_cmpfloat_with_epsilon(gtkw_zoom_of(text), -log2(256.0 * 2 * 200 / 780), 1e-5);
    g_free(text);
}

/* Groups open while they fit in 32 rows (two brace rows plus the signals each), then closed. */
static void test_gtkw_groups_closed(void)
{
    enum { N = 20 };
    gtkw_signal sigs[N];
    char *names[N];
    for (unsigned i = 0; i < N; i++) {
        names[i] = g_strdup_printf("tb.sm%u.x", i);
        sigs[i] = (gtkw_signal){names[i], 1, NULL, false, NULL, false};
    }
    const gtkw_view view = {PERIOD_PS, 10000000, 0, 8};
    char *text = gtkw_text_for(good_vcd, &view, sigs, N);
    /* Ten groups of three rows fit (30), the eleventh would make 33. */
    g_assert_nonnull(strstr(text, "@800200\n-tb.sm9\n@28\ntb.sm9.x\n@1000200\n-tb.sm9\n"));
    g_assert_nonnull(strstr(text, "@c00200\n-tb.sm10\n@28\ntb.sm10.x\n@1000200\n-tb.sm10\n"));
    g_assert_nonnull(strstr(text, "@c00200\n-tb.sm19\n"));
    unsigned open = 0, closed = 0;
    for (const char *p = text; (p = strstr(p, "@800200\n")); p++)
        open++;
    for (const char *p = text; (p = strstr(p, "@c00200\n")); p++)
        closed++;
    g_assert_cmpuint(open, ==, 10);
    g_assert_cmpuint(closed, ==, 10);
    g_free(text);
    for (unsigned i = 0; i < N; i++)
        g_free(names[i]);
}

/* An SM's groups nest in a group of the SM (blocks in trace order), others stay at the top; the
 * SMs' groups close once the rows shown pass a screen, their blocks' groups with them. */
static void test_gtkw_nested(void)
{
    enum { SMS = 12 };
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    gtkw_signal sigs[2 * SMS + 1];
    unsigned n = 0;
    sigs[n++] = (gtkw_signal){"tb.gpu.dispatch.ctas", 8, NULL, false, NULL, false};
    for (unsigned i = 0; i < SMS; i++) {
        char *a = g_strdup_printf("tb.gpu.sm%u.fetch.fetched", i),
             *b = g_strdup_printf("tb.gpu.sm%u.issue.stall", i);
        g_ptr_array_add(names, a);
        g_ptr_array_add(names, b);
        sigs[n++] = (gtkw_signal){a, 1, NULL, false, NULL, false};
        sigs[n++] = (gtkw_signal){b, 1, NULL, false, NULL, false};
    }
    const gtkw_view view = {PERIOD_PS, 10000000, 0, 8};
    char *text = gtkw_text_for(good_vcd, &view, sigs, n);
    /* 2 + 1 rows for dispatch; then each SM 2 + 2 x 3 = 8 rows: sm0, sm1, sm2 open (27 rows); sm3's
     * braces (29) and its fetch group (32) still fit, its issue group does not (35): closed from
     * there on, sm4 and its blocks too */
    g_assert_nonnull(
        strstr(text, "@800200\n-tb.gpu.dispatch\n@22\ntb.gpu.dispatch.ctas[7:0]\n@1000200\n-tb.gpu.dispatch\n"
                     "@800200\n-tb.gpu.sm0\n@800200\n-tb.gpu.sm0.fetch\n@28\ntb.gpu.sm0.fetch.fetched\n"
                     "@1000200\n-tb.gpu.sm0.fetch\n@800200\n-tb.gpu.sm0.issue\n@28\ntb.gpu.sm0.issue.stall\n"
                     "@1000200\n-tb.gpu.sm0.issue\n@1000200\n-tb.gpu.sm0\n@800200\n-tb.gpu.sm1\n"));
    g_assert_nonnull(strstr(text, "@800200\n-tb.gpu.sm3\n@800200\n-tb.gpu.sm3.fetch\n"));
    g_assert_nonnull(strstr(text, "@1000200\n-tb.gpu.sm3.fetch\n@c00200\n-tb.gpu.sm3.issue\n"));
    g_assert_nonnull(
        strstr(text, "@1000200\n-tb.gpu.sm3\n@c00200\n-tb.gpu.sm4\n@c00200\n-tb.gpu.sm4.fetch\n"));
    g_assert_nonnull(
        strstr(text, "@1000200\n-tb.gpu.sm10\n@c00200\n-tb.gpu.sm11\n@c00200\n-tb.gpu.sm11.fetch\n"));
    g_assert_true(g_str_has_suffix(text, "@1000200\n-tb.gpu.sm11.issue\n@1000200\n-tb.gpu.sm11\n"
                                         "[pattern_trace] 1\n[pattern_trace] 0\n"));
    unsigned begins = 0, ends = 0;
    for (const char *p = text; (p = strstr(p, "00200\n-")); p++)
        begins++;
    for (const char *p = text; (p = strstr(p, "@1000200\n-")); p++)
        ends++;
    g_assert_cmpuint(begins - ends, ==, ends); /* "@1000200" ends in "00200" too */
    g_assert_cmpuint(ends, ==, 1 + SMS * 3);
    g_free(text);
    g_ptr_array_free(names, TRUE);
    char *inst = gtkw_instance_of("tb.gpu.sm3.arbiter0");
    g_assert_cmpstr(inst, ==, "tb.gpu.sm3");
    g_free(inst);
    g_assert_null(gtkw_instance_of("tb.gpu.l2_0"));
    g_assert_null(gtkw_instance_of("tb.alu"));
}

/* A group none of whose signals changed is closed and labelled idle, and so is an SM all of whose
 * groups are: the first screen opens only on what acted, in trace order. */
static void test_gtkw_idle(void)
{
    enum { SMS = 6 };
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    gtkw_signal sigs[2 * SMS + 2];
    unsigned n = 0;
    sigs[n++] = (gtkw_signal){"tb.gpu.dispatch.ctas", 8, NULL, false, NULL, false, false};
    for (unsigned i = 0; i < SMS; i++) {
        char *a = g_strdup_printf("tb.gpu.sm%u.fetch.fetched", i),
             *b = g_strdup_printf("tb.gpu.sm%u.issue.stall", i);
        g_ptr_array_add(names, a);
        g_ptr_array_add(names, b);
        /* sm0: fetch acted, issue did not; sm1..sm4 never acted; sm5 acted in both */
        bool idle_sm = i >= 1 && i <= 4;
        sigs[n++] = (gtkw_signal){a, 1, NULL, false, NULL, false, idle_sm};
        sigs[n++] = (gtkw_signal){b, 1, NULL, false, NULL, false, idle_sm || i == 0};
    }
    sigs[n++] = (gtkw_signal){"tb.gpu.l2_0.mshr_used", 4, NULL, false, NULL, false, true};
    const gtkw_view view = {PERIOD_PS, 10000000, 0, 8};
    char *text = gtkw_text_for(good_vcd, &view, sigs, n);
    g_assert_nonnull(
        strstr(text, "@800200\n-tb.gpu.dispatch\n@22\ntb.gpu.dispatch.ctas[7:0]\n@1000200\n-tb.gpu.dispatch\n"
                     "@800200\n-tb.gpu.sm0\n@800200\n-tb.gpu.sm0.fetch\n@28\ntb.gpu.sm0.fetch.fetched\n"
                     "@1000200\n-tb.gpu.sm0.fetch\n@c00200\n-tb.gpu.sm0.issue (idle)\n@28\ntb.gpu.sm0.issue.stall\n"
                     "@1000200\n-tb.gpu.sm0.issue (idle)\n@1000200\n-tb.gpu.sm0\n"
                     "@c00200\n-tb.gpu.sm1 (idle)\n@c00200\n-tb.gpu.sm1.fetch (idle)\n"));
    g_assert_nonnull(strstr(text, "@1000200\n-tb.gpu.sm1.issue (idle)\n@1000200\n-tb.gpu.sm1 (idle)\n"
                                  "@c00200\n-tb.gpu.sm2 (idle)\n"));
    /* the idle SMs take a row each, so the SM after them still opens, whole */
    g_assert_nonnull(strstr(text, "@1000200\n-tb.gpu.sm4 (idle)\n@800200\n-tb.gpu.sm5\n@800200\n"
                                  "-tb.gpu.sm5.fetch\n@28\ntb.gpu.sm5.fetch.fetched\n@1000200\n-tb.gpu.sm5.fetch\n"
                                  "@800200\n-tb.gpu.sm5.issue\n"));
    g_assert_true(g_str_has_suffix(text, "@1000200\n-tb.gpu.sm5\n@c00200\n-tb.gpu.l2_0 (idle)\n@22\n"
                                         "tb.gpu.l2_0.mshr_used[3:0]\n@1000200\n-tb.gpu.l2_0 (idle)\n"
                                         "[pattern_trace] 1\n[pattern_trace] 0\n"));
    unsigned idle = 0;
    for (const char *p = text; (p = strstr(p, "@c00200\n")); p++)
        idle++;
    g_assert_cmpuint(idle, ==, 1 + 4 * 3 + 1); /* sm0.issue; sm1..sm4 and their two blocks; l2_0 */
    g_free(text);
    g_ptr_array_free(names, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/vcd/header", test_header);
    g_test_add_func("/vcd/gtkw/nested", test_gtkw_nested);
    g_test_add_func("/vcd/gtkw/idle", test_gtkw_idle);
    g_test_add_func("/vcd/values", test_values);
    g_test_add_func("/vcd/transitions", test_transitions);
    g_test_add_func("/vcd/malformed", test_malformed);
    g_test_add_func("/vcd/fuzz", test_fuzz);
    g_test_add_func("/gtkw/write", test_gtkw);
    g_test_add_func("/gtkw/view", test_gtkw_view);
    g_test_add_func("/gtkw/groups-closed", test_gtkw_groups_closed);
    return g_test_run();
}
