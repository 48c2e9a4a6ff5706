# models/sm: the SM blocks (fetch, decode, issue, opcoll, regfile, execution units, ldst, writeback,
# barrier, cta_dispatch, link_port) and their tests. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/sm/payloads.c models/sm/payloads.h models/sm/sm_env.h \
	models/sm/warp_exec.c models/sm/warp_exec.h
nobase_pkginclude_HEADERS += models/sm/payloads.h models/sm/sm_env.h
models_libgpusc_models_la_SOURCES += \
	models/sm/fetch.c models/sm/fetch.h models/sm/issue.c models/sm/issue.h \
	models/sm/decode.c models/sm/decode.h models/sm/ibuffer.c models/sm/ibuffer.h models/sm/scoreboard_block.c models/sm/scoreboard_block.h \
	models/sm/arbiter.c models/sm/arbiter.h models/sm/barrier.c models/sm/barrier.h \
	models/sm/opcoll.c models/sm/opcoll.h models/sm/regfile.c models/sm/regfile.h \
	models/sm/ccu.c models/sm/ccu.h models/sm/reuse_trace.c models/sm/reuse_trace.h \
	models/sm/units.c models/sm/units.h models/sm/ldst.c models/sm/ldst.h \
	models/sm/mem_fixed.c models/sm/mem_fixed.h models/sm/cta_dispatch.c models/sm/cta_dispatch.h \
	models/sm/link_port.c models/sm/link_port.h models/sm/blocksync.c models/sm/blocksync.h
nobase_pkginclude_HEADERS += models/sm/warp_exec.h models/sm/fetch.h models/sm/issue.h models/sm/opcoll.h \
	models/sm/regfile.h models/sm/units.h models/sm/ldst.h models/sm/mem_fixed.h models/sm/cta_dispatch.h \
	models/sm/ibuffer.h models/sm/decode.h models/sm/scoreboard_block.h models/sm/arbiter.h models/sm/barrier.h \
	models/sm/link_port.h models/sm/blocksync.h

# Tests of the SM (tests/sm): closed-form microbenchmarks, the waveform check, bad input, every
# workload x issue policy on tb-sm and tb-subcore at the tiny size (the default size in check-long),
# the check modes of sc/ against the normal run, the accounting of every scheduler-cycle.
dist_check_SCRIPTS += tests/sm/test_microbench.sh tests/sm/test_tb_waveform.sh tests/sm/test_tb_badinput.sh tests/sm/test_tb_presets.sh \
	tests/sm/test_tb_workloads.sh tests/sm/test_tb_workloads_long.sh tests/sm/test_tb_bar_red.sh \
	tests/sm/test_tb_sregs.sh tests/sm/test_check_modes.sh tests/sm/test_tb_stall_accounting.sh \
	tests/sm/test_waveform_lossless.sh tests/sm/test_waveform_no_x.sh tests/sm/test_waveform_stream.sh \
	tests/sm/test_tb_occupancy.sh tests/sm/test_tb_warps96.sh tests/sm/test_tb_energy.sh
dist_check_SCRIPTS += tests/sm/test_warp_trace.sh
# The generated view closes what never acted: its idle groups read back against the VCD.
dist_check_SCRIPTS += tests/sm/test_idle_view.sh
TESTS += tests/sm/test_idle_view.sh
EXTRA_DIST += tests/sm/idle_view_check.py
# Every testbench's waveform read back: lossless, no x, stall signals only without issue.
dist_check_SCRIPTS += tests/sm/test_waveform_every_tb.sh
dist_check_SCRIPTS += tests/sm/test_vcd_order.sh
TESTS += tests/sm/test_vcd_order.sh
SLOW_TESTS += tests/sm/test_waveform_every_tb.sh
TESTS += tests/sm/test_warp_trace.sh
EXTRA_DIST += tests/sm/warp_trace_check.py
TESTS += tests/sm/test_microbench.sh tests/sm/test_tb_waveform.sh tests/sm/test_tb_badinput.sh tests/sm/test_tb_presets.sh \
	tests/sm/test_tb_bar_red.sh tests/sm/test_tb_sregs.sh \
	tests/sm/test_tb_stall_accounting.sh tests/sm/test_waveform_lossless.sh \
	tests/sm/test_waveform_stream.sh tests/sm/test_tb_occupancy.sh \
	tests/sm/test_tb_warps96.sh tests/sm/test_tb_energy.sh
