/* test_kload — module layout: kernel parameter packing (alignment, by-value .b8 structs, type
 * conversion, errors naming the parameter), module .global/.const data with initialisers mapped in
 * the memory image (addresses in initialisers relocated), static/dynamic shared layout per kernel, local and
 * call-parameter segments, recursion detection, the register array's rows (by physical register for
 * register-allocated code). */
#include "kernels/run/kload.h"
#include "kernels/analysis/regalloc.h"
#include "kernels/frontend/ptx_parse.h"

#include <string.h>

static const char *const params_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 8 .b8 s[12], .param .f32 f,\n"
    "                  .param .u8 c, .param .f64 d, .param .s16 e)\n"
    "{\n\tret;\n}\n";

typedef struct {
    ir_module *m;
    fmem *mem;
    kload_module *k;
    GString *err;
} rig;

static void rig_init(rig *r, const char *text)
{
    GError *gerr = NULL;
    r->m = ptx_parse_string(text, -1, "test.ptx", &gerr);
    g_assert_no_error(gerr);
    r->mem = fmem_new();
    r->err = g_string_new(NULL);
    r->k = kload_module_new(r->m, r->mem, r->err);
    if (!r->k)
        g_error("kload: %s", r->err->str);
}

static void rig_free(rig *r)
{
    kload_module_free(r->k);
    fmem_free(r->mem);
    ir_module_free(r->m);
    g_string_free(r->err, TRUE);
}

static void test_param_layout_and_pack(void)
{
    rig r;
    rig_init(&r, params_ptx);
    uint32_t e = kload_find_entry(r.k, "k");
    g_assert_cmpuint(e, !=, IR_NONE);
    const kload_func *kf = &r.k->funcs[e];
    static const uint64_t want[] = {0, 8, 16, 28, 32, 40, 48};
    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++)
        g_assert_cmpuint(kf->param_offset[i], ==, want[i]);
    g_assert_cmpuint(kf->kparam_bytes, ==, 50);
    uint8_t s[12];
    for (unsigned i = 0; i < sizeof s; i++)
        s[i] = (uint8_t)(0xa0 + i);
    wl_arg args[] = {WL_S32(-2),  WL_PTR(0x10000100), {.kind = WL_ARG_BYTES, .v.raw = {s, 12}},
                     WL_F64(0.5), WL_U32(255),        WL_F32(-3.0f),
                     WL_S32(-1)};
    uint8_t buf[50];
    memset(buf, 0xee, sizeof buf);
    g_assert_cmpint(kload_pack_params(r.k, e, args, 7, buf, r.err), ==, 0);
    uint32_t a;
    uint64_t b;
    float f;
    double d;
    memcpy(&a, buf, 4);
    memcpy(&b, buf + 8, 8);
    memcpy(&f, buf + 28, 4);
    memcpy(&d, buf + 40, 8);
    g_assert_cmphex(a, ==, 0xfffffffeu);
    for (unsigned i = 4; i < 8; i++)
        g_assert_cmpuint(buf[i], ==, 0); /* padding is zeroed */
    g_assert_cmphex(b, ==, 0x10000100);
    g_assert_cmpmem(buf + 16, 12, s, 12);
    g_assert_cmpfloat(f, ==, 0.5f);
    g_assert_cmpuint(buf[32], ==, 255);
    g_assert_cmpfloat(d, ==, -3.0);
    g_assert_cmpuint(buf[48], ==, 0xff);
    g_assert_cmpuint(buf[49], ==, 0xff);
    /* Symbols of kernel parameters address the buffer. */
    uint32_t sym = ir_module_find_sym(r.m, e, "d");
    g_assert_cmpuint(sym, !=, IR_NONE);
    g_assert_cmpuint(r.k->syms[sym].kind, ==, KLOAD_SYM_KPARAM);
    g_assert_cmpuint(kload_sym_address(r.k, e, sym), ==, 40);
    rig_free(&r);
}

