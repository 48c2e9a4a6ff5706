#!/bin/sh
# fuzz_ptx_short.sh — TAP: the PTX parser's fuzzer (kernels/fuzz/fuzz_ptx_parse) replays its kept
# corpus, then fuzzes for 20 seconds from a copy of it (tests/fuzz_short.sh).
. "${top_srcdir:-.}/tests/fuzz_short.sh"
fuzz_short kernels/fuzz/fuzz_ptx_parse kernels/fuzz/corpus kernels/fuzz/ptx.dict fuzz-ptx-artifacts 8192
