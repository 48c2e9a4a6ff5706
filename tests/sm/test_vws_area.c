/* test_vws_area — the VWS area model (models/vws/area.h) on the spec's UT-10 arithmetic (Table 6.2
 * of the VWS source): the components, the 4-wide and 8-wide SM increases, the GPU's. */
#include <glib.h>

#include "models/vws/area.h"

#define UM2 1e-6

static void test_components(void)
{
    vws_area_params p = vws_area_default(8);
    vws_area a = vws_area_compute(&p);
    /* L0: 2048 b x 2.1 µm² x 1.5 = 6,451 µm² ~ 0.006 mm² */
    g_assert_cmpfloat_with_epsilon(a.component_mm2[VWS_AREA_L0], 6451.2 * UM2, 0.01 * UM2);
    /* I-buffers: 4096 x 3.15 = 12,902 µm² ~ 0.013 mm² */
    g_assert_cmpfloat_with_epsilon(a.component_mm2[VWS_AREA_IBUF], 12902.4 * UM2, 0.01 * UM2);
    /* scoreboard: 1800 x 3.6 x 3 = 19,440 µm² ~ 0.019 mm² */
    g_assert_cmpfloat_with_epsilon(a.component_mm2[VWS_AREA_SB], 19440 * UM2, 0.01 * UM2);
    /* gang table (128 entries of 64 bits) ~ 0.026 mm² */
    g_assert_cmpfloat_with_epsilon(a.component_mm2[VWS_AREA_GANG], 0.026, 0.0005);
    /* dual- minus single-ported L1 I-cache: 0.194 - 0.087 = 0.107 ~ 0.108 */
    g_assert_cmpfloat_with_epsilon(a.component_mm2[VWS_AREA_L1I], 0.107, 1e-9);
    g_assert_cmpfloat_with_epsilon(a.component_mm2[VWS_AREA_CONTROL], 0.160, 1e-9);
}

/* The per-SM columns: 4-wide warps = x 8 slices, 8-wide = x 4; the L1 port and the gang table once. */
static void test_totals(void)
{
    vws_area_params p4 = vws_area_default(8), p8 = vws_area_default(4);
    vws_area a4 = vws_area_compute(&p4), a8 = vws_area_compute(&p8);
    const double col4[VWS_AREA_N] = {0.108, 0.052, 0.103, 0.026, 0.154, 1.280};
    const double col8[VWS_AREA_N] = {0.108, 0.026, 0.052, 0.026, 0.077, 0.640};
    for (unsigned i = 0; i < VWS_AREA_N; i++) { /* Table 6.2, to its rounding */
        g_assert_cmpfloat_with_epsilon(a4.sm_add_mm2[i], col4[i], 0.0016);
        g_assert_cmpfloat_with_epsilon(a8.sm_add_mm2[i], col8[i], 0.0011);
    }
    /* 4-wide: 1.723 ~ 1.7 mm²; 8-wide: 0.929 ~ 0.93 mm² */
    g_assert_cmpfloat_with_epsilon(a4.sm_total_mm2, 1.723, 0.0015);
    g_assert_cmpfloat_with_epsilon(a8.sm_total_mm2, 0.929, 0.0015);
    /* per SM: 1.7 / 16 ~ 11 %; 8-wide ~ 6 % */
    g_assert_cmpint((int)(a4.sm_pct + 0.5), ==, 11);
    g_assert_cmpint((int)(a8.sm_pct + 0.5), ==, 6);
    /* GPU: 1.723 x 15 = 25.8 mm², 4.9 % (~5 %) of 529 mm²; 13.9 mm², 2.6 % (~2.5 %) */
    g_assert_cmpfloat_with_epsilon(a4.gpu_total_mm2, 25.8, 0.05);
    g_assert_cmpfloat_with_epsilon(a8.gpu_total_mm2, 13.9, 0.05);
    g_assert_cmpfloat_with_epsilon(a4.gpu_pct, 4.9, 0.05);
    g_assert_cmpfloat_with_epsilon(a8.gpu_pct, 2.6, 0.05);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/vws/ut10-area-components", test_components);
    g_test_add_func("/vws/ut10-area-totals", test_totals);
    return g_test_run();
}
