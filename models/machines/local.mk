# models/machines: the machines (one SM + mem_fixed, one sub-core SM + mem_fixed, the GPU) above the
# topologies, and the presets that describe them. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/machines/machine.c models/machines/machine.h \
	models/machines/presets.c models/machines/presets.h
nobase_pkginclude_HEADERS += models/machines/machine.h models/machines/presets.h
