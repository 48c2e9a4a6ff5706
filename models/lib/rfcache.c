/* rfcache.c — see rfcache.h. */
#include "models/lib/rfcache.h"

#include <math.h>
#include <string.h>

void rfc_rng_seed(rfc_rng *r, uint64_t seed)
{
    r->s = seed * UINT64_C(0x9E3779B97F4A7C15) + UINT64_C(0x632BE59BD9B4E019);
    if (r->s == 0)
        r->s = 1;
}

unsigned rfc_rng_below(rfc_rng *r, unsigned n)
{
    uint64_t x = r->s; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return (unsigned)(((x * UINT64_C(2685821657736338717)) >> 33) % n);
}

void rfc_ccu_init(rfc_ccu *c, unsigned ct_entries)
{
    memset(c, 0, sizeof *c);
    g_assert(ct_entries >= 1 && ct_entries <= RFC_MAX_CT);
    c->n_ct = ct_entries;
    c->warp = RFC_NO_WARP;
}

void rfc_flush(rfc_ccu *c)
{
    for (unsigned i = 0; i < c->n_ct; i++)
        c->ct[i].valid = c->ct[i].lock = false;
}

bool rfc_has_near(const rfc_ccu *c)
{
    for (unsigned i = 0; i < c->n_ct; i++)
        if (c->ct[i].valid && c->ct[i].near)
            return true;
    return false;
}

unsigned rfc_valid_count(const rfc_ccu *c)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->n_ct; i++)
        n += c->ct[i].valid;
    return n;
}

int rfc_lookup(const rfc_ccu *c, unsigned tag)
{
    for (unsigned i = 0; i < c->n_ct; i++)
        if (c->ct[i].valid && c->ct[i].tag == tag)
            return (int)i;
    return -1;
}

int rfc_victim(rfc_ccu *c, rfc_repl repl, rfc_rng *rng)
{
    for (unsigned i = 0; i < c->n_ct; i++)
        if (!c->ct[i].valid)
            return (int)i;
    unsigned far[RFC_MAX_CT], nfar = 0;
    int lru = -1;
    for (unsigned i = 0; i < c->n_ct; i++) {
        const rfc_entry *e = &c->ct[i];
        if (e->lock)
            continue;
        if (!e->near)
            far[nfar++] = i;
        if (lru < 0 || e->lru < c->ct[lru].lru)
            lru = (int)i;
    }
    if (repl == RFC_REPL_MALEKEH && nfar > 0)
        return (int)far[rfc_rng_below(rng, nfar)];
    return lru;
}

static int take(rfc_ccu *c, unsigned tag, bool near, rfc_repl repl, rfc_rng *rng, bool *hit)
{
    int i = rfc_lookup(c, tag);
    *hit = i >= 0;
    if (i < 0) {
        i = rfc_victim(c, repl, rng);
        if (i < 0)
            return -1;
        c->ct[i].valid = true;
        c->ct[i].lock = false;
        c->ct[i].tag = (uint16_t)tag;
    }
    c->ct[i].near = near;
    c->ct[i].lru = ++c->clock;
    return i;
}

int rfc_source(rfc_ccu *c, unsigned tag, bool near, rfc_repl repl, rfc_rng *rng, bool *hit)
{
    int i = take(c, tag, near, repl, rng, hit);
    if (i >= 0)
        c->ct[i].lock = true;
    return i;
}

int rfc_dest(rfc_ccu *c, unsigned tag, bool near, rfc_repl repl, rfc_rng *rng)
{
    bool hit;
    return take(c, tag, near, repl, rng, &hit);
}

bool rfc_invalidate(rfc_ccu *c, unsigned tag)
{
    int i = rfc_lookup(c, tag);
    if (i < 0)
        return false;
    c->ct[i].valid = c->ct[i].lock = false;
    return true;
}

unsigned rfc_window_expire(rfc_ccu *c, uint64_t num, unsigned window)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->n_ct; i++) {
        rfc_entry *e = &c->ct[i];
        if (e->valid && !e->lock && e->lru + window <= num) {
            e->valid = false;
            n++;
        }
    }
    return n;
}

void rfc_unlock_all(rfc_ccu *c)
{
    for (unsigned i = 0; i < c->n_ct; i++)
        c->ct[i].lock = false;
}

