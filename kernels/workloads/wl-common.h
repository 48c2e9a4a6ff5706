/* wl-common.h — helpers shared by the workload drivers (kernels/workloads/NAME.c): a small seeded PRNG
 * that gives the same numbers on every machine, and thin wrappers over wl_device that keep the
 * drivers short. Internal to the workloads; the public interface is kernels/workloads/workload.h. */
#ifndef GPUSC_KERNELS_WORKLOADS_WL_COMMON_H
#define GPUSC_KERNELS_WORKLOADS_WL_COMMON_H

#include "kernels/workloads/workload.h"

/* splitmix64: tiny, fast, statistically good enough for test inputs, and fully specified, so a seed
 * means the same data everywhere (unlike rand()). `stream` separates the inputs of one workload. */
typedef struct {
    uint64_t state;
} wl_rng;

void wl_rng_seed(wl_rng *rng, uint32_t seed, uint32_t stream);
uint32_t wl_rng_u32(wl_rng *rng);
/* Uniform in [0, n), n > 0. */
uint32_t wl_rng_below(wl_rng *rng, uint32_t n);
/* Uniform in [lo, hi), 24 random bits. */
float wl_rng_float(wl_rng *rng, float lo, float hi);
void wl_rng_fill_f32(wl_rng *rng, float *dst, size_t n, float lo, float hi);

/* Allocate device memory and copy `bytes` from src into it (src may be NULL: zero-filled). */
int wl_upload(wl_device *dev, const void *src, size_t bytes, uint64_t *addr, GString *err);
int wl_download(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err);
int wl_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err);
/* Launch `entry` on a grid x block with `shared_bytes` of dynamic shared memory per block; on failure
 * the message names the entry and the geometry. */
int wl_launch_kernel(wl_device *dev, const char *entry, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                     unsigned by, unsigned bz, unsigned shared_bytes, const wl_arg *args, unsigned n_args,
                     GString *err);

#define WL_ARGS(...)                                                                                         \
    (const wl_arg[]){__VA_ARGS__}, (unsigned)(sizeof((const wl_arg[]){__VA_ARGS__}) / sizeof(wl_arg))
/* The usual launch (no dynamic shared memory), arguments listed inline. */
#define WL_LAUNCH(dev, err, entry, gx, gy, gz, bx, by, bz, ...)                                              \
    wl_launch_kernel((dev), (entry), (gx), (gy), (gz), (bx), (by), (bz), 0, WL_ARGS(__VA_ARGS__), (err))
/* The same with `shared` bytes of dynamic shared memory per block (extern __shared__). */
#define WL_LAUNCH_DYN(dev, err, entry, gx, gy, gz, bx, by, bz, shared, ...)                                  \
    wl_launch_kernel((dev), (entry), (gx), (gy), (gz), (bx), (by), (bz), (shared), WL_ARGS(__VA_ARGS__),     \
                     (err))

/* Integer ceiling division. */
static inline unsigned wl_div_up(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

/* The built-in workloads (one file each). */
extern const workload wl_vecadd;
extern const workload wl_sgemm;
extern const workload wl_reduction;
extern const workload wl_histogram;
extern const workload wl_hotspot;
extern const workload wl_stencil3d;
extern const workload wl_bfs;
extern const workload wl_spmv;
extern const workload wl_kmeans;
extern const workload wl_backprop;
extern const workload wl_srad;
extern const workload wl_nw;
extern const workload wl_scalarprod;
extern const workload wl_convolution;
extern const workload wl_nbody;
extern const workload wl_pathfinder;
extern const workload wl_transpose;

#endif /* GPUSC_KERNELS_WORKLOADS_WL_COMMON_H */
