/* fuzz_config.c — libFuzzer target for the configuration loader (INI text and --set).
 *
 * Two block types with a parameter of every kind (ranges, an enum, a string) are registered. Every
 * input is loaded as an INI text, and each of its lines is given to --set; every outcome must be
 *   - an error naming the origin and a line of the text ("fuzz.ini:LINE: ...", 1 <= LINE <= the
 *     text's lines) or the assignment ("--set ..."), never a crash, a hang, an abort or a GLib
 *     warning; or
 *   - a configuration in which every value of a type section of a known type parses (it was
 *     validated when loaded) and comes from a line of the text.
 * Built with clang -fsanitize=fuzzer,address,undefined by models/core/local.mk (`make
 * models/core/fuzz/fuzz_config` where configure found clang); run by tests/core/fuzz_config_short.sh on
 * a copy of models/core/fuzz/corpus/. The loader and the registry (config.c, block.c) are compiled
 * in, with clang's coverage; what else they refer to comes from the built libgpusc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/core/block.h"
#include "models/core/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const policies[] = {"lrr", "gto", NULL};
static const blk_param_desc alpha_params[] = {
    {"count", BLK_PARAM_UINT, "4", "1", "64", NULL, "entries", "a bounded count"},
    {"offset", BLK_PARAM_INT, "0", "-5", "5", NULL, "cycles", "a bounded signed number"},
    {"ratio", BLK_PARAM_DOUBLE, "0.5", "0", "1", NULL, NULL, "a fraction"},
    {"enabled", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, NULL, "a switch"},
    {"policy", BLK_PARAM_ENUM, "lrr", NULL, NULL, policies, NULL, "a choice"},
    {"log", BLK_PARAM_STRING, "", NULL, NULL, NULL, NULL, "a file name"},
};
static const blk_param_desc beta_params[] = {
    {"size", BLK_PARAM_UINT, "0", NULL, NULL, NULL, "bytes", "an unbounded size"},
    {"scale", BLK_PARAM_DOUBLE, "1", NULL, NULL, NULL, NULL, "an unbounded number"},
};
static const blk_desc alpha_desc = {"alpha", "the fuzzer's first block type", "", NULL, 0, alpha_params,
                                    BLK_N(alpha_params), NULL, 0, NULL, 0, NULL};
static const blk_desc beta_desc = {"beta", "the fuzzer's second block type", "", NULL, 0, beta_params,
                                   BLK_N(beta_params), NULL, 0, NULL, 0, NULL};

static void check_located(const GError *err, const char *text)
{
    unsigned line = 0, lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    if (!err || sscanf(err->message, "fuzz.ini:%u:", &line) != 1 || line == 0 || line > lines) {
        fprintf(stderr, "badly located error: %s\n", err ? err->message : "(none)");
        abort();
    }
}

static void check_values(const cfg *c, const blk_desc *d)
{
    for (unsigned i = 0; i < d->n_params; i++) {
        cfg_value_ref ref;
        if (!cfg_lookup(c, "top.x", d->name, &d->params[i], &ref) || !ref.section ||
            strcmp(ref.section, d->name) != 0)
            continue; /* the default, or an instance section (checked against the instances later) */
        blk_value v;
        char *problem = NULL;
        unsigned line = 0;
        if (!blk_value_parse(&d->params[i], ref.text, &v, &problem) ||
            (strncmp(ref.where, "--set", 5) != 0 && (sscanf(ref.where, "fuzz.ini:%u", &line) != 1 || !line))) {
            fprintf(stderr, "[%s] %s = '%s' from %s was accepted: %s\n", d->name, d->params[i].name, ref.text,
                    ref.where, problem ? problem : "it parses");
            abort();
        }
        blk_value_clear(&v);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool registered;
    if (!registered) {
        /* a GLib warning (a GError set twice) is a bug of the loader's: it aborts the run */
        g_log_set_always_fatal(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
        blk_registry_add(&alpha_desc);
        blk_registry_add(&beta_desc);
        registered = true;
    }
    char *text = g_strndup((const char *)data, size); /* up to a NUL byte (a file's is refused before) */
    GError *err = NULL;
    cfg *c = cfg_new();
    if (cfg_load_data(c, "fuzz.ini", text, &err)) {
        check_values(c, &alpha_desc);
        check_values(c, &beta_desc);
    } else {
        check_located(err, text);
        g_clear_error(&err);
    }
    cfg_free(c);
    c = cfg_new();
    char **lines = g_strsplit(text, "\n", 64);
    for (char **l = lines; *l; l++) {
        if (!cfg_set(c, *l, &err)) {
            if (!g_str_has_prefix(err->message, "--set ")) {
                fprintf(stderr, "badly located error: %s\n", err->message);
                abort();
            }
            g_clear_error(&err);
        }
    }
    check_values(c, &alpha_desc);
    check_values(c, &beta_desc);
    g_strfreev(lines);
    cfg_free(c);
    g_free(text);
    return 0;
}
