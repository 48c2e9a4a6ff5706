/* reuse_profile.c — see reuse_profile.h. */
#include "kernels/passes/reuse_profile.h"

#include <string.h>

typedef struct {
    uint32_t func, pc;
    uint8_t n_src, n_dst;
    uint16_t src[RP_MAX_REGS], dst[RP_MAX_REGS];
} rp_dyn;

typedef struct {
    uint32_t near_src[RP_MAX_REGS], far_src[RP_MAX_REGS];
    uint32_t near_dst[RP_MAX_REGS], far_dst[RP_MAX_REGS];
    uint8_t n_src, n_dst;
} rp_votes_t;

typedef struct {
    uint32_t func, pc, src, dst;
} rp_bits;

struct rp_profile {
    unsigned rthld;
    GHashTable *streams; /* warp -> GArray of rp_dyn */
    GHashTable *stat;    /* (func << 32 | pc) -> rp_votes_t */
    GHashTable *oracle;  /* warp -> GArray of rp_bits */
    uint64_t near, far;
};

static guint64 key_of(uint32_t func, uint32_t pc)
{
    return (guint64)func << 32 | pc;
}

static void free_array(gpointer a)
{
    g_array_free(a, TRUE);
}

rp_profile *rp_new(unsigned rthld)
{
    rp_profile *p = g_new0(rp_profile, 1);
    p->rthld = rthld;
    p->streams = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_array);
    p->stat = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    p->oracle = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_array);
    return p;
}

void rp_free(rp_profile *p)
{
    if (!p)
        return;
    g_hash_table_destroy(p->streams);
    g_hash_table_destroy(p->stat);
    g_hash_table_destroy(p->oracle);
    g_free(p);
}

void rp_instr(rp_profile *p, unsigned warp, uint32_t func, uint32_t pc, const uint16_t *src, unsigned n_src,
              const uint16_t *dst, unsigned n_dst)
{
    GArray *a = g_hash_table_lookup(p->streams, GUINT_TO_POINTER(warp));
    if (!a) {
        a = g_array_new(FALSE, FALSE, sizeof(rp_dyn));
        g_hash_table_insert(p->streams, GUINT_TO_POINTER(warp), a);
    }
    rp_dyn d = {.func = func, .pc = pc};
    d.n_src = (uint8_t)MIN(n_src, RP_MAX_REGS);
    d.n_dst = (uint8_t)MIN(n_dst, RP_MAX_REGS);
    if (d.n_src) /* (src or dst may be NULL when there are none) */
        memcpy(d.src, src, d.n_src * sizeof *src);
    if (d.n_dst)
        memcpy(d.dst, dst, d.n_dst * sizeof *dst);
    g_array_append_val(a, d);
}

static rp_votes_t *votes_for(rp_profile *p, const rp_dyn *d)
{
    guint64 k = key_of(d->func, d->pc);
    rp_votes_t *v = g_hash_table_lookup(p->stat, &k);
    if (!v) {
        v = g_new0(rp_votes_t, 1);
        guint64 *kk = g_new(guint64, 1);
        *kk = k;
        g_hash_table_insert(p->stat, kk, v);
    }
    v->n_src = MAX(v->n_src, d->n_src);
    v->n_dst = MAX(v->n_dst, d->n_dst);
    return v;
}

#define RP_NONE UINT64_MAX

/* The near/far votes of the registers regs[0..n) of instruction i (their next reads in nxt). */
static void vote(rp_profile *p, GHashTable *nxt, guint i, const uint16_t *regs, unsigned n, uint32_t *near_v,
                 uint32_t *far_v, uint32_t *bits)
{
    for (unsigned j = 0; j < n; j++) {
        guint64 x = GPOINTER_TO_SIZE(g_hash_table_lookup(nxt, GUINT_TO_POINTER((unsigned)regs[j] + 1)));
        if (x != 0 && x - 1 - i <= p->rthld) {
            near_v[j]++, *bits |= 1u << j, p->near++;
        } else {
            far_v[j]++, p->far++;
        }
    }
}

/* Backward over one stream: nxt[r] = index of the next read of r's current value (RP_NONE: written
 * again or never read). At instruction i the sources are read before the destinations are written,
 * so going backward the destinations are handled first. */
