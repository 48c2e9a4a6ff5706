/* presets.h — the built-in machine presets (INI text), one per source's baseline machine, each
 * saying which machines it describes (a preset of a sub-core SM does not describe the monolithic
 * one-SM machine). models/machines/presets.c holds them with the source of every number. */
#ifndef GPUSC_MODELS_MACHINES_PRESETS_H
#define GPUSC_MODELS_MACHINES_PRESETS_H

#include "models/machines/machine.h"

G_BEGIN_DECLS

/* Register every built-in preset with cfg_preset_register (idempotent). */
void presets_register(void);
/* The machines preset `name` describes, as a mask of (1u << machine_kind); 0 for no built-in preset. */
unsigned presets_machines(const char *name);

G_END_DECLS

#endif
