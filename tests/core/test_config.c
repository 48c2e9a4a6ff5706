/* test_config — defaults, presets, files, --set precedence, instance vs type sections,
 * --dump-config, and the configuration errors (each with its file and line), checked on a
 * subprocess's stderr and exit status. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "models/core/cli.h"
#include "models/core/config.h"
#include "models/demo/demo.h"

static const blk_param_desc top_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1000", "1", "1000000", NULL, "ps", "core clock period"},
};
static const blk_desc top_desc = {
    "test_config_top", "the test's top level", "", NULL, 0, top_params, BLK_N(top_params), NULL, 0, NULL, 0,
};

/* INI files live in a directory named after the test process (the parent of a subprocess), so
 * the parent can remove what its children wrote. */
static char *ini_dir(void)
{
    int pid = g_test_subprocess() ? (int)getppid() : (int)getpid();
    return g_strdup_printf("%s/gpusc-config-%d", g_get_tmp_dir(), pid);
}

static char *write_ini(const char *name, const char *text)
{
    char *dir = ini_dir();
    g_assert_cmpint(g_mkdir_with_parents(dir, 0700), ==, 0);
    char *path = g_build_filename(dir, name, NULL);
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    g_free(dir);
    return path;
}

static void remove_inis(void)
{
    char *dir = ini_dir();
    static const char *const names[] = {"run.ini", "p.ini"};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        char *path = g_build_filename(dir, names[i], NULL);
        g_remove(path);
        g_free(path);
    }
    g_rmdir(dir);
    g_free(dir);
}

/* ---- in-process: the configuration API ---- */

static const char *lookup(const cfg *c, const char *path, const blk_desc *d, const char *key,
                          const char **source)
{
    cfg_value_ref ref;
    cfg_lookup(c, path, d->name, blk_desc_param(d, key), &ref);
    *source = ref.source;
    return ref.text;
}

static void test_defaults(void)
{
    demo_register();
    cfg *c = cfg_new();
    const char *src;
    g_assert_cmpstr(lookup(c, "tb.alu", &demo_alu_desc, "latency", &src), ==, "3");
    g_assert_cmpstr(src, ==, "default");
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "depth", &src), ==, "4");
    cfg_free(c);
}

static void test_precedence(void)
{
    demo_register();
    GError *err = NULL;
    cfg *c = cfg_new();
    const char *src;
    g_assert_true(cfg_load_preset(c, "demo-backpressure", &err));
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "depth", &src), ==, "2");
    g_assert_cmpstr(src, ==, "preset demo-backpressure");
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "burst", &src), ==, "8");

    char *path = write_ini("p.ini", "# a comment\n\n[demo_sink]\ndepth = 8\n");
    g_assert_true(cfg_load_file(c, path, &err));
    g_assert_no_error(err);
    char *where = g_strdup_printf("%s:4", path);
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "depth", &src), ==, "8");
    g_assert_cmpstr(src, ==, where);
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "burst", &src), ==, "8"); /* preset still */

    g_assert_true(cfg_set(c, "demo_sink.depth=16", &err));
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "depth", &src), ==, "16");
    g_assert_cmpstr(src, ==, "--set");

    /* An instance section beats the type section, whatever the order. */
    g_assert_true(cfg_set(c, "tb.sink.depth=32", &err));
    g_assert_true(cfg_set(c, "demo_sink.depth=64", &err));
    g_assert_cmpstr(lookup(c, "tb.sink", &demo_sink_desc, "depth", &src), ==, "32");
    g_assert_cmpstr(lookup(c, "tb.sink2", &demo_sink_desc, "depth", &src), ==, "64");

    /* The API's errors carry their code. */
    g_assert_false(cfg_set(c, "demo_sink.depth=0", &err));
    g_assert_error(err, CFG_ERROR, CFG_ERROR_RANGE);
    g_clear_error(&err);
    g_assert_false(cfg_set(c, "demo_sink.depth=deep", &err));
    g_assert_error(err, CFG_ERROR, CFG_ERROR_TYPE);
    g_clear_error(&err);
    g_assert_false(cfg_set(c, "demo_sink.width=1", &err));
    g_assert_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN);
    g_clear_error(&err);
    g_assert_false(cfg_set(c, "nodot=1", &err));
    g_assert_error(err, CFG_ERROR, CFG_ERROR_SYNTAX);
    g_clear_error(&err);
    g_assert_false(cfg_load_preset(c, "nothing", &err));
    g_assert_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN);
    g_clear_error(&err);
    g_free(where);
    g_free(path);
    cfg_free(c);
    remove_inis();
}

