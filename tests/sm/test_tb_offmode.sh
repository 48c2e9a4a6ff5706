#!/bin/sh
# A power-management mechanism switched off is the baseline (TAP): every statistic of tb-sm's run on
# the mechanism's preset, its energy totals included, equals the off run's, and the off run adds only
# the mechanism block's own statistics (docs/renaming.md, docs/greener.md, "Switched off"):
#  - tb-renaming --renaming off against tb-sm --preset renaming: the off run adds nothing (no
#    renaming block: its --dump-config, every instance and parameter, is tb-sm's), and costs what
#    tb-sm's run costs (callgrind's instruction count of the simulation, gsc_run, within 0.05 % on
#    kmeans, the workload whose called function made an observing block the costliest; skipped
#    without valgrind and in a sanitizer build); --renaming observe adds only the block's own
#    statistics;
#  - tb-greener --power baseline against tb-sm --preset greener, and on the other machines
#    (--machine subcore against tb-subcore, --machine gpu against tb-gpu, on tb-greener's presets);
#  - the testbenches whose off run is tb-sm's (renaming, greener, ccws, vws, sharing) are tb-sm's
#    program (testbench/local.mk): their off runs execute its machine code even when link-time
#    optimisation compiles each program differently.
# The speed figures (wall-clock rates) are left out, as in bench/stats-diff.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-offmode.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tbd="$top_builddir/testbench"
echo "1..6"

# same OFF BASE MECH: every statistic of BASE's JSON is in OFF's with the same value; OFF's others
# belong to the instances named MECH (a path component). Prints the differences.
same() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys

SPEED = ("cycles_per_second", "activations_per_cycle", "warp_instrs_per_second")

def flat(path):
    d = json.load(open(path))
    out = {"cycles": d.get("cycles")}
    for inst in d.get("instances", []):
        for name, s in (inst.get("stats") or {}).items():
            out[inst["path"] + "." + name] = s.get("value")
    for name, s in (d.get("derived") or {}).items():
        out[name] = s.get("value")
    return {k: v for k, v in out.items() if not k.endswith(SPEED)}

off, base, mech = flat(sys.argv[1]), flat(sys.argv[2]), sys.argv[3]
bad = ["%s: %r, baseline %r" % (k, off.get(k, "missing"), v) for k, v in sorted(base.items()) if off.get(k, "missing") != v]
bad += ["%s: not the baseline's" % k for k in sorted(off) if k not in base and "." + mech + "." not in k]
if len(base) < 100 or "energy_total" not in base:
    bad.append("only %d statistics in the baseline's run" % len(base))
for b in bad[:8]:
    print(b)
sys.exit(1 if bad else 0)
EOF
}

# pair LABEL MECH "OFF-RUN" "BASE-RUN": runs both (a testbench and its arguments, word-split) on the
# tiny size and appends what differs to $bad
pair() {
    # shellcheck disable=SC2086
    "$tbd"/$3 --no-trace --size tiny --stats-json "$tmp/off.json" >"$tmp/log" 2>&1 || { bad="$bad $1(off failed)"; return; }
    # shellcheck disable=SC2086
    "$tbd"/$4 --no-trace --size tiny --stats-json "$tmp/base.json" >"$tmp/log" 2>&1 || { bad="$bad $1(baseline failed)"; return; }
    d=$(same "$tmp/off.json" "$tmp/base.json" "$2") || bad="$bad $1: $d"
}

n=1
bad=""
for w in vecadd spmv bfs kmeans; do
    pair "$w" "(none)" "tb-renaming --workload $w --renaming off" "tb-sm --workload $w --preset renaming"
    pair "$w(observe)" renaming "tb-renaming --workload $w --renaming observe" "tb-sm --workload $w --preset renaming"
done
if [ -z "$bad" ]; then echo "ok $n - renaming off: every statistic is tb-sm's (renaming preset), and only those; observe adds the block's"; else echo "not ok $n -$bad"; fi

n=2
bad=""
for w in vecadd spmv bfs scalarprod; do
    pair "$w" rfpower "tb-greener --workload $w --power baseline" "tb-sm --workload $w --preset greener"
done
if [ -z "$bad" ]; then echo "ok $n - greener --power baseline: every statistic is tb-sm's (greener preset)"; else echo "not ok $n -$bad"; fi

n=3
bad=""
pair subcore rfpower "tb-greener --workload spmv --power baseline --machine subcore" "tb-subcore --workload spmv --preset subcore"
pair gpu rfpower "tb-greener --workload vecadd --power baseline --machine gpu" "tb-gpu --workload vecadd --preset greener"
if [ -z "$bad" ]; then echo "ok $n - greener --power baseline on the sub-core SM and the GPU: every statistic is the baseline's"; else echo "not ok $n -$bad"; fi

n=4
bad=""
"$tbd"/tb-renaming --workload kmeans --size tiny --renaming off --dump-config >"$tmp/off.ini" 2>&1 || bad="$bad off failed"
"$tbd"/tb-sm --workload kmeans --size tiny --preset renaming --dump-config >"$tmp/base.ini" 2>&1 || bad="$bad tb-sm failed"
grep -q '^\[tb.sm0.regfile\]' "$tmp/base.ini" || bad="$bad no instances in the dump"
cmp -s "$tmp/off.ini" "$tmp/base.ini" || bad="$bad $(diff "$tmp/off.ini" "$tmp/base.ini" | grep '^[<>] \[' | head -3 | tr '\n' ' ')"
if [ -z "$bad" ]; then echo "ok $n - renaming off builds tb-sm's machine: the same instances and parameters"; else echo "not ok $n -$bad"; fi

# ir TESTBENCH ARGS...: the instructions callgrind counts in gsc_run (the simulation) for kmeans tiny
ir() {
    valgrind --tool=callgrind --toggle-collect=gsc_run --callgrind-out-file="$tmp/cg.out" "$tbd/$1" \
        --workload kmeans --size tiny --no-trace "$2" "$3" >/dev/null 2>"$tmp/cg.log" || return 1
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$tmp/cg.log"
}
n=5
if ! command -v valgrind >/dev/null 2>&1; then
    echo "ok $n # SKIP valgrind is not installed"
elif grep -q __asan_init "$tbd/tb-sm"; then
    echo "ok $n # SKIP valgrind under AddressSanitizer"
else
    a=$(ir tb-renaming --renaming off)
    b=$(ir tb-sm --preset renaming)
    if [ -n "$a" ] && [ -n "$b" ] && [ $(((a - b) * 2000 / b)) -le 0 ] && [ $(((b - a) * 2000 / b)) -le 0 ]; then
        echo "ok $n - renaming off costs tb-sm's instructions (kmeans tiny: $a against $b)"
    else
        echo "not ok $n - renaming off: $a instructions against tb-sm's $b (more than 0.05 % apart)"
    fi
fi

n=6
bad=""
for t in tb-renaming tb-greener tb-ccws tb-vws tb-sharing; do
    cmp -s "$tbd/$t" "$tbd/tb-sm" || bad="$bad $t"
done
if [ -z "$bad" ]; then echo "ok $n - the testbenches whose off run is tb-sm's are tb-sm's program"; else echo "not ok $n - not tb-sm's program:$bad"; fi
