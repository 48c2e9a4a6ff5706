/* greener.c — see greener.h. */
#include "kernels/passes/greener.h"

#include <string.h>

#include "kernels/analysis/annot.h"
#include "kernels/analysis/cfg.h"
#include "kernels/analysis/regalloc.h"

const char *greener_state_name(greener_state s)
{
    static const char *const names[] = {"OFF", "SLEEP", "ON", "-"};
    return names[s & 3];
}

greener_state greener_table(bool live, bool sleep_off)
{
    if (!sleep_off)
        return GREENER_ON;
    return live ? GREENER_SLEEP : GREENER_OFF;
}

/* ---- the analysis core ---------------------------------------------------------------------- */

static inline bool bit_get(const uint64_t *v, uint32_t k)
{
    return (v[k / 64] >> (k % 64)) & 1;
}

static inline void bit_set(uint64_t *v, uint32_t k)
{
    v[k / 64] |= UINT64_C(1) << (k % 64);
}

static inline void bit_clear(uint64_t *v, uint32_t k)
{
    v[k / 64] &= ~(UINT64_C(1) << (k % 64));
}

/* Dist(OUT) by rising iteration from the bottom (0) to the least fixed point. */
static void solve_dist(const greener_node *nodes, greener_result *r)
{
    uint32_t n = r->n, K = r->n_keys;
    uint8_t inf = (uint8_t)(r->W + 1);
    uint8_t *in = g_malloc0((size_t)n * K + 1);
    uint8_t *acc = g_malloc0(K + 1); /* the keys the node accesses */
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t s = n; s-- > 0;) {
            const greener_node *nd = &nodes[s];
            uint8_t *out = &r->dist_out[(size_t)s * K];
            for (uint32_t k = 0; k < K; k++) {
                uint8_t d = nd->exit ? inf : 0;
                for (uint32_t j = 0; j < nd->n_succ; j++)
                    d = MAX(d, in[(size_t)nd->succ[j] * K + k]);
                if (d != out[k]) {
                    out[k] = d;
                    changed = true;
                }
            }
            uint8_t *din = &in[(size_t)s * K];
            for (uint32_t a = 0; a < nd->n_acc; a++)
                acc[nd->acc[a].key] = 1;
            for (uint32_t k = 0; k < K; k++) {
                uint8_t d = out[k];
                uint8_t v = acc[k] ? 1 : d == 0 ? 0 : d >= r->W ? inf : (uint8_t)(d + 1); /* INC */
                if (v != din[k]) {
                    din[k] = v;
                    changed = true;
                }
            }
            for (uint32_t a = 0; a < nd->n_acc; a++)
                acc[nd->acc[a].key] = 0;
        }
    }
    g_free(in);
    g_free(acc);
}

/* Per-thread liveness, then the warp's: for each divergent branch, every register live at its
 * successors or at its reconvergence point is live in the region its lanes run while others wait. */
static void solve_live(const greener_node *nodes, greener_result *r)
{
    uint32_t n = r->n, W = r->words;
    uint64_t *live_in = g_malloc0((size_t)n * W * sizeof(uint64_t) + 8);
    uint64_t *tmp = g_malloc0(W * sizeof(uint64_t) + 8);
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t s = n; s-- > 0;) {
            const greener_node *nd = &nodes[s];
            uint64_t *out = &r->live_out[(size_t)s * W];
            memset(tmp, 0, W * sizeof(uint64_t));
            for (uint32_t j = 0; j < nd->n_succ; j++)
                for (uint32_t w = 0; w < W; w++)
                    tmp[w] |= live_in[(size_t)nd->succ[j] * W + w];
            memcpy(out, tmp, W * sizeof(uint64_t));
            for (uint32_t a = 0; a < nd->n_acc; a++)
                if (nd->acc[a].write && nd->acc[a].kill)
                    bit_clear(tmp, nd->acc[a].key);
            for (uint32_t a = 0; a < nd->n_acc; a++)
                if (!nd->acc[a].write)
                    bit_set(tmp, nd->acc[a].key);
            uint64_t *in = &live_in[(size_t)s * W];
            if (memcmp(in, tmp, W * sizeof(uint64_t)) != 0) {
                memcpy(in, tmp, W * sizeof(uint64_t));
                changed = true;
            }
        }
    }
    /* Warp-safe extension. */
    uint8_t *seen = g_malloc0(n + 1);
    uint32_t *stack = g_malloc((size_t)n * 2 + 2);
    for (uint32_t b = 0; b < n; b++) {
        const greener_node *nd = &nodes[b];
        if (!nd->divergent)
            continue;
        memset(tmp, 0, W * sizeof(uint64_t));
        for (uint32_t j = 0; j < nd->n_succ; j++)
            for (uint32_t w = 0; w < W; w++)
                tmp[w] |= live_in[(size_t)nd->succ[j] * W + w];
        if (nd->reconv != IR_NONE && nd->reconv < n)
            for (uint32_t w = 0; w < W; w++)
                tmp[w] |= live_in[(size_t)nd->reconv * W + w];
        memset(seen, 0, n);
        uint32_t sp = 0;
        for (uint32_t j = 0; j < nd->n_succ; j++)
            stack[sp++] = nd->succ[j];
        while (sp) {
            uint32_t s = stack[--sp];
            if (s >= n || s == nd->reconv || seen[s])
                continue;
            seen[s] = 1;
            for (uint32_t w = 0; w < W; w++)
                r->live_out[(size_t)s * W + w] |= tmp[w];
            for (uint32_t j = 0; j < nodes[s].n_succ; j++)
                stack[sp++] = nodes[s].succ[j];
        }
    }
    g_free(seen);
    g_free(stack);
    g_free(tmp);
    g_free(live_in);
}

