# kernels/semantics.mk: included from kernels/local.mk.
kernels_libgpusc_kernels_core_la_SOURCES += kernels/ir_exec.c
nobase_pkginclude_HEADERS += kernels/ir_exec.h
