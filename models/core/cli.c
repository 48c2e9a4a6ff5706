/* cli.c — the common command line, --list-blocks and --describe. */
#include "models/core/cli.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/frontend/hostfile.h"
#include "models/core/gtkw.h"
#include "models/core/outfile.h"
#include "models/core/stats.h"

#define CLI_DEFAULT_PERIOD_PS 1000

void cli_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* "gpusc: warning: ..." on stderr; the run goes on. */
static void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("gpusc: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---------------------------------------------------------------------------------------------
 * --list-blocks, --describe
 * ------------------------------------------------------------------------------------------- */

/* The blocks the program builds and the presets it takes (run: NULL, every preset). */
static void list_blocks(const cli_run *run, FILE *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < blk_registry_count(); i++) {
        const blk_desc *d = blk_registry_nth(i);
        if (!blk_registry_built(d))
            continue;
        fprintf(out, "%s: %s\n", d->name, d->description);
        n++;
    }
    fprintf(out, "\nTotal count: %u blocks\n", n);
    bool head = false;
    for (unsigned i = 0; i < cfg_preset_count(); i++) {
        const char *name, *description;
        cfg_preset_nth(i, &name, &description);
        char *why = run && run->preset_check ? run->preset_check(name, run->preset_check_data) : NULL;
        if (why) {
            g_free(why);
            continue;
        }
        if (!head)
            fprintf(out, "\nPresets:\n");
        head = true;
        fprintf(out, "  %s: %s\n", name, description);
    }
}

void cli_list_blocks(FILE *out)
{
    list_blocks(NULL, out);
}

void cli_set_preset_check(cli_run *run, char *(*check)(const char *preset, void *data), void *data)
{
    run->preset_check = check;
    run->preset_check_data = data;
}

static const char *ctype_name(gsc_ctype t)
{
    static const char *const names[] = {"bool", "u8",  "u16", "u32", "u64", "i8",
                                        "i16",  "i32", "i64", "f32", "f64", "opaque"};
    return (unsigned)t < G_N_ELEMENTS(names) ? names[t] : "?";
}

static void describe_iface(const blk_port_desc *p, FILE *out)
{
    const blk_iface *f = p->iface;
    if (p->chan == BLK_CHAN_EXPORT)
        fprintf(out, "    Interface: exports %s (others call it, in their activation)\n", f->name);
    else
        fprintf(out, "    Interface: imports %s (%s)\n", f->name,
                p->flags & BLK_PORT_MULTI      ? "any number of exports, called in binding order"
                : p->flags & BLK_PORT_OPTIONAL ? "optional: may stay unbound"
                                               : "required: unbound is an elaboration error");
    fprintf(out, "    Meaning: %s\n", p->meaning);
    fprintf(out, "    Interface meaning: %s\n", f->meaning);
    for (unsigned m = 0; f->methods && f->methods[m]; m++)
        fprintf(out, "      %s\n", f->methods[m]);
    if (p->chan == BLK_CHAN_EXPORT && f->fields[0]) {
        fprintf(out, "    Traced calls: calls");
        for (unsigned i = 0; i < BLK_CALL_FIELDS && f->fields[i]; i++)
            fprintf(out, ", %s", f->fields[i]);
        fprintf(out, "\n");
    }
}

static void describe_ports(const blk_desc *d, FILE *out)
{
    fprintf(out, "Ports:\n");
    if (!d->n_ports)
        fprintf(out, "  none\n");
    for (unsigned i = 0; i < d->n_ports; i++) {
        const blk_port_desc *p = &d->ports[i];
        fprintf(out, "  %s\n", p->name);
        if (p->max_count) {
            if (p->count_param)
                fprintf(out, "    Array: elements %%u = 0 .. %s - 1 (at most %u)\n", p->count_param, p->max_count);
            else
                fprintf(out, "    Array: elements %%u = 0 .. N - 1, N set by the topology (at most %u)\n",
                        p->max_count);
        }
        if (p->chan == BLK_CHAN_EXPORT || p->chan == BLK_CHAN_IMPORT) {
            describe_iface(p, out);
            continue;
        }
        fprintf(out, "    Direction: %s\n", p->dir == GSC_IN ? "input" : "output");
        if (p->chan == BLK_CHAN_FIFO)
            fprintf(out, "    Channel: FIFO (depth: parameter %s)\n",
                    p->depth_param ? p->depth_param : "none, 2");
        else
            fprintf(out, "    Channel: latch\n");
        fprintf(out, "    Meaning: %s\n", p->meaning);
        fprintf(out, "    Type: %s (%zu bytes)\n", p->type->name, p->type->size);
        for (unsigned f = 0; f < p->type->n_fields; f++) {
            const gsc_field *fd = &p->type->fields[f];
            fprintf(out, "      %-16s %-6s", fd->name, ctype_name(fd->ctype));
            if (fd->ctype == GSC_OPAQUE)
                fprintf(out, " %zu bytes, not traced\n", fd->size);
            else if (fd->width)
                fprintf(out, " %u bits\n", fd->width);
            else
                fprintf(out, " full width\n");
        }
    }
}

