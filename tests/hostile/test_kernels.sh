#!/bin/sh
# What third-party (nvcc-compiled) kernels do that our own do not (TAP): a shared address computed
# in a 32-bit register that wraps past 2^32 reaches the CTA's shared memory as on hardware, on the
# functional runner and on the timing testbenches alike.
. "$top_srcdir/tests/hostile/tap.sh"
ptx="$top_srcdir/tests/hostile/ptx/shared_wrap.ptx"
echo "1..6"
for prog in kernels/tools/gpusc-run testbench/tb-sm testbench/tb-gpu; do
    rm -f "$tmp/o"
    case $prog in
    *gpusc-run) extra=--functional ;;
    *) extra=--no-trace ;;
    esac
    expect "$(basename $prog): a shared address that wraps in 32 bits" 0 "" "$top_builddir/$prog" $extra \
        --ptx "$ptx" --entry wrap --grid 1 --block 1 --arg out:"$tmp/o":4
    check "$(basename $prog): the load through the wrapped address read s[1]" \
        [ "$(od -An -tu4 "$tmp/o" 2>/dev/null | tr -d ' ')" = 7 ]
done
exit $fail
