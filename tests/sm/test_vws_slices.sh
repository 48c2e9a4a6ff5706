#!/bin/sh
# Lane slices (sm.slicing=warp, docs/vws.md "Lane slices"), end to end on tb-vws with 4-thread warps.
# independent.ptx on 8 warps of 4 threads (one CTA of 32 threads: warp w on slice w), every warp 32
# (indep32) or 64 (indep64) independent SP instructions; the I-cache is one line with a 1-cycle fill.
# T(indep64) - T(indep32), the cost of 256 more warp instructions:
#  - sliced, with the ganging unit (i-vws): the 8 warps are one gang; one gang fetch (one I-cache
#    access) fills the 8 I-buffers with 2 instructions each; the ReadyMask of the cycle lets the gang
#    issue every cycle, each member on its own slice's collectors and SP pipes: 8 per cycle, 32;
#  - the same with the registered ReadyMask (gang_unit.ready=registered): every other cycle, 64;
#  - sliced, no ganging unit: every slice fetches for itself through 2 I-cache ports of 2 instructions
#    each (straight-line code misses the L0s): 4 per cycle, 64;
#  - unsliced (sm.slicing=none): the one execution side's 2 SP pipes take 2 per cycle, 128.
# In the sliced i-vws run the issue log shows warps 0 and 1 (slices 0 and 1) issuing in the same cycle
# in every cycle any warp issues, and each slice's units execute its warp's instructions (units0 and
# units1 count the same SP operations). A memory workload (vecadd) merges the slices' same-cycle
# accesses (ldst.slice_merged) and passes its output check; nw and nbody pass with gangs (a gang fetch
# that waits on an I-cache fill).
set -u
TB="${top_builddir:-.}/testbench/tb-vws"
ptx="${top_srcdir:-.}/tests/sm/ptx/independent.ptx"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
check() { # name expected got
    n=$((n + 1))
    if [ "$2" = "$3" ]; then echo "ok $n - $1 ($3)"; else echo "not ok $n - $1: expected $2, got $3"; cat "$T/err"; fail=1; fi
}
base="--no-trace --no-progress --set fetch.icache_line=1024 --set fetch.icache_miss_latency=1 --warp-size 4"
cycles() { # prints the cycle count of a run (the summary line), or nothing on failure
    "$TB" $base "$@" 2>"$T/err" | sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p'
}
delta() { # the cycles of indep64 minus indep32 under the given options
    a=$(cycles --ptx "$ptx" --entry indep32 --grid 1 --block 32 "$@")
    b=$(cycles --ptx "$ptx" --entry indep64 --grid 1 --block 32 "$@")
    echo $((b - a))
}
stat() { # json path name: the value of statistic `name` of instance `path`
    python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
print(next(i['stats'][sys.argv[3]]['value'] for i in d['instances'] if i['path']==sys.argv[2]))" "$@" 2>>"$T/err"
}
echo "1..10"
check "sliced, i-vws: 8 slices issue a gang every cycle (256 more cost 32)" 32 "$(delta --vws i-vws)"
check "sliced, i-vws, registered ReadyMask: every other cycle (64)" 64 \
    "$(delta --vws i-vws --set gang_unit.ready=registered)"
check "sliced, no ganging: 2 I-cache ports of 2 instructions (64)" 64 "$(delta)"
check "unsliced: the 32-wide SM's 2 SP pipes (128)" 128 "$(delta --set sm.slicing=none)"

"$TB" $base --vws i-vws --ptx "$ptx" --entry indep64 --grid 1 --block 32 --set issue.log="$T/log" \
    --stats-json "$T/s.json" >"$T/out" 2>"$T/err"
# cycles in which warp 0 issues / in which warps 0 and 1 both issue
w0=$(awk '$6 == 0' "$T/log" | wc -l)
both=$(awk '$6 == 0 { a[$1] = 1 } $6 == 1 { b[$1] = 1 } END { n = 0; for (c in a) if (c in b) n++; print n }' "$T/log")
check "warps 0 and 1 (slices 0 and 1) issue in the same cycle, every time" "$w0" "$both"
movs=$(awk '$6 == 0 && $9 == "mov"' "$T/log" | wc -l)
check "warp 0 issues its movs in consecutive cycles (no ReadyMask bubble)" "$movs" \
    "$(awk '$6 == 0 && $9 == "mov" { if (!f) f = $1; l = $1 } END { print l - f + 1 }' "$T/log")"
u0=$(stat "$T/s.json" tb.sm0.units0 sp_ops)
u1=$(stat "$T/s.json" tb.sm0.units1 sp_ops)
check "slice 1's units execute its warp's SP operations as slice 0's do" "$u0" "${u1:-none}"

"$TB" --no-trace --no-progress --warp-size 4 --workload vecadd --size tiny --stats-json "$T/v.json" \
    >"$T/out" 2>"$T/err"
m=$(stat "$T/v.json" tb.sm0.ldst slice_merged)
if grep -q "tb-vws: vecadd: PASS" "$T/out" && [ "${m:-0}" -gt 0 ]; then
    n=$((n + 1)); echo "ok $n - vecadd passes with the slices' same-cycle accesses merged ($m instructions)"
else
    n=$((n + 1)); echo "not ok $n - vecadd merged accesses (${m:-none})"; tail -3 "$T/out"; fail=1
fi
# A gang waiting for an I-cache fill wakes the fetch when the fill arrives (nw and nbody hung before).
for w in nw nbody; do
    n=$((n + 1))
    if "$TB" --no-trace --no-progress --warp-size 4 --vws i-vws --workload $w --size tiny >"$T/out" 2>&1 &&
        grep -q "tb-vws: $w: PASS" "$T/out"; then
        echo "ok $n - $w passes under i-vws on the sliced SM"
    else
        echo "not ok $n - $w under i-vws on the sliced SM"; grep gpusc "$T/out" | head -2; fail=1
    fi
done
exit $fail
