#!/bin/sh
# tb-greener and gpusc-ptx --greener (docs/greener.md), TAP:
#  - every workload (tiny) passes its output check under --power greener and --power sleep-reg, and
#    no read found a lost value;
#  - --power baseline runs the cycles of tb-sm on the same preset (nothing bound);
#  - a deliberately wrong encoding (rfpower.debug_off_pc: a live register turned OFF after its read)
#    makes vecadd's output check fail; the same with poison_off=false passes (so the failure is the
#    lost value);
#  - the summary's state fractions add up to 1; the leakage energy is the register-cycles x the
#    per-state powers x the period (--stats-json); greener's OFF fraction is above Sleep-Reg's;
#  - the VCD traces the registers trace_regs selects, and only those;
#  - gpusc-ptx --greener prints the encoded states; a bad W is a usage error; so are a bad --power
#    and --greener-w of tb-greener.
. "$top_srcdir/tests/tap.sh"
tb="$top_builddir/testbench/tb-greener"
. "$top_srcdir/tests/workloads.sh"
wls=$(test_workloads "$tb")
echo "1..$(( $(echo "$wls" | wc -l) * 2 + 9 ))"
for w in $wls; do
    for m in greener sleep-reg; do
        if "$tb" --no-trace --workload "$w" --size tiny --power "$m" >"$tmp/out" 2>&1 &&
            grep -q "tb-greener: $w: PASS" "$tmp/out" && grep -q "poisoned reads 0;" "$tmp/out"; then
            ok "$w under $m"
        else
            no "$w under $m"; sed 's/^/# /' "$tmp/out" | tail -5
        fi
    done
done

c_base=$("$tb" --no-trace --workload hotspot --size tiny --power baseline | sed -n 's/^tb-greener: power baseline: \([0-9]*\) cycles.*/\1/p')
c_sm=$("$top_builddir/testbench/tb-sm" --no-trace --workload hotspot --size tiny --preset greener --stats-json "$tmp/sm.json" >/dev/null &&
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$tmp/sm.json")
if [ -n "$c_base" ] && [ "$c_base" = "$c_sm" ]; then ok "baseline: tb-sm's $c_sm cycles"; else no "baseline $c_base vs tb-sm $c_sm"; fi

if ! "$tb" --no-trace --workload vecadd --size tiny --set rfpower.debug_off_pc=13 >"$tmp/out" 2>&1 &&
    grep -q "vecadd: FAIL" "$tmp/out"; then
    ok "a live register turned OFF fails the output check"
else
    no "a live register turned OFF did not fail"; sed 's/^/# /' "$tmp/out" | tail -3
fi
if "$tb" --no-trace --workload vecadd --size tiny --set rfpower.debug_off_pc=13 --set rfpower.poison_off=false \
    >"$tmp/out" 2>&1; then ok "the same without poisoning passes"; else no "without poisoning"; fi

for m in greener sleep-reg; do
    "$tb" --no-trace --workload scalarprod --size tiny --power $m --stats-json "$tmp/$m.json" >"$tmp/$m.out" 2>&1
done
if python3 - "$tmp/greener.json" "$tmp/sleep-reg.json" "$tmp/greener.out" <<'PY'; then
import json, re, sys
def rp(path):
    d = json.load(open(path))
    for inst in d["instances"]:
        if inst["type"] == "rfpower":
            return d, {k: v["value"] for k, v in inst["stats"].items()}
    raise SystemExit("no rfpower")
d, s = rp(sys.argv[1])
_, t = rp(sys.argv[2])
cyc = d["cycles"]
on, sl, off = s["reg_cycles_on"], s["reg_cycles_sleep"], s["reg_cycles_off"]
assert on + sl + off == 65536 // 32 * cyc, (on + sl + off, cyc)
period = 1366
leak = (on * 0.0875 + sl * 0.0306 + off * 0.0044) * period * 1e-3
assert abs(s["energy.leak_on"] + s["energy.leak_sleep"] + s["energy.leak_off"] - leak) < 1e-6 * leak
assert abs(s["energy.sleep_on"] - 37.3 * s["transitions_sleep"]) < 1e-6 * max(1, s["energy.sleep_on"])
assert abs(s["energy.off_on"] - 117.74 * s["transitions_off"]) < 1e-6 * max(1, s["energy.off_on"])
t_all = t["reg_cycles_on"] + t["reg_cycles_sleep"] + t["reg_cycles_off"]
assert off / (on + sl + off) > t["reg_cycles_off"] / t_all
line = [l for l in open(sys.argv[3]) if l.startswith("tb-greener: power")][0]
fr = [float(x) for x in re.findall(r"(?:ON|SLEEP|OFF) ([0-9.]+)", line)]
assert abs(sum(fr) - 1) < 0.001, fr
PY
    ok "register-cycles, leakage and transition energies, fractions"
else
    no "register-cycles, leakage and transition energies"
fi

"$tb" --workload vecadd --size tiny --set rfpower.trace_regs='w1_r*' --vcd "$tmp/g.vcd" >/dev/null 2>&1
if grep -q "w1_r0 " "$tmp/g.vcd" && ! grep -q "w0_r0 " "$tmp/g.vcd"; then ok "VCD: the selected registers"; else no "VCD trace_regs"; fi

ptx="$top_srcdir/kernels/ptx/vecadd.ptx"
if "$top_builddir/kernels/tools/gpusc-ptx" "$ptx" --greener | grep -q 'st.global.f32 \[R0:R1\], R2;  // power OFF$'; then
    ok "gpusc-ptx --greener"
else
    no "gpusc-ptx --greener"
fi
"$top_builddir/kernels/tools/gpusc-ptx" "$ptx" --greener=0 >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^gpusc: --greener: W must be" "$tmp/err"; then ok "bad W"; else no "bad W (rc $rc)"; fi
"$tb" --no-trace --workload vecadd --power nope >/dev/null 2>"$tmp/err1"
r1=$?
"$tb" --no-trace --workload vecadd --greener-w 0 >/dev/null 2>"$tmp/err2"
r2=$?
if [ $r1 -ne 0 ] && [ $r2 -ne 0 ] && grep -q "^gpusc: --power: unknown mode 'nope'" "$tmp/err1" &&
    grep -q "^gpusc: --greener-w: W must be" "$tmp/err2"; then
    ok "bad --power and --greener-w"
else
    no "bad --power ($r1) and --greener-w ($r2)"
fi
# the storage GREENER adds (spec §10.4, §10.6, §16 test 3): 64 warps, R = 64, a 32-bit PC, 8 operands
"$tb" --no-trace --workload vecadd --size tiny >"$tmp/s2" 2>&1
"$tb" --no-trace --workload vecadd --size tiny --set rfpower.lut_entries=3 >"$tmp/s3" 2>&1
"$tb" --no-trace --workload vecadd --size tiny --power sleep-reg >"$tmp/s0" 2>&1
if grep -q '^tb-greener: added storage per SM: lookup table 1280 B, register-number scoreboard 192 B$' "$tmp/s2" &&
    grep -q '^tb-greener: added storage per SM: lookup table 1920 B, register-number scoreboard 192 B$' "$tmp/s3" &&
    ! grep -q 'added storage' "$tmp/s0"; then
    ok "added storage: lookup table 1280 B at 2 entries (1920 at 3), scoreboard 192 B"
else
    no "added storage lines"; grep 'added storage' "$tmp/s2" "$tmp/s3" "$tmp/s0"
fi
exit $fail
