# kernels/run/local.mk: included from kernels/local.mk.
# The functional runner: memory image (fmem), module loading and layout (kload), the SIMT stack
# (simt), the runner (frun), the gpusc-run program, and their tests.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/run/fmem.c kernels/run/kload.c kernels/run/simt.c kernels/run/frun.c \
	kernels/run/warp_step.c
nobase_pkginclude_HEADERS += kernels/run/fmem.h kernels/run/kload.h kernels/run/simt.h kernels/run/frun.h kernels/run/warp_step.h

FRUN_UNIT_TESTS = tests/kernels/test_fmem tests/kernels/test_simt tests/kernels/test_kload \
	tests/kernels/test_frun tests/kernels/test_warp_step
check_PROGRAMS += $(FRUN_UNIT_TESTS)
TESTS += $(FRUN_UNIT_TESTS)
tests_kernels_test_fmem_LDADD = $(KERNELS_LIBS)
tests_kernels_test_simt_LDADD = $(KERNELS_LIBS)
tests_kernels_test_kload_LDADD = $(KERNELS_LIBS)
tests_kernels_test_frun_LDADD = $(KERNELS_LIBS)
tests_kernels_test_warp_step_LDADD = $(KERNELS_LIBS)
tests_kernels_test_frun_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_PTX_DIR='"$(abs_top_srcdir)/tests/kernels/ptx"'
EXTRA_DIST += tests/kernels/ptx/diverge.ptx tests/kernels/ptx/barrier.ptx tests/kernels/ptx/memory.ptx \
	tests/kernels/ptx/call.ptx tests/kernels/ptx/cli.ptx tests/kernels/ptx/memops.ptx \
	tests/kernels/ptx/addrinit.ptx

# Shell tests (TAP): every workload at the tiny size, the gpusc-run command line; the default size
# runs in `make check-long`.
TESTS += tests/kernels/test_workloads_functional.sh tests/kernels/test_gpusc_run_cli.sh
EXTRA_DIST += tests/kernels/test_workloads_functional.sh tests/kernels/test_gpusc_run_cli.sh \
	tests/kernels/test_workloads_functional_long.sh
LONG_TESTS += tests/kernels/test_workloads_functional_long.sh

bin_PROGRAMS += kernels/tools/gpusc-run
kernels_tools_gpusc_run_SOURCES = kernels/tools/gpusc-run.c
kernels_tools_gpusc_run_LDADD = $(KERNELS_LIBS)
kernels_tools_gpusc_run_LDFLAGS = $(GPUSC_PROG_LINK_FLAGS)
kernels_tools_gpusc_run_CPPFLAGS = $(AM_CPPFLAGS) -DGPUSC_SRC_PTX_DIR='"$(abs_top_srcdir)/kernels/ptx"' \
	-DGPUSC_DATA_PTX_DIR='"$(pkgdatadir)/ptx"'

# The launch command line shared by gpusc-run and the timing testbenches (--grid/--block, --arg forms,
# output buffers, launch checks), and its unit test.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/run/launch_cli.c
nobase_pkginclude_HEADERS += kernels/run/launch_cli.h
check_PROGRAMS += tests/kernels/test_launch_cli
TESTS += tests/kernels/test_launch_cli
tests_kernels_test_launch_cli_LDADD = $(KERNELS_LIBS)
