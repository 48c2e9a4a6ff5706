/* machine.c — the machines and their programs' registration (see machine.h). No behaviour: it
 * instantiates topologies and blocks and binds them. */
#include "models/machines/machine.h"

#include <string.h>

#include "models/core/config.h"
#include "models/machines/presets.h"
#include "models/sm/mem_fixed.h"
#include "models/topo/gpu.h"
#include "models/topo/sm.h"

static const blk_param_desc tb_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1429", "2", "1000000", NULL, "ps",
     "core clock period [S: GTX480 700 MHz]"},
};

static const blk_desc tb_sm_desc = {
    "tb_sm",
    "testbench: one SM, cta_dispatch, a fixed-latency memory",
    "",
    NULL,
    0,
    tb_params,
    BLK_N(tb_params),
    NULL,
    0,
    NULL,
    0,
};
static const blk_desc tb_subcore_desc = {
    "tb_subcore",
    "testbench: one sub-core SM, cta_dispatch, a fixed-latency memory",
    "",
    NULL,
    0,
    tb_params,
    BLK_N(tb_params),
    NULL,
    0,
    NULL,
    0,
};
static const blk_desc tb_gpu_desc = {
    "tb_gpu",
    "testbench: the gpu topology (N SMs + icnt + L2 + DRAM)",
    "",
    NULL,
    0,
    tb_params,
    BLK_N(tb_params),
    NULL,
    0,
    NULL,
    0,
};

static const machine_info infos[MACHINE_COUNT] = {
    [MACHINE_SM] = {"sm", "one monolithic SM", "tb-sm",
                    "One SM (GTX480-like) running a workload or a PTX kernel, checked.", &tb_sm_desc,
                    "gtx480"},
    [MACHINE_SUBCORE] = {"subcore", "one sub-core SM", "tb-subcore",
                         "One sub-core SM (4 partitions) running a workload or a PTX kernel, checked.",
                         &tb_subcore_desc, "subcore"},
    [MACHINE_GPU] = {"gpu", "a GPU", "tb-gpu",
                     "A GPU (N SMs, interconnect, L2, DRAM) running a workload or a PTX kernel, checked.",
                     &tb_gpu_desc, "gtx480"},
};

const machine_info *machine_info_get(machine_kind k)
{
    g_assert(k < MACHINE_COUNT);
    return &infos[k];
}

void machine_register(machine_kind k)
{
    g_assert(k < MACHINE_COUNT);
    gpu_topo_register(); /* every block type: a preset names the sections of all its machines */
    presets_register();
    blk_registry_mark_built(infos[k].top);
    for (unsigned i = 0; sm_topo_blocks[i]; i++)
        blk_registry_mark_built(sm_topo_blocks[i]);
    blk_registry_mark_built(&cta_dispatch_desc);
    if (k != MACHINE_SUBCORE)
        blk_registry_mark_built(&sm_topo_desc);
    if (k != MACHINE_SM)
        blk_registry_mark_built(&subcore_sm_topo_desc);
    if (k != MACHINE_GPU) {
        blk_registry_mark_built(&mem_fixed_desc);
        return;
    }
    const blk_desc *const gpu[] = {&gpu_topo_desc, &icnt_blk_desc, &l2_desc,
                                   &dram_blk_desc, &sm_link_desc,  &link_port_desc};
    for (unsigned i = 0; i < G_N_ELEMENTS(gpu); i++)
        blk_registry_mark_built(gpu[i]);
}

/* The preset check of machine *data (see machine_cli). */
static char *check_preset(const char *preset, void *data)
{
    machine_kind k = *(const machine_kind *)data;
    unsigned fits = presets_machines(preset);
    if (!fits || (fits & (1u << k)))
        return NULL; /* not a built-in machine preset (a program's own), or one of k */
    GString *use = g_string_new(NULL);
    const char *what = NULL;
    for (unsigned j = 0; j < MACHINE_COUNT; j++) {
        if (!(fits & (1u << j)))
            continue;
        if (!what)
            what = infos[j].what;
        g_string_append_printf(use, "%s%s --preset %s%s", use->len ? " (or " : "", infos[j].program, preset,
                               use->len ? ")" : "");
    }
    char *msg = g_strdup_printf("preset '%s' describes %s, not %s (what %s builds): use %s", preset, what,
                                infos[k].what, infos[k].program, use->str);
    g_string_free(use, TRUE);
    return msg;
}

void machine_cli(cli_run *run, machine_kind k)
{
    static machine_kind kinds[MACHINE_COUNT] = {MACHINE_SM, MACHINE_SUBCORE, MACHINE_GPU};
    cli_set_preset_check(run, check_preset, &kinds[k]);
}