SLOW_TESTS += tests/sm/test_check_modes.sh tests/sm/test_tb_workloads.sh tests/sm/test_waveform_no_x.sh
# ldst's bounded release queue at a depth of 1 (every workload passes, the peak stays within it).
dist_check_SCRIPTS += tests/sm/test_ldst_release_queue.sh
TESTS += tests/sm/test_ldst_release_queue.sh
# The scoreboard on physical registers: a hazard between two virtual registers of one register.
dist_check_SCRIPTS += tests/sm/test_sb_phys.sh
TESTS += tests/sm/test_sb_phys.sh
EXTRA_DIST += tests/sm/ptx/sb_phys.ptx
# Presets against the spec tables they cite (--dump-config).
dist_check_SCRIPTS += tests/sm/test_preset_tables.sh
TESTS += tests/sm/test_preset_tables.sh
dist_check_SCRIPTS += tests/sm/test_preset_datapath.sh
TESTS += tests/sm/test_preset_datapath.sh
EXTRA_DIST += tests/sm/vcd_lossless.awk tests/tools/vcd_x.awk tests/sm/ptx/dep_chain.ptx tests/sm/ptx/independent.ptx tests/sm/ptx/bank_conflict.ptx \
	tests/sm/ptx/l1_hit_miss.ptx tests/sm/ptx/smem_conflict.ptx tests/sm/ptx/barrier.ptx tests/sm/ptx/deadlock.ptx \
	tests/sm/ptx/bar_red.ptx tests/sm/ptx/const_hit_miss.ptx tests/sm/ptx/war.ptx tests/sm/ptx/nwarpid.ptx
# make check-long (Makefile.am initialises LONG_TESTS before the fragments).
LONG_TESTS += tests/sm/test_tb_workloads_long.sh
# Harness tests: each SM block alone, driven through its ports.
check_PROGRAMS += tests/sm/test_sm_blocks
TESTS += tests/sm/test_sm_blocks
tests_sm_test_sm_blocks_SOURCES = tests/sm/test_sm_blocks.c tests/sm/block_test.h
tests_sm_test_sm_blocks_LDADD = $(GPUSC_LIBS)
# What a FIFO copies of the SM's hot payloads, and their cache-line layout.
check_PROGRAMS += tests/sm/test_payload_layout
TESTS += tests/sm/test_payload_layout
tests_sm_test_payload_layout_SOURCES = tests/sm/test_payload_layout.c
tests_sm_test_payload_layout_LDADD = $(GPUSC_LIBS)
# Harness tests of the execution side, one file per block: opcoll, regfile, units.
check_PROGRAMS += tests/sm/test_opcoll tests/sm/test_regfile tests/sm/test_units
TESTS += tests/sm/test_opcoll tests/sm/test_regfile tests/sm/test_units
tests_sm_test_opcoll_SOURCES = tests/sm/test_opcoll.c
tests_sm_test_opcoll_LDADD = $(GPUSC_LIBS)
tests_sm_test_regfile_SOURCES = tests/sm/test_regfile.c
tests_sm_test_regfile_LDADD = $(GPUSC_LIBS)
tests_sm_test_units_SOURCES = tests/sm/test_units.c
tests_sm_test_units_LDADD = $(GPUSC_LIBS)
# One harness test file per passive SM block (called through its export, its imports stubbed).
check_PROGRAMS += tests/sm/test_scoreboard tests/sm/test_ibuffer tests/sm/test_barrier tests/sm/test_arbiter \
	tests/sm/test_decode
TESTS += tests/sm/test_scoreboard tests/sm/test_ibuffer tests/sm/test_barrier tests/sm/test_arbiter \
	tests/sm/test_decode
