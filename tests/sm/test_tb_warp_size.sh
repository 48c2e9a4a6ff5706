#!/bin/sh
# The SM's warp width (sm.warp_size, docs/vws.md): workloads pass their output check with 16-, 8- and
# 4-thread warps; a narrower warp runs more warp instructions over the same threads; the warp slots
# scale so the SM holds the same threads; kernels written for 32-thread warps (shfl, vote) are refused
# at narrower widths with a message naming the instruction; a width that is not a power of two is a
# user error.
set -u
TB="${top_builddir:-.}/testbench/tb-sm"
. "$top_srcdir/tests/tap.sh"
insts() { sed -n 's/^summary: [a-z0-9]*: [0-9]* cycles, \([0-9]*\) warp instructions.*/\1/p' "$1"; }

for w in spmv sgemm histogram kmeans; do
    $TB --workload $w --size tiny --no-trace --no-progress --set sm.warp_size=32 > "$tmp/32" 2>&1
    prev=$(insts "$tmp/32")
    for ws in 16 8 4; do
        if $TB --workload $w --size tiny --no-trace --no-progress --set sm.warp_size=$ws > "$tmp/out" 2>&1 &&
            grep -q "tb-sm: $w: PASS" "$tmp/out"; then
            ok "$w passes with $ws-thread warps"
        else
            no "$w with $ws-thread warps"; tail -5 "$tmp/out"
        fi
        cur=$(insts "$tmp/out")
        if [ "${cur:-0}" -gt "${prev:-0}" ]; then ok "$w: $ws-thread warps run more warp instructions ($cur > $prev)"; else no "$w: $cur warp instructions at $ws vs $prev"; fi
        prev=$cur
    done
done

# The vws preset (1024 threads, 32 warp slots of 32) holds 256 warps of 4 threads, on 8 lane slices of
# 4 lanes (sm.slicing=warp: one scheduler per slice).
$TB --preset vws --set sm.warp_size=4 --set issue.schedulers=8 --workload vecadd --size tiny --no-trace --no-progress \
    --stats-json "$tmp/s.json" > "$tmp/out" 2>&1
if grep -q "tb-sm: vecadd: PASS" "$tmp/out"; then ok "vws preset, 4-thread warps: vecadd passes"; else no "vws preset ws4"; tail -5 "$tmp/out"; fi

$TB --set sm.warp_size=8 --workload reduction --size tiny --no-trace --no-progress > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^gpusc: .*reduction.ptx:[0-9]*: shfl assumes 32-thread warps: tb-sm refuses it at warp size 8" "$tmp/out"; then
    ok "a shfl kernel is refused at warp size 8"
else
    no "reduction at warp size 8: rc $rc"; cat "$tmp/out"
fi
$TB --set sm.warp_size=12 --workload vecadd --size tiny --no-trace --no-progress > "$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "warp_size = 12: a warp has 32, 16, 8 or 4 threads" "$tmp/out"; then
    ok "warp_size 12 is a user error"
else
    no "warp_size 12: rc $rc"; cat "$tmp/out"
fi
echo "1..$n"
exit $fail
