/* demo_source.c — see demo_source.h. */
#include "models/demo/demo_source.h"

#include "models/demo/demo_word.h"

#define BUBBLE_SEED_SALT 0x9e3779b9u

static const blk_port_desc ports[] = {
    {"out", GSC_OUT, &demo_word_type, BLK_CHAN_FIFO, NULL, "the values, in sequence order"},
};

static const blk_param_desc params[] = {
    {"count", BLK_PARAM_UINT, "64", "1", "1000000", NULL, "values", "how many values to produce"},
    {"seed", BLK_PARAM_UINT, "1", "0", "4294967295", NULL, "", "seed of the value generator"},
    {"rate", BLK_PARAM_UINT, "100", "1", "100", NULL, "%", "probability of producing in a cycle with room"},
};

static const blk_stat_desc stats[] = {
    [DEMO_SOURCE_STAT_VALUES] = {"values", BLK_STAT_COUNTER, "values", "values put on the output", NULL},
    [DEMO_SOURCE_STAT_BUBBLES] = {"bubbles", BLK_STAT_COUNTER, "cycles", "cycles skipped on purpose (rate)",
                                  NULL},
    [DEMO_SOURCE_STAT_FULL_CYCLES] = {"full_cycles", BLK_STAT_COUNTER, "cycles",
                                      "cycles spent waiting for room in the output FIFO", NULL},
};

static const blk_state_desc state[] = {
    {"produced", 32, "values produced so far"},
    {"blocked", 1, "waiting for room in the output FIFO"},
};

const blk_desc demo_source_desc = {
    "demo_source",
    "demo: a seeded sequence of values into a FIFO",
    "",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

uint32_t *demo_source_values(uint64_t seed, uint64_t n)
{
    GRand *r = g_rand_new_with_seed((guint32)seed);
    uint32_t *v = g_new(uint32_t, n ? n : 1);
    for (uint64_t i = 0; i < n; i++)
        v[i] = g_rand_int(r);
    g_rand_free(r);
    return v;
}

/* Runs at cycle 0, then every cycle while it produces; sleeps (static sensitivity: a get from its
 * FIFO) while the FIFO is full, and for good once done. */
static void demo_source_run(void *self)
{
    demo_source *s = self;
    gsc_fifo *out = blk_fifo(s->inst, DEMO_SOURCE_OUT);
    blk_sleep_wake(s->inst, gsc_cycle()); /* the full cycles slept (framework.md, "Sleeping blocks") */
    s->blocked = false;
    if (s->produced == s->count)
        return;
    if (!gsc_fifo_can_put(out)) { /* a full cycle, and so is every cycle slept until a get */
        s->blocked = true;
        blk_stat_add(s->inst, DEMO_SOURCE_STAT_FULL_CYCLES, 1);
        blk_sleep_charge(s->inst, DEMO_SOURCE_STAT_FULL_CYCLES, 1);
        return;
    }
    if (s->rate < 100 && (unsigned)g_rand_int_range(s->bubbles, 0, 100) >= s->rate) {
        blk_stat_add(s->inst, DEMO_SOURCE_STAT_BUBBLES, 1);
    } else {
        demo_word w = {s->produced, g_rand_int(s->values)};
        gsc_fifo_put(out, &w);
        s->produced++;
        blk_stat_add(s->inst, DEMO_SOURCE_STAT_VALUES, 1);
    }
    if (s->produced < s->count)
        gsc_run_within(1);
}

static void demo_source_elaborate(void *self)
{
    demo_source *s = self;
    gsc_process *p = gsc_process_new(s->inst->mod, "run", demo_source_run, s);
    gsc_sensitive_fifo_get(p, blk_fifo(s->inst, DEMO_SOURCE_OUT));
    gsc_process_initialize(p);
}

demo_source *demo_source_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    demo_source *s = g_new0(demo_source, 1);
    s->inst = blk_inst_new(ctx, parent, name, &demo_source_desc);
    s->count = blk_param_uint(s->inst, "count");
    s->rate = (unsigned)blk_param_uint(s->inst, "rate");
    uint64_t seed = blk_param_uint(s->inst, "seed");
    s->values = g_rand_new_with_seed((guint32)seed);
    s->bubbles = g_rand_new_with_seed((guint32)seed ^ BUBBLE_SEED_SALT);
    blk_trace_state(s->inst, "produced", GSC_U32, &s->produced);
    blk_trace_state(s->inst, "blocked", GSC_BOOL, &s->blocked);
    blk_inst_on_elaborate(s->inst, demo_source_elaborate, s);
    return s;
}
