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
# A statistic of the first 3000 cycles that differs is a difference.
if ! sd --workloads spmv --max-cycles 3000 --set-new units.sp_latency=9 && grep -q '^DIFF tb-sm spmv: ' "$tmp/out"; then
    ok "a different statistic within the limit fails"
else
    no "a different statistic within the limit"; show
fi
# One run completed (2803 cycles) and the other stopped at the limit: a difference, whatever else.
if ! sd --workloads vecadd --max-cycles 2900 --set-new units.sp_latency=9 && grep -q 'stopped_at: None -> 2900' "$tmp/out"; then
    ok "one run completed and the other stopped at the limit: a difference"
else
    no "completed against stopped"; show
fi
# Any other failure of a run still fails.
if ! sd --workloads spmv --max-cycles 3000 --set-new nosuch.param=1 && grep -q '^FAIL tb-sm spmv: ref ok, new exit' "$tmp/out"; then
    ok "a run that fails for another reason fails"
else
    no "another failure under --max-cycles"; show
fi
# Without the mode, a run stopped by a limit given to the testbench itself is a failure (as before).
if ! sd --workloads spmv --args=--max-cycles=3000 && grep -q '^FAIL tb-sm spmv: ref exit 1' "$tmp/out"; then
    ok "without --max-cycles a run stopped at a limit fails"
else
    no "a stopped run without the mode"; show
fi
echo "1..$n"
exit $fail
