#!/bin/sh
# The SM-to-SM links on tb-gpu (TAP): with `--set gpu.sm_links=true` every workload (tiny, on 4 SMs:
# a 2 x 2 grid, every SM's link_port bound to the links block as on 15 SMs, at half the cost of a
# 15-SM run) still passes with statistics identical to the run without links, apart from the
# counters of the links block and of every SM's link_port, which stay zero (the baseline SM sends
# nothing on them) and the wall-clock speed; so does vecadd on 15 SMs (a 4 x 4 grid); also with
# sub-core SMs (preset subcore), bidirectional links and another grid width. --list-blocks and
# --describe show both blocks and their port arrays; the summary names the grid; the VCD holds the
# links' FIFOs and state; off by default.
tb="${top_builddir:-.}/testbench/tb-gpu"
if [ ! -x "$tb" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP needs $tb and python3"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusc-links.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/workloads.sh"
names=$(test_workloads "$tb")
nw=$(echo "$names" | wc -l)
echo "1..$((nw + 8))"
i=0
fail=0
ok() { i=$((i + 1)); echo "ok $i - $1"; }
nok() { i=$((i + 1)); fail=1; echo "not ok $i - $1"; [ -f "$tmp/why" ] && sed 's/^/# /' "$tmp/why" | tail -10; }

# same A.json B.json: the statistics of B equal A's except the sm_link instances (all counters 0)
# and cycles_per_second; prints what differs on failure.
same() {
    python3 - "$1" "$2" >"$tmp/why" 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
if a["cycles"] != b["cycles"]:
    bad.append("cycles %s != %s" % (a["cycles"], b["cycles"]))
links = [x for x in b["instances"] if x["type"] == "sm_link"]
if len(links) != 1:
    bad.append("%d sm_link instances with links on" % len(links))
ports = [x for x in b["instances"] if x["type"] == "link_port"]
sms = [x for x in b["instances"] if x["type"] in ("sm", "subcore_sm")]
if len(ports) != len(sms) or any(not p["path"].endswith(".link_port") for p in ports):
    bad.append("%d link_port instances for %d SMs" % (len(ports), len(sms)))
for x in links + ports:
    for k, v in x["stats"].items():
        if v["value"] != 0:
            bad.append("%s.%s = %s, not 0" % (x["path"], k, v["value"]))
if any(x["type"] in ("sm_link", "link_port") for x in a["instances"]):
    bad.append("an sm_link or link_port instance with links off")
ia = {x["path"]: x["stats"] for x in a["instances"]}
ib = {x["path"]: x["stats"] for x in b["instances"] if x["type"] not in ("sm_link", "link_port")}
if ia.keys() != ib.keys():
    bad.append("instances differ: %s" % sorted(set(ia) ^ set(ib)))
for p in ia.keys() & ib.keys():
    for k in ia[p].keys() | ib[p].keys():
        va, vb = ia[p].get(k, {}).get("value"), ib[p].get(k, {}).get("value")
        if va != vb:
            bad.append("%s.%s: %s != %s" % (p, k, va, vb))
for k in a["derived"].keys() | b["derived"].keys():
    if k.endswith("cycles_per_second"):
        continue
    va, vb = a["derived"].get(k), b["derived"].get(k)
    if va != vb:
        bad.append("%s: %s != %s" % (k, va, vb))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
}

# run NAME ARGS...: tb-gpu with ARGS writing $tmp/NAME.json and $tmp/NAME.out; returns its exit code
run() {
    n=$1
    shift
    "$tb" --no-trace --stats-json "$tmp/$n.json" "$@" >"$tmp/$n.out" 2>"$tmp/$n.err"
}

for w in $names; do
    run off --workload "$w" --size tiny --set gpu.sms=4
    rc_off=$?
    run on --workload "$w" --size tiny --set gpu.sms=4 --set gpu.sm_links=true
    rc_on=$?
    if [ $rc_off -ne 0 ] || [ $rc_on -ne 0 ]; then
        cat "$tmp/on.err" >"$tmp/why"
        nok "$w: exit $rc_off without links, $rc_on with"
    elif ! grep -q "^tb-gpu: .*: PASS" "$tmp/on.out"; then
        echo "no PASS line" >"$tmp/why"
        nok "$w: with links"
    elif same "$tmp/off.json" "$tmp/on.json"; then
        ok "$w: passes with sm_links=true, statistics identical ($(sed -n 's/^summary: [^:]*: \([0-9]*\) cycles.*/\1/p' "$tmp/on.out") cycles), links idle"
    else
        nok "$w: statistics differ with sm_links=true"
    fi
done

rm -f "$tmp/why"
set -- --workload histogram --size tiny --preset subcore --set gpu.sms=6
run off "$@" && run on "$@" --set gpu.sm_links=true --set sm_link.bidirectional=true --set sm_link.cols=3 &&
    same "$tmp/off.json" "$tmp/on.json" && grep -q '^links: 3 x 2 grid, 14 links; 0 messages' "$tmp/on.out"
if [ $? -eq 0 ]; then ok "sub-core SMs, 6 SMs as a bidirectional 3 x 2 grid: identical, 14 links"; else nok "sub-core, bidirectional 3 x 2"; fi

run off --workload vecadd --size tiny
run on --workload vecadd --size tiny --set gpu.sm_links=true
if ! grep -q '^links:' "$tmp/off.out" && grep -q '^links: 4 x 4 grid, 22 links; 0 messages' "$tmp/on.out" &&
    same "$tmp/off.json" "$tmp/on.json"; then
    ok "summary: no links line when off; 15 SMs as a 4 x 4 grid (last row of 3) with 22 links when on; statistics identical"
else nok "summary line"; fi

d=$("$tb" --dump-config --workload vecadd --size tiny --no-trace 2>/dev/null)
if echo "$d" | grep -q '^sm_links=false$' && ! echo "$d" | grep -q '^\[tb.gpu.links\]'; then
    ok "gpu.sm_links is false by default, and there is no links instance then"
else nok "gpu.sm_links default"; fi

if "$tb" --list-blocks | grep -q '^ *sm_link' && "$tb" --list-blocks | grep -q '^link_port: '; then
    ok "--list-blocks lists sm_link and link_port"
else nok "--list-blocks"; fi

desc=$("$tb" --describe sm_link 2>&1)
miss=""
for k in cols bidirectional latency bytes_per_cycle send_depth messages bytes busy_cycles stalls stall_cycles \
    utilisation in_flight waiting out_e%u out_s%u out_w%u out_n%u in_e%u in_s%u in_w%u in_n%u; do
    echo "$desc" | grep -q "^  $k\( \|$\)" || miss="$miss $k"
done
if [ -z "$miss" ]; then ok "--describe sm_link: port arrays, parameters, statistics, traced state"; else nok "--describe sm_link lacks:$miss"; fi

desc=$("$tb" --describe link_port 2>&1)
miss=""
for k in out_%u in_%u send recv recv_depth sent sent_bytes received received_bytes; do
    echo "$desc" | grep -q "^  $k\( \|$\)" || miss="$miss $k"
done
echo "$desc" | grep -q 'Interface: exports link_send' || miss="$miss link_send"
echo "$desc" | grep -q 'Interface: imports link_recv (any number' || miss="$miss link_recv"
if [ -z "$miss" ]; then ok "--describe link_port: port arrays, send export, recv import, parameter, statistics"
else nok "--describe link_port lacks:$miss"; fi

# the SM side is bound through the blocks' ports: every SM's link_port in the dump, recv_depth from it
d=$("$tb" --dump-config --workload vecadd --size tiny --set gpu.sm_links=true --set gpu.sms=4 \
    --set tb.gpu.sm2.link_port.recv_depth=2 2>/dev/null)
if [ "$(echo "$d" | grep -c '^\[tb.gpu.sm[0-3].link_port\]$')" = 4 ] &&
    echo "$d" | awk '/^\[/ { s = $0 } s == "[tb.gpu.sm2.link_port]" && /^recv_depth=2$/ { f = 1 } END { exit !f }'; then
    ok "a link_port per SM (tb.gpu.sm<i>.link_port), configurable per instance"
else nok "link_port instances in --dump-config"; fi

"$tb" --workload vecadd --size tiny --set gpu.sm_links=true --set gpu.sms=4 --trace='tb.gpu.links*,tb.gpu.link_*' \
    --vcd "$tmp/l.vcd" >"$tmp/t.out" 2>"$tmp/why"
if [ $? -eq 0 ] && grep -q ' in_flight ' "$tmp/l.vcd" && grep -q ' waiting ' "$tmp/l.vcd" &&
    grep -q ' link_out_e3 ' "$tmp/l.vcd" && grep -q ' link_in_n3 ' "$tmp/l.vcd"; then
    ok "VCD: the links' traced state and FIFOs"
else nok "VCD of the links"; fi
exit $fail
