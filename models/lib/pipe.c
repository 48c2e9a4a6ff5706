/* pipe.c — execution pipeline timing; see pipe.h. */
#include "models/lib/pipe.h"

struct gpusc_pipe {
    /* the head's completion cycle (PIPE_NONE: empty) and the queue's length, kept here so that the
     * write-back's look at every pipe each cycle touches this struct alone, not the queue */
    uint64_t head_done;
    unsigned len;
    pipe_config cfg;
    GArray *queue;        /* pipe_result, completion order */
    uint64_t next_accept; /* first cycle the initiation interval allows */
    uint64_t last_done;   /* completion of the latest accept (in-order rule) */
};

gpusc_pipe *pipe_new(const pipe_config *c)
{
    g_return_val_if_fail(c->latency >= 1 && c->ii >= 1, NULL);
    gpusc_pipe *p = g_new0(gpusc_pipe, 1);
    p->cfg = *c;
    p->queue = g_array_new(FALSE, FALSE, sizeof(pipe_result));
    p->head_done = PIPE_NONE;
    return p;
}

void pipe_free(gpusc_pipe *p)
{
    if (!p)
        return;
    g_array_free(p->queue, TRUE);
    g_free(p);
}

const pipe_config *pipe_get_config(const gpusc_pipe *p)
{
    return &p->cfg;
}

bool pipe_can_accept(const gpusc_pipe *p, uint64_t cycle)
{
    if (cycle < p->next_accept)
        return false;
    return p->cfg.capacity == 0 || p->len < p->cfg.capacity;
}

uint64_t pipe_next_accept(const gpusc_pipe *p, uint64_t cycle)
{
    return MAX(cycle, p->next_accept);
}

uint64_t pipe_accept_op(gpusc_pipe *p, uint64_t cycle, uint64_t payload, unsigned latency, unsigned ii)
{
    g_assert(pipe_can_accept(p, cycle));
    g_assert(latency >= 1 && ii >= 1);
    uint64_t done = cycle + latency;
    if (!p->cfg.out_of_order && done < p->last_done)
        done = p->last_done;
    p->last_done = MAX(p->last_done, done);
    p->next_accept = cycle + ii;
    pipe_result r = {.payload = payload, .accept_cycle = cycle, .done_cycle = done};
    /* Keep the queue sorted by completion; equal completions stay in accept order. */
    unsigned pos = p->len;
    while (pos > 0 && g_array_index(p->queue, pipe_result, pos - 1).done_cycle > done)
        pos--;
    g_array_insert_val(p->queue, pos, r);
    p->len++;
    if (pos == 0)
        p->head_done = done;
    return done;
}

uint64_t pipe_accept(gpusc_pipe *p, uint64_t cycle, uint64_t payload)
{
    return pipe_accept_op(p, cycle, payload, p->cfg.latency, p->cfg.ii);
}

unsigned pipe_in_flight(const gpusc_pipe *p)
{
    return p->len;
}

uint64_t pipe_next_completion(const gpusc_pipe *p)
{
    return p->head_done;
}

bool pipe_peek_done(const gpusc_pipe *p, uint64_t cycle, pipe_result *out)
{
    if (p->head_done > cycle) /* (PIPE_NONE when empty) */
        return false;
    if (out)
        *out = g_array_index(p->queue, pipe_result, 0);
    return true;
}

bool pipe_pop_done(gpusc_pipe *p, uint64_t cycle, pipe_result *out)
{
    if (!pipe_peek_done(p, cycle, out))
        return false;
    g_array_remove_index(p->queue, 0);
    p->head_done = --p->len ? g_array_index(p->queue, pipe_result, 0).done_cycle : PIPE_NONE;
    return true;
}

unsigned pipe_writeback(gpusc_pipe *const *pipes, unsigned n, uint64_t cycle, unsigned ports,
                        pipe_result *out)
{
    unsigned k = 0;
    while (k < ports) {
        int best = -1;
        uint64_t best_done = 0;
        for (unsigned i = 0; i < n; i++) {
            pipe_result r;
            if (pipe_peek_done(pipes[i], cycle, &r) && (best < 0 || r.done_cycle < best_done)) {
                best = (int)i;
                best_done = r.done_cycle;
            }
        }
        if (best < 0)
            break;
        pipe_pop_done(pipes[best], cycle, &out[k]);
        out[k].pipe = (unsigned)best;
        k++;
    }
    return k;
}
