/* spu_isa.c — the SPU's PTX extensions (see spu_isa.h). */
#include "kernels/frontend/spu_isa.h"

#include <string.h>

static const char *const dirs[] = {"", "north", "west", "south", "east"};

const char *spu_dir_name(unsigned d)
{
    return d < G_N_ELEMENTS(dirs) ? dirs[d] : "?";
}

static unsigned dir_lookup(const char *mod)
{
    for (unsigned d = SPU_DIR_NORTH; d <= SPU_DIR_EAST; d++)
        if (!strcmp(mod, dirs[d]))
            return d;
    return 0;
}

bool spu_isa_mod(ir_instr *in, const char *mod)
{
    unsigned d;
    if (in->op == IR_OP_BAR && !in->sub && !strcmp(mod, "blocksync")) {
        in->op = IR_OP_BLOCKSYNC;
        return true;
    }
    if (in->op == IR_OP_BLOCKSYNC)
        return !in->sub && (d = dir_lookup(mod)) && (in->sub = (uint8_t)d, true);
    if (in->op != IR_OP_LD && in->op != IR_OP_ST)
        return false;
    if (!strcmp(mod, "cb") && !in->space && !in->cb) {
        in->space = IR_SPACE_SHARED;
        in->cb = SPU_CB;
        return true;
    }
    if (in->cb == SPU_CB && (d = dir_lookup(mod))) {
        in->cb = (uint8_t)(SPU_CB | d);
        return true;
    }
    return false;
}

const char *spu_isa_check(const ir_instr *in)
{
    if (!in->cb)
        return NULL;
    unsigned d = in->cb & ~SPU_CB;
    if (in->op == IR_OP_LD && d != SPU_DIR_WEST && d != SPU_DIR_NORTH)
        return "ld.cb needs the buffer it reads: .west or .north (data moves west to east and north to "
               "south)";
    if (in->op == IR_OP_ST && d != SPU_DIR_EAST && d != SPU_DIR_SOUTH)
        return "st.cb needs the buffer it writes: .east or .south (data moves west to east and north to "
               "south)";
    if (in->vec != 1 && in->vec != 0)
        return "ld.cb/st.cb take no vector";
    return NULL;
}

const char *spu_isa_space_name(const ir_instr *in)
{
    static const char *const names[] = {"cb", "cb.north", "cb.west", "cb.south", "cb.east"};
    if (!in->cb)
        return NULL;
    unsigned d = in->cb & ~SPU_CB;
    return d < G_N_ELEMENTS(names) ? names[d] : "cb";
}

bool spu_isa_is_sreg(unsigned sreg)
{
    return sreg >= IR_SREG_REGPASSX && sreg <= IR_SREG_REGLAST;
}

const char *spu_isa_use(const ir_instr *in)
{
    if (in->op == IR_OP_BLOCKSYNC)
        return "bar.blocksync";
    if (in->cb)
        return in->op == IR_OP_LD ? "ld.cb" : "st.cb";
    for (unsigned i = 0; i < in->n_src; i++)
        if (in->src[i].kind == IR_OPND_SREG && spu_isa_is_sreg(in->src[i].u.sreg))
            return ir_sreg_name((ir_sreg)in->src[i].u.sreg);
    return NULL;
}

const ir_instr *spu_isa_first_use(const ir_module *m, const char **what)
{
    for (unsigned f = 0; f < m->funcs->len; f++) {
        const ir_func *fn = g_ptr_array_index(m->funcs, f);
        for (unsigned i = 0; i < fn->instrs->len; i++) {
            const ir_instr *in = &g_array_index(fn->instrs, ir_instr, i);
            const char *w = spu_isa_use(in);
            if (w) {
                *what = w;
                return in;
            }
        }
    }
    return NULL;
}
