/* spu_grid.h — the `spu_grid` machine: the Stencil Processing Unit (SPU spec §2-6; docs/spu.md).
 * No behaviour: it instantiates the SPU's blocks around a GPU topology of p x p SMs and binds them.
 *
 *   SMs        the GPU topology's p² SMs (gpu.sms = p², the testbench sets it), SM i at (x, y) =
 *              (i mod p, i / p); CTA (i, j) runs on SM (i, j) (checked by the controller)
 *   CB pairs   `spu_cb` cb_h<x>_<y> between (x-1, y) and (x, y), x = 0..p (x = 0: the west
 *              interface unit, x = p: the east one), and cb_v<x>_<y> between (x, y-1) and (x, y):
 *              2p(p+1) pairs, 4p² + 4p CBs [D: SPU spec §3, = Eq. 5.1]
 *   IUs        `spu_iu` iu_n<x>, iu_w<y> (loaders), iu_s<x>, iu_e<y> (storers): 4p
 *   controller `spu_ctl` ctl: the global blocksync over p² CTAs + 4p IUs, the CB swaps, counters
 *
 * An SM reaches its CBs through sm_env.spu (the west-in cb_h<x>_<y>, north-in cb_v<x>_<y>, east-out
 * cb_h<x+1>_<y>, south-out cb_v<x>_<y+1>); its issue block's `blocksync` import, `warp_events` and
 * `issued` listeners are bound to the controller. Multipass (spu_grid_passes): the runtime orders
 * the CTAs pass by pass (SPU spec §9) and sets each SM's pass registers; the interface units act as
 * VIUs by their plans (the testbench writes them).
 */
#ifndef GPUSC_MODELS_MACHINES_SPU_GRID_H
#define GPUSC_MODELS_MACHINES_SPU_GRID_H

#include <stdio.h>

#include "models/spu/spu_cb.h"
#include "models/spu/spu_ctl.h"
#include "models/spu/spu_iu.h"
#include "models/spu/spu_passes.h"
#include "models/sm/cta_dispatch.h"
#include "models/topo/gpu.h"

G_BEGIN_DECLS

typedef enum { SPU_SIDE_N, SPU_SIDE_W, SPU_SIDE_S, SPU_SIDE_E } spu_side;

typedef struct {
    blk_inst *inst;
    unsigned p;
    spu_cb **h, **v; /* h[y * (p+1) + x], v[y * p + x] (y = 0..p) */
    spu_iu **iu;     /* side * p + index (N, W, S, E) */
    spu_ctl *ctl;
    /* the runtime's passes (spu_grid_passes): decomposition, mode, per SM the next pass, whether
     * it runs a CTA, its SPU registers; pass by pass: CTAs done, first start and last end */
    spu_passes ps;
    bool overlapped;
    unsigned *sm_next, cur_pass, cur_done;
    bool *sm_busy;
    uint32_t *sregs; /* [sm * 10 + (reg - IR_SREG_REGPASSX)] */
    uint64_t *pass_start, *pass_end;
    unsigned *pass_done;
    /* partial passes: the SMs standing in as east interface units (smiu[k]: SM (r, k), r = the last
     * pass column's span) and south ones (smiu[p + k]: SM (k, r)), NULL without partial passes;
     * rounds per role (K/b); the dispatcher (woken when an SM's role ends before its next CTA) */
    spu_iu **smiu;
    unsigned role_rounds;
    cta_dispatch *disp;
    /* global sync (spu_grid_set_global); with partial passes the global blocksyncs per pass (0:
     * none such), whether the first pass has begun, per interface unit the last pass whose role it
     * started (UINT_MAX: none) */
    bool global;
    unsigned global_B;
    bool global_begun;
    unsigned *iu_pass;
    /* IU code on the stand-in SMs (spu_grid_sm_code): the kernel's module (NULL: the stand-ins'
     * roles run on their spu_iu blocks); per stand-in the roles started; per SM whether a role runs */
    const ir_module *mod;
    ir_module *role_mod; /* mod named after the IU code's file (its instructions' messages) */
    unsigned *role_n;
    bool *sm_role;
} spu_grid;

