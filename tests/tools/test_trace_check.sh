#!/bin/sh
# Dirty marking of traced variables (docs/sc-api.md, "VCD tracing"): testbenches run fully traced in
# the trace check mode (tests/tools/trace_check.sh), so a path that changes traced state without
# marking it fails here instead of silently losing a transition. Per-warp state and a trace window
# are included on tb-sm and tb-gpu; the cases where a block's traced state was changed by a call from
# outside it: the lock table's ShSM, set when the sharing-aware grant configures the table from
# cta_dispatch (tb-sharing, scratchpad sharing active from the first grid; register sharing active
# from convolution's second grid on), and an interface unit's state, set when the
# SPU grid's runtime starts its role (tb-spu, global sync with partial passes). Every testbench and
# workload: tests/tools/test_trace_check_sweep.sh. (TAP)
set -u
bld=$(cd "${top_builddir:-.}" && pwd)
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/tools/trace_check.sh"
cat >"$tmp/runs" <<'RUNS'
tb-sm --workload spmv --size tiny
tb-subcore --workload sgemm --size tiny
tb-gpu --workload bfs --size tiny
tb-ccws --workload spmv --size tiny
tb-greener --workload vecadd --size tiny
tb-vws --workload spmv --size tiny
tb-sharing --workload vecadd --size tiny
tb-renaming --workload vecadd --size tiny
tb-rfcache --workload sgemm --size tiny
tb-sm --workload hotspot --size tiny --trace=*,*.warp* --trace-window=40:300
tb-gpu --workload spmv --size tiny --trace=*,*.warp* --trace-window=60:
tb-sharing --workload sgemm --size tiny --preset rs-table2.3-16k --share scratchpad --smem-per-cta 7000 --policy owf --relssp opt
tb-sharing --workload convolution --size tiny --share registers --policy owf
tb-spu --set spu_grid.p=2 --size 24x24x8 --tile 8 --iu-path icnt
tb-spu --set spu_grid.p=2 --size 24x24x16 --tile 8 --iu code
RUNS
trace_check_runs "$tmp/runs"
exit $fail
