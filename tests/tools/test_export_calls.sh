#!/bin/sh
# Every export of the mechanism blocks notes its calls (docs/framework.md, "Traced calls"): each
# mechanism testbench runs with every export's call probe traced (--trace='*.calls') and every
# export listed for it shows calls (a nonzero <instance>.<export>.calls) at least once, so no
# `.calls` signal sits at 0 in the waveform while its methods are called. (TAP)
set -u
bld=$(cd "${top_builddir:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# program|its arguments|the exports it calls: instance (a glob).export
runs='tb-greener|--workload vecadd --size tiny|rfpower.check rfpower.issued rfpower.access rfpower.value rfpower.decode rfpower.mem
tb-renaming|--workload vecadd --size tiny|renaming.value renaming.check renaming.issued renaming.warp_events renaming.layout renaming.access
tb-sharing|--workload hotspot --preset rs-table2.3 --size tiny --regs-per-thread 36 --share registers --policy owf|lock_table.check lock_table.issued lock_table.events lock_table.value lock_table.veto
tb-sharing|--workload sgemm --preset rs-table2.3-16k --size tiny --share scratchpad --smem-per-cta 7000 --policy owf --relssp opt|smem_share.check smem_share.issued smem_share.events smem_share.value
tb-rfcache|--workload hotspot --size tiny --collector ccu --hints near|ccu*.veto
tb-ccws|--workload spmv --size tiny --sched ccws --pc-stats|ccws.vta_hit ccws.veto ccws.events ccws.issued vta.evict vta.access l1pc.access l1pc.issued l1pc.vta_hit l1pc.events
tb-ccws|--workload spmv --size tiny --sched daws-detected|daws.events daws.issued daws.veto daws.access daws.evict daws.vta_hit
tb-vws|--workload spmv --size tiny --warp-size 4 --vws i-vws|gang_unit.check gang_unit.issued gang_unit.events gang_unit.gangs
tb-spu|--set spu_grid.p=2 --size 24x24x16 --tile 8 --iu-path icnt|issue.blocksync_release ldst.iu cb_*.cb ctl.bs ctl.events ctl.issued iu_*.release smiu_*.sm_reply'
n=$(echo "$runs" | wc -l)
echo "1..$n"
i=0
fail=0
echo "$runs" | {
    while IFS='|' read -r prog args exports; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        if ! "$bld/testbench/$prog" $args --vcd "$tmp/$i.vcd" --trace='*.calls' >"$tmp/$i.out" 2>&1; then
            echo "not ok $i - $prog $args: the run failed"
            tail -3 "$tmp/$i.out" | sed 's/^/# /'
            fail=1
            continue
        fi
        # shellcheck disable=SC2086
        if python3 "$here/export_calls.py" "$tmp/$i.vcd" $exports >"$tmp/$i.missing"; then
            echo "ok $i - $prog $args: $(echo $exports | wc -w) exports show their calls"
        else
            echo "not ok $i - $prog $args"
            sed 's/^/# /' "$tmp/$i.missing"
            fail=1
        fi
    done
    exit $fail
}
