/* ccu.c — see ccu.h. */
#include "models/sm/ccu.h"

#include <string.h>

#include "kernels/analysis/regalloc.h"
#include "models/sm/arbiter.h"

static const blk_port_desc ports[] = {
    [CCU_VETO] = {"veto", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                  "the partition's arbiter asks it per candidate: the warp priority and the collector "
                  "allocator decide (a refusal strikes every candidate this cycle)",
                  &issue_veto_iface},
};

static const char *const repl_names[] = {"malekeh", "lru", NULL};
static const char *const hint_names[] = {"near", "far", NULL};
static const char *const stale_names[] = {"invalidate", "keep", NULL};
static const char *const sthld_modes[] = {"fixed", "dynamic", NULL};
static const char *const scopes[] = {"sm", "subcore", NULL};
static const char *const ctrl_scopes[] = {"gpu", "sm", NULL};

static const blk_param_desc params[] = {
    {"ct_entries", BLK_PARAM_UINT, "8", "1", "16", NULL, "entries", "Cache Table entries per CCU [S: 8]"},
    {"oct_slots", BLK_PARAM_UINT, "6", "1", "8", NULL, "slots",
     "operand slots per collector; an instruction with more source registers bypasses the CT [S: 6]"},
    {"sthld", BLK_PARAM_UINT, "0", "0", "1000", NULL, "attempts",
     "STHLD: postponed allocations before a near CCU is flushed (fixed mode; dynamic: the start) [A: 0]"},
    {"sthld_mode", BLK_PARAM_ENUM, "fixed", NULL, NULL, sthld_modes, "",
     "fixed STHLD, or the dynamic controller (6-state FSM, placeholder table) [S §11; table A]"},
    {"sthld_interval", BLK_PARAM_UINT, "10000", "1", NULL, NULL, "cycles",
     "dynamic STHLD interval [S: 10,000]"},
    {"sthld_max", BLK_PARAM_INT, "-1", "-1", "1000", NULL, "attempts",
     "upper clamp of dynamic STHLD (-1: none) [A]"},
    {"sthld_scope", BLK_PARAM_ENUM, "gpu", NULL, NULL, ctrl_scopes, "",
     "one STHLD and controller for the GPU (measuring the GPU's IPC) [S], or one per SM"},
    {"counter_scope", BLK_PARAM_ENUM, "sm", NULL, NULL, scopes, "",
     "the STHLD waiting counter: one per SM (shared by the sub-cores) or per sub-core [X: default SM]"},
    {"replacement", BLK_PARAM_ENUM, "malekeh", NULL, NULL, repl_names, "",
     "CT replacement: invalid, then a random unlocked far entry, then LRU (malekeh); or LRU [S §8]"},
    {"hints", BLK_PARAM_ENUM, "near", NULL, NULL, hint_names, "",
     "reuse hint of every operand when no profile is given (the testbench gives the profile pass's) [A]"},
    {"stale_policy", BLK_PARAM_ENUM, "invalidate", NULL, NULL, stale_names, "",
     "a write to a register cached in its warp's CCU invalidates it; keep = a deliberately broken CCU "
     "(tests: a stale copy must fail the output check) [A §9]"},
    {"rng_seed", BLK_PARAM_UINT, "1", "0", NULL, NULL, "",
     "seed of the allocator's and replacement's RNG (not the workload's --seed) [A]"},
    {"bow_window", BLK_PARAM_UINT, "3", "1", "16", NULL, "instructions",
     "bow: the window of a warp's last issued instructions whose operands stay forwardable [S: 3]"},
    {"active_warps", BLK_PARAM_UINT, "2", "1", "64", NULL, "warps",
     "rfc_2lev: active set per sub-core of the two-level scheduler [S: 2 of 8]"},
    {"rfc_entries", BLK_PARAM_UINT, "6", "1", "16", NULL, "entries",
     "rfc, sw_rfc: cache entries (warp registers) per active warp [A: RFC's 6 per thread]"},
    {"e_ct_write", BLK_PARAM_DOUBLE, "1.14", "0", NULL, NULL, "pJ",
     "energy of a CT data write at port D [A: as opcoll.e_operand_fill]"},
    {"e_tag_lookup", BLK_PARAM_DOUBLE, "0.1", "0", NULL, NULL, "pJ",
     "energy of an 8-entry, 8-bit tag CAM lookup [A: the source gives no per-access energies]"},
};

