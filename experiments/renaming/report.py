#!/usr/bin/env python3
"""The register-renaming comparisons (docs/renaming.md) from the two sweeps' tables.

    report.py RESULTS_DIR      (experiments/results: holds renaming/ and renaming-budget/)

Writes RESULTS_DIR/renaming/summary.csv (one row per workload) and the long tables the plots are
drawn from (live.csv, leakage.csv, policies.csv), and prints the summary as a markdown table:
  - live: average and peak live physical registers against the registers the compiler reserves for
    the resident warps (warps x registers, averaged over the run);
  - leakage: register-file entry-cycles and sub-array-cycles powered on with renaming (consolidating
    policy) against the baseline's gating of the run without renaming (on at first access, never
    off); the leakage energy saved at entry level, net of the renaming table's energy;
  - cycles: the cycle overhead of renaming (table bank conflicts, allocation stalls, the flag words
    fetched), and the cycles with the flag words free (mode noflags);
  - fetch: flag words fetched and their share of the words fetched, I-cache misses on / off;
  - policies: sub-array-cycles of each allocation policy;
  - budget: exempt registers and live registers per table budget.
"""
import csv
import math
import os
import sys

P_ENTRY = 2.8 / 256  # mW per 128-bit entry [A: linear split of a 4 KB bank's 2.8 mW]
PERIOD_PS = 1429


