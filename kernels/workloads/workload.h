/* workload.h — a workload: a CUDA kernel (its PTX committed under kernels/ptx/), a deterministic
 * seeded input generator, a host-side driver that launches the kernel(s) the way the CUDA host code
 * would, and a CPU reference that the results are checked against.
 *
 * A workload knows nothing of how kernels are executed. It talks to a `wl_device` — an interface
 * implemented by the functional runner (kernels/run/frun.c) and by the timing testbenches — much as host
 * code talks to the CUDA runtime: allocate device memory, copy in, launch, copy out. So multi-kernel
 * workloads and host-side loops (bfs iterating until no frontier is left) are written once.
 *
 * No SystemC here: this is part of the kernel toolchain library.
 */
#ifndef GPUSC_KERNELS_WORKLOAD_H
#define GPUSC_KERNELS_WORKLOAD_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum { WL_SIZE_TINY, WL_SIZE_DEFAULT, WL_SIZE_LARGE } wl_size;

/* A kernel argument, in the kernel's parameter order. The device converts it to the parameter's
 * PTX type (a WL_ARG_PTR is a device address as returned by alloc). */
typedef enum {
    WL_ARG_U32,
    WL_ARG_S32,
    WL_ARG_U64,
    WL_ARG_S64,
    WL_ARG_F32,
    WL_ARG_F64,
    WL_ARG_PTR,
    WL_ARG_BYTES /* a by-value struct (.b8 array): bytes/n_bytes */
} wl_arg_kind;

typedef struct {
    wl_arg_kind kind;
    union {
        uint32_t u32;
        int32_t s32;
        uint64_t u64;
        int64_t s64;
        float f32;
        double f64;
        uint64_t ptr;
        struct {
            const void *bytes;
            size_t n_bytes;
        } raw;
    } v;
} wl_arg;

#define WL_U32(x) ((wl_arg){.kind = WL_ARG_U32, .v.u32 = (x)})
#define WL_S32(x) ((wl_arg){.kind = WL_ARG_S32, .v.s32 = (x)})
#define WL_U64(x) ((wl_arg){.kind = WL_ARG_U64, .v.u64 = (x)})
#define WL_F32(x) ((wl_arg){.kind = WL_ARG_F32, .v.f32 = (x)})
#define WL_F64(x) ((wl_arg){.kind = WL_ARG_F64, .v.f64 = (x)})
#define WL_PTR(x) ((wl_arg){.kind = WL_ARG_PTR, .v.ptr = (x)})

typedef struct {
    const char *entry;     /* .entry name in the workload's PTX module */
    unsigned grid[3];      /* blocks per grid, x y z */
    unsigned block[3];     /* threads per block, x y z */
    unsigned shared_bytes; /* dynamic shared memory per block */
    const wl_arg *args;
    unsigned n_args;
} wl_launch;

typedef struct wl_device wl_device;

/* What a runner implements. Every call returns 0 on success; on failure it returns nonzero and
 * puts a message in `err` (the workload then stops and returns the failure). */
typedef struct {
    /* Allocate `bytes` of global memory (256-byte aligned, zero-filled); returns the device address. */
    uint64_t (*alloc)(wl_device *dev, size_t bytes);
    int (*write)(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err);
    int (*read)(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err);
    /* Run one grid to completion. */
    int (*launch)(wl_device *dev, const wl_launch *launch, GString *err);
} wl_device_ops;

struct wl_device {
    const wl_device_ops *ops;
    void *impl;
};

typedef struct {
    const char *name;  /* "vecadd" */
    const char *blurb; /* one line: what it computes, what it stresses */
    const char *ptx;   /* file name under kernels/ptx/, e.g. "vecadd.ptx" */
    const char *tags;  /* comma separated: "shared,barrier,atomics,divergent,cache-sensitive,..." */
    /* Generate inputs for `size` from `seed`, drive the device, read the results back and compare
     * them against the CPU reference. Returns 0 when they match; otherwise nonzero with `err`
     * describing the first differing elements (index, expected, got) or the device failure. */
    int (*run)(wl_size size, uint32_t seed, wl_device *dev, GString *err);
} workload;

/* The registry of built-in workloads (kernels/workloads/registry.c). */
const workload *workload_find(const char *name);
unsigned workload_count(void);
const workload *workload_get(unsigned i);
/* "tiny"/"default"/"large" -> size; returns false if unknown. */
bool workload_size_parse(const char *s, wl_size *out);
const char *workload_size_name(wl_size s);

/* Helpers for workload drivers (kernels/workloads/common.c). */
/* Compare float arrays with a mixed absolute/relative tolerance; report up to 5 mismatches. */
int wl_check_f32(const char *what, const float *want, const float *got, size_t n, float tol, GString *err);
/* The same for doubles (added for scalarprod, which accumulates in double). */
int wl_check_f64(const char *what, const double *want, const double *got, size_t n, double tol, GString *err);
int wl_check_u32(const char *what, const uint32_t *want, const uint32_t *got, size_t n, GString *err);
int wl_check_i32(const char *what, const int32_t *want, const int32_t *got, size_t n, GString *err);

G_END_DECLS

#endif /* GPUSC_KERNELS_WORKLOAD_H */
