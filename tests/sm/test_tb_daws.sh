#!/bin/sh
# tb-ccws --sched daws end to end (docs/ccws.md, "DAWS"): the profiling run writes a load profile,
# the classification pass turns it into the static load classification table, the daws block throttles
# spmv (loads struck, a higher L1D hit rate than gto) and every workload tried passes its output check;
# an explicit --daws-profile gives the same run as the profile tb-ccws makes itself; the decisions do
# not depend on activation order, sleeping or tracing; a bad profile and misplaced options are user
# errors; 2lvl-lrr runs; the curated view's DAWS signals are traced and a warp is barred in the VCD.
set -u
TB="${top_builddir:-.}/testbench/tb-ccws"
. "$top_srcdir/tests/tap.sh"
summ() { grep '^summary\|^daws: [0-9]\|^daws: Eff' | sed 's/, [0-9]* cycles\/s.*//'; }

# the profile: spmv's loads in loops, every one executed by more than two lanes
$TB --workload spmv --size tiny --no-trace --sched daws-profile --daws-profile-out "$tmp/p.prof" > "$tmp/out" 2>&1
if grep -q "tb-ccws: spmv: PASS" "$tmp/out" && [ "$(grep -c '^load ' "$tmp/p.prof")" -ge 10 ]; then
    ok "daws-profile writes a profile ($(grep -c '^load ' "$tmp/p.prof") loads)"
else
    no "daws-profile"; cat "$tmp/out"
fi

# profiled DAWS on spmv: loads classified and struck, hit rate above gto's, output checked
$TB --workload spmv --size tiny --no-trace --sched daws --stats-json "$tmp/s.json" > "$tmp/out" 2>&1
$TB --workload spmv --size tiny --no-trace --sched gto > "$tmp/gto" 2>&1
cl=$(sed -n 's/^daws: [0-9]* loops, \([0-9]*\) static loads classified.*/\1/p' "$tmp/out")
st=$(sed -n 's/^daws: .*loads struck \([0-9]*\),.*/\1/p' "$tmp/out")
hd=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$tmp/out")
hg=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$tmp/gto")
if [ "${cl:-0}" -gt 0 ] && [ "${st:-0}" -gt 0 ]; then ok "daws: $cl loads classified, $st struck"; else no "daws: classified '$cl' struck '$st'"; cat "$tmp/out"; fi
if awk -v a="$hd" -v b="$hg" 'BEGIN { exit !(a + 0 > b + 0.1) }'; then ok "spmv: daws hit rate $hd > gto $hg"; else no "spmv: daws hit rate $hd vs gto $hg"; fi
if grep -q "tb-ccws: spmv: PASS" "$tmp/out" && grep -q '"tb.sm0.daws"' "$tmp/s.json"; then ok "spmv passes under daws, statistics dumped"; else no "spmv under daws"; fi

# the same profile given explicitly: the same run
ref=$(summ < "$tmp/out")
got=$($TB --workload spmv --size tiny --no-trace --sched daws --daws-profile "$tmp/p.prof" | summ)
if [ -n "$ref" ] && [ "$got" = "$ref" ]; then ok "--daws-profile FILE gives the run of the automatic profile"; else no "--daws-profile: $got vs $ref"; fi
for m in "--check=shuffle --no-trace" "--check=awake --no-trace" "--trace=tb.sm0.daws --vcd $tmp/x.vcd"; do
    got=$($TB --workload spmv --size tiny --sched daws --daws-profile "$tmp/p.prof" $m | summ)
    if [ "$got" = "$ref" ]; then ok "daws: $m gives the same run"; else no "daws: $m differs: $got vs $ref"; fi
done

# A traced run counts what the untraced run counts, every statistic (the simulator's activations and
# speed aside): with a prediction above the L1D (daws.lines=128: oversize cycles; the trace process
# computes the table every cycle and once counted them too), and in detected mode
for s in "daws --set daws.lines=128" daws-detected; do
    $TB --workload spmv --size tiny --sched $s --no-trace --stats-json "$tmp/u.json" > /dev/null 2>&1
    $TB --workload spmv --size tiny --sched $s --trace=tb.sm0.daws --vcd "$tmp/t.vcd" --stats-json "$tmp/t.json" > /dev/null 2>&1
    if d=$(python3 "$top_srcdir/tests/sm/stats_same.py" "$tmp/u.json" "$tmp/t.json") && [ -s "$tmp/t.vcd" ]; then
        ok "$s: traced and untraced runs give the same statistics"
    else
        no "$s: traced and untraced statistics differ: $d"
    fi
    case $s in *lines=128*)
        ov=$(grep -o '"oversize_cycles": {"value": [0-9]*' "$tmp/u.json" | sed 's/.* //')
        if [ "${ov:-0}" -gt 0 ]; then ok "daws.lines=128: $ov oversize cycles"; else no "no oversize cycle: '$ov'"; fi ;;
    esac
