#!/bin/sh
# The timing model and the functional runner count the same instructions (TAP). Every workload at the
# tiny size on tb-sm (LRR and GTO), tb-subcore and tb-gpu reports the warp instructions, thread
# instructions and warp instructions per class that gpusc-run --functional --stats reports: a warp
# instruction is one issued and not squashed, guarded-off ones, bar and exit included, and the implicit
# ret at the end of a function without one; thread instructions are the lanes whose guard held
# (docs/sm.md, "Instruction counts"). Both run the register-allocated code (gpusc-run --rewritten).
#
# Schedule-dependent workloads, whose instruction count depends on which CTAs run at the same time:
#   reduction  reduce_max merges each block's maximum into one word with an atomicCAS retry loop; a CAS
#              fails, and the loop runs again (7 warp instructions, 6 of them with the one lane on),
#              when another CTA changed the word after this one read it. The functional runner runs
#              one CTA at a time, so no CAS fails there (its count still depends on the CTA order,
#              see gpusc-run --schedule-seed). With one resident CTA on one SM the timing model runs
#              them in the same order, one at a time, and the counts are equal: that is what is checked.
run="$top_builddir/kernels/tools/gpusc-run"
ptx="$top_srcdir/tests/sm/ptx/implicit_ret.ptx"
sched_dep="reduction"
tbs="tb-sm|tb-sm --set arbiter.policy=gto|tb-subcore|tb-gpu"
# One CTA at a time on one SM, in CTA order.
serial="tb-sm --set sm.ctas=1|tb-subcore --set subcore_sm.ctas=1|tb-gpu --set gpu.sms=1 --set sm.ctas=1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/workloads.sh"
wls=$(test_workloads "$run")
[ -n "$wls" ] || { echo "1..0 # SKIP: no workloads listed"; exit 1; }

# "warp thread alu int sfu dp mem ctrl sync warp" from gpusc-run --stats / a testbench's statistics.
frun_counts() {
    awk -F': ' '/^warp instructions:/ { w = $2 } /^thread instructions:/ { t = $2 }
        /^warp instructions by class:/ { c = $2; gsub(/[a-z]+ /, "", c) }
        END { print w, t, c }' "$1"
}
tb_counts() {
    awk '$1 ~ /\.issue[0-9]*\.(warp_instrs|thread_instrs|instrs_[a-z]+)$/ { n = split($1, a, "."); s[a[n]] += $2 }
        END { printf "%d %d", s["warp_instrs"], s["thread_instrs"]
              split("alu int sfu dp mem ctrl sync warp", c, " ")
              for (i = 1; i <= 8; i++) printf " %d", s["instrs_" c[i]]
              print "" }' "$1"
}

n=0
fail=0
check() { # name expected got
    n=$((n + 1))
    if [ "$2" = "$3" ] && [ -n "$2" ]; then
        echo "ok $n - $1: $2"
    else
        echo "not ok $n - $1: functional '$2', timing '$3' (warp thread alu int sfu dp mem ctrl sync warp)"
        fail=1
    fi
}
# Run testbench command line $1 (program and options) with the kernel options $2..; counts to stdout.
tb_run() {
    cmd=$1
    shift
    prog=${cmd%% *}
    opts=${cmd#"$prog"}
    # shellcheck disable=SC2086
    if "$top_builddir/testbench/$prog" $opts --no-trace "$@" >"$tmp/tb" 2>&1 && grep -q ": PASS$" "$tmp/tb"; then
        tb_counts "$tmp/tb"
    else
        sed 's/^/# /' "$tmp/tb" | grep -v '^# tb\.' | tail -5 >&2
        echo "failed"
    fi
}

nw=$(echo $wls | wc -w)
nd=$(echo $sched_dep | wc -w)
echo "1..$(((nw - nd) * 4 + nd * 3 + 3))"
IFS_SAVE=$IFS
for w in $wls; do
    "$run" --functional --rewritten --workload "$w" --size tiny --stats >"$tmp/f" 2>&1 || { sed 's/^/# /' "$tmp/f"; }
    f=$(frun_counts "$tmp/f")
    case " $sched_dep " in
    *" $w "*) configs=$serial ;;
    *) configs=$tbs ;;
    esac
    IFS='|'
    for c in $configs; do
        IFS=$IFS_SAVE
        check "$c: $w" "$f" "$(tb_run "$c" --workload "$w" --size tiny)"
        IFS='|'
    done
    IFS=$IFS_SAVE
    case " $sched_dep " in
    *" $w "*) echo "# $w (schedule-dependent) with the default occupancy on tb-sm: $(tb_run tb-sm --workload "$w" --size tiny), functional $f" ;;
    esac
done

# A kernel that falls off its end: the implicit ret is a counted (ctrl) warp instruction in both.
k="--ptx $ptx --entry implicit_ret --grid 2 --block 64"
"$run" --functional $k --arg out:"$tmp/f.bin":512 --stats >"$tmp/f" 2>&1 || sed 's/^/# /' "$tmp/f"
f=$(frun_counts "$tmp/f")
for c in tb-sm tb-subcore tb-gpu; do
    check "$c: implicit ret at the end of a kernel" "$f" "$(tb_run "$c" $k --arg out:"$tmp/t.bin":512)"
done
exit $fail
