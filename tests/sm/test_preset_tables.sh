#!/bin/sh
# Presets against the spec tables they cite (TAP): each preset's effective configuration
# (`--dump-config`, every instance and parameter after presets and defaults) must hold the values its
# source table states. One TAP line per preset and testbench; a mismatch names the parameter, the
# value found and the value the table gives. Derived figures (cache bytes = sets x ways x line) are
# computed from the dumped parameters. The machines being compared: docs/baseline-design.md.
set -u
bld=${top_builddir:-.}
python3 - "$bld" <<'PY'
import subprocess, sys

bld = sys.argv[1]

def dump(tb, preset):
    p = subprocess.run(["%s/testbench/%s" % (bld, tb), "--preset", preset, "--dump-config"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    cfg, sec = {}, None
    for line in p.stdout.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            sec = line[1:-1]
        else:
            k, _, v = line.partition("=")
            cfg["%s.%s" % (sec, k)] = v
    return cfg, None

def num(cfg, key):
    return int(cfg[key])

# (what the table says, a function of the dumped configuration giving the model's value, expected)
SM, GPU = "tb.gpu.sm0", "tb.gpu"
def l1_bytes(p):
    return lambda c: num(c, p + ".ldst.l1_sets") * num(c, p + ".ldst.l1_ways") * num(c, p + ".ldst.l1_line")
def key(k):
    return lambda c: c[k]
def l2_total(c):
    return (num(c, GPU + ".l2_0.sets") * num(c, GPU + ".l2_0.ways") * num(c, GPU + ".l2_0.line_bytes")
            * num(c, GPU + ".mem_channels") * num(c, GPU + ".sub_partitions"))
GDDR3 = [("DRAM scheduler FR-FCFS", key(GPU + ".dram0.scheduler"), "frfcfs")] + [
    ("GDDR3 %s=%s" % (t, v), key(GPU + ".dram0." + t), v)
    for t, v in (("tRRD", "6"), ("tWR", "12"), ("tRCD", "12"), ("tRAS", "28"), ("tRP", "12"), ("tRC", "40"),
                 ("tCDLR", "5"), ("tCL", "12"))]

TABLES = [
    # resource sharing spec §13.1, Table 2.3
    ("rs-table2.3", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("max 8 TBs per SM", key(SM + ".ctas"), "8"),
        ("max 1536 threads per SM", key(SM + ".threads"), "1536"),
        ("32768 registers per SM", key(SM + ".registers"), "32768"),
        ("48 KB scratchpad (register-sharing runs)", key(SM + ".smem_bytes"), "49152"),
        ("LRR warp scheduling", key(SM + ".arbiter0.policy"), "lrr"),
        ("LRR warp scheduling (second scheduler)", key(SM + ".arbiter1.policy"), "lrr"),
        ("16 KB L1 per SM", l1_bytes(SM), 16384),
    ] + GDDR3),
    ("rs-table2.3-16k", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("max 8 TBs per SM", key(SM + ".ctas"), "8"),
        ("max 1536 threads per SM", key(SM + ".threads"), "1536"),
        ("32768 registers per SM", key(SM + ".registers"), "32768"),
        ("16 KB scratchpad (scratchpad-sharing runs)", key(SM + ".smem_bytes"), "16384"),
        ("LRR warp scheduling", key(SM + ".arbiter0.policy"), "lrr"),
        ("16 KB L1 per SM", l1_bytes(SM), 16384),
    ] + GDDR3),
    # §13.2, Table 3.2
    ("rs-table3.2", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("16 KB scratchpad", key(SM + ".smem_bytes"), "16384"),
        ("65536 registers", key(SM + ".registers"), "65536"),
        ("max 16 TBs", key(SM + ".ctas"), "16"),
        ("max 3072 threads", key(SM + ".threads"), "3072"),
        ("LRR", key(SM + ".arbiter0.policy"), "lrr"),
        ("16 KB L1", l1_bytes(SM), 16384),
        ("DRAM scheduler FR-FCFS", key(GPU + ".dram0.scheduler"), "frfcfs"),
    ]),
    # §13.3, Table 3.6 configs #1 and #2
    ("rs-table3.6-1", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("48 KB scratchpad", key(SM + ".smem_bytes"), "49152"),
        ("max 16 TBs", key(SM + ".ctas"), "16"),
        ("max 2048 threads", key(SM + ".threads"), "2048"),
    ]),
    ("rs-table3.6-2", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("64 KB scratchpad", key(SM + ".smem_bytes"), "65536"),
        ("max 32 TBs", key(SM + ".ctas"), "32"),
        ("max 2048 threads", key(SM + ".threads"), "2048"),
    ]),
    # CCWS/DAWS/VWS spec §2.4, Table 6.1 (the single-SM machine)
    ("vws", "tb-gpu", [
        ("1 SM", key(GPU + ".sms"), "1"),
        ("SIMD pipeline width 32", key(SM + ".units.simd_width"), "32"),
        ("48 KB shared memory", key(SM + ".smem_bytes"), "49152"),
        ("L1D 64 KB", l1_bytes(SM), 65536),
        ("L1D 128 B line", key(SM + ".ldst.l1_line"), "128"),
        ("L1D 8-way", key(SM + ".ldst.l1_ways"), "8"),
        ("L2 128 KB in total", l2_total, 131072),
        ("L2 128 B line", key(GPU + ".l2_0.line_bytes"), "128"),
        ("L2 8-way", key(GPU + ".l2_0.ways"), "8"),
        ("DRAM 32 B per core cycle", key(GPU + ".dram0.bytes_per_cycle"), "32"),
        ("GTO issue", key(SM + ".arbiter0.policy"), "gto"),
        ("ALU latency 10", key(SM + ".units.sp_latency"), "10"),
        ("1024 threads per SM", key(SM + ".threads"), "1024"),
        ("L1 I-cache 64 KB", lambda c: num(c, SM + ".fetch.icache_sets") * num(c, SM + ".fetch.icache_ways")
         * num(c, SM + ".fetch.icache_line"), 65536),
    ]),
    ("vws", "tb-sm", [
        ("L1D 64 KB", l1_bytes("tb.sm0"), 65536),
        ("DRAM 32 B per core cycle", key("tb.mem.bytes_per_cycle"), "32"),
        ("GTO issue", key("tb.sm0.arbiter0.policy"), "gto"),
        ("1024 threads per SM", key("tb.sm0.threads"), "1024"),
    ]),
]

n, failed = 0, 0
print("1..%d" % len(TABLES))
for preset, tb, rows in TABLES:
    n += 1
    cfg, err = dump(tb, preset)
    if cfg is None:
        print("not ok %d - %s on %s: --dump-config failed: %s" % (n, preset, tb, err))
        failed += 1
        continue
    bad = []
    for what, get, want in rows:
        try:
            got = get(cfg)
        except KeyError as e:
            bad.append("%s: no parameter %s in the dump" % (what, e))
            continue
        if got != want:
            bad.append("%s: the model has %s, the table %s" % (what, got, want))
    if bad:
        failed += 1
        print("not ok %d - %s on %s matches its table (%d of %d rows differ)" % (n, preset, tb, len(bad), len(rows)))
        for b in bad:
            print("# " + b)
    else:
        print("ok %d - %s on %s matches its table (%d rows)" % (n, preset, tb, len(rows)))
sys.exit(1 if failed else 0)
PY
