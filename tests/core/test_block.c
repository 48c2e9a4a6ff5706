/* test_block — the descriptor registry, parameter values, --list-blocks and --describe. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "models/core/block.h"
#include "models/core/cli.h"
#include "models/demo/demo.h"

static void test_registry(void)
{
    demo_register();
    demo_register(); /* idempotent */
    g_assert_true(blk_registry_find("demo_alu") == &demo_alu_desc);
    g_assert_true(blk_registry_find("demo_sink") == &demo_sink_desc);
    g_assert_true(blk_registry_find("demo_source") == &demo_source_desc);
    g_assert_null(blk_registry_find("demo_nothing"));
    g_assert_cmpuint(blk_registry_count(), >=, 3);
    for (unsigned i = 1; i < blk_registry_count(); i++)
        g_assert_cmpint(strcmp(blk_registry_nth(i - 1)->name, blk_registry_nth(i)->name), <, 0);
    g_assert_cmpint(blk_desc_param_index(&demo_alu_desc, "latency"), ==, 0);
    g_assert_cmpint(blk_desc_param_index(&demo_alu_desc, "nothing"), ==, -1);
    g_assert_cmpint(blk_desc_port_index(&demo_alu_desc, "out"), ==, DEMO_ALU_OUT);
    g_assert_cmpstr(blk_desc_param(&demo_sink_desc, "pause")->unit, ==, "cycles");
}

static void check_value(const blk_param_desc *p, const char *text, bool ok, const char *problem_glob)
{
    blk_value v;
    char *problem = NULL;
    bool got = blk_value_parse(p, text, &v, &problem);
    if (got != ok)
        g_error("%s=%s: expected %s, got %s (%s)", p->name, text, ok ? "ok" : "an error",
                got ? "ok" : "an error", problem ? problem : "");
    if (ok) {
        g_assert_cmpstr(v.s, ==, text);
        blk_value_clear(&v);
    } else {
        if (!g_pattern_match_simple(problem_glob, problem))
            g_error("%s=%s: problem '%s' does not match '%s'", p->name, text, problem, problem_glob);
        g_free(problem);
    }
}

static void test_values(void)
{
    static const char *const colours[] = {"red", "green", NULL};
    static const blk_param_desc i = {"i", BLK_PARAM_INT, "0", "-5", "5", NULL, "", ""};
    static const blk_param_desc u = {"u", BLK_PARAM_UINT, "1", "1", "64", NULL, "", ""};
    static const blk_param_desc b = {"b", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "", ""};
    static const blk_param_desc d = {"d", BLK_PARAM_DOUBLE, "0.5", "0", "1", NULL, "", ""};
    static const blk_param_desc e = {"e", BLK_PARAM_ENUM, "red", NULL, NULL, colours, "", ""};
    static const blk_param_desc s = {"s", BLK_PARAM_STRING, "", NULL, NULL, NULL, "", ""};
    check_value(&i, "-5", true, NULL);
    check_value(&i, "6", false, "6 is out of range [-5, 5]");
    check_value(&i, "1.5", false, "expected an integer, got '1.5'");
    check_value(&u, "64", true, NULL);
    check_value(&u, "0", false, "0 is out of range [1, 64]");
    check_value(&u, "-1", false, "expected an unsigned integer*");
    check_value(&u, "", false, "expected an unsigned integer*");
    check_value(&b, "off", true, NULL);
    check_value(&b, "maybe", false, "expected a boolean*");
    check_value(&d, "0.25", true, NULL);
    check_value(&d, "1.5", false, "1.5 is out of range [0, 1]");
    check_value(&d, "nan", false, "expected a number*");
    check_value(&d, "0.5x", false, "expected a number*");
    check_value(&e, "green", true, NULL);
    check_value(&e, "blue", false, "expected one of {red, green}, got 'blue'");
    check_value(&s, "anything at all", true, NULL);

    blk_value v;
    char *problem = NULL;
    g_assert_true(blk_value_parse(&e, "green", &v, &problem));
    g_assert_cmpuint(v.u, ==, 1);
    blk_value_clear(&v);
    g_assert_true(blk_value_parse(&b, "yes", &v, &problem));
    g_assert_true(v.b);
    blk_value_clear(&v);
}

