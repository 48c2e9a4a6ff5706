# tools: gpusc-sweep and gpusc-plot, Python 3 programs installed beside the testbenches
# (docs/experiments.md). gpusc-plot reads sweep files through gpusc-sweep: both go to bindir.
dist_bin_SCRIPTS = tools/gpusc-sweep tools/gpusc-plot
EXTRA_DIST += experiments/README.md experiments/issue-policies.sweep experiments/guide-subcore-banks.sweep \
	experiments/guide-gpu-sms.sweep

# Their tests: unit tests (no simulator), a small sweep end to end on tb-sm, and a sweep through a
# single-node Slurm cluster started for the test (skipped, with the reason, where it cannot start).
dist_check_SCRIPTS += tests/tools/test_sweep_unit.sh tests/tools/test_sweep_local.sh tests/tools/test_sweep_slurm.sh \
	tests/tools/test_tb_monitor.sh
EXTRA_DIST += tests/tools/sweep_unit.py
EXTRA_DIST += tests/tools/vcd_decl.py
NOSAN_TESTS += tests/tools/test_sweep_unit.sh tests/tools/test_sweep_local.sh tests/tools/test_sweep_slurm.sh
TESTS += tests/tools/test_tb_monitor.sh

# The curated GTKWave views of waveforms/ against the waveforms of the runs they name.
dist_check_SCRIPTS += tests/tools/test_curated_views.sh
TESTS += tests/tools/test_curated_views.sh
dist_check_SCRIPTS += tests/tools/test_generated_views.sh
TESTS += tests/tools/test_generated_views.sh
EXTRA_DIST += waveforms/README.md waveforms/tb-sm-pipeline.gtkw waveforms/tb-gpu-load-miss.gtkw

# gpusc-occupancy: CTAs per SM of a kernel on a configured machine (docs/occupancy.md), and its
# closed-form tests.
bin_PROGRAMS += tools/gpusc-occupancy
tools_gpusc_occupancy_SOURCES = tools/gpusc-occupancy.c
tools_gpusc_occupancy_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/tools/test_gpusc_occupancy.sh
TESTS += tests/tools/test_gpusc_occupancy.sh
dist_check_SCRIPTS += tests/tools/test_trace_check.sh tests/tools/test_trace_check_sweep.sh
EXTRA_DIST += tests/tools/trace_check.sh
TESTS += tests/tools/test_trace_check.sh tests/tools/test_trace_check_sweep.sh
# Every export of the mechanism blocks shows its calls in the waveform (docs/framework.md, "Traced calls").
dist_check_SCRIPTS += tests/tools/test_export_calls.sh
TESTS += tests/tools/test_export_calls.sh
EXTRA_DIST += tests/tools/export_calls.py
