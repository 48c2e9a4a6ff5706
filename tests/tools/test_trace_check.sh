#!/bin/sh
# Dirty marking of traced variables (docs/sc-api.md, "VCD tracing"): every testbench runs fully
# traced in the trace check mode (GPUSC_TRACE_CHECK=1: every variable no activation, arrival hook
# or declared call marked is compared too, and a change there stops the run naming it), so a path
# that changes traced state without marking it fails here instead of silently losing a transition.
# Per-warp state and a trace window are included on tb-sm and tb-gpu. (TAP)
set -u
bld=$(cd "${top_builddir:-.}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs="tb-sm:spmv tb-subcore:sgemm tb-gpu:bfs tb-ccws:spmv tb-greener:vecadd tb-vws:spmv tb-sharing:vecadd
tb-renaming:vecadd tb-rfcache:sgemm tb-sm:hotspot:--trace=*,*.warp*+--trace-window=40:300
tb-gpu:spmv:--trace=*,*.warp*+--trace-window=60:"
n=0
for r in $runs; do n=$((n + 1)); done
echo "1..$n"
i=0
fail=0
for r in $runs; do
    i=$((i + 1))
    prog=${r%%:*}
    rest=${r#*:}
    wl=${rest%%:*}
    extra=""
    [ "$rest" != "$wl" ] && extra=$(echo "${rest#*:}" | tr '+' ' ')
    mkdir -p "$tmp/$i"
    # shellcheck disable=SC2086
    if (cd "$tmp/$i" && GPUSC_TRACE_CHECK=1 "$bld/testbench/$prog" --workload "$wl" --size tiny $extra >out.txt 2>&1) &&
        ! grep -q "trace check" "$tmp/$i/out.txt" && [ -s "$tmp/$i/waveforms/$prog.vcd" ]; then
        echo "ok $i - $prog $wl $extra: every traced change was marked"
    else
        fail=1
        echo "not ok $i - $prog $wl $extra"
        grep "gpusc:" "$tmp/$i/out.txt" | head -3 | sed 's/^/# /'
    fi
done
exit $fail
