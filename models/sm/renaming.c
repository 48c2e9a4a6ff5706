/* renaming.c — see renaming.h and docs/renaming.md. */
#include "models/sm/renaming.h"

#include "kernels/analysis/regalloc.h"
#include "kernels/passes/renaming.h"
#include "models/core/energy.h"
#include "models/lib/policy.h"
#include "models/lib/regval.h"
#include "models/lib/rfaccess.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/regfile.h"

#include <string.h>

#define RN_MAX_PHYS 4096
#define RN_MAX_RFC  256
#define RN_NO_PHYS  0xffff

enum { ST_NEVER, ST_MAPPED, ST_RELEASED };
enum { POL_CONSOLIDATE, POL_WEAR, POL_LOWEST };
enum { GATE_ENTRY, GATE_SUBARRAY };
enum { EV_NONE, EV_ALLOC, EV_REL_PIR, EV_REL_PBR, EV_REL_EXIT, EV_POISON, EV_REL_RET };

#define RN_NO_FUNC UINT32_MAX

/* One frame of a warp: the mappings of one function's registers (every function numbers its
 * registers from R0; functions do not recurse, so a warp has at most one frame of each). The table
 * is indexed by (warp, function, register). */
typedef struct {
    uint16_t map[REN_MAX_ARCH];  /* physical ID or RN_NO_PHYS */
    uint16_t last[REN_MAX_ARCH]; /* the last mapping (what the banks see after a release) */
    uint16_t last0[REN_MAX_ARCH]; /* last at the start of cycle last_at (an allocation in it) */
    uint64_t last_at[REN_MAX_ARCH];
    uint8_t st[REN_MAX_ARCH];
    uint64_t resv; /* destinations of issued loads not yet written (a physical register set aside) */
} rn_frame;

typedef struct {
    rn_frame *fr;              /* n_funcs frames (by function index; only renamed functions' are used) */
    uint64_t touched;          /* baseline gating: conventional entries accessed */
    bool base_full;            /* renaming off: every entry its launch's code names is on (base_full) */
    uint32_t pbr_func, pbr_pc; /* the pbr already applied for the instruction being executed */
    uint32_t *calls; /* the warp's call stack: the functions whose frames are live, the entry first */
    unsigned depth;
    bool pbr_done;
    bool live;
    uint64_t blocked_since; /* + 1; 0: not blocked on allocation */
    uint64_t blocked_need;
    uint32_t blocked_pc;
    uint64_t rfc_pir; /* the pir window the warp is in (its RFC tag; 0: none) */
    unsigned dense;   /* its index among the resident warps (the exempt IDs' warp_slot) */
    /* the instructions fetched and not yet issued (its I-buffer): pcs fq_lo .. fq_hi - 1 */
    uint32_t fq_func, fq_lo, fq_hi;
    bool fq_valid;
} rn_warp;

typedef struct {
    uint64_t tag; /* (function << 32 | pir address) + 1; 0: empty */
    uint64_t used;
} rn_rfc_entry;

struct renaming {
    blk_call_probe *probe[RENAMING_N_PORTS]; /* the exports' traced calls, by port (blk_export_probes) */
    blk_inst *inst;
    sm_env *env;
    occupancy_sm occ;
    unsigned max_warps, n_phys, n_groups;
    /* the banks' geometry (regfile's clusters, banks, sub-arrays): the ID -> (bank, sub-array) map */
    bankmap_geom geom;
    unsigned wbanks; /* banks a warp sees (per cluster) */
    bool enable, le;
    unsigned policy, gating, rfc_entries, budget, table_banks;
    uint64_t bad_release, bad_count, deadlock_cycles;
    bool bad_callee;
    /* the launch: the entry and the functions it calls, each analysed (finfo[function], NULL: not
     * renamed); every register slot's function and architectural registers */
    uint32_t kernel_no, entry, n_funcs, n_slots;
    ren_frames *frames; /* the passes over the entry's frames (Eq. 1, exemption) */
    ren_info *info;     /* the entry's (finfo[entry]) */
    ren_info **finfo;   /* frames->info */
    uint64_t *slot_mask;
    uint64_t *func_all; /* per function: the registers its instructions access (renamed ones) */
    uint32_t *slot_func;
    unsigned *frame_off; /* per function: its frame's first register in the baseline's placement */
    unsigned n_arch, n_exempt, warps_eq1;
    /* the free list and the power states */
    uint64_t occ_bits[RN_MAX_PHYS / 64];
    uint64_t ever[RN_MAX_PHYS / 64];
    uint64_t on_bits[RN_MAX_PHYS / 64]; /* entries powered on (mapped, or exempt and written) */
    unsigned *grp_occ;                  /* occupied IDs per sub-array group */
    unsigned *sub_on;                   /* on entries per (bank, sub-array): [bank x n_groups + sub-array] */
    unsigned n_occ, n_mapped, n_on, n_sub_on, n_reserved, last_alloc, n_res_warps;
    uint64_t dense_used[4]; /* resident-warp indices in use (up to 256 warps) */
    /* baseline gating (conventional placement, on at the first access, never off) */
    uint64_t base_on[RN_MAX_PHYS / 64];
    unsigned *base_sub; /* as sub_on */
    unsigned n_base_on, n_base_sub;
    uint64_t last_cycle, last_event_cycle;
    rn_warp *w;
    rn_rfc_entry rfc[RN_MAX_RFC];
    /* rename-table bank conflicts */
    uint64_t lk_cycle;
    unsigned lk_count[16];
    /* traced */
    uint32_t tr_free, tr_mapped, tr_sub_on, tr_event, tr_warp, tr_reg, tr_phys;
};

static const char *const policies[] = {"consolidate", "wear", "lowest", NULL};
static const char *const gatings[] = {"entry", "subarray", NULL};

static double avg_live(const blk_inst *inst)
{
    uint64_t c = blk_stat_get(inst, RN_STAT_CYCLES);
    return c ? (double)blk_stat_get(inst, RN_STAT_MAPPED_CYCLES) / (double)c : 0.0;
}
static double arch_avg(const blk_inst *inst)
{
    uint64_t c = blk_stat_get(inst, RN_STAT_CYCLES);
    return c ? (double)blk_stat_get(inst, RN_STAT_ARCH_CYCLES) / (double)c : 0.0;
}
static double rfc_hit_rate(const blk_inst *inst)
{
    uint64_t h = blk_stat_get(inst, RN_STAT_RFC_HITS), m = blk_stat_get(inst, RN_STAT_RFC_MISSES);
    return h + m ? (double)h / (double)(h + m) : 0.0;
}

