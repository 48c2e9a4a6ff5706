/* tb_common.h — what the testbenches share: the workload / PTX command-line options, the loaded
 * kernel module, a wl_device whose launch runs a grid on the timing model (cta_dispatch + the SMs
 * behind it), the watchdog, the derived statistics (IPC, stall breakdown, hit rates), and tb_main,
 * the whole program of a testbench of one machine (models/machines/machine.h):
 *
 *     int main(int argc, char **argv) { return tb_main(MACHINE_SM, argc, argv); }
 *
 * A program that builds something else (a test's machine) uses the pieces:
 *     machine_register(MACHINE_SM);                       // or sm_topo_register() and its own presets
 *     cli_run *run = cli_new("tb-x", ..., &desc, "tb", "gtx480");
 *     tb_opts o; tb_opts_add(run, &o);
 *     cli_parse(run, &argc, &argv);
 *     tb_kernel *k = tb_kernel_load(&o, "vecadd", "tb.sm0", false); // exits 2 on bad input
 *     sm_env *env = tb_kernel_env(k, n_sms);
 *     ... build cta_dispatch, SMs, memory side under run->top->mod ...
 *     tb_machine *m = tb_machine_new(run, env, dispatch, sms, n_sms);
 *     cli_elaborate(run);
 *     int rc = tb_machine_run(m, k, &o);                 // the workload (checked) or the PTX kernel
 *     cli_finish(run, gsc_cycle());
 *     tb_machine_summary(m, stdout);
 */
#ifndef GPUSC_TESTBENCH_TB_COMMON_H
#define GPUSC_TESTBENCH_TB_COMMON_H

#include <glib.h>

#include "kernels/workloads/workload.h"
#include "models/core/cli.h"
#include "models/machines/machine.h"
#include "models/sm/cta_dispatch.h"
#include "models/topo/sm.h"

G_BEGIN_DECLS

enum { TB_EXIT_OK = 0, TB_EXIT_RUN = 1, TB_EXIT_USAGE = 2 };

typedef struct {
    char *workload, *size, *ptx, *entry, *grid, *block, *ptx_dir, *memcheck;
    gint64 shared, watchdog, spin_limit;
    gint64 regs_per_thread, smem_per_cta; /* declared resource use for occupancy (0: the kernel's) */
    char **args;
    gboolean list_workloads;
    gboolean progress, no_progress; /* neither: a progress line when stdout is a terminal */
    gint64 sample_every;            /* cycles per time-series sample (0: none) */
    char *samples, *sample_stats;   /* the CSV path; more columns: counters by glob */
    cli_run *run;                   /* the command line's --seed is the workload's input seed */
} tb_opts;

/* Adds the testbench options (--workload/--size, --ptx/--entry/--grid/--block/--shared/--arg,
 * --ptx-dir, --memcheck, --watchdog, --progress/--no-progress, --sample-every/--samples/--sample-stats) to
 * the program's command line. */
void tb_opts_add(cli_run *run, tb_opts *o);

typedef struct tb_kernel tb_kernel;
/* Parse the workload's PTX (or --ptx), allocate its registers for the SM the configuration describes
 * at `sm_path` (of type subcore_sm if `subcore`, else sm: its max_regs_per_thread), make the memory
 * image and lay the module out. On bad input prints "gpusc: ..." and exits 2. Default workload: `def`. */
tb_kernel *tb_kernel_load(const tb_opts *o, const char *def, const char *sm_path, bool subcore);
/* A compiler pass tb_kernel_load runs on the parsed module before register allocation (NULL: none;
 * tb-sharing's --regorder). */
extern void (*tb_kernel_pass)(ir_module *m);
/* Optional: a PTX file whose functions tb_kernel_load adds to the kernel's module (its text after the
 * kernel's, without its .version/.target/.address_size lines), so that the SMs can run them too (the
 * SPU's SMs standing in as interface units). NULL: the kernel alone. */
extern const char *tb_kernel_extra_ptx;
/* Optional, with tb_kernel_pass: whether the pass applies, asked by tb_kernel_load with the module
 * as parsed and register-allocated (tb_kernel_module), the SM's occupancy parameters and the
 * machine's SMs. The module is parsed again either way, and the pass runs on it only on a yes
 * (tb-sharing: relssp and the scratchpad layout only in kernels that run with sharing active). */
extern bool (*tb_kernel_pass_gate)(tb_kernel *k, const tb_opts *o, const occupancy_sm *sm, unsigned n_sms);
ir_module *tb_kernel_module(tb_kernel *k);
/* A launch of the kernel's run: the entry (its function index), the grid, the block, the dynamic
 * scratchpad bytes and the static ones (where a dynamic array starts, as cta_dispatch counts it). */
typedef struct {
    uint32_t entry;
    unsigned grid[3], block[3];
    unsigned shared_dyn;
    uint64_t smem_static;
} tb_launch_rec;
/* The launches the run makes, appended to `out` (of tb_launch_rec) in order: a workload run on the
 * functional runner over the module as it is now (its launches depend on its results: bfs); a --ptx
 * kernel's one launch from --entry, --grid, --block and --shared (not run). 0, or nonzero with a
 * message. */
int tb_kernel_launches(tb_kernel *k, const tb_opts *o, GArray *out, GString *err);
sm_env *tb_kernel_env(tb_kernel *k, unsigned n_sms);
const char *tb_kernel_name(const tb_kernel *k);

