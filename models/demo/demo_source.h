/* demo_source.h — a source of `count` pseudo-random 32-bit values (GRand seeded by `seed`), one
 * per cycle at most, into an output FIFO. With rate < 100 it skips a cycle with probability
 * 1 - rate/100 (from a second GRand, so the values do not depend on the rate). Sleeps while its
 * FIFO is full and once it is done. Spec: none (framework demo). */
#ifndef GPUSC_MODELS_DEMO_DEMO_SOURCE_H
#define GPUSC_MODELS_DEMO_DEMO_SOURCE_H

#include <glib.h>

#include "models/core/block.h"

extern const blk_desc demo_source_desc;

enum { DEMO_SOURCE_OUT };
enum { DEMO_SOURCE_STAT_VALUES, DEMO_SOURCE_STAT_BUBBLES, DEMO_SOURCE_STAT_FULL_CYCLES };

typedef struct {
    blk_inst *inst;
    uint64_t count;
    unsigned rate;
    GRand *values, *bubbles;
    uint32_t produced; /* traced */
    bool blocked;      /* traced: waiting for room in the FIFO */
} demo_source;

demo_source *demo_source_new(blk_ctx *ctx, gsc_module *parent, const char *name);
/* The first n values a source with this seed produces (the reference for checkers); to g_free. */
uint32_t *demo_source_values(uint64_t seed, uint64_t n);

#endif /* GPUSC_MODELS_DEMO_DEMO_SOURCE_H */
