/* ir.c — the kernel IR: names, construction and destruction, lookups, static facts, printing. */
#include "kernels/frontend/ir.h"
#include "kernels/frontend/spu_isa.h"

#include <inttypes.h>
#include <string.h>

/* ---- names ------------------------------------------------------------------------------------ */
static const char *const type_names[IR_T_COUNT] = {
    "",    "pred", "b8", "b16", "b32", "b64", "b128", "u8",  "u16",
    "u32", "u64",  "s8", "s16", "s32", "s64", "f16",  "f32", "f64",
};
static const unsigned type_bits[IR_T_COUNT] = {
    0, 1, 8, 16, 32, 64, 128, 8, 16, 32, 64, 8, 16, 32, 64, 16, 32, 64,
};

unsigned ir_type_bits(ir_type t)
{
    return (unsigned)t < IR_T_COUNT ? type_bits[t] : 0;
}

bool ir_type_is_float(ir_type t)
{
    return t == IR_T_F16 || t == IR_T_F32 || t == IR_T_F64;
}

bool ir_type_is_signed(ir_type t)
{
    return t >= IR_T_S8 && t <= IR_T_S64;
}

const char *ir_type_name(ir_type t)
{
    return (unsigned)t < IR_T_COUNT ? type_names[t] : "?";
}

ir_type ir_type_from_name(const char *name)
{
    for (unsigned t = 1; t < IR_T_COUNT; t++)
        if (strcmp(name, type_names[t]) == 0)
            return (ir_type)t;
    return IR_T_NONE;
}

const char *ir_space_name(ir_space s)
{
    static const char *const names[IR_SPACE_COUNT] = {"",       "reg",   "param", "global",
                                                      "shared", "local", "const"};
    return (unsigned)s < IR_SPACE_COUNT ? names[s] : "?";
}

const char *ir_op_name(ir_opcode op)
{
    static const char *const names[IR_OP_COUNT] = {
#define IR_OP_NAME(e, s) s,
        IR_OPCODES(IR_OP_NAME)
#undef IR_OP_NAME
    };
    return (unsigned)op < IR_OP_COUNT ? names[op] : "?";
}

const char *ir_class_name(ir_class c)
{
    static const char *const names[IR_CLASS_COUNT] = {"alu", "int",  "sfu",  "dp",
                                                      "mem", "ctrl", "sync", "warp"};
    return (unsigned)c < IR_CLASS_COUNT ? names[c] : "?";
}

const char *ir_sreg_name(ir_sreg s)
{
    static const char *const names[IR_SREG_COUNT] = {
        "tid",
        "ntid",
        "ctaid",
        "nctaid",
        "laneid",
        "warpid",
        "nwarpid",
        "smid",
        "nsmid",
        "gridid",
        "clock",
        "clock64",
        "globaltimer",
        "lanemask_eq",
        "lanemask_le",
        "lanemask_lt",
        "lanemask_ge",
        "lanemask_gt",
        "dynamic_smem_size",
        "total_smem_size",
        "regpassx", "regpassy", "regcpassx", "regcpassy", "regspillnb", "regcspillnb", "regviu", "regiudir",
        "regiuid", "reglast",
    };
    return (unsigned)s < IR_SREG_COUNT ? names[s] : "?";
}

/* ---- construction, destruction, lookups -------------------------------------------------------- */
ir_module *ir_module_new(const char *filename)
{
    ir_module *m = g_new0(ir_module, 1);
    m->filename = g_strdup(filename ? filename : "<input>");
    m->funcs = g_ptr_array_new();
    m->syms = g_array_new(FALSE, TRUE, sizeof(ir_sym));
    m->address_size = 64;
    return m;
}

static void ir_params_free(GArray *a)
{
    if (!a)
        return;
    for (guint i = 0; i < a->len; i++)
        g_free(g_array_index(a, ir_param, i).name);
    g_array_free(a, TRUE);
}

static void ir_func_free(ir_func *f)
{
    if (f->analysis && f->analysis_free)
        f->analysis_free(f->analysis);
    g_free(f->name);
    ir_params_free(f->params);
    ir_params_free(f->rets);
    if (f->regs) {
        for (guint i = 0; i < f->regs->len; i++)
            g_free(g_array_index(f->regs, ir_reg, i).name);
        g_array_free(f->regs, TRUE);
    }
    if (f->instrs)
        g_array_free(f->instrs, TRUE);
    if (f->blocks) {
        for (guint i = 0; i < f->blocks->len; i++) {
            ir_block *b = &g_array_index(f->blocks, ir_block, i);
            if (b->succ)
                g_array_free(b->succ, TRUE);
            if (b->pred)
                g_array_free(b->pred, TRUE);
        }
        g_array_free(f->blocks, TRUE);
    }
    if (f->scopes)
        g_array_free(f->scopes, TRUE);
    g_free(f);
}

