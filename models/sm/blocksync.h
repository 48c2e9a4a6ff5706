/* blocksync.h — the interfaces between an SM's issue block and the SPU grid's inter-SM barrier
 * (bar.blocksync; docs/spu.md, SPU spec §5-7).
 *
 * A CTA arrives at bar.blocksync when all its live warps have executed it: they wait at the CTA
 * barrier SM_BLOCKSYNC_BAR (sm_env.h) as at bar.sync, and when that barrier completes issue calls
 * the grid's `arrive` instead of releasing them [A: SPU spec §5 "a CTA arrives when all its
 * non-exited warps have"]. The grid later calls issue's exported `release` (in the grid's own
 * activation); the warps go on from the next cycle. Without a binding (every machine but the SPU
 * grid) nothing changes: such a kernel is refused before it runs.
 */
#ifndef GPUSC_MODELS_SM_BLOCKSYNC_H
#define GPUSC_MODELS_SM_BLOCKSYNC_H

#include "models/core/block.h"

G_BEGIN_DECLS

typedef struct {
    /* the CTA in `slot` of SM `sm` arrived at bar.blocksync of direction `dir` (spu_dir; 0: global) */
    void (*arrive)(void *self, unsigned sm, unsigned slot, unsigned dir);
    /* unit `sm` takes part in no more barriers (an interface unit that finished; an SM's CTA end is
     * told through issue's warp_events) */
    void (*leave)(void *self, unsigned sm);
} blocksync_if;
extern const blk_iface blocksync_iface;

typedef struct {
    /* the grid releases the CTA in `slot`: its warps go on from the next cycle */
    void (*release)(void *self, unsigned slot);
} blocksync_release_if;
extern const blk_iface blocksync_release_iface;

G_END_DECLS

#endif
