# fuzz_short.sh — sourced by the fuzzers' short tests: fuzz_short FUZZER CORPUS DICT ARTIFACTS MAX_LEN
# prints TAP: the kept corpus (regression inputs included) replays without failure, then 20 seconds of
# fuzzing from a copy of it find no crash, hang or bad error. FUZZER is under $top_builddir, CORPUS
# and DICT under $top_srcdir; crash inputs are left in $top_builddir/ARTIFACTS/. Skipped when the
# fuzzer was not built (configure found no clang).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
fuzz_short() {
    fuzzer="$top_builddir/$1" corpus="$top_srcdir/$2" dict="$top_srcdir/$3" artifacts="$top_builddir/$4"
    max_len=$5
    echo "1..2"
    if [ ! -x "$fuzzer" ]; then
        echo "ok 1 # SKIP fuzzer not built (needs clang)"
        echo "ok 2 # SKIP fuzzer not built (needs clang)"
        exit 0
    fi
    work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-short.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT INT TERM
    mkdir -p "$work/corpus" "$artifacts"
    cp "$corpus"/* "$work/corpus/"
    # The fuzzer's own sanitizer options, not the test harness' (which disables leak detection).
    ASAN_OPTIONS=abort_on_error=0
    export ASAN_OPTIONS

    fail=0
    "$fuzzer" -runs=0 -rss_limit_mb=1024 -timeout=5 "$work/corpus" >"$work/replay.log" 2>&1
    fuzz_report "1 - the kept corpus replays without failure" $? "$work/replay.log"

    "$fuzzer" -max_total_time=20 -rss_limit_mb=1024 -timeout=5 -max_len="$max_len" -dict="$dict" \
        -artifact_prefix="$artifacts/" "$work/corpus" >"$work/fuzz.log" 2>&1
    rc=$?
    grep -E '^#[0-9]+ +DONE' "$work/fuzz.log" | sed 's/^/# /'
    fuzz_report "2 - 20 seconds of fuzzing find no crash, hang or bad error" $rc "$work/fuzz.log"
    exit $fail
}
fuzz_report() { # name rc log
    if [ "$2" -eq 0 ]; then
        echo "ok $1"
    else
        echo "not ok $1 (exit $2)"
        fail=1
        tail -n 40 "$3" | sed 's/^/# /'
    fi
}
