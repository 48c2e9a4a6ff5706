#!/bin/sh
# Every installed header (nobase_pkginclude_HEADERS, passed in by make as GPUSC_HEADERS) compiles
# on its own, as C with -Wall -Wextra -Werror, from a copy laid out as `make install` lays it out
# (<includedir>/gpusc/<path>) with nothing else of the tree on the include path: a header that
# needs a header we do not install, or config.h, or another header included before it, fails.
# Then tests/install/use_gpusc.c (the program `make installcheck` links against the installed
# library) compiles against that copy.
set -u
: "${top_srcdir:?}" "${GPUSC_HEADERS:?}" "${CC:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inc=$tmp/include/gpusc
n=0
for h in $GPUSC_HEADERS; do
    mkdir -p "$inc/$(dirname "$h")"
    cp "$top_srcdir/$h" "$inc/$h"
    n=$((n + 1))
done
echo "1..$((n + 2))"
# The copy must not be the tree by accident: no .c file, no config.h.
[ -e "$inc/config.h" ] && { echo "Bail out! config.h is installed"; exit 1; }
flags="-std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I$inc $GLIB_CFLAGS"
i=0
fail=0
for h in $GPUSC_HEADERS; do
    i=$((i + 1))
    printf '#include "%s"\n#include "%s"\n' "$h" "$h" >"$tmp/one.c"
    if out=$($CC $flags "$tmp/one.c" 2>&1); then
        echo "ok $i - $h compiles on its own (and twice)"
    else
        echo "not ok $i - $h compiles on its own"
        fail=1
        echo "$out" | sed 's/^/# /'
    fi
done
i=$((i + 1))
if out=$($CC $flags "$top_srcdir/tests/install/use_gpusc.c" 2>&1); then
    echo "ok $i - use_gpusc.c compiles against the installed headers only"
else
    echo "not ok $i - use_gpusc.c compiles against the installed headers only"
    fail=1
    echo "$out" | sed 's/^/# /'
fi
# The check can fail: a header that includes one we do not install is caught.
i=$((i + 1))
mkdir -p "$inc/bad"
printf '#include "models/not_installed.h"\n' >"$inc/bad/bad.h"
printf '#include "bad/bad.h"\n' >"$tmp/one.c"
if $CC $flags "$tmp/one.c" >/dev/null 2>&1; then
    echo "not ok $i - a header including a non-installed one is rejected"
    fail=1
else
    echo "ok $i - a header including a non-installed one is rejected"
fi
exit $fail