static const blk_port_desc ports[] = {
    [RENAMING_PORT_VALUE] = {"value", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                             "register value path: allocate on write, release, poison released reads",
                             &regval_iface},
    [RENAMING_PORT_CHECK] = {"check", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                             "issue check: an instruction that needs a free physical register waits",
                             &issue_check_iface},
    [RENAMING_PORT_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                              "issued instructions: pbrs, the release flag cache, load reservations",
                              &instr_issued_iface},
    [RENAMING_PORT_EVENTS] = {"warp_events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                              "warp ends: what a warp still holds is released", &warp_events_iface},
    [RENAMING_PORT_LAYOUT] =
        {"layout", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
         "the split fetch: laid-out addresses, pbrs and RFC-missing pirs fetched as words",
         &fetch_layout_iface},
    [RENAMING_PORT_ACCESS] =
        {"access", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
         "register access path: (warp, arch reg) -> physical register; table bank conflicts",
         &rfaccess_iface},
};

static const blk_param_desc params[] = {
    {"enable", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "rename registers (false: observe the baseline's power gating only; tb-renaming --renaming observe)"},
    {"policy", BLK_PARAM_ENUM, "consolidate", NULL, NULL, policies, "",
     "allocation policy: consolidate [S: evaluated], wear (wear-levelling) [S: not evaluated], lowest "
     "(lowest free ID) [A]"},
    {"phys_regs", BLK_PARAM_UINT, "1024", "8", "4096", NULL, "registers",
     "physical (warp-wide 32-bit) registers [S: 128 KB / 128 B = 1024]"},
    {"budget_bits", BLK_PARAM_UINT, "8192", "0", "1000000", NULL, "bits",
     "renaming table budget for Eq. 1; 0: no exemption [S: 1 KB; A: 8192 bits]"},
    {"budget_le", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "", "compare Eq. 1 with <= instead of < [A]"},
    {"warps", BLK_PARAM_UINT, "0", "0", "128", NULL, "warps",
     "Eq. 1's resident warps per SM; 0: the launch's occupancy [S: Table 3 per workload]"},
    {"table_banks", BLK_PARAM_UINT, "4", "1", "16", NULL, "banks",
     "renaming table banks (bank = reg mod banks; +1 cycle per serialised lookup) [S: 4; A: the penalty]"},
    {"rfc_entries", BLK_PARAM_UINT, "48", "1", "256", NULL, "entries",
     "release flag cache entries, shared by the warps [S: 48]"},
    {"gating", BLK_PARAM_ENUM, "entry", NULL, NULL, gatings, "",
     "power gating scheme whose leakage is charged: per 128-bit entry or per 1 KB sub-array [S]"},
    {"deadlock_cycles", BLK_PARAM_UINT, "20000", "1", NULL, NULL, "cycles",
     "cycles without any allocation or release while a warp waits for a free register: a deadlock [A]"},
    {"flag_fetch", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "fetch the laid-out code: the flag words take I-cache lines and fetch slots (false: the original "
     "addresses, flag words free; the RFC is not modelled)"},
    {"bad_release", BLK_PARAM_UINT, "0", "0", NULL, NULL, "reads",
     "testing only: release the register at every Nth renamed read regardless of its flags (0: off)"},
    {"bad_release_callee", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "testing only: bad_release counts and releases only the reads of called functions' registers"},
    {"e_table_access", BLK_PARAM_DOUBLE, "1.14", "0", NULL, NULL, "pJ",
     "energy of a renaming table access [S: Table 2, 1 KB, 4 banks, 40 nm]"},
    {"p_leak_table", BLK_PARAM_DOUBLE, "0.27", "0", NULL, NULL, "mW",
     "leakage of a renaming table bank [S: Table 2]"},
    {"p_leak_entry", BLK_PARAM_DOUBLE, "0.0109375", "0", NULL, NULL, "mW",
     "leakage of one powered 128-bit register entry [A: 2.8 mW per 4 KB bank / 256 entries]"},
};

static const blk_stat_desc stats[] = {
    [RN_STAT_ALLOCS] = {"allocations", BLK_STAT_COUNTER, "registers", "physical registers allocated", NULL},
    [RN_STAT_RELEASES] = {"releases", BLK_STAT_COUNTER, "registers", "physical registers released", NULL},
    [RN_STAT_REL_PIR] = {"releases_pir", BLK_STAT_COUNTER, "registers", "released after a pir-flagged read",
                         NULL},
    [RN_STAT_REL_PBR] = {"releases_pbr", BLK_STAT_COUNTER, "registers", "released by a pbr", NULL},
    [RN_STAT_REL_EXIT] = {"releases_exit", BLK_STAT_COUNTER, "registers", "released at warp exit", NULL},
    [RN_STAT_PBRS] = {"pbrs", BLK_STAT_COUNTER, "instructions", "pbr words executed", NULL},
    [RN_STAT_DISTINCT] = {"distinct_phys", BLK_STAT_COUNTER, "registers", "physical registers ever allocated",
                          NULL},
    [RN_STAT_PEAK] = {"live_peak", BLK_STAT_COUNTER, "registers",
                      "peak concurrent mappings (+ exempt written)", NULL},
    [RN_STAT_MAPPED_CYCLES] = {"live_cycles", BLK_STAT_COUNTER, "register-cycles",
                               "mapped registers integrated over time", NULL},
    [RN_STAT_CYCLES] = {"cycles", BLK_STAT_COUNTER, "cycles", "cycles observed", NULL},
    [RN_STAT_AVG_LIVE] = {"live_avg", BLK_STAT_DERIVED, "registers", "average live physical registers",
                          avg_live},
    [RN_STAT_ARCH_ALLOCATED] =
        {"arch_allocated", BLK_STAT_COUNTER, "registers",
         "registers the compiler reserves: resident warps x registers (Eq. 1's product)", NULL},
    [RN_STAT_EXEMPT] = {"exempt", BLK_STAT_COUNTER, "registers",
                        "exempt registers per thread, over the kernel's frames (last launch)", NULL},
    [RN_STAT_EQ1] = {"eq1_bits", BLK_STAT_COUNTER, "bits",
                     "Eq. 1 table size (the heaviest chain of frames), everything renamed (last launch)",
                     NULL},
    [RN_STAT_EQ1_AFTER] = {"eq1_bits_after", BLK_STAT_COUNTER, "bits", "Eq. 1 after exemption (last launch)",
                           NULL},
    [RN_STAT_LOOKUPS] = {"lookups", BLK_STAT_COUNTER, "accesses",
                         "renaming table lookups (renamed source reads)", NULL},
    [RN_STAT_LOOKUP_CONFLICTS] = {"lookup_conflicts", BLK_STAT_COUNTER, "cycles",
                                  "cycles added by serialised lookups in one table bank", NULL},
    [RN_STAT_ALLOC_STALLS] = {"alloc_stalls", BLK_STAT_COUNTER, "warp-cycles",
                              "issue refused for want of a free register", NULL},
    [RN_STAT_OVERFLOW] = {"alloc_overflow", BLK_STAT_COUNTER, "registers",
                          "writes that found no free register (model error; 0 in a sound run)", NULL},
    [RN_STAT_POISON_READS] = {"poison_reads", BLK_STAT_COUNTER, "reads",
                              "reads of a released register (poisoned)", NULL},
    [RN_STAT_UNWRITTEN_READS] = {"unwritten_reads", BLK_STAT_COUNTER, "reads",
                                 "reads of a never-written register (0)", NULL},
    [RN_STAT_RFC_HITS] = {"rfc_hits", BLK_STAT_COUNTER, "lookups",
                          "pir found in the release flag cache: not fetched", NULL},
    [RN_STAT_RFC_MISSES] = {"rfc_misses", BLK_STAT_COUNTER, "lookups", "pir fetched and decoded (inserted)",
                            NULL},
    [RN_STAT_RFC_HIT_RATE] = {"rfc_hit_rate", BLK_STAT_DERIVED, "", "release flag cache hit rate",
                              rfc_hit_rate},
    [RN_STAT_FLAG_WORDS] = {"code_flag_words", BLK_STAT_COUNTER, "words",
                            "pir + pbr words in the laid-out kernel", NULL},
    [RN_STAT_WAKEUPS] = {"wakeups", BLK_STAT_COUNTER, "entries",
                         "register entries switched on (1 cycle, hidden)", NULL},
    [RN_STAT_ENTRY_ON] = {"entry_on_cycles", BLK_STAT_COUNTER, "entry-cycles",
                          "128-bit entries powered on x cycles, register-level gating (8 clusters)", NULL},
    [RN_STAT_SUB_ON] = {"subarray_on_cycles", BLK_STAT_COUNTER, "subarray-cycles",
                        "1 KB sub-arrays powered on x cycles, sub-array gating (8 clusters)", NULL},
    [RN_STAT_BASE_ENTRY_ON] = {"base_entry_on_cycles", BLK_STAT_COUNTER, "entry-cycles",
                               "baseline gating (on at first access, never off): entries x cycles", NULL},
    [RN_STAT_BASE_SUB_ON] = {"base_subarray_on_cycles", BLK_STAT_COUNTER, "subarray-cycles",
                             "baseline gating: sub-arrays x cycles", NULL},
    [RN_STAT_LEAK_ENTRY] = {"leak_entry_cycles", BLK_STAT_COUNTER, "entry-cycles",
                            "entry-cycles charged leakage: the `gating` scheme, renamed or baseline", NULL},
    [RN_STAT_TABLE_BANK_CYCLES] = {"table_bank_cycles", BLK_STAT_COUNTER, "bank-cycles",
                                   "renaming table banks x cycles (0 when off)", NULL},
    [RN_STAT_ARCH_CYCLES] = {"arch_cycles", BLK_STAT_COUNTER, "register-cycles",
                             "registers the compiler reserves for the resident warps, integrated over time",
                             NULL},
    [RN_STAT_ARCH_AVG] = {"arch_avg", BLK_STAT_DERIVED, "registers",
                          "average registers reserved for the resident warps (warps x registers)", arch_avg},
    [RN_STAT_PBR_FETCHED] = {"pbr_fetched", BLK_STAT_COUNTER, "words", "pbr words fetched (never cached)",
                             NULL},
    [RN_STAT_RFC_FULL_STALLS] = {"rfc_full_stalls", BLK_STAT_COUNTER, "warp-cycles",
                                 "fetch refused: the RFC is full and every entry is in use [A]", NULL},
    [RN_STAT_SUB_PEAK] = {"subarrays_peak", BLK_STAT_COUNTER, "sub-arrays",
                          "peak sub-arrays powered on (one cluster)", NULL},
    [RN_STAT_REL_RET] = {"releases_ret", BLK_STAT_COUNTER, "registers",
                         "a called function's registers released when the warp returned from it", NULL},
    [RN_STAT_CALLEE_ALLOCS] = {"callee_allocations", BLK_STAT_COUNTER, "registers",
                               "physical registers allocated to a called function's registers", NULL},
};

static const blk_state_desc state[] = {
    {"free", 13, "free physical registers"},
    {"mapped", 13, "mapped physical registers"},
    {"subarrays_on", 8, "sub-arrays powered on in one cluster (16)"},
    {"event", 3,
     "last mapping event: 1 alloc, 2 pir release, 3 pbr release, 4 exit release, 5 poisoned read, 6 return "
     "release"},
    {"ev_warp", 8, "its warp"},
    {"ev_reg", 6, "its architectural register"},
    {"ev_phys", 13, "its physical register"},
};

static const blk_energy_event energy_events[] = {
    {"table_lookup", "lookups", "e_table_access", BLK_COMP_RFP},
    {"table_alloc", "allocations", "e_table_access", BLK_COMP_RFP},
    {"table_release", "releases", "e_table_access", BLK_COMP_RFP},
};
static const blk_energy_leak energy_leak[] = {
    {BLK_POWER_ON, "p_leak_entry", "leak_entry_cycles"},
    {BLK_POWER_ON, "p_leak_table", "table_bank_cycles"},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), energy_leak, BLK_N(energy_leak),
                                       NULL};