bool machine_occupancy_config(char **presets, char **configs, char **sets, occupancy_sm *o, GError **err)
{
    gpu_topo_register();
    presets_register();
    cfg *c = cfg_new();
    bool ok = true;
    if (!presets || !presets[0])
        ok = cfg_load_preset(c, "gtx480", err);
    for (unsigned i = 0; ok && presets && presets[i]; i++)
        ok = cfg_load_preset(c, presets[i], err);
    for (unsigned i = 0; ok && configs && configs[i]; i++)
        ok = cfg_load_file(c, configs[i], err);
    for (unsigned i = 0; ok && sets && sets[i]; i++)
        ok = cfg_set(c, sets[i], err);
    if (ok) {
        cfg_value_ref ref;
        cfg_lookup(c, "gpu", gpu_topo_desc.name, blk_desc_param(&gpu_topo_desc, "sm_kind"), &ref);
        ok = sm_topo_occupancy_config(c, "gpu.sm0", strcmp(ref.text, "subcore_sm") == 0, o, err);
    }
    cfg_free(c);
    return ok;
}

struct machine {
    machine_kind kind;
    blk_ctx *ctx;
    gsc_module *parent;
    cta_dispatch *dispatch; /* the one-SM machines' */
    sm_topo *sm;
    mem_fixed *mem;
    gpu_topo *gpu;
};

machine *machine_new(machine_kind k, blk_ctx *ctx, gsc_module *parent)
{
    g_assert(k < MACHINE_COUNT);
    machine *m = g_new0(machine, 1);
    m->kind = k;
    m->ctx = ctx;
    m->parent = parent;
    if (k == MACHINE_GPU)
        m->gpu = gpu_topo_new(ctx, parent, "gpu");
    return m;
}

char *machine_sm_path(const machine *m, bool *subcore)
{
    if (m->gpu)
        return gpu_topo_sm_path(m->gpu, subcore);
    *subcore = m->kind == MACHINE_SUBCORE;
    return g_strdup_printf("%s.sm0", gsc_module_name(m->parent));
}

unsigned machine_n_sms(const machine *m)
{
    return m->gpu ? gpu_topo_n_sms(m->gpu) : 1;
}

static void bind(gsc_module *m, const char *name, const gsc_type *t, unsigned depth, gsc_port *out,
                 gsc_port *in)
{
    gsc_fifo *f = gsc_fifo_new(m, name, t, depth);
    gsc_port_bind_fifo(out, f);
    gsc_port_bind_fifo(in, f);
}

/* cta_dispatch, the SM and mem_fixed, under the program's top module. */
static void build_one_sm(machine *m, sm_env *env)
{
    gsc_module *top = m->parent;
    cta_dispatch *d = m->dispatch = cta_dispatch_new(m->ctx, top, "dispatch", env, 1);
    sm_topo *sm = m->sm = sm_topo_new(m->ctx, top, "sm0", 0, env, m->kind == MACHINE_SUBCORE);
    mem_fixed *mem = m->mem = mem_fixed_new(m->ctx, top, "mem", env);
    occupancy_sm occ;
    sm_topo_occupancy(sm, &occ);
    cta_dispatch_set_limits(d, &occ);
    bind(top, "cta_launch", &cta_launch_type, sm_topo_port_depth(sm, SM_PORT_CTA_LAUNCH),
         cta_dispatch_port_launch(d, 0), sm_topo_port(sm, SM_PORT_CTA_LAUNCH));
    bind(top, "cta_done", &cta_done_type, blk_port_fifo_depth(d->inst, CTA_DISPATCH_DONE),
         sm_topo_port(sm, SM_PORT_CTA_DONE), cta_dispatch_port_done(d, 0));
    bind(top, "mem_req", &mem_req_type, blk_port_fifo_depth(mem->inst, MEM_FIXED_REQ),
         sm_topo_port(sm, SM_PORT_MEM_REQ), blk_port(mem->inst, MEM_FIXED_REQ));
    bind(top, "mem_resp", &mem_resp_type, sm_topo_port_depth(sm, SM_PORT_MEM_RESP),
         blk_port(mem->inst, MEM_FIXED_RESP), sm_topo_port(sm, SM_PORT_MEM_RESP));
}

void machine_build(machine *m, sm_env *env)
{
    g_assert(env->n_sms == machine_n_sms(m));
    if (m->gpu)
        gpu_topo_build(m->gpu, env);
    else
        build_one_sm(m, env);
}

void machine_free(machine *m)
{
    if (!m)
        return;
    gpu_topo_free(m->gpu);
    sm_topo_free(m->sm);
    g_free(m);
}

cta_dispatch *machine_dispatch(const machine *m)
{
    return m->gpu ? gpu_topo_dispatch(m->gpu) : m->dispatch;
}

sm_topo **machine_sms(const machine *m)
{
    return m->gpu ? gpu_topo_sms(m->gpu) : (sm_topo **)&m->sm;
}

gpu_topo *machine_gpu(const machine *m)
{
    return m->gpu;
}

const char *machine_fault(const machine *m)
{
    return m->gpu ? gpu_topo_fault(m->gpu) : NULL;
}

void machine_dump_state(void *mp, GString *out)
{
    const machine *m = mp;
    if (m->gpu)
        gpu_topo_dump_state(m->gpu, out);
}

void machine_summary(const machine *m, FILE *out)
{
    if (m->gpu)
        gpu_topo_summary(m->gpu, out);
}
