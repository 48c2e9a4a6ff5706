# models/topo: the topologies (an SM of either organisation, the GPU): files that instantiate blocks and
# bind their ports, with no behaviour. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/topo/sm.c models/topo/sm.h models/topo/subcore_sm.h \
	models/topo/gpu.c models/topo/gpu.h
nobase_pkginclude_HEADERS += models/topo/sm.h models/topo/subcore_sm.h models/topo/gpu.h
