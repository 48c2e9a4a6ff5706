/* pathfinder.c — minimum path cost through a grid of small integer weights, row by row, `pyramid`
 * rows per launch. Integer: checked exactly. */
#include "kernels/workloads/wl-common.h"

#include <string.h>

#define BLOCK 256

typedef struct {
    unsigned cols, rows, pyramid;
} pathfinder_params;

static const pathfinder_params P[] = {{300, 8, 4}, {16384, 48, 8}, {131072, 64, 8}}; /* tiny: 2 blocks, the last partial */

static void pathfinder_reference(const int *wall, int *cost, int *next, int cols, int rows)
{
    memcpy(cost, wall, (size_t)cols * sizeof(int));
    for (int r = 1; r < rows; r++) {
        for (int x = 0; x < cols; x++) {
            int m = cost[x];
            if (x > 0)
                m = MIN(m, cost[x - 1]);
            if (x < cols - 1)
                m = MIN(m, cost[x + 1]);
            next[x] = m + wall[(size_t)r * cols + x];
        }
        memcpy(cost, next, (size_t)cols * sizeof(int));
    }
}

static int pathfinder_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(P));
    const pathfinder_params *p = &P[size];
    int cols = (int)p->cols, rows = (int)p->rows;
    size_t cells = (size_t)cols * rows, row_bytes = (size_t)cols * 4;
    g_autofree int *wall = g_new(int, cells);
    g_autofree int *want = g_new(int, cols);
    g_autofree int *tmp = g_new(int, cols);
    g_autofree int *got = g_new(int, cols);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    for (size_t i = 0; i < cells; i++)
        wall[i] = (int)wl_rng_below(&rng, 10);

    uint64_t dwall, drow[2];
    if (wl_upload(dev, wall, cells * 4, &dwall, err) || wl_upload(dev, wall, row_bytes, &drow[0], err) ||
        wl_upload(dev, NULL, row_bytes, &drow[1], err))
        return -1;
    unsigned cur = 0;
    for (int r = 0; r < rows - 1; cur ^= 1) {
        int iters = MIN((int)p->pyramid, rows - 1 - r);
        if (WL_LAUNCH(dev, err, "pathfinder_step", wl_div_up(p->cols, BLOCK - 2 * iters), 1, 1, BLOCK, 1, 1,
                      WL_PTR(dwall), WL_PTR(drow[cur]), WL_PTR(drow[cur ^ 1]), WL_S32(cols), WL_S32(r),
                      WL_S32(iters)))
            return -1;
        r += iters;
    }
    if (wl_download(dev, drow[cur], got, row_bytes, err))
        return -1;
    pathfinder_reference(wall, want, tmp, cols, rows);
    return wl_check_i32("cost", want, got, (size_t)cols, err);
}

const workload wl_pathfinder = {
    .name = "pathfinder",
    .blurb = "grid dynamic programming, several rows per launch in shared memory (pyramid), min chains",
    .ptx = "pathfinder.ptx",
    .tags = "shared,barrier,divergent,multi-launch,limit-threads",
    .run = pathfinder_run,
};
