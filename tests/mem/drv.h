/* drv.h — a test driver for memory-side blocks whose ports are created per node (icnt, dram), which
 * harness.h cannot drive: the test creates the block under drv_mod(), binds each port with
 * drv_in/drv_out, queues items with the cycle they may be put, runs, and pops what came out with the
 * cycle the driver got it. As in harness.h: an item put by the driver in cycle t is visible to the
 * block in t+1; an item the block puts in cycle t is got by the driver in t+1. */
#ifndef GPUSC_TESTS_MEM_DRV_H
#define GPUSC_TESTS_MEM_DRV_H

#include "models/core/block.h"

typedef struct drv drv;
typedef struct drv_chan drv_chan;

/* settings: NULL-terminated "section.key=value" strings (as --set). */
drv *drv_new(const char *const *settings);
blk_ctx *drv_ctx(drv *d);
gsc_module *drv_mod(drv *d);
drv_chan *drv_in(drv *d, gsc_port *port, const gsc_type *t, unsigned depth);
drv_chan *drv_out(drv *d, gsc_port *port, const gsc_type *t, unsigned depth);
/* Put `item` in the first cycle >= at with room (in queue order per channel). */
void drv_push(drv_chan *c, uint64_t at, const void *item);
bool drv_pop(drv_chan *c, void *item, uint64_t *cycle);
unsigned drv_count(drv_chan *c); /* items got and not popped */
void drv_set_drain(drv_chan *c, bool drain);
void drv_run(drv *d, unsigned cycles);
uint64_t drv_cycle(drv *d); /* the last cycle run */
void drv_free(drv *d);

#endif