/* ---- in a subprocess: a program's command line ---- */

/* Child: a program with src, alu, alu2 and sink under "tb", options from args, an INI file from
 * ini (NULL: none). Ends by exit() in cli_parse/cli_elaborate, or elaborates and returns. */
static void child_program(const char *ini, const char *const *args)
{
    demo_register();
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)"test-config");
    char *path = NULL;
    if (ini) {
        path = write_ini("run.ini", ini);
        g_ptr_array_add(argv, (char *)"--config");
        g_ptr_array_add(argv, path);
    }
    for (unsigned i = 0; args && args[i]; i++)
        g_ptr_array_add(argv, (char *)args[i]);
    g_ptr_array_add(argv, (char *)"--no-trace");
    g_ptr_array_add(argv, NULL);
    int argc = (int)argv->len - 1;
    char **av = (char **)argv->pdata;
    cli_run *run = cli_new("test-config", "test", &top_desc, "tb", "demo");
    cli_parse(run, &argc, &av);
    demo_source_new(run->ctx, run->top->mod, "src");
    demo_alu_new(run->ctx, run->top->mod, "alu");
    demo_alu_new(run->ctx, run->top->mod, "alu2");
    demo_sink_new(run->ctx, run->top->mod, "sink");
    cli_elaborate(run);
}

