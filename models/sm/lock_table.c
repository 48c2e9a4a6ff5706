/* lock_table.c — see lock_table.h. */
#include "models/sm/lock_table.h"

#include <limits.h>
#include <string.h>

#include "models/lib/regval.h"
#include "models/sm/arbiter.h"
#include "models/sm/dwe.h"
#include "models/sm/issue.h"

static const blk_port_desc ports[] = {
    [LOCK_TABLE_CHECK] = {"check", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                          "issue asks whether a warp's head may touch its shared registers (same cycle)",
                          &issue_check_iface},
    [LOCK_TABLE_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                           "issue reports an issued instruction: its shared registers take the pair lock",
                           &instr_issued_iface},
    [LOCK_TABLE_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                           "CTA start (pairing), warp end (lock release), CTA end (hand-over)",
                           &warp_events_iface},
    [LOCK_TABLE_VALUE] = {"value", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                          "register values read and written: a use of a shared register the partner "
                          "holds is poisoned",
                          &regval_iface},
    [LOCK_TABLE_VETO] = {"veto", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                         "Owner Warp First: strikes a ready warp while one of a better class is ready",
                         &issue_veto_iface},
};

static const char *const owner_bit_choices[] = {"acquire", "wait", NULL};
static const char *const owf_order_choices[] = {"owner_first", "unshared_first", NULL};

static const blk_param_desc params[] = {
    {"enforce", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "refuse a warp a shared register its partner holds (false: a deliberately broken lock, for tests)"},
    {"deadlock_rule", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "acquire only while no warp of the partner CTA holds a lock [S: §3.7] (false: debug)"},
    {"owner_bit", BLK_PARAM_ENUM, "acquire", NULL, NULL, owner_bit_choices, "",
     "when a CTA's warps become owners: at its first acquisition, or when the partner first waits [A]"},
    {"owf_order", BLK_PARAM_ENUM, "owner_first", NULL, NULL, owf_order_choices, "",
     "the veto's class order: owner > unshared > non-owner [S: §5.1], or unshared first (§5.2)"},
};

static const blk_stat_desc stats[] = {
    [LOCK_TABLE_STAT_ACQUIRES] = {"acquires", BLK_STAT_COUNTER, "locks", "register pair locks acquired",
                                  NULL},
    [LOCK_TABLE_STAT_WAITS] = {"waits", BLK_STAT_COUNTER, "warp-cycles",
                               "checks refused: the warp's head needs a shared register it cannot take",
                               NULL},
    [LOCK_TABLE_STAT_DEADLOCK_WAITS] = {"deadlock_waits", BLK_STAT_COUNTER, "warp-cycles",
                                        "refusals by the deadlock rule (the pair's lock is free)", NULL},
    [LOCK_TABLE_STAT_HANDOVERS] = {"handovers", BLK_STAT_COUNTER, "CTAs",
                                   "ownership passed to the partner when an owner CTA ended", NULL},
    [LOCK_TABLE_STAT_VIOLATIONS] = {"violations", BLK_STAT_COUNTER, "accesses",
                                    "shared-register values used without the lock (poisoned)", NULL},
    [LOCK_TABLE_STAT_PAIRED] = {"paired_ctas", BLK_STAT_COUNTER, "CTAs", "CTAs started in a pair", NULL},
    [LOCK_TABLE_STAT_UNSHARED] = {"unshared_ctas", BLK_STAT_COUNTER, "CTAs",
                                  "CTAs started unshared while ShSM was set", NULL},
};

static const blk_state_desc state[] = {
    {"shsm", 1, "ShSM: the SM runs paired CTAs"},
    {"shwarp", 64, "ShWarp: warps of paired CTAs (bit = warp slot)"},
    {"owner", 64, "Owner: owner warps (bit = warp slot)"},
    {"locks", 64, "warps holding their pair's register lock (bit = warp slot)"},
    {"waiting", 64, "warps refused a shared register at their last check (bit = warp slot)"},
    {"shwarp_hi", 64, "ShWarp of warp slots 64..127"},
    {"owner_hi", 64, "Owner of warp slots 64..127"},
    {"locks_hi", 64, "register locks held by warp slots 64..127"},
    {"waiting_hi", 64, "warp slots 64..127 refused at their last check"},
    {"partner_0", 8, "ShTB of CTA slot 0 (255: none)"},
    {"partner_1", 8, "ShTB of CTA slot 1"},
    {"partner_2", 8, "ShTB of CTA slot 2"},
    {"partner_3", 8, "ShTB of CTA slot 3"},
    {"partner_4", 8, "ShTB of CTA slot 4"},
    {"partner_5", 8, "ShTB of CTA slot 5"},
    {"partner_6", 8, "ShTB of CTA slot 6"},
    {"partner_7", 8, "ShTB of CTA slot 7"},
};

