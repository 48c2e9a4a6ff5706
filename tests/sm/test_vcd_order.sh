#!/bin/sh
# A cycle's VCD does not depend on the order its activations ran in: the same run traced whole is
# byte-identical with the lane (the default), with every process on the kernel's scheduler
# (GPUSC_LANE=off) and with a cycle's wake-ups fired in seeded random orders (--check=shuffle:SEED).
set -u
. "$top_srcdir/tests/tap.sh"
bld=$(cd "${top_builddir:-.}" && pwd)
echo "1..6"
for run in "tb-sm|--workload hotspot --size tiny" "tb-gpu|--workload bfs --size tiny"; do
    tb=${run%%|*}
    args=${run#*|}
    base="$tmp/$tb.vcd"
    # shellcheck disable=SC2086
    if ! "$bld/testbench/$tb" $args --trace='*' --vcd "$base" >"$tmp/out" 2>&1; then
        no "$tb $args runs traced"; no "$tb: GPUSC_LANE=off"; no "$tb: --check=shuffle"
        continue
    fi
    ok "$tb $args runs traced"
    # shellcheck disable=SC2086
    GPUSC_LANE=off "$bld/testbench/$tb" $args --trace='*' --vcd "$tmp/off.vcd" >/dev/null 2>&1 &&
        cmp -s "$base" "$tmp/off.vcd" && ok "$tb: the same VCD with GPUSC_LANE=off" ||
        no "$tb: the same VCD with GPUSC_LANE=off"
    same=1
    for seed in 3 11; do
        # shellcheck disable=SC2086
        "$bld/testbench/$tb" $args --trace='*' --check=shuffle:$seed --vcd "$tmp/shuf.vcd" >/dev/null 2>&1 &&
            cmp -s "$base" "$tmp/shuf.vcd" || same=0
    done
    [ $same = 1 ] && ok "$tb: the same VCD with --check=shuffle:3 and :11" ||
        no "$tb: the same VCD with --check=shuffle:3 and :11"
done
exit $fail
