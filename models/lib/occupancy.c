/* occupancy.c — CTAs per SM under register, scratchpad, thread, warp and CTA-slot limits.
 * resource-sharing/GREENER spec §2.1; conventions in occupancy.h. */
#include "models/lib/occupancy.h"

#include <limits.h>

G_DEFINE_QUARK(gpusc - occupancy - error - quark, occupancy_error)

static const char *const limit_names[OCCUPANCY_LIMIT_COUNT] = {
    [OCCUPANCY_LIMIT_REGS] = "registers",  [OCCUPANCY_LIMIT_SMEM] = "shared memory",
    [OCCUPANCY_LIMIT_THREADS] = "threads", [OCCUPANCY_LIMIT_WARPS] = "warps",
    [OCCUPANCY_LIMIT_CTAS] = "CTA slots",
};

static const char *const limit_keys[OCCUPANCY_LIMIT_COUNT] = {
    [OCCUPANCY_LIMIT_REGS] = "registers",  [OCCUPANCY_LIMIT_SMEM] = "scratchpad",
    [OCCUPANCY_LIMIT_THREADS] = "threads", [OCCUPANCY_LIMIT_WARPS] = "warps",
    [OCCUPANCY_LIMIT_CTAS] = "ctas",
};

const char *occupancy_limit_key(occupancy_limit l)
{
    g_return_val_if_fail(l < OCCUPANCY_LIMIT_COUNT, "?");
    return limit_keys[l];
}

const char *occupancy_limit_name(occupancy_limit l)
{
    g_return_val_if_fail(l < OCCUPANCY_LIMIT_COUNT, "?");
    return limit_names[l];
}

void occupancy_sm_init_gtx480(occupancy_sm *sm)
{
    *sm = (occupancy_sm){
        .warp_size = 32,
        .regs_per_sm = 32768,
        .reg_unit = 4,
        .reg_warp_granularity = 1,
        .smem_per_sm = 49152,
        .smem_unit = 1,
        .max_threads = 1536,
        .max_warps = 0,
        .max_ctas = 8,
        .max_regs_per_thread = 63,
    };
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
    return (v + unit - 1) / unit * unit;
}

/* CTAs that `capacity` holds at `need` each; a zero need is no limit. */
static unsigned ctas_allowed(uint64_t capacity, uint64_t need)
{
    if (need == 0)
        return UINT_MAX;
    uint64_t n = capacity / need;
    return n > UINT_MAX ? UINT_MAX : (unsigned)n;
}

static bool check_limits(const occupancy_sm *sm, const occupancy_kernel *k, GError **err)
{
    const char *bad = NULL;
    if (sm->warp_size == 0)
        bad = "warp size is 0";
    else if (sm->reg_unit == 0 || sm->reg_warp_granularity == 0 || sm->smem_unit == 0)
        bad = "an allocation unit is 0";
    else if (k->threads_per_cta == 0)
        bad = "the kernel has 0 threads per CTA";
    if (bad) {
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_INVALID, "occupancy: %s", bad);
        return false;
    }
    unsigned cta_warps = (k->threads_per_cta + sm->warp_size - 1) / sm->warp_size;
    if (cta_warps > OCCUPANCY_MAX_CTA_WARPS) {
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "a CTA of %u threads is %u warps of %u threads: at most %u warps of a CTA can meet at a "
                    "barrier",
                    k->threads_per_cta, cta_warps, sm->warp_size, OCCUPANCY_MAX_CTA_WARPS);
        return false;
    }
    if (sm->max_regs_per_thread && k->regs_per_thread > sm->max_regs_per_thread) {
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "%u registers per thread is more than the SM allows (%u)", k->regs_per_thread,
                    sm->max_regs_per_thread);
        return false;
    }
    return true;
}

/* "a CTA needs 9216 registers (36 per thread, rounded to 36, x 256 threads) but the SM has 8192". */
static void set_no_fit_error(const occupancy_sm *sm, const occupancy_kernel *k, const occupancy_result *r,
                             occupancy_limit l, GError **err)
{
    unsigned max_warps = sm->max_warps ? sm->max_warps : sm->max_threads / sm->warp_size;
    switch (l) {
    case OCCUPANCY_LIMIT_REGS:
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "a CTA needs %" G_GUINT64_FORMAT " registers (%u per thread x %u threads after "
                    "rounding) but the SM has %u",
                    r->regs_per_cta, k->regs_per_thread, r->padded_threads, sm->regs_per_sm);
        break;
    case OCCUPANCY_LIMIT_SMEM:
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "a CTA needs %" G_GUINT64_FORMAT " bytes of shared memory (%u static + %u dynamic) "
                    "but the SM has %u",
                    r->smem_per_cta, k->smem_static, k->smem_dynamic, sm->smem_per_sm);
        break;
    case OCCUPANCY_LIMIT_THREADS:
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "a CTA needs %u threads (%u rounded up to whole warps) but the SM has %u",
                    r->padded_threads, k->threads_per_cta, sm->max_threads);
        break;
    case OCCUPANCY_LIMIT_WARPS:
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "a CTA needs %u warps but the SM has %u", r->warps_per_cta, max_warps);
        break;
    case OCCUPANCY_LIMIT_CTAS:
    default:
        g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_DOES_NOT_FIT,
                    "a CTA needs 1 CTA slot but the SM has %u", sm->max_ctas);
        break;
    }
}

bool occupancy_compute(const occupancy_sm *sm, const occupancy_kernel *k, occupancy_result *out, GError **err)
{
    g_return_val_if_fail(sm && k && out, false);
    if (!check_limits(sm, k, err))
        return false;

    occupancy_result r = {0};
    r.warps_per_cta = (k->threads_per_cta + sm->warp_size - 1) / sm->warp_size;
    r.padded_threads = r.warps_per_cta * sm->warp_size;
    uint64_t regs_thread = round_up(k->regs_per_thread, sm->reg_unit);
    uint64_t regs_warp = round_up(regs_thread * sm->warp_size, sm->reg_warp_granularity);
    r.regs_per_cta = regs_warp * r.warps_per_cta;
    r.smem_per_cta = round_up((uint64_t)k->smem_static + k->smem_dynamic, sm->smem_unit);
    unsigned max_warps = sm->max_warps ? sm->max_warps : sm->max_threads / sm->warp_size;

    r.by_resource[OCCUPANCY_LIMIT_REGS] = ctas_allowed(sm->regs_per_sm, r.regs_per_cta);
    r.by_resource[OCCUPANCY_LIMIT_SMEM] = ctas_allowed(sm->smem_per_sm, r.smem_per_cta);
    r.by_resource[OCCUPANCY_LIMIT_THREADS] = ctas_allowed(sm->max_threads, r.padded_threads);
    r.by_resource[OCCUPANCY_LIMIT_WARPS] = ctas_allowed(max_warps, r.warps_per_cta);
    r.by_resource[OCCUPANCY_LIMIT_CTAS] = sm->max_ctas;

    r.limiter = OCCUPANCY_LIMIT_REGS;
    for (unsigned l = 1; l < OCCUPANCY_LIMIT_COUNT; l++)
        if (r.by_resource[l] < r.by_resource[r.limiter])
            r.limiter = (occupancy_limit)l;
    r.ctas = r.by_resource[r.limiter];
    if (r.ctas == 0) {
        set_no_fit_error(sm, k, &r, r.limiter, err);
        return false;
    }
    r.regs_unused = sm->regs_per_sm - (uint64_t)r.ctas * r.regs_per_cta;
    r.smem_unused = sm->smem_per_sm - (uint64_t)r.ctas * r.smem_per_cta;
    *out = r;
    return true;
}
