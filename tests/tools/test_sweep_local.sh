#!/bin/sh
# A small sweep end to end (TAP): two workloads x three issue-policy points on tb-sm at the tiny size,
# two at a time; one point is broken on purpose (an unknown policy). Checks the table against a run
# of tb-sm by hand, that a second run reuses every result, that a failed point is reported with its
# command and the end of its log without stopping the others, the SQLite table, and the plots.
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
t() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
echo "1..12"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sweep="$top_srcdir/tools/gpusc-sweep"
plot="$top_srcdir/tools/gpusc-plot"
GPUSC_BINDIR="$top_builddir/testbench"
export GPUSC_BINDIR
cat >"$tmp/s.sweep" <<'EOS'
[sweep]
name=small
testbench=tb-sm
workloads=vecadd;reduction
args=--preset gtx480
out=out
[axis policy]
gto=--set arbiter.policy=gto
lrr=--set arbiter.policy=lrr
broken=--set arbiter.policy=no_such_policy
[plot ipc]
kind=bars
metric=tb.ipc
series=policy
baseline=gto
where=policy=gto;policy=lrr
EOS
# (where= keeps the rows that match every condition: this plot keeps none, an error; the figure is
# drawn below with gpusc-plot bars.)
"$sweep" "$tmp/s.sweep" -j2 >"$tmp/run1.out" 2>"$tmp/run1.err"
rc=$?
t "a sweep with a failed point exits 1 (got $rc)" '[ $rc = 1 ]'
t "the 4 good points ran, the 2 broken ones failed" 'grep -q "sweep small: 6 points: 4 run, 0 reused, 2 failed" "$tmp/run1.out"'
t "a failure names its point, command and log tail" \
  'grep -q "^gpusc: point vecadd.tiny.broken failed (exit status" "$tmp/run1.err" &&
   grep -q "command: .*tb-sm --preset gtx480 --workload vecadd --size tiny --set arbiter.policy=no_such_policy" "$tmp/run1.err" &&
   grep -q "  | gpusc: .*no_such_policy" "$tmp/run1.err"'
csv="$tmp/out/results.csv"
t "the table has a row per point with its parameters" \
  '[ "$(cut -d, -f1-4 "$csv" | tr "\n" " ")" = "point,workload,size,policy vecadd.tiny.gto,vecadd,tiny,gto vecadd.tiny.lrr,vecadd,tiny,lrr vecadd.tiny.broken,vecadd,tiny,broken reduction.tiny.gto,reduction,tiny,gto reduction.tiny.lrr,reduction,tiny,lrr reduction.tiny.broken,reduction,tiny,broken " ]'
# the statistics of a point are those of the same run by hand
"$GPUSC_BINDIR/tb-sm" --preset gtx480 --workload reduction --size tiny --set arbiter.policy=lrr --no-trace \
    --stats-json "$tmp/hand.json" >/dev/null 2>&1
col() { awk -F, -v c="$1" -v p="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } $1 == p { print $k }' "$csv"; }
hand_cycles=$(sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$tmp/hand.json")
hand_wi=$(grep -o '"warp_instrs": {"value": [0-9]*' "$tmp/hand.json" | head -1 | grep -o '[0-9]*$')
t "cycles and warp instructions as by hand ($hand_cycles, $hand_wi)" \
  '[ -n "$hand_cycles" ] && [ "$(col cycles reduction.tiny.lrr)" = "$hand_cycles" ] &&
   [ "$(col tb.sm0.issue.warp_instrs reduction.tiny.lrr)" = "$hand_wi" ]'
t "failed points are in the table as failed" '[ "$(col status vecadd.tiny.broken)" = failed ] && [ "$(col status vecadd.tiny.gto)" = ok ]'
if command -v sqlite3 >/dev/null 2>&1; then
    q=$(sqlite3 "$tmp/out/results.sqlite" "SELECT count(*) FROM points WHERE status = 'ok' AND \"tb.ipc\" > 0")
    t "SQLite: 4 rows with an IPC (got $q)" '[ "$q" = 4 ]'
else
    q=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT count(*) FROM points WHERE status = 'ok' AND \\\"tb.ipc\\\" > 0\").fetchone()[0])" "$tmp/out/results.sqlite")
    t "SQLite: 4 rows with an IPC (got $q)" '[ "$q" = 4 ]'
fi
# fix the broken point: only its two points run again
sed -i 's/broken=--set arbiter.policy=no_such_policy/broken=--set arbiter.policy=oldest/' "$tmp/s.sweep"
"$sweep" "$tmp/s.sweep" -j2 >"$tmp/run2.out" 2>"$tmp/run2.err"
rc=$?
t "the second run reuses 4 results and runs the 2 changed points (rc $rc)" \
  '[ $rc = 0 ] && grep -q "sweep small: 6 points: 2 run, 4 reused, 0 failed" "$tmp/run2.out"'
"$sweep" "$tmp/s.sweep" >"$tmp/run3.out" 2>&1
t "a third run runs nothing" 'grep -q "0 run, 6 reused, 0 failed" "$tmp/run3.out"'
"$plot" "$tmp/s.sweep" >"$tmp/plot.out" 2>&1
t "a plot whose where= keeps no row is an error naming the plot" \
  'grep -q "^gpusc: .*s.sweep:11: no row with status ok matching where=policy=gto;policy=lrr" "$tmp/plot.out"'
if command -v gnuplot >/dev/null 2>&1; then
    "$plot" bars "$csv" --metric cycles --series policy --baseline gto -o "$tmp/p/cycles" >"$tmp/plot2.out" 2>&1
    rc=$?
    t "bars: PNG and SVG written (rc $rc)" \
      '[ $rc = 0 ] && head -c 8 "$tmp/p/cycles.png" | od -An -c | grep -q "P   N   G" && grep -q "<svg" "$tmp/p/cycles.svg"'
    # the data behind the bars: reduction's lrr over gto, then the geometric mean row
    g=$(col cycles reduction.tiny.gto); l=$(col cycles reduction.tiny.lrr)
    want=$(python3 -c "print('%.6g' % ($l / $g))")
    got=$(awk '$1 == "\"reduction\"" { print $3 }' "$tmp/p/cycles.dat")
    t "bars are normalised to the baseline (reduction lrr/gto $want, got $got) with a gmean" \
      '[ "$got" = "$want" ] && grep -q "^\"gmean\" 1 " "$tmp/p/cycles.dat"'
else
    skip "bars: PNG and SVG written" "gnuplot is not installed (apt-get install gnuplot-nox)"
    skip "bars are normalised to the baseline" "gnuplot is not installed"
fi
exit $fail
