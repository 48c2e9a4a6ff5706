# kernels/passes/reuse_profile.mk: included from kernels/local.mk.
# The reuse-profile pass of the register-file cache (Malekeh; docs/rfcache.md).
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/reuse_profile.c
nobase_pkginclude_HEADERS += kernels/passes/reuse_profile.h
check_PROGRAMS += tests/kernels/test_reuse_profile
TESTS += tests/kernels/test_reuse_profile
tests_kernels_test_reuse_profile_LDADD = $(KERNELS_LIBS)