static const blk_stat_desc stats[] = {
    [CCU_STAT_HITS] = {"ct_hits", BLK_STAT_COUNTER, "operands",
                       "source registers found in the CT (no bank read)", NULL},
    [CCU_STAT_MISSES] = {"ct_misses", BLK_STAT_COUNTER, "operands", "source registers read from a bank",
                         NULL},
    [CCU_STAT_TAG_LOOKUPS] = {"tag_lookups", BLK_STAT_COUNTER, "lookups",
                              "CT tag checks (one per source at allocation, one per port-D write)", NULL},
    [CCU_STAT_UNCACHED] = {"uncached", BLK_STAT_COUNTER, "instructions",
                           "instructions with more source registers than oct_slots (read from the banks)",
                           NULL},
    [CCU_STAT_FILLS_S] = {"fills_s", BLK_STAT_COUNTER, "operands", "CT entries filled from a bank (port S)",
                          NULL},
    [CCU_STAT_WRITES_D] = {"writes_d", BLK_STAT_COUNTER, "registers", "results written into a CT (port D)",
                           NULL},
    [CCU_STAT_D_SQUASHED] = {"d_squashed", BLK_STAT_COUNTER, "registers",
                             "results of the owning warp not cached: far hint (write filter)", NULL},
    [CCU_STAT_D_CONFLICTS] = {"d_conflicts", BLK_STAT_COUNTER, "registers",
                              "near results not cached: port D taken this cycle", NULL},
    [CCU_STAT_D_NO_CCU] = {"d_no_ccu", BLK_STAT_COUNTER, "registers",
                           "results of a warp that owns no CCU (RF only)", NULL},
    [CCU_STAT_CT_READS] = {"ct_reads", BLK_STAT_COUNTER, "operands", "CT reads at dispatch (through the MUX)",
                           NULL},
    [CCU_STAT_STALE_HITS] = {"stale_hits", BLK_STAT_COUNTER, "operands",
                             "hits whose copy differed from the register (a model check: 0 unless "
                             "stale_policy=keep)",
                             NULL},
    [CCU_STAT_INVALIDATIONS] = {"invalidations", BLK_STAT_COUNTER, "entries",
                                "cached registers invalidated by a write", NULL},
    [CCU_STAT_ALLOC_OWN] = {"alloc_own", BLK_STAT_COUNTER, "allocations", "case 3: the warp's own CCU", NULL},
    [CCU_STAT_ALLOC_FAR] = {"alloc_far", BLK_STAT_COUNTER, "allocations", "case 5: a free far CCU", NULL},
    [CCU_STAT_ALLOC_FORCED] = {"alloc_forced", BLK_STAT_COUNTER, "allocations",
                               "case 9: STHLD reached, a near CCU taken", NULL},
    [CCU_STAT_ALLOC_RANDOM] = {"alloc_random", BLK_STAT_COUNTER, "allocations",
                               "a random free collector (ocu_random, ccu_lru)", NULL},
    [CCU_STAT_FLUSHES_FAR] = {"flushes_far", BLK_STAT_COUNTER, "flushes", "CTs flushed at case 5 (non-empty)",
                              NULL},
    [CCU_STAT_FLUSHES_FORCED] = {"flushes_forced", BLK_STAT_COUNTER, "flushes", "CTs flushed at case 9",
                                 NULL},
    [CCU_STAT_FLUSHES_RANDOM] = {"flushes_random", BLK_STAT_COUNTER, "flushes",
                                 "CTs flushed by the random allocator (ccu_lru)", NULL},
    [CCU_STAT_STALL_OWN_BUSY] = {"stall_own_busy", BLK_STAT_COUNTER, "cycles",
                                 "case 4: the chosen warp's CCU is occupied", NULL},
    [CCU_STAT_STALL_ALL_BUSY] = {"stall_all_busy", BLK_STAT_COUNTER, "cycles",
                                 "case 6: every collector occupied", NULL},
    [CCU_STAT_STALL_WAIT] = {"stall_wait", BLK_STAT_COUNTER, "cycles",
                             "case 7: postponed (free CCUs hold near data, counter < STHLD)", NULL},
    [CCU_STAT_INTERVALS] = {"sthld_intervals", BLK_STAT_COUNTER, "intervals",
                            "dynamic STHLD intervals elapsed (partition 0)", NULL},
    [CCU_STAT_STHLD] = {"sthld_sum", BLK_STAT_COUNTER, "attempts",
                        "sum of STHLD over the intervals (mean = sthld_sum / sthld_intervals)", NULL},
    [CCU_STAT_TL_PENDING_READY] = {"tl_pending_ready", BLK_STAT_COUNTER, "cycles",
                                   "rfc_2lev: no active warp ready while a pending one is (the two-level "
                                   "scheduler's penalty)",
                                   NULL},
    [CCU_STAT_TL_PROMOTIONS] = {"tl_promotions", BLK_STAT_COUNTER, "warps",
                                "rfc_2lev: pending warps moved into the active set", NULL},
    [CCU_STAT_TL_DEMOTIONS] = {"tl_demotions", BLK_STAT_COUNTER, "warps",
                               "rfc_2lev: active warps demoted (waiting on a long-latency operation)", NULL},
    [CCU_STAT_ORACLE_LOST] = {"oracle_lost", BLK_STAT_COUNTER, "instructions",
                              "oracle hints: instructions not found in the warp's functional stream (the "
                              "profile's hints used)",
                              NULL},
};

static const blk_energy_event energy_events[] = {
    {"ct_write", "writes_d", "e_ct_write", BLK_COMP_RFP},
    {"tag_lookup", "tag_lookups", "e_tag_lookup", BLK_COMP_RFP},
};
static const blk_energy_desc energy = {energy_events, BLK_N(energy_events), NULL, 0, NULL};

static const blk_state_desc state[] = {
    {"ccu%u_warp", 8, "warp whose registers CCU %u holds (255: none)"},
    {"ccu%u_busy", 1, "CCU %u holds an instruction awaiting dispatch"},
    {"ccu%u_valid", 16, "CT valid bits of CCU %u"},
    {"ccu%u_near", 16, "CT RD bits (1 near) of CCU %u"},
    {"ccu%u_lock", 16, "CT lock bits of CCU %u"},
    {"ccu%u_tag%u", 16, "tag (physical register) of entry %u of CCU %u"},
    {"wc%u_valid", 16, "rfc, sw_rfc: valid bits of the cache of the partition's warp %u"},
    {"case", 4, "the allocator's case this cycle (3-10; 0 none)"},
    {"sthld", 16, "current STHLD"},
    {"counter", 16, "the STHLD waiting counter"},
};

