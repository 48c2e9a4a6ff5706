/* warp_step.h — the warp-step engine: the execution of one warp instruction on a warp's
 * architectural state, shared by the functional runner (frun.h) and the timing model's SM
 * (models/sm/warp_exec.h).
 *
 * A warp (ws_warp) is its SIMT stack (simt.h), its registers (kload's per-thread register array:
 * a row of 32 lanes per physical register of register-allocated code (two when it holds values of
 * both 32 bits or less and wider), else per virtual register,
 * lanes of 32 bits in a row of registers no wider, else 64; kload_func.rows maps a function's
 * virtual register to its row, kload_func.at to where the row lives), its carry flags, its local and
 * call-parameter memory, and the CTA it belongs to (ws_cta: block index, shared memory). A launch
 * (ws_launch) is what every warp of a kernel reads: the decoded program (ws_prog), the memory image,
 * the parameter buffer, the grid and the special registers' values (frun_sreg_ctx).
 *
 * The engine executes an instruction kind by kind: ALU instructions through ir_exec (ir_exec.h),
 * memory through kload's address map (kload.h), special registers through frun_sreg_value, control
 * flow and calls on the SIMT stack. Two ways to drive it:
 *  - ws_run (the functional runner): a turn of up to `quantum` instructions, each counted in the
 *    launch's frun_stats and checked against the instruction budget; every access is performed at
 *    once. It stops at a barrier arrival (the caller does the barrier's bookkeeping), when the warp
 *    has finished, or on an error.
 *  - ws_step (the SM): one instruction, described in a ws_info for the timing blocks (per-lane
 *    spaces and addresses, the registers involved, the barrier). The memory side performs some
 *    accesses later, in the order the timing model gives them: a load's lanes in global, local and
 *    const memory read the image when their data returns (the ws_ops.load_deferred hook gets a
 *    ws_load, applied later with ws_load_apply), a global store's bytes travel in ws_info.store_data
 *    (the L1 writes them), and a global atomic's operands in ws_info.atom_b/atom_c (performed at the
 *    memory side). The ws_ops value hooks run around each instruction (reads before, writes after).
 *
 * Errors (an out-of-range or misaligned access, a store to .const, trap, an instruction the engine
 * cannot run) end the step with a message in ws_launch.err naming the kernel, the PC and source line,
 * the instruction, the CTA and thread, the address, and ws_launch.where when set ("on SM 3").
 */
#ifndef GPUSC_KERNELS_WARP_STEP_H
#define GPUSC_KERNELS_WARP_STEP_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels/run/fmem.h"
#include "kernels/run/frun.h"
#include "kernels/frontend/ir.h"
#include "kernels/run/kload.h"
#include "kernels/run/simt.h"

G_BEGIN_DECLS

#define WS_STORE_MAX  16      /* bytes per lane a deferred store carries (larger vectors store at once) */
#define WS_NO_REG     0xffffu /* no register slot (ws_info.bar_dst, atom_dst) */
#define WS_N_BARRIERS 16u     /* barrier ids 0..15 */

typedef enum { WS_ALU, WS_MEM, WS_BRA, WS_CALL, WS_RET, WS_EXIT, WS_BAR, WS_NOP } ws_kind;
typedef enum { WS_MEM_LOAD, WS_MEM_STORE, WS_MEM_ATOM, WS_MEM_RED } ws_mem_kind;

/* What one executed instruction did. ws_step fills all of it; ws_run only the barrier fields, for
 * the arrival it stops at. */
