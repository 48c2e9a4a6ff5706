/* barrier.h — the `barrier` block: the CTA barriers of an SM (bar.sync, bar.arrive, bar.red with
 * named barriers 0..15 and optional thread counts), as kernels/run/frun.c's barriers. Spec:
 * docs/baseline-design.md §2.2 barrier; the PTX ISA's bar/barrier instructions.
 *
 * A barrier completes when `expected` threads have arrived (a counted barrier) or, without a count,
 * when every live warp of the CTA has arrived; bar.arrive counts without waiting; a warp that exits
 * no longer counts, so barriers waiting for the whole CTA are re-checked at each exit. bar.red's
 * reductions (popc, and, or) run over the arriving lanes' predicates.
 *
 * A passive block with one client, the issue block, which calls the exported `barrier` interface in
 * the cycle a warp issues its barrier instruction or exits. A completion is returned to the caller
 * (the waiting warps and the reductions' values): the issue block lets the warps go on and writes
 * bar.red's result. The unit does not know the warps' registers. Traced: the warps waiting at a
 * barrier (a mask by warp slot).
 */
#ifndef GPUSC_MODELS_SM_BARRIER_H
#define GPUSC_MODELS_SM_BARRIER_H

#include "models/core/block.h"
#include "models/sm/payloads.h"

G_BEGIN_DECLS

#define BARRIER_IDS 16 /* named barriers per CTA (PTX bar 0..15; kernels/run/frun.c's N_BARRIERS) */

/* A warp's arrival (the barrier instruction as executed). */
typedef struct {
    unsigned id;       /* barrier 0..15 */
    unsigned count;    /* expected threads, 0: the whole CTA */
    unsigned threads;  /* the threads the warp counts (its existing threads) */
    bool wait;         /* bar.sync / bar.red: the warp waits; bar.arrive: it does not */
    bool reduce;       /* bar.red */
    uint32_t pred;     /* bar.red: the lanes whose predicate is true */
    uint32_t active;   /* the warp's active lanes */
} barrier_arrival;

/* A completed barrier: the warps (bit = warp index within the CTA) that waited at it and now go on,
 * and bar.red's results over all arrivals. */
typedef struct {
    unsigned id;
    uint64_t waiting;
    uint32_t popc;
    bool all, any;
} barrier_release;

typedef struct {
    /* A CTA starts in `slot` with `warps` live warps in slots first_warp.. (every barrier of the
     * slot is cleared). */
    void (*cta_start)(void *self, unsigned slot, unsigned first_warp, unsigned warps);
    /* Warp in_cta of the CTA in slot arrives; returns 1 and fills *rel if the barrier completed. */
    unsigned (*arrive)(void *self, unsigned slot, unsigned in_cta, const barrier_arrival *a,
                       barrier_release *rel);
    /* A warp of the CTA in slot exited: barriers waiting for the whole CTA may complete; returns how
     * many, written to rel (room for BARRIER_IDS). */
    unsigned (*warp_exit)(void *self, unsigned slot, unsigned in_cta, barrier_release *rel);
} barrier_if;
extern const blk_iface barrier_iface;

enum { BARRIER_BAR };
enum { BARRIER_STAT_ARRIVALS, BARRIER_STAT_RELEASES, BARRIER_STAT_RELEASED_WARPS };

typedef struct {
    uint32_t warps, threads, expected, popc;
    bool all, any;
    uint64_t waiting; /* warps (index within the CTA) waiting at it */
} barrier_state;

typedef struct {
    blk_inst *inst;
    unsigned ctas;
    barrier_state (*bars)[BARRIER_IDS]; /* [ctas][BARRIER_IDS] */
    unsigned *live;                     /* per CTA slot: warps that have not exited */
    unsigned *first_warp;               /* per CTA slot: its first warp slot (for the trace) */
    blk_call_probe *probe;
    uint64_t tr_waiting; /* traced: warps waiting at a barrier, bit = warp slot (slots 0..63) */
} barrier_unit;

extern const blk_desc barrier_desc;
/* ctas: CTA slots of the SM. */
barrier_unit *barrier_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned ctas);
void barrier_free(barrier_unit *b);

G_END_DECLS

#endif
