#!/bin/sh
# Every workload at tiny size on tb-sm, tb-subcore and tb-gpu in the two check modes of sc/
# (docs/sc-api.md, "Check modes"): every process awake in every cycle (--check=awake) and the
# activations of each cycle in a seeded random order (--check=shuffle). Every statistic must equal
# the normal run's (bench/stats-diff --modes); a difference fails and names the statistics. TAP.
# GPUSC_TEST_WORKLOADS (tests/workloads.sh) restricts the workloads.
# tb-gpu runs with 4 SMs instead of 15: the modes check that every block sleeps and wakes correctly
# and that no result depends on the order of a cycle's activations, which 4 SMs sharing the
# interconnect, L2 and DRAM exercise as 15 do (at the tiny size most of 15 SMs have one CTA or none;
# with 4, several CTAs share an SM), at half the cost of a run.
wl=$(echo "${GPUSC_TEST_WORKLOADS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
exec python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --modes awake,shuffle --tap \
    --set-tb tb-gpu:gpu.sms=4 ${wl:+--workloads "$wl"}
