#!/bin/sh
# Smoke test (TAP) of bench/scale-wall, the interleaved CPU-time measurement of the GPU-scale
# targets: two small repetitions on 1 and 2 SMs of both kernels must run (outputs checked by the
# script), and its JSON must hold a median per SM count, the warp instructions, the ratio of pairs, the
# ratio of the minima and that of the least-disturbed costs.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP needs python3"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-scale-wall.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
fail=0
if python3 "$src/bench/scale-wall" --build-dir "$bld" --reps 2 --sms 1,2 --iters 8 --elems 512 \
    --json "$tmp/r.json" >"$tmp/log" 2>&1; then
    echo "ok 1 - scale-wall exits 0"
else
    echo "not ok 1 - scale-wall failed"
    fail=1
    sed 's/^/# /' "$tmp/log" | tail -20
fi
if python3 - "$tmp/r.json" <<'PY'; then
import json, math, sys
r = json.load(open(sys.argv[1]))
for k in ("ffmaloop", "addloop"):
    d = r["kernels"][k]
    for n in ("1", "2"):
        # (runs this small are noise: the figures must exist, not be meaningful)
        assert math.isfinite(d[n]["median"]) and d[n]["min"] <= d[n]["median"] <= d[n]["max"], (k, n, d[n])
        assert len(d["runs"][n]) == 2 and d["warp_instrs"][n] > 0, d
    assert math.isfinite(d["ratio"]["median"]), d["ratio"]
    lo_ci, hi_ci = d["ratio"]["median_ci95"]
    pairs = [y / x for x, y in zip(d["runs"]["1"], d["runs"]["2"])]
    assert min(pairs) <= lo_ci <= hi_ci <= max(pairs), (d["ratio"], pairs)
    want = min(d["runs"]["2"]) / min(d["runs"]["1"])
    assert abs(d["ratio"]["of_minima"] - want) <= 1e-9 * abs(want), d["ratio"]
    # the least-disturbed cost: each SM count's least full run less its least setup run
    least = {}
    for n in ("1", "2"):
        assert len(d["full_cpu_s"][n]) == 2 and len(d["setup_cpu_s"][n]) == 2, d
        assert d["warp_instrs"][n] > d["setup_warp_instrs"][n] > 0, d
        least[n] = 1e6 * (min(d["full_cpu_s"][n]) - min(d["setup_cpu_s"][n])) / (
            d["warp_instrs"][n] - d["setup_warp_instrs"][n])
        assert abs(d[n]["least_disturbed"] - least[n]) <= 1e-9 * abs(least[n]) + 1e-12, (n, d[n], least[n])
    if least["1"] > 0:  # (runs this small can measure no time at all: then the ratio is NaN)
        want = least["2"] / least["1"]
        assert abs(d["ratio"]["least_disturbed"] - want) <= 1e-9 * abs(want), d["ratio"]
    else:
        assert math.isnan(d["ratio"]["least_disturbed"]), d["ratio"]
PY
    echo "ok 2 - the JSON holds medians and ratios for both kernels"
else
    echo "not ok 2 - bad JSON"
    fail=1
fi
if grep -q "^ffmaloop 2 SMs / 1 SM: median .* (95% interval .*; of the minima .*; least-disturbed" "$tmp/log" &&
    grep -q "^addloop 2 SMs / 1 SM: median .* (95% interval .*; of the minima .*; least-disturbed" "$tmp/log"; then
    echo "ok 3 - the ratio lines are printed"
else
    echo "not ok 3 - no ratio lines"
    fail=1
fi
exit $fail
