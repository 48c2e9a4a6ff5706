/* spu_passes.c — the SPU's pass decomposition and unit-step timelines; see spu_passes.h. */
#include "models/spu/spu_passes.h"

void spu_passes_init(spu_passes *ps, unsigned p, unsigned G)
{
    g_assert(p > 0 && G > 0);
    ps->p = p;
    ps->G = G;
    ps->P = (G + p - 1) / p;
    ps->partial = G % p != 0;
}

void spu_passes_coord(const spu_passes *ps, unsigned q, unsigned *px, unsigned *py)
{
    *px = q % ps->P;
    *py = q / ps->P;
}

unsigned spu_passes_span(const spu_passes *ps, unsigned c)
{
    g_assert(c < ps->P);
    return MIN(ps->G, (c + 1) * ps->p) - c * ps->p;
}

unsigned spu_passes_occupancy(const spu_passes *ps, unsigned px, unsigned py)
{
    return spu_passes_span(ps, px) * spu_passes_span(ps, py);
}

unsigned spu_passes_sm_of(const spu_passes *ps, unsigned i, unsigned j)
{
    return j % ps->p * ps->p + i % ps->p;
}

unsigned spu_passes_pass_of(const spu_passes *ps, unsigned i, unsigned j)
{
    return j / ps->p * ps->P + i / ps->p;
}

spu_role spu_passes_role(const spu_passes *ps, unsigned x, unsigned y, unsigned px, unsigned py)
{
    unsigned sx = spu_passes_span(ps, px), sy = spu_passes_span(ps, py);
    if (x < sx && y < sy)
        return SPU_ROLE_CTA;
    if (x == sx && y < sy)
        return SPU_ROLE_IU_EAST;
    if (y == sy && x < sx)
        return SPU_ROLE_IU_SOUTH;
    return SPU_ROLE_NONE;
}

bool spu_passes_border_serves(const spu_passes *ps, bool vert, bool store, unsigned idx, unsigned px,
                              unsigned py)
{
    unsigned along = vert ? px : py, across = vert ? py : px;
    return idx < spu_passes_span(ps, along) && (!store || spu_passes_span(ps, across) == ps->p);
}

unsigned spu_passes_timeline(const spu_passes *ps, unsigned T, spu_tl_mode mode, unsigned *start)
{
    unsigned G = ps->G, p = ps->p, n_pass = ps->P * ps->P, end = 0;
    g_assert(T > 0);
    if (mode == SPU_TL_GLOBAL) { /* every pass runs Algorithm 1's whole loop */
        unsigned L = 2 * (G - 1) + T;
        for (unsigned j = 0; start && j < G; j++)
            for (unsigned i = 0; i < G; i++)
                start[j * G + i] = spu_passes_pass_of(ps, i, j) * L + i + j;
        return n_pass * L;
    }
    /* s[(j * G + i) * T + k]: the step tile (i, j, k) is computed */
    unsigned *s = g_new0(unsigned, (size_t)G *G *T);
    unsigned *sm_free = g_new0(unsigned, (size_t)p *p);
    for (unsigned q = 0; q < n_pass; q++) {
        unsigned px, py, pass_start = end;
        spu_passes_coord(ps, q, &px, &py);
        for (unsigned j = py * p; j < py * p + spu_passes_span(ps, py); j++)
            for (unsigned i = px * p; i < px * p + spu_passes_span(ps, px); i++) {
                unsigned sm = spu_passes_sm_of(ps, i, j);
                unsigned t = mode == SPU_TL_LOCAL ? MAX(pass_start, sm_free[sm]) : sm_free[sm];
                for (unsigned k = 0; k < T; k++) {
                    unsigned at = k ? s[(j * G + i) * T + k - 1] + 1 : t;
                    if (i)
                        at = MAX(at, s[(j * G + i - 1) * T + k] + 1);
                    if (j)
                        at = MAX(at, s[((j - 1) * G + i) * T + k] + 1);
                    s[(j * G + i) * T + k] = at;
                }
                sm_free[sm] = s[(j * G + i) * T + T - 1] + 1;
                end = MAX(end, sm_free[sm]);
                if (start)
                    start[j * G + i] = s[(j * G + i) * T];
            }
    }
    g_free(s);
    g_free(sm_free);
    return end;
}

unsigned spu_passes_spills(const spu_passes *ps, unsigned T, spu_tl_mode mode, unsigned *useful)
{
    if (useful)
        *useful = T;
    return mode == SPU_TL_GLOBAL ? 2 * (ps->G - 1) + T : T;
}
