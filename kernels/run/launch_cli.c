/* launch_cli.c — see launch_cli.h. Taken from gpusc-run (the stricter of the two former copies: range
 * checks on scalars, bytes:HEX, 64-bit out sizes); the testbenches now use it too. */
#include "kernels/run/launch_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/frontend/hostfile.h"

bool launch_cli_parse_dims(const char *s, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    char **parts = g_strsplit(s, ",", -1);
    guint n = g_strv_length(parts);
    bool ok = n >= 1 && n <= 3;
    for (guint i = 0; ok && i < n; i++) {
        guint64 v;
        if (!g_ascii_string_to_unsigned(g_strstrip(parts[i]), 10, 1, UINT32_MAX, &v, NULL))
            ok = false;
        else
            out[i] = (unsigned)v;
    }
    g_strfreev(parts);
    return ok;
}

/* An output buffer to write after the run. */
typedef struct {
    char *path;
    uint64_t addr, bytes;
} out_buf;

struct launch_cli_args {
    GArray *values;  /* wl_arg */
    GPtrArray *outs; /* out_buf */
    GPtrArray *keep; /* GByteArray behind bytes: arguments */
};

static void out_buf_free(gpointer p)
{
    out_buf *o = p;
    g_free(o->path);
    g_free(o);
}

launch_cli_args *launch_cli_args_new(void)
{
    launch_cli_args *a = g_new0(launch_cli_args, 1);
    a->values = g_array_new(FALSE, TRUE, sizeof(wl_arg));
    a->outs = g_ptr_array_new_with_free_func(out_buf_free);
    a->keep = g_ptr_array_new_with_free_func((GDestroyNotify)g_byte_array_unref);
    return a;
}

void launch_cli_args_free(launch_cli_args *a)
{
    if (!a)
        return;
    g_array_free(a->values, TRUE);
    g_ptr_array_free(a->outs, TRUE);
    g_ptr_array_free(a->keep, TRUE);
    g_free(a);
}

wl_arg *launch_cli_values(launch_cli_args *a)
{
    return (wl_arg *)(void *)a->values->data;
}

static int arg_error(GString *e, unsigned pos, const ir_param *pa, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static int arg_error(GString *e, unsigned pos, const ir_param *pa, const char *fmt, ...)
{
    g_string_append_printf(e, "--arg %u: parameter %s is .%s", pos, pa->name,
                           ir_type_name((ir_type)pa->type));
    if (pa->size != ir_type_bits((ir_type)pa->type) / 8)
        g_string_append_printf(e, "[%" G_GUINT64_FORMAT "]", pa->size);
    g_string_append(e, " but ");
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(e, fmt, ap);
    va_end(ap);
    return 1;
}

static bool param_is_scalar(const ir_param *pa)
{
    return pa->size > 0 && pa->size == ir_type_bits((ir_type)pa->type) / 8;
}

static int convert_float(const char *s, const ir_param *pa, unsigned pos, wl_arg *a, GString *e)
{
    ir_type t = (ir_type)pa->type;
    /* PTX's own spelling of a bit pattern, 0fXXXXXXXX (.f32) or 0dXXXXXXXXXXXXXXXX (.f64) */
    bool f32 = t == IR_T_F32;
    if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        guint64 bits;
        bool want_f = f32, is_f = s[1] == 'f' || s[1] == 'F';
        if (is_f != want_f || strlen(s + 2) != (f32 ? 8u : 16u) ||
            !g_ascii_string_to_unsigned(s + 2, 16, 0, G_MAXUINT64, &bits, NULL))
            return arg_error(e, pos, pa,
                             "'%s' is not a bit pattern of that type (0f + 8 hex digits for .f32, "
                             "0d + 16 for .f64)",
                             s);
        if (f32) {
            uint32_t b = (uint32_t)bits;
            float f;
            memcpy(&f, &b, sizeof f);
            *a = (wl_arg){.kind = WL_ARG_F32, .v.f32 = f};
        } else {
            double f;
            memcpy(&f, &bits, sizeof f);
            *a = (wl_arg){.kind = WL_ARG_F64, .v.f64 = f};
        }
        return 0;
    }
    /* strtod reads 0x3f800000 as the integer 1065353216: a bit pattern meant, a number given */
    const char *h = s + (s[0] == '-' || s[0] == '+');
    if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X') && !strpbrk(h, "pP"))
        return arg_error(e, pos, pa, "'%s' is a hex integer, not a number (a bit pattern is %s)", s,
                         f32 ? "0fXXXXXXXX" : "0dXXXXXXXXXXXXXXXX");
    char *end;
    errno = 0;
    double d = g_ascii_strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno == ERANGE)
        return arg_error(e, pos, pa, "'%s' is not a number", s);
    if (t == IR_T_F32 && isfinite(d) && !isfinite((float)d))
        return arg_error(e, pos, pa, "'%s' does not fit", s);
    if (t == IR_T_F32)
        *a = (wl_arg){.kind = WL_ARG_F32, .v.f32 = (float)d};
    else if (t == IR_T_F64)
        *a = (wl_arg){.kind = WL_ARG_F64, .v.f64 = d};
    else
        return arg_error(e, pos, pa, "that type is not supported");
    return 0;
}

