/* vws_sync.h — the reconvergence-sync insertion pass of variable warp sizing (E-VWS-Sync<XX>;
 * docs/vws.md "Sync"; CCWS/DAWS/VWS spec §0.2 pass 3, §7.5).
 *
 * A sync point is placed at the immediate post-dominator of every potentially divergent branch (a
 * guarded `bra` not marked `.uni`): the first instruction of the block where the branch's lanes
 * reconverge (cfg_compute_reconvergence). A branch whose lanes reconverge only at the function's
 * exit gets none. The points form a side table keyed by (function, instruction index), so the PTX
 * does not change; the ganging unit looks a warp's next instruction up in it: a warp that reaches a
 * sync point waits there up to XX cycles for its original gang's other warps to re-gang.
 */
#ifndef GPUSC_KERNELS_VWS_SYNC_H
#define GPUSC_KERNELS_VWS_SYNC_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/frontend/ir.h"

G_BEGIN_DECLS

typedef struct {
    unsigned n_funcs;
    uint32_t *n_instrs; /* per function */
    uint8_t **at;       /* per function, per instruction index: 1 at a sync point */
    unsigned n_points;  /* sync points in the module */
} vws_sync;

/* The pass over every function of m (computes the reconvergence points). */
vws_sync *vws_sync_build(ir_module *m);
void vws_sync_free(vws_sync *s);
/* Whether instruction pc of function func is a sync point. */
static inline bool vws_sync_at(const vws_sync *s, uint32_t func, uint32_t pc)
{
    return func < s->n_funcs && pc < s->n_instrs[func] && s->at[func][pc];
}

G_END_DECLS

#endif
