/* presets.h — the built-in machine presets (INI text), one per source's baseline machine.
 * models/presets.c holds them with the source of every number; the SM-side keys are registered by
 * the SM engineer, the memory-side keys are added to the same presets by the GPU engineer. */
#ifndef GPUSC_MODELS_PRESETS_H
#define GPUSC_MODELS_PRESETS_H

/* Register every built-in preset with cfg_preset_register (idempotent). */
void presets_register(void);

#endif
