#!/bin/sh
# Special registers the SM answers (TAP): %nwarpid is the SM's warp slots (sm.warps), on tb-sm,
# tb-subcore and tb-gpu; the functional runner answers its own --nwarpid (48 by default).
tb="$top_builddir/testbench/tb-sm"
sc="$top_builddir/testbench/tb-subcore"
gp="$top_builddir/testbench/tb-gpu"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/sm/ptx/nwarpid.ptx"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k="--ptx $ptx --entry nwarpid --grid 3 --block 64"
n=0
fail=0
check() { # name expected-words command...
    name=$1 want=$2
    shift 2
    n=$((n + 1))
    if "$@" --arg out:"$tmp/o.bin":8 >/dev/null 2>"$tmp/err" &&
        got=$(od -An -tu4 -v "$tmp/o.bin" | awk '{ $1 = $1; print }') && [ "$got" = "$want" ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (got '${got:-}', want '$want')"
        sed 's/^/# /' "$tmp/err"
        fail=1
    fi
}
echo "1..5"
check "tb-sm: %nwarpid = 48 warp slots" "48 3" "$tb" --no-trace $k
check "tb-sm --set sm.warps=32: %nwarpid = 32" "32 3" "$tb" --no-trace --set sm.warps=32 $k
check "tb-subcore: %nwarpid = 48 warp slots (the partitions share them)" "48 3" "$sc" --no-trace $k
check "tb-gpu: %nwarpid = 48 warp slots" "48 3" "$gp" --no-trace $k
check "gpusc-run --functional --nwarpid 40" "40 3" "$run" --functional --nwarpid 40 $k
exit $fail