static char *describe(const blk_desc *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_describe(d, f);
    fclose(f);
    return buf;
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        g_error("'%s' not found in:\n%s", needle, text);
}

static void test_describe(void)
{
    demo_register();
    char *t = describe(&demo_alu_desc);
    assert_contains(t, "Block Details:\n  Name                 demo_alu\n");
    assert_contains(t, "  Description          demo: a pipelined ALU stage with a configurable latency\n");
    assert_contains(t, "  Log domain           gpusc.demo_alu\n");
    /* Ports with direction, channel and the field table of their type. */
    assert_contains(t, "  in\n    Direction: input\n    Channel: FIFO (depth: parameter in_depth)\n"
                       "    Meaning: operands\n    Type: demo_word (8 bytes)\n"
                       "      seq              u32    32 bits\n      value            u32    32 bits\n");
    assert_contains(t, "  out\n    Direction: output\n");
    /* Parameters with type, range, default, unit and meaning. */
    assert_contains(t, "  latency             : cycles from taking an operand to putting its result\n"
                       "                        uint. Range: 1 - 64. Default: 3. Unit: cycles\n");
    assert_contains(t, "  op                  : operation: value OP imm\n"
                       "                        enum. Choices: add sub mul xor. Default: mul\n");
    /* Statistics and traced state. */
    assert_contains(t, "  ops_per_cycle        [ops/cycle] (derived) throughput over the run\n");
    assert_contains(t, "  stall_cycles         [cycles] cycles a result waited for room in the output\n");
    assert_contains(t, "Traced state:\n  occupancy             8 bits  items in flight in the pipeline\n");
    g_free(t);
}

/* The programs' --list-blocks / --describe, in a subprocess (they exit). */
static void run_cli(const char *a1, const char *a2)
{
    demo_register();
    static const blk_desc top = {"test_top", "a test program", "", NULL, 0, NULL, 0, NULL, 0, NULL, 0};
    cli_run *run = cli_new("test-block", "test", &top, "top", NULL);
    char *args[] = {(char *)"test-block", (char *)a1, (char *)a2, NULL};
    char **argv = args;
    int argc = a2 ? 3 : 2;
    cli_parse(run, &argc, &argv);
    g_assert_not_reached();
}

