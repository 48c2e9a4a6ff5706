/* kload.c — module layout for execution (see kload.h). */
#include "kernels/run/kload.h"

#include "kernels/analysis/cfg.h"

#include <math.h>
#include <string.h>

static uint64_t align_up(uint64_t x, uint64_t a)
{
    if (a <= 1)
        return x;
    return (x + a - 1) / a * a;
}

uint64_t kload_sym_align(const ir_sym *s)
{
    if (s->align)
        return s->align;
    unsigned b = ir_type_bits(s->type) / 8;
    return b ? b : 1;
}

static const ir_sym *mod_sym(const ir_module *m, uint32_t i)
{
    return &g_array_index(m->syms, ir_sym, i);
}

static const ir_func *mod_func(const ir_module *m, uint32_t i)
{
    return g_ptr_array_index(m->funcs, i);
}

/* Callees of function i (FUNC operands of its call instructions). */
static void func_callees(const ir_func *f, GArray *out)
{
    g_array_set_size(out, 0);
    if (!f->instrs)
        return;
    for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
        const ir_instr *in = ir_func_instr(f, i);
        if (in->op != IR_OP_CALL)
            continue;
        for (unsigned j = 0; j < in->n_src; j++)
            if (in->src[j].kind == IR_OPND_FUNC)
                g_array_append_val(out, in->src[j].u.func);
    }
}

/* Marks every function on a call cycle; fills reach[f] bitsets lazily via DFS (small modules). */
static void mark_recursion(kload_module *k)
{
    const ir_module *m = k->mod;
    guint n = m->funcs->len;
    GArray *callees = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    /* reach[i*n + j]: j reachable from i through >= 1 call. Transitive closure (n is small). */
    guint8 *reach = g_new0(guint8, (gsize)n * n);
    for (guint i = 0; i < n; i++) {
        func_callees(mod_func(m, i), callees);
        for (guint c = 0; c < callees->len; c++) {
            uint32_t j = g_array_index(callees, uint32_t, c);
            if (j < n)
                reach[i * n + j] = 1;
        }
    }
    for (guint via = 0; via < n; via++)
        for (guint i = 0; i < n; i++)
            if (reach[i * n + via])
                for (guint j = 0; j < n; j++)
                    if (reach[via * n + j])
                        reach[i * n + j] = 1;
    for (guint i = 0; i < n; i++)
        k->funcs[i].recursive = reach[i * n + i] != 0;
    g_free(reach);
    g_array_free(callees, TRUE);
}

static void layout_params(kload_module *k)
{
    const ir_module *m = k->mod;
    for (guint i = 0; i < m->funcs->len; i++) {
        const ir_func *f = mod_func(m, i);
        kload_func *kf = &k->funcs[i];
        guint np = f->params ? f->params->len : 0;
        if (f->is_entry) {
            kf->param_offset = g_new0(uint64_t, np ? np : 1);
            uint64_t off = 0;
            for (guint p = 0; p < np; p++) {
                const ir_param *pa = &g_array_index(f->params, ir_param, p);
                uint64_t a =
                    pa->align ? pa->align : (ir_type_bits(pa->type) / 8 ? ir_type_bits(pa->type) / 8 : 1);
                off = align_up(off, a);
                kf->param_offset[p] = off;
                if (pa->sym != IR_NONE && pa->sym < m->syms->len)
                    k->syms[pa->sym] = (kload_sym){.kind = KLOAD_SYM_KPARAM, .offset = off};
                off += pa->size;
            }
            kf->kparam_bytes = off;
        }
    }
    /* Every other .param symbol (func parameters, return values, call-sequence variables). */
    uint64_t cp = 0;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = mod_sym(m, s);
        if (sy->space != IR_SPACE_PARAM || k->syms[s].kind == KLOAD_SYM_KPARAM)
            continue;
        cp = align_up(cp, kload_sym_align(sy));
        k->syms[s] = (kload_sym){.kind = KLOAD_SYM_CPARAM, .offset = cp};
        cp += sy->size;
    }
    k->cparam_bytes = cp;
}

static void layout_local(kload_module *k)
{
    uint64_t off = 0;
    for (guint s = 0; s < k->mod->syms->len; s++) {
        const ir_sym *sy = mod_sym(k->mod, s);
        if (sy->space != IR_SPACE_LOCAL)
            continue;
        off = align_up(off, kload_sym_align(sy));
        k->syms[s] = (kload_sym){.kind = KLOAD_SYM_LOCAL, .offset = off};
        off += sy->size;
    }
    k->local_bytes = align_up(off, 8);
}

