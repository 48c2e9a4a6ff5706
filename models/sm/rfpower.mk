# models/sm/rfpower.mk: included from models/sm/local.mk. The `rfpower` block and tb-greener.
models_libgpusc_models_la_SOURCES += models/sm/rfpower.c models/sm/rfpower.h
nobase_pkginclude_HEADERS += models/sm/rfpower.h

bin_PROGRAMS += testbench/tb-greener
testbench_tb_greener_SOURCES = testbench/tb-greener.c
testbench_tb_greener_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
