# testbench: part of the top-level Makefile.am (included, non-recursive).

# tb-pipeline: the block framework's demo testbench (what scripts/demo.sh runs for now).
bin_PROGRAMS += testbench/tb-pipeline
testbench_tb_pipeline_SOURCES = testbench/tb-pipeline.c
testbench_tb_pipeline_LDADD = $(GPUSC_LIBS)

# tb-sm / tb-subcore: the SM testbenches (one SM + cta_dispatch + mem_fixed). tb_common.* is shared
# with tb-gpu (a convenience library of its own so each testbench links it once).
noinst_LTLIBRARIES += testbench/libtbcommon.la
testbench_libtbcommon_la_SOURCES = testbench/tb_common.c testbench/tb_common.h testbench/tb_monitor.c \
	testbench/tb_monitor.h
testbench_libtbcommon_la_CPPFLAGS = $(AM_CPPFLAGS) -DGPUSC_SRC_PTX_DIR='"$(abs_top_srcdir)/kernels/ptx"'
# tb-sm's program is also the mechanism testbenches whose switched-off run is tb-sm's (tb-renaming
# --renaming off, tb-greener --power baseline, tb-ccws --sched gto or lrr, tb-vws --vws off,
# tb-sharing --share none; docs/performance.md, "A mechanism switched off costs nothing"): they are
# links to it, and it runs the testbench its name calls (testbench/tb-sm.c). One program, so an off
# run executes tb-sm's own machine code even though the link optimises the program as a whole
# (tests/sm/test_tb_offmode.sh compares the instruction counts within 0.05 %; two programs each
# linked with link-time optimisation were 0.2 % apart).
bin_PROGRAMS += testbench/tb-sm
testbench_tb_sm_SOURCES = testbench/tb-sm.c testbench/tb-renaming.c testbench/tb-greener.c \
	testbench/tb-ccws.c testbench/tb-vws.c testbench/tb-sharing.c
testbench_tb_sm_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
testbench_tb_sm_LDFLAGS = $(GPUSC_PROG_LINK_FLAGS)
TB_SM_LINKS = tb-renaming$(EXEEXT) tb-greener$(EXEEXT) tb-ccws$(EXEEXT) tb-vws$(EXEEXT) tb-sharing$(EXEEXT)
all-local: $(TB_SM_LINKS:%=testbench/%)
$(TB_SM_LINKS:%=testbench/%): testbench/tb-sm$(EXEEXT)
	$(AM_V_GEN)cd testbench && rm -f $(@F) && $(LN_S) tb-sm$(EXEEXT) $(@F)
CLEANFILES += $(TB_SM_LINKS:%=testbench/%)
install-exec-hook:
	cd "$(DESTDIR)$(bindir)" && for l in $(TB_SM_LINKS); do rm -f $$l && $(LN_S) tb-sm$(EXEEXT) $$l || exit 1; done
uninstall-hook:
	cd "$(DESTDIR)$(bindir)" && rm -f $(TB_SM_LINKS)
bin_PROGRAMS += testbench/tb-subcore
testbench_tb_subcore_SOURCES = testbench/tb-subcore.c
testbench_tb_subcore_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)

# tb-gpu: the gpu topology (N SMs + icnt + L2 + DRAM); see docs/gpu.md.
bin_PROGRAMS += testbench/tb-gpu
testbench_tb_gpu_SOURCES = testbench/tb-gpu.c
testbench_tb_gpu_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
# Linked with link-time optimisation when configured (Makefile.am, GPUSC_PROG_LINK_FLAGS), as tb-sm.
testbench_tb_gpu_LDFLAGS = $(GPUSC_PROG_LINK_FLAGS)

# `make demo`: tb-sm on a default workload (what scripts/demo.sh runs after building).
demo: testbench/tb-sm
	@mkdir -p waveforms && testbench/tb-sm --workload hotspot --size tiny
.PHONY: demo

# tb-rfcache: the register-file cache in the collectors (Malekeh) on the sub-core machine; docs/rfcache.md.
bin_PROGRAMS += testbench/tb-rfcache
testbench_tb_rfcache_SOURCES = testbench/tb-rfcache.c
testbench_tb_rfcache_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)

# tb-spu: the SPU grid (models/machines/spu_grid.h) or the GPU baseline running the SPU's 3-D stencil
# (kernels/spu/spu_stencil.ptx); see docs/spu.md.
bin_PROGRAMS += testbench/tb-spu
testbench_tb_spu_SOURCES = testbench/tb-spu.c
testbench_tb_spu_CPPFLAGS = $(AM_CPPFLAGS) -DGPUSC_SRC_SPU_DIR='"$(abs_top_srcdir)/kernels/spu"'
testbench_tb_spu_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
EXTRA_DIST += kernels/spu/spu_stencil.cu kernels/spu/spu_stencil.ptx kernels/spu/spu_iu.ptx kernels/spu/gen-iu-ptx.py
