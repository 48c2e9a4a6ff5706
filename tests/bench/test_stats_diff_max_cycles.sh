#!/bin/sh
# bench/stats-diff --max-cycles N (docs/performance.md, "Checking that a speed change changed nothing
# else"): every run gets --max-cycles=N, a run stopped there is compared like a completed one, and
# both runs of a pair must end the same way at the same cycle. tb-sm at the tiny size: spmv stops at
# 3000 cycles; vecadd completes in 2803 (2900 and more with units.sp_latency=9). TAP.
set -u
. "$top_srcdir/tests/tap.sh"
sd() { python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --testbenches tb-sm "$@" \
    > "$tmp/out" 2>&1; }
show() { sed 's/^/# /' "$tmp/out"; }

# The same build on both sides: identical, the stopped run reported as such.
if sd --workloads spmv,vecadd --max-cycles 3000 && grep -q '^same tb-sm spmv .*3000 cycles, stopped at the limit' \
    "$tmp/out" && grep -q '^same tb-sm vecadd ' "$tmp/out" && ! grep -q 'vecadd.*stopped' "$tmp/out"; then
    ok "runs stopped at the limit (spmv) and completed (vecadd) compared: identical"
else
    no "identical runs under --max-cycles"; show
fi
# fails NAME PATTERN ARGS...: stats-diff with ARGS exits 1 and prints a line matching PATTERN.
fails() {
    f_name=$1 f_pat=$2
    shift 2
    if ! sd "$@" && grep -q "$f_pat" "$tmp/out"; then ok "$f_name"; else no "$f_name"; show; fi
}
# A statistic of the first 3000 cycles that differs is a difference.
fails "a different statistic within the limit fails" '^DIFF tb-sm spmv: ' \
    --workloads spmv --max-cycles 3000 --set-new units.sp_latency=9
# One run completed (2803 cycles) and the other stopped at the limit: a difference, whatever else.
fails "one run completed and the other stopped at the limit: a difference" 'stopped_at: None -> 2900' \
    --workloads vecadd --max-cycles 2900 --set-new units.sp_latency=9
# Any other failure of a run still fails.
fails "a run that fails for another reason fails" '^FAIL tb-sm spmv: ref ok, new exit' \
    --workloads spmv --max-cycles 3000 --set-new nosuch.param=1
# Without the mode, a run stopped by a limit given to the testbench itself is a failure (as before).
fails "without --max-cycles a run stopped at a limit fails" '^FAIL tb-sm spmv: ref exit 1' \
    --workloads spmv --args=--max-cycles=3000
echo "1..$n"
exit $fail
