/* test_regalloc_frun.c — the rewrites of the analysis passes preserve what kernels compute: every
 * workload is run on the functional runner (tiny size) after rematerialization + allocation
 * (regalloc_module), with the physical registers the allocator chose as storage, the same with at
 * most 8 registers per thread (spilling to local memory, regalloc_module_limit), after critical-edge
 * splitting, with every register overwritten right after its last use (lastuse), and with every
 * register the divergence analysis calls uniform replaced by one lane's value, and checked against
 * its CPU reference. */
#include "kernels/analysis/annot.h"
#include "kernels/analysis/cfg.h"
#include "kernels/run/frun.h"
#include "kernels/frontend/ptx_parse.h"
#include "kernels/analysis/regalloc.h"
#include "kernels/workloads/workload.h"

#include "kernels/analysis/dataflow.h"

typedef enum {
    REWRITE_NONE,
    REWRITE_REGALLOC,
    REWRITE_PHYS,
    REWRITE_SPILL,
    REWRITE_SPLIT,
    REWRITE_POISON,
    REWRITE_UNIFORM
} rewrite;
static const char *const rewrite_names[] = {
    "none",  "regalloc",       "physical registers", "spilled to 8 registers",
    "split", "lastuse poison", "uniform broadcast"};

/* The register limit of REWRITE_SPILL: below every workload's own count but the smallest ones. */
#define SPILL_MAX 8

/* Check the divergence analysis by execution: right after every definition of a 32-bit register the
 * analysis calls uniform, replace its value in every active lane by the value of the highest active
 * lane (activemask; bfind; shfl.sync.idx). A truly uniform value does not change; a divergent one
 * would (and the results would differ from the reference). The three instructions come from parsing
 * a template, so they are built exactly as the parser builds them. */
static void broadcast_uniform(ir_func *f)
{
    static const char *tmpl = ".version 9.0\n.target sm_75\n.address_size 64\n"
                              ".visible .entry t()\n{\n\t.reg .b32 %r<3>;\n\tactivemask.b32 %r0;\n"
                              "\tbfind.u32 %r1, %r0;\n\tshfl.sync.idx.b32 %r2, %r2, %r1, 31, %r0;\n\tret;\n}\n";
    GError *err = NULL;
    ir_module *tm = ptx_parse_string(tmpl, -1, "template.ptx", &err);
    g_assert_no_error(err);
    const ir_func *tf = g_ptr_array_index(tm->funcs, 0);
    df_divergence *d = df_divergence_compute(f);
    ir_reg mr = { .name = g_strdup("%umask"), .type = IR_T_B32, .phys = IR_NONE };
    ir_reg lr = { .name = g_strdup("%ulane"), .type = IR_T_B32, .phys = IR_NONE };
    g_array_append_val(f->regs, mr);
    g_array_append_val(f->regs, lr);
    uint32_t m = f->regs->len - 2, l = f->regs->len - 1;
    uint32_t n = ir_func_n_instrs(f);
    GArray *out = g_array_new(FALSE, TRUE, sizeof(ir_instr));
    uint32_t *new_index = g_new(uint32_t, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        ir_instr in = *ir_func_instr(f, i);
        new_index[i] = out->len;
        g_array_append_val(out, in);
        if (in.op == IR_OP_BRA || in.op == IR_OP_RET || in.op == IR_OP_EXIT || in.op == IR_OP_TRAP)
            continue;
        uint32_t defs[8];
        unsigned nd = ir_instr_defs(&in, defs, 8);
        for (unsigned k = 0; k < nd; k++) {
            uint32_t r = defs[k];
            ir_type t = (ir_type)g_array_index(f->regs, ir_reg, r).type;
            if (df_bits_test(d->regs, r) || regalloc_units(t) != 1 || ir_type_bits(t) != 32)
                continue;
            uint32_t map[3] = { m, l, r };
            for (uint32_t j = 0; j < 3; j++) {
                ir_instr c = *ir_func_instr(tf, j);
                if (c.guard != IR_NONE)
                    c.guard = map[c.guard];
                for (unsigned q = 0; q < c.n_dst; q++)
                    if (c.dst[q].kind == IR_OPND_REG)
                        c.dst[q].u.reg = map[c.dst[q].u.reg];
                for (unsigned q = 0; q < c.n_src; q++)
                    if (c.src[q].kind == IR_OPND_REG)
                        c.src[q].u.reg = map[c.src[q].u.reg];
                c.block = c.reconv = IR_NONE;
                c.line = in.line;
                g_array_append_val(out, c);
            }
        }
    }
    new_index[n] = out->len;
    for (guint i = 0; i < out->len; i++) {
        ir_instr *in = &g_array_index(out, ir_instr, i);
        for (unsigned k = 0; k < in->n_src; k++)
            if (in->src[k].kind == IR_OPND_LABEL)
                in->src[k].u.target = new_index[MIN(in->src[k].u.target, n)];
    }
    if (f->scopes)
        for (guint sc = 0; sc < f->scopes->len; sc++) {
            ir_lexscope *ls = &g_array_index(f->scopes, ir_lexscope, sc);
            ls->first = new_index[MIN(ls->first, n)];
            ls->end = new_index[MIN(ls->end, n)];
        }
    g_array_free(f->instrs, TRUE);
    f->instrs = out;
    g_free(new_index);
    df_divergence_free(d);
    ir_module_free(tm);
    cfg_build(f);
    cfg_compute_reconvergence(f);
}

