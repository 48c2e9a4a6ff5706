/* nbody.c — one softened all-pairs gravity step. The kernel uses rsqrtf (rsqrt.approx.f32, about
 * 2^-23 relative error) where the reference uses 1 / sqrtf, and nvcc may contract differently, so
 * the accelerations differ in the last few bits; they enter the velocities and positions scaled by
 * dt = 0.01: tolerance 1e-5. All-pairs work grows as n^2 and a block stages blockDim.x bodies per
 * tile, so the block size is chosen per size: tiny 2 one-warp blocks of 32 (two tiles each, ~70 K
 * thread instructions), default 20 blocks of 64 (enough to give all 15 SMs of the GPU a block),
 * large 16 blocks of 256 (multi-warp barriers on the big tile). */
#include "kernels/workloads/wl-common.h"

#include <math.h>

static const unsigned BODIES[] = {64, 1280, 4096};
static const unsigned BLOCK[] = {32, 64, 256}; /* a multiple of 8, at most 256, dividing BODIES */
static const float DT = 0.01f, EPS2 = 0.01f;

static void nbody_reference(const float *pos, float *vel, float *pos_out, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const float *p = pos + 4 * (size_t)i;
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (unsigned j = 0; j < n; j++) {
            const float *q = pos + 4 * (size_t)j;
            float rx = q[0] - p[0], ry = q[1] - p[1], rz = q[2] - p[2];
            float d2 = rx * rx + ry * ry + rz * rz + EPS2;
            float inv = 1.0f / sqrtf(d2);
            float s = q[3] * (inv * inv * inv);
            ax += rx * s;
            ay += ry * s;
            az += rz * s;
        }
        float *v = vel + 4 * (size_t)i, *o = pos_out + 4 * (size_t)i;
        v[0] += ax * DT;
        v[1] += ay * DT;
        v[2] += az * DT;
        o[0] = p[0] + v[0] * DT;
        o[1] = p[1] + v[1] * DT;
        o[2] = p[2] + v[2] * DT;
        o[3] = p[3];
    }
}

static int nbody_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(BODIES));
    unsigned n = BODIES[size];
    size_t bytes = (size_t)n * 16;
    g_autofree float *pos = g_new(float, 4 * (size_t)n);
    g_autofree float *vel = g_new(float, 4 * (size_t)n);
    g_autofree float *out = g_new(float, 4 * (size_t)n);
    g_autofree float *got_vel = g_new(float, 4 * (size_t)n);
    g_autofree float *got_pos = g_new(float, 4 * (size_t)n);
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    for (unsigned i = 0; i < n; i++) {
        for (unsigned c = 0; c < 3; c++) {
            pos[4 * i + c] = wl_rng_float(&rng, -1.0f, 1.0f);
            vel[4 * i + c] = wl_rng_float(&rng, -0.1f, 0.1f);
        }
        pos[4 * i + 3] = wl_rng_float(&rng, 0.5f, 1.5f) / (float)n; /* mass */
        vel[4 * i + 3] = 0.0f;
    }

    uint64_t dpos, dvel, dout;
    if (wl_upload(dev, pos, bytes, &dpos, err) || wl_upload(dev, vel, bytes, &dvel, err) ||
        wl_upload(dev, NULL, bytes, &dout, err) ||
        WL_LAUNCH(dev, err, "nbody_step", n / BLOCK[size], 1, 1, BLOCK[size], 1, 1, WL_PTR(dpos), WL_PTR(dvel),
                  WL_PTR(dout), WL_S32(n), WL_F32(DT), WL_F32(EPS2)) ||
        wl_download(dev, dvel, got_vel, bytes, err) || wl_download(dev, dout, got_pos, bytes, err))
        return -1;

    nbody_reference(pos, vel, out, n);
    int rc = wl_check_f32("vel", vel, got_vel, 4 * (size_t)n, 1e-5f, err);
    rc |= wl_check_f32("pos", out, got_pos, 4 * (size_t)n, 1e-5f, err);
    return rc;
}

const workload wl_nbody = {
    .name = "nbody",
    .blurb = "all-pairs gravity step: shared-memory body tiles, rsqrtf, unrolled register-heavy inner loop",
    .ptx = "nbody.ptx",
    .tags = "shared,barrier,compute,special-functions,vector-access,convergent,limit-registers",
    .run = nbody_run,
};
