/* presets.c — built-in presets, each with the machines it describes (presets.h). Every number carries
 * its source: [S] stated by the source, [D] derived, [A] an assumption (also a parameter default).
 * Tables: docs/baseline-design.md §5-6.
 * Sections not named keep the parameter defaults, which are the GTX480 values (§5); each preset's
 * comment says which of the source's gaps those defaults fill. The core clock is the testbench's
 * `period_ps` (the top instance [tb] of tb-sm, tb-subcore and tb-gpu); alone it scales the VCD's
 * time axis only, as latencies are counted in each block's cycles: core cycles, except for the
 * memory-side blocks a preset puts in a clock domain of their own ([gpu] icnt_period_ps,
 * l2_period_ps, dram_period_ps; docs/framework.md "Clock domains").
 * A preset holds the sections of every machine it describes (the one-SM machine's [sm], the GPU's
 * [gpu], [l2] ...); a program loads them all and uses those of the blocks it builds. */
#include "models/machines/presets.h"

#include <string.h>

#include "models/core/config.h"

// clang-format off
/* The presets are tables: one key per line, its source in a comment beside it. */

/* The GTX480's DRAM clock (GPGPU-Sim configs/GTX480: gpgpu_clock_domains 700:700:700:924, core,
 * interconnect, L2, DRAM): a clock domain of its own, so the DRAM's bandwidth, latency and GDDR
 * timing (tCL 12 ... : the dram defaults, gpgpu_dram_timing_opt's, in DRAM command cycles [S]) are
 * counted in 924 MHz DRAM cycles (the parameter defaults keep them converted into core cycles: 42 B,
 * 100 cycles). The presets whose source states no memory clock and takes the GTX480's memory side
 * load it too: the same DRAM, in the same time, whatever their core clock. */
#define GTX480_DRAM_CLOCK \
    "[gpu]\n" \
    "dram_period_ps=1082\n" /* [S] DRAM clock 924 MHz; [D] 1082.3 ps */ \
    "[dram]\n" \
    "bytes_per_cycle=32\n"  /* [D] 2 chips x 4 B bus x 4 (QDR, data_command_freq_ratio) per DRAM cycle */ \
    "latency=132\n"         /* [D] dram_latency 100 is in 700 MHz core cycles (GPGPU-Sim): 100 x 924 / 700 */

/* GTX480 (GPGPU-Sim configs/GTX480/gpgpusim.config): the parameter defaults ARE this machine, except
 * its clocks: the DRAM's is a clock domain (GTX480_DRAM_CLOCK). */
static const char gtx480[] =
    "# GTX480-like SM: every default of the SM blocks (docs/baseline-design.md §5)\n"
    "[issue]\n"
    "schedulers=2\n"        /* [S] gpgpu_num_sched_per_core 2 */
    "[arbiter]\n"
    "policy=gto\n"          /* [S] gpgpu_scheduler gto */
    "[gpu]\n"               /* memory side: the icnt/l2 defaults are the GTX480 (docs/memory.md) */
    "sms=15\n"              /* [S] gpgpu_n_clusters 15 */
    "mem_channels=6\n"      /* [S] gpgpu_n_mem 6 */
    "sub_partitions=2\n"    /* [S] gpgpu_n_sub_partition_per_mchannel 2 */
    /* interconnect and L2 clocks 700 MHz [S]: the core clock (icnt_period_ps, l2_period_ps 0) */
    GTX480_DRAM_CLOCK;
    /* core clock: tb.period_ps default 1429 ps = 700 MHz [S]; GDDR timing tCL 12 ... (the defaults)
       are gpgpu_dram_timing_opt's, in DRAM command cycles [S] */

/* resource-sharing/GREENER spec §13.1, Table 2.3 (register-sharing runs). Not stated (§13.1 "use
 * GPGPU-Sim defaults of that era"): schedulers 2, clocks 700 MHz, L2, pipeline latencies, register
 * banks 16: the GTX480 defaults [A]. L1 16 KB [S] = the default. */
