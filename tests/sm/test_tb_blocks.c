/* test_tb_blocks — the SM's decode, I-buffer, scoreboard, arbiter and barrier blocks as a user of the
 * testbenches sees them: tb-sm and tb-subcore list them (--list-blocks) and describe them
 * (--describe, the arbiter's interface ports among them); a traced tb-sm run gives each its own VCD
 * scope, in which the arbiters' grant pulses add up to the issue block's `issued` count in every
 * cycle, arbiter0's pulses count its `grants` statistic, and the scoreboard's and I-buffer's traced
 * calls and state show activity; tb-subcore has one arbiter per partition. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/core/vcd.h"

#define PERIOD_PS 1000

typedef struct {
    int status;
    char *out, *err;
} tb_result;

static char *tb_program(const char *name)
{
    const char *top = g_getenv("top_builddir");
    if (top)
        return g_build_filename(top, "testbench", name, NULL);
    return g_test_build_filename(G_TEST_BUILT, "..", "..", "testbench", name, NULL);
}

/* Runs testbench `name` with args (NULL-terminated). */
static tb_result run_tb(const char *name, const char *const *args)
{
    tb_result r = {0};
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, tb_program(name));
    for (unsigned i = 0; args[i]; i++)
        g_ptr_array_add(argv, g_strdup(args[i]));
    g_ptr_array_add(argv, NULL);
    GError *err = NULL;
    if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r.out, &r.err,
                      &r.status, &err))
        g_error("cannot run %s: %s", (char *)argv->pdata[0], err->message);
    g_ptr_array_free(argv, TRUE);
    if (!g_spawn_check_wait_status(r.status, NULL))
        g_error("%s failed:\n%s%s", name, r.out, r.err);
    return r;
}

static void result_free(tb_result *r)
{
    g_free(r->out);
    g_free(r->err);
}

static const char *const new_blocks[] = {"decode", "ibuffer", "scoreboard", "arbiter", "barrier", NULL};

/* --list-blocks: one line "<type>: <description>" per block type. */
static void list_blocks(const char *tb)
{
    static const char *const args[] = {"--list-blocks", NULL};
    tb_result r = run_tb(tb, args);
    for (unsigned i = 0; new_blocks[i]; i++) {
        char *line = g_strdup_printf("\n%s: ", new_blocks[i]);
        if (!g_str_has_prefix(r.out, line + 1) && !strstr(r.out, line))
            g_error("%s --list-blocks does not list %s:\n%s", tb, new_blocks[i], r.out);
        g_free(line);
    }
    result_free(&r);
}

static void test_list_blocks_sm(void)
{
    list_blocks("tb-sm");
}

static void test_list_blocks_subcore(void)
{
    list_blocks("tb-subcore");
}

/* --describe of each new block; the arbiter's shows its export, its veto import (MULTI), its
 * parameters, statistics and traced state. */
static void test_describe(void)
{
    for (unsigned i = 0; new_blocks[i]; i++) {
        const char *args[] = {"--describe", new_blocks[i], NULL};
        tb_result r = run_tb("tb-sm", args);
        char *name = g_strdup_printf("Name                 %s\n", new_blocks[i]);
        g_assert_nonnull(strstr(r.out, name));
        g_assert_nonnull(strstr(r.out, "Interface: exports "));
        g_free(name);
        result_free(&r);
    }
    static const char *const args[] = {"--describe", "arbiter", NULL};
    tb_result r = run_tb("tb-sm", args);
    static const char *const want[] = {
        "Interface: exports arbiter",
        "Interface: imports issue_veto (any number of exports, called in binding order)",
        "order(warps, n, cycle) -> candidates, best first",
        "veto(warps, n, i, cycle) -> true: candidate i may not issue this cycle",
        "policy              : issue policy spec",
        "swl                 : static warp limiting",
        "grants               [instructions]",
        "stall                 4 bits",
        NULL,
    };
    for (unsigned i = 0; want[i]; i++)
        if (!strstr(r.out, want[i]))
            g_error("tb-sm --describe arbiter lacks \"%s\":\n%s", want[i], r.out);
    result_free(&r);
}

/* The value of statistic `stat` of instance `path` in a --stats-json file. */
static uint64_t json_stat(const char *json, const char *path, const char *stat)
{
    char *key = g_strdup_printf("{\"path\": \"%s\", ", path);
    const char *inst = strstr(json, key);
    g_assert_nonnull(inst);
    const char *end = strstr(inst + 1, "{\"path\": ");
    char *skey = g_strdup_printf("\"%s\": {\"value\": ", stat);
    const char *s = strstr(inst, skey);
    g_assert_true(s && (!end || s < end));
    uint64_t v = g_ascii_strtoull(s + strlen(skey), NULL, 10);
    g_free(key);
    g_free(skey);
    return v;
}

