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
all=$(echo "${GPUSC_TEST_WORKLOADS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
for c in "greener|--power greener|${all}" "greener-unsized|--power greener --set rfpower.lut_entries=0|${all}" \
    "greener-no-table|--power greener --set rfpower.runtime_lut=false|${all}" "sleep-reg|--power sleep-reg|${all}" \
    "subcore|--machine subcore|vecadd,spmv,nw,reduction" "gpu|--machine gpu --set gpu.sms=4|vecadd,spmv,bfs"; do
    name=${c%%|*}
    rest=${c#*|}
    args=${rest%%|*}
    wl=${rest#*|}
    if python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --testbenches tb-greener \
        --args "$args" ${wl:+--workloads "$wl"} --modes awake,shuffle > "$tmp/out" 2>&1; then
        ok "tb-greener $name ($args): identical under --check=awake and --check=shuffle"
    else
        no "tb-greener $name ($args) in the check modes"; grep -v '^same ' "$tmp/out" | sed 's/^/# /'
    fi
done
echo "1..$n"
exit $fail
