/* block.c — descriptors, registry, parameter values, instances. */
#include "models/core/block.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "models/core/config.h"
#include "models/core/energy.h"
#include "models/core/port.h"

/* ---------------------------------------------------------------------------------------------
 * Registry: name -> descriptor. The only mutable global of the framework (with the presets).
 * ------------------------------------------------------------------------------------------- */

static GPtrArray *registry; /* const blk_desc *, sorted by name */

static gint desc_cmp(gconstpointer a, gconstpointer b)
{
    const blk_desc *da = *(const blk_desc *const *)a;
    const blk_desc *db = *(const blk_desc *const *)b;
    return strcmp(da->name, db->name);
}

/* A descriptor whose own defaults do not validate is a programming error in the block. */
static void desc_check_defaults(const blk_desc *desc)
{
    for (unsigned i = 0; i < desc->n_params; i++) {
        blk_value v;
        char *problem = NULL;
        if (!blk_value_parse(&desc->params[i], desc->params[i].def, &v, &problem))
            g_error("block %s: default of parameter %s: %s", desc->name, desc->params[i].name, problem);
        blk_value_clear(&v);
    }
    for (unsigned i = 0; i < desc->n_ports; i++) {
        const blk_port_desc *pd = &desc->ports[i];
        if ((pd->chan == BLK_CHAN_EXPORT || pd->chan == BLK_CHAN_IMPORT) != (pd->iface != NULL))
            g_error("block %s: port %s: interface ports (and only they) name an interface", desc->name,
                    pd->name);
        if ((pd->chan == BLK_CHAN_EXPORT && pd->dir != GSC_IN) ||
            (pd->chan == BLK_CHAN_IMPORT && pd->dir != GSC_OUT))
            g_error("block %s: port %s: an export is an input (GSC_IN), an import an output (GSC_OUT)",
                    desc->name, pd->name);
        if ((pd->max_count > 0) != (strstr(pd->name, "%u") != NULL))
            g_error("block %s: port %s: a port array (max_count > 0) and only it has %%u in its name",
                    desc->name, pd->name);
        if (pd->count_param) {
            const blk_param_desc *p = blk_desc_param(desc, pd->count_param);
            if (!p || p->type != BLK_PARAM_UINT)
                g_error("block %s: port %s: count parameter %s is not a uint parameter", desc->name, pd->name,
                        pd->count_param);
        }
        if (pd->depth_param) {
            const blk_param_desc *p = blk_desc_param(desc, pd->depth_param);
            if (!p || p->type != BLK_PARAM_UINT)
                g_error("block %s: port %s: depth parameter %s is not a uint parameter", desc->name, pd->name,
                        pd->depth_param);
        }
    }
    for (unsigned i = 0; i < desc->n_stats; i++)
        if ((desc->stats[i].kind == BLK_STAT_DERIVED) != (desc->stats[i].derive != NULL))
            g_error("block %s: statistic %s: derived statistics need derive() and counters must not have it",
                    desc->name, desc->stats[i].name);
}

void blk_registry_add(const blk_desc *desc)
{
    if (!registry)
        registry = g_ptr_array_new();
    const blk_desc *old = blk_registry_find(desc->name);
    if (old == desc)
        return;
    if (old)
        g_error("two different block descriptors are named %s", desc->name);
    desc_check_defaults(desc);
    blk_energy_desc_check(desc->name, desc);
    g_ptr_array_add(registry, (gpointer)desc);
    g_ptr_array_sort(registry, desc_cmp);
}

static GPtrArray *built; /* const blk_desc *: what the program builds (blk_registry_mark_built) */

void blk_registry_mark_built(const blk_desc *desc)
{
    blk_registry_add(desc);
    if (!built)
        built = g_ptr_array_new();
    for (unsigned i = 0; i < built->len; i++)
        if (g_ptr_array_index(built, i) == desc)
            return;
    g_ptr_array_add(built, (gpointer)desc);
}

