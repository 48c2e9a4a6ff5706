/* policy.h — the warp issue policy interface and its registry.
 *
 * An issue scheduler owns a list of its warps (policy_warp, one per resident warp, kept by the
 * caller from cycle to cycle) and each cycle asks its policy for an ordered list of candidates:
 * indices into that list, highest priority first, ready warps only, vetoed warps removed. The caller
 * walks the list and issues the first candidate that can really go (free collector, free unit,
 * lock granted, ...), then stamps that warp's last_issue with the cycle.
 *
 * Built-in classes (CCWS/DAWS/VWS spec §3; GPGPU-Sim's scheduler names):
 *  - "lrr":  loose round-robin: warps by id, starting after the last issued warp (wrapping).
 *  - "gto":  greedy-then-oldest: the last issued warp if ready, then the others oldest first
 *            (age, then id).
 *  - "oldest": oldest first (age, then id); what OWF reduces to without sharing.
 *  - "two_level_active:N[:inner[:outer]]": GPGPU-Sim two_level_active. An active set of at most N
 *    warps is scheduled by `inner` (0 = lrr, 2 = gto; names also accepted); only active warps are
 *    candidates. Each cycle, before ordering: an active warp with long_stall set (the caller decides
 *    which stalls count: a pending global load, a barrier, ...) is demoted to the pending set; then
 *    while the active set has room, a pending warp that is ready (and not long-stalled) is promoted:
 *    outer 1 = "srr": the one longest in the pending set (demotion order; new warps enter in age
 *    order); outer 5 = "oldest": the oldest by age. Defaults: inner lrr, outer srr, as GPGPU-Sim's
 *    published "two_level_active:6:0:1". The set membership lives in policy_warp.policy_data.
 *
 * Vetoes: any number of veto functions can be chained on a policy instance; a vetoed warp is removed
 * from the candidate list after ordering (SWL, CCWS/DAWS throttling, OWF lock denial, Malekeh
 * postponing). policy_add_swl() is the static warp limiting veto (CCWS/DAWS/VWS spec §4 [A]: only the
 * `limit` oldest warps of the list may issue); policy_add_swl_except() leaves out of the count the
 * warps whose `stall` is the caller's code for waiting at a barrier, so the rest of a CTA reaches the
 * barrier with the same limit.
 *
 * Policies needing block state (OWF class, "has data in a CCU", gang size) read it from the
 * caller-filled `key` and `flags` fields, or from a veto's context; they register their own class.
 */
#ifndef GPUSC_MODELS_LIB_POLICY_H
#define GPUSC_MODELS_LIB_POLICY_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define POLICY_NEVER_ISSUED (-1)

/* policy_warp.flags bits the built-ins know (others are free for mechanisms). */
enum {
    POLICY_F_MEM = 1u << 0,   /* the warp's next instruction is a memory instruction */
    POLICY_F_LOAD = 1u << 1,  /* ... a load (ld/ldu) of global, local or generic memory (CCWS's gate) */
    POLICY_F_STORE = 1u << 2, /* ... a store, atomic or reduction of global, local or generic memory */
};

typedef struct {
    unsigned id;          /* dynamic warp id within the SM */
    uint64_t age;         /* dispatch order: smaller is older (CTA launch order, then warp in CTA) */
    bool ready;           /* could issue this cycle (valid I-buffer entry, scoreboard clear, ...) */
    bool long_stall;      /* waits on a long-latency event (two-level demotion) */
    int64_t last_issue;   /* cycle of the warp's last issue, POLICY_NEVER_ISSUED if none */
    unsigned stall;       /* the caller's stall reason code (0 = none); informational */
    int64_t key;          /* caller-provided priority key for mechanism policies */
    uint32_t flags;       /* POLICY_F_* and mechanism bits */
    uint64_t policy_data; /* owned by the policy class; 0 for a warp new to the list */
} policy_warp;

