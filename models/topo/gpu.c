/* gpu.c — the `gpu` topology (see gpu.h): instantiate and bind. No behaviour here. */
#include "models/topo/gpu.h"

#include <string.h>

#include "models/core/stats.h"

static const char *const sm_kinds[] = {"sm", "subcore_sm", NULL};

static const blk_param_desc params[] = {
    {"sms", BLK_PARAM_UINT, "15", "1", "256", NULL, "SMs", "SMs [S: GTX480 gpgpu_n_clusters 15 x 1 core]"},
    {"mem_channels", BLK_PARAM_UINT, "6", "1", "64", NULL, "channels",
     "DRAM channels [S: GTX480 gpgpu_n_mem 6]"},
    {"sub_partitions", BLK_PARAM_UINT, "2", "1", "8", NULL, "slices",
     "L2 slices (memory sub-partitions) per channel [S: gpgpu_n_sub_partition_per_mchannel 2]"},
    {"sm_kind", BLK_PARAM_ENUM, "sm", NULL, NULL, sm_kinds, "", "the SM topology: monolithic or sub-core"},
    {"sm_links", BLK_PARAM_BOOL, "false", NULL, NULL, NULL, "",
     "SM-to-SM links (`sm_link` block, grid from its parameters) for a mechanism to attach to; the "
     "baseline SM does not use them [A: off, as GPGPU-Sim has none; SPU spec §2-3 for the SPU]"},
    {"icnt_period_ps", BLK_PARAM_UINT, "0", "0", "1000000", NULL, "ps",
     "the interconnect's clock (0: the core clock) [S: GTX480 gpgpu_clock_domains, icnt 700 MHz = core]"},
    {"l2_period_ps", BLK_PARAM_UINT, "0", "0", "1000000", NULL, "ps",
     "the L2 slices' clock (0: the core clock) [S: GTX480 gpgpu_clock_domains, L2 700 MHz = core]"},
    {"dram_period_ps", BLK_PARAM_UINT, "0", "0", "1000000", NULL, "ps",
     "the DRAM channels' clock (0: the core clock; may be faster than it) [A: the core clock, with "
     "dram.bytes_per_cycle and latency converted into core cycles; the gtx480 preset: 1082 = 924 MHz, S]"},
};

const blk_desc gpu_topo_desc = {
    "gpu",
    "topology: cta_dispatch, N SMs, interconnect, L2 slices, DRAM channels, the functional memory image, "
    "optional SM-to-SM links",
    "docs/baseline-design.md §3",
    NULL,
    0,
    params,
    BLK_N(params),
    NULL,
    0,
    NULL,
    0,
};

struct gpu_topo {
    blk_inst *inst;
    unsigned n_sms, n_channels, n_sub, n_parts;
    unsigned n_clients; /* interconnect nodes beside the SMs (gpu_topo_set_clients) */
    bool subcore;
    blk_domain icnt_clock, l2_clock, dram_clock; /* clock domains (used when not the core's) */
    cta_dispatch *dispatch;
    sm_topo **sms;
    icnt_blk *icnt;
    l2_blk **l2;
    dram_blk **dram;
    bool with_links;
    sm_link *links; /* NULL unless sm_links */
};

void gpu_topo_register_mem(void)
{
    blk_registry_add(&icnt_blk_desc);
    blk_registry_add(&l2_desc);
    blk_registry_add(&dram_blk_desc);
    blk_registry_add(&sm_link_desc);
    blk_registry_add(&link_port_desc);
    blk_registry_add(&gpu_topo_desc);
}

void gpu_topo_register(void)
{
    gpu_topo_register_mem();
    sm_topo_register();
}

gpu_topo *gpu_topo_new(blk_ctx *ctx, gsc_module *parent, const char *name)
{
    gpu_topo *g = g_new0(gpu_topo, 1);
    g->inst = blk_inst_new(ctx, parent, name, &gpu_topo_desc);
    g->n_sms = (unsigned)blk_param_uint(g->inst, "sms");
    g->n_channels = (unsigned)blk_param_uint(g->inst, "mem_channels");
    g->n_sub = (unsigned)blk_param_uint(g->inst, "sub_partitions");
    g->n_parts = g->n_channels * g->n_sub;
    g->subcore = blk_param_enum(g->inst, "sm_kind") == 1;
    g->with_links = blk_param_bool(g->inst, "sm_links");
    return g;
}

char *gpu_topo_sm_path(const gpu_topo *g, bool *subcore)
{
    *subcore = g->subcore;
    return g_strdup_printf("%s.sm0", g->inst->path);
}

