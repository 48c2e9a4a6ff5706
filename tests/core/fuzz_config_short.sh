#!/bin/sh
# fuzz_config_short.sh — TAP: the configuration loader's fuzzer (models/core/fuzz/fuzz_config)
# replays its kept corpus, then fuzzes for 20 seconds from a copy of it (tests/fuzz_short.sh).
. "${top_srcdir:-.}/tests/fuzz_short.sh"
fuzz_short models/core/fuzz/fuzz_config models/core/fuzz/corpus models/core/fuzz/ini.dict fuzz-config-artifacts 4096
