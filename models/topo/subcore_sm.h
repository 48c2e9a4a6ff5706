/* subcore_sm.h — the `subcore_sm` topology: an SM of P partitions (default 4), each with its own
 * scheduler, register banks, collectors and execution units (an `exec` block per partition), sharing
 * fetch, the LD/ST unit, the scratchpad and the L1 (Kepler/Maxwell/Turing style; RF-cache (Malekeh) spec
 * §2.1). Warp w runs on partition w mod P. It is built by sm_topo_new(..., subcore = true) and has the
 * same external ports as `sm` (sm.h); its parameters are the [subcore_sm] section (partitions) and
 * issue.schedulers must equal the partitions (the subcore presets set both).
 */
#ifndef GPUSC_MODELS_TOPO_SUBCORE_SM_H
#define GPUSC_MODELS_TOPO_SUBCORE_SM_H

#include "models/topo/sm.h"

static inline sm_topo *subcore_sm_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned sm_id,
                                      sm_env *env)
{
    return sm_topo_new(ctx, parent, name, sm_id, env, true);
}

#endif
