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

#include "kernels/ir.h"
#include "kernels/kload.h"
#include "kernels/workload.h"

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

/* The checks before a launch runs: the entry exists (its index in *entry), dimensions are positive,
 * at most 1024 threads per block, no recursion. Returns 0, or 1 with the message in err. */
int launch_cli_check(const kload_module *k, const ir_module *mod, const wl_launch *l, uint32_t *entry,
                     GString *err);

G_END_DECLS

#endif
