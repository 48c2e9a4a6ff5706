# trace_check.sh — sourced by the trace check tests (docs/sc-api.md, "VCD tracing"): runs testbenches
# fully traced in the trace check mode (GPUSC_TRACE_CHECK=1: every traced variable no activation,
# arrival hook or declared call marked is compared too, and a change there stops the run naming it).
#   trace_check_runs FILE   FILE holds the runs, one a line: PROGRAM ARGUMENTS... (split on blanks, not
#                           globbed; '#' lines and blank lines skipped). Prints the TAP plan and, per
#                           run, ok when it exits 0, prints no trace check error and writes a VCD
#                           (waveforms/PROGRAM.vcd in a directory of its own), else not ok with the
#                           run's first error lines. Sets fail=1 on a failure.
# Needs bld (the build directory) and tmp (a scratch directory).
trace_check_runs() {
    tc_n=$(grep -cv '^[[:space:]]*\(#\|$\)' "$1")
    echo "1..$tc_n"
    tc_i=0
    set -f
    while read -r tc_prog tc_args; do
        case "$tc_prog" in '' | '#'*) continue ;; esac
        tc_i=$((tc_i + 1))
        tc_dir="$tmp/run$tc_i"
        mkdir -p "$tc_dir"
        # shellcheck disable=SC2086
        if (cd "$tc_dir" && GPUSC_TRACE_CHECK=1 "$bld/testbench/$tc_prog" $tc_args >out.txt 2>&1 </dev/null) &&
            ! grep -q "trace check" "$tc_dir/out.txt" && [ -s "$tc_dir/waveforms/$tc_prog.vcd" ]; then
            echo "ok $tc_i - $tc_prog $tc_args: every traced change was marked"
        else
            fail=1
            echo "not ok $tc_i - $tc_prog $tc_args"
            grep "gpusc:" "$tc_dir/out.txt" | head -3 | sed 's/^/# /'
        fi
        rm -rf "$tc_dir"
    done <"$1"
    set +f
}
