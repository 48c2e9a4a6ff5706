/* transpose.c — out = in^T, naive (strided stores) and through a padded shared tile. Pure data
 * movement: checked exactly. */
#include "kernels/workloads/wl-common.h"

#define TD   32
#define ROWS 8

typedef struct {
    unsigned w, h;
} transpose_params;

static const transpose_params P[] = {{64, 64}, {1024, 1024}, {4096, 2048}};

static int transpose_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(P));
    unsigned w = P[size].w, h = P[size].h;
    size_t n = (size_t)w * h, bytes = n * 4;
    g_autofree float *in = g_new(float, n);
    g_autofree float *want = g_new(float, n);
    g_autofree float *got_naive = g_new(float, n);
    g_autofree float *got_shared = g_new(float, n);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, in, n, -1000.0f, 1000.0f);

    uint64_t din, dnaive, dshared;
    if (wl_upload(dev, in, bytes, &din, err) || wl_upload(dev, NULL, bytes, &dnaive, err) ||
        wl_upload(dev, NULL, bytes, &dshared, err) ||
        WL_LAUNCH(dev, err, "transpose_naive", w / TD, h / TD, 1, TD, ROWS, 1, WL_PTR(din), WL_PTR(dnaive),
                  WL_S32(w), WL_S32(h)) ||
        WL_LAUNCH(dev, err, "transpose_shared", w / TD, h / TD, 1, TD, ROWS, 1, WL_PTR(din), WL_PTR(dshared),
                  WL_S32(w), WL_S32(h)) ||
        wl_download(dev, dnaive, got_naive, bytes, err) || wl_download(dev, dshared, got_shared, bytes, err))
        return -1;

    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            want[x * h + y] = in[y * w + x];
    int rc = wl_check_f32("naive", want, got_naive, n, 0.0f, err);
    rc |= wl_check_f32("shared", want, got_shared, n, 0.0f, err);
    return rc;
}

const workload wl_transpose = {
    .name = "transpose",
    .blurb = "matrix transpose, naive (uncoalesced stores) and through a padded shared tile",
    .ptx = "transpose.ptx",
    .tags = "shared,barrier,convergent,memory-divergent,limit-threads,limit-registers",
    .run = transpose_run,
};
