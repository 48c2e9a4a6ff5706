#!/usr/bin/env python3
# Summaries of the greener sweeps (run.sh): from experiments/results/greener-{power,w,nodes}/results.csv
# to experiments/results/greener/{power,w,nodes}.csv. The register file's static energy is the
# rfpower block's leakage plus its transition energies (the source includes them in every figure);
# "norm" columns are over the baseline (every register ON) of the same workload (and node).
import csv
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "..", "results")
out = os.path.join(res, "greener")
os.makedirs(out, exist_ok=True)
RP = ".rfpower."  # every SM's rfpower (tb.sm0.rfpower., the GPU's tb.<...>.sm<i>.rfpower.)


def rp_sum(r, stat):
    """A statistic of rfpower summed over the SMs."""
    return sum(float(v) for k, v in r.items() if k.endswith(RP + stat) and v not in ("", None))


def rows(name):
    with open(os.path.join(res, name, "results.csv")) as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def static(r):
    return rp_sum(r, "energy_leakage") + rp_sum(r, "energy_dynamic")


def fracs(r):
    c = [rp_sum(r, "reg_cycles_" + s) for s in ("on", "sleep", "off")]
    t = sum(c) or 1.0
    return [x / t for x in c]


def gmean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def write(name, header, data):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(data)


# power: every workload x power mode
pw = rows("greener-power")
base = {r["workload"]: r for r in pw if r["power"] == "baseline"}
data, ratios = [], {}
for r in pw:
    b = base[r["workload"]]
    fon, fsl, fof = fracs(r)
    sn = static(r) / static(b)
    cn = float(r["cycles"]) / float(b["cycles"])
    ratios.setdefault(r["power"], []).append((sn, cn))
    data.append([r["workload"], r["power"], "ok", r["cycles"], "%.4f" % cn, "%.1f" % static(r), "%.4f" % sn,
                 "%.4f" % fon, "%.4f" % fsl, "%.4f" % fof, "%d" % rp_sum(r, "wakeup_stalls"),
                 "%d" % rp_sum(r, "lut_cancels"), "%d" % rp_sum(r, "decode_stalls")])
write("power.csv", ["workload", "power", "status", "cycles", "cycles_norm", "rf_static_pj", "rf_static_norm",
                    "frac_on", "frac_sleep", "frac_off", "wakeup_stalls", "lut_cancels", "decode_stalls"], data)
print("power: geometric means over the workloads (static RF energy, cycles) relative to the baseline")
for p, v in ratios.items():
    print("  %-10s static %.3f  cycles %.3f" % (p, gmean([a for a, _ in v]), gmean([c for _, c in v])))

# W: every workload x W, normalised to the power sweep's baseline; plus the geometric mean
wr = rows("greener-w")
data, by_w = [], {}
for r in wr:
    b = base.get(r["workload"])
    if not b:
        continue
    sn = static(r) / static(b)
    cn = float(r["cycles"]) / float(b["cycles"])
    by_w.setdefault(int(r["w"]), []).append((sn, cn))
    data.append([r["workload"], r["w"], "ok", "%.4f" % sn, "%.4f" % cn])
for w in sorted(by_w):
    data.append(["gmean", w, "ok", "%.4f" % gmean([a for a, _ in by_w[w]]), "%.4f" % gmean([c for _, c in by_w[w]])])
write("w.csv", ["workload", "w", "status", "rf_static_norm", "cycles_norm"], data)
print("W: geometric means (static RF energy, cycles) relative to the baseline")
for w in sorted(by_w):
    print("  W=%-3d static %.3f  cycles %.3f" % (w, gmean([a for a, _ in by_w[w]]), gmean([c for _, c in by_w[w]])))

# nodes: per node and power, the sum over the workloads
nr = rows("greener-nodes")
tot = {}
for r in nr:
    k = (r["node"], r["power"])
    tot[k] = tot.get(k, 0.0) + static(r)
data = [[n, p, "ok", "%.1f" % tot[(n, p)]] for (n, p) in sorted(tot)]
write("nodes.csv", ["node", "power", "status", "rf_static_pj"], data)
print("nodes: static RF energy summed over the workloads, relative to the node's baseline")
for n in sorted({n for n, _ in tot}):
    print("  %s " % n + "  ".join("%s %.3f" % (p, tot[(n, p)] / tot[(n, "baseline")])
                                  for p in ("sleep_reg", "greener") if (n, p) in tot))

# machines: per machine and power, the sum over the workloads (rfpower summed over the SMs), and the
# geometric mean of the cycles over the machine's baseline
mr = rows("greener-machines")
tot, cyc, mb = {}, {}, {}
for r in mr:
    if r["power"] == "baseline":
        mb[(r["machine"], r["workload"])] = r
for r in mr:
    k = (r["machine"], r["power"])
    tot[k] = tot.get(k, 0.0) + static(r)
    b = mb.get((r["machine"], r["workload"]))
    if b:
        cyc.setdefault(k, []).append(float(r["cycles"]) / float(b["cycles"]))
data = [[m, p, "ok", "%.1f" % tot[(m, p)], "%.4f" % gmean(cyc.get((m, p), []))] for (m, p) in sorted(tot)]
write("machines.csv", ["machine", "power", "status", "rf_static_pj", "cycles_norm"], data)
print("machines: static RF energy summed over the workloads and cycles (gmean), relative to the baseline")
for m in sorted({m for m, _ in tot}):
    print("  %-8s " % m + "  ".join("%s %.3f (cycles %.3f)" % (p, tot[(m, p)] / tot[(m, "baseline")],
                                                              gmean(cyc[(m, p)]))
                                    for p in ("sleep_reg", "greener") if (m, p) in tot))