greener_result *greener_analyze(const greener_node *nodes, uint32_t n, uint32_t n_keys, unsigned W)
{
    g_assert(W >= 1 && W <= GREENER_MAX_W);
    greener_result *r = g_new0(greener_result, 1);
    r->n = n;
    r->n_keys = n_keys;
    r->W = W;
    r->words = (n_keys + 63) / 64;
    r->dist_out = g_malloc0((size_t)n * n_keys + 1);
    r->live_out = g_malloc0((size_t)n * r->words * sizeof(uint64_t) + 8);
    solve_dist(nodes, r);
    solve_live(nodes, r);
    return r;
}

void greener_result_free(greener_result *r)
{
    if (!r)
        return;
    g_free(r->dist_out);
    g_free(r->live_out);
    g_free(r);
}

bool greener_dist_inf(const greener_result *r, uint32_t node, uint32_t key)
{
    uint8_t d = r->dist_out[(size_t)node * r->n_keys + key];
    return d == 0 || d > r->W;
}

bool greener_live_out(const greener_result *r, uint32_t node, uint32_t key)
{
    return bit_get(&r->live_out[(size_t)node * r->words], key);
}

greener_state greener_power(const greener_result *r, const greener_node *nodes, uint32_t node, uint32_t key)
{
    greener_state s = greener_table(greener_live_out(r, node, key), greener_dist_inf(r, node, key));
    return s == GREENER_OFF && nodes[node].no_off ? GREENER_SLEEP : s;
}

/* ---- the pass on allocated IR --------------------------------------------------------------- */

typedef struct {
    const annot_field *on, *dst, *src0, *src1;
} greener_fields;

static greener_fields fields(void)
{
    greener_fields g;
    g.on = annot_register("greener", "on", ANNOT_INSTR, 1, "the greener pass annotated the instruction");
    g.dst = annot_register("greener", "dst", ANNOT_INSTR, 2,
                           "power state of the first register destination after write-back (0 OFF, 1 "
                           "SLEEP, 2 ON, 3 none)");
    g.src0 = annot_register("greener", "src0", ANNOT_INSTR, 2,
                            "power state of the first register source after its read");
    g.src1 = annot_register("greener", "src1", ANNOT_INSTR, 2,
                            "power state of the second register source after its read");
    return g;
}

/* The keys of register `reg` of f: 32-bit units phys.. (GPR) or n_gpr + phys (predicate). */
static unsigned reg_keys(const ir_func *f, uint32_t reg, uint32_t n_gpr, uint32_t *keys)
{
    if (reg == IR_NONE || !f->regs || reg >= f->regs->len)
        return 0;
    const ir_reg *rg = &g_array_index(f->regs, ir_reg, reg);
    if (rg->phys == IR_NONE)
        return 0;
    unsigned units = regalloc_units((ir_type)rg->type);
    if (units == 0) {
        keys[0] = n_gpr + rg->phys;
        return 1;
    }
    for (unsigned u = 0; u < units && u < 4; u++)
        keys[u] = rg->phys + u;
    return MIN(units, 4u);
}

typedef struct {
    uint32_t keys[4];
    unsigned n;
    bool write, encoded_kind; /* a REG operand (encodable); else a vector element or an address */
} opnd_regs;

/* An instruction's register operands in order: destinations, then sources (a memory destination's
 * address counts as a read). */
