/* ring.h — a FIFO of fixed-size records stored by value in a growable circular buffer.
 *
 * For the queues blocks keep between activations (requests in flight, completions to send): a
 * GQueue of g_new'd records costs an allocation, a list node and two frees per item, on the hot
 * path of every memory transaction; a ring costs a copy. Capacity doubles when full, so it never
 * refuses a push; pointers returned by ring_peek/ring_at stay valid until the next push or pop.
 */
#ifndef GPUSC_MODELS_LIB_RING_H
#define GPUSC_MODELS_LIB_RING_H

#include <glib.h>
#include <stdbool.h>
#include <string.h>

typedef struct {
    unsigned char *buf;
    size_t elem;  /* bytes per record */
    unsigned cap; /* records the buffer holds (a power of two, or 0) */
    unsigned head, n;
} ring;

static inline void ring_init(ring *r, size_t elem)
{
    memset(r, 0, sizeof *r);
    r->elem = elem;
}

static inline void ring_clear(ring *r)
{
    g_free(r->buf);
    ring_init(r, r->elem);
}

static inline unsigned ring_len(const ring *r)
{
    return r->n;
}

static inline bool ring_empty(const ring *r)
{
    return r->n == 0;
}

/* The i-th record from the head (i < ring_len). */
static inline void *ring_at(const ring *r, unsigned i)
{
    return r->buf + (size_t)((r->head + i) & (r->cap - 1)) * r->elem;
}

static inline void *ring_peek(const ring *r)
{
    return r->n ? ring_at(r, 0) : NULL;
}

static inline void ring_grow(ring *r)
{
    unsigned cap = r->cap ? 2 * r->cap : 16;
    unsigned char *buf = (unsigned char *)g_malloc((size_t)cap * r->elem);
    for (unsigned i = 0; i < r->n; i++)
        memcpy(buf + (size_t)i * r->elem, ring_at(r, i), r->elem);
    g_free(r->buf);
    r->buf = buf;
    r->cap = cap;
    r->head = 0;
}

/* A new record at the tail, uninitialised; fill it before the next push or pop. */
static inline void *ring_push_slot(ring *r)
{
    if (r->n == r->cap)
        ring_grow(r);
    return ring_at(r, r->n++);
}

static inline void ring_push(ring *r, const void *rec)
{
    memcpy(ring_push_slot(r), rec, r->elem);
}

/* Drops the head record (copied to out first when out is not NULL). A ring it empties starts again
 * at its first record: a queue filled and drained in the same activation reuses the same cache lines
 * instead of walking the whole buffer. */
static inline void ring_pop(ring *r, void *out)
{
    g_assert(r->n > 0);
    if (out)
        memcpy(out, ring_at(r, 0), r->elem);
    r->head = --r->n ? (r->head + 1) & (r->cap - 1) : 0;
}

#endif
