/* renaming.c — see renaming.h. */
#include "kernels/passes/renaming.h"

#include "kernels/analysis/cfg.h"
#include "kernels/analysis/dataflow.h"
#include "kernels/analysis/regalloc.h"

#include <string.h>

uint32_t ren_renamed_fit(uint32_t warps, uint32_t id_bits, uint32_t budget_bits, bool le)
{
    uint64_t per = (uint64_t)warps * id_bits;
    if (per == 0)
        return REN_MAX_ARCH;
    uint64_t r = budget_bits / per;
    if (!le && r * per >= budget_bits && r > 0)
        r--; /* strict: warps x R x bits < budget */
    return r > REN_MAX_ARCH ? REN_MAX_ARCH : (uint32_t)r;
}

uint64_t ren_reg_mask(const ir_func *f, uint32_t reg)
{
    if (reg == IR_NONE || !f->regs || reg >= f->regs->len)
        return 0;
    const ir_reg *r = &g_array_index(f->regs, ir_reg, reg);
    unsigned units = regalloc_units((ir_type)r->type);
    if (!units)
        return 0;
    uint32_t base = r->phys != IR_NONE ? r->phys : reg;
    uint64_t m = 0;
    for (unsigned u = 0; u < units; u++)
        if (base + u < REN_MAX_ARCH)
            m |= 1ull << (base + u);
        else
            return UINT64_MAX; /* out of range: caught by ren_analyze */
    return m;
}

/* The registers of one operand. */
static uint64_t opnd_mask(const ir_func *f, const ir_operand *o)
{
    switch ((ir_opnd_kind)o->kind) {
    case IR_OPND_REG:
        return ren_reg_mask(f, o->u.reg);
    case IR_OPND_MEM:
        return ren_reg_mask(f, o->u.mem.base_reg);
    case IR_OPND_VEC: {
        uint64_t m = 0;
        for (unsigned e = 0; e < o->comp && e < 4; e++)
            m |= ren_reg_mask(f, o->u.vec_regs[e]);
        return m;
    }
    default:
        return 0;
    }
}

/* The read operands of an instruction in operand order (a store's address first, then the
 * sources); returns their count (at most 8 are kept). */
static unsigned read_operands(const ir_func *f, const ir_instr *in, uint64_t *ops)
{
    unsigned n = 0;
    for (unsigned j = 0; j < in->n_dst && n < 8; j++)
        if (in->dst[j].kind == IR_OPND_MEM) {
            uint64_t m = opnd_mask(f, &in->dst[j]);
            if (m)
                ops[n++] = m;
        }
    for (unsigned j = 0; j < in->n_src && n < 8; j++) {
        uint64_t m = opnd_mask(f, &in->src[j]);
        if (m)
            ops[n++] = m;
    }
    return n;
}

static uint64_t write_mask(const ir_func *f, const ir_instr *in)
{
    uint64_t m = 0;
    for (unsigned j = 0; j < in->n_dst; j++)
        if (in->dst[j].kind != IR_OPND_MEM)
            m |= opnd_mask(f, &in->dst[j]);
    return m;
}

/* ---- liveness over architectural registers (the one dataflow solver) ---- */
typedef struct {
    const uint64_t *use, *kill;
} live_ctx;

static void mask_bits(df_bits *b, uint64_t m)
{
    for (; m; m &= m - 1)
        df_bits_set(b, (uint32_t)__builtin_ctzll(m));
}

static uint64_t bits_mask(const df_bits *b)
{
    return b->n ? b->w[0] : 0;
}

static void live_transfer(void *ctx, ir_func *f, uint32_t i, df_bits *gen, df_bits *kill)
{
    (void)f;
    live_ctx *c = ctx;
    mask_bits(gen, c->use[i]);
    mask_bits(kill, c->kill[i]);
}

void ren_rank(const uint32_t *reg, uint32_t n, const uint32_t *lifetime, const uint32_t *writes,
              uint32_t *order)
{
    memcpy(order, reg, n * sizeof *order);
    for (uint32_t i = 1; i < n; i++) { /* insertion sort: a few dozen registers */
        uint32_t x = order[i], j = i;
        while (j > 0) {
            uint32_t y = order[j - 1];
            bool before =
                lifetime[x] > lifetime[y] ||
                (lifetime[x] == lifetime[y] && (writes[x] > writes[y] || (writes[x] == writes[y] && x < y)));
            if (!before)
                break;
            order[j] = y;
            j--;
        }
        order[j] = x;
    }
}

uint64_t ren_encode(uint32_t opcode, uint64_t payload)
{
    payload &= (1ull << 54) - 1;
    return (uint64_t)(opcode & 0xf) | payload << 4 | (uint64_t)((opcode >> 4) & 0x3f) << 58;
}
uint32_t ren_opcode(uint64_t word)
{
    return (uint32_t)(word & 0xf) | (uint32_t)(word >> 58) << 4;
}
uint64_t ren_payload(uint64_t word)
{
    return (word >> 4) & ((1ull << 54) - 1);
}

