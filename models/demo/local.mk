# models/demo: the framework's demo blocks (source -> ALU -> sink), used by testbench/tb-pipeline.
# Included from models/local.mk.
models_libgpusc_models_la_SOURCES += \
	models/demo/demo.c models/demo/demo.h models/demo/demo_word.h \
	models/demo/demo_source.c models/demo/demo_source.h \
	models/demo/demo_alu.c models/demo/demo_alu.h \
	models/demo/demo_sink.c models/demo/demo_sink.h
nobase_pkginclude_HEADERS += \
	models/demo/demo.h models/demo/demo_word.h models/demo/demo_source.h \
	models/demo/demo_alu.h models/demo/demo_sink.h
