/* annot.c — the annotation field registry, accessors, printer, and the lastuse and reconv passes. */
#include "kernels/analysis/annot.h"

#include "kernels/analysis/cfg.h"
#include "kernels/analysis/dataflow.h"

#include <string.h>

/* The registry (the only mutable global: registries are allowed). */
G_LOCK_DEFINE_STATIC(registry);
static GPtrArray *fields;                 /* annot_field* */
static unsigned next_bit[2];              /* per level */

static const annot_field *find_locked(const char *pass, const char *name)
{
    for (guint i = 0; fields && i < fields->len; i++) {
        const annot_field *fl = g_ptr_array_index(fields, i);
        if (strcmp(fl->pass, pass) == 0 && strcmp(fl->name, name) == 0)
            return fl;
    }
    return NULL;
}

const annot_field *annot_register(const char *pass, const char *name, annot_level level, unsigned width,
                                  const char *blurb)
{
    g_assert(width > 0 && width <= (level == ANNOT_INSTR ? ANNOT_INSTR_BITS : ANNOT_OPERAND_BITS));
    G_LOCK(registry);
    const annot_field *old = find_locked(pass, name);
    if (old) {
        g_assert(old->level == level && old->width == width);
        G_UNLOCK(registry);
        return old;
    }
    unsigned limit = level == ANNOT_INSTR ? ANNOT_INSTR_BITS : ANNOT_OPERAND_BITS;
    if (next_bit[level] + width > limit) {
        G_UNLOCK(registry);
        return NULL;
    }
    if (!fields)
        fields = g_ptr_array_new();
    annot_field *fl = g_new0(annot_field, 1);
    fl->pass = g_strdup(pass);
    fl->name = g_strdup(name);
    fl->level = level;
    fl->offset = next_bit[level];
    fl->width = width;
    fl->blurb = g_strdup(blurb ? blurb : "");
    next_bit[level] += width;
    g_ptr_array_add(fields, fl);
    G_UNLOCK(registry);
    return fl;
}

const annot_field *annot_find(const char *pass, const char *name)
{
    G_LOCK(registry);
    const annot_field *fl = find_locked(pass, name);
    G_UNLOCK(registry);
    return fl;
}

unsigned annot_count(void)
{
    G_LOCK(registry);
    unsigned n = fields ? fields->len : 0;
    G_UNLOCK(registry);
    return n;
}

const annot_field *annot_get(unsigned i)
{
    G_LOCK(registry);
    const annot_field *fl = fields && i < fields->len ? g_ptr_array_index(fields, i) : NULL;
    G_UNLOCK(registry);
    return fl;
}

static uint64_t mask_of(unsigned width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

uint64_t annot_get_instr(const ir_instr *in, const annot_field *fl)
{
    g_assert(fl->level == ANNOT_INSTR);
    return (in->annot >> fl->offset) & mask_of(fl->width);
}

void annot_set_instr(ir_instr *in, const annot_field *fl, uint64_t v)
{
    g_assert(fl->level == ANNOT_INSTR);
    uint64_t m = mask_of(fl->width) << fl->offset;
    in->annot = (in->annot & ~m) | ((v << fl->offset) & m);
}

uint32_t annot_get_operand(const ir_operand *o, const annot_field *fl)
{
    g_assert(fl->level == ANNOT_OPERAND);
    return (uint32_t)((o->annot >> fl->offset) & mask_of(fl->width));
}

void annot_set_operand(ir_operand *o, const annot_field *fl, uint32_t v)
{
    g_assert(fl->level == ANNOT_OPERAND);
    uint32_t m = (uint32_t)(mask_of(fl->width) << fl->offset);
    o->annot = (o->annot & ~m) | ((uint32_t)((uint64_t)v << fl->offset) & m);
}

void annot_clear_pass(ir_func *f, const char *pass)
{
    for (unsigned k = 0; k < annot_count(); k++) {
        const annot_field *fl = annot_get(k);
        if (strcmp(fl->pass, pass) != 0)
            continue;
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            ir_instr *in = ir_func_instr(f, i);
            if (fl->level == ANNOT_INSTR) {
                annot_set_instr(in, fl, 0);
                continue;
            }
            for (unsigned d = 0; d < IR_MAX_DST; d++)
                annot_set_operand(&in->dst[d], fl, 0);
            for (unsigned s = 0; s < IR_MAX_SRC; s++)
                annot_set_operand(&in->src[s], fl, 0);
        }
    }
}

void annot_print_instr(GString *s, const ir_instr *in, const char *pass)
{
    bool any = false;
    for (unsigned k = 0; k < annot_count(); k++) {
        const annot_field *fl = annot_get(k);
        if (pass && strcmp(fl->pass, pass) != 0)
            continue;
        if (fl->level == ANNOT_INSTR) {
            uint64_t v = annot_get_instr(in, fl);
            if (v) {
                g_string_append_printf(s, "%s%s.%s=%" G_GUINT64_FORMAT, any ? ", " : " {", fl->pass, fl->name, v);
                any = true;
            }
            continue;
        }
        for (unsigned d = 0; d < in->n_dst && d < IR_MAX_DST; d++) {
            uint32_t v = annot_get_operand(&in->dst[d], fl);
            if (v) {
                g_string_append_printf(s, "%s%s.%s[dst%u]=%u", any ? ", " : " {", fl->pass, fl->name, d, v);
                any = true;
            }
        }
        for (unsigned i = 0; i < in->n_src && i < IR_MAX_SRC; i++) {
            uint32_t v = annot_get_operand(&in->src[i], fl);
            if (v) {
                g_string_append_printf(s, "%s%s.%s[src%u]=%u", any ? ", " : " {", fl->pass, fl->name, i, v);
                any = true;
            }
        }
    }
    if (any)
        g_string_append_c(s, '}');
}

