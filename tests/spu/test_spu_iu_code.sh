#!/bin/sh
# The SPU interface units as truncated SMs running IU code (TAP; docs/spu.md "Interface units running
# code"): tb-spu --iu code makes every border unit fetch and execute its entry of
# kernels/spu/spu_iu.ptx. The stencil passes under global and producer-consumer sync, with the same
# off-chip element counts (the closed form) and CB words as the plan-driven units (the equivalence
# test); the units execute instructions, the plan-driven ones none; code outside the IU's subset is
# refused with its file and line; broken IU code fails the output check. Multipass: the units run
# their IU code and, at pass borders, the runtime's VIU code (spills and restores as instructions):
# PASS with the planned units' counts (4PNK + 2N^2, spills = restores), the guard in code (without it,
# or with a broken spill address, the check fails); the interconnect path: the same counts, the
# units' requests on the icnt. Partial passes: the border units and the SMs standing in as interface
# units run IU code per pass, with the planned form's counts; a stand-in SM runs its role's IU code
# as a one-warp CTA on its own pipeline (its issue counts the role's instructions, its ldst sends the
# role's accesses), its spu_iu block idle.
. "$top_srcdir/tests/tap.sh"
tb="$(cd "${top_builddir:-.}" && pwd)/testbench/tb-spu"
ptx="$top_srcdir/kernels/spu/spu_iu.ptx"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP needs $tb"
    exit 0
fi
echo "1..32"
check() { if eval "$2"; then ok "$1"; else no "$1"; sed 's/^/# /' "$tmp/out" | tail -8; fi; }
sum() { awk -v re="$1" '$1 ~ re {s += $2} END {print s + 0}' "$2"; }
elems() { grep '^spu: off-chip elements' "$1"; }

p2="--set spu_grid.p=2 --size 16x16x16 --tile 8 --no-trace"
for sync in global local; do
    "$tb" $p2 --sync $sync >"$tmp/plan" 2>&1
    rc1=$?
    "$tb" $p2 --sync $sync --iu code >"$tmp/out" 2>&1
    rc2=$?
    check "$sync sync, 2 x 2, b 8: IU code PASS, 1536 off-chip accesses, the plan's element and CB word counts" \
        "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 1536 ' '$tmp/out' && [ \"\$(elems '$tmp/out')\" = \"\$(elems '$tmp/plan')\" ] && [ \$(sum 'cb_[hv].*[.]iu_words\$' '$tmp/out') -eq \$(sum 'cb_[hv].*[.]iu_words\$' '$tmp/plan') ] && [ \$(sum 'cb_[hv].*[.]iu_words\$' '$tmp/out') -eq 1024 ]"
    check "$sync sync: the units executed instructions (the plan-driven ones none), the cycles differ" \
        "[ \$(sum 'iu_[nwse][0-9]*[.]instructions\$' '$tmp/out') -gt 0 ] && [ \$(sum 'iu_[nwse][0-9]*[.]instructions\$' '$tmp/plan') -eq 0 ] && grep -q '^spu: interface units ran IU code' '$tmp/out' && [ \"\$(grep '^tb-spu:' '$tmp/plan')\" != \"\$(grep '^tb-spu:' '$tmp/out')\" ]"
done
"$tb" --size 16x16x8 --tile 4 --sync local --iu code --no-trace >"$tmp/out" 2>&1
rc=$?
check "4 x 4, b 4 (16-element faces, half a warp): PASS, 1024 off-chip accesses" \
    "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 1024 ' '$tmp/out'"
"$tb" $p2 --iu code --selftest-corrupt >"$tmp/out" 2>&1
rc=$?
check "IU code with the CB swap broken: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"

# broken IU code: a storer one round early (it reads a half its SM has not written): the check fails
sed 's/^\tadd.s32 \t%r11, %r11, 1;$/\tadd.s32 \t%r11, %r11, 0;/' "$ptx" >"$tmp/early.ptx"
"$tb" $p2 --iu code --iu-ptx "$tmp/early.ptx" >"$tmp/out" 2>&1
rc=$?
check "IU code storing one round early: the check fails" \
    "! cmp -s '$ptx' '$tmp/early.ptx' && [ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"

