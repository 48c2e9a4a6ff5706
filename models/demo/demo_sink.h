/* demo_sink.h — the end of the demo pipeline: takes at most one item per cycle from its input
 * FIFO (depth `depth`), checks it against an expected sequence, and applies back-pressure by
 * pausing `pause` cycles after every `burst` items (burst 0: never). Stops the simulation once
 * it has received every expected item. Sleeps while its FIFO is empty. Spec: none (demo). */
#ifndef GPUSC_MODELS_DEMO_DEMO_SINK_H
#define GPUSC_MODELS_DEMO_DEMO_SINK_H

#include "models/core/block.h"
#include "models/demo/demo_word.h"

extern const blk_desc demo_sink_desc;

enum { DEMO_SINK_IN };
enum { DEMO_SINK_STAT_RECEIVED, DEMO_SINK_STAT_MISMATCHES, DEMO_SINK_STAT_PAUSE_CYCLES };

typedef struct {
    blk_inst *inst;
    uint64_t burst, pause;
    const uint32_t *expected; /* not owned; NULL: no checks */
    uint64_t n_expected;      /* stop after that many items (0: never) */
    uint32_t received;        /* traced */
    uint32_t last_value;      /* traced */
    bool paused;              /* traced */
    uint64_t paused_until;
} demo_sink;

demo_sink *demo_sink_new(blk_ctx *ctx, gsc_module *parent, const char *name);
/* Check item seq i against expected[i] (i < n); stop the simulation after n items. */
void demo_sink_expect(demo_sink *s, const uint32_t *expected, uint64_t n);

#endif /* GPUSC_MODELS_DEMO_DEMO_SINK_H */
