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
