/* decode.c — see decode.h. */
#include "models/sm/decode.h"

#include <string.h>

#include "models/lib/policy.h"
#include "models/sm/warp_exec.h"

static const char *const dec_methods[] = {"decode(function, pc) -> the decoded instruction", NULL};
const blk_iface decode_iface = {
    "decode", "instruction decode", dec_methods, {"func", "pc", "op"}, {8, 16, 8}};

static const blk_port_desc ports[] = {
    [DECODE_DEC] = {"dec", GSC_IN, NULL, BLK_CHAN_EXPORT, NULL,
                    "fetch decodes each instruction it sends (same cycle)", &decode_iface},
};

static const blk_stat_desc stats[] = {
    [DECODE_STAT_DECODED] = {"decoded", BLK_STAT_COUNTER, "instructions", "instructions decoded for a warp",
                             NULL},
    [DECODE_STAT_FIRST] = {"first_decodes", BLK_STAT_COUNTER, "instructions",
                           "distinct instructions decoded (once per launch each)", NULL},
};

const blk_desc decode_desc = {
    "decode",
    "instruction decode: class, opcode, register slots, bank registers, annotations",
    "docs/baseline-design.md §2.2 decode",
    ports,
    BLK_N(ports),
    NULL,
    0,
    stats,
    BLK_N(stats),
    NULL,
    0,
};

/* What the issue policy learns of a memory instruction from its decoded head (policy.h): the
 * global-like space is the instruction's (generic: not known before the addresses, counted in). */
static uint8_t decode_policy_flags(const ir_instr *in, uint8_t cls)
{
    if (cls != IR_CLASS_MEM)
        return 0;
    bool gl = in->space == IR_SPACE_GLOBAL || in->space == IR_SPACE_LOCAL || in->space == IR_SPACE_NONE;
    if (!gl)
        return POLICY_F_MEM;
    if (in->op == IR_OP_LD || in->op == IR_OP_LDU)
        return POLICY_F_MEM | POLICY_F_LOAD;
    if (in->op == IR_OP_ST || in->op == IR_OP_ATOM || in->op == IR_OP_RED)
        return POLICY_F_MEM | POLICY_F_STORE;
    return POLICY_F_MEM;
}

/* Decodes instruction pc of function func (pc past the end: the implicit ret). */
static void decode_instr(const decode *dc, uint32_t func, uint32_t pc, decoded_t *d)
{
    const ir_func *fn = g_ptr_array_index(dc->env->mod->funcs, func);
    memset(d, 0, sizeof *d);
    d->func = func;
    d->pc = pc;
    if (pc >= ir_func_n_instrs(fn)) { /* falling off the end: an implicit ret */
        d->cls = IR_CLASS_CTRL;
        d->op = IR_OP_RET;
        d->ctrl = 1;
        return;
    }
    const ir_instr *in = ir_func_instr(fn, pc);
    d->cls = (uint8_t)ir_instr_class(in);
    d->op = (uint8_t)in->op;
    d->ctrl = d->cls == IR_CLASS_CTRL;
    d->pflags = decode_policy_flags(in, d->cls);
    d->annot = in->annot;
    wexec_instr_regs(dc->env->k, func, in, d->src, &d->n_src, d->dst, &d->n_dst);
    wexec_instr_bank_regs(dc->env->mod, dc->env->k, func, in, d->bank_src, &d->n_bank_src, d->bank_dst,
                          &d->n_bank_dst);
}

/* Per function, its decoded instructions and whether each is filled: for one module and launch. */
struct decode_lines {
    const ir_module *mod;
    uint32_t kernel_no;
    unsigned funcs;
    decoded_line_t **line; /* per function (NULL until one of its instructions is decoded) */
    uint8_t **filled;      /* per function and PC */
    unsigned users;
};

static void lines_clear(decode_lines *l)
{
    for (unsigned i = 0; i < l->funcs; i++) {
        g_aligned_free(l->line[i]);
        g_free(l->filled[i]);
    }
    g_free(l->line);
    g_free(l->filled);
    l->line = NULL;
    l->filled = NULL;
    l->funcs = 0;
}