/* Per block: the divergent branches whose influence region holds it. */
typedef struct {
    uint32_t n_blocks, exit;
    GArray **regions;   /* per block: indices into the branch list */
    uint32_t *br_block; /* per divergent branch: its block */
    uint32_t *br_size;  /* blocks in its region */
    uint64_t *br_need;  /* registers live at its successors or at its reconvergence point */
    uint32_t n_br;
} div_info;

static void div_free(div_info *d)
{
    for (uint32_t b = 0; b < d->n_blocks; b++)
        g_array_free(d->regions[b], TRUE);
    g_free(d->regions);
    g_free(d->br_block);
    g_free(d->br_size);
    g_free(d->br_need);
}

static void div_build(ir_func *f, const uint64_t *live_in, div_info *d)
{
    uint32_t nb = cfg_n_blocks(f), ex = cfg_exit(f);
    d->n_blocks = nb;
    d->exit = ex;
    d->regions = g_new(GArray *, nb);
    for (uint32_t b = 0; b < nb; b++)
        d->regions[b] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    d->br_block = g_new0(uint32_t, nb);
    d->br_size = g_new0(uint32_t, nb);
    d->br_need = g_new0(uint64_t, nb);
    d->n_br = 0;
    uint8_t *seen = g_new0(uint8_t, nb + 1);
    uint32_t *stack = g_new(uint32_t, nb + 1);
    for (uint32_t b = 0; b < nb; b++) {
        ir_block *bl = cfg_block(f, b);
        if (!cfg_reachable(f, b) || !cfg_branch_is_divergent(ir_func_instr(f, bl->last)))
            continue;
        uint32_t p = cfg_ipdom(f, b), k = d->n_br++;
        d->br_block[k] = b;
        /* Lanes wait at the reconvergence point, and at the other path's entry when both
         * successors start paths; with one path (an if without else, a loop's exit branch) the lanes
         * not on it wait at the reconvergence point only. */
        uint64_t need = p != ex ? live_in[p] : 0, paths = 0;
        unsigned n_paths = 0;
        memset(seen, 0, nb + 1);
        uint32_t sp = 0;
        for (guint i = 0; i < bl->succ->len; i++) {
            uint32_t s = g_array_index(bl->succ, uint32_t, i);
            if (s != ex && s != p) {
                paths |= live_in[s];
                n_paths++;
            }
            if (s != p && s != ex && !seen[s]) {
                seen[s] = 1;
                stack[sp++] = s;
            }
        }
        while (sp) {
            uint32_t x = stack[--sp];
            g_array_append_val(d->regions[x], k);
            d->br_size[k]++;
            GArray *succ = cfg_block(f, x)->succ;
            for (guint i = 0; i < succ->len; i++) {
                uint32_t s = g_array_index(succ, uint32_t, i);
                if (s != p && s != ex && !seen[s]) {
                    seen[s] = 1;
                    stack[sp++] = s;
                }
            }
        }
        d->br_need[k] = need | (n_paths > 1 ? paths : 0);
    }
    g_free(seen);
    g_free(stack);
}

static uint64_t div_unsafe(const div_info *d, uint32_t block)
{
    uint64_t m = 0;
    GArray *r = d->regions[block];
    for (guint i = 0; i < r->len; i++)
        m |= d->br_need[g_array_index(r, uint32_t, i)];
    return m;
}

/* Where a dead register r, unsafe to release in `block`, is released: the head block of the
 * reconvergence point of the outermost branch that needs it, climbing while that point is unsafe
 * too; IR_NONE when the warp's exit comes first or the value is live there (a later read releases
 * it). */
static uint32_t pbr_block(ir_func *f, const div_info *d, const uint64_t *live_in, uint32_t block, unsigned r)
{
    for (unsigned guard = 0; guard <= d->n_blocks; guard++) {
        GArray *rg = d->regions[block];
        uint32_t best = IR_NONE;
        for (guint i = 0; i < rg->len; i++) {
            uint32_t k = g_array_index(rg, uint32_t, i);
            if ((d->br_need[k] >> r & 1) && (best == IR_NONE || d->br_size[k] > d->br_size[best]))
                best = k;
        }
        if (best == IR_NONE)
            return block;
        uint32_t p = cfg_ipdom(f, d->br_block[best]);
        if (p == d->exit || (live_in[p] >> r & 1))
            return IR_NONE;
        block = p;
    }
    return IR_NONE;
}

/* Registers of `m`, dead at the end of block b: a pbr at each successor where they are not live (at
 * the reconvergence point that makes it safe, when the successor is inside a divergent region). */
