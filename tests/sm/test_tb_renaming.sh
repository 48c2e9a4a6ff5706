#!/bin/sh
# tb-renaming (docs/renaming.md) end to end (TAP):
#  - every workload passes its output check with renaming on, tiny, under the three schedulers the
#    renaming study compares: lrr, gtrr (greedy-then-round-robin) and two_level_active:6:0:1; no read was poisoned, no write overflowed, every allocation was released
#    (pir, pbr or warp exit), pirs were released at their reads;
#  - the wear and lowest policies pass too;
#  - a deliberately wrong release (renaming.bad_release) poisons a live register and fails the
#    output check;
#  - with --renaming observe the run's cycles and instructions equal tb-sm's on the same preset (the
#    block only observes the baseline's gating); --renaming off says it built no renaming block;
#  - --renaming with another value than on, off, observe, and a renaming option with --renaming off
#    (no block to set) are bad input: a message and exit 2;
#  - too few physical registers: the deadlock report names the waiting warp and its registers;
#  - gpusc-ptx --renaming prints the Eq. 1 figures, pirs and pbrs;
#  - the split fetch fetches the laid-out code: the words fetch reads include the flag words (every
#    pir missing the RFC and every pbr), and reduction (many short blocks) takes more fetch slots,
#    I-cache accesses and cycles than with the flag words free (renaming.flag_fetch=false);
#  - kmeans' called sq_dist is renamed (its own frame: callee_allocations, every allocation released)
#    and a wrong release among its reads alone (bad_release_callee) fails the output check;
#  - Eq. 1 counts the called function's frame: kmeans_assign 17 + sq_dist 14 = 31 registers
#    (gpusc-ptx at 48 warps: 14880 bits, 14 exempt to fit 8192; tb-renaming at the tiny size's
#    resident warps W: W x 31 x 10 bits, and at a 1024-bit budget the largest R with W x R x 10 < 1024
#    stays renamed, the rest exempt, the callee's registers among them);
#  - a divergent ret whose remaining lanes call another function (tests/sm/ptx/renaming_divret.ptx):
#    the frame that still has lanes is not released under them (right output, no unwritten or
#    poisoned read, every allocation released).
tb="$top_builddir/testbench/tb-renaming"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-renaming.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..14"
. "$top_srcdir/tests/workloads.sh"
workloads=$(test_workloads "$top_builddir/testbench/tb-sm")

stat() { # stat NAME FILE: a statistic of the text dump
    awk -v n="tb.sm0.renaming.$1" '$1 == n {print $2}' "$2"
}

n=0
for pol in lrr gtrr two_level_active:6:0:1; do
    n=$((n + 1))
    bad=""
    for w in $workloads; do
        "$tb" --no-trace --workload "$w" --size tiny --set "arbiter.policy=$pol" >"$tmp/out" 2>&1
        rc=$?
        a=$(stat allocations "$tmp/out")
        r=$(stat releases "$tmp/out")
        pir=$(stat releases_pir "$tmp/out")
        if [ $rc -ne 0 ] || [ "$(stat poison_reads "$tmp/out")" != 0 ] || [ "$(stat alloc_overflow "$tmp/out")" != 0 ] ||
            [ "$a" != "$r" ] || [ "${pir:-0}" -eq 0 ]; then
            bad="$bad $w(rc $rc, alloc $a, rel $r)"
        fi
    done
    if [ -z "$bad" ]; then echo "ok $n - every workload passes with renaming on under $pol"; else echo "not ok $n - $pol:$bad"; fi
done

n=$((n + 1))
bad=""
for pol in wear lowest; do
    for w in vecadd sgemm bfs hotspot; do
        "$tb" --no-trace --workload "$w" --size tiny --alloc-policy "$pol" >"$tmp/out" 2>&1 || bad="$bad $pol/$w"
    done
done
if [ -z "$bad" ]; then echo "ok $n - the wear and lowest policies pass"; else echo "not ok $n -$bad"; fi

n=$((n + 1))
"$tb" --no-trace --workload sgemm --size tiny --set renaming.bad_release=97 >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "tb-renaming: sgemm: FAIL" "$tmp/out" && [ "$(stat poison_reads "$tmp/out")" -gt 0 ]; then
    echo "ok $n - a wrong release poisons a live register and fails the output check"
else
    echo "not ok $n - bad_release: rc $rc"
    cat "$tmp/out" | tail -5
fi

n=$((n + 1))
bad=""
for w in vecadd spmv bfs; do
    "$tb" --no-trace --workload "$w" --size tiny --renaming observe >"$tmp/obs" 2>&1 || bad="$bad $w(observe failed)"
    "$top_builddir/testbench/tb-sm" --no-trace --workload "$w" --size tiny --preset renaming >"$tmp/sm" 2>&1
    a=$(grep '^summary:' "$tmp/obs" | cut -d, -f1-2)
    b=$(grep '^summary:' "$tmp/sm" | cut -d, -f1-2)
    [ -n "$a" ] && [ "$a" = "$b" ] || bad="$bad $w($a vs $b)"
    [ "$(stat allocations "$tmp/obs")" = 0 ] || bad="$bad $w(allocated)"
    [ "$(stat base_entry_on_cycles "$tmp/obs")" -gt 0 ] || bad="$bad $w(no baseline gating)"
    grep -q "^renaming: tb.sm0.renaming: off," "$tmp/obs" || bad="$bad $w(no observing block)"
