#!/bin/sh
# fuzz_ptx_short.sh — TAP: replay the kept corpus of the PTX parser fuzzer (regression inputs
# included), then fuzz for 20 seconds from a copy of it. Skipped when the fuzzer was not built
# (configure found no clang). Crash inputs are left in $top_builddir/fuzz-ptx-artifacts/.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
fuzzer="$top_builddir/kernels/fuzz/fuzz_ptx_parse"
corpus="$top_srcdir/kernels/fuzz/corpus"
dict="$top_srcdir/kernels/fuzz/ptx.dict"
echo "1..2"
if [ ! -x "$fuzzer" ]; then
    echo "ok 1 # SKIP fuzzer not built (needs clang)"
    echo "ok 2 # SKIP fuzzer not built (needs clang)"
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-ptx.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/corpus" "$top_builddir/fuzz-ptx-artifacts"
cp "$corpus"/* "$work/corpus/"
# The fuzzer's own sanitizer options, not the test harness' (which disables leak detection).
ASAN_OPTIONS=abort_on_error=0
export ASAN_OPTIONS

fail=0
report() { # name rc log
    if [ "$2" -eq 0 ]; then
        echo "ok $1"
    else
        echo "not ok $1 (exit $2)"
        fail=1
        tail -n 40 "$3" | sed 's/^/# /'
    fi
}

"$fuzzer" -runs=0 -rss_limit_mb=1024 -timeout=5 "$work/corpus" > "$work/replay.log" 2>&1
report "1 - the kept corpus replays without failure" $? "$work/replay.log"

"$fuzzer" -max_total_time=20 -rss_limit_mb=1024 -timeout=5 -max_len=8192 -dict="$dict" \
    -artifact_prefix="$top_builddir/fuzz-ptx-artifacts/" "$work/corpus" > "$work/fuzz.log" 2>&1
rc=$?
grep -E '^#[0-9]+ +DONE' "$work/fuzz.log" | sed 's/^/# /'
report "2 - 20 seconds of fuzzing find no crash, hang or bad error" $rc "$work/fuzz.log"
exit $fail
