#!/bin/sh
# Waveform output that streams (TAP): the VCD is written once, in order, never read back or patched,
# so it can go into a named pipe (the run ends, and what the reader got is byte for byte the file a
# run to a regular file writes); the .gtkw is written from the names the tracer registered (so it is
# complete even when the VCD went into a pipe); --wave-format fst writes an FST through GTKWave's
# vcd2fst (and no VCD), which fst2vcd reads back with as many time steps as the VCD has.
tb="$top_builddir/testbench/tb-sm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
fail=0
args="--workload vecadd --size tiny"
"$tb" $args --vcd "$tmp/reg.vcd" >/dev/null 2>&1
mkfifo "$tmp/pipe.vcd"
cat "$tmp/pipe.vcd" >"$tmp/piped" &
reader=$!
if timeout 120 "$tb" $args --vcd "$tmp/pipe.vcd" >"$tmp/out" 2>&1; then rc=0; else rc=$?; fi
wait $reader
if [ "$rc" = 0 ] && [ -s "$tmp/reg.vcd" ] && cmp -s "$tmp/piped" "$tmp/reg.vcd"; then
    echo "ok 1 - a VCD into a named pipe: the run ends and the reader gets the same bytes as a file"
else
    echo "not ok 1 - VCD into a pipe: status $rc, $(cmp "$tmp/piped" "$tmp/reg.vcd" 2>&1)"; tail -3 "$tmp/out" | sed 's/^/# /'; fail=1
fi
# the view beside the pipe lists what the view beside the file lists (every traced signal but the
# FIFO put slots no cycle used), all of them declared in the VCD
nvars=$(grep -c '^\$var' "$tmp/reg.vcd")
nview=$(grep -c '^tb\.' "$tmp/pipe.gtkw" 2>/dev/null)
if [ -n "$nview" ] && [ "$nview" -gt $((nvars / 4)) ] && [ "$nview" -le "$nvars" ] &&
    [ "$(grep '^tb\.' "$tmp/pipe.gtkw")" = "$(grep '^tb\.' "$tmp/reg.gtkw")" ]; then
    echo "ok 2 - the .gtkw beside the pipe lists the $nview signals the file's view lists ($nvars traced)"
else echo "not ok 2 - the .gtkw beside the pipe lists ${nview:-no} signals of $nvars"; fail=1; fi
if [ -n "$VCD2FST" ] && command -v "$VCD2FST" >/dev/null 2>&1; then
    fst2vcd="$(dirname "$(command -v "$VCD2FST")")/fst2vcd"
    [ -x "$fst2vcd" ] || fst2vcd=$(command -v fst2vcd)
    "$tb" $args --wave-format fst --vcd "$tmp/f.vcd" >"$tmp/out" 2>&1
    steps_vcd=$(grep -c '^#' "$tmp/reg.vcd")
    steps_fst=$("$fst2vcd" "$tmp/f.fst" 2>/dev/null | grep -c '^#')
    if [ -s "$tmp/f.fst" ] && [ ! -e "$tmp/f.vcd" ] && [ "$steps_fst" = "$steps_vcd" ] &&
        grep -q "^\\[dumpfile\\] \".*/f.fst\"" "$tmp/f.gtkw"; then
        echo "ok 3 - --wave-format fst: f.fst ($steps_fst time steps, as the VCD), no VCD, the view names it"
    else
        echo "not ok 3 - --wave-format fst: $steps_fst time steps in the FST, $steps_vcd in the VCD"; tail -3 "$tmp/out" | sed 's/^/# /'; fail=1
    fi
else
    echo "ok 3 # SKIP GTKWave's vcd2fst not found"
fi
exit $fail
