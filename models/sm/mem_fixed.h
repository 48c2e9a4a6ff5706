/* mem_fixed.h — `mem_fixed`: a fixed-latency, fixed-bandwidth memory behind one SM (tb-sm, tb-subcore),
 * standing in for icnt + L2 + DRAM. It answers every mem_req_t with a mem_resp_t:
 *   start = max(arrival cycle, the cycle the data path frees up); the data path is busy
 *   ceil(bytes / bytes_per_cycle) cycles (reads: the line; writes/atomics: the bytes under the mask);
 *   the response is put `latency` cycles after start.
 * So an isolated read miss costs exactly `latency` cycles from the request's arrival here. Read
 * responses carry the line's bytes as the functional image holds them then (mem_line_read). A
 * MEM_ATOMIC request with lanes is performed on the image when it arrives (mem_atomic_perform, old
 * values in the response): the SM's global atomics are performed here.
 */
#ifndef GPUSC_MODELS_SM_MEM_FIXED_H
#define GPUSC_MODELS_SM_MEM_FIXED_H

#include "models/core/block.h"
#include "models/lib/ring.h"
#include "models/mem_types.h"
#include "models/sm/sm_env.h"

G_BEGIN_DECLS

enum { MEM_FIXED_REQ, MEM_FIXED_RESP };
enum {
    MEM_FIXED_STAT_READS,
    MEM_FIXED_STAT_WRITES,
    MEM_FIXED_STAT_ATOMICS,
    MEM_FIXED_STAT_BYTES,
    MEM_FIXED_STAT_BUSY
};

typedef struct {
    blk_inst *inst;
    sm_env *env;
    unsigned latency, bpc;
    uint64_t free_at;
    ring pending; /* mf_item: responses with their due cycle, in due order */
    uint32_t tr_pending;
} mem_fixed;

extern const blk_desc mem_fixed_desc;
mem_fixed *mem_fixed_new(blk_ctx *ctx, gsc_module *parent, const char *name, sm_env *env);
void mem_fixed_free(mem_fixed *m);

G_END_DECLS

#endif
