#!/bin/sh
# experiments/spu/multipass.sh — the SPU's multipass runs (producer-consumer sync, Algorithm 3) pass
# by pass and overlapped, beside the GPU baseline, on grids of one to four passes per dimension
# (docs/spu.md): cycles, off-chip element accesses beside the closed form 4PNK + 2N^2, VIU spills and
# restores, guard stalls, energy; multipass.csv, multipass-cycles.png, multipass-offchip.png,
# multipass-energy.png (gnuplot).
# Usage: sh experiments/spu/multipass.sh [BUILD_DIR] [OUT_DIR] [--large]
#   (defaults: build, experiments/spu/results; --large adds the spec's 256^3 and 512^3 rows, b = 32;
#   REUSE_LOGS=1 rebuilds the CSV and plots from the logs of a previous run). About 12 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
spu_init "${1:-}" "${2:-}" multipass.csv \
    case,mode,p,N,K,b,passes,cycles,offchip,closed_form,spills,restores,guard_stalls,cb_accesses,energy_pj,result
large=${3:-}
cases="p2-16-b8 2 16 16 8
p2-32-b8 2 32 32 8
p2-64-b8 2 64 64 8
p4-64-b8 4 64 64 8
p4-128-b16 4 128 128 16"
if [ "$large" = --large ]; then
    cases="$cases
p4-256-b32 4 256 256 32
p4-512-b32 4 512 512 32"
fi
echo "$cases" | while read -r name p n k b; do
    for mode in plain overlapped gpu; do
        log="$out/mp-$name-$mode.log"
        if [ -n "${REUSE_LOGS:-}" ] && [ -f "$log" ]; then
            :
        elif [ "$mode" = gpu ]; then
            "$tb" --machine gpu --preset spu-gpu --size "${n}x${n}x${k}" --tile "$b" --no-trace >"$log" 2>&1 || true
        else
            "$tb" --set spu_grid.p="$p" --sync local --passes "$mode" --size "${n}x${n}x${k}" --tile "$b" \
                --no-trace >"$log" 2>&1 || true
        fi
        spu_parse "$log"
        en=$(sed -n 's/^energy_total  *\([0-9.]*\) .*/\1/p' "$log")
        if [ "$mode" = gpu ]; then
            cf=$(sed -n 's/^offchip_accesses .*GPU bound 4N^2K\/b + 2N^2 = \([0-9]*\);.*/\1/p' "$log")
            P=0 sp=0 rs=0 gs=0 cba=0
        else
            cf=$(sed -n 's/^offchip_accesses [0-9]*  (closed form 4PNK + 2N^2 = \([0-9]*\),.*/\1/p' "$log")
            P=$(sed -n 's/^spu: \([0-9]*\) x [0-9]* passes.*/\1/p' "$log")
            sp=$(sed -n 's/^spu: .*VIU spills \([0-9]*\),.*/\1/p' "$log")
            rs=$(sed -n 's/^spu: .*restores \([0-9]*\) elements.*/\1/p' "$log")
            gs=$(sed -n 's/^spu: .*guard stall cycles \([0-9]*\)$/\1/p' "$log")
            cba=$(sed -n 's/^cb_accesses \([0-9]*\) .*/\1/p' "$log")
        fi
        echo "$name,$mode,$p,$n,$k,$b,${P:-0},${cyc:-0},${off:-0},${cf:-0},${sp:-0},${rs:-0},${gs:-0},${cba:-0},${en:-0},${res:-ERROR}" >>"$csv"
        echo "$name $mode: cycles ${cyc:-?} offchip ${off:-?} (${cf:-?}) ${res:-ERROR}"
    done
done
spu_plot 1000 'set logscale y' 'set xtics rotate by -20' <<GP
set output '$out/multipass-cycles.png'
set title 'SPU multipass (producer-consumer sync): pass by pass, overlapped, GPU baseline: cycles'
set ylabel 'cycles'
plot '< grep ",plain," $csv' using 8:xtic(1) title 'SPU pass by pass', \
     '< grep ",overlapped," $csv' using 8 title 'SPU overlapped', \
     '< grep ",gpu," $csv' using 8 title 'GPU baseline'
set output '$out/multipass-offchip.png'
set title 'Off-chip element accesses (SPU = 4PNK + 2N^2, spills and restores included; GPU = 4N^2K/b + 2N^2)'
set ylabel 'elements'
plot '< grep ",overlapped," $csv' using 9:xtic(1) title 'SPU (both modes)', \
     '< grep ",gpu," $csv' using 9 title 'GPU baseline'
set output '$out/multipass-energy.png'
set title 'Energy (energy_total: leakage + dynamic, the SPU with its CB and IU terms, caches off)'
set ylabel 'pJ'
plot '< grep ",plain," $csv' using 15:xtic(1) title 'SPU pass by pass', \
     '< grep ",overlapped," $csv' using 15 title 'SPU overlapped', \
     '< grep ",gpu," $csv' using 15 title 'GPU baseline'
GP
echo "wrote $csv"