static void expect_pack_error(rig *r, const wl_arg *args, unsigned n, const char *needle)
{
    uint8_t buf[64];
    g_string_truncate(r->err, 0);
    g_assert_cmpint(kload_pack_params(r->k, 0, args, n, buf, r->err), !=, 0);
    if (!strstr(r->err->str, needle))
        g_error("expected '%s' in '%s'", needle, r->err->str);
}

static void test_pack_errors(void)
{
    rig r;
    rig_init(&r, params_ptx);
    uint8_t s[12] = {0};
    wl_arg ok[] = {WL_U32(1), WL_PTR(1), {.kind = WL_ARG_BYTES, .v.raw = {s, 12}}, WL_F32(1), WL_U32(1),
                   WL_F64(1), WL_S32(1)};
    expect_pack_error(&r, ok, 6, "kernel k takes 7 parameters but 6 arguments were given");
    wl_arg a1[7];
    memcpy(a1, ok, sizeof ok);
    a1[0] = WL_PTR(0x10000000);
    expect_pack_error(&r, a1, 7, "parameter a is .u32 (4 bytes) but was given a 64-bit pointer");
    memcpy(a1, ok, sizeof ok);
    a1[4] = WL_U32(256);
    expect_pack_error(&r, a1, 7, "parameter c is .u8 but the value 256 does not fit");
    memcpy(a1, ok, sizeof ok);
    a1[6] = WL_S32(-40000);
    expect_pack_error(&r, a1, 7, "parameter e is .s16 but the value -40000 does not fit");
    memcpy(a1, ok, sizeof ok);
    a1[2] = (wl_arg){.kind = WL_ARG_BYTES, .v.raw = {s, 8}};
    expect_pack_error(&r, a1, 7, "parameter s is 12 bytes but 8 bytes were given");
    memcpy(a1, ok, sizeof ok);
    a1[2] = WL_U32(3);
    expect_pack_error(&r, a1, 7, "parameter s is a 12-byte .b8 array and needs bytes");
    memcpy(a1, ok, sizeof ok);
    a1[0] = WL_F32(1.5f);
    expect_pack_error(&r, a1, 7, "parameter a is .u32 but was given a f32 value");
    rig_free(&r);
}

static const char *const data_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".global .align 4 .u32 g[3] = {1, 2, 3};\n"
    ".global .u8 byte1 = 7;\n"
    ".global .align 8 .u64 zero8;\n"
    ".const .align 8 .f64 c[2] = {0d3FF8000000000000, 0d4004000000000000};\n"
    ".shared .align 4 .b8 modsh[20];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func (.param .b32 r) helper(.param .b32 x)\n{\n"
    "\t.local .align 4 .b8 hl[8];\n\t.reg .b32 %r<2>;\n\tld.param.b32 %r1, [x];\n\tst.param.b32 [r], "
    "%r1;\n\tret;\n}\n"
    ".visible .entry k1()\n{\n\t.shared .align 8 .b8 own1[100];\n\t.local .align 8 .b8 l1[24];\n\tret;\n}\n"
    ".visible .entry k2()\n{\n\t.shared .align 4 .b8 own2[8];\n\tret;\n}\n";

