#!/bin/sh
# Input files that are not what they claim (TAP): a device that never ends (/dev/zero) given as a
# configuration, a PTX file, an in: buffer or a DAWS profile is an error (beside a PTX file, as its
# ptxas .resources, a warning), not a hang or host memory run out; a
# directory or a NUL byte where a text file belongs; INI lines GKeyFile refuses are named by their
# line; a value with a backslash that starts no escape is refused, not cut; output paths that cannot
# be written (out:, inout:, --stats-json) are refused before the run, not after it.
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
run="$top_builddir/kernels/tools/gpusc-run"
ptxtool="$top_builddir/kernels/tools/gpusc-ptx"
ptx="$top_srcdir/tests/sm/ptx/l1_hit_miss.ptx"
echo "1..24"
expect "--config /dev/zero" 1 "/dev/zero:1: a NUL byte" "$sm" --no-trace --config /dev/zero --dump-config
expect "--config a directory" 1 "$tmp: is a directory" "$sm" --no-trace --config "$tmp" --dump-config
expect "--ptx /dev/zero on tb-sm" 2 "/dev/zero:1: a NUL byte" "$sm" --no-trace --ptx /dev/zero --entry l1 \
    --grid 1 --block 32 --arg out:"$tmp/o":64
expect "--ptx /dev/zero on gpusc-run" 2 "/dev/zero:1: a NUL byte" "$run" --functional --ptx /dev/zero --entry l1 \
    --grid 1 --block 32 --arg out:"$tmp/o":64
expect "gpusc-ptx /dev/zero" 1 "/dev/zero:1: a NUL byte" "$ptxtool" /dev/zero
expect "gpusc-ptx --reuse-hints /dev/zero" 1 "/dev/zero:1: a NUL byte" "$ptxtool" --reuse-hints /dev/zero "$ptx"
cp "$ptx" "$tmp/side.ptx" && ln -sf /dev/zero "$tmp/side.resources"
expect "gpusc-ptx --resources with a .resources that never ends" 0 \
    "warning: $tmp/side.resources:1: a NUL byte (not a text file?); ptxas's figures not shown" \
    "$ptxtool" --resources "$tmp/side.ptx"
expect "tb-ccws --daws-profile /dev/zero" 1 "--daws-profile: /dev/zero:1: a NUL byte" "$top_builddir/testbench/tb-ccws" \
    --workload spmv --size tiny --no-trace --sched daws --daws-profile /dev/zero
{ sed -n 1,11p "$ptx"; printf '\t// a comment with a NUL \000 in it\n'; sed -n '12,$p' "$ptx"; } >"$tmp/nul.ptx"
expect "a NUL byte in a PTX comment" 2 "nul.ptx:12: a NUL byte" "$sm" --no-trace --ptx "$tmp/nul.ptx" --entry l1 \
    --grid 1 --block 32 --arg out:"$tmp/o":64
expect "--ptx a directory" 2 "$tmp: is a directory" "$run" --functional --ptx "$tmp" --entry l1 --grid 1 \
    --block 32 --arg out:"$tmp/o":64
expect "in: a directory" 2 "cannot read '$tmp': is a directory" "$sm" --no-trace --ptx "$ptx" --entry l1 --grid 1 \
    --block 32 --arg in:"$tmp"
expect "in: a pipe" 0 "" sh -c "head -c 64 /dev/zero | '$run' --functional --ptx '$ptx' --entry l1 --grid 1 \
    --block 32 --arg in:/dev/stdin"
if grep -q __asan_init "$sm"; then
    n=$((n + 1))
    echo "ok $n # SKIP ulimit -v under AddressSanitizer"
else # under ulimit -v: a reader without a limit ends in an allocation abort, not the OOM killer
    expect "in:/dev/zero" 2 "cannot read '/dev/zero': more than 1073741824 bytes from a file that is not a regular" \
        sh -c "ulimit -v 4000000; exec '$sm' --no-trace --ptx '$ptx' --entry l1 --grid 1 --block 32 --arg in:/dev/zero"
fi
printf '[issue]\nschedulers=1\n[is]sue]\nschedulers=2\n' >"$tmp/bracket.ini"
expect "a ] inside a section name" 1 "bracket.ini:3: syntax error: .*\[is\]sue\]" "$sm" --no-trace \
    --config "$tmp/bracket.ini" --dump-config
printf '[issue]\n\nschedulers=1\nl]=x\n' >"$tmp/key.ini"
expect "a ] in a key" 1 "key.ini:4: syntax error: Invalid key name" "$sm" --no-trace --config "$tmp/key.ini" \
    --dump-config
printf '[issue]\nlog=%s\\\n[arbiter]\npolicy=gto\n' "$tmp/issue.log" >"$tmp/bs.ini"
expect "a value ending in a backslash" 1 "bs.ini:2: \[issue\] log: a backslash (character [0-9]* of the value) that starts no escape" \
    "$sm" --no-trace --config "$tmp/bs.ini" --dump-config
check "... and no GLib warning" sh -c "! grep -q GLib '$tmp/err'"
printf '[arbiter]\npolicy=g\\qto\\\n' >"$tmp/bs2.ini"
expect "two bad escapes in a value" 1 "bs2.ini:2: \[arbiter\] policy: a backslash (character 2 of the value)" \
    "$sm" --no-trace --config "$tmp/bs2.ini" --dump-config
check "... and no GLib warning" sh -c "! grep -q GLib '$tmp/err'"
expect "out: a directory, before the run" 2 "--arg 1: cannot write $tmp: is a directory" "$sm" --no-trace --ptx "$ptx" \
    --entry l1 --grid 1 --block 32 --arg out:"$tmp":64
expect "out: in a directory that does not exist" 2 "cannot write $tmp/no/o: its directory $tmp/no does not exist" \
    "$run" --functional --ptx "$ptx" --entry l1 --grid 1 --block 32 --arg out:"$tmp/no/o":64
expect "inout: to a directory" 2 "--arg 1: cannot write $tmp: is a directory" "$run" --functional --ptx "$ptx" \
    --entry l1 --grid 1 --block 32 --arg inout:"$ptx":"$tmp"
expect "--stats-json a directory, before the run" 1 "--stats-json $tmp: is a directory" "$sm" --no-trace \
    --workload vecadd --max-cycles 1 --stats-json "$tmp"
check "... refused before the run (no statistics printed)" sh -c "! grep -q 'cycles' '$tmp/out'"
exit $fail
