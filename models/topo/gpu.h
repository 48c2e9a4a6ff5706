/* gpu.h — the `gpu` topology: cta_dispatch, N SMs (monolithic `sm` or `subcore_sm`), the `icnt`
 * between them and the memory sub-partitions, one `l2` slice per sub-partition, one `dram` channel
 * per `sub_partitions` slices, and the functional memory image (env->mem, owned by the testbench)
 * behind them (docs/baseline-design.md §3; docs/gpu.md); with `sm_links`, an `sm_link` block of
 * SM-to-SM links beside the interconnect (models/mem/sm_link.h). A topology file holds no
 * behaviour: it instantiates blocks and binds their ports.
 *
 * Names: <parent>.<name>.dispatch, .sm<i>, .icnt, .l2_<p>, .dram<c>, .links (sm_links only); FIFOs
 * <name>.sm_req<i>, .sm_resp<i>, .cta_launch<i>, .cta_done<i>, .l2_req<p>, .l2_resp<p>, .dram_req<p>,
 * .dram_resp<p>, and with sm_links .sm<i>.link_port, FIFOs .link_out_<d><i> / .link_in_<d><i>
 * (<d> = e, s, w, n).
 * Sub-partition p belongs to channel p / sub_partitions (port p mod sub_partitions); lines are
 * interleaved over the n_channels x sub_partitions slices by the icnt (interleave_bytes).
 *
 * Usage:
 *   gpu_topo_register();                         // block and topology descriptors
 *   gpu_topo *g = gpu_topo_new(ctx, parent, "gpu");   // reads [gpu] sms, mem_channels, ...
 *   sm_env *env = tb_kernel_env(k, gpu_topo_n_sms(g));
 *   gpu_topo_build(g, env);
 */
#ifndef GPUSC_MODELS_TOPO_GPU_H
#define GPUSC_MODELS_TOPO_GPU_H

#include <stdio.h>

#include "models/core/block.h"
#include "models/mem/dram_blk.h"
#include "models/mem/icnt_blk.h"
#include "models/mem/l2.h"
#include "models/mem/sm_link.h"
#include "models/sm/cta_dispatch.h"
#include "models/topo/sm.h"

G_BEGIN_DECLS

extern const blk_desc gpu_topo_desc;

typedef struct gpu_topo gpu_topo;

/* Registers the SM side (sm_topo_register), the memory-side blocks and the gpu topology (idempotent). */
void gpu_topo_register(void);
/* Registers only the memory-side descriptors (icnt, l2, dram, sm_link, link_port, gpu). */
void gpu_topo_register_mem(void);

gpu_topo *gpu_topo_new(blk_ctx *ctx, gsc_module *parent, const char *name);
/* The instance path its first SM will have ("tb.gpu.sm0", g_free it) and whether the SMs are
 * sub-core ones: what a testbench looks the SM's parameters up with before gpu_topo_build. */
char *gpu_topo_sm_path(const gpu_topo *g, bool *subcore);
/* Instantiate and wire everything for env (env->n_sms must equal gpu_topo_n_sms). */
void gpu_topo_build(gpu_topo *g, sm_env *env);
void gpu_topo_free(gpu_topo *g);

/* Memory clients beside the SMs (the SPU's interface units): n more interconnect nodes after the
 * SMs (node n_sms + k; requests carry it as src), before gpu_topo_build; bind client k's request
 * output and response input after it. None by default. */
void gpu_topo_set_clients(gpu_topo *g, unsigned n);
unsigned gpu_topo_n_clients(const gpu_topo *g);
void gpu_topo_bind_client(gpu_topo *g, unsigned k, gsc_port *req, unsigned req_depth, gsc_port *resp,
                          unsigned resp_depth);
unsigned gpu_topo_n_sms(const gpu_topo *g);
unsigned gpu_topo_n_parts(const gpu_topo *g);
unsigned gpu_topo_n_channels(const gpu_topo *g);
gsc_module *gpu_topo_module(const gpu_topo *g);
cta_dispatch *gpu_topo_dispatch(const gpu_topo *g);
sm_topo **gpu_topo_sms(const gpu_topo *g);
icnt_blk *gpu_topo_icnt(const gpu_topo *g);
l2_blk *gpu_topo_l2(const gpu_topo *g, unsigned part);
dram_blk *gpu_topo_dram(const gpu_topo *g, unsigned channel);

/* SM-to-SM links (gpu.sm_links; NULL when off). Each SM then has a `link_port` block
 * (<sm>.link_port, models/sm/link_port.h) whose out_<k> / in_<k> the topology connects to the
 * links' out_<k><i> / in_<opposite k><i> (k: the traffic direction, 0 east, 1 south, and 2 west,
 * 3 north when bidirectional). A mechanism of SM i (e.g. the SPU's communication buffers) binds,
 * before elaboration, its client to gpu_topo_link_port(g, i)'s `send` export and its listener to its
 * `recv` import. On the grid's border the ports exist too; sm_link_neighbour(gpu_topo_links(g), i, d)
 * says whether a link leaves there (a message sent over the border is a model error). The baseline
 * SM binds none of them. */
sm_link *gpu_topo_links(const gpu_topo *g);
link_port *gpu_topo_link_port(const gpu_topo *g, unsigned sm);

/* The first memory-side error (an atomic on unmapped memory at an L2 slice), or NULL. */
const char *gpu_topo_fault(const gpu_topo *g);
/* True when no request is inside the memory side (icnt, L2 slices). */
bool gpu_topo_mem_idle(const gpu_topo *g);
/* The memory side's state (for the watchdog's dump): requests in each interconnect network, and
 * per busy L2 slice and DRAM channel what it holds and its oldest request. Matches tb_dump_fn. */
void gpu_topo_dump_state(void *g, GString *out);
/* Memory-side summary: L2 accesses and hit rate over all slices, DRAM reads/writes and bus
 * utilisation, interconnect packets and utilisation; with sm_links, the links' grid and traffic. */
void gpu_topo_summary(const gpu_topo *g, FILE *out);

G_END_DECLS

#endif /* GPUSC_MODELS_TOPO_GPU_H */