const blk_desc renaming_desc = {
    "renaming",
    "register renaming: table, free list, allocation/release, exemption, release flag cache, power gating",
    "docs/renaming.md",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
    &energy,
};

/* ---- time integrals ---- */
static void advance(renaming *r, uint64_t now)
{
    if (now <= r->last_cycle)
        return;
    uint64_t dt = now - r->last_cycle;
    blk_inst *i = r->inst;
    blk_stat_add(i, RN_STAT_CYCLES, dt);
    blk_stat_add(i, RN_STAT_MAPPED_CYCLES, dt * r->n_on);
    blk_stat_add(i, RN_STAT_ARCH_CYCLES, dt * r->n_res_warps * r->n_arch);
    unsigned cl = r->geom.clusters, rows = bankmap_geom_subarray_rows(&r->geom);
    uint64_t ent = dt * r->n_on * cl, sub = dt * r->n_sub_on * cl;
    uint64_t bent = dt * r->n_base_on * cl, bsub = dt * r->n_base_sub * cl;
    blk_stat_add(i, RN_STAT_ENTRY_ON, ent);
    blk_stat_add(i, RN_STAT_SUB_ON, sub);
    blk_stat_add(i, RN_STAT_BASE_ENTRY_ON, bent);
    blk_stat_add(i, RN_STAT_BASE_SUB_ON, bsub);
    uint64_t charged = r->enable ? (r->gating == GATE_ENTRY ? ent : sub * rows)
                                 : (r->gating == GATE_ENTRY ? bent : bsub * rows);
    blk_stat_add(i, RN_STAT_LEAK_ENTRY, charged);
    if (r->enable)
        blk_stat_add(i, RN_STAT_TABLE_BANK_CYCLES, dt * r->table_banks);
    r->last_cycle = now;
}

static inline bool bit(const uint64_t *b, unsigned k)
{
    return b[k >> 6] >> (k & 63) & 1;
}
static inline void setb(uint64_t *b, unsigned k)
{
    b[k >> 6] |= 1ull << (k & 63);
}
static inline void clrb(uint64_t *b, unsigned k)
{
    b[k >> 6] &= ~(1ull << (k & 63));
}

/* The physical ID -> (bank, sub-array) map of the banks' geometry (bankmap_geom_place: bank = k mod
 * 4, row = k div 4, sub-array = row div 64 on the spec's 8 x 4 banks of 4 x 1 KB sub-arrays). */
static inline unsigned k_group(const renaming *r, unsigned k)
{
    return bankmap_geom_place(&r->geom, k).subarray;
}
static inline unsigned k_sub(const renaming *r, unsigned k) /* index of its (bank, sub-array) */
{
    bankmap_place p = bankmap_geom_place(&r->geom, k);
    return p.bank * r->n_groups + p.subarray;
}

static void power_on(renaming *r, unsigned k)
{
    if (bit(r->on_bits, k))
        return;
    setb(r->on_bits, k);
    r->n_on++;
    blk_stat_add(r->inst, RN_STAT_WAKEUPS, r->geom.clusters);
    if (r->sub_on[k_sub(r, k)]++ == 0)
        r->n_sub_on++;
    uint64_t peak = blk_stat_get(r->inst, RN_STAT_PEAK);
    if (r->n_on > peak)
        blk_stat_add(r->inst, RN_STAT_PEAK, r->n_on - peak);
    uint64_t sp = blk_stat_get(r->inst, RN_STAT_SUB_PEAK);
    if (r->n_sub_on > sp)
        blk_stat_add(r->inst, RN_STAT_SUB_PEAK, r->n_sub_on - sp);
    r->tr_sub_on = r->n_sub_on;
}

static void power_off(renaming *r, unsigned k)
{
    if (!bit(r->on_bits, k))
        return;
    clrb(r->on_bits, k);
    r->n_on--;
    if (--r->sub_on[k_sub(r, k)] == 0)
        r->n_sub_on--;
    r->tr_sub_on = r->n_sub_on;
}

/* The baseline's gating: the conventional placement of register a of the warp's frame of `func`,
 * warp-major contiguous [A], a called function's frame on top of the registers its caller keeps
 * (at frame_off[func], so that the kernel with its callees takes regalloc's figure). */
static inline unsigned base_k(const renaming *r, unsigned warp, unsigned off, unsigned a)
{
    return (warp * r->n_arch + off + a) % r->n_phys;
}

/* Whether base_touch would power an entry on. With renaming off the baseline's gating is all the
 * block follows, and it changes only at a warp's first access of a register: the time integrals
 * (piecewise constant) are advanced then, not at every access. */
static bool base_new(const renaming *r, unsigned warp, uint32_t func, uint64_t mask)
{
    if (func == r->entry)
        return (mask & ~r->w[warp].touched) != 0;
    for (; mask; mask &= mask - 1)
        if (!bit(r->base_on, base_k(r, warp, r->frame_off[func], (unsigned)__builtin_ctzll(mask))))
            return true;
    return false;
}

/* Renaming off: whether the warp's baseline entries are on for every register the instructions of
 * the launch's renamed functions access (its entry's frame and its called functions'). Both only
 * grow, so from then on every access of the warp changes nothing until the next launch, and the
 * value path may skip them (regval_access.quiet). */
static bool base_full(const renaming *r, unsigned warp)
{
    if ((r->w[warp].touched & r->func_all[r->entry]) != r->func_all[r->entry])
        return false;
    for (uint32_t f = 0; f < r->n_funcs; f++)
        for (uint64_t m = f == r->entry || !r->finfo[f] ? 0 : r->func_all[f]; m; m &= m - 1)
            if (!bit(r->base_on, base_k(r, warp, r->frame_off[f], (unsigned)__builtin_ctzll(m))))
                return false;
    return true;
}

static void base_touch(renaming *r, unsigned warp, uint32_t func, uint64_t mask)
{
    rn_warp *w = &r->w[warp];
    unsigned off = 0;
    if (func == r->entry) {
        mask &= ~w->touched;
        if (!mask)
            return;
        w->touched |= mask;
    } else {
        off = r->frame_off[func];
    }
    for (; mask; mask &= mask - 1) {
        unsigned k = base_k(r, warp, off, (unsigned)__builtin_ctzll(mask));
        if (bit(r->base_on, k))
            continue;
        setb(r->base_on, k);
        r->n_base_on++;
        if (r->base_sub[k_sub(r, k)]++ == 0)
            r->n_base_sub++;
    }
}

/* ---- the free list ---- */
static void occupy(renaming *r, unsigned k)
{
    setb(r->occ_bits, k);
    r->n_occ++;
    r->grp_occ[k_group(r, k)]++;
    r->tr_free = r->n_phys - r->n_occ;
}
static void vacate(renaming *r, unsigned k)
{
    clrb(r->occ_bits, k);
    r->n_occ--;
    r->grp_occ[k_group(r, k)]--;
    r->tr_free = r->n_phys - r->n_occ;
}

static int lowest_free_from(const renaming *r, unsigned from, unsigned to)
{
    for (unsigned k = from; k < to;) {
        uint64_t free = ~r->occ_bits[k >> 6] >> (k & 63);
        if (free) {
            unsigned c = k + (unsigned)__builtin_ctzll(free);
            return c < to ? (int)c : -1;
        }
        k = (k | 63) + 1;
    }
    return -1;
}

