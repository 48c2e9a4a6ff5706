/* test_fmem — the functional memory image: allocation alignment and guard gaps, zero fill, bounds,
 * read-only regions, fixed mappings, fault descriptions, segments. */
#include "kernels/run/fmem.h"

#include <string.h>

static void test_alloc_aligned_guarded(void)
{
    fmem *m = fmem_new();
    uint64_t a = fmem_alloc(m, 100), b = fmem_alloc(m, 1), c = fmem_alloc(m, 0);
    g_assert_cmpuint(a, ==, FMEM_ALLOC_BASE);
    g_assert_cmpuint(a % FMEM_ALIGN, ==, 0);
    g_assert_cmpuint(b % FMEM_ALIGN, ==, 0);
    g_assert_cmpuint(c % FMEM_ALIGN, ==, 0);
    g_assert_cmpuint(b, >=, a + 100 + FMEM_GUARD);
    g_assert_cmpuint(c, >=, b + 1 + FMEM_GUARD);
    /* The byte right after an allocation is unmapped (guard). */
    g_assert_null(fmem_translate(m, a + 100, 1, false));
    g_assert_null(fmem_translate(m, a + 99, 2, false));
    g_assert_nonnull(fmem_translate(m, a + 99, 1, false));
    g_assert_null(fmem_translate(m, 0, 4, false));
    g_assert_null(fmem_translate(m, a - 1, 1, false));
    g_assert_cmpuint(fmem_n_regions(m), ==, 3);
    fmem_free(m);
}

static void test_zero_fill_and_copy(void)
{
    fmem *m = fmem_new();
    uint64_t a = fmem_alloc(m, 4096);
    uint8_t buf[4096];
    memset(buf, 0xaa, sizeof buf);
    g_assert_true(fmem_read(m, a, buf, sizeof buf));
    for (unsigned i = 0; i < sizeof buf; i++)
        g_assert_cmpuint(buf[i], ==, 0);
    uint32_t v = 0xdeadbeef, r = 0;
    g_assert_true(fmem_write(m, a + 8, &v, 4));
    g_assert_true(fmem_read(m, a + 8, &r, 4));
    g_assert_cmphex(r, ==, v);
    g_assert_cmphex(*(uint32_t *)fmem_translate(m, a + 8, 4, true), ==, v);
    g_assert_false(fmem_write(m, a + 4094, &v, 4));
    g_assert_false(fmem_read(m, a + 4096, &r, 4));
    g_assert_true(fmem_fill(m, a, 0x5a, 16));
    g_assert_true(fmem_read(m, a + 12, &r, 4));
    g_assert_cmphex(r, ==, 0x5a5a5a5a);
    g_assert_false(fmem_fill(m, a + 4000, 0, 200));
    fmem_free(m);
}

static void test_map_readonly_overlap(void)
{
    fmem *m = fmem_new();
    g_assert_true(fmem_map(m, 0x08000000, 64, true, "const"));
    g_assert_false(fmem_map(m, 0x08000020, 64, false, "overlap"));
    g_assert_false(fmem_map(m, 0x07ffffff, 2, false, "overlap below"));
    g_assert_false(fmem_map(m, 0x1000, 0, false, "empty"));
    g_assert_true(fmem_map(m, 0x08000040, 64, false, "adjacent"));
    g_assert_nonnull(fmem_translate(m, 0x08000000, 4, false));
    g_assert_null(fmem_translate(m, 0x08000000, 4, true));
    g_assert_nonnull(fmem_translate(m, 0x08000040, 4, true));
    /* An access spanning two adjacent regions is not one region: refused. */
    g_assert_null(fmem_translate(m, 0x0800003e, 4, false));
    uint32_t v = 7;
    g_assert_true(fmem_write(m, 0x08000004, &v, 4)); /* host writes ignore read-only */
    /* Allocations are found among many regions (binary search after cache misses). */
    uint64_t addrs[50];
    for (unsigned i = 0; i < 50; i++) {
        addrs[i] = fmem_alloc(m, 64 + i);
        uint32_t x = i * 3;
        g_assert_true(fmem_write(m, addrs[i] + 4 * (i % 16), &x, 4));
    }
    for (unsigned i = 50; i-- > 0;) {
        const fmem_region *r = fmem_find(m, addrs[i] + 5);
        g_assert_nonnull(r);
        g_assert_cmpuint(r->base, ==, addrs[i]);
        g_assert_cmpuint(*(uint32_t *)fmem_translate(m, addrs[i] + 4 * (i % 16), 4, false), ==, i * 3);
    }
    fmem_free(m);
}