/* Check liveness and the lastuse annotation by execution: after every instruction that reads a
 * register for the last time (lastuse.last), overwrite that register with garbage. Dead after the
 * instruction means no path reads it before writing it again, so the kernel's results must not
 * change. (Unguarded: a register dead after a guarded instruction is dead in every lane.) */
static void poison_last_uses(ir_func *f)
{
    annot_pass_lastuse(f);
    const annot_field *last = annot_find("lastuse", "last");
    uint32_t n = ir_func_n_instrs(f);
    GArray *out = g_array_new(FALSE, TRUE, sizeof(ir_instr));
    uint32_t *new_index = g_new(uint32_t, n + 1);
    for (uint32_t i = 0; i < n; i++) {
        ir_instr in = *ir_func_instr(f, i);
        new_index[i] = out->len;
        g_array_append_val(out, in);
        if (in.op == IR_OP_BRA || in.op == IR_OP_RET || in.op == IR_OP_EXIT || in.op == IR_OP_TRAP)
            continue; /* nothing runs after a terminator in its block */
        for (unsigned k = 0; k < in.n_src; k++) {
            uint32_t bits = annot_get_operand(&in.src[k], last), regs[4], nr = 0;
            const ir_operand *o = &in.src[k];
            if (o->kind == IR_OPND_REG)
                regs[nr++] = o->u.reg;
            else if (o->kind == IR_OPND_MEM)
                regs[nr++] = o->u.mem.base_reg;
            else if (o->kind == IR_OPND_VEC)
                for (unsigned e = 0; e < o->comp && e < 4; e++)
                    regs[nr++] = o->u.vec_regs[e];
            for (unsigned e = 0; e < nr; e++) {
                if (!(bits & (1u << e)) || regs[e] == IR_NONE)
                    continue;
                ir_type t = (ir_type)g_array_index(f->regs, ir_reg, regs[e]).type;
                if (t == IR_T_PRED)
                    continue;
                ir_instr p;
                memset(&p, 0, sizeof p);
                p.op = IR_OP_MOV;
                p.type = t;
                p.vec = 1;
                p.guard = IR_NONE;
                p.block = p.reconv = IR_NONE;
                p.n_dst = p.n_src = 1;
                p.dst[0].kind = IR_OPND_REG;
                p.dst[0].u.reg = regs[e];
                p.src[0].kind = IR_OPND_IMM;
                p.src[0].u.imm = regalloc_units(t) == 2 ? 0xdeadbeefdeadbeefull : ir_type_bits(t) >= 32 ? 0xdeadbeefull : 0xbeefull & ((1ull << ir_type_bits(t)) - 1);
                p.line = in.line;
                g_array_append_val(out, p);
            }
        }
    }
    new_index[n] = out->len;
    for (guint i = 0; i < out->len; i++) {
        ir_instr *in = &g_array_index(out, ir_instr, i);
        for (unsigned k = 0; k < in->n_src; k++)
            if (in->src[k].kind == IR_OPND_LABEL)
                in->src[k].u.target = new_index[MIN(in->src[k].u.target, n)];
    }
    if (f->scopes)
        for (guint sc = 0; sc < f->scopes->len; sc++) {
            ir_lexscope *l = &g_array_index(f->scopes, ir_lexscope, sc);
            l->first = new_index[MIN(l->first, n)];
            l->end = new_index[MIN(l->end, n)];
        }
    g_array_free(f->instrs, TRUE);
    f->instrs = out;
    g_free(new_index);
    cfg_build(f);
    cfg_compute_reconvergence(f);
}

/* Execute the allocation itself: every virtual register is replaced by one register per physical
 * location (file, width, number), so values that the allocator put in the same place really share
 * storage, and a wrong sharing corrupts the result. (A 64-bit location and a 32-bit one overlapping
 * it stay distinct storage here; regalloc_check covers that case.) */