bool blk_registry_built(const blk_desc *desc)
{
    if (!built || built->len == 0)
        return true;
    for (unsigned i = 0; i < built->len; i++)
        if (g_ptr_array_index(built, i) == desc)
            return true;
    return false;
}

const blk_desc *blk_registry_find(const char *name)
{
    if (!registry)
        return NULL;
    for (unsigned i = 0; i < registry->len; i++) {
        const blk_desc *d = g_ptr_array_index(registry, i);
        if (strcmp(d->name, name) == 0)
            return d;
    }
    return NULL;
}

unsigned blk_registry_count(void)
{
    return registry ? registry->len : 0;
}

const blk_desc *blk_registry_nth(unsigned i)
{
    g_assert(registry && i < registry->len);
    return g_ptr_array_index(registry, i);
}

int blk_desc_param_index(const blk_desc *desc, const char *name)
{
    for (unsigned i = 0; i < desc->n_params; i++)
        if (strcmp(desc->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

const blk_param_desc *blk_desc_param(const blk_desc *desc, const char *name)
{
    int i = blk_desc_param_index(desc, name);
    return i < 0 ? NULL : &desc->params[i];
}

int blk_desc_port_index(const blk_desc *desc, const char *name)
{
    for (unsigned i = 0; i < desc->n_ports; i++)
        if (strcmp(desc->ports[i].name, name) == 0)
            return (int)i;
    return -1;
}

const char *blk_param_type_name(blk_param_type t)
{
    switch (t) {
    case BLK_PARAM_INT:
        return "int";
    case BLK_PARAM_UINT:
        return "uint";
    case BLK_PARAM_BOOL:
        return "bool";
    case BLK_PARAM_DOUBLE:
        return "double";
    case BLK_PARAM_ENUM:
        return "enum";
    case BLK_PARAM_STRING:
        return "string";
    }
    g_assert_not_reached();
}

/* ---------------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------------- */

static bool parse_int(const char *t, int64_t *out)
{
    return g_ascii_string_to_signed(t, 10, G_MININT64, G_MAXINT64, out, NULL);
}

static bool parse_uint(const char *t, uint64_t *out)
{
    /* g_ascii_string_to_unsigned accepts a leading '+', not '-'. */
    guint64 v;
    if (!g_ascii_string_to_unsigned(t, 10, 0, G_MAXUINT64, &v, NULL))
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *t, double *out)
{
    char *end = NULL;
    if (!*t || g_ascii_isspace(*t))
        return false;
    errno = 0;
    double d = g_ascii_strtod(t, &end);
    if (errno || *end || !isfinite(d))
        return false;
    *out = d;
    return true;
}

static bool parse_bool(const char *t, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (unsigned i = 0; i < G_N_ELEMENTS(yes); i++) {
        if (g_ascii_strcasecmp(t, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (g_ascii_strcasecmp(t, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static char *choices_text(const char *const *choices)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; choices && choices[i]; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", choices[i]);
    return g_string_free(s, FALSE);
}

static char *range_text(const blk_param_desc *p)
{
    return g_strdup_printf("[%s, %s]", p->min ? p->min : "-inf", p->max ? p->max : "+inf");
}

/* Range check of a parsed number; the bounds are descriptor text, parsed like values. */
static bool value_in_range(const blk_param_desc *p, const blk_value *v)
{
    for (int side = 0; side < 2; side++) {
        const char *b = side ? p->max : p->min;
        if (!b)
            continue;
        int cmp = 0;
        if (p->type == BLK_PARAM_INT) {
            int64_t bv;
            g_assert(parse_int(b, &bv));
            cmp = v->i < bv ? -1 : v->i > bv;
        } else if (p->type == BLK_PARAM_UINT) {
            uint64_t bv;
            g_assert(parse_uint(b, &bv));
            cmp = v->u < bv ? -1 : v->u > bv;
        } else if (p->type == BLK_PARAM_DOUBLE) {
            double bv;
            g_assert(parse_double(b, &bv));
            cmp = v->d < bv ? -1 : v->d > bv;
        }
        if ((side == 0 && cmp < 0) || (side == 1 && cmp > 0))
            return false;
    }
    return true;
}

bool blk_value_parse(const blk_param_desc *p, const char *text, blk_value *out, char **problem)
{
    memset(out, 0, sizeof *out);
    out->type = p->type;
    bool ok = true;
    const char *expected = NULL;
    switch (p->type) {
    case BLK_PARAM_INT:
        ok = parse_int(text, &out->i);
        expected = "an integer";
        break;
    case BLK_PARAM_UINT:
        ok = parse_uint(text, &out->u);
        expected = "an unsigned integer";
        break;
    case BLK_PARAM_BOOL:
        ok = parse_bool(text, &out->b);
        expected = "a boolean (true/false)";
        break;
    case BLK_PARAM_DOUBLE:
        ok = parse_double(text, &out->d);
        expected = "a number";
        break;
    case BLK_PARAM_ENUM:
        ok = false;
        for (unsigned i = 0; p->choices && p->choices[i]; i++)
            if (strcmp(p->choices[i], text) == 0) {
                out->u = i;
                ok = true;
            }
        if (!ok) {
            char *c = choices_text(p->choices);
            char *x = blk_excerpt(text);
            *problem = g_strdup_printf("expected one of {%s}, got '%s'", c, x);
            g_free(x);
            g_free(c);
            return false;
        }
        break;
    case BLK_PARAM_STRING:
        break;
    }
    if (!ok) {
        char *x = blk_excerpt(text);
        *problem = g_strdup_printf("expected %s, got '%s'", expected, x);
        g_free(x);
        return false;
    }
    if (!value_in_range(p, out)) {
        char *r = range_text(p);
        char *x = blk_excerpt(text);
        *problem = g_strdup_printf("%s is out of range %s", x, r);
        g_free(x);
        g_free(r);
        return false;
    }
    out->s = g_strdup(text);
    return true;
}

char *blk_excerpt(const char *text)
{
    size_t n = strlen(text);
    if (n <= 80)
        return g_strdup(text);
    const char *end = g_utf8_find_prev_char(text, text + 65); /* cut at a character boundary */
    return g_strdup_printf("%.*s... (%zu bytes)", (int)(end ? end - text : 64), text, n);
}

void blk_value_clear(blk_value *v)
{
    g_free(v->s);
    v->s = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Context
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    char *name, *unit, *meaning;
    blk_derived_fn fn;
    void *data;
    bool wallclock; /* see blk_ctx_add_derived_wallclock */
} derived_fig;

struct blk_ctx {
    const cfg *config;
    gsc_clock *clock;
    GPtrArray *insts; /* blk_inst *, creation order */
    GArray *derived;  /* derived_fig */
    char *partial;    /* why the statistics cover part of the run only, or NULL */
    /* blk_inst * -> what the energy totals leave out (energy.h), or NULL */
    GHashTable *energy_out;
};

void blk_energy_exclude(blk_inst *inst, unsigned what)
{
    blk_ctx *ctx = inst->ctx;
    if (!ctx->energy_out)
        ctx->energy_out = g_hash_table_new(NULL, NULL);
    g_hash_table_insert(ctx->energy_out, inst, GUINT_TO_POINTER(what | blk_energy_excluded(inst)));
}

unsigned blk_energy_excluded(const blk_inst *inst)
{
    const blk_ctx *ctx = inst->ctx;
    return ctx->energy_out ? GPOINTER_TO_UINT(g_hash_table_lookup(ctx->energy_out, inst)) : 0;
}

void blk_ctx_set_partial(blk_ctx *ctx, const char *why)
{
    g_free(ctx->partial);
    ctx->partial = g_strdup(why);
}

const char *blk_ctx_partial(const blk_ctx *ctx)
{
    return ctx->partial;
}

blk_ctx *blk_ctx_new(const cfg *config, gsc_clock *clock)
{
    blk_ctx *ctx = g_new0(blk_ctx, 1);
    ctx->config = config;
    ctx->clock = clock;
    ctx->insts = g_ptr_array_new();
    ctx->derived = g_array_new(FALSE, TRUE, sizeof(derived_fig));
    return ctx;
}

static void inst_free(blk_inst *inst)
{
    for (unsigned i = 0; i < inst->desc->n_params; i++)
        blk_value_clear(&inst->params[i]);
    g_free(inst->params);
    g_free(inst->param_src);
    unsigned total = inst->desc->n_ports;
    for (unsigned i = 0; i < inst->desc->n_ports; i++)
        total += inst->port_count[i] > 1 ? inst->port_count[i] - 1 : 0;
    for (unsigned f = 0; f < total; f++)
        blk_link_clear(&inst->links[f]);
    g_free(inst->ports);
    g_aligned_free(inst->fifos); /* and the counters */
    g_free(inst->links);
    g_free(inst->port_count);
    g_free(inst->port_more);
    g_free((char *)inst->path);
    g_free((char *)inst->log_domain);
    g_aligned_free(inst);
}

void blk_ctx_free(blk_ctx *ctx)
{
    if (!ctx)
        return;
    for (unsigned i = 0; i < ctx->insts->len; i++)
        inst_free(g_ptr_array_index(ctx->insts, i));
    g_ptr_array_free(ctx->insts, TRUE);
    g_free(ctx->partial);
    for (unsigned i = 0; i < ctx->derived->len; i++) {
        derived_fig *f = &g_array_index(ctx->derived, derived_fig, i);
        g_free(f->name);
        g_free(f->unit);
        g_free(f->meaning);
    }
    g_array_free(ctx->derived, TRUE);
    if (ctx->energy_out)
        g_hash_table_destroy(ctx->energy_out);
    g_free(ctx);
}

gsc_clock *blk_ctx_clock(const blk_ctx *ctx)
{
    return ctx->clock;
}

const cfg *blk_ctx_config(const blk_ctx *ctx)
{
    return ctx->config;
}

unsigned blk_ctx_n_insts(const blk_ctx *ctx)
{
    return ctx->insts->len;
}

blk_inst *blk_ctx_inst(const blk_ctx *ctx, unsigned i)
{
    g_assert(i < ctx->insts->len);
    return g_ptr_array_index(ctx->insts, i);
}

blk_inst *blk_ctx_find(const blk_ctx *ctx, const char *path)
{
    for (unsigned i = 0; i < ctx->insts->len; i++) {
        blk_inst *inst = g_ptr_array_index(ctx->insts, i);
        if (strcmp(inst->path, path) == 0)
            return inst;
    }
    return NULL;
}

void blk_ctx_add_derived(blk_ctx *ctx, const char *name, const char *unit, const char *meaning,
                         blk_derived_fn fn, void *data)
{
    derived_fig f = {g_strdup(name), g_strdup(unit), g_strdup(meaning), fn, data, false};
    g_array_append_val(ctx->derived, f);
}

void blk_ctx_add_derived_wallclock(blk_ctx *ctx, const char *name, const char *unit, const char *meaning,
                                   blk_derived_fn fn, void *data)
{
    blk_ctx_add_derived(ctx, name, unit, meaning, fn, data);
    g_array_index(ctx->derived, derived_fig, ctx->derived->len - 1).wallclock = true;
}

bool blk_ctx_derived_is_wallclock(const blk_ctx *ctx, unsigned i)
{
    g_assert(i < ctx->derived->len);
    return g_array_index(ctx->derived, derived_fig, i).wallclock;
}

unsigned blk_ctx_n_derived(const blk_ctx *ctx)
{
    return ctx->derived->len;
}

void blk_ctx_derived(const blk_ctx *ctx, unsigned i, const char **name, const char **unit,
                     const char **meaning, double *value)
{
    g_assert(i < ctx->derived->len);
    const derived_fig *f = &g_array_index(ctx->derived, derived_fig, i);
    *name = f->name;
    *unit = f->unit;
    *meaning = f->meaning;
    *value = f->fn(ctx, f->data);
}

/* ---------------------------------------------------------------------------------------------
 * Instances
 * ------------------------------------------------------------------------------------------- */

/* The number of elements of descriptor port i: 1 for a plain port; an array's from its count
 * parameter or from the constructor's counts. */
static unsigned port_elements(const blk_inst *inst, unsigned i, const unsigned *counts)
{
    const blk_port_desc *pd = &inst->desc->ports[i];
    if (!pd->max_count)
        return 1;
    uint64_t n;
    if (pd->count_param)
        n = blk_param_uint(inst, pd->count_param);
    else if (counts)
        n = counts[i];
    else
        g_error("block %s: port array %s is sized by its constructor: use blk_inst_new_arrays",
                inst->desc->name, pd->name);
    if (n > pd->max_count)
        gsc_fatal("%s: port array %s: %" G_GUINT64_FORMAT " elements, at most %u", inst->path, pd->name, n,
                  pd->max_count);
    return (unsigned)n;
}

static void make_ports(blk_inst *inst, const unsigned *counts)
{
    const blk_desc *desc = inst->desc;
    unsigned n = desc->n_ports ? desc->n_ports : 1, total = desc->n_ports;
    inst->port_count = g_new0(unsigned, n);
    inst->port_more = g_new0(unsigned, n);
    for (unsigned i = 0; i < desc->n_ports; i++) {
        inst->port_count[i] = port_elements(inst, i, counts);
        inst->port_more[i] = total;
        if (inst->port_count[i] > 1)
            total += inst->port_count[i] - 1;
    }
    inst->ports = g_new0(gsc_port *, total ? total : 1);
    /* The FIFOs' pointers and the counters: one allocation, on lines of their own. */
    size_t nf = total ? total : 1, ns = desc->n_stats ? desc->n_stats : 1;
    G_STATIC_ASSERT(sizeof(gsc_fifo *) == sizeof(uint64_t));
    inst->fifos = g_aligned_alloc0(nf + ns, sizeof(uint64_t), 64);
    inst->stats = (uint64_t *)(inst->fifos + nf);
    inst->links = g_new0(struct blk_link, total ? total : 1);
    for (unsigned i = 0; i < desc->n_ports; i++) {
        const blk_port_desc *pd = &desc->ports[i];
        for (unsigned k = 0; k < inst->port_count[i]; k++) {
            unsigned f = blk_port_flat(inst, i, k);
            blk_link_init(&inst->links[f], inst, i, k);
            if (pd->chan == BLK_CHAN_EXPORT || pd->chan == BLK_CHAN_IMPORT)
                continue; /* an interface: no channel */
            char *name = blk_port_element_name(inst, i, k);
            inst->ports[f] = gsc_port_new(inst->mod, name, pd->dir, pd->type);
            g_free(name);
            /* binding the other kind is then an elaboration error, not a NULL the block dereferences */
            gsc_port_set_kind(inst->ports[f], pd->chan == BLK_CHAN_FIFO ? GSC_CHAN_FIFO : GSC_CHAN_LATCH);
        }
    }
}

static blk_inst *inst_new(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc,
                          const unsigned *counts, blk_count_fn count_fn, void *count_data)
{
    blk_registry_add(desc);
    blk_inst *inst = g_aligned_alloc0(1, sizeof(blk_inst), 64); /* blk_inst: its first line is the hot one */
    inst->desc = desc;
    inst->ctx = ctx;
    inst->mod = gsc_module_new(parent, name);
    inst->path = g_strdup(gsc_module_name(inst->mod));
    inst->log_domain = g_strdup_printf("gpusc.%s", desc->name);
    inst->params = g_new0(blk_value, desc->n_params);
    inst->param_src = g_new0(const char *, desc->n_params);
    for (unsigned i = 0; i < desc->n_params; i++) {
        const blk_param_desc *p = &desc->params[i];
        cfg_value_ref ref;
        cfg_lookup(ctx->config, inst->path, desc->name, p, &ref);
        char *problem = NULL;
        if (!blk_value_parse(p, ref.text, &inst->params[i], &problem)) {
            /* Type sections are validated at load; an instance section is validated here first
             * (cfg_check_instances then reports the remaining unknown sections and keys). */
            gsc_fatal("%s: [%s] %s: %s", ref.where, ref.section, p->name, problem);
        }
        inst->param_src[i] = ref.source;
    }
    unsigned *made = NULL;
    if (count_fn) {
        made = g_new0(unsigned, desc->n_ports ? desc->n_ports : 1);
        count_fn(inst, made, count_data);
        counts = made;
    }
    make_ports(inst, counts);
    g_free(made);
    inst->sleep_last = -1;
    g_ptr_array_add(ctx->insts, inst);
    return inst;
}

blk_inst *blk_inst_new_arrays(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc,
                              const unsigned *counts)
{
    return inst_new(ctx, parent, name, desc, counts, NULL, NULL);
}

blk_inst *blk_inst_new_counted(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc,
                               blk_count_fn fn, void *data)
{
    return inst_new(ctx, parent, name, desc, NULL, fn, data);
}

blk_inst *blk_inst_new(blk_ctx *ctx, gsc_module *parent, const char *name, const blk_desc *desc)
{
    return blk_inst_new_arrays(ctx, parent, name, desc, NULL);
}

void blk_inst_on_finish(blk_inst *inst, void (*fn)(void *self, uint64_t cycles), void *self)
{
    inst->finish = fn;
    inst->finish_self = self;
}

void blk_sleep_overflow(const blk_inst *inst)
{
    gsc_fatal("%s: more than %u statistics charged for the cycles slept (BLK_SLEEP_MAX)", inst->path,
              (unsigned)BLK_SLEEP_MAX);
}

void blk_outq_init(blk_outq *q, blk_inst *inst, unsigned port, size_t elem, const char *depth_param,
                   unsigned peak_stat)
{
    g_assert(port < inst->desc->n_ports && inst->desc->ports[port].dir == GSC_OUT &&
             peak_stat < inst->desc->n_stats);
    memset(q, 0, sizeof *q);
    q->elem = elem;
    q->depth = (unsigned)blk_param_uint(inst, depth_param);
    g_assert(q->depth > 0);
    q->buf = g_malloc((size_t)q->depth * elem);
    q->inst = inst;
    q->port = port;
    q->peak_stat = peak_stat;
}

void blk_outq_clear(blk_outq *q)
{
    g_free(q->buf);
    q->buf = NULL;
    q->n = q->head = 0;
}

void blk_outq_overflow(const blk_outq *q)
{
    gsc_fatal("%s: push on the full output queue of port '%s' (depth %u): the block must stall first",
              q->inst->path, q->inst->desc->ports[q->port].name, q->depth);
}

const blk_domain *blk_domain_init(blk_domain *d, uint64_t period_ps, bool faster_ok, const char *what)
{
    uint64_t core = gsc_core_period_ps();
    g_assert(core);
    if (!period_ps || period_ps == core)
        return NULL;
    if (period_ps < core && !faster_ok)
        gsc_fatal("%s: a clock of %" G_GUINT64_FORMAT " ps is faster than the core clock (%" G_GUINT64_FORMAT
                  " ps); this block runs at most as fast as the core clock",
                  what, period_ps, core);
    *d = (blk_domain){.period_ps = period_ps, .core_ps = core};
    return d;
}

void blk_inst_set_domain(blk_inst *inst, const blk_domain *d)
{
    inst->domain = d;
}

void blk_ctx_finish(blk_ctx *ctx, uint64_t core_cycles)
{
    for (unsigned i = 0; i < ctx->insts->len; i++) {
        blk_inst *inst = g_ptr_array_index(ctx->insts, i);
        uint64_t cycles = blk_domain_cycles(inst->domain, core_cycles); /* the block's own */
        if (!inst->n_sleep || (int64_t)cycles <= inst->sleep_last + 1)
            continue;
        /* count up to cycles - 1 and keep the charges: the run may go on */
        blk_sleep_item keep[BLK_SLEEP_MAX];
        unsigned n = inst->n_sleep;
        memcpy(keep, inst->sleep, n * sizeof *keep);
        blk_sleep_wake(inst, cycles);
        inst->sleep_last = (int64_t)cycles - 1;
        memcpy(inst->sleep, keep, n * sizeof *keep);
        inst->n_sleep = n;
    }
    for (unsigned i = 0; i < ctx->insts->len; i++) {
        blk_inst *inst = g_ptr_array_index(ctx->insts, i);
        if (inst->finish)
            inst->finish(inst->finish_self, core_cycles);
    }
}

void blk_inst_on_elaborate(blk_inst *inst, void (*fn)(void *self), void *self)
{
    inst->elaborate = fn;
    inst->self = self;
}

void blk_ctx_elaborate(blk_ctx *ctx)
{
    blk_ctx_check_links(ctx);
    for (unsigned i = 0; i < ctx->insts->len; i++) {
        blk_inst *inst = g_ptr_array_index(ctx->insts, i);
        if (inst->elaborate)
            inst->elaborate(inst->self);
    }
}

static const blk_value *param_get(const blk_inst *inst, const char *name, blk_param_type type)
{
    int i = blk_desc_param_index(inst->desc, name);
    if (i < 0)
        g_error("block %s has no parameter %s", inst->desc->name, name);
    if (inst->desc->params[i].type != type)
        g_error("parameter %s.%s is a %s, not a %s", inst->desc->name, name,
                blk_param_type_name(inst->desc->params[i].type), blk_param_type_name(type));
    return &inst->params[i];
}

int64_t blk_param_int(const blk_inst *inst, const char *name)
{
    return param_get(inst, name, BLK_PARAM_INT)->i;
}

uint64_t blk_param_uint(const blk_inst *inst, const char *name)
{
    return param_get(inst, name, BLK_PARAM_UINT)->u;
}

bool blk_param_bool(const blk_inst *inst, const char *name)
{
    return param_get(inst, name, BLK_PARAM_BOOL)->b;
}

double blk_param_double(const blk_inst *inst, const char *name)
{
    return param_get(inst, name, BLK_PARAM_DOUBLE)->d;
}

unsigned blk_param_enum(const blk_inst *inst, const char *name)
{
    return (unsigned)param_get(inst, name, BLK_PARAM_ENUM)->u;
}

const char *blk_param_string(const blk_inst *inst, const char *name)
{
    int i = blk_desc_param_index(inst->desc, name);
    if (i < 0)
        g_error("block %s has no parameter %s", inst->desc->name, name);
    return inst->params[i].s;
}

gsc_port *blk_port_by_name(const blk_inst *inst, const char *name)
{
    unsigned i, k;
    if (!blk_port_lookup(inst, name, &i, &k))
        g_error("block %s has no port %s", inst->desc->name, name);
    return blk_port_at(inst, i, k);
}

unsigned blk_port_fifo_depth(const blk_inst *inst, unsigned idx)
{
    g_assert(idx < inst->desc->n_ports);
    const blk_port_desc *pd = &inst->desc->ports[idx];
    if (!pd->depth_param)
        return 2;
    uint64_t d = blk_param_uint(inst, pd->depth_param);
    g_assert(d >= 1 && d <= G_MAXUINT);
    return (unsigned)d;
}

double blk_stat_value(const blk_inst *inst, unsigned idx)
{
    g_assert(idx < inst->desc->n_stats);
    const blk_stat_desc *s = &inst->desc->stats[idx];
    if (s->kind == BLK_STAT_DERIVED)
        return s->derive(inst);
    return (double)inst->stats[idx];
}

void blk_trace_state(blk_inst *inst, const char *name, gsc_ctype ctype, const void *addr)
{
    for (unsigned i = 0; i < inst->desc->n_state; i++)
        if (strcmp(inst->desc->state[i].name, name) == 0) {
            gsc_trace_var(inst->mod, name, ctype, addr, inst->desc->state[i].width);
            return;
        }
    g_error("block %s declares no traced state %s", inst->desc->name, name);
}
