/* ctaslots.c — run-time SM resource ledger and SM choice; see ctaslots.h. */
#include "models/lib/ctaslots.h"

typedef struct {
    bool used;
    ctaslots_grant g;
} cta_rec;

struct ctaslots {
    occupancy_sm sm;
    unsigned max_warps;
    bool *warp_used; /* max_warps */
    cta_rec *ctas;   /* sm.max_ctas */
    unsigned resident;
    uint64_t regs_used;
    unsigned threads_used;
};

ctaslots *ctaslots_new(const occupancy_sm *sm)
{
    g_return_val_if_fail(sm->warp_size > 0, NULL);
    ctaslots *s = g_new0(ctaslots, 1);
    s->sm = *sm;
    s->max_warps = sm->max_warps ? sm->max_warps : sm->max_threads / sm->warp_size;
    s->warp_used = g_new0(bool, s->max_warps ? s->max_warps : 1);
    s->ctas = g_new0(cta_rec, sm->max_ctas ? sm->max_ctas : 1);
    return s;
}

void ctaslots_free(ctaslots *s)
{
    if (!s)
        return;
    g_free(s->warp_used);
    g_free(s->ctas);
    g_free(s);
}

/* First slot of a free run of n warp slots, or -1. */
static int find_warps(const ctaslots *s, unsigned n)
{
    unsigned run = 0;
    for (unsigned i = 0; i < s->max_warps; i++) {
        run = s->warp_used[i] ? 0 : run + 1;
        if (run == n)
            return (int)(i + 1 - n);
    }
    return -1;
}

/* First-fit base of a free shared-memory range of `bytes`, or -1. */
static int64_t find_smem(const ctaslots *s, uint64_t bytes)
{
    if (bytes == 0)
        return 0;
    uint64_t base = 0;
    for (;;) {
        bool moved = false;
        for (unsigned i = 0; i < s->sm.max_ctas; i++) {
            const cta_rec *c = &s->ctas[i];
            if (!c->used || c->g.smem_bytes == 0)
                continue;
            uint64_t lo = c->g.smem_base, hi = lo + c->g.smem_bytes;
            if (base < hi && lo < base + bytes) {
                base = hi;
                moved = true;
            }
        }
        if (base + bytes > s->sm.smem_per_sm)
            return -1;
        if (!moved)
            return (int64_t)base;
    }
}

static int find_cta_slot(const ctaslots *s)
{
    for (unsigned i = 0; i < s->sm.max_ctas; i++)
        if (!s->ctas[i].used)
            return (int)i;
    return -1;
}

/* The needs of one CTA (occupancy's rounding), or false if malformed. */
static bool cta_needs(const ctaslots *s, const occupancy_kernel *k, occupancy_result *r)
{
    occupancy_sm one = s->sm;
    /* an SM as large as needed, so the computation never fails on capacity: only the rounding matters */
    one.regs_per_sm = one.smem_per_sm = one.max_threads = UINT32_MAX;
    one.max_warps = UINT32_MAX;
    one.max_ctas = 1;
    return occupancy_compute(&one, k, r, NULL);
}

static bool check(const ctaslots *s, const occupancy_kernel *k, occupancy_result *r, occupancy_limit *why,
                  int *warp0, int64_t *smem0, int *slot)
{
    occupancy_limit w = OCCUPANCY_LIMIT_COUNT;
    if (!cta_needs(s, k, r))
        w = OCCUPANCY_LIMIT_THREADS;
    else if (s->regs_used + r->regs_per_cta > s->sm.regs_per_sm)
        w = OCCUPANCY_LIMIT_REGS;
    else if ((*smem0 = find_smem(s, r->smem_per_cta)) < 0)
        w = OCCUPANCY_LIMIT_SMEM;
    else if (s->threads_used + r->padded_threads > s->sm.max_threads)
        w = OCCUPANCY_LIMIT_THREADS;
    else if ((*warp0 = find_warps(s, r->warps_per_cta)) < 0)
        w = OCCUPANCY_LIMIT_WARPS;
    else if ((*slot = find_cta_slot(s)) < 0)
        w = OCCUPANCY_LIMIT_CTAS;
    if (why)
        *why = w;
    return w == OCCUPANCY_LIMIT_COUNT;
}

bool ctaslots_fits(const ctaslots *s, const occupancy_kernel *k, occupancy_limit *why)
{
    occupancy_result r;
    int warp0 = -1, slot = -1;
    int64_t smem0 = -1;
    return check(s, k, &r, why, &warp0, &smem0, &slot);
}

bool ctaslots_place(ctaslots *s, const occupancy_kernel *k, ctaslots_grant *g)
{
    occupancy_result r;
    int warp0 = -1, slot = -1;
    int64_t smem0 = -1;
    if (!check(s, k, &r, NULL, &warp0, &smem0, &slot))
        return false;
    cta_rec *c = &s->ctas[slot];
    c->used = true;
    c->g = (ctaslots_grant){.cta_slot = (unsigned)slot,
                            .first_warp = (unsigned)warp0,
                            .warps = r.warps_per_cta,
                            .regs = r.regs_per_cta,
                            .smem_base = (uint64_t)smem0,
                            .smem_bytes = r.smem_per_cta};
    for (unsigned i = 0; i < r.warps_per_cta; i++)
        s->warp_used[warp0 + i] = true;
    s->regs_used += r.regs_per_cta;
    s->threads_used += r.padded_threads;
    s->resident++;
    if (g)
        *g = c->g;
    return true;
}

void ctaslots_release(ctaslots *s, unsigned cta_slot)
{
    g_assert(cta_slot < s->sm.max_ctas && s->ctas[cta_slot].used);
    cta_rec *c = &s->ctas[cta_slot];
    for (unsigned i = 0; i < c->g.warps; i++)
        s->warp_used[c->g.first_warp + i] = false;
    s->regs_used -= c->g.regs;
    s->threads_used -= c->g.warps * s->sm.warp_size;
    s->resident--;
    c->used = false;
}

unsigned ctaslots_resident(const ctaslots *s)
{
    return s->resident;
}

unsigned ctaslots_free_warps(const ctaslots *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->max_warps; i++)
        n += !s->warp_used[i];
    return n;
}

uint64_t ctaslots_free_regs(const ctaslots *s)
{
    return s->sm.regs_per_sm - s->regs_used;
}

uint64_t ctaslots_free_smem(const ctaslots *s)
{
    uint64_t used = 0;
    for (unsigned i = 0; i < s->sm.max_ctas; i++)
        if (s->ctas[i].used)
            used += s->ctas[i].g.smem_bytes;
    return s->sm.smem_per_sm - used;
}

int ctaslots_pick_round_robin(ctaslots *const *sms, unsigned n, const occupancy_kernel *k, int last,
                              void *ctx)
{
    (void)ctx;
    g_assert(last >= -1);
    for (unsigned i = 1; i <= n; i++) {
        unsigned sm = (unsigned)(last + (int)i) % n;
        if (ctaslots_fits(sms[sm], k, NULL))
            return (int)sm;
    }
    return -1;
}