static gsc_fifo *bind(gsc_module *m, const char *fmt, unsigned i, const gsc_type *t, unsigned depth,
                      gsc_port *out, gsc_port *in)
{
    char *name = g_strdup_printf(fmt, i);
    gsc_fifo *f = gsc_fifo_new(m, name, t, depth);
    g_free(name);
    if (out)
        gsc_port_bind_fifo(out, f);
    if (in)
        gsc_port_bind_fifo(in, f);
    return f;
}

static void gpu_topo_build_sms(gpu_topo *g, sm_env *env)
{
    gsc_module *m = g->inst->mod;
    blk_ctx *ctx = g->inst->ctx;
    g->dispatch = cta_dispatch_new(ctx, m, "dispatch", env, g->n_sms);
    g->sms = g_new0(sm_topo *, g->n_sms);
    for (unsigned i = 0; i < g->n_sms; i++) {
        char *name = g_strdup_printf("sm%u", i);
        g->sms[i] = sm_topo_new(ctx, m, name, i, env, g->subcore);
        g_free(name);
    }
    occupancy_sm occ;
    sm_topo_occupancy(g->sms[0], &occ);
    cta_dispatch_set_limits(g->dispatch, &occ);
    unsigned done_depth = (unsigned)blk_param_uint(g->dispatch->inst, "done_depth");
    for (unsigned i = 0; i < g->n_sms; i++) {
        sm_topo *s = g->sms[i];
        bind(m, "cta_launch%u", i, &cta_launch_type, sm_topo_port_depth(s, SM_PORT_CTA_LAUNCH),
             cta_dispatch_port_launch(g->dispatch, i), sm_topo_port(s, SM_PORT_CTA_LAUNCH));
        bind(m, "cta_done%u", i, &cta_done_type, done_depth, sm_topo_port(s, SM_PORT_CTA_DONE),
             cta_dispatch_port_done(g->dispatch, i));
    }
}

static void gpu_topo_build_mem(gpu_topo *g, sm_env *env)
{
    gsc_module *m = g->inst->mod;
    blk_ctx *ctx = g->inst->ctx;
    const char *path = g->inst->path;
    char *what[3] = {g_strdup_printf("%s.icnt_period_ps", path), g_strdup_printf("%s.l2_period_ps", path),
                     g_strdup_printf("%s.dram_period_ps", path)};
    const blk_domain *icnt_clock =
        blk_domain_init(&g->icnt_clock, blk_param_uint(g->inst, "icnt_period_ps"), false, what[0]);
    const blk_domain *l2_clock =
        blk_domain_init(&g->l2_clock, blk_param_uint(g->inst, "l2_period_ps"), false, what[1]);
    const blk_domain *dram_clock =
        blk_domain_init(&g->dram_clock, blk_param_uint(g->inst, "dram_period_ps"), true, what[2]);
    for (unsigned i = 0; i < 3; i++)
        g_free(what[i]);
    g->icnt = icnt_blk_new(ctx, m, "icnt", g->n_sms + g->n_clients, g->n_parts);
    blk_inst_set_domain(g->icnt->inst, icnt_clock);
    for (unsigned i = 0; i < g->n_sms; i++) {
        sm_topo *s = g->sms[i];
        bind(m, "sm_req%u", i, &mem_req_type, sm_topo_port_depth(s, SM_PORT_MEM_REQ),
             sm_topo_port(s, SM_PORT_MEM_REQ), icnt_blk_sm_req(g->icnt, i));
        bind(m, "sm_resp%u", i, &mem_resp_type, sm_topo_port_depth(s, SM_PORT_MEM_RESP),
             icnt_blk_sm_resp(g->icnt, i), sm_topo_port(s, SM_PORT_MEM_RESP));
    }
    g->l2 = g_new0(l2_blk *, g->n_parts);
    g->dram = g_new0(dram_blk *, g->n_channels);
    for (unsigned c = 0; c < g->n_channels; c++) {
        char *name = g_strdup_printf("dram%u", c);
        g->dram[c] = dram_blk_new(ctx, m, name, env->mem, g->n_sub);
        blk_inst_set_domain(g->dram[c]->inst, dram_clock);
        g_free(name);
    }
    for (unsigned p = 0; p < g->n_parts; p++) {
        char *name = g_strdup_printf("l2_%u", p);
        l2_blk *l2 = g->l2[p] = l2_new(ctx, m, name, env->mem, g->n_parts);
        blk_inst_set_domain(l2->inst, l2_clock);
        g_free(name);
        bind(m, "l2_req%u", p, &mem_req_type, blk_port_fifo_depth(l2->inst, L2_PORT_REQ),
             icnt_blk_l2_req(g->icnt, p), blk_port(l2->inst, L2_PORT_REQ));
        bind(m, "l2_resp%u", p, &mem_resp_type, blk_port_fifo_depth(l2->inst, L2_PORT_RESP),
             blk_port(l2->inst, L2_PORT_RESP), icnt_blk_l2_resp(g->icnt, p));
        dram_blk *d = g->dram[p / g->n_sub];
        unsigned k = p % g->n_sub;
        bind(m, "dram_req%u", p, &mem_req_type, dram_blk_in_depth(d), blk_port(l2->inst, L2_PORT_DRAM_REQ),
             dram_blk_req(d, k));
        bind(m, "dram_resp%u", p, &mem_resp_type, dram_blk_resp_depth(d), dram_blk_resp(d, k),
             blk_port(l2->inst, L2_PORT_DRAM_RESP));
    }
}