static void pbr_at_succs(ir_func *f, ren_info *r, const div_info *d, const uint64_t *live_in, uint32_t b,
                         uint64_t m)
{
    GArray *succ = cfg_block(f, b)->succ;
    for (guint k = 0; m && k < succ->len; k++) {
        uint32_t s = g_array_index(succ, uint32_t, k);
        if (s >= d->n_blocks)
            continue;
        for (uint64_t x = m & ~live_in[s]; x; x &= x - 1) {
            unsigned reg = (unsigned)__builtin_ctzll(x);
            uint32_t y = (div_unsafe(d, s) >> reg & 1) ? pbr_block(f, d, live_in, s, reg) : s;
            if (y != IR_NONE)
                r->pbr[cfg_block(f, y)->first] |= 1ull << reg;
        }
    }
}

/* Value lifetimes: for each write of r at instruction d, the instructions reached from d (along the
 * CFG, not past a write of r that kills it) before which r is live; a register's lifetime is the
 * longest of its values' [A: maximum]. */
static void lifetimes(ir_func *f, ren_info *r, const uint64_t *kill, const uint64_t *live_in_instr)
{
    uint32_t n = r->n_instrs;
    uint8_t *seen = g_new(uint8_t, n);
    uint32_t *stack = g_new(uint32_t, n + 1);
    for (uint32_t d = 0; d < n; d++) {
        for (uint64_t m = r->def[d]; m; m &= m - 1) {
            unsigned reg = (unsigned)__builtin_ctzll(m);
            r->writes[reg]++;
            memset(seen, 0, n);
            uint32_t sp = 0, count = 0;
            /* successors of instruction d */
            uint32_t b = ir_func_instr(f, d)->block;
            ir_block *bl = cfg_block(f, b);
#define PUSH_SUCC(i)                                                                                         \
    do {                                                                                                     \
        uint32_t bb_ = ir_func_instr(f, (i))->block;                                                         \
        ir_block *bl_ = cfg_block(f, bb_);                                                                   \
        if ((i) < bl_->last) {                                                                               \
            if (!seen[(i) + 1]) {                                                                            \
                seen[(i) + 1] = 1;                                                                           \
                stack[sp++] = (i) + 1;                                                                       \
            }                                                                                                \
        } else                                                                                               \
            for (guint s_ = 0; s_ < bl_->succ->len; s_++) {                                                  \
                uint32_t t_ = g_array_index(bl_->succ, uint32_t, s_);                                        \
                if (t_ < cfg_n_blocks(f)) {                                                                  \
                    uint32_t h_ = cfg_block(f, t_)->first;                                                   \
                    if (!seen[h_]) {                                                                         \
                        seen[h_] = 1;                                                                        \
                        stack[sp++] = h_;                                                                    \
                    }                                                                                        \
                }                                                                                            \
            }                                                                                                \
    } while (0)
            (void)bl;
            PUSH_SUCC(d);
            while (sp) {
                uint32_t i = stack[--sp];
                if (!(live_in_instr[i] >> reg & 1))
                    continue;
                count++;
                if (kill[i] >> reg & 1)
                    continue; /* read, then a new value */
                PUSH_SUCC(i);
            }
#undef PUSH_SUCC
            if (count > r->lifetime[reg])
                r->lifetime[reg] = count;
        }
    }
    g_free(seen);
    g_free(stack);
}

/* ---- the layout: pbrs then a pir at every block head, a pir again every 18 instructions ---- */
static void push_slot(ren_info *r, uint8_t kind, uint32_t instr, uint64_t word)
{
    ren_slot s = {kind, instr, r->layout->len * REN_INSTR_BYTES, word};
    g_array_append_val(r->layout, s);
}

