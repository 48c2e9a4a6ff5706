#!/bin/sh
# Every built-in preset builds a machine that runs a workload correctly (TAP): the monolithic-SM
# presets on tb-sm, the sub-core ones on tb-subcore (hotspot, tiny: shared memory, barriers). Then a
# few effective values of each preset, read from --dump-config (the instance, the key, the value the
# preset's source gives: models/presets.c).
n=0
fail=0
presets="gtx480 rs-table2.3 rs-table3.2 rs-table3.6-1 rs-table3.6-2 greener ccws vws renaming spu-gpu spu subcore malekeh"
tb_of() {
    case $1 in subcore | malekeh) echo tb-subcore ;; *) echo tb-sm ;; esac
}
# preset instance key expected
values="gtx480 tb.sm0.issue schedulers 2
gtx480 tb period_ps 1429
rs-table2.3 tb.sm0.arbiter0 policy lrr
rs-table2.3 tb.sm0.arbiter1 policy lrr
rs-table2.3 tb.sm0 smem_bytes 49152
rs-table3.2 tb.sm0 ctas 16
rs-table3.6-1 tb.sm0 ctas 16
rs-table3.6-1 tb.sm0 threads 2048
rs-table3.6-1 tb.sm0 smem_bytes 49152
rs-table3.6-2 tb.sm0 ctas 32
rs-table3.6-2 tb.sm0 smem_bytes 65536
greener tb.sm0.issue schedulers 4
greener tb.sm0.regfile banks 32
greener tb.sm0 warps 64
greener tb period_ps 1366
ccws tb.sm0.units simd_width 8
ccws tb.sm0.ldst const_sets 64
ccws tb.sm0.ldst l1_ways 8
ccws tb period_ps 769
vws tb.sm0.fetch icache_sets 128
vws tb.sm0.units sp_latency 10
renaming tb.sm0.arbiter0 policy two_level_active:6:0:1
renaming tb.sm0.arbiter1 policy two_level_active:6:0:1
spu tb.sm0.ldst l1_enabled false
malekeh tb period_ps 733
malekeh tb.sm0 partitions 4
malekeh tb.sm0.regfile3 banks 2"
echo "1..$(($(echo $presets | wc -w) + $(echo "$values" | wc -l)))"
for p in $presets; do
    n=$((n + 1))
    tb=$(tb_of $p)
    out=$("$top_builddir/testbench/$tb" --preset "$p" --workload hotspot --size tiny --no-trace 2>&1)
    if echo "$out" | grep -q "^$tb: hotspot: PASS"; then
        echo "ok $n - $tb --preset $p"
    else
        echo "not ok $n - $tb --preset $p"; echo "$out" | tail -3 | sed 's/^/# /'; fail=1
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "$values" > "$tmp/values"
while read -r p inst key want; do
    n=$((n + 1))
    tb=$(tb_of $p)
    "$top_builddir/testbench/$tb" --preset "$p" --workload hotspot --size tiny --dump-config >"$tmp/dump" 2>&1
    got=$(awk -v s="[$inst]" -v k="$key" '/^\[/ { in_s = ($0 == s) } in_s && index($0, k "=") == 1 { print substr($0, length(k) + 2) }' "$tmp/dump")
    if [ "$got" = "$want" ]; then
        echo "ok $n - $p: $inst.$key = $want"
    else
        echo "not ok $n - $p: $inst.$key: expected $want, got '$got'"; fail=1
    fi
done <"$tmp/values"
exit $fail