# outside the subset: a shared-memory load, floating-point arithmetic, the wrong CB; file and line
awk '/^\.visible \.entry spu_iu_global_n/ {e = 1} e && /ld.global.b32 \t%v0/ && !d {sub(/ld.global.b32 \t%v0, \[%a0\]/, "ld.shared.b32 \t%v0, [%c0]"); d = 1; line = NR} {print} END {print line > "/dev/stderr"}' \
    "$ptx" >"$tmp/shared.ptx" 2>"$tmp/line"
"$tb" $p2 --iu code --iu-ptx "$tmp/shared.ptx" >"$tmp/out" 2>&1
rc=$?
check "a shared-memory load in IU code: refused with file and line" \
    "[ $rc -eq 2 ] && grep -q \"^gpusc: .*shared.ptx:\$(cat '$tmp/line'): .*ld.shared.*not in the interface unit's instruction subset.*no shared memory\" '$tmp/out'"
sed '0,/^\tmul.lo.u32 \t%r9, %r3, %r3;$/s//\tmul.rn.f32 \t%r9, %r3, %r3;/' "$ptx" >"$tmp/fp.ptx"
"$tb" $p2 --iu code --iu-ptx "$tmp/fp.ptx" >"$tmp/out" 2>&1
rc=$?
check "floating-point arithmetic in IU code: refused (no floating-point unit)" \
    "[ $rc -eq 2 ] && grep -q '^gpusc: .*fp.ptx:[0-9]*: .*mul.*f32.*no floating-point unit' '$tmp/out'"
sed '0,/st.cb.south.b32/s//st.cb.east.b32/' "$ptx" >"$tmp/dir.ptx"
"$tb" $p2 --iu code --iu-ptx "$tmp/dir.ptx" >"$tmp/out" 2>&1
rc=$?
check "a north unit storing to an east CB: refused" \
    "[ $rc -eq 2 ] && grep -q '^gpusc: .*dir.ptx:[0-9]*: .*st.cb.east.*only the CB toward its SM' '$tmp/out'"
# multipass: plan against code, the same element counts (spills and restores apart) and CB words
same() {
    [ "$(elems "$1")" = "$(elems "$2")" ] && [ "$(grep '^offchip_accesses' "$1")" = "$(grep '^offchip_accesses' "$2")" ] &&
        [ "$(grep -o 'VIU spills [0-9]*, restores [0-9]*' "$1")" = "$(grep -o 'VIU spills [0-9]*, restores [0-9]*' "$2")" ] &&
        [ $(sum 'cb_[hv].*[.]iu_words$' "$1") -eq $(sum 'cb_[hv].*[.]iu_words$' "$2") ]
}
mp="--set spu_grid.p=2 --size 32x32x16 --tile 8 --no-trace"
for run in "local plain" "local overlapped" "global plain"; do
    set -- $run
    "$tb" $mp --sync $1 --passes $2 >"$tmp/plan" 2>&1
    rc1=$?
    "$tb" $mp --sync $1 --passes $2 --iu code >"$tmp/out" 2>&1
    rc2=$?
    check "$1 sync, 2 x 2 passes $2 on 2 x 2: IU and VIU code PASS, 6144 = 4PNK + 2N^2, 1024 spilled = 1024 restored, the plan's counts and CB words" \
        "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 6144  (closed form 4PNK + 2N^2 = 6144, P = 2' '$tmp/out' && grep -q 'VIU spills 1024, restores 1024 elements' '$tmp/out' && same '$tmp/out' '$tmp/plan' && [ \$(sum 'iu_[nwse][0-9]*[.]instructions\$' '$tmp/out') -gt 0 ]"
done
# the spill -> restore guard in the VIU code: K/b = 1, where a west unit would restore before the
# east unit's spill; without the poll loop (its branch deleted) the restore reads the poisoned region
kb1="--set spu_grid.p=2 --size 32x32x8 --tile 8 --sync local --no-trace --iu code"
"$tb" $kb1 >"$tmp/out" 2>&1
rc=$?
check "K/b = 1, overlapped: the VIU code's guard stalls restores, PASS, 4096 accesses" \
    "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 4096 ' '$tmp/out' && ! grep -q 'guard stall cycles 0\$' '$tmp/out'"
