/* test_ptx_errors.c — malformed PTX: every error names FILE:LINE:COL and the construct. */
#include "kernels/frontend/ptx_parse.h"

#include <glib/gstdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"
/* Lines 1-9; a kernel body line given to a case is line 10 (a tab first: instructions at column 2). */
#define PRE HEADER ".visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n" \
    "\t.reg .f32 %f<4>;\n"
#define POST "\n\tret;\n}\n"

typedef struct {
    const char *text;
    unsigned line, col;
    const char *fragment;
    int code;
} error_case;

enum { SYN = PTX_PARSE_ERROR_SYNTAX, UNS = PTX_PARSE_ERROR_UNSUPPORTED, SEM = PTX_PARSE_ERROR_SEMANTIC };

static const error_case cases[] = {
    /* instructions */
    { PRE "\tfoo.s32 %r1, %r2;" POST, 10, 2, "unknown instruction 'foo'", SYN },
    { PRE "\tadd.pred %p1, %p0, %p1;" POST, 10, 2, "bad type .pred for add", SYN },
    { PRE "\tadd %r1, %r2, %r3;" POST, 10, 2, "missing type for add", SYN },
    { PRE "\tadd.foo.s32 %r1, %r2, %r3;" POST, 10, 2, "unknown modifier '.foo' for add", SYN },
    { PRE "\tadd.s32 %r1, %r2;" POST, 10, 18, "missing operand for add", SYN },
    { PRE "\tadd.s32 %r1, %r2, %r3, %r3;" POST, 10, 25, "too many operands for add", SYN },
    { PRE "\tadd.s32 %r1, %r2, %r99;" POST, 10, 20, "undeclared register %r99", SYN },
    { PRE "\tadd.s32 %r1, %r2, %r3\n\tret;\n}\n", 11, 2, "expected ';' after the instruction", SYN },
    { PRE "\tmov.u32 5, %r1;" POST, 10, 10, "destination of mov must be a register", SYN },
    { PRE "\tsetp.eq.s32 %r1, %r2, %r3;" POST, 10, 14, "%r1 is not a predicate register", SYN },
    { PRE "\tadd.s32 %r1, %p1, 1;" POST, 10, 15, "predicate register %p1 used as a .s32 operand", SYN },
    { PRE "\t@%r1 ret;" POST, 10, 3, "guard %r1 is not a predicate register", SYN },
    { PRE "\tshfl.sync.down.f32 %f1, %f2, 1, 31, -1;" POST, 10, 2, "bad type .f32 for shfl", SYN },
    { PRE "\tshfl.sync.down.b32 %r1, %r2, 1, 31;" POST, 10, 36, "missing operand for shfl", SYN },
    { PRE "\tsetp.s32 %p1, %r2, %r3;" POST, 10, 2, "setp needs a comparison", SYN },
    { PRE "\tmul.s32 %r1, %r2, %r3;" POST, 10, 2, "needs exactly one of .hi, .lo, .wide", SYN },
    { PRE "\tatom.global.u32 %r1, [%rd1], 1;" POST, 10, 2, "atom needs an operation", SYN },
    /* atom/red: the operation x type table of the PTX ISA */
    { PRE "\tatom.global.inc.f32 %f1, [%rd1], %f2;" POST, 10, 2,
      "bad type .f32 for atom.inc (it takes .u32)", SYN },
    { PRE "\tatom.global.dec.s32 %r1, [%rd1], 1;" POST, 10, 2,
      "bad type .s32 for atom.dec (it takes .u32)", SYN },
    { PRE "\tatom.and.f32 %f1, [%rd1], %f2;" POST, 10, 2,
      "bad type .f32 for atom.and (it takes .b32, .b64)", SYN },
    { PRE "\tatom.shared.or.u32 %r1, [%rd1], 1;" POST, 10, 2,
      "bad type .u32 for atom.or (it takes .b32, .b64)", SYN },
    { PRE "\tatom.xor.s64 %rd1, [%rd1], 1;" POST, 10, 2, "bad type .s64 for atom.xor", SYN },
    { PRE "\tatom.exch.f32 %f1, [%rd1], %f2;" POST, 10, 2,
      "bad type .f32 for atom.exch (it takes .b32, .b64)", SYN },
    { PRE "\tatom.exch.b16 %r1, [%rd1], 1;" POST, 10, 2, "bad type .b16 for atom.exch", SYN },
    { PRE "\tatom.cas.u32 %r1, [%rd1], 1, 2;" POST, 10, 2,
      "bad type .u32 for atom.cas (it takes .b16, .b32, .b64)", SYN },
    { PRE "\tatom.global.add.s64 %rd1, [%rd1], 1;" POST, 10, 2,
      "bad type .s64 for atom.add (it takes .u32, .s32, .u64, .f32, .f64, .noftz.f16)", SYN },
    { PRE "\tatom.global.add.b32 %r1, [%rd1], 1;" POST, 10, 2, "bad type .b32 for atom.add", SYN },
    { PRE "\tatom.global.add.f16 %r1, [%rd1], %r2;" POST, 10, 2, "atom.add.f16 needs .noftz", SYN },
    { PRE "\tatom.global.min.f32 %f1, [%rd1], %f2;" POST, 10, 2,
      "bad type .f32 for atom.min (it takes .u32, .s32, .u64, .s64)", SYN },
    { PRE "\tatom.global.max.b32 %r1, [%rd1], 1;" POST, 10, 2, "bad type .b32 for atom.max", SYN },
    { PRE "\tred.global.inc.s32 [%rd1], 1;" POST, 10, 2, "bad type .s32 for red.inc (it takes .u32)", SYN },
    { PRE "\tred.shared.and.u32 [%rd1], 1;" POST, 10, 2, "bad type .u32 for red.and", SYN },
    { PRE "\tred.global.exch.b32 [%rd1], 1;" POST, 10, 2, "red has no .exch", SYN },
    { PRE "\tld.global.u32 %r1, %rd1;" POST, 10, 21, "ld expects a memory operand", SYN },
    { PRE "\tld.global.v4.f32 {%f1, %f2}, [%rd1];" POST, 10, 19, "vector operand has 2 elements", SYN },
    { PRE "\tld.global.v2.f32 %f1, [%rd1];" POST, 10, 19, "needs a vector destination", SYN },
    { PRE "\tld.global.u32 %r1, [nosuch];" POST, 10, 22, "undeclared symbol 'nosuch' in address", SYN },
    { HEADER ".global .u32 g;\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\tld.shared.u32 %r1, [g+4];\n\tret;\n}\n", 8, 21,
      "'g' is a .global variable, not .shared", SYN },
    { PRE "\tld.global.u32 %r1, [%rd1+];" POST, 10, 27, "expected an address offset", SYN },
    { PRE "\tmov.u32 %r1, %tid;" POST, 10, 15, "needs a component", SYN },
    { PRE "\tmov.u32 %r1, nosuch;" POST, 10, 15, "undeclared identifier 'nosuch'", SYN },
    { PRE "\tadd.s32 %r1, !%r2, 1;" POST, 10, 15, "'!' only applies to predicate registers", SYN },
    { PRE "\tadd.s32 %r1|%r2, %r2, 1;" POST, 10, 14, "add has one destination", SYN },
    { PRE "\tmov.u32 %r1, 1.5;" POST, 10, 15, "floating-point literal in a .u32 operand", SYN },
    { PRE "\tbar.sync;" POST, 10, 10, "missing operand for bar", SYN },
    { PRE "\tret\n\tadd.s32 %r1, %r2, 1;" POST, 11, 2, "expected ';' after the instruction, got 'add.s32'", SYN },
    { PRE "\tret.foo;" POST, 10, 2, "unknown modifier '.foo' for ret", SYN },
    { PRE "\tret.u32;" POST, 10, 2, "ret takes no type", SYN },
    { PRE "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f0}, [tex, {%f1, %f2}];" POST, 10, 2,
      "unsupported instruction 'tex'", UNS },
    { PRE "\tmul.rn.f16x2 %r1, %r2, %r3;" POST, 10, 2, "unsupported type .f16x2", UNS },
    { PRE "\tst.global.v2.u32 [%rd1], {%r1, 0};" POST, 10, 33, "unsupported: immediate in a vector operand", UNS },
    { PRE "\tst.global.v2.f32 [%rd1], {-1.5, %f1};" POST, 10, 28, "unsupported: immediate in a vector operand", UNS },
    { PRE "\tand.b32 %r1, %r2, !%p1;" POST, 10, 20, "'!' only applies to predicate registers", SYN },
    { PRE "\tmov.u32 %r1, %envreg3;" POST, 10, 15, "unsupported special register %envreg3", UNS },
    { PRE "\tmov.u32 %r1, %pm0;" POST, 10, 15, "unsupported special register %pm0", UNS },
    { PRE "\tmov.u64 %rd1, %pm7_64;" POST, 10, 16, "unsupported special register %pm7_64", UNS },
    { PRE "\tmov.u32 %r1, %pmx;" POST, 10, 15, "undeclared register %pmx", SYN },
    /* operand types against register types (ptxas: "Arguments mismatch") */
    { PRE "\tadd.u32 %f1, %f2, %f2;" POST, 10, 10, "register %f1 of type .f32 does not fit the .u32 operand of add", SYN },
    { PRE "\tadd.u32 %r1, %f2, %r2;" POST, 10, 15, "register %f2 of type .f32 does not fit the .u32 operand", SYN },
    { PRE "\tadd.u32 %r1, %rd2, %r2;" POST, 10, 15, "register %rd2 of type .b64 does not fit the .u32 operand", SYN },
    { PRE "\tadd.u16 %r1, %r2, %r2;" POST, 10, 10, "register %r1 of type .b32 does not fit the .u16 operand", SYN },
    { PRE "\tmov.u64 %rd1, %r1;" POST, 10, 16, "register %r1 of type .b32 does not fit the .u64 operand of mov", SYN },
    { PRE "\tld.global.u32 %f1, [%rd1];" POST, 10, 16, "register %f1 of type .f32 does not fit the .u32 operand of ld", SYN },
    { PRE "\tst.global.u32 [%rd1], %f1;" POST, 10, 24, "register %f1 of type .f32 does not fit the .u32 operand of st", SYN },
    { PRE "\tcvt.rn.f32.u32 %f1, %f2;" POST, 10, 22, "register %f2 of type .f32 does not fit the .u32 operand of cvt", SYN },
    { PRE "\tshl.b32 %r1, %r2, %rd1;" POST, 10, 20, "register %rd1 of type .b64 does not fit the .u32 operand of shl", SYN },
    { PRE "\tsetp.eq.u32 %p1, %f1, %r1;" POST, 10, 19, "register %f1 of type .f32 does not fit the .u32 operand of setp", SYN },
    { PRE "\tatom.global.add.u32 %rd1, [%rd1], %r1;" POST, 10, 22, "register %rd1 of type .b64 does not fit", SYN },
    { PRE "\tld.global.v2.u32 {%f1, %f2}, [%rd1];" POST, 10, 19, "register %f1 of type .f32 does not fit", SYN },
    /* immediates and characters */
    { PRE "\tmov.f32 %f1, 0f3F80;" POST, 10, 15, "bad f32 literal", SYN },
    { PRE "\tmov.f64 %f1, 0d3FF0;" POST, 10, 15, "bad f64 literal", SYN },
    { PRE "\tmov.u32 %r1, 12abc;" POST, 10, 15, "bad numeric literal", SYN },
    { PRE "\tmov.u32 %r1, 0x;" POST, 10, 15, "bad hexadecimal literal", SYN },
    { PRE "\tmov.u32 %r1, 99999999999999999999;" POST, 10, 15, "bad integer literal", SYN },
    { PRE "\tmov.u32 %r1, 089;" POST, 10, 15, "bad integer literal", SYN },
    { PRE "\tmov.u32 %r1, \x01;" POST, 10, 15, "unexpected byte 0x01", SYN },
    { PRE "\tmov.u32 %r1, 1; \xff\xfe" POST, 10, 18, "unexpected byte 0xff", SYN },
    { PRE "\tmov.u32 %r1, 1 # 2;" POST, 10, 17, "unexpected character '#'", SYN },
    { PRE "\t/* oops\n\tret;\n}\n", 10, 2, "unterminated comment", SYN },
    { HEADER ".pragma \"abc;\n", 4, 9, "unterminated string", SYN },
    /* labels, blocks, calls */
    { PRE "\tbra $L__nowhere;" POST, 10, 6, "unknown label '$L__nowhere'", SEM },
    { PRE "$L1:\n$L1:" POST, 11, 1, "duplicate label '$L1'", SYN },
    { PRE "\tret;\n", 5, 1, "unterminated function body", SYN },
    { PRE "\t{\n\tret;\n}\n", 5, 1, "unterminated function body", SYN },
    { PRE "\tcall.uni nofunc, ();" POST, 10, 11, "call to undeclared function 'nofunc'", SEM },
    { HEADER ".func f(.param .b32 a)\n{\n\tret;\n}\n.entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n", 10, 2,
      "call to 'f' passes 0 argument(s)", SEM },
    { PRE "\t{\n\t.reg .b32 x;\n\tcall.uni k, (x);\n\t}" POST, 12, 15, "call argument 'x' is not a .param variable",
      SYN },
    { HEADER ".entry k()\n{\n\tret;\n}\n.entry k()\n{\n\tret;\n}\n", 8, 8, "redefinition of function 'k'", SYN },
    /* declarations and directives */
    { HEADER ".foo 3;\n", 4, 1, "unknown directive '.foo'", SYN },
    { PRE "\t.bar 3;" POST, 10, 2, "unknown directive '.bar' in a function body", SYN },
    { PRE "\t.reg .b32 %r1;" POST, 10, 12, "duplicate declaration of '%r1'", SYN },
    { PRE "\t.reg .b33 %x;" POST, 10, 7, "expected a register type", SYN },
    { PRE "\t.reg .b32 %x<>;" POST, 10, 15, "expected a register count", SYN },
    { HEADER ".global .align 3 .b8 x[4];\n", 4, 16, "bad alignment 3", SYN },
    { HEADER ".global .b8 x[2] = {1, 2, 3};\n", 4, 27, "too many initialisers", SYN },
    { HEADER ".global .u32 x = sym;\n", 4, 18, "undeclared variable 'sym' in the address initialiser", SYN },
    { HEADER ".global .u64 x = generic(nosuch)+4;\n", 4, 26, "undeclared variable 'nosuch'", SYN },
    { HEADER ".global .u64 g = generic(g;\n", 4, 27, "expected ')' after generic(name", SYN },
    { HEADER ".global .u64 g = g+;\n", 4, 20, "expected an offset after the address", SYN },
    { HEADER ".global .f32 g;\n.global .f64 x = generic(g);\n", 5, 18,
      "address initialiser for a .f64 variable", SYN },
    { HEADER ".global .u32 g;\n.global .u16 x[2] = {1, g};\n", 5, 25,
      "an address initialiser needs a 32- or 64-bit element, not .u16", SYN },
    { HEADER ".global .u32 g;\n.global .u32 x = 0xFF(g);\n", 5, 18,
      "unsupported masked address initialiser for a .u32 variable", UNS },
    { HEADER ".global .u32 g;\n.global .b8 x[2] = {0xFF0(g), 0};\n", 5, 21,
      "bad initialiser mask '0xFF0'", SYN },
    { HEADER ".global .b8 x[2] = {0xFF(1000 + 546), 0};\n", 4, 26,
      "unsupported initialiser expression '1000'", UNS },
    { HEADER ".func k()\n{\n\tret;\n}\n.global .u64 x = generic(k);\n", 8, 26,
      "unsupported address initialiser: the address of function 'k'", UNS },
    { HEADER ".shared .u32 s;\n.global .u64 x = generic(s);\n", 5, 26,
      "unsupported address initialiser: 's' is a .shared variable", UNS },
    { HEADER ".global .b8 x[];\n", 4, 13, "unsized array 'x'", SYN },
    { HEADER ".global x;\n", 4, 9, "expected a type in the declaration", SYN },
    { HEADER ".func f(.reg .b32 a)\n{\n\tret;\n}\n", 4, 9, "unsupported .reg parameter", UNS },
    { HEADER ".address_size 48\n", 4, 15, "address size must be 32 or 64", SYN },
    { HEADER ".entry k(.param .u32 a, .param .u32 a)\n{\n\tret;\n}\n", 4, 37, "duplicate parameter 'a'", SYN },
    { HEADER ".entry k()\n{\n\tret;\n}\n}\n", 8, 1, "expected a directive, got '}'", SYN },
    { HEADER "add.s32 %r1, %r2, %r3;\n", 4, 1, "expected a directive", SYN },
    { HEADER ".entry k()\n.maxntid 0\n{\n\tret;\n}\n", 5, 10, "bad thread count", SYN },
    { HEADER ".section .debug_info\n{\n.b8 1\n", 5, 1, "unterminated .section", SYN },
};