/* Module-scope static shared first; each entry's own from there (entries never run together; in
 * declaration order, the variables marked smem_late after the others);
 * shared declared in non-entry functions after the largest entry part (a kernel calling such a
 * function gets the whole range). */
static void layout_shared(kload_module *k)
{
    const ir_module *m = k->mod;
    guint nf = m->funcs->len;
    uint64_t mod_end = 0;
    uint64_t ext_align = KLOAD_DYN_SHARED_ALIGN;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = mod_sym(m, s);
        if (sy->space != IR_SPACE_SHARED)
            continue;
        if (sy->is_extern) {
            k->syms[s].kind = KLOAD_SYM_DYN_SHARED;
            ext_align = MAX(ext_align, kload_sym_align(sy));
            continue;
        }
        if (sy->func != IR_NONE)
            continue;
        mod_end = align_up(mod_end, kload_sym_align(sy));
        k->syms[s] = (kload_sym){.kind = KLOAD_SYM_SHARED, .offset = mod_end};
        mod_end += sy->size;
    }
    k->module_shared_bytes = mod_end;
    uint64_t *own_end = g_new0(uint64_t, nf ? nf : 1);
    uint64_t entries_end = mod_end;
    for (guint f = 0; f < nf; f++) {
        if (!mod_func(m, f)->is_entry)
            continue;
        uint64_t off = mod_end;
        for (int late = 0; late < 2; late++) /* in declaration order, those marked smem_late last */
            for (guint s = 0; s < m->syms->len; s++) {
                const ir_sym *sy = mod_sym(m, s);
                if (sy->space != IR_SPACE_SHARED || sy->is_extern || sy->func != f || sy->smem_late != late)
                    continue;
                off = align_up(off, kload_sym_align(sy));
                k->syms[s] = (kload_sym){.kind = KLOAD_SYM_SHARED, .offset = off};
                off += sy->size;
            }
        own_end[f] = off;
        entries_end = MAX(entries_end, off);
    }
    uint64_t off = entries_end;
    bool func_shared = false;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = mod_sym(m, s);
        if (sy->space != IR_SPACE_SHARED || sy->is_extern || sy->func == IR_NONE || sy->func >= nf ||
            mod_func(m, sy->func)->is_entry)
            continue;
        off = align_up(off, kload_sym_align(sy));
        k->syms[s] = (kload_sym){.kind = KLOAD_SYM_SHARED, .offset = off};
        off += sy->size;
        func_shared = true;
    }
    GArray *callees = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (guint f = 0; f < nf; f++) {
        const ir_func *fn = mod_func(m, f);
        if (!fn->is_entry)
            continue;
        func_callees(fn, callees);
        bool calls = func_shared && callees->len > 0;
        uint64_t st = calls ? off : own_end[f];
        k->funcs[f].shared_static = st;
        k->funcs[f].dyn_shared_offset = align_up(st, ext_align);
    }
    g_array_free(callees, TRUE);
    g_free(own_end);
}

/* .global and .const data: laid out, mapped, initialised. */
static int layout_data(kload_module *k, ir_space space, GString *err)
{
    const ir_module *m = k->mod;
    uint64_t off = 0;
    kload_sym_kind kind = space == IR_SPACE_GLOBAL ? KLOAD_SYM_GLOBAL : KLOAD_SYM_CONST;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = mod_sym(m, s);
        if (sy->space != space)
            continue;
        off = align_up(off, MAX(kload_sym_align(sy), 1));
        k->syms[s] = (kload_sym){.kind = kind, .offset = off};
        off += sy->size;
    }
    if (off > KLOAD_SEG_LIMIT) {
        g_string_append_printf(err, "%s: module .%s data is %" G_GUINT64_FORMAT " bytes (limit %llu)",
                               m->filename, ir_space_name(space), off, KLOAD_SEG_LIMIT);
        return 1;
    }
    uint64_t base = space == IR_SPACE_GLOBAL ? KLOAD_GLOBALS_BASE : KLOAD_CONST_BASE;
    if (space == IR_SPACE_GLOBAL)
        k->global_bytes = off;
    else
        k->const_bytes = off;
    if (off == 0)
        return 0;
    if (!fmem_map(k->mem, base, off, space == IR_SPACE_CONST,
                  space == IR_SPACE_GLOBAL ? "module .global" : "module .const")) {
        g_string_append_printf(err,
                               "%s: cannot map module .%s data at 0x%" G_GINT64_MODIFIER "x (already mapped)",
                               m->filename, ir_space_name(space), base);
        return 1;
    }
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = mod_sym(m, s);
        if (sy->space == space && sy->init && sy->size)
            fmem_write(k->mem, base + k->syms[s].offset, sy->init, sy->size);
    }
    return 0;
}

