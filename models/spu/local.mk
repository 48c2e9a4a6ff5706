# models/spu: the Stencil Processing Unit's blocks (docs/spu.md). Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/spu/spu_cb.c models/spu/spu_cb.h models/spu/spu_ctl.c models/spu/spu_ctl.h \
	models/spu/spu_iu.c models/spu/spu_iu.h models/spu/spu_iu_code.c models/spu/spu_iu_code.h \
	models/spu/spu_passes.c models/spu/spu_passes.h
nobase_pkginclude_HEADERS += models/spu/spu_cb.h models/spu/spu_ctl.h models/spu/spu_iu.h \
	models/spu/spu_iu_code.h models/spu/spu_passes.h
include tests/spu/local.mk