static const char rs_table23[] =
    "[sm]\n"
    "ctas=8\n"              /* [S] */
    "threads=1536\n"        /* [S] */
    "registers=32768\n"     /* [S] */
    "smem_bytes=49152\n"    /* [S] 48 KB for register-sharing runs */
    "[arbiter]\n"
    "policy=lrr\n"          /* [S] LRR baseline */
    "[dram]\n"
    "scheduler=frfcfs\n"    /* [S] FR-FCFS; its GDDR3 timing (tRRD=6 tWR=12 tRCD=12 tRAS=28 tRP=12
                               tRC=40 tCDLR=5 tCL=12) [S] is the dram defaults */
    "[gpu]\n"
    "sms=14\n"              /* [S] §13.1 */
    GTX480_DRAM_CLOCK;

/* §13.1, Table 2.3 for its scratchpad-sharing runs: 16 KB of scratchpad, the rest as above. */
static const char rs_table23_16k[] =
    "[sm]\n"
    "ctas=8\n"              /* [S] */
    "threads=1536\n"        /* [S] */
    "registers=32768\n"     /* [S] */
    "smem_bytes=16384\n"    /* [S] 16 KB for scratchpad-sharing runs */
    "[arbiter]\n"
    "policy=lrr\n"          /* [S] LRR baseline */
    "[dram]\n"
    "scheduler=frfcfs\n"    /* [S] FR-FCFS, the GDDR3 timing of the defaults */
    "[gpu]\n"
    "sms=14\n"              /* [S] §13.1 */
    GTX480_DRAM_CLOCK;

/* resource-sharing/GREENER spec §13.2, Table 3.2 (scratchpad sharing). Gaps as Table 2.3's. */
static const char rs_table32[] =
    "[sm]\n"
    "ctas=16\n"             /* [S] */
    "threads=3072\n"        /* [S] */
    "warps=96\n"            /* [D] 3072 threads / 32 */
    "registers=65536\n"     /* [S] */
    "smem_bytes=16384\n"    /* [S] 16 KB */
    "[arbiter]\n"
    "policy=lrr\n"          /* [S] */
    "[dram]\n"
    "scheduler=frfcfs\n"    /* [S] FR-FCFS; GDDR3 timing not restated: Table 2.3's, the defaults [A] */
    "[gpu]\n"
    "sms=14\n"              /* [S] §13.2 */
    GTX480_DRAM_CLOCK;

/* resource-sharing/GREENER spec §13.3, Table 3.6: the Kepler/Maxwell-like configurations #1 and #2
 * (scratchpad, thread blocks, threads, SMs stated). Not stated: registers per SM, 65536 [A: Kepler
 * GK110's 256 KB register file with 2048 threads, §13.5; docs/baseline-design.md §6.1]; the
 * scheduler LRR [A: the chapter's baseline, §13.1-13.2]; schedulers 2, register banks 16, L1 16 KB,
 * clocks 700 MHz, the memory side: the GTX480 defaults [A]. */
static const char rs_table36_1[] =
    "[sm]\n"
    "ctas=16\n"             /* [S] max thread blocks 16 */
    "threads=2048\n"        /* [S] */
    "warps=64\n"            /* [D] 2048 threads / 32 */
    "registers=65536\n"     /* [A] see above */
    "max_regs_per_thread=255\n" /* [A] Kepler/Maxwell: 255 per thread */
    "smem_bytes=49152\n"    /* [S] 48 KB */
    "[arbiter]\n"
    "policy=lrr\n"          /* [A] see above */
    "[gpu]\n"
    "sms=14\n"              /* [S] */
    GTX480_DRAM_CLOCK;