static void rename_to_physical(ir_func *f)
{
    GHashTable *loc = g_hash_table_new(g_direct_hash, g_direct_equal);
    uint32_t n = f->regs->len, *map = g_new(uint32_t, n + 1);
    for (uint32_t r = 0; r < n; r++) {
        ir_reg *rg = &g_array_index(f->regs, ir_reg, r);
        map[r] = r;
        if (rg->phys == IR_NONE)
            continue;
        unsigned w = regalloc_units((ir_type)rg->type);
        guint key = (rg->phys << 4) | (w << 1) | (w == 0);
        gpointer v;
        if (g_hash_table_lookup_extended(loc, GUINT_TO_POINTER(key), NULL, &v)) {
            map[r] = GPOINTER_TO_UINT(v);
        } else {
            g_hash_table_insert(loc, GUINT_TO_POINTER(key), GUINT_TO_POINTER(r));
        }
    }
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        ir_instr *in = ir_func_instr(f, i);
        if (in->guard != IR_NONE)
            in->guard = map[in->guard];
        for (unsigned k = 0; k < IR_MAX_DST + IR_MAX_SRC; k++) {
            ir_operand *o = k < IR_MAX_DST ? &in->dst[k] : &in->src[k - IR_MAX_DST];
            if (k < IR_MAX_DST ? k >= in->n_dst : k - IR_MAX_DST >= in->n_src)
                continue;
            if (o->kind == IR_OPND_REG)
                o->u.reg = map[o->u.reg];
            else if (o->kind == IR_OPND_MEM && o->u.mem.base_reg != IR_NONE)
                o->u.mem.base_reg = map[o->u.mem.base_reg];
            else if (o->kind == IR_OPND_VEC)
                for (unsigned e = 0; e < o->comp && e < 4; e++)
                    if (o->u.vec_regs[e] != IR_NONE)
                        o->u.vec_regs[e] = map[o->u.vec_regs[e]];
        }
    }
    g_free(map);
    g_hash_table_destroy(loc);
}

static int run_workload(const workload *w, rewrite rw, GString *err)
{
    const char *src = g_getenv("top_srcdir");
    char *path = g_build_filename(src ? src : ".", "kernels", "ptx", w->ptx, NULL);
    GError *gerr = NULL;
    ir_module *m = ptx_parse_file(path, &gerr);
    g_assert_no_error(gerr);
    g_free(path);
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined)
            continue;
        if (rw == REWRITE_SPLIT)
            cfg_split_critical_edges(f);
        if (rw == REWRITE_POISON)
            poison_last_uses(f);
        if (rw == REWRITE_UNIFORM)
            broadcast_uniform(f);
    }
    if (rw == REWRITE_REGALLOC || rw == REWRITE_PHYS || rw == REWRITE_SPILL) {
        if (rw == REWRITE_SPILL)
            regalloc_module_limit(m, SPILL_MAX, NULL);
        else
            regalloc_module(m, NULL);
        for (guint i = 0; i < m->funcs->len; i++) {
            ir_func *f = g_ptr_array_index(m->funcs, i);
            if (!f->is_defined)
                continue;
            g_assert_true(regalloc_check(f, NULL));
            if (rw == REWRITE_SPILL) {
                g_assert_cmpuint(f->n_phys_regs, <=, SPILL_MAX);
                if (f->is_entry)
                    g_assert_cmpuint(regalloc_entry_regs(m, f, NULL), <=, SPILL_MAX);
            }
            if (rw == REWRITE_PHYS || rw == REWRITE_SPILL)
                rename_to_physical(f);
        }
    }
    wl_device *dev = frun_device_new(m, err);
    g_assert_nonnull(dev);
    int rc = w->run(WL_SIZE_TINY, 1, dev, err);
    frun_device_free(dev);
    ir_module_free(m);
    return rc;
}

static void test_workloads(void)
{
    unsigned checked = 0;
    for (unsigned i = 0; i < workload_count(); i++) {
        const workload *w = workload_get(i);
        GString *err = g_string_new(NULL);
        if (run_workload(w, REWRITE_NONE, err) != 0) {
            /* The runner itself fails here: nothing to compare the rewrites with. */
            g_test_message("%s: fails unmodified (%s), skipped", w->name, err->str);
            g_string_free(err, TRUE);
            continue;
        }
        for (rewrite rw = REWRITE_REGALLOC; rw <= REWRITE_UNIFORM; rw++) {
            g_string_truncate(err, 0);
            int rc = run_workload(w, rw, err);
            if (rc != 0)
                g_test_message("%s after %s: %s", w->name, rewrite_names[rw], err->str);
            g_assert_cmpint(rc, ==, 0);
        }
        g_string_free(err, TRUE);
        checked++;
    }
    g_test_message("%u workloads checked", checked);
    g_assert_cmpuint(checked, >, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/regalloc/frun-workloads", test_workloads);
    return g_test_run();
}