tests_sm_test_scoreboard_SOURCES = tests/sm/test_scoreboard.c tests/sm/block_test.h
tests_sm_test_scoreboard_LDADD = $(GPUSC_LIBS)
tests_sm_test_ibuffer_SOURCES = tests/sm/test_ibuffer.c tests/sm/block_test.h
tests_sm_test_ibuffer_LDADD = $(GPUSC_LIBS)
tests_sm_test_barrier_SOURCES = tests/sm/test_barrier.c tests/sm/block_test.h
tests_sm_test_barrier_LDADD = $(GPUSC_LIBS)
tests_sm_test_arbiter_SOURCES = tests/sm/test_arbiter.c tests/sm/block_test.h
tests_sm_test_arbiter_LDADD = $(GPUSC_LIBS)
tests_sm_test_decode_SOURCES = tests/sm/test_decode.c tests/sm/block_test.h
tests_sm_test_decode_LDADD = $(GPUSC_LIBS)
# The SM's end of the SM-to-SM links, driven alone (a client of its export, listeners on its import).
check_PROGRAMS += tests/sm/test_link_port
TESTS += tests/sm/test_link_port
tests_sm_test_link_port_LDADD = $(GPUSC_LIBS)
# The SM's blocks seen by a user of tb-sm/tb-subcore: --list-blocks, --describe, their VCD scopes.
check_PROGRAMS += tests/sm/test_tb_blocks
TESTS += tests/sm/test_tb_blocks
tests_sm_test_tb_blocks_SOURCES = tests/sm/test_tb_blocks.c models/core/vcd.c
tests_sm_test_tb_blocks_CFLAGS = $(AM_CFLAGS)
tests_sm_test_tb_blocks_LDADD = $(GLIB_LIBS)
# The extension points reached through the topology, on whole SMs running workloads.
check_PROGRAMS += tests/sm/test_sm_hooks
TESTS += tests/sm/test_sm_hooks
tests_sm_test_sm_hooks_SOURCES = tests/sm/test_sm_hooks.c
tests_sm_test_sm_hooks_LDADD = testbench/libtbcommon.la $(GPUSC_LIBS)
# The timing model counts the instructions the functional runner counts (every workload, tiny size).
dist_check_SCRIPTS += tests/sm/test_tb_icount.sh
TESTS += tests/sm/test_tb_icount.sh
EXTRA_DIST += tests/sm/ptx/implicit_ret.ptx

# Register renaming (models/sm/renaming.c, docs/renaming.md): its block, tests and testbench.
# The register renaming block, its harness
# test, its testbench tb-renaming and the testbench's tests (docs/renaming.md).
models_libgpusc_models_la_SOURCES += models/sm/renaming.c models/sm/renaming.h
nobase_pkginclude_HEADERS += models/sm/renaming.h

# tb-renaming is built into tb-sm's program (testbench/local.mk).

check_PROGRAMS += tests/sm/test_renaming
TESTS += tests/sm/test_renaming
dist_check_SCRIPTS += tests/sm/test_renaming_check_modes.sh
SLOW_TESTS += tests/sm/test_renaming_check_modes.sh
tests_sm_test_renaming_SOURCES = tests/sm/test_renaming.c
tests_sm_test_renaming_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_renaming.sh
TESTS += tests/sm/test_tb_renaming.sh
EXTRA_DIST += tests/sm/ptx/renaming_divret.ptx

# tb-rfcache (docs/rfcache.md): every workload under the cached collectors, the stale-copy check, the
# read invariant, the added storage, the dynamic STHLD controller, the curated view.
dist_check_SCRIPTS += tests/sm/test_tb_rfcache.sh
TESTS += tests/sm/test_tb_rfcache.sh
dist_check_SCRIPTS += tests/sm/test_tb_rfcache_baselines.sh
SLOW_TESTS += tests/sm/test_tb_rfcache_baselines.sh
# tb-rfcache in the check modes (every process awake; shuffled activations): statistics identical.
dist_check_SCRIPTS += tests/sm/test_rfcache_check_modes.sh
SLOW_TESTS += tests/sm/test_rfcache_check_modes.sh
EXTRA_DIST += waveforms/tb-rfcache-ccu.gtkw
# Harness test of the ccu block (its veto port and opcoll's calls, no value path).
check_PROGRAMS += tests/sm/test_ccu
TESTS += tests/sm/test_ccu
tests_sm_test_ccu_SOURCES = tests/sm/test_ccu.c
tests_sm_test_ccu_LDADD = $(GPUSC_LIBS)
check_PROGRAMS += tests/sm/test_rfcache_directed
TESTS += tests/sm/test_rfcache_directed
tests_sm_test_rfcache_directed_SOURCES = tests/sm/test_rfcache_directed.c
tests_sm_test_rfcache_directed_LDADD = $(GPUSC_LIBS)

# rfpower: register power states (GREENER, Sleep-Reg; docs/greener.md) and its tests.
# The `rfpower` block and tb-greener.
models_libgpusc_models_la_SOURCES += models/sm/rfpower.c models/sm/rfpower.h
nobase_pkginclude_HEADERS += models/sm/rfpower.h

# tb-greener is built into tb-sm's program (testbench/local.mk).

