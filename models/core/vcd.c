/* vcd.c — the VCD reader: a tokenizer with line numbers, the header, the value changes. */
#include "models/core/vcd.h"

#include <errno.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK(gpusc - vcd - error - quark, vcd_error)

#define VCD_MAX_WIDTH (1u << 16)

typedef struct {
    unsigned width;
    bool real;
    GArray *times;     /* uint64_t */
    GPtrArray *values; /* char * */
} vcd_wire;

typedef struct {
    char *name;
    unsigned wire;
    char *range; /* declared bit range ("[5:0]"), or NULL */
} vcd_var;

struct vcd {
    uint64_t timescale_fs;
    GArray *wires;     /* vcd_wire */
    GArray *vars;      /* vcd_var */
    GHashTable *ids;   /* identifier code -> wire index + 1 */
    GHashTable *names; /* full name and name without top scope -> var index + 1 */
};

/* ---- tokenizer ---- */

typedef struct {
    const char *p, *end, *origin;
    unsigned line;
    char *tok; /* current token (owned) */
    unsigned tok_line;
} lexer;

static bool lex_next(lexer *lx)
{
    g_free(lx->tok);
    lx->tok = NULL;
    while (lx->p < lx->end && g_ascii_isspace(*lx->p)) {
        if (*lx->p == '\n')
            lx->line++;
        lx->p++;
    }
    if (lx->p >= lx->end)
        return false;
    const char *s = lx->p;
    while (lx->p < lx->end && !g_ascii_isspace(*lx->p))
        lx->p++;
    lx->tok = g_strndup(s, (gsize)(lx->p - s));
    lx->tok_line = lx->line;
    return true;
}

static bool fail(lexer *lx, GError **err, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static bool fail(lexer *lx, GError **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, VCD_ERROR, 0, "%s:%u: %s", lx->origin, lx->tok ? lx->tok_line : lx->line, msg);
    g_free(msg);
    return false;
}

/* Collect the tokens up to $end (joined by spaces) into *out (may be NULL to skip). */
static bool lex_until_end(lexer *lx, GError **err, char **out)
{
    GString *s = g_string_new(NULL);
    const char *kw = NULL;
    char *kwcopy = g_strdup(lx->tok);
    kw = kwcopy;
    bool ok = false;
    while (lex_next(lx)) {
        if (strcmp(lx->tok, "$end") == 0) {
            ok = true;
            break;
        }
        g_string_append_printf(s, "%s%s", s->len ? " " : "", lx->tok);
    }
    if (!ok)
        fail(lx, err, "%s without $end", kw);
    g_free(kwcopy);
    if (ok && out)
        *out = g_string_free(s, FALSE);
    else
        g_string_free(s, TRUE);
    return ok;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!*s || !g_ascii_isdigit(*s))
        return false;
    guint64 v;
    if (!g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, &v, NULL))
        return false;
    *out = v;
    return true;
}

/* ---- header ---- */

static bool parse_timescale(lexer *lx, const char *text, uint64_t *fs, GError **err)
{
    static const struct {
        const char *unit;
        uint64_t fs;
    } units[] = {{"s", 1000000000000000ull}, {"ms", 1000000000000ull}, {"us", 1000000000ull},
                 {"ns", 1000000ull},         {"ps", 1000ull},          {"fs", 1ull}};
    char *compact = g_strdup(text);
    char *w = compact;
    for (const char *r = text; *r; r++)
        if (*r != ' ')
            *w++ = *r;
    *w = '\0';
    const char *u = compact;
    while (g_ascii_isdigit(*u))
        u++;
    char *num = g_strndup(compact, (gsize)(u - compact));
    bool ok = false;
    uint64_t n = 0;
    if ((strcmp(num, "1") == 0 || strcmp(num, "10") == 0 || strcmp(num, "100") == 0) && parse_u64(num, &n))
        for (unsigned i = 0; i < G_N_ELEMENTS(units); i++)
            if (strcmp(u, units[i].unit) == 0) {
                *fs = n * units[i].fs;
                ok = true;
            }
    g_free(num);
    g_free(compact);
    return ok || fail(lx, err, "bad $timescale '%s'", text);
}

/* The reference without a trailing bit range ("value[5:0]" -> "value"). */
static char *strip_range(const char *ref)
{
    const char *b = strchr(ref, '[');
    return b && b != ref ? g_strndup(ref, (gsize)(b - ref)) : g_strdup(ref);
}

