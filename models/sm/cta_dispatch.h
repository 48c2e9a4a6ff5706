/* cta_dispatch.h — `cta_dispatch`: places the thread blocks (CTAs) of a grid on the SMs under the
 * occupancy limits (models/lib/occupancy.h: registers per thread x threads padded to whole warps,
 * scratchpad per CTA, threads, warps and CTA slots per SM), with two pluggable decisions:
 *  - the choice of SM (cta_dispatch_set_pick, a ctaslots_pick_fn; default: round-robin from the SM
 *    served last over the SMs the grant policy says fit, GPGPU-Sim style);
 *  - the per-CTA grant (cta_dispatch_set_alloc): whether a CTA fits an SM now, the resources it gets
 *    (warp slots, registers, scratchpad range, CTA slot) and their release at its completion. The
 *    default is the ledger's occupancy rule (models/lib/ctaslots.h); resource sharing
 *    (resource-sharing/GREENER spec §2.2-2.3: paired CTAs sharing registers or scratchpad) replaces
 *    it, and may keep the ledger for the unshared part.
 * Spec: resource-sharing/GREENER spec §2.1; docs/baseline-design.md §2.2 cta_dispatch.
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

/* The per-CTA grant (allocation policy). `slots` is SM `sm`'s ledger, which the policy may use or
 * ignore. fits: can a CTA of k be placed on the SM now (the default SM choice asks it); grant: place
 * it, fill *g (false: not placeable this cycle, nothing changed); release: the CTA in `done` has
 * completed on the SM, free what it was granted. */
typedef struct {
    bool (*fits)(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k);
    bool (*grant)(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k, ctaslots_grant *g);
    void (*release)(void *ctx, ctaslots *slots, unsigned sm, const cta_done_t *done);
    void *ctx;
} cta_dispatch_alloc;

enum { CTA_DISPATCH_STAT_CTAS, CTA_DISPATCH_STAT_GRIDS, CTA_DISPATCH_STAT_CTAS_PER_SM };
enum { CTA_DISPATCH_LAUNCH, CTA_DISPATCH_DONE, CTA_DISPATCH_PICK, CTA_DISPATCH_GRANT };
#define CTA_DISPATCH_MAX_SMS 1024

/* The `pick` import (optional): the SM choice, as ctaslots_pick_fn with its context first. */
typedef struct {
    int (*pick)(ctaslots *const *sms, unsigned n, const occupancy_kernel *k, int last, void *self);
} cta_pick_if;
extern const blk_iface cta_pick_iface;

/* The `grant` import (optional): the per-CTA grant, as cta_dispatch_alloc's functions. */
typedef struct {
    bool (*fits)(void *self, ctaslots *slots, unsigned sm, const occupancy_kernel *k);
    bool (*grant)(void *self, ctaslots *slots, unsigned sm, const occupancy_kernel *k, ctaslots_grant *g);
    void (*release)(void *self, ctaslots *slots, unsigned sm, const cta_done_t *done);
} cta_grant_if;
extern const blk_iface cta_grant_iface;

typedef struct {
    blk_inst *inst;
    sm_env *env;
    unsigned n_sms;
    gsc_port **launch, **done; /* per SM */
    ctaslots **slots;
    ctaslots_pick_fn pick; /* NULL: round-robin over alloc.fits */
    void *pick_ctx;
    const struct cta_dispatch_order *order; /* NULL: CTAs in index order */
    void *order_ctx;
    cta_dispatch_alloc alloc;
    occupancy_sm occ;
    occupancy_kernel k;
    occupancy_result res;
    gsc_event *start;
    bool running;
    uint64_t start_at; /* the cycle the grid's launch begins in (start fires then) */
    uint32_t next, total, completed;
    int last;
    uint32_t tr_next, tr_completed;
    /* cta_dispatch_extra: per SM its CTA and state (0 none, 1 to place, 2 placed); NULL: none yet */
    cta_launch_t *extra;
    uint8_t *extra_state;
    unsigned n_extra_wait;
} cta_dispatch;

extern const blk_desc cta_dispatch_desc;
cta_dispatch *cta_dispatch_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env,
                               unsigned n_sms);
void cta_dispatch_free(cta_dispatch *d);
gsc_port *cta_dispatch_port_launch(const cta_dispatch *d, unsigned sm);
gsc_port *cta_dispatch_port_done(const cta_dispatch *d, unsigned sm);
/* The SM limits (the SM topology's parameters). */
void cta_dispatch_set_limits(cta_dispatch *d, const occupancy_sm *occ);
/* The SM choice (NULL: the default round-robin). A pick may return an SM the grant then refuses:
 * nothing more is placed until a CTA completes or a launch FIFO frees room (the dispatcher sleeps
 * until then: a policy's refusals must depend only on what completions change). */
void cta_dispatch_set_pick(cta_dispatch *d, ctaslots_pick_fn fn, void *ctx);
/* The CTA order (the SPU's passes): next returns the SM and the CTA (its index in the grid) to place
 * now, or -1; placed tells it the CTA went there (a refused grant places nothing), done that a CTA
 * of the SM completed. NULL: CTAs in index order on the pick's SMs. */
typedef struct cta_dispatch_order {
    int (*next)(void *ctx, uint32_t *cta);
    void (*placed)(void *ctx, unsigned sm, uint32_t cta);
    void (*done)(void *ctx, unsigned sm);
    /* a CTA outside the grid (cta_dispatch_extra) completed on SM sm (NULL: the order asks for none) */
    void (*extra_done)(void *ctx, unsigned sm);
} cta_dispatch_order;
void cta_dispatch_set_order(cta_dispatch *d, const cta_dispatch_order *o, void *ctx);
/* A CTA outside the grid on SM sm (the SPU's interface-unit role run by the SM): `c` gives its
 * own_entry, parameters, threads (one warp at most) and ctaid; placed as soon as the grant gives the
 * SM room (with the grid kernel's occupancy), before the grid's next CTA; its completion frees its
 * grant and calls the order's extra_done, and counts neither as the grid's CTA nor toward its end.
 * One at a time per SM, while a grid runs. */
void cta_dispatch_extra(cta_dispatch *d, unsigned sm, const cta_launch_t *c);
/* Look again next cycle (an order whose next CTA became placeable without a completion). */
void cta_dispatch_wake(cta_dispatch *d);
/* The per-CTA grant (NULL: the default, the ledger's occupancy rule). Set it between grids. */
void cta_dispatch_set_alloc(cta_dispatch *d, const cta_dispatch_alloc *a);
/* The default grant's functions (a policy may wrap them). */
bool cta_dispatch_ledger_fits(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k);
bool cta_dispatch_ledger_grant(void *ctx, ctaslots *slots, unsigned sm, const occupancy_kernel *k,
                               ctaslots_grant *g);
void cta_dispatch_ledger_release(void *ctx, ctaslots *slots, unsigned sm, const cta_done_t *done);
/* Start the grid in env->launch (between runs). False with a message ("kernel K: a CTA needs ...")
 * when not even one CTA fits an SM. The caller then runs the simulation until it stops. */
bool cta_dispatch_start(cta_dispatch *d, GString *err);
bool cta_dispatch_done(const cta_dispatch *d);
/* CTAs of the running (or last) grid that have finished. */
uint32_t cta_dispatch_completed(const cta_dispatch *d);
/* CTAs per SM for the current grid (occupancy). */
const occupancy_result *cta_dispatch_occupancy(const cta_dispatch *d);

G_END_DECLS

#endif
