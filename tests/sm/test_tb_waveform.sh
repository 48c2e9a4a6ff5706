#!/bin/sh
# tb-sm's VCD agrees with its statistics and its issue log (TAP): every cycle the issue log lists
# issues in shows the same count on tb.sm0.issue.issued in the VCD (time = cycle x period_ps), the
# warp traced there is the last one the log lists for that cycle, and the number of logged issues is
# the warp_instrs statistic. Also checks that the .gtkw save file was written beside the VCD, and
# that the FIFOs from issue to the units are traced field by field: the cycles their put strobes are
# high are the cycles the log lists, and the warp field shows the warp issued then. Two runs traced
# whole (every latch, FIFO and state variable) write byte-identical VCDs. A "this cycle" flag
# (fetch.fetched) is high exactly in the cycles its FIFO shows a put, also when fetch sleeps.
# The .gtkw lists a FIFO's putK group (its K+1-th item of a cycle) exactly when some cycle of the
# waveform put more than K items in it.
tb="$top_builddir/testbench/tb-sm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..11"
fail=0
if "$tb" --workload vecadd --size tiny --vcd "$tmp/tb-sm.vcd" --trace 'tb.sm0.issue,tb.sm0.issue_exec0,tb.sm0.issue_ldst' \
    --set issue.log="$tmp/log" --stats-json "$tmp/stats.json" >"$tmp/out" 2>&1; then
    echo "ok 1 - tb-sm vecadd tiny runs with a VCD"
else
    echo "not ok 1 - tb-sm vecadd tiny runs with a VCD"; cat "$tmp/out"; exit 1
