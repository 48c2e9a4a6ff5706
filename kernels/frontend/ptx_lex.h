/* ptx_lex.h — the PTX lexer (internal to the front end; used by ptx_parse.c and the fuzzer).
 *
 * One pass, linear in the input, no allocation. Tokens point into the text. Comments (// and
 * block comments) and white space are skipped. A word is a run of identifier characters and dots
 * (`ld.global.nc.f32`, `%tid.x`, `.reg`, `$L__BB0_2`, `L1::evict_last`): the parser splits it.
 * Columns are 1-based byte offsets in the line (a tab counts as one column).
 */
#ifndef GPUSC_KERNELS_PTX_LEX_H
#define GPUSC_KERNELS_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    PTX_TOK_EOF = 0,
    PTX_TOK_WORD,   /* identifiers, directives, opcodes with modifiers, registers */
    PTX_TOK_INT,    /* 123, 0x1F, 017, 0b101, with optional U suffix */
    PTX_TOK_FBITS,  /* 0fXXXXXXXX (f32 bits) or 0dXXXXXXXXXXXXXXXX (f64 bits) */
    PTX_TOK_FLOAT,  /* 1.5, 2e10 */
    PTX_TOK_STRING, /* "..." (text includes the quotes) */
    PTX_TOK_PUNCT,  /* one character of , ; : ( ) [ ] { } < > + - @ ! | = */
    PTX_TOK_ERROR   /* a lexical error: message in ptx_lexer.error */
} ptx_tok_kind;

typedef struct {
    ptx_tok_kind kind;
    const char *text;
    size_t len;
    uint32_t line, col;
} ptx_token;

typedef struct {
    const char *p, *end;
    const char *line_start;
    uint32_t line;
    const char *error; /* static message of the last PTX_TOK_ERROR */
} ptx_lexer;

void ptx_lexer_init(ptx_lexer *lx, const char *text, size_t len);
/* The next token. After PTX_TOK_EOF or PTX_TOK_ERROR it keeps returning the same kind. */
ptx_token ptx_lexer_next(ptx_lexer *lx);

#endif
