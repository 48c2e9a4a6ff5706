# check_modes.sh — sourced after tests/tap.sh by the tests that run a testbench in the check modes of
# sc/ (docs/sc-api.md, "Check modes").
#   check_modes TB 'NAME|ARGS|WORKLOADS'
# runs bench/stats-diff of the build against itself on testbench TB with ARGS (its own options) and
# --modes awake,shuffle, on the comma-separated WORKLOADS (empty: every workload): one TAP line, ok
# when every statistic of every run equals the normal run's, else the differences as comments.
check_modes() {
    cm_name=${2%%|*}
    cm_rest=${2#*|}
    cm_args=${cm_rest%%|*}
    cm_wl=${cm_rest#*|}
    if python3 "$top_srcdir/bench/stats-diff" "$top_builddir" "$top_builddir" --testbenches "$1" \
        --args "$cm_args" ${cm_wl:+--workloads "$cm_wl"} --modes awake,shuffle > "$tmp/out" 2>&1; then
        ok "$1 $cm_name ($cm_args): identical under --check=awake and --check=shuffle"
    else
        no "$1 $cm_name ($cm_args) in the check modes"; grep -v '^same ' "$tmp/out" | sed 's/^/# /'
    fi
}
