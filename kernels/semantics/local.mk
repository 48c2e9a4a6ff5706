# kernels/semantics/local.mk: included from kernels/local.mk.
# The functional semantics of single PTX instructions (ir_exec.h) and their tests.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/semantics/ir_exec.c
nobase_pkginclude_HEADERS += kernels/semantics/ir_exec.h
noinst_HEADERS += tests/kernels/test_exec_util.h

SEMANTICS_TESTS = \
	tests/kernels/test_exec_int \
	tests/kernels/test_exec_logic \
	tests/kernels/test_exec_float \
	tests/kernels/test_exec_cvt \
	tests/kernels/test_exec_warp \
	tests/kernels/test_exec_parsed \
	tests/kernels/test_exec_random \
	tests/kernels/test_exec_coverage
check_PROGRAMS += $(SEMANTICS_TESTS)
TESTS += $(SEMANTICS_TESTS)
tests_kernels_test_exec_int_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_logic_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_float_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_cvt_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_warp_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_parsed_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_random_LDADD = $(KERNELS_LIBS)
tests_kernels_test_exec_coverage_LDADD = $(KERNELS_LIBS)
