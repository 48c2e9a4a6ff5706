#!/bin/sh
# Unit tests of gpusc-sweep and gpusc-plot (tests/tools/sweep_unit.py prints TAP).
exec python3 "$top_srcdir/tests/tools/sweep_unit.py"
