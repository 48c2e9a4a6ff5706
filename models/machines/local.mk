# models/machines: the machines (one SM + mem_fixed, one sub-core SM + mem_fixed, the GPU) above the
# topologies, and the presets that describe them. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/machines/machine.c models/machines/machine.h \
	models/machines/presets.c models/machines/presets.h
nobase_pkginclude_HEADERS += models/machines/machine.h models/machines/presets.h
# The SPU grid (docs/spu.md): its own file, built around the gpu topology.
models_libgpusc_models_la_SOURCES += models/machines/spu_grid.c models/machines/spu_grid.h
nobase_pkginclude_HEADERS += models/machines/spu_grid.h
