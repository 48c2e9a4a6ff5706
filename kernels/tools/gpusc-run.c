/* gpusc-run — run a workload, or any PTX kernel with arguments given on the command line.
 *
 *   gpusc-run --functional --workload NAME [--size tiny|default|large] [--seed N]
 *   gpusc-run --functional --ptx FILE --entry NAME --grid X,Y,Z --block X,Y,Z [--shared BYTES]
 *             [--max-shared BYTES] [--nwarpid N] --arg A --arg B ...
 *   --rewritten runs the code after the register-allocation rewrite (regalloc_module) instead of the
 *   PTX as parsed; --stats says which one ran.
 *
 * Only the functional runner exists for now (kernels/run/frun.h); --functional is required until the
 * timing mode is added. Exit status: 0 success, 1 mismatch or runtime error, 2 usage or input error.
 */
#include "kernels/run/frun.h"
#include "kernels/run/launch_cli.h"
#include "kernels/frontend/hostfile.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "kernels/workloads/workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUSC_SRC_PTX_DIR
#define GPUSC_SRC_PTX_DIR "kernels/ptx"
#endif
#ifndef GPUSC_DATA_PTX_DIR
#define GPUSC_DATA_PTX_DIR "/usr/local/share/gpusc/ptx"
#endif

enum { EXIT_OK = 0, EXIT_RUN = 1, EXIT_USAGE = 2 };

typedef struct {
    gboolean functional, list, stats, race_check, rewritten;
    char *workload, *size, *ptx, *entry, *grid, *block, *ptx_dir, *trace, *memcheck;
    fmem_check check; /* --memcheck */
    gint64 seed, shared, max_shared, nwarpid, max_instr, quantum, sched_seed;
    gint64 regs_per_thread, smem_per_cta; /* declared resource use (occupancy; none here), 0: none */
    char **args;
    FILE *trace_fp; /* opened --trace, or NULL */
} options;

static int G_GNUC_PRINTF(2, 3) die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

/* The code that runs: the PTX as parsed, or (--rewritten) what the register-allocation pipeline
 * made of it (rematerialization moves or adds instructions, so the counts differ). */
static void prepare_code(const options *o, ir_module *m)
{
    if (o->rewritten)
        regalloc_module(m, NULL);
}

static void print_stats(const options *o, const frun_stats *s)
{
    printf("code: %s\n", o->rewritten ? "rewritten (regalloc_module: rematerialization + allocation)"
                                      : "original (the PTX as parsed, no rematerialization)");
    if (o->regs_per_thread || o->smem_per_cta)
        printf("declared: %" G_GINT64_FORMAT " registers/thread, %" G_GINT64_FORMAT
               " bytes scratchpad/CTA (0: the kernel's own; occupancy is the timing model's)\n",
               o->regs_per_thread, o->smem_per_cta);
    printf("launches: %" G_GUINT64_FORMAT "\n", s->launches);
    printf("ctas: %" G_GUINT64_FORMAT "\n", s->ctas);
    printf("warp instructions: %" G_GUINT64_FORMAT "\n", s->warp_instrs);
    printf("thread instructions: %" G_GUINT64_FORMAT "\n", s->thread_instrs);
    printf("divergent branches: %" G_GUINT64_FORMAT "\n", s->divergent_branches);
    printf("warp instructions by class:");
    for (unsigned c = 0; c < IR_CLASS_COUNT; c++)
        printf(" %s %" G_GUINT64_FORMAT, ir_class_name((ir_class)c), s->by_class[c]);
    printf("\nelapsed seconds: %.3f\n", s->seconds);
    printf("cpu seconds: %.3f\n", s->cpu_seconds);
    printf("thread instructions/s: %.0f\n", s->seconds > 0 ? (double)s->thread_instrs / s->seconds : 0.0);
    printf("thread instructions/cpu s: %.0f\n",
           s->cpu_seconds > 0 ? (double)s->thread_instrs / s->cpu_seconds : 0.0);
}

