# kernels/passes/greener.mk: included from kernels/local.mk.
# The `greener` register power-state pass (docs/greener.md) and its tests.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/greener.c
nobase_pkginclude_HEADERS += kernels/passes/greener.h

GREENER_PASS_TESTS = tests/kernels/test_greener
check_PROGRAMS += $(GREENER_PASS_TESTS)
TESTS += $(GREENER_PASS_TESTS)
tests_kernels_test_greener_LDADD = $(KERNELS_LIBS)
