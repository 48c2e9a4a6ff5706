/* sm.h — the `sm` topology: one streaming multiprocessor (Fermi/GTX480-like monolithic SM, or a
 * sub-core SM of P partitions: see subcore_sm.h), built from the blocks of models/sm/ and wired here.
 * Topology files hold no behaviour: this file instantiates blocks and binds their ports.
 *
 * External ports (what a GPU topology or a testbench binds; the channels are the caller's):
 *   cta_launch  in,  FIFO of cta_launch_t  (from cta_dispatch)         -> the SM's issue block
 *   cta_done    out, FIFO of cta_done_t    (to cta_dispatch)           <- the SM's issue block
 *   mem_req     out, FIFO of mem_req_t     (to mem_fixed / the icnt)   <- the SM's ldst block
 *   mem_resp    in,  FIFO of mem_resp_t    (from mem_fixed / the icnt) -> the SM's ldst block
 * mem_req_t.src is set to the SM's index; responses must carry dst = that index.
 *
 * Usage (a GPU of n SMs):
 *   sm_topo_register();                      // once: block descriptors
 *   sm_topo *s = sm_topo_new(ctx, parent, "sm3", 3, env, false);
 *   gsc_fifo *f = gsc_fifo_new(parent, "sm3_cta", &cta_launch_type, 2);
 *   gsc_port_bind_fifo(sm_topo_port(s, SM_PORT_CTA_LAUNCH), f);  ... and the three others
 */
#ifndef GPUSC_MODELS_TOPO_SM_H
#define GPUSC_MODELS_TOPO_SM_H

#include "models/core/block.h"
#include "models/core/config.h"
#include "models/lib/occupancy.h"
#include "models/mem_types.h"
#include "models/sm/opcoll.h"
#include "models/sm/fetch.h"
#include "models/sm/issue.h"
#include "models/sm/ldst.h"
#include "models/sm/link_port.h"
#include "models/sm/payloads.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

typedef enum {
    SM_PORT_CTA_LAUNCH,
    SM_PORT_CTA_DONE,
    SM_PORT_MEM_REQ,
    SM_PORT_MEM_RESP,
    SM_PORT_COUNT
} sm_port;

typedef struct sm_topo sm_topo;

/* Register the SM blocks' descriptors, the SM topology descriptors, cta_dispatch and mem_fixed
 * (idempotent). The presets are the machines layer's (models/machines/). */
void sm_topo_register(void);
/* The blocks inside an SM (either organisation), NULL-terminated. */
extern const blk_desc *const sm_topo_blocks[];

/* One SM named `name` under parent, SM index `sm_id` (mem_req_t.src, %smid). subcore: build the
 * sub-core organisation (subcore_sm.* parameters: partitions), else the monolithic one (`sm`). */
sm_topo *sm_topo_new(blk_ctx *ctx, gsc_module *parent, const char *name, unsigned sm_id, sm_env *env,
                     bool subcore);
void sm_topo_free(sm_topo *s);

/* The inner block port behind an external port (bind the caller's FIFO to it). */
gsc_port *sm_topo_port(const sm_topo *s, sm_port p);
/* Depth the SM wants for the FIFO on an external port. */
unsigned sm_topo_port_depth(const sm_topo *s, sm_port p);

/* The SM's module (for tracing patterns) and index. */
gsc_module *sm_topo_module(const sm_topo *s);
unsigned sm_topo_id(const sm_topo *s);

/* Watchdog support: true when any warp is resident; a dump of every resident warp (PC, what it
 * waits on: I-buffer empty, scoreboard on register r, barrier, unit busy, memory). */
bool sm_topo_busy(const sm_topo *s);
void sm_topo_dump_state(const sm_topo *s, GString *out);
/* Progress counter (warp instructions issued so far); the watchdog compares it between checks. */
uint64_t sm_topo_progress(const sm_topo *s);

/* The SM's occupancy limits (its parameters: warps, threads, ctas, registers, reg_unit,
 * smem_bytes, max_regs_per_thread), for cta_dispatch_set_limits. */
void sm_topo_occupancy(const sm_topo *s, occupancy_sm *o);
/* The same limits before the SM exists: the values configuration `c` gives an SM instance at `path`
 * (of type subcore_sm if `subcore`, else sm), so that the kernel can be allocated for the machine's
 * register limit before the machine is built. False (err set) on a value that does not parse. */
bool sm_topo_occupancy_config(const cfg *c, const char *path, bool subcore, occupancy_sm *o, GError **err);

/* Inner instances, for testbench statistics (issue: warp_instrs, stalls; ldst: L1; regfile p: banks). */
blk_inst *sm_topo_issue_inst(const sm_topo *s);
blk_inst *sm_topo_ldst_inst(const sm_topo *s);
blk_inst *sm_topo_regfile_inst(const sm_topo *s, unsigned part); /* NULL beyond the partitions */

/* The SM's blocks, for a mechanism (or a test) to install its hooks before the run (docs/sm.md
 * "Extension points in the SM"): bind (blk_bind, or blk_bind_stub) before elaboration to issue's
 * `check`, `issued`, `warp_events` and `value` imports, to each arbiter's `veto` (the instance
 * `<sm>.arbiter<s>`, blk_ctx_find), to regfile p's `access` (one regfile per sub-core partition; NULL
 * beyond them), to ldst's `l1_evict` and `l1_access`; wexec_add_value_hook on the warps'
 * architectural state (one per SM, also in a subcore_sm); ldst_l1_tags; fetch's I-cache. The
 * topology holds no behaviour: these only hand out the blocks it built. */
issue *sm_topo_issue(const sm_topo *s);
wexec *sm_topo_wexec(const sm_topo *s);
regfile *sm_topo_regfile(const sm_topo *s, unsigned part);
/* Partition part's `ccu` block (NULL: [opcoll] collector = ocu, or beyond the partitions). */
struct ccu_blk *sm_topo_ccu(const sm_topo *s, unsigned part);
ldst *sm_topo_ldst(const sm_topo *s);
fetch *sm_topo_fetch(const sm_topo *s);
unsigned sm_topo_parts(const sm_topo *s); /* opcoll/regfile/units: 1 (sm) or the partitions (subcore_sm) */
/* The SM's end of the SM-to-SM links: a `link_port` block of n_dirs directions, `<sm>.link_port`,
 * built by a topology that has links (gpu.sm_links) before it connects them; a mechanism of the SM
 * blk_binds its client to the block's `send` export and its listener to its `recv` import.
 * sm_topo_link_port is NULL when the SM has none. */
link_port *sm_topo_add_link_port(sm_topo *s, unsigned n_dirs);
link_port *sm_topo_link_port(const sm_topo *s);

extern const blk_desc sm_topo_desc, subcore_sm_topo_desc;

G_END_DECLS

#endif /* GPUSC_MODELS_TOPO_SM_H */