done

# Detected-DAWS on spmv: sampling warps classify loads at run time (no profile), VTA hits feed the
# locality counters, loads are struck, the hit rate rises above gto's and the run is shorter
$TB --workload spmv --size tiny --no-trace --sched daws-detected > "$tmp/det" 2>&1
cl=$(sed -n 's/^daws: [0-9]* loops, \([0-9]*\) static loads classified.*/\1/p' "$tmp/det")
st=$(sed -n 's/^daws: .*loads struck \([0-9]*\),.*/\1/p' "$tmp/det")
hd=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$tmp/det")
cd_=$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$tmp/det")
cg=$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$tmp/gto")
if grep -q "tb-ccws: spmv: PASS" "$tmp/det" && [ "${cl:-0}" -gt 0 ] && [ "${st:-0}" -gt 0 ] && grep -q '^daws: VTA hits [1-9]' "$tmp/det"; then
    ok "daws-detected: $cl loads classified at run time, $st struck"
else
    no "daws-detected: classified '$cl' struck '$st'"; cat "$tmp/det"
fi
if awk -v a="$hd" -v b="$hg" 'BEGIN { exit !(a + 0 > b + 0.1) }' && [ "${cd_:-0}" -gt 0 ] && [ "$cd_" -lt "${cg:-0}" ]; then
    ok "spmv: daws-detected $cd_ cycles (hit rate $hd) < gto $cg ($hg)"
else
    no "spmv: daws-detected $cd_ cycles (hit rate $hd) vs gto $cg ($hg)"
fi
ref=$(summ < "$tmp/det")
got=$($TB --workload spmv --size tiny --sched daws-detected --check=shuffle --no-trace | summ)
if [ "$got" = "$ref" ]; then ok "daws-detected: --check=shuffle gives the same run"; else no "daws-detected shuffle: $got vs $ref"; fi
if grep -q '^daws: L1D hits intra-warp [1-9][0-9]*, inter-warp [1-9]' "$tmp/det"; then ok "L1D hits split into intra- and inter-warp"; else no "no intra/inter split"; fi

# other workloads (barriers: sgemm, hotspot) pass under daws, daws-detected and 2lvl-lrr
for w in kmeans bfs sgemm hotspot pathfinder; do
    for s in daws daws-detected; do
        if $TB --workload $w --size tiny --no-trace --sched $s --watchdog 200000 2>&1 | grep -q "tb-ccws: $w: PASS"; then ok "$w passes under $s"; else no "$w under $s"; fi
    done
done
if $TB --workload kmeans --size tiny --no-trace --sched 2lvl-lrr | grep -q "tb-ccws: kmeans: PASS"; then ok "kmeans passes under 2lvl-lrr"; else no "kmeans under 2lvl-lrr"; fi

# user errors
printf 'load 0 99999 1 0 1 0\n' > "$tmp/bad.prof"
if $TB --workload spmv --size tiny --no-trace --sched daws --daws-profile "$tmp/bad.prof" > "$tmp/out" 2>&1; then no "a bad profile is refused"; else
    if grep -q "^gpusc: .*bad.prof: line 1" "$tmp/out"; then ok "a bad profile is a user error"; else no "bad profile message"; cat "$tmp/out"; fi
fi
if $TB --workload spmv --size tiny --no-trace --sched gto --daws-profile "$tmp/p.prof" > "$tmp/out" 2>&1; then no "--daws-profile without daws is refused"; else
    if grep -q "^gpusc: .*--daws-profile FILE goes with --sched daws" "$tmp/out"; then ok "--daws-profile without daws is a user error"; else no "misplaced --daws-profile message"; cat "$tmp/out"; fi
fi

# The run waveforms/daws.gtkw is a view of (tests/tools/test_curated_views.sh checks its signals): a warp is barred
(cd "$tmp" && $TB --workload spmv --size tiny --sched daws > out 2>&1)
if awk '/\$scope module daws / { in_d = 1 } /\$var .* barred / && in_d { id = $4 } /^b[01]+ / && $2 == id && $1 ~ /1/ { hit = 1 } END { exit !hit }' "$tmp/waveforms/tb-ccws.vcd"; then
    ok "VCD: a warp is barred"
else
    no "VCD: no warp barred"
fi

echo "1..$n"
exit $fail
