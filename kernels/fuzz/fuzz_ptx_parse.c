/* fuzz_ptx_parse.c — libFuzzer target for the PTX front end.
 *
 * Every input must parse or fail with a "FILE:LINE:COL: message" error; a module that parses must
 * print to text that parses again and prints identically. Built with clang -fsanitize=fuzzer,address
 * by kernels/frontend/local.mk (`make kernels/fuzz/fuzz_ptx_parse` where configure found clang); run by
 * tests/kernels/fuzz_ptx_short.sh on a copy of kernels/fuzz/corpus/.
 */
#include "kernels/frontend/ptx_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const GError *err)
{
    unsigned line = 0, col = 0;
    if (!err || !g_str_has_prefix(err->message, "fuzz.ptx:") ||
        sscanf(err->message, "fuzz.ptx:%u:%u: ", &line, &col) != 2 || line == 0 || col == 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *err = NULL;
    ir_module *m = ptx_parse_string((const char *)data, (gssize)size, "fuzz.ptx", &err);
    if (!m) {
        check_error(err);
        g_error_free(err);
        return 0;
    }
    GString *s1 = g_string_new(NULL);
    ir_print_module(s1, m);
    ir_module *m2 = ptx_parse_string(s1->str, (gssize)s1->len, "printed.ptx", &err);
    if (!m2) {
        fprintf(stderr, "printed module does not parse: %s\n%s\n", err->message, s1->str);
        abort();
    }
    GString *s2 = g_string_new(NULL);
    ir_print_module(s2, m2);
    if (strcmp(s1->str, s2->str) != 0) {
        fprintf(stderr, "print/parse/print differs:\n%s\n----\n%s\n", s1->str, s2->str);
        abort();
    }
    g_string_free(s1, TRUE);
    g_string_free(s2, TRUE);
    ir_module_free(m2);
    ir_module_free(m);
    return 0;
}