static void test_module_data(void)
{
    rig r;
    rig_init(&r, data_ptx);
    uint32_t sg = ir_module_find_sym(r.m, IR_NONE, "g"), sb = ir_module_find_sym(r.m, IR_NONE, "byte1");
    uint32_t sz = ir_module_find_sym(r.m, IR_NONE, "zero8"), sc = ir_module_find_sym(r.m, IR_NONE, "c");
    g_assert_cmpuint(sg, !=, IR_NONE);
    g_assert_cmpuint(sc, !=, IR_NONE);
    uint64_t ag = kload_sym_address(r.k, IR_NONE, sg), ab = kload_sym_address(r.k, IR_NONE, sb);
    uint64_t az = kload_sym_address(r.k, IR_NONE, sz), ac = kload_sym_address(r.k, IR_NONE, sc);
    g_assert_cmpuint(ag, ==, KLOAD_GLOBALS_BASE);
    g_assert_cmpuint(ab, ==, KLOAD_GLOBALS_BASE + 12);
    g_assert_cmpuint(az, ==, KLOAD_GLOBALS_BASE + 16);
    g_assert_cmpuint(ac, ==, KLOAD_CONST_BASE);
    uint32_t gv[3];
    uint8_t bv;
    uint64_t zv = 1;
    double cv[2];
    g_assert_true(fmem_read(r.mem, ag, gv, sizeof gv));
    g_assert_true(fmem_read(r.mem, ab, &bv, 1));
    g_assert_true(fmem_read(r.mem, az, &zv, 8));
    g_assert_true(fmem_read(r.mem, ac, cv, sizeof cv));
    g_assert_cmpuint(gv[0], ==, 1);
    g_assert_cmpuint(gv[2], ==, 3);
    g_assert_cmpuint(bv, ==, 7);
    g_assert_cmpuint(zv, ==, 0);
    g_assert_cmpfloat(cv[0], ==, 1.5);
    g_assert_cmpfloat(cv[1], ==, 2.5);
    /* The const bank is read-only for kernels, the globals are not. */
    g_assert_null(fmem_translate(r.mem, ac, 8, true));
    g_assert_nonnull(fmem_translate(r.mem, ag, 4, true));
    g_assert_cmpuint(r.k->global_bytes, ==, 24);
    g_assert_cmpuint(r.k->const_bytes, ==, 16);
    rig_free(&r);
}

/* Address initialisers are written when the data is laid out: a .const table pointing into .global
 * data declared before it, a 32-bit one, one with a negative addend, and one byte of an address. */
static void test_address_initialisers(void)
{
    rig r;
    rig_init(&r, ".version 7.0\n.target sm_70\n.address_size 64\n"
                 ".global .align 4 .u32 pad;\n"
                 ".global .align 4 .u32 g[4] = {1, 2, 3, 4};\n"
                 ".const .align 4 .u32 c[2] = {5, 6};\n"
                 ".const .align 8 .u64 tab[3] = {generic(g)+4, c, 9};\n"
                 ".global .align 4 .u32 p32 = g+12;\n"
                 ".global .align 8 .s64 pneg = generic(c)-8;\n"
                 ".global .b8 hi[2] = {0xFF000000(generic(c)+4), 0xFF(generic(c)+4)};\n");
    uint64_t ag = kload_sym_address(r.k, IR_NONE, ir_module_find_sym(r.m, IR_NONE, "g"));
    uint64_t ac = kload_sym_address(r.k, IR_NONE, ir_module_find_sym(r.m, IR_NONE, "c"));
    g_assert_cmpuint(ag, ==, KLOAD_GLOBALS_BASE + 4);
    g_assert_cmpuint(ac, ==, KLOAD_CONST_BASE);
    uint64_t tab[3], pneg;
    uint32_t p32;
    uint8_t hi[2];
    g_assert_true(fmem_read(r.mem, kload_sym_address(r.k, IR_NONE, ir_module_find_sym(r.m, IR_NONE, "tab")),
                            tab, sizeof tab));
    g_assert_true(
        fmem_read(r.mem, kload_sym_address(r.k, IR_NONE, ir_module_find_sym(r.m, IR_NONE, "p32")), &p32, 4));
    g_assert_true(fmem_read(r.mem, kload_sym_address(r.k, IR_NONE, ir_module_find_sym(r.m, IR_NONE, "pneg")),
                            &pneg, 8));
    g_assert_true(
        fmem_read(r.mem, kload_sym_address(r.k, IR_NONE, ir_module_find_sym(r.m, IR_NONE, "hi")), hi, 2));
    g_assert_cmpuint(tab[0], ==, ag + 4);
    g_assert_cmpuint(tab[1], ==, ac);
    g_assert_cmpuint(tab[2], ==, 9);
    g_assert_cmpuint(p32, ==, (uint32_t)(ag + 12));
    g_assert_cmpuint(pneg, ==, ac - 8);
    g_assert_cmpuint(hi[0], ==, ((ac + 4) >> 24) & 0xff);
    g_assert_cmpuint(hi[1], ==, (ac + 4) & 0xff);
    /* What the pointers point at. */
    uint32_t v;
    g_assert_true(fmem_read(r.mem, tab[0], &v, 4));
    g_assert_cmpuint(v, ==, 2);
    g_assert_true(fmem_read(r.mem, p32, &v, 4));
    g_assert_cmpuint(v, ==, 4);
    rig_free(&r);
}

