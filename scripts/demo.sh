#!/bin/sh
# The main job: install dependencies, build, and run the default testbench on the built-in default
# configuration. It checks the output against its reference, writes waveforms/<tb>.vcd and .gtkw and
# prints statistics.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/install-deps.sh
sh scripts/build.sh
mkdir -p waveforms
# tb-sm: one GTX480-like SM running hotspot (shared memory, barriers, a stencil) at the tiny size.
exec build/testbench/tb-sm --workload hotspot --size tiny "$@"
