/* test_energy — the energy accounting of the block framework (models/core/energy.h) against closed
 * forms: dynamic energy = events x energy per event, leakage energy = unit-cycles x period x power,
 * per state (ON for all units and cycles, SLEEP and OFF from their counters); the per-block and total
 * figures in the text and JSON dumps; a parameter set in the configuration changes the result; a
 * table naming a missing counter is refused; the model's own blocks feeding the instruction buffer and
 * cache, scheduler, execution-unit, interconnect and memory-controller components, each event count x
 * its default energy in its component. Each test runs in a subprocess (harness_test_add). */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/core/config.h"
#include "models/core/harness.h"
#include "models/core/stats.h"
#include "models/mem/dram_blk.h"
#include "models/mem/icnt_blk.h"
#include "models/mem/sm_link.h"
#include "models/sm/arbiter.h"
#include "models/sm/fetch.h"
#include "models/sm/ibuffer.h"
#include "models/sm/issue.h"
#include "models/sm/units.h"

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

/* One event of a model block: its counter set to `count`, the figure is count x the parameter's
 * default (docs/energy.md's table) in `component`. */
typedef struct {
    const blk_desc *desc;
    const char *event, *stat;
    uint64_t count;
    double pj_each;
    blk_power_comp component;
} block_event;

static const block_event block_events[] = {
    {&fetch_desc, "icache_hit", "icache_hits", 7, 2.34, BLK_COMP_ICP},
    {&fetch_desc, "icache_miss", "icache_misses", 3, 2.34, BLK_COMP_ICP},
    {&fetch_desc, "l0_hit", "l0_hits", 11, 0.29, BLK_COMP_ICP},
    {&fetch_desc, "l0_miss", "l0_misses", 5, 0.29, BLK_COMP_ICP},
    {&ibuffer_desc, "write", "pushed", 13, 1.14, BLK_COMP_IBP},
    {&issue_desc, "ibuffer_read", "warp_instrs", 17, 1.14, BLK_COMP_IBP},
    {&arbiter_desc, "grant", "grants", 19, 2, BLK_COMP_SCHEDP},
    {&units_desc, "sp_op", "sp_ops", 23, 64, BLK_COMP_SPP},
    {&units_desc, "int_op", "int_ops", 29, 100, BLK_COMP_SPP},
    {&units_desc, "sfu_op", "sfu_ops", 31, 320, BLK_COMP_SFUP},
    {&units_desc, "dp_op", "dp_ops", 37, 640, BLK_COMP_FPUP},
    {&icnt_blk_desc, "req_flit", "req_flits", 41, 128, BLK_COMP_NOCP},
    {&icnt_blk_desc, "resp_flit", "resp_flits", 43, 128, BLK_COMP_NOCP},
    {&sm_link_desc, "byte", "bytes", 59, 0.8, BLK_COMP_NOCP},
    {&dram_blk_desc, "mc_read", "reads", 47, 50, BLK_COMP_MCP},
    {&dram_blk_desc, "mc_write", "writes", 53, 50, BLK_COMP_MCP},
};

static unsigned index_of_stat(const blk_desc *d, const char *name)
{
    for (unsigned i = 0; i < d->n_stats; i++)
        if (strcmp(d->stats[i].name, name) == 0)
            return i;
    g_error("block %s has no counter %s", d->name, name);
}

/* Each event alone in a context of its own: its figure is count x energy, and all of it goes to its
 * component (the DRAM's reads and writes feed DRAMP too: that part is their e_access). */
static void test_model_blocks(void)
{
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    for (unsigned k = 0; k < BLK_N(block_events); k++) {
        const block_event *be = &block_events[k];
        blk_ctx *ctx = blk_ctx_new(NULL, clk);
        unsigned counts[32];
        g_assert_cmpuint(be->desc->n_ports, <=, G_N_ELEMENTS(counts));
        for (unsigned i = 0; i < G_N_ELEMENTS(counts); i++)
            counts[i] = 1; /* one element of each port array */
        char *name = g_strdup_printf("x%u", k);
        blk_inst *inst = blk_inst_new_arrays(ctx, NULL, name, be->desc, counts);
        g_free(name);
        blk_stat_add(inst, index_of_stat(be->desc, be->stat), be->count);
        const blk_energy_desc *e = be->desc->energy;
        g_assert_nonnull(e);
        unsigned ev = e->n_events;
        for (unsigned i = 0; i < e->n_events; i++)
            if (strcmp(e->events[i].name, be->event) == 0)
                ev = i;
        g_assert_cmpuint(ev, <, e->n_events);
        g_assert_cmpstr(e->events[ev].stat, ==, be->stat);
        double want = (double)be->count * be->pj_each;
        g_assert_cmpfloat_with_epsilon(blk_energy_event_pj(inst, ev), want, 1e-9);
        double pj[BLK_COMP_N];
        g_assert_true(blk_ctx_energy_components(ctx, pj) & 1u << be->component);
        g_assert_cmpfloat_with_epsilon(pj[be->component], want, 1e-9);
        g_test_message("%s.%s: %" G_GUINT64_FORMAT " x %g pJ = %g pJ in %s", be->desc->name, be->event,
                       be->count, be->pj_each, want, blk_power_comp_name(be->component));
        blk_ctx_free(ctx);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    harness_test_add("/energy/closed-form", test_closed_form);
    harness_test_add("/energy/configured", test_configured);
    harness_test_add("/energy/dumps", test_dumps);
    harness_test_add("/energy/model-blocks", test_model_blocks);
    g_test_add_func("/energy/bad-table", test_bad_table);
    g_test_add_func("/energy/unmapped-event", test_unmapped);
    return g_test_run();
}
