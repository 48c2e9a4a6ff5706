/* test_ptx_robust.c — the parser on damaged input: truncations and seeded random mutations of real
 * PTX never crash or hang; every failure is a "FILE:LINE:COL: message" error inside the input; every
 * success prints to text that parses back to the same text. Also: parsing is linear (a large file
 * takes milliseconds). Run it under ASan/UBSan in a --enable-sanitizers build as well. */
#include "kernels/frontend/ptx_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROBUST_SEED 20261122u
#define MUTATIONS 3000

static char *read_sample(gsize *len)
{
    const char *top = g_getenv("top_srcdir");
    char *path = g_build_filename(top ? top : ".", "kernels", "fuzz", "corpus", "stress.ptx", NULL);
    char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, len, NULL));
    g_free(path);
    return text;
}

static unsigned count_lines(const char *t, gsize len)
{
    unsigned n = 1;
    for (gsize i = 0; i < len; i++)
        n += t[i] == '\n';
    return n;
}

/* Parses; checks the error format or the print/parse/print fixpoint. Returns true on success. */
static bool check_one(const char *text, gsize len)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string(text, (gssize)len, "mut.ptx", &err);
    if (!m) {
        g_assert_nonnull(err);
        unsigned line = 0, col = 0;
        if (!g_str_has_prefix(err->message, "mut.ptx:") ||
            sscanf(err->message, "mut.ptx:%u:%u: ", &line, &col) != 2 || line < 1 ||
            line > count_lines(text, len) || col < 1) {
            g_test_message("bad error \"%s\" for input (saved as ptx-robust-failure.ptx)", err->message);
            g_file_set_contents("ptx-robust-failure.ptx", text, (gssize)len, NULL);
        }
        g_assert_true(g_str_has_prefix(err->message, "mut.ptx:"));
        g_assert_cmpint(sscanf(err->message, "mut.ptx:%u:%u: ", &line, &col), ==, 2);
        g_assert_cmpuint(line, >=, 1);
        g_assert_cmpuint(line, <=, count_lines(text, len));
        g_assert_cmpuint(col, >=, 1);
        g_assert_nonnull(strstr(err->message, ": "));
        g_error_free(err);
        return false;
    }
    GString *s1 = g_string_new(NULL), *s2 = g_string_new(NULL);
    ir_print_module(s1, m);
    ir_module *m2 = ptx_parse_string(s1->str, (gssize)s1->len, "printed.ptx", &err);
    if (!m2)
        g_test_message("reprint failed: %s", err->message);
    g_assert_no_error(err);
    ir_print_module(s2, m2);
    g_assert_cmpstr(s1->str, ==, s2->str);
    g_string_free(s1, TRUE);
    g_string_free(s2, TRUE);
    ir_module_free(m2);
    ir_module_free(m);
    return true;
}

static void test_truncations(void)
{
    gsize len;
    char *text = read_sample(&len);
    g_assert_true(check_one(text, len));
    unsigned ok = 0, n = 0;
    gsize step = MAX(len / 1500, 1);
    for (gsize cut = 0; cut < len; cut += step, n++)
        ok += check_one(text, cut);
    /* Cuts just after a whole function or directive parse; most do not. */
    g_test_message("%u truncations, %u parsed", n, ok);
    g_assert_cmpuint(ok, <, n);
    g_free(text);
}

static const char *const dictionary[] = {
    "{", "}", "(", ")", "[", "]", ";", ",", ":", "@", "!", "|", "<", ">", "+", "-", "=", "\"", "/*", "*/", "//",
    "\n", " ", "%r1", "%p1", "%rd1", "%tid.x", "%r<99999999>", ".reg", ".param", ".b32", ".u64", ".f32", ".pred",
    ".align 8", ".shared", ".extern", ".func", ".entry", "call.uni", "bra", "$L__BB0_1", "ret", "0f3F800000",
    "0d3FF0000000000000", "-1", "0x7fffffff", "18446744073709551615", "99999999999999999999", "1e999", "_",
    "ld.global.v4.f32", "{%f1, %f2, %f3, %f4}", "setp.lt.and.s32", "shfl.sync.down.b32", "\xff", "\x00",
    ".global .b8 x[] = {1, 2, 3};", ".maxntid 1024, 1, 1", "param0", "retval0", "[%rd1+-4]",
};

