# models/lib: pure-C building blocks of the baseline machine (no SystemC, no models/core).
# Part of the top-level Makefile.am through models/local.mk (included, non-recursive).
# The objects live in their own convenience library so that their unit tests link without SystemC;
# models/libgpusc-models.la re-exports them for every program.
noinst_LTLIBRARIES += models/lib/libgpusc-lib.la
models_lib_libgpusc_lib_la_SOURCES = \
	models/lib/occupancy.c models/lib/occupancy.h \
	models/lib/cache.c models/lib/cache.h \
	models/lib/coalesce.c models/lib/coalesce.h \
	models/lib/policy.c models/lib/policy.h \
	models/lib/bankmap.c models/lib/bankmap.h \
	models/lib/pipe.c models/lib/pipe.h \
	models/lib/dram.c models/lib/dram.h \
	models/lib/icnt.c models/lib/icnt.h \
	models/lib/rfaccess.c models/lib/rfaccess.h \
	models/lib/regval.c models/lib/regval.h \
	models/lib/scoreboard.c models/lib/scoreboard.h \
	models/lib/ctaslots.c models/lib/ctaslots.h \
	models/lib/rfcache.c models/lib/rfcache.h \
	models/lib/ring.h models/lib/slots.h models/lib/wmask.h models/lib/hooks.c models/lib/hooks.h
models_libgpusc_models_la_LIBADD = models/lib/libgpusc-lib.la

GPUSC_LIB_TEST_LIBS = models/lib/libgpusc-lib.la $(GLIB_LIBS) -lm

check_PROGRAMS += tests/lib/test_occupancy
TESTS += tests/lib/test_occupancy
tests_lib_test_occupancy_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_ring
TESTS += tests/lib/test_ring
tests_lib_test_ring_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_cache
TESTS += tests/lib/test_cache
tests_lib_test_cache_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_coalesce
TESTS += tests/lib/test_coalesce
tests_lib_test_coalesce_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_policy
TESTS += tests/lib/test_policy
tests_lib_test_policy_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_bankmap
TESTS += tests/lib/test_bankmap
tests_lib_test_bankmap_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_pipe
TESTS += tests/lib/test_pipe
tests_lib_test_pipe_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_dram
TESTS += tests/lib/test_dram
tests_lib_test_dram_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_icnt
TESTS += tests/lib/test_icnt
tests_lib_test_icnt_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_rfaccess
TESTS += tests/lib/test_rfaccess
tests_lib_test_rfaccess_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_regval
TESTS += tests/lib/test_regval
tests_lib_test_regval_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_scoreboard
TESTS += tests/lib/test_scoreboard
tests_lib_test_scoreboard_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_ctaslots
TESTS += tests/lib/test_ctaslots
tests_lib_test_ctaslots_LDADD = $(GPUSC_LIB_TEST_LIBS)

check_PROGRAMS += tests/lib/test_rfcache
TESTS += tests/lib/test_rfcache
tests_lib_test_rfcache_LDADD = $(GPUSC_LIB_TEST_LIBS)
