#!/bin/sh
# Count the real TAP results of `make check` (automake's .trs files) in the given build
# directories. Prints two lines, the last one exactly "N passed, N failed":
#   N skipped
#   N passed, N failed
# PASS and XFAIL count as passed; FAIL, XPASS and ERROR as failed; SKIP as skipped.
# Exit status 1 when anything failed or no test ran.
set -eu
for dir in "$@"; do
    [ -d "$dir" ] && find "$dir" -name '*.trs' -exec cat {} +
done | awk '
    /^:test-result: (PASS|XFAIL)/ {p++}
    /^:test-result: (FAIL|XPASS|ERROR)/ {f++}
    /^:test-result: SKIP/ {s++}
    END {printf "%d skipped\n%d passed, %d failed\n", s, p, f; exit !(f == 0 && p > 0)}'
