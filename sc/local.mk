# sc/: part of the top-level Makefile.am (included, non-recursive).
#
# NOTE TO THE ENGINEER WORKING ON sc/ (read before editing):
# Several engineers work in /work/main at the same time, each in their own directories.
# - Build OUT OF TREE only: mkdir -p /tmp/build-sc && cd /tmp/build-sc && /work/main/configure -q && make -j2 <targets>.
#   Never run ./configure or make inside /work/main (it breaks everyone's VPATH builds).
# - Edit only sc/, tests/sc/, bench/local.mk, bench/activation*, docs/sc-api.md, this file.
# - Commit only your paths: git add sc tests/sc bench docs/sc-api.md && git commit -m "..."
#   Never git add -A / git add . / git stash / git reset / git clean. If .git/index.lock exists, wait and retry.
# - Build and run only your own targets (other directories may be mid-edit); 2 cores: make -j2 at most.
sc_libgsc_la_SOURCES += sc/gsc.cc sc/gsc_channel.cc sc/gsc_trace.cc sc/gsc_impl.h
nobase_pkginclude_HEADERS += sc/gsc.h

# Tests of the C API (most build each system in a subprocess; test_reset builds several in one).
SC_TESTS = tests/sc/test_latch tests/sc/test_fifo tests/sc/test_sensitivity tests/sc/test_errors tests/sc/test_vcd tests/sc/test_reset \
	tests/sc/test_check
check_PROGRAMS += $(SC_TESTS)
noinst_HEADERS += tests/sc/sc_test.h
TESTS += $(SC_TESTS)
tests_sc_test_latch_LDADD = $(GPUSC_LIBS)
tests_sc_test_fifo_LDADD = $(GPUSC_LIBS)
tests_sc_test_sensitivity_LDADD = $(GPUSC_LIBS)
tests_sc_test_errors_LDADD = $(GPUSC_LIBS)
tests_sc_test_vcd_LDADD = $(GPUSC_LIBS)
tests_sc_test_reset_LDADD = $(GPUSC_LIBS)
tests_sc_test_check_LDADD = $(GPUSC_LIBS)

