#!/bin/sh
# experiments/spu/run.sh — the SPU (Algorithm 1, global blocksync, one pass) against the GPU baseline
# on the same 3-D stencil (docs/spu.md): cycles and off-chip element accesses (beside the closed
# forms) per case, as spu.csv, and spu-cycles.png / spu-offchip.png (gnuplot).
# Usage: sh experiments/spu/run.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, experiments/spu/results)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
spu_init "${1:-}" "${2:-}" spu.csv \
    case,machine,p,N,K,b,cb_kb,cycles,offchip,closed_form,cb_accesses,blocksyncs,result
# case: name p N K b cb  (the spec's §14 rows that fit one pass of the p x p grid, and smaller ones)
while read -r name p n k b cb; do
    for m in spu gpu; do
        if [ "$m" = spu ]; then
            args="--preset gtx480 --set spu_grid.p=$p" # the caches on, as the GPU baseline
        else
            args="--preset spu-gpu"
        fi
        log="$out/$name-$m.log"
        # shellcheck disable=SC2086
        "$tb" --machine "$m" $args --size "${n}x${n}x${k}" --tile "$b" --cb "$cb" --no-trace >"$log" 2>&1 || true
        spu_parse "$log"
        if [ "$m" = spu ]; then
            cf=$(sed -n 's/^offchip_accesses [0-9]*  (closed form 4PNK + 2N^2 = \([0-9]*\),.*/\1/p' "$log")
            cba=$(sed -n 's/^cb_accesses \([0-9]*\) .*/\1/p' "$log")
            bs=$(sed -n 's/^spu: .*; \([0-9]*\) global blocksyncs.*/\1/p' "$log")
        else
            cf=$(sed -n 's/^offchip_accesses .*GPU bound 4N^2K\/b + 2N^2 = \([0-9]*\);.*/\1/p' "$log")
            cba=0
            bs=0
        fi
        echo "$name,$m,$p,$n,$k,$b,$cb,${cyc:-0},${off:-0},${cf:-0},${cba:-0},${bs:-0},${res:-ERROR}" >>"$csv"
        echo "$name $m: cycles ${cyc:-?} offchip ${off:-?} (${cf:-?}) ${res:-ERROR}"
    done
done <<'CASES'
p2-16-b8 2 16 16 8 4
p4-32-b8 4 32 32 8 4
p4-64-b16 4 64 64 16 4
p4-128-b32 4 128 128 32 4
CASES
spu_plot 900 'set logscale y' <<GP
set output '$out/spu-cycles.png'
set title 'SPU (global blocksync, one pass) vs GPU baseline: cycles'
set ylabel 'cycles'
plot '< grep ",spu," $csv' using 8:xtic(1) title 'SPU', '< grep ",gpu," $csv' using 8 title 'GPU baseline'
set output '$out/spu-offchip.png'
set title 'Off-chip element accesses (measured; closed forms 4PNK+2N^2 and 4N^2K/b+2N^2 equal them)'
set ylabel 'elements'
plot '< grep ",spu," $csv' using 9:xtic(1) title 'SPU', '< grep ",gpu," $csv' using 9 title 'GPU baseline'
GP
echo "wrote $csv"