const blk_desc ccu_desc = {
    "ccu",
    "collector units allocated at issue: the plain OCU, Malekeh's cached CCUs (CT, allocator, STHLD), "
    "the LRU-cached ablation, private CCUs (Malekeh_PR), BOW's per-warp windows, the two-level scheduler",
    "docs/rfcache.md; RF-cache (Malekeh) spec §4-§11",
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

/* The STHLD controller: GPU-wide (one for every SM of a blk_ctx, [S]) or per SM (sthld_scope). */
struct ccu_sm {
    bool dynamic;
    unsigned interval;
    uint64_t next, issued;
    rfc_sthld_ctrl ctrl;
    int sthld;
    blk_inst *inst; /* partition 0's: the interval statistics */
    GArray *trace;  /* int per interval */
};

typedef struct {
    uint64_t seq, order; /* order: allocation order (opcoll takes its FIFO in that order) */
    int warp;
    bool taken, uncached;
    uint32_t num;     /* bow: the warp's instruction number */
    bool orc;         /* oracle bits found for the instruction: */
    uint32_t orc_dst; /* its destinations' */
    uint8_t n_hit;
    uint16_t hit[SM_MAX_BANK_READS];
} ccu_rec;

typedef struct {
    uint8_t n_src, n_dst;
    uint16_t src[SM_MAX_BANK_READS], dst[SM_MAX_BANK_WRITES];
    uint32_t src_near, dst_near;
} ccu_sinfo;

typedef struct {
    uint64_t issue_cycle;
    uint32_t func, pc;
    uint32_t num; /* bow: the warp's instruction number */
    bool orc;     /* dst_near is the oracle's (else the static hints') */
    uint32_t dst_near;
} ccu_inflight;

/* Oracle hints: where a warp is in its functional stream. */
typedef struct {
    int stream; /* -1: none */
    uint64_t k; /* the stream's next dynamic instruction */
    uint64_t cycle;
    uint32_t func, pc; /* the instance seen last */
    bool ok;
    uint32_t src, dst; /* its bits (ok) */
} ccu_orc;
#define CCU_ORC_WINDOW 16 /* instructions without register accesses skipped looking for the next match */

enum { Q_RELEASE, Q_WRITE };
typedef struct {
    uint64_t cycle, issue_cycle;
    uint8_t kind, k, u, near; /* k: RELEASE's collector */
    uint16_t warp, slot, phys;
    uint32_t num; /* bow: the producer's instruction number */
} ccu_event;

static GHashTable *gpu_ctrl; /* blk_ctx -> the ccu block holding its GPU-wide STHLD controller */

struct ccu_blk {
    blk_call_probe *probe[CCU_VETO + 1]; /* the exports' traced calls, by port (blk_export_probes) */
    blk_inst *inst;
    sm_env *env;
    wexec *wx;
    ccu_mode mode;
    bool caching, private_ccus; /* CTs in use; one CCU per warp (ccu_pr, bow) */
    rfc_ccu *wc;                /* rfc, sw_rfc: one cache per warp of the partition (NULL: none) */
    unsigned n_wc;
    unsigned part, parts, n, warps, oct_slots, window, active_max;
    uint32_t *num; /* bow: instructions allocated per warp */
    uint64_t *tl;  /* rfc_2lev: per warp, seq << 2 | state (0 new, 1 active, 2 pending) */
    uint64_t tl_seq;
    rfc_repl repl;
    bool keep_stale;
    int hint_default; /* all-ones or 0 */
    unsigned fixed_sthld;
    rfc_ccu *c;
    ccu_rec *rec;
    uint64_t *portd; /* cycle + 1 of the last port-D write per CCU */
    rfc_rng rng;
    ccu_sm *sm, own_sm;
    bool owns_sm;
    unsigned *sm_counter, counter_store; /* the SM's waiting counter: partition 0's */
    unsigned own_counter;
    bool counter_sm;
    /* the decision of this cycle */
    uint64_t dec_cycle;
    int dec_warp;
    bool dec_refuse;
    int pend_warp, pend_ccu;
    uint64_t pend_cycle, n_alloc;
    /* slots -> physical registers */
    unsigned n_slots;
    uint16_t *slot_phys;
    uint8_t *slot_units;
    unsigned n_phys;
    uint64_t *last_write; /* [warp * n_phys + phys]: issue cycle of the last write + 1 */
    GHashTable *sinfo;    /* (func << 32 | pc) -> ccu_sinfo */
    GHashTable *inflight; /* seq -> ccu_inflight */
    GArray *queue;        /* ccu_event, applied in the cycle after (process `apply`, or an earlier call) */
    gsc_event *queued;    /* an event was queued: `apply` runs the next cycle */
    const rp_profile *prof;
    rp_trace *trace; /* oracle mode: the streams (NULL: off) */
    const rp_profile *oracle;
    ccu_orc *orc; /* [warps] */
    blk_ctx *ctx; /* set when this block holds the context's GPU-wide controller */
    /* traced */
    uint8_t tr_warp[64], tr_busy[64];
    uint16_t tr_valid[64], tr_near[64], tr_lock[64], tr_tag[64 * RFC_MAX_CT], *tr_wc;
    uint8_t tr_case;
    uint16_t tr_sthld, tr_counter;
};

blk_inst *ccu_inst(ccu_blk *b)
{
    return b->inst;
}

void ccu_set_profile(ccu_blk *b, const rp_profile *p)
{
    b->prof = p;
    g_hash_table_remove_all(b->sinfo);
}

void ccu_set_oracle(ccu_blk *b, rp_trace *t, const rp_profile *oracle)
{
    b->trace = t;
    b->oracle = oracle;
    g_free(b->orc);
    b->orc = g_new0(ccu_orc, b->warps);
    for (unsigned w = 0; w < b->warps; w++)
        b->orc[w].stream = -1;
}

/* ---- tables --------------------------------------------------------------------------------------- */
static void build_slots(ccu_blk *b)
{
    const kload_module *k = b->env->k;
    const ir_module *m = b->env->mod;
    b->n_slots = k->total_regs;
    b->slot_phys = g_new0(uint16_t, b->n_slots + 1);
    b->slot_units = g_new0(uint8_t, b->n_slots + 1);
    unsigned maxp = 0;
    for (unsigned f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        if (!fn->regs)
            continue;
        for (unsigned r = 0; r < fn->regs->len; r++) {
            const ir_reg *reg = &g_array_index(fn->regs, ir_reg, r);
            unsigned slot = k->funcs[f].reg_base + r, units = regalloc_units((ir_type)reg->type), p = slot;
            if (slot >= b->n_slots || units == 0)
                continue;
            if (reg->phys != IR_NONE)
                p = reg->phys;
            else
                units = 1;
            b->slot_phys[slot] = (uint16_t)p;
            b->slot_units[slot] = (uint8_t)MIN(units, 2u);
            maxp = MAX(maxp, p + units);
        }
    }
    b->n_phys = maxp + 1;
    b->last_write = g_new0(uint64_t, (size_t)b->warps * b->n_phys);
}

static const ccu_sinfo *sinfo(ccu_blk *b, uint32_t func, uint32_t pc)
{
    guint64 key = (guint64)func << 32 | pc;
    ccu_sinfo *s = g_hash_table_lookup(b->sinfo, &key);
    if (s)
        return s;
    s = g_new0(ccu_sinfo, 1);
    const ir_func *fn = g_ptr_array_index(b->env->mod->funcs, func);
    if (pc < ir_func_n_instrs(fn))
        wexec_instr_bank_regs(b->env->mod, b->env->k, func, ir_func_instr(fn, pc), s->src, &s->n_src, s->dst,
                              &s->n_dst);
    if (!b->prof || !rp_hints(b->prof, func, pc, &s->src_near, &s->dst_near))
        s->src_near = s->dst_near = (uint32_t)b->hint_default;
    if (b->mode == CCU_MODE_LRU || b->mode == CCU_MODE_BOW || b->mode == CCU_MODE_RFC)
        s->dst_near = UINT32_MAX; /* every write of the owning warp is cached */
    guint64 *kk = g_new(guint64, 1);
    *kk = key;
    g_hash_table_insert(b->sinfo, kk, s);
    return s;
}

static int index_of(const uint16_t *v, unsigned n, unsigned p)
{
    for (unsigned i = 0; i < n; i++)
        if (v[i] == p)
            return (int)i;
    return -1;
}

static int owner(const ccu_blk *b, unsigned warp)
{
    for (unsigned k = 0; k < b->n; k++)
        if (b->c[k].warp == (int)warp)
            return (int)k;
    return -1;
}

enum { TL_NEW, TL_ACTIVE, TL_PENDING };

/* The cache holding warp's registers and its port-D index: its CCU's CT, or (rfc, sw_rfc) its own
 * cache while it is active; NULL: none. */
static rfc_ccu *cache_of(ccu_blk *b, unsigned warp, unsigned *port)
{
    if (b->wc) {
        unsigned i = warp / b->parts;
        if (i >= b->n_wc || (b->tl[warp] & 3) != TL_ACTIVE)
            return NULL;
        *port = b->n + i;
        return &b->wc[i];
    }
    int k = owner(b, warp);
    *port = (unsigned)k;
    return k < 0 ? NULL : &b->c[k];
}

/* The model keeps each function's registers apart (a callee's physical register p is not its
 * caller's p: no ABI spill), so an entry is the value of one register slot: the same tag held for
 * another slot is a miss, and the entry is given up. */
static bool drop_other_owner(rfc_ccu *c, unsigned p, unsigned slot)
{
    int i = rfc_lookup(c, p);
    if (i < 0 || c->ct[i].owner == slot)
        return true;
    if (c->ct[i].lock)
        return false; /* a source of the instruction in the CCU: this operand bypasses the CT */
    c->ct[i].valid = false;
    return true;
}

/* ---- the queue of opcoll's changes -------------------------------------------------------------------- */
/* Port D: a result of cycle e->cycle reaches the CCU its warp owns now (none: RF only); only a near
 * one is written (the write filter), one per CCU and cycle (the first, i.e. the oldest result). */
static void apply_write(ccu_blk *b, const ccu_event *e)
{
    unsigned k;
    rfc_ccu *c = cache_of(b, e->warp, &k);
    if (!c) {
        blk_stat_add(b->inst, CCU_STAT_D_NO_CCU, 1);
        return;
    }
    if (!e->near) {
        blk_stat_add(b->inst, CCU_STAT_D_SQUASHED, 1);
        return;
    }
    if (b->last_write[(size_t)e->warp * b->n_phys + e->phys] > e->issue_cycle + 1)
        return; /* a newer write of the register was issued: its own write-back decides */
    if (b->mode == CCU_MODE_BOW && e->num + b->window <= b->num[e->warp]) {
        blk_stat_add(b->inst, CCU_STAT_D_SQUASHED, 1); /* its slot slid out of the window: RF only */
        return;
    }
    unsigned port = b->mode == CCU_MODE_BOW ? 0 : k; /* bow: one write crossbar per sub-core */
    if (b->portd[port] == e->cycle + 1) {
        blk_stat_add(b->inst, CCU_STAT_D_CONFLICTS, 1);
        return;
    }
    b->portd[port] = e->cycle + 1;
    blk_stat_add(b->inst, CCU_STAT_TAG_LOOKUPS, 1);
    if (!drop_other_owner(c, e->phys, e->slot))
        return;
    int i = rfc_dest(c, e->phys, true, b->repl, &b->rng);
    if (i < 0)
        return;
    c->ct[i].owner = e->slot;
    if (b->mode == CCU_MODE_BOW)
        c->ct[i].lru = MAX(c->ct[i].lru, e->num);
    for (unsigned l = 0; l < RFC_LANES; l++)
        c->ct[i].data[l] = (uint32_t)(wexec_read_slot(b->wx, e->warp, e->slot, l) >> (32 * e->u));
    blk_stat_add(b->inst, CCU_STAT_WRITES_D, 1);
}

static void trace_ccus(ccu_blk *b)
{
    for (unsigned k = 0; k < b->n && k < 64; k++) {
        const rfc_ccu *c = &b->c[k];
        b->tr_warp[k] = c->warp < 0 ? 255 : (uint8_t)c->warp;
        b->tr_busy[k] = c->busy;
        uint16_t v = 0, nr = 0, lk = 0;
        for (unsigned i = 0; i < c->n_ct; i++) {
            v |= (uint16_t)(c->ct[i].valid << i);
            nr |= (uint16_t)((c->ct[i].valid && c->ct[i].near) << i);
            lk |= (uint16_t)(c->ct[i].lock << i);
            b->tr_tag[k * RFC_MAX_CT + i] = c->ct[i].valid ? c->ct[i].tag : 0;
        }
        b->tr_valid[k] = v, b->tr_near[k] = nr, b->tr_lock[k] = lk;
    }
    for (unsigned i = 0; i < b->n_wc; i++) {
        uint16_t v = 0;
        for (unsigned e = 0; e < b->wc[i].n_ct; e++)
            v |= (uint16_t)(b->wc[i].ct[e].valid << e);
        b->tr_wc[i] = v;
    }
    b->tr_sthld = (uint16_t)b->sm->sthld;
    b->tr_counter = (uint16_t)(b->counter_sm ? *b->sm_counter : b->own_counter);
}

/* Opcoll's changes of earlier cycles take effect. */
static void sync(ccu_blk *b, uint64_t now)
{
    if (b->queue->len == 0)
        return;
    guint k = 0;
    for (; k < b->queue->len; k++) {
        const ccu_event *e = &g_array_index(b->queue, ccu_event, k);
        if (e->cycle >= now)
            break;
        if (e->kind == Q_RELEASE) {
            rfc_unlock_all(&b->c[e->k]);
            b->c[e->k].busy = false;
        } else {
            apply_write(b, e);
        }
    }
    g_array_remove_range(b->queue, 0, k);
    trace_ccus(b);
}

/* Process `apply`: what opcoll queued in cycle t lands in cycle t + 1 whether or not issue calls the
 * block then (a call of that cycle that comes first has applied it already). */
static void ccu_apply(void *ctx)
{
    ccu_blk *b = ctx;
    sync(b, gsc_cycle());
}

/* ---- the dynamic STHLD controller ------------------------------------------------------------------ */
static void sm_intervals(ccu_blk *b, uint64_t now)
{
    ccu_sm *s = b->sm;
    if (!s->dynamic)
        return;
    while (now >= s->next) {
        rfc_sthld_step(&s->ctrl, (double)s->issued / s->interval);
        s->issued = 0;
        s->next += s->interval;
        s->sthld = s->ctrl.sthld;
        blk_stat_add(s->inst, CCU_STAT_INTERVALS, 1);
        blk_stat_add(s->inst, CCU_STAT_STHLD, (uint64_t)s->sthld);
        int v = s->sthld;
        g_array_append_val(s->trace, v);
    }
}

static unsigned sthld_now(const ccu_blk *b)
{
    return b->sm->dynamic ? (unsigned)b->sm->sthld : b->fixed_sthld;
}

/* ---- the veto: warp priority and allocation ----------------------------------------------------------- */
static bool before(const policy_warp *a, const policy_warp *x)
{
    return a->age != x->age ? a->age < x->age : a->id < x->id;
}

/* rfc_2lev: the two-level scheduler's sets (active warps waiting on a long-latency operation demoted,
 * new warps pending, the oldest ready pending warps promoted into free active slots); in[i]: w[i] may
 * be picked (active). */
static void two_level_sets(ccu_blk *b, const policy_warp *w, unsigned n, bool *in)
{
    unsigned active = 0;
    bool pending_ready = false;
    for (unsigned i = 0; i < n; i++) {
        uint64_t *t = &b->tl[w[i].id];
        if ((*t & 3) == TL_NEW || ((*t & 3) == TL_ACTIVE && w[i].long_stall)) {
            if ((*t & 3) == TL_ACTIVE) {
                blk_stat_add(b->inst, CCU_STAT_TL_DEMOTIONS, 1);
                if (b->wc && rfc_valid_count(&b->wc[w[i].id / b->parts]) > 0) {
                    rfc_flush(&b->wc[w[i].id / b->parts]); /* its cache space goes to the next active warp */
                    blk_stat_add(b->inst, CCU_STAT_FLUSHES_RANDOM, 1);
                }
            }
            *t = b->tl_seq++ << 2 | TL_PENDING;
        }
        active += (*t & 3) == TL_ACTIVE;
    }
    while (active < b->active_max) {
        int o = -1;
        for (unsigned i = 0; i < n; i++)
            if ((b->tl[w[i].id] & 3) == TL_PENDING && w[i].ready && !w[i].long_stall &&
                (o < 0 || before(&w[i], &w[o])))
                o = (int)i;
        if (o < 0)
            break;
        b->tl[w[o].id] = TL_ACTIVE;
        blk_stat_add(b->inst, CCU_STAT_TL_PROMOTIONS, 1);
        active++;
    }
    bool active_ready = false;
    for (unsigned i = 0; i < n; i++) {
        in[i] = (b->tl[w[i].id] & 3) == TL_ACTIVE;
        active_ready |= in[i] && w[i].ready;
        pending_ready |= !in[i] && w[i].ready;
    }
    if (!active_ready && pending_ready)
        blk_stat_add(b->inst, CCU_STAT_TL_PENDING_READY, 1);
}

static void decide(ccu_blk *b, const policy_warp *w, unsigned n, uint64_t cycle)
{
    b->dec_cycle = cycle;
    b->dec_refuse = true;
    b->tr_case = 0;
    bool in_buf[64], *in = n <= 64 ? in_buf : g_new(bool, n);
    for (unsigned i = 0; i < n; i++)
        in[i] = true;
    if (b->tl)
        two_level_sets(b, w, n, in);
    int g = -1;
    for (unsigned i = 0; i < n; i++)
        if (in[i] && w[i].last_issue != POLICY_NEVER_ISSUED && (g < 0 || w[i].last_issue > w[g].last_issue))
            g = (int)i;
    int pick = g >= 0 && w[g].ready ? g : -1;
    if (pick < 0) {
        bool reuse = b->mode == CCU_MODE_MALEKEH || b->mode == CCU_MODE_PR;
        int cat = 2;
        for (unsigned i = 0; i < n; i++) {
            if (!w[i].ready || !in[i])
                continue;
            int ci = reuse && owner(b, w[i].id) >= 0 ? 0 : 1;
            if (pick < 0 || ci < cat || (ci == cat && before(&w[i], &w[pick])))
                pick = (int)i, cat = ci;
        }
    }
    if (in != in_buf)
        g_free(in);
    if (pick < 0)
        return;
    unsigned warp = w[pick].id;
    b->dec_warp = (int)warp;
    if (w[pick].flags & POLICY_F_MEM) { /* the LD/ST unit takes it: no collector */
        b->dec_refuse = false;
        b->sm->issued++;
        return;
    }
    int k;
    rfc_alloc_case ac;
    if (b->mode == CCU_MODE_MALEKEH) {
        unsigned *counter = b->counter_sm ? b->sm_counter : &b->own_counter;
        ac = rfc_allocate(b->c, b->n, (int)warp, counter, sthld_now(b), &b->rng, &k);
    } else if (b->private_ccus) { /* the warp's own CCU, never another's */
        k = (int)(warp / b->parts);
        ac = b->c[k].busy ? RFC_ALLOC_OWN_BUSY : RFC_ALLOC_OWN;
        if (ac == RFC_ALLOC_OWN_BUSY)
            k = -1;
    } else {
        ac = rfc_allocate_random(b->c, b->n, b->mode == CCU_MODE_LRU ? (int)warp : RFC_NO_WARP - 1, &b->rng,
                                 &k);
    }
    b->tr_case = (uint8_t)ac;
    static const int stat_of[] = {
        [RFC_ALLOC_OWN] = CCU_STAT_ALLOC_OWN,      [RFC_ALLOC_OWN_BUSY] = CCU_STAT_STALL_OWN_BUSY,
        [RFC_ALLOC_FAR] = CCU_STAT_ALLOC_FAR,      [RFC_ALLOC_ALL_BUSY] = CCU_STAT_STALL_ALL_BUSY,
        [RFC_ALLOC_WAIT] = CCU_STAT_STALL_WAIT,    [RFC_ALLOC_FORCED] = CCU_STAT_ALLOC_FORCED,
        [RFC_ALLOC_RANDOM] = CCU_STAT_ALLOC_RANDOM};
    blk_stat_add(b->inst, (unsigned)stat_of[ac], 1);
    if (k < 0) {
        trace_ccus(b);
        return;
    }
    rfc_ccu *c = &b->c[k];
    if (c->warp != (int)warp) {
        if (rfc_valid_count(c) > 0)
            blk_stat_add(b->inst,
                         ac == RFC_ALLOC_FAR      ? CCU_STAT_FLUSHES_FAR
                         : ac == RFC_ALLOC_FORCED ? CCU_STAT_FLUSHES_FORCED
                                                  : CCU_STAT_FLUSHES_RANDOM,
                         1);
        rfc_flush(c);
        c->warp = b->caching && !b->wc ? (int)warp : RFC_NO_WARP;
    }
    c->busy = true;
    b->rec[k] = (ccu_rec){.order = b->n_alloc++, .warp = (int)warp};
    if (b->mode == CCU_MODE_BOW) { /* the window slides: what only older instructions held is gone */
        b->rec[k].num = ++b->num[warp];
        rfc_window_expire(c, b->rec[k].num, b->window);
    }
    b->pend_warp = (int)warp;
    b->pend_ccu = k;
    b->pend_cycle = cycle;
    b->dec_refuse = false;
    b->sm->issued++;
    trace_ccus(b);
}

static bool ccu_veto(void *self, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    ccu_blk *b = self;
    if (b->dec_cycle != cycle) {
        sync(b, cycle);
        sm_intervals(b, cycle);
        b->dec_warp = -1;
        decide(b, w, n, cycle);
    }
    return b->dec_refuse || (int)w[i].id != b->dec_warp;
}

/* Called for every warp the arbiter considers: the note is in a table of its own (blk_export_noted). */
static bool ccu_veto_noted(void *self, const policy_warp *w, unsigned n, unsigned i, uint64_t cycle)
{
    blk_call_note(((ccu_blk *)self)->probe[CCU_VETO], w[i].id, 0, 0);
    return ccu_veto(self, w, n, i, cycle);
}

static const issue_veto_if veto_table = {ccu_veto};
static const issue_veto_if veto_noted = {ccu_veto_noted};

/* ---- the register value path ----------------------------------------------------------------------- */
static void on_read(ccu_blk *b, regval_access *a)
{
    if (!b->caching || b->pend_warp != (int)a->warp || b->pend_cycle != a->cycle || a->func == REGVAL_NONE ||
        a->slot >= b->n_slots || b->slot_units[a->slot] == 0)
        return;
    ccu_rec *r = &b->rec[b->pend_ccu];
    const ccu_sinfo *s = sinfo(b, a->func, a->pc);
    if (s->n_src > b->oct_slots) {
        r->uncached = true;
        return;
    }
    unsigned port;
    rfc_ccu *c = b->wc ? cache_of(b, a->warp, &port) : &b->c[b->pend_ccu];
    if (!c)
        return; /* a pending warp has no cache space */
    for (unsigned u = 0; u < b->slot_units[a->slot]; u++) {
        unsigned p = b->slot_phys[a->slot] + u;
        int idx = index_of(s->src, s->n_src, p);
        if (idx < 0 || index_of(r->hit, r->n_hit, p) >= 0)
            continue;
        bool hit;
        if (!drop_other_owner(c, p, a->slot))
            continue;
        uint32_t near = r->orc ? b->orc[a->warp].src : s->src_near;
        int e = b->wc ? rfc_lookup(c, p) : rfc_source(c, p, near >> idx & 1, b->repl, &b->rng, &hit);
        if (b->wc) /* RFC: looked up, never filled by a read */
            hit = e >= 0;
        blk_stat_add(b->inst, CCU_STAT_TAG_LOOKUPS, 1);
        if (e < 0)
            continue;
        rfc_entry *en = &c->ct[e];
        en->owner = a->slot;
        if (b->mode == CCU_MODE_BOW)
            en->lru = r->num;
        if (hit) {
            r->hit[r->n_hit++] = (uint16_t)p;
            blk_stat_add(b->inst, CCU_STAT_HITS, 1);
            unsigned sh = 32 * u;
            uint64_t keep = ~((uint64_t)UINT32_MAX << sh);
            bool stale = false;
            for (uint32_t m = a->lanes; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                stale |= (uint32_t)(a->v[l] >> sh) != en->data[l];
                a->v[l] = (a->v[l] & keep) | (uint64_t)en->data[l] << sh;
            }
            if (stale)
                blk_stat_add(b->inst, CCU_STAT_STALE_HITS, 1);
        } else {
            for (unsigned l = 0; l < RFC_LANES; l++)
                en->data[l] = (uint32_t)(a->v[l] >> (32 * u));
        }
    }
}

static void on_write(ccu_blk *b, regval_access *a)
{
    if (a->slot >= b->n_slots || b->slot_units[a->slot] == 0)
        return;
    unsigned port;
    rfc_ccu *c = b->wc ? &b->wc[a->warp / b->parts] : cache_of(b, a->warp, &port);
    for (unsigned u = 0; u < b->slot_units[a->slot]; u++) {
        unsigned p = b->slot_phys[a->slot] + u;
        b->last_write[(size_t)a->warp * b->n_phys + p] = a->cycle + 1;
        if (c && !b->keep_stale && rfc_invalidate(c, p))
            blk_stat_add(b->inst, CCU_STAT_INVALIDATIONS, 1);
    }
}

/* Oracle mode: the instance of the warp's functional stream the access belongs to (a new one: the next
 * instruction of the stream with this function and pc, skipping those that made no register access). */
static void oracle_at(ccu_blk *b, const regval_access *a)
{
    ccu_orc *o = &b->orc[a->warp];
    if (o->stream < 0 || (o->cycle == a->cycle && o->func == a->func && o->pc == a->pc))
        return;
    o->cycle = a->cycle, o->func = a->func, o->pc = a->pc;
    o->ok = false;
    for (uint64_t j = o->k; j < o->k + CCU_ORC_WINDOW; j++) {
        uint32_t f, pc;
        if (!rp_oracle_instr(b->oracle, (unsigned)o->stream, j, &f, &pc))
            break;
        if (f == a->func && pc == a->pc) {
            rp_oracle(b->oracle, (unsigned)o->stream, j, &o->src, &o->dst);
            o->k = j + 1;
            o->ok = true;
            break;
        }
    }
    if (!o->ok)
        blk_stat_add(b->inst, CCU_STAT_ORACLE_LOST, 1);
    if (b->pend_warp == (int)a->warp && b->pend_cycle == a->cycle) {
        b->rec[b->pend_ccu].orc = o->ok;
        b->rec[b->pend_ccu].orc_dst = o->dst;
    }
}

static void oracle_alloc(ccu_blk *b, const regval_access *a)
{
    ccu_orc *o = &b->orc[a->warp];
    unsigned stream;
    *o = (ccu_orc){.stream = -1, .cycle = UINT64_MAX};
    if (a->kind == REGVAL_ALLOC && rp_trace_oracle_start(b->trace, wexec_warp_ctaid(b->wx, a->warp),
                                                         wexec_warp_in_cta(b->wx, a->warp), &stream))
        o->stream = (int)stream;
}

static void ccu_value(void *ctx, regval_access *a)
{
    ccu_blk *b = ctx;
    if (a->warp % b->parts != b->part)
        return;
    if (!b->slot_phys)
        build_slots(b);
    sync(b, a->cycle);
    if (b->orc && b->mode == CCU_MODE_MALEKEH) {
        if (a->kind == REGVAL_ALLOC || a->kind == REGVAL_FREE)
            oracle_alloc(b, a);
        else if (a->func != REGVAL_NONE)
            oracle_at(b, a);
    }
    switch (a->kind) {
    case REGVAL_READ:
        on_read(b, a);
        break;
    case REGVAL_WRITE:
        on_write(b, a);
        break;
    default: { /* a thread block starts or ends on the warp: its CCU forgets it */
        if (b->tl)
            b->tl[a->warp] = TL_NEW;
        int k = owner(b, a->warp);
        if (k >= 0 && !b->c[k].busy) {
            rfc_flush(&b->c[k]);
            b->c[k].warp = RFC_NO_WARP;
        }
        if (b->wc)
            rfc_flush(&b->wc[a->warp / b->parts]);
        memset(&b->last_write[(size_t)a->warp * b->n_phys], 0, b->n_phys * sizeof(uint64_t));
        break;
    }
    }
}

/* ---- opcoll's side ----------------------------------------------------------------------------------- */
unsigned ccu_take(ccu_blk *b, const issued_t *it, uint16_t *reads, unsigned *n)
{
    unsigned k = b->n; /* the warp's oldest collector allocated at issue and not taken yet */
    for (unsigned i = 0; i < b->n; i++)
        if (b->c[i].busy && !b->rec[i].taken && b->rec[i].warp == it->warp &&
            (k == b->n || b->rec[i].order < b->rec[k].order))
            k = i;
    g_assert(k < b->n);
    ccu_rec *r = &b->rec[k];
    g_assert(!r->taken);
    r->taken = true;
    r->seq = it->seq;
    *n = 0;
    for (unsigned j = 0; j < it->n_bank_src; j++)
        if (r->uncached || index_of(r->hit, r->n_hit, it->bank_src[j]) < 0)
            reads[(*n)++] = it->bank_src[j];
    if (b->caching) {
        if (r->uncached)
            blk_stat_add(b->inst, CCU_STAT_UNCACHED, 1);
        else {
            blk_stat_add(b->inst, CCU_STAT_MISSES, *n);
            blk_stat_add(b->inst, CCU_STAT_FILLS_S, *n);
        }
        blk_stat_add(b->inst, CCU_STAT_CT_READS, it->n_bank_src);
        if (it->n_bank_dst) {
            ccu_inflight *f = g_new(ccu_inflight, 1);
            *f = (ccu_inflight){it->issue_cycle, it->func, it->pc, r->num, r->orc, r->orc_dst};
            g_hash_table_insert(b->inflight, GSIZE_TO_POINTER((gsize)it->seq + 1), f);
        }
    }
    return k;
}

void ccu_dispatched(ccu_blk *b, unsigned k, uint64_t now)
{
    ccu_event e = {.cycle = now, .kind = Q_RELEASE, .k = (uint8_t)k};
    g_array_append_val(b->queue, e);
    gsc_event_notify(b->queued, 1);
}

void ccu_writeback(ccu_blk *b, const release_t *r, uint64_t now)
{
    if (!b->caching || r->reads)
        return;
    gpointer key = GSIZE_TO_POINTER((gsize)r->seq + 1);
    ccu_inflight *f = g_hash_table_lookup(b->inflight, key);
    if (!f)
        return;
    const ccu_sinfo *s = sinfo(b, f->func, f->pc);
    for (unsigned j = 0; j < r->n_dst; j++) {
        unsigned slot = r->dst[j];
        if (slot >= b->n_slots)
            continue;
        for (unsigned u = 0; u < b->slot_units[slot]; u++) {
            unsigned p = b->slot_phys[slot] + u;
            int idx = index_of(s->dst, s->n_dst, p);
            if (idx < 0)
                continue;
            ccu_event e = {.cycle = now,
                           .issue_cycle = f->issue_cycle,
                           .kind = Q_WRITE,
                           .u = (uint8_t)u,
                           .near = (uint8_t)((f->orc ? f->dst_near : s->dst_near) >> idx & 1),
                           .warp = r->warp,
                           .slot = (uint16_t)slot,
                           .phys = (uint16_t)p,
                           .num = f->num};
            /* port D's tie-break: the oldest instruction's result first (the pipes write back by
             * completion, then pipe index) */
            guint at = b->queue->len;
            for (; at > 0; at--) {
                const ccu_event *q = &g_array_index(b->queue, ccu_event, at - 1);
                if (q->cycle != now || q->kind != Q_WRITE || q->issue_cycle <= e.issue_cycle)
                    break;
            }
            g_array_insert_val(b->queue, at, e);
            gsc_event_notify(b->queued, 1);
        }
    }
    g_hash_table_remove(b->inflight, key);
}

/* ---- construction ----------------------------------------------------------------------------------------
 */
ccu_blk *ccu_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env, wexec *wx, unsigned part,
                 unsigned parts, unsigned n, unsigned warps, ccu_mode mode, ccu_blk *shared)
{
    ccu_blk *b = g_new0(ccu_blk, 1);
    b->inst = blk_inst_new(ctx, parent, name, &ccu_desc);
    if (n > 64)
        gsc_fatal("%s: at most 64 collectors per partition (%u)", b->inst->path, n);
    b->env = env;
    b->wx = wx;
    b->mode = mode;
    b->caching = mode != CCU_MODE_OCU_RANDOM && mode != CCU_MODE_TWO_LEVEL;
    bool warp_caches = mode == CCU_MODE_RFC || mode == CCU_MODE_SWRFC;
    b->private_ccus = mode == CCU_MODE_PR || mode == CCU_MODE_BOW;
    b->part = part;
    b->parts = parts;
    b->n = n;
    b->warps = warps;
    if (b->private_ccus && (warps + parts - 1) / parts > n)
        gsc_fatal("%s: private collectors (ccu_pr, bow) need one per warp of the sub-core: "
                  "opcoll.collectors_sp=%u (it is %u)",
                  b->inst->path, (warps + parts - 1) / parts, n);
    b->window = (unsigned)blk_param_uint(b->inst, "bow_window");
    b->active_max = (unsigned)blk_param_uint(b->inst, "active_warps");
    if (mode == CCU_MODE_BOW)
        b->num = g_new0(uint32_t, warps);
    if (mode == CCU_MODE_TWO_LEVEL || warp_caches)
        b->tl = g_new0(uint64_t, warps);
    if (warp_caches) {
        b->n_wc = (warps + parts - 1) / parts;
        b->wc = g_new0(rfc_ccu, b->n_wc);
        b->tr_wc = g_new0(uint16_t, b->n_wc);
        for (unsigned i = 0; i < b->n_wc; i++) {
            rfc_ccu_init(&b->wc[i], (unsigned)blk_param_uint(b->inst, "rfc_entries"));
            char *tn = g_strdup_printf("wc%u_valid", i);
            gsc_trace_var(b->inst->mod, tn, GSC_U16, &b->tr_wc[i], b->wc[i].n_ct);
            g_free(tn);
        }
    }
    b->oct_slots = (unsigned)blk_param_uint(b->inst, "oct_slots");
    /* bow: a window of `bow_window` instructions' operands, as many entries as the CT can have */
    unsigned ct = mode == CCU_MODE_BOW ? MIN(b->window * (b->oct_slots + 2), RFC_MAX_CT)
                                       : (unsigned)blk_param_uint(b->inst, "ct_entries");
    b->repl = mode == CCU_MODE_LRU || mode == CCU_MODE_BOW || warp_caches ||
                      blk_param_enum(b->inst, "replacement") == 1
                  ? RFC_REPL_LRU
                  : RFC_REPL_MALEKEH;
    b->hint_default = blk_param_enum(b->inst, "hints") == 0 ? -1 : 0;
    b->keep_stale = blk_param_enum(b->inst, "stale_policy") == 1;
    b->fixed_sthld = (unsigned)blk_param_uint(b->inst, "sthld");
    b->counter_sm = blk_param_enum(b->inst, "counter_scope") == 0;
    rfc_rng_seed(&b->rng, blk_param_uint(b->inst, "rng_seed") * 64 + part);
    b->c = g_new0(rfc_ccu, n);
    for (unsigned k = 0; k < n; k++)
        rfc_ccu_init(&b->c[k], ct);
    b->rec = g_new0(ccu_rec, n);
    b->portd = g_new0(uint64_t, n + b->n_wc);
    b->dec_cycle = UINT64_MAX;
    b->dec_warp = -1;
    b->pend_warp = -1;
    b->sinfo = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    b->inflight = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    b->queue = g_array_new(FALSE, FALSE, sizeof(ccu_event));
    b->queued = gsc_event_new(b->inst->mod, "queued");
    gsc_sensitive_event(gsc_process_new(b->inst->mod, "apply", ccu_apply, b), b->queued);
    b->sm_counter = shared ? shared->sm_counter : &b->counter_store;
    ccu_blk *gpu = gpu_ctrl ? g_hash_table_lookup(gpu_ctrl, ctx) : NULL;
    if (shared && (!gpu || blk_param_enum(b->inst, "sthld_scope") == 1))
        gpu = shared; /* the SM's controller */
    if (gpu && (shared || blk_param_enum(b->inst, "sthld_scope") == 0)) {
        b->sm = gpu->sm;
    } else {
        b->owns_sm = true;
        b->sm = &b->own_sm;
        b->sm->dynamic = blk_param_enum(b->inst, "sthld_mode") == 1;
        b->sm->interval = (unsigned)blk_param_uint(b->inst, "sthld_interval");
        b->sm->next = b->sm->interval;
        rfc_sthld_init(&b->sm->ctrl, 1, (int)b->fixed_sthld, (int)blk_param_int(b->inst, "sthld_max"));
        b->sm->sthld = (int)b->fixed_sthld;
        b->sm->trace = g_array_new(FALSE, FALSE, sizeof(int));
        b->sm->inst = b->inst;
        if (!gpu_ctrl)
            gpu_ctrl = g_hash_table_new(g_direct_hash, g_direct_equal);
        if (!g_hash_table_lookup(gpu_ctrl, ctx)) {
            g_hash_table_insert(gpu_ctrl, ctx, b);
            b->ctx = ctx;
        }
    }
    blk_export_noted(b->inst, CCU_VETO, 0, &veto_table, &veto_noted, b);
    blk_export_probes(b->inst, b->probe, CCU_VETO + 1);
    if (wx)
        wexec_add_value_hook(wx, name, ccu_value, b);
    for (unsigned k = 0; k < n && k < 64; k++) {
        char *s = g_strdup_printf("ccu%u_warp", k);
        gsc_trace_var(b->inst->mod, s, GSC_U8, &b->tr_warp[k], 8);
        g_free(s);
        s = g_strdup_printf("ccu%u_busy", k);
        gsc_trace_var(b->inst->mod, s, GSC_U8, &b->tr_busy[k], 1);
        g_free(s);
        if (!b->caching || b->wc)
            continue;
        s = g_strdup_printf("ccu%u_valid", k);
        gsc_trace_var(b->inst->mod, s, GSC_U16, &b->tr_valid[k], ct);
        g_free(s);
        s = g_strdup_printf("ccu%u_near", k);
        gsc_trace_var(b->inst->mod, s, GSC_U16, &b->tr_near[k], ct);
        g_free(s);
        s = g_strdup_printf("ccu%u_lock", k);
        gsc_trace_var(b->inst->mod, s, GSC_U16, &b->tr_lock[k], ct);
        g_free(s);
        for (unsigned i = 0; i < ct; i++) {
            s = g_strdup_printf("ccu%u_tag%u", k, i);
            gsc_trace_var(b->inst->mod, s, GSC_U16, &b->tr_tag[k * RFC_MAX_CT + i], 16);
            g_free(s);
        }
    }
    blk_trace_state(b->inst, "case", GSC_U8, &b->tr_case);
    blk_trace_state(b->inst, "sthld", GSC_U16, &b->tr_sthld);
    blk_trace_state(b->inst, "counter", GSC_U16, &b->tr_counter);
    trace_ccus(b);
    return b;
}