static void seen_clear(decode *dc)
{
    for (unsigned i = 0; i < dc->funcs; i++)
        g_free(dc->seen[i]);
    g_free(dc->seen);
    dc->seen = NULL;
    dc->funcs = 0;
}

/* This block's first call in a launch: its record of what it decoded starts again, and so do the
 * shared lines when they hold an earlier launch's (or another module's) instructions. */
static void new_launch(decode *dc)
{
    const sm_env *env = dc->env;
    decode_lines *l = dc->lines;
    if (l->funcs == 0 || l->kernel_no != env->launch.kernel_no || l->mod != env->mod) {
        lines_clear(l);
        l->mod = env->mod;
        l->funcs = env->mod->funcs->len;
        l->line = g_new0(decoded_line_t *, l->funcs);
        l->filled = g_new0(uint8_t *, l->funcs);
        l->kernel_no = env->launch.kernel_no;
    }
    seen_clear(dc);
    dc->funcs = l->funcs;
    dc->seen = g_new0(uint8_t *, dc->funcs);
    dc->kernel_no = env->launch.kernel_no;
}

/* The first time this block decodes instruction pc (of n) of func in the launch: the shared line,
 * decoded now if no block has, and the block's count of first decodes. */
static G_GNUC_NO_INLINE const decoded_t *first_decode(decode *dc, uint32_t func, uint32_t pc, unsigned n)
{
    decode_lines *l = dc->lines;
    if (!l->line[func]) {
        l->line[func] = g_aligned_alloc(n, sizeof(decoded_line_t), 64);
        l->filled[func] = g_new0(uint8_t, n);
    }
    if (!dc->seen[func])
        dc->seen[func] = g_new0(uint8_t, n);
    decoded_t *c = &l->line[func][pc].d;
    if (!l->filled[func][pc]) {
        decode_instr(dc, func, pc, c);
        l->filled[func][pc] = 1;
    }
    dc->seen[func][pc] = 1;
    blk_stat_add(dc->inst, DECODE_STAT_FIRST, 1);
    return c;
}

static const decoded_t *dec_decode(void *self, uint32_t func, uint32_t pc)
{
    decode *dc = self;
    const sm_env *env = dc->env;
    if (G_UNLIKELY(dc->funcs == 0 || dc->kernel_no != env->launch.kernel_no))
        new_launch(dc);
    g_assert(func < dc->funcs);
    const ir_func *fn = g_ptr_array_index(env->mod->funcs, func);
    unsigned n = ir_func_n_instrs(fn) + 1; /* + the implicit ret past the end */
    pc = MIN(pc, n - 1);                   /* any PC past the end is the implicit ret */
    const uint8_t *seen = dc->seen[func];
    const decoded_t *c = G_LIKELY(seen && seen[pc]) ? &dc->lines->line[func][pc].d : first_decode(dc, func, pc, n);
    blk_stat_add(dc->inst, DECODE_STAT_DECODED, 1);
    blk_call_note(dc->probe, func, pc, c->op);
    return c;
}

static const decode_if dec_table = {dec_decode};

decode *decode_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env)
{
    decode *dc = g_new0(decode, 1);
    dc->inst = blk_inst_new(ctx, parent, name, &decode_desc);
    dc->env = env;
    if (!env->dec_lines)
        env->dec_lines = g_new0(decode_lines, 1);
    dc->lines = env->dec_lines;
    dc->lines->users++;
    blk_export(dc->inst, DECODE_DEC, 0, &dec_table, dc);
    dc->probe = blk_export_probe(dc->inst, DECODE_DEC, 0);
    return dc;
}

void decode_free(decode *dc)
{
    if (!dc)
        return;
    seen_clear(dc);
    if (!--dc->lines->users) {
        if (dc->env->dec_lines == dc->lines)
            dc->env->dec_lines = NULL;
        lines_clear(dc->lines);
        g_free(dc->lines);
    }
    g_free(dc);
}
