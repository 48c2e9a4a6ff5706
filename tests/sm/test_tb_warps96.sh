#!/bin/sh
# 96 warp slots and 48 CTA slots per SM (TAP): the resource-sharing spec's Table 3.2 SM (3072
# threads) runs workloads on tb-sm, tb-subcore and tb-gpu, checked against their CPU references, with
# more than 64 warps resident (the SM's warp masks are bitsets); 48 two-warp CTAs fill one SM and
# %nwarpid reads 96; gpusc-occupancy agrees.
tb="$top_builddir/testbench/tb-sm"
sc="$top_builddir/testbench/tb-subcore"
gp="$top_builddir/testbench/tb-gpu"
occ="$top_builddir/tools/gpusc-occupancy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
# name pattern... -- command...: the command passes and prints every pattern
pass() {
    name=$1
    shift
    pats=""
    while [ "$1" != "--" ]; do
        pats="$pats
$1"
        shift
    done
    shift
    n=$((n + 1))
    if "$@" >"$tmp/out" 2>"$tmp/err" && echo "$pats" | sed 1d | while read -r p; do
        grep -q -- "$p" "$tmp/out" || exit 1
    done; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        sed 's/^/# /' "$tmp/err" | head
        grep -E "occupancy|resident|PASS|FAIL" "$tmp/out" | sed 's/^/# /'
        fail=1
    fi
}
W="--set sm.warps=96 --set sm.threads=3072 --set sm.ctas=48"
echo "1..7"
# vecadd: 4-warp CTAs, 24 resident (96 warps); the average is above 16 CTAs = 64 warps
pass "tb-sm vecadd on 96 warps: 24 CTAs resident" "ctas 24 limit threads" "tb-sm: vecadd: PASS" \
    "resident_ctas_per_sm *\(1[7-9]\|2[0-4]\)\." -- "$tb" --no-trace --workload vecadd $W
pass "tb-sm hotspot on the rs-table3.2 preset (96 warps)" "ctas 12 limit registers" "tb-sm: hotspot: PASS" -- \
    "$tb" --no-trace --workload hotspot --size default --preset rs-table3.2 --set sm.smem_bytes=49152
pass "tb-subcore vecadd on 96 warps" "ctas 24 limit threads" "tb-subcore: vecadd: PASS" -- \
    "$sc" --no-trace --workload vecadd --set subcore_sm.warps=96 --set subcore_sm.threads=3072 \
    --set subcore_sm.ctas=48
pass "tb-gpu reduction on the rs-table3.2 preset" "ctas 12 limit threads" "tb-gpu: reduction: PASS" -- \
    "$gp" --no-trace --workload reduction --preset rs-table3.2 --set gpu.sms=2
pass "48 two-warp CTAs resident, %nwarpid 96" "max_ctas_per_sm *48 " "ctas 48 limit" -- \
    "$tb" --no-trace $W --ptx "$top_srcdir/tests/sm/ptx/nwarpid.ptx" --entry nwarpid --grid 96 --block 64 \
    --arg out:"$tmp/nw.bin":8
n=$((n + 1))
if [ "$(od -An -tu4 -v "$tmp/nw.bin" | awk '{ $1 = $1; print }')" = "96 96" ]; then
    echo "ok $n - %nwarpid reads 96"
else
    echo "not ok $n - %nwarpid reads 96"
    fail=1
fi
pass "gpusc-occupancy: 48 CTA slots" "ctas 48 limit threads waste-registers 53248 waste-smem 16384" -- \
    "$occ" --preset rs-table3.2 --set sm.ctas=48 -t 64 -r 4
exit $fail
