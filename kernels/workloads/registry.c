/* registry.c — the table of built-in workloads and size names. */
#include "kernels/workloads/wl-common.h"

#include <string.h>

static const workload *const workloads[] = {
    &wl_vecadd,     &wl_sgemm,       &wl_reduction, &wl_histogram,  &wl_hotspot,   &wl_stencil3d,
    &wl_bfs,        &wl_spmv,        &wl_kmeans,    &wl_backprop,   &wl_srad,      &wl_nw,
    &wl_scalarprod, &wl_convolution, &wl_nbody,     &wl_pathfinder, &wl_transpose,
};

static const char *const size_names[] = {"tiny", "default", "large"};

unsigned workload_count(void)
{
    return G_N_ELEMENTS(workloads);
}

const workload *workload_get(unsigned i)
{
    return i < G_N_ELEMENTS(workloads) ? workloads[i] : NULL;
}

const workload *workload_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(workloads); i++)
        if (strcmp(workloads[i]->name, name) == 0)
            return workloads[i];
    return NULL;
}

bool workload_size_parse(const char *s, wl_size *out)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(size_names); i++) {
        if (strcmp(s, size_names[i]) == 0) {
            *out = (wl_size)i;
            return true;
        }
    }
    return false;
}

const char *workload_size_name(wl_size s)
{
    return (unsigned)s < G_N_ELEMENTS(size_names) ? size_names[s] : "?";
}
