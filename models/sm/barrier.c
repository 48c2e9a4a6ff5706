/* barrier.c — see barrier.h. */
#include "models/sm/barrier.h"

#include <string.h>

static const char *const bar_methods[] = {
    "cta_start(slot, first_warp, warps)",
    "arrive(slot, warp in CTA, arrival) -> the completed barrier, if any",
    "warp_exit(slot, warp in CTA) -> the barriers it completed",
    NULL,
};
/* the traced widths: slot up to SM_MAX_CTAS, a warp in a CTA up to 256 (4-thread warps) */
const blk_iface barrier_iface = {"barrier", "CTA barriers", bar_methods, {"slot", "warp", "id"}, {6, 8, 4}};

static const blk_port_desc ports[] = {
    [BARRIER_BAR] = {"bar", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                     "the issue stage reports arrivals and exits (same cycle)", &barrier_iface},
};

static const blk_stat_desc stats[] = {
    [BARRIER_STAT_ARRIVALS] = {"arrivals", BLK_STAT_COUNTER, "warps", "warp arrivals at a barrier", NULL},
    [BARRIER_STAT_RELEASES] = {"releases", BLK_STAT_COUNTER, "events", "barriers completed", NULL},
    [BARRIER_STAT_RELEASED_WARPS] = {"released_warps", BLK_STAT_COUNTER, "warps",
                                     "waiting warps let go by a completion", NULL},
};

static const blk_state_desc state[] = {
    {"waiting", 64, "warps waiting at a barrier (bit = warp slot)"},
};

const blk_desc barrier_desc = {
    "barrier",
    "CTA barriers: bar.sync, bar.arrive, bar.red, named and counted",
    "docs/baseline-design.md §2.2 barrier",
    ports,
    BLK_N(ports),
    NULL,
    0,
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

static void bar_cta_start(void *self, unsigned slot, unsigned first_warp, unsigned warps)
{
    barrier_unit *b = self;
    g_assert(slot < b->ctas);
    blk_call_note(b->probe, slot, first_warp, 0);
    memset(b->bars[slot], 0, sizeof b->bars[slot]);
    b->live[slot] = warps;
    b->first_warp[slot] = first_warp;
}

/* Barrier id of slot completes if enough threads (or every live warp) arrived. */
static unsigned try_release(barrier_unit *b, unsigned slot, unsigned id, barrier_release *rel)
{
    barrier_state *s = &b->bars[slot][id];
    if (s->warps == 0 || !(s->expected ? s->threads >= s->expected : s->warps >= b->live[slot]))
        return 0;
    *rel = (barrier_release){id, s->waiting, s->popc, s->all, s->any};
    b->tr_waiting &= b->first_warp[slot] < 64 ? ~(s->waiting << b->first_warp[slot]) : ~UINT64_C(0);
    blk_stat_add(b->inst, BARRIER_STAT_RELEASES, 1);
    blk_stat_add(b->inst, BARRIER_STAT_RELEASED_WARPS, (uint64_t)__builtin_popcountll(s->waiting));
    *s = (barrier_state){0};
    return 1;
}

static unsigned bar_arrive(void *self, unsigned slot, unsigned in_cta, const barrier_arrival *a,
                           barrier_release *rel)
{
    barrier_unit *b = self;
    blk_call_note(b->probe, slot, in_cta, a->id);
    barrier_state *s = &b->bars[slot][a->id];
    if (s->warps == 0) {
        s->all = true;
        s->any = false;
    }
    if (a->reduce) {
        s->popc += (uint32_t)__builtin_popcount(a->pred);
        s->all = s->all && a->pred == a->active;
        s->any = s->any || a->pred != 0;
    }
    s->warps++;
    s->threads += a->threads;
    if (a->count)
        s->expected = a->count;
    if (a->wait) {
        s->waiting |= UINT64_C(1) << in_cta;
        if (b->first_warp[slot] + in_cta < 64) /* the trace shows warp slots 0..63 */
            b->tr_waiting |= UINT64_C(1) << (b->first_warp[slot] + in_cta);
    }
    blk_stat_add(b->inst, BARRIER_STAT_ARRIVALS, 1);
    return try_release(b, slot, a->id, rel);
}

static unsigned bar_warp_exit(void *self, unsigned slot, unsigned in_cta, barrier_release *rel)
{
    barrier_unit *b = self;
    blk_call_note(b->probe, slot, in_cta, BARRIER_IDS - 1);
    g_assert(b->live[slot] > 0);
    b->live[slot]--;
    unsigned n = 0;
    for (unsigned id = 0; id < BARRIER_IDS; id++)
        n += try_release(b, slot, id, &rel[n]);
    return n;
}

static const barrier_if bar_table = {bar_cta_start, bar_arrive, bar_warp_exit};

barrier_unit *barrier_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned ctas)
{
    barrier_unit *b = g_new0(barrier_unit, 1);
    b->inst = blk_inst_new(ctx, parent, name, &barrier_desc);
    b->ctas = ctas;
    b->bars = g_malloc0_n(ctas, sizeof *b->bars);
    b->live = g_new0(unsigned, ctas);
    b->first_warp = g_new0(unsigned, ctas);
    blk_export(b->inst, BARRIER_BAR, 0, &bar_table, b);
    b->probe = blk_export_probe(b->inst, BARRIER_BAR, 0);
    blk_trace_state(b->inst, "waiting", GSC_U64, &b->tr_waiting);
    return b;
}

void barrier_free(barrier_unit *b)
{
    if (!b)
        return;
    g_free(b->bars);
    g_free(b->live);
    g_free(b->first_warp);
    g_free(b);
}
