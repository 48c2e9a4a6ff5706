/* reuse_trace.h — the reuse-profile pass's input from a functional run (docs/rfcache.md): the
 * functional runner's instruction trace (one line per warp instruction, "N block (X,Y,Z) warp W FUNC
 * pc P ...", N restarting at each launch) turned into the dynamic streams of physical registers the
 * register banks see (wexec_instr_bank_regs over the register-allocated code), fed to two profiles:
 *  - `prof`: the first `profile_warps` warps of block (0,0,0) of every launch (the majority hints);
 *  - `oracle` (optional): every warp of every block, for the exact per-instance bits (rp_oracle),
 *    each stream named by (launch, block, warp in block).
 * Used by tb-rfcache and gpusc-ptx --reuse-hints. */
#ifndef GPUSC_MODELS_SM_REUSE_TRACE_H
#define GPUSC_MODELS_SM_REUSE_TRACE_H

#include <stdio.h>

#include "kernels/passes/reuse_profile.h"
#include "kernels/run/kload.h"

G_BEGIN_DECLS

typedef struct rp_trace rp_trace;

rp_trace *rp_trace_new(const ir_module *m, const kload_module *k, rp_profile *prof, unsigned profile_warps,
                       rp_profile *oracle);
void rp_trace_free(rp_trace *t);
/* One line of the trace (lines of other forms are ignored). */
void rp_trace_line(rp_trace *t, const char *line);
/* A stream whose lines go to rp_trace_line; fclose it before rp_finish. */
FILE *rp_trace_file(rp_trace *t);
/* The oracle stream of warp `w` of the CTA `ctaid` at that CTA's next start in the timing run (its
 * n-th start is launch n). False: no such stream was recorded. */
bool rp_trace_oracle_start(rp_trace *t, const uint32_t ctaid[3], unsigned w, unsigned *stream);
/* A function's name, for rp_print (ctx: the rp_trace). */
const char *rp_trace_func_name(void *ctx, uint32_t func);

G_END_DECLS

#endif