static int pick_free(renaming *r)
{
    if (r->n_occ >= r->n_phys)
        return -1;
    switch (r->policy) {
    case POL_CONSOLIDATE: {
        /* the lowest free ID in the most occupied powered group, else the lowest free ID [A] */
        int best = -1;
        unsigned grp = bankmap_geom_group(&r->geom);
        for (unsigned g = 0; g < r->n_groups; g++) {
            unsigned size = MIN(grp, r->n_phys - g * grp);
            if (r->grp_occ[g] > 0 && r->grp_occ[g] < size && (best < 0 || r->grp_occ[g] > r->grp_occ[best]))
                best = (int)g;
        }
        if (best >= 0)
            return lowest_free_from(r, (unsigned)best * grp, MIN(r->n_phys, ((unsigned)best + 1) * grp));
        return lowest_free_from(r, 0, r->n_phys);
    }
    case POL_WEAR: { /* a sub-array group's distance from the last allocation, then onwards */
        unsigned start = (r->last_alloc + bankmap_geom_group(&r->geom)) % r->n_phys;
        int k = lowest_free_from(r, start, r->n_phys);
        return k >= 0 ? k : lowest_free_from(r, 0, start);
    }
    default:
        return lowest_free_from(r, 0, r->n_phys);
    }
}

static void note(renaming *r, unsigned ev, unsigned warp, unsigned reg, unsigned phys, uint64_t cycle)
{
    r->tr_event = ev;
    r->tr_warp = warp;
    r->tr_reg = reg;
    r->tr_phys = phys;
    r->last_event_cycle = cycle;
}

static inline rn_frame *frame_of(const renaming *r, unsigned warp, uint32_t func)
{
    return &r->w[warp].fr[func];
}

static void release(renaming *r, unsigned warp, uint32_t func, unsigned a, unsigned ev, unsigned stat,
                    uint64_t cycle)
{
    rn_frame *w = frame_of(r, warp, func);
    if (w->st[a] != ST_MAPPED)
        return;
    unsigned k = w->map[a];
    w->st[a] = ST_RELEASED;
    w->map[a] = RN_NO_PHYS;
    if (k != RN_NO_PHYS) {
        vacate(r, k);
        power_off(r, k);
    }
    r->n_mapped--;
    r->tr_mapped = r->n_mapped;
    blk_stat_add(r->inst, RN_STAT_RELEASES, 1);
    blk_stat_add(r->inst, stat, 1);
    note(r, ev, warp, a, k, cycle);
}

static void allocate(renaming *r, unsigned warp, uint32_t func, unsigned a, uint64_t cycle)
{
    rn_frame *w = frame_of(r, warp, func);
    int k = pick_free(r);
    if (w->resv >> a & 1) {
        w->resv &= ~(1ull << a);
        r->n_reserved--;
    }
    w->st[a] = ST_MAPPED;
    r->n_mapped++;
    r->tr_mapped = r->n_mapped;
    if (k < 0) {
        blk_stat_add(r->inst, RN_STAT_OVERFLOW, 1);
        w->map[a] = RN_NO_PHYS;
        return;
    }
    if (w->last_at[a] != cycle) {
        w->last_at[a] = cycle;
        w->last0[a] = w->last[a];
    }
    w->map[a] = w->last[a] = (uint16_t)k;
    r->last_alloc = (unsigned)k;
    occupy(r, (unsigned)k);
    power_on(r, (unsigned)k);
    if (!bit(r->ever, (unsigned)k)) {
        setb(r->ever, (unsigned)k);
        blk_stat_add(r->inst, RN_STAT_DISTINCT, 1);
    }
    blk_stat_add(r->inst, RN_STAT_ALLOCS, 1);
    if (func != r->entry)
        blk_stat_add(r->inst, RN_STAT_CALLEE_ALLOCS, 1);
    note(r, EV_ALLOC, warp, a, (unsigned)k, cycle);
}

/* An exempt register's reserved ID [A]: 1023 - (warp_slot x E + e), warp_slot being the warp's
 * index among the launch's resident warps (0 .. W-1: W x E IDs are reserved). */
static inline unsigned exempt_id(const renaming *r, unsigned warp, uint32_t func, unsigned a)
{
    return r->n_phys - 1 - (r->w[warp].dense * r->n_exempt + r->finfo[func]->exempt_rank[a]);
}

/* The warp exited with nothing in flight: what it still holds is released, its exempt registers
 * switched off [A: release all at warp exit]. */
/* Every register the frame of `func` still holds is released; its registers are left in state `st`:
 * ST_RELEASED when a called function's frame ends (a read before its next call would be a wrong
 * release: poisoned), ST_NEVER when a frame starts (its registers are unwritten) or the warp ended. */
static void frame_release(renaming *r, unsigned warp, uint32_t func, unsigned ev, unsigned stat, uint8_t st,
                          uint64_t cycle)
{
    rn_frame *f = frame_of(r, warp, func);
    for (unsigned a = 0; a < REN_MAX_ARCH; a++) {
        if (f->st[a] == ST_MAPPED)
            release(r, warp, func, a, ev, stat, cycle);
        f->st[a] = st;
    }
    r->n_reserved -= (unsigned)__builtin_popcountll(f->resv);
    f->resv = 0;
}

/* The warp issues an instruction of `func`. The frames above func's on the warp's call stack have
 * ended: every lane of them has returned (lanes that return early wait in the caller while the
 * others run on, and may call other functions above the frame first), so what they still hold is
 * released and their next calls start with unwritten registers. A function not on the stack was
 * just called: its frame starts. */
static void frame_sync(renaming *r, unsigned warp, uint32_t func, uint64_t cycle)
{
    rn_warp *w = &r->w[warp];
    if (w->depth && w->calls[w->depth - 1] == func)
        return;
    unsigned d = w->depth;
    while (d > 0 && w->calls[d - 1] != func)
        d--;
    /* a new frame: unwritten registers (a load's late write-back in its previous frame freed) */
    if (d == 0) {
        if (w->depth < r->n_funcs)
            w->calls[w->depth++] = func;
        frame_release(r, warp, func, EV_REL_RET, RN_STAT_REL_RET, ST_NEVER, cycle);
        return;
    }
    while (w->depth > d)
        frame_release(r, warp, w->calls[--w->depth], EV_REL_RET, RN_STAT_REL_RET, ST_RELEASED, cycle);
}

static void warp_release_all(renaming *r, unsigned warp, uint64_t cycle)
{
    rn_warp *w = &r->w[warp];
    for (uint32_t f = 0; f < r->n_funcs; f++)
        if (r->finfo[f])
            frame_release(r, warp, f, EV_REL_EXIT, RN_STAT_REL_EXIT, ST_NEVER, cycle);
    w->depth = 0;
    for (uint32_t f = 0; r->info && r->n_exempt && f < r->n_funcs; f++)
        for (uint64_t m = r->finfo[f] ? r->finfo[f]->exempt : 0; m; m &= m - 1) {
            unsigned k = exempt_id(r, warp, f, (unsigned)__builtin_ctzll(m));
            if (k < r->n_phys)
                power_off(r, k);
        }
}

/* The warp's CTA ended: its resident-warp index is free again. */
static void warp_cleanup(renaming *r, unsigned warp, uint64_t cycle)
{
    rn_warp *w = &r->w[warp];
    warp_release_all(r, warp, cycle);
    if (w->live)
        clrb(r->dense_used, w->dense);
    w->pbr_done = false;
    w->blocked_since = 0;
    w->live = false;
    w->rfc_pir = 0;
    w->fq_valid = false;
}

/* ---- the launch: the passes on the entry, the exempt registers' reserved IDs ---- */
static unsigned launch_warps(renaming *r, const ir_func *f)
{
    unsigned p = (unsigned)blk_param_uint(r->inst, "warps");
    if (p)
        return p;
    const sm_launch *l = &r->env->launch;
    occupancy_kernel k = {l->regs_per_thread,
                          l->smem_per_cta ? l->smem_per_cta
                                          : (unsigned)(f->shared_bytes + r->env->mod->shared_static_bytes),
                          l->shared_dyn, l->block[0] * l->block[1] * l->block[2]};
    occupancy_result res;
    if (!occupancy_compute(&r->occ, &k, &res, NULL))
        return r->max_warps;
    uint64_t grid = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t ctas = MIN((uint64_t)res.ctas, (grid + r->env->n_sms - 1) / r->env->n_sms);
    return (unsigned)MIN(ctas * res.warps_per_cta, (uint64_t)r->max_warps);
}

static void free_launch(renaming *r)
{
    ren_frames_free(r->frames);
    r->frames = NULL;
    g_free(r->slot_mask);
    g_free(r->slot_func);
    g_free(r->frame_off);
    r->frame_off = NULL;
    g_free(r->func_all);
    r->func_all = NULL;
    r->finfo = NULL;
    r->info = NULL;
    r->slot_mask = NULL;
    r->slot_func = NULL;
}

/* The passes on the entry and the functions it calls, Eq. 1 and the exemption over their frames.
 * False with the run failed when a function cannot be analysed. */
