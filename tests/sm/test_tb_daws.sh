#!/bin/sh
# tb-ccws --sched daws end to end (docs/ccws.md, "DAWS"): the profiling run writes a load profile,
# the classification pass turns it into the static load classification table, the daws block throttles
# spmv (loads struck, a higher L1D hit rate than gto) and every workload tried passes its output check;
# an explicit --daws-profile gives the same run as the profile tb-ccws makes itself; the decisions do
# not depend on activation order, sleeping or tracing; a bad profile and misplaced options are user
# errors; 2lvl-lrr runs; the curated view's DAWS signals are traced and a warp is barred in the VCD.
set -u
TB="${top_builddir:-.}/testbench/tb-ccws"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
summ() { grep '^summary\|^daws: [0-9]\|^daws: Eff' | sed 's/, [0-9]* cycles\/s.*//'; }

# the profile: spmv's loads in loops, every one executed by more than two lanes
$TB --workload spmv --size tiny --no-trace --sched daws-profile --daws-profile-out "$T/p.prof" > "$T/out" 2>&1
if grep -q "tb-ccws: spmv: PASS" "$T/out" && [ "$(grep -c '^load ' "$T/p.prof")" -ge 10 ]; then
    ok "daws-profile writes a profile ($(grep -c '^load ' "$T/p.prof") loads)"
else
    bad "daws-profile"; cat "$T/out"
fi

# profiled DAWS on spmv: loads classified and struck, hit rate above gto's, output checked
$TB --workload spmv --size tiny --no-trace --sched daws --stats-json "$T/s.json" > "$T/out" 2>&1
$TB --workload spmv --size tiny --no-trace --sched gto > "$T/gto" 2>&1
cl=$(sed -n 's/^daws: [0-9]* loops, \([0-9]*\) static loads classified.*/\1/p' "$T/out")
st=$(sed -n 's/^daws: .*loads struck \([0-9]*\),.*/\1/p' "$T/out")
hd=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$T/out")
hg=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$T/gto")
if [ "${cl:-0}" -gt 0 ] && [ "${st:-0}" -gt 0 ]; then ok "daws: $cl loads classified, $st struck"; else bad "daws: classified '$cl' struck '$st'"; cat "$T/out"; fi
if awk -v a="$hd" -v b="$hg" 'BEGIN { exit !(a + 0 > b + 0.1) }'; then ok "spmv: daws hit rate $hd > gto $hg"; else bad "spmv: daws hit rate $hd vs gto $hg"; fi
if grep -q "tb-ccws: spmv: PASS" "$T/out" && grep -q '"tb.sm0.daws"' "$T/s.json"; then ok "spmv passes under daws, statistics dumped"; else bad "spmv under daws"; fi

# the same profile given explicitly: the same run
ref=$(summ < "$T/out")
got=$($TB --workload spmv --size tiny --no-trace --sched daws --daws-profile "$T/p.prof" | summ)
if [ -n "$ref" ] && [ "$got" = "$ref" ]; then ok "--daws-profile FILE gives the run of the automatic profile"; else bad "--daws-profile: $got vs $ref"; fi
for m in "--check=shuffle --no-trace" "--check=awake --no-trace" "--trace=tb.sm0.daws --vcd $T/x.vcd"; do
    got=$($TB --workload spmv --size tiny --sched daws --daws-profile "$T/p.prof" $m | summ)
    if [ "$got" = "$ref" ]; then ok "daws: $m gives the same run"; else bad "daws: $m differs: $got vs $ref"; fi
done

# A traced run counts what the untraced run counts, every statistic (the simulator's activations and
# speed aside): with a prediction above the L1D (daws.lines=128: oversize cycles; the trace process
# computes the table every cycle and once counted them too), and in detected mode
for s in "daws --set daws.lines=128" daws-detected; do
    $TB --workload spmv --size tiny --sched $s --no-trace --stats-json "$T/u.json" > /dev/null 2>&1
    $TB --workload spmv --size tiny --sched $s --trace=tb.sm0.daws --vcd "$T/t.vcd" --stats-json "$T/t.json" > /dev/null 2>&1
    if d=$(python3 "$top_srcdir/tests/sm/stats_same.py" "$T/u.json" "$T/t.json") && [ -s "$T/t.vcd" ]; then
        ok "$s: traced and untraced runs give the same statistics"
    else
        bad "$s: traced and untraced statistics differ: $d"
    fi
    case $s in *lines=128*)
        ov=$(grep -o '"oversize_cycles": {"value": [0-9]*' "$T/u.json" | sed 's/.* //')
        if [ "${ov:-0}" -gt 0 ]; then ok "daws.lines=128: $ov oversize cycles"; else bad "no oversize cycle: '$ov'"; fi ;;
    esac
