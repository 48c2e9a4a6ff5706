# kernels/analysis.mk: included from kernels/local.mk.
# The analyses and passes of the kernel toolchain: CFG, dominators, loops, reconvergence (cfg), the
# generic dataflow solver, liveness and reaching definitions (dataflow), register allocation
# (regalloc), instruction/operand annotations (annot), and the gpusc-ptx disassembler tool.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/cfg.c kernels/dataflow.c
nobase_pkginclude_HEADERS += kernels/cfg.h kernels/dataflow.h

check_PROGRAMS += tests/kernels/test_cfg
TESTS += tests/kernels/test_cfg
tests_kernels_test_cfg_SOURCES = tests/kernels/test_cfg.c tests/kernels/test_cfg_build.h
tests_kernels_test_cfg_LDADD = $(KERNELS_LIBS)
