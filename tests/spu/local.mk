# tests/spu: the SPU (docs/spu.md). Included from tests/local.mk.
check_PROGRAMS += tests/spu/test_spu_cb tests/spu/test_spu_passes tests/spu/test_spu_ctl tests/spu/test_spu_iu_exec
TESTS += tests/spu/test_spu_cb tests/spu/test_spu_passes tests/spu/test_spu_ctl tests/spu/test_spu_iu_exec tests/spu/test_spu_frontend.sh \
	tests/spu/test_spu_watchdog.sh tests/spu/test_spu_iu_path.sh
# tb-spu end to end is the longest single test of the first pass (15 CPU-s), the IU's code next (3.5).
SLOW_TESTS += tests/spu/test_tb_spu.sh tests/spu/test_spu_iu_code.sh
tests_spu_test_spu_cb_LDADD = $(GPUSC_LIBS)
tests_spu_test_spu_ctl_LDADD = $(GPUSC_LIBS)
tests_spu_test_spu_iu_exec_LDADD = $(GPUSC_LIBS)
tests_spu_test_spu_passes_LDADD = models/libgpusc-models.la $(GLIB_LIBS) -lm
dist_check_SCRIPTS += tests/spu/test_spu_frontend.sh tests/spu/test_tb_spu.sh \
	tests/spu/test_spu_watchdog.sh tests/spu/test_spu_iu_path.sh tests/spu/test_spu_iu_code.sh
EXTRA_DIST += docs/spu.md tests/spu/mismatch/spu_stencil.ptx
