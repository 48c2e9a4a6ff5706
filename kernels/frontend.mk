# kernels/frontend.mk: included from kernels/local.mk.
# The PTX front end: lexer, parser, IR data structures and printer (docs/ptx-frontend.md).
kernels_libgpusc_kernels_core_la_SOURCES += \
	kernels/ir.c \
	kernels/ptx_lex.c kernels/ptx_lex.h \
	kernels/ptx_parse.c
nobase_pkginclude_HEADERS += kernels/ir.h kernels/ptx_parse.h
