/* reuse_trace.c — see reuse_trace.h. */
#define _GNU_SOURCE
#include "models/sm/reuse_trace.h"

#include <inttypes.h>
#include <string.h>

#include "models/sm/warp_exec.h"

typedef struct {
    uint8_t ns, nd;
    uint16_t src[SM_MAX_BANK_READS], dst[SM_MAX_BANK_WRITES];
} rt_lists;

struct rp_trace {
    const ir_module *m;
    const kload_module *k;
    rp_profile *prof, *oracle;
    unsigned profile_warps, launch, n_streams;
    uint64_t last_n;
    GString *line;
    GHashTable *funcs;   /* name -> index + 1 */
    GHashTable *lists;   /* (func << 32 | pc) -> rt_lists */
    GHashTable *streams; /* "launch/x,y,z/w" -> oracle stream + 1 */
    GHashTable *starts;  /* "x,y,z/w" -> starts seen in the timing run */
};

rp_trace *rp_trace_new(const ir_module *m, const kload_module *k, rp_profile *prof, unsigned profile_warps,
                       rp_profile *oracle)
{
    rp_trace *t = g_new0(rp_trace, 1);
    t->m = m;
    t->k = k;
    t->prof = prof;
    t->oracle = oracle;
    t->profile_warps = profile_warps;
    t->line = g_string_new(NULL);
    t->funcs = g_hash_table_new(g_str_hash, g_str_equal);
    t->lists = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    t->streams = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    t->starts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (unsigned f = 0; f < m->funcs->len; f++)
        g_hash_table_insert(t->funcs, ((ir_func *)g_ptr_array_index(m->funcs, f))->name,
                            GUINT_TO_POINTER(f + 1));
    return t;
}

void rp_trace_free(rp_trace *t)
{
    if (!t)
        return;
    g_string_free(t->line, TRUE);
    g_hash_table_destroy(t->funcs);
    g_hash_table_destroy(t->lists);
    g_hash_table_destroy(t->streams);
    g_hash_table_destroy(t->starts);
    g_free(t);
}

static unsigned oracle_stream(rp_trace *t, unsigned launch, unsigned bx, unsigned by, unsigned bz, unsigned w)
{
    char *key = g_strdup_printf("%u/%u,%u,%u/%u", launch, bx, by, bz, w);
    gpointer v = g_hash_table_lookup(t->streams, key);
    if (v) {
        g_free(key);
        return GPOINTER_TO_UINT(v) - 1;
    }
    unsigned id = t->n_streams++;
    g_hash_table_insert(t->streams, key, GUINT_TO_POINTER(id + 1));
    return id;
}

void rp_trace_line(rp_trace *t, const char *l)
{
    uint64_t n;
    unsigned bx, by, bz, warp, pc;
    char name[256];
    if (sscanf(l, "%" SCNu64 " block (%u,%u,%u) warp %u %255s pc %u", &n, &bx, &by, &bz, &warp, name, &pc) !=
        7)
        return;
    if (n < t->last_n)
        t->launch++;
    t->last_n = n;
    bool profiled = !bx && !by && !bz && warp < t->profile_warps;
    if (!profiled && !t->oracle)
        return;
    guint f = GPOINTER_TO_UINT(g_hash_table_lookup(t->funcs, name));
    if (!f--)
        return;
    guint64 key = (guint64)f << 32 | pc;
    rt_lists *ls = g_hash_table_lookup(t->lists, &key);
    if (!ls) {
        ls = g_new0(rt_lists, 1);
        const ir_func *fn = g_ptr_array_index(t->m->funcs, f);
        if (pc < ir_func_n_instrs(fn))
            wexec_instr_bank_regs(t->m, t->k, f, ir_func_instr(fn, pc), ls->src, &ls->ns, ls->dst, &ls->nd);
        guint64 *kk = g_new(guint64, 1);
        *kk = key;
        g_hash_table_insert(t->lists, kk, ls);
    }
    if (profiled)
        rp_instr(t->prof, t->launch * 4096 + warp, f, pc, ls->src, ls->ns, ls->dst, ls->nd);
    if (t->oracle)
        rp_instr(t->oracle, oracle_stream(t, t->launch, bx, by, bz, warp), f, pc, ls->src, ls->ns, ls->dst,
                 ls->nd);
}

static ssize_t trace_write(void *cookie, const char *buf, size_t size)
{
    rp_trace *t = cookie;
    for (size_t i = 0; i < size; i++) {
        if (buf[i] != '\n') {
            g_string_append_c(t->line, buf[i]);
            continue;
        }
        rp_trace_line(t, t->line->str);
        g_string_truncate(t->line, 0);
    }
    return (ssize_t)size;
}

FILE *rp_trace_file(rp_trace *t)
{
    cookie_io_functions_t io = {.write = trace_write};
    return fopencookie(t, "w", io);
}

bool rp_trace_oracle_start(rp_trace *t, const uint32_t ctaid[3], unsigned w, unsigned *stream)
{
    char *cta = g_strdup_printf("%u,%u,%u/%u", ctaid[0], ctaid[1], ctaid[2], w);
    unsigned launch = GPOINTER_TO_UINT(g_hash_table_lookup(t->starts, cta));
    char *key = g_strdup_printf("%u/%s", launch, cta);
    g_hash_table_replace(t->starts, cta, GUINT_TO_POINTER(launch + 1));
    gpointer v = g_hash_table_lookup(t->streams, key);
    g_free(key);
    if (!v)
        return false;
    *stream = GPOINTER_TO_UINT(v) - 1;
    return true;
}

const char *rp_trace_func_name(void *ctx, uint32_t f)
{
    const rp_trace *t = ctx;
    return ((const ir_func *)g_ptr_array_index(t->m->funcs, f))->name;
}
