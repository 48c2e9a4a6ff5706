/* smem_share.c — see smem_share.h. */
#include "models/sm/smem_share.h"

#include <string.h>

#include "kernels/run/kload.h"
#include "models/lib/regval.h"
#include "models/sm/issue.h"

static const blk_port_desc ports[] = {
    [SMEM_SHARE_CHECK] = {"check", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                          "issue asks whether a warp's head may reach the shared scratchpad region now",
                          &issue_check_iface},
    [SMEM_SHARE_ISSUED] = {"issued", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                           "issued instructions: shared-region accesses take the pair lock; relssp sets R_i",
                           &instr_issued_iface},
    [SMEM_SHARE_EVENTS] = {"events", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                           "CTA start (A_i set, R_i cleared) and end (the lock table releases the lock)",
                           &warp_events_iface},
    [SMEM_SHARE_VALUE] = {"value", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                          "register values: what a shared-region access the lock should have blocked "
                          "loads or stores is poisoned",
                          &regval_iface},
};

static const blk_param_desc params[] = {
    {"enforce", BLK_PARAM_BOOL, "true", NULL, NULL, NULL, "",
     "refuse a warp the shared region its partner CTA holds (false: a deliberately broken lock, for tests)"},
};

static const blk_stat_desc stats[] = {
    [SMEM_SHARE_STAT_ACCESSES] = {"accesses", BLK_STAT_COUNTER, "instructions",
                                  "instructions of paired CTAs reaching the shared region", NULL},
    [SMEM_SHARE_STAT_ACQUIRES] = {"acquires", BLK_STAT_COUNTER, "locks", "scratchpad pair locks acquired",
                                  NULL},
    [SMEM_SHARE_STAT_WAITS] = {"waits", BLK_STAT_COUNTER, "warp-cycles",
                               "checks refused: the head reaches the shared region the partner holds", NULL},
    [SMEM_SHARE_STAT_RELSSP] = {"relssp", BLK_STAT_COUNTER, "instructions", "relssp instructions issued",
                                NULL},
    [SMEM_SHARE_STAT_RELEASES] = {"releases", BLK_STAT_COUNTER, "locks",
                                  "locks released by relssp (every active thread executed it)", NULL},
    [SMEM_SHARE_STAT_VIOLATIONS] = {"violations", BLK_STAT_COUNTER, "lanes",
                                    "shared-region values used without the lock (poisoned)", NULL},
    [SMEM_SHARE_STAT_HELD] =
        {"held", BLK_STAT_COUNTER, "cycles",
         "cycles from each lock acquisition to its release (by relssp or CTA exit), summed", NULL},
    [SMEM_SHARE_STAT_EXIT_RELEASES] = {"exit_releases", BLK_STAT_COUNTER, "locks",
                                       "locks released at CTA exit (the CTA had not released by relssp)",
                                       NULL},
};

static const blk_state_desc state[] = {
    {"locked", 32, "CTA slots holding their pair's scratchpad lock (bit = CTA slot)"},
    {"released", 32, "CTA slots whose active threads all executed relssp (bit = CTA slot)"},
    {"waiting", 64, "warps refused the shared region at their last check (bit = warp slot 0..63)"},
    {"waiting_hi", 64, "the same for warp slots 64..127"},
};

