#!/bin/sh
# gen-ptx.sh — regenerate kernels/ptx/<name>.ptx and <name>.resources from kernels/cuda/<name>.cu.
# Usage: gen-ptx.sh [SRCDIR] [NAME...]   (SRCDIR: the kernels/ directory; default: this script's)
# Environment: NVCC, PTXAS (default: found on PATH or in /usr/local/cuda/bin), ARCH (default sm_75).
# The .resources file records what `ptxas -v` reports per entry (registers per thread, static
# shared memory per block, local memory and constant bank 0 bytes) plus the exact tool versions.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here}
[ $# -gt 0 ] && shift
ARCH=${ARCH:-sm_75}
PATH=$PATH:/usr/local/cuda/bin
NVCC=${NVCC:-$(command -v nvcc)}
PTXAS=${PTXAS:-$(command -v ptxas)}
[ -n "$NVCC" ] && [ -n "$PTXAS" ] || { echo "gen-ptx.sh: nvcc/ptxas not found" >&2; exit 1; }

nvcc_version=$("$NVCC" --version | grep -i release)
ptxas_version=$("$PTXAS" --version | grep -i release)

names=$*
if [ -z "$names" ]; then
    for f in "$src"/cuda/*.cu; do names="$names $(basename "$f" .cu)"; done
fi

mkdir -p "$src/ptx"
for name in $names; do
    cu=$src/cuda/$name.cu
    ptx=$src/ptx/$name.ptx
    res=$src/ptx/$name.resources
    echo "  NVCC     $name"
    "$NVCC" -ptx -arch="$ARCH" -O3 -o "$ptx" "$cu"
    log=$("$PTXAS" -v -arch="$ARCH" "$ptx" -o /dev/null 2>&1)
    {
        echo "# $name.resources: per-entry resources reported by ptxas -v (do not edit; make ptx)"
        echo "# nvcc:  $nvcc_version"
        echo "# ptxas: $ptxas_version"
        echo "# cmd:   nvcc -ptx -arch=$ARCH -O3 -o kernels/ptx/$name.ptx kernels/cuda/$name.cu"
        echo "# cmd:   ptxas -v -arch=$ARCH kernels/ptx/$name.ptx -o /dev/null"
        # ptxas prints, per entry: "Compiling entry function 'E' for 'sm_75'", then a "Function
        # properties" block with the stack frame, then "Used N registers, ... S bytes smem, C bytes cmem[0]".
        echo "$log" | awk '
            /Compiling entry function/ { e = $0; sub(/.*function \047/, "", e); sub(/\047.*/, "", e); entry = e; stack = 0 }
            /bytes stack frame/ { stack = $1 }
            /Used [0-9]+ registers/ && entry != "" {
                regs = 0; smem = 0; cmem = 0
                for (i = 1; i <= NF; i++) {
                    if ($(i + 1) ~ /^registers/) regs = $i
                    if ($(i + 1) == "bytes" && $(i + 2) ~ /^smem/) smem = $i
                    if ($(i + 1) == "bytes" && $(i + 2) ~ /^cmem\[0\]/) cmem = $i
                }
                printf "entry=%s registers=%d shared=%d local=%d const=%d\n", entry, regs, smem, stack, cmem
                entry = ""
            }'
    } > "$res"
done
