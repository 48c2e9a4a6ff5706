#!/bin/sh
# test_gpusc_ptx.sh — gpusc-ptx on committed PTX: listings after each stage, annotations, resources,
# occupancy, and the error cases (TAP).
set -u
ptx_tool=${top_builddir:-.}/kernels/tools/gpusc-ptx
ptx=${top_srcdir:-.}/kernels/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
# check DESCRIPTION COMMAND...: the command succeeds
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
# has FILE REGEX: a line of FILE matches
has() { grep -Eq -- "$2" "$1"; }

echo "1..26"

"$ptx_tool" "$ptx/vecadd.ptx" >"$tmp/parse" 2>"$tmp/err"; rc=$?
check "parse: exit 0" test $rc -eq 0
check "parse: header" has "$tmp/parse" '^\.entry vecadd, 22 instructions$'
check "parse: first instruction with its index" has "$tmp/parse" '^ +0  ld\.param\.u64 %rd1, \[vecadd_param_0\];$'
check "parse: label before the branch target" has "$tmp/parse" '^\$L__21:$'

"$ptx_tool" "$ptx/vecadd.ptx" --after cfg >"$tmp/cfg"
check "cfg: entry block header" has "$tmp/cfg" '^B0: \[0\.\.9\] preds - \| succs B2 B1 \| depth 0 \| idom - \| ipdom B2$'
check "cfg: exit block header" has "$tmp/cfg" '^B2: \[21\.\.21\] preds B0 B1 \| succs exit \| depth 0 \| idom B0 \| ipdom exit$'
check "cfg: reconvergence point of the divergent branch" has "$tmp/cfg" 'bra \$L__21;  // reconv 21$'

"$ptx_tool" "$ptx/reduction.ptx" --entry reduce_sum --after cfg >"$tmp/loops"
check "cfg: a loop header at depth 1" has "$tmp/loops" '^B[0-9]+: .*\| depth 1 header \|'
check "cfg: --entry prints only that function" test "$(grep -c '^\.entry' "$tmp/loops")" -eq 1

"$ptx_tool" "$ptx/vecadd.ptx" --after regalloc >"$tmp/ra"
check "regalloc: register count in the header" has "$tmp/ra" '^\.entry vecadd  // [0-9]+ registers \(R0\.\.R[0-9]+\), 1 predicates'
check "regalloc: pairs and predicates" has "$tmp/ra" 'R[0-9]*[02468]:R[0-9]*[13579]' 
check "regalloc: predicate register" has "$tmp/ra" '^ +[0-9]+  @P0 bra'
check "regalloc: no virtual register left" test "$(grep -c '%r\|%rd\|%f\|%p' "$tmp/ra")" -eq 0

"$ptx_tool" "$ptx/vecadd.ptx" --after lastuse >"$tmp/lu"
check "lastuse: operand annotations" has "$tmp/lu" 'st\.global\.f32 \[R[0-9]+:R[0-9]+\], R[0-9]+; \{lastuse\.last\[src0\]=1, lastuse\.last\[src1\]=1\}$'
check "lastuse: guard annotation" has "$tmp/lu" '@P0 bra .*lastuse\.guard=1'

"$ptx_tool" "$ptx/vecadd.ptx" --after reconv >"$tmp/rc"
check "reconv: divergent branch and its reconvergence point" sh -c "grep -Eq 'bra .*reconv\\.div=1' '$tmp/rc' && grep -Eq '^ +21  ret; \\{reconv\\.point=1\\}$' '$tmp/rc'"

"$ptx_tool" "$ptx/sgemm.ptx" --after divergence >"$tmp/dv"
"$ptx_tool" "$ptx/vecadd.ptx" --after divergence >"$tmp/dv2"
check "divergence: uniform loop branch in sgemm, none in vecadd" sh -c "grep -Eq '@P[0-9]+ bra .*divergence\.uniform=1' '$tmp/dv' && ! grep -q 'divergence\.uniform' '$tmp/dv2' && grep -q 'divergence\.divergent\[src' '$tmp/dv2'"

"$ptx_tool" "$ptx/bfs.ptx" --resources >"$tmp/res"
want=$(sed -n 's/^entry=bfs_update registers=\([0-9]*\) .*/\1/p' "$ptx/bfs.resources")
check "resources: ours beside ptxas's (from bfs.resources)" has "$tmp/res" "^bfs_update: registers ours [0-9]+ ptxas $want \\([0-9]+%\\), predicates [0-9]+, shared 0 bytes \\(ptxas 0\\)\$"

# A kernel that calls a .func: its count is the callee's frame on top of what it keeps live across the
# call, with or without --entry (kmeans_assign: 17 of its own, 14 live across the call to sq_dist, 14).
"$ptx_tool" "$ptx/kmeans.ptx" --after regalloc >"$tmp/km"
"$ptx_tool" "$ptx/kmeans.ptx" --resources >"$tmp/kmres"
"$ptx_tool" "$ptx/kmeans.ptx" --entry kmeans_assign --resources >"$tmp/kmres2"
check "resources: a kernel's count includes the function it calls" sh -c "grep -q '^\.entry kmeans_assign  // 17 registers' '$tmp/km' && grep -q '^\.func sq_dist  // 14 registers' '$tmp/km' && grep -q '^kmeans_assign: registers ours 28 ' '$tmp/kmres' && cmp -s '$tmp/kmres' '$tmp/kmres2'"

"$ptx_tool" "$ptx/srad.ptx" --entry srad_sums --occupancy 256 >"$tmp/occ"
check "occupancy: shared bytes and limiter" has "$tmp/occ" '^srad_sums: 256 threads/block, [0-9]+ registers, 2048 shared bytes: .* limited by threads$'
"$ptx_tool" "$ptx/nw.ptx" --occupancy 32 --dynamic-shared 16384 --markdown >"$tmp/occ2"
check "occupancy: dynamic shared memory counts" has "$tmp/occ2" '^\| nw_tile \| [0-9]+ \| [0-9]+ \| 8452 \+ 16384 dynamic \| 32 \| 8 \| 48 \| [0-9]+ \| 1 \| 1 \(1\) \| shared \|'
"$ptx_tool" "$ptx/nw.ptx" --occupancy 2000 >/dev/null 2>"$tmp/e5"; rc=$?
check "error: block size out of range" sh -c "test $rc -eq 2 && grep -q '^gpusc: --occupancy' '$tmp/e5'"

"$ptx_tool" "$tmp/missing.ptx" >/dev/null 2>"$tmp/e1"; rc=$?
check "error: missing file" sh -c "test $rc -ne 0 && grep -q '^gpusc: ' '$tmp/e1'"

printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tfoo.bar %%r1;\n}\n' >"$tmp/bad.ptx"
"$ptx_tool" "$tmp/bad.ptx" >/dev/null 2>"$tmp/e2"; rc=$?
check "error: parse error names file and line" sh -c "test $rc -ne 0 && grep -q '^gpusc: .*bad\\.ptx:[0-9]' '$tmp/e2'"

"$ptx_tool" "$ptx/vecadd.ptx" --entry nosuch >/dev/null 2>"$tmp/e3"; rc=$?
check "error: unknown entry" sh -c "test $rc -ne 0 && grep -q \"^gpusc: .*no function named 'nosuch'\" '$tmp/e3'"

"$ptx_tool" "$ptx/vecadd.ptx" --after nosuch >/dev/null 2>"$tmp/e4"; rc=$?
check "error: unknown pass" sh -c "test $rc -ne 0 && grep -q \"^gpusc: unknown pass 'nosuch'\" '$tmp/e4'"

exit $fail
