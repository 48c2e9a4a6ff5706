#!/bin/sh
# Configure and build gpusc in a build directory (default: build/). Extra arguments go to configure.
#   scripts/build.sh                    -> build/
#   BUILD=build-san scripts/build.sh --enable-sanitizers
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
    autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
mkdir -p "$BUILD"
cd "$BUILD"
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ]; then
    "$top/configure" -q "$@"
fi
make -s -j"$(nproc)"
