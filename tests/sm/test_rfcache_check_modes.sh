#!/bin/sh
# tb-rfcache (the collectors allocated at issue and their caches, docs/rfcache.md) in the two check
# modes of sc/ (docs/sc-api.md, "Check modes"): every process awake in every cycle, and the
# activations of each cycle in a seeded random order. The ccu block is called by issue (the veto, the
# value path) and opcoll (reads, dispatch, port D) in the same cycle, and the malekeh preset's
# scratchpad latency (30 cycles) lets a shared-memory access complete while the LD/ST unit is still
# busy with a later one's bank conflicts; every statistic must equal the normal run's
# (bench/stats-diff --modes); a difference fails and names the statistics. Every workload at the tiny
# size under the preset's plain OCU and Malekeh; the other designs, the dynamic STHLD and the
# monolithic SM on the workloads with shared memory and a few others. TAP.
# GPUSC_TEST_WORKLOADS (tests/workloads.sh) restricts the workloads of the first two.
set -u
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/check_modes.sh"
all=$(echo "${GPUSC_TEST_WORKLOADS:-}" | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
for c in "ocu_random|--collector ocu_random|${all}" "ccu|--collector ccu|${all}" \
    "ccu-dynamic|--collector ccu --sthld-mode dynamic --set ccu.sthld_interval=500|histogram,nw,hotspot,sgemm" \
    "ccu_lru|--collector ccu_lru|histogram,nw,sgemm" "ccu_pr|--collector ccu_pr|histogram,nw,hotspot" \
    "bow|--collector bow|histogram,nw,sgemm" "rfc|--collector rfc|histogram,nw,bfs,hotspot" \
    "sw_rfc-monolithic|--monolithic --collector sw_rfc|histogram,nw,srad"; do
    check_modes tb-rfcache "$c"
done
echo "1..$n"
exit $fail
