/* kmeans.c — the k-means assignment step: nearest centroid per point, its distance, and the
 * cluster sizes (global atomicAdd). Near-ties can legitimately go either way when the kernel's
 * rounding differs from the reference's, so the membership is checked by distance: the chosen
 * centroid must be as near as the reference's nearest up to 1e-5 relative. The distances are sqrtf
 * (sqrt.rn) of an fma chain that the reference reproduces with fmaf: bit-exact, tolerance 0. The
 * cluster sizes must equal the histogram of the device's own membership exactly. */
#include "kernels/workloads/wl-common.h"

#include <math.h>

#define BLOCK 128

typedef struct {
    unsigned n, k, d;
} kmeans_params;

static const kmeans_params P[] = {{256, 4, 4}, {32768, 5, 16}, {262144, 5, 16}};

static float kmeans_sq_dist(const float *p, const float *c, unsigned d)
{
    float s = 0.0f;
    for (unsigned f = 0; f < d; f++) {
        float t = p[f] - c[f];
        s = fmaf(t, t, s);
    }
    return s;
}

static void kmeans_generate(const kmeans_params *p, wl_rng *rng, float *points, float *centroids)
{
    g_autofree float *centres = g_new(float, (size_t)p->k * p->d);
    wl_rng_fill_f32(rng, centres, (size_t)p->k * p->d, -10.0f, 10.0f);
    for (unsigned i = 0; i < p->n; i++) {
        unsigned c = wl_rng_below(rng, p->k);
        for (unsigned f = 0; f < p->d; f++)
            points[(size_t)i * p->d + f] = centres[(size_t)c * p->d + f] + wl_rng_float(rng, -4.0f, 4.0f);
    }
    /* The current centroids: the true centres, perturbed (as after a few iterations). */
    for (size_t j = 0; j < (size_t)p->k * p->d; j++)
        centroids[j] = centres[j] + wl_rng_float(rng, -1.0f, 1.0f);
}

static int kmeans_check(const kmeans_params *p, const float *points, const float *centroids,
                        const int *member, const float *dist, const int *counts, GString *err)
{
    g_autofree float *want_dist = g_new(float, p->n);
    g_autofree int *want_counts = g_new0(int, p->k);
    size_t bad = 0;
    for (unsigned i = 0; i < p->n; i++) {
        const float *pt = points + (size_t)i * p->d;
        float best = kmeans_sq_dist(pt, centroids, p->d);
        for (unsigned c = 1; c < p->k; c++)
            best = fminf(best, kmeans_sq_dist(pt, centroids + (size_t)c * p->d, p->d));
        want_dist[i] = sqrtf(best);
        int m = member[i];
        bool ok = m >= 0 && (unsigned)m < p->k &&
                  kmeans_sq_dist(pt, centroids + (size_t)m * p->d, p->d) <= best * (1.0f + 1e-5f);
        if (!ok && bad++ < 5)
            g_string_append_printf(err, "membership[%u]: %d is not a nearest centroid\n", i, m);
        if (ok)
            want_counts[m]++;
    }
    int rc = bad ? -1 : 0;
    if (bad)
        g_string_append_printf(err, "membership: %zu of %u elements differ\n", bad, p->n);
    rc |= wl_check_f32("dist", want_dist, dist, p->n, 0.0f, err);
    rc |= wl_check_i32("counts", want_counts, counts, p->k, err);
    return rc;
}

static int kmeans_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(P));
    const kmeans_params *p = &P[size];
    size_t pbytes = (size_t)p->n * p->d * 4, cbytes = (size_t)p->k * p->d * 4;
    g_autofree float *points = g_new(float, (size_t)p->n * p->d);
    g_autofree float *centroids = g_new(float, (size_t)p->k * p->d);
    g_autofree int *member = g_new(int, p->n);
    g_autofree float *dist = g_new(float, p->n);
    g_autofree int *counts = g_new(int, p->k);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    kmeans_generate(p, &rng, points, centroids);

    uint64_t dpts, dcen, dmem, ddist, dcnt;
    if (wl_upload(dev, points, pbytes, &dpts, err) || wl_upload(dev, centroids, cbytes, &dcen, err) ||
        wl_upload(dev, NULL, (size_t)p->n * 4, &dmem, err) ||
        wl_upload(dev, NULL, (size_t)p->n * 4, &ddist, err) ||
        wl_upload(dev, NULL, (size_t)p->k * 4, &dcnt, err) ||
        WL_LAUNCH(dev, err, "kmeans_assign", wl_div_up(p->n, BLOCK), 1, 1, BLOCK, 1, 1, WL_PTR(dpts),
                  WL_PTR(dcen), WL_PTR(dmem), WL_PTR(ddist), WL_PTR(dcnt), WL_S32(p->n), WL_S32(p->k),
                  WL_S32(p->d)) ||
        wl_download(dev, dmem, member, (size_t)p->n * 4, err) ||
        wl_download(dev, ddist, dist, (size_t)p->n * 4, err) ||
        wl_download(dev, dcnt, counts, (size_t)p->k * 4, err))
        return -1;
    return kmeans_check(p, points, centroids, member, dist, counts, err);
}

const workload wl_kmeans = {
    .name = "kmeans",
    .blurb =
        "k-means assignment: strided point-major loads, a __noinline__ call per centroid, sqrtf, atomicAdd",
    .ptx = "kmeans.ptx",
    .tags = "cache-sensitive,memory-divergent,call,atomics,special-functions,limit-registers",
    .run = kmeans_run,
};
