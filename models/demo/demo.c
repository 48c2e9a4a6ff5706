/* demo.c — the demo item type, registration of the demo blocks and presets. */
#include "models/demo/demo.h"

#include <stddef.h>

#include "models/core/config.h"

static const gsc_field demo_word_fields[] = {
    GSC_FIELD(demo_word, seq, GSC_U32, 32),
    GSC_FIELD(demo_word, value, GSC_U32, 32),
};
const gsc_type demo_word_type = GSC_TYPE(demo_word, demo_word_fields);

/* The demo's baseline: a steady stream, no back-pressure. */
static const char demo_preset[] = "[demo_source]\n"
                                  "count=64\n"
                                  "[demo_alu]\n"
                                  "latency=3\n"
                                  "op=mul\n";

/* The sink pauses 6 cycles after every 8 items: the ALU and the source stall and sleep. */
static const char demo_backpressure_preset[] = "[demo_source]\n"
                                               "count=64\n"
                                               "[demo_sink]\n"
                                               "depth=2\n"
                                               "burst=8\n"
                                               "pause=6\n";

void demo_register(void)
{
    blk_registry_add(&demo_source_desc);
    blk_registry_add(&demo_alu_desc);
    blk_registry_add(&demo_sink_desc);
    cfg_preset_register("demo", "demo pipeline, steady stream", demo_preset);
    cfg_preset_register("demo-backpressure", "demo pipeline, the sink pauses every 8 items",
                        demo_backpressure_preset);
}
