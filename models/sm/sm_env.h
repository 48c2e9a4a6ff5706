/* sm_env.h — what every SM of a machine shares with the testbench: the loaded kernel module, the
 * functional memory image, and the current launch (grid, block, parameter buffer).
 *
 * The testbench owns it: it fills `launch` before starting a grid on cta_dispatch and reads
 * `failed`/`error` afterwards. SM blocks read it (the program and the launch are inputs to the
 * hardware, as the instruction memory and the launch registers would be) and write `error` when a
 * kernel faults (an invalid address, a trap): the run then stops with that message.
 */
#ifndef GPUSC_MODELS_SM_SM_ENV_H
#define GPUSC_MODELS_SM_SM_ENV_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/run/fmem.h"
#include "kernels/frontend/ir.h"
#include "kernels/run/kload.h"

typedef struct {
    uint32_t entry; /* kernel function index */
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t shared_dyn; /* dynamic shared bytes per CTA */
    uint8_t *kparam;     /* the packed parameter buffer (kload_pack_params) */
    uint64_t kparam_bytes;
    uint32_t kernel_no;       /* launches so far (%gridid) */
    uint32_t regs_per_thread; /* for occupancy: the allocated code's count, or a larger declared one */
    uint32_t smem_per_cta;    /* declared scratchpad per CTA for occupancy (0: what the kernel uses) */
} sm_launch;

/* The SPU grid's side of its SMs (models/machines/spu_grid.h), NULL on a machine without SPU: the
 * communication buffer an SM's ld.cb/st.cb reaches in the current phase (the half it reads on side
 * west/north, the half it writes on east/south; spu_dir values), and its SPU special registers
 * (%regpassx.. %reglast in order). bar.blocksync waits at CTA barrier SM_BLOCKSYNC_BAR, which a
 * kernel on the SPU must not use itself. */
typedef struct {
    uint8_t *(*cb)(void *self, unsigned sm, unsigned dir, uint64_t *bytes);
    const uint32_t *(*sregs)(void *self, unsigned sm);
} sm_spu_hooks;
#define SM_BLOCKSYNC_BAR 15u

typedef struct {
    ir_module *mod;  /* not owned */
    kload_module *k; /* not owned */
    fmem *mem;       /* not owned: the functional memory image */
    unsigned n_sms;  /* %nsmid */
    /* threads per warp of the machine's SMs (32, 16, 8 or 4; the SM's `warp_size` parameter, set when
     * the SM is built); 0 reads 32 (IR_WARP_SIZE). A warp of width W uses lanes 0..W-1 of the 32-lane
     * registers and masks; the CTA's thread t is lane t mod W of its warp t / W. */
    unsigned warp_size;
    sm_launch launch;
    const sm_spu_hooks *spu; /* NULL but on the SPU grid */
    void *spu_self;
    bool failed;    /* a kernel fault happened; error holds the message */
    GString *error; /* owned by the testbench */
    /* The decoded program of `mod` (warp_step.h), one for every SM's warp engine, so that the SMs
     * share its lines in the host's caches: made by the first wexec_new, freed by the last
     * wexec_free (warp_exec.c). Zero when the testbench makes the environment. */
    struct ws_prog *prog;
    const ir_module *prog_mod; /* the module prog decodes */
    unsigned prog_users;
    /* The scoreboards' static tables of `mod` (scoreboard_block.h), shared the same way: made by the
     * first scoreboard_block_new_phys, freed by the last scoreboard_block_free. */
    struct scoreboard_tables *sb_tables;
    /* The decoded instructions of the running launch (decode.h), shared the same way: made by the
     * first decode_new, freed by the last decode_free. */
    struct decode_lines *dec_lines;
} sm_env;

static inline unsigned sm_env_warp_size(const sm_env *e)
{
    return e->warp_size ? e->warp_size : IR_WARP_SIZE;
}

#endif /* GPUSC_MODELS_SM_SM_ENV_H */