void ir_module_free(ir_module *m)
{
    if (!m)
        return;
    for (guint i = 0; i < m->funcs->len; i++)
        ir_func_free(g_ptr_array_index(m->funcs, i));
    g_ptr_array_free(m->funcs, TRUE);
    for (guint i = 0; i < m->syms->len; i++) {
        ir_sym *s = &g_array_index(m->syms, ir_sym, i);
        g_free(s->name);
        g_free(s->init);
        if (s->init_addrs)
            g_array_free(s->init_addrs, TRUE);
    }
    g_array_free(m->syms, TRUE);
    g_free(m->filename);
    g_free(m->version);
    g_free(m->target);
    g_free(m);
}

uint32_t ir_module_func_index(const ir_module *m, const char *name)
{
    for (guint i = 0; i < m->funcs->len; i++)
        if (strcmp(((ir_func *)g_ptr_array_index(m->funcs, i))->name, name) == 0)
            return i;
    return IR_NONE;
}

ir_func *ir_module_find_func(const ir_module *m, const char *name)
{
    uint32_t i = ir_module_func_index(m, name);
    return i == IR_NONE ? NULL : g_ptr_array_index(m->funcs, i);
}

/* Function scope first (the first declaration if call sequences repeat a name), then module scope. */
uint32_t ir_module_find_sym(const ir_module *m, uint32_t func, const char *name)
{
    uint32_t module_hit = IR_NONE;
    for (guint i = 0; i < m->syms->len; i++) {
        const ir_sym *s = &g_array_index(m->syms, ir_sym, i);
        if (strcmp(s->name, name) != 0)
            continue;
        if (func != IR_NONE && s->func == func)
            return i;
        if (s->func == IR_NONE && module_hit == IR_NONE)
            module_hit = i;
    }
    return module_hit;
}

uint32_t ir_func_find_reg(const ir_func *f, const char *name)
{
    for (guint i = 0; f->regs && i < f->regs->len; i++)
        if (strcmp(g_array_index(f->regs, ir_reg, i).name, name) == 0)
            return i;
    return IR_NONE;
}

/* ---- static facts ---------------------------------------------------------------------------- */
static bool type_is_int(ir_type t)
{
    return t >= IR_T_B8 && t <= IR_T_S64;
}

ir_class ir_instr_class(const ir_instr *in)
{
    ir_type t = (ir_type)in->type;
    switch ((ir_opcode)in->op) {
    case IR_OP_LD:
    case IR_OP_LDU:
    case IR_OP_ST:
    case IR_OP_ATOM:
    case IR_OP_RED:
    case IR_OP_PREFETCH:
        return IR_CLASS_MEM;
    case IR_OP_BRA:
    case IR_OP_CALL:
    case IR_OP_RET:
    case IR_OP_EXIT:
    case IR_OP_TRAP:
    case IR_OP_BRKPT:
        return IR_CLASS_CTRL;
    case IR_OP_BAR:
    case IR_OP_BARRIER:
    case IR_OP_MEMBAR:
    case IR_OP_FENCE:
    case IR_OP_NANOSLEEP:
    case IR_OP_BLOCKSYNC:
    case IR_OP_RELSSP:
        return IR_CLASS_SYNC;
    case IR_OP_SHFL:
    case IR_OP_VOTE:
    case IR_OP_ACTIVEMASK:
        return IR_CLASS_WARP;
    default:
        break;
    }
    if (t == IR_T_F64 || (in->op == IR_OP_CVT && in->type2 == IR_T_F64))
        return IR_CLASS_DP;
    switch ((ir_opcode)in->op) {
    case IR_OP_RCP:
    case IR_OP_SQRT:
    case IR_OP_RSQRT:
    case IR_OP_EX2:
    case IR_OP_LG2:
    case IR_OP_SIN:
    case IR_OP_COS:
    case IR_OP_TANH:
        return IR_CLASS_SFU;
    case IR_OP_DIV: /* a float division is a reciprocal (SFU) plus refinement */
        return ir_type_is_float(t) ? IR_CLASS_SFU : IR_CLASS_INT;
    case IR_OP_MUL:
    case IR_OP_MAD:
    case IR_OP_MUL24:
    case IR_OP_MAD24:
    case IR_OP_MADC:
    case IR_OP_SAD:
        return type_is_int(t) ? IR_CLASS_INT : IR_CLASS_ALU;
    case IR_OP_REM:
    case IR_OP_POPC:
    case IR_OP_CLZ:
    case IR_OP_BFIND:
    case IR_OP_BREV:
    case IR_OP_BFE:
    case IR_OP_BFI:
        return IR_CLASS_INT;
    default:
        return IR_CLASS_ALU;
    }
}

bool ir_instr_is_branch(const ir_instr *in)
{
    return in->op == IR_OP_BRA;
}

