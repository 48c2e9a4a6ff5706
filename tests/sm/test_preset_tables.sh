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

# The GTX480's memory side (GPGPU-Sim configs/GTX480): gpgpu_clock_domains ...:924 with the DRAM a
# clock domain of its own, its bandwidth and latency in its 924 MHz cycles, gpgpu_dram_timing_opt's
# GDDR timing in DRAM command cycles. The presets whose source takes the GTX480's memory side (no
# memory clock or DRAM timing of their own; the resource-sharing spec's Table 2.3 GDDR3 timing is the
# same) are checked against these rows too.
def gtx480_mem(gpu):
    return [
        ("interconnect clock 700 MHz: the core clock", key(gpu + ".icnt_period_ps"), "0"),
        ("L2 clock 700 MHz: the core clock", key(gpu + ".l2_period_ps"), "0"),
        ("DRAM clock 924 MHz: a clock domain of 1082 ps", key(gpu + ".dram_period_ps"), "1082"),
        ("DRAM 2 chips x 4 B x QDR = 32 B per DRAM cycle", key(gpu + ".dram0.bytes_per_cycle"), "32"),
        ("dram_latency 100 core cycles = 132 DRAM cycles", key(gpu + ".dram0.latency"), "132"),
        ("DRAM queue 16", key(gpu + ".dram0.queue_depth"), "16"),
    ] + [("GDDR %s=%s DRAM cycles" % (t, v), key(gpu + ".dram0." + t), v)
         for t, v in (("tRRD", "6"), ("tWR", "12"), ("tRCD", "12"), ("tRAS", "28"), ("tRP", "12"),
                      ("tRC", "40"), ("tCDLR", "5"), ("tCL", "12"))]
GTX480_MEM = gtx480_mem(GPU)