static const char rs_table36_2[] =
    "[sm]\n"
    "ctas=32\n"             /* [S] max thread blocks 32 */
    "threads=2048\n"        /* [S] */
    "warps=64\n"            /* [D] 2048 threads / 32 */
    "registers=65536\n"     /* [A] as #1 */
    "max_regs_per_thread=255\n" /* [A] as #1 */
    "smem_bytes=65536\n"    /* [S] 64 KB */
    "[arbiter]\n"
    "policy=lrr\n"          /* [A] as #1 */
    "[gpu]\n"
    "sms=14\n"              /* [S] */
    GTX480_DRAM_CLOCK;

/* GREENER (§13.4, Table 4.2): K20X-like. Not stated: scratchpad 48 KB, L1 16 KB, latencies, the
 * memory side: the GTX480 defaults [A]. The datapath is widened so the 4 schedulers can issue 4
 * instructions per cycle (the GTX480's issues at most 2: fetch 2, 2 SP pipes, 2 write-back ports):
 * fetch, collectors, SP pipes and write-back scaled with the schedulers [A: the source states the
 * schedulers only; K20X's SMX has 192 SP lanes, more than 4 x 32]. */
static const char greener[] =
    "[sm]\n"
    "ctas=16\n"             /* [S] */
    "threads=2048\n"        /* [S] */
    "warps=64\n"            /* [S] 64 warps */
    "registers=65536\n"     /* [S] 256 KB */
    "max_regs_per_thread=255\n" /* [D] Kepler GK110: 255 per thread (CUDA compute capability 3.5) */
    "[fetch]\n"
    "fetch_width=4\n"       /* [A] one instruction per scheduler per cycle */
    "ibuffer_entries=4\n"   /* [A] = fetch_width */
    "[ibuffer]\n"
    "entries=4\n"           /* [A] = fetch's */
    "[issue]\n"
    "schedulers=4\n"        /* [S] */
    "decoded_depth=8\n"     /* [A] two fetches in flight */
    "[arbiter]\n"
    "policy=lrr\n"          /* [S] */
    "[regfile]\n"
    "banks=32\n"            /* [S] */
    "[opcoll]\n"
    "collectors_sp=12\n"    /* [A] GTX480's 6 per 2 schedulers, x 2 */
    "in_depth=8\n"          /* [A] 2 per scheduler, as the default 4 for 2 */
    "[units]\n"
    "sp_units=4\n"          /* [A] one SP pipe per scheduler */
    "wb_ports=4\n"          /* [A] one result per scheduler per cycle */
    "[tb]\n"
    "period_ps=1366\n"      /* [S] shader core clock 732 MHz; [D] 1366.1 ps (§10.2: 1.366 ns) */
    "[gpu]\n"
    "sms=14\n"              /* [S] §13.4 */
    GTX480_DRAM_CLOCK;

/* CCWS/DAWS (CCWS/DAWS/VWS spec §2.2, Table 3.1). Not given (§2.1): I-buffer depth (2), pipeline
 * latencies, MSHRs (32 x 8), L1/L2 hit latencies, interconnect: the GTX480 defaults [A], each in its
 * block's clock: the interconnect's 650 MHz and the memory's 800 MHz are clock domains (so the DRAM's
 * 8 B/cycle, GDDR3 timing and latency are memory-clock cycles); the L2 clock is not given: the core
 * clock [A]. The texture cache (32 KB) is not modelled (no texture in the workloads). */
