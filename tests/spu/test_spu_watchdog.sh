#!/bin/sh
# The SPU's blocksync watchdog (TAP; docs/spu.md, SPU spec UT-8): kernels in which CTA (0, 0)
# executes one bar.blocksync fewer than its partners (tests/spu/mismatch/spu_stencil.ptx) stop with
# the controller's error, naming the SMs, their CTAs and the pass, with a nonzero exit and no hang:
# producer-consumer sync on one pass and on 2 x 2 passes (pass by pass and overlapped, where a
# restoring VIU waits on its guard), global sync (the count mismatch at the arrival; with partial
# passes, at the end of the CTA's pass, whose barrier counts its own units only). The stencil
# itself never trips it.
tb="$(cd "${top_builddir:-.}" && pwd)/testbench/tb-spu"
src="$(cd "${top_srcdir:-.}" && pwd)"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP needs $tb"
    exit 0
fi
. "$top_srcdir/tests/tap.sh"
cd "$tmp" || exit 1
echo "1..7"
nok() { no "$1"; sed 's/^/# /' "$tmp/err" | head -8; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
mm="--ptx-dir $src/tests/spu/mismatch --no-trace --set spu_grid.p=2"

timeout 120 "$tb" $mm --size 16x16x8 --tile 8 --sync local >out 2>err
rc=$?
check "one pass, local: deadlock named (rc $rc)" \
    "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q '^gpusc: tb.spu.ctl: blocksync deadlock at cycle' err &&
     grep -q '^  SM 1 (x 1, y 0; CTA (1,0) of pass (0,0)) waits at bar.blocksync.west number 1 for SM 0 (x 0, y 0; CTA (0,0) of pass (0,0)), which has ended after 0 bar.blocksync.east' err &&
     grep -q '^  tb.spu.iu_e1 waits at bar.blocksync.west number 1 for SM 3' err && grep -q 'FAIL' out"

timeout 120 "$tb" $mm --size 32x32x16 --tile 8 --sync local --passes plain >out 2>err
rc=$?
check "2 x 2 passes, pass by pass: deadlock in pass (0,0) (rc $rc)" \
    "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'blocksync deadlock' err &&
     grep -q '^  SM 1 (x 1, y 0; CTA (1,0) of pass (0,0)) waits at bar.blocksync.west number 2 for SM 0 (x 0, y 0; CTA (0,0) of pass (0,0)), which has ended after 1 bar.blocksync.east' err"

timeout 120 "$tb" $mm --size 32x32x16 --tile 8 --sync local --passes overlapped >out 2>err
rc=$?
check "2 x 2 passes, overlapped: SM 0 in pass (1,0), a VIU waiting on its guard (rc $rc)" \
    "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'blocksync deadlock' err &&
     grep -q '^  SM 0 (x 0, y 0; CTA (2,0) of pass (1,0)) waits at bar.blocksync.south' err &&
     grep -q 'waits for a spill (the spill -> restore guard)' err"

timeout 120 "$tb" $mm --size 16x16x8 --tile 8 --sync global >out 2>err
rc=$?
check "global: count mismatch at the arrival (rc $rc)" \
    "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q '^gpusc: tb.spu.ctl: blocksync count mismatch at cycle [0-9]*: SM 0 (x 0, y 0; CTA (0,0) of pass (0,0)) ended after 3 global bar.blocksync, but .* arrived at number 4' err"

timeout 120 "$tb" $mm --size 24x24x16 --tile 8 --sync global >out 2>err
rc=$?
check "global, partial passes: count mismatch at the end of the CTA's pass (rc $rc)" \
    "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q '^gpusc: tb.spu.ctl: blocksync count mismatch at cycle [0-9]*: SM 0 (x 0, y 0; CTA (0,0) of pass (0,0)) ended after 6 global bar.blocksync of its pass, which has 7' err"

timeout 120 "$tb" $mm --size 16x16x8 --tile 8 --sync local --set spu_ctl.deadlock_cycles=50 >out 2>err
rc=$?
check "deadlock_cycles sets the window (rc $rc)" "[ $rc -ne 0 ] && grep -q 'for 50 cycles every unit' err"

timeout 120 "$tb" --set spu_grid.p=2 --size 32x32x16 --tile 8 --sync local --passes plain --no-trace \
    --set spu_ctl.deadlock_cycles=1 >out 2>err
rc=$?
check "the stencil (2 x 2 passes, pass by pass) never trips it, at a 1-cycle window (rc $rc)" \
    "[ $rc -eq 0 ] && grep -q PASS out && ! grep -q 'deadlock\|mismatch' err"
exit $fail