/* An SM's cache line must be filled by one L2 line: say so at configuration time, not at the first
 * L2 request. The L2 slices share their parameters with the first one's unless set one by one. */
static void check_lines(const gpu_topo *g)
{
    for (unsigned p = 0; p < g->n_parts; p++) {
        const blk_inst *l2 = g->l2[p]->inst;
        uint64_t l2_line = blk_param_uint(l2, "line_bytes");
        for (unsigned i = 0; i < g->n_sms; i++) {
            const blk_inst *ld = sm_topo_ldst_inst(g->sms[i]);
            const char *keys[] = {"l1_line", "const_line"};
            for (unsigned k = 0; k < G_N_ELEMENTS(keys); k++) {
                const blk_param_desc *pd = blk_desc_param(ld->desc, keys[k]);
                uint64_t line = blk_param_uint(ld, keys[k]);
                if (line > l2_line)
                    gsc_fatal(
                        "%s: [%s] %s=%" G_GUINT64_FORMAT " is larger than %s's line_bytes=%" G_GUINT64_FORMAT
                        " (%s): a line is filled by one L2 line",
                        ld->param_src[pd - ld->desc->params], ld->path, keys[k], line, l2->path, l2_line,
                        l2->param_src[blk_desc_param(l2->desc, "line_bytes") - l2->desc->params]);
            }
        }
    }
}

/* The links block and every SM's link_port: for SM i and traffic direction k, the SM's out_<k> feeds
 * the links' out_<k><i> (FIFO link_out_<k><i>), and the links' in_<opposite k><i> feeds its in_<k>
 * (FIFO link_in_<opposite k><i>). */
static void gpu_topo_build_links(gpu_topo *g)
{
    gsc_module *m = g->inst->mod;
    g->links = sm_link_new(g->inst->ctx, m, "links", g->n_sms);
    unsigned dirs = 0;
    while (dirs < SM_LINK_DIRS && sm_link_has_dir(g->links, (sm_link_dir)dirs))
        dirs++;
    blk_inst *li = g->links->inst;
    for (unsigned i = 0; i < g->n_sms; i++) {
        blk_inst *pi = sm_topo_add_link_port(g->sms[i], dirs)->inst;
        for (unsigned k = 0; k < dirs; k++) {
            sm_link_dir side = sm_link_opposite((sm_link_dir)k);
            char *lo = sm_link_port_name(g->links, true, i, (sm_link_dir)k),
                 *lin = sm_link_port_name(g->links, false, i, side);
            char *fo = g_strconcat("link_", lo, NULL), *fi = g_strconcat("link_", lin, NULL);
            char *po = g_strdup_printf("out_%u", k), *pin = g_strdup_printf("in_%u", k);
            blk_connect(m, fo, pi, po, li, lo);
            blk_connect(m, fi, li, lin, pi, pin);
            g_free(lo);
            g_free(lin);
            g_free(fo);
            g_free(fi);
            g_free(po);
            g_free(pin);
        }
    }
}

void gpu_topo_build(gpu_topo *g, sm_env *env)
{
    g_assert(env->n_sms == g->n_sms && !g->sms);
    gpu_topo_build_sms(g, env);
    gpu_topo_build_mem(g, env);
    check_lines(g);
    if (g->with_links)
        gpu_topo_build_links(g);
}