static void test_shared_local_layout(void)
{
    rig r;
    rig_init(&r, data_ptx);
    uint32_t k1 = kload_find_entry(r.k, "k1"), k2 = kload_find_entry(r.k, "k2");
    g_assert_cmpuint(k1, !=, IR_NONE);
    g_assert_cmpuint(kload_find_entry(r.k, "helper"), ==, IR_NONE); /* not an entry */
    /* module-scope 20 bytes, then own1 at 24 (align 8) -> 124; own2 at 20 -> 28. */
    g_assert_cmpuint(r.k->module_shared_bytes, ==, 20);
    g_assert_cmpuint(r.k->funcs[k1].shared_static, ==, 124);
    g_assert_cmpuint(r.k->funcs[k2].shared_static, ==, 28);
    g_assert_cmpuint(r.k->funcs[k1].dyn_shared_offset, ==, 128);
    g_assert_cmpuint(r.k->funcs[k2].dyn_shared_offset, ==, 32);
    uint32_t own1 = ir_module_find_sym(r.m, k1, "own1"), dyn = ir_module_find_sym(r.m, IR_NONE, "dyn");
    g_assert_cmpuint(own1, !=, IR_NONE);
    g_assert_cmpuint(kload_sym_address(r.k, k1, own1), ==, 24);
    g_assert_cmpuint(dyn, !=, IR_NONE);
    g_assert_cmpuint(r.k->syms[dyn].kind, ==, KLOAD_SYM_DYN_SHARED);
    g_assert_cmpuint(kload_sym_address(r.k, k1, dyn), ==, 128);
    g_assert_cmpuint(kload_sym_address(r.k, k2, dyn), ==, 32);
    /* Local: helper's 8 bytes and k1's 24 never overlap. */
    uint32_t helper = ir_module_func_index(r.m, "helper");
    uint32_t hl = ir_module_find_sym(r.m, helper, "hl"), l1 = ir_module_find_sym(r.m, k1, "l1");
    g_assert_cmpuint(r.k->syms[hl].kind, ==, KLOAD_SYM_LOCAL);
    g_assert_cmpuint(r.k->syms[l1].kind, ==, KLOAD_SYM_LOCAL);
    uint64_t ohl = r.k->syms[hl].offset, ol1 = r.k->syms[l1].offset;
    g_assert_true(ohl + 8 <= ol1 || ol1 + 24 <= ohl);
    g_assert_cmpuint(ol1 % 8, ==, 0);
    g_assert_cmpuint(r.k->local_bytes, >=, 32);
    /* helper's parameter and return value are call parameters, 4 bytes each, apart. */
    uint32_t x = ir_module_find_sym(r.m, helper, "x"), rv = ir_module_find_sym(r.m, helper, "r");
    g_assert_cmpuint(r.k->syms[x].kind, ==, KLOAD_SYM_CPARAM);
    g_assert_cmpuint(r.k->syms[rv].kind, ==, KLOAD_SYM_CPARAM);
    g_assert_cmpuint(r.k->syms[x].offset, !=, r.k->syms[rv].offset);
    g_assert_cmpuint(kload_sym_address(r.k, k1, x), ==, KLOAD_CPARAM_BASE + r.k->syms[x].offset);
    g_assert_cmpuint(r.k->cparam_bytes, >=, 8);
    /* Registers: each function has its own slice. */
    g_assert_cmpuint(r.k->funcs[helper].n_regs, >=, 2);
    g_assert_cmpuint(r.k->total_regs, >=, r.k->funcs[helper].n_regs);
    g_assert_false(r.k->funcs[k1].recursive);
    rig_free(&r);
}

/* A chain of short-lived values (each dead after the next is computed), a 64-bit pair, predicates
 * and a called function: after allocation they fit in a few physical registers. */
