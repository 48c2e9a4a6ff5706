/* test_workloads.c — what can be checked about the workloads without a PTX runner:
 *  - every registered workload names a committed PTX file whose .entry lines include every entry
 *    its driver launches (drivers run against a recording fake device), every launch passes as
 *    many arguments as the entry has parameters, each of a kind that fits the parameter's PTX type,
 *    and entries that use dynamic shared memory (.extern .shared) get shared_bytes > 0;
 *  - a device failure is reported through err and a nonzero return, not a crash;
 *  - the input generators are deterministic (same seed -> same bytes written, other seed -> other);
 *  - vecadd's driver and check work end to end against a fake device that emulates the kernel on the
 *    CPU, and detect a single wrong element;
 *  - every .resources file parses and lists exactly the .entry functions of its PTX;
 *  - the registry and size names. */
#include "kernels/workloads/workload.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#define BASE_ADDR 0x100000ull

/* A fake device: a flat memory image (bump allocation), a log of launched entries, a running hash of
 * every byte written, and a launch behaviour. */
typedef enum { FAKE_RECORD, FAKE_FAIL, FAKE_VECADD, FAKE_VECADD_WRONG } fake_mode;

typedef struct {
    fake_mode mode;
    GByteArray *mem;
    GPtrArray *entries; /* distinct entry names launched */
    unsigned n_launches;
    uint64_t write_hash;
    const char *ptx;   /* the workload's PTX text, when launches are to be checked against it */
    GString *problems; /* what those checks found */
} fake_device;

static uint64_t fake_alloc(wl_device *dev, size_t bytes)
{
    fake_device *f = dev->impl;
    guint at = (f->mem->len + 255u) & ~255u;
    g_assert_cmpuint((guint64)at + bytes, <, 1ull << 31);
    g_byte_array_set_size(f->mem, at + (guint)bytes);
    memset(f->mem->data + at, 0, f->mem->len - at);
    return BASE_ADDR + at;
}

static guint8 *fake_span(fake_device *f, uint64_t addr, size_t bytes, GString *err)
{
    if (addr < BASE_ADDR || addr - BASE_ADDR + bytes > f->mem->len) {
        g_string_append_printf(err, "fake device: [0x%" G_GINT64_MODIFIER "x, +%zu) is not allocated", addr,
                               bytes);
        return NULL;
    }
    return f->mem->data + (addr - BASE_ADDR);
}

static int fake_write(wl_device *dev, uint64_t addr, const void *src, size_t bytes, GString *err)
{
    fake_device *f = dev->impl;
    guint8 *p = fake_span(f, addr, bytes, err);
    if (!p)
        return -1;
    memcpy(p, src, bytes);
    for (size_t i = 0; i < bytes; i++) /* FNV-1a over everything the driver writes */
        f->write_hash = (f->write_hash ^ ((const guint8 *)src)[i]) * 0x100000001b3ull;
    return 0;
}

static int fake_read(wl_device *dev, uint64_t addr, void *dst, size_t bytes, GString *err)
{
    guint8 *p = fake_span(dev->impl, addr, bytes, err);
    if (!p)
        return -1;
    memcpy(dst, p, bytes);
    return 0;
}

