# models/mem: the memory-side blocks (icnt, l2, dram, sm_link) and their tests (also the gpu topology's
# and tb-gpu's). Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/mem/icnt_blk.c models/mem/icnt_blk.h \
	models/mem/dram_blk.c models/mem/dram_blk.h \
	models/mem/l2.c models/mem/l2.h \
	models/mem/sm_link.c models/mem/sm_link.h
nobase_pkginclude_HEADERS += models/mem/icnt_blk.h models/mem/dram_blk.h models/mem/l2.h \
	models/mem/sm_link.h

# Tests (tests/mem/): harness tests per block; drv drives the blocks with per-node ports.
MEM_TEST_DRV = tests/mem/drv.c tests/mem/drv.h
check_PROGRAMS += tests/mem/test_icnt_blk
TESTS += tests/mem/test_icnt_blk
tests_mem_test_icnt_blk_SOURCES = tests/mem/test_icnt_blk.c $(MEM_TEST_DRV)
tests_mem_test_icnt_blk_LDADD = $(GPUSC_LIBS)
check_PROGRAMS += tests/mem/test_dram_blk
TESTS += tests/mem/test_dram_blk
tests_mem_test_dram_blk_SOURCES = tests/mem/test_dram_blk.c $(MEM_TEST_DRV)
tests_mem_test_dram_blk_LDADD = $(GPUSC_LIBS)
check_PROGRAMS += tests/mem/test_sm_link
TESTS += tests/mem/test_sm_link
tests_mem_test_sm_link_SOURCES = tests/mem/test_sm_link.c $(MEM_TEST_DRV)
tests_mem_test_sm_link_LDADD = $(GPUSC_LIBS)
check_PROGRAMS += tests/mem/test_gpu_links
TESTS += tests/mem/test_gpu_links
tests_mem_test_gpu_links_SOURCES = tests/mem/test_gpu_links.c
tests_mem_test_gpu_links_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
check_PROGRAMS += tests/mem/test_l2
TESTS += tests/mem/test_l2
tests_mem_test_l2_LDADD = $(GPUSC_LIBS)

# tb-gpu: every workload x issue policy at the tiny size, scaling over 1/4/15 SMs, bad input, the
# SM-to-SM links switched on, back-pressure under a congested memory side; the default size in
# `make check-long`.
dist_check_SCRIPTS += tests/mem/tb_gpu_workloads.sh tests/mem/tb_gpu_scaling.sh tests/mem/tb_gpu_badinput.sh \
	tests/mem/tb_gpu_workloads_long.sh tests/mem/tb_gpu_l2_closed_form.sh tests/mem/tb_gpu_waveform.sh \
	tests/mem/tb_gpu_presets.sh tests/mem/tb_gpu_sm_links.sh tests/mem/tb_gpu_backpressure.sh
EXTRA_DIST += tests/mem/ptx/l2chain.ptx
TESTS += tests/mem/tb_gpu_scaling.sh tests/mem/tb_gpu_badinput.sh \
	tests/mem/tb_gpu_l2_closed_form.sh tests/mem/tb_gpu_waveform.sh tests/mem/tb_gpu_backpressure.sh
SLOW_TESTS += tests/mem/tb_gpu_presets.sh tests/mem/tb_gpu_sm_links.sh tests/mem/tb_gpu_workloads.sh
LONG_TESTS += tests/mem/tb_gpu_workloads_long.sh
check_PROGRAMS += tests/mem/test_mem_chain
TESTS += tests/mem/test_mem_chain
tests_mem_test_mem_chain_SOURCES = tests/mem/test_mem_chain.c $(MEM_TEST_DRV)
tests_mem_test_mem_chain_LDADD = $(GPUSC_LIBS)
