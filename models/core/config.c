/* config.c — presets, INI files, --set overrides, validation, --dump-config.
 *
 * GKeyFile parses the INI text but does not report line numbers, so each text is also scanned line
 * by line to find the line of every key (and to report syntax errors with their line, and the
 * localised keys "key[locale]" GKeyFile would otherwise hide).
 */
#include "models/core/config.h"

#include <string.h>

#include "kernels/frontend/hostfile.h"

G_DEFINE_QUARK(gpusc - config - error - quark, cfg_error)

/* ---------------------------------------------------------------------------------------------
 * Presets (a registry, like blocks)
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    const char *name, *description, *text;
} preset;

static GArray *presets; /* preset, registration order */

void cfg_preset_register(const char *name, const char *description, const char *ini_text)
{
    if (!presets)
        presets = g_array_new(FALSE, TRUE, sizeof(preset));
    for (unsigned i = 0; i < presets->len; i++) {
        const preset *p = &g_array_index(presets, preset, i);
        if (strcmp(p->name, name) == 0) {
            if (strcmp(p->text, ini_text) != 0)
                g_error("two different presets are named %s", name);
            return;
        }
    }
    preset p = {name, description, ini_text};
    g_array_append_val(presets, p);
}

bool cfg_preset_known(const char *name)
{
    for (unsigned i = 0; presets && i < presets->len; i++)
        if (strcmp(g_array_index(presets, preset, i).name, name) == 0)
            return true;
    return false;
}

unsigned cfg_preset_count(void)
{
    return presets ? presets->len : 0;
}

void cfg_preset_nth(unsigned i, const char **name, const char **description)
{
    g_assert(presets && i < presets->len);
    *name = g_array_index(presets, preset, i).name;
    *description = g_array_index(presets, preset, i).description;
}

/* ---------------------------------------------------------------------------------------------
 * Entries
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    char *section, *key, *value;
    char *source; /* for --dump-config */
    char *where;  /* for error messages */
} cfg_entry;

struct cfg {
    GPtrArray *all;     /* every cfg_entry loaded, in order (owned) */
    GHashTable *latest; /* "section\nkey" -> the latest cfg_entry for it */
};

static void entry_free(gpointer p)
{
    cfg_entry *e = p;
    g_free(e->section);
    g_free(e->key);
    g_free(e->value);
    g_free(e->source);
    g_free(e->where);
    g_free(e);
}

cfg *cfg_new(void)
{
    cfg *c = g_new0(cfg, 1);
    c->all = g_ptr_array_new_with_free_func(entry_free);
    c->latest = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return c;
}

void cfg_free(cfg *c)
{
    if (!c)
        return;
    g_hash_table_destroy(c->latest);
    g_ptr_array_free(c->all, TRUE);
    g_free(c);
}

static char *entry_key(const char *section, const char *key)
{
    return g_strconcat(section, "\n", key, NULL);
}

static void cfg_add(cfg *c, const char *section, const char *key, const char *value, char *source,
                    char *where)
{
    cfg_entry *e = g_new0(cfg_entry, 1);
    e->section = g_strdup(section);
    e->key = g_strdup(key);
    e->value = g_strdup(value);
    e->source = source;
    e->where = where;
    g_ptr_array_add(c->all, e);
    g_hash_table_insert(c->latest, entry_key(section, key), e);
}

static const cfg_entry *cfg_get(const cfg *c, const char *section, const char *key)
{
    char *k = entry_key(section, key);
    const cfg_entry *e = g_hash_table_lookup(c->latest, k);
    g_free(k);
    return e;
}

/* ---------------------------------------------------------------------------------------------
 * Validation of one entry
 * ------------------------------------------------------------------------------------------- */

static char *param_names(const blk_desc *d)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < d->n_params; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", d->params[i].name);
    if (!d->n_params)
        g_string_append(s, "none");
    return g_string_free(s, FALSE);
}

/* "; `key` is a parameter of: a, b" when registered block types declare it (a key set in the wrong
 * section, or in the section of a block that was split), else "" (to g_free). */
static char *key_owners(const char *key)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < blk_registry_count(); i++) {
        const blk_desc *d = blk_registry_nth(i);
        if (blk_desc_param(d, key))
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", d->name);
    }
    char *list = g_string_free(s, FALSE);
    char *r = *list ? g_strdup_printf("; %s is a parameter of: %s", key, list) : g_strdup("");
    g_free(list);
    return r;
}

