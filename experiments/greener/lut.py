#!/usr/bin/env python3
# Summary of the lookup-table sweep (lut.sweep, run by run.sh): from
# experiments/results/greener-lut/results.csv to experiments/results/greener/lut.csv, one row per
# workload and table size (cycles, decode stalls, lookup-table cancels, the register file's static
# energy: rfpower's leakage plus its transition energies), and lut-gmean.csv, one row per size with
# the geometric means over the workloads of cycles and static energy over the baseline (every register
# ON).
import csv
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "..", "results")
out = os.path.join(res, "greener")
os.makedirs(out, exist_ok=True)


def stat(r, name):
    return sum(float(v) for k, v in r.items() if k.endswith(".rfpower." + name) and v not in ("", None))


def gmean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


with open(os.path.join(res, "greener-lut", "results.csv")) as f:
    runs = [r for r in csv.DictReader(f) if r["status"] == "ok"]
static = {id(r): stat(r, "energy_leakage") + stat(r, "energy_dynamic") for r in runs}
base = {r["workload"]: r for r in runs if r["lut"] == "baseline"}
data, norm = [], {}
for r in runs:
    b = base.get(r["workload"])
    if not b:
        continue
    cn = float(r["cycles"]) / float(b["cycles"])
    sn = static[id(r)] / static[id(b)]
    norm.setdefault(r["lut"], []).append((cn, sn))
    data.append([r["workload"], r["lut"], "ok", r["cycles"], "%.1f" % static[id(r)], "%.4f" % cn, "%.4f" % sn,
                 "%d" % stat(r, "decode_stalls"), "%d" % stat(r, "lut_cancels")])
order = ["baseline", "e2", "e3", "e4", "e6", "e8", "e0"]
means = []
print("lookup table: geometric means over the workloads relative to the baseline")
for k in sorted(norm, key=lambda k: order.index(k) if k in order else len(order)):
    c, s = gmean([x for x, _ in norm[k]]), gmean([y for _, y in norm[k]])
    means.append([k, "%.4f" % c, "%.4f" % s, len(norm[k])])
    print("  %-8s cycles %.3f  static %.3f  (%d workloads)" % (k, c, s, len(norm[k])))
with open(os.path.join(out, "lut.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["workload", "lut", "status", "cycles", "rf_static_pj", "cycles_norm", "rf_static_norm",
                "decode_stalls", "lut_cancels"])
    w.writerows(data)
with open(os.path.join(out, "lut-gmean.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["lut", "cycles_norm", "rf_static_norm", "workloads"])
    w.writerows(means)
