#!/bin/sh
# Launches beyond CUDA's limits are refused before they run for hours (TAP).
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/sm/ptx"
echo "1..4"
expect "grid.x = 2^31 on tb-sm" 1 "the x dimension is over CUDA's limit" "$sm" --no-trace --ptx "$ptx/l1_hit_miss.ptx" \
    --entry l1 --grid 2147483648 --block 32 --arg out:"$tmp/o":64
expect "grid.y = 65536 on gpusc-run" 1 "the y dimension is over CUDA's limit" "$run" --functional \
    --ptx "$ptx/l1_hit_miss.ptx" --entry l1 --grid 1,65536 --block 32 --arg out:"$tmp/o":64
expect "block.z = 128 on tb-sm" 1 "the z dimension is over CUDA's limit (grid 65535, block 64)" "$sm" --no-trace \
    --ptx "$ptx/l1_hit_miss.ptx" --entry l1 --grid 1 --block 1,1,128 --arg out:"$tmp/o":64
expect "an .f32 argument given as 0x3f800000" 2 "is a hex integer" "$run" --functional \
    --ptx "$top_srcdir/tests/kernels/ptx/cli.ptx" --entry axpy --grid 1 --block 32 --arg out:"$tmp/a":64 \
    --arg out:"$tmp/b":64 --arg 16 --arg 0x3f800000 --arg 0
exit $fail