static const char ccws[] =
    "[sm]\n"
    "threads=1024\n"        /* [S] */
    "warps=32\n"            /* [S] */
    "registers=16384\n"     /* [S] */
    "smem_bytes=16384\n"    /* [S] */
    "[issue]\n"
    "schedulers=1\n"        /* [S] §2.1 "selects one" */
    "[arbiter]\n"
    "policy=gto\n"          /* [S] */
    "[units]\n"
    "simd_width=8\n"        /* [S] SIMD pipeline width 8; §2.1 [A]: 4 cycles per warp instruction */
    "sp_units=1\n"          /* [D] one SP pipe: 8 lanes per cycle in total, not 8 per pipe */
    "[ldst]\n"
    "l1_sets=32\n"          /* [D] 32 KB / 128 B / 8 ways */
    "l1_ways=8\n"           /* [S] */
    "const_sets=64\n"       /* [D] 8 KB [S] / 64 B / 2 ways */
    "const_line=64\n"       /* [A] line not given: GTX480's 64 B */
    "const_ways=2\n"        /* [A] associativity not given: GTX480's 2 */
    "[tb]\n"
    "period_ps=769\n"       /* [S] core clock 1300 MHz; [D] 769.2 ps */
    "[gpu]\n"
    "sms=30\n"              /* [S] Table 3.1 */
    "icnt_period_ps=1538\n" /* [S] interconnect clock 650 MHz; [D] 1538.5 ps, 2 core periods */
    "dram_period_ps=1250\n" /* [S] memory clock 800 MHz */
    "mem_channels=8\n"      /* [S] 8 channels */
    "sub_partitions=2\n"    /* [A] GTX480 */
    "[l2]\n"
    "sets=64\n"             /* [D] 128 KB per channel / 2 slices / 128 B / 8 ways */
    "ways=8\n"              /* [S] 8-way, 128 B, LRU */
    "[dram]\n"
    "queue_depth=32\n"      /* [S] queue 32 */
    "bytes_per_cycle=8\n"   /* [S] 8 B/cycle per channel */
    "scheduler=frfcfs\n"    /* [S] out of order, FR-FCFS */
    "tCL=10\n"              /* [S] GDDR3 timing */
    "tRP=10\n"              /* [S] */
    "tRC=35\n"              /* [S] */
    "tRAS=25\n"             /* [S] */
    "tRCD=12\n"             /* [S] */
    "tRRD=8\n";             /* [S]; tWR, tCDLR not given: the GTX480's 12, 5 [A] */

/* VWS single-SM machine (CCWS/DAWS/VWS spec §2.4, Table 6.1). Not given: L1/L2/DRAM latencies, MSHRs,
 * I-buffer depth, I-cache line and associativity, clocks: the GTX480 defaults [A]. Shared memory 48 KB
 * [S] and SIMD width 32 [S] are the defaults. */
static const char vws[] =
    "[sm]\n"
    "threads=1024\n"        /* [S] */
    "warps=32\n"            /* [D] */
    "slicing=warp\n"        /* [S] below 32 threads a warp, 32 / warp_size slices of warp_size lanes */
    "[fetch]\n"
    "icache_sets=128\n"     /* [D] L1 I-cache 64 KB [S: §2.4, the area table] / 128 B / 4 ways */
    "icache_line=128\n"     /* [A] not given: GTX480's 128 B */
    "icache_ways=4\n"       /* [A] not given: GTX480's 4 */
    "[issue]\n"
    "schedulers=1\n"        /* [S] */
    "[arbiter]\n"
    "policy=gto\n"          /* [S] */
    "[units]\n"
    "sp_latency=10\n"       /* [S] ALU latency 10 */
    "mad_latency=10\n"      /* [A] same as the ALU */
    "[ldst]\n"
    "l1_sets=64\n"          /* [D] 64 KB / 128 B / 8 ways */
    "l1_ways=8\n"           /* [S] */
    "[mem_fixed]\n"
    "bytes_per_cycle=32\n"  /* [S] 32 B per core cycle */
    "[gpu]\n"
    "sms=1\n"               /* [S] the single-SM machine */
    "mem_channels=1\n"      /* [A] */
    "sub_partitions=2\n"    /* [A] GTX480 */
    "[l2]\n"
    "sets=64\n"             /* [D] 128 KB / 2 slices / 128 B / 8 ways */
    "ways=8\n"              /* [S] 128 KB, 128 B, 8-way, LRU */
    "[dram]\n"
    "bytes_per_cycle=32\n"; /* [S] 32 B per core cycle */

