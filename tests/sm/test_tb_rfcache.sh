#!/bin/sh
# tb-rfcache (docs/rfcache.md), TAP (every workload under every collector design is
# test_tb_rfcache_baselines.sh): a CCU that keeps stale copies (ccu.stale_policy=keep) fails the output
# check; the read invariant (bank reads with CCUs = the OCU's - CT hits; bank writes equal) on the same
# instruction stream; the added storage of the malekeh preset is the spec's (4 sub-cores x 2 CCUs x 2
# entries beyond the 6 operand slots x 128 B = 2048 B per SM, 0.78125 % of 256 KB) and its other
# closed-form figures (warps, registers and banks per sub-core, the two-level sets); the dynamic STHLD
# controller runs its intervals; every signal of the curated view waveforms/tb-rfcache-ccu.gtkw is in
# the VCD; a bad --collector is a usage error.
tb="$top_builddir/testbench/tb-rfcache"
. "$top_srcdir/tests/tap.sh"
stat() { awk -v k="$2" '$1 ~ k {s += $2} END {print s + 0}' "$1"; }


# A CCU that does not invalidate its copy on a write hands out stale values: the check must fail
# (every operand near so every value is cached; STHLD keeps a warp's CCU long enough for the copy to be
# read again). The CCU's own check counts the hits whose copy differed (stale_hits).
for st in 4 50; do
    "$tb" --no-trace --workload hotspot --collector ccu --hints near --sthld $st --set ccu.stale_policy=keep \
        >"$tmp/out" 2>&1
    rc=$?
    sh=$(stat "$tmp/out" 'ccu[0-9]+\.stale_hits$')
    if [ $rc = 1 ] && grep -q ": hotspot: FAIL" "$tmp/out" && [ "$sh" -gt 0 ]; then
        ok "stale copies ($sh hits) fail hotspot's output check (STHLD $st)"
    else no "stale copies fail hotspot's output check (rc $rc, $sh stale hits, STHLD $st)"; fi
    "$tb" --no-trace --workload hotspot --collector ccu --hints near --sthld $st >"$tmp/out" 2>&1
    sh=$(stat "$tmp/out" 'ccu[0-9]+\.stale_hits$')
    if grep -q ": hotspot: PASS" "$tmp/out" && [ "$sh" = 0 ]; then ok "invalidation: no stale hit, PASS (STHLD $st)"
    else no "invalidation (STHLD $st): $sh stale hits"; fi
done

# Read invariant on one instruction stream (sgemm: no schedule-dependent control flow).
for w in sgemm hotspot; do
    "$tb" --no-trace --workload $w --collector ocu_random >"$tmp/ocu" 2>&1
    "$tb" --no-trace --workload $w --collector ccu >"$tmp/ccu" 2>&1
    r0=$(stat "$tmp/ocu" 'regfile[0-9]+\.bank_reads$'); r1=$(stat "$tmp/ccu" 'regfile[0-9]+\.bank_reads$')
    w0=$(stat "$tmp/ocu" 'regfile[0-9]+\.bank_writes$'); w1=$(stat "$tmp/ccu" 'regfile[0-9]+\.bank_writes$')
    h=$(stat "$tmp/ccu" 'ccu[0-9]+\.ct_hits$')
    if [ "$h" -gt 0 ] && [ $((r0 - h)) = "$r1" ] && [ "$w0" = "$w1" ]; then
        ok "$w: bank reads $r1 = $r0 - $h hits, writes $w1 = $w0"
    else no "$w: bank reads $r1 vs $r0 - $h hits, writes $w1 vs $w0"; fi
done

# The spec's figure: sub-cores x CCUs x (CT entries - OCT slots) x 128 B, of a 256 KB register file.
spec=$((4 * 2 * (8 - 6) * 128)); pct=$(awk -v b=$spec 'BEGIN {printf "%.5f", 100 * b / 262144}')
if grep -q "^rfcache: added storage per SM $spec B ($pct% of the register file)\$" "$tmp/ccu"; then
    ok "malekeh: added storage $spec B per SM, $pct %"
else no "added storage"; grep 'added storage' "$tmp/ccu" | sed 's/^/# /'; fi

# The spec's closed-form figures of the machine (§18.1) from the configuration the testbench builds:
# 8 warps per sub-core, 64 KB of registers per sub-core, 32 KB per bank, 2 active + 6 pending warps
# (the monolithic SM: 8 active + 24 pending).
cfgval() { awk -v sec="[tb.sm0$2]" -v key="$3" '/^\[/ {in_s = ($0 == sec)} in_s && index($0, key "=") == 1 {
    sub(/^[^=]*=/, ""); print; exit}' "$1"; }
