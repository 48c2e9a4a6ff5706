/* convolution.c — separable convolution (radius 8): a row pass into a temporary image, then a column
 * pass. The reference evaluates each tap sum in the kernel's order with fmaf, zeros outside the
 * image included (nvcc contracts the unrolled sum into a chain of fma.rn), so the results must match
 * to the last bit: tolerance 0. */
#include "kernels/workloads/wl-common.h"

#include <math.h>

#define R    8
#define TAPS (2 * R + 1)

typedef struct {
    unsigned w, h;
} conv_params;

static const conv_params P[] = {{64, 32}, {384, 384}, {1280, 1152}};

static float conv_at(const float *img, int w, int h, int x, int y)
{
    return (x >= 0 && x < w && y >= 0 && y < h) ? img[(size_t)y * w + x] : 0.0f;
}

static void conv_reference(const float *in, float *out, const float *taps, int w, int h, bool rows)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = -R; j <= R; j++)
                sum =
                    fmaf(taps[R - j], rows ? conv_at(in, w, h, x + j, y) : conv_at(in, w, h, x, y + j), sum);
            out[(size_t)y * w + x] = sum;
        }
    }
}

static int convolution_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(P));
    int w = (int)P[size].w, h = (int)P[size].h;
    size_t px = (size_t)w * h, bytes = px * 4;
    g_autofree float *in = g_new(float, px);
    g_autofree float *tmp = g_new(float, px);
    g_autofree float *out = g_new(float, px);
    g_autofree float *got_tmp = g_new(float, px);
    g_autofree float *got_out = g_new(float, px);
    float taps[TAPS];
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, in, px, 0.0f, 1.0f);
    wl_rng_fill_f32(&rng, taps, TAPS, 0.0f, 0.1f);

    uint64_t din, dtmp, dout, dtaps;
    if (wl_upload(dev, in, bytes, &din, err) || wl_upload(dev, NULL, bytes, &dtmp, err) ||
        wl_upload(dev, NULL, bytes, &dout, err) || wl_upload(dev, taps, sizeof taps, &dtaps, err) ||
        WL_LAUNCH(dev, err, "conv_rows", (unsigned)w / 64, (unsigned)h / 4, 1, 16, 4, 1, WL_PTR(din),
                  WL_PTR(dtmp), WL_PTR(dtaps), WL_S32(w), WL_S32(h)) ||
        WL_LAUNCH(dev, err, "conv_cols", (unsigned)w / 16, (unsigned)h / 32, 1, 16, 8, 1, WL_PTR(dtmp),
                  WL_PTR(dout), WL_PTR(dtaps), WL_S32(w), WL_S32(h)) ||
        wl_download(dev, dtmp, got_tmp, bytes, err) || wl_download(dev, dout, got_out, bytes, err))
        return -1;

    conv_reference(in, tmp, taps, w, h, true);
    conv_reference(tmp, out, taps, w, h, false);
    int rc = wl_check_f32("rows", tmp, got_tmp, px, 0.0f, err);
    rc |= wl_check_f32("cols", out, got_out, px, 0.0f, err);
    return rc;
}

const workload wl_convolution = {
    .name = "convolution",
    .blurb = "separable 17-tap convolution, row and column passes through shared-memory aprons",
    .ptx = "convolution.ptx",
    .tags = "shared,barrier,convergent,readonly-cache,multi-kernel,limit-blocks,limit-registers",
    .run = convolution_run,
};
