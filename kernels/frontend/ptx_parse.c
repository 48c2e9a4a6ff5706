/* ptx_parse.c — the PTX front end: text -> ir_module (see ptx_parse.h, docs/ptx-frontend.md).
 *
 * A recursive-descent parser over the tokens of ptx_lex.c with one token of lookahead. The first
 * error stops parsing: fail() formats "FILE:LINE:COL: message" and longjmps back to the entry point,
 * which frees everything. So every heap object is owned, at every moment, either by the module under
 * construction or by the parser state (never by a local variable across a call that may fail).
 */
#include "kernels/frontend/ptx_parse.h"

#include "kernels/frontend/hostfile.h"
#include "kernels/frontend/ptx_lex.h"
#include "kernels/frontend/spu_isa.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PTX_MAX_PARTS 16           /* modifiers of one opcode */
#define PTX_MAX_OPNDS 8            /* operands of one instruction (before assignment) */
#define PTX_MAX_VEC_REGS (1u << 18) /* one %r<N> declaration */
#define PTX_MAX_FUNC_REGS (1u << 20)
#define PTX_MAX_INIT_BYTES (64u << 20)
#define PTX_MAX_ARRAY_BYTES (UINT64_C(1) << 40)

G_DEFINE_QUARK(ptx-parse-error-quark, ptx_parse_error)

/* Values of the scope tables: kind in the low 2 bits, index above. */
enum { NAME_REG = 1, NAME_SYM = 2 };

typedef struct {
    uint32_t instr, line, col;
    uint8_t slot;
    char *name;
} label_fixup;

typedef struct {
    ptx_token tok;       /* the operand's first token (messages) */
    ir_operand o;
    int lit;             /* LIT_*: how an IMM was written, for typing it later */
    double fval;         /* LIT_FLOAT value */
    bool piped;          /* written as the second half of `a|b` */
    char *label;         /* a label name (bra), owned by the parser's string pool */
} raw_operand;

enum { LIT_NONE = 0, LIT_INT, LIT_F32BITS, LIT_F64BITS, LIT_FLOAT };

typedef struct {
    ptx_lexer lx;
    ptx_token tok, nxt;
    bool has_nxt;
    const char *filename;
    ir_module *m;
    GError *error;
    jmp_buf jb;
    GHashTable *funcs;        /* name -> func index + 1 */
    GHashTable *undeclared;   /* func index -> label_fixup* of the first call (called, never declared) */
    GHashTable *msyms;        /* module-scope symbol name -> index + 1 */
    GPtrArray *strings;       /* parser-owned strings */
    GString *tmp;
    /* the function being parsed */
    ir_func *f;
    uint32_t fi;
    GPtrArray *scope_tables;  /* GHashTable* (name -> NAME_* | index << 2), innermost last */
    GArray *scope_ids;        /* uint32_t: ir_lexscope index for each open table */
    GHashTable *labels;       /* name -> instruction index + 1 */
    GArray *fixups;           /* label_fixup */
    GArray *ret_scratch;      /* ir_param: return parameters read before the function is known */
} ptx_parser;

/* ---- errors and tokens ------------------------------------------------------------------------ */
G_GNUC_PRINTF(3, 4) G_GNUC_NORETURN
static void fail_at(ptx_parser *P, const ptx_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    int code = PTX_PARSE_ERROR_SYNTAX;
    if (g_str_has_prefix(msg, "unsupported"))
        code = PTX_PARSE_ERROR_UNSUPPORTED;
    P->error = g_error_new(PTX_PARSE_ERROR, code, "%s:%u:%u: %s", P->filename, t->line, t->col, msg);
    g_free(msg);
    longjmp(P->jb, 1);
}

G_GNUC_PRINTF(5, 6) G_GNUC_NORETURN
static void fail_sem(ptx_parser *P, uint32_t line, uint32_t col, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    P->error = g_error_new(PTX_PARSE_ERROR, code, "%s:%u:%u: %s", P->filename, line, col, msg);
    g_free(msg);
    longjmp(P->jb, 1);
}

/* A parser-owned copy of a token's text (lives until the parse ends). */
static char *tok_dup(ptx_parser *P, const ptx_token *t)
{
    char *s = g_strndup(t->text, t->len);
    g_ptr_array_add(P->strings, s);
    return s;
}

/* The token's text in a scratch buffer (valid until the next call). */
static const char *tok_str(ptx_parser *P, const ptx_token *t)
{
    g_string_assign(P->tmp, "");
    g_string_append_len(P->tmp, t->text, (gssize)t->len);
    return P->tmp->str;
}

/* Quoted for messages (truncated). */
static const char *tok_show(ptx_parser *P, const ptx_token *t)
{
    if (t->kind == PTX_TOK_EOF)
        return "end of file";
    g_string_assign(P->tmp, "'");
    g_string_append_len(P->tmp, t->text, (gssize)MIN(t->len, 60));
    g_string_append(P->tmp, t->len > 60 ? "...'" : "'");
    return P->tmp->str;
}

static ptx_token lex_one(ptx_parser *P)
{
    ptx_token t = ptx_lexer_next(&P->lx);
    if (t.kind == PTX_TOK_ERROR) {
        unsigned char c = t.text < P->lx.end ? (unsigned char)*t.text : 0;
        if (t.text < P->lx.end && (c >= 0x80 || c < 0x20 || c == 0x7f))
            fail_at(P, &t, "unexpected byte 0x%02x", (unsigned char)*t.text);
        if (t.text < P->lx.end && *t.text != '/' && P->lx.error && strcmp(P->lx.error, "unexpected character") == 0)
            fail_at(P, &t, "unexpected character '%c'", *t.text);
        fail_at(P, &t, "%s", P->lx.error ? P->lx.error : "lexical error");
    }
    return t;
}

static void advance(ptx_parser *P)
{
    if (P->has_nxt) {
        P->tok = P->nxt;
        P->has_nxt = false;
    } else {
        P->tok = lex_one(P);
    }
}

static const ptx_token *peek2(ptx_parser *P)
{
    if (!P->has_nxt) {
        P->nxt = lex_one(P);
        P->has_nxt = true;
    }
    return &P->nxt;
}

static bool tok_eq(const ptx_token *t, const char *s)
{
    size_t n = strlen(s);
    return (t->kind == PTX_TOK_WORD || t->kind == PTX_TOK_PUNCT) && t->len == n && memcmp(t->text, s, n) == 0;
}

static bool is_punct(const ptx_token *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->text[0] == c;
}

static void expect_punct(ptx_parser *P, char c, const char *what)
{
    if (!is_punct(&P->tok, c))
        fail_at(P, &P->tok, "expected '%c' %s, got %s", c, what, tok_show(P, &P->tok));
    advance(P);
}

static bool accept_punct(ptx_parser *P, char c)
{
    if (!is_punct(&P->tok, c))
        return false;
    advance(P);
    return true;
}

static ptx_token expect_word(ptx_parser *P, const char *what)
{
    if (P->tok.kind != PTX_TOK_WORD)
        fail_at(P, &P->tok, "expected %s, got %s", what, tok_show(P, &P->tok));
    ptx_token t = P->tok;
    advance(P);
    return t;
}

