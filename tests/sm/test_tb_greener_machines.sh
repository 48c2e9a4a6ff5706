#!/bin/sh
# tb-greener on the sub-core SM and on the whole GPU (docs/greener.md), TAP:
#  - every workload (tiny) passes its output check under --power greener with --machine subcore
#    (an rfpower on the SM, every sub-core's register banks bound) and --machine gpu (an rfpower per
#    SM), with no read of a lost value; Sleep-Reg on the sub-core SM too;
#  - on the GPU the summary adds up every SM: the register-cycles are SMs x entries x cycles, and the
#    leakage printed is the sum of every rfpower's leakage energies (--stats-json);
#  - the lookup table stalls decode (decode_stalls > 0) with its 2 entries, never with lut_entries=0;
#  - a live register turned OFF (debug_off_pc) fails vecadd's check on both machines;
#  - without the lookup table (runtime_lut=false) histogram and nw pass on the SM: an older
#    instruction's late write-back or read (ldst's, a long pipe's) must not turn OFF a physical
#    register a newer instruction has written (the allocator shares physical registers between
#    register slots, which the scoreboard orders separately);
#  - a bad --machine is a usage error.
. "$top_srcdir/tests/tap.sh"
tb="$top_builddir/testbench/tb-greener"
. "$top_srcdir/tests/workloads.sh"
wls=$(test_workloads "$tb")
echo "1..$(( $(echo "$wls" | wc -l) * 3 + 7 ))"
for w in $wls; do
    for mp in subcore:greener gpu:greener subcore:sleep-reg; do
        m=${mp%%:*} p=${mp#*:}
        if "$tb" --no-trace --machine "$m" --workload "$w" --size tiny --power "$p" >"$tmp/out" 2>&1 &&
            grep -q "tb-greener: $w: PASS" "$tmp/out" && grep -q "poisoned reads 0;" "$tmp/out"; then
            ok "$w on $m under $p"
        else
            no "$w on $m under $p"; sed 's/^/# /' "$tmp/out" | tail -5
        fi
    done
done

"$tb" --no-trace --machine gpu --workload hotspot --size tiny --stats-json "$tmp/gpu.json" >"$tmp/gpu.out" 2>&1
if python3 - "$tmp/gpu.json" "$tmp/gpu.out" <<'PY'; then
import json, re, sys
d = json.load(open(sys.argv[1]))
rps = [{k: v["value"] for k, v in i["stats"].items()} for i in d["instances"] if i["type"] == "rfpower"]
line = [l for l in open(sys.argv[2]) if l.startswith("tb-greener: power")][0]
n_sms = int(re.search(r"; (\d+) SMs", line).group(1))
assert len(rps) == n_sms > 1, (len(rps), n_sms)
cells = sum(s["reg_cycles_on"] + s["reg_cycles_sleep"] + s["reg_cycles_off"] for s in rps)
assert cells == n_sms * (65536 // 32) * d["cycles"], (cells, n_sms, d["cycles"])
leak = sum(s["energy.leak_on"] + s["energy.leak_sleep"] + s["energy.leak_off"] for s in rps) / 1000
printed = float(re.search(r"RF leakage ([0-9.]+) nJ", line).group(1))
assert abs(leak - printed) < 0.06, (leak, printed)
assert sum(1 for s in rps if s["transitions_off"] > 0) > 1  # more than one SM ran CTAs
PY
    ok "gpu: register-cycles and leakage summed over the SMs"
else
    no "gpu: sums over the SMs"; sed 's/^/# /' "$tmp/gpu.out" | tail -3
fi

s2=$("$tb" --no-trace --machine subcore --workload sgemm --size tiny | sed -n 's/.*decode stalls \([0-9]*\),.*/\1/p')
s0=$("$tb" --no-trace --machine subcore --workload sgemm --size tiny --set rfpower.lut_entries=0 |
    sed -n 's/.*decode stalls \([0-9]*\),.*/\1/p')
if [ -n "$s2" ] && [ "$s2" -gt 0 ] && [ "$s0" = 0 ]; then ok "decode stalls: $s2 with 2 entries, 0 unlimited"; else no "decode stalls '$s2' '$s0'"; fi

for m in subcore gpu; do
    if ! "$tb" --no-trace --machine $m --workload vecadd --size tiny --set rfpower.debug_off_pc=13 >"$tmp/out" 2>&1 &&
        grep -q "vecadd: FAIL" "$tmp/out"; then
        ok "$m: a live register turned OFF fails the output check"
    else
        no "$m: a live register turned OFF did not fail"; sed 's/^/# /' "$tmp/out" | tail -3
    fi
done

for w in histogram nw; do
    if "$tb" --no-trace --workload $w --size tiny --set rfpower.runtime_lut=false >"$tmp/out" 2>&1 &&
        grep -q "poisoned reads 0;" "$tmp/out"; then
        ok "$w without the lookup table"
    else
        no "$w without the lookup table"; sed 's/^/# /' "$tmp/out" | tail -3
    fi
done

"$tb" --no-trace --machine nope --workload vecadd >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^gpusc: --machine: unknown machine 'nope'" "$tmp/err"; then ok "bad --machine"; else no "bad --machine ($rc)"; fi
exit $fail
