# kernels/frontend.mk: included from kernels/local.mk.
# The PTX front end: lexer, parser, IR data structures and printer (docs/ptx-frontend.md).
kernels_libgpusc_kernels_core_la_SOURCES += \
	kernels/ir.c \
	kernels/ptx_lex.c kernels/ptx_lex.h \
	kernels/ptx_parse.c
nobase_pkginclude_HEADERS += kernels/ir.h kernels/ptx_parse.h

# Tests (tests/kernels/test_ptx_*.c).
PTX_FRONTEND_TESTS = tests/kernels/test_ptx_parse tests/kernels/test_ptx_errors tests/kernels/test_ptx_robust
check_PROGRAMS += $(PTX_FRONTEND_TESTS)
TESTS += $(PTX_FRONTEND_TESTS)
tests_kernels_test_ptx_parse_SOURCES = tests/kernels/test_ptx_parse.c
tests_kernels_test_ptx_parse_LDADD = $(KERNELS_LIBS)
tests_kernels_test_ptx_errors_SOURCES = tests/kernels/test_ptx_errors.c
tests_kernels_test_ptx_errors_LDADD = $(KERNELS_LIBS)
tests_kernels_test_ptx_robust_SOURCES = tests/kernels/test_ptx_robust.c
tests_kernels_test_ptx_robust_LDADD = $(KERNELS_LIBS)
