/* spu_cb.h — the `spu_cb` block: one ping-pong pair of communication buffers (CBs) between two
 * neighbours of the SPU grid (an SM and its east or south neighbour, or an SM and a border interface
 * unit). SPU spec §3, docs/spu.md.
 *
 * Two RAM halves of `bytes` each. The producer (west or north side) writes the half of the current
 * phase, the consumer reads the other one; a swap (the runtime's, on a blocksync release) exchanges
 * them, so a value written before barrier n is read after barrier n and never before [S: Fig. 2.3].
 * A swap called in cycle t takes effect from cycle t+1, whoever asks first in either cycle (the
 * activation-order rule).
 *
 * The `cb` export is the only way in: `half(write, words)` gives the half an access reaches now (the
 * write half for the producer, the read half for the consumer) and counts the access; an SM's
 * ld.cb/st.cb calls it from its load/store path, timed there as a shared-memory access [A: SPU spec
 * §3, "modelled exactly like the shared memory"]; an interface unit calls it once per 32-byte
 * request, one per cycle [A]. `swap()` is the grid controller's, on a blocksync release.
 * The halves start poisoned (every byte 0xff, a NaN as f32): data read before anybody wrote it fails
 * the workload's check.
 *
 * Statistics: reads and writes (calls of half), the words of the interface units' requests, swaps.
 * Traced: `phase` (which half the producer writes).
 */
#ifndef GPUSC_MODELS_SPU_SPU_CB_H
#define GPUSC_MODELS_SPU_SPU_CB_H

#include "models/core/block.h"

G_BEGIN_DECLS

typedef struct {
    /* the half an access of `words` (0: an SM's warp instruction) reaches now */
    uint8_t *(*half)(void *self, bool write, unsigned words, uint64_t *bytes);
    void (*swap)(void *self); /* from the next cycle */
    /* the half an access would reach now, not counted (an IU's code counts its requests apart) */
    uint8_t *(*peek)(void *self, bool write, uint64_t *bytes);
} spu_cb_if;
extern const blk_iface spu_cb_iface;

enum { SPU_CB_CB, SPU_CB_N_PORTS };
enum { SPU_CB_STAT_WRITES, SPU_CB_STAT_READS, SPU_CB_STAT_IU_WORDS, SPU_CB_STAT_SWAPS, SPU_CB_N_STATS };

typedef struct {
    blk_inst *inst;
    uint64_t bytes;
    uint8_t *buf[2];
    uint8_t phase; /* traced: the producer writes buf[phase], the consumer reads buf[phase ^ 1] */
    bool swap_pending;
    uint64_t swap_at;
    gsc_event *swapped; /* wakes the block the cycle a swap takes effect (the traced phase) */
    blk_call_probe *probe[SPU_CB_CB + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} spu_cb;

extern const blk_desc spu_cb_desc;
spu_cb *spu_cb_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void spu_cb_free(spu_cb *c);
/* The `cb` export's half(), for a caller that holds the block (the grid's SM hooks). */
uint8_t *spu_cb_half(spu_cb *c, bool write, unsigned words, uint64_t *bytes);
/* The phase now (a swap of an earlier cycle applied). */
unsigned spu_cb_phase(spu_cb *c);

G_END_DECLS

#endif
