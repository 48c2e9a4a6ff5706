#!/bin/sh
# The GREENER experiment (docs/greener.md): the five sweeps, their summaries and the plots.
#   sh experiments/greener/run.sh [-j N]     (from the top of a tree built by scripts/build.sh)
# Results: experiments/results/greener-{power,w,nodes,machines,lut}/ (every run) and experiments/results/greener/
# (power.csv, w.csv, nodes.csv, machines.csv, lut.csv, lut-gmean.csv and the PNG/SVG plots).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
j=${2:-2}
[ "${1:-}" = "-j" ] || j=2
for s in power wsweep nodes machines lut; do
    "$top/tools/gpusc-sweep" "$top/experiments/greener/$s.sweep" -j "$j"
done
python3 "$top/experiments/greener/summarize.py"
python3 "$top/experiments/greener/lut.py"
r="$top/experiments/results/greener"
plot="$top/tools/gpusc-plot"
"$plot" bars "$r/power.csv" --metric rf_static_pj --series power --baseline baseline -o "$r/static" \
    --title "Register-file static energy (leakage + transitions) over all ON (tb-greener, tiny, 22 nm, W=3)"
"$plot" bars "$r/power.csv" --metric cycles --series power --baseline baseline -o "$r/cycles" \
    --title "Cycles over all ON (tb-greener, tiny, W=3)"
"$plot" lines "$r/w.csv" --metric rf_static_norm --x w --series workload -o "$r/w-static" \
    --title "GREENER static RF energy over all ON against W (tiny, 22 nm)"
"$plot" lines "$r/w.csv" --metric cycles_norm --x w --series workload -o "$r/w-cycles" \
    --title "GREENER cycles over all ON against W (tiny)"
"$plot" bars "$r/nodes.csv" --metric rf_static_pj --group node --series power --baseline baseline \
    -o "$r/nodes" --title "Static RF energy, all workloads, over all ON, per technology node"
"$plot" bars "$r/machines.csv" --metric rf_static_pj --group machine --series power --baseline baseline \
    -o "$r/machines" --title "Static RF energy, all workloads, over all ON, per machine (tiny, 22 nm, W=3)"
"$plot" bars "$r/lut.csv" --metric cycles --series lut --baseline baseline -o "$r/lut-cycles" \
    --title "GREENER cycles over all ON per lookup-table size (entries per warp; e0: unsized) (tiny, W=3)"
