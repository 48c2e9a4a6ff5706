# models/ccws: cache-conscious warp scheduling (docs/ccws.md): the victim tag array and the
# lost-locality scoring blocks, their tests, the tb-ccws testbench. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += models/ccws/vta.c models/ccws/vta.h models/ccws/ccws.c models/ccws/ccws.h \
	models/ccws/fetch_groups.c models/ccws/fetch_groups.h \
	models/ccws/daws.c models/ccws/daws.h models/ccws/throttle.h \
	models/ccws/l1pc.c models/ccws/l1pc.h
nobase_pkginclude_HEADERS += models/ccws/vta.h models/ccws/ccws.h models/ccws/fetch_groups.h models/ccws/daws.h models/ccws/throttle.h models/ccws/l1pc.h

# tb-ccws is built into tb-sm's program (testbench/local.mk).

# The blocks alone in the harness (the spec's UT-1 .. UT-4), and tb-ccws end to end.
check_PROGRAMS += tests/sm/test_ccws
TESTS += tests/sm/test_ccws
tests_sm_test_ccws_SOURCES = tests/sm/test_ccws.c tests/sm/block_test.h
tests_sm_test_ccws_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_ccws.sh
TESTS += tests/sm/test_tb_ccws.sh

# DAWS (docs/ccws.md): the block in the harness (UT-5 .. UT-7 and the ports cycle by cycle).
check_PROGRAMS += tests/sm/test_daws
TESTS += tests/sm/test_daws
tests_sm_test_daws_SOURCES = tests/sm/test_daws.c tests/sm/block_test.h
tests_sm_test_daws_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_daws.sh
TESTS += tests/sm/test_tb_daws.sh
EXTRA_DIST += tests/sm/stats_same.py

# The per-load L1D statistics and the Belady replay (docs/ccws.md, "Per-load statistics").
dist_check_SCRIPTS += tests/sm/test_tb_l1pc.sh
TESTS += tests/sm/test_tb_l1pc.sh
EXTRA_DIST += tests/sm/ptx/l1pc.ptx tests/sm/ptx/trip.ptx

# make check-long: every workload under every tb-ccws scheduler and with sharing under every policy.
EXTRA_DIST += tests/sm/test_sched_matrix_long.sh
LONG_TESTS += tests/sm/test_sched_matrix_long.sh