/* ---- lastuse ------------------------------------------------------------------------------------ */

#define MAX_OPND_REGS 32

/* The registers an operand reads, in order (a register, a memory base, vector elements). */
static unsigned operand_regs(const ir_operand *o, uint32_t out[4])
{
    unsigned n = 0;
    if (o->kind == IR_OPND_REG)
        out[n++] = o->u.reg;
    else if (o->kind == IR_OPND_MEM && o->u.mem.base_reg != IR_NONE)
        out[n++] = o->u.mem.base_reg;
    else if (o->kind == IR_OPND_VEC)
        for (unsigned e = 0; e < o->comp && e < 4; e++)
            out[n++] = o->u.vec_regs[e];
    return n;
}

void annot_pass_lastuse(ir_func *f)
{
    const annot_field *last = annot_register("lastuse", "last", ANNOT_OPERAND, 4,
                                             "bit e: the operand's e-th register is read for the last time");
    const annot_field *guard = annot_register("lastuse", "guard", ANNOT_INSTR, 1,
                                              "the guard predicate is read for the last time");
    g_assert(last && guard);
    annot_clear_pass(f, "lastuse");
    df_liveness *l = df_liveness_compute(f);
    df_bits **after = df_live_after_all(l);
    uint32_t defs[MAX_OPND_REGS];
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        unsigned nd = ir_instr_defs(in, defs, MAX_OPND_REGS);
        /* Last read: dead after the instruction and not rewritten by it. */
        for (unsigned k = 0; k < in->n_src && k < IR_MAX_SRC; k++) {
            uint32_t regs[4], bits = 0;
            unsigned n = operand_regs(&in->src[k], regs);
            for (unsigned e = 0; e < n; e++) {
                uint32_t r = regs[e];
                bool w = false;
                for (unsigned d = 0; d < nd; d++)
                    w |= defs[d] == r;
                if (r != IR_NONE && !df_bits_test(after[i], r) && !w)
                    bits |= 1u << e;
            }
            annot_set_operand(&in->src[k], last, bits);
        }
        if (in->guard != IR_NONE) {
            bool w = false;
            for (unsigned d = 0; d < nd; d++)
                w |= defs[d] == in->guard;
            annot_set_instr(in, guard, !df_bits_test(after[i], in->guard) && !w);
        }
    }
    df_live_after_all_free(l, after);
    df_liveness_free(l);
}

/* ---- reconv ------------------------------------------------------------------------------------- */

void annot_pass_reconv(ir_func *f)
{
    const annot_field *div = annot_register("reconv", "div", ANNOT_INSTR, 1,
                                            "a potentially divergent branch (guarded, not .uni)");
    const annot_field *pt = annot_register("reconv", "point", ANNOT_INSTR, 1,
                                           "the reconvergence point of some divergent branch");
    g_assert(div && pt);
    annot_clear_pass(f, "reconv");
    cfg_compute_reconvergence(f);
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (!cfg_branch_is_divergent(in))
            continue;
        annot_set_instr(in, div, 1);
        if (in->reconv != IR_NONE)
            annot_set_instr(ir_func_instr(f, in->reconv), pt, 1);
    }
}

/* ---- divergence ------------------------------------------------------------------------------------ */

void annot_pass_divergence(ir_func *f)
{
    const annot_field *uni = annot_register("divergence", "uniform", ANNOT_INSTR, 1,
                                            "a guarded branch proven uniform (all lanes of a warp agree)");
    const annot_field *div = annot_register("divergence", "divergent", ANNOT_OPERAND, 4,
                                            "bit e: the operand's e-th register may differ between lanes");
    g_assert(uni && div);
    annot_clear_pass(f, "divergence");
    df_divergence *d = df_divergence_compute(f);
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (in->op == IR_OP_BRA && in->guard != IR_NONE && !d->branch[i])
            annot_set_instr(in, uni, 1);
        for (unsigned k = 0; k < in->n_src && k < IR_MAX_SRC; k++) {
            uint32_t regs[4], bits = 0;
            unsigned n = operand_regs(&in->src[k], regs);
            for (unsigned e = 0; e < n; e++)
                if (regs[e] != IR_NONE && df_bits_test(d->regs, regs[e]))
                    bits |= 1u << e;
            annot_set_operand(&in->src[k], div, bits);
        }
    }
    df_divergence_free(d);
}

static const char *const pass_names[] = { "lastuse", "reconv", "divergence", NULL };

const char *const *annot_pass_names(void)
{
    return pass_names;
}

bool annot_pass_run(const char *name, ir_func *f)
{
    if (strcmp(name, "lastuse") == 0)
        annot_pass_lastuse(f);
    else if (strcmp(name, "reconv") == 0)
        annot_pass_reconv(f);
    else if (strcmp(name, "divergence") == 0)
        annot_pass_divergence(f);
    else
        return false;
    return true;
}
