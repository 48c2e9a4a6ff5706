/* scoreboard_block.c — see scoreboard_block.h. */
#include "models/sm/scoreboard_block.h"

#include "kernels/analysis/regalloc.h"
#include "models/sm/warp_exec.h"

static const char *const sb_methods[] = {
    "check(warp, instruction) -> hazard bits (RAW, WAW, WAR, LONG)",
    "reserve(warp, instruction, long_op)",
    "release_write(warp, register, long_op)",
    "release_read(warp, register)   (source reservations: the operand was read)",
    "clear_warp(warp)",
    "pending_writes(warp, register), pending_reads(warp, register)",
    "source_reservations() -> bool",
    NULL,
};
const blk_iface scoreboard_iface = {
    "scoreboard", "register reservations of in-order issue", sb_methods, {"warp", "reg", "op"}, {8, 16, 3}};

static const blk_port_desc ports[] = {
    [SCOREBOARD_SB] = {"sb", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                       "the issue stage checks, reserves and releases registers (same cycle)",
                       &scoreboard_iface},
};

static const blk_param_desc params[] = {
    {"source_reservations", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "also reserve sources until read, a WAR hazard for later writes (GREENER) — off in the baseline"},
};

static const blk_stat_desc stats[] = {
    [SCOREBOARD_STAT_RESERVED] = {"reserved", BLK_STAT_COUNTER, "instructions",
                                  "instructions whose registers were reserved", NULL},
    [SCOREBOARD_STAT_RELEASED] = {"released", BLK_STAT_COUNTER, "registers",
                                  "destination reservations released", NULL},
    [SCOREBOARD_STAT_READ_RELEASED] = {"read_released", BLK_STAT_COUNTER, "registers",
                                       "source reservations released (source_reservations only)", NULL},
    [SCOREBOARD_STAT_HAZARDS] = {"hazards", BLK_STAT_COUNTER, "checks",
                                 "checks that found a hazard (an instruction waits until a release)", NULL},
};

static const blk_state_desc state[] = {
    {"pending", 12, "register writes pending, all warps"},
};

const blk_desc scoreboard_desc = {
    "scoreboard",
    "per-warp register reservations of in-order issue (RAW/WAW; WAR with source reservations)",
    "docs/baseline-design.md §2.2 scoreboard; CCWS/DAWS/VWS spec §2.1; resource-sharing/GREENER spec §10.4",
    ports,
    BLK_N(ports),
    params,
    BLK_N(params),
    stats,
    BLK_N(stats),
    state,
    BLK_N(state),
};

enum { OP_CHECK, OP_RESERVE, OP_RELEASE, OP_RELEASE_READ, OP_CLEAR };

_Static_assert(offsetof(scoreboard_block, tr_pending) + sizeof(uint32_t) <= 64,
               "what a check, a reservation or a release reads of the block on its first line");

/* Scoreboard registers of an instruction: at most a quad per slot. */
#define SB_SRC_MAX (SM_MAX_OPERANDS * 4)
#define SB_DST_MAX ((IR_MAX_DST + 2) * 4)

static inline unsigned slot_regs(const scoreboard_block *b, unsigned slot, unsigned *first)
{
    uint32_t e = b->map[slot]; /* slot < n_slots: decode's slots are the loaded module's */
    *first = e >> 3;
    return e & 7;
}

static unsigned expand(const uint32_t *map, const uint16_t *slots, unsigned n, unsigned *out)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t e = map[slots[i]], first = e >> 3;
        out[k++] = first;
        for (unsigned u = 1; u < (e & 7); u++)
            out[k++] = first + u;
    }
    return k;
}

/* The block alone maps the slots at each call (into tmp). */
static const unsigned *G_GNUC_NO_INLINE expand_instr(const scoreboard_block *b, const decoded_t *h,
                                                     unsigned *tmp, unsigned *ns, unsigned *nd)
{
    *ns = expand(b->map, h->src, h->n_src, tmp);
    *nd = expand(b->map, h->dst, h->n_dst, tmp + *ns);
    return tmp;
}

/* The instruction's scoreboard registers: its *ns sources, then its *nd destinations (mapped once per
 * static instruction by new_phys). */
static inline const unsigned *regs_of(const scoreboard_block *b, const decoded_t *h, unsigned *ns,
                                      unsigned *nd)
{
    g_assert(h->func < b->n_funcs);
    const scoreboard_func *f = &b->funcs[h->func];
    const scoreboard_static *x = &b->ins[f->base + MIN(h->pc, f->n_instrs)];
    *ns = x->n_src;
    *nd = x->n_dst;
    return b->pool + x->off;
}

static unsigned check_regs(scoreboard_block *b, unsigned warp, const unsigned *r, unsigned ns, unsigned nd)
{
    unsigned hz = scoreboard_check(b->sb, warp, r, ns, r + ns, nd);
    if (hz != SCOREBOARD_CLEAR)
        blk_stat_add(b->inst, SCOREBOARD_STAT_HAZARDS, 1);
    return hz;
}