/* Check key=value of `section` against descriptor d. */
static bool check_entry(const blk_desc *d, const char *where, const char *section, const char *key,
                        const char *value, GError **err)
{
    const blk_param_desc *p = blk_desc_param(d, key);
    if (!p) {
        char *names = param_names(d), *owners = key_owners(key);
        g_set_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN, "%s: [%s] %s: unknown key (parameters of %s: %s)%s",
                    where, section, key, d->name, names, owners);
        g_free(names);
        g_free(owners);
        return false;
    }
    blk_value v;
    char *problem = NULL;
    if (!blk_value_parse(p, value, &v, &problem)) {
        int code = strstr(problem, "out of range") ? CFG_ERROR_RANGE : CFG_ERROR_TYPE;
        g_set_error(err, CFG_ERROR, code, "%s: [%s] %s: %s", where, section, key, problem);
        g_free(problem);
        return false;
    }
    blk_value_clear(&v);
    return true;
}

/* ---------------------------------------------------------------------------------------------
 * Loading INI text
 * ------------------------------------------------------------------------------------------- */

/* Scan the text for syntax errors and the line of each "section\nkey" (the last occurrence, as
 * GKeyFile keeps the last value). */
static GHashTable *scan_lines(const char *origin, const char *text, GError **err)
{
    GHashTable *lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char **v = g_strsplit(text, "\n", -1);
    char *section = NULL;
    bool ok = true;
    for (unsigned i = 0; v[i] && ok; i++) {
        char *line = g_strstrip(v[i]);
        unsigned lineno = i + 1;
        if (!*line || *line == '#')
            continue;
        if (*line == '[') {
            size_t n = strlen(line);
            if (line[n - 1] != ']' || n < 3) {
                g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX, "%s:%u: syntax error: expected [section]",
                            origin, lineno);
                ok = false;
                break;
            }
            g_free(section);
            section = g_strndup(line + 1, n - 2);
            continue;
        }
        char *eq = strchr(line, '=');
        if (!eq || eq == line) {
            g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX,
                        "%s:%u: syntax error: expected key=value or [section]", origin, lineno);
            ok = false;
            break;
        }
        if (!section) {
            g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX, "%s:%u: syntax error: key outside of any [section]",
                        origin, lineno);
            ok = false;
            break;
        }
        *eq = '\0';
        char *key = g_strstrip(line);
        if (strchr(key, '[')) {
            /* GKeyFile takes key[locale] as a translation of key and g_key_file_get_keys does not
             * list it: it would be dropped without a word. */
            g_set_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN,
                        "%s:%u: [%s] %s: unknown key (localised keys, key[locale], are not parameters)",
                        origin, lineno, section, key);
            ok = false;
            break;
        }
        char *ek = entry_key(section, key);
        unsigned first = GPOINTER_TO_UINT(g_hash_table_lookup(lines, ek));
        if (first) /* GKeyFile keeps the last one: legal, but most likely a slip */
            fprintf(
                stderr,
                "gpusc: warning: %s:%u: [%s] %s is given again (first at line %u); the last value is used\n",
                origin, lineno, section, key, first);
        g_hash_table_insert(lines, ek, GUINT_TO_POINTER(lineno));
    }
    g_free(section);
    g_strfreev(v);
    if (!ok) {
        g_hash_table_destroy(lines);
        return NULL;
    }
    return lines;
}

/* The offset of the first backslash of a raw value that GKeyFile cannot unescape, or -1. */
static long bad_escape(const char *raw)
{
    for (const char *p = raw; *p; p++) {
        if (*p != '\\')
            continue;
        if (!p[1] || !strchr("\\sntr", p[1]))
            return (long)(p - raw);
        p++;
    }
    return -1;
}

/* The line at which GKeyFile (whose messages name no line) first refuses the text: the fewest
 * leading lines it refuses, found by bisection (a text that fails keeps failing as lines are added). */
static unsigned failing_line(const char *text)
{
    GPtrArray *starts = g_ptr_array_new(); /* starts->pdata[i]: where line i + 2 begins */
    for (const char *p = strchr(text, '\n'); p; p = strchr(p + 1, '\n'))
        g_ptr_array_add(starts, (gpointer)(p + 1));
    unsigned lo = 1, hi = starts->len + 1; /* the first `hi` lines are refused; the first lo - 1 are not */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        gsize len = mid <= starts->len ? (gsize)((const char *)starts->pdata[mid - 1] - text) : strlen(text);
        GKeyFile *kf = g_key_file_new();
        if (g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, NULL))
            lo = mid + 1;
        else
            hi = mid;
        g_key_file_free(kf);
    }
    g_ptr_array_free(starts, TRUE);
    return lo;
}

/* Load text whose entries are located as "<origin>:<line>" and sourced as `source` (NULL: the
 * location itself). Type sections are validated now; instance sections by cfg_check_instances. */