static void stream_finish(rp_profile *p, unsigned warp, GArray *a)
{
    GHashTable *nxt = g_hash_table_new(g_direct_hash, g_direct_equal); /* reg + 1 -> index + 1 */
    GArray *bits = g_array_sized_new(FALSE, TRUE, sizeof(rp_bits), a->len);
    g_array_set_size(bits, a->len);
    for (guint i = a->len; i-- > 0;) {
        const rp_dyn *d = &g_array_index(a, rp_dyn, i);
        rp_votes_t *v = votes_for(p, d);
        rp_bits *b = &g_array_index(bits, rp_bits, i);
        b->func = d->func;
        b->pc = d->pc;
        /* the destinations' values are read next at nxt; before i the registers held other values */
        vote(p, nxt, i, d->dst, d->n_dst, v->near_dst, v->far_dst, &b->dst);
        for (unsigned j = 0; j < d->n_dst; j++)
            g_hash_table_remove(nxt, GUINT_TO_POINTER((unsigned)d->dst[j] + 1));
        vote(p, nxt, i, d->src, d->n_src, v->near_src, v->far_src, &b->src);
        for (unsigned j = 0; j < d->n_src; j++)
            g_hash_table_insert(nxt, GUINT_TO_POINTER((unsigned)d->src[j] + 1),
                                GSIZE_TO_POINTER((gsize)i + 1));
    }
    g_hash_table_destroy(nxt);
    GArray *old = g_hash_table_lookup(p->oracle, GUINT_TO_POINTER(warp));
    if (old) {
        g_array_append_vals(old, bits->data, bits->len);
        g_array_free(bits, TRUE);
    } else {
        g_hash_table_insert(p->oracle, GUINT_TO_POINTER(warp), bits);
    }
}

void rp_finish(rp_profile *p)
{
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, p->streams);
    while (g_hash_table_iter_next(&it, &k, &v))
        stream_finish(p, GPOINTER_TO_UINT(k), v);
    g_hash_table_remove_all(p->streams);
}

bool rp_hints(const rp_profile *p, uint32_t func, uint32_t pc, uint32_t *src, uint32_t *dst)
{
    guint64 k = key_of(func, pc);
    const rp_votes_t *v = g_hash_table_lookup(p->stat, &k);
    *src = *dst = 0;
    if (!v)
        return false;
    for (unsigned j = 0; j < v->n_src; j++)
        if (v->near_src[j] > v->far_src[j]) /* a tie is far */
            *src |= 1u << j;
    for (unsigned j = 0; j < v->n_dst; j++)
        if (v->near_dst[j] > v->far_dst[j])
            *dst |= 1u << j;
    return true;
}

bool rp_oracle_instr(const rp_profile *p, unsigned warp, uint64_t k, uint32_t *func, uint32_t *pc)
{
    const GArray *a = g_hash_table_lookup(p->oracle, GUINT_TO_POINTER(warp));
    if (!a || k >= a->len)
        return false;
    *func = g_array_index(a, rp_bits, k).func;
    *pc = g_array_index(a, rp_bits, k).pc;
    return true;
}

bool rp_oracle(const rp_profile *p, unsigned warp, uint64_t k, uint32_t *src, uint32_t *dst)
{
    const GArray *a = g_hash_table_lookup(p->oracle, GUINT_TO_POINTER(warp));
    *src = *dst = 0;
    if (!a || k >= a->len)
        return false;
    const rp_bits *b = &g_array_index(a, rp_bits, k);
    *src = b->src;
    *dst = b->dst;
    return true;
}

void rp_votes(const rp_profile *p, uint64_t *near, uint64_t *far)
{
    *near = p->near;
    *far = p->far;
}

unsigned rp_static_count(const rp_profile *p)
{
    return g_hash_table_size(p->stat);
}

static gint cmp_key(gconstpointer a, gconstpointer b)
{
    guint64 x = **(guint64 *const *)a, y = **(guint64 *const *)b;
    return x < y ? -1 : x > y;
}

void rp_print(const rp_profile *p, FILE *out, const char *(*func_name)(void *ctx, uint32_t func), void *ctx)
{
    GPtrArray *keys = g_ptr_array_new();
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, p->stat);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_ptr_array_add(keys, k);
    g_ptr_array_sort(keys, cmp_key);
    for (guint i = 0; i < keys->len; i++) {
        guint64 key = *(guint64 *)g_ptr_array_index(keys, i);
        uint32_t func = (uint32_t)(key >> 32), pc = (uint32_t)key, s, d;
        const rp_votes_t *vv = g_hash_table_lookup(p->stat, &key);
        rp_hints(p, func, pc, &s, &d);
        fprintf(out, "%s pc %u src ", func_name ? func_name(ctx, func) : "?", pc);
        for (unsigned j = 0; j < vv->n_src; j++)
            fputc(s >> j & 1 ? 'N' : 'F', out);
        if (!vv->n_src)
            fputc('-', out);
        fputs(" dst ", out);
        for (unsigned j = 0; j < vv->n_dst; j++)
            fputc(d >> j & 1 ? 'N' : 'F', out);
        if (!vv->n_dst)
            fputc('-', out);
        fputc('\n', out);
    }
    g_ptr_array_free(keys, TRUE);
}