static bool analyze_frames(renaming *r)
{
    ren_opts o = {r->warps_eq1, r->budget, 10, r->le};
    GError *err = NULL;
    r->frames = ren_analyze_frames(r->env->mod, r->entry, &o, &err);
    if (!r->frames) {
        if (!r->env->failed) {
            r->env->failed = true;
            g_string_append_printf(r->env->error, "renaming: %s", err->message);
        }
        g_error_free(err);
        return false;
    }
    r->finfo = r->frames->info;
    r->info = r->finfo[r->entry];
    return true;
}

static void setup_launch(renaming *r)
{
    sm_env *env = r->env;
    const ir_module *m = env->mod;
    r->kernel_no = env->launch.kernel_no + 1;
    free_launch(r);
    r->entry = env->launch.entry;
    ir_func *f = g_ptr_array_index(m->funcs, r->entry);
    r->warps_eq1 = launch_warps(r, f);
    if (r->n_funcs != m->funcs->len) { /* one frame per function and warp */
        r->n_funcs = m->funcs->len;
        for (unsigned v = 0; v < r->max_warps; v++) {
            g_free(r->w[v].fr);
            g_free(r->w[v].calls);
            r->w[v].fr = g_new0(rn_frame, r->n_funcs);
            r->w[v].calls = g_new0(uint32_t, r->n_funcs);
            r->w[v].depth = 0;
            for (uint32_t fi = 0; fi < r->n_funcs; fi++)
                for (unsigned a = 0; a < REN_MAX_ARCH; a++)
                    r->w[v].fr[fi].map[a] = r->w[v].fr[fi].last[a] = RN_NO_PHYS;
        }
    }
    if (!analyze_frames(r))
        return;
    uint32_t flag_words = 0;
    r->n_arch = r->info->n_arch;
    for (uint32_t fi = 0; fi < r->n_funcs; fi++) {
        if (!r->finfo[fi])
            continue;
        flag_words += r->finfo[fi]->n_pir + r->finfo[fi]->n_pbr;
        r->n_arch = MAX(r->n_arch, r->finfo[fi]->n_arch); /* the banks' numbers: every frame's from R0 */
    }
    /* registers reserved per thread: with callees (register-allocated code), their frames too */
    uint32_t arch = r->n_arch;
    bool calls = false, allocated = true;
    for (uint32_t fi = 0; fi < r->n_funcs; fi++)
        if (r->finfo[fi]) {
            calls |= fi != r->entry;
            allocated &= ((const ir_func *)g_ptr_array_index(m->funcs, fi))->n_phys_regs != IR_NONE;
        }
    if (calls && allocated)
        arch = MAX(arch, regalloc_entry_regs(m, f, NULL));
    r->n_arch = arch ? arch : 1;
    r->frame_off = g_new0(unsigned, r->n_funcs);
    for (uint32_t fi = 0; fi < r->n_funcs; fi++)
        if (r->finfo[fi] && fi != r->entry && arch > r->finfo[fi]->n_arch)
            r->frame_off[fi] = arch - r->finfo[fi]->n_arch;
    r->n_exempt = r->frames->n_exempt;
    r->n_slots = 0;
    for (uint32_t fi = 0; fi < r->n_funcs; fi++) {
        const ir_func *g = g_ptr_array_index(m->funcs, fi);
        if (r->finfo[fi] && g->regs)
            r->n_slots = MAX(r->n_slots, env->k->funcs[fi].reg_base + g->regs->len);
    }
    r->slot_mask = g_new0(uint64_t, r->n_slots + 1);
    r->func_all = g_new0(uint64_t, r->n_funcs); /* what the instructions (so their value accesses) name */
    for (uint32_t fi = 0; fi < r->n_funcs; fi++)
        for (uint32_t i = 0; r->finfo[fi] && i < r->finfo[fi]->n_instrs; i++)
            r->func_all[fi] |= r->finfo[fi]->use[i] | r->finfo[fi]->def[i];
    for (unsigned v = 0; v < r->max_warps; v++)
        r->w[v].base_full = false;
    r->slot_func = g_new(uint32_t, r->n_slots + 1);
    for (uint32_t v = 0; v <= r->n_slots; v++)
        r->slot_func[v] = RN_NO_FUNC;
    for (uint32_t fi = 0; fi < r->n_funcs; fi++) {
        const ir_func *g = g_ptr_array_index(m->funcs, fi);
        if (!r->finfo[fi] || !g->regs)
            continue;
        uint32_t base = env->k->funcs[fi].reg_base;
        for (uint32_t v = 0; v < g->regs->len; v++) {
            r->slot_mask[base + v] = ren_reg_mask(g, v);
            r->slot_func[base + v] = fi;
        }
    }
    blk_inst *i = r->inst;
    i->stats[RN_STAT_EXEMPT] = r->n_exempt;
    i->stats[RN_STAT_EQ1] = r->frames->eq1_bits;
    i->stats[RN_STAT_EQ1_AFTER] = r->frames->eq1_bits_after;
    i->stats[RN_STAT_FLAG_WORDS] = flag_words;
    blk_stat_add(i, RN_STAT_ARCH_ALLOCATED, (uint64_t)r->warps_eq1 * arch);
    memset(r->rfc, 0, sizeof r->rfc);
    /* the previous launch's warps have all ended: only its exempt reservations are left */
    memset(r->occ_bits, 0, sizeof r->occ_bits);
    memset(r->grp_occ, 0, r->n_groups * sizeof *r->grp_occ);
    r->n_occ = r->n_reserved = 0;
    r->tr_free = r->n_phys;
    /* exempt IDs: the availability bits of W x E IDs set at launch */
    if (r->enable && r->n_exempt) {
        if ((uint64_t)r->warps_eq1 * r->n_exempt > r->n_phys) {
            env->failed = true;
            g_string_append_printf(
                env->error,
                "renaming: %u exempt registers x %u resident warps exceed the %u physical registers",
                r->n_exempt, r->warps_eq1, r->n_phys);
            return;
        }
        for (unsigned k = r->n_phys - r->warps_eq1 * r->n_exempt; k < r->n_phys; k++)
            occupy(r, k);
    }
}

/* ---- pbr ---- */
static void apply_pbr(renaming *r, unsigned warp, uint32_t func, uint32_t pc, uint64_t cycle)
{
    uint64_t m = r->finfo[func]->pbr[pc];
    blk_stat_add(r->inst, RN_STAT_PBRS,
                 (uint64_t)(__builtin_popcountll(m) + REN_PBR_SLOTS - 1) / REN_PBR_SLOTS);
    for (; m; m &= m - 1)
        release(r, warp, func, (unsigned)__builtin_ctzll(m), EV_REL_PBR, RN_STAT_REL_PBR, cycle);
}

/* The analysis of a renamed function (the entry or a function it calls), else NULL. */
static inline const ren_info *func_info(const renaming *r, uint32_t func)
{
    return r->info && func < r->n_funcs ? r->finfo[func] : NULL;
}

static inline bool renamed_instr(const renaming *r, uint32_t func, uint32_t pc)
{
    const ren_info *in = func_info(r, func);
    return in && pc < in->n_instrs;
}

/* Exempt registers of a function's frame (decided over the entry's frames). */
static inline uint64_t exempt_of(const renaming *r, uint32_t func)
{
    return r->finfo[func]->exempt;
}

