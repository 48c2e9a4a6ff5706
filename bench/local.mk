# bench: part of the top-level Makefile.am (included, non-recursive).

# bench/activation: the cost of one method activation through the C API against a native SC_METHOD.
BENCH_TOOLS = bench/activation
bench_activation_SOURCES = bench/activation.cc bench/activation_c.c
bench_activation_CPPFLAGS = $(AM_CPPFLAGS) $(SYSTEMC_CFLAGS)
bench_activation_LDADD = $(GPUSC_LIBS)

# `make bench`: the simulation-speed benchmark (bench/run-bench, python3): workloads on tb-sm, tb-gpu and
# the functional runner, scaling over SMs, idle-SM cost, GPU scale (one CTA per SM at 1, 15 and 80 SMs), tracing cost, activation cost. Writes
# bench/out/report.{md,json} in the source tree (git-ignored) and the committed copy docs/bench-report.md.
# Slow (tens of minutes with callgrind); not part of `make check`. A testbench that does not build is
# reported as missing rather than stopping the benchmark. BENCH_FLAGS passes options (e.g. --quick).
EXTRA_DIST += bench/run-bench bench/stats-diff bench/tb-spu-cases bench/cuda/addloop.cu bench/ptx/addloop.ptx \
	bench/cuda/ffmaloop.cu bench/ptx/ffmaloop.ptx
bench: bench/activation kernels/tools/gpusc-run
	-$(MAKE) $(AM_MAKEFLAGS) testbench/tb-sm testbench/tb-gpu
	python3 $(abs_top_srcdir)/bench/run-bench --build-dir $(abs_top_builddir) $(BENCH_FLAGS)
.PHONY: bench

# A smoke test of the driver in `make check`: --quick on one tiny workload; the report files must be
# produced and well-formed.
NOSAN_TESTS += tests/bench/test_bench_smoke.sh
dist_check_SCRIPTS += tests/bench/test_bench_smoke.sh

# bench/scale-wall: the GPU-scale targets in CPU time on a loaded machine (runs interleaved, medians
# and spread; docs/performance.md). Run by hand; its smoke test makes one small repetition.
EXTRA_DIST += bench/scale-wall
NOSAN_TESTS += tests/bench/test_scale_wall.sh
dist_check_SCRIPTS += tests/bench/test_scale_wall.sh

# bench/barrier: the cost of a barrier per simulated cycle between host threads (the price of a
# parallel simulation of SM groups; docs/performance.md, GPU scale). Run by hand.
BENCH_TOOLS += bench/barrier
bench_barrier_SOURCES = bench/barrier.c
bench_barrier_LDADD = -lpthread
# Not built in a sanitizer tree (Makefile.am): `make bench/activation` builds one there.
if SANITIZERS
EXTRA_PROGRAMS += $(BENCH_TOOLS)
else
noinst_PROGRAMS += $(BENCH_TOOLS)
endif

# bench/stats-diff's --max-cycles mode (runs stopped at the limit compared): identical runs pass, a
# differing statistic, a run stopped against one completed and any other failure fail.
NOSAN_TESTS += tests/bench/test_stats_diff_max_cycles.sh
dist_check_SCRIPTS += tests/bench/test_stats_diff_max_cycles.sh
# bench/stats-diff's tb-spu runs (the cases of bench/tb-spu-cases instead of workloads).
NOSAN_TESTS += tests/bench/test_stats_diff_spu.sh
dist_check_SCRIPTS += tests/bench/test_stats_diff_spu.sh