/* vecadd(a, b, c, n) computed on the CPU from the launch's own arguments and geometry. */
static int fake_vecadd(fake_device *f, const wl_launch *l, GString *err)
{
    g_assert_cmpstr(l->entry, ==, "vecadd");
    g_assert_cmpuint(l->n_args, ==, 4);
    g_assert_cmpint(l->args[0].kind, ==, WL_ARG_PTR);
    g_assert_cmpint(l->args[3].kind, ==, WL_ARG_U32);
    unsigned n = l->args[3].v.u32;
    g_assert_cmpuint((guint64)l->grid[0] * l->block[0], >=, n);
    float *a = (float *)fake_span(f, l->args[0].v.ptr, (size_t)n * 4, err);
    float *b = (float *)fake_span(f, l->args[1].v.ptr, (size_t)n * 4, err);
    float *c = (float *)fake_span(f, l->args[2].v.ptr, (size_t)n * 4, err);
    if (!a || !b || !c)
        return -1;
    for (unsigned i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    if (f->mode == FAKE_VECADD_WRONG)
        c[n / 3] += 0.5f;
    return 0;
}

/* The text of `.entry name(...) { ... }`: from its header to the next .entry (or the end). */
static char *ptx_entry_text(const char *ptx, const char *entry)
{
    g_autofree char *head = g_strdup_printf(".entry %s(", entry);
    const char *start = strstr(ptx, head);
    if (!start)
        return NULL;
    const char *end = strstr(start + strlen(head), ".entry ");
    return end ? g_strndup(start, (gsize)(end - start)) : g_strdup(start);
}

/* Does an argument of this kind fit a parameter of this PTX type (".u64", ".f32", ...)? */
static bool arg_fits(wl_arg_kind kind, const char *type)
{
    switch (kind) {
    case WL_ARG_PTR:
    case WL_ARG_U64:
    case WL_ARG_S64:
        return !strcmp(type, ".u64") || !strcmp(type, ".s64") || !strcmp(type, ".b64");
    case WL_ARG_U32:
    case WL_ARG_S32:
        return !strcmp(type, ".u32") || !strcmp(type, ".s32") || !strcmp(type, ".b32");
    case WL_ARG_F32:
        return !strcmp(type, ".f32");
    case WL_ARG_F64:
        return !strcmp(type, ".f64");
    case WL_ARG_BYTES:
        return !strcmp(type, ".align"); /* .param .align N .b8 name[bytes] */
    }
    return false;
}

/* Does `text` contain `sym` as a whole identifier? */
static bool text_has_symbol(const char *text, const char *sym)
{
    size_t len = strlen(sym);
    for (const char *p = strstr(text, sym); p; p = strstr(p + 1, sym)) {
        bool before = p > text && (g_ascii_isalnum(p[-1]) || p[-1] == '_' || p[-1] == '$' || p[-1] == '%');
        bool after = g_ascii_isalnum(p[len]) || p[len] == '_' || p[len] == '$';
        if (!before && !after)
            return true;
    }
    return false;
}

/* Compare a launch with its entry's parameter list and its use of dynamic shared memory. */
static void launch_check_against_ptx(fake_device *f, const wl_launch *l)
{
    g_autofree char *text = ptx_entry_text(f->ptx, l->entry);
    if (!text)
        return; /* test_entries_exist reports it */
    const char *close = strchr(text, ')');
    g_assert_nonnull(close);
    g_autofree char *params = g_strndup(text, (gsize)(close - text));
    unsigned n = 0;
    for (const char *p = strstr(params, ".param "); p; p = strstr(p + 1, ".param ")) {
        char type[16] = "";
        g_assert_cmpint(sscanf(p, ".param %15s", type), ==, 1);
        if (n < l->n_args && !arg_fits(l->args[n].kind, type))
            g_string_append_printf(f->problems, "%s: argument %u (kind %d) does not fit a %s parameter\n",
                                   l->entry, n, (int)l->args[n].kind, type);
        n++;
    }
    if (n != l->n_args)
        g_string_append_printf(f->problems, "%s: %u arguments for %u parameters\n", l->entry, l->n_args, n);
    /* Symbols declared `.extern .shared ... NAME[]` in the module and used in this entry's body. */
    for (const char *p = strstr(f->ptx, ".extern .shared"); p; p = strstr(p + 1, ".extern .shared")) {
        const char *bracket = strchr(p, '[');
        g_assert_nonnull(bracket);
        const char *name = bracket;
        while (name > p && name[-1] != ' ' && name[-1] != '\t')
            name--;
        g_autofree char *sym = g_strndup(name, (gsize)(bracket - name));
        if (text_has_symbol(close, sym) && l->shared_bytes == 0)
            g_string_append_printf(f->problems, "%s uses dynamic shared memory (%s) but launches with none\n",
                                   l->entry, sym);
    }
}

static int fake_launch(wl_device *dev, const wl_launch *l, GString *err)
{
    fake_device *f = dev->impl;
    f->n_launches++;
    if (!g_ptr_array_find_with_equal_func(f->entries, l->entry, g_str_equal, NULL))
        g_ptr_array_add(f->entries, g_strdup(l->entry));
    g_assert_cmpuint(l->grid[0] * l->grid[1] * l->grid[2], >, 0);
    g_assert_cmpuint(l->block[0] * l->block[1] * l->block[2], >, 0);
    g_assert_cmpuint(l->block[0] * l->block[1] * l->block[2], <=, 1024);
    if (f->ptx)
        launch_check_against_ptx(f, l);
    switch (f->mode) {
    case FAKE_FAIL:
        g_string_append(err, "fake device refuses to launch");
        return -1;
    case FAKE_VECADD:
    case FAKE_VECADD_WRONG:
        return fake_vecadd(f, l, err);
    case FAKE_RECORD:
        break;
    }
    return 0;
}

static const wl_device_ops FAKE_OPS = {fake_alloc, fake_write, fake_read, fake_launch};

static void fake_init(fake_device *f, wl_device *dev, fake_mode mode)
{
    *f = (fake_device){.mode = mode,
                       .mem = g_byte_array_new(),
                       .entries = g_ptr_array_new_with_free_func(g_free),
                       .write_hash = 0xcbf29ce484222325ull,
                       .problems = g_string_new(NULL)};
    *dev = (wl_device){.ops = &FAKE_OPS, .impl = f};
}

static void fake_clear(fake_device *f)
{
    g_byte_array_unref(f->mem);
    g_ptr_array_unref(f->entries);
    g_string_free(f->problems, TRUE);
}

static char *ptx_path(const char *file)
{
    const char *top = g_getenv("top_srcdir");
    return g_build_filename(top ? top : ".", "kernels", "ptx", file, NULL);
}

static char *ptx_read(const char *file)
{
    g_autofree char *path = ptx_path(file);
    char *text = NULL;
    g_autoptr(GError) error = NULL;
    g_file_get_contents(path, &text, NULL, &error);
    g_assert_no_error(error);
    return text;
}

/* The names of the .entry functions in a PTX file. */
static GPtrArray *ptx_entries(const char *file)
{
    g_autofree char *text = ptx_read(file);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        const char *p = strstr(*l, ".entry ");
        if (!p)
            continue;
        p += strlen(".entry ");
        size_t len = strcspn(p, "( \t\r");
        g_ptr_array_add(names, g_strndup(p, len));
    }
    return names;
}

