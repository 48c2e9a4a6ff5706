#!/bin/sh
# Microbenchmarks whose timing follows in closed form from the configuration (TAP). Each runs a
# hand-written kernel of tests/sm/ptx/ on tb-sm and compares cycle counts of two runs, so the fixed
# costs (launch, first fetch, the exit) cancel. The I-cache is one line of 1024 B with a 1-cycle fill
# (fetch.icache_line=1024, fetch.icache_miss_latency=1) so instruction fetch never limits issue.
# Derivations (docs/sm.md "Microbenchmarks" has them in full):
#  1 dependent chain: an add issued at c enters opcoll at c+1 (collector, bank read), its pipe at c+2,
#    completes and releases at c+2+L, and the dependent add issues at c+3+L:
#    T(64 adds) - T(32 adds) = 32 * (L + 3), for L = sp_latency = 4 and 10.
#  2 independent instructions (mov %clock: no sources) over W = 8 warps: S schedulers each issue one per cycle (2 SP pipes, 2
#    write-back ports, 6 collectors are not limiting): T(64/warp) - T(32/warp) = 32 * 8 / S, S = 1, 2.
#    On tb-subcore (4 partitions, each its scheduler, collectors and SP pipe): 256/4.
#  3 register-bank conflict (2 banks, bank = physical register mod 2): a 64-bit add reading two
#    aligned pairs reads each bank twice: one extra cycle per add:
#    [T(same64)-T(same32)] - [T(diff64)-T(diff32)] = 32.
#  4 L1: one miss and 7 hits in a dependent chain of loads of one line: the miss pays
#    mem_fixed.latency, each hit ldst.l1_latency: +100 latency -> +100 cycles; +4 l1_latency -> +28.
#  5 scratchpad: 16 dependent loads with a K-way bank conflict cost K bank cycles each:
#    T(K) - T(1) = 16 * (K - 1), K = 2, 4, 8.
#  6 barrier: warp 1 arrives last at bar.sync in cycle c (issue log); both warps issue their next
#    instruction in cycle c + 1.
#  7 constant cache (const_hit_miss.ptx): 8 dependent ld.const of one word: one miss pays
#    mem_fixed.latency once (+100 -> +100), 7 hits pay ldst.const_latency (+4 -> +28); 8 dependent
#    loads of 8 lines: 8 misses (+100 -> +800). Statistics: const_hits/const_misses 7/1 and 0/8 with
#    no L1D access; a global load, the 8 const misses, the same global load again: L1D 1 miss, 1 hit
#    (the const fills did not enter the L1D). The outputs equal gpusc-run --functional's.
#  8 source reservations (scoreboard.source_reservations=true, GREENER's WAR scoreboard): the dependent
#    chain of 1 keeps its closed form (an add's read of %r1 is reported at c+1, long before the next
#    add, which waits on the RAW hazard anyway) and runs to completion (no read reservation is left
#    behind). WAR (war.ptx): 32 pairs `add %s<k>, %r<k>, 1; mov %r<k>, %clock`. Without source
#    reservations each instruction issues the cycle after the previous one. With them the mov waits
#    for the add's read: the add issues at c, opcoll takes it at c+1 (collector allocated, its one bank
#    read requested and granted the same cycle: no conflict) and reports the read at c+1; issue sees
#    the report at c+2, releases the read reservation and issues the mov at c+2 instead of c+1:
#    T(on) - T(off) = 32 * 1, the same for sp_latency 4 and 10 (the read is reported before the add
#    executes, not at its write-back).
#  9 warp width and lane groups (units.simd_width = W): a warp instruction is P = 32 / W lane groups
#    entering the pipe one initiation interval (sp_ii = 1) apart: the pipe is busy P cycles, the
#    result is complete P - 1 cycles after the latency. Dependent chain: 32 (L + 3 + P - 1) = 256
#    (W 16), 320 (W 8). Independent adds over 8 warps, 2 SP pipes each taking one warp instruction per
#    P cycles (2 schedulers, 6 collectors: the pipes limit): 256 more cost 256 P / 2 = 256 (W 16),
#    512 (W 8). W = 32 is items 1 and 2.
tb="$top_builddir/testbench/tb-sm"
ptx="$top_srcdir/tests/sm/ptx"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base="--no-trace --set fetch.icache_line=1024 --set fetch.icache_miss_latency=1"
n=0
fail=0
cycles() { # prints the cycle count of a run (the summary line), or nothing on failure
    "$tb" $base "$@" 2>"$tmp/err" | sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p'
}
check() { # name expected got
    n=$((n + 1))
    if [ "$2" = "$3" ]; then echo "ok $n - $1 ($3)"; else echo "not ok $n - $1: expected $2, got $3"; cat "$tmp/err"; fail=1; fi
}
echo "1..29"
for L in 4 10; do
    a=$(cycles --ptx "$ptx/dep_chain.ptx" --entry chain32 --grid 1 --block 32 --set units.sp_latency=$L)
    b=$(cycles --ptx "$ptx/dep_chain.ptx" --entry chain64 --grid 1 --block 32 --set units.sp_latency=$L)
    check "dependent chain, sp_latency $L: 32 more adds cost 32*(L+3)" $((32 * (L + 3))) $((b - a))
