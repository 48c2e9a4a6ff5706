#!/bin/sh
# The VWS experiment (docs/vws.md): the sweep (CSV) and its plots (PNG).
#   sh experiments/vws/run.sh [-j N]     (from the top of a tree built by scripts/build.sh)
# Results: experiments/results/vws/ (results.csv, results.sqlite, plots/*.png).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
j=2
[ "${1:-}" = "-j" ] && j=${2:-2}
"$top/tools/gpusc-sweep" "$top/experiments/vws/vws.sweep" -j "$j"
"$top/tools/gpusc-plot" "$top/experiments/vws/vws.sweep"
# The instruction-supply sweeps: L1 I-cache ports and L0 sizes (experiments/results/vws-fetch/).
"$top/tools/gpusc-sweep" "$top/experiments/vws/fetch.sweep" -j "$j"
"$top/tools/gpusc-plot" "$top/experiments/vws/fetch.sweep"
