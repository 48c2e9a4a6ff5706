/* ctaslots.h — the resource ledger of one SM at run time, and the pluggable choice of SM for the
 * next CTA (the `cta_dispatch` block's core).
 *
 * occupancy.h answers "how many CTAs of this kernel fit an empty SM"; this ledger tracks what is
 * resident and hands out concrete resources as CTAs arrive and leave:
 *  - warp slots: a contiguous run of warps_per_cta slots, first fit from slot 0 (GPGPU-Sim places a
 *    CTA's threads at the first free contiguous hardware thread ids);
 *  - registers and CTA slots: counted (registers per CTA as occupancy_result.regs_per_cta); the
 *    register file placement follows from the warp slots (warp-major regions);
 *  - shared memory: a contiguous byte range, first fit (the CTA's scratchpad base address);
 *  - CTA slot: the lowest free index (barrier and lock-table state are indexed by it).
 * A CTA is placed only if every resource is available; otherwise the first missing resource (in
 * occupancy_limit order) is reported.
 * The SM choice is a function pointer (default: round-robin starting after the SM that got the
 * previous CTA, GPGPU-Sim style); the paired-CTA dispatch of resource sharing
 * (resource-sharing/GREENER spec §2.2-2.3) replaces it or wraps the ledger.
 */
#ifndef GPUSC_MODELS_LIB_CTASLOTS_H
#define GPUSC_MODELS_LIB_CTASLOTS_H

#include "models/lib/occupancy.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct ctaslots ctaslots;

typedef struct {
    unsigned cta_slot;   /* index of the CTA slot on the SM */
    unsigned first_warp; /* first warp slot; the CTA owns first_warp .. first_warp + warps - 1 */
    unsigned warps;
    uint64_t regs;      /* registers charged */
    uint64_t smem_base; /* byte offset of the CTA's scratchpad */
    uint64_t smem_bytes;
} ctaslots_grant;

ctaslots *ctaslots_new(const occupancy_sm *sm);
void ctaslots_free(ctaslots *s);

/* True if a CTA of `k` can be placed now; else *why (may be NULL) names the missing resource. */
bool ctaslots_fits(const ctaslots *s, const occupancy_kernel *k, occupancy_limit *why);
/* Places a CTA (false, nothing changed, if it does not fit). */
bool ctaslots_place(ctaslots *s, const occupancy_kernel *k, ctaslots_grant *g);
/* Frees the CTA in `cta_slot` (g_assert that it is resident). */
void ctaslots_release(ctaslots *s, unsigned cta_slot);

unsigned ctaslots_resident(const ctaslots *s); /* CTAs resident */
unsigned ctaslots_free_warps(const ctaslots *s);
uint64_t ctaslots_free_regs(const ctaslots *s);
uint64_t ctaslots_free_smem(const ctaslots *s); /* total free bytes (possibly fragmented) */

/* Chooses the SM for the next CTA among sms[0..n) (-1: none can take it). `last` is the SM chosen
 * previously (-1 at the start of a kernel). */
typedef int (*ctaslots_pick_fn)(ctaslots *const *sms, unsigned n, const occupancy_kernel *k, int last,
                                void *ctx);
int ctaslots_pick_round_robin(ctaslots *const *sms, unsigned n, const occupancy_kernel *k, int last,
                              void *ctx);

G_END_DECLS

#endif
