#!/bin/sh
# regalloc-table.sh — the register-allocation table of docs/regalloc.md: for every entry listed in
# docs/workloads.md's occupancy table (workload, entry, threads per block T), one markdown row from
# `gpusc-ptx kernels/ptx/<workload>.ptx --entry <entry> --occupancy T --markdown`.
# Usage: regalloc-table.sh [SRCDIR [GPUSC_PTX]]   (defaults: this script's tree, gpusc-ptx on PATH)
set -eu
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
tool=${2:-gpusc-ptx}
echo "| entry | registers (ours) | registers (ptxas) | shared bytes | T | by blocks | by threads | by registers | by shared | blocks/SM (warps) | limiter | with ptxas's count: blocks/SM (limiter) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
# Rows of the workloads table: | workload | entry | T | ... (skip the header and separator).
# The S column may read "0 + 1024 dynamic": the dynamic part is given at launch.
awk -F'|' '/^## Resources and occupancy/ { on = 1; next } /^## / { on = 0 }
    on && NF > 4 && $4 ~ /^ *[0-9]+ *$/ {
        gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4)
        dyn = 0
        if ($6 ~ /dynamic/) { d = $6; sub(/ *dynamic.*/, "", d); sub(/.*\+ */, "", d); dyn = d + 0 }
        print $2, $3, $4, dyn
    }' "$src/docs/workloads.md" |
while read -r wl entry threads dyn; do
    "$tool" "$src/kernels/ptx/$wl.ptx" --entry "$entry" --occupancy "$threads" --dynamic-shared "$dyn" --markdown
done
