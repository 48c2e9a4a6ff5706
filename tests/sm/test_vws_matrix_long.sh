#!/bin/sh
# make check-long (TAP): every workload passes its output check at every warp size (32, 16, 8, 4 on
# the vws preset's lane slices) and under every ganging policy of tb-vws at warp sizes 4 and 8, with
# no PC mismatch, at the tiny size (SIZE to change it). reduction and bfs use shfl / vote, which
# assume 32-thread warps: below 32 tb-vws refuses them with a message, which the test checks.
# (make check runs spmv and sgemm under every policy: tests/sm/test_tb_vws.sh.)
size=${SIZE:-tiny}
policies=${POLICIES:-"i-vws e-vws i-vws-impatient e-vws-impatient i-vws-group e-vws-sync10 e-vws-sync50
e-vws-sync100 i-vws-lgto i-vws-lpc i-vws-lrr i-vws-gto gang-only e-vws-gang-only slice-only"}
. "$top_srcdir/tests/workloads.sh"
TB="$top_builddir/testbench/tb-vws"
wls=$(test_workloads "$TB")
nw=$(echo $wls | wc -w); np=$(echo $policies | wc -w)
echo "1..$((nw * (4 + 2 * np)))"
n=0
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() { # WORKLOAD ARGS...
    w=$1
    shift
    n=$((n + 1))
    "$TB" --workload "$w" --size "$size" --no-trace --no-progress "$@" >"$out" 2>&1
    rc=$?
    case "$w" in reduction | bfs) refused=yes ;; *) refused=no ;; esac
    if [ "$refused" = yes ] && [ "$2" != 32 ]; then
        if [ $rc -eq 2 ] && grep -q "assumes 32-thread warps: tb-vws refuses it at warp size" "$out"; then
            echo "ok $n - $w $*: refused (32-thread warp instructions)"
            return
        fi
    elif [ $rc -eq 0 ] && grep -q "^tb-vws: $w: PASS" "$out" && ! grep -q "pc mismatches [1-9]" "$out"; then
        echo "ok $n - $w $*: $(sed -n 's/^summary: [^:]*: \([0-9]* cycles\).*/\1/p' "$out")"
        return
    fi
    echo "not ok $n - $w $*"
    sed 's/^/# /' "$out" | grep -v '^# tb\.' | tail -5
    fail=1
}
for w in $wls; do
    for ws in 32 16 8 4; do
        run "$w" --warp-size $ws
    done
    for ws in 4 8; do
        for p in $policies; do
            run "$w" --warp-size $ws --vws $p
        done
    done
done
exit $fail