static int run_workload(const options *o)
{
    const workload *w = workload_find(o->workload);
    if (!w)
        return die(EXIT_USAGE, "unknown workload '%s' (--list-workloads lists them)", o->workload);
    wl_size size = WL_SIZE_DEFAULT;
    if (o->size && !workload_size_parse(o->size, &size))
        return die(EXIT_USAGE, "unknown size '%s' (tiny, default or large)", o->size);
    /* --ptx-dir, $GPUSC_PTX_DIR, the source tree, the installed data */
    const char *defaults[] = {GPUSC_SRC_PTX_DIR, GPUSC_DATA_PTX_DIR};
    GString *perr = g_string_new(NULL);
    char *path = launch_cli_find_ptx(o->ptx_dir, w->ptx, defaults, G_N_ELEMENTS(defaults), perr);
    if (!path) {
        int rc = die(EXIT_USAGE, "%s", perr->str);
        g_string_free(perr, TRUE);
        return rc;
    }
    g_string_free(perr, TRUE);
    GError *gerr = NULL;
    ir_module *m = ptx_parse_file(path, &gerr);
    g_free(path);
    if (!m) {
        int rc = die(EXIT_USAGE, "%s", gerr->message);
        g_error_free(gerr);
        return rc;
    }
    prepare_code(o, m);
    GString *err = g_string_new(NULL);
    wl_device *dev = frun_device_new(m, err);
    int rc = EXIT_OK;
    if (!dev) {
        rc = die(EXIT_USAGE, "%s", err->str);
    } else {
        frun_device_set_max_instructions(dev, (uint64_t)o->max_instr);
        frun_device_set_schedule(dev, o->quantum > 0 ? (unsigned)o->quantum : 0, (uint32_t)o->sched_seed);
        frun_device_set_race_check(dev, o->race_check);
        frun_device_set_max_shared(dev, (uint64_t)o->max_shared);
        frun_device_set_nwarpid(dev, (uint32_t)o->nwarpid);
        frun_device_set_trace(dev, o->trace_fp);
        fmem_set_check(frun_device_mem(dev), o->check);
        if (w->run(size, (uint32_t)o->seed, dev, err) != 0)
            rc = die(EXIT_RUN, "workload %s (%s, seed %u): %s", w->name, workload_size_name(size),
                     (unsigned)o->seed, err->len ? err->str : "failed");
        else
            printf("%s (%s): ok\n", w->name, workload_size_name(size));
        if (o->stats)
            print_stats(o, frun_device_stats(dev));
        frun_device_free(dev);
    }
    g_string_free(err, TRUE);
    ir_module_free(m);
    return rc;
}