static const char *const rows_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".func (.param .b32 r) helper(.param .b32 x)\n{\n\t.reg .b32 %h<3>;\n"
    "\tld.param.b32 %h0, [x];\n\tadd.s32 %h1, %h0, 1;\n\tmul.lo.s32 %h2, %h1, 3;\n"
    "\tst.param.b32 [r], %h2;\n\tret;\n}\n"
    ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<3>;\n"
    "\tld.param.u32 %r0, [n];\n\tadd.s32 %r1, %r0, 1;\n\tadd.s32 %r2, %r1, 2;\n"
    "\tadd.s32 %r3, %r2, 3;\n\tsetp.gt.s32 %p0, %r3, 7;\n\t@%p0 add.s32 %r3, %r3, 1;\n"
    "\tsetp.lt.s32 %p1, %r3, 100;\n\t@%p1 add.s32 %r3, %r3, 2;\n"
    "\t{\n\t.param .b32 a0;\n\t.param .b32 r0;\n\tst.param.b32 [a0], %r3;\n"
    "\tcall.uni (r0), helper, (a0);\n\tld.param.b32 %r4, [r0];\n\t}\n"
    "\tld.param.u64 %rd0, [out];\n\tcvta.to.global.u64 %rd1, %rd0;\n"
    "\tst.global.u32 [%rd1], %r4;\n\tret;\n}\n";

/* Where each row lives (kload.h, "Registers"): rows in order, a narrow row (every register in it 32
 * bits or less) 16 words, a wide one 32; each slot where its row is. Both kinds occur. */
static void check_row_widths(const kload_module *k)
{
    bool *wide = g_new0(bool, k->total_rows + 1);
    for (guint f = 0; f < k->mod->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(k->mod->funcs, f);
        const kload_func *kf = &k->funcs[f];
        g_assert_true(kf->at == k->slot_at + kf->reg_base);
        for (uint32_t v = 0; v < kf->n_regs; v++)
            if (ir_type_bits(g_array_index(fn->regs, ir_reg, v).type) > 32)
                wide[kf->rows[v]] = true;
    }
    /* No register of 32 bits or less is kept in a wide row (but the spare, whose registers are
     * never read). */
    for (guint f = 0; f < k->mod->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(k->mod->funcs, f);
        const kload_func *kf = &k->funcs[f];
        for (uint32_t v = 0; v < kf->n_regs; v++) {
            const ir_reg *g = &g_array_index(fn->regs, ir_reg, v);
            unsigned bits = ir_type_bits(g->type);
            if (bits && bits <= 32 && !(fn->n_phys_regs != IR_NONE && g->phys == IR_NONE))
                g_assert_false(wide[kf->rows[v]]);
        }
    }
    uint64_t words = 0;
    unsigned n_narrow = 0;
    for (uint32_t row = 0; row < k->total_rows; row++) {
        g_assert_cmpuint(k->row_at[row] >> 1, ==, words);
        g_assert_cmpuint(k->row_at[row] & 1, ==, wide[row] ? 0 : 1);
        n_narrow += !wide[row];
        words += wide[row] ? IR_WARP_SIZE : IR_WARP_SIZE / 2;
    }
    g_assert_cmpuint(k->warp_words, ==, words);
    g_assert_cmpuint(n_narrow, >, 0);
    g_assert_cmpuint(n_narrow, <, k->total_rows);
    for (uint32_t s = 0; s < k->total_regs; s++)
        g_assert_cmpuint(k->slot_at[s], ==, k->row_at[k->slot_row[s]]);
    /* A lane written to a narrow row keeps 32 bits, a wide one 64; neighbours untouched. */
    uint64_t *regs = g_new0(uint64_t, k->warp_words + 1);
    for (uint32_t row = 0; row < k->total_rows; row++)
        for (unsigned l = 0; l < IR_WARP_SIZE; l++)
            kload_reg_set(regs, k->row_at[row], l, UINT64_C(0x1234567800000000) + row * 64 + l);
    for (uint32_t row = 0; row < k->total_rows; row++) {
        uint64_t all[IR_WARP_SIZE];
        kload_reg_read_all(regs, k->row_at[row], all);
        for (unsigned l = 0; l < IR_WARP_SIZE; l++) {
            uint64_t want = UINT64_C(0x1234567800000000) + row * 64 + l;
            if (!wide[row])
                want &= 0xffffffffu;
            g_assert_cmphex(kload_reg_get(regs, k->row_at[row], l), ==, want);
            g_assert_cmphex(all[l], ==, want);
        }
    }
    /* A whole narrow row written at once keeps each lane's masked low bits (a predicate's 1). */
    uint64_t v[IR_WARP_SIZE];
    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
        v[l] = UINT64_C(0xabcdef0100000000) + 2 * l + (l & 1);
    for (uint32_t row = 0; row < k->total_rows; row++) {
        if (wide[row])
            continue;
        kload_reg_write_all_narrow(regs, k->row_at[row], v, 1);
        for (unsigned l = 0; l < IR_WARP_SIZE; l++)
            g_assert_cmphex(kload_reg_get(regs, k->row_at[row], l), ==, l & 1);
        kload_reg_write_all_narrow(regs, k->row_at[row], v, UINT32_MAX);
        for (unsigned l = 0; l < IR_WARP_SIZE; l++)
            g_assert_cmphex(kload_reg_get(regs, k->row_at[row], l), ==, 2 * l + (l & 1));
    }
    g_free(regs);
    g_free(wide);
}

