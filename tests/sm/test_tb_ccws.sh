#!/bin/sh
# tb-ccws end to end (docs/ccws.md): a workload passes its output check under every scheduler; the
# ccws run binds the victim tag array and the scoring (VTA hits and struck loads reported, warps
# barred on a cache-sensitive kernel); swl:1 issues from one warp at a time; a bad --sched is a user
# error; the VCD holds the scores, the cutoff and can_load.
set -u
TB="${top_builddir:-.}/testbench/tb-ccws"
. "$top_srcdir/tests/tap.sh"

for s in lrr gto oldest 2lvl swl:1 swl:4 ccws; do
    if $TB --workload kmeans --size tiny --no-trace --sched "$s" > "$tmp/out" 2>&1 &&
        grep -q "tb-ccws: kmeans: PASS" "$tmp/out" && grep -q "ccws: scheduler $s" "$tmp/out"; then
        ok "kmeans passes under $s"
    else
        no "kmeans under $s"; cat "$tmp/out"
    fi
done

# spmv (one row per thread, rows of 1..31 entries: each thread walks its own lines) is cache-
# sensitive: under ccws the VTA detects lost locality, loads are struck, the L1 hit rate rises and the
# run is shorter than under gto (tiny: 25716 -> 19465 cycles, hit rate 0.751 -> 0.937 when measured)
$TB --workload spmv --size tiny --no-trace --sched ccws --stats-json "$tmp/s.json" > "$tmp/out" 2>&1
$TB --workload spmv --size tiny --no-trace --sched gto > "$tmp/gto" 2>&1
vh=$(sed -n 's/^ccws: VTA hits \([0-9]*\), loads struck \([0-9]*\).*/\1 \2/p' "$tmp/out")
set -- $vh
if [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ]; then ok "ccws: VTA hits ($1) and loads struck ($2)"; else no "ccws: no VTA hit or strike: $vh"; cat "$tmp/out"; fi
if grep -q '"tb.sm0.vta"' "$tmp/s.json" && grep -q '"tb.sm0.ccws"' "$tmp/s.json"; then ok "the blocks' statistics are dumped"; else no "no vta/ccws statistics"; fi
cc=$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$tmp/out")
cg=$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$tmp/gto")
hc=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$tmp/out")
hg=$(sed -n 's/.*hit rate \([0-9.]*\)$/\1/p' "$tmp/gto")
if [ "${cc:-0}" -gt 0 ] && [ "$cc" -lt "${cg:-0}" ] && awk -v a="$hc" -v b="$hg" 'BEGIN { exit !(a + 0 > b + 0) }'; then
    ok "spmv: ccws $cc cycles (hit rate $hc) < gto $cg ($hg)"
else
    no "spmv: ccws $cc cycles (hit rate $hc) vs gto $cg ($hg)"
fi
if grep -q "tb-ccws: spmv: PASS" "$tmp/out"; then ok "spmv passes under ccws"; else no "spmv under ccws"; fi

# swl:1 with the greedy policy: never more than one warp's loads in flight at the L1 -> hit rate
# at least gto's
h1=$($TB --workload kmeans --size tiny --no-trace --sched swl:1 | sed -n 's/.*hit rate \([0-9.]*\)$/\1/p')
hg=$($TB --workload kmeans --size tiny --no-trace --sched gto | sed -n 's/.*hit rate \([0-9.]*\)$/\1/p')
if awk -v a="$h1" -v b="$hg" 'BEGIN { exit !(a + 0 > b + 0) }'; then ok "swl:1 hit rate $h1 > gto $hg"; else no "swl:1 hit rate $h1 vs gto $hg"; fi

# The mechanism's decisions do not depend on the order of activations in a cycle, on sleeping, or on
# tracing: --check=shuffle, --check=awake and a traced run give the untraced run's summary
ref=$($TB --workload spmv --size tiny --no-trace --sched ccws | grep '^ccws: VTA\|^summary' | sed 's/, [0-9]* cycles\/s.*//')
for m in "--check=shuffle --no-trace" "--check=awake --no-trace" "--trace=tb.sm0.ccws --vcd $tmp/x.vcd"; do
    got=$($TB --workload spmv --size tiny --sched ccws $m | grep '^ccws: VTA\|^summary' | sed 's/, [0-9]* cycles\/s.*//')
    if [ "$got" = "$ref" ]; then ok "ccws: $m gives the same run"; else no "ccws: $m differs: $got vs $ref"; fi
done

# ... and every statistic of a traced run is the untraced run's (the simulator's activations and speed
# aside), the per-load figures included
$TB --workload spmv --size tiny --sched ccws --pc-stats --no-trace --stats-json "$tmp/u.json" > /dev/null 2>&1
$TB --workload spmv --size tiny --sched ccws --pc-stats --trace=tb.sm0.ccws --vcd "$tmp/t.vcd" --stats-json "$tmp/t.json" > /dev/null 2>&1
if d=$(python3 "$top_srcdir/tests/sm/stats_same.py" "$tmp/u.json" "$tmp/t.json") && grep -q '"l1pc\.' "$tmp/u.json"; then
    ok "ccws: traced and untraced runs give the same statistics"
else
    no "ccws: traced and untraced statistics differ: $d"
fi

# sgemm has barriers: swl:1 still finishes (a warp at a barrier gives its place to the next)
if $TB --workload sgemm --size tiny --no-trace --sched swl:1 --watchdog 20000 | grep -q "tb-ccws: sgemm: PASS"; then
    ok "swl:1 gets past barriers (sgemm)"
else
    no "swl:1 on sgemm"
fi

if $TB --workload vecadd --size tiny --no-trace --sched bogus > "$tmp/out" 2>&1; then no "a bad --sched is refused"; else
    if grep -q "^gpusc: .*unknown scheduler 'bogus'" "$tmp/out"; then ok "a bad --sched is a user error"; else no "bad --sched message"; cat "$tmp/out"; fi
fi

# The run waveforms/ccws.gtkw is a view of (tests/tools/test_curated_views.sh checks its signals)
(cd "$tmp" && $TB --workload spmv --size tiny --sched ccws > out 2>&1)
# scores rise above the base and a warp is barred at some point of the run
if awk '/\$var .* lls_[0-9]+ / { id[$4] = 1 } /^b[01]+ / && ($2 in id) { v = 0; s = substr($1, 2); for (i = 1; i <= length(s); i++) v = v * 2 + substr(s, i, 1); if (v > 100) hi = 1 } END { exit !hi }' "$tmp/waveforms/tb-ccws.vcd"; then
    ok "VCD: a score rises above the base"
else
    no "VCD: no score above the base"
fi

echo "1..$n"
exit $fail
