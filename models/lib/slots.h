/* slots.h — a pool of fixed-size items addressed by index, with a free list. Blocks keep the
 * records they hold here (the memory side's requests in an interconnect network, an L2 MSHR, a DRAM
 * queue; exec's completions in its pipes) and pass the index through the timing cores (icnt
 * payload, MSHR request id, DRAM tag, pipe payload), so a ~700-byte mem_req_t is copied once in and
 * once out, and nothing is allocated per item once the pool has grown. Indices stay valid until freed;
 * pointers only until the next mem_slots_take (the array may grow). */
#ifndef GPUSC_MODELS_LIB_SLOTS_H
#define GPUSC_MODELS_LIB_SLOTS_H

#include <glib.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    unsigned char *items;
    size_t size;          /* bytes per item */
    uint32_t n, cap;      /* items allocated (indices 0..n-1), room in `items` */
    uint32_t *free;       /* indices of the freed items, a stack */
    uint32_t n_free, cap_free;
    unsigned used;        /* items taken and not put back */
} mem_slots;

static inline void mem_slots_init(mem_slots *s, size_t item_size)
{
    *s = (mem_slots){.size = item_size};
}

static inline void mem_slots_clear(mem_slots *s)
{
    g_free(s->items);
    g_free(s->free);
    mem_slots_init(s, s->size);
}

/* A new item is all zero bytes; a reused one keeps what its last user left. */
static inline uint32_t mem_slots_take(mem_slots *s)
{
    s->used++;
    if (s->n_free)
        return s->free[--s->n_free];
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 16;
        s->items = (unsigned char *)g_realloc(s->items, (size_t)cap * s->size);
        memset(s->items + (size_t)s->cap * s->size, 0, (size_t)(cap - s->cap) * s->size);
        s->free = (uint32_t *)g_realloc(s->free, (size_t)cap * sizeof *s->free);
        s->cap = cap;
    }
    return s->n++;
}

static inline void *mem_slots_at(const mem_slots *s, uint32_t i)
{
    g_assert(i < s->n);
    return s->items + (size_t)i * s->size;
}

static inline void mem_slots_put_back(mem_slots *s, uint32_t i)
{
    g_assert(s->used > 0 && i < s->n);
    s->used--;
    s->free[s->n_free++] = i; /* never overflows: at most n (<= cap) indices are free */
}

#endif /* GPUSC_MODELS_LIB_SLOTS_H */