static int convert_scalar(const char *s, const ir_param *pa, unsigned pos, wl_arg *a, GString *e)
{
    ir_type t = (ir_type)pa->type;
    if (!param_is_scalar(pa))
        return arg_error(e, pos, pa, "'%s' is a scalar (use bytes:HEX)", s);
    if (ir_type_is_float(t))
        return convert_float(s, pa, pos, a, e);
    unsigned bits = ir_type_bits(t);
    if (bits == 0 || bits > 64)
        return arg_error(e, pos, pa, "that type is not supported");
    char *end;
    errno = 0;
    if (s[0] == '-') {
        long long v = strtoll(s, &end, 0);
        if (*end != '\0' || errno == ERANGE || end == s)
            return arg_error(e, pos, pa, "'%s' is not an integer", s);
        if (bits < 64 && v < -(1LL << (bits - 1)))
            return arg_error(e, pos, pa, "'%s' does not fit", s);
        *a = (wl_arg){.kind = WL_ARG_S64, .v.s64 = v};
        if (bits < 64) /* two's complement in the parameter's width */
            *a = (wl_arg){.kind = WL_ARG_U64, .v.u64 = (uint64_t)v & ((UINT64_C(1) << bits) - 1)};
        return 0;
    }
    if (!g_ascii_isdigit(s[0]))
        return arg_error(e, pos, pa, "'%s' is not an integer", s);
    unsigned long long v = strtoull(s, &end, 0);
    if (*end != '\0' || errno == ERANGE)
        return arg_error(e, pos, pa, "'%s' is not an integer", s);
    if ((bits < 64 && v >> bits) || (ir_type_is_signed(t) && v >> (bits - 1)))
        return arg_error(e, pos, pa, "'%s' does not fit", s);
    *a = (wl_arg){.kind = WL_ARG_U64, .v.u64 = v};
    return 0;
}

static int parse_hex(const char *s, GByteArray *out)
{
    if (g_str_has_prefix(s, "0x") || g_str_has_prefix(s, "0X"))
        s += 2;
    size_t n = strlen(s);
    if (n == 0 || n % 2)
        return 1;
    for (size_t i = 0; i < n; i += 2) {
        int hi = g_ascii_xdigit_value(s[i]), lo = g_ascii_xdigit_value(s[i + 1]);
        if (hi < 0 || lo < 0)
            return 1;
        guint8 b = (guint8)(hi * 16 + lo);
        g_byte_array_append(out, &b, 1);
    }
    return 0;
}

static int convert_bytes(launch_cli_args *aa, const char *s, const ir_param *pa, unsigned pos, wl_arg *a,
                         GString *e)
{
    if (param_is_scalar(pa))
        return arg_error(e, pos, pa, "bytes:%s is for a by-value array (.b8 name[N]); give a number", s);
    GByteArray *b = g_byte_array_new();
    g_ptr_array_add(aa->keep, b);
    if (parse_hex(s, b))
        return arg_error(e, pos, pa, "'%s' is not bytes in hex (an even number of hex digits)", s);
    if (b->len != pa->size)
        return arg_error(e, pos, pa, "%u bytes were given (%" G_GUINT64_FORMAT " needed)", b->len, pa->size);
    *a = (wl_arg){.kind = WL_ARG_BYTES, .v.raw = {.bytes = b->data, .n_bytes = b->len}};
    return 0;
}

/* An output file is written after the run: one that cannot be is refused before it. */
static bool check_output(const char *path, unsigned pos, GString *e)
{
    GError *gerr = NULL;
    if (hostfile_check_writable(path, &gerr))
        return true;
    g_string_append_printf(e, "--arg %u: cannot write %s", pos, gerr->message);
    g_error_free(gerr);
    return false;
}