static int sig(const vcd *v, const char *name)
{
    int s = vcd_find(v, name);
    if (s < 0)
        g_error("no signal %s in the VCD", name);
    return s;
}

/* The signal's value in cycle c (a missing value, before the first change, is 0). */
static uint64_t at(const vcd *v, int s, uint64_t c)
{
    uint64_t x = 0;
    if (!vcd_uint_at_cycle(v, (unsigned)s, c, PERIOD_PS, &x))
        return 0;
    return x;
}

static void test_waveform(void)
{
    char *dir = g_dir_make_tmp("gpusc-tbblocks-XXXXXX", NULL);
    char *path = g_build_filename(dir, "tb-sm.vcd", NULL), *json = g_build_filename(dir, "stats.json", NULL);
    const char *args[] = {
        "--workload",
        "vecadd",
        "--size",
        "tiny",
        "--set",
        "tb_sm.period_ps=1000",
        "--trace=*.arbiter0.*,*.arbiter1.*,*.scoreboard.*,*.barrier.*,*.ibuffer.*,tb.sm0.issue",
        "--vcd",
        path,
        "--stats-json",
        json,
        NULL};
    tb_result r = run_tb("tb-sm", args);
    result_free(&r);
    char *stats = NULL;
    g_assert_true(g_file_get_contents(json, &stats, NULL, NULL));
    GError *err = NULL;
    vcd *v = vcd_load(path, &err);
    g_assert_no_error(err);
    /* each block its own scope; what the patterns did not select is absent */
    static const char *const sigs[] = {
        "tb.sm0.arbiter0.grants",     "tb.sm0.arbiter0.grant",
        "tb.sm0.arbiter0.stall",      "tb.sm0.arbiter0.arb.calls",
        "tb.sm0.arbiter1.grants",     "tb.sm0.scoreboard.pending",
        "tb.sm0.scoreboard.sb.calls", "tb.sm0.scoreboard.sb.warp",
        "tb.sm0.barrier.waiting",     "tb.sm0.barrier.bar.calls",
        "tb.sm0.ibuffer.valid",       "tb.sm0.ibuffer.ib.calls",
        "tb.sm0.issue.issued",        NULL,
    };
    for (unsigned i = 0; sigs[i]; i++)
        sig(v, sigs[i]);
    g_assert_cmpint(vcd_find(v, "tb.sm0.decode.dec.calls"), <, 0);
    g_assert_cmpint(vcd_find(v, "tb.sm0.arbiter0.grants"), !=, vcd_find(v, "tb.sm0.arbiter1.grants"));
    const char *cy = strstr(stats, "\"cycles\": ");
    g_assert_nonnull(cy);
    uint64_t cycles = g_ascii_strtoull(cy + strlen("\"cycles\": "), NULL, 10);
    g_assert_cmpuint(cycles, >, 0);
    int g0 = sig(v, "tb.sm0.arbiter0.grants"), g1 = sig(v, "tb.sm0.arbiter1.grants");
    int issued = sig(v, "tb.sm0.issue.issued"), sbc = sig(v, "tb.sm0.scoreboard.sb.calls");
    int ibc = sig(v, "tb.sm0.ibuffer.ib.calls"), pending = sig(v, "tb.sm0.scoreboard.pending");
    int valid = sig(v, "tb.sm0.ibuffer.valid");
    uint64_t n0 = 0, n1 = 0, sb_cycles = 0, ib_cycles = 0, max_pending = 0, valid_cycles = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        uint64_t a = at(v, g0, c), b = at(v, g1, c);
        g_assert_cmpuint(a, <=, 1);
        g_assert_cmpuint(b, <=, 1);
        if (a + b != at(v, issued, c))
            g_error("cycle %" G_GUINT64_FORMAT ": arbiter grants %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT
                    ", issue.issued %" G_GUINT64_FORMAT,
                    c, a, b, at(v, issued, c));
        /* an issue reserves its registers and pops its I-buffer entry in its cycle */
        g_assert_cmpuint(at(v, sbc, c), >=, a + b);
        g_assert_cmpuint(at(v, ibc, c), >=, a + b);
        n0 += a;
        n1 += b;
        sb_cycles += at(v, sbc, c) > 0;
        ib_cycles += at(v, ibc, c) > 0;
        max_pending = MAX(max_pending, at(v, pending, c));
        valid_cycles += at(v, valid, c) != 0;
    }
    g_assert_cmpuint(n0, ==, json_stat(stats, "tb.sm0.arbiter0", "grants"));
    g_assert_cmpuint(n1, ==, json_stat(stats, "tb.sm0.arbiter1", "grants"));
    g_assert_cmpuint(n0 + n1, ==, json_stat(stats, "tb.sm0.issue", "warp_instrs"));
    g_assert_cmpuint(n0, >, 0);
    g_assert_cmpuint(n1, >, 0);
    g_assert_cmpuint(sb_cycles, >=, ib_cycles > 0 ? 1 : 0);
    g_assert_cmpuint(sb_cycles, >, 0);
    g_assert_cmpuint(max_pending, >, 0);
    g_assert_cmpuint(ib_cycles, >, 0);
    g_assert_cmpuint(valid_cycles, >, 0);
    g_assert_cmpuint(json_stat(stats, "tb.sm0.scoreboard", "reserved"), ==, n0 + n1);
    vcd_free(v);
    g_free(stats);
    g_unlink(path);
    g_unlink(json);
    char *gtkw = g_build_filename(dir, "tb-sm.gtkw", NULL);
    g_unlink(gtkw);
    g_free(gtkw);
    g_rmdir(dir);
    g_free(path);
    g_free(json);
    g_free(dir);
}

