/* ptx_lex.c — the PTX lexer (see ptx_lex.h). */
#include "kernels/frontend/ptx_lex.h"

#include <stdbool.h>
#include <string.h>

void ptx_lexer_init(ptx_lexer *lx, const char *text, size_t len)
{
    lx->p = text;
    lx->end = text + len;
    lx->line_start = text;
    lx->line = 1;
    lx->error = NULL;
}

static bool is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static void lexer_newline(ptx_lexer *lx)
{
    lx->line++;
    lx->line_start = lx->p;
}

/* Skips blanks and comments. Returns false (and sets the error, leaving p at the comment) for an
 * unterminated block comment. */
static bool lexer_skip(ptx_lexer *lx)
{
    while (lx->p < lx->end) {
        unsigned char c = (unsigned char)*lx->p;
        if (c == '\n') {
            lx->p++;
            lexer_newline(lx);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
            const char *q = lx->p + 2;
            const char *ls = lx->line_start;
            uint32_t line = lx->line;
            while (q + 1 < lx->end && !(q[0] == '*' && q[1] == '/')) {
                if (*q == '\n') {
                    line++;
                    ls = q + 1;
                }
                q++;
            }
            if (q + 1 >= lx->end) {
                lx->error = "unterminated comment";
                return false;
            }
            lx->p = q + 2;
            lx->line = line;
            lx->line_start = ls;
        } else {
            return true;
        }
    }
    return true;
}

static ptx_token lexer_number(ptx_lexer *lx, ptx_token t)
{
    const char *p = lx->p;
    if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        size_t want = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        size_t n = 0;
        while (p + 2 + n < lx->end && is_hex((unsigned char)p[2 + n]))
            n++;
        if (n != want || (p + 2 + n < lx->end && is_ident_char((unsigned char)p[2 + n]))) {
            lx->error = want == 8 ? "bad f32 literal (0f and 8 hex digits)" : "bad f64 literal (0d and 16 hex digits)";
            t.kind = PTX_TOK_ERROR;
            return t;
        }
        t.kind = PTX_TOK_FBITS;
        p += 2 + n;
    } else if (p[0] == '0' && p + 1 < lx->end && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        const char *d = p;
        while (p < lx->end && is_hex((unsigned char)*p))
            p++;
        if (p == d) {
            lx->error = "bad hexadecimal literal";
            t.kind = PTX_TOK_ERROR;
            return t;
        }
        t.kind = PTX_TOK_INT;
        if (p < lx->end && (*p == 'U' || *p == 'u'))
            p++;
    } else {
        t.kind = PTX_TOK_INT;
        while (p < lx->end && *p >= '0' && *p <= '9')
            p++;
        if (p < lx->end && (*p == '.' || *p == 'e' || *p == 'E')) {
            t.kind = PTX_TOK_FLOAT;
            if (*p == '.') {
                p++;
                while (p < lx->end && *p >= '0' && *p <= '9')
                    p++;
            }
            if (p < lx->end && (*p == 'e' || *p == 'E')) {
                p++;
                if (p < lx->end && (*p == '+' || *p == '-'))
                    p++;
                const char *d = p;
                while (p < lx->end && *p >= '0' && *p <= '9')
                    p++;
                if (p == d) {
                    lx->error = "bad floating-point literal";
                    t.kind = PTX_TOK_ERROR;
                    return t;
                }
            }
        } else if (p < lx->end && (*p == 'U' || *p == 'u')) {
            p++;
        } else if (p - lx->p == 1 && p < lx->end && (*p == 'b' || *p == 'B')) {
            p++;
            while (p < lx->end && (*p == '0' || *p == '1'))
                p++;
            if (p < lx->end && (*p == 'U' || *p == 'u'))
                p++;
        }
    }
    if (p < lx->end && is_ident_char((unsigned char)*p)) {
        lx->error = "bad numeric literal";
        t.kind = PTX_TOK_ERROR;
        return t;
    }
    t.len = (size_t)(p - lx->p);
    lx->p = p;
    return t;
}

/* Words: identifier characters and dots; `::` inside a word is kept (cache-hint modifiers). */
static ptx_token lexer_word(ptx_lexer *lx, ptx_token t)
{
    const char *p = lx->p;
    while (p < lx->end) {
        if (is_ident_char((unsigned char)*p))
            p++;
        else if (*p == ':' && p + 2 < lx->end && p[1] == ':' && is_ident_char((unsigned char)p[2]))
            p += 2;
        else
            break;
    }
    t.kind = PTX_TOK_WORD;
    t.len = (size_t)(p - lx->p);
    lx->p = p;
    return t;
}

static ptx_token lexer_string(ptx_lexer *lx, ptx_token t)
{
    const char *p = lx->p + 1;
    while (p < lx->end && *p != '"' && *p != '\n') {
        if (*p == '\\' && p + 1 < lx->end && p[1] != '\n')
            p++;
        p++;
    }
    if (p >= lx->end || *p != '"') {
        lx->error = "unterminated string";
        t.kind = PTX_TOK_ERROR;
        return t;
    }
    p++;
    t.kind = PTX_TOK_STRING;
    t.len = (size_t)(p - lx->p);
    lx->p = p;
    return t;
}

ptx_token ptx_lexer_next(ptx_lexer *lx)
{
    ptx_token t = { PTX_TOK_EOF, lx->p, 0, lx->line, 0 };
    if (lx->error) {
        t.kind = PTX_TOK_ERROR;
        t.col = (uint32_t)(lx->p - lx->line_start) + 1;
        return t;
    }
    bool ok = lexer_skip(lx);
    t.text = lx->p;
    t.line = lx->line;
    t.col = (uint32_t)(lx->p - lx->line_start) + 1;
    if (!ok) {
        t.kind = PTX_TOK_ERROR;
        return t;
    }
    if (lx->p >= lx->end)
        return t;
    unsigned char c = (unsigned char)*lx->p;
    if (c >= '0' && c <= '9')
        return lexer_number(lx, t);
    if (is_ident_start(c))
        return lexer_word(lx, t);
    if (c == '"')
        return lexer_string(lx, t);
    if (strchr(",;:()[]{}<>+-@!|=", c) && c != '\0') {
        t.kind = PTX_TOK_PUNCT;
        t.len = 1;
        lx->p++;
        return t;
    }
    lx->error = "unexpected character";
    t.kind = PTX_TOK_ERROR;
    return t;
}