static void test_register_rows(void)
{
    /* Code as parsed: one row per virtual register (the slot itself). */
    rig r;
    rig_init(&r, rows_ptx);
    g_assert_cmpuint(r.k->total_rows, ==, r.k->total_regs);
    for (uint32_t s = 0; s < r.k->total_regs; s++)
        g_assert_cmpuint(r.k->slot_row[s], ==, s);
    check_row_widths(r.k);
    rig_free(&r);

    /* Register-allocated code: rows by physical register and width (R0's row of 32-bit values, its
     * row of wider ones, R1's, ...; each only when used), then predicates, per function; virtual
     * registers of one width sharing a physical register share its row. */
    GError *gerr = NULL;
    r.m = ptx_parse_string(rows_ptx, -1, "test.ptx", &gerr);
    g_assert_no_error(gerr);
    regalloc_module(r.m, NULL);
    r.mem = fmem_new();
    r.err = g_string_new(NULL);
    r.k = kload_module_new(r.m, r.mem, r.err);
    g_assert_nonnull(r.k);
    uint32_t want_rows = 0, shared = 0, both = 0;
    for (guint f = 0; f < r.m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(r.m->funcs, f);
        const kload_func *kf = &r.k->funcs[f];
        g_assert_true(kf->rows == r.k->slot_row + kf->reg_base);
        /* (physical register, wide) pairs in use, in order, numbered from the function's first row */
        uint32_t *pair_row = g_new(uint32_t, 2 * (size_t)fn->n_phys_regs + 1);
        for (uint32_t i = 0; i < 2 * fn->n_phys_regs; i++)
            pair_row[i] = IR_NONE;
        for (uint32_t v = 0; v < kf->n_regs; v++) {
            const ir_reg *g = &g_array_index(fn->regs, ir_reg, v);
            unsigned bits = ir_type_bits(g->type);
            if (g->phys != IR_NONE && g->type != IR_T_PRED)
                pair_row[2 * g->phys + (bits == 0 || bits > 32)] = 0;
        }
        uint32_t next = want_rows, unallocated = 0;
        for (uint32_t i = 0; i < 2 * fn->n_phys_regs; i++)
            if (pair_row[i] != IR_NONE)
                pair_row[i] = next++;
        for (uint32_t i = 0; i < fn->n_phys_regs; i++)
            both += pair_row[2 * i] != IR_NONE && pair_row[2 * i + 1] != IR_NONE;
        uint32_t preds = next;
        for (uint32_t v = 0; v < kf->n_regs; v++) {
            const ir_reg *g = &g_array_index(fn->regs, ir_reg, v);
            if (g->phys == IR_NONE) { /* never referenced: the function's spare row */
                g_assert_cmpuint(kf->rows[v], ==, preds + fn->n_phys_preds);
                unallocated = 1;
                continue;
            }
            unsigned bits = ir_type_bits(g->type);
            uint32_t want = g->type == IR_T_PRED ? preds + g->phys : pair_row[2 * g->phys + (bits == 0 || bits > 32)];
            g_assert_cmpuint(kf->rows[v], ==, want);
            for (uint32_t u = 0; u < v; u++)
                shared += kf->rows[u] == kf->rows[v];
        }
        want_rows = preds + fn->n_phys_preds + unallocated;
        g_free(pair_row);
    }
    g_assert_cmpuint(shared, >, 0); /* the chain's values share registers */
    g_assert_cmpuint(both, >, 0);   /* and a physical register holds values of both widths */
    g_assert_cmpuint(r.k->total_rows, ==, want_rows);
    g_assert_cmpuint(r.k->total_rows, <, r.k->total_regs);
    check_row_widths(r.k);
    rig_free(&r);
}

