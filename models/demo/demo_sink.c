/* demo_sink.c — see demo_sink.h. */
#include "models/demo/demo_sink.h"

#define DEMO_SINK_MAX_REPORTS 5

static const blk_port_desc ports[] = {
    {"in", GSC_IN, &demo_word_type, BLK_CHAN_FIFO, "depth", "results to check"},
};

static const blk_param_desc params[] = {
    {"depth", BLK_PARAM_UINT, "4", "1", "64", NULL, "items", "depth of the input FIFO"},
    {"burst", BLK_PARAM_UINT, "0", "0", "1000000", NULL, "items",
     "items taken between pauses (0: never pause)"},
    {"pause", BLK_PARAM_UINT, "0", "0", "1000", NULL, "cycles", "length of a pause"},
};

static const blk_stat_desc stats[] = {
    [DEMO_SINK_STAT_RECEIVED] = {"received", BLK_STAT_COUNTER, "items", "items taken from the input", NULL},
    [DEMO_SINK_STAT_MISMATCHES] = {"mismatches", BLK_STAT_COUNTER, "items",
                                   "items out of order or with a wrong value", NULL},
    [DEMO_SINK_STAT_PAUSE_CYCLES] = {"pause_cycles", BLK_STAT_COUNTER, "cycles", "cycles spent pausing",
                                     NULL},
};

static const blk_state_desc state[] = {
    {"received", 32, "items taken so far"},
    {"last_value", 32, "value of the last item taken"},
    {"paused", 1, "pausing (back-pressure)"},
};

const blk_desc demo_sink_desc = {
    "demo_sink",
    "demo: a checking sink with a FIFO input and back-pressure",
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

static void demo_sink_check(demo_sink *s, const demo_word *w)
{
    if (!s->expected)
        return;
    bool ok = w->seq == s->received && w->seq < s->n_expected && w->value == s->expected[w->seq];
    if (ok)
        return;
    if (blk_stat_get(s->inst, DEMO_SINK_STAT_MISMATCHES) < DEMO_SINK_MAX_REPORTS)
        blk_message(s->inst, "%s: cycle %" G_GUINT64_FORMAT ": item %u: got seq %u value %u", s->inst->path,
                    gsc_cycle(), s->received, w->seq, w->value);
    blk_stat_add(s->inst, DEMO_SINK_STAT_MISMATCHES, 1);
}

static void demo_sink_run(void *self)
{
    demo_sink *s = self;
    gsc_fifo *in = blk_fifo(s->inst, DEMO_SINK_IN);
    uint64_t now = gsc_cycle();
    if (s->paused && now < s->paused_until) { /* (a put wakes it during a pause: sleep on) */
        gsc_run_within(s->paused_until - now);
        return;
    }
    s->paused = false;
    if (gsc_fifo_can_get(in)) {
        demo_word w;
        gsc_fifo_get(in, &w);
        demo_sink_check(s, &w);
        s->received++;
        s->last_value = w.value;
        blk_stat_add(s->inst, DEMO_SINK_STAT_RECEIVED, 1);
        if (s->n_expected && s->received == s->n_expected) {
            gsc_stop();
            return;
        }
        if (s->burst && s->pause && s->received % s->burst == 0) {
            s->paused = true;
            s->paused_until = now + 1 + s->pause;
            blk_stat_add(s->inst, DEMO_SINK_STAT_PAUSE_CYCLES, s->pause);
            gsc_run_within(1 + s->pause);
            return;
        }
    }
    if (gsc_fifo_can_get(in))
        gsc_run_within(1);
    /* else: sleep until a put on `in` */
}

static void demo_sink_elaborate(void *self)
{
    demo_sink *s = self;
    gsc_process *p = gsc_process_new(s->inst->mod, "run", demo_sink_run, s);
    gsc_sensitive_fifo_put(p, blk_fifo(s->inst, DEMO_SINK_IN));
}

demo_sink *demo_sink_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    demo_sink *s = g_new0(demo_sink, 1);
    s->inst = blk_inst_new(ctx, parent, name, &demo_sink_desc);
    s->burst = blk_param_uint(s->inst, "burst");
    s->pause = blk_param_uint(s->inst, "pause");
    blk_trace_state(s->inst, "received", GSC_U32, &s->received);
    blk_trace_state(s->inst, "last_value", GSC_U32, &s->last_value);
    blk_trace_state(s->inst, "paused", GSC_BOOL, &s->paused);
    blk_inst_on_elaborate(s->inst, demo_sink_elaborate, s);
    return s;
}

void demo_sink_expect(demo_sink *s, const uint32_t *expected, uint64_t n)
{
    s->expected = expected;
    s->n_expected = n;
}
