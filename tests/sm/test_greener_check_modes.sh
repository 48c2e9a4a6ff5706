#!/bin/sh
# tb-greener (register power states, docs/greener.md) in the two check modes of sc/ (docs/sc-api.md,
# "Check modes"): every process awake in every cycle, and the activations of each cycle in a seeded
# random order. rfpower is a passive block that fetch, issue, the register banks and ldst all call in
# a cycle; every statistic (cycles, register-cycles per state, transitions, wake-ups, decode stalls,
# lookup-table cancels) must equal the normal run's (bench/stats-diff --modes); a difference fails and
# names the statistics. Every workload at the tiny size under GREENER (the 2-entry table with its
# decode stall, the unsized table, no table) and Sleep-Reg; some on the sub-core SM and the GPU. TAP.
# GPUSC_TEST_WORKLOADS (tests/workloads.sh) restricts the workloads of the first four.
set -u
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/check_modes.sh"
all=$(echo "${GPUSC_TEST_WORKLOADS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
for c in "greener|--power greener|${all}" "greener-unsized|--power greener --set rfpower.lut_entries=0|${all}" \
    "greener-no-table|--power greener --set rfpower.runtime_lut=false|${all}" "sleep-reg|--power sleep-reg|${all}" \
    "subcore|--machine subcore|vecadd,spmv,nw,reduction" "gpu|--machine gpu --set gpu.sms=4|vecadd,spmv,bfs"; do
    check_modes tb-greener "$c"
done
echo "1..$n"
exit $fail
