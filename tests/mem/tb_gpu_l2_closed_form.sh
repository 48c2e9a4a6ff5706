#!/bin/sh
# L1 miss through the interconnect, the L2 and DRAM in closed form (TAP), on tb-gpu with 1 SM and a
# one-line L1 (every load of tests/mem/ptx/l2chain.ptx misses the L1).
#
# Round trip of one L1 miss, from the cycle the SM's ldst puts the request on its mem_req FIFO to the
# cycle the reply is put on its mem_resp FIFO (each FIFO hop is read one cycle after the put; the
# blocks' headers derive each term):
#   icnt   put c -> out put c + 1 + L + S        S = ceil(ceil(bytes / flit) / flits_per_cycle)
#   l2     put c -> lookup c + 1 + R              hit: reply put then; miss: fill request put then
#   dram   put c -> reply put c + 1 + B + Ld      B = ceil(128 / bytes_per_cycle)
#   l2     fill put c -> reply put c + 1
#   L2 hit:  3 + 2L + S_req + S_resp + R
#   L2 miss: 5 + 2L + S_req + S_resp + R + B + Ld          miss - hit = 2 + B + Ld
# The kernel: loads X, Y, then Z dependent on each other, and a store whose acknowledgement the SM
# waits for. Run K2 with Z = X (X is in the L2 by then: an L2 hit) and K3 with Z a new line (an L2
# miss); everything else is the same, so cycles(K3) - cycles(K2) = 2 + B + Ld = 106 with the GTX480
# defaults (B = ceil(128/42) = 4, Ld = 100).
# Each parameter moves the total by its count of uses: per kernel 4 L2 lookups (3 loads + the store)
# and 4 round trips through the icnt (2 x L each); DRAM accesses: K2 3 (X, Y, the store's
# fetch-on-write), K3 4; read replies (8 + 128 bytes) 3.
# The DRAM runs on the core clock here with the parameter defaults (42 B, 100 cycles: the GTX480's
# 924 MHz converted into 700 MHz core cycles), not in the gtx480 preset's 924 MHz clock domain, so
# every term is a core-cycle count (tests/mem/test_dram_blk checks the domains in closed form).
tb="${top_builddir:-.}/testbench/tb-gpu"
src="${top_srcdir:-.}"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP $tb is not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-l2cf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dd if=/dev/zero of="$tmp/buf.bin" bs=8192 count=1 2>/dev/null
cycles() { # o3, then extra options
    o3=$1
    shift
    "$tb" --no-trace --set gpu.sms=1 --set ldst.l1_sets=1 --set ldst.l1_ways=1 --set gpu.dram_period_ps=0 \
        --set dram.bytes_per_cycle=42 --set dram.latency=100 "$@" \
        --ptx "$src/tests/mem/ptx/l2chain.ptx" --entry l2chain --grid 1 --block 1 \
        --arg "in:$tmp/buf.bin" --arg 0 --arg 1024 --arg "$o3" --arg 4096 2>"$tmp/err" |
        sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p'
}
echo "1..12"
i=0
fail=0
check() { # name, got, want
    i=$((i + 1))
    if [ -n "$2" ] && [ "$2" -eq "$3" ]; then echo "ok $i - $1: $2"; else echo "not ok $i - $1: got '$2', want $3"; fail=1; sed 's/^/# /' "$tmp/err" | head -5; fi
}
k2=$(cycles 0)
k3=$(cycles 2048)
check "L2 miss - L2 hit = 2 + B + Ld" $((k3 - k2)) 106
# DRAM latency +100: K2 3 DRAM accesses, K3 4
check "K2, dram.latency +100" $(($(cycles 0 --set dram.latency=200) - k2)) 300
check "K3, dram.latency +100" $(($(cycles 2048 --set dram.latency=200) - k3)) 400
# L2 (ROP) latency +10: 4 lookups
check "K2, l2.latency +10" $(($(cycles 0 --set l2.latency=130) - k2)) 40
check "K3, l2.latency +10" $(($(cycles 2048 --set l2.latency=130) - k3)) 40
# interconnect latency +10: 4 round trips x 2 traversals
check "K2, icnt.latency +10" $(($(cycles 0 --set icnt.latency=18) - k2)) 80
check "K3, icnt.latency +10" $(($(cycles 2048 --set icnt.latency=18) - k3)) 80
# DRAM bandwidth 16 B/cycle: B = 8 instead of 4 per access
check "K2, dram.bytes_per_cycle 16" $(($(cycles 0 --set dram.bytes_per_cycle=16) - k2)) 12
check "K3, dram.bytes_per_cycle 16" $(($(cycles 2048 --set dram.bytes_per_cycle=16) - k3)) 16
# 16-byte flits: a read reply (136 B) takes S = 9 instead of 5; requests and acks stay 1 flit
check "K2, icnt.flit_bytes 16" $(($(cycles 0 --set icnt.flit_bytes=16) - k2)) 12
# a miss with the bigger numbers: miss - hit = 2 + B + Ld with B = 8, Ld = 200
check "L2 miss - hit, B = 8, Ld = 200" \
    $(($(cycles 2048 --set dram.bytes_per_cycle=16 --set dram.latency=200) - $(cycles 0 --set dram.bytes_per_cycle=16 --set dram.latency=200))) 210
# the miss - hit difference does not depend on the L2 latency (both pass the ROP once)
check "K2 - K3 difference independent of l2.latency" \
    $(($(cycles 2048 --set l2.latency=60) - $(cycles 0 --set l2.latency=60))) 106
exit $fail
