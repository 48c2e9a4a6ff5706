/* demo_word.h — the item carried by the demo pipeline's channels. */
#ifndef GPUSC_MODELS_DEMO_DEMO_WORD_H
#define GPUSC_MODELS_DEMO_DEMO_WORD_H

#include <stdint.h>

#include "sc/gsc.h"

typedef struct {
    uint32_t seq;   /* position in the source's sequence, from 0 */
    uint32_t value; /* the data */
} demo_word;

extern const gsc_type demo_word_type;

#endif /* GPUSC_MODELS_DEMO_DEMO_WORD_H */
