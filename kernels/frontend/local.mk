# kernels/frontend/local.mk: included from kernels/local.mk.
# The PTX front end: lexer, parser, IR data structures and printer (docs/ptx-frontend.md).
kernels_libgpusc_kernels_core_la_SOURCES += \
	kernels/frontend/hostfile.c kernels/frontend/hostfile.h \
	kernels/frontend/ir.c \
	kernels/frontend/ptx_lex.c kernels/frontend/ptx_lex.h \
	kernels/frontend/ptx_parse.c \
	kernels/frontend/spu_isa.c
nobase_pkginclude_HEADERS += kernels/frontend/hostfile.h kernels/frontend/ir.h kernels/frontend/ptx_parse.h kernels/frontend/spu_isa.h

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

# The libFuzzer target: clang only (automake's compiler is gcc), so an explicit rule that compiles
# the fuzzer with the front-end sources. Built by `make check` where configure found clang, in a tree
# configured without --enable-sanitizers (it has its own; NOSAN_TESTS in Makefile.am).
FUZZ_PTX_DEPS = $(top_srcdir)/kernels/fuzz/fuzz_ptx_parse.c $(top_srcdir)/kernels/frontend/ir.c \
	$(top_srcdir)/kernels/frontend/hostfile.c $(top_srcdir)/kernels/frontend/hostfile.h \
	$(top_srcdir)/kernels/frontend/ptx_lex.c $(top_srcdir)/kernels/frontend/ptx_parse.c $(top_srcdir)/kernels/frontend/spu_isa.c \
	$(top_srcdir)/kernels/frontend/spu_isa.h $(top_srcdir)/kernels/frontend/ir.h $(top_srcdir)/kernels/frontend/ptx_lex.h $(top_srcdir)/kernels/frontend/ptx_parse.h
if HAVE_CLANG
if !SANITIZERS
check_SCRIPTS += kernels/fuzz/fuzz_ptx_parse
endif
CLEANFILES += kernels/fuzz/fuzz_ptx_parse
kernels/fuzz/fuzz_ptx_parse: $(FUZZ_PTX_DEPS)
	@$(MKDIR_P) kernels/fuzz
	$(AM_V_CC)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  -I$(top_srcdir) -I$(top_builddir) $(GLIB_CFLAGS) \
	  $(top_srcdir)/kernels/fuzz/fuzz_ptx_parse.c $(top_srcdir)/kernels/frontend/ir.c $(top_srcdir)/kernels/frontend/hostfile.c \
	  $(top_srcdir)/kernels/frontend/ptx_lex.c $(top_srcdir)/kernels/frontend/ptx_parse.c $(top_srcdir)/kernels/frontend/spu_isa.c \
	  $(GLIB_LIBS) -lm -o $@
endif
NOSAN_TESTS += tests/kernels/fuzz_ptx_short.sh
EXTRA_DIST += tests/kernels/fuzz_ptx_short.sh kernels/fuzz/fuzz_ptx_parse.c kernels/fuzz/ptx.dict \
	kernels/fuzz/corpus kernels/fuzz/stress.cu kernels/fuzz/templates.cu docs/ptx-frontend.md