typedef struct {
    const char *name;        /* the spec's first field: "gto" */
    const char *description; /* one line */
    /* args: the spec after "name:" (NULL if none). Returns the instance state, or NULL with err set. */
    void *(*create)(const char *args, GError **err);
    void (*destroy)(void *self);
    /* Writes candidate indices into out (room for n), best first; returns how many. May update the
     * warps' policy_data. Must list only ready warps. */
    unsigned (*order)(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out);
    /* true: order is a function of the warps' fields alone (not of the cycle, not of state it keeps)
     * and changes none of them, so the same list gives the same answer (policy_stable). */
    bool stable;
    /* Optional: what order would return and its out[0] (in *best when it returns more than 0), without
     * ordering the rest (policy_first). NULL: policy_first orders the whole list. */
    unsigned (*first)(void *self, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *best);
} policy_class;

/* Registry (built-ins are present from the start). Registering a taken name is a g_error. */
void policy_register(const policy_class *c);
const policy_class *policy_lookup(const char *name);
unsigned policy_count(void);
const policy_class *policy_nth(unsigned i); /* registration order */

typedef struct policy policy;

/* Returns true to veto warps[i]. */
typedef bool (*policy_veto_fn)(void *ctx, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle);

/* spec: "name" or "name:args". NULL with err (POLICY_ERROR) for an unknown name or bad args. */
policy *policy_new(const char *spec, GError **err);
void policy_free(policy *p);
const policy_class *policy_get_class(const policy *p);
void policy_add_veto(policy *p, policy_veto_fn fn, void *ctx);
void policy_add_swl(policy *p, unsigned limit);
void policy_add_swl_except(policy *p, unsigned limit, unsigned barrier_stall); /* limit, code < 65536 */
unsigned policy_order(policy *p, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out);
/* policy_order for a caller that takes only the best candidate: the same count, the same out[0] (the
 * rest of out, room for n, may be left as scratch), the same effects on the warps and the vetoes; a
 * class with `first` and no veto is asked without ordering the rest. */
unsigned policy_first(policy *p, policy_warp *warps, unsigned n, uint64_t cycle, unsigned *out);
/* The policy's class is stable and no veto is installed: policy_order on an unchanged list gives the
 * same answer at any cycle (the issue stage uses it to skip a scheduler whose warps did not change). */
bool policy_stable(const policy *p);

/* Vetoes whose answers hold for a while (the issue stage may then skip asking, and sleep).
 * until: after policy_order asked it about candidates asked[0..n_asked) of warps[0..n) in `cycle`,
 * the first cycle in which its answers for the same candidates may differ, unless its state is
 * changed by an input (the veto's owner tells the issue stage then); UINT64_MAX: not before.
 * repeat: the same candidates were not asked again in `count` cycles from `first` on, the answers
 * being known to hold: count what asking them would have counted (statistics). */
typedef uint64_t (*policy_veto_until_fn)(void *ctx, const policy_warp *warps, unsigned n,
                                         const unsigned *asked, unsigned n_asked, uint64_t cycle);
typedef void (*policy_veto_repeat_fn)(void *ctx, const policy_warp *warps, unsigned n, const unsigned *asked,
                                      unsigned n_asked, uint64_t first, uint64_t count);
void policy_add_veto_holding(policy *p, policy_veto_fn fn, policy_veto_until_fn until,
                             policy_veto_repeat_fn repeat, void *ctx);
/* The class is stable and every veto can say how long its answers hold (SWL's hold for good). */
bool policy_settles(const policy *p);
/* After policy_order in `cycle` on warps[0..n): the first cycle its answer for the same list may
 * differ (the earliest of its vetoes'); policy_repeat counts the vetoes' statistics for `count`
 * cycles from `first` in which the same answer was reused without asking (policy_settles only). */
uint64_t policy_holds_until(const policy *p, const policy_warp *warps, unsigned n, uint64_t cycle);
void policy_repeat(const policy *p, const policy_warp *warps, unsigned n, uint64_t first, uint64_t count);

#define POLICY_ERROR (policy_error_quark())
GQuark policy_error_quark(void);

G_END_DECLS

#endif
