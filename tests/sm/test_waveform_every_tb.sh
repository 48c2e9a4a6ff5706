#!/bin/sh
# Every testbench's waveform read back (TAP, three checks per testbench run, each traced whole at a
# tiny size):
#   lossless  every instruction's sequence number enters and leaves each traced stage (every item
#             of a cycle with several puts; tests/sm/vcd_lossless.awk), and on an SM testbench the
#             instructions seen entering are the warp instructions the statistics count as issued;
#             on tb-pipeline the items through the ALU are the items the sink received
#   no x      no traced field ever shows x (a value wider than its declared width;
#             tests/tools/vcd_x.awk)
#   stalls    a stall signal is a reason only in cycles without issue: every arbiter's stall reads
#             "issued" exactly in the cycles it granted, and an SM's issue.stall (scheduler 0's)
#             exactly in the cycles arbiter 0 granted (tests/sm/warp_trace_check.py stalls)
# tb-daws is tb-ccws --sched daws. A new testbench in testbench/ or a mechanism's local.mk belongs
# in the list below; the last check fails when a built tb-* program is missing from it.
set -u
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bld=$(cd "$top_builddir" && pwd)
lossless="$top_srcdir/tests/sm/vcd_lossless.awk"
xawk="$top_srcdir/tests/tools/vcd_x.awk"
check="$top_srcdir/tests/sm/warp_trace_check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# program|arguments (one run per line)
runs='tb-pipeline|
tb-sm|--workload hotspot --size tiny
tb-subcore|--workload sgemm --size tiny
tb-gpu|--workload bfs --size tiny
tb-ccws|--workload spmv --size tiny --sched ccws
tb-ccws|--workload spmv --size tiny --sched daws
tb-vws|--workload spmv --size tiny --warp-size 4 --vws e-vws
tb-greener|--workload vecadd --size tiny
tb-renaming|--workload vecadd --size tiny
tb-rfcache|--workload sgemm --size tiny --collector ccu
tb-sharing|--workload vecadd --size tiny
tb-spu|--set spu_grid.p=2 --size 8x8x8 --tile 4'
nruns=$(echo "$runs" | wc -l)
echo "1..$((3 * nruns + 1))"
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }
i=0
echo "$runs" | {
    while IFS='|' read -r prog args; do
        i=$((i + 1))
        what="$prog $args"
        # shellcheck disable=SC2086
        if ! "$bld/testbench/$prog" $args --vcd "$tmp/w$i.vcd" >"$tmp/out$i" 2>&1 || [ ! -s "$tmp/w$i.vcd" ]; then
            notok "$what: the run failed or wrote no VCD"; notok "$what: no x (no run)"; notok "$what: stalls (no run)"
            tail -3 "$tmp/out$i" | sed 's/^/# /'
            continue
        fi
        # lossless
        if awk -f "$lossless" "$tmp/w$i.vcd" >"$tmp/l$i"; then lok=1; else lok=0; fi
        entered=$(awk '/^total entered/ { print $3 }' "$tmp/l$i")
        if [ "$prog" = tb-pipeline ]; then
            want=$(awk '$1 == "tb.sink.received" { print $2 }' "$tmp/out$i")
        else
            want=$(awk '$1 ~ /\.issue\.warp_instrs$/ { s += $2 } END { print s + 0 }' "$tmp/out$i")
        fi
        if [ "$lok" = 1 ] && [ -n "$want" ] && [ "$entered" = "$want" ] && [ "$want" -gt 0 ]; then
            ok "$what: lossless, all $want entering and leaving $(grep -c '^stage' "$tmp/l$i") stages"
        else
            notok "$what: lossless: ${entered:-0} seen entering, ${want:-?} issued"
            grep -v ' missing 0$' "$tmp/l$i" | head -4 | sed 's/^/# /'
        fi
        # no x
        awk -f "$xawk" "$tmp/w$i.vcd" >"$tmp/x$i"
        if [ ! -s "$tmp/x$i" ]; then ok "$what: no traced signal shows x"
        else notok "$what: $(wc -l <"$tmp/x$i") signals show x"; head -3 "$tmp/x$i" | sed 's/^/# /'; fi
        # stalls
        if [ "$prog" = tb-pipeline ]; then
            ok "$what: stalls # SKIP no scheduler in the demo pipeline"
        else
            bad=$(python3 "$check" stalls "$tmp/w$i.vcd") || bad="${bad:-the check did not run}"
            if [ -z "$bad" ]; then ok "$what: every stall signal reads a reason only in cycles without issue"
            else notok "$what: stall signals:"; echo "$bad" | sed 's/^/#   /'; fi
        fi
        rm -f "$tmp/w$i.vcd"
    done
    # every testbench program built is in the list
    missing=""
    for p in "$bld"/testbench/tb-*; do
        [ -x "$p" ] && [ -f "$p" ] || continue
        name=${p##*/}
        echo "$runs" | grep -q "^$name|" || missing="$missing $name"
    done
    if [ -z "$missing" ]; then ok "every built testbench program is checked"
    else notok "testbench programs not checked here:$missing"; fi
    exit $fail
}
