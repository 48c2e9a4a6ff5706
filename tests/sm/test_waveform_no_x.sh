#!/bin/sh
# No traced field ever shows x (TAP): a value wider than its declared width is written as x, so
# every workload at the tiny size on tb-sm and tb-gpu, traced whole, must give a VCD without one
# (tests/tools/vcd_x.awk lists the signals that do).
awk_x="$top_srcdir/tests/tools/vcd_x.awk"
tbs=${TBS:-"tb-sm tb-gpu"}
. "$top_srcdir/tests/workloads.sh"
wls=$(test_workloads "$top_builddir/testbench/tb-sm")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..$(($(echo $tbs | wc -w) * $(echo $wls | wc -w)))"
n=0
fail=0
for tb in $tbs; do
    for w in $wls; do
        n=$((n + 1))
        if ! "$top_builddir/testbench/$tb" --workload "$w" --size tiny --vcd "$tmp/w.vcd" >"$tmp/out" 2>&1; then
            echo "not ok $n - $tb $w: the run failed"; tail -3 "$tmp/out" | sed 's/^/# /'; fail=1; continue
        fi
        awk -f "$awk_x" "$tmp/w.vcd" >"$tmp/x"
        if [ -s "$tmp/w.vcd" ] && [ ! -s "$tmp/x" ]; then
            echo "ok $n - $tb $w: no traced signal shows x"
        else
            echo "not ok $n - $tb $w: $(wc -l <"$tmp/x") signals show x"; head -5 "$tmp/x" | sed 's/^/# /'; fail=1
        fi
    done
done
exit $fail
