#!/bin/sh
# tb-ccws's per-load L1D statistics (docs/ccws.md, "Per-load statistics"): the directed kernel
# tests/sm/ptx/l1pc.ptx gives each of its four loads the counts its comment derives; on spmv the
# per-load counts add up to the SM's L1D hits, misses and merges and to the VTA's hits under ccws, the
# intra-/inter-warp split to the daws block's (which keeps the lines' warps itself) under
# daws-detected; the figures are in --stats-json; --belady replays the load stream: Belady's misses
# are at most LRU's, and on the directed kernel both are the 4 compulsory misses.
set -u
TB="${top_builddir:-.}/testbench/tb-ccws"
PTX="${top_srcdir:-.}/tests/sm/ptx"
. "$top_srcdir/tests/tap.sh"
# FIELD of every per-load line, in PC order
col() { awk -v f="$1" '/^l1pc: .*: loads / { for (i = 3; i < NF; i++) if ($i == f) { printf "%s ", $(i + 1); break } }' "$2"; }
sum() { col "$1" "$2" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }'; }

head -c 4096 /dev/zero > "$tmp/zeros"
$TB --sched gto --no-trace --belady --ptx "$PTX/l1pc.ptx" --entry l1pc --grid 1 --block 64 \
    --arg "in:$tmp/zeros" --stats-json "$tmp/d.json" > "$tmp/d" 2>&1
expect() { # name field expected
    got=$(col "$2" "$tmp/d")
    if [ "$got" = "$3" ]; then ok "directed: $1 per load: $got"; else no "directed: $1: '$got', expected '$3'"; cat "$tmp/d"; fi
}
expect "loads" loads "2 2 2 2 "
expect "misses" misses "4 0 0 0 "
expect "hits" hits "0 4 4 4 "
expect "intra-warp hits" intra-warp "0 4 4 2 "
expect "intra-thread hits" intra-thread "0 4 0 2 "
expect "inter-warp hits" inter-warp "0 0 0 2 "
expect "lanes" lanes/load "32.00 32.00 32.00 32.00 "
if grep -q '^l1pc: offline replay (.*): 16 accesses, Belady 4 misses (0.2500), LRU 4 misses' "$tmp/d"; then
    ok "directed: the replay misses the 4 compulsory lines under Belady and LRU"
else
    no "directed replay: $(grep 'offline replay' "$tmp/d")"
fi
if grep -q '"l1pc.l1pc.[0-9]*.inter_warp_hits": {"value": 2' "$tmp/d.json" && grep -q '"l1pc.belady_misses"' "$tmp/d.json"; then
    ok "the per-load figures and the replay are in --stats-json"
else
    no "--stats-json lacks the per-load figures"
fi

# the loop-trip reuse classes and the lane-activity histogram on tests/sm/ptx/trip.ptx (its comment
# derives the counts)
$TB --sched gto --no-trace --pc-stats --ptx "$PTX/trip.ptx" --entry trip --grid 1 --block 32 \
    --arg "in:$tmp/zeros" --stats-json "$tmp/t.json" > "$tmp/t" 2>&1
got="$(col this-trip "$tmp/t")/$(col last-trip "$tmp/t")"
if [ "$got" = "0 4 0 0 /3 0 0 0 " ]; then ok "trip: per load this-trip / last-trip: $got"; else no "trip per load: '$got'"; cat "$tmp/t"; fi
if grep -q '^l1pc: loop-trip reuse of 13 load transactions: this trip 4 (0.3077), last trip 3 (0.2308), other 6 (0.4615)$' "$tmp/t"; then
    ok "trip: 13 transactions, this trip 4, last trip 3, other 6"
else
    no "trip: $(grep 'loop-trip' "$tmp/t")"
fi
if grep -q '^l1pc: lane activity of 65 instructions: 30.65 active lanes; W\[0:4\] 2 W\[4:8\] 1 W\[8:12\] 0 W\[12:16\] 0 W\[16:20\] 0 W\[20:24\] 0 W\[24:28\] 0 W\[28:32\] 62$' "$tmp/t"; then
    ok "trip: lane activity 65 instructions, W[0:4] 2, W[4:8] 1, W[28:32] 62, 30.65 lanes"
else
    no "trip lane activity: $(grep 'lane activity' "$tmp/t")"
fi
python3 - "$tmp/t.json" > "$tmp/pyout" 2>&1 <<'PY'
import json, sys
js = json.load(open(sys.argv[1]))
st = {i["path"] + "." + k: v["value"] for i in js["instances"] for k, v in i["stats"].items()}
st.update({k: v["value"] for k, v in js["derived"].items()})
want = {"tb.sm0.l1pc.trip_this": 4, "tb.sm0.l1pc.trip_last": 3, "tb.sm0.l1pc.trip_other": 6,
        "tb.sm0.l1pc.insts": 65, "tb.sm0.l1pc.active_lanes": 1992, "tb.sm0.l1pc.lanes_0_4": 2,
        "tb.sm0.l1pc.lanes_4_8": 1, "tb.sm0.l1pc.lanes_28_32": 62, "l1pc.trip.15.this_trip": 4,
        "l1pc.trip.12.last_trip": 3}
bad = {k: st.get(k) for k in want if st.get(k) != want[k]}
assert not bad, bad
PY
if [ $? -eq 0 ]; then ok "trip: the classes and the histogram are in --stats-json"; else no "trip --stats-json: $(cat "$tmp/pyout")"; fi