done
for S in 1 2; do
    a=$(cycles --ptx "$ptx/independent.ptx" --entry indep32 --grid 1 --block 256 --set issue.schedulers=$S --set fetch.fetch_width=4)
    b=$(cycles --ptx "$ptx/independent.ptx" --entry indep64 --grid 1 --block 256 --set issue.schedulers=$S --set fetch.fetch_width=4)
    check "independent instructions, 8 warps, $S schedulers: 256 more cost 256/S" $((256 / S)) $((b - a))
done
# tb-subcore (preset subcore: 4 partitions, one scheduler each, a front end of 4 per fetch): 4 per cycle.
sc="$top_builddir/testbench/tb-subcore"
a=$("$sc" $base --ptx "$ptx/independent.ptx" --entry indep32 --grid 1 --block 256 2>"$tmp/err" | sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p')
b=$("$sc" $base --ptx "$ptx/independent.ptx" --entry indep64 --grid 1 --block 256 2>"$tmp/err" | sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p')
check "independent instructions on 4 sub-core partitions: 256 more cost 256/4" 64 $((b - a))
bk="--grid 1 --block 32 --set regfile.bank_fn=reg --set regfile.banks=2"
s32=$(cycles --ptx "$ptx/bank_conflict.ptx" --entry same32 $bk); s64=$(cycles --ptx "$ptx/bank_conflict.ptx" --entry same64 $bk)
d32=$(cycles --ptx "$ptx/bank_conflict.ptx" --entry diff32 $bk); d64=$(cycles --ptx "$ptx/bank_conflict.ptx" --entry diff64 $bk)
check "bank conflict: one extra cycle per conflicting add" 32 $(((s64 - s32) - (d64 - d32)))
check "bank conflict: a conflicting add costs sp_latency + 4" $((32 * 8)) $((s64 - s32))
head -c 4096 /dev/zero >"$tmp/zeros"
l1="--ptx $ptx/l1_hit_miss.ptx --entry l1 --grid 1 --block 32 --arg in:$tmp/zeros"
a=$(cycles $l1 --set mem_fixed.latency=200); b=$(cycles $l1 --set mem_fixed.latency=300)
check "L1 miss pays the memory latency once" 100 $((b - a))
a=$(cycles $l1 --set ldst.l1_latency=1); b=$(cycles $l1 --set ldst.l1_latency=5)
check "L1 hits pay l1_latency (7 hits)" 28 $((b - a))
t1=$(cycles --ptx "$ptx/smem_conflict.ptx" --entry smem --grid 1 --block 32 --arg 1)
for K in 2 4 8; do
    tk=$(cycles --ptx "$ptx/smem_conflict.ptx" --entry smem --grid 1 --block 32 --arg $K)
    check "scratchpad $K-way bank conflict costs $K cycles per access" $((16 * (K - 1))) $((tk - t1))
done
"$tb" $base --ptx "$ptx/barrier.ptx" --entry bar --grid 1 --block 64 --set issue.log="$tmp/log" >/dev/null 2>"$tmp/err"
last=$(awk '$9 == "bar" { c = $1 } END { print c }' "$tmp/log")
after=$(awk -v l="$last" '$1 > l && $6 == 0 { print $1; exit }' "$tmp/log")
after1=$(awk -v l="$last" '$1 > l && $6 == 1 { print $1; exit }' "$tmp/log")
check "barrier: warp 0 issues on the cycle after the last arrival" $((last + 1)) "$after"
check "barrier: warp 1 issues on the cycle after the last arrival" $((last + 1)) "$after1"
stat() { # name json: the value of statistic `name` (ldst's names are unique in tb-sm's JSON)
    sed -n "s/.*\"$1\": {\"value\": \([0-9]*\).*/\1/p" "$2"
}
cstats() { # json: const_hits const_misses l1_hits l1_misses l1_merged
    echo "$(stat const_hits "$1") $(stat const_misses "$1") $(stat l1_hits "$1") $(stat l1_misses "$1") $(stat l1_merged "$1")"
}
cptx="--ptx $ptx/const_hit_miss.ptx --grid 1 --block 32"
co="--arg 0" # out = 0: no stores
a=$(cycles $cptx --entry chit $co --set mem_fixed.latency=200); b=$(cycles $cptx --entry chit $co --set mem_fixed.latency=300)
check "constant cache: one miss pays the memory latency once" 100 $((b - a))
a=$(cycles $cptx --entry chit $co --set ldst.const_latency=1); b=$(cycles $cptx --entry chit $co --set ldst.const_latency=5)
check "constant cache: hits pay const_latency (7 hits)" 28 $((b - a))
a=$(cycles $cptx --entry cmiss $co --set mem_fixed.latency=200); b=$(cycles $cptx --entry cmiss $co --set mem_fixed.latency=300)
check "constant cache: 8 lines, 8 misses pay the memory latency each" 800 $((b - a))
same=0
for e in chit cmiss mixed; do
    in=""; [ $e = mixed ] && in="--arg in:$tmp/zeros"
    "$tb" $base $cptx --entry $e --arg out:"$tmp/t$e":8 $in --stats-json="$tmp/$e.json" >/dev/null 2>"$tmp/err" || same=1
    "$top_builddir/kernels/tools/gpusc-run" --functional $cptx --entry $e --arg out:"$tmp/f$e":8 $in \
        >/dev/null 2>>"$tmp/err" || same=1
    cmp "$tmp/t$e" "$tmp/f$e" >>"$tmp/err" 2>&1 || same=1
done
check "constant cache: the loaded values equal the functional runner's" 0 $same
check "constant cache: chit: 7 hits, 1 miss, no L1D access" "7 1 0 0 0" "$(cstats "$tmp/chit.json")"
check "constant cache: cmiss: 8 misses, no L1D access" "0 8 0 0 0" "$(cstats "$tmp/cmiss.json")"
check "constant cache: const fills leave the L1D alone (global miss, then hit)" "0 8 1 1 0" "$(cstats "$tmp/mixed.json")"
sr="--set scoreboard.source_reservations=true"
a=$(cycles --ptx "$ptx/dep_chain.ptx" --entry chain32 --grid 1 --block 32 $sr)
b=$(cycles --ptx "$ptx/dep_chain.ptx" --entry chain64 --grid 1 --block 32 $sr)
check "source reservations: the dependent chain completes, 32 more adds cost 32*(4+3)" $((32 * 7)) $((b - a))
wregs="--set sm.max_regs_per_thread=255" # war.ptx keeps 64 values live (no spill)
for L in 4 10; do
    off=$(cycles --ptx "$ptx/war.ptx" --entry war --grid 1 --block 32 $wregs --set units.sp_latency=$L)
    on=$(cycles --ptx "$ptx/war.ptx" --entry war --grid 1 --block 32 $wregs --set units.sp_latency=$L $sr)
    check "source reservations: 32 WAR pairs cost one cycle each, sp_latency $L" 32 $((on - off))
done
# The issue log shows it pair by pair: each mov issues 2 cycles after its add (pcs 32.. are the pairs).
"$tb" $base --ptx "$ptx/war.ptx" --entry war --grid 1 --block 32 $wregs $sr --set issue.log="$tmp/war.log" >/dev/null 2>"$tmp/err"
gaps=$(awk '$8 >= 32 && $9 == "add" { a = $1 } $8 >= 32 && $9 == "mov" && $1 == a + 2 { n++ } END { print n + 0 }' "$tmp/war.log")
check "source reservations: every WAR mov issues 2 cycles after its add (issue log)" 32 "$gaps"
for W in 16 8; do
    P=$((32 / W))
    a=$(cycles --ptx "$ptx/dep_chain.ptx" --entry chain32 --grid 1 --block 32 --set units.simd_width=$W)
    b=$(cycles --ptx "$ptx/dep_chain.ptx" --entry chain64 --grid 1 --block 32 --set units.simd_width=$W)
    check "simd_width $W: 32 more dependent adds cost 32*(4+3+$P-1)" $((32 * (4 + 3 + P - 1))) $((b - a))
    w="--grid 1 --block 256 --set fetch.fetch_width=4 --set units.simd_width=$W"
    a=$(cycles --ptx "$ptx/independent.ptx" --entry indep32 $w)
    b=$(cycles --ptx "$ptx/independent.ptx" --entry indep64 $w)
    check "simd_width $W: 256 more independent adds on 2 SP pipes cost 256*$P/2" $((256 * P / 2)) $((b - a))
done
exit $fail
