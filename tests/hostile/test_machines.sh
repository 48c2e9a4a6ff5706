#!/bin/sh
# The machines (models/machines/machine.h) against careless input (TAP): a preset of another machine
# is refused with a message naming the testbench to use (tb-sm --preset malekeh builds no monolithic
# SM with a sub-core SM's numbers); a section the program has no instance of, from --set or an INI
# file, is an error listing the program's sections (tb-sm --set gpu.sms=3 does not run silently);
# --list-blocks lists the blocks and presets of the program's machine only; the topologies do not
# include the presets (the machines layer does).
. "$top_srcdir/tests/hostile/tap.sh"
tb="$top_builddir/testbench"
echo "1..16"
run="--workload vecadd --size tiny --no-trace"

expect "tb-sm --preset malekeh refused, naming tb-subcore" 1 \
    "^gpusc: preset 'malekeh' describes one sub-core SM, not one monolithic SM (what tb-sm builds): use tb-subcore --preset malekeh (or tb-gpu --preset malekeh)$" \
    "$tb/tb-sm" --preset malekeh $run
check "  ... and nothing ran" test ! -s "$tmp/out"
expect "tb-sm --preset gtx480 --preset subcore refused too" 1 "preset 'subcore' describes one sub-core SM.*use tb-subcore" \
    "$tb/tb-sm" --preset gtx480 --preset subcore $run
expect "tb-subcore --preset ccws refused, naming tb-sm" 1 \
    "^gpusc: preset 'ccws' describes one monolithic SM, not one sub-core SM (what tb-subcore builds): use tb-sm --preset ccws (or tb-gpu --preset ccws)$" \
    "$tb/tb-subcore" --preset ccws $run
expect "tb-gpu takes a sub-core preset (a GPU of sub-core SMs)" 0 "" "$tb/tb-gpu" --preset malekeh $run --dump-config
check "  ... and builds sub-core SMs" grep -q '^sm_kind=subcore_sm$' "$tmp/out"
expect "an unknown preset is still an unknown preset" 1 "unknown preset 'nosuch'" "$tb/tb-sm" --preset nosuch $run

expect "tb-sm --set gpu.sms=3: no gpu in tb-sm" 1 \
    "^gpusc: --set gpu.sms=3: \[gpu\] sms: this program has no gpu (its sections: arbiter, barrier, cta_dispatch, decode, fetch, ibuffer, issue, ldst, mem_fixed, opcoll, regfile, scoreboard, sm, tb_sm, units; or an instance's path)$" \
    "$tb/tb-sm" --set gpu.sms=3 $run
expect "tb-subcore --set sm.ctas=4: its SM is a subcore_sm" 1 "\[sm\] ctas: this program has no sm (its sections: .*subcore_sm, tb_subcore, units" \
    "$tb/tb-subcore" --set sm.ctas=4 $run
expect "tb-gpu --set mem_fixed.latency=3: tb-gpu has no mem_fixed" 1 "\[mem_fixed\] latency: this program has no mem_fixed (its sections: .*dram, .*icnt, .*l2, " \
    "$tb/tb-gpu" --set mem_fixed.latency=3 $run
printf '[issue]\nschedulers=2\n[l2]\nsets=4\n' >"$tmp/l2.ini"
expect "an INI file's [l2] on tb-sm, with its file and line" 1 "l2.ini:4: \[l2\] sets: this program has no l2" \
    "$tb/tb-sm" --config "$tmp/l2.ini" $run
expect "a section the program has is fine (tb-subcore --set subcore_sm.ctas=4)" 0 "" \
    "$tb/tb-subcore" --set subcore_sm.ctas=4 $run

"$tb/tb-sm" --list-blocks >"$tmp/sm" 2>&1
"$tb/tb-subcore" --list-blocks >"$tmp/subcore" 2>&1
"$tb/tb-gpu" --list-blocks >"$tmp/gpu" 2>&1
has() { grep -q "^$2: " "$tmp/$1"; }
preset() { grep -q "^  $2: " "$tmp/$1"; }
ok_sm=1
for b in sm mem_fixed issue cta_dispatch tb_sm; do has sm $b || ok_sm=0; done
for b in gpu l2 icnt dram subcore_sm link_port sm_link tb_gpu; do has sm $b && ok_sm=0; done
preset sm gtx480 || ok_sm=0
preset sm malekeh && ok_sm=0
check "tb-sm --list-blocks: sm, mem_fixed, its presets; no gpu, l2, icnt, subcore_sm, link_port, malekeh" test $ok_sm = 1
ok_sc=1
for b in subcore_sm mem_fixed issue tb_subcore; do has subcore $b || ok_sc=0; done
for b in sm gpu l2 link_port; do has subcore $b && ok_sc=0; done
preset subcore malekeh || ok_sc=0
preset subcore gtx480 && ok_sc=0
check "tb-subcore --list-blocks: subcore_sm, mem_fixed, malekeh; no sm, gpu, gtx480" test $ok_sc = 1
ok_gpu=1
for b in gpu sm subcore_sm icnt l2 dram sm_link link_port issue tb_gpu; do has gpu $b || ok_gpu=0; done
has gpu mem_fixed && ok_gpu=0
preset gpu gtx480 || ok_gpu=0
preset gpu malekeh || ok_gpu=0
check "tb-gpu --list-blocks: the GPU's blocks, both SM kinds, every preset; no mem_fixed" test $ok_gpu = 1
check "the topologies include neither the presets nor the machines" \
    sh -c "! grep -l '^#include.*\\(presets.h\\|models/machines/\\)' '$top_srcdir'/models/topo/*.[ch]"
exit $fail
