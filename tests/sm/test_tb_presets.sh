#!/bin/sh
# Every built-in preset builds a machine that runs a workload correctly (TAP): the monolithic-SM
# presets on tb-sm, the sub-core ones on tb-subcore (hotspot, tiny: shared memory, barriers).
n=0
fail=0
echo "1..10"
for p in gtx480 rs-table2.3 rs-table3.2 greener ccws vws renaming spu-gpu subcore malekeh; do
    n=$((n + 1))
    case $p in subcore | malekeh) tb=tb-subcore ;; *) tb=tb-sm ;; esac
    out=$("$top_builddir/testbench/$tb" --preset "$p" --workload hotspot --size tiny --no-trace 2>&1)
    if echo "$out" | grep -q "^$tb: hotspot: PASS"; then
        echo "ok $n - $tb --preset $p"
    else
        echo "not ok $n - $tb --preset $p"; echo "$out" | tail -3 | sed 's/^/# /'; fail=1
    fi
done
exit $fail
