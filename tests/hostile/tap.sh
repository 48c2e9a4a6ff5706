# tap.sh — sourced by the tests of tests/hostile/: TAP helpers (beside tests/tap.sh's) and a scratch directory.
#   expect NAME WANT-STATUS PATTERN CMD...  the command exits WANT-STATUS (within a time limit) and
#                                           PATTERN (unless empty) is on its stderr; a crash (a signal) never passes
#   check NAME CONDITION...                 ok when the condition (a command) holds
# `timeout` ends a command that hangs (exit 124, which no expectation wants).
. "$top_srcdir/tests/tap.sh" # $tmp, n, fail
limit=${HOSTILE_TIMEOUT:-120}
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    n=$((n + 1))
    timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" = "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$tmp/err"; }; then
        echo "ok $n - $name (exit $st)"
    else
        echo "not ok $n - $name: exit $st (want $want and '$pat' on stderr), stderr:"
        sed 's/^/# /' "$tmp/err" | tail -n 5
        fail=1
    fi
}
check() {
    name=$1
    shift
    n=$((n + 1))
    if "$@"; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        fail=1
    fi
}