sed '/^\t@%p2 bra \t\$G_spu_viu_/d' "$ptx" >"$tmp/noguard.ptx"
"$tb" $kb1 --iu-ptx "$tmp/noguard.ptx" >"$tmp/out" 2>&1
rc=$?
check "K/b = 1, VIU code without the guard's wait: the check fails" \
    "! cmp -s '$ptx' '$tmp/noguard.ptx' && [ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"
"$tb" $kb1 --passes plain --iu-ptx "$tmp/noguard.ptx" >"$tmp/out" 2>&1
rc=$?
check "K/b = 1 pass by pass, without the guard's wait: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"
# a broken spill address: the east VIU code spills to the face after its border's (face 1 of 0..4
# instead of 2), so the west VIU restores the poisoned region
awk '/^\.visible \.entry spu_viu_local_e/ {e = 1} /^}/ {e = 0} e && /^\tadd.s32 \t%r18, %r18, %r4;$/ {sub(/%r4;$/, "1;")} {print}' \
    "$ptx" >"$tmp/spill.ptx"
"$tb" $mp --sync local --iu code --iu-ptx "$tmp/spill.ptx" >"$tmp/out" 2>&1
rc=$?
check "VIU code spilling to a wrong address: the check fails" \
    "! cmp -s '$ptx' '$tmp/spill.ptx' && [ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"
# a blocksync count mismatch (CTA (0, 0) leaves out its last sync) with IU and VIU code, overlapped:
# the controller's deadlock report, a restoring VIU polling its guard word counted as waiting
"$tb" --ptx-dir "$top_srcdir/tests/spu/mismatch" $mp --sync local --iu code >"$tmp/out" 2>&1
rc=$?
check "mismatched kernel with VIU code: the deadlock report names the VIU on its guard, exit 1" \
    "[ $rc -eq 1 ] && grep -q '^gpusc: tb.spu.ctl: blocksync deadlock at cycle' '$tmp/out' && grep -q '^  tb.spu.iu_w0 waits for a spill (the spill -> restore guard)' '$tmp/out'"
# the interconnect path: the same element counts as the ideal path; the icnt carries exactly the
# units' requests more: one per line a warp access touches (two b = 8 face rows of a 16-wide face
# share a 128-byte line: 64, where the planned units send one per row, 128)
mreqs() { sum 'iu_[nwse][0-9]*[.]mem_reqs$' "$1"; }
pkts() { sed -n 's/^tb\.gpu\.icnt\.req_packets  *\([0-9]*\) .*/\1/p' "$1"; }
"$tb" $p2 --sync local --iu code >"$tmp/ideal" 2>&1
"$tb" $p2 --sync local --iu-path icnt >"$tmp/plan" 2>&1
"$tb" $p2 --sync local --iu code --iu-path icnt >"$tmp/out" 2>&1
rc=$?
check "icnt path, one pass: IU code PASS, the ideal path's counts, 64 requests on the icnt (the planned units' 128)" \
    "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && same '$tmp/out' '$tmp/ideal' && [ \$(mreqs '$tmp/out') -eq 64 ] && [ \$(mreqs '$tmp/plan') -eq 128 ] && [ \$(mreqs '$tmp/ideal') -eq 0 ] && [ \$((\$(pkts '$tmp/out') - \$(pkts '$tmp/ideal'))) -eq 64 ]"
check "icnt path: the units waited for replies" "[ \$(sum 'iu_[nwse][0-9]*[.]mem_wait_cycles\$' '$tmp/out') -gt 0 ]"
"$tb" $p2 --iu code --iu-path icnt >"$tmp/out" 2>&1
rc=$?
check "icnt path, global sync: IU code PASS, 1536 accesses" "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 1536 ' '$tmp/out'"
"$tb" $mp --sync local --iu code >"$tmp/ideal" 2>&1
"$tb" $mp --sync local --iu code --iu-path icnt >"$tmp/out" 2>&1
rc=$?
check "icnt path, 2 x 2 passes: IU and VIU code PASS, the ideal path's counts (spills and restores)" \
    "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && same '$tmp/out' '$tmp/ideal' && [ \$(mreqs '$tmp/out') -gt 0 ]"