done
"$tb" --no-trace --workload vecadd --size tiny --renaming off >"$tmp/off" 2>&1 || bad="$bad off failed"
grep -q "^renaming: off: the baseline machine, no renaming block" "$tmp/off" || bad="$bad off(summary)"
! grep -q "^renaming: tb.sm0.renaming" "$tmp/off" || bad="$bad off(a renaming block)"
if [ -z "$bad" ]; then echo "ok $n - renaming observe: tb-sm's cycles and instructions; off: no block"; else echo "not ok $n -$bad"; fi

n=$((n + 1))
bad=""
for args in "--renaming maybe" "--renaming off --budget 4096" "--renaming off --alloc-policy wear" "--renaming"; do
    # shellcheck disable=SC2086
    "$tb" --no-trace --workload vecadd --size tiny $args >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q "^gpusc: --" "$tmp/out" || bad="$bad '$args'(rc $rc)"
done
if [ -z "$bad" ]; then echo "ok $n - bad --renaming values and options with no block to set: exit 2"; else echo "not ok $n -$bad"; fi
n=$((n + 1))
"$tb" --no-trace --workload sgemm --size tiny --set renaming.phys_regs=64 --set renaming.deadlock_cycles=2000 \
    >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "renaming: deadlock at cycle" "$tmp/out" && grep -q "waits since cycle .* for R" "$tmp/out"; then
    echo "ok $n - exhaustion: the deadlock report names the waiting warps and registers"
else
    echo "not ok $n - exhaustion: rc $rc"
fi

n=$((n + 1))
"$top_builddir/kernels/tools/gpusc-ptx" "$top_srcdir/kernels/ptx/vecadd.ptx" --renaming >"$tmp/ptx" 2>&1
if grep -q "^// Eq. 1: 48 x 6 x 10 = 2880 bits" "$tmp/ptx" && grep -q "^    0: pir " "$tmp/ptx" &&
    grep -q "pbr   R1" "$tmp/ptx" && grep -q "bra .*// -> 184" "$tmp/ptx"; then
    echo "ok $n - gpusc-ptx --renaming"
else
    echo "not ok $n - gpusc-ptx --renaming"
    cat "$tmp/ptx"
fi

n=$((n + 1))
"$tb" --no-trace --workload hotspot --size tiny --stats-json "$tmp/s.json" >"$tmp/out" 2>&1
if python3 - "$tmp/s.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
s = next({k: v["value"] for k, v in i["stats"].items()} for i in d["instances"] if i["type"] == "renaming")
close = lambda a, b: abs(a - b) <= 1e-6 * max(1.0, abs(b))
period = 1429
assert s["table_bank_cycles"] == 4 * s["cycles"]
assert close(s["energy.leak_on"], s["leak_entry_cycles"] * period * 2.8 / 256 * 1e-3)
assert close(s["energy.leak_on_table"], s["table_bank_cycles"] * period * 0.27e-3)
assert close(s["energy.table_lookup"], s["lookups"] * 1.14)
assert close(s["energy.table_release"], s["releases"] * 1.14)
assert s["leak_entry_cycles"] == s["entry_on_cycles"] and s["entry_on_cycles"] < s["base_entry_on_cycles"]
assert close(s["energy_leakage"], s["energy.leak_on"] + s["energy.leak_on_table"])
PY
    echo "ok $n - renaming energy: gated entries x 10.9 uW, table banks x 0.27 mW, accesses x 1.14 pJ"
else
    echo "not ok $n - renaming energy"
fi

n=$((n + 1))
fs() { # fs NAME FILE: a statistic of fetch
    awk -v n="tb.sm0.fetch.$1" '$1 == n {print $2}' "$2"
}
"$tb" --no-trace --workload reduction --size tiny >"$tmp/on" 2>&1 || echo "# flag words: reduction failed"
"$tb" --no-trace --workload reduction --size tiny --set renaming.flag_fetch=false >"$tmp/free" 2>&1 ||
    echo "# flag words free: reduction failed"
fw=$(fs flag_words "$tmp/on")
want=$(($(stat rfc_misses "$tmp/on") + $(stat pbr_fetched "$tmp/on")))
words=$(fs words "$tmp/on" | cut -d. -f1)
acc_on=$(($(fs icache_hits "$tmp/on") + $(fs icache_misses "$tmp/on")))
acc_free=$(($(fs icache_hits "$tmp/free") + $(fs icache_misses "$tmp/free")))
c_on=$(awk '$1 == "summary:" {print $3}' "$tmp/on")
c_free=$(awk '$1 == "summary:" {print $3}' "$tmp/free")
echo "# flag words $fw (rfc misses + pbrs $want), words $words, I-cache accesses $acc_on vs $acc_free, cycles $c_on vs $c_free"
if [ "${fw:-0}" -gt 100 ] && [ "$fw" = "$want" ] && [ "$words" = $(($(fs fetched "$tmp/on") + fw)) ] &&
    [ "$(fs flag_words "$tmp/free")" = 0 ] && [ "$(stat rfc_misses "$tmp/free")" = 0 ] &&
    [ "$acc_on" -gt "$acc_free" ] && [ "$c_on" -gt "$c_free" ]; then
    echo "ok $n - the flag words are fetched: fetch slots, I-cache accesses and cycles"
