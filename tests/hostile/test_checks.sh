#!/bin/sh
# Configurations and kernels whose fault used to be found late or named wrongly (TAP): an L1D or
# constant-cache line larger than the L2 line is a configuration error before the run; an
# instruction larger than an I-cache line is refused; an out-of-bounds atomic is called an atomic; a
# legal but huge L2 or out: buffer the host cannot allocate (under ulimit -v) is a clear error, not
# GLib's allocation abort (skipped under AddressSanitizer, which needs more address space than that).
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
gpu="$top_builddir/testbench/tb-gpu"
run="$top_builddir/kernels/tools/gpusc-run"
atom="$top_srcdir/tests/hostile/ptx/oob_atom.ptx"
echo "1..8"
expect "L1D line larger than the L2 line" 1 "\[tb.gpu.sm0.ldst\] l1_line=128 is larger than tb.gpu.l2_0's line_bytes=32 (--set)" \
    "$gpu" --no-trace --workload vecadd --set l2.line_bytes=32 --max-cycles 1
expect "constant-cache line larger than the L2 line" 1 "const_line=128 is larger than" \
    "$gpu" --no-trace --workload vecadd --set l2.line_bytes=64 --set ldst.l1_line=64 --set ldst.const_line=128 \
    --max-cycles 1
expect "fetch.instr_bytes larger than the I-cache line" 1 "instr_bytes=64 is larger than icache_line=8" \
    "$sm" --no-trace --workload vecadd --set fetch.instr_bytes=64 --set fetch.icache_line=8
expect "an out-of-bounds atomic on tb-sm" 1 "invalid global atomic" "$sm" --no-trace --ptx "$atom" \
    --entry oob_atom --grid 1 --block 1 --arg out:"$tmp/o":4
expect "an out-of-bounds atomic on gpusc-run" 1 "invalid global atomic" "$run" --functional --ptx "$atom" \
    --entry oob_atom --grid 1 --block 1 --arg out:"$tmp/o":4
far="$top_srcdir/tests/hostile/ptx/oob_far.ptx"
if grep -q __asan_init "$gpu"; then
    for i in 1 2 3; do
        n=$((n + 1))
        echo "ok $n # SKIP ulimit -v under AddressSanitizer"
    done
else
    expect "an L2 too large for the host" 1 "l2_[0-9]*: cannot allocate [0-9]* MiB of host memory for the tags of sets 1048576 x ways 64" \
        sh -c "ulimit -v 4000000; exec '$gpu' --no-trace --workload vecadd --set l2.sets=1048576 --set l2.ways=64"
    for prog in "$sm" "$run"; do
        case $prog in
        *gpusc-run) extra=--functional ;;
        *) extra=--no-trace ;;
        esac
        expect "a 3 GiB out: buffer on $(basename $prog) too large for the host" 2 "3221225472 bytes cannot be allocated" \
            sh -c "ulimit -v 2000000; exec '$prog' $extra --ptx '$far' --entry oob_far --grid 1 --block 1 \
                --arg out:'$tmp/a':3221225472 --arg out:'$tmp/b':4 --arg 0 --arg 0"
    done
fi
exit $fail