static bool names_contain(GPtrArray *names, const char *name)
{
    return g_ptr_array_find_with_equal_func(names, name, g_str_equal, NULL);
}

static void test_registry(void)
{
    g_assert_cmpuint(workload_count(), >=, 17);
    for (unsigned i = 0; i < workload_count(); i++) {
        const workload *w = workload_get(i);
        g_assert_nonnull(w);
        g_assert_true(workload_find(w->name) == w);
        g_assert_true(w->blurb && *w->blurb && w->tags && *w->tags && w->run);
        g_autofree char *want_ptx = g_strconcat(w->name, ".ptx", NULL);
        g_assert_cmpstr(w->ptx, ==, want_ptx);
    }
    g_assert_null(workload_get(workload_count()));
    g_assert_null(workload_find("no-such-workload"));
    wl_size s;
    g_assert_true(workload_size_parse("tiny", &s) && s == WL_SIZE_TINY);
    g_assert_true(workload_size_parse("default", &s) && s == WL_SIZE_DEFAULT);
    g_assert_true(workload_size_parse("large", &s) && s == WL_SIZE_LARGE);
    g_assert_false(workload_size_parse("huge", &s));
    g_assert_cmpstr(workload_size_name(WL_SIZE_DEFAULT), ==, "default");
}

/* Run against the recording device: zero outputs make the check fail (nonzero, a message), but every
 * entry launched must exist in the PTX. */
static void test_entries_exist(gconstpointer data)
{
    const workload *w = data;
    fake_device f;
    wl_device dev;
    fake_init(&f, &dev, FAKE_RECORD);
    g_autofree char *ptx = ptx_read(w->ptx);
    f.ptx = ptx;
    g_autoptr(GString) err = g_string_new(NULL);
    w->run(WL_SIZE_TINY, 1, &dev, err);
    g_assert_cmpuint(f.n_launches, >, 0);
    if (f.problems->len)
        g_error("%s: launches do not match %s:\n%s", w->name, w->ptx, f.problems->str);
    g_autoptr(GPtrArray) entries = ptx_entries(w->ptx);
    for (guint i = 0; i < f.entries->len; i++) {
        const char *e = f.entries->pdata[i];
        if (!names_contain(entries, e))
            g_error("%s launches %s, which is not an .entry of %s", w->name, e, w->ptx);
    }
    fake_clear(&f);
}

static void test_launch_failure(gconstpointer data)
{
    const workload *w = data;
    fake_device f;
    wl_device dev;
    fake_init(&f, &dev, FAKE_FAIL);
    g_autoptr(GString) err = g_string_new(NULL);
    g_assert_cmpint(w->run(WL_SIZE_TINY, 7, &dev, err), !=, 0);
    g_assert_nonnull(strstr(err->str, "fake device refuses to launch"));
    g_assert_nonnull(strstr(err->str, "launch of "));
    g_assert_cmpuint(f.n_launches, ==, 1);
    fake_clear(&f);
}

static uint64_t generated_hash(const workload *w, uint32_t seed)
{
    fake_device f;
    wl_device dev;
    fake_init(&f, &dev, FAKE_RECORD);
    g_autoptr(GString) err = g_string_new(NULL);
    w->run(WL_SIZE_TINY, seed, &dev, err);
    uint64_t h = f.write_hash;
    fake_clear(&f);
    return h;
}

