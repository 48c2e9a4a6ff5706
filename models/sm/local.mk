# models/sm: the SM blocks (fetch, decode, issue, opcoll, regfile, execution units, ldst, writeback,
# barrier, cta_dispatch), the sm/subcore_sm topologies and their tests. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/sm/payloads.c models/sm/payloads.h models/sm/sm_env.h \
	models/sm/warp_exec.c models/sm/warp_exec.h
nobase_pkginclude_HEADERS += models/sm/payloads.h models/sm/sm_env.h
models_libgpusc_models_la_SOURCES += \
	models/sm/fetch.c models/sm/fetch.h models/sm/issue.c models/sm/issue.h \
	models/sm/exec.c models/sm/exec.h models/sm/ldst.c models/sm/ldst.h \
	models/sm/mem_fixed.c models/sm/mem_fixed.h models/sm/cta_dispatch.c models/sm/cta_dispatch.h \
	models/topo/sm.c models/topo/sm.h models/topo/subcore_sm.h \
	models/presets.c models/presets.h
nobase_pkginclude_HEADERS += models/sm/warp_exec.h models/sm/fetch.h models/sm/issue.h models/sm/exec.h \
	models/sm/ldst.h models/sm/mem_fixed.h models/sm/cta_dispatch.h models/topo/sm.h \
	models/topo/subcore_sm.h models/presets.h
