/* sharing.h — the occupancy of resource sharing: how many thread blocks (CTAs) an SM launches when
 * pairs of CTAs share the part of the register file or scratchpad that the baseline leaves unused.
 *
 * Resource-sharing/GREENER spec §2.2-2.3 (the integer procedure): with R units of the shared resource
 * per SM, R_tb per CTA and threshold t (0 < t <= 1, a rational num/den so that no floating-point error
 * moves a floor at an exact boundary),
 *   F     = floor(R / R_tb)                         the baseline count by this resource
 *   S_max = floor((R - F R_tb) / (t R_tb))           pairs the unused units pay for
 *   M     = F + min(S_max, F)                        CTAs launched (U + 2S)
 *   M_fin = min(M, every other limit: threads, warps, CTA slots, the other resource)
 * Sharing is active (ShSM = 1) only when this resource is the binding baseline limit (F = TB_base)
 * and M_fin > F; then S = M_fin - F pairs and U = F - S unshared CTAs. Otherwise every CTA runs
 * unshared, exactly as the baseline (and `reason` says why). Pure C, no SystemC. docs/sharing.md. */
#ifndef GPUSC_MODELS_LIB_SHARING_H
#define GPUSC_MODELS_LIB_SHARING_H

#include "models/lib/occupancy.h"

G_BEGIN_DECLS

typedef enum { SHARE_NONE, SHARE_REGS, SHARE_SMEM } share_mode;

/* The threshold t = num / den, 0 < t <= 1 (den a power of ten: as written in decimal). */
typedef struct {
    uint64_t num, den;
} share_threshold;

typedef struct {
    bool active;        /* ShSM: more CTAs than the baseline are launched */
    unsigned baseline;  /* TB_base: the baseline's CTAs per SM */
    unsigned by_shared; /* F: CTAs the shared resource alone allows */
    unsigned ctas;      /* M_fin (= baseline when inactive) */
    unsigned pairs;     /* S */
    unsigned unshared;  /* U */
    uint64_t r, r_tb;   /* units per SM and per CTA of the shared resource */
    char reason[160];   /* inactive: why ("the baseline is limited by threads ..."); else "" */
} sharing_result;

/* Parses "0.1", "1", ".25" as a rational in (0, 1]. False with *err set ("threshold '1.5' is outside
 * (0, 1]"). */
bool sharing_parse_threshold(const char *s, share_threshold *t, GError **err);
/* P in [0, 100) percent of sharing: t = (100 - P) / 100. "90" gives 1/10. */
bool sharing_parse_percent(const char *s, share_threshold *t, GError **err);
/* "registers", "scratchpad", "none" -> mode. */
bool sharing_parse_mode(const char *s, share_mode *m, GError **err);
const char *sharing_mode_name(share_mode m);

/* F and S_max for R units per SM, R_tb per CTA and t (the closed forms of §2.2). */
void sharing_count(uint64_t r, uint64_t r_tb, share_threshold t, unsigned *f, unsigned *s_max);

/* The sharing computation for kernel k on SM sm (occupancy_compute first: false with its error). */
bool sharing_compute(const occupancy_sm *sm, const occupancy_kernel *k, share_mode mode, share_threshold t,
                     sharing_result *out, GError **err);

/* The private part of a CTA's shared resource under t: registers, `RegNo <= t x regs_per_thread`
 * (the spec's default reading, §3.5): the number of private per-thread registers; scratchpad,
 * offsets below t x R_tb are private (§3.6, `off < t x R_tb` exactly, as smem_share tests it): the
 * private byte count, ceil(t x R_tb) (2112 bytes at t = 0.1: offsets 0..211, 212 bytes). */
unsigned sharing_private_regs(unsigned regs_per_thread, share_threshold t);
uint64_t sharing_private_smem(uint64_t smem_per_cta, share_threshold t);

/* The storage sharing adds to an SM of `ctas` CTA slots and `warps` warp slots, in bits (§3.9): ShSM
 * (1), ShTB (T x ceil(log2(T + 1))), then registers: Owner and ShWarp (2W) and a pair lock per warp
 * pair (floor(W / 2) x ceil(log2 W)); scratchpad: Owner (W) and a pair lock per CTA pair
 * (floor(T / 2) x ceil(log2 T)). T = 8, W = 48: 273 and 93 bits. */
uint64_t sharing_storage_bits(share_mode mode, unsigned ctas, unsigned warps);

G_END_DECLS

#endif
