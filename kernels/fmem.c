/* fmem.c — the functional memory image (see fmem.h). Regions are kept sorted by base address in a
 * GArray; lookups try the last region hit, then binary-search. */
#include "kernels/fmem.h"

#include <string.h>

struct fmem {
    GArray *regions; /* fmem_region, sorted by base, non-overlapping */
    uint64_t next;   /* next allocation address */
    unsigned n_allocs;
    guint last; /* index of the last region hit (cache) */
};

fmem *fmem_new(void)
{
    fmem *m = g_new0(fmem, 1);
    m->regions = g_array_new(FALSE, TRUE, sizeof(fmem_region));
    m->next = FMEM_ALLOC_BASE;
    return m;
}

void fmem_free(fmem *m)
{
    if (!m)
        return;
    for (guint i = 0; i < m->regions->len; i++) {
        fmem_region *r = &g_array_index(m->regions, fmem_region, i);
        g_free(r->data);
        g_free(r->name);
    }
    g_array_free(m->regions, TRUE);
    g_free(m);
}

/* Index of the first region with base > addr. */
static guint regions_upper_bound(const fmem *m, uint64_t addr)
{
    guint lo = 0, hi = m->regions->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(m->regions, fmem_region, mid).base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool region_overlaps(const fmem *m, uint64_t base, uint64_t size)
{
    guint i = regions_upper_bound(m, base);
    if (i > 0) {
        const fmem_region *p = &g_array_index(m->regions, fmem_region, i - 1);
        if (base - p->base < p->size)
            return true;
    }
    if (i < m->regions->len) {
        const fmem_region *n = &g_array_index(m->regions, fmem_region, i);
        if (n->base - base < size)
            return true;
    }
    return false;
}

static void region_insert(fmem *m, uint64_t base, uint64_t size, bool readonly, char *name)
{
    fmem_region r = {.base = base, .size = size, .data = g_malloc0(size), .readonly = readonly, .name = name};
    guint i = regions_upper_bound(m, base);
    g_array_insert_val(m->regions, i, r);
    m->last = i;
}

uint64_t fmem_alloc(fmem *m, uint64_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    uint64_t base = m->next;
    if (bytes > FMEM_ALLOC_LIMIT - base)
        return 0;
    uint64_t end = (base + bytes + FMEM_GUARD + FMEM_ALIGN - 1) & ~(FMEM_ALIGN - 1);
    /* Fixed mappings never sit in the allocation range in practice; skip over one if they do. */
    while (region_overlaps(m, base, bytes)) {
        const fmem_region *r = fmem_find(m, base);
        uint64_t after = r ? r->base + r->size : base + FMEM_ALIGN;
        base = (after + FMEM_GUARD + FMEM_ALIGN - 1) & ~(FMEM_ALIGN - 1);
        if (bytes > FMEM_ALLOC_LIMIT - base)
            return 0;
        end = (base + bytes + FMEM_GUARD + FMEM_ALIGN - 1) & ~(FMEM_ALIGN - 1);
    }
    region_insert(m, base, bytes, false, g_strdup_printf("alloc#%u", m->n_allocs++));
    m->next = end;
    return base;
}

bool fmem_map(fmem *m, uint64_t base, uint64_t bytes, bool readonly, const char *name)
{
    if (bytes == 0 || base + bytes < base || region_overlaps(m, base, bytes))
        return false;
    region_insert(m, base, bytes, readonly, g_strdup(name ? name : "mapped"));
    return true;
}

const fmem_region *fmem_find(fmem *m, uint64_t addr)
{
    if (m->last < m->regions->len) {
        const fmem_region *r = &g_array_index(m->regions, fmem_region, m->last);
        if (addr - r->base < r->size)
            return r;
    }
    guint i = regions_upper_bound(m, addr);
    if (i == 0)
        return NULL;
    const fmem_region *r = &g_array_index(m->regions, fmem_region, i - 1);
    if (addr - r->base >= r->size)
        return NULL;
    m->last = i - 1;
    return r;
}

uint8_t *fmem_translate(fmem *m, uint64_t addr, uint64_t len, bool write)
{
    fmem_cache c = {0}; /* empty: the lookup is fmem_find's */
    return fmem_translate_cached(m, &c, addr, len, write);
}

/* Host copies may span adjacent regions only if they are contiguous; in practice one region. */
bool fmem_read(fmem *m, uint64_t addr, void *dst, uint64_t len)
{
    if (len == 0)
        return true;
    const fmem_region *r = fmem_find(m, addr);
    if (!r || len > r->size - (addr - r->base))
        return false;
    memcpy(dst, r->data + (addr - r->base), len);
    return true;
}

bool fmem_write(fmem *m, uint64_t addr, const void *src, uint64_t len)
{
    if (len == 0)
        return true;
    const fmem_region *r = fmem_find(m, addr);
    if (!r || len > r->size - (addr - r->base))
        return false;
    memcpy(r->data + (addr - r->base), src, len);
    return true;
}

bool fmem_fill(fmem *m, uint64_t addr, uint8_t byte, uint64_t len)
{
    if (len == 0)
        return true;
    const fmem_region *r = fmem_find(m, addr);
    if (!r || len > r->size - (addr - r->base))
        return false;
    memset(r->data + (addr - r->base), byte, len);
    return true;
}

unsigned fmem_n_regions(const fmem *m)
{
    return m->regions->len;
}

uint64_t fmem_mapped_bytes(const fmem *m)
{
    uint64_t n = 0;
    for (guint i = 0; i < m->regions->len; i++)
        n += g_array_index(m->regions, fmem_region, i).size;
    return n;
}

void fmem_describe_fault(fmem *m, uint64_t addr, uint64_t len, bool write, GString *out)
{
    const fmem_region *r = fmem_find(m, addr);
    if (r) {
        if (len > r->size - (addr - r->base))
            g_string_append_printf(out,
                                   "%" G_GUINT64_FORMAT "-byte access at 0x%" G_GINT64_MODIFIER
                                   "x runs past the end of %s [0x%" G_GINT64_MODIFIER "x, +%" G_GUINT64_FORMAT
                                   ")",
                                   len, addr, r->name, r->base, r->size);
        else if (write && r->readonly)
            g_string_append_printf(out, "store to read-only %s at 0x%" G_GINT64_MODIFIER "x", r->name, addr);
        else
            g_string_append_printf(out, "access at 0x%" G_GINT64_MODIFIER "x is valid", addr);
        return;
    }
    g_string_append_printf(out, "unmapped address 0x%" G_GINT64_MODIFIER "x", addr);
    guint i = regions_upper_bound(m, addr);
    if (i > 0) {
        const fmem_region *p = &g_array_index(m->regions, fmem_region, i - 1);
        g_string_append_printf(out,
                               " (%" G_GUINT64_FORMAT " bytes past the end of %s [0x%" G_GINT64_MODIFIER
                               "x, +%" G_GUINT64_FORMAT "))",
                               addr - (p->base + p->size), p->name, p->base, p->size);
    } else if (i < m->regions->len) {
        const fmem_region *n = &g_array_index(m->regions, fmem_region, i);
        g_string_append_printf(out,
                               " (%" G_GUINT64_FORMAT " bytes before %s [0x%" G_GINT64_MODIFIER
                               "x, +%" G_GUINT64_FORMAT "))",
                               n->base - addr, n->name, n->base, n->size);
    }
}
