#!/bin/sh
# Configuration files as editors and careless hands leave them (TAP): a NUL byte is an error at its
# line, not the silent end of the file; a UTF-8 byte order mark is not part of line 1; a dumped
# configuration whose values hold newlines, backslashes or a leading space loads back unchanged; a
# huge bad value (10 MB in a file, 100 kB on the command line) is quoted by an excerpt, not echoed whole;
# a key given twice in a section is a warning naming both lines (the last value is used).
. "$top_srcdir/tests/hostile/tap.sh"
sm="$(cd "$top_builddir" && pwd)/testbench/tb-sm" # absolute: the test changes directory
echo "1..11"
printf '[issue]\nschedulers=1\n\000\n[issue]\nnosuch=1\n' >"$tmp/nul.ini"
expect "a NUL byte in an INI file" 1 "nul.ini:3: .*NUL byte" "$sm" --no-trace --config "$tmp/nul.ini" --dump-config
printf '\357\273\277[issue]\nschedulers=1\n' >"$tmp/bom.ini"
expect "a UTF-8 byte order mark before [issue]" 0 "" "$sm" --no-trace --config "$tmp/bom.ini" --dump-config
check "the BOM file's value is used" grep -q "^# .*bom.ini:2" "$tmp/out"
value=' a
b\c	d'
cd "$tmp" || exit 1 # the issue log is opened (created) even for --dump-config: keep it in $tmp
expect "--dump-config of a value with a newline" 0 "" "$sm" --no-trace --set "issue.log=$value" --dump-config
cp "$tmp/out" "$tmp/dump.ini"
"$sm" --no-trace --config "$tmp/dump.ini" --dump-config >"$tmp/dump2.ini" 2>"$tmp/err"
cd / || exit 1
grep -v '^#' "$tmp/dump.ini" >"$tmp/a"
grep -v '^#' "$tmp/dump2.ini" >"$tmp/b"
check "the dump loads back to the same configuration" cmp -s "$tmp/a" "$tmp/b"
head -c 10000000 /dev/zero | tr '\0' 7 >"$tmp/v"
printf '[fetch]\nicache_line=%s\n' "$(cat "$tmp/v")" >"$tmp/big.ini"
expect "a 10 MB bad value in an INI file" 1 "big.ini:2: \[fetch\] icache_line: .*777\.\.\. (10000000 bytes)" \
    "$sm" --no-trace --config "$tmp/big.ini" --dump-config
check "... and the message is short" [ "$(wc -c <"$tmp/err")" -lt 1000 ]
expect "a 100 kB bad value with --set" 1 "expected an unsigned integer, got 'xx*\.\.\. (100000 bytes)'" \
    "$sm" --no-trace --dump-config --set "fetch.icache_line=$(head -c 100000 /dev/zero | tr '\0' x)"
check "... and the message is short" [ "$(wc -c <"$tmp/err")" -lt 1000 ]
printf '[issue]\nschedulers=1\n\n[arbiter]\npolicy=lrr\n[issue]\n  schedulers = 2\n' >"$tmp/dup.ini"
expect "a key given twice" 0 "warning: .*dup.ini:7: \[issue\] schedulers is given again (first at line 2); the last value is used" \
    "$sm" --no-trace --config "$tmp/dup.ini" --dump-config
check "... and the last value is used" sh -c "grep -A1 '^# .*dup.ini:7\$' '$tmp/out' | grep -q '^schedulers=2\$'"
exit $fail
