# kernels/passes/local.mk: included from kernels/local.mk. The mechanisms' compiler passes.

# Register renaming's compiler passes: the
# lifetime / release pass, pir/pbr packing and layout, exemption ranking (docs/renaming.md).
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/renaming.c
nobase_pkginclude_HEADERS += kernels/passes/renaming.h

check_PROGRAMS += tests/kernels/test_renaming_pass
TESTS += tests/kernels/test_renaming_pass
tests_kernels_test_renaming_pass_LDADD = $(KERNELS_LIBS)

# The reuse-profile pass of the register-file cache (Malekeh; docs/rfcache.md).
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/reuse_profile.c
nobase_pkginclude_HEADERS += kernels/passes/reuse_profile.h
check_PROGRAMS += tests/kernels/test_reuse_profile
TESTS += tests/kernels/test_reuse_profile
tests_kernels_test_reuse_profile_LDADD = $(KERNELS_LIBS)
TESTS += tests/kernels/test_gpusc_ptx_hints.sh
dist_check_SCRIPTS += tests/kernels/test_gpusc_ptx_hints.sh

# The `greener` register power-state pass (docs/greener.md) and its tests.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/greener.c
nobase_pkginclude_HEADERS += kernels/passes/greener.h

GREENER_PASS_TESTS = tests/kernels/test_greener
check_PROGRAMS += $(GREENER_PASS_TESTS)
TESTS += $(GREENER_PASS_TESTS)
tests_kernels_test_greener_LDADD = $(KERNELS_LIBS)

# The DAWS loop-marker and profiled load classification passes (docs/ccws.md).
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/daws_pass.c
nobase_pkginclude_HEADERS += kernels/passes/daws_pass.h
check_PROGRAMS += tests/kernels/test_daws_pass
TESTS += tests/kernels/test_daws_pass
tests_kernels_test_daws_pass_LDADD = $(KERNELS_LIBS)

# VWS's reconvergence-sync insertion pass (docs/vws.md "Sync").
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/vws_sync.c
nobase_pkginclude_HEADERS += kernels/passes/vws_sync.h
check_PROGRAMS += tests/kernels/test_vws_sync
TESTS += tests/kernels/test_vws_sync
tests_kernels_test_vws_sync_LDADD = $(KERNELS_LIBS)
