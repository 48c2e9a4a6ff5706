/* barrier.h — CTA barrier bookkeeping (bar.sync / __syncthreads) for one SM.
 *
 * Per CTA slot: the warps that belong to the CTA, the warps that have exited, and per barrier id
 * (PTX allows 16) the warps that have arrived. A barrier releases when every warp of the CTA that has
 * not exited has arrived; the release returns the mask of waiting warps and clears the barrier for
 * its next use. A warp exiting while others wait can complete the barrier (GPGPU-Sim counts only
 * live warps), so barrier_exit also returns a release mask.
 * Warps are identified by their index within the CTA (0..warps-1, at most 64).
 * Timing belongs to the block: it applies a release in the cycle after the last arrival is processed.
 */
#ifndef GPUSC_MODELS_LIB_BARRIER_H
#define GPUSC_MODELS_LIB_BARRIER_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define BARRIER_IDS       16
#define BARRIER_MAX_WARPS 64

typedef struct barrier_table barrier_table;

barrier_table *barrier_table_new(unsigned cta_slots);
void barrier_table_free(barrier_table *t);

void barrier_cta_start(barrier_table *t, unsigned slot, unsigned warps); /* a CTA placed in `slot` */
void barrier_cta_end(barrier_table *t, unsigned slot);                   /* the CTA left */

/* Warp `w` of the CTA in `slot` arrives at barrier `id`. Returns the mask of warps released (all
 * waiting warps, including w) when this arrival completes the barrier, 0 otherwise. Arriving twice
 * at the same barrier before it releases is a model bug (g_assert). */
uint64_t barrier_arrive(barrier_table *t, unsigned slot, unsigned w, unsigned id);
/* Warp `w` exits. Returns the union of the masks of the barriers this exit completes. */
uint64_t barrier_exit(barrier_table *t, unsigned slot, unsigned w);

uint64_t barrier_waiting(const barrier_table *t, unsigned slot, unsigned id);
bool barrier_cta_done(const barrier_table *t, unsigned slot); /* every warp exited */

G_END_DECLS

#endif