static unsigned instr_opnds(const ir_func *f, const ir_instr *in, uint32_t n_gpr, opnd_regs *o, unsigned cap)
{
    unsigned n = 0;
    for (int pass = 0; pass < 2; pass++) {
        unsigned cnt = pass == 0 ? in->n_dst : in->n_src;
        for (unsigned j = 0; j < cnt && n < cap; j++) {
            const ir_operand *op = pass == 0 ? &in->dst[j] : &in->src[j];
            switch ((ir_opnd_kind)op->kind) {
            case IR_OPND_REG:
                o[n] = (opnd_regs){{0}, 0, pass == 0, true};
                o[n].n = reg_keys(f, op->u.reg, n_gpr, o[n].keys);
                n += o[n].n > 0;
                break;
            case IR_OPND_MEM:
                o[n] = (opnd_regs){{0}, 0, false, false};
                o[n].n = reg_keys(f, op->u.mem.base_reg, n_gpr, o[n].keys);
                n += o[n].n > 0;
                break;
            case IR_OPND_VEC:
                for (unsigned e = 0; e < op->comp && e < 4 && n < cap; e++) {
                    o[n] = (opnd_regs){{0}, 0, pass == 0, false};
                    o[n].n = reg_keys(f, op->u.vec_regs[e], n_gpr, o[n].keys);
                    n += o[n].n > 0;
                }
                break;
            default:
                break;
            }
        }
    }
    return n;
}

static void add_acc(greener_node *nd, uint32_t key, bool write, bool kill)
{
    for (uint32_t a = 0; a < nd->n_acc; a++)
        if (nd->acc[a].key == key && nd->acc[a].write == write) {
            nd->acc[a].kill &= kill;
            return;
        }
    if (nd->n_acc < GREENER_MAX_ACC)
        nd->acc[nd->n_acc++] = (greener_acc){key, write, kill};
}

void greener_pass(ir_func *f, unsigned W)
{
    greener_fields g = fields();
    if (!f->blocks || f->blocks->len == 0 || !f->analysis)
        cfg_build(f);
    uint32_t n = ir_func_n_instrs(f);
    uint32_t n_gpr = f->n_phys_regs == IR_NONE ? 0 : f->n_phys_regs;
    uint32_t n_pred = f->n_phys_preds == IR_NONE ? 0 : f->n_phys_preds;
    /* Registers above the counts (a pair's odd half at the top): size by what is used. */
    for (guint r = 0; f->regs && r < f->regs->len; r++) {
        const ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
        unsigned u = regalloc_units((ir_type)rg->type);
        if (rg->phys != IR_NONE && u)
            n_gpr = MAX(n_gpr, rg->phys + u);
    }
    for (guint r = 0; f->regs && r < f->regs->len; r++) {
        const ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
        if (rg->phys != IR_NONE && !regalloc_units((ir_type)rg->type))
            n_pred = MAX(n_pred, rg->phys + 1);
    }
    greener_node *nodes = g_new0(greener_node, n + 1);
    opnd_regs ops[24];
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        greener_node *nd = &nodes[i];
        nd->no_off = !f->is_entry;
        bool guarded = in->guard != IR_NONE;
        bool leaves = in->op == IR_OP_RET || in->op == IR_OP_EXIT || in->op == IR_OP_TRAP;
        uint32_t t = cfg_branch_target(in);
        if (leaves) {
            nd->exit = true;
            if (guarded && i + 1 < n)
                nd->succ[nd->n_succ++] = i + 1;
        } else if (in->op == IR_OP_BRA && t != IR_NONE) {
            if (t < n)
                nd->succ[nd->n_succ++] = t;
            else
                nd->exit = true;
            if (guarded) {
                if (i + 1 < n && i + 1 != t)
                    nd->succ[nd->n_succ++] = i + 1;
                else if (i + 1 >= n)
                    nd->exit = true;
            }
            nd->divergent = cfg_branch_is_divergent(in);
            nd->reconv = in->reconv;
        } else if (i + 1 < n) {
            nd->succ[nd->n_succ++] = i + 1;
        } else {
            nd->exit = true; /* falls off the end: the implicit ret */
        }
        uint32_t gk[4];
        if (reg_keys(f, in->guard, n_gpr, gk) == 1)
            add_acc(nd, gk[0], false, false);
        unsigned no = instr_opnds(f, in, n_gpr, ops, G_N_ELEMENTS(ops));
        for (unsigned o = 0; o < no; o++)
            for (unsigned k = 0; k < ops[o].n; k++)
                add_acc(nd, ops[o].keys[k], ops[o].write, !guarded);
    }
    greener_result *r = greener_analyze(nodes, n, n_gpr + n_pred, W);
    for (uint32_t i = 0; i < n; i++) {
        ir_instr *in = ir_func_instr(f, i);
        unsigned no = instr_opnds(f, in, n_gpr, ops, G_N_ELEMENTS(ops));
        greener_state st[3] = {GREENER_NONE, GREENER_NONE, GREENER_NONE}; /* dst, src0, src1 */
        unsigned n_src = 0;
        bool have_dst = false;
        for (unsigned o = 0; o < no; o++) {
            if (!ops[o].encoded_kind)
                continue;
            int slot = -1;
            if (ops[o].write && !have_dst) {
                slot = 0;
                have_dst = true;
            } else if (!ops[o].write && n_src < 2) {
                slot = 1 + (int)n_src++;
            }
            if (slot < 0)
                continue;
            greener_state s = GREENER_OFF;
            for (unsigned k = 0; k < ops[o].n; k++)
                s = MAX(s, greener_power(r, nodes, i, ops[o].keys[k]));
            st[slot] = s;
        }
        annot_set_instr(in, g.on, 1);
        annot_set_instr(in, g.dst, st[0]);
        annot_set_instr(in, g.src0, st[1]);
        annot_set_instr(in, g.src1, st[2]);
    }
    greener_result_free(r);
    g_free(nodes);
}

