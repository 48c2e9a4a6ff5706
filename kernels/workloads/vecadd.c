/* vecadd.c — c = a + b. Tolerance 0: one float addition per element is exact in both places. */
#include "kernels/workloads/wl-common.h"

#define BLOCK 128

static const unsigned N[] = {4096, 1u << 20, 10u << 20};

static int vecadd_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(N));
    unsigned n = N[size];
    size_t bytes = (size_t)n * sizeof(float);
    g_autofree float *a = g_new(float, n);
    g_autofree float *b = g_new(float, n);
    g_autofree float *c = g_new(float, n);
    g_autofree float *want = g_new(float, n);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, a, n, -1.0f, 1.0f);
    wl_rng_fill_f32(&rng, b, n, -1.0f, 1.0f);

    uint64_t da, db, dc;
    if (wl_upload(dev, a, bytes, &da, err) || wl_upload(dev, b, bytes, &db, err) ||
        wl_upload(dev, NULL, bytes, &dc, err) ||
        WL_LAUNCH(dev, err, "vecadd", wl_div_up(n, BLOCK), 1, 1, BLOCK, 1, 1, WL_PTR(da), WL_PTR(db),
                  WL_PTR(dc), WL_U32(n)) ||
        wl_download(dev, dc, c, bytes, err))
        return -1;

    for (unsigned i = 0; i < n; i++)
        want[i] = a[i] + b[i];
    return wl_check_f32("c", want, c, n, 0.0f, err);
}

const workload wl_vecadd = {
    .name = "vecadd",
    .blurb = "c = a + b, one element per thread: streaming, convergent, block-count limited",
    .ptx = "vecadd.ptx",
    .tags = "streaming,convergent,cache-insensitive,limit-blocks",
    .run = vecadd_run,
};
