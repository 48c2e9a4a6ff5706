#!/bin/sh
# One register count and declared resources (TAP): the testbenches' `occupancy:` summary line charges
# the count of the register-allocated code (what gpusc-ptx --resources prints), --regs-per-thread and
# --smem-per-cta declare more (on tb-sm, tb-subcore and tb-gpu), less than the kernel needs is an
# error, max_regs_per_thread makes the allocator spill (the workload still checks), and gpusc-run
# takes the same options.
tb="$top_builddir/testbench/tb-sm"
sc="$top_builddir/testbench/tb-subcore"
gp="$top_builddir/testbench/tb-gpu"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_builddir/kernels/tools/gpusc-ptx"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() {
    n=$((n + 1))
    echo "not ok $n - $1"
    sed 's/^/# /' "$tmp/out" "$tmp/err" | head -20
    fail=1
}
# name grep-pattern command...: the command passes and prints the pattern
pass() {
    name=$1 pat=$2
    shift 2
    if "$@" >"$tmp/out" 2>"$tmp/err" && grep -q -- "$pat" "$tmp/out"; then ok "$name"; else bad "$name"; fi
}
# name exit-status grep-pattern command...: the command exits so and says the pattern on stderr
refuse() {
    name=$1 want=$2 pat=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = "$want" ] && grep -q -- "$pat" "$tmp/err"; then ok "$name"; else bad "$name (exit $rc)"; fi
}
echo "1..13"
# spmv: the rewritten code's 16 registers (ptxas: 55), on the testbench and in gpusc-ptx
pass "tb-sm spmv charges the allocated code's 16 registers" \
    "occupancy: spmv_csr: 16 registers/thread, 0 bytes scratchpad/CTA, 128 threads/CTA: ctas 8 limit ctas" \
    "$tb" --no-trace --workload spmv
pass "gpusc-ptx --resources prints the same 16" "spmv_csr: registers ours 16 ptxas 55" \
    "$ptx" "$top_srcdir/kernels/ptx/spmv.ptx" --resources
# sgemm with ptxas's 48 registers: 2 CTAs (docs/workloads.md), registers the limit
pass "tb-sm sgemm --regs-per-thread 48: ctas 2 limit registers" \
    "sgemm_tiled: 48 registers/thread, 2048 bytes scratchpad/CTA, 256 threads/CTA: ctas 2 limit registers" \
    "$tb" --no-trace --workload sgemm --regs-per-thread 48
pass "tb-subcore sgemm --regs-per-thread 48: ctas 2 limit registers" "ctas 2 limit registers" \
    "$sc" --no-trace --workload sgemm --regs-per-thread 48
pass "tb-gpu vecadd --smem-per-cta 16000: ctas 3 limit scratchpad" \
    "vecadd: 6 registers/thread, 16000 bytes scratchpad/CTA, 128 threads/CTA: ctas 3 limit scratchpad" \
    "$gp" --no-trace --workload vecadd --smem-per-cta 16000
refuse "fewer declared registers than the code needs" 1 "regs-per-thread 10 is less than the 19 registers" \
    "$tb" --no-trace --workload sgemm --regs-per-thread 10
refuse "less declared scratchpad than the kernel uses" 1 "smem-per-cta 1000 is less than the 1024 bytes" \
    "$tb" --no-trace --workload reduction --smem-per-cta 1000
refuse "more registers than max_regs_per_thread" 1 "64 registers per thread is more than the SM allows (63)" \
    "$tb" --no-trace --workload vecadd --regs-per-thread 64
refuse "--regs-per-thread out of range" 2 "regs-per-thread 300 is out of range" \
    "$tb" --no-trace --workload vecadd --regs-per-thread 300
# spilling: kmeans (28 registers with its callee) at 8, still checked against its CPU reference
pass "tb-sm kmeans at max_regs_per_thread=8 spills and passes" "kmeans_assign: 8 registers/thread" \
    "$tb" --no-trace --workload kmeans --set sm.max_regs_per_thread=8
pass "gpusc-ptx spills to the preset's limit too" "kmeans_assign: registers ours 8 " \
    "$ptx" "$top_srcdir/kernels/ptx/kmeans.ptx" --resources --set sm.max_regs_per_thread=8
pass "gpusc-run takes and reports the declarations" "declared: 20 registers/thread, 100 bytes" \
    "$run" --functional --workload vecadd --size tiny --stats --regs-per-thread 20 --smem-per-cta 100
refuse "gpusc-run: a declared scratchpad above --max-shared" 2 "smem-per-cta 60000 is out of range" \
    "$run" --functional --workload vecadd --size tiny --smem-per-cta 60000
exit $fail
