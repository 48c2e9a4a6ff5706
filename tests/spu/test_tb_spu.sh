#!/bin/sh
# tb-spu end to end (TAP; docs/spu.md): the SPU's 3-D stencil (Algorithm 1, global blocksync) on
# the spu_grid machine, checked against the CPU reference, with the structural counts of SPU spec
# §15 UT-1 (p = 4: 16 SMs, 16 IUs, 80 CBs, 320 KB at 4 KB and 1280 KB at 16 KB; p = 2: 24 CBs), the
# blocksync count 1 + 2(G-1) + K/b, the off-chip accesses equal to the closed form 4PNK + 2N^2, the
# broken mechanism (no CB swap) failing the check, the GPU baseline passing with 4N^2K/b + 2N^2
# accesses, the VCD holding the grid's blocksync rounds and the CBs' phases; global-sync multipass
# (2 x 2 passes, pass by pass: 4PNK + 2N^2; overlapped refused with its reason) and global-sync
# partial passes (each pass's barrier over its own units: 4PNK + 2N^2, the rounds per unit, the
# broken swap failing); Algorithm 3 (producer-consumer blocksync) on 2 x 2 and
# 4 x 4, where every completed sync swaps exactly its own CB pair; multipass (2 x 2 passes, pass by
# pass and overlapped): off-chip accesses = 4PNK + 2N^2 with the VIUs' spills and restores, the
# passes' order and overlap, the spill -> restore guard (broken: the check fails); the SPU's caches
# off (no L1D or L2 statistics) and the caches on by --set; the check modes (every process awake every
# cycle, a shuffled activation order) give the normal run, under global and producer-consumer sync.
tb="$(cd "${top_builddir:-.}" && pwd)/testbench/tb-spu"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP needs $tb"
    exit 0
