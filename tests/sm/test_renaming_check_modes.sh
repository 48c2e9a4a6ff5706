#!/bin/sh
# tb-renaming (register renaming, docs/renaming.md) in the two check modes of sc/ (docs/sc-api.md,
# "Check modes"): every process awake in every cycle, and the activations of each cycle in a seeded
# random order. The renaming block is passive: issue (allocations and releases) and the operand
# collectors' bank accesses (the physical register a bank sees) call it in the same cycle; every
# statistic must equal the normal run's (bench/stats-diff --modes); a difference fails and names the
# statistics. Every workload at the tiny size, renaming on. TAP.
# GPUSC_TEST_WORKLOADS (tests/workloads.sh) restricts the workloads.
set -u
. "$top_srcdir/tests/tap.sh"
wl=$(echo "${GPUSC_TEST_WORKLOADS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
if python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --testbenches tb-renaming \
    ${wl:+--workloads "$wl"} --modes awake,shuffle > "$tmp/out" 2>&1; then
    ok "tb-renaming: identical under --check=awake and --check=shuffle"
else
    no "tb-renaming in the check modes"; grep -v '^same ' "$tmp/out" | sed 's/^/# /'
fi
echo "1..$n"
exit $fail