const blk_desc smem_share_desc = {
    "smem_share",
    "scratchpad sharing: private/shared regions, the lock check at access, A_i/R_i bits, relssp",
    "resource-sharing/GREENER spec §1.1, §3.6, §3.8 (i), §8.1",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

bool smem_share_is_shared(const smem_share *s, uint64_t off)
{
    /* off >= t x R_tb, exactly: off x den >= R_tb x num */
    return (unsigned __int128)off * s->lt->t.den >= (unsigned __int128)s->lt->r_tb * s->lt->t.num;
}

static void put_waiting(smem_share *s, unsigned w, bool v)
{
    uint64_t *m = w < 64 ? &s->tr_waiting : &s->tr_waiting_hi;
    uint64_t b = UINT64_C(1) << (w % 64);
    if (w >= 128)
        return;
    *m = v ? *m | b : *m & ~b;
}

static void trace_locks(smem_share *s)
{
    uint32_t m = 0;
    for (unsigned c = 0; c < s->ctas && c < 32; c++)
        if (lock_table_smem_holder(s->lt, c) == (int)c)
            m |= UINT32_C(1) << c;
    s->tr_locked = m;
}

/* ---- check ------------------------------------------------------------------------------------- */
static bool ss_allow(void *self, unsigned w, const decoded_t *h, uint64_t cycle)
{
    (void)cycle;
    smem_share *s = self;
    lock_table *lt = s->lt;
    if (h->cls != IR_CLASS_MEM || !lt->shsm || !lt->shwarp[w])
        return true;
    unsigned c = lt->cta_of[w];
    int holder = lock_table_smem_holder(lt, c);
    s->viol[w] = 0;
    if (holder < 0 || holder == (int)c) {
        put_waiting(s, w, false);
        return true;
    }
    uint64_t off[IR_WARP_SIZE];
    uint32_t lanes = s->peek(s->peek_ctx, w, off), viol = 0;
    for (uint32_t k = lanes; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        if (smem_share_is_shared(s, off[l]))
            viol |= UINT32_C(1) << l;
    }
    bool deny = viol && s->enforce;
    put_waiting(s, w, deny);
    if (deny) {
        blk_stat_add(s->inst, SMEM_SHARE_STAT_WAITS, 1);
        lock_table_smem_waits(lt, c);
        return false;
    }
    s->viol[w] = viol; /* a broken check let it through: the value path poisons these lanes */
    s->viol_func[w] = h->func;
    s->viol_pc[w] = h->pc;
    return true;
}

/* ---- issued ------------------------------------------------------------------------------------ */
static uint32_t active_lanes(const smem_share *s, unsigned c, unsigned k)
{
    unsigned t = s->threads[c];
    if (32 * k >= t)
        return 0;
    return t - 32 * k >= 32 ? UINT32_MAX : (UINT32_C(1) << (t - 32 * k)) - 1;
}

static void relssp(smem_share *s, unsigned w, uint32_t mask)
{
    lock_table *lt = s->lt;
    unsigned c = lt->cta_of[w];
    blk_stat_add(s->inst, SMEM_SHARE_STAT_RELSSP, 1);
    s->rbits[w] |= mask;
    for (unsigned k = 0; k < s->n_warps[c]; k++) { /* lock bit = NAND_i (A_i -> R_i) */
        uint32_t a = active_lanes(s, c, k);
        if ((s->rbits[s->first_warp[c] + k] & a) != a)
            return;
    }
    for (unsigned k = 0; k < s->n_warps[c]; k++)
        s->rbits[s->first_warp[c] + k] = 0;
    if (lt->shsm && lt->shared[c] && lock_table_smem_release(lt, c)) {
        blk_stat_add(s->inst, SMEM_SHARE_STAT_RELEASES, 1);
        blk_stat_add(s->inst, SMEM_SHARE_STAT_HELD, gsc_cycle() - s->acquired[c]);
        s->acquired[c] = UINT64_MAX;
        if (c < 32)
            s->tr_released |= UINT32_C(1) << c;
        trace_locks(s);
    }
}

static void ss_issued(void *self, const issued_t *it)
{
    smem_share *s = self;
    lock_table *lt = s->lt;
    unsigned w = it->warp;
    s->viol[w] = 0;
    if (it->op == IR_OP_RELSSP) {
        relssp(s, w, it->mask);
        return;
    }
    if (it->cls != IR_CLASS_MEM || !lt->shsm || !lt->shwarp[w])
        return;
    bool shared = false;
    for (uint32_t k = it->mask; k && !shared; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        shared = it->lane_space[l] == IR_SPACE_SHARED && smem_share_is_shared(s, it->addr[l]);
    }
    if (!shared)
        return;
    blk_stat_add(s->inst, SMEM_SHARE_STAT_ACCESSES, 1);
    unsigned c = lt->cta_of[w];
    if (lock_table_smem_holder(lt, c) < 0) {
        lock_table_smem_acquire(lt, c);
        blk_stat_add(s->inst, SMEM_SHARE_STAT_ACQUIRES, 1);
        s->acquired[c] = gsc_cycle();
        trace_locks(s);
    }
}

/* ---- value: what the lock should have blocked is lost ------------------------------------------ */
static bool store_data_slot(const smem_share *s, const ir_instr *in, uint32_t func, uint32_t slot)
{
    bool mem_in_dst = in->n_dst > 0 && in->dst[0].kind == IR_OPND_MEM;
    const ir_operand *v = mem_in_dst ? &in->src[0] : &in->src[1];
    uint32_t base = s->env->k->funcs[func].reg_base;
    if (v->kind == IR_OPND_REG)
        return v->u.reg != IR_NONE && base + v->u.reg == slot;
    if (v->kind == IR_OPND_VEC)
        for (unsigned e = 0; e < v->comp; e++)
            if (v->u.vec_regs[e] != IR_NONE && base + v->u.vec_regs[e] == slot)
                return true;
    return false;
}

static void ss_value(void *self, regval_access *a)
{
    smem_share *s = self;
    if ((a->kind != REGVAL_READ && a->kind != REGVAL_WRITE) || !s->viol[a->warp] ||
        a->func != s->viol_func[a->warp] || a->pc != s->viol_pc[a->warp])
        return;
    const ir_instr *in = NULL;
    if (s->env)
        in = ir_func_instr((const ir_func *)g_ptr_array_index(s->env->mod->funcs, a->func), a->pc);
    bool store = in && (in->op == IR_OP_ST || in->op == IR_OP_RED);
    if (store ? a->kind != REGVAL_READ || !store_data_slot(s, in, a->func, a->slot) : a->kind != REGVAL_WRITE)
        return;
    uint32_t m = s->viol[a->warp] & a->lanes;
    for (uint32_t k = m; k; k &= k - 1)
        a->v[__builtin_ctz(k)] = REGVAL_POISON;
    blk_stat_add(s->inst, SMEM_SHARE_STAT_VIOLATIONS, (uint64_t)__builtin_popcount(m));
}

/* ---- events ------------------------------------------------------------------------------------ */
static void ss_cta_start(void *self, const cta_launch_t *c, uint64_t cycle)
{
    (void)cycle;
    smem_share *s = self;
    blk_call_note(s->probe[SMEM_SHARE_EVENTS], 0, c->cta, c->slot);
    s->first_warp[c->slot] = c->first_warp;
    s->n_warps[c->slot] = c->warps;
    s->threads[c->slot] = c->threads;
    for (unsigned k = 0; k < c->warps; k++) {
        s->rbits[c->first_warp + k] = 0;
        s->viol[c->first_warp + k] = 0;
        put_waiting(s, c->first_warp + k, false);
    }
    if (c->slot < 32)
        s->tr_released &= ~(UINT32_C(1) << c->slot);
}

static void ss_cta_end(void *self, const cta_launch_t *c, uint64_t cycle)
{
    smem_share *s = self;
    blk_call_note(s->probe[SMEM_SHARE_EVENTS], 1, c->cta, c->slot);
    trace_locks(s); /* the lock table released the CTA's lock (bound before this block) */
    if (s->acquired[c->slot] != UINT64_MAX) {
        blk_stat_add(s->inst, SMEM_SHARE_STAT_EXIT_RELEASES, 1);
        blk_stat_add(s->inst, SMEM_SHARE_STAT_HELD, cycle - s->acquired[c->slot]);
        s->acquired[c->slot] = UINT64_MAX;
    }
}

static void ss_warp_start(void *self, unsigned warp, unsigned slot, uint64_t cycle)
{
    smem_share *s = self;
    (void)cycle;
    blk_call_note(s->probe[SMEM_SHARE_EVENTS], 2, warp, slot);
}

static void ss_warp_end(void *self, unsigned w, unsigned slot, uint64_t cycle)
{
    smem_share *s = self;
    (void)cycle;
    blk_call_note(s->probe[SMEM_SHARE_EVENTS], 3, w, slot);
    put_waiting(s, w, false);
}

/* Every method but the warp events is called for each warp checked, each instruction issued or
 * each register value: the notes are in tables of their own (blk_export_noted). */
static bool ss_allow_noted(void *self, unsigned w, const decoded_t *h, uint64_t cycle)
{
    blk_call_note(((smem_share *)self)->probe[SMEM_SHARE_CHECK], w, h->pc, 0);
    return ss_allow(self, w, h, cycle);
}

static void ss_issued_noted(void *self, const issued_t *it)
{
    blk_call_note(((smem_share *)self)->probe[SMEM_SHARE_ISSUED], it->warp, it->pc, 0);
    ss_issued(self, it);
}

static void ss_value_noted(void *self, regval_access *a)
{
    blk_call_note(((smem_share *)self)->probe[SMEM_SHARE_VALUE], a->kind, a->warp, a->slot);
    ss_value(self, a);
}

static const issue_check_if check_table = {ss_allow};
static const issue_check_if check_noted = {ss_allow_noted};
static const instr_issued_if issued_table = {ss_issued};
static const instr_issued_if issued_noted = {ss_issued_noted};
static const warp_events_if events_table = {ss_cta_start, ss_cta_end, ss_warp_start, ss_warp_end};
static const regval_if value_table = {ss_value};
static const regval_if value_noted = {ss_value_noted};

static uint32_t peek_wexec(const void *ctx, unsigned warp, uint64_t off[IR_WARP_SIZE])
{
    return wexec_head_shared(ctx, warp, off);
}

smem_share *smem_share_new(blk_ctx *ctx, gsc_module *parent, const char *name, lock_table *lt,
                           const wexec *wx, const sm_env *env, unsigned warps, unsigned ctas)
{
    smem_share *s = g_new0(smem_share, 1);
    s->inst = blk_inst_new(ctx, parent, name, &smem_share_desc);
    s->lt = lt;
    gsc_trace_calls(s->inst->mod, lt->inst->mod); /* it sets the lock table's owners (scratchpad locks) */
    s->peek = peek_wexec;
    s->peek_ctx = wx;
    s->env = env;
    s->warps = warps;
    s->ctas = ctas;
    s->enforce = blk_param_bool(s->inst, "enforce");
    s->first_warp = g_new0(unsigned, ctas);
    s->n_warps = g_new0(unsigned, ctas);
    s->threads = g_new0(unsigned, ctas);
    s->rbits = g_new0(uint32_t, warps);
    s->viol = g_new0(uint32_t, warps);
    s->viol_func = g_new0(uint32_t, warps);
    s->viol_pc = g_new0(uint32_t, warps);
    s->acquired = g_new(uint64_t, ctas);
    for (unsigned c = 0; c < ctas; c++)
        s->acquired[c] = UINT64_MAX;
    blk_export_noted(s->inst, SMEM_SHARE_CHECK, 0, &check_table, &check_noted, s);
    blk_export_noted(s->inst, SMEM_SHARE_ISSUED, 0, &issued_table, &issued_noted, s);
    blk_export(s->inst, SMEM_SHARE_EVENTS, 0, &events_table, s);
    blk_export_noted(s->inst, SMEM_SHARE_VALUE, 0, &value_table, &value_noted, s);
    blk_export_probes(s->inst, s->probe, SMEM_SHARE_VALUE + 1);
    blk_trace_state(s->inst, "locked", GSC_U32, &s->tr_locked);
    blk_trace_state(s->inst, "released", GSC_U32, &s->tr_released);
    blk_trace_state(s->inst, "waiting", GSC_U64, &s->tr_waiting);
    blk_trace_state(s->inst, "waiting_hi", GSC_U64, &s->tr_waiting_hi);
    return s;
}

void smem_share_free(smem_share *s)
{
    if (!s)
        return;
    g_free(s->first_warp);
    g_free(s->n_warps);
    g_free(s->threads);
    g_free(s->rbits);
    g_free(s->viol);
    g_free(s->viol_func);
    g_free(s->viol_pc);
    g_free(s->acquired);
    g_free(s);
}
