# sc/: part of the top-level Makefile.am (included, non-recursive).

sc_libgsc_la_SOURCES += sc/gsc.cc sc/gsc_channel.cc sc/gsc_trace.cc sc/gsc_host.cc sc/gsc_impl.h
nobase_pkginclude_HEADERS += sc/gsc.h

# Tests of the C API (most build each system in a subprocess; test_reset builds several in one).
SC_TESTS = tests/sc/test_latch tests/sc/test_fifo tests/sc/test_sensitivity tests/sc/test_errors tests/sc/test_vcd tests/sc/test_reset \
	tests/sc/test_check tests/sc/test_host tests/sc/test_lane
check_PROGRAMS += $(SC_TESTS)
noinst_HEADERS += tests/sc/sc_test.h
TESTS += $(SC_TESTS) tests/sc/test_no_lane.sh
dist_check_SCRIPTS += tests/sc/test_no_lane.sh
tests_sc_test_latch_LDADD = $(GPUSC_LIBS)
tests_sc_test_fifo_LDADD = $(GPUSC_LIBS)
tests_sc_test_sensitivity_LDADD = $(GPUSC_LIBS)
tests_sc_test_errors_LDADD = $(GPUSC_LIBS)
tests_sc_test_vcd_LDADD = $(GPUSC_LIBS)
tests_sc_test_reset_LDADD = $(GPUSC_LIBS)
tests_sc_test_check_LDADD = $(GPUSC_LIBS)
tests_sc_test_host_LDADD = $(GPUSC_LIBS)
tests_sc_test_lane_LDADD = $(GPUSC_LIBS)