check_PROGRAMS += tests/sm/test_rfpower
TESTS += tests/sm/test_rfpower
tests_sm_test_rfpower_SOURCES = tests/sm/test_rfpower.c tests/sm/block_test.h
tests_sm_test_rfpower_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_greener.sh
TESTS += tests/sm/test_tb_greener.sh
dist_check_SCRIPTS += tests/sm/test_tb_greener_machines.sh
TESTS += tests/sm/test_tb_greener_machines.sh
dist_check_SCRIPTS += tests/sm/test_tb_offmode.sh
TESTS += tests/sm/test_tb_offmode.sh
dist_check_SCRIPTS += tests/sm/test_greener_check_modes.sh
SLOW_TESTS += tests/sm/test_greener_check_modes.sh

# Resource sharing (registers / scratchpad, OWF): the sharing computation, the lock_table block, the
# sharing-aware CTA grant, tb-sharing and their tests (docs/sharing.md).
models_lib_libgpusc_lib_la_SOURCES += models/lib/sharing.c models/lib/sharing.h
check_PROGRAMS += tests/lib/test_sharing
TESTS += tests/lib/test_sharing
tests_lib_test_sharing_LDADD = $(GPUSC_LIB_TEST_LIBS)
dist_check_SCRIPTS += tests/tools/test_gpusc_occupancy_sharing.sh
TESTS += tests/tools/test_gpusc_occupancy_sharing.sh
models_libgpusc_models_la_SOURCES += models/sm/lock_table.c models/sm/lock_table.h
nobase_pkginclude_HEADERS += models/sm/lock_table.h models/lib/sharing.h
# tb-sharing is built into tb-sm's program (testbench/local.mk).
check_PROGRAMS += tests/sm/test_lock_table
TESTS += tests/sm/test_lock_table
tests_sm_test_lock_table_SOURCES = tests/sm/test_lock_table.c tests/sm/block_test.h
tests_sm_test_lock_table_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_sharing.sh
SLOW_TESTS += tests/sm/test_tb_sharing.sh
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/regorder.c kernels/passes/regorder.h
nobase_pkginclude_HEADERS += kernels/passes/regorder.h
check_PROGRAMS += tests/kernels/test_regorder
TESTS += tests/kernels/test_regorder
tests_kernels_test_regorder_LDADD = $(KERNELS_LIBS)
models_libgpusc_models_la_SOURCES += models/sm/dwe.c models/sm/dwe.h
nobase_pkginclude_HEADERS += models/sm/dwe.h
check_PROGRAMS += tests/sm/test_dwe
TESTS += tests/sm/test_dwe
tests_sm_test_dwe_LDADD = $(GPUSC_LIBS)
models_libgpusc_models_la_SOURCES += models/sm/smem_share.c models/sm/smem_share.h
nobase_pkginclude_HEADERS += models/sm/smem_share.h
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/relssp.c kernels/passes/relssp.h
nobase_pkginclude_HEADERS += kernels/passes/relssp.h
check_PROGRAMS += tests/kernels/test_relssp
TESTS += tests/kernels/test_relssp
tests_kernels_test_relssp_LDADD = $(KERNELS_LIBS)
check_PROGRAMS += tests/sm/test_smem_share
tests_sm_test_smem_share_SOURCES = tests/sm/test_smem_share.c tests/sm/block_test.h
tests_sm_test_smem_share_LDADD = $(GPUSC_LIBS)
TESTS += tests/sm/test_smem_share
kernels_libgpusc_kernels_core_la_SOURCES += kernels/passes/spvar_layout.c kernels/passes/spvar_layout.h
nobase_pkginclude_HEADERS += kernels/passes/spvar_layout.h
check_PROGRAMS += tests/kernels/test_spvar_layout
TESTS += tests/kernels/test_spvar_layout
tests_kernels_test_spvar_layout_LDADD = $(KERNELS_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_sharing_layout.sh
TESTS += tests/sm/test_tb_sharing_layout.sh
dist_check_SCRIPTS += tests/kernels/test_gpusc_ptx_layout.sh
TESTS += tests/kernels/test_gpusc_ptx_layout.sh
EXTRA_DIST += tests/kernels/ptx/smem_layout.ptx
dist_check_SCRIPTS += tests/sm/test_tb_sharing_func_exit.sh
TESTS += tests/sm/test_tb_sharing_func_exit.sh
dist_check_SCRIPTS += tests/sm/test_tb_sharing_inert.sh
SLOW_TESTS += tests/sm/test_tb_sharing_inert.sh
EXTRA_DIST += tests/sm/stats_inert.py
EXTRA_DIST += tests/kernels/ptx/func_exit.ptx tests/kernels/ptx/relssp_hand.ptx