fi
. "$top_srcdir/tests/tap.sh"
cd "$tmp" || exit 1
echo "1..35"
nok() { no "$1"; sed 's/^/# /' "$tmp/out" | tail -8; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
# partial_example ROUNDS MODE [units]: the spec's 10 x 10-CTA example scaled to b = 4 (tb-spu's output
# in out): CTAs per pass 16 16 8 16 16 8 8 8 4, 1280 elements spilled and restored, the stand-in SMs
# storing the 2NK = 640 outputs (96 or 64 each) in ROUNDS rounds; with units, every unit's rounds are
# 21 (the global blocksyncs per pass) x the passes it serves
partial_example() {
    cp out res
    python3 - res "$1" "$2" "$3" >out 2>&1 <<'PY'
import re, sys
t = open(sys.argv[1]).read()
n = [int(m.group(1)) for m in re.finditer(r'^spu: pass \(\d+,\d+\): cycles \d+ \.\. \d+, (\d+) CTAs$', t, re.M)]
assert n == [16, 16, 8, 16, 16, 8, 8, 8, 4], n
assert re.search(r'^spu: 3 x 3 passes %s; VIU spills 1280, restores 1280 elements' % re.escape(sys.argv[3]), t, re.M)
assert re.search(r'^spu: partial passes \(8 \+ 2 CTAs per dimension\): SMs acting as interface units stored 640 elements in %s rounds$' % sys.argv[2], t, re.M)
def stat(u, s):
    return int(re.search(r'^tb\.spu\.%s\.%s +(\d+)' % (u, s), t, re.M).group(1))
for side in 'es':
    for k in range(4):
        assert stat('smiu_%s%d' % (side, k), 'offchip_stores') == (96 if k < 2 else 64), (side, k)
want = {'iu_w0': 9, 'iu_n1': 9, 'iu_w2': 6, 'iu_n3': 6, 'iu_e0': 6, 'iu_s1': 6, 'iu_e2': 4, 'iu_s3': 4,
        'smiu_e0': 3, 'smiu_s1': 3, 'smiu_e2': 2, 'smiu_s3': 2}
for u, passes in want.items() if sys.argv[4] == 'units' else ():
    assert stat(u, 'rounds') == 21 * passes, (u, stat(u, 'rounds'))
PY
}

"$tb" --size 16x16x8 --tile 4 --no-trace >out 2>&1
rc=$?
check "p=4 16x16x8 b=4 passes" "[ $rc -eq 0 ] && grep -q 'tb-spu: spu 16x16x8 b 4: cycles [0-9]* tiles 32: PASS' out"
check "p=4 structure: 16 SMs, 16 IUs, 80 CBs, 320 KB; 9 blocksyncs, 9 x 40 swaps" \
    "grep -q '^spu: 4 x 4 SMs, 16 interface units, 80 CBs (320 KB); 9 global blocksyncs, 360 CB swaps' out"
check "off-chip accesses = 4PNK + 2N^2 = 1024" "grep -q '^offchip_accesses 1024  (closed form 4PNK + 2N^2 = 1024, P = 1' out"
"$tb" --size 16x16x8 --tile 4 --cb 16 --no-trace >out 2>&1
check "16 KB CBs: 1280 KB" "grep -q '^spu: 4 x 4 SMs, 16 interface units, 80 CBs (1280 KB)' out"

"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --vcd w.vcd >out 2>&1
rc=$?
check "p=2 16x16x16 b=8 passes, 24 CBs, 5 blocksyncs, 1536 accesses" "[ $rc -eq 0 ] && grep -q '^spu: 2 x 2 SMs, 8 interface units, 24 CBs (96 KB); 5 global blocksyncs, 60 CB swaps' out && grep -q '^offchip_accesses 1536 ' out && grep -q 'PASS' out"
# the VCD: ctl.rounds counts to 5, a CB's phase toggles 5 times, an IU's round advances
if grep -q 'rounds' w.vcd && grep -q 'cb_h1_0' w.vcd && [ -f w.gtkw ]; then
    python3 - w.vcd >"$tmp/out" 2>&1 <<'PY'
import sys
ids = {}; changes = {}
cur = None
for line in open(sys.argv[1]):
    t = line.split()
    if not t: continue
    if t[0] == '$var':
        ids.setdefault(t[3], []).append(t[4])
    elif t[0] == '$scope':
        cur = t[2]
    elif t[0][0] == 'b' and len(t) == 2:
        changes.setdefault(t[1], []).append(int(t[0][1:], 2))
    elif t[0][0] in '01' and len(t) == 1:
        changes.setdefault(t[0][1:], []).append(int(t[0][0]))
rounds = [i for i, n in ids.items() if 'rounds' in n]
phase = [i for i, n in ids.items() if 'phase' in n]
assert rounds and max(max(changes.get(i, [0])) for i in rounds) == 5, "ctl.rounds does not reach 5"
assert phase and all(len(changes.get(i, [])) >= 5 for i in phase), "a CB phase toggles fewer than 5 times"
PY
    check "VCD: ctl.rounds reaches 5 and every CB phase toggles on each release" "[ $? -eq 0 ]"
else
    nok "VCD: rounds and CB phases traced"
fi

"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --no-trace --selftest-corrupt >out 2>&1
rc=$?
check "no CB swap on release: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' out && grep -q 'FAIL' out"

"$tb" --machine gpu --preset spu-gpu --size 16x16x16 --tile 8 --no-trace >out 2>&1
rc=$?
check "GPU baseline passes with 4N^2K/b + 2N^2 = 2560 accesses" "[ $rc -eq 0 ] && grep -q '^offchip_accesses 2560 ' out && grep -q 'tb-spu: gpu 16x16x16 b 8: .*PASS' out"

# pass by pass: every pass starts after the previous one's last CTA ended
passes_in_order() { awk '/^spu: pass \(/ { if (n && $5 + 0 < pe) bad = 1; pe = $7 + 0; n = 1 } END { exit bad + 0 }' out; }
"$tb" --set spu_grid.p=2 --size 32x32x16 --tile 8 --no-trace >out 2>&1
rc=$?
check "global-sync multipass (2 x 2 passes of 2 x 2 CTAs, pass by pass): PASS, 6144 = 4PNK + 2N^2 accesses, 1024 spilled + 1024 restored, 4 x 9 global blocksyncs, each pass after the previous" \
    "[ $rc -eq 0 ] && grep -q PASS out && grep -q '^offchip_accesses 6144 ' out && grep -q '^spu: 2 x 2 passes (pass by pass); VIU spills 1024, restores 1024 elements' out && grep -q ' 36 global blocksyncs' out && passes_in_order"
"$tb" --set spu_grid.p=2 --size 32x32x16 --tile 8 --no-trace --passes overlapped >out 2>&1
rc=$?
check "global-sync multipass overlapped is refused (exit 2) with the reason" "[ $rc -eq 2 ] && grep -q 'passes overlapped needs --sync local: under the global blocksync every CTA of a pass executes all 9 blocksyncs' out"
# global-sync partial passes: the spec's 10 x 10-CTA example scaled to b = 4 (N = 40 on 4 x 4), pass
# by pass; each pass's barrier counts only its CTAs' SMs, its stand-in SMs and the border units
# that serve it: 21 blocksyncs per pass (1 + 2(G-1) + K/b), a unit's rounds = 21 x its passes
"$tb" --size 40x40x8 --tile 4 --no-trace >out 2>&1
rc=$?
check "global-sync partial passes (10 x 10 CTAs on 4 x 4): PASS, 7040 = 4PNK + 2N^2 accesses with P = 3, 9 x 21 global blocksyncs, each pass after the previous" \
    "[ $rc -eq 0 ] && grep -q PASS out && grep -q '^offchip_accesses 7040  (closed form 4PNK + 2N^2 = 7040, P = 3' out && grep -q ' 189 global blocksyncs' out && grep -q '^spu: 3 x 3 passes (pass by pass); VIU spills 1280, restores 1280 elements; guard stall cycles 0$' out && passes_in_order"
partial_example 420 '(pass by pass)' units
check "global-sync partial passes: CTAs per pass 16 16 8 16 16 8 8 8 4; each unit takes part in the passes it serves only (21 rounds each); the stand-ins store the 2NK outputs" "[ $? -eq 0 ]"
"$tb" --set spu_grid.p=2 --size 24x24x16 --tile 8 --no-trace --selftest-corrupt >out 2>&1
rc=$?
check "global-sync partial passes without CB swaps: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' out"
"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --sync local --no-trace >pc2 2>&1
rc=$?
cp pc2 out
check "producer-consumer (Alg. 3) p=2 passes: 0 global rounds, 24 pair syncs = 24 swaps, 1536 accesses" "[ $rc -eq 0 ] && grep -q '^spu: 2 x 2 SMs, 8 interface units, 24 CBs (96 KB); 0 global blocksyncs, 24 CB swaps' out && grep -q '^spu: 24 producer-consumer syncs' out && grep -q '^offchip_accesses 1536 ' out && grep -q PASS out"
"$tb" --size 16x16x8 --tile 4 --sync local --no-trace >out 2>&1
rc=$?
check "producer-consumer p=4 passes: 40 pairs x 2 tiles = 80 syncs" "[ $rc -eq 0 ] && grep -q '^spu: 80 producer-consumer syncs' out && grep -q '^offchip_accesses 1024 ' out && grep -q PASS out"
"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --sync local --no-trace --selftest-corrupt >out 2>&1
rc=$?
check "producer-consumer without swaps: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' out"

# multipass: 4 x 4 CTAs on 2 x 2, K/b = 4 (UT-4's case), pass by pass and overlapped
"$tb" --set spu_grid.p=2 --size 32x32x32 --tile 8 --sync local --passes plain --no-trace >plain 2>&1
rc1=$?
"$tb" --set spu_grid.p=2 --size 32x32x32 --tile 8 --sync local --passes overlapped --no-trace >over 2>&1
rc2=$?
cp plain out
check "2 x 2 passes pass by pass: PASS, accesses = 4PNK + 2N^2 = 10240 with 2048 spilled and 2048 restored, 4 x 24 x 2 pair syncs" \
    "[ $rc1 -eq 0 ] && grep -q 'PASS' plain && grep -q '^offchip_accesses 10240  (closed form 4PNK + 2N^2 = 10240, P = 2' plain && grep -q '^spu: 2 x 2 passes (pass by pass); VIU spills 2048, restores 2048 elements' plain && grep -q '^spu: 192 producer-consumer syncs' plain"
cp over out
check "overlapped: PASS, the same accesses, spills and restores" \
    "[ $rc2 -eq 0 ] && grep -q 'PASS' over && grep -q '^offchip_accesses 10240 ' over && grep -q '^spu: 2 x 2 passes (overlapped); VIU spills 2048, restores 2048 elements' over"
python3 - plain over >out 2>&1 <<'PY'
import re, sys
def passes(f):
    return [tuple(map(int, m.groups())) for m in re.finditer(r'^spu: pass \((?:\d+),(?:\d+)\): cycles (\d+) \.\. (\d+)$', open(f).read(), re.M)]
def cycles(f):
    return int(re.search(r'cycles (\d+) tiles', open(f).read()).group(1))
pl, ov = passes(sys.argv[1]), passes(sys.argv[2])
assert len(pl) == 4 and len(ov) == 4, (pl, ov)
# pass by pass: each pass starts when the previous one has ended; overlapped: before
assert all(pl[q][0] >= pl[q - 1][1] for q in range(1, 4)), pl
assert all(ov[q][0] < ov[q - 1][1] for q in range(1, 4)), ov
assert cycles(sys.argv[2]) < cycles(sys.argv[1]), "overlap is not faster"
PY
check "pass by pass: each pass starts after the previous ended; overlapped: before, and fewer cycles" "[ $? -eq 0 ]"
# UT-5 under producer-consumer sync: each spilling VIU spills exactly K/b tiles per pass (4 x 8 x 8
# elements; east and south units spill in 2 of the 4 passes), each restoring VIU restores as many
python3 - over >out 2>&1 <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def stat(u, s):
    return int(re.search(r'^tb\.spu\.iu_%s\.%s +(\d+)' % (u, s), t, re.M).group(1))
for k in range(2):
    for u, s in (('e%d' % k, 'spills'), ('s%d' % k, 'spills'), ('w%d' % k, 'restores'), ('n%d' % k, 'restores')):
        assert stat(u, s) == 2 * 4 * 64, (u, s, stat(u, s))
    for u in ('w%d' % k, 'n%d' % k):
        assert stat(u, 'spills') == 0
    for u in ('e%d' % k, 's%d' % k):
        assert stat(u, 'restores') == 0
PY
check "UT-5: every spilling VIU spills K/b tiles per pass (512 elements in 2 passes), every restoring VIU restores as many" "[ $? -eq 0 ]"
# guard SIZE NAME [CHECK]: K/b = 1 on 2 x 2, overlapped, where a restore would come before its spill
# without the spill -> restore guard: the guard stalls restores and the run passes (and CHECK holds);
# without the guard a restore reads the poisoned spill region and the check fails
guard() {
    "$tb" --set spu_grid.p=2 --size "$1" --tile 8 --sync local --no-trace >out 2>&1
    rc=$?
    check "$2 overlapped: the guard stalls restores, PASS${3:+, $3}" \
        "[ $rc -eq 0 ] && grep -q PASS out && ! grep -q 'guard stall cycles 0$' out${3:+ && grep -q '^$3 ' out}"
    "$tb" --set spu_grid.p=2 --size "$1" --tile 8 --sync local --no-trace --set spu_iu.selftest_no_guard=true >out 2>&1
    rc=$?
    check "$2 without the guard: a restore reads the poisoned spill region, the check fails" \
        "[ $rc -eq 1 ] && grep -q 'wrong output values' out"
}
guard 32x32x8 "K/b = 1"
# partial passes: the spec's worked example scaled down (N = 320, b = 32 on 4 x 4 -> N = 40, b = 4):
# 10 x 10 CTAs, 3 x 3 passes spanning 4, 4 and 2 CTAs, 16/8/8/4 CTAs per pass; the SMs next to a
# partial pass's east and south edges store its outputs (10 roles each way x K/b = 2 rounds x 16)
"$tb" --size 40x40x8 --tile 4 --sync local --no-trace >out 2>&1
rc=$?
check "partial passes (10 x 10 CTAs on 4 x 4): PASS, accesses = 4PNK + 2N^2 = 7040 with P = 3" \
    "[ $rc -eq 0 ] && grep -q PASS out && grep -q '^offchip_accesses 7040  (closed form 4PNK + 2N^2 = 7040, P = 3' out"
partial_example 40 '(overlapped)'
check "partial passes: CTAs per pass 16 16 8 16 16 8 8 8 4; the stand-in SMs store the 2NK outputs (96 or 64 each)" "[ $? -eq 0 ]"
# K/b = 1 with a partial pass (3 x 3 CTAs on 2 x 2): the guard holds the restores; 4PNK + 2N^2 = 2688
guard 24x24x8 "partial passes, K/b = 1" "offchip_accesses 2688"
"$tb" --set spu_grid.p=2 --size 24x24x16 --tile 8 --sync local --passes plain --no-trace >out 2>&1
rc=$?
check "partial passes pass by pass: PASS, 4224 accesses" "[ $rc -eq 0 ] && grep -q PASS out && grep -q '^offchip_accesses 4224 ' out && grep -q '^spu: pass (1,1): cycles [0-9]* .. [0-9]*, 1 CTAs$' out"
# an SM acting as an interface unit (partial passes, --iu-path icnt) sends the role's requests
# through its own memory port: the border units' 8 nodes only (the parameter alone names 8), every
# role request counted by its SM's ldst (SM 3 plays two roles: east of row 1, south of column 1)
"$tb" --set spu_grid.p=2 --size 24x24x16 --tile 8 --iu-path icnt --no-trace >out 2>&1
rc=$?
cp out res
python3 - res >out 2>&1 <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def stat(u, s):
    return int(re.search(r'^tb\.%s\.%s +(\d+)' % (u, s), t, re.M).group(1))
assert re.search(r'^tb-spu: spu 24x24x16 b 8: cycles \d+ tiles 18: PASS$', t, re.M)
assert re.search(r'^offchip_accesses 4224 ', t, re.M)
assert re.search(r'SMs acting as interface units stored 768 elements in 42 rounds, 96 requests through their own memory ports$', t, re.M)
roles = {1: ['smiu_e0'], 2: ['smiu_s0'], 3: ['smiu_e1', 'smiu_s1']}
assert stat('gpu.sm0.ldst', 'iu_reqs') == 0
for sm, us in roles.items():
    got, want = stat('gpu.sm%d.ldst' % sm, 'iu_reqs'), sum(stat('spu.' + u, 'mem_reqs') for u in us)
    assert got == want == 32, (sm, got, want)
PY
py=$?
check "partial passes, icnt path: the SMs' roles send their 96 requests through the SMs' own ports (32 each by SMs 1-3), PASS, 4224 accesses" "[ $rc -eq 0 ] && [ $py -eq 0 ]"
"$tb" --set spu_grid.p=2 --size 24x24x16 --tile 8 --set spu_iu.icnt_path=1 --no-trace >out 2>&1
check "partial passes: no interconnect node for the SMs' roles (8 clients needed, not 12)" "grep -q 'icnt_path=1 needs 8 memory clients' out"
# the power trace: the energy of every 500-cycle interval (the last one to the run's end) sums to
# the run's total, dynamic and CBP energy; the statistics are the run's without it (but the
# kernel's activations, the sampler's own). By power component: each row's components sum to its
# dynamic power, each component's column to the run's energy_dynamic.<component> (a component no
# block feeds: zeros, and no statistic), and CBP is the CBs' accesses x spu_cb.e_access exactly.
"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --sync local --set spu_cb.e_access=2.5 --no-trace --stats-json plain.json >plain 2>&1
"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --sync local --set spu_cb.e_access=2.5 --no-trace --stats-json traced.json --power-trace pw.csv >out 2>&1
rc=$?
cp out res
python3 - res pw.csv plain.json traced.json >out 2>&1 <<'PY'
import csv, json, re, sys
t = open(sys.argv[1]).read()
cycles = int(re.search(r'cycles (\d+) tiles', t).group(1))
m = re.search(r'^spu: energy: total ([\d.]+) nJ \(static [\d.]+, dynamic ([\d.]+)\); CBP \(CB accesses\) ([\d.]+) nJ, CB leakage [\d.]+ nJ; IUs dynamic ([\d.]+) nJ', t, re.M)
rows = list(csv.DictReader(open(sys.argv[2])))
comps = ['IBP', 'ICP', 'DCP', 'TCP', 'CCP', 'SHRDP', 'RFP', 'SPP', 'SFUP', 'FPUP', 'SCHEDP', 'L2CP', 'MCP', 'NOCP', 'DRAMP', 'PIPEP', 'IDLE_COREP', 'CONST_DYNAMICP', 'CBP']
assert list(rows[0]) == ['cycle_from', 'cycle_to', 'energy_pj', 'dynamic_pj', 'leakage_pj', 'power_mw', 'cb_dynamic_pj', 'iu_dynamic_pj', 'dynamic_mw'] + [c + '_mw' for c in comps], list(rows[0])
assert len(rows) == (cycles + 499) // 500, (len(rows), cycles)
for i, r in enumerate(rows):
    assert int(r['cycle_from']) == 500 * i and int(r['cycle_to']) == min(500 * (i + 1), cycles), r
for col, want in (('energy_pj', 1), ('dynamic_pj', 2), ('cb_dynamic_pj', 3), ('iu_dynamic_pj', 4)):
    got = sum(float(r[col]) for r in rows) / 1e3
    assert abs(got - float(m.group(want))) < 0.01, (col, got, m.group(want))
assert any(float(r['cb_dynamic_pj']) == 0 for r in rows) and any(float(r['cb_dynamic_pj']) > 0 for r in rows)
def flat(d, p=''):
    if isinstance(d, dict):
        return {k2: v2 for k, v in d.items() for k2, v2 in flat(v, p + '.' + k).items()}
    return {p: d}
a, b = flat(json.load(open(sys.argv[3]))), flat(json.load(open(sys.argv[4])))
diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
assert all('activations' in k for k in diff), diff
st = json.load(open(sys.argv[4]))
der = {k: v['value'] for k, v in st['derived'].items()}
tot = dict.fromkeys(comps, 0.0)
for r in rows:
    dt = int(r['cycle_to']) - int(r['cycle_from'])
    pj = {c: float(r[c + '_mw']) * dt for c in comps}   # mW x cycles: pJ / period_ps
    s_mw = sum(float(r[c + '_mw']) for c in comps)
    assert abs(s_mw - float(r['dynamic_mw'])) < 1e-4 + 1e-6 * s_mw, (r, s_mw)
    if float(r['dynamic_pj']) > 0:
        k = float(r['dynamic_pj']) / (float(r['dynamic_mw']) * dt)   # the clock period, ps
        assert abs(sum(pj.values()) * k - float(r['dynamic_pj'])) < 0.01 + 1e-6 * float(r['dynamic_pj']), r
        period = k
    for c in comps:
        tot[c] += pj[c]
fed = [c for c in comps if 'energy_dynamic.' + c in der]
assert {'RFP', 'DCP', 'L2CP', 'DRAMP', 'CBP', 'PIPEP'} <= set(fed) and 'TCP' not in fed, fed
for c in comps:
    want = der.get('energy_dynamic.' + c, 0.0)
    assert abs(tot[c] * period - want) < 0.05 + 1e-6 * want, (c, tot[c] * period, want)
assert abs(sum(der['energy_dynamic.' + c] for c in fed) - der['energy_dynamic']) < 1e-6 * der['energy_dynamic']
cb = [i for i in st['instances'] if i['type'] == 'spu_cb']
acc = sum(i['stats']['reads']['value'] + i['stats']['writes']['value'] for i in cb)
assert len(cb) == 12 and acc > 0 and der['energy_dynamic.CBP'] == acc * 2.5, (len(cb), acc, der['energy_dynamic.CBP'])
PY
py=$?
check "power trace: one row per 500 cycles, summing to the run's total, dynamic, CBP and IU energy; one column per power component, summing to the row's dynamic power and to the component's total; CBP = CB accesses x e_access; statistics unchanged" "[ $rc -eq 0 ] && [ $py -eq 0 ]"
"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --no-trace --power-trace pw.csv --power-every 0 >out 2>&1
rc=$?
check "--power-every 0 is refused (exit 2)" "[ $rc -eq 2 ] && grep -q 'power-every 0: at least 1 cycle' out"

# the SPU's caches are off (preset spu): no L1D or L2 statistic counts, DRAM does the traffic (the
# producer-consumer run on 2 x 2 above)
cp pc2 out
check "caches off on the SPU: L1D and L2 count nothing, DRAM reads" \
    "grep -q '^L2: 0 accesses' out && ! grep -E '^tb\.sm[0-9]+\.ldst\.l1_(hits|misses|merged) +[1-9]' out && grep -qE '^DRAM: [1-9][0-9]* reads' out"
"$tb" --preset gtx480 --set spu_grid.p=2 --size 16x16x16 --tile 8 --sync local --no-trace >out 2>&1
check "caches on (preset gtx480): the L2 counts, PASS" \
    "grep -qE '^L2: [1-9][0-9]* accesses' out && grep -q PASS out"
for sync in global local; do
    "$tb" --set spu_grid.p=2 --size 16x16x8 --tile 8 --sync $sync --no-trace >norm 2>&1
    "$tb" --set spu_grid.p=2 --size 16x16x8 --tile 8 --sync $sync --no-trace --check=awake >out 2>&1
    "$tb" --set spu_grid.p=2 --size 16x16x8 --tile 8 --sync $sync --no-trace --check=shuffle:7 >>out 2>&1
    check "$sync sync: awake and shuffled runs are the normal run" \
        "grep -q PASS norm && [ \"\$(grep -c \"\$(grep '^tb-spu:' norm)\" out)\" = 2 ]"
done
exit $fail
