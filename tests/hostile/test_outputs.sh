#!/bin/sh
# Output paths a careless user gives (TAP): a VCD that cannot be created ends with a message, not a
# crash; a VCD through a link to a device does not hang; a --max-cycles too large for the clock is
# no limit, not a spin at cycle 0; an issue log shared by every SM of tb-gpu keeps every line; a
# write error on an issue log fails the run.
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
gpu="$top_builddir/testbench/tb-gpu"
echo "1..9"
mkdir "$tmp/d.vcd"
expect "VCD path is a directory" 1 "cannot create .*d.vcd: Is a directory" "$sm" --workload vecadd --vcd "$tmp/d.vcd"
long=$(printf '%0300d' 0)
expect "VCD name longer than NAME_MAX" 1 "cannot create .*: File name too long" "$sm" --workload vecadd \
    --vcd "$tmp/$long.vcd"
expect "VCD in a directory that cannot be made" 1 "cannot create" "$sm" --workload vecadd --vcd /dev/null/x.vcd
ln -s /dev/zero "$tmp/z.vcd"
expect "VCD through a link to /dev/zero ends" 0 "" "$sm" --workload vecadd --vcd "$tmp/z.vcd"
expect "--max-cycles beyond the clock's range is no limit" 0 "" "$gpu" --workload vecadd --no-trace \
    --max-cycles 12908848197137545
expect "issue.log on tb-gpu" 0 "" "$gpu" --workload vecadd --no-trace --set issue.log="$tmp/issue.log"
instrs=$(grep -c "" "$tmp/issue.log")
total=$(awk '/\.issue\.warp_instrs / { s += $2 } END { print s + 0 }' "$tmp/out")
check "issue.log on tb-gpu keeps the line of every instruction of every SM ($instrs of $total)" \
    [ "$instrs" = "$total" -a "$total" -gt 0 ]
check "issue.log on tb-gpu has lines of more than one SM" \
    [ "$(awk '{ print $4 }' "$tmp/issue.log" | sort -u | wc -l)" -gt 1 ]
expect "issue.log that cannot be written (/dev/full)" 1 "cannot write /dev/full: No space left" \
    "$sm" --workload vecadd --no-trace --set issue.log=/dev/full
exit $fail