/* Turing-like sub-core SM of the RF-cache spec (RF-cache (Malekeh) spec §2.1-2.2, §3-4). */
static const char malekeh[] =
    "[subcore_sm]\n"
    "partitions=4\n"        /* [S] */
    "threads=1024\n"        /* [S] */
    "warps=32\n"            /* [S] */
    "registers=65536\n"     /* [S] 256 KB */
    "smem_bytes=32768\n"    /* [S] 64 KB L1 + shared together; [A] carved 32 KB shared + 32 KB L1
                               (Turing's default split; the L1 is [ldst] below) */
    "max_regs_per_thread=255\n" /* [D] Turing: 255 per thread (compute capability 7.5) */
    "[fetch]\n"
    "fetch_width=4\n"       /* [A] (see subcore) */
    "ibuffer_entries=4\n"   /* [A] */
    "[issue]\n"
    "decoded_depth=8\n"     /* [A] */
    "schedulers=4\n"        /* [S] one per sub-core */
    "[arbiter]\n"
    "policy=gto\n"          /* [S] */
    "[ibuffer]\n"
    "entries=4\n"           /* [A] = fetch's */
    "[regfile]\n"
    "banks=2\n"             /* [S] 2 banks per sub-core */
    "collector_ports=1\n"   /* [S] §3: a collector receives one operand per cycle */
    "[opcoll]\n"
    "collectors_sp=2\n"     /* [S] 2 generic collectors per sub-core, 6 operand slots each */
    "collectors_sfu=0\n"    /* [S] generic: no SP/SFU split */
    "collector=ocu_random\n" /* [S] §4: random free OCU, issue only with a free collector */
    "[units]\n"
    "sp_units=1\n"          /* [A] Accel-Sim RTX 2060 */
    "sp_latency=4\n"        /* [A] */
    "sp_ii=2\n"             /* [A] FP 4/2 */
    "int_latency=4\n"       /* [A] */
    "int_ii=2\n"            /* [A] */
    "sfu_latency=21\n"      /* [A] */
    "sfu_ii=8\n"            /* [A] */
    "dp_latency=64\n"       /* [A] */
    "dp_ii=64\n"            /* [A] */
    "[ldst]\n"
    "l1_sets=64\n"          /* [A] 32 KB L1 of the 64 KB carve-out: 64 sets x 4 ways x 128 B */
    "l1_latency=32\n"       /* [A] L1D 32 */
    "smem_latency=30\n"     /* [A] shared 30 */
    "[tb]\n"
    "period_ps=733\n"       /* [A] §2.2 core clock 1365 MHz (Accel-Sim RTX 2060); [D] 732.6 ps */
    "[gpu]\n"
    "sms=10\n"              /* [S] §2.1 */
    "sm_kind=subcore_sm\n"  /* [S] 4 sub-cores */
    "mem_channels=4\n"      /* [A] §2.1 */
    "sub_partitions=2\n"    /* [A] GTX480 */
    "[l2]\n"
    "sets=128\n"            /* [D] 1 MB / 8 slices / 128 B / 8 ways */
    "ways=8\n"              /* [A] */
    "latency=169\n"         /* [D] L2 194 [A §2.2] as the hit round trip 3 + 2x8 + 1 + 5 + R */
    "[dram]\n"
    "latency=90\n";         /* [D] DRAM 96 [A §2.2] as miss - hit = 2 + B + Ld, B = 4 */

/* A generic 4-partition sub-core SM with GTX480 numbers elsewhere (tb-subcore's default). */
/* The sub-core presets share one fetch/decode among the partitions (docs/sm.md); it is widened so it
 * can feed four schedulers: 4 instructions per fetch, 4 I-buffer entries per warp [A]. */
