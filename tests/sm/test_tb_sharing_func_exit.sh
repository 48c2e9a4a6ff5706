#!/bin/sh
# tb-sharing on a kernel that calls a .func in which some threads execute `exit` (TAP;
# docs/sharing.md, relssp): tests/kernels/ptx/func_exit.ptx, 8 CTAs of 128 threads, 7000 bytes per
# CTA on the 16 KB SM (2 pairs), t = 0.1, its scratchpad accesses in the shared region.
#  - the functional runner runs it: the exiting threads' stores stay, the others' come after the
#    call (out[gid] = 3 (gid ^ 1) + 1 or 2);
#  - with scratchpad sharing and relssp (opt and postdom) under owf and lrr the output equals the
#    functional runner's, without violations, and every lock is released by relssp, none at CTA
#    exit (the pass puts a relssp before the function's exit; without it the CTAs whose threads left
#    there hold their locks to the end);
#  - gpusc-ptx --relssp prints the function with the relssp before its exit;
#  - a kernel with a relssp written by hand (tests/kernels/ptx/relssp_hand.ptx) run without an active
#    scratchpad sharing (--share none, registers, or scratchpad where no pair fits) passes and logs
#    "sharing inactive" with the reason; with scratchpad sharing active its relssp releases the locks.
tb="$top_builddir/testbench/tb-sharing"
run="$top_builddir/kernels/tools/gpusc-run"
gptx="$top_builddir/kernels/tools/gpusc-ptx"
ptx="$top_srcdir/tests/kernels/ptx/func_exit.ptx"
. "$top_srcdir/tests/tap.sh"
cd "$tmp" || exit 1
echo "1..6"
k="--ptx $ptx --entry func_exit --grid 8 --block 128"
"$run" --functional $k --arg out:ref.bin:4096 >run.out 2>&1
python3 - ref.bin >py.out 2>&1 <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
v = struct.unpack("<1024I", d)
bad = [g for g in range(1024) if v[g] != 3 * (g ^ 1) + (1 if g % 4 == 3 else 2)]
assert not bad, "out[%d] = %d" % (bad[0], v[bad[0]])
PY
if [ $? = 0 ]; then ok "the functional runner: the threads that exit in the function keep their stores"; else no "functional runner: $(cat run.out py.out)"; fi
field() { sed -n "s/^$1:.* $2 \([0-9]*\).*/\1/p" "$3"; }
bad=""
for pol in owf lrr; do
    for v in opt postdom; do
        # shellcheck disable=SC2086
        "$tb" $k --arg out:o.bin:4096 --preset rs-table2.3-16k --no-trace --share scratchpad \
            --smem-per-cta 7000 --policy $pol --relssp $v >o.out 2>&1
        rc=$?
        acq=$(field scratchpad acquires o.out)
        rel=$(field scratchpad releases o.out)
        ex=$(field scratchpad-hold exit_releases o.out)
        if [ $rc != 0 ] || ! cmp -s ref.bin o.bin || ! grep -q 'violations 0$' o.out || [ "${acq:-0}" -eq 0 ] ||
            [ "$rel" != "$acq" ] || [ "$ex" != 0 ]; then
            bad="$bad $pol/$v(exit $rc, acquires $acq releases $rel exit_releases $ex)"
        fi
    done
done
[ -z "$bad" ] && ok "owf and lrr, relssp opt and postdom: the output right, every lock released by relssp" ||
    no "sharing:$bad"
# shellcheck disable=SC2086
"$tb" $k --arg out:n.bin:4096 --preset rs-table2.3-16k --no-trace --share scratchpad --smem-per-cta 7000 \
    --policy owf >n.out 2>&1
ex=$(field scratchpad-hold exit_releases n.out)
if cmp -s ref.bin n.bin && [ "$(field scratchpad releases n.out)" = 0 ] && [ "${ex:-0}" -gt 0 ]; then
    ok "without relssp the locks are released at CTA exit ($ex)"
else
    no "without relssp: $(grep '^scratchpad' n.out)"
fi
"$gptx" "$ptx" --relssp >p.out 2>&1
if awk '/relssp;/ { r = NR } /exit;/ && r == NR - 1 { e++ } END { exit !(e == 1) }' p.out; then
    ok "gpusc-ptx --relssp: a relssp right before the function's exit"
else
    no "gpusc-ptx --relssp: $(cat p.out)"
fi
hk="--ptx $top_srcdir/tests/kernels/ptx/relssp_hand.ptx --entry relssp_hand --grid 8 --block 128"
bad=""
for a in "--share none" "--share registers --regs-per-thread 48" "--share scratchpad --threshold 1"; do
    # shellcheck disable=SC2086
    "$tb" $hk --arg out:h.bin:4096 --preset rs-table2.3-16k --smem-per-cta 7000 --no-trace $a >h.out 2>h.err
    rc=$?
    grep -q '^gpusc: sharing inactive: kernel relssp_hand executes relssp without a shared scratchpad (.*): it releases nothing$' h.err &&
        [ $rc = 0 ] || bad="$bad [$a: exit $rc: $(cat h.err)]"
done
[ -z "$bad" ] && ok "a relssp without an active scratchpad sharing: 'sharing inactive' and the reason logged" ||
    no "relssp without scratchpad sharing:$bad"
# shellcheck disable=SC2086
"$tb" $hk --arg out:h.bin:4096 --preset rs-table2.3-16k --smem-per-cta 7000 --no-trace --share scratchpad \
    --policy owf >h.out 2>h.err
if [ $? = 0 ] && ! grep -q 'sharing inactive' h.err && [ "$(field scratchpad releases h.out)" -gt 0 ]; then
    ok "with scratchpad sharing the written relssp releases the locks ($(field scratchpad releases h.out))"
else
    no "relssp_hand with scratchpad sharing: $(grep '^scratchpad' h.out) $(cat h.err)"
fi
exit $fail
