/* throttle.h — what the load-throttling blocks (ccws, daws) share: counting the throttled cycles
 * and the barred warps once per cycle, the `strikes` pulse, and a `trace` process that refreshes the
 * block's traced state every cycle a warp is resident, only when the VCD selects the block (known at
 * its first activation, cycle 0: untraced, the process is never woken again). */
#ifndef GPUSC_MODELS_CCWS_THROTTLE_H
#define GPUSC_MODELS_CCWS_THROTTLE_H

#include "models/core/block.h"

#define THROTTLE_MAX_WATCHERS 4

typedef struct {
    uint64_t counted_at; /* the last cycle counted in the throttled cycles (+1; 0: none) */
    gsc_pulse *strike_pulse;
    gsc_event *wake;
    bool traced, started;
    /* the issue stages told when an input changes the veto's answers (issue_veto_if.watch) */
    struct {
        void (*fn)(void *ctx, uint64_t from);
        void *ctx;
    } watchers[THROTTLE_MAX_WATCHERS];
    unsigned n_watchers;
} throttle_trace;

/* issue_veto_if.watch: keep changed(ctx, from) (once per issue stage: its arbiters all ask). */
static inline void throttle_watch(throttle_trace *t, void (*fn)(void *ctx, uint64_t from), void *ctx)
{
    for (unsigned i = 0; i < t->n_watchers; i++)
        if (t->watchers[i].fn == fn && t->watchers[i].ctx == ctx)
            return;
    g_assert(t->n_watchers < THROTTLE_MAX_WATCHERS);
    t->watchers[t->n_watchers].fn = fn;
    t->watchers[t->n_watchers++].ctx = ctx;
}

/* The answers may differ from cycle `from` on: tell the issue stages. */
static inline void throttle_changed(const throttle_trace *t, uint64_t from)
{
    for (unsigned i = 0; i < t->n_watchers; i++)
        t->watchers[i].fn(t->watchers[i].ctx, from);
}

/* As throttle_count for every cycle of [first, first + count) not counted yet (the issue stage
 * reused an answer without asking: issue_veto_if.repeat; calls come in cycle order). */
static inline void throttle_count_n(throttle_trace *t, blk_inst *inst, uint64_t barred, uint64_t first,
                                    uint64_t count, unsigned stat_cycles, unsigned stat_warps)
{
    uint64_t from = MAX(first, t->counted_at), end = first + count;
    if (barred && end > from) {
        t->counted_at = end;
        blk_stat_add(inst, stat_cycles, end - from);
        blk_stat_add(inst, stat_warps, (end - from) * (uint64_t)__builtin_popcountll(barred));
    }
}

/* A candidate was asked about in cycle with this barred set: the cycle and its barred warps are
 * counted once (stat_cycles, stat_warps) when some warp is barred. */
static inline void throttle_count(throttle_trace *t, blk_inst *inst, uint64_t barred, uint64_t cycle,
                                  unsigned stat_cycles, unsigned stat_warps)
{
    if (barred && t->counted_at != cycle + 1) {
        t->counted_at = cycle + 1;
        blk_stat_add(inst, stat_cycles, 1);
        blk_stat_add(inst, stat_warps, (uint64_t)__builtin_popcountll(barred));
    }
}

static inline void throttle_strike(throttle_trace *t)
{
    if (gsc_pulse_traced(t->strike_pulse))
        gsc_pulse_fire(t->strike_pulse);
}

/* In the trace process: false when the block is not traced (decided at the first activation). */
static inline bool throttle_traced(throttle_trace *t)
{
    if (!t->started) {
        t->started = true;
        t->traced = gsc_pulse_traced(t->strike_pulse);
    }
    return t->traced;
}

/* A warp became resident while none was: wake the trace process. */
static inline void throttle_wake(throttle_trace *t, unsigned n_active)
{
    if (t->traced && n_active == 1)
        gsc_event_notify(t->wake, 0);
}

/* At elaboration: the pulse, the wake event and the trace process run(self). */
static inline void throttle_elaborate(throttle_trace *t, gsc_module *mod, void (*run)(void *), void *self)
{
    t->strike_pulse = gsc_pulse_new(mod, "strikes", 8);
    t->wake = gsc_event_new(mod, "wake");
    gsc_process *p = gsc_process_new(mod, "trace", run, self);
    gsc_sensitive_event(p, t->wake);
    gsc_process_initialize(p);
    t->traced = true; /* until the first activation says otherwise */
}

#endif
