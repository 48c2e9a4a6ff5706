#!/bin/sh
# gpusc-ptx --smem-layout (docs/sharing.md, "Applying the layout"), TAP: the scratchpad layout the
# spvar_layout pass chooses, as tb-sharing --smem-layout applies it, on tests/kernels/ptx/smem_layout.ptx
# (`big`, 4096 bytes, declared before `sa` and `sb`, 128 bytes each, which a loop reads; 6 scratchpad
# accesses, 4 of them to sa or sb):
#  - t = 0.1 with 7000 bytes per CTA: private offsets below 700; sa and sb at 0 and 128, private, big at
#    256 straddling the boundary; the accesses of sa and sb (4) annotated private;
#  - t = 0.1 with the kernel's own 4352 bytes: private offsets below 436, the same placement;
#  - t = 0.02 with 7000 bytes: private offsets below 140: only sa fits; big and sb follow it in
#    declaration order (big at 128, sb at 4224, shared): 2 accesses private;
#  - t = 1: nothing needs the shared region: declaration order, everything private;
#  - a kernel without scratchpad variables: its line and no variable;
#  - usage errors: a threshold outside (0, 1], --threshold or --smem-per-cta without --smem-layout.
. "$top_srcdir/tests/tap.sh"
ptx_tool="$top_builddir/kernels/tools/gpusc-ptx"
ptx="$top_srcdir/tests/kernels/ptx/smem_layout.ptx"
echo "1..8"
# layout NAME WANT ARGS...: gpusc-ptx --smem-layout ARGS prints WANT (every space run squeezed to one)
layout() {
    name=$1 want=$2
    shift 2
    if "$ptx_tool" "$ptx" --smem-layout "$@" >"$tmp/out" 2>"$tmp/err" &&
        [ "$(tr -s ' ' <"$tmp/out")" = "$want" ]; then
        ok "$name"
    else
        no "$name"
        sed 's/^/# /' "$tmp/out" "$tmp/err"
    fi
}
layout "t 0.1, 7000 bytes per CTA: sa and sb private, big from 256" "layout3: scratchpad 4352 bytes, R_tb 7000, t 1/10: private offsets below 700, accesses 6 private 4
 sa offset 0 size 128 private
 sb offset 128 size 128 private
 big offset 256 size 4096 private+shared" --smem-per-cta 7000
layout "t 0.1, the kernel's own bytes" "layout3: scratchpad 4352 bytes, R_tb 4352, t 1/10: private offsets below 436, accesses 6 private 4
 sa offset 0 size 128 private
 sb offset 128 size 128 private
 big offset 256 size 4096 private+shared"
layout "t 0.02: only sa fits the private region" "layout3: scratchpad 4352 bytes, R_tb 7000, t 2/100: private offsets below 140, accesses 6 private 2
 sa offset 0 size 128 private
 big offset 128 size 4096 private+shared
 sb offset 4224 size 128 shared" --threshold 0.02 --smem-per-cta 7000 --entry layout3
layout "t 1: declaration order, all private" "layout3: scratchpad 4352 bytes, R_tb 4352, t 1/1: private offsets below 4352, accesses 6 private 6
 big offset 0 size 4096 private
 sa offset 4096 size 128 private
 sb offset 4224 size 128 private" --threshold 1
if "$ptx_tool" "$top_srcdir/tests/kernels/ptx/diverge.ptx" --smem-layout >"$tmp/out" 2>"$tmp/err" &&
    [ "$(grep -c . "$tmp/out")" = 5 ] && ! grep -q "^ " "$tmp/out" && grep -q "^ifelse: scratchpad 0 bytes, R_tb 0, t 1/10: private offsets below 0, accesses 0 private 0$" "$tmp/out"; then
    ok "a kernel without scratchpad variables"
else
    no "a kernel without scratchpad variables"
    sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
# refused NAME PATTERN ARGS...: exit 2, PATTERN on stderr, nothing on stdout
refused() {
    name=$1 pat=$2
    shift 2
    "$ptx_tool" "$ptx" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "^gpusc: $pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        no "$name (exit $rc)"
        sed 's/^/# /' "$tmp/err"
    fi
}
refused "a threshold above 1" "--threshold: .*1.5" --smem-layout --threshold 1.5
refused "--threshold without --smem-layout" "--threshold and --smem-per-cta go with --smem-layout" --threshold 0.5
refused "--smem-per-cta without --smem-layout" "--threshold and --smem-per-cta go with --smem-layout" --smem-per-cta 7000
exit $fail
