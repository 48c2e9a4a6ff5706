/* backprop.c — one layer with 16 hidden units: forward partial sums per 16-input block (shared
 * tree), the sigmoid of their totals, and the weight update with momentum. The reference reproduces
 * the kernel's summation tree exactly (products are stored before they are added), so the partial
 * sums get a 1e-6 tolerance; expf in the kernel is an ex2.approx sequence (a few ulp): 1e-5 on the
 * hidden units; the weight update may be contracted to fma differently: 1e-5. */
#include "kernels/workloads/wl-common.h"

#include <math.h>

#define HID 16

static const unsigned INPUTS[] = {64, 16384, 163840};
static const float ETA = 0.3f, MOMENTUM = 0.3f;

static void backprop_forward(const float *in, const float *w, float *partial, unsigned blocks)
{
    for (unsigned b = 0; b < blocks; b++) {
        float wm[HID][HID];
        for (unsigned ty = 0; ty < HID; ty++)
            for (unsigned tx = 0; tx < HID; tx++)
                wm[ty][tx] = w[((size_t)b * HID + ty) * HID + tx] * in[(size_t)b * HID + ty];
        for (unsigned s = HID / 2; s > 0; s >>= 1)
            for (unsigned ty = 0; ty < s; ty++)
                for (unsigned tx = 0; tx < HID; tx++)
                    wm[ty][tx] += wm[ty + s][tx];
        for (unsigned tx = 0; tx < HID; tx++)
            partial[(size_t)b * HID + tx] = wm[0][tx];
    }
}

static int backprop_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(INPUTS));
    unsigned n = INPUTS[size], blocks = n / HID;
    size_t nw = (size_t)n * HID;
    g_autofree float *in = g_new(float, n);
    g_autofree float *w = g_new(float, nw);
    g_autofree float *old = g_new(float, nw);
    g_autofree float *partial = g_new(float, (size_t)blocks *HID);
    g_autofree float *got_partial = g_new(float, (size_t)blocks *HID);
    g_autofree float *got_w = g_new(float, nw);
    g_autofree float *got_old = g_new(float, nw);
    float delta[HID], hidden[HID], got_hidden[HID];
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    wl_rng_fill_f32(&rng, in, n, 0.0f, 1.0f);
    wl_rng_fill_f32(&rng, w, nw, -0.05f, 0.05f);
    wl_rng_fill_f32(&rng, old, nw, -0.01f, 0.01f);
    wl_rng_fill_f32(&rng, delta, HID, -0.5f, 0.5f);

    uint64_t din, dw, dold, dpart, dhid, ddelta;
    if (wl_upload(dev, in, (size_t)n * 4, &din, err) || wl_upload(dev, w, nw * 4, &dw, err) ||
        wl_upload(dev, old, nw * 4, &dold, err) ||
        wl_upload(dev, NULL, (size_t)blocks * HID * 4, &dpart, err) ||
        wl_upload(dev, NULL, HID * 4, &dhid, err) || wl_upload(dev, delta, HID * 4, &ddelta, err) ||
        WL_LAUNCH(dev, err, "bp_forward", blocks, 1, 1, HID, HID, 1, WL_PTR(din), WL_PTR(dw),
                  WL_PTR(dpart)) ||
        WL_LAUNCH(dev, err, "bp_squash", 1, 1, 1, HID, 1, 1, WL_PTR(dpart), WL_PTR(dhid), WL_S32(blocks)) ||
        WL_LAUNCH(dev, err, "bp_adjust", blocks, 1, 1, HID, HID, 1, WL_PTR(ddelta), WL_PTR(din), WL_PTR(dw),
                  WL_PTR(dold), WL_F32(ETA), WL_F32(MOMENTUM)) ||
        wl_download(dev, dpart, got_partial, (size_t)blocks * HID * 4, err) ||
        wl_download(dev, dhid, got_hidden, HID * 4, err) || wl_download(dev, dw, got_w, nw * 4, err) ||
        wl_download(dev, dold, got_old, nw * 4, err))
        return -1;

    backprop_forward(in, w, partial, blocks);
    for (unsigned j = 0; j < HID; j++) {
        float sum = 0.0f;
        for (unsigned b = 0; b < blocks; b++)
            sum += partial[(size_t)b * HID + j];
        hidden[j] = 1.0f / (1.0f + expf(-sum));
    }
    for (size_t i = 0; i < nw; i++) {
        float dwv = ETA * delta[i % HID] * in[i / HID] + MOMENTUM * old[i];
        w[i] += dwv;
        old[i] = dwv;
    }
    int rc = wl_check_f32("partial", partial, got_partial, (size_t)blocks * HID, 1e-6f, err);
    rc |= wl_check_f32("hidden", hidden, got_hidden, HID, 1e-5f, err);
    rc |= wl_check_f32("w", w, got_w, nw, 1e-5f, err);
    rc |= wl_check_f32("old_dw", old, got_old, nw, 1e-5f, err);
    return rc;
}

const workload wl_backprop = {
    .name = "backprop",
    .blurb = "neural-network layer: shared-memory products and tree sums, sigmoid (expf), weight update",
    .ptx = "backprop.ptx",
    .tags = "shared,barrier,mostly-convergent,special-functions,multi-kernel,limit-threads",
    .run = backprop_run,
};
