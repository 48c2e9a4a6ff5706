/* area.c — the area cost of variable warp sizing (area.h). */
#include <glib.h>

#include "models/vws/area.h"

const char *const vws_area_names[VWS_AREA_N] = {
    [VWS_AREA_L1I] = "L1 I-cache second port",
    [VWS_AREA_L0] = "L0 I-cache",
    [VWS_AREA_IBUF] = "decoded I-buffers",
    [VWS_AREA_GANG] = "gang table",
    [VWS_AREA_SB] = "scoreboard",
    [VWS_AREA_CONTROL] = "additional control",
};

vws_area_params vws_area_default(unsigned slices)
{
    return (vws_area_params){.slices = slices,
                             .l1i_single_mm2 = 0.087,
                             .l1i_dual_mm2 = 0.194,
                             .l0_bits = 256 * 8,
                             .ibuf_bits = 4096,
                             .sb_bits = 1800,
                             .gang_bits = 128 * 64,
                             .latch_um2 = 2.1,
                             .latch_overhead = 1.5,
                             .ff_um2 = 3.6,
                             .ff_factor = 3,
                             .control_frac = 0.01,
                             .sm_mm2 = 16,
                             .gpu_mm2 = 529,
                             .gpu_sms = 15};
}

vws_area vws_area_compute(const vws_area_params *p)
{
    vws_area a = {{0}};
    double latch = p->latch_um2 * p->latch_overhead * 1e-6; /* mm² per bit */
    a.component_mm2[VWS_AREA_L1I] = p->l1i_dual_mm2 - p->l1i_single_mm2;
    a.component_mm2[VWS_AREA_L0] = p->l0_bits * latch;
    a.component_mm2[VWS_AREA_IBUF] = p->ibuf_bits * latch;
    a.component_mm2[VWS_AREA_GANG] = p->gang_bits * latch;
    a.component_mm2[VWS_AREA_SB] = p->sb_bits * p->ff_um2 * p->ff_factor * 1e-6;
    a.component_mm2[VWS_AREA_CONTROL] = p->control_frac * p->sm_mm2;
    for (unsigned i = 0; i < VWS_AREA_N; i++) {
        gboolean once = i == VWS_AREA_L1I || i == VWS_AREA_GANG; /* one per SM, the rest per slice */
        a.sm_add_mm2[i] = a.component_mm2[i] * (once ? 1 : p->slices);
        a.sm_total_mm2 += a.sm_add_mm2[i];
    }
    a.sm_pct = 100 * a.sm_total_mm2 / p->sm_mm2;
    a.gpu_total_mm2 = a.sm_total_mm2 * p->gpu_sms;
    a.gpu_pct = 100 * a.gpu_total_mm2 / p->gpu_mm2;
    return a;
}
