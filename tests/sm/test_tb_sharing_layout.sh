#!/bin/sh
# tb-sharing --smem-layout (TAP): the shared-variable layout of scratchpad sharing applied
# (docs/sharing.md "spvar_layout").
#  - tests/kernels/ptx/smem_layout.ptx declares a 4096-byte array before two 128-byte ones that a loop
#    reads; on the 16 KB SM with 7000 bytes per CTA (2 CTAs unshared, 2 pairs shared) at t = 0.1 the
#    private region is offsets 0..699: laid out, the two small arrays are placed there and only the
#    large one's accesses reach the shared region: the lock check counts fewer shared accesses and
#    fewer waits than in declaration order, and the kernel's output equals the functional runner's
#    (with and without relssp, which then goes right after the large array's last access);
#  - every workload that uses the scratchpad passes its output check with the layout and relssp
#    (postdom) under owf, without violations;
#  - --smem-layout without scratchpad sharing: exit 2 with a message.
tb="$top_builddir/testbench/tb-sharing"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/kernels/ptx/smem_layout.ptx"
. "$top_srcdir/tests/tap.sh"
cd "$tmp" || exit 1
echo "1..5"
k="--ptx $ptx --entry layout3 --grid 16 --block 128"
sp="--preset rs-table2.3-16k --no-trace --share scratchpad --smem-per-cta 7000 --policy owf"
"$run" --functional --ptx "$ptx" --entry layout3 --grid 16 --block 128 --arg out:ref.bin:8192 --arg 16 >run.out 2>&1 ||
    echo "# gpusc-run: $(cat run.out)"
field() { # field NAME FILE: the number after NAME on the scratchpad: line
    sed -n "s/^scratchpad:.* $1 \([0-9]*\).*/\1/p" "$2"
}
# shellcheck disable=SC2086
"$tb" $k --arg out:decl.bin:8192 --arg 16 $sp >decl.out 2>&1
rc1=$?
# shellcheck disable=SC2086
"$tb" $k --arg out:lay.bin:8192 --arg 16 $sp --smem-layout >lay.out 2>&1
rc2=$?
a1=$(field accesses decl.out)
a2=$(field accesses lay.out)
w1=$(field waits decl.out)
w2=$(field waits lay.out)
echo "# declaration order: accesses $a1 waits $w1; laid out: accesses $a2 waits $w2"
if [ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -q 'pairs 2 unshared 0$' lay.out && [ -n "$a1" ] && [ -n "$a2" ] &&
    [ "$a2" -lt "$a1" ] && [ "$w2" -lt "$w1" ]; then
    ok "laid out, fewer accesses reach the shared region ($a1 -> $a2) and fewer waits ($w1 -> $w2)"
else
    no "layout: exit $rc1 $rc2, accesses $a1 -> $a2, waits $w1 -> $w2"
fi
if [ -s ref.bin ] && cmp -s ref.bin decl.bin && cmp -s ref.bin lay.bin && grep -q 'violations 0$' lay.out; then
    ok "the output equals the functional runner's, in declaration order and laid out"
else
    no "the output differs from the functional runner's"
fi
# shellcheck disable=SC2086
"$tb" $k --arg out:rel.bin:8192 --arg 16 $sp --smem-layout --relssp opt >rel.out 2>&1
rc=$?
if [ $rc = 0 ] && cmp -s ref.bin rel.bin && grep -q 'violations 0$' rel.out &&
    [ "$(field releases rel.out)" -gt 0 ]; then
    ok "laid out with relssp: released by relssp, the output right"
else
    no "laid out with relssp (exit $rc): $(grep '^scratchpad:' rel.out)"
fi
bad=""
for w in backprop convolution histogram hotspot nbody nw pathfinder reduction scalarprod sgemm srad transpose; do
    smem=7000
    [ "$w" = nw ] && smem=9000 # nw's kernel declares 8452 bytes
    "$tb" --workload "$w" --preset rs-table2.3-16k --size tiny --no-trace --share scratchpad --smem-per-cta $smem \
        --policy owf --smem-layout --relssp postdom >w.out 2>&1 || bad="$bad $w"
    grep -q "violations 0$" w.out || bad="$bad $w(violations)"
done
if [ -z "$bad" ]; then ok "every scratchpad workload passes laid out with relssp"; else no "layout:$bad"; fi
"$tb" --workload sgemm --size tiny --no-trace --smem-layout >e.out 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'smem-layout.*needs --share scratchpad' e.out; then
    ok "--smem-layout without scratchpad sharing: exit 2"
else
    no "--smem-layout without scratchpad sharing (exit $rc): $(cat e.out)"
fi
exit $fail
