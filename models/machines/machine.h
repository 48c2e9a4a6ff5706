/* machine.h — the machines: the layer above the topologies that says what a program simulates and
 * wires it in one place, and the presets that describe them (presets.h).
 *
 *   sm       one monolithic SM (the `sm` topology) behind cta_dispatch, with mem_fixed as its
 *            memory side (tb-sm)
 *   subcore  the same with a sub-core SM (`subcore_sm`) (tb-subcore)
 *   gpu      the `gpu` topology: cta_dispatch, N SMs of either kind, interconnect, L2 slices, DRAM
 *            channels, optional SM-to-SM links (tb-gpu)
 *
 * A preset says which machines it describes (a sub-core SM's preset is not one of the monolithic
 * one-SM machine); a program that builds one machine refuses the presets of others with a message
 * naming the program to use (machine_cli). A machine's program knows every block type of the library
 * (so that a preset's sections of another machine load) and lists only those it builds
 * (--list-blocks; blk_registry_mark_built).
 *
 * Usage (testbench/tb_common.c, tb_main, does all of it):
 *   machine_register(MACHINE_SM);
 *   const machine_info *mi = machine_info_get(MACHINE_SM);
 *   cli_run *run = cli_new(mi->program, mi->summary, mi->top, "tb", mi->default_preset);
 *   machine_cli(run, MACHINE_SM);
 *   cli_parse(run, &argc, &argv);
 *   machine *m = machine_new(MACHINE_SM, run->ctx, run->top->mod);   // reads its parameters
 *   sm_env *env = ... environment for machine_n_sms(m) SMs ...;
 *   machine_build(m, env);                                          // instantiates and binds
 */
#ifndef GPUSC_MODELS_MACHINES_MACHINE_H
#define GPUSC_MODELS_MACHINES_MACHINE_H

#include <stdio.h>

#include "models/core/cli.h"
#include "models/lib/occupancy.h"
#include "models/topo/gpu.h"

G_BEGIN_DECLS

typedef enum { MACHINE_SM, MACHINE_SUBCORE, MACHINE_GPU, MACHINE_COUNT } machine_kind;

typedef struct {
    const char *name;           /* "sm", "subcore", "gpu" */
    const char *what;           /* "one monolithic SM" (messages) */
    const char *program;        /* the testbench that builds it: "tb-sm" */
    const char *summary;        /* its --help summary */
    const blk_desc *top;        /* the program's descriptor (its top instance "tb": period_ps) */
    const char *default_preset; /* without --preset */
} machine_info;

const machine_info *machine_info_get(machine_kind k);

/* Register every block type of the library and the presets (idempotent), and mark the types
 * machine k builds (what its program's --list-blocks lists). */
void machine_register(machine_kind k);
/* Install the preset check of machine k on the program's command line (before cli_parse): a preset
 * that does not describe k stops the program with "preset 'malekeh' describes a sub-core SM, not
 * one monolithic SM (what tb-sm builds): use tb-subcore --preset malekeh (or tb-gpu --preset
 * malekeh)", and --list-blocks lists the presets of k. */
void machine_cli(cli_run *run, machine_kind k);

typedef struct machine machine;

/* The machine under parent (after cli_parse: it reads its parameters; the GPU its [gpu] section). */
machine *machine_new(machine_kind k, blk_ctx *ctx, gsc_module *parent);
unsigned machine_n_sms(const machine *m);
/* The configuration path of the machine's SMs (their [sm] / [subcore_sm] limits, e.g. "tb.sm0" or
 * the GPU's first SM) and whether they are sub-core SMs: what the register allocator's limit and
 * occupancy are read from before the kernel loads. Free with g_free. */
char *machine_sm_path(const machine *m, bool *subcore);
/* The SM occupancy limits of a configuration made of the built-in presets `presets` (in order; none:
 * gtx480), the INI files `configs` and the assignments `sets` (SECTION.KEY=VALUE), for the SM kind
 * its [gpu] sm_kind names; what the GPU and SM testbenches would build. Registers the descriptors
 * and the presets. Each list may be NULL. False with err set (the configuration's own message) on a bad source. */
bool machine_occupancy_config(char **presets, char **configs, char **sets, occupancy_sm *o, GError **err);
/* Instantiate and bind every block for env (env->n_sms = machine_n_sms). */
void machine_build(machine *m, sm_env *env);
void machine_free(machine *m);

cta_dispatch *machine_dispatch(const machine *m);
sm_topo **machine_sms(const machine *m);
gpu_topo *machine_gpu(const machine *m); /* NULL unless MACHINE_GPU */
/* The first memory-side error (the GPU's L2 slices), or NULL. */
const char *machine_fault(const machine *m);
/* The memory side's state for the watchdog's dump (nothing for mem_fixed); matches tb_dump_fn. */
void machine_dump_state(void *m, GString *out);
/* The memory side's summary lines (the GPU's L2, DRAM, icnt, links; nothing for mem_fixed). */
void machine_summary(const machine *m, FILE *out);

G_END_DECLS

#endif /* GPUSC_MODELS_MACHINES_MACHINE_H */
