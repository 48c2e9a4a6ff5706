#!/bin/sh
# tb-vws end to end (docs/vws.md): a workload passes its output check at every warp size and under
# every ganging policy; with the ganging unit, gangs issue (and split on spmv's divergent loops);
# a unit that lets a gang issue for members at other PCs (gang_unit.fault=nosplit) fails the output
# check; --vws needs 4-thread warps; the VCD holds the gang table's traced state.
set -u
TB="${top_builddir:-.}/testbench/tb-vws"
. "$top_srcdir/tests/tap.sh"

for ws in 32 16 8 4; do
    if $TB --workload spmv --size tiny --no-trace --no-progress --warp-size $ws > "$tmp/out" 2>&1 &&
        grep -q "tb-vws: spmv: PASS" "$tmp/out" && grep -q "^vws: warp size $ws, off, IPC" "$tmp/out"; then
        ok "spmv passes at warp size $ws"
    else
        no "spmv at warp size $ws"; tail -5 "$tmp/out"
    fi
done
for p in i-vws e-vws i-vws-impatient e-vws-impatient i-vws-group i-vws-lgto i-vws-lpc i-vws-lrr i-vws-gto gang-only \
    e-vws-gang-only; do
    for w in spmv sgemm; do
        if $TB --workload $w --size tiny --no-trace --no-progress --warp-size 4 --vws $p > "$tmp/out" 2>&1 &&
            grep -q "tb-vws: $w: PASS" "$tmp/out" && grep -q "pc mismatches 0$" "$tmp/out"; then
            ok "$w passes under $p"
        else
            no "$w under $p"; tail -6 "$tmp/out"
        fi
    done
    gw=$(sed -n 's/^vws: gang issues [0-9]* (\([0-9]*\) warp instructions).*/\1/p' "$tmp/out")
    if [ "${gw:-0}" -gt 0 ]; then ok "$p: $gw warp instructions issued in gangs"; else no "$p: no gang issue"; fi
done
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws e-vws > "$tmp/out" 2>&1
set -- $(sed -n 's/^vws: gangs formed \([0-9]*\), control splits \([0-9]*\), .* reformations \([0-9]*\),.*/\1 \2 \3/p' "$tmp/out")
if [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "${3:-0}" -gt 0 ]; then
    ok "spmv e-vws: $1 gangs formed, $2 control splits, $3 reformations"
else
    no "spmv e-vws: formed/splits/reforms: ${1:-} ${2:-} ${3:-}"; cat "$tmp/out"
fi

# The gang schedulers differ: spmv's cycles under each are not all BGTO's.
set --
for p in i-vws i-vws-lgto i-vws-lpc i-vws-lrr i-vws-gto; do
    $TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws $p > "$tmp/out" 2>&1
    set -- "$@" "$(sed -n 's/^summary: spmv: \([0-9]*\) cycles.*/\1/p' "$tmp/out")"
done
b=$1; shift; same=0
for c in "$@"; do [ "$c" = "$b" ] && same=$((same + 1)); done
if [ -n "$b" ] && [ $same -eq 0 ]; then ok "spmv cycles: BGTO $b, LGTO/LPC/LRR/GTO $*"; else no "gang schedulers: BGTO $b, others $*"; fi
# slice-only: the unit forms no gang, so the run is the one without the unit, statistic for statistic
# (apart from the unit's own and the simulation speed: wall clock, and the activations per cycle,
# since issue with a resource check bound is woken by every get of its outputs).
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 > "$tmp/off" 2>&1
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws slice-only > "$tmp/so" 2>&1
strip() { grep '^tb\.' "$1" | grep -v 'gang_unit\|per_second\|activations_per_cycle'; }
if grep -q "tb-vws: spmv: PASS" "$tmp/so" && strip "$tmp/off" > "$tmp/a" && strip "$tmp/so" > "$tmp/b" && cmp -s "$tmp/a" "$tmp/b" &&
    grep -q '^vws: gang issues 0 (0 warp instructions)' "$tmp/so"; then
    ok "slice-only: no gang, every statistic that of the run without the unit"
else
    no "slice-only differs from off"; diff "$tmp/a" "$tmp/b" | head -5
fi

