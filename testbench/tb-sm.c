/* tb-sm — one SM (the `sm` topology, GTX480-like) behind cta_dispatch, with mem_fixed as its memory
 * side. Runs a workload (--workload NAME --size S; its output is checked against the CPU reference)
 * or any PTX kernel (--ptx/--entry/--grid/--block/--shared/--arg), prints statistics, and writes
 * waveforms/tb-sm.vcd and .gtkw. Exit: 0 pass, 1 mismatch or run-time error, 2 bad input. */
#include <stdio.h>

#include "models/core/cli.h"
#include "models/sm/mem_fixed.h"
#include "testbench/tb_common.h"

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

static void bind(gsc_module *m, const char *name, const gsc_type *t, unsigned depth, gsc_port *out,
                 gsc_port *in)
{
    gsc_fifo *f = gsc_fifo_new(m, name, t, depth);
    gsc_port_bind_fifo(out, f);
    gsc_port_bind_fifo(in, f);
}

int main(int argc, char **argv)
{
    sm_topo_register();
    cli_run *run = cli_new("tb-sm", "One SM (GTX480-like) running a workload or a PTX kernel, checked.",
                           &tb_sm_desc, "tb", "gtx480");
    tb_opts o;
    tb_opts_add(run, &o);
    cli_parse(run, &argc, &argv);
    tb_kernel *k = tb_kernel_load(&o, "vecadd", "tb.sm0", false);
    sm_env *env = tb_kernel_env(k, 1);

    gsc_module *top = run->top->mod;
    cta_dispatch *d = cta_dispatch_new(run->ctx, top, "dispatch", env, 1);
    sm_topo *sm = sm_topo_new(run->ctx, top, "sm0", 0, env, false);
    mem_fixed *mem = mem_fixed_new(run->ctx, top, "mem", env);
    occupancy_sm occ;
    sm_topo_occupancy(sm, &occ);
    cta_dispatch_set_limits(d, &occ);
    bind(top, "cta_launch", &cta_launch_type, sm_topo_port_depth(sm, SM_PORT_CTA_LAUNCH),
         cta_dispatch_port_launch(d, 0), sm_topo_port(sm, SM_PORT_CTA_LAUNCH));
    bind(top, "cta_done", &cta_done_type, blk_port_fifo_depth(d->inst, 1), sm_topo_port(sm, SM_PORT_CTA_DONE),
         cta_dispatch_port_done(d, 0));
    bind(top, "mem_req", &mem_req_type, blk_port_fifo_depth(mem->inst, MEM_FIXED_REQ),
         sm_topo_port(sm, SM_PORT_MEM_REQ), blk_port(mem->inst, MEM_FIXED_REQ));
    bind(top, "mem_resp", &mem_resp_type, sm_topo_port_depth(sm, SM_PORT_MEM_RESP),
         blk_port(mem->inst, MEM_FIXED_RESP), sm_topo_port(sm, SM_PORT_MEM_RESP));
    tb_machine *m = tb_machine_new(run, env, d, &sm, 1);
    tb_machine_watchdog(m, top, o.watchdog > 0 ? (uint64_t)o.watchdog : 0);
    cli_elaborate(run);

    int rc = tb_machine_run(m, k, &o);
    cli_finish(run, gsc_cycle());
    tb_machine_summary(m, stdout);
    printf("tb-sm: %s: %s\n", tb_kernel_name(k), rc == 0 ? "PASS" : "FAIL");
    return rc;
}
