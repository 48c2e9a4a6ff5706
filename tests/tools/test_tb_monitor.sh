#!/bin/sh
# The testbenches' progress line and time series (TAP): a run sliced for them has the statistics of a
# run in one piece; the samples add up to the run's counters; the line appears on a terminal (through
# script(1)) and nowhere else unless asked for; bad options are refused; gpusc-plot draws the series.
n=0
fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
echo "1..12"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B="$top_builddir/testbench"
# the statistics, the wall-clock ones aside
stats() { grep -v -e cycles_per_second "$1"; }
for tw in "tb-sm hotspot" "tb-gpu bfs" "tb-subcore reduction"; do
    set -- $tw
    "$B/$1" --workload $2 --no-trace --stats-json "$tmp/a.json" >/dev/null 2>&1
    "$B/$1" --workload $2 --no-trace --stats-json "$tmp/b.json" --sample-every 37 --samples "$tmp/$1.csv" \
        --progress >/dev/null 2>"$tmp/$1.err"
    t "$1 $2: statistics with --sample-every 37 --progress are those of a plain run" \
      '[ -s "$tmp/a.json" ] && [ "$(stats "$tmp/a.json")" = "$(stats "$tmp/b.json")" ]'
done
cycles=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$tmp/b.json")
# tb-subcore's samples: a row at every multiple of 37 cycles, else only at the end of a launch (a
# partial interval), in increasing order, the last at the run's last cycle
check=$(awk -F, -v n="$cycles" 'NR > 1 { if ($1 <= prev) bad = 1; if ($1 % 37) partial++; else mult++; prev = $1 }
    END { print (bad ? "unordered" : "ordered"), mult == int(n / 37), partial, prev }' "$tmp/tb-subcore.csv")
partial=$(echo "$check" | cut -d" " -f3)
t "a sample at every 37th cycle, partial ones at launch ends ($check; run $cycles cycles)" \
  '[ "$check" = "ordered 1 $partial $cycles" ] && [ "$partial" -ge 1 ]'
# the interval IPCs times the interval lengths add up to the run's warp instructions (tb-gpu: 15 SMs)
"$B/tb-gpu" --workload bfs --no-trace --stats-json "$tmp/g.json" --sample-every 100 --samples "$tmp/g.csv" \
    --sample-stats 'tb.gpu.sm1*.warp_instrs,*.dram0.reads' >/dev/null 2>&1
sums=$(python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
js = json.load(open(sys.argv[2]))
prev, wi, wi1 = 0, 0.0, 0.0
for r in rows:
    c = int(r['cycle']); wi += float(r['ipc']) * (c - prev); wi1 += float(r['sm1.ipc']) * (c - prev); prev = c
want = sum(s['stats']['warp_instrs']['value'] for s in js['instances'] if s['type'] == 'issue')
sm1 = [s for s in js['instances'] if s['path'] == 'tb.gpu.sm1.issue'][0]['stats']['warp_instrs']['value']
d0 = [s for s in js['instances'] if s['path'] == 'tb.gpu.dram0'][0]['stats']['reads']['value']
col = sum(int(r['tb.gpu.sm1.issue.warp_instrs']) for r in rows)
dcol = sum(int(r['tb.gpu.dram0.reads']) for r in rows)
print(round(wi), want, round(wi1), sm1, col, dcol, d0)" "$tmp/g.csv" "$tmp/g.json")
read -r s_wi s_want s_wi1 s_sm1 s_col s_dcol s_d0 <<EOS
$sums
EOS
t "tb-gpu: interval IPCs add up to the warp instructions, all SMs and SM 1 ($sums)" \
  '[ "$s_wi" = "$s_want" ] && [ "$s_wi1" = "$s_sm1" ] && [ "$s_want" -gt 0 ]'
t "--sample-stats columns are per-interval counts adding up to the counters" \
  '[ "$s_col" = "$s_sm1" ] && [ "$s_dcol" = "$s_d0" ] && [ "$s_d0" -gt 0 ]'
t "--progress with stdout not a terminal: lines on stderr" 'grep -q "^tb-sm: .*cycle .*warp instructions, CTAs [0-9]*/[0-9]*, .*cycles/s, ETA" "$tmp/tb-sm.err"'
"$B/tb-sm" --workload hotspot --no-trace >"$tmp/plain.out" 2>&1
t "no progress line when stdout is not a terminal" '! grep -q "ETA" "$tmp/plain.out"'
if script -qc true /dev/null </dev/null >/dev/null 2>&1; then
    script -qc "'$B/tb-sm' --workload hotspot --no-trace --progress" /dev/null </dev/null >"$tmp/tty.out" 2>&1
    t "--progress on a terminal: the line is drawn in place and erased" \
      'grep -q "$(printf "\r")tb-sm: .*ETA" "$tmp/tty.out" && grep -q "$(printf "\r\033")\[K" "$tmp/tty.out" && grep -q "tb-sm: hotspot: PASS" "$tmp/tty.out"'
    script -qc "'$B/tb-sm' --workload hotspot --no-trace --no-progress" /dev/null </dev/null >"$tmp/tty2.out" 2>&1
    t "--no-progress on a terminal: no line" '! grep -q "ETA" "$tmp/tty2.out" && grep -q "PASS" "$tmp/tty2.out"'
else
    skip "--progress on a terminal" "script(1) cannot run a terminal here"
    skip "--no-progress on a terminal" "script(1) cannot run a terminal here"
fi
"$B/tb-sm" --workload hotspot --no-trace --samples "$tmp/x.csv" >"$tmp/bad1" 2>&1
r1=$?
"$B/tb-sm" --workload hotspot --no-trace --sample-every 10 --sample-stats 'tb.nothing*' --samples "$tmp/x.csv" >"$tmp/bad2" 2>&1
r2=$?
t "bad options are refused (exit 2): --samples alone, a glob matching nothing" \
  '[ $r1 = 2 ] && grep -q "^gpusc: --samples and --sample-stats need --sample-every N" "$tmp/bad1" &&
   [ $r2 = 2 ] && grep -q "^gpusc: --sample-stats: .tb.nothing\*. matches no counter" "$tmp/bad2"'
if command -v gnuplot >/dev/null 2>&1; then
    "$top_srcdir/tools/gpusc-plot" timeseries "$tmp/g.csv" -o "$tmp/ts" >"$tmp/plot.out" 2>&1
    t "gpusc-plot timeseries: PNG and SVG" 'head -c 4 "$tmp/ts.png" | grep -q PNG && grep -q "<svg" "$tmp/ts.svg" && grep -q "sm14.ipc" "$tmp/ts.gp"'
else
    skip "gpusc-plot timeseries: PNG and SVG" "gnuplot is not installed (apt-get install gnuplot-nox)"
fi
exit $fail