static void test_cli_list(void)
{
    if (g_test_subprocess()) {
        run_cli("--list-blocks", NULL);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_test_trap_assert_stdout("*demo_alu: demo: a pipelined ALU stage with a configurable latency\n"
                              "demo_sink: *\ndemo_source: *\n*test_top: a test program\n*"
                              "Presets:\n  demo: *\n  demo-backpressure: *");
}

static void test_cli_describe(void)
{
    if (g_test_subprocess()) {
        run_cli("--describe", "demo_sink");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_test_trap_assert_stdout(
        "Block Details:\n  Name                 demo_sink\n*depth*Range: 1 - 64. Default: 4*");
}

static void test_cli_describe_unknown(void)
{
    if (g_test_subprocess()) {
        run_cli("--describe", "nothing");
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: no block named 'nothing' (see --list-blocks)\n");
}

static void test_cli_bad_option(void)
{
    if (g_test_subprocess()) {
        run_cli("--trace-window=5:2", NULL);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("gpusc: --trace-window=5:2: TO must not be before FROM (both are included)\n");
}

/* A block's descriptor says which kind of channel each port takes: binding the other kind stops
 * elaboration with the port, the channel and the kind expected (the block would otherwise get NULL
 * from gsc_port_fifo / gsc_port_latch and crash). demo_alu's ports are FIFOs; latch_user's is a
 * latch. */
static const blk_port_desc latch_user_ports[] = {
    {"in", GSC_IN, &demo_word_type, BLK_CHAN_LATCH, NULL, "a word each cycle"},
};
static const blk_desc latch_user_desc = {
    "latch_user",
    "test: a block with a latch port",
    "",
    latch_user_ports,
    BLK_N(latch_user_ports),
    NULL,
    0,
    NULL,
    0,
    NULL,
    0,
};

static void test_port_kind(void)
{
    if (g_test_subprocess()) {
        gsc_init("test_block");
        gsc_clock *clk = gsc_clock_new("clk", 1000);
        blk_ctx *ctx = blk_ctx_new(NULL, clk);
        gsc_module *tb = gsc_module_new(NULL, "tb");
        if (!strcmp(g_getenv("GSC_TEST_CASE"), "fifo-port")) {
            demo_alu *a = demo_alu_new(ctx, tb, "alu");
            gsc_port_bind_latch(blk_port(a->inst, DEMO_ALU_IN), gsc_latch_new(tb, "l", &demo_word_type));
        } else {
            blk_inst *u = blk_inst_new(ctx, tb, "user", &latch_user_desc);
            gsc_port_bind_fifo(blk_port(u, 0), gsc_fifo_new(tb, "q", &demo_word_type, 2));
        }
        return;
    }
    g_setenv("GSC_TEST_CASE", "fifo-port", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(
        "gpusc: kind mismatch binding port 'tb.alu.in' (declared for a FIFO) to latch 'tb.l'\n");
    g_setenv("GSC_TEST_CASE", "latch-port", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(
        "gpusc: kind mismatch binding port 'tb.user.in' (declared for a latch) to fifo 'tb.q'\n");
}

static void test_window(void)
{
    uint64_t from = 1, to = 1;
    char *problem = NULL;
    g_assert_true(cli_parse_window("1000:2000", &from, &to, &problem));
    g_assert_cmpuint(from, ==, 1000);
    g_assert_cmpuint(to, ==, 2000);
    g_assert_true(cli_parse_window(":50", &from, &to, &problem));
    g_assert_cmpuint(from, ==, 0);
    g_assert_cmpuint(to, ==, 50);
    g_assert_true(cli_parse_window("7:", &from, &to, &problem));
    g_assert_cmpuint(from, ==, 7);
    g_assert_cmpuint(to, ==, 0);
    g_assert_false(cli_parse_window("7", &from, &to, &problem));
    g_assert_cmpstr(problem, ==, "--trace-window=7: expected FROM:TO");
    g_free(problem);
    g_assert_false(cli_parse_window("a:b", &from, &to, &problem));
    g_free(problem);
    /* inclusive: a window of one cycle */
    g_assert_true(cli_parse_window("5:5", &from, &to, &problem));
    g_assert_cmpuint(from, ==, 5);
    g_assert_cmpuint(to, ==, 5);
    g_assert_false(cli_parse_window("5:4", &from, &to, &problem));
    g_assert_cmpstr(problem, ==, "--trace-window=5:4: TO must not be before FROM (both are included)");
    g_free(problem);
    /* TO 0 is how "to the end" is passed on; written out, it is refused rather than misread */
    g_assert_false(cli_parse_window("0:0", &from, &to, &problem));
    g_assert_cmpstr(problem, ==,
                    "--trace-window=0:0: TO must be at least 1 (leave it empty to trace to the end)");
    g_free(problem);
    g_assert_true(cli_parse_window("0:1", &from, &to, &problem));
    g_assert_cmpuint(from, ==, 0);
    g_assert_cmpuint(to, ==, 1);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/block/registry", test_registry);
    g_test_add_func("/block/values", test_values);
    g_test_add_func("/block/describe", test_describe);
    g_test_add_func("/block/port-kind", test_port_kind);
    g_test_add_func("/cli/list-blocks", test_cli_list);
    g_test_add_func("/cli/describe", test_cli_describe);
    g_test_add_func("/cli/describe-unknown", test_cli_describe_unknown);
    g_test_add_func("/cli/bad-option", test_cli_bad_option);
    g_test_add_func("/cli/window", test_window);
    return g_test_run();
}
