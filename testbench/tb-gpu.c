/* tb-gpu — the `gpu` machine (models/machines/machine.h; GTX480-like: 15 SMs, interconnect, 12 L2
 * slices, 6 DRAM channels) running a workload (--workload NAME --size S; its output is checked
 * against the CPU reference) or any PTX kernel (--ptx/--entry/--grid/--block/--shared/--arg). Prints
 * the statistics of every block, the SM summary (cycles, warp instructions, IPC, stall breakdown, hit
 * rates, bank conflicts, resident CTAs) and the memory-side summary (L2 hit rate, DRAM and
 * interconnect utilisation), and writes waveforms/tb-gpu.vcd and .gtkw. Exit: 0 pass, 1 mismatch or
 * run-time error, 2 bad input. */
#include "testbench/tb_common.h"

int main(int argc, char **argv)
{
    return tb_main(MACHINE_GPU, argc, argv);
}
