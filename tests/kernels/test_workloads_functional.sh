#!/bin/sh
# Every built-in workload on the functional runner, checked against its CPU reference (TAP).
# Size from $1 (default tiny); test_workloads_functional_long.sh runs the default size.
size=${1:-tiny}
run="${top_builddir:-.}/kernels/tools/gpusc-run"
if [ ! -x "$run" ]; then
    echo "1..0 # SKIP $run is not built"
    exit 0
fi
names=$("$run" --list-workloads | cut -f1)
if [ -z "$names" ]; then
    echo "1..1"
    echo "not ok 1 - gpusc-run --list-workloads lists nothing"
    exit 0
fi
n=$(echo "$names" | wc -l)
echo "1..$n"
i=0
for w in $names; do
    i=$((i + 1))
    out=$("$run" --functional --workload "$w" --size "$size" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "ok $i - $w ($size)"
    else
        echo "not ok $i - $w ($size): exit $rc"
        echo "$out" | head -20 | sed 's/^/# /'
    fi
done
