/* test_cfg_build.h — build small ir_func values by hand for the analysis tests (no parser needed).
 * Instructions are appended in order; registers are created by type; branch targets are instruction
 * indices (tb_label gives the index the next appended instruction will get). */
#ifndef GPUSC_TESTS_TEST_CFG_BUILD_H
#define GPUSC_TESTS_TEST_CFG_BUILD_H

#include "kernels/analysis/cfg.h"

#include <string.h>

static inline ir_func *tb_func(void)
{
    ir_func *f = g_new0(ir_func, 1);
    f->name = g_strdup("t");
    f->is_entry = true;
    f->regs = g_array_new(FALSE, TRUE, sizeof(ir_reg));
    f->instrs = g_array_new(FALSE, TRUE, sizeof(ir_instr));
    f->params = g_array_new(FALSE, TRUE, sizeof(ir_param));
    f->n_phys_regs = IR_NONE;
    f->n_phys_preds = IR_NONE;
    return f;
}

static inline void tb_free(ir_func *f)
{
    cfg_clear(f);
    if (f->blocks)
        g_array_free(f->blocks, TRUE);
    for (guint i = 0; i < f->regs->len; i++)
        g_free(g_array_index(f->regs, ir_reg, i).name);
    g_array_free(f->regs, TRUE);
    g_array_free(f->instrs, TRUE);
    g_array_free(f->params, TRUE);
    g_free(f->name);
    g_free(f);
}

static inline bool tb_is64(ir_type t)
{
    return t == IR_T_B64 || t == IR_T_U64 || t == IR_T_S64 || t == IR_T_F64;
}

static inline uint32_t tb_reg(ir_func *f, ir_type t)
{
    ir_reg r = { .type = t, .phys = IR_NONE };
    const char *pfx = t == IR_T_PRED ? "%p" : tb_is64(t) ? "%rd" : "%r";
    r.name = g_strdup_printf("%s%u", pfx, f->regs->len);
    g_array_append_val(f->regs, r);
    return f->regs->len - 1;
}

static inline uint32_t tb_label(const ir_func *f)
{
    return f->instrs->len;
}

static inline ir_instr tb_blank(ir_opcode op, ir_type t)
{
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.type = t;
    in.vec = 1;
    in.guard = IR_NONE;
    in.block = IR_NONE;
    in.reconv = IR_NONE;
    return in;
}

static inline void tb_src_reg(ir_instr *in, uint32_t r)
{
    in->src[in->n_src].kind = IR_OPND_REG;
    in->src[in->n_src].u.reg = r;
    in->n_src++;
}

static inline void tb_src_imm(ir_instr *in, uint64_t v)
{
    in->src[in->n_src].kind = IR_OPND_IMM;
    in->src[in->n_src].u.imm = v;
    in->n_src++;
}

/* dst = op(a, b): a, b are registers or IR_NONE (absent); dst IR_NONE: no destination. */
static inline uint32_t tb_op(ir_func *f, ir_opcode op, ir_type t, uint32_t dst, uint32_t a, uint32_t b)
{
    ir_instr in = tb_blank(op, t);
    if (dst != IR_NONE) {
        in.dst[0].kind = IR_OPND_REG;
        in.dst[0].u.reg = dst;
        in.n_dst = 1;
    }
    if (a != IR_NONE)
        tb_src_reg(&in, a);
    if (b != IR_NONE)
        tb_src_reg(&in, b);
    g_array_append_val(f->instrs, in);
    return f->instrs->len - 1;
}

/* dst = imm */
static inline uint32_t tb_movi(ir_func *f, uint32_t dst, uint64_t v)
{
    ir_instr in = tb_blank(IR_OP_MOV, f->regs ? g_array_index(f->regs, ir_reg, dst).type : IR_T_B32);
    in.dst[0].kind = IR_OPND_REG;
    in.dst[0].u.reg = dst;
    in.n_dst = 1;
    tb_src_imm(&in, v);
    g_array_append_val(f->instrs, in);
    return f->instrs->len - 1;
}

/* [@guard] bra target (guard IR_NONE: unconditional). */
static inline uint32_t tb_bra(ir_func *f, uint32_t guard, uint32_t target)
{
    ir_instr in = tb_blank(IR_OP_BRA, IR_T_NONE);
    in.guard = guard;
    in.src[0].kind = IR_OPND_LABEL;
    in.src[0].u.target = target;
    in.n_src = 1;
    g_array_append_val(f->instrs, in);
    return f->instrs->len - 1;
}

static inline void tb_set_target(ir_func *f, uint32_t bra, uint32_t target)
{
    ir_func_instr(f, bra)->src[0].u.target = target;
}

static inline uint32_t tb_ret(ir_func *f)
{
    ir_instr in = tb_blank(IR_OP_RET, IR_T_NONE);
    g_array_append_val(f->instrs, in);
    return f->instrs->len - 1;
}

/* A plain instruction with no registers (a placeholder body instruction). */
static inline uint32_t tb_nop(ir_func *f)
{
    ir_instr in = tb_blank(IR_OP_BAR, IR_T_NONE);
    g_array_append_val(f->instrs, in);
    return f->instrs->len - 1;
}

static inline uint32_t tb_blk(ir_func *f, uint32_t instr)
{
    return ir_func_instr(f, instr)->block;
}

static inline bool tb_has_succ(ir_func *f, uint32_t a, uint32_t b)
{
    GArray *s = cfg_block(f, a)->succ;
    for (guint i = 0; i < s->len; i++)
        if (g_array_index(s, uint32_t, i) == b)
            return true;
    return false;
}

#endif
