/* frun.h — the functional-only runner: executes a whole grid with no timing.
 *
 * The correctness oracle and the speed floor of the timing model. CTAs run one after another; within
 * a CTA, warps run round-robin, each for a quantum of instructions or until it blocks on a barrier or
 * finishes. A warp executes in lockstep under its SIMT stack (simt.h, reconvergence at immediate
 * post-dominators computed by cfg.h); ALU-class instructions go through ir_exec (ir_exec.h), memory,
 * control, barrier and call instructions are executed here on the memory image (fmem.h) laid out by
 * the loader (kload.h, which documents the address map).
 *
 * Barriers: a warp that reaches bar.sync/barrier.sync blocks (the whole warp, as on pre-Volta parts);
 * barrier `a` releases when every warp of the CTA that has not finished has arrived at it (or, with a
 * thread count b, when b threads have arrived, counting whole warps). bar.red.{popc,and,or} reduce the
 * predicate over the arriving threads and give every one the result. When every remaining warp is
 * blocked and no barrier can release, the launch fails with a state dump (a deadlock, not a hang).
 *
 * Errors (an out-of-range or unmapped access, a misaligned access, a store to .const, trap, the
 * instruction limit, an unsupported instruction) end the launch with a message naming the kernel, the
 * PC and source line, the instruction, the CTA and thread, and the address.
 */
#ifndef GPUSC_KERNELS_FRUN_H
#define GPUSC_KERNELS_FRUN_H

#include "kernels/run/fmem.h"
#include "kernels/frontend/ir.h"
#include "kernels/run/kload.h"
#include "kernels/workloads/workload.h"

#include <stdio.h>

G_BEGIN_DECLS

#define FRUN_DEFAULT_MAX_INSTRUCTIONS 10000000000ull /* warp instructions per launch */
#define FRUN_QUANTUM                  4096u          /* warp instructions per turn */
#define FRUN_DEFAULT_MAX_SHARED       49152u         /* shared bytes per CTA: CUDA's default (48 KiB) */
#define FRUN_DEFAULT_NWARPID          48u            /* %nwarpid: warp ids per SM (1536 threads, GTX480) */

typedef struct {
    uint64_t warp_instrs;              /* warp instructions issued (guarded-off ones included) */
    uint64_t thread_instrs;            /* lanes that executed them (active and guard true) */
    uint64_t by_class[IR_CLASS_COUNT]; /* warp instructions by ir_class */
    uint64_t ctas, launches;
    uint64_t divergent_branches;
    double seconds;     /* wall time spent in launches */
    double cpu_seconds; /* CPU time of the running thread spent in launches (a
                           steadier speed measure on a loaded machine) */
} frun_stats;

/* What the special registers read for the threads of one warp: shared with the timing model so that
 * both give the same values. %clock/%clock64/%globaltimer read `clock` (the functional runner: the
 * launch's warp instruction count, deterministic). %warpid is `warp`; %nwarpid is `nwarpid`, the most
 * warp ids an SM has, as the PTX ISA defines it (a constant of the machine, not the warps of the CTA;
 * 0 reads FRUN_DEFAULT_NWARPID). */
typedef struct {
    unsigned block[3], grid[3], ctaid[3];
    uint32_t warp, nwarps; /* the warp's index in its CTA, warps per CTA (%nwarpid does not read it) */
    uint32_t warp_size;    /* threads per warp (%tid = warp x warp_size + lane); 0 = IR_WARP_SIZE */
    uint32_t nwarpid;      /* %nwarpid; 0 = FRUN_DEFAULT_NWARPID */
    uint32_t smid, nsmid, gridid;
    uint64_t clock;
    uint32_t dyn_smem, total_smem;
    const uint32_t *spu; /* the SPU registers %regpassx.. %reglast (spu_isa.h) in order; NULL: none */
} frun_sreg_ctx;

/* The value of special register `sreg` (component `comp` for %tid/%ntid/%ctaid/%nctaid) for lane
 * `lane` of the warp. */
uint64_t frun_sreg_value(const frun_sreg_ctx *c, ir_sreg sreg, unsigned comp, uint32_t lane);

/* A device over `m` (not owned; it must outlive the device): a fresh memory image with the module's
 * data loaded. NULL with a message in err on a load error. */
wl_device *frun_device_new(ir_module *m, GString *err);
void frun_device_free(wl_device *dev);

/* The launch watchdog: a launch that executes more warp instructions fails (0 = the default). */
void frun_device_set_max_instructions(wl_device *dev, uint64_t max);
/* The schedule: warps run for `quantum` warp instructions per turn (0 = FRUN_QUANTUM). With a
 * nonzero `seed`, CTAs run in a random order and every pass visits the warps in a random order for
 * a random turn of 1..quantum instructions, reproducibly for a seed: a kernel whose result depends
 * on the order (a missing barrier, warp-synchronous code without __syncwarp, inter-CTA assumptions)
 * shows it. */
void frun_device_set_schedule(wl_device *dev, unsigned quantum, uint32_t seed);
/* The most shared memory (static + dynamic) a CTA may use; a launch asking for more fails before it
 * allocates anything, naming the file, the kernel and the sizes (0 = FRUN_DEFAULT_MAX_SHARED, 48 KiB:
 * what CUDA gives a block without opting in; set it to what the machine allows with the opt-in, e.g.
 * 65536 on sm_75, 101376 on sm_86, 232448 on sm_90; at most LAUNCH_MAX_SHARED_PER_CTA). Local memory
 * is bounded by launch_cli_check (512 KiB per thread). */
void frun_device_set_max_shared(wl_device *dev, uint64_t bytes);
/* What %nwarpid reads: the most warp ids an SM has (PTX ISA: %warpid is below it). 0 =
 * FRUN_DEFAULT_NWARPID (48: the default GTX480-like SM's 1536 threads); at least 32, a smaller value
 * is raised to it (a CTA of 1024 threads has 32 warps, and %warpid is the warp's index in its CTA
 * here); e.g. 64 for sm_70, sm_80 and sm_90, 32 for sm_75, 48 for sm_86. */
void frun_device_set_nwarpid(wl_device *dev, uint32_t n);
/* The shared-memory race check (off by default; costs time and 16 bytes per shared word): two
 * warps of a CTA touching one 4-byte word of shared memory between two barriers, at least one of
 * them storing, ends the launch with an error naming both (atomics are exempt; the lanes of one
 * warp are ordered). Any barrier release starts a new interval. */
void frun_device_set_race_check(wl_device *dev, bool on);
/* Write one line per executed warp instruction to `out` (NULL: off): the launch's instruction count,
 * block, warp, function, pc, SIMT mask, active lanes (guard applied) and the instruction. For
 * comparing a run with the timing model's, or finding where a kernel goes wrong. */
void frun_device_set_trace(wl_device *dev, FILE *out);
const frun_stats *frun_device_stats(const wl_device *dev);
fmem *frun_device_mem(wl_device *dev);
const kload_module *frun_device_module(const wl_device *dev);

/* Run one grid to completion (also reachable as dev->ops->launch). 0, or nonzero with a message. */
int frun_launch(wl_device *dev, const wl_launch *launch, GString *err);

G_END_DECLS

#endif /* GPUSC_KERNELS_FRUN_H */
