/* tb-sm — the `sm` machine (models/machines/machine.h): one SM (the `sm` topology, GTX480-like)
 * behind cta_dispatch, with mem_fixed as its memory side. Runs a workload (--workload NAME --size S;
 * its output is checked against the CPU reference) or any PTX kernel
 * (--ptx/--entry/--grid/--block/--shared/--arg), prints statistics, and writes waveforms/tb-sm.vcd and
 * .gtkw. Exit: 0 pass, 1 mismatch or run-time error, 2 bad input. */
#include "testbench/tb_common.h"

int main(int argc, char **argv)
{
    return tb_main(MACHINE_SM, argc, argv);
}