/* One random edit of buf. */
static void mutate(GRand *r, GString *buf)
{
    gsize len = buf->len;
    guint kind = g_rand_int_range(r, 0, 6);
    gsize pos = len ? (gsize)g_rand_int_range(r, 0, (gint32)len) : 0;
    switch (kind) {
    case 0: /* flip a byte */
        if (len)
            buf->str[pos] = (char)g_rand_int_range(r, 1, 256);
        break;
    case 1: { /* delete a range */
        gsize want = (gsize)g_rand_int_range(r, 1, 64);
        gsize n = MIN(want, len - pos);
        g_string_erase(buf, (gssize)pos, (gssize)n);
        break;
    }
    case 2: { /* insert a dictionary word */
        const char *w = dictionary[g_rand_int_range(r, 0, G_N_ELEMENTS(dictionary))];
        g_string_insert_len(buf, (gssize)pos, w, w[0] ? (gssize)strlen(w) : 1);
        break;
    }
    case 3: { /* duplicate a range */
        gsize want = (gsize)g_rand_int_range(r, 1, 200);
        gsize n = MIN(want, len - pos);
        char *copy = g_strndup(buf->str + pos, n);
        gsize at = (gsize)g_rand_int_range(r, 0, (gint32)len + 1);
        g_string_insert_len(buf, (gssize)at, copy, (gssize)n);
        g_free(copy);
        break;
    }
    case 4: /* swap two bytes */
        if (len > 1) {
            gsize q = (gsize)g_rand_int_range(r, 0, (gint32)len);
            char c = buf->str[pos];
            buf->str[pos] = buf->str[q];
            buf->str[q] = c;
        }
        break;
    default: /* replace a digit by another: keeps the syntax, changes numbers, labels, registers */
        for (gsize k = pos; k < len; k++)
            if (buf->str[k] >= '0' && buf->str[k] <= '9') {
                buf->str[k] = (char)('0' + g_rand_int_range(r, 0, 10));
                break;
            }
        break;
    }
}

static void test_mutations(void)
{
    gsize len;
    char *text = read_sample(&len);
    GRand *r = g_rand_new_with_seed(ROBUST_SEED);
    gint64 t0 = g_get_monotonic_time();
    unsigned ok = 0, n;
    /* Odd cases mutate the whole file (some still parse: the print/parse fixpoint is checked on
     * them); even cases a prefix of it, which fails sooner and mostly exercises the error paths. */
    for (n = 0; n < MUTATIONS; n++) {
        gsize want = (gsize)g_rand_int_range(r, 200, 6000);
        gsize cut = n % 2 ? len : MIN(len, want);
        GString *buf = g_string_new_len(text, (gssize)cut);
        int edits = g_rand_int_range(r, 1, 4);
        for (int e = 0; e < edits; e++)
            mutate(r, buf);
        ok += check_one(buf->str, buf->len);
        g_string_free(buf, TRUE);
        /* bounded time: a hang would show as a timeout of the whole test; keep well inside it */
        if (g_get_monotonic_time() - t0 > 60 * G_USEC_PER_SEC)
            break;
    }
    g_test_message("%u mutants, %u parsed, %.1f s", n, ok, (double)(g_get_monotonic_time() - t0) / 1e6);
    g_assert_cmpuint(n, >=, 500);
    g_rand_free(r);
    g_free(text);
}

/* A large generated kernel (about 20000 lines): parse time must stay in milliseconds (linear). */
static void test_large_file_is_fast(void)
{
    GString *s = g_string_new(".version 9.0\n.target sm_75\n.address_size 64\n"
                              ".visible .entry big(.param .u64 big_param_0)\n{\n"
                              "\t.reg .pred %p<3>;\n\t.reg .b32 %r<20001>;\n\t.reg .b64 %rd<4>;\n"
                              "\tld.param.u64 %rd1, [big_param_0];\n");
    for (int i = 1; i < 20000; i++) {
        if (i % 100 == 0)
            g_string_append_printf(s, "$L__BB0_%d:\n\tsetp.lt.s32 %%p1, %%r%d, 7;\n\t@%%p1 bra $L__BB0_%d;\n", i, i,
                                   i + 100 < 20000 ? i + 100 : 100);
        g_string_append_printf(s, "\tadd.s32 %%r%d, %%r%d, %d; // line %d\n", i + 1, i, i, i);
    }
    g_string_append(s, "\tst.global.u32 [%rd1], %r20000;\n\tret;\n}\n");
    unsigned lines = count_lines(s->str, s->len);
    gint64 t0 = g_get_monotonic_time();
    GError *err = NULL;
    ir_module *m = ptx_parse_string(s->str, (gssize)s->len, "big.ptx", &err);
    gint64 dt = g_get_monotonic_time() - t0;
    g_assert_no_error(err);
    ir_func *f = ir_module_find_func(m, "big");
    g_assert_cmpuint(ir_func_n_instrs(f), >, 20000);
    g_test_message("%u lines parsed in %.2f ms", lines, (double)dt / 1000.0);
    /* 4x the lines of the 5000-line requirement; generous for sanitizer builds and loaded machines. */
    g_assert_cmpint(dt, <, 2 * G_USEC_PER_SEC);
    ir_module_free(m);
    g_string_free(s, TRUE);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ptx-robust/truncations", test_truncations);
    g_test_add_func("/ptx-robust/mutations", test_mutations);
    g_test_add_func("/ptx-robust/large-file-is-fast", test_large_file_is_fast);
    return g_test_run();
}
