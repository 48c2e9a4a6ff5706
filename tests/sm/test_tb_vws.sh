#!/bin/sh
# tb-vws end to end (docs/vws.md): a workload passes its output check at every warp size and under
# every ganging policy; with the ganging unit, gangs issue (and split on spmv's divergent loops);
# a unit that lets a gang issue for members at other PCs (gang_unit.fault=nosplit) fails the output
# check; --vws needs 4-thread warps; the VCD holds the gang table's traced state.
set -u
TB="${top_builddir:-.}/testbench/tb-vws"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

for ws in 32 16 8 4; do
    if $TB --workload spmv --size tiny --no-trace --no-progress --warp-size $ws > "$T/out" 2>&1 &&
        grep -q "tb-vws: spmv: PASS" "$T/out" && grep -q "^vws: warp size $ws, off, IPC" "$T/out"; then
        ok "spmv passes at warp size $ws"
    else
        bad "spmv at warp size $ws"; tail -5 "$T/out"
    fi
done
for p in i-vws e-vws i-vws-impatient e-vws-impatient i-vws-group; do
    for w in spmv sgemm; do
        if $TB --workload $w --size tiny --no-trace --no-progress --warp-size 4 --vws $p > "$T/out" 2>&1 &&
            grep -q "tb-vws: $w: PASS" "$T/out" && grep -q "pc mismatches 0$" "$T/out"; then
            ok "$w passes under $p"
        else
            bad "$w under $p"; tail -6 "$T/out"
        fi
    done
    gw=$(sed -n 's/^vws: gang issues [0-9]* (\([0-9]*\) warp instructions).*/\1/p' "$T/out")
    if [ "${gw:-0}" -gt 0 ]; then ok "$p: $gw warp instructions issued in gangs"; else bad "$p: no gang issue"; fi
done
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws e-vws > "$T/out" 2>&1
set -- $(sed -n 's/^vws: gangs formed \([0-9]*\), control splits \([0-9]*\), .* reformations \([0-9]*\),.*/\1 \2 \3/p' "$T/out")
if [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "${3:-0}" -gt 0 ]; then
    ok "spmv e-vws: $1 gangs formed, $2 control splits, $3 reformations"
else
    bad "spmv e-vws: formed/splits/reforms: ${1:-} ${2:-} ${3:-}"; cat "$T/out"
fi

# The deliberate bug: gangs never split, members issue for the gang at another PC: poisoned.
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 4 --vws i-vws \
    --set gang_unit.fault=nosplit > "$T/out" 2>&1
if grep -q "tb-vws: spmv: FAIL" "$T/out" && ! grep -q "pc mismatches 0$" "$T/out"; then
    ok "a gang issuing for members at other PCs fails the output check"
else
    bad "fault=nosplit did not fail"; tail -5 "$T/out"
fi

$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 8 --vws i-vws > "$T/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "gangs 4-thread warps: add --warp-size 4" "$T/out"; then ok "--vws at warp size 8 is a user error"; else bad "--vws at warp size 8: rc $rc"; cat "$T/out"; fi
$TB --workload spmv --size tiny --no-trace --no-progress --warp-size 5 > "$T/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "warp-size 5: 32, 16, 8 or 4" "$T/out"; then ok "--warp-size 5 is a user error"; else bad "--warp-size 5: rc $rc"; cat "$T/out"; fi

$TB --workload vecadd --size tiny --no-progress --warp-size 4 --vws e-vws --vcd "$T/w.vcd" > "$T/out" 2>&1
if grep -q "tb-vws: vecadd: PASS" "$T/out" && grep -q "set0_way0" "$T/w.vcd" && grep -q "issue_mask" "$T/w.vcd"; then
    ok "the VCD holds the gang table's traced state"
else
    bad "no gang_unit state in the VCD"; tail -3 "$T/out"
fi
echo "1..$n"
exit $fail
