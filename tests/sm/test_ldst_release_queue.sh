#!/bin/sh
# ldst's release queue (docs/sm.md, ldst): the completions waiting for room in the release FIFO sit
# in a bounded output queue of the framework (`release_queue` deep). With a depth of 1, every
# workload still passes on tb-sm and tb-subcore, release_queue_peak never exceeds 1, and finished
# instructions do wait for room (release_waits), so the bound is exercised. TAP.
tbdir="$top_builddir/testbench"
wls=$("$tbdir/tb-sm" --list-workloads | cut -f1)
nw=$(echo $wls | wc -w)
echo "1..$((2 * nw + 1))"
n=0
fail=0
waits=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for tb in tb-sm tb-subcore; do
    for w in $wls; do
        n=$((n + 1))
        if "$tbdir/$tb" --workload "$w" --size tiny --no-trace --set ldst.release_queue=1 >"$out" 2>&1 &&
            grep -q "^$tb: $w: PASS" "$out" &&
            awk '/\.ldst\.release_queue_peak /{ if ($2 > 1 || $2 < 1) bad = 1; seen = 1 } END { exit bad || !seen }' "$out"; then
            w_n=$(awk '/\.ldst\.release_waits /{s += $2} END {print s + 0}' "$out")
            waits=$((waits + w_n))
            echo "ok $n - $tb $w release_queue=1: peak 1, $w_n waits"
        else
            echo "not ok $n - $tb $w release_queue=1"; grep -E "release_queue|gpusc:|FAIL" "$out" | sed 's/^/# /' | head -5
            fail=1
        fi
    done
done
n=$((n + 1))
if [ "$waits" -gt 0 ]; then echo "ok $n - $waits finished instructions waited for room in a one-deep release queue"
else echo "not ok $n - no instruction waited for room in a one-deep release queue"; fail=1; fi
exit $fail
