# tap.sh — sourced by shell tests (they run with top_srcdir set): the TAP helpers and a scratch
# directory, removed when the test exits.
#   $tmp      the scratch directory
#   ok NAME   prints "ok N - NAME"
#   no NAME   prints "not ok N - NAME" and makes the test fail (fail=1)
# The test prints its plan ("1..N") and ends with `exit $fail`.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() {
    n=$((n + 1))
    echo "ok $n - $1"
}
no() {
    n=$((n + 1))
    echo "not ok $n - $1"
    fail=1
}
