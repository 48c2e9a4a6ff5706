/* ptx_parse.h — the PTX front end: text -> ir_module (ir.h).
 *
 * Parses what nvcc emits for ordinary CUDA compute code (module directives, .entry/.func with
 * parameters, .reg declarations including %r<N>, .shared/.local/.const/.global data with
 * initialisers, labels, predicated instructions, { } scopes, call with .param passing) and every
 * instruction family listed in ir.h. Labels are resolved to instruction indices.
 *
 * Errors: a malformed or unsupported construct stops parsing with a GError whose message is
 * "FILE:LINE:COL: message" naming the construct. Never crashes, never hangs, on any input.
 */
#ifndef GPUSC_KERNELS_PTX_PARSE_H
#define GPUSC_KERNELS_PTX_PARSE_H

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

#define PTX_PARSE_ERROR (ptx_parse_error_quark())
GQuark ptx_parse_error_quark(void);
typedef enum { PTX_PARSE_ERROR_IO, PTX_PARSE_ERROR_SYNTAX, PTX_PARSE_ERROR_UNSUPPORTED, PTX_PARSE_ERROR_SEMANTIC } ptx_parse_error_code;

/* Parse a file. Returns NULL and sets *err on failure. */
ir_module *ptx_parse_file(const char *path, GError **err);
/* Parse text; `filename` is used in messages. len = -1 for NUL-terminated text. */
ir_module *ptx_parse_string(const char *text, gssize len, const char *filename, GError **err);

G_END_DECLS

#endif
