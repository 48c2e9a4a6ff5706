#!/bin/sh
# Every workload at tiny size on tb-sm, tb-subcore and tb-gpu in the two check modes of sc/
# (docs/sc-api.md, "Check modes"): every process awake in every cycle (--check=awake) and the
# activations of each cycle in a seeded random order (--check=shuffle). Every statistic must equal
# the normal run's (bench/stats-diff --modes); a difference fails and names the statistics. TAP.
# GPUSC_TEST_WORKLOADS (tests/workloads.sh) restricts the workloads.
wl=$(echo "${GPUSC_TEST_WORKLOADS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
exec python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --modes awake,shuffle --tap ${wl:+--workloads "$wl"}
