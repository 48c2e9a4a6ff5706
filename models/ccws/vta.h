/* vta.h — the `vta` block: CCWS's victim tag array (docs/ccws.md; the CCWS/DAWS/VWS spec §5.3), the
 * lost intra-warp locality detector of one SM. Tags only, no data, partitioned by warp: warp w owns
 * `epw` entries (sets = epw / ways, `ways`-way, LRU within a set, line-address index mod sets).
 *
 *  - insert: an L1D line leaves the cache (the `evict` export, bound to ldst.l1_evict): its line
 *    address goes into the partition of the warp its warp-id metadata names (the warp whose miss
 *    reserved the line);
 *  - probe: an L1D load misses (the `access` export, bound to ldst.l1_access; outcome MISS: a new
 *    line reserved; merges into a pending line and refused accesses are not probed): the missing
 *    warp's partition is looked up; a hit means that warp lost a line it had brought in itself. The
 *    `hit` import's listeners (the `ccws` locality scoring) are told (warp, line address, cycle).
 *    A hit keeps the entry (invalidate_on_hit: drops it) and makes it most recently used.
 * Passive: it acts inside ldst's activation. Partitions are not cleared when a warp leaves (a new
 * warp in the same slot may hit on tags its predecessor left).
 * Traced: `hit_warp` (the warp of the last VTA hit) and `hits` (VTA hits so far).
 */
#ifndef GPUSC_MODELS_CCWS_VTA_H
#define GPUSC_MODELS_CCWS_VTA_H

#include "models/core/block.h"
#include "models/lib/cache.h"

G_BEGIN_DECLS

/* The `hit` import (MULTI, optional): a VTA hit by warp on line_addr (address / line size). */
typedef struct {
    void (*hit)(void *self, unsigned warp, uint64_t line_addr, uint64_t cycle);
} vta_hit_if;
extern const blk_iface vta_hit_iface;

enum { VTA_EVICT, VTA_ACCESS, VTA_HIT };
enum { VTA_STAT_INSERTS, VTA_STAT_PROBES, VTA_STAT_HITS, VTA_STAT_FOREIGN };

typedef struct {
    blk_inst *inst;
    unsigned warps, warps_param, epw, ways, line;
    bool invalidate_on_hit;
    double area_mm2;   /* one SM's VTA (the area_mm2 parameter; reported, not simulated) */
    cache_tags **part; /* one per warp */
    uint64_t *warp_hits;
    blk_iref *hit;
    unsigned n_hit;
    uint32_t tr_hit_warp; /* traced: the warp of the last VTA hit */
    uint32_t tr_hits;     /* traced: VTA hits so far */
    blk_call_probe *probe[VTA_ACCESS + 1]; /* the exports' traced calls, by port (blk_export_probes) */
} vta;

extern const blk_desc vta_desc;
vta *vta_new(blk_ctx *ctx, gsc_module *parent, const char *name);
void vta_free(vta *v);
/* The SM's warp slots: the partitions when the `warps` parameter is 0 (before the run). */
void vta_set_warps(vta *v, unsigned warps);

/* The direct interface (what the exports do; for tests and the toy cache). */
void vta_insert(vta *v, unsigned warp, uint64_t line_addr);
bool vta_probe(vta *v, unsigned warp, uint64_t line_addr);
uint64_t vta_warp_hits(const vta *v, unsigned warp);

/* Storage arithmetic (spec §5.3/§5.7): tag bits of an entry for a va_bits virtual address, line
 * bytes and sets per partition; the L1D warp-id field's bits for `warps` contexts and its bytes for
 * `l1_lines` lines. */
unsigned vta_tag_bits(unsigned va_bits, unsigned line, unsigned sets);
unsigned vta_wid_bits(unsigned warps);
unsigned vta_wid_bytes(unsigned warps, unsigned l1_lines);
/* The VTAs' area on a GPU of `sms` SMs: the area_mm2 parameter (one SM's, the source's CACTI figure)
 * times sms (UT-4: 0.026 mm2 x 30 = 0.78 mm2). */
double vta_area_mm2(const vta *v, unsigned sms);

G_END_DECLS

#endif