/* Addresses in initialisers (ir_init_addr), once every .global and .const symbol has its place. In
 * this address map a .global or .const address is its generic address, so generic(sym) and sym give
 * the same value. */
static int relocate_data(kload_module *k, GString *err)
{
    const ir_module *m = k->mod;
    for (guint s = 0; s < m->syms->len; s++) {
        const ir_sym *sy = mod_sym(m, s);
        if (!sy->init_addrs || (sy->space != IR_SPACE_GLOBAL && sy->space != IR_SPACE_CONST))
            continue;
        unsigned esz = MAX(ir_type_bits((ir_type)sy->type) / 8, 1u);
        uint64_t base = kload_sym_address(k, IR_NONE, s);
        for (guint i = 0; i < sy->init_addrs->len; i++) {
            const ir_init_addr *a = &g_array_index(sy->init_addrs, ir_init_addr, i);
            uint8_t kind = a->sym < m->syms->len ? k->syms[a->sym].kind : KLOAD_SYM_OTHER;
            if ((kind != KLOAD_SYM_GLOBAL && kind != KLOAD_SYM_CONST) || esz > 8 ||
                (a->elem + 1) * esz > sy->size) {
                g_string_append_printf(
                    err,
                    "%s:%u: %s: element %" G_GUINT64_FORMAT
                    " of the initialiser is not the address of a .global or .const variable",
                    m->filename, sy->line, sy->name, a->elem);
                return 1;
            }
            uint64_t v = kload_sym_address(k, IR_NONE, a->sym) + (uint64_t)a->addend;
            if (a->mask_byte)
                v = (v >> (8 * (a->mask_byte - 1))) & 0xff;
            fmem_write(k->mem, base + a->elem * esz, &v, esz); /* little-endian host */
        }
    }
    return 0;
}

/* A register of this type needs 64-bit lanes: wider than 32 bits, or of no known width. */
static bool type_wide(uint8_t type)
{
    unsigned bits = ir_type_bits(type);
    return bits == 0 || bits > 32;
}

/* The register-array row of every slot (kload.h, "Registers"): by physical register and width when
 * the whole module is register-allocated, else one row per slot. The registers the allocation left without a
 * physical register (declared, never referenced) share one spare row after the function's own. */
