#!/bin/sh
# The whole test suite, as CI runs it: install dependencies, build, `make check` (unit, harness,
# workload and waveform tests), the same suite again under ASan+UBSan (its tree configured and built
# while the first tests run), then the summary counted from the TAP results (.trs files) of both runs:
# a line "N skipped", and last the line "N passed, N failed". Each phase's CPU and wall time is
# printed before them ("check: DIR: PHASE N CPU-s (N s)"). A build or `make check` that fails without a failed TAP result (a build
# error, a crashed test driver) still counts as one failure, and the exit status is nonzero.
#   SANITIZERS=0 scripts/check.sh    skips the sanitizer pass (faster local runs)
# Every test runs in the first pass. The sanitizer pass (build-san/, configured with --enable-sanitizers,
# which builds at -O2 -g1 unless CFLAGS are given, and there leaves out the installed libraries and the
# bench programs, which no test uses) leaves out what it would run exactly as the first pass
# does (NOSAN_TESTS in Makefile.am: the PTX and configuration fuzzers, built by clang with their own
# sanitizers, and not built there; the installed headers' syntax check; the tests of the Python tools gpusc-sweep, gpusc-plot and
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
# Each phase's cost is printed as "check: DIR: PHASE N CPU-s (N s)": CPU seconds (user + system) of
# the finished child processes of the shell that measures (from `times`), and wall seconds.
times_file=$(mktemp)
trap 'rm -f "$times_file" "$times_file.san"' EXIT
cpu() { times >"$times_file"; cpu_s=$(awk 'NR == 2 { gsub(/[ms]/, " "); printf "%.0f", $1 * 60 + $2 + $3 * 60 + $4 }' "$times_file"); }
mark() { cpu; c0=$cpu_s t0=$(date +%s); }
report() { cpu; echo "check: $1: $2 $((cpu_s - c0)) CPU-s ($(($(date +%s) - t0)) s)"; }
make_in() { make -C "$1" -s -j"$(nproc)" 'LIBTOOL=/bin/sh $(top_builddir)/libtool' "$2"; }
fresh() { rm -rf "$1/tests" 2>/dev/null; find "$1" -name '*.trs' -delete 2>/dev/null || true; }
# make check in DIR, timed in a subshell of its own (this shell's `times` would also count the
# background build, reaped while this shell waits); a failure prints the end of its test-suite.log.
check_in() {
    if ! (mark; make_in "$1" check; rc=$?; report "$1" "make check"; exit $rc); then
        status=1
        tail -n 80 "$1"/test-suite.log 2>/dev/null
    fi
    dirs="$dirs $1"
}
# One configure cache for both trees (the same compilers and libraries; the sanitizer flags are set
# after configure's checks), removed first so that a run never reads an earlier run's results.
cache="$top/build/config.cache"
rm -f "$cache"
fresh build
mark
if BUILD=build sh scripts/build.sh --cache-file="$cache"; then
    report build "configure and build"
    # The sanitizer tree is configured and built (its test programs too) in the background while the
    # first tree's tests run: both keep every core busy through the other's serial parts (configure,
    # the libraries' links, a long test at the end), and the tests of the sanitizer pass then start at
    # once. Its output goes to build-san/check-build.log, printed when it fails.
    san_pid=
    if [ "${SANITIZERS:-1}" != 0 ]; then
        fresh build-san
        mkdir -p build-san
        (
            times_file=$times_file.san
            mark
            BUILD=build-san sh scripts/build.sh --enable-sanitizers --cache-file="$cache" &&
                make_in build-san check-programs || exit 1
            report build-san "configure and build, beside the tests of build"
        ) >build-san/check-build.log 2>&1 &
        san_pid=$!
    fi
    check_in build
    if [ -n "$san_pid" ]; then
        if wait "$san_pid"; then
            tail -n 1 build-san/check-build.log
            [ "$SAN_WORKLOADS" = all ] || { GPUSC_TEST_WORKLOADS=$SAN_WORKLOADS; export GPUSC_TEST_WORKLOADS; }
            check_in build-san
        else
            tail -n 80 build-san/check-build.log
            echo "check: build in build-san failed"
            status=1
        fi
    fi
else
    echo "check: build in build failed"
    status=1
fi
summary=$(sh scripts/tap-summary.sh $dirs) || status=1
[ $status = 0 ] || summary=$(echo "$summary" | sed 's/^\([0-9]*\) passed, 0 failed$/\1 passed, 1 failed/')
echo "$summary"
exit $status
