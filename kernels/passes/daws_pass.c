/* daws_pass.c — see daws_pass.h. */
#include "kernels/passes/daws_pass.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/analysis/cfg.h"

static bool is_daws_load(const ir_instr *in)
{
    return (in->op == IR_OP_LD || in->op == IR_OP_LDU) &&
           (in->space == IR_SPACE_GLOBAL || in->space == IR_SPACE_LOCAL || in->space == IR_SPACE_NONE);
}

static const ir_operand *mem_operand(const ir_instr *in)
{
    for (unsigned i = 0; i < in->n_src; i++)
        if (in->src[i].kind == IR_OPND_MEM)
            return &in->src[i];
    return NULL;
}

static void build_func(ir_func *fn, daws_func *df, unsigned line)
{
    uint32_t n = fn->instrs->len;
    df->n_instrs = n;
    df->loops = g_array_new(FALSE, FALSE, sizeof(daws_loop));
    df->loads = g_array_new(FALSE, FALSE, sizeof(daws_load));
    df->begin_of = g_new(uint32_t, n + 1);
    df->loop_at = g_new(uint32_t, n + 1);
    df->next = g_new(uint32_t, n + 1);
    for (uint32_t pc = 0; pc <= n; pc++)
        df->begin_of[pc] = df->loop_at[pc] = df->next[pc] = IR_NONE;
    if (!fn->is_defined || n == 0)
        return;
    if (!fn->analysis)
        cfg_build(fn); /* (a parsed module: no CFG yet) */
    uint32_t nl = cfg_n_loops(fn);
    for (uint32_t i = 0; i < nl; i++) { /* outer before inner */
        const cfg_loop *cl = cfg_get_loop(fn, i);
        daws_loop d = {UINT32_MAX, 0, cl->parent, i};
        for (unsigned k = 0; k < cl->blocks->len; k++) {
            const ir_block *b = &g_array_index(fn->blocks, ir_block, g_array_index(cl->blocks, uint32_t, k));
            d.begin = MIN(d.begin, b->first);
            d.end = MAX(d.end, b->last);
        }
        if (d.parent != IR_NONE)
            d.outer = g_array_index(df->loops, daws_loop, d.parent).outer;
        g_array_append_val(df->loops, d);
        for (uint32_t pc = d.begin; pc <= d.end && pc < n; pc++)
            df->loop_at[pc] = i; /* (inner loops come later and override) */
        df->begin_of[d.begin] = i;
    }
    /* the next loop in program order: the first begin after pc (the outermost loop beginning there) */
    uint32_t nx = IR_NONE;
    for (uint32_t pc = n + 1; pc-- > 0;) {
        df->next[pc] = nx;
        for (uint32_t i = 0; i < nl; i++)
            if (g_array_index(df->loops, daws_loop, i).begin == pc) {
                nx = i;
                break;
            }
    }
    /* loads inside loops, and their repetition groups */
    for (uint32_t pc = 0; pc < n; pc++) {
        const ir_instr *in = &g_array_index(fn->instrs, ir_instr, pc);
        if (!is_daws_load(in) || df->loop_at[pc] == IR_NONE)
            continue;
        const ir_operand *m = mem_operand(in);
        daws_load ld = {pc, df->loop_at[pc], m ? m->u.mem.base_reg : IR_NONE, m ? m->u.mem.offset : 0, 0};
        if (m && m->u.mem.base_reg == IR_NONE && m->u.mem.base_sym != IR_NONE)
            ld.base_reg = IR_NONE - 1 - m->u.mem.base_sym; /* a symbol base: its own key */
        g_array_append_val(df->loads, ld);
    }
    /* repetition groups: per loop and base register, by displacement: a group spans less than a line
     * (sorted by displacement, a load starts a new group when it is a line or more past the group's
     * first) */
    unsigned nd = df->loads->len;
    uint32_t next_rep = 1;
    for (unsigned i = 0; i < nd; i++) {
        daws_load *a = &g_array_index(df->loads, daws_load, i);
        if (a->rep)
            continue;
        if (a->base_reg == IR_NONE) {
            a->rep = next_rep++;
            continue;
        }
        /* every load of this loop and base, in displacement order (ties: pc order) */
        GArray *same = g_array_new(FALSE, FALSE, sizeof(unsigned));
        for (unsigned j = i; j < nd; j++) {
            const daws_load *b = &g_array_index(df->loads, daws_load, j);
            if (b->loop == a->loop && b->base_reg == a->base_reg)
                g_array_append_val(same, j);
        }
        for (unsigned x = 1; x < same->len; x++)
            for (unsigned y = x; y > 0; y--) {
                unsigned *p = &g_array_index(same, unsigned, y - 1), *q = &g_array_index(same, unsigned, y);
                if (g_array_index(df->loads, daws_load, *p).offset <=
                    g_array_index(df->loads, daws_load, *q).offset)
                    break;
                unsigned t = *p;
                *p = *q, *q = t;
            }
        int64_t first = 0;
        uint32_t rep = 0;
        for (unsigned x = 0; x < same->len; x++) {
            daws_load *b = &g_array_index(df->loads, daws_load, g_array_index(same, unsigned, x));
            if (!rep || b->offset - first >= (int64_t)line) {
                rep = next_rep++;
                first = b->offset;
            }
            b->rep = rep;
        }
        g_array_free(same, TRUE);
    }
    /* RepIDs in the order of their first load's pc */
    uint32_t *renum = g_new0(uint32_t, next_rep);
    uint32_t k = 1;
    for (unsigned i = 0; i < nd; i++) {
        daws_load *a = &g_array_index(df->loads, daws_load, i);
        if (!renum[a->rep])
            renum[a->rep] = k++;
        a->rep = renum[a->rep];
    }
    g_free(renum);
}