static void layout_rows(kload_module *k)
{
    const ir_module *m = k->mod;
    guint nf = m->funcs->len;
    bool phys = nf > 0;
    for (guint f = 0; f < nf && phys; f++)
        phys = mod_func(m, f)->n_phys_regs != IR_NONE;
    k->slot_row = g_new0(uint32_t, k->total_regs + 1);
    uint32_t rows = 0;
    for (guint f = 0; f < nf; f++) {
        const ir_func *fn = mod_func(m, f);
        kload_func *kf = &k->funcs[f];
        uint32_t *row = k->slot_row + kf->reg_base;
        kf->rows = row;
        if (!phys) {
            for (uint32_t r = 0; r < kf->n_regs; r++)
                row[r] = kf->reg_base + r;
            rows = kf->reg_base + kf->n_regs;
            continue;
        }
        /* A physical register's values of 32 bits or less and the wider values that start at it
         * are kept in two rows (each only when the function has such a value), so a 32-bit value
         * never sits in a row of 64-bit lanes: R0's rows, R1's, ..., then P0.., then the spare. */
        uint32_t n_phys = fn->n_phys_regs;
        uint32_t *phys_row = g_new(uint32_t, 2 * (size_t)n_phys + 1); /* [2R + wide] */
        for (uint32_t i = 0; i < 2 * n_phys; i++)
            phys_row[i] = IR_NONE;
        for (uint32_t r = 0; r < kf->n_regs; r++) {
            const ir_reg *g = &g_array_index(fn->regs, ir_reg, r);
            if (g->type != IR_T_PRED && g->phys != IR_NONE && g->phys < n_phys)
                phys_row[2 * g->phys + type_wide(g->type)] = 0;
        }
        for (uint32_t i = 0; i < 2 * n_phys; i++)
            if (phys_row[i] != IR_NONE)
                phys_row[i] = rows++;
        uint32_t preds = rows, spare = preds + fn->n_phys_preds;
        rows = spare;
        for (uint32_t r = 0; r < kf->n_regs; r++) {
            const ir_reg *g = &g_array_index(fn->regs, ir_reg, r);
            bool pred = g->type == IR_T_PRED;
            if (g->phys != IR_NONE && g->phys < (pred ? fn->n_phys_preds : n_phys)) {
                row[r] = pred ? preds + g->phys : phys_row[2 * g->phys + type_wide(g->type)];
            } else {
                row[r] = spare;
                rows = spare + 1;
            }
        }
        g_free(phys_row);
    }
    k->total_rows = rows;
    /* Each row's width: narrow unless a register kept in it is wider than 32 bits (or of no known
     * width); then where each row, and so each slot, lives in a warp's array. */
    bool *wide = g_new0(bool, rows + 1);
    for (guint f = 0; f < nf; f++) {
        const ir_func *fn = mod_func(m, f);
        const kload_func *kf = &k->funcs[f];
        for (uint32_t r = 0; r < kf->n_regs; r++) {
            if (type_wide(g_array_index(fn->regs, ir_reg, r).type))
                wide[kf->rows[r]] = true;
        }
    }
    k->row_at = g_new0(uint32_t, rows + 1);
    uint64_t words = 0;
    for (uint32_t r = 0; r < rows; r++) {
        g_assert(words < (UINT64_C(1) << 31));
        k->row_at[r] = (uint32_t)(words << 1) | (wide[r] ? 0u : 1u);
        words += wide[r] ? IR_WARP_SIZE : IR_WARP_SIZE / 2;
    }
    k->warp_words = words;
    g_free(wide);
    k->slot_at = g_new0(uint32_t, k->total_regs + 1);
    for (uint32_t s = 0; s < k->total_regs; s++)
        k->slot_at[s] = k->row_at[k->slot_row[s]];
    for (guint f = 0; f < nf; f++)
        k->funcs[f].at = k->slot_at + k->funcs[f].reg_base;
}

kload_module *kload_module_new(ir_module *m, fmem *mem, GString *err)
{
    kload_module *k = g_new0(kload_module, 1);
    k->mod = m;
    k->mem = mem;
    guint nf = m->funcs->len;
    k->funcs = g_new0(kload_func, nf ? nf : 1);
    k->syms = g_new0(kload_sym, m->syms->len ? m->syms->len : 1);
    for (guint s = 0; s < m->syms->len; s++)
        k->syms[s].kind = KLOAD_SYM_OTHER;
    uint32_t regs = 0;
    for (guint f = 0; f < nf; f++) {
        const ir_func *fn = mod_func(m, f);
        k->funcs[f].reg_base = regs;
        k->funcs[f].n_regs = fn->regs ? fn->regs->len : 0;
        regs += k->funcs[f].n_regs;
    }
    k->total_regs = regs;
    layout_rows(k);
    mark_recursion(k);
    layout_params(k);
    layout_local(k);
    layout_shared(k);
    if (layout_data(k, IR_SPACE_GLOBAL, err) || layout_data(k, IR_SPACE_CONST, err) ||
        relocate_data(k, err)) {
        kload_module_free(k);
        return NULL;
    }
    for (guint s = 0; s < m->syms->len; s++)
        if (k->syms[s].kind != KLOAD_SYM_OTHER)
            g_array_index(m->syms, ir_sym, s).offset = k->syms[s].offset;
    for (guint f = 0; f < nf; f++) {
        ir_func *fn = g_ptr_array_index(m->funcs, f);
        if (fn->instrs && ir_func_n_instrs(fn) > 0)
            cfg_compute_reconvergence(fn);
    }
    return k;
}

void kload_module_free(kload_module *k)
{
    if (!k)
        return;
    for (guint f = 0; f < k->mod->funcs->len; f++)
        g_free(k->funcs[f].param_offset);
    g_free(k->funcs);
    g_free(k->syms);
    g_free(k->slot_row);
    g_free(k->slot_at);
    g_free(k->row_at);
    g_free(k);
}

uint32_t kload_find_entry(const kload_module *k, const char *name)
{
    for (guint f = 0; f < k->mod->funcs->len; f++) {
        const ir_func *fn = mod_func(k->mod, f);
        if (fn->is_entry && strcmp(fn->name, name) == 0)
            return f;
    }
    return IR_NONE;
}

