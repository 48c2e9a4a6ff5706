/* fmem.h — the functional memory image: a sparse 64-bit global address space, plus bounded byte
 * segments for the other state spaces (shared per CTA, local per thread, parameters).
 *
 * The global space is a set of mapped regions (device allocations, module .global data, the .const
 * bank), each backed by its own zero-filled host buffer; everything else is unmapped. An access must
 * lie entirely inside one region, or it is an error the caller reports (a kernel that corrupts state
 * must fail loudly, not scribble over a neighbour). Device allocations are 256-byte aligned, start at
 * FMEM_ALLOC_BASE (not 0, so null-pointer bugs fault) and are separated by an unmapped guard gap of at
 * least FMEM_GUARD bytes, so an off-by-one overflow faults instead of reading the next buffer.
 *
 * Used by the functional runner (frun.h) and by the timing model's memory system alike.
 */
#ifndef GPUSC_KERNELS_FMEM_H
#define GPUSC_KERNELS_FMEM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

G_BEGIN_DECLS

#define FMEM_ALLOC_BASE  0x10000000ull     /* first device allocation */
#define FMEM_ALLOC_LIMIT 0x100000000000ull /* allocations stay below this (the generic windows) */
#define FMEM_ALIGN       256ull
#define FMEM_GUARD       256ull

typedef struct fmem fmem;

typedef struct {
    uint64_t base, size;
    uint8_t *data;
    bool readonly; /* the .const bank: kernels may not store to it */
    char *name;    /* "alloc#3", "module .global", "module .const" */
} fmem_region;

fmem *fmem_new(void);
void fmem_free(fmem *m);

/* Allocate `bytes` (0 is taken as 1) of zero-filled global memory; returns its address, or 0 when the
 * address space is exhausted. */
uint64_t fmem_alloc(fmem *m, uint64_t bytes);
/* Map a zero-filled region at a fixed address (module data). False if it overlaps a mapped region,
 * wraps around, or bytes is 0. */
bool fmem_map(fmem *m, uint64_t base, uint64_t bytes, bool readonly, const char *name);

/* The host pointer for [addr, addr+len) if it lies inside one mapped region (and, for `write`, the
 * region is writable); NULL otherwise. len must be > 0. The hot path: a one-entry cache of the last
 * region hit. */
uint8_t *fmem_translate(fmem *m, uint64_t addr, uint64_t len, bool write);

/* Host-side copies (the runtime's memcpy): no read-only check. False if not mapped. */
bool fmem_read(fmem *m, uint64_t addr, void *dst, uint64_t len);
bool fmem_write(fmem *m, uint64_t addr, const void *src, uint64_t len);
bool fmem_fill(fmem *m, uint64_t addr, uint8_t byte, uint64_t len);

/* The region containing addr, or NULL. */
const fmem_region *fmem_find(fmem *m, uint64_t addr);
unsigned fmem_n_regions(const fmem *m);
/* Bytes mapped in total. */
uint64_t fmem_mapped_bytes(const fmem *m);

/* A caller's own one-region cache for fmem_translate_cached: the bounds, data and writability of
 * the last region it hit, copied (a region never changes or goes away before fmem_free, so a copy
 * stays valid while the image lives). Zero-initialised: empty. A per-lane loop keeps one so that
 * the lanes after the first skip fmem_find and its call. */
typedef struct {
    uint64_t base, size;
    uint8_t *data;
    bool readonly;
} fmem_cache;

/* fmem_translate, with `c` tried first and refilled on a miss (same result). */
static inline uint8_t *fmem_translate_cached(fmem *m, fmem_cache *c, uint64_t addr, uint64_t len, bool write)
{
    if (G_UNLIKELY(addr - c->base >= c->size)) {
        const fmem_region *r = fmem_find(m, addr);
        if (!r)
            return NULL;
        *c = (fmem_cache){.base = r->base, .size = r->size, .data = r->data, .readonly = r->readonly};
    }
    if (len > c->size - (addr - c->base) || (write && c->readonly))
        return NULL;
    return c->data + (addr - c->base);
}

/* Append to `out` why [addr, addr+len) is not accessible: "unmapped address 0x...; nearest: alloc#2
 * [0x10000100, +4096) ends 16 bytes before it". For error messages. */
void fmem_describe_fault(fmem *m, uint64_t addr, uint64_t len, bool write, GString *out);

/* A bounded byte segment (shared memory of a CTA, a thread's local frame, a parameter buffer). */
typedef struct {
    uint8_t *data;
    uint64_t size;
} fmem_seg;

static inline uint8_t *fmem_seg_ptr(const fmem_seg *s, uint64_t off, uint64_t len)
{
    if (off > s->size || len > s->size - off)
        return NULL;
    return s->data + off;
}

G_END_DECLS

#endif /* GPUSC_KERNELS_FMEM_H */