static bool parse_var(vcd *v, lexer *lx, GPtrArray *scopes, GError **err)
{
    char *text = NULL;
    if (!lex_until_end(lx, err, &text))
        return false;
    char **f = g_strsplit(text, " ", -1);
    bool ok = false;
    uint64_t width = 0;
    if (g_strv_length(f) < 4)
        fail(lx, err, "$var needs type, width, identifier and reference");
    else if (!parse_u64(f[1], &width) || width == 0 || width > VCD_MAX_WIDTH)
        fail(lx, err, "$var %s: bad width '%s'", f[3], f[1]);
    else
        ok = true;
    if (ok) {
        bool real = strcmp(f[0], "real") == 0 || strcmp(f[0], "realtime") == 0;
        gpointer w = g_hash_table_lookup(v->ids, f[2]);
        if (!w) {
            vcd_wire nw = {(unsigned)width, real, g_array_new(FALSE, FALSE, sizeof(uint64_t)),
                           g_ptr_array_new_with_free_func(g_free)};
            g_array_append_val(v->wires, nw);
            w = GUINT_TO_POINTER(v->wires->len);
            g_hash_table_insert(v->ids, g_strdup(f[2]), w);
        } else if (g_array_index(v->wires, vcd_wire, GPOINTER_TO_UINT(w) - 1).width != width) {
            ok = fail(lx, err, "$var %s: identifier %s declared again with another width", f[3], f[2]);
        }
        if (ok) {
            GString *name = g_string_new(NULL);
            for (unsigned i = 0; i < scopes->len; i++)
                g_string_append_printf(name, "%s.", (char *)g_ptr_array_index(scopes, i));
            char *ref = strip_range(f[3]);
            g_string_append(name, ref);
            const char *range = f[3][strlen(ref)] ? f[3] + strlen(ref) : f[4] && f[4][0] == '[' ? f[4] : NULL;
            g_free(ref);
            vcd_var var = {g_string_free(name, FALSE), GPOINTER_TO_UINT(w) - 1, g_strdup(range)};
            g_array_append_val(v->vars, var);
            gpointer idx = GUINT_TO_POINTER(v->vars->len);
            if (!g_hash_table_contains(v->names, var.name))
                g_hash_table_insert(v->names, g_strdup(var.name), idx);
            const char *dot = strchr(var.name, '.');
            if (scopes->len && dot && !g_hash_table_contains(v->names, dot + 1))
                g_hash_table_insert(v->names, g_strdup(dot + 1), idx);
        }
    }
    g_strfreev(f);
    g_free(text);
    return ok;
}

static bool parse_header(vcd *v, lexer *lx, GError **err)
{
    GPtrArray *scopes = g_ptr_array_new_with_free_func(g_free);
    bool ok = true, done = false;
    while (ok && !done) {
        if (!lex_next(lx)) {
            ok = fail(lx, err, "end of file before $enddefinitions");
            break;
        }
        const char *t = lx->tok;
        if (strcmp(t, "$date") == 0 || strcmp(t, "$version") == 0 || strcmp(t, "$comment") == 0) {
            ok = lex_until_end(lx, err, NULL);
        } else if (strcmp(t, "$timescale") == 0) {
            char *ts = NULL;
            ok = lex_until_end(lx, err, &ts) && parse_timescale(lx, ts, &v->timescale_fs, err);
            g_free(ts);
        } else if (strcmp(t, "$scope") == 0) {
            char *sc = NULL;
            ok = lex_until_end(lx, err, &sc);
            if (ok) {
                char **f = g_strsplit(sc, " ", -1);
                if (g_strv_length(f) != 2)
                    ok = fail(lx, err, "$scope needs a type and a name");
                else
                    g_ptr_array_add(scopes, g_strdup(f[1]));
                g_strfreev(f);
            }
            g_free(sc);
        } else if (strcmp(t, "$upscope") == 0) {
            ok = lex_until_end(lx, err, NULL);
            if (ok && scopes->len == 0)
                ok = fail(lx, err, "$upscope without $scope");
            else if (ok)
                g_ptr_array_remove_index(scopes, scopes->len - 1);
        } else if (strcmp(t, "$var") == 0) {
            ok = parse_var(v, lx, scopes, err);
        } else if (strcmp(t, "$enddefinitions") == 0) {
            ok = lex_until_end(lx, err, NULL);
            done = true;
        } else {
            ok = fail(lx, err, "unexpected '%s' in the header", t);
        }
    }
    if (ok && scopes->len)
        ok = fail(lx, err, "$scope not closed at $enddefinitions");
    g_ptr_array_free(scopes, TRUE);
    return ok;
}

/* ---- value changes ---- */

