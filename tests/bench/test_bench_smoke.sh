#!/bin/sh
# Smoke test (TAP) of bench/run-bench: --quick runs one tiny workload on every runner plus small
# scaling / idle / tracing / activation runs; the report must be written, the JSON must parse with
# every section, the markdown table must have its columns, and a measured row must carry numbers.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP needs python3"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-bench-smoke.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..5"
fail=0
if python3 "$src/bench/run-bench" --quick --build-dir "$bld" --out "$tmp/out" --no-docs >"$tmp/log" 2>&1; then
    echo "ok 1 - run-bench --quick exits 0"
else
    echo "not ok 1 - run-bench --quick failed"
    fail=1
    sed 's/^/# /' "$tmp/log" | tail -20
fi
if [ -s "$tmp/out/report.md" ] && [ -s "$tmp/out/report.json" ]; then
    echo "ok 2 - report.md and report.json written"
else
    echo "not ok 2 - report files missing"
    fail=1
fi
if python3 - "$tmp/out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("machine", "workloads", "scaling", "idle", "gpu_scale", "tracing", "activation", "targets"):
    assert k in r, k
assert r["machine"].get("cpus"), "machine"
row = r["workloads"]["vecadd"]
assert set(row) == {"functional", "tb-sm", "tb-gpu"}, row.keys()
f = row["functional"]
assert f["ok"] and f["warp_instrs"] > 0 and f["cpu_s"] >= 0 and f["maxrss_kb"] > 0, f
for tb in ("tb-sm", "tb-gpu"):
    t = row[tb]
    # a testbench that is not built is reported, never given a number
    assert t["ok"] or ("cycles" not in t and t["status"]), t
    if t["ok"]:
        assert t["cycles"] > 0 and t["warp_instrs"] == f["warp_instrs"], (tb, t, f)
a = r["activation"]
assert a["ok"] and a["ratio"] > 0, a
g = r["gpu_scale"]
assert g["ok"] and set(g["kernels"]) == {"ffmaloop", "addloop"}, g
for kernel, d in g["kernels"].items():
    for k, run in d["runs"].items():
        # every run's output is checked by run-bench; a figure only for a run that passed
        assert run["cpu"]["ok"] and run["cpu"]["warp_instrs"] > 0, (kernel, k, run)
assert len(r["targets"]) == 5
PY
then
    echo "ok 3 - report.json parses and holds every section"
else
    echo "not ok 3 - report.json malformed"
    fail=1
fi
hdr='| workload | runner | cycles | warp instrs | wall s | CPU s | cycles/s | warp instrs/s | peak RSS MiB | Ir/winstr | CPU ratio vs functional | Ir ratio vs functional |'
if grep -qF "$hdr" "$tmp/out/report.md" && grep -q '^| vecadd | functional | — | [0-9]' "$tmp/out/report.md"; then
    echo "ok 4 - report.md has the workload table with its columns"
else
    echo "not ok 4 - report.md table"
    fail=1
fi
for s in '## Machine' '## Scaling' '## Idle SMs' '## Tracing' '## Activation cost' '## Targets'; do
    grep -q "^$s" "$tmp/out/report.md" || { echo "not ok 5 - report.md lacks '$s'"; exit 1; }
done
echo "ok 5 - report.md has every section"
exit $fail