static void layout(ir_func *f, ren_info *r)
{
    r->layout = g_array_new(FALSE, FALSE, sizeof(ren_slot));
    uint32_t nb = cfg_n_blocks(f);
    uint8_t *head = g_new0(uint8_t, r->n_instrs + 1);
    for (uint32_t b = 0; b < nb; b++)
        head[cfg_block(f, b)->first] = 1;
    uint32_t run = 0, pir_at = 0;
    for (uint32_t i = 0; i < r->n_instrs; i++) {
        if (head[i]) {
            uint64_t m = r->pbr[i];
            while (m) {
                uint64_t payload = 0;
                for (unsigned s = 0; s < REN_PBR_SLOTS; s++) {
                    uint64_t id = REN_PBR_UNUSED;
                    if (m) {
                        id = (uint64_t)__builtin_ctzll(m);
                        m &= m - 1;
                    }
                    payload |= id << (6 * s);
                }
                push_slot(r, REN_SLOT_PBR, i, ren_encode(REN_OPCODE_PBR, payload));
                r->n_pbr++;
            }
        }
        if (head[i] || run == REN_PIR_SLOTS) {
            uint64_t payload = 0;
            uint32_t b = ir_func_instr(f, i)->block;
            uint32_t last = b != IR_NONE ? cfg_block(f, b)->last : i;
            for (uint32_t s = 0; s < REN_PIR_SLOTS && i + s <= last; s++)
                payload |= (uint64_t)(r->pir[i + s] & 7) << (3 * s);
            pir_at = r->layout->len * REN_INSTR_BYTES;
            push_slot(r, REN_SLOT_PIR, i, ren_encode(REN_OPCODE_PIR, payload));
            r->n_pir++;
            run = 0;
        }
        r->pc[i] = r->layout->len * REN_INSTR_BYTES;
        r->pir_pc[i] = pir_at;
        r->pir_slot[i] = (uint8_t)run;
        push_slot(r, REN_SLOT_INSTR, i, 0);
        run++;
    }
    /* branch targets: the first word of the target's block (a pbr or its pir) */
    for (guint k = 0; k < r->layout->len; k++) {
        ren_slot *s = &g_array_index(r->layout, ren_slot, k);
        if (s->kind != REN_SLOT_INSTR)
            continue;
        uint32_t t = ir_func_instr(f, s->instr)->op == IR_OP_BRA
                         ? cfg_branch_target(ir_func_instr(f, s->instr))
                         : IR_NONE;
        if (t == IR_NONE)
            continue;
        uint32_t pc = t < r->n_instrs ? r->pc[t] : r->layout->len * REN_INSTR_BYTES;
        /* the flag words before the target's instruction belong to it */
        for (guint j = 0; j < r->layout->len; j++) {
            const ren_slot *x = &g_array_index(r->layout, ren_slot, j);
            if (x->instr == t) {
                pc = x->pc;
                break;
            }
        }
        s->word = pc;
    }
    g_free(head);
}

/* The exemption decided over a launch's frames (ren_analyze_frames' second pass): no budget loop;
 * exempt indices e start at `base`. */
typedef struct {
    uint64_t exempt;
    uint32_t base;
} exempt_force;

