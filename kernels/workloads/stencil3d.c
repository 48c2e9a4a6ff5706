/* stencil3d.c — two Jacobi sweeps of a 3-D 7-point stencil. Same operation order as the kernel;
 * the final c0 * centre + c1 * sum may be contracted to an fma by nvcc: tolerance 1e-5. */
#include "kernels/workloads/wl-common.h"

#define BX     32
#define BY     4
#define SWEEPS 2

static const unsigned DIM[] = {7, 52, 112}; /* tiny: partial blocks in x and y, 5^3 interior cells */
static const float C0 = 0.4f, C1 = 0.1f;

static void stencil3d_sweep(const float *in, float *out, int n)
{
    size_t plane = (size_t)n * n;
    for (int z = 0; z < n; z++) {
        for (int y = 0; y < n; y++) {
            for (int x = 0; x < n; x++) {
                size_t i = (size_t)z * plane + (size_t)y * n + x;
                if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
                    out[i] = in[i];
                    continue;
                }
                float sum = in[i - 1] + in[i + 1];
                sum += in[i - n];
                sum += in[i + n];
                sum += in[i - plane];
                sum += in[i + plane];
                out[i] = C0 * in[i] + C1 * sum;
            }
        }
    }
}

static int stencil3d_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(DIM));
    int n = (int)DIM[size];
    size_t cells = (size_t)n * n * n, bytes = cells * sizeof(float);
    g_autofree float *a = g_new(float, cells);
    g_autofree float *b = g_new(float, cells);
    g_autofree float *got = g_new(float, cells);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, a, cells, 0.0f, 1.0f);

    uint64_t d[2];
    if (wl_upload(dev, a, bytes, &d[0], err) || wl_upload(dev, NULL, bytes, &d[1], err))
        return -1;
    for (unsigned s = 0; s < SWEEPS; s++) {
        if (WL_LAUNCH(dev, err, "stencil7", wl_div_up(n, BX), wl_div_up(n, BY), n, BX, BY, 1,
                      WL_PTR(d[s & 1]), WL_PTR(d[(s & 1) ^ 1]), WL_S32(n), WL_S32(n), WL_S32(n), WL_F32(C0),
                      WL_F32(C1)))
            return -1;
    }
    if (wl_download(dev, d[SWEEPS & 1], got, bytes, err))
        return -1;

    for (unsigned s = 0; s < SWEEPS; s++) {
        if (s & 1)
            stencil3d_sweep(b, a, n);
        else
            stencil3d_sweep(a, b, n);
    }
    return wl_check_f32("out", (SWEEPS & 1) ? b : a, got, cells, 1e-5f, err);
}

const workload wl_stencil3d = {
    .name = "stencil3d",
    .blurb = "3-D 7-point Jacobi stencil from global memory: cache-sensitive, 64-bit plane offsets",
    .ptx = "stencil3d.ptx",
    .tags = "stencil,cache-sensitive,mostly-convergent,64bit-addr,limit-blocks",
    .run = stencil3d_run,
};
