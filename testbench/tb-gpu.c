/* tb-gpu — the `gpu` topology (GTX480-like: 15 SMs, interconnect, 12 L2 slices, 6 DRAM channels)
 * running a workload (--workload NAME --size S; its output is checked against the CPU reference)
 * or any PTX kernel (--ptx/--entry/--grid/--block/--shared/--arg). Prints the statistics of every
 * block, the SM summary (cycles, warp instructions, IPC, stall breakdown, hit rates, bank conflicts,
 * resident CTAs) and the memory-side summary (L2 hit rate, DRAM and interconnect utilisation), and
 * writes waveforms/tb-gpu.vcd and .gtkw. Exit: 0 pass, 1 mismatch or run-time error, 2 bad input. */
#include <stdio.h>

#include "models/core/cli.h"
#include "models/topo/gpu.h"
#include "testbench/tb_common.h"

static const blk_param_desc tb_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1429", "2", "1000000", NULL, "ps",
     "core clock period [S: GTX480 700 MHz]"},
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

int main(int argc, char **argv)
{
    gpu_topo_register();
    cli_run *run = cli_new(
        "tb-gpu", "A GPU (N SMs, interconnect, L2, DRAM) running a workload or a PTX kernel, checked.",
        &tb_gpu_desc, "tb", "gtx480");
    tb_opts o;
    tb_opts_add(run, &o);
    cli_parse(run, &argc, &argv);
    gpu_topo *g = gpu_topo_new(run->ctx, run->top->mod, "gpu");
    bool subcore;
    char *sm_path = gpu_topo_sm_path(g, &subcore);
    tb_kernel *k = tb_kernel_load(&o, "vecadd", sm_path, subcore);
    g_free(sm_path);
    sm_env *env = tb_kernel_env(k, gpu_topo_n_sms(g));
    gpu_topo_build(g, env);
    tb_machine *m = tb_machine_new(run, env, gpu_topo_dispatch(g), gpu_topo_sms(g), gpu_topo_n_sms(g));
    tb_machine_watchdog(m, run->top->mod, o.watchdog > 0 ? (uint64_t)o.watchdog : 0);
    tb_machine_set_dump(m, gpu_topo_dump_state, g);
    cli_elaborate(run);

    int rc = tb_machine_run(m, k, &o);
    const char *fault = gpu_topo_fault(g);
    if (fault && rc == 0) {
        fprintf(stderr, "gpusc: %s\n", fault);
        rc = TB_EXIT_RUN;
    }
    cli_finish(run, gsc_cycle());
    tb_machine_summary(m, stdout);
    gpu_topo_summary(g, stdout);
    printf("tb-gpu: %s: %s\n", tb_kernel_name(k), rc == 0 ? "PASS" : "FAIL");
    return rc;
}