static unsigned sb_check(void *self, unsigned warp, const decoded_t *h)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, h->pc, OP_CHECK);
    unsigned ns, nd;
    if (G_LIKELY(b->ins)) {
        const unsigned *r = regs_of(b, h, &ns, &nd);
        return check_regs(b, warp, r, ns, nd);
    }
    unsigned tmp[SB_SRC_MAX + SB_DST_MAX];
    const unsigned *r = expand_instr(b, h, tmp, &ns, &nd);
    return check_regs(b, warp, r, ns, nd);
}

static void reserve_regs(scoreboard_block *b, unsigned warp, const unsigned *r, unsigned ns, unsigned nd,
                         bool long_op)
{
    scoreboard_reserve(b->sb, warp, r, ns, r + ns, nd, long_op);
    b->tr_pending += nd;
    blk_stat_add(b->inst, SCOREBOARD_STAT_RESERVED, 1);
}

static void sb_reserve(void *self, unsigned warp, const decoded_t *h, bool long_op)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, h->pc, OP_RESERVE);
    unsigned ns, nd;
    if (G_LIKELY(b->ins)) {
        const unsigned *r = regs_of(b, h, &ns, &nd);
        reserve_regs(b, warp, r, ns, nd, long_op);
        return;
    }
    unsigned tmp[SB_SRC_MAX + SB_DST_MAX];
    const unsigned *r = expand_instr(b, h, tmp, &ns, &nd);
    reserve_regs(b, warp, r, ns, nd, long_op);
}

static void sb_release_write(void *self, unsigned warp, unsigned reg, bool long_op)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, reg, OP_RELEASE);
    unsigned first, n = slot_regs(b, reg, &first);
    for (unsigned u = 0; u < n; u++)
        scoreboard_release_write(b->sb, warp, first + u, long_op);
    b->tr_pending -= n;
    blk_stat_add(b->inst, SCOREBOARD_STAT_RELEASED, 1);
}

static void sb_release_read(void *self, unsigned warp, unsigned reg)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, reg, OP_RELEASE_READ);
    unsigned first, n = slot_regs(b, reg, &first);
    for (unsigned u = 0; u < n; u++)
        scoreboard_release_read(b->sb, warp, first + u);
    blk_stat_add(b->inst, SCOREBOARD_STAT_READ_RELEASED, 1);
}

static void sb_clear_warp(void *self, unsigned warp)
{
    scoreboard_block *b = self;
    blk_call_note(b->probe, warp, 0, OP_CLEAR);
    if (!scoreboard_warp_idle(b->sb, warp)) /* the traced count loses the slot's pending writes */
        for (unsigned r = 0; r < b->regs; r++)
            b->tr_pending -= scoreboard_pending_writes(b->sb, warp, r);
    scoreboard_clear_warp(b->sb, warp);
}

/* A slot's pending writes (reads): the most of any of its scoreboard registers. */
static unsigned slot_pending(const scoreboard_block *b, unsigned warp, unsigned reg, bool reads)
{
    unsigned first, n = slot_regs(b, reg, &first), most = 0;
    for (unsigned u = 0; u < n; u++) {
        unsigned c = reads ? scoreboard_pending_reads(b->sb, warp, first + u)
                           : scoreboard_pending_writes(b->sb, warp, first + u);
        most = MAX(most, c);
    }
    return most;
}

static unsigned sb_pending_writes(void *self, unsigned warp, unsigned reg)
{
    return slot_pending(self, warp, reg, false);
}

static unsigned sb_pending_reads(void *self, unsigned warp, unsigned reg)
{
    return slot_pending(self, warp, reg, true);
}

static bool sb_source_reservations(void *self)
{
    return scoreboard_source_reservations(((scoreboard_block *)self)->sb);
}

static unsigned sb_reserved(void *self, unsigned warp)
{
    return scoreboard_reserved(((scoreboard_block *)self)->sb, warp);
}

static const scoreboard_if sb_table = {
    sb_check,          sb_reserve,       sb_release_write,       sb_release_read, sb_clear_warp,
    sb_pending_writes, sb_pending_reads, sb_source_reservations, sb_reserved};

static scoreboard_block *sb_build(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps,
                                  unsigned regs, const uint32_t *map, unsigned n_slots)
{
    scoreboard_block *b = g_aligned_alloc0(1, sizeof(scoreboard_block), 64); /* (its first line: above) */
    b->inst = blk_inst_new(ctx, parent, name, &scoreboard_desc);
    b->sb = scoreboard_new(warps, regs, blk_param_bool(b->inst, "source_reservations"));
    b->regs = regs;
    b->map = map;
    b->n_slots = n_slots;
    blk_export(b->inst, SCOREBOARD_SB, 0, &sb_table, b);
    b->probe = blk_export_probe(b->inst, SCOREBOARD_SB, 0);
    blk_trace_state(b->inst, "pending", GSC_U32, &b->tr_pending);
    return b;
}

scoreboard_block *scoreboard_block_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned warps,
                                       unsigned regs)
{
    uint32_t *map = g_new(uint32_t, regs); /* the identity */
    for (unsigned s = 0; s < regs; s++)
        map[s] = s << 3 | 1;
    scoreboard_block *b = sb_build(ctx, parent, name, warps, regs, map, regs);
    b->own_map = map;
    return b;
}

