/* spu_passes.h — the SPU runtime's pass decomposition and its idealised activity timelines (SPU
 * spec §9, §15 UT-2, UT-4, UT-5; docs/spu.md). Pure functions, no simulation.
 *
 * Decomposition: a G x G CTA grid on a p x p SPU runs in P x P passes, P = ceil(G / p), in
 * row-wise order (pass (px, py) is number py * P + px); pass column px spans the CTAs
 * i = px p .. min(G, (px + 1) p) - 1 (the last one is partial when p does not divide G); CTA (i, j)
 * runs on SM (i mod p, j mod p).
 *
 * Timelines: the spec's unit-step model of a G x G grid of CTAs with T tiles each: a tile takes one
 * step, a sync, spill or restore none; tile (i, j, k) starts after tiles (i-1, j, k), (i, j-1, k)
 * and (i, j, k-1) ended and when its SM is free. Modes:
 *   SPU_TL_GLOBAL   global sync, pass by pass: each pass runs the whole loop of Algorithm 1,
 *                   2(G - 1) + T steps, CTA (i, j) computing at t = i + j .. i + j + T - 1 of it;
 *   SPU_TL_LOCAL    producer-consumer sync, pass by pass: a pass starts when the previous one ended;
 *   SPU_TL_OVERLAP  producer-consumer sync, overlapped: an SM takes its next pass's CTA the step
 *                   after it finished its current one.
 */
#ifndef GPUSC_MODELS_SPU_SPU_PASSES_H
#define GPUSC_MODELS_SPU_SPU_PASSES_H

#include <glib.h>
#include <stdbool.h>

G_BEGIN_DECLS

typedef struct {
    unsigned p, G; /* grid side, CTAs per dimension */
    unsigned P;    /* passes per dimension */
    bool partial;  /* some pass occupies less than the p x p grid */
} spu_passes;

typedef enum { SPU_TL_GLOBAL, SPU_TL_LOCAL, SPU_TL_OVERLAP } spu_tl_mode;

void spu_passes_init(spu_passes *ps, unsigned p, unsigned G);
/* Pass number q (row-wise) -> (px, py). */
void spu_passes_coord(const spu_passes *ps, unsigned q, unsigned *px, unsigned *py);
/* CTAs pass column (row) c spans; SMs pass (px, py) occupies. */
unsigned spu_passes_span(const spu_passes *ps, unsigned c);
unsigned spu_passes_occupancy(const spu_passes *ps, unsigned px, unsigned py);
/* The SM (x + p y) CTA (i, j) runs on, and the pass it belongs to. */
unsigned spu_passes_sm_of(const spu_passes *ps, unsigned i, unsigned j);
unsigned spu_passes_pass_of(const spu_passes *ps, unsigned i, unsigned j);

/* What SM (x, y) does in pass (px, py) [S: §4.3; A: its default, SPU spec §17 item 9]: runs a CTA
 * when (x, y) lies in the pass's occupied sub-grid (span(px) x span(py)); in a partial pass the
 * unused SMs next to that sub-grid's east edge (column span(px), rows inside it) act as its east
 * interface units and those next to its south edge (row span(py), columns inside it) as its south
 * ones (storers: the partial passes are the last column and row of passes, so their east and south
 * edges are the outputs); any other SM idles. Full passes: every SM runs a CTA. */
typedef enum { SPU_ROLE_NONE, SPU_ROLE_CTA, SPU_ROLE_IU_EAST, SPU_ROLE_IU_SOUTH } spu_role;
spu_role spu_passes_role(const spu_passes *ps, unsigned x, unsigned y, unsigned px, unsigned py);

/* Whether border interface unit `idx` of a side serves pass (px, py) [A: with §4.3's default]: a
 * north or south unit (vert) when its column is occupied (idx < span(px)), a west or east one when
 * its row is; a storer (south, east) only when the pass's edge on its side is the grid's (the pass
 * spans p along the other axis; otherwise SMs stand in for it). */
bool spu_passes_border_serves(const spu_passes *ps, bool vert, bool store, unsigned idx, unsigned px,
                              unsigned py);

/* The unit-step timeline of T tiles per CTA in `mode`: start[j * G + i] (the step CTA (i, j)
 * computes its first tile; its tiles are start .. start + T - 1 but under SPU_TL_GLOBAL, where
 * they are consecutive too) if start is not NULL; returns the makespan in steps. */
unsigned spu_passes_timeline(const spu_passes *ps, unsigned T, spu_tl_mode mode, unsigned *start);
/* Blocksyncs per spilling VIU per pass (= its spills) and the useful ones among them: global sync
 * 2(G - 1) + T, useful T; producer-consumer T, all useful. */
unsigned spu_passes_spills(const spu_passes *ps, unsigned T, spu_tl_mode mode, unsigned *useful);

G_END_DECLS

#endif