typedef struct {
    uint8_t kind; /* ws_kind */
    uint8_t cls;  /* ir_class */
    uint8_t op;   /* ir_opcode */
    uint32_t func, pc;
    uint32_t active; /* lanes that executed (guard true) */
    /* WS_MEM */
    uint8_t mem_kind; /* ws_mem_kind */
    uint8_t space;    /* the instruction's space (IR_SPACE_NONE: generic) */
    uint8_t bytes;    /* bytes per lane (vector: all elements) */
    /* WS_BAR */
    uint32_t bar_id;
    bool bar_wait;      /* bar.sync/barrier.sync/bar.red (the warp waits); false for bar.arrive */
    bool bar_arrive;    /* the warp arrives at barrier bar_id (bar.sync/arrive/red with active lanes) */
    uint8_t bar_kind;   /* ir_bar_kind (IR_BAR_SYNC when the instruction gives none) */
    uint8_t blocksync;  /* bar.blocksync: 1 + its spu_dir, else 0 (ws_launch.blocksync_bar) */
    uint32_t bar_count; /* the thread count operand, 0 = the whole CTA */
    uint32_t bar_pred;  /* bar.red: the active lanes whose predicate is true */
    uint16_t bar_dst;   /* bar.red: register slot of the result, WS_NO_REG if none */
    /* WS_BRA */
    bool diverged;
    /* WS_MEM: the lanes the memory side performs later (see the top of this file) */
    uint32_t store_defer; /* st: global lanes whose bytes are in store_data */
    uint32_t load_defer;  /* ld: lanes that read the image when the data returns (ws_load) */
    uint32_t atom_defer;  /* atom/red: global lanes, operands in atom_b/atom_c */
    uint32_t atom_flags;  /* ir_instr.flags */
    uint8_t atom_op;      /* ir_atom_op */
    uint8_t atom_type;    /* ir_type */
    uint16_t atom_dst;    /* register slot of the old values, WS_NO_REG for red */
    uint64_t atom_vmask;  /* value mask of that register */
    /* WS_MEM, last: only the active lanes' entries are written (the rest is not cleared) */
    uint8_t lane_space[IR_WARP_SIZE]; /* resolved space per lane */
    uint64_t addr[IR_WARP_SIZE];      /* address in that space per lane */
    union {
        struct {
            uint64_t atom_b[IR_WARP_SIZE], atom_c[IR_WARP_SIZE]; /* deferred lanes' operands */
        };
        uint8_t store_data[IR_WARP_SIZE][WS_STORE_MAX]; /* st: deferred lanes' bytes */
    };
} ws_info;

/* A load whose lanes read the image later (ws_step): ws_load_apply writes them. */
typedef struct {
    uint64_t seq; /* the caller's sequence number given to ws_step */
    uint32_t mask;
    uint8_t type, nv, es;
    uint32_t slot[4]; /* destination register slot per element, IR_NONE for a sink */
    uint32_t at[4];   /* where its row lives in the warp's register array (kload.h), IR_NONE for a sink */
    uint64_t vmask[4];
    const uint8_t *ptr[IR_WARP_SIZE];
} ws_load;

typedef struct {
    uint32_t ctaid[3];
    uint32_t nwarps; /* warps of the CTA */
    fmem_seg shared;
} ws_cta;

typedef struct {
    simt_stack st;
    uint64_t *regs;  /* kload warp_words: every row's 32 lanes (kload.h, "Registers") */
    uint8_t *local;  /* 32 lanes x local_bytes */
    uint8_t *cparam; /* 32 lanes x cparam_bytes */
    uint32_t cc;     /* carry flag per lane */
    uint32_t id;     /* index within its CTA */
    ws_cta *cta;
} ws_warp;

/* The decoded program: what the engine dispatches on, computed once per module. */
typedef struct ws_prog ws_prog;

/* `spu`: the program may use the SPU's instructions (bar.blocksync, ld.cb/st.cb, the SPU special
 * registers); without it they cannot execute ("... needs the SPU machine (tb-spu)"). */
ws_prog *ws_prog_new(const ir_module *m, bool spu);
void ws_prog_free(ws_prog *p);
/* The value mask (by declared width) of virtual register `reg` of function `func`. */
uint64_t ws_prog_reg_mask(const ws_prog *p, uint32_t func, uint32_t reg);

typedef struct ws_launch ws_launch;

/* What a driver adds to the engine (any member may be NULL). `ctx` is ws_launch.ctx. */
typedef struct {
    /* ws_step: a load left the lanes of pl->mask for later; keep *pl until its data returns. */
    void (*load_deferred)(void *ctx, ws_warp *w, const ws_load *pl);
    /* ws_step: the register value path around an instruction: its reads before it executes (the
     * guard already evaluated by nobody: `mask` is the SIMT mask), its writes after (info). */
    void (*before)(void *ctx, ws_warp *w, uint32_t func, uint32_t pc, const ir_instr *in, uint32_t mask);
    void (*after)(void *ctx, ws_warp *w, const ir_instr *in, const ws_info *info);
    /* ld.cb/st.cb: the communication buffer of direction `dir` (sm_env.h), timed as shared memory. */
    fmem_seg (*cb)(void *ctx, unsigned dir);
    /* The SPU special registers %regpassx.. %reglast in order (NULL: they read 0). */
    const uint32_t *(*spu_sregs)(void *ctx);
    /* ws_run with ws_launch.race set: a non-atomic access to host bytes [p, p+len) that may be shared
     * memory; nonzero after reporting a race (ws_fail). */
    int (*race)(void *ctx, ws_warp *w, uint32_t func, uint32_t pc, uint32_t lane, const uint8_t *p,
                uint64_t len, bool write);
} ws_ops;