bool greener_encoded(const ir_instr *in, greener_state *dst, greener_state *src0, greener_state *src1)
{
    greener_fields g = fields();
    if (!annot_get_instr(in, g.on)) {
        *dst = *src0 = *src1 = GREENER_NONE;
        return false;
    }
    *dst = (greener_state)annot_get_instr(in, g.dst);
    *src0 = (greener_state)annot_get_instr(in, g.src0);
    *src1 = (greener_state)annot_get_instr(in, g.src1);
    return true;
}

void greener_print_states(GString *s, const ir_instr *in)
{
    greener_state st[3];
    if (!greener_encoded(in, &st[0], &st[1], &st[2]))
        return;
    bool first = true;
    for (unsigned i = 0; i < 3; i++)
        if (st[i] != GREENER_NONE) {
            g_string_append_printf(s, "%s%s", first ? "  // power " : ", ", greener_state_name(st[i]));
            first = false;
        }
}

static void hw_add(greener_reg *out, unsigned *n, unsigned cap, uint32_t phys, bool write, greener_state s)
{
    for (unsigned i = 0; i < *n; i++)
        if (out[i].phys == phys) {
            uint8_t *f = write ? &out[i].after_write : &out[i].after_read;
            if (*f == GREENER_NONE || (s != GREENER_NONE && s > *f))
                *f = (uint8_t)s; /* the more awake of two accesses */
            return;
        }
    if (*n < cap)
        out[(*n)++] =
            (greener_reg){phys, write ? GREENER_NONE : (uint8_t)s, write ? (uint8_t)s : GREENER_NONE};
}

unsigned greener_instr_regs(const ir_func *f, const ir_instr *in, bool all_sleep, greener_reg *out,
                            unsigned cap)
{
    greener_state enc[3] = {GREENER_SLEEP, GREENER_SLEEP, GREENER_SLEEP};
    bool annotated = !all_sleep && greener_encoded(in, &enc[0], &enc[1], &enc[2]);
    opnd_regs ops[24];
    unsigned no = instr_opnds(f, in, UINT32_MAX / 2, ops, G_N_ELEMENTS(ops));
    unsigned n = 0, n_src = 0;
    bool have_dst = false;
    for (unsigned o = 0; o < no; o++) {
        greener_state s = GREENER_SLEEP; /* Sleep-Reg, or a register not encoded */
        if (!all_sleep && !annotated) {
            s = GREENER_ON; /* the pass did not run on it: stays ON */
        } else if (!all_sleep && ops[o].encoded_kind) {
            if (ops[o].write && !have_dst) {
                s = enc[0];
                have_dst = true;
            } else if (!ops[o].write && n_src < 2) {
                s = enc[1 + n_src++];
            }
        }
        if (s == GREENER_NONE)
            s = GREENER_SLEEP;
        for (unsigned k = 0; k < ops[o].n; k++)
            if (ops[o].keys[k] < UINT32_MAX / 2) /* a 32-bit register, not a predicate */
                hw_add(out, &n, cap, ops[o].keys[k], ops[o].write, s);
    }
    return n;
}
