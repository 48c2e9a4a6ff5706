#!/bin/sh
# gpusc-occupancy (TAP): closed-form cases on the GTX480 (32768 registers, 48 KiB scratchpad, 1536
# threads = 48 warps, 8 CTAs, registers per thread rounded up to a multiple of 4) and on other
# presets, each limiter, and the refusals.
occ="$top_builddir/tools/gpusc-occupancy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
# name expected-line args...
line() {
    name=$1 want=$2
    shift 2
    n=$((n + 1))
    got=$("$occ" "$@" 2>"$tmp/err")
    rc=$?
    if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (exit $rc, got '$got', want '$want')"
        sed 's/^/# /' "$tmp/err"
        fail=1
    fi
}
# name exit-status stderr-pattern args...
refused() {
    name=$1 want=$2 pat=$3
    shift 3
    n=$((n + 1))
    "$occ" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = "$want" ] && grep -q -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (exit $rc)"
        sed 's/^/# /' "$tmp/out" "$tmp/err"
        fail=1
    fi
}
echo "1..14"
# 48 x 256 = 12288 registers per CTA: 2 fit (24576), 8192 left; 2 x 2048 B of 49152
line "gtx480 sgemm with ptxas's 48 registers: registers" \
    "ctas 2 limit registers waste-registers 8192 waste-smem 45056" \
    --threads-per-cta 256 --regs-per-thread 48 --smem-per-cta 2048
# 6 -> 8 registers x 128 = 1024 per CTA: 32 would fit, threads 12, CTA slots 8
line "gtx480 vecadd: CTA slots" "ctas 8 limit ctas waste-registers 24576 waste-smem 49152" \
    --preset gtx480 -t 128 -r 6
# 8452 B: floor(49152 / 8452) = 5, 6892 B left; 16 x 32 x 5 = 2560 registers
line "gtx480 nw: scratchpad" "ctas 5 limit scratchpad waste-registers 30208 waste-smem 6892" \
    -t 32 -r 15 -s 8452
# 1536 / 256 = 6 CTAs; 8 x 256 x 6 = 12288 registers
line "gtx480 256 threads: threads" "ctas 6 limit threads waste-registers 20480 waste-smem 49152" -t 256 -r 8
# 20 x 256 = 5120: 6 by registers and 6 by threads: registers is reported first
line "gtx480 hotspot with ptxas's 20: a tie reports registers" \
    "ctas 6 limit registers waste-registers 2048 waste-smem 30720" -t 256 -r 20 -s 3072
# 16 warp slots, 8 warps per CTA: 2 (threads alone would allow 6)
line "--set sm.warps=16: warps" "ctas 2 limit warps waste-registers 28672 waste-smem 49152" \
    --set sm.warps=16 -t 256 -r 8
# threads padded to whole warps: 33 threads take 2 warps = 64 threads, 1536 / 64 = 24 > 8 CTA slots;
# registers 4 x 64 = 256 per CTA
line "33 threads are padded to 2 warps" "ctas 8 limit ctas waste-registers 30720 waste-smem 49152" -t 33 -r 3
# Table 3.2: 65536 registers, 16 KiB, 16 CTAs, 64 warps; 4224 B: floor(16384 / 4224) = 3
line "rs-table3.2 mv_shared: scratchpad" "ctas 3 limit scratchpad waste-registers 59392 waste-smem 3712" \
    --preset rs-table3.2 -t 128 -r 16 -s 4224
# a config file: 16384 registers per SM
printf '[sm]\nregisters=16384\n' >"$tmp/small.ini"
line "--config with 16384 registers" "ctas 1 limit registers waste-registers 4096 waste-smem 49152" \
    --config "$tmp/small.ini" -t 256 -r 48
refused "no --threads-per-cta" 2 "threads-per-cta is required" -r 8
refused "1025 threads" 2 "threads-per-cta 1025 is out of range" -t 1025
refused "64 registers on a Fermi SM (63 per thread)" 1 "64 registers per thread is more than the SM allows (63)" \
    -t 128 -r 64
refused "a scratchpad larger than the SM's" 1 "a CTA needs 50000 bytes of shared memory" -t 128 -s 50000
refused "an unknown preset" 2 "unknown preset 'nope'" --preset nope -t 128
exit $fail
