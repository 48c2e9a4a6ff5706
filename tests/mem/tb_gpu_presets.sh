#!/bin/sh
# Every built-in preset (each source's baseline machine: SMs of either kind, channels, L2, DRAM) on
# tb-gpu with every workload at the tiny size, checked against the CPU reference (TAP), plus a check
# that the preset's memory-side numbers reach the instances (--dump-config).
tb="${top_builddir:-.}/testbench/tb-gpu"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP $tb is not built"
    exit 0
fi
presets=$("$tb" --list-blocks 2>/dev/null | sed -n '/^Presets:/,$p' | sed -n 's/^  \([^:]*\):.*/\1/p')
. "$top_srcdir/tests/workloads.sh"
names=$(test_workloads "$tb")
np=$(echo "$presets" | wc -l)
nw=$(echo "$names" | wc -l)
echo "1..$((np + 3))"
i=0
fail=0
for p in $presets; do
    i=$((i + 1))
    bad=""
    for w in $names; do
        out=$("$tb" --preset "$p" --workload "$w" --size tiny --no-trace 2>&1)
        if [ $? -ne 0 ]; then
            bad="$bad $w"
            msg=$(echo "$out" | grep '^gpusc:' | head -1)
        fi
    done
    if [ -z "$bad" ]; then
        echo "ok $i - preset $p: $nw workloads pass"
    else
        echo "not ok $i - preset $p: failed:$bad"
        fail=1
        echo "# $msg"
    fi
done
dump() { "$tb" --preset "$1" --dump-config --workload vecadd --size tiny --no-trace 2>/dev/null; }
i=$((i + 1))
d=$(dump ccws)
if echo "$d" | grep -q '^sms=30$' && echo "$d" | grep -q '^mem_channels=8$' && echo "$d" | grep -q '^bytes_per_cycle=8$' &&
    echo "$d" | grep -q '^queue_depth=32$' && echo "$d" | grep -q '^scheduler=frfcfs$' &&
    echo "$d" | grep -q '^tCL=10$' && echo "$d" | grep -q '^tRC=35$' && echo "$d" | grep -q '^tRRD=8$' &&
    echo "$d" | grep -q '^icnt_period_ps=1538$' && echo "$d" | grep -q '^dram_period_ps=1250$' &&
    echo "$d" | grep -q '^l2_period_ps=0$'; then
    echo "ok $i - ccws: 30 SMs, 8 channels, DRAM 8 B/cycle, queue 32, FR-FCFS, GDDR3 tCL 10 tRC 35 tRRD 8, clocks 1300/650/800 MHz"
else echo "not ok $i - ccws memory-side numbers"; fail=1; fi
i=$((i + 1))
d=$(dump malekeh)
if echo "$d" | grep -q '^sm_kind=subcore_sm$' && echo "$d" | grep -q '^sets=128$' && echo "$d" | grep -q '^latency=169$' &&
    echo "$d" | grep -q '^latency=90$'; then
    echo "ok $i - malekeh: sub-core SMs, 1 MB L2 in 8 slices, L2 and DRAM latencies"
else echo "not ok $i - malekeh memory-side numbers"; fail=1; fi
i=$((i + 1))
out=$("$tb" --preset vws --workload vecadd --size tiny --no-trace 2>&1)
if echo "$out" | grep -q 'over 2 slices' && echo "$out" | grep -q 'over 1 channels'; then
    echo "ok $i - vws: one SM, 1 channel, 2 L2 slices"
else echo "not ok $i - vws machine shape"; fail=1; fi
exit $fail