static ren_info *analyze(ir_func *f, const ren_opts *o, const exempt_force *force, GError **err)
{
    cfg_build(f);
    ren_info *r = g_new0(ren_info, 1);
    uint32_t n = f->instrs->len;
    r->n_instrs = n;
    r->use = g_new0(uint64_t, n + 1);
    r->def = g_new0(uint64_t, n + 1);
    r->live_out = g_new0(uint64_t, n + 1);
    r->pir = g_new0(uint8_t, n + 1);
    r->rel = g_new0(uint64_t, n + 1);
    r->pbr = g_new0(uint64_t, n + 1);
    r->pc = g_new0(uint32_t, n + 1);
    r->pir_pc = g_new0(uint32_t, n + 1);
    r->pir_slot = g_new0(uint8_t, n + 1);
    uint64_t *kill = g_new0(uint64_t, n + 1);
    typedef uint64_t opnd_masks[8];
    opnd_masks *ops = g_new0(opnd_masks, n + 1);
    uint8_t *n_ops = g_new0(uint8_t, n + 1);
    uint64_t all = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        n_ops[i] = (uint8_t)read_operands(f, in, ops[i]);
        for (unsigned j = 0; j < n_ops[i]; j++)
            r->use[i] |= ops[i][j];
        r->def[i] = write_mask(f, in);
        kill[i] = in->guard == IR_NONE ? r->def[i] : 0;
        all |= r->use[i] | r->def[i];
    }
    if (all == UINT64_MAX && f->n_phys_regs != 64) {
        g_set_error(err, g_quark_from_static_string("renaming"), 1,
                    "function %s uses more than %u architectural registers: renaming needs allocated code "
                    "(at most 63 registers per thread)",
                    f->name, REN_MAX_ARCH);
        ren_info_free(r);
        g_free(kill);
        g_free(ops);
        g_free(n_ops);
        return NULL;
    }
    r->n_arch = all ? 64 - (uint32_t)__builtin_clzll(all) : 0;
    if (f->n_phys_regs != IR_NONE && f->n_phys_regs > r->n_arch)
        r->n_arch = f->n_phys_regs;

    /* liveness */
    live_ctx lc = {r->use, kill};
    df_problem p = {DF_BACKWARD, DF_MAY, REN_MAX_ARCH, live_transfer, &lc, NULL};
    df_result *res = df_solve(f, &p);
    uint32_t nb = cfg_n_blocks(f);
    uint64_t *live_in = g_new0(uint64_t, nb + 1);
    uint64_t *live_out_b = g_new0(uint64_t, nb + 1);
    uint64_t *live_in_instr = g_new0(uint64_t, n + 1);
    for (uint32_t b = 0; b < nb; b++) {
        ir_block *bl = cfg_block(f, b);
        uint64_t live = bits_mask(res->out[b]);
        live_out_b[b] = live;
        for (uint32_t i = bl->last + 1; i-- > bl->first;) {
            r->live_out[i] = live;
            live = r->use[i] | (live & ~kill[i]);
            live_in_instr[i] = live;
        }
        live_in[b] = live;
    }
    df_result_free(res);

    /* exemption (§8): rank and exempt until Eq. 1 fits the budget */
    lifetimes(f, r, kill, live_in_instr);
    uint32_t regs[REN_MAX_ARCH], n_regs = 0;
    for (unsigned a = 0; a < r->n_arch; a++)
        regs[n_regs++] = a;
    ren_rank(regs, n_regs, r->lifetime, r->writes, r->exempt_order);
    r->eq1_bits = ren_eq1_bits(o->warps, r->n_arch, o->id_bits);
    uint32_t keep = r->n_arch;
    if (force) { /* decided over the frames: the exempt ones first in the ranked order */
        uint64_t ex = force->exempt & (r->n_arch >= 64 ? UINT64_MAX : (1ull << r->n_arch) - 1);
        uint32_t ranked[REN_MAX_ARCH], k = 0;
        memcpy(ranked, r->exempt_order, n_regs * sizeof *ranked);
        for (uint32_t pass = 0; pass < 2; pass++)
            for (uint32_t j = 0; j < n_regs; j++)
                if ((ex >> ranked[j] & 1) == (pass == 0))
                    r->exempt_order[k++] = ranked[j];
        keep = r->n_arch - (uint32_t)__builtin_popcountll(ex);
    } else if (o->budget_bits) {
        uint32_t fit = ren_renamed_fit(o->warps, o->id_bits, o->budget_bits, o->le);
        if (fit < keep)
            keep = fit;
    }
    r->n_exempt = r->n_arch - keep;
    for (uint32_t e = 0; e < r->n_exempt; e++) {
        uint32_t a = r->exempt_order[e];
        r->exempt |= 1ull << a;
    }
    /* the exempt namespace: e in register order (from exempt_base when decided over the frames) */
    uint32_t e = force ? force->base : 0;
    for (unsigned a = 0; a < REN_MAX_ARCH; a++)
        if (r->exempt >> a & 1)
            r->exempt_rank[a] = (uint16_t)e++;
    r->eq1_bits_after = ren_eq1_bits(o->warps, keep, o->id_bits);

    /* releases */
    div_info d;
    div_build(f, live_in, &d);
    for (uint32_t b = 0; b < nb; b++) {
        if (!cfg_reachable(f, b))
            continue;
        ir_block *bl = cfg_block(f, b);
        uint64_t unsafe = div_unsafe(&d, b);
        for (uint32_t i = bl->first; i <= bl->last; i++) {
            uint64_t dead = r->use[i] & ~r->live_out[i] & ~r->def[i] & ~r->exempt;
            if (!dead)
                continue;
            uint64_t released = 0;
            for (unsigned j = 0; j < n_ops[i] && j < 3; j++)
                if ((ops[i][j] & ~(dead & ~unsafe)) == 0) {
                    r->pir[i] |= (uint8_t)(1u << j);
                    released |= ops[i][j];
                }
            r->rel[i] = released;
            for (uint64_t m = dead & unsafe & ~released; m; m &= m - 1) {
                unsigned reg = (unsigned)__builtin_ctzll(m);
                uint32_t y = pbr_block(f, &d, live_in, b, reg);
                if (y != IR_NONE && y != b)
                    r->pbr[cfg_block(f, y)->first] |= 1ull << reg;
            }
            /* dead and safe, but its operand has no bit (shared with an unsafe register, or operand
             * 3 and later): a pbr at the successors, unless the block writes it again */
            uint64_t later = 0;
            for (uint32_t j = i + 1; j <= bl->last; j++)
                later |= r->def[j];
            uint64_t left = dead & ~unsafe & ~released & ~later;
            pbr_at_succs(f, r, &d, live_in, b, left);
        }
        /* registers that die on an edge out of b without a last read */
        pbr_at_succs(f, r, &d, live_in, b, live_out_b[b] & ~r->exempt);
    }
    /* a pbr never releases what its block's head reads */
    for (uint32_t i = 0; i < n; i++)
        r->pbr[i] &= ~live_in_instr[i];
    div_free(&d);
    layout(f, r);
    g_free(kill);
    g_free(ops);
    g_free(n_ops);
    g_free(live_in);
    g_free(live_out_b);
    g_free(live_in_instr);
    return r;
}

/* ---- the frames of a launch: Eq. 1 and the exemption over the heaviest chain of frames ---- */
typedef struct {
    uint32_t func, reg, lifetime, writes;
    bool entry;
} frame_reg;

