/* occupancy.h — how many thread blocks (CTAs) of a kernel fit on one SM, and what limits them.
 *
 * Implements resource-sharing/GREENER spec §2.1 (TB_base = min over registers, scratchpad, threads
 * and CTA slots) with GPGPU-Sim's conventions where the spec defers to them:
 *  - threads per CTA are padded up to whole warps before every per-thread limit;
 *  - registers per thread are rounded up to a multiple of `reg_unit` (GPGPU-Sim: `(regs + 3) & ~3`,
 *    so the default is 4), and a CTA needs padded_threads × rounded_regs registers;
 *  - an optional per-warp allocation granularity (`reg_warp_granularity`, registers per warp rounded
 *    up to a multiple; CUDA hardware uses 256; default 1 = none, as GPGPU-Sim);
 *  - shared memory per CTA (static + dynamic) rounded up to `smem_unit` bytes (default 1 = none, as
 *    GPGPU-Sim; CUDA hardware uses 128 or 256);
 *  - a kernel that uses no registers or no shared memory is not limited by that resource.
 * Pure C, no SystemC: the cta_dispatch block and the sharing computation (§2.2) build on it.
 */
#ifndef GPUSC_MODELS_LIB_OCCUPANCY_H
#define GPUSC_MODELS_LIB_OCCUPANCY_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

/* The resources that can limit CTAs per SM. When several give the same minimum, the first in this
 * order is reported (registers and scratchpad first: they are what the sharing mechanisms act on). */
typedef enum {
    OCCUPANCY_LIMIT_REGS,
    OCCUPANCY_LIMIT_SMEM,
    OCCUPANCY_LIMIT_THREADS,
    OCCUPANCY_LIMIT_WARPS,
    OCCUPANCY_LIMIT_CTAS,
    OCCUPANCY_LIMIT_COUNT
} occupancy_limit;

typedef struct {
    unsigned warp_size;            /* threads per warp (32) */
    unsigned regs_per_sm;          /* 32-bit registers per SM */
    unsigned reg_unit;             /* registers per thread rounded up to a multiple of this (>= 1) */
    unsigned reg_warp_granularity; /* registers per warp rounded up to a multiple of this (>= 1) */
    unsigned smem_per_sm;          /* scratchpad bytes per SM */
    unsigned smem_unit;            /* scratchpad bytes per CTA rounded up to a multiple of this (>= 1) */
    unsigned max_threads;          /* resident threads per SM */
    unsigned max_warps;            /* resident warps per SM; 0 = max_threads / warp_size */
    unsigned max_ctas;             /* resident CTAs per SM */
    unsigned max_regs_per_thread;  /* registers a thread may have (0: no limit) */
} occupancy_sm;

typedef struct {
    unsigned regs_per_thread; /* as ptxas -v reports */
    unsigned smem_static;     /* bytes of .shared declared in the kernel */
    unsigned smem_dynamic;    /* bytes given at launch */
    unsigned threads_per_cta; /* blockDim.x * y * z */
} occupancy_kernel;

typedef struct {
    unsigned ctas;                               /* CTAs per SM (>= 1 on success) */
    occupancy_limit limiter;                     /* the resource that gives `ctas` */
    unsigned by_resource[OCCUPANCY_LIMIT_COUNT]; /* CTAs each resource alone allows (UINT_MAX: unlimited) */
    unsigned warps_per_cta;                      /* ceil(threads / warp_size) */
    unsigned padded_threads;                     /* warps_per_cta * warp_size */
    uint64_t regs_per_cta;                       /* after rounding */
    uint64_t smem_per_cta;                       /* after rounding (static + dynamic) */
    uint64_t regs_unused;                        /* regs_per_sm - ctas * regs_per_cta */
    uint64_t smem_unused;                        /* smem_per_sm - ctas * smem_per_cta */
} occupancy_result;

/* The GTX480 (Fermi) limits of GPGPU-Sim's configs/GTX480/gpgpusim.config: 32768 registers,
 * 48 KiB shared memory, 1536 threads (48 warps), 8 CTAs, register unit 4, 63 registers per thread. */
void occupancy_sm_init_gtx480(occupancy_sm *sm);

/* Computes CTAs per SM. Returns false with `err` set (domain OCCUPANCY_ERROR) when the limits are
 * malformed or when not even one CTA fits; the message names the resource and both numbers
 * ("a CTA needs 9216 registers (...) but the SM has 8192"). */
bool occupancy_compute(const occupancy_sm *sm, const occupancy_kernel *k, occupancy_result *out,
                       GError **err);

/* "registers", "shared memory", "threads", "warps", "CTA slots". */
const char *occupancy_limit_name(occupancy_limit l);
/* One word for machine-read output: "registers", "scratchpad", "threads", "warps", "ctas". */
const char *occupancy_limit_key(occupancy_limit l);

#define OCCUPANCY_ERROR (occupancy_error_quark())
GQuark occupancy_error_quark(void);
/* The most warps of one CTA (the barrier unit's per-CTA warp masks): 2048 threads of 32-thread
 * warps, 256 threads of 4-thread warps. */
#define OCCUPANCY_MAX_CTA_WARPS 64u

typedef enum { OCCUPANCY_ERROR_INVALID, OCCUPANCY_ERROR_DOES_NOT_FIT } occupancy_error_code;

G_END_DECLS

#endif
