/* scalarprod.c — dot products of many float vector pairs, accumulated in double. Products of two
 * floats are exact in double, so the only rounding is in the additions, which the reference does
 * in the kernel's order (per-thread strided partial sums, then the shared-memory tree): the results
 * must be identical: tolerance 0. */
#include "kernels/workloads/wl-common.h"

#define BLOCK 256

typedef struct {
    unsigned n_vec, len, grid;
} scalarprod_params;

static const scalarprod_params P[] = {{4, 1024, 4}, {256, 4096, 120}, {1024, 8192, 120}};

static double scalarprod_reference(const float *a, const float *b, unsigned len)
{
    double s[BLOCK];
    for (unsigned t = 0; t < BLOCK; t++) {
        double acc = 0.0;
        for (unsigned i = t; i < len; i += BLOCK)
            acc += (double)a[i] * (double)b[i];
        s[t] = acc;
    }
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1)
        for (unsigned t = 0; t < stride; t++)
            s[t] += s[t + stride];
    return s[0];
}

static int scalarprod_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(P));
    const scalarprod_params *p = &P[size];
    size_t n = (size_t)p->n_vec * p->len;
    g_autofree float *a = g_new(float, n);
    g_autofree float *b = g_new(float, n);
    g_autofree double *got = g_new(double, p->n_vec);
    g_autofree double *want = g_new(double, p->n_vec);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, a, n, -1.0f, 1.0f);
    wl_rng_fill_f32(&rng, b, n, -1.0f, 1.0f);

    uint64_t da, db, dout;
    if (wl_upload(dev, a, n * 4, &da, err) || wl_upload(dev, b, n * 4, &db, err) ||
        wl_upload(dev, NULL, (size_t)p->n_vec * 8, &dout, err) ||
        WL_LAUNCH(dev, err, "scalar_prod", p->grid, 1, 1, BLOCK, 1, 1, WL_PTR(da), WL_PTR(db), WL_PTR(dout),
                  WL_S32(p->n_vec), WL_S32(p->len)) ||
        wl_download(dev, dout, got, (size_t)p->n_vec * 8, err))
        return -1;

    for (unsigned v = 0; v < p->n_vec; v++)
        want[v] = scalarprod_reference(a + (size_t)v * p->len, b + (size_t)v * p->len, p->len);
    return wl_check_f64("dot", want, got, p->n_vec, 0.0, err);
}

const workload wl_scalarprod = {
    .name = "scalarprod",
    .blurb = "many dot products, one block per pair, double-precision accumulation and shared tree",
    .ptx = "scalarprod.ptx",
    .tags = "shared,barrier,double,mostly-convergent,limit-registers",
    .run = scalarprod_run,
};