/* ---- the value path ---- */
static void rn_value(void *self, regval_access *a)
{
    renaming *r = self;
    if (!r->enable && (a->kind == REGVAL_READ || a->kind == REGVAL_WRITE) &&
        (a->warp >= r->max_warps || !r->info || a->slot >= r->n_slots ||
         r->slot_func[a->slot] == RN_NO_FUNC ||
         !base_new(r, a->warp, r->slot_func[a->slot], r->slot_mask[a->slot]))) {
        a->quiet = a->warp < r->max_warps && r->w[a->warp].base_full;
        return;
    }
    advance(r, a->cycle);
    if (a->kind == REGVAL_ALLOC) {
        if (r->kernel_no != r->env->launch.kernel_no + 1)
            setup_launch(r);
        if (a->warp < r->max_warps && !r->w[a->warp].live) {
            rn_warp *w = &r->w[a->warp];
            w->live = true;
            r->n_res_warps++;
            unsigned d = 0;
            while (d < 255 && bit(r->dense_used, d))
                d++;
            w->dense = d;
            setb(r->dense_used, d);
            if (r->enable && r->n_exempt && d >= r->warps_eq1 && !r->env->failed) {
                r->env->failed = true;
                g_string_append_printf(
                    r->env->error,
                    "renaming: warp %u is resident warp %u, but the launch reserved exempt "
                    "registers for %u (set renaming.warps)",
                    a->warp, d + 1, r->warps_eq1);
            }
        }
        return;
    }
    if (a->warp >= r->max_warps || !r->info)
        return;
    if (a->kind == REGVAL_FREE) {
        if (r->w[a->warp].live)
            r->n_res_warps--;
        warp_cleanup(r, a->warp, a->cycle);
        return;
    }
    if (a->slot >= r->n_slots || r->slot_func[a->slot] == RN_NO_FUNC)
        return; /* not a register of a renamed function */
    uint64_t mask = r->slot_mask[a->slot];
    if (!mask)
        return;
    uint32_t func = r->slot_func[a->slot];
    rn_warp *w = &r->w[a->warp];
    rn_frame *fr = frame_of(r, a->warp, func);
    base_touch(r, a->warp, func, mask);
    if (!r->enable) {
        a->quiet = w->base_full = base_full(r, a->warp);
        return;
    }
    if (a->func != REGVAL_NONE)
        frame_sync(r, a->warp, a->func, a->cycle);
    const ren_info *in = r->finfo[func];
    uint64_t exempt = exempt_of(r, func);
    bool at_pc = a->func == func && renamed_instr(r, a->func, a->pc);
    if (at_pc && in->pbr[a->pc] && !(w->pbr_done && w->pbr_func == func && w->pbr_pc == a->pc)) {
        apply_pbr(r, a->warp, func, a->pc, a->cycle); /* a pbr precedes its block's first instruction */
        w->pbr_done = true;
        w->pbr_func = func;
        w->pbr_pc = a->pc;
    }
    if (a->kind == REGVAL_READ) {
        bool poison = false;
        for (uint64_t m = mask & ~exempt; m; m &= m - 1) {
            unsigned x = (unsigned)__builtin_ctzll(m);
            blk_stat_add(r->inst, RN_STAT_LOOKUPS, 1);
            if (fr->st[x] == ST_RELEASED)
                poison = true;
            else if (fr->st[x] == ST_NEVER)
                blk_stat_add(r->inst, RN_STAT_UNWRITTEN_READS, 1);
        }
        if (poison) {
            regval_poison(a->v, UINT32_MAX);
            blk_stat_add(r->inst, RN_STAT_POISON_READS, 1);
            note(r, EV_POISON, a->warp, (unsigned)__builtin_ctzll(mask), RN_NO_PHYS, a->cycle);
        }
        uint64_t rel = at_pc ? in->rel[a->pc] & mask : 0;
        bool bad = (mask & ~exempt) && (!r->bad_callee || func != r->entry);
        if (r->bad_release && bad && ++r->bad_count % r->bad_release == 0)
            rel |= mask & ~exempt;
        for (; rel; rel &= rel - 1)
            release(r, a->warp, func, (unsigned)__builtin_ctzll(rel), EV_REL_PIR, RN_STAT_REL_PIR, a->cycle);
    } else if (a->kind == REGVAL_WRITE && a->lanes) {
        for (uint64_t m = mask; m; m &= m - 1) {
            unsigned x = (unsigned)__builtin_ctzll(m);
            if (exempt >> x & 1) {
                unsigned k = exempt_id(r, a->warp, func, x);
                if (!bit(r->on_bits, k))
                    power_on(r, k);
            } else if (fr->st[x] != ST_MAPPED) {
                allocate(r, a->warp, func, x, a->cycle);
            }
        }
    }
}

/* ---- the split fetch's sched-info stage (fetch's `layout`): the flag words before an instruction ---- */
static inline uint64_t rfc_tag(uint32_t func, uint32_t pir_pc)
{
    return ((uint64_t)func << 32 | pir_pc) + 1;
}

static int rfc_find(const renaming *r, uint32_t func, uint32_t pir_pc)
{
    for (unsigned i = 0; i < r->rfc_entries; i++)
        if (r->rfc[i].tag == rfc_tag(func, pir_pc))
            return (int)i;
    return -1;
}

/* Can a buffered instruction of some warp still use the pir at byte address `pir`? The spec's rule:
 * an entry may be replaced only when it lies more than 18 instructions behind every instruction in
 * the warps' instruction buffers (pir < pc <= pir + 18 x 8 keeps it). */
static bool rfc_in_use(const renaming *r, uint64_t tag)
{
    uint32_t func = (uint32_t)((tag - 1) >> 32), pir = (uint32_t)(tag - 1);
    const ren_info *in = r->finfo[func];
    for (unsigned v = 0; v < r->max_warps; v++) {
        const rn_warp *w = &r->w[v];
        if (!w->fq_valid || w->fq_func != func)
            continue;
        for (uint32_t p = w->fq_hi > w->fq_lo + 64 ? w->fq_hi - 64 : w->fq_lo; p < w->fq_hi; p++) {
            uint32_t a = in->pc[p];
            if (pir < a && a <= pir + REN_PIR_SLOTS * REN_INSTR_BYTES)
                return true;
        }
    }
    return false;
}

/* The entry a missing pir goes into: an empty one, else the least recently used of those no
 * buffered instruction can use; -1 when every entry is in use (the warp's fetch stalls [A]). */
static int rfc_victim(const renaming *r)
{
    int victim = -1;
    for (unsigned i = 0; i < r->rfc_entries; i++) {
        if (r->rfc[i].tag == 0)
            return (int)i;
        if ((victim < 0 || r->rfc[i].used < r->rfc[victim].used) && !rfc_in_use(r, r->rfc[i].tag))
            victim = (int)i;
    }
    return victim;
}

static uint32_t rn_word(void *self, uint32_t func, uint32_t pc)
{
    const renaming *r = self;
    const ren_info *in = func_info(r, func);
    if (!in)
        return pc;
    if (pc < in->n_instrs)
        return in->pc[pc] / REN_INSTR_BYTES;
    return in->layout->len + (pc - in->n_instrs); /* past the end: the implicit ret */
}

/* A warp's fetch reached pc: the pir covering it is looked up in the RFC (a miss fetches and decodes
 * it: a word), the pbrs before a reconvergence head are fetched (never cached); the pir is counted as
 * a hit or miss when the warp enters its window. */
static unsigned rn_flags(void *self, unsigned warp, uint32_t func, uint32_t pc, uint64_t now, uint32_t *words)
{
    renaming *r = self;
    if (warp >= r->max_warps)
        return 0;
    rn_warp *w = &r->w[warp];
    if (!renamed_instr(r, func, pc)) {
        w->fq_valid = false;
        return 0;
    }
    const ren_info *in = r->finfo[func];
    if (!w->fq_valid || func != w->fq_func || pc != w->fq_hi) { /* a redirect: the buffer was dropped */
        w->fq_valid = true;
        w->fq_func = func;
        w->fq_lo = w->fq_hi = pc;
    }
    uint32_t pir = in->pir_pc[pc];
    bool entering = in->pir_slot[pc] == 0 || w->rfc_pir != rfc_tag(func, pir);
    int e = rfc_find(r, func, pir);
    bool miss = e < 0;
    if (miss) {
        e = rfc_victim(r);
        if (e < 0) {
            blk_stat_add(r->inst, RN_STAT_RFC_FULL_STALLS, 1);
            return FETCH_LAYOUT_STALL;
        }
        r->rfc[e].tag = rfc_tag(func, pir);
        blk_stat_add(r->inst, RN_STAT_RFC_MISSES, 1);
    } else if (entering) {
        blk_stat_add(r->inst, RN_STAT_RFC_HITS, 1);
    }
    r->rfc[e].used = now + 1;
    w->rfc_pir = rfc_tag(func, pir);
    w->fq_hi = pc + 1;
    unsigned n = 0;
    if (in->pir_slot[pc] == 0) { /* a window's head: the pbrs laid out before its pir */
        uint32_t k = pir / REN_INSTR_BYTES;
        while (k > 0 && n + 1 < FETCH_MAX_FLAGS) {
            const ren_slot *s = &g_array_index(in->layout, ren_slot, k - 1);
            if (s->kind != REN_SLOT_PBR || s->instr != pc)
                break;
            k--, n++;
        }
        for (unsigned i = 0; i < n; i++)
            words[i] = k + i;
        blk_stat_add(r->inst, RN_STAT_PBR_FETCHED, n);
    }
    if (miss)
        words[n++] = pir / REN_INSTR_BYTES;
    return n;
}

/* ---- issue check: a head that writes unmapped registers needs free ones ---- */
static uint64_t head_need(const renaming *r, unsigned warp, const decoded_t *h)
{
    const rn_frame *w = frame_of(r, warp, h->func);
    uint64_t need = 0, exempt = exempt_of(r, h->func);
    for (unsigned j = 0; j < h->n_bank_dst; j++) {
        unsigned a = h->bank_dst[j];
        if (a < REN_MAX_ARCH && !(exempt >> a & 1) && w->st[a] != ST_MAPPED && !(w->resv >> a & 1))
            need |= 1ull << a;
    }
    return need;
}