def load(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def num(r, k):
    v = r.get(k, "")
    return float(v) if v not in ("", None) else 0.0


def main():
    res = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "results")
    rows = load(os.path.join(res, "renaming", "results.csv"))
    by = {}
    for r in rows:
        by.setdefault(r["workload"], {})[r["mode"]] = r
    rn = "tb.sm0.renaming."
    out = []
    live, leak, pol = [], [], []
    for w, m in by.items():
        if "off" not in m or "consolidate" not in m:
            continue
        off, on = m["off"], m["consolidate"]
        arch = num(on, rn + "arch_avg")
        lavg, lpeak = num(on, rn + "live_avg"), num(on, rn + "live_peak")
        base_e, ren_e = num(off, rn + "base_entry_on_cycles"), num(on, rn + "entry_on_cycles")
        base_s, ren_s = num(off, rn + "base_subarray_on_cycles"), num(on, rn + "subarray_on_cycles")
        table = (num(on, rn + "energy.leak_on_table") + num(on, rn + "energy.table_lookup") +
                 num(on, rn + "energy.table_alloc") + num(on, rn + "energy.table_release"))
        base_pj = base_e * PERIOD_PS * P_ENTRY * 1e-3
        ren_pj = ren_e * PERIOD_PS * P_ENTRY * 1e-3
        saved = 1 - (ren_pj + table) / base_pj if base_pj else 0.0
        c_off, c_on = num(off, "cycles"), num(on, "cycles")
        c_free = num(m["noflags"], "cycles") if "noflags" in m else 0.0
        fe = "tb.sm0.fetch."
        out.append({
            "workload": w,
            "reserved_avg": round(arch, 1),
            "live_avg": round(lavg, 1),
            "live_peak": int(lpeak),
            "live_over_reserved": round(lavg / arch, 3) if arch else 0,
            "entry_cycles_ratio": round(ren_e / base_e, 3) if base_e else 0,
            "subarray_cycles_ratio": round(ren_s / base_s, 3) if base_s else 0,
            "leakage_saved_net": round(saved, 3),
            "cycles_off": int(c_off),
            "cycles_on": int(c_on),
            "cycle_overhead": round(c_on / c_off - 1, 4) if c_off else 0,
            "cycles_flags_free": int(c_free),
            "flag_words": int(num(on, fe + "flag_words")),
            "flag_word_share": round(num(on, fe + "flag_words") / num(on, fe + "words"), 3)
            if num(on, fe + "words") else 0,
            "icache_misses_on_off": "%d/%d" % (num(on, fe + "icache_misses"), num(off, fe + "icache_misses")),
            "rfc_hit_rate": round(num(on, rn + "rfc_hit_rate"), 3),
            "rfc_full_stalls": int(num(on, rn + "rfc_full_stalls")),
            "exempt": int(num(on, rn + "exempt")),
            "alloc_stalls": int(num(on, rn + "alloc_stalls")),
        })
        for kind, v in (("reserved", arch), ("live_avg", lavg), ("live_peak", lpeak)):
            live.append({"workload": w, "kind": kind, "value": v, "status": "ok"})
        for kind, v in (("baseline_entry", base_e), ("renamed_entry", ren_e), ("baseline_subarray", base_s * 64),
                        ("renamed_subarray", ren_s * 64)):
            leak.append({"workload": w, "kind": kind, "value": v, "status": "ok"})
        for mode in ("consolidate", "wear", "lowest"):
            if mode in m:
                pol.append({"workload": w, "policy": mode, "value": num(m[mode], rn + "subarray_on_cycles"),
                            "status": "ok"})
    d = os.path.join(res, "renaming")
    for name, data in (("summary", out), ("live", live), ("leakage", leak), ("policies", pol)):
        if not data:
            continue
        with open(os.path.join(d, name + ".csv"), "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(data[0].keys()))
            wr.writeheader()
            wr.writerows(data)
    cols = list(out[0].keys()) if out else []
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in out:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    if out:
        g = lambda k: math.exp(sum(math.log(max(r[k], 1e-9)) for r in out) / len(out))
        print("\ngeometric means: live/reserved %.3f, entry-cycles %.3f, sub-array-cycles %.3f, "
              "cycles on/off %.4f; mean net leakage saved %.3f" %
              (g("live_over_reserved"), g("entry_cycles_ratio"), g("subarray_cycles_ratio"),
               math.exp(sum(math.log(r["cycles_on"] / r["cycles_off"]) for r in out) / len(out)),
               sum(r["leakage_saved_net"] for r in out) / len(out)))
        free = [r for r in out if r["cycles_flags_free"]]
        if free:
            print("cycles on / with the flag words free %.4f (geometric mean; %.4f to %.4f); flag words "
                  "%.3f of the words fetched (mean)" %
                  (math.exp(sum(math.log(r["cycles_on"] / r["cycles_flags_free"]) for r in free) / len(free)),
                   min(r["cycles_on"] / r["cycles_flags_free"] for r in free),
                   max(r["cycles_on"] / r["cycles_flags_free"] for r in free),
                   sum(r["flag_word_share"] for r in out) / len(out)))
    if out:  # the per-workload table of docs/renaming.md, "Measured"
        with open(os.path.join(d, "docs-table.md"), "w") as f:
            f.write("| workload | reserved | live avg | live peak | live / reserved | entry-cycles / baseline | "
                    "sub-array-cycles / baseline | leakage saved (net) | cycles on / off | flag words | "
                    "cycles on / flags free |\n|" + "---|" * 11 + "\n")
            for r in out:
                saved = round(r["leakage_saved_net"] * 100)
                f.write("| %s | %.1f | %.1f | %d | %.2f | %.2f | %.2f | %s %% | %.3f | %d (%.1f %%) | %s |\n" % (
                    r["workload"], r["reserved_avg"], r["live_avg"], r["live_peak"], r["live_over_reserved"],
                    r["entry_cycles_ratio"], r["subarray_cycles_ratio"],
                    ("\u2212%d" % -saved) if saved < 0 else "%d" % saved, r["cycles_on"] / r["cycles_off"],
                    r["flag_words"], r["flag_word_share"] * 100,
                    "%.3f" % (r["cycles_on"] / r["cycles_flags_free"]) if r["cycles_flags_free"] else "-"))
    bpath = os.path.join(res, "renaming-budget", "results.csv")
    if os.path.exists(bpath):
        print("\nbudget (bits): exempt registers / average live registers")
        b = {}
        for r in load(bpath):
            b.setdefault(r["workload"], {})[r["budget"]] = (int(num(r, rn + "exempt")), num(r, rn + "live_avg"))
        budgets = ["0", "8192", "4096", "2048", "1024"]
        print("| workload | " + " | ".join(budgets) + " |")
        print("|---|" + "---|" * len(budgets))
        for w, v in b.items():
            print("| %s | " % w + " | ".join("%d / %.1f" % v[k] if k in v else "-" for k in budgets) + " |")


if __name__ == "__main__":
    main()