static const char subcore[] =
    "[subcore_sm]\n"
    "partitions=4\n"
    "[fetch]\n"
    "fetch_width=4\n"       /* [A] */
    "ibuffer_entries=4\n"   /* [A] */
    "[issue]\n"
    "decoded_depth=8\n"     /* [A] two fetches in flight */
    "schedulers=4\n"
    "[ibuffer]\n"
    "entries=4\n"           /* [A] = fetch's */
    "[regfile]\n"
    "banks=4\n"             /* [A] 16 banks split over 4 partitions */
    "[opcoll]\n"
    "collectors_sp=2\n"     /* [A] */
    "collectors_sfu=2\n"    /* [A] */
    "[units]\n"
    "sp_units=1\n"          /* [A] */
    "[gpu]\n"
    "sm_kind=subcore_sm\n"  /* a sub-core GPU in tb-gpu */
    GTX480_DRAM_CLOCK;

/* Register renaming (register-renaming spec §2, §12.1): Fermi with two_level_active:6:0:1. Not given
 * (§12.1 [A]): SM count, clocks, caches, DRAM, collectors: the GTX480 defaults. The register file is
 * the spec's geometry: 128 KB (the default 32768 registers = 1024 warp-wide registers) in 32 banks of
 * 4 KB, 8 SIMT clusters x 4 banks of 128-bit entries: a warp-wide register is the same entry in all 8
 * clusters, so a warp sees 4 banks; physical register k is in bank k mod 4 (row k div 4). */
static const char renaming[] =
    "[issue]\n"
    "schedulers=2\n"                    /* [S] */
    "[arbiter]\n"
    "policy=two_level_active:6:0:1\n"   /* [S] */
    "[regfile]\n"
    "banks=32\n"                        /* [S] 32 banks of 4 KB */
    "clusters=8\n"                      /* [S] 8 SIMT clusters x 4 banks; [D] 128-bit entries */
    "subarrays=4\n"                     /* [S] 4 x 1 KB sub-arrays per bank */
    "bank_fn=reg\n"                     /* [A] §2: bank = k mod 4 (the physical register) */
    GTX480_DRAM_CLOCK;

/* SPU's GPU baseline (SPU spec §10): GTX480 defaults (15 SMs, L1D 16 KB, 700 MHz [S]). */
static const char spu[] =
    "[arbiter]\n"
    "policy=gto\n"          /* [A] default GTX480 scheduler */
    GTX480_DRAM_CLOCK;
/* The SPU itself (SPU spec §10: the GTX480 GPU with its data caches off in the performance model
 * and the power model [S]); tb-spu's default on the SPU grid. */
static const char spu_grid[] =
    "[arbiter]\n"
    "policy=gto\n"          /* [A] as spu-gpu */
    "[ldst]\n"
    "l1_enabled=false\n"    /* [S] no data caches */
    "[l2]\n"
    "enabled=false\n"       /* [S] */
    GTX480_DRAM_CLOCK;
/* Energy tables per technology node (docs/energy.md): per-event energies (pJ) and leakage powers
 * (mW) of the blocks that declare energy. Load one beside a machine preset
 * (--preset gtx480 --preset energy-22nm). The 40 nm table is the parameters' defaults. */
