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
tbdir="$top_builddir/testbench"
wls=$(test_workloads "$tbdir/tb-sm")
nw=$(echo $wls | wc -w); ns=$(echo $scheds | wc -w); np=$(echo $policies | wc -w)
echo "1..$((nw * (ns + 4 * np)))"
n=0
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() { # NAME TB WORKLOAD ARGS...
    name=$1 tb=$2 w=$3
    shift 3
    n=$((n + 1))
    if "$tbdir/$tb" --workload "$w" --size "$size" --no-trace "$@" >"$out" 2>&1 && grep -q "^$tb: $w: PASS" "$out" &&
        ! grep -q '^scratchpad:.* violations [1-9]' "$out" && ! grep -q '^locks:.* violations [1-9]' "$out"; then
        echo "ok $n - $name $w: $(sed -n 's/^summary: [^:]*: \([0-9]* cycles\).*/\1/p' "$out")"
    else
        echo "not ok $n - $name $w"
        sed 's/^/# /' "$out" | grep -v '^# tb\.' | tail -5
        fail=1
    fi
}
for w in $wls; do
    for s in $scheds; do
        run "tb-ccws --sched $s" tb-ccws "$w" --sched "$s"
    done
    smem=7000
    [ "$w" = nw ] && smem=9000
    for p in $policies; do
        run "registers $p" tb-sharing "$w" --preset rs-table2.3 --regs-per-thread 48 --share registers --policy "$p"
        run "scratchpad $p" tb-sharing "$w" --preset rs-table2.3-16k --smem-per-cta $smem --share scratchpad --policy "$p"
        run "scratchpad $p relssp opt" tb-sharing "$w" --preset rs-table2.3-16k --smem-per-cta $smem \
            --share scratchpad --policy "$p" --relssp opt
        run "scratchpad $p relssp postdom" tb-sharing "$w" --preset rs-table2.3-16k --smem-per-cta $smem \
            --share scratchpad --policy "$p" --relssp postdom
    done
done
exit $fail
