# kernels/passes/renaming.mk: included from kernels/analysis/analysis.mk. Register renaming's compiler passes: the
# lifetime / release pass, pir/pbr packing and layout, exemption ranking (docs/renaming.md).
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/renaming.c
nobase_pkginclude_HEADERS += kernels/passes/renaming.h

check_PROGRAMS += tests/kernels/test_renaming_pass
TESTS += tests/kernels/test_renaming_pass
tests_kernels_test_renaming_pass_LDADD = $(KERNELS_LIBS)
