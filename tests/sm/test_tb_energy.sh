#!/bin/sh
# Energy figures of a whole run against their closed forms (TAP), from --stats-json: on tb-sm and
# tb-gpu, every event's energy is its counter x its per-event energy, the register file's leakage is
# banks x cycles x period x 2.8 mW, each block's and the run's totals are the sums, the summary line
# shows the total; the energy-22nm table scales the register-file energies (4.68 -> 2.574 pJ); on
# the ccws preset's FR-FCFS DRAM every row activate costs e_activate (2000 pJ).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-energy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..7"
n=0
fail=0
for tb in tb-sm tb-gpu; do
    for node in 40nm 22nm; do
        n=$((n + 1))
        "$top_builddir/testbench/$tb" --no-trace --workload vecadd --preset gtx480 --preset energy-$node \
            --stats-json "$tmp/s.json" >"$tmp/out" 2>"$tmp/err"
        if python3 - "$tmp/s.json" "$node" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
e_rf = {"40nm": 4.68, "22nm": 2.574}[sys.argv[2]]
cycles, period = d["cycles"], 1429  # tb.period_ps
close = lambda a, b: abs(a - b) <= 1e-6 * max(1.0, abs(b))
dyn = leak = 0.0
seen = 0
for inst in d["instances"]:
    s = {k: v["value"] for k, v in inst["stats"].items()}
    if inst["type"] == "regfile":
        seen += 1
        assert close(s["energy.bank_read"], s["bank_reads"] * e_rf), inst["path"]
        assert close(s["energy.bank_write"], s["bank_writes"] * e_rf), inst["path"]
        assert close(s["energy.leak_on"], 16 * cycles * period * 2.8e-3), inst["path"]
    if inst["type"] == "opcoll":
        assert s["operand_fills"] == next(i for i in d["instances"] if i["path"] == inst["path"].replace("opcoll", "regfile"))["stats"]["bank_reads"]["value"]
        assert close(s["energy.operand_read"], s["operand_reads"] * {"40nm": 1.14, "22nm": 0.627}[sys.argv[2]])
    if "energy_dynamic" in s:
        parts = sum(v for k, v in s.items() if k.startswith("energy.") and not k.startswith("energy.leak_"))
        assert close(s["energy_dynamic"], parts), inst["path"]
        dyn += s["energy_dynamic"]
        leak += s["energy_leakage"]
assert seen >= 1
g = {k: v["value"] for k, v in d["derived"].items()}
assert close(g["energy_dynamic"], dyn) and close(g["energy_leakage"], leak)
assert close(g["energy_total"], dyn + leak)
PY
            echo "ok $n - $tb vecadd energy-$node: events x energies, leakage, totals"
        else
            echo "not ok $n - $tb vecadd energy-$node"
            fail=1
        fi
    done
    n=$((n + 1))
    if grep -q "^summary: vecadd: .*, energy [0-9.]* nJ (dynamic [0-9.]*, leakage [0-9.]*)$" "$tmp/out"; then
        echo "ok $n - $tb: the summary shows the energy"
    else
        echo "not ok $n - $tb: the summary shows the energy"
        fail=1
    fi
done
n=$((n + 1))
"$top_builddir/testbench/tb-gpu" --no-trace --workload spmv --preset ccws --stats-json "$tmp/c.json" >/dev/null 2>&1
if python3 - "$tmp/c.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
acts = 0
for inst in d["instances"]:
    if inst["type"] == "dram":
        s = {k: v["value"] for k, v in inst["stats"].items()}
        assert abs(s["energy.activate"] - s["activates"] * 2000) < 1e-6, inst["path"]
        acts += s["activates"]
assert acts > 0
PY
    echo "ok $n - tb-gpu ccws spmv: DRAM activates x e_activate"
else
    echo "not ok $n - tb-gpu ccws spmv: DRAM activates x e_activate"
    fail=1
fi
exit $fail