/* Run the workload on the functional runner over the kernel's (register-allocated) module, with its
 * instruction trace to `trace` (frun_device_set_trace): a pre-pass, e.g. a profile. 0 or nonzero with
 * a message. */
int tb_kernel_run_functional(tb_kernel *k, FILE *trace, GString *err);
sm_env *tb_kernel_env_of(tb_kernel *k);
/* A module that uses the SPU's instructions or registers needs tb-spu: on any other testbench this
 * prints "gpusc: FILE:LINE: WHAT needs the SPU machine (tb-spu): PROGRAM has no SPU" and returns
 * true (the caller exits with TB_EXIT_USAGE). tb_main_ext asks it; a testbench with its own main
 * must too. */
/* True, after "gpusc: FILE:LINE: ..." on stderr, when the machine's warps are narrower than 32
 * threads and the kernel has an instruction that assumes 32 (shfl, vote, activemask, bar.warp.sync). */
bool tb_kernel_refuse_narrow(const tb_kernel *k, unsigned warp_size, const char *program);
bool tb_kernel_refuse_spu(const tb_kernel *k, const char *program);

typedef struct tb_machine tb_machine;
tb_machine *tb_machine_new(cli_run *run, sm_env *env, cta_dispatch *d, sm_topo **sms, unsigned n_sms);
/* Run the workload (its output checked against its CPU reference) or the PTX kernel. Returns a
 * TB_EXIT_* code; messages are printed. */
int tb_machine_run(tb_machine *m, tb_kernel *k, const tb_opts *o);
/* With a progress line or time series asked for, a launch runs in slices of cycles: between two, the
 * line is redrawn and the samples are written; without, one gsc_run as always. Statistics are the same
 * either way (tests/sm/test_tb_progress.sh). */
/* The watchdog process (call before cli_elaborate): every `cycles` cycles, a running grid must have
 * issued an instruction, else the run ends with a dump of every warp (0: no watchdog). */
void tb_machine_watchdog(tb_machine *m, gsc_module *mod, uint64_t cycles);
/* More state for the watchdog's dump, appended after the warps (tb-gpu: the memory side). */
typedef void (*tb_dump_fn)(void *ctx, GString *out);
void tb_machine_set_dump(tb_machine *m, tb_dump_fn fn, void *ctx);
/* The exit status of a testbench whose run gave rc: 128 + the signal when a SIGINT, SIGTERM or
 * SIGHUP stopped it (130, 143, 129; the statistics are marked partial, the waveform and its view
 * are written up to the cycle it stopped at), else rc. */
int tb_exit_status(int rc);
/* A mechanism testbench's focused view beside the run's VCD (after cli_finish): the traced signals
 * keep(name, ctx) accepts, with the full view's filters and idle groups (gtkw_write_traced_some),
 * written as <the VCD's directory>/<file>, or <the VCD minus .vcd><file> when after_vcd. Nothing
 * without a VCD (--no-trace, an FST, a trace window never reached). */
void tb_write_view(cli_run *run, const char *file, bool after_vcd, bool (*keep)(const char *name, void *ctx),
                   void *ctx);
/* Print the summary (cycles, warp instructions, IPC, stall breakdown, hit rates, bank conflicts,
 * resident CTAs) after cli_finish. */
void tb_machine_summary(tb_machine *m, FILE *out);
/* The machine as a workload's device (alloc, write, read, launch): for a testbench with its own host
 * driver (tb-spu). */
wl_device *tb_machine_device(tb_machine *m);

/* The testbench of machine `kind`: its command line (refusing the presets of other machines), the
 * kernel, the machine built and run under the watchdog, the statistics and the summaries, and
 * "<program>: <kernel>: PASS|FAIL". Returns the exit status (TB_EXIT_*). */
int tb_main(machine_kind kind, int argc, char **argv);
/* tb_main with a testbench's own additions (tb-rfcache, tb-greener, tb-ccws): its name, summary and default preset (NULL:
 * the machine's), and calls: options (add option groups, before parsing), parsed (after parsing:
 * e.g. turn options into configuration settings), built (the machine and the kernel exist, before
 * elaboration), finished (after the summary; rc: the run's TB_EXIT_*); check (optional, after the kernel
 * is loaded and before the machine is built: a nonzero return is the exit status of a refusal whose
 * message it printed, e.g. an option the testbench found wrong in `parsed`). */
typedef struct {
    const char *program, *summary, *default_preset;
    void (*options)(cli_run *run, void *ctx);
    void (*parsed)(cli_run *run, void *ctx);
    void (*built)(machine *mach, tb_kernel *k, void *ctx);
    void (*finished)(machine *mach, int rc, void *ctx);
    void *ctx;
    int (*check)(machine *mach, tb_kernel *k, void *ctx);
} tb_ext;
int tb_main_ext(machine_kind kind, int argc, char **argv, const tb_ext *ext);

/* The main functions of the mechanism testbenches built into tb-sm's program (testbench/local.mk): tb-sm
 * runs one when it is called by that testbench's name, so that the mechanism switched off runs
 * tb-sm's own machine code (tests/sm/test_tb_offmode.sh compares their instruction counts). */
int tb_renaming_main(int argc, char **argv);
int tb_greener_main(int argc, char **argv);
int tb_ccws_main(int argc, char **argv);
int tb_vws_main(int argc, char **argv);
int tb_sharing_main(int argc, char **argv);


G_END_DECLS

#endif
