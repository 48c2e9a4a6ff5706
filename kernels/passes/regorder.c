/* regorder.c — see regorder.h. */
#include "kernels/passes/regorder.h"

#include <string.h>

/* Calls fn on every register number of in's operands in textual order (guard, destinations,
 * sources); fn may rewrite it. */
static void each_reg(ir_instr *in, void (*fn)(uint32_t *r, void *ctx), void *ctx)
{
    if (in->guard != IR_NONE)
        fn(&in->guard, ctx);
    for (unsigned pass = 0; pass < 2; pass++) {
        ir_operand *ops = pass == 0 ? in->dst : in->src;
        unsigned n = pass == 0 ? in->n_dst : in->n_src;
        for (unsigned i = 0; i < n; i++) {
            ir_operand *o = &ops[i];
            if (o->kind == IR_OPND_REG)
                fn(&o->u.reg, ctx);
            else if (o->kind == IR_OPND_MEM && o->u.mem.base_reg != IR_NONE)
                fn(&o->u.mem.base_reg, ctx);
            else if (o->kind == IR_OPND_VEC)
                for (unsigned k = 0; k < o->comp && k < 4; k++)
                    if (o->u.vec_regs[k] != IR_NONE)
                        fn(&o->u.vec_regs[k], ctx);
        }
    }
}

typedef struct {
    uint32_t *map; /* old -> new, IR_NONE: not seen yet */
    uint32_t next;
} order_ctx;

static void first_use(uint32_t *r, void *ctx)
{
    order_ctx *c = ctx;
    if (c->map[*r] == IR_NONE)
        c->map[*r] = c->next++;
}

static void rename(uint32_t *r, void *ctx)
{
    *r = ((const uint32_t *)ctx)[*r];
}

uint32_t regorder_func(ir_func *f, uint32_t *map_out)
{
    uint32_t n = f->regs->len;
    if (n == 0)
        return 0;
    order_ctx c = {g_new(uint32_t, n), 0};
    for (uint32_t r = 0; r < n; r++)
        c.map[r] = IR_NONE;
    for (uint32_t i = 0; i < f->instrs->len; i++)
        each_reg(&g_array_index(f->instrs, ir_instr, i), first_use, &c);
    for (uint32_t r = 0; r < n; r++) /* unused: last, in their old order */
        if (c.map[r] == IR_NONE)
            c.map[r] = c.next++;
    uint32_t moved = 0;
    GArray *regs = g_array_sized_new(FALSE, TRUE, sizeof(ir_reg), n);
    g_array_set_size(regs, n);
    for (uint32_t r = 0; r < n; r++) {
        g_array_index(regs, ir_reg, c.map[r]) = g_array_index(f->regs, ir_reg, r);
        moved += c.map[r] != r;
    }
    g_array_free(f->regs, TRUE);
    f->regs = regs;
    for (uint32_t i = 0; i < f->instrs->len; i++)
        each_reg(&g_array_index(f->instrs, ir_instr, i), rename, c.map);
    if (map_out)
        memcpy(map_out, c.map, n * sizeof *c.map);
    g_free(c.map);
    return moved;
}

uint32_t regorder_module(ir_module *m)
{
    uint32_t moved = 0;
    for (uint32_t i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (f->is_defined)
            moved += regorder_func(f, NULL);
    }
    return moved;
}