uint64_t kload_sym_address(const kload_module *k, uint32_t entry, uint32_t sym)
{
    const kload_sym *s = &k->syms[sym];
    switch ((kload_sym_kind)s->kind) {
    case KLOAD_SYM_GLOBAL:
        return KLOAD_GLOBALS_BASE + s->offset;
    case KLOAD_SYM_CONST:
        return KLOAD_CONST_BASE + s->offset;
    case KLOAD_SYM_SHARED:
        return s->offset;
    case KLOAD_SYM_DYN_SHARED:
        return entry != IR_NONE ? k->funcs[entry].dyn_shared_offset : 0;
    case KLOAD_SYM_LOCAL:
        return s->offset;
    case KLOAD_SYM_KPARAM:
        return s->offset;
    case KLOAD_SYM_CPARAM:
        return KLOAD_CPARAM_BASE + s->offset;
    case KLOAD_SYM_OTHER:
        break;
    }
    return 0;
}

static const char *arg_kind_name(wl_arg_kind k)
{
    static const char *const names[] = {"u32", "s32", "u64", "s64", "f32", "f64", "pointer", "bytes"};
    return (unsigned)k < G_N_ELEMENTS(names) ? names[k] : "?";
}

/* Store an integer argument into a parameter of `bytes` bytes; it must fit (signed or unsigned). */
static int pack_int(const ir_param *pa, const wl_arg *a, uint8_t *dst, GString *err)
{
    unsigned bytes = (unsigned)pa->size;
    bool is_signed = a->kind == WL_ARG_S32 || a->kind == WL_ARG_S64;
    uint64_t v;
    switch (a->kind) {
    case WL_ARG_U32:
        v = a->v.u32;
        break;
    case WL_ARG_S32:
        v = (uint64_t)(int64_t)a->v.s32;
        break;
    case WL_ARG_U64:
        v = a->v.u64;
        break;
    case WL_ARG_S64:
        v = (uint64_t)a->v.s64;
        break;
    case WL_ARG_PTR:
        if (bytes < 8) {
            g_string_append_printf(err, "parameter %s is .%s (%u bytes) but was given a 64-bit pointer",
                                   pa->name, ir_type_name(pa->type), bytes);
            return 1;
        }
        v = a->v.ptr;
        break;
    default:
        g_string_append_printf(err, "parameter %s is .%s but was given a %s value", pa->name,
                               ir_type_name(pa->type), arg_kind_name(a->kind));
        return 1;
    }
    if (bytes < 8) {
        unsigned bits = bytes * 8;
        int64_t sv = (int64_t)v;
        bool fits = is_signed ? (sv >= -(INT64_C(1) << (bits - 1)) && sv < (INT64_C(1) << bits))
                              : v < (UINT64_C(1) << bits);
        if (!fits) {
            g_string_append_printf(err,
                                   "parameter %s is .%s but the value %s%" G_GUINT64_FORMAT " does not fit",
                                   pa->name, ir_type_name(pa->type), is_signed && sv < 0 ? "-" : "",
                                   is_signed && sv < 0 ? (uint64_t)(-(sv + 1)) + 1 : v);
            return 1;
        }
    }
    for (unsigned b = 0; b < bytes && b < 8; b++)
        dst[b] = (uint8_t)(v >> (8 * b));
    return 0;
}

static int pack_float(const ir_param *pa, const wl_arg *a, uint8_t *dst, GString *err)
{
    double d;
    switch (a->kind) {
    case WL_ARG_F32:
        d = a->v.f32;
        break;
    case WL_ARG_F64:
        d = a->v.f64;
        break;
    case WL_ARG_U32:
        d = a->v.u32;
        break;
    case WL_ARG_S32:
        d = a->v.s32;
        break;
    case WL_ARG_U64:
        d = (double)a->v.u64;
        break;
    case WL_ARG_S64:
        d = (double)a->v.s64;
        break;
    default:
        g_string_append_printf(err, "parameter %s is .%s but was given a %s value", pa->name,
                               ir_type_name(pa->type), arg_kind_name(a->kind));
        return 1;
    }
    if (pa->type == IR_T_F32) {
        float f = a->kind == WL_ARG_F32 ? a->v.f32 : (float)d;
        memcpy(dst, &f, 4);
    } else if (pa->type == IR_T_F64) {
        memcpy(dst, &d, 8);
    } else {
        g_string_append_printf(err, "parameter %s: .%s parameters are not supported", pa->name,
                               ir_type_name(pa->type));
        return 1;
    }
    return 0;
}

