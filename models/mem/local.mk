# models/mem: the memory-side blocks (icnt, l2, dram), the gpu topology and their tests. Included
# from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/mem/slots.h \
	models/mem/icnt_blk.c models/mem/icnt_blk.h \
	models/mem/dram_blk.c models/mem/dram_blk.h \
	models/mem/l2.c models/mem/l2.h
nobase_pkginclude_HEADERS += models/mem/slots.h models/mem/icnt_blk.h models/mem/dram_blk.h models/mem/l2.h