static bool rn_allow(void *self, unsigned warp, const decoded_t *h, uint64_t cycle)
{
    renaming *r = self;
    if (!renamed_instr(r, h->func, h->pc) || warp >= r->max_warps)
        return true;
    uint64_t need = head_need(r, warp, h);
    if (!need)
        return true;
    rn_warp *w = &r->w[warp];
    const rn_frame *fr = frame_of(r, warp, h->func);
    unsigned avail = r->n_phys - r->n_occ - r->n_reserved;
    uint64_t pbr = r->finfo[h->func]->pbr[h->pc];
    for (; pbr; pbr &= pbr - 1) /* the head's pbr frees before it writes */
        if (fr->st[__builtin_ctzll(pbr)] == ST_MAPPED)
            avail++;
    if (r->n_occ + r->n_reserved <= r->n_phys && avail >= (unsigned)__builtin_popcountll(need)) {
        w->blocked_since = 0;
        return true;
    }
    blk_stat_add(r->inst, RN_STAT_ALLOC_STALLS, 1);
    if (!w->blocked_since)
        w->blocked_since = cycle + 1;
    w->blocked_need = need;
    w->blocked_pc = h->pc;
    if (cycle > r->last_event_cycle + r->deadlock_cycles && !r->env->failed) {
        GString *d = g_string_new(NULL);
        renaming_dump(r, d);
        r->env->failed = true;
        g_string_append_printf(r->env->error,
                               "renaming: deadlock at cycle %" G_GUINT64_FORMAT
                               ": no physical register allocated or released for %" G_GUINT64_FORMAT
                               " cycles while warps wait for one\n%s",
                               cycle, r->deadlock_cycles, d->str);
        g_string_free(d, TRUE);
    }
    return false;
}

/* ---- issued: pbr of a register-less head, load reservations ---- */
static void rn_issued(void *self, const issued_t *it)
{
    renaming *r = self;
    const ren_info *in = func_info(r, it->func);
    if (!in || it->warp >= r->max_warps)
        return;
    advance(r, it->issue_cycle);
    rn_warp *w = &r->w[it->warp];
    frame_sync(r, it->warp, it->func, it->issue_cycle);
    if (it->pc >= in->n_instrs)
        return;
    rn_frame *fr = frame_of(r, it->warp, it->func);
    uint64_t exempt = exempt_of(r, it->func);
    if (in->pbr[it->pc]) {
        if (w->pbr_done && w->pbr_func == it->func && w->pbr_pc == it->pc)
            w->pbr_done = false;
        else
            apply_pbr(r, it->warp, it->func, it->pc, it->issue_cycle);
    }
    if (w->fq_valid && w->fq_func == it->func && it->pc >= w->fq_lo && it->pc < w->fq_hi)
        w->fq_lo = it->pc + 1; /* it left the I-buffer */
    /* a load's destinations are written when the data returns: one free register each is set aside */
    if (it->cls == IR_CLASS_MEM && it->mask) {
        for (unsigned j = 0; j < it->n_bank_dst; j++) {
            unsigned a = it->bank_dst[j];
            if (a < REN_MAX_ARCH && !(exempt >> a & 1) && fr->st[a] != ST_MAPPED && !(fr->resv >> a & 1)) {
                fr->resv |= 1ull << a;
                r->n_reserved++;
            }
        }
    }
    w->blocked_since = 0;
}

/* ---- the register access path: the banks see the physical register ---- */
static rfaccess_verdict rn_access(void *self, rfaccess_req *q, unsigned *delay)
{
    renaming *r = self;
    uint32_t func = q->has_instr ? q->func : r->entry; /* the frame of the instruction's function */
    if (!func_info(r, func) || q->warp >= r->max_warps || q->reg >= REN_MAX_ARCH)
        return RFACCESS_ALLOW;
    const rn_frame *w = frame_of(r, q->warp, func);
    unsigned a = q->reg;
    if (exempt_of(r, func) >> a & 1) { /* computed at decode: no table lookup */
        q->phys = exempt_id(r, q->warp, func, a);
        return RFACCESS_ALLOW;
    }
    uint16_t last = w->last_at[a] == q->cycle ? w->last0[a] : w->last[a];
    if (last != RN_NO_PHYS)
        q->phys = last;
    if (q->write)
        return RFACCESS_ALLOW;
    if (q->cycle != r->lk_cycle) {
        r->lk_cycle = q->cycle;
        memset(r->lk_count, 0, sizeof r->lk_count);
    }
    unsigned n = r->lk_count[a % r->table_banks]++;
    if (n == 0)
        return RFACCESS_ALLOW;
    blk_stat_add(r->inst, RN_STAT_LOOKUP_CONFLICTS, n);
    *delay = n;
    return RFACCESS_DELAY;
}

static void ev_cta_start(void *self, const cta_launch_t *c, uint64_t cycle)
{
    renaming *r = self;
    (void)cycle;
    blk_call_note(r->probe[RENAMING_PORT_EVENTS], 0, c->cta, c->slot);
}
static void ev_cta_end(void *self, const cta_launch_t *c, uint64_t cycle)
{
    renaming *r = self;
    (void)cycle;
    blk_call_note(r->probe[RENAMING_PORT_EVENTS], 1, c->cta, c->slot);
}
static void ev_warp_start(void *self, unsigned warp, unsigned slot, uint64_t cycle)
{
    renaming *r = self;
    (void)cycle;
    blk_call_note(r->probe[RENAMING_PORT_EVENTS], 2, warp, slot);
}
static void ev_warp_end(void *self, unsigned warp, unsigned slot, uint64_t cycle)
{
    renaming *r = self;
    blk_call_note(r->probe[RENAMING_PORT_EVENTS], 3, warp, slot);
    (void)slot;
    if (warp < r->max_warps && r->info) {
        advance(r, cycle);
        warp_release_all(r, warp, cycle);
    }
}

/* Every method but the warp events is called for each instruction fetched, checked, issued or for
 * each register access: the notes are in tables of their own (blk_export_noted). */
static void rn_value_noted(void *self, regval_access *a)
{
    blk_call_note(((renaming *)self)->probe[RENAMING_PORT_VALUE], a->kind, a->warp, a->slot);
    rn_value(self, a);
}

static uint32_t rn_word_noted(void *self, uint32_t func, uint32_t pc)
{
    blk_call_note(((renaming *)self)->probe[RENAMING_PORT_LAYOUT], 0, func, pc);
    return rn_word(self, func, pc);
}

static unsigned rn_flags_noted(void *self, unsigned warp, uint32_t func, uint32_t pc, uint64_t now,
                               uint32_t *words)
{
    blk_call_note(((renaming *)self)->probe[RENAMING_PORT_LAYOUT], 1, func, pc);
    return rn_flags(self, warp, func, pc, now, words);
}

static bool rn_allow_noted(void *self, unsigned warp, const decoded_t *h, uint64_t cycle)
{
    blk_call_note(((renaming *)self)->probe[RENAMING_PORT_CHECK], warp, h->pc, 0);
    return rn_allow(self, warp, h, cycle);
}

static void rn_issued_noted(void *self, const issued_t *it)
{
    blk_call_note(((renaming *)self)->probe[RENAMING_PORT_ISSUED], it->warp, it->pc, 0);
    rn_issued(self, it);
}

static rfaccess_verdict rn_access_noted(void *self, rfaccess_req *q, unsigned *delay)
{
    blk_call_note(((renaming *)self)->probe[RENAMING_PORT_ACCESS], q->write, q->warp, q->reg);
    return rn_access(self, q, delay);
}

static const regval_if value_if = {rn_value};
static const regval_if value_noted = {rn_value_noted};
static const warp_events_if events_if = {ev_cta_start, ev_cta_end, ev_warp_start, ev_warp_end};
static const issue_check_if check_if = {rn_allow};
static const issue_check_if check_noted = {rn_allow_noted};
static const instr_issued_if issued_if = {rn_issued};
static const instr_issued_if issued_noted = {rn_issued_noted};
static const rfaccess_hook_if access_if = {"rename", rn_access};
static const rfaccess_hook_if access_noted = {"rename", rn_access_noted};
static const fetch_layout_if layout_if = {rn_word, rn_flags};
static const fetch_layout_if layout_noted = {rn_word_noted, rn_flags_noted};