static int frame_reg_cmp(const void *pa, const void *pb)
{
    const frame_reg *a = pa, *b = pb;
    if (a->lifetime != b->lifetime)
        return a->lifetime > b->lifetime ? -1 : 1;
    if (a->writes != b->writes)
        return a->writes > b->writes ? -1 : 1;
    if (a->entry != b->entry)
        return a->entry ? -1 : 1;
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    return a->reg < b->reg ? -1 : a->reg > b->reg;
}

#define CHAIN_BUSY (IR_NONE - 1)

/* The heaviest chain of frames from f down: own[f] plus its heaviest callee's (the call graph is
 * acyclic: a call back into a function on the way counts nothing). */
static uint32_t chain_depth(uint32_t f, GArray *const *calls, const uint32_t *own, uint32_t *depth)
{
    if (depth[f] == CHAIN_BUSY)
        return 0;
    if (depth[f] != IR_NONE)
        return depth[f];
    depth[f] = CHAIN_BUSY;
    uint32_t best = 0;
    for (guint k = 0; k < calls[f]->len; k++)
        best = MAX(best, chain_depth(g_array_index(calls[f], uint32_t, k), calls, own, depth));
    return depth[f] = own[f] + best;
}

/* depth[] for every function, and on[f]: f lies on a heaviest chain from the entry (the registers
 * of its callers on the heaviest path to it plus its own chain make the whole). */
static uint32_t chains(uint32_t n, uint32_t entry, GArray *const *calls, const uint32_t *own, uint32_t *depth,
                       bool *on)
{
    for (uint32_t f = 0; f < n; f++)
        depth[f] = IR_NONE;
    uint32_t total = chain_depth(entry, calls, own, depth);
    int64_t *prefix = g_new(int64_t, n);
    for (uint32_t f = 0; f < n; f++)
        prefix[f] = -1;
    prefix[entry] = 0;
    for (uint32_t round = 0; round < n; round++) /* longest paths in the acyclic call graph */
        for (uint32_t f = 0; f < n; f++)
            for (guint k = 0; prefix[f] >= 0 && k < calls[f]->len; k++) {
                uint32_t c = g_array_index(calls[f], uint32_t, k);
                prefix[c] = MAX(prefix[c], prefix[f] + own[f]);
            }
    for (uint32_t f = 0; f < n; f++)
        on[f] =
            prefix[f] >= 0 && depth[f] != IR_NONE && depth[f] != CHAIN_BUSY && prefix[f] + depth[f] == total;
    g_free(prefix);
    return total;
}

