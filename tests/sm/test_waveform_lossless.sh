#!/bin/sh
# Waveforms are lossless (TAP): on each testbench at the tiny size, traced whole, the VCD read back
# (tests/sm/vcd_lossless.awk) shows every instruction's sequence number entering each traced stage
# (the issue_X FIFO, every item of a cycle with several puts) and leaving it (X_release), and the
# instructions seen entering are exactly the warp instructions the statistics count as issued.
awk_lossless="$top_srcdir/tests/sm/vcd_lossless.awk"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs="tb-sm:hotspot tb-sm:bfs tb-subcore:hotspot tb-gpu:bfs tb-gpu:hotspot"
echo "1..$(echo $runs | wc -w)"
n=0
fail=0
for run in $runs; do
    n=$((n + 1))
    tb=${run%%:*}
    wl=${run#*:}
    if ! "$top_builddir/testbench/$tb" --workload "$wl" --size tiny --vcd "$tmp/w.vcd" >"$tmp/out" 2>&1; then
        echo "not ok $n - $tb $wl: the run failed"; sed 's/^/# /' "$tmp/out" | tail -5; fail=1; continue
    fi
    issued=$(awk '$1 ~ /\.issue\.warp_instrs$/ { s += $2 } END { print s + 0 }' "$tmp/out")
    if awk -f "$awk_lossless" "$tmp/w.vcd" >"$tmp/check"; then ok=1; else ok=0; fi
    entered=$(awk '/^total entered/ { print $3 }' "$tmp/check")
    if [ "$ok" = 1 ] && [ "$entered" = "$issued" ] && [ "$issued" -gt 0 ]; then
        echo "ok $n - $tb $wl: all $issued instructions enter and leave every traced stage ($(grep -c '^stage' "$tmp/check") stages)"
    else
        echo "not ok $n - $tb $wl: $issued issued, $entered seen entering the stages"
        grep -v ' missing 0$' "$tmp/check" | head -5 | sed 's/^/# /'
        fail=1
    fi
done
exit $fail
