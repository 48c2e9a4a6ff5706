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

typedef struct {
    GArray *items;
    GArray *free; /* uint32_t indices */
    unsigned used;
} mem_slots;

static inline void mem_slots_init(mem_slots *s, size_t item_size)
{
    s->items = g_array_new(FALSE, TRUE, (guint)item_size);
    s->free = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    s->used = 0;
}

static inline void mem_slots_clear(mem_slots *s)
{
    g_array_free(s->items, TRUE);
    g_array_free(s->free, TRUE);
}

static inline uint32_t mem_slots_take(mem_slots *s)
{
    s->used++;
    if (s->free->len) {
        uint32_t i = g_array_index(s->free, uint32_t, s->free->len - 1);
        g_array_set_size(s->free, s->free->len - 1);
        return i;
    }
    g_array_set_size(s->items, s->items->len + 1);
    return s->items->len - 1;
}

static inline void *mem_slots_at(const mem_slots *s, uint32_t i)
{
    g_assert(i < s->items->len);
    return s->items->data + (size_t)i * g_array_get_element_size(s->items);
}

static inline void mem_slots_put_back(mem_slots *s, uint32_t i)
{
    g_assert(s->used > 0);
    s->used--;
    g_array_append_val(s->free, i);
}

#endif /* GPUSC_MODELS_LIB_SLOTS_H */