bool ir_instr_ends_block(const ir_instr *in)
{
    return in->op == IR_OP_BRA || in->op == IR_OP_RET || in->op == IR_OP_EXIT || in->op == IR_OP_TRAP;
}

static unsigned push_reg(uint32_t *out, unsigned n, unsigned max, uint32_t r)
{
    if (r != IR_NONE && n < max)
        out[n++] = r;
    return n;
}

static unsigned push_operand_regs(const ir_operand *o, uint32_t *out, unsigned n, unsigned max)
{
    switch (o->kind) {
    case IR_OPND_REG:
        return push_reg(out, n, max, o->u.reg);
    case IR_OPND_MEM:
        return push_reg(out, n, max, o->u.mem.base_reg);
    case IR_OPND_VEC:
        for (unsigned k = 0; k < o->comp && k < 4; k++)
            n = push_reg(out, n, max, o->u.vec_regs[k]);
        return n;
    default:
        return n;
    }
}

unsigned ir_instr_uses(const ir_instr *in, uint32_t *out, unsigned max)
{
    unsigned n = 0;
    if (in->guard != IR_NONE)
        n = push_reg(out, n, max, in->guard);
    for (unsigned i = 0; i < in->n_src && i < IR_MAX_SRC; i++)
        n = push_operand_regs(&in->src[i], out, n, max);
    /* A destination memory operand does not exist (st keeps its address in src[0]). */
    return n;
}

unsigned ir_instr_defs(const ir_instr *in, uint32_t *out, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < in->n_dst && i < IR_MAX_DST; i++)
        if (in->dst[i].kind == IR_OPND_REG || in->dst[i].kind == IR_OPND_VEC)
            n = push_operand_regs(&in->dst[i], out, n, max);
    return n;
}

static ir_type type_wide(ir_type t)
{
    switch (t) {
    case IR_T_U16:
        return IR_T_U32;
    case IR_T_U32:
        return IR_T_U64;
    case IR_T_S16:
        return IR_T_S32;
    case IR_T_S32:
        return IR_T_S64;
    case IR_T_B16:
        return IR_T_B32;
    case IR_T_B32:
        return IR_T_B64;
    default:
        return t;
    }
}

ir_type ir_instr_src_type(const ir_instr *in, unsigned i)
{
    ir_type t = (ir_type)in->type;
    if (i < IR_MAX_SRC && in->src[i].kind == IR_OPND_MEM)
        return IR_T_NONE;
    switch ((ir_opcode)in->op) {
    case IR_OP_CVT:
        return (ir_type)in->type2;
    case IR_OP_SETP:
    case IR_OP_SET:
    case IR_OP_SELP:
        return i == 2 ? IR_T_PRED : t;
    case IR_OP_SLCT:
        return i == 2 ? (ir_type)in->type2 : t;
    case IR_OP_SHL:
    case IR_OP_SHR:
        return i == 1 ? IR_T_U32 : t;
    case IR_OP_SHF:
        return i == 2 ? IR_T_U32 : t;
    case IR_OP_BFE:
        return i >= 1 ? IR_T_U32 : t;
    case IR_OP_BFI:
        return i >= 2 ? IR_T_U32 : t;
    case IR_OP_MAD:
        return i == 2 && (in->flags & IR_F_WIDE) ? type_wide(t) : t;
    case IR_OP_SHFL:
        return IR_T_B32;
    case IR_OP_VOTE:
        return i == 0 ? IR_T_PRED : IR_T_B32;
    case IR_OP_BAR:
    case IR_OP_BARRIER:
        return (in->sub == IR_BAR_RED_POPC || in->sub == IR_BAR_RED_AND || in->sub == IR_BAR_RED_OR) &&
                       i + 1 == in->n_src
                   ? IR_T_PRED
                   : IR_T_U32;
    case IR_OP_NANOSLEEP:
        return IR_T_U32;
    case IR_OP_PRMT:
        return IR_T_B32;
    default:
        return t;
    }
}

ir_type ir_instr_dst_type(const ir_instr *in, unsigned i)
{
    ir_type t = (ir_type)in->type;
    switch ((ir_opcode)in->op) {
    case IR_OP_SET:
        return (ir_type)in->type2;
    case IR_OP_SETP:
    case IR_OP_TESTP:
        return IR_T_PRED;
    case IR_OP_MUL:
    case IR_OP_MAD:
        return (in->flags & IR_F_WIDE) ? type_wide(t) : t;
    case IR_OP_POPC:
    case IR_OP_CLZ:
    case IR_OP_BFIND:
        return IR_T_U32;
    case IR_OP_SHFL:
        return i == 1 ? IR_T_PRED : IR_T_B32;
    case IR_OP_VOTE:
        return in->sub == IR_VOTE_BALLOT ? IR_T_B32 : IR_T_PRED;
    case IR_OP_ACTIVEMASK:
        return IR_T_B32;
    default:
        return t;
    }
}

