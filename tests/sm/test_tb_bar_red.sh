#!/bin/sh
# bar.red (popc/and/or) and counted barriers (bar.sync id, count; bar.arrive) on the SM (TAP): the
# kernel tests/sm/ptx/bar_red.ptx on tb-sm and tb-subcore gives, per thread t of a 96-thread block,
# the expected words (see the kernel's comment) and the same bytes as gpusc-run --functional.
tb="$top_builddir/testbench/tb-sm"
sc="$top_builddir/testbench/tb-subcore"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/sm/ptx/bar_red.ptx"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k="--ptx $ptx --entry barred --grid 1 --block 96"
n=0
fail=0
check() { # name status
    n=$((n + 1))
    if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; cat "$tmp/err"; fail=1; fi
}
echo "1..5"
awk 'BEGIN { for (t = 0; t < 96; t++) printf "%d %d %d %d %d %d %d %d\n", 32, 1, 0, 1, 0,
     t < 32 ? 1234 : t, t < 32 ? 7 : 48, t % 2 ? 9 : 48 }' >"$tmp/expected"
"$run" --functional $k --arg out:"$tmp/f.bin":3072 >/dev/null 2>"$tmp/err"
check "gpusc-run --functional runs the kernel" $?
"$tb" --no-trace $k --arg out:"$tmp/t.bin":3072 >/dev/null 2>"$tmp/err"
check "tb-sm runs the kernel" $?
od -An -tu4 -w32 -v "$tmp/t.bin" | awk '{ $1 = $1; print }' >"$tmp/got"
diff "$tmp/expected" "$tmp/got" >"$tmp/err"
check "tb-sm: bar.red popc/and/or and the counted barriers give the expected values" $?
cmp "$tmp/f.bin" "$tmp/t.bin" >"$tmp/err" 2>&1
check "tb-sm output equals the functional runner's" $?
"$sc" --no-trace $k --arg out:"$tmp/s.bin":3072 >/dev/null 2>"$tmp/err" && cmp "$tmp/f.bin" "$tmp/s.bin" >"$tmp/err" 2>&1
check "tb-subcore output equals the functional runner's" $?
exit $fail
