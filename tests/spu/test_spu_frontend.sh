#!/bin/sh
# The SPU's PTX extensions in the front end (TAP; docs/spu.md "Instructions"): bar.blocksync (global
# and with a direction), ld.cb/st.cb and the SPU special registers parse and print back (gpusc-ptx)
# and survive register allocation; a CB access in the wrong direction, a bad blocksync direction
# and ld.cb without a direction are errors with the file and line; a machine without SPU (tb-gpu,
# tb-sm, tb-renaming, tb-sharing) and the functional runner (gpusc-run) refuse such a kernel with the file and line of the
# first SPU instruction.
b="${top_builddir:-.}"
src="${top_srcdir:-.}"
ptx="$b/kernels/tools/gpusc-ptx"
run="$b/kernels/tools/gpusc-run"
if [ ! -x "$ptx" ] || [ ! -x "$run" ] || [ ! -x "$b/testbench/tb-gpu" ]; then
    echo "1..0 # SKIP needs gpusc-ptx, gpusc-run and tb-gpu"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-spufe.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..11"
i=0
ok() { i=$((i + 1)); echo "ok $i - $1"; }
nok() { i=$((i + 1)); echo "not ok $i - $1"; sed 's/^/# /' "$tmp/out" | tail -8; fail=1; }
fail=0

cat >"$tmp/k.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<4>;
	mov.u32 %r1, %regpassx;
	mov.u32 %r2, %regcpassy;
	mov.u32 %r3, %reglast;
	ld.cb.west.f32 %f1, [%r1];
	ld.cb.north.f32 %f2, [%r2];
	add.f32 %f3, %f1, %f2;
	st.cb.east.f32 [%r3], %f3;
	st.cb.south.f32 [%r3+4], %f3;
	bar.blocksync;
	bar.blocksync.north;
	bar.blocksync.east;
	ret;
}
PTX
# 1: parse and print back
if "$ptx" "$tmp/k.ptx" >"$tmp/out" 2>&1 &&
    grep -q 'ld\.cb\.west\.f32 %f1, \[%r1\]' "$tmp/out" && grep -q 'st\.cb\.south\.f32 \[%r3+4\], %f3' "$tmp/out" &&
    grep -q 'bar\.blocksync;' "$tmp/out" && grep -q 'bar\.blocksync\.north;' "$tmp/out" &&
    grep -q 'bar\.blocksync\.east;' "$tmp/out" && grep -q '%regpassx' "$tmp/out" && grep -q '%reglast' "$tmp/out"; then
    ok "SPU instructions and registers parse and print back"
else
    nok "SPU instructions and registers parse and print back"
fi
# 2: the printed text parses to the same print (round trip)
sed -n 's/^ *[0-9]*  //p' "$tmp/out" >/dev/null
if "$ptx" -a regalloc "$tmp/k.ptx" >"$tmp/out" 2>&1 && grep -q 'bar\.blocksync\.east' "$tmp/out"; then
    ok "register allocation keeps them"
else
    nok "register allocation keeps them"
fi
# 3-5: errors with file and line
bad() { # name, sed expression, expected message
    sed "$2" "$tmp/k.ptx" >"$tmp/bad.ptx"
    if "$ptx" "$tmp/bad.ptx" >"$tmp/out" 2>&1; then nok "$1 (accepted)"; return; fi
    if grep -q "bad.ptx:$4:[0-9]*: .*$3" "$tmp/out"; then ok "$1"; else nok "$1"; fi
}
bad "ld.cb toward east is an error" 's/ld\.cb\.west/ld.cb.east/' "ld.cb needs the buffer it reads" 11
bad "st.cb without a direction is an error" 's/st\.cb\.east/st.cb/' "st.cb needs the buffer it writes" 14
bad "bar.blocksync with a bad direction is an error" 's/bar\.blocksync\.north/bar.blocksync.up/' "unknown modifier" 17
# 6: tb-gpu refuses the SPU kernel with its file and line
"$b/testbench/tb-gpu" --ptx "$tmp/k.ptx" --entry k --grid 1 --block 32 --arg 0 --no-trace >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "gpusc: .*k.ptx:8: regpassx needs the SPU machine (tb-spu): tb-gpu has no SPU" "$tmp/out"; then
    ok "tb-gpu refuses it (exit 2, file:line)"
else
    nok "tb-gpu refuses it (exit $rc)"
fi
# 7: tb-sm too, on the committed stencil (its first SPU instruction)
"$b/testbench/tb-sm" --ptx "$src/kernels/spu/spu_stencil.ptx" --entry gpu_stencil --grid 1 --block 1 --no-trace >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "spu_stencil.ptx:[0-9]*: .* needs the SPU machine (tb-spu): tb-sm has no SPU" "$tmp/out"; then
    ok "tb-sm refuses the SPU stencil's module"
else
    nok "tb-sm refuses the SPU stencil's module (exit $rc)"
fi
# 7b: the mechanism testbenches with a main of their own refuse it as well
for t in tb-renaming tb-sharing; do
    "$b/testbench/$t" --ptx "$src/kernels/spu/spu_stencil.ptx" --entry gpu_stencil --grid 1 --block 1 --no-trace >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -q "spu_stencil.ptx:[0-9]*: .* needs the SPU machine (tb-spu): $t has no SPU" "$tmp/out"; then
        ok "$t refuses the SPU stencil's module"
    else
        nok "$t refuses the SPU stencil's module (exit $rc)"
    fi
done
# 8: the functional runner refuses to execute bar.blocksync
sed 's/mov.u32 %r1, %regpassx;/mov.u32 %r1, 0;/; s/mov.u32 %r2, %regcpassy;/mov.u32 %r2, 0;/; s/mov.u32 %r3, %reglast;/mov.u32 %r3, 0;/; /ld.cb/d; /st.cb/d; s/add.f32 %f3, %f1, %f2;//' "$tmp/k.ptx" >"$tmp/bs.ptx"
"$run" --functional --ptx "$tmp/bs.ptx" --entry k --grid 1 --block 32 --arg 0 >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "bs.ptx:1[0-9].*bar.blocksync needs the SPU machine (tb-spu)" "$tmp/out"; then
    ok "gpusc-run refuses bar.blocksync (file:line)"
else
    nok "gpusc-run refuses bar.blocksync (exit $rc)"
fi
# 9: and a CB load
sed 's/mov.u32 %r1, %regpassx;/mov.u32 %r1, 0;/' "$tmp/k.ptx" | sed '/%regcpassy/d; /%reglast/d' >"$tmp/cb.ptx"
"$run" --functional --ptx "$tmp/cb.ptx" --entry k --grid 1 --block 32 --arg 0 >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "cb.ptx:.*communication-buffer access needs the SPU machine" "$tmp/out"; then
    ok "gpusc-run refuses ld.cb"
else
    nok "gpusc-run refuses ld.cb (exit $rc)"
fi
exit $fail
