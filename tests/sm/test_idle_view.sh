#!/bin/sh
# The view closes what never acted (TAP): tb-gpu spmv at the tiny size places 4 CTAs on a machine of
# 15 SMs, so most SMs never run anything. Read back against the VCD (tests/sm/idle_view_check.py):
# every group of the .gtkw labelled "(idle)" starts closed and none of its signals changes after
# the dump; every other group has a signal that changes; the SMs labelled idle are exactly those
# the statistics say ran no CTA, and the first SM that ran one starts open.
tb="${top_builddir:-.}/testbench/tb-gpu"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP $tb is not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-idle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! "$tb" --workload spmv --size tiny --vcd "$tmp/w.vcd" >"$tmp/out" 2>&1; then
    echo "1..1"
    echo "not ok 1 - tb-gpu spmv tiny traced: the run failed"
    tail -5 "$tmp/out" | sed 's/^/# /'
    exit 1
fi
exec python3 "${top_srcdir:-.}/tests/sm/idle_view_check.py" "$tmp/w.vcd" "$tmp/w.gtkw" "$tmp/out"
