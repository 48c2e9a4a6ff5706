#!/bin/sh
# A sweep through a real Slurm cluster (TAP): munged, slurmctld and slurmd from the Debian packages
# (munge, slurmctld, slurmd, slurm-client), configured in a temporary directory (own ports, socket,
# state and spool), one node of 2 CPUs. gpusc-sweep submits a 4-point sweep as a job array of 2 tasks
# and a dependent collect job, and waits; the table must hold the same statistics as the local run of
# the same sweep. Skipped, with the reason, where the daemons are missing or cannot start; the
# daemons are stopped at the end (and on any exit), each runs under `timeout` (gone after 5 minutes
# even if this script is killed), and every wait is bounded.
tmp=$(mktemp -d /tmp/gpusc-slurm.XXXXXX)
pids=
cleanup() {
    # $pids are the `timeout` processes: TERM goes on to their daemon; then up to 3 s for them to end
    for p in $pids; do kill "$p" 2>/dev/null; done
    i=0
    while [ $i -lt 30 ]; do
        alive=
        for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ -z "$alive" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    for p in $pids; do
        for c in $(pgrep -P "$p" 2>/dev/null); do kill -9 "$c" 2>/dev/null; done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE
skip_all() {
    echo "1..0 # SKIP $1"
    exit 0
}
for prog in munged slurmctld slurmd sbatch squeue sinfo; do
    p=$(command -v $prog 2>/dev/null || ls /usr/sbin/$prog 2>/dev/null)
    [ -n "$p" ] || skip_all "$prog not installed (apt-get install munge slurmctld slurmd slurm-client)"
    eval "$prog=\$p"
done
user=$(id -un)
node=gpusc-node
host=$(hostname -s)
# two free TCP ports from a range chosen by the process id
base=$((20000 + ($$ % 2000) * 4))
cport=$base
dport=$((base + 1))
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/out"
chmod 700 "$tmp" "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
timeout 300 "$munged" --foreground --force --key-file="$tmp/munge/munge.key" --socket="$sock" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed" \
    >"$tmp/munge/out" 2>&1 &
pids="$pids $!"
cat >"$tmp/slurm.conf" <<EOC
ClusterName=gpusc-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$cport
SlurmdPort=$dport
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=10 State=UP
EOC
SLURM_CONF="$tmp/slurm.conf"
export SLURM_CONF
i=0
while [ ! -S "$sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$sock" ] || skip_all "munged did not start: $(tail -n 3 "$tmp/munge/munged.log" "$tmp/munge/out" 2>/dev/null | tr '\n' ' ')"
timeout 300 "$slurmctld" -D -i -f "$tmp/slurm.conf" >"$tmp/slurmctld.out" 2>&1 &
ctld=$!
timeout 300 "$slurmd" -D -N "$node" -f "$tmp/slurm.conf" >"$tmp/slurmd.out" 2>&1 &
slurmd_pid=$!
pids="$pids $ctld $slurmd_pid"
# the node must come up idle within 30 s
i=0
state=
while [ $i -lt 60 ]; do
    state=$(timeout 5 "$sinfo" -h -n "$node" -o %t 2>/dev/null)
    case $state in idle*) break ;; esac
    kill -0 $ctld 2>/dev/null && kill -0 $slurmd_pid 2>/dev/null || break # a daemon has exited
    sleep 0.5
    i=$((i + 1))
done
case $state in
idle*) ;;
*)
    why=$(tail -n 2 "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp/slurmctld.out" "$tmp/slurmd.out" 2>/dev/null | grep -v '^$' | tr '\n' ' ')
    skip_all "the Slurm daemons did not bring node $node up (state '${state:-none}'): $why"
    ;;
esac
echo "1..5"
fail=0
n=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
GPUSC_BINDIR="$top_builddir/testbench"
export GPUSC_BINDIR
cat >"$tmp/s.sweep" <<'EOS'
[sweep]
name=slurm-small
testbench=tb-sm
workloads=vecadd;reduction
[axis policy]
gto=--set arbiter.policy=gto
lrr=--set arbiter.policy=lrr
EOS
sweep="$top_srcdir/tools/gpusc-sweep"
"$sweep" slurm "$tmp/s.sweep" --out "$tmp/out/slurm" --per-task 2 --dry-run >"$tmp/dry" 2>&1
t "--dry-run prints a 2-task array script" 'grep -q "^#SBATCH --array=0-1$" "$tmp/dry"'
timeout 120 "$sweep" slurm "$tmp/s.sweep" --out "$tmp/out/slurm" --per-task 2 --wait \
    --sbatch-arg=--time=5 >"$tmp/submit" 2>&1
rc=$?
sed 's/^/# /' "$tmp/submit"
t "the array and its collect job ran (rc $rc)" '[ $rc = 0 ] && grep -q "submitted job array" "$tmp/submit" && grep -q "4 points ok, 0 not" "$tmp/submit"'
t "every array task wrote its log" '[ $(ls "$tmp/out/slurm/slurm"/task-*.out 2>/dev/null | wc -l) = 2 ]'
"$sweep" "$tmp/s.sweep" --out "$tmp/out/local" -j2 >/dev/null 2>&1
# wall-clock statistics differ from run to run; everything else must match
strip() { python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    print(sorted((k, v) for k, v in r.items() if k != 'tb.cycles_per_second'))" "$1"; }
t "the Slurm table equals the local one (wall-clock speed aside)" \
  '[ -s "$tmp/out/slurm/results.csv" ] && [ "$(strip "$tmp/out/slurm/results.csv")" = "$(strip "$tmp/out/local/results.csv")" ]'
# resumable there too: nothing is left to submit
timeout 60 "$sweep" slurm "$tmp/s.sweep" --out "$tmp/out/slurm" >"$tmp/again" 2>&1
t "a second submission finds every result" 'grep -q "every one of the 4 points has a result; nothing to submit" "$tmp/again"'
if [ $fail != 0 ]; then
    for f in slurmctld.log slurmd.log; do echo "# --- $f"; tail -n 15 "$tmp/$f" | sed 's/^/# /'; done
fi
exit $fail
