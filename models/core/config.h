/* config.h — the effective configuration of a run.
 *
 * Sources, in increasing precedence (a later source wins over an earlier one):
 *   1. the parameters' defaults (from the descriptors);
 *   2. built-in presets, in the order given (cfg_load_preset);
 *   3. INI files (cfg_load_file, --config), in the order given;
 *   4. --set section.key=value overrides (cfg_set), in the order given.
 *
 * Sections: a block type name ([regfile]: every regfile instance) or an instance path
 * ([gpu.sm0.regfile]: that instance only). For one instance, a value from its instance section
 * beats a value from its type section whatever their sources; among equally specific values the
 * later source wins.
 *
 * Validation: a type section is checked when it is loaded; an instance section is checked when the
 * instances exist (cfg_check_instances). An unknown section or key, a value of the wrong type or out
 * of range is reported as
 *     gpusc: FILE:LINE: [section] key: problem
 * (or "preset NAME:LINE", or "--set section.key=value") and the functions return false with a
 * GError holding that message (without the "gpusc: " prefix).
 */
#ifndef GPUSC_MODELS_CORE_CONFIG_H
#define GPUSC_MODELS_CORE_CONFIG_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "models/core/block.h"

G_BEGIN_DECLS

#define CFG_ERROR (cfg_error_quark())
GQuark cfg_error_quark(void);
typedef enum {
    CFG_ERROR_SYNTAX,
    CFG_ERROR_UNKNOWN,
    CFG_ERROR_TYPE,
    CFG_ERROR_RANGE,
    CFG_ERROR_IO
} cfg_error_code;

/* ---- preset registry ---- */
/* A preset is named INI text. Registering the same name twice with the same text is harmless. */
void cfg_preset_register(const char *name, const char *description, const char *ini_text);
unsigned cfg_preset_count(void);
bool cfg_preset_known(const char *name);
void cfg_preset_nth(unsigned i, const char **name, const char **description);

/* ---- the effective configuration ---- */
cfg *cfg_new(void);
void cfg_free(cfg *c);
bool cfg_load_preset(cfg *c, const char *name, GError **err);
bool cfg_load_file(cfg *c, const char *path, GError **err);
/* INI text with an explicit origin name used in messages (origin:LINE). */
bool cfg_load_data(cfg *c, const char *origin, const char *text, GError **err);
/* "section.key=value"; the section is everything before the last dot of the left side. */
bool cfg_set(cfg *c, const char *assignment, GError **err);
/* The same with another source name ("--seed"): messages say "SOURCE section.key=value". */
bool cfg_set_from(cfg *c, const char *assignment, const char *source, GError **err);

/* Where a parameter's value comes from. */
typedef struct {
    const char *text;    /* the value as written */
    const char *source;  /* "default", "preset NAME", "FILE:LINE", "--set", "--seed" (for --dump-config) */
    const char *where;   /* for error messages: "FILE:LINE", "preset NAME:LINE", "--set s.k=v" */
    const char *section; /* the section it was found in (NULL for the default) */
} cfg_value_ref;

/* The value of parameter p for instance `path` of type `type` (instance section first, then type
 * section, then the default). Returns false (and fills *out with the default) when nothing is set. */
bool cfg_lookup(const cfg *c, const char *path, const char *type, const blk_param_desc *p,
                cfg_value_ref *out);

/* Check every instance section against the instances of ctx: the section names an existing
 * instance, and its keys are parameters of that instance's type with valid values. A type section
 * from an INI file or --set must name the type of an instance of ctx: one no instance uses is an
 * error listing the types the program has (presets, which describe several machines, and --seed
 * are exempt). */
bool cfg_check_instances(const cfg *c, const blk_ctx *ctx, GError **err);

/* Print the effective parameters of every instance of ctx as INI (creation order), each value
 * preceded by a comment naming its source. */
void cfg_dump(const blk_ctx *ctx, FILE *out);

G_END_DECLS

#endif /* GPUSC_MODELS_CORE_CONFIG_H */
