#!/bin/sh
# Bad input gives a clear message and a nonzero exit, never a crash (TAP): a kernel that cannot fit
# on an SM, invalid launches, a PTX error, unknown workload / size / configuration key, a kernel fault,
# and a deadlock that the watchdog ends.
tb="$top_builddir/testbench/tb-sm"
ptx="$top_srcdir/tests/sm/ptx"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
expect() { # name want-status grep-pattern command...
    name=$1 want=$2 pat=$3; shift 3
    n=$((n + 1))
    "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
    if [ "$st" = "$want" ] && grep -q "^gpusc: " "$tmp/err" && grep -q -- "$pat" "$tmp/err"; then
        echo "ok $n - $name (exit $st)"
    else
        echo "not ok $n - $name: exit $st (want $want), stderr:"; sed 's/^/# /' "$tmp/err" | head -5; fail=1
    fi
}
echo "1..14"
expect "a CTA that does not fit (registers)" 1 "registers" "$tb" --no-trace --ptx "$ptx/dep_chain.ptx" --entry chain32 \
    --grid 1 --block 1024 --set sm.registers=1024
expect "a CTA that does not fit (threads)" 1 "threads" "$tb" --no-trace --ptx "$ptx/dep_chain.ptx" --entry chain32 \
    --grid 1 --block 1024 --set sm.threads=512
expect "block of more than 1024 threads" 1 "1024" "$tb" --no-trace --ptx "$ptx/dep_chain.ptx" --entry chain32 --grid 1 --block 2048
expect "unknown entry" 2 "no kernel" "$tb" --no-trace --ptx "$ptx/dep_chain.ptx" --entry nosuch --grid 1 --block 32
expect "wrong argument count" 2 "arguments" "$tb" --no-trace --ptx "$ptx/smem_conflict.ptx" --entry smem --grid 1 --block 32
printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tadd.s32 %%r1, ;\n}\n' >"$tmp/bad.ptx"
# 4 GiB - 1 of shared memory passes the launch check (the shared window) and must not be cut to
# 32 bits on its way to the occupancy calculation; 4 GiB and more are refused by the launch check.
for bytes in 4294967295 4294967296; do
    printf '.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\t.shared .b8 s[%s];\n\tret;\n}\n' \
        "$bytes" >"$tmp/big.ptx"
    expect "a CTA with $bytes bytes of shared memory" 1 "$bytes bytes of shared memory" "$tb" --no-trace \
        --ptx "$tmp/big.ptx" --entry k --grid 1 --block 32
done
expect "PTX syntax error" 2 "bad.ptx" "$tb" --no-trace --ptx "$tmp/bad.ptx" --entry k --grid 1 --block 32
expect "unknown workload" 2 "unknown workload" "$tb" --no-trace --workload nosuch
expect "unknown configuration key" 1 "unknown key" "$tb" --no-trace --set issue.nosuch=1
# a key of a block that was split, or set in the wrong section: the message names the blocks that have it
expect "a key in the wrong block names its block" 1 "policy is a parameter of: arbiter" "$tb" --no-trace \
    --set issue.policy=lrr
expect "a section that is no block names the blocks with the key" 1 "banks is a parameter of: dram, regfile" "$tb" \
    --no-trace --workload vecadd --size tiny --set exec.banks=4
expect "invalid address in a kernel" 1 "invalid" "$tb" --no-trace --ptx "$ptx/l1_hit_miss.ptx" --entry l1 --grid 1 --block 32 --arg 16
expect "watchdog: a barrier deadlock ends with a dump of every warp" 1 "waits on: barrier 1 of its block" "$tb" --no-trace \
    --ptx "$ptx/deadlock.ptx" --entry deadlock --grid 1 --block 64 --watchdog 1000
exit $fail
