/* tb-sm — the `sm` machine (models/machines/machine.h): one SM (the `sm` topology, GTX480-like)
 * behind cta_dispatch, with mem_fixed as its memory side. Runs a workload (--workload NAME --size S;
 * its output is checked against the CPU reference) or any PTX kernel
 * (--ptx/--entry/--grid/--block/--shared/--arg), prints statistics, and writes waveforms/tb-sm.vcd and
 * .gtkw. Exit: 0 pass, 1 mismatch or run-time error, 2 bad input.
 *
 * The program is also the mechanism testbenches whose baseline is tb-sm (links to it,
 * testbench/local.mk): called by one of their names it runs that testbench, so a mechanism switched
 * off runs this program's machine code. */
#include "testbench/tb_common.h"

#include <string.h>

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*main)(int, char **);
    } mechanisms[] = {{"tb-renaming", tb_renaming_main}, {"tb-greener", tb_greener_main},
                      {"tb-ccws", tb_ccws_main},         {"tb-vws", tb_vws_main},
                      {"tb-sharing", tb_sharing_main}};
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    const char *name = slash ? slash + 1 : argc > 0 ? argv[0] : "";
    for (size_t i = 0; i < G_N_ELEMENTS(mechanisms); i++)
        if (strcmp(name, mechanisms[i].name) == 0)
            return mechanisms[i].main(argc, argv);
    return tb_main(MACHINE_SM, argc, argv);
}
