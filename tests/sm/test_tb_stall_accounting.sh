#!/bin/sh
# Every scheduler-cycle of a run is counted once by issue: an issue or one stall reason, the cycles
# the block slept included (blk_sleep_charge), from cycle 0 to the last cycle, however the run ends:
# completed, stopped by --max-cycles or by the watchdog (blk_ctx_finish). For every issue instance,
# issue_slots_used + the stall_* counters = cycles x schedulers. TAP.
tbdir="$top_builddir/testbench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/check.py" <<'PY'
import json, re, sys
stats, config = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
sched, section = {}, None
for line in config.splitlines():
    m = re.match(r"\[(.*)\]$", line)
    if m:
        section = m.group(1)
    m = re.match(r"schedulers=(\d+)$", line)
    if m:
        sched[section] = int(m.group(1))
bad, n = 0, 0
for inst in stats["instances"]:
    if inst["type"] != "issue":
        continue
    n += 1
    s = inst["stats"]
    total = s["issue_slots_used"]["value"] + sum(v["value"] for k, v in s.items() if k.startswith("stall_"))
    want = stats["cycles"] * sched[inst["path"]]
    if total != want:
        print("# %s: %d scheduler-cycles counted, %d x %d = %d run" % (inst["path"], total, stats["cycles"],
                                                                     sched[inst["path"]], want))
        bad += 1
sys.exit(1 if bad or not n else 0)
PY
n=0
fail=0
check() { # description, testbench, expected exit status, arguments...
    what=$1 tb=$2 want=$3
    shift 3
    n=$((n + 1))
    "$tbdir/$tb" "$@" --no-trace --stats-json "$tmp/s.json" >"$tmp/out" 2>&1
    rc=$?
    "$tbdir/$tb" "$@" --dump-config >"$tmp/cfg" 2>/dev/null
    if [ "$rc" = "$want" ] && python3 "$tmp/check.py" "$tmp/s.json" "$tmp/cfg"; then
        echo "ok $n - $what"
    else
        echo "not ok $n - $what (exit $rc, expected $want)"
        fail=1
    fi
}
echo "1..7"
check "tb-sm vecadd, completed" tb-sm 0 --workload vecadd
check "tb-sm spmv, stopped by --max-cycles 5000" tb-sm 1 --workload spmv --max-cycles 5000
check "tb-subcore spmv, completed" tb-subcore 0 --workload spmv
check "tb-subcore histogram, stopped by --max-cycles 3001" tb-subcore 1 --workload histogram --max-cycles 3001
check "tb-gpu vecadd, completed (idle SMs sleep to the end)" tb-gpu 0 --workload vecadd
check "tb-gpu spmv, stopped by --max-cycles 2000" tb-gpu 1 --workload spmv --max-cycles 2000
check "tb-gpu deadlock, stopped by the watchdog" tb-gpu 1 --ptx "$top_srcdir/tests/sm/ptx/deadlock.ptx" \
    --entry deadlock --grid 1 --block 64 --set gpu.sms=2 --watchdog 2000
exit $fail
