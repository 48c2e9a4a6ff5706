#!/bin/sh
# Every workload on tb-sm and tb-subcore at a size (default tiny; SIZE=default for check-long) with
# every issue policy (TAP). Each run checks the kernel's output against its CPU reference.
size=${SIZE:-tiny}
policies=${POLICIES:-"lrr gto oldest two_level_active:6:0:1"}
tbs=${TBS:-"tb-sm tb-subcore"}
. "$top_srcdir/tests/workloads.sh"
wls=$(test_workloads "$top_builddir/testbench/tb-sm")
nw=$(echo $wls | wc -w); np=$(echo $policies | wc -w); nt=$(echo $tbs | wc -w)
echo "1..$((nw * np * nt))"
n=0
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for tb in $tbs; do
    for w in $wls; do
        for p in $policies; do
            n=$((n + 1))
            if "$top_builddir/testbench/$tb" --workload "$w" --size "$size" --no-trace --set arbiter.policy="$p" >"$out" 2>&1 &&
                grep -q "^$tb: $w: PASS" "$out"; then
                echo "ok $n - $tb $w $size $p: $(sed -n 's/^summary: [^:]*: \([0-9]* cycles\).*IPC \([0-9.]*\).*/\1, IPC \2/p' "$out")"
            else
                echo "not ok $n - $tb $w $size $p"; sed 's/^/# /' "$out" | grep -v '^# tb\.' | tail -5; fail=1
            fi
        done
    done
done
exit $fail
