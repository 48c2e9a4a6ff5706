/* test_launch_cli — the launch command line shared by gpusc-run and the testbenches
 * (kernels/run/launch_cli.h): --grid/--block dimensions, each --arg form (scalars by PTX type, in:,
 * out:, inout:, bytes:) and its errors, writing the output buffers, and the launch checks (resource
 * bounds included). */
#include "kernels/run/frun.h"
#include "kernels/run/launch_cli.h"
#include "kernels/frontend/ptx_parse.h"

#include <glib/gstdio.h>
#include <string.h>

static const char *const PTX = ".version 7.0\n.target sm_70\n.address_size 64\n"
                               ".visible .entry k_u64(.param .u64 p) { ret; }\n"
                               ".visible .entry k_u32(.param .u32 v) { ret; }\n"
                               ".visible .entry k_s16(.param .s16 v) { ret; }\n"
                               ".visible .entry k_s64(.param .s64 v) { ret; }\n"
                               ".visible .entry k_f32(.param .f32 v) { ret; }\n"
                               ".visible .entry k_f64(.param .f64 v) { ret; }\n"
                               ".visible .entry k_arr(.param .align 4 .b8 a[4]) { ret; }\n"
                               ".visible .entry k_two(.param .u64 p, .param .u32 n) { ret; }\n"
                               ".func rec() { call rec; ret; }\n"
                               ".visible .entry k_rec() { call rec; ret; }\n";

typedef struct {
    ir_module *m;
    wl_device *dev;
    GString *err;
    char *dir;
} rig;

static void rig_init(rig *r)
{
    GError *gerr = NULL;
    r->m = ptx_parse_string(PTX, -1, "launch_cli.ptx", &gerr);
    g_assert_no_error(gerr);
    r->err = g_string_new(NULL);
    r->dev = frun_device_new(r->m, r->err);
    if (!r->dev)
        g_error("frun_device_new: %s", r->err->str);
    r->dir = g_dir_make_tmp("test_launch_cli-XXXXXX", &gerr);
    g_assert_no_error(gerr);
}

