#!/usr/bin/env python3
"""stats_same.py A.json B.json: the statistics (--stats-json) that differ between two runs of the same
model, one per line ("name: A vs B"); none printed and exit 0 when every one is equal. The simulator's
own figures (process activations per cycle, cycles per second) are left out: tracing adds processes."""
import json
import sys

SKIP = {"tb.activations_per_cycle", "tb.cycles_per_second"}


def flat(path):
    with open(path, encoding="utf-8") as f:
        js = json.load(f)
    d = {"cycles": js.get("cycles")}
    for inst in js.get("instances", []):
        for name, s in (inst.get("stats") or {}).items():
            d["%s.%s" % (inst["path"], name)] = s.get("value")
    for name, s in (js.get("derived") or {}).items():
        d[name] = s.get("value")
    return {k: v for k, v in d.items() if k not in SKIP}


if __name__ == "__main__":
    a, b = flat(sys.argv[1]), flat(sys.argv[2])
    diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    for k in diff:
        print("%s: %s vs %s" % (k, a.get(k), b.get(k)))
    sys.exit(1 if diff else 0)
