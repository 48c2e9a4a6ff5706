#!/bin/sh
# Command-line mistakes and output files (TAP): --seed is checked and is the workload's seed; the
# statistics JSON is the same bytes on two runs; empty or colliding output paths; a --ptx-dir or
# GPUSC_PTX_DIR that is not there; out:PATH writes through a symbolic link (to a device) instead of
# replacing it; a write error on gpusc-run --trace and on the VCD; negative --watchdog and --shared, --quantum 0;
# gpusc-ptx --markdown without the --occupancy it formats; a non-ASCII argument is read in the locale's
# character set, and one that is not text in it is named.
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/sm/ptx"
echo "1..21"
expect "--seed that is not a number" 2 "seed 'abc'" "$sm" --no-trace --workload vecadd --seed abc
expect "--seed with a --ptx kernel" 2 "seed" "$sm" --no-trace --seed 3 --ptx "$ptx/l1_hit_miss.ptx" --entry l1 \
    --grid 1 --block 32 --arg out:"$tmp/o":64
expect "--seed 7 runs the workload with seed 7" 0 "" "$sm" --no-trace --workload bfs --seed 7
"$sm" --no-trace --workload vecadd --stats-json "$tmp/a.json" >/dev/null 2>&1
"$sm" --no-trace --workload vecadd --stats-json "$tmp/b.json" >/dev/null 2>&1
check "--stats-json gives the same bytes on two runs" cmp -s "$tmp/a.json" "$tmp/b.json"
check "--stats-json holds no wall-clock figure" sh -c "! grep -q cycles_per_second '$tmp/a.json'"
expect "--stats-json ''" 1 "stats-json: empty" "$sm" --no-trace --workload vecadd --stats-json ""
expect "--stats-json the same file as --vcd" 1 "the same file as the waveform" "$sm" --workload vecadd \
    --vcd "$tmp/w" --stats-json "$tmp/w.vcd"
expect "--ptx-dir that does not exist" 2 "ptx-dir $tmp/nosuch: no such directory" "$sm" --no-trace \
    --workload vecadd --ptx-dir "$tmp/nosuch"
expect "GPUSC_PTX_DIR that does not exist" 2 "GPUSC_PTX_DIR $tmp/nosuch: no such directory" \
    env GPUSC_PTX_DIR="$tmp/nosuch" "$sm" --no-trace --workload vecadd
expect "gpusc-run --ptx-dir without the workload's PTX" 2 "there is no vecadd.ptx" "$run" --functional \
    --workload vecadd --size tiny --ptx-dir "$tmp"
ln -s "$tmp/target" "$tmp/link"
expect "out: through a symbolic link" 0 "" "$sm" --no-trace --ptx "$ptx/l1_hit_miss.ptx" --entry l1 --grid 1 \
    --block 32 --arg out:"$tmp/link":64
check "out: left the link a link and wrote its target" [ -L "$tmp/link" -a "$(wc -c <"$tmp/target")" = 64 ]
ln -s /dev/full "$tmp/full"
expect "out: through a link to /dev/full is a write error" 1 "No space left" "$sm" --no-trace \
    --ptx "$ptx/l1_hit_miss.ptx" --entry l1 --grid 1 --block 32 --arg out:"$tmp/full":4096
expect "gpusc-run --trace /dev/full" 1 "cannot write '/dev/full'" "$run" --functional --workload vecadd \
    --size tiny --trace /dev/full
ln -s /dev/full "$tmp/fullw.vcd"
expect "a VCD that cannot be written (a link to /dev/full) is a write error" 1 \
    "cannot write $tmp/fullw.vcd: No space left" "$sm" --workload vecadd --vcd "$tmp/fullw.vcd"
expect "--watchdog -1" 2 "watchdog" "$sm" --no-trace --workload vecadd --watchdog -1
expect "--shared -1" 2 "shared -1 is out of range" "$sm" --no-trace --ptx "$ptx/l1_hit_miss.ptx" --entry l1 \
    --grid 1 --block 32 --shared -1 --arg out:"$tmp/o":64
expect "gpusc-run --quantum 0" 2 "quantum" "$run" --functional --workload vecadd --size tiny --quantum 0
expect "gpusc-ptx --markdown without --occupancy" 2 "markdown goes with --occupancy" \
    "$top_builddir/kernels/tools/gpusc-ptx" --markdown "$top_srcdir/kernels/ptx/vecadd.ptx"
expect "a non-ASCII file name in a UTF-8 locale" 0 "" env LC_ALL=C.UTF-8 "$sm" --no-trace --workload vecadd \
    --set issue.log="$tmp/é.log"
expect "a non-ASCII argument in the C locale names the argument" 1 \
    "argument 'issue.log=.*' is not text in the locale's character set" env LC_ALL=C "$sm" --no-trace \
    --workload vecadd --set issue.log="$tmp/é.log"
exit $fail