fi
period=$("$tb" --dump-config 2>/dev/null | awk -F= '/^period_ps/ { print $2; exit }')
[ -n "$period" ] || period=1429
# VCD: value of a var (by name under a scope, default issue) at every time it changes -> "time value"
# lines (vectors "b101 id", scalars "1id").
vcd_series() { # name [scope]
    awk -v want="$1" -v in_scope="${2:-issue}" '
        BEGIN { t = 0; code = "" }
        /^\$scope/ { scope = $3 }
        /^\$var/ && scope == in_scope && $5 == want { code = $4 }
        /^#/ { t = substr($1, 2) }
        code != "" && /^b[01]+ / && $2 == code { v = 0; s = substr($1, 2); for (i = 1; i <= length(s); i++) v = v * 2 + substr(s, i, 1); print t, v }
        code != "" && /^[01]/ && substr($1, 2) == code { print t, substr($1, 1, 1) }
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
# The issue -> unit FIFOs: every field of issued_t but the OPAQUE ones, the put strobe, the occupancy.
missing=""
for scope in issue_exec0 issue_ldst; do
    for v in put warp pc seq occupancy; do
        [ -n "$(vcd_series "$v" "$scope" | head -1)" ] || missing="$missing $scope.$v"
    done
done
if [ -z "$missing" ] && grep -q 'tb.sm0.issue_exec0.warp' "$tmp/tb-sm.gtkw"; then
    echo "ok 5 - the issue -> exec/ldst FIFOs are traced (put, fields, occupancy) and in the .gtkw"
else echo "not ok 5 - FIFO signals missing from the VCD or .gtkw:$missing"; fail=1; fi
# Cycles where a put strobe is high -> "cycle warp" (the warp field at that cycle), for both FIFOs.
last=$(awk '/^#/ { t = substr($1, 2) } END { print t }' "$tmp/tb-sm.vcd")
put_cycles() { # scope
    vcd_series put "$1" >"$tmp/put"
    vcd_series warp "$1" >"$tmp/pwarp"
    awk -v p="$period" -v last="$last" '
        FILENAME == ARGV[1] { wt[++nw] = $1; wv[nw] = $2; next }
        {
            if (high) for (c = rise / p; c < $1 / p; c++) up[c] = 1
            high = $2; rise = $1
        }
        END {
            if (high) for (c = rise / p; c <= last / p; c++) up[c] = 1
            for (c in up) {
                b = 0
                while (b < nw && wt[b + 1] <= c * p) b++
                print c, wv[b]
            }
        }' "$tmp/pwarp" "$tmp/put"
}
{ put_cycles issue_exec0; put_cycles issue_ldst; } | sort -n >"$tmp/puts"
bad=$(awk '
    FILENAME == ARGV[1] { n[$1]++; w[$1] = $6; next }
    { seen[$1]++; if (!($1 in n)) { print "cycle " $1 ": a put strobe is high but the log lists no issue"; exit }
      if (n[$1] == 1 && seen[$1] == 1 && $2 != w[$1]) { print "cycle " $1 ": log warp " w[$1] ", FIFO warp " $2; exit } }
    END { for (c in n) if (!(c in seen)) { print "cycle " c ": the log lists an issue, no put strobe is high"; exit } }
    ' "$tmp/log" "$tmp/puts")
if [ -z "$bad" ] && [ -s "$tmp/puts" ]; then echo "ok 6 - issue -> unit FIFO put strobes high exactly in the logged cycles, with the logged warp"
else echo "not ok 6 - FIFO put strobes vs log: ${bad:-no put strobe}"; fail=1; fi
# Deterministic: everything traced, twice (a field left uninitialised in an item shows up here).
for i in 1 2; do
    "$tb" --workload vecadd --size tiny --vcd "$tmp/all$i.vcd" --trace='*' >"$tmp/out$i" 2>&1
done
if [ -s "$tmp/all1.vcd" ] && cmp -s "$tmp/all1.vcd" "$tmp/all2.vcd"; then echo "ok 7 - two runs traced whole give byte-identical VCDs"
else echo "not ok 7 - two runs traced whole differ: $(cmp "$tmp/all1.vcd" "$tmp/all2.vcd" 2>&1)"; fail=1; fi
# The cycle counter tb.cycle: at the time of every cycle k of the run, its value is k.
ncycles=$(awk '/^summary:/ { for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^cycles,?$/) { print $i; exit } }' "$tmp/out1")
bad=$(awk -v p="$period" -v n="$ncycles" '
    /^\$scope/ { s[++d] = $3 } /^\$upscope/ { d-- }
    /^\$var/ && d == 1 && s[1] == "tb" && $5 == "cycle" { code = $4 }
    /^#/ { t = substr($1, 2) + 0; next }
    code != "" && /^b/ && $2 == code {
        v = 0; x = substr($1, 2); for (i = 1; i <= length(x); i++) v = v * 2 + substr(x, i, 1)
        if (t % p != 0 || v != t / p) { print "time " t ": tb.cycle is " v; exit }
        seen[v] = 1
    }
    END { if (code == "") { print "no tb.cycle"; exit } for (k = 1; k < n; k++) if (!(k in seen)) { print "cycle " k " not written"; exit } }
    ' "$tmp/all1.vcd")
if [ -z "$bad" ] && [ -n "$ncycles" ]; then echo "ok 8 - tb.cycle holds the cycle number in every one of the $ncycles cycles"
else echo "not ok 8 - cycle counter: ${bad:-no cycle count in the summary}"; fail=1; fi
# Enumerations by name: translate filter files beside the view, from the project's name tables,
# referenced by the view for the signals that hold such values.
gtkw="$tmp/all1.gtkw"
missing=""
for e in stall:2:scoreboard op:0: class:0: space:3:global kind:0:read client:1:fetch unit:4:ldst access:1:store; do
    name=${e%%:*}; rest=${e#*:}; value=${rest%%:*}; text=${rest#*:}
    f="$tmp/all1.$name.filter"
    if [ ! -s "$f" ] || ! grep -q "^$value $text" "$f" || ! grep -q "^\^[0-9]* $f\$" "$gtkw"; then missing="$missing $name"; fi
done
if [ -z "$missing" ] && grep -A1 "^\^[0-9]* $tmp/all1.stall.filter" "$gtkw" | grep -q '^tb.sm0.issue.stall\['; then
    echo "ok 9 - translate filters for stall, op, class, space, kind, client, unit, access beside the view and used by it"
else echo "not ok 9 - translate filters missing or unused:$missing"; fail=1; fi
# A "this cycle" flag does not outlive its cycle: fetch.fetched is 1 exactly in the cycles fetch put
# a decoded instruction into fetch_issue, also around the cycles fetch sleeps through (bfs, where
# warps wait on memory), instead of keeping its last value.
"$tb" --workload bfs --size tiny --vcd "$tmp/bfs.vcd" --trace 'tb.sm0.fetch,tb.sm0.fetch_issue' >"$tmp/outb" 2>&1
bad=$(python3 - "$tmp/bfs.vcd" "$period" "$top_srcdir" <<'PY'
import bisect, os, sys
sys.path.insert(0, os.path.join(sys.argv[3], "tests", "tools"))
from vcd_decl import series as vcd_series
def series(path, scope, name):
    s = vcd_series(path, lambda v: 1 if v.scope and v.scope[-1] == scope and v.name == name else None)
    return s.get(1, ([], []))
def at(s, t):
    i = bisect.bisect_right(s[0], t)
    return s[1][i - 1] if i else 0
p = int(sys.argv[2])
f, q = series(sys.argv[1], "fetch", "fetched"), series(sys.argv[1], "fetch_issue", "put")
if not f[0] or not q[0]:
    print("no fetch.fetched or fetch_issue.put in the VCD")
    sys.exit()
bad = [c for c in range(max(f[0] + q[0]) // p + 1) if (at(f, c * p) > 0) != (at(q, c * p) > 0)]
if bad:
    print("%d cycles, first %s" % (len(bad), bad[:5]))
PY
) || bad="${bad:-the check did not run}"
if [ -z "$bad" ]; then echo "ok 10 - fetch.fetched is high exactly in the cycles fetch puts into fetch_issue (bfs)"
else echo "not ok 10 - fetch.fetched disagrees with fetch_issue.put: $bad"; fail=1; fi
# the .gtkw's putK groups: exactly the slots some cycle used (the put count exceeded K)
bad=$(python3 - "$tmp/tb-sm.vcd" "$tmp/tb-sm.gtkw" "$top_srcdir" <<'PY'
import os, re, sys
sys.path.insert(0, os.path.join(sys.argv[3], "tests", "tools"))
from vcd_decl import series
# the most items each FIFO (the scope of a "put" count) took in a cycle
maxput = {fifo: max(s[1]) for fifo, s in series(sys.argv[1], lambda v: ".".join(v.scope) if v.name == "put" else None).items()}
view = open(sys.argv[2]).read()
shown = {}
for m in re.finditer(r"^-(\S+)\.put(\d+)$", view, re.M):
    shown[m.group(1)] = max(shown.get(m.group(1), 0), int(m.group(2)))
bad = [f for f in set(maxput) | set(shown) if shown.get(f, 0) != max(maxput.get(f, 0) - 1, 0)]
if not any(v >= 2 for v in maxput.values()):
    bad.append("no FIFO put two items in a cycle")
print(" ".join(sorted(bad)))
PY
) || bad="${bad:-the check did not run}"
if [ -z "$bad" ]; then echo "ok 11 - the view lists a FIFO's putK groups exactly up to the most items it took in a cycle"
else echo "not ok 11 - putK groups of the view: $bad"; fail=1; fi
exit $fail