ren_frames *ren_analyze_frames(ir_module *m, uint32_t entry, const ren_opts *o, GError **err)
{
    uint32_t n = m->funcs->len;
    bool *reach = g_new0(bool, n + 1);
    ren_callees(m, entry, reach);
    reach[entry] = true;
    ren_frames *fr = g_new0(ren_frames, 1);
    fr->n_funcs = n;
    fr->entry = entry;
    fr->info = g_new0(ren_info *, n);
    fr->chain = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    /* the passes without exemption: every function's registers, lifetimes and writes */
    ren_opts o0 = *o;
    o0.budget_bits = 0;
    GArray **calls = g_new(GArray *, n);
    uint32_t *own = g_new0(uint32_t, n), *depth = g_new(uint32_t, n);
    bool *on = g_new0(bool, n);
    uint64_t *ex = g_new0(uint64_t, n);
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(frame_reg));
    bool ok = true;
    for (uint32_t f = 0; f < n; f++) {
        calls[f] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        if (!reach[f])
            continue;
        ir_func *fn = g_ptr_array_index(m->funcs, f);
        if (ok && !(fr->info[f] = ren_analyze(fn, &o0, err)))
            ok = false;
        bool *direct = g_new0(bool, n + 1);
        for (uint32_t i = 0; fn->instrs && i < ir_func_n_instrs(fn); i++) {
            const ir_instr *in = ir_func_instr(fn, i);
            for (unsigned j = 0; in->op == IR_OP_CALL && j < in->n_src; j++) {
                uint32_t c = in->src[j].u.func;
                if (in->src[j].kind == IR_OPND_FUNC && c < n && !direct[c]) {
                    direct[c] = true;
                    g_array_append_val(calls[f], c);
                }
            }
        }
        g_free(direct);
        if (!ok)
            continue;
        own[f] = fr->info[f]->n_arch;
        for (uint32_t a = 0; a < fr->info[f]->n_arch; a++) {
            frame_reg x = {f, a, fr->info[f]->lifetime[a], fr->info[f]->writes[a], f == entry};
            g_array_append_val(regs, x);
        }
    }
    if (ok) {
        g_array_sort(regs, frame_reg_cmp);
        fr->table_regs = chains(n, entry, calls, own, depth, on);
        uint32_t fit =
            o->budget_bits ? ren_renamed_fit(o->warps, o->id_bits, o->budget_bits, o->le) : UINT32_MAX;
        uint32_t table = fr->table_regs;
        /* §8: the top-ranked register of a frame on a heaviest chain, until Eq. 1 fits */
        while (table > fit) {
            guint k = 0;
            for (; k < regs->len; k++) {
                const frame_reg *x = &g_array_index(regs, frame_reg, k);
                if (on[x->func] && !(ex[x->func] >> x->reg & 1))
                    break;
            }
            if (k == regs->len)
                break;
            const frame_reg *x = &g_array_index(regs, frame_reg, k);
            ex[x->func] |= 1ull << x->reg;
            own[x->func]--;
            fr->n_exempt++;
            table = chains(n, entry, calls, own, depth, on);
        }
        fr->table_regs_after = table;
        fr->eq1_bits = ren_eq1_bits(o->warps, fr->table_regs, o->id_bits);
        fr->eq1_bits_after = ren_eq1_bits(o->warps, table, o->id_bits);
        /* the passes again where registers are exempt (no release bits, reserved IDs): e from the
         * entry's, then each function's in function order */
        uint32_t base = 0;
        for (uint32_t pass = 0; pass < 2 && ok; pass++)
            for (uint32_t f = 0; f < n && ok; f++) {
                if (!fr->info[f] || !ex[f] || (pass == 0) != (f == entry))
                    continue;
                exempt_force force = {ex[f], base};
                base += (uint32_t)__builtin_popcountll(ex[f]);
                ren_info_free(fr->info[f]);
                if (!(fr->info[f] = analyze(g_ptr_array_index(m->funcs, f), o, &force, err)))
                    ok = false;
            }
        /* a heaviest chain, for the reports */
        chains(n, entry, calls, own, depth, on);
        for (uint32_t f = entry; f != IR_NONE;) {
            g_array_append_val(fr->chain, f);
            uint32_t next = IR_NONE;
            for (guint k = 0; k < calls[f]->len && next == IR_NONE; k++) {
                uint32_t c = g_array_index(calls[f], uint32_t, k);
                if (depth[c] + own[f] == depth[f] && depth[c] > 0)
                    next = c;
            }
            f = next;
        }
    }
    for (uint32_t f = 0; f < n; f++)
        g_array_free(calls[f], TRUE);
    g_free(calls);
    g_free(own);
    g_free(depth);
    g_free(on);
    g_free(ex);
    g_free(reach);
    g_array_free(regs, TRUE);
    if (!ok) {
        ren_frames_free(fr);
        return NULL;
    }
    return fr;
}

void ren_frames_free(ren_frames *fr)
{
    if (!fr)
        return;
    for (uint32_t f = 0; f < fr->n_funcs; f++)
        ren_info_free(fr->info[f]);
    g_free(fr->info);
    g_array_free(fr->chain, TRUE);
    g_free(fr);
}

ren_info *ren_analyze(ir_func *f, const ren_opts *o, GError **err)
{
    return analyze(f, o, NULL, err);
}

void ren_info_free(ren_info *r)
{
    if (!r)
        return;
    g_free(r->use);
    g_free(r->def);
    g_free(r->live_out);
    g_free(r->pir);
    g_free(r->rel);
    g_free(r->pbr);
    g_free(r->pc);
    g_free(r->pir_pc);
    g_free(r->pir_slot);
    if (r->layout)
        g_array_free(r->layout, TRUE);
    g_free(r);
}

static void print_mask(GString *out, uint64_t m)
{
    bool first = true;
    for (; m; m &= m - 1) {
        g_string_append_printf(out, "%sR%u", first ? "" : " ", (unsigned)__builtin_ctzll(m));
        first = false;
    }
    if (first)
        g_string_append(out, "-");
}

