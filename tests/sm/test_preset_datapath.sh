#!/bin/sh
# The mechanism presets' datapaths in closed form (TAP): independent adds of immediates
# (tests/sm/ptx/independent.ptx, 8 warps, 32 or 64 adds each) on tb-sm with a preset; the difference
# of the two runs is the cost of 256 more warp instructions, the fixed costs cancelling. The I-cache
# is one 1024-byte line with a 1-cycle fill so fetch never misses (as tests/sm/test_microbench.sh).
#  - ccws: SIMD width 8 is 8 lanes per cycle in total: one SP pipe takes a warp instruction in 4
#    passes, so 256 more adds cost 256 x 4 = 1024 cycles (two 8-lane pipes would make it 512).
#  - greener: 4 schedulers on a datapath that issues 4 per cycle (fetch 4, 4 SP pipes, 4 write-back
#    ports): 256 / 4 = 64 (the GTX480 datapath, 2 per cycle at most, makes it 128).
#  - gtx480: 2 schedulers, 2 per cycle: 128.
set -u
tb="${top_builddir:-.}/testbench/tb-sm"
ptx="${top_srcdir:-..}/tests/sm/ptx"
base="--no-trace --set fetch.icache_line=1024 --set fetch.icache_miss_latency=1 --grid 1 --block 256"
n=0
fail=0
cycles() { # preset entry
    "$tb" $base --preset "$1" --ptx "$ptx/independent.ptx" --entry "$2" 2>&1 |
        sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p'
}
echo "1..3"
for pe in ccws:1024 greener:64 gtx480:128; do
    p=${pe%%:*} want=${pe#*:}
    a=$(cycles "$p" indep32)
    b=$(cycles "$p" indep64)
    n=$((n + 1))
    got=$((${b:-0} - ${a:-0}))
    if [ -n "$a" ] && [ -n "$b" ] && [ "$got" = "$want" ]; then
        echo "ok $n - $p: 256 more independent adds cost $want cycles"
    else
        echo "not ok $n - $p: 256 more independent adds: expected $want cycles, got $got ($a, $b)"
        fail=1
    fi
done
exit $fail