static void test_error_table(void)
{
    unsigned bad = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const error_case *c = &cases[i];
        GError *err = NULL;
        ir_module *m = ptx_parse_string(c->text, -1, "bad.ptx", &err);
        if (m || !err) {
            g_test_message("case %zu: parsed without error", i);
            ir_module_free(m);
            g_clear_error(&err);
            bad++;
            continue;
        }
        char *prefix = g_strdup_printf("bad.ptx:%u:%u: ", c->line, c->col);
        bool ok = err->domain == PTX_PARSE_ERROR && g_str_has_prefix(err->message, prefix) &&
                  strstr(err->message, c->fragment) && err->code == c->code;
        g_test_message("case %zu: %s%s", i, err->message, ok ? "" : "  <-- MISMATCH");
        if (!ok) {
            g_test_message("case %zu: want \"%s...%s\" (code %d), got code %d", i, prefix, c->fragment, c->code,
                           err->code);
            bad++;
        }
        g_free(prefix);
        g_error_free(err);
    }
    g_assert_cmpuint(bad, ==, 0);
}

/* Errors in a file name the file; a missing file is an I/O error. */
static void test_file_errors(void)
{
    GError *err = NULL;
    g_assert_null(ptx_parse_file("/nonexistent/x.ptx", &err));
    g_assert_error(err, PTX_PARSE_ERROR, PTX_PARSE_ERROR_IO);
    g_assert_nonnull(strstr(err->message, "/nonexistent/x.ptx"));
    g_clear_error(&err);

    char *path = NULL;
    int fd = g_file_open_tmp("ptx-err-XXXXXX.ptx", &path, NULL);
    g_assert_cmpint(fd, >=, 0);
    const char *text = HEADER "\n.entry k()\n{\n\tret\n}\n";
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    close(fd);
    g_assert_null(ptx_parse_file(path, &err));
    char *want = g_strdup_printf("%s:8:1: expected ';'", path);
    g_assert_true(g_str_has_prefix(err->message, want));
    g_free(want);
    g_clear_error(&err);
    g_unlink(path);
    g_free(path);
}

/* A NUL byte inside the text (explicit length) is garbage, not the end. */
static void test_embedded_nul(void)
{
    static const char text[] = HEADER ".entry k()\n{\n\tret;\0\n}\n";
    GError *err = NULL;
    g_assert_null(ptx_parse_string(text, sizeof text - 1, "nul.ptx", &err));
    g_assert_nonnull(err);
    g_assert_cmpstr(err->message, ==, "nul.ptx:6:6: unexpected byte 0x00");
    g_clear_error(&err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ptx-errors/table", test_error_table);
    g_test_add_func("/ptx-errors/files", test_file_errors);
    g_test_add_func("/ptx-errors/embedded-nul", test_embedded_nul);
    return g_test_run();
}