struct ws_launch {
    const ws_prog *prog;
    const ir_module *mod;
    const kload_module *k;
    fmem *mem;
    uint32_t entry;     /* the kernel's function index */
    fmem_seg kparam;    /* the packed parameter buffer (read-only) */
    unsigned block[3];  /* CTA shape, for thread coordinates */
    frun_sreg_ctx sreg; /* the launch's special registers; the engine sets the warp's own fields */
    uint64_t clock;     /* what %clock reads (ws_run: the launch's instruction count) */
    GString *err;       /* messages go here */
    const char *where;  /* appended to an error's site ("on SM 3"), NULL: nothing */
    const ws_ops *ops;
    void *ctx;
    uint32_t blocksync_bar; /* the barrier id bar.blocksync waits at (ws_step) */
    bool race;              /* ws_run: call ops->race on loads and stores */
    /* ws_run */
    frun_stats *stats; /* counts every warp instruction */
    uint64_t executed; /* warp instructions of the launch */
    uint64_t budget;   /* more than this is an error */
    FILE *trace;       /* one line per instruction (frun_device_set_trace), NULL: off */
    /* The last global region hit (valid while no region is added or removed: reset with
     * ws_launch_reset_cache between launches). */
    uint64_t gbase, gsize;
    uint8_t *gdata;
    bool greadonly;
};

/* Forget the cached global region (before a launch: the memory image may have changed). */
static inline void ws_launch_reset_cache(ws_launch *L)
{
    L->gbase = L->gsize = 0;
    L->gdata = NULL;
    L->greadonly = false;
}

/* Why ws_run returned. */
typedef enum {
    WS_STOP_TURN,  /* the quantum is used up */
    WS_STOP_DONE,  /* the warp has finished (nothing was executed for it) */
    WS_STOP_BAR,   /* the warp arrived at a barrier (info's bar_ fields); the quantum has the rest */
    WS_STOP_LIMIT, /* the instruction budget ran out (message in err) */
    WS_STOP_ERROR  /* an error (message in err) */
} ws_stop;

/* Run warp `w` for up to *quantum instructions, performing everything at once (see above). */
ws_stop ws_run(ws_launch *L, ws_warp *w, unsigned *quantum, ws_info *info);

/* Execute warp `w`'s next instruction (the SIMT top; the warp must not have finished), described in
 * `info`; deferred accesses as above, `seq` names a deferred load. 0, or nonzero with a message. */
int ws_step(ws_launch *L, ws_warp *w, uint64_t seq, ws_info *info);

/* The data of a deferred load has returned: read the image into the registers `regs` (ws_warp.regs,
 * at the rows of pl->row). */
void ws_load_apply(const ws_load *pl, uint64_t *regs);
/* The lanes of the warp's next instruction that will access the scratchpad (a shared-space or generic
 * ld/st/atom/red; active and guard true), each lane's byte offset in its CTA's segment in off[]: the
 * address the instruction would use if it executed now. No side effect. 0: none. */
uint32_t ws_head_shared(ws_launch *L, ws_warp *w, uint64_t off[IR_WARP_SIZE]);

/* Report an error at an instruction of warp `w` (lane < 0: the whole warp) in L->err: the site
 * ("kernel K: pc N (FILE:LINE `instr`) block (x,y,z) thread (x,y,z)", then L->where), then the
 * message. Returns 1. */
int ws_fail(ws_launch *L, const ws_warp *w, uint32_t func, uint32_t pc, int lane, const char *fmt, ...)
    G_GNUC_PRINTF(6, 7);

G_END_DECLS

#endif /* GPUSC_KERNELS_WARP_STEP_H */
