/* hotspot.c — a 2-D thermal simulation advanced `steps` time steps, `pyramid` steps per launch.
 * The reference does the plain full-grid update per step with the same expression; nvcc may
 * contract some of its products into fma, so results can differ in the last bits per step:
 * tolerance 1e-5 relative (temperatures are ~300-340). */
#include "kernels/workloads/wl-common.h"

#include <string.h>

#define BS 16

typedef struct {
    unsigned dim, steps, pyramid;
} hotspot_params;

static const hotspot_params P[] = {{24, 2, 2}, {224, 4, 2}, {704, 4, 2}};

static const float STEP_DIV_CAP = 0.2f, RX_INV = 1.0f, RY_INV = 1.0f, RZ_INV = 0.05f, AMB = 80.0f;

static void hotspot_reference(const float *power, float *t, float *tmp, int rows, int cols, unsigned steps)
{
    for (unsigned s = 0; s < steps; s++) {
        for (int y = 0; y < rows; y++) {
            for (int x = 0; x < cols; x++) {
                size_t i = (size_t)y * cols + x;
                float c = t[i];
                float tn = y > 0 ? t[i - cols] : c;
                float ts = y < rows - 1 ? t[i + cols] : c;
                float tw = x > 0 ? t[i - 1] : c;
                float te = x < cols - 1 ? t[i + 1] : c;
                float delta = STEP_DIV_CAP * (power[i] + (ts + tn - 2.0f * c) * RY_INV +
                                              (te + tw - 2.0f * c) * RX_INV + (AMB - c) * RZ_INV);
                tmp[i] = c + delta;
            }
        }
        memcpy(t, tmp, (size_t)rows * cols * sizeof(float));
    }
}

static int hotspot_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(P));
    const hotspot_params *p = &P[size];
    int n = (int)p->dim;
    size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
    g_autofree float *power = g_new(float, cells);
    g_autofree float *temp = g_new(float, cells);
    g_autofree float *tmp = g_new(float, cells);
    g_autofree float *got = g_new(float, cells);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, power, cells, 0.0f, 1.0f);
    wl_rng_fill_f32(&rng, temp, cells, 300.0f, 340.0f);

    uint64_t dpower, dt[2];
    if (wl_upload(dev, power, bytes, &dpower, err) || wl_upload(dev, temp, bytes, &dt[0], err) ||
        wl_upload(dev, NULL, bytes, &dt[1], err))
        return -1;
    unsigned cur = 0;
    for (unsigned done = 0; done < p->steps; cur ^= 1) {
        unsigned iters = MIN(p->pyramid, p->steps - done);
        unsigned grid = wl_div_up(p->dim, BS - 2 * iters);
        if (WL_LAUNCH(dev, err, "hotspot_step", grid, grid, 1, BS, BS, 1, WL_PTR(dpower), WL_PTR(dt[cur]),
                      WL_PTR(dt[cur ^ 1]), WL_S32(n), WL_S32(n), WL_S32(iters), WL_F32(STEP_DIV_CAP),
                      WL_F32(RX_INV), WL_F32(RY_INV), WL_F32(RZ_INV), WL_F32(AMB)))
            return -1;
        done += iters;
    }
    if (wl_download(dev, dt[cur], got, bytes, err))
        return -1;

    hotspot_reference(power, temp, tmp, n, n, p->steps);
    return wl_check_f32("temp", temp, got, cells, 1e-5f, err);
}

const workload wl_hotspot = {
    .name = "hotspot",
    .blurb = "2-D thermal stencil, several time steps per launch in a shared-memory tile (pyramid)",
    .ptx = "hotspot.ptx",
    .tags = "shared,barrier,stencil,divergent,limit-threads",
    .run = hotspot_run,
};
