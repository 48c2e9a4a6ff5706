/* histogram.c — 256-bin byte histogram, privatised in shared memory (hist_shared) and straight to
 * global memory (hist_global). Integer counts: checked exactly. Half of the bytes come from eight
 * hot values so the atomics contend. */
#include "kernels/workloads/wl-common.h"

#define BLOCK 256
#define BINS  256

static const unsigned WORDS[] = {1500, 512u << 10, 5u << 20}; /* tiny: 1 or 2 grid-stride steps per thread */
static const unsigned GRID[] = {4, 120, 120};

static uint32_t histogram_byte(wl_rng *rng)
{
    uint32_t r = wl_rng_u32(rng);
    return (r & 1) ? (r >> 8) & 0xff : 0x40 + ((r >> 8) & 7);
}

static int histogram_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(WORDS));
    unsigned n = WORDS[size], grid = GRID[size];
    g_autofree uint32_t *data = g_new(uint32_t, n);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    for (unsigned i = 0; i < n; i++)
        data[i] = histogram_byte(&rng) | histogram_byte(&rng) << 8 | histogram_byte(&rng) << 16 |
                  histogram_byte(&rng) << 24;

    uint32_t got_shared[BINS], got_global[BINS], want[BINS] = {0};
    uint64_t ddata, dhs, dhg;
    if (wl_upload(dev, data, (size_t)n * 4, &ddata, err) || wl_upload(dev, NULL, BINS * 4, &dhs, err) ||
        wl_upload(dev, NULL, BINS * 4, &dhg, err) ||
        WL_LAUNCH(dev, err, "hist_shared", grid, 1, 1, BLOCK, 1, 1, WL_PTR(ddata), WL_U32(n), WL_PTR(dhs)) ||
        WL_LAUNCH(dev, err, "hist_global", grid, 1, 1, BLOCK, 1, 1, WL_PTR(ddata), WL_U32(n), WL_PTR(dhg)) ||
        wl_download(dev, dhs, got_shared, sizeof got_shared, err) ||
        wl_download(dev, dhg, got_global, sizeof got_global, err))
        return -1;

    for (unsigned i = 0; i < n; i++)
        for (unsigned s = 0; s < 32; s += 8)
            want[(data[i] >> s) & 0xff]++;
    int rc = wl_check_u32("hist_shared", want, got_shared, BINS, err);
    rc |= wl_check_u32("hist_global", want, got_global, BINS, err);
    return rc;
}

const workload wl_histogram = {
    .name = "histogram",
    .blurb = "256-bin histogram: shared-memory atomics vs contended global atomics",
    .ptx = "histogram.ptx",
    .tags = "shared,barrier,atomics,contention,limit-threads",
    .run = histogram_run,
};
