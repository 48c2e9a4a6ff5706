/* fmem.c — the functional memory image (see fmem.h). Regions are kept sorted by base address in a
 * GArray; lookups try the last region hit, then binary-search. */
#include "kernels/run/fmem.h"

#include <string.h>

struct fmem {
    GArray *regions; /* fmem_region, sorted by base, non-overlapping */
    uint64_t next;   /* next allocation address */
    unsigned n_allocs;
    guint last;         /* index of the last region hit (cache) */
    fmem_check check;   /* the memory-check mode */
    GHashTable *sites;  /* warn mode: the instructions that touched a padding (fmem_note_site) */
    uint64_t n_padding; /* accesses counted by fmem_note_site */
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
        g_free(r->data - r->pad);
        g_free(r->name);
    }
    g_array_free(m->regions, TRUE);
    if (m->sites)
        g_hash_table_destroy(m->sites);
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

/* Map [base, base+size) with `pad` bytes of padding on each side; false (nothing mapped) when the
 * host has not the memory (a legal but huge allocation must be an error, not an abort). */
static bool region_insert(fmem *m, uint64_t base, uint64_t size, uint64_t pad, bool readonly,
                          const char *name)
{
    if (size > G_MAXSIZE - 2 * pad)
        return false;
    uint8_t *block = g_try_malloc0((gsize)(size + 2 * pad));
    if (!block)
        return false;
    fmem_region r = {.base = base,
                     .size = size,
                     .data = block + pad,
                     .readonly = readonly,
                     .name = g_strdup(name),
                     .pad = pad};
    guint i = regions_upper_bound(m, base);
    g_array_insert_val(m->regions, i, r);
    m->last = i;
    return true;
}

void fmem_set_check(fmem *m, fmem_check mode)
{
    m->check = mode;
}

fmem_check fmem_get_check(const fmem *m)
{
    return m->check;
}

bool fmem_check_parse(const char *s, fmem_check *out)
{
    static const char *const names[] = {
        [FMEM_CHECK_STRICT] = "strict", [FMEM_CHECK_WARN] = "warn", [FMEM_CHECK_ISOLATE] = "isolate"};
    for (unsigned i = 0; s && i < G_N_ELEMENTS(names); i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (fmem_check)i;
            return true;
        }
    return false;
}

static inline uint64_t align_up(uint64_t x)
{
    return (x + FMEM_ALIGN - 1) & ~(FMEM_ALIGN - 1);
}

/* The unmapped bytes an allocation of `bytes` keeps after itself (before the next one's padding). */
static uint64_t gap_after(const fmem *m, uint64_t bytes)
{
    if (m->check == FMEM_CHECK_ISOLATE)
        return MAX(align_up(bytes), FMEM_ISOLATE_GAP);
    return FMEM_GUARD;
}

uint64_t fmem_alloc(fmem *m, uint64_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    uint64_t pad = m->check == FMEM_CHECK_WARN ? FMEM_WARN_PAD : 0;
    uint64_t base = m->next + pad, gap = gap_after(m, bytes);
    /* Fixed mappings never sit in the allocation range in practice; skip over one if they do. */
    while (base < FMEM_ALLOC_LIMIT && bytes + pad <= FMEM_ALLOC_LIMIT - base &&
           region_overlaps(m, base - pad, bytes + 2 * pad)) {
        const fmem_region *r = fmem_find(m, base - pad);
        uint64_t after = r ? r->base + r->size + r->pad : base + FMEM_ALIGN;
        base = align_up(after + FMEM_GUARD + pad);
    }
    /* (compared piecewise: bytes + pad + gap may wrap around 64 bits) */
    if (base >= FMEM_ALLOC_LIMIT || bytes > FMEM_ALLOC_LIMIT - base || pad > FMEM_ALLOC_LIMIT - base - bytes ||
        gap > FMEM_ALLOC_LIMIT - base - bytes - pad)
        return 0;
    char name[32];
    g_snprintf(name, sizeof name, "alloc#%u", m->n_allocs);
    if (!region_insert(m, base, bytes, pad, false, name))
        return 0;
    m->n_allocs++;
    m->next = align_up(base + bytes + pad + gap);
    return base;
}

bool fmem_map(fmem *m, uint64_t base, uint64_t bytes, bool readonly, const char *name)
{
    if (bytes == 0 || base + bytes < base || region_overlaps(m, base, bytes))
        return false;
    return region_insert(m, base, bytes, 0, readonly, name ? name : "mapped");
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
    uint8_t *p = fmem_translate_cached(m, &c, addr, len, write);
    if (G_UNLIKELY(!p) && m->check == FMEM_CHECK_WARN)
        p = fmem_translate_padding(m, addr, len, NULL);
    return p;
}

uint8_t *fmem_translate_padding(fmem *m, uint64_t addr, uint64_t len, const fmem_region **rp)
{
    if (m->check != FMEM_CHECK_WARN || len == 0)
        return NULL;
    /* The region whose padded span [base - pad, base + size + pad) holds addr: the last region that
     * starts at or before addr + pad (spans never overlap). */
    guint i = regions_upper_bound(m, addr + FMEM_WARN_PAD);
    if (i == 0)
        return NULL;
    const fmem_region *r = &g_array_index(m->regions, fmem_region, i - 1);
    uint64_t lo = r->base - r->pad, span = r->size + 2 * r->pad;
    if (r->pad == 0 || addr - lo >= span || len > span - (addr - lo))
        return NULL;
    if (addr >= r->base && addr + len <= r->base + r->size)
        return NULL; /* inside the allocation: not the padding's business */
    if (rp)
        *rp = r;
    return r->data + (addr - r->base);
}

bool fmem_note_site(fmem *m, uint64_t site)
{
    m->n_padding++;
    if (!m->sites)
        m->sites = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    if (g_hash_table_contains(m->sites, &site))
        return false;
    g_hash_table_add(m->sites, g_memdup2(&site, sizeof site));
    return true;
}

uint64_t fmem_padding_accesses(const fmem *m)
{
    return m->n_padding;
}

unsigned fmem_padding_sites(const fmem *m)
{
    return m->sites ? g_hash_table_size(m->sites) : 0;
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