static const char energy_40nm[] =
    "[regfile]\n"
    "e_bank_read=4.68\n"     /* [S] register-renaming Table 2: 4 KB bank, 40 nm, CACTI 5.3 */
    "e_bank_write=4.68\n"    /* [S] the same per-access energy */
    "p_leak_bank=2.8\n"      /* [S] register-renaming Table 2: per-bank leakage */
    "[opcoll]\n"
    "e_operand_fill=1.14\n"  /* [A] register-renaming Table 2's 1 KB table access as a collector */
    "e_operand_read=1.14\n"  /* [A] as e_operand_fill */
    "[ldst]\n"
    "e_l1_access=20\n"       /* [A] order of magnitude, the specs give none */
    "e_smem_access=10\n"     /* [A] */
    "e_const_access=5\n"     /* [A] */
    "[l2]\n"
    "e_access=50\n"          /* [A] */
    "e_fill=50\n"            /* [A] */
    "[dram]\n"
    "e_access=20480\n"       /* [A] about 20 pJ/bit x 128-byte line */
    "e_activate=2000\n"      /* [A] a GDDR row cycle */
    "e_mc_request=50\n"      /* [A] the memory controller, the order of an L2 access */
    "[mem_fixed]\n"
    "e_byte=160\n"           /* [A] about 20 pJ/bit */
    "[fetch]\n"
    "e_icache_access=2.34\n" /* [A] a 2 KB array, by size between the 1 KB and 4 KB CACTI figures */
    "e_l0_access=0.29\n"     /* [A] 1.14 x 256 / 1024 */
    "[ibuffer]\n"
    "e_write=1.14\n"         /* [A] a 1 KB table access */
    "[issue]\n"
    "e_ibuffer_read=1.14\n"  /* [A] as the I-buffer's write */
    "[arbiter]\n"
    "e_grant=2\n"            /* [A] about two 1 KB table accesses */
    "[units]\n"
    "e_sp_op=64\n"           /* [A] 32 lanes x about 2 pJ */
    "e_int_op=100\n"         /* [A] 32 lanes x about 3 pJ */
    "e_sfu_op=320\n"         /* [A] 32 lanes x about 10 pJ */
    "e_dp_op=640\n"          /* [A] 32 lanes x about 20 pJ */
    "[icnt]\n"
    "e_flit=128\n"           /* [A] 256 bits x 0.1 pJ/(bit mm) x 5 mm */
    "[sm_link]\n"
    "e_byte=0.8\n";          /* [A] 8 bits x 0.1 pJ/(bit mm) x 1 mm */

/* 22 nm (the node of resource-sharing-and-greener's GREENER results; the specs give no per-access
 * energy or leakage at 22 nm): on-chip dynamic energies are the 40 nm ones x 0.55 [A: switched
 * capacitance scales with the feature size, 22/40, at the same voltage]; leakage is kept [A: no
 * source figure; CACTI-P would give it]; DRAM energy is off-chip and kept. */
static const char energy_22nm[] =
    "[regfile]\n"
    "e_bank_read=2.574\n"    /* [A] 4.68 x 0.55 */
    "e_bank_write=2.574\n"   /* [A] 4.68 x 0.55 */
    "p_leak_bank=2.8\n"      /* [A] kept */
    "[opcoll]\n"
    "e_operand_fill=0.627\n" /* [A] 1.14 x 0.55 */
    "e_operand_read=0.627\n" /* [A] 1.14 x 0.55 */
    "[ldst]\n"
    "e_l1_access=11\n"       /* [A] 20 x 0.55 */
    "e_smem_access=5.5\n"    /* [A] 10 x 0.55 */
    "e_const_access=2.75\n"  /* [A] 5 x 0.55 */
    "[l2]\n"
    "e_access=27.5\n"        /* [A] 50 x 0.55 */
    "e_fill=27.5\n"          /* [A] 50 x 0.55 */
    "[dram]\n"
    "e_access=20480\n"       /* [A] off-chip: kept */
    "e_activate=2000\n"      /* [A] off-chip: kept */
    "e_mc_request=27.5\n"    /* [A] 50 x 0.55: the controller is on chip */
    "[mem_fixed]\n"
    "e_byte=160\n"           /* [A] off-chip: kept */
    "[fetch]\n"
    "e_icache_access=1.287\n" /* [A] 2.34 x 0.55 */
    "e_l0_access=0.1595\n"   /* [A] 0.29 x 0.55 */
    "[ibuffer]\n"
    "e_write=0.627\n"        /* [A] 1.14 x 0.55 */
    "[issue]\n"
    "e_ibuffer_read=0.627\n" /* [A] 1.14 x 0.55 */
    "[arbiter]\n"
    "e_grant=1.1\n"          /* [A] 2 x 0.55 */
    "[units]\n"
    "e_sp_op=35.2\n"         /* [A] 64 x 0.55 */
    "e_int_op=55\n"          /* [A] 100 x 0.55 */
    "e_sfu_op=176\n"         /* [A] 320 x 0.55 */
    "e_dp_op=352\n"          /* [A] 640 x 0.55 */
    "[icnt]\n"
    "e_flit=70.4\n"          /* [A] 128 x 0.55 */
    "[sm_link]\n"
    "e_byte=0.44\n";         /* [A] 0.8 x 0.55 */