static int run_ptx(const options *o)
{
    if (!o->entry)
        return die(EXIT_USAGE, "--ptx needs --entry NAME");
    unsigned grid[3], block[3];
    if (!o->grid || !launch_cli_parse_dims(o->grid, grid))
        return die(EXIT_USAGE, "--grid X,Y,Z is missing or malformed ('%s')", o->grid ? o->grid : "");
    if (!o->block || !launch_cli_parse_dims(o->block, block))
        return die(EXIT_USAGE, "--block X,Y,Z is missing or malformed ('%s')", o->block ? o->block : "");
    if (o->shared < 0 || o->shared > (gint64)UINT32_MAX)
        return die(EXIT_USAGE, "--shared %" G_GINT64_FORMAT " is out of range", o->shared);
    GError *gerr = NULL;
    ir_module *m = ptx_parse_file(o->ptx, &gerr);
    if (!m) {
        int rc = die(EXIT_USAGE, "%s", gerr->message);
        g_error_free(gerr);
        return rc;
    }
    ir_func *f = ir_module_find_func(m, o->entry);
    if (!f || !f->is_entry) {
        ir_module_free(m);
        return die(EXIT_USAGE, "%s: no kernel (.entry) named '%s'", o->ptx, o->entry);
    }
    guint np = f->params ? f->params->len : 0;
    guint na = o->args ? g_strv_length(o->args) : 0;
    if (na != np) {
        ir_module_free(m);
        return die(EXIT_USAGE, "kernel %s takes %u parameter%s but %u --arg %s given", o->entry, np,
                   np == 1 ? "" : "s", na, na == 1 ? "was" : "were");
    }
    prepare_code(o, m);
    GString *err = g_string_new(NULL);
    wl_device *dev = frun_device_new(m, err);
    if (!dev) {
        int rc = die(EXIT_USAGE, "%s", err->str);
        g_string_free(err, TRUE);
        ir_module_free(m);
        return rc;
    }
    frun_device_set_max_instructions(dev, (uint64_t)o->max_instr);
    frun_device_set_schedule(dev, o->quantum > 0 ? (unsigned)o->quantum : 0, (uint32_t)o->sched_seed);
    frun_device_set_race_check(dev, o->race_check);
    frun_device_set_max_shared(dev, (uint64_t)o->max_shared);
    frun_device_set_nwarpid(dev, (uint32_t)o->nwarpid);
    frun_device_set_trace(dev, o->trace_fp);
    fmem_set_check(frun_device_mem(dev), o->check);
    launch_cli_args *args = launch_cli_args_new();
    int rc = EXIT_OK;
    if (launch_cli_convert(args, f, o->args, dev, err))
        rc = die(EXIT_USAGE, "%s", err->str);
    if (rc == EXIT_OK) {
        wl_launch l = {.entry = o->entry,
                       .shared_bytes = (unsigned)o->shared,
                       .args = launch_cli_values(args),
                       .n_args = np};
        memcpy(l.grid, grid, sizeof grid);
        memcpy(l.block, block, sizeof block);
        if (frun_launch(dev, &l, err))
            rc = die(EXIT_RUN, "%s", err->str);
    }
    if (rc == EXIT_OK && launch_cli_write_outputs(args, dev, err))
        rc = die(EXIT_RUN, "%s", err->str);
    if (o->stats)
        print_stats(o, frun_device_stats(dev));
    launch_cli_args_free(args);
    frun_device_free(dev);
    g_string_free(err, TRUE);
    ir_module_free(m);
    return rc;
}

