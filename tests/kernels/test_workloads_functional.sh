#!/bin/sh
# Every built-in workload on the functional runner, checked against its CPU reference (TAP): once in
# the normal order, once with a shuffled schedule (CTA order, warp order, turn lengths) and the
# shared-memory race check, which a kernel with a race or a hidden ordering assumption would fail.
# Size from $1 (default tiny); test_workloads_functional_long.sh runs the default size.
size=${1:-tiny}
run="${top_builddir:-.}/kernels/tools/gpusc-run"
if [ ! -x "$run" ]; then
    echo "1..0 # SKIP $run is not built"
    exit 0
fi
. "$top_srcdir/tests/workloads.sh"
names=$(test_workloads "$run")
if [ -z "$names" ]; then
    echo "1..1"
    echo "not ok 1 - gpusc-run --list-workloads lists nothing"
    exit 1
fi
n=$(echo "$names" | wc -l)
echo "1..$((2 * n))"
i=0
fail=0
check() { # name, then the gpusc-run options
    name=$1
    shift
    i=$((i + 1))
    out=$("$run" --functional --size "$size" "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "ok $i - $name"
    else
        echo "not ok $i - $name: exit $rc"
        fail=1
        echo "$out" | head -20 | sed 's/^/# /'
    fi
}
for w in $names; do
    check "$w ($size)" --workload "$w"
    check "$w ($size, shuffled schedule, race check)" --workload "$w" --schedule-seed 1 --quantum 16 --race-check
done
exit $fail
