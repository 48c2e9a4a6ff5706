#!/bin/sh
# The demo blocks sleep as the SM blocks do (gsc_run_within, cycles slept charged with
# blk_sleep_charge): tb-pipeline's statistics are the same in the check modes of sc/ (every process
# awake in every cycle; a shuffled order of activations, two seeds) as in the normal run, for both
# presets. TAP.
tb="$top_builddir/testbench/tb-pipeline"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/same.py" <<'PY'
import json, sys
def flat(p):
    d = json.load(open(p))
    out = {"cycles": d["cycles"]}
    for i in d["instances"]:
        for k, v in i["stats"].items():
            out[i["path"] + "." + k] = v["value"]
    return out
a, b = flat(sys.argv[1]), flat(sys.argv[2])
diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
for k in diff[:8]:
    print("# %s: %s -> %s" % (k, a.get(k), b.get(k)))
sys.exit(1 if diff else 0)
PY
echo "1..6"
n=0
fail=0
for p in demo demo-backpressure; do
    "$tb" --preset "$p" --no-trace --stats-json "$tmp/normal.json" >/dev/null 2>&1 || fail=1
    for m in awake shuffle shuffle:5; do
        n=$((n + 1))
        if "$tb" --preset "$p" --no-trace --check="$m" --stats-json "$tmp/$m.json" >/dev/null 2>&1 &&
            python3 "$tmp/same.py" "$tmp/normal.json" "$tmp/$m.json"; then
            echo "ok $n - tb-pipeline --preset $p --check=$m: the normal run's statistics"
        else
            echo "not ok $n - tb-pipeline --preset $p --check=$m"
            fail=1
        fi
    done
done
exit $fail