# spmv under ccws: the per-load sums are the SM's totals
$TB --workload spmv --size tiny --no-trace --sched ccws --belady > "$tmp/c" 2>&1
set -- $(sed -n 's/^ccws: L1D hits \([0-9]*\), misses \([0-9]*\), merged \([0-9]*\),.*/\1 \2 \3/p' "$tmp/c")
vh=$(sed -n 's/^ccws: VTA hits \([0-9]*\),.*/\1/p' "$tmp/c")
got="$(sum hits "$tmp/c") $(sum misses "$tmp/c") $(sum merged "$tmp/c") $(sum vta "$tmp/c")"
if [ "$got" = "$1 $2 $3 $vh" ] && [ "${vh:-0}" -gt 0 ]; then
    ok "spmv ccws: per-load hits, misses, merges, VTA hits add up to the SM's ($got)"
else
    no "spmv ccws: per-load sums '$got' vs the SM's '$1 $2 $3 $vh'"
fi
ia=$(sum intra-warp "$tmp/c"); ie=$(sum inter-warp "$tmp/c")
if [ $((ia + ie)) -eq "$1" ] && [ "$(sum points "$tmp/c")" -gt 0 ]; then ok "spmv ccws: intra + inter = hits, score points attributed"; else no "spmv ccws: intra $ia + inter $ie vs $1"; fi
tr=$(sed -n 's/^l1pc: loop-trip reuse of \([0-9]*\) load transactions: this trip \([0-9]*\) .*last trip \([0-9]*\) .*other \([0-9]*\) .*/\1 \2 \3 \4/p' "$tmp/c")
set -- $tr
if [ "${1:-0}" -eq $(($(sum hits "$tmp/c") + $(sum misses "$tmp/c") + $(sum merged "$tmp/c"))) ] && [ "${3:-0}" -gt 0 ] &&
    [ "$(($2 + $3 + $4))" -eq "$1" ]; then
    ok "spmv ccws: the loop-trip classes add up to the L1D's transactions ($tr)"
else
    no "spmv ccws: loop-trip '$tr'"
fi
wi=$(sed -n 's/^tb.sm0.issue.warp_instrs *\([0-9]*\).*/\1/p' "$tmp/c")
ti=$(sed -n 's/^tb.sm0.issue.thread_instrs *\([0-9]*\).*/\1/p' "$tmp/c")
la=$(sed -n 's/^l1pc: lane activity of \([0-9]*\) instructions: .*W\[28:32\] \([0-9]*\)$/\1/p' "$tmp/c")
al=$(sed -n 's/^tb.sm0.l1pc.active_lanes *\([0-9]*\).*/\1/p' "$tmp/c")
if [ -n "$wi" ] && [ "$la" = "$wi" ] && [ "$al" = "$ti" ]; then
    ok "spmv ccws: the histogram counts issue's instructions ($wi) and lanes ($ti)"
else
    no "spmv ccws: histogram $la / $al against issue $wi / $ti"
fi
set -- $(sed -n 's/^l1pc: offline replay .*Belady \([0-9]*\) misses.*LRU \([0-9]*\) misses.*/\1 \2/p' "$tmp/c")
if [ "${1:-0}" -gt 0 ] && [ "$1" -lt "${2:-0}" ]; then ok "spmv: Belady $1 misses < LRU $2"; else no "spmv replay: Belady '${1:-}' LRU '${2:-}'"; fi

# daws-detected: the intra-/inter-warp split is the daws block's own count
$TB --workload spmv --size tiny --no-trace --sched daws-detected --pc-stats > "$tmp/e" 2>&1
set -- $(sed -n 's/^daws: L1D hits intra-warp \([0-9]*\), inter-warp \([0-9]*\)/\1 \2/p' "$tmp/e")
got="$(sum intra-warp "$tmp/e") $(sum inter-warp "$tmp/e")"
if [ "$got" = "${1:-x} ${2:-x}" ] && [ "${2:-0}" -gt 0 ]; then ok "daws-detected: the intra-/inter-warp split is the daws block's ($got)"; else no "daws-detected: '$got' vs daws '${1:-} ${2:-}'"; fi

# off unless asked: no l1pc block, no per-load line, the run's statistics otherwise the same
$TB --workload spmv --size tiny --no-trace --sched ccws --stats-json "$tmp/off.json" > "$tmp/off" 2>&1
$TB --workload spmv --size tiny --no-trace --sched ccws --pc-stats --stats-json "$tmp/on.json" > /dev/null 2>&1
python3 - "$tmp/off.json" "$tmp/on.json" > "$tmp/pyout" 2>&1 <<'PY'
import json, sys
def flat(p):
    js = json.load(open(p)); d = {"cycles": js["cycles"]}
    for i in js["instances"]:
        for k, v in i["stats"].items(): d[i["path"] + "." + k] = v["value"]
    for k, v in js["derived"].items(): d[k] = v["value"]
    return d
a, b = flat(sys.argv[1]), flat(sys.argv[2])
speed = ("tb.cycles_per_second", "tb.activations_per_cycle")
assert not any(k.startswith("l1pc") or ".l1pc." in k for k in a), "l1pc statistics without --pc-stats"
diff = [k for k in a if k not in speed and a[k] != b.get(k)]
assert not diff, diff
PY
if [ $? -eq 0 ] && ! grep -q '^l1pc:' "$tmp/off"; then ok "without --pc-stats: no l1pc block; with it the other statistics are the same"; else no "--pc-stats off/on: $(cat "$tmp/pyout")"; fi

echo "1..$n"
exit $fail
