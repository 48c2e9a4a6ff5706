#!/bin/sh
# make check-long (TAP): every workload passes its output check under every scheduler of tb-ccws and
# with sharing on under every issue policy of tb-sharing, at the tiny size (SIZE to change it).
#  - tb-ccws (the ccws preset): lrr, gto, oldest, 2lvl (fetch groups of 2, the spec's 2LVL-GTO),
#    2lvl-lrr, swl:1, swl:4, ccws, daws (with its profiling run) and daws-detected;
#  - tb-sharing: register sharing (48 registers per thread on rs-table2.3, t = 0.1) and scratchpad
#    sharing (7000 bytes per CTA on rs-table2.3-16k; nw 9000, its kernel declares 8452) under lrr,
#    gto, oldest and owf; scratchpad sharing also with relssp opt and postdom; no violation.
# (make check runs every workload under owf with both kinds of sharing, and under lrr, gto, oldest
# and two_level_active on tb-sm and tb-subcore: tests/sm/test_tb_sharing.sh, test_tb_workloads.sh.)
size=${SIZE:-tiny}
scheds=${SCHEDS:-"lrr gto oldest 2lvl 2lvl-lrr swl:1 swl:4 ccws daws daws-detected"}
policies=${POLICIES:-"lrr gto oldest owf"}
. "$top_srcdir/tests/workloads.sh"
ns=$(echo $scheds | wc -w); np=$(echo $policies | wc -w)
workload_loop "$top_builddir/testbench/tb-sm" $((ns + 4 * np))
for w in $wls; do
    for s in $scheds; do
        workload_run "tb-ccws --sched $s" tb-ccws "$w" --sched "$s"
    done
    smem=7000
    [ "$w" = nw ] && smem=9000
    for p in $policies; do
        workload_run "registers $p" tb-sharing "$w" --preset rs-table2.3 --regs-per-thread 48 --share registers --policy "$p"
        workload_run "scratchpad $p" tb-sharing "$w" --preset rs-table2.3-16k --smem-per-cta $smem --share scratchpad --policy "$p"
        workload_run "scratchpad $p relssp opt" tb-sharing "$w" --preset rs-table2.3-16k --smem-per-cta $smem \
            --share scratchpad --policy "$p" --relssp opt
        workload_run "scratchpad $p relssp postdom" tb-sharing "$w" --preset rs-table2.3-16k --smem-per-cta $smem \
            --share scratchpad --policy "$p" --relssp postdom
    done
done
exit $fail
