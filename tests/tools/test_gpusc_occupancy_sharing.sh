#!/bin/sh
# gpusc-occupancy --share (TAP): the resource-sharing computation (docs/sharing.md) on the spec's
# examples: hotspot (Ex. 2.1.1, 36 registers x 256 threads, Table 2.3 SM) with t = 0.1, 0.5 and 1 and
# as a percentage; lavaMD (Ex. 2.1.2, 7200 B on 16 KB) sharing scratchpad; a machine where the
# resource does not bind (a logged "sharing inactive" with the reason, pairs 0); and the refusals of
# bad thresholds, percentages and modes (exit 2, a message, nothing on standard output).
occ="$top_builddir/tools/gpusc-occupancy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
line() {
    name=$1 want=$2
    shift 2
    n=$((n + 1))
    got=$("$occ" "$@" 2>"$tmp/err")
    rc=$?
    if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (exit $rc, got '$got', want '$want')"
        sed 's/^/# /' "$tmp/err"
        fail=1
    fi
}
refused() {
    name=$1 pat=$2
    shift 2
    n=$((n + 1))
    "$occ" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (exit $rc)"
        sed 's/^/# /' "$tmp/out" "$tmp/err"
        fail=1
    fi
}
echo "1..13"
hs="--preset rs-table2.3 -t 256 -r 36"
# shellcheck disable=SC2086
line "hotspot t=0.1: 3 pairs, threads cap M at 6" \
    "ctas 6 baseline 3 pairs 3 unshared 0 limit registers waste-registers 5120 waste-smem 49152" \
    $hs --share registers --threshold 0.1
# shellcheck disable=SC2086
line "hotspot t=0.5: 1 pair" \
    "ctas 4 baseline 3 pairs 1 unshared 2 limit registers waste-registers 5120 waste-smem 49152" \
    $hs --share registers --threshold 0.5
# shellcheck disable=SC2086
line "hotspot 50% sharing = t 0.5" \
    "ctas 4 baseline 3 pairs 1 unshared 2 limit registers waste-registers 5120 waste-smem 49152" \
    $hs --share registers --sharing-percent 50
# shellcheck disable=SC2086
line "hotspot 0% sharing launches no pair" \
    "ctas 3 baseline 3 pairs 0 unshared 3 limit registers waste-registers 5120 waste-smem 49152" \
    $hs --share registers --sharing-percent 0
n=$((n + 1))
# shellcheck disable=SC2086
if "$occ" $hs --share registers --threshold 1 2>&1 >/dev/null | grep -q "sharing inactive: no pair fits"; then
    echo "ok $n - t=1 says why sharing is inactive"
else
    echo "not ok $n - t=1 says why sharing is inactive"
    fail=1
fi
line "lavaMD scratchpad t=0.1 (16 KB)" \
    "ctas 4 baseline 2 pairs 2 unshared 0 limit scratchpad waste-registers 30720 waste-smem 1984" \
    --preset rs-table2.3 --set sm.smem_bytes=16384 -t 128 -r 8 -s 7200 --share scratchpad
n=$((n + 1))
got=$("$occ" -t 64 -r 8 --share registers 2>"$tmp/err")
if [ "$got" = "ctas 8 baseline 8 pairs 0 unshared 8 limit ctas waste-registers 28672 waste-smem 49152" ] &&
    grep -q "sharing inactive: the baseline is limited by CTA slots (8 CTAs), not by registers (64)" "$tmp/err"; then
    echo "ok $n - registers do not bind: inactive, the reason logged"
else
    echo "not ok $n - registers do not bind ($got)"
    sed 's/^/# /' "$tmp/err"
    fail=1
fi
refused "threshold 0" "threshold '0' is outside (0, 1]" -t 256 -r 36 --share registers --threshold 0
refused "threshold 1.5" "threshold '1.5' is outside (0, 1]" -t 256 -r 36 --share registers --threshold 1.5
refused "percent 100" "sharing percentage '100' is outside \[0, 100)" -t 256 -r 36 --share registers \
    --sharing-percent 100
refused "percent -1" "sharing percentage '-1' is not a number" -t 256 -r 36 --share registers --sharing-percent -1
refused "both" "give one" -t 256 -r 36 --share registers --threshold 0.5 --sharing-percent 50
refused "mode" "expected none, registers or scratchpad" -t 256 -r 36 --share regs
exit $fail