/* in:/out:/inout: — a buffer on dev; out:/inout: are remembered for launch_cli_write_outputs. */
static int convert_buffer(launch_cli_args *aa, const char *s, const ir_param *pa, unsigned pos,
                          wl_device *dev, wl_arg *a, GString *e)
{
    bool in = g_str_has_prefix(s, "in:"), out = g_str_has_prefix(s, "out:");
    bool inout = !in && !out;
    if (!param_is_scalar(pa) || pa->size != 8 || ir_type_is_float((ir_type)pa->type))
        return arg_error(e, pos, pa, "a buffer ('%s') needs a 64-bit pointer parameter", s);
    const char *rest = s + (in ? 3 : out ? 4 : 6);
    char *outpath = NULL;
    gchar *data = NULL;
    gsize len = 0;
    uint64_t bytes = 0;
    if (out) {
        const char *colon = strrchr(rest, ':');
        guint64 v;
        if (!colon || colon == rest || !g_ascii_string_to_unsigned(colon + 1, 10, 1, G_MAXUINT64, &v, NULL))
            return arg_error(e, pos, pa, "'%s' is not out:PATH:BYTES with BYTES > 0", s);
        outpath = g_strndup(rest, (gsize)(colon - rest));
        bytes = v;
        if (!check_output(outpath, pos, e)) {
            g_free(outpath);
            return 1;
        }
    } else {
        const char *colon = inout ? strrchr(rest, ':') : NULL;
        if (inout && (!colon || colon == rest || colon[1] == '\0'))
            return arg_error(e, pos, pa, "'%s' is not inout:PATH:OUTPATH", s);
        char *path = inout ? g_strndup(rest, (gsize)(colon - rest)) : g_strdup(rest);
        GError *gerr = NULL;
        if (!hostfile_read(path, HOSTFILE_BINARY, &data, &len, &gerr)) {
            const char *why = gerr->message; /* "PATH: reason" */
            if (g_str_has_prefix(why, path) && g_str_has_prefix(why + strlen(path), ": "))
                why += strlen(path) + 2;
            g_string_append_printf(e, "--arg %u: cannot read '%s': %s", pos, path, why);
            g_error_free(gerr);
            g_free(path);
            return 1;
        }
        g_free(path);
        if (inout) {
            outpath = g_strdup(colon + 1);
            if (!check_output(outpath, pos, e)) {
                g_free(outpath);
                g_free(data);
                return 1;
            }
        }
        bytes = len;
    }
    uint64_t addr = dev->ops->alloc(dev, bytes); /* fmem gives an empty in: file one byte */
    if (addr == 0) {
        g_free(data);
        g_free(outpath);
        return arg_error(e, pos, pa, "%" G_GUINT64_FORMAT " bytes cannot be allocated", bytes);
    }
    if (data)
        dev->ops->write(dev, addr, data, len, e);
    g_free(data);
    if (outpath) {
        out_buf *ob = g_new0(out_buf, 1);
        *ob = (out_buf){.path = outpath, .addr = addr, .bytes = bytes};
        g_ptr_array_add(aa->outs, ob);
    }
    *a = WL_PTR(addr);
    return 0;
}

static int convert_one(launch_cli_args *aa, const char *s, const ir_param *pa, unsigned pos, wl_device *dev,
                       wl_arg *a, GString *e)
{
    if (g_str_has_prefix(s, "bytes:"))
        return convert_bytes(aa, s + 6, pa, pos, a, e);
    if (g_str_has_prefix(s, "in:") || g_str_has_prefix(s, "out:") || g_str_has_prefix(s, "inout:"))
        return convert_buffer(aa, s, pa, pos, dev, a, e);
    return convert_scalar(s, pa, pos, a, e);
}

int launch_cli_convert(launch_cli_args *a, const ir_func *f, char *const *strs, wl_device *dev, GString *err)
{
    guint np = f->params ? f->params->len : 0;
    for (guint i = 0; i < np; i++) {
        wl_arg v = {0};
        if (convert_one(a, strs[i], &g_array_index(f->params, ir_param, i), i + 1, dev, &v, err))
            return 1;
        g_array_append_val(a->values, v);
    }
    return 0;
}

/* Write an output file. A regular file (or a new one) is replaced whole through a temporary file, so
 * a failed write leaves no half file; anything else that exists (a symbolic link, a device, a pipe)
 * is written through, as a shell redirection would: replacing it would put a regular file where
 * the link or the device was. */
static int write_output(const char *path, const void *buf, uint64_t bytes, GString *err)
{
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode)) {
        GError *ge = NULL;
        if (g_file_set_contents(path, buf, (gssize)bytes, &ge))
            return 0;
        g_string_append_printf(err, "cannot write '%s': %s", path, ge->message);
        g_error_free(ge);
        return 1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        g_string_append_printf(err, "cannot write '%s': %s", path, g_strerror(errno));
        return 1;
    }
    errno = 0;
    bool ok = fwrite(buf, 1, bytes, f) == bytes && fflush(f) == 0;
    int e = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        g_string_append_printf(err, "cannot write '%s': %s", path, e ? g_strerror(e) : "write error");
    return ok ? 0 : 1;
}

