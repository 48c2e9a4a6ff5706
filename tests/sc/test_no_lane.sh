#!/bin/sh
# The tests of the C API's semantics run again with GPUSC_LANE=off: every process on the kernel's own
# scheduler (the way the check modes run them), so both ways of running a process are held to the
# same tests. One TAP line per test program.
set -u
: "${top_builddir:?}"
progs="test_latch test_fifo test_sensitivity test_errors test_vcd test_reset"
n=0
for p in $progs; do n=$((n + 1)); done
echo "1..$n"
i=0
for p in $progs; do
    i=$((i + 1))
    if out=$(cd "$top_builddir" && GPUSC_LANE=off "./tests/sc/$p" 2>&1); then
        echo "ok $i - $p with GPUSC_LANE=off"
    else
        echo "not ok $i - $p with GPUSC_LANE=off"
        echo "$out" | grep -v '^ok ' | sed 's/^/# /'
    fi
done