renaming *renaming_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, unsigned max_warps,
                       const occupancy_sm *sm_occ, const bankmap_geom *geom)
{
    renaming *r = g_new0(renaming, 1);
    r->inst = blk_inst_new(ctx, parent, name, &renaming_desc);
    r->env = env;
    r->occ = *sm_occ;
    r->max_warps = max_warps;
    r->w = g_new0(rn_warp, max_warps);
    r->enable = blk_param_bool(r->inst, "enable");
    r->policy = (unsigned)blk_param_enum(r->inst, "policy");
    r->gating = (unsigned)blk_param_enum(r->inst, "gating");
    r->n_phys = (unsigned)blk_param_uint(r->inst, "phys_regs");
    r->geom = *geom;
    r->wbanks = bankmap_geom_warp_banks(geom);
    unsigned grp = bankmap_geom_group(geom);
    r->n_groups = (r->n_phys + grp - 1) / grp;
    r->grp_occ = g_new0(unsigned, r->n_groups);
    r->sub_on = g_new0(unsigned, (size_t)r->wbanks * r->n_groups);
    r->base_sub = g_new0(unsigned, (size_t)r->wbanks * r->n_groups);
    r->budget = (unsigned)blk_param_uint(r->inst, "budget_bits");
    r->le = blk_param_bool(r->inst, "budget_le");
    r->table_banks = (unsigned)blk_param_uint(r->inst, "table_banks");
    r->rfc_entries = (unsigned)blk_param_uint(r->inst, "rfc_entries");
    r->deadlock_cycles = blk_param_uint(r->inst, "deadlock_cycles");
    r->bad_release = blk_param_uint(r->inst, "bad_release");
    r->bad_callee = blk_param_bool(r->inst, "bad_release_callee");
    r->tr_free = r->n_phys;
    blk_export_noted(r->inst, RENAMING_PORT_VALUE, 0, &value_if, &value_noted, r);
    blk_export_noted(r->inst, RENAMING_PORT_CHECK, 0, &check_if, &check_noted, r);
    blk_export_noted(r->inst, RENAMING_PORT_ISSUED, 0, &issued_if, &issued_noted, r);
    blk_export_noted(r->inst, RENAMING_PORT_ACCESS, 0, &access_if, &access_noted, r);
    blk_export(r->inst, RENAMING_PORT_EVENTS, 0, &events_if, r);
    blk_export_noted(r->inst, RENAMING_PORT_LAYOUT, 0, &layout_if, &layout_noted, r);
    blk_export_probes(r->inst, r->probe, RENAMING_N_PORTS);
    blk_trace_state(r->inst, "free", GSC_U32, &r->tr_free);
    blk_trace_state(r->inst, "mapped", GSC_U32, &r->tr_mapped);
    blk_trace_state(r->inst, "subarrays_on", GSC_U32, &r->tr_sub_on);
    blk_trace_state(r->inst, "event", GSC_U32, &r->tr_event);
    blk_trace_state(r->inst, "ev_warp", GSC_U32, &r->tr_warp);
    blk_trace_state(r->inst, "ev_reg", GSC_U32, &r->tr_reg);
    blk_trace_state(r->inst, "ev_phys", GSC_U32, &r->tr_phys);
    return r;
}

blk_inst *renaming_inst(const renaming *r)
{
    return r->inst;
}

bool renaming_enabled(const renaming *r)
{
    return r->enable;
}

void renaming_bind(renaming *r, blk_inst *issue, blk_inst *regfile, blk_inst *fetch)
{
    blk_bind(issue, "value", r->inst, "value");
    if (!r->enable) { /* it only observes the baseline's gating: the run's energy is the baseline's */
        blk_energy_exclude(r->inst, BLK_ENERGY_NO_DYNAMIC | BLK_ENERGY_NO_LEAKAGE);
        return;
    }
    if (regfile) /* the gated entries' leakage replaces the banks' ungated figure in the totals */
        blk_energy_exclude(regfile, BLK_ENERGY_NO_LEAKAGE);
    blk_bind(issue, "check", r->inst, "check");
    blk_bind(issue, "issued", r->inst, "issued");
    blk_bind(issue, "warp_events", r->inst, "warp_events");
    if (regfile)
        blk_bind(regfile, "access", r->inst, "access");
    if (fetch && blk_param_bool(r->inst, "flag_fetch"))
        blk_bind(fetch, "layout", r->inst, "layout");
}

void renaming_finish(renaming *r, uint64_t cycle)
{
    advance(r, cycle);
}

void renaming_dump(void *self, GString *out)
{
    renaming *r = self;
    g_string_append_printf(out, "renaming %s: %u of %u physical registers free, %u set aside for loads\n",
                           r->inst->path, r->n_phys - r->n_occ, r->n_phys, r->n_reserved);
    for (unsigned i = 0; i < r->max_warps && r->finfo; i++) {
        const rn_warp *w = &r->w[i];
        unsigned n = 0;
        for (uint32_t f = 0; f < r->n_funcs; f++)
            for (unsigned a = 0; r->finfo[f] && a < REN_MAX_ARCH; a++)
                n += w->fr[f].st[a] == ST_MAPPED;
        if (!n && !w->blocked_since)
            continue;
        g_string_append_printf(out, "  warp %u holds %u:", i, n);
        for (uint32_t f = 0; f < r->n_funcs; f++) {
            if (!r->finfo[f])
                continue;
            const char *fn =
                f == r->entry ? "" : ((const ir_func *)g_ptr_array_index(r->env->mod->funcs, f))->name;
            for (unsigned a = 0; a < REN_MAX_ARCH; a++)
                if (w->fr[f].st[a] == ST_MAPPED)
                    g_string_append_printf(out, " %s%sR%u=P%u", fn, *fn ? ":" : "", a, w->fr[f].map[a]);
        }
        if (w->blocked_since) {
            g_string_append_printf(out, "; waits since cycle %" G_GUINT64_FORMAT " at pc %u for",
                                   w->blocked_since - 1, w->blocked_pc);
            for (uint64_t m = w->blocked_need; m; m &= m - 1)
                g_string_append_printf(out, " R%u", (unsigned)__builtin_ctzll(m));
        }
        g_string_append_c(out, '\n');
    }
}

void renaming_free(renaming *r)
{
    if (!r)
        return;
    free_launch(r);
    for (unsigned i = 0; i < r->max_warps; i++) {
        g_free(r->w[i].fr);
        g_free(r->w[i].calls);
    }
    g_free(r->grp_occ);
    g_free(r->sub_on);
    g_free(r->base_sub);
    g_free(r->w);
    g_free(r);
}

int renaming_map_frame(const renaming *r, unsigned warp, uint32_t func, unsigned arch)
{
    if (!func_info(r, func) || warp >= r->max_warps || arch >= REN_MAX_ARCH)
        return -1;
    const rn_frame *f = frame_of(r, warp, func);
    return f->st[arch] != ST_MAPPED || f->map[arch] == RN_NO_PHYS ? -1 : f->map[arch];
}

int renaming_map(const renaming *r, unsigned warp, unsigned arch)
{
    return renaming_map_frame(r, warp, r->entry, arch);
}

bool renaming_occupied(const renaming *r, unsigned phys)
{
    return phys < r->n_phys && bit(r->occ_bits, phys);
}

unsigned renaming_free_count(const renaming *r)
{
    return r->n_phys - r->n_occ;
}

unsigned renaming_subarrays_on(const renaming *r)
{
    return r->n_sub_on;
}

/* ---- greedy-then-round-robin, one of the schedulers the renaming study compares ---- */
static void *gtrr_create(const char *args, GError **err)
{
    if (args && *args) {
        g_set_error(err, POLICY_ERROR, 0, "gtrr takes no arguments (got \"%s\")", args);
        return NULL;
    }
    return g_new0(char, 1);
}

/* The last issued warp while it is ready, then the others by warp id starting after it. */
static unsigned gtrr_order(void *self, policy_warp *w, unsigned n, uint64_t cycle, unsigned *out)
{
    (void)self, (void)cycle;
    int last = -1;
    for (unsigned i = 0; i < n; i++)
        if (w[i].last_issue != POLICY_NEVER_ISSUED &&
            (last < 0 || w[i].last_issue > w[last].last_issue ||
             (w[i].last_issue == w[last].last_issue && w[i].id < w[last].id)))
            last = (int)i;
    unsigned k = 0, base = last >= 0 ? w[last].id + 1 : 0;
    if (last >= 0 && w[last].ready)
        out[k++] = (unsigned)last;
    unsigned first = k;
    for (unsigned i = 0; i < n; i++) {
        if ((int)i == last || !w[i].ready)
            continue;
        unsigned key = w[i].id - base, j = k++; /* distance after the last issued id (wraps) */
        while (j > first && w[out[j - 1]].id - base > key) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = i;
    }
    return k;
}

static const policy_class gtrr_class = {
    "gtrr",      "greedy-then-round-robin: the last issued warp while ready, then round-robin by warp id",
    gtrr_create, g_free,
    gtrr_order,  true};

void renaming_register_policies(void)
{
    if (!policy_lookup(gtrr_class.name))
        policy_register(&gtrr_class);
}
