/* test_energy — the energy accounting of the block framework (models/core/energy.h) against closed
 * forms: dynamic energy = events x energy per event, leakage energy = unit-cycles x period x power,
 * per state (ON for all units and cycles, SLEEP and OFF from their counters); the per-block and total
 * figures in the text and JSON dumps; a parameter set in the configuration changes the result; a
 * table naming a missing counter is refused. Each test runs in a subprocess (harness_test_add). */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/core/config.h"
#include "models/core/harness.h"
#include "models/core/stats.h"

enum { READS, WRITES, SLEEP_CYCLES, OFF_CYCLES };

static const blk_param_desc params[] = {
    {"units", BLK_PARAM_UINT, "4", "1", "64", NULL, "banks", "leaking units"},
    {"e_read", BLK_PARAM_DOUBLE, "2.5", "0", NULL, NULL, "pJ", "per read"},
    {"e_write", BLK_PARAM_DOUBLE, "4", "0", NULL, NULL, "pJ", "per write"},
    {"p_on", BLK_PARAM_DOUBLE, "2", "0", NULL, NULL, "mW", "leakage on"},
    {"p_sleep", BLK_PARAM_DOUBLE, "0.5", "0", NULL, NULL, "mW", "leakage asleep"},
    {"p_off", BLK_PARAM_DOUBLE, "0.125", "0", NULL, NULL, "mW", "leakage off"},
};

static const blk_stat_desc stats[] = {
    [READS] = {"reads", BLK_STAT_COUNTER, "events", "reads", NULL},
    [WRITES] = {"writes", BLK_STAT_COUNTER, "events", "writes", NULL},
    [SLEEP_CYCLES] = {"sleep_cycles", BLK_STAT_COUNTER, "unit-cycles", "asleep", NULL},
    [OFF_CYCLES] = {"off_cycles", BLK_STAT_COUNTER, "unit-cycles", "off", NULL},
};

static const blk_energy_event events[] = {{"read", "reads", "e_read", BLK_COMP_RFP},
                                          {"write", "writes", "e_write", BLK_COMP_DCP}};
static const blk_energy_leak leak[] = {
    {BLK_POWER_ON, "p_on", NULL},
    {BLK_POWER_SLEEP, "p_sleep", "sleep_cycles"},
    {BLK_POWER_OFF, "p_off", "off_cycles"},
};
static const blk_energy_desc energy = {events, BLK_N(events), leak, BLK_N(leak), "units"};

static const blk_desc energy_test_desc = {
    "energy_test", "a block with energy", "",   NULL, 0,       params, BLK_N(params),
    stats,         BLK_N(stats),          NULL, 0,    &energy,
};
static const blk_desc plain_desc = {
    "plain", "a block without energy", "", NULL, 0, NULL, 0, stats, 1, NULL, 0, NULL,
};

/* Period 1000 ps; a: 10 reads, 3 writes, 200 sleep and 40 off unit-cycles; b: nothing counted. */
static blk_ctx *make_ctx(cfg *c)
{
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    blk_ctx *ctx = blk_ctx_new(c, clk);
    blk_inst *a = blk_inst_new(ctx, NULL, "a", &energy_test_desc);
    blk_inst_new(ctx, NULL, "b", &energy_test_desc);
    blk_inst_new(ctx, NULL, "p", &plain_desc);
    blk_stat_add(a, READS, 10);
    blk_stat_add(a, WRITES, 3);
    blk_stat_add(a, SLEEP_CYCLES, 200);
    blk_stat_add(a, OFF_CYCLES, 40);
    return ctx;
}

/* Over 100 cycles: dynamic 10 x 2.5 + 3 x 4 = 37 pJ. Leakage: ON 4 units x 100 cycles x 1000 ps x
 * 2 mW x 1e-3 = 800 pJ; SLEEP 200 x 1000 x 0.5e-3 = 100 pJ; OFF 40 x 1000 x 0.125e-3 = 5 pJ. */
