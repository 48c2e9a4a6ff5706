/* barrier.c — CTA barrier bookkeeping; see barrier.h. */
#include "models/lib/barrier.h"

typedef struct {
    bool live;
    uint64_t members; /* warps of the CTA */
    uint64_t exited;
    uint64_t arrived[BARRIER_IDS];
} cta_bar;

struct barrier_table {
    unsigned slots;
    cta_bar *cta;
};

barrier_table *barrier_table_new(unsigned cta_slots)
{
    barrier_table *t = g_new0(barrier_table, 1);
    t->slots = cta_slots;
    t->cta = g_new0(cta_bar, cta_slots ? cta_slots : 1);
    return t;
}

void barrier_table_free(barrier_table *t)
{
    if (!t)
        return;
    g_free(t->cta);
    g_free(t);
}

static cta_bar *slot_of(const barrier_table *t, unsigned slot)
{
    g_assert(slot < t->slots && t->cta[slot].live);
    return &t->cta[slot];
}

void barrier_cta_start(barrier_table *t, unsigned slot, unsigned warps)
{
    g_assert(slot < t->slots && !t->cta[slot].live);
    g_assert(warps >= 1 && warps <= BARRIER_MAX_WARPS);
    t->cta[slot] = (cta_bar){.live = true, .members = warps == 64 ? UINT64_MAX : (UINT64_C(1) << warps) - 1};
}

void barrier_cta_end(barrier_table *t, unsigned slot)
{
    slot_of(t, slot)->live = false;
}

/* If every live warp waits at `id`, clears it and returns the released mask. */
static uint64_t try_release(cta_bar *c, unsigned id)
{
    uint64_t live = c->members & ~c->exited;
    if (c->arrived[id] == 0 || (c->arrived[id] & live) != live)
        return 0;
    uint64_t r = c->arrived[id];
    c->arrived[id] = 0;
    return r;
}

uint64_t barrier_arrive(barrier_table *t, unsigned slot, unsigned w, unsigned id)
{
    cta_bar *c = slot_of(t, slot);
    g_assert(id < BARRIER_IDS && w < BARRIER_MAX_WARPS);
    uint64_t bit = UINT64_C(1) << w;
    g_assert((c->members & bit) && !(c->exited & bit) && !(c->arrived[id] & bit));
    c->arrived[id] |= bit;
    return try_release(c, id);
}

uint64_t barrier_exit(barrier_table *t, unsigned slot, unsigned w)
{
    cta_bar *c = slot_of(t, slot);
    g_assert(w < BARRIER_MAX_WARPS);
    uint64_t bit = UINT64_C(1) << w;
    g_assert((c->members & bit) && !(c->exited & bit));
    c->exited |= bit;
    uint64_t released = 0;
    for (unsigned id = 0; id < BARRIER_IDS; id++) {
        c->arrived[id] &= ~bit; /* cannot happen for a warp blocked at a barrier; harmless */
        released |= try_release(c, id);
    }
    return released;
}

uint64_t barrier_waiting(const barrier_table *t, unsigned slot, unsigned id)
{
    g_assert(id < BARRIER_IDS);
    return slot_of(t, slot)->arrived[id];
}

bool barrier_cta_done(const barrier_table *t, unsigned slot)
{
    const cta_bar *c = slot_of(t, slot);
    return (c->members & ~c->exited) == 0;
}