static void rig_free(rig *r)
{
    frun_device_free(r->dev);
    ir_module_free(r->m);
    g_string_free(r->err, TRUE);
    GDir *d = g_dir_open(r->dir, 0, NULL);
    for (const char *n; d && (n = g_dir_read_name(d));) {
        char *p = g_build_filename(r->dir, n, NULL);
        g_remove(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(r->dir);
    g_free(r->dir);
}

/* Convert one --arg for the one-parameter entry; returns launch_cli_convert's result. */
static int convert1(rig *r, launch_cli_args *a, const char *entry, const char *s)
{
    ir_func *f = ir_module_find_func(r->m, entry);
    g_assert_nonnull(f);
    char *strs[] = {(char *)s, NULL};
    g_string_truncate(r->err, 0);
    return launch_cli_convert(a, f, strs, r->dev, r->err);
}

static void expect_value(rig *r, const char *entry, const char *s, wl_arg want)
{
    launch_cli_args *a = launch_cli_args_new();
    int rc = convert1(r, a, entry, s);
    if (rc)
        g_error("%s '%s': %s", entry, s, r->err->str);
    const wl_arg *v = launch_cli_values(a);
    g_assert_cmpint(v->kind, ==, want.kind);
    switch (want.kind) {
    case WL_ARG_U64:
        g_assert_cmphex(v->v.u64, ==, want.v.u64);
        break;
    case WL_ARG_S64:
        g_assert_cmpint(v->v.s64, ==, want.v.s64);
        break;
    case WL_ARG_F32:
        g_assert_cmpfloat(v->v.f32, ==, want.v.f32);
        break;
    case WL_ARG_F64:
        g_assert_cmpfloat(v->v.f64, ==, want.v.f64);
        break;
    default:
        g_assert_not_reached();
    }
    launch_cli_args_free(a);
}

static void expect_error(rig *r, const char *entry, const char *s, const char *frag)
{
    launch_cli_args *a = launch_cli_args_new();
    g_assert_cmpint(convert1(r, a, entry, s), ==, 1);
    if (!strstr(r->err->str, frag))
        g_error("%s '%s': got '%s', wanted '%s'", entry, s, r->err->str, frag);
    g_assert_true(g_str_has_prefix(r->err->str, "--arg 1: "));
    launch_cli_args_free(a);
}

static void test_dims(void)
{
    unsigned d[3];
    g_assert_true(launch_cli_parse_dims("4", d));
    g_assert_true(d[0] == 4 && d[1] == 1 && d[2] == 1);
    g_assert_true(launch_cli_parse_dims("2, 3 ,4", d));
    g_assert_true(d[0] == 2 && d[1] == 3 && d[2] == 4);
    g_assert_true(launch_cli_parse_dims("4294967295,1", d));
    g_assert_cmpuint(d[0], ==, 4294967295u);
    const char *bad[] = {"", "0", "1,0", "1,2,3,4", "x", "-1", "1.5", "4294967296", "1,,2"};
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
        if (launch_cli_parse_dims(bad[i], d))
            g_error("'%s' was accepted", bad[i]);
}

static void test_scalars(void)
{
    rig r;
    rig_init(&r);
    expect_value(&r, "k_u32", "42", WL_U64(42));
    expect_value(&r, "k_u32", "0x10", WL_U64(16));
    expect_value(&r, "k_u32", "4294967295", WL_U64(4294967295u));
    expect_value(&r, "k_u32", "-1", WL_U64(0xffffffffu)); /* two's complement in 32 bits */
    expect_value(&r, "k_s16", "-32768", WL_U64(0x8000));
    expect_value(&r, "k_s64", "-5", ((wl_arg){.kind = WL_ARG_S64, .v.s64 = -5}));
    expect_value(&r, "k_u64", "18446744073709551615", WL_U64(UINT64_MAX));
    expect_value(&r, "k_f32", "1.5", WL_F32(1.5f));
    expect_value(&r, "k_f64", "-2.25e3", WL_F64(-2250.0));
    expect_error(&r, "k_u32", "4294967296", "parameter v is .u32 but '4294967296' does not fit");
    expect_error(&r, "k_s16", "-32769", "does not fit");
    expect_error(&r, "k_s16", "32768", "does not fit"); /* a signed type's positive range too */
    expect_value(&r, "k_s16", "32767", WL_U64(32767));
    expect_value(&r, "k_f32", "0f3f800000", WL_F32(1.0f)); /* PTX's bit-pattern literals */
    expect_value(&r, "k_f64", "0d3ff8000000000000", WL_F64(1.5));
    expect_error(&r, "k_f32", "0x3f800000", "is a hex integer, not a number (a bit pattern is 0fXXXXXXXX)");
    expect_error(&r, "k_f32", "0d3ff8000000000000", "is not a bit pattern of that type");
    expect_error(&r, "k_f32", "0f3f80", "is not a bit pattern of that type");
    expect_error(&r, "k_u32", "abc", "'abc' is not an integer");
    expect_error(&r, "k_u32", "12x", "'12x' is not an integer");
    expect_error(&r, "k_u32", "", "'' is not an integer");
    expect_error(&r, "k_u32", "-", "'-' is not an integer");
    expect_error(&r, "k_u64", "99999999999999999999", "is not an integer");
    expect_error(&r, "k_f32", "x", "parameter v is .f32 but 'x' is not a number");
    expect_error(&r, "k_f32", "1e39", "'1e39' does not fit");
    expect_error(&r, "k_f64", "1e999", "is not a number");
    expect_error(&r, "k_arr", "7", "parameter a is .b8[4] but '7' is a scalar (use bytes:HEX)");
    rig_free(&r);
}

static void test_bytes(void)
{
    rig r;
    rig_init(&r);
    launch_cli_args *a = launch_cli_args_new();
    g_assert_cmpint(convert1(&r, a, "k_arr", "bytes:0x0A0b0C0d"), ==, 0);
    const wl_arg *v = launch_cli_values(a);
    g_assert_cmpint(v->kind, ==, WL_ARG_BYTES);
    g_assert_cmpuint(v->v.raw.n_bytes, ==, 4);
    const guint8 want[] = {0x0a, 0x0b, 0x0c, 0x0d};
    g_assert_cmpmem(v->v.raw.bytes, 4, want, 4);
    launch_cli_args_free(a);
    expect_error(&r, "k_arr", "bytes:0102", "2 bytes were given (4 needed)");
    expect_error(&r, "k_arr", "bytes:012", "'012' is not bytes in hex");
    expect_error(&r, "k_arr", "bytes:0g010203", "is not bytes in hex");
    expect_error(&r, "k_arr", "bytes:", "is not bytes in hex");
    expect_error(&r, "k_s16", "bytes:0102", "parameter v is .s16 but bytes:0102 is for a by-value array");
    rig_free(&r);
}

static void test_buffers(void)
{
    rig r;
    rig_init(&r);
    char *in = g_build_filename(r.dir, "in.bin", NULL), *res = g_build_filename(r.dir, "res.bin", NULL),
         *o = g_build_filename(r.dir, "out.bin", NULL);
    g_assert_true(g_file_set_contents(in, "\x01\x02\x03\x04\x05", 5, NULL));

    /* in: the file's bytes on the device; out: a zeroed buffer written back. */
    launch_cli_args *a = launch_cli_args_new();
    char *sin = g_strconcat("in:", in, NULL), *sout = g_strdup_printf("out:%s:8", o);
    g_assert_cmpint(convert1(&r, a, "k_u64", sin), ==, 0);
    g_assert_cmpint(convert1(&r, a, "k_u64", sout), ==, 0);
    const wl_arg *v = launch_cli_values(a);
    g_assert_cmpint(v[0].kind, ==, WL_ARG_PTR);
    g_assert_cmpint(v[1].kind, ==, WL_ARG_PTR);
    guint8 got[8];
    g_assert_cmpint(r.dev->ops->read(r.dev, v[0].v.ptr, got, 5, r.err), ==, 0);
    g_assert_cmpmem(got, 5, "\x01\x02\x03\x04\x05", 5);
    g_assert_cmpint(r.dev->ops->write(r.dev, v[1].v.ptr + 6, "\x77", 1, r.err), ==, 0);
    g_assert_cmpint(launch_cli_write_outputs(a, r.dev, r.err), ==, 0);
    gchar *data;
    gsize len;
    g_assert_true(g_file_get_contents(o, &data, &len, NULL));
    g_assert_cmpmem(data, len, "\0\0\0\0\0\0\x77\0", 8);
    g_free(data);
    launch_cli_args_free(a);

    /* inout: read from PATH, written to OUTPATH. */
    a = launch_cli_args_new();
    char *sio = g_strdup_printf("inout:%s:%s", in, res);
    g_assert_cmpint(convert1(&r, a, "k_u64", sio), ==, 0);
    v = launch_cli_values(a);
    g_assert_cmpint(r.dev->ops->write(r.dev, v[0].v.ptr, "\x09", 1, r.err), ==, 0);
    g_assert_cmpint(launch_cli_write_outputs(a, r.dev, r.err), ==, 0);
    g_assert_true(g_file_get_contents(res, &data, &len, NULL));
    g_assert_cmpmem(data, len, "\x09\x02\x03\x04\x05", 5);
    g_free(data);
    launch_cli_args_free(a);

    /* An output that cannot be written is refused before the run ... */
    char *sbad = g_strdup_printf("out:%s/nodir/x.bin:4", r.dir);
    char *want = g_strdup_printf("cannot write %s/nodir/x.bin: its directory %s/nodir does not exist", r.dir, r.dir);
    expect_error(&r, "k_u64", sbad, want);
    g_free(want);
    /* ... and one that can no longer be written after it (its directory gone) is an error then. */
    char *gone = g_build_filename(r.dir, "gone", NULL);
    g_assert_cmpint(g_mkdir(gone, 0700), ==, 0);
    a = launch_cli_args_new();
    char *slate = g_strdup_printf("out:%s/x.bin:4", gone);
    g_assert_cmpint(convert1(&r, a, "k_u64", slate), ==, 0);
    g_assert_cmpint(g_rmdir(gone), ==, 0);
    g_string_truncate(r.err, 0);
    g_assert_cmpint(launch_cli_write_outputs(a, r.dev, r.err), ==, 1);
    g_assert_true(g_str_has_prefix(r.err->str, "cannot write '"));
    launch_cli_args_free(a);
    g_free(slate);
    g_free(gone);

    expect_error(&r, "k_u64", "out:x.bin", "'out:x.bin' is not out:PATH:BYTES with BYTES > 0");
    expect_error(&r, "k_u64", "out:x.bin:0", "is not out:PATH:BYTES with BYTES > 0");
    expect_error(&r, "k_u64", "out::4", "is not out:PATH:BYTES");
    expect_error(&r, "k_u64", "out:x.bin:4k", "is not out:PATH:BYTES");
    expect_error(&r, "k_u64", "inout:x.bin", "'inout:x.bin' is not inout:PATH:OUTPATH");
    expect_error(&r, "k_u64", "inout:x.bin:", "is not inout:PATH:OUTPATH");
    expect_error(&r, "k_u64", "in:/nonexistent/launch_cli.bin", "cannot read '/nonexistent/launch_cli.bin'");
    expect_error(&r, "k_u32", sin, "parameter v is .u32 but a buffer");
    expect_error(&r, "k_f64", sout, "needs a 64-bit pointer parameter");
    expect_error(&r, "k_u64", "out:x.bin:18446744073709551615", "bytes cannot be allocated");

    g_free(sin);
    g_free(sout);
    g_free(sio);
    g_free(sbad);
    g_free(in);
    g_free(res);
    g_free(o);
    rig_free(&r);
}

/* Several parameters: converted in order; the position of the bad one is named. */
static void test_positions(void)
{
    rig r;
    rig_init(&r);
    ir_func *f = ir_module_find_func(r.m, "k_two");
    launch_cli_args *a = launch_cli_args_new();
    char *ok[] = {"7", "8"}, *bad[] = {"7", "x"};
    g_assert_cmpint(launch_cli_convert(a, f, ok, r.dev, r.err), ==, 0);
    g_assert_cmpuint(launch_cli_values(a)[1].v.u64, ==, 8);
    launch_cli_args_free(a);
    a = launch_cli_args_new();
    g_assert_cmpint(launch_cli_convert(a, f, bad, r.dev, r.err), ==, 1);
    g_assert_cmpstr(r.err->str, ==, "--arg 2: parameter n is .u32 but 'x' is not an integer");
    launch_cli_args_free(a);
    rig_free(&r);
}

static void expect_check(rig *r, const char *entry, unsigned gx, unsigned bx, unsigned by, const char *frag)
{
    wl_launch l = {.entry = entry, .grid = {gx, 1, 1}, .block = {bx, by, 1}};
    uint32_t e;
    g_string_truncate(r->err, 0);
    int rc = launch_cli_check(frun_device_module(r->dev), r->m, &l, &e, r->err);
    if (!frag) {
        g_assert_cmpint(rc, ==, 0);
        g_assert_cmpuint(e, !=, IR_NONE);
        return;
    }
    g_assert_cmpint(rc, ==, 1);
    if (!strstr(r->err->str, frag))
        g_error("%s: got '%s', wanted '%s'", entry, r->err->str, frag);
}

static void test_check(void)
{
    rig r;
    rig_init(&r);
    expect_check(&r, "k_u32", 2, 32, 32, NULL);
    expect_check(&r, "nosuch", 1, 1, 1, "no kernel (.entry) named 'nosuch' in launch_cli.ptx");
    expect_check(&r, "rec", 1, 1, 1, "no kernel (.entry) named 'rec'");
    expect_check(&r, "k_u32", 0, 32, 1,
                 "kernel k_u32: grid (0,1,1) and block (32,1,1) dimensions must be positive");
    expect_check(&r, "k_u32", 1, 0, 1, "dimensions must be positive");
    expect_check(&r, "k_u32", 1, 32, 33, "kernel k_u32: 1056 threads per block (at most 1024)");
    expect_check(&r, "k_u32", 2147483647u, 32, 1, NULL); /* CUDA's grid limits */
    expect_check(&r, "k_u32", 2147483648u, 32, 1, "the x dimension is over CUDA's limit (grid 2147483647");
    /* k_rec only calls a recursive function; the parser refuses a call to a kernel, so an entry on
     * a call cycle cannot be written in PTX: mark it by hand to reach the check. */
    expect_check(&r, "k_rec", 1, 1, 1, NULL);
    kload_module *k = (kload_module *)frun_device_module(r.dev);
    k->funcs[kload_find_entry(k, "k_rec")].recursive = true;
    expect_check(&r, "k_rec", 1, 1, 1, "kernel k_rec: recursive calls are not supported");
    rig_free(&r);
}

/* The resource bounds of every device: local memory per thread (the module's whole local segment)
 * and shared memory per CTA (static + dynamic, the 4 GiB shared window); nothing is allocated. */
static void expect_bounds(const char *text, const char *entry, unsigned dyn, const char *frag)
{
    GError *gerr = NULL;
    ir_module *m = ptx_parse_string(text, -1, "bounds.ptx", &gerr);
    g_assert_no_error(gerr);
    fmem *mem = fmem_new();
    GString *err = g_string_new(NULL);
    kload_module *k = kload_module_new(m, mem, err);
    g_assert_nonnull(k);
    wl_launch l = {.entry = entry, .grid = {1, 1, 1}, .block = {1024, 1, 1}, .shared_bytes = dyn};
    uint32_t e;
    int rc = launch_cli_check(k, m, &l, &e, err);
    if (!frag)
        g_assert_cmpint(rc, ==, 0);
    else if (rc != 1 || strcmp(err->str, frag) != 0)
        g_error("%s: got %d '%s', wanted '%s'", entry, rc, err->str, frag);
    kload_module_free(k);
    fmem_free(mem);
    g_string_free(err, TRUE);
    ir_module_free(m);
}

static void test_resource_bounds(void)
{
#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"
    const char *local_max = HDR ".visible .entry k() { .local .b8 l[524288]; ret; }\n";
    const char *local_over = HDR ".visible .entry k() { .local .b8 l[524288]; ret; }\n"
                                 ".func f() { .local .b8 m[4]; ret; }\n";
    const char *shared = HDR ".extern .shared .align 16 .b8 dyn[];\n"
                             ".visible .entry k() { .shared .align 16 .b8 s[3221225472]; ret; }\n"
                             ".visible .entry huge() { .shared .b8 s[99999999999]; ret; }\n";
#undef HDR
    expect_bounds(local_max, "k", 0, NULL);
    expect_bounds(
        local_over, "k", 0,
        "bounds.ptx: kernel k: 524296 bytes of local memory per thread (the .local variables of the "
        "module's functions), more than 524288 (CUDA's limit)");
    expect_bounds(shared, "k", 1024u << 20, NULL);
    expect_bounds(shared, "k", (1024u << 20) + 1,
                  "bounds.ptx: kernel k: a CTA needs 4294967297 bytes of shared memory (3221225472 static + "
                  "1073741825 dynamic), more than the 4294967296 bytes a shared address can reach");
    expect_bounds(
        shared, "huge", 0,
        "bounds.ptx: kernel huge: a CTA needs 99999999999 bytes of shared memory (99999999999 static + 0 "
        "dynamic), more than the 4294967296 bytes a shared address can reach");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/launch_cli/dims", test_dims);
    g_test_add_func("/launch_cli/scalars", test_scalars);
    g_test_add_func("/launch_cli/bytes", test_bytes);
    g_test_add_func("/launch_cli/buffers", test_buffers);
    g_test_add_func("/launch_cli/positions", test_positions);
    g_test_add_func("/launch_cli/resource-bounds", test_resource_bounds);
    g_test_add_func("/launch_cli/check", test_check);
    return g_test_run();
}
