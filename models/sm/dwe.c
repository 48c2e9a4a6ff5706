/* dwe.c — see dwe.h. */
#include "models/sm/dwe.h"

#include "models/sm/issue.h"

struct dwe {
    unsigned n, ref, init;
    uint64_t period, window; /* the window being counted: [window x period, (window + 1) x period) */
    uint64_t windows, refused;
    blk_inst **issue;
    uint8_t *p;       /* tenths */
    uint64_t *last;   /* each SM's stall_pipeline at the window's start */
    uint64_t *stalls; /* scratch */
    uint64_t *rng;    /* xorshift64* state per SM */
};

dwe *dwe_new(blk_inst *const *issue, unsigned n, unsigned ref, uint64_t period, unsigned init_tenths,
             uint64_t seed)
{
    g_assert(n > 0 && ref < n && period > 0 && init_tenths <= 10);
    dwe *d = g_new0(dwe, 1);
    d->n = n;
    d->ref = ref;
    d->init = init_tenths;
    d->period = period;
    d->issue = issue ? g_memdup2(issue, n * sizeof *issue) : NULL;
    d->p = g_new(uint8_t, n);
    d->last = g_new0(uint64_t, n);
    d->stalls = g_new0(uint64_t, n);
    d->rng = g_new(uint64_t, n);
    for (unsigned s = 0; s < n; s++) {
        d->p[s] = s == ref ? 0 : (uint8_t)init_tenths;
        d->rng[s] = (seed + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (s + 1) * UINT64_C(0xBF58476D1CE4E5B9);
        if (!d->rng[s])
            d->rng[s] = 1;
    }
    return d;
}

void dwe_free(dwe *d)
{
    if (!d)
        return;
    g_free(d->issue);
    g_free(d->p);
    g_free(d->last);
    g_free(d->stalls);
    g_free(d->rng);
    g_free(d);
}

/* k windows judged on the stalls they counted together: k steps in the comparison's direction. */
static void adjust(dwe *d, const uint64_t *stalls, uint64_t k)
{
    for (unsigned s = 0; s < d->n; s++) {
        if (s == d->ref)
            continue;
        for (uint64_t j = 0; j < k && j < 10; j++) {
            if (stalls[s] > stalls[d->ref] && d->p[s] > 0)
                d->p[s]--;
            else if (stalls[s] < stalls[d->ref] && d->p[s] < 10)
                d->p[s]++;
        }
    }
    d->windows += k;
}

void dwe_adjust(dwe *d, const uint64_t *stalls)
{
    adjust(d, stalls, 1);
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

bool dwe_allow(dwe *d, unsigned sm, uint64_t cycle)
{
    g_assert(sm < d->n);
    uint64_t w = cycle / d->period;
    if (w != d->window && d->issue) { /* the window(s) ended: adjust once from what they counted */
        for (unsigned s = 0; s < d->n; s++) {
            uint64_t now = blk_stat_get(d->issue[s], ISSUE_STAT_STALL_PIPELINE);
            d->stalls[s] = now - d->last[s];
            d->last[s] = now;
        }
        adjust(d, d->stalls, w - d->window);
        d->window = w;
    }
    unsigned p = d->p[sm];
    bool ok = p >= 10 || (p > 0 && next(&d->rng[sm]) % 10 < p);
    if (!ok)
        d->refused++;
    return ok;
}

unsigned dwe_p(const dwe *d, unsigned sm)
{
    return d->p[sm];
}

uint64_t dwe_windows(const dwe *d)
{
    return d->windows;
}

uint64_t dwe_refused(const dwe *d)
{
    return d->refused;
}
