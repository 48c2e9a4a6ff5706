#!/bin/sh
# tb-sm's VCD agrees with its statistics and its issue log (TAP): every cycle the issue log lists
# issues in shows the same count on tb.sm0.issue.issued in the VCD (time = cycle x period_ps), the
# warp traced there is the last one the log lists for that cycle, and the number of logged issues is
# the warp_instrs statistic. Also checks that the .gtkw save file was written beside the VCD.
tb="$top_builddir/testbench/tb-sm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
fail=0
if "$tb" --workload vecadd --size tiny --vcd "$tmp/tb-sm.vcd" --trace 'tb.sm0.issue' --set issue.log="$tmp/log" \
    --stats-json "$tmp/stats.json" >"$tmp/out" 2>&1; then
    echo "ok 1 - tb-sm vecadd tiny runs with a VCD"
else
    echo "not ok 1 - tb-sm vecadd tiny runs with a VCD"; cat "$tmp/out"; exit 1
fi
period=$("$tb" --dump-config 2>/dev/null | awk -F= '/^period_ps/ { print $2; exit }')
[ -n "$period" ] || period=1429
# VCD: value of a var (by name under scope issue) at every time it changes -> "time value" lines.
vcd_series() { # name
    awk -v want="$1" '
        BEGIN { t = 0 }
        /^\$scope/ { scope = $3 }
        /^\$var/ && scope == "issue" && $5 == want { code = $4 }
        /^#/ { t = substr($1, 2) }
        /^b[01]+ / && $2 == code { v = 0; s = substr($1, 2); for (i = 1; i <= length(s); i++) v = v * 2 + substr(s, i, 1); print t, v }
    ' "$tmp/tb-sm.vcd"
}
vcd_series issued >"$tmp/issued"
vcd_series warp >"$tmp/warp"
# For each logged cycle: logged count and last warp; compare with the VCD value in force at that time.
awk '{ n[$1]++; w[$1] = $6 } END { for (c in n) print c, n[c], w[c] }' "$tmp/log" | sort -n >"$tmp/bycycle"
bad=$(awk -v p="$period" '
    FILENAME == ARGV[1] { it[++ni] = $1; iv[ni] = $2; next }
    FILENAME == ARGV[2] { wt[++nw] = $1; wv[nw] = $2; next }
    {
        t = $1 * p
        while (a < ni && it[a + 1] <= t) a++
        while (b < nw && wt[b + 1] <= t) b++
        if (iv[a] != $2) { print "cycle " $1 ": log " $2 " issues, VCD issued=" iv[a]; exit }
        if (wv[b] != $3) { print "cycle " $1 ": log warp " $3 ", VCD warp=" wv[b]; exit }
    }' "$tmp/issued" "$tmp/warp" "$tmp/bycycle")
if [ -z "$bad" ] && [ -s "$tmp/bycycle" ]; then echo "ok 2 - VCD issue count and warp match the issue log at every logged cycle"
else echo "not ok 2 - VCD vs log: ${bad:-empty log}"; fail=1; fi
logged=$(wc -l <"$tmp/log")
stat=$(tr ',' '\n' <"$tmp/stats.json" | grep -A1 '"warp_instrs"' | sed -n 's/.*"value": *\([0-9]*\).*/\1/p' | head -1)
if [ "$logged" = "$stat" ]; then echo "ok 3 - issue log lines = warp_instrs statistic ($stat)"
else echo "not ok 3 - issue log has $logged lines, warp_instrs is $stat"; fail=1; fi
if [ -s "$tmp/tb-sm.gtkw" ] && grep -q 'issued' "$tmp/tb-sm.gtkw"; then echo "ok 4 - .gtkw written beside the VCD"
else echo "not ok 4 - no .gtkw beside the VCD"; fail=1; fi
exit $fail
