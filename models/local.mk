# models: part of the top-level Makefile.am (included, non-recursive).
include models/lib/local.mk
# Installed blocks' headers include these (tests/install/test_headers.sh checks every installed
# header compiles from the installed set alone).
nobase_pkginclude_HEADERS += \
	models/lib/occupancy.h models/lib/cache.h models/lib/coalesce.h models/lib/policy.h \
	models/lib/bankmap.h models/lib/pipe.h models/lib/dram.h models/lib/icnt.h models/lib/rfaccess.h \
	models/lib/regval.h \
	models/lib/scoreboard.h models/lib/ctaslots.h models/lib/ring.h models/lib/slots.h models/lib/hooks.h \
	models/lib/wmask.h

include models/demo/local.mk

# The memory payloads shared by the SM and the memory side.
models_libgpusc_models_la_SOURCES += models/mem_types.c models/mem_types.h
nobase_pkginclude_HEADERS += models/mem_types.h
include models/sm/local.mk
include models/mem/local.mk
include models/topo/local.mk
include models/machines/local.mk
include models/spu/local.mk
include models/ccws/local.mk
include models/vws/local.mk