static void describe_params(const blk_desc *d, FILE *out)
{
    fprintf(out, "\nParameters:\n");
    if (!d->n_params)
        fprintf(out, "  none\n");
    for (unsigned i = 0; i < d->n_params; i++) {
        const blk_param_desc *p = &d->params[i];
        fprintf(out, "  %-20s: %s\n", p->name, p->meaning);
        fprintf(out, "  %-20s  %s. ", "", blk_param_type_name(p->type));
        if (p->type == BLK_PARAM_ENUM) {
            fprintf(out, "Choices:");
            for (unsigned c = 0; p->choices && p->choices[c]; c++)
                fprintf(out, " %s", p->choices[c]);
            fprintf(out, ". ");
        } else if (p->min || p->max) {
            fprintf(out, "Range: %s - %s. ", p->min ? p->min : "-inf", p->max ? p->max : "+inf");
        }
        fprintf(out, "Default: %s", p->def);
        if (p->unit && *p->unit)
            fprintf(out, ". Unit: %s", p->unit);
        fprintf(out, "\n");
    }
}

static void describe_stats_state(const blk_desc *d, FILE *out)
{
    fprintf(out, "\nStatistics:\n");
    if (!d->n_stats)
        fprintf(out, "  none\n");
    for (unsigned i = 0; i < d->n_stats; i++) {
        const blk_stat_desc *s = &d->stats[i];
        fprintf(out, "  %-20s [%s] %s%s\n", s->name, s->unit, s->kind == BLK_STAT_DERIVED ? "(derived) " : "",
                s->meaning);
    }
    fprintf(out, "\nTraced state:\n");
    if (!d->n_state)
        fprintf(out, "  none\n");
    for (unsigned i = 0; i < d->n_state; i++)
        fprintf(out, "  %-20s %2u bits  %s\n", d->state[i].name, d->state[i].width, d->state[i].meaning);
}

void cli_describe(const blk_desc *d, FILE *out)
{
    fprintf(out, "Block Details:\n");
    fprintf(out, "  %-20s %s\n", "Name", d->name);
    fprintf(out, "  %-20s %s\n", "Description", d->description);
    fprintf(out, "  %-20s %s\n", "Spec section", d->spec && *d->spec ? d->spec : "none");
    fprintf(out, "  %-20s gpusc.%s\n\n", "Log domain", d->name);
    describe_ports(d, out);
    describe_params(d, out);
    describe_stats_state(d, out);
}

/* ---------------------------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------------------------- */