TABLES = [
    # GPGPU-Sim configs/GTX480/gpgpusim.config (the default machine): gpgpu_clock_domains
    # 700:700:700:924 as clocks, the DRAM's bandwidth and latency in its own 924 MHz cycles
    ("gtx480", "tb-gpu", [
        ("15 SMs", key(GPU + ".sms"), "15"),
        ("6 memory channels", key(GPU + ".mem_channels"), "6"),
        ("2 schedulers", key(SM + ".issue.schedulers"), "2"),
        ("GTO", key(SM + ".arbiter0.policy"), "gto"),
        ("core clock 700 MHz (1429 ps)", key("tb.period_ps"), "1429"),
    ] + GTX480_MEM),
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
    ] + GDDR3 + GTX480_MEM),
    ("rs-table2.3-16k", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("max 8 TBs per SM", key(SM + ".ctas"), "8"),
        ("max 1536 threads per SM", key(SM + ".threads"), "1536"),
        ("32768 registers per SM", key(SM + ".registers"), "32768"),
        ("16 KB scratchpad (scratchpad-sharing runs)", key(SM + ".smem_bytes"), "16384"),
        ("LRR warp scheduling", key(SM + ".arbiter0.policy"), "lrr"),
        ("16 KB L1 per SM", l1_bytes(SM), 16384),
    ] + GDDR3 + GTX480_MEM),
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
    ] + GTX480_MEM),
    # §13.3, Table 3.6 configs #1 and #2
    ("rs-table3.6-1", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("48 KB scratchpad", key(SM + ".smem_bytes"), "49152"),
        ("max 16 TBs", key(SM + ".ctas"), "16"),
        ("max 2048 threads", key(SM + ".threads"), "2048"),
    ] + GTX480_MEM),
    ("rs-table3.6-2", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("64 KB scratchpad", key(SM + ".smem_bytes"), "65536"),
        ("max 32 TBs", key(SM + ".ctas"), "32"),
        ("max 2048 threads", key(SM + ".threads"), "2048"),
    ] + GTX480_MEM),
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
    # CCWS/DAWS/VWS spec §2.2, Table 3.1 (CCWS/DAWS): SIMD width 8 is 8 lanes per cycle in all, the
    # clocks are clock domains (core [tb], interconnect and memory [gpu]), FR-FCFS GDDR3 in memory cycles
    ("ccws", "tb-gpu", [
        ("30 SMs", key(GPU + ".sms"), "30"),
        ("SIMD pipeline width 8", key(SM + ".units.simd_width"), "8"),
        ("SIMD width 8: 8 SP lanes per cycle in total (SP pipes x lanes)",
         lambda c: num(c, SM + ".units.sp_units") * num(c, SM + ".units.simd_width"), 8),
        ("1 scheduler (selects one)", key(SM + ".issue.schedulers"), "1"),
        ("GTO", key(SM + ".arbiter0.policy"), "gto"),
        ("1024 threads per SM", key(SM + ".threads"), "1024"),
        ("32 warps per SM", key(SM + ".warps"), "32"),
        ("16384 registers per SM", key(SM + ".registers"), "16384"),
        ("16 KB shared memory", key(SM + ".smem_bytes"), "16384"),
        ("L1D 32 KB", l1_bytes(SM), 32768),
        ("L1D 8-way", key(SM + ".ldst.l1_ways"), "8"),
        ("L1D 128 B line", key(SM + ".ldst.l1_line"), "128"),
        ("constant cache 8 KB", lambda c: num(c, SM + ".ldst.const_sets") * num(c, SM + ".ldst.const_ways")
         * num(c, SM + ".ldst.const_line"), 8192),
        ("8 memory channels", key(GPU + ".mem_channels"), "8"),
        ("L2 128 KB per channel", lambda c: l2_total(c) // num(c, GPU + ".mem_channels"), 131072),
        ("L2 8-way", key(GPU + ".l2_0.ways"), "8"),
        ("L2 128 B line", key(GPU + ".l2_0.line_bytes"), "128"),
        ("core clock 1300 MHz (769 ps)", key("tb.period_ps"), "769"),
        ("interconnect clock 650 MHz: a clock domain of 1538 ps", key(GPU + ".icnt_period_ps"), "1538"),
        ("memory clock 800 MHz: a clock domain of 1250 ps", key(GPU + ".dram_period_ps"), "1250"),
        ("DRAM scheduler FR-FCFS", key(GPU + ".dram0.scheduler"), "frfcfs"),
        ("DRAM queue 32", key(GPU + ".dram0.queue_depth"), "32"),
        ("8 B per memory cycle per channel", key(GPU + ".dram0.bytes_per_cycle"), "8"),
    ] + [("GDDR3 %s=%s" % (t, v), key(GPU + ".dram0." + t), v)
         for t, v in (("tCL", "10"), ("tRP", "10"), ("tRC", "35"), ("tRAS", "25"), ("tRCD", "12"),
                      ("tRRD", "8"))]),
    # resource-sharing-and-greener spec §13.4, Table 4.2 (GREENER): 4 schedulers on a datapath that can
    # issue 4 per cycle (fetch, I-buffer, SP pipes, write-back ports each at least 4 wide)
    ("greener", "tb-gpu", [
        ("14 SMs", key(GPU + ".sms"), "14"),
        ("shader core clock 732 MHz (1366 ps)", key("tb.period_ps"), "1366"),
        ("256 KB register file", key(SM + ".registers"), "65536"),
        ("32 register banks", key(SM + ".regfile.banks"), "32"),
        ("max 16 TBs", key(SM + ".ctas"), "16"),
        ("max 2048 threads", key(SM + ".threads"), "2048"),
        ("64 warps", key(SM + ".warps"), "64"),
        ("LRR", key(SM + ".arbiter0.policy"), "lrr"),
        ("4 schedulers", key(SM + ".issue.schedulers"), "4"),
        ("4 schedulers issue 4 per cycle: fetch width", lambda c: min(num(c, SM + ".fetch.fetch_width"), 4), 4),
        ("4 schedulers issue 4 per cycle: I-buffer entries", lambda c: min(num(c, SM + ".fetch.ibuffer_entries"),
                                                                          num(c, SM + ".ibuffer.entries"), 4), 4),
        ("4 schedulers issue 4 per cycle: SP pipes", lambda c: min(num(c, SM + ".units.sp_units"), 4), 4),
        ("4 schedulers issue 4 per cycle: write-back ports", lambda c: min(num(c, SM + ".units.wb_ports"), 4), 4),
        ("4 schedulers issue 4 per cycle: the collectors' input FIFO (2 per scheduler)",
         lambda c: min(num(c, SM + ".opcoll.in_depth"), 8), 8),
    ] + GTX480_MEM),
    # register-renaming spec §2, §12.1: 32 banks of 4 KB = 8 clusters x 4 banks of 128-bit entries, a
    # warp-wide register the same entry in all 8 clusters (a warp sees 4 banks), 4 x 1 KB sub-arrays
    ("renaming", "tb-renaming", [
        ("2 schedulers", key("tb.sm0.issue.schedulers"), "2"),
        ("two-level, 6 active warps", key("tb.sm0.arbiter0.policy"), "two_level_active:6:0:1"),
        ("32 register banks", key("tb.sm0.regfile.banks"), "32"),
        ("8 SIMT clusters", key("tb.sm0.regfile.clusters"), "8"),
        ("4 banks per cluster (a warp sees 4)",
         lambda c: num(c, "tb.sm0.regfile.banks") // num(c, "tb.sm0.regfile.clusters"), 4),
        ("128-bit bank entries", lambda c: 1024 // num(c, "tb.sm0.regfile.clusters"), 128),
        ("128 KB register file", lambda c: num(c, "tb.sm0.registers") * 4, 131072),
        ("4 KB banks", lambda c: num(c, "tb.sm0.registers") * 4 // num(c, "tb.sm0.regfile.banks"), 4096),
        ("4 sub-arrays per bank", key("tb.sm0.regfile.subarrays"), "4"),
        ("1 KB sub-arrays", lambda c: num(c, "tb.sm0.registers") * 4 // num(c, "tb.sm0.regfile.banks")
         // num(c, "tb.sm0.regfile.subarrays"), 1024),
        ("1024 physical registers", key("tb.sm0.renaming.phys_regs"), "1024"),
        ("placement bank = k mod 4", key("tb.sm0.regfile.bank_fn"), "reg"),
    ]),
    # register-renaming spec §12.1: SM count, clocks, caches and DRAM not given: the GTX480's
    ("renaming", "tb-gpu", [
        ("15 SMs (the GTX480's)", key(GPU + ".sms"), "15"),
    ] + GTX480_MEM),
    # the generic sub-core machine: GTX480 numbers outside the SM
    ("subcore", "tb-gpu", [
        ("sub-core SMs", key(GPU + ".sm_kind"), "subcore_sm"),
    ] + GTX480_MEM),
    # SPU spec §10, Table 6.1: the GTX 480 GPU, 15 SMs, 700 MHz, caches on; DRAM not given: the GTX480's
    ("spu-gpu", "tb-gpu", [
        ("15 SMs", key(GPU + ".sms"), "15"),
        ("core clock 700 MHz (1429 ps)", key("tb.period_ps"), "1429"),
        ("L1 16 KB", l1_bytes(SM), 16384),
        ("L2 on", key(GPU + ".l2_0.enabled"), "true"),
    ] + GTX480_MEM),
    # the SPU (§10): the GTX 480 GPU with its data caches off, everything else as the GPU
    ("spu", "tb-spu", [
        ("L2 off", key(GPU + ".l2_0.enabled"), "false"),
    ] + GTX480_MEM),
    # RF-cache (Malekeh) spec §2.1 Table I, §2.2 (collectors and banks), §3-4
    ("malekeh", "tb-gpu", [
        ("10 SMs", key(GPU + ".sms"), "10"),
        ("1024 threads per SM", key(SM + ".threads"), "1024"),
        ("32 warps per SM", key(SM + ".warps"), "32"),
        ("4 sub-cores", key(SM + ".partitions"), "4"),
        ("256 KB register file", lambda c: num(c, SM + ".registers") * 4, 262144),
        ("4 issue schedulers", key(SM + ".issue.schedulers"), "4"),
        ("GTO", key(SM + ".arbiter0.policy"), "gto"),
        ("L2 1 MB", l2_total, 1048576),
        ("L1 and shared memory 64 KB together", lambda c: num(c, SM + ".smem_bytes") + l1_bytes(SM)(c), 65536),
        ("2 banks per sub-core", key(SM + ".regfile0.banks"), "2"),
        ("single-ported banks", key(SM + ".regfile0.bank_ports"), "1"),
        ("one operand per collector per cycle", key(SM + ".regfile0.collector_ports"), "1"),
        ("2 generic collectors per sub-core",
         lambda c: num(c, SM + ".opcoll0.collectors_sp") + num(c, SM + ".opcoll0.collectors_sfu"), 2),
        ("no SP/SFU split", key(SM + ".opcoll0.collectors_sfu"), "0"),
        ("random free OCU", key(SM + ".opcoll0.collector"), "ocu_random"),
        ("core clock 1365 MHz (733 ps)", key("tb.period_ps"), "733"),
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
