/* area.h — the area cost of variable warp sizing (docs/vws.md "Area"; CCWS/DAWS/VWS spec §7.9,
 * Table 6.2 of the VWS source, 40 nm), pure C.
 *
 * What VWS adds to an SM of `slices` lane slices:
 *  - the L1 I-cache's second fetch port: the dual-ported L1 I-cache's area minus the single-ported
 *    one's (CACTI figures, given in mm²);
 *  - per slice an L0 I-cache, its decoded I-buffers (latch storage: bits x latch cell x overhead) and
 *    its scoreboard (flip-flops: bits x flip-flop cell x comparator factor), and its control logic (a
 *    fraction of the SM's area);
 *  - one gang table (latch storage).
 * The SM's increase over the SM's area, and the GPU's (the SM's increase x SMs) over the GPU's area.
 * vws_area_default gives the source's figures: 2048-bit L0s, 4096-bit I-buffers, an 1800-bit
 * scoreboard, a 128 x 64-bit gang table, latch 2.1 µm² x 1.5, flip-flop 3.6 µm² x 3, control 1 % of a
 * 16 mm² SM per slice, a 15-SM GPU of 529 mm².
 */
#ifndef GPUSC_MODELS_VWS_AREA_H
#define GPUSC_MODELS_VWS_AREA_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
    unsigned slices;                     /* 8 (4-wide warps) or 4 (8-wide) */
    double l1i_single_mm2, l1i_dual_mm2; /* the L1 I-cache with one and with two fetch ports */
    unsigned l0_bits, ibuf_bits, sb_bits, gang_bits;
    double latch_um2, latch_overhead; /* latch storage: cell area and overhead factor */
    double ff_um2, ff_factor;         /* scoreboard flip-flops: cell area and comparator factor */
    double control_frac;              /* control logic per slice, as a fraction of the SM's area */
    double sm_mm2, gpu_mm2;
    unsigned gpu_sms;
} vws_area_params;

enum { VWS_AREA_L1I, VWS_AREA_L0, VWS_AREA_IBUF, VWS_AREA_GANG, VWS_AREA_SB, VWS_AREA_CONTROL, VWS_AREA_N };

typedef struct {
    double component_mm2[VWS_AREA_N]; /* one of each (L1I: the second port) */
    double sm_add_mm2[VWS_AREA_N];    /* what the SM gains: per slice x slices, or one */
    double sm_total_mm2, sm_pct, gpu_total_mm2, gpu_pct;
} vws_area;

extern const char *const vws_area_names[VWS_AREA_N];

vws_area_params vws_area_default(unsigned slices);
vws_area vws_area_compute(const vws_area_params *p);

G_END_DECLS

#endif
