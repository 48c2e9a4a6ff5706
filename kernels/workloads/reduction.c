/* reduction.c — sum (shared tree, warp shuffles, float atomicAdd) and maximum (shared tree,
 * atomicCAS loop) of a float array. The maximum is exact. The sum's order depends on the grid and
 * on the order in which blocks' atomics land, so it is checked against a double-precision sum with a
 * relative tolerance of 1e-4: inputs are in [0, 1), so there is no cancellation and the float error
 * is bounded by about (n / threads + log2(threads)) * 2^-24 relative. */
#include "kernels/workloads/wl-common.h"

#include <float.h>
#include <math.h>

#define BLOCK 256

static const unsigned N[] = {3000, 1u << 20, 8u << 20}; /* tiny: 2 or 3 grid-stride steps per thread */
static const unsigned GRID[] = {4, 120, 120};

static int reduction_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(N));
    unsigned n = N[size], grid = GRID[size];
    g_autofree float *in = g_new(float, n);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, in, n, 0.0f, 1.0f);

    float lowest = -FLT_MAX;
    float got[2];
    uint64_t din, dsum, dmax;
    if (wl_upload(dev, in, (size_t)n * 4, &din, err) || wl_upload(dev, NULL, 4, &dsum, err) ||
        wl_upload(dev, &lowest, 4, &dmax, err) ||
        WL_LAUNCH(dev, err, "reduce_sum", grid, 1, 1, BLOCK, 1, 1, WL_PTR(din), WL_PTR(dsum), WL_U32(n)) ||
        WL_LAUNCH_DYN(dev, err, "reduce_max", grid, 1, 1, BLOCK, 1, 1, BLOCK * sizeof(float), WL_PTR(din),
                      WL_PTR(dmax), WL_U32(n)) ||
        wl_download(dev, dsum, &got[0], 4, err) || wl_download(dev, dmax, &got[1], 4, err))
        return -1;

    double sum = 0.0;
    float max = -FLT_MAX;
    for (unsigned i = 0; i < n; i++) {
        sum += in[i];
        max = fmaxf(max, in[i]);
    }
    float want_sum = (float)sum;
    int rc = wl_check_f32("sum", &want_sum, &got[0], 1, 1e-4f, err);
    rc |= wl_check_f32("max", &max, &got[1], 1, 0.0f, err);
    return rc;
}

const workload wl_reduction = {
    .name = "reduction",
    .blurb = "sum and max of a float array: shared-memory tree, warp shuffles, float atomicAdd, atomicCAS",
    .ptx = "reduction.ptx",
    .tags = "shared,dynamic-shared,barrier,atomics,warp-shuffle,mostly-convergent,limit-threads",
    .run = reduction_run,
};
