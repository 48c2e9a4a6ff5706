# kernels/passes/daws_pass.mk: included from kernels/local.mk.
# The DAWS loop-marker and profiled load classification passes (docs/ccws.md).
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/daws_pass.c
nobase_pkginclude_HEADERS += kernels/passes/daws_pass.h
check_PROGRAMS += tests/kernels/test_daws_pass
TESTS += tests/kernels/test_daws_pass
tests_kernels_test_daws_pass_LDADD = $(KERNELS_LIBS)