/* Under two_level_active the arbiters are asked every evaluated cycle (the policy is not stable);
 * their empty_orders (a warp ready, no candidate listed) add up to issue's stall_vetoed (the
 * scheduler-cycles whose ready warps were all refused by the arbiter). */
static void test_empty_orders(void)
{
    char *dir = g_dir_make_tmp("gpusc-tbblocks-XXXXXX", NULL);
    char *json = g_build_filename(dir, "stats.json", NULL);
    const char *args[] = {"--workload",   "bfs",   "--size",
                          "tiny",         "--set", "arbiter.policy=two_level_active:6:0:1",
                          "--stats-json", json,    NULL};
    tb_result r = run_tb("tb-sm", args);
    result_free(&r);
    char *stats = NULL;
    g_assert_true(g_file_get_contents(json, &stats, NULL, NULL));
    uint64_t e0 = json_stat(stats, "tb.sm0.arbiter0", "empty_orders"),
             e1 = json_stat(stats, "tb.sm0.arbiter1", "empty_orders");
    uint64_t vetoed = json_stat(stats, "tb.sm0.issue", "stall_vetoed");
    g_assert_cmpuint(vetoed, >, 0);
    g_assert_cmpuint(e0 + e1, ==, vetoed);
    g_free(stats);
    g_unlink(json);
    g_rmdir(dir);
    g_free(json);
    g_free(dir);
}

/* tb-subcore: an arbiter per partition (4), and the shared blocks, each with its scope. */
static void test_subcore_scopes(void)
{
    char *dir = g_dir_make_tmp("gpusc-tbblocks-XXXXXX", NULL);
    char *path = g_build_filename(dir, "tb-subcore.vcd", NULL);
    const char *args[] = {"--workload",
                          "vecadd",
                          "--size",
                          "tiny",
                          "--trace=*.arbiter*,*.scoreboard.*,*.barrier.*,*.ibuffer.*,*.decode.*",
                          "--vcd",
                          path,
                          NULL};
    tb_result r = run_tb("tb-subcore", args);
    result_free(&r);
    GError *err = NULL;
    vcd *v = vcd_load(path, &err);
    g_assert_no_error(err);
    static const char *const sigs[] = {"tb.sm0.arbiter0.grants",
                                       "tb.sm0.arbiter3.grants",
                                       "tb.sm0.scoreboard.pending",
                                       "tb.sm0.barrier.waiting",
                                       "tb.sm0.ibuffer.valid",
                                       "tb.sm0.decode.dec.calls",
                                       NULL};
    for (unsigned i = 0; sigs[i]; i++)
        sig(v, sigs[i]);
    g_assert_cmpint(vcd_find(v, "tb.sm0.arbiter4.grants"), <, 0);
    vcd_free(v);
    g_unlink(path);
    char *gtkw = g_build_filename(dir, "tb-subcore.gtkw", NULL);
    g_unlink(gtkw);
    g_free(gtkw);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sm/tb/list_blocks_sm", test_list_blocks_sm);
    g_test_add_func("/sm/tb/list_blocks_subcore", test_list_blocks_subcore);
    g_test_add_func("/sm/tb/describe", test_describe);
    g_test_add_func("/sm/tb/waveform", test_waveform);
    g_test_add_func("/sm/tb/subcore_scopes", test_subcore_scopes);
    g_test_add_func("/sm/tb/empty_orders", test_empty_orders);
    return g_test_run();
}
