# Sourced by the tests that run every workload (they run with top_srcdir set).
# test_workloads PROGRAM... prints the names of the workloads PROGRAM lists, one per line; when
# GPUSC_TEST_WORKLOADS is set (names separated by spaces or commas), only those. scripts/check.sh sets
# it for the sanitizer pass, which runs these loops on a subset chosen to cover the kinds of code the
# workloads have (SAN_WORKLOADS in scripts/check.sh).
test_workloads() {
    if [ -n "${GPUSC_TEST_WORKLOADS:-}" ]; then
        "$@" --list-workloads | cut -f1 | grep -x -F "$(echo "$GPUSC_TEST_WORKLOADS" | tr ', ' '\n\n' | grep .)"
    else
        "$@" --list-workloads | cut -f1
    fi
}

# The loops that run testbenches over the workloads (test_tb_workloads.sh, test_sched_matrix_long.sh,
# tb_gpu_backpressure.sh):
# workload_loop PROGRAM RUNS [MORE]: sets wls (the workloads, as test_workloads PROGRAM), n = 0,
# fail = 0 and out (a temporary file, removed at exit), and prints the TAP plan of RUNS results per
# workload and MORE besides.
workload_loop() {
    wls=$(test_workloads "$1")
    echo "1..$(($(echo $wls | wc -w) * $2 + ${3:-0}))"
    n=0
    fail=0
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
}
# workload_run NAME TB WORKLOAD ARGS...: the next result: $top_builddir/testbench/TB runs WORKLOAD at
# $size with ARGS; ok when it exits 0, prints "TB: WORKLOAD: PASS" and reports no violation of the
# sharing locks, with the run's cycles and IPC; else not ok with the end of its output, and fail=1.
workload_run() {
    wr_name=$1 wr_tb=$2 wr_w=$3
    shift 3
    n=$((n + 1))
    if "$top_builddir/testbench/$wr_tb" --workload "$wr_w" --size "$size" --no-trace "$@" >"$out" 2>&1 &&
        grep -q "^$wr_tb: $wr_w: PASS" "$out" && ! grep -q '^scratchpad:.* violations [1-9]' "$out" &&
        ! grep -q '^locks:.* violations [1-9]' "$out"; then
        echo "ok $n - $wr_name $wr_w $size: $(sed -n 's/^summary: [^:]*: \([0-9]* cycles\).*IPC \([0-9.]*\).*/\1, IPC \2/p' "$out")"
    else
        echo "not ok $n - $wr_name $wr_w $size"
        sed 's/^/# /' "$out" | grep -v '^# tb\.' | tail -5
        fail=1
    fi
}
