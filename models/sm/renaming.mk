# models/sm/renaming.mk: included from models/sm/local.mk. The register renaming block, its harness
# test, its testbench tb-renaming and the testbench's tests (docs/renaming.md).
models_libgpusc_models_la_SOURCES += models/sm/renaming.c models/sm/renaming.h
nobase_pkginclude_HEADERS += models/sm/renaming.h

bin_PROGRAMS += testbench/tb-renaming
testbench_tb_renaming_SOURCES = testbench/tb-renaming.c
testbench_tb_renaming_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)

check_PROGRAMS += tests/sm/test_renaming
TESTS += tests/sm/test_renaming
tests_sm_test_renaming_SOURCES = tests/sm/test_renaming.c
tests_sm_test_renaming_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_renaming.sh
TESTS += tests/sm/test_tb_renaming.sh
