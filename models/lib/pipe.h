/* pipe.h — timing core of an execution pipeline (SP, SFU, INT, DP, LD/ST address stage): latency,
 * initiation interval, capacity, an in-order completion queue, and write-back port arbitration.
 *
 * Model (GPGPU-Sim pipelined SIMD unit, "latency" and "initiation interval" per opcode class):
 *  - an instruction accepted at cycle c completes (its result may be written back) at c + latency;
 *  - the unit accepts again at c + ii (ii = 1: fully pipelined; ii = latency: not pipelined);
 *  - per-instruction latency/ii may override the unit's (pipe_accept_op: MUL vs ADD on one pipe);
 *  - in-order completion (the default): a result never completes before one accepted earlier, so
 *    completion = max(c + latency, previous completion); otherwise results are ordered by
 *    completion cycle, ties in accept order;
 *  - capacity bounds what is in flight, including completed results still waiting for a write-back
 *    port (a unit whose results cannot leave stops accepting); 0 = unbounded;
 *  - write-back: pipe_writeback() takes up to `ports` completed results per cycle from a set of
 *    pipes, earliest completion first, ties by lower pipe index; a pipe yields its results in order.
 * Blocks use pipe_next_completion() to sleep until the next result instead of ticking.
 */
#ifndef GPUSC_MODELS_LIB_PIPE_H
#define GPUSC_MODELS_LIB_PIPE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define PIPE_NONE UINT64_MAX

typedef struct {
    unsigned latency;  /* >= 1 */
    unsigned ii;       /* >= 1 */
    unsigned capacity; /* in flight incl. waiting for write-back; 0 = unbounded */
    bool out_of_order; /* false: in-order completion */
} pipe_config;

typedef struct gpusc_pipe gpusc_pipe;

typedef struct {
    uint64_t payload;
    uint64_t accept_cycle;
    uint64_t done_cycle;
    unsigned pipe; /* index in the pipe_writeback() array */
} pipe_result;

gpusc_pipe *pipe_new(const pipe_config *c);
void pipe_free(gpusc_pipe *p);
const pipe_config *pipe_get_config(const gpusc_pipe *p);

bool pipe_can_accept(const gpusc_pipe *p, uint64_t cycle);
/* Accepts at `cycle` (g_assert(pipe_can_accept)); returns the completion cycle. */
uint64_t pipe_accept(gpusc_pipe *p, uint64_t cycle, uint64_t payload);
uint64_t pipe_accept_op(gpusc_pipe *p, uint64_t cycle, uint64_t payload, unsigned latency, unsigned ii);
/* The first cycle >= `cycle` at which the initiation interval allows an accept. */
uint64_t pipe_next_accept(const gpusc_pipe *p, uint64_t cycle);

unsigned pipe_in_flight(const gpusc_pipe *p);
uint64_t pipe_next_completion(const gpusc_pipe *p); /* head's completion cycle, PIPE_NONE if empty */
/* The head result if it has completed by `cycle`. */
bool pipe_peek_done(const gpusc_pipe *p, uint64_t cycle, pipe_result *out);
bool pipe_pop_done(gpusc_pipe *p, uint64_t cycle, pipe_result *out);

/* Takes up to `ports` completed results (by `cycle`) from pipes[0..n); writes them to out (room for
 * `ports`), in grant order; returns how many. */
unsigned pipe_writeback(gpusc_pipe *const *pipes, unsigned n, uint64_t cycle, unsigned ports,
                        pipe_result *out);

G_END_DECLS

#endif
