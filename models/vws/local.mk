# models/vws: variable warp sizing (docs/vws.md): the SM's warp width, and its tests. Included from
# models/local.mk.
dist_check_SCRIPTS += tests/sm/test_tb_warp_size.sh
TESTS += tests/sm/test_tb_warp_size.sh

# The gang table and the warp ganging unit, and tb-vws.
models_libgpusc_models_la_SOURCES += models/vws/gang.c models/vws/gang.h models/vws/gang_unit.c \
	models/vws/gang_unit.h
nobase_pkginclude_HEADERS += models/vws/gang.h models/vws/gang_unit.h

# tb-vws is built into tb-sm's program (testbench/local.mk).

# The gang table on the spec's UT-9 cases and the gang_unit block in the harness; tb-vws end to end.
check_PROGRAMS += tests/sm/test_gang
TESTS += tests/sm/test_gang
tests_sm_test_gang_SOURCES = tests/sm/test_gang.c tests/sm/block_test.h
tests_sm_test_gang_LDADD = $(GPUSC_LIBS)
dist_check_SCRIPTS += tests/sm/test_tb_vws.sh
SLOW_TESTS += tests/sm/test_tb_vws.sh
# Lane slices (sm.slicing=warp): slices issuing in the same cycle, the gang fetch, merged accesses.
dist_check_SCRIPTS += tests/sm/test_vws_slices.sh
TESTS += tests/sm/test_vws_slices.sh

# The area model (spec UT-10).
models_libgpusc_models_la_SOURCES += models/vws/area.c models/vws/area.h
nobase_pkginclude_HEADERS += models/vws/area.h
check_PROGRAMS += tests/sm/test_vws_area
TESTS += tests/sm/test_vws_area
tests_sm_test_vws_area_LDADD = models/libgpusc-models.la $(GLIB_LIBS) -lm
# The ganging unit's results do not depend on the order of activations or on sleeping blocks.
dist_check_SCRIPTS += tests/sm/test_vws_check_modes.sh
SLOW_TESTS += tests/sm/test_vws_check_modes.sh
# make check-long: every workload at every warp size and under every ganging policy at widths 4 and 8.
dist_check_SCRIPTS += tests/sm/test_vws_matrix_long.sh
LONG_TESTS += tests/sm/test_vws_matrix_long.sh
