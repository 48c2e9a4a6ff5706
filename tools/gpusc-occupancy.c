/* gpusc-occupancy — how many CTAs of a kernel fit one SM of a configured machine, and what limits them.
 *
 *   gpusc-occupancy [--preset NAME]... [--config FILE]... [--set SECTION.KEY=VALUE]...
 *                   --threads-per-cta T [--regs-per-thread R] [--smem-per-cta BYTES]
 *                   [--share registers|scratchpad (--threshold t | --sharing-percent P)]
 *
 * The SM's limits come from the configuration as the testbenches build it (presets in order, default
 * gtx480, then INI files, then --set; the SM kind its [gpu] sm_kind names); the computation is
 * models/lib/occupancy.c, the one cta_dispatch runs. Prints one line
 *
 *   ctas N limit (registers|scratchpad|threads|ctas|warps) waste-registers R waste-smem B
 *
 * (N CTAs per SM; the first resource that gives N, in that order; the registers and scratchpad bytes
 * of the SM that N CTAs leave unallocated) and exits 0. Exit status 1: not even one CTA fits (the
 * message names the resource); 2: a bad option or configuration. docs/occupancy.md.
 * With --share (resource sharing, models/lib/sharing.h) the line starts with the CTAs launched:
 *
 *   ctas M baseline F pairs S unshared U limit ... (the baseline's limit and waste)
 *
 * and when sharing cannot act, "gpusc: sharing inactive: REASON" goes to standard error (pairs 0).
 * docs/sharing.md.
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/frontend/hostfile.h"
#include "models/lib/occupancy.h"
#include "models/lib/sharing.h"
#include "models/machines/machine.h"

enum { EXIT_OK = 0, EXIT_FIT = 1, EXIT_USAGE = 2 };

static int G_GNUC_PRINTF(2, 3) fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpusc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int main(int argc, char **argv)
{
    char **presets = NULL, **configs = NULL, **sets = NULL;
    gint64 threads = 0, regs = 0, smem = 0;
    char *share = NULL, *threshold = NULL, *percent = NULL;
    GOptionEntry opts[] = {
        {"preset", 0, 0, G_OPTION_ARG_STRING_ARRAY, &presets,
         "A built-in preset (repeatable; default gtx480)", "NAME"},
        {"config", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &configs, "An INI file (repeatable)", "FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override one parameter (repeatable)",
         "SECTION.KEY=VALUE"},
        {"threads-per-cta", 't', 0, G_OPTION_ARG_INT64, &threads, "Threads per CTA (1 to 1024; required)",
         "T"},
        {"regs-per-thread", 'r', 0, G_OPTION_ARG_INT64, &regs,
         "32-bit registers per thread (0, the default: none; at most the SM's max_regs_per_thread)", "R"},
        {"smem-per-cta", 's', 0, G_OPTION_ARG_INT64, &smem, "Scratchpad bytes per CTA (default 0)", "BYTES"},
        {"share", 0, 0, G_OPTION_ARG_STRING, &share, "Resource sharing: none, registers or scratchpad",
         "WHAT"},
        {"threshold", 0, 0, G_OPTION_ARG_STRING, &threshold,
         "Sharing threshold t in (0, 1]: each CTA of a pair keeps t of its units private (default 0.1)", "t"},
        {"sharing-percent", 0, 0, G_OPTION_ARG_STRING, &percent,
         "Percent of sharing P in [0, 100): t = 1 - P/100", "P"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("- CTAs per SM of a kernel on a configured machine");
    g_option_context_add_main_entries(ctx, opts, NULL);
    g_option_context_set_description(
        ctx, "Prints: ctas N limit (registers|scratchpad|threads|ctas|warps) waste-registers R waste-smem B\n"
             "Exit status: 0 success, 1 not even one CTA fits, 2 bad option or configuration.\n");
    GError *err = NULL;
    int rc = EXIT_OK;
    occupancy_sm sm;
    occupancy_result r;
    share_mode mode = SHARE_NONE;
    share_threshold t = {1, 10};
    if (!host_option_parse(ctx, &argc, &argv, &err)) {
        rc = fail(EXIT_USAGE, "%s", err->message);
    } else if (argc > 1) {
        rc = fail(EXIT_USAGE, "unexpected argument '%s' (see --help)", argv[1]);
    } else if (threads == 0) {
        rc = fail(EXIT_USAGE, "--threads-per-cta is required (1 to 1024)");
    } else if (threads < 1 || threads > 1024) {
        rc = fail(EXIT_USAGE, "--threads-per-cta %" G_GINT64_FORMAT " is out of range (1 to 1024)", threads);
    } else if (regs < 0 || regs > 255) {
        rc = fail(EXIT_USAGE, "--regs-per-thread %" G_GINT64_FORMAT " is out of range (0 to 255)", regs);
    } else if (smem < 0 || smem > (gint64)UINT32_MAX) {
        rc = fail(EXIT_USAGE, "--smem-per-cta %" G_GINT64_FORMAT " is out of range (0 to %u)", smem,
                  UINT32_MAX);
    } else if (share && !sharing_parse_mode(share, &mode, &err)) {
        rc = fail(EXIT_USAGE, "%s", err->message);
    } else if ((threshold || percent) && !share) {
        rc = fail(EXIT_USAGE, "--threshold and --sharing-percent need --share registers|scratchpad");
    } else if (threshold && percent) {
        rc = fail(EXIT_USAGE, "--threshold and --sharing-percent say the same thing: give one");
    } else if (threshold && !sharing_parse_threshold(threshold, &t, &err)) {
        rc = fail(EXIT_USAGE, "%s", err->message);
    } else if (percent && !sharing_parse_percent(percent, &t, &err)) {
        rc = fail(EXIT_USAGE, "%s", err->message);
    } else if (!machine_occupancy_config(presets, configs, sets, &sm, &err)) {
        rc = fail(EXIT_USAGE, "%s", err->message);
    } else if (share) {
        occupancy_kernel k = {.regs_per_thread = (unsigned)regs,
                              .smem_static = (unsigned)smem,
                              .threads_per_cta = (unsigned)threads};
        sharing_result sr;
        if (!occupancy_compute(&sm, &k, &r, &err) || !sharing_compute(&sm, &k, mode, t, &sr, &err)) {
            rc = fail(EXIT_FIT, "%s", err->message);
        } else {
            if (!sr.active)
                fprintf(stderr, "gpusc: sharing inactive: %s\n", sr.reason);
            printf("ctas %u baseline %u pairs %u unshared %u limit %s waste-registers %" G_GUINT64_FORMAT
                   " waste-smem %" G_GUINT64_FORMAT "\n",
                   sr.ctas, sr.baseline, sr.pairs, sr.unshared, occupancy_limit_key(r.limiter), r.regs_unused,
                   r.smem_unused);
        }
    } else {
        occupancy_kernel k = {.regs_per_thread = (unsigned)regs,
                              .smem_static = (unsigned)smem,
                              .threads_per_cta = (unsigned)threads};
        if (!occupancy_compute(&sm, &k, &r, &err))
            rc = fail(EXIT_FIT, "%s", err->message);
        else
            printf("ctas %u limit %s waste-registers %" G_GUINT64_FORMAT " waste-smem %" G_GUINT64_FORMAT
                   "\n",
                   r.ctas, occupancy_limit_key(r.limiter), r.regs_unused, r.smem_unused);
    }
    if (err)
        g_error_free(err);
    g_option_context_free(ctx);
    g_strfreev(presets);
    g_strfreev(configs);
    g_strfreev(sets);
    g_free(share);
    g_free(threshold);
    g_free(percent);
    return rc;
}
