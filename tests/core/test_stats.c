/* test_stats — statistics dumps: exact text and JSON for known counters, derived statistics of a
 * block and derived figures of a run. Instances need a SystemC module, so each test runs in a
 * subprocess (harness_test_add). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "models/core/harness.h"
#include "models/core/stats.h"

enum { HITS, MISSES, HIT_RATIO };

static double hit_ratio(const blk_inst *inst)
{
    return stats_ratio(blk_stat_get(inst, HITS), blk_stat_get(inst, HITS) + blk_stat_get(inst, MISSES));
}

static const blk_stat_desc stats[] = {
    [HITS] = {"hits", BLK_STAT_COUNTER, "events", "hits", NULL},
    [MISSES] = {"misses", BLK_STAT_COUNTER, "events", "misses (\"cold\" \\ conflict)", NULL},
    [HIT_RATIO] = {"hit_ratio", BLK_STAT_DERIVED, "ratio", "hits per access", hit_ratio},
};

static const blk_desc stat_test_desc = {
    "stat_test", "a block with statistics", "", NULL, 0, NULL, 0, stats, BLK_N(stats), NULL, 0,
};

static double total_hits(const blk_ctx *ctx, void *data)
{
    g_assert_true(data == (void *)&stat_test_desc);
    uint64_t n = 0;
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++)
        n += blk_stat_get(blk_ctx_inst(ctx, i), HITS);
    return (double)n;
}

static blk_ctx *make_ctx(void)
{
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    blk_ctx *ctx = blk_ctx_new(NULL, clk);
    blk_inst *a = blk_inst_new(ctx, NULL, "a", &stat_test_desc);
    blk_inst_new(ctx, NULL, "bb", &stat_test_desc);
    blk_stat_add(a, HITS, 2);
    blk_stat_add(a, HITS, 1);
    blk_stat_add(a, MISSES, 1);
    blk_ctx_add_derived(ctx, "total_hits", "events", "hits of every instance", total_hits,
                        (void *)&stat_test_desc);
    return ctx;
}

static char *capture(blk_ctx *ctx, bool json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (json)
        stats_dump_json(ctx, "test-stats", 100, f);
    else
        stats_dump_text(ctx, 100, f);
    fclose(f);
    return buf;
}

static void test_text(void)
{
    blk_ctx *ctx = make_ctx();
    g_assert_cmpfloat(blk_stat_value(blk_ctx_inst(ctx, 0), HIT_RATIO), ==, 0.75);
    char *text = capture(ctx, false);
    g_assert_cmpstr(text, ==,
                    "# statistics after 100 cycles\n"
                    "a.hits             3  events  # hits\n"
                    "a.misses           1  events  # misses (\"cold\" \\ conflict)\n"
                    "a.hit_ratio   0.7500  ratio   # hits per access\n"
                    "bb.hits            0  events  # hits\n"
                    "bb.misses          0  events  # misses (\"cold\" \\ conflict)\n"
                    "bb.hit_ratio  0.0000  ratio   # hits per access\n"
                    "total_hits    3.0000  events  # hits of every instance\n");
    g_free(text);
    blk_ctx_free(ctx);
}

static void test_json(void)
{
    blk_ctx *ctx = make_ctx();
    char *text = capture(ctx, true);
    g_assert_cmpstr(
        text, ==,
        "{\n"
        "  \"program\": \"test-stats\",\n"
        "  \"cycles\": 100,\n"
        "  \"instances\": [\n"
        "    {\"path\": \"a\", \"type\": \"stat_test\", \"stats\": {\n"
        "        \"hits\": {\"value\": 3, \"unit\": \"events\", \"meaning\": \"hits\"},\n"
        "        \"misses\": {\"value\": 1, \"unit\": \"events\", \"meaning\": "
        "\"misses (\\\"cold\\\" \\\\ conflict)\"},\n"
        "        \"hit_ratio\": {\"value\": 0.75, \"unit\": \"ratio\", \"meaning\": \"hits per access\"}\n"
        "      }},\n"
        "    {\"path\": \"bb\", \"type\": \"stat_test\", \"stats\": {\n"
        "        \"hits\": {\"value\": 0, \"unit\": \"events\", \"meaning\": \"hits\"},\n"
        "        \"misses\": {\"value\": 0, \"unit\": \"events\", \"meaning\": "
        "\"misses (\\\"cold\\\" \\\\ conflict)\"},\n"
        "        \"hit_ratio\": {\"value\": 0, \"unit\": \"ratio\", \"meaning\": \"hits per access\"}\n"
        "      }}\n"
        "  ],\n"
        "  \"derived\": {\n"
        "        \"total_hits\": {\"value\": 3, \"unit\": \"events\", \"meaning\": \"hits of every "
        "instance\"}\n"
        "  }\n"
        "}\n");
    g_free(text);
    blk_ctx_free(ctx);
}

/* An empty context is still valid JSON. */
static void test_json_empty(void)
{
    blk_ctx *ctx = blk_ctx_new(NULL, gsc_clock_new("clk", 1000));
    char *text = capture(ctx, true);
    g_assert_cmpstr(text, ==,
                    "{\n  \"program\": \"test-stats\",\n  \"cycles\": 100,\n  \"instances\": [],\n"
                    "  \"derived\": {\n  }\n}\n");
    g_free(text);
    GError *err = NULL;
    g_assert_false(stats_write_json(ctx, "x", 0, "/nonexistent/dir/s.json", &err));
    g_assert_nonnull(err);
    g_clear_error(&err);
    blk_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/stats/text", test_text);
    harness_test_add("/stats/json", test_json);
    harness_test_add("/stats/json-empty", test_json_empty);
    return g_test_run();
}
