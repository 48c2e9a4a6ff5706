/* cta_dispatch.h — `cta_dispatch`: places the thread blocks (CTAs) of a grid on the SMs under the
 * occupancy limits (models/lib/occupancy.h: registers per thread x threads padded to whole warps,
 * scratchpad per CTA, threads, warps and CTA slots per SM), with a pluggable choice of SM
 * (models/lib/ctaslots.h; default round-robin, GPGPU-Sim style; resource sharing replaces it).
 * Spec: resource-sharing-and-greener.md §2.1; docs/baseline-design.md §2.2 cta_dispatch.
 *
 * Ports: per SM s, out `cta_launch` (s = 0) / `cta_launch<s>` and in `cta_done` / `cta_done<s>`.
 * Per cycle: take CTA completions (free their resources); then for each SM in pick order, place at
 * most one CTA per SM per cycle [A] while CTAs remain and the SM has room. When the last CTA of the
 * grid completes, the run stops (gsc_stop): the testbench's launch returns.
 * Sleeps when nothing can be placed until a completion arrives or a grid starts.
 */
#ifndef GPUSC_MODELS_SM_CTA_DISPATCH_H
#define GPUSC_MODELS_SM_CTA_DISPATCH_H

#include "models/core/block.h"
#include "models/lib/ctaslots.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum { CTA_DISPATCH_STAT_CTAS, CTA_DISPATCH_STAT_GRIDS, CTA_DISPATCH_STAT_CTAS_PER_SM };

typedef struct {
    blk_inst *inst;
    sm_env *env;
    unsigned n_sms;
    gsc_port **launch, **done; /* per SM */
    ctaslots **slots;
    ctaslots_pick_fn pick;
    void *pick_ctx;
    occupancy_sm occ;
    occupancy_kernel k;
    occupancy_result res;
    gsc_event *start;
    bool running;
    uint32_t next, total, completed;
    int last;
    uint32_t tr_next, tr_completed;
} cta_dispatch;

extern const blk_desc cta_dispatch_desc;
cta_dispatch *cta_dispatch_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env,
                               unsigned n_sms);
void cta_dispatch_free(cta_dispatch *d);
gsc_port *cta_dispatch_port_launch(const cta_dispatch *d, unsigned sm);
gsc_port *cta_dispatch_port_done(const cta_dispatch *d, unsigned sm);
/* The SM limits (the SM topology's parameters). */
void cta_dispatch_set_limits(cta_dispatch *d, const occupancy_sm *occ);
void cta_dispatch_set_pick(cta_dispatch *d, ctaslots_pick_fn fn, void *ctx);
/* Start the grid in env->launch (between runs). False with a message ("kernel K: a CTA needs ...")
 * when not even one CTA fits an SM. The caller then runs the simulation until it stops. */
bool cta_dispatch_start(cta_dispatch *d, GString *err);
bool cta_dispatch_done(const cta_dispatch *d);
/* CTAs per SM for the current grid (occupancy). */
const occupancy_result *cta_dispatch_occupancy(const cta_dispatch *d);

G_END_DECLS

#endif