static void test_recursion(void)
{
    rig r;
    rig_init(&r, ".version 7.0\n.target sm_70\n.address_size 64\n"
                 ".func a();\n"
                 ".func b()\n{\n\tcall.uni a, ();\n\tret;\n}\n"
                 ".func a()\n{\n\tcall.uni b, ();\n\tret;\n}\n"
                 ".func leaf()\n{\n\tret;\n}\n"
                 ".visible .entry k()\n{\n\tcall.uni a, ();\n\tcall.uni leaf, ();\n\tret;\n}\n");
    uint32_t a = ir_module_func_index(r.m, "a"), b = ir_module_func_index(r.m, "b");
    uint32_t leaf = ir_module_func_index(r.m, "leaf"), k = ir_module_func_index(r.m, "k");
    g_assert_true(r.k->funcs[a].recursive);
    g_assert_true(r.k->funcs[b].recursive);
    g_assert_false(r.k->funcs[leaf].recursive);
    g_assert_false(r.k->funcs[k].recursive);
    rig_free(&r);
}

static void test_generic_map(void)
{
    uint64_t a;
    g_assert_cmpint(kload_generic_resolve(KLOAD_SHARED_WINDOW + 40, &a), ==, IR_SPACE_SHARED);
    g_assert_cmpuint(a, ==, 40);
    g_assert_cmpint(kload_generic_resolve(KLOAD_LOCAL_WINDOW + KLOAD_WINDOW_SIZE - 1, &a), ==,
                    IR_SPACE_LOCAL);
    g_assert_cmpuint(a, ==, KLOAD_WINDOW_SIZE - 1);
    g_assert_cmpint(kload_generic_resolve(KLOAD_LOCAL_WINDOW + KLOAD_WINDOW_SIZE, &a), ==, IR_SPACE_GLOBAL);
    g_assert_cmpint(kload_generic_resolve(FMEM_ALLOC_BASE, &a), ==, IR_SPACE_GLOBAL);
    g_assert_cmpuint(a, ==, FMEM_ALLOC_BASE);
    g_assert_cmpint(kload_generic_resolve(KLOAD_CONST_BASE + 8, &a), ==, IR_SPACE_GLOBAL);
    g_assert_cmpint(kload_generic_resolve(KLOAD_SHARED_WINDOW - 1, &a), ==, IR_SPACE_GLOBAL);
    uint64_t b;
    g_assert_true(kload_cvta_base(IR_SPACE_SHARED, &b));
    g_assert_cmpuint(b, ==, KLOAD_SHARED_WINDOW);
    g_assert_true(kload_cvta_base(IR_SPACE_CONST, &b));
    g_assert_cmpuint(b, ==, 0);
    g_assert_false(kload_cvta_base(IR_SPACE_PARAM, &b));
    /* The windows do not overlap the allocation range or the module data. */
    g_assert_cmpuint(FMEM_ALLOC_LIMIT, <=, KLOAD_SHARED_WINDOW);
    g_assert_cmpuint(KLOAD_CONST_BASE + KLOAD_SEG_LIMIT, <=, KLOAD_GLOBALS_BASE);
    g_assert_cmpuint(KLOAD_GLOBALS_BASE + KLOAD_SEG_LIMIT, <=, FMEM_ALLOC_BASE);
}