static bool record(vcd *v, lexer *lx, uint64_t time, const char *id, const char *value, bool real_value,
                   GError **err)
{
    gpointer w = g_hash_table_lookup(v->ids, id);
    if (!w)
        return fail(lx, err, "value change of undeclared identifier '%s'", id);
    vcd_wire *wire = &g_array_index(v->wires, vcd_wire, GPOINTER_TO_UINT(w) - 1);
    char *val;
    if (real_value) {
        if (!wire->real)
            return fail(lx, err, "real value for non-real identifier '%s'", id);
        char *end = NULL;
        errno = 0;
        g_ascii_strtod(value, &end);
        if (!*value || *end || errno)
            return fail(lx, err, "bad real value '%s'", value);
        val = g_strdup(value);
    } else {
        size_t n = strlen(value);
        if (wire->real)
            return fail(lx, err, "bit value for real identifier '%s'", id);
        if (n == 0 || n > wire->width)
            return fail(lx, err, "value '%s' does not fit identifier '%s' of width %u", value, id,
                        wire->width);
        val = g_malloc(wire->width + 1);
        char pad = (value[0] == 'x' || value[0] == 'X')   ? 'x'
                   : (value[0] == 'z' || value[0] == 'Z') ? 'z'
                                                          : '0';
        memset(val, pad, wire->width - n);
        for (size_t i = 0; i < n; i++) {
            char c = g_ascii_tolower(value[i]);
            if (c != '0' && c != '1' && c != 'x' && c != 'z') {
                g_free(val);
                return fail(lx, err, "bad bit '%c' in value '%s'", value[i], value);
            }
            val[wire->width - n + i] = c;
        }
        val[wire->width] = '\0';
    }
    unsigned n = wire->times->len;
    if (n && g_array_index(wire->times, uint64_t, n - 1) == time) {
        /* Several changes at one time: the last one is the value. */
        g_free(g_ptr_array_index(wire->values, n - 1));
        g_ptr_array_index(wire->values, n - 1) = val;
    } else {
        g_array_append_val(wire->times, time);
        g_ptr_array_add(wire->values, val);
    }
    return true;
}

static bool parse_body(vcd *v, lexer *lx, GError **err)
{
    uint64_t time = 0;
    bool ok = true;
    while (ok && lex_next(lx)) {
        const char *t = lx->tok;
        char c = t[0];
        if (c == '#') {
            uint64_t nt;
            if (!parse_u64(t + 1, &nt))
                ok = fail(lx, err, "bad time '%s'", t);
            else if (nt < time)
                ok = fail(lx, err, "time goes backwards (%s after #%" G_GUINT64_FORMAT ")", t, time);
            else
                time = nt;
        } else if (strcmp(t, "$dumpvars") == 0 || strcmp(t, "$dumpall") == 0 || strcmp(t, "$dumpon") == 0 ||
                   strcmp(t, "$dumpoff") == 0 || strcmp(t, "$end") == 0) {
            continue; /* the values inside these blocks are ordinary changes */
        } else if (strcmp(t, "$comment") == 0) {
            ok = lex_until_end(lx, err, NULL);
        } else if (c == 'b' || c == 'B' || c == 'r' || c == 'R') {
            char *value = g_strdup(t + 1);
            if (!lex_next(lx))
                ok = fail(lx, err, "value '%s' without an identifier", value);
            else
                ok = record(v, lx, time, lx->tok, value, c == 'r' || c == 'R', err);
            g_free(value);
        } else if (strchr("01xXzZ", c) && c) {
            char value[2] = {c, '\0'};
            if (!t[1])
                ok = fail(lx, err, "scalar value without an identifier");
            else
                ok = record(v, lx, time, t + 1, value, false, err);
        } else {
            ok = fail(lx, err, "unexpected '%s'", t);
        }
    }
    return ok;
}

/* ---- API ---- */

static void wire_clear(gpointer p)
{
    vcd_wire *w = p;
    g_array_free(w->times, TRUE);
    g_ptr_array_free(w->values, TRUE);
}

static void var_clear(gpointer p)
{
    g_free(((vcd_var *)p)->name);
    g_free(((vcd_var *)p)->range);
}

void vcd_free(vcd *v)
{
    if (!v)
        return;
    g_array_free(v->wires, TRUE);
    g_array_free(v->vars, TRUE);
    g_hash_table_destroy(v->ids);
    g_hash_table_destroy(v->names);
    g_free(v);
}

