#!/bin/sh
# gpusc-ptx --reuse-hints (docs/rfcache.md), TAP: the reuse-profile hints of a straight-line kernel
# from a functional run's trace of its rewritten code, derived by hand. After allocation the kernel is
#   0 mov R0, %tid.x      1 add R1, R0, 1      2 mul R2, R1, R0      3 add R1, R2, R1
#   4 add R0, R1, R0      5 add R0, R0, R0     6 ret
# With RTHLD 1: R0 read at 1 then next at 2 (distance 1, near: equality is near) and at 4 (2: far);
# a source its own instruction redefines (3: R1, 4: R0, 5: R0) is far; R0 of 5 is never read (far).
# With RTHLD 2 pc 2's R0 (distance 2) is near; with RTHLD 0 every operand is far. The usage errors.
set -u
ptx_tool=${top_builddir:-.}/kernels/tools/gpusc-ptx
run=${top_builddir:-.}/kernels/tools/gpusc-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
cat >"$tmp/k.ptx" <<'PTX'
.version 7.0
.target sm_70
.address_size 64

.visible .entry hints()
{
	.reg .b32 %r<8>;

	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 1;
	mul.lo.s32 %r3, %r2, %r1;
	add.s32 %r4, %r3, %r2;
	add.s32 %r5, %r4, %r1;
	add.s32 %r6, %r5, %r5;
	ret;
}
PTX
"$run" --functional --rewritten --ptx "$tmp/k.ptx" --entry hints --grid 2,1,1 --block 64,1,1 \
    --trace "$tmp/t" >/dev/null 2>&1 || nok "gpusc-run --trace"

cat >"$tmp/want1" <<'EOF2'
hints pc 0 src - dst N
hints pc 1 src N dst N
hints pc 2 src NF dst N
hints pc 3 src FF dst N
hints pc 4 src FF dst N
hints pc 5 src F dst F
hints pc 6 src - dst -
EOF2
for pw in 1 2; do
    "$ptx_tool" "$tmp/k.ptx" --reuse-hints "$tmp/t" --rthld 1 --profile-warps $pw >"$tmp/got" 2>&1
    if cmp -s "$tmp/want1" "$tmp/got"; then ok "RTHLD 1, $pw warp(s): the derived hints"
    else nok "RTHLD 1, $pw warp(s)"; diff "$tmp/want1" "$tmp/got" | sed 's/^/# /'; fi
done
"$ptx_tool" "$tmp/k.ptx" --reuse-hints "$tmp/t" --rthld 2 >"$tmp/got" 2>&1
if grep -qx 'hints pc 2 src NN dst N' "$tmp/got" && grep -qx 'hints pc 3 src FF dst N' "$tmp/got"; then
    ok "RTHLD 2: distance 2 is near"
else nok "RTHLD 2"; sed 's/^/# /' "$tmp/got"; fi
"$ptx_tool" "$tmp/k.ptx" --reuse-hints "$tmp/t" --rthld 0 >"$tmp/got" 2>&1
if ! grep -q 'N' "$tmp/got" && [ "$(wc -l <"$tmp/got")" = 7 ]; then ok "RTHLD 0: every operand far"
else nok "RTHLD 0"; sed 's/^/# /' "$tmp/got"; fi

: >"$tmp/empty"
"$ptx_tool" "$tmp/k.ptx" --reuse-hints "$tmp/empty" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q '^gpusc: .*no instruction of this module' "$tmp/out"; then ok "an empty trace is an input error"
else nok "empty trace (rc $rc)"; fi
"$ptx_tool" "$tmp/k.ptx" --reuse-hints "$tmp/nope" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q '^gpusc: ' "$tmp/out"; then ok "a missing trace is an input error"; else nok "missing trace (rc $rc)"; fi
"$ptx_tool" "$tmp/k.ptx" --reuse-hints "$tmp/t" --profile-warps 0 >"$tmp/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q '^gpusc: --rthld' "$tmp/out"; then ok "--profile-warps 0 is a usage error"; else nok "--profile-warps 0 (rc $rc)"; fi
echo "1..$n"
exit $fail