int kload_pack_params(const kload_module *k, uint32_t entry, const wl_arg *args, unsigned n_args,
                      uint8_t *buf, GString *err)
{
    const ir_func *f = mod_func(k->mod, entry);
    const kload_func *kf = &k->funcs[entry];
    guint np = f->params ? f->params->len : 0;
    memset(buf, 0, kf->kparam_bytes);
    if (n_args != np) {
        g_string_append_printf(err, "kernel %s takes %u parameter%s but %u argument%s given", f->name, np,
                               np == 1 ? "" : "s", n_args, n_args == 1 ? " was" : "s were");
        return 1;
    }
    for (guint p = 0; p < np; p++) {
        const ir_param *pa = &g_array_index(f->params, ir_param, p);
        const wl_arg *a = &args[p];
        uint8_t *dst = buf + kf->param_offset[p];
        if (a->kind == WL_ARG_BYTES) {
            if (a->v.raw.n_bytes != pa->size) {
                g_string_append_printf(err,
                                       "parameter %s is %" G_GUINT64_FORMAT " bytes but %zu bytes were given",
                                       pa->name, pa->size, a->v.raw.n_bytes);
                return 1;
            }
            if (pa->size)
                memcpy(dst, a->v.raw.bytes, pa->size);
            continue;
        }
        bool scalar = pa->size == ir_type_bits(pa->type) / 8 && pa->size > 0;
        if (!scalar) {
            g_string_append_printf(
                err, "parameter %s is a %" G_GUINT64_FORMAT "-byte .%s array and needs bytes, not a %s value",
                pa->name, pa->size, ir_type_name(pa->type), arg_kind_name(a->kind));
            return 1;
        }
        int rc = ir_type_is_float(pa->type) ? pack_float(pa, a, dst, err) : pack_int(pa, a, dst, err);
        if (rc)
            return rc;
    }
    return 0;
}

uint8_t *kload_resolve_padding(const kload_spaces *s, ir_space space, uint64_t addr, uint64_t len,
                               GString *where)
{
    if (space == IR_SPACE_NONE)
        space = kload_generic_resolve(addr, &addr);
    const fmem_region *r = NULL;
    uint8_t *p = space == IR_SPACE_GLOBAL ? fmem_translate_padding(s->global, addr, len, &r) : NULL;
    if (p && where)
        g_string_append_printf(where,
                               "offset %" G_GINT64_FORMAT " of %s [0x%" G_GINT64_MODIFIER
                               "x, +%" G_GUINT64_FORMAT "), in its padding",
                               (gint64)(addr - r->base), r->name, r->base, r->size);
    return p;
}

uint8_t *kload_resolve(const kload_spaces *s, ir_space space, uint64_t addr, uint64_t len, bool write,
                       GString *why)
{
    if (space == IR_SPACE_NONE)
        space = kload_generic_resolve(addr, &addr);
    fmem_cache gc = {0}; /* empty: the lookup is fmem_find's, as fmem_translate */
    uint8_t *p = kload_resolve_cached(s, &gc, space, addr, len, write);
    if (p || !why)
        return p;
    if (space == IR_SPACE_SHARED || space == IR_SPACE_LOCAL)
        addr = (uint32_t)addr; /* the address the access was tried at */
    switch (space) {
    case IR_SPACE_GLOBAL:
    case IR_SPACE_CONST:
        fmem_describe_fault(s->global, addr, len, write, why);
        break;
    case IR_SPACE_SHARED:
        g_string_append_printf(why,
                               "shared address 0x%" G_GINT64_MODIFIER "x (+%" G_GUINT64_FORMAT
                               ") is outside the CTA's %" G_GUINT64_FORMAT " bytes of shared memory",
                               addr, len, s->shared.size);
        break;
    case IR_SPACE_LOCAL:
        g_string_append_printf(why,
                               "local address 0x%" G_GINT64_MODIFIER "x (+%" G_GUINT64_FORMAT
                               ") is outside the thread's %" G_GUINT64_FORMAT " bytes of local memory",
                               addr, len, s->local.size);
        break;
    case IR_SPACE_PARAM:
        g_string_append_printf(
            why, "param address 0x%" G_GINT64_MODIFIER "x (+%" G_GUINT64_FORMAT ") is %s", addr, len,
            write && addr < KLOAD_CPARAM_BASE ? "a kernel parameter (read-only)" : "out of range");
        break;
    default:
        g_string_append_printf(why, "state space %s is not addressable", ir_space_name(space));
        break;
    }
    return NULL;
}
