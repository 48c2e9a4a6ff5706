#!/bin/sh
# The SPU interface units' off-chip path (TAP; docs/spu.md): with --iu-path icnt every unit is a
# memory client of the GPU's interconnect and its loads and stores go through the icnt, the L2
# slices and DRAM: the stencil passes, the off-chip element count is the closed form as with the
# idealised path, the interconnect carries exactly the units' requests more (one per face row per
# tile: 8 units x 2 tiles x 8 rows = 128 for p = 2, 16^3, b = 8), the units count them; one pass
# (global and producer-consumer sync), multipass with partial passes, the spill -> restore guard
# (broken: the check fails); the parameter set without the interconnect's clients is refused; the
# units' own off-chip energy (e_offchip) counted on the ideal path only: through the interconnect the
# L2 and DRAM count those accesses.
tb="$(cd "${top_builddir:-.}" && pwd)/testbench/tb-spu"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP needs $tb"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-iupath.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
echo "1..7"
i=0
fail=0
ok() { i=$((i + 1)); echo "ok $i - $1"; }
nok() { i=$((i + 1)); fail=1; echo "not ok $i - $1"; sed 's/^/# /' "$tmp/out" | tail -8; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
stat() { sed -n "s/^$1  *\([0-9]*\) .*/\1/p" "$2"; }
sum_mem_reqs() { awk '/^tb\.spu\.(iu|smiu)_[a-z0-9]*\.mem_reqs / {s += $2} END {print s + 0}' "$1"; }

small="--set spu_grid.p=2 --size 16x16x16 --tile 8 --sync local --no-trace"
"$tb" $small >ideal 2>&1
rc1=$?
"$tb" $small --iu-path icnt >icnt 2>&1
rc2=$?
cp icnt out
pi=$(stat 'tb\.gpu\.icnt\.req_packets' ideal)
pn=$(stat 'tb\.gpu\.icnt\.req_packets' icnt)
check "icnt path: PASS, 1536 accesses as the ideal path, 128 more interconnect requests, all the units'" \
    "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q PASS icnt && grep -q '^offchip_accesses 1536 ' icnt && grep -q '^offchip_accesses 1536 ' ideal && [ \$((pn - pi)) -eq 128 ] && [ \$(sum_mem_reqs icnt) -eq 128 ] && [ \$(sum_mem_reqs ideal) -eq 0 ]"
check "icnt path: the units wait for memory, the cycles differ from the ideal path's" \
    "[ \$(awk '/^tb\.spu\.iu_[a-z0-9]*\.mem_wait_cycles/ {s += \$2} END {print s + 0}' icnt) -gt 0 ] && [ \"\$(grep '^tb-spu:' ideal)\" != \"\$(grep '^tb-spu:' icnt)\" ]"
# (the units' element counts times e_offchip on the ideal path, nothing on the interconnect path)
iu_energy() { awk '/^tb\.spu\.iu_[a-z0-9]*\.energy\.(load|store|spill|restore) / {s += $2} END {printf "%d", s}' "$1"; }
iu_elems() { awk '/^tb\.spu\.iu_[a-z0-9]*\.(offchip_loads|offchip_stores|spills|restores) / {s += $2} END {print s + 0}' "$1"; }
cp icnt out
check "off-chip energy counted once: the units' e_offchip on the ideal path (elements x 640 pJ), none through the interconnect" \
    "[ \$(iu_elems ideal) -gt 0 ] && [ \$(iu_energy ideal) -eq \$((\$(iu_elems ideal) * 640)) ] && [ \$(iu_elems icnt) -eq \$(iu_elems ideal) ] && [ \$(iu_energy icnt) -eq 0 ]"
"$tb" --set spu_grid.p=2 --size 16x16x16 --tile 8 --no-trace --iu-path icnt >out 2>&1
rc=$?
check "icnt path, global sync: PASS, 1536 accesses" "[ $rc -eq 0 ] && grep -q PASS out && grep -q '^offchip_accesses 1536 ' out"
"$tb" --set spu_grid.p=2 --size 24x24x8 --tile 8 --sync local --no-trace --iu-path icnt >out 2>&1
rc=$?
check "icnt path, partial passes with K/b = 1: PASS, 2688 accesses, the guard stalls" \
    "[ $rc -eq 0 ] && grep -q PASS out && grep -q '^offchip_accesses 2688 ' out && ! grep -q 'guard stall cycles 0$' out && [ \$(awk '/^tb\.spu\.smiu_[a-z0-9]*\.mem_reqs / {s += \$2} END {print s + 0}' out) -gt 0 ]"
"$tb" --set spu_grid.p=2 --size 24x24x8 --tile 8 --sync local --no-trace --iu-path icnt \
    --set spu_iu.selftest_no_guard=true >out 2>&1
rc=$?
check "icnt path without the guard: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' out"
"$tb" $small --set spu_iu.icnt_path=1 >out 2>&1
rc=$?
check "spu_iu.icnt_path=1 without the interconnect's clients: an error, no crash" \
    "[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q '^gpusc: .*icnt_path=1 needs 8 memory clients on the interconnect, the GPU has 0' out"
exit $fail
