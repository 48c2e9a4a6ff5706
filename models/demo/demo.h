/* demo.h — the framework's demo blocks (source -> ALU -> sink), used by tb-pipeline and the
 * framework's tests until the real GPU blocks exist. */
#ifndef GPUSC_MODELS_DEMO_DEMO_H
#define GPUSC_MODELS_DEMO_DEMO_H

#include "models/demo/demo_alu.h"
#include "models/demo/demo_sink.h"
#include "models/demo/demo_source.h"
#include "models/demo/demo_word.h"

/* Register the demo descriptors and presets ("demo", "demo-backpressure"). */
void demo_register(void);

#endif /* GPUSC_MODELS_DEMO_DEMO_H */
