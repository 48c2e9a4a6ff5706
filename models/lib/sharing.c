/* sharing.c — see sharing.h. */
#include "models/lib/sharing.h"
#include "models/lib/wmask.h"

#include <stdio.h>
#include <string.h>

static bool bad(GError **err, const char *fmt, const char *s, const char *range)
{
    g_set_error(err, OCCUPANCY_ERROR, OCCUPANCY_ERROR_INVALID, fmt, s, range);
    return false;
}

/* A non-negative decimal "12", "0.25", ".5" as num / 10^k (at most 9 decimals). */
static bool parse_decimal(const char *s, uint64_t *num, uint64_t *den)
{
    uint64_t n = 0, d = 1;
    bool digits = false, point = false;
    for (const char *p = s; *p; p++) {
        if (*p == '.' && !point) {
            point = true;
        } else if (*p >= '0' && *p <= '9') {
            if (n > UINT64_C(100000000000) || (point && d >= UINT64_C(1000000000)))
                return false;
            n = n * 10 + (uint64_t)(*p - '0');
            if (point)
                d *= 10;
            digits = true;
        } else {
            return false;
        }
    }
    *num = n;
    *den = d;
    return digits;
}

bool sharing_parse_threshold(const char *s, share_threshold *t, GError **err)
{
    uint64_t n, d;
    if (!s || !parse_decimal(s, &n, &d))
        return bad(err, "threshold '%s' is not a number (a fraction in %s)", s ? s : "", "(0, 1]");
    if (n == 0 || n > d)
        return bad(err, "threshold '%s' is outside %s (t = 1 - percent of sharing / 100)", s, "(0, 1]");
    *t = (share_threshold){n, d};
    return true;
}

bool sharing_parse_percent(const char *s, share_threshold *t, GError **err)
{
    uint64_t n, d;
    if (!s || !parse_decimal(s, &n, &d))
        return bad(err, "sharing percentage '%s' is not a number (%s)", s ? s : "", "0 <= P < 100");
    if (n >= 100 * d)
        return bad(err, "sharing percentage '%s' is outside [0, 100) (%s)", s, "P = (1 - t) x 100");
    *t = (share_threshold){100 * d - n, 100 * d};
    return true;
}

bool sharing_parse_mode(const char *s, share_mode *m, GError **err)
{
    if (s && strcmp(s, "registers") == 0)
        *m = SHARE_REGS;
    else if (s && strcmp(s, "scratchpad") == 0)
        *m = SHARE_SMEM;
    else if (s && strcmp(s, "none") == 0)
        *m = SHARE_NONE;
    else
        return bad(err, "--share '%s': expected %s", s ? s : "", "none, registers or scratchpad");
    return true;
}

const char *sharing_mode_name(share_mode m)
{
    return m == SHARE_REGS ? "registers" : m == SHARE_SMEM ? "scratchpad" : "none";
}

void sharing_count(uint64_t r, uint64_t r_tb, share_threshold t, unsigned *f, unsigned *s_max)
{
    g_assert(r_tb > 0 && t.num > 0 && t.num <= t.den);
    uint64_t ff = r / r_tb;
    /* (R/R_tb - F) / t = (R - F R_tb) den / (R_tb num), in integers (128-bit: no overflow) */
    unsigned __int128 top = (unsigned __int128)(r - ff * r_tb) * t.den;
    unsigned __int128 s = top / ((unsigned __int128)r_tb * t.num);
    *f = ff > UINT_MAX ? UINT_MAX : (unsigned)ff;
    *s_max = s > UINT_MAX ? UINT_MAX : (unsigned)s;
}

bool sharing_compute(const occupancy_sm *sm, const occupancy_kernel *k, share_mode mode, share_threshold t,
                     sharing_result *out, GError **err)
{
    occupancy_result o;
    if (!occupancy_compute(sm, k, &o, err))
        return false;
    sharing_result r = {0};
    r.baseline = r.ctas = r.unshared = o.ctas;
    if (mode == SHARE_NONE) {
        snprintf(r.reason, sizeof r.reason, "sharing is off");
        *out = r;
        return true;
    }
    occupancy_limit res = mode == SHARE_REGS ? OCCUPANCY_LIMIT_REGS : OCCUPANCY_LIMIT_SMEM;
    r.r = mode == SHARE_REGS ? sm->regs_per_sm : sm->smem_per_sm;
    r.r_tb = mode == SHARE_REGS ? o.regs_per_cta : o.smem_per_cta;
    r.by_shared = o.by_resource[res];
    if (r.r_tb == 0) {
        snprintf(r.reason, sizeof r.reason, "the kernel uses no %s", occupancy_limit_name(res));
        *out = r;
        return true;
    }
    if (r.by_shared != o.ctas) {
        snprintf(r.reason, sizeof r.reason, "the baseline is limited by %s (%u CTAs), not by %s (%u)",
                 occupancy_limit_name(o.limiter), o.ctas, occupancy_limit_name(res), r.by_shared);
        *out = r;
        return true;
    }
    unsigned f, s_max;
    sharing_count(r.r, r.r_tb, t, &f, &s_max);
    unsigned m = f + MIN(s_max, f);
    for (unsigned l = 0; l < OCCUPANCY_LIMIT_COUNT; l++) /* every other limit, the other resource's too */
        if (l != res)
            m = MIN(m, o.by_resource[l]);
    if (m <= f) {
        snprintf(r.reason, sizeof r.reason,
                 "no pair fits: %" G_GUINT64_FORMAT " unused %s pay for %u pairs "
                 "at t = %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ", the other limits allow %u CTAs",
                 r.r - (uint64_t)f * r.r_tb, occupancy_limit_name(res), s_max, t.num, t.den, m);
        *out = r;
        return true;
    }
    r.active = true;
    r.ctas = m;
    r.pairs = m - f;
    r.unshared = f - r.pairs;
    *out = r;
    return true;
}

unsigned sharing_private_regs(unsigned regs_per_thread, share_threshold t)
{
    return (unsigned)((uint64_t)regs_per_thread * t.num / t.den);
}

uint64_t sharing_storage_bits(share_mode mode, unsigned ctas, unsigned warps)
{
    uint64_t common = 1 + (uint64_t)ctas * clog2(ctas + 1);
    if (mode == SHARE_REGS)
        return common + 2ull * warps + (uint64_t)(warps / 2) * clog2(warps);
    if (mode == SHARE_SMEM)
        return common + warps + (uint64_t)(ctas / 2) * clog2(ctas);
    return 0;
}

uint64_t sharing_private_smem(uint64_t smem_per_cta, share_threshold t)
{
    /* offsets off with off < t x R_tb, i.e. off x den < R_tb x num: ceil(R_tb x num / den) of them */
    return (uint64_t)(((unsigned __int128)smem_per_cta * t.num + t.den - 1) / t.den);
}