int main(int argc, char **argv)
{
    options o = {.seed = 1, .max_instr = 0, .quantum = -1};
    GOptionEntry entries[] = {
        {"functional", 0, 0, G_OPTION_ARG_NONE, &o.functional,
         "Run on the functional (untimed) runner; required for now: the timing mode is not there yet", NULL},
        {"list-workloads", 0, 0, G_OPTION_ARG_NONE, &o.list,
         "List the built-in workloads (name, tab, description)", NULL},
        {"workload", 'w', 0, G_OPTION_ARG_STRING, &o.workload,
         "Run a built-in workload and check it against its CPU reference", "NAME"},
        {"size", 0, 0, G_OPTION_ARG_STRING, &o.size, "Workload size: tiny, default (the default) or large",
         "SIZE"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &o.seed, "Input generator seed (default 1)", "N"},
        {"ptx-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.ptx_dir,
         "Where the workloads' PTX files are (default: the source tree, then the installed copy)", "DIR"},
        {"ptx", 0, 0, G_OPTION_ARG_FILENAME, &o.ptx, "Run a kernel of this PTX file", "FILE"},
        {"entry", 0, 0, G_OPTION_ARG_STRING, &o.entry, "The kernel (.entry) to run", "NAME"},
        {"grid", 0, 0, G_OPTION_ARG_STRING, &o.grid, "Blocks per grid", "X,Y,Z"},
        {"block", 0, 0, G_OPTION_ARG_STRING, &o.block, "Threads per block", "X,Y,Z"},
        {"shared", 0, 0, G_OPTION_ARG_INT64, &o.shared, "Dynamic shared memory per block", "BYTES"},
        {"max-shared", 0, 0, G_OPTION_ARG_INT64, &o.max_shared,
         "Most shared memory (static + dynamic) a block may use (default 49152, CUDA's default; e.g. 65536 "
         "for sm_75 with the opt-in)",
         "BYTES"},
        {"arg", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &o.args,
         "A kernel argument, in parameter order: a scalar literal (converted to the parameter's type), "
         "in:PATH, "
         "out:PATH:BYTES, inout:PATH:OUTPATH, or bytes:HEX (a by-value .b8 parameter)",
         "A"},
        {"regs-per-thread", 0, 0, G_OPTION_ARG_INT64, &o.regs_per_thread,
         "Declared registers per thread (1 to 255; the testbenches' occupancy uses it, the functional runner "
         "only checks and reports it)",
         "N"},
        {"smem-per-cta", 0, 0, G_OPTION_ARG_INT64, &o.smem_per_cta,
         "Declared scratchpad bytes per CTA (must fit --max-shared; the testbenches' occupancy uses it)",
         "BYTES"},
        {"nwarpid", 0, 0, G_OPTION_ARG_INT64, &o.nwarpid,
         "What %nwarpid reads: the most warp ids an SM has (default 48, the GTX480-like SM; 32 to 1024)",
         "N"},
        {"max-instructions", 0, 0, G_OPTION_ARG_INT64, &o.max_instr,
         "Fail a launch after this many warp instructions (default 1e10)", "N"},
        {"stats", 0, 0, G_OPTION_ARG_NONE, &o.stats,
         "Print which code ran, instruction counts, time and thread instructions/s", NULL},
        {"rewritten", 0, 0, G_OPTION_ARG_NONE, &o.rewritten,
         "Run the code as register allocation rewrote it (rematerialization, as gpusc-ptx --after regalloc "
         "prints it) instead of the PTX as parsed",
         NULL},
        {"quantum", 0, 0, G_OPTION_ARG_INT64, &o.quantum,
         "Warp instructions per scheduling turn (default 4096)", "N"},
        {"schedule-seed", 0, 0, G_OPTION_ARG_INT64, &o.sched_seed,
         "Shuffle the CTA order, the warp order and the turn lengths with this seed (0: in order), to expose "
         "order-dependent kernels",
         "N"},
        {"race-check", 0, 0, G_OPTION_ARG_NONE, &o.race_check,
         "Fail on a shared-memory race: two warps touching a word between barriers, one of them storing",
         NULL},
        {"memcheck", 0, 0, G_OPTION_ARG_STRING, &o.memcheck,
         "Global memory check: strict (the default: any access outside an allocation faults), warn "
         "(allocations padded; an access in the padding is reported once per instruction and the run goes "
         "on) or isolate (a large unmapped gap after every allocation)",
         "MODE"},
        {"trace", 0, 0, G_OPTION_ARG_FILENAME, &o.trace,
         "Write one line per executed warp instruction to FILE ('-': standard output)", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("- run a workload or a PTX kernel on the functional runner");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Exit status: 0 success, 1 mismatch or runtime error, 2 usage or input error.\n"
             "Relative paths are relative to the working directory.\n");
    GError *gerr = NULL;
    int rc = EXIT_OK;
    if (!host_option_parse(ctx, &argc, &argv, &gerr)) {
        rc = die(EXIT_USAGE, "%s", gerr->message);
        g_error_free(gerr);
    } else if (argc > 1) {
        rc = die(EXIT_USAGE, "unexpected argument '%s' (kernel arguments are given with --arg)", argv[1]);
    } else if (o.list) {
        for (unsigned i = 0; i < workload_count(); i++) {
            const workload *w = workload_get(i);
            printf("%s\t%s\n", w->name, w->blurb ? w->blurb : "");
        }
    } else if (!o.functional) {
        rc = die(EXIT_USAGE, "--functional is required (only the functional runner exists for now)");
    } else if (o.memcheck && !fmem_check_parse(o.memcheck, &o.check)) {
        rc = die(EXIT_USAGE, "--memcheck '%s': not strict, warn or isolate", o.memcheck);
    } else if (o.max_instr < 0) {
        rc = die(EXIT_USAGE, "--max-instructions must not be negative");
    } else if (o.nwarpid != 0 && (o.nwarpid < 32 || o.nwarpid > 1024)) {
        rc = die(EXIT_USAGE, "--nwarpid %" G_GINT64_FORMAT " is out of range (32 to 1024)", o.nwarpid);
    } else if (o.max_shared < 0 || (uint64_t)o.max_shared > LAUNCH_MAX_SHARED_PER_CTA) {
        rc = die(EXIT_USAGE, "--max-shared %" G_GINT64_FORMAT " is out of range (0 to %llu)", o.max_shared,
                 LAUNCH_MAX_SHARED_PER_CTA);
    } else if (o.regs_per_thread < 0 || o.regs_per_thread > 255) {
        rc = die(EXIT_USAGE, "--regs-per-thread %" G_GINT64_FORMAT " is out of range (1 to 255)",
                 o.regs_per_thread);
    } else if (o.smem_per_cta < 0 ||
               o.smem_per_cta > (o.max_shared ? o.max_shared : (gint64)FRUN_DEFAULT_MAX_SHARED)) {
        rc = die(EXIT_USAGE,
                 "--smem-per-cta %" G_GINT64_FORMAT " is out of range (0 to the %" G_GINT64_FORMAT
                 " bytes --max-shared allows)",
                 o.smem_per_cta, o.max_shared ? o.max_shared : (gint64)FRUN_DEFAULT_MAX_SHARED);
    } else if (o.quantum == 0 || o.quantum < -1 || o.quantum > G_MAXINT32 || o.sched_seed < 0 ||
               o.sched_seed > (gint64)UINT32_MAX) {
        rc = die(EXIT_USAGE, "--quantum (1 to %d) or --schedule-seed (0 to %u) is out of range", G_MAXINT32,
                 UINT32_MAX);
    } else if (!o.workload && (o.size || o.seed != 1)) {
        rc = die(EXIT_USAGE, "--size and --seed go with --workload");
    } else if (o.trace && !(o.trace_fp = strcmp(o.trace, "-") == 0 ? stdout : fopen(o.trace, "w"))) {
        rc = die(EXIT_USAGE, "cannot write '%s': %s", o.trace, g_strerror(errno));
    } else if (o.workload && o.ptx) {
        rc = die(EXIT_USAGE, "--workload and --ptx exclude each other");
    } else if (o.workload) {
        if (o.seed < 0 || o.seed > (gint64)UINT32_MAX)
            rc = die(EXIT_USAGE, "--seed %" G_GINT64_FORMAT " is out of range", o.seed);
        else
            rc = run_workload(&o);
    } else if (o.ptx) {
        rc = run_ptx(&o);
    } else {
        rc = die(EXIT_USAGE, "nothing to run: give --workload NAME or --ptx FILE (see --help)");
    }
    g_option_context_free(ctx);
    g_free(o.workload);
    g_free(o.size);
    g_free(o.ptx);
    g_free(o.entry);
    g_free(o.grid);
    g_free(o.block);
    g_free(o.ptx_dir);
    g_free(o.memcheck);
    if (o.trace_fp) { /* a full disk or a size limit must not pass for a complete trace */
        errno = 0;
        bool bad = fflush(o.trace_fp) != 0 || ferror(o.trace_fp);
        int e = errno;
        if (o.trace_fp != stdout && fclose(o.trace_fp) != 0 && !bad) {
            bad = true;
            e = errno;
        }
        if (bad && rc == EXIT_OK)
            rc = die(EXIT_RUN, "cannot write '%s': %s", o.trace, e ? g_strerror(e) : "write error");
    }
    g_free(o.trace);
    g_strfreev(o.args);
    return rc;
}