/* The caller's cache gives fmem_translate's answer wherever the last hit left it: across regions,
 * past an end, in a guard gap, on a store to a read-only region. */
static void test_translate_cached(void)
{
    fmem *m = fmem_new();
    g_assert_true(fmem_map(m, 0x08000000, 64, true, "const"));
    uint64_t a = fmem_alloc(m, 100), b = fmem_alloc(m, 4096);
    const struct {
        uint64_t addr, len;
        bool write;
    } seq[] = {{a, 4, false},          {a + 96, 4, true},      {a + 97, 4, false},     {b + 8, 8, true},
               {a + 100, 1, false},    {0x08000000, 4, true},  {0x08000000, 4, false}, {0x0800003c, 4, false},
               {0x0800003d, 4, false}, {b + 4095, 1, false},   {b + 4096, 1, false},   {0, 4, false},
               {a - 1, 1, false},      {UINT64_MAX, 1, false}, {a + 99, 1, true}};
    fmem_cache c = {0};
    for (unsigned i = 0; i < G_N_ELEMENTS(seq); i++)
        g_assert_true(fmem_translate_cached(m, &c, seq[i].addr, seq[i].len, seq[i].write) ==
                      fmem_translate(m, seq[i].addr, seq[i].len, seq[i].write));
    fmem_free(m);
}

static void test_describe_fault(void)
{
    fmem *m = fmem_new();
    uint64_t a = fmem_alloc(m, 4096);
    GString *s = g_string_new(NULL);
    fmem_describe_fault(m, a + 4096 + 16, 4, false, s);
    g_assert_nonnull(strstr(s->str, "unmapped"));
    g_assert_nonnull(strstr(s->str, "16 bytes past the end of alloc#0"));
    g_string_truncate(s, 0);
    fmem_describe_fault(m, a + 4094, 4, false, s);
    g_assert_nonnull(strstr(s->str, "runs past the end"));
    g_string_truncate(s, 0);
    fmem_describe_fault(m, 0, 4, false, s);
    g_assert_nonnull(strstr(s->str, "before alloc#0"));
    g_string_free(s, TRUE);
    fmem_free(m);
}

static void test_seg(void)
{
    uint8_t data[64];
    fmem_seg s = {.data = data, .size = sizeof data};
    g_assert_true(fmem_seg_ptr(&s, 0, 64) == data);
    g_assert_true(fmem_seg_ptr(&s, 60, 4) == data + 60);
    g_assert_null(fmem_seg_ptr(&s, 61, 4));
    g_assert_null(fmem_seg_ptr(&s, UINT64_MAX, 2));
    g_assert_null(fmem_seg_ptr(&s, 65, 0));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/fmem/alloc-aligned-guarded", test_alloc_aligned_guarded);
    g_test_add_func("/fmem/zero-fill-and-copy", test_zero_fill_and_copy);
    g_test_add_func("/fmem/map-readonly-overlap", test_map_readonly_overlap);
    g_test_add_func("/fmem/translate-cached", test_translate_cached);
    g_test_add_func("/fmem/describe-fault", test_describe_fault);
    g_test_add_func("/fmem/seg", test_seg);
    return g_test_run();
}