void ren_print(GString *out, const ir_module *m, ir_func *f, const ren_info *r, const ren_opts *o,
               const ren_frames *fr)
{
    g_string_append_printf(out, "// renaming: %s: %u registers, %u resident warps, %u-bit IDs\n", f->name,
                           r->n_arch, o->warps, o->id_bits);
    if (fr) {
        uint64_t bits = fr->eq1_bits;
        g_string_append_printf(out, "// Eq. 1: %u x %u x %u = %" G_GUINT64_FORMAT " bits = %.2f KB", o->warps,
                               fr->table_regs, o->id_bits, bits, bits / 8.0 / 1024.0);
        if (fr->chain->len > 1) {
            g_string_append(out, " (frames");
            for (guint k = 0; k < fr->chain->len; k++) {
                uint32_t c = g_array_index(fr->chain, uint32_t, k);
                const ir_func *g = g_ptr_array_index(m->funcs, c);
                g_string_append_printf(out, "%s%s %u", k ? " + " : " ", g->name, fr->info[c]->n_arch);
            }
            g_string_append_c(out, ')');
        }
        g_string_append_printf(
            out, "; budget %u bits (%s): %u exempt, %" G_GUINT64_FORMAT " bits after exemption\n",
            o->budget_bits, o->le ? "<=" : "<", fr->n_exempt, fr->eq1_bits_after);
    } else {
        g_string_append_printf(out,
                               "// its frame: %u registers, %u exempt (Eq. 1: with its callers' frames)\n",
                               r->n_arch, r->n_exempt);
    }
    g_string_append(out, "// exempt:");
    if (!r->n_exempt)
        g_string_append(out, " none");
    for (uint32_t e = 0; e < r->n_exempt; e++) {
        uint32_t a = r->exempt_order[e];
        g_string_append_printf(out, " R%u(lifetime %u, writes %u)", a, r->lifetime[a], r->writes[a]);
    }
    g_string_append_printf(out, "\n// %u pir, %u pbr; code %u -> %u bytes\n", r->n_pir, r->n_pbr,
                           r->n_instrs * REN_INSTR_BYTES, r->layout->len * REN_INSTR_BYTES);
    for (guint k = 0; k < r->layout->len; k++) {
        const ren_slot *s = &g_array_index(r->layout, ren_slot, k);
        g_string_append_printf(out, "%5u: ", s->pc);
        if (s->kind == REN_SLOT_PIR) {
            g_string_append(out, "pir   ");
            uint64_t pl = ren_payload(s->word);
            const ir_instr *in0 = ir_func_instr(f, s->instr);
            uint32_t last = cfg_block(f, in0->block)->last;
            for (uint32_t i = 0; i < REN_PIR_SLOTS && s->instr + i <= last; i++) {
                unsigned v = (unsigned)(pl >> (3 * i) & 7);
                g_string_append_printf(out, "%s%u%u%u", i ? " " : "", v >> 2 & 1, v >> 1 & 1, v & 1);
            }
        } else if (s->kind == REN_SLOT_PBR) {
            g_string_append(out, "pbr   ");
            uint64_t pl = ren_payload(s->word);
            for (unsigned i = 0; i < REN_PBR_SLOTS; i++) {
                unsigned id = (unsigned)(pl >> (6 * i) & 63);
                if (id != REN_PBR_UNUSED)
                    g_string_append_printf(out, "%sR%u", i ? " " : "", id);
            }
        } else {
            const ir_instr *in = ir_func_instr(f, s->instr);
            ir_print_instr(out, m, f, in);
            if (in->op == IR_OP_BRA)
                g_string_append_printf(out, "   // -> %" G_GUINT64_FORMAT, s->word);
            if (r->rel[s->instr]) {
                g_string_append(out, "   // release ");
                print_mask(out, r->rel[s->instr]);
            }
        }
        g_string_append_c(out, '\n');
    }
}

void ren_callees(const ir_module *m, uint32_t func, bool *called)
{
    const ir_func *f = g_ptr_array_index(m->funcs, func);
    for (uint32_t i = 0; f->instrs && i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (in->op != IR_OP_CALL)
            continue;
        for (unsigned j = 0; j < in->n_src; j++) {
            uint32_t c = in->src[j].u.func;
            if (in->src[j].kind == IR_OPND_FUNC && c < m->funcs->len && !called[c]) {
                called[c] = true;
                ren_callees(m, c, called);
            }
        }
    }
}

static void report_func(FILE *out, ir_module *m, ir_func *f, const ren_info *r, const ren_opts *o,
                        const ren_frames *fr)
{
    GString *s = g_string_new(NULL);
    ren_print(s, m, f, r, o, fr);
    fputs(s->str, out);
    fputc('\n', out);
    g_string_free(s, TRUE);
}

bool ren_report_module(FILE *out, ir_module *m, const char *entry, const ren_opts *o, GError **err)
{
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined || !f->is_entry || (entry && strcmp(f->name, entry) != 0))
            continue;
        ren_frames *fr = ren_analyze_frames(m, i, o, err);
        if (!fr)
            return false;
        report_func(out, m, f, fr->info[i], o, fr);
        /* the functions it calls: renamed in frames of their own */
        for (guint c = 0; c < m->funcs->len; c++) {
            if (c == i || !fr->info[c])
                continue;
            ir_func *g = g_ptr_array_index(m->funcs, c);
            fprintf(out, "// %s is called by %s: its registers are renamed in a frame of their own\n",
                    g->name, f->name);
            report_func(out, m, g, fr->info[c], o, NULL);
        }
        ren_frames_free(fr);
    }
    return true;
}
