/* gang.h — the gang table of variable warp sizing (docs/vws.md; CCWS/DAWS/VWS spec §7.3-§7.6): the
 * bookkeeping of which 4-thread warps issue together, pure C.
 *
 * The SM's 32 lanes are S slices (8 of 4 lanes, or 4 of 8 lanes); warp w runs on slice w mod S and
 * belongs to original gang w / S (the S warps Sg .. Sg+S-1, one per slice: 32 threads). Original gang g owns
 * set g of the table: GANG_WAYS entries, each a gang of at least 2 of its warps (GangMask: bit s = the warp
 * on slice s), its PC, a valid bit and an age. A warp of the set that is in no entry is independent (the
 * set's independent-warp mask: its slice schedules it alone). A warp is in at most one entry.
 *
 *  - gang_form: the warps of a new CTA in set g become one gang (all of them, if at least 2).
 *  - gang_split_pcs (control divergence, always): members grouped by PC; each group of >= 2 a gang
 *    (the first group keeps the entry), a lone warp independent.
 *  - gang_split_all (Impatient memory divergence): every member independent.
 *  - gang_split_group (Group memory divergence): the members ready first form a gang of their own
 *    (a lone one independent), the others stay.
 *  - gang_reform (opportunistic reformation, option (a) of the spec): in set g, the first two
 *    entities (gangs or independent warps) at the same PC merge; at most one merge per call.
 *  - gang_schedule: the gang issue scheduler: candidate gangs in the policy's order, of which up to
 *    `limit` with disjoint masks are picked. Policies (ties broken by `tie`: GTO = the one that
 *    issued last, then the oldest; or the oldest alone):
 *      BGTO  biggest gang first (the spec's default);
 *      LGTO  littlest gang first;
 *      LPC   lowest PC first;
 *      LRR   loose round robin over the entries (id = set << 2 | way), starting at rr_from (the
 *            caller moves it past the last gang picked);
 *      GTO   greedy then oldest, whatever the size.
 *    gang_bgto is gang_schedule with BGTO and GTO ties.
 */
#ifndef GPUSC_MODELS_VWS_GANG_H
#define GPUSC_MODELS_VWS_GANG_H

#include <stdbool.h>
#include <stdint.h>

#define GANG_SLICES 8
#define GANG_SETS   32
#define GANG_WAYS   4
#define GANG_NO_PC  UINT64_MAX

typedef struct {
    bool valid;
    uint8_t mask;       /* GangMask: member slices */
    uint64_t pc;        /* the gang's PC (function << 32 | instruction index) */
    uint64_t age;       /* formation order of its original gang: smaller is older */
    int64_t last_issue; /* cycle of its last issue, -1: never */
} gang_entry;

typedef struct {
    gang_entry e[GANG_WAYS];
    uint8_t indep;   /* independent-warp mask: bit s = the warp on slice s runs alone */
    uint8_t present; /* warps of the set that are resident */
} gang_set;

typedef struct {
    gang_set set[GANG_SETS];
    unsigned reform_next; /* round-robin pointer of reformation */
    unsigned slices;      /* slices (warps of an original gang): 8 (4-thread warps) or 4 (8-thread) */
} gang_table;

/* Gang statistics a caller accumulates: what the operations did. */
typedef struct {
    uint64_t formed, cf_splits, mem_splits, reforms, to_independent;
} gang_counts;

/* An empty table of 8 slices (4-thread warps); gang_table_init_slices: of `slices` (<= GANG_SLICES;
 * 4 for the 8-wide design point: 4 slices of 8 lanes, original gangs of 4 warps). */
void gang_table_init(gang_table *t);
void gang_table_init_slices(gang_table *t, unsigned slices);
/* Slice and set of warp w. */
static inline unsigned gang_slice(const gang_table *t, unsigned w)
{
    return w % t->slices;
}
static inline unsigned gang_set_of(const gang_table *t, unsigned w)
{
    return w / t->slices;
}
/* The entry warp w is a member of in its set, or -1 (independent or not resident). */
int gang_entry_of(const gang_table *t, unsigned w);
/* Members `mask` of set g start at pc: one gang if at least 2 (returns its way), else independent
 * (-1). A full set leaves them independent. */
int gang_form(gang_table *t, unsigned g, uint8_t mask, uint64_t pc, uint64_t age, gang_counts *c);
/* Warps `mask` of set g start independent (no ganging: gang_unit's mode=slice_only). */
void gang_add_independent(gang_table *t, unsigned g, uint8_t mask);
/* Warp w leaves (it finished): out of its gang (a gang left with one member dissolves) and of the
 * independent mask. */
void gang_leave(gang_table *t, unsigned w, gang_counts *c);
/* Control divergence: pcs[s] is the PC of the member on slice s. Returns the gangs it became (0 if
 * every member went independent); no split (returns 1) when the PCs agree. */
unsigned gang_split_pcs(gang_table *t, unsigned g, unsigned way, const uint64_t pcs[GANG_SLICES],
                        gang_counts *c);
void gang_split_all(gang_table *t, unsigned g, unsigned way, gang_counts *c);
/* `first`: the members ready first (a proper, non-empty subset of the mask). */
void gang_split_group(gang_table *t, unsigned g, unsigned way, uint8_t first, gang_counts *c);
/* One reformation step in set `g`: pcs[s] is the PC of the warp on slice s (GANG_NO_PC: none).
 * True if two entities merged. */
bool gang_reform(gang_table *t, unsigned g, const uint64_t pcs[GANG_SLICES], gang_counts *c);
enum { GANG_SCHED_BGTO, GANG_SCHED_LGTO, GANG_SCHED_LPC, GANG_SCHED_LRR, GANG_SCHED_GTO };
enum { GANG_TIE_GTO, GANG_TIE_OLDEST };
typedef struct {
    unsigned policy;  /* GANG_SCHED_* */
    unsigned tie;     /* GANG_TIE_*: how BGTO, LGTO and LPC break ties */
    unsigned rr_from; /* LRR: the entry id that comes first */
} gang_sched;
/* Candidate ids: set << 2 | way for a gang of the table; GANG_SETS * GANG_WAYS + i for lone[i], an
 * entity outside the table (a lone warp the gang scheduler issues: gang_unit's mode=gang_only). */
#define GANG_SCHED_IDS (GANG_SETS * GANG_WAYS + GANG_SETS * GANG_SLICES)
/* The gang issue scheduler: candidates cand[0..n) in the order of s; the first `limit` of them with
 * pairwise disjoint masks go to pick (returns how many). lone may be NULL if no id refers to it. */
unsigned gang_schedule(const gang_table *t, const gang_entry *lone, const gang_sched *s, const unsigned *cand,
                       unsigned n, unsigned limit, unsigned *pick);
/* BGTO: candidates cand[0..n) (set << 2 | way), written in issue order into out; then the first
 * `limit` of them with pairwise disjoint masks go to pick (returns how many). */
unsigned gang_bgto(const gang_table *t, const unsigned *cand, unsigned n, unsigned limit, unsigned *pick);
static inline unsigned gang_size(uint8_t mask)
{
    return (unsigned)__builtin_popcount(mask);
}

#endif
