#!/bin/sh
# Scaling (TAP): the same per-SM work (vecadd, 4 CTAs of 256 threads per SM) on 1, 4 and 15 SMs of
# tb-gpu, each checked byte for byte against python3's float32 sums; the cycles are recorded in the
# TAP lines. More SMs share the same 12 L2 slices and 6 DRAM channels, so a run with more SMs may
# not finish sooner than one with fewer (same per-SM work), nor take more than 15x as long.
tb="${top_builddir:-.}/testbench/tb-gpu"
src="${top_srcdir:-.}"
if [ ! -x "$tb" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP needs $tb and python3"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..8"
i=0
fail=0
ok() { i=$((i + 1)); echo "ok $i - $1"; }
nok() { i=$((i + 1)); fail=1; echo "not ok $i - $1"; [ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err" | tail -10; }
prev=0
first=0
for n in 1 4 15; do
    elems=$((n * 4 * 256))
    python3 - "$tmp" "$elems" <<'PY'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
def f32(v): return struct.unpack("<f", struct.pack("<f", v))[0]
a = [f32(i * 0.5 + 1) for i in range(n)]
b = [f32((i % 97) * 0.25) for i in range(n)]
open(d + "/a.bin", "wb").write(struct.pack("<%df" % n, *a))
open(d + "/b.bin", "wb").write(struct.pack("<%df" % n, *b))
open(d + "/want.bin", "wb").write(struct.pack("<%df" % n, *[f32(x + y) for x, y in zip(a, b)]))
PY
    "$tb" --set gpu.sms=$n --no-trace --ptx "$src/kernels/ptx/vecadd.ptx" --entry vecadd --grid $((n * 4)) --block 256 \
        --arg "in:$tmp/a.bin" --arg "in:$tmp/b.bin" --arg "out:$tmp/c.bin:$((elems * 4))" --arg $elems \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    cycles=$(sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p' "$tmp/out")
    if [ $rc -eq 0 ] && cmp -s "$tmp/c.bin" "$tmp/want.bin"; then ok "$n SMs: output correct, $cycles cycles"; else nok "$n SMs: exit $rc"; fi
    if [ -n "$cycles" ] && [ "$cycles" -ge "$prev" ]; then ok "$n SMs: not faster than fewer SMs ($cycles >= $prev)"; else nok "$n SMs: $cycles cycles < $prev"; fi
    [ $n -eq 1 ] && first=${cycles:-0}
    prev=${cycles:-0}
done
if [ "$prev" -gt 0 ] && [ "$prev" -le $((first * 15)) ]; then ok "15 SMs within 15x the 1-SM cycles ($prev vs $first)"; else nok "15 SMs: $prev cycles vs $first on 1 SM"; fi
if grep -q '^L2: .* over 12 slices' "$tmp/out" && grep -q '^DRAM: .* over 6 channels' "$tmp/out"; then ok "memory summary printed"; else nok "memory summary"; fi
exit $fail
