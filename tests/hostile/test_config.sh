#!/bin/sh
# Configuration files as editors and careless hands leave them (TAP): a NUL byte is an error at its
# line, not the silent end of the file; a UTF-8 byte order mark is not part of line 1; a dumped
# configuration whose values hold newlines, backslashes or a leading space loads back unchanged.
. "$top_srcdir/tests/hostile/tap.sh"
sm="$top_builddir/testbench/tb-sm"
echo "1..5"
printf '[issue]\nschedulers=1\n\000\n[issue]\nnosuch=1\n' >"$tmp/nul.ini"
expect "a NUL byte in an INI file" 1 "nul.ini:3: .*NUL byte" "$sm" --no-trace --config "$tmp/nul.ini" --dump-config
printf '\357\273\277[issue]\nschedulers=1\n' >"$tmp/bom.ini"
expect "a UTF-8 byte order mark before [issue]" 0 "" "$sm" --no-trace --config "$tmp/bom.ini" --dump-config
check "the BOM file's value is used" grep -q "^# .*bom.ini:2" "$tmp/out"
value=' a
b\c	d'
expect "--dump-config of a value with a newline" 0 "" "$sm" --no-trace --set "issue.log=$value" --dump-config
cp "$tmp/out" "$tmp/dump.ini"
"$sm" --no-trace --config "$tmp/dump.ini" --dump-config >"$tmp/dump2.ini" 2>"$tmp/err"
grep -v '^#' "$tmp/dump.ini" >"$tmp/a"
grep -v '^#' "$tmp/dump2.ini" >"$tmp/b"
check "the dump loads back to the same configuration" cmp -s "$tmp/a" "$tmp/b"
exit $fail
