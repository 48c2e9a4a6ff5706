/* common.c — the helpers declared in workload.h (result checks) and wl-common.h (PRNG, device
 * wrappers). */
#include "kernels/workloads/wl-common.h"

#include <math.h>

#define MAX_REPORTED 5

void wl_rng_seed(wl_rng *rng, uint32_t seed, uint32_t stream)
{
    rng->state = ((uint64_t)seed << 32) ^ ((uint64_t)stream * 0xd1342543de82ef95ull) ^ 0x5851f42d4c957f2dull;
}

static uint64_t rng_next64(wl_rng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t wl_rng_u32(wl_rng *rng)
{
    return (uint32_t)(rng_next64(rng) >> 32);
}

uint32_t wl_rng_below(wl_rng *rng, uint32_t n)
{
    g_assert(n > 0);
    /* The multiply-shift mapping; its bias (< n / 2^32) does not matter for test data. */
    return (uint32_t)(((uint64_t)wl_rng_u32(rng) * n) >> 32);
}

float wl_rng_float(wl_rng *rng, float lo, float hi)
{
    float u = (float)(wl_rng_u32(rng) >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

void wl_rng_fill_f32(wl_rng *rng, float *dst, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = wl_rng_float(rng, lo, hi);
}

int wl_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err)
{
    if (dev->ops->write(dev, addr, src, bytes, err) != 0) {
        g_string_prepend(err, "device write failed: ");
        return -1;
    }
    return 0;
}

int wl_upload(wl_device *dev, const void *src, size_t bytes, uint64_t *addr, GString *err)
{
    *addr = dev->ops->alloc(dev, bytes);
    if (*addr == 0) {
        g_string_append_printf(err, "cannot allocate %zu bytes of device memory", bytes);
        return 1;
    }
    if (src == NULL)
        return 0; /* alloc zero-fills */
    return wl_write(dev, *addr, src, bytes, err);
}

int wl_download(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err)
{
    if (dev->ops->read(dev, addr, dst, bytes, err) != 0) {
        g_string_prepend(err, "device read failed: ");
        return -1;
    }
    return 0;
}

int wl_launch_kernel(wl_device *dev, const char *entry, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                     unsigned by, unsigned bz, unsigned shared_bytes, const wl_arg *args, unsigned n_args,
                     GString *err)
{
    wl_launch l = {
        .entry = entry,
        .grid = {gx, gy, gz},
        .block = {bx, by, bz},
        .shared_bytes = shared_bytes,
        .args = args,
        .n_args = n_args,
    };
    if (dev->ops->launch(dev, &l, err) != 0) {
        char *what = g_strdup_printf("launch of %s (grid %ux%ux%u, block %ux%ux%u) failed: ", entry, gx, gy,
                                     gz, bx, by, bz);
        g_string_prepend(err, what);
        g_free(what);
        return -1;
    }
    return 0;
}

/* Report the tally once all elements were compared. */
static int check_finish(const char *what, size_t bad, size_t n, GString *err)
{
    if (bad == 0)
        return 0;
    g_string_append_printf(err, "%s: %zu of %zu elements differ\n", what, bad, n);
    return -1;
}

int wl_check_f32(const char *what, const float *want, const float *got, size_t n, float tol, GString *err)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float w = want[i], g = got[i];
        /* Relative to the magnitude for large values, absolute for values below 1; NaN never matches. */
        float lim = tol * fmaxf(1.0f, fabsf(w));
        bool ok = (isnan(w) && isnan(g)) || fabsf(g - w) <= lim;
        if (ok)
            continue;
        if (bad++ < MAX_REPORTED)
            g_string_append_printf(err, "%s[%zu]: expected %.9g, got %.9g (tolerance %g)\n", what, i,
                                   (double)w, (double)g, (double)lim);
    }
    return check_finish(what, bad, n, err);
}

int wl_check_f64(const char *what, const double *want, const double *got, size_t n, double tol, GString *err)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double w = want[i], g = got[i];
        double lim = tol * fmax(1.0, fabs(w));
        bool ok = (isnan(w) && isnan(g)) || fabs(g - w) <= lim;
        if (ok)
            continue;
        if (bad++ < MAX_REPORTED)
            g_string_append_printf(err, "%s[%zu]: expected %.17g, got %.17g (tolerance %g)\n", what, i, w, g,
                                   lim);
    }
    return check_finish(what, bad, n, err);
}

int wl_check_u32(const char *what, const uint32_t *want, const uint32_t *got, size_t n, GString *err)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (want[i] == got[i])
            continue;
        if (bad++ < MAX_REPORTED)
            g_string_append_printf(err, "%s[%zu]: expected %u, got %u\n", what, i, want[i], got[i]);
    }
    return check_finish(what, bad, n, err);
}

int wl_check_i32(const char *what, const int32_t *want, const int32_t *got, size_t n, GString *err)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (want[i] == got[i])
            continue;
        if (bad++ < MAX_REPORTED)
            g_string_append_printf(err, "%s[%zu]: expected %d, got %d\n", what, i, want[i], got[i]);
    }
    return check_finish(what, bad, n, err);
}