static void test_resolve(void)
{
    fmem *m = fmem_new();
    uint64_t g = fmem_alloc(m, 64);
    g_assert_true(fmem_map(m, KLOAD_CONST_BASE, 16, true, "module .const"));
    uint8_t sh[32], lo[16], cp[8], kp[8];
    kload_spaces sp = {.global = m,
                       .shared = {sh, sizeof sh},
                       .local = {lo, sizeof lo},
                       .cparam = {cp, sizeof cp},
                       .kparam = {kp, sizeof kp}};
    GString *why = g_string_new(NULL);
    g_assert_true(kload_resolve(&sp, IR_SPACE_SHARED, 28, 4, true, NULL) == sh + 28);
    g_assert_null(kload_resolve(&sp, IR_SPACE_SHARED, 29, 4, false, why));
    g_assert_nonnull(strstr(why->str, "outside the CTA's 32 bytes of shared memory"));
    g_assert_true(kload_resolve(&sp, IR_SPACE_NONE, KLOAD_SHARED_WINDOW + 4, 4, true, NULL) == sh + 4);
    g_assert_true(kload_resolve(&sp, IR_SPACE_NONE, KLOAD_LOCAL_WINDOW + 8, 8, true, NULL) == lo + 8);
    g_assert_true(kload_resolve(&sp, IR_SPACE_LOCAL, 12, 4, false, NULL) == lo + 12);
    g_string_truncate(why, 0);
    g_assert_null(kload_resolve(&sp, IR_SPACE_LOCAL, 16, 1, false, why));
    g_assert_nonnull(strstr(why->str, "16 bytes of local memory"));
    g_assert_nonnull(kload_resolve(&sp, IR_SPACE_GLOBAL, g + 60, 4, true, NULL));
    g_assert_nonnull(kload_resolve(&sp, IR_SPACE_NONE, g, 8, true, NULL));
    g_string_truncate(why, 0);
    g_assert_null(kload_resolve(&sp, IR_SPACE_NONE, g + 64, 4, false, why));
    g_assert_nonnull(strstr(why->str, "unmapped address"));
    g_assert_nonnull(kload_resolve(&sp, IR_SPACE_CONST, KLOAD_CONST_BASE, 4, false, NULL));
    g_assert_null(kload_resolve(&sp, IR_SPACE_CONST, KLOAD_CONST_BASE, 4, true, NULL));
    g_assert_true(kload_resolve(&sp, IR_SPACE_PARAM, 4, 4, false, NULL) == kp + 4);
    g_string_truncate(why, 0);
    g_assert_null(kload_resolve(&sp, IR_SPACE_PARAM, 4, 4, true, why));
    g_assert_nonnull(strstr(why->str, "read-only"));
    g_assert_true(kload_resolve(&sp, IR_SPACE_PARAM, KLOAD_CPARAM_BASE + 4, 4, true, NULL) == cp + 4);
    g_assert_null(kload_resolve(&sp, IR_SPACE_PARAM, KLOAD_CPARAM_BASE + 8, 1, false, NULL));
    g_assert_null(kload_resolve(&sp, IR_SPACE_REG, 0, 4, false, NULL));
    g_string_free(why, TRUE);
    fmem_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/kload/param-layout-and-pack", test_param_layout_and_pack);
    g_test_add_func("/kload/pack-errors", test_pack_errors);
    g_test_add_func("/kload/module-data", test_module_data);
    g_test_add_func("/kload/address-initialisers", test_address_initialisers);
    g_test_add_func("/kload/shared-local-layout", test_shared_local_layout);
    g_test_add_func("/kload/recursion", test_recursion);
    g_test_add_func("/kload/register-rows", test_register_rows);
    g_test_add_func("/kload/generic-map", test_generic_map);
    g_test_add_func("/kload/resolve", test_resolve);
    return g_test_run();
}
