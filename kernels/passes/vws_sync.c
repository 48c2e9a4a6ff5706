/* vws_sync.c — the reconvergence-sync insertion pass (vws_sync.h). */
#include "kernels/passes/vws_sync.h"

#include "kernels/analysis/cfg.h"

vws_sync *vws_sync_build(ir_module *m)
{
    vws_sync *s = g_new0(vws_sync, 1);
    s->n_funcs = m->funcs->len;
    s->n_instrs = g_new0(uint32_t, s->n_funcs);
    s->at = g_new0(uint8_t *, s->n_funcs);
    for (unsigned fi = 0; fi < s->n_funcs; fi++) {
        ir_func *f = g_ptr_array_index(m->funcs, fi);
        uint32_t n = ir_func_n_instrs(f);
        s->n_instrs[fi] = n;
        s->at[fi] = g_new0(uint8_t, n ? n : 1);
        if (!n)
            continue;
        cfg_compute_reconvergence(f);
        for (uint32_t i = 0; i < n; i++) {
            const ir_instr *in = ir_func_instr(f, i);
            if (in->op != IR_OP_BRA || !cfg_branch_is_divergent(in) || in->reconv == IR_NONE ||
                in->reconv >= n)
                continue;
            s->n_points += !s->at[fi][in->reconv];
            s->at[fi][in->reconv] = 1;
        }
    }
    return s;
}

void vws_sync_free(vws_sync *s)
{
    if (!s)
        return;
    for (unsigned fi = 0; fi < s->n_funcs; fi++)
        g_free(s->at[fi]);
    g_free(s->at);
    g_free(s->n_instrs);
    g_free(s);
}