const blk_desc lock_table_desc = {
    "lock_table",
    "register sharing: ShSM, ShTB, ShWarp, Owner, register pair locks, the deadlock rule, OWF classes",
    "resource-sharing/GREENER spec §3.1-3.5, §3.7, §3.8, §3.10, §3.11, §5.1",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

/* ---- traced state ---------------------------------------------------------------------------- */
enum { TR_SHWARP, TR_OWNER, TR_LOCKS, TR_WAITING };

/* Bit w of traced warp mask `which` (slots 0..63 in the mask, 64..127 in its _hi word). */
static void put_bit(lock_table *lt, unsigned which, unsigned w, bool v)
{
    uint64_t *const lo[] = {&lt->tr_shwarp, &lt->tr_owner, &lt->tr_locks, &lt->tr_waiting};
    if (w >= 128)
        return;
    uint64_t *m = w < 64 ? lo[which] : &lt->tr_hi[which];
    w %= 64;
    if (v)
        *m |= UINT64_C(1) << w;
    else
        *m &= ~(UINT64_C(1) << w);
}

static void set_owner(lock_table *lt, unsigned w, bool v)
{
    lt->owner[w] = v;
    put_bit(lt, TR_OWNER, w, v);
}

static void set_held(lock_table *lt, unsigned w, bool v)
{
    lt->held[w] = v;
    put_bit(lt, TR_LOCKS, w, v);
}

static void set_partner(lock_table *lt, unsigned slot, unsigned p)
{
    lt->shtb[slot] = (uint8_t)p;
    if (slot < LOCK_TABLE_TRACED)
        lt->tr_partner[slot] = (uint8_t)p;
}

/* ---- queries --------------------------------------------------------------------------------- */
int lock_table_partner_warp(const lock_table *lt, unsigned w)
{
    if (!lt->shwarp[w])
        return -1;
    unsigned c = lt->cta_of[w], p = lt->shtb[c];
    if (p == LOCK_TABLE_NONE)
        return -1;
    unsigned k = w - lt->first_warp[c];
    return k < lt->n_warps[p] ? (int)(lt->first_warp[p] + k) : -1;
}

int lock_table_holder(const lock_table *lt, unsigned w)
{
    if (!lt->shwarp[w])
        return -1;
    if (lt->held[w])
        return (int)w;
    int p = lock_table_partner_warp(lt, w);
    return p >= 0 && lt->held[p] ? p : -1;
}

lock_class lock_table_class(const lock_table *lt, unsigned w)
{
    if (!lt->shwarp[w] || lt->released[lt->cta_of[w]])
        return LOCK_CLASS_UNSHARED; /* (a CTA that released the scratchpad by relssp holds nothing) */
    return lt->owner[w] ? LOCK_CLASS_OWNER : LOCK_CLASS_NONOWNER;
}

static inline bool is_shared_reg(const lock_table *lt, unsigned slot)
{
    return slot != SM_NO_REG && slot + 1 > lt->private_regs;
}

static bool touches_shared(const lock_table *lt, const uint16_t *src, unsigned n_src, const uint16_t *dst,
                           unsigned n_dst)
{
    for (unsigned i = 0; i < n_src; i++)
        if (is_shared_reg(lt, src[i]))
            return true;
    for (unsigned i = 0; i < n_dst; i++)
        if (is_shared_reg(lt, dst[i]))
            return true;
    return false;
}

/* The CTA's warps become owners (at their first acquisition, or when the partner first waits). */
static void make_owner(lock_table *lt, unsigned c)
{
    for (unsigned k = 0; k < lt->n_warps[c]; k++)
        set_owner(lt, lt->first_warp[c] + k, true);
}

/* ---- check: may warp w's head go? ------------------------------------------------------------- */
static bool lt_allow(void *self, unsigned w, const decoded_t *h, uint64_t cycle)
{
    (void)cycle;
    lock_table *lt = self;
    if (!lt->shwarp[w] || lt->held[w] || !lt->enforce ||
        !touches_shared(lt, h->src, h->n_src, h->dst,
                        IR_MAX_DST + 2 < h->n_dst ? IR_MAX_DST + 2 : h->n_dst)) {
        put_bit(lt, TR_WAITING, w, false);
        return true;
    }
    int p = lock_table_partner_warp(lt, w);
    unsigned pc = lt->shtb[lt->cta_of[w]];
    bool deny = false;
    if (p >= 0 && lt->held[p]) {
        deny = true;
        if (lt->owner_on_wait && !lt->owner[p])
            make_owner(lt, pc);
    } else if (lt->deadlock_rule && pc != LOCK_TABLE_NONE && lt->holders[pc] > 0) {
        deny = true;
        blk_stat_add(lt->inst, LOCK_TABLE_STAT_DEADLOCK_WAITS, 1);
    }
    put_bit(lt, TR_WAITING, w, deny);
    if (deny)
        blk_stat_add(lt->inst, LOCK_TABLE_STAT_WAITS, 1);
    return !deny;
}

/* ---- issued: take the lock for the shared registers the instruction touches -------------------- */
static void lt_issued(void *self, const issued_t *it)
{
    lock_table *lt = self;
    unsigned w = it->warp;
    if (!lt->shwarp[w] || lt->held[w] || !touches_shared(lt, it->src, it->n_src, it->dst, it->n_dst))
        return;
    int p = lock_table_partner_warp(lt, w);
    if (p >= 0 && lt->held[p])
        return; /* only a broken lock lets this through: the value path poisons what it uses */
    unsigned c = lt->cta_of[w];
    set_held(lt, w, true);
    lt->holders[c]++;
    blk_stat_add(lt->inst, LOCK_TABLE_STAT_ACQUIRES, 1);
    if (!lt->owner[w] && !lt->owner_on_wait)
        make_owner(lt, c);
}

/* ---- value: a shared register used while the partner holds the lock is lost ------------------- */
static void lt_value(void *self, regval_access *a)
{
    lock_table *lt = self;
    if (a->kind != REGVAL_READ && a->kind != REGVAL_WRITE)
        return;
    unsigned w = a->warp;
    if (!lt->shwarp[w] || lt->held[w] || !is_shared_reg(lt, a->slot))
        return;
    int p = lock_table_partner_warp(lt, w);
    if (p < 0 || !lt->held[p])
        return;
    regval_poison(a->v, UINT32_MAX);
    blk_stat_add(lt->inst, LOCK_TABLE_STAT_VIOLATIONS, 1);
}

/* ---- events: pairing, release, hand-over ------------------------------------------------------ */
static void lt_cta_start(void *self, const cta_launch_t *c, uint64_t cycle)
{
    (void)cycle;
    lock_table *lt = self;
    blk_call_note(lt->probe[LOCK_TABLE_EVENTS], 0, c->cta, c->slot);
    unsigned s = c->slot;
    g_assert(s < lt->ctas && !lt->resident[s]);
    lt->resident[s] = 1;
    lt->first_warp[s] = c->first_warp;
    lt->n_warps[s] = c->warps;
    lt->holders[s] = 0;
    set_partner(lt, s, LOCK_TABLE_NONE);
    bool shared = false;
    if (lt->shsm && lt->n_unshared >= lt->unshared_max) {
        /* a pair position with one member waiting for a partner, else an empty one */
        int pos = -1;
        for (unsigned q = 0; q < lt->pairs && pos < 0; q++)
            if ((lt->members[2 * q] == LOCK_TABLE_NONE) != (lt->members[2 * q + 1] == LOCK_TABLE_NONE))
                pos = (int)q;
        for (unsigned q = 0; q < lt->pairs && pos < 0; q++)
            if (lt->members[2 * q] == LOCK_TABLE_NONE && lt->members[2 * q + 1] == LOCK_TABLE_NONE)
                pos = (int)q;
        g_assert(pos >= 0); /* the grant places at most U + 2S CTAs */
        unsigned q = (unsigned)pos, i = lt->members[2 * q] == LOCK_TABLE_NONE ? 0 : 1;
        lt->members[2 * q + i] = (uint8_t)s;
        lt->pair_of[s] = (uint8_t)q;
        unsigned other = lt->members[2 * q + (1 - i)];
        if (other != LOCK_TABLE_NONE) {
            set_partner(lt, s, other);
            set_partner(lt, other, s);
        }
        shared = true;
        blk_stat_add(lt->inst, LOCK_TABLE_STAT_PAIRED, 1);
    } else {
        if (lt->shsm)
            blk_stat_add(lt->inst, LOCK_TABLE_STAT_UNSHARED, 1);
        lt->n_unshared++;
    }
    lt->shared[s] = shared;
    lt->released[s] = 0;
    for (unsigned k = 0; k < c->warps; k++) {
        unsigned w = c->first_warp + k;
        lt->cta_of[w] = (uint16_t)s;
        lt->shwarp[w] = shared;
        put_bit(lt, TR_SHWARP, w, shared);
        set_owner(lt, w, false);
        set_held(lt, w, false);
        put_bit(lt, TR_WAITING, w, false);
    }
}

static void lt_warp_start(void *self, unsigned warp, unsigned slot, uint64_t cycle)
{
    lock_table *lt = self;
    (void)cycle;
    blk_call_note(lt->probe[LOCK_TABLE_EVENTS], 2, warp, slot);
}

static void lt_warp_end(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    (void)cycle;
    lock_table *lt = self;
    blk_call_note(lt->probe[LOCK_TABLE_EVENTS], 3, w, slot);
    if (lt->held[w]) { /* the lock is released at warp exit; its shared registers are free */
        set_held(lt, w, false);
        g_assert(lt->holders[slot] > 0);
        lt->holders[slot]--;
    }
    put_bit(lt, TR_WAITING, w, false);
}

static void lt_cta_end(void *self, const cta_launch_t *c, uint64_t cycle)
{
    (void)cycle;
    lock_table *lt = self;
    blk_call_note(lt->probe[LOCK_TABLE_EVENTS], 1, c->cta, c->slot);
    unsigned s = c->slot;
    g_assert(lt->resident[s]);
    if (lt->shared[s]) {
        unsigned q = lt->pair_of[s], p = lt->shtb[s];
        lt->members[2 * q + (lt->members[2 * q] == s ? 0 : 1)] = LOCK_TABLE_NONE;
        if (lt->smem_lock[q] == s) /* the scratchpad lock is released at CTA exit */
            lt->smem_lock[q] = LOCK_TABLE_NONE;
        if (p != LOCK_TABLE_NONE) {
            set_partner(lt, p, LOCK_TABLE_NONE);
            /* the partner becomes the owner; a new CTA will join it as the non-owner */
            if (lt->owner[c->first_warp] && !lt->owner[lt->first_warp[p]]) {
                make_owner(lt, p);
                blk_stat_add(lt->inst, LOCK_TABLE_STAT_HANDOVERS, 1);
            }
        }
    } else {
        g_assert(lt->n_unshared > 0);
        lt->n_unshared--;
    }
    for (unsigned k = 0; k < c->warps; k++) {
        unsigned w = c->first_warp + k;
        lt->shwarp[w] = 0;
        put_bit(lt, TR_SHWARP, w, false);
        set_owner(lt, w, false);
    }
    lt->resident[s] = 0;
    lt->shared[s] = 0;
    set_partner(lt, s, LOCK_TABLE_NONE);
}

/* ---- veto: Owner Warp First's classes ---------------------------------------------------------- */
static unsigned rank(const lock_table *lt, unsigned w)
{
    lock_class c = lock_table_class(lt, w);
    if (lt->unshared_first && c != LOCK_CLASS_NONOWNER)
        return c == LOCK_CLASS_UNSHARED ? 0 : 1;
    return (unsigned)c;
}

bool lock_table_waits_on_owner(const lock_table *lt, unsigned w)
{
    if (!lt->shwarp[w] || lt->owner[w])
        return false;
    unsigned p = lt->shtb[lt->cta_of[w]];
    return p != LOCK_TABLE_NONE && lt->owner[lt->first_warp[p]];
}

/* ---- scratchpad pair locks (one per CTA pair: the CTA slot holding it) ------------------------ */
int lock_table_smem_holder(const lock_table *lt, unsigned slot)
{
    if (!lt->shared[slot])
        return -1;
    uint8_t h = lt->smem_lock[lt->pair_of[slot]];
    return h == LOCK_TABLE_NONE ? -1 : (int)h;
}

void lock_table_smem_acquire(lock_table *lt, unsigned slot)
{
    g_assert(lt->shared[slot] && lock_table_smem_holder(lt, slot) < 0);
    lt->smem_lock[lt->pair_of[slot]] = (uint8_t)slot;
    if (!lt->owner_on_wait)
        make_owner(lt, slot);
}

void lock_table_smem_waits(lock_table *lt, unsigned slot)
{
    int h = lock_table_smem_holder(lt, slot);
    if (lt->owner_on_wait && h >= 0 && !lt->owner[lt->first_warp[h]])
        make_owner(lt, (unsigned)h);
}

bool lock_table_smem_release(lock_table *lt, unsigned slot)
{
    if (lock_table_smem_holder(lt, slot) != (int)slot)
        return false;
    lt->smem_lock[lt->pair_of[slot]] = LOCK_TABLE_NONE;
    lt->released[slot] = 1;
    for (unsigned k = 0; k < lt->n_warps[slot]; k++) /* it is no longer the owner: the partner may be */
        set_owner(lt, lt->first_warp[slot] + k, false);
    return true;
}

static bool lt_veto(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    const lock_table *lt = self;
    if (lt->dwe && (warps[i].flags & POLICY_F_MEM) && lock_table_waits_on_owner(lt, warps[i].id) &&
        !dwe_allow(lt->dwe, lt->sm, cycle))
        return true;
    if (!lt->owf)
        return false;
    unsigned mine = rank(lt, warps[i].id);
    for (unsigned j = 0; j < n && mine > 0; j++)
        if (j != i && warps[j].ready && rank(lt, warps[j].id) < mine)
            return true;
    return false;
}

/* Every method but the warp events is called for each warp checked or considered, each instruction
 * issued or each register value: the notes are in tables of their own (blk_export_noted). */
static bool lt_allow_noted(void *self, unsigned w, const decoded_t *h, uint64_t cycle)
{
    blk_call_note(((lock_table *)self)->probe[LOCK_TABLE_CHECK], w, h->pc, 0);
    return lt_allow(self, w, h, cycle);
}

static void lt_issued_noted(void *self, const issued_t *it)
{
    blk_call_note(((lock_table *)self)->probe[LOCK_TABLE_ISSUED], it->warp, it->pc, 0);
    lt_issued(self, it);
}

static void lt_value_noted(void *self, regval_access *a)
{
    blk_call_note(((lock_table *)self)->probe[LOCK_TABLE_VALUE], a->kind, a->warp, a->slot);
    lt_value(self, a);
}

static bool lt_veto_noted(void *self, const policy_warp *warps, unsigned n, unsigned i, uint64_t cycle)
{
    blk_call_note(((lock_table *)self)->probe[LOCK_TABLE_VETO], warps[i].id, 0, 0);
    return lt_veto(self, warps, n, i, cycle);
}

static const issue_check_if check_table = {lt_allow};
static const issue_check_if check_noted = {lt_allow_noted};
static const instr_issued_if issued_table = {lt_issued};
static const instr_issued_if issued_noted = {lt_issued_noted};
static const warp_events_if events_table = {lt_cta_start, lt_cta_end, lt_warp_start, lt_warp_end};
static const regval_if value_table = {lt_value};
static const regval_if value_noted = {lt_value_noted};
static const issue_veto_if veto_table = {lt_veto};
static const issue_veto_if veto_noted = {lt_veto_noted};

lock_table *lock_table_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps, unsigned ctas)
{
    g_assert(ctas <= SM_MAX_CTAS && ctas < LOCK_TABLE_NONE);
    lock_table *lt = g_new0(lock_table, 1);
    lt->inst = blk_inst_new(ctx, parent, name, &lock_table_desc);
    lt->warps = warps;
    lt->ctas = ctas;
    lt->enforce = blk_param_bool(lt->inst, "enforce");
    lt->deadlock_rule = blk_param_bool(lt->inst, "deadlock_rule");
    lt->owner_on_wait = strcmp(blk_param_string(lt->inst, "owner_bit"), "wait") == 0;
    lt->unshared_first = strcmp(blk_param_string(lt->inst, "owf_order"), "unshared_first") == 0;
    lt->owf = true;
    lt->shtb = g_new(uint8_t, ctas);
    memset(lt->shtb, LOCK_TABLE_NONE, ctas);
    lt->shared = g_new0(uint8_t, ctas);
    lt->resident = g_new0(uint8_t, ctas);
    lt->pair_of = g_new0(uint8_t, ctas);
    lt->first_warp = g_new0(unsigned, ctas);
    lt->n_warps = g_new0(unsigned, ctas);
    lt->holders = g_new0(unsigned, ctas);
    lt->members = g_new(uint8_t, 2 * ctas);
    memset(lt->members, LOCK_TABLE_NONE, 2 * ctas);
    lt->released = g_new0(uint8_t, ctas);
    lt->smem_lock = g_new(uint8_t, ctas);
    memset(lt->smem_lock, LOCK_TABLE_NONE, ctas);
    lt->shwarp = g_new0(uint8_t, warps);
    lt->owner = g_new0(uint8_t, warps);
    lt->held = g_new0(uint8_t, warps);
    lt->cta_of = g_new0(uint16_t, warps);
    memset(lt->tr_partner, LOCK_TABLE_NONE, sizeof lt->tr_partner);
    blk_export_noted(lt->inst, LOCK_TABLE_CHECK, 0, &check_table, &check_noted, lt);
    blk_export_noted(lt->inst, LOCK_TABLE_ISSUED, 0, &issued_table, &issued_noted, lt);
    blk_export(lt->inst, LOCK_TABLE_EVENTS, 0, &events_table, lt);
    blk_export_noted(lt->inst, LOCK_TABLE_VALUE, 0, &value_table, &value_noted, lt);
    blk_export_noted(lt->inst, LOCK_TABLE_VETO, 0, &veto_table, &veto_noted, lt);
    blk_export_probes(lt->inst, lt->probe, LOCK_TABLE_VETO + 1);
    blk_trace_state(lt->inst, "shsm", GSC_U8, &lt->tr_shsm);
    blk_trace_state(lt->inst, "shwarp", GSC_U64, &lt->tr_shwarp);
    blk_trace_state(lt->inst, "owner", GSC_U64, &lt->tr_owner);
    blk_trace_state(lt->inst, "locks", GSC_U64, &lt->tr_locks);
    blk_trace_state(lt->inst, "waiting", GSC_U64, &lt->tr_waiting);
    static const char *const hi[] = {"shwarp_hi", "owner_hi", "locks_hi", "waiting_hi"};
    for (unsigned i = 0; i < 4; i++)
        blk_trace_state(lt->inst, hi[i], GSC_U64, &lt->tr_hi[i]);
    for (unsigned i = 0; i < LOCK_TABLE_TRACED; i++) {
        char n[16];
        snprintf(n, sizeof n, "partner_%u", i);
        blk_trace_state(lt->inst, n, GSC_U8, &lt->tr_partner[i]);
    }
    return lt;
}