rfc_ccu *ccu_units(ccu_blk *b, unsigned *n)
{
    *n = b->n;
    return b->c;
}

rfc_ccu *ccu_warp_caches(ccu_blk *b, unsigned *n)
{
    *n = b->n_wc;
    return b->wc;
}

const GArray *ccu_sthld_trace(const ccu_blk *b)
{
    return b->sm->trace;
}

uint64_t ccu_added_bytes(const ccu_blk *b)
{
    if (!b->caching)
        return 0;
    if (b->mode == CCU_MODE_BOW) /* the BOCs' data beyond the plain OCUs' (2 x oct_slots per sub-core) */
        return b->parts * (ccu_data_bytes(b) - (uint64_t)2 * b->oct_slots * 128);
    if (b->wc) /* beside the collectors: all of it */
        return b->parts * ccu_data_bytes(b);
    rfc_geometry g = {.subcores = b->parts,
                      .ccus = b->n,
                      .ct_entries = b->c[0].n_ct,
                      .oct_slots = b->oct_slots,
                      .reg_bytes = 128,
                      .max_regs = 256};
    return rfc_added_bytes(&g);
}

uint64_t ccu_data_bytes(const ccu_blk *b)
{
    if (!b->caching)
        return 0;
    if (b->wc) /* the active warps' caches */
        return (uint64_t)MIN(b->active_max, b->n_wc) * b->wc[0].n_ct * 128;
    unsigned entries = b->mode == CCU_MODE_BOW ? b->window * (b->oct_slots + 2) : b->c[0].n_ct;
    return (uint64_t)b->n * entries * 128;
}

void ccu_free(ccu_blk *b)
{
    if (!b)
        return;
    if (b->owns_sm)
        g_array_free(b->sm->trace, TRUE);
    if (b->ctx && gpu_ctrl && g_hash_table_lookup(gpu_ctrl, b->ctx) == b)
        g_hash_table_remove(gpu_ctrl, b->ctx);
    g_free(b->c);
    g_free(b->rec);
    g_free(b->portd);
    g_free(b->slot_phys);
    g_free(b->slot_units);
    g_free(b->last_write);
    g_free(b->orc);
    g_free(b->num);
    g_free(b->tl);
    g_free(b->wc);
    g_free(b->tr_wc);
    g_hash_table_destroy(b->sinfo);
    g_hash_table_destroy(b->inflight);
    g_array_free(b->queue, TRUE);
    g_free(b);
}
