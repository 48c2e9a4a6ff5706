#!/bin/sh
# The register-file cache experiment (docs/rfcache.md): runs the four sweeps of this directory,
# draws their plots (results/*/plots/*.png) and writes results/summary.csv: per sweep point value, the
# geometric mean over the workloads of IPC and bank reads relative to the baseline, and the mean CT
# hit ratio. From the top of a tree built by scripts/build.sh:  sh experiments/rfcache/run.sh [-j N]
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
jobs=${1:--j2}
[ "$jobs" = "-j" ] && jobs="-j$2"
for s in collectors ct-sizes sthld monolithic; do
    python3 "$top/tools/gpusc-sweep" "$here/$s.sweep" $jobs
    python3 "$top/tools/gpusc-plot" "$here/$s.sweep"
done
python3 - "$here/results" <<'PY'
import csv, math, os, sys
res = sys.argv[1]
def rows(name):
    if not os.path.exists(os.path.join(res, name, "results.csv")):
        return []  # a sweep not run (tools/gpusc-sweep on one file)
    with open(os.path.join(res, name, "results.csv")) as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]
def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
out = [["sweep", "axis", "value", "points", "hit_ratio_mean", "ipc_gmean_rel", "bank_reads_gmean_rel",
        "rf_energy_gmean_rel"]]
for name, axis, base in (("collectors", "collector", "ocu_random"), ("ct-sizes", "ct", "8"), ("sthld", "sthld", "0"),
                         ("monolithic", "collector", "ocu_random")):
    rs = rows(name)
    by = {}
    for r in rs:
        by.setdefault(r[axis], {})[r["workload"]] = r
    for v, ws in by.items():
        rel = lambda k: gmean([float(ws[w][k]) / float(by[base][w][k]) for w in ws
                               if w in by[base] and float(by[base][w][k]) > 0 and float(ws[w][k]) > 0])
        hr = sum(float(ws[w]["rfcache.hit_ratio"]) for w in ws) / len(ws)
        out.append([name, axis, v, len(ws), "%.4f" % hr, "%.4f" % rel("tb.ipc"), "%.4f" % rel("rfcache.bank_reads"),
                    "%.4f" % rel("rfcache.rf_energy")])
with open(os.path.join(res, "summary.csv"), "w", newline="") as f:
    csv.writer(f).writerows(out)
for r in out:
    print(",".join(map(str, r)))
PY