/* ---- printing ---------------------------------------------------------------------------------- */
static const char *reg_name(const ir_func *f, uint32_t r)
{
    if (!f || !f->regs || r == IR_NONE || r >= f->regs->len)
        return "%?";
    return g_array_index(f->regs, ir_reg, r).name;
}

static const char *sym_name(const ir_module *m, uint32_t s)
{
    if (!m || s == IR_NONE || s >= m->syms->len)
        return "?";
    return g_array_index(m->syms, ir_sym, s).name;
}

static void print_imm(GString *s, uint64_t v, ir_type t)
{
    if (t == IR_T_F32)
        g_string_append_printf(s, "0f%08" PRIX32, (uint32_t)v);
    else if (t == IR_T_F64)
        g_string_append_printf(s, "0d%016" PRIX64, v);
    else
        g_string_append_printf(s, "%" PRId64, (int64_t)v);
}

static void print_operand_typed(GString *s, const ir_module *m, const ir_func *f, const ir_operand *o,
                                ir_type t)
{
    if (o->neg)
        g_string_append_c(s, '!');
    switch (o->kind) {
    case IR_OPND_REG:
        g_string_append(s, reg_name(f, o->u.reg));
        break;
    case IR_OPND_IMM:
        print_imm(s, o->u.imm, t);
        break;
    case IR_OPND_SREG:
        g_string_append_printf(s, "%%%s", ir_sreg_name((ir_sreg)o->u.sreg));
        if (o->u.sreg <= IR_SREG_NCTAID)
            g_string_append_printf(s, ".%c", "xyz?"[o->comp < 3 ? o->comp : 3]);
        break;
    case IR_OPND_ADDR:
        g_string_append(s, sym_name(m, o->u.mem.base_sym));
        if (o->u.mem.offset)
            g_string_append_printf(s, "+%" PRId64, o->u.mem.offset);
        break;
    case IR_OPND_MEM:
        g_string_append_c(s, '[');
        if (o->u.mem.base_reg != IR_NONE)
            g_string_append(s, reg_name(f, o->u.mem.base_reg));
        else if (o->u.mem.base_sym != IR_NONE)
            g_string_append(s, sym_name(m, o->u.mem.base_sym));
        if (o->u.mem.base_reg == IR_NONE && o->u.mem.base_sym == IR_NONE)
            g_string_append_printf(s, "%" PRId64, o->u.mem.offset);
        else if (o->u.mem.offset)
            g_string_append_printf(s, "+%" PRId64, o->u.mem.offset);
        g_string_append_c(s, ']');
        break;
    case IR_OPND_LABEL:
        g_string_append_printf(s, "$L__%u", o->u.target);
        break;
    case IR_OPND_VEC:
        g_string_append_c(s, '{');
        for (unsigned k = 0; k < o->comp && k < 4; k++) {
            if (k)
                g_string_append(s, ", ");
            g_string_append(s, o->u.vec_regs[k] == IR_NONE ? "_" : reg_name(f, o->u.vec_regs[k]));
        }
        g_string_append_c(s, '}');
        break;
    case IR_OPND_FUNC:
        if (m && o->u.func < m->funcs->len)
            g_string_append(s, ((ir_func *)g_ptr_array_index(m->funcs, o->u.func))->name);
        else
            g_string_append(s, "?");
        break;
    case IR_OPND_SYM:
        g_string_append(s, sym_name(m, o->u.sym));
        break;
    default:
        g_string_append(s, "<none>");
        break;
    }
}

void ir_print_operand(GString *s, const ir_module *m, const ir_func *f, const ir_instr *in,
                      const ir_operand *o)
{
    ir_type t = in ? (ir_type)in->type : IR_T_NONE;
    if (in) {
        for (unsigned i = 0; i < in->n_src && i < IR_MAX_SRC; i++)
            if (o == &in->src[i])
                t = ir_instr_src_type(in, i);
        for (unsigned i = 0; i < in->n_dst && i < IR_MAX_DST; i++)
            if (o == &in->dst[i])
                t = ir_instr_dst_type(in, i);
    }
    print_operand_typed(s, m, f, o, t);
}