void lock_table_free(lock_table *lt)
{
    if (!lt)
        return;
    g_free(lt->shtb);
    g_free(lt->shared);
    g_free(lt->resident);
    g_free(lt->pair_of);
    g_free(lt->first_warp);
    g_free(lt->n_warps);
    g_free(lt->holders);
    g_free(lt->members);
    g_free(lt->smem_lock);
    g_free(lt->released);
    g_free(lt->shwarp);
    g_free(lt->owner);
    g_free(lt->held);
    g_free(lt->cta_of);
    g_free(lt);
}

void lock_table_configure(lock_table *lt, const sharing_result *r, unsigned private_regs)
{
    for (unsigned s = 0; s < lt->ctas; s++)
        g_assert(!lt->resident[s]); /* between grids */
    lt->shsm = r->active;
    lt->tr_shsm = r->active;
    /* (the grant configures the table from cta_dispatch's activation, a call no binding declares:
     * the traced ShSM shows from this cycle) */
    gsc_trace_touch(lt->inst->mod);
    lt->unshared_max = r->active ? r->unshared : 0;
    lt->pairs = r->active ? MIN(r->pairs, lt->ctas) : 0;
    lt->private_regs = private_regs;
    lt->r_tb = r->r_tb;
    lt->n_unshared = 0;
    memset(lt->members, LOCK_TABLE_NONE, 2 * lt->ctas);
    memset(lt->smem_lock, LOCK_TABLE_NONE, lt->ctas);
}

