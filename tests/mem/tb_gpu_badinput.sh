#!/bin/sh
# tb-gpu on bad input (TAP): a kernel that cannot fit an SM, invalid launches, a PTX error, a faulting
# kernel, bad memory-side configuration, a run that stops making progress (the watchdog); each must exit nonzero with a clear "gpusc: " message.
tb="${top_builddir:-.}/testbench/tb-gpu"
src="${top_srcdir:-.}"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP $tb is not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-badgpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dd if=/dev/zero of="$tmp/z.bin" bs=4096 count=1 2>/dev/null
echo "1..14"
i=0
fail=0
expect() { # name, status, message fragment, tb-gpu options...
    name=$1 st=$2 msg=$3
    shift 3
    "$tb" --no-trace "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    i=$((i + 1))
    if [ $rc -eq "$st" ] && grep -qF -- "$msg" "$tmp/err"; then
        echo "ok $i - $name"
    else
        echo "not ok $i - $name: exit $rc"
        fail=1
        sed 's/^/# /' "$tmp/err" | head -5
    fi
}
V="$src/kernels/ptx/vecadd.ptx"
A="--arg in:$tmp/z.bin --arg in:$tmp/z.bin --arg out:$tmp/c.bin:4096"
expect "shared memory too large for an SM" 1 "gpusc: kernel vecadd: a CTA needs 100000 bytes of shared memory" \
    --ptx "$V" --entry vecadd --grid 1 --block 32 --shared 100000 $A --arg 10
expect "block too large" 1 "gpusc: kernel vecadd: 2048 threads per block" --ptx "$V" --entry vecadd --grid 1 --block 2048 $A --arg 10
expect "empty grid" 2 "gpusc: --grid 0: expected X[,Y[,Z]]" --ptx "$V" --entry vecadd --grid 0 --block 32 $A --arg 10
expect "kernel reading past its buffer" 1 "invalid global load: unmapped address" \
    --ptx "$V" --entry vecadd --grid 1000 --block 256 $A --arg 1000000
printf '.version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %%r1;\n}\n' >"$tmp/bad.ptx"
expect "PTX error names file and line" 2 "bad.ptx:6:" --ptx "$tmp/bad.ptx" --entry k --grid 1 --block 1
expect "unknown workload" 2 "gpusc: unknown workload 'nosuch'" --workload nosuch
expect "L2 ways out of range" 1 "gpusc: --set l2.ways=0: [l2] ways: 0 is out of range" --set l2.ways=0
expect "zero SMs" 1 "gpusc: --set gpu.sms=0: [gpu] sms: 0 is out of range" --set gpu.sms=0
expect "DRAM row size not a power of two" 1 "row_bytes 1000 is not a power of two" --set dram.row_bytes=1000
expect "watchdog dumps the warps and the memory side" 1 "memory side at cycle" \
    --ptx "$src/tests/sm/ptx/deadlock.ptx" --entry deadlock --grid 1 --block 64 --set gpu.sms=2 --watchdog 2000
expect "a slow memory (DRAM latency 25x the watchdog) is not a deadlock" 0 "but the next scheduled event is at cycle" \
    --workload vecadd --size tiny --set gpu.sms=2 --set dram.latency=50000 --watchdog 2000
expect "L2 line size not a power of two" 1 "gpusc: tb.gpu.l2_0:" --set l2.line_bytes=96
expect "interconnect clock faster than the core clock" 1 \
    "gpusc: tb.gpu.icnt_period_ps: a clock of 700 ps is faster than the core clock (1429 ps)" \
    --workload vecadd --size tiny --set gpu.icnt_period_ps=700
expect "DRAM bank_bytes above row_bytes" 1 "bank_bytes 4096 is not a power of two up to row_bytes" \
    --workload vecadd --size tiny --set dram.bank_bytes=4096
exit $fail