static bool load_text(cfg *c, const char *origin, const char *source, const char *text, GError **err)
{
    if (g_str_has_prefix(text, "\xef\xbb\xbf"))
        text += 3; /* a UTF-8 byte order mark (editors on some systems write one): not part of line 1 */
    GHashTable *lines = scan_lines(origin, text, err);
    if (!lines)
        return false;
    GKeyFile *kf = g_key_file_new();
    GError *kerr = NULL;
    bool ok = g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, &kerr);
    if (!ok) {
        g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX, "%s:%u: syntax error: %s", origin, failing_line(text),
                    kerr->message);
        g_error_free(kerr);
    }
    gchar **groups = ok ? g_key_file_get_groups(kf, NULL) : NULL;
    for (unsigned g = 0; ok && groups[g]; g++) {
        gchar **keys = g_key_file_get_keys(kf, groups[g], NULL, NULL);
        const blk_desc *d = blk_registry_find(groups[g]);
        for (unsigned k = 0; ok && keys && keys[k]; k++) {
            char *ek = entry_key(groups[g], keys[k]);
            unsigned line = GPOINTER_TO_UINT(g_hash_table_lookup(lines, ek));
            g_free(ek);
            char *where = g_strdup_printf("%s:%u", origin, line);
            /* On a value it cannot unescape (a backslash at its end or before another letter than
             * s, n, t, r) GKeyFile sets the error but still returns a value (the text without the
             * backslash, or with it), and a second bad escape sets its error twice: the escapes are
             * checked first, and the error decides. */
            char *raw = g_key_file_get_value(kf, groups[g], keys[k], NULL);
            long bad = raw ? bad_escape(raw) : -1;
            g_free(raw);
            char *value = bad < 0 ? g_key_file_get_string(kf, groups[g], keys[k], &kerr) : NULL;
            if (!value || kerr) {
                if (bad >= 0)
                    g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX,
                                "%s: [%s] %s: a backslash (character %ld of the value) that starts no escape "
                                "(\\\\, \\s, \\n, \\t, \\r)",
                                where, groups[g], keys[k], bad + 1);
                else
                    g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX, "%s: [%s] %s: %s", where, groups[g], keys[k],
                                kerr ? kerr->message : "no value");
                g_clear_error(&kerr);
                ok = false;
            } else if (d && !check_entry(d, where, groups[g], keys[k], value, err)) {
                ok = false;
            }
            if (ok)
                cfg_add(c, groups[g], keys[k], value, source ? g_strdup(source) : g_strdup(where), where);
            else
                g_free(where);
            g_free(value);
        }
        g_strfreev(keys);
    }
    g_strfreev(groups);
    g_key_file_free(kf);
    g_hash_table_destroy(lines);
    return ok;
}

bool cfg_load_preset(cfg *c, const char *name, GError **err)
{
    for (unsigned i = 0; presets && i < presets->len; i++) {
        const preset *p = &g_array_index(presets, preset, i);
        if (strcmp(p->name, name) == 0) {
            char *origin = g_strdup_printf("preset %s", name);
            bool ok = load_text(c, origin, origin, p->text, err);
            g_free(origin);
            return ok;
        }
    }
    GString *known = g_string_new(NULL);
    for (unsigned i = 0; presets && i < presets->len; i++)
        g_string_append_printf(known, "%s%s", i ? ", " : "", g_array_index(presets, preset, i).name);
    g_set_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN, "unknown preset '%s' (known: %s)", name,
                known->len ? known->str : "none");
    g_string_free(known, TRUE);
    return false;
}

bool cfg_load_file(cfg *c, const char *path, GError **err)
{
    char *text = NULL;
    GError *ferr = NULL;
    if (!hostfile_read(path, HOSTFILE_TEXT, &text, NULL, &ferr)) { /* a NUL byte: an error at its line */
        g_set_error(err, CFG_ERROR, ferr->code == G_FILE_ERROR_INVAL ? CFG_ERROR_SYNTAX : CFG_ERROR_IO, "%s",
                    ferr->message);
        g_error_free(ferr);
        return false;
    }
    bool ok = load_text(c, path, NULL, text, err);
    g_free(text);
    return ok;
}

bool cfg_load_data(cfg *c, const char *origin, const char *text, GError **err)
{
    return load_text(c, origin, NULL, text, err);
}

bool cfg_set(cfg *c, const char *assignment, GError **err)
{
    return cfg_set_from(c, assignment, "--set", err);
}

bool cfg_set_from(cfg *c, const char *assignment, const char *source, GError **err)
{
    char *x = blk_excerpt(assignment);
    char *where = g_strdup_printf("%s %s", source, x);
    g_free(x);
    const char *eq = strchr(assignment, '=');
    char *lhs = eq ? g_strndup(assignment, (gsize)(eq - assignment)) : NULL;
    char *dot = lhs ? strrchr(lhs, '.') : NULL;
    if (!dot || dot == lhs || !dot[1]) {
        g_set_error(err, CFG_ERROR, CFG_ERROR_SYNTAX, "%s: expected section.key=value", where);
        g_free(lhs);
        g_free(where);
        return false;
    }
    *dot = '\0';
    const char *section = lhs, *key = dot + 1, *value = eq + 1;
    const blk_desc *d = blk_registry_find(section);
    bool ok = !d || check_entry(d, where, section, key, value, err);
    if (ok)
        cfg_add(c, section, key, value, g_strdup(source), where);
    else
        g_free(where);
    g_free(lhs);
    return ok;
}