extern const blk_desc spu_grid_desc;
/* Registers the SPU's block descriptors (for --describe / --list-blocks). */
void spu_grid_register(void);
/* The machine's instance (reads p). */
spu_grid *spu_grid_new(blk_ctx *ctx, gsc_module *parent, const char *name);
/* The runtime's passes for a G x G CTA grid of `tiles` tiles per CTA, `overlapped` or pass by pass;
 * places the CTAs through d's order (CTA (i, j) on SM (i mod p, j mod p), passes row-wise). When p
 * does not divide G the last pass column and row are partial: an SM with no CTA in a pass acts
 * there as the interface unit its spu_passes_role says (a storer of `tiles` rounds, which must end
 * before the SM takes its next CTA), through an `spu_iu` block standing in for it (smiu_e<k>,
 * smiu_s<k>), or with IU code on the SM itself (spu_grid_sm_code). Before spu_grid_build. */
void spu_grid_passes(spu_grid *s, cta_dispatch *d, unsigned G, unsigned tiles, bool overlapped);
/* The passes run under the global blocksync (Algorithm 1), pass by pass: every SM takes part from
 * its first CTA to its last. With partial passes the participants change from pass to pass: a
 * pass's global barrier counts the SMs running its CTAs, the SMs standing in as its interface units
 * and the border units that serve it (spu_passes_border_serves); every interface unit then works in
 * roles of one pass each (1 + 2(G - 1) + tiles blocksyncs), started when its pass begins (the
 * previous pass's CTAs all ended). After spu_grid_passes (not overlapped), before spu_grid_build. */
void spu_grid_set_global(spu_grid *s);
/* Partial passes with IU code: the SMs standing in as interface units run each role's IU code (the
 * run their stand-in blocks were given, spu_iu_set_code) themselves, as a CTA of one warp of the
 * role's entry with its parameters (cta_dispatch_extra), through their own fetch, issue, ldst and
 * CB ports, with the role's SPU registers; the stand-in blocks stay idle. `mod` is the kernel's
 * module, which must hold the IU code's functions after its own (from function `first` on, their
 * lines those of the IU code's file `iu_path`, which run-time messages name). After
 * spu_grid_build and the stand-ins' spu_iu_set_code, before the run. */
void spu_grid_sm_code(spu_grid *s, const ir_module *mod, uint32_t first, const char *iu_path);
/* The SPU's blocks around the built GPU g (g's SMs: p²), bound; env gets the SPU hooks. */
void spu_grid_build(spu_grid *s, gpu_topo *g, sm_env *env);
spu_iu *spu_grid_iu(const spu_grid *s, spu_side side, unsigned index);
/* The interconnect clients the units need with spu_iu.icnt_path=1 for a G x G CTA grid (the
 * testbench gives them to the GPU with gpu_topo_set_clients before building it). */
unsigned spu_grid_mem_clients(const spu_grid *s, unsigned G);
/* The SM standing in as interface unit on `side` (SPU_SIDE_E: SM (r, index); SPU_SIDE_S: SM
 * (index, r)) in partial passes, or NULL. */
spu_iu *spu_grid_sm_iu(const spu_grid *s, spu_side side, unsigned index);
/* Every interface unit has finished (its last stores included): the kernel's end on the SPU. */
bool spu_grid_ius_done(const spu_grid *s);
unsigned spu_grid_n_cbs(const spu_grid *s);
uint64_t spu_grid_cb_bytes(const spu_grid *s); /* total CB storage */
/* Element accesses to global memory (SMs and IUs, loads and stores), CB element accesses. */
uint64_t spu_grid_offchip(const spu_grid *s);
uint64_t spu_grid_cb_accesses(const spu_grid *s);
/* The energy of the CBs and of the interface units (the SMs' roles included) over `cycles`. */
void spu_grid_energy(const spu_grid *s, uint64_t cycles, blk_energy *cb, blk_energy *iu);
void spu_grid_summary(const spu_grid *s, FILE *out);
void spu_grid_free(spu_grid *s);

G_END_DECLS

#endif
