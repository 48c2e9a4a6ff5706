/* coalesce.h — a warp's memory access as the LD/ST unit sees it after address generation, turned
 * into memory transactions (global/local/const) or into scratchpad bank cycles (shared).
 *
 * Transactions (CCWS/DAWS/VWS spec §2.1 "a warp's requests are merged into cache-line-sized chunks"):
 *  - one transaction per distinct aligned segment of `segment` bytes touched by an active lane
 *    (segment = the L1 line size, 128 B by default); a lane access that straddles two segments (only
 *    possible when misaligned) is served by both;
 *  - each transaction carries the byte mask it touches and the mask of lanes it serves;
 *  - the warp may be split in parts of `lanes_per_part` lanes (GPGPU-Sim's mem_warp_parts; default
 *    the whole warp): each part is coalesced alone, parts in lane order;
 *  - order within a part: ascending segment address (as GPGPU-Sim's coalescer emits them).
 * Scratchpad (GPGPU-Sim shmem model, gpgpu_shmem_num_banks 32, 4-byte banks):
 *  - a lane access of `size` bytes touches the words addr/width .. (addr+size-1)/width, word w in
 *    bank w mod banks;
 *  - cycles = max over banks of the number of distinct words requested in that bank (with broadcast,
 *    several lanes reading the same word cost one access; without it every lane-word access counts);
 *  - a warp split in parts costs the sum over parts. No active lane: 0 cycles.
 * Lanes: up to COALESCE_MAX_LANES (32); narrower warps (VWS slices) set `lanes` and the mask.
 */
#ifndef GPUSC_MODELS_LIB_COALESCE_H
#define GPUSC_MODELS_LIB_COALESCE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define COALESCE_MAX_LANES   32
#define COALESCE_MAX_SEGMENT 256 /* bytes; segment sizes are powers of two from 4 to this */
#define COALESCE_MAX_TXNS    (2 * COALESCE_MAX_LANES)

typedef struct {
    unsigned lanes;                    /* lanes in the warp (<= 32) */
    uint32_t active;                   /* bit i: lane i takes part */
    unsigned size;                     /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint64_t addr[COALESCE_MAX_LANES]; /* byte address per lane */
} coalesce_access;

typedef struct {
    uint64_t addr;                                 /* segment base, aligned to the segment size */
    unsigned size;                                 /* segment bytes */
    uint32_t lanes;                                /* lanes served */
    uint64_t byte_mask[COALESCE_MAX_SEGMENT / 64]; /* bit i: byte addr+i is touched */
} coalesce_txn;

/* Fills out[] (room for COALESCE_MAX_TXNS) and returns the count. lanes_per_part 0 = whole warp. */
unsigned coalesce_transactions(const coalesce_access *a, unsigned segment, unsigned lanes_per_part,
                               coalesce_txn *out);
/* The same for the lanes of `active` (< 1 << lanes) with addr[lane] (read for those lanes only): the
 * caller's address array, not a copy in a coalesce_access. Without `masks` the transactions' byte
 * masks are left unset (a load, whose request carries none). */
unsigned coalesce_lanes(unsigned lanes, uint32_t active, unsigned size, const uint64_t *addr, unsigned segment,
                        unsigned lanes_per_part, bool masks, coalesce_txn *out);
unsigned coalesce_txn_bytes(const coalesce_txn *t); /* bytes set in the mask */
bool coalesce_txn_byte(const coalesce_txn *t, unsigned offset);

typedef struct {
    unsigned banks;          /* 32 */
    unsigned bank_width;     /* bytes per bank word: 4 */
    bool broadcast;          /* same-word accesses of several lanes cost one */
    unsigned lanes_per_part; /* 0 = whole warp */
} coalesce_smem_config;

void coalesce_smem_config_init(coalesce_smem_config *c); /* 32 banks, 4 B, broadcast, whole warp */

/* Serialized cycles of the access (see above); *worst_bank (may be NULL): the bank that set the
 * count in the costliest part (lowest index on ties). */
unsigned coalesce_smem_cycles(const coalesce_access *a, const coalesce_smem_config *c, unsigned *worst_bank);

G_END_DECLS

#endif