rfc_alloc_case rfc_allocate(const rfc_ccu *c, unsigned n, int warp, unsigned *counter, unsigned sthld,
                            rfc_rng *rng, int *ccu)
{
    *ccu = -1;
    for (unsigned i = 0; i < n; i++)
        if (c[i].warp == warp) {
            if (c[i].busy)
                return RFC_ALLOC_OWN_BUSY;
            *ccu = (int)i;
            return RFC_ALLOC_OWN;
        }
    unsigned freec[64], nfree = 0, farc[64], nfar = 0;
    g_assert(n <= 64);
    for (unsigned i = 0; i < n; i++) {
        if (c[i].busy)
            continue;
        freec[nfree++] = i;
        if (!rfc_has_near(&c[i]))
            farc[nfar++] = i;
    }
    if (nfar > 0) {
        *ccu = (int)farc[rfc_rng_below(rng, nfar)];
        return RFC_ALLOC_FAR;
    }
    if (nfree == 0)
        return RFC_ALLOC_ALL_BUSY;
    if (*counter < sthld) {
        ++*counter;
        return RFC_ALLOC_WAIT;
    }
    *counter = 0;
    *ccu = (int)freec[rfc_rng_below(rng, nfree)];
    return RFC_ALLOC_FORCED;
}

rfc_alloc_case rfc_allocate_random(const rfc_ccu *c, unsigned n, int warp, rfc_rng *rng, int *ccu)
{
    *ccu = -1;
    for (unsigned i = 0; i < n; i++)
        if (c[i].warp == warp && c[i].busy)
            return RFC_ALLOC_OWN_BUSY;
    unsigned freec[64], nfree = 0;
    g_assert(n <= 64);
    for (unsigned i = 0; i < n; i++)
        if (!c[i].busy)
            freec[nfree++] = i;
    if (nfree == 0)
        return RFC_ALLOC_ALL_BUSY;
    /* the warp's own CCU if free (single owner: no two CCUs hold one warp's registers) */
    for (unsigned i = 0; i < n; i++)
        if (c[i].warp == warp) {
            *ccu = (int)i;
            return RFC_ALLOC_OWN;
        }
    *ccu = (int)freec[rfc_rng_below(rng, nfree)];
    return RFC_ALLOC_RANDOM;
}

/* ---- dynamic STHLD ------------------------------------------------------------------------------- */
void rfc_sthld_init(rfc_sthld_ctrl *f, int d, int initial, int sthld_max)
{
    memset(f, 0, sizeof *f);
    /* spec §11 placeholder table: states 1..6 as 0..5; [S, L] */
    static const struct {
        uint8_t s_next;
        int8_t s_d;
        uint8_t l_next;
        int8_t l_d;
    } t[RFC_MAX_STATE] = {
        {2, +1, 3, +1}, /* 1 */
        {2, +1, 3, +1}, /* 2 */
        {1, 0, 4, -1},  /* 3 */
        {6, 0, 5, -1},  /* 4 */
        {6, 0, 5, -1},  /* 5 */
        {6, 0, 3, +1},  /* 6 */
    };
    for (unsigned s = 0; s < RFC_MAX_STATE; s++) {
        f->edge[s][0] = (rfc_edge){(uint8_t)(t[s].s_next - 1), (int8_t)(t[s].s_d * d)};
        f->edge[s][1] = (rfc_edge){(uint8_t)(t[s].l_next - 1), (int8_t)(t[s].l_d * d)};
    }
    f->threshold = 0.02;
    f->state = 0;
    f->sthld = initial;
    f->sthld_max = sthld_max;
    f->prev_ipc = -1;
}

int rfc_sthld_step(rfc_sthld_ctrl *f, double ipc)
{
    if (f->prev_ipc < 0) {
        f->prev_ipc = ipc;
        return -1;
    }
    double rel = f->prev_ipc > 0 ? fabs(ipc - f->prev_ipc) / f->prev_ipc : (ipc > 0 ? 1.0 : 0.0);
    int l = rel >= f->threshold - 1e-12; /* exactly the threshold counts as L (in decimal terms) */
    const rfc_edge *e = &f->edge[f->state][l];
    f->state = e->next;
    f->sthld += e->delta;
    if (f->sthld < 0)
        f->sthld = 0;
    if (f->sthld_max >= 0 && f->sthld > f->sthld_max)
        f->sthld = f->sthld_max;
    f->prev_ipc = ipc;
    return l;
}

/* ---- storage ------------------------------------------------------------------------------------- */
unsigned rfc_bits_for(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return b;
}

uint64_t rfc_added_bytes(const rfc_geometry *g)
{
    unsigned extra = g->ct_entries > g->oct_slots ? g->ct_entries - g->oct_slots : 0;
    return (uint64_t)g->subcores * g->ccus * extra * g->reg_bytes;
}

uint64_t rfc_ct_bytes_per_subcore(const rfc_geometry *g)
{
    return (uint64_t)g->ccus * g->ct_entries * g->reg_bytes;
}

unsigned rfc_ct_control_bits(const rfc_geometry *g)
{
    return g->ct_entries * (rfc_bits_for(g->max_regs) + 1 + 1 + rfc_bits_for(g->ct_entries) + 1);
}
