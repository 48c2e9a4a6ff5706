#!/bin/sh
# tb-vws with the warp ganging unit in the two check modes of sc/ (docs/sc-api.md, "Check modes"):
# every process awake in every cycle, and the activations of each cycle in a seeded random order.
# Every statistic (the gang unit's, fetch's gang fetch, cycles) must equal the normal run's
# (bench/stats-diff --modes); a difference fails and names the statistics. TAP.
set -u
. "$top_srcdir/tests/tap.sh"
for pw in "e-vws spmv,nw,kmeans" "i-vws-group spmv,sgemm" "e-vws-impatient spmv" "e-vws-sync50 spmv" "i-vws-lrr spmv" \
    "e-vws-gang-only spmv,nw"; do
    set -- $pw
    if python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --testbenches tb-vws \
        --args "--warp-size 4 --vws $1" --workloads "$2" --modes awake,shuffle > "$tmp/out" 2>&1; then
        ok "tb-vws --vws $1 ($2): identical under --check=awake and --check=shuffle"
    else
        no "tb-vws --vws $1 ($2) in the check modes"; sed 's/^/# /' "$tmp/out"
    fi
done
echo "1..$n"
exit $fail