cli_run *cli_new(const char *program, const char *summary, const blk_desc *top_desc, const char *top_name,
                 const char *default_preset)
{
    cli_run *run = g_new0(cli_run, 1);
    run->program = program;
    run->summary = summary;
    run->top_desc = top_desc;
    run->top_name = top_name;
    run->default_preset = default_preset;
    GOptionEntry entries[] = {
        {"list-blocks", 0, 0, G_OPTION_ARG_NONE, &run->list_blocks, "List the block types and exit", NULL},
        {"describe", 0, 0, G_OPTION_ARG_STRING, &run->describe, "Describe a block type and exit", "BLOCK"},
        {"preset", 0, 0, G_OPTION_ARG_STRING_ARRAY, &run->presets, "Load a built-in preset (repeatable)",
         "NAME"},
        {"config", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &run->configs, "Load an INI file (repeatable)", "FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &run->sets, "Override a parameter (repeatable)",
         "SECTION.KEY=VALUE"},
        {"seed", 0, 0, G_OPTION_ARG_STRING, &run->seed,
         "The seed of a workload's input (testbenches), and of every block with a seed parameter", "N"},
        {"dump-config", 0, 0, G_OPTION_ARG_NONE, &run->dump_config,
         "Print the effective configuration and exit", NULL},
        {"stats-json", 0, 0, G_OPTION_ARG_FILENAME, &run->stats_json, "Write the statistics as JSON", "FILE"},
        {"pipeview", 0, 0, G_OPTION_ARG_FILENAME, &run->pipeview,
         "Write the pipeline log (gem5 O3PipeView text, for Konata; every SM's issue stage)", "FILE"},
        {"trace", 0, 0, G_OPTION_ARG_STRING, &run->trace,
         "Trace the instances matching these globs (default *)", "PATTERNS"},
        {"no-trace", 0, 0, G_OPTION_ARG_NONE, &run->no_trace, "Write no VCD", NULL},
        {"trace-window", 0, 0, G_OPTION_ARG_STRING, &run->trace_window, "Trace these cycles only", "FROM:TO"},
        {"wave-format", 0, 0, G_OPTION_ARG_STRING, &run->wave_format,
         "Waveform format: vcd (default) or fst (through GTKWave's vcd2fst)", "vcd|fst"},
        {"vcd", 0, 0, G_OPTION_ARG_FILENAME, &run->vcd_path,
         "VCD path, .vcd added when missing; the .gtkw goes beside it (default waveforms/PROGRAM.vcd)",
         "PATH"},
        {"max-cycles", 0, 0, G_OPTION_ARG_INT64, &run->max_cycles, "Stop after N cycles (0: no limit)", "N"},
        {"check", 0, 0, G_OPTION_ARG_STRING, &run->check,
         "Check mode: awake (every process runs every cycle), shuffle[:SEED] (a random order of the "
         "activations of a cycle) or off (default: $GPUSC_CHECK)",
         "MODE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    run->options = g_option_context_new(NULL);
    g_option_context_set_summary(run->options, summary);
    GOptionGroup *main_group = g_option_group_new(NULL, NULL, NULL, NULL, NULL);
    g_option_group_add_entries(main_group, entries);
    g_option_context_set_main_group(run->options, main_group);
    return run;
}

void cli_add_group(cli_run *run, GOptionGroup *group)
{
    g_option_context_add_group(run->options, group);
}

bool cli_parse_window(const char *text, uint64_t *from, uint64_t *to, char **problem)
{
    const char *colon = strchr(text, ':');
    if (!colon) {
        *problem = g_strdup_printf("--trace-window=%s: expected FROM:TO", text);
        return false;
    }
    char *a = g_strndup(text, (gsize)(colon - text));
    const char *b = colon + 1;
    guint64 f = 0, t = 0;
    bool ok = (!*a || g_ascii_string_to_unsigned(a, 10, 0, G_MAXUINT64, &f, NULL)) &&
              (!*b || g_ascii_string_to_unsigned(b, 10, 0, G_MAXUINT64, &t, NULL));
    g_free(a);
    if (!ok) {
        *problem = g_strdup_printf("--trace-window=%s: FROM and TO must be cycle numbers", text);
        return false;
    }
    /* Both ends are inclusive (5:5 is cycle 5 alone); an empty TO is the end of the run, which
     * gsc_trace_open spells 0, so an explicit TO of 0 cannot be told from it and is refused. */
    if (*b && t == 0) {
        *problem = g_strdup_printf(
            "--trace-window=%s: TO must be at least 1 (leave it empty to trace to the end)", text);
        return false;
    }
    if (*b && t < f) {
        *problem = g_strdup_printf("--trace-window=%s: TO must not be before FROM (both are included)", text);
        return false;
    }
    *from = f;
    *to = t;
    return true;
}

static void load_config(cli_run *run)
{
    GError *err = NULL;
    run->config = cfg_new();
    for (unsigned i = 0; run->preset_check && (run->presets ? run->presets[i] != NULL : i == 0); i++) {
        const char *name = run->presets ? run->presets[i] : run->default_preset;
        char *why = name && cfg_preset_known(name) ? run->preset_check(name, run->preset_check_data) : NULL;
        if (why)
            cli_die("%s", why);
    }
    if (run->presets) {
        for (unsigned i = 0; run->presets[i]; i++)
            if (!cfg_load_preset(run->config, run->presets[i], &err))
                cli_die("%s", err->message);
    } else if (run->default_preset && !cfg_load_preset(run->config, run->default_preset, &err)) {
        cli_die("%s", err->message);
    }
    for (unsigned i = 0; run->configs && run->configs[i]; i++)
        if (!cfg_load_file(run->config, run->configs[i], &err))
            cli_die("%s", err->message);
    if (run->seed) {
        for (unsigned i = 0; i < blk_registry_count(); i++) {
            const blk_desc *d = blk_registry_nth(i);
            if (!blk_desc_param(d, "seed"))
                continue;
            char *a = g_strdup_printf("%s.seed=%s", d->name, run->seed);
            if (!cfg_set_from(run->config, a, "--seed", &err))
                cli_die("--seed: %s", err->message);
            g_free(a);
        }
    }
    for (unsigned i = 0; run->sets && run->sets[i]; i++)
        if (!cfg_set(run->config, run->sets[i], &err))
            cli_die("%s", err->message);
    if (run->pipeview) {
        if (!*run->pipeview)
            cli_die("--pipeview: empty file name");
        const blk_desc *d = blk_registry_find("issue");
        if (!d || !blk_desc_param(d, "pipeview"))
            cli_die("--pipeview: this program has no issue stage to log");
        char *a = g_strdup_printf("issue.pipeview=%s", run->pipeview);
        if (!cfg_set_from(run->config, a, "--pipeview", &err))
            cli_die("--pipeview: %s", err->message);
        g_free(a);
    }
}

static uint64_t clock_period(const cli_run *run)
{
    const blk_param_desc *p = blk_desc_param(run->top_desc, "period_ps");
    if (!p || p->type != BLK_PARAM_UINT)
        return CLI_DEFAULT_PERIOD_PS;
    cfg_value_ref ref;
    cfg_lookup(run->config, run->top_name, run->top_desc->name, p, &ref);
    blk_value v;
    char *problem = NULL;
    if (!blk_value_parse(p, ref.text, &v, &problem))
        cli_die("%s: [%s] %s: %s", ref.where, ref.section ? ref.section : run->top_name, p->name, problem);
    blk_value_clear(&v);
    /* gsc_clock_new refuses less than 2 ps (docs/sc-api.md): say so with the key's name */
    if (v.u == 1)
        cli_die("%s: [%s] %s: 1 is out of range: the core clock needs at least 2 ps", ref.where,
                ref.section ? ref.section : run->top_name, p->name);
    return v.u ? v.u : CLI_DEFAULT_PERIOD_PS;
}

/* Whether two paths name one file: the same text once canonical, or the same existing file. */
static bool same_file(const char *a, const char *b)
{
    char *ca = g_canonicalize_filename(a, NULL), *cb = g_canonicalize_filename(b, NULL);
    bool same = strcmp(ca, cb) == 0;
    g_free(ca);
    g_free(cb);
    GStatBuf sa, sb;
    return same ||
           (g_stat(a, &sa) == 0 && g_stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

static void open_trace(cli_run *run)
{
    bool fst = run->wave_format && strcmp(run->wave_format, "fst") == 0;
    if (run->wave_format && !fst && strcmp(run->wave_format, "vcd") != 0)
        cli_die("--wave-format=%s: expected vcd or fst", run->wave_format);
    const char *ext = fst ? ".fst" : ".vcd";
    if (!run->vcd_path)
        run->vcd_path = g_strdup_printf("waveforms/%s%s", run->program, ext);
    if (fst && g_str_has_suffix(run->vcd_path, ".vcd"))
        run->vcd_path[strlen(run->vcd_path) - 4] = '\0';
    if (!g_str_has_suffix(run->vcd_path, ext)) {
        char *p = g_strconcat(run->vcd_path, ext, NULL);
        g_free(run->vcd_path);
        run->vcd_path = p;
    }
    run->gtkw_path = g_strdup_printf("%.*s.gtkw", (int)strlen(run->vcd_path) - 4, run->vcd_path);
    if (run->no_trace)
        return;
    if (run->stats_json &&
        (same_file(run->stats_json, run->vcd_path) || same_file(run->stats_json, run->gtkw_path)))
        cli_die("--stats-json %s: the same file as the waveform (%s, %s)", run->stats_json, run->vcd_path,
                run->gtkw_path);
    char *dir = g_path_get_dirname(run->vcd_path);
    if (g_mkdir_with_parents(dir, 0755) != 0)
        cli_die("cannot create %s: %s", dir, g_strerror(errno));
    g_free(dir);
    if (fst)
        gsc_trace_fst(g_getenv("VCD2FST"));
    gsc_trace_open(run->vcd_path, run->trace, run->trace_from, run->trace_to);
}

void cli_parse(cli_run *run, int *argc, char ***argv)
{
    GError *err = NULL;
    g_option_context_set_help_enabled(run->options, TRUE);
    if (!host_option_parse(run->options, argc, argv, &err))
        cli_die("%s (see --help)", err->message);
    if (*argc > 1)
        cli_die("unexpected argument '%s' (see --help)", (*argv)[1]);
    blk_registry_add(run->top_desc);
    if (run->list_blocks) {
        list_blocks(run, stdout);
        exit(0);
    }
    if (run->describe) {
        const blk_desc *d = blk_registry_find(run->describe);
        if (!d)
            cli_die("no block named '%s' (see --list-blocks)", run->describe);
        cli_describe(d, stdout);
        exit(0);
    }
    if (run->max_cycles < 0)
        cli_die("--max-cycles must not be negative");
    gsc_check_mode check_mode = GSC_CHECK_OFF;
    uint64_t check_seed = 1;
    if (run->check && !gsc_check_parse(run->check, &check_mode, &check_seed))
        cli_die("--check=%s: expected awake, shuffle, shuffle:SEED or off", run->check);
    if (run->stats_json && !*run->stats_json)
        cli_die("--stats-json: empty file name");
    if (run->stats_json && !hostfile_check_writable(run->stats_json, &err)) /* not at the end of the run */
        cli_die("--stats-json %s", err->message);
    if (run->vcd_path && !*run->vcd_path)
        cli_die("--vcd: empty file name");
    if (run->trace_window) {
        char *problem = NULL;
        if (!cli_parse_window(run->trace_window, &run->trace_from, &run->trace_to, &problem))
            cli_die("%s", problem);
    }
    if (!run->trace)
        run->trace = g_strdup("*");
    if (!run->trace[strspn(run->trace, ", \t")]) /* (",,," holds no pattern either) */
        cli_die("--trace: empty pattern list (use --no-trace)");
    load_config(run);
    gsc_init(run->program);
    if (run->check)
        gsc_set_check(check_mode, check_seed);
    if (!run->dump_config)
        open_trace(run);
    run->clock = gsc_clock_new("clk", clock_period(run));
    run->ctx = blk_ctx_new(run->config, run->clock);
    run->top = blk_inst_new(run->ctx, NULL, run->top_name, run->top_desc);
    if (!run->no_trace && !run->dump_config)
        gsc_trace_cycle_counter(run->top->mod, "cycle");
}

void cli_elaborate(cli_run *run)
{
    GError *err = NULL;
    if (!cfg_check_instances(run->config, run->ctx, &err))
        cli_die("%s", err->message);
    if (run->dump_config) {
        cfg_dump(run->ctx, stdout);
        exit(0);
    }
    blk_ctx_elaborate(run->ctx);
    gsc_elaborate();
    const char *pattern;
    for (unsigned i = 0; (pattern = gsc_trace_unmatched_pattern(i)); i++)
        cli_warn("--trace pattern '%s' matches no traced signal", pattern);
}

/* The trace window was never reached: no VCD, so no .gtkw either; an older pair at these paths
 * would pass for this run's, so it goes. */
static void no_waveform(cli_run *run, uint64_t cycles)
{
    bool old =
        g_file_test(run->vcd_path, G_FILE_TEST_EXISTS) || g_file_test(run->gtkw_path, G_FILE_TEST_EXISTS);
    g_remove(run->vcd_path);
    g_remove(run->gtkw_path);
    cli_warn("the run ended after %" G_GUINT64_FORMAT
             " cycles, before the trace window starts (cycle %" G_GUINT64_FORMAT
             "): no %s and no .gtkw written%s",
             cycles, run->trace_from, run->vcd_path, old ? " (older ones removed)" : "");
}

void cli_finish(cli_run *run, uint64_t cycles)
{
    GError *err = NULL;
    if (!run->no_trace) {
        gsc_trace_close();
        if (!gsc_trace_written())
            no_waveform(run, cycles);
        else if (!gtkw_write_traced(run->gtkw_path, run->vcd_path, gsc_clock_period_ps(run->clock), &err))
            cli_die("%s", err->message);
    }
    blk_ctx_finish(run->ctx, cycles);
    stats_dump_text(run->ctx, cycles, stdout);
    if (run->stats_json && !stats_write_json(run->ctx, run->program, cycles, run->stats_json, &err))
        cli_die("%s", err->message);
    fflush(stdout);
    if (!run->no_trace && gsc_trace_write_error())
        cli_die("%s", gsc_trace_write_error());
    GString *werr = g_string_new(NULL);
    if (!outfile_close_all(werr))
        cli_die("%s", werr->str);
    g_string_free(werr, TRUE);
}

void cli_free(cli_run *run)
{
    if (!run)
        return;
    blk_ctx_free(run->ctx);
    cfg_free(run->config);
    g_option_context_free(run->options);
    g_strfreev(run->configs);
    g_strfreev(run->presets);
    g_strfreev(run->sets);
    g_free(run->describe);
    g_free(run->seed);
    g_free(run->check);
    g_free(run->stats_json);
    g_free(run->pipeview);
    g_free(run->trace);
    g_free(run->trace_window);
    g_free(run->wave_format);
    g_free(run->vcd_path);
    g_free(run->gtkw_path);
    g_free(run);
}
