#!/bin/sh
# bench/stats-diff's tb-spu runs (docs/performance.md, "Checking that a speed change changed nothing
# else"): tb-spu takes no --workload; stats-diff runs the named cases of bench/tb-spu-cases at the
# size asked for, each with its own arguments, and compares their statistics: the same build on both
# sides is identical, with the cycles tb-spu itself reports for the case; a changed latency is a
# difference; --spu-cases picks cases, an unknown case or a size without cases is refused; the
# other testbenches keep their workloads beside tb-spu's cases. TAP.
set -u
. "$top_srcdir/tests/tap.sh"
sd() { python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" "$@" >"$tmp/out" 2>&1; }
show() { sed 's/^/# /' "$tmp/out"; }
tb="$top_builddir/testbench/tb-spu"

# The cycles tb-spu prints for the case `global` (its arguments from the cases file).
args=$(awk '$1 == "global" && $2 == "tiny" { $1 = ""; $2 = ""; print }' "$top_srcdir/bench/tb-spu-cases")
# shellcheck disable=SC2086
cyc=$(cd "$tmp" && "$tb" $args --no-trace 2>/dev/null | sed -n 's/^tb-spu: spu .*: cycles \([0-9]*\) .*: PASS$/\1/p')
# Every tiny case (what `stats-diff REF NEW --testbenches tb-spu` runs): one line each, identical.
cases=$(awk '$2 == "tiny" { print $1 }' "$top_srcdir/bench/tb-spu-cases")
missing=""
if sd --testbenches tb-spu; then
    for c in $cases; do
        grep -q "^same tb-spu $c ([0-9]* statistics, [1-9][0-9]* cycles)$" "$tmp/out" || missing="$missing $c"
    done
fi
if [ -n "$cases" ] && [ -z "$missing" ] && [ -n "$cyc" ] && grep -q '^all runs identical$' "$tmp/out" &&
    grep -q "^same tb-spu global ([0-9]* statistics, $cyc cycles)$" "$tmp/out" &&
    [ "$(grep -c '^same ' "$tmp/out")" = "$(echo "$cases" | wc -l)" ]; then
    ok "every tiny case of tb-spu runs and compares: identical, global in the cycles tb-spu reports ($cyc)"
else
    no "tb-spu's tiny cases identical (missing:$missing; tb-spu: ${cyc:-no} cycles)"; show
fi
if ! sd --testbenches tb-spu --spu-cases global --set-new spu_iu.mem_latency=100 &&
    grep -q '^DIFF tb-spu global: ' "$tmp/out" && grep -q 'cycles: ' "$tmp/out"; then
    ok "a changed interface-unit latency is a difference"
else
    no "a changed latency differs"; show
fi
if sd --testbenches tb-spu --spu-cases local --tap && [ "$(head -1 "$tmp/out")" = "1..1" ] &&
    grep -q '^ok 1 - tb-spu local ' "$tmp/out"; then
    ok "TAP: one line per case"
else
    no "TAP plan and line"; show
fi
if ! sd --testbenches tb-spu --spu-cases nosuch && grep -q 'tb-spu has no case nosuch at size tiny' "$tmp/out"; then
    ok "an unknown case is refused, the cases named"
else
    no "unknown case refused"; show
fi
if ! sd --testbenches tb-spu --size large && grep -q 'tb-spu has no case of size large' "$tmp/out"; then
    ok "a size without cases is refused"
else
    no "size without cases refused"; show
fi
if sd --testbenches tb-sm,tb-spu --workloads vecadd --spu-cases gpu && grep -q '^same tb-sm vecadd ' "$tmp/out" &&
    grep -q '^same tb-spu gpu ' "$tmp/out" && [ "$(grep -c '^same ' "$tmp/out")" = 2 ]; then
    ok "tb-sm's workloads and tb-spu's cases side by side"
else
    no "tb-sm workloads beside tb-spu cases"; show
fi
echo "1..$n"
exit $fail