daws_loops *daws_loops_build(ir_module *m, unsigned line)
{
    daws_loops *l = g_new0(daws_loops, 1);
    l->n_funcs = m->funcs->len;
    l->f = g_new0(daws_func, l->n_funcs);
    for (unsigned i = 0; i < l->n_funcs; i++)
        build_func(g_ptr_array_index(m->funcs, i), &l->f[i], line ? line : 128);
    return l;
}

void daws_loops_free(daws_loops *l)
{
    if (!l)
        return;
    for (unsigned i = 0; i < l->n_funcs; i++) {
        g_array_free(l->f[i].loops, TRUE);
        g_array_free(l->f[i].loads, TRUE);
        g_free(l->f[i].begin_of);
        g_free(l->f[i].loop_at);
        g_free(l->f[i].next);
    }
    g_free(l->f);
    g_free(l);
}

daws_profile *daws_profile_new(const daws_loops *l)
{
    daws_profile *p = g_new0(daws_profile, 1);
    p->n_funcs = l->n_funcs;
    p->n_instrs = g_new0(uint32_t, p->n_funcs);
    p->pc = g_new0(daws_pc_prof *, p->n_funcs);
    for (unsigned i = 0; i < p->n_funcs; i++) {
        p->n_instrs[i] = l->f[i].n_instrs;
        p->pc[i] = g_new0(daws_pc_prof, l->f[i].n_instrs + 1);
    }
    return p;
}

void daws_profile_free(daws_profile *p)
{
    if (!p)
        return;
    for (unsigned i = 0; i < p->n_funcs; i++)
        g_free(p->pc[i]);
    g_free(p->pc);
    g_free(p->n_instrs);
    g_free(p);
}

void daws_profile_write(const daws_profile *p, FILE *out)
{
    fprintf(out, "# gpusc DAWS load profile: load FUNC PC EXECS DIV_EXECS LINES REUSED\n");
    for (unsigned f = 0; f < p->n_funcs; f++)
        for (uint32_t pc = 0; pc < p->n_instrs[f]; pc++) {
            const daws_pc_prof *q = &p->pc[f][pc];
            if (q->execs || q->lines)
                fprintf(out,
                        "load %u %u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                        " %" G_GUINT64_FORMAT "\n",
                        f, pc, q->execs, q->div_execs, q->lines, q->reused);
        }
}

bool daws_profile_read(daws_profile *p, const char *text, GString *err)
{
    char **lines = g_strsplit(text, "\n", -1);
    bool ok = true;
    for (unsigned i = 0; lines[i] && ok; i++) {
        const char *s = g_strstrip(lines[i]);
        if (!*s || *s == '#')
            continue;
        unsigned f, pc;
        guint64 e, d, n, r;
        int used = 0;
        if (sscanf(s,
                   "load %u %u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                   " %" G_GUINT64_FORMAT "%n",
                   &f, &pc, &e, &d, &n, &r, &used) != 6 ||
            s[used]) {
            g_string_printf(err, "line %u: expected 'load FUNC PC EXECS DIV_EXECS LINES REUSED'", i + 1);
            ok = false;
        } else if (f >= p->n_funcs || pc >= p->n_instrs[f] || d > e || r > n) {
            g_string_printf(err, "line %u: function %u, pc %u: not in the program, or counts out of range",
                            i + 1, f, pc);
            ok = false;
        } else {
            daws_pc_prof *q = &p->pc[f][pc];
            q->execs += e, q->div_execs += d, q->lines += n, q->reused += r;
        }
    }
    g_strfreev(lines);
    return ok;
}

/* Does loop (or a loop inside it) count as having locality. */
static bool loop_has_locality(const daws_func *df, const daws_pc_prof *prof, uint32_t loop,
                              unsigned loc_permille)
{
    uint64_t lines = 0, reused = 0;
    for (unsigned i = 0; i < df->loads->len; i++) {
        const daws_load *ld = &g_array_index(df->loads, daws_load, i);
        for (uint32_t k = ld->loop; k != IR_NONE; k = g_array_index(df->loops, daws_loop, k).parent)
            if (k == loop) {
                lines += prof[ld->pc].lines;
                reused += prof[ld->pc].reused;
                break;
            }
    }
    return lines > 0 && reused * 1000 >= (uint64_t)loc_permille * lines;
}

unsigned daws_classify(const daws_loops *l, const daws_profile *p, unsigned div_permille,
                       unsigned loc_permille, daws_slct_entry *out, unsigned max, unsigned *n_found)
{
    unsigned n = 0, found = 0;
    for (unsigned f = 0; f < l->n_funcs && f < p->n_funcs; f++) {
        const daws_func *df = &l->f[f];
        for (unsigned i = 0; i < df->loads->len; i++) {
            const daws_load *ld = &g_array_index(df->loads, daws_load, i);
            if (!loop_has_locality(df, p->pc[f], ld->loop, loc_permille))
                continue;
            const daws_pc_prof *q = &p->pc[f][ld->pc];
            daws_slct_entry e = {f, g_array_index(df->loops, daws_loop, ld->loop).begin,
                                 q->div_execs * 1000 > (uint64_t)div_permille * q->execs, ld->rep, ld->pc};
            found++;
            if (n < max)
                out[n++] = e;
        }
    }
    if (n_found)
        *n_found = found;
    return n;
}
