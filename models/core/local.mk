# models/core: part of the top-level Makefile.am (included, non-recursive).
# The block framework: descriptors and registry, configuration, statistics, command line, test
# harness, VCD reader, GTKWave save files. Its tests live in tests/core/.
models_libgpusc_models_la_SOURCES += \
	models/core/block.c models/core/block.h models/core/port.c models/core/port.h \
	models/core/config.c models/core/config.h \
	models/core/stats.c models/core/stats.h \
	models/core/energy.c models/core/energy.h \
	models/core/cli.c models/core/cli.h \
	models/core/harness.c models/core/harness.h \
	models/core/vcd.c models/core/vcd.h \
	models/core/gtkw.c models/core/gtkw.h \
	models/core/outfile.c models/core/outfile.h
nobase_pkginclude_HEADERS += \
	models/core/block.h models/core/port.h models/core/config.h models/core/stats.h models/core/cli.h \
	models/core/energy.h \
	models/core/harness.h models/core/vcd.h models/core/gtkw.h

CORE_TESTS = tests/core/test_block tests/core/test_config tests/core/test_stats \
	tests/core/test_harness tests/core/test_port tests/core/test_vcd tests/core/test_tb_pipeline \
	tests/core/test_energy
check_PROGRAMS += $(CORE_TESTS)
TESTS += $(CORE_TESTS)
tests_core_test_block_LDADD = $(GPUSC_LIBS)
tests_core_test_config_LDADD = $(GPUSC_LIBS)
tests_core_test_stats_LDADD = $(GPUSC_LIBS)
tests_core_test_harness_LDADD = $(GPUSC_LIBS)
tests_core_test_port_LDADD = $(GPUSC_LIBS)
tests_core_test_vcd_LDADD = $(GPUSC_LIBS)
tests_core_test_energy_LDADD = $(GPUSC_LIBS)
# Only the VCD reader: the program under test is run as a separate process.
tests_core_test_tb_pipeline_SOURCES = tests/core/test_tb_pipeline.c models/core/vcd.c
tests_core_test_tb_pipeline_CFLAGS = $(AM_CFLAGS)
tests_core_test_tb_pipeline_LDADD = $(GLIB_LIBS)
# The demo blocks in the check modes of sc/ (tb-pipeline's statistics as in the normal run).
TESTS += tests/core/test_tb_pipeline_modes.sh
dist_check_SCRIPTS += tests/core/test_tb_pipeline_modes.sh

# The configuration loader's libFuzzer target (models/core/fuzz/fuzz_config.c): clang only, like the
# PTX fuzzer (kernels/frontend/local.mk). The loader and the registry (config.c, block.c, and the
# file reader they use) are compiled in with clang's coverage; the rest they refer to comes from the
# built libgpusc. Run by tests/core/fuzz_config_short.sh on a copy of models/core/fuzz/corpus/.
FUZZ_CONFIG_SRCS = $(top_srcdir)/models/core/fuzz/fuzz_config.c $(top_srcdir)/models/core/config.c \
	$(top_srcdir)/models/core/block.c $(top_srcdir)/kernels/frontend/hostfile.c
if HAVE_CLANG
if !SANITIZERS
check_SCRIPTS += models/core/fuzz/fuzz_config
endif
endif
CLEANFILES += models/core/fuzz/fuzz_config
models/core/fuzz/fuzz_config: $(FUZZ_CONFIG_SRCS) libgpusc.la
	@$(MKDIR_P) models/core/fuzz
	$(AM_V_CC)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  -I$(top_srcdir) -I$(top_builddir) $(GLIB_CFLAGS) $(FUZZ_CONFIG_SRCS) \
	  -L$(top_builddir)/.libs -lgpusc -Wl,-rpath,$(abs_top_builddir)/.libs $(GLIB_LIBS) -lm -o $@
NOSAN_TESTS += tests/core/fuzz_config_short.sh
EXTRA_DIST += tests/core/fuzz_config_short.sh tests/fuzz_short.sh models/core/fuzz/fuzz_config.c \
	models/core/fuzz/ini.dict models/core/fuzz/corpus