static void test_dump_config(void)
{
    if (g_test_subprocess()) {
        static const char *const args[] = {
            "--preset",         "demo-backpressure", "--set", "demo_alu.latency=9", "--seed", "42", "--set",
            "tb.sink.pause=11", "--dump-config",     NULL};
        child_program("[demo_alu]\nlatency=5\n[tb.alu]\nlatency=7\nop=xor\n", args);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    remove_inis();
    g_test_trap_assert_passed();
    /* Instances in creation order, each value with its source; instance section beats --set on the type. */
    g_test_trap_assert_stdout(
        "*\n[tb]\n# test_config_top: the test's top level\n# default\nperiod_ps=1000\n"
        "\n[tb.src]\n*# preset demo-backpressure\ncount=64\n# --seed\nseed=42\n# default\nrate=100\n"
        "\n[tb.alu]\n*# */run.ini:4\nlatency=7\n# */run.ini:5\nop=xor\n*"
        "\n[tb.alu2]\n*# --set\nlatency=9\n# default\nop=mul\n*"
        "\n[tb.sink]\n*# preset demo-backpressure\ndepth=2\n# preset demo-backpressure\nburst=8\n"
        "# --set\npause=11\n");
}

static void test_default_preset(void)
{
    if (g_test_subprocess()) {
        static const char *const args[] = {"--dump-config", NULL};
        child_program("[demo_source]\ncount=10\n", args);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    remove_inis();
    g_test_trap_assert_passed();
    /* The program's default preset ("demo"), then the file over it. */
    g_test_trap_assert_stdout("*[tb.src]\n*# */run.ini:2\ncount=10\n*[tb.alu]\n*# preset demo\nlatency=3\n*");
}

typedef struct {
    const char *path;
    const char *ini; /* NULL: no file */
    const char *arg1, *arg2;
    const char *stderr_glob;
} error_case;

static const error_case error_cases[] = {
    {"/config/error/unknown-key", "# demo\n[demo_alu]\nlatency=2\nbogus=1\n", NULL, NULL,
     "gpusc: */run.ini:4: [demo_alu] bogus: unknown key (parameters of demo_alu: latency, op, imm, "
     "in_depth)\n"},
    {"/config/error/wrong-type", "[demo_sink]\n\nburst=lots\n", NULL, NULL,
     "gpusc: */run.ini:3: [demo_sink] burst: expected an unsigned integer, got 'lots'\n"},
    {"/config/error/syntax", "[demo_source]\ncount=5\n; not a comment in GKeyFile\n", NULL, NULL,
     "gpusc: */run.ini:3: syntax error*\n"},
    {"/config/error/out-of-range", "[demo_source]\ncount=5\n# ok\n\nrate=101\n", NULL, NULL,
     "gpusc: */run.ini:5: [demo_source] rate: 101 is out of range [1, 100]\n"},
    {"/config/error/enum", "[demo_alu]\nop=div\n", NULL, NULL,
     "gpusc: */run.ini:2: [demo_alu] op: expected one of {add, sub, mul, xor}, got 'div'\n"},
    {"/config/error/set-range", NULL, "--set", "demo_alu.latency=0",
     "gpusc: --set demo_alu.latency=0: [demo_alu] latency: 0 is out of range [1, 64]\n"},
    {"/config/error/set-unknown", NULL, "--set", "demo_alu.speed=3",
     "gpusc: --set demo_alu.speed=3: [demo_alu] speed: unknown key*\n"},
    {"/config/error/set-syntax", NULL, "--set", "latency",
     "gpusc: --set latency: expected section.key=value\n"},
    {"/config/error/unknown-section", "[demo_alu]\nlatency=4\n[tb.nothing]\nx=1\n", NULL, NULL,
     "gpusc: */run.ini:4: [tb.nothing] x: unknown section (neither a block type nor an instance)\n"},
    {"/config/error/instance-key", "[tb.alu2]\n\n\nspeed=1\n", NULL, NULL,
     "gpusc: */run.ini:4: [tb.alu2] speed: unknown key*\n"},
    {"/config/error/instance-value", "[tb.alu2]\nlatency=65\n", NULL, NULL,
     "gpusc: */run.ini:2: [tb.alu2] latency: 65 is out of range [1, 64]\n"},
    {"/config/error/instance-set", NULL, "--set", "tb.sink.depth=x",
     "gpusc: --set tb.sink.depth=x: [tb.sink] depth: expected an unsigned integer, got 'x'\n"},
    /* GKeyFile takes key[locale] as a translation and would drop it silently */
    {"/config/error/locale-key", "[demo_alu]\nlatency=3\nlatency[de]=abc\n", NULL, NULL,
     "gpusc: */run.ini:3: [demo_alu] latency[de]: unknown key (localised keys, key[locale], are not "
     "parameters)\n"},
    {"/config/error/locale-key-instance", "[tb.alu]\n\nop[fr]=add\n", NULL, NULL,
     "gpusc: */run.ini:3: [tb.alu] op[fr]: unknown key (localised keys, key[locale], are not parameters)\n"},
    /* the top's period_ps range allows 1 here; the clock needs 2: still an error naming the key */
    {"/config/error/period-below-clock", NULL, "--set", "tb.period_ps=1",
     "gpusc: --set tb.period_ps=1: [tb] period_ps: 1 is out of range: the core clock needs at least 2 ps\n"},
    {"/config/error/key-outside-section", "latency=3\n", NULL, NULL,
     "gpusc: */run.ini:1: syntax error: key outside of any [section]\n"},
    {"/config/error/unknown-preset", NULL, "--preset", "fast",
     "gpusc: unknown preset 'fast' (known: demo, demo-backpressure)\n"},
    {"/config/error/missing-file", NULL, "--config", "/nonexistent/x.ini", "gpusc: *x.ini*\n"},
};

static void test_error(gconstpointer data)
{
    const error_case *ec = data;
    if (g_test_subprocess()) {
        const char *args[] = {ec->arg1, ec->arg2, NULL};
        child_program(ec->ini, ec->arg1 ? args : NULL);
        g_printerr("child: no error\n");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    remove_inis();
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(ec->stderr_glob);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/config/defaults", test_defaults);
    g_test_add_func("/config/precedence", test_precedence);
    g_test_add_func("/config/dump-config", test_dump_config);
    g_test_add_func("/config/default-preset", test_default_preset);
    for (unsigned i = 0; i < G_N_ELEMENTS(error_cases); i++)
        g_test_add_data_func(error_cases[i].path, &error_cases[i], test_error);
    return g_test_run();
}