/* Maps the register slots decode gives every instruction of m (wexec_instr_regs) once. */
static void static_regs(scoreboard_tables *t, const ir_module *m, const kload_module *k)
{
    t->n_funcs = m->funcs->len;
    t->funcs = g_new(scoreboard_func, t->n_funcs);
    unsigned total = 0;
    for (unsigned f = 0; f < t->n_funcs; f++) {
        t->funcs[f].base = total;
        t->funcs[f].n_instrs = ir_func_n_instrs(g_ptr_array_index(m->funcs, f));
        total += t->funcs[f].n_instrs + 1; /* + the implicit ret: no registers */
    }
    t->ins = g_new0(scoreboard_static, total);
    GArray *pool = g_array_sized_new(FALSE, FALSE, sizeof(unsigned), 64); /* never a NULL pool */
    for (unsigned f = 0; f < t->n_funcs; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        for (uint32_t pc = 0; pc < t->funcs[f].n_instrs; pc++) {
            uint16_t src[SM_MAX_OPERANDS], dst[IR_MAX_DST + 2], n_src, n_dst;
            unsigned r[SB_SRC_MAX + SB_DST_MAX];
            wexec_instr_regs(k, f, ir_func_instr(fn, pc), src, &n_src, dst, &n_dst);
            scoreboard_static *x = &t->ins[t->funcs[f].base + pc];
            x->off = pool->len;
            x->n_src = (uint16_t)expand(t->map, src, n_src, r);
            x->n_dst = (uint16_t)expand(t->map, dst, n_dst, r + x->n_src);
            g_array_append_vals(pool, r, x->n_src + x->n_dst);
        }
    }
    t->pool = (unsigned *)(void *)g_array_free(pool, FALSE);
}

/* Three files, one after the other: general registers R0.. (physical, 32-bit units), the predicate
 * file P0.., and the slots of registers without an allocation. Every function's frame numbers its
 * physical registers from R0 and P0, as the register banks do. */
static scoreboard_tables *tables_new(const ir_module *m, const kload_module *k)
{
    unsigned n_slots = k->total_regs + 1, n_gen = 0, n_pred = 0;
    for (unsigned f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        for (unsigned r = 0; fn->regs && r < fn->regs->len; r++) {
            const ir_reg *reg = &g_array_index(fn->regs, ir_reg, r);
            unsigned units = regalloc_units((ir_type)reg->type);
            if (reg->phys == IR_NONE)
                continue;
            if (units == 0)
                n_pred = MAX(n_pred, reg->phys + 1);
            else
                n_gen = MAX(n_gen, reg->phys + units);
        }
    }
    uint32_t *map = g_new(uint32_t, n_slots);
    for (unsigned s = 0; s < n_slots; s++) /* unallocated (and the spare last slot): the third file */
        map[s] = (n_gen + n_pred + s) << 3 | 1;
    for (unsigned f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        for (unsigned r = 0; fn->regs && r < fn->regs->len; r++) {
            const ir_reg *reg = &g_array_index(fn->regs, ir_reg, r);
            unsigned slot = k->funcs[f].reg_base + r, units = regalloc_units((ir_type)reg->type);
            if (reg->phys == IR_NONE || slot >= n_slots)
                continue;
            map[slot] = units == 0 ? (n_gen + reg->phys) << 3 | 1 : reg->phys << 3 | units;
        }
    }
    scoreboard_tables *t = g_new0(scoreboard_tables, 1);
    t->map = map;
    t->n_slots = n_slots;
    t->regs = n_gen + n_pred + n_slots;
    t->n_gen = n_gen;
    t->n_pred = n_pred;
    t->mod = m;
    static_regs(t, m, k);
    return t;
}

static void tables_free(scoreboard_tables *t)
{
    g_free(t->map);
    g_free(t->funcs);
    g_free(t->ins);
    g_free(t->pool);
    g_free(t);
}

scoreboard_block *scoreboard_block_new_phys(blk_ctx *ctx, gsc_module *parent, const char *name,
                                            unsigned warps, sm_env *env)
{
    scoreboard_tables *t = env->sb_tables;
    if (!t || t->mod != env->mod) { /* the first, or another module than the shared tables' */
        t = tables_new(env->mod, env->k);
        if (!env->sb_tables)
            env->sb_tables = t;
    }
    t->users++;
    scoreboard_block *b = sb_build(ctx, parent, name, warps, t->regs, t->map, t->n_slots);
    b->tables = t;
    b->env = env;
    b->n_gen = t->n_gen;
    b->n_pred = t->n_pred;
    b->funcs = t->funcs;
    b->n_funcs = t->n_funcs;
    b->ins = t->ins;
    b->pool = t->pool;
    return b;
}

void scoreboard_block_free(scoreboard_block *b)
{
    if (!b)
        return;
    scoreboard_free(b->sb);
    g_free(b->own_map);
    if (b->tables && !--b->tables->users) {
        if (b->env->sb_tables == b->tables)
            b->env->sb_tables = NULL;
        tables_free(b->tables);
    }
    g_aligned_free(b);
}
