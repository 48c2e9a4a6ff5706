/* bankmap.h — register -> bank mapping and the operand-collector bank arbiter, as pure functions,
 * plus per-bank request queues that drive the arbiter cycle by cycle.
 *
 * Mapping (GPGPU-Sim register_bank(), Accel-Sim sub-core variant; RF-cache (Malekeh) spec §3 [A]):
 *  - BANKMAP_REG_PLUS_WARP: bank = (reg + warp) mod B (GPGPU-Sim default: warps start on
 *    different banks, so the same register of consecutive warps does not collide);
 *  - BANKMAP_REG: bank = reg mod B;
 *  - BANKMAP_CUSTOM: a caller function (renaming's physical placement, register-renaming spec §2 [A]).
 *  With `groups` > 1 (sub-core SM: one group of banks per sub-core), B = banks / groups and the
 *  result is offset by group * B.
 *
 * Arbiter, per cycle (RF-cache (Malekeh) spec §3; GPGPU-Sim's operand collector arbiter):
 *  - a bank serves at most `ports` accesses per cycle (a read or a write each);
 *  - writes first: each bank grants its writes oldest first up to `ports`; extra writes wait
 *    (they are serialised and block that bank's reads in the following cycle too, being older);
 *  - reads: each bank's requests form a FIFO (oldest = smallest seq); each cycle the heads of the
 *    queues are considered oldest first, ties by lower bank index; a head is granted if its bank
 *    has a port left and, when `collector_ports` > 0, its collector has accepted fewer than
 *    `collector_ports` operands this cycle; a head refused for its collector blocks its queue
 *    for this cycle (strict FIFO). With ports > 1 the next head of a bank gets the next port.
 *  - every read not granted is a conflict, counted once per cycle it waits: as a bank conflict (its
 *    bank's ports went to older accesses) or a collector conflict (its collector's port was taken,
 *    or it waits behind a head that was refused for that reason).
 * So N reads of one bank take N cycles: one extra cycle per conflicting read.
 */
#ifndef GPUSC_MODELS_LIB_BANKMAP_H
#define GPUSC_MODELS_LIB_BANKMAP_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum { BANKMAP_REG_PLUS_WARP, BANKMAP_REG, BANKMAP_CUSTOM } bankmap_kind;

typedef unsigned (*bankmap_fn)(unsigned reg, unsigned warp, unsigned banks, void *ctx);

typedef struct {
    bankmap_kind kind;
    unsigned banks;  /* total banks (all groups) */
    unsigned groups; /* bank groups (sub-cores); 0 or 1 = one group */
    bankmap_fn fn;   /* BANKMAP_CUSTOM: returns a bank < banks / groups */
    void *ctx;
} bankmap;

/* The bank of (reg, warp) in bank group `group` (the warp's sub-core; 0 for a monolithic SM). */
unsigned bankmap_bank(const bankmap *m, unsigned reg, unsigned warp, unsigned group);

/* ---- geometry: clusters, sub-arrays, the physical ID -> (bank, row, sub-array) map ------------ */
/* A register file of `banks` banks split over `clusters` SIMT clusters (register-renaming spec §2:
 * 8 clusters x 4 banks of 128-bit entries, 4 x 1 KB sub-arrays per bank). A warp-wide register is
 * the same entry (row) of the same bank in every cluster, read and written in all of them together:
 * a warp sees banks / clusters banks, each entry 32 x 32 / clusters bits wide. With clusters = 1 a
 * bank entry is a whole warp-wide register (GPGPU-Sim's banks). Physical ID k (warp-wide register
 * `entries` registers in all) is placed [A: register-renaming spec §2]: bank = k mod warp banks,
 * row = k div warp banks, sub-array = row div (rows per sub-array); the IDs of sub-array group s
 * (sub-array s of every bank) are then group x s .. group x (s + 1) - 1. */
typedef struct {
    unsigned banks;     /* all banks (every cluster's) */
    unsigned clusters;  /* SIMT clusters (0 or 1: one) */
    unsigned subarrays; /* sub-arrays per bank (0 or 1: one) */
    unsigned entries;   /* warp-wide registers the banks hold */
} bankmap_geom;

typedef struct {
    unsigned bank, row, subarray;
} bankmap_place;

unsigned bankmap_geom_warp_banks(const bankmap_geom *g); /* banks a warp sees: banks / clusters */
unsigned bankmap_geom_entry_bits(const bankmap_geom *g); /* bits of one bank entry: 1024 / clusters */
unsigned bankmap_geom_rows(const bankmap_geom *g);       /* entries of one bank */
unsigned bankmap_geom_subarray_rows(const bankmap_geom *g);
unsigned bankmap_geom_group(const bankmap_geom *g); /* physical IDs per sub-array group */
bankmap_place bankmap_geom_place(const bankmap_geom *g, unsigned k);
/* NULL if the geometry is consistent, else why not (a static string). */
const char *bankmap_geom_error(const bankmap_geom *g);

typedef struct {
    unsigned bank;
    unsigned collector; /* reads: destination collector unit; ignored for writes */
    uint64_t seq;       /* arrival order: smaller is older (unique per request) */
    uint64_t tag;       /* the caller's id */
} bankmap_req;

typedef struct {
    unsigned banks;
    unsigned ports;           /* accesses per bank per cycle (1: single-ported) */
    unsigned collectors;      /* number of collector units (for the collector-port check) */
    unsigned collector_ports; /* operands a collector accepts per cycle; 0 = unlimited */
} bankmap_arb_config;

typedef struct {
    unsigned reads_granted;
    unsigned writes_granted;
    unsigned writes_waiting;      /* writes over the bank's ports this cycle */
    unsigned bank_conflicts;      /* reads waiting because of their bank */
    unsigned collector_conflicts; /* reads waiting because of their collector */
} bankmap_arb_result;

/* One cycle of arbitration. read_granted[i] / write_granted[i] are set for each request. */
void bankmap_arbitrate(const bankmap_arb_config *c, const bankmap_req *reads, unsigned nreads,
                       const bankmap_req *writes, unsigned nwrites, bool *read_granted, bool *write_granted,
                       bankmap_arb_result *res);

/* ---- per-bank queues ------------------------------------------------------------------------- */
/* Requests wait in their queue until granted; seq is assigned at push (arrival order). */
typedef struct bankmap_queues bankmap_queues;

bankmap_queues *bankmap_queues_new(const bankmap_arb_config *c);
void bankmap_queues_free(bankmap_queues *q);
void bankmap_queues_push_read(bankmap_queues *q, unsigned bank, unsigned collector, uint64_t tag);
void bankmap_queues_push_write(bankmap_queues *q, unsigned bank, uint64_t tag);
unsigned bankmap_queues_pending(const bankmap_queues *q); /* reads + writes waiting */
/* Arbitrates one cycle, removes the granted requests and appends their tags to granted_reads /
 * granted_writes (GArray of uint64_t, may be NULL); accumulates the counts into *totals (may be NULL). */
void bankmap_queues_step(bankmap_queues *q, GArray *granted_reads, GArray *granted_writes,
                         bankmap_arb_result *totals);
/* The same cycle for a caller that needs only the granted reads: returns how many, their tags (oldest
 * first) in *granted, valid until the next step (the writes' tags are not kept). */
unsigned bankmap_queues_step_reads(bankmap_queues *q, const uint64_t **granted, bankmap_arb_result *totals);

G_END_DECLS

#endif
