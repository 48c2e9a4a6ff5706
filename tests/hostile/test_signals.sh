#!/bin/sh
# A run stopped from outside or by a limit still ends well (TAP): SIGTERM, SIGINT or SIGHUP stop a
# never-ending kernel with the state of every warp and exit 128 + the signal (143, 130, 129); the
# statistics and the JSON are written and marked partial, the VCD is whole up to the cycle the run
# stopped at and its .gtkw is written; --max-cycles names the warps, PCs and source lines of a kernel
# that does not finish; the watchdog's stop writes the statistics too; a legal slow configuration
# (latencies of 100000 core cycles, as long as the watchdog's window: the DRAM on the core clock, its
# longest latency being 100000 of its own cycles) is not called a deadlock while
# replies are scheduled; a kernel that keeps issuing but never finishes a thread block is stopped
# by --spin-limit (on by default) with the state of every warp.
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
spin="$top_srcdir/tests/hostile/ptx/spin.ptx"
echo "1..20"
for sig in TERM INT HUP; do
    "$sm" --vcd "$tmp/s.vcd" --stats-json "$tmp/s.json" --ptx "$spin" --entry spin --grid 1 --block 64 \
        --arg out:"$tmp/o":4 >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep 1
    kill -$sig $pid
    # a run that ignores the signal fails, not hangs; the guard writes nowhere, so that its sleep, left
    # behind when the guard is killed, does not hold the TAP output open (30 s after the last run)
    (sleep 30 && kill -KILL $pid) >/dev/null 2>&1 &
    guard=$!
    wait $pid
    st=$?
    kill $guard 2>/dev/null
    want=$((128 + $(kill -l $sig)))
    check "SIG$sig: exit $want with the reason and the warps' PCs (exit $st)" \
        sh -c "[ $st = $want ] && grep -q 'interrupted by .* at cycle' '$tmp/err' && grep -q 'pc 1 (line 13' '$tmp/err'"
    check "SIG$sig: the statistics and the JSON are written, marked partial" \
        sh -c "grep -q '^summary: spin' '$tmp/out' && grep -q '^# partial: interrupted by .* at cycle' '$tmp/out' &&
            grep -q 'spin: INTERRUPTED' '$tmp/out' &&
            python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"partial\"].startswith(\"interrupted by\")' '$tmp/s.json'"
    check "SIG$sig: the VCD ends with a whole line" sh -c "[ \"\$(tail -c 1 '$tmp/s.vcd' | od -An -c | tr -d ' ')\" = '\\n' ]"
    # the waveform runs up to the cycle the run stopped at (its last time is just below the next
    # cycle), GTKWave's converter reads it whole, and its view is beside it
    stop=$(sed -n 's/.*interrupted by .* at cycle \([0-9]*\).*/\1/p' "$tmp/err" | head -1)
    last=$(awk '/^#/ { t = substr($1, 2) } END { print t + 0 }' "$tmp/s.vcd")
    check "SIG$sig: the waveform reaches cycle $stop, converts, and has its view" \
        sh -c "[ -n '$stop' ] && [ $last -ge \$(( $stop * 1429 )) ] && [ -s '$tmp/s.gtkw' ] &&
            { [ -z \"\$VCD2FST\" ] || \"\$VCD2FST\" '$tmp/s.vcd' '$tmp/s.fst' >/dev/null 2>&1; }"
    rm -f "$tmp/s.vcd" "$tmp/s.json" "$tmp/s.gtkw" "$tmp/s.fst"
done
expect "--max-cycles names the warps, PCs and lines" 1 "pc 1 (line 13 .bra.uni" "$sm" --no-trace --ptx "$spin" \
    --entry spin --grid 1 --block 64 --arg out:"$tmp/o":4 --max-cycles 5000
expect "--spin-limit stops a spinning kernel, naming the warps, PCs and lines" 1 \
    "no thread block finished for 200000 cycles.*spins" "$sm" --no-trace --ptx "$spin" --entry spin --grid 1 \
    --block 64 --arg out:"$tmp/o":4 --spin-limit 200000
check "--spin-limit: ... the loop's line" grep -q "pc 1 (line 13 .bra.uni" "$tmp/err"
expect "--spin-limit -1" 2 "spin-limit must not be negative" "$sm" --no-trace --workload vecadd --spin-limit -1
expect "watchdog: a barrier deadlock" 1 "waits on: barrier 1 of its block" "$sm" --no-trace \
    --ptx "$top_srcdir/tests/sm/ptx/deadlock.ptx" --entry deadlock --grid 1 --block 64 --watchdog 1000
check "watchdog: the statistics are written" grep -q "^summary: deadlock" "$tmp/out"
expect "watchdog: L2 and DRAM latencies of 100000 cycles are slow, not a deadlock" 0 \
    "but the next scheduled event is at cycle [0-9]*: a slow machine, not a deadlock" "$top_builddir/testbench/tb-gpu" \
    --no-trace --workload vecadd --set dram.latency=100000 --set l2.latency=100000 --set gpu.dram_period_ps=0
check "watchdog: ... and the workload passed" grep -q "vecadd: PASS" "$tmp/out"
exit $fail
