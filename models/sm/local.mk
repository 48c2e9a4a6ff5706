# models/sm: the SM blocks (fetch, decode, issue, opcoll, regfile, execution units, ldst, writeback,
# barrier, cta_dispatch), the sm/subcore_sm topologies and their tests. Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/sm/payloads.c models/sm/payloads.h models/sm/sm_env.h \
	models/sm/warp_exec.c models/sm/warp_exec.h
nobase_pkginclude_HEADERS += models/sm/payloads.h models/sm/sm_env.h
