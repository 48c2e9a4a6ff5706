# tests: part of the top-level Makefile.am (included, non-recursive).

# Hostile and careless input against the programs (tests/hostile/tap.sh is their TAP helper).
HOSTILE_TESTS = tests/hostile/test_outputs.sh tests/hostile/test_config.sh tests/hostile/test_cli.sh \
	tests/hostile/test_launch.sh tests/hostile/test_kernels.sh \
	tests/hostile/test_signals.sh tests/hostile/test_checks.sh tests/hostile/test_machines.sh \
	tests/hostile/test_memcheck.sh tests/hostile/test_inputs.sh tests/hostile/test_extremes.sh
dist_check_SCRIPTS += $(HOSTILE_TESTS)
EXTRA_DIST += tests/workloads.sh tests/tap.sh tests/check_modes.sh tests/hostile/tap.sh tests/hostile/ptx/shared_wrap.ptx tests/hostile/ptx/spin.ptx \
	tests/hostile/ptx/oob_atom.ptx tests/hostile/ptx/oob_far.ptx
TESTS += $(HOSTILE_TESTS)
