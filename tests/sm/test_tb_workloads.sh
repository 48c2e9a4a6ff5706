#!/bin/sh
# Every workload on tb-sm and tb-subcore at a size (default tiny; SIZE=default for check-long) with
# every issue policy (TAP). Each run checks the kernel's output against its CPU reference.
size=${SIZE:-tiny}
policies=${POLICIES:-"lrr gto oldest two_level_active:6:0:1"}
tbs=${TBS:-"tb-sm tb-subcore"}
. "$top_srcdir/tests/workloads.sh"
np=$(echo $policies | wc -w); nt=$(echo $tbs | wc -w)
workload_loop "$top_builddir/testbench/tb-sm" $((np * nt))
for tb in $tbs; do
    for w in $wls; do
        for p in $policies; do
            workload_run "$tb $p" "$tb" "$w" --set arbiter.policy="$p"
        done
    done
done
exit $fail
