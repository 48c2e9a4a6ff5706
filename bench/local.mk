# bench: part of the top-level Makefile.am (included, non-recursive).

# bench/activation: the cost of one method activation through the C API against a native SC_METHOD.
noinst_PROGRAMS += bench/activation
bench_activation_SOURCES = bench/activation.cc bench/activation_c.c
bench_activation_CPPFLAGS = $(AM_CPPFLAGS) $(SYSTEMC_CFLAGS)
bench_activation_LDADD = $(GPUSC_LIBS)
