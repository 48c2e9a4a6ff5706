#!/bin/sh
# The trace check (tests/tools/trace_check.sh) on every testbench and every workload at the tiny size,
# fully traced: tb-sm, tb-subcore, tb-gpu, tb-ccws, tb-vws, tb-greener, tb-renaming, tb-rfcache and
# tb-sharing (no sharing, register sharing, and scratchpad sharing on the 16 KB SM, where it is
# active), tb-sharing on the whole GPU with dynamic warp execution, tb-spu in every case of
# bench/tb-spu-cases at the tiny size, and tb-pipeline. (TAP)
set -u
bld=$(cd "${top_builddir:-.}" && pwd)
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/tools/trace_check.sh"
wls=$("$bld/testbench/tb-sm" --list-workloads | cut -f1)
t="--size tiny --trace=*"
{
    for tb in tb-sm tb-subcore tb-gpu tb-ccws tb-vws tb-greener tb-renaming tb-rfcache; do
        for w in $wls; do echo "$tb --workload $w $t"; done
    done
    for w in $wls; do
        smem=7000
        [ "$w" = nw ] && smem=9000 # (nw's kernel declares 8452 bytes)
        echo "tb-sharing --workload $w $t"
        echo "tb-sharing --workload $w $t --share registers --policy owf"
        echo "tb-sharing --workload $w $t --preset rs-table2.3-16k --share scratchpad --smem-per-cta $smem --policy owf --relssp opt"
    done
    echo "tb-sharing --workload sgemm $t --share registers --gpu --dwe --policy owf"
    awk '$2 == "tiny" { $1 = ""; $2 = ""; print "tb-spu" $0 " --trace=*" }' "$top_srcdir/bench/tb-spu-cases"
    echo "tb-pipeline --trace=*"
} >"$tmp/runs"
trace_check_runs "$tmp/runs"
exit $fail