/* Integer literal text -> value. false on overflow or bad digits. */
static bool int_value(const ptx_token *t, uint64_t *out)
{
    const char *p = t->text, *e = t->text + t->len;
    if (e > p && (e[-1] == 'U' || e[-1] == 'u'))
        e--;
    unsigned base = 10;
    if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (e - p > 2 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    } else if (e - p > 1 && p[0] == '0') {
        base = 8;
        p++;
    }
    if (p == e)
        return false;
    uint64_t v = 0;
    for (; p < e; p++) {
        unsigned d;
        char c = *p;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return false;
        if (d >= base || v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

static uint64_t expect_uint(ptx_parser *P, const char *what)
{
    uint64_t v;
    if (P->tok.kind != PTX_TOK_INT)
        fail_at(P, &P->tok, "expected %s, got %s", what, tok_show(P, &P->tok));
    if (!int_value(&P->tok, &v))
        fail_at(P, &P->tok, "bad integer literal %s", tok_show(P, &P->tok));
    advance(P);
    return v;
}

static uint64_t hex_bits(const ptx_token *t)
{
    uint64_t v = 0;
    for (size_t i = 2; i < t->len; i++) {
        char c = t->text[i];
        unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
        v = (v << 4) | d;
    }
    return v;
}

/* Skips the rest of the current line (.loc, .file). */
static void skip_line(ptx_parser *P)
{
    uint32_t line = P->tok.line;
    while (P->tok.kind != PTX_TOK_EOF && P->tok.line == line)
        advance(P);
}

/* ---- scopes and names ---------------------------------------------------------------------------- */
static GHashTable *scope_top(ptx_parser *P)
{
    return g_ptr_array_index(P->scope_tables, P->scope_tables->len - 1);
}

static uint32_t scope_id(ptx_parser *P)
{
    return P->scope_ids->len ? g_array_index(P->scope_ids, uint32_t, P->scope_ids->len - 1) : 0;
}

/* NAME_* | index << 2, or 0. Innermost scope first; module symbols last. */
static uintptr_t name_lookup(ptx_parser *P, const char *name)
{
    if (P->scope_tables) {
        for (guint i = P->scope_tables->len; i-- > 0;) {
            gpointer v = g_hash_table_lookup(g_ptr_array_index(P->scope_tables, i), name);
            if (v)
                return GPOINTER_TO_SIZE(v);
        }
    }
    gpointer v = g_hash_table_lookup(P->msyms, name);
    return v ? ((GPOINTER_TO_SIZE(v) - 1) << 2) | NAME_SYM : 0;
}

static ir_sym *sym_at(ptx_parser *P, uint32_t i)
{
    return &g_array_index(P->m->syms, ir_sym, i);
}

static ir_reg *reg_at(ptx_parser *P, uint32_t i)
{
    return &g_array_index(P->f->regs, ir_reg, i);
}

/* Declares a name in the innermost scope (or the module); error if it is already declared there. */
static void name_declare(ptx_parser *P, const ptx_token *at, const char *name, uintptr_t code)
{
    GHashTable *h = P->f ? scope_top(P) : P->msyms;
    if (g_hash_table_contains(h, name))
        fail_at(P, at, "duplicate declaration of '%s'", name);
    if (!P->f && g_hash_table_contains(P->funcs, name))
        fail_at(P, at, "'%s' is already declared as a function", name);
    g_hash_table_insert(h, (gpointer)name, P->f ? GSIZE_TO_POINTER(code) : GSIZE_TO_POINTER((code >> 2) + 1));
}

static uint32_t sym_add(ptx_parser *P, const ptx_token *at, ir_sym *s)
{
    s->func = P->f ? P->fi : IR_NONE;
    s->scope = P->f ? scope_id(P) : 0;
    s->line = at->line;
    uint32_t idx = P->m->syms->len;
    g_array_append_val(P->m->syms, *s);
    name_declare(P, at, sym_at(P, idx)->name, ((uintptr_t)idx << 2) | NAME_SYM);
    return idx;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ---- declarations ------------------------------------------------------------------------------ */
static bool is_type_word(const ptx_token *t, ir_type *out)
{
    if (t->kind != PTX_TOK_WORD || t->len < 2 || t->len > 6 || t->text[0] != '.')
        return false;
    char buf[8];
    memcpy(buf, t->text + 1, t->len - 1);
    buf[t->len - 1] = '\0';
    *out = ir_type_from_name(buf);
    return *out != IR_T_NONE;
}

static ir_space space_of(const ptx_token *t)
{
    static const struct { const char *n; ir_space s; } map[] = {
        { ".global", IR_SPACE_GLOBAL }, { ".shared", IR_SPACE_SHARED }, { ".local", IR_SPACE_LOCAL },
        { ".const", IR_SPACE_CONST },   { ".param", IR_SPACE_PARAM },   { ".reg", IR_SPACE_REG },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(map); i++)
        if (tok_eq(t, map[i].n))
            return map[i].s;
    return IR_SPACE_NONE;
}

static uint32_t parse_align(ptx_parser *P)
{
    ptx_token at = P->tok;
    uint64_t a = expect_uint(P, "an alignment");
    if (a == 0 || (a & (a - 1)) || a > 4096)
        fail_at(P, &at, "bad alignment %" G_GUINT64_FORMAT " (a power of two up to 4096)", a);
    return (uint32_t)a;
}

/* The state-space-independent part of a variable declaration: attributes and type. */
typedef struct {
    ir_type type;
    uint32_t align;
    ptx_token type_tok;
} var_head;

static void parse_var_head(ptx_parser *P, var_head *h, bool in_param_list)
{
    h->type = IR_T_NONE;
    h->align = 0;
    for (;;) {
        ir_type t;
        if (tok_eq(&P->tok, ".align")) {
            advance(P);
            h->align = parse_align(P);
        } else if (is_type_word(&P->tok, &t)) {
            if (h->type != IR_T_NONE)
                fail_at(P, &P->tok, "two types in a declaration");
            h->type_tok = P->tok;
            h->type = t;
            advance(P);
        } else if (in_param_list && P->tok.kind == PTX_TOK_WORD && P->tok.len >= 4 &&
                   memcmp(P->tok.text, ".ptr", 4) == 0 && (P->tok.len == 4 || P->tok.text[4] == '.')) {
            /* `.ptr [.space] [.align N]`, also written `.ptr.global.align N`: an attribute for the
             * optimiser; the value is an address either way. */
            bool align_follows = P->tok.len >= 10 && memcmp(P->tok.text + P->tok.len - 6, ".align", 6) == 0;
            advance(P);
            if (!align_follows && space_of(&P->tok) != IR_SPACE_NONE)
                advance(P);
            if (!align_follows && tok_eq(&P->tok, ".align")) {
                advance(P);
                align_follows = true;
            }
            if (align_follows)
                parse_align(P); /* the pointee's alignment, not the parameter's */
        } else if (tok_eq(&P->tok, ".v2") || tok_eq(&P->tok, ".v4") || tok_eq(&P->tok, ".v8")) {
            fail_at(P, &P->tok, "unsupported vector variable declaration %s", tok_show(P, &P->tok));
        } else {
            break;
        }
    }
    if (h->type == IR_T_NONE)
        fail_at(P, &P->tok, "expected a type in the declaration, got %s", tok_show(P, &P->tok));
    if (h->type == IR_T_PRED)
        fail_at(P, &h->type_tok, "a .pred variable must be a .reg");
    if (!h->align)
        h->align = MAX(ir_type_bits(h->type) / 8, 1u);
}

/* `[N]` dimensions after a name: the element count (0 for `[]` = unsized). */
static uint64_t parse_dims(ptx_parser *P, uint64_t elem, bool *unsized, bool *is_array)
{
    uint64_t count = 1;
    *unsized = false;
    *is_array = false;
    while (is_punct(&P->tok, '[')) {
        ptx_token at = P->tok;
        advance(P);
        *is_array = true;
        if (accept_punct(P, ']')) {
            if (*unsized)
                fail_at(P, &at, "only the first dimension may be unsized");
            *unsized = true;
            continue;
        }
        uint64_t n = expect_uint(P, "an array size");
        if (n == 0 || count > PTX_MAX_ARRAY_BYTES / n || count * n > PTX_MAX_ARRAY_BYTES / elem)
            fail_at(P, &at, "bad array size");
        count *= n;
        expect_punct(P, ']', "after the array size");
    }
    return count;
}

/* Stores one initialiser element of type t at element index k. */
static void init_store(ptx_parser *P, ir_sym *s, uint64_t k, const ptx_token *at, bool negative)
{
    unsigned esz = MAX(ir_type_bits((ir_type)s->type) / 8, 1u);
    ir_type t = (ir_type)s->type;
    uint64_t bits;
    if (at->kind == PTX_TOK_INT) {
        uint64_t v;
        if (!int_value(at, &v))
            fail_at(P, at, "bad integer literal %s", tok_show(P, at));
        if (negative)
            v = (UINT64_C(0) - v);
        if (t == IR_T_F32) {
            float f = negative ? (float)(int64_t)v : (float)v;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        } else if (t == IR_T_F64) {
            double d = negative ? (double)(int64_t)v : (double)v;
            memcpy(&bits, &d, 8);
        } else {
            bits = v;
        }
    } else if (at->kind == PTX_TOK_FBITS || at->kind == PTX_TOK_FLOAT) {
        double d;
        bool is32 = at->kind == PTX_TOK_FBITS && (at->text[1] | 0x20) == 'f';
        if (at->kind == PTX_TOK_FLOAT) {
            d = g_ascii_strtod(tok_str(P, at), NULL);
        } else if (is32) {
            uint32_t u = (uint32_t)hex_bits(at);
            float f;
            memcpy(&f, &u, 4);
            d = f;
        } else {
            uint64_t u = hex_bits(at);
            memcpy(&d, &u, 8);
        }
        if (negative)
            d = -d;
        if (t == IR_T_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        } else if (t == IR_T_F64) {
            memcpy(&bits, &d, 8);
        } else if (at->kind == PTX_TOK_FBITS && !negative) {
            bits = hex_bits(at);
        } else {
            fail_at(P, at, "floating-point initialiser for a .%s variable", ir_type_name(t));
        }
    } else {
        fail_at(P, at, "expected an initialiser value, got %s", tok_show(P, at));
    }
    memcpy(s->init + k * esz, &bits, MIN(esz, 8u)); /* little-endian host */
}

/* `generic(name)[+N]` or `name[+N]` (N may also be subtracted): element k of symbol si holds that
 * address, or one byte of it when mask_byte is not 0 (see ir_init_addr). Recorded for the loader;
 * the element's bytes stay zero. */
static void parse_init_addr(ptx_parser *P, uint32_t si, uint64_t k, uint8_t mask_byte, const ptx_token *first)
{
    ir_type t = (ir_type)sym_at(P, si)->type;
    unsigned bits = ir_type_bits(t);
    if (ir_type_is_float(t) || t == IR_T_PRED)
        fail_at(P, first, "address initialiser for a .%s variable", ir_type_name(t));
    if (mask_byte && bits != 8)
        fail_at(P, first, "unsupported masked address initialiser for a .%s variable (only 8-bit elements)",
                ir_type_name(t));
    if (!mask_byte && bits != 32 && bits != 64)
        fail_at(P, first, "an address initialiser needs a 32- or 64-bit element, not .%s", ir_type_name(t));
    bool generic = tok_eq(&P->tok, "generic") && is_punct(peek2(P), '(');
    if (generic) {
        advance(P);
        advance(P);
    }
    ptx_token name = P->tok;
    if (name.kind != PTX_TOK_WORD)
        fail_at(P, &name, "unsupported initialiser expression %s (expected a variable name)",
                tok_show(P, &name));
    const char *nm = tok_str(P, &name);
    uintptr_t v = name_lookup(P, nm);
    if (!v && g_hash_table_contains(P->funcs, nm))
        fail_at(P, &name, "unsupported address initialiser: the address of function '%s'", nm);
    if ((v & 3) != NAME_SYM)
        fail_at(P, &name, "undeclared variable '%s' in the address initialiser", nm);
    uint32_t target = (uint32_t)(v >> 2);
    ir_space sp = (ir_space)sym_at(P, target)->space;
    if (sp != IR_SPACE_GLOBAL && sp != IR_SPACE_CONST)
        fail_at(P, &name, "unsupported address initialiser: '%s' is a .%s variable (only .global and .const)",
                nm, ir_space_name(sp));
    advance(P);
    if (generic)
        expect_punct(P, ')', "after generic(name");
    int64_t addend = 0;
    if (is_punct(&P->tok, '+') || is_punct(&P->tok, '-')) {
        bool minus = is_punct(&P->tok, '-');
        advance(P);
        uint64_t n = expect_uint(P, "an offset after the address");
        addend = (int64_t)(minus ? UINT64_C(0) - n : n);
    }
    ir_sym *s = sym_at(P, si);
    if (!s->init_addrs)
        s->init_addrs = g_array_new(FALSE, FALSE, sizeof(ir_init_addr));
    ir_init_addr a = {.elem = k, .sym = target, .generic = generic, .mask_byte = mask_byte, .addend = addend};
    g_array_append_val(s->init_addrs, a);
}

/* One initialiser element at index k: a literal (optionally negated), an address, or a masked
 * address `0xFF00(generic(name)+N)`. Consumes its tokens. */
static void parse_init_elem(ptx_parser *P, uint32_t si, uint64_t k)
{
    ptx_token first = P->tok;
    if (first.kind == PTX_TOK_WORD) {
        parse_init_addr(P, si, k, 0, &first);
        return;
    }
    if (first.kind == PTX_TOK_INT && is_punct(peek2(P), '(')) {
        uint64_t mask;
        if (!int_value(&first, &mask))
            fail_at(P, &first, "bad integer literal %s", tok_show(P, &first));
        unsigned byte = 0;
        while (byte < 8 && mask != UINT64_C(0xff) << (8 * byte))
            byte++;
        if (byte == 8)
            fail_at(P, &first, "bad initialiser mask %s (0xFF shifted by whole bytes)", tok_show(P, &first));
        advance(P);
        advance(P);
        if (P->tok.kind != PTX_TOK_WORD)
            fail_at(P, &P->tok, "unsupported initialiser expression %s (expected an address)",
                    tok_show(P, &P->tok));
        parse_init_addr(P, si, k, (uint8_t)(byte + 1), &first);
        expect_punct(P, ')', "after the masked address");
        return;
    }
    bool neg = accept_punct(P, '-');
    ptx_token v = P->tok;
    init_store(P, sym_at(P, si), k, &v, neg);
    advance(P);
}

/* Initialiser elements, flattened ({{1,2},{3,4}} = {1,2,3,4}). Returns the element count. */
static uint64_t parse_init_list(ptx_parser *P, uint32_t si, uint64_t k, uint64_t max, unsigned depth)
{
    ptx_token open = P->tok;
    expect_punct(P, '{', "to open the initialiser list");
    if (depth > 8)
        fail_at(P, &open, "initialiser nested too deeply");
    for (;;) {
        if (is_punct(&P->tok, '{')) {
            k = parse_init_list(P, si, k, max, depth + 1);
        } else {
            if (k >= max)
                fail_at(P, &P->tok, "too many initialisers (the variable has %" G_GUINT64_FORMAT " elements)", max);
            parse_init_elem(P, si, k);
            k++;
        }
        if (accept_punct(P, '}'))
            return k;
        expect_punct(P, ',', "or '}' in the initialiser list");
    }
}

/* Counts the elements of an initialiser list without consuming it is not possible with one token of
 * lookahead, so unsized initialised arrays are parsed into a maximal buffer and shrunk. */
static void parse_initialiser(ptx_parser *P, uint32_t si, bool unsized, const ptx_token *eq)
{
    ir_sym *s = sym_at(P, si);
    unsigned esz = MAX(ir_type_bits((ir_type)s->type) / 8, 1u);
    if (s->space != IR_SPACE_GLOBAL && s->space != IR_SPACE_CONST)
        fail_at(P, eq, "only .global and .const variables take initialisers");
    uint64_t max = unsized ? (uint64_t)(PTX_MAX_INIT_BYTES / esz) : s->size / esz;
    if (!unsized && s->size > PTX_MAX_INIT_BYTES)
        fail_at(P, eq, "unsupported initialised variable larger than %u bytes", PTX_MAX_INIT_BYTES);
    /* Unsized: grow as elements come; a list can not exceed the input length anyway. */
    uint64_t cap = unsized ? MIN(max, (uint64_t)(P->lx.end - P->tok.text) + 1) : max;
    s->init = g_malloc0(MAX(cap * esz, 1));
    uint64_t n;
    if (is_punct(&P->tok, '{')) {
        n = parse_init_list(P, si, 0, cap, 0);
    } else {
        if (cap < 1)
            fail_at(P, &P->tok, "too many initialisers");
        parse_init_elem(P, si, 0);
        n = 1;
    }
    s = sym_at(P, si);
    if (unsized) {
        s->size = n * esz;
        s->init = g_realloc(s->init, MAX(s->size, 1));
    }
}

static void layout_sym(ptx_parser *P, ir_sym *s)
{
    uint64_t *seg = NULL;
    if (s->is_extern)
        return;
    if (P->f && s->space == IR_SPACE_SHARED)
        seg = &P->f->shared_bytes;
    else if (P->f && s->space == IR_SPACE_LOCAL)
        seg = &P->f->local_bytes;
    else if (s->space == IR_SPACE_SHARED)
        seg = &P->m->shared_static_bytes;
    else if (s->space == IR_SPACE_CONST)
        seg = &P->m->const_bytes;
    else if (s->space == IR_SPACE_GLOBAL)
        seg = &P->m->global_bytes;
    if (!seg)
        return;
    s->offset = align_up(*seg, s->align);
    *seg = s->offset + s->size;
}

/* `.global/.const/.shared/.local/.param [attrs] .type name[dims] [= init] {, name...};` with the
 * space word already consumed. */
static void parse_var_decl(ptx_parser *P, ir_space space, bool is_extern, bool is_visible)
{
    var_head h;
    parse_var_head(P, &h, false);
    unsigned esz = MAX(ir_type_bits(h.type) / 8, 1u);
    for (;;) {
        ptx_token name = expect_word(P, "a variable name");
        if (is_punct(&P->tok, '<'))
            fail_at(P, &P->tok, "unsupported parameterized variable name");
        bool unsized, is_array;
        uint64_t count = parse_dims(P, esz, &unsized, &is_array);
        ir_sym s = { 0 };
        s.name = g_strndup(name.text, name.len);
        s.space = (uint8_t)space;
        s.type = (uint8_t)h.type;
        s.align = h.align;
        s.size = unsized ? 0 : count * esz;
        s.is_extern = is_extern;
        s.is_visible = is_visible;
        uint32_t si = sym_add(P, &name, &s);
        if (is_punct(&P->tok, '=')) {
            ptx_token eq = P->tok;
            advance(P);
            parse_initialiser(P, si, unsized, &eq);
        } else if (unsized && !(is_extern && space == IR_SPACE_SHARED) && space != IR_SPACE_PARAM) {
            fail_at(P, &name, "unsized array '%s' needs an initialiser or .extern .shared", sym_at(P, si)->name);
        }
        layout_sym(P, sym_at(P, si));
        if (!accept_punct(P, ','))
            break;
    }
    expect_punct(P, ';', "after the declaration");
}

/* `.reg .type name, %r<N>, ...;` with `.reg` consumed. */
static void parse_reg_decl(ptx_parser *P)
{
    ptx_token tt = P->tok;
    ir_type t;
    if (tok_eq(&tt, ".v2") || tok_eq(&tt, ".v4"))
        fail_at(P, &tt, "unsupported vector register declaration");
    if (!is_type_word(&tt, &t))
        fail_at(P, &tt, "expected a register type, got %s", tok_show(P, &tt));
    advance(P);
    for (;;) {
        ptx_token name = expect_word(P, "a register name");
        uint64_t n = 0;
        bool vec = false;
        if (is_punct(&P->tok, '<')) {
            advance(P);
            ptx_token at = P->tok;
            n = expect_uint(P, "a register count");
            if (n > PTX_MAX_VEC_REGS)
                fail_at(P, &at, "too many registers in one declaration (%" G_GUINT64_FORMAT ")", n);
            expect_punct(P, '>', "after the register count");
            vec = true;
        }
        if (P->f->regs->len + (vec ? n : 1) > PTX_MAX_FUNC_REGS)
            fail_at(P, &name, "too many registers in function '%s'", P->f->name);
        for (uint64_t k = 0; k < (vec ? n : 1); k++) {
            ir_reg r = { 0 };
            r.name = vec ? g_strdup_printf("%.*s%" G_GUINT64_FORMAT, (int)name.len, name.text, k)
                         : g_strndup(name.text, name.len);
            r.type = (uint8_t)t;
            r.phys = IR_NONE;
            r.scope = scope_id(P);
            uint32_t idx = P->f->regs->len;
            g_array_append_val(P->f->regs, r);
            name_declare(P, &name, reg_at(P, idx)->name, ((uintptr_t)idx << 2) | NAME_REG);
        }
        if (!accept_punct(P, ','))
            break;
    }
    expect_punct(P, ';', "after the register declaration");
}

/* ---- functions ----------------------------------------------------------------------------------- */
static uint32_t func_get(ptx_parser *P, const ptx_token *name, bool *created)
{
    const char *s = tok_str(P, name);
    gpointer v = g_hash_table_lookup(P->funcs, s);
    *created = v == NULL;
    if (v)
        return (uint32_t)GPOINTER_TO_SIZE(v) - 1;
    if (g_hash_table_contains(P->msyms, s))
        fail_at(P, name, "'%s' is already declared as a variable", s);
    ir_func *f = g_new0(ir_func, 1);
    f->name = g_strndup(name->text, name->len);
    f->params = g_array_new(FALSE, TRUE, sizeof(ir_param));
    f->rets = g_array_new(FALSE, TRUE, sizeof(ir_param));
    f->regs = g_array_new(FALSE, TRUE, sizeof(ir_reg));
    f->instrs = g_array_new(FALSE, TRUE, sizeof(ir_instr));
    f->blocks = g_array_new(FALSE, TRUE, sizeof(ir_block));
    f->scopes = g_array_new(FALSE, TRUE, sizeof(ir_lexscope));
    f->line = name->line;
    f->n_phys_regs = IR_NONE;
    f->n_phys_preds = IR_NONE;
    uint32_t idx = P->m->funcs->len;
    g_ptr_array_add(P->m->funcs, f);
    g_hash_table_insert(P->funcs, f->name, GSIZE_TO_POINTER((gsize)idx + 1));
    return idx;
}

static void params_clear(GArray *ps)
{
    for (guint i = 0; i < ps->len; i++)
        g_free(g_array_index(ps, ir_param, i).name);
    g_array_set_size(ps, 0);
}

/* `( .param ... , ... )` appended to `out` (empty), offsets laid out in order. */
static void parse_param_list(ptx_parser *P, GArray *out, uint64_t *bytes)
{
    expect_punct(P, '(', "to open the parameter list");
    uint64_t off = 0;
    if (!accept_punct(P, ')')) {
        for (;;) {
            ptx_token sp = P->tok;
            if (tok_eq(&sp, ".reg"))
                fail_at(P, &sp, "unsupported .reg parameter (only .param parameters are supported)");
            if (!tok_eq(&sp, ".param"))
                fail_at(P, &sp, "expected '.param', got %s", tok_show(P, &sp));
            advance(P);
            var_head h;
            parse_var_head(P, &h, true);
            unsigned esz = MAX(ir_type_bits(h.type) / 8, 1u);
            ptx_token name = expect_word(P, "a parameter name");
            bool unsized, is_array;
            uint64_t count = parse_dims(P, esz, &unsized, &is_array);
            if (unsized)
                fail_at(P, &name, "unsupported unsized parameter");
            ir_param p = { 0 };
            p.name = g_strndup(name.text, name.len);
            p.type = (uint8_t)h.type;
            p.align = h.align;
            p.size = count * esz;
            p.offset = align_up(off, p.align);
            p.sym = IR_NONE;
            off = p.offset + p.size;
            g_array_append_val(out, p);
            for (guint i = 0; i + 1 < out->len; i++)
                if (strcmp(g_array_index(out, ir_param, i).name, p.name) == 0)
                    fail_at(P, &name, "duplicate parameter '%s'", p.name);
            if (accept_punct(P, ')'))
                break;
            expect_punct(P, ',', "or ')' in the parameter list");
        }
    }
    if (bytes)
        *bytes = off;
}

static void parse_ntid(ptx_parser *P, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int k = 0; k < 3; k++) {
        ptx_token at = P->tok;
        uint64_t v = expect_uint(P, "a thread count");
        if (v == 0 || v > 65535)
            fail_at(P, &at, "bad thread count");
        out[k] = (uint32_t)v;
        if (!accept_punct(P, ','))
            break;
    }
}

static void func_begin_body(ptx_parser *P, const ptx_token *open);
static void parse_body(ptx_parser *P, const ptx_token *open);
static void func_end_body(ptx_parser *P);

static void parse_func(ptx_parser *P, bool is_entry, bool is_extern, bool is_visible, const ptx_token *kw)
{
    advance(P); /* .entry / .func */
    /* Return parameters come before the name: read them into the parser's scratch array, then
     * swap it with the function's. */
    params_clear(P->ret_scratch);
    if (!is_entry && is_punct(&P->tok, '('))
        parse_param_list(P, P->ret_scratch, NULL);
    ptx_token name = expect_word(P, "a function name");
    if (name.text[0] == '%' || name.text[0] == '.')
        fail_at(P, &name, "bad function name %s", tok_show(P, &name));
    bool created;
    uint32_t fi = func_get(P, &name, &created);
    ir_func *f = g_ptr_array_index(P->m->funcs, fi);
    bool was_placeholder = g_hash_table_contains(P->undeclared, GSIZE_TO_POINTER(fi));
    if (f->is_defined)
        fail_at(P, &name, "redefinition of function '%s'", f->name);
    if (!created && !was_placeholder && f->is_entry != is_entry)
        fail_at(P, &name, "'%s' redeclared as %s", f->name, is_entry ? ".entry" : ".func");
    if (was_placeholder && is_entry)
        fail_at(P, &name, "'%s' is called, it can not be an .entry", f->name);
    GArray *old = f->rets;
    f->rets = P->ret_scratch;
    P->ret_scratch = old;
    params_clear(P->ret_scratch);
    g_hash_table_remove(P->undeclared, GSIZE_TO_POINTER(fi));
    f->is_entry = is_entry;
    f->is_extern = is_extern;
    f->is_visible = is_visible;
    f->line = kw->line;
    params_clear(f->params);
    f->param_bytes = 0;
    if (is_punct(&P->tok, '('))
        parse_param_list(P, f->params, &f->param_bytes);
    for (;;) {
        if (tok_eq(&P->tok, ".noreturn")) {
            advance(P);
        } else if (tok_eq(&P->tok, ".maxntid")) {
            advance(P);
            parse_ntid(P, f->maxntid);
        } else if (tok_eq(&P->tok, ".reqntid")) {
            advance(P);
            parse_ntid(P, f->reqntid);
        } else if (tok_eq(&P->tok, ".minnctapersm") || tok_eq(&P->tok, ".maxnctapersm")) {
            bool min = tok_eq(&P->tok, ".minnctapersm");
            advance(P);
            uint64_t v = expect_uint(P, "a count");
            if (min)
                f->minnctapersm = (uint32_t)MIN(v, UINT32_MAX);
        } else if (tok_eq(&P->tok, ".maxnreg")) {
            advance(P);
            uint64_t v = expect_uint(P, "a register count");
            f->maxnreg = (uint32_t)MIN(v, UINT32_MAX);
        } else if (tok_eq(&P->tok, ".pragma")) {
            advance(P);
            if (P->tok.kind != PTX_TOK_STRING)
                fail_at(P, &P->tok, "expected a string after .pragma");
            advance(P);
            expect_punct(P, ';', "after .pragma");
        } else {
            break;
        }
    }
    if (accept_punct(P, ';'))
        return; /* a prototype */
    if (is_extern)
        fail_at(P, &P->tok, "an .extern function has no body");
    ptx_token open = P->tok;
    if (!is_punct(&open, '{'))
        fail_at(P, &open, "expected '{' or ';' after the function header, got %s", tok_show(P, &open));
    advance(P);
    P->f = f;
    P->fi = fi;
    func_begin_body(P, &open);
    parse_body(P, &open);
    func_end_body(P);
}

static void params_declare(ptx_parser *P, GArray *ps, const ptx_token *at)
{
    for (guint i = 0; i < ps->len; i++) {
        ir_param *p = &g_array_index(ps, ir_param, i);
        ir_sym s = { 0 };
        s.name = g_strdup(p->name);
        s.space = IR_SPACE_PARAM;
        s.type = p->type;
        s.align = p->align;
        s.size = p->size;
        s.offset = p->offset;
        ptx_token t = *at;
        p->sym = sym_add(P, &t, &s);
    }
}

static void func_begin_body(ptx_parser *P, const ptx_token *open)
{
    ir_func *f = P->f;
    f->is_defined = true;
    ir_lexscope body = { IR_NONE, 0, 0, open->line };
    g_array_append_val(f->scopes, body);
    P->scope_tables = g_ptr_array_new_with_free_func((GDestroyNotify)g_hash_table_destroy);
    g_ptr_array_add(P->scope_tables, g_hash_table_new(g_str_hash, g_str_equal));
    P->scope_ids = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t zero = 0;
    g_array_append_val(P->scope_ids, zero);
    P->labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    P->fixups = g_array_new(FALSE, TRUE, sizeof(label_fixup));
    params_declare(P, f->params, open);
    params_declare(P, f->rets, open);
}

static void func_state_free(ptx_parser *P)
{
    if (P->scope_tables)
        g_ptr_array_free(P->scope_tables, TRUE);
    if (P->scope_ids)
        g_array_free(P->scope_ids, TRUE);
    if (P->labels)
        g_hash_table_destroy(P->labels);
    if (P->fixups) {
        for (guint i = 0; i < P->fixups->len; i++)
            g_free(g_array_index(P->fixups, label_fixup, i).name);
        g_array_free(P->fixups, TRUE);
    }
    P->scope_tables = NULL;
    P->scope_ids = NULL;
    P->labels = NULL;
    P->fixups = NULL;
    P->f = NULL;
}

static void func_end_body(ptx_parser *P)
{
    ir_func *f = P->f;
    for (guint i = 0; i < P->fixups->len; i++) {
        label_fixup *fx = &g_array_index(P->fixups, label_fixup, i);
        gpointer v = g_hash_table_lookup(P->labels, fx->name);
        if (!v)
            fail_sem(P, fx->line, fx->col, PTX_PARSE_ERROR_SEMANTIC, "unknown label '%s'", fx->name);
        ir_func_instr(f, fx->instr)->src[fx->slot].u.target = (uint32_t)GPOINTER_TO_SIZE(v) - 1;
    }
    g_array_index(f->scopes, ir_lexscope, 0).end = f->instrs->len;
    func_state_free(P);
}

/* ---- instructions: opcode and modifiers ------------------------------------------------------------ */
static const char *const unsupported_ops[] = {
    "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "mma", "wmma", "ldmatrix", "stmatrix", "cp",
    "isspacep", "istypep", "brx", "lop3", "dp4a", "dp2a", "vadd", "vsub", "vmad", "vset", "vmin", "vmax",
    "vshl", "vshr", "vabsdiff", "match", "redux", "elect", "mbarrier", "griddepcontrol", "setmaxnreg",
    "alloca", "stackrestore", "stacksave", "pmevent", "applypriority", "discard", "createpolicy",
    "getctarank", "multimem", "tensormap", "cvt.pack", "szext", "fns", "bmsk", "ldu.v8", "wgmma", "st.async",
    "red.async", "cp.async", "mapa", "clusterlaunchcontrol",
};

static bool op_lookup(const char *s, ir_opcode *op)
{
    for (unsigned i = 0; i < IR_OP_COUNT; i++)
        if (strcmp(s, ir_op_name((ir_opcode)i)) == 0) {
            *op = (ir_opcode)i;
            return true;
        }
    return false;
}

static int word_index(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

#define WORD_INDEX(s, arr) word_index((s), (arr), (int)G_N_ELEMENTS(arr))

typedef struct {
    unsigned ntypes;
    bool bar_red;    /* bar.red seen: the next and/or/popc is its operation */
    bool bar_warp;   /* bar.warp seen */
    int shf_dir;     /* 0 none, 1 l, 2 r */
    int shf_mode;    /* 0 none, 1 clamp, 2 wrap */
} mod_state;

static void set_sub(ptx_parser *P, ir_instr *in, unsigned v, const ptx_token *at, const char *mod)
{
    if (in->sub && in->sub != v)
        fail_at(P, at, "conflicting modifier '.%s' for %s", mod, ir_op_name((ir_opcode)in->op));
    in->sub = (uint8_t)v;
}

/* atom/red operations, indexed by ir_atom. */
static const char *const atomops[] = { "", "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch",
                                       "cas" };

/* One modifier of the opcode word. Returns false if it does not apply to this opcode. */
static bool apply_mod(ptx_parser *P, ir_instr *in, const char *mod, mod_state *ms, const ptx_token *at)
{
    static const char *const rnd[] = { "", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi" };
    static const char *const cmp[] = { "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                       "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
    static const char *const spaces[] = { "", "reg", "param", "global", "shared", "local", "const" };
    static const char *const scopes[] = { "", "cta", "gpu", "sys" };
    static const struct { const char *n; uint32_t f; } flags[] = {
        { "ftz", IR_F_FTZ }, { "sat", IR_F_SAT }, { "approx", IR_F_APPROX }, { "full", IR_F_FULL },
        { "uni", IR_F_UNI }, { "cc", IR_F_CC }, { "hi", IR_F_HI }, { "lo", IR_F_LO }, { "wide", IR_F_WIDE },
        { "nc", IR_F_NC }, { "volatile", IR_F_VOLATILE }, { "to", IR_F_TO }, { "sync", IR_F_SYNC },
        { "aligned", IR_F_ALIGNED }, { "shiftamt", IR_F_SHIFTAMT }, { "relaxed", IR_F_RELAXED },
        { "acquire", IR_F_ACQUIRE }, { "release", IR_F_RELEASE }, { "acq_rel", IR_F_ACQ_REL },
        { "noftz", IR_F_NOFTZ }, { "sc", IR_F_SC }, { "NaN", IR_F_NAN },
    };
    if (spu_isa_mod(in, mod)) /* bar.blocksync, ld.cb/st.cb (spu_isa.h) */
        return true;
    ir_opcode op = (ir_opcode)in->op;
    int k;
    ir_type t = ir_type_from_name(mod);
    if (t != IR_T_NONE) {
        if (ms->ntypes == 0)
            in->type = (uint8_t)t;
        else if (ms->ntypes == 1)
            in->type2 = (uint8_t)t;
        else
            fail_at(P, at, "too many types in %s", tok_show(P, at));
        ms->ntypes++;
        return true;
    }
    if (op == IR_OP_SHFL && (k = WORD_INDEX(mod, ((const char *const[]){ "", "up", "down", "bfly", "idx" }))) > 0) {
        set_sub(P, in, (unsigned)k, at, mod);
        return true;
    }
    if (op == IR_OP_VOTE && (k = WORD_INDEX(mod, ((const char *const[]){ "", "all", "any", "uni", "ballot" }))) > 0) {
        set_sub(P, in, (unsigned)k, at, mod);
        return true;
    }
    if (op == IR_OP_TESTP &&
        (k = WORD_INDEX(mod, ((const char *const[]){ "", "finite", "infinite", "number", "notanumber", "normal",
                                                    "subnormal" }))) > 0) {
        set_sub(P, in, (unsigned)k, at, mod);
        return true;
    }
    if (op == IR_OP_PRMT &&
        (k = WORD_INDEX(mod, ((const char *const[]){ "", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" }))) > 0) {
        set_sub(P, in, (unsigned)k, at, mod);
        return true;
    }
    if (op == IR_OP_SHF) {
        if (!strcmp(mod, "l") || !strcmp(mod, "r")) {
            ms->shf_dir = mod[0] == 'l' ? 1 : 2;
            return true;
        }
        if (!strcmp(mod, "clamp") || !strcmp(mod, "wrap")) {
            ms->shf_mode = mod[0] == 'c' ? 1 : 2;
            return true;
        }
    }
    if (op == IR_OP_BAR || op == IR_OP_BARRIER) {
        if (ms->bar_red && (k = WORD_INDEX(mod, ((const char *const[]){ "popc", "and", "or" }))) >= 0) {
            set_sub(P, in, IR_BAR_RED_POPC + (unsigned)k, at, mod);
            return true;
        }
        if (!strcmp(mod, "red") && !in->sub) {
            ms->bar_red = true;
            return true;
        }
        if (!strcmp(mod, "warp") && op == IR_OP_BAR && !in->sub) {
            ms->bar_warp = true;
            return true;
        }
        if (!strcmp(mod, "sync") && !in->sub && !ms->bar_red) {
            in->sub = ms->bar_warp ? IR_BAR_WARP_SYNC : IR_BAR_SYNC;
            in->flags |= IR_F_SYNC;
            return true;
        }
        if (!strcmp(mod, "arrive") && !in->sub && !ms->bar_red && !ms->bar_warp) {
            in->sub = IR_BAR_ARRIVE;
            return true;
        }
        if (!strcmp(mod, "aligned")) {
            in->flags |= IR_F_ALIGNED;
            return true;
        }
        return false;
    }
    if (op == IR_OP_MEMBAR) {
        if ((k = WORD_INDEX(mod, ((const char *const[]){ "", "cta", "gl", "sys" }))) > 0) {
            set_sub(P, in, (unsigned)k, at, mod);
            return true;
        }
        return false;
    }
    if ((op == IR_OP_FENCE || op == IR_OP_ATOM || op == IR_OP_RED || op == IR_OP_LD || op == IR_OP_ST) &&
        (k = WORD_INDEX(mod, scopes)) > 0) {
        set_sub(P, in, (unsigned)k, at, mod);
        return true;
    }
    if ((op == IR_OP_SETP || op == IR_OP_SET) && (k = WORD_INDEX(mod, cmp)) > 0) {
        if (in->cmp)
            fail_at(P, at, "two comparisons in %s", tok_show(P, at));
        in->cmp = (uint8_t)k;
        return true;
    }
    if ((op == IR_OP_SETP || op == IR_OP_SET) &&
        (k = WORD_INDEX(mod, ((const char *const[]){ "", "and", "or", "xor" }))) > 0) {
        in->boolop = (uint8_t)k;
        return true;
    }
    if ((op == IR_OP_ATOM || op == IR_OP_RED) && (k = WORD_INDEX(mod, atomops)) > 0) {
        if (in->atom)
            fail_at(P, at, "two atomic operations in %s", tok_show(P, at));
        in->atom = (uint8_t)k;
        return true;
    }
    if ((k = WORD_INDEX(mod, rnd)) > 0) {
        in->rnd = (uint8_t)k;
        return true;
    }
    if ((k = WORD_INDEX(mod, spaces)) > 1) {
        if (op != IR_OP_LD && op != IR_OP_LDU && op != IR_OP_ST && op != IR_OP_ATOM && op != IR_OP_RED &&
            op != IR_OP_CVTA && op != IR_OP_PREFETCH)
            return false;
        if (in->space)
            fail_at(P, at, "two state spaces in %s", tok_show(P, at));
        in->space = (uint8_t)k;
        return true;
    }
    if (!strcmp(mod, "shared::cta")) {
        in->space = IR_SPACE_SHARED;
        return true;
    }
    if (!strcmp(mod, "v2") || !strcmp(mod, "v4")) {
        if (op != IR_OP_LD && op != IR_OP_LDU && op != IR_OP_ST)
            return false;
        in->vec = (uint8_t)(mod[1] - '0');
        return true;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(flags); i++)
        if (!strcmp(mod, flags[i].n)) {
            in->flags |= flags[i].f;
            return true;
        }
    static const char *const packed[] = { "f16x2", "bf16", "bf16x2", "tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2",
                                          "u16x2", "s16x2", "b4", "u4", "s4", "f32x2", "f64x2" };
    if (WORD_INDEX(mod, packed) >= 0)
        fail_at(P, at, "unsupported type .%s in %s", mod, tok_show(P, at));
    /* Cache operators and hints change no result: accepted and dropped. */
    static const char *const cache[] = { "ca", "cg", "cs", "lu", "cv", "wb", "wt", "L1", "L2" };
    if ((op == IR_OP_LD || op == IR_OP_LDU || op == IR_OP_ST || op == IR_OP_PREFETCH || op == IR_OP_ATOM ||
         op == IR_OP_RED) &&
        (WORD_INDEX(mod, cache) >= 0 || g_str_has_prefix(mod, "L1::") || g_str_has_prefix(mod, "L2::")))
        return true;
    return false;
}

/* Type classes for validation. */
enum {
    TM_B = 1u << 0, TM_U = 1u << 1, TM_S = 1u << 2, TM_F32 = 1u << 3, TM_F64 = 1u << 4, TM_F16 = 1u << 5,
    TM_P = 1u << 6, TM_B128 = 1u << 7,
    TM_I = TM_U | TM_S, TM_F = TM_F32 | TM_F64, TM_ALLNUM = TM_B | TM_U | TM_S | TM_F | TM_F16,
};

static unsigned type_class(ir_type t)
{
    switch (t) {
    case IR_T_PRED: return TM_P;
    case IR_T_B8: case IR_T_B16: case IR_T_B32: case IR_T_B64: return TM_B;
    case IR_T_B128: return TM_B128;
    case IR_T_U8: case IR_T_U16: case IR_T_U32: case IR_T_U64: return TM_U;
    case IR_T_S8: case IR_T_S16: case IR_T_S32: case IR_T_S64: return TM_S;
    case IR_T_F16: return TM_F16;
    case IR_T_F32: return TM_F32;
    case IR_T_F64: return TM_F64;
    default: return 0;
    }
}

/* Allowed types of the (first) type modifier; 0 = the opcode takes no type. */
static unsigned op_types(ir_opcode op)
{
    switch (op) {
    case IR_OP_MOV: return TM_ALLNUM | TM_P | TM_B128;
    case IR_OP_LD: case IR_OP_LDU: case IR_OP_ST: return TM_ALLNUM | TM_B128;
    case IR_OP_CVTA: return TM_U | TM_B;
    case IR_OP_CVT: return TM_I | TM_F | TM_F16;
    case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_MAD: return TM_I | TM_F | TM_F16;
    case IR_OP_MUL24: case IR_OP_MAD24: case IR_OP_ADDC: case IR_OP_SUBC: case IR_OP_MADC: case IR_OP_SAD:
        return TM_I;
    case IR_OP_DIV: return TM_I | TM_F;
    case IR_OP_REM: return TM_I;
    case IR_OP_ABS: case IR_OP_NEG: return TM_S | TM_F | TM_F16;
    case IR_OP_MIN: case IR_OP_MAX: return TM_I | TM_F | TM_F16;
    case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR: case IR_OP_NOT: return TM_B | TM_P;
    case IR_OP_CNOT: return TM_B;
    case IR_OP_SHL: return TM_B;
    case IR_OP_SHR: return TM_B | TM_I;
    case IR_OP_SHF: return TM_B;
    case IR_OP_SETP: case IR_OP_SET: return TM_B | TM_I | TM_F | TM_F16;
    case IR_OP_SELP: return TM_B | TM_I | TM_F;
    case IR_OP_SLCT: return TM_B | TM_I | TM_F;
    case IR_OP_ATOM: case IR_OP_RED: return TM_B | TM_I | TM_F | TM_F16;
    case IR_OP_FMA: return TM_F | TM_F16;
    case IR_OP_RCP: case IR_OP_SQRT: case IR_OP_RSQRT: return TM_F;
    case IR_OP_EX2: case IR_OP_TANH: return TM_F32 | TM_F16;
    case IR_OP_LG2: case IR_OP_SIN: case IR_OP_COS: return TM_F32;
    case IR_OP_COPYSIGN: case IR_OP_TESTP: return TM_F;
    case IR_OP_POPC: case IR_OP_CLZ: case IR_OP_BREV: return TM_B;
    case IR_OP_BFIND: case IR_OP_BFE: return TM_I;
    case IR_OP_BFI: return TM_B;
    case IR_OP_PRMT: case IR_OP_SHFL: case IR_OP_ACTIVEMASK: return TM_B;
    case IR_OP_VOTE: return TM_B | TM_P;
    case IR_OP_BAR: case IR_OP_BARRIER: return TM_U | TM_P; /* only bar.red */
    case IR_OP_NANOSLEEP: return TM_U;
    default: return 0;
    }
}

static bool type_ok(ir_opcode op, ir_type t, const ir_instr *in)
{
    unsigned bits = ir_type_bits(t);
    if (!(op_types(op) & type_class(t)))
        return false;
    switch (op) {
    case IR_OP_CVTA: case IR_OP_ADDC: case IR_OP_SUBC: case IR_OP_MADC:
        return bits >= 32;
    case IR_OP_MUL24: case IR_OP_MAD24: case IR_OP_SHF: case IR_OP_PRMT: case IR_OP_SHFL: case IR_OP_ACTIVEMASK:
        return bits == 32;
    case IR_OP_BFIND: case IR_OP_BFE: case IR_OP_BFI: case IR_OP_POPC: case IR_OP_CLZ: case IR_OP_BREV:
        return bits >= 32;
    case IR_OP_ATOM: case IR_OP_RED:
        return bits >= 16;
    case IR_OP_VOTE:
        return t == IR_T_PRED || (t == IR_T_B32 && in->sub == IR_VOTE_BALLOT);
    case IR_OP_BAR: case IR_OP_BARRIER:
        return (in->sub == IR_BAR_RED_POPC && t == IR_T_U32) ||
               ((in->sub == IR_BAR_RED_AND || in->sub == IR_BAR_RED_OR) && t == IR_T_PRED);
    case IR_OP_NANOSLEEP:
        return t == IR_T_U32;
    case IR_OP_CVT: case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_MAD: case IR_OP_DIV:
    case IR_OP_REM: case IR_OP_MIN: case IR_OP_MAX:
        return true;
    case IR_OP_SHL: case IR_OP_SHR: case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR: case IR_OP_NOT:
    case IR_OP_CNOT:
        return bits >= 16 || t == IR_T_PRED;
    default:
        return true;
    }
}

/* The types an atom/red operation takes (PTX ISA, atom and red): the bit-size operations (.and .or
 * .xor .exch .cas) .b types (.cas also .b16), the integer operations .u/.s types (.inc and .dec
 * .u32 only; .add not .s64), and .add the floating-point ones (.f16 with .noftz). The vector and
 * packed forms (.v2.f16, .f16x2, .bf16, ...) and .b128 are not supported. Sets *takes for the message. */
static bool atom_type_ok(unsigned atom, ir_type t, const char **takes)
{
    switch (atom) {
    case IR_ATOM_AND: case IR_ATOM_OR: case IR_ATOM_XOR: case IR_ATOM_EXCH:
        *takes = ".b32, .b64";
        return t == IR_T_B32 || t == IR_T_B64;
    case IR_ATOM_CAS:
        *takes = ".b16, .b32, .b64";
        return t == IR_T_B16 || t == IR_T_B32 || t == IR_T_B64;
    case IR_ATOM_ADD:
        *takes = ".u32, .s32, .u64, .f32, .f64, .noftz.f16";
        return t == IR_T_U32 || t == IR_T_S32 || t == IR_T_U64 || t == IR_T_F32 || t == IR_T_F64 ||
               t == IR_T_F16;
    case IR_ATOM_INC: case IR_ATOM_DEC:
        *takes = ".u32";
        return t == IR_T_U32;
    case IR_ATOM_MIN: case IR_ATOM_MAX:
        *takes = ".u32, .s32, .u64, .s64";
        return t == IR_T_U32 || t == IR_T_S32 || t == IR_T_U64 || t == IR_T_S64;
    default:
        *takes = "";
        return false;
    }
}

/* Checks the opcode-specific modes and types after all modifiers are read. */
static void validate_opcode(ptx_parser *P, ir_instr *in, const mod_state *ms, const ptx_token *at)
{
    ir_opcode op = (ir_opcode)in->op;
    const char *name = ir_op_name(op);
    const char *spu_err = spu_isa_check(in);
    if (spu_err)
        fail_at(P, at, "%s", spu_err);
    if (op == IR_OP_SHF) {
        if (!ms->shf_dir || !ms->shf_mode)
            fail_at(P, at, "shf needs a direction (.l/.r) and a mode (.clamp/.wrap)");
        in->sub = (uint8_t)((ms->shf_dir - 1) * 2 + ms->shf_mode);
    }
    if ((op == IR_OP_SHFL && !in->sub) || (op == IR_OP_VOTE && !in->sub) || (op == IR_OP_TESTP && !in->sub))
        fail_at(P, at, "%s needs a mode", name);
    if ((op == IR_OP_BAR || op == IR_OP_BARRIER) && !in->sub)
        fail_at(P, at, "%s needs .sync, .arrive or .red", name);
    if ((op == IR_OP_SETP || op == IR_OP_SET) && !in->cmp)
        fail_at(P, at, "%s needs a comparison", name);
    if ((op == IR_OP_ATOM || op == IR_OP_RED) && !in->atom)
        fail_at(P, at, "%s needs an operation (.add, .cas, ...)", name);
    if (op == IR_OP_RED && (in->atom == IR_ATOM_CAS || in->atom == IR_ATOM_EXCH))
        fail_at(P, at, "red has no .%s", in->atom == IR_ATOM_CAS ? "cas" : "exch");
    if (op == IR_OP_MEMBAR && !in->sub)
        fail_at(P, at, "membar needs a scope (.cta, .gl, .sys)");
    if (op == IR_OP_FENCE && !in->sub)
        fail_at(P, at, "fence needs a scope (.cta, .gpu, .sys)");
    if (op == IR_OP_CVTA && !in->space)
        fail_at(P, at, "cvta needs a state space");
    if ((op == IR_OP_MUL || op == IR_OP_MAD) && type_class((ir_type)in->type) & (TM_I)) {
        unsigned n = !!(in->flags & IR_F_HI) + !!(in->flags & IR_F_LO) + !!(in->flags & IR_F_WIDE);
        if (n != 1)
            fail_at(P, at, "integer %s needs exactly one of .hi, .lo, .wide", name);
        if ((in->flags & IR_F_WIDE) && ir_type_bits((ir_type)in->type) == 64)
            fail_at(P, at, "%s.wide takes 16- or 32-bit types", name);
    }
    if (op == IR_OP_MUL24 || op == IR_OP_MAD24) {
        if (!(in->flags & (IR_F_HI | IR_F_LO)))
            fail_at(P, at, "%s needs .hi or .lo", name);
    }
    unsigned want = (op == IR_OP_CVT || op == IR_OP_SET || op == IR_OP_SLCT) ? 2 : op_types(op) ? 1 : 0;
    if (op == IR_OP_BAR || op == IR_OP_BARRIER)
        want = (in->sub == IR_BAR_RED_POPC || in->sub == IR_BAR_RED_AND || in->sub == IR_BAR_RED_OR) ? 1 : 0;
    if (ms->ntypes < want)
        fail_at(P, at, "missing type for %s", name);
    if (ms->ntypes > want) {
        if (!want)
            fail_at(P, at, "%s takes no type", name);
        fail_at(P, at, "too many types for %s", name);
    }
    if (want >= 1) {
        ir_type t = (ir_type)(op == IR_OP_SET ? in->type2 : in->type);
        if (!type_ok(op, t, in))
            fail_at(P, at, "bad type .%s for %s", ir_type_name(t), name);
    }
    if (op == IR_OP_ATOM || op == IR_OP_RED) {
        const char *takes;
        if (!atom_type_ok(in->atom, (ir_type)in->type, &takes))
            fail_at(P, at, "bad type .%s for %s.%s (it takes %s)", ir_type_name((ir_type)in->type), name,
                    atomops[in->atom], takes);
        if (in->type == IR_T_F16 && !(in->flags & IR_F_NOFTZ))
            fail_at(P, at, "%s.add.f16 needs .noftz", name);
    }
    if (op == IR_OP_CVT && !type_ok(op, (ir_type)in->type2, in))
        fail_at(P, at, "bad type .%s for cvt", ir_type_name((ir_type)in->type2));
    if (op == IR_OP_SET) {
        /* set.CmpOp.dtype.stype: the parser read dtype first. Swap into the IR convention. */
        uint8_t d = in->type;
        in->type = in->type2;
        in->type2 = d;
        if (!(type_class((ir_type)in->type2) & (TM_U | TM_S | TM_F32)) || ir_type_bits((ir_type)in->type2) != 32)
            fail_at(P, at, "bad destination type .%s for set", ir_type_name((ir_type)in->type2));
        if (!type_ok(op, (ir_type)in->type, in))
            fail_at(P, at, "bad type .%s for set", ir_type_name((ir_type)in->type));
    }
    if (op == IR_OP_SLCT && in->type2 != IR_T_S32 && in->type2 != IR_T_F32)
        fail_at(P, at, "slct's selector type must be .s32 or .f32");
    if ((op == IR_OP_LD || op == IR_OP_LDU || op == IR_OP_ST) && in->vec == 0)
        in->vec = 1;
    if ((op == IR_OP_LD || op == IR_OP_ST) && in->vec > 1 && in->type == IR_T_B128)
        fail_at(P, at, "vector of .b128");
    if (in->flags & IR_F_NC && !(op == IR_OP_LD && (in->space == IR_SPACE_GLOBAL || in->space == IR_SPACE_NONE)))
        fail_at(P, at, ".nc applies to ld.global only");
}

/* ---- instructions: operands ---------------------------------------------------------------------- */
static const struct { const char *n; ir_sreg s; bool vec; } sregs[] = {
    { "tid", IR_SREG_TID, true }, { "ntid", IR_SREG_NTID, true }, { "ctaid", IR_SREG_CTAID, true },
    { "nctaid", IR_SREG_NCTAID, true }, { "laneid", IR_SREG_LANEID, false }, { "warpid", IR_SREG_WARPID, false },
    { "nwarpid", IR_SREG_NWARPID, false }, { "smid", IR_SREG_SMID, false }, { "nsmid", IR_SREG_NSMID, false },
    { "gridid", IR_SREG_GRIDID, false }, { "clock", IR_SREG_CLOCK, false }, { "clock64", IR_SREG_CLOCK64, false },
    { "globaltimer", IR_SREG_GLOBALTIMER, false }, { "lanemask_eq", IR_SREG_LANEMASK_EQ, false },
    { "lanemask_le", IR_SREG_LANEMASK_LE, false }, { "lanemask_lt", IR_SREG_LANEMASK_LT, false },
    { "lanemask_ge", IR_SREG_LANEMASK_GE, false }, { "lanemask_gt", IR_SREG_LANEMASK_GT, false },
    { "dynamic_smem_size", IR_SREG_DYN_SMEM_SIZE, false }, { "total_smem_size", IR_SREG_TOTAL_SMEM_SIZE, false },
    { "regpassx", IR_SREG_REGPASSX, false }, { "regpassy", IR_SREG_REGPASSY, false }, /* SPU (spu_isa.h) */
    { "regcpassx", IR_SREG_REGCPASSX, false }, { "regcpassy", IR_SREG_REGCPASSY, false },
    { "regspillnb", IR_SREG_REGSPILLNB, false }, { "regcspillnb", IR_SREG_REGCSPILLNB, false },
    { "regviu", IR_SREG_REGVIU, false }, { "regiudir", IR_SREG_REGIUDIR, false },
    { "regiuid", IR_SREG_REGIUID, false }, { "reglast", IR_SREG_REGLAST, false },
};

/* %tid.x etc. Returns false if `name` (with %) is no special register. */
static bool sreg_parse(ptx_parser *P, const char *name, ir_operand *o, const ptx_token *at)
{
    const char *dot = strchr(name, '.');
    size_t n = dot ? (size_t)(dot - name - 1) : strlen(name + 1);
    for (size_t i = 0; i < G_N_ELEMENTS(sregs); i++) {
        if (strlen(sregs[i].n) != n || strncmp(name + 1, sregs[i].n, n) != 0)
            continue;
        o->kind = IR_OPND_SREG;
        o->u.sreg = sregs[i].s;
        if (sregs[i].vec) {
            if (!dot || dot[1] < 'x' || dot[1] > 'z' || dot[2])
                fail_at(P, at, "special register %%%s needs a component .x, .y or .z", sregs[i].n);
            o->comp = (uint8_t)(dot[1] - 'x');
        } else if (dot) {
            fail_at(P, at, "special register %%%s has no components", sregs[i].n);
        }
        return true;
    }
    return false;
}

static bool unsupported_sreg(const char *name)
{
    const char *d = g_str_has_prefix(name, "%envreg") ? name + 7 : g_str_has_prefix(name, "%pm") ? name + 3 : NULL;
    if (!d || !g_ascii_isdigit(*d))
        return false;
    while (g_ascii_isdigit(*d))
        d++;
    return *d == 0 || (name[1] == 'p' && strcmp(d, "_64") == 0);
}

static uint32_t reg_lookup(ptx_parser *P, const ptx_token *at, bool must)
{
    const char *name = tok_str(P, at);
    uintptr_t v = name_lookup(P, name);
    if ((v & 3) == NAME_REG)
        return (uint32_t)(v >> 2);
    if (must)
        fail_at(P, at, "undeclared register %s", name);
    return IR_NONE;
}

/* `+ N`, `+ -N` or `- N` after an address base. */
static int64_t parse_offset(ptx_parser *P)
{
    bool neg = false;
    if (accept_punct(P, '+')) {
        if (accept_punct(P, '-'))
            neg = true;
    } else if (accept_punct(P, '-')) {
        neg = true;
    } else {
        return 0;
    }
    ptx_token at = P->tok;
    uint64_t v = expect_uint(P, "an address offset");
    if (v > (uint64_t)INT64_MAX)
        fail_at(P, &at, "address offset out of range");
    return neg ? -(int64_t)v : (int64_t)v;
}

static void parse_address(ptx_parser *P, ir_operand *o)
{
    advance(P); /* [ */
    o->kind = IR_OPND_MEM;
    o->u.mem.base_reg = IR_NONE;
    o->u.mem.base_sym = IR_NONE;
    o->u.mem.offset = 0;
    ptx_token at = P->tok;
    if (at.kind == PTX_TOK_WORD) {
        advance(P);
        uintptr_t v = name_lookup(P, tok_str(P, &at));
        if ((v & 3) == NAME_REG)
            o->u.mem.base_reg = (uint32_t)(v >> 2);
        else if ((v & 3) == NAME_SYM)
            o->u.mem.base_sym = (uint32_t)(v >> 2);
        else if (at.text[0] == '%')
            fail_at(P, &at, "undeclared register %s", tok_str(P, &at));
        else
            fail_at(P, &at, "undeclared symbol '%s' in address", tok_str(P, &at));
        o->u.mem.offset = parse_offset(P);
    } else if (at.kind == PTX_TOK_INT) {
        uint64_t v = expect_uint(P, "an address");
        o->u.mem.offset = (int64_t)v;
    } else {
        fail_at(P, &at, "expected a register, a symbol or an address in '[ ]', got %s", tok_show(P, &at));
    }
    expect_punct(P, ']', "to close the address");
}

static void parse_vector(ptx_parser *P, ir_operand *o)
{
    ptx_token open = P->tok;
    advance(P); /* { */
    o->kind = IR_OPND_VEC;
    unsigned n = 0;
    for (;;) {
        ptx_token at = P->tok;
        if (n == 4)
            fail_at(P, &at, "a vector operand has at most 4 elements");
        /* IR_OPND_VEC holds registers only; frun, warp_exec and regalloc read it that way. */
        if (at.kind == PTX_TOK_INT || at.kind == PTX_TOK_FLOAT || at.kind == PTX_TOK_FBITS || is_punct(&at, '-'))
            fail_at(P, &at, "unsupported: immediate in a vector operand (move it to a register first)");
        if (at.kind != PTX_TOK_WORD)
            fail_at(P, &at, "expected a register in the vector operand, got %s", tok_show(P, &at));
        advance(P);
        o->u.vec_regs[n++] = tok_eq(&at, "_") ? IR_NONE : reg_lookup(P, &at, true);
        if (accept_punct(P, '}'))
            break;
        expect_punct(P, ',', "or '}' in the vector operand");
    }
    if (n != 2 && n != 4)
        fail_at(P, &open, "a vector operand has 2 or 4 elements, not %u", n);
    o->comp = (uint8_t)n;
}

static void parse_operand(ptx_parser *P, ir_instr *in, raw_operand *r)
{
    memset(r, 0, sizeof *r);
    r->tok = P->tok;
    ir_operand *o = &r->o;
    if (accept_punct(P, '!')) {
        o->neg = 1;
        if (P->tok.kind != PTX_TOK_WORD)
            fail_at(P, &P->tok, "expected a predicate after '!', got %s", tok_show(P, &P->tok));
    }
    ptx_token at = P->tok;
    bool neg_num = false;
    if (is_punct(&at, '-')) {
        advance(P);
        at = P->tok;
        if (at.kind != PTX_TOK_INT && at.kind != PTX_TOK_FLOAT && at.kind != PTX_TOK_FBITS)
            fail_at(P, &at, "expected a number after '-', got %s", tok_show(P, &at));
        neg_num = true;
    }
    switch (at.kind) {
    case PTX_TOK_INT: {
        uint64_t v;
        if (!int_value(&at, &v))
            fail_at(P, &at, "bad integer literal %s", tok_show(P, &at));
        o->kind = IR_OPND_IMM;
        o->u.imm = neg_num ? (UINT64_C(0) - v) : v;
        r->lit = LIT_INT;
        r->fval = neg_num ? -(double)v : (double)v;
        advance(P);
        return;
    }
    case PTX_TOK_FBITS: {
        o->kind = IR_OPND_IMM;
        bool is32 = (at.text[1] | 0x20) == 'f';
        o->u.imm = hex_bits(&at);
        if (neg_num)
            o->u.imm ^= is32 ? UINT64_C(0x80000000) : UINT64_C(0x8000000000000000);
        r->lit = is32 ? LIT_F32BITS : LIT_F64BITS;
        advance(P);
        return;
    }
    case PTX_TOK_FLOAT:
        o->kind = IR_OPND_IMM;
        r->lit = LIT_FLOAT;
        r->fval = g_ascii_strtod(tok_str(P, &at), NULL);
        if (neg_num)
            r->fval = -r->fval;
        advance(P);
        return;
    case PTX_TOK_PUNCT:
        if (is_punct(&at, '[')) {
            parse_address(P, o);
            return;
        }
        if (is_punct(&at, '{')) {
            parse_vector(P, o);
            return;
        }
        fail_at(P, &at, "expected an operand, got %s", tok_show(P, &at));
    case PTX_TOK_WORD:
        break;
    default:
        fail_at(P, &at, "expected an operand, got %s", tok_show(P, &at));
    }
    advance(P);
    const char *name = tok_str(P, &at);
    uintptr_t v = name_lookup(P, name);
    if ((v & 3) == NAME_REG) {
        o->kind = IR_OPND_REG;
        o->u.reg = (uint32_t)(v >> 2);
        return;
    }
    if (name[0] == '%') {
        if (sreg_parse(P, name, o, &at))
            return;
        /* %envreg<32> and %pm0..7 (and %pmN_64) are valid PTX with no IR_SREG_* (every sreg consumer,
         * frun, warp_exec and regalloc, would need a case). */
        if (unsupported_sreg(name))
            fail_at(P, &at, "unsupported special register %s", tok_str(P, &at));
        fail_at(P, &at, "undeclared register %s", tok_str(P, &at));
    }
    if (in->op == IR_OP_BRA) {
        o->kind = IR_OPND_LABEL;
        r->label = tok_dup(P, &at);
        return;
    }
    if ((v & 3) == NAME_SYM) {
        o->kind = IR_OPND_ADDR;
        o->u.mem.base_reg = IR_NONE;
        o->u.mem.base_sym = (uint32_t)(v >> 2);
        o->u.mem.offset = parse_offset(P);
        return;
    }
    if (g_hash_table_contains(P->funcs, name))
        fail_at(P, &at, "unsupported use of function '%s' as an operand", name);
    fail_at(P, &at, "undeclared identifier '%s'", name);
}

/* Source-operand shapes per opcode: a = value (reg, imm, sreg, address of a symbol), A = value or
 * vector, m = memory, p = predicate (reg or imm, may be negated), l = label. */
static const char *src_shape(const ir_instr *in, unsigned n, unsigned *ndst_min, unsigned *ndst_max)
{
    ir_opcode op = (ir_opcode)in->op;
    *ndst_min = *ndst_max = 1;
    switch (op) {
    case IR_OP_MOV: return "A";
    case IR_OP_LD: case IR_OP_LDU: return "m";
    case IR_OP_ST: *ndst_min = *ndst_max = 0; return "mA";
    case IR_OP_CVTA: case IR_OP_CVT: return "a";
    case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_MUL24: case IR_OP_ADDC: case IR_OP_SUBC:
    case IR_OP_DIV: case IR_OP_REM: case IR_OP_MIN: case IR_OP_MAX: case IR_OP_AND: case IR_OP_OR:
    case IR_OP_XOR: case IR_OP_SHL: case IR_OP_SHR: case IR_OP_COPYSIGN:
        return "aa";
    case IR_OP_MAD: case IR_OP_MAD24: case IR_OP_MADC: case IR_OP_SAD: case IR_OP_FMA: case IR_OP_SHF:
    case IR_OP_BFE: case IR_OP_PRMT: case IR_OP_SLCT:
        return "aaa";
    case IR_OP_BFI: return "aaaa";
    case IR_OP_ABS: case IR_OP_NEG: case IR_OP_NOT: case IR_OP_CNOT: case IR_OP_RCP: case IR_OP_SQRT:
    case IR_OP_RSQRT: case IR_OP_EX2: case IR_OP_LG2: case IR_OP_SIN: case IR_OP_COS: case IR_OP_TANH:
    case IR_OP_POPC: case IR_OP_CLZ: case IR_OP_BFIND: case IR_OP_BREV: case IR_OP_TESTP:
        return "a";
    case IR_OP_SETP: *ndst_max = 2; return in->boolop ? "aap" : "aa";
    case IR_OP_SET: return in->boolop ? "aap" : "aa";
    case IR_OP_SELP: return "aap";
    case IR_OP_BRA: *ndst_min = *ndst_max = 0; return "l";
    case IR_OP_RET: case IR_OP_EXIT: case IR_OP_TRAP: case IR_OP_BRKPT: case IR_OP_MEMBAR: case IR_OP_FENCE:
    case IR_OP_RELSSP:
        *ndst_min = *ndst_max = 0;
        return "";
    case IR_OP_BAR: case IR_OP_BARRIER:
        if (in->sub == IR_BAR_RED_POPC || in->sub == IR_BAR_RED_AND || in->sub == IR_BAR_RED_OR)
            return n >= 4 ? "aap" : "ap";
        *ndst_min = *ndst_max = 0;
        if (in->sub == IR_BAR_WARP_SYNC)
            return "a";
        return n >= 2 || in->sub == IR_BAR_ARRIVE ? "aa" : "a";
    case IR_OP_ATOM: return in->atom == IR_ATOM_CAS ? "maa" : "ma";
    case IR_OP_RED: *ndst_min = *ndst_max = 0; return "ma";
    case IR_OP_SHFL: *ndst_max = 2; return (in->flags & IR_F_SYNC) ? "aaaa" : "aaa";
    case IR_OP_VOTE: return (in->flags & IR_F_SYNC) ? "pa" : "p";
    case IR_OP_ACTIVEMASK: return "";
    case IR_OP_PREFETCH: *ndst_min = *ndst_max = 0; return "m";
    case IR_OP_NANOSLEEP: *ndst_min = *ndst_max = 0; return "a";
    default: *ndst_min = *ndst_max = 0; return "";
    }
}

static bool reg_is_pred(ptx_parser *P, uint32_t r)
{
    return reg_at(P, r)->type == IR_T_PRED;
}

/* ptxas's operand type check. Bit-size registers (.bN) go with any type of their size; a float
 * register (.fN) does not go with an integer (.uN/.sN) type, nor an integer register with a float
 * type. Sizes match exactly, except that ld/ldu/st/cvt take registers wider than their type
 * (PTX's relaxed rule for them). Vector elements of mov (packing) are not size checked. */
static bool reg_type_fits(ir_type reg, ir_type want, bool wider_ok, bool check_size)
{
    bool rf = ir_type_is_float(reg), wf = ir_type_is_float(want);
    bool rb = reg >= IR_T_B8 && reg <= IR_T_B128, wb = want >= IR_T_B8 && want <= IR_T_B128;
    if (!rb && !wb && rf != wf)
        return false;
    if (!check_size)
        return true;
    unsigned rbits = ir_type_bits(reg), wbits = ir_type_bits(want);
    return rbits == wbits || (wider_ok && rbits > wbits);
}

/* Predicate-ness of a register must match the operand's type, and data registers must fit it. */
static void check_reg_kind(ptx_parser *P, const ir_instr *in, const raw_operand *r, ir_type want)
{
    const ir_operand *o = &r->o;
    uint32_t regs[4];
    unsigned n = 0;
    if (o->kind == IR_OPND_REG)
        regs[n++] = o->u.reg;
    else if (o->kind == IR_OPND_VEC)
        for (unsigned k = 0; k < o->comp; k++)
            if (o->u.vec_regs[k] != IR_NONE)
                regs[n++] = o->u.vec_regs[k];
    bool wider_ok = in->op == IR_OP_LD || in->op == IR_OP_LDU || in->op == IR_OP_ST || in->op == IR_OP_CVT;
    bool check_size = !(o->kind == IR_OPND_VEC && in->op == IR_OP_MOV);
    for (unsigned k = 0; k < n; k++) {
        const ir_reg *rg = reg_at(P, regs[k]);
        bool p = rg->type == IR_T_PRED;
        if (want == IR_T_PRED && !p)
            fail_at(P, &r->tok, "%s is not a predicate register", rg->name);
        if (want != IR_T_PRED && want != IR_T_NONE && p)
            fail_at(P, &r->tok, "predicate register %s used as a .%s operand", rg->name, ir_type_name(want));
        if (want != IR_T_PRED && want != IR_T_NONE && !reg_type_fits((ir_type)rg->type, want, wider_ok, check_size))
            fail_at(P, &r->tok, "register %s of type .%s does not fit the .%s operand of %s", rg->name,
                    ir_type_name((ir_type)rg->type), ir_type_name(want), ir_op_name((ir_opcode)in->op));
    }
}

/* Turns a literal into the bits of an operand of type t (rules in ir.h). */
static void imm_finish(ptx_parser *P, raw_operand *r, ir_type t)
{
    ir_operand *o = &r->o;
    if (o->kind != IR_OPND_IMM)
        return;
    if (t == IR_T_F32) {
        float f;
        if (r->lit == LIT_F32BITS)
            return;
        if (r->lit == LIT_F64BITS) {
            double d;
            memcpy(&d, &o->u.imm, 8);
            f = (float)d;
        } else if (r->lit == LIT_INT) {
            f = (float)r->fval;
            if (r->fval < 0)
                f = (float)(int64_t)o->u.imm;
            else
                f = (float)o->u.imm;
        } else {
            f = (float)r->fval;
        }
        uint32_t u;
        memcpy(&u, &f, 4);
        o->u.imm = u;
    } else if (t == IR_T_F64) {
        double d;
        if (r->lit == LIT_F64BITS)
            return;
        if (r->lit == LIT_F32BITS) {
            uint32_t u = (uint32_t)o->u.imm;
            float f;
            memcpy(&f, &u, 4);
            d = f;
        } else if (r->lit == LIT_INT) {
            d = r->fval < 0 ? (double)(int64_t)o->u.imm : (double)o->u.imm;
        } else {
            d = r->fval;
        }
        memcpy(&o->u.imm, &d, 8);
    } else if (r->lit == LIT_FLOAT) {
        fail_at(P, &r->tok, "floating-point literal in a .%s operand", ir_type_name(t));
    }
}

static void check_src(ptx_parser *P, ir_instr *in, raw_operand *r, char shape, unsigned i)
{
    ir_operand *o = &r->o;
    const char *opname = ir_op_name((ir_opcode)in->op);
    if (r->piped)
        fail_at(P, &r->tok, "'|' is only allowed between destinations");
    switch (shape) {
    case 'm':
        if (o->kind != IR_OPND_MEM)
            fail_at(P, &r->tok, "%s expects a memory operand [...] here", opname);
        break;
    case 'l':
        if (o->kind != IR_OPND_LABEL)
            fail_at(P, &r->tok, "%s expects a label", opname);
        break;
    case 'p':
        if (o->kind != IR_OPND_REG && o->kind != IR_OPND_IMM)
            fail_at(P, &r->tok, "%s expects a predicate here", opname);
        break;
    case 'A':
        if (o->kind == IR_OPND_VEC)
            break;
        /* fall through */
    default:
        if (o->kind == IR_OPND_MEM)
            fail_at(P, &r->tok, "%s does not take a memory operand here", opname);
        if (o->kind == IR_OPND_VEC)
            fail_at(P, &r->tok, "%s does not take a vector operand here", opname);
        if (o->kind == IR_OPND_LABEL)
            fail_at(P, &r->tok, "unexpected label");
        break;
    }
    ir_type t = ir_instr_src_type(in, i);
    /* and/or/xor/not/mov/selp-c/setp-c on .pred take `!%p` too: their shape is 'a' but the type is
     * .pred (ir_exec applies the neg for predicate-typed sources). */
    if (o->neg && ((shape != 'p' && t != IR_T_PRED) || o->kind != IR_OPND_REG))
        fail_at(P, &r->tok, "'!' only applies to predicate registers");
    check_reg_kind(P, in, r, t);
    if (o->kind == IR_OPND_MEM && o->u.mem.base_reg != IR_NONE && reg_is_pred(P, o->u.mem.base_reg))
        fail_at(P, &r->tok, "a predicate register can not be an address");
    if (o->kind == IR_OPND_MEM && o->u.mem.base_sym != IR_NONE && in->space != IR_SPACE_NONE &&
        sym_at(P, o->u.mem.base_sym)->space != in->space) {
        const ir_sym *sy = sym_at(P, o->u.mem.base_sym);
        fail_at(P, &r->tok, "'%s' is a .%s variable, not .%s", sy->name, ir_space_name((ir_space)sy->space),
                ir_space_name((ir_space)in->space));
    }
    if (o->kind == IR_OPND_VEC) {
        if ((in->op == IR_OP_ST) && o->comp != in->vec)
            fail_at(P, &r->tok, "vector operand has %u elements, the instruction .v%u", o->comp, in->vec);
        for (unsigned k = 0; k < o->comp; k++)
            if (o->u.vec_regs[k] == IR_NONE)
                fail_at(P, &r->tok, "'_' is only allowed in a destination");
    } else if (in->op == IR_OP_ST && shape == 'A' && in->vec > 1) {
        fail_at(P, &r->tok, "st.v%u needs a vector operand {...}", in->vec);
    }
    imm_finish(P, r, t);
}

static void check_dst(ptx_parser *P, ir_instr *in, raw_operand *r, unsigned i)
{
    ir_operand *o = &r->o;
    bool vec_ok = in->op == IR_OP_MOV || in->op == IR_OP_LD || in->op == IR_OP_LDU;
    if (o->kind == IR_OPND_VEC && vec_ok) {
        if (in->op != IR_OP_MOV && o->comp != in->vec)
            fail_at(P, &r->tok, "vector operand has %u elements, the instruction .v%u", o->comp, in->vec);
    } else if (o->kind != IR_OPND_REG) {
        fail_at(P, &r->tok, "the destination of %s must be a register", ir_op_name((ir_opcode)in->op));
    }
    if (o->neg)
        fail_at(P, &r->tok, "'!' in a destination");
    if ((in->op == IR_OP_LD || in->op == IR_OP_LDU) && in->vec > 1 && o->kind != IR_OPND_VEC)
        fail_at(P, &r->tok, "%s.v%u needs a vector destination {...}", ir_op_name((ir_opcode)in->op), in->vec);
    if (o->kind == IR_OPND_VEC && in->op == IR_OP_MOV) {
        for (unsigned k = 0; k < o->comp; k++)
            if (o->u.vec_regs[k] == IR_NONE)
                fail_at(P, &r->tok, "'_' is not allowed in mov");
    }
    check_reg_kind(P, in, r, ir_instr_dst_type(in, i));
}

static void add_label_fixup(GArray *list, uint32_t instr, uint8_t slot, const raw_operand *r)
{
    label_fixup fx = { instr, r->tok.line, r->tok.col, slot, g_strdup(r->label) };
    g_array_append_val(list, fx);
}

/* `call[.uni] [(ret, ...),] func[, (arg, ...)];` with the opcode consumed. */
static void parse_call(ptx_parser *P, ir_instr *in)
{
    in->n_dst = in->n_src = 0;
    if (is_punct(&P->tok, '(')) {
        advance(P);
        for (;;) {
            ptx_token at = expect_word(P, "a return parameter");
            uintptr_t v = name_lookup(P, tok_str(P, &at));
            if ((v & 3) != NAME_SYM || sym_at(P, (uint32_t)(v >> 2))->space != IR_SPACE_PARAM)
                fail_at(P, &at, "call return value '%s' is not a .param variable", tok_str(P, &at));
            if (in->call_n_ret >= G_N_ELEMENTS(in->call_ret))
                fail_at(P, &at, "too many return values");
            in->call_ret[in->call_n_ret++] = (uint32_t)(v >> 2);
            if (accept_punct(P, ')'))
                break;
            expect_punct(P, ',', "or ')' in the return list");
        }
        expect_punct(P, ',', "after the return list");
    }
    ptx_token fn = P->tok;
    if (fn.kind != PTX_TOK_WORD)
        fail_at(P, &fn, "expected a function name, got %s", tok_show(P, &fn));
    if (fn.text[0] == '%')
        fail_at(P, &fn, "unsupported indirect call through %s", tok_str(P, &fn));
    advance(P);
    bool created;
    uint32_t fi = func_get(P, &fn, &created);
    if (created) {
        label_fixup *fx = g_new0(label_fixup, 1);
        fx->line = fn.line;
        fx->col = fn.col;
        g_hash_table_insert(P->undeclared, GSIZE_TO_POINTER(fi), fx);
    }
    in->src[0].kind = IR_OPND_FUNC;
    in->src[0].u.func = fi;
    in->n_src = 1;
    if (accept_punct(P, ',')) {
        expect_punct(P, '(', "to open the argument list");
        if (!accept_punct(P, ')')) {
            for (;;) {
                ptx_token at = P->tok;
                if (at.kind != PTX_TOK_WORD)
                    fail_at(P, &at, "expected a .param argument, got %s", tok_show(P, &at));
                advance(P);
                uintptr_t v = name_lookup(P, tok_str(P, &at));
                if ((v & 3) != NAME_SYM || sym_at(P, (uint32_t)(v >> 2))->space != IR_SPACE_PARAM)
                    fail_at(P, &at, "call argument '%s' is not a .param variable", tok_str(P, &at));
                if (in->call_n_args >= G_N_ELEMENTS(in->call_args))
                    fail_at(P, &at, "too many call arguments");
                in->call_args[in->call_n_args++] = (uint32_t)(v >> 2);
                if (accept_punct(P, ')'))
                    break;
                expect_punct(P, ',', "or ')' in the argument list");
            }
        }
        if (is_punct(&P->tok, ','))
            fail_at(P, &P->tok, "unsupported call with a prototype or target list");
    }
}

/* Whether a token can begin an operand (otherwise the operand list is empty). */
static bool operand_start(const ptx_token *t)
{
    switch (t->kind) {
    case PTX_TOK_WORD: case PTX_TOK_INT: case PTX_TOK_FBITS: case PTX_TOK_FLOAT:
        return true;
    case PTX_TOK_PUNCT:
        return strchr("[{-!", t->text[0]) != NULL;
    default:
        return false;
    }
}

static void split_opcode(ptx_parser *P, const ptx_token *t, char *buf, size_t bufsz, char **parts, unsigned *n)
{
    if (t->len >= bufsz)
        fail_at(P, t, "instruction name too long");
    memcpy(buf, t->text, t->len);
    buf[t->len] = '\0';
    *n = 0;
    char *p = buf;
    for (;;) {
        if (*n == PTX_MAX_PARTS)
            fail_at(P, t, "too many modifiers in %s", tok_show(P, t));
        parts[(*n)++] = p;
        char *dot = strchr(p, '.');
        if (!dot)
            break;
        *dot = '\0';
        p = dot + 1;
        if (!*p)
            fail_at(P, t, "empty modifier in %s", tok_show(P, t));
    }
}

static void parse_instruction(ptx_parser *P, uint32_t guard, bool guard_neg)
{
    ptx_token optok = P->tok;
    if (optok.kind != PTX_TOK_WORD || optok.text[0] == '.' || optok.text[0] == '%')
        fail_at(P, &optok, "expected an instruction, got %s", tok_show(P, &optok));
    char buf[256];
    char *parts[PTX_MAX_PARTS];
    unsigned nparts;
    split_opcode(P, &optok, buf, sizeof buf, parts, &nparts);
    ir_instr in;
    memset(&in, 0, sizeof in);
    ir_opcode op;
    if (!op_lookup(parts[0], &op)) {
        for (size_t i = 0; i < G_N_ELEMENTS(unsupported_ops); i++)
            if (!strcmp(parts[0], unsupported_ops[i]))
                fail_at(P, &optok, "unsupported instruction '%s'", parts[0]);
        fail_at(P, &optok, "unknown instruction '%s'", parts[0]);
    }
    in.op = (uint16_t)op;
    in.guard = guard;
    in.guard_neg = guard_neg;
    in.line = optok.line;
    in.col = optok.col;
    in.block = IR_NONE;
    in.reconv = IR_NONE;
    mod_state ms = { 0 };
    for (unsigned k = 1; k < nparts; k++)
        if (!apply_mod(P, &in, parts[k], &ms, &optok))
            fail_at(P, &optok, "unknown modifier '.%s' for %s", parts[k], parts[0]);
    validate_opcode(P, &in, &ms, &optok);
    advance(P);
    if (op == IR_OP_CALL) {
        parse_call(P, &in);
    } else {
        raw_operand raw[PTX_MAX_OPNDS];
        unsigned n = 0;
        bool no_operands = op == IR_OP_RET || op == IR_OP_EXIT || op == IR_OP_TRAP || op == IR_OP_BRKPT ||
                           op == IR_OP_MEMBAR || op == IR_OP_FENCE || op == IR_OP_RELSSP;
        if (!no_operands && operand_start(&P->tok)) {
            for (;;) {
                if (n == PTX_MAX_OPNDS)
                    fail_at(P, &P->tok, "too many operands");
                parse_operand(P, &in, &raw[n++]);
                if (is_punct(&P->tok, '|')) {
                    advance(P);
                    if (n == PTX_MAX_OPNDS)
                        fail_at(P, &P->tok, "too many operands");
                    parse_operand(P, &in, &raw[n]);
                    raw[n++].piped = true;
                }
                if (!accept_punct(P, ','))
                    break;
            }
        }
        unsigned dmin, dmax;
        unsigned ndst = n > 1 && raw[1].piped ? 2 : (n > 0 ? 1 : 0);
        const char *shape = src_shape(&in, n, &dmin, &dmax);
        if (dmax == 0)
            ndst = 0;
        else if (ndst > dmax)
            fail_at(P, &raw[1].tok, "%s has one destination", parts[0]);
        unsigned nsrc = (unsigned)strlen(shape);
        if (n < MAX(ndst, dmin) + nsrc) {
            ptx_token at = P->tok;
            fail_at(P, &at, "missing operand for %s (expected %u, got %u)", parts[0], MAX(ndst, dmin) + nsrc, n);
        }
        if (n > ndst + nsrc)
            fail_at(P, &raw[ndst + nsrc].tok, "too many operands for %s (expected %u)", parts[0], ndst + nsrc);
        in.n_dst = (uint8_t)ndst;
        in.n_src = (uint8_t)nsrc;
        for (unsigned i = 0; i < ndst; i++)
            in.dst[i] = raw[i].o;
        for (unsigned i = 0; i < nsrc; i++)
            in.src[i] = raw[ndst + i].o;
        for (unsigned i = 0; i < ndst; i++) {
            check_dst(P, &in, &raw[i], i);
            in.dst[i] = raw[i].o;
        }
        for (unsigned i = 0; i < nsrc; i++) {
            check_src(P, &in, &raw[ndst + i], shape[i], i);
            in.src[i] = raw[ndst + i].o;
        }
        if (op == IR_OP_BRA)
            add_label_fixup(P->fixups, P->f->instrs->len, 0, &raw[0]);
    }
    expect_punct(P, ';', "after the instruction");
    g_array_append_val(P->f->instrs, in);
}

/* ---- function bodies ------------------------------------------------------------------------------ */
static void scope_open(ptx_parser *P, const ptx_token *at)
{
    if (P->scope_tables->len > 64)
        fail_at(P, at, "scopes nested too deeply");
    ir_lexscope s = { scope_id(P), P->f->instrs->len, P->f->instrs->len, at->line };
    uint32_t id = P->f->scopes->len;
    g_array_append_val(P->f->scopes, s);
    g_array_append_val(P->scope_ids, id);
    g_ptr_array_add(P->scope_tables, g_hash_table_new(g_str_hash, g_str_equal));
}

static void scope_close(ptx_parser *P)
{
    uint32_t id = scope_id(P);
    g_array_index(P->f->scopes, ir_lexscope, id).end = P->f->instrs->len;
    g_array_set_size(P->scope_ids, P->scope_ids->len - 1);
    g_ptr_array_set_size(P->scope_tables, (gint)P->scope_tables->len - 1);
}

static void parse_label(ptx_parser *P)
{
    ptx_token at = P->tok;
    advance(P); /* name */
    advance(P); /* : */
    char *name = g_strndup(at.text, at.len);
    if (g_hash_table_contains(P->labels, name)) {
        g_free(name);
        fail_at(P, &at, "duplicate label '%s'", tok_str(P, &at));
    }
    g_hash_table_insert(P->labels, name, GSIZE_TO_POINTER((gsize)P->f->instrs->len + 1));
}

static void parse_body_directive(ptx_parser *P)
{
    ptx_token at = P->tok;
    ir_space sp = space_of(&at);
    if (sp == IR_SPACE_REG) {
        advance(P);
        parse_reg_decl(P);
    } else if (sp == IR_SPACE_LOCAL || sp == IR_SPACE_SHARED || sp == IR_SPACE_PARAM || sp == IR_SPACE_CONST ||
               sp == IR_SPACE_GLOBAL) {
        advance(P);
        parse_var_decl(P, sp, false, false);
    } else if (tok_eq(&at, ".pragma")) {
        advance(P);
        if (P->tok.kind != PTX_TOK_STRING)
            fail_at(P, &P->tok, "expected a string after .pragma");
        advance(P);
        expect_punct(P, ';', "after .pragma");
    } else if (tok_eq(&at, ".loc") || tok_eq(&at, ".file")) {
        skip_line(P);
    } else {
        fail_at(P, &at, "unknown directive %s in a function body", tok_show(P, &at));
    }
}

static void parse_body(ptx_parser *P, const ptx_token *open)
{
    for (;;) {
        ptx_token t = P->tok;
        if (t.kind == PTX_TOK_EOF)
            fail_at(P, open, "unterminated function body (missing '}')");
        if (is_punct(&t, '}')) {
            advance(P);
            if (P->scope_ids->len == 1)
                return;
            scope_close(P);
        } else if (is_punct(&t, '{')) {
            advance(P);
            scope_open(P, &t);
        } else if (is_punct(&t, '@')) {
            advance(P);
            bool neg = accept_punct(P, '!');
            ptx_token g = P->tok;
            if (g.kind != PTX_TOK_WORD)
                fail_at(P, &g, "expected a guard predicate after '@', got %s", tok_show(P, &g));
            advance(P);
            uint32_t r = reg_lookup(P, &g, true);
            if (!reg_is_pred(P, r))
                fail_at(P, &g, "guard %s is not a predicate register", reg_at(P, r)->name);
            parse_instruction(P, r, neg);
        } else if (t.kind == PTX_TOK_WORD && t.text[0] == '.') {
            parse_body_directive(P);
        } else if (t.kind == PTX_TOK_WORD && is_punct(peek2(P), ':')) {
            parse_label(P);
        } else if (t.kind == PTX_TOK_WORD) {
            parse_instruction(P, IR_NONE, false);
        } else {
            fail_at(P, &t, "expected an instruction, got %s", tok_show(P, &t));
        }
    }
}

/* ---- module ---------------------------------------------------------------------------------------- */
static void skip_section(ptx_parser *P)
{
    advance(P); /* .section */
    expect_word(P, "a section name");
    ptx_token open = P->tok;
    expect_punct(P, '{', "to open the section");
    int depth = 1;
    while (depth > 0) {
        if (P->tok.kind == PTX_TOK_EOF)
            fail_at(P, &open, "unterminated .section (missing '}')");
        if (is_punct(&P->tok, '{'))
            depth++;
        else if (is_punct(&P->tok, '}'))
            depth--;
        advance(P);
    }
}

static void parse_module_directive(ptx_parser *P)
{
    ptx_token at = P->tok;
    if (tok_eq(&at, ".version")) {
        advance(P);
        if (P->tok.kind != PTX_TOK_FLOAT && P->tok.kind != PTX_TOK_INT)
            fail_at(P, &P->tok, "expected a version number, got %s", tok_show(P, &P->tok));
        g_free(P->m->version);
        P->m->version = g_strndup(P->tok.text, P->tok.len);
        advance(P);
    } else if (tok_eq(&at, ".target")) {
        advance(P);
        ptx_token t = expect_word(P, "a target");
        g_free(P->m->target);
        P->m->target = g_strndup(t.text, t.len);
        while (accept_punct(P, ','))
            expect_word(P, "a target option");
    } else if (tok_eq(&at, ".address_size")) {
        advance(P);
        ptx_token v = P->tok;
        uint64_t n = expect_uint(P, "an address size");
        if (n != 32 && n != 64)
            fail_at(P, &v, "address size must be 32 or 64");
        P->m->address_size = (unsigned)n;
    } else if (tok_eq(&at, ".file") || tok_eq(&at, ".loc")) {
        skip_line(P);
    } else if (tok_eq(&at, ".section")) {
        skip_section(P);
    } else if (tok_eq(&at, ".pragma")) {
        advance(P);
        if (P->tok.kind != PTX_TOK_STRING)
            fail_at(P, &P->tok, "expected a string after .pragma");
        advance(P);
        expect_punct(P, ';', "after .pragma");
    } else {
        bool is_extern = false, is_visible = false;
        for (;;) {
            if (tok_eq(&P->tok, ".extern"))
                is_extern = true;
            else if (tok_eq(&P->tok, ".visible"))
                is_visible = true;
            else if (!tok_eq(&P->tok, ".weak") && !tok_eq(&P->tok, ".common"))
                break;
            advance(P);
        }
        ptx_token kw = P->tok;
        ir_space sp = space_of(&kw);
        if (tok_eq(&kw, ".entry") || tok_eq(&kw, ".func")) {
            parse_func(P, tok_eq(&kw, ".entry"), is_extern, is_visible, &kw);
        } else if (sp == IR_SPACE_GLOBAL || sp == IR_SPACE_CONST || sp == IR_SPACE_SHARED) {
            advance(P);
            parse_var_decl(P, sp, is_extern, is_visible);
        } else if (sp == IR_SPACE_LOCAL || sp == IR_SPACE_REG || sp == IR_SPACE_PARAM) {
            fail_at(P, &kw, "unsupported module-scope %s declaration", tok_str(P, &kw));
        } else if (kw.kind == PTX_TOK_WORD && kw.text[0] == '.') {
            if (tok_eq(&kw, ".alias") || tok_eq(&kw, ".tex") || tok_eq(&kw, ".surfref") || tok_eq(&kw, ".texref") ||
                tok_eq(&kw, ".samplerref"))
                fail_at(P, &kw, "unsupported directive %s", tok_show(P, &kw));
            fail_at(P, &kw, "unknown directive %s", tok_show(P, &kw));
        } else {
            fail_at(P, &kw, "expected a directive, got %s", tok_show(P, &kw));
        }
    }
}

/* After the last function: every called function declared, every call's lists match the callee. */
static void module_finish(ptx_parser *P)
{
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, P->undeclared);
    uint32_t best_line = UINT32_MAX, best_col = 0, best_f = 0;
    while (g_hash_table_iter_next(&it, &k, &v)) {
        label_fixup *fx = v;
        if (fx->line < best_line || (fx->line == best_line && fx->col < best_col)) {
            best_line = fx->line;
            best_col = fx->col;
            best_f = (uint32_t)GPOINTER_TO_SIZE(k);
        }
    }
    if (best_line != UINT32_MAX)
        fail_sem(P, best_line, best_col, PTX_PARSE_ERROR_SEMANTIC, "call to undeclared function '%s'",
                 ((ir_func *)g_ptr_array_index(P->m->funcs, best_f))->name);
    for (guint fi = 0; fi < P->m->funcs->len; fi++) {
        ir_func *f = g_ptr_array_index(P->m->funcs, fi);
        for (guint i = 0; i < f->instrs->len; i++) {
            ir_instr *in = ir_func_instr(f, i);
            if (in->op != IR_OP_CALL)
                continue;
            ir_func *c = g_ptr_array_index(P->m->funcs, in->src[0].u.func);
            if (c->is_entry)
                fail_sem(P, in->line, in->col, PTX_PARSE_ERROR_SEMANTIC, "call to the kernel '%s'", c->name);
            if (in->call_n_args != c->params->len || in->call_n_ret != c->rets->len)
                fail_sem(P, in->line, in->col, PTX_PARSE_ERROR_SEMANTIC,
                         "call to '%s' passes %u argument(s) and %u return value(s), it takes %u and %u", c->name,
                         in->call_n_args, in->call_n_ret, c->params->len, c->rets->len);
        }
    }
}

static void parser_free(ptx_parser *P)
{
    func_state_free(P);
    g_hash_table_destroy(P->funcs);
    g_hash_table_destroy(P->undeclared);
    g_hash_table_destroy(P->msyms);
    g_ptr_array_free(P->strings, TRUE);
    g_string_free(P->tmp, TRUE);
    params_clear(P->ret_scratch);
    g_array_free(P->ret_scratch, TRUE);
}

ir_module *ptx_parse_string(const char *text, gssize len, const char *filename, GError **err)
{
    g_return_val_if_fail(text != NULL, NULL);
    ptx_parser *P = g_new0(ptx_parser, 1);
    size_t n = len < 0 ? strlen(text) : (size_t)len;
    P->filename = filename ? filename : "<input>";
    ptx_lexer_init(&P->lx, text, n);
    P->m = ir_module_new(P->filename);
    P->funcs = g_hash_table_new(g_str_hash, g_str_equal);
    P->undeclared = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    P->msyms = g_hash_table_new(g_str_hash, g_str_equal);
    P->strings = g_ptr_array_new_with_free_func(g_free);
    P->tmp = g_string_new(NULL);
    P->ret_scratch = g_array_new(FALSE, TRUE, sizeof(ir_param));
    ir_module *volatile result = NULL;
    if (setjmp(P->jb) == 0) {
        advance(P);
        while (P->tok.kind != PTX_TOK_EOF)
            parse_module_directive(P);
        module_finish(P);
        result = P->m;
    } else {
        ir_module *m = P->m;
        func_state_free(P);
        ir_module_free(m);
        g_propagate_error(err, P->error);
        P->error = NULL;
    }
    parser_free(P);
    g_free(P);
    return result;
}

ir_module *ptx_parse_file(const char *path, GError **err)
{
    char *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!hostfile_read(path, HOSTFILE_TEXT, &text, &len, &e)) {
        g_set_error(err, PTX_PARSE_ERROR, PTX_PARSE_ERROR_IO, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    ir_module *m = ptx_parse_string(text, (gssize)len, path, err);
    g_free(text);
    return m;
}
