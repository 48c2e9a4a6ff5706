# models/sm/rfpower.mk: included from models/sm/local.mk. The `rfpower` block and tb-greener.
models_libgpusc_models_la_SOURCES += models/sm/rfpower.c models/sm/rfpower.h
nobase_pkginclude_HEADERS += models/sm/rfpower.h

bin_PROGRAMS += testbench/tb-greener
testbench_tb_greener_SOURCES = testbench/tb-greener.c
testbench_tb_greener_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)

check_PROGRAMS += tests/sm/test_rfpower
TESTS += tests/sm/test_rfpower
tests_sm_test_rfpower_SOURCES = tests/sm/test_rfpower.c tests/sm/block_test.h
tests_sm_test_rfpower_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_greener.sh
TESTS += tests/sm/test_tb_greener.sh