// clang-format on

#define SM_GPU      ((1u << MACHINE_SM) | (1u << MACHINE_GPU))
#define SUBCORE_GPU ((1u << MACHINE_SUBCORE) | (1u << MACHINE_GPU))
#define ANY_MACHINE (SM_GPU | SUBCORE_GPU) /* a table that is not a machine (energy per node) */

/* Registration order (--list-blocks shows it). rs-table2.3's SM limits are a monolithic SM's [sm]
 * section, and its GPU is a sub-core one ([gpu] sm_kind): it describes the one-SM monolithic
 * machine and the GPU. */
static const struct {
    const char *name, *description, *text;
    unsigned machines;
} table[] = {
    {"gtx480", "GTX480-like Fermi SM (GPGPU-Sim configs/GTX480), the default", gtx480, SM_GPU},
    {"rs-table2.3", "resource sharing §13.1 Table 2.3 baseline (LRR, 48 KB)", rs_table23, SM_GPU},
    {"rs-table2.3-16k", "resource sharing §13.1 Table 2.3, scratchpad-sharing runs (LRR, 16 KB)",
     rs_table23_16k, SM_GPU},
    {"rs-table3.2", "resource sharing §13.2 Table 3.2 baseline (16 CTAs, 16 KB)", rs_table32, SM_GPU},
    {"rs-table3.6-1", "resource sharing §13.3 Table 3.6 config #1 (16 CTAs, 2048 threads, 48 KB)",
     rs_table36_1, SM_GPU},
    {"rs-table3.6-2", "resource sharing §13.3 Table 3.6 config #2 (32 CTAs, 2048 threads, 64 KB)",
     rs_table36_2, SM_GPU},
    {"greener", "GREENER §13.4 K20X-like SM (4 schedulers, 32 banks)", greener, SM_GPU},
    {"ccws", "CCWS/DAWS Table 3.1 SM (1 scheduler, 32 KB 8-way L1)", ccws, SM_GPU},
    {"vws", "VWS Table 6.1 single-SM machine", vws, SM_GPU},
    {"malekeh", "RF-cache spec's Turing-like sub-core SM (4 partitions)", malekeh, SUBCORE_GPU},
    {"subcore", "4-partition sub-core SM, GTX480 numbers elsewhere", subcore, SUBCORE_GPU},
    {"renaming", "register renaming's Fermi SM (two_level_active:6:0:1, 32 banks)", renaming, SM_GPU},
    {"spu-gpu", "SPU spec's GTX480 GPU baseline", spu, SM_GPU},
    {"spu", "SPU spec's SPU: the GTX480 GPU with L1D and L2 off (tb-spu's SPU grid)", spu_grid, SM_GPU},
    {"energy-40nm", "energy table, 40 nm (the defaults; load beside a machine preset)", energy_40nm,
     ANY_MACHINE},
    {"energy-22nm", "energy table, 22 nm (load beside a machine preset)", energy_22nm, ANY_MACHINE},
};

void presets_register(void)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(table); i++)
        cfg_preset_register(table[i].name, table[i].description, table[i].text);
}

unsigned presets_machines(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(table); i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].machines;
    return 0;
}