void gpu_topo_free(gpu_topo *g)
{
    if (!g)
        return;
    for (unsigned i = 0; g->sms && i < g->n_sms; i++)
        sm_topo_free(g->sms[i]);
    for (unsigned p = 0; g->l2 && p < g->n_parts; p++)
        l2_free(g->l2[p]);
    for (unsigned c = 0; g->dram && c < g->n_channels; c++)
        dram_blk_free(g->dram[c]);
    icnt_blk_free(g->icnt);
    sm_link_free(g->links);
    cta_dispatch_free(g->dispatch);
    g_free(g->sms);
    g_free(g->l2);
    g_free(g->dram);
    g_free(g);
}

void gpu_topo_set_clients(gpu_topo *g, unsigned n)
{
    g_assert(!g->icnt);
    g->n_clients = n;
}

unsigned gpu_topo_n_clients(const gpu_topo *g)
{
    return g->n_clients;
}

void gpu_topo_bind_client(gpu_topo *g, unsigned k, gsc_port *req, unsigned req_depth, gsc_port *resp,
                          unsigned resp_depth)
{
    g_assert(g->icnt && k < g->n_clients);
    unsigned node = g->n_sms + k;
    bind(g->inst->mod, "client_req%u", k, &mem_req_type, req_depth, req, icnt_blk_sm_req(g->icnt, node));
    bind(g->inst->mod, "client_resp%u", k, &mem_resp_type, resp_depth, icnt_blk_sm_resp(g->icnt, node), resp);
}

unsigned gpu_topo_n_sms(const gpu_topo *g)
{
    return g->n_sms;
}
unsigned gpu_topo_n_parts(const gpu_topo *g)
{
    return g->n_parts;
}
unsigned gpu_topo_n_channels(const gpu_topo *g)
{
    return g->n_channels;
}
gsc_module *gpu_topo_module(const gpu_topo *g)
{
    return g->inst->mod;
}
cta_dispatch *gpu_topo_dispatch(const gpu_topo *g)
{
    return g->dispatch;
}
sm_topo **gpu_topo_sms(const gpu_topo *g)
{
    return g->sms;
}
icnt_blk *gpu_topo_icnt(const gpu_topo *g)
{
    return g->icnt;
}
l2_blk *gpu_topo_l2(const gpu_topo *g, unsigned part)
{
    g_assert(part < g->n_parts);
    return g->l2[part];
}
dram_blk *gpu_topo_dram(const gpu_topo *g, unsigned channel)
{
    g_assert(channel < g->n_channels);
    return g->dram[channel];
}

sm_link *gpu_topo_links(const gpu_topo *g)
{
    return g->links;
}
link_port *gpu_topo_link_port(const gpu_topo *g, unsigned sm)
{
    g_assert(sm < g->n_sms);
    return g->links ? sm_topo_link_port(g->sms[sm]) : NULL;
}

const char *gpu_topo_fault(const gpu_topo *g)
{
    for (unsigned p = 0; p < g->n_parts; p++)
        if (l2_fault(g->l2[p]))
            return l2_fault(g->l2[p]);
    return NULL;
}

bool gpu_topo_mem_idle(const gpu_topo *g)
{
    if (g->icnt->req_in_flight || g->icnt->resp_in_flight)
        return false;
    for (unsigned p = 0; p < g->n_parts; p++)
        if (!l2_idle(g->l2[p]))
            return false;
    return true;
}

void gpu_topo_dump_state(void *gp, GString *out)
{
    const gpu_topo *g = gp;
    g_string_append_printf(
        out, "memory side at cycle %" G_GUINT64_FORMAT ": icnt %u requests, %u replies in flight\n",
        gsc_cycle(), g->icnt->req_in_flight, g->icnt->resp_in_flight);
    for (unsigned p = 0; p < g->n_parts; p++) {
        const l2_blk *l2 = g->l2[p];
        if (l2_idle(l2))
            continue;
        g_string_append_printf(
            out, "  %s: ROP queue %u, MSHRs %u, replies waiting %u, DRAM requests waiting %u", l2->inst->path,
            ring_len(&l2->rop), cache_mshr_used(l2->mshr), ring_len(&l2->out), ring_len(&l2->to_dram));
        l2_describe_head(l2, out);
        g_string_append_c(out, '\n');
    }
    for (unsigned c = 0; c < g->n_channels; c++) {
        const dram_blk *d = g->dram[c];
        if (dram_queued(d->core) || dram_in_service(d->core) || d->done.length)
            g_string_append_printf(out, "  %s: %u queued, %u in service, %u replies waiting\n", d->inst->path,
                                   dram_queued(d->core), dram_in_service(d->core), d->done.length);
    }
    if (g->links && (g->links->in_flight || g->links->waiting))
        g_string_append_printf(out, "  %s: %u messages on the links, %u links waiting for a full in FIFO\n",
                               g->links->inst->path, g->links->in_flight, g->links->waiting);
}