else
    echo "not ok $n - flag words in fetch"
fi

n=$((n + 1))
"$tb" --no-trace --workload kmeans --size tiny >"$tmp/on" 2>&1
rc_on=$?
"$tb" --no-trace --workload kmeans --size tiny --set renaming.bad_release=97 --set renaming.bad_release_callee=true \
    >"$tmp/bad" 2>&1
rc_bad=$?
ca=$(stat callee_allocations "$tmp/on")
echo "# kmeans: callee allocations $ca of $(stat allocations "$tmp/on"), wrong callee release: rc $rc_bad, $(stat poison_reads "$tmp/bad") poisoned"
if [ $rc_on -eq 0 ] && [ "${ca:-0}" -gt 0 ] && [ "$(stat allocations "$tmp/on")" = "$(stat releases "$tmp/on")" ] &&
    [ "$(stat poison_reads "$tmp/on")" = 0 ] && [ $rc_bad -eq 1 ] && grep -q "tb-renaming: kmeans: FAIL" "$tmp/bad" &&
    [ "$(stat poison_reads "$tmp/bad")" -gt 0 ]; then
    echo "ok $n - kmeans' called function is renamed; a wrong release in it fails the check"
else
    echo "not ok $n - kmeans' callee renaming"
fi

n=$((n + 1))
"$top_builddir/kernels/tools/gpusc-ptx" "$top_srcdir/kernels/ptx/kmeans.ptx" --renaming >"$tmp/ptx" 2>&1
"$tb" --no-trace --workload kmeans --size tiny >"$tmp/on" 2>&1 || echo "# kmeans failed"
"$tb" --no-trace --workload kmeans --size tiny --budget 1024 >"$tmp/b" 2>&1
rc_b=$?
w=$(($(stat arch_allocated "$tmp/on") / 28)) # resident warps: 28 registers reserved per thread
fit=$(((1024 - 1) / (w * 10)))
echo "# kmeans: $w resident warps, eq1 $(stat eq1_bits "$tmp/on"); budget 1024: $(stat exempt "$tmp/b") exempt, $(stat eq1_bits_after "$tmp/b") bits"
if grep -q "^// Eq. 1: 48 x 31 x 10 = 14880 bits = 1.82 KB (frames kmeans_assign 17 + sq_dist 14); budget 8192 bits (<): 14 exempt, 8160 bits after exemption" "$tmp/ptx" &&
    grep -q "^// its frame: 14 registers, 4 exempt" "$tmp/ptx" && [ "$(stat eq1_bits "$tmp/on")" = $((w * 31 * 10)) ] &&
    [ $rc_b -eq 0 ] && [ "$(stat exempt "$tmp/b")" = $((31 - fit)) ] && [ "$(stat eq1_bits_after "$tmp/b")" = $((w * fit * 10)) ] &&
    [ "$(stat poison_reads "$tmp/b")" = 0 ] && [ "$(stat allocations "$tmp/b")" = "$(stat releases "$tmp/b")" ]; then
    echo "ok $n - Eq. 1 and the exemption count kmeans' called frame (17 + 14 registers)"
else
    echo "not ok $n - Eq. 1 with called frames"
    grep "^// Eq. 1\|^// its frame" "$tmp/ptx"
fi

n=$((n + 1))
"$tb" --no-trace --ptx "$top_srcdir/tests/sm/ptx/renaming_divret.ptx" --entry divret --grid 1,1,1 --block 64,1,1 \
    --arg "out:$tmp/divret.bin:256" >"$tmp/out" 2>&1
rc=$?
echo "# divergent ret: rc $rc, unwritten $(stat unwritten_reads "$tmp/out"), poisoned $(stat poison_reads "$tmp/out"), ret releases $(stat releases_ret "$tmp/out")"
if [ $rc -eq 0 ] && python3 -c "
import struct, sys
v = struct.unpack('<64i', open(sys.argv[1], 'rb').read())
sys.exit(0 if all(v[t] == (-1 if t % 2 else 4 * t + 100) for t in range(64)) else 1)" "$tmp/divret.bin" &&
    [ "$(stat unwritten_reads "$tmp/out")" = 0 ] && [ "$(stat poison_reads "$tmp/out")" = 0 ] &&
    [ "$(stat allocations "$tmp/out")" = "$(stat releases "$tmp/out")" ] && [ "$(stat releases_ret "$tmp/out")" -gt 0 ]; then
    echo "ok $n - a divergent ret whose other lanes call another function keeps its frame"
else
    echo "not ok $n - divergent ret"
fi
