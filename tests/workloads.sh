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
