#!/bin/sh
# tb-sharing with sharing inactive (TAP): the spec's §16 item 12, exactly (docs/sharing.md "When
# sharing is inactive"). With ShSM = 0, or for a kernel whose resources do not bind (the spec's
# Set-3: limited by threads, CTA slots, or the other resource), under register and scratchpad
# sharing, lrr / gto / owf, and for scratchpad sharing without relssp, with --relssp opt and with
# --relssp postdom: every statistic of the run equals the unshared baseline's (tb-sm with the same
# scheduler; owf without a pair is the oldest-first order), the lock table's and smem_share's
# counters are 0, and the code the SM runs (--print-code) holds no relssp (nor, with --regorder,
# renumbered registers: the statistics would differ). The cases:
#  - ShSM = 0 by the threshold (t = 1, or P = 0 %): hotspot at 36 registers per thread (registers),
#    sgemm and hotspot at 7000 scratchpad bytes per CTA (scratchpad);
#  - ShSM = 0, no pair fits at t = 0.1: hotspot (registers, its own 16 registers), convolution
#    (scratchpad);
#  - Set-3: reduction (threads bind), kmeans and stencil3d with --regorder (CTA slots bind) for
#    registers; reduction (threads), sgemm (registers bind), pathfinder (threads) for scratchpad;
#  - no pair forms: smem_layout.ptx with one CTA at t = 0.3 (1 unshared CTA and 1 pair per SM).
# And the converse, so that the test can fail: sgemm at 7000 bytes, t = 0.1, with relssp opt shares,
# its code holds relssp and its statistics differ from the baseline's.
tb="$top_builddir/testbench/tb-sharing"
sm="$top_builddir/testbench/tb-sm"
ptx="$top_srcdir/tests/kernels/ptx/smem_layout.ptx"
. "$top_srcdir/tests/tap.sh"
cd "$tmp" || exit 1
echo "1..13"
reg="--preset rs-table2.3 --size tiny --no-trace"
smem="--preset rs-table2.3-16k --size tiny --no-trace"
# case_inert NAME SHARE "ARGS" "SHARING" "POLICIES" "VARIANTS" [ALLOW]: the run with --share SHARE,
# the SHARING options and each relssp variant (none: no --relssp) under each policy, against tb-sm
# with ARGS under the same scheduler (ALLOW: a statistic of the added blocks that may be nonzero)
case_inert() {
    name=$1 share=$2 args=$3 sharing=$4 bad="" runs=0
    for pol in $5; do
        base=$pol
        [ $pol = owf ] && base=oldest
        # shellcheck disable=SC2086
        "$sm" $args --set arbiter.policy=$base --stats-json "base.json" >base.out 2>&1 ||
            bad="$bad base-$pol(exit $(tail -1 base.out))"
        for v in $6; do
            rel=""
            [ "$v" != none ] && rel="--relssp $v"
            # shellcheck disable=SC2086
            "$tb" $args --share "$share" $sharing --policy $pol $rel --stats-json run.json --print-code code.ptx \
                >run.out 2>&1 || bad="$bad $pol/$v(exit)"
            runs=$((runs + 1))
            if ! python3 "$top_srcdir/tests/sm/stats_inert.py" base.json run.json ${7:+--allow "$7"} >d.out; then
                bad="$bad $pol/$v($(head -1 d.out))"
            fi
            grep -q relssp code.ptx && bad="$bad $pol/$v(relssp in the code)"
            grep -q 'inactive' run.out || bad="$bad $pol/$v(not said inactive)"
            if [ "$v" != none ] && ! grep -q '^gpusc: sharing inactive: kernel .*: no relssp placed$' run.out; then
                bad="$bad $pol/$v(no 'no relssp placed' line)"
            fi
        done
    done
    if [ -z "$bad" ]; then ok "$name: $runs run(s) equal to the baseline, no relssp"; else no "$name:$bad"; fi
}
all="lrr gto owf"
case_inert "registers, t = 1, hotspot at 36 registers" registers "--workload hotspot $reg --regs-per-thread 36" \
    "--threshold 1" "$all" none
case_inert "registers, no pair fits, hotspot" registers "--workload hotspot $reg" "" owf none
case_inert "registers, Set-3 (threads bind), reduction" registers "--workload reduction $reg" "" "$all" none
case_inert "registers, Set-3 (CTA slots bind), kmeans" registers "--workload kmeans $reg" "" gto none
# --regorder renumbers stencil3d's registers (5471 cycles against 5415 under lrr) only if it shares
case_inert "registers, Set-3 (CTA slots bind), stencil3d with --regorder" registers "--workload stencil3d $reg" \
    --regorder "lrr owf" none
case_inert "scratchpad, t = 1, sgemm at 7000 B" scratchpad "--workload sgemm $smem --smem-per-cta 7000" \
    "--threshold 1" "$all" "none opt postdom"
case_inert "scratchpad, P = 0 %, hotspot at 7000 B" scratchpad "--workload hotspot $smem --smem-per-cta 7000" \
    "--sharing-percent 0" owf "opt postdom"
case_inert "scratchpad, no pair fits, convolution" scratchpad "--workload convolution $smem" "" lrr "none opt"
case_inert "scratchpad, Set-3 (threads bind), reduction" scratchpad "--workload reduction $smem" "" gto \
    "none opt postdom"
case_inert "scratchpad, Set-3 (registers bind), sgemm" scratchpad "--workload sgemm $smem" "" owf "none opt postdom"
case_inert "scratchpad, Set-3 (threads bind), pathfinder" scratchpad "--workload pathfinder $smem" "" lrr postdom
# ShSM = 1 (one unshared CTA and one pair per SM at t = 0.3) but a grid of one CTA: no pair forms,
# no relssp is placed, the run equals the baseline (the lock table counts its one unshared CTA)
case_inert "scratchpad, no pair forms (a grid of 1 CTA, 1 unshared), smem_layout.ptx" scratchpad \
    "--ptx $ptx --entry layout3 --grid 1 --block 128 --arg out:o.bin:8192 --arg 16 --preset rs-table2.3-16k \
     --no-trace --smem-per-cta 7000" "--threshold 0.3" "$all" "opt postdom" lock_table.unshared_ctas
# the converse: sharing active, relssp placed and executed, the statistics differ
args="--workload sgemm $smem --smem-per-cta 7000"
# shellcheck disable=SC2086
"$sm" $args --set arbiter.policy=oldest --stats-json base.json >base.out 2>&1
# shellcheck disable=SC2086
"$tb" $args --share scratchpad --policy owf --relssp opt --stats-json run.json --print-code code.ptx >run.out 2>&1
rc=$?
if [ $rc = 0 ] && grep -q relssp code.ptx && ! grep -q inactive run.out &&
    ! python3 "$top_srcdir/tests/sm/stats_inert.py" base.json run.json >/dev/null &&
    awk '/^scratchpad:/ { exit !($9 > 0) }' run.out; then
    ok "sgemm at 7000 B, t = 0.1: shares, relssp placed and executed, statistics differ"
else
    no "sgemm at 7000 B, t = 0.1 (exit $rc): $(grep '^scratchpad:' run.out)"
fi
exit $fail
