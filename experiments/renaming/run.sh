#!/bin/sh
# The register-renaming experiment (docs/renaming.md): the sweeps (renaming off / on with each
# allocation policy; the table budget; the three schedulers), the derived comparisons (report.py:
# summary.csv, a markdown table on stdout) and the figures (PNG + SVG under experiments/results/renaming/plots/).
# From the top of a tree built by scripts/build.sh:  sh experiments/renaming/run.sh [-j N] [--size S]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
jobs=2
size=tiny
while [ $# -gt 0 ]; do
    case $1 in
    -j) jobs=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    *) echo "usage: run.sh [-j N] [--size tiny|default]" >&2; exit 2 ;;
    esac
done
res="$top/experiments/results"
for s in renaming budget schedulers; do
    sed "s/^sizes=.*/sizes=$size/" "$here/$s.sweep" >"$here/.$s.$size.sweep"
    out=renaming; [ $s = budget ] && out=renaming-budget; [ $s = schedulers ] && out=renaming-schedulers
    sed -i "s|^out=.*|out=$res/$out-$size|" "$here/.$s.$size.sweep"
    python3 "$top/tools/gpusc-sweep" "$here/.$s.$size.sweep" -j "$jobs"
    python3 "$top/tools/gpusc-plot" "$here/.$s.$size.sweep"
done
# report.py reads RES/renaming and RES/renaming-budget
mkdir -p "$res/$size"
ln -sfn "$res/renaming-$size" "$res/$size/renaming"
ln -sfn "$res/renaming-budget-$size" "$res/$size/renaming-budget"
python3 "$here/report.py" "$res/$size" | tee "$res/renaming-$size/summary.md"
d="$res/renaming-$size"
python3 "$top/tools/gpusc-plot" bars "$d/live.csv" --metric value --series kind --baseline reserved \
    -o "$d/plots/live" --title "Live physical registers over the registers reserved ($size)"
python3 "$top/tools/gpusc-plot" bars "$d/leakage.csv" --metric value --series kind --baseline baseline_entry \
    -o "$d/plots/leakage" --title "Powered entry-cycles over the baseline's entry gating ($size)"
python3 "$top/tools/gpusc-plot" bars "$d/policies.csv" --metric value --series policy --baseline consolidate \
    -o "$d/plots/policies" --title "Sub-array-cycles on per allocation policy, over consolidation ($size)"
rm -f "$here/.renaming.$size.sweep" "$here/.budget.$size.sweep" "$here/.schedulers.$size.sweep"
echo "results: $d (summary.csv, summary.md, docs-table.md: docs/renaming.md's per-workload table, plots/)"
