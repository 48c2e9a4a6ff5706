#!/bin/sh
# Back-pressure (docs/framework.md, "Output queues"): with a congested memory side, ldst's miss queue
# never holds more than its depth (miss_queue_peak <= miss_queue), the SM stalls instead
# (miss_queue_stalls), and every workload still passes. tb-gpu: a one-packet injection queue,
# 4-byte flits, one SM; tb-sm: a one-deep request FIFO in front of a 4 bytes/cycle mem_fixed, whose
# req_depth now decides when the SM stalls. TAP.
tbdir="$top_builddir/testbench"
. "$top_srcdir/tests/workloads.sh"
workload_loop "$tbdir/tb-sm" 2 2
# run TB WORKLOAD DEPTH SETTINGS...: passes, and every miss_queue_peak <= DEPTH; prints the stalls
run() {
    tb=$1 w=$2 depth=$3
    shift 3
    n=$((n + 1))
    if "$tbdir/$tb" --workload "$w" --no-trace "$@" >"$out" 2>&1 && grep -q "^$tb: $w: PASS" "$out" &&
        awk -v d="$depth" '/\.ldst\.miss_queue_peak /{ if ($2 > d || $2 < 1) bad = 1; seen = 1 } END { exit bad || !seen }' "$out"; then
        echo "ok $n - $tb $w $*: peak $(awk '/miss_queue_peak /{print $2}' "$out" | sort -n | tail -1) <= $depth, $(awk '/miss_queue_stalls /{s += $2} END {print s}' "$out") stall cycles"
    else
        echo "not ok $n - $tb $w $*"; grep -E "miss_queue|gpusc:" "$out" | sed 's/^/# /' | head -5; fail=1
    fi
}
stalls() { awk '/miss_queue_stalls /{s += $2} END {print s + 0}' "$out"; }
total=0
for w in $wls; do
    run tb-gpu "$w" 8 --set icnt.inject_depth=1 --set icnt.flit_bytes=4 --set gpu.sms=1
    total=$((total + $(stalls)))
done
for w in $wls; do
    run tb-sm "$w" 4 --set ldst.miss_queue=4 --set mem_fixed.req_depth=1 --set mem_fixed.bytes_per_cycle=4
done
n=$((n + 1))
if [ "$total" -gt 0 ]; then echo "ok $n - the congested tb-gpu runs stalled $total cycles on a full miss queue"
else echo "not ok $n - no stall on a full miss queue in the congested tb-gpu runs"; fail=1; fi
# mem_fixed's req_depth takes effect: a shallower request FIFO stalls the SM more
n=$((n + 1))
"$tbdir/tb-sm" --workload transpose --no-trace --set mem_fixed.req_depth=1 --set mem_fixed.bytes_per_cycle=4 >"$out" 2>&1
s1=$(stalls)
"$tbdir/tb-sm" --workload transpose --no-trace --set mem_fixed.req_depth=64 --set mem_fixed.bytes_per_cycle=4 >"$out" 2>&1
s64=$(stalls)
if [ "$s1" -gt "$s64" ]; then echo "ok $n - tb-sm transpose: req_depth 1 stalls $s1 cycles, 64 stalls $s64"
else echo "not ok $n - tb-sm transpose: req_depth 1 stalls $s1 cycles, 64 stalls $s64"; fail=1; fi
exit $fail