done

# Detected-DAWS on spmv: sampling warps classify loads at run time (no profile), VTA hits feed the
# locality counters, loads are struck, the hit rate rises above gto's and the run is shorter
$TB --workload spmv --size tiny --no-trace --sched daws-detected > "$T/det" 2>&1
cl=$(sed -n 's/^daws: [0-9]* loops, \([0-9]*\) static loads classified.*/\1/p' "$T/det")
st=$(sed -n 's/^daws: .*loads struck \([0-9]*\),.*/\1/p' "$T/det")
hd=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$T/det")
cd_=$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$T/det")
cg=$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$T/gto")
if grep -q "tb-ccws: spmv: PASS" "$T/det" && [ "${cl:-0}" -gt 0 ] && [ "${st:-0}" -gt 0 ] && grep -q '^daws: VTA hits [1-9]' "$T/det"; then
    ok "daws-detected: $cl loads classified at run time, $st struck"
else
    bad "daws-detected: classified '$cl' struck '$st'"; cat "$T/det"
fi
if awk -v a="$hd" -v b="$hg" 'BEGIN { exit !(a + 0 > b + 0.1) }' && [ "${cd_:-0}" -gt 0 ] && [ "$cd_" -lt "${cg:-0}" ]; then
    ok "spmv: daws-detected $cd_ cycles (hit rate $hd) < gto $cg ($hg)"
else
    bad "spmv: daws-detected $cd_ cycles (hit rate $hd) vs gto $cg ($hg)"
fi
ref=$(summ < "$T/det")
got=$($TB --workload spmv --size tiny --sched daws-detected --check=shuffle --no-trace | summ)
if [ "$got" = "$ref" ]; then ok "daws-detected: --check=shuffle gives the same run"; else bad "daws-detected shuffle: $got vs $ref"; fi
if grep -q '^daws: L1D hits intra-warp [1-9][0-9]*, inter-warp [1-9]' "$T/det"; then ok "L1D hits split into intra- and inter-warp"; else bad "no intra/inter split"; fi

# other workloads (barriers: sgemm, hotspot) pass under daws, daws-detected and 2lvl-lrr
for w in kmeans bfs sgemm hotspot pathfinder; do
    for s in daws daws-detected; do
        if $TB --workload $w --size tiny --no-trace --sched $s --watchdog 200000 2>&1 | grep -q "tb-ccws: $w: PASS"; then ok "$w passes under $s"; else bad "$w under $s"; fi
    done
done
if $TB --workload kmeans --size tiny --no-trace --sched 2lvl-lrr | grep -q "tb-ccws: kmeans: PASS"; then ok "kmeans passes under 2lvl-lrr"; else bad "kmeans under 2lvl-lrr"; fi

# user errors
printf 'load 0 99999 1 0 1 0\n' > "$T/bad.prof"
if $TB --workload spmv --size tiny --no-trace --sched daws --daws-profile "$T/bad.prof" > "$T/out" 2>&1; then bad "a bad profile is refused"; else
    if grep -q "^gpusc: .*bad.prof: line 1" "$T/out"; then ok "a bad profile is a user error"; else bad "bad profile message"; cat "$T/out"; fi
fi
if $TB --workload spmv --size tiny --no-trace --sched gto --daws-profile "$T/p.prof" > "$T/out" 2>&1; then bad "--daws-profile without daws is refused"; else
    if grep -q "^gpusc: .*--daws-profile FILE goes with --sched daws" "$T/out"; then ok "--daws-profile without daws is a user error"; else bad "misplaced --daws-profile message"; cat "$T/out"; fi
fi

# The run waveforms/daws.gtkw is a view of (tests/tools/test_curated_views.sh checks its signals): a warp is barred
(cd "$T" && $TB --workload spmv --size tiny --sched daws > out 2>&1)
if awk '/\$scope module daws / { in_d = 1 } /\$var .* barred / && in_d { id = $4 } /^b[01]+ / && $2 == id && $1 ~ /1/ { hit = 1 } END { exit !hit }' "$T/waveforms/tb-ccws.vcd"; then
    ok "VCD: a warp is barred"
else
    bad "VCD: no warp barred"
fi

echo "1..$n"
exit $fail
