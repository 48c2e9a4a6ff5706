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
 * The memory-check mode (fmem_set_check, before the first allocation) changes the allocation layout:
 *   strict   the layout above; every access outside an allocation faults (the default)
 *   isolate  each allocation is followed by an unmapped gap at least as large as itself (and at
 *            least FMEM_ISOLATE_GAP), so an access up to one buffer length past a buffer faults
 *            instead of landing in the next one; addresses differ from strict's
 *   warn     each allocation has FMEM_WARN_PAD bytes of padding before and after it (a real GPU maps
 *            device memory in pages, so such an access does not fault there); an access that lies in
 *            the padding is not a fault: fmem_translate_padding gives its pointer for the caller to
 *            report it (once per instruction, fmem_note_site) and go on
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
#define FMEM_WARN_PAD    65536ull    /* warn mode: padding before and after each allocation */
#define FMEM_ISOLATE_GAP 0x100000ull /* isolate mode: the least gap after an allocation (1 MiB) */

typedef enum { FMEM_CHECK_STRICT, FMEM_CHECK_WARN, FMEM_CHECK_ISOLATE } fmem_check;

typedef struct fmem fmem;

typedef struct {
    uint64_t base, size;
    uint8_t *data;
    bool readonly; /* the .const bank: kernels may not store to it */
    char *name;    /* "alloc#3", "module .global", "module .const" */
    uint64_t pad;  /* warn mode: bytes of padding before and after (data - pad is the host block) */
} fmem_region;

fmem *fmem_new(void);
void fmem_free(fmem *m);

/* The memory-check mode (see above); set it before the first fmem_alloc. */
void fmem_set_check(fmem *m, fmem_check mode);
fmem_check fmem_get_check(const fmem *m);
/* "strict", "warn" or "isolate"; false for anything else. */
bool fmem_check_parse(const char *s, fmem_check *out);

/* Allocate `bytes` (0 is taken as 1) of zero-filled global memory; returns its address, or 0 when the
 * address space is exhausted or the host cannot provide the memory. */
uint64_t fmem_alloc(fmem *m, uint64_t bytes);
/* Map a zero-filled region at a fixed address (module data). False if it overlaps a mapped region,
 * wraps around, or bytes is 0. */
bool fmem_map(fmem *m, uint64_t base, uint64_t bytes, bool readonly, const char *name);

/* The host pointer for [addr, addr+len) if it lies inside one mapped region (and, for `write`, the
 * region is writable); NULL otherwise. len must be > 0. The hot path: a one-entry cache of the last
 * region hit. */
uint8_t *fmem_translate(fmem *m, uint64_t addr, uint64_t len, bool write);

/* Warn mode: the host pointer for [addr, addr+len) when it is not inside an allocation but inside one
 * allocation and its padding (touching the padding), with that region in *r; NULL otherwise (and
 * always in the other modes). */
uint8_t *fmem_translate_padding(fmem *m, uint64_t addr, uint64_t len, const fmem_region **r);
/* Count one access in the padding, made by the instruction `site` (any key the caller chooses); true
 * the first time the site is seen (the caller reports it then). */
bool fmem_note_site(fmem *m, uint64_t site);
/* Accesses counted by fmem_note_site, and the distinct sites. */
uint64_t fmem_padding_accesses(const fmem *m);
unsigned fmem_padding_sites(const fmem *m);

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