# partial passes (the 10 x 10-CTA example at b = 4 on 4 x 4, P = 3): the border units run IU code
# per pass; the SMs standing in as east and south units (SM (2, k) and (k, 2)) run their roles' IU
# code on their own pipelines; the planned form's counts exactly
rounds() { awk '$1 ~ /^tb[.]spu[.]iu_[nwse][0-9]*[.]rounds$/ {printf "%s %s\n", $1, $2}' "$1"; }
smi() { sum 'smiu_[se][0-9]*[.]instructions$' "$1"; }
ctl() { sed -n "s/^tb\.spu\.ctl\.$2  *\([0-9]*\) .*/\1/p" "$1"; }
wi() { sed -n "s/^tb\.gpu\.sm$2\.issue\.warp_instrs  *\([0-9]*\) .*/\1/p" "$1"; }
# the SMs whose issue counts differ between the forms, and by how many instructions in all
widiff() {
    d=0 l=""
    for i in $(seq 0 15); do
        a=$(wi "$1" $i) b=$(wi "$2" $i)
        [ "$a" = "$b" ] || l="$l $i"
        d=$((d + a - b))
    done
    echo "$l:$d"
}
# the CB words: the stand-in SMs' roles' are their SMs' CB accesses, a stand-in block's are IU words
same_roles() {
    [ "$(elems "$1")" = "$(elems "$2")" ] && [ "$(grep '^offchip_accesses' "$1")" = "$(grep '^offchip_accesses' "$2")" ] &&
        [ "$(grep -o 'VIU spills [0-9]*, restores [0-9]*' "$1")" = "$(grep -o 'VIU spills [0-9]*, restores [0-9]*' "$2")" ] &&
        [ "$(grep '^cb_accesses' "$1")" = "$(grep '^cb_accesses' "$2")" ] &&
        [ $(($(sum 'cb_[hv].*[.]iu_words$' "$1") + $(ctl "$1" role_cb_accesses))) -eq $(sum 'cb_[hv].*[.]iu_words$' "$2") ] &&
        [ $(ctl "$1" role_cb_accesses) -gt 0 ]
}
pp="--size 40x40x8 --tile 4 --no-trace"
for sync in local global; do
    "$tb" $pp --sync $sync >"$tmp/plan" 2>&1
    rc1=$?
    "$tb" $pp --sync $sync --iu code >"$tmp/out" 2>&1
    rc2=$?
    check "$sync sync, partial passes (10 x 10 CTAs on 4 x 4): IU code PASS, 7040 = 4PNK + 2N^2 with P = 3, the plan's element counts, spills, restores, CB words, global and pair blocksyncs, every border unit's rounds and the stand-ins' rounds" \
        "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 7040  (closed form 4PNK + 2N^2 = 7040, P = 3' '$tmp/out' && grep -q 'VIU spills 1280, restores 1280 elements' '$tmp/out' && grep -q 'SMs acting as interface units stored 640 elements' '$tmp/out' && same_roles '$tmp/out' '$tmp/plan' && [ \"\$(rounds '$tmp/out')\" = \"\$(rounds '$tmp/plan')\" ] && [ \$(rounds '$tmp/out' | wc -l) -eq 16 ] && [ \$(ctl '$tmp/out' rounds) -eq \$(ctl '$tmp/plan' rounds) ] && [ \$(ctl '$tmp/out' pair_syncs) -eq \$(ctl '$tmp/plan' pair_syncs) ] && [ \$(ctl '$tmp/out' role_blocksyncs) -eq \$(sum 'smiu_[se][0-9]*[.]rounds\$' '$tmp/plan') ] && [ \$(ctl '$tmp/out' role_blocksyncs) -gt 0 ] && [ \$(ctl '$tmp/out' role_offchip_stores) -eq 640 ]"
    check "$sync sync, partial passes: the stand-in SMs' issue counted their roles' IU code (SMs 2 6 8 9 10 11 14 and no other issued more than planned, by the roles' instructions), their spu_iu blocks executed none" \
        "[ \$(ctl '$tmp/out' role_instructions) -gt 0 ] && [ \$(ctl '$tmp/plan' role_instructions) -eq 0 ] && [ \"\$(widiff '$tmp/out' '$tmp/plan')\" = \" 2 6 8 9 10 11 14:\$(ctl '$tmp/out' role_instructions)\" ] && [ \$(smi '$tmp/out') -eq 0 ]"
