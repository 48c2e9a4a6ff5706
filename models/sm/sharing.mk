# Resource sharing (registers / scratchpad, OWF): the sharing computation, the lock_table block, the
# sharing-aware CTA grant, tb-sharing and their tests (docs/sharing.md). Included from Makefile.am.
models_lib_libgpusc_lib_la_SOURCES += models/lib/sharing.c models/lib/sharing.h
check_PROGRAMS += tests/lib/test_sharing
TESTS += tests/lib/test_sharing
tests_lib_test_sharing_LDADD = $(GPUSC_LIB_TEST_LIBS)
dist_check_SCRIPTS += tests/tools/test_gpusc_occupancy_sharing.sh
TESTS += tests/tools/test_gpusc_occupancy_sharing.sh
models_libgpusc_models_la_SOURCES += models/sm/lock_table.c models/sm/lock_table.h
nobase_pkginclude_HEADERS += models/sm/lock_table.h models/lib/sharing.h
bin_PROGRAMS += testbench/tb-sharing
testbench_tb_sharing_SOURCES = testbench/tb-sharing.c
testbench_tb_sharing_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
check_PROGRAMS += tests/sm/test_lock_table
TESTS += tests/sm/test_lock_table
tests_sm_test_lock_table_SOURCES = tests/sm/test_lock_table.c tests/sm/block_test.h
tests_sm_test_lock_table_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_sharing.sh
TESTS += tests/sm/test_tb_sharing.sh
kernels_libgpusc_kernels_core_la_SOURCES += kernels/regorder.c kernels/regorder.h
nobase_pkginclude_HEADERS += kernels/regorder.h
check_PROGRAMS += tests/kernels/test_regorder
TESTS += tests/kernels/test_regorder
tests_kernels_test_regorder_LDADD = $(KERNELS_LIBS)
