#!/bin/sh
# tb-gpu writes its waveform (TAP): the VCD and the .gtkw beside it, with the memory blocks' traced
# state selected by --trace, and the state moves during the run (requests in the interconnect, an
# L2 slice's ROP queue and MSHRs, a DRAM channel's bus). GTKWave's vcd2fst converts it and fst2vcd
# reads it back (a TAP skip when GTKWave is not installed).
tb="${top_builddir:-.}/testbench/tb-gpu"
if [ ! -x "$tb" ]; then
    echo "1..0 # SKIP $tb is not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-wave.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..9"
i=0
fail=0
check() { i=$((i + 1)); if eval "$2"; then echo "ok $i - $1"; else echo "not ok $i - $1"; fail=1; fi; }
"$tb" --workload vecadd --size tiny --trace 'tb.gpu.l2_0,tb.gpu.icnt,tb.gpu.dram0' --vcd "$tmp/w.vcd" >"$tmp/out" 2>&1
check "tb-gpu runs with tracing" "[ $? -eq 0 ] && grep -q '^tb-gpu: vecadd: PASS' '$tmp/out'"
check "VCD and .gtkw written" "[ -s '$tmp/w.vcd' ] && [ -s '$tmp/w.gtkw' ]"
check ".gtkw names the memory blocks' signals" \
    "grep -q '^tb.gpu.icnt.req_in_flight' '$tmp/w.gtkw' && grep -q '^tb.gpu.l2_0.mshr_used' '$tmp/w.gtkw' && grep -q '^tb.gpu.dram0.busy' '$tmp/w.gtkw'"
# Did a signal ever take a nonzero value? (its VCD identifier, then a value change b<bits> id / 1id)
moved() {
    id=$(awk -v n="$1" '$1 == "$var" && $5 == n { print $4; exit }' "$tmp/w.vcd")
    [ -n "$id" ] && awk -v id="$id" '($1 ~ /^b/ && $2 == id && $1 ~ /1/) || ($0 == "1" id) { f = 1 } END { exit !f }' "$tmp/w.vcd"
}
check "icnt.req_in_flight moves" "moved req_in_flight"
check "l2_0.rop_occupancy moves" "moved rop_occupancy"
check "l2_0.mshr_used moves" "moved mshr_used"
check "dram0.busy rises" "moved busy"
# The busy flag is high exactly in the cycles the data bus transfers: the channel wakes at the end of
# a transfer to drop it while it is traced (and sleeps through that cycle otherwise). On the core clock
# (gpu.dram_period_ps=0) the cycles it is high add up to dram0.busy_cycles.
"$tb" --workload spmv --size tiny --set gpu.dram_period_ps=0 --trace 'tb.gpu.dram0' --vcd "$tmp/b.vcd" \
    >"$tmp/b.out" 2>&1
high=$(awk '$1 == "$var" && $5 == "busy" { id = $4 }
    /^#/ { t = substr($0, 2) + 0; if (last != "" && t > last && (p == 0 || t - last < p)) p = t - last; last = t; next }
    id != "" && $0 == "1" id && !hi { hi = 1; rise = t }
    id != "" && $0 == "0" id && hi { hi = 0; sum += t - rise }
    END { if (p && !hi) printf "%d", sum / p }' "$tmp/b.vcd")
busy=$(awk '$1 == "tb.gpu.dram0.busy_cycles" { print $2 }' "$tmp/b.out")
check "dram0.busy is high in the busy_cycles cycles only ($high of $busy)" "[ -n '$busy' ] && [ '$busy' -gt 0 ] && [ '$high' = '$busy' ]"
# GTKWave's converter takes the file, and the FST reads back with the memory blocks' scopes (vcd2fst
# exits 0 even on garbage, hence fst2vcd, from the same GTKWave).
if [ -n "$VCD2FST" ] && command -v "$VCD2FST" >/dev/null 2>&1; then
    fst2vcd="$(dirname "$(command -v "$VCD2FST")")/fst2vcd"
    [ -x "$fst2vcd" ] || fst2vcd=$(command -v fst2vcd)
    check "vcd2fst converts the VCD and fst2vcd reads it back" \
        "'$VCD2FST' '$tmp/w.vcd' '$tmp/w.fst' >/dev/null 2>&1 && [ -s '$tmp/w.fst' ] && [ -n '$fst2vcd' ] &&
         '$fst2vcd' '$tmp/w.fst' 2>/dev/null | grep -q 'scope module icnt'"
else
    i=$((i + 1)); echo "ok $i # SKIP vcd2fst (GTKWave) not found"
fi
exit $fail