static const char *round_name(unsigned r)
{
    static const char *const n[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
    return r < G_N_ELEMENTS(n) ? n[r] : "?";
}

static const char *cmp_name(unsigned c)
{
    static const char *const n[] = {"",   "eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls", "hi",
                                    "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    return c < G_N_ELEMENTS(n) ? n[c] : "?";
}

static const char *atom_name(unsigned a)
{
    static const char *const n[] = {"", "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"};
    return a < G_N_ELEMENTS(n) ? n[a] : "?";
}

static const char *scope_name(unsigned s)
{
    static const char *const n[] = {"", "cta", "gpu", "sys"};
    return s < G_N_ELEMENTS(n) ? n[s] : "?";
}

/* The mode word(s) kept in `sub`, as written after the opcode. */
static const char *sub_name(const ir_instr *in)
{
    unsigned v = in->sub;
    switch ((ir_opcode)in->op) {
    case IR_OP_SHFL: {
        static const char *const n[] = {"", "up", "down", "bfly", "idx"};
        return v < G_N_ELEMENTS(n) ? n[v] : "?";
    }
    case IR_OP_VOTE: {
        static const char *const n[] = {"", "all", "any", "uni", "ballot"};
        return v < G_N_ELEMENTS(n) ? n[v] : "?";
    }
    case IR_OP_BAR:
    case IR_OP_BARRIER: {
        static const char *const n[] = {"", "sync", "arrive", "red.popc", "red.and", "red.or", "warp.sync"};
        return v < G_N_ELEMENTS(n) ? n[v] : "?";
    }
    case IR_OP_TESTP: {
        static const char *const n[] = {"",           "finite", "infinite", "number",
                                        "notanumber", "normal", "subnormal"};
        return v < G_N_ELEMENTS(n) ? n[v] : "?";
    }
    case IR_OP_SHF: {
        static const char *const n[] = {"", "l.clamp", "l.wrap", "r.clamp", "r.wrap"};
        return v < G_N_ELEMENTS(n) ? n[v] : "?";
    }
    case IR_OP_PRMT: {
        static const char *const n[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        return v < G_N_ELEMENTS(n) ? n[v] : "?";
    }
    case IR_OP_BLOCKSYNC:
        return spu_dir_name(v);
    case IR_OP_MEMBAR:
        return v == IR_SCOPE_GPU ? "gl" : scope_name(v);
    case IR_OP_FENCE:
    case IR_OP_ATOM:
    case IR_OP_RED:
    case IR_OP_LD:
    case IR_OP_ST:
        return scope_name(v);
    default:
        return "";
    }
}

static void add_mod(GString *s, const char *mod)
{
    if (mod && *mod) {
        g_string_append_c(s, '.');
        g_string_append(s, mod);
    }
}

static void print_opcode(GString *s, const ir_instr *in)
{
    uint32_t fl = in->flags;
    g_string_append(s, ir_op_name((ir_opcode)in->op));
    bool sem_first = in->op == IR_OP_LD || in->op == IR_OP_ST || in->op == IR_OP_ATOM ||
                     in->op == IR_OP_RED || in->op == IR_OP_FENCE;
    if (in->op == IR_OP_BAR || in->op == IR_OP_BARRIER) {
        add_mod(s, sub_name(in));
        if (fl & IR_F_ALIGNED)
            add_mod(s, "aligned");
    } else if (!sem_first) {
        if (fl & IR_F_SYNC)
            add_mod(s, "sync");
        add_mod(s, sub_name(in));
        if (fl & IR_F_SHIFTAMT)
            add_mod(s, "shiftamt");
    }
    if (fl & IR_F_UNI)
        add_mod(s, "uni");
    if (fl & IR_F_VOLATILE)
        add_mod(s, "volatile");
    if (fl & IR_F_SC)
        add_mod(s, "sc");
    if (fl & IR_F_RELAXED)
        add_mod(s, "relaxed");
    if (fl & IR_F_ACQUIRE)
        add_mod(s, "acquire");
    if (fl & IR_F_RELEASE)
        add_mod(s, "release");
    if (fl & IR_F_ACQ_REL)
        add_mod(s, "acq_rel");
    if (sem_first)
        add_mod(s, sub_name(in));
    if (fl & IR_F_TO)
        add_mod(s, "to");
    if (in->op != IR_OP_MEMBAR && in->op != IR_OP_FENCE)
        add_mod(s, in->cb ? spu_isa_space_name(in) : ir_space_name((ir_space)in->space));
    if (fl & IR_F_NC)
        add_mod(s, "nc");
    add_mod(s, cmp_name(in->cmp));
    static const char *const bools[] = {"", "and", "or", "xor"};
    add_mod(s, in->boolop < 4 ? bools[in->boolop] : "?");
    add_mod(s, atom_name(in->atom));
    if (fl & IR_F_HI)
        add_mod(s, "hi");
    if (fl & IR_F_LO)
        add_mod(s, "lo");
    if (fl & IR_F_WIDE)
        add_mod(s, "wide");
    if (fl & IR_F_CC)
        add_mod(s, "cc");
    add_mod(s, round_name(in->rnd));
    if (fl & IR_F_APPROX)
        add_mod(s, "approx");
    if (fl & IR_F_FULL)
        add_mod(s, "full");
    if (fl & IR_F_FTZ)
        add_mod(s, "ftz");
    if (fl & IR_F_NOFTZ)
        add_mod(s, "noftz");
    if (fl & IR_F_NAN)
        add_mod(s, "NaN");
    if (fl & IR_F_SAT)
        add_mod(s, "sat");
    if (in->vec == 2 || in->vec == 4)
        g_string_append_printf(s, ".v%u", in->vec);
    /* set: dst type then comparison type; cvt: dst then src; slct: data then selector. */
    if (in->op == IR_OP_SET) {
        add_mod(s, ir_type_name((ir_type)in->type2));
        add_mod(s, ir_type_name((ir_type)in->type));
    } else {
        add_mod(s, ir_type_name((ir_type)in->type));
        add_mod(s, ir_type_name((ir_type)in->type2));
    }
}

static void print_call(GString *s, const ir_module *m, const ir_func *f, const ir_instr *in)
{
    g_string_append_c(s, ' ');
    if (in->call_n_ret) {
        g_string_append_c(s, '(');
        for (unsigned k = 0; k < in->call_n_ret && k < 4; k++)
            g_string_append_printf(s, "%s%s", k ? ", " : "", sym_name(m, in->call_ret[k]));
        g_string_append(s, "), ");
    }
    if (in->n_src)
        print_operand_typed(s, m, f, &in->src[0], IR_T_NONE);
    g_string_append(s, ", (");
    for (unsigned k = 0; k < in->call_n_args && k < 16; k++)
        g_string_append_printf(s, "%s%s", k ? ", " : "", sym_name(m, in->call_args[k]));
    g_string_append_c(s, ')');
}

void ir_print_instr(GString *s, const ir_module *m, const ir_func *f, const ir_instr *in)
{
    if (in->guard != IR_NONE)
        g_string_append_printf(s, "@%s%s ", in->guard_neg ? "!" : "", reg_name(f, in->guard));
    print_opcode(s, in);
    if (in->op == IR_OP_CALL) {
        print_call(s, m, f, in);
        g_string_append_c(s, ';');
        return;
    }
    bool first = true;
    for (unsigned i = 0; i < in->n_dst && i < IR_MAX_DST; i++) {
        g_string_append(s, i ? "|" : " ");
        print_operand_typed(s, m, f, &in->dst[i], ir_instr_dst_type(in, i));
        first = false;
    }
    for (unsigned i = 0; i < in->n_src && i < IR_MAX_SRC; i++) {
        g_string_append(s, first ? " " : ", ");
        print_operand_typed(s, m, f, &in->src[i], ir_instr_src_type(in, i));
        first = false;
    }
    g_string_append_c(s, ';');
}

/* Splits "%rd12" into prefix "%rd" and number 12; false without a trailing number. */
static bool reg_split(const char *name, size_t *prefix_len, unsigned long *num)
{
    size_t n = strlen(name), k = n;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    if (k == n || n - k > 9 || (name[k] == '0' && n - k > 1))
        return false;
    *prefix_len = k;
    *num = strtoul(name + k, NULL, 10);
    return true;
}

/* Declarations of the registers of one scope, runs of %x0..%x(N-1) compacted to %x<N>. */
static void print_reg_decls(GString *s, const ir_func *f, uint32_t scope, const char *indent)
{
    guint n = f->regs ? f->regs->len : 0;
    for (guint i = 0; i < n;) {
        const ir_reg *r = &g_array_index(f->regs, ir_reg, i);
        if (r->scope != scope) {
            i++;
            continue;
        }
        size_t plen;
        unsigned long num;
        guint j = i + 1;
        if (reg_split(r->name, &plen, &num) && num == 0) {
            while (j < n) {
                const ir_reg *q = &g_array_index(f->regs, ir_reg, j);
                size_t ql;
                unsigned long qn;
                if (q->scope != scope || q->type != r->type || !reg_split(q->name, &ql, &qn) || ql != plen ||
                    strncmp(q->name, r->name, plen) != 0 || qn != j - i)
                    break;
                j++;
            }
            g_string_append_printf(s, "%s.reg .%s %.*s<%u>;\n", indent, ir_type_name((ir_type)r->type),
                                   (int)plen, r->name, j - i);
        } else {
            g_string_append_printf(s, "%s.reg .%s %s;\n", indent, ir_type_name((ir_type)r->type), r->name);
        }
        i = j;
    }
}

/* An address initialiser element: [0xFF..(]generic(name)+N[)] (see ir_init_addr). */
static void print_init_addr(GString *s, const ir_module *m, const ir_init_addr *a)
{
    if (a->mask_byte)
        g_string_append_printf(s, "0x%" PRIX64 "(", UINT64_C(0xff) << (8 * (a->mask_byte - 1)));
    const char *name = g_array_index(m->syms, ir_sym, a->sym).name;
    g_string_append_printf(s, a->generic ? "generic(%s)" : "%s", name);
    if (a->addend > 0)
        g_string_append_printf(s, "+%" PRId64, a->addend);
    else if (a->addend < 0)
        g_string_append_printf(s, "-%" PRIu64, UINT64_C(0) - (uint64_t)a->addend);
    if (a->mask_byte)
        g_string_append_c(s, ')');
}

static void print_init(GString *s, const ir_module *m, const ir_sym *sym, bool array)
{
    unsigned esz = ir_type_bits((ir_type)sym->type) / 8;
    if (esz == 0)
        esz = 1;
    uint64_t n = sym->size / esz;
    guint next_addr = 0; /* init_addrs are in element order */
    g_string_append(s, array ? " = {" : " = ");
    for (uint64_t k = 0; k < n; k++) {
        uint64_t v = 0;
        memcpy(&v, sym->init + k * esz, esz > 8 ? 8 : esz); /* little-endian host */
        if (k)
            g_string_append(s, ", ");
        if (sym->init_addrs && next_addr < sym->init_addrs->len &&
            g_array_index(sym->init_addrs, ir_init_addr, next_addr).elem == k) {
            print_init_addr(s, m, &g_array_index(sym->init_addrs, ir_init_addr, next_addr++));
            continue;
        }
        ir_type t = (ir_type)sym->type;
        if (ir_type_is_signed(t) && esz < 8) {
            unsigned sh = 64 - 8 * esz;
            v = (uint64_t)(((int64_t)(v << sh)) >> sh);
        }
        if (t == IR_T_F32 || t == IR_T_F64)
            print_imm(s, v, t);
        else if (ir_type_is_signed(t))
            g_string_append_printf(s, "%" PRId64, (int64_t)v);
        else
            g_string_append_printf(s, "%" PRIu64, v);
    }
    if (array)
        g_string_append_c(s, '}');
}

static void print_sym_decl(GString *s, const ir_module *m, const ir_sym *sym, const char *indent)
{
    unsigned esz = ir_type_bits((ir_type)sym->type) / 8;
    g_string_append(s, indent);
    if (sym->is_extern)
        g_string_append(s, ".extern ");
    if (sym->is_visible)
        g_string_append(s, ".visible ");
    g_string_append_printf(s, ".%s ", ir_space_name((ir_space)sym->space));
    if (sym->align != esz)
        g_string_append_printf(s, ".align %u ", sym->align);
    g_string_append_printf(s, ".%s %s", ir_type_name((ir_type)sym->type), sym->name);
    bool array = sym->size != esz || (sym->is_extern && sym->size == 0);
    if (sym->is_extern && sym->size == 0)
        g_string_append(s, "[]");
    else if (array)
        g_string_append_printf(s, "[%" PRIu64 "]", esz ? sym->size / esz : sym->size);
    if (sym->init)
        print_init(s, m, sym, array);
    g_string_append(s, ";\n");
}

/* Symbol i is one of f's formal parameters or return values (printed in its header, not its body);
 * f NULL (module scope): none is. */
static bool is_formal(const ir_func *f, guint i)
{
    if (!f)
        return false;
    GArray *lists[] = {f->params, f->rets};
    for (unsigned k = 0; k < G_N_ELEMENTS(lists); k++)
        for (guint j = 0; lists[k] && j < lists[k]->len; j++)
            if (g_array_index(lists[k], ir_param, j).sym == i)
                return true;
    return false;
}

static void print_scope_syms(GString *s, const ir_module *m, const ir_func *f, uint32_t func, uint32_t scope,
                             const char *indent)
{
    for (guint i = 0; i < m->syms->len; i++) {
        const ir_sym *sym = &g_array_index(m->syms, ir_sym, i);
        /* a .param of the body (a call's argument declared outside a { } block) is printed too */
        if (sym->func == func && sym->scope == scope && !(sym->space == IR_SPACE_PARAM && is_formal(f, i)))
            print_sym_decl(s, m, sym, indent);
    }
}

static void print_param_list(GString *s, GArray *ps, const char *open, const char *sep, const char *close)
{
    g_string_append(s, open);
    for (guint i = 0; ps && i < ps->len; i++) {
        const ir_param *p = &g_array_index(ps, ir_param, i);
        unsigned esz = ir_type_bits((ir_type)p->type) / 8;
        g_string_append_printf(s, "%s.param ", i ? sep : "");
        if (p->align != esz)
            g_string_append_printf(s, ".align %u ", p->align);
        g_string_append_printf(s, ".%s %s", ir_type_name((ir_type)p->type), p->name);
        if (p->size != esz)
            g_string_append_printf(s, "[%" PRIu64 "]", esz ? p->size / esz : p->size);
    }
    g_string_append(s, close);
}

static void print_func_header(GString *s, const ir_func *f)
{
    if (f->is_extern)
        g_string_append(s, ".extern ");
    if (f->is_visible)
        g_string_append(s, ".visible ");
    g_string_append(s, f->is_entry ? ".entry " : ".func ");
    if (f->rets && f->rets->len)
        print_param_list(s, f->rets, "(", ", ", ") ");
    g_string_append(s, f->name);
    print_param_list(s, f->params, "(\n\t", ",\n\t", "\n)");
    if (f->maxntid[0])
        g_string_append_printf(s, "\n.maxntid %u, %u, %u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0])
        g_string_append_printf(s, "\n.reqntid %u, %u, %u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->minnctapersm)
        g_string_append_printf(s, "\n.minnctapersm %u", f->minnctapersm);
    if (f->maxnreg)
        g_string_append_printf(s, "\n.maxnreg %u", f->maxnreg);
}

static bool func_has_body(const ir_func *f)
{
    return f->is_defined || (f->instrs && f->instrs->len > 0);
}

static uint32_t func_index(const ir_module *m, const ir_func *f)
{
    if (m)
        for (guint i = 0; i < m->funcs->len; i++)
            if (g_ptr_array_index(m->funcs, i) == f)
                return i;
    return IR_NONE;
}

static const ir_lexscope *scope_at(const ir_func *f, uint32_t k)
{
    return &g_array_index(f->scopes, ir_lexscope, k);
}

void ir_print_func(GString *s, const ir_module *m, const ir_func *f)
{
    print_func_header(s, f);
    /* Hand-built functions (tests, passes) may leave is_defined false: any instruction makes a body. */
    if (!func_has_body(f)) {
        g_string_append(s, ";\n");
        return;
    }
    g_string_append(s, "\n{\n");
    uint32_t fi = func_index(m, f);
    print_reg_decls(s, f, 0, "\t");
    if (m)
        print_scope_syms(s, m, f, fi, 0, "\t");
    uint32_t n = f->instrs ? ir_func_n_instrs(f) : 0;
    guint8 *is_target = g_new0(guint8, (gsize)n + 1);
    for (uint32_t i = 0; i < n; i++) {
        const ir_instr *in = ir_func_instr(f, i);
        for (unsigned k = 0; k < in->n_src && k < IR_MAX_SRC; k++)
            if (in->src[k].kind == IR_OPND_LABEL && in->src[k].u.target <= n)
                is_target[in->src[k].u.target] = 1;
    }
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t zero = 0, next = 1, nscopes = f->scopes ? f->scopes->len : 1;
    g_array_append_val(stack, zero);
    for (uint32_t i = 0; i <= n; i++) {
        if (is_target[i])
            g_string_append_printf(s, "$L__%u:\n", i);
        for (;;) {
            uint32_t top = g_array_index(stack, uint32_t, stack->len - 1);
            if (next < nscopes && scope_at(f, next)->first == i && scope_at(f, next)->parent == top) {
                g_string_append(s, "\t{\n");
                print_reg_decls(s, f, next, "\t");
                if (m)
                    print_scope_syms(s, m, f, fi, next, "\t");
                g_array_append_val(stack, next);
                next++;
            } else if (top != 0 && (scope_at(f, top)->end <= i || i == n)) {
                g_string_append(s, "\t}\n");
                g_array_set_size(stack, stack->len - 1);
            } else {
                break;
            }
        }
        if (i < n) {
            g_string_append_c(s, '\t');
            ir_print_instr(s, m, f, ir_func_instr(f, i));
            g_string_append_c(s, '\n');
        }
    }
    g_array_free(stack, TRUE);
    g_free(is_target);
    g_string_append(s, "}\n");
}

/* Functions come out in an order that parsing the output reproduces, so that printing is a fixpoint:
 * first a prototype of every .func (and of every bodiless .entry) in module order, then the bodies of
 * the .funcs, then the .entry bodies. Callees may then be defined after their callers. */
void ir_print_module(GString *s, const ir_module *m)
{
    g_string_append_printf(s, ".version %s\n", m->version ? m->version : "9.0");
    g_string_append_printf(s, ".target %s\n", m->target ? m->target : "sm_75");
    g_string_append_printf(s, ".address_size %u\n\n", m->address_size);
    print_scope_syms(s, m, NULL, IR_NONE, 0, "");
    for (guint i = 0; i < m->funcs->len; i++) {
        const ir_func *f = g_ptr_array_index(m->funcs, i);
        if (f->is_entry && func_has_body(f))
            continue;
        print_func_header(s, f);
        g_string_append(s, ";\n");
    }
    for (int entries = 0; entries < 2; entries++)
        for (guint i = 0; i < m->funcs->len; i++) {
            const ir_func *f = g_ptr_array_index(m->funcs, i);
            if (f->is_entry != (entries == 1) || !func_has_body(f))
                continue;
            g_string_append_c(s, '\n');
            ir_print_func(s, m, f);
        }
}
