#!/bin/sh
# The global memory check (--memcheck) on the functional runner and the timing testbench (TAP):
# strict faults on any access outside an allocation; isolate puts a large unmapped gap after every
# allocation, so a store 512 bytes past a 4-byte buffer faults instead of landing in the next buffer
# (which it does in strict's compact layout); warn pads every allocation, reports each access into a
# padding once per instruction with kernel, pc, thread and address, and the run goes on.
. "$top_srcdir/tests/hostile/tap.sh"
ptx="$top_srcdir/tests/hostile/ptx/oob_far.ptx"
echo "1..20"
u32() { od -An -tu4 "$1" 2>/dev/null | tr -d ' '; }
for prog in kernels/tools/gpusc-run testbench/tb-sm; do
    p=$(basename $prog)
    case $prog in
    *gpusc-run) extra=--functional ;;
    *) extra=--no-trace ;;
    esac
    run() { # MODE OFF BACK
        rm -f "$tmp/a" "$tmp/b"
        expect "$p --memcheck $1: store at +$2, load at -$3" "$4" "$5" "$top_builddir/$prog" $extra --memcheck "$1" \
            --ptx "$ptx" --entry oob_far --grid 1 --block 64 --arg out:"$tmp/a":4 --arg out:"$tmp/b":4 \
            --arg "$2" --arg "$3"
    }
    run strict 512 0 0 ""
    check "$p strict: the store 512 bytes past a landed in b (the compact layout)" [ "$(u32 "$tmp/b")" = 7 ]
    run isolate 512 0 1 "invalid global store: unmapped address 0x[0-9a-f]* (508 bytes past the end of alloc#0"
    run isolate 0 4 1 "invalid global load: unmapped address"
    run warn 512 64 0 "warning: kernel oob_far: pc 4 (.*oob_far.ptx:17 .*) block (0,0,0) thread (0,0,0).*: out-of-bounds global store of 4 bytes at 0x[0-9a-f]*: offset 512 of alloc#0"
    check "$p warn: each instruction reported once (2 warnings for 64 threads)" \
        [ "$(grep -c 'warning: kernel oob_far' "$tmp/err")" = 2 ]
    check "$p warn: the load 64 bytes before a is named by its offset" grep -q "out-of-bounds global load of 4 bytes at 0x[0-9a-f]*: offset -64 of alloc#0" "$tmp/err"
    check "$p warn: the run went on (a = the padding's 0 + 1, b untouched)" [ "$(u32 "$tmp/a"),$(u32 "$tmp/b")" = 1,0 ]
    run warn 200000 0 1 "invalid global store: unmapped address"
    expect "$p --memcheck bogus" 2 "memcheck 'bogus': not strict, warn or isolate" "$top_builddir/$prog" $extra \
        --memcheck bogus --ptx "$ptx" --entry oob_far --grid 1 --block 1 --arg out:"$tmp/a":4 --arg out:"$tmp/b":4 \
        --arg 0 --arg 0
done
exit $fail