static void test_closed_form(void)
{
    blk_ctx *ctx = make_ctx(NULL);
    const blk_inst *a = blk_ctx_inst(ctx, 0), *b = blk_ctx_inst(ctx, 1), *p = blk_ctx_inst(ctx, 2);
    g_assert_cmpfloat_with_epsilon(blk_energy_event_pj(a, 0), 25.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(blk_energy_event_pj(a, 1), 12.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(blk_energy_leak_pj(a, 0, 100, 1000), 800.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(blk_energy_leak_pj(a, 1, 100, 1000), 100.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(blk_energy_leak_pj(a, 2, 100, 1000), 5.0, 1e-9);
    blk_energy ea = blk_inst_energy(a, 100), eb = blk_inst_energy(b, 100), ep = blk_inst_energy(p, 100);
    g_assert_cmpfloat_with_epsilon(ea.dynamic_pj, 37.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(ea.leakage_pj, 905.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(eb.dynamic_pj, 0.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(eb.leakage_pj, 800.0, 1e-9); /* ON leakage whatever happens */
    g_assert_cmpfloat(ep.dynamic_pj + ep.leakage_pj, ==, 0.0);
    blk_energy t = blk_ctx_energy(ctx, 100);
    g_assert_cmpfloat_with_epsilon(t.dynamic_pj, 37.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(t.leakage_pj, 1705.0, 1e-9);
    g_assert_true(blk_ctx_has_energy(ctx));
    /* by power component: the reads feed RFP, the writes DCP; no other component is fed */
    double pj[BLK_COMP_N];
    g_assert_cmpuint(blk_ctx_energy_components(ctx, pj), ==, 1u << BLK_COMP_RFP | 1u << BLK_COMP_DCP);
    g_assert_cmpfloat(pj[BLK_COMP_RFP], ==, 25.0);
    g_assert_cmpfloat(pj[BLK_COMP_DCP], ==, 12.0);
    g_assert_cmpfloat(pj[BLK_COMP_CBP] + pj[BLK_COMP_NONE], ==, 0.0);
    g_assert_cmpstr(blk_power_comp_name(BLK_COMP_CONST_DYNAMICP), ==, "CONST_DYNAMICP");
    g_assert_null(blk_power_comp_name(BLK_COMP_NONE));
    g_assert_null(blk_power_comp_name(BLK_COMP_N));
    /* an instance whose dynamic energy the totals leave out leaves the components too */
    blk_energy_exclude(blk_ctx_inst(ctx, 0), BLK_ENERGY_NO_DYNAMIC);
    g_assert_cmpuint(blk_ctx_energy_components(ctx, pj), ==, 1u << BLK_COMP_RFP | 1u << BLK_COMP_DCP);
    g_assert_cmpfloat(pj[BLK_COMP_RFP] + pj[BLK_COMP_DCP], ==, 0.0);
    blk_ctx_free(ctx);
}

/* The parameters are ordinary ones: the configuration sets them (a technology node's table). */
static void test_configured(void)
{
    cfg *c = cfg_new();
    GError *err = NULL;
    g_assert_true(cfg_set(c, "energy_test.e_read=1", &err));
    g_assert_true(cfg_set(c, "a.units=1", &err));
    blk_ctx *ctx = make_ctx(c);
    blk_energy ea = blk_inst_energy(blk_ctx_inst(ctx, 0), 100);
    g_assert_cmpfloat_with_epsilon(ea.dynamic_pj, 10.0 + 12.0, 1e-9);
    g_assert_cmpfloat_with_epsilon(ea.leakage_pj, 200.0 + 100.0 + 5.0, 1e-9);
    blk_ctx_free(ctx);
    cfg_free(c);
}

static char *capture(blk_ctx *ctx, bool json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (json)
        stats_dump_json(ctx, "test-energy", 100, f);
    else
        stats_dump_text(ctx, 100, f);
    fclose(f);
    return buf;
}

static void test_dumps(void)
{
    blk_ctx *ctx = make_ctx(NULL);
    char *text = capture(ctx, false);
    g_assert_nonnull(strstr(text, "\na.energy.read          25.0000  pJ"));
    g_assert_nonnull(strstr(text, "\na.energy.leak_sleep   100.0000  pJ"));
    g_assert_nonnull(strstr(text, "\na.energy_dynamic       37.0000  pJ"));
    g_assert_nonnull(strstr(text, "\na.energy_leakage      905.0000  pJ"));
    g_assert_nonnull(strstr(text, "\nb.energy_leakage      800.0000  pJ"));
    g_assert_nonnull(strstr(text, "\nenergy_total         1742.0000  pJ"));
    g_assert_null(strstr(text, "p.energy"));
    g_assert_nonnull(strstr(text, "\nenergy_dynamic.RFP     25.0000  pJ"));
    g_assert_nonnull(strstr(text, "\nenergy_dynamic.DCP     12.0000  pJ"));
    g_assert_null(strstr(text, "energy_dynamic.CBP")); /* no block feeds it */
    g_free(text);
    char *json = capture(ctx, true);
    GError *err = NULL;
    g_assert_nonnull(strstr(json, "\"energy_leakage\": {\"value\": 905, \"unit\": \"pJ\""));
    g_assert_nonnull(strstr(json, "\"energy_total\": {\"value\": 1742, \"unit\": \"pJ\""));
    g_assert_nonnull(strstr(json, "\"energy_dynamic.RFP\": {\"value\": 25, \"unit\": \"pJ\""));
    /* well-formed: the last entries carry no trailing comma */
    g_assert_null(strstr(json, ",\n      }}"));
    g_assert_null(strstr(json, ",\n  }"));
    (void)err;
    g_free(json);
    blk_ctx_free(ctx);
}

static const blk_energy_event bad_events[] = {{"read", "nosuch", "e_read", BLK_COMP_RFP}};
static const blk_energy_desc bad_energy = {bad_events, 1, NULL, 0, NULL};
static const blk_desc bad_desc = {
    "energy_bad", "names a missing counter", "", NULL, 0, params, BLK_N(params), stats, BLK_N(stats), NULL, 0,
    &bad_energy,
};

/* Registering `desc` fails with a message matching `pattern` (in a subprocess). */
static void refused(const blk_desc *desc, const char *pattern)
{
    if (g_test_subprocess()) {
        blk_registry_add(desc);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr(pattern);
}

static void test_bad_table(void)
{
    refused(&bad_desc,
            "*energy_bad: energy event read counts with nosuch, which is not one of its counters*");
}

/* An event feeding no power component is refused too. */
static const blk_energy_event unmapped_events[] = {{"read", "reads", "e_read", BLK_COMP_RFP},
                                                   {"write", "writes", "e_write"}};
static const blk_energy_desc unmapped_energy = {unmapped_events, 2, NULL, 0, NULL};
static const blk_desc unmapped_desc = {
    "energy_unmapped", "an unmapped event", "", NULL, 0, params, BLK_N(params), stats, BLK_N(stats), NULL, 0,
    &unmapped_energy,
};

static void test_unmapped(void)
{
    refused(&unmapped_desc, "*energy_unmapped: energy event write feeds no power component*");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/energy/closed-form", test_closed_form);
    harness_test_add("/energy/configured", test_configured);
    harness_test_add("/energy/dumps", test_dumps);
    g_test_add_func("/energy/bad-table", test_bad_table);
    g_test_add_func("/energy/unmapped-event", test_unmapped);
    return g_test_run();
}