vcd *vcd_parse(const char *origin, const char *text, size_t len, GError **err)
{
    if (memchr(text, '\0', len)) {
        g_set_error(err, VCD_ERROR, 0, "%s: NUL byte in a VCD file", origin);
        return NULL;
    }
    vcd *v = g_new0(vcd, 1);
    v->timescale_fs = 1000; /* 1 ps when the file does not say */
    v->wires = g_array_new(FALSE, TRUE, sizeof(vcd_wire));
    g_array_set_clear_func(v->wires, wire_clear);
    v->vars = g_array_new(FALSE, TRUE, sizeof(vcd_var));
    g_array_set_clear_func(v->vars, var_clear);
    v->ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    v->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    lexer lx = {text, text + len, origin, 1, NULL, 1};
    bool ok = parse_header(v, &lx, err) && parse_body(v, &lx, err);
    g_free(lx.tok);
    if (!ok) {
        vcd_free(v);
        return NULL;
    }
    return v;
}

vcd *vcd_load(const char *path, GError **err)
{
    char *text = NULL;
    gsize len = 0;
    /* A device or a pipe (a VCD written through a symbolic link to one) may never end. */
    if (g_file_test(path, G_FILE_TEST_EXISTS) && !g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a regular file", path);
        return NULL;
    }
    if (!g_file_get_contents(path, &text, &len, err))
        return NULL;
    vcd *v = vcd_parse(path, text, len, err);
    g_free(text);
    return v;
}

uint64_t vcd_timescale_fs(const vcd *v)
{
    return v->timescale_fs;
}

unsigned vcd_n_signals(const vcd *v)
{
    return v->vars->len;
}

static const vcd_var *var_at(const vcd *v, unsigned sig)
{
    g_assert(sig < v->vars->len);
    return &g_array_index(v->vars, vcd_var, sig);
}

static const vcd_wire *wire_of(const vcd *v, unsigned sig)
{
    return &g_array_index(v->wires, vcd_wire, var_at(v, sig)->wire);
}

const char *vcd_signal_name(const vcd *v, unsigned sig)
{
    return var_at(v, sig)->name;
}

const char *vcd_signal_range(const vcd *v, unsigned sig)
{
    return var_at(v, sig)->range;
}

unsigned vcd_signal_width(const vcd *v, unsigned sig)
{
    return wire_of(v, sig)->width;
}

bool vcd_signal_is_real(const vcd *v, unsigned sig)
{
    return wire_of(v, sig)->real;
}

int vcd_find(const vcd *v, const char *name)
{
    gpointer idx = g_hash_table_lookup(v->names, name);
    return idx ? (int)GPOINTER_TO_UINT(idx) - 1 : -1;
}

unsigned vcd_n_changes(const vcd *v, unsigned sig)
{
    return wire_of(v, sig)->times->len;
}

vcd_change vcd_change_nth(const vcd *v, unsigned sig, unsigned i)
{
    const vcd_wire *w = wire_of(v, sig);
    g_assert(i < w->times->len);
    return (vcd_change){g_array_index(w->times, uint64_t, i), g_ptr_array_index(w->values, i)};
}

/* Index of the last change at or before t, or -1. */
static long last_change_upto(const vcd_wire *w, uint64_t t)
{
    long lo = 0, hi = (long)w->times->len - 1, found = -1;
    while (lo <= hi) {
        long mid = lo + (hi - lo) / 2;
        if (g_array_index(w->times, uint64_t, mid) <= t) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found;
}

const char *vcd_value_at_time(const vcd *v, unsigned sig, uint64_t t)
{
    const vcd_wire *w = wire_of(v, sig);
    long i = last_change_upto(w, t);
    return i < 0 ? NULL : g_ptr_array_index(w->values, i);
}

static uint64_t cycle_start(const vcd *v, uint64_t cycle, uint64_t period_ps)
{
    return cycle * period_ps * 1000 / v->timescale_fs;
}

const char *vcd_value_at_cycle(const vcd *v, unsigned sig, uint64_t cycle, uint64_t period_ps)
{
    /* the changes of a cycle are at its start; strobes fall back half a cycle later */
    return vcd_value_at_time(v, sig, cycle_start(v, cycle, period_ps));
}

bool vcd_uint_at_cycle(const vcd *v, unsigned sig, uint64_t cycle, uint64_t period_ps, uint64_t *out)
{
    const char *s = vcd_value_at_cycle(v, sig, cycle, period_ps);
    if (!s || vcd_signal_is_real(v, sig) || strlen(s) > 64)
        return false;
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '0' && *p != '1')
            return false;
        x = (x << 1) | (uint64_t)(*p == '1');
    }
    *out = x;
    return true;
}

uint64_t vcd_time_to_cycle(const vcd *v, uint64_t t, uint64_t period_ps)
{
    return t * v->timescale_fs / (period_ps * 1000);
}
