# kernels/analysis/local.mk: included from kernels/local.mk.
# The analyses and passes of the kernel toolchain: CFG, dominators, loops, reconvergence (cfg), the
# generic dataflow solver, liveness and reaching definitions (dataflow), register allocation
# (regalloc), instruction/operand annotations (annot), and the gpusc-ptx disassembler tool.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/analysis/cfg.c kernels/analysis/dataflow.c kernels/analysis/regalloc.c kernels/analysis/annot.c
nobase_pkginclude_HEADERS += kernels/analysis/cfg.h kernels/analysis/dataflow.h kernels/analysis/regalloc.h kernels/analysis/annot.h

bin_PROGRAMS += kernels/tools/gpusc-ptx
kernels_tools_gpusc_ptx_SOURCES = kernels/tools/gpusc-ptx.c
# It reads the machine's occupancy limits from the presets, so it links the models.
kernels_tools_gpusc_ptx_LDADD = $(GPUSC_LIBS)
noinst_HEADERS += tests/kernels/test_cfg_build.h

ANALYSIS_TESTS = tests/kernels/test_cfg tests/kernels/test_dataflow tests/kernels/test_regalloc \
	tests/kernels/test_regalloc_frun tests/kernels/test_dataflow_annot
check_PROGRAMS += $(ANALYSIS_TESTS)
TESTS += $(ANALYSIS_TESTS)
tests_kernels_test_cfg_LDADD = $(KERNELS_LIBS)
tests_kernels_test_dataflow_LDADD = $(KERNELS_LIBS)
tests_kernels_test_regalloc_LDADD = $(KERNELS_LIBS)
tests_kernels_test_regalloc_frun_LDADD = $(KERNELS_LIBS)
tests_kernels_test_dataflow_annot_LDADD = $(KERNELS_LIBS)

TESTS += tests/kernels/test_gpusc_ptx.sh
EXTRA_DIST += tests/kernels/test_gpusc_ptx.sh kernels/tools/regalloc-table.sh

# Register renaming's passes (kernels/passes/renaming.c, docs/renaming.md) and their tests.
