#!/bin/sh
# Per-warp traced state and the pipeline log, checked against the run's issue log (TAP; the checks
# are tests/sm/warp_trace_check.py's):
# 1-2 tb-sm reduction (barriers): every logged issue shows on its warp's stall ("issued") at its
#     cycle, with the logged pc and lanes just before; no other cycle shows "issued"; a warp at a
#     barrier shows at_barrier and the stall "barrier" until it goes on.
# 3   --pipeview: O3PipeView records in gem5's order, one per logged issue at the logged cycle and
#     pc, as many as the warp_instrs statistic.
# 4-5 tb-gpu (15 SMs): the per-warp state is a detail the default '*' leaves out and a pattern
#     naming it selects (sm1's warps checked against the log); one pipeline log for every SM.
# 6   the blocks' insides on tb-sm bfs: the coalescer's line requests per instruction sum to the
#     L1D's transactions (statistics), MSHRs in use within the mshrs parameter, the collectors'
#     occupied / ready slots agree with busy_collectors.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
check="$top_srcdir/tests/sm/warp_trace_check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
fail=0
tb="$top_builddir/testbench/tb-sm"
period=$("$tb" --dump-config 2>/dev/null | awk -F= '/^period_ps/ { print $2; exit }')
if ! "$tb" --workload reduction --size tiny --vcd "$tmp/sm.vcd" --trace 'tb.sm0.issue.warp*' \
    --set issue.log="$tmp/log" --pipeview "$tmp/pv" --stats-json "$tmp/st.json" >"$tmp/out" 2>&1; then
    echo "Bail out! tb-sm reduction failed"; cat "$tmp/out"; exit 1
fi
if grep -q 'bar' "$tmp/log" && grep -q '^\$var wire 4 [^ ]* stall' "$tmp/sm.vcd" && grep -q 'tb.sm0.issue.warp3.stall' "$tmp/sm.gtkw"; then
    echo "ok 1 - tb-sm traces each warp slot's state (tb.sm0.issue.warpN.*), grouped per warp in the view"
else echo "not ok 1 - no per-warp state in the VCD or the view (or no barrier in the log)"; fail=1; fi
bad=$(python3 "$check" warps "$tmp/sm.vcd" "$tmp/log" "$period" tb.sm0.issue) || bad="${bad:-the check did not run}"
if [ -z "$bad" ]; then echo "ok 2 - per-warp pc, mask, stall and at_barrier agree with the issue log at every issue"
else echo "not ok 2 - per-warp state vs the issue log:"; echo "$bad" | sed 's/^/#   /'; fail=1; fi
wi=$(tr ',' '\n' <"$tmp/st.json" | grep -A1 '"warp_instrs"' | sed -n 's/.*"value": *\([0-9]*\).*/\1/p' | head -1)
bad=$(python3 "$check" pipeview "$tmp/pv" "$tmp/log" "$period" 1 "${wi:-0}")
if [ -n "$wi" ] && [ -z "$bad" ]; then echo "ok 3 - the pipeline log: $wi instructions, stage order, issue cycles and pcs of the issue log"
else echo "not ok 3 - the pipeline log:"; echo "$bad" | sed 's/^/#   /'; fail=1; fi
gpu="$top_builddir/testbench/tb-gpu"
"$gpu" --workload reduction --size tiny --vcd "$tmp/all.vcd" --trace-window 0:20 >"$tmp/out1" 2>&1
"$gpu" --workload reduction --size tiny --vcd "$tmp/g.vcd" --trace 'sm1.issue.warp*' \
    --set issue.log="$tmp/glog" --pipeview "$tmp/gpv" >"$tmp/out2" 2>&1
grep " sm 1 " "$tmp/glog" >"$tmp/glog1"
bad=$(python3 "$check" warps "$tmp/g.vcd" "$tmp/glog1" "$period" tb.gpu.sm1.issue) || bad="${bad:-the check did not run}"
if ! grep -q 'module warp[0-9]' "$tmp/all.vcd" && grep -q 'module issue' "$tmp/all.vcd" && [ -z "$bad" ]; then
    echo "ok 4 - tb-gpu: no per-warp state under '*', sm1's under 'sm1.issue.warp*', agreeing with the log"
else echo "not ok 4 - tb-gpu per-warp state as a detail:"; echo "$bad" | sed 's/^/#   /'; fail=1; fi
bad=$(python3 "$check" pipeview "$tmp/gpv" "$tmp/glog" "$period" 15 "$(wc -l <"$tmp/glog")")
if [ -s "$tmp/glog" ] && [ -z "$bad" ]; then echo "ok 5 - tb-gpu: one pipeline log for 15 SMs, unique sequence numbers, as the issue log"
else echo "not ok 5 - tb-gpu pipeline log:"; echo "$bad" | sed 's/^/#   /'; fail=1; fi
mshrs=$("$tb" --dump-config 2>/dev/null | awk -F= '/^\[/ { s = $0 } s == "[tb.sm0.ldst]" && $1 == "mshrs" { print $2 }')
"$tb" --workload bfs --size tiny --vcd "$tmp/b.vcd" --trace 'tb.sm0.ldst,tb.sm0.opcoll' --stats-json "$tmp/b.json" >"$tmp/out3" 2>&1
bad=$(python3 "$check" insides "$tmp/b.vcd" "$tmp/b.json" tb.sm0 "${mshrs:-0}") || bad="${bad:-the check did not run}"
if [ -z "$bad" ]; then echo "ok 6 - ldst.coalesced, ldst.mshr_used, opcoll.occupied/ready agree with the statistics (bfs)"
else echo "not ok 6 - the blocks' insides:"; echo "$bad" | sed 's/^/#   /'; fail=1; fi
exit $fail