"$tb" --collector rfc --dump-config >"$tmp/cfg" 2>&1
"$tb" --collector rfc --monolithic --dump-config >"$tmp/mcfg" 2>&1
wa=$(cfgval "$tmp/cfg" "" warps); pa=$(cfgval "$tmp/cfg" "" partitions); rg=$(cfgval "$tmp/cfg" "" registers)
bk=$(cfgval "$tmp/cfg" .regfile0 banks); ac=$(cfgval "$tmp/cfg" .ccu0 active_warps)
mpa=$(cfgval "$tmp/mcfg" "" partitions); mac=$(cfgval "$tmp/mcfg" .ccu0 active_warps)
if [ "$((wa / pa))" = 8 ] && [ "$((rg * 4 / pa))" = 65536 ] && [ "$((rg * 4 / pa / bk))" = 32768 ] &&
    [ "$ac" = 2 ] && [ "$((wa / pa - ac))" = 6 ] && [ "$mpa" = 1 ] && [ "$mac" = 8 ] && [ "$((wa - mac))" = 24 ]; then
    ok "closed form: 8 warps, 64 KB and 2 banks of 32 KB per sub-core, 2 active + 6 pending (monolithic 8 + 24)"
else no "closed form: warps $wa partitions $pa registers $rg banks $bk active $ac; monolithic $mpa $mac"; fi

# Dynamic STHLD: intervals of 500 cycles on a run of several thousand.
"$tb" --no-trace --workload sgemm --collector ccu --sthld-mode dynamic --set ccu.sthld_interval=500 \
    >"$tmp/out" 2>&1
iv=$(stat "$tmp/out" 'ccu0\.sthld_intervals$')
if grep -q ': sgemm: PASS' "$tmp/out" && [ "$iv" -ge 4 ] && grep -q '^rfcache: STHLD per interval (SM 0): [0-9]' "$tmp/out"; then
    ok "dynamic STHLD: $iv intervals, trace printed"
else no "dynamic STHLD ($iv intervals)"; fi

# The same statistics whatever order the processes run in (docs/sc-api.md, "Check modes"): the CCUs
# apply opcoll's changes of a cycle from the next one.
"$tb" --no-trace --workload hotspot --collector ccu --sthld 4 2>&1 | grep -E '^tb\.sm0\.' | grep -v per_second >"$tmp/n"
for m in shuffle awake; do
    "$tb" --no-trace --workload hotspot --collector ccu --sthld 4 --check=$m 2>&1 | grep -E '^tb\.sm0\.' |
        grep -v per_second >"$tmp/m"
    if cmp -s "$tmp/n" "$tmp/m" && [ -s "$tmp/n" ]; then ok "--check=$m: every SM statistic equal"
    else no "--check=$m differs"; diff "$tmp/n" "$tmp/m" | head -5 | sed 's/^/# /'; fi
done

# tb-gpu: one STHLD controller for the GPU (sthld_scope=gpu, [S]) or one per SM.
g="$top_builddir/testbench/tb-gpu"
for sc in gpu sm; do
    "$g" --preset malekeh --workload hotspot --no-trace --set opcoll.collector=ccu --set ccu.sthld_mode=dynamic \
        --set ccu.sthld_interval=500 --set ccu.sthld_scope=$sc >"$tmp/out" 2>&1
    i0=$(stat "$tmp/out" 'sm0\.ccu0\.sthld_intervals$'); i1=$(stat "$tmp/out" 'sm1\.ccu0\.sthld_intervals$')
    want1=0; [ $sc = sm ] && want1=$i0
    if grep -q ': hotspot: PASS' "$tmp/out" && [ "$i0" -gt 0 ] && [ "$i1" = "$want1" ]; then
        ok "tb-gpu sthld_scope=$sc: SM 0 $i0 intervals, SM 1 $i1"
    else no "tb-gpu sthld_scope=$sc: SM 0 $i0, SM 1 $i1"; fi
done

# The curated view names signals the VCD has.
"$tb" --workload vecadd --collector ccu --vcd "$tmp/w.vcd" --no-progress >/dev/null 2>&1
missing=$(grep -E '^tb\.' "$top_srcdir/waveforms/tb-rfcache-ccu.gtkw" | sed 's/\[.*//' | while read -r s; do
    v=${s##*.}; grep -q " $v\( \|\[\)" "$tmp/w.vcd" || echo "$s"; done)
if [ -z "$missing" ] && grep -q 'ccu0_tag7' "$top_srcdir/waveforms/tb-rfcache-ccu.gtkw"; then
    ok "waveforms/tb-rfcache-ccu.gtkw: every signal is in the VCD"
else no "curated view: missing $missing"; fi

"$tb" --no-trace --workload vecadd --collector nope >"$tmp/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q '^gpusc: --collector: ocu, ocu_random, ccu, ccu_lru, ccu_pr, bow, rfc_2lev, rfc or sw_rfc$' "$tmp/out"; then ok "bad --collector"
else no "bad --collector (rc $rc)"; fi

echo "1..$n"
exit $fail