/* ---- the sharing-aware grant ------------------------------------------------------------------ */
struct lock_table_grant {
    lock_table **lt;
    unsigned n;
    share_mode mode;
    share_threshold t;
    occupancy_sm occ;
    occupancy_kernel k; /* the kernel computed for (0 threads: none yet) */
    sharing_result r;
    bool configured;
};

/* The grid's computation, once per kernel (its first fits/grant). */
static void grant_prepare(lock_table_grant *g, const occupancy_kernel *k)
{
    if (g->configured && memcmp(k, &g->k, sizeof *k) == 0)
        return;
    GError *err = NULL;
    if (!sharing_compute(&g->occ, k, g->mode, g->t, &g->r, &err)) {
        /* cta_dispatch_start has checked that one CTA fits: no pairs then */
        memset(&g->r, 0, sizeof g->r);
        g_clear_error(&err);
    }
    /* scratchpad sharing: no register is shared (every slot private) */
    unsigned priv = g->mode == SHARE_SMEM ? UINT_MAX : sharing_private_regs(k->regs_per_thread, g->t);
    for (unsigned s = 0; s < g->n; s++) {
        lock_table_configure(g->lt[s], &g->r, priv);
        g->lt[s]->t = g->t;
    }
    g->k = *k;
    g->configured = true;
}

