/* energy.c — energy accounting from event counts; see energy.h. */
#include "models/core/energy.h"

#include <string.h>

#include "models/core/block.h"

const char *blk_power_state_name(blk_power_state s)
{
    static const char *const names[] = {"on", "sleep", "off"};
    return s < BLK_POWER_N ? names[s] : "?";
}

const char *blk_power_comp_name(blk_power_comp c)
{
    static const char *const names[BLK_COMP_N] = {
        [BLK_COMP_IBP] = "IBP",
        [BLK_COMP_ICP] = "ICP",
        [BLK_COMP_DCP] = "DCP",
        [BLK_COMP_TCP] = "TCP",
        [BLK_COMP_CCP] = "CCP",
        [BLK_COMP_SHRDP] = "SHRDP",
        [BLK_COMP_RFP] = "RFP",
        [BLK_COMP_SPP] = "SPP",
        [BLK_COMP_SFUP] = "SFUP",
        [BLK_COMP_FPUP] = "FPUP",
        [BLK_COMP_SCHEDP] = "SCHEDP",
        [BLK_COMP_L2CP] = "L2CP",
        [BLK_COMP_MCP] = "MCP",
        [BLK_COMP_NOCP] = "NOCP",
        [BLK_COMP_DRAMP] = "DRAMP",
        [BLK_COMP_PIPEP] = "PIPEP",
        [BLK_COMP_IDLE_COREP] = "IDLE_COREP",
        [BLK_COMP_CONST_DYNAMICP] = "CONST_DYNAMICP",
        [BLK_COMP_CBP] = "CBP",
    };
    return (unsigned)c < BLK_COMP_N ? names[c] : NULL;
}

static int stat_index(const blk_desc *d, const char *name)
{
    for (unsigned i = 0; name && i < d->n_stats; i++)
        if (strcmp(d->stats[i].name, name) == 0 && d->stats[i].kind == BLK_STAT_COUNTER)
            return (int)i;
    return -1;
}

static void need_param(const blk_desc *d, const char *name, blk_param_type type)
{
    const blk_param_desc *p = blk_desc_param(d, name);
    if (!p || p->type != type)
        g_error("block %s: its energy table names parameter %s, which it has not (as a %s)", d->name, name,
                blk_param_type_name(type));
}

void blk_energy_desc_check(const char *block, const void *desc)
{
    const blk_desc *d = desc;
    const blk_energy_desc *e = d->energy;
    (void)block;
    if (!e)
        return;
    for (unsigned i = 0; i < e->n_events; i++) {
        if (stat_index(d, e->events[i].stat) < 0)
            g_error("block %s: energy event %s counts with %s, which is not one of its counters", d->name,
                    e->events[i].name, e->events[i].stat);
        need_param(d, e->events[i].param, BLK_PARAM_DOUBLE);
        if (e->events[i].elsewhere)
            need_param(d, e->events[i].elsewhere, BLK_PARAM_UINT);
        if (!blk_power_comp_name(e->events[i].component))
            g_error("block %s: energy event %s feeds no power component", d->name, e->events[i].name);
    }
    for (unsigned i = 0; i < e->n_leak; i++) {
        if (e->leak[i].stat && stat_index(d, e->leak[i].stat) < 0)
            g_error("block %s: leakage in state %s counts with %s, which is not one of its counters", d->name,
                    blk_power_state_name(e->leak[i].state), e->leak[i].stat);
        need_param(d, e->leak[i].param, BLK_PARAM_DOUBLE);
    }
    if (e->units_param)
        need_param(d, e->units_param, BLK_PARAM_UINT);
}

double blk_energy_event_pj(const blk_inst *inst, unsigned e)
{
    const blk_energy_event *ev = &inst->desc->energy->events[e];
    if (ev->elsewhere && blk_param_uint(inst, ev->elsewhere))
        return 0;
    int s = stat_index(inst->desc, ev->stat);
    return (double)inst->stats[s] * blk_param_double(inst, ev->param);
}

double blk_energy_leak_pj(const blk_inst *inst, unsigned l, uint64_t cycles, uint64_t period_ps)
{
    const blk_energy_desc *e = inst->desc->energy;
    const blk_energy_leak *lk = &e->leak[l];
    double unit_cycles;
    if (lk->stat)
        unit_cycles = (double)inst->stats[stat_index(inst->desc, lk->stat)];
    else
        unit_cycles = (double)cycles * (double)(e->units_param ? blk_param_uint(inst, e->units_param) : 1);
    /* mW x ps = 1e-3 W x 1e-12 s = 1e-15 J = 1e-3 pJ */
    return unit_cycles * (double)period_ps * blk_param_double(inst, lk->param) * 1e-3;
}

blk_energy blk_inst_energy(const blk_inst *inst, uint64_t cycles)
{
    blk_energy r = {0, 0};
    const blk_energy_desc *e = inst->desc->energy;
    if (!e)
        return r;
    for (unsigned i = 0; i < e->n_events; i++)
        r.dynamic_pj += blk_energy_event_pj(inst, i);
    uint64_t period = gsc_clock_period_ps(blk_ctx_clock(inst->ctx));
    for (unsigned i = 0; i < e->n_leak; i++)
        r.leakage_pj += blk_energy_leak_pj(inst, i, cycles, period);
    return r;
}

blk_energy blk_ctx_energy(const blk_ctx *ctx, uint64_t cycles)
{
    blk_energy r = {0, 0};
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        blk_energy x = blk_inst_energy(inst, cycles);
        unsigned out = blk_energy_excluded(inst);
        if (!(out & BLK_ENERGY_NO_DYNAMIC))
            r.dynamic_pj += x.dynamic_pj;
        if (!(out & BLK_ENERGY_NO_LEAKAGE))
            r.leakage_pj += x.leakage_pj;
    }
    return r;
}

unsigned blk_ctx_energy_components(const blk_ctx *ctx, double pj[BLK_COMP_N])
{
    unsigned fed = 0;
    for (unsigned c = 0; c < BLK_COMP_N; c++)
        pj[c] = 0;
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++) {
        const blk_inst *inst = blk_ctx_inst(ctx, i);
        const blk_energy_desc *e = inst->desc->energy;
        if (!e || (blk_energy_excluded(inst) & BLK_ENERGY_NO_DYNAMIC))
            continue;
        for (unsigned k = 0; k < e->n_events; k++) {
            pj[e->events[k].component] += blk_energy_event_pj(inst, k);
            fed |= 1u << e->events[k].component;
        }
    }
    return fed;
}

gboolean blk_ctx_has_energy(const blk_ctx *ctx)
{
    for (unsigned i = 0; i < blk_ctx_n_insts(ctx); i++)
        if (blk_ctx_inst(ctx, i)->desc->energy)
            return TRUE;
    return FALSE;
}