static void test_deterministic(gconstpointer data)
{
    const workload *w = data;
    uint64_t a = generated_hash(w, 42), b = generated_hash(w, 42), c = generated_hash(w, 43);
    g_assert_cmpuint(a, ==, b);
    g_assert_cmpuint(a, !=, c);
}

static int run_vecadd(fake_mode mode, GString *err)
{
    fake_device f;
    wl_device dev;
    fake_init(&f, &dev, mode);
    int rc = workload_find("vecadd")->run(WL_SIZE_TINY, 3, &dev, err);
    fake_clear(&f);
    return rc;
}

static void test_vecadd_emulated(void)
{
    g_autoptr(GString) err = g_string_new(NULL);
    g_assert_cmpint(run_vecadd(FAKE_VECADD, err), ==, 0);
    g_assert_cmpstr(err->str, ==, "");
    g_string_truncate(err, 0);
    g_assert_cmpint(run_vecadd(FAKE_VECADD_WRONG, err), !=, 0);
    /* tiny vecadd has 4096 elements: the wrong one is 4096 / 3 = 1365, and only that one. */
    g_assert_nonnull(strstr(err->str, "c[1365]"));
    g_assert_nonnull(strstr(err->str, "1 of 4096 elements differ"));
}

static void test_checks(void)
{
    g_autoptr(GString) err = g_string_new(NULL);
    float want[3] = {1.0f, 100.0f, 0.0f}, got[3] = {1.0f, 100.001f, 1e-7f};
    g_assert_cmpint(wl_check_f32("x", want, got, 3, 1e-4f, err), ==, 0);
    g_assert_cmpint(wl_check_f32("x", want, got, 3, 1e-8f, err), !=, 0);
    g_assert_nonnull(strstr(err->str, "x[1]"));
    uint32_t u1[2] = {1, 2}, u2[2] = {1, 3};
    g_assert_cmpint(wl_check_u32("u", u1, u1, 2, err), ==, 0);
    g_assert_cmpint(wl_check_u32("u", u1, u2, 2, err), !=, 0);
    int32_t i1[2] = {-1, 2}, i2[2] = {1, 2};
    g_assert_cmpint(wl_check_i32("i", i1, i2, 2, err), !=, 0);
    double d1[1] = {1.0}, d2[1] = {1.0 + 1e-9};
    g_assert_cmpint(wl_check_f64("d", d1, d2, 1, 1e-12, err), !=, 0);
    g_assert_cmpint(wl_check_f64("d", d1, d2, 1, 1e-6, err), ==, 0);
}

/* Each .resources file: a comment header with the tool versions, then one well-formed line per
 * .entry of the PTX file, and nothing else. */
static void test_resources(gconstpointer data)
{
    const workload *w = data;
    g_autofree char *base = g_strndup(w->ptx, strlen(w->ptx) - strlen(".ptx"));
    g_autofree char *res_file = g_strconcat(base, ".resources", NULL);
    g_autofree char *path = ptx_path(res_file);
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, &error));
    g_assert_nonnull(strstr(text, "# nvcc:  Cuda compilation tools, release"));
    g_autoptr(GPtrArray) entries = ptx_entries(w->ptx);
    g_assert_cmpuint(entries->len, >, 0);
    unsigned seen = 0;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        if (**l == '#' || **l == '\0')
            continue;
        char name[128];
        unsigned regs, shared, local, cnst;
        int end = 0;
        int got = sscanf(*l, "entry=%127s registers=%u shared=%u local=%u const=%u%n", name, &regs, &shared,
                         &local, &cnst, &end);
        if (got != 5 || (*l)[end] != '\0')
            g_error("%s: cannot parse '%s'", res_file, *l);
        g_assert_true(names_contain(entries, name));
        g_assert_cmpuint(regs, >, 0);
        g_assert_cmpuint(regs, <=, 255);
        g_assert_cmpuint(shared, <=, 48 * 1024);
        seen++;
    }
    g_assert_cmpuint(seen, ==, entries->len);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/workloads/registry", test_registry);
    g_test_add_func("/workloads/checks", test_checks);
    g_test_add_func("/workloads/vecadd-emulated", test_vecadd_emulated);
    for (unsigned i = 0; i < workload_count(); i++) {
        const workload *w = workload_get(i);
        static const struct {
            const char *what;
            GTestDataFunc fn;
        } per[] = {{"entries", test_entries_exist},
                   {"launch-failure", test_launch_failure},
                   {"deterministic", test_deterministic},
                   {"resources", test_resources}};
        for (unsigned k = 0; k < G_N_ELEMENTS(per); k++) {
            g_autofree char *name = g_strdup_printf("/workloads/%s/%s", per[k].what, w->name);
            g_test_add_data_func(name, w, per[k].fn);
        }
    }
    return g_test_run();
}
