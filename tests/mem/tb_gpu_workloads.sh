#!/bin/sh
# Every built-in workload on tb-gpu (SMs + icnt + L2 + DRAM) with every issue policy, checked
# against its CPU reference by the testbench (TAP). Size from $1 (default tiny);
# tb_gpu_workloads_long.sh runs the default size. At the tiny size every workload runs on the
# GPU as configured (15 SMs) with gto, its default policy, and on 4 SMs with the other policies: a
# policy chooses among the warps of an SM, and at the tiny size most of 15 SMs hold one CTA or none,
# while 4 SMs hold several CTAs each and still share the interconnect, L2 and DRAM; a run on 4 SMs
# costs half as much (the other tests that loop over workloads on tb-gpu run 4 SMs too).
size=${1:-tiny}
tb="${top_builddir:-.}/testbench/tb-gpu"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP $tb is not built"
    exit 0
fi
. "$top_srcdir/tests/workloads.sh"
names=$(test_workloads "$tb")
policies="lrr gto oldest two_level_active:6:0:1"
if [ -z "$names" ]; then
    echo "1..1"
    echo "not ok 1 - tb-gpu --list-workloads lists nothing"
    exit 1
fi
n=$(echo "$names" | wc -l)
echo "1..$((4 * n))"
i=0
fail=0
for w in $names; do
    for p in $policies; do
        i=$((i + 1))
        sms=15
        [ "$size" = tiny ] && [ "$p" != gto ] && sms=4
        out=$("$tb" --workload "$w" --size "$size" --set gpu.sms=$sms --set "arbiter.policy=$p" --no-trace \
            --watchdog 200000 2>&1)
        rc=$?
        cycles=$(echo "$out" | sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p')
        if [ $rc -eq 0 ] && echo "$out" | grep -q "^tb-gpu: $w: PASS$"; then
            echo "ok $i - $w $size $p ($sms SMs): $cycles cycles"
        else
            echo "not ok $i - $w $size $p: exit $rc"
            fail=1
            echo "$out" | grep -v '^tb\.' | tail -15 | sed 's/^/# /'
        fi
    done
done
exit $fail