done
# broken: the east stand-ins' IU code without its blocksync (spu_iu_local_e runs only on the
# stand-ins: the border east units run their VIU code): the pair barrier deadlocks, exit 1
awk '/^\.visible \.entry spu_iu_local_e\(/ {e = 1} /^}/ {e = 0} e && /^\tbar.blocksync.west;$/ {next} {print}' \
    "$ptx" >"$tmp/nosync.ptx"
"$tb" $pp --sync local --iu code --iu-ptx "$tmp/nosync.ptx" >"$tmp/out" 2>&1
rc=$?
check "partial passes, the stand-ins' IU code without its blocksync: deadlock reported, exit 1" \
    "! cmp -s '$ptx' '$tmp/nosync.ptx' && [ $rc -eq 1 ] && grep -q '^gpusc: tb.spu.ctl: blocksync deadlock' '$tmp/out'"
# broken: a storer's face not clamped to the grid's edge (the min deleted): a stand-in of a partial
# pass stores past the face array; and the CB swap broken
sed '/^\tmin.u32 \t%r18, %r18, %r7;$/d' "$ptx" >"$tmp/nomin.ptx"
"$tb" $pp --sync local --iu code --iu-ptx "$tmp/nomin.ptx" >"$tmp/out" 2>&1
rc=$?
check "partial passes, a storer's face not clamped to G: the stand-in SM's store is refused with the IU code's file and line, exit 1" \
    "! cmp -s '$ptx' '$tmp/nomin.ptx' && [ $rc -eq 1 ] && grep -q '^gpusc: kernel spu_iu_local_[se]: pc [0-9]* (.*nomin.ptx:[0-9]* .*st.global.* on SM [0-9]*: invalid global store' '$tmp/out'"
"$tb" $pp --sync global --iu code --selftest-corrupt >"$tmp/out" 2>&1
rc=$?
check "partial passes with IU code, the CB swap broken: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"
# K/b = 1: the VIU code's guard holds the restores in the partial passes too; without it, failure
pk="--set spu_grid.p=2 --size 24x24x8 --tile 8 --sync local --iu code --no-trace"
"$tb" $pk >"$tmp/out" 2>&1
rc=$?
check "partial passes, K/b = 1: IU and VIU code PASS, 2688 = 4PNK + 2N^2, the guard stalls" \
    "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && grep -q '^offchip_accesses 2688 ' '$tmp/out' && ! grep -q 'guard stall cycles 0\$' '$tmp/out'"
"$tb" $pk --iu-ptx "$tmp/noguard.ptx" >"$tmp/out" 2>&1
rc=$?
check "partial passes, K/b = 1, without the guard's wait: the check fails" "[ $rc -eq 1 ] && grep -q 'wrong output values' '$tmp/out'"
# the interconnect path: the stand-ins' IU code runs on their SMs, whose ldst sends the roles'
# accesses as the SMs' own (no stand-in block's requests); the ideal path's counts
pi="--set spu_grid.p=2 --size 24x24x16 --tile 8 --iu code --no-trace"
ldst() { sed -n "s/^tb\.gpu\.sm$2\.ldst\.iu_reqs  *\([0-9]*\) .*/\1/p" "$1"; }
"$tb" $pi >"$tmp/ideal" 2>&1
"$tb" $pi --iu-path icnt >"$tmp/out" 2>&1
rc=$?
check "partial passes, icnt path: IU code PASS, the ideal path's counts, the stand-ins' roles on their SMs (768 role stores, no stand-in block's requests)" \
    "[ $rc -eq 0 ] && grep -q PASS '$tmp/out' && same '$tmp/out' '$tmp/ideal' && [ \$(ctl '$tmp/out' role_offchip_stores) -eq 768 ] && [ \$(sum 'smiu_[es][0-9][.]mem_reqs\$' '$tmp/out') -eq 0 ] && [ \$((\$(ldst '$tmp/out' 1) + \$(ldst '$tmp/out' 2) + \$(ldst '$tmp/out' 3))) -eq 0 ] && [ \$(sum 'iu_[nwse][0-9][.]mem_reqs\$' '$tmp/out') -gt 0 ]"
exit $fail
