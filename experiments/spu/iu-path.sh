#!/bin/sh
# experiments/spu/iu-path.sh — the interface units' off-chip path (docs/spu.md): the idealised path
# (spu_iu.mem_latency, then one request per cycle) against the GPU's interconnect, L2 slices and
# DRAM (tb-spu --iu-path icnt), on the same stencil runs (one pass, multipass, partial passes):
# cycles, the units' cycles waiting for memory, interconnect packets, DRAM traffic; iu-path.csv and
# iu-path-cycles.png (gnuplot). Every run checks its output.
# Usage: sh experiments/spu/iu-path.sh [BUILD_DIR] [OUT_DIR]   (about 3 minutes)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
spu_init "${1:-}" "${2:-}" iu-path.csv \
    case,path,p,N,K,b,sync,cycles,offchip,icnt_req_packets,dram_reads,iu_mem_wait_cycles,result
cases="p2-16-b8-global 2 16 16 8 global
p2-16-b8-local 2 16 16 8 local
p2-32-b8-local 2 32 32 8 local
p2-24-b8-partial 2 24 16 8 local
p4-32-b8-local 4 32 32 8 local
p4-40-b4-partial 4 40 8 4 local"
echo "$cases" | while read -r name p n k b sync; do
    for path in ideal icnt; do
        log="$out/iu-$name-$path.log"
        "$tb" --set spu_grid.p="$p" --sync "$sync" --size "${n}x${n}x${k}" --tile "$b" --iu-path "$path" \
            --no-trace >"$log" 2>&1 || true
        spu_parse "$log"
        pk=$(sed -n 's/^tb\.gpu\.icnt\.req_packets  *\([0-9]*\) .*/\1/p' "$log")
        dr=$(sed -n 's/^DRAM: \([0-9]*\) reads.*/\1/p' "$log")
        mw=$(awk '/^tb\.spu\.(iu|smiu)_[a-z0-9]*\.mem_wait_cycles/ {s += $2} END {print s + 0}' "$log")
        echo "$name,$path,$p,$n,$k,$b,$sync,${cyc:-0},${off:-0},${pk:-0},${dr:-0},$mw,${res:-ERROR}" >>"$csv"
        echo "$name $path: cycles ${cyc:-?} offchip ${off:-?} ${res:-ERROR}"
    done
done
spu_plot 1000 'set xtics rotate by -20' <<GP
set output '$out/iu-path-cycles.png'
set title 'SPU interface units: idealised off-chip path vs the interconnect, L2 and DRAM: cycles'
set ylabel 'cycles'
plot '< grep ",ideal," $csv' using 8:xtic(1) title 'ideal (mem\_latency 200)', \
     '< grep ",icnt," $csv' using 8 title 'icnt + L2 + DRAM'
GP
echo "wrote $csv"