static uint64_t sum_l2(const gpu_topo *g, unsigned stat)
{
    uint64_t s = 0;
    for (unsigned p = 0; p < g->n_parts; p++)
        s += blk_stat_get(g->l2[p]->inst, stat);
    return s;
}

void gpu_topo_summary(const gpu_topo *g, FILE *out)
{
    uint64_t hits = sum_l2(g, L2_STAT_HITS), misses = sum_l2(g, L2_STAT_MISSES),
             merged = sum_l2(g, L2_STAT_MERGED);
    fprintf(out,
            "L2: %" G_GUINT64_FORMAT " accesses (%" G_GUINT64_FORMAT " reads, %" G_GUINT64_FORMAT
            " writes, %" G_GUINT64_FORMAT " atomics) over %u slices, hit rate %.4f (%" G_GUINT64_FORMAT
            " hits, %" G_GUINT64_FORMAT " misses, %" G_GUINT64_FORMAT " merged), %" G_GUINT64_FORMAT
            " write-backs\n",
            hits + misses + merged, sum_l2(g, L2_STAT_READS), sum_l2(g, L2_STAT_WRITES),
            sum_l2(g, L2_STAT_ATOMICS), g->n_parts, stats_ratio(hits, hits + misses + merged), hits, misses,
            merged, sum_l2(g, L2_STAT_WRITEBACKS));
    uint64_t reads = 0, writes = 0, busy = 0, row_hits = 0, row_misses = 0;
    for (unsigned c = 0; c < g->n_channels; c++) {
        reads += blk_stat_get(g->dram[c]->inst, DRAM_STAT_READS);
        writes += blk_stat_get(g->dram[c]->inst, DRAM_STAT_WRITES);
        busy += blk_stat_get(g->dram[c]->inst, DRAM_STAT_BUSY_CYCLES);
        row_hits += blk_stat_get(g->dram[c]->inst, DRAM_STAT_ROW_HITS);
        row_misses += blk_stat_get(g->dram[c]->inst, DRAM_STAT_ROW_MISSES);
    }
    fprintf(out,
            "DRAM: %" G_GUINT64_FORMAT " reads, %" G_GUINT64_FORMAT
            " write-backs over %u channels, bus utilisation %.4f",
            reads, writes, g->n_channels,
            stats_ratio(busy,
                        blk_domain_cycles(g->dram[0]->inst->domain, gsc_cycle()) * (uint64_t)g->n_channels));
    if (row_hits + row_misses) /* banked channels */
        fprintf(out, ", row hit rate %.4f (%" G_GUINT64_FORMAT " hits, %" G_GUINT64_FORMAT " misses)",
                stats_ratio(row_hits, row_hits + row_misses), row_hits, row_misses);
    fputc('\n', out);
    const blk_inst *ic = g->icnt->inst;
    fprintf(out,
            "icnt: %" G_GUINT64_FORMAT " requests, %" G_GUINT64_FORMAT
            " replies; utilisation request %.4f, reply %.4f; mean latency request %.1f, reply %.1f cycles\n",
            blk_stat_get(ic, ICNT_STAT_REQ_PACKETS), blk_stat_get(ic, ICNT_STAT_RESP_PACKETS),
            blk_stat_value(ic, ICNT_STAT_REQ_UTIL), blk_stat_value(ic, ICNT_STAT_RESP_UTIL),
            stats_ratio(blk_stat_get(ic, ICNT_STAT_REQ_LATENCY), blk_stat_get(ic, ICNT_STAT_REQ_PACKETS)),
            stats_ratio(blk_stat_get(ic, ICNT_STAT_RESP_LATENCY), blk_stat_get(ic, ICNT_STAT_RESP_PACKETS)));
    if (g->links) {
        const blk_inst *li = g->links->inst;
        fprintf(out,
                "links: %u x %u grid, %u links; %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
                " bytes, utilisation %.4f, %" G_GUINT64_FORMAT " stalls\n",
                sm_link_cols(g->links), sm_link_rows(g->links), g->links->n_links,
                blk_stat_get(li, SM_LINK_STAT_MESSAGES), blk_stat_get(li, SM_LINK_STAT_BYTES),
                blk_stat_value(li, SM_LINK_STAT_UTIL), blk_stat_get(li, SM_LINK_STAT_STALLS));
    }
}