int launch_cli_write_outputs(launch_cli_args *a, wl_device *dev, GString *err)
{
    for (guint i = 0; i < a->outs->len; i++) {
        const out_buf *ob = g_ptr_array_index(a->outs, i);
        guint8 *buf = g_try_malloc(ob->bytes ? ob->bytes : 1);
        if (!buf) {
            g_string_append_printf(err,
                                   "cannot write '%s': no host memory for its %" G_GUINT64_FORMAT " bytes",
                                   ob->path, ob->bytes);
            return 1;
        }
        int rc = dev->ops->read(dev, ob->addr, buf, ob->bytes, err);
        if (!rc)
            rc = write_output(ob->path, buf, ob->bytes, err);
        g_free(buf);
        if (rc)
            return 1;
    }
    return 0;
}

int launch_cli_check(const kload_module *k, const ir_module *mod, const wl_launch *l, uint32_t *entry,
                     GString *err)
{
    *entry = kload_find_entry(k, l->entry ? l->entry : "");
    if (*entry == IR_NONE) {
        g_string_append_printf(err, "no kernel (.entry) named '%s' in %s", l->entry ? l->entry : "",
                               mod->filename ? mod->filename : "the module");
        return 1;
    }
    for (unsigned i = 0; i < 3; i++) {
        if (l->grid[i] == 0 || l->block[i] == 0) {
            g_string_append_printf(
                err, "kernel %s: grid (%u,%u,%u) and block (%u,%u,%u) dimensions must be positive", l->entry,
                l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
            return 1;
        }
    }
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (threads > 1024) {
        g_string_append_printf(err, "kernel %s: %" G_GUINT64_FORMAT " threads per block (at most 1024)",
                               l->entry, threads);
        return 1;
    }
    /* CUDA's limits (every compute capability from 3.0 on): a grid beyond them would run for hours */
    static const unsigned max_grid[3] = {2147483647u, 65535, 65535}, max_block[3] = {1024, 1024, 64};
    for (unsigned i = 0; i < 3; i++) {
        if (l->grid[i] > max_grid[i] || l->block[i] > max_block[i]) {
            g_string_append_printf(err,
                                   "kernel %s: grid (%u,%u,%u), block (%u,%u,%u): the %c dimension is over "
                                   "CUDA's limit (grid %u, block %u)",
                                   l->entry, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                                   l->block[2], "xyz"[i], max_grid[i], max_block[i]);
            return 1;
        }
    }
    if (k->funcs[*entry].recursive) {
        g_string_append_printf(err, "kernel %s: recursive calls are not supported", l->entry);
        return 1;
    }
    const char *file = mod->filename ? mod->filename : "the module";
    if (k->local_bytes > LAUNCH_MAX_LOCAL_PER_THREAD) {
        g_string_append_printf(err,
                               "%s: kernel %s: %" G_GUINT64_FORMAT " bytes of local memory per thread (the "
                               ".local variables of the module's functions), more than %u (CUDA's limit)",
                               file, l->entry, k->local_bytes, LAUNCH_MAX_LOCAL_PER_THREAD);
        return 1;
    }
    uint64_t shared = launch_cli_shared_bytes(k, *entry, l->shared_bytes);
    if (shared > LAUNCH_MAX_SHARED_PER_CTA) {
        g_string_append_printf(err,
                               "%s: kernel %s: a CTA needs %" G_GUINT64_FORMAT
                               " bytes of shared memory (%" G_GUINT64_FORMAT
                               " static + %u dynamic), more than the %llu bytes a shared address can reach",
                               file, l->entry, shared, k->funcs[*entry].shared_static, l->shared_bytes,
                               LAUNCH_MAX_SHARED_PER_CTA);
        return 1;
    }
    return 0;
}

char *launch_cli_find_ptx(const char *ptx_dir, const char *name, const char *const *defaults, unsigned n,
                          GString *err)
{
    const char *env = g_getenv("GPUSC_PTX_DIR");
    const char *dir = ptx_dir ? ptx_dir : env && *env ? env : NULL;
    const char *what = ptx_dir ? "--ptx-dir" : "GPUSC_PTX_DIR";
    if (dir) { /* a directory the user named: a mistake there is not covered up by the defaults */
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            g_string_append_printf(err, "%s %s: no such directory", what, dir);
            return NULL;
        }
        char *p = g_build_filename(dir, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
            return p;
        g_free(p);
        g_string_append_printf(err, "%s %s: there is no %s in it", what, dir, name);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) {
        char *p = g_build_filename(defaults[i], name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
            return p;
        g_free(p);
    }
    g_string_append_printf(err, "cannot find %s (set --ptx-dir or GPUSC_PTX_DIR)", name);
    return NULL;
}

uint64_t launch_cli_shared_bytes(const kload_module *k, uint32_t entry, uint64_t dyn_bytes)
{
    const kload_func *kf = &k->funcs[entry];
    return dyn_bytes ? kf->dyn_shared_offset + dyn_bytes : kf->shared_static;
}