# The deliberate bug: gangs never split, members issue for the gang at another PC: poisoned.
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws i-vws \
    --set gang_unit.fault=nosplit > "$tmp/out" 2>&1
if grep -q "tb-vws: spmv: FAIL" "$tmp/out" && ! grep -q "pc mismatches 0$" "$tmp/out"; then
    ok "a gang issuing for members at other PCs fails the output check"
else
    no "fault=nosplit did not fail"; tail -5 "$tmp/out"
fi

# The 8-wide design point: 4 slices of 8 lanes, original gangs of 4 warps.
for p in i-vws e-vws i-vws-lpc gang-only; do
    if $TB --workload spmv --size tiny --no-trace --no-progress --warp-size 8 --vws $p > "$tmp/out" 2>&1 &&
        grep -q "tb-vws: spmv: PASS" "$tmp/out" && grep -q "pc mismatches 0$" "$tmp/out" &&
        grep -q "^vws: 4 lane slice(s)" "$tmp/out" && grep -q "^vws: gang-cycles by size 2..8: [1-9][0-9]* [0-9]* [1-9][0-9]* 0 0 0 0," "$tmp/out"; then
        ok "warp size 8: spmv passes under $p, gangs of 2 to 4 warps"
    else
        no "warp size 8 under $p"; tail -6 "$tmp/out"
    fi
done
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 8 --vws i-vws --set gang_unit.fault=nosplit > "$tmp/out" 2>&1
if grep -q "tb-vws: spmv: FAIL" "$tmp/out" && ! grep -q "pc mismatches 0$" "$tmp/out"; then
    ok "warp size 8: a gang issuing for members at other PCs fails the output check"
else
    no "warp size 8: fault=nosplit did not fail"; tail -5 "$tmp/out"
fi
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 16 --vws i-vws > "$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "gangs 4- or 8-thread warps: add --warp-size 4 or --warp-size 8" "$tmp/out"; then ok "--vws at warp size 16 is a user error"; else no "--vws at warp size 16: rc $rc"; cat "$tmp/out"; fi
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 5 > "$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "warp-size 5: 32, 16, 8 or 4" "$tmp/out"; then ok "--warp-size 5 is a user error"; else no "--warp-size 5: rc $rc"; cat "$tmp/out"; fi

$TB --workload vecadd --size tiny --no-progress --warp-size 4 --vws e-vws --vcd "$tmp/w.vcd" > "$tmp/out" 2>&1
if grep -q "tb-vws: vecadd: PASS" "$tmp/out" && grep -q "set0_way0" "$tmp/w.vcd" && grep -q "issue_mask" "$tmp/w.vcd"; then
    ok "the VCD holds the gang table's traced state"
else
    no "no gang_unit state in the VCD"; tail -3 "$tmp/out"
fi
# E-VWS-Sync<XX>: the sync insertion pass finds spmv's reconvergence points; warps wait there.
for x in 10 100; do
    $TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws e-vws-sync$x > "$tmp/out" 2>&1
    set -- $(sed -n 's/^vws: sync points \([0-9]*\), warp-cycles held at them \([0-9]*\)$/\1 \2/p' "$tmp/out")
    if grep -q "tb-vws: spmv: PASS" "$tmp/out" && grep -q "pc mismatches 0$" "$tmp/out" && [ "${1:-0}" -gt 0 ] &&
        [ "${2:-0}" -gt 0 ]; then
        ok "spmv passes under e-vws-sync$x: $1 sync points, $2 warp-cycles held"
    else
        no "spmv under e-vws-sync$x"; tail -6 "$tmp/out"
    fi
done
# --area: the spec's Table 6.2 for the run's slices (8 of 4 lanes, 4 of 8 lanes).
for wa in "4 1.723" "8 0.928"; do
    set -- $wa
    $TB --workload vecadd --size tiny --no-trace --no-progress --warp-size $1 --area > "$tmp/out" 2>&1
    if grep -q "tb-vws: vecadd: PASS" "$tmp/out" && grep -q "^vws: area total $2 mm²" "$tmp/out"; then
        ok "--area at warp size $1: $2 mm² added to the SM"
    else
        no "--area at warp size $1"; grep "area" "$tmp/out"
    fi
done
echo "1..$n"
exit $fail
