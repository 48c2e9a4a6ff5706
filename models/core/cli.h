/* cli.h — the common command line of every gpusc program.
 *
 *   --list-blocks             list the block types the program builds, and its presets, and exit
 *   --describe BLOCK          print a block's descriptor (gst-inspect style) and exit
 *   --preset NAME             load a built-in preset (repeatable; default: the program's)
 *   --config FILE             load an INI file (repeatable)
 *   --set SECTION.KEY=VALUE   override one parameter (repeatable)
 *   --seed N                  set the `seed` parameter of every block type that has one
 *   --dump-config             print the effective parameters of every instance and exit
 *   --stats-json FILE         also write the statistics as JSON
 *   --trace=PATTERNS          trace the instances matching these globs (default "*"; a pattern
 *                             matching nothing is a warning)
 *   --no-trace                no VCD
 *   --trace-window=FROM:TO    trace cycles FROM..TO only, both included (either side may be empty;
 *                             an empty TO is the end; TO 0 is refused)
 *   --vcd PATH                VCD path (default waveforms/<program>.vcd; a .gtkw is written beside,
 *                             none if the run ends before the window: a warning says so)
 *   --max-cycles N            stop after N cycles (0: no limit)
 *   --check=MODE              awake, shuffle[:SEED] or off: a check mode of sc/ (docs/sc-api.md);
 *                             default: the environment variable GPUSC_CHECK, else off
 *
 * A program:
 *     demo_register();                                   // descriptors and presets
 *     cli_run *run = cli_new("tb-pipeline", "what it does", &tb_pipeline_desc, "tb", NULL);
 *     cli_parse(run, &argc, &argv);                      // may exit (listing, errors)
 *     ... build blocks under run->top->mod with run->ctx ...
 *     cli_elaborate(run);                                // config check, --dump-config, gsc_elaborate
 *     uint64_t cycles = gsc_run(run->max_cycles);
 *     ... check results ...
 *     cli_finish(run, cycles);                           // VCD, .gtkw, statistics
 *
 * The program's descriptor (parameters, no ports) is instantiated as the top-level module; if it
 * declares a uint parameter "period_ps", that is the core clock period (otherwise 1000 ps).
 */
#ifndef GPUSC_MODELS_CORE_CLI_H
#define GPUSC_MODELS_CORE_CLI_H

#include <glib.h>

#include "models/core/block.h"
#include "models/core/config.h"

G_BEGIN_DECLS

typedef struct {
    /* set by cli_new */
    const char *program;
    const char *summary;
    const blk_desc *top_desc;
    const char *top_name;
    const char *default_preset; /* NULL: none */
    GOptionContext *options;

    /* options (read them after cli_parse) */
    char **configs, **presets, **sets;
    gboolean list_blocks, dump_config, no_trace;
    char *describe, *stats_json, *trace, *trace_window, *vcd_path, *gtkw_path;
    /* --pipeview FILE: issue.pipeview (the pipeline log), or NULL */
    char *pipeview;
    char *wave_format; /* "vcd" (default) or "fst" */
    char *seed;  /* validated as the seed parameters' values */
    char *check; /* --check: gsc_check_parse's spelling */
    gint64 max_cycles;
    uint64_t trace_from, trace_to;

    /* cli_set_preset_check */
    char *(*preset_check)(const char *preset, void *data);
    void *preset_check_data;

    /* made by cli_parse */
    cfg *config;
    gsc_clock *clock;
    blk_ctx *ctx;
    blk_inst *top;
} cli_run;

cli_run *cli_new(const char *program, const char *summary, const blk_desc *top_desc, const char *top_name,
                 const char *default_preset);
/* A program that builds one machine refuses the presets of others: check(name, data) returns NULL
 * for a preset the program takes, else the message to stop with (to g_free; it should name the
 * program to use). cli_parse asks it for every --preset (or the default) before loading them, and
 * --list-blocks lists only the presets it takes. */
void cli_set_preset_check(cli_run *run, char *(*check)(const char *preset, void *data), void *data);
/* Add a program-specific option group (ownership passes to the context). */
void cli_add_group(cli_run *run, GOptionGroup *group);
/* Parse, handle --list-blocks/--describe (exit 0), load the configuration (errors: message and
 * exit 1), call gsc_init, open the trace, create the core clock, the context and the top instance. */
void cli_parse(cli_run *run, int *argc, char ***argv);
/* After the blocks are built: check instance sections, handle --dump-config (exit 0), elaborate. */
void cli_elaborate(cli_run *run);
/* After the run: close the VCD and write the .gtkw beside it, print statistics on stdout, write
 * --stats-json. */
void cli_finish(cli_run *run, uint64_t cycles);
void cli_free(cli_run *run);

/* Print a descriptor as --describe does / the list as --list-blocks does. */
void cli_describe(const blk_desc *d, FILE *out);
void cli_list_blocks(FILE *out);
/* Print "gpusc: message" on stderr and exit(1). */
void cli_die(const char *fmt, ...) G_GNUC_PRINTF(1, 2) G_GNUC_NORETURN;
/* Parse "FROM:TO", both included (either side may be empty: FROM 0, TO 0 = to the end; a TO written
 * as 0 or before FROM is a problem). */
bool cli_parse_window(const char *text, uint64_t *from, uint64_t *to, char **problem);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_CLI_H */
