#!/bin/sh
# Numbers and texts at and past their limits (TAP): counts, sizes and cache geometry out of range or
# not a power of two are configuration errors naming the key; grid and block dimensions past 32 bits
# name the option and its value; huge PTX declarations (registers, arrays, local memory), deep
# nesting, a 1 MB line, binary garbage and an empty file are errors at their place, not a crash or an
# allocation the host cannot make; an empty INI file is no configuration at all; tb-spu's --size is
# checked whole and bounded, its --watchdog is not negative; a --trace list of no pattern (empty, or
# only commas) is refused as --no-trace's job; --dump-config writes no configured output file.
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
gpu="$top_builddir/testbench/tb-gpu"
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/sm/ptx/l1_hit_miss.ptx"
head='.version 7.0
.target sm_75
.address_size 64'
echo "1..26"
expect "gpu.sms=100000" 1 "\[gpu\] sms: 100000 is out of range \[1, 256\]" "$gpu" --no-trace --workload vecadd \
    --set gpu.sms=100000
expect "l2.sets=0" 1 "\[l2\] sets: 0 is out of range" "$gpu" --no-trace --workload vecadd --set l2.sets=0
expect "a hashed L1D of 3 sets" 1 "the XOR set index needs a power-of-two number of sets (sets 3" "$sm" --no-trace \
    --workload vecadd --set ldst.l1_sets=3
expect "an L1D line of 100 bytes" 1 "line size must be a power of two (sets 32, ways 4, line 100)" "$sm" --no-trace \
    --workload vecadd --set ldst.l1_line=100
expect "a DRAM row of 100 bytes" 1 "row_bytes 100 is not a power of two" "$gpu" --no-trace --workload vecadd \
    --set dram.row_bytes=100
expect "a register count past 64 bits" 1 "expected an unsigned integer, got '99999999999999999999999'" "$sm" --no-trace \
    --workload vecadd --set sm.registers=99999999999999999999999
expect "--grid past 32 bits" 2 "--grid 99999999999: expected X\[,Y\[,Z\]\]" "$sm" --no-trace --ptx "$ptx" --entry l1 \
    --grid 99999999999 --block 32 --arg out:"$tmp/o":64
expect "--block 0" 2 "--block 0: expected X\[,Y\[,Z\]\]" "$sm" --no-trace --ptx "$ptx" --entry l1 --grid 1 --block 0 \
    --arg out:"$tmp/o":64
expect "--regs-per-thread 100000" 2 "regs-per-thread 100000 is out of range" "$sm" --no-trace --ptx "$ptx" --entry l1 \
    --grid 1 --block 32 --regs-per-thread 100000 --arg out:"$tmp/o":64
: >"$tmp/empty.ini"
expect "an empty INI file" 0 "" "$sm" --no-trace --config "$tmp/empty.ini" --dump-config
: >"$tmp/empty.ptx"
expect "an empty PTX file" 2 "empty.ptx: no kernel (.entry) named 'k'" "$run" --functional --ptx "$tmp/empty.ptx" \
    --entry k --grid 1 --block 1
printf '\001\002\377garbage\n' >"$tmp/garbage.ptx"
expect "binary garbage as PTX" 2 "garbage.ptx:1:1: unexpected byte 0x01" "$run" --functional --ptx "$tmp/garbage.ptx" \
    --entry k --grid 1 --block 1
deep() { # N OPEN CLOSE: N copies of OPEN, then N of CLOSE
    awk -v n="$1" -v o="$2" -v c="$3" 'BEGIN { for (i = 0; i < n; i++) printf "%s", o; printf "\n"; for (i = 0; i < n; i++) printf "%s", c; printf "\n" }'
}
{ echo "$head"; echo ".visible .entry k()"; deep 100000 '{' '}'; } >"$tmp/scopes.ptx"
expect "100000 nested scopes" 2 "scopes.ptx:5:[0-9]*: scopes nested too deeply" "$run" --functional \
    --ptx "$tmp/scopes.ptx" --entry k --grid 1 --block 1
{ echo "$head"; printf '.global .b32 a[1] = '; deep 100000 '{' '}' | tr -d '\n'; printf ';\n.visible .entry k()\n{\nret;\n}\n'; } \
    >"$tmp/init.ptx"
expect "100000 nested initialisers" 2 "init.ptx:4:[0-9]*: initialiser nested too deeply" "$run" --functional \
    --ptx "$tmp/init.ptx" --entry k --grid 1 --block 1
{ echo "$head"; printf '.visible .entry k()\n{\n.reg .b32 %%r<2>;\nmov.b32 %%r1, 1'; awk 'BEGIN { for (i = 0; i < 200000; i++) printf "+1" }'; printf ';\nret;\n}\n'; } \
    >"$tmp/long.ptx"
expect "a 400 kB line" 2 "long.ptx:7:[0-9]*: expected ';'" "$run" --functional --ptx "$tmp/long.ptx" --entry k \
    --grid 1 --block 1
check "... and a short message" [ "$(wc -c <"$tmp/err")" -lt 1000 ]
{ echo "$head"; printf '.visible .entry k()\n{\n.reg .b32 %%r<4000000000>;\nret;\n}\n'; } >"$tmp/regs.ptx"
expect "4000000000 registers" 2 "regs.ptx:6:[0-9]*: too many registers in one declaration" "$sm" --no-trace \
    --ptx "$tmp/regs.ptx" --entry k --grid 1 --block 1
{ echo "$head"; printf '.global .b8 a[1000000000000];\n.visible .entry k()\n{\nret;\n}\n'; } >"$tmp/big.ptx"
expect "a 1 TB .global array" 2 "^gpusc: [^ ]*big.ptx: module .global data is 1000000000000 bytes" "$sm" --no-trace \
    --ptx "$tmp/big.ptx" --entry k --grid 1 --block 1
{ echo "$head"; printf '.visible .entry k()\n{\n.local .b8 a[1000000000000];\nret;\n}\n'; } >"$tmp/local.ptx"
expect "a 1 TB .local array" 1 "1000000000000 bytes of local memory per thread" "$run" --functional \
    --ptx "$tmp/local.ptx" --entry k --grid 1 --block 1
spu="$top_builddir/testbench/tb-spu"
expect "tb-spu --size 100000x100000x100000" 2 "its arrays take 250160000000000 bytes on the device (at most 4294967296)" \
    "$spu" --no-trace --size 100000x100000x100000
expect "tb-spu --size with trailing text" 2 "--size '128x128x128abc': expected NxNxK" "$spu" --no-trace \
    --size 128x128x128abc
expect "tb-spu --watchdog -1" 2 "--watchdog -1: must not be negative" "$spu" --no-trace --watchdog -1 --max-cycles 1
expect "--trace ''" 1 "--trace: empty pattern list (use --no-trace)" "$sm" --workload vecadd --max-cycles 1 \
    --vcd "$tmp/t.vcd" --trace ''
expect "--trace ',, ,' (commas, no pattern)" 1 "--trace: empty pattern list (use --no-trace)" "$sm" --workload vecadd \
    --max-cycles 1 --vcd "$tmp/t.vcd" --trace ',, ,'
printf '[issue]\nlog=%s\npipeview=%s\n' "$tmp/dc.log" "$tmp/dc.pv" >"$tmp/dc.ini"
expect "--dump-config with an issue log and pipeline view configured" 0 "" "$sm" --config "$tmp/dc.ini" --dump-config
check "... creates neither file" sh -c "[ ! -e '$tmp/dc.log' ] && [ ! -e '$tmp/dc.pv' ]"
exit $fail