/* The kernel the ledger counts: without the shared resource (the grant counts CTAs against M). */
static occupancy_kernel unshared_part(const lock_table_grant *g, const occupancy_kernel *k)
{
    occupancy_kernel nr = *k;
    if (g->mode == SHARE_SMEM)
        nr.smem_static = nr.smem_dynamic = 0;
    else
        nr.regs_per_thread = 0;
    return nr;
}

/* The ledger without the shared resource (the grant counts CTAs against M instead). */
static bool grant_fits(void *self, ctaslots *slots, unsigned sm, const occupancy_kernel *k)
{
    lock_table_grant *g = self;
    grant_prepare(g, k);
    if (!g->r.active)
        return cta_dispatch_ledger_fits(NULL, slots, sm, k);
    occupancy_kernel nr = unshared_part(g, k);
    return ctaslots_resident(slots) < g->r.ctas && cta_dispatch_ledger_fits(NULL, slots, sm, &nr);
}

static bool grant_grant(void *self, ctaslots *slots, unsigned sm, const occupancy_kernel *k,
                        ctaslots_grant *out)
{
    lock_table_grant *g = self;
    if (!grant_fits(self, slots, sm, k))
        return false;
    if (!g->r.active)
        return cta_dispatch_ledger_grant(NULL, slots, sm, k, out);
    occupancy_kernel nr = unshared_part(g, k);
    if (!cta_dispatch_ledger_grant(NULL, slots, sm, &nr, out))
        return false;
    if (g->mode == SHARE_SMEM)
        out->smem_bytes = g->r.r_tb;
    else
        out->regs = g->r.r_tb;
    return true;
}

static void grant_release(void *self, ctaslots *slots, unsigned sm, const cta_done_t *done)
{
    (void)self;
    cta_dispatch_ledger_release(NULL, slots, sm, done);
}

lock_table_grant *lock_table_grant_install(cta_dispatch *d, lock_table *const *lt, unsigned n,
                                           share_mode mode, share_threshold t)
{
    g_assert(mode == SHARE_REGS || mode == SHARE_SMEM);
    lock_table_grant *g = g_new0(lock_table_grant, 1);
    g->lt = g_memdup2(lt, n * sizeof *lt);
    g->n = n;
    g->mode = mode;
    g->t = t;
    g->occ = d->occ;
    cta_dispatch_alloc a = {grant_fits, grant_grant, grant_release, g};
    cta_dispatch_set_alloc(d, &a);
    return g;
}

const sharing_result *lock_table_grant_result(const lock_table_grant *g)
{
    return &g->r;
}

void lock_table_grant_free(lock_table_grant *g)
{
    if (!g)
        return;
    g_free(g->lt);
    g_free(g);
}
