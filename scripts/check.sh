#!/bin/sh
# The whole test suite, as CI runs it: install dependencies, build, `make check` (unit, harness,
# workload and waveform tests), the same suite again under ASan+UBSan, then the summary counted
# from the TAP results (.trs files) of both runs: a line "N skipped", and last the line
# "N passed, N failed". A build or `make check` that fails without a failed TAP result (a build
# error, a crashed test driver) still counts as one failure, and the exit status is nonzero.
#   SANITIZERS=0 scripts/check.sh    skips the sanitizer pass (faster local runs)
# Every test runs in the first pass. The sanitizer pass (build-san/, configured with --enable-sanitizers,
# which builds at -O2 -g1 unless CFLAGS are given, and there leaves out the installed libraries and the
# bench programs, which no test uses) leaves out what it would run exactly as the first pass
# does (NOSAN_TESTS in Makefile.am: the PTX fuzzer, built by clang with its own sanitizers, and not built
# there; the installed headers' syntax check; the tests of the Python tools gpusc-sweep, gpusc-plot and
# bench/run-bench), and runs the tests that loop over every workload on SAN_WORKLOADS only
# (tests/workloads.sh): workloads chosen so that between them they have every kind of code the full set
# has (streaming, shared memory and barriers, shuffles and atomics, divergence and host loops, calls,
# double precision, several kernels per step). SAN_WORKLOADS=all runs every workload there too.
SAN_WORKLOADS=${SAN_WORKLOADS:-"vecadd sgemm reduction bfs kmeans scalarprod srad"}
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/install-deps.sh || { echo "check: installing dependencies failed"; echo "0 passed, 1 failed"; exit 1; }
status=0
dirs=
run_suite() {
    name=$1; shift
    rm -rf "$name/tests" 2>/dev/null
    find "$name" -name '*.trs' -delete 2>/dev/null || true
    if ! BUILD=$name sh scripts/build.sh "$@"; then
        echo "check: build in $name failed"; status=1; return
    fi
    make -C "$name" -s -j"$(nproc)" 'LIBTOOL=/bin/sh $(top_builddir)/libtool' check || { status=1; cat "$name"/test-suite.log 2>/dev/null | tail -n 80; }
    dirs="$dirs $name"
}
# One configure cache for both trees (the same compilers and libraries; the sanitizer flags are set
# after configure's checks), removed first so that a run never reads an earlier run's results.
cache="$top/build/config.cache"
rm -f "$cache"
run_suite build --cache-file="$cache"
[ "$SAN_WORKLOADS" = all ] || { GPUSC_TEST_WORKLOADS=$SAN_WORKLOADS; export GPUSC_TEST_WORKLOADS; }
[ "${SANITIZERS:-1}" = 0 ] || run_suite build-san --enable-sanitizers --cache-file="$cache"
summary=$(sh scripts/tap-summary.sh $dirs) || status=1
[ $status = 0 ] || summary=$(echo "$summary" | sed 's/^\([0-9]*\) passed, 0 failed$/\1 passed, 1 failed/')
echo "$summary"
exit $status
