#!/bin/sh
# The scoreboard reserves physical registers (TAP; docs/sm.md "Register namespaces"). sb_phys.ptx's
# `deadld`: a global load whose result is never read and a `mov` to another virtual register the
# allocator puts in the same physical register, followed by a dependent chain of 64 adds.
#  1 the allocation: the load's destination and the mov's are one physical register
#    (`gpusc-ptx --after regalloc`), else the test below measures nothing;
#  2 WAW on the physical register: the mov waits for the load's data, so the memory latency moves the
#    end of the chain: T(mem_fixed.latency=300) - T(200) = 100 (a scoreboard of virtual registers:
#    0, the chain outlasts the load);
#  3 the same with source reservations (GREENER's scoreboard): 100.
set -u
tb="$top_builddir/testbench/tb-sm"
ptxtool="$top_builddir/kernels/tools/gpusc-ptx"
ptx="$top_srcdir/tests/sm/ptx/sb_phys.ptx"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c 4096 /dev/zero >"$tmp/zeros"
base="--no-trace --set fetch.icache_line=1024 --set fetch.icache_miss_latency=1 --ptx $ptx --entry deadld --grid 1 --block 32 --arg in:$tmp/zeros"
n=0
fail=0
cycles() { # prints the cycle count of a run (the summary line), or nothing on failure
    "$tb" $base "$@" 2>"$tmp/err" | sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p'
}
check() { # name expected got
    n=$((n + 1))
    if [ "$2" = "$3" ]; then echo "ok $n - $1 ($3)"; else echo "not ok $n - $1: expected $2, got $3"; cat "$tmp/err"; fail=1; fi
}
echo "1..3"
# The listing's `ld.global.u32 RK, [...]` and `mov.u32 RK, 1` name physical registers.
"$ptxtool" "$ptx" --entry deadld --after regalloc >"$tmp/alloc" 2>"$tmp/err"
ldr=$(sed -n 's/.*ld\.global\.u32 *\(R[0-9]*\),.*/\1/p' "$tmp/alloc" | head -n 1)
movr=$(sed -n 's/.*mov\.u32 *\(R[0-9]*\), 1;.*/\1/p' "$tmp/alloc" | head -n 1)
check "the dead load's and the mov's destinations share a physical register" "${ldr:-none}" "${movr:-other}"
a=$(cycles --set mem_fixed.latency=200); b=$(cycles --set mem_fixed.latency=300)
check "WAW on a physical register: the mov waits for the load" 100 $((${b:-0} - ${a:-0}))
a=$(cycles --set mem_fixed.latency=200 --set scoreboard.source_reservations=true)
b=$(cycles --set mem_fixed.latency=300 --set scoreboard.source_reservations=true)
check "the same with source reservations" 100 $((${b:-0} - ${a:-0}))
exit $fail
