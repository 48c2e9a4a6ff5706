/* launch_cli.h — the kernel-launch command line shared by gpusc-run and the timing testbenches
 * (tb-sm, tb-subcore, tb-gpu): --grid/--block dimensions, --arg conversion into wl_args (buffers
 * allocated on any wl_device), writing the output buffers back after the run, and the launch checks
 * every wl_device applies (frun and the testbenches).
 *
 * --arg forms, in parameter order (docs/functional-runner.md, "Running any PTX kernel"):
 *   a scalar literal      converted to the parameter's PTX type (range-checked; negative integers in
 *                         two's complement; floats for .f32/.f64)
 *   in:PATH               a buffer holding the file's bytes
 *   out:PATH:BYTES        a zeroed buffer of BYTES (> 0), written to PATH after the run
 *   inout:PATH:OUTPATH    a buffer holding PATH's bytes, written to OUTPATH after the run
 *   bytes:HEX             the parameter's bytes (any parameter, e.g. a .b8 array)
 * Buffers need a 64-bit integer parameter.
 */
#ifndef GPUSC_KERNELS_LAUNCH_CLI_H
#define GPUSC_KERNELS_LAUNCH_CLI_H

#include <glib.h>
#include <stdbool.h>

#include "kernels/frontend/ir.h"
#include "kernels/run/kload.h"
#include "kernels/workloads/workload.h"

G_BEGIN_DECLS

/* "X[,Y[,Z]]" of positive integers; missing ones are 1. False if malformed. */
bool launch_cli_parse_dims(const char *s, unsigned out[3]);

/* The converted arguments of one launch, and the output buffers to write after it. */
typedef struct launch_cli_args launch_cli_args;
launch_cli_args *launch_cli_args_new(void);
void launch_cli_args_free(launch_cli_args *a);
/* Convert `strs` (n of them, n == f's parameter count) for entry f, allocating buffers on dev.
 * Returns 0, or 1 with "--arg N: ..." appended to err. */
int launch_cli_convert(launch_cli_args *a, const ir_func *f, char *const *strs, wl_device *dev, GString *err);
/* The wl_args converted so far (for wl_launch.args). */
wl_arg *launch_cli_values(launch_cli_args *a);
/* Read every out:/inout: buffer from dev and write its file. Returns 0, or 1 with the message in err. */
int launch_cli_write_outputs(launch_cli_args *a, wl_device *dev, GString *err);

/* Resource bounds every device applies before it allocates anything for a launch:
 *   local memory per thread: CUDA's limit (512 KiB). Checked on the module's whole local segment
 *     (every function's .local frames laid out side by side, kload.h), which is what the runners
 *     give each thread.
 *   shared memory per CTA (static + dynamic): the size of the shared window of the address map
 *     (4 GiB, kload.h), the most a shared address can reach. The devices apply their own, smaller
 *     limit after this one: the functional runner a configurable per-CTA limit (frun.h), the timing
 *     model the SM's scratchpad size. */
#define LAUNCH_MAX_LOCAL_PER_THREAD (512u * 1024u)
#define LAUNCH_MAX_SHARED_PER_CTA   KLOAD_WINDOW_SIZE

/* The shared memory a CTA of `entry` needs for a launch with `dyn_bytes` of dynamic shared memory:
 * the static part (module and kernel .shared variables, those of the functions it calls), and the
 * dynamic part after it (at the kernel's dyn_shared_offset) when there is one. */
uint64_t launch_cli_shared_bytes(const kload_module *k, uint32_t entry, uint64_t dyn_bytes);

/* Where a workload's PTX file `name` is: in ptx_dir when one is given (--ptx-dir: the file must be
 * there), else in $GPUSC_PTX_DIR when it is set (it must be a directory), else in the first of the
 * n default directories that has it. NULL, with the reason in err, when it is not found. */
char *launch_cli_find_ptx(const char *ptx_dir, const char *name, const char *const *defaults, unsigned n,
                          GString *err);

/* The checks before a launch runs: the entry exists (its index in *entry), dimensions are positive,
 * at most 1024 threads per block, no recursion, the resource bounds above. Returns 0, or 1 with the
 * message in err (naming the PTX file and the kernel for the resource bounds). */
int launch_cli_check(const kload_module *k, const ir_module *mod, const wl_launch *l, uint32_t *entry,
                     GString *err);

G_END_DECLS

#endif