/* ---------------------------------------------------------------------------------------------
 * Lookup, instance checks, dump
 * ------------------------------------------------------------------------------------------- */

bool cfg_lookup(const cfg *c, const char *path, const char *type, const blk_param_desc *p, cfg_value_ref *out)
{
    const cfg_entry *e = c ? cfg_get(c, path, p->name) : NULL;
    if (!e && c)
        e = cfg_get(c, type, p->name);
    if (!e) {
        *out = (cfg_value_ref){p->def, "default", "default", NULL};
        return false;
    }
    *out = (cfg_value_ref){e->value, e->source, e->where, e->section};
    return true;
}

static gint str_ptr_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sections the program's instances answer to: their types, sorted (to g_free). */
static char *program_sections(const blk_ctx *ctx)
{
    GPtrArray *names = g_ptr_array_new();
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const char *t = blk_ctx_inst(ctx, i)->desc->name;
        bool seen = false;
        for (unsigned j = 0; j < names->len && !seen; j++)
            seen = strcmp(g_ptr_array_index(names, j), t) == 0;
        if (!seen)
            g_ptr_array_add(names, (gpointer)t);
    }
    g_ptr_array_sort(names, str_ptr_cmp);
    GString *s = g_string_new(NULL);
    for (unsigned j = 0; j < names->len; j++)
        g_string_append_printf(s, "%s%s", j ? ", " : "", (const char *)g_ptr_array_index(names, j));
    g_ptr_array_free(names, TRUE);
    return g_string_free(s, FALSE);
}

static bool type_used(const blk_ctx *ctx, const char *type)
{
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++)
        if (strcmp(blk_ctx_inst(ctx, i)->desc->name, type) == 0)
            return true;
    return false;
}

bool cfg_check_instances(const cfg *c, const blk_ctx *ctx, GError **err)
{
    for (unsigned i = 0; i < c->all->len; i++) {
        const cfg_entry *e = g_ptr_array_index(c->all, i);
        if (blk_registry_find(e->section)) {
            /* a type section, checked at load; one the user wrote must be a type the program built
             * (presets describe several machines, and --seed reaches every type with a seed) */
            if (g_str_has_prefix(e->source, "preset ") || strcmp(e->source, "--seed") == 0 ||
                type_used(ctx, e->section))
                continue;
            char *have = program_sections(ctx);
            g_set_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN,
                        "%s: [%s] %s: this program has no %s (its sections: %s; or an instance's path)",
                        e->where, e->section, e->key, e->section, have);
            g_free(have);
            return false;
        }
        const blk_inst *inst = blk_ctx_find(ctx, e->section);
        if (!inst) {
            char *owners = key_owners(e->key);
            g_set_error(err, CFG_ERROR, CFG_ERROR_UNKNOWN,
                        "%s: [%s] %s: unknown section (neither a block type nor an instance)%s", e->where,
                        e->section, e->key, owners);
            g_free(owners);
            return false;
        }
        if (!check_entry(inst->desc, e->where, e->section, e->key, e->value, err))
            return false;
    }
    return true;
}

/* A value as an INI file spells it (GKeyFile's escapes), so that the dump loads back as it was:
 * a backslash, a newline, a carriage return and a tab, and a leading space (which would be stripped). */
static char *ini_escape(const char *v)
{
    GString *s = g_string_new(NULL);
    for (const char *p = v; *p; p++) {
        switch (*p) {
        case '\\':
            g_string_append(s, "\\\\");
            break;
        case '\n':
            g_string_append(s, "\\n");
            break;
        case '\r':
            g_string_append(s, "\\r");
            break;
        case '\t':
            g_string_append(s, "\\t");
            break;
        case ' ':
            g_string_append(s, p == v ? "\\s" : " ");
            break;
        default:
            g_string_append_c(s, *p);
        }
    }
    return g_string_free(s, FALSE);
}

void cfg_dump(const blk_ctx *ctx, FILE *out)
{
    fprintf(out, "# gpusc effective configuration: every instance, every parameter, with its source\n");
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        const blk_desc *d = inst->desc;
        fprintf(out, "\n[%s]\n# %s: %s\n", inst->path, d->name, d->description);
        for (unsigned k = 0; k < d->n_params; k++) {
            char *src = ini_escape(inst->param_src[k]), *val = ini_escape(inst->params[k].s);
            fprintf(out, "# %s\n%s=%s\n", src, d->params[k].name, val);
            g_free(src);
            g_free(val);
        }
    }
}
